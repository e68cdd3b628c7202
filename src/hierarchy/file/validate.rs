//! What a loaded file says, checked against the map: every invariant that
//! the query, the repair and the landmarks rely on (see the module docs of
//! `file`: a file that loads is as good as a freshly built hierarchy).

use rayon::prelude::*;

use super::LoadError;
use super::codec::invalid;
use super::edges::{check_edges, check_landmarks};
use super::layout::Content;
use crate::grid::{CornerRule, Grid, pack64};
use crate::hierarchy::{BuildSettings, StageStats};
use crate::preprocess::{DeadEnds, Entrances, NO_NODE, find_entrances};
use crate::tiled::{TILE, TileColumn};

pub(super) fn check_below(v: &[u32], bound: usize, what: &str) -> Result<(), LoadError> {
    let bound = bound.min(u32::MAX as usize + 1) as u64;
    if v.iter().fold(false, |bad, x| bad | (*x as u64 >= bound)) {
        return Err(invalid(format!("{what} holds an index out of range")));
    }
    Ok(())
}

/// Checks parsed content against `grid` (see the module docs).
pub(super) fn check_content(grid: &Grid, content: &Content) -> Result<(), LoadError> {
    let (settings, dead_ends, entrances, graph, landmarks, stages) = content;
    check_stats(stages)?;
    let d = dead_ends;
    let blocks = d.block_end.len();
    // The cell table (a million cells on the largest maps) and the
    // entrances beside the edges and their stored paths (themselves checked
    // in parallel); the errors are reported in this order.
    let ((cells, transitions), edges) = rayon::join(
        || {
            rayon::join(
                || {
                    check_anchors(grid, &d.cell_anchor, blocks)?;
                    check_blocks(d)?;
                    check_islands(grid, settings, d)
                },
                || check_entrances(grid, settings, entrances),
            )
        },
        || check_edges(grid, settings, entrances, graph),
    );
    cells?;
    transitions?;
    edges?;
    check_landmarks(settings, graph, landmarks, entrances.cells.len())
}

/// Stage times are finite and not negative (they are printed).
fn check_stats(stages: &[StageStats]) -> Result<(), LoadError> {
    if stages
        .iter()
        .any(|s| !s.seconds.is_finite() || s.seconds < 0.0)
    {
        return Err(invalid("a stage time is not a finite, non-negative number"));
    }
    Ok(())
}

/// The transitions and links are exactly those the settings place on this
/// map: recomputed (stage 3 scans only the borders) and compared. This
/// holds every transition on a border as the entrance policy says, every
/// link a legal move under the file's connectivity and corner rule, and a
/// repair that re-places the transitions of a border finds the same ones.
fn check_entrances(grid: &Grid, s: &BuildSettings, e: &Entrances) -> Result<(), LoadError> {
    let fresh = find_entrances(grid, &s.movement, s.cluster_size, &s.entrances);
    if fresh.cells != e.cells || fresh.cluster_first != e.cluster_first {
        return Err(invalid(
            "transitions differ from those the settings place on this map",
        ));
    }
    if fresh.links != e.links || fresh.entrances != e.entrances {
        return Err(invalid(
            "links differ from those the settings place on this map",
        ));
    }
    Ok(())
}

/// The block forest's tables: lengths agree, preorder ranges nest, indices
/// in range.
fn check_blocks(d: &DeadEnds) -> Result<(), LoadError> {
    let blocks = d.block_end.len();
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

/// The islands agree with the map: two cells one legal move apart share
/// their island (only straight moves need checking, and diagonal ones when
/// corners may be cut both ways blocked), and every island holds as many
/// cells as its size says. Row pairs in parallel, each row's islands decoded
/// once per tile.
fn check_islands(grid: &Grid, s: &BuildSettings, d: &DeadEnds) -> Result<(), LoadError> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let squeeze = s.movement.diagonals() && s.movement.corners == CornerRule::Always;
    // A row's islands, decoded a tile at a time.
    let a = &d.cell_anchor;
    let island_row = |y: usize, out: &mut Vec<u32>| {
        out.clear();
        let (start, end) = (y * w, (y + 1) * w);
        let mut i = start;
        while i < end {
            let t = i / TILE;
            let stop = ((t + 1) * TILE).min(end);
            let mask = a.present[t];
            if a.row[t] == NO_NODE {
                let island = d.block_island.get(a.value[t] as usize).copied();
                out.extend((i..stop).map(|j| {
                    if mask >> (j % TILE) & 1 == 0 {
                        NO_NODE
                    } else {
                        island.unwrap_or(NO_NODE)
                    }
                }));
            } else {
                out.extend((i..stop).map(|j| match a.get(j) {
                    NO_NODE => NO_NODE,
                    b => d.block_island[b as usize],
                }));
            }
            i = stop;
        }
    };
    let bad = (0..h)
        .into_par_iter()
        .with_min_len(32)
        .map_init(
            || (Vec::new(), Vec::new()),
            |(top, below), y| {
                island_row(y, top);
                let joined = |a: u32, b: u32| a == NO_NODE || b == NO_NODE || a == b;
                if top.windows(2).any(|p| !joined(p[0], p[1])) {
                    return true;
                }
                if y + 1 == h {
                    return false;
                }
                island_row(y + 1, below);
                if top.iter().zip(below.iter()).any(|(a, b)| !joined(*a, *b)) {
                    return true;
                }
                squeeze
                    && (top.iter().zip(&below[1..]).any(|(a, b)| !joined(*a, *b))
                        || top[1..]
                            .iter()
                            .zip(below.iter())
                            .any(|(a, b)| !joined(*a, *b)))
            },
        )
        .any(|b| b);
    if bad {
        return Err(invalid("two neighbouring cells lie on different islands"));
    }
    let mut counts = vec![0u32; d.island_sizes.len()];
    let mut per_block = vec![0u32; d.block_end.len()];
    d.cell_anchor.count_values(&mut per_block);
    for (b, n) in per_block.iter().enumerate() {
        let i = d.block_island[b] as usize;
        counts[i] = counts[i].saturating_add(*n);
    }
    if counts != d.island_sizes {
        return Err(invalid("island sizes differ from the cells on each island"));
    }
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
