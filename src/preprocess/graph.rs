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
//! direction. When paths are kept, the moves behind each winding edge are
//! stored at one byte per move, so refining a route through it is a copy.
//!
//! # Layout
//! Compressed sparse rows: the out-edges of node `v` are
//! `edge_to[edge_first[v]..edge_first[v + 1]]` with their costs alongside.
//! No per-node allocation, no hashing.

use rayon::prelude::*;

use super::cluster_search::ClusterSearch;
use super::clusters::Entrances;
use crate::grid::{Grid, Movement, Point, Weight, direction_code, opposite_direction};
use crate::packed::Column64;
use crate::search::route;

/// The abstract graph, the product of stage 4.
#[derive(Debug, Clone, PartialEq, Eq)]
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
            + self.edge_cost.memory_bytes()
    }

    /// The out-edges of node `v`: `(target, cost)`.
    #[inline]
    pub(crate) fn out_edges(&self, v: u32) -> impl Iterator<Item = (u32, u64, usize)> + '_ {
        let (a, b) = (
            self.edge_first[v as usize] as usize,
            self.edge_first[v as usize + 1] as usize,
        );
        (a..b).map(move |e| (self.edge_to[e], self.edge_cost.get(e), e))
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

/// One edge before assembly.
struct RawEdge {
    from: u32,
    to: u32,
    cost: u64,
    /// Direction codes of the moves, when kept and not a straight route.
    path: Vec<u8>,
}

/// Computes the cluster graph (stage 4).
pub fn build_cluster_graph(
    grid: &Grid,
    movement: &Movement,
    entrances: &Entrances,
    keep_paths: bool,
) -> ClusterGraph {
    let layout = entrances.layout;
    let nodes = entrances.cells.len();
    let per_cluster: Vec<Vec<RawEdge>> = (0..layout.count() as u32)
        .into_par_iter()
        .map_init(ClusterSearch::default, |search, c| {
            intra_cluster_edges(grid, movement, entrances, c, keep_paths, search)
        })
        .collect();
    let intra: usize = per_cluster.iter().map(Vec::len).sum();

    let mut raw: Vec<RawEdge> = per_cluster.into_iter().flatten().collect();
    for (a, b) in &entrances.links {
        for (from, to) in [(*a, *b), (*b, *a)] {
            let (pa, pb) = (
                grid.point_of(crate::CellIndex(entrances.cells[from as usize])),
                grid.point_of(crate::CellIndex(entrances.cells[to as usize])),
            );
            // One legal move (stage 3 links only those): its base cost times
            // the weight of the cell entered.
            debug_assert!(crate::search::legal_move(grid, movement, pa, pb));
            let base = if pa.x != pb.x && pa.y != pb.y {
                movement.diagonal
            } else {
                movement.straight
            };
            let cost = base as u64 * grid.weight(pb).0 as u64;
            raw.push(RawEdge {
                from,
                to,
                cost,
                path: Vec::new(),
            });
        }
    }
    let inter = raw.len() - intra;
    // A counting sort by source (stable: each node's intra edges stay before
    // its inter ones).
    let mut edge_first = vec![0u32; nodes + 1];
    for e in &raw {
        edge_first[e.from as usize + 1] += 1;
    }
    for i in 0..nodes {
        edge_first[i + 1] += edge_first[i];
    }
    let mut slot: Vec<u32> = edge_first[..nodes].to_vec();
    let mut order = vec![0u32; raw.len()];
    for (k, e) in raw.iter().enumerate() {
        order[slot[e.from as usize] as usize] = k as u32;
        slot[e.from as usize] += 1;
    }
    let mut taken: Vec<Option<RawEdge>> = raw.into_iter().map(Some).collect();
    let raw = order
        .iter()
        .map(|k| taken[*k as usize].take().expect("each edge placed once"));
    let mut path_first = Vec::new();
    let mut path_codes = Vec::new();
    if keep_paths {
        path_first.reserve(order.len() + 1);
        path_first.push(0);
    }
    let mut edge_to = Vec::with_capacity(order.len());
    let mut edge_cost = Vec::with_capacity(order.len());
    for e in raw {
        edge_to.push(e.to);
        edge_cost.push(e.cost);
        if keep_paths {
            path_codes.extend_from_slice(&e.path);
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
        inter_edges: inter as u64,
    }
}

/// The weight every passable cell of `local` shares, if they all share one.
fn uniform_weight(local: &Grid) -> Option<Weight> {
    let mut weights = local.passable_points().map(|p| local.weight(p));
    let first = weights.next()?;
    weights.all(|w| w == first).then_some(first)
}

fn intra_cluster_edges(
    grid: &Grid,
    movement: &Movement,
    entrances: &Entrances,
    cluster: u32,
    keep_paths: bool,
    search: &mut ClusterSearch,
) -> Vec<RawEdge> {
    let (a, b) = (
        entrances.cluster_first[cluster as usize],
        entrances.cluster_first[cluster as usize + 1],
    );
    let mut out = Vec::new();
    if b - a < 2 {
        return out;
    }
    let bounds = entrances.layout.bounds(cluster);
    let cells = &entrances.cells[a as usize..b as usize];
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
    let push = |out: &mut Vec<RawEdge>, i: usize, j: usize, cost: u64, path: Vec<u8>| {
        if symmetric {
            // The way back: the moves reversed, each turned around.
            let back = path.iter().rev().map(|c| opposite_direction(*c)).collect();
            out.push(RawEdge {
                from: a + j as u32,
                to: a + i as u32,
                cost,
                path: back,
            });
        }
        out.push(RawEdge {
            from: a + i as u32,
            to: a + j as u32,
            cost,
            path,
        });
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
                    || route::SHAPES
                        .into_iter()
                        .any(|shape| route::is_free(&local, movement, points[i], points[j], shape))
            });
            match direct {
                Some(w) => {
                    let (pi, pj) = (points[i], points[j]);
                    let d = movement
                        .distance(pi.x.abs_diff(pj.x), pi.y.abs_diff(pj.y))
                        .0;
                    push(
                        &mut out,
                        i,
                        j,
                        d / Weight::ONE.0 as u64 * w.0 as u64,
                        Vec::new(),
                    );
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
    let mut targets = Vec::new();
    let mut target_nodes = Vec::new();
    let min_weight = local.min_weight();
    loop {
        let count = |i: usize| {
            unresolved[i * n..(i + 1) * n]
                .iter()
                .filter(|u| **u)
                .count()
        };
        let source = if symmetric {
            (0..n).max_by_key(|i| (count(*i), std::cmp::Reverse(*i)))
        } else {
            (0..n).find(|i| count(*i) > 0)
        };
        let Some(i) = source.filter(|i| count(*i) > 0) else {
            break;
        };
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
            let mut path = Vec::new();
            // Keep the path only when it winds (costs over 5/4 of the
            // straight-line bound): a near-straight path is found again by a
            // search that expands little more than its own cells, a winding
            // one (a maze corridor) is not.
            let (pi, pj) = (points[i], points[j]);
            let bound = movement
                .distance(pi.x.abs_diff(pj.x), pi.y.abs_diff(pj.y))
                .0
                / Weight::ONE.0 as u64
                * min_weight.0 as u64;
            if keep_paths && cost * 4 > bound * 5 {
                trace.clear();
                search.trace(node, &mut trace);
                path.extend(trace.windows(2).map(|w| {
                    let (p, q) = (local.point(w[0]), local.point(w[1]));
                    direction_code(q.x as i64 - p.x as i64, q.y as i64 - p.y as i64)
                }));
            }
            push(&mut out, i, j, cost, path);
        }
    }
    drop_dominated(&mut out, a, n);
    out
}

/// Removes every edge `i -> j` whose cost another transition `k` of the
/// cluster matches exactly (`c(i, k) + c(k, j) == c(i, j)`): the search can
/// go through `k` at the same cost. Costs are positive, so the edges that
/// dominate are strictly cheaper, and by induction on cost every distance in
/// the graph survives even when all dominated edges go at once. On maps with
/// many small entrances (random obstacles) this removes most edges.
fn drop_dominated(edges: &mut Vec<RawEdge>, first: u32, n: usize) {
    if n < 3 {
        return;
    }
    let mut cost = vec![u64::MAX; n * n];
    for e in edges.iter() {
        cost[(e.from - first) as usize * n + (e.to - first) as usize] = e.cost;
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
    edges.retain(|e| !dominated[(e.from - first) as usize * n + (e.to - first) as usize]);
}
