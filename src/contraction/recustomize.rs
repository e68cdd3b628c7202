//! Partial re-customization: a metric brought up to date after a few arc
//! costs change, edge by edge.
//!
//! A customization prices each supergraph edge `{u, w}` (`u < w`) as the
//! least of its input arcs and its *lower triangles* `u - v - w`, `v < u`,
//! the first of the least in that order (arcs in `low_arcs` order, then the
//! middles ascending) making it up. After an edit, only the edges that can
//! change are priced again, lowest lower end first:
//!
//! - the edges that carry a changed arc, from scratch
//!   ([`Contraction::pull_edge`]);
//! - an edge `f` one of whose lower triangles changed price, if that may
//!   change it. A lower triangle of `f = {w, x}` through `u` is made of the
//!   edges `e = {u, w}` and `g = {u, x}`, so when `e` is priced again and
//!   changed, the triangle is reported to `f` for every other upward edge
//!   `g` of `u`: `e`'s *upper triangles*. Each direction of a waiting `f`
//!   keeps its *least so far*, at first its old price and make-up. A
//!   triangle reported that made the least so far up and grew dearer (or
//!   whose sum overflows, so that pricing reports it as a customization
//!   would) has `f` priced from scratch; one now cheaper than the least so
//!   far, or tied with it and before what makes it up, becomes it; any
//!   other leaves it (dearer, or tied behind). At its turn, an `f` not
//!   priced from scratch takes its least so far.
//!
//! So only a rise of what made an edge up prices it from scratch: after a
//! block is opened again (costs only fall), a 10x10 block's reopening on
//! TheFrozenSea prices 10 of some 400 edges from scratch, reading 48 lower
//! triangles instead of 44,000.
//!
//! A dearer edge whose lower end makes nothing up reports nothing. Each
//! metric counts, per rank, the edge directions made up through it
//! ([`ContractionMetric::made_through`]: the make-ups of the metric, and
//! the least so far of a waiting edge once a reported triangle set it).
//! When `e = {u, w}` is priced dearer both ways (or the same one way), each
//! of its upper triangles grows dearer or keeps its price, and by the rules
//! above such a triangle changes `f` only if it made up `f`'s least so far
//! (through `u`, so counted) or if its sum overflows. With nothing made up
//! through `u` and no sum overflowing, none is reported. On TheFrozenSea a
//! 10x10 block closed and opened again skips about 8,400 of some 27,000
//! reports a repair (mean of both).
//!
//! Why that is exact. Edges are priced in the order of their lower ends, so
//! when `e` is priced the edges of its lower triangles are final, and `f`
//! (whose lower end is `w` or `x`, both above `u`) still has its old price
//! and make-up: reports wait beside it. Of `e` and `g`, the first whose
//! part of a triangle changes sees the triangle's old price; the last sees
//! its final price, and is judged against the least so far, which the
//! first report may have set at the triangle's passing price: if the
//! triangle then grows dearer, it made that least up, and `f` is priced
//! from scratch. An `f` never reported has no changed arc, and every
//! changed triangle was, before and after, dearer than `f` or (before) tied
//! with it behind what made it up: its least, and the first making it up,
//! are as before. An `f` that only took cheaper triangles kept what made it
//! up unless one of them replaced it (a make-up grown dearer would have
//! priced it from scratch), and every triangle it did not hear of kept its
//! price: its least so far is the least of all, first in order.
//!
//! The node-by-node way (every upward edge of a node priced again whenever
//! one of its lower neighbours' edges changed) read every lower triangle of
//! the top separators' nodes after most edits (thousands each); edge by
//! edge, an edit prices the edges whose least costs it changes (on
//! TheFrozenSea about 1,500 of 807,000 for a 10x10 block, 96% of them
//! changed) and a few more.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use fixedbitset::FixedBitSet;

use super::customize::{ARC, ContractionMetric, FORBIDDEN, INF, INF64};
use super::{ArcGraph, Contraction, ContractionError, NONE};

thread_local! {
    /// Scratch of [`Contraction::recustomize`], kept for the thread's life
    /// (one flag per supergraph edge of the largest contraction
    /// re-customized there, cleared as the edges are priced).
    static DIRTY: std::cell::RefCell<Dirty> = std::cell::RefCell::default();
}

/// The edges waiting to be priced again, lowest first, each once, and the
/// lower neighbours of the lower end of those being priced.
#[derive(Debug, Default)]
struct Dirty {
    /// Per supergraph edge: whether it waits (a bitset, read for every
    /// triangle reported, small enough to stay in cache) and its place in
    /// `waiting` then.
    is_waiting: FixedBitSet,
    slot: Vec<u32>,
    waiting: Vec<Waiting>,
    heap: BinaryHeap<Reverse<u32>>,
    /// Per rank, the edge to it from [`placed`](Self::placed) when it is a
    /// lower neighbour of that rank, else `NONE`.
    place: Vec<u32>,
    /// The rank whose lower neighbours are in `place`, or `NONE`.
    placed: u32,
    /// The metric's [`made_through`](ContractionMetric::made_through)
    /// while it is re-customized, the least so far of waiting edges
    /// counted too.
    made_through: Vec<u32>,
}

/// An edge waiting to be priced again: from scratch, or, when only cheaper
/// (or tied and earlier) lower triangles were reported, by the least of
/// them and its old prices (see the module docs).
#[derive(Debug, Clone, Copy)]
struct Waiting {
    /// Whether it must be priced from scratch.
    full: bool,
    /// Per direction (up, down): the least price so far (`NO_ROUTE` for
    /// none) and what makes it up.
    best: [(u64, u32); 2],
    /// Per direction: whether that least so far is a triangle reported
    /// (counted in `Dirty::made_through` beside the metric's make-up),
    /// not the old price.
    reported: [bool; 2],
}

impl Dirty {
    /// Readies the scratch for `contraction`.
    fn fit(&mut self, contraction: &Contraction) {
        if self.slot.len() < contraction.edges() {
            self.slot.resize(contraction.edges(), NONE);
            self.is_waiting.grow(contraction.edges());
        }
        if self.place.len() < contraction.nodes() {
            self.place.resize(contraction.nodes(), NONE);
        }
        self.placed = NONE;
        self.waiting.clear();
    }

    /// Scatters the lower neighbours of rank `u` into `place` (none for
    /// `NONE`), clearing those of the rank there before.
    fn place_lower(&mut self, contraction: &Contraction, u: u32) {
        if self.placed == u {
            return;
        }
        if self.placed != NONE {
            for (v, _) in contraction.lower(self.placed) {
                self.place[*v as usize] = NONE;
            }
        }
        if u != NONE {
            for (v, e) in contraction.lower(u) {
                self.place[*v as usize] = *e;
            }
        }
        self.placed = u;
    }

    /// Edge `e`'s waiting entry, made (with its prices in `metric`) if it
    /// was not waiting.
    fn wait(&mut self, metric: &ContractionMetric, e: usize) -> &mut Waiting {
        if !self.is_waiting.put(e) {
            self.slot[e] = self.waiting.len() as u32;
            self.heap.push(Reverse(e as u32));
            self.waiting.push(Waiting {
                full: false,
                best: [
                    (price(metric.up[e]), metric.up_how[e]),
                    (price(metric.down[e]), metric.down_how[e]),
                ],
                reported: [false; 2],
            });
        }
        &mut self.waiting[self.slot[e] as usize]
    }

    /// Edge `e` to be priced from scratch.
    fn flag(&mut self, metric: &ContractionMetric, e: usize) {
        self.wait(metric, e).full = true;
    }

    /// The lower triangle of edge `f` through `middle` changed price from
    /// `sums[d].0` to `sums[d].1` in direction `d` (up, down): `f` waits to
    /// be priced again if that may change it (see the module docs).
    fn report(&mut self, metric: &ContractionMetric, f: usize, middle: u32, sums: [(u64, u64); 2]) {
        let slot = if self.is_waiting.contains(f) {
            self.slot[f]
        } else {
            NONE
        };
        if slot != NONE && self.waiting[slot as usize].full {
            return;
        }
        for (d, (old, new)) in sums.into_iter().enumerate() {
            let (price, how) = if slot != NONE {
                let (p, h) = self.waiting[slot as usize].best[d];
                (p, Ok(h))
            } else {
                (
                    price(if d == 0 { metric.up[f] } else { metric.down[f] }),
                    Err(d),
                )
            };
            let how = || match how {
                Ok(h) => h,
                Err(0) => metric.up_how[f],
                Err(_) => metric.down_how[f],
            };
            match effect(old, new, middle, price, how) {
                Effect::None => {}
                Effect::Full => {
                    // Priced from scratch: its least so far no longer
                    // matters.
                    self.flag(metric, f);
                    return;
                }
                Effect::Lower => {
                    let w = self.wait(metric, f);
                    let replaced = w.reported[d].then_some(w.best[d].1);
                    (w.best[d], w.reported[d]) = ((new, middle), true);
                    if let Some(v) = replaced {
                        self.made_through[v as usize] -= 1;
                    }
                    self.made_through[middle as usize] += 1;
                }
            }
        }
    }

    /// The next edge waiting, lowest first, and how to price it.
    fn next(&mut self) -> Option<(usize, Waiting)> {
        let Reverse(e) = self.heap.pop()?;
        self.is_waiting.set(e as usize, false);
        Some((e as usize, self.waiting[self.slot[e as usize] as usize]))
    }
}

/// What a changed lower triangle does to one direction of an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Effect {
    /// Nothing: the triangle is dearer than the edge's least, or tied but
    /// later, and did not make it up.
    None,
    /// The triangle is the edge's new least (or tied and earlier).
    Lower,
    /// The edge must be priced from scratch: the triangle made up its least
    /// and grew dearer, or its sum overflows.
    Full,
}

/// The effect of the lower triangle through `middle` whose price went from
/// `old` to `new` on an edge direction whose least so far is `price`, made
/// up by `how()`, called only when needed (see the module docs): the edges
/// reported lie scattered over the metric, and reading a make-up is one more
/// cache miss.
fn effect(old: u64, new: u64, middle: u32, price: u64, how: impl Fn() -> u32) -> Effect {
    if old == new {
        Effect::None
    } else if overflows(old, new) {
        Effect::Full
    } else if new < price {
        Effect::Lower
    } else if new == price {
        // Tied (so not what made it up, which is `old`): first of the least
        // when the least is made up by a later middle (an arc comes first).
        let h = how();
        if new != NO_ROUTE && h & ARC == 0 && middle < h {
            Effect::Lower
        } else {
            Effect::None
        }
    } else if old == price && how() == middle {
        Effect::Full
    } else {
        Effect::None
    }
}

/// The price of a path of two stored parts, in the metric's units:
/// `NO_ROUTE` when either is forbidden; a finite sum may be `INF64` or more
/// (it overflows the stored width).
fn through(a: u32, b: u32) -> u64 {
    if a == INF || b == INF {
        NO_ROUTE
    } else {
        u64::from(a) + u64::from(b)
    }
}

/// A triangle with a forbidden part.
const NO_ROUTE: u64 = u64::MAX;

/// Whether a triangle whose price went from `old` to `new` now has a
/// finite sum that overflows the stored width (so pricing would report it).
fn overflows(old: u64, new: u64) -> bool {
    old != new && (INF64..NO_ROUTE).contains(&new)
}

/// A stored cost as a price: `NO_ROUTE` when forbidden.
fn price(stored: u32) -> u64 {
    if stored == INF {
        NO_ROUTE
    } else {
        u64::from(stored)
    }
}

/// A price below `INF64` (or `NO_ROUTE`) as stored.
fn stored(price: u64) -> u32 {
    if price == NO_ROUTE { INF } else { price as u32 }
}

/// Whether a make-up names a middle rank (not an input arc, nor none).
fn is_middle(how: u32) -> bool {
    how != NONE && how & ARC == 0
}

/// Per rank, how many edge directions of `metric` are made up through it.
pub(super) fn made_through(metric: &ContractionMetric, nodes: usize) -> Vec<u32> {
    let mut count = vec![0; nodes];
    for how in metric.up_how.iter().chain(&metric.down_how) {
        if is_middle(*how) {
            count[*how as usize] += 1;
        }
    }
    count
}

impl Contraction {
    /// Brings `metric` up to date after the costs of the arcs in `changed`
    /// became those in `costs` (the whole new cost list); `graph` must be
    /// the graph this contraction was built from (its costs are not read).
    /// Equal to a fresh [`customize`](Self::customize) with `costs`. Returns
    /// the number of edges priced again. When a changed finite cost is not a
    /// multiple of the metric's [`scale`](ContractionMetric::scale), the
    /// metric is customized afresh. On [`ContractionError::CostRange`] the
    /// metric is left part-updated: customize it afresh with smaller costs.
    ///
    /// # Performance
    /// Time in the edges whose least costs can change (see the module
    /// `recustomize`), each priced from its lower triangles: on TheFrozenSea
    /// a cluster's worth of changed arcs prices a fraction of a percent of
    /// the edges at the median.
    pub fn recustomize(
        &self,
        graph: &ArcGraph,
        metric: &mut ContractionMetric,
        costs: &[u64],
        changed: &[u32],
    ) -> Result<usize, ContractionError> {
        self.check_shape(graph)?;
        self.recustomize_own(metric, costs, changed)
    }

    /// [`recustomize`](Self::recustomize) for a caller that keeps the graph
    /// this contraction was built from (`patched::Patchable`): its shape is
    /// not checked again, a hash of every arc's head (on TheFrozenSea some
    /// 0.25 ms a call, as much as pricing what a block closed inside one
    /// cluster changes).
    pub(super) fn recustomize_own(
        &self,
        metric: &mut ContractionMetric,
        costs: &[u64],
        changed: &[u32],
    ) -> Result<usize, ContractionError> {
        self.check_costs(costs)?;
        if let Some(a) = changed.iter().find(|a| **a as usize >= self.arc_slot.len()) {
            return Err(ContractionError::NoSuchArc(*a));
        }
        if changed.iter().any(|a| {
            let c = costs[*a as usize];
            c < FORBIDDEN && !c.is_multiple_of(metric.scale)
        }) {
            *metric = self.customize(costs)?;
            return Ok(self.edges());
        }
        if metric.made_through.len() != self.nodes() {
            metric.made_through = made_through(metric, self.nodes());
        }
        let (priced, fits) = DIRTY.with_borrow_mut(|dirty| {
            dirty.fit(self);
            std::mem::swap(&mut dirty.made_through, &mut metric.made_through);
            for a in changed {
                let slot = self.arc_slot[*a as usize];
                if slot != NONE {
                    dirty.flag(metric, (slot / 2) as usize);
                }
            }
            let (mut priced, mut fits) = (0, true);
            // Every edge waiting is priced, even past an overflow, so that
            // the scratch is left clear.
            while let Some((e, waiting)) = dirty.next() {
                priced += 1;
                let u = self.low_of_edge(e as u32);
                let old = (metric.up[e], metric.down[e]);
                let old_how = [metric.up_how[e], metric.down_how[e]];
                if waiting.full {
                    fits &= self.pull_edge(metric, dirty, costs, u, e);
                } else {
                    // Below INF64 when finite (an overflow prices from
                    // scratch).
                    let [(up, up_how), (down, down_how)] = waiting.best;
                    (metric.up[e], metric.up_how[e]) = (stored(up), up_how);
                    (metric.down[e], metric.down_how[e]) = (stored(down), down_how);
                }
                // The counts of make-ups: a least so far that a report set
                // and the old make-up leave, the new one enters.
                let new_how = [metric.up_how[e], metric.down_how[e]];
                for d in 0..2 {
                    for (v, by) in [
                        (waiting.best[d].1, if waiting.reported[d] { -1 } else { 0 }),
                        (old_how[d], -1),
                        (new_how[d], 1),
                    ] {
                        if is_middle(v) {
                            let n = &mut dirty.made_through[v as usize];
                            *n = n.wrapping_add_signed(by);
                        }
                    }
                }
                if (metric.up[e], metric.down[e]) != old {
                    self.flag_upper_triangles(metric, dirty, u, e, old);
                }
            }
            dirty.place_lower(self, NONE);
            std::mem::swap(&mut dirty.made_through, &mut metric.made_through);
            (priced, fits)
        });
        if !fits {
            return Err(ContractionError::CostRange {
                scale: metric.scale,
            });
        }
        Ok(priced)
    }

    /// Prices edge `e`, whose lower end is `u`, from scratch: its input arcs
    /// and its lower triangles (whose edges must be final), in the order a
    /// customization takes them. Whether every price fits in 32 bits.
    fn pull_edge(
        &self,
        metric: &mut ContractionMetric,
        dirty: &mut Dirty,
        costs: &[u64],
        u: u32,
        e: usize,
    ) -> bool {
        let scale = metric.scale;
        let mut fits = true;
        let (mut up, mut up_how, mut down, mut down_how) = (INF64, NONE, INF64, NONE);
        let (a, b) = (
            self.low_first[u as usize] as usize,
            self.low_first[u as usize + 1] as usize,
        );
        for arc in &self.low_arcs[a..b] {
            let slot = self.arc_slot[*arc as usize];
            let cost = costs[*arc as usize];
            if (slot / 2) as usize != e || cost >= FORBIDDEN {
                continue;
            }
            let cost = cost / scale;
            if cost >= INF64 {
                fits = false;
            } else if slot & 1 == 0 {
                if cost < up {
                    (up, up_how) = (cost, ARC | arc);
                }
            } else if cost < down {
                (down, down_how) = (cost, ARC | arc);
            }
        }
        // The middles common to both ends' lower neighbours, ascending: `w`'s
        // below `u` walked and each looked up in `u`'s, scattered (see
        // `Dirty::place`), or, when `u` has far fewer, `u`'s walked and each
        // found in `w`'s by binary search.
        let w = self.up_to[e];
        let lower_u = self.lower(u);
        let lower_w = self.lower(w);
        let lower_w = &lower_w[..lower_w.partition_point(|(v, _)| *v < u)];
        let scatter = lower_w.len() <= 4 * lower_u.len();
        if scatter {
            dirty.place_lower(self, u);
        }
        let (walked, searched) = if scatter {
            (lower_w, lower_u)
        } else {
            (lower_u, lower_w)
        };
        for &(v, e_walked) in walked {
            let e_other = if scatter {
                dirty.place[v as usize]
            } else {
                match searched.binary_search_by_key(&v, |(v, _)| *v) {
                    Ok(k) => searched[k].1,
                    Err(_) => NONE,
                }
            };
            if e_other == NONE {
                continue;
            }
            let (e_vu, e_vw) = if scatter {
                (e_other as usize, e_walked as usize)
            } else {
                (e_walked as usize, e_other as usize)
            };
            // u -> v -> w and w -> v -> u.
            let forth = through(metric.down[e_vu], metric.up[e_vw]);
            let back = through(metric.down[e_vw], metric.up[e_vu]);
            for (sum, best, how) in [
                (forth, &mut up, &mut up_how),
                (back, &mut down, &mut down_how),
            ] {
                if sum == NO_ROUTE {
                    continue;
                }
                if sum >= INF64 {
                    fits = false;
                } else if sum < *best {
                    (*best, *how) = (sum, v);
                }
            }
        }
        // Below INF64 when set, so they fit.
        (metric.up[e], metric.up_how[e]) = (up as u32, up_how);
        (metric.down[e], metric.down_how[e]) = (down as u32, down_how);
        fits
    }

    /// Flags the edges that `e = {u, w}` (priced again, its prices before
    /// `old`) may change: for every other upward edge `g = {u, x}` of `u`,
    /// the edge between `w` and `x`, if the triangle through `u` may change
    /// it (see the module docs).
    fn flag_upper_triangles(
        &self,
        metric: &ContractionMetric,
        dirty: &mut Dirty,
        u: u32,
        e: usize,
        old: (u32, u32),
    ) {
        let w = self.up_to[e];
        let new = (metric.up[e], metric.down[e]);
        // Dearer both ways (a forbidden edge is the dearest), `e` makes
        // every triangle through `u` dearer or leaves it: such a triangle
        // changes an edge only if it made that edge up, through `u`, or if
        // its sum overflows (see the module docs).
        let quiet = new.0 >= old.0 && new.1 >= old.1 && dirty.made_through[u as usize] == 0;
        // The edge between `w` and each `x`, found in `w`'s own lists, which
        // hold every `x` (the upward neighbours of `u` form a clique) in the
        // same ascending order: those below `w` in its lower neighbours by a
        // galloping search on from the last found, those above by a merge
        // with its upward neighbours. (Binary searches in each `x`'s lists,
        // scattered over memory, took 1.2-1.4x as long on TheFrozenSea.)
        let lower_w = self.lower(w);
        let mut below = lower_w.partition_point(|(v, _)| *v <= u);
        let mut above = self.up_range(w).start;
        for g in self.up_range(u) {
            if g == e {
                continue;
            }
            let x = self.up_to[g];
            let (u_to_x, x_to_u) = (metric.up[g], metric.down[g]);
            // w -> u -> x and x -> u -> w, before and now.
            let w_x = (through(old.1, u_to_x), through(new.1, u_to_x));
            let x_w = (through(x_to_u, old.0), through(x_to_u, new.0));
            if w_x.0 == w_x.1 && x_w.0 == x_w.1 {
                continue;
            }
            if quiet && !overflows(w_x.0, w_x.1) && !overflows(x_w.0, x_w.1) {
                continue;
            }
            let (f_up, f_down) = if w < x { (w_x, x_w) } else { (x_w, w_x) };
            let f = if x < w {
                let mut step = 1;
                while below + step < lower_w.len() && lower_w[below + step].0 <= x {
                    step *= 2;
                }
                let end = (below + step + 1).min(lower_w.len());
                below += lower_w[below..end].partition_point(|(v, _)| *v < x);
                debug_assert_eq!(lower_w[below].0, x, "a clique");
                lower_w[below].1 as usize
            } else {
                while self.up_to[above] < x {
                    above += 1;
                }
                debug_assert_eq!(self.up_to[above], x, "a clique");
                above
            };
            dirty.report(metric, f, u, [f_up, f_down]);
        }
    }

    /// The downward neighbours of rank `u`, ascending, with the edge to each.
    fn lower(&self, u: u32) -> &[(u32, u32)] {
        &self.down[self.down_first[u as usize] as usize..self.down_first[u as usize + 1] as usize]
    }
}
