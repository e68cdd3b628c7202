//! Time-sliced two-tier queries: the work of [`Hierarchy::find_path`] spread
//! over calls of a bounded number of expansions.

use super::abstract_search::Progress;
use super::plan::Leg;
use super::{Method, PathPlan, PhaseTimes, QueryCache, QueryOutcome, QueryStats};
use crate::grid::{Node, Point};
use crate::hierarchy::{Hierarchy, Identity};
use crate::search::{
    AStar, Estimator, Path, Pricing, QueryError, Rect, SearchCache, SliceStatus, Status,
    check_endpoint, path_to,
};

/// A two-tier query spread over many calls, after Recast/Detour's
/// `initSlicedFindPath` / `updateSlicedFindPath` / `finalizeSlicedFindPath`:
/// [`start`](SlicedQuery::start) it, [`update`](SlicedQuery::update) it by
/// at most `max_expansions` expanded nodes per call (grid cells and
/// cluster-graph nodes alike), then [`finish`](SlicedQuery::finish) it for the
/// outcome.
///
/// The outcome is exactly [`Hierarchy::find_path`]'s (the same cells, cost and
/// counters; phase times are not measured) whatever the slices: every search
/// of the query (the near search,
/// the connections of start and goal to their clusters, the search over the
/// cluster graph, the in-cluster searches that refine it) runs as in
/// `find_path`, paused and resumed. Steps that expand nothing (copying stored
/// edge paths, smoothing) run in the update that reaches them, so a call with
/// a budget of zero may still finish a query that needs no more searching.
/// Every call must pass the hierarchy the query was started on (another one
/// is refused with an error).
///
/// ```
/// use tierpath::{Grid, Hierarchy, Point, QueryCache, SliceStatus, SlicedQuery};
/// let h = Hierarchy::build(Grid::from_fn(200, 200, |p| !(p.x == 100 && p.y < 190)).unwrap())?;
/// let (start, goal) = (Point::new(5, 5), Point::new(195, 5));
/// let mut query = SlicedQuery::new();
/// query.start(&h, start, goal)?;
/// let mut frames = 0;
/// while query.update(&h, 20)? == SliceStatus::InProgress {
///     frames += 1; // ... the rest of the frame ...
/// }
/// let out = query.finish().expect("done");
/// assert_eq!(out, h.find_path(&mut QueryCache::new(), start, goal)?);
/// # assert!(frames > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Performance
/// The query owns its [`QueryCache`] (reset by generation stamps, sized on
/// first use) and reuses it for every query it is started on: keep one per
/// concurrent query (a [`PathQueue`](crate::PathQueue) needs only one for all
/// its requests). Pausing and resuming cost nothing beyond the expansions.
#[derive(Debug, Clone, Default)]
pub struct SlicedQuery {
    cache: QueryCache,
    job: Option<Job>,
}

/// What identifies the hierarchy a query was started on: its
/// [`Identity`] (a query refuses to continue on another), and what the
/// messages name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HierarchyKey {
    identity: Identity,
    width: u32,
    height: u32,
    nodes: usize,
    revision: u64,
}

impl HierarchyKey {
    pub(crate) fn of(h: &Hierarchy) -> HierarchyKey {
        HierarchyKey {
            identity: h.identity(),
            width: h.grid().width(),
            height: h.grid().height(),
            nodes: h.entrances().cells.len(),
            revision: h.revision(),
        }
    }

    /// Whether `h` is this key's hierarchy, perhaps repaired since.
    pub(crate) fn same_map(&self, h: &Hierarchy) -> bool {
        self.identity.lineage == h.identity().lineage
    }

    /// Whether `h` is this key's hierarchy, unchanged.
    pub(crate) fn is(&self, h: &Hierarchy) -> bool {
        self.identity == h.identity()
    }

    /// `Ok` when `h` is the hierarchy this key was taken from, unchanged.
    pub(crate) fn check(&self, h: &Hierarchy, what: &str) -> Result<(), QueryError> {
        let now = HierarchyKey::of(h);
        if self.is(h) {
            Ok(())
        } else if self.same_map(h) {
            Err(QueryError::Unsupported(format!(
                "the map changed since {what} started (repair {} -> {}); start it again",
                self.revision, now.revision
            )))
        } else {
            Err(QueryError::Unsupported(format!(
                "{what} was started on another hierarchy ({}x{}, {} transitions); \
                 pass the same one to every call",
                self.width, self.height, self.nodes
            )))
        }
    }
}

#[derive(Debug, Clone)]
struct Job {
    key: HierarchyKey,
    start: Point,
    goal: Point,
    stats: QueryStats,
    /// The near search's path, when it found one it could not prove optimal.
    near: Option<Path>,
    /// Expansions so far.
    expanded: u64,
    step: Step,
}

#[derive(Debug, Clone)]
enum Step {
    /// The exact search bounded to the clusters around both ends.
    Near {
        area: Rect,
        est: Estimator,
        goal: Node,
    },
    /// Connecting the goal to its cluster's transitions; `searching` once the
    /// in-cluster Dijkstra has begun.
    ConnectGoal { searching: bool },
    /// Connecting the start.
    ConnectStart { searching: bool },
    /// The search over the cluster graph.
    Abstract { begun: bool },
    /// A full flat A* (the safety net when the cluster graph finds no route).
    Fallback { est: Estimator, goal: Node },
    /// Refining the abstract route leg by leg; `leg` is the in-cluster search
    /// under way.
    Refine {
        plan: Box<PathPlan>,
        leg: Option<(Estimator, Node, Rect)>,
    },
    /// The answer.
    Done(QueryOutcome),
}

/// What one step of [`Job::advance`] did.
enum Flow {
    /// Moved on: run the next step.
    Next,
    /// Out of budget.
    Yield,
}

impl SlicedQuery {
    /// An idle query with a scratch of its own.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query from `start` to `goal` on `h`, abandoning any query in
    /// progress. `Err` for bad input, as [`Hierarchy::find_path`]. Expands
    /// nothing: a goal on another island is answered here at once.
    pub fn start(&mut self, h: &Hierarchy, start: Point, goal: Point) -> Result<(), QueryError> {
        self.job = None;
        let grid = h.grid();
        check_endpoint(grid, start, "start")?;
        check_endpoint(grid, goal, "goal")?;
        let cache = &mut self.cache;
        cache.fine_trace.clear();
        cache.abstract_trace.clear();
        let phases = cache.timing.then(PhaseTimes::default);
        let mut job = Job {
            key: HierarchyKey::of(h),
            start,
            goal,
            stats: QueryStats {
                method: Method::Near,
                phases,
                ..QueryStats::default()
            },
            near: None,
            expanded: 0,
            step: Step::ConnectGoal { searching: false },
        };
        if !h.same_island(start, goal) {
            job.step = Step::Done(unreachable(phases));
        } else if let Some(area) = h.layout().near_area(start, goal) {
            let (est, t) = h.bounded_begin(&mut cache.grid, start, goal);
            job.step = Step::Near { area, est, goal: t };
        }
        self.job = Some(job);
        Ok(())
    }

    /// Advances the query by at most `max_expansions` expansions and says
    /// where it stands. `h` must be the hierarchy the query was started on
    /// (`Err` otherwise).
    pub fn update(
        &mut self,
        h: &Hierarchy,
        max_expansions: u64,
    ) -> Result<SliceStatus, QueryError> {
        let Some(job) = self.job.as_mut() else {
            return Ok(SliceStatus::Idle);
        };
        job.key.check(h, "the sliced query")?;
        let mut left = max_expansions;
        while !matches!(job.step, Step::Done(_)) {
            if let Flow::Yield = job.advance(h, &mut self.cache, &mut left) {
                return Ok(SliceStatus::InProgress);
            }
        }
        Ok(SliceStatus::Done)
    }

    /// Where the query stands.
    pub fn status(&self) -> SliceStatus {
        match &self.job {
            None => SliceStatus::Idle,
            Some(Job {
                step: Step::Done(_),
                ..
            }) => SliceStatus::Done,
            Some(_) => SliceStatus::InProgress,
        }
    }

    /// The outcome of a query that is [`Done`](SliceStatus::Done), after which
    /// the query is idle; `None` (and nothing changes) otherwise.
    pub fn finish(&mut self) -> Option<QueryOutcome> {
        if !matches!(self.status(), SliceStatus::Done) {
            return None;
        }
        match self.job.take()?.step {
            Step::Done(out) => Some(out),
            _ => None,
        }
    }

    /// Abandons the query in progress, if any.
    pub fn cancel(&mut self) {
        self.job = None;
    }

    /// The start and goal of the current query.
    pub fn endpoints(&self) -> Option<(Point, Point)> {
        self.job.as_ref().map(|j| (j.start, j.goal))
    }

    /// Nodes the current query has expanded so far (grid cells and
    /// cluster-graph nodes).
    pub fn expanded(&self) -> u64 {
        self.job.as_ref().map_or(0, |j| j.expanded)
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.cache.memory_bytes()
    }

    /// Sizes the scratch for `h` now, abandoning any query in progress:
    /// otherwise the first query on a map larger than any before allocates it
    /// (a few bytes per cell, once), which a game may prefer to do while
    /// loading rather than in a frame.
    pub fn reserve(&mut self, h: &Hierarchy) {
        self.job = None;
        self.cache.grid.begin(h.grid());
        self.cache.abs.begin(h.entrances().cells.len());
    }
}

/// The answer for a goal that cannot be reached.
fn unreachable(phases: Option<PhaseTimes>) -> QueryOutcome {
    QueryOutcome {
        path: None,
        stats: QueryStats {
            method: Method::Unreachable,
            phases,
            ..QueryStats::default()
        },
        partial: false,
    }
}

impl Job {
    /// Spends up to `left` expansions on the current step, moving on when it
    /// is complete. Mirrors [`Hierarchy::plan`] and [`Hierarchy::find_path`]
    /// step for step.
    fn advance(&mut self, h: &Hierarchy, cache: &mut QueryCache, left: &mut u64) -> Flow {
        let (s, t) = (self.start, self.goal);
        let spent = &mut self.expanded;
        let stats = &mut self.stats;
        match &mut self.step {
            Step::Near { area, est, goal } => {
                let (area, est, goal) = (*area, *est, *goal);
                let Some(status) = grid_run(spent, cache, left, |c, budget| {
                    h.bounded_run(c, est, goal, area, budget)
                }) else {
                    return Flow::Yield;
                };
                stats.fine_expanded += cache.grid.stats().expanded;
                if let Status::Found(n) = status {
                    let path = path_to(&cache.grid, h.grid(), n);
                    if path.cost.0 <= h.layout().escape_bound(s, t, &area, h.min_step()) {
                        self.step = Step::Done(QueryOutcome {
                            path: Some(path),
                            stats: *stats,
                            partial: false,
                        });
                        return Flow::Next;
                    }
                    self.near = Some(path);
                }
                self.step = Step::ConnectGoal { searching: false };
            }
            Step::ConnectGoal { searching } => {
                stats.method = Method::Hierarchical;
                if !connect(h, cache, left, spent, stats, searching, t, Pricing::Reverse) {
                    return Flow::Yield;
                }
                self.step = Step::ConnectStart { searching: false };
            }
            Step::ConnectStart { searching } => {
                if !connect(h, cache, left, spent, stats, searching, s, Pricing::Forward) {
                    return Flow::Yield;
                }
                self.step = Step::Abstract { begun: false };
            }
            Step::Abstract { begun } => {
                if !*begun {
                    let anchor = |p: Point| h.dead_ends().anchor_of(h.grid().cell_index(p).index());
                    cache
                        .abs
                        .start(h, &cache.starts, &cache.goals, t, anchor(s), anchor(t));
                    *begun = true;
                }
                if *left == 0 {
                    return Flow::Yield;
                }
                let before = cache.abs.expanded();
                let progress = cache.abs.resume(h, *left, None);
                let used = cache.abs.expanded() - before;
                *left -= used.min(*left);
                *spent += used;
                stats.abstract_expanded = cache.abs.expanded();
                match progress {
                    Progress::Paused => return Flow::Yield,
                    Progress::Found => {
                        cache.abs.take_route(h, true, &mut cache.route);
                        stats.abstract_edges = cache.route.nodes.len() as u32 + 1;
                        let plan =
                            PathPlan::route(h, s, t, &cache.route, *stats, PhaseTimes::default());
                        self.step = Step::Refine {
                            plan: Box::new(plan),
                            leg: None,
                        };
                    }
                    Progress::Exhausted => {
                        // Unreachable by construction (same island); a full
                        // search keeps the answer right regardless.
                        stats.method = Method::Fallback;
                        let astar = AStar::new(h.grid()).movement(h.settings().movement);
                        let (est, goal) = astar
                            .prepare(&mut cache.grid, s, t)
                            .expect("endpoints were checked at the start");
                        self.step = Step::Fallback { est, goal };
                    }
                }
            }
            Step::Fallback { est, goal } => {
                let (est, goal) = (*est, *goal);
                let astar = AStar::new(h.grid()).movement(h.settings().movement);
                let Some(status) = grid_run(spent, cache, left, |c, budget| {
                    astar.advance(c, est, goal, budget)
                }) else {
                    return Flow::Yield;
                };
                stats.fine_expanded += cache.grid.stats().expanded;
                self.step = Step::Done(match status {
                    Status::Found(n) => {
                        let path = path_to(&cache.grid, h.grid(), n);
                        against_near(self.near.take(), path, *stats)
                    }
                    _ => unreachable(stats.phases),
                });
            }
            Step::Refine { plan, leg } => {
                if let Some((est, goal, area)) = *leg {
                    let Some(status) = grid_run(spent, cache, left, |c, budget| {
                        h.bounded_run(c, est, goal, area, budget)
                    }) else {
                        return Flow::Yield;
                    };
                    let Status::Found(n) = status else {
                        panic!("abstract edges and connections stand for in-cluster paths");
                    };
                    let path = path_to(&cache.grid, h.grid(), n);
                    plan.refine_next_with(h, &path.cells, cache.grid.stats().expanded);
                    *leg = None;
                } else if plan.has_legs_left() {
                    match plan.next_leg(h) {
                        Leg::Cells(cells) => plan.refine_next_with(h, &cells, 0),
                        Leg::Search { from, to, area } => {
                            let (est, goal) = h.bounded_begin(&mut cache.grid, from, to);
                            *leg = Some((est, goal, area));
                        }
                    }
                } else {
                    // Every leg refined: smoothing expands nothing.
                    let mut cells = Vec::new();
                    while let Some(piece) = plan.next_segment(h, cache) {
                        cells.extend_from_slice(piece);
                    }
                    let path = Path {
                        cells,
                        cost: plan.cost(),
                    };
                    let out = against_near(self.near.take(), path, plan.stats());
                    self.step = Step::Done(out);
                }
            }
            Step::Done(_) => {}
        }
        Flow::Next
    }
}

/// One step of connecting `p` to its cluster's transitions (the goal side
/// into `cache.goals` when pricing in reverse, the start side into
/// `cache.starts`): false when the budget ran out first.
#[allow(clippy::too_many_arguments)]
fn connect(
    h: &Hierarchy,
    cache: &mut QueryCache,
    left: &mut u64,
    spent: &mut u64,
    stats: &mut QueryStats,
    searching: &mut bool,
    p: Point,
    pricing: Pricing,
) -> bool {
    let goal_side = pricing == Pricing::Reverse;
    if !*searching {
        let out = if goal_side {
            &mut cache.goals
        } else {
            &mut cache.starts
        };
        if !h.connect_begin(&mut cache.grid, p, out) {
            return true;
        }
        *searching = true;
    }
    if grid_run(spent, cache, left, |c, budget| {
        h.connect_run(c, p, pricing, budget)
    })
    .is_none()
    {
        return false;
    }
    let out = if goal_side {
        &mut cache.goals
    } else {
        &mut cache.starts
    };
    h.connect_end(&cache.grid, p, out);
    stats.fine_expanded += cache.grid.stats().expanded;
    true
}

/// Runs (or resumes) a grid search with the budget left, charging its
/// expansions; `None` when it paused (the budget is spent).
fn grid_run(
    spent: &mut u64,
    cache: &mut QueryCache,
    left: &mut u64,
    run: impl FnOnce(&mut SearchCache, u64) -> Status,
) -> Option<Status> {
    if *left == 0 {
        return None;
    }
    let before = cache.grid.stats().expanded;
    let status = run(&mut cache.grid, *left);
    let used = cache.grid.stats().expanded - before;
    *left -= used.min(*left);
    *spent += used;
    (status != Status::Paused).then_some(status)
}

/// The final answer from the hierarchical (or fallback) `path`: as
/// [`Hierarchy::plan`] does, the near search's path wins unless this one is
/// strictly cheaper.
fn against_near(near: Option<Path>, path: Path, mut stats: QueryStats) -> QueryOutcome {
    let best = match near {
        Some(near) if path.cost >= near.cost => {
            stats.method = Method::Near;
            near
        }
        _ => path,
    };
    QueryOutcome {
        path: Some(best),
        stats,
        partial: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, HierarchyBuilder, QueryCache};

    #[test]
    fn every_slice_size_gives_the_one_shot_answer() {
        let grid = Grid::from_fn(120, 90, |p| {
            !((p.x % 13 == 6 && p.y % 29 != 3) || (p.y % 17 == 8 && p.x % 31 == 2))
        })
        .unwrap();
        let h = HierarchyBuilder::new().cluster_size(8).build(grid).unwrap();
        let mut cache = QueryCache::new();
        let mut q = SlicedQuery::new();
        let pts: Vec<Point> = h.grid().passable_points().collect();
        let mut methods = std::collections::BTreeSet::new();
        for k in 0..40 {
            let (s, t) = (
                pts[(k * 7919) % pts.len()],
                pts[(k * 104_729 + 17) % pts.len()],
            );
            let want = h.find_path(&mut cache, s, t).unwrap();
            methods.insert(format!("{:?}", want.stats.method));
            for slice in [1, 3, 50, u64::MAX] {
                q.start(&h, s, t).unwrap();
                let mut calls = 0u64;
                while q.update(&h, slice).unwrap() == SliceStatus::InProgress {
                    calls += 1;
                    assert!(q.expanded() <= calls * slice);
                }
                assert_eq!(
                    q.finish().as_ref(),
                    Some(&want),
                    "{s} -> {t}, slice {slice}"
                );
                assert_eq!(q.status(), SliceStatus::Idle);
            }
        }
        assert!(
            methods.contains("Hierarchical") && methods.contains("Near"),
            "{methods:?}"
        );
    }

    #[test]
    fn another_hierarchy_is_refused() {
        let a = Hierarchy::build(Grid::new(40, 40).unwrap()).unwrap();
        let b = Hierarchy::build(Grid::new(50, 40).unwrap()).unwrap();
        let mut q = SlicedQuery::new();
        q.start(&a, Point::new(0, 0), Point::new(39, 39)).unwrap();
        assert!(matches!(q.update(&b, 10), Err(QueryError::Unsupported(_))));
        assert_eq!(q.update(&a, 0).unwrap(), SliceStatus::InProgress);
        assert!(q.finish().is_none());
        q.cancel();
        assert_eq!(q.update(&a, 10).unwrap(), SliceStatus::Idle);
        assert!(matches!(
            q.start(&a, Point::new(40, 0), Point::new(0, 0)),
            Err(QueryError::OffMap { .. })
        ));
    }

    #[test]
    fn identity_not_counts_tells_hierarchies_apart() {
        // Another map of the same size, and a second build of the same map
        // (the same sizes and counts in every array): both are other
        // hierarchies, told apart by identity.
        let left = Grid::from_fn(40, 40, |p| !(p.x == 10 && p.y < 30)).unwrap();
        let right = Grid::from_fn(40, 40, |p| !(p.x == 29 && p.y < 30)).unwrap();
        let (a, b) = (
            Hierarchy::build(left.clone()).unwrap(),
            Hierarchy::build(right).unwrap(),
        );
        let again = Hierarchy::build(left).unwrap();
        assert_ne!(a.identity(), again.identity(), "every build is its own");
        assert_eq!(
            (a.entrances().cells.len(), a.graph().edges()),
            (again.entrances().cells.len(), again.graph().edges())
        );
        let (s, t) = (Point::new(0, 39), Point::new(39, 0));
        for other in [&b, &again] {
            let mut q = SlicedQuery::new();
            q.start(&a, s, t).unwrap();
            assert!(matches!(
                q.update(other, 1),
                Err(QueryError::Unsupported(_))
            ));
        }
        // A clone answers alike and is accepted.
        let copy = a.clone();
        let mut q = SlicedQuery::new();
        q.start(&a, s, t).unwrap();
        while q.update(&copy, 5).unwrap() == SliceStatus::InProgress {}
        assert_eq!(
            q.finish(),
            Some(a.find_path(&mut QueryCache::new(), s, t).unwrap())
        );
    }
}
