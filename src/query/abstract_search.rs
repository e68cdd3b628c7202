//! A* over the cluster graph, from the start's transitions to a virtual goal.

use crate::contraction::{ContractionRoute, ContractionScratch};
use crate::engine::heap::{Entry, OpenList, tie_g};
use crate::engine::stamps::Generation;
use crate::grid::{Point, Weight};
use crate::hierarchy::Hierarchy;
use crate::preprocess::UNREACHED;

const NONE: u32 = u32::MAX;

/// Per-thread scratch of the abstract search, reset by a generation stamp.
#[derive(Debug, Default, Clone)]
pub(crate) struct AbstractScratch {
    g: Vec<u64>,
    parent: Vec<u32>,
    parent_edge: Vec<u32>,
    stamp: Vec<u32>,
    goal_cost: Vec<u64>,
    goal_stamp: Vec<u32>,
    /// The estimate of each node seen in this search (valid with `stamp`).
    h: Vec<u64>,
    generation: Generation,
    heap: OpenList,
    /// The search in progress.
    run: Run,
}

/// The abstract route found: transition nodes from the first (next to the
/// start) to the last (next to the goal), and the edge used to reach each
/// (`u32::MAX` for the first).
#[derive(Debug, Clone, Default)]
pub(crate) struct AbstractRoute {
    pub nodes: Vec<u32>,
    pub edges: Vec<u32>,
    pub cost: u64,
}

impl AbstractScratch {
    pub(crate) fn memory_bytes(&self) -> usize {
        self.g.capacity() * 8
            + self.goal_cost.capacity() * 8
            + (self.parent.capacity()
                + self.parent_edge.capacity()
                + self.stamp.capacity()
                + self.goal_stamp.capacity())
            + self.h.capacity() * 8 * 4
            + self.heap.capacity() * std::mem::size_of::<Entry>()
    }

    pub(crate) fn begin(&mut self, nodes: usize) {
        let len = nodes + 1;
        if self.g.len() < len {
            self.g.resize(len, 0);
            self.parent.resize(len, NONE);
            self.parent_edge.resize(len, NONE);
            self.stamp.resize(len, 0);
            self.goal_cost.resize(len, 0);
            self.goal_stamp.resize(len, 0);
            self.h.resize(len, 0);
        }
        let (stamp, goal_stamp) = (&mut self.stamp, &mut self.goal_stamp);
        self.generation.advance(|| {
            stamp.fill(0);
            goal_stamp.fill(0);
        });
        self.heap.clear();
    }

    /// Runs A* for a unit of `size` (over the edges that serve it) from
    /// `starts` (node, cost from the start cell) to any of `goals` (node,
    /// cost to the goal cell), skipping nodes in dead-end regions that hold
    /// neither endpoint (anchors `sa`, `ta`). Returns the route, and the
    /// number of expansions.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn search(
        &mut self,
        h: &Hierarchy,
        size: u8,
        starts: &[(u32, u64)],
        goals: &[(u32, u64)],
        goal: Point,
        sa: u32,
        ta: u32,
        route: &mut AbstractRoute,
        trace: Option<&mut Vec<Point>>,
    ) -> (bool, u64) {
        self.start(h, size, starts, goals, goal, sa, ta);
        let found = self.resume(h, u64::MAX, trace) == Progress::Found;
        self.take_route(h, found, route);
        (found, self.run.expanded)
    }

    /// Sets up the search [`search`](Self::search) runs, to be advanced by
    /// [`resume`](Self::resume).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        &mut self,
        h: &Hierarchy,
        size: u8,
        starts: &[(u32, u64)],
        goals: &[(u32, u64)],
        goal: Point,
        sa: u32,
        ta: u32,
    ) {
        let n = h.entrances().cells.len();
        self.begin(n);
        let open = self.generation.open();
        // Landmark bounds: d(L, goal) through the goal's transitions.
        let lm = h.landmarks_for(size);
        let k = lm.count as usize;
        let mut to_goal = [UNREACHED; 16];
        for (v, c) in goals {
            for (l, best) in to_goal.iter_mut().enumerate().take(k) {
                let d = lm.get(*v, l);
                if d != UNREACHED {
                    *best = (*best).min(d + c);
                }
            }
        }
        self.run = Run {
            goal,
            size,
            sa,
            ta,
            to_goal,
            expanded: 0,
        };
        // Transitions in a dead end that holds neither endpoint lie on no
        // least-cost route (see `preprocess::dead_ends`): the start's and the
        // goal's clusters may reach them, the search does not use them.
        let relevant = |v: u32| {
            let (a, end) = h.node_anchors()[v as usize];
            (a <= sa && sa < end) || (a <= ta && ta < end)
        };
        for (v, c) in goals.iter().filter(|(v, _)| relevant(*v)) {
            self.goal_cost[*v as usize] = *c;
            self.goal_stamp[*v as usize] = open;
        }
        for (v, c) in starts.iter().filter(|(v, _)| relevant(*v)) {
            let i = *v as usize;
            if self.stamp[i] == open && self.g[i] <= *c {
                continue;
            }
            self.g[i] = *c;
            self.h[i] = self.run.estimate(h, *v);
            self.parent[i] = NONE;
            self.parent_edge[i] = NONE;
            self.stamp[i] = open;
            self.heap.push(Entry {
                f: c + self.h[i],
                tie: u32::MAX - tie_g(*c),
                node: *v,
            });
        }
    }

    /// Advances the search begun by [`start`](Self::start) by at most
    /// `budget` expansions (at least one).
    pub(crate) fn resume(
        &mut self,
        h: &Hierarchy,
        budget: u64,
        mut trace: Option<&mut Vec<Point>>,
    ) -> Progress {
        let n = h.entrances().cells.len();
        let virtual_goal = n as u32;
        let open = self.generation.open();
        let closed = open + 1;
        let (sa, ta) = (self.run.sa, self.run.ta);
        let relevant = |v: u32| {
            let (a, end) = h.node_anchors()[v as usize];
            (a <= sa && sa < end) || (a <= ta && ta < end)
        };
        let mut spent = 0u64;
        while let Some(Entry { node, .. }) = self.heap.pop() {
            let v = node as usize;
            if self.stamp[v] == closed {
                continue;
            }
            self.stamp[v] = closed;
            self.run.expanded += 1;
            if let Some(t) = trace.as_deref_mut()
                && node != virtual_goal
            {
                t.push(h.node_points()[v]);
            }
            if node == virtual_goal {
                return Progress::Found;
            }
            let g = self.g[v];
            let run = &self.run;
            // Relaxes `w`; its estimate is computed once per search, on first
            // reaching it.
            let mut relax = |w: u32, cost: u64, edge: u32| {
                let wi = w as usize;
                let ng = g + cost;
                let seen = self.stamp[wi] == open;
                if self.stamp[wi] == closed || (seen && self.g[wi] <= ng) {
                    return;
                }
                if !seen {
                    self.h[wi] = if w == virtual_goal {
                        0
                    } else {
                        run.estimate(h, w)
                    };
                }
                self.g[wi] = ng;
                self.parent[wi] = node;
                self.parent_edge[wi] = edge;
                self.stamp[wi] = open;
                self.heap.push(Entry {
                    f: ng + self.h[wi],
                    tie: u32::MAX - tie_g(ng),
                    node: w,
                });
            };
            if self.goal_stamp[v] == open {
                relax(virtual_goal, self.goal_cost[v], NONE);
            }
            // With sizes, a node's edges are sorted by the largest size they
            // serve: the ones serving this unit are a prefix, less those a
            // cheaper parallel edge serving it supersedes.
            let clear = &h.graph().edge_clear;
            let lo = h.edge_lo();
            for (w, cost, e) in h.graph().out_edges(node) {
                if run.size > 1 && clear[e] < run.size {
                    break;
                }
                if !lo.is_empty() && lo[e] > run.size {
                    continue;
                }
                if relevant(w) {
                    relax(w, cost, e as u32);
                }
            }
            spent += 1;
            if spent >= budget {
                return Progress::Paused;
            }
        }
        Progress::Exhausted
    }

    /// Expansions of the search so far.
    pub(crate) fn expanded(&self) -> u64 {
        self.run.expanded
    }

    /// Writes the route of a search that `found` the goal into `route`
    /// (emptied otherwise).
    pub(crate) fn take_route(&self, h: &Hierarchy, found: bool, route: &mut AbstractRoute) {
        let n = h.entrances().cells.len();
        route.nodes.clear();
        route.edges.clear();
        if !found {
            return;
        }
        route.cost = self.g[n];
        let mut cur = self.parent[n];
        while cur != NONE {
            route.nodes.push(cur);
            route.edges.push(self.parent_edge[cur as usize]);
            cur = self.parent[cur as usize];
        }
        route.nodes.reverse();
        route.edges.reverse();
    }
}

/// The search over the contraction of the cluster graph
/// ([`Hierarchy::contract`]), when the hierarchy has one made for it as it
/// is: the least-cost route for a unit of `size` from `starts` to `goals`,
/// into `route` as the A* gives it. `None` when there is no contraction.
/// Otherwise whether a route exists and the nodes swept.
pub(crate) fn contracted_search(
    h: &Hierarchy,
    scratch: &mut ContractionScratch,
    unpacked: &mut ContractionRoute,
    size: u8,
    starts: &[(u32, u64)],
    goals: &[(u32, u64)],
    route: &mut AbstractRoute,
) -> Option<(bool, u64)> {
    let found = h.contracted_route(scratch, size, starts, goals, unpacked)?;
    route.nodes.clear();
    route.edges.clear();
    route.cost = unpacked.cost;
    if found {
        route.nodes.extend_from_slice(&unpacked.nodes);
        route.edges.push(NONE);
        route.edges.extend_from_slice(&unpacked.arcs);
    }
    Some((found, scratch.settled()))
}

/// How far a resumed abstract search got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Progress {
    /// The virtual goal was expanded: a route exists.
    Found,
    /// The open list ran dry.
    Exhausted,
    /// The budget ran out; resume to continue.
    Paused,
}

/// The fixed parts of one abstract search, kept between resumptions.
#[derive(Debug, Clone, Copy)]
struct Run {
    goal: Point,
    /// The unit's size.
    size: u8,
    /// Anchors of the start and goal cells (dead-end pruning).
    sa: u32,
    ta: u32,
    /// Per landmark: the least landmark distance to the goal through its
    /// transitions.
    to_goal: [u64; 16],
    expanded: u64,
}

impl Default for Run {
    fn default() -> Self {
        Run {
            goal: Point::new(0, 0),
            size: 1,
            sa: 0,
            ta: 0,
            to_goal: [UNREACHED; 16],
            expanded: 0,
        }
    }
}

impl Run {
    /// The lower bound from abstract node `v` to the goal: the open-ground
    /// distance at the least weight, sharpened by the landmarks.
    fn estimate(&self, h: &Hierarchy, v: u32) -> u64 {
        let movement = h.settings().movement;
        let p = h.node_points()[v as usize];
        let mut best = movement
            .distance(p.x.abs_diff(self.goal.x), p.y.abs_diff(self.goal.y))
            .0
            / Weight::ONE.0 as u64
            * h.min_weight().0 as u64;
        let lm = h.landmarks_for(self.size);
        let k = lm.count as usize;
        let symmetric = !h.grid().is_weighted();
        for (l, dt) in self.to_goal.iter().enumerate().take(k) {
            let d = lm.get(v, l);
            if d == UNREACHED || *dt == UNREACHED {
                continue;
            }
            let bound = if symmetric {
                d.abs_diff(*dt)
            } else {
                dt.saturating_sub(d)
            };
            best = best.max(bound);
        }
        best
    }
}
