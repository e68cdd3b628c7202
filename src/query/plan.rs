//! A planned path, refined into cells lazily and smoothed as it goes.

use super::ends::Ends;
use super::unit::in_space;
use super::{AbstractRoute, Clock, PhaseTimes, QueryCache, QueryStats};
use crate::engine::Space;
use crate::engine::route::{self, SHAPES};
use crate::grid::{DIRECTIONS, Point};
use crate::hierarchy::Hierarchy;
use crate::search::{Path, Rect, SearchCache, path_to};

use crate::engine::route::WINDOW;

const NO_EDGE: u32 = u32::MAX;

/// A path planned over the cluster graph and refined into cells on demand.
///
/// Get one from [`Hierarchy::plan`]; call [`PathPlan::next_segment`] for the
/// cells, piece by piece (the first piece starts with the start cell). The
/// pieces, concatenated, are exactly the path [`Hierarchy::find_path`] returns.
///
/// ```
/// use tierpath::{Grid, Hierarchy, Point, QueryCache};
/// let h = Hierarchy::build(Grid::new(300, 300).unwrap()).unwrap();
/// let mut cache = QueryCache::new();
/// let mut plan = h.plan(&mut cache, Point::new(0, 0), Point::new(299, 150)).unwrap().unwrap();
/// assert!(plan.waypoints().len() > 2); // start, transitions..., goal
/// let first = plan.next_segment(&h, &mut cache).unwrap().to_vec();
/// assert_eq!(first[0], Point::new(0, 0)); // a unit can start moving now
/// ```
#[derive(Debug, Clone)]
pub struct PathPlan {
    /// Start, the transitions of the abstract route, goal.
    waypoints: Vec<Point>,
    /// The abstract edge leading to each waypoint (none for the first legs).
    edges: Vec<u32>,
    /// The unit's size.
    size: u8,
    /// Whether the path ends short of an unreachable goal.
    partial: bool,
    /// Next waypoint whose incoming leg is to be refined.
    next_leg: usize,
    /// Refined, not yet smoothed cells; `raw[head]` is the last cell emitted.
    raw: Vec<Point>,
    /// Cumulative cost along `raw`.
    cum: Vec<u64>,
    head: usize,
    smooth: bool,
    out: Vec<Point>,
    started: bool,
    cost: u64,
    stats: QueryStats,
    phases: PhaseTimes,
    /// The last leg's cells (last transition to goal), traced from the
    /// goal's connection search when it could be; empty otherwise.
    last_leg: Vec<Point>,
}

impl PathPlan {
    /// A plan whose path is already known and exact (near or fallback searches).
    pub(crate) fn finished(path: Path, stats: QueryStats) -> PathPlan {
        let waypoints = vec![
            path.cells[0],
            *path.cells.last().expect("paths are non-empty"),
        ];
        let n = path.cells.len();
        PathPlan {
            edges: vec![NO_EDGE; 2],
            size: 1,
            partial: false,
            next_leg: waypoints.len(),
            waypoints,
            raw: path.cells,
            cum: vec![0; n],
            head: 0,
            smooth: false,
            out: Vec::new(),
            started: false,
            cost: path.cost.0,
            stats,
            phases: stats.phases.unwrap_or_default(),
            last_leg: Vec::new(),
        }
    }

    /// A plan from an abstract route for a unit of `size`. `start_tree` is
    /// the grid scratch holding the start's connection search (the
    /// in-cluster Dijkstra of [`Hierarchy::connect`]) when one ran: it already
    /// holds a least-cost path to the route's first transition, so the first
    /// leg is read from it, not searched again.
    /// `ends` are the endpoints' kernel searches (see `ends`): when they
    /// ran, the first and last legs are traced back from them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn route(
        h: &Hierarchy,
        size: u8,
        (start, goal): (Point, Point),
        route: &AbstractRoute,
        stats: QueryStats,
        phases: PhaseTimes,
        start_tree: Option<&SearchCache>,
        ends: &mut Ends,
    ) -> PathPlan {
        let point = |v: u32| h.node_points()[v as usize];
        let mut waypoints = Vec::with_capacity(route.nodes.len() + 2);
        waypoints.push(start);
        waypoints.extend(route.nodes.iter().map(|v| point(*v)));
        waypoints.push(goal);
        let mut edges = vec![NO_EDGE, NO_EDGE];
        edges.extend(route.edges.iter().skip(1));
        edges.push(NO_EDGE);
        let mut plan = PathPlan {
            waypoints,
            edges,
            size,
            partial: false,
            next_leg: 1,
            raw: vec![start],
            cum: vec![0],
            head: 0,
            smooth: true,
            out: Vec::new(),
            started: false,
            cost: 0,
            stats,
            phases,
            last_leg: Vec::new(),
        };
        if let Some(tree) = start_tree {
            plan.first_leg_from(h, tree);
        }
        if ends[0].ran()
            && let Some((from, to, _)) = plan.try_refine_next(h)
        {
            // The first leg, traced from the start's connection search.
            let mut cells = Vec::new();
            if from == start && ends[0].leg(to, false, &mut cells) {
                plan.append(h, &cells);
                plan.next_leg += 1;
            }
        }
        // The last leg, kept until its turn (the scratch may serve other
        // queries before then).
        let n = plan.waypoints.len();
        if ends[1].ran() && n >= 3 && plan.next_leg < n {
            let last = plan.waypoints[n - 2];
            if last != goal && h.layout().cluster_of(last) == h.layout().cluster_of(goal) {
                let mut cells = std::mem::take(&mut plan.last_leg);
                if !ends[1].leg(last, true, &mut cells) {
                    cells.clear();
                }
                plan.last_leg = cells;
            }
        }
        plan
    }

    /// Refines the first leg from the start's connection search `tree` when
    /// it needs a search (no stored path, no free straight route) and the
    /// search reached its transition: the tree's path is a least-cost path
    /// inside the start's cluster, as the leg's own search would find.
    fn first_leg_from(&mut self, h: &Hierarchy, tree: &SearchCache) {
        let Some((from, to, _)) = self.try_refine_next(h) else {
            return; // refined without a search
        };
        let n = h.grid().node(to);
        if !tree.is_closed(n) {
            return;
        }
        let path = path_to(tree, h.grid(), n);
        if path.cells.first() == Some(&from) {
            self.append(h, &path.cells);
            self.next_leg += 1;
        }
    }

    /// The same plan, flagged as the plan of a partial path.
    pub(crate) fn into_partial(mut self) -> PathPlan {
        self.partial = true;
        self
    }

    /// Whether this plan's path ends short of an unreachable goal, at the
    /// reachable cell closest to it ([`Hierarchy::plan_with`] with
    /// [`QueryOptions::partial`](crate::QueryOptions::partial)).
    pub fn is_partial(&self) -> bool {
        self.partial
    }

    /// Start, the transition cells of the abstract route, and goal.
    pub fn waypoints(&self) -> &[Point] {
        &self.waypoints
    }

    /// The cost of the cells emitted so far (the whole path's cost once
    /// [`PathPlan::next_segment`] has returned `None`).
    pub fn cost(&self) -> crate::Cost {
        crate::Cost(self.cost)
    }

    /// What the query did so far.
    pub fn stats(&self) -> QueryStats {
        let mut s = self.stats;
        if s.phases.is_some() {
            s.phases = Some(self.phases);
        }
        s
    }

    /// Whether every cell has been emitted.
    pub fn is_complete(&self) -> bool {
        self.started && self.next_leg >= self.waypoints.len() && self.head + 1 >= self.raw.len()
    }

    /// The next piece of the path: the first starts with the start cell, each
    /// later one continues from the last cell of the one before. `None` once
    /// the goal has been emitted.
    pub fn next_segment(&mut self, h: &Hierarchy, cache: &mut QueryCache) -> Option<&[Point]> {
        if self.is_complete() {
            return None;
        }
        self.out.clear();
        if !self.started {
            self.started = true;
            self.out.push(self.raw[0]);
        }
        loop {
            let refined = self.next_leg >= self.waypoints.len();
            if !refined && self.raw.len() - self.head <= WINDOW {
                self.refine_next(h, cache);
                continue;
            }
            if !self.smooth {
                // An exact path: emit it whole.
                self.out.extend_from_slice(&self.raw[self.head + 1..]);
                self.head = self.raw.len() - 1;
                break;
            }
            let clock = Clock::start(cache.timing);
            while self.head + 1 < self.raw.len() && (refined || self.raw.len() - self.head > WINDOW)
            {
                self.smooth_step(h);
            }
            clock.add_to(&mut self.phases.smooth);
            if !self.out.is_empty() || refined {
                break;
            }
        }
        if self.head > 4096 && self.head * 2 > self.raw.len() {
            self.raw.drain(..self.head);
            self.cum.drain(..self.head);
            self.head = 0;
        }
        Some(&self.out)
    }

    /// Whether some leg of the route is still to be refined.
    pub(crate) fn has_legs_left(&self) -> bool {
        self.next_leg < self.waypoints.len()
    }

    /// Refines the next leg of the route without a search when it can: a
    /// crossing between clusters (one move), a stored edge path (replayed),
    /// a free straight route (walked once, its cells and costs appended as
    /// they are found). Returns `None` when the leg is refined, else the
    /// in-cluster search that finds it: from, to, and the cluster's area.
    pub(crate) fn try_refine_next(&mut self, h: &Hierarchy) -> Option<(Point, Point, Rect)> {
        let i = self.next_leg;
        let (u, v) = (self.waypoints[i - 1], self.waypoints[i]);
        let layout = h.layout();
        let (cu, cv) = (layout.cluster_of(u), layout.cluster_of(v));
        if u == v {
            // The start or goal is itself a transition.
        } else if cu != cv {
            self.push_cell(h, v);
        } else if let Some(codes) = (self.edges[i] != NO_EDGE)
            .then(|| h.graph().edge_path(self.edges[i] as usize))
            .flatten()
        {
            // A stored path: replay its moves.
            let mut p = u;
            for c in codes {
                let (dx, dy) = DIRECTIONS[*c as usize];
                p = Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
                self.push_cell(h, p);
            }
        } else if h.grid().is_weighted()
            || !in_space!(h, self.size, |space| self.walk_straight(&space, u, v))
        {
            if i + 1 < self.waypoints.len() || self.last_leg.first() != Some(&u) {
                return Some((u, v, layout.rect(cu, cu)));
            }
            // The last leg, traced from the goal's connection search.
            let cells = std::mem::take(&mut self.last_leg);
            self.append(h, &cells);
        }
        self.next_leg += 1;
        None
    }

    /// Appends the first free straight route from `u` (the last cell) to `v`
    /// of `space` (an unweighted map: such a route is an optimal in-cluster
    /// path); false, with nothing appended, when none is free.
    fn walk_straight<S: Space>(&mut self, space: &S, u: Point, v: Point) -> bool {
        let mark = self.raw.len();
        for shape in SHAPES {
            let (raw, cum) = (&mut self.raw, &mut self.cum);
            let free = route::walk(space, u, v, shape, |m, base| {
                let before = *cum.last().expect("cum tracks raw");
                raw.push(space.point(m));
                cum.push(before + base as u64 * space.weight(m.0));
            });
            if free {
                return true;
            }
            self.raw.truncate(mark);
            self.cum.truncate(mark);
        }
        false
    }

    /// Refines the next leg of the route into cells.
    fn refine_next(&mut self, h: &Hierarchy, cache: &mut QueryCache) {
        let clock = Clock::start(cache.timing);
        if let Some((from, to, area)) = self.try_refine_next(h) {
            let path = h
                .bounded_astar(&mut cache.grid, self.size, from, to, area)
                .expect("abstract edges and connections stand for in-cluster paths");
            cache.collect_fine();
            self.stats.fine_expanded += cache.grid.stats().expanded;
            self.append(h, &path.cells);
            self.next_leg += 1;
        }
        clock.add_to(&mut self.phases.refine);
    }

    /// Refines the next leg with `cells`, the path of the search
    /// [`try_refine_next`](Self::try_refine_next) asked for, found elsewhere
    /// (by a time-sliced search) with `expanded` expansions.
    pub(crate) fn refine_next_with(&mut self, h: &Hierarchy, cells: &[Point], expanded: u64) {
        self.stats.fine_expanded += expanded;
        self.append(h, cells);
        self.next_leg += 1;
    }

    /// Appends a refined leg (whose first cell is the current last cell).
    fn append(&mut self, h: &Hierarchy, cells: &[Point]) {
        debug_assert_eq!(cells.first(), self.raw.last());
        for c in cells.iter().skip(1) {
            self.push_cell(h, *c);
        }
    }

    /// Appends one cell, a legal move from the last.
    fn push_cell(&mut self, h: &Hierarchy, c: Point) {
        let prev = *self.raw.last().expect("raw is never empty");
        let step = step_cost(h, prev, c);
        self.cum
            .push(self.cum.last().expect("cum tracks raw") + step);
        self.raw.push(c);
    }

    /// Emits the cells from the anchor `raw[head]` to the farthest cell in the
    /// window reachable by a cheaper straight route (or the next cell).
    fn smooth_step(&mut self, h: &Hierarchy) {
        let (j, cost) = in_space!(h, self.size, |space| route::smooth_step(
            &space,
            h.min_weight(),
            &self.raw,
            &self.cum,
            self.head,
            &mut self.out,
        ));
        self.cost += cost;
        self.head = j;
    }
}

/// The cost of one legal move.
fn step_cost(h: &Hierarchy, a: Point, b: Point) -> u64 {
    h.grid().step_cost(&h.settings().movement, a, b)
}
