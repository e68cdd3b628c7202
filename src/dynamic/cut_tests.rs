//! Repaired == rebuilt on the edits that reshape islands and the block
//! forest: a corridor closed (a cycle broken, or an island cut off), two
//! islands joined through a wall, an island cut in two, each undone again;
//! every movement rule, unit sizes 1 to 3.

use proptest::prelude::*;

use super::tests::{assert_same, edited};
use super::*;
use crate::{HierarchyBuilder, Movement, Polish, QueryCache};

/// A map and the edits made to it, in order.
#[derive(Debug, Clone)]
struct CutCase {
    grid: Grid,
    steps: Vec<Vec<Edit>>,
    movement: usize,
    max_size: u32,
    cluster: u32,
}

/// The cells of the rectangle `x0..x1` x `y0..y1`, set to `open`.
fn rect(x0: u32, x1: u32, y0: u32, y1: u32, open: bool) -> Vec<Edit> {
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| Edit::Passable(Point::new(x, y), open)))
        .collect()
}

fn cut_strategy() -> impl Strategy<Value = CutCase> {
    (
        (12u32..=40, 10u32..=36, 0u8..3, 1u32..=3, 1u32..=3),
        (0u32..1000, 0u32..1000, 0u32..1000, any::<bool>()),
        (0usize..5, 1u32..=3, 4u32..=8),
        prop::collection::vec((0u32..40, 0u32..36, 0u32..100), 0..12),
    )
        .prop_map(
            |(
                (w, h, kind, width, thick),
                (fa, fb, fc, two),
                (movement, max_size, cluster),
                junk,
            )| {
                // Fractions of the map, in thousandths.
                let at = |f: u32, n: u32, lo: u32, hi: u32| lo + f * (n - lo - hi).max(1) / 1000;
                let (wall0, wall1) = (w / 3, w / 3 + thick + 1);
                let y1 = at(fa, h, 1, width + 1).min(h - width);
                let y2 = at(fb, h, 1, width + 1).min(h - width);
                let open = |x: u32, y: u32| match kind {
                    // Two rooms joined by one or two corridors through a
                    // thick wall.
                    0 => {
                        !(wall0..wall1).contains(&x)
                            || (y1..y1 + width).contains(&y)
                            || two && (y2..y2 + width).contains(&y)
                    }
                    // Two rooms apart.
                    1 => !(wall0..wall1).contains(&x),
                    // One room.
                    _ => true,
                };
                let mut grid = Grid::from_fn(w, h, |p| open(p.x, p.y)).unwrap();
                // A few scattered walls, so that rooms hold blocks of all
                // kinds.
                for (x, y, r) in junk {
                    if r < 30 {
                        grid.set_passable(Point::new(x % w, y % h), false).unwrap();
                    }
                }
                let mid = (wall0 + wall1) / 2;
                let steps = match kind {
                    0 => {
                        let close = rect(mid, mid + 1, y1, y1 + width, false);
                        let both: Vec<Edit> = close
                            .iter()
                            .copied()
                            .chain(rect(mid, mid + 1, y2, y2 + width, false))
                            .collect();
                        vec![
                            close,
                            rect(mid, mid + 1, y1, y1 + width, true),
                            both,
                            rect(mid, mid + 1, y1, y1 + width, true),
                        ]
                    }
                    1 => {
                        let hole = rect(wall0, wall1, y1, y1 + width, true);
                        let shut = rect(wall0, wall1, y1, y1 + width, false);
                        vec![hole, shut]
                    }
                    _ => {
                        // A line across the map, of `width` rows, at `y1`;
                        // taken down again one cell at a time from `fc`.
                        let line = rect(0, w, y1, y1 + width, false);
                        let x = fc % w;
                        vec![
                            line,
                            rect(x, x + 1, y1, y1 + width, true),
                            rect(0, w, y1, y1 + width, true),
                        ]
                    }
                };
                CutCase {
                    grid,
                    steps,
                    movement,
                    max_size,
                    cluster,
                }
            },
        )
}

impl CutCase {
    fn builder(&self) -> HierarchyBuilder {
        HierarchyBuilder::new()
            .cluster_size(self.cluster)
            .movement(Movement::every_rule()[self.movement])
            .max_unit_size(self.max_size)
            .landmarks(0)
            // Not `Auto`: a rebuild would decide it again from the edited map.
            .polish(Polish::Never)
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_shrink_iters: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// After each edit the repaired hierarchy equals one built from scratch
    /// on the changed map, and a few queries agree.
    #[test]
    fn cuts_and_joins_equal_rebuilt(case in cut_strategy()) {
        let mut grid = case.grid.clone();
        let mut world = DynamicHierarchy::new(case.builder().build(grid.clone()).unwrap());
        let mut cache = QueryCache::new();
        for (i, edits) in case.steps.iter().enumerate() {
            let report = world.apply(edits).unwrap();
            grid = edited(&grid, edits);
            let rebuilt = case.builder().build(grid.clone()).unwrap();
            let ctx = format!("after step {i}, {:?}\n{}", report.dead_ends, grid.to_ascii());
            assert_same(world.hierarchy(), &rebuilt, &ctx);
            let open: Vec<Point> = grid.passable_points().collect();
            for k in 0..open.len().min(4) {
                let (s, t) = (open[k * 7 % open.len()], open[(k * 13 + 5) % open.len()]);
                let a = world.find_path(&mut cache, s, t).unwrap();
                let b = rebuilt.find_path(&mut cache, s, t).unwrap();
                prop_assert_eq!(a.path.map(|p| p.cells), b.path.map(|p| p.cells), "{} -> {} {}", s, t, ctx);
            }
        }
    }
}

/// A regression: the window that repairs the closed cells (top) reaches the
/// island below, whose ring cell (0, 8) is a cut cell of the window with a
/// dead end above it; that dead end must keep its place below the core.
#[test]
fn a_dead_end_hanging_at_the_ring_keeps_its_parent() {
    let rows = [
        "@@@@@@", "@@@@@@", "@@@...", "@@@@@@", "..@@.@", "@@@@@@", "@@@@@@", ".@@@@@", "..@@@@",
        "..@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@",
        "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@@", "@@@@@.", "@@@@@@", "@@@@@@", "@@@@@@",
        "@@@@@@",
    ];
    let grid = Grid::from_ascii(&rows.join("\n")).unwrap();
    let h = HierarchyBuilder::new()
        .landmarks(0)
        .build(grid.clone())
        .unwrap();
    let mut world = DynamicHierarchy::new(h);
    let edits = rect(3, 6, 2, 3, false);
    let r = world.apply(&edits).unwrap();
    let g2 = edited(&grid, &edits);
    let rebuilt = HierarchyBuilder::new().landmarks(0).build(g2).unwrap();
    assert_same(world.hierarchy(), &rebuilt, &format!("{:?}", r.dead_ends));
}
