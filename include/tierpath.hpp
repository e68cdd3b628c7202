// tierpath.hpp: a small RAII wrapper over the C ABI in tierpath.h (C++17).
// Handles free themselves; failures throw tierpath::Error carrying the status
// code and the library's message. "No path" is not an error: Path::found().
// Thread rules are the C header's: share Map and Hierarchy, one Cache per thread.
#ifndef TIERPATH_HPP
#define TIERPATH_HPP

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tierpath.h"

namespace tierpath {

// A failed call: the status code and the message of tierpath_last_error().
class Error : public std::runtime_error {
public:
    Error(TierpathStatus status, const char *call)
        : std::runtime_error(std::string(call) + ": " + tierpath_status_name(status) + ": " +
                             tierpath_last_error()),
          status_(status) {}
    TierpathStatus status() const noexcept { return status_; }

private:
    TierpathStatus status_;
};

inline void check(TierpathStatus s, const char *call) {
    if (s != TIERPATH_STATUS_OK) throw Error(s, call);
}

// An owning handle: movable, not copyable, freed by Free on destruction.
template <typename T, TierpathStatus (*Free)(T *)>
class Handle {
public:
    Handle() = default;
    explicit Handle(T *raw) : raw_(raw) {}
    Handle(Handle &&o) noexcept : raw_(std::exchange(o.raw_, nullptr)) {}
    Handle &operator=(Handle &&o) noexcept {
        if (this != &o) {
            reset();
            raw_ = std::exchange(o.raw_, nullptr);
        }
        return *this;
    }
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    ~Handle() { reset(); }
    T *get() const noexcept { return raw_; }
    void reset() noexcept {
        if (raw_) Free(raw_);
        raw_ = nullptr;
    }

protected:
    T *raw_ = nullptr;
};

// A path: its cells and what the query found.
struct Path {
    std::vector<TierpathPoint> cells;
    TierpathPathInfo info{};
    bool found() const { return info.found != 0; }
    bool partial() const { return info.partial != 0; }
    std::uint64_t cost() const { return info.cost; }
};

// Reads a path handle into a Path and frees it.
inline Path take_path(TierpathPath *raw) {
    Handle<TierpathPath, tierpath_path_free> owned(raw);
    Path out;
    check(tierpath_path_info(raw, &out.info), "tierpath_path_info");
    out.cells.resize(static_cast<std::size_t>(out.info.cells));
    std::size_t n = 0;
    check(tierpath_path_cells(raw, out.cells.data(), out.cells.size(), &n), "tierpath_path_cells");
    return out;
}

class Map : public Handle<TierpathMap, tierpath_map_free> {
public:
    // A Moving AI (or terrain text) map file.
    static Map load(const std::string &path) {
        TierpathMap *raw = nullptr;
        check(tierpath_map_load(path.c_str(), &raw), "tierpath_map_load");
        return Map(raw);
    }
    // width * height passability bytes (row by row), optional weights.
    static Map from_cells(std::uint32_t width, std::uint32_t height,
                          const std::vector<std::uint8_t> &passable,
                          const std::uint16_t *weights = nullptr) {
        if (passable.size() != std::size_t(width) * height)
            throw std::invalid_argument("passable must hold width * height bytes");
        TierpathMap *raw = nullptr;
        check(tierpath_map_from_cells(width, height, passable.data(), weights, &raw),
              "tierpath_map_from_cells");
        return Map(raw);
    }
    std::pair<std::uint32_t, std::uint32_t> size() const {
        std::uint32_t w = 0, h = 0;
        check(tierpath_map_size(raw_, &w, &h), "tierpath_map_size");
        return {w, h};
    }

private:
    using Handle::Handle;
};

// Build settings: the defaults, serving units of 1x1 up to
// max_unit_size x max_unit_size cells.
inline TierpathBuildSettings build_settings(std::uint32_t max_unit_size = 1) {
    TierpathBuildSettings s{};
    check(tierpath_build_settings_default(&s), "tierpath_build_settings_default");
    s.max_unit_size = max_unit_size;
    return s;
}

// Query options: a unit of unit_size x unit_size cells (its paths are its
// top-left cells), with or without a partial path to an unreachable goal.
inline TierpathQueryOptions query_options(std::uint32_t unit_size = 1, bool partial = false) {
    TierpathQueryOptions o{};
    check(tierpath_query_options_default(&o), "tierpath_query_options_default");
    o.unit_size = unit_size;
    o.partial = partial ? 1 : 0;
    return o;
}

// Per-thread query scratch.
class Cache : public Handle<TierpathCache, tierpath_cache_free> {
public:
    Cache() {
        check(tierpath_cache_new(&raw_), "tierpath_cache_new");
    }
};

class Hierarchy : public Handle<TierpathHierarchy, tierpath_hierarchy_free> {
public:
    static Hierarchy build(const Map &map, const TierpathBuildSettings *settings = nullptr) {
        TierpathHierarchy *raw = nullptr;
        check(tierpath_hierarchy_build(map.get(), settings, &raw), "tierpath_hierarchy_build");
        return Hierarchy(raw);
    }
    static Hierarchy load(const Map &map, const std::string &path) {
        TierpathHierarchy *raw = nullptr;
        check(tierpath_hierarchy_load(map.get(), path.c_str(), &raw), "tierpath_hierarchy_load");
        return Hierarchy(raw);
    }
    void save(const std::string &path) const {
        check(tierpath_hierarchy_save(raw_, path.c_str()), "tierpath_hierarchy_save");
    }
    TierpathStats stats() const {
        TierpathStats s{};
        check(tierpath_hierarchy_stats(raw_, &s), "tierpath_hierarchy_stats");
        return s;
    }
    // Contracts the cluster graph: queries then search the contraction until
    // an edit changes the cluster graph (about 350 ms on a 1024x1024 map).
    void contract() { check(tierpath_hierarchy_contract(raw_), "tierpath_hierarchy_contract"); }
    bool is_contracted() const {
        std::uint8_t out = 0;
        check(tierpath_hierarchy_is_contracted(raw_, &out), "tierpath_hierarchy_is_contracted");
        return out != 0;
    }
    bool passable(TierpathPoint p) const {
        std::uint8_t out = 0;
        check(tierpath_hierarchy_passable(raw_, p, &out), "tierpath_hierarchy_passable");
        return out != 0;
    }
    // A path (found() false when unreachable); throws on bad input.
    Path find_path(Cache &cache, TierpathPoint start, TierpathPoint goal,
                   const TierpathQueryOptions *options = nullptr) const {
        TierpathPath *raw = nullptr;
        check(tierpath_find_path_handle(raw_, cache.get(), start, goal, options, &raw),
              "tierpath_find_path_handle");
        return take_path(raw);
    }
    // Applies edits and repairs; true when `path` crosses a changed cluster.
    bool edit(const std::vector<TierpathEdit> &edits, const Path *path = nullptr) {
        TierpathRepair *raw = nullptr;
        check(tierpath_hierarchy_edit(raw_, edits.data(), edits.size(), &raw),
              "tierpath_hierarchy_edit");
        Handle<TierpathRepair, tierpath_repair_free> report(raw);
        std::uint8_t touched = 0;
        if (path)
            check(tierpath_repair_touches(raw, path->cells.data(), path->cells.size(), &touched),
                  "tierpath_repair_touches");
        return touched != 0;
    }

private:
    using Handle::Handle;
};

// Requests served oldest first within a per-frame budget of expansions.
class Queue : public Handle<TierpathQueue, tierpath_queue_free> {
public:
    Queue() { check(tierpath_queue_new(&raw_), "tierpath_queue_new"); }
    std::uint64_t push(const Hierarchy &h, TierpathPoint start, TierpathPoint goal,
                       const TierpathQueryOptions *options = nullptr) {
        std::uint64_t id = 0;
        check(tierpath_queue_push(raw_, h.get(), start, goal, options, &id), "tierpath_queue_push");
        return id;
    }
    TierpathQueueFrame update(const Hierarchy &h, std::uint64_t budget) {
        TierpathQueueFrame frame{};
        check(tierpath_queue_update(raw_, h.get(), budget, &frame), "tierpath_queue_update");
        return frame;
    }
    std::uint64_t pending() const {
        std::uint64_t n = 0;
        check(tierpath_queue_pending(raw_, &n), "tierpath_queue_pending");
        return n;
    }
    Path take(const Hierarchy &h, std::uint64_t id) {
        TierpathPath *raw = nullptr;
        check(tierpath_queue_take(raw_, h.get(), id, &raw), "tierpath_queue_take");
        return take_path(raw);
    }
};

}  // namespace tierpath

#endif  // TIERPATH_HPP
