//! A* over the cluster graph, from the start's transitions to a virtual goal.

use crate::contraction::{ContractionRoute, ContractionScratch};
use crate::engine::heap::{Entry, OpenList, tie_g};
use crate::engine::stamps::{Flat, Generation, Layout, Paged, Scratch};
use crate::grid::{Point, Weight};
use crate::hierarchy::{Hierarchy, NodeReader, Nodes};
use crate::preprocess::UNREACHED;

const NONE: u32 = u32::MAX;

/// Per-thread scratch of the abstract search, reset by a generation stamp.
///
/// One record per node, in a [`Scratch`]: flat on graphs up to
/// [`FLAT_NODES`] nodes, paged above, so that the first short query on a
/// huge map's hierarchy (8 million transitions on an open 16,384 x 16,384
/// map) costs the pages it touches, not 40 bytes per node of the graph.
#[derive(Debug, Clone)]
pub(crate) struct AbstractScratch {
    rec: Scratch<Rec>,
    generation: Generation,
    heap: OpenList,
    /// The search in progress.
    run: Run,
}

/// Graphs of at most this many nodes keep their records in one flat array
/// (40 MiB at most); larger ones are paged.
const FLAT_NODES: usize = 1 << 20;

/// The search's record of one node (valid when `stamp` is the current
/// generation's), and its cost to the goal when it is one of the goal's
/// transitions (valid when `goal_stamp` is).
#[derive(Debug, Clone, Copy)]
struct Rec {
    g: u64,
    /// The estimate, computed once per search on first reaching the node.
    h: u64,
    goal_cost: u64,
    parent: u32,
    parent_edge: u32,
    stamp: u32,
    goal_stamp: u32,
}

const BLANK: Rec = Rec {
    g: 0,
    h: 0,
    goal_cost: 0,
    parent: NONE,
    parent_edge: NONE,
    stamp: 0,
    goal_stamp: 0,
};

impl Default for AbstractScratch {
    fn default() -> Self {
        AbstractScratch {
            rec: Scratch::new(BLANK, FLAT_NODES),
            generation: Generation::default(),
            heap: OpenList::default(),
            run: Run::default(),
        }
    }
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
    /// A scratch that pages graphs of more than `flat_nodes` nodes (tests
    /// page small graphs).
    #[cfg(test)]
    pub(crate) fn with_flat_limit(flat_nodes: usize) -> Self {
        AbstractScratch {
            rec: Scratch::new(BLANK, flat_nodes),
            ..Self::default()
        }
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.rec.memory_bytes() + self.heap.capacity() * std::mem::size_of::<Entry>()
    }

    pub(crate) fn begin(&mut self, nodes: usize) {
        // The nodes and the virtual goal.
        self.rec.cover(nodes + 1);
        let rec = &mut self.rec;
        self.generation.advance(|| rec.clear());
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
        let n = h.node_count();
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
            let (a, end) = h.node_anchor(v);
            (a <= sa && sa < end) || (a <= ta && ta < end)
        };
        for (v, c) in goals.iter().filter(|(v, _)| relevant(*v)) {
            let r = self.rec.get_mut(*v as usize);
            r.goal_cost = *c;
            r.goal_stamp = open;
        }
        for (v, c) in starts.iter().filter(|(v, _)| relevant(*v)) {
            let r = self.rec.get(*v as usize);
            if r.stamp == open && r.g <= *c {
                continue;
            }
            let estimate = self.run.estimate(h, *v, h.node_point(*v));
            let r = self.rec.get_mut(*v as usize);
            r.g = *c;
            r.h = estimate;
            r.parent = NONE;
            r.parent_edge = NONE;
            r.stamp = open;
            self.heap.push(Entry {
                f: c + estimate,
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
        trace: Option<&mut Vec<Point>>,
    ) -> Progress {
        match (self.rec.paged(), h.nodes()) {
            (true, Nodes::Own(n)) => self.resume_in::<Paged, _>(h, n, budget, trace),
            (false, Nodes::Own(n)) => self.resume_in::<Flat, _>(h, n, budget, trace),
            (true, Nodes::View(n)) => self.resume_in::<Paged, _>(h, n, budget, trace),
            (false, Nodes::View(n)) => self.resume_in::<Flat, _>(h, n, budget, trace),
        }
    }

    /// [`resume`](Self::resume), compiled for one layout of the records and
    /// one reader of the graph.
    fn resume_in<L: Layout, N: NodeReader>(
        &mut self,
        h: &Hierarchy,
        nodes: N,
        budget: u64,
        mut trace: Option<&mut Vec<Point>>,
    ) -> Progress {
        let n = h.node_count();
        let virtual_goal = n as u32;
        let open = self.generation.open();
        let closed = open + 1;
        let (sa, ta) = (self.run.sa, self.run.ta);
        let relevant = |v: u32| {
            let (a, end) = nodes.anchor(v);
            (a <= sa && sa < end) || (a <= ta && ta < end)
        };
        let mut spent = 0u64;
        while let Some(Entry { node, .. }) = self.heap.pop() {
            let v = node as usize;
            let here = L::get_mut(&mut self.rec, v);
            if here.stamp == closed {
                continue;
            }
            here.stamp = closed;
            let (g, goal_stamp, goal_cost) = (here.g, here.goal_stamp, here.goal_cost);
            self.run.expanded += 1;
            if let Some(t) = trace.as_deref_mut()
                && node != virtual_goal
            {
                t.push(nodes.point(v as u32));
            }
            if node == virtual_goal {
                return Progress::Found;
            }
            let run = &self.run;
            let (rec, heap) = (&mut self.rec, &mut self.heap);
            // Relaxes `w`; its estimate is computed once per search, on first
            // reaching it.
            let mut relax = |w: u32, cost: u64, edge: u32| {
                let ng = g + cost;
                let r = L::get_mut(rec, w as usize);
                let seen = r.stamp == open;
                if r.stamp == closed || (seen && r.g <= ng) {
                    return;
                }
                if !seen {
                    r.h = if w == virtual_goal {
                        0
                    } else {
                        run.estimate(h, w, nodes.point(w))
                    };
                }
                r.g = ng;
                r.parent = node;
                r.parent_edge = edge;
                r.stamp = open;
                heap.push(Entry {
                    f: ng + r.h,
                    tie: u32::MAX - tie_g(ng),
                    node: w,
                });
            };
            if goal_stamp == open {
                relax(virtual_goal, goal_cost, NONE);
            }
            // With sizes, a node's edges are sorted by the largest size they
            // serve: the ones serving this unit are a prefix, less those a
            // cheaper parallel edge serving it supersedes.
            let clear = &h.graph().edge_clear;
            let lo = h.edge_lo();
            for (w, cost, e) in nodes.out_edges(node) {
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
        let n = h.node_count();
        route.nodes.clear();
        route.edges.clear();
        if !found {
            return;
        }
        let goal = self.rec.get(n);
        route.cost = goal.g;
        let mut cur = goal.parent;
        while cur != NONE {
            let r = self.rec.get(cur as usize);
            route.nodes.push(cur);
            route.edges.push(r.parent_edge);
            cur = r.parent;
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
    /// The lower bound from abstract node `v`, at `p`, to the goal: the
    /// open-ground distance at the least weight, sharpened by the landmarks.
    #[inline]
    fn estimate(&self, h: &Hierarchy, v: u32, p: Point) -> u64 {
        let movement = h.settings().movement;
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
