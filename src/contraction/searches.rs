//! Two more searches over a [`QueryGraph`] (see [`QuerySearch`]), beside
//! the rank-order sweep of `query::search`; all leave the scratch as the
//! sweep does (distances, edges reached by, the route's legs on the
//! unpacking stack, first on top), so the same unpacking follows.
//!
//! **Bitset sweep** ([`sweep`]): the same rank-order sweep with the search
//! spaces kept as one bitset over the ranks per direction: a node enters
//! when first offered a distance and the sweep takes the set ranks in
//! ascending order, with no breadth-first collection and no sort.
//!
//! **Bidirectional Dijkstra with stall-on-demand** ([`search`]): both
//! searches go upward only, each with its own priority queue; the side with
//! the smaller least key goes next, and the search stops once both least
//! keys are no less than the best meeting found. A node is *stalled* when a
//! higher node its search reached comes down to it cheaper (its distance is
//! then not its least, and no least route goes up from it): it relaxes
//! nothing. It settles the fewest nodes, but costs more per node.
//!
//! [`QuerySearch`]: super::QuerySearch

use std::cmp::Reverse;

use super::pruned::QueryGraph;
use super::query::{ContractionScratch, Upward, finish};
use super::{FORBIDDEN, NONE};

/// Runs both searches and prepares the unpacking of the best route: its cost
/// and first input node.
pub(super) fn search(
    g: &QueryGraph,
    s: &mut ContractionScratch,
    sources: &[(u32, u64)],
    targets: &[(u32, u64)],
) -> Option<(u64, u32)> {
    s.begin(g.nodes());
    s.stack.clear();
    for heap in &mut s.heap {
        heap.clear();
    }
    for (d, ends) in [sources, targets].into_iter().enumerate() {
        for (v, c) in ends {
            let Some(u) = g.rank_of(*v) else {
                continue;
            };
            let c = (*c).min(FORBIDDEN);
            if s.stamp[d][u as usize] != s.generation || c < s.dist[d][u as usize] {
                s.stamp[d][u as usize] = s.generation;
                s.dist[d][u as usize] = c;
                s.via[d][u as usize] = NONE;
                s.heap[d].push(Reverse((c, u)));
            }
        }
    }
    let now = s.generation;
    let mut best = (NONE, FORBIDDEN);
    loop {
        let key = |d: usize, s: &ContractionScratch| {
            s.heap[d]
                .peek()
                .map_or(FORBIDDEN, |Reverse((k, _))| *k)
                .min(FORBIDDEN)
        };
        let (kf, kb) = (key(0, s), key(1, s));
        if kf.min(kb) >= best.1 {
            break;
        }
        let d = usize::from(kb < kf);
        let Some(Reverse((du, u))) = s.heap[d].pop() else {
            break;
        };
        let ui = u as usize;
        if du > s.dist[d][ui] {
            continue;
        }
        s.settled += 1;
        if s.stamp[1 - d][ui] == now {
            let total = du.saturating_add(s.dist[1 - d][ui]);
            if total < best.1 {
                best = (u, total);
            }
        }
        // Stalled: a higher node this search reached comes down to `u`
        // cheaper (the other side's edges at `u`, read the other way).
        let other = g.side(1 - d);
        let mut stalled = false;
        other.to.each(other.range(u), |pos, w| {
            let wi = w as usize;
            if !stalled
                && s.stamp[d][wi] == now
                && s.dist[d][wi] + u64::from(other.cost[pos]) * g.scale < du
            {
                stalled = true;
            }
        });
        if stalled {
            continue;
        }
        let side = g.side(d);
        side.to.each(side.range(u), |pos, w| {
            let nd = du + u64::from(side.cost[pos]) * g.scale;
            let wi = w as usize;
            if s.stamp[d][wi] != now || nd < s.dist[d][wi] {
                s.stamp[d][wi] = now;
                s.dist[d][wi] = nd;
                s.via[d][wi] = pos as u32;
                s.heap[d].push(Reverse((nd, w)));
            }
        });
    }
    finish(g, s, best)
}

/// The rank-order sweep over a [`QueryGraph`] with the search space kept as
/// one bitset per direction instead of collected and sorted: a node enters
/// when first offered a distance, and the sweep takes the set ranks in
/// ascending order (an edge always leads to a higher rank, so a node's
/// distance is final when its turn comes); a node whose distance is no less
/// than the best meeting relaxes nothing. Each edge of the space is read
/// once, and the bitsets are left empty. Same result as `query::search`.
pub(super) fn sweep(
    g: &QueryGraph,
    s: &mut ContractionScratch,
    sources: &[(u32, u64)],
    targets: &[(u32, u64)],
) -> Option<(u64, u32)> {
    let n = g.nodes();
    s.begin(n);
    s.stack.clear();
    let words = n.div_ceil(64);
    for bits in &mut s.bits {
        if bits.len() < words {
            bits.resize(words, 0);
        }
    }
    let now = s.generation;
    let (mut lo, mut hi) = (usize::MAX, 0);
    for (d, ends) in [sources, targets].into_iter().enumerate() {
        for (v, c) in ends {
            let Some(u) = g.rank_of(*v) else {
                continue;
            };
            let (ui, c) = (u as usize, (*c).min(FORBIDDEN));
            if s.stamp[d][ui] != now || c < s.dist[d][ui] {
                s.stamp[d][ui] = now;
                s.dist[d][ui] = c;
                s.via[d][ui] = NONE;
                s.bits[d][ui >> 6] |= 1 << (ui & 63);
                lo = lo.min(ui >> 6);
                hi = hi.max(ui >> 6);
            }
        }
    }
    let mut best = (NONE, FORBIDDEN);
    let mut w = lo;
    while w <= hi && w < words {
        loop {
            let (f, b) = (s.bits[0][w], s.bits[1][w]);
            if f | b == 0 {
                break;
            }
            let bit = (f | b).trailing_zeros();
            let mask = 1u64 << bit;
            let u = ((w << 6) | bit as usize) as u32;
            let ui = u as usize;
            s.bits[0][w] = f & !mask;
            s.bits[1][w] = b & !mask;
            let here = [f & mask != 0, b & mask != 0];
            if here[0] && here[1] {
                let total = s.dist[0][ui].saturating_add(s.dist[1][ui]);
                if total < best.1 {
                    best = (u, total);
                }
            }
            for (d, _) in here.iter().enumerate().filter(|(_, h)| **h) {
                s.settled += 1;
                let du = s.dist[d][ui];
                if du >= best.1 {
                    continue;
                }
                let side = g.side(d);
                let range = side.range(u);
                if range.is_empty() {
                    continue;
                }
                side.to.each(range, |pos, x| {
                    let nd = du + u64::from(side.cost[pos]) * g.scale;
                    let xi = x as usize;
                    if s.stamp[d][xi] != now || nd < s.dist[d][xi] {
                        s.stamp[d][xi] = now;
                        s.dist[d][xi] = nd;
                        s.via[d][xi] = pos as u32;
                        s.bits[d][xi >> 6] |= 1 << (xi & 63);
                        hi = hi.max(xi >> 6);
                    }
                });
            }
        }
        w += 1;
    }
    finish(g, s, best)
}
