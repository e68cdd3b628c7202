//! Keeping islands and dead ends exact while cells open and close.
//!
//! The block forest of stage 2 is global: one opened cell can join two
//! islands, one closed cell can cut a block in two far from where it stands.
//! Most edits in a game are not like that (a wall placed in an open field,
//! a crate pushed across a room), and those are recognised locally:
//!
//! # The local rule
//!
//! Let `S` be the cells changed together (all opened or all closed), `W` the
//! box around them widened by two cells, and `K` the passable cells of `W`
//! after the change. If
//!
//! 1. every passable cell of `W` before the change is anchored at one block
//!    `B` (so the cells within one step of `S` are no articulation cells and
//!    lie in `B` alone), and
//! 2. `K`, with the moves between its cells, is biconnected (at least three
//!    cells, connected, no cell whose removal splits it), and when opening,
//!    at least two cells of `K` were passable before,
//!
//! then the blocks after the change are those before, with `B` grown or shrunk
//! by `S`: every cycle of the old map that crossed the changed cells detours
//! through `K` (any route into the changed area passes through `K`'s outer
//! ring), and no new cycle can reach outside `B`, since every new move joins
//! cells of `B` or `S`. So no island merges or splits, no articulation cell
//! appears or disappears, the preorder numbering of the forest stands, and
//! only the anchors of `S`, the sizes and the counts change.
//!
//! The core of an island is its largest block, the first found on ties. A
//! local repair keeps the numbering only while the core stays strictly the
//! largest, so a tie (before or after) sends the repair to the global path.
//!
//! # The global path
//!
//! Any other edit (a door closing a corridor, a wall cutting an island) runs
//! stages 1 and 2 again over the whole map, which equals a rebuild by
//! construction.

use crate::grid::{Grid, Movement, Point};
use crate::preprocess::{DeadEnds, NO_NODE};

/// Sizes the local rule needs, derived from the block forest.
#[derive(Debug, Clone)]
pub(crate) struct BlockSizes {
    /// Cells of each block (preorder id), articulation cells counted in every
    /// block they belong to.
    size: Vec<u32>,
    /// Per island, at least the size of its largest non-core block.
    max_other: Vec<u32>,
}

impl BlockSizes {
    /// Counts every block's cells: a block holds the cells anchored at it,
    /// plus its top articulation cell (anchored at the parent) unless it is
    /// the core.
    pub(crate) fn new(d: &DeadEnds) -> BlockSizes {
        let mut size = vec![0u32; d.block_end.len()];
        d.cell_anchor.count_values(&mut size);
        let mut max_other = vec![0u32; d.island_sizes.len()];
        for (b, s) in size.iter_mut().enumerate() {
            let island = d.block_island[b] as usize;
            if d.island_core[island] != b as u32 {
                *s += 1;
                max_other[island] = max_other[island].max(*s);
            }
        }
        BlockSizes { size, max_other }
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        4 * (self.size.capacity() + self.max_other.capacity())
    }
}

/// Changes the passability of `cells` (all currently `!open`) on `grid`,
/// repairing `dead_ends` locally when the rule of the module docs allows.
/// Returns `false`, with the grid unchanged, when it does not.
pub(crate) fn try_local(
    grid: &mut Grid,
    movement: &Movement,
    dead_ends: &mut DeadEnds,
    sizes: &mut BlockSizes,
    cells: &[Point],
    open: bool,
    scratch: &mut LocalScratch,
) -> bool {
    let Some(first) = cells.first() else {
        return true;
    };
    let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.x, first.y);
    for p in cells {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    let (x0, y0) = (x0.saturating_sub(2), y0.saturating_sub(2));
    let (x1, y1) = (
        (x1 + 2).min(grid.width() - 1),
        (y1 + 2).min(grid.height() - 1),
    );
    let width = grid.width() as usize;
    let row_major = |p: Point| p.y as usize * width + p.x as usize;

    // 1. One anchor over the window.
    let mut block = NO_NODE;
    let mut before = 0usize;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let a = dead_ends.anchor_of(row_major(Point::new(x, y)));
            if a == NO_NODE {
                continue;
            }
            if block != NO_NODE && a != block {
                return false;
            }
            block = a;
            before += 1;
        }
    }
    if block == NO_NODE {
        return false;
    }
    let island = dead_ends.block_island[block as usize] as usize;
    let core = dead_ends.island_core[island];
    let core_size = sizes.size[core as usize];
    let n = cells.len() as u32;
    let new_size = if open {
        sizes.size[block as usize] + n
    } else {
        sizes.size[block as usize] - n
    };
    // The core must stay strictly the largest block, before and after.
    let max_other = sizes.max_other[island];
    let core_kept = core_size > max_other
        && if block == core {
            new_size > max_other
        } else {
            new_size < core_size
        };
    if !core_kept || (open && before < 2) {
        return false;
    }

    // 2. The window after the change is biconnected.
    for p in cells {
        grid.set_passable(*p, open).expect("cells are on the map");
    }
    if !scratch.biconnected(grid, movement, (x0, y0, x1, y1)) {
        for p in cells {
            grid.set_passable(*p, !open).expect("cells are on the map");
        }
        return false;
    }

    for p in cells {
        dead_ends
            .cell_anchor
            .set(row_major(*p), if open { block } else { NO_NODE });
    }
    sizes.size[block as usize] = new_size;
    if block != core {
        sizes.max_other[island] = sizes.max_other[island].max(new_size);
        if open {
            dead_ends.dead_end_cells += n as u64;
        } else {
            dead_ends.dead_end_cells -= n as u64;
        }
    }
    if open {
        dead_ends.island_sizes[island] += n;
    } else {
        dead_ends.island_sizes[island] -= n;
    }
    true
}

/// Scratch for the biconnectivity test of a small window.
#[derive(Debug, Default)]
pub(crate) struct LocalScratch {
    disc: Vec<u32>,
    low: Vec<u32>,
    stack: Vec<(u32, u32, u8)>,
}

impl LocalScratch {
    /// Whether the passable cells of the window `(x0, y0, x1, y1)`, joined by
    /// the legal moves between them, form a biconnected graph of at least
    /// three cells.
    fn biconnected(
        &mut self,
        grid: &Grid,
        movement: &Movement,
        window: (u32, u32, u32, u32),
    ) -> bool {
        let topology = Grid::topology_movement(movement);
        let (x0, y0, x1, y1) = window;
        let ww = (x1 - x0 + 1) as usize;
        let cells = ww * (y1 - y0 + 1) as usize;
        let local = |p: Point| (p.y - y0) as usize * ww + (p.x - x0) as usize;
        let inside = |p: Point| p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1;
        self.disc.clear();
        self.disc.resize(cells, 0);
        self.low.clear();
        self.low.resize(cells, 0);
        let mut count = 0usize;
        let mut root = None;
        for y in y0..=y1 {
            for x in x0..=x1 {
                if grid.is_passable(Point::new(x, y)) {
                    count += 1;
                    root = root.or(Some(Point::new(x, y)));
                }
            }
        }
        let Some(root) = root else { return false };
        if count < 3 {
            return false;
        }
        let dirs: u8 = if topology.diagonals() { 8 } else { 4 };
        // Iterative Tarjan: (cell, parent, next direction).
        let mut time = 1u32;
        let r = local(root) as u32;
        self.disc[r as usize] = time;
        self.low[r as usize] = time;
        self.stack.clear();
        self.stack.push((r, u32::MAX, 0));
        let mut root_children = 0;
        let to_point = |i: u32| Point::new(x0 + i % ww as u32, y0 + i / ww as u32);
        while let Some(&mut (v, parent, ref mut dir)) = self.stack.last_mut() {
            if *dir < dirs {
                let d = *dir;
                *dir += 1;
                let Some((w, _)) = grid.neighbor_in(grid.node(to_point(v)), d, &topology) else {
                    continue;
                };
                let wp = grid.point(w);
                if !inside(wp) {
                    continue;
                }
                let w = local(wp) as u32;
                if self.disc[w as usize] == 0 {
                    time += 1;
                    self.disc[w as usize] = time;
                    self.low[w as usize] = time;
                    if v == r {
                        root_children += 1;
                    }
                    self.stack.push((w, v, 0));
                } else if w != parent {
                    self.low[v as usize] = self.low[v as usize].min(self.disc[w as usize]);
                }
                continue;
            }
            self.stack.pop();
            if parent != u32::MAX {
                let lv = self.low[v as usize];
                self.low[parent as usize] = self.low[parent as usize].min(lv);
                // A non-root parent whose child cannot climb above it splits.
                if parent != r && lv >= self.disc[parent as usize] {
                    return false;
                }
            }
        }
        // Connected, and the root has one child.
        time as usize == count && root_children == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(ascii: &str, movement: Movement) -> bool {
        let g = Grid::from_ascii(ascii).unwrap();
        let mut s = LocalScratch::default();
        s.biconnected(&g, &movement, (0, 0, g.width() - 1, g.height() - 1))
    }

    #[test]
    fn rings_are_biconnected_and_paths_are_not() {
        let m = Movement::default();
        assert!(check("...\n.@.\n...", m));
        assert!(!check("...\n@@.\n...", m), "a path of cells");
        assert!(!check(".@.\n.@.\n...", m));
        assert!(check("...\n...", m));
        assert!(!check("..", m), "two cells");
        assert!(!check("...\n@@@\n...", m), "two pieces");
        // Two rings joined at one cell: that cell splits them.
        assert!(!check("...@@\n.@.@@\n.....\n@@.@.\n@@...", Movement::FOUR));
    }
}
