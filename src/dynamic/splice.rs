//! Reassembling the cluster graph after a repair without touching what did
//! not change.
//!
//! Nodes are numbered cluster by cluster, so the nodes and edges of a run of
//! unchanged clusters form one contiguous block in the old arrays and one in
//! the new: the block is copied whole (targets renumbered through a table,
//! path offsets shifted by a constant). Only the repaired clusters' nodes are
//! laid out edge by edge, in the build's order (inside edges in the
//! cluster's order, then inter-cluster edges by ascending target; with
//! several unit sizes, all of a node's edges by annotation, largest first,
//! then by cost and target), so the result equals what the build's assembly
//! gives.

use crate::grid::Grid;
use crate::hierarchy::Hierarchy;
use crate::packed::Column64;
use crate::preprocess::graph::ClusterEdges;
use crate::preprocess::{ClusterGraph, Entrances};
use crate::{Movement, Point};

/// A cost column being written: narrow while every cost fits in 32 bits.
enum Costs {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Costs {
    fn widen(&mut self) -> &mut Vec<u64> {
        if let Costs::Narrow(v) = self {
            *self = Costs::Wide(
                v.iter()
                    .map(|x| if *x == u32::MAX { u64::MAX } else { *x as u64 })
                    .collect(),
            );
        }
        match self {
            Costs::Wide(v) => v,
            Costs::Narrow(_) => unreachable!("just widened"),
        }
    }

    fn push(&mut self, cost: u64) {
        match self {
            Costs::Narrow(v) if cost < u32::MAX as u64 => v.push(cost as u32),
            _ => self.widen().push(cost),
        }
    }

    fn copy(&mut self, from: &Column64, a: usize, b: usize) {
        match (&mut *self, from) {
            (Costs::Narrow(v), Column64::Narrow(src)) => v.extend_from_slice(&src[a..b]),
            (Costs::Wide(v), Column64::Wide(src)) => v.extend_from_slice(&src[a..b]),
            _ => {
                let v = self.widen();
                v.extend((a..b).map(|e| from.get(e)));
            }
        }
    }

    /// As the build stores it (narrow whenever every cost fits).
    fn finish(self) -> Column64 {
        match self {
            Costs::Narrow(v) => Column64::Narrow(v),
            Costs::Wide(v) => Column64::pack(v),
        }
    }
}

/// Old node -> new node (`u32::MAX` for a node gone), and whether each old
/// node lies in a `fresh` cluster. Nodes of unchanged clusters shift as a
/// block; those of fresh clusters are matched by cell.
pub(crate) fn renumber(
    old: &Entrances,
    new_cells: &[u32],
    new_first: &[u32],
    fresh: &[bool],
) -> (Vec<u32>, Vec<bool>) {
    let mut remap = vec![u32::MAX; old.cells.len()];
    let mut old_fresh = vec![false; old.cells.len()];
    for (c, is_fresh) in fresh.iter().enumerate() {
        let (oa, ob) = (
            old.cluster_first[c] as usize,
            old.cluster_first[c + 1] as usize,
        );
        let (na, nb) = (new_first[c] as usize, new_first[c + 1] as usize);
        if !is_fresh {
            for (i, r) in remap[oa..ob].iter_mut().enumerate() {
                *r = (na + i) as u32;
            }
            continue;
        }
        old_fresh[oa..ob].fill(true);
        let (mut i, mut j) = (oa, na);
        while i < ob && j < nb {
            match old.cells[i].cmp(&new_cells[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    remap[i] = j as u32;
                    i += 1;
                    j += 1;
                }
            }
        }
    }
    (remap, old_fresh)
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

/// The graph over `new` entrances: clusters with `fresh[c]` laid out from
/// their inside edges (`intra`, one per fresh cluster in order, with their
/// annotations in `intra_clear` when built for several sizes) and the
/// links, the others copied from the graph of `h` (whose grid is already
/// the changed one) through `remap` (see [`renumber`]).
pub(crate) fn splice_graph(
    h: &Hierarchy,
    new: &Entrances,
    fresh: &[bool],
    remap: &[u32],
    intra: &[ClusterEdges],
    intra_clear: &[Vec<u8>],
) -> ClusterGraph {
    let sized = h.sizes().is_some();
    let (grid, movement) = (h.grid(), &h.settings().movement);
    let keep_paths = h.settings().keep_paths;
    let (old, old_graph) = (h.entrances(), h.graph());
    let clusters = new.layout.count();
    let new_n = new.cells.len();
    let mut fresh_node = vec![false; new_n];
    for c in (0..clusters).filter(|c| fresh[*c]) {
        fresh_node[new.cluster_first[c] as usize..new.cluster_first[c + 1] as usize].fill(true);
    }
    // Inter-cluster edges out of fresh nodes, by source then target, with
    // the largest size that can make the move (0 for one size).
    let mut inter: Vec<(u32, u32, u8)> = Vec::new();
    for (i, (a, b)) in new.links.iter().enumerate() {
        let d = if sized { new.link_clear[i] } else { 0 };
        if fresh_node[*a as usize] {
            inter.push((*a, *b, d));
        }
        if fresh_node[*b as usize] {
            inter.push((*b, *a, d));
        }
    }
    inter.sort_unstable();

    let mut edge_first = Vec::with_capacity(new_n + 1);
    let mut edge_to = Vec::with_capacity(old_graph.edge_to.len() + 64);
    let mut costs = match old_graph.edge_cost {
        Column64::Narrow(_) => Costs::Narrow(Vec::with_capacity(edge_to.capacity())),
        Column64::Wide(_) => Costs::Wide(Vec::with_capacity(edge_to.capacity())),
    };
    let mut edge_clear = Vec::new();
    if sized {
        edge_clear.reserve(edge_to.capacity());
    }
    let mut path_first = Vec::new();
    let mut path_codes = Vec::new();
    if keep_paths {
        path_first.reserve(edge_to.capacity() + 1);
        path_first.push(0u32);
        path_codes.reserve(old_graph.path_codes.len() + 256);
    }
    // Inside edges: the old count, less the fresh clusters' old ones, plus
    // their new ones.
    let mut intra_count =
        old_graph.intra_edges + intra.iter().map(|ce| ce.edges.len() as u64).sum::<u64>();
    for c in (0..clusters).filter(|c| fresh[*c]) {
        let (a, b) = (old.cluster_first[c], old.cluster_first[c + 1]);
        let (ea, eb) = (
            old_graph.edge_first[a as usize] as usize,
            old_graph.edge_first[b as usize] as usize,
        );
        intra_count -= old_graph.edge_to[ea..eb]
            .iter()
            .filter(|t| (a..b).contains(*t))
            .count() as u64;
    }
    let mut fresh_index = 0;
    let mut next_inter = 0usize;
    let mut order: Vec<u32> = Vec::new();
    let mut node_edges: Vec<NodeEdge> = Vec::new();
    let mut c = 0;
    while c < clusters {
        if !fresh[c] {
            // A run of unchanged clusters: one block.
            let mut end = c;
            while end < clusters && !fresh[end] {
                end += 1;
            }
            let (oa, ob) = (
                old.cluster_first[c] as usize,
                old.cluster_first[end] as usize,
            );
            let (ea, eb) = (
                old_graph.edge_first[oa] as usize,
                old_graph.edge_first[ob] as usize,
            );
            let shift = edge_to.len() as i64 - ea as i64;
            edge_first.extend(
                old_graph.edge_first[oa..ob]
                    .iter()
                    .map(|e| (*e as i64 + shift) as u32),
            );
            edge_to.extend(old_graph.edge_to[ea..eb].iter().map(|t| remap[*t as usize]));
            costs.copy(&old_graph.edge_cost, ea, eb);
            if sized {
                edge_clear.extend_from_slice(&old_graph.edge_clear[ea..eb]);
            }
            if keep_paths {
                let (pa, pb) = (
                    old_graph.path_first[ea] as usize,
                    old_graph.path_first[eb] as usize,
                );
                let pshift = path_codes.len() as i64 - pa as i64;
                path_first.extend(
                    old_graph.path_first[ea + 1..=eb]
                        .iter()
                        .map(|p| (*p as i64 + pshift) as u32),
                );
                path_codes.extend_from_slice(&old_graph.path_codes[pa..pb]);
            }
            c = end;
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
            edge_first.push(edge_to.len() as u32);
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
                edge_to.push(to);
                costs.push(cost);
                if sized {
                    edge_clear.push(d);
                }
                if keep_paths {
                    path_codes.extend_from_slice(&ce.codes[path.0 as usize..path.1 as usize]);
                    path_first.push(path_codes.len() as u32);
                }
            }
        }
        c += 1;
    }
    edge_first.push(edge_to.len() as u32);
    let edges = edge_to.len() as u64;
    ClusterGraph {
        edge_first,
        edge_to,
        edge_cost: costs.finish(),
        path_first,
        path_codes,
        edge_clear,
        intra_edges: intra_count,
        inter_edges: edges - intra_count,
    }
}

/// The cost of the single move between two neighbouring cells (row-major).
fn link_cost(grid: &Grid, movement: &Movement, from: u32, to: u32) -> u64 {
    let w = grid.width();
    let (a, b) = (Point::new(from % w, from / w), Point::new(to % w, to / w));
    grid.step_cost(movement, a, b)
}
