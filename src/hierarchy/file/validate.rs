//! What a loaded file says, checked against the map: every invariant that
//! the query, the repair and the landmarks rely on (see the module docs of
//! `file`: a file that loads is as good as a freshly built hierarchy).

use rayon::prelude::*;

use super::LoadError;
use super::codec::invalid;
use super::layout::{Content, check_offsets};
use crate::grid::{Grid, pack64};
use crate::hierarchy::BuildSettings;
use crate::preprocess::{ClusterGraph, ClusterLayout, DeadEnds, Entrances, NO_NODE};
use crate::tiled::{TILE, TileColumn};

pub(super) fn check_below(v: &[u32], bound: usize, what: &str) -> Result<(), LoadError> {
    let bound = bound.min(u32::MAX as usize + 1) as u64;
    if v.iter().fold(false, |bad, x| bad | (*x as u64 >= bound)) {
        return Err(invalid(format!("{what} holds an index out of range")));
    }
    Ok(())
}

/// Checks parsed content against `grid`.
pub(super) fn check_content(grid: &Grid, content: &Content) -> Result<(), LoadError> {
    let (settings, dead_ends, entrances, graph, landmarks, _) = content;
    validate(grid, settings, dead_ends, entrances, graph)?;
    let n = entrances.cells.len();
    if landmarks.count > 16
        || landmarks.nodes.len() != landmarks.count as usize
        || landmarks.dist.len() != n * landmarks.count as usize
    {
        return Err(invalid("landmark tables have the wrong shape"));
    }
    check_below(&landmarks.nodes, n.max(1), "landmarks")?;
    Ok(())
}

/// Checks every invariant a query relies on.
fn validate(
    grid: &Grid,
    settings: &BuildSettings,
    d: &DeadEnds,
    e: &Entrances,
    g: &ClusterGraph,
) -> Result<(), LoadError> {
    let blocks = d.block_end.len();
    // The cell table (a million cells on the largest maps) and the stored
    // paths are checked side by side; each is the bulk of its half.
    let (anchors, rest) = rayon::join(
        || check_anchors(grid, &d.cell_anchor, blocks),
        || validate_graph(grid, settings, e, g),
    );
    anchors?;
    rest?;
    if d.block_island.len() != blocks {
        return Err(invalid("block tables differ in length"));
    }
    if d.block_end
        .iter()
        .enumerate()
        .any(|(i, e)| (*e as usize) <= i || *e as usize > blocks)
    {
        return Err(invalid("block preorder ranges are invalid"));
    }
    check_below(&d.block_island, d.island_sizes.len(), "block islands")?;
    if d.island_core.len() != d.island_sizes.len() {
        return Err(invalid("island tables differ in length"));
    }
    check_below(&d.island_core, blocks, "island cores")?;

    Ok(())
}

/// A cell has an anchor exactly when it is passable, anchors name existing
/// blocks, and the table is in canonical form (see [`crate::tiled`]): mixed
/// tiles numbered in tile order and truly mixed, shared values 0 where
/// unused. The tiles are checked in parallel; only a failing tile is looked
/// at again, to name its first bad cell.
pub(super) fn check_anchors(
    grid: &Grid,
    anchors: &TileColumn,
    blocks: usize,
) -> Result<(), LoadError> {
    let cells = grid.len();
    let tiles = TileColumn::tiles_for(cells);
    let (present, value, row) = (&anchors.present, &anchors.value, &anchors.row);
    if anchors.len() != cells
        || present.len() != tiles
        || value.len() != tiles
        || row.len() != tiles
        || !anchors.rows.len().is_multiple_of(TILE)
    {
        return Err(invalid("cell table has the wrong shape"));
    }
    let mut mixed = 0u32;
    for r in row.iter().filter(|r| **r != NO_NODE) {
        if *r != mixed {
            return Err(invalid("cell table's mixed tiles are out of order"));
        }
        mixed += 1;
    }
    if mixed as usize != anchors.mixed_tiles() {
        return Err(invalid("cell table has the wrong number of mixed tiles"));
    }
    let limit = blocks.min(NO_NODE as usize) as u32;
    // Tile t, whose passable cells are the bits of `open`.
    let tile_ok = |t: usize, open: u64| {
        if present[t] != open {
            return false;
        }
        match row[t] {
            NO_NODE if open == 0 => value[t] == 0,
            NO_NODE => value[t] < limit,
            r => value[t] == 0 && open != 0 && anchors.row_is_mixed(r as usize, open, limit),
        }
    };
    // Groups of tiles in parallel; within one, the cells are walked in runs
    // along the rows (a tile may span two), their passability packed to bits.
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    let passable = grid.passable_slice();
    const GROUP: usize = 256;
    let bad = (0..tiles.div_ceil(GROUP))
        .into_par_iter()
        .filter_map(|g| {
            let mut i = g * GROUP * TILE;
            let (mut y, mut x) = (i / w, i % w);
            for t in g * GROUP..(g * GROUP + GROUP).min(tiles) {
                let (start, end) = (i, (i + TILE).min(cells));
                let mut open = 0u64;
                while i < end {
                    let run = (w - x).min(end - i);
                    let at = (y + 1) * pw + 1 + x;
                    open |= pack64(&passable[at..at + run]) << (i - start);
                    i += run;
                    x += run;
                    if x == w {
                        (x, y) = (0, y + 1);
                    }
                }
                if !tile_ok(t, open) {
                    return Some(t);
                }
            }
            None
        })
        .min();
    let Some(t) = bad else {
        return Ok(());
    };
    let (start, end) = (t * TILE, (t * TILE + TILE).min(cells));
    for i in start..end {
        let p = grid.point_of(crate::CellIndex(i as u32));
        let a = anchors.get(i);
        if (a == NO_NODE) == grid.is_passable(p) || (a != NO_NODE && a >= limit) {
            return Err(invalid(format!(
                "cell ({}, {}) has an invalid anchor",
                p.x, p.y
            )));
        }
    }
    Err(invalid(format!(
        "tile {t} of the cell table is not in canonical form"
    )))
}

/// The transitions, links, edges and stored paths.
fn validate_graph(
    grid: &Grid,
    settings: &BuildSettings,
    e: &Entrances,
    g: &ClusterGraph,
) -> Result<(), LoadError> {
    let cells = grid.len();
    let layout = ClusterLayout::new(grid, settings.cluster_size);
    let nodes = e.cells.len();
    check_below(&e.cells, cells, "transition cells")?;
    check_offsets(&e.cluster_first, layout.count() + 1, nodes, "cluster")?;
    // The transitions per cluster in parallel (the largest maps have tens of
    // thousands), beside the tables; then the stored paths (hundreds of
    // thousands of moves) per node in parallel.
    let (placed, tables) = rayon::join(
        || {
            (0..layout.count())
                .into_par_iter()
                .with_min_len(64)
                .try_for_each(|c| {
                    for i in e.cluster_first[c]..e.cluster_first[c + 1] {
                        let cell = e.cells[i as usize];
                        let p = grid.point_of(crate::CellIndex(cell));
                        if layout.cluster_of(p) as usize != c || !grid.is_passable(p) {
                            return Err(invalid(format!("transition {i} is misplaced")));
                        }
                    }
                    Ok(())
                })
        },
        || {
            let nodes = nodes as u64;
            if e.links.iter().fold(false, |bad, (a, b)| {
                bad | (*a as u64 >= nodes) | (*b as u64 >= nodes)
            }) {
                return Err(invalid("link to a missing transition"));
            }
            check_offsets(&g.edge_first, nodes as usize + 1, g.edge_to.len(), "edge")?;
            check_below(&g.edge_to, nodes as usize, "edge targets")?;
            if g.edge_cost.len() != g.edge_to.len() {
                return Err(invalid("edge costs differ in length from edges"));
            }
            if !g.path_first.is_empty() || !g.path_codes.is_empty() {
                check_offsets(
                    &g.path_first,
                    g.edge_to.len() + 1,
                    g.path_codes.len(),
                    "path",
                )?;
            }
            Ok(())
        },
    );
    placed?;
    tables?;
    if !g.path_first.is_empty() || !g.path_codes.is_empty() {
        // Every stored path must walk, by legal moves, from its edge's source
        // to its target: queries copy them without further checks. Walks
        // run on padded nodes, each transition's found once.
        let node_at: Vec<crate::grid::Node> = e
            .cells
            .par_iter()
            .map(|c| grid.node(grid.point_of(crate::CellIndex(*c))))
            .collect();
        (0..nodes)
            .into_par_iter()
            .with_min_len(256)
            .try_for_each(|v| {
                let from = node_at[v];
                for edge in g.edge_first[v] as usize..g.edge_first[v + 1] as usize {
                    let Some(codes) = g.edge_path(edge) else {
                        continue;
                    };
                    // Walk on padded nodes: a legal move only ever reaches a
                    // passable cell, so the walk cannot leave the map.
                    let mut n = from;
                    for c in codes {
                        let step = (*c < 8)
                            .then(|| grid.neighbor_in(n, *c, &settings.movement))
                            .flatten();
                        let Some((m, _)) = step else {
                            return Err(invalid(format!(
                                "stored path of edge {edge} makes an illegal move"
                            )));
                        };
                        n = m;
                    }
                    if n != node_at[g.edge_to[edge] as usize] {
                        return Err(invalid(format!(
                            "stored path of edge {edge} ends off its target"
                        )));
                    }
                }
                Ok(())
            })?;
    }
    Ok(())
}
