//! Queries: flat A* against the two-tier hierarchy on the same long queries
//! (top 10 buckets) of the Moving AI benchmarks: two large StarCraft maps
//! (768x768 and up), one large Dragon Age map, one maze and one rooms map.
//!
//! Everything is prepared before timing: maps read, hierarchies built with
//! the default settings, queries picked (deterministically, seeded by map
//! name), and both planners' answers checked (both reach every goal; the
//! hierarchy's cost is never below A*'s exact one). One criterion group per
//! map times a whole pass over its query set with each planner, each reusing
//! its scratch (`SearchCache`, `QueryCache`). After criterion's report, one
//! plain summary line per map gives each planner's median query time measured
//! directly (each query timed alone, the median of a few runs per query, then
//! the median over the queries) and the ratio flat / hierarchy.
//!
//! `cargo bench --bench query`. Skips with a notice when `../shared/movingai`
//! is absent.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{LongQueries, TOP_BUCKETS, median};
use criterion::SamplingMode;
use tierpath::{AStar, Cost, Grid, Hierarchy, Point, QueryCache, SearchCache};

const QUERIES_PER_MAP: usize = 10;
/// Runs per query in the summary (flat A* is slow on large maps).
const SUMMARY_RUNS_FLAT: usize = 3;
const SUMMARY_RUNS_HPA: usize = 11;

struct BenchMap {
    label: String,
    grid: Grid,
    hierarchy: Hierarchy,
    queries: Vec<(Point, Point)>,
}

fn setup() -> Option<Vec<BenchMap>> {
    let files = common::pick_files(
        &[
            ("sc1", 768, 2),
            ("dao", 512, 1),
            ("mazes", 0, 1),
            ("rooms", 0, 1),
        ],
        |set| common::seed_of(&format!("benches/query/{set}")),
    )?;
    Some(
        files
            .into_iter()
            .map(|(set, f)| {
                let m = LongQueries::load(&f, QUERIES_PER_MAP);
                let hierarchy = Hierarchy::build(m.grid.clone()).expect("default settings");
                BenchMap {
                    label: m.label(set),
                    queries: m.endpoints(),
                    grid: m.grid,
                    hierarchy,
                }
            })
            .collect(),
    )
}

fn flat_cost(m: &BenchMap, cache: &mut SearchCache, (s, g): (Point, Point)) -> Cost {
    AStar::new(&m.grid)
        .find_path(cache, s, g)
        .expect("valid query")
        .path
        .map_or(Cost::MAX, |p| p.cost)
}

fn hpa_cost(m: &BenchMap, cache: &mut QueryCache, (s, g): (Point, Point)) -> Cost {
    m.hierarchy
        .find_path(cache, s, g)
        .expect("valid query")
        .path
        .map_or(Cost::MAX, |p| p.cost)
}

/// The median over queries of each query's median time over `runs` runs.
fn median_query_time(
    queries: &[(Point, Point)],
    runs: usize,
    mut solve: impl FnMut((Point, Point)) -> Cost,
) -> Duration {
    median(
        queries
            .iter()
            .map(|q| {
                median(
                    (0..runs)
                        .map(|_| {
                            let t = Instant::now();
                            black_box(solve(*q));
                            t.elapsed()
                        })
                        .collect(),
                )
            })
            .collect(),
    )
}

fn main() {
    common::help_first();
    let Some(maps) = setup() else {
        println!("query: skipped: ../shared/movingai not found");
        return;
    };
    let mut flat_cache = SearchCache::new();
    let mut hpa_cache = QueryCache::new();
    for m in &maps {
        // Check before timing: both reach every goal; never below the optimum.
        for &q in &m.queries {
            let (exact, found) = (
                flat_cost(m, &mut flat_cache, q),
                hpa_cost(m, &mut hpa_cache, q),
            );
            assert!(exact != Cost::MAX, "{}: {q:?} unreachable", m.label);
            assert!(found >= exact, "{}: {q:?} below the optimum", m.label);
        }
    }
    println!(
        "query: {QUERIES_PER_MAP} long queries (top {TOP_BUCKETS} buckets) per map on {}",
        maps.iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut c = common::criterion(Duration::from_secs(1), Duration::from_secs(3), true);
    for m in &maps {
        let mut group = c.benchmark_group(format!("query/{}", m.label));
        // Flat A* passes take up to a second: equal-sized samples keep the
        // group short.
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function("flat_astar", |b| {
            b.iter(|| {
                for &q in &m.queries {
                    black_box(flat_cost(m, &mut flat_cache, q));
                }
            })
        });
        group.bench_function("hierarchy", |b| {
            b.iter(|| {
                for &q in &m.queries {
                    black_box(hpa_cost(m, &mut hpa_cache, q));
                }
            })
        });
        group.finish();
    }
    c.final_summary();

    // The summary lines: only when actually benchmarking (not `cargo test --benches`).
    if !common::benchmarking() {
        return;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    for m in &maps {
        let flat = median_query_time(&m.queries, SUMMARY_RUNS_FLAT, |q| {
            flat_cost(m, &mut flat_cache, q)
        });
        let hpa = median_query_time(&m.queries, SUMMARY_RUNS_HPA, |q| {
            hpa_cost(m, &mut hpa_cache, q)
        });
        println!(
            "query: {}: median query flat A* {:.0} us, hierarchy {:.1} us, ratio flat/hierarchy = {:.1}x \
             ({} queries)",
            m.label,
            us(flat),
            us(hpa),
            us(flat) / us(hpa),
            m.queries.len()
        );
    }
}
