/*
 * tierpath from C: loads a map, builds its hierarchy, answers paths through
 * every entry point (caller buffer, path handle, sliced query, request queue,
 * nearest of many, partial paths, an edit with its repair report) and checks
 * the status codes of bad input. Prints each path as
 *   path <sx> <sy> <gx> <gy> <cost> <cells> <x0> <y0> <x1> <y1> ...
 * for the Rust test that runs it (ffi/tests) to check against the Rust API.
 *
 * Build (from the repository root, after cargo build --release -p tierpath-ffi):
 *   cc -std=c99 -Wall -Wextra -Iinclude examples/c/check.c \
 *      target/release/libtierpath_ffi.a -lpthread -ldl -lm -o /tmp/tierpath-check
 *   /tmp/tierpath-check data/default.map /tmp
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tierpath.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                                       \
    do {                                                                       \
        checks++;                                                              \
        if (!(cond)) {                                                         \
            failures++;                                                        \
            fprintf(stderr, "FAILED %s:%d: ", __FILE__, __LINE__);             \
            fprintf(stderr, __VA_ARGS__);                                      \
            fprintf(stderr, " (last error: %s)\n", tierpath_last_error());     \
        }                                                                      \
    } while (0)

#define EXPECT(call, want)                                                     \
    do {                                                                       \
        TierpathStatus got_ = (call);                                          \
        CHECK(got_ == (want), "%s returned %s, expected %s", #call,            \
              tierpath_status_name(got_), tierpath_status_name(want));         \
    } while (0)

#define MUST(call)                                                             \
    do {                                                                       \
        TierpathStatus got_ = (call);                                          \
        if (got_ != TIERPATH_STATUS_OK) {                                      \
            fprintf(stderr, "FATAL %s:%d: %s returned %s: %s\n", __FILE__,     \
                    __LINE__, #call, tierpath_status_name(got_),               \
                    tierpath_last_error());                                    \
            exit(2);                                                           \
        }                                                                      \
    } while (0)

static uint32_t width, height;

static int passable(const TierpathHierarchy *h, uint32_t x, uint32_t y) {
    uint8_t p = 0;
    TierpathPoint c = {x, y};
    return tierpath_hierarchy_passable(h, c, &p) == TIERPATH_STATUS_OK && p;
}

/* Legal moves: each cell passable, each step to one of the 8 neighbours. */
static int legal(const TierpathHierarchy *h, const TierpathPoint *cells, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!passable(h, cells[i].x, cells[i].y)) return 0;
        if (i > 0) {
            long dx = (long)cells[i].x - (long)cells[i - 1].x;
            long dy = (long)cells[i].y - (long)cells[i - 1].y;
            if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
        }
    }
    return 1;
}

/* Whether a k x k unit fits with its top-left cell at (x, y). */
static int fits(const TierpathHierarchy *h, uint32_t x, uint32_t y, uint32_t k) {
    for (uint32_t dy = 0; dy < k; dy++)
        for (uint32_t dx = 0; dx < k; dx++)
            if (!passable(h, x + dx, y + dy)) return 0;
    return 1;
}

/* The footprint rule (no corner cutting): the unit fits on every cell, and
 * a diagonal move also fits beside both of its corners. */
static int legal_for(const TierpathHierarchy *h, const TierpathPoint *cells, size_t n,
                     uint32_t k) {
    for (size_t i = 0; i < n; i++) {
        if (!fits(h, cells[i].x, cells[i].y, k)) return 0;
        if (i == 0) continue;
        long dx = (long)cells[i].x - (long)cells[i - 1].x;
        long dy = (long)cells[i].y - (long)cells[i - 1].y;
        if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
        if (dx != 0 && dy != 0 &&
            (!fits(h, cells[i].x, cells[i - 1].y, k) || !fits(h, cells[i - 1].x, cells[i].y, k)))
            return 0;
    }
    return 1;
}

static void print_path(TierpathPoint s, TierpathPoint g, const TierpathPathInfo *info,
                       const TierpathPoint *cells) {
    printf("path %u %u %u %u %llu %llu", s.x, s.y, g.x, g.y,
           (unsigned long long)info->cost, (unsigned long long)info->cells);
    for (uint64_t i = 0; i < info->cells; i++) printf(" %u %u", cells[i].x, cells[i].y);
    printf("\n");
}

/* A deterministic passable cell. */
static uint64_t seed = 12345;
static TierpathPoint random_cell(const TierpathHierarchy *h) {
    for (;;) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t x = (uint32_t)(seed >> 33) % width;
        uint32_t y = (uint32_t)(seed >> 13) % height;
        if (passable(h, x, y)) {
            TierpathPoint p = {x, y};
            return p;
        }
    }
}

/* The required-size protocol: ask with no buffer, then with the size. */
static TierpathPoint *find(const TierpathHierarchy *h, const TierpathCache *cache,
                           TierpathPoint s, TierpathPoint g, TierpathPathInfo *info) {
    TierpathStatus st = tierpath_find_path(h, cache, s, g, NULL, NULL, 0, info);
    if (st == TIERPATH_STATUS_OK) {
        CHECK(!info->found, "an empty buffer holds only no path");
        return NULL;
    }
    CHECK(st == TIERPATH_STATUS_BUFFER_TOO_SMALL, "size query gave %s", tierpath_status_name(st));
    TierpathPoint *cells = malloc(sizeof *cells * (size_t)info->cells);
    MUST(tierpath_find_path(h, cache, s, g, NULL, cells, (size_t)info->cells, info));
    return cells;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s MAP TMPDIR\n", argv[0]);
        return 2;
    }
    printf("tierpath %s\n", tierpath_version());
    TierpathMap *map = NULL;
    MUST(tierpath_map_load(argv[1], &map));
    MUST(tierpath_map_size(map, &width, &height));
    TierpathHierarchy *h = NULL;
    MUST(tierpath_hierarchy_build(map, NULL, &h));
    TierpathCache *cache = NULL;
    MUST(tierpath_cache_new(&cache));
    TierpathStats stats;
    MUST(tierpath_hierarchy_stats(h, &stats));
    CHECK(stats.width == width && stats.clusters > 0, "stats");

    /* Paths into a caller buffer, each checked and printed. */
    TierpathPoint starts[24], goals[24];
    uint64_t costs[24];
    int reachable = 0;
    for (int q = 0; q < 24; q++) {
        starts[q] = random_cell(h);
        goals[q] = random_cell(h);
        TierpathPathInfo info;
        TierpathPoint *cells = find(h, cache, starts[q], goals[q], &info);
        costs[q] = info.cost;
        if (!cells) continue;
        reachable++;
        CHECK(legal(h, cells, (size_t)info.cells), "query %d: illegal move", q);
        CHECK(cells[0].x == starts[q].x && cells[0].y == starts[q].y, "query %d: start", q);
        CHECK(cells[info.cells - 1].x == goals[q].x && cells[info.cells - 1].y == goals[q].y,
              "query %d: goal", q);
        print_path(starts[q], goals[q], &info, cells);

        /* The same query through a path handle: the same cells. */
        TierpathPath *path = NULL;
        MUST(tierpath_find_path_handle(h, cache, starts[q], goals[q], NULL, &path));
        TierpathPathInfo again;
        MUST(tierpath_path_info(path, &again));
        size_t n = 0;
        EXPECT(tierpath_path_cells(path, NULL, 0, &n), TIERPATH_STATUS_BUFFER_TOO_SMALL);
        CHECK(n == info.cells && again.cost == info.cost, "query %d: handle differs", q);
        TierpathPoint *copy = malloc(sizeof *copy * n);
        MUST(tierpath_path_cells(path, copy, n, &n));
        CHECK(memcmp(copy, cells, sizeof *copy * n) == 0, "query %d: handle cells differ", q);
        free(copy);
        MUST(tierpath_path_free(path));
        free(cells);
    }
    CHECK(reachable > 0, "some query is reachable");

    /* The request queue, a small budget per frame: the same costs. */
    TierpathQueue *queue = NULL;
    MUST(tierpath_queue_new(&queue));
    uint64_t ids[8];
    for (int q = 0; q < 8; q++) MUST(tierpath_queue_push(queue, h, starts[q], goals[q], NULL, &ids[q]));
    uint64_t pending = 0;
    int frames = 0;
    do {
        TierpathQueueFrame frame;
        MUST(tierpath_queue_update(queue, h, 64, &frame));
        CHECK(frame.expanded <= 64, "frame over budget");
        MUST(tierpath_queue_pending(queue, &pending));
        frames++;
    } while (pending > 0 && frames < 100000);
    for (int q = 0; q < 8; q++) {
        TierpathPath *path = NULL;
        MUST(tierpath_queue_take(queue, h, ids[q], &path));
        TierpathPathInfo info;
        MUST(tierpath_path_info(path, &info));
        CHECK(info.cost == costs[q], "queue request %d: cost %llu, find_path %llu", q,
              (unsigned long long)info.cost, (unsigned long long)costs[q]);
        MUST(tierpath_path_free(path));
    }
    MUST(tierpath_queue_free(queue));

    /* The sliced query: the same cost. */
    TierpathSliced *sliced = NULL;
    MUST(tierpath_sliced_new(&sliced));
    MUST(tierpath_sliced_start(sliced, h, starts[0], goals[0], NULL));
    TierpathSliceStatus ss;
    do MUST(tierpath_sliced_update(sliced, h, 32, &ss));
    while (ss == TIERPATH_SLICE_STATUS_IN_PROGRESS);
    TierpathPath *sp = NULL;
    MUST(tierpath_sliced_finish(sliced, h, &sp));
    TierpathPathInfo sinfo;
    MUST(tierpath_path_info(sp, &sinfo));
    CHECK(sinfo.cost == costs[0], "sliced cost");
    MUST(tierpath_path_free(sp));
    MUST(tierpath_sliced_free(sliced));

    /* Nearest of many: the answer is one of the targets, reached legally. */
    int64_t index = -2;
    TierpathPath *np = NULL;
    MUST(tierpath_nearest(h, cache, starts[1], goals, 8, &index, &np));
    TierpathPathInfo ninfo;
    MUST(tierpath_path_info(np, &ninfo));
    CHECK(index >= -1 && index < 8, "nearest index %lld", (long long)index);
    if (index >= 0) {
        size_t n = (size_t)ninfo.cells;
        TierpathPoint *nc = malloc(sizeof *nc * n);
        MUST(tierpath_path_cells(np, nc, n, &n));
        CHECK(legal(h, nc, n), "nearest path legal");
        CHECK(nc[n - 1].x == goals[index].x && nc[n - 1].y == goals[index].y, "nearest goal");
        free(nc);
    }
    MUST(tierpath_path_free(np));

    /* Bad input: status codes. */
    TierpathMap *missing = NULL;
    EXPECT(tierpath_map_load("/nonexistent/nowhere.map", &missing), TIERPATH_STATUS_IO);
    CHECK(missing == NULL, "a failed load leaves NULL");
    CHECK(strlen(tierpath_last_error()) > 0, "a failure has a message");
    TierpathPoint wall = {0, 0};
    for (uint32_t y = 0; y < height && passable(h, wall.x, wall.y); y++)
        for (uint32_t x = 0; x < width; x++)
            if (!passable(h, x, y)) { wall.x = x; wall.y = y; break; }
    CHECK(!passable(h, wall.x, wall.y), "the map has a wall");
    TierpathPathInfo info;
    TierpathPoint buf[16];
    EXPECT(tierpath_find_path(h, cache, starts[0], wall, NULL, buf, 16, &info), TIERPATH_STATUS_BLOCKED);
    TierpathPoint off = {width + 5, 0};
    EXPECT(tierpath_find_path(h, cache, off, goals[0], NULL, buf, 16, &info), TIERPATH_STATUS_OFF_MAP);

    /* Save, load back, damage. */
    char file[4096];
    snprintf(file, sizeof file, "%s/check.tph", argv[2]);
    MUST(tierpath_hierarchy_save(h, file));
    TierpathHierarchy *loaded = NULL;
    MUST(tierpath_hierarchy_load(map, file, &loaded));
    TierpathPathInfo linfo;
    TierpathPoint *lcells = find(loaded, cache, starts[0], goals[0], &linfo);
    CHECK(linfo.cost == costs[0], "the loaded hierarchy answers the same");
    free(lcells);
    MUST(tierpath_hierarchy_free(loaded));
    FILE *f = fopen(file, "r+b");
    CHECK(f != NULL, "reopen the saved file");
    if (f) {
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, size / 2, SEEK_SET);
        int c = fgetc(f);
        fseek(f, size / 2, SEEK_SET);
        fputc(c ^ 0x5a, f);
        fclose(f);
    }
    EXPECT(tierpath_hierarchy_load(map, file, &loaded), TIERPATH_STATUS_BAD_HIERARCHY);
    CHECK(loaded == NULL, "a failed load leaves NULL");
    remove(file);

    /* Partial path to a wall-enclosed goal is a flag, not an error. */
    TierpathQueryOptions options;
    MUST(tierpath_query_options_default(&options));
    options.partial = 1;
    TierpathPath *pp = NULL;
    MUST(tierpath_find_path_handle(h, cache, starts[0], goals[0], &options, &pp));
    TierpathPathInfo pinfo;
    MUST(tierpath_path_info(pp, &pinfo));
    CHECK(pinfo.cost == costs[0] && !pinfo.partial, "partial on a reachable goal is find_path");
    MUST(tierpath_path_free(pp));

    /* A 2x2 unit on a hierarchy built for sizes 1 and 2: its path obeys the
     * footprint rule (printed as "sized 2 ..." for the Rust test); size 3 is
     * refused. */
    TierpathBuildSettings settings;
    MUST(tierpath_build_settings_default(&settings));
    settings.max_unit_size = 2;
    TierpathHierarchy *h2 = NULL;
    MUST(tierpath_hierarchy_build(map, &settings, &h2));
    TierpathQueryOptions two;
    MUST(tierpath_query_options_default(&two));
    two.unit_size = 2;
    int sized = 0;
    for (int tries = 0; tries < 200 && !sized; tries++) {
        TierpathPoint s2 = random_cell(h2), g2 = random_cell(h2);
        if (!fits(h2, s2.x, s2.y, 2) || !fits(h2, g2.x, g2.y, 2)) continue;
        TierpathPath *sp = NULL;
        MUST(tierpath_find_path_handle(h2, cache, s2, g2, &two, &sp));
        TierpathPathInfo sinfo;
        MUST(tierpath_path_info(sp, &sinfo));
        if (sinfo.found && sinfo.cells > 20) {
            TierpathPoint *sc = malloc(sizeof *sc * (size_t)sinfo.cells);
            size_t n = 0;
            MUST(tierpath_path_cells(sp, sc, (size_t)sinfo.cells, &n));
            CHECK(legal_for(h2, sc, n, 2), "the 2x2 unit's path obeys the footprint rule");
            printf("sized 2 ");
            print_path(s2, g2, &sinfo, sc);
            free(sc);
            sized = 1;
        }
        MUST(tierpath_path_free(sp));
    }
    CHECK(sized, "a 2x2 unit found a long path");
    TierpathQueryOptions three = two;
    three.unit_size = 3;
    TierpathPathInfo bad;
    EXPECT(tierpath_find_path(h2, cache, starts[0], goals[0], &three, NULL, 0, &bad),
           TIERPATH_STATUS_INVALID_ARGUMENT);
    MUST(tierpath_hierarchy_free(h2));

    /* An edit on a path: the report says it is touched; the new path avoids it. */
    TierpathPathInfo before;
    TierpathPoint *cells = NULL;
    int q = 0;
    for (; q < 24 && !cells; q++) {
        cells = find(h, cache, starts[q], goals[q], &before);
        if (cells && before.cells < 3) { free(cells); cells = NULL; }
    }
    if (cells) {
        q--;
        TierpathEdit edit = {cells[before.cells / 2], TIERPATH_EDIT_KIND_PASSABLE, 0};
        TierpathRepair *report = NULL;
        MUST(tierpath_hierarchy_edit(h, &edit, 1, &report));
        uint8_t touched = 0;
        MUST(tierpath_repair_touches(report, cells, (size_t)before.cells, &touched));
        CHECK(touched == 1, "the repair touches the path through the closed cell");
        TierpathRepairInfo rinfo;
        MUST(tierpath_repair_info(report, &rinfo));
        CHECK(rinfo.changed_cells == 1, "one cell changed");
        MUST(tierpath_repair_free(report));
        TierpathPathInfo after;
        TierpathPoint *now = find(h, cache, starts[q], goals[q], &after);
        if (now) CHECK(legal(h, now, (size_t)after.cells), "the path after the edit is legal");
        free(now);
        free(cells);
    }

    MUST(tierpath_cache_free(cache));
    MUST(tierpath_hierarchy_free(h));
    MUST(tierpath_map_free(map));
    printf("C checks: %d run, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
