//! The steps of a sliced query: the same phases as `find_path` (near search,
//! connections, the cluster-graph search, refinement, the fallback), each
//! paused when the budget runs out and resumed on the next update.

use super::HierarchyKey;
use crate::grid::{Node, Point};
use crate::hierarchy::Hierarchy;
use crate::query::abstract_search::Progress;
use crate::query::local::NEAR_JUMPS;
use crate::query::polish;
use crate::query::{
    Method, PathPlan, PhaseTimes, QueryCache, QueryOptions, QueryOutcome, QueryStats,
};
use crate::search::{Estimator, Jumped, Path, Pricing, Rect, SearchCache, Status, path_to};

#[derive(Debug, Clone)]
pub(super) struct Job {
    pub(super) key: HierarchyKey,
    pub(super) start: Point,
    pub(super) goal: Point,
    pub(super) stats: QueryStats,
    /// The near search's path, when it found one it could not prove optimal.
    pub(super) near: Option<Path>,
    /// Expansions so far.
    pub(super) expanded: u64,
    /// The unit's size.
    pub(super) size: u8,
    pub(super) step: Step,
}

#[derive(Debug, Clone)]
pub(super) enum Step {
    /// The near search by jump points (a map of uniform cost); `begun` once
    /// its scratch holds it.
    Jump { begun: bool },
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
    /// The search over the cluster graph; `start_tree` when the grid scratch
    /// holds the start's connection search (its first leg is read from it).
    Abstract { begun: bool, start_tree: bool },
    /// A full flat A* (the safety net when the cluster graph finds no route).
    Fallback { est: Estimator, goal: Node },
    /// Refining the abstract route leg by leg; `leg` is the in-cluster search
    /// under way.
    Refine {
        plan: Box<PathPlan>,
        leg: Option<(Estimator, Node, Rect)>,
    },
    /// Polishing the smoothed path window by window (`query::polish`):
    /// `cells[at]` is the anchor, `search` the window's search under way.
    Polish {
        cells: Vec<Point>,
        at: usize,
        cost: u64,
        stats: QueryStats,
        search: Option<(polish::Window, Estimator, Node)>,
    },
    /// A partial path to the reachable cell closest to an unreachable goal,
    /// found whole in one step.
    Partial(QueryOptions),
    /// The answer.
    Done(QueryOutcome),
}

/// What one step of [`Job::advance`] did.
pub(super) enum Flow {
    /// Moved on: run the next step.
    Next,
    /// Out of budget.
    Yield,
}

/// The answer for a goal that cannot be reached.
pub(super) fn unreachable(phases: Option<PhaseTimes>) -> QueryOutcome {
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
    pub(super) fn advance(
        &mut self,
        h: &Hierarchy,
        cache: &mut QueryCache,
        left: &mut u64,
    ) -> Flow {
        let (s, t) = (self.start, self.goal);
        let size = self.size;
        let spent = &mut self.expanded;
        let stats = &mut self.stats;
        match &mut self.step {
            Step::Jump { begun } => {
                if *left == 0 {
                    return Flow::Yield;
                }
                let before = if *begun {
                    cache.jps.stats().expanded
                } else {
                    0
                };
                let jumped = h.near_jump(&mut cache.jps, (s, t), *begun, before + *left);
                *begun = true;
                let used = cache.jps.stats().expanded - before;
                *left -= used.min(*left);
                *spent += used;
                stats.fine_expanded += used;
                self.step = match jumped {
                    Jumped::Paused if cache.jps.stats().expanded < NEAR_JUMPS => {
                        return Flow::Yield;
                    }
                    Jumped::Paused => Step::ConnectGoal { searching: false },
                    // A path, or none: exact either way.
                    settled => Step::Done(QueryOutcome {
                        path: settled.into_path(),
                        stats: *stats,
                        partial: false,
                    }),
                };
            }
            Step::Near { area, est, goal } => {
                let (area, est, goal) = (*area, *est, *goal);
                let Some(status) = grid_run(spent, cache, left, |c, budget| {
                    h.bounded_run(c, size, est, goal, area, budget)
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
                if !connect(
                    h,
                    cache,
                    left,
                    spent,
                    stats,
                    searching,
                    size,
                    t,
                    Pricing::Reverse,
                ) {
                    return Flow::Yield;
                }
                self.step = Step::ConnectStart { searching: false };
            }
            Step::ConnectStart { searching } => {
                if !connect(
                    h,
                    cache,
                    left,
                    spent,
                    stats,
                    searching,
                    size,
                    s,
                    Pricing::Forward,
                ) {
                    return Flow::Yield;
                }
                self.step = Step::Abstract {
                    begun: false,
                    start_tree: *searching,
                };
            }
            Step::Abstract { begun, start_tree } => {
                let start_tree = *start_tree;
                // A contracted graph is searched whole in the update that
                // reaches it, like smoothing: microseconds, less than one
                // slice of the A* it replaces. Its sweep is not an expansion
                // of the budget's kind (it is reported in the stats).
                if let Some((found, swept)) = crate::query::contracted_search(
                    h,
                    &mut cache.cch,
                    &mut cache.cch_route,
                    size,
                    &cache.starts,
                    &cache.goals,
                    &mut cache.route,
                ) {
                    stats.abstract_expanded = swept;
                    self.step = after_abstract(h, cache, stats, size, (s, t), found, start_tree);
                    return Flow::Next;
                }
                if !*begun {
                    let anchor = |p: Point| h.dead_ends().anchor_of(h.grid().cell_index(p).index());
                    cache.abs.start(
                        h,
                        size,
                        &cache.starts,
                        &cache.goals,
                        t,
                        anchor(s),
                        anchor(t),
                    );
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
                if progress == Progress::Paused {
                    return Flow::Yield;
                }
                let found = progress == Progress::Found;
                cache.abs.take_route(h, found, &mut cache.route);
                self.step = after_abstract(h, cache, stats, size, (s, t), found, start_tree);
            }
            Step::Fallback { est, goal } => {
                let (est, goal) = (*est, *goal);
                let astar = h.flat_astar(size);
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
                        h.bounded_run(c, size, est, goal, area, budget)
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
                    if let Some((from, to, area)) = plan.try_refine_next(h) {
                        let (est, goal) = h.bounded_begin(&mut cache.grid, from, to);
                        *leg = Some((est, goal, area));
                    }
                } else {
                    // Every leg refined: smoothing expands nothing. A
                    // polished plan's window searches come next, sliced.
                    let polish = plan.take_polish();
                    let mut cells = Vec::new();
                    while let Some(piece) = plan.next_segment(h, cache) {
                        cells.extend_from_slice(piece);
                    }
                    self.step = if polish {
                        Step::Polish {
                            cells,
                            at: 0,
                            cost: plan.cost().0,
                            stats: plan.stats(),
                            search: None,
                        }
                    } else {
                        let path = Path {
                            cells,
                            cost: plan.cost(),
                        };
                        Step::Done(against_near(self.near.take(), path, plan.stats()))
                    };
                }
            }
            Step::Polish {
                cells,
                at,
                cost,
                stats,
                search,
            } => {
                if let Some((w, est, goal)) = *search {
                    let Some(status) = grid_run(spent, cache, left, |c, budget| {
                        h.bounded_run(c, size, est, goal, w.area, budget)
                    }) else {
                        return Flow::Yield;
                    };
                    stats.fine_expanded += cache.grid.stats().expanded;
                    let found = match status {
                        Status::Found(n) => Some(path_to(&cache.grid, h.grid(), n).cells),
                        _ => None,
                    };
                    *cost -= polish::apply(h, cells, *at, &w, found.as_deref());
                    *at += w.span.next_anchor(cells.len() - *at);
                    *search = None;
                } else if let Some(span) = polish::next_window(h, &cells[*at..], true) {
                    match polish::window_search(h, &cells[*at..], span) {
                        Some(w) => {
                            let (est, goal) = h.bounded_begin(&mut cache.grid, w.a, w.b);
                            *search = Some((w, est, goal));
                        }
                        None => *at += span.next_anchor(cells.len() - *at),
                    }
                } else {
                    let path = Path {
                        cells: std::mem::take(cells),
                        cost: crate::Cost(*cost),
                    };
                    self.step = Step::Done(against_near(self.near.take(), path, *stats));
                }
            }
            Step::Partial(options) => {
                let options = *options;
                let out = match h.find_path_with(cache, s, t, &options) {
                    Ok(out) => out,
                    // The endpoints were checked when the query started.
                    Err(_) => unreachable(stats.phases),
                };
                let used = out.stats.fine_expanded + out.stats.abstract_expanded;
                *left -= used.min(*left);
                *spent += used;
                self.step = Step::Done(out);
            }
            Step::Done(_) => {}
        }
        Flow::Next
    }
}

/// The step after the search over the cluster graph: refining the route in
/// `cache.route` when one was `found`, else the fallback (unreachable by
/// construction, connected for the size; a full search keeps the answer
/// right regardless).
fn after_abstract(
    h: &Hierarchy,
    cache: &mut QueryCache,
    stats: &mut QueryStats,
    size: u8,
    (s, t): (Point, Point),
    found: bool,
    start_tree: bool,
) -> Step {
    if found {
        stats.abstract_edges = cache.route.nodes.len() as u32 + 1;
        let tree = (start_tree && !cache.ends[0].ran()).then_some(&cache.grid);
        let plan = PathPlan::route(
            h,
            size,
            (s, t),
            &cache.route,
            *stats,
            PhaseTimes::default(),
            tree,
            (&mut cache.ends, std::mem::take(&mut cache.plan_lists)),
        );
        Step::Refine {
            plan: Box::new(plan),
            leg: None,
        }
    } else {
        stats.method = Method::Fallback;
        let (est, goal) = h
            .flat_astar(size)
            .prepare(&mut cache.grid, s, t)
            .expect("endpoints were checked at the start");
        Step::Fallback { est, goal }
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
    size: u8,
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
        cache.ends[goal_side as usize].reset();
        if h.connects_by_kernel(size) {
            out.clear();
            if !h.resolve_straight(size, p, out) {
                return true;
            }
            h.kernel_begin(&mut cache.ends[goal_side as usize], p, out);
        } else if !h.connect_begin(&mut cache.grid, size, p, out) {
            return true;
        }
        *searching = true;
    }
    if h.connects_by_kernel(size) {
        // The kernel's search of the endpoint's cluster (see `ends`).
        if *left == 0 {
            return false;
        }
        let end = &mut cache.ends[goal_side as usize];
        let (used, finished) = end.resume(*left);
        *left -= used.min(*left);
        *spent += used;
        stats.fine_expanded += used;
        if !finished {
            return false;
        }
        let out = if goal_side {
            &mut cache.goals
        } else {
            &mut cache.starts
        };
        h.kernel_end(end, out);
        return true;
    }
    if grid_run(spent, cache, left, |c, budget| {
        h.connect_run(c, size, p, pricing, budget)
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
    h.connect_end(&cache.grid, size, p, out);
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
