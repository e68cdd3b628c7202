//! Peers: tierpath's flat A*, jump point search and hierarchy next to public
//! Rust crates, on the
//! same long queries of the same Moving AI maps.
//!
//! Maps: two large StarCraft maps (768x768 and up), one Dragon Age map
//! (512 and up) and one rooms map, from `../shared/movingai` (skipped with a
//! notice when absent); per map 10 queries from the top 10 buckets, picked
//! deterministically (seeded by map name).
//!
//! Contenders, each prepared before any timing (maps read, grids converted,
//! every preprocessing built and its build time noted):
//!
//! * `tierpath_astar`: [`tierpath::AStar`], one reused `SearchCache`;
//! * `tierpath_hierarchy`: [`tierpath::Hierarchy`] (default settings), one
//!   reused `QueryCache`;
//! * `tierpath_jps`: [`tierpath::Jps`], exact jump point search (its row and
//!   column bitsets made before timing), one reused `JpsCache`;
//! * `pathfinding_astar`: `pathfinding::prelude::astar` with the benchmark's
//!   rules: integer costs 10,000 straight and 14,142 diagonal, the octile
//!   heuristic, no corner cutting;
//! * `grid_pathfinding_jps`: `grid_pathfinding`'s jump point search
//!   (`PathingGrid`, components generated, `get_path_single_goal`);
//! * `hierarchical_pathfinding_c8` and `_c16`: `hierarchical_pathfinding`'s
//!   HPA*-style `PathCache` with chunks of 8 and 16 (Moore neighbourhood, cost
//!   1 per passable tile; `find_path`, then `resolve` for the full path).
//!
//! Every contender returns a full cell path, and a timed query includes making
//! it. One criterion group per map times a pass over its queries per
//! contender. After criterion's report, a plain table per map: each
//! contender's median query time (each query timed on its own, the median of
//! three runs, then the median over the queries), its mean path length in the
//! benchmark's metric (each returned path re-priced with straight 1, diagonal
//! sqrt 2), its mean ratio to the scenario's optimal length, and the build time
//! of the preprocessing contenders. Paths that break the benchmark's
//! no-corner-cutting rule are still measured, and flagged. The peers' rules
//! differ from the benchmark's; the caveats are printed with the table.
//!
//! `cargo bench --bench peers`.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{DIAGONAL, LongQueries, STRAIGHT, TOP_BUCKETS, hpf_cache, hpf_cost, median, octile};
use criterion::SamplingMode;
use grid_pathfinding::PathingGrid;
use grid_util::grid::{BoolGrid, ValueGrid};
use hierarchical_pathfinding::prelude::{MooreNeighborhood, PathCache};
use tierpath::{
    AStar, CornerRule, Grid, Hierarchy, Jps, JpsCache, Movement, PathError, Point, QueryCache,
    SearchCache, path_cost,
};

const QUERIES_PER_MAP: usize = 10;
/// Runs per query in the summary table.
const SUMMARY_RUNS: usize = 3;

/// The caveats printed with the table, word for word.
const CAVEATS: [&str; 4] = [
    "grid_pathfinding (jump point search) lets diagonal moves cut corners: a diagonal step \
     needs only its destination free, not the two cells beside it. Its paths are therefore \
     not valid under the benchmark rule (no corner cutting), and they can be shorter than \
     the benchmark's optimal length.",
    "hierarchical_pathfinding charges per tile entered, so a diagonal step costs the same as \
     a straight one: it minimises the number of steps, not the benchmark's length, and its \
     Moore neighbourhood also lets diagonals cut corners. Its lengths here are its paths \
     re-priced with straight 1, diagonal sqrt 2.",
    "pathfinding's astar is a generic A* given the benchmark's rules (integer costs \
     10000 / 14142, octile heuristic, no corner cutting): the same answers as tierpath's \
     flat A*, with hashing and allocation per node.",
    "tierpath's hierarchy is near-optimal (ratio >= 1); tierpath's flat A*, tierpath's jump \
     point search and pathfinding's astar are exact under the benchmark rule.",
];

/// A contender's name, whether it preprocesses, and its rules in short.
const CONTENDERS: [(&str, &str); 7] = [
    ("tierpath_astar", "exact; no corner cutting"),
    ("tierpath_hierarchy", "near-optimal; no corner cutting"),
    ("pathfinding_astar", "exact; no corner cutting"),
    ("grid_pathfinding_jps", "exact for its rule; cuts corners"),
    ("hierarchical_pathfinding_c8", "per-tile cost; cuts corners"),
    (
        "hierarchical_pathfinding_c16",
        "per-tile cost; cuts corners",
    ),
    ("tierpath_jps", "exact; no corner cutting"),
];

/// The index of `tierpath_jps` in [`CONTENDERS`].
const JPS: usize = 6;

struct Query {
    start: Point,
    goal: Point,
    optimal: f64,
}

struct BenchMap {
    label: String,
    grid: Grid,
    hierarchy: Hierarchy,
    jps: PathingGrid,
    hpf8: PathCache<MooreNeighborhood>,
    hpf16: PathCache<MooreNeighborhood>,
    /// Build times in ms: hierarchy, JPS grid, hpf chunk 8, hpf chunk 16,
    /// tierpath's JPS bitsets.
    builds: [f64; 5],
    queries: Vec<Query>,
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

/// `grid_pathfinding`'s grid: blocked cells `true`, jump points and
/// components precomputed.
fn jps_grid(grid: &Grid) -> PathingGrid {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let mut cells = BoolGrid::new(w, h, false);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            if !grid.is_passable(Point::new(x, y)) {
                cells.set(x as i32, y as i32, true);
            }
        }
    }
    let mut pg = PathingGrid::new(w, h, true);
    pg.grid = cells;
    pg.allow_diagonal_move = true;
    pg.initialize();
    pg.generate_components();
    pg
}

fn setup() -> Option<Vec<BenchMap>> {
    let files = common::pick_files(
        &[("sc1", 768, 2), ("dao", 512, 1), ("rooms", 0, 1)],
        |set| common::seed_of(&format!("benches/peers/{set}")),
    )?;
    let maps = files
        .into_iter()
        .map(|(set, f)| {
            let m = LongQueries::load(&f, QUERIES_PER_MAP);
            let label = m.label(set);
            let queries = m
                .queries
                .into_iter()
                .filter(|q| !common::expects_no_path(q))
                .map(|q| Query {
                    start: q.start,
                    goal: q.goal,
                    optimal: q.optimal,
                })
                .collect();
            let grid = m.grid;
            let t = Instant::now();
            let hierarchy = Hierarchy::build(grid.clone()).expect("default settings");
            let b0 = ms(t);
            let t = Instant::now();
            let jps = jps_grid(&grid);
            let b1 = ms(t);
            let t = Instant::now();
            let hpf8 = hpf_cache(&grid, 8);
            let b2 = ms(t);
            let t = Instant::now();
            let hpf16 = hpf_cache(&grid, 16);
            let b3 = ms(t);
            let t = Instant::now();
            black_box(Jps::new(&grid).expect("an unweighted map"));
            let b4 = ms(t);
            BenchMap {
                label,
                grid,
                hierarchy,
                jps,
                hpf8,
                hpf16,
                builds: [b0, b1, b2, b3, b4],
                queries,
            }
        })
        .collect();
    Some(maps)
}

/// Per-contender scratch.
#[derive(Default)]
struct Scratch {
    flat: SearchCache,
    hpa: QueryCache,
    jps: JpsCache,
}

/// The 8 neighbours of `p` under the benchmark rule, with integer costs.
fn successors(grid: &Grid, p: Point) -> Vec<(Point, u64)> {
    let free = |dx: i64, dy: i64| -> Option<Point> {
        let (x, y) = (p.x as i64 + dx, p.y as i64 + dy);
        if x < 0 || y < 0 || x >= grid.width() as i64 || y >= grid.height() as i64 {
            return None;
        }
        let q = Point::new(x as u32, y as u32);
        grid.is_passable(q).then_some(q)
    };
    let mut out = Vec::with_capacity(8);
    for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
        if let Some(q) = free(dx, dy) {
            out.push((q, STRAIGHT));
        }
    }
    for (dx, dy) in [(1, -1), (1, 1), (-1, 1), (-1, -1)] {
        if free(dx, 0).is_some()
            && free(0, dy).is_some()
            && let Some(q) = free(dx, dy)
        {
            out.push((q, DIAGONAL));
        }
    }
    out
}

/// Runs contender `k` on query `q` (`jps` is the map's [`Jps`]); the full
/// cell path, `None` when none.
fn solve(
    m: &BenchMap,
    jps: &Jps,
    scratch: &mut Scratch,
    k: usize,
    q: &Query,
) -> Option<Vec<Point>> {
    let (s, g) = (q.start, q.goal);
    match k {
        0 => AStar::new(&m.grid)
            .find_path(&mut scratch.flat, s, g)
            .expect("valid query")
            .path
            .map(|p| p.cells),
        1 => m
            .hierarchy
            .find_path(&mut scratch.hpa, s, g)
            .expect("valid query")
            .path
            .map(|p| p.cells),
        2 => pathfinding::prelude::astar(
            &s,
            |&p| successors(&m.grid, p),
            |&p| octile(p, g),
            |&p| p == g,
        )
        .map(|(cells, _)| cells),
        3 => {
            let gp = |p: Point| grid_util::point::Point::new(p.x as i32, p.y as i32);
            m.jps
                .get_path_single_goal(gp(s), gp(g), false)
                .map(|cells| {
                    cells
                        .into_iter()
                        .map(|p| Point::new(p.x as u32, p.y as u32))
                        .collect()
                })
        }
        4 | 5 => {
            let cache = if k == 4 { &m.hpf8 } else { &m.hpf16 };
            let hp = |p: Point| (p.x as usize, p.y as usize);
            cache
                .find_path(hp(s), hp(g), hpf_cost(&m.grid))
                .map(|path| {
                    let mut cells = vec![s];
                    cells.extend(
                        path.resolve(hpf_cost(&m.grid))
                            .into_iter()
                            .map(|(x, y)| Point::new(x as u32, y as u32)),
                    );
                    if cells.len() > 1 && cells[1] == s {
                        cells.remove(0);
                    }
                    cells
                })
        }
        JPS => jps
            .find_path(&mut scratch.jps, s, g)
            .expect("valid query")
            .path
            .map(|p| p.cells),
        _ => unreachable!("seven contenders"),
    }
}

/// A path's length in the benchmark's metric (straight 1, diagonal sqrt 2,
/// counted from its moves even where they break a rule), and what is wrong
/// with it under the benchmark rule, if anything.
fn reprice(grid: &Grid, q: &Query, cells: &[Point]) -> (f64, Option<&'static str>) {
    let mut length = 0.0;
    for w in cells.windows(2) {
        let diagonal = w[0].x != w[1].x && w[0].y != w[1].y;
        length += if diagonal {
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
    }
    if cells.first() != Some(&q.start) || cells.last() != Some(&q.goal) {
        return (length, Some("wrong endpoints"));
    }
    let problem = match path_cost(grid, &Movement::default(), cells) {
        Ok(_) => None,
        Err(PathError::CutsCorner { .. }) => {
            // Legal once corners may be cut?
            let loose = Movement {
                corners: CornerRule::Always,
                ..Movement::default()
            };
            match path_cost(grid, &loose, cells) {
                Ok(_) => Some("cuts corners"),
                Err(_) => Some("invalid"),
            }
        }
        Err(_) => Some("invalid"),
    };
    (length, problem)
}

fn main() {
    common::help_first();
    let Some(maps) = setup() else {
        println!("peers: skipped: ../shared/movingai not found");
        return;
    };
    let mut scratch = Scratch::default();
    let jps: Vec<Jps> = maps
        .iter()
        .map(|m| Jps::new(&m.grid).expect("an unweighted map"))
        .collect();
    // Every contender finds a path for every query before anything is timed;
    // the exact ones agree with the scenario.
    for (m, jps) in maps.iter().zip(&jps) {
        for q in &m.queries {
            for (k, (name, _)) in CONTENDERS.iter().enumerate() {
                let cells = solve(m, jps, &mut scratch, k, q)
                    .unwrap_or_else(|| panic!("{}: {name} finds no path", m.label));
                let (len, _) = reprice(&m.grid, q, &cells);
                if k == 0 || k == 2 || k == JPS {
                    assert!(
                        common::length_matches(len, q.optimal, 1e-4),
                        "{}: {name} length {len} vs optimal {}",
                        m.label,
                        q.optimal
                    );
                }
            }
        }
    }
    println!(
        "peers: {QUERIES_PER_MAP} long queries (top {TOP_BUCKETS} buckets) per map on {}",
        maps.iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut c = common::criterion(Duration::from_millis(500), Duration::from_secs(2), true);
    for (m, jps) in maps.iter().zip(&jps) {
        let mut group = c.benchmark_group(format!("peers/{}", m.label));
        // Slow contenders take up to seconds a pass: equal-sized samples keep
        // the group short.
        group.sampling_mode(SamplingMode::Flat);
        for (k, (name, _)) in CONTENDERS.iter().enumerate() {
            group.bench_function(*name, |b| {
                b.iter(|| {
                    for q in &m.queries {
                        black_box(solve(m, jps, &mut scratch, k, q));
                    }
                })
            });
        }
        group.finish();
    }
    c.final_summary();

    // The table: only when actually benchmarking (not `cargo test --benches`).
    if !common::benchmarking() {
        return;
    }
    println!();
    println!(
        "peers summary: median query time (median of {SUMMARY_RUNS} runs per query, then over \
         the queries), mean length in the benchmark's metric (straight 1, diagonal sqrt 2), mean \
         ratio to the scenario's optimal length"
    );
    for (m, jps) in maps.iter().zip(&jps) {
        println!();
        println!("{}: {} queries", m.label, m.queries.len());
        let head = [
            "contender",
            "rules",
            "build ms",
            "median us",
            "vs flat A*",
            "mean length",
            "ratio",
            "paths breaking the rule",
        ];
        let mut rows: Vec<Vec<String>> = Vec::new();
        let mut flat_median = 0.0;
        for (k, (name, rules)) in CONTENDERS.iter().enumerate() {
            let mut times = Vec::new();
            let (mut lengths, mut ratios) = (Vec::new(), Vec::new());
            let mut flagged: Vec<&str> = Vec::new();
            for q in &m.queries {
                let mut runs = Vec::new();
                let mut last = None;
                for _ in 0..SUMMARY_RUNS {
                    let t = Instant::now();
                    let out = solve(m, jps, &mut scratch, k, q);
                    runs.push(t.elapsed());
                    last = Some(out);
                }
                times.push(median(runs));
                let cells = last.flatten().expect("checked before timing");
                let (len, problem) = reprice(&m.grid, q, &cells);
                lengths.push(len);
                ratios.push(len / q.optimal.max(1e-9));
                if let Some(p) = problem {
                    flagged.push(p);
                }
            }
            let med = median(times).as_secs_f64() * 1e6;
            if k == 0 {
                flat_median = med;
            }
            let n = lengths.len().max(1) as f64;
            let build = match k {
                1 => format!("{:.1}", m.builds[0]),
                3 => format!("{:.1}", m.builds[1]),
                4 => format!("{:.1}", m.builds[2]),
                5 => format!("{:.1}", m.builds[3]),
                JPS => format!("{:.1}", m.builds[4]),
                _ => "-".to_string(),
            };
            let broken = if flagged.is_empty() {
                "0".to_string()
            } else {
                let mut kinds: Vec<&str> = flagged.clone();
                kinds.sort_unstable();
                kinds.dedup();
                format!("{} ({})", flagged.len(), kinds.join(", "))
            };
            rows.push(vec![
                name.to_string(),
                rules.to_string(),
                build,
                format!("{med:.1}"),
                format!("{:.2}x", flat_median / med.max(1e-9)),
                format!("{:.3}", lengths.iter().sum::<f64>() / n),
                format!("{:.5}", ratios.iter().sum::<f64>() / n),
                broken,
            ]);
        }
        print_table(&head, &rows);
    }
    println!();
    println!("rules of the peers (read before comparing):");
    for c in CAVEATS {
        println!("  - {c}");
    }
}

fn print_table(head: &[&str], rows: &[Vec<String>]) {
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut out = String::new();
        for (i, (c, w)) in cells.iter().zip(&width).enumerate() {
            if i > 0 {
                out.push_str("  ");
            }
            if i < 2 || i + 1 == cells.len() {
                out.push_str(&format!("{c:<w$}"));
            } else {
                out.push_str(&format!("{c:>w$}"));
            }
        }
        println!("{}", out.trim_end());
    };
    line(head.to_vec());
    for r in rows {
        line(r.iter().map(String::as_str).collect());
    }
}
