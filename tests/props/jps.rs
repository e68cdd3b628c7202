//! Property tests of jump point search against the plain reference Dijkstra
//! (`common::reference`), on random maps (noise, walls, rooms) up to 150
//! cells a side, so straight jumps cross 64-bit words; a failure prints the
//! shrunk map as ASCII with its points.
//!
//! For every movement rule (4-connected, and 8-connected under each corner
//! rule) with the benchmark's costs, 10/14, and the extreme cost ratios
//! `Movement::validate` accepts (a diagonal as dear as one straight move, and
//! as two): the same reachability as the reference, the same exact cost, and
//! a valid path joining the endpoints. Weighted maps and unusable costs give
//! the error that names the reason.

use crate::common;

use crate::common::maps::{MapCase, map_cases};
use crate::common::reference::{TestMap, dijkstra, movements};
use proptest::prelude::*;
use tierpath::{
    Connectivity, CornerRule, Grid, GridError, Jps, JpsCache, JpsError, Movement, Point, Weight,
};

const CASES: u32 = 192;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES),
        max_shrink_iters: 5_000,
        ..ProptestConfig::default()
    }
}

/// The reference's movement rules, and every corner rule with a diagonal
/// as dear as one straight move (1/1), as two (1/2: not when cutting past
/// two blocked cells, which is refused, see
/// `corner_cutting_at_two_straight_moves_is_refused`), and 2/3.
fn rules() -> Vec<Movement> {
    let mut out = movements().to_vec();
    for corners in [CornerRule::Never, CornerRule::IfOneFree, CornerRule::Always] {
        for (straight, diagonal) in [(1, 1), (1, 2), (2, 3)] {
            if corners == CornerRule::Always && diagonal == 2 * straight {
                continue;
            }
            out.push(Movement {
                connectivity: Connectivity::Eight,
                corners,
                straight,
                diagonal,
            });
        }
    }
    out
}

/// The case's map with every weight reset to plain ground.
fn unweighted(map: &TestMap) -> TestMap {
    let mut plain = map.clone();
    plain.weight.fill(Weight::ONE.0);
    plain
}

/// From the case's first point to every point: JPS agrees with the reference.
fn check_against_reference(case: &MapCase, m: &Movement) -> Result<(), TestCaseError> {
    let plain = unweighted(&case.map);
    let grid = plain.to_grid();
    let jps = Jps::with_movement(&grid, *m)
        .map_err(|e| TestCaseError::fail(format!("{m:?} refused: {e}")))?;
    let mut cache = JpsCache::new();
    let start = case.points[0];
    let want = dijkstra(&plain, m, start);
    for &goal in &case.points {
        let ctx = format!("{m:?}: {start} -> {goal}");
        let out = jps
            .find_path(&mut cache, start, goal)
            .map_err(|e| TestCaseError::fail(format!("{ctx}: {e}")))?;
        match (out.path, want.get(goal)) {
            (None, None) => {}
            (Some(path), Some(cost)) => {
                if let Err(e) = path.validate(&grid, m) {
                    return Err(TestCaseError::fail(format!(
                        "{ctx}: invalid path: {e}\ncells {:?}",
                        path.cells
                    )));
                }
                prop_assert_eq!(path.start(), Some(start), "{}: wrong start", ctx);
                prop_assert_eq!(path.goal(), Some(goal), "{}: wrong goal", ctx);
                prop_assert_eq!(path.cost.0, cost, "{}: not the least cost", ctx);
                prop_assert!(out.stats.expanded >= 1, "{}: nothing expanded", ctx);
            }
            (got, want) => {
                return Err(TestCaseError::fail(format!(
                    "{ctx}: reachability differs: JPS {:?}, reference {want:?}",
                    got.map(|p| p.cost)
                )));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    /// Optimal, valid, same reachability, under every rule and cost ratio.
    #[test]
    fn jps_matches_the_reference(case in map_cases(4, 150, 12)) {
        for m in rules() {
            check_against_reference(&case, &m)?;
        }
    }

    /// Weighted maps are refused under every rule, by name; unweighted ones
    /// accepted.
    #[test]
    fn jps_refuses_weighted_maps(case in map_cases(4, 24, 1)) {
        let grid = case.grid();
        let want = if grid.is_weighted() { Err(JpsError::Weighted) } else { Ok(()) };
        for m in rules() {
            let got = Jps::with_movement(&grid, m).map(|_| ());
            prop_assert_eq!(got, want.clone(), "{:?}", m);
        }
    }
}

/// Cutting past two blocked cells at a diagonal cost of two straight moves
/// is refused by name (the pruning would need a strictly cheaper diagonal),
/// weighted or not; without corner cutting that cost is searched.
#[test]
fn corner_cutting_at_two_straight_moves_is_refused() {
    let grid = Grid::new(5, 5).unwrap();
    for (straight, diagonal) in [(1, 2), (7, 14)] {
        for corners in [CornerRule::Never, CornerRule::IfOneFree, CornerRule::Always] {
            let m = Movement {
                connectivity: Connectivity::Eight,
                corners,
                straight,
                diagonal,
            };
            let got = Jps::with_movement(&grid, m).map(|_| ());
            let want = if corners == CornerRule::Always {
                Err(JpsError::DiagonalTies { straight, diagonal })
            } else {
                Ok(())
            };
            assert_eq!(got, want, "{m:?}");
        }
    }
}

/// Costs `Movement::validate` refuses are refused, whatever the rule.
#[test]
fn unusable_costs_are_refused() {
    let grid = Grid::new(5, 5).unwrap();
    for m in rules() {
        for (straight, diagonal) in [(0, 0), (10, 9), (10, 21), (u32::MAX, u32::MAX)] {
            let bad = Movement {
                straight,
                diagonal,
                ..m
            };
            assert!(
                matches!(
                    Jps::with_movement(&grid, bad),
                    Err(JpsError::Movement(GridError::BadMovement { .. }))
                ),
                "{bad:?}"
            );
        }
    }
}

/// A query from a cell to itself is a one-cell path of cost zero.
#[test]
fn a_query_to_itself_is_one_cell() {
    let grid = Grid::new(70, 3).unwrap();
    let jps = Jps::new(&grid).unwrap();
    let mut cache = JpsCache::new();
    let p = Point::new(66, 1);
    let path = jps.find_path(&mut cache, p, p).unwrap().path.unwrap();
    assert_eq!((path.cells, path.cost.0), (vec![p], 0));
}
