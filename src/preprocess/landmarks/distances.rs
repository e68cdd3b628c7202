//! The one-to-all searches behind landmark distances: a bucket queue (Dial)
//! when the graph's edge costs allow it, else Dijkstra with a radix heap.

use super::UNREACHED;
use crate::packed::Column64;
use crate::preprocess::graph::ClusterGraph;

/// One landmark's distances, 32 bits wide when every reachable one fits
/// below `u32::MAX` (the sentinel, as in a narrow `Column64`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Distances {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Distances {
    /// Every distance at 64 bits ([`UNREACHED`] where none).
    pub(super) fn widened(self) -> Vec<u64> {
        match self {
            Distances::Narrow(d) => d.into_iter().map(widen).collect(),
            Distances::Wide(d) => d,
        }
    }
}

/// Exact graph distances from `source`: a bucket queue when the edge costs
/// allow it (at 32 bits while the distances fit, which halves the memory
/// the search walks over), else Dijkstra with a radix heap.
pub(super) fn distances_from(
    graph: &ClusterGraph,
    source: u32,
    n: usize,
    buckets: Option<Buckets>,
) -> Distances {
    // One loop per width of the cost column, so the inner loop reads plain
    // integers.
    let infallible = "64-bit distances always fit";
    match (&graph.edge_cost, buckets) {
        (Column64::Narrow(c), Some(b)) => bucket_search(graph, c, widen, source, n, b).map_or_else(
            || Distances::Wide(bucket_search(graph, c, widen, source, n, b).expect(infallible)),
            Distances::Narrow,
        ),
        (Column64::Wide(c), Some(b)) => {
            Distances::Wide(bucket_search(graph, c, |x| x, source, n, b).expect(infallible))
        }
        (Column64::Narrow(c), None) => Distances::Wide(radix_search(graph, c, widen, source, n)),
        (Column64::Wide(c), None) => Distances::Wide(radix_search(graph, c, |x| x, source, n)),
    }
}

/// A distance type for [`bucket_search`].
pub(super) trait Distance: Copy + Ord {
    /// The mark of a node not reached.
    const UNREACHED: Self;
    /// `d` at this width, `None` when it does not fit below
    /// [`Distance::UNREACHED`].
    fn narrow(d: u64) -> Option<Self>;
    fn wide(self) -> u64;
}

impl Distance for u32 {
    const UNREACHED: u32 = u32::MAX;
    #[inline(always)]
    fn narrow(d: u64) -> Option<u32> {
        (d < u32::MAX as u64).then_some(d as u32)
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self as u64
    }
}

impl Distance for u64 {
    const UNREACHED: u64 = UNREACHED;
    #[inline(always)]
    fn narrow(d: u64) -> Option<u64> {
        Some(d)
    }
    #[inline(always)]
    fn wide(self) -> u64 {
        self
    }
}

/// A narrow cost, widened as `Column64::get` does.
#[inline(always)]
pub(super) fn widen(x: u32) -> u64 {
    if x == u32::MAX { u64::MAX } else { x as u64 }
}

/// The shape of a bucket queue for a graph's costs: bucket `k` holds the
/// tentative distances in `[k << shift, (k + 1) << shift)`, in a ring of
/// `mask + 1` buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Buckets {
    shift: u32,
    mask: u64,
}

impl Buckets {
    /// Ring sizes beyond this use the radix heap instead.
    const MAX_RING: u64 = 1 << 16;

    /// Buckets no wider than the cheapest edge (a power of two), in a ring
    /// long enough for the dearest: `None` without edges or when the costs
    /// spread so widely that the ring would be long.
    pub(super) fn for_graph(graph: &ClusterGraph) -> Option<Buckets> {
        let (lo, hi) = match &graph.edge_cost {
            Column64::Narrow(c) => (
                c.iter().copied().min().map_or(u64::MAX, widen),
                c.iter().copied().max().map_or(0, widen),
            ),
            Column64::Wide(c) => (
                c.iter().copied().min().unwrap_or(u64::MAX),
                c.iter().copied().max().unwrap_or(0),
            ),
        };
        if graph.edges() == 0 || lo == 0 {
            return None;
        }
        let shift = 63 - lo.leading_zeros();
        // Entries in flight lie within `hi` of the bucket being settled: at
        // most `(hi >> shift) + 2` buckets apart.
        let ring = ((hi >> shift) + 2).checked_next_power_of_two()?;
        (ring <= Self::MAX_RING).then_some(Buckets {
            shift,
            mask: ring - 1,
        })
    }
}

/// Dial's algorithm with buckets no wider than the cheapest edge: every node
/// in the lowest non-empty bucket already has its exact distance (a cheaper
/// path would come through another node of that bucket plus at least one
/// more edge, which lands past the bucket), so a bucket is settled in any
/// order, and a relaxation from it only ever fills later buckets.
pub(super) fn bucket_search<T: Copy, D: Distance>(
    graph: &ClusterGraph,
    costs: &[T],
    widen: impl Fn(T) -> u64,
    source: u32,
    n: usize,
    b: Buckets,
) -> Option<Vec<D>> {
    let mut dist = vec![D::UNREACHED; n];
    let mut done = vec![false; n];
    let mut ring: Vec<Vec<u32>> = vec![Vec::new(); b.mask as usize + 1];
    let (first, to) = (&graph.edge_first, &graph.edge_to);
    dist[source as usize] = D::narrow(0)?;
    ring[0].push(source);
    let mut pending = 1usize;
    let mut k = 0u64;
    let mut settle = Vec::new();
    while pending > 0 {
        let slot = (k & b.mask) as usize;
        if ring[slot].is_empty() {
            k += 1;
            continue;
        }
        // Swap the bucket out (keeping both allocations): relaxations from it
        // only fill later buckets.
        std::mem::swap(&mut settle, &mut ring[slot]);
        pending -= settle.len();
        for v in settle.drain(..) {
            if std::mem::replace(&mut done[v as usize], true) {
                continue;
            }
            let d = dist[v as usize].wide();
            let (a, z) = (first[v as usize] as usize, first[v as usize + 1] as usize);
            for (w, c) in to[a..z].iter().zip(&costs[a..z]) {
                let nd = d + widen(*c);
                let nd_at = D::narrow(nd)?;
                if nd_at < dist[*w as usize] {
                    dist[*w as usize] = nd_at;
                    ring[((nd >> b.shift) & b.mask) as usize].push(*w);
                    pending += 1;
                }
            }
        }
        k += 1;
    }
    Some(dist)
}

/// Dijkstra over the cluster graph from `source`, with a radix heap (keys
/// popped never decrease, which it exploits: about twice as fast as a binary
/// heap here), for graphs whose costs spread too widely for buckets.
pub(super) fn radix_search<T: Copy>(
    graph: &ClusterGraph,
    costs: &[T],
    widen: impl Fn(T) -> u64,
    source: u32,
    n: usize,
) -> Vec<u64> {
    let mut dist = vec![UNREACHED; n];
    let mut heap = RadixHeap::default();
    let (first, to) = (&graph.edge_first, &graph.edge_to);
    dist[source as usize] = 0;
    heap.push(0, source);
    while let Some((d, v)) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        let (a, z) = (first[v as usize] as usize, first[v as usize + 1] as usize);
        for (w, c) in to[a..z].iter().zip(&costs[a..z]) {
            let nd = d + widen(*c);
            if nd < dist[*w as usize] {
                dist[*w as usize] = nd;
                heap.push(nd, *w);
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
pub(crate) struct RadixHeap {
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
    /// Empties the heap (keeping its buffers), ready for keys from 0.
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.last = 0;
        self.len = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    pub(crate) fn push(&mut self, key: u64, value: u32) {
        debug_assert!(key >= self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, value));
        self.len += 1;
    }

    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
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
