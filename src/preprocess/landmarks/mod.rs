//! Stage 5: landmarks, exact cluster-graph distances from a few nodes on the
//! rim of the map, which give the planner a far sharper lower bound than the
//! straight-line distance (ALT: A*, landmarks, triangle inequality).
//!
//! For a landmark `L`, the triangle inequality gives, for any node `v` and goal
//! `T`, `d(v, T) >= d(L, T) - d(L, v)`, and on an unweighted map (where the
//! graph is symmetric) also `d(v, T) >= d(L, v) - d(L, T)`. The goal is not a
//! node of the graph, so `d(L, T)` is taken per query as the least
//! `d(L, j) + cost(j -> goal)` over the goal's transitions `j`: the exact
//! distance in the graph the planner searches. The bound stays valid when the
//! planner skips dead ends (skipping only lengthens distances) and is
//! consistent, so A* needs no re-opening.
//!
//! Landmarks are the transitions of the largest island (by transitions)
//! nearest to points spread around the map's rim; their searches run in
//! parallel. A repair keeps the landmarks and brings their distances up to
//! date in place (`table`, and `dynamic::landmark_repair` for the update),
//! except under a contraction kept for repairs, whose queries do not read
//! them: they are let go of there, and derived again when it ends.

use rayon::prelude::*;

use super::graph::ClusterGraph;
use crate::grid::Point;
use crate::packed::Column64;

mod distances;
mod table;

pub(crate) use distances::RadixHeap;
use distances::{Buckets, Distances, distances_from};
pub(crate) use table::Run;
#[cfg(test)]
pub(crate) use table::runs_of;

/// Distance of a node a landmark cannot reach.
pub(crate) const UNREACHED: u64 = u64::MAX;

/// Landmark distances, the product of stage 4b.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Landmarks {
    /// Number of landmarks, `K`.
    pub(crate) count: u32,
    /// The landmark nodes.
    pub(crate) nodes: Vec<u32>,
    /// `dist[v * K + l]`: cost from landmark `l` to node `v` ([`UNREACHED`]
    /// when unreachable). Node-major, so one node's distances share a cache line.
    pub(crate) dist: Column64,
}

impl Landmarks {
    /// Number of landmarks.
    pub fn count(&self) -> usize {
        self.count as usize
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.dist.memory_bytes() + self.nodes.len() * 4
    }

    /// The distance from landmark `l` to node `v`.
    #[inline(always)]
    pub(crate) fn get(&self, v: u32, l: usize) -> u64 {
        self.dist.get(v as usize * self.count as usize + l)
    }
}

/// Picks up to `count` landmarks and computes their distances (stage 4b).
/// `node_points` are the transitions' cells.
pub fn find_landmarks(
    graph: &ClusterGraph,
    node_points: &[Point],
    width: u32,
    height: u32,
    count: u32,
) -> Landmarks {
    let n = node_points.len();
    if n == 0 || count == 0 {
        return Landmarks::default();
    }
    let nodes = pick_landmarks(graph, node_points, width, height, count);
    Landmarks::from_nodes(graph, nodes, n)
}

/// The landmark nodes [`find_landmarks`] picks: for each rim target in
/// turn, the nearest transition of the largest island not yet taken.
pub(crate) fn pick_landmarks(
    graph: &ClusterGraph,
    node_points: &[Point],
    width: u32,
    height: u32,
    count: u32,
) -> Vec<u32> {
    let in_island = largest_island(graph, node_points.len());
    let mut nodes: Vec<u32> = Vec::new();
    for target in rim(width, height).iter().take(count as usize) {
        nodes.extend(nearest(&in_island, node_points, *target, &nodes));
    }
    nodes
}

impl Landmarks {
    /// The exact distances from the given landmark nodes over a graph of `n`
    /// nodes (the landmarks a build picks, or those a repair kept).
    pub(crate) fn from_nodes(graph: &ClusterGraph, nodes: Vec<u32>, n: usize) -> Landmarks {
        let k = nodes.len();
        let buckets = Buckets::for_graph(graph);
        let columns: Vec<Distances> = nodes
            .par_iter()
            .map(|l| distances_from(graph, *l, n, buckets))
            .collect();
        // Node-major, written straight at the width `Column64::pack` would
        // choose: narrow when every distance fits below the sentinel.
        let narrow: Option<Vec<&[u32]>> = columns
            .iter()
            .map(|c| match c {
                Distances::Narrow(d) => Some(d.as_slice()),
                Distances::Wide(_) => None,
            })
            .collect();
        let dist = if let Some(narrow) = narrow {
            Column64::Narrow(interleave(&narrow, n, |d| d))
        } else {
            let wide: Vec<Vec<u64>> = columns.into_iter().map(Distances::widened).collect();
            let wide: Vec<&[u64]> = wide.iter().map(Vec::as_slice).collect();
            if wide
                .iter()
                .all(|col| col.iter().all(|d| *d < u32::MAX as u64 || *d == UNREACHED))
            {
                Column64::Narrow(interleave(&wide, n, |d| {
                    if d == UNREACHED { u32::MAX } else { d as u32 }
                }))
            } else {
                Column64::Wide(interleave(&wide, n, |d| d))
            }
        };
        Landmarks {
            count: k as u32,
            nodes,
            dist,
        }
    }
}

/// `out[v * k + l] = f(columns[l][v])` for `k` columns of `n` values,
/// written in one sequential pass.
fn interleave<S: Copy, T>(columns: &[&[S]], n: usize, f: impl Fn(S) -> T) -> Vec<T> {
    let mut out = Vec::with_capacity(n * columns.len());
    for v in 0..n {
        out.extend(columns.iter().map(|col| f(col[v])));
    }
    out
}

/// Targets spread around the rim of a `width` x `height` map, in the order
/// landmarks take them: corners and edge midpoints first.
pub(crate) fn rim(width: u32, height: u32) -> [(i64, i64); 16] {
    let (w, h) = (width as i64 - 1, height as i64 - 1);
    [
        (0, 0),
        (w, h),
        (w, 0),
        (0, h),
        (w / 2, 0),
        (w / 2, h),
        (0, h / 2),
        (w, h / 2),
        (w / 4, 0),
        (3 * w / 4, h),
        (0, 3 * h / 4),
        (w, h / 4),
        (3 * w / 4, 0),
        (w / 4, h),
        (0, h / 4),
        (w, 3 * h / 4),
    ]
}

/// Per node, whether it lies in the island with the most transitions (the
/// lowest-labelled one on ties). The graph joins exactly the transitions of
/// one island, so its components are the islands: found here by union-find
/// over its edges, the stage needs nothing from the islands stage and can
/// run beside it.
pub(crate) fn largest_island(graph: &ClusterGraph, n: usize) -> Vec<bool> {
    let node_island = components(graph, n);
    let mut per_island = vec![0u32; n];
    for i in &node_island {
        per_island[*i as usize] += 1;
    }
    let Some(island) =
        (0..n as u32).max_by_key(|i| (per_island[*i as usize], std::cmp::Reverse(*i)))
    else {
        return Vec::new();
    };
    node_island.iter().map(|i| *i == island).collect()
}

/// The node of `eligible` nearest to `target` and not in `taken`, the
/// lowest-numbered on ties: the least `(squared distance, node)`, packed
/// into one word (distances below 2^34, nodes below 2^28) so the scan is a
/// plain minimum.
pub(crate) fn nearest(
    eligible: &[bool],
    node_points: &[Point],
    (tx, ty): (i64, i64),
    taken: &[u32],
) -> Option<u32> {
    let key = node_points
        .iter()
        .zip(eligible)
        .enumerate()
        .filter(|(v, (_, ok))| **ok && !taken.contains(&(*v as u32)))
        .map(|(v, (p, _))| {
            let (dx, dy) = (p.x as i64 - tx, p.y as i64 - ty);
            ((dx * dx + dy * dy) as u64) << 28 | v as u64
        })
        .min()?;
    Some((key & ((1 << 28) - 1)) as u32)
}

/// The connected components of the graph: each node's label is the least
/// node of its component.
fn components(graph: &ClusterGraph, n: usize) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    }
    for v in 0..n as u32 {
        // The root of `v`'s set, kept current across its edges.
        let mut a = root(&mut parent, v);
        for w in &graph.edge_to
            [graph.edge_first[v as usize] as usize..graph.edge_first[v as usize + 1] as usize]
        {
            // Most targets already hang directly below the root.
            if parent[*w as usize] == a {
                continue;
            }
            let b = root(&mut parent, *w);
            if a != b {
                // The least node stays the root.
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
                a = lo;
            }
        }
    }
    (0..n as u32).map(|v| root(&mut parent, v)).collect()
}

#[cfg(test)]
mod tests {
    use super::distances::RadixHeap;
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// A random directed graph in the cluster graph's layout, costs drawn
    /// from `lo..=hi`.
    fn random_graph(n: usize, degree: u64, lo: u64, hi: u64, seed: u64) -> ClusterGraph {
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut edge_first = vec![0u32];
        let (mut edge_to, mut cost) = (Vec::new(), Vec::new());
        for _ in 0..n {
            for _ in 0..next() % (2 * degree + 1) {
                edge_to.push((next() % n as u64) as u32);
                cost.push(lo + next() % (hi - lo + 1));
            }
            edge_first.push(edge_to.len() as u32);
        }
        ClusterGraph {
            edge_first,
            edge_to,
            edge_cost: Column64::pack(cost),
            path_first: Vec::new(),
            path_codes: Vec::new(),
            intra_edges: 0,
            inter_edges: 0,
            edge_clear: Vec::new(),
        }
    }

    /// Textbook Dijkstra with a binary heap.
    fn reference(graph: &ClusterGraph, source: u32, n: usize) -> Vec<u64> {
        let mut dist = vec![UNREACHED; n];
        let mut heap = BinaryHeap::new();
        dist[source as usize] = 0;
        heap.push(Reverse((0u64, source)));
        while let Some(Reverse((d, v))) = heap.pop() {
            if d > dist[v as usize] {
                continue;
            }
            for (w, c, _) in graph.out_edges(v) {
                if d + c < dist[w as usize] {
                    dist[w as usize] = d + c;
                    heap.push(Reverse((d + c, w)));
                }
            }
        }
        dist
    }

    #[test]
    fn both_searches_give_exact_distances() {
        // Narrow costs of a game map's spread, wide costs, costs that may
        // spread too widely for buckets, and unit costs.
        let spreads = [
            (1_000_000, 40_000_000, true),
            (3 << 33, 7 << 34, true),
            (1, 1 << 40, false),
            (1, 1, true),
        ];
        for (i, (lo, hi, bucketed)) in spreads.into_iter().enumerate() {
            for seed in 0..8u64 {
                let n = 1 + (seed as usize * 37) % 300;
                let g = random_graph(n, 1 + seed % 4, lo, hi, seed * 11 + i as u64);
                let buckets = Buckets::for_graph(&g);
                if g.edges() > 0 && bucketed {
                    assert!(buckets.is_some(), "spread {i}");
                }
                for source in [0, (n / 2) as u32, n as u32 - 1] {
                    let want = reference(&g, source, n);
                    assert_eq!(
                        distances_from(&g, source, n, buckets).widened(),
                        want,
                        "spread {i}"
                    );
                    assert_eq!(
                        distances_from(&g, source, n, None).widened(),
                        want,
                        "spread {i}"
                    );
                }
            }
        }
        // Too spread: the radix heap.
        let mut g = random_graph(2, 0, 1, 1, 1);
        g.edge_first = vec![0, 2, 2];
        g.edge_to = vec![1, 1];
        g.edge_cost = Column64::pack(vec![1, 1 << 40]);
        assert_eq!(Buckets::for_graph(&g), None);
        assert_eq!(distances_from(&g, 0, 2, None).widened(), vec![0, 1]);
    }

    #[test]
    fn landmark_columns_match_a_plain_layout() {
        // Narrow and wide distances; the layout is node-major, packed as
        // `Column64::pack` packs.
        for (lo, hi) in [(1_000_000u64, 9_000_000u64), (3 << 33, 7 << 34)] {
            let n = 200;
            let g = random_graph(n, 3, lo, hi, 5);
            let points: Vec<Point> = (0..n as u32).map(|i| Point::new(i % 20, i / 20)).collect();
            let l = find_landmarks(&g, &points, 20, 10, 8);
            let k = l.count();
            assert_eq!(k, l.nodes.len());
            let mut plain = vec![UNREACHED; n * k];
            for (j, source) in l.nodes.iter().enumerate() {
                for (v, d) in reference(&g, *source, n).into_iter().enumerate() {
                    plain[v * k + j] = d;
                }
            }
            assert_eq!(l.dist, Column64::pack(plain));
        }
    }

    #[test]
    fn landmarks_are_the_nearest_rim_transitions_of_the_largest_island() {
        for seed in 0..12u64 {
            let n = 20 + (seed as usize * 41) % 300;
            let g = random_graph(n, seed % 3, 1, 9, seed + 7);
            // Coarse points: many ties in distance, broken by node number.
            let (w, h) = (7 + seed as u32 % 5, 5 + seed as u32 % 4);
            let points: Vec<Point> = (0..n as u32)
                .map(|i| Point::new((i * 7 + seed as u32) % w, (i * 3) % h))
                .collect();
            for count in [1, 4, 8, 16] {
                let got = find_landmarks(&g, &points, w, h, count);
                // The selection as first written.
                let island_of = components(&g, n);
                let mut per = vec![0u32; n];
                for i in &island_of {
                    per[*i as usize] += 1;
                }
                let island = (0..n as u32)
                    .max_by_key(|i| (per[*i as usize], std::cmp::Reverse(*i)))
                    .unwrap();
                let (wx, hy) = (w as i64 - 1, h as i64 - 1);
                let rim = [
                    (0, 0),
                    (wx, hy),
                    (wx, 0),
                    (0, hy),
                    (wx / 2, 0),
                    (wx / 2, hy),
                    (0, hy / 2),
                    (wx, hy / 2),
                    (wx / 4, 0),
                    (3 * wx / 4, hy),
                    (0, 3 * hy / 4),
                    (wx, hy / 4),
                    (3 * wx / 4, 0),
                    (wx / 4, hy),
                    (0, hy / 4),
                    (wx, 3 * hy / 4),
                ];
                let mut want: Vec<u32> = Vec::new();
                for (tx, ty) in rim.iter().take(count as usize) {
                    let best = (0..n as u32)
                        .filter(|v| island_of[*v as usize] == island && !want.contains(v))
                        .min_by_key(|v| {
                            let p = points[*v as usize];
                            let (dx, dy) = (p.x as i64 - tx, p.y as i64 - ty);
                            (dx * dx + dy * dy, *v)
                        });
                    want.extend(best);
                }
                assert_eq!(got.nodes, want, "seed {seed}, {count} landmarks");
            }
        }
    }

    #[test]
    fn components_are_labelled_by_their_least_node() {
        for seed in 0..20u64 {
            let n = 1 + (seed as usize * 53) % 400;
            // Sparse graphs: many components.
            let g = random_graph(n, seed % 3, 1, 9, seed + 3);
            // Reference: flood fill over edges taken both ways, from each
            // node in order.
            let mut adj = vec![Vec::new(); n];
            for v in 0..n as u32 {
                for (w, _, _) in g.out_edges(v) {
                    adj[v as usize].push(w);
                    adj[w as usize].push(v);
                }
            }
            let mut want = vec![u32::MAX; n];
            for s in 0..n {
                if want[s] != u32::MAX {
                    continue;
                }
                want[s] = s as u32;
                let mut stack = vec![s];
                while let Some(v) = stack.pop() {
                    for w in &adj[v] {
                        if want[*w as usize] == u32::MAX {
                            want[*w as usize] = s as u32;
                            stack.push(*w as usize);
                        }
                    }
                }
            }
            assert_eq!(components(&g, n), want, "seed {seed}");
        }
    }

    #[test]
    fn radix_heap_pops_like_a_binary_heap() {
        let mut radix = RadixHeap::default();
        let mut binary = BinaryHeap::new();
        let mut x = 7u64;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        };
        let mut floor = 0u64;
        for round in 0..3000u32 {
            // Monotone: every key pushed is at least the last popped.
            for k in 0..(next() % 4) {
                let key = floor + next() % (1 << (round % 40)).max(1);
                radix.push(key, round * 4 + k as u32);
                binary.push(Reverse(key));
            }
            if next() % 3 != 0 {
                let r = radix.pop().map(|(k, _)| k);
                let b = binary.pop().map(|Reverse(k)| k);
                assert_eq!(r, b, "round {round}");
                if let Some(k) = r {
                    floor = k;
                }
            }
        }
        while let Some(Reverse(b)) = binary.pop() {
            assert_eq!(radix.pop().map(|(k, _)| k), Some(b));
        }
        assert_eq!(radix.pop(), None);
    }
}
