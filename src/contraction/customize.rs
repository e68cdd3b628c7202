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
//!
//! Because a node is recomputed from scratch, re-customizing after some arc
//! costs change (up or down) is the same pull run on the nodes whose edges
//! can change: the lower ends of the changed arcs, then, whenever a node's
//! costs actually changed, its upward neighbours (the only nodes whose
//! triangles use its edges), in rank order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{ArcGraph, Contraction, ContractionError, NONE};

/// The cost of a forbidden arc (or of no route): an arc at this cost (or
/// more) is never used.
pub const FORBIDDEN: u64 = u64::MAX / 4;

/// Marks a `how` value as an input arc rather than a middle node.
const ARC: u32 = 1 << 31;

/// One metric on a [`Contraction`]: the exact cost of every supergraph edge in
/// both directions, and how each is made up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractionMetric {
    /// Cost of `u -> w` for edge `{u, w}`, `u < w`.
    pub(super) up: Vec<u64>,
    /// Cost of `w -> u`.
    pub(super) down: Vec<u64>,
    /// How `up` is made: `ARC | arc` for an input arc, a middle rank for a
    /// shortcut, `NONE` when forbidden.
    pub(super) up_how: Vec<u32>,
    /// How `down` is made.
    pub(super) down_how: Vec<u32>,
}

impl ContractionMetric {
    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        8 * (self.up.len() + self.down.len()) + 4 * (self.up_how.len() + self.down_how.len())
    }

    /// Whether `how` names an input arc, and which.
    #[inline]
    pub(super) fn arc_of(how: u32) -> Option<u32> {
        (how != NONE && how & ARC != 0).then_some(how & !ARC)
    }
}

/// Scratch of a partial re-customization, kept by the caller.
#[derive(Debug, Clone, Default)]
pub(super) struct Dirty {
    mark: Vec<bool>,
    heap: BinaryHeap<Reverse<u32>>,
    old: Vec<(u64, u64)>,
}

impl Contraction {
    /// The costs of every edge under `costs` (one per input arc, in the
    /// graph's arc order; [`FORBIDDEN`] or more forbids an arc).
    pub fn customize(&self, costs: &[u64]) -> Result<ContractionMetric, ContractionError> {
        self.check_costs(costs)?;
        let m = self.edges();
        let mut metric = ContractionMetric {
            up: vec![FORBIDDEN; m],
            down: vec![FORBIDDEN; m],
            up_how: vec![NONE; m],
            down_how: vec![NONE; m],
        };
        for u in 0..self.nodes() as u32 {
            self.pull(&mut metric, costs, u);
        }
        Ok(metric)
    }

    /// Brings `metric` up to date after the costs of the arcs in `changed`
    /// became those in `costs` (the whole new cost list); `graph` must be
    /// the graph this contraction was built from (its costs are not read).
    /// Equal to a fresh [`customize`](Self::customize) with `costs`. Returns
    /// the number of nodes recomputed.
    pub fn recustomize(
        &self,
        graph: &ArcGraph,
        metric: &mut ContractionMetric,
        costs: &[u64],
        changed: &[u32],
    ) -> Result<usize, ContractionError> {
        self.check_shape(graph)?;
        self.check_costs(costs)?;
        if let Some(a) = changed.iter().find(|a| **a as usize >= self.arc_slot.len()) {
            return Err(ContractionError::NoSuchArc(*a));
        }
        let mut dirty = Dirty::default();
        dirty.mark.resize(self.nodes(), false);
        let push = |dirty: &mut Dirty, u: u32| {
            if !dirty.mark[u as usize] {
                dirty.mark[u as usize] = true;
                dirty.heap.push(Reverse(u));
            }
        };
        for a in changed {
            let slot = self.arc_slot[*a as usize];
            if slot == NONE {
                continue;
            }
            push(&mut dirty, self.low_of_edge(slot / 2));
        }
        let mut recomputed = 0;
        while let Some(Reverse(u)) = dirty.heap.pop() {
            recomputed += 1;
            let range = self.up_range(u);
            dirty.old.clear();
            dirty
                .old
                .extend(range.clone().map(|e| (metric.up[e], metric.down[e])));
            self.pull(metric, costs, u);
            let changed = range
                .clone()
                .zip(&dirty.old)
                .any(|(e, old)| (metric.up[e], metric.down[e]) != *old);
            if changed {
                for e in range {
                    push(&mut dirty, self.up_to[e]);
                }
            }
        }
        Ok(recomputed)
    }

    fn check_costs(&self, costs: &[u64]) -> Result<(), ContractionError> {
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
    /// lower triangles (whose costs must be final).
    fn pull(&self, metric: &mut ContractionMetric, costs: &[u64], u: u32) {
        let range = self.up_range(u);
        for e in range.clone() {
            metric.up[e] = FORBIDDEN;
            metric.down[e] = FORBIDDEN;
            metric.up_how[e] = NONE;
            metric.down_how[e] = NONE;
        }
        let (a, b) = (
            self.low_first[u as usize] as usize,
            self.low_first[u as usize + 1] as usize,
        );
        for arc in &self.low_arcs[a..b] {
            let cost = costs[*arc as usize];
            let slot = self.arc_slot[*arc as usize];
            let e = (slot / 2) as usize;
            let (best, how) = if slot & 1 == 0 {
                (&mut metric.up[e], &mut metric.up_how[e])
            } else {
                (&mut metric.down[e], &mut metric.down_how[e])
            };
            if cost < *best {
                *best = cost;
                *how = ARC | arc;
            }
        }
        let (a, b) = (
            self.down_first[u as usize] as usize,
            self.down_first[u as usize + 1] as usize,
        );
        let up_u = &self.up_to[range.clone()];
        for &(v, e_vu) in &self.down[a..b] {
            let (v_to_u, u_to_v) = (metric.up[e_vu as usize], metric.down[e_vu as usize]);
            if v_to_u >= FORBIDDEN && u_to_v >= FORBIDDEN {
                continue;
            }
            // v's upward neighbours above u, all of which are u's too.
            let end = self.up_first[v as usize + 1] as usize;
            let mut k = 0;
            for e_vw in e_vu as usize + 1..end {
                let w = self.up_to[e_vw];
                while up_u[k] != w {
                    k += 1;
                }
                let e_uw = range.start + k;
                let through = u_to_v.saturating_add(metric.up[e_vw]);
                if through < metric.up[e_uw] {
                    metric.up[e_uw] = through;
                    metric.up_how[e_uw] = v;
                }
                let back = metric.down[e_vw].saturating_add(v_to_u);
                if back < metric.down[e_uw] {
                    metric.down[e_uw] = back;
                    metric.down_how[e_uw] = v;
                }
            }
        }
    }
}
