//! Property tests of flat search (A*, Dijkstra, nearest, distance fields)
//! against a plain, obviously-correct reference Dijkstra written here over
//! `(x, y)` coordinates with explicit neighbour rules.
//!
//! Every failure prints the (shrunk) map as ASCII with `S` and `G` marked, the
//! terrain weights that differ from plain ground, and the query.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

use proptest::prelude::*;
use proptest::sample::Index;
use tierpath::{
    AStar, Connectivity, CornerRule, Cost, Dijkstra, Grid, Heuristic, Movement, Path, Point,
    SearchCache, TieBreak, Weight,
};

const MAX_SIDE: u32 = 24;
const CASES: u32 = 256;

/// The movement rules under test: 4-connected, 8-connected with each corner
/// rule, and the tutorials' 10/14 costs.
fn movements() -> [Movement; 5] {
    [
        Movement::FOUR,
        Movement::OCTILE,
        Movement {
            corners: CornerRule::IfOneFree,
            ..Movement::OCTILE
        },
        Movement {
            corners: CornerRule::Always,
            ..Movement::OCTILE
        },
        Movement::TEN_FOURTEEN,
    ]
}

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

// ----- the test map, independent of `Grid` -----

/// A random map: passability and terrain weights (percent) per cell, row-major.
#[derive(Clone)]
struct Map {
    width: u32,
    height: u32,
    open: Vec<bool>,
    weight: Vec<u16>,
}

impl Map {
    fn idx(&self, x: u32, y: u32) -> usize {
        (y * self.width + x) as usize
    }

    fn passable(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < self.width as i64
            && y < self.height as i64
            && self.open[self.idx(x as u32, y as u32)]
    }

    fn to_grid(&self) -> Grid {
        let mut g = Grid::from_fn(self.width, self.height, |p| self.open[self.idx(p.x, p.y)])
            .expect("valid size");
        for y in 0..self.height {
            for x in 0..self.width {
                let w = self.weight[self.idx(x, y)];
                if w != Weight::ONE.0 {
                    g.set_weight(Point::new(x, y), Weight(w)).unwrap();
                }
            }
        }
        g
    }

    fn point(&self, i: usize) -> Point {
        Point::new(i as u32 % self.width, i as u32 / self.width)
    }

    /// `grid.to_ascii()` with `S` and `G` marked (and `T` for extra targets),
    /// plus the weighted cells.
    fn render(&self, grid: &Grid, marks: &[(Point, char)]) -> String {
        let mut rows: Vec<Vec<char>> = grid
            .to_ascii()
            .lines()
            .map(|l| l.chars().collect())
            .collect();
        for (p, c) in marks {
            rows[p.y as usize][p.x as usize] = *c;
        }
        let mut s = String::from("\n");
        for r in rows {
            s.extend(r);
            s.push('\n');
        }
        let weighted: Vec<String> = (0..self.open.len())
            .filter(|i| self.open[*i] && self.weight[*i] != Weight::ONE.0)
            .map(|i| {
                let p = self.point(i);
                format!("({},{})={}", p.x, p.y, self.weight[i])
            })
            .collect();
        if !weighted.is_empty() {
            s.push_str(&format!("weights: {}\n", weighted.join(" ")));
        }
        s
    }
}

/// A map and a query on it (start and goal on passable cells), plus extra
/// targets for `nearest`.
#[derive(Clone)]
struct Case {
    map: Map,
    start: Point,
    goal: Point,
    targets: Vec<Point>,
}

impl Case {
    fn render(&self, grid: &Grid) -> String {
        let mut marks: Vec<(Point, char)> = self.targets.iter().map(|t| (*t, 'T')).collect();
        marks.push((self.start, 'S'));
        marks.push((self.goal, 'G'));
        format!(
            "{}start {} goal {} targets {:?}",
            self.map.render(grid, &marks),
            self.start,
            self.goal,
            self.targets
        )
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&self.map.to_grid()))
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
            let mut map = Map {
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

// ----- the reference -----

/// Plain Dijkstra from `start`: the least cost to every cell (`None` when
/// unreachable), with a move's cost `base * weight(entered cell)`.
fn reference(map: &Map, m: &Movement, start: Point) -> Vec<Option<u64>> {
    let mut dist: Vec<Option<u64>> = vec![None; map.open.len()];
    let mut heap = BinaryHeap::new();
    dist[map.idx(start.x, start.y)] = Some(0);
    heap.push(Reverse((0u64, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        if dist[map.idx(x, y)] != Some(d) {
            continue; // stale
        }
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && m.connectivity == Connectivity::Four {
                    continue;
                }
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if !map.passable(nx, ny) {
                    continue;
                }
                if diagonal {
                    let side_a = map.passable(nx, y as i64);
                    let side_b = map.passable(x as i64, ny);
                    let ok = match m.corners {
                        CornerRule::Never => side_a && side_b,
                        CornerRule::IfOneFree => side_a || side_b,
                        CornerRule::Always => true,
                    };
                    if !ok {
                        continue;
                    }
                }
                let base = if diagonal { m.diagonal } else { m.straight };
                let i = map.idx(nx as u32, ny as u32);
                let nd = d + base as u64 * map.weight[i] as u64;
                if dist[i].is_none_or(|old| nd < old) {
                    dist[i] = Some(nd);
                    heap.push(Reverse((nd, nx as u32, ny as u32)));
                }
            }
        }
    }
    dist
}

fn ref_cost(map: &Map, dist: &[Option<u64>], p: Point) -> Option<u64> {
    dist[map.idx(p.x, p.y)]
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

fn config() -> ProptestConfig {
    ProptestConfig {
        // `PROPTEST_CASES` overrides the default, for deeper runs.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(CASES),
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
            let dist = reference(&case.map, &m, case.start);
            let want = ref_cost(&case.map, &dist, case.goal);
            let check = |out: Option<Path>, what: String| -> Result<(), TestCaseError> {
                let ctx = format!("{what} under {m:?}{}", case.render(&grid));
                match (out, want) {
                    (None, None) => Ok(()),
                    (Some(p), Some(w)) => {
                        let got = check_path(&p, &grid, &m, case.start, case.goal, &ctx)?;
                        prop_assert_eq!(got, w, "{}: cost", ctx);
                        Ok(())
                    }
                    (got, want) => Err(TestCaseError::fail(format!(
                        "{ctx}: reachability differs: got {:?}, reference {want:?}",
                        got.map(|p| p.cost)
                    ))),
                }
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
        let grid = case.map.to_grid();
        let m = movements()[mi];
        let hs = admissible(&m);
        let h = hs[hi.index(hs.len())];
        let dist = reference(&case.map, &m, case.start);
        let want = ref_cost(&case.map, &dist, case.goal);
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
                let ctx = format!("A* {h:?} {tb:?} reopen={reopen} under {m:?}{}", case.render(&grid));
                match (out.path, want) {
                    (None, None) => {}
                    (Some(p), Some(w)) => {
                        let got = check_path(&p, &grid, &m, case.start, case.goal, &ctx)?;
                        prop_assert_eq!(got, w, "{}: cost", ctx);
                    }
                    (got, want) => prop_assert!(
                        false,
                        "{}: reachability differs: got {:?}, reference {:?}",
                        ctx,
                        got.map(|p| p.cost),
                        want
                    ),
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
        let grid = case.map.to_grid();
        let m = movements()[mi];
        let hs = admissible(&m);
        let h = hs[hi.index(hs.len())];
        let dist = reference(&case.map, &m, case.start);
        let want = ref_cost(&case.map, &dist, case.goal);
        let mut cache = SearchCache::new();
        let out = AStar::new(&grid)
            .movement(m)
            .heuristic(h)
            .weight(w)
            .find_path(&mut cache, case.start, case.goal)
            .unwrap();
        let ctx = format!("weighted A* w={w} {h:?} under {m:?}{}", case.render(&grid));
        match (out.path, want) {
            (None, None) => {}
            (Some(p), Some(opt)) => {
                let got = check_path(&p, &grid, &m, case.start, case.goal, &ctx)?;
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
            (got, want) => prop_assert!(
                false,
                "{}: reachability differs: got {:?}, reference {:?}",
                ctx,
                got.map(|p| p.cost),
                want
            ),
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
        let dist = reference(&case.map, &m, case.start);
        let want = ref_cost(&case.map, &dist, case.goal);
        let mut cache = SearchCache::new();
        let out = AStar::new(&grid)
            .movement(m)
            .heuristic(Heuristic::Manhattan)
            .reopen_closed(reopen)
            .find_path(&mut cache, case.start, case.goal)
            .unwrap();
        let ctx = format!("A* Manhattan reopen={reopen} under {m:?}{}", case.render(&grid));
        match (out.path, want) {
            (None, None) => {}
            (Some(p), Some(opt)) => {
                let got = check_path(&p, &grid, &m, case.start, case.goal, &ctx)?;
                prop_assert!(got >= opt, "{}: cost {} below the optimum {}", ctx, got, opt);
            }
            (got, want) => prop_assert!(
                false,
                "{}: reachability differs: got {:?}, reference {:?}",
                ctx,
                got.map(|p| p.cost),
                want
            ),
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
        let dist = reference(&case.map, &m, case.start);
        let want = targets.iter().filter_map(|t| ref_cost(&case.map, &dist, *t)).min();
        let mut cache = SearchCache::new();
        let (found, _) = Dijkstra::new(&grid)
            .movement(m)
            .nearest(&mut cache, case.start, &targets)
            .unwrap();
        let ctx = format!("nearest under {m:?}{}", case.render(&grid));
        match (found, want) {
            (None, None) => {}
            (Some(n), Some(w)) => {
                prop_assert!(n.target < targets.len(), "{}: target index {}", ctx, n.target);
                let t = targets[n.target];
                let got = check_path(&n.path, &grid, &m, case.start, t, &ctx)?;
                prop_assert_eq!(got, w, "{}: cost to the nearest target", ctx);
                prop_assert_eq!(ref_cost(&case.map, &dist, t), Some(w), "{}: reported target is not a nearest one", ctx);
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
        let dist = reference(&case.map, &m, case.start);
        let mut cache = SearchCache::new();
        let field = Dijkstra::new(&grid)
            .movement(m)
            .distance_field(&mut cache, case.start)
            .unwrap();
        for (i, want) in dist.iter().enumerate() {
            let p = case.map.point(i);
            prop_assert_eq!(
                field.get(p),
                want.map(Cost),
                "distance field at {} under {:?}{}",
                p, m, case.render(&grid)
            );
        }
        prop_assert_eq!(field.reachable(), dist.iter().filter(|d| d.is_some()).count());
        prop_assert_eq!(field.get(Point::new(grid.width(), 0)), None);
        prop_assert_eq!(field.get(Point::new(0, grid.height())), None);
    }
}

/// The reference itself, on hand-checked maps.
#[test]
fn reference_sanity() {
    let grid_of = |s: &str| {
        let g = Grid::from_ascii(s).unwrap();
        let map = Map {
            width: g.width(),
            height: g.height(),
            open: (0..g.height())
                .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
                .map(|p| g.is_passable(p))
                .collect(),
            weight: vec![100; g.len()],
        };
        (g, map)
    };
    let (_, map) = grid_of(
        "
        .@
        @.",
    );
    let s = Point::new(0, 0);
    let g = Point::new(1, 1);
    let cost = |m: Movement| ref_cost(&map, &reference(&map, &m, s), g);
    assert_eq!(cost(Movement::OCTILE), None);
    assert_eq!(cost(Movement::FOUR), None);
    let loose = |c| Movement {
        corners: c,
        ..Movement::OCTILE
    };
    assert_eq!(cost(loose(CornerRule::IfOneFree)), None);
    assert_eq!(cost(loose(CornerRule::Always)), Some(1_414_200));

    let (_, map) = grid_of(
        "
        ...
        .@.
        ...",
    );
    let dist = reference(&map, &Movement::OCTILE, s);
    assert_eq!(ref_cost(&map, &dist, Point::new(2, 2)), Some(4_000_000));
    let dist = reference(&map, &loose(CornerRule::IfOneFree), s);
    assert_eq!(
        ref_cost(&map, &dist, Point::new(2, 2)),
        Some(2_000_000 + 1_414_200)
    );
    let dist = reference(&map, &Movement::TEN_FOURTEEN, s);
    assert_eq!(ref_cost(&map, &dist, Point::new(2, 1)), Some(3_000));
}
