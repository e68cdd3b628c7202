//! A planned path, refined into cells lazily and smoothed as it goes.

use super::ends::Ends;
use super::polish::{self, Polish};
use super::unit::in_space;
use super::{AbstractRoute, Clock, PhaseTimes, QueryCache, QueryStats};
use crate::contraction::PackedRoute;
use crate::engine::Space;
use crate::engine::route::{self, Runs, SHAPES};
use crate::grid::{DIRECTIONS, Point};
use crate::hierarchy::Hierarchy;
use crate::search::{Path, Rect, SearchCache, path_to};

use crate::engine::smooth;

const NO_EDGE: u32 = u32::MAX;

/// Edges a packed route is unpacked by beyond the waypoint asked for, so
/// that the per-call work is shared (each edge costs a few hundred
/// instructions to unpack; 16 of them are a small part of a first move).
const UNPACK_AHEAD: usize = 16;

/// A plan's growing lists, handed back to the [`QueryCache`] when the plan
/// is done ([`PathPlan::into_lists`]) so that the next plan starts with room
/// and a `find_path` allocates nothing once they have grown.
#[derive(Debug, Clone, Default)]
pub(crate) struct PlanLists {
    waypoints: Vec<Point>,
    edges: Vec<u32>,
    raw: Vec<Point>,
    cum: Vec<u64>,
    out: Vec<Point>,
    pending: Vec<Point>,
    last_leg: Vec<Point>,
    packed: PackedRoute,
}

impl PlanLists {
    fn clear(&mut self) {
        self.waypoints.clear();
        self.edges.clear();
        self.raw.clear();
        self.cum.clear();
        self.out.clear();
        self.pending.clear();
        self.last_leg.clear();
        self.packed.clear();
    }

    /// The room for a contracted search's packed route, taken out for the
    /// search (see [`PathPlan::packed`]).
    pub(crate) fn take_packed(&mut self) -> PackedRoute {
        std::mem::take(&mut self.packed)
    }
}

/// A path planned over the cluster graph and refined into cells on demand.
///
/// Get one from [`Hierarchy::plan`]; call [`PathPlan::next_segment`] for the
/// cells, piece by piece (the first piece starts with the start cell). The
/// pieces, concatenated, are exactly the path [`Hierarchy::find_path`] returns.
/// On a contracted hierarchy ([`Hierarchy::contract`]) the route over the
/// clusters is itself unpacked as refinement reaches it, so `plan` returns
/// once the search is done, before the route's shortcuts are expanded.
///
/// ```
/// use tierpath::{Grid, Hierarchy, Point, QueryCache};
/// let h = Hierarchy::build(Grid::new(300, 300).unwrap()).unwrap();
/// let mut cache = QueryCache::new();
/// let mut plan = h.plan(&mut cache, Point::new(0, 0), Point::new(299, 150)).unwrap().unwrap();
/// assert!(plan.waypoints(&h).len() > 2); // start, transitions..., goal
/// let first = plan.next_segment(&h, &mut cache).unwrap().to_vec();
/// assert_eq!(first[0], Point::new(0, 0)); // a unit can start moving now
/// ```
#[derive(Debug, Clone)]
pub struct PathPlan {
    /// Start, the transitions of the abstract route, goal: those unpacked
    /// so far while `packed` holds the rest of the route.
    waypoints: Vec<Point>,
    /// The abstract edge leading to each waypoint (none for the first legs).
    edges: Vec<u32>,
    /// The rest of a contracted search's route, unpacked into `waypoints`
    /// as refinement needs them (the goal follows its last transition);
    /// empty once the whole route is in `waypoints`.
    packed: PackedRoute,
    /// The goal cell (the last waypoint once the route is unpacked).
    goal: Point,
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
    /// How far ahead smoothing looks (see [`smooth::window_for`]).
    window: usize,
    /// Whether smoothed cells are polished (`polish`) before they are
    /// emitted; they wait in `pending`, whose first cell is the last one
    /// emitted.
    polish: bool,
    pending: Vec<Point>,
    out: Vec<Point>,
    started: bool,
    cost: u64,
    stats: QueryStats,
    phases: PhaseTimes,
    /// The last leg's cells (last transition to goal), traced from the
    /// goal's connection search when it could be; empty otherwise.
    last_leg: Vec<Point>,
    /// The identity (`Identity::id`) of the hierarchy the plan's route
    /// belongs to; `None` for a plan whose cells are all known (it reads
    /// no hierarchy).
    made_on: Option<u64>,
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
            packed: PackedRoute::default(),
            goal: waypoints[1],
            size: 1,
            partial: false,
            next_leg: waypoints.len(),
            waypoints,
            raw: path.cells,
            cum: vec![0; n],
            head: 0,
            smooth: false,
            window: smooth::WINDOW,
            polish: false,
            pending: Vec::new(),
            out: Vec::new(),
            started: false,
            cost: path.cost.0,
            stats,
            phases: stats.phases.unwrap_or_default(),
            last_leg: Vec::new(),
            made_on: None,
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
        (ends, lists): (&mut Ends, PlanLists),
    ) -> PathPlan {
        let point = |v: u32| h.node_point(v);
        let mut plan = PathPlan::begin(h, size, lists, start, goal, stats, phases);
        plan.waypoints.extend(route.nodes.iter().map(|v| point(*v)));
        plan.waypoints.push(goal);
        plan.edges.push(NO_EDGE);
        plan.edges.extend(route.edges.iter().skip(1));
        plan.edges.push(NO_EDGE);
        let last = plan.waypoints[plan.waypoints.len() - 2];
        plan.refine_ends(h, last, start_tree, ends)
    }

    /// A plan from a contracted search's route, still packed but for its
    /// `first` and `last` nodes: its edges are unpacked as refinement
    /// reaches them (see [`PathPlan::route`] for the rest).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn packed(
        h: &Hierarchy,
        size: u8,
        (start, goal): (Point, Point),
        (first, last): (u32, u32),
        route: PackedRoute,
        mut stats: QueryStats,
        phases: PhaseTimes,
        start_tree: Option<&SearchCache>,
        (ends, lists): (&mut Ends, PlanLists),
    ) -> PathPlan {
        let point = |v: u32| h.node_point(v);
        // Start to the first node and the last node to the goal; one more
        // per edge as the route is unpacked.
        stats.abstract_edges = 2;
        let mut plan = PathPlan::begin(h, size, lists, start, goal, stats, phases);
        plan.waypoints.push(point(first));
        plan.edges.push(NO_EDGE);
        if route.is_empty() {
            plan.waypoints.push(goal);
            plan.edges.push(NO_EDGE);
        } else {
            // The goal goes on once the last edge is unpacked.
            plan.packed = route;
        }
        plan.refine_ends(h, point(last), start_tree, ends)
    }

    /// A plan before any refinement, its route the start alone so far (the
    /// caller adds the rest): the start cell emitted next. `lists` give
    /// their room (a finished plan's, or empty).
    fn begin(
        h: &Hierarchy,
        size: u8,
        mut lists: PlanLists,
        start: Point,
        goal: Point,
        stats: QueryStats,
        phases: PhaseTimes,
    ) -> PathPlan {
        lists.clear();
        // Room for the smoothing window ahead of the head and a leg beyond
        // it, so that the first pieces grow nothing.
        let window = smooth::window_for(&h.settings().entrances);
        lists.raw.reserve(4 * window);
        lists.cum.reserve(4 * window);
        lists.out.reserve(2 * window);
        let PlanLists {
            mut waypoints,
            mut edges,
            raw,
            cum,
            out,
            pending,
            last_leg,
            packed,
        } = lists;
        waypoints.push(start);
        edges.push(NO_EDGE);
        let mut plan = PathPlan {
            waypoints,
            edges,
            packed,
            goal,
            size,
            partial: false,
            next_leg: 1,
            raw,
            cum,
            head: 0,
            smooth: true,
            window,
            polish: h.settings().polish == Polish::Always,
            pending,
            out,
            started: false,
            cost: 0,
            stats,
            phases,
            last_leg,
            made_on: Some(h.identity().id),
        };
        plan.raw.push(start);
        plan.cum.push(0);
        plan
    }

    /// Refines the first leg from the endpoints' connection searches when
    /// they hold it (`start_tree` or `ends[0]`), and keeps the last leg (to
    /// `last`, the route's last transition) traced from the goal's
    /// (`ends[1]`) until its turn, since the scratch may serve other queries
    /// before then.
    fn refine_ends(
        mut self,
        h: &Hierarchy,
        last: Point,
        start_tree: Option<&SearchCache>,
        ends: &mut Ends,
    ) -> PathPlan {
        let (start, goal) = (self.raw[0], self.goal);
        if let Some(tree) = start_tree {
            self.first_leg_from(h, tree);
        }
        if ends[0].ran()
            && let Some((from, to, _)) = self.try_refine_next(h)
        {
            // The first leg, traced from the start's connection search.
            let mut cells = Vec::new();
            if from == start && ends[0].leg(to, false, &mut cells) {
                self.append(h, &cells);
                self.next_leg += 1;
            }
        }
        if ends[1].ran()
            && self.has_legs_left()
            && last != goal
            && h.layout().cluster_of(last) == h.layout().cluster_of(goal)
        {
            let mut cells = std::mem::take(&mut self.last_leg);
            if !ends[1].leg(last, true, &mut cells) {
                cells.clear();
            }
            self.last_leg = cells;
        }
        self
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

    /// The plan's lists, for the next plan to fill (see [`PlanLists`]).
    pub(crate) fn into_lists(self) -> PlanLists {
        PlanLists {
            waypoints: self.waypoints,
            edges: self.edges,
            raw: self.raw,
            cum: self.cum,
            out: self.out,
            pending: self.pending,
            last_leg: self.last_leg,
            packed: self.packed,
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

    /// Start, the transition cells of the abstract route, and goal. On a
    /// contracted hierarchy this unpacks the rest of the route (not its
    /// cells); `h` must be the hierarchy that made the plan, as for
    /// [`next_segment`](Self::next_segment).
    ///
    /// # Panics
    /// As [`next_segment`](Self::next_segment), when `h` is not that
    /// hierarchy as it was ([`is_valid_for`](Self::is_valid_for)).
    pub fn waypoints(&mut self, h: &Hierarchy) -> &[Point] {
        self.check_hierarchy(h);
        self.unpack_through(h, usize::MAX);
        &self.waypoints
    }

    /// Unpacks the route until waypoint `i` is known or the route is whole
    /// (the goal appended after its last transition), a few edges ahead of
    /// `i` at a time.
    fn unpack_through(&mut self, h: &Hierarchy, i: usize) {
        if self.waypoints.len() > i || self.packed.is_empty() {
            return;
        }
        let until = i.saturating_add(UNPACK_AHEAD);
        let (waypoints, edges, stats) = (&mut self.waypoints, &mut self.edges, &mut self.stats);
        let ended = h.contracted_unpack(self.size, &mut self.packed, |edge, head| {
            waypoints.push(h.node_point(head));
            edges.push(edge);
            stats.abstract_edges += 1;
            waypoints.len() <= until
        });
        if ended {
            self.waypoints.push(self.goal);
            self.edges.push(NO_EDGE);
        }
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

    /// Whether `h` is the hierarchy that made this plan, as it was then:
    /// the plan can go on there. A repair of a
    /// [`DynamicHierarchy`](crate::DynamicHierarchy) or a contraction
    /// installed or ended since gives the hierarchy a new identity (its
    /// clusters' routes are numbered anew), so a unit holding a plan
    /// checks this after map changes and plans again from where it stands
    /// when it is false. A plan whose cells were all known when made (a
    /// short or unreachable-region query answered by an exact search) reads
    /// no hierarchy and is valid for every one.
    ///
    /// ```
    /// use tierpath::{DynamicHierarchy, Grid, Hierarchy, Point, QueryCache};
    /// let h = Hierarchy::build(Grid::new(200, 200).unwrap()).unwrap();
    /// let mut world = DynamicHierarchy::new(h);
    /// let mut cache = QueryCache::new();
    /// let (s, g) = (Point::new(0, 0), Point::new(199, 150));
    /// let mut plan = world.plan(&mut cache, s, g).unwrap().unwrap();
    /// assert!(plan.is_valid_for(&world));
    /// world.set_passable(&[Point::new(100, 100)], false).unwrap();
    /// assert!(!plan.is_valid_for(&world)); // plan again
    /// ```
    pub fn is_valid_for(&self, h: &Hierarchy) -> bool {
        self.made_on.is_none_or(|id| id == h.identity().id)
    }

    /// Panics, naming the mistake, unless `h` is this plan's hierarchy as
    /// it was: a route's edge ids read on another would be another route.
    #[track_caller]
    fn check_hierarchy(&self, h: &Hierarchy) {
        assert!(
            self.is_valid_for(h),
            "PathPlan used with a hierarchy other than the one that made it, or \
             after a repair or a new contraction; check PathPlan::is_valid_for and plan again"
        );
    }

    /// Whether every cell has been emitted.
    pub fn is_complete(&self) -> bool {
        self.started && !self.has_legs_left() && self.head + 1 >= self.raw.len()
    }

    /// The next piece of the path: the first starts with the start cell, each
    /// later one continues from the last cell of the one before. `None` once
    /// the goal has been emitted.
    ///
    /// # Panics
    /// When `h` is not the hierarchy that made the plan, as it was then (a
    /// plan does not survive a repair or a new contraction: see
    /// [`is_valid_for`](Self::is_valid_for), and plan again).
    pub fn next_segment(&mut self, h: &Hierarchy, cache: &mut QueryCache) -> Option<&[Point]> {
        if self.is_complete() {
            return None;
        }
        self.check_hierarchy(h);
        self.out.clear();
        if !self.started {
            self.started = true;
            self.out.push(self.raw[0]);
            if self.polish {
                self.pending.push(self.raw[0]);
            }
        }
        loop {
            let refined = !self.has_legs_left();
            if !refined && self.raw.len() - self.head <= self.window {
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
            let (emitted, cost) = (self.out.len(), self.cost);
            while self.head + 1 < self.raw.len()
                && (refined || self.raw.len() - self.head > self.window)
            {
                self.smooth_step(h, &mut cache.runs);
            }
            if self.polish {
                // The smoothed cells wait to be polished, not emitted yet.
                self.pending.extend(self.out.drain(emitted..));
                self.cost = cost;
                self.polish_pending(h, cache, refined);
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
        !self.packed.is_empty() || self.next_leg < self.waypoints.len()
    }

    /// Refines the next leg of the route without a search when it can: a
    /// crossing between clusters (one move), a stored edge path (replayed),
    /// a free straight route (walked once, its cells and costs appended as
    /// they are found). Returns `None` when the leg is refined, else the
    /// in-cluster search that finds it: from, to, and the cluster's area.
    pub(crate) fn try_refine_next(&mut self, h: &Hierarchy) -> Option<(Point, Point, Rect)> {
        let i = self.next_leg;
        // The leg's end, and whether another follows it.
        self.unpack_through(h, i + 1);
        let (u, v) = (self.waypoints[i - 1], self.waypoints[i]);
        let layout = h.layout();
        let (cu, cv) = (layout.cluster_of(u), layout.cluster_of(v));
        if u == v {
            // The start or goal is itself a transition.
        } else if cu != cv {
            self.push_cell(h, v);
        } else if let Some(codes) = (self.edges[i] != NO_EDGE)
            .then(|| h.edge_path(self.edges[i]))
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

    /// Polishes the smoothed cells waiting in `pending` window by window
    /// (see `polish`) and moves those that are final to `out`: with a whole
    /// window ahead, its first half; at the end of the path (`done`), the
    /// rest.
    fn polish_pending(&mut self, h: &Hierarchy, cache: &mut QueryCache, done: bool) {
        loop {
            let (last, expanded) =
                polish::polish_next(h, &mut cache.grid, self.size, &mut self.pending, done);
            if last == 0 {
                break;
            }
            if expanded > 0 {
                cache.collect_fine();
            }
            self.stats.fine_expanded += expanded;
            self.cost += polish::stretch_cost(h, &self.pending[..=last]);
            self.out.extend_from_slice(&self.pending[1..=last]);
            self.pending.drain(..last);
        }
    }

    /// Turns polishing off for the rest of this plan, saying whether it was
    /// on: a time-sliced query polishes the path itself, its searches
    /// spread over updates (`sliced::job`).
    pub(crate) fn take_polish(&mut self) -> bool {
        std::mem::take(&mut self.polish)
    }

    /// Emits the cells from the anchor `raw[head]` to the farthest cell in the
    /// window reachable by a cheaper straight route (or the next cell).
    fn smooth_step(&mut self, h: &Hierarchy, runs: &mut Runs) {
        let (j, cost) = in_space!(h, self.size, |space| smooth::smooth_step(
            &space,
            h.min_weight(),
            (&self.raw, &self.cum),
            self.head,
            self.window,
            runs,
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

#[cfg(test)]
mod tests {
    use crate::grid::{Grid, Point};
    use crate::hierarchy::Hierarchy;
    use crate::query::QueryCache;

    /// The pieces of a plan, concatenated.
    fn cells(plan: &mut super::PathPlan, h: &Hierarchy, cache: &mut QueryCache) -> Vec<Point> {
        let mut cells = Vec::new();
        while let Some(piece) = plan.next_segment(h, cache) {
            cells.extend_from_slice(piece);
        }
        cells
    }

    #[test]
    fn plans_look_as_far_ahead_as_their_transitions_need() {
        use crate::engine::smooth::{WIDE_WINDOW, WINDOW};
        use crate::{EntrancePolicy, HierarchyBuilder};
        // Open ground with pillars and a few walls: paths of hundreds of
        // cells, longer than either window, crossing many wide entrances.
        let grid = Grid::from_fn(420, 90, |p| {
            !(p.x % 7 == 3 && p.y % 5 == 2 || p.x % 60 == 30 && p.y % 90 > 20)
        })
        .unwrap();
        let mut cache = QueryCache::new();
        let mut nodes = Vec::new();
        for (policy, window) in [
            (EntrancePolicy::default(), WINDOW),
            (EntrancePolicy::ENDS, WIDE_WINDOW),
        ] {
            let h = HierarchyBuilder::new()
                .entrance_policy(policy)
                .build(grid.clone())
                .unwrap();
            nodes.push(h.stats().nodes);
            for (s, g) in [
                (Point::new(0, 0), Point::new(419, 89)),
                (Point::new(1, 88), Point::new(418, 1)),
                (Point::new(0, 45), Point::new(419, 44)),
            ] {
                let whole = h.find_path(&mut cache, s, g).unwrap().path.unwrap();
                assert!(whole.cells.len() > 2 * WIDE_WINDOW);
                let mut plan = h.plan(&mut cache, s, g).unwrap().unwrap();
                assert_eq!(plan.window, window, "{policy:?}");
                assert_eq!(cells(&mut plan, &h, &mut cache), whole.cells);
                assert_eq!(plan.cost(), whole.cost);
            }
        }
        assert!(
            nodes[1] < nodes[0],
            "fewer transitions at ends only: {nodes:?}"
        );
    }

    #[test]
    fn a_contracted_plan_unpacks_its_route_as_refinement_reaches_it() {
        // Walls with gaps across a long corridor: a route of many clusters.
        let grid = Grid::from_fn(640, 48, |p| {
            !(p.x % 24 == 12 && (p.y + p.x / 24 * 7) % 48 > 6)
        })
        .unwrap();
        let mut h = Hierarchy::build(grid).unwrap();
        h.contract().unwrap();
        let mut cache = QueryCache::new();
        let (s, g) = (Point::new(1, 3), Point::new(638, 44));
        let whole = h.find_path(&mut cache, s, g).unwrap();

        let mut plan = h.plan(&mut cache, s, g).unwrap().unwrap();
        assert!(!plan.packed.is_empty(), "the route is left packed");
        let first = plan.next_segment(&h, &mut cache).unwrap().to_vec();
        assert!(
            !plan.packed.is_empty(),
            "the first piece unpacks only its part: {} waypoints known",
            plan.waypoints.len()
        );
        let mut lazy = first;
        lazy.extend(cells(&mut plan, &h, &mut cache));
        let path = whole.path.unwrap();
        assert_eq!(lazy, path.cells);
        assert_eq!(plan.cost(), path.cost);
        let waypoints = plan.waypoints(&h).to_vec();
        assert_eq!((waypoints[0], *waypoints.last().unwrap()), (s, g));
        assert_eq!(plan.stats().abstract_edges as usize, waypoints.len() - 1);
        assert_eq!(plan.stats(), whole.stats);

        // The waypoints asked for first: the route unpacked whole, the same
        // pieces.
        let mut plan = h.plan(&mut cache, s, g).unwrap().unwrap();
        assert_eq!(plan.waypoints(&h), waypoints);
        assert!(plan.packed.is_empty());
        assert_eq!(cells(&mut plan, &h, &mut cache), path.cells);
    }
}
