//! Partial re-customization: a metric brought up to date after a few arc
//! costs change, edge by edge.
//!
//! A customization prices each supergraph edge `{u, w}` (`u < w`) as the
//! least of its input arcs and its *lower triangles* `u - v - w`, `v < u`,
//! the first of the least in that order (arcs in `low_arcs` order, then the
//! middles ascending) making it up. After an edit, only the edges that can
//! change are priced again, lowest lower end first, each from scratch
//! ([`Contraction::pull_edge`]):
//!
//! - the edges that carry a changed arc;
//! - an edge `f` one of whose lower triangles changed price, if the new
//!   price is at most `f`'s (it may lower `f`, or, tied, be the first of
//!   the least), or the old price was `f`'s and the triangle's middle is
//!   what made `f` up (it was the first of the least; a tied triangle that
//!   did not make `f` up comes after what did, which stays). A lower
//!   triangle of `f = {w, x}` through `u` is made of the edges `e = {u, w}`
//!   and `g = {u, x}`, so when `e` is priced again and changed, `f` is
//!   checked for every other upward edge `g` of `u`: `e`'s *upper
//!   triangles*.
//!
//! Why that is exact. Edges are priced in the order of their lower ends, so
//! when `e` is priced the edges of its lower triangles are final, and `f`
//! (whose lower end is `w` or `x`, both above `u`) still has its old price
//! and make-up. Of `e` and `g`, the first whose part of a triangle changes
//! sees the triangle's old price; the last sees its final price. So an `f`
//! never checked has no changed arc, and every changed triangle was, before
//! and after, dearer than `f` or (before) tied with it behind what made it
//! up: its least, and the first making it up, are as before. An
//! overflowing triangle (a sum of two finite prices at 32 bits or more) is
//! always checked, so that pricing `f` reports it as a customization would.
//!
//! The node-by-node way (every upward edge of a node priced again whenever
//! one of its lower neighbours' edges changed) read every lower triangle of
//! the top separators' nodes after most edits (thousands each); edge by
//! edge, an edit prices the edges whose least costs it changes (on
//! TheFrozenSea about 1,500 of 807,000 for a 10x10 block, 96% of them
//! changed) and a few more.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    flagged: Vec<bool>,
    heap: BinaryHeap<Reverse<u32>>,
    /// Per rank, the edge to it from [`placed`](Self::placed) when it is a
    /// lower neighbour of that rank, else `NONE`.
    place: Vec<u32>,
    /// The rank whose lower neighbours are in `place`, or `NONE`.
    placed: u32,
}

impl Dirty {
    /// Readies the scratch for `contraction`.
    fn fit(&mut self, contraction: &Contraction) {
        if self.flagged.len() < contraction.edges() {
            self.flagged.resize(contraction.edges(), false);
        }
        if self.place.len() < contraction.nodes() {
            self.place.resize(contraction.nodes(), NONE);
        }
        self.placed = NONE;
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

    fn flag(&mut self, e: usize) {
        if !self.flagged[e] {
            self.flagged[e] = true;
            self.heap.push(Reverse(e as u32));
        }
    }

    fn next(&mut self) -> Option<usize> {
        let Reverse(e) = self.heap.pop()?;
        self.flagged[e as usize] = false;
        Some(e as usize)
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

/// Whether the lower triangle through `middle` whose price went from `old`
/// to `new` may change the edge direction it prices, now at `current` and
/// made up by `how()`, which is called only when needed (see the module
/// docs): the edges checked lie scattered over the metric, and reading a
/// make-up is one more cache miss.
fn may_change(old: u64, new: u64, middle: u32, current: u32, how: impl Fn() -> u32) -> bool {
    let current = if current == INF {
        NO_ROUTE
    } else {
        u64::from(current)
    };
    old != new
        && (new <= current
            || (INF64..NO_ROUTE).contains(&new)
            || (old == current && how() == middle))
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
        let (priced, fits) = DIRTY.with_borrow_mut(|dirty| {
            dirty.fit(self);
            for a in changed {
                let slot = self.arc_slot[*a as usize];
                if slot != NONE {
                    dirty.flag((slot / 2) as usize);
                }
            }
            let (mut priced, mut fits) = (0, true);
            // Every flagged edge is priced, even past an overflow, so that
            // the scratch is left clear.
            while let Some(e) = dirty.next() {
                priced += 1;
                let u = self.low_of_edge(e as u32);
                let old = (metric.up[e], metric.down[e]);
                fits &= self.pull_edge(metric, dirty, costs, u, e);
                if (metric.up[e], metric.down[e]) != old {
                    self.flag_upper_triangles(metric, dirty, u, e, old);
                }
            }
            dirty.place_lower(self, NONE);
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
            if may_change(f_up.0, f_up.1, u, metric.up[f], || metric.up_how[f])
                || may_change(f_down.0, f_down.1, u, metric.down[f], || metric.down_how[f])
            {
                dirty.flag(f);
            }
        }
    }

    /// The downward neighbours of rank `u`, ascending, with the edge to each.
    fn lower(&self, u: u32) -> &[(u32, u32)] {
        &self.down[self.down_first[u as usize] as usize..self.down_first[u as usize + 1] as usize]
    }
}
