//! Property tests of agent sizes on random maps up to 48x48 (open noise,
//! walls with gaps 1 to 4 cells wide, rooms with doors 1 to 4 wide, some
//! rooms sealed) under every movement rule, with and without terrain, cluster
//! sides 4 to 12, largest sizes 1 to 6 (some larger than the clusters), both
//! placements of the larger sizes' transitions.
//!
//! The oracle is independent of the library's sized code: each size's grid is
//! made by brute force (a cell is open when every cell of the `k x k` square
//! at it is passable), and the tests' plain reference Dijkstra runs on it.
//!
//! * Clearance equals the brute-force definition on every cell.
//! * `AStar::for_unit` finds exactly the reference's optimum, and its paths pass
//!   the footprint rule (`validate_sized_path`, cell by cell, no clearance);
//!   time-sliced (`SlicedSearch`) it gives the same outcome, and with partial
//!   paths on, an unreachable goal gives the least-cost path to the reachable
//!   cell nearest the goal.
//! * `SizedHierarchy`: for every size, reachability equals the reference's,
//!   also through `reachable`; "unreachable" is answered without search; a
//!   path runs from start to goal, keeps the whole unit on passable cells at
//!   every step and every diagonal within the corner rule for the whole
//!   square (the footprint rule), states its true cost, and never costs less
//!   than the optimum; the flat fallback is never needed; the parallel batch
//!   equals the sequential answers.
//! * Bad input (size 0, size above the largest, an endpoint where the unit
//!   does not fit or off the map) is an error, never a panic.
//!
//! A failing case prints its map as ASCII with its settings.

use crate::common;

use std::fmt;

use crate::common::Rng;
use crate::common::maps::{Layout, Obstacles, lay_out};
use crate::common::reference::{TestMap, dijkstra, movements};
use proptest::prelude::*;
use tierpath::{
    AStar, Cost, Method, Movement, Point, QueryError, SearchCache, SizeTransitions, SizedBuilder,
    SizedHierarchy, SizedQueryCache, SliceStatus, SlicedSearch, validate_sized_path,
};

const MIN_SIDE: u32 = 8;
const MAX_SIDE: u32 = 48;
/// Queries per size per case.
const QUERIES: usize = 6;
/// Cases per property (`PROPTEST_CASES` overrides).
const CASES: u32 = 2000;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

#[derive(Clone)]
struct Case {
    layout: Layout,
    seed: u64,
    movement_index: usize,
    cluster_size: u32,
    max_size: u32,
    placement: SizeTransitions,
    map: TestMap,
}

impl Case {
    fn movement(&self) -> Movement {
        movements()[self.movement_index]
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "\n{}x{} {:?} seed {:#x}, cluster {}, max size {}, {:?}, {:?}\n{}",
            self.map.width,
            self.map.height,
            self.layout,
            self.seed,
            self.cluster_size,
            self.max_size,
            self.placement,
            self.movement(),
            self.map.render(&[])
        )
    }
}

/// This test's obstacles (see `common::maps::lay_out`).
const OBSTACLES: Obstacles = Obstacles {
    walls_noise_div: 3,
    rooms_noise_div: 4,
    sealed_percent: None,
    gap_max: 4,
    room_min: 6,
    room_span: 8,
    doorless_one_in: 6,
    door_max: 4,
};

fn case_strategy() -> impl Strategy<Value = Case> {
    (
        (MIN_SIDE..=MAX_SIDE, MIN_SIDE..=MAX_SIDE),
        prop_oneof![
            Just(Layout::Noise),
            Just(Layout::Walls),
            Just(Layout::Rooms)
        ],
        0u32..=30,
        any::<u64>(),
        0usize..5,
        4u32..=12,
        (
            1u32..=6,
            prop_oneof![Just(SizeTransitions::Ends), Just(SizeTransitions::One)],
        ),
        prop_oneof![3 => Just(false), 1 => Just(true)],
    )
        .prop_map(
            |(
                (width, height),
                layout,
                density,
                seed,
                movement_index,
                cluster_size,
                (max_size, placement),
                weighted,
            )| {
                let mut rng = Rng::new(seed);
                let mut map = TestMap {
                    open: lay_out(width, height, layout, density, &OBSTACLES, &mut rng),
                    ..TestMap::new(width, height)
                };
                if weighted {
                    for _ in 0..1 + rng.below_u32(6) {
                        let (x0, y0) = (rng.below_u32(width), rng.below_u32(height));
                        let (pw, ph) = (1 + rng.below_u32(12), 1 + rng.below_u32(12));
                        let wt = 50 + rng.below_u32(351) as u16;
                        for y in y0..(y0 + ph).min(height) {
                            for x in x0..(x0 + pw).min(width) {
                                let i = map.idx(x, y);
                                map.weight[i] = wt;
                            }
                        }
                    }
                }
                Case {
                    layout,
                    seed,
                    movement_index,
                    cluster_size,
                    max_size,
                    placement,
                    map,
                }
            },
        )
}

/// The brute-force clearance of `p`.
fn brute_clearance(map: &TestMap, p: Point) -> u8 {
    let mut k = 0u32;
    while k < 255
        && (0..=k).all(|d| {
            map.passable(p.x as i64 + k as i64, p.y as i64 + d as i64)
                && map.passable(p.x as i64 + d as i64, p.y as i64 + k as i64)
        })
    {
        k += 1;
    }
    k as u8
}

/// The grid of size `k`, by brute force: a cell is open when the `k x k`
/// square at it is passable; weights kept.
fn size_map(map: &TestMap, k: u32) -> TestMap {
    let mut out = map.clone();
    for i in 0..map.open.len() {
        let p = map.point(i);
        out.open[i] = (0..k).all(|dy| {
            (0..k).all(|dx| map.passable(p.x as i64 + dx as i64, p.y as i64 + dy as i64))
        });
    }
    out
}

fn check_case(case: &Case) -> Result<(), TestCaseError> {
    let m = case.movement();
    let grid = case.map.to_grid();
    let h = SizedBuilder::new()
        .movement(m)
        .cluster_size(case.cluster_size)
        .max_size(case.max_size)
        .larger_sizes(case.placement)
        .build(grid.clone())
        .expect("valid settings");
    let clearance = h.clearance();
    for i in 0..case.map.open.len() {
        let p = case.map.point(i);
        prop_assert_eq!(
            clearance.get(p),
            brute_clearance(&case.map, p),
            "clearance at {}",
            p
        );
    }
    let mut rng = Rng::new(case.seed ^ 0x5eed);
    let mut cache = SizedQueryCache::new();
    let mut flat_cache = SearchCache::new();
    let flat = |size: u32| AStar::for_unit(clearance, size).movement(m);
    for size in 1..=case.max_size {
        let derived = size_map(&case.map, size);
        let fits = derived.passable_points();
        prop_assert_eq!(
            h.stats().per_size[size as usize - 1].cells,
            fits.len() as u64,
            "size {} fitting cells",
            size
        );
        if fits.is_empty() {
            continue;
        }
        let mut queries = Vec::with_capacity(QUERIES);
        for q in 0..QUERIES {
            let s = fits[rng.below(fits.len())];
            let g = if q == QUERIES - 1 {
                s
            } else {
                fits[rng.below(fits.len())]
            };
            queries.push((s, g));
        }
        let mut answers = Vec::with_capacity(QUERIES);
        for (i, &(s, g)) in queries.iter().enumerate() {
            let optimum = dijkstra(&derived, &m, s).get(g).map(Cost);
            let exact = flat(size).find_path(&mut flat_cache, s, g);
            prop_assert!(exact.is_ok(), "flat size {} query {}: {:?}", size, i, exact);
            let exact = exact.unwrap();
            prop_assert_eq!(
                exact.path.as_ref().map(|p| p.cost),
                optimum,
                "flat size {} query {} {} -> {}",
                size,
                i,
                s,
                g
            );
            if let Some(p) = &exact.path {
                let v = validate_sized_path(p, &grid, &m, size);
                prop_assert!(v.is_ok(), "flat size {} query {}: {:?}", size, i, v);
            }
            // Time-sliced, the same search: the same outcome whatever the slices.
            let mut sliced = SlicedSearch::new(flat(size));
            prop_assert!(sliced.start(s, g).is_ok());
            while sliced.update(7) == SliceStatus::InProgress {}
            prop_assert_eq!(sliced.finish(), Some(exact.clone()), "sliced size {}", size);
            // Partial: when the goal is out of reach, the path to the reachable
            // cell nearest the goal, legal for the size and least-cost there.
            if optimum.is_none() {
                let part = flat(size)
                    .partial(true)
                    .find_path(&mut flat_cache, s, g)
                    .unwrap();
                let p = part
                    .path
                    .as_ref()
                    .expect("a partial path from a fitting start");
                prop_assert!(part.partial);
                let v = validate_sized_path(p, &grid, &m, size);
                prop_assert!(v.is_ok(), "partial size {}: {:?}", size, v);
                let from_s = dijkstra(&derived, &m, s);
                let near = |q: Point| m.distance(q.x.abs_diff(g.x), q.y.abs_diff(g.y));
                let best = from_s
                    .iter()
                    .filter(|(_, d)| d.is_some())
                    .map(|(q, _)| near(q))
                    .min();
                let end = *p.cells.last().unwrap();
                prop_assert_eq!(
                    Some(near(end)),
                    best,
                    "partial size {} ends at {}",
                    size,
                    end
                );
                prop_assert_eq!(Some(p.cost.0), from_s.get(end));
            }

            let out = h.find_path(&mut cache, s, g, size);
            prop_assert!(out.is_ok(), "size {} query {}: {:?}", size, i, out);
            let out = out.unwrap();
            prop_assert_eq!(
                out.path.is_some(),
                optimum.is_some(),
                "size {} query {} {} -> {}: reachability differs from the reference ({:?})",
                size,
                i,
                s,
                g,
                out.stats
            );
            prop_assert_eq!(h.reachable(s, g, size), Ok(optimum.is_some()));
            prop_assert_ne!(
                out.stats.method,
                Method::Fallback,
                "size {} query {}",
                size,
                i
            );
            if optimum.is_none() {
                prop_assert_eq!(out.stats.method, Method::Unreachable);
                prop_assert_eq!(out.stats.fine_expanded + out.stats.abstract_expanded, 0);
            }
            if let (Some(path), Some(opt)) = (&out.path, optimum) {
                let v = validate_sized_path(path, &grid, &m, size);
                prop_assert!(
                    v.is_ok(),
                    "size {} query {} {} -> {}: {:?}",
                    size,
                    i,
                    s,
                    g,
                    v
                );
                prop_assert_eq!(path.start(), Some(s));
                prop_assert_eq!(path.goal(), Some(g));
                prop_assert!(
                    path.cost >= opt,
                    "size {} query {} {} -> {}: cost {:?} below the optimum {:?}",
                    size,
                    i,
                    s,
                    g,
                    path.cost,
                    opt
                );
                // A near answer that stopped there (no abstract search) is
                // proven optimal; one that won against the hierarchical path
                // is only the cheaper of the two (see `Method::Near`).
                if out.stats.method == Method::Near && out.stats.abstract_expanded == 0 {
                    prop_assert_eq!(path.cost, opt, "size {}: near answers are exact", size);
                }
                if s == g {
                    prop_assert_eq!(path.cells.len(), 1);
                }
            }
            answers.push(Ok(out));
        }
        prop_assert_eq!(h.find_paths(&queries, size), answers, "batch differs");
    }

    // Bad input: errors, never panics.
    let mut cache = SizedQueryCache::new();
    let any = case.map.passable_points();
    let p0 = any.first().copied().unwrap_or(Point::new(0, 0));
    let (w, ht) = (case.map.width, case.map.height);
    prop_assert_eq!(
        h.find_path(&mut cache, p0, p0, 0).unwrap_err(),
        QueryError::ZeroSize
    );
    prop_assert_eq!(
        h.find_path(&mut cache, p0, p0, case.max_size + 1)
            .unwrap_err(),
        QueryError::SizeAboveMax {
            size: case.max_size + 1,
            max: case.max_size
        }
    );
    for bad in [
        Point::new(w, 0),
        Point::new(0, ht),
        Point::new(u32::MAX, u32::MAX),
    ] {
        let is_off = matches!(
            h.find_path(&mut cache, bad, p0, 1),
            Err(QueryError::OffMap { role: "start", .. })
        );
        prop_assert!(is_off);
    }
    for size in 1..=case.max_size {
        // A cell where the unit does not fit (a wall, or too close to one).
        if let Some(tight) = (0..case.map.open.len())
            .map(|i| case.map.point(i))
            .find(|p| (clearance.get(*p) as u32) < size)
        {
            let e = h.find_path(&mut cache, tight, tight, size);
            let ok = matches!(e, Err(QueryError::DoesNotFit { size: s, .. }) if s == size);
            prop_assert!(ok, "size {} at {}: {:?}", size, tight, e);
            let e = flat(size).find_path(&mut flat_cache, tight, tight);
            let flat_ok = matches!(e, Err(QueryError::DoesNotFit { .. }));
            prop_assert!(flat_ok, "flat size {} at {}: {:?}", size, tight, e);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sized_queries_match_the_reference(case in case_strategy()) {
        check_case(&case)?;
    }
}

/// Wide open ground: one annotated graph serves four sizes with far fewer
/// edges, and less memory, than four hierarchies built one per size (each on
/// its size's grid, for size 1 there).
#[test]
fn one_graph_is_smaller_than_one_per_size() {
    let grid = tierpath::Grid::new(96, 96).unwrap();
    let h = SizedHierarchy::build(grid, 4).unwrap();
    let edges = |h: &SizedHierarchy| h.stats().intra_edges + h.stats().inter_edges;
    let (mut separate_edges, mut separate_bytes) = (0, 0);
    for size in 1..=4 {
        let own = SizedHierarchy::build(h.clearance().grid_for_size(size), 1).unwrap();
        separate_edges += edges(&own);
        separate_bytes += own.memory_bytes();
    }
    assert!(
        edges(&h) * 2 < separate_edges,
        "{} vs {separate_edges}",
        edges(&h)
    );
    assert!(
        h.memory_bytes() * 2 < separate_bytes,
        "{} vs {separate_bytes}",
        h.memory_bytes()
    );
}

/// A corridor exactly two cells wide: sizes 1 and 2 pass, 3 does not, and
/// the components say so without search.
#[test]
fn corridor_width_decides_reachability() {
    let grid =
        tierpath::Grid::from_fn(60, 30, |p| p.x < 20 || p.x >= 40 || (10..12).contains(&p.y))
            .unwrap();
    let h = SizedBuilder::new()
        .cluster_size(8)
        .max_size(3)
        .build(grid)
        .unwrap();
    let mut cache = SizedQueryCache::new();
    let (s, g) = (Point::new(2, 2), Point::new(50, 20));
    for size in 1..=3 {
        let out = h.find_path(&mut cache, s, g, size).unwrap();
        assert_eq!(out.path.is_some(), size <= 2, "size {size}");
        if size == 3 {
            assert_eq!(out.stats.method, Method::Unreachable);
        } else {
            let path = out.path.unwrap();
            validate_sized_path(&path, h.grid(), h.movement(), size).unwrap();
            // Through the corridor, whose rows are 10 and 11: a size-2 unit's
            // anchor must be on row 10 there.
            if size == 2 {
                assert!(
                    path.cells
                        .iter()
                        .filter(|p| (20..39).contains(&p.x))
                        .all(|p| p.y == 10)
                );
            }
        }
    }
}
