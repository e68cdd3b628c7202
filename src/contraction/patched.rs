//! A customizable contraction kept through edits of its graph: the nodes
//! an edit adds are searched beside the contraction, those it removes are
//! forbidden in it.
//!
//! The graph's nodes come in *groups* (a hierarchy's clusters: each
//! cluster's transitions are consecutive node ids). An edit lays some groups
//! out again: their nodes may appear, go or move, and their arcs change; the
//! other groups keep their nodes (their ids shifted by a constant per group)
//! and their out-arcs, in the same order. [`Patchable`] keeps the
//! contraction of the graph as it was ("the base") and, after an edit:
//!
//! 1. matches each node of an edited group with the base node of the
//!    group at the same *place* (a transition's cell). A node keeps its
//!    match (*stands for* that base node, and is *clean*) unless it has an
//!    arc to another clean node that the base lacks; the others form the
//!    patch. Every base arc of an edited group between the base nodes two
//!    clean nodes stand for takes the cost of the arc between those nodes
//!    as the graph now is; the others (an end no node stands for, or an arc
//!    the graph lost) are forbidden. A re-customization (the shape is the
//!    base's) so makes the contraction's least costs those of the clean
//!    nodes alone;
//! 2. lists the *patch* of the graph as it is now: the nodes standing for
//!    none (`inside`), the clean nodes with an arc into them (`entries`)
//!    and those with an arc from them (`exits`), and per metric the least
//!    clean cost from every exit to every entry (a table, by joining their
//!    elimination-tree chains; see `patch_chains`).
//!
//! A 10x10 block closed on a cluster's border splits an entrance: its two
//! clusters gain the new entrances' ends, and every other transition keeps
//! its place. Until 2026-11-29 an edited group that did not keep its node
//! count went into the patch whole and its every base arc was forbidden;
//! on TheFrozenSea the middle half of such repairs (by time) priced again
//! some 790 edges of the metric each, against some 280 now
//! (docs/contraction.md, round 19).
//!
//! A least-cost route of the graph as it is alternates between clean stretches
//! and stretches through the patch. So a query sweeps the contraction from
//! its clean sources and targets (no pruning: every rank's distance is
//! needed), prices every entry from the sources and every exit to the
//! targets by joining chains, and runs a Dijkstra over the patch (its own
//! arcs, and the table from each exit to each entry); the cheaper of that and
//! the clean meeting wins. The clean stretches of the winner are found again
//! by ordinary contraction queries and unpacked into the base's arcs, which
//! name the arcs between the nodes standing for their ends.
//!
//! The patch's work grows with its size: past [`MAX_PATCH`] nodes or
//! [`MAX_TABLE`] table entries, patching refuses, and the caller contracts
//! afresh (or falls back to another search).

use std::cmp::Reverse;

use fixedbitset::FixedBitSet;

use super::customize::ContractionMetric;
use super::patch_chains::{Lanes, PatchChains};
use super::query::{Full, Upward, sort_ranks};
use super::{Contraction, ContractionError, ContractionRoute, ContractionScratch};
use super::{FORBIDDEN, NONE};
use crate::grid::Point;

/// The most nodes a patch holds (inside, entries and exits together).
pub(crate) const MAX_PATCH: usize = 1024;

/// The most entries of a patch's table (exits times entries).
pub(crate) const MAX_TABLE: usize = 1 << 14;

/// The graph as it is now, for one metric: CSR, its groups and each arc's
/// cost ([`FORBIDDEN`] for an arc the metric does not allow).
#[derive(Clone, Copy)]
pub(crate) struct Current<'a, C: Fn(u32) -> u64> {
    pub(crate) first: &'a [u32],
    pub(crate) to: &'a [u32],
    /// `group_first[g]..group_first[g + 1]` are group `g`'s nodes.
    pub(crate) group_first: &'a [u32],
    pub(crate) cost: C,
    /// Each node's place (a transition's cell): a node of a group laid out
    /// again stands for the base node of its group at the same place.
    pub(crate) place: &'a [Point],
}

impl<C: Fn(u32) -> u64> Current<'_, C> {
    fn out(&self, v: u32) -> std::ops::Range<usize> {
        self.first[v as usize] as usize..self.first[v as usize + 1] as usize
    }
}

/// Why an edit could not be patched in (the caller then drops the
/// contraction).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PatchError {
    /// The patch would exceed [`MAX_PATCH`] nodes or [`MAX_TABLE`] entries.
    #[error("the edited part is too large to search beside the contraction")]
    TooLarge,
    /// A group not laid out again does not keep its nodes or arcs.
    #[error("group {0} changed without being named")]
    Unnamed(u32),
    /// The re-customization failed.
    #[error(transparent)]
    Contraction(#[from] ContractionError),
}

/// Per metric: the base's costs (as the graph now gives them between clean
/// nodes, else forbidden), its customization, and the patch's chains and
/// table.
#[derive(Debug, Clone)]
struct Band {
    costs: Vec<u64>,
    metric: ContractionMetric,
    /// The patch's chains and table.
    chains: PatchChains,
}

/// A customizable contraction of a grouped graph, kept through edits that
/// lay groups out again (see the module docs): one metric per cost list.
///
/// # Performance
/// Holds the contraction and one full metric per cost list, the base
/// graph's CSR and its transpose (a contracted `DynamicHierarchy` of a
/// 1024 x 1024 StarCraft map reports 16.6 MB in all with them, one
/// metric, 15.3 MB once a repair has let its landmarks go). A patch costs
/// a re-customization (the edges whose least costs the edited groups
/// move) plus a chain per entry and exit, swept eight ends at a time
/// (`patch_chains`), and their table; a query a full sweep of both chains'
/// unions, the joins and a Dijkstra over the patch.
#[derive(Debug, Clone)]
pub(crate) struct Patchable {
    cch: Contraction,
    /// The base graph (CSR), its groups, and its arcs by head (transpose:
    /// `in_arcs[in_first[v]..in_first[v + 1]]` enter `v`).
    first: Vec<u32>,
    to: Vec<u32>,
    group_first: Vec<u32>,
    in_first: Vec<u32>,
    in_arcs: Vec<u32>,
    bands: Vec<Band>,
    /// Each base node's place (see [`Current::place`]).
    places: Vec<Point>,
    /// Per group: `NONE` when its nodes are the base's, in order, else its
    /// map in `maps`.
    map_of: Vec<u32>,
    maps: Vec<GroupMap>,
    /// The patch, in the current graph's node ids, each list ascending.
    inside: Vec<u32>,
    entries: Vec<u32>,
    exits: Vec<u32>,
    /// For the chains (the caller's scratch serves queries).
    scratch: ContractionScratch,
    lanes: Lanes,
    /// Whether an edit was patched in.
    patched: bool,
}

/// Which base node each node of a group laid out again stands for: those
/// that stand for none are in the patch, the base nodes none stands for
/// are forbidden in the contraction.
#[derive(Debug, Clone, Default)]
struct GroupMap {
    /// Per node of the group (its place in the group): the base node it
    /// stands for, or `NONE`.
    current: Vec<u32>,
    /// Per base node of the group (its place): the place of the node
    /// standing for it, or `NONE`.
    base: Vec<u32>,
}

/// The base node current node `v` stands for under the group maps
/// `(map_of, maps)` (see [`Patchable::map_of`]), given the base's and the
/// current groups' first nodes, or `NONE` when it is in the patch.
fn base_of(
    (map_of, maps): (&[u32], &[GroupMap]),
    (base_first, group_first): (&[u32], &[u32]),
    v: u32,
) -> u32 {
    let g = group_first.partition_point(|f| *f <= v) - 1;
    let place = v - group_first[g];
    match map_of[g] {
        NONE => place + base_first[g],
        m => maps[m as usize].current[place as usize],
    }
}

/// Sources or targets: nodes with their initial or final costs.
type Ends<'a> = &'a [(u32, u64)];

/// How a patch node was reached: by the graph's arc, by the table, or not
/// (a source).
const BY_TABLE: u32 = NONE - 1;

impl Patchable {
    /// Keeps `cch`, contracted from `first`/`to` (nodes grouped by
    /// `group_first`), customized with `metrics` from `costs` (one per
    /// metric), for patching.
    pub(crate) fn new(
        cch: Contraction,
        graph: (&[u32], &[u32]),
        group_first: &[u32],
        metrics: Vec<ContractionMetric>,
        costs: Vec<Vec<u64>>,
        places: Vec<Point>,
    ) -> Patchable {
        let (first, to) = graph;
        let n = first.len() - 1;
        // The transpose: each node's entering arcs, ascending.
        let (in_first, in_arcs) = super::bucket(n, || {
            (0..n as u32).flat_map(move |v| {
                (first[v as usize]..first[v as usize + 1]).map(move |a| (to[a as usize], a))
            })
        });
        let groups = group_first.len() - 1;
        let nodes = cch.nodes();
        Patchable {
            cch,
            first: first.to_vec(),
            to: to.to_vec(),
            group_first: group_first.to_vec(),
            in_first,
            in_arcs,
            bands: metrics
                .into_iter()
                .zip(costs)
                .map(|(mut metric, costs)| {
                    // Counted now, not at the first repair.
                    metric.made_through = super::recustomize::made_through(&metric, nodes);
                    Band {
                        costs,
                        metric,
                        chains: PatchChains::default(),
                    }
                })
                .collect(),
            places,
            map_of: vec![NONE; groups],
            maps: Vec::new(),
            inside: Vec::new(),
            entries: Vec::new(),
            exits: Vec::new(),
            scratch: ContractionScratch::default(),
            lanes: Lanes::default(),
            patched: false,
        }
    }

    /// One pruned query graph per metric, as the base's
    /// [`Contraction::query_graph`] (before any patch).
    pub(crate) fn query_graphs(&self) -> Result<Vec<super::QueryGraph>, ContractionError> {
        use rayon::prelude::*;
        self.bands
            .par_iter()
            .map(|b| self.cch.query_graph(&b.metric))
            .collect()
    }

    /// Whether an edit was patched in (queries must then go through
    /// [`route`](Self::route): the query graphs made before no longer
    /// answer).
    pub(crate) fn is_patched(&self) -> bool {
        self.patched
    }

    /// Whether group `g` is in the patch.
    #[cfg(test)]
    pub(crate) fn in_patch(&self, g: u32) -> bool {
        self.map_of[g as usize] != NONE
    }

    /// How many of group `g`'s nodes stand for base nodes, and how many are
    /// in the patch.
    #[cfg(test)]
    pub(crate) fn standing(&self, g: u32) -> (usize, usize) {
        match self.maps.get(self.map_of[g as usize] as usize) {
            None => (0, 0),
            Some(m) => {
                let inside = m.current.iter().filter(|v| **v == NONE).count();
                (m.current.len() - inside, inside)
            }
        }
    }

    /// Nodes in the patch (inside, entries, exits).
    pub(crate) fn patch_nodes(&self) -> usize {
        self.inside.len() + self.entries.len() + self.exits.len()
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        let band =
            |b: &Band| b.costs.capacity() * 8 + b.metric.memory_bytes() + b.chains.memory_bytes();
        self.cch.memory_bytes()
            + 4 * (self.first.capacity()
                + self.to.capacity()
                + self.group_first.capacity()
                + self.in_first.capacity()
                + self.in_arcs.capacity()
                + self.inside.capacity()
                + self.entries.capacity()
                + self.exits.capacity())
            + self.bands.iter().map(band).sum::<usize>()
            + 8 * self.places.capacity()
            + 4 * self.map_of.capacity()
            + self
                .maps
                .iter()
                .map(|m| 4 * (m.current.capacity() + m.base.capacity()))
                .sum::<usize>()
            + self.scratch.memory_bytes()
            + self.lanes.memory_bytes()
    }

    /// The group of base node `v`.
    fn base_group(&self, v: u32) -> usize {
        self.group_first.partition_point(|f| *f <= v) - 1
    }

    /// The current id of base node `v`, given the current groups, or
    /// `NONE` when no node stands for it.
    fn to_current(&self, group_first: &[u32], v: u32) -> u32 {
        let g = self.base_group(v);
        let place = v - self.group_first[g];
        match self.map_of[g] {
            NONE => place + group_first[g],
            m => match self.maps[m as usize].base[place as usize] {
                NONE => NONE,
                p => p + group_first[g],
            },
        }
    }

    /// The base node current node `v` stands for, given the current groups,
    /// or `NONE` when it is in the patch.
    fn to_base(&self, group_first: &[u32], v: u32) -> u32 {
        base_of(
            (&self.map_of, &self.maps),
            (&self.group_first, group_first),
            v,
        )
    }

    /// Patches in an edit that laid out again the groups in `fresh` (the
    /// graph now as `current` says, one cost function per metric, in the
    /// order of the metrics given to [`new`](Self::new)).
    ///
    /// Each node of a named group stands for a base node of its group where
    /// its arcs allow (see the module docs), else joins the patch; the base
    /// arcs of the named groups take the costs the graph now gives them
    /// between the nodes standing for their ends (`FORBIDDEN` where there
    /// is none), by a re-customization. A named group whose nodes all stand
    /// for the base's, in order, leaves the patch. Arcs between groups must
    /// come with their reverse (a hierarchy's links between facing
    /// transitions do). On an error the contraction must not serve queries
    /// any more.
    pub(crate) fn patch<C: Fn(u32) -> u64>(
        &mut self,
        current: &[Current<'_, C>],
        fresh: &[u32],
    ) -> Result<(), PatchError> {
        debug_assert_eq!(current.len(), self.bands.len());
        let Some(now) = current.first() else {
            return Ok(());
        };
        let gf = now.group_first;
        let groups = self.group_first.len() - 1;
        if gf.len() != groups + 1 {
            return Err(PatchError::Unnamed(0));
        }
        let count = |first: &[u32], g: usize| first[g + 1] - first[g];
        let mut named = FixedBitSet::with_capacity(groups);
        for g in fresh {
            named.insert(*g as usize);
        }
        // Groups not named keep their nodes.
        for g in 0..groups {
            let kept = match self.map_of[g] {
                NONE => count(&self.group_first, g),
                m => self.maps[m as usize].current.len() as u32,
            };
            if !named.contains(g) && count(gf, g) != kept {
                return Err(PatchError::Unnamed(g as u32));
            }
        }
        // 1. Which node of each named group stands for which base node (see
        // `place_map`), unless the node has an arc to another clean node that
        // the base lacks (then it joins the patch). Checked node by node
        // against the maps as they are so far, so a node found out later
        // only frees others of the condition: no arc between two nodes left
        // standing is missing from the base.
        // (The maps of the groups not named are kept; `self` is refilled
        // below.)
        let mut map_of = std::mem::replace(&mut self.map_of, vec![NONE; groups]);
        let mut maps = std::mem::take(&mut self.maps);
        for (g, slot) in map_of.iter_mut().enumerate() {
            if named.contains(g) {
                let m = self.place_map(g, now);
                *slot = maps.len() as u32;
                maps.push(m);
            }
        }
        for g in named.ones() {
            for place in 0..count(gf, g) {
                let u0 = maps[map_of[g] as usize].current[place as usize];
                if u0 == NONE {
                    continue;
                }
                let base = &self.to
                    [self.first[u0 as usize] as usize..self.first[u0 as usize + 1] as usize];
                let lacks = now.out(gf[g] + place).any(|a| {
                    let v0 = base_of((&map_of, &maps), (&self.group_first, gf), now.to[a]);
                    v0 != NONE && !base.contains(&v0)
                });
                if lacks {
                    let m = &mut maps[map_of[g] as usize];
                    m.current[place as usize] = NONE;
                    m.base[(u0 - self.group_first[g]) as usize] = NONE;
                }
            }
        }
        // A named group whose nodes all stand for the base's, in order, is
        // the base's again.
        for (g, slot) in map_of.iter().enumerate() {
            if *slot == NONE {
                continue;
            }
            let m = std::mem::take(&mut maps[*slot as usize]);
            let first = self.group_first[g];
            let same = m.current.len() == m.base.len()
                && m.current
                    .iter()
                    .enumerate()
                    .all(|(i, v)| *v == first + i as u32);
            if !same {
                self.map_of[g] = self.maps.len() as u32;
                self.maps.push(m);
            }
        }
        // 2. The named groups' base arcs (out and in) priced as the graph
        // now is, re-customized where that changed.
        let mut arcs = Vec::new();
        for g in named.ones() {
            for v in self.group_first[g]..self.group_first[g + 1] {
                let v = v as usize;
                arcs.extend(self.first[v]..self.first[v + 1]);
                arcs.extend_from_slice(
                    &self.in_arcs[self.in_first[v] as usize..self.in_first[v + 1] as usize],
                );
            }
        }
        arcs.sort_unstable();
        arcs.dedup();
        for (b, cur) in current.iter().enumerate() {
            let mut changed = Vec::new();
            for &a in &arcs {
                let c = self.arc_cost(a, cur);
                if self.bands[b].costs[a as usize] != c {
                    self.bands[b].costs[a as usize] = c;
                    changed.push(a);
                }
            }
            if !changed.is_empty() {
                let band = &mut self.bands[b];
                self.cch
                    .recustomize_own(&mut band.metric, &band.costs, &changed)?;
            }
        }
        // 3. The patch as the graph is now: its nodes, the clean ones they
        // lead to (exits) and those leading into it (entries: an exit, as
        // every arc between groups has its reverse, or a node standing for a
        // base node in a group with nodes in the patch).
        self.inside.clear();
        let mut neighbours = Vec::new();
        for (g, slot) in self.map_of.iter().enumerate() {
            if let Some(m) = self.maps.get(*slot as usize) {
                for (i, v0) in m.current.iter().enumerate() {
                    let v = gf[g] + i as u32;
                    if *v0 == NONE {
                        self.inside.push(v);
                    } else {
                        neighbours.push(v);
                    }
                }
            }
        }
        let is_inside = |inside: &[u32], v: u32| inside.binary_search(&v).is_ok();
        self.exits.clear();
        for &v in &self.inside {
            for a in now.out(v) {
                let w = now.to[a];
                if !is_inside(&self.inside, w) {
                    self.exits.push(w);
                }
            }
        }
        self.exits.sort_unstable();
        self.exits.dedup();
        let inside = &self.inside;
        neighbours.extend_from_slice(&self.exits);
        neighbours.sort_unstable();
        neighbours.dedup();
        self.entries.clear();
        self.entries.extend(
            neighbours
                .iter()
                .filter(|u| now.out(**u).any(|a| is_inside(inside, now.to[a]))),
        );
        if self.patch_nodes() > MAX_PATCH || self.entries.len() * self.exits.len() > MAX_TABLE {
            return Err(PatchError::TooLarge);
        }
        // 4. Chains and tables, per metric.
        let ranks = |ends: &[u32]| -> Vec<u32> {
            ends.iter()
                .map(|u| self.cch.rank[self.to_base(gf, *u) as usize])
                .collect()
        };
        let (exits, entries) = (ranks(&self.exits), ranks(&self.entries));
        for band in &mut self.bands {
            let full = Full {
                cch: &self.cch,
                metric: &band.metric,
            };
            band.chains
                .compute(&full, &mut self.scratch, &mut self.lanes, &exits, &entries);
        }
        self.patched = true;
        Ok(())
    }

    /// The map of named group `g`: each node stands for the base node of
    /// the group at its place (the first of them, when places repeat).
    /// (Pairing the nodes left with the base nodes left, in order, so that
    /// a transition moved along its border kept its part in the
    /// contraction, measured no faster: its new arcs' costs move as many
    /// edges of the metric as the patch saves.)
    fn place_map<C: Fn(u32) -> u64>(&self, g: usize, now: &Current<'_, C>) -> GroupMap {
        let (bf, gf) = (&self.group_first, now.group_first);
        let key = |p: Point| (u64::from(p.y) << 32) | u64::from(p.x);
        let mut by_key: Vec<(u64, u32)> = (bf[g]..bf[g + 1])
            .map(|v| (key(self.places[v as usize]), v - bf[g]))
            .collect();
        by_key.sort_unstable();
        let mut m = GroupMap {
            current: vec![NONE; (gf[g + 1] - gf[g]) as usize],
            base: vec![NONE; by_key.len()],
        };
        for place in 0..m.current.len() {
            let key = key(now.place[gf[g] as usize + place]);
            let at = by_key.partition_point(|(k, _)| *k < key);
            if let Some(&(k, b)) = by_key.get(at)
                && k == key
                && m.base[b as usize] == NONE
            {
                m.current[place] = b + bf[g];
                m.base[b as usize] = place as u32;
            }
        }
        m
    }

    /// Base arc `a`'s cost as the graph `cur` now gives it: forbidden when
    /// no node stands for an end or the graph lost it, else its cheapest
    /// arc between the nodes standing for its ends.
    fn arc_cost<C: Fn(u32) -> u64>(&self, a: u32, cur: &Current<'_, C>) -> u64 {
        let gf = cur.group_first;
        let (u, v) = (
            self.to_current(gf, self.tail(a)),
            self.to_current(gf, self.to[a as usize]),
        );
        if u == NONE || v == NONE {
            return FORBIDDEN;
        }
        cur.out(u)
            .filter(|e| cur.to[*e] == v)
            .map(|e| (cur.cost)(e as u32))
            .min()
            .unwrap_or(FORBIDDEN)
    }

    /// The tail of base arc `a`.
    fn tail(&self, a: u32) -> u32 {
        (self.first.partition_point(|f| *f <= a) - 1) as u32
    }

    /// The least-cost route under metric `band` from any of `sources` to any
    /// of `targets` (current node ids with initial and final costs) in the
    /// graph as `current` says, into `route` (current ids and arcs): whether
    /// one exists. Sources and targets out of range are ignored.
    pub(crate) fn route<C: Fn(u32) -> u64>(
        &self,
        band: usize,
        current: &Current<'_, C>,
        s: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> bool {
        route.cost = 0;
        route.nodes.clear();
        route.arcs.clear();
        let b = &self.bands[band];
        let full = Full {
            cch: &self.cch,
            metric: &b.metric,
        };
        let gf = current.group_first;
        if self.inside.is_empty() {
            // Nothing beside the contraction: one search, its route mapped.
            return self.clean_route(band, current, s, sources, targets, route);
        }
        let nodes = current.first.len() as u32 - 1;
        let (p, ne, nx) = (self.inside.len(), self.entries.len(), self.exits.len());
        let locals = p + ne + nx;
        let mut l = std::mem::take(&mut s.patch);
        l.dist.clear();
        l.dist.resize(locals, FORBIDDEN);
        l.goal.clear();
        l.goal.resize(locals, FORBIDDEN);
        l.pred.clear();
        l.pred.resize(locals, (NONE, NONE));
        l.sources.clear();
        l.targets.clear();
        // Clean ends to the contraction (base ids), inside ones to the patch.
        for (ends, clean, inside_cost) in [
            (sources, &mut l.sources, &mut l.dist),
            (targets, &mut l.targets, &mut l.goal),
        ] {
            for &(v, c) in ends {
                if v >= nodes {
                    continue;
                }
                match self.inside.binary_search(&v) {
                    Ok(i) => inside_cost[i] = inside_cost[i].min(c),
                    Err(_) => clean.push((self.to_base(gf, v), c)),
                }
            }
        }
        // Both sweeps in full, and the clean meeting.
        s.begin(full.ranks());
        for (d, ends) in [(0, &l.sources), (1, &l.targets)] {
            for (v, _) in ends.iter() {
                full.reach(s, d, self.cch.rank[*v as usize]);
            }
            for (v, c) in ends.iter() {
                let slot = &mut s.dist[d][self.cch.rank[*v as usize] as usize];
                *slot = (*slot).min(*c);
            }
            sweep(&full, s, d);
        }
        let generation = s.generation;
        let mut best = FORBIDDEN;
        for &u in &s.space[0] {
            let u = u as usize;
            if s.stamp[1][u] == generation {
                best = best.min(s.dist[0][u] + s.dist[1][u]);
            }
        }
        let clean_best = best;
        // Entries priced from the sources, exits to the targets.
        let priced = |d: usize, chain: &[(u32, u64)]| {
            chain
                .iter()
                .filter(|(r, _)| s.stamp[d][*r as usize] == generation)
                .map(|(r, c)| s.dist[d][*r as usize] + c)
                .min()
                .unwrap_or(FORBIDDEN)
        };
        for e in 0..ne {
            let chain = b.chains.entry(e);
            l.dist[p + e] = priced(0, chain);
        }
        for x in 0..nx {
            let chain = b.chains.exit(x);
            l.goal[p + ne + x] = priced(1, chain);
        }
        // The Dijkstra over the patch.
        let heap = &mut s.heap[0];
        heap.clear();
        for (i, d) in l.dist.iter().enumerate() {
            if *d < FORBIDDEN {
                heap.push(Reverse((*d, i as u32)));
            }
        }
        let mut end = NONE;
        let local_of = |v: u32| match self.inside.binary_search(&v) {
            Ok(i) => Some(i),
            Err(_) => self.exits.binary_search(&v).ok().map(|x| p + ne + x),
        };
        while let Some(Reverse((d, i))) = heap.pop() {
            let i = i as usize;
            if d > l.dist[i] {
                continue;
            }
            if d >= best {
                break;
            }
            s.settled += 1;
            if l.goal[i] < FORBIDDEN && d + l.goal[i] < best {
                best = d + l.goal[i];
                end = i as u32;
            }
            let mut offer = |j: usize, nd: u64, how: u32, l: &mut super::query::PatchScratch| {
                if nd < l.dist[j] {
                    l.dist[j] = nd;
                    l.pred[j] = (i as u32, how);
                    heap.push(Reverse((nd, j as u32)));
                }
            };
            if i < p + ne {
                // Inside or an entry: the graph's own arcs (an entry's into
                // the patch only).
                let v = if i < p {
                    self.inside[i]
                } else {
                    self.entries[i - p]
                };
                for a in current.out(v) {
                    let c = (current.cost)(a as u32);
                    if c >= FORBIDDEN {
                        continue;
                    }
                    let w = current.to[a];
                    let j = if i < p {
                        local_of(w)
                    } else {
                        self.inside.binary_search(&w).ok()
                    };
                    if let Some(j) = j {
                        offer(j, d + c, a as u32, &mut l);
                    }
                }
            } else {
                let x = i - p - ne;
                for e in 0..ne {
                    let c = b.chains.table(x, e);
                    if c < FORBIDDEN {
                        offer(p + e, d + c, BY_TABLE, &mut l);
                    }
                }
            }
        }
        let found = best < FORBIDDEN;
        if found {
            route.cost = best;
            if end == NONE || best == clean_best {
                let stretched = self.clean_stretch(
                    band,
                    current,
                    s,
                    (&l.sources, &l.targets),
                    &mut l.stretch,
                    route,
                );
                debug_assert!(stretched, "priced by the same metric");
            } else {
                // The patch's nodes from the source used to the end.
                l.walk.clear();
                let mut i = end;
                while i != NONE {
                    let (from, how) = l.pred[i as usize];
                    l.walk.push((i, how));
                    i = from;
                }
                l.walk.reverse();
                let node = |i: u32| {
                    let i = i as usize;
                    if i < p {
                        self.inside[i]
                    } else if i < p + ne {
                        self.entries[i - p]
                    } else {
                        self.exits[i - p - ne]
                    }
                };
                let base = |i: u32| (self.to_base(gf, node(i)), 0);
                let (first, _) = l.walk[0];
                if (first as usize) < p {
                    route.nodes.push(node(first));
                } else {
                    let stretched = self.clean_stretch(
                        band,
                        current,
                        s,
                        (&l.sources, &[base(first)]),
                        &mut l.stretch,
                        route,
                    );
                    debug_assert!(stretched, "priced by the same metric");
                }
                for k in 1..l.walk.len() {
                    let (i, how) = l.walk[k];
                    if how == BY_TABLE {
                        let from = base(l.walk[k - 1].0);
                        let stretched = self.clean_stretch(
                            band,
                            current,
                            s,
                            (&[from], &[base(i)]),
                            &mut l.stretch,
                            route,
                        );
                        debug_assert!(stretched, "priced by the same metric");
                    } else {
                        route.arcs.push(how);
                        route.nodes.push(node(i));
                    }
                }
                if end as usize >= p + ne {
                    let stretched = self.clean_stretch(
                        band,
                        current,
                        s,
                        (&[base(end)], &l.targets),
                        &mut l.stretch,
                        route,
                    );
                    debug_assert!(stretched, "priced by the same metric");
                }
            }
            route.cost = best;
        }
        s.patch = l;
        found
    }

    /// [`route`](Self::route) when nothing lies beside the contraction: one
    /// search of it, its route mapped to the graph as it is.
    fn clean_route<C: Fn(u32) -> u64>(
        &self,
        band: usize,
        current: &Current<'_, C>,
        s: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> bool {
        let mut l = std::mem::take(&mut s.patch);
        let nodes = current.first.len() as u32 - 1;
        let gf = current.group_first;
        for (ends, base) in [(sources, &mut l.sources), (targets, &mut l.targets)] {
            base.clear();
            base.extend(
                ends.iter()
                    .filter(|(v, _)| *v < nodes)
                    .map(|(v, c)| (self.to_base(gf, *v), *c)),
            );
        }
        let found = self.clean_stretch(
            band,
            current,
            s,
            (&l.sources, &l.targets),
            &mut l.stretch,
            route,
        );
        route.cost = l.stretch.cost;
        s.patch = l;
        found
    }

    /// Appends the least clean route from `ends.0` to `ends.1` (base ids)
    /// under metric `band` to `route`, in the ids of the graph `cur` (each
    /// base arc as the current arc between the same nodes at its cost): its
    /// first node only when `route` has none yet (it is the last one's
    /// otherwise). Whether one exists (always, for ends priced by the same
    /// metric).
    #[allow(clippy::too_many_arguments)]
    fn clean_stretch<C: Fn(u32) -> u64>(
        &self,
        band: usize,
        cur: &Current<'_, C>,
        s: &mut ContractionScratch,
        ends: (Ends<'_>, Ends<'_>),
        stretch: &mut ContractionRoute,
        route: &mut ContractionRoute,
    ) -> bool {
        let full = Full {
            cch: &self.cch,
            metric: &self.bands[band].metric,
        };
        let gf = cur.group_first;
        let found = super::query::route_into(&full, &full, s, ends.0, ends.1, stretch)
            .unwrap_or_else(|_| unreachable!("the full contraction names its arcs"));
        if !found {
            return false;
        }
        let skip = usize::from(!route.nodes.is_empty());
        route.nodes.extend(
            stretch
                .nodes
                .iter()
                .skip(skip)
                .map(|v| self.to_current(gf, *v)),
        );
        for (k, a) in stretch.arcs.iter().enumerate() {
            let (u, v) = (
                self.to_current(gf, stretch.nodes[k]),
                self.to_current(gf, stretch.nodes[k + 1]),
            );
            let cost = self.bands[band].costs[*a as usize];
            let arc = cur
                .out(u)
                .find(|e| cur.to[*e] == v && (cur.cost)(*e as u32) == cost)
                .expect("a clean base arc's cost is a current arc's");
            route.arcs.push(arc as u32);
        }
        true
    }
}

/// Sweeps direction `d`'s search space (entered, initial distances set) in
/// rank order, every finite rank relaxing its upward edges: no pruning, so
/// each rank's distance is the least from the ends.
pub(super) fn sweep(full: &Full<'_>, s: &mut ContractionScratch, d: usize) {
    let mut space = std::mem::take(&mut s.space[d]);
    sort_ranks(&mut space, &mut s.sort_buf, full.ranks());
    for &u in &space {
        s.settled += 1;
        let du = s.dist[d][u as usize];
        if du < FORBIDDEN {
            full.relax(s, d, u, du);
        }
    }
    s.space[d] = space;
}
