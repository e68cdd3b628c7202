//! Landmark distances kept exact through repairs: a dynamic shortest-path
//! update per landmark, bounded by the nodes whose distance changes.
//!
//! A repair changes the cluster graph in the repaired ("fresh") clusters
//! only: every node of another cluster keeps its out-edges, with the same
//! targets (renumbered) and costs (an edge leaving an unrepaired cluster
//! crosses a border that was not scanned again, between cells whose weights
//! did not change). So the edges that changed are exactly the out-edges of
//! fresh nodes, old and new. Per landmark, with `D` its old distances
//! carried over to the new numbering (nodes new to the graph unreached):
//!
//! 1. **Increases** (Ramalingam-Reps). A node keeps its old distance as an
//!    upper bound unless all of its old shortest paths used a changed edge
//!    or a node that lost its bound. The candidates are the targets of the
//!    old tight edges (`D[u] + c = D[v]`) out of the old fresh nodes; they
//!    are decided in increasing order of `D`: a candidate keeps its bound if
//!    some in-edge `u -> v` of the new graph from a node that kept its bound
//!    has `D[u] + c <= D[v]`, else it loses it (becomes unreached), and the
//!    targets of its tight out-edges become candidates. Every possible
//!    support has a smaller `D` (costs are positive), so it is decided
//!    first. A node never made a candidate keeps a tight in-edge that did
//!    not change from a node that kept its bound, so by induction on `D` its
//!    old distance is still achievable.
//! 2. **Decreases and recomputation** (Dijkstra from a seeded frontier).
//!    Now every `D` is an achievable upper bound, and `D[v] <= D[u] + c` on
//!    every edge except possibly the changed ones (out of fresh nodes) and
//!    those into nodes that lost their bound. Relaxing exactly those, then
//!    running Dijkstra from every improved node, gives the exact distances:
//!    the nearest node whose `D` is still too high would have a shortest-path
//!    predecessor that is exact and either was relaxed from at the start or
//!    was settled by the search, which relaxes the edge between them.
//!
//! Both phases touch only the candidates, the nodes whose distance changes,
//! and their neighbours.
//!
//! **A budget for increases.** A block closed in a wide passage can raise
//! the distance of a large share of the map by a few steps (every node
//! behind it), which would cost milliseconds per landmark. The old values
//! stay valid for the heuristic: the planner needs only a *feasible
//! potential*, `D[L] = 0` and `D[w] <= D[u] + c` on every edge (`D[u]`
//! finite implies `D[w]` finite), for which `D[t] - D[v]` (and, where the
//! graph's distances are symmetric, `D[v] - D[t]`) never exceeds the true
//! distance and is consistent. A rise in cost or a removed edge never breaks
//! that. So when more nodes lose their bound than the budget allows (64
//! plus one per 256 nodes: 181 on a 1024x1024 map of 30,000 nodes), phase
//! 1 is abandoned for that landmark: those nodes get their old values back,
//! slightly below their new distances, and phase 2 runs from the changed
//! edges only. Decreases
//! are always carried through (a cheaper edge does break feasibility), and
//! both phases keep a feasible potential feasible, so later repairs build
//! on it. Distances are then exact except where a raise was abandoned, and
//! lower there by no more than the raise;
//! [`refresh_landmarks`](super::DynamicHierarchy::refresh_landmarks) makes
//! them exact again.
//!
//! The graph stores out-edges only; the in-neighbours
//! of `v` are its out-neighbours across cluster borders (links join pairs
//! both ways) and nodes of its own cluster. Inside a cluster an edge `u -> v`
//! usually has its reverse (moves are reversible), so `v`'s out-neighbours
//! are tried first; but an inside edge is dropped when another transition
//! matches its cost, which with terrain weights can hold one way only, so
//! when they give no answer the cluster's nodes are scanned too.
//!
//! On TheFrozenSea (1024x1024, 30,000 nodes, four landmarks) the update
//! takes about 0.03 ms at the median for a cell closed or opened on open
//! ground and 0.1 ms for a 10x10 block (0.1 and 0.2 ms at the 95th
//! percentile), beside a repair of about half a millisecond.
//!
//! A landmark whose transition is gone is replaced by the nearest transition
//! of the largest island to its rim target (the build's rule for that
//! landmark), whose distances take one search over the graph; this is the
//! only global work, and rare (a landmark sits on the rim of the map).

use crate::preprocess::landmarks::{RadixHeap, Run, largest_island, nearest, rim};
use crate::preprocess::{ClusterGraph, Entrances, Landmarks, UNREACHED};

/// Buffers of the landmark update, kept between repairs.
#[derive(Debug, Default)]
pub(super) struct LandmarkScratch {
    /// Per node: the pass in which it was queued as a candidate.
    queued: Vec<u32>,
    /// Current pass (one per landmark and repair).
    pass: u32,
    heap: RadixHeap,
    /// Per cluster: the pass in which its nodes were relaxed from.
    cluster_seen: Vec<u32>,
    /// Nodes that lost their bound, this landmark, with their old values.
    lost: Vec<(u32, u64)>,
    /// Most nodes that may lose their bound per landmark and repair (see
    /// the module docs); `None`: the default for the graph's size.
    pub(super) budget: Option<usize>,
    /// Whether a raise was abandoned since the distances were last exact.
    pub(super) inexact: bool,
    /// The new graph's fresh nodes.
    fresh_nodes: Vec<u32>,
    /// Per landmark, the candidates from old tight edges (new numbering).
    candidates: Vec<Vec<u32>>,
}

impl LandmarkScratch {
    /// Starts a pass over `n` nodes: no node is queued.
    fn next_pass(&mut self, n: usize) -> u32 {
        if self.queued.len() < n {
            self.queued.resize(n, 0);
        }
        self.pass = self.pass.wrapping_add(1);
        if self.pass == 0 {
            self.queued.fill(0);
            self.cluster_seen.fill(0);
            self.pass = 1;
        }
        self.pass
    }
}

/// What changed in the graph: the clusters repaired, the old and new
/// entrances, and the old-to-new node numbering.
pub(super) struct GraphChange<'a> {
    pub(super) fresh: &'a [bool],
    pub(super) old: &'a Entrances,
    pub(super) new: &'a Entrances,
    pub(super) remap: &'a [u32],
    /// The runs of old nodes renumbered together (see `splice::renumber`).
    pub(super) runs: &'a [Run],
    /// The map's width and height.
    pub(super) map: (u32, u32),
}

/// The first half of a landmark repair, read from the old graph before the
/// repair changes it: the candidates of each landmark, from the old tight
/// edges out of old fresh nodes (read before the table is renumbered: gone
/// nodes lose their distances), and the fresh nodes.
pub(super) fn collect_candidates(
    lm: &Landmarks,
    s: &mut LandmarkScratch,
    change: &GraphChange,
    old_graph: &ClusterGraph,
) {
    if lm.count == 0 {
        return;
    }
    let k = lm.count as usize;
    s.candidates.resize_with(k, Vec::new);
    for c in s.candidates.iter_mut() {
        c.clear();
    }
    s.fresh_nodes.clear();
    for (c, _) in change.fresh.iter().enumerate().filter(|(_, f)| **f) {
        let (oa, ob) = (change.old.cluster_first[c], change.old.cluster_first[c + 1]);
        for u in oa..ob {
            for (w, cost, _) in old_graph.out_edges(u) {
                let to = change.remap[w as usize];
                if to == u32::MAX {
                    continue;
                }
                for (l, list) in s.candidates.iter_mut().enumerate() {
                    let du = lm.get(u, l);
                    if du != UNREACHED && du + cost == lm.get(w, l) {
                        list.push(to);
                    }
                }
            }
        }
        let (na, nb) = (change.new.cluster_first[c], change.new.cluster_first[c + 1]);
        s.fresh_nodes.extend(na..nb);
    }
}

/// Brings the landmark table `lm` up to date with a repair's new `graph`
/// (`change`, after [`collect_candidates`] on the old one): exact distances
/// from the same landmark nodes, each gone one replaced. Returns whether any
/// was replaced.
pub(super) fn repair_landmarks(
    lm: &mut Landmarks,
    s: &mut LandmarkScratch,
    change: &GraphChange,
    (graph, node_points): (&ClusterGraph, &[crate::Point]),
) -> bool {
    if lm.count == 0 {
        return false;
    }
    let k = lm.count as usize;
    let n = change.new.cells.len();
    lm.renumber(change.remap, change.runs, n);
    let graph = Graph {
        graph,
        entrances: change.new,
        node_points,
    };
    let mut replaced = false;
    for l in 0..k {
        let source = lm.nodes[l];
        if source != u32::MAX {
            update(lm, l, &graph, s);
        }
    }
    // Landmarks whose node is gone: the build's choice for that rim
    // target among the rest, or no landmark when none is left.
    if lm.nodes.contains(&u32::MAX) {
        replaced = true;
        let in_island = largest_island(graph.graph, n);
        let targets = rim(change.map.0, change.map.1);
        let mut l = 0;
        while l < lm.count as usize {
            if lm.nodes[l] != u32::MAX {
                l += 1;
                continue;
            }
            match nearest(&in_island, node_points, targets[l], &lm.nodes) {
                Some(v) => {
                    lm.replace(graph.graph, l, v);
                    l += 1;
                }
                None => lm.remove(l),
            }
        }
    }
    lm.canonicalize();
    replaced
}

/// The new graph with what the update reads beside it.
struct Graph<'a> {
    graph: &'a ClusterGraph,
    entrances: &'a Entrances,
    node_points: &'a [crate::Point],
}

impl Graph<'_> {
    /// The nodes of `v`'s cluster.
    fn cluster_nodes(&self, v: u32) -> std::ops::Range<u32> {
        let e = self.entrances;
        let c = e.layout.cluster_of(self.node_points[v as usize]) as usize;
        e.cluster_first[c]..e.cluster_first[c + 1]
    }
}

/// Brings landmark `l`'s distances (carried over to the new numbering) up
/// to date with the new graph, from its candidates (see the module docs).
fn update(lm: &mut Landmarks, l: usize, g: &Graph, s: &mut LandmarkScratch) {
    let source = lm.nodes[l];
    let graph = g.graph;
    let n = graph.edge_first.len() - 1;
    let pass = s.next_pass(n);
    let budget = s.budget.unwrap_or(64 + n / 256);
    s.heap.clear();
    s.lost.clear();
    for v in &s.candidates[l] {
        if s.queued[*v as usize] != pass {
            s.queued[*v as usize] = pass;
            s.heap.push(lm.get(*v, l), *v);
        }
    }
    // 1. Increases: candidates by increasing old distance.
    while let Some((d, v)) = s.heap.pop() {
        if v == source || supported(lm, l, g, v, d) {
            continue;
        }
        if s.lost.len() == budget {
            // Too many: keep the old values, which stay feasible.
            for (u, du) in s.lost.drain(..) {
                lm.set(u, l, du);
            }
            s.inexact = true;
            break;
        }
        lm.set(v, l, UNREACHED);
        s.lost.push((v, d));
        for (w, c, _) in graph.out_edges(v) {
            if s.queued[w as usize] != pass && lm.get(w, l) == d + c {
                s.queued[w as usize] = pass;
                s.heap.push(d + c, w);
            }
        }
    }
    // 2. Relax the changed edges and those into nodes that lost their
    // bound (from their out-neighbours and, once per cluster, the nodes of
    // their cluster), then Dijkstra from every improved node.
    s.heap.clear();
    for u in &s.fresh_nodes {
        relax(lm, l, graph, *u, &mut s.heap);
    }
    let clusters = g.entrances.layout.count();
    if s.cluster_seen.len() < clusters {
        s.cluster_seen.resize(clusters, 0);
    }
    for (v, _) in &s.lost {
        for (u, _, _) in graph.out_edges(*v) {
            relax(lm, l, graph, u, &mut s.heap);
        }
        let c = g.entrances.layout.cluster_of(g.node_points[*v as usize]) as usize;
        if std::mem::replace(&mut s.cluster_seen[c], pass) != pass {
            for u in g.cluster_nodes(*v) {
                relax(lm, l, graph, u, &mut s.heap);
            }
        }
    }
    while let Some((d, v)) = s.heap.pop() {
        if d == lm.get(v, l) {
            relax(lm, l, graph, v, &mut s.heap);
        }
    }
}

/// Whether node `v` (old distance `d`) has an in-edge from a node `u` that
/// kept its bound with `D[u] + c <= d`: among its out-neighbours first,
/// then among the nodes of its cluster.
fn supported(lm: &Landmarks, l: usize, g: &Graph, v: u32, d: u64) -> bool {
    let graph = g.graph;
    let supports = |u: u32| {
        let du = lm.get(u, l);
        du < d && graph.out_edges(u).any(|(x, c, _)| x == v && du + c <= d)
    };
    graph.out_edges(v).any(|(u, _, _)| supports(u)) || g.cluster_nodes(v).any(supports)
}

/// Relaxes the out-edges of `u`, queueing the nodes they improve.
#[inline]
fn relax(lm: &mut Landmarks, l: usize, graph: &ClusterGraph, u: u32, heap: &mut RadixHeap) {
    let du = lm.get(u, l);
    if du == UNREACHED {
        return;
    }
    for (w, c, _) in graph.out_edges(u) {
        let nd = du + c;
        if nd < lm.get(w, l) {
            lm.set(w, l, nd);
            heap.push(nd, w);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::tests::{assert_landmarks_exact, case_strategy, edited};
    use crate::dynamic::{DynamicHierarchy, Edit};
    use crate::preprocess::{Landmarks, UNREACHED};
    use crate::{Grid, Hierarchy, HierarchyBuilder, Point};

    /// Asserts the landmark table of `h` is a feasible potential on its
    /// graph (zero at each landmark, `D[w] <= D[u] + c` on every edge, a
    /// finite `D[u]` giving a finite `D[w]`), hence at most the exact
    /// distances: the planner's bound stays valid and consistent.
    fn assert_feasible(h: &Hierarchy, context: &str) {
        let (lm, graph) = (h.landmarks(), h.graph());
        let n = graph.edge_first.len() - 1;
        if lm.count == 0 {
            return;
        }
        let exact = Landmarks::from_nodes(graph, lm.nodes.clone(), n);
        for l in 0..lm.count() {
            assert_eq!(lm.get(lm.nodes[l], l), 0, "{context}");
            for u in 0..n as u32 {
                assert!(lm.get(u, l) <= exact.get(u, l), "{context}");
                let du = lm.get(u, l);
                if du == UNREACHED {
                    continue;
                }
                for (w, c, _) in graph.out_edges(u) {
                    let dw = lm.get(w, l);
                    assert!(dw != UNREACHED && dw <= du + c, "edge {u} -> {w} {context}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 300,
            max_shrink_iters: 2_000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// With no budget for raises, every repair keeps the old values
        /// where distances rose: the table stays a feasible potential, and a
        /// refresh makes it exact (the build's landmarks, their distances).
        #[test]
        fn abandoned_raises_stay_feasible(case in case_strategy()) {
            let mut grid = case.grid();
            let mut world = DynamicHierarchy::new(case.builder(4).build(grid.clone()).unwrap());
            world.landmark_scratch.budget = Some(0);
            for (i, step) in case.steps.iter().enumerate() {
                let edits = case.edits(step, &grid);
                world.apply(&edits).unwrap();
                grid = edited(&grid, &edits);
                assert_feasible(world.hierarchy(), &format!("after step {i} ({step:?})\n{}", grid.to_ascii()));
            }
            world.refresh_landmarks();
            prop_assert!(world.landmarks_current());
            let rebuilt = case.builder(4).build(grid.clone()).unwrap();
            prop_assert_eq!(world.landmarks(), rebuilt.landmarks());
        }
    }

    #[test]
    fn a_landmark_whose_transition_closes_is_replaced() {
        let grid = Grid::new(64, 48).unwrap();
        let build = |g: &Grid| {
            HierarchyBuilder::new()
                .cluster_size(8)
                .build(g.clone())
                .unwrap()
        };
        let mut world = DynamicHierarchy::new(build(&grid));
        let cells = |w: &DynamicHierarchy| -> Vec<Point> {
            w.landmarks()
                .nodes
                .iter()
                .map(|v| w.node_points()[*v as usize])
                .collect()
        };
        let before = world.landmarks().clone();
        let before_cells = cells(&world);
        // A wall away from the landmarks: they stay where they were.
        let wall: Vec<Point> = (10..30).map(|y| Point::new(30, y)).collect();
        let report = world.set_passable(&wall, false).unwrap();
        assert!(!report.landmarks_dropped);
        // (Their nodes are renumbered: the wall brings new transitions.)
        assert_eq!(cells(&world), before_cells);
        let mut map = edited(
            &grid,
            &wall
                .iter()
                .map(|p| Edit::Passable(*p, false))
                .collect::<Vec<_>>(),
        );
        assert_landmarks_exact(world.hierarchy(), build(&map).graph(), "wall");
        // Close the first landmark's cell: it moves, its distances are exact.
        let cell = world.node_points()[world.landmarks().nodes[0] as usize];
        let report = world.set_passable(&[cell], false).unwrap();
        map.set_passable(cell, false).unwrap();
        assert!(report.landmarks_dropped);
        assert_eq!(world.landmarks().count(), before.count());
        assert_ne!(
            world.node_points()[world.landmarks().nodes[0] as usize],
            cell
        );
        let rebuilt = build(&map);
        assert_landmarks_exact(world.hierarchy(), rebuilt.graph(), "landmark closed");
        // The replacement is the build's choice: a refresh moves nothing.
        let (kept, revision) = (world.landmarks().clone(), world.revision());
        world.refresh_landmarks();
        assert_eq!(*world.landmarks(), kept);
        assert_eq!(world.revision(), revision, "nothing changed");
        assert_eq!(world.landmarks(), rebuilt.landmarks());
    }
}
