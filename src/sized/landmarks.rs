//! Landmark distances over the sized cluster graph, one set for every size.
//!
//! The graph a unit of size `k` searches is the shared graph restricted to
//! the edges annotated `>= k`: a subgraph of size 1's, with the same costs.
//! So exact distances `d1` over the whole graph (size 1's) bound every
//! size's distances from below, and the ALT bound built on them,
//! `d1(L, t) - d1(L, v) <= d1(v, t) <= dk(v, t)` (and, when costs are
//! symmetric, `d1(L, v) - d1(L, t)`), is admissible and consistent for every
//! size: one table per landmark serves them all.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rayon::prelude::*;

use crate::grid::Point;
use crate::packed::Column64;

/// Not reached from a landmark.
pub(crate) const UNREACHED: u64 = u64::MAX;

/// Exact size-1 graph distances from a few landmark nodes.
#[derive(Debug, Clone, Default)]
pub(crate) struct SizedLandmarks {
    pub count: usize,
    /// `dist[v * count + l]`: from landmark `l` to node `v`.
    dist: Column64,
}

impl SizedLandmarks {
    /// The distance from landmark `l` to node `v` ([`UNREACHED`] when none).
    #[inline(always)]
    pub(crate) fn get(&self, v: u32, l: usize) -> u64 {
        self.dist.get(v as usize * self.count + l)
    }

    pub(crate) fn memory_bytes(&self) -> usize {
        self.dist.memory_bytes()
    }

    /// Up to `count` landmarks (0 to 8): the nodes nearest the map's four
    /// corners, then its four edge midpoints; distances by Dijkstra over
    /// every edge, in parallel.
    pub(crate) fn build(
        points: &[Point],
        edge_first: &[u32],
        edge_to: &[u32],
        edge_cost: &Column64,
        width: u32,
        height: u32,
        count: usize,
    ) -> SizedLandmarks {
        if points.is_empty() || count == 0 {
            return SizedLandmarks::default();
        }
        let (w, h) = (width - 1, height - 1);
        let anchors = [
            (0, 0),
            (w, h),
            (w, 0),
            (0, h),
            (w / 2, 0),
            (w / 2, h),
            (0, h / 2),
            (w, h / 2),
        ];
        let mut chosen: Vec<u32> = Vec::new();
        for &(x, y) in anchors.iter().take(count) {
            let nearest = (0..points.len() as u32)
                .min_by_key(|v| {
                    let p = points[*v as usize];
                    (p.x.abs_diff(x).max(p.y.abs_diff(y)), *v)
                })
                .expect("points is not empty");
            if !chosen.contains(&nearest) {
                chosen.push(nearest);
            }
        }
        let n = points.len();
        let tables: Vec<Vec<u64>> = chosen
            .par_iter()
            .map(|&src| {
                let mut dist = vec![UNREACHED; n];
                let mut heap = BinaryHeap::new();
                dist[src as usize] = 0;
                heap.push(Reverse((0u64, src)));
                while let Some(Reverse((d, v))) = heap.pop() {
                    if d != dist[v as usize] {
                        continue;
                    }
                    let range =
                        edge_first[v as usize] as usize..edge_first[v as usize + 1] as usize;
                    for (e, &to) in edge_to[range.clone()].iter().enumerate() {
                        let nd = d + edge_cost.get(range.start + e);
                        if nd < dist[to as usize] {
                            dist[to as usize] = nd;
                            heap.push(Reverse((nd, to)));
                        }
                    }
                }
                dist
            })
            .collect();
        let count = tables.len();
        let mut dist = vec![UNREACHED; n * count];
        for (l, t) in tables.iter().enumerate() {
            for (v, d) in t.iter().enumerate() {
                dist[v * count + l] = *d;
            }
        }
        SizedLandmarks {
            count,
            dist: Column64::pack(dist),
        }
    }
}
