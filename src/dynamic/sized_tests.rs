//! Repaired == rebuilt for hierarchies built for several unit sizes: the
//! same structure, and every size's queries answered alike.

use proptest::prelude::*;

use super::tests::{Case, assert_same, case_strategy, edited};
use super::*;
use crate::preprocess::SizeTransitions;
use crate::{Clearance, Grid, HierarchyBuilder, QueryCache, QueryOptions, validate_sized_path};

/// For every size, a few queries between cells where the unit fits: the
/// repaired and the rebuilt hierarchy agree on reachability, path and cost,
/// and the path is legal for the size.
fn same_answers(world: &Hierarchy, rebuilt: &Hierarchy, grid: &Grid, context: &str) {
    let clearance = Clearance::new(grid.clone());
    let mut cache = QueryCache::new();
    for size in 1..=world.max_unit_size() {
        let fits: Vec<Point> = grid
            .passable_points()
            .filter(|p| clearance.fits(*p, size))
            .collect();
        for k in 0..fits.len().min(5) {
            let (s, t) = (fits[k * 7 % fits.len()], fits[(k * 13 + 5) % fits.len()]);
            let ctx = format!("size {size}, {s} -> {t} {context}");
            assert_eq!(
                world.reachable(s, t, size).unwrap(),
                rebuilt.reachable(s, t, size).unwrap(),
                "reachable {ctx}"
            );
            let options = QueryOptions::new().unit_size(size);
            let a = world.find_path_with(&mut cache, s, t, &options).unwrap();
            let b = rebuilt.find_path_with(&mut cache, s, t, &options).unwrap();
            assert_eq!(
                a.path.as_ref().map(|p| (p.cost, &p.cells)),
                b.path.as_ref().map(|p| (p.cost, &p.cells)),
                "path {ctx}"
            );
            assert_eq!(a.path.is_some(), world.reachable(s, t, size).unwrap());
            if let Some(p) = &a.path {
                let legal = validate_sized_path(p, grid, world.movement(), size);
                assert!(legal.is_ok(), "{legal:?} {ctx}");
            }
        }
    }
}

/// The components of every size as a value independent of their numbering:
/// per size, per cell, the first cell (row-major) of its component, or
/// `u32::MAX` where the unit does not fit.
fn canonical_components(h: &Hierarchy) -> Vec<Vec<u32>> {
    let sizes = h.sizes().expect("built for several sizes");
    let grid = h.grid();
    (1..=sizes.max)
        .map(|k| {
            let mut first = std::collections::HashMap::new();
            (0..grid.len())
                .map(|i| {
                    let p = Point::new(i as u32 % grid.width(), i as u32 / grid.width());
                    let level = sizes.level(grid, p);
                    if level < k {
                        return u32::MAX;
                    }
                    let comp = sizes.components.component(i, level, k);
                    *first.entry(comp).or_insert(i as u32)
                })
                .collect()
        })
        .collect()
}

fn sized_strategy() -> impl Strategy<Value = Case> {
    (case_strategy(), 2u32..=3, any::<bool>()).prop_map(|(mut case, max_size, one)| {
        case.max_size = max_size;
        case.larger = if one {
            SizeTransitions::One
        } else {
            SizeTransitions::Ends
        };
        case
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        max_shrink_iters: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Built for sizes up to 2 or 3: after every batch of edits the repaired
    /// hierarchy equals one built from scratch on the changed map (clearance,
    /// transitions, annotated edges in the same order, per-size counts), and
    /// every size's queries agree.
    #[test]
    fn sized_repaired_equals_rebuilt(case in sized_strategy()) {
        let mut grid = case.grid();
        let mut world = DynamicHierarchy::new(case.builder(4).build(grid.clone()).unwrap());
        world.landmark_scratch.budget = Some(usize::MAX);
        for (i, step) in case.steps.iter().enumerate() {
            let edits = case.edits(step, &grid);
            let report = world.apply(&edits).unwrap();
            grid = edited(&grid, &edits);
            if report.changed_cells.is_empty() {
                continue;
            }
            let ctx = format!("after step {i} ({step:?})\n{}", grid.to_ascii());
            let mut rebuilt = case.builder(4).build(grid.clone()).unwrap();
            assert_same(world.hierarchy(), &rebuilt, &ctx);
            // The same landmarks on both: the same searches.
            rebuilt.set_landmarks(world.landmarks().clone());
            // Repairs keep the landmarks but drop the larger sizes' landmark
            // levels until `refresh_landmarks`: the same on both.
            rebuilt.refresh_search_aids(false);
            prop_assert_eq!(
                canonical_components(world.hierarchy()),
                canonical_components(&rebuilt),
                "components {}", ctx
            );
            same_answers(world.hierarchy(), &rebuilt, &grid, &ctx);
        }
        world.refresh_landmarks();
        let rebuilt = case.builder(4).build(grid.clone()).unwrap();
        assert_same(world.hierarchy(), &rebuilt, "after refreshing landmarks");
        prop_assert_eq!(world.landmarks(), rebuilt.landmarks(), "after refreshing landmarks");
    }
}

#[test]
fn a_closed_cell_touches_the_larger_units_that_covered_it() {
    // A size-3 unit's path along the top row covers rows 0..3; closing a
    // cell of row 2 leaves its anchors open, yet the path must be planned
    // again: the clusters whose clearance changed are reported.
    let mut world = DynamicHierarchy::new(
        HierarchyBuilder::new()
            .cluster_size(8)
            .max_unit_size(3)
            .build(Grid::new(64, 32).unwrap())
            .unwrap(),
    );
    let mut cache = QueryCache::new();
    let options = QueryOptions::new().unit_size(3);
    let (s, t) = (Point::new(1, 0), Point::new(60, 0));
    let path = world
        .find_path_with(&mut cache, s, t, &options)
        .unwrap()
        .path
        .unwrap();
    assert!(path.cells.iter().all(|p| p.y == 0));
    let report = world.set_passable(&[Point::new(30, 2)], false).unwrap();
    assert!(!report.blocks(&path.cells));
    assert!(report.touches(&path.cells));
    let after = world
        .find_path_with(&mut cache, s, t, &options)
        .unwrap()
        .path
        .unwrap();
    assert!(validate_sized_path(&after, world.grid(), world.movement(), 3).is_ok());
    assert!(after.cost > path.cost);
    // A wall across the map's full height cuts every size; its last cell
    // opened again lets sizes 1 through.
    let wall: Vec<Point> = (0..32).map(|y| Point::new(40, y)).collect();
    world.set_passable(&wall, false).unwrap();
    for size in 1..=3 {
        assert!(
            !world
                .reachable(Point::new(0, 20), Point::new(60, 20), size)
                .unwrap()
        );
    }
    world.set_passable(&[Point::new(40, 31)], true).unwrap();
    assert!(
        world
            .reachable(Point::new(0, 20), Point::new(60, 31), 1)
            .unwrap()
    );
    assert!(
        !world
            .reachable(Point::new(0, 20), Point::new(60, 20), 2)
            .unwrap()
    );
}
