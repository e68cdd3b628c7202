//! What the abstract search of a unit of size `k` reads beside the annotated
//! cluster graph, derived from it (at build, load and repair; never saved):
//!
//! * per edge, the smallest size for which it is the cheapest of its
//!   parallel edges. A pair of transitions may be joined by several edges,
//!   one per run of sizes of equal cost (see `build_sized_graph`); costs never
//!   fall as the size grows, so for size `k` only the edge with the smallest
//!   annotation `>= k` matters, and the others would only be pushed on the
//!   open list to be superseded;
//! * landmark distances for a few sizes above 1 (levels). A level `j`'s
//!   distances are taken over the edges that serve size `j`, a graph that
//!   holds every size `k >= j`'s graph with the same costs, so the ALT bound
//!   they give is admissible and consistent for every size from `j` up, and
//!   far sharper than size 1's distances where the larger sizes must go
//!   around (a query for size `k` reads the largest level `<= k`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::Point;
use crate::packed::Column64;
use crate::preprocess::{ClusterGraph, Landmarks, UNREACHED, find_landmarks};

/// The sizes that get landmark distances of their own (when the hierarchy
/// serves them and their graph differs from the level below's): every size
/// up to 4, then about two per doubling, so that a hierarchy for many sizes
/// keeps a few tables, not one per size.
const LEVELS: [u8; 13] = [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 128, 192];

/// Search aids derived from the annotated graph (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct SearchAids {
    /// Per edge: the smallest size it is the cheapest edge to its target
    /// for (`1..=` its annotation).
    pub(crate) edge_lo: Vec<u8>,
    /// Landmark distances per level, ascending by size.
    pub(crate) levels: Vec<(u8, Landmarks)>,
    /// Per size `k` (at `k - 1`): the edges serving it that no cheaper
    /// parallel edge supersedes (annotated `k` or more, `edge_lo` at most
    /// `k`), for the statistics; repairs bring it up to date from the
    /// edges they replace.
    pub(crate) serving: Vec<u64>,
}

impl SearchAids {
    /// The smallest size each edge serves as the cheapest of its parallel
    /// edges: one more than the largest annotation below its own among the
    /// no dearer edges to the same target from the same node.
    ///
    /// Each node's edges are chained by target first (a stamped head per
    /// target node, no sort), so an edge is compared with its parallel
    /// edges only, not with every edge of its node (nodes have dozens of
    /// edges when built for several sizes). A repair recomputes it for the
    /// nodes it lays out again only ([`SearchAids::edge_lo_of`]).
    pub(crate) fn edge_lo(graph: &ClusterGraph) -> Vec<u8> {
        Self::edge_lo_of(graph, 0..graph.edge_first.len().saturating_sub(1))
    }

    /// [`SearchAids::edge_lo`] for the edges of `nodes` only (each node's
    /// values depend on its own edges alone), for a repair to splice in.
    pub(crate) fn edge_lo_of(graph: &ClusterGraph, nodes: std::ops::Range<usize>) -> Vec<u8> {
        const NONE: u32 = u32::MAX;
        let (first, end) = (
            graph.edge_first[nodes.start] as usize,
            graph.edge_first[nodes.end] as usize,
        );
        let mut lo = vec![1u8; end - first];
        // Per target: the node whose edges it last chained, and the first
        // edge of the chain; per edge, the next edge to the same target.
        let mut head = vec![(NONE, NONE); graph.edge_first.len().saturating_sub(1)];
        let mut next = vec![NONE; end - first];
        for v in nodes {
            let edges = graph.edge_first[v] as usize..graph.edge_first[v + 1] as usize;
            let mut parallel = false;
            for e in edges.clone().rev() {
                let Some(h) = head.get_mut(graph.edge_to[e] as usize) else {
                    continue;
                };
                if h.0 == v as u32 {
                    next[e - first] = h.1;
                    parallel = true;
                } else {
                    h.0 = v as u32;
                }
                h.1 = e as u32;
            }
            if !parallel {
                continue;
            }
            for e in edges {
                let Some(h) = head.get(graph.edge_to[e] as usize) else {
                    continue;
                };
                // The chain of edge `e`'s target: all of its parallel edges.
                let (mut f, mut below) = (h.1, 0u8);
                if f == e as u32 && next[e - first] == NONE {
                    continue;
                }
                let (clear, cost) = (graph.edge_clear[e], graph.edge_cost.get(e));
                while f != NONE {
                    let fc = graph.edge_clear[f as usize];
                    if fc < clear && graph.edge_cost.get(f as usize) <= cost {
                        below = below.max(fc);
                    }
                    f = next[f as usize - first];
                }
                lo[e - first] = below + 1;
            }
        }
        lo
    }

    /// Per size `k` in `1..=max` (at `k - 1`): how many of the edges
    /// annotated `clear`, with smallest sizes `lo`, serve it (see
    /// [`SearchAids::serving`]).
    pub(crate) fn serving_counts(clear: &[u8], lo: &[u8], max: u8) -> Vec<u64> {
        (1..=max)
            .map(|k| {
                // Without branches: this runs on every repair.
                (clear.iter().zip(lo))
                    .map(|(c, l)| u32::from((*c >= k) & (*l <= k)))
                    .sum::<u32>() as u64
            })
            .collect()
    }

    /// The same as [`SearchAids::edge_lo`] by its definition, comparing each
    /// edge with every edge of its node (the test's reference).
    #[cfg(test)]
    pub(crate) fn edge_lo_reference(graph: &ClusterGraph) -> Vec<u8> {
        let mut lo = vec![1u8; graph.edges()];
        let nodes = graph.edge_first.len().saturating_sub(1);
        for v in 0..nodes {
            let (a, b) = (
                graph.edge_first[v] as usize,
                graph.edge_first[v + 1] as usize,
            );
            for (e, lo) in lo.iter_mut().enumerate().take(b).skip(a) {
                let (to, clear, cost) = (
                    graph.edge_to[e],
                    graph.edge_clear[e],
                    graph.edge_cost.get(e),
                );
                let below = (a..b)
                    .filter(|f| {
                        graph.edge_to[*f] == to
                            && graph.edge_clear[*f] < clear
                            && graph.edge_cost.get(*f) <= cost
                    })
                    .map(|f| graph.edge_clear[f])
                    .max()
                    .unwrap_or(0);
                *lo = below + 1;
            }
        }
        lo
    }

    /// Landmark distances (`count` landmarks) for the levels up to `max`
    /// whose graphs differ from the level below's, each kept only when its
    /// units must go around where those of the last level kept (size 1
    /// first) need not: when some distance from one of its landmarks exceeds
    /// the last level's from the same landmark by more than `detour` (a
    /// walk across a cluster). On open ground the larger sizes' distances
    /// are size 1's, and their tables would cost memory for nothing.
    pub(crate) fn levels(
        graph: &ClusterGraph,
        node_points: &[Point],
        (width, height): (u32, u32),
        count: u32,
        max: u8,
        detour: u64,
    ) -> Vec<(u8, Landmarks)> {
        if count == 0 || node_points.is_empty() {
            return Vec::new();
        }
        let mut present = [false; 256];
        for c in &graph.edge_clear {
            present[*c as usize] = true;
        }
        let mut out: Vec<(u8, Landmarks)> = Vec::new();
        let mut below = 1u8;
        let mut last = 1u8;
        let mut scratch = Dijkstra::default();
        for &j in LEVELS.iter().filter(|j| **j <= max) {
            // The edges serving `j` are those serving `below` unless some
            // edge's annotation lies in between.
            if !(below..j).any(|c| present[c as usize]) {
                continue;
            }
            below = j;
            let sub = serving(graph, j);
            let table = find_landmarks(&sub, node_points, width, height, count);
            if goes_around(graph, last, &table, detour, &mut scratch) {
                out.push((j, table));
                last = j;
            }
        }
        out
    }

    /// The landmark distances a unit of `size` reads: the largest level
    /// `<= size`, if any.
    #[inline]
    pub(crate) fn landmarks_for(&self, size: u8) -> Option<&Landmarks> {
        self.levels
            .iter()
            .rev()
            .find(|(j, _)| *j <= size)
            .map(|(_, l)| l)
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.edge_lo.len()
            + self
                .levels
                .iter()
                .map(|(_, l)| l.memory_bytes())
                .sum::<usize>()
    }
}

/// Whether some distance of `table` (over the edges serving a larger size)
/// exceeds, by more than `detour`, the distance from the same landmark over
/// the edges serving size `last`.
fn goes_around(
    graph: &ClusterGraph,
    last: u8,
    table: &Landmarks,
    detour: u64,
    scratch: &mut Dijkstra,
) -> bool {
    let k = table.count as usize;
    let mut around = 0u64;
    for (l, source) in table.nodes.iter().enumerate() {
        scratch.run(graph, last, *source);
        for (v, d) in scratch.dist.iter().enumerate() {
            let far = table.dist.get(v * k + l);
            around +=
                (*d != UNREACHED && far != UNREACHED && far > d.saturating_add(detour)) as u64;
        }
    }
    around > 0
}

/// Dijkstra over the edges serving one size (the check of a level's use).
#[derive(Default)]
struct Dijkstra {
    dist: Vec<u64>,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
}

impl Dijkstra {
    fn run(&mut self, graph: &ClusterGraph, size: u8, source: u32) {
        self.dist.clear();
        self.dist.resize(graph.edge_first.len() - 1, UNREACHED);
        self.heap.clear();
        self.dist[source as usize] = 0;
        self.heap.push(Reverse((0, source)));
        while let Some(Reverse((d, v))) = self.heap.pop() {
            if d > self.dist[v as usize] {
                continue;
            }
            for (w, cost, e) in graph.out_edges(v) {
                if graph.edge_clear[e] < size {
                    break; // sorted by annotation, largest first
                }
                let nd = d + cost;
                if nd < self.dist[w as usize] {
                    self.dist[w as usize] = nd;
                    self.heap.push(Reverse((nd, w)));
                }
            }
        }
    }
}

/// The graph of the edges serving size `j` (the same nodes).
fn serving(graph: &ClusterGraph, j: u8) -> ClusterGraph {
    let nodes = graph.edge_first.len() - 1;
    let mut edge_first = Vec::with_capacity(nodes + 1);
    let (mut edge_to, mut costs) = (Vec::new(), Vec::new());
    edge_first.push(0);
    for v in 0..nodes as u32 {
        for (w, cost, e) in graph.out_edges(v) {
            if graph.edge_clear[e] < j {
                break; // sorted by annotation, largest first
            }
            edge_to.push(w);
            costs.push(cost);
        }
        edge_first.push(edge_to.len() as u32);
    }
    ClusterGraph {
        edge_first,
        edge_to,
        edge_cost: Column64::pack(costs),
        path_first: Vec::new(),
        path_codes: Vec::new(),
        intra_edges: 0,
        inter_edges: 0,
        edge_clear: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapgen::{MapKind, MapParams, generate_with};
    use crate::{Hierarchy, Movement, Point, Weight};

    /// Grouped by target, each edge's smallest size is the one its
    /// definition gives, on hierarchies for several sizes (wide corridors,
    /// every movement rule, some weighted so parallel edges differ in cost).
    #[test]
    fn edge_lo_by_target_matches_the_definition() {
        let wide = MapParams {
            corridor_width: 3,
            ..Default::default()
        };
        let mut checked = 0;
        for (i, kind) in [
            MapKind::Maze,
            MapKind::Rooms,
            MapKind::Caves,
            MapKind::Random,
        ]
        .into_iter()
        .enumerate()
        {
            for (j, m) in Movement::every_rule().into_iter().enumerate() {
                let mut grid = generate_with(kind, 48, 40, 7 + (i * 8 + j) as u64, &wide).unwrap();
                if j % 2 == 1 {
                    for y in (0..grid.height()).step_by(3) {
                        for x in (0..grid.width()).step_by(5) {
                            grid.set_weight(Point::new(x, y), Weight(3)).unwrap();
                        }
                    }
                }
                let h = Hierarchy::builder()
                    .cluster_size(8)
                    .movement(m)
                    .max_unit_size(3)
                    .build(grid)
                    .unwrap();
                assert_eq!(
                    SearchAids::edge_lo(h.graph()),
                    SearchAids::edge_lo_reference(h.graph()),
                    "{kind:?}, rule {j}"
                );
                // A repair's stretch of nodes alone: the same values.
                let (graph, n) = (h.graph(), h.graph().edge_first.len() - 1);
                let (a, b) = (n / 3, 2 * n / 3);
                let (ea, eb) = (graph.edge_first[a] as usize, graph.edge_first[b] as usize);
                assert_eq!(
                    SearchAids::edge_lo_of(graph, a..b),
                    SearchAids::edge_lo(graph)[ea..eb],
                    "{kind:?}, rule {j}, nodes {a}..{b}"
                );
                checked += SearchAids::edge_lo(h.graph())
                    .iter()
                    .filter(|x| **x > 1)
                    .count();
            }
        }
        // Some edges have a cheaper parallel edge for smaller units.
        assert!(checked > 0);
    }
}
