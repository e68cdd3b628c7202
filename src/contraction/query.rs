//! The elimination-tree query and the unpacking of shortcuts.
//!
//! In a customized CCH, a shortest path goes up from the source through
//! supergraph edges, then down to the target, and every node it goes through
//! upward is an ancestor of the source in the elimination tree (the tree whose
//! parent of `u` is `u`'s lowest upward neighbour). So the forward search space
//! of a set of sources is the union of their ancestor chains, and the
//! backward one that of the targets: they are collected by walking up the
//! tree (stopping at nodes already collected), sorted by rank, and swept in
//! rank order, both at once, each node relaxing its upward edges. No priority
//! queue is needed: a node's distance is final when its turn comes, since all
//! its lower neighbours in the search space come before it. A node whose
//! distance is no better than the best meeting found so far relaxes nothing.

use super::customize::ContractionMetric;
use super::{Contraction, ContractionError, FORBIDDEN, NONE};

/// An edge direction to unpack: `(lower rank, higher rank, downward, how)`,
/// `how` naming an input arc or the middle rank.
pub(super) type Leg = (u32, u32, bool, u32);

/// Per-thread scratch of [`Contraction::query`], reset by a generation stamp:
/// no allocation once grown to the graph, no work proportional to the graph
/// per query.
#[derive(Debug, Clone, Default)]
pub struct ContractionScratch {
    /// Per rank, forward then backward: distance, stamp, edge reached by.
    pub(super) dist: [Vec<u64>; 2],
    pub(super) stamp: [Vec<u32>; 2],
    pub(super) via: [Vec<u32>; 2],
    /// The search spaces, in rank order once sorted.
    pub(super) space: [Vec<u32>; 2],
    pub(super) generation: u32,
    /// Unpacking stack, top last: `(lower rank, higher rank, downward, how)`.
    pub(super) stack: Vec<Leg>,
    pub(super) settled: u64,
    /// The bidirectional Dijkstra's queues (see `searches`), forward then
    /// backward.
    pub(super) heap: [std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>; 2],
    /// The bitset sweep's search spaces (see `searches::sweep`), empty
    /// between queries.
    pub(super) bits: [Vec<u64>; 2],
    /// The radix sort's second buffer (see `sort_ranks`).
    pub(super) sort_buf: Vec<u32>,
    /// A patched contraction's search over its patch (see `patched`).
    pub(super) patch: PatchScratch,
}

/// The scratch of a patched contraction's query (see `patched`): per node of
/// the patch its distance, its cost to the targets and how it was reached;
/// the clean ends in base ids; the walk back and one clean stretch.
#[derive(Debug, Clone, Default)]
pub(super) struct PatchScratch {
    pub(super) dist: Vec<u64>,
    pub(super) goal: Vec<u64>,
    pub(super) pred: Vec<(u32, u32)>,
    pub(super) sources: Vec<(u32, u64)>,
    pub(super) targets: Vec<(u32, u64)>,
    pub(super) walk: Vec<(u32, u32)>,
    pub(super) stretch: ContractionRoute,
}

impl PatchScratch {
    fn memory_bytes(&self) -> usize {
        (self.dist.capacity() + self.goal.capacity() + self.pred.capacity()) * 8
            + (self.sources.capacity() + self.targets.capacity() + self.walk.capacity()) * 16
            + (self.stretch.nodes.capacity() + self.stretch.arcs.capacity()) * 4
    }
}

/// The rest of a route a search found, still packed (its legs, first on
/// top): its input arcs come one at a time
/// ([`QueryGraph::next_packed_arc`](super::QueryGraph::next_packed_arc)),
/// away from the scratch, which may serve other searches in between.
///
/// A patched contraction's search (see `patched`) finds its route whole:
/// it is kept unpacked here and taken an arc at a time all the same.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PackedRoute {
    pub(super) legs: Vec<Leg>,
    /// A route found whole, and how many of its arcs were taken.
    unpacked: ContractionRoute,
    taken: usize,
}

impl PackedRoute {
    /// Whether every arc has been taken.
    pub(crate) fn is_empty(&self) -> bool {
        self.legs.is_empty() && self.taken >= self.unpacked.arcs.len()
    }

    /// Drops the arcs not taken, keeping the room.
    pub(crate) fn clear(&mut self) {
        self.legs.clear();
        self.unpacked.nodes.clear();
        self.unpacked.arcs.clear();
        self.taken = 0;
    }

    /// Emptied, to hold a route found whole.
    pub(crate) fn whole(&mut self) -> &mut ContractionRoute {
        self.clear();
        &mut self.unpacked
    }

    /// The next arc of a route found whole, and its head.
    pub(crate) fn next_whole(&mut self) -> Option<(u32, u32)> {
        let k = self.taken;
        let arc = *self.unpacked.arcs.get(k)?;
        self.taken += 1;
        Some((arc, self.unpacked.nodes[k + 1]))
    }

    /// Whether arcs of a route found whole are left to take.
    pub(crate) fn holds_whole(&self) -> bool {
        self.taken < self.unpacked.arcs.len()
    }
}

/// A shortest route found by [`Contraction::query`], in the input graph.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContractionRoute {
    /// Its cost, initial and final distances included.
    pub cost: u64,
    /// The input nodes from the source used to the target used.
    pub nodes: Vec<u32>,
    /// The input arcs between them (`nodes.len() - 1` of them).
    pub arcs: Vec<u32>,
}

impl ContractionScratch {
    /// Nodes swept by the last query (both directions).
    pub fn settled(&self) -> u64 {
        self.settled
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        let per = |d: usize| {
            self.dist[d].capacity() * 8
                + (self.stamp[d].capacity() + self.via[d].capacity() + self.space[d].capacity()) * 4
        };
        per(0)
            + per(1)
            + self.stack.capacity() * std::mem::size_of::<Leg>()
            + (self.heap[0].capacity() + self.heap[1].capacity()) * 16
            + (self.bits[0].capacity() + self.bits[1].capacity()) * 8
            + self.sort_buf.capacity() * 4
            + self.patch.memory_bytes()
    }

    pub(super) fn begin(&mut self, nodes: usize) {
        for d in 0..2 {
            if self.dist[d].len() < nodes {
                self.dist[d].resize(nodes, FORBIDDEN);
                self.stamp[d].resize(nodes, 0);
                self.via[d].resize(nodes, NONE);
            }
            self.space[d].clear();
        }
        if self.generation == u32::MAX {
            for d in 0..2 {
                self.stamp[d].fill(0);
            }
            self.generation = 0;
        }
        self.generation += 1;
        self.settled = 0;
    }
}

impl ContractionScratch {
    /// Enters rank `u` into direction `d`'s search space unless already
    /// there: whether it was new.
    #[inline]
    pub(super) fn enter(&mut self, d: usize, u: u32) -> bool {
        if self.stamp[d][u as usize] == self.generation {
            return false;
        }
        self.stamp[d][u as usize] = self.generation;
        self.dist[d][u as usize] = FORBIDDEN;
        self.via[d][u as usize] = NONE;
        self.space[d].push(u);
        true
    }

    /// Enters `u` and its ancestors (`parent`: each rank's parent, a root
    /// its own) into direction `d`'s search space, up to the first already
    /// there (everything above it is in too) or the root; the lists as plain
    /// slices, as in [`offer_all`](Self::offer_all).
    #[inline]
    pub(super) fn enter_chain<T: Copy + Into<u32>>(&mut self, d: usize, u: u32, parent: &[T]) {
        let generation = self.generation;
        let (stamp, dist, via) = (
            &mut self.stamp[d][..],
            &mut self.dist[d][..],
            &mut self.via[d][..],
        );
        let space = &mut self.space[d];
        let mut x = u as usize;
        while stamp[x] != generation {
            stamp[x] = generation;
            dist[x] = FORBIDDEN;
            via[x] = NONE;
            space.push(x as u32);
            let p = parent[x].into() as usize;
            if p == x {
                break;
            }
            x = p;
        }
    }

    /// Offers each `to[i]` the distance `du + cost[i] * scale`, reached by
    /// `first + i`: one rank's upward edges relaxed. The lists are plain
    /// slices here, so the loop keeps them in registers (through `offer`
    /// each store may have moved them, and they are read again per edge).
    /// Every sum stays below `2 * FORBIDDEN` (finite costs, a bounded scale).
    #[inline]
    pub(super) fn offer_all<T: Copy + Into<u32>>(
        &mut self,
        d: usize,
        to: &[T],
        cost: &[u32],
        first: usize,
        du: u64,
        scale: u64,
    ) {
        let (dist, via) = (&mut self.dist[d][..], &mut self.via[d][..]);
        debug_assert!(
            to.iter()
                .all(|w| self.stamp[d][(*w).into() as usize] == self.generation)
        );
        for (i, (w, c)) in to.iter().zip(cost).enumerate() {
            let w = (*w).into() as usize;
            let nd = du + u64::from(*c) * scale;
            if nd < dist[w] {
                dist[w] = nd;
                via[w] = (first + i) as u32;
            }
        }
    }

    /// Offers `w` the distance `nd`, reached by `via`.
    #[inline]
    pub(super) fn offer(&mut self, d: usize, w: usize, nd: u64, via: u32) {
        debug_assert_eq!(self.stamp[d][w], self.generation, "in the search space");
        if nd < self.dist[d][w] {
            self.dist[d][w] = nd;
            self.via[d][w] = via;
        }
    }
}

/// What the rank-order sweep and the unpacking need from an upward graph in
/// rank space (the full contraction with a metric, or a pruned query graph).
pub(super) trait Upward {
    /// Number of ranks.
    fn ranks(&self) -> usize;
    /// The rank of input node `v`, if in range.
    fn rank_of(&self, v: u32) -> Option<u32>;
    /// The input node of rank `u`.
    fn node_of(&self, u: u32) -> u32;
    /// Enters every rank reachable upward from `u` in direction `d` (`u`
    /// included) into the search space.
    fn reach(&self, s: &mut ContractionScratch, d: usize, u: u32);
    /// Offers `du` plus each upward edge's cost (direction `d`) to its head.
    fn relax(&self, s: &mut ContractionScratch, d: usize, u: u32, du: u64);
    /// The edge direction a search reached a rank by (`via` in direction
    /// `d`), as a leg.
    fn leg(&self, d: usize, via: u32) -> Leg;
    /// Searches (the rank-order sweep unless the graph has a better one) and
    /// prepares the unpacking, as [`search`].
    fn find(
        &self,
        s: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<(u64, u32)>
    where
        Self: Sized,
    {
        search(self, s, sources, targets)
    }
}

/// What unpacking needs beyond the search.
pub(super) trait Unpack {
    /// The input node of rank `u`.
    fn node(&self, u: u32) -> u32;
    /// Edge direction `low -> high` (`downward`: `high -> low`) as a leg.
    fn half(&self, low: u32, high: u32, downward: bool) -> Leg;
    /// The input arc a leg is, or `None` when it is made of two halves.
    fn arc(&self, leg: Leg) -> Result<Option<u32>, ContractionError>;
    /// The two halves of a leg that is no arc, in route order: `low -> v`
    /// (downward: `high -> v`) then `v -> high` (`v -> low`), `v` its middle.
    fn halves(&self, (low, high, downward, v): Leg) -> (Leg, Leg) {
        if downward {
            (self.half(v, high, true), self.half(v, low, false))
        } else {
            (self.half(v, low, true), self.half(v, high, false))
        }
    }
}

/// The full contraction with one metric, as an [`Upward`] graph.
pub(super) struct Full<'a> {
    pub(super) cch: &'a Contraction,
    pub(super) metric: &'a ContractionMetric,
}

impl Upward for Full<'_> {
    fn ranks(&self) -> usize {
        self.cch.nodes()
    }

    fn rank_of(&self, v: u32) -> Option<u32> {
        self.cch.rank.get(v as usize).copied()
    }

    fn node_of(&self, u: u32) -> u32 {
        self.cch.node_of[u as usize]
    }

    fn reach(&self, s: &mut ContractionScratch, d: usize, mut u: u32) {
        // The ancestors in the elimination tree, up to one already entered.
        while s.enter(d, u) {
            match self.cch.parent(u) {
                Some(p) => u = p,
                None => break,
            }
        }
    }

    #[inline]
    fn relax(&self, s: &mut ContractionScratch, d: usize, u: u32, du: u64) {
        let costs = if d == 0 {
            &self.metric.up
        } else {
            &self.metric.down
        };
        for e in self.cch.up_range(u) {
            // du < FORBIDDEN and the widened cost is at most FORBIDDEN.
            let nd = du + self.metric.widen(costs[e]);
            s.offer(d, self.cch.up_to[e] as usize, nd, e as u32);
        }
    }

    fn leg(&self, d: usize, e: u32) -> Leg {
        let how = if d == 0 {
            self.metric.up_how[e as usize]
        } else {
            self.metric.down_how[e as usize]
        };
        (
            self.cch.low_of_edge(e),
            self.cch.up_to[e as usize],
            d == 1,
            how,
        )
    }
}

impl Unpack for Full<'_> {
    fn node(&self, u: u32) -> u32 {
        self.cch.node_of[u as usize]
    }

    fn half(&self, low: u32, high: u32, downward: bool) -> Leg {
        let e = self.cch.edge(low, high).expect("triangle edge");
        self.leg(usize::from(downward), e)
    }

    fn arc(&self, leg: Leg) -> Result<Option<u32>, ContractionError> {
        debug_assert_ne!(leg.3, NONE, "a used edge has a cost");
        Ok(ContractionMetric::arc_of(leg.3))
    }
}

/// Collects both search spaces, sweeps them in rank order and prepares the
/// unpacking of the best route: its cost and first input node.
pub(super) fn search<G: Upward>(
    g: &G,
    s: &mut ContractionScratch,
    sources: &[(u32, u64)],
    targets: &[(u32, u64)],
) -> Option<(u64, u32)> {
    s.begin(g.ranks());
    s.stack.clear();
    for (d, ends) in [sources, targets].into_iter().enumerate() {
        for (v, _) in ends {
            if let Some(u) = g.rank_of(*v) {
                g.reach(s, d, u);
            }
        }
        for (v, c) in ends {
            if let Some(u) = g.rank_of(*v) {
                let slot = &mut s.dist[d][u as usize];
                *slot = (*slot).min(*c);
            }
        }
        sort_ranks(&mut s.space[d], &mut s.sort_buf, g.ranks());
    }
    let mut best = (NONE, FORBIDDEN);
    let (mut i, mut j) = (0, 0);
    let (nf, nb) = (s.space[0].len(), s.space[1].len());
    while i < nf || j < nb {
        let (f, b) = (
            s.space[0].get(i).copied().unwrap_or(NONE),
            s.space[1].get(j).copied().unwrap_or(NONE),
        );
        let u = f.min(b);
        if f == b {
            let total = s.dist[0][u as usize].saturating_add(s.dist[1][u as usize]);
            if total < best.1 {
                best = (u, total);
            }
        }
        for (d, here) in [(0, f == u), (1, b == u)] {
            if !here {
                continue;
            }
            if d == 0 {
                i += 1;
            } else {
                j += 1;
            }
            s.settled += 1;
            let du = s.dist[d][u as usize];
            if du < best.1 {
                g.relax(s, d, u, du);
            }
        }
    }
    finish(g, s, best)
}

/// Sorts the distinct ranks `v` (all below `ranks`) ascending, with `buf` as
/// scratch. A list of a few ascending runs (the elimination-tree walks, one
/// per end) is merged run by run; otherwise a least-significant-digit radix
/// sort, a byte per pass, when there are enough ranks to pay for its
/// counters (a breadth-first search space holds thousands of ranks on a
/// 1024 x 1024 map's cluster graph; a comparison sort took a quarter of the
/// query's instructions there).
pub(super) fn sort_ranks(v: &mut Vec<u32>, buf: &mut Vec<u32>, ranks: usize) {
    let runs = 1 + v.windows(2).filter(|w| w[0] > w[1]).count();
    if runs <= MERGED_RUNS {
        merge_runs(v, buf);
        return;
    }
    if v.len() < 256 {
        v.sort_unstable();
        return;
    }
    let bits = usize::BITS - ranks.max(1).leading_zeros();
    buf.clear();
    buf.resize(v.len(), 0);
    let mut shift = 0;
    while shift < bits {
        let mut count = [0u32; 257];
        for x in v.iter() {
            count[((x >> shift) & 0xff) as usize + 1] += 1;
        }
        for k in 1..257 {
            count[k] += count[k - 1];
        }
        for x in v.iter() {
            let slot = &mut count[((x >> shift) & 0xff) as usize];
            buf[*slot as usize] = *x;
            *slot += 1;
        }
        std::mem::swap(v, buf);
        shift += 8;
    }
}

/// The most ascending runs [`sort_ranks`] merges (four passes at most).
const MERGED_RUNS: usize = 16;

/// Sorts `v` by merging neighbouring ascending runs, pass by pass, into
/// `buf` and back: about `n log2(runs)` moves.
fn merge_runs(v: &mut Vec<u32>, buf: &mut Vec<u32>) {
    let run_end = |v: &[u32], mut j: usize| {
        j += 1;
        while j < v.len() && v[j - 1] < v[j] {
            j += 1;
        }
        j
    };
    loop {
        buf.clear();
        let (mut i, mut merged) = (0, 0);
        while i < v.len() {
            let mid = run_end(v, i);
            let end = if mid < v.len() { run_end(v, mid) } else { mid };
            let (mut a, mut b) = (&v[i..mid], &v[mid..end]);
            while let (Some(&x), Some(&y)) = (a.first(), b.first()) {
                if x < y {
                    buf.push(x);
                    a = &a[1..];
                } else {
                    buf.push(y);
                    b = &b[1..];
                }
            }
            buf.extend_from_slice(a);
            buf.extend_from_slice(b);
            merged += 1;
            i = end;
        }
        std::mem::swap(v, buf);
        if merged <= 1 {
            return;
        }
    }
}

/// Puts the legs of the route through `best` (meeting rank, cost) on the
/// unpacking stack, first on top; returns its cost and first input node
/// (`None` when no meeting was found).
pub(super) fn finish<G: Upward>(
    g: &G,
    s: &mut ContractionScratch,
    best: (u32, u64),
) -> Option<(u64, u32)> {
    if best.0 == NONE {
        return None;
    }
    // The legs in route order, first on top of the stack: backward ones from
    // the meeting rank down (pushed last leg first), then forward ones up to
    // it (found from the top, so already in push order).
    let start = s.stack.len();
    let mut u = best.0;
    while s.via[1][u as usize] != NONE {
        let leg = g.leg(1, s.via[1][u as usize]);
        s.stack.push(leg);
        u = leg.0;
    }
    s.stack[start..].reverse();
    let mut u = best.0;
    while s.via[0][u as usize] != NONE {
        let leg = g.leg(0, s.via[0][u as usize]);
        s.stack.push(leg);
        u = leg.0;
    }
    Some((best.1, g.node_of(u)))
}

/// The next input arc of a route on its unpacking `stack` (as [`search`]
/// prepared it, first leg on top), and its head.
pub(super) fn next_arc<U: Unpack>(
    g: &U,
    stack: &mut Vec<Leg>,
) -> Result<Option<(u32, u32)>, ContractionError> {
    while let Some(leg) = stack.pop() {
        let (low, high, downward, _) = leg;
        if let Some(arc) = g.arc(leg)? {
            let head = if downward { low } else { high };
            return Ok(Some((arc, g.node(head))));
        }
        // low -> v -> high upward, or high -> v -> low downward; v is below
        // both. Second half pushed first.
        let (first, second) = g.halves(leg);
        stack.push(second);
        stack.push(first);
    }
    Ok(None)
}

/// [`search`] and the whole unpacking into `route`: whether found. On an
/// error the route is emptied.
pub(super) fn route_into<G: Upward, U: Unpack>(
    g: &G,
    unpack: &U,
    s: &mut ContractionScratch,
    sources: &[(u32, u64)],
    targets: &[(u32, u64)],
    route: &mut ContractionRoute,
) -> Result<bool, ContractionError> {
    route.cost = 0;
    route.nodes.clear();
    route.arcs.clear();
    let Some((cost, first)) = g.find(s, sources, targets) else {
        return Ok(false);
    };
    route.cost = cost;
    route.nodes.push(first);
    loop {
        match next_arc(unpack, &mut s.stack) {
            Ok(Some((arc, head))) => {
                route.arcs.push(arc);
                route.nodes.push(head);
            }
            Ok(None) => return Ok(true),
            Err(e) => {
                route.cost = 0;
                route.nodes.clear();
                route.arcs.clear();
                return Err(e);
            }
        }
    }
}

impl Contraction {
    /// The least cost from any of `sources` (input node, initial distance) to
    /// any of `targets` (input node, final distance) under `metric`, with its
    /// route unpacked into input arcs; `None` when no target is reachable.
    /// Nodes out of range are ignored.
    pub fn query(
        &self,
        metric: &ContractionMetric,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<ContractionRoute> {
        let mut route = ContractionRoute::default();
        self.query_into(metric, scratch, sources, targets, &mut route)
            .then_some(route)
    }

    /// [`query`](Self::query) writing into `route` (reused, not reallocated):
    /// whether a route was found (`route` is emptied otherwise).
    pub fn query_into(
        &self,
        metric: &ContractionMetric,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> bool {
        let full = Full { cch: self, metric };
        route_into(&full, &full, scratch, sources, targets, route)
            .unwrap_or_else(|_| unreachable!("the full contraction names its arcs"))
    }

    /// The least cost alone (no unpacking).
    pub fn distance(
        &self,
        metric: &ContractionMetric,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<u64> {
        search(&Full { cch: self, metric }, scratch, sources, targets).map(|(c, _)| c)
    }
}
