//! Two-tier queries for a unit of one size on a [`SizedHierarchy`].

use crate::engine::heap::{Entry, OpenList, tie_g};
use crate::engine::route::SHAPES;
use crate::engine::stamps::Generation;
use crate::grid::{Point, Weight};
use crate::query::{Method, QueryOutcome, QueryStats};
use crate::search::{Estimator, FACTOR_ONE, Goal, Heuristic, Path, Rect, Status, TieBreak};

use super::hierarchy::SizedHierarchy;
use super::landmarks::UNREACHED;
use crate::AStar;
use crate::engine::route;
use crate::engine::route::cells as route_cells;
use crate::engine::route::is_free;
use crate::engine::{Fits, Pricing, SearchCache, Space, run_space};
use crate::search::{QueryError, check_unit_endpoints};

const NONE: u32 = u32::MAX;

/// Per-thread scratch of sized queries: grid-search state sized to the map,
/// abstract-search state sized to the cluster graph, and the buffers a path
/// is refined in; reused across queries (and sizes, and hierarchies) and
/// reset by generation stamps.
#[derive(Debug, Default, Clone)]
pub struct SizedQueryCache {
    search: SearchCache,
    abs: AbstractScratch,
    starts: Vec<(u32, u64)>,
    goals: Vec<(u32, u64)>,
    route: Vec<u32>,
    raw: Vec<Point>,
    cum: Vec<u64>,
    leg: Vec<Point>,
}

impl SizedQueryCache {
    /// An empty cache; it sizes itself on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.search.memory_bytes()
            + self.abs.memory_bytes()
            + (self.starts.capacity() + self.goals.capacity()) * 16
            + self.route.capacity() * 4
            + (self.raw.capacity() + self.leg.capacity()) * 8
            + self.cum.capacity() * 8
    }
}

/// Scratch of the search over the cluster graph.
#[derive(Debug, Default, Clone)]
struct AbstractScratch {
    g: Vec<u64>,
    h: Vec<u64>,
    parent: Vec<u32>,
    stamp: Vec<u32>,
    goal_cost: Vec<u64>,
    goal_stamp: Vec<u32>,
    generation: Generation,
    heap: OpenList,
}

impl AbstractScratch {
    fn memory_bytes(&self) -> usize {
        (self.g.capacity() + self.h.capacity() + self.goal_cost.capacity()) * 8
            + (self.parent.capacity() + self.stamp.capacity() + self.goal_stamp.capacity()) * 4
            + self.heap.capacity() * std::mem::size_of::<Entry>()
    }

    fn begin(&mut self, len: usize) {
        if self.g.len() < len {
            self.g.resize(len, 0);
            self.h.resize(len, 0);
            self.parent.resize(len, NONE);
            self.stamp.resize(len, 0);
            self.goal_cost.resize(len, 0);
            self.goal_stamp.resize(len, 0);
        }
        let (stamp, goal_stamp) = (&mut self.stamp, &mut self.goal_stamp);
        self.generation.advance(|| {
            stamp.fill(0);
            goal_stamp.fill(0);
        });
        self.heap.clear();
    }
}

impl SizedHierarchy {
    /// Whether a unit of `size` can travel from `start` to `goal` (top-left
    /// cells): answered from the component forest in O(max_size), no search.
    /// `Err` as for [`SizedHierarchy::find_path`].
    ///
    /// ```
    /// use tierpath::{Grid, Point, SizedHierarchy};
    /// // Two rooms joined by a one-cell door.
    /// let grid = Grid::from_fn(21, 9, |p| p.x != 10 || p.y == 4).unwrap();
    /// let h = SizedHierarchy::build(grid, 2)?;
    /// assert!(h.reachable(Point::new(0, 0), Point::new(19, 0), 1)?);
    /// assert!(!h.reachable(Point::new(0, 0), Point::new(19, 0), 2)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reachable(&self, start: Point, goal: Point, size: u32) -> Result<bool, QueryError> {
        let k = check_unit_endpoints(&self.clearance, start, goal, size, self.max_size())?;
        Ok(self.connected(start, goal, k))
    }

    fn connected(&self, a: Point, b: Point, k: u8) -> bool {
        let max = self.settings.max_size as u8;
        let grid = self.grid();
        self.components.connected(
            grid.cell_index(a).index(),
            self.clearance.get(a).min(max),
            grid.cell_index(b).index(),
            self.clearance.get(b).min(max),
            k,
        )
    }

    /// Finds a path for a unit of `size` (its top-left cell) from `start` to
    /// `goal`: legal for that size at every step, near-optimal. `Ok` with
    /// `path: None` when no path exists for the size (answered from the
    /// components, without search); `Err` for size 0 or above
    /// [`SizedHierarchy::max_size`], an endpoint off the map, or an endpoint
    /// where the unit does not fit.
    ///
    /// `stats.method` says how: [`Method::Unreachable`], [`Method::Near`]
    /// (an exact search around close endpoints), [`Method::Hierarchical`]
    /// (the cluster graph, refined and smoothed), or [`Method::Fallback`]
    /// (a flat search; never needed by construction, kept as a safety net).
    pub fn find_path(
        &self,
        cache: &mut SizedQueryCache,
        start: Point,
        goal: Point,
        size: u32,
    ) -> Result<QueryOutcome, QueryError> {
        let k = check_unit_endpoints(&self.clearance, start, goal, size, self.max_size())?;
        let mut stats = QueryStats::default();
        if !self.connected(start, goal, k) {
            return Ok(QueryOutcome {
                path: None,
                stats,
                partial: false,
            });
        }
        stats.method = Method::Near;
        if start == goal {
            let path = Path {
                cells: vec![start],
                cost: crate::Cost::ZERO,
            };
            return Ok(QueryOutcome {
                path: Some(path),
                stats,
                partial: false,
            });
        }
        let movement = self.settings.movement;
        let space = self.clearance.space(&movement, k);
        let layout = &self.layout;
        let step = movement.straight as u64 * self.min_weight.0 as u64;

        // Near: an exact search bounded to the clusters around both ends,
        // returned when no path leaving that area can be cheaper.
        let mut near = None;
        if let Some(area) = layout.near_area(start, goal) {
            let mut cells = Vec::new();
            let found =
                self.bounded_astar(&mut cache.search, &space, (start, goal), area, &mut cells);
            stats.fine_expanded += cache.search.stats.expanded;
            if let Some(cost) = found {
                let path = Path {
                    cells,
                    cost: crate::Cost(cost),
                };
                if path.cost.0 <= layout.escape_bound(start, goal, &area, step) {
                    return Ok(QueryOutcome {
                        path: Some(path),
                        stats,
                        partial: false,
                    });
                }
                near = Some(path);
            }
        }

        // Hierarchical.
        stats.method = Method::Hierarchical;
        let mut starts = std::mem::take(&mut cache.starts);
        let mut goals = std::mem::take(&mut cache.goals);
        stats.fine_expanded += self.connect(cache, &space, goal, Pricing::Reverse, &mut goals);
        stats.fine_expanded += self.connect(cache, &space, start, Pricing::Forward, &mut starts);
        let mut route = std::mem::take(&mut cache.route);
        let (found, expanded) = self.abstract_search(cache, k, &starts, &goals, goal, &mut route);
        stats.abstract_expanded = expanded;
        cache.starts = starts;
        cache.goals = goals;
        let path = if found {
            stats.abstract_edges = route.len() as u32 + 1;
            let path = self.refine(cache, &space, start, goal, &route, &mut stats);
            cache.route = route;
            path
        } else {
            cache.route = route;
            // Unreachable by construction (the components said connected).
            stats.method = Method::Fallback;
            let out = AStar::for_unit(&self.clearance, size)
                .movement(movement)
                .find_path(&mut cache.search, start, goal)?;
            stats.fine_expanded += out.stats.expanded;
            match out.path {
                Some(p) => p,
                None => {
                    return Ok(QueryOutcome {
                        path: None,
                        stats,
                        partial: false,
                    });
                }
            }
        };
        let path = match near {
            Some(n) if n.cost <= path.cost => {
                stats.method = Method::Near;
                n
            }
            _ => path,
        };
        Ok(QueryOutcome {
            path: Some(path),
            stats,
            partial: false,
        })
    }

    /// Answers many queries for one size in parallel (rayon), one scratch
    /// per worker.
    pub fn find_paths(
        &self,
        queries: &[(Point, Point)],
        size: u32,
    ) -> Vec<Result<QueryOutcome, QueryError>> {
        use rayon::prelude::*;
        queries
            .par_iter()
            .map_init(SizedQueryCache::new, |cache, (s, t)| {
                self.find_path(cache, *s, *t, size)
            })
            .collect()
    }

    /// Exact A* for the unit from `a` to `b` inside `area`: appends the
    /// cells (from `a`) to `out` and returns the cost; `None` when no path
    /// lies inside.
    fn bounded_astar(
        &self,
        search: &mut SearchCache,
        space: &Fits,
        (a, b): (Point, Point),
        area: Rect,
        out: &mut Vec<Point>,
    ) -> Option<u64> {
        let (s, t) = (space.node(a), space.node(b));
        let grid = self.grid();
        let est = Estimator::new(
            Heuristic::Auto,
            space.movement(),
            self.min_weight,
            t,
            grid.padded_width(),
            FACTOR_ONE,
        );
        search.begin_len(grid.padded_len());
        search.push_start(s, 0, &est, TieBreak::LargerG);
        let status = run_space(
            search,
            *space,
            area,
            est,
            Goal::Node(t),
            TieBreak::LargerG,
            false,
            u64::MAX,
            Pricing::Forward,
        );
        match status {
            Status::Found(n) => {
                search.trace_points(space, n, out);
                search.g(n)
            }
            _ => None,
        }
    }

    /// The least in-cluster costs between `p` and the transitions of its
    /// cluster the unit fits on, into `out` as (node, cost): from `p`
    /// (forward) or to `p` (reverse). Free straight routes on unweighted
    /// ground cost the octile distance; one Dijkstra settles the rest.
    /// Returns the cells expanded.
    fn connect(
        &self,
        cache: &mut SizedQueryCache,
        space: &Fits,
        p: Point,
        pricing: Pricing,
        out: &mut Vec<(u32, u64)>,
    ) -> u64 {
        out.clear();
        let c = self.layout.cluster_of(p);
        let (a, b) = (
            self.cluster_first[c as usize],
            self.cluster_first[c as usize + 1],
        );
        let unweighted = !self.grid().is_weighted();
        let movement = space.movement;
        let mut pending = false;
        for i in a..b {
            if self.node_clear[i as usize] < space.size {
                continue;
            }
            let q = self.node_points[i as usize];
            if unweighted && SHAPES.into_iter().any(|s| is_free(space, p, q, s)) {
                out.push((i, movement.distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y)).0));
            } else {
                pending = true;
            }
        }
        if !pending {
            return 0;
        }
        let search = &mut cache.search;
        search.begin_len(self.grid().padded_len());
        let resolved = out.len();
        for i in a..b {
            if self.node_clear[i as usize] >= space.size
                && !out[..resolved].iter().any(|(v, _)| *v == i)
            {
                search.mark_target(space.node(self.node_points[i as usize]));
            }
        }
        let zero = Estimator::zero();
        search.push_start(space.node(p), 0, &zero, TieBreak::LargerG);
        run_space(
            search,
            *space,
            self.layout.rect(c, c),
            zero,
            Goal::AllTargets,
            TieBreak::LargerG,
            false,
            u64::MAX,
            pricing,
        );
        for i in a..b {
            let n = space.node(self.node_points[i as usize]);
            if self.node_clear[i as usize] >= space.size
                && !out[..resolved].iter().any(|(v, _)| *v == i)
                && search.is_closed(n)
            {
                out.push((i, search.g(n).expect("closed nodes have a cost")));
            }
        }
        search.stats.expanded
    }

    /// A* over the edges serving `size`, from the start's transitions to a
    /// virtual goal behind the goal's; the route's nodes into `route`.
    /// Returns whether one was found and the nodes expanded.
    fn abstract_search(
        &self,
        cache: &mut SizedQueryCache,
        size: u8,
        starts: &[(u32, u64)],
        goals: &[(u32, u64)],
        goal: Point,
        route: &mut Vec<u32>,
    ) -> (bool, u64) {
        let n = self.node_points.len();
        let s = &mut cache.abs;
        s.begin(n + 1);
        let virtual_goal = n as u32;
        let open = s.generation.open();
        let closed = open + 1;
        let movement = self.settings.movement;
        let min_w = self.min_weight.0 as u64;
        // Landmark bounds through the goal's transitions: the least and
        // largest `d1(L, g) + cost(g -> goal)` over them (see the landmarks
        // module for why size 1's distances bound every size's).
        let lm = &self.landmarks;
        let symmetric = !self.grid().is_weighted();
        let mut lo = [UNREACHED; 8];
        let mut hi = [0u64; 8];
        for &(v, c) in goals {
            for l in 0..lm.count {
                let d = lm.get(v, l);
                if d != UNREACHED {
                    lo[l] = lo[l].min(d + c);
                    hi[l] = hi[l].max(d + c);
                }
            }
        }
        let estimate = |v: u32| {
            let p = self.node_points[v as usize];
            let mut best = movement
                .distance(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y))
                .0
                / Weight::ONE.0 as u64
                * min_w;
            for l in 0..lm.count {
                let d = lm.get(v, l);
                if d == UNREACHED || lo[l] == UNREACHED {
                    continue;
                }
                best = best.max(lo[l].saturating_sub(d));
                if symmetric {
                    best = best.max(d.saturating_sub(hi[l]));
                }
            }
            best
        };
        for &(v, c) in goals {
            s.goal_cost[v as usize] = c;
            s.goal_stamp[v as usize] = open;
        }
        for &(v, c) in starts {
            let i = v as usize;
            if s.stamp[i] == open && s.g[i] <= c {
                continue;
            }
            s.g[i] = c;
            s.h[i] = estimate(v);
            s.parent[i] = NONE;
            s.stamp[i] = open;
            s.heap.push(Entry {
                f: c + s.h[i],
                tie: u32::MAX - tie_g(c),
                node: v,
            });
        }
        let mut expanded = 0u64;
        let mut found = false;
        while let Some(Entry { node, .. }) = s.heap.pop() {
            let v = node as usize;
            if s.stamp[v] == closed {
                continue;
            }
            s.stamp[v] = closed;
            expanded += 1;
            if node == virtual_goal {
                found = true;
                break;
            }
            let g = s.g[v];
            let to_goal = (s.goal_stamp[v] == open).then(|| s.goal_cost[v]);
            let mut relax = |w: u32, cost: u64| {
                let wi = w as usize;
                let ng = g + cost;
                let seen = s.stamp[wi] == open;
                if s.stamp[wi] == closed || (seen && s.g[wi] <= ng) {
                    return;
                }
                if !seen {
                    s.h[wi] = if w == virtual_goal { 0 } else { estimate(w) };
                }
                s.g[wi] = ng;
                s.parent[wi] = node;
                s.stamp[wi] = open;
                s.heap.push(Entry {
                    f: ng + s.h[wi],
                    tie: u32::MAX - tie_g(ng),
                    node: w,
                });
            };
            if let Some(c) = to_goal {
                relax(virtual_goal, c);
            }
            // Edges are sorted by annotation, largest first: the ones
            // serving `size` are a prefix.
            for e in self.edge_first[v] as usize..self.edge_first[v + 1] as usize {
                if self.edge_clear[e] < size {
                    break;
                }
                relax(self.edge_to[e], self.edge_cost.get(e));
            }
        }
        route.clear();
        if found {
            let mut cur = s.parent[n];
            while cur != NONE {
                route.push(cur);
                cur = s.parent[cur as usize];
            }
            route.reverse();
        }
        (found, expanded)
    }

    /// Refines the route into cells (in-cluster legs by a straight route or
    /// a bounded A*, crossings as single moves) and smooths them.
    fn refine(
        &self,
        cache: &mut SizedQueryCache,
        space: &Fits,
        start: Point,
        goal: Point,
        route: &[u32],
        stats: &mut QueryStats,
    ) -> Path {
        let unweighted = !self.grid().is_weighted();
        let mut raw = std::mem::take(&mut cache.raw);
        let mut cum = std::mem::take(&mut cache.cum);
        let mut leg = std::mem::take(&mut cache.leg);
        raw.clear();
        cum.clear();
        raw.push(start);
        cum.push(0);
        let waypoints = route
            .iter()
            .map(|v| self.node_points[*v as usize])
            .chain(std::iter::once(goal));
        let mut u = start;
        for v in waypoints {
            if u == v {
                continue;
            }
            let (cu, cv) = (self.layout.cluster_of(u), self.layout.cluster_of(v));
            leg.clear();
            // Cells of `leg` already on the path (a search's leg starts at `u`).
            let mut skip = 0;
            if cu != cv {
                leg.push(v); // a crossing: one move
            } else if let Some(shape) = unweighted
                .then(|| SHAPES.into_iter().find(|s| is_free(space, u, v, *s)))
                .flatten()
            {
                route_cells(space, u, v, shape, &mut leg);
            } else {
                let rect = self.layout.rect(cu, cu);
                self.bounded_astar(&mut cache.search, space, (u, v), rect, &mut leg)
                    .expect("abstract edges and connections stand for in-cluster paths");
                stats.fine_expanded += cache.search.stats.expanded;
                skip = 1;
            }
            for &c in &leg[skip..] {
                let prev = *raw.last().expect("raw starts with the start");
                cum.push(cum.last().expect("cum tracks raw") + space.step_cost(prev, c));
                raw.push(c);
            }
            u = v;
        }
        let path = smooth(space, self.min_weight, &raw, &cum);
        cache.raw = raw;
        cache.cum = cum;
        cache.leg = leg;
        path
    }
}

/// Smooths a refined path with [`route::smooth_step`] from its first cell
/// to its last.
fn smooth(space: &Fits, min_weight: Weight, raw: &[Point], cum: &[u64]) -> Path {
    let mut out = Vec::with_capacity(raw.len());
    out.push(raw[0]);
    let (mut head, mut cost) = (0, 0u64);
    while head + 1 < raw.len() {
        let (j, c) = route::smooth_step(space, min_weight, raw, cum, head, &mut out);
        head = j;
        cost += c;
    }
    Path {
        cells: out,
        cost: crate::Cost(cost),
    }
}
