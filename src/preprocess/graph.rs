//! Stage 4: the cluster graph, the abstract graph the planner searches.
//!
//! Its nodes are the transition cells of stage 3. Inside each cluster, two
//! transitions are joined by an edge whose cost is the exact least cost
//! between them *within the cluster*. On uniformly weighted ground a pair
//! joined by a free straight route costs the octile distance and needs no
//! search; the other pairs are settled by searches from a small vertex cover
//! of them (see `cluster_search`), run in parallel across clusters with
//! rayon. An edge that another transition matches exactly
//! (`c(i, k) + c(k, j) == c(i, j)`) is dropped: the graph's distances do not
//! change. Each inter-cluster link of stage 3 becomes a pair of edges, one per
//! direction. When paths are kept, the moves behind each edge a search
//! settled (no straight route joins its ends) are stored at one byte per
//! move, so refining a route through it is a copy.
//!
//! # Layout
//! Compressed sparse rows: the out-edges of node `v` are
//! `edge_to[edge_first[v]..edge_first[v + 1]]` with their costs alongside.
//! No per-node allocation, no hashing.

use super::cluster_search::{ClusterSearch, next_source};
use super::clusters::{ClusterLayout, Entrances};
use crate::engine::route;
use crate::grid::{Grid, Movement, Point, Weight, direction_code, opposite_direction};
use crate::packed::Column64;

/// The abstract graph, the product of stage 4.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClusterGraph {
    /// Out-edge ranges per node: `edge_first.len() == nodes + 1`.
    pub(crate) edge_first: Vec<u32>,
    /// Edge targets.
    pub(crate) edge_to: Vec<u32>,
    /// Edge costs, exact.
    pub(crate) edge_cost: Column64,
    /// When kept: the moves behind each edge, as direction codes (see
    /// `grid::DIRECTIONS`), one byte per move:
    /// `path_codes[path_first[e]..path_first[e + 1]]`. Empty for an edge that
    /// is a single move or a straight route (those are rebuilt at no cost).
    pub(crate) path_first: Vec<u32>,
    pub(crate) path_codes: Vec<u8>,
    /// Edges inside clusters.
    pub(crate) intra_edges: u64,
    /// Edges between clusters.
    pub(crate) inter_edges: u64,
    /// Built for several unit sizes: per edge, the largest size it serves;
    /// a node's edges are sorted by it, largest first (empty otherwise).
    pub(crate) edge_clear: Vec<u8>,
}

impl ClusterGraph {
    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.edge_to.len()
    }

    /// Edges inside clusters (between two transitions of one cluster).
    pub fn intra_edges(&self) -> u64 {
        self.intra_edges
    }

    /// Edges between clusters.
    pub fn inter_edges(&self) -> u64 {
        self.inter_edges
    }

    /// Whether the cell paths behind the edges are kept.
    pub fn has_paths(&self) -> bool {
        !self.path_first.is_empty()
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.edge_first.len() + self.edge_to.len() + self.path_first.len())
            + self.path_codes.len()
            + self.edge_clear.len()
            + self.edge_cost.memory_bytes()
    }

    /// The out-edges of node `v`: `(target, cost)`.
    #[inline]
    pub(crate) fn out_edges(&self, v: u32) -> GraphEdges<'_> {
        GraphEdges {
            g: self,
            e: self.edge_first[v as usize] as usize,
            end: self.edge_first[v as usize + 1] as usize,
        }
    }

    /// The moves behind edge `e` as direction codes, when stored (not for
    /// single moves and straight routes, nor when paths are not kept).
    pub(crate) fn edge_path(&self, e: usize) -> Option<&[u8]> {
        if self.path_first.is_empty() {
            return None;
        }
        let codes = &self.path_codes[self.path_first[e] as usize..self.path_first[e + 1] as usize];
        (!codes.is_empty()).then_some(codes)
    }
}

/// The out-edges of a node: `(target, cost, edge)`.
#[derive(Debug, Clone)]
pub(crate) struct GraphEdges<'a> {
    g: &'a ClusterGraph,
    e: usize,
    end: usize,
}

impl Iterator for GraphEdges<'_> {
    type Item = (u32, u64, usize);

    #[inline]
    fn next(&mut self) -> Option<(u32, u64, usize)> {
        (self.e < self.end).then(|| {
            let e = self.e;
            self.e += 1;
            (self.g.edge_to[e], self.g.edge_cost.get(e), e)
        })
    }
}

/// One edge inside a cluster, between two of its transitions (indices into
/// the cluster's transition list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LocalEdge {
    pub(crate) from: u32,
    pub(crate) to: u32,
    pub(crate) cost: u64,
    /// The moves behind it: `codes[path.0..path.1]` of its [`ClusterEdges`]
    /// (empty when not kept or a straight route).
    pub(crate) path: (u32, u32),
}

/// The edges inside one cluster, the unit the graph is built (and repaired)
/// from. Indices are local, so a cluster's edges stay valid when the node
/// numbering of other clusters shifts.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ClusterEdges {
    pub(crate) edges: Vec<LocalEdge>,
    pub(crate) codes: Vec<u8>,
}

impl ClusterEdges {
    fn push(&mut self, from: u32, to: u32, cost: u64, path: impl IntoIterator<Item = u8>) {
        let start = self.codes.len() as u32;
        self.codes.extend(path);
        self.edges.push(LocalEdge {
            from,
            to,
            cost,
            path: (start, self.codes.len() as u32),
        });
    }
}

/// Computes the cluster graph (stage 4).
///
/// # Performance
/// Clusters are searched in parallel batches and their edges written
/// straight into the compressed rows (see `graph_stream`): the build holds
/// the graph and one batch of clusters' edges, not every cluster's edges
/// beside the graph.
pub fn build_cluster_graph(
    grid: &Grid,
    movement: &Movement,
    entrances: &Entrances,
    keep_paths: bool,
) -> ClusterGraph {
    super::graph_stream::stream_cluster_graph(grid, movement, entrances, keep_paths)
}

/// The graph in CSR form from each cluster's inside edges and the
/// inter-cluster links. A node's edges are its inside ones (in the cluster's
/// order), then one per link, in link order. The reference the streamed
/// build is tested against.
#[cfg(test)]
pub(crate) fn assemble_graph(
    grid: &Grid,
    movement: &Movement,
    entrances: &Entrances,
    per_cluster: &[ClusterEdges],
    keep_paths: bool,
) -> ClusterGraph {
    let nodes = entrances.cells.len();
    let first_of = |c: usize| entrances.cluster_first[c];
    let mut edge_first = vec![0u32; nodes + 1];
    for (c, ce) in per_cluster.iter().enumerate() {
        for e in &ce.edges {
            edge_first[(first_of(c) + e.from) as usize + 1] += 1;
        }
    }
    for (a, b) in &entrances.links {
        edge_first[*a as usize + 1] += 1;
        edge_first[*b as usize + 1] += 1;
    }
    for i in 0..nodes {
        edge_first[i + 1] += edge_first[i];
    }
    let edges = edge_first[nodes] as usize;
    let mut slot: Vec<u32> = edge_first[..nodes].to_vec();
    let mut edge_to = vec![0u32; edges];
    let mut edge_cost = vec![0u64; edges];
    // Per edge: (cluster, code range) when it has a stored path.
    let mut path_of: Vec<(u32, u32, u32)> = if keep_paths {
        vec![(0, 0, 0); edges]
    } else {
        Vec::new()
    };
    for (c, ce) in per_cluster.iter().enumerate() {
        let a = first_of(c);
        for e in &ce.edges {
            let k = &mut slot[(a + e.from) as usize];
            edge_to[*k as usize] = a + e.to;
            edge_cost[*k as usize] = e.cost;
            if keep_paths {
                path_of[*k as usize] = (c as u32, e.path.0, e.path.1);
            }
            *k += 1;
        }
    }
    let intra = edges - 2 * entrances.links.len();
    for (a, b) in &entrances.links {
        for (from, to) in [(*a, *b), (*b, *a)] {
            let (pa, pb) = (
                grid.point_of(crate::CellIndex(entrances.cells[from as usize])),
                grid.point_of(crate::CellIndex(entrances.cells[to as usize])),
            );
            // One legal move (stage 3 links only those): its base cost times
            // the weight of the cell entered.
            debug_assert!(crate::search::legal_move(grid, movement, pa, pb));
            let k = &mut slot[from as usize];
            edge_to[*k as usize] = to;
            edge_cost[*k as usize] = grid.step_cost(movement, pa, pb);
            *k += 1;
        }
    }
    let mut path_first = Vec::new();
    let mut path_codes = Vec::new();
    if keep_paths {
        path_first.reserve(edges + 1);
        path_first.push(0);
        let total: usize = path_of.iter().map(|(_, s, e)| (e - s) as usize).sum();
        path_codes.reserve(total);
        for (c, s, e) in &path_of {
            path_codes.extend_from_slice(&per_cluster[*c as usize].codes[*s as usize..*e as usize]);
            path_first.push(path_codes.len() as u32);
        }
    }
    ClusterGraph {
        edge_first,
        edge_to,
        edge_cost: Column64::pack(edge_cost),
        path_first,
        path_codes,
        intra_edges: intra as u64,
        inter_edges: (edges - intra) as u64,
        edge_clear: Vec::new(),
    }
}

impl ClusterGraph {
    /// The inside edges of cluster `c`, read back from the assembled graph
    /// (the inverse of the first half of `assemble_graph`, the test-only
    /// reference build).
    pub(crate) fn cluster_edges(&self, entrances: &Entrances, c: u32) -> ClusterEdges {
        let (a, b) = (
            entrances.cluster_first[c as usize],
            entrances.cluster_first[c as usize + 1],
        );
        let mut out = ClusterEdges::default();
        for v in a..b {
            for (to, cost, e) in self.out_edges(v) {
                if (a..b).contains(&to) {
                    let codes = self.edge_path(e).unwrap_or(&[]);
                    out.push(v - a, to - a, cost, codes.iter().copied());
                }
            }
        }
        out
    }
}

/// The weight every passable cell of `local` shares, if they all share one.
fn uniform_weight(local: &Grid) -> Option<Weight> {
    let mut weights = local.passable_points().map(|p| local.weight(p));
    let first = weights.next()?;
    weights.all(|w| w == first).then_some(first)
}

/// The exact inside edges of one cluster between its transition `cells`.
pub(crate) fn intra_cluster_edges(
    grid: &Grid,
    movement: &Movement,
    layout: &ClusterLayout,
    cluster: u32,
    cells: &[u32],
    keep_paths: bool,
    search: &mut ClusterSearch,
) -> ClusterEdges {
    let mut out = ClusterEdges::default();
    if cells.len() < 2 {
        return out;
    }
    let bounds = layout.bounds(cluster);
    let point = |c: u32| grid.point_of(crate::CellIndex(c));

    // Search a copy of the cluster: its padding is the cluster's edge, so the
    // search needs no region test, and its scratch stays in cache.
    let (x0, y0, x1, y1) = bounds;
    let local = grid.window(x0, y0, x1, y1);
    let to_local = |c: u32| {
        let p = point(c);
        local.node(Point::new(p.x - x0, p.y - y0))
    };
    // Unweighted costs are symmetric: search from each node to the later ones
    // only, and mirror.
    let symmetric = !local.is_weighted();
    let nodes: Vec<_> = cells.iter().map(|c| to_local(*c)).collect();
    let points: Vec<Point> = nodes.iter().map(|n| local.point(*n)).collect();
    // On uniformly weighted ground, a pair joined by a free octile route costs
    // the octile distance: no search, and no path to keep.
    let shortcut = uniform_weight(&local);
    let open_cluster = local.passable_count() == local.len();
    let n = nodes.len();
    let push = |out: &mut ClusterEdges, i: usize, j: usize, cost: u64, path: &[u8]| {
        if symmetric {
            // The way back: the moves reversed, each turned around.
            let back = path.iter().rev().map(|c| opposite_direction(*c));
            out.push(j as u32, i as u32, cost, back);
        }
        out.push(i as u32, j as u32, cost, path.iter().copied());
    };
    // Pairs no straight route settles, as a row-major n x n table (both
    // orders set when symmetric).
    let mut unresolved = vec![false; n * n];
    for i in 0..n {
        for j in 0..n {
            if j == i || (symmetric && j < i) {
                continue;
            }
            let direct = shortcut.filter(|_| {
                // In a cluster without walls every straight route is free.
                open_cluster
                    || route::SHAPES.into_iter().any(|shape| {
                        route::is_free(
                            &crate::engine::Plain::new(&local, movement),
                            points[i],
                            points[j],
                            shape,
                        )
                    })
            });
            match direct {
                Some(w) => {
                    let (pi, pj) = (points[i], points[j]);
                    let d = movement
                        .distance(pi.x.abs_diff(pj.x), pi.y.abs_diff(pj.y))
                        .0;
                    push(&mut out, i, j, d / Weight::ONE.0 as u64 * w.0 as u64, &[]);
                }
                None => {
                    unresolved[i * n + j] = true;
                    if symmetric {
                        unresolved[j * n + i] = true;
                    }
                }
            }
        }
    }
    // Search from the node with the most unresolved partners first: on a
    // symmetric map one search settles every pair it is part of, so the
    // searches form a small vertex cover of the unresolved pairs.
    let mut trace = Vec::new();
    let mut path = Vec::new();
    let mut targets = Vec::new();
    let mut target_nodes = Vec::new();
    while let Some(i) = next_source(&unresolved, n, symmetric) {
        targets.clear();
        targets.extend((0..n).filter(|j| unresolved[i * n + j]));
        target_nodes.clear();
        target_nodes.extend(targets.iter().map(|j| nodes[*j]));
        search.run(&local, movement, nodes[i], &target_nodes);
        for j in targets.iter().copied() {
            unresolved[i * n + j] = false;
            if symmetric {
                unresolved[j * n + i] = false;
            }
            let node = nodes[j];
            let Some(cost) = search.cost(node) else {
                continue; // not connected inside the cluster
            };
            path.clear();
            // Keep the path of every searched pair: no straight route joins
            // its ends, so refining it again would take a search (on the long
            // StarCraft queries of issue #13 those searches were most of the
            // refinement's work), while its moves cost a byte each.
            if keep_paths {
                trace.clear();
                search.trace(node, &mut trace);
                path.extend(trace.windows(2).map(|w| {
                    let (p, q) = (local.point(w[0]), local.point(w[1]));
                    direction_code(q.x as i64 - p.x as i64, q.y as i64 - p.y as i64)
                }));
            }
            push(&mut out, i, j, cost, &path);
        }
    }
    drop_dominated(&mut out.edges, n);
    out
}

/// Removes every edge `i -> j` whose cost another transition `k` of the
/// cluster matches exactly (`c(i, k) + c(k, j) == c(i, j)`): the search can
/// go through `k` at the same cost. Costs are positive, so the edges that
/// dominate are strictly cheaper, and by induction on cost every distance in
/// the graph survives even when all dominated edges go at once. On maps with
/// many small entrances (random obstacles) this removes most edges.
fn drop_dominated(edges: &mut Vec<LocalEdge>, n: usize) {
    if n < 3 {
        return;
    }
    let mut cost = vec![u64::MAX; n * n];
    for e in edges.iter() {
        cost[e.from as usize * n + e.to as usize] = e.cost;
    }
    let mut dominated = vec![false; n * n];
    for i in 0..n {
        for k in 0..n {
            let ik = cost[i * n + k];
            if k == i || ik == u64::MAX {
                continue;
            }
            for j in 0..n {
                let (kj, ij) = (cost[k * n + j], cost[i * n + j]);
                if j != i && j != k && kj != u64::MAX && ij != u64::MAX && ik + kj == ij {
                    dominated[i * n + j] = true;
                }
            }
        }
    }
    edges.retain(|e| !dominated[e.from as usize * n + e.to as usize]);
}
