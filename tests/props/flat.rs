//! Property tests of flat search (A*, Dijkstra, nearest, distance fields)
//! against a plain, obviously-correct reference Dijkstra over `(x, y)`
//! coordinates with explicit neighbour rules (`common::reference`).
//!
//! Every failure prints the (shrunk) map as ASCII with `S` and `G` marked, the
//! terrain weights that differ from plain ground, and the query.

use crate::common;

use std::fmt;

use crate::common::reference::{TestMap, dijkstra, dijkstra_within, movements};
use proptest::prelude::*;
use proptest::sample::Index;
use tierpath::{
    AStar, Connectivity, CornerRule, Cost, Dijkstra, Grid, Heuristic, Movement, Path, Point,
    SearchCache, TieBreak, Weight,
};

const MAX_SIDE: u32 = 24;
const CASES: u32 = 256;

/// The heuristics that never overestimate under `m`.
fn admissible(m: &Movement) -> Vec<Heuristic> {
    let mut hs = vec![
        Heuristic::Auto,
        Heuristic::Octile,
        Heuristic::Euclidean,
        Heuristic::Chebyshev,
        Heuristic::Zero,
    ];
    if m.connectivity == Connectivity::Four {
        hs.push(Heuristic::Manhattan);
    }
    hs
}

const TIE_BREAKS: [TieBreak; 4] = [
    TieBreak::LargerG,
    TieBreak::SmallerG,
    TieBreak::LastAdded,
    TieBreak::FirstAdded,
];

/// A map and a query on it (start and goal on passable cells), plus extra
/// targets for `nearest`.
#[derive(Clone)]
struct Case {
    map: TestMap,
    start: Point,
    goal: Point,
    targets: Vec<Point>,
}

impl Case {
    /// The map with `S` and `G` marked (and `T` for extra targets), its
    /// weighted cells, and the query.
    fn render(&self) -> String {
        let mut marks: Vec<(Point, char)> = self.targets.iter().map(|t| (*t, 'T')).collect();
        marks.push((self.start, 'S'));
        marks.push((self.goal, 'G'));
        format!(
            "\n{}start {} goal {} targets {:?}",
            self.map.render(&marks),
            self.start,
            self.goal,
            self.targets
        )
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

/// Random cases, built so they shrink well: the cells come from a fixed
/// `MAX_SIDE x MAX_SIDE` sheet of which the map is the top-left `w x h`
/// window (so shrinking the size keeps the remaining cells), and every roll
/// shrinks towards an open, unweighted cell at the top-left corner.
fn case_strategy() -> impl Strategy<Value = Case> {
    // Per cell: a roll for blocking, a roll for being weighted, a weight.
    let cell = (0u32..100, 0u32..100, 50u16..=400);
    let side = MAX_SIDE as usize;
    let xy = (0..MAX_SIDE, 0..MAX_SIDE);
    (
        (1..=MAX_SIDE, 1..=MAX_SIDE, 0u32..=45, any::<bool>()),
        xy.clone(),
        xy.clone(),
        prop::collection::vec(xy, 0..5),
        prop::collection::vec(cell, side * side),
    )
        .prop_map(move |((w, h, density, weighted), s, g, ts, sheet)| {
            let at = |x: u32, y: u32| sheet[y as usize * side + x as usize];
            let mut open = Vec::with_capacity((w * h) as usize);
            let mut weight = Vec::with_capacity((w * h) as usize);
            for y in 0..h {
                for x in 0..w {
                    let (block, heavy, wt) = at(x, y);
                    open.push(99 - block >= density);
                    weight.push(if weighted && heavy >= 75 {
                        wt
                    } else {
                        Weight::ONE.0
                    });
                }
            }
            let mut map = TestMap {
                width: w,
                height: h,
                open,
                weight,
            };
            let mut place = |(x, y): (u32, u32)| {
                let p = Point::new(x % w, y % h);
                let i = map.idx(p.x, p.y);
                map.open[i] = true;
                p
            };
            let start = place(s);
            let goal = place(g);
            let targets = ts.into_iter().map(&mut place).collect();
            Case {
                start,
                goal,
                targets,
                map,
            }
        })
}

/// Checks a returned path: valid under `m` (legal moves, stated cost is the
/// moves' sum) and with the right endpoints. Returns its cost.
fn check_path(
    path: &Path,
    grid: &Grid,
    m: &Movement,
    start: Point,
    goal: Point,
    ctx: &str,
) -> Result<u64, TestCaseError> {
    if let Err(e) = path.validate(grid, m) {
        return Err(TestCaseError::fail(format!(
            "{ctx}: invalid path: {e}\ncells {:?}",
            path.cells
        )));
    }
    prop_assert_eq!(path.start(), Some(start), "{}: wrong start", ctx);
    prop_assert_eq!(path.goal(), Some(goal), "{}: wrong goal", ctx);
    Ok(path.cost.0)
}

/// Checks an answer for the case's goal against the reference's least cost
/// `want`: both unreachable, or a valid path (see [`check_path`]) where the
/// reference has one. Returns the path, its cost and the optimum, if any.
fn check_answer(
    out: Option<Path>,
    want: Option<u64>,
    case: &Case,
    grid: &Grid,
    m: &Movement,
    ctx: &str,
) -> Result<Option<(Path, u64, u64)>, TestCaseError> {
    match (out, want) {
        (None, None) => Ok(None),
        (Some(p), Some(w)) => {
            let got = check_path(&p, grid, m, case.start, case.goal, ctx)?;
            Ok(Some((p, got, w)))
        }
        (got, want) => Err(TestCaseError::fail(format!(
            "{ctx}: reachability differs: got {:?}, reference {want:?}",
            got.map(|p| p.cost)
        ))),
    }
}

/// A case's grid, movement rule `mi`, the admissible heuristic `hi` picks,
/// and the reference's least cost to the goal.
fn pick(case: &Case, mi: usize, hi: Index) -> (Grid, Movement, Heuristic, Option<u64>) {
    let m = movements()[mi];
    let hs = admissible(&m);
    let h = hs[hi.index(hs.len())];
    let want = dijkstra(&case.map, &m, case.start).get(case.goal);
    (case.map.to_grid(), m, h, want)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // `PROPTEST_CASES` overrides the default, for deeper runs.
        cases: common::env_number("PROPTEST_CASES", CASES),
        // Shrinking is cheap (a case runs in microseconds): let it finish.
        max_shrink_iters: 20_000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Exact A* under every movement rule and every admissible heuristic, and
    /// `Dijkstra::find_path`, agree with the reference on cost and
    /// reachability, and return valid paths.
    #[test]
    fn astar_and_dijkstra_are_optimal(case in case_strategy()) {
        let grid = case.map.to_grid();
        let mut cache = SearchCache::new();
        for m in movements() {
            let want = dijkstra(&case.map, &m, case.start).get(case.goal);
            let check = |out: Option<Path>, what: String| -> Result<(), TestCaseError> {
                let ctx = format!("{what} under {m:?}{}", case.render());
                if let Some((_, got, w)) = check_answer(out, want, &case, &grid, &m, &ctx)? {
                    prop_assert_eq!(got, w, "{}: cost", ctx);
                }
                Ok(())
            };
            for h in admissible(&m) {
                prop_assert!(h.is_admissible(&m));
                let out = AStar::new(&grid)
                    .movement(m)
                    .heuristic(h)
                    .find_path(&mut cache, case.start, case.goal)
                    .unwrap();
                check(out.path, format!("A* {h:?}"))?;
            }
            let out = Dijkstra::new(&grid)
                .movement(m)
                .find_path(&mut cache, case.start, case.goal)
                .unwrap();
            check(out.path, "Dijkstra::find_path".into())?;
        }
    }

    /// Every tie-breaking rule (with and without re-opening) still finds an
    /// optimal path.
    #[test]
    fn tie_breaks_are_optimal(case in case_strategy(), mi in 0usize..5, hi in any::<Index>()) {
        let (grid, m, h, want) = pick(&case, mi, hi);
        let mut cache = SearchCache::new();
        for tb in TIE_BREAKS {
            for reopen in [false, true] {
                let out = AStar::new(&grid)
                    .movement(m)
                    .heuristic(h)
                    .tie_break(tb)
                    .reopen_closed(reopen)
                    .find_path(&mut cache, case.start, case.goal)
                    .unwrap();
                let ctx = format!("A* {h:?} {tb:?} reopen={reopen} under {m:?}{}", case.render());
                if let Some((_, got, w)) = check_answer(out.path, want, &case, &grid, &m, &ctx)? {
                    prop_assert_eq!(got, w, "{}: cost", ctx);
                }
            }
        }
    }

    /// Weighted A* returns a valid path costing at most `w` times the optimum
    /// (plus a tiny slack for the 1/1024 fixed-point factor and the rounding of
    /// `h * factor`).
    #[test]
    fn weighted_astar_is_bounded(
        case in case_strategy(),
        mi in 0usize..5,
        hi in any::<Index>(),
        w in 1.0f64..3.0,
    ) {
        let (grid, m, h, want) = pick(&case, mi, hi);
        let mut cache = SearchCache::new();
        let out = AStar::new(&grid)
            .movement(m)
            .heuristic(h)
            .weight(w)
            .find_path(&mut cache, case.start, case.goal)
            .unwrap();
        let ctx = format!("weighted A* w={w} {h:?} under {m:?}{}", case.render());
        if let Some((p, got, opt)) = check_answer(out.path, want, &case, &grid, &m, &ctx)? {
            prop_assert!(got >= opt, "{}: cost {} below the optimum {}", ctx, got, opt);
            // The engine uses factor = round(w * 1024) / 1024; one unit of
            // slack per move covers the flooring of h * factor.
            let factor = (w * 1024.0).round() as u128;
            let slack = 1024 * p.moves() as u128;
            prop_assert!(
                got as u128 * 1024 <= factor * opt as u128 + slack,
                "{}: cost {} above {} * optimum {}",
                ctx, got, w, opt
            );
        }
    }

    /// Manhattan on an 8-connected map overestimates: A* with it is not
    /// optimal, but its paths are still valid, never cheaper than the optimum,
    /// and found exactly when one exists.
    #[test]
    fn inadmissible_manhattan_stays_valid(case in case_strategy(), mi in 1usize..5, reopen in any::<bool>()) {
        let grid = case.map.to_grid();
        let m = movements()[mi];
        prop_assert!(!Heuristic::Manhattan.is_admissible(&m));
        let want = dijkstra(&case.map, &m, case.start).get(case.goal);
        let mut cache = SearchCache::new();
        let out = AStar::new(&grid)
            .movement(m)
            .heuristic(Heuristic::Manhattan)
            .reopen_closed(reopen)
            .find_path(&mut cache, case.start, case.goal)
            .unwrap();
        let ctx = format!("A* Manhattan reopen={reopen} under {m:?}{}", case.render());
        if let Some((_, got, opt)) = check_answer(out.path, want, &case, &grid, &m, &ctx)? {
            prop_assert!(got >= opt, "{}: cost {} below the optimum {}", ctx, got, opt);
        }
    }

    /// `Dijkstra::nearest` reaches a target at the least reference cost over
    /// all targets (the goal and up to four more), or none when none is
    /// reachable.
    #[test]
    fn nearest_matches_reference(case in case_strategy(), mi in 0usize..5) {
        let grid = case.map.to_grid();
        let m = movements()[mi];
        let mut targets = vec![case.goal];
        targets.extend(&case.targets);
        let dist = dijkstra(&case.map, &m, case.start);
        let want = targets.iter().filter_map(|t| dist.get(*t)).min();
        let mut cache = SearchCache::new();
        let (found, _) = Dijkstra::new(&grid)
            .movement(m)
            .nearest(&mut cache, case.start, &targets)
            .unwrap();
        let ctx = format!("nearest under {m:?}{}", case.render());
        match (found, want) {
            (None, None) => {}
            (Some(n), Some(w)) => {
                prop_assert!(n.target < targets.len(), "{}: target index {}", ctx, n.target);
                let t = targets[n.target];
                let got = check_path(&n.path, &grid, &m, case.start, t, &ctx)?;
                prop_assert_eq!(got, w, "{}: cost to the nearest target", ctx);
                prop_assert_eq!(dist.get(t), Some(w), "{}: reported target is not a nearest one", ctx);
            }
            (got, want) => prop_assert!(
                false,
                "{}: reachability differs: got {:?}, reference {:?}",
                ctx,
                got.map(|n| (n.target, n.path.cost)),
                want
            ),
        }
    }

    /// `Dijkstra::distance_field` equals the reference at every cell.
    #[test]
    fn distance_field_matches_reference(case in case_strategy(), mi in 0usize..5) {
        let grid = case.map.to_grid();
        let m = movements()[mi];
        let dist = dijkstra(&case.map, &m, case.start);
        let mut cache = SearchCache::new();
        let field = Dijkstra::new(&grid)
            .movement(m)
            .distance_field(&mut cache, case.start)
            .unwrap();
        for (p, want) in dist.iter() {
            prop_assert_eq!(
                field.get(p),
                want.map(Cost),
                "distance field at {} under {:?}{}",
                p, m, case.render()
            );
        }
        prop_assert_eq!(field.reachable(), dist.reachable());
        prop_assert_eq!(field.get(Point::new(grid.width(), 0)), None);
        prop_assert_eq!(field.get(Point::new(0, grid.height())), None);
    }
}

/// The reference itself, on hand-checked maps.
#[test]
fn reference_sanity() {
    let map_of = |s: &str| TestMap::from_grid(&Grid::from_ascii(s).unwrap());
    let map = map_of(
        "
        .@
        @.",
    );
    let s = Point::new(0, 0);
    let g = Point::new(1, 1);
    let cost = |m: Movement| dijkstra(&map, &m, s).get(g);
    assert_eq!(cost(Movement::OCTILE), None);
    assert_eq!(cost(Movement::FOUR), None);
    let loose = |c| Movement {
        corners: c,
        ..Movement::OCTILE
    };
    assert_eq!(cost(loose(CornerRule::IfOneFree)), None);
    assert_eq!(cost(loose(CornerRule::Always)), Some(1_414_200));

    let map = map_of(
        "
        ...
        .@.
        ...",
    );
    let dist = dijkstra(&map, &Movement::OCTILE, s);
    assert_eq!(dist.get(Point::new(2, 2)), Some(4_000_000));
    assert_eq!(dist.reachable(), 8);
    assert_eq!(dist.get(Point::new(3, 0)), None, "off the map");
    let dist = dijkstra(&map, &loose(CornerRule::IfOneFree), s);
    assert_eq!(dist.get(Point::new(2, 2)), Some(2_000_000 + 1_414_200));
    let dist = dijkstra(&map, &Movement::TEN_FOURTEEN, s);
    assert_eq!(dist.get(Point::new(2, 1)), Some(3_000));

    // Restricted to a predicate: around the ring the long way; the corner
    // rule still sees the map's cells, allowed or not.
    let not_top_middle = |p: Point| p != Point::new(1, 0);
    let dist = dijkstra_within(&map, &Movement::OCTILE, s, not_top_middle);
    assert_eq!(dist.get(Point::new(2, 0)), Some(6_000_000));
    assert_eq!(dist.get(Point::new(1, 0)), None);
    let open = map_of(
        "
        ..
        ..",
    );
    let dist = dijkstra_within(&open, &Movement::OCTILE, s, not_top_middle);
    assert_eq!(dist.get(Point::new(1, 1)), Some(1_414_200));
}
