//! Queries: the path into a caller buffer or a path handle, partial paths,
//! nearest of many targets.

use std::ptr::null;
use std::sync::Mutex;

use tierpath::{
    Hierarchy, Method, Path, Point, QueryCache, QueryError, QueryOptions, QueryOutcome,
};

use crate::handle::{
    Handle, Kind, TierpathStatus, clear_out, copy_out, fail, get, guard, lock, publish, put,
    put_opt, release, required_out, slice,
};
use crate::hierarchy::TierpathHierarchy;
use crate::map::TierpathPoint;

/// How a query is answered; start from `tierpath_query_options_default`
/// (a zeroed struct is the defaults too). (Options added later are appended
/// here.)
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierpathQueryOptions {
    /// Non-zero: when the goal is unreachable, answer with a partial path to
    /// the reachable cell closest to it (flagged `partial`) instead of none.
    pub partial: u8,
    /// The unit's size: a `unit_size x unit_size` square named by its
    /// top-left cell (the path's cells), whose every move keeps the square
    /// on free cells. 0 or 1: one cell. Above the hierarchy's
    /// `max_unit_size`: `TIERPATH_STATUS_INVALID_ARGUMENT`; an endpoint where
    /// the unit does not fit: `TIERPATH_STATUS_BLOCKED`.
    pub unit_size: u32,
}

/// How a query was answered.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathMethod {
    /// Start and goal on different islands: no search.
    Unreachable = 0,
    /// Start and goal close: an exact bounded A*.
    Near = 1,
    /// The two-tier search.
    Hierarchical = 2,
    /// A full flat A* (safety net).
    Fallback = 3,
}

/// What a query found and what it cost.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TierpathPathInfo {
    /// Cells of the path, start and goal included (0 when none): the buffer
    /// size a path needs.
    pub cells: u64,
    /// Exact cost (a straight step on plain ground costs 1,000,000).
    pub cost: u64,
    /// The cost in straight steps.
    pub cost_in_steps: f64,
    /// Cluster-graph nodes expanded.
    pub abstract_expanded: u64,
    /// Grid cells expanded.
    pub fine_expanded: u64,
    /// How it was answered.
    pub method: TierpathMethod,
    /// 1 when a path was found (also a partial one), 0 when unreachable.
    pub found: u8,
    /// 1 when the path is partial (the goal is unreachable; it ends at the
    /// reachable cell closest to it).
    pub partial: u8,
}

impl TierpathPathInfo {
    pub(crate) fn of(h: &Hierarchy, out: &QueryOutcome) -> TierpathPathInfo {
        let cost = out.path.as_ref().map_or(0, |p| p.cost.0);
        TierpathPathInfo {
            cells: out.path.as_ref().map_or(0, |p| p.cells.len() as u64),
            cost,
            cost_in_steps: h.movement().cost_in_steps(tierpath::Cost(cost)),
            abstract_expanded: out.stats.abstract_expanded,
            fine_expanded: out.stats.fine_expanded,
            method: match out.stats.method {
                Method::Unreachable => TierpathMethod::Unreachable,
                Method::Near => TierpathMethod::Near,
                Method::Hierarchical => TierpathMethod::Hierarchical,
                Method::Fallback => TierpathMethod::Fallback,
            },
            found: u8::from(out.path.is_some()),
            partial: u8::from(out.partial),
        }
    }
}

/// Per-thread query scratch (opaque): one per thread that queries; sized to
/// the largest map it served. Released by `tierpath_cache_free`.
pub struct TierpathCache {
    cache: Mutex<QueryCache>,
}

impl Handle for TierpathCache {
    const KIND: Kind = Kind::Cache;
    const NAME: &'static str = "cache";
}

/// A path (opaque): its cells and what the query did. Released by
/// `tierpath_path_free`.
pub struct TierpathPath {
    pub(crate) cells: Vec<TierpathPoint>,
    pub(crate) info: TierpathPathInfo,
}

impl Handle for TierpathPath {
    const KIND: Kind = Kind::Path;
    const NAME: &'static str = "path";
}

impl TierpathPath {
    pub(crate) fn new(h: &Hierarchy, out: &QueryOutcome) -> TierpathPath {
        TierpathPath {
            cells: cells_of(out.path.as_ref()),
            info: TierpathPathInfo::of(h, out),
        }
    }
}

fn cells_of(path: Option<&Path>) -> Vec<TierpathPoint> {
    path.map_or_else(Vec::new, |p| p.cells.iter().map(|c| (*c).into()).collect())
}

/// One query as asked at the boundary: every entry point that answers a
/// path builds one and calls [`Request::answer`], so a new option (a unit
/// size) is added here and in [`TierpathQueryOptions`] only.
pub(crate) struct Request {
    pub start: Point,
    pub goal: Point,
    pub options: TierpathQueryOptions,
}

impl Request {
    pub(crate) unsafe fn new(
        start: TierpathPoint,
        goal: TierpathPoint,
        options: *const TierpathQueryOptions,
    ) -> Request {
        Request {
            start: start.into(),
            goal: goal.into(),
            // SAFETY: null or a readable options struct, by the caller's contract.
            options: unsafe { options.as_ref() }.copied().unwrap_or_default(),
        }
    }

    /// The library options this request maps to.
    pub(crate) fn library_options(&self) -> QueryOptions {
        QueryOptions::new()
            .partial(self.options.partial != 0)
            .unit_size(self.options.unit_size.max(1))
    }

    /// Answers the request on `h` with `cache`.
    pub(crate) fn answer(
        &self,
        h: &Hierarchy,
        cache: &mut QueryCache,
    ) -> Result<QueryOutcome, QueryError> {
        h.find_path_with(cache, self.start, self.goal, &self.library_options())
    }
}

/// Makes a query cache.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_cache_new(out: *mut *mut TierpathCache) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        publish(
            TierpathCache {
                cache: Mutex::new(QueryCache::new()),
            },
            out,
        )
    })
}

/// Releases a query cache (null: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_cache_free(cache: *mut TierpathCache) -> TierpathStatus {
    unsafe { release(cache) }
}

/// Writes the default query options (a full path or none, for one cell).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_query_options_default(
    options: *mut TierpathQueryOptions,
) -> TierpathStatus {
    let defaults = TierpathQueryOptions {
        partial: 0,
        unit_size: 1,
    };
    guard(|| unsafe { put(options, defaults, "options") })
}

/// Finds a path from `start` to `goal` and copies its cells into `cells`
/// (room for `capacity` points). `options` may be null (defaults). `info`
/// (required) receives what was found, including `info->cells`, the size
/// the path needs (its cells are the unit's top-left cells). An unreachable
/// goal is success with `info->found == 0`.
/// When the path does not fit, nothing is copied and the call returns
/// `TIERPATH_STATUS_BUFFER_TOO_SMALL` (then call again with a larger buffer, or use
/// `tierpath_find_path_handle`). Errors: `TIERPATH_STATUS_OFF_MAP`,
/// `TIERPATH_STATUS_BLOCKED` (an endpoint on a wall, or where the unit does
/// not fit), `TIERPATH_STATUS_INVALID_ARGUMENT` (a unit size the hierarchy
/// does not serve), `TIERPATH_STATUS_BUSY`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_find_path(
    hierarchy: *const TierpathHierarchy,
    cache: *const TierpathCache,
    start: TierpathPoint,
    goal: TierpathPoint,
    options: *const TierpathQueryOptions,
    cells: *mut TierpathPoint,
    capacity: usize,
    info: *mut TierpathPathInfo,
) -> TierpathStatus {
    guard(|| unsafe {
        if info.is_null() {
            return fail(TierpathStatus::NullArgument, "the info pointer is null");
        }
        let request = Request::new(start, goal, options);
        let held = get(hierarchy)?.read();
        let h = held.get();
        let mut cache = lock(&get(cache)?.cache, "cache")?;
        let out = request.answer(h, &mut cache)?;
        info.write(TierpathPathInfo::of(h, &out));
        let path = out.path.as_ref().map_or(&[][..], |p| &p.cells[..]);
        if path.len() > capacity {
            return fail(
                TierpathStatus::BufferTooSmall,
                format!(
                    "the path has {} cells but the buffer holds {capacity}",
                    path.len()
                ),
            );
        }
        if !path.is_empty() && cells.is_null() {
            return fail(TierpathStatus::NullArgument, "the cells buffer is null");
        }
        for (i, p) in path.iter().enumerate() {
            cells.add(i).write((*p).into());
        }
        Ok(())
    })
}

/// Finds a path from `start` to `goal` into a new path handle (`out`; read it
/// with `tierpath_path_info` and `tierpath_path_cells`). An unreachable goal
/// gives a path handle with no cells and `found == 0`. `options` may be null.
/// Errors as `tierpath_find_path`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_find_path_handle(
    hierarchy: *const TierpathHierarchy,
    cache: *const TierpathCache,
    start: TierpathPoint,
    goal: TierpathPoint,
    options: *const TierpathQueryOptions,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let request = Request::new(start, goal, options);
        let held = get(hierarchy)?.read();
        let h = held.get();
        let mut cache = lock(&get(cache)?.cache, "cache")?;
        let outcome = request.answer(h, &mut cache)?;
        publish(TierpathPath::new(h, &outcome), out)
    })
}

/// Writes what the query behind a path handle found.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_path_info(
    path: *const TierpathPath,
    info: *mut TierpathPathInfo,
) -> TierpathStatus {
    guard(|| unsafe { put(info, get(path)?.info, "info") })
}

/// Copies a path handle's cells into `cells` (room for `capacity` points);
/// the count is written to `count` (may be null). A buffer too small (null
/// with capacity 0 to ask for the size) copies nothing and returns
/// `TIERPATH_STATUS_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_path_cells(
    path: *const TierpathPath,
    cells: *mut TierpathPoint,
    capacity: usize,
    count: *mut usize,
) -> TierpathStatus {
    guard(|| unsafe { copy_out(&get(path)?.cells, cells, capacity, count, "path cells") })
}

/// Releases a path handle (null: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_path_free(path: *mut TierpathPath) -> TierpathStatus {
    unsafe { release(path) }
}

/// Finds, among `count` targets, the one nearest to `start` by path cost
/// (the choice is exact), and a path to it, for one cell:
/// `tierpath_nearest_with` with null options.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_nearest(
    hierarchy: *const TierpathHierarchy,
    cache: *const TierpathCache,
    start: TierpathPoint,
    targets: *const TierpathPoint,
    count: usize,
    index: *mut i64,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    unsafe { tierpath_nearest_with(hierarchy, cache, start, targets, count, null(), index, out) }
}

/// Finds, among `count` targets, the one nearest to `start` by path cost
/// (the choice is exact), and a path to it, for the unit of `options` (may
/// be null: one cell; its `partial` does not apply). Writes the target's
/// index to `index` (-1 when none is reachable) and, when `out` is not
/// null, a path handle (no cells when none is reachable). Errors:
/// `TIERPATH_STATUS_OFF_MAP`, `TIERPATH_STATUS_BLOCKED` (the start or a
/// target on a wall, or where the unit does not fit),
/// `TIERPATH_STATUS_INVALID_ARGUMENT` (a unit size the hierarchy does not
/// serve), `TIERPATH_STATUS_BUSY`.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tierpath_nearest_with(
    hierarchy: *const TierpathHierarchy,
    cache: *const TierpathCache,
    start: TierpathPoint,
    targets: *const TierpathPoint,
    count: usize,
    options: *const TierpathQueryOptions,
    index: *mut i64,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    guard(|| unsafe {
        let request = Request::new(start, start, options);
        clear_out(out);
        if index.is_null() {
            return fail(TierpathStatus::NullArgument, "the index pointer is null");
        }
        let targets: Vec<Point> = slice(targets, count, "targets")?
            .iter()
            .map(|p| Point::from(*p))
            .collect();
        let held = get(hierarchy)?.read();
        let h = held.get();
        let mut cache = lock(&get(cache)?.cache, "cache")?;
        let found = h.nearest_with(
            &mut cache,
            request.start,
            &targets,
            &request.library_options(),
        )?;
        let (at, path) = match found.nearest {
            Some(n) => (n.target as i64, Some(n.path)),
            None => (-1, None),
        };
        put_opt(index, at);
        if out.is_null() {
            return Ok(());
        }
        let outcome = QueryOutcome {
            stats: tierpath::QueryStats {
                method: if path.is_some() {
                    Method::Hierarchical
                } else {
                    Method::Unreachable
                },
                abstract_expanded: found.stats.abstract_expanded,
                fine_expanded: found.stats.fine_expanded,
                ..Default::default()
            },
            path,
            partial: false,
        };
        publish(TierpathPath::new(h, &outcome), out)
    })
}
