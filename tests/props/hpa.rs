//! Property tests of the two-tier planner ([`Hierarchy`]) against exact flat
//! A* on random maps up to 64x64: open noise, long walls with gaps, and rooms
//! with doors (some rooms sealed, so reachability is non-trivial), under every
//! movement rule, with and without terrain weights, cluster sides 4 to 16.
//!
//! For every query: reachability equals flat A*'s; a path is valid, runs from
//! start to goal, states its true cost, and never costs less than the
//! optimum; the lazy plan (`next_segment` pieces, concatenated) is the eager
//! path; the parallel batch (`find_paths`, on 1 and 4 threads) equals the
//! sequential answers; a saved and reloaded hierarchy answers identically.
//! A third of the cases contract the cluster graph (`Hierarchy::contract`):
//! every check above holds for its search as well.
//! Bad endpoints (off the map, blocked) are errors, never panics.
//!
//! A failing case prints its map as ASCII (`S`/`G` mark the queries, weighted
//! cells are listed) with its movement rule and cluster side.

use crate::common;

use std::cell::RefCell;
use std::fmt;

use crate::common::Rng;
use crate::common::maps::{Layout, Obstacles, lay_out};
use crate::common::reference::{TestMap, movements};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use tierpath::{
    AStar, Cost, EntrancePolicy, Grid, Hierarchy, HierarchyBuilder, Method, Movement, Point,
    QueryCache, QueryError, QueryOutcome, SearchCache, Weight,
};

const MIN_SIDE: u32 = 8;
const MAX_SIDE: u32 = 64;
const QUERIES: usize = 8;
/// Cases per property (`PROPTEST_CASES` overrides; the bad-input property
/// runs a quarter as many).
const CASES: u32 = 4000;

/// The settings of a property running `1 / share` of the cases.
fn config(share: u32) -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES) / share,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A random map with its hierarchy settings and queries.
#[derive(Clone)]
struct Case {
    layout: Layout,
    density: u32,
    seed: u64,
    movement_index: usize,
    cluster_size: u32,
    map: TestMap,
    queries: Vec<(Point, Point)>,
}

impl Case {
    fn movement(&self) -> Movement {
        movements()[self.movement_index]
    }

    fn grid(&self) -> Grid {
        self.map.to_grid()
    }

    /// Whether the case searches a contracted cluster graph.
    fn contracted(&self) -> bool {
        self.seed.is_multiple_of(3)
    }

    /// Cell landmarks guiding the near search (0: none): one case in eight
    /// has 1 to 3 (more would leave too few queries to the hierarchical
    /// route: guided jump points answer most of them).
    fn cell_landmarks(&self) -> usize {
        if (self.seed >> 16).is_multiple_of(8) {
            1 + (self.seed >> 20) as usize % 3
        } else {
            0
        }
    }

    /// The transitions' placement: one case in three has them at the ends
    /// of entrances only (what large maps get), whose paths are smoothed
    /// over a wider window.
    fn entrances(&self) -> EntrancePolicy {
        if (self.seed >> 8).is_multiple_of(3) {
            EntrancePolicy::ENDS
        } else {
            EntrancePolicy::default()
        }
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The queries marked, `S`/`G` for the first (drawn last, so it stays
        // visible), `s`/`g` for the others.
        let mut marks = Vec::with_capacity(2 * self.queries.len());
        for (i, (s, g)) in self.queries.iter().enumerate().rev() {
            marks.push((*s, if i == 0 { 'S' } else { 's' }));
            marks.push((*g, if i == 0 { 'G' } else { 'g' }));
        }
        write!(
            f,
            "\n{}x{} {:?} density {}% seed {:#x}, cluster {}, {:?}, contracted {}, cell landmarks {}, {:?}\n{}queries (first is S->G): {:?}",
            self.map.width,
            self.map.height,
            self.layout,
            self.density,
            self.seed,
            self.cluster_size,
            self.movement(),
            self.contracted(),
            self.cell_landmarks(),
            self.entrances(),
            self.map.render(&marks),
            self.queries
        )
    }
}

/// This test's obstacles (see `common::maps::lay_out`).
const OBSTACLES: Obstacles = Obstacles {
    walls_noise_div: 2,
    rooms_noise_div: 3,
    sealed_percent: None,
    gap_max: 3,
    room_min: 5,
    room_span: 10,
    doorless_one_in: 8,
    door_max: 3,
};

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        (MIN_SIDE..=MAX_SIDE, MIN_SIDE..=MAX_SIDE),
        prop_oneof![
            Just(Layout::Noise),
            Just(Layout::Walls),
            Just(Layout::Rooms)
        ],
        0u32..=40,
        any::<u64>(),
        0usize..5,
        4u32..=16,
        prop_oneof![3 => Just(false), 1 => Just(true)],
    )
        .prop_map(
            |((width, height), layout, density, seed, movement_index, cluster_size, weighted)| {
                let mut rng = Rng::new(seed);
                let mut map = TestMap {
                    open: lay_out(width, height, layout, density, &OBSTACLES, &mut rng),
                    ..TestMap::new(width, height)
                };
                if weighted {
                    // Patches of one weight each, 50 (cheap) to 400.
                    for _ in 0..1 + rng.below_u32(6) {
                        let (x0, y0) = (rng.below_u32(width), rng.below_u32(height));
                        let (pw, ph) = (1 + rng.below_u32(12), 1 + rng.below_u32(12));
                        let wt = Weight(50 + rng.below_u32(351) as u16);
                        for y in y0..(y0 + ph).min(height) {
                            for x in x0..(x0 + pw).min(width) {
                                let i = map.idx(x, y);
                                map.weight[i] = wt.0;
                            }
                        }
                    }
                }
                // Queries between random cells (opened if blocked): the first
                // between opposite corner regions, so it is long when reachable.
                let cell = |map: &mut TestMap, x: u32, y: u32| {
                    let i = map.idx(x, y);
                    map.open[i] = true;
                    Point::new(x, y)
                };
                let mut queries = Vec::with_capacity(QUERIES);
                let (qw, qh) = (width / 4, height / 4);
                let (sx, sy) = (rng.below_u32(qw), rng.below_u32(qh));
                let (gx, gy) = (
                    width - 1 - rng.below_u32(qw),
                    height - 1 - rng.below_u32(qh),
                );
                queries.push((cell(&mut map, sx, sy), cell(&mut map, gx, gy)));
                for i in 1..QUERIES {
                    let (x, y) = (rng.below_u32(width), rng.below_u32(height));
                    let s = cell(&mut map, x, y);
                    let g = if i == QUERIES - 1 {
                        s // start == goal
                    } else {
                        let (x, y) = (rng.below_u32(width), rng.below_u32(height));
                        cell(&mut map, x, y)
                    };
                    queries.push((s, g));
                }
                Case {
                    layout,
                    density,
                    seed,
                    movement_index,
                    cluster_size,
                    map,
                    queries,
                }
            },
        )
}

fn build(case: &Case) -> Hierarchy {
    let mut h = HierarchyBuilder::new()
        .cluster_size(case.cluster_size)
        .movement(case.movement())
        .entrance_policy(case.entrances())
        .build(case.grid())
        .expect("valid settings");
    if case.contracted() {
        h.contract().expect("a cluster graph contracts");
    }
    if case.cell_landmarks() > 0 {
        // Refused only where jump point search is (the movement rule).
        let added = h.add_cell_landmarks(case.cell_landmarks());
        assert_eq!(added, h.has_cell_landmarks());
    }
    h
}

/// Exact optimum cost by flat A*, `None` when unreachable.
fn flat(grid: &Grid, m: Movement, cache: &mut SearchCache, s: Point, g: Point) -> Option<Cost> {
    AStar::new(grid)
        .movement(m)
        .find_path(cache, s, g)
        .expect("valid endpoints")
        .path
        .map(|p| p.cost)
}

/// The lazy answer: the plan's pieces concatenated, its cost and stats.
fn lazy(
    h: &Hierarchy,
    cache: &mut QueryCache,
    s: Point,
    g: Point,
) -> Result<Option<QueryOutcome>, TestCaseError> {
    let Some(mut plan) = h.plan(cache, s, g).expect("valid endpoints") else {
        return Ok(None);
    };
    prop_assert!(!plan.is_complete());
    let mut cells: Vec<Point> = Vec::new();
    let mut pieces = 0;
    while let Some(piece) = plan.next_segment(h, cache) {
        if pieces == 0 {
            prop_assert_eq!(
                piece.first(),
                Some(&s),
                "the first piece starts at the start"
            );
        }
        pieces += 1;
        cells.extend_from_slice(piece);
        prop_assert!(pieces <= 100_000, "next_segment never ends");
    }
    prop_assert!(plan.is_complete());
    prop_assert!(plan.next_segment(h, cache).is_none(), "None stays None");
    // Asked for last, so that a contracted route was unpacked as refinement
    // reached it, not all at once.
    let waypoints = plan.waypoints(h).to_vec();
    prop_assert_eq!(waypoints.first(), Some(&s));
    prop_assert_eq!(waypoints.last(), Some(&g));
    Ok(Some(QueryOutcome {
        path: Some(tierpath::Path {
            cells,
            cost: plan.cost(),
        }),
        stats: plan.stats(),
        partial: false,
    }))
}

thread_local! {
    /// One query cache for every case of the run, so that reusing scratch
    /// across maps of different sizes is exercised too.
    static SHARED: RefCell<QueryCache> = RefCell::new(QueryCache::new());
}

fn check_case(case: &Case) -> Result<(), TestCaseError> {
    let grid = case.grid();
    let m = case.movement();
    let h = build(case);
    prop_assert_eq!(h.grid(), &grid);
    let mut flat_cache = SearchCache::new();
    let mut cache = QueryCache::new();
    let mut eager = Vec::with_capacity(case.queries.len());
    for (i, &(s, g)) in case.queries.iter().enumerate() {
        let optimum = flat(&grid, m, &mut flat_cache, s, g);
        let out = h.find_path(&mut cache, s, g);
        prop_assert!(out.is_ok(), "query {}: {:?}", i, out);
        let out = out.unwrap();
        prop_assert_eq!(
            out.path.is_some(),
            optimum.is_some(),
            "query {} {} -> {}: reachability differs from flat A* ({:?})",
            i,
            s,
            g,
            out.stats
        );
        prop_assert_eq!(out.stats.method == Method::Unreachable, optimum.is_none());
        // The cluster graph connects everything the grid does: the full-map
        // safety net is never needed.
        prop_assert_ne!(
            out.stats.method,
            Method::Fallback,
            "query {} {} -> {}",
            i,
            s,
            g
        );
        prop_assert_eq!(h.same_island(s, g), optimum.is_some());
        if let (Some(path), Some(optimum)) = (&out.path, optimum) {
            let valid = path.validate(&grid, &m);
            prop_assert!(valid.is_ok(), "query {} {} -> {}: {:?}", i, s, g, valid);
            prop_assert_eq!(path.start(), Some(s), "query {}", i);
            prop_assert_eq!(path.goal(), Some(g), "query {}", i);
            prop_assert!(
                path.cost >= optimum,
                "query {} {} -> {}: cost {:?} below the optimum {:?}",
                i,
                s,
                g,
                path.cost,
                optimum
            );
            if s == g {
                prop_assert_eq!(path.cells.len(), 1);
            }
            // The near search's answers (by jump points, guided or not, or
            // bounded A*) are exact.
            if out.stats.method == Method::Near {
                prop_assert_eq!(path.cost, optimum, "query {} {} -> {}: near", i, s, g);
            }
        }
        // Lazy refinement, with the scratch shared across cases.
        let lazy_out = SHARED.with(|c| lazy(&h, &mut c.borrow_mut(), s, g))?;
        match (&lazy_out, &out.path) {
            (None, None) => {}
            (Some(l), Some(p)) => {
                let lp = l.path.as_ref().expect("lazy answers hold a path");
                prop_assert_eq!(&lp.cells, &p.cells, "query {}: lazy cells differ", i);
                prop_assert_eq!(lp.cost, p.cost, "query {}: lazy cost differs", i);
                prop_assert_eq!(l.stats, out.stats, "query {}: lazy stats differ", i);
            }
            _ => prop_assert!(
                false,
                "query {}: plan and find_path disagree on reachability",
                i
            ),
        }
        eager.push(Ok(out));
    }

    // The parallel batch, on the default pool and on 1 and 4 threads.
    let batch = h.find_paths(&case.queries);
    prop_assert_eq!(&batch, &eager, "find_paths differs from find_path");
    for threads in [1, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        let batch = pool.install(|| h.find_paths(&case.queries));
        prop_assert_eq!(&batch, &eager, "find_paths on {} threads differs", threads);
    }

    // Saved and reloaded: identical answers.
    let bytes = h.to_bytes();
    let loaded = Hierarchy::from_bytes(grid.clone(), &bytes);
    prop_assert!(loaded.is_ok(), "reload failed: {:?}", loaded.err());
    let loaded = loaded.unwrap();
    // A contraction and cell landmarks are saved with the hierarchy and
    // load back.
    prop_assert_eq!(loaded.is_contracted(), case.contracted());
    prop_assert_eq!(loaded.has_cell_landmarks(), h.has_cell_landmarks());
    prop_assert_eq!(loaded.settings(), h.settings());
    prop_assert_eq!(loaded.to_bytes(), bytes, "save -> load -> save differs");
    let mut fresh = QueryCache::new();
    for (i, &(s, g)) in case.queries.iter().enumerate() {
        let again = loaded.find_path(&mut fresh, s, g);
        prop_assert_eq!(&again, &eager[i], "query {}: reloaded answer differs", i);
    }
    Ok(())
}

fn check_bad_input(case: &Case) -> Result<(), TestCaseError> {
    let h = build(case);
    let mut cache = QueryCache::new();
    let good = case.queries[0].0;
    let (w, hgt) = (case.map.width, case.map.height);
    let mut bad = vec![
        Point::new(w, 0),
        Point::new(0, hgt),
        Point::new(w + 100, hgt + 100),
        Point::new(u32::MAX, u32::MAX),
    ];
    bad.extend(
        (0..w * hgt)
            .map(|i| Point::new(i % w, i / w))
            .filter(|p| !h.grid().is_passable(*p))
            .take(3),
    );
    for p in bad {
        for (s, g) in [(p, good), (good, p), (p, p)] {
            let e = h.find_path(&mut cache, s, g);
            prop_assert!(
                matches!(
                    e,
                    Err(QueryError::OffMap { .. } | QueryError::Blocked { .. })
                ),
                "{} -> {}: {:?}",
                s,
                g,
                e
            );
            prop_assert!(h.plan(&mut cache, s, g).is_err(), "plan {} -> {}", s, g);
        }
        let batch = h.find_paths(&[(p, good), (good, good)]);
        prop_assert!(batch[0].is_err() && batch[1].is_ok(), "{:?}", batch);
    }
    // The cache still answers correctly after the errors.
    let mut fresh = QueryCache::new();
    for &(s, g) in &case.queries {
        prop_assert_eq!(h.find_path(&mut cache, s, g), h.find_path(&mut fresh, s, g));
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(1))]

    #[test]
    fn hierarchy_agrees_with_flat_search(case in case_strategy()) {
        check_case(&case)?;
    }
}

proptest! {
    #![proptest_config(config(4))]

    #[test]
    fn bad_endpoints_are_errors(case in case_strategy()) {
        check_bad_input(&case)?;
    }
}

/// The generator is worth its time only if many of its queries take the
/// hierarchical route (not just the near search), some are unreachable, and
/// weights and every rule occur.
#[test]
fn generated_cases_exercise_the_hierarchy() {
    let mut runner = TestRunner::deterministic();
    let strategy = case_strategy();
    let (mut queries, mut hierarchical, mut unreachable, mut weighted) = (0, 0, 0, 0);
    let mut guided = 0;
    let mut rules = [0; 5];
    let mut cache = QueryCache::new();
    for _ in 0..60 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        rules[case.movement_index] += 1;
        weighted += case.map.is_weighted() as usize;
        let h = build(&case);
        guided += h.has_cell_landmarks() as usize;
        for &(s, g) in &case.queries {
            queries += 1;
            match h.find_path(&mut cache, s, g).unwrap().stats.method {
                Method::Hierarchical => hierarchical += 1,
                Method::Unreachable => unreachable += 1,
                _ => {}
            }
        }
    }
    eprintln!(
        "{queries} queries: {hierarchical} hierarchical, {unreachable} unreachable; \
         {weighted} weighted maps; rules {rules:?}; {guided} guided by cell landmarks"
    );
    assert!(hierarchical * 4 >= queries, "too few hierarchical queries");
    assert!(unreachable > 0, "no unreachable query");
    assert!(weighted > 0 && rules.iter().all(|r| *r > 0));
    assert!(guided > 0, "no case guided by cell landmarks");
}
