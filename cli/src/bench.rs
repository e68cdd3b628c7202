//! `tierpath bench SCEN_OR_DIR...`: flat A* against the hierarchy on the same
//! queries, map by map, summarised per map set.
//!
//! For every scenario (a `.scen` file given directly, or found in a given
//! folder or its subfolders one level down) the map is read, its hierarchy
//! built (timed, and its load from bytes timed), and the selected queries run
//! through the hierarchy, flat A* and any extra `--algo` planner, one pass per
//! planner over the map's queries, each planner reusing its own scratch. Every
//! path is validated (legal moves under the benchmark rule, stated cost, both
//! endpoints); flat A*'s cost must match the scenario's optimal length, and no
//! planner may beat flat A*'s exact cost. Any such problem is listed and makes
//! the command fail (after the tables and files are written).
//!
//! Queries the scenario marks unsolvable (optimal length 0 between two
//! different cells) must be answered "no path" by every planner; they are
//! counted as unreachable and left out of the time and quality figures, as are
//! any other queries where every planner agrees there is no path.
//!
//! Maps are grouped into sets by the name of the scenario's folder (`sc1`,
//! `dao`, ...). Per set, and over everything, the tables give each planner's
//! median and p95 query time, its speedup over flat A* (flat A*'s median over
//! its median, both measured in this run on the same queries, and the median of
//! the per-query ratios), its suboptimality against flat A*'s exact cost, and
//! nodes expanded; then the hierarchy's build and load times and memory per
//! map cell. `--json` and `--csv` write the same figures per set, overall and
//! per map.

use super::CliResult;
use super::solver::{Algo, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tierpath::io::{self, BucketFilter, ScenarioQuery};
use tierpath::{
    AStar, Cost, Grid, Hierarchy, HierarchyBuilder, Method, Movement, Path as CellPath, QueryCache,
    SearchCache,
};

/// Arguments of `tierpath bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Moving AI scenario files (`.scen`), or folders holding them (searched
    /// one level of subfolders deep). The map each names is found as `solve`
    /// finds it.
    #[arg(required = true, value_name = "SCEN_OR_DIR")]
    pub inputs: Vec<PathBuf>,
    /// Which buckets to run: `all`, `top:N` (the N highest buckets: the
    /// longest paths), `A-B` or `A`.
    #[arg(long, default_value = "top:10")]
    pub buckets: BucketFilter,
    /// Run at most N of each map's selected queries, spread evenly over them
    /// (all by default).
    #[arg(long, value_name = "N")]
    pub max_queries: Option<usize>,
    /// Time every query N times and keep the median of its times.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub runs: usize,
    /// Build hierarchies with clusters of N x N cells (default 16).
    #[arg(long, value_name = "N")]
    pub cluster_size: Option<u32>,
    /// Also run this planner of `tierpath solve --algo` on the same queries
    /// (repeatable; flat A* and the hierarchy always run).
    #[arg(long = "algo", value_enum, value_name = "ALGO")]
    pub algos: Vec<Algo>,
    /// Write the figures (per set, overall and per map) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the figures (per set, overall and per map) as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// Flat A*'s cost may differ from the scenario's printed optimum by this much
/// (relative; the printed lengths are rounded, and the diagonal cost 14,142 is
/// sqrt 2 rounded down).
const OPTIMAL_TOLERANCE: f64 = 1e-4;

/// Problems printed in full; the rest are counted.
const MAX_PRINTED_PROBLEMS: usize = 20;

/// Name of the exact baseline.
const FLAT: &str = "astar";
/// Name of the hierarchy.
const HPA: &str = "hpa";

/// One planner's answer to one query.
#[derive(Debug, Clone, Copy, Default)]
struct Answer {
    /// Query time (the median of `--runs` runs), microseconds.
    micros: f64,
    /// Path cost in straight steps; `None` when no path.
    steps: Option<f64>,
    /// Exact cost.
    cost: Option<Cost>,
    expanded: u64,
    /// Hierarchy only: abstract and fine expansions and the method.
    abstract_expanded: u64,
    fine_expanded: u64,
    method: Option<Method>,
}

/// One query that every planner solved: the answers in planner order
/// (flat A* first, the hierarchy second).
#[derive(Debug, Clone)]
struct Solved {
    answers: Vec<Answer>,
}

/// Everything measured on one map.
#[derive(Debug, Clone)]
struct MapRun {
    set: String,
    name: String,
    width: u32,
    height: u32,
    build_ms: f64,
    load_ms: f64,
    bytes_per_cell: f64,
    memory_bytes: u64,
    selected: usize,
    unreachable: usize,
    solved: Vec<Solved>,
}

/// Figures of one planner over a group of queries.
#[derive(Debug, Clone, Default)]
struct PlannerSummary {
    name: String,
    median_us: f64,
    p95_us: f64,
    mean_us: f64,
    /// Flat A*'s median time over this planner's.
    speedup: f64,
    /// Median over queries of flat A*'s time over this planner's.
    ratio_median: f64,
    /// Cost over flat A*'s exact cost, minus one, in percent.
    subopt_mean: f64,
    subopt_p95: f64,
    subopt_max: f64,
    /// Queries whose cost exceeds the exact one (relative 1e-9).
    suboptimal: usize,
    expanded_mean: f64,
}

/// Figures of a group of maps (one map, a set, or everything).
#[derive(Debug, Clone, Default)]
struct Summary {
    scope: &'static str,
    set: String,
    map: String,
    maps: usize,
    selected: usize,
    queries: usize,
    unreachable: usize,
    planners: Vec<PlannerSummary>,
    abstract_expanded_mean: f64,
    fine_expanded_mean: f64,
    near: usize,
    hierarchical: usize,
    fallback: usize,
    build_ms_median: f64,
    build_ms_max: f64,
    load_ms_median: f64,
    bytes_per_cell_median: f64,
    bytes_per_cell_max: f64,
    /// Largest hierarchy in memory, bytes (excluding the grid).
    memory_bytes_max: u64,
    /// Map size (maps only).
    size: Option<(u32, u32)>,
}

/// Runs `tierpath bench`.
pub fn run(args: Args) -> CliResult {
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    if args.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    if args.max_queries == Some(0) {
        return Err("--max-queries must be at least 1".into());
    }
    let files = scenario_files(&args.inputs)?;
    let extras = extra_algos(&args.algos);
    let mut planners: Vec<String> = vec![FLAT.to_string(), HPA.to_string()];
    planners.extend(extras.iter().map(|a| algo_name(*a)));
    let cluster_size = args.cluster_size.unwrap_or(tierpath::DEFAULT_CLUSTER_SIZE);

    let machine = Machine::detect();
    let mut header = String::new();
    let _ = writeln!(
        header,
        "tierpath bench: {} map{} from {}; buckets {}, {} queries per map, {} run{} per query",
        files.len(),
        plural(files.len()),
        args.inputs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        args.buckets,
        args.max_queries
            .map_or_else(|| "all selected".to_string(), |n| format!("at most {n}")),
        args.runs,
        plural(args.runs),
    );
    let _ = writeln!(
        header,
        "machine: {} core{}, {}{}; queries on one thread, hierarchy builds on all cores (rayon)",
        machine.cores,
        plural(machine.cores),
        machine.cpu,
        machine
            .load
            .map_or_else(String::new, |l| format!(", load average {l:.2} at start")),
    );
    let _ = writeln!(
        header,
        "planners: {} (hierarchy: cluster {cluster_size}, default settings); rules: 8-connected, \
         straight 1, diagonal sqrt 2, no corner cutting",
        planners.join(", ")
    );
    write!(out, "{header}")?;

    let bar = ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} maps  {msg}")
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
    );
    let mut runs: Vec<MapRun> = Vec::with_capacity(files.len());
    let mut problems: Vec<String> = Vec::new();
    for file in &files {
        bar.set_message(file_label(file));
        let run = bench_map(file, &args, cluster_size, &extras, &mut problems)?;
        runs.push(run);
        bar.inc(1);
    }
    bar.finish_and_clear();

    // Summaries: per map, per set (in order of first appearance), overall.
    let per_map: Vec<Summary> = runs
        .iter()
        .map(|r| summarise(&planners, std::slice::from_ref(r), "map"))
        .collect();
    let mut sets: Vec<String> = Vec::new();
    for r in &runs {
        if !sets.contains(&r.set) {
            sets.push(r.set.clone());
        }
    }
    let per_set: Vec<Summary> = sets
        .iter()
        .map(|s| {
            let group: Vec<MapRun> = runs.iter().filter(|r| &r.set == s).cloned().collect();
            summarise(&planners, &group, "set")
        })
        .collect();
    let overall = summarise(&planners, &runs, "overall");

    let mut rows: Vec<&Summary> = per_set.iter().collect();
    rows.push(&overall);
    writeln!(out)?;
    write!(out, "{}", time_table(&rows))?;
    writeln!(out)?;
    write!(out, "{}", hierarchy_table(&rows))?;
    writeln!(out)?;
    writeln!(
        out,
        "speedup = flat A* median / planner median (same queries, same run); q-ratio = median of \
         per-query time ratios; subopt = cost / flat A* exact cost - 1; expanded = mean nodes per \
         query (hpa: abstract + fine)"
    )?;
    let wall = started.elapsed().as_secs_f64();
    writeln!(out, "wall time {wall:.1} s")?;

    if let Some(path) = &args.json {
        let value = json!({
            "command": "bench",
            "machine": {"cores": machine.cores, "cpu": machine.cpu, "load_average": machine.load},
            "settings": {
                "inputs": args.inputs.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
                "buckets": args.buckets.to_string(),
                "max_queries": args.max_queries,
                "runs": args.runs,
                "cluster_size": cluster_size,
                "planners": planners,
            },
            "sets": per_set.iter().map(summary_json).collect::<Vec<_>>(),
            "overall": summary_json(&overall),
            "maps": per_map.iter().map(summary_json).collect::<Vec<_>>(),
            "problems": problems,
            "wall_seconds": wall,
        });
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        writeln!(out, "wrote {}", path.display())?;
    }
    if let Some(path) = &args.csv {
        let all: Vec<&Summary> = per_set
            .iter()
            .chain(std::iter::once(&overall))
            .chain(per_map.iter())
            .collect();
        std::fs::write(path, csv(&planners, &all))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        writeln!(out, "wrote {}", path.display())?;
    }

    if problems.is_empty() {
        writeln!(out, "all paths valid")?;
        return Ok(());
    }
    eprintln!("{} problem{}:", problems.len(), plural(problems.len()));
    for p in problems.iter().take(MAX_PRINTED_PROBLEMS) {
        eprintln!("  {p}");
    }
    if problems.len() > MAX_PRINTED_PROBLEMS {
        eprintln!("  ... and {} more", problems.len() - MAX_PRINTED_PROBLEMS);
    }
    Err(format!(
        "{} problem{} (invalid paths, wrong costs or reachability disagreements): see above",
        problems.len(),
        plural(problems.len())
    )
    .into())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The `--algo` planners not already run (flat A* and the hierarchy), once each.
fn extra_algos(algos: &[Algo]) -> Vec<Algo> {
    let mut out: Vec<Algo> = Vec::new();
    for a in algos {
        if !matches!(a, Algo::Astar | Algo::Hpa) && !out.contains(a) {
            out.push(*a);
        }
    }
    out
}

fn algo_name(a: Algo) -> String {
    use clap::ValueEnum;
    a.to_possible_value().map_or_else(
        || format!("{a:?}").to_lowercase(),
        |v| v.get_name().to_string(),
    )
}

/// The scenario files named by `inputs`: files as given, folders searched for
/// `*.scen` in them and their direct subfolders; sorted within each input.
fn scenario_files(inputs: &[PathBuf]) -> CliResult<Vec<PathBuf>> {
    let is_scen = |p: &Path| p.is_file() && p.extension().is_some_and(|e| e == "scen");
    let list = |dir: &Path| -> CliResult<Vec<PathBuf>> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut out = Vec::new();
        for e in entries {
            let e = e.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            out.push(e.path());
        }
        out.sort();
        Ok(out)
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        if input.is_file() {
            files.push(input.clone());
        } else if input.is_dir() {
            let mut found = Vec::new();
            for p in list(input)? {
                if is_scen(&p) {
                    found.push(p);
                } else if p.is_dir() {
                    found.extend(list(&p)?.into_iter().filter(|q| is_scen(q)));
                }
            }
            if found.is_empty() {
                return Err(format!(
                    "{}: no scenario files (*.scen) in this folder or its subfolders",
                    input.display()
                )
                .into());
            }
            found.sort();
            files.extend(found);
        } else {
            return Err(format!(
                "{}: no such file or folder (expected a .scen file or a folder of them)",
                input.display()
            )
            .into());
        }
    }
    let mut unique: Vec<PathBuf> = Vec::with_capacity(files.len());
    for f in files {
        if !unique.contains(&f) {
            unique.push(f);
        }
    }
    Ok(unique)
}

/// `arena` for `.../arena.map.scen`.
fn short_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.trim_end_matches(".scen")
        .trim_end_matches(".map")
        .to_string()
}

/// The set of a scenario: its folder's name.
fn set_name(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
}

fn file_label(path: &Path) -> String {
    format!("{}/{}", set_name(path), short_name(path))
}

/// At most `n` of `items`, spread evenly (the first always kept), in order.
fn spread<T: Copy>(items: &[T], n: Option<usize>) -> Vec<T> {
    match n {
        Some(n) if n < items.len() => (0..n).map(|i| items[i * items.len() / n]).collect(),
        _ => items.to_vec(),
    }
}

/// The median of `n` timings of `f`, and its last result.
fn timed<R>(runs: usize, mut f: impl FnMut() -> R) -> (f64, R) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        times.push(t.elapsed());
        last = Some(r);
    }
    times.sort();
    let d: Duration = times[times.len() / 2];
    (
        d.as_secs_f64() * 1e6,
        last.expect("at least one run is made"),
    )
}

/// Checks a path: legal under `movement` on `grid`, its cost as stated, from
/// `q.start` to `q.goal`. The problem, if any.
fn check_path(
    grid: &Grid,
    movement: &Movement,
    q: &ScenarioQuery,
    path: &CellPath,
) -> Option<String> {
    if let Err(e) = path.validate(grid, movement) {
        return Some(format!("invalid path: {e}"));
    }
    if path.start() != Some(q.start) || path.goal() != Some(q.goal) {
        return Some(format!(
            "path runs from {:?} to {:?}, not {} -> {}",
            path.start(),
            path.goal(),
            q.start,
            q.goal
        ));
    }
    None
}

/// Loads, builds and runs one map.
fn bench_map(
    file: &Path,
    args: &Args,
    cluster_size: u32,
    extras: &[Algo],
    problems: &mut Vec<String>,
) -> CliResult<MapRun> {
    let scenario = io::read_scenario(file)?;
    let map = scenario.map_path()?;
    let grid = io::read_grid(&map)?;
    scenario.check_against(&grid)?;
    let label = file_label(file);
    let movement = Movement::default();

    let builder = HierarchyBuilder::new()
        .movement(movement)
        .cluster_size(cluster_size);
    let copy = grid.clone();
    let t = Instant::now();
    let hierarchy = builder.build(copy)?;
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let bytes = hierarchy.to_bytes();
    let copy = grid.clone();
    let t = Instant::now();
    let loaded = Hierarchy::from_bytes(copy, &bytes);
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    if let Err(e) = loaded {
        problems.push(format!(
            "{label}: the hierarchy does not load back from its own bytes: {e}"
        ));
    }
    drop(bytes);

    let selected = scenario.select(args.buckets);
    let queries: Vec<&ScenarioQuery> = spread(&selected, args.max_queries);
    let n = queries.len();
    let runs = args.runs;
    let steps = |c: Cost| movement.cost_in_steps(c);

    // One pass per planner; answers[planner][query], `None` for an input error.
    let mut answers: Vec<Vec<Option<Answer>>> = Vec::new();

    // The hierarchy.
    let mut cache = QueryCache::new();
    let mut hpa = Vec::with_capacity(n);
    for q in &queries {
        let (micros, out) = timed(runs, || hierarchy.find_path(&mut cache, q.start, q.goal));
        hpa.push(match out {
            Err(e) => {
                problems.push(format!("{label} line {}: {HPA}: {e}", q.line));
                None
            }
            Ok(out) => {
                if let Some(p) = &out.path
                    && let Some(why) = check_path(&grid, &movement, q, p)
                {
                    problems.push(format!(
                        "{label} line {} ({} -> {}): {HPA}: {why}",
                        q.line, q.start, q.goal
                    ));
                }
                let s = out.stats;
                Some(Answer {
                    micros,
                    steps: out.path.as_ref().map(|p| steps(p.cost)),
                    cost: out.path.as_ref().map(|p| p.cost),
                    expanded: s.abstract_expanded + s.fine_expanded,
                    abstract_expanded: s.abstract_expanded,
                    fine_expanded: s.fine_expanded,
                    method: Some(s.method),
                })
            }
        });
    }

    // Flat A*.
    let engine = AStar::new(&grid).movement(movement);
    let mut flat_cache = SearchCache::new();
    let mut flat = Vec::with_capacity(n);
    for q in &queries {
        let (micros, out) = timed(runs, || engine.find_path(&mut flat_cache, q.start, q.goal));
        flat.push(match out {
            Err(e) => {
                problems.push(format!("{label} line {}: {FLAT}: {e}", q.line));
                None
            }
            Ok(out) => {
                if let Some(p) = &out.path {
                    if let Some(why) = check_path(&grid, &movement, q, p) {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {FLAT}: {why}",
                            q.line, q.start, q.goal
                        ));
                    }
                    let found = steps(p.cost);
                    if q.optimal > 0.0
                        && (found - q.optimal).abs() > OPTIMAL_TOLERANCE * q.optimal.max(1.0)
                    {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {FLAT}: cost {found:.4} differs from \
                             the scenario's optimum {}",
                            q.line, q.start, q.goal, q.optimal
                        ));
                    }
                }
                Some(Answer {
                    micros,
                    steps: out.path.as_ref().map(|p| steps(p.cost)),
                    cost: out.path.as_ref().map(|p| p.cost),
                    expanded: out.stats.expanded,
                    ..Answer::default()
                })
            }
        });
    }
    answers.push(flat);
    answers.push(hpa);

    // Extra planners.
    for algo in extras {
        let mut solver: Box<dyn Solver + '_> = algo.build(&grid, movement)?;
        let name = solver.name().to_string();
        let mut out_list = Vec::with_capacity(n);
        for q in &queries {
            let (micros, out) = timed(runs, || solver.solve(q.start, q.goal));
            out_list.push(match out {
                Err(e) => {
                    problems.push(format!("{label} line {}: {name}: {e}", q.line));
                    None
                }
                Ok(r) => {
                    if let Some(p) = &r.path
                        && let Some(why) = check_path(&grid, &movement, q, p)
                    {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {name}: {why}",
                            q.line, q.start, q.goal
                        ));
                    }
                    Some(Answer {
                        micros,
                        steps: r.path.as_ref().map(|p| steps(p.cost)),
                        cost: r.path.as_ref().map(|p| p.cost),
                        expanded: r.expanded,
                        ..Answer::default()
                    })
                }
            });
        }
        answers.push(out_list);
    }

    // Reachability and quality checks; the solved queries.
    let names: Vec<String> = std::iter::once(FLAT.to_string())
        .chain(std::iter::once(HPA.to_string()))
        .chain(extras.iter().map(|a| algo_name(*a)))
        .collect();
    let mut solved = Vec::new();
    let mut unreachable = 0;
    for (i, q) in queries.iter().enumerate() {
        let row: Option<Vec<Answer>> = answers.iter().map(|a| a[i]).collect();
        let Some(row) = row else {
            continue; // an input error, already reported
        };
        let expects_none = q.optimal == 0.0 && q.start != q.goal;
        let found: Vec<bool> = row.iter().map(|a| a.cost.is_some()).collect();
        if found.iter().all(|f| !f) {
            unreachable += 1;
            if !expects_none {
                problems.push(format!(
                    "{label} line {} ({} -> {}): no planner finds a path, but the scenario \
                     gives optimum {}",
                    q.line, q.start, q.goal, q.optimal
                ));
            }
            continue;
        }
        if found.iter().any(|f| !f) || expects_none {
            let said: Vec<String> = names
                .iter()
                .zip(&found)
                .map(|(n, f)| format!("{n}: {}", if *f { "path" } else { "no path" }))
                .collect();
            problems.push(format!(
                "{label} line {} ({} -> {}): reachability disagrees ({}; scenario: {})",
                q.line,
                q.start,
                q.goal,
                said.join(", "),
                if expects_none { "no path" } else { "path" }
            ));
            continue;
        }
        let exact = row[0].cost.expect("checked above");
        for (name, a) in names.iter().zip(&row).skip(1) {
            let c = a.cost.expect("checked above");
            if c < exact {
                problems.push(format!(
                    "{label} line {} ({} -> {}): {name} cost {} is below flat A*'s exact {}",
                    q.line, q.start, q.goal, c, exact
                ));
            }
        }
        solved.push(Solved { answers: row });
    }

    let stats = hierarchy.stats();
    Ok(MapRun {
        set: set_name(file),
        name: short_name(file),
        width: grid.width(),
        height: grid.height(),
        build_ms,
        load_ms,
        bytes_per_cell: stats.bytes_per_cell(),
        memory_bytes: stats.memory_bytes,
        selected: n,
        unreachable,
        solved,
    })
}

/// The median of sorted values (mean of the middle two when even); 0 when empty.
fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// The nearest-rank `p` percentile of sorted values; 0 when empty.
fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn sorted(mut xs: Vec<f64>) -> Vec<f64> {
    xs.sort_by(f64::total_cmp);
    xs
}

fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// The figures of a group of map runs.
fn summarise(planners: &[String], runs: &[MapRun], scope: &'static str) -> Summary {
    let solved: Vec<&Solved> = runs.iter().flat_map(|r| r.solved.iter()).collect();
    let one = |f: &dyn Fn(&MapRun) -> String| -> String {
        match runs {
            [] => String::new(),
            [r, rest @ ..] if rest.iter().all(|x| f(x) == f(r)) => f(r),
            _ => "*".to_string(),
        }
    };
    let mut s = Summary {
        scope,
        set: one(&|r| r.set.clone()),
        map: if scope == "map" {
            one(&|r| r.name.clone())
        } else {
            String::new()
        },
        maps: runs.len(),
        selected: runs.iter().map(|r| r.selected).sum(),
        queries: solved.len(),
        unreachable: runs.iter().map(|r| r.unreachable).sum(),
        ..Summary::default()
    };
    if scope == "overall" {
        s.set = "all".to_string();
    }
    let flat_times = sorted(solved.iter().map(|q| q.answers[0].micros).collect());
    let flat_median = median(&flat_times);
    for (k, name) in planners.iter().enumerate() {
        let times = sorted(solved.iter().map(|q| q.answers[k].micros).collect());
        let ratios = sorted(
            solved
                .iter()
                .map(|q| q.answers[0].micros / q.answers[k].micros.max(1e-3))
                .collect(),
        );
        let subopt: Vec<f64> = solved
            .iter()
            .map(|q| {
                let (a, e) = (q.answers[k].steps, q.answers[0].steps);
                match (a, e) {
                    (Some(a), Some(e)) if e > 0.0 => (a / e - 1.0) * 100.0,
                    _ => 0.0,
                }
            })
            .collect();
        let suboptimal = solved
            .iter()
            .filter(|q| q.answers[k].cost > q.answers[0].cost)
            .count();
        let subopt_sorted = sorted(subopt.clone());
        let median_us = median(&times);
        s.planners.push(PlannerSummary {
            name: name.clone(),
            median_us,
            p95_us: percentile(&times, 0.95),
            mean_us: mean(&times),
            speedup: if median_us > 0.0 {
                flat_median / median_us
            } else {
                0.0
            },
            ratio_median: median(&ratios),
            subopt_mean: mean(&subopt),
            subopt_p95: percentile(&subopt_sorted, 0.95),
            subopt_max: subopt_sorted.last().copied().unwrap_or(0.0),
            suboptimal,
            expanded_mean: mean(
                &solved
                    .iter()
                    .map(|q| q.answers[k].expanded as f64)
                    .collect::<Vec<_>>(),
            ),
        });
    }
    let hpa: Vec<&Answer> = solved.iter().map(|q| &q.answers[1]).collect();
    s.abstract_expanded_mean = mean(
        &hpa.iter()
            .map(|a| a.abstract_expanded as f64)
            .collect::<Vec<_>>(),
    );
    s.fine_expanded_mean = mean(
        &hpa.iter()
            .map(|a| a.fine_expanded as f64)
            .collect::<Vec<_>>(),
    );
    for a in &hpa {
        match a.method {
            Some(Method::Near) => s.near += 1,
            Some(Method::Hierarchical) => s.hierarchical += 1,
            Some(Method::Fallback) => s.fallback += 1,
            _ => {}
        }
    }
    let build = sorted(runs.iter().map(|r| r.build_ms).collect());
    let load = sorted(runs.iter().map(|r| r.load_ms).collect());
    let bpc = sorted(runs.iter().map(|r| r.bytes_per_cell).collect());
    s.build_ms_median = median(&build);
    s.build_ms_max = build.last().copied().unwrap_or(0.0);
    s.load_ms_median = median(&load);
    s.bytes_per_cell_median = median(&bpc);
    s.bytes_per_cell_max = bpc.last().copied().unwrap_or(0.0);
    s.memory_bytes_max = runs.iter().map(|r| r.memory_bytes).max().unwrap_or(0);
    if let [r] = runs {
        s.size = Some((r.width, r.height));
    }
    s
}

/// A plain text table: a header row, then right-aligned columns (the first
/// two left-aligned).
fn table(head: &[&str], rows: &[Vec<String>], left: usize) -> String {
    let mut width: Vec<usize> = head.iter().map(|h| h.len()).collect();
    for r in rows {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.len());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let mut out = String::new();
        for (i, (c, w)) in cells.iter().zip(&width).enumerate() {
            if i > 0 {
                out.push_str("  ");
            }
            if i < left {
                let _ = write!(out, "{c:<w$}");
            } else {
                let _ = write!(out, "{c:>w$}");
            }
        }
        out.trim_end().to_string() + "\n"
    };
    let mut out = line(head.to_vec());
    for r in rows {
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out
}

fn fmt_us(x: f64) -> String {
    // The table shows the figure the JSON reports (rounded to 3 decimals), so
    // the two never disagree at a rounding boundary.
    let x = round(x, 3);
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

fn pct(x: f64) -> String {
    format!("{x:.3}%")
}

/// The query time and quality table: one row per set and planner.
fn time_table(rows: &[&Summary]) -> String {
    let head = [
        "set",
        "planner",
        "maps",
        "queries",
        "unreach",
        "median us",
        "p95 us",
        "speedup",
        "q-ratio",
        "subopt mean",
        "p95",
        "max",
        "expanded",
    ];
    let mut body = Vec::new();
    for s in rows {
        for p in &s.planners {
            body.push(vec![
                s.set.clone(),
                p.name.clone(),
                s.maps.to_string(),
                s.queries.to_string(),
                s.unreachable.to_string(),
                fmt_us(p.median_us),
                fmt_us(p.p95_us),
                format!("{:.1}x", p.speedup),
                format!("{:.1}x", p.ratio_median),
                pct(p.subopt_mean),
                pct(p.subopt_p95),
                pct(p.subopt_max),
                format!("{:.0}", p.expanded_mean),
            ]);
        }
    }
    format!("query time and quality\n{}", table(&head, &body, 2))
}

/// The hierarchy table: one row per set.
fn hierarchy_table(rows: &[&Summary]) -> String {
    let head = [
        "set",
        "maps",
        "build ms med",
        "build ms max",
        "load ms med",
        "bytes/cell med",
        "bytes/cell max",
        "hpa abstract exp",
        "hpa fine exp",
        "near",
        "hierarchical",
        "fallback",
    ];
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|s| {
            vec![
                s.set.clone(),
                s.maps.to_string(),
                format!("{:.1}", s.build_ms_median),
                format!("{:.1}", s.build_ms_max),
                format!("{:.2}", s.load_ms_median),
                format!("{:.2}", s.bytes_per_cell_median),
                format!("{:.2}", s.bytes_per_cell_max),
                format!("{:.0}", s.abstract_expanded_mean),
                format!("{:.0}", s.fine_expanded_mean),
                s.near.to_string(),
                s.hierarchical.to_string(),
                s.fallback.to_string(),
            ]
        })
        .collect();
    format!("hierarchy (build on all cores)\n{}", table(&head, &body, 1))
}

fn round(x: f64, digits: i32) -> f64 {
    let f = 10f64.powi(digits);
    (x * f).round() / f
}

fn summary_json(s: &Summary) -> Value {
    let planners: serde_json::Map<String, Value> = s
        .planners
        .iter()
        .map(|p| {
            (
                p.name.clone(),
                json!({
                    "median_us": round(p.median_us, 3),
                    "p95_us": round(p.p95_us, 3),
                    "mean_us": round(p.mean_us, 3),
                    "speedup": round(p.speedup, 3),
                    "query_ratio_median": round(p.ratio_median, 3),
                    "subopt_mean_pct": round(p.subopt_mean, 5),
                    "subopt_p95_pct": round(p.subopt_p95, 5),
                    "subopt_max_pct": round(p.subopt_max, 5),
                    "suboptimal_queries": p.suboptimal,
                    "expanded_mean": round(p.expanded_mean, 2),
                }),
            )
        })
        .collect();
    let mut v = json!({
        "scope": s.scope,
        "set": s.set,
        "maps": s.maps,
        "selected": s.selected,
        "queries": s.queries,
        "unreachable": s.unreachable,
        "planners": planners,
        "hpa_abstract_expanded_mean": round(s.abstract_expanded_mean, 2),
        "hpa_fine_expanded_mean": round(s.fine_expanded_mean, 2),
        "hpa_methods": {"near": s.near, "hierarchical": s.hierarchical, "fallback": s.fallback},
        "build_ms_median": round(s.build_ms_median, 3),
        "build_ms_max": round(s.build_ms_max, 3),
        "load_ms_median": round(s.load_ms_median, 3),
        "bytes_per_cell_median": round(s.bytes_per_cell_median, 3),
        "bytes_per_cell_max": round(s.bytes_per_cell_max, 3),
        "memory_bytes_max": s.memory_bytes_max,
    });
    if s.scope == "map" {
        v["map"] = json!(s.map);
        if let Some((w, h)) = s.size {
            v["width"] = json!(w);
            v["height"] = json!(h);
        }
    }
    v
}

/// The CSV: one row per summary, planner columns prefixed by the planner.
fn csv(planners: &[String], rows: &[&Summary]) -> String {
    let mut head: Vec<String> = [
        "scope",
        "set",
        "map",
        "width",
        "height",
        "maps",
        "selected",
        "queries",
        "unreachable",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for p in planners {
        for c in [
            "median_us",
            "p95_us",
            "mean_us",
            "speedup",
            "query_ratio_median",
            "subopt_mean_pct",
            "subopt_p95_pct",
            "subopt_max_pct",
            "suboptimal_queries",
            "expanded_mean",
        ] {
            head.push(format!("{p}_{c}"));
        }
    }
    head.extend(
        [
            "hpa_abstract_expanded_mean",
            "hpa_fine_expanded_mean",
            "hpa_near",
            "hpa_hierarchical",
            "hpa_fallback",
            "build_ms_median",
            "build_ms_max",
            "load_ms_median",
            "bytes_per_cell_median",
            "bytes_per_cell_max",
            "memory_bytes_max",
        ]
        .iter()
        .map(|s| s.to_string()),
    );
    let mut out = head.join(",") + "\n";
    for s in rows {
        let mut cells: Vec<String> = vec![
            s.scope.to_string(),
            csv_text(&s.set),
            csv_text(&s.map),
            s.size.map_or_else(String::new, |(w, _)| w.to_string()),
            s.size.map_or_else(String::new, |(_, h)| h.to_string()),
            s.maps.to_string(),
            s.selected.to_string(),
            s.queries.to_string(),
            s.unreachable.to_string(),
        ];
        for p in &s.planners {
            cells.extend([
                format!("{:.3}", p.median_us),
                format!("{:.3}", p.p95_us),
                format!("{:.3}", p.mean_us),
                format!("{:.3}", p.speedup),
                format!("{:.3}", p.ratio_median),
                format!("{:.5}", p.subopt_mean),
                format!("{:.5}", p.subopt_p95),
                format!("{:.5}", p.subopt_max),
                p.suboptimal.to_string(),
                format!("{:.2}", p.expanded_mean),
            ]);
        }
        cells.extend([
            format!("{:.2}", s.abstract_expanded_mean),
            format!("{:.2}", s.fine_expanded_mean),
            s.near.to_string(),
            s.hierarchical.to_string(),
            s.fallback.to_string(),
            format!("{:.3}", s.build_ms_median),
            format!("{:.3}", s.build_ms_max),
            format!("{:.3}", s.load_ms_median),
            format!("{:.3}", s.bytes_per_cell_median),
            format!("{:.3}", s.bytes_per_cell_max),
            s.memory_bytes_max.to_string(),
        ]);
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

/// Quotes a CSV field when needed.
fn csv_text(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// What the benchmark ran on.
struct Machine {
    cores: usize,
    cpu: String,
    /// The one-minute load average (Linux), a hint of other work competing
    /// for the cores.
    load: Option<f64>,
}

impl Machine {
    fn detect() -> Machine {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, v)| v.trim().to_string())
            })
            .unwrap_or_else(|| format!("{} CPU (model unknown)", std::env::consts::ARCH));
        let load = std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|t| t.split_whitespace().next().and_then(|v| v.parse().ok()));
        Machine { cores, cpu, load }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_and_spread() {
        let xs = sorted(vec![5.0, 1.0, 3.0, 2.0, 4.0]);
        assert_eq!(median(&xs), 3.0);
        assert_eq!(median(&[1.0, 2.0]), 1.5);
        assert_eq!(percentile(&xs, 0.95), 5.0);
        assert_eq!(percentile(&xs, 0.5), 3.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
        let items: Vec<u32> = (0..10).collect();
        assert_eq!(spread(&items, Some(5)), vec![0, 2, 4, 6, 8]);
        assert_eq!(spread(&items, Some(20)).len(), 10);
        assert_eq!(spread(&items, None).len(), 10);
    }

    #[test]
    fn names_and_csv_quoting() {
        let p = Path::new("/x/movingai/scenarios/dao/arena.map.scen");
        assert_eq!(short_name(p), "arena");
        assert_eq!(set_name(p), "dao");
        assert_eq!(csv_text("a,b"), "\"a,b\"");
        assert_eq!(csv_text("ab"), "ab");
        assert_eq!(
            extra_algos(&[Algo::Astar, Algo::Dijkstra, Algo::Dijkstra]),
            vec![Algo::Dijkstra]
        );
    }
}
