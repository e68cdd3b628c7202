//! Two-tier queries on a [`Hierarchy`]: plan over clusters, refine into cells,
//! smooth.
//!
//! A query takes, in order, the first of these that applies:
//!
//! 1. **Different islands**: unreachable, answered from the island labels
//!    without searching.
//! 2. **Near**: on a map of uniform cost, for a unit of one cell, start and
//!    goal at most two clusters apart (in columns or rows): exact jump point
//!    search over the whole map, given up after 256 jump points (a way round
//!    that winds far), when the query goes on to 3 with nothing else spent.
//!    With terrain weights or for a larger unit, start and goal in the same
//!    or neighbouring clusters: an exact A* bounded to the clusters around
//!    them, returned when no path leaving that area can be cheaper, else
//!    compared with 3's path (the cheaper is kept). Either way short paths
//!    are optimal.
//! 3. **Hierarchical**: connect the start and the goal to their clusters'
//!    transitions (in-cluster Dijkstra), A* over the cluster graph skipping
//!    dead-end regions that hold neither endpoint, then refine each abstract
//!    edge into cells (an in-cluster A*, or a copy when the hierarchy keeps edge
//!    paths) and smooth the cells: wherever a straight octile route between two
//!    cells of the path is free and cheaper than the stretch it replaces, it
//!    replaces it. Smoothing never raises the cost and keeps the path valid.
//!    Where the map's obstacles are scattered ([`Polish`]), each window of
//!    the smoothed path is then searched again exactly and replaced where
//!    that is cheaper (`polish`).
//!
//! Refinement is lazy: [`Hierarchy::plan`] returns a [`PathPlan`] holding the
//! abstract route (still packed on a contracted hierarchy, unpacked as
//! refinement reaches it), whose [`PathPlan::next_segment`] yields the cell
//! path piece by piece, so a unit can start moving at once. [`Hierarchy::find_path`] is the
//! same plan run to its end, so the two give identical cells.
//!
//! ```
//! use tierpath::{Grid, Hierarchy, Point, QueryCache};
//! let grid = Grid::from_fn(200, 200, |p| !(p.x == 100 && p.y < 180)).unwrap();
//! let h = Hierarchy::build(grid).unwrap();
//! let mut cache = QueryCache::new();
//! let out = h.find_path(&mut cache, Point::new(10, 10), Point::new(190, 10)).unwrap();
//! let path = out.path.expect("reachable around the wall");
//! assert_eq!(path.goal(), Some(Point::new(190, 10)));
//! path.validate(h.grid(), h.movement()).unwrap();
//! ```

mod abstract_search;
mod ends;
mod local;
mod nearest;
mod partial;
mod plan;
mod polish;
mod queue;
mod sliced;
pub(crate) mod unit;

pub use nearest::{NEAREST_LOCAL_EXPANSIONS, NearestMethod, NearestOutcome, NearestStats};
pub use partial::QueryOptions;
pub use plan::PathPlan;
pub use polish::Polish;
pub use queue::{PathQueue, QueueFrame, RequestId, RequestStatus};
pub use sliced::SlicedQuery;

pub(crate) use abstract_search::contracted_search;

use std::time::{Duration, Instant};

use abstract_search::{AbstractRoute, AbstractScratch};

use crate::grid::Point;
use crate::hierarchy::Hierarchy;
use crate::search::{Jumped, Path, Pricing, QueryError, SearchCache};
use local::{NEAR_JUMPS, NearSearch};

/// How a query was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Method {
    /// Start and goal on different islands: no search.
    #[default]
    Unreachable,
    /// Start and goal close: the path of the near search, optimal when the
    /// query stopped there (then no abstract search ran: `abstract_expanded`
    /// is 0). On a map of uniform cost, for a unit of one cell, that search
    /// is jump point search over the whole map, and its path is always
    /// optimal. Otherwise it is an exact A* bounded to the clusters around
    /// start and goal: the query stops there when no path leaving that area
    /// can be cheaper, and else keeps the cheaper of it and the hierarchical
    /// path searched beside it, both within the hierarchy's usual bound of
    /// the optimum.
    Near,
    /// The two-tier search.
    Hierarchical,
    /// A full flat A*, used only if the hierarchy finds no route between cells
    /// of one island (which its construction rules out; kept as a safety net).
    Fallback,
}

/// Time spent in each phase of a query, when timing is on
/// ([`QueryCache::time_phases`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PhaseTimes {
    /// Connecting start and goal to their clusters (and the near search).
    pub connect: Duration,
    /// The search over the cluster graph (on a contracted hierarchy, with
    /// the route left packed: its unpacking counts in `refine`).
    pub abstract_search: Duration,
    /// Refining abstract edges into cells.
    pub refine: Duration,
    /// Smoothing.
    pub smooth: Duration,
}

/// What a query did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueryStats {
    /// How it was answered.
    pub method: Method,
    /// Nodes of the cluster graph expanded.
    pub abstract_expanded: u64,
    /// Grid cells expanded by all its grid searches.
    pub fine_expanded: u64,
    /// Abstract edges on the route (a plan over a contracted hierarchy
    /// counts them as its route is unpacked: all of them once complete).
    pub abstract_edges: u32,
    /// Phase times, when timing is on.
    pub phases: Option<PhaseTimes>,
}

/// A query's result: the path (`None` when unreachable) and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryOutcome {
    /// The path, or `None` when the goal is unreachable (with
    /// [`QueryOptions::partial`], a partial path then).
    pub path: Option<Path>,
    /// Counters.
    pub stats: QueryStats,
    /// Whether `path` is partial: the goal is unreachable and the path ends at
    /// a reachable cell closest to it ([`Hierarchy::find_path_with`]).
    pub partial: bool,
}

/// Per-thread query scratch: grid-search state sized to the map and
/// abstract-search state sized to the cluster graph, reused across queries
/// and reset by generation stamps (no clearing, no per-query allocation
/// beyond the returned path).
#[derive(Debug, Default, Clone)]
pub struct QueryCache {
    pub(crate) grid: SearchCache,
    pub(crate) abs: AbstractScratch,
    /// Scratch of the search over a contracted cluster graph, and its route.
    pub(crate) cch: crate::contraction::ContractionScratch,
    pub(crate) cch_route: crate::contraction::ContractionRoute,
    pub(crate) route: AbstractRoute,
    pub(crate) starts: Vec<(u32, u64)>,
    pub(crate) goals: Vec<(u32, u64)>,
    pub(crate) timing: bool,
    /// Whether to record expansions, and what was recorded for the last query.
    pub(crate) recording: bool,
    pub(crate) fine_trace: Vec<Point>,
    pub(crate) abstract_trace: Vec<Point>,
    /// The endpoints' connection searches by the in-cluster kernel (start,
    /// goal), kept for the first and last legs.
    pub(crate) ends: ends::Ends,
    /// Smoothing's memo of the free runs out of its anchor.
    pub(crate) runs: crate::engine::route::Runs,
    /// The last finished plan's lists, for the next plan.
    pub(crate) plan_lists: plan::PlanLists,
    /// The near search's scratch when it runs by jump points.
    pub(crate) jps: crate::search::JpsCache,
}

impl QueryCache {
    /// An empty cache; it sizes itself on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Measures time per phase in the following queries ([`QueryStats::phases`]).
    pub fn time_phases(&mut self, on: bool) {
        self.timing = on;
    }

    /// Records, for the following queries, every grid cell their searches
    /// expand and every cluster-graph node (as its cell) the abstract search
    /// expands; off by default. For rendering and teaching.
    pub fn record_expansions(&mut self, on: bool) {
        self.recording = on;
        self.grid.record_expansions(on);
        self.fine_trace.clear();
        self.abstract_trace.clear();
    }

    /// Grid cells expanded by the last query's searches (when recording).
    pub fn fine_expansions(&self) -> &[Point] {
        &self.fine_trace
    }

    /// Cluster-graph nodes expanded by the last query (when recording).
    pub fn abstract_expansions(&self) -> &[Point] {
        &self.abstract_trace
    }

    /// Appends the grid cache's recorded expansions to the query's record.
    pub(crate) fn collect_fine(&mut self) {
        if self.recording {
            self.fine_trace
                .extend(self.grid.expansions().iter().map(|e| e.cell));
        }
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.grid.memory_bytes()
            + self.abs.memory_bytes()
            + self.cch.memory_bytes()
            + self.jps.memory_bytes()
    }
}

/// A timer that costs nothing when timing is off.
pub(crate) struct Clock(Option<Instant>);

impl Clock {
    pub(crate) fn start(on: bool) -> Clock {
        Clock(on.then(Instant::now))
    }
    pub(crate) fn add_to(self, slot: &mut Duration) {
        if let Some(t) = self.0 {
            *slot += t.elapsed();
        }
    }
}

impl Hierarchy {
    /// Finds a path from `start` to `goal`: near-optimal, valid under
    /// [`Hierarchy::movement`]. `Ok` with `path: None` when unreachable; `Err`
    /// for an endpoint off the map or blocked. For a unit larger than one
    /// cell, or a partial path when the goal cannot be reached, see
    /// [`Hierarchy::find_path_with`].
    pub fn find_path(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
    ) -> Result<QueryOutcome, QueryError> {
        let size = self.check_unit(start, goal, 1)?;
        self.find_path_for(cache, start, goal, size)
    }

    /// [`Hierarchy::find_path`] for a unit of `size` (checked).
    pub(crate) fn find_path_for(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
        size: u8,
    ) -> Result<QueryOutcome, QueryError> {
        let Some(mut plan) = self.plan_for(cache, start, goal, size)? else {
            return Ok(QueryOutcome {
                path: None,
                stats: QueryStats {
                    method: Method::Unreachable,
                    phases: cache.timing.then(PhaseTimes::default),
                    ..QueryStats::default()
                },
                partial: false,
            });
        };
        // A path has at least a cell per row or column it spans.
        let span = start.x.abs_diff(goal.x).max(start.y.abs_diff(goal.y));
        let mut cells = Vec::with_capacity(span as usize + 1);
        while let Some(piece) = plan.next_segment(self, cache) {
            cells.extend_from_slice(piece);
        }
        let (stats, cost) = (plan.stats(), plan.cost());
        cache.plan_lists = plan.into_lists();
        Ok(QueryOutcome {
            path: Some(Path { cells, cost }),
            stats,
            partial: false,
        })
    }

    /// Answers many queries in parallel (rayon), one scratch per worker.
    pub fn find_paths(&self, queries: &[(Point, Point)]) -> Vec<Result<QueryOutcome, QueryError>> {
        self.find_paths_with(queries, &QueryOptions::new())
    }

    /// Answers many queries with the same options in parallel (rayon), one
    /// scratch per worker.
    pub fn find_paths_with(
        &self,
        queries: &[(Point, Point)],
        options: &QueryOptions,
    ) -> Vec<Result<QueryOutcome, QueryError>> {
        use rayon::prelude::*;
        queries
            .par_iter()
            .map_init(QueryCache::new, |cache, (s, t)| {
                self.find_path_with(cache, *s, *t, options)
            })
            .collect()
    }

    /// Plans a path without refining it: `Ok(None)` when unreachable, else a
    /// [`PathPlan`] holding the abstract route (packed, on a contracted
    /// hierarchy) whose cells come piece by piece from
    /// [`PathPlan::next_segment`].
    pub fn plan(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
    ) -> Result<Option<PathPlan>, QueryError> {
        self.plan_with(cache, start, goal, &QueryOptions::new())
    }

    /// [`Hierarchy::plan`] with options: the unit's size, and with
    /// [`QueryOptions::partial`] an unreachable goal gives the plan of
    /// [`Hierarchy::find_path_with`]'s partial path (already refined:
    /// [`PathPlan::is_partial`] says so).
    pub fn plan_with(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
        options: &QueryOptions,
    ) -> Result<Option<PathPlan>, QueryError> {
        let size = self.check_unit(start, goal, options.size())?;
        if options.is_partial() && !self.connected_for(start, goal, size) {
            let out = self.find_path_with(cache, start, goal, options)?;
            return Ok(out
                .path
                .map(|p| PathPlan::finished(p, out.stats).into_partial()));
        }
        self.plan_for(cache, start, goal, size)
    }

    /// [`Hierarchy::plan`] for a unit of `size` (checked).
    pub(crate) fn plan_for(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
        size: u8,
    ) -> Result<Option<PathPlan>, QueryError> {
        let grid = self.grid();
        cache.fine_trace.clear();
        cache.abstract_trace.clear();
        if !self.connected_for(start, goal, size) {
            return Ok(None);
        }
        let mut stats = QueryStats {
            method: Method::Near,
            phases: cache.timing.then(PhaseTimes::default),
            ..QueryStats::default()
        };
        let mut phases = PhaseTimes::default();
        let timing = cache.timing;

        // 2. Near: on a map of uniform cost, jump point search over the
        // whole map for a budget of jump points; otherwise an exact search
        // bounded to the clusters around both ends, whose path is returned
        // when provably optimal and otherwise competes with the hierarchical
        // one below.
        let mut near = None;
        let settled = match self.near(size, start, goal) {
            NearSearch::Jumps => {
                // Exact over the whole map: a path found is optimal, and one
                // not found within the budget leaves the query to the
                // hierarchy alone.
                let clock = Clock::start(timing);
                let jumped = self.near_jump(&mut cache.jps, (start, goal), false, NEAR_JUMPS);
                stats.fine_expanded += cache.jps.stats().expanded;
                if let (true, Some(lines)) = (cache.recording, self.jump_lines()) {
                    cache.fine_trace.extend(lines.expanded(&cache.jps));
                }
                clock.add_to(&mut phases.connect);
                match jumped {
                    // Unreachable for the size, already ruled out above.
                    Jumped::Unreachable => return Ok(None),
                    jumped => jumped.into_path(),
                }
            }
            NearSearch::Bounded(area) => {
                let clock = Clock::start(timing);
                let found = self.bounded_astar(&mut cache.grid, size, start, goal, area);
                cache.collect_fine();
                stats.fine_expanded += cache.grid.stats().expanded;
                clock.add_to(&mut phases.connect);
                match found {
                    // No path leaving the area can be cheaper: this one is optimal.
                    Some(path)
                        if path.cost.0
                            <= self
                                .layout()
                                .escape_bound(start, goal, &area, self.min_step()) =>
                    {
                        Some(path)
                    }
                    found => {
                        near = found;
                        None
                    }
                }
            }
            NearSearch::Skip => None,
        };
        if let Some(path) = settled {
            if let Some(p) = stats.phases.as_mut() {
                *p = phases;
            }
            return Ok(Some(PathPlan::finished(path, stats)));
        }

        // 3. Hierarchical.
        stats.method = Method::Hierarchical;
        let clock = Clock::start(timing);
        let mut goals = std::mem::take(&mut cache.goals);
        let mut starts = std::mem::take(&mut cache.starts);
        stats.fine_expanded += self.connect_with(
            &mut cache.grid,
            &mut cache.ends[1],
            size,
            goal,
            Pricing::Reverse,
            &mut goals,
        );
        cache.collect_fine();
        let start_searched = self.connect_with(
            &mut cache.grid,
            &mut cache.ends[0],
            size,
            start,
            Pricing::Forward,
            &mut starts,
        );
        stats.fine_expanded += start_searched;
        cache.collect_fine();
        clock.add_to(&mut phases.connect);

        let clock = Clock::start(timing);
        let anchor = |p: Point| self.dead_ends().anchor_of(grid.cell_index(p).index());
        let mut route = std::mem::take(&mut cache.route);
        // A contracted search leaves its route packed, to be unpacked as
        // refinement reaches it (the plan returns before that).
        let mut packed = cache.plan_lists.take_packed();
        let contracted = self.contracted_start(&mut cache.cch, size, &starts, &goals, &mut packed);
        let (found, expanded) = match contracted {
            Some(ends) => (ends.is_some(), cache.cch.settled()),
            None => {
                let trace = cache.recording.then_some(&mut cache.abstract_trace);
                cache.abs.search(
                    self,
                    size,
                    &starts,
                    &goals,
                    goal,
                    anchor(start),
                    anchor(goal),
                    &mut route,
                    trace,
                )
            }
        };
        stats.abstract_expanded = expanded;
        clock.add_to(&mut phases.abstract_search);
        cache.goals = goals;
        cache.starts = starts;

        let plan = if found {
            let tree = (start_searched > 0 && !cache.ends[0].ran()).then_some(&cache.grid);
            match contracted {
                Some(Some((_, first, last))) => PathPlan::packed(
                    self,
                    size,
                    (start, goal),
                    (first, last),
                    packed,
                    stats,
                    phases,
                    tree,
                    (&mut cache.ends, std::mem::take(&mut cache.plan_lists)),
                ),
                _ => {
                    stats.abstract_edges = route.nodes.len() as u32 + 1;
                    PathPlan::route(
                        self,
                        size,
                        (start, goal),
                        &route,
                        stats,
                        phases,
                        tree,
                        (&mut cache.ends, std::mem::take(&mut cache.plan_lists)),
                    )
                }
            }
        } else {
            // Unreachable by construction (connected for the size); a full
            // search keeps the answer right regardless.
            stats.method = Method::Fallback;
            let out = self
                .flat_astar(size)
                .find_path(&mut cache.grid, start, goal)?;
            cache.collect_fine();
            stats.fine_expanded += out.stats.expanded;
            match out.path {
                Some(p) => PathPlan::finished(p, stats),
                None => {
                    cache.route = route;
                    return Ok(None);
                }
            }
        };
        cache.route = route;
        match near {
            None => Ok(Some(plan)),
            Some(near) => {
                // Refine the hierarchical path whole and keep the cheaper.
                let mut plan = plan;
                let mut cells = Vec::new();
                while let Some(piece) = plan.next_segment(self, cache) {
                    cells.extend_from_slice(piece);
                }
                let (mut stats, cost) = (plan.stats(), plan.cost());
                cache.plan_lists = plan.into_lists();
                let best = if cost < near.cost {
                    Path { cells, cost }
                } else {
                    stats.method = Method::Near;
                    near
                };
                Ok(Some(PathPlan::finished(best, stats)))
            }
        }
    }

    /// Exact flat A* for a unit of `size` (checked) under this hierarchy's
    /// movement rules: the safety net, and the oracle of nearest-of-many.
    pub(crate) fn flat_astar(&self, size: u8) -> crate::search::AStar<'_> {
        let astar = match self.sizes() {
            Some(sizes) if size > 1 => {
                crate::search::AStar::for_unit_on(self.grid(), &sizes.clearance, size as u32)
            }
            _ => crate::search::AStar::new(self.grid()),
        };
        astar.movement(self.settings().movement)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AStar, Grid, HierarchyBuilder};
    use local::JUMP_REACH;

    /// A `w x h` map whose cell `p` is passable when `open(p, r)` says so,
    /// `r` a seeded pseudo-random number below 100 drawn per cell in row
    /// order.
    pub(super) fn seeded(seed: u64, w: u32, h: u32, open: impl Fn(Point, u64) -> bool) -> Grid {
        let mut x = seed;
        Grid::from_fn(w, h, |p| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            open(p, (x >> 33) % 100)
        })
        .unwrap()
    }

    /// A deterministic maze-ish map: walls on a lattice with random gaps.
    fn lattice(seed: u64, w: u32, h: u32) -> Grid {
        seeded(seed, w, h, |p, r| {
            !((p.x % 5 == 0 || p.y % 7 == 0) && r < 75)
        })
    }

    #[test]
    fn paged_abstract_records_give_the_same_answers() {
        // Small graphs paged (the layout of graphs over a million nodes)
        // against the flat records, on the same queries.
        let mut flat = QueryCache::new();
        let mut paged = QueryCache::new();
        paged.abs = AbstractScratch::with_flat_limit(0);
        let mut compared = 0;
        for seed in 0..4 {
            let grid = lattice(seed, 90, 70);
            let h = HierarchyBuilder::new()
                .cluster_size(8)
                .build(grid.clone())
                .unwrap();
            let pts: Vec<Point> = grid.passable_points().collect();
            for k in 0..150 {
                let (s, t) = (
                    pts[(k * 7919) % pts.len()],
                    pts[(k * 104_729 + 13) % pts.len()],
                );
                let a = h.find_path(&mut flat, s, t).unwrap();
                let b = h.find_path(&mut paged, s, t).unwrap();
                assert_eq!(a.path, b.path, "seed {seed}: {s} -> {t}");
                assert_eq!(a.stats.abstract_expanded, b.stats.abstract_expanded);
                compared += usize::from(a.stats.abstract_expanded > 0);
            }
        }
        assert!(paged.abs.memory_bytes() > 0);
        assert!(compared > 100, "the abstract search ran: {compared}");
    }

    #[test]
    fn near_answers_are_exact_and_never_worse_than_the_hierarchy() {
        let mut flat = SearchCache::new();
        let mut cache = QueryCache::new();
        let mut methods = std::collections::BTreeMap::new();
        for seed in 0..6 {
            let grid = lattice(seed, 60, 44);
            let h = HierarchyBuilder::new()
                .cluster_size(6)
                .build(grid.clone())
                .unwrap();
            let pts: Vec<Point> = grid.passable_points().collect();
            for k in 0..300 {
                let (s, t) = (
                    pts[(k * 7919) % pts.len()],
                    pts[(k * 104_729 + 13) % pts.len()],
                );
                let exact = AStar::new(&grid).find_path(&mut flat, s, t).unwrap().path;
                let out = h.find_path(&mut cache, s, t).unwrap();
                *methods
                    .entry(format!("{:?}", out.stats.method))
                    .or_insert(0) += 1;
                match (exact, out.path) {
                    (None, None) => assert_eq!(out.stats.method, Method::Unreachable),
                    (Some(e), Some(p)) => {
                        p.validate(&grid, h.movement()).unwrap();
                        assert!(p.cost >= e.cost);
                        if out.stats.method == Method::Near && out.stats.abstract_expanded == 0 {
                            assert_eq!(p.cost, e.cost, "near answer {s} -> {t} is not optimal");
                        }
                    }
                    (e, p) => panic!("reachability differs for {s} -> {t}: {e:?} vs {p:?}"),
                }
            }
        }
        assert!(
            methods.get("Near").copied().unwrap_or(0) > 50,
            "{methods:?}"
        );
        assert!(
            methods.get("Hierarchical").copied().unwrap_or(0) > 50,
            "{methods:?}"
        );
    }

    #[test]
    fn near_searches_jump_on_uniform_maps_and_stay_bounded_on_weighted_ones() {
        let grid = Grid::from_fn(60, 44, |p| !(p.x == 4 && p.y < 6)).unwrap();
        let mut heavy = grid.clone();
        heavy
            .set_weight(Point::new(59, 43), crate::Weight(3))
            .unwrap();
        let build = |g: &Grid| HierarchyBuilder::new().cluster_size(6).build(g.clone());
        let (plain, weighted) = (build(&grid).unwrap(), build(&heavy).unwrap());
        // Clusters of 6: (8, 8) is one cluster from (1, 1), (13, 1) two, and
        // (21, 1) three.
        let (s, t) = (Point::new(1, 1), Point::new(8, 8));
        let (two, three) = (Point::new(13, 1), Point::new(21, 1));
        assert!(matches!(plain.near(1, s, t), NearSearch::Jumps));
        assert!(matches!(plain.near(1, s, two), NearSearch::Jumps));
        assert!(matches!(plain.near(1, s, three), NearSearch::Skip));
        assert!(matches!(weighted.near(1, s, t), NearSearch::Bounded(_)));
        assert!(matches!(weighted.near(1, s, two), NearSearch::Skip));
        assert!(plain.memory_bytes() > weighted.memory_bytes());
        // Both answer exactly where the near search settles the query.
        let mut cache = QueryCache::new();
        let mut flat = SearchCache::new();
        for (h, g) in [(&plain, &grid), (&weighted, &heavy)] {
            let out = h.find_path(&mut cache, s, t).unwrap();
            let exact = AStar::new(g).find_path(&mut flat, s, t);
            assert_eq!(out.stats.method, Method::Near);
            assert_eq!(out.path.unwrap().cost, exact.unwrap().path.unwrap().cost);
        }
        // Recorded, the jump points expanded are the fine expansions.
        cache.record_expansions(true);
        let out = plain.find_path(&mut cache, s, t).unwrap();
        assert_eq!(
            cache.fine_expansions().len() as u64,
            out.stats.fine_expanded
        );
        assert_eq!(cache.fine_expansions().first(), Some(&s));
    }

    #[test]
    fn a_near_search_out_of_jumps_leaves_the_query_to_the_hierarchy() {
        // Start and goal a few cells apart across a wall whose way round
        // winds through scattered blocks: more jump points than the near
        // search may expand.
        let grid = seeded(7, 160, 120, |p, r| {
            (p.x != 80 || p.y == 119) && (r >= 25 || p.y < 3 || p.x.abs_diff(80) < 2)
        });
        let h = HierarchyBuilder::new()
            .cluster_size(8)
            .build(grid.clone())
            .unwrap();
        let (s, t) = (Point::new(78, 1), Point::new(83, 1));
        assert!(matches!(h.near(1, s, t), NearSearch::Jumps));
        let mut cache = QueryCache::new();
        assert_eq!(
            h.near_jump(&mut cache.jps, (s, t), false, NEAR_JUMPS),
            Jumped::Paused
        );
        assert_eq!(cache.jps.stats().expanded, NEAR_JUMPS);
        let out = h.find_path(&mut cache, s, t).unwrap();
        assert_eq!(out.stats.method, Method::Hierarchical);
        assert!(out.stats.abstract_expanded > 0);
        let path = out.path.clone().expect("reachable round the wall");
        path.validate(&grid, h.movement()).unwrap();
        let exact = AStar::new(&grid).find_path(&mut SearchCache::new(), s, t);
        assert!(path.cost >= exact.unwrap().path.unwrap().cost);
        // Sliced, the near search pauses at each slice's end and resumes,
        // and gives up where the one-shot query does.
        let mut q = crate::SlicedQuery::new();
        for slice in [1, 7, 300, u64::MAX] {
            q.start(&h, s, t).unwrap();
            while q.update(&h, slice).unwrap() == crate::SliceStatus::InProgress {}
            assert_eq!(q.finish(), Some(out.clone()), "slice {slice}");
        }
    }

    #[test]
    fn cell_landmarks_answer_far_queries_exactly_and_repairs_keep_them_sound() {
        // Pillars and walls with gaps: ways that wind, at every distance.
        let grid = seeded(3, 120, 90, |p, r| {
            r >= 12 && (p.x % 30 != 15 || p.y % 45 == 44) && (p.y != 45 || p.x % 40 == 3)
        });
        let mut h = HierarchyBuilder::new()
            .cluster_size(8)
            .build(grid.clone())
            .unwrap();
        let bare = h.memory_bytes();
        assert!(h.add_cell_landmarks(2));
        assert_eq!(h.memory_bytes() - bare, 2 * 4 * 122 * 92);
        assert_eq!(h.stats().memory_bytes, h.memory_bytes() as u64);
        let cells: Vec<Point> = grid.passable_points().step_by(97).collect();
        let mut world = crate::DynamicHierarchy::new(h.clone());
        let mut cache = QueryCache::new();
        let mut flat = SearchCache::new();
        let (mut near, mut far) = (0, 0);
        for (i, &s) in cells.iter().enumerate() {
            let t = cells[(i * 7 + 3) % cells.len()];
            assert!(matches!(h.near(1, s, t), NearSearch::Jumps));
            let out = h.find_path(&mut cache, s, t).unwrap();
            let exact = AStar::new(&grid).find_path(&mut flat, s, t).unwrap().path;
            if out.stats.method == Method::Near {
                assert_eq!(out.path.as_ref().map(|p| p.cost), exact.map(|p| p.cost));
                near += 1;
                far += usize::from(h.layout().clusters_apart(s, t) > JUMP_REACH);
            }
            // Sliced, the same answer.
            let mut q = crate::SlicedQuery::new();
            for slice in [1, 7] {
                q.start(&h, s, t).unwrap();
                while q.update(&h, slice).unwrap() == crate::SliceStatus::InProgress {}
                assert_eq!(q.finish(), Some(out.clone()), "slice {slice}");
            }
        }
        assert!(
            far >= 15 && near >= 20,
            "{near} near, {far} far of {}",
            cells.len()
        );
        // Closing cells keeps the landmarks (distances only grow) and the
        // answers exact; so does opening them (distances lowered where
        // they must), and cells other than the closed ones.
        let wall: Vec<Point> = (20..70)
            .map(|y| Point::new(60, y))
            .filter(|p| grid.is_passable(*p))
            .collect();
        world.set_passable(&wall, false).unwrap();
        assert!(world.hierarchy().has_cell_landmarks());
        let exact_near_answers =
            |world: &crate::DynamicHierarchy, cache: &mut QueryCache, flat: &mut SearchCache| {
                let now = world.hierarchy().grid().clone();
                let mut near = 0;
                for (i, &s) in cells
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| now.is_passable(**p))
                {
                    let t = cells[(i * 5 + 1) % cells.len()];
                    if !now.is_passable(t) {
                        continue;
                    }
                    let out = world.hierarchy().find_path(cache, s, t).unwrap();
                    let exact = AStar::new(&now).find_path(flat, s, t).unwrap().path;
                    if out.stats.method == Method::Near {
                        assert_eq!(out.path.as_ref().map(|p| p.cost), exact.map(|p| p.cost));
                        near += 1;
                    }
                }
                near
            };
        assert!(exact_near_answers(&world, &mut cache, &mut flat) >= 20);
        // A gap opened in the new wall, and a door in an old one (a
        // shortcut: distances shrink beyond the opened cells).
        let door: Vec<Point> = (0..3).map(|y| Point::new(15, 20 + y)).collect();
        assert!(door.iter().any(|p| !grid.is_passable(*p)));
        world.set_passable(&wall[10..12], true).unwrap();
        world.set_passable(&door, true).unwrap();
        assert!(world.hierarchy().has_cell_landmarks());
        assert!(exact_near_answers(&world, &mut cache, &mut flat) >= 20);
        let (s, t) = (cells[0], *cells.last().unwrap());
        assert!(h.layout().clusters_apart(s, t) > JUMP_REACH);
        // Added again (landmarks chosen afresh for the map as it is now): a
        // time-sliced query begun before refuses to go on (a
        // search must not change its estimate half-way), a plan made before
        // is no longer valid; both begin again on the guided hierarchy.
        let reopened = world.hierarchy().grid().clone();
        let astar = AStar::new(&reopened);
        let t = *cells
            .iter()
            .rev()
            .find(|t| {
                h.layout().clusters_apart(s, **t) > JUMP_REACH
                    && astar.find_path(&mut flat, s, **t).unwrap().path.is_some()
            })
            .unwrap();
        let mut q = crate::SlicedQuery::new();
        q.start(world.hierarchy(), s, t).unwrap();
        q.update(world.hierarchy(), 1).unwrap();
        let plan = world.hierarchy().plan(&mut cache, s, t).unwrap().unwrap();
        assert!(world.add_cell_landmarks(2));
        assert!(matches!(world.hierarchy().near(1, s, t), NearSearch::Jumps));
        let err = q.update(world.hierarchy(), 1).unwrap_err().to_string();
        assert!(err.contains("cell landmarks added"), "{err}");
        assert!(!plan.is_valid_for(world.hierarchy()));
        q.start(world.hierarchy(), s, t).unwrap();
        while q.update(world.hierarchy(), 7).unwrap() == crate::SliceStatus::InProgress {}
        let exact = astar.find_path(&mut flat, s, t).unwrap().path;
        let out = q.finish().unwrap();
        assert!(out.path.as_ref().map(|p| p.cost) >= exact.as_ref().map(|p| p.cost));
        if out.stats.method == Method::Near {
            assert_eq!(out.path.map(|p| p.cost), exact.map(|p| p.cost));
        }
        // Not on a weighted map.
        let mut heavy = grid.clone();
        heavy.set_weight(cells[0], crate::Weight(300)).unwrap();
        let mut weighted = HierarchyBuilder::new()
            .cluster_size(8)
            .build(heavy)
            .unwrap();
        assert!(!weighted.add_cell_landmarks(2));
    }

    #[test]
    fn bad_endpoints_are_errors() {
        let h = crate::Hierarchy::build(Grid::from_ascii("..\n.@").unwrap()).unwrap();
        let mut cache = QueryCache::new();
        let p = Point::new;
        assert!(matches!(
            h.find_path(&mut cache, p(0, 0), p(1, 1)),
            Err(QueryError::Blocked { role: "goal", .. })
        ));
        assert!(matches!(
            h.find_path(&mut cache, p(5, 0), p(0, 0)),
            Err(QueryError::OffMap { role: "start", .. })
        ));
        let same = h.find_path(&mut cache, p(0, 0), p(0, 0)).unwrap();
        assert_eq!(same.path.unwrap().cells, vec![p(0, 0)]);
    }
}
