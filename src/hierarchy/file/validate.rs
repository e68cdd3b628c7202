//! What a loaded file says, checked against the map: every invariant that
//! the query, the repair and the landmarks rely on (see the module docs of
//! `file`: a file that loads is as good as a freshly built hierarchy).

use rayon::prelude::*;

use super::LoadError;
use super::codec::invalid;
use super::edges::{check_edges, check_landmarks};
use super::layout::Content;
use super::sizes::check_sized_entrances;
use crate::grid::{CornerRule, Grid, Point, pack64};
use crate::hierarchy::{BuildSettings, StageStats};
use crate::preprocess::clusters::{Border, border_pairs};
use crate::preprocess::sizes::UnitSizes;
use crate::preprocess::{ClusterLayout, DeadEnds, Entrances, NO_NODE};
use crate::tiled::{TILE, TileColumn};

pub(super) fn check_below(v: &[u32], bound: usize, what: &str) -> Result<(), LoadError> {
    let bound = bound.min(u32::MAX as usize + 1) as u64;
    if v.iter().fold(false, |bad, x| bad | (*x as u64 >= bound)) {
        return Err(invalid(format!("{what} holds an index out of range")));
    }
    Ok(())
}

/// Checks the cell table against `grid`: anchors in range, the block
/// forest well formed, the islands the map's. A load runs it while the rest
/// of the file is parsed.
pub(super) fn check_cells(
    grid: &Grid,
    settings: &BuildSettings,
    d: &DeadEnds,
) -> Result<(), LoadError> {
    check_anchors(grid, &d.cell_anchor, d.block_end.len())?;
    check_blocks(d)?;
    check_islands(grid, settings, d)
}

/// Checks the rest of the parsed content against `grid` (see the module
/// docs), the cell table having passed [`check_cells`]; `sizes`, the
/// clearance and components rebuilt from `grid`, when the settings serve
/// units above one cell.
pub(super) fn check_content(
    grid: &Grid,
    content: &Content,
    sizes: Option<&UnitSizes>,
) -> Result<(), LoadError> {
    let (settings, _, entrances, graph, landmarks, _, _, stages) = content;
    check_stats(stages)?;
    // What the landmark check reads unchecked: edge targets and costs.
    let nodes = entrances.cells.len();
    check_below(&graph.edge_to, nodes, "edge targets")?;
    if graph.edge_cost.len() != graph.edge_to.len() {
        return Err(invalid("edge costs differ in length from edges"));
    }
    // The entrances beside the edges and their stored paths and the
    // landmarks (each itself checked in parallel); the errors are reported
    // in this order.
    let (transitions, (edges, landmarks)) = rayon::join(
        || match sizes {
            Some(sizes) => check_sized_entrances(grid, settings, entrances, sizes),
            None => check_entrances(grid, settings, entrances),
        },
        || {
            rayon::join(
                || check_edges(grid, settings, entrances, graph, sizes),
                || check_landmarks(settings, graph, landmarks, nodes),
            )
        },
    );
    transitions?;
    edges?;
    landmarks
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
/// map: the borders are scanned again as stage 3 scans them (in parallel)
/// and the pairs found compared with the file's, which are sorted and
/// distinct, so no sort is needed: every pair's cells are transitions of
/// their clusters and its link is in the file, and every transition and
/// link of the file is met. This holds every transition on a border as the
/// entrance policy says, every link a legal move under the file's
/// connectivity and corner rule, and a repair that re-places the
/// transitions of a border finds the same ones.
fn check_entrances(grid: &Grid, s: &BuildSettings, e: &Entrances) -> Result<(), LoadError> {
    let moved = || invalid("transitions differ from those the settings place on this map");
    let relinked = || invalid("links differ from those the settings place on this map");
    let layout = ClusterLayout::new(grid, s.cluster_size);
    let width = grid.width();
    let cluster_of = |c: u32| layout.cluster_of(Point::new(c % width, c / width));
    // The file's transitions: grouped by cluster (`cluster_first` was checked
    // when parsed), each on the map and in its cluster, increasing.
    let (cells, first) = (&e.cells, &e.cluster_first);
    let grouped = (0..layout.count()).into_par_iter().all(|c| {
        let mine = &cells[first[c] as usize..first[c + 1] as usize];
        mine.iter()
            .all(|x| (*x as usize) < grid.len() && cluster_of(*x) == c as u32)
            && mine.windows(2).all(|p| p[0] < p[1])
    });
    if !grouped {
        return Err(moved());
    }
    if e.links.windows(2).any(|p| p[0] >= p[1]) {
        return Err(relinked());
    }
    // The links are sorted, so those from node `i` are one run,
    // `links[from[i]..from[i + 1]]`: a pair is looked up in its own run
    // (a node has a few links), not by a search over all of them.
    let mut from = vec![0u32; cells.len() + 1];
    for (a, _) in &e.links {
        match from.get_mut(*a as usize + 1) {
            Some(n) => *n += 1,
            None => return Err(relinked()),
        }
    }
    for i in 0..cells.len() {
        from[i + 1] += from[i];
    }
    let link_of = |i: u32, j: u32| -> Option<usize> {
        let run = from[i as usize] as usize..from[i as usize + 1] as usize;
        let k = e.links[run.clone()].iter().position(|(_, b)| *b == j)?;
        Some(run.start + k)
    };
    // The borders scanned in parallel; each group of them looks its pairs up
    // in the file's tables and marks what it met.
    let borders: Vec<Border> = layout.borders().collect();
    let index_of = |x: u32| -> Option<u32> {
        let c = cluster_of(x) as usize;
        let (lo, hi) = (first[c] as usize, first[c + 1] as usize);
        let i = cells[lo..hi].binary_search(&x).ok()?;
        Some((lo + i) as u32)
    };
    let words = |n: usize| vec![0u64; n.div_ceil(64)];
    let met = borders
        .par_chunks(256)
        .map(|chunk| -> Result<_, LoadError> {
            let (mut offsets, mut pairs) = (Vec::new(), Vec::new());
            let mut found = 0u64;
            for b in chunk {
                found += border_pairs(
                    grid,
                    &s.movement,
                    &layout,
                    &s.entrances,
                    *b,
                    &mut offsets,
                    &mut pairs,
                );
            }
            let (mut cells_met, mut links_met) = (words(cells.len()), words(e.links.len()));
            for (a, b) in &pairs {
                let (Some(i), Some(j)) = (index_of(*a), index_of(*b)) else {
                    return Err(moved());
                };
                let l = link_of(i, j).ok_or_else(relinked)?;
                for k in [i as usize, j as usize] {
                    cells_met[k / 64] |= 1 << (k % 64);
                }
                links_met[l / 64] |= 1 << (l % 64);
            }
            Ok((found, cells_met, links_met))
        })
        .try_reduce(
            || (0, words(cells.len()), words(e.links.len())),
            |(n, mut c, mut l), (m, c2, l2)| {
                c.iter_mut().zip(&c2).for_each(|(x, y)| *x |= y);
                l.iter_mut().zip(&l2).for_each(|(x, y)| *x |= y);
                Ok((n + m, c, l))
            },
        )?;
    let (found, cells_met, links_met) = met;
    let all =
        |set: &[u64], n: usize| set.iter().map(|w| w.count_ones() as usize).sum::<usize>() == n;
    if !all(&cells_met, cells.len()) {
        return Err(moved());
    }
    if !all(&links_met, e.links.len()) || found != e.entrances {
        return Err(relinked());
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
    // The ranges nest, a block lies on the island of the block above it,
    // and each island's core is its one block with none above it: what a
    // run-time repair reads the forest's tree from (`dynamic::forest`).
    let mut root = vec![NO_NODE; d.island_sizes.len()];
    let mut open: Vec<usize> = Vec::new();
    for b in 0..blocks {
        while open.last().is_some_and(|t| d.block_end[*t] as usize <= b) {
            open.pop();
        }
        let island = d.block_island[b] as usize;
        match open.last() {
            Some(&t) if d.block_end[b] > d.block_end[t] => {
                return Err(invalid("block preorder ranges do not nest"));
            }
            Some(&t) if d.block_island[t] as usize != island => {
                return Err(invalid(
                    "a block lies on another island than the block above it",
                ));
            }
            Some(_) => {}
            None if root[island] != NO_NODE => {
                return Err(invalid("an island has two blocks with none above them"));
            }
            None => root[island] = b as u32,
        }
        open.push(b);
    }
    if d.island_core != root {
        return Err(invalid(
            "an island's core is not the block at the top of its tree",
        ));
    }
    Ok(())
}

/// The islands agree with the map: two cells one legal move apart share
/// their island (only straight moves need checking, and diagonal ones when
/// corners may be cut both ways blocked), and every island holds as many
/// cells as its size says. Row pairs in parallel, each row's islands decoded
/// once per tile.
pub(super) fn check_islands(grid: &Grid, s: &BuildSettings, d: &DeadEnds) -> Result<(), LoadError> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let squeeze = s.movement.diagonals() && s.movement.corners == CornerRule::Always;
    // Bands of rows in parallel; within a band each row is decoded once
    // into runs and compared with the row below it.
    const BAND: usize = 32;
    let bad = (0..h.div_ceil(BAND)).into_par_iter().any(|band| {
        let (y0, y1) = (band * BAND, ((band + 1) * BAND).min(h));
        let (mut top, mut below) = (Vec::new(), Vec::new());
        if !island_runs(d, w, y0, &mut top) {
            return true;
        }
        for y in y0..y1 {
            if y + 1 == h {
                return false;
            }
            if !island_runs(d, w, y + 1, &mut below) || !runs_agree(&top, &below, squeeze) {
                return true;
            }
            std::mem::swap(&mut top, &mut below);
        }
        false
    });
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

/// Row `y`'s cells with an anchor as maximal runs `(first x, last x,
/// island)` of one island, decoded a tile at a time (a uniform tile by its
/// mask's runs, not cell by cell), into `out`; a cell whose block names no
/// island is left out (`check_anchors` refuses it). Whether no two side by side
/// cells of the row lie on different islands (a run that touches the one
/// before it would be a different island).
fn island_runs(d: &DeadEnds, w: usize, y: usize, out: &mut Vec<(u32, u32, u32)>) -> bool {
    out.clear();
    let a = &d.cell_anchor;
    let island = |b: u32| d.block_island.get(b as usize).copied().unwrap_or(NO_NODE);
    let mut ok = true;
    let mut push = |x0: usize, x1: usize, i: u32| {
        match out.last_mut() {
            Some(last) if last.1 as usize + 1 == x0 => {
                if last.2 == i {
                    last.1 = x1 as u32;
                    return;
                }
                ok = false;
            }
            _ => {}
        }
        out.push((x0 as u32, x1 as u32, i));
    };
    let (start, end) = (y * w, (y + 1) * w);
    let mut i = start;
    while i < end {
        let t = i / TILE;
        let stop = ((t + 1) * TILE).min(end);
        // The tile's cells from `i` to `stop`, as bits from 0.
        let span = stop - i;
        let mut mask = a.present[t] >> (i % TILE);
        if span < TILE {
            mask &= (1u64 << span) - 1;
        }
        if a.row[t] == NO_NODE {
            let shared = island(a.value[t]);
            while mask != 0 && shared != NO_NODE {
                let from = mask.trailing_zeros() as usize;
                let len = (!(mask >> from)).trailing_zeros() as usize;
                push(i - start + from, i - start + from + len - 1, shared);
                mask = if from + len >= 64 {
                    0
                } else {
                    mask & !(((1u64 << len) - 1) << from)
                };
            }
        } else {
            while mask != 0 {
                let k = mask.trailing_zeros() as usize;
                let x = i - start + k;
                let cell = island(a.get(i + k));
                if cell != NO_NODE {
                    push(x, x, cell);
                }
                mask &= mask - 1;
            }
        }
        i = stop;
    }
    ok
}

/// Whether every cell of the runs `top` shares its island with the cells
/// below it in `below` (and, with `squeeze`, with those diagonally below).
fn runs_agree(top: &[(u32, u32, u32)], below: &[(u32, u32, u32)], squeeze: bool) -> bool {
    let reach = u32::from(squeeze);
    let mut k = 0;
    for (a0, a1, ia) in top {
        // Runs below that end before this one's reach begins are behind.
        while k < below.len() && below[k].1 + reach < *a0 {
            k += 1;
        }
        let mut m = k;
        while m < below.len() && below[m].0 <= a1 + reach {
            if below[m].2 != *ia {
                return false;
            }
            m += 1;
        }
    }
    true
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
