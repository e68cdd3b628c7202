//! The bounded searches a query is made of: exact A* inside an area (the near
//! search and the refinement of each leg) and the in-cluster Dijkstra that
//! connects an endpoint to its cluster's transitions, each resumable for the
//! time-sliced query.

use super::unit::in_space;
use crate::engine::Space;
use crate::engine::route::{self, SHAPES, Shape};
use crate::grid::{Node, Point};
use crate::hierarchy::Hierarchy;
use crate::search::{
    Estimator, Goal, Heuristic, JpsCache, Jumped, Path, Pricing, Rect, SearchCache, Status,
    TieBreak, path_to, run_space,
};

/// Jump points the near search may expand before a query leaves it to the
/// hierarchy alone (on a map of uniform cost; see [`NearSearch::Jumps`]).
///
/// This and [`JUMP_REACH`] were chosen on Dragon Age's 7,800 long queries
/// (docs/results.md): reaching 1 to 6 clusters with 128 to 512 jump points
/// left the median against JPS where it was (0.85-0.98x, moving with JPS's
/// noise), while the total time was best at 1 or 2 clusters with 256 (3.0x
/// JPS's against 2.8x before) and mean suboptimality fell with the reach
/// (0.191% at 1, 0.176% at 2, 0.133% at 6).
pub(crate) const NEAR_JUMPS: u64 = 256;

/// How many clusters apart (in columns or rows) start and goal may be for
/// the near search by jump points.
pub(crate) const JUMP_REACH: u32 = 2;

/// The near search a query begins with, if any.
#[derive(Debug, Clone, Copy)]
pub(crate) enum NearSearch {
    /// Start and goal at most [`JUMP_REACH`] clusters apart (at any
    /// distance when cell landmarks guide the search,
    /// [`Hierarchy::add_cell_landmarks`]) on a map of uniform cost, for a
    /// unit of one cell: jump point search over the whole map, exact,
    /// expanding at most [`NEAR_JUMPS`] jump points
    /// ([`Hierarchy::near_jump`]).
    Jumps,
    /// Start and goal in the same or neighbouring clusters otherwise: exact
    /// A* bounded to this area (the clusters around both ends), optimal when
    /// its cost is within the area's escape bound.
    Bounded(Rect),
    /// No near search: the query is hierarchical.
    Skip,
}

impl Hierarchy {
    /// The near search for a unit of `size` from `start` to `goal`.
    pub(crate) fn near(&self, size: u8, start: Point, goal: Point) -> NearSearch {
        if size == 1 && self.jump_lines().is_some() {
            if self.guide().is_some() || self.layout().clusters_apart(start, goal) <= JUMP_REACH {
                NearSearch::Jumps
            } else {
                NearSearch::Skip
            }
        } else {
            self.layout()
                .near_area(start, goal)
                .map_or(NearSearch::Skip, NearSearch::Bounded)
        }
    }

    /// The near search by jump points ([`NearSearch::Jumps`]) from `a` to
    /// `b`, begun (`resume` false) or resumed in `cache` until it has
    /// expanded `limit` jump points, at most [`NEAR_JUMPS`]: paused there
    /// below [`NEAR_JUMPS`] (a time slice's end), given up at it.
    pub(crate) fn near_jump(
        &self,
        cache: &mut JpsCache,
        (a, b): (Point, Point),
        resume: bool,
        limit: u64,
    ) -> Jumped {
        let lines = self.jump_lines().expect("a near search by jump points");
        let limit = limit.min(NEAR_JUMPS);
        if resume {
            lines.resume_within(cache, b, limit, self.guide())
        } else {
            lines.search_within(cache, a, b, limit, self.guide())
        }
    }

    /// The least cost of one move on this map: a straight move onto the
    /// lightest terrain.
    pub(crate) fn min_step(&self) -> u64 {
        self.settings().movement.straight as u64 * self.min_weight().0 as u64
    }

    /// Exact A* for a unit of `size` from `a` to `b` inside `area`; `None`
    /// when no path lies inside.
    pub(crate) fn bounded_astar(
        &self,
        cache: &mut SearchCache,
        size: u8,
        a: Point,
        b: Point,
        area: Rect,
    ) -> Option<Path> {
        let (est, t) = self.bounded_begin(cache, a, b);
        match self.bounded_run(cache, size, est, t, area, u64::MAX) {
            Status::Found(n) => Some(path_to(cache, self.grid(), n)),
            _ => None,
        }
    }

    /// Begins the search of [`bounded_astar`](Self::bounded_astar): returns its
    /// estimate and goal node.
    pub(crate) fn bounded_begin(
        &self,
        cache: &mut SearchCache,
        a: Point,
        b: Point,
    ) -> (Estimator, Node) {
        let grid = self.grid();
        let (s, t) = (grid.node(a), grid.node(b));
        let est = Estimator::new(
            Heuristic::Auto,
            &self.settings().movement,
            self.min_weight(),
            t,
            grid.padded_width(),
            crate::search::FACTOR_ONE,
        );
        cache.begin(grid);
        cache.push_start(s, 0, &est, TieBreak::default());
        (est, t)
    }

    /// Runs (or resumes) a search begun by [`bounded_begin`](Self::bounded_begin)
    /// inside `area` for at most `budget` expansions.
    pub(crate) fn bounded_run(
        &self,
        cache: &mut SearchCache,
        size: u8,
        est: Estimator,
        t: Node,
        area: Rect,
        budget: u64,
    ) -> Status {
        in_space!(self, size, |space| run_space(
            cache,
            space,
            area,
            est,
            Goal::Node(t),
            TieBreak::default(),
            false,
            budget,
            Pricing::Forward,
        ))
    }

    /// The least in-cluster costs for a unit of `size` between `p` and the
    /// transitions of its cluster the unit fits on: fills `out` with (node,
    /// cost), cost from `p` (forward) or to `p` (reverse). On an unweighted
    /// map a transition joined to `p` by a free straight route costs the
    /// octile distance (no route is cheaper); the others come from one
    /// Dijkstra inside the cluster. Returns the cells expanded.
    pub(super) fn connect(
        &self,
        cache: &mut SearchCache,
        size: u8,
        p: Point,
        pricing: Pricing,
        out: &mut Vec<(u32, u64)>,
    ) -> u64 {
        if !self.connect_begin(cache, size, p, out) {
            return 0;
        }
        self.connect_run(cache, size, p, pricing, u64::MAX);
        self.connect_end(cache, size, p, out);
        cache.stats().expanded
    }

    /// The first part of [`connect`](Self::connect): fills `out` with the
    /// transitions a straight route resolves and, when others remain, begins
    /// the in-cluster Dijkstra for them (returning true).
    pub(crate) fn connect_begin(
        &self,
        cache: &mut SearchCache,
        size: u8,
        p: Point,
        out: &mut Vec<(u32, u64)>,
    ) -> bool {
        out.clear();
        if !self.resolve_straight(size, p, out) {
            return false;
        }
        let grid = self.grid();
        let c = self.layout().cluster_of(p);
        let (a, b) = self.cluster_nodes(c);
        cache.begin(grid);
        let resolved = out.len();
        let mut k = 0;
        for i in a..b {
            if k < resolved && out[k].0 == i {
                k += 1;
            } else if self.node_admits(i, size) {
                cache.mark_target(grid.node(self.node_point(i)));
            }
        }
        cache.push_start(grid.node(p), 0, &Estimator::zero(), TieBreak::default());
        true
    }

    /// Appends to `out` the transitions of `p`'s cluster (those a unit of
    /// `size` fits on) that a free straight route joins to `p` on an
    /// unweighted map, at the octile distance, in node order: whether others
    /// remain, to be searched.
    pub(crate) fn resolve_straight(&self, size: u8, p: Point, out: &mut Vec<(u32, u64)>) -> bool {
        let grid = self.grid();
        let movement = &self.settings().movement;
        let c = self.layout().cluster_of(p);
        let (a, b) = self.cluster_nodes(c);
        let mut pending = false;
        in_space!(self, size, |space| {
            for i in a..b {
                if !self.node_admits(i, size) {
                    continue;
                }
                let q = self.node_point(i);
                if !grid.is_weighted() && straight_route(&space, p, q).is_some() {
                    out.push((i, movement.distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y)).0));
                } else {
                    pending = true;
                }
            }
        });
        pending
    }

    /// Runs (or resumes) the in-cluster Dijkstra of [`connect_begin`](Self::connect_begin)
    /// for at most `budget` expansions.
    pub(crate) fn connect_run(
        &self,
        cache: &mut SearchCache,
        size: u8,
        p: Point,
        pricing: Pricing,
        budget: u64,
    ) -> Status {
        let c = self.layout().cluster_of(p);
        in_space!(self, size, |space| run_space(
            cache,
            space,
            self.layout().rect(c, c),
            Estimator::zero(),
            Goal::AllTargets,
            TieBreak::default(),
            false,
            budget,
            pricing,
        ))
    }

    /// The last part of [`connect`](Self::connect): adds the transitions the
    /// finished Dijkstra reached to `out`.
    pub(crate) fn connect_end(
        &self,
        cache: &SearchCache,
        size: u8,
        p: Point,
        out: &mut Vec<(u32, u64)>,
    ) {
        let grid = self.grid();
        let c = self.layout().cluster_of(p);
        let (a, b) = self.cluster_nodes(c);
        let resolved = out.len();
        for i in a..b {
            let n = grid.node(self.node_point(i));
            if self.node_admits(i, size)
                && !out[..resolved].iter().any(|(v, _)| *v == i)
                && cache.is_closed(n)
            {
                out.push((i, cache.g(n).expect("closed nodes have a cost")));
            }
        }
    }
}

/// On an unweighted map: a free straight route from `a` to `b` in `space`
/// (such a route costs the octile distance, the least any route can), if one
/// exists.
pub(crate) fn straight_route<S: Space>(space: &S, a: Point, b: Point) -> Option<Shape> {
    debug_assert!(space.weights().is_none());
    SHAPES.into_iter().find(|s| route::is_free(space, a, b, *s))
}
