//! Jump point search on the real Moving AI benchmarks: on every map of every
//! set, a deterministic sample of queries (seeded by map name): for `dao`
//! from every bucket, for the other sets from the top 10 buckets (the long
//! queries), plus every query the data marks unsolvable. Each path must be
//! valid under the benchmark rules, join the query's endpoints and cost the
//! scenario's optimum within 1e-4 relative; unsolvable queries must find no
//! path.
//!
//! The other movement rules (4-connected, corner cutting, other costs) have
//! no scenario optima; on one map of each set, a few queries from every
//! bucket are checked against flat A* under each of them instead.
//!
//! Skips, with a printed notice, when `../shared/movingai` is absent.
//! `MOVINGAI_JPS_SCALE=N` multiplies the sample sizes for a deeper run.

use crate::common;

use std::time::Instant;

use crate::common::Plan;
use tierpath::io::{BucketFilter, Scenario, ScenarioQuery};
use tierpath::{AStar, CornerRule, Jps, JpsCache, Movement, SearchCache};

/// Relative tolerance on optimal lengths (our diagonal is sqrt 2 to 1e-5,
/// the scenarios print lengths rounded).
const REL: f64 = 1e-4;

/// How many of the highest buckets count as "long".
const TOP_BUCKETS: u32 = 10;

/// Checks one query; returns the jump points expanded.
fn check_query(jps: &Jps, cache: &mut JpsCache, scen: &Scenario, q: &ScenarioQuery) -> u64 {
    let ctx = common::query_context(scen, q);
    let out = jps
        .find_path(cache, q.start, q.goal)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    match out.path {
        None if common::expects_no_path(q) => {}
        None => panic!("{ctx}: no path found"),
        Some(p) if common::expects_no_path(q) => {
            panic!("{ctx}: a path of cost {} to an unreachable goal", p.cost)
        }
        Some(p) => {
            let m = Movement::default();
            if let Err(e) = p.validate(jps.grid(), &m) {
                panic!("{ctx}: invalid path: {e}");
            }
            assert_eq!(
                (p.start(), p.goal()),
                (Some(q.start), Some(q.goal)),
                "{ctx}"
            );
            let steps = m.cost_in_steps(p.cost);
            assert!(
                common::length_matches(steps, q.optimal, REL),
                "{ctx}: length {steps}, but the optimum is {}",
                q.optimal
            );
        }
    }
    out.stats.expanded
}

/// Runs `plan` on every map of its set: `long` queries from the top buckets
/// and `any` from every bucket per map.
fn run_plan(plan: Plan) {
    let k = common::env_number("MOVINGAI_JPS_SCALE", 1);
    let (files, maps) = plan.files(k, common::seed_of(plan.set));
    if files.is_empty() {
        return; // skipped (notice printed)
    }
    let t0 = Instant::now();
    let mut cache = JpsCache::new();
    let (mut queries, mut long, mut expanded) = (0usize, 0usize, 0u64);
    for file in &maps {
        let (grid, scen) = common::load(file);
        let jps = Jps::new(&grid).unwrap_or_else(|e| panic!("{}: {e}", scen.path));
        let top = scen.select(BucketFilter::Top(TOP_BUCKETS));
        for q in plan.queries(file, &scen, TOP_BUCKETS, k) {
            long += top.iter().any(|t| t.line == q.line) as usize;
            expanded += check_query(&jps, &mut cache, &scen, q);
            queries += 1;
        }
    }
    eprintln!(
        "movingai_jps {}: {} maps, {queries} queries ({long} from the top {TOP_BUCKETS} buckets), \
         {expanded} jump points expanded, {:.2} s",
        plan.set,
        maps.len(),
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn dao_every_bucket() {
    run_plan(Plan {
        set: "dao",
        maps: usize::MAX,
        long: 0,
        any: 20,
    });
}

#[test]
fn sc1_top_buckets() {
    run_plan(Plan {
        set: "sc1",
        maps: usize::MAX,
        long: 20,
        any: 0,
    });
}

#[test]
fn mazes_top_buckets() {
    run_plan(Plan {
        set: "mazes",
        maps: usize::MAX,
        long: 20,
        any: 0,
    });
}

#[test]
fn rooms_top_buckets() {
    run_plan(Plan {
        set: "rooms",
        maps: usize::MAX,
        long: 20,
        any: 0,
    });
}

#[test]
fn random_top_buckets() {
    run_plan(Plan {
        set: "random",
        maps: usize::MAX,
        long: 20,
        any: 0,
    });
}

/// Every query of one dao map.
#[test]
fn dao_arena_every_query() {
    let Some(file) = common::scenario_file("dao", "arena") else {
        return;
    };
    let (grid, scen) = common::load(&file);
    let jps = Jps::new(&grid).unwrap();
    let mut cache = JpsCache::new();
    for q in &scen.queries {
        check_query(&jps, &mut cache, &scen, q);
    }
}

/// The rules other than the benchmark's: corner cutting either way, the
/// 10/14 costs, a diagonal as dear as two straight moves, and 4-connected.
fn other_rules() -> [Movement; 5] {
    let with = |corners| Movement {
        corners,
        ..Movement::default()
    };
    [
        with(CornerRule::IfOneFree),
        with(CornerRule::Always),
        Movement {
            corners: CornerRule::IfOneFree,
            ..Movement::TEN_FOURTEEN
        },
        Movement {
            straight: 1,
            diagonal: 2,
            ..Movement::default()
        },
        Movement::FOUR,
    ]
}

/// On one map of each set, a few queries from any bucket under every other
/// rule: the same reachability and cost as flat A*, valid paths.
#[test]
fn other_rules_match_astar_on_a_sample() {
    let k = common::env_number("MOVINGAI_JPS_SCALE", 1);
    let t0 = Instant::now();
    let mut checked = 0;
    for (set, map) in [
        ("dao", "arena"),
        ("sc1", "Aftershock"),
        ("mazes", "maze512-1-0"),
        ("rooms", "16room_000"),
        ("random", "random512-10-0"),
    ] {
        let Some(file) = common::scenario_file(set, map) else {
            return;
        };
        let (grid, scen) = common::load(&file);
        let queries = common::pick_queries(&scen, TOP_BUCKETS, 0, 6 * k, common::seed_of(map));
        let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
        for m in other_rules() {
            let jps = Jps::with_movement(&grid, m).unwrap_or_else(|e| panic!("{m:?}: {e}"));
            let astar = AStar::new(&grid).movement(m);
            for q in &queries {
                let ctx = format!("{m:?}: {}", common::query_context(&scen, q));
                let j = jps.find_path(&mut jc, q.start, q.goal).unwrap().path;
                let a = astar.find_path(&mut ac, q.start, q.goal).unwrap().path;
                assert_eq!(
                    j.as_ref().map(|p| p.cost),
                    a.map(|p| p.cost),
                    "{ctx}: JPS and A* differ"
                );
                if let Some(p) = j {
                    p.validate(&grid, &m)
                        .unwrap_or_else(|e| panic!("{ctx}: invalid path: {e}"));
                    assert_eq!(
                        (p.start(), p.goal()),
                        (Some(q.start), Some(q.goal)),
                        "{ctx}"
                    );
                }
                checked += 1;
            }
        }
    }
    eprintln!(
        "movingai_jps other rules: {checked} queries against A*, {:.2} s",
        t0.elapsed().as_secs_f64()
    );
}
