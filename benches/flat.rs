//! Flat A*: tierpath against the `pathfinding` crate's `astar`, and tierpath's
//! exact jump point search ([`Jps`]) beside them, on long queries
//! (top-10 buckets) of the large (768x768 and up) StarCraft maps of the Moving
//! AI benchmarks, under the same rules: 8-connected, no corner cutting,
//! straight 10,000 and diagonal 14,142 as `u64` costs, octile heuristic.
//!
//! Maps and queries are loaded before timing (and JPS's bitsets made); the
//! engines are checked to find equal costs before timing. After criterion's
//! report a plain summary line gives the ratios, from a few timed passes over
//! the query set.
//!
//! `cargo bench --bench flat`. Skips with a notice when `../shared/movingai` is
//! absent.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{DIAGONAL, LongQueries, STRAIGHT, TOP_BUCKETS, median, octile};
use tierpath::{
    AStar, Grid, Jps, JpsCache, Movement, Point, QueryError, SearchCache, SearchOutcome, Weight,
};

/// Maps sampled from the large sc1 maps, and long queries per map.
const MAPS: usize = 4;
const QUERIES_PER_MAP: usize = 4;
/// Timed passes over the whole query set for the summary line.
const SUMMARY_PASSES: usize = 3;

struct BenchMap {
    name: String,
    grid: Grid,
    queries: Vec<(Point, Point)>,
}

/// Loads the deterministic sample of maps and queries (outside any timing).
fn setup() -> Option<Vec<BenchMap>> {
    let files = common::pick_files(&[("sc1", 768, MAPS)], |_| common::seed_of("benches/flat"))?;
    Some(
        files
            .iter()
            .map(|(_, f)| {
                let m = LongQueries::load(f, QUERIES_PER_MAP);
                BenchMap {
                    queries: m.endpoints(),
                    name: m.name,
                    grid: m.grid,
                }
            })
            .collect(),
    )
}

/// A tierpath search's cost in the shared unit (straight step = 10,000),
/// `u64::MAX` for no path.
fn unit_cost(out: Result<SearchOutcome, QueryError>) -> u64 {
    out.expect("valid query")
        .path
        .map_or(u64::MAX, |p| p.cost.0 / Weight::ONE.0 as u64)
}

/// tierpath's flat A* (default movement = the rules above), one reused cache.
/// Returns every query's cost in the shared unit (straight step = 10,000).
fn run_tierpath(maps: &[BenchMap], cache: &mut SearchCache, costs: &mut Vec<u64>) {
    costs.clear();
    for m in maps {
        let astar = AStar::new(&m.grid).movement(Movement::OCTILE);
        for &(s, g) in &m.queries {
            costs.push(unit_cost(astar.find_path(cache, s, g)));
        }
    }
}

/// tierpath's jump point search (`jps[i]` searches `maps[i]`), one reused
/// cache; costs as in [`run_tierpath`].
fn run_jps(maps: &[BenchMap], jps: &[Jps], cache: &mut JpsCache, costs: &mut Vec<u64>) {
    costs.clear();
    for (m, jps) in maps.iter().zip(jps) {
        for &(s, g) in &m.queries {
            costs.push(unit_cost(jps.find_path(cache, s, g)));
        }
    }
}

/// The neighbours of `p` under the benchmark rules, as `pathfinding` wants
/// them: a fixed array on the stack, no allocation.
#[inline]
fn successors(grid: &Grid, p: Point) -> impl Iterator<Item = (Point, u64)> + use<> {
    let at =
        |dx: i32, dy: i32| Point::new(p.x.wrapping_add_signed(dx), p.y.wrapping_add_signed(dy));
    // Off-map coordinates wrap to huge values, which `is_passable` rejects.
    let (n, e, s, w) = (at(0, -1), at(1, 0), at(0, 1), at(-1, 0));
    let (fn_, fe, fs, fw) = (
        grid.is_passable(n),
        grid.is_passable(e),
        grid.is_passable(s),
        grid.is_passable(w),
    );
    let mut out = [(p, 0u64); 8];
    let mut len = 0;
    let mut push = |q: Point, c: u64| {
        out[len] = (q, c);
        len += 1;
    };
    for (free, q) in [(fn_, n), (fe, e), (fs, s), (fw, w)] {
        if free {
            push(q, STRAIGHT);
        }
    }
    for (a, b, dx, dy) in [
        (fn_, fe, 1, -1),
        (fs, fe, 1, 1),
        (fs, fw, -1, 1),
        (fn_, fw, -1, -1),
    ] {
        if a && b {
            let q = at(dx, dy);
            if grid.is_passable(q) {
                push(q, DIAGONAL);
            }
        }
    }
    out.into_iter().take(len)
}

/// `pathfinding::prelude::astar` under the same rules.
fn run_pathfinding(maps: &[BenchMap], costs: &mut Vec<u64>) {
    costs.clear();
    for m in maps {
        let grid = &m.grid;
        for &(s, g) in &m.queries {
            let found = pathfinding::prelude::astar(
                &s,
                |&p| successors(grid, p),
                |&p| octile(p, g),
                |&p| p == g,
            );
            costs.push(found.map_or(u64::MAX, |(_, c)| c));
        }
    }
}

fn main() {
    common::help_first();
    let Some(maps) = setup() else {
        println!("flat: skipped: ../shared/movingai not found");
        return;
    };
    let n_queries: usize = maps.iter().map(|m| m.queries.len()).sum();
    let names: Vec<String> = maps
        .iter()
        .map(|m| format!("{} ({}x{})", m.name, m.grid.width(), m.grid.height()))
        .collect();
    println!(
        "flat: {n_queries} long queries (top {TOP_BUCKETS} buckets) on {}",
        names.join(", ")
    );

    // The engines must agree before anything is timed.
    let mut cache = SearchCache::new();
    let jps: Vec<Jps> = maps
        .iter()
        .map(|m| Jps::new(&m.grid).expect("an unweighted map"))
        .collect();
    let mut jps_cache = JpsCache::new();
    let (mut ours, mut theirs, mut jumps) = (Vec::new(), Vec::new(), Vec::new());
    run_tierpath(&maps, &mut cache, &mut ours);
    run_pathfinding(&maps, &mut theirs);
    run_jps(&maps, &jps, &mut jps_cache, &mut jumps);
    assert_eq!(ours.len(), n_queries);
    assert!(
        ours.iter().all(|c| *c != u64::MAX),
        "every query is reachable"
    );
    assert_eq!(ours, theirs, "tierpath and pathfinding disagree on costs");
    assert_eq!(ours, jumps, "A* and jump point search disagree on costs");

    let mut c = common::criterion(Duration::from_secs(1), Duration::from_secs(3), true);
    {
        let mut group = c.benchmark_group("flat");
        group.bench_function("tierpath_astar", |b| {
            let mut costs = Vec::with_capacity(n_queries);
            b.iter(|| {
                run_tierpath(black_box(&maps), &mut cache, &mut costs);
                black_box(&costs);
            })
        });
        group.bench_function("tierpath_jps", |b| {
            let mut costs = Vec::with_capacity(n_queries);
            b.iter(|| {
                run_jps(black_box(&maps), &jps, &mut jps_cache, &mut costs);
                black_box(&costs);
            })
        });
        group.bench_function("pathfinding_astar", |b| {
            let mut costs = Vec::with_capacity(n_queries);
            b.iter(|| {
                run_pathfinding(black_box(&maps), &mut costs);
                black_box(&costs);
            })
        });
        group.finish();
    }
    c.final_summary();

    // The summary line: only when actually benchmarking (not `cargo test --benches`).
    if !common::benchmarking() {
        return;
    }
    let (mut t_ours, mut t_theirs, mut t_jps) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..SUMMARY_PASSES {
        let t = Instant::now();
        run_tierpath(&maps, &mut cache, &mut ours);
        t_ours.push(t.elapsed());
        let t = Instant::now();
        run_pathfinding(&maps, &mut theirs);
        t_theirs.push(t.elapsed());
        let t = Instant::now();
        run_jps(&maps, &jps, &mut jps_cache, &mut jumps);
        t_jps.push(t.elapsed());
        black_box((&ours, &theirs, &jumps));
    }
    let (x, y, z) = (median(t_ours), median(t_theirs), median(t_jps));
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "flat: tierpath A* median {:.1} ms, pathfinding astar {:.1} ms, ratio Y/X = {:.2} \
         (per pass of {n_queries} queries, median of {SUMMARY_PASSES} passes)",
        ms(x),
        ms(y),
        ms(y) / ms(x)
    );
    println!(
        "flat: tierpath JPS median {:.2} ms: {:.1}x faster than tierpath A* \
         (per pass of {n_queries} queries, median of {SUMMARY_PASSES} passes)",
        ms(z),
        ms(x) / ms(z)
    );
}
