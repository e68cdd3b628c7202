//! Property tests of partial paths on random maps up to 48x48 (noise, walls
//! with sealed stretches, rooms: several islands), every movement rule, with
//! and without terrain weights.
//!
//! - Flat A* with `partial(true)`, with and without an expansion limit: a
//!   goal not reached gives a valid path from the start, flagged partial,
//!   ending at an expanded cell at the least open-ground distance to the goal
//!   among the expanded cells (recorded), and among those at the least cost;
//!   the path is a least-cost path to that cell. When the search was not cut
//!   short, the expanded cells are exactly the reachable ones (checked with
//!   the reference Dijkstra).
//! - Two-tier queries with `QueryOptions::partial`: a goal on another island
//!   gives a valid partial path ending at a cell of the start's island at the
//!   least open-ground distance to the goal, and among those at the least
//!   cost (exact choice); the path is optimal, or `find_path`'s path to that
//!   cell when chosen hierarchically. A reachable goal is answered as by
//!   `find_path`.

use crate::common;

use crate::common::Rng;
use crate::common::maps::{MapCase, map_cases};
use crate::common::reference::{Distances, dijkstra};
use proptest::prelude::*;
use tierpath::{AStar, Method, Movement, Point, QueryCache, QueryOptions, SearchCache};

/// Cases per property (`PROPTEST_CASES` overrides).
const CASES: u32 = 1500;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Open-ground distance, the measure of "closest".
fn closeness(m: &Movement, a: Point, b: Point) -> u64 {
    m.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)).0
}

/// Query pairs from each point: to a cell on another island when there is
/// one (chosen at random), else to the next point.
fn pairs(case: &MapCase, rng: &mut Rng) -> Vec<(Point, Point, Distances)> {
    let m = case.movement();
    let all = case.map.passable_points();
    case.points
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let dist = dijkstra(&case.map, &m, s);
            let cut_off: Vec<Point> = all
                .iter()
                .copied()
                .filter(|p| dist.get(*p).is_none())
                .collect();
            let t = if !cut_off.is_empty() && rng.percent(75) {
                cut_off[rng.below(cut_off.len())]
            } else {
                case.points[(i + 1) % case.points.len()]
            };
            (s, t, dist)
        })
        .collect()
}

/// Checks that `end` is a cell of `set` closest to `goal`, and among those
/// one of least cost from the start.
fn check_closest(
    m: &Movement,
    set: &[Point],
    dist: &Distances,
    goal: Point,
    end: Point,
) -> Result<(), TestCaseError> {
    prop_assert!(set.contains(&end), "{} is not among the cells reached", end);
    let least = set.iter().map(|p| closeness(m, *p, goal)).min().unwrap();
    prop_assert_eq!(
        closeness(m, end, goal),
        least,
        "{} is not closest to {}",
        end,
        goal
    );
    let cheapest = set
        .iter()
        .filter(|p| closeness(m, **p, goal) == least)
        .map(|p| dist.get(*p).expect("reached cells are reachable"))
        .min()
        .unwrap();
    prop_assert_eq!(
        dist.get(end),
        Some(cheapest),
        "{} is not the cheapest of the closest",
        end
    );
    Ok(())
}

fn check_flat(case: &MapCase, rng: &mut Rng) -> Result<(), TestCaseError> {
    let grid = case.grid();
    let m = case.movement();
    let limit = rng.percent(40).then(|| 1 + rng.below(200) as u64);
    let mut astar = AStar::new(&grid).movement(m).partial(true);
    if let Some(n) = limit {
        astar = astar.max_expansions(n);
    }
    let mut cache = SearchCache::new();
    cache.record_expansions(true);
    for (s, t, dist) in pairs(case, rng) {
        let out = astar.find_path(&mut cache, s, t).unwrap();
        let path = out
            .path
            .as_ref()
            .expect("partial paths are on: always a path");
        let valid = path.validate(&grid, &m);
        prop_assert!(valid.is_ok(), "{:?}", valid);
        prop_assert_eq!(path.start(), Some(s));
        let end = path.goal().unwrap();
        prop_assert_eq!(out.partial, end != t);
        if !out.partial {
            prop_assert_eq!(end, t);
            continue;
        }
        let expanded: Vec<Point> = cache.expansions().iter().map(|e| e.cell).collect();
        check_closest(&m, &expanded, &dist, t, end)?;
        prop_assert_eq!(
            Some(path.cost.0),
            dist.get(end),
            "not a least-cost path to {}",
            end
        );
        if out.out_of_budget {
            prop_assert_eq!(Some(out.stats.expanded), limit);
        } else {
            // Not cut short: the goal is unreachable and everything reachable
            // was expanded.
            prop_assert_eq!(dist.get(t), None);
            prop_assert_eq!(expanded.len(), dist.reachable());
        }
    }
    Ok(())
}

fn check_hierarchical(case: &MapCase, rng: &mut Rng) -> Result<(), TestCaseError> {
    let h = case.hierarchy();
    let m = case.movement();
    let on = QueryOptions::new().partial(true);
    let mut cache = QueryCache::new();
    for (s, t, dist) in pairs(case, rng) {
        let out = h.find_path_with(&mut cache, s, t, &on).unwrap();
        if dist.get(t).is_some() {
            prop_assert!(!out.partial);
            prop_assert_eq!(&out, &h.find_path(&mut cache, s, t).unwrap());
            continue;
        }
        prop_assert!(out.partial, "{} -> {} is unreachable", s, t);
        let path = out.path.as_ref().expect("a partial path");
        let valid = path.validate(h.grid(), &m);
        prop_assert!(valid.is_ok(), "{:?}", valid);
        prop_assert_eq!(path.start(), Some(s));
        let end = path.goal().unwrap();
        let island: Vec<Point> = dist
            .iter()
            .filter(|(_, d)| d.is_some())
            .map(|(p, _)| p)
            .collect();
        check_closest(&m, &island, &dist, t, end)?;
        if out.stats.method == Method::Hierarchical {
            let one = h.find_path(&mut cache, s, end).unwrap();
            prop_assert_eq!(one.path.as_ref(), Some(path));
        } else {
            prop_assert_eq!(Some(path.cost.0), dist.get(end));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn flat_partial_paths_end_closest_to_the_goal(case in map_cases(4, 48, 4), seed in any::<u64>()) {
        check_flat(&case, &mut Rng::new(seed))?;
    }

    #[test]
    fn two_tier_partial_paths_end_closest_to_the_goal(case in map_cases(4, 48, 4), seed in any::<u64>()) {
        check_hierarchical(&case, &mut Rng::new(seed))?;
    }
}

#[test]
fn partial_is_off_by_default() {
    let grid = tierpath::Grid::from_fn(20, 10, |p| p.x != 10).unwrap();
    let mut cache = SearchCache::new();
    let (s, t) = (Point::new(0, 0), Point::new(19, 9));
    let out = AStar::new(&grid).find_path(&mut cache, s, t).unwrap();
    assert!(out.path.is_none() && !out.partial && !out.out_of_budget);
    let out = AStar::new(&grid)
        .max_expansions(5)
        .find_path(&mut cache, s, t)
        .unwrap();
    assert!(out.path.is_none() && !out.partial && out.out_of_budget);
    assert_eq!(out.stats.expanded, 5);
}
