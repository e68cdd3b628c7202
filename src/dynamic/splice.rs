//! Reassembling the cluster graph after a repair, in place, without
//! touching what did not change.
//!
//! Nodes are numbered cluster by cluster, so the repaired clusters, and the
//! unchanged ones between the first and the last of them, form one stretch
//! of the node list and of every edge array ([`Span`]). The stretch is laid
//! out again: a repaired cluster's nodes edge by edge, in the build's order
//! (inside edges in the cluster's order, then inter-cluster edges by
//! ascending target; with several unit sizes, all of a node's edges by
//! annotation, largest first, then by cost and target), an unchanged
//! cluster's copied with its targets renumbered. So the result equals what
//! the build's assembly gives.
//!
//! Everything before the stretch stays where it is; everything after it
//! moves as one block (one memmove per array), its node ids and its edge and
//! path offsets shifted by constants. Only the edges of the clusters within
//! a row of the stretch can point into it (an edge joins a node to one of
//! its own cluster or of the eight around it); those go through the
//! renumbering table. When the stretch keeps its node and edge counts (a
//! cell closed inside a cluster), nothing after it moves at all. A repair
//! so costs the stretch plus, at most, a move of the arrays' tails, instead
//! of a copy of the whole graph.

use crate::grid::Grid;
use crate::hierarchy::{Hierarchy, Spliced};
use crate::packed::Column64;
use crate::preprocess::graph::ClusterEdges;
use crate::preprocess::landmarks::Run;
use crate::preprocess::{ClusterGraph, Entrances};
use crate::{Movement, Point};

/// Old node -> new node (`u32::MAX` for a node gone), whether each old
/// node lies in a `fresh` cluster, and the runs of old nodes renumbered
/// together, in order (each `(from, to, len)`, the longest possible).
/// Nodes of unchanged clusters shift as a block; those of fresh clusters
/// are matched by cell.
pub(crate) fn renumber(
    old: &Entrances,
    new_cells: &[u32],
    new_first: &[u32],
    fresh: &[bool],
) -> (Vec<u32>, Vec<bool>, Vec<Run>) {
    let n = old.cells.len();
    let mut remap = vec![u32::MAX; n];
    let mut old_fresh = vec![false; n];
    let mut runs: Vec<Run> = Vec::new();
    let moved = |runs: &mut Vec<Run>, from: usize, to: usize, len: usize| match runs.last_mut() {
        Some(last) if last.0 + last.2 == from && last.1 + last.2 == to => last.2 += len,
        _ => runs.push((from, to, len)),
    };
    // The fresh clusters `a..b`: their nodes matched by cell.
    let mut match_fresh = |runs: &mut Vec<Run>, remap: &mut [u32], (a, b): (usize, usize)| {
        for c in a..b {
            let (oa, ob) = (
                old.cluster_first[c] as usize,
                old.cluster_first[c + 1] as usize,
            );
            let (na, nb) = (new_first[c] as usize, new_first[c + 1] as usize);
            old_fresh[oa..ob].fill(true);
            let (mut i, mut j) = (oa, na);
            while i < ob && j < nb {
                match old.cells[i].cmp(&new_cells[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        remap[i] = j as u32;
                        moved(runs, i, j, 1);
                        i += 1;
                        j += 1;
                    }
                }
            }
        }
    };
    let mut c = 0;
    for (first, end) in unchanged_runs(fresh) {
        match_fresh(&mut runs, &mut remap, (c, first));
        let (oa, ob) = (
            old.cluster_first[first] as usize,
            old.cluster_first[end] as usize,
        );
        let shift = new_first[first].wrapping_sub(oa as u32);
        for (i, r) in remap[oa..ob].iter_mut().enumerate() {
            *r = (oa as u32 + i as u32).wrapping_add(shift);
        }
        if ob > oa {
            moved(&mut runs, oa, new_first[first] as usize, ob - oa);
        }
        c = end;
    }
    match_fresh(&mut runs, &mut remap, (c, fresh.len()));
    (remap, old_fresh, runs)
}

/// Runs of clusters not repaired, each as `(first, end)`.
fn unchanged_runs(fresh: &[bool]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut c = 0;
    std::iter::from_fn(move || {
        while c < fresh.len() && fresh[c] {
            c += 1;
        }
        let first = c;
        while c < fresh.len() && !fresh[c] {
            c += 1;
        }
        (first < c).then_some((first, c))
    })
}

/// Ids renumbered per block of this many (see [`RunShift`]).
const LANES: usize = 16;

/// Ids read from a run of unchanged clusters, renumbered in bulk.
///
/// The run's own nodes keep their order and shift by one constant; most ids
/// stored with them (edge targets, link ends) point into the run, so they
/// are shifted [`LANES`] at a time, and only a block holding an id that
/// points elsewhere (another run, or a repaired cluster) goes one by one
/// through `remap`.
struct RunShift<'a> {
    /// The run's first old node.
    lo: u32,
    /// Its number of nodes.
    span: u32,
    /// New id minus old id inside the run (wrapping).
    shift: u32,
    remap: &'a [u32],
}

impl<'a> RunShift<'a> {
    /// Clusters `first..end` (not repaired) of `old`, whose first node is
    /// `new_first` now.
    fn new(
        old: &Entrances,
        (first, end): (usize, usize),
        new_first: u32,
        remap: &'a [u32],
    ) -> Self {
        let (lo, hi) = (old.cluster_first[first], old.cluster_first[end]);
        RunShift {
            lo,
            span: hi - lo,
            shift: new_first.wrapping_sub(lo),
            remap,
        }
    }

    #[inline]
    fn inside(&self, id: u32) -> bool {
        id.wrapping_sub(self.lo) < self.span
    }

    #[inline]
    fn map(&self, id: u32) -> u32 {
        if self.inside(id) {
            id.wrapping_add(self.shift)
        } else {
            self.remap[id as usize]
        }
    }

    /// The nodes from `lo` on, after the repaired stretch, which all shift
    /// by `shift`.
    fn from(lo: u32, shift: u32, remap: &'a [u32]) -> Self {
        RunShift {
            lo,
            span: u32::MAX - lo,
            shift,
            remap,
        }
    }

    /// Renumbers `ids` in place, a block of [`LANES`] at a time: a block
    /// wholly in the run shifts (no early exit in the test, so that it
    /// compiles to vector compares), any other goes one by one.
    fn apply_to(&self, ids: &mut [u32]) {
        for block in ids.chunks_mut(LANES) {
            if block
                .iter()
                .fold(0u32, |out, id| out | u32::from(!self.inside(*id)))
                == 0
            {
                for id in block.iter_mut() {
                    *id = id.wrapping_add(self.shift);
                }
            } else {
                for id in block.iter_mut() {
                    *id = self.map(*id);
                }
            }
        }
    }
}

/// The links after a repair: those of `old` between nodes of unchanged
/// clusters (`old_fresh` marks the old nodes of repaired ones), renumbered,
/// merged with `fresh_links` (new ids, sorted, each once; annotated with the
/// largest size that makes the move, 0 for one size), repeats dropped; and
/// the annotations when `sized`. One pass over the old links, written once.
pub(crate) fn splice_links(
    old: &Entrances,
    new_first: &[u32],
    fresh: &[bool],
    (remap, old_fresh): (&[u32], &[bool]),
    fresh_links: &[(u32, u32, u8)],
    sized: bool,
) -> (Vec<(u32, u32)>, Vec<u8>) {
    let mut out = LinkMerge {
        links: Vec::with_capacity(old.links.len() + fresh_links.len()),
        clear: Vec::with_capacity(if sized { old.links.len() } else { 0 }),
        fresh: fresh_links,
        next: 0,
        sized,
    };
    let cols = old.layout.cols as usize;
    // Run by run: the links whose first end lies in the run are one stretch
    // of the sorted list. A link whose other end was repaired is dropped
    // (its border was scanned again: it is among the fresh).
    for run in unchanged_runs(fresh) {
        let shift = RunShift::new(old, run, new_first[run.0], remap);
        // A link joins clusters at most a row and one apart, so those of
        // the run's clusters a row and one from both its ends stay in it
        // and shift as a whole, unchecked.
        let (first, end) = run;
        let middle = (first + cols + 1, end.saturating_sub(cols + 1));
        let nodes = |c: usize| old.cluster_first[c];
        let (lo, hi) = (shift.lo, shift.lo + shift.span);
        let (mid_lo, mid_hi) = if middle.0 < middle.1 {
            (nodes(middle.0), nodes(middle.1))
        } else {
            (hi, hi)
        };
        let at = |node: u32| old.links.partition_point(|l| l.0 < node);
        let (i, mi, mj, j) = (at(lo), at(mid_lo), at(mid_hi), at(hi));
        let clear = |a: usize, b: usize| &old.link_clear[if sized { a..b } else { 0..0 }];
        out.checked(&old.links[i..mi], clear(i, mi), &shift, old_fresh);
        debug_assert!(old.links[mi..mj].iter().all(|(_, b)| shift.inside(*b)));
        out.shifted(&old.links[mi..mj], clear(mi, mj), shift.shift);
        out.checked(&old.links[mj..j], clear(mj, j), &shift, old_fresh);
    }
    out.finish()
}

/// The links of a repair written in order: the old ones kept, renumbered,
/// and the fresh ones merged in as they come (a fresh link equal to a kept
/// one, annotation included, is dropped).
struct LinkMerge<'a> {
    links: Vec<(u32, u32)>,
    clear: Vec<u8>,
    /// The fresh links, sorted, and the first not yet written.
    fresh: &'a [(u32, u32, u8)],
    next: usize,
    sized: bool,
}

impl LinkMerge<'_> {
    /// Writes the fresh links below `key`, and drops one equal to it.
    #[inline]
    fn fresh_before(&mut self, key: (u32, u32, u8)) {
        while let Some(f) = self.fresh.get(self.next)
            && *f <= key
        {
            if *f != key {
                self.write((f.0, f.1), f.2);
            }
            self.next += 1;
        }
    }

    /// Writes a kept link (new ids), with its annotation when sized, after
    /// the fresh ones below it.
    #[inline]
    fn push(&mut self, link: (u32, u32), clear: u8) {
        self.fresh_before((link.0, link.1, clear));
        self.write(link, clear);
    }

    /// Appends `link`, and its annotation when sized.
    #[inline]
    fn write(&mut self, link: (u32, u32), clear: u8) {
        self.links.push(link);
        if self.sized {
            self.clear.push(clear);
        }
    }

    /// Writes old `links` of `shift`'s run: both ends in the run shift
    /// together, [`LANES`] at a time; a link whose other end lies elsewhere
    /// is renumbered through the table, or dropped when that end's cluster
    /// was repaired.
    fn checked(
        &mut self,
        links: &[(u32, u32)],
        clear: &[u8],
        shift: &RunShift,
        old_fresh: &[bool],
    ) {
        for (k, block) in links.chunks(LANES).enumerate() {
            let clear = &clear[if self.sized {
                k * LANES..k * LANES + block.len()
            } else {
                0..0
            }];
            let inside = block
                .iter()
                .fold(0u32, |out, (_, b)| out | u32::from(!shift.inside(*b)))
                == 0;
            if inside {
                self.shifted(block, clear, shift.shift);
                continue;
            }
            for (m, (a, b)) in block.iter().enumerate() {
                if !shift.inside(*b) && old_fresh[*b as usize] {
                    continue;
                }
                let c = if self.sized { clear[m] } else { 0 };
                self.push((a.wrapping_add(shift.shift), shift.map(*b)), c);
            }
        }
    }

    /// Writes old `links` whose ends both shift by `shift`: as a whole when
    /// no fresh link falls among them (the common case), else one by one.
    fn shifted(&mut self, links: &[(u32, u32)], clear: &[u8], shift: u32) {
        let moved = |(a, b): &(u32, u32)| (a.wrapping_add(shift), b.wrapping_add(shift));
        let Some(last) = links.last().map(moved) else {
            return;
        };
        if self
            .fresh
            .get(self.next)
            .is_some_and(|f| (f.0, f.1) <= last)
        {
            for (m, link) in links.iter().enumerate() {
                self.push(moved(link), if self.sized { clear[m] } else { 0 });
            }
            return;
        }
        self.links.extend(links.iter().map(moved));
        self.clear.extend_from_slice(clear);
    }

    /// The links and their annotations, the fresh ones left written last.
    fn finish(mut self) -> (Vec<(u32, u32)>, Vec<u8>) {
        for &(a, b, c) in &self.fresh[self.next..] {
            self.write((a, b), c);
        }
        (self.links, self.clear)
    }
}

/// One edge of a node being laid out: (annotation, cost, target, range of
/// its path codes), in the order a hierarchy of several sizes sorts them.
type NodeEdge = (std::cmp::Reverse<u8>, u64, u32, (u32, u32));

/// The annotations of cluster `c`'s inside edges, in the order
/// [`ClusterGraph::cluster_edges`] reads the edges back (a hierarchy of
/// several sizes).
pub(crate) fn cluster_edge_clear(graph: &ClusterGraph, entrances: &Entrances, c: u32) -> Vec<u8> {
    let (a, b) = (
        entrances.cluster_first[c as usize],
        entrances.cluster_first[c as usize + 1],
    );
    (a..b)
        .flat_map(|v| graph.out_edges(v))
        .filter(|(to, _, _)| (a..b).contains(to))
        .map(|(_, _, e)| graph.edge_clear[e])
        .collect()
}

/// The repaired stretch of the graph: the nodes of the clusters from the
/// first repaired one to the last (`clusters`), laid out as the build would,
/// in new ids and at their final edge and path offsets. Everything before
/// the stretch keeps its place; everything after it moves as one block
/// ([`Span::apply`]).
pub(crate) struct Span {
    /// Clusters `first..end` of the stretch.
    clusters: (usize, usize),
    /// Its nodes, old and new: `first..end` (the same first).
    old_nodes: (u32, u32),
    new_end: u32,
    /// Its edges and path codes in the old graph.
    old_edges: (usize, usize),
    old_codes: (usize, usize),
    /// Per new node of the stretch, its first edge (final offsets).
    edge_first: Vec<u32>,
    edge_to: Vec<u32>,
    costs: Vec<u64>,
    edge_clear: Vec<u8>,
    /// Per edge of the stretch, the end of its path codes (final offsets).
    path_ends: Vec<u32>,
    path_codes: Vec<u8>,
    /// Inside edges of the whole graph after the repair.
    intra_edges: u64,
    /// Built for several sizes (edges annotated), and with cell paths kept.
    sized: bool,
    keep_paths: bool,
    /// The annotations of the old edges the stretch replaces (several
    /// sizes only).
    old_clear: Vec<u8>,
}

impl Span {
    /// The stretch over `new` entrances: clusters with `fresh[c]` laid out
    /// from their inside edges (`intra`, one per fresh cluster in order,
    /// with their annotations in `intra_clear` when built for several sizes)
    /// and their links (among `fresh_links`, which hold every link of a
    /// fresh cluster's node: see [`splice_links`]); unchanged clusters
    /// between them copied from the graph of `h` (whose grid is already the
    /// changed one) through `remap` (see [`renumber`]). `None` when no
    /// cluster is fresh.
    pub(crate) fn build(
        h: &Hierarchy,
        new: &Entrances,
        fresh: &[bool],
        remap: &[u32],
        fresh_links: &[(u32, u32, u8)],
        (intra, intra_clear): (&[ClusterEdges], &[Vec<u8>]),
    ) -> Option<Span> {
        let first = fresh.iter().position(|f| *f)?;
        let end = fresh.iter().rposition(|f| *f)? + 1;
        let sized = h.sizes().is_some();
        let (grid, movement) = (h.grid(), &h.settings().movement);
        let keep_paths = h.settings().keep_paths;
        let (old, old_graph) = (h.entrances(), h.graph());
        let (oa, ob) = (old.cluster_first[first], old.cluster_first[end]);
        let (na, nb) = (new.cluster_first[first], new.cluster_first[end]);
        debug_assert_eq!(oa, na, "the nodes before the stretch keep their ids");
        let (ea, eb) = (
            old_graph.edge_first[oa as usize] as usize,
            old_graph.edge_first[ob as usize] as usize,
        );
        let (pa, pb) = if keep_paths {
            (
                old_graph.path_first[ea] as usize,
                old_graph.path_first[eb] as usize,
            )
        } else {
            (0, 0)
        };
        // Inter-cluster edges out of fresh nodes, by source then target,
        // with the largest size that can make the move (0 for one size).
        let mut fresh_node = vec![false; (nb - na) as usize];
        for c in (first..end).filter(|c| fresh[*c]) {
            let (a, b) = (new.cluster_first[c] - na, new.cluster_first[c + 1] - na);
            fresh_node[a as usize..b as usize].fill(true);
        }
        let is_fresh = |v: u32| v.wrapping_sub(na) < nb - na && fresh_node[(v - na) as usize];
        let mut inter: Vec<(u32, u32, u8)> = Vec::new();
        for &(a, b, d) in fresh_links {
            if is_fresh(a) {
                inter.push((a, b, d));
            }
            if is_fresh(b) {
                inter.push((b, a, d));
            }
        }
        inter.sort_unstable();

        // Inside edges: the old count, less the fresh clusters' old ones,
        // plus their new ones.
        let mut intra_edges =
            old_graph.intra_edges + intra.iter().map(|ce| ce.edges.len() as u64).sum::<u64>();
        for c in (first..end).filter(|c| fresh[*c]) {
            let (a, b) = (old.cluster_first[c], old.cluster_first[c + 1]);
            let (ea, eb) = (
                old_graph.edge_first[a as usize] as usize,
                old_graph.edge_first[b as usize] as usize,
            );
            intra_edges -= old_graph.edge_to[ea..eb]
                .iter()
                .filter(|t| (a..b).contains(*t))
                .count() as u64;
        }
        let mut span = Span {
            clusters: (first, end),
            old_nodes: (oa, ob),
            new_end: nb,
            old_edges: (ea, eb),
            old_codes: (pa, pb),
            edge_first: Vec::with_capacity((nb - na) as usize),
            edge_to: Vec::new(),
            costs: Vec::new(),
            edge_clear: Vec::new(),
            path_ends: Vec::new(),
            path_codes: Vec::new(),
            intra_edges,
            sized,
            keep_paths,
            old_clear: if sized {
                old_graph.edge_clear[ea..eb].to_vec()
            } else {
                Vec::new()
            },
        };
        let mut fresh_index = 0;
        let mut next_inter = 0usize;
        let mut order: Vec<u32> = Vec::new();
        let mut node_edges: Vec<NodeEdge> = Vec::new();
        let mut c = first;
        while c < end {
            if !fresh[c] {
                // A run of unchanged clusters: one block.
                let mut run_end = c;
                while !fresh[run_end] {
                    run_end += 1;
                }
                span.copy_run(h, new, (c, run_end), remap);
                c = run_end;
                continue;
            }
            // A repaired cluster: its inside edges grouped by source (stable).
            let na = new.cluster_first[c];
            let n = (new.cluster_first[c + 1] - na) as usize;
            let (ce, ce_clear) = (&intra[fresh_index], &intra_clear[fresh_index]);
            fresh_index += 1;
            order.clear();
            order.extend(0..ce.edges.len() as u32);
            order.sort_by_key(|k| ce.edges[*k as usize].from);
            let mut k = 0;
            for v in 0..n as u32 {
                span.edge_first.push(span.edge_index());
                node_edges.clear();
                while k < order.len() && ce.edges[order[k] as usize].from == v {
                    let e = &ce.edges[order[k] as usize];
                    let d = if sized {
                        ce_clear[order[k] as usize]
                    } else {
                        0
                    };
                    node_edges.push((std::cmp::Reverse(d), e.cost, na + e.to, e.path));
                    k += 1;
                }
                let node = na + v;
                while next_inter < inter.len() && inter[next_inter].0 == node {
                    let (_, to, d) = inter[next_inter];
                    let from_cell = new.cells[node as usize];
                    let cost = link_cost(grid, movement, from_cell, new.cells[to as usize]);
                    node_edges.push((std::cmp::Reverse(d), cost, to, (0, 0)));
                    next_inter += 1;
                }
                if sized {
                    node_edges.sort_unstable();
                }
                for &(std::cmp::Reverse(d), cost, to, path) in &node_edges {
                    span.edge_to.push(to);
                    span.costs.push(cost);
                    if sized {
                        span.edge_clear.push(d);
                    }
                    if keep_paths {
                        span.path_codes
                            .extend_from_slice(&ce.codes[path.0 as usize..path.1 as usize]);
                        span.path_ends.push((pa + span.path_codes.len()) as u32);
                    }
                }
            }
            c += 1;
        }
        Some(span)
    }

    /// Splices the per-node cells and anchors over `old` entrances the same
    /// way: the stretch's nodes in `new` order, those of a fresh cluster
    /// from their cells (their point on `grid`, their `anchor` in the
    /// dead-end forest), those of an unchanged cluster copied.
    pub(crate) fn splice_nodes(
        &self,
        old: &Entrances,
        new: &Entrances,
        fresh: &[bool],
        (grid, anchor): (&Grid, &dyn Fn(u32) -> (u32, u32)),
        (points, anchors): (&mut Vec<Point>, &mut Vec<(u32, u32)>),
    ) {
        let (first, end) = self.clusters;
        let mut new_points = Vec::new();
        let mut new_anchors = Vec::new();
        for (c, is_fresh) in fresh.iter().enumerate().take(end).skip(first) {
            if *is_fresh {
                for cell in new.cluster_cells(c as u32) {
                    new_points.push(grid.point_of(crate::CellIndex(*cell)));
                    new_anchors.push(anchor(*cell));
                }
            } else {
                let (a, b) = (
                    old.cluster_first[c] as usize,
                    old.cluster_first[c + 1] as usize,
                );
                new_points.extend_from_slice(&points[a..b]);
                new_anchors.extend_from_slice(&anchors[a..b]);
            }
        }
        let (oa, ob) = (self.old_nodes.0 as usize, self.old_nodes.1 as usize);
        points.splice(oa..ob, new_points);
        anchors.splice(oa..ob, new_anchors);
    }

    /// Whether the stretch lays out the very arcs it replaces in `graph`
    /// (before [`apply`](Self::apply)): the same node cells (`old` and `new`
    /// entrances), each node's out-edges to the same heads at the same costs
    /// and size annotations, so that the whole graph keeps its arcs and
    /// costs and only the moves behind edges may differ. What depends on
    /// the arcs and costs alone (a contraction) then holds after the splice.
    pub(crate) fn keeps_arcs(
        &self,
        graph: &ClusterGraph,
        old: &Entrances,
        new: &Entrances,
    ) -> bool {
        let (oa, ob) = (self.old_nodes.0 as usize, self.old_nodes.1 as usize);
        let (ea, eb) = self.old_edges;
        self.new_end as usize == ob
            && self.edge_to.len() == eb - ea
            && old.cells[oa..ob] == new.cells[oa..ob]
            && self.edge_first[..] == graph.edge_first[oa..ob]
            && self.edge_to[..] == graph.edge_to[ea..eb]
            && self
                .costs
                .iter()
                .enumerate()
                .all(|(k, c)| *c == graph.edge_cost.get(ea + k))
            && (!self.sized || self.edge_clear[..] == graph.edge_clear[ea..eb])
    }

    /// What the stretch replaces: its old edges (with their annotations)
    /// and its new nodes.
    pub(crate) fn replaced(&mut self) -> Spliced {
        Spliced {
            old_edges: self.old_edges.0..self.old_edges.1,
            new_nodes: self.old_nodes.0 as usize..self.new_end as usize,
            old_clear: std::mem::take(&mut self.old_clear),
        }
    }

    /// The final index of the next edge of the stretch.
    fn edge_index(&self) -> u32 {
        (self.old_edges.0 + self.edge_to.len()) as u32
    }

    /// Appends the nodes of unchanged clusters `first..end` (inside the
    /// stretch) from the old graph of `h`.
    fn copy_run(
        &mut self,
        h: &Hierarchy,
        new: &Entrances,
        (first, end): (usize, usize),
        remap: &[u32],
    ) {
        let (old, old_graph) = (h.entrances(), h.graph());
        let (oa, ob) = (
            old.cluster_first[first] as usize,
            old.cluster_first[end] as usize,
        );
        let (ea, eb) = (
            old_graph.edge_first[oa] as usize,
            old_graph.edge_first[ob] as usize,
        );
        let shift = self.edge_index().wrapping_sub(ea as u32);
        self.edge_first.extend(
            old_graph.edge_first[oa..ob]
                .iter()
                .map(|e| e.wrapping_add(shift)),
        );
        let start = self.edge_to.len();
        self.edge_to.extend_from_slice(&old_graph.edge_to[ea..eb]);
        RunShift::new(old, (first, end), new.cluster_first[first], remap)
            .apply_to(&mut self.edge_to[start..]);
        self.costs
            .extend((ea..eb).map(|e| old_graph.edge_cost.get(e)));
        if self.sized {
            self.edge_clear
                .extend_from_slice(&old_graph.edge_clear[ea..eb]);
        }
        if self.keep_paths {
            let (pa, pb) = (
                old_graph.path_first[ea] as usize,
                old_graph.path_first[eb] as usize,
            );
            let pshift =
                ((self.old_codes.0 + self.path_codes.len()) as u32).wrapping_sub(pa as u32);
            self.path_ends.extend(
                old_graph.path_first[ea + 1..=eb]
                    .iter()
                    .map(|p| p.wrapping_add(pshift)),
            );
            self.path_codes
                .extend_from_slice(&old_graph.path_codes[pa..pb]);
        }
    }

    /// Writes the stretch into `graph` (the old graph, over `old`
    /// entrances, with `cols` clusters per row): the stretch's part
    /// replaced, everything after it moved as one block with its node ids,
    /// edge and path offsets shifted, and the edges near the stretch (those
    /// of the clusters within a row of it, the only ones that can reach into
    /// it) renumbered through `remap`.
    pub(crate) fn apply(
        self,
        graph: &mut ClusterGraph,
        old: &Entrances,
        cols: usize,
        remap: &[u32],
    ) {
        let (first, end) = self.clusters;
        let (oa, ob) = self.old_nodes;
        let (ea, eb) = self.old_edges;
        let (pa, pb) = self.old_codes;
        let node_shift = self.new_end.wrapping_sub(ob);
        let new_eb = ea + self.edge_to.len();
        let edge_shift = (new_eb as u32).wrapping_sub(eb as u32);
        let code_shift = ((pa + self.path_codes.len()) as u32).wrapping_sub(pb as u32);
        // Ids: those before the stretch stay, those after it shift, those
        // in it go through the table.
        let ids = RunShift::from(ob, node_shift, remap);
        // Edges before the stretch that may reach into it or past it: those
        // of the clusters from a row (and one) before it; the rest only reach
        // nodes before the stretch.
        let near = old.cluster_first[first.saturating_sub(cols + 1)] as usize;
        ids.apply_to(&mut graph.edge_to[graph.edge_first[near] as usize..ea]);
        // Edges after the stretch that may reach into it: those of the
        // clusters within a row (and one) after it, up to `reach` (an old
        // edge index); the rest only reach nodes after the stretch.
        let near = old.cluster_first[(end + cols + 1).min(old.layout.count())] as usize;
        let reach = graph.edge_first[near] as usize;
        if node_shift == 0 && edge_shift == 0 {
            // Nothing after the stretch moves.
            ids.apply_to(&mut graph.edge_to[eb..reach]);
        } else {
            // After the stretch: moved, its ids renumbered where they land,
            // those past `reach` shifted unchecked.
            let far = reach.wrapping_add(edge_shift as i32 as usize);
            move_tail(&mut graph.edge_to, eb, new_eb, |at, moved| {
                if at >= far {
                    for id in moved {
                        *id = id.wrapping_add(node_shift);
                    }
                } else {
                    ids.apply_to(moved);
                }
            });
            move_tail(
                &mut graph.edge_first,
                ob as usize,
                self.new_end as usize,
                |_, moved| {
                    for e in moved {
                        *e = e.wrapping_add(edge_shift);
                    }
                },
            );
        }
        graph.edge_to[ea..new_eb].copy_from_slice(&self.edge_to);
        graph.edge_first[oa as usize..self.new_end as usize].copy_from_slice(&self.edge_first);
        write_costs(&mut graph.edge_cost, (ea, eb), &self.costs);
        if self.sized {
            graph.edge_clear.splice(ea..eb, self.edge_clear);
        }
        if self.keep_paths {
            if edge_shift != 0 || code_shift != 0 {
                move_tail(&mut graph.path_first, eb + 1, new_eb + 1, |_, moved| {
                    for p in moved {
                        *p = p.wrapping_add(code_shift);
                    }
                });
            }
            graph.path_first[ea + 1..=new_eb].copy_from_slice(&self.path_ends);
            graph.path_codes.splice(pa..pb, self.path_codes);
        }
        graph.intra_edges = self.intra_edges;
        graph.inter_edges = graph.edge_to.len() as u64 - self.intra_edges;
    }
}

/// Moves `v[from..]` to start at `to` (the vector grows or shrinks with
/// it), a chunk at a time, passing each chunk through `f` where it lands
/// (with the index it lands at) while it is still in cache. What lies between `min(from, to)` and `to`
/// afterwards is the caller's to write.
fn move_tail<T: Copy + Default>(
    v: &mut Vec<T>,
    from: usize,
    to: usize,
    mut f: impl FnMut(usize, &mut [T]),
) {
    // Small in tests, so that their maps' tails span many chunks.
    const CHUNK: usize = if cfg!(test) { 16 } else { 4096 };
    let len = v.len();
    if to > from {
        // Growing: from the back, so nothing is overwritten before it moves.
        let d = to - from;
        v.resize(len + d, T::default());
        let mut hi = len;
        while hi > from {
            let lo = hi.saturating_sub(CHUNK).max(from);
            v.copy_within(lo..hi, lo + d);
            f(lo + d, &mut v[lo + d..hi + d]);
            hi = lo;
        }
    } else {
        let d = from - to;
        let mut lo = from;
        while lo < len {
            let hi = (lo + CHUNK).min(len);
            v.copy_within(lo..hi, lo - d);
            f(lo - d, &mut v[lo - d..hi - d]);
            lo = hi;
        }
        v.truncate(len - d);
    }
}

/// Replaces `column[a..b]` by `costs`, keeping the column as the build
/// stores it (narrow whenever every cost fits in 32 bits).
fn write_costs(column: &mut Column64, (a, b): (usize, usize), costs: &[u64]) {
    let fits = |c: &u64| *c < u32::MAX as u64 || *c == u64::MAX;
    let narrow = |c: u64| if c == u64::MAX { u32::MAX } else { c as u32 };
    match column {
        Column64::Narrow(v) if costs.iter().all(fits) => {
            v.splice(a..b, costs.iter().map(|c| narrow(*c)));
        }
        Column64::Narrow(v) => {
            let mut wide: Vec<u64> = v
                .iter()
                .map(|x| if *x == u32::MAX { u64::MAX } else { *x as u64 })
                .collect();
            wide.splice(a..b, costs.iter().copied());
            *column = Column64::Wide(wide);
        }
        Column64::Wide(v) => {
            v.splice(a..b, costs.iter().copied());
            if v.iter().all(fits) {
                *column = Column64::pack(std::mem::take(v));
            }
        }
    }
}

/// The cost of the single move between two neighbouring cells (row-major).
fn link_cost(grid: &Grid, movement: &Movement, from: u32, to: u32) -> u64 {
    let w = grid.width();
    let (a, b) = (Point::new(from % w, from / w), Point::new(to % w, to / w));
    grid.step_cost(movement, a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_tail_keeps_the_head_and_maps_the_tail() {
        // Every length around a few chunks, moved forward, back and not at
        // all, each value mapped once on the way.
        for len in (0..3 * LANES + 3).chain([4095, 4096, 4097, 9000]) {
            for from in (0..=len).step_by(if len > 100 { 97 } else { 1 }) {
                for to in [
                    0,
                    1,
                    from.saturating_sub(LANES + 1),
                    from,
                    from + 1,
                    from + LANES + 5,
                ] {
                    let old: Vec<u32> = (0..len as u32).map(|x| x * 7 + 1).collect();
                    let mut got = old.clone();
                    move_tail(&mut got, from, to, |_, moved| {
                        for x in moved {
                            *x += 1000;
                        }
                    });
                    let what = format!("len {len} from {from} to {to}");
                    assert_eq!(got.len(), to + len - from, "{what}");
                    let head = from.min(to);
                    assert_eq!(got[..head], old[..head], "{what}");
                    let tail: Vec<u32> = old[from..].iter().map(|x| x + 1000).collect();
                    assert_eq!(got[to..], tail, "{what}");
                }
            }
        }
    }

    #[test]
    fn written_costs_stay_as_the_build_stores_them() {
        let big = u32::MAX as u64 + 5;
        // (column, range replaced, costs written there)
        type Case<'a> = (&'a [u64], (usize, usize), &'a [u64]);
        let cases: [Case; 5] = [
            (&[1, 2, 3, 4], (1, 3), &[7, 8, 9]),
            (&[1, 2, 3, 4], (1, 2), &[big]),
            (&[1, big, 3, 4], (1, 2), &[5]),
            (&[1, big, 3, big], (1, 2), &[5, 6]),
            (&[1, u64::MAX, 3], (0, 1), &[u64::MAX, 2]),
        ];
        for (old, (a, b), costs) in cases {
            let mut column = Column64::pack(old.to_vec());
            write_costs(&mut column, (a, b), costs);
            let mut want = old.to_vec();
            want.splice(a..b, costs.iter().copied());
            assert_eq!(
                column,
                Column64::pack(want),
                "{old:?} [{a}..{b}] <- {costs:?}"
            );
        }
    }

    #[test]
    fn renumbering_runs_are_the_longest_and_those_of_the_table() {
        use crate::preprocess::landmarks::runs_of;
        // An open map with a few walls: clusters of several transitions.
        let grid = Grid::from_fn(96, 80, |p| (p.x * 7 + p.y * 3) % 23 != 0).expect("a map");
        let h = Hierarchy::build(grid).expect("valid map");
        let old = h.entrances();
        let (n, clusters) = (old.cells.len(), old.layout.count());
        // Cluster `c` repaired, losing every `drop`-th of its transitions.
        let case = |c: usize, drop: usize| {
            let mut cells = Vec::new();
            let mut first = vec![0u32];
            for k in 0..clusters {
                let own = old.cluster_cells(k as u32);
                cells.extend(
                    (own.iter().enumerate())
                        .filter(|(i, _)| k != c || drop == 0 || i % drop != 0)
                        .map(|(_, cell)| *cell),
                );
                first.push(cells.len() as u32);
            }
            let fresh: Vec<bool> = (0..clusters).map(|k| k == c).collect();
            renumber(old, &cells, &first, &fresh)
        };
        for c in [0, clusters / 2, clusters - 1] {
            // Nothing moved: one run, which the table takes as no work.
            let (remap, _, runs) = case(c, 0);
            assert_eq!(runs, [(0, 0, n)], "cluster {c} kept");
            assert_eq!(runs_of(&remap), runs);
            for drop in [1, 2, 3] {
                let (remap, old_fresh, runs) = case(c, drop);
                assert_eq!(runs, runs_of(&remap), "cluster {c}, every {drop}th dropped");
                let own = old.cluster_first[c] as usize..old.cluster_first[c + 1] as usize;
                assert!((0..n).all(|i| old_fresh[i] == own.contains(&i)));
            }
        }
    }
}
