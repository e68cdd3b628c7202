//! A query graph as a hierarchy file stores it ([`StoredQueryGraph`]: plain
//! arrays in the widths the graph keeps them), and the checks that make a
//! stored one as safe to query as one just built.
//!
//! # What loading checks
//! A file's checksum catches damage, not intent, so a stored graph is
//! checked against the cluster graph it claims to contract and the costs of
//! its band of unit sizes ([`QueryGraph::from_stored`]), in time about
//! linear in its size:
//!
//! - **Shape.** Ranks are a permutation of the nodes; each direction's
//!   offsets run from 0 to its edge count; each rank's edges lead to higher
//!   ranks, ascending; the widths are those a build of this many nodes
//!   uses; the unpack-only directions are sorted.
//! - **The sweep's premise.** With an elimination tree (`parent`), every
//!   parent ranks above its child and every edge leads to an ancestor of its
//!   lower end, so the ancestors walked up from the ends hold every rank a
//!   search reaches.
//! - **Make-ups.** A direct direction names an allowed input arc from its
//!   tail to its head; a middle ranks below both ends and its two halves are
//!   stored (searchable or unpack-only). So a route unpacks into a chain of
//!   cluster-graph edges, each leg into lower-ranked ones (the unpacking
//!   ends).
//! - **Costs.** Every direction's cost is worked out from its make-up,
//!   bottom up (an arc's cost, or the sum of the halves'): a searchable
//!   direction must store exactly that, so the cost a search adds up is the
//!   cost of the route it unpacks. The costliest upward chain must stay far
//!   below `u64::MAX` in the metric's unit, so no search sum overflows.
//!
//! What is not checked is that each stored cost is the *least* between its
//! ends (the graph's completeness): that would take a customization, the
//! work loading saves. A forged graph that passes gives legal routes of the
//! costs it reports, possibly dearer than the least.

use super::customize::{FORBIDDEN, INF64};
use super::pruned::direct_offset;
use super::pruned::{DIRECT, Keys, Makeups, QueryGraph, QuerySearch, Ranks, Side, UnpackOnly};
use super::pruned_query::direct_arc;
use super::{ArcGraph, NONE};

/// Integers as a query graph keeps them: 16, 32 or 64 bits wide.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StoredInts {
    /// 16 bits.
    U16(Vec<u16>),
    /// 32 bits.
    U32(Vec<u32>),
    /// 64 bits.
    U64(Vec<u64>),
}

impl StoredInts {
    /// Number of integers.
    pub(crate) fn len(&self) -> usize {
        match self {
            StoredInts::U16(v) => v.len(),
            StoredInts::U32(v) => v.len(),
            StoredInts::U64(v) => v.len(),
        }
    }

    /// Bytes per integer.
    fn width(&self) -> usize {
        match self {
            StoredInts::U16(_) => 2,
            StoredInts::U32(_) => 4,
            StoredInts::U64(_) => 8,
        }
    }
}

/// One search direction of a stored query graph: per rank, its edges to
/// higher ranks (`to[first[u]..first[u + 1]]`), their costs and make-ups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredSide {
    pub(crate) first: Vec<u32>,
    pub(crate) to: StoredInts,
    pub(crate) cost: Vec<u32>,
    pub(crate) how: StoredInts,
}

/// A [`QueryGraph`] as a hierarchy file stores it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredQueryGraph {
    pub(crate) scale: u64,
    /// [`QuerySearch`] as `0` Sweep, `1` BitsetSweep, `2` Dijkstra, `3`
    /// TreeSweep.
    pub(crate) search: u8,
    pub(crate) input_arcs: u64,
    pub(crate) rank: StoredInts,
    pub(crate) node_of: StoredInts,
    /// Empty when the graph has no elimination tree.
    pub(crate) parent: StoredInts,
    pub(crate) fwd: StoredSide,
    /// `None` when the metric is symmetric (`fwd` serves both ways).
    pub(crate) bwd: Option<StoredSide>,
    pub(crate) extra_keys: StoredInts,
    pub(crate) extra_how: StoredInts,
}

fn ranks_to_stored(r: &Ranks) -> StoredInts {
    match r {
        Ranks::Narrow(v) => StoredInts::U16(v.clone()),
        Ranks::Wide(v) => StoredInts::U32(v.clone()),
    }
}

fn makeups_to_stored(m: &Makeups) -> StoredInts {
    match m {
        Makeups::Narrow(v) => StoredInts::U16(v.clone()),
        Makeups::Wide(v) => StoredInts::U32(v.clone()),
    }
}

fn side_to_stored(s: &Side) -> StoredSide {
    StoredSide {
        first: s.first.clone(),
        to: ranks_to_stored(&s.to),
        cost: s.cost.clone(),
        how: makeups_to_stored(&s.how),
    }
}

/// Whether a stored list has the width a graph of `nodes` nodes keeps it
/// in (`narrow` bytes up to `narrow_up_to` nodes, else `wide`), or is empty
/// (an empty list's width says nothing).
fn width_fits(
    ints: &StoredInts,
    nodes: usize,
    narrow_up_to: usize,
    (narrow, wide): (usize, usize),
) -> bool {
    let want = if nodes <= narrow_up_to { narrow } else { wide };
    ints.len() == 0 || ints.width() == want
}

fn ranks_from_stored(ints: StoredInts, nodes: usize, what: &str) -> Result<Ranks, String> {
    if !width_fits(&ints, nodes, 1 << 16, (2, 4)) {
        return Err(format!("{what}: the wrong width for {nodes} nodes"));
    }
    let ranks = match ints {
        StoredInts::U16(v) => Ranks::Narrow(v),
        StoredInts::U32(v) => Ranks::Wide(v),
        StoredInts::U64(_) => return Err(format!("{what}: 64-bit ranks")),
    };
    if (0..ranks.len()).any(|i| ranks.get(i) as usize >= nodes) {
        return Err(format!("{what}: a rank out of range"));
    }
    Ok(ranks)
}

fn makeups_from_stored(ints: StoredInts, nodes: usize, what: &str) -> Result<Makeups, String> {
    if !width_fits(&ints, nodes, 1 << 15, (2, 4)) {
        return Err(format!("{what}: the wrong width for {nodes} nodes"));
    }
    match ints {
        StoredInts::U16(v) => Ok(Makeups::Narrow(v)),
        StoredInts::U32(v) => Ok(Makeups::Wide(v)),
        StoredInts::U64(_) => Err(format!("{what}: 64-bit make-ups")),
    }
}

fn side_from_stored(s: StoredSide, nodes: usize, what: &str) -> Result<Side, String> {
    let edges = s.cost.len();
    if s.first.len() != nodes + 1
        || s.first[0] != 0
        || s.first[nodes] as usize != edges
        || s.first.windows(2).any(|w| w[0] > w[1])
    {
        return Err(format!("{what}: malformed edge offsets"));
    }
    if s.to.len() != edges || s.how.len() != edges {
        return Err(format!("{what}: edge lists of unequal lengths"));
    }
    let side = Side {
        first: s.first,
        to: ranks_from_stored(s.to, nodes, what)?,
        cost: s.cost,
        how: makeups_from_stored(s.how, nodes, what)?,
    };
    for u in 0..nodes as u32 {
        let mut last = u;
        for pos in side.range(u) {
            let w = side.to.get(pos);
            if w <= last {
                return Err(format!(
                    "{what}: rank {u}'s edges do not lead upward in ascending order"
                ));
            }
            last = w;
        }
    }
    Ok(side)
}

impl QueryGraph {
    /// The graph as a file stores it.
    pub(crate) fn to_stored(&self) -> StoredQueryGraph {
        StoredQueryGraph {
            scale: self.scale,
            search: match self.search {
                QuerySearch::Sweep => 0,
                QuerySearch::BitsetSweep => 1,
                QuerySearch::Dijkstra => 2,
                QuerySearch::TreeSweep => 3,
            },
            input_arcs: self.input_arcs as u64,
            rank: ranks_to_stored(&self.rank),
            node_of: ranks_to_stored(&self.node_of),
            parent: ranks_to_stored(&self.parent),
            fwd: side_to_stored(&self.fwd),
            bwd: self.bwd.as_ref().map(side_to_stored),
            extra_keys: match &self.extra.keys {
                Keys::Narrow(k) => StoredInts::U32(k.clone()),
                Keys::Wide(k) => StoredInts::U64(k.clone()),
            },
            extra_how: makeups_to_stored(&self.extra.how),
        }
    }

    /// A stored graph, checked (see the module docs) against `graph`, the
    /// cluster graph it contracts, under `cost` (arc -> cost, [`FORBIDDEN`]
    /// or more when the band does not allow the arc): an error naming the
    /// first inconsistency.
    pub(crate) fn from_stored(
        s: StoredQueryGraph,
        graph: &ArcGraph,
        cost: impl Fn(u32) -> u64,
    ) -> Result<QueryGraph, String> {
        let n = graph.nodes();
        let search = match s.search {
            0 => QuerySearch::Sweep,
            1 => QuerySearch::BitsetSweep,
            2 => QuerySearch::Dijkstra,
            3 => QuerySearch::TreeSweep,
            k => return Err(format!("unknown search {k}")),
        };
        if s.scale == 0 || s.scale > FORBIDDEN / INF64 {
            return Err(format!("cost unit {} is out of range", s.scale));
        }
        if s.input_arcs != graph.arcs() as u64 {
            return Err(format!(
                "made for {} arcs, the cluster graph has {}",
                s.input_arcs,
                graph.arcs()
            ));
        }
        if s.rank.len() != n || s.node_of.len() != n {
            return Err(format!("ranks for another node count than {n}"));
        }
        let (rank, node_of) = (
            ranks_from_stored(s.rank, n, "ranks")?,
            ranks_from_stored(s.node_of, n, "nodes by rank")?,
        );
        if (0..n).any(|v| node_of.get(rank.get(v) as usize) as usize != v) {
            return Err("the ranks are not a permutation of the nodes".into());
        }
        if s.parent.len() != 0 && s.parent.len() != n {
            return Err("an elimination tree of another node count".into());
        }
        let parent = ranks_from_stored(s.parent, n, "elimination tree")?;
        if (0..parent.len()).any(|u| (parent.get(u) as usize) < u) {
            return Err("a parent in the elimination tree ranks below its child".into());
        }
        let fwd = side_from_stored(s.fwd, n, "forward edges")?;
        let bwd = s
            .bwd
            .map(|b| side_from_stored(b, n, "backward edges"))
            .transpose()?;
        let extra = UnpackOnly {
            how: makeups_from_stored(s.extra_how, n, "unpack-only make-ups")?,
            keys: match s.extra_keys {
                k if !width_fits(&k, n, 1 << 15, (4, 8)) => {
                    return Err(format!(
                        "unpack-only directions: the wrong width for {n} nodes"
                    ));
                }
                StoredInts::U32(k) => Keys::Narrow(k),
                StoredInts::U64(k) => Keys::Wide(k),
                StoredInts::U16(_) => return Err("unpack-only directions: 16-bit keys".into()),
            },
        };
        let qg = QueryGraph {
            scale: s.scale,
            rank,
            node_of,
            fwd,
            bwd,
            extra,
            input_arcs: graph.arcs(),
            search,
            parent,
        };
        qg.check_extra(n)?;
        qg.check_ancestors()?;
        qg.check_makeups(graph, &cost)?;
        Ok(qg)
    }

    /// The unpack-only directions: as many make-ups as keys, strictly
    /// ascending, each within the ranks and leading upward.
    fn check_extra(&self, n: usize) -> Result<(), String> {
        let len = self.extra.len();
        if self.extra.how.len() != len {
            return Err("unpack-only directions and make-ups of unequal lengths".into());
        }
        if !self.extra.is_strictly_ascending() {
            return Err("unpack-only directions are not sorted".into());
        }
        for i in 0..len {
            let (low, high, downward) = self.extra.key(i);
            if low >= high || high as usize >= n {
                let arrow = if downward { "<-" } else { "->" };
                return Err(format!(
                    "unpack-only direction {low} {arrow} {high} is malformed"
                ));
            }
        }
        Ok(())
    }

    /// With an elimination tree, every edge leads to an ancestor of its
    /// lower end (the tree sweep enters only ancestors).
    fn check_ancestors(&self) -> Result<(), String> {
        let n = self.parent.len();
        if n == 0 {
            return Ok(());
        }
        // Preorder intervals: `w` is an ancestor of `u` when u's entry time
        // lies within w's interval. Children are listed under parents (each
        // above its children), so one pass from the top assigns them.
        let mut child_count = vec![0u32; n + 1];
        for u in 0..n {
            let p = self.parent.get(u) as usize;
            if p != u {
                child_count[p + 1] += 1;
            }
        }
        for i in 0..n {
            child_count[i + 1] += child_count[i];
        }
        let mut fill = child_count.clone();
        let mut children = vec![0u32; n];
        for u in 0..n {
            let p = self.parent.get(u) as usize;
            if p != u {
                children[fill[p] as usize] = u as u32;
                fill[p] += 1;
            }
        }
        let (mut enter, mut size) = (vec![NONE; n], vec![1u32; n]);
        // Children rank below their parents: sizes are final bottom up.
        for u in 0..n {
            let p = self.parent.get(u) as usize;
            if p != u {
                size[p] += size[u];
            }
        }
        let mut next = 0u32;
        let mut stack = Vec::new();
        for root in (0..n).rev().filter(|u| self.parent.get(*u) as usize == *u) {
            stack.push(root as u32);
            while let Some(u) = stack.pop() {
                enter[u as usize] = next;
                next += 1;
                let (a, b) = (
                    child_count[u as usize] as usize,
                    child_count[u as usize + 1] as usize,
                );
                stack.extend_from_slice(&children[a..b]);
            }
        }
        debug_assert!(enter.iter().all(|e| *e != NONE), "every rank in a tree");
        let is_ancestor = |w: usize, u: usize| (enter[w]..enter[w] + size[w]).contains(&enter[u]);
        for side in std::iter::once(&self.fwd).chain(&self.bwd) {
            for u in 0..n as u32 {
                for pos in side.range(u) {
                    if !is_ancestor(side.to.get(pos) as usize, u as usize) {
                        return Err(format!("an edge from rank {u} leads outside its ancestors"));
                    }
                }
            }
        }
        Ok(())
    }

    /// Every direction's make-up, and its cost from it; see the module docs.
    /// Direct ones first, then the others by middle, ascending: a middle's
    /// halves are directions of the middle's own, whose costs are known by
    /// then (direct, or resolved at a lower middle), and are found through
    /// its lists scattered by higher end (no search per half).
    fn check_makeups(&self, graph: &ArcGraph, cost: &impl Fn(u32) -> u64) -> Result<(), String> {
        const UNSET: u64 = u64::MAX;
        let (n, scale) = (self.nodes(), self.scale);
        // Directions of three kinds: forward (by position in `fwd`),
        // downward (by position in `side(1)`), unpack-only (by index).
        let sides = [&self.fwd, self.side(1)];
        let mut worked: [Vec<u64>; 3] = [
            vec![UNSET; sides[0].cost.len()],
            vec![UNSET; sides[1].cost.len()],
            vec![UNSET; self.extra.len()],
        ];
        // The directions made of halves: (middle, kind, index, lower end,
        // higher end).
        let mut halved: Vec<(u32, u8, u32, u32, u32)> = Vec::new();
        let mut take = |kind: u8, i: usize, (low, high, d): (u32, u32, bool), how: u32| {
            if how & DIRECT == 0 {
                if how >= low {
                    return Err(format!(
                        "the middle of {low} - {high} does not rank below both"
                    ));
                }
                halved.push((how, kind, i as u32, low, high));
                return Ok(());
            }
            let (tail, head) = if d { (high, low) } else { (low, high) };
            let (tail, head) = (
                self.node_of.get(tail as usize),
                self.node_of.get(head as usize),
            );
            let arc = direct_arc(graph, cost, tail, head, direct_offset(how, d))
                .ok_or_else(|| format!("no arc from node {tail} to node {head}"))?;
            let c = cost(arc);
            if !c.is_multiple_of(scale) {
                return Err(format!("arc {arc}'s cost is not a multiple of the unit"));
            }
            worked[kind as usize][i] = c / scale;
            Ok(())
        };
        for (kind, side) in sides.iter().enumerate() {
            for u in 0..n as u32 {
                for pos in side.range(u) {
                    take(
                        kind as u8,
                        pos,
                        (u, side.to.get(pos), kind == 1),
                        side.how.get(pos),
                    )?;
                }
            }
        }
        for i in 0..self.extra.len() {
            take(2, i, self.extra.key(i), self.extra.how.get(i))?;
        }
        // Bucketed by middle (a counting sort).
        let mut first = vec![0u32; n + 1];
        halved.iter().for_each(|h| first[h.0 as usize + 1] += 1);
        for v in 0..n {
            first[v + 1] += first[v];
        }
        let mut fill = first.clone();
        let mut by_middle = vec![(0u8, 0u32, 0u32, 0u32); halved.len()];
        for &(v, kind, i, low, high) in &halved {
            by_middle[fill[v as usize] as usize] = (kind, i, low, high);
            fill[v as usize] += 1;
        }
        drop(halved);
        // Per higher end, where the middle's direction to it is: (middle + 1,
        // kind, index), upward then downward.
        let mut at = [vec![(0u32, 0u8, 0u32); n], vec![(0u32, 0u8, 0u32); n]];
        let mut next_extra = 0;
        for v in 0..n as u32 {
            let stamp = v + 1;
            // Unpack-only first, so a searchable direction wins as in
            // `QueryGraph::how`.
            while next_extra < self.extra.len() && self.extra.key(next_extra).0 == v {
                let (_, high, d) = self.extra.key(next_extra);
                at[usize::from(d)][high as usize] = (stamp, 2, next_extra as u32);
                next_extra += 1;
            }
            for (kind, side) in sides.iter().enumerate() {
                for pos in side.range(v) {
                    at[kind][side.to.get(pos) as usize] = (stamp, kind as u8, pos as u32);
                }
            }
            let bucket = first[v as usize] as usize..first[v as usize + 1] as usize;
            for &(kind, i, low, high) in &by_middle[bucket] {
                let d = match kind {
                    0 => false,
                    1 => true,
                    _ => self.extra.key(i as usize).2,
                };
                // low -> v -> high (downward: high -> v -> low).
                let halves = if d {
                    [(high, true), (low, false)]
                } else {
                    [(low, true), (high, false)]
                };
                let mut sum = 0u64;
                for (x, hd) in halves {
                    let (s, k, j) = at[usize::from(hd)][x as usize];
                    if s != stamp {
                        return Err(format!("a half of {low} - {high} through {v} is missing"));
                    }
                    let c = worked[k as usize][j as usize];
                    debug_assert_ne!(c, UNSET, "a half is worked out before its whole");
                    sum = sum.saturating_add(c);
                }
                worked[kind as usize][i as usize] = sum;
            }
        }
        for (d, side) in sides.iter().enumerate() {
            let worked = &worked[d];
            if let Some(pos) = (0..side.cost.len()).find(|p| u64::from(side.cost[*p]) != worked[*p])
            {
                return Err(format!(
                    "edge {pos} costs {} but its make-up {}",
                    side.cost[pos], worked[pos]
                ));
            }
        }
        // The costliest upward chain of each direction, so that no sum a
        // search forms (initial distance plus a chain) overflows.
        for d in 0..2 {
            let side = self.side(d);
            let mut chain = vec![0u64; n];
            let mut worst = 0u64;
            for u in 0..n as u32 {
                let here = chain[u as usize];
                worst = worst.max(here);
                for pos in side.range(u) {
                    let w = side.to.get(pos) as usize;
                    let c = here.saturating_add(u64::from(side.cost[pos]).saturating_mul(scale));
                    chain[w] = chain[w].max(c);
                }
            }
            if worst > u64::MAX / 4 {
                return Err("an upward chain's cost overflows".into());
            }
        }
        Ok(())
    }
}
