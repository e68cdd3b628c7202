//! Unit tests of jump point search: every pair of cells on small maps
//! against `AStar` under every rule and several cost ratios, long jumps
//! across words, errors.

use super::*;
use crate::grid::CornerRule;
use crate::{AStar, SearchCache};

/// Every connectivity and corner rule, each with the benchmark's costs and
/// the extreme ratios [`Movement::validate`] accepts (diagonal equal to a
/// straight move, and to two, except cutting past two blocked cells, which
/// is refused at that cost), plus 10/14 and 2/3.
fn rules() -> Vec<Movement> {
    let mut out = Vec::new();
    for corners in [CornerRule::Never, CornerRule::IfOneFree, CornerRule::Always] {
        for (straight, diagonal) in [(10_000, 14_142), (10, 14), (1, 1), (1, 2), (2, 3)] {
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
    out.push(Movement::FOUR);
    out.push(Movement {
        straight: 3,
        diagonal: 5,
        ..Movement::FOUR
    });
    out
}

/// Every pair of passable cells under `m`: JPS and A* agree on the cost,
/// and JPS's path is valid and joins them; so does JPS guided by one
/// landmark and by three ([`Guide`]).
fn agrees_with_astar(grid: &Grid, m: Movement) {
    let jps = Jps::with_movement(grid, m).unwrap();
    let guides = [Guide::new(grid, m, 1), Guide::new(grid, m, 3)];
    let astar = AStar::new(grid).movement(m);
    let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
    let cells: Vec<Point> = grid.passable_points().collect();
    for &s in &cells {
        for &t in &cells {
            let a = astar.find_path(&mut ac, s, t).unwrap().path;
            let j = jps.find_path(&mut jc, s, t).unwrap().path;
            let want = a.map(|p| p.cost);
            assert_eq!(
                j.as_ref().map(|p| p.cost),
                want,
                "{m:?}: {s} -> {t} on\n{}",
                grid.to_ascii()
            );
            let guided = guides.iter().flatten().map(|g| {
                let found = jps.lines.search_within(&mut jc, s, t, u64::MAX, Some(g));
                (g.count(), found.into_path())
            });
            for (landmarks, p) in std::iter::once((0, j)).chain(guided) {
                assert_eq!(p.as_ref().map(|p| p.cost), want, "{landmarks} landmarks");
                if let Some(p) = p {
                    p.validate(grid, &m)
                        .unwrap_or_else(|e| panic!("{m:?}: {s} -> {t}: {e}\n{}", grid.to_ascii()));
                    assert_eq!((p.start(), p.goal()), (Some(s), Some(t)));
                }
            }
        }
    }
}

#[test]
fn small_maps_every_pair() {
    for text in [
        "
        .....
        .@@@.
        .....
        ",
        "
        ..........
        .@@@@@@@..
        .......@..
        .@@@@..@..
        ....@.....
        ",
        "
        ..@...@...
        ..@.@.@.@.
        ....@...@.
        @@@@@@@.@@
        ..........
        ",
        "
        .@.
        @.@
        .@.
        ",
    ] {
        let grid = Grid::from_ascii(text).unwrap();
        for m in rules() {
            agrees_with_astar(&grid, m);
        }
    }
}

#[test]
fn random_small_maps_every_pair() {
    // Pseudo-random 9x7 maps, a third blocked: corners, pockets and
    // diagonal squeezes of every shape.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..4 {
        let grid = Grid::from_fn(9, 7, |_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            !state.is_multiple_of(3)
        })
        .unwrap();
        for m in rules() {
            agrees_with_astar(&grid, m);
        }
    }
}

#[test]
fn long_jumps_cross_words() {
    // A 200-wide map: straight jumps span several 64-bit words, and
    // forced cells sit on both sides of word boundaries.
    let grid = Grid::from_fn(200, 9, |p| {
        !((p.y == 2 && p.x % 63 != 5) || (p.y == 6 && p.x % 61 == 7) || (p.x == 130 && p.y < 8))
    })
    .unwrap();
    for m in rules() {
        long_jumps(&grid, m);
    }
}

/// The long queries of [`long_jumps_cross_words`] under `m`.
fn long_jumps(grid: &Grid, m: Movement) {
    let jps = Jps::with_movement(grid, m).unwrap();
    let astar = AStar::new(grid).movement(m);
    let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
    for (s, t) in [
        ((0, 0), (199, 0)),
        ((199, 8), (0, 0)),
        ((3, 4), (197, 1)),
        ((0, 8), (199, 3)),
    ] {
        let (s, t) = (Point::new(s.0, s.1), Point::new(t.0, t.1));
        let a = astar.find_path(&mut ac, s, t).unwrap();
        let j = jps.find_path(&mut jc, s, t).unwrap();
        let p = j.path.unwrap();
        p.validate(grid, &m).unwrap();
        assert_eq!(p.cost, a.path.unwrap().cost, "{m:?}: {s} -> {t}");
        assert!(j.stats.expanded < a.stats.expanded, "{m:?}: {s} -> {t}");
    }
}

#[test]
fn unreachable_and_trivial_queries() {
    let grid = Grid::from_ascii(
        "
        ..@..
        ..@..
        ..@..
        ",
    )
    .unwrap();
    let jps = Jps::new(&grid).unwrap();
    let mut cache = JpsCache::new();
    let out = jps
        .find_path(&mut cache, Point::new(0, 0), Point::new(4, 2))
        .unwrap();
    assert_eq!(out.path, None);
    assert!(out.stats.expanded > 0);
    let here = jps
        .find_path(&mut cache, Point::new(1, 1), Point::new(1, 1))
        .unwrap();
    assert_eq!(here.path.unwrap().cells, vec![Point::new(1, 1)]);
    assert!(matches!(
        jps.find_path(&mut cache, Point::new(2, 0), Point::new(0, 0)),
        Err(QueryError::Blocked { role: "start", .. })
    ));
    assert!(matches!(
        jps.find_path(&mut cache, Point::new(0, 0), Point::new(5, 0)),
        Err(QueryError::OffMap { role: "goal", .. })
    ));
}

#[test]
fn weighted_maps_and_bad_costs_are_refused() {
    let mut grid = Grid::new(6, 6).unwrap();
    for m in rules() {
        assert!(Jps::with_movement(&grid, m).is_ok(), "{m:?}");
    }
    for (straight, diagonal) in [(0, 0), (10, 9), (10, 21)] {
        let bad = Movement {
            straight,
            diagonal,
            ..Movement::default()
        };
        assert!(matches!(
            Jps::with_movement(&grid, bad),
            Err(JpsError::Movement(GridError::BadMovement { .. }))
        ));
    }
    grid.set_weight(Point::new(2, 2), Weight(300)).unwrap();
    for m in rules() {
        assert_eq!(
            Jps::with_movement(&grid, m).unwrap_err(),
            JpsError::Weighted
        );
    }
}
