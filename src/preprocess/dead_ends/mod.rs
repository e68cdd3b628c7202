//! Stage 2: dead ends, from the block-cut tree of each island.
//!
//! # Definition
//!
//! An *articulation cell* is a passable cell whose removal splits its island.
//! The island's *blocks* (biconnected components) and articulation cells form a
//! tree, the block-cut tree. We root each island's tree at its largest block
//! (by cells), the island's *core*. For an articulation cell `a`, the cells in
//! the subtree below `a` (excluding `a`) form the **dead-end region** `D(a)`:
//! they attach to the rest of the island only through `a`. A cell is *in a dead
//! end* when it lies in some `D(a)`, i.e. it is not a cell of the core block.
//! Regions nest (a corridor off a corridor off the core).
//!
//! # Why skipping them is safe
//!
//! Every path from outside `D(a)` into `D(a)` passes through `a`, and so does
//! every path back out. A path between two cells outside `D(a)` that enters
//! `D(a)` therefore visits `a` twice; cutting out the loop between the two
//! visits gives a path that costs strictly less (all moves cost more than
//! zero). So no least-cost path between two cells outside `D(a)` enters it, and
//! a planner may ignore `D(a)` unless the start or the goal is inside it.
//!
//! # The test the planner uses
//!
//! Every cell has an *anchor* block: its own block, or for an articulation
//! cell the block above it. Only blocks are kept, numbered in preorder of the
//! rooted tree (an articulation cell's child blocks hang directly below its
//! anchor), so "block `v` is an ancestor-or-self of block `d`" is
//! `v <= d < end(v)`. For a query from `s` to `t`, a cell `c` can lie on a
//! least-cost path only if `anchor(c)` is an ancestor-or-self of `anchor(s)` or
//! of `anchor(t)`: every block on the tree path between `s` and `t` is, and an
//! articulation cell lies on that path only if the block above it does. All
//! other cells are in dead-end regions holding neither endpoint.

use super::islands::Islands;
use crate::grid::{Grid, Movement, Node};
use crate::tiled::TileColumn;

/// No node: a blocked cell.
pub(crate) const NO_NODE: u32 = u32::MAX;

/// The block forest of the map, the product of stage 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeadEnds {
    /// Anchor block of every cell, row-major; [`NO_NODE`] when blocked.
    /// Stored once per run of equal anchors. A block's preorder id, unless
    /// `block_pre` is set.
    pub(crate) cell_anchor: TileColumn,
    /// Empty, or the preorder id of each block named in `cell_anchor`
    /// ([`NO_NODE`] for unused names): run-time repairs renumber the forest
    /// through this table instead of rewriting every cell's anchor.
    pub(crate) block_pre: Vec<u32>,
    /// Exclusive end of each block's preorder subtree range.
    pub(crate) block_end: Vec<u32>,
    /// Island of each block.
    pub(crate) block_island: Vec<u32>,
    /// The core block of each island.
    pub(crate) island_core: Vec<u32>,
    /// Cells of each island.
    pub(crate) island_sizes: Vec<u32>,
    /// Cells in dead ends (not anchored at their island's core block).
    pub(crate) dead_end_cells: u64,
    /// Number of articulation cells.
    pub(crate) articulation_cells: u64,
}

impl DeadEnds {
    /// Cells in dead-end regions.
    pub fn dead_end_cells(&self) -> u64 {
        self.dead_end_cells
    }

    /// Number of articulation cells.
    pub fn articulation_cells(&self) -> u64 {
        self.articulation_cells
    }

    /// Number of blocks (biconnected components).
    pub fn blocks(&self) -> usize {
        self.block_end.len()
    }

    /// Number of islands.
    pub fn islands(&self) -> usize {
        self.island_sizes.len()
    }

    /// The anchor block (preorder id) of a row-major cell index ([`NO_NODE`]
    /// when blocked).
    #[inline]
    pub(crate) fn anchor_of(&self, cell: usize) -> u32 {
        let a = self.cell_anchor.get(cell);
        if a == NO_NODE || self.block_pre.is_empty() {
            a
        } else {
            self.block_pre[a as usize]
        }
    }

    /// The cell table with preorder ids (what a file holds), canonical.
    pub(crate) fn preorder_anchors(&self) -> std::borrow::Cow<'_, TileColumn> {
        if self.block_pre.is_empty() {
            return self.cell_anchor.canonical();
        }
        let all: Vec<u32> = (0..self.cell_anchor.len())
            .map(|i| self.anchor_of(i))
            .collect();
        std::borrow::Cow::Owned(TileColumn::pack_slice(&all, NO_NODE))
    }

    /// The island of a row-major cell index, `None` when blocked.
    #[inline]
    pub(crate) fn island_of(&self, cell: usize) -> Option<u32> {
        let a = self.anchor_of(cell);
        (a != NO_NODE).then(|| self.block_island[a as usize])
    }

    /// Whether a cell lies in a dead-end region.
    #[inline]
    pub(crate) fn in_dead_end(&self, cell: usize) -> bool {
        let a = self.anchor_of(cell);
        a != NO_NODE && a != self.island_core[self.block_island[a as usize] as usize]
    }

    /// Whether block `v` is an ancestor-or-self of block `d`.
    #[inline]
    pub(crate) fn contains(&self, v: u32, d: u32) -> bool {
        v <= d && d < self.block_end[v as usize]
    }

    /// Whether `cell` may lie on a least-cost path between cells anchored at
    /// `s` and `t` (see the module docs).
    #[inline]
    pub(crate) fn relevant(&self, cell: usize, s: u32, t: u32) -> bool {
        let a = self.anchor_of(cell);
        self.contains(a, s) || self.contains(a, t)
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.cell_anchor.memory_bytes()
            + 4 * (self.block_pre.len()
                + self.block_end.len()
                + self.block_island.len()
                + self.island_core.len()
                + self.island_sizes.len())
    }
}

/// The search state of a blocked cell (and of the padding): it reads as
/// visited, and as later than any discovery time, so the back-edge update
/// (`low = min(low, state)`) ignores it and no passability test is needed.
const WALL: u32 = u32::MAX;
/// Set in the state of a cell once it has been popped into its block; the
/// other bits then hold the block. Such a state also exceeds every discovery
/// time, so edges to finished cells leave `low` alone, as they must (they lead
/// to descendants, discovered later).
const DONE: u32 = 1 << 31;
/// No direction back: a DFS root.
const NO_BACK: u8 = 8;
/// The state of a cell the search has finished but not yet put in a block,
/// with its way back to its parent in the low three bits. Above every
/// discovery time (below 2^29) and below every [`DONE`] state: an edge to
/// a finished cell leads to a descendant, and leaves `low` alone, so the
/// discovery time is no longer needed; the way back lets a block collect
/// its cells by walking the depth-first tree instead of keeping them on a
/// stack.
const FIN: u32 = 0x7FFF_FFF0;

/// The articulation cells a depth-first pass finds, as a set of padded
/// cells: marked as the pass meets them (once per block a cell tops, so
/// some twice), then listed in ascending order and ranked in O(1), with no
/// sort and no search (on a maze of one-cell corridors, where most cells
/// are cuts, the sort and the binary searches were a sixth of stage 2).
#[derive(Debug, Default)]
struct CutCells {
    /// One bit per padded cell.
    words: Vec<u64>,
    /// Per word: the cut cells in the words before it (after `finish`).
    before: Vec<u32>,
    /// The cut cells, ascending padded index (after `finish`).
    list: Vec<u32>,
}

impl CutCells {
    /// No cut yet among `cells` padded cells.
    fn new(cells: usize) -> CutCells {
        CutCells {
            words: vec![0; cells.div_ceil(64)],
            ..CutCells::default()
        }
    }

    /// Marks `c` a cut cell (again is fine).
    fn mark(&mut self, c: u32) {
        self.words[c as usize / 64] |= 1 << (c % 64);
    }

    /// Lists and ranks the marked cells; call once, after the last mark.
    fn finish(&mut self) {
        self.before = Vec::with_capacity(self.words.len());
        let mut count = 0u32;
        for (i, w) in self.words.iter().enumerate() {
            self.before.push(count);
            count += w.count_ones();
            let mut bits = *w;
            while bits != 0 {
                self.list.push((i * 64) as u32 + bits.trailing_zeros());
                bits &= bits - 1;
            }
        }
    }

    /// The position of `c` in [`list`](Self::list), when it is a cut cell.
    fn rank(&self, c: u32) -> Option<u32> {
        let (i, bit) = (c as usize / 64, c % 64);
        let w = *self.words.get(i)?;
        (w >> bit & 1 == 1).then(|| self.before[i] + (w & ((1 << bit) - 1)).count_ones())
    }
}

/// What the depth-first pass produces.
struct Forest {
    /// Per padded cell: [`WALL`], or `DONE | block` (for a DFS root that is an
    /// articulation cell, block 0: it is corrected with the other articulation
    /// cells); 0 on safe islands (not searched), and empty when every island
    /// is safe.
    state: Vec<u32>,
    /// Per block, in the order blocks complete: the cell above it.
    block_top: Vec<u32>,
    /// Per block: its cells.
    block_size: Vec<u32>,
    /// Per block: its depth-first tree (trees are islands, seeded in
    /// row-major order as islands are numbered).
    block_tree: Vec<u32>,
    /// Per depth-first tree: its cells.
    tree_sizes: Vec<u32>,
    /// Articulation cells.
    cuts: CutCells,
    /// DFS roots that are articulation cells (in no block of their own),
    /// ascending.
    root_cuts: Vec<u32>,
}

/// Finds articulation cells and blocks, builds the block-cut forest rooted at
/// each island's largest block, and tags dead-end regions (stage 2).
///
/// # Performance
/// One depth-first pass over the passable cells (Hopcroft-Tarjan) with one
/// `u32` of state per padded cell (wall; discovery time while on the search
/// path; its way back once finished; its block once in one), each cell's neighbours read
/// once at its first visit, and five bytes per cell on the search path (its
/// low point, which lives only there, and the directions it has left; the
/// way back is the parent's last direction). No vertex stack: a block
/// collects its cells by walking down the depth-first tree from its first
/// cell (on open ground the search path is the whole island, and a stack
/// of cells beside it was another four bytes a cell, 1 GB on a 16,384 x
/// 16,384 map). Islands come from the search itself (one depth-first tree
/// each, seeded in the order islands are numbered), not from a label per
/// cell.
/// Then a small pass over the block-cut forest (a few blocks per thousand
/// cells on game maps) and one pass writing the anchors through a per-block
/// table, run by run of equal states, straight into the packed column (no
/// per-cell anchor array). On a 1024 x 1024 StarCraft map this is about half
/// the instructions and memory of three per-cell arrays and a bit set.
///
/// Before it, one labelling pass finds the islands whose every cell is
/// locally safe (see `safe`: no such island has an articulation cell); when
/// they hold at least 2^16 cells in all, they are given their one block
/// each without a search, and their anchors are written run by run of the
/// labelling. When every island is safe there is no per-cell state at all:
/// an open 16,384 x 16,384 map needs no search and touches no memory per
/// cell beyond the packed column.
pub fn find_dead_ends(grid: &Grid, movement: &Movement, islands: &Islands) -> DeadEnds {
    find_dead_ends_skipping(grid, movement, islands, safe::SKIP_MIN_CELLS)
}

/// [`find_dead_ends`], skipping the search on safe islands when they hold
/// at least `min_skip` cells in all (see `safe`).
pub(crate) fn find_dead_ends_skipping(
    grid: &Grid,
    islands_movement: &Movement,
    islands: &Islands,
    min_skip: u64,
) -> DeadEnds {
    let movement = Grid::topology_movement(islands_movement);
    let mut safe = SafeIslands::find(grid, islands_movement, &movement, min_skip);
    debug_assert_eq!(safe.first.len(), islands.sizes.len());
    // The search's depth is at most the largest island it enters.
    let depth = islands
        .sizes
        .iter()
        .zip(&safe.safe)
        .filter(|(_, s)| !**s)
        .map(|(n, _)| *n)
        .max()
        .unwrap_or(0) as usize;
    // A state per padded cell only when some island is searched: on open
    // ground that is a gigabyte never needed.
    let state: Vec<u32> = if safe.any() && safe.safe.iter().all(|s| *s) {
        Vec::new()
    } else {
        grid.passable_slice()
            .iter()
            .map(|open| if *open { 0 } else { WALL })
            .collect()
    };
    let forest = if movement.diagonals() {
        depth_first::<8>(grid, state, depth, islands, &mut safe, |v, d| {
            grid.neighbor_in(Node(v), d, &movement).map(|(w, _)| w.0)
        })
    } else {
        // Straight moves only: a neighbour is its offset away (a wall's state
        // makes the passability test unnecessary).
        let pw = grid.padded_width();
        let offsets = [pw.wrapping_neg(), 1, pw, u32::MAX];
        depth_first::<4>(grid, state, depth, islands, &mut safe, |v, d| {
            Some(v.wrapping_add(offsets[d as usize]))
        })
    };
    let safe = safe.any().then_some((&safe, islands_movement));
    assemble(grid, islands, forest, safe)
}

/// Hopcroft-Tarjan, seeds in row-major order, directions in `next`'s order
/// `0..DIRS` (`None`: no move that way; direction `d ^ 2` is the way back
/// from `d`): when a child's subtree cannot reach above its parent, the
/// child's finished descendants not yet in a block (a vertex stack's top in
/// the textbook form), with the child and the parent, form a block. Each
/// vertex but a DFS root goes into exactly one block: its parent block in the
/// DFS-rooted tree. Those cells are found by walking the child's subtree
/// through the ways back finished cells keep in their state ([`FIN`]),
/// without a stack, and not below a cell already in a block (its subtree is
/// too).
///
/// `state` comes in as [`WALL`] or 0 (unvisited) per padded cell. Each
/// island `safe` marks is one block, given in island order without a search
/// (its cells' states are left at 0, for the caller to set).
fn depth_first<const DIRS: u8>(
    grid: &Grid,
    mut state: Vec<u32>,
    depth: usize,
    islands: &Islands,
    safe: &mut SafeIslands,
    next: impl Fn(u32, u8) -> Option<u32>,
) -> Forest {
    // The padded offset of each direction (a cell's children are the
    // neighbours whose way back leads to it).
    let pw = grid.padded_width();
    let offsets: [u32; 8] = [
        pw.wrapping_neg(),
        1,
        pw,
        u32::MAX,
        pw.wrapping_neg().wrapping_add(1),
        pw + 1,
        pw - 1,
        pw.wrapping_neg().wrapping_sub(1),
    ];
    let mut block_top: Vec<u32> = Vec::new();
    let mut block_size: Vec<u32> = Vec::new();
    let mut block_tree: Vec<u32> = Vec::new();
    let mut tree_sizes: Vec<u32> = Vec::new();
    let mut cuts = CutCells::new(state.len());
    let mut root_cuts: Vec<u32> = Vec::new();
    // The cells on the search path below the one being scanned, five bytes
    // each: its low point so far, and the directions it has still to try
    // with the one it descended by (the lowest bit: its child's way back is
    // that direction `^ 2`). The cell itself is its child's way back, and its
    // discovery time is its state. At most one per cell of the largest
    // island; reserved as the search gets there, not up front.
    let mut lows: Vec<u32> = Vec::with_capacity(depth.min(1 << 16));
    let mut tried: Vec<u8> = Vec::with_capacity(depth.min(1 << 16));
    let mut time = 0u32;
    // A cell's first visit reads all its neighbours at once. Those already
    // visited stay so: an ancestor keeps its discovery time while the cell is
    // on the search path, and the others (finished cells, walls) read as
    // later than it. So the back edges give the cell's low point from its
    // own edges now (all but the tree edge to its parent, which is `back`),
    // and only the neighbours unvisited now need a second look, when the
    // search gets to them: a descendant may have reached them by then. This
    // is the same search, in the same order, as scanning the directions one
    // by one.
    let first_visit = |state: &[u32], v: u32, disc: u32, back: u8| -> (u32, u32) {
        let (mut low, mut pending) = (disc, 0u32);
        for d in 0..DIRS {
            let Some(w) = next(v, d) else { continue };
            let s = state[w as usize];
            if s == 0 {
                pending |= 1 << d;
            } else if d != back {
                low = low.min(s);
            }
        }
        (low, pending)
    };
    // The way back from the cell scanned to its parent, read from the
    // parent's entry on the path (none at the root).
    let way_back = |tried: &[u8]| {
        tried
            .last()
            .map_or(NO_BACK, |t| t.trailing_zeros() as u8 ^ 2)
    };
    // Islands in label order, each seeded at its first cell (as a scan for
    // the next unvisited cell would find it).
    for (k, first) in safe.first.iter().enumerate() {
        if safe.safe[k] {
            // One block, topped by the first cell, as the search would
            // find it.
            safe.block[k] = block_top.len() as u32;
            block_top.push(*first);
            block_size.push(islands.sizes[k]);
            block_tree.push(k as u32);
            tree_sizes.push(islands.sizes[k]);
            continue;
        }
        let seed = *first;
        let tree = tree_sizes.len() as u32;
        let first_time = time + 1;
        time += 1;
        state[seed as usize] = time;
        let mut root_children = 0u32;
        let mut root_block = 0u32;
        // The cell being scanned: its path entry is pushed only when the
        // search descends, and popped when it comes back.
        let mut v = seed;
        let (mut low, mut pending) = first_visit(&state, v, time, NO_BACK);
        'scan: loop {
            while pending != 0 {
                let d = pending.trailing_zeros() as u8;
                let w = next(v, d).expect("a move found at the first visit");
                if state[w as usize] == 0 {
                    lows.push(low);
                    tried.push(pending as u8);
                    time += 1;
                    state[w as usize] = time;
                    v = w;
                    (low, pending) = first_visit(&state, w, time, d ^ 2);
                    continue 'scan;
                }
                pending &= pending - 1;
            }
            // `v` is done: back to its parent `u`, still on the search path
            // (so its state is its discovery time).
            let back = way_back(&tried);
            let (Some(parent_low), Some(parent_tried)) = (lows.pop(), tried.pop()) else {
                break;
            };
            let u = next(v, back).expect("the way back is a move");
            let disc_u = state[u as usize];
            state[v as usize] = FIN | back as u32;
            if low >= disc_u {
                let b = block_top.len() as u32;
                block_top.push(u);
                block_tree.push(tree);
                let size = 1 + collect::<DIRS>(&mut state, &offsets, v, DONE | b);
                block_size.push(size);
                if u == seed {
                    root_children += 1;
                    root_block = b;
                } else {
                    cuts.mark(u);
                }
            }
            v = u;
            low = parent_low.min(low);
            pending = u32::from(parent_tried & (parent_tried - 1));
        }
        tree_sizes.push(time + 1 - first_time);
        state[seed as usize] = DONE
            | match root_children {
                0 => {
                    block_top.push(seed);
                    block_size.push(1);
                    block_tree.push(tree);
                    block_top.len() as u32 - 1
                }
                1 => root_block,
                _ => {
                    cuts.mark(seed);
                    root_cuts.push(seed);
                    0
                }
            };
    }
    cuts.finish();
    Forest {
        state,
        block_top,
        block_size,
        block_tree,
        tree_sizes,
        cuts,
        root_cuts,
    }
}

/// Puts finished cell `v` and its finished descendants not yet in a block
/// into the block whose state is `done`, walking down the depth-first tree
/// (a child is a neighbour whose way back leads here) and back up through
/// each cell's way back, in post-order; returns how many cells it put.
fn collect<const DIRS: u8>(state: &mut [u32], offsets: &[u32; 8], v: u32, done: u32) -> u32 {
    let mut size = 0u32;
    let mut x = v;
    // The next direction to look for a child of `x` in.
    let mut d = 0u8;
    loop {
        let child = (d..DIRS).find(|d| {
            let y = x.wrapping_add(offsets[*d as usize]);
            state[y as usize] == FIN | (*d ^ 2) as u32
        });
        match child {
            Some(c) => {
                x = x.wrapping_add(offsets[c as usize]);
                d = 0;
            }
            None => {
                let back = (state[x as usize] - FIN) as u8;
                state[x as usize] = done;
                size += 1;
                if x == v {
                    return size;
                }
                x = x.wrapping_add(offsets[back as usize]);
                d = (back ^ 2) + 1;
            }
        }
    }
}

mod assemble;
mod safe;

use safe::SafeIslands;

use assemble::assemble;

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
