//! The nearest of many targets by true path cost, exact in its choice: an
//! exact Dijkstra for the targets close by, the hierarchy for those far away,
//! and exact A* only where the hierarchy's answer leaves a doubt.
//!
//! # What is guaranteed
//!
//! [`Hierarchy::nearest`] returns a target whose least path cost from the
//! start, `d(t)`, is the least over all the targets, `d* = min_i d(t_i)`:
//! the same cost a flat multi-target Dijkstra finds (when several targets are
//! equally near, any of them). The path to it is optimal (costs `d*`) unless
//! the method is [`NearestMethod::Hierarchical`]: that path is exactly the one
//! [`Hierarchy::find_path`] returns for that target, near-optimal as always.
//!
//! # How
//!
//! 1. **Islands**: targets on another island than the start are dropped, one
//!    label comparison each.
//! 2. **Local**: a Dijkstra from the start with every remaining target
//!    marked, stopped after [`NEAREST_LOCAL_EXPANSIONS`] expansions (see
//!    [`Hierarchy::nearest_within`]). Dijkstra
//!    settles cells in order of cost, so the first target it settles is a
//!    nearest one: [`NearestMethod::Local`], exact. When it stops first, the
//!    smallest key left on its open list, `r`, bounds every unsettled cell's
//!    cost from below (the cell on its least-cost path that is open holds a key
//!    no larger than its cost), so every target costs at least `r`.
//! 3. **Hierarchical**: each target gets a lower bound `L(t) = max(r,
//!    straight-line distance at the least terrain weight)` (no path is cheaper
//!    than open ground at the cheapest weight) and, in order of `L`, an upper
//!    bound `U(t)`: the cost of the hierarchy's path to it, until the next
//!    lower bound reaches the best upper bound so far. Let `a` be the target
//!    with the least `U`. If no other target has `L(t) < U(a)`, then for every
//!    target `d(a) <= U(a) <= L(t) <= d(t)`: `a` is a nearest target, and its
//!    hierarchical path is returned ([`NearestMethod::Hierarchical`]).
//! 4. **Exact**: otherwise the targets with `L(t) < U(a)` are settled by exact
//!    A* in order of `L`, each capped at the best cost known: a search stops
//!    as soon as its least open `F` reaches the cap (with a consistent
//!    heuristic, `F` of the open cell on the least-cost path never exceeds the
//!    target's cost, so the target is no nearer than the cap). A search that
//!    reaches its target under the cap sets a new best, exact. The best at the
//!    end is a nearest target ([`NearestMethod::Exact`] when an A* found it,
//!    [`NearestMethod::Hierarchical`] when every doubt was cleared without
//!    beating the hierarchy's path).

use super::unit::in_space;
use super::{QueryCache, QueryOptions};
use crate::grid::{Cost, Node, Point, Weight};
use crate::hierarchy::Hierarchy;
use crate::search::{
    Estimator, Everywhere, Goal, Nearest, Pricing, QueryError, Status, TieBreak, check_size,
    path_to, run_space,
};

/// Expansions of the local exact Dijkstra of [`Hierarchy::nearest`] before it
/// hands over to the hierarchy: on open ground, a radius of about 9 steps.
/// Measured with `cargo bench --bench nearest` (40 random starts, 8 and 64
/// random targets, on sc1/Cauldron 1024x1024 and rooms/64room_000 512x512;
/// radii 64, 256, 1024, 4096, 16384): the median query took 44, 65, 107,
/// 311, 1286 us on Cauldron with 8 targets (flat Dijkstra 6,309 us) and 9,
/// 19, 61, 142, 147 us on 64room_000 with 64 (flat 146 us). A Dijkstra that
/// reaches no target costs more than the two-tier queries it saves, so larger
/// radii only lose; the means are set by the few queries (2 to 5 in 40) whose
/// doubts need exact A*, and moved little up to 4096 (Cauldron, 8 targets:
/// 1.7, 2.0, 1.7, 1.9, 2.8 ms). 64 was 10-20 us faster in the median; 256 is
/// kept so that a target within about nine steps is answered by the local
/// search alone, exactly, for that small price.
pub const NEAREST_LOCAL_EXPANSIONS: u64 = 256;

/// Expansions between checks of an exact search's cap.
const CAP_CHECK: u64 = 64;

/// How [`Hierarchy::nearest`] found its answer; see the module's guarantee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum NearestMethod {
    /// No target is reachable from the start (or no target was given).
    #[default]
    Unreachable,
    /// The local exact Dijkstra settled a target: exact.
    Local,
    /// Chosen by the hierarchy's upper bounds against lower bounds on every
    /// other target: a nearest target, with the path
    /// [`Hierarchy::find_path`] gives (near-optimal).
    Hierarchical,
    /// Settled by exact A* among the targets the bounds could not rule out:
    /// exact.
    Exact,
}

/// What [`Hierarchy::nearest`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NearestStats {
    /// How the answer was found.
    pub method: NearestMethod,
    /// Targets on the start's island (the others were skipped without search).
    pub candidates: u32,
    /// A proven lower bound on the cost of every target the local Dijkstra did
    /// not settle (zero when it settled one or none was searched).
    pub radius: Cost,
    /// Two-tier queries run for upper bounds.
    pub hierarchical_queries: u32,
    /// Exact A* searches run to clear doubts.
    pub exact_searches: u32,
    /// Grid cells expanded, by every search.
    pub fine_expanded: u64,
    /// Cluster-graph nodes expanded by the two-tier queries.
    pub abstract_expanded: u64,
}

/// The answer of [`Hierarchy::nearest`]: the nearest target (its index in the
/// slice given, and the path to it), or `None` when none is reachable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearestOutcome {
    /// The target and the path to it; `None` when no target is reachable.
    pub nearest: Option<Nearest>,
    /// Counters.
    pub stats: NearestStats,
}

/// A target on the start's island.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    index: usize,
    point: Point,
    node: Node,
    /// Lower bound on its cost.
    lower: u64,
}

/// The best answer so far.
struct Best {
    candidate: usize,
    path: crate::Path,
    exact: bool,
}

impl Hierarchy {
    /// The target nearest to `start` by path cost, and a path to it; `None`
    /// inside the outcome when no target is reachable. The choice is exact:
    /// see the guarantee in [`NearestMethod`] and below. Targets on other
    /// islands are skipped in constant time each; a target listed twice is
    /// reported by its first index. `Err` for a start or target off the map or
    /// blocked.
    ///
    /// The chosen target always costs as little as the nearest by a flat
    /// multi-target Dijkstra; the path is optimal unless
    /// [`NearestStats::method`] is [`NearestMethod::Hierarchical`], when it is
    /// the path [`Hierarchy::find_path`] gives for that target.
    ///
    /// ```
    /// use tierpath::{Grid, Hierarchy, NearestMethod, Point, QueryCache};
    /// // A wall with a gap at the bottom: (150, 10) is nearer as the crow
    /// // flies, (40, 190) by path.
    /// let h = Hierarchy::build(Grid::from_fn(200, 200, |p| !(p.x == 100 && p.y < 195)).unwrap())?;
    /// let mut cache = QueryCache::new();
    /// let targets = [Point::new(150, 10), Point::new(40, 190)];
    /// let out = h.nearest(&mut cache, Point::new(90, 10), &targets)?;
    /// let nearest = out.nearest.expect("both are reachable");
    /// assert_eq!(nearest.target, 1);
    /// assert_eq!(nearest.path.goal(), Some(targets[1]));
    /// assert_ne!(out.stats.method, NearestMethod::Unreachable);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Performance
    /// Close targets cost a small Dijkstra; far ones a few two-tier queries
    /// (in order of their straight-line distance, stopping as soon as the
    /// rest cannot be nearer). Only when two targets are too close in cost
    /// for the bounds to separate does an exact A* run, capped at the best
    /// cost known; on winding maps with many targets at similar distances
    /// that can approach the cost of a flat search.
    pub fn nearest(
        &self,
        cache: &mut QueryCache,
        start: Point,
        targets: &[Point],
    ) -> Result<NearestOutcome, QueryError> {
        self.nearest_within(cache, start, targets, NEAREST_LOCAL_EXPANSIONS)
    }

    /// [`Hierarchy::nearest`] with the local exact Dijkstra stopped after
    /// `local_expansions` expansions (at least one) instead of
    /// [`NEAREST_LOCAL_EXPANSIONS`]: larger answers more queries exactly and
    /// locally, smaller hands over to the hierarchy sooner. The guarantee is
    /// the same for every value.
    pub fn nearest_within(
        &self,
        cache: &mut QueryCache,
        start: Point,
        targets: &[Point],
        local_expansions: u64,
    ) -> Result<NearestOutcome, QueryError> {
        self.nearest_for(cache, start, targets, local_expansions, 1)
    }

    /// [`Hierarchy::nearest`] for a unit of [`QueryOptions::unit_size`]: the
    /// start and every target must fit the unit, and the guarantee holds for
    /// the unit's paths ([`QueryOptions::partial`] plays no part).
    pub fn nearest_with(
        &self,
        cache: &mut QueryCache,
        start: Point,
        targets: &[Point],
        options: &QueryOptions,
    ) -> Result<NearestOutcome, QueryError> {
        let size = check_size(options.size(), self.max_unit_size())?;
        self.nearest_for(cache, start, targets, NEAREST_LOCAL_EXPANSIONS, size)
    }

    /// [`Hierarchy::nearest_within`] for a unit of `size` (in range).
    pub(crate) fn nearest_for(
        &self,
        cache: &mut QueryCache,
        start: Point,
        targets: &[Point],
        local_expansions: u64,
        size: u8,
    ) -> Result<NearestOutcome, QueryError> {
        let grid = self.grid();
        let movement = &self.settings().movement;
        movement.validate()?;
        let s = self.check_cell(start, "start", size)?;
        let mut cands = Vec::new();
        for (index, &point) in targets.iter().enumerate() {
            let node = self.check_cell(point, "target", size)?;
            if self.reaches(start, point, size) {
                cands.push(Candidate {
                    index,
                    point,
                    node,
                    lower: 0,
                });
            }
        }
        let mut stats = NearestStats {
            candidates: cands.len() as u32,
            ..NearestStats::default()
        };
        let none = |stats| NearestOutcome {
            nearest: None,
            stats,
        };
        if cands.is_empty() {
            return Ok(none(stats));
        }

        // 2. Local: an exact Dijkstra, bounded.
        let fine = &mut cache.grid;
        fine.begin(grid);
        for c in &cands {
            fine.mark_target(c.node);
        }
        let est = Estimator::zero();
        fine.push_start(s, 0, &est, TieBreak::default());
        let status = in_space!(self, size, |space| run_space(
            fine,
            space,
            Everywhere,
            est,
            Goal::Targets,
            TieBreak::default(),
            false,
            local_expansions.max(1),
            Pricing::Forward,
        ));
        stats.fine_expanded += fine.stats().expanded;
        let radius = match status {
            Status::Found(n) => {
                let c = cands.iter().find(|c| c.node == n).expect("a marked target");
                stats.method = NearestMethod::Local;
                return Ok(NearestOutcome {
                    nearest: Some(Nearest {
                        target: c.index,
                        path: path_to(fine, grid, n),
                    }),
                    stats,
                });
            }
            // Same island, so unreachable only if the islands are wrong;
            // answer what the search proved.
            Status::Exhausted => return Ok(none(stats)),
            Status::Paused => match fine.min_open_key() {
                Some(r) => r,
                None => return Ok(none(stats)),
            },
        };
        stats.radius = Cost(radius);

        // 3. Hierarchical: upper bounds in order of the lower bounds.
        let min_w = self.min_weight().0 as u64;
        for c in cands.iter_mut() {
            let open_ground = movement
                .distance(start.x.abs_diff(c.point.x), start.y.abs_diff(c.point.y))
                .0
                / Weight::ONE.0 as u64
                * min_w;
            c.lower = open_ground.max(radius);
        }
        // Order by bound; a cell listed twice keeps its first index.
        cands.sort_by_key(|c| (c.lower, c.node, c.index));
        cands.dedup_by_key(|c| c.node);
        let mut best: Option<Best> = None;
        for (k, c) in cands.iter().enumerate() {
            if best.as_ref().is_some_and(|b| c.lower >= b.path.cost.0) {
                break;
            }
            let out = self.find_path_for(cache, start, c.point, size)?;
            stats.hierarchical_queries += 1;
            stats.fine_expanded += out.stats.fine_expanded;
            stats.abstract_expanded += out.stats.abstract_expanded;
            if let Some(path) = out.path
                && best.as_ref().is_none_or(|b| path.cost < b.path.cost)
            {
                best = Some(Best {
                    candidate: k,
                    path,
                    exact: false,
                });
            }
        }
        let Some(mut best) = best else {
            return Ok(none(stats));
        };
        let upper = best.path.cost.0;
        let doubt = cands
            .iter()
            .enumerate()
            .any(|(k, c)| k != best.candidate && c.lower < upper);

        // 4. Exact: capped A* over the targets the bounds leave in doubt.
        if doubt {
            let astar = self.flat_astar(size);
            for (k, c) in cands.iter().enumerate() {
                if c.lower >= best.path.cost.0 {
                    break;
                }
                stats.exact_searches += 1;
                let cap = best.path.cost.0;
                let (est, goal) = astar.prepare(&mut cache.grid, start, c.point)?;
                let found = loop {
                    match astar.advance(&mut cache.grid, est, goal, CAP_CHECK) {
                        Status::Found(n) => break Some(n),
                        Status::Exhausted => break None,
                        Status::Paused => {
                            if cache.grid.min_open_key().is_none_or(|f| f >= cap) {
                                break None;
                            }
                        }
                    }
                };
                stats.fine_expanded += cache.grid.stats().expanded;
                if let Some(n) = found {
                    let path = path_to(&cache.grid, grid, n);
                    if path.cost.0 < cap || k == best.candidate {
                        best = Best {
                            candidate: k,
                            path,
                            exact: true,
                        };
                    }
                }
            }
        }
        stats.method = if best.exact {
            NearestMethod::Exact
        } else {
            NearestMethod::Hierarchical
        };
        Ok(NearestOutcome {
            nearest: Some(Nearest {
                target: cands[best.candidate].index,
                path: best.path,
            }),
            stats,
        })
    }
}
