//! The block-cut forest of the depth-first pass re-rooted at each island's
//! core and numbered in preorder, and every cell's anchor written through a
//! per-block table.

use fixedbitset::FixedBitSet;

use super::safe::SafeIslands;
use super::{DONE, DeadEnds, Forest, NO_NODE, WALL};
use crate::grid::{Grid, Movement};
use crate::preprocess::islands::{Islands, label_runs};
use crate::tiled::TilePacker;

/// The block-cut forest of the depth-first pass, re-rooted at each island's
/// largest block and numbered in preorder, and every cell's anchor. With
/// `safe` (and the rule the islands were labelled by), the islands it marks
/// have no state in the forest: their cells take their one block run by run.
pub(super) fn assemble(
    grid: &Grid,
    islands: &Islands,
    forest: Forest,
    safe: Option<(&SafeIslands, &Movement)>,
) -> DeadEnds {
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
    let cut_node = |c: u32| cuts.rank(c).map(|i| nb as u32 + i);
    let total = nb + cuts.list.len();

    // Tree edges, each once: a block to its top when the top is a cut cell, and
    // a cut cell (not a DFS root) to the block it was popped into.
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(total);
    for (b, top) in block_top.iter().enumerate() {
        if let Some(c) = cut_node(*top) {
            edges.push((b as u32, c));
        }
    }
    for (i, c) in cuts.list.iter().enumerate() {
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
    // when that is not its island's core (a dead end); per articulation cell
    // the same for the block above it.
    let tag = |anchor: u32| {
        let dead = anchor != island_core[block_island[anchor as usize] as usize];
        anchor | (dead as u32) << 31
    };
    let lut: Vec<u32> = order[..nb].iter().map(|a| tag(*a)).collect();
    let cut_anchor: Vec<u32> = order[nb..].iter().map(|a| tag(*a)).collect();
    let mut cells = AnchorWriter {
        packer: TilePacker::with_len(grid.len()),
        state: &state,
        lut: &lut,
        cuts: &cuts.list,
        cut_anchor: &cut_anchor,
        next_cut: 0,
        dead: 0,
    };
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    match safe {
        None => {
            for y in 1..=grid.height() as usize {
                cells.states(y * pw + 1, y * pw + 1 + w);
            }
        }
        Some((safe, movement)) => {
            // Run by run: a safe island's runs hold its one block (their
            // cells have no state), the gaps between runs are walls.
            let mut written = 0;
            label_runs(grid, movement, |a, b, label| {
                let at = (a / pw - 1) * w + a % pw - 1;
                cells.packer.push_run(NO_NODE, at - written);
                let label = label as usize;
                if safe.safe[label] {
                    cells.run(lut[safe.block[label] as usize], b + 1 - a);
                } else {
                    cells.states(a, b + 1);
                }
                written = at + b + 1 - a;
            });
            cells.packer.push_run(NO_NODE, grid.len() - written);
        }
    }
    debug_assert_eq!(
        cells.next_cut,
        cuts.list.len(),
        "every articulation cell written"
    );
    let dead_end_cells = cells.dead;
    let cell_anchor = cells.packer.finish();

    DeadEnds {
        cell_anchor,
        block_pre: Vec::new(),
        block_end,
        block_island,
        island_core,
        island_sizes: tree_sizes,
        dead_end_cells,
        articulation_cells: cuts.list.len() as u64,
    }
}

/// Writes every cell's anchor, in row-major order, into a [`TilePacker`].
struct AnchorWriter<'a> {
    packer: TilePacker,
    /// The depth-first pass's state per padded cell.
    state: &'a [u32],
    /// Per block of the pass: its tagged preorder id (see `assemble`).
    lut: &'a [u32],
    /// Articulation cells, ascending, with their tagged anchors (the block
    /// above them), and the next one to write.
    cuts: &'a [u32],
    cut_anchor: &'a [u32],
    next_cut: usize,
    /// Cells tagged as dead ends so far.
    dead: u64,
}

impl AnchorWriter<'_> {
    /// `n` cells anchored at tagged block `t`.
    fn run(&mut self, t: u32, n: usize) {
        self.packer.push_run(t & !(1 << 31), n);
        self.dead += u64::from(t >> 31) * n as u64;
    }

    /// The cells of padded nodes `a..b` (one row), from their states, run
    /// by run of equal states; articulation cells from their own anchors.
    fn states(&mut self, a: usize, b: usize) {
        let mut x = a;
        while x < b {
            let stop = match self.cuts.get(self.next_cut) {
                Some(c) if (*c as usize) < b => *c as usize,
                _ => b,
            };
            while x < stop {
                let s = self.state[x];
                let end = x + self.state[x..stop].iter().take_while(|t| **t == s).count();
                if s == WALL {
                    self.packer.push_run(NO_NODE, end - x);
                } else {
                    self.run(self.lut[(s & !DONE) as usize], end - x);
                }
                x = end;
            }
            if stop < b {
                self.run(self.cut_anchor[self.next_cut], 1);
                self.next_cut += 1;
                x = stop + 1;
            }
        }
    }
}
