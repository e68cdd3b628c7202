//! The cluster graph written as its clusters are searched, a batch at a
//! time, straight into its final arrays.
//!
//! `assemble_graph` (kept for tests) takes every cluster's
//! edges at once, which on a 16,384 x 16,384 map means a million small
//! vectors (about 1.5 GB with their spare capacity, most of it left with the
//! allocator afterwards) and a per-edge table of path ranges (12 bytes an
//! edge) beside the graph. Nodes are numbered cluster by cluster, so the
//! compressed rows can instead be written in node order as each batch of
//! clusters comes back from the parallel searches: a node's inside edges in
//! its cluster's order, then its links in link order, exactly the layout
//! `assemble_graph` gives (a unit test compares the two).

use rayon::prelude::*;

use super::cluster_search::ClusterSearch;
use super::clusters::Entrances;
use super::graph::{ClusterEdges, ClusterGraph, intra_cluster_edges};
use crate::grid::{Grid, Movement};
use crate::packed::Column64;

/// Clusters searched per parallel batch, at most: enough for rayon to
/// balance two to a few dozen threads, small enough that a batch's edges
/// stay a few megabytes.
const BATCH: usize = 4096;
/// Smaller maps are cut into about this many batches (of at least
/// [`MIN_BATCH`] clusters), so that writing one overlaps searching the next.
const BATCHES: usize = 8;
const MIN_BATCH: usize = 256;

/// Edge costs, kept 32 bits wide until one does not fit (the packing
/// [`Column64::pack`] would choose for the whole column).
enum Costs {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Costs {
    fn push(&mut self, cost: u64) {
        match self {
            Costs::Narrow(v) if cost < u32::MAX as u64 || cost == u64::MAX => {
                v.push(if cost == u64::MAX {
                    u32::MAX
                } else {
                    cost as u32
                });
            }
            Costs::Narrow(v) => {
                let mut wide: Vec<u64> = Vec::with_capacity(v.capacity().max(v.len() + 1));
                wide.extend(
                    v.iter()
                        .map(|c| if *c == u32::MAX { u64::MAX } else { *c as u64 }),
                );
                wide.push(cost);
                *self = Costs::Wide(wide);
            }
            Costs::Wide(v) => v.push(cost),
        }
    }

    fn finish(self) -> Column64 {
        match self {
            Costs::Narrow(mut v) => {
                v.shrink_to_fit();
                Column64::Narrow(v)
            }
            Costs::Wide(mut v) => {
                v.shrink_to_fit();
                Column64::Wide(v)
            }
        }
    }
}

/// Computes the cluster graph (stage 4) batch by batch; the same graph as
/// `assemble_graph` (kept for tests) over every cluster's
/// [`intra_cluster_edges`].
///
/// # Performance
/// The searches of a batch run in parallel while the batch before is written
/// (one thread), so the writing, a fifth of the stage on an open 16,384 x
/// 16,384 map, no longer leaves the other cores idle.
pub(crate) fn stream_cluster_graph(
    grid: &Grid,
    movement: &Movement,
    entrances: &Entrances,
    keep_paths: bool,
) -> ClusterGraph {
    let layout = entrances.layout;
    let count = layout.count();
    let search = |clusters: std::ops::Range<usize>| -> Vec<ClusterEdges> {
        (clusters.start as u32..clusters.end as u32)
            .into_par_iter()
            .map_init(ClusterSearch::default, |search, c| {
                intra_cluster_edges(
                    grid,
                    movement,
                    &layout,
                    c,
                    entrances.cluster_cells(c),
                    keep_paths,
                    search,
                )
            })
            .collect()
    };
    let step = count.div_ceil(BATCHES).clamp(MIN_BATCH, BATCH);
    let mut out = GraphWriter::new(grid, movement, entrances, keep_paths);
    let mut next = search(0..step.min(count));
    let mut start = 0usize;
    while start < count {
        let end = (start + step).min(count);
        let batch = std::mem::take(&mut next);
        let ((), searched) = rayon::join(
            || out.write(start..end, &batch),
            || search(end..(end + step).min(count)),
        );
        next = searched;
        start = end;
    }
    out.finish()
}

/// The cluster graph's arrays, written in node order a batch of clusters at
/// a time.
struct GraphWriter<'a> {
    grid: &'a Grid,
    movement: &'a Movement,
    entrances: &'a Entrances,
    keep_paths: bool,
    /// Each node's links in link order, as compressed rows of targets.
    link_first: Vec<u32>,
    link_to: Vec<u32>,
    edge_first: Vec<u32>,
    edge_to: Vec<u32>,
    costs: Costs,
    path_first: Vec<u32>,
    path_codes: Vec<u8>,
    intra: u64,
    /// Per local node of a cluster: where its edges start in the cluster's
    /// order (a counting sort by source, reused).
    by_from: Vec<u32>,
    order: Vec<u32>,
}

impl<'a> GraphWriter<'a> {
    fn new(
        grid: &'a Grid,
        movement: &'a Movement,
        entrances: &'a Entrances,
        keep_paths: bool,
    ) -> Self {
        let nodes = entrances.cells.len();
        let (link_first, link_to) = entrances.link_rows(|_, _| {});
        GraphWriter {
            grid,
            movement,
            entrances,
            keep_paths,
            link_first,
            link_to,
            edge_first: Vec::with_capacity(nodes + 1),
            edge_to: Vec::new(),
            costs: Costs::Narrow(Vec::new()),
            path_first: if keep_paths { vec![0] } else { Vec::new() },
            path_codes: Vec::new(),
            intra: 0,
            by_from: Vec::new(),
            order: Vec::new(),
        }
    }

    /// The cost of the link `from -> to` (one move between neighbours).
    fn link_cost(&self, from: u32, to: u32) -> u64 {
        let cell = |n: u32| {
            self.grid
                .point_of(crate::CellIndex(self.entrances.cells[n as usize]))
        };
        let (pa, pb) = (cell(from), cell(to));
        debug_assert!(crate::search::legal_move(self.grid, self.movement, pa, pb));
        self.grid.step_cost(self.movement, pa, pb)
    }

    /// Writes the nodes of `clusters`, whose searches gave `batch`: each
    /// node's inside edges in its cluster's order, then its links.
    fn write(&mut self, clusters: std::ops::Range<usize>, batch: &[ClusterEdges]) {
        for (c, ce) in clusters.zip(batch) {
            let (a, b) = (
                self.entrances.cluster_first[c] as usize,
                self.entrances.cluster_first[c + 1] as usize,
            );
            let n = b - a;
            self.by_from.clear();
            self.by_from.resize(n + 1, 0);
            for e in &ce.edges {
                self.by_from[e.from as usize + 1] += 1;
            }
            for i in 0..n {
                self.by_from[i + 1] += self.by_from[i];
            }
            self.order.clear();
            self.order.resize(ce.edges.len(), 0);
            for (k, e) in ce.edges.iter().enumerate() {
                let slot = &mut self.by_from[e.from as usize];
                self.order[*slot as usize] = k as u32;
                *slot += 1;
            }
            self.intra += ce.edges.len() as u64;
            let mut k = 0usize;
            for v in a..b {
                self.edge_first.push(self.edge_to.len() as u32);
                // `by_from[i]` now ends node `i`'s run in `order`.
                let stop = self.by_from[v - a] as usize;
                for e in self.order[k..stop].iter().map(|k| &ce.edges[*k as usize]) {
                    self.edge_to.push(a as u32 + e.to);
                    self.costs.push(e.cost);
                    if self.keep_paths {
                        self.path_codes
                            .extend_from_slice(&ce.codes[e.path.0 as usize..e.path.1 as usize]);
                        self.path_first.push(self.path_codes.len() as u32);
                    }
                }
                k = stop;
                let links = self.link_first[v] as usize..self.link_first[v + 1] as usize;
                for i in links {
                    let to = self.link_to[i];
                    self.edge_to.push(to);
                    self.costs.push(self.link_cost(v as u32, to));
                    if self.keep_paths {
                        self.path_first.push(self.path_codes.len() as u32);
                    }
                }
            }
        }
    }

    fn finish(mut self) -> ClusterGraph {
        debug_assert_eq!(self.edge_first.len(), self.entrances.cells.len());
        self.edge_first.push(self.edge_to.len() as u32);
        let edges = self.edge_to.len() as u64;
        self.edge_to.shrink_to_fit();
        self.path_first.shrink_to_fit();
        self.path_codes.shrink_to_fit();
        ClusterGraph {
            edge_first: self.edge_first,
            edge_to: self.edge_to,
            edge_cost: self.costs.finish(),
            path_first: self.path_first,
            path_codes: self.path_codes,
            intra_edges: self.intra,
            inter_edges: edges - self.intra,
            edge_clear: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mapgen::{self, MapKind, MapParams};
    use crate::preprocess::graph::assemble_graph;
    use crate::preprocess::{EntrancePolicy, find_entrances};

    /// The old way: every cluster's edges, then one assembly.
    fn assembled(grid: &Grid, m: &Movement, e: &Entrances, keep: bool) -> ClusterGraph {
        let mut search = ClusterSearch::default();
        let per: Vec<ClusterEdges> = (0..e.layout.count() as u32)
            .map(|c| {
                intra_cluster_edges(grid, m, &e.layout, c, e.cluster_cells(c), keep, &mut search)
            })
            .collect();
        assemble_graph(grid, m, e, &per, keep)
    }

    #[test]
    fn same_graph_as_the_assembly() {
        let params = MapParams::default();
        let mut compared = 0;
        for kind in MapKind::ALL {
            for seed in 0..3 {
                let g = mapgen::generate_with(kind, 97, 83, seed, &params).unwrap();
                for m in Movement::every_rule() {
                    for (size, keep) in [(8, true), (16, false), (5, true)] {
                        let e = find_entrances(&g, &m, size, &EntrancePolicy::default());
                        let streamed = stream_cluster_graph(&g, &m, &e, keep);
                        let old = assembled(&g, &m, &e, keep);
                        assert_eq!(streamed, old, "{kind:?} seed {seed} {m:?} size {size}");
                        assert_eq!(streamed.memory_bytes(), old.memory_bytes());
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 0);
    }

    #[test]
    fn wide_costs_switch_the_column() {
        let mut c = Costs::Narrow(Vec::new());
        for x in [1, u64::MAX, 7] {
            c.push(x);
        }
        assert!(matches!(c.finish(), Column64::Narrow(ref v) if v == &[1, u32::MAX, 7]));
        let mut c = Costs::Narrow(Vec::new());
        for x in [1, u32::MAX as u64, 7, u64::MAX] {
            c.push(x);
        }
        let want = Column64::pack(vec![1, u32::MAX as u64, 7, u64::MAX]);
        assert_eq!(c.finish(), want);
    }
}
