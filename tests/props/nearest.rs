//! Property tests of [`Hierarchy::nearest`] against a flat multi-target
//! Dijkstra (the plain reference in `common::reference`), on random maps up
//! to 48x48 (noise, walls with sealed stretches, rooms), every movement rule,
//! with and without terrain weights, cluster sides 4 to 16, and local
//! Dijkstra radii from one expansion to the default, so that every method
//! (local, hierarchical, exact) is exercised.
//!
//! The guarantee checked, exactly as documented: no answer exactly when no
//! target is reachable; otherwise the chosen target's least cost equals the
//! least over all targets, the path is valid and runs from the start to it,
//! its cost is that least cost unless the method is hierarchical, and then
//! the path is the one `find_path` gives for that target. The radius the
//! local search reports bounds every target's cost from below; targets on
//! other islands are not candidates; a target listed twice is reported by its
//! first index. Bad input is an error.

use crate::common;

use crate::common::maps::{MapCase, map_cases};
use crate::common::reference::dijkstra;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use tierpath::{
    NEAREST_LOCAL_EXPANSIONS, NearestMethod, NearestOutcome, Point, QueryCache, QueryError,
};

/// Cases per property (`PROPTEST_CASES` overrides).
const CASES: u32 = 3000;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The local radii tried: from the smallest (everything but a target at the
/// start goes to the hierarchy) to the default.
const RADII: [u64; 4] = [1, 16, NEAREST_LOCAL_EXPANSIONS, 4096];

fn check(
    case: &MapCase,
    radius_index: usize,
    n_targets: usize,
) -> Result<NearestOutcome, TestCaseError> {
    let h = case.hierarchy();
    let m = case.movement();
    let start = case.points[0];
    // Targets: the other points, half of them (in odd cases) moved to the
    // passable cells around one of them, so that several cost nearly the
    // same; and now and then one listed twice.
    let mut targets: Vec<Point> = case.points[1..=n_targets].to_vec();
    if case.seed % 2 == 1 {
        let c = targets[0];
        let near: Vec<Point> = case
            .map
            .passable_points()
            .into_iter()
            .filter(|p| p.x.abs_diff(c.x) <= 3 && p.y.abs_diff(c.y) <= 3)
            .collect();
        for (k, t) in targets.iter_mut().enumerate().skip(1).step_by(2) {
            *t = near[(k * 7 + case.seed as usize / 2) % near.len()];
        }
    }
    if n_targets > 2 && case.seed.is_multiple_of(3) {
        targets.push(targets[1]);
    }
    let dist = dijkstra(&case.map, &m, start);
    let best = targets.iter().filter_map(|t| dist.get(*t)).min();
    let reachable = targets.iter().filter(|t| dist.get(**t).is_some()).count();
    let mut cache = QueryCache::new();
    let local = RADII[radius_index];
    let out = h.nearest_within(&mut cache, start, &targets, local);
    prop_assert!(out.is_ok(), "{:?}", out);
    let out = out.unwrap();
    prop_assert_eq!(out.stats.candidates as usize, reachable, "island filter");
    let Some(found) = &out.nearest else {
        prop_assert_eq!(best, None, "a reachable target was missed: {:?}", out.stats);
        prop_assert_eq!(out.stats.method, NearestMethod::Unreachable);
        return Ok(out);
    };
    let Some(best) = best else {
        prop_assert!(false, "answered {:?} with no target reachable", found);
        unreachable!()
    };
    let target = targets[found.target];
    let first = targets.iter().position(|t| *t == target).unwrap();
    prop_assert_eq!(found.target, first, "not the first index of its cell");
    prop_assert_eq!(
        dist.get(target),
        Some(best),
        "target {} ({}) is not a nearest one (least cost {}): {:?}",
        found.target,
        target,
        best,
        out.stats
    );
    let path = &found.path;
    let valid = path.validate(h.grid(), &m);
    prop_assert!(valid.is_ok(), "{:?}", valid);
    prop_assert_eq!(path.start(), Some(start));
    prop_assert_eq!(path.goal(), Some(target));
    match out.stats.method {
        NearestMethod::Hierarchical => {
            let one = h.find_path(&mut QueryCache::new(), start, target).unwrap();
            prop_assert_eq!(one.path.as_ref(), Some(path), "not find_path's path");
            prop_assert!(path.cost.0 >= best);
        }
        NearestMethod::Local | NearestMethod::Exact => {
            prop_assert_eq!(
                path.cost.0,
                best,
                "{:?} answer not optimal",
                out.stats.method
            );
        }
        NearestMethod::Unreachable => prop_assert!(false, "unreachable with an answer"),
    }
    if out.stats.method != NearestMethod::Local {
        // The radius is a proven lower bound on every target's cost.
        for t in &targets {
            if let Some(d) = dist.get(*t) {
                prop_assert!(
                    d >= out.stats.radius.0,
                    "{} costs {} < radius {:?}",
                    t,
                    d,
                    out.stats.radius
                );
            }
        }
    }
    Ok(out)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn nearest_agrees_with_flat_multi_target_dijkstra(
        case in map_cases(6, 48, 13),
        radius_index in 0usize..RADII.len(),
        n_targets in 1usize..=12,
    ) {
        check(&case, radius_index, n_targets)?;
    }
}

/// The generator is worth its time only if every method occurs.
#[test]
fn generated_cases_use_every_method() {
    let mut runner = TestRunner::deterministic();
    let strategy = map_cases(6, 48, 13);
    let mut seen = std::collections::BTreeMap::new();
    for i in 0..400 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        let out = check(&case, i % RADII.len(), 1 + i % 12).unwrap();
        *seen.entry(format!("{:?}", out.stats.method)).or_insert(0) += 1;
    }
    eprintln!("methods: {seen:?}");
    for m in ["Unreachable", "Local", "Hierarchical", "Exact"] {
        assert!(
            seen.get(m).copied().unwrap_or(0) >= 5,
            "too few {m}: {seen:?}"
        );
    }
}

#[test]
fn bad_input_is_an_error() {
    let grid = tierpath::Grid::from_ascii("....\n.@..\n....").unwrap();
    let h = tierpath::Hierarchy::build(grid).unwrap();
    let mut cache = QueryCache::new();
    let p = Point::new;
    assert!(matches!(
        h.nearest(&mut cache, p(1, 1), &[p(0, 0)]),
        Err(QueryError::Blocked { role: "start", .. })
    ));
    assert!(matches!(
        h.nearest(&mut cache, p(0, 0), &[p(3, 2), p(9, 9)]),
        Err(QueryError::OffMap { role: "target", .. })
    ));
    assert!(matches!(
        h.nearest(&mut cache, p(0, 0), &[p(1, 1)]),
        Err(QueryError::Blocked { role: "target", .. })
    ));
    let none = h.nearest(&mut cache, p(0, 0), &[]).unwrap();
    assert_eq!(none.nearest, None);
    let here = h.nearest(&mut cache, p(2, 2), &[p(3, 0), p(2, 2)]).unwrap();
    assert_eq!(here.nearest.unwrap().target, 1);
}
