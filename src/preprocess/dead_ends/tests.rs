use super::*;
use crate::Point;
use crate::mapgen::{self, MapKind, MapParams};
use crate::preprocess::islands::find_islands;

fn build(ascii: &str) -> (Grid, DeadEnds) {
    let g = Grid::from_ascii(ascii).unwrap();
    let m = Movement::default();
    let isl = find_islands(&g, &m);
    let d = find_dead_ends(&g, &m, &isl);
    (g, d)
}

#[test]
fn corridor_off_a_room_is_a_dead_end() {
    let (g, d) = build(
        "
        ....@@@@
        ........
        ....@@@@
        ....@@@@",
    );
    let dead = |x, y| d.in_dead_end(g.cell_index(Point::new(x, y)).index());
    // The room (4x4) is the core; the corridor beyond its door is a dead end.
    assert!(!dead(0, 0) && !dead(3, 1) && !dead(3, 3));
    assert!(dead(5, 1) && dead(7, 1));
    // The door cell (4,1) is an articulation cell; it joins the corridor to
    // the room, its anchor is the block above it (the corridor's first edge).
    assert_eq!(d.articulation_cells(), 4);
    assert_eq!(d.dead_end_cells(), 4);
}

#[test]
fn relevance_follows_the_tree_path() {
    // Two rooms joined by a corridor, and a side pocket off the corridor.
    let (g, d) = build(
        "
        ...@@@@...
        ..........
        ...@@.@...
        ...@@.@...",
    );
    let node = |x, y| d.anchor_of(g.cell_index(Point::new(x, y)).index());
    let cell = |x, y| g.cell_index(Point::new(x, y)).index();
    let (s, t) = (node(0, 0), node(9, 3));
    assert!(d.relevant(cell(4, 1), s, t));
    assert!(d.relevant(cell(8, 2), s, t));
    assert!(!d.relevant(cell(5, 3), s, t), "side pocket is skipped");
    let inside = node(5, 3);
    assert!(d.relevant(cell(5, 2), s, inside));
}

fn same_as_oracle(g: &Grid, what: &str) {
    for m in Movement::every_rule() {
        let d = find_dead_ends(g, &m, &find_islands(g, &m));
        if let Err(e) = oracle::check(g, &m, &d) {
            panic!("{what}, {m:?}: {e}\n{}", g.to_ascii());
        }
    }
}

#[test]
fn matches_the_oracle_on_random_maps() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for case in 0..300 {
        let (w, h) = (1 + next() % 16, 1 + next() % 16);
        let density = next() % 70;
        let g = Grid::from_fn(w as u32, h as u32, |_| next() % 100 >= density).unwrap();
        same_as_oracle(&g, &format!("case {case}, {w}x{h}, {density}% blocked"));
    }
}

#[test]
fn matches_the_oracle_on_generated_maps() {
    let params = MapParams {
        room_size: 3,
        corridor_width: 1,
        ..MapParams::default()
    };
    for kind in MapKind::ALL {
        for seed in 0..4 {
            let g = mapgen::generate_with(kind, 23, 19, seed, &params).unwrap();
            same_as_oracle(&g, &format!("{kind:?} seed {seed}"));
        }
    }
}

#[test]
fn anchors_wider_than_16_bits() {
    // More than 65,535 blocks: every other cell of every other row open,
    // so each open cell is an island of its own (also under corner
    // cutting), the anchors do not fit in 16 bits.
    let g = Grid::from_fn(600, 460, |p| p.x % 2 == 0 && p.y % 2 == 0).unwrap();
    let m = Movement::default();
    let d = find_dead_ends(&g, &m, &find_islands(&g, &m));
    assert_eq!(d.blocks(), 300 * 230);
    assert!(d.cell_anchor.is_wide());
    // Every cell its own island and block: no articulation, no dead end,
    // every cell its own anchor.
    assert_eq!(
        (d.islands(), d.articulation_cells, d.dead_end_cells),
        (300 * 230, 0, 0)
    );
    let mut anchors: Vec<u32> = g
        .passable_points()
        .map(|p| d.anchor_of(g.cell_index(p).index()))
        .collect();
    anchors.sort_unstable();
    anchors.dedup();
    assert_eq!(anchors.len(), 300 * 230);
    // The narrow limit exactly: 65,535 blocks.
    let g = Grid::from_fn(510, 514, |p| p.x % 2 == 0 && p.y % 2 == 0).unwrap();
    let d = find_dead_ends(&g, &m, &find_islands(&g, &m));
    assert_eq!(d.blocks(), 65_535);
    assert!(!d.cell_anchor.is_wide());
    assert_eq!((d.articulation_cells, d.dead_end_cells), (0, 0));
}

#[test]
fn isolated_cells_and_islands() {
    let (g, d) = build(
        "
        .@.
        @@@
        ..@",
    );
    assert_eq!(d.islands(), 3);
    let i = |x, y| d.island_of(g.cell_index(Point::new(x, y)).index());
    assert_eq!(i(0, 2), i(1, 2));
    assert_ne!(i(0, 0), i(2, 0));
    assert_eq!(i(1, 1), None);
}

#[test]
fn cut_cells_list_ascending_once_and_rank_their_position() {
    let mut cuts = CutCells::new(200);
    for c in [130, 5, 64, 63, 5, 199, 130, 0] {
        cuts.mark(c);
    }
    cuts.finish();
    assert_eq!(cuts.list, vec![0, 5, 63, 64, 130, 199]);
    for (i, c) in cuts.list.iter().enumerate() {
        assert_eq!(cuts.rank(*c), Some(i as u32), "{c}");
    }
    for c in [1, 62, 65, 129, 198] {
        assert_eq!(cuts.rank(c), None, "{c}");
    }
    // Past the cells (a map with no searched island has no words).
    assert_eq!(cuts.rank(200 * 64), None);
    let mut none = CutCells::new(0);
    none.finish();
    assert!(none.list.is_empty() && none.rank(7).is_none());
}
