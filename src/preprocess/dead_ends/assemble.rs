//! The block-cut forest of the depth-first pass re-rooted at each island's
//! core and numbered in preorder, and every cell's anchor written through a
//! per-block table.

use fixedbitset::FixedBitSet;

use super::{DONE, DeadEnds, Forest, NO_NODE, WALL};
use crate::grid::{Grid, Node};
use crate::preprocess::islands::Islands;
use crate::tiled::TileColumn;

/// The block-cut forest of the depth-first pass, re-rooted at each island's
/// largest block and numbered in preorder, and every cell's anchor.
pub(super) fn assemble(grid: &Grid, islands: &Islands, forest: Forest) -> DeadEnds {
    let Forest {
        state,
        block_top,
        block_size,
        block_tree,
        tree_sizes,
        cuts,
        root_cuts,
    } = forest;
    debug_assert_eq!(tree_sizes, islands.sizes, "depth-first trees are islands");
    // Tree nodes before renumbering: blocks 0..nb, then cut cells nb.. .
    let nb = block_top.len();
    let cut_node = |c: u32| cuts.binary_search(&c).ok().map(|i| (nb + i) as u32);
    let total = nb + cuts.len();

    // Tree edges, each once: a block to its top when the top is a cut cell, and
    // a cut cell (not a DFS root) to the block it was popped into.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(total);
    for (b, top) in block_top.iter().enumerate() {
        if let Some(c) = cut_node(*top) {
            edges.push((b as u32, c));
        }
    }
    for (i, c) in cuts.iter().enumerate() {
        if root_cuts.binary_search(c).is_err() {
            edges.push((state[*c as usize] & !DONE, (nb + i) as u32));
        }
    }
    // Undirected adjacency in CSR form.
    let mut first = vec![0u32; total + 1];
    for (a, b) in &edges {
        first[*a as usize + 1] += 1;
        first[*b as usize + 1] += 1;
    }
    for i in 0..total {
        first[i + 1] += first[i];
    }
    let mut fill = first.clone();
    let mut adj = vec![0u32; edges.len() * 2];
    for (a, b) in &edges {
        adj[fill[*a as usize] as usize] = *b;
        fill[*a as usize] += 1;
        adj[fill[*b as usize] as usize] = *a;
        fill[*b as usize] += 1;
    }

    // The core of each island: its largest block (first found on ties).
    let mut island_core_old = vec![NO_NODE; tree_sizes.len()];
    for (b, island) in block_tree.iter().enumerate() {
        let island = *island as usize;
        let cur = island_core_old[island];
        if cur == NO_NODE || block_size[b] > block_size[cur as usize] {
            island_core_old[island] = b as u32;
        }
    }

    // Preorder numbering of blocks from each core, islands in label order. A
    // cut node gets no number; it remembers the block it was reached from.
    let mut order = vec![NO_NODE; total]; // old id -> preorder block id, or parent block for a cut
    let mut seen = FixedBitSet::with_capacity(total);
    let mut block_end = vec![0u32; nb];
    let mut block_island = vec![0u32; nb];
    let mut next = 0u32;
    let mut stack: Vec<(u32, u32)> = Vec::new(); // (old id, next adjacency slot)
    for (island, core) in island_core_old.iter().enumerate() {
        debug_assert_ne!(*core, NO_NODE);
        seen.insert(*core as usize);
        order[*core as usize] = next;
        block_island[next as usize] = island as u32;
        next += 1;
        stack.push((*core, first[*core as usize]));
        while let Some((v, slot)) = stack.last_mut() {
            let v = *v;
            if *slot < first[v as usize + 1] {
                let w = adj[*slot as usize];
                *slot += 1;
                if !seen.contains(w as usize) {
                    seen.insert(w as usize);
                    if (w as usize) < nb {
                        order[w as usize] = next;
                        block_island[next as usize] = island as u32;
                        next += 1;
                    } else {
                        // A cut node is always reached from a block.
                        order[w as usize] = order[v as usize];
                    }
                    stack.push((w, first[w as usize]));
                }
            } else {
                if (v as usize) < nb {
                    block_end[order[v as usize] as usize] = next;
                }
                stack.pop();
            }
        }
    }
    debug_assert_eq!(next as usize, nb);
    let island_core: Vec<u32> = island_core_old.iter().map(|c| order[*c as usize]).collect();

    // Per block of the depth-first pass: its preorder id, with the top bit set
    // when that is not its island's core (a dead end). Articulation cells
    // read their block's entry here and are corrected below.
    let tag = |anchor: u32| {
        let dead = anchor != island_core[block_island[anchor as usize] as usize];
        anchor | (dead as u32) << 31
    };
    let lut: Vec<u32> = order[..nb].iter().map(|a| tag(*a)).collect();
    let mut dead_end_cells = 0u64;
    // Written in full at the narrowest width that fits (the largest anchor
    // is below the block count), then packed per tile.
    let cell_anchor = if nb <= u16::MAX as usize {
        let mut out = anchors(grid, &state, &lut, &mut dead_end_cells, |a| a as u16);
        fix_cuts(
            grid,
            &state,
            &lut,
            &cuts,
            &order[nb..],
            &tag,
            &mut dead_end_cells,
            |i, a| out[i] = a as u16,
        );
        TileColumn::pack_slice(&out, u16::MAX)
    } else {
        let mut out = anchors(grid, &state, &lut, &mut dead_end_cells, |a| a);
        fix_cuts(
            grid,
            &state,
            &lut,
            &cuts,
            &order[nb..],
            &tag,
            &mut dead_end_cells,
            |i, a| out[i] = a,
        );
        TileColumn::pack_slice(&out, NO_NODE)
    };

    DeadEnds {
        cell_anchor,
        block_pre: Vec::new(),
        block_end,
        block_island,
        island_core,
        island_sizes: tree_sizes,
        dead_end_cells,
        articulation_cells: cuts.len() as u64,
    }
}

/// The anchor of every cell, row-major (`narrow(NO_NODE)` when blocked), as
/// the block the depth-first pass put it in, through `lut`; counts the cells
/// `lut` tags as dead ends.
fn anchors<T: Copy>(
    grid: &Grid,
    state: &[u32],
    lut: &[u32],
    dead: &mut u64,
    narrow: impl Fn(u32) -> T,
) -> Vec<T> {
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    // A state's anchor, and whether it is a dead end (0 or 1).
    let anchor = |s: u32| {
        if s == WALL {
            (narrow(NO_NODE), 0)
        } else {
            let t = lut[(s & !DONE) as usize];
            (narrow(t & !(1 << 31)), t >> 31)
        }
    };
    let mut out = Vec::with_capacity(grid.len());
    for y in 1..=grid.height() as usize {
        let row = &state[y * pw + 1..y * pw + 1 + w];
        let mut count = 0u32;
        // Eight cells at a time where they share a state (open ground, or
        // wall), else one by one.
        let mut chunks = row.chunks_exact(8);
        for chunk in &mut chunks {
            let s0 = chunk[0];
            if chunk.iter().fold(true, |same, s| same & (*s == s0)) {
                let (a, d) = anchor(s0);
                out.extend_from_slice(&[a; 8]);
                count += 8 * d;
            } else {
                for s in chunk {
                    let (a, d) = anchor(*s);
                    out.push(a);
                    count += d;
                }
            }
        }
        for s in chunks.remainder() {
            let (a, d) = anchor(*s);
            out.push(a);
            count += d;
        }
        *dead += count as u64;
    }
    out
}

/// Sets the anchor of each articulation cell (`cuts`, with their preorder
/// parent blocks `cut_order`), replacing what [`anchors`] gave it, and
/// corrects the dead-end count.
#[allow(clippy::too_many_arguments)]
fn fix_cuts(
    grid: &Grid,
    state: &[u32],
    lut: &[u32],
    cuts: &[u32],
    cut_order: &[u32],
    tag: &impl Fn(u32) -> u32,
    dead: &mut u64,
    mut set: impl FnMut(usize, u32),
) {
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    for (c, anchor) in cuts.iter().zip(cut_order) {
        debug_assert!(grid.open(Node(*c)));
        let was = lut[(state[*c as usize] & !DONE) as usize];
        let now = tag(*anchor);
        *dead = *dead - (was >> 31) as u64 + (now >> 31) as u64;
        let (y, x) = (*c as usize / pw - 1, *c as usize % pw - 1);
        set(y * w + x, *anchor);
    }
}
