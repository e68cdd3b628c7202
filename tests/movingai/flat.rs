//! Flat A* and Dijkstra on the real Moving AI benchmarks: every path must be
//! valid under the benchmark rules, join the right endpoints, and match the
//! scenario's optimal length.
//!
//! Skips, with a printed notice, when `../shared/movingai` is absent. Samples
//! are deterministic (seeded by map name): long queries (top buckets) first,
//! plus some from every bucket, plus every query the data marks unsolvable
//! (optimal length 0 between distinct cells), which must find no path. `MOVINGAI_FLAT_SCALE=N` multiplies the sample
//! sizes for a deeper run.

use crate::common;

use std::time::Instant;

use crate::common::Plan;
use tierpath::io::{Scenario, ScenarioQuery};
use tierpath::{AStar, Dijkstra, Grid, Movement, Path, SearchCache};

/// Relative tolerance on optimal lengths: our diagonal is 1.4142 (sqrt 2 to
/// 1e-5) and the scenario prints lengths rounded.
const REL: f64 = 1e-4;

/// How many of the highest buckets count as "long".
const TOP_BUCKETS: u32 = 10;

/// Every map of a set.
const ALL: usize = usize::MAX;

fn check_path(grid: &Grid, q: &ScenarioQuery, path: &Path, what: &str, ctx: &str) {
    let m = Movement::default();
    if let Err(e) = path.validate(grid, &m) {
        panic!("{ctx}: {what}: invalid path: {e}");
    }
    assert_eq!(path.start(), Some(q.start), "{ctx}: {what}: wrong start");
    assert_eq!(path.goal(), Some(q.goal), "{ctx}: {what}: wrong goal");
    let steps = m.cost_in_steps(path.cost);
    assert!(
        common::length_matches(steps, q.optimal, REL),
        "{ctx}: {what}: length {steps} but the scenario's optimum is {}",
        q.optimal
    );
}

/// Runs A* and Dijkstra on `q` and checks both: valid optimal paths, or no
/// path from either for the queries the data marks unsolvable. Returns the
/// nodes expanded.
fn check_query(cache: &mut SearchCache, grid: &Grid, scen: &Scenario, q: &ScenarioQuery) -> u64 {
    let ctx = common::query_context(scen, q);
    let unsolvable = common::expects_no_path(q);
    let a = AStar::new(grid)
        .find_path(cache, q.start, q.goal)
        .unwrap_or_else(|e| panic!("{ctx}: A*: {e}"));
    let d = Dijkstra::new(grid)
        .find_path(cache, q.start, q.goal)
        .unwrap_or_else(|e| panic!("{ctx}: Dijkstra: {e}"));
    let expanded = a.stats.expanded + d.stats.expanded;
    match (a.path, d.path) {
        (Some(a), Some(d)) if !unsolvable => {
            check_path(grid, q, &a, "A*", &ctx);
            check_path(grid, q, &d, "Dijkstra", &ctx);
            assert_eq!(
                a.cost, d.cost,
                "{ctx}: A* and Dijkstra disagree on the exact cost"
            );
        }
        (None, None) if unsolvable => {}
        (a, d) => panic!(
            "{ctx}: expected {}, got A* {:?}, Dijkstra {:?}",
            if unsolvable {
                "no path (unsolvable query)"
            } else {
                "a path"
            },
            a.map(|p| p.cost),
            d.map(|p| p.cost)
        ),
    }
    expanded
}

fn run_plan(plan: Plan) {
    let k = common::env_number("MOVINGAI_FLAT_SCALE", 1);
    let (files, maps) = plan.files(k, common::seed_of(plan.set));
    if files.is_empty() {
        return; // skipped (notice printed)
    }
    let t0 = Instant::now();
    let mut cache = SearchCache::new();
    let (mut queries, mut long, mut unsolvable, mut expanded) = (0usize, 0usize, 0usize, 0u64);
    for file in &maps {
        let (grid, scen) = common::load(file);
        let top = scen.select(tierpath::io::BucketFilter::Top(TOP_BUCKETS));
        for q in plan.queries(file, &scen, TOP_BUCKETS, k) {
            long += top.iter().any(|t| t.line == q.line) as usize;
            unsolvable += common::expects_no_path(q) as usize;
            expanded += check_query(&mut cache, &grid, &scen, q);
            queries += 1;
        }
    }
    eprintln!(
        "movingai_flat {}: {} of {} maps, {queries} queries ({long} from the top {TOP_BUCKETS} buckets, {unsolvable} unsolvable), \
         {expanded} expansions, {:.2} s",
        plan.set,
        maps.len(),
        files.len(),
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn dao_sample() {
    run_plan(Plan {
        set: "dao",
        maps: ALL,
        long: 3,
        any: 2,
    });
}

#[test]
fn sc1_sample() {
    run_plan(Plan {
        set: "sc1",
        maps: ALL,
        long: 3,
        any: 1,
    });
}

#[test]
fn mazes_sample() {
    run_plan(Plan {
        set: "mazes",
        maps: ALL,
        long: 4,
        any: 2,
    });
}

#[test]
fn rooms_sample() {
    run_plan(Plan {
        set: "rooms",
        maps: ALL,
        long: 4,
        any: 2,
    });
}

#[test]
fn random_sample() {
    run_plan(Plan {
        set: "random",
        maps: ALL,
        long: 4,
        any: 2,
    });
}

/// Every query of one small dao map, both engines.
#[test]
fn dao_arena_every_query() {
    let Some(file) = common::scenario_file("dao", "arena") else {
        return;
    };
    let (grid, scen) = common::load(&file);
    assert!(scen.queries.len() > 100, "{}: too few queries", scen.path);
    let mut cache = SearchCache::new();
    for q in &scen.queries {
        check_query(&mut cache, &grid, &scen, q);
    }
}

/// The sampling is deterministic and honours its sizes.
#[test]
fn sampling_is_deterministic() {
    let items: Vec<u32> = (0..100).collect();
    let a = common::sample(&items, 10, 7);
    assert_eq!(a, common::sample(&items, 10, 7));
    assert_eq!(a.len(), 10);
    assert!(a.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
    assert_ne!(a, common::sample(&items, 10, 8));
    assert_eq!(common::sample(&items[..5], 10, 1), items[..5].to_vec());
}
