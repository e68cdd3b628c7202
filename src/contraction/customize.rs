//! Customization: the exact costs of the supergraph's edges for one metric.
//!
//! Each edge `{u, w}` (rank `u < w`) carries two costs: `up` for `u -> w` and
//! `down` for `w -> u`. A node's upward edges are computed from scratch, in
//! rank order, by *pulling*: start from the cheapest input arc on each edge
//! (or [`FORBIDDEN`]), then for every lower neighbour `v` of `u` and every
//! upward neighbour `w > u` of `v`, the lower triangle `u -> v -> w` (and
//! `w -> v -> u`) may be cheaper. When `u` is reached, every lower node's
//! edges are final, so `u`'s are too: the costs are the exact least costs
//! over paths through lower nodes only, which is what an elimination-tree
//! query needs. Each improved cost remembers its middle node `v`, to unpack.
//! Any order that takes a node after its descendants in the elimination
//! tree computes the same: a whole customization runs disjoint subtrees on
//! several threads (see `forest`; on the six large StarCraft maps the
//! customization took 1.6x less time on two cores than in rank order).
//!
//! After some arc costs change, only the edges whose costs can change are
//! priced again, edge by edge (see `recustomize`).
//!
//! # Storage
//! Costs are stored as `u32` in units of the metric's *scale*, the greatest
//! common divisor of its finite arc costs (200 on the default octile movement:
//! 1,000,000 straight, 1,414,200 diagonal), so a stored cost is exact. Sums
//! are taken in `u64`; a triangle whose sum does not fit in 32 bits in those
//! units is refused ([`ContractionError::CostRange`]), never wrapped. On a
//! 1024x1024 map at 200 units that is over 20,000 straight steps.

use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;

use rayon::prelude::*;

use super::forest::{Direction, Forest};
use super::{Contraction, ContractionError, NONE};

/// The cost of a forbidden arc (or of no route): an arc at this cost (or
/// more) is never used.
pub const FORBIDDEN: u64 = u64::MAX / 4;

/// A stored forbidden cost (or no route so far).
pub(super) const INF: u32 = u32::MAX;

/// [`INF`] widened.
pub(super) const INF64: u64 = INF as u64;

/// Marks a `how` value as an input arc rather than a middle node.
pub(super) const ARC: u32 = 1 << 31;

thread_local! {
    /// Per rank, scratch of [`Contraction::pull`]: the edge from the node
    /// being customized to that rank, for its upward neighbours. Kept for
    /// the thread's life, so that a customization allocates it once per
    /// thread: 4 bytes per rank of the largest graph customized there
    /// (120 KB for a 1024 x 1024 StarCraft map's cluster graph).
    static PLACE: std::cell::RefCell<Vec<u32>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One metric on a [`Contraction`]: the exact cost of every supergraph edge in
/// both directions, and how each is made up.
///
/// Two metrics are equal when they give every edge the same costs and the
/// same make-up, whatever their scales.
#[derive(Debug, Clone)]
pub struct ContractionMetric {
    /// The unit of the stored costs: every finite arc cost is a multiple.
    pub(super) scale: u64,
    /// Cost of `u -> w` for edge `{u, w}`, `u < w`, in units of `scale`
    /// (`INF` when forbidden).
    pub(super) up: Vec<u32>,
    /// Cost of `w -> u`.
    pub(super) down: Vec<u32>,
    /// How `up` is made: `ARC | arc` for an input arc, a middle rank for a
    /// shortcut, `NONE` when forbidden.
    pub(super) up_how: Vec<u32>,
    /// How `down` is made.
    pub(super) down_how: Vec<u32>,
    /// Per rank, how many edge directions are made up through it (as a
    /// middle): counted when a contraction is kept for repairs, or else at
    /// the first re-customization (empty until then), and kept by
    /// re-customization, which skips the upper triangles of an edge grown
    /// dearer when its lower end makes nothing up (see the module
    /// `recustomize`).
    pub(super) made_through: Vec<u32>,
}

impl PartialEq for ContractionMetric {
    fn eq(&self, other: &Self) -> bool {
        let costs =
            |m: &Self, list: &[u32]| -> Vec<u64> { list.iter().map(|c| m.widen(*c)).collect() };
        self.up_how == other.up_how
            && self.down_how == other.down_how
            && costs(self, &self.up) == costs(other, &other.up)
            && costs(self, &self.down) == costs(other, &other.down)
    }
}

impl Eq for ContractionMetric {}

impl ContractionMetric {
    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.up.len()
            + self.down.len()
            + self.up_how.len()
            + self.down_how.len()
            + self.made_through.len())
    }

    /// The unit the costs are stored in: the greatest common divisor of the
    /// finite arc costs this metric was customized with (1 when none).
    pub fn scale(&self) -> u64 {
        self.scale
    }

    /// A stored cost in the input's units ([`FORBIDDEN`] when forbidden;
    /// a finite one is less: the scale is at most `FORBIDDEN / 2^32`).
    #[inline]
    pub(super) fn widen(&self, c: u32) -> u64 {
        if c == INF {
            FORBIDDEN
        } else {
            u64::from(c) * self.scale
        }
    }

    /// A stored cost as `f64` in units of the scale, `none` when forbidden.
    pub(super) fn stored_as_f64(&self, c: u32, none: f64) -> f64 {
        if c == INF { none } else { f64::from(c) }
    }

    /// Whether `how` names an input arc, and which.
    #[inline]
    pub(super) fn arc_of(how: u32) -> Option<u32> {
        (how != NONE && how & ARC != 0).then_some(how & !ARC)
    }
}

impl Contraction {
    /// The costs of every edge under `costs` (one per input arc, in the
    /// graph's arc order; [`FORBIDDEN`] or more forbids an arc).
    pub fn customize(&self, costs: &[u64]) -> Result<ContractionMetric, ContractionError> {
        self.check_costs(costs)?;
        self.customize_on(&Forest::new(self), costs, self.symmetric(costs))
    }

    /// [`customize`](Self::customize) in the order of `forest` (this
    /// contraction's, or, in tests, the ranks one by one), each triangle
    /// priced once when `symmetric` (only if [`symmetric`](Self::symmetric)
    /// says so). `costs` has one cost per arc (checked by the caller).
    pub(super) fn customize_on(
        &self,
        forest: &Forest,
        costs: &[u64],
        symmetric: bool,
    ) -> Result<ContractionMetric, ContractionError> {
        let m = self.edges();
        let scale = costs
            .iter()
            .filter(|c| **c < FORBIDDEN)
            .fold(0, |g, c| gcd(g, *c))
            .max(1);
        // So that any stored finite cost widens below FORBIDDEN.
        if scale > FORBIDDEN / INF64 {
            return Err(ContractionError::CostRange { scale });
        }
        // Bottom up, independent subtrees on several threads (see `forest`).
        let lists = SharedLists::new(m);
        let fits = forest.walk(Direction::BottomUp, &|u| {
            self.pull(&lists, scale, costs, u, symmetric)
        });
        if !fits {
            return Err(ContractionError::CostRange { scale });
        }
        Ok(lists.into_metric(scale))
    }

    /// Whether every edge's cheapest allowed arc costs the same both ways
    /// (a uniform-cost map's cluster graph): then the customization keeps
    /// every edge's two costs equal, triangle by triangle.
    ///
    /// Every arc of an edge is listed under the edge's lower end
    /// (`low_arcs`), so the edges are checked rank by rank, among that
    /// rank's few arcs, in parallel, with no list of two costs per edge
    /// (on TheFrozenSea that list was 9 MB of fresh memory for 173,000
    /// arcs on 571,000 edges: 5 ms on one thread, of a two-thread
    /// contraction's 82).
    pub(super) fn symmetric(&self, costs: &[u64]) -> bool {
        let same_both_ways = |arcs: &mut Vec<(u32, u32, u64)>, u: u32| {
            let (a, b) = (
                self.low_first[u as usize] as usize,
                self.low_first[u as usize + 1] as usize,
            );
            // (edge, direction, cost) of each arc, by edge.
            arcs.clear();
            arcs.extend(self.low_arcs[a..b].iter().map(|arc| {
                let slot = self.arc_slot[*arc as usize];
                (slot / 2, slot & 1, costs[*arc as usize].min(FORBIDDEN))
            }));
            arcs.sort_unstable();
            // Sorted, an edge's cheapest up arc comes first among its arcs,
            // its cheapest down arc first after the up ones.
            arcs.chunk_by(|x, y| x.0 == y.0).all(|edge| {
                let up = edge.iter().find(|x| x.1 == 0).map_or(FORBIDDEN, |x| x.2);
                let down = edge.iter().find(|x| x.1 == 1).map_or(FORBIDDEN, |x| x.2);
                up == down
            })
        };
        (0..self.nodes() as u32)
            .into_par_iter()
            .map_init(Vec::new, same_both_ways)
            .all(|same| same)
    }

    pub(super) fn check_costs(&self, costs: &[u64]) -> Result<(), ContractionError> {
        if costs.len() != self.arc_slot.len() {
            return Err(ContractionError::Length {
                what: "arc costs",
                expected: self.arc_slot.len(),
                got: costs.len(),
            });
        }
        Ok(())
    }

    /// Recomputes the costs of `u`'s upward edges from its input arcs and its
    /// lower triangles (whose costs must be final) into `lists` (costs in
    /// units of `scale`). Whether every least cost found fits in 32 bits in
    /// those units. `symmetric`: every edge's cheapest arcs cost the same
    /// both ways (see [`symmetric`](Self::symmetric)), so every lower
    /// triangle does too and is priced once.
    fn pull(
        &self,
        lists: &SharedLists,
        scale: u64,
        costs: &[u64],
        u: u32,
        symmetric: bool,
    ) -> bool {
        let range = self.up_range(u);
        let mut fits = true;
        for e in range.clone() {
            lists.set_up(e, INF, NONE);
            lists.set_down(e, INF, NONE);
        }
        let (a, b) = (
            self.low_first[u as usize] as usize,
            self.low_first[u as usize + 1] as usize,
        );
        for arc in &self.low_arcs[a..b] {
            let cost = costs[*arc as usize];
            if cost >= FORBIDDEN {
                continue;
            }
            let Ok(cost) = u32::try_from(cost / scale) else {
                fits = false;
                continue;
            };
            let slot = self.arc_slot[*arc as usize];
            let e = (slot / 2) as usize;
            if slot & 1 == 0 {
                if cost < lists.up(e) {
                    lists.set_up(e, cost, ARC | arc);
                }
            } else if cost < lists.down(e) {
                lists.set_down(e, cost, ARC | arc);
            }
            fits &= cost != INF;
        }
        let (a, b) = (
            self.down_first[u as usize] as usize,
            self.down_first[u as usize + 1] as usize,
        );
        let up_u = &self.up_to[range.clone()];
        PLACE.with_borrow_mut(|place| {
            if place.len() < self.rank.len() {
                place.resize(self.rank.len(), 0);
            }
            for (k, w) in up_u.iter().enumerate() {
                place[*w as usize] = (range.start + k) as u32;
            }
            fits &= self.pull_triangles(lists, &self.down[a..b], place, symmetric);
        });
        fits
    }

    /// The lower triangles of `u` (`down`: its downward neighbours, with
    /// the edge to each) priced into `u`'s edges, found by `place`: the edge
    /// from `u` to each of its upward neighbours. Whether every sum fits.
    #[inline]
    fn pull_triangles(
        &self,
        lists: &SharedLists,
        down: &[(u32, u32)],
        place: &[u32],
        symmetric: bool,
    ) -> bool {
        // A sum of two finite costs at INF or more does not fit at all.
        // With `c` the first part, a second part `x` is finite and at
        // least `INF - c` exactly when `x - (INF - c)`, wrapping, is below
        // `c`; an infinite `c` is taken as 0, which no `x` is below (its
        // sums are not of two finite parts).
        let too_large = |c: u32| {
            let c = if c == INF { 0 } else { c };
            (INF - c, c)
        };
        let mut overflow = false;
        for &(v, e_vu) in down {
            let (v_to_u, u_to_v) = (lists.up(e_vu as usize), lists.down(e_vu as usize));
            if v_to_u == INF && u_to_v == INF {
                continue;
            }
            let ((from_f, span_f), (from_b, span_b)) = (too_large(u_to_v), too_large(v_to_u));
            let (v_to_u, u_to_v) = (u64::from(v_to_u), u64::from(u_to_v));
            // v's upward neighbours above u, all of which are u's too.
            let end = self.up_first[v as usize + 1] as usize;
            for e_vw in e_vu as usize + 1..end {
                let e_uw = place[self.up_to[e_vw] as usize] as usize;
                if symmetric {
                    let vw = lists.up(e_vw);
                    let through = u_to_v + u64::from(vw);
                    if through < u64::from(lists.up(e_uw)) {
                        lists.set_up(e_uw, through as u32, v);
                        lists.set_down(e_uw, through as u32, v);
                    }
                    overflow |= vw.wrapping_sub(from_f) < span_f;
                    continue;
                }
                // Sums of two stored costs fit in u64; one below the stored
                // cost (at most INF) fits in u32.
                let (vw, wv) = (lists.up(e_vw), lists.down(e_vw));
                let through = u_to_v + u64::from(vw);
                if through < u64::from(lists.up(e_uw)) {
                    lists.set_up(e_uw, through as u32, v);
                }
                let back = u64::from(wv) + v_to_u;
                if back < u64::from(lists.down(e_uw)) {
                    lists.set_down(e_uw, back as u32, v);
                }
                overflow |= vw.wrapping_sub(from_f) < span_f || wv.wrapping_sub(from_b) < span_b;
            }
        }
        !overflow
    }
}

/// A metric's lists shared by the threads of one customization, each
/// writing only the edges of the ranks it visits (see `forest`): relaxed
/// atomics, which compile to plain loads and stores. The thread pool's join
/// orders a subtree's writes before its ancestors' reads.
struct SharedLists {
    up: Vec<AtomicU32>,
    down: Vec<AtomicU32>,
    up_how: Vec<AtomicU32>,
    down_how: Vec<AtomicU32>,
}

impl SharedLists {
    fn new(m: usize) -> SharedLists {
        // Filled on the pool's threads: the lists are fresh memory, and
        // the page faults of their first touch, not the stores, are most
        // of the time (about 5 ms for TheFrozenSea's 9 MB on one thread).
        let list = |v| (0..m).into_par_iter().map(|_| AtomicU32::new(v)).collect();
        SharedLists {
            up: list(INF),
            down: list(INF),
            up_how: list(NONE),
            down_how: list(NONE),
        }
    }

    fn into_metric(self, scale: u64) -> ContractionMetric {
        ContractionMetric {
            scale,
            up: into_plain(self.up),
            down: into_plain(self.down),
            up_how: into_plain(self.up_how),
            down_how: into_plain(self.down_how),
            made_through: Vec::new(),
        }
    }

    /// The upward cost of edge `e`.
    #[inline]
    fn up(&self, e: usize) -> u32 {
        self.up[e].load(Relaxed)
    }
    /// The downward cost of edge `e`.
    #[inline]
    fn down(&self, e: usize) -> u32 {
        self.down[e].load(Relaxed)
    }
    /// Sets the upward cost of edge `e` and how it is made up.
    #[inline]
    fn set_up(&self, e: usize, cost: u32, how: u32) {
        self.up[e].store(cost, Relaxed);
        self.up_how[e].store(how, Relaxed);
    }
    /// Sets the downward cost of edge `e` and how it is made up.
    #[inline]
    fn set_down(&self, e: usize, cost: u32, how: u32) {
        self.down[e].store(cost, Relaxed);
        self.down_how[e].store(how, Relaxed);
    }
}

/// Atomics back into plain numbers, once the threads are done.
pub(super) fn into_plain(list: Vec<AtomicU32>) -> Vec<u32> {
    list.into_iter().map(AtomicU32::into_inner).collect()
}

/// Greatest common divisor (`gcd(0, b) = b`).
pub(super) fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}
