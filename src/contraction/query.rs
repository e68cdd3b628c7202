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
use super::{Contraction, FORBIDDEN, NONE};

/// Per-thread scratch of [`Contraction::query`], reset by a generation stamp:
/// no allocation once grown to the graph, no work proportional to the graph
/// per query.
#[derive(Debug, Clone, Default)]
pub struct ContractionScratch {
    /// Per rank, forward then backward: distance, stamp, edge reached by.
    dist: [Vec<u64>; 2],
    stamp: [Vec<u32>; 2],
    via: [Vec<u32>; 2],
    /// The search spaces, in rank order once sorted.
    space: [Vec<u32>; 2],
    generation: u32,
    /// Unpacking stack: `(lower rank, edge, downward)`.
    stack: Vec<(u32, u32, bool)>,
    /// The route's edges before unpacking.
    legs: Vec<(u32, u32, bool)>,
    settled: u64,
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
        per(0) + per(1) + (self.stack.capacity() + self.legs.capacity()) * 12
    }

    fn begin(&mut self, nodes: usize) {
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
        route.cost = 0;
        route.nodes.clear();
        route.arcs.clear();
        let Some((meet, cost)) = self.sweep(metric, scratch, sources, targets) else {
            return false;
        };
        route.cost = cost;
        self.unpack(metric, scratch, meet, route);
        true
    }

    /// The least cost alone (no unpacking).
    pub fn distance(
        &self,
        metric: &ContractionMetric,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<u64> {
        self.sweep(metric, scratch, sources, targets)
            .map(|(_, c)| c)
    }

    /// Collects one direction's search space from `ends` and sets their
    /// distances.
    fn collect(&self, s: &mut ContractionScratch, d: usize, ends: &[(u32, u64)]) {
        let generation = s.generation;
        for (v, _) in ends {
            let Some(mut u) = self.rank.get(*v as usize).copied() else {
                continue;
            };
            while s.stamp[d][u as usize] != generation {
                s.stamp[d][u as usize] = generation;
                s.dist[d][u as usize] = FORBIDDEN;
                s.via[d][u as usize] = NONE;
                s.space[d].push(u);
                match self.parent(u) {
                    Some(p) => u = p,
                    None => break,
                }
            }
        }
        for (v, c) in ends {
            if let Some(u) = self.rank.get(*v as usize) {
                let slot = &mut s.dist[d][*u as usize];
                *slot = (*slot).min(*c);
            }
        }
        s.space[d].sort_unstable();
    }

    /// Both sweeps: the meeting rank and the cost.
    fn sweep(
        &self,
        metric: &ContractionMetric,
        s: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<(u32, u64)> {
        s.begin(self.nodes());
        self.collect(s, 0, sources);
        self.collect(s, 1, targets);
        let generation = s.generation;
        let mut best = (NONE, FORBIDDEN);
        let (mut i, mut j) = (0, 0);
        let (nf, nb) = (s.space[0].len(), s.space[1].len());
        while i < nf || j < nb {
            let (f, b) = (
                s.space[0].get(i).copied().unwrap_or(NONE),
                s.space[1].get(j).copied().unwrap_or(NONE),
            );
            let u = f.min(b);
            let d = if f == u {
                i += 1;
                0
            } else {
                j += 1;
                1
            };
            if f == b {
                j += 1;
                s.settled += 1;
                let total = s.dist[0][u as usize].saturating_add(s.dist[1][u as usize]);
                if total < best.1 {
                    best = (u, total);
                }
                self.relax(metric, s, 1, u, best.1, generation);
            }
            s.settled += 1;
            self.relax(metric, s, d, u, best.1, generation);
        }
        (best.0 != NONE).then_some(best)
    }

    /// Relaxes the upward edges of `u` in direction `d` (0 forward over `up`
    /// costs, 1 backward over `down` costs), unless `u` cannot beat `bound`.
    #[inline]
    fn relax(
        &self,
        metric: &ContractionMetric,
        s: &mut ContractionScratch,
        d: usize,
        u: u32,
        bound: u64,
        generation: u32,
    ) {
        let du = s.dist[d][u as usize];
        if du >= bound {
            return;
        }
        let costs = if d == 0 { &metric.up } else { &metric.down };
        for e in self.up_range(u) {
            let w = self.up_to[e] as usize;
            debug_assert_eq!(s.stamp[d][w], generation, "ancestors are collected");
            // du < FORBIDDEN and the widened cost is at most FORBIDDEN.
            let nd = du + metric.widen(costs[e]);
            if nd < s.dist[d][w] {
                s.dist[d][w] = nd;
                s.via[d][w] = e as u32;
            }
        }
    }

    /// Writes the unpacked route through `meet` into `route`.
    fn unpack(
        &self,
        metric: &ContractionMetric,
        s: &mut ContractionScratch,
        meet: u32,
        route: &mut ContractionRoute,
    ) {
        // The legs in route order: forward ones up to `meet` (found from the
        // top, so reversed), then backward ones from `meet` down.
        s.legs.clear();
        let mut u = meet;
        while s.via[0][u as usize] != NONE {
            let e = s.via[0][u as usize];
            let low = self.low_of_edge(e);
            s.legs.push((low, e, false));
            u = low;
        }
        s.legs.reverse();
        route.nodes.push(self.node_of[u as usize]);
        let mut u = meet;
        while s.via[1][u as usize] != NONE {
            let e = s.via[1][u as usize];
            let low = self.low_of_edge(e);
            s.legs.push((low, e, true));
            u = low;
        }
        for k in 0..s.legs.len() {
            s.stack.clear();
            s.stack.push(s.legs[k]);
            while let Some((low, e, downward)) = s.stack.pop() {
                let high = self.up_to[e as usize];
                let how = if downward {
                    metric.down_how[e as usize]
                } else {
                    metric.up_how[e as usize]
                };
                if let Some(arc) = ContractionMetric::arc_of(how) {
                    route.arcs.push(arc);
                    let head = if downward { low } else { high };
                    route.nodes.push(self.node_of[head as usize]);
                    continue;
                }
                debug_assert_ne!(how, NONE, "a used edge has a cost");
                // low -> v -> high upward, or high -> v -> low downward; v is
                // below both. Pushed second half first.
                let v = how;
                let e_low = self.edge(v, low).expect("triangle edge");
                let e_high = self.edge(v, high).expect("triangle edge");
                if downward {
                    // high -> v (down on {v, high}), v -> low (up on {v, low}).
                    s.stack.push((v, e_low, false));
                    s.stack.push((v, e_high, true));
                } else {
                    // low -> v (down on {v, low}), v -> high (up on {v, high}).
                    s.stack.push((v, e_high, false));
                    s.stack.push((v, e_low, true));
                }
            }
        }
    }
}
