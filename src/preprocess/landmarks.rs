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
//! parallel.

use rayon::prelude::*;

use super::graph::ClusterGraph;
use crate::grid::Point;
use crate::packed::Column64;

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
/// `node_points` are the transitions' cells, `node_island` their islands.
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
    // The island with the most transitions. The graph joins exactly the
    // transitions of one island, so its components are the islands: found
    // here by union-find over its edges (labelled by their least node), the
    // stage needs nothing from the islands stage and can run beside it.
    let node_island = components(graph, n);
    let mut per_island = vec![0u32; n];
    for i in &node_island {
        per_island[*i as usize] += 1;
    }
    let island = (0..n as u32)
        .max_by_key(|i| (per_island[*i as usize], std::cmp::Reverse(*i)))
        .expect("at least one node");
    // Targets spread around the rim: corners and edge midpoints first.
    let (w, h) = (width as i64 - 1, height as i64 - 1);
    let rim = [
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
    ];
    let mut nodes: Vec<u32> = Vec::new();
    for (tx, ty) in rim.iter().take(count as usize) {
        let best = (0..n as u32)
            .filter(|v| node_island[*v as usize] == island && !nodes.contains(v))
            .min_by_key(|v| {
                let p = node_points[*v as usize];
                let (dx, dy) = (p.x as i64 - tx, p.y as i64 - ty);
                (dx * dx + dy * dy, *v)
            });
        if let Some(b) = best {
            nodes.push(b);
        }
    }
    let k = nodes.len();
    let columns: Vec<Vec<u64>> = nodes
        .par_iter()
        .map(|l| distances_from(graph, *l, n))
        .collect();
    let mut dist = vec![UNREACHED; n * k];
    for (l, col) in columns.iter().enumerate() {
        for (v, d) in col.iter().enumerate() {
            dist[v * k + l] = *d;
        }
    }
    Landmarks {
        count: k as u32,
        nodes,
        dist: Column64::pack(dist),
    }
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
        for (w, _, _) in graph.out_edges(v) {
            let (a, b) = (root(&mut parent, v), root(&mut parent, w));
            if a != b {
                // The least node stays the root.
                let (lo, hi) = (a.min(b), a.max(b));
                parent[hi as usize] = lo;
            }
        }
    }
    (0..n as u32).map(|v| root(&mut parent, v)).collect()
}

/// Dijkstra over the cluster graph from `source`, with a radix heap (keys
/// popped never decrease, which it exploits: about twice as fast as a binary
/// heap here, and these searches are a fifth of a large map's build).
fn distances_from(graph: &ClusterGraph, source: u32, n: usize) -> Vec<u64> {
    let mut dist = vec![UNREACHED; n];
    let mut heap = RadixHeap::default();
    dist[source as usize] = 0;
    heap.push(0, source);
    while let Some((d, v)) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for (w, c, _) in graph.out_edges(v) {
            let nd = d + c;
            if nd < dist[w as usize] {
                dist[w as usize] = nd;
                heap.push(nd, w);
            }
        }
    }
    dist
}

/// A monotone priority queue of `(key, value)`: every key pushed must be at
/// least the last key popped (as in Dijkstra). Bucket `i` holds the keys whose
/// highest bit differing from the last popped key is bit `i - 1` (bucket 0:
/// equal keys); a pop that finds bucket 0 empty takes the first non-empty
/// bucket, finds its least key, and redistributes the bucket below, so each
/// entry moves down at most 64 times.
#[derive(Debug)]
struct RadixHeap {
    buckets: [Vec<(u64, u32)>; 65],
    last: u64,
    len: usize,
}

impl Default for RadixHeap {
    fn default() -> Self {
        RadixHeap {
            buckets: std::array::from_fn(|_| Vec::new()),
            last: 0,
            len: 0,
        }
    }
}

impl RadixHeap {
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    fn push(&mut self, key: u64, value: u32) {
        debug_assert!(key >= self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, value));
        self.len += 1;
    }

    fn pop(&mut self) -> Option<(u64, u32)> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let i = (1..65).find(|i| !self.buckets[*i].is_empty())?;
            let moved = std::mem::take(&mut self.buckets[i]);
            self.last = moved
                .iter()
                .map(|(k, _)| *k)
                .min()
                .expect("bucket is non-empty");
            for (k, v) in &moved {
                let b = self.bucket(*k);
                self.buckets[b].push((*k, *v));
            }
            // Keep the emptied bucket's allocation for later.
            let mut moved = moved;
            moved.clear();
            if self.buckets[i].is_empty() {
                self.buckets[i] = moved;
            }
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

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
