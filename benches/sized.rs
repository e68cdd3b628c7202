//! Agent sizes: the hierarchy built once for sizes 1 to 3 (one graph
//! annotated with clearance, `HierarchyBuilder::max_unit_size(3)`) against exact flat A* for each size
//! (`AStar::for_unit`), on long queries of real Moving AI maps: a large StarCraft
//! map (sc1/Nightshade, 1024x768), a large Dragon Age map (dao/ost100d,
//! 1024x1025) and a maze with corridors 4 cells wide (mazes/maze512-4-0).
//! (The rooms maps' one-cell doors leave no long query for units of size 2
//! or more.)
//!
//! Everything is prepared before timing: maps read, the hierarchy
//! built, and per size the long queries (top 10 buckets) whose endpoints fit
//! a unit of that size and are connected for it, sampled deterministically;
//! both planners' answers are checked (paths legal for the size by the
//! footprint rule, never below the exact cost). One criterion group per map
//! and size times a pass over its queries with each planner.
//!
//! After criterion's report, plain summary lines: per map and size, the
//! median query time of each (each query timed alone, median of a few runs,
//! then median over queries), the speedup, the suboptimality (mean and max
//! of cost over the exact cost); per map, the build time and memory of the
//! one annotated hierarchy against building one per size: a `Hierarchy`
//! for single cells on each size's grid. The same figures for the leaner placement of the larger
//! sizes' transitions (`SizeTransitions::One`, HAA*'s).
//!
//! `cargo bench --bench sized`. Skips with a notice when
//! `../shared/movingai` is absent.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{TOP_BUCKETS, median};
use criterion::SamplingMode;
use tierpath::io::BucketFilter;
use tierpath::{
    AStar, Clearance, Cost, Hierarchy, HierarchyBuilder, Point, QueryCache, QueryOptions,
    SearchCache, SizeTransitions, validate_sized_path,
};

const MAX_SIZE: u32 = 3;
const QUERIES_PER_SIZE: usize = 10;
const SUMMARY_RUNS_FLAT: usize = 3;
const SUMMARY_RUNS_HPA: usize = 11;

struct BenchMap {
    label: String,
    hierarchy: Hierarchy,
    /// The map's clearance, for exact flat A* per size.
    clearance: Clearance,
    build: Duration,
    /// The same with HAA*'s transition placement for the larger sizes.
    lean: Hierarchy,
    lean_build: Duration,
    /// Per size (index `k - 1`): the queries.
    queries: Vec<Vec<(Point, Point)>>,
}

fn setup() -> Option<Vec<BenchMap>> {
    let files = [
        ("sc1", "Nightshade"),
        ("dao", "ost100d"),
        ("mazes", "maze512-4-0"),
    ]
    .into_iter()
    .map(|(set, map)| common::scenario_file(set, map).map(|f| (set, f)))
    .collect::<Option<Vec<_>>>()?;
    Some(
        files
            .into_iter()
            .map(|(set, f)| {
                let (grid, scen) = common::load(&f);
                let name = common::short_name(&f);
                let label = format!("{set}/{name} ({}x{})", grid.width(), grid.height());
                let builder = HierarchyBuilder::new().max_unit_size(MAX_SIZE);
                let build = build_time(|| builder.build(grid.clone()));
                let lean_builder = builder.clone().larger_sizes(SizeTransitions::One);
                let lean_build = build_time(|| lean_builder.build(grid.clone()));
                let lean = lean_builder.build(grid.clone()).expect("valid");
                let clearance = Clearance::new(grid.clone());
                let hierarchy = builder.build(grid).expect("valid");
                let long = scen.select(BucketFilter::Top(TOP_BUCKETS));
                let queries = (1..=MAX_SIZE)
                    .map(|size| {
                        let fitting: Vec<(Point, Point)> = long
                            .iter()
                            .map(|q| (q.start, q.goal))
                            .filter(|(s, g)| hierarchy.reachable(*s, *g, size) == Ok(true))
                            .collect();
                        common::sample(
                            &fitting,
                            QUERIES_PER_SIZE,
                            common::seed_of(&format!("{name}/{size}")),
                        )
                    })
                    .collect();
                BenchMap {
                    label,
                    hierarchy,
                    clearance,
                    build,
                    lean,
                    lean_build,
                    queries,
                }
            })
            .collect(),
    )
}

fn flat_cost(m: &BenchMap, cache: &mut SearchCache, (s, g): (Point, Point), k: u32) -> Cost {
    AStar::for_unit(&m.clearance, k)
        .find_path(cache, s, g)
        .expect("valid query")
        .path
        .map_or(Cost::MAX, |p| p.cost)
}

fn hpa_cost(m: &BenchMap, cache: &mut QueryCache, (s, g): (Point, Point), k: u32) -> Cost {
    sized_cost(&m.hierarchy, cache, (s, g), k)
}

fn sized_cost(h: &Hierarchy, cache: &mut QueryCache, (s, g): (Point, Point), k: u32) -> Cost {
    h.find_path_with(cache, s, g, &QueryOptions::new().unit_size(k))
        .expect("valid query")
        .path
        .map_or(Cost::MAX, |p| p.cost)
}

/// The best of five timed builds: on a shared machine the fastest run is
/// the one least disturbed (and the first in a process pays for cold memory
/// and the thread pool).
fn build_time<T, E: std::fmt::Debug>(build: impl Fn() -> Result<T, E>) -> Duration {
    (0..5)
        .map(|_| {
            let t = Instant::now();
            black_box(build().expect("valid settings"));
            t.elapsed()
        })
        .min()
        .expect("five runs")
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
        println!("sized: skipped: ../shared/movingai not found");
        return;
    };
    let mut flat_cache = SearchCache::new();
    let mut hpa_cache = QueryCache::new();
    // Check before timing, and keep the suboptimality per map and size (and
    // the exact costs, for the lean variant's).
    let mut quality = Vec::new();
    let mut exact_costs = Vec::new();
    for m in &maps {
        let h = &m.hierarchy;
        for (i, qs) in m.queries.iter().enumerate() {
            let k = i as u32 + 1;
            let mut ratios = Vec::new();
            let mut costs = Vec::new();
            for &(s, g) in qs {
                let exact = AStar::for_unit(&m.clearance, k)
                    .find_path(&mut flat_cache, s, g)
                    .expect("valid")
                    .path
                    .expect("connected for this size");
                validate_sized_path(&exact, h.grid(), h.movement(), k).expect("flat path legal");
                let found = h
                    .find_path_with(&mut hpa_cache, s, g, &QueryOptions::new().unit_size(k))
                    .expect("valid")
                    .path
                    .expect("connected for this size");
                validate_sized_path(&found, h.grid(), h.movement(), k).expect("sized path legal");
                assert!(
                    found.cost >= exact.cost,
                    "{}: {s} -> {g} below the optimum",
                    m.label
                );
                ratios.push(found.cost.0 as f64 / exact.cost.0.max(1) as f64);
                costs.push(exact.cost);
            }
            quality.push(ratios);
            exact_costs.push(costs);
        }
    }
    println!(
        "sized: up to {QUERIES_PER_SIZE} long queries (top {TOP_BUCKETS} buckets) per size 1..={MAX_SIZE} on {}",
        maps.iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut c = common::criterion(Duration::from_secs(1), Duration::from_secs(3), false);
    for m in &maps {
        for (i, qs) in m.queries.iter().enumerate() {
            let k = i as u32 + 1;
            if qs.is_empty() {
                continue;
            }
            let mut group = c.benchmark_group(format!("sized/{}/size{k}", m.label));
            group.sampling_mode(SamplingMode::Flat);
            group.bench_function("flat_astar", |b| {
                b.iter(|| {
                    for &q in qs {
                        black_box(flat_cost(m, &mut flat_cache, q, k));
                    }
                })
            });
            group.bench_function("sized_hierarchy", |b| {
                b.iter(|| {
                    for &q in qs {
                        black_box(hpa_cost(m, &mut hpa_cache, q, k));
                    }
                })
            });
            group.finish();
        }
    }
    c.final_summary();

    if !common::benchmarking() {
        return;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let mut q = quality.iter();
    let mut exact = exact_costs.iter();
    for m in &maps {
        for (i, qs) in m.queries.iter().enumerate() {
            let k = i as u32 + 1;
            let ratios = q.next().expect("one entry per map and size");
            let costs = exact.next().expect("one entry per map and size");
            if qs.is_empty() {
                println!("sized: {} size {k}: no long query fits", m.label);
                continue;
            }
            let flat = median_query_time(qs, SUMMARY_RUNS_FLAT, |q| {
                flat_cost(m, &mut flat_cache, q, k)
            });
            let hpa =
                median_query_time(qs, SUMMARY_RUNS_HPA, |q| hpa_cost(m, &mut hpa_cache, q, k));
            let mean_max = |r: &[f64]| {
                (
                    (r.iter().sum::<f64>() / r.len() as f64 - 1.0) * 100.0,
                    (r.iter().copied().fold(1.0, f64::max) - 1.0) * 100.0,
                )
            };
            let (mean, max) = mean_max(ratios);
            let lean = median_query_time(qs, SUMMARY_RUNS_HPA, |q| {
                sized_cost(&m.lean, &mut hpa_cache, q, k)
            });
            let lean_ratios: Vec<f64> = qs
                .iter()
                .zip(costs)
                .map(|(q, e)| {
                    let found = sized_cost(&m.lean, &mut hpa_cache, *q, k);
                    assert!(found >= *e, "{}: {q:?} below the optimum", m.label);
                    found.0 as f64 / e.0.max(1) as f64
                })
                .collect();
            let (lean_mean, lean_max) = mean_max(&lean_ratios);
            println!(
                "sized: {} size {k}: median query flat A* {:.0} us, hierarchy {:.1} us, \
                 speedup {:.1}x; suboptimality mean {:.2}%, max {:.2}% ({} queries); \
                 with HAA* placement (One): {:.1} us, {:.1}x, suboptimality mean {:.2}%, max {:.2}%",
                m.label,
                us(flat),
                us(hpa),
                us(flat) / us(hpa),
                mean,
                max,
                qs.len(),
                us(lean),
                us(flat) / us(lean),
                lean_mean,
                lean_max
            );
        }
        // One hierarchy per size instead: a single-cell Hierarchy on each
        // size's grid.
        let h = &m.hierarchy;
        let (mut hpa_bytes, mut hpa_time) = (0usize, Duration::ZERO);
        for k in 1..=MAX_SIZE {
            let grid = m.clearance.grid_for_size(k);
            hpa_time += build_time(|| Hierarchy::build(grid.clone()));
            hpa_bytes += Hierarchy::build(grid).expect("valid").memory_bytes();
        }
        let cells = (h.grid().width() * h.grid().height()) as f64;
        let edges = h.stats().intra_edges + h.stats().inter_edges;
        println!(
            "sized: {} memory: one annotated hierarchy (sizes 1..={MAX_SIZE}) {:.0} KiB ({:.2} B/cell, \
             {} nodes, {edges} edges), built in {:.0} ms (best of 5); one single-cell Hierarchy per size: \
             {:.0} KiB ({:.2} B/cell, {:.1}x), built in {:.0} ms; with HAA* placement (One): {:.0} KiB \
             ({} nodes), built in {:.0} ms",
            m.label,
            h.memory_bytes() as f64 / 1024.0,
            h.memory_bytes() as f64 / cells,
            h.stats().nodes,
            m.build.as_secs_f64() * 1e3,
            hpa_bytes as f64 / 1024.0,
            hpa_bytes as f64 / cells,
            hpa_bytes as f64 / h.memory_bytes() as f64,
            hpa_time.as_secs_f64() * 1e3,
            m.lean.memory_bytes() as f64 / 1024.0,
            m.lean.stats().nodes,
            m.lean_build.as_secs_f64() * 1e3,
        );
        for s in &h.stats().per_size {
            println!(
                "sized: {}   size {}: fits on {} cells, {} components, {} of {} nodes, {} of {edges} edges",
                m.label,
                s.size,
                s.cells,
                s.components,
                s.nodes,
                h.stats().nodes,
                s.edges
            );
        }
    }
}
