//! The cluster graph of a hierarchy built for several unit sizes: exact
//! in-cluster costs per band of sizes, each edge annotated with the largest
//! size it serves.

use rayon::prelude::*;

use super::super::cluster_search::{ClusterSearch, next_source};
use super::super::clusters::Entrances;
use super::super::graph::{ClusterEdges, ClusterGraph, LocalEdge};
use crate::engine::Fits;
use crate::engine::route::{SHAPES, is_free};
use crate::grid::{Grid, Movement, Node, Point, direction_code, opposite_direction};
use crate::packed::Column64;

/// One abstract edge before assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RawEdge {
    pub from: u32,
    pub to: u32,
    pub cost: u64,
    /// The largest size the edge serves.
    pub clear: u8,
    /// Its moves: a range of its cluster's codes (empty when not kept).
    pub path: (u32, u32),
}

/// What the in-cluster stage did, summed over clusters.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct CostWork {
    /// Bands of sizes whose costs were computed (one table each).
    pub bands: u64,
    /// Pairs settled by a free straight route.
    pub straight: u64,
    /// Grid searches run.
    pub searches: u64,
    /// Candidate edges dropped as dominated.
    pub dominated: u64,
}

impl std::ops::AddAssign for CostWork {
    fn add_assign(&mut self, o: CostWork) {
        self.bands += o.bands;
        self.straight += o.straight;
        self.searches += o.searches;
        self.dominated += o.dominated;
    }
}

/// Computes the annotated cluster graph (the sized build's cluster-graph
/// stage): every cluster's in-cluster edges, in parallel, then each
/// inter-cluster link as a pair of edges annotated with the link's size.
/// Within a node, edges are sorted by annotation, largest first, then by
/// cost, so a query for size `k` reads a prefix and stops. With `keep_paths`
/// the moves behind every searched edge are stored, as the single-size graph
/// stores them (see `preprocess::graph`).
pub(crate) fn build_sized_graph(on: &SizedClusters) -> (ClusterGraph, CostWork) {
    let (grid, movement, entrances) = (on.grid, on.movement, on.entrances);
    let layout = entrances.layout;
    let per_cluster: Vec<(Vec<RawEdge>, Vec<u8>, CostWork)> = (0..layout.count() as u32)
        .into_par_iter()
        .map_init(ClusterScratch::default, |scratch, c| {
            let mut codes = Vec::new();
            let (edges, work) = one_cluster(on, c, scratch, &mut codes);
            (edges, codes, work)
        })
        .collect();
    let mut work = CostWork::default();
    let mut raw = Vec::with_capacity(per_cluster.iter().map(|(e, _, _)| e.len()).sum());
    let mut all_codes = Vec::with_capacity(per_cluster.iter().map(|(_, c, _)| c.len()).sum());
    for (e, codes, w) in per_cluster {
        let shift = all_codes.len() as u32;
        raw.extend(e.into_iter().map(|mut e| {
            e.path = (e.path.0 + shift, e.path.1 + shift);
            e
        }));
        all_codes.extend_from_slice(&codes);
        work += w;
    }
    let intra_edges = raw.len() as u64;
    for (&(a, b), &clear) in entrances.links.iter().zip(&entrances.link_clear) {
        for (from, to) in [(a, b), (b, a)] {
            let q = grid.point_of(crate::CellIndex(entrances.cells[to as usize]));
            let p = grid.point_of(crate::CellIndex(entrances.cells[from as usize]));
            raw.push(RawEdge {
                from,
                to,
                cost: grid.step_cost(movement, p, q),
                clear,
                path: (0, 0),
            });
        }
    }
    let inter_edges = raw.len() as u64 - intra_edges;
    // By source, then within each source largest annotation first, then
    // cheapest.
    raw.sort_unstable_by_key(|e| (e.from, std::cmp::Reverse(e.clear), e.cost, e.to));
    let nodes = entrances.cells.len();
    let mut edge_first = vec![0u32; nodes + 1];
    for e in &raw {
        edge_first[e.from as usize + 1] += 1;
    }
    for i in 0..nodes {
        edge_first[i + 1] += edge_first[i];
    }
    let (mut path_first, mut path_codes) = (Vec::new(), Vec::new());
    if on.keep_paths {
        path_first.reserve(raw.len() + 1);
        path_first.push(0);
        path_codes.reserve(all_codes.len());
        for e in &raw {
            path_codes.extend_from_slice(&all_codes[e.path.0 as usize..e.path.1 as usize]);
            path_first.push(path_codes.len() as u32);
        }
    }
    let graph = ClusterGraph {
        edge_first,
        edge_to: raw.iter().map(|e| e.to).collect(),
        edge_cost: Column64::pack(raw.iter().map(|e| e.cost).collect()),
        edge_clear: raw.iter().map(|e| e.clear).collect(),
        path_first,
        path_codes,
        intra_edges,
        inter_edges,
    };
    (graph, work)
}

/// What the in-cluster edges of a hierarchy for several sizes are computed
/// on: the grid, its clearance (padded layout), the movement rules, the
/// transitions (with their capped clearance), the largest size, and whether
/// the moves behind searched edges are kept.
#[derive(Clone, Copy)]
pub(crate) struct SizedClusters<'a> {
    pub(crate) grid: &'a Grid,
    pub(crate) clearance: &'a [u8],
    pub(crate) movement: &'a Movement,
    pub(crate) entrances: &'a Entrances,
    pub(crate) max_size: u8,
    pub(crate) keep_paths: bool,
}

/// Per-worker scratch of the in-cluster stage (and of a repair).
#[derive(Debug, Default)]
pub(crate) struct ClusterScratch {
    search: ClusterSearch,
    /// One `n x n` cost table per band, concatenated.
    tables: Vec<u64>,
    /// Per band and ordered pair: the moves of the least-cost path the
    /// band's search found, a range of `codes` (empty when not kept).
    paths: Vec<(u32, u32)>,
    codes: Vec<u8>,
    trace: Vec<Node>,
    /// Per band: its largest size.
    band_hi: Vec<u8>,
    unresolved: Vec<bool>,
    targets: Vec<usize>,
    target_nodes: Vec<Node>,
    /// The cluster's capped clearance, padded by one blocked cell (the
    /// layout of the cluster's window grid).
    local_clear: Vec<u8>,
}

/// The in-cluster edges of cluster `c` as a repair splices them: indices
/// local to the cluster's transitions, and per edge the largest size it
/// serves. The same edges, in the same order, as the build computes.
pub(crate) fn sized_cluster_edges(
    on: &SizedClusters,
    c: u32,
    scratch: &mut ClusterScratch,
) -> (ClusterEdges, Vec<u8>) {
    let first = on.entrances.cluster_first[c as usize];
    let mut codes = Vec::new();
    let (raw, _) = one_cluster(on, c, scratch, &mut codes);
    let edges = raw
        .iter()
        .map(|e| LocalEdge {
            from: e.from - first,
            to: e.to - first,
            cost: e.cost,
            path: e.path,
        })
        .collect();
    let clear = raw.iter().map(|e| e.clear).collect();
    (ClusterEdges { edges, codes }, clear)
}

/// The in-cluster edges of cluster `c`, their moves (when kept) appended to
/// `codes`.
///
/// Sizes fall into bands: within a cluster the grid of size `k` equals the
/// grid of size `k - 1` unless some cell of the cluster has clearance exactly
/// `k - 1`, and then their costs are equal too. For each band, the exact
/// least in-cluster cost between every two transitions the band's sizes fit
/// on: a free straight route on unweighted ground costs the octile
/// distance; the other pairs come from searches over the band's grid (the
/// cluster's cells that fit its sizes, searched as the single-size graph's
/// searches are, by `ClusterSearch`) from a greedy vertex cover of the pairs
/// when costs are symmetric. Costs never fall as the size grows (each size's
/// grid is inside the smaller one's), so for a pair the bands form runs of
/// equal cost: each run becomes one edge annotated with its largest size
/// (HAA*'s annotated edges), which serves every smaller size too, at its
/// exact cost for the sizes of the run. Its kept moves are those found on
/// the grid of the run's largest band, so they are legal for every size the
/// edge serves. A run is dropped when, for every band in it, some third
/// transition matches its cost exactly (the argument of the flat cluster
/// graph's dominance pruning, size by size: distances for every size are
/// unchanged).
fn one_cluster(
    on: &SizedClusters,
    c: u32,
    s: &mut ClusterScratch,
    codes: &mut Vec<u8>,
) -> (Vec<RawEdge>, CostWork) {
    let SizedClusters {
        grid,
        clearance,
        movement,
        entrances: t,
        max_size,
        keep_paths,
    } = *on;
    let layout = t.layout;
    let (a, b) = (t.cluster_first[c as usize], t.cluster_first[c as usize + 1]);
    let n = (b - a) as usize;
    let mut work = CostWork::default();
    let mut out = Vec::new();
    if n < 2 {
        return (out, work);
    }
    let (x0, y0, x1, y1) = layout.bounds(c);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // The cluster as a window of its own, in local coordinates: its
    // clearance, and a grid whose open cells are those of the band searched.
    let mut band_grid = grid.window(x0, y0, x1, y1);
    let lpw = w as usize + 2;
    s.local_clear.clear();
    s.local_clear.resize(lpw * (h as usize + 2), 0);
    let weighted = band_grid.is_weighted();
    // Which capped clearances occur in the cluster.
    let mut present = [false; 256];
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x0 + x, y0 + y);
            let v = clearance[grid.node(p).index()].min(max_size);
            present[v as usize] = true;
            s.local_clear[(y as usize + 1) * lpw + x as usize + 1] = v;
        }
    }
    let points: Vec<Point> = t.cells[a as usize..b as usize]
        .iter()
        .map(|i| {
            let p = grid.point_of(crate::CellIndex(*i));
            Point::new(p.x - x0, p.y - y0)
        })
        .collect();
    let clear = &t.clear[a as usize..b as usize];
    let top = clear.iter().copied().max().unwrap_or(0);
    let symmetric = !weighted;
    s.tables.clear();
    s.paths.clear();
    s.codes.clear();
    s.band_hi.clear();
    // Bands of sizes `lo..=hi` (as `u16`: the last band may end at 255).
    let mut lo = 1u16;
    while lo <= top as u16 {
        let mut hi = lo;
        while hi < max_size as u16 && !present[hi as usize] {
            hi += 1;
        }
        let usable = clear.iter().filter(|c| **c as u16 >= lo).count();
        if usable < 2 {
            break;
        }
        work.bands += 1;
        let base = s.tables.len();
        s.tables.resize(base + n * n, u64::MAX);
        s.paths.resize(base + n * n, (0, 0));
        // The band's grid: the cluster's cells its sizes fit on.
        if lo > 1 {
            for y in 0..h {
                for x in 0..w {
                    let fits = s.local_clear[(y as usize + 1) * lpw + x as usize + 1] as u16 >= lo;
                    band_grid
                        .set_passable(Point::new(x, y), fits)
                        .expect("inside the window");
                }
            }
        }
        let space = Fits {
            clearance: &s.local_clear,
            weights: None,
            padded_width: lpw as u32,
            movement,
            size: lo as u8,
        };
        let table = &mut s.tables[base..];
        s.unresolved.clear();
        s.unresolved.resize(n * n, false);
        for i in 0..n {
            if (clear[i] as u16) < lo {
                continue;
            }
            table[i * n + i] = 0;
            for j in 0..n {
                if j == i || (clear[j] as u16) < lo || (symmetric && j < i) {
                    continue;
                }
                let (p, q) = (points[i], points[j]);
                let direct =
                    symmetric && SHAPES.into_iter().any(|shape| is_free(&space, p, q, shape));
                if direct {
                    work.straight += 1;
                    let d = movement.distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y)).0;
                    table[i * n + j] = d;
                    table[j * n + i] = d;
                } else {
                    s.unresolved[i * n + j] = true;
                    if symmetric {
                        s.unresolved[j * n + i] = true;
                    }
                }
            }
        }
        // Searches: from the node with the most unresolved partners first
        // (one search settles both directions when symmetric).
        while let Some(i) = next_source(&s.unresolved, n, symmetric) {
            work.searches += 1;
            s.targets.clear();
            s.targets.extend((0..n).filter(|j| s.unresolved[i * n + j]));
            s.target_nodes.clear();
            s.target_nodes
                .extend(s.targets.iter().map(|j| band_grid.node(points[*j])));
            s.search.run(
                &band_grid,
                movement,
                band_grid.node(points[i]),
                &s.target_nodes,
            );
            for &j in &s.targets {
                s.unresolved[i * n + j] = false;
                if symmetric {
                    s.unresolved[j * n + i] = false;
                }
                let node = band_grid.node(points[j]);
                let Some(d) = s.search.cost(node) else {
                    continue; // not joined inside the cluster for this band
                };
                s.tables[base + i * n + j] = d;
                if symmetric {
                    s.tables[base + j * n + i] = d;
                }
                // Keep the moves of every searched pair, as the single-size
                // graph does (no straight route joins its ends).
                if keep_paths {
                    s.trace.clear();
                    s.search.trace(node, &mut s.trace);
                    let from = s.codes.len() as u32;
                    s.codes.extend(s.trace.windows(2).map(|m| {
                        let (u, v) = (band_grid.point(m[0]), band_grid.point(m[1]));
                        direction_code(v.x as i64 - u.x as i64, v.y as i64 - u.y as i64)
                    }));
                    let to = s.codes.len() as u32;
                    s.paths[base + i * n + j] = (from, to);
                    if symmetric {
                        // The way back: the moves reversed, each turned around.
                        for k in (from..to).rev() {
                            let code = opposite_direction(s.codes[k as usize]);
                            s.codes.push(code);
                        }
                        s.paths[base + j * n + i] = (to, s.codes.len() as u32);
                    }
                }
            }
        }
        s.band_hi.push(hi as u8);
        lo = hi + 1;
    }

    // Annotated edges: runs of bands of equal cost, dominated runs dropped.
    let bands = s.band_hi.len();
    let tables = &s.tables;
    let dominated_in = |band: usize, i: usize, j: usize, cost: u64| {
        let t = &tables[band * n * n..(band + 1) * n * n];
        (0..n).any(|k| {
            k != i && k != j && {
                let (ik, kj) = (t[i * n + k], t[k * n + j]);
                ik != u64::MAX && kj != u64::MAX && ik + kj == cost
            }
        })
    };
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let mut band = 0;
            while band < bands {
                let cost = tables[band * n * n + i * n + j];
                if cost == u64::MAX {
                    break; // and for every larger size
                }
                let mut end = band;
                while end + 1 < bands && tables[(end + 1) * n * n + i * n + j] == cost {
                    end += 1;
                }
                if (band..=end).all(|bd| dominated_in(bd, i, j, cost)) {
                    work.dominated += 1;
                } else {
                    // The moves found on the grid of the run's largest band.
                    let (from, to) = s.paths[end * n * n + i * n + j];
                    let start = codes.len() as u32;
                    codes.extend_from_slice(&s.codes[from as usize..to as usize]);
                    out.push(RawEdge {
                        from: a + i as u32,
                        to: a + j as u32,
                        cost,
                        clear: s.band_hi[end],
                        path: (start, codes.len() as u32),
                    });
                }
                band = end + 1;
            }
        }
    }
    (out, work)
}
