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

use fixedbitset::FixedBitSet;

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

/// What the depth-first pass produces.
struct Forest {
    /// Per padded cell: [`WALL`], or `DONE | block` (for a DFS root that is an
    /// articulation cell, block 0: it is corrected with the other articulation
    /// cells).
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
    /// Articulation cells, ascending padded index.
    cuts: Vec<u32>,
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
/// table, eight cells at a time on open ground, at the column's final width.
/// On a 1024 x 1024 StarCraft map this is about half the instructions and
/// memory of three per-cell arrays and a bit set.
pub fn find_dead_ends(grid: &Grid, movement: &Movement, islands: &Islands) -> DeadEnds {
    let movement = Grid::topology_movement(movement);
    let depth = islands.sizes.iter().copied().max().unwrap_or(0) as usize;
    let forest = if movement.diagonals() {
        depth_first::<8>(grid, depth, |v, d| {
            grid.neighbor_in(Node(v), d, &movement).map(|(w, _)| w.0)
        })
    } else {
        // Straight moves only: a neighbour is its offset away (a wall's state
        // makes the passability test unnecessary).
        let pw = grid.padded_width();
        let offsets = [pw.wrapping_neg(), 1, pw, u32::MAX];
        depth_first::<4>(grid, depth, |v, d| {
            Some(v.wrapping_add(offsets[d as usize]))
        })
    };
    assemble(grid, islands, forest)
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
fn depth_first<const DIRS: u8>(
    grid: &Grid,
    depth: usize,
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
    let mut state: Vec<u32> = grid
        .passable_slice()
        .iter()
        .map(|open| if *open { 0 } else { WALL })
        .collect();
    let mut block_top: Vec<u32> = Vec::new();
    let mut block_size: Vec<u32> = Vec::new();
    let mut block_tree: Vec<u32> = Vec::new();
    let mut tree_sizes: Vec<u32> = Vec::new();
    let mut cuts: Vec<u32> = Vec::new();
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
    let mut from = 0usize;
    // The next unvisited cell in row-major order (padding is a wall), found
    // eight states at a time.
    let unvisited = |state: &[u32], from: usize| -> Option<usize> {
        let mut i = from;
        while i + 8 <= state.len() {
            let chunk = &state[i..i + 8];
            if chunk.iter().fold(false, |any, s| any | (*s == 0)) {
                break;
            }
            i += 8;
        }
        state[i..].iter().position(|s| *s == 0).map(|k| i + k)
    };
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
    while let Some(seed) = unvisited(&state, from) {
        from = seed + 1;
        let seed = seed as u32;
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
                    cuts.push(u);
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
                    cuts.push(seed);
                    root_cuts.push(seed);
                    0
                }
            };
    }
    // A cell is pushed once per block it tops.
    cuts.sort_unstable();
    cuts.dedup();
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

/// The block-cut forest of the depth-first pass, re-rooted at each island's
/// largest block and numbered in preorder, and every cell's anchor.
fn assemble(grid: &Grid, islands: &Islands, forest: Forest) -> DeadEnds {
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

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;
