/*
 * tierpath from C++ through the RAII wrapper tierpath.hpp: the same checks as
 * check.c, and the same "path ..." lines for the Rust test to compare.
 *
 *   c++ -std=c++17 -Wall -Wextra -Iinclude examples/c/check.cpp \
 *       target/release/libtierpath_ffi.a -lpthread -ldl -lm -o /tmp/tierpath-check-cpp
 *   /tmp/tierpath-check-cpp data/default.map /tmp
 */
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "tierpath.hpp"

static int failures = 0;

static void expect(bool cond, const char *what) {
    if (!cond) {
        failures++;
        std::cerr << "FAILED: " << what << "\n";
    }
}

// Runs `f`, expecting a tierpath::Error with `want`.
template <typename F>
static void expect_status(F f, TierpathStatus want, const char *what) {
    try {
        f();
        expect(false, what);
    } catch (const tierpath::Error &e) {
        if (e.status() != want) std::cerr << "  got: " << e.what() << "\n";
        expect(e.status() == want, what);
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::cerr << "usage: " << argv[0] << " MAP TMPDIR\n";
        return 2;
    }
    try {
        auto map = tierpath::Map::load(argv[1]);
        auto [width, height] = map.size();
        auto h = tierpath::Hierarchy::build(map);
        tierpath::Cache cache;

        std::vector<std::pair<TierpathPoint, TierpathPoint>> queries;
        std::uint64_t seed = 777;
        auto cell = [&]() {
            for (;;) {
                seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
                TierpathPoint p{std::uint32_t(seed >> 33) % width, std::uint32_t(seed >> 13) % height};
                if (h.passable(p)) return p;
            }
        };
        tierpath::Queue queue;
        std::vector<std::uint64_t> ids;
        std::vector<std::uint64_t> costs;
        for (int q = 0; q < 16; q++) {
            TierpathPoint s = cell(), g = cell();
            auto path = h.find_path(cache, s, g);
            costs.push_back(path.cost());
            ids.push_back(queue.push(h, s, g));
            if (!path.found()) continue;
            std::printf("path %u %u %u %u %llu %zu", s.x, s.y, g.x, g.y,
                        (unsigned long long)path.cost(), path.cells.size());
            for (auto c : path.cells) std::printf(" %u %u", c.x, c.y);
            std::printf("\n");
        }
        while (queue.pending() > 0) expect(queue.update(h, 100).expanded <= 100, "budget kept");
        for (std::size_t i = 0; i < ids.size(); i++)
            expect(queue.take(h, ids[i]).cost() == costs[i], "queue answers as find_path");

        // Bad input.
        expect_status([] { tierpath::Map::load("/nonexistent/nowhere.map"); }, TIERPATH_STATUS_IO,
                      "missing map file");
        TierpathPoint wall{0, 0};
        while (h.passable(wall)) wall.x++;
        expect_status([&] { h.find_path(cache, cell(), wall); }, TIERPATH_STATUS_BLOCKED,
                      "goal on a wall");
        std::string file = std::string(argv[2]) + "/check-cpp.tph";
        h.save(file);
        {
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekg(0, std::ios::end);
            auto size = f.tellg();
            f.seekg(size / 2);
            char c = 0;
            f.get(c);
            f.seekp(size / 2);
            f.put(char(c ^ 0x5a));
        }
        expect_status([&] { tierpath::Hierarchy::load(map, file); },
                      TIERPATH_STATUS_BAD_HIERARCHY, "damaged hierarchy file");
        std::remove(file.c_str());
    } catch (const tierpath::Error &e) {
        std::cerr << "FATAL: " << e.what() << "\n";
        return 2;
    }
    std::printf("C++ checks: %d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
