//! The depth-first pass as it was with a vertex stack (the textbook form),
//! kept as a reference: the pass that walks the depth-first tree instead
//! must give the same forest, block for block, on every map.

use super::safe::SafeIslands;
use super::*;
use crate::mapgen::{self, MapKind, MapParams};
use crate::preprocess::islands::find_islands;

fn vertex_stack_depth_first<const DIRS: u8>(
    grid: &Grid,
    depth: usize,
    next: impl Fn(u32, u8) -> Option<u32>,
) -> Forest {
    let mut state: Vec<u32> = grid
        .passable_slice()
        .iter()
        .map(|open| if *open { 0 } else { WALL })
        .collect();
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
    // discovery time is its state. Then the stack of cells not yet in a
    // block. At most one each per cell of the largest island; reserved as
    // the search gets there, not up front.
    let mut lows: Vec<u32> = Vec::with_capacity(depth.min(1 << 16));
    let mut tried: Vec<u8> = Vec::with_capacity(depth.min(1 << 16));
    let mut vstack: Vec<u32> = Vec::with_capacity(depth.min(1 << 16));
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
        vstack.push(seed);
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
                    vstack.push(w);
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
            if low >= disc_u {
                let b = block_top.len() as u32;
                block_top.push(u);
                block_tree.push(tree);
                let mut size = 1u32;
                while let Some(x) = vstack.pop() {
                    state[x as usize] = DONE | b;
                    size += 1;
                    if x == v {
                        break;
                    }
                }
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
        vstack.clear();
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

/// The dead ends through the reference pass.
fn reference(grid: &Grid, movement: &Movement) -> DeadEnds {
    let islands = find_islands(grid, movement);
    let movement = Grid::topology_movement(movement);
    let depth = islands.sizes.iter().copied().max().unwrap_or(0) as usize;
    let forest = if movement.diagonals() {
        vertex_stack_depth_first::<8>(grid, depth, |v, d| {
            grid.neighbor_in(Node(v), d, &movement).map(|(w, _)| w.0)
        })
    } else {
        let pw = grid.padded_width();
        let offsets = [pw.wrapping_neg(), 1, pw, u32::MAX];
        vertex_stack_depth_first::<4>(grid, depth, |v, d| {
            Some(v.wrapping_add(offsets[d as usize]))
        })
    };
    assemble(grid, &islands, forest, None)
}

/// Both with the safe islands searched (as on small maps) and skipped
/// wherever there is one; returns how many islands were skipped.
fn same_as_reference(grid: &Grid, what: &str) -> usize {
    let mut skipped = 0;
    for m in Movement::every_rule() {
        let islands = find_islands(grid, &m);
        let want = reference(grid, &m);
        let got = find_dead_ends(grid, &m, &islands);
        assert_eq!(got, want, "{what}, {m:?}\n{}", grid.to_ascii());
        let got = find_dead_ends_skipping(grid, &m, &islands, 1);
        assert_eq!(got, want, "{what}, {m:?}, skipping\n{}", grid.to_ascii());
        let topology = Grid::topology_movement(&m);
        skipped += SafeIslands::find(grid, &m, &topology, 1)
            .safe
            .iter()
            .filter(|s| **s)
            .count();
    }
    skipped
}

#[test]
fn same_forest_as_the_vertex_stack_on_random_maps() {
    let mut x = 0x6A09_E667_F3BC_C909u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut skipped = 0;
    for case in 0..400 {
        let (w, h) = (1 + next() % 24, 1 + next() % 24);
        let density = next() % 60;
        let g = Grid::from_fn(w as u32, h as u32, |_| next() % 100 >= density).unwrap();
        skipped += same_as_reference(&g, &format!("case {case}, {w}x{h}, {density}% blocked"));
    }
    assert!(skipped > 400, "the skip is exercised: {skipped} islands");
}

#[test]
fn same_forest_as_the_vertex_stack_on_generated_maps() {
    let params = MapParams::default();
    for kind in MapKind::ALL {
        for seed in 0..3 {
            let g = mapgen::generate_with(kind, 120, 90, seed, &params).unwrap();
            same_as_reference(&g, &format!("{kind:?} seed {seed}"));
        }
    }
    // One island, skipped under every rule.
    let rules = Movement::every_rule().len();
    assert_eq!(
        same_as_reference(&Grid::new(70, 50).unwrap(), "open"),
        rules
    );
    // Open rooms with pillars (safe) beside a room behind a corridor (not).
    let g = Grid::from_fn(60, 40, |p| {
        let pillar = p.x % 6 == 3 && p.y % 5 == 2;
        let wall = p.x == 30 && p.y != 20;
        let moat = (p.x == 45 || p.y == 8) && p.x >= 45 && p.y <= 8;
        !(pillar || wall || moat)
    })
    .unwrap();
    assert!(same_as_reference(&g, "rooms") > 0);
}
