//! `tierpath solve MAP SCEN`: runs a Moving AI scenario, validates every path
//! and summarises speed and optimality.
//!
//! With `--algo hpa` the map's hierarchy is built first (or loaded with
//! `--hierarchy FILE`); that setup time is reported apart from the query
//! times. `--compare` also runs flat A* on the same queries in the same run
//! and reports the ratio of the median query times: how the hierarchy's speed
//! goals are measured.

mod summary;

use super::CliResult;
use super::solver::{Algo, HpaOptions, Levels, SolveResult, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use summary::Summary;
use tierpath::io::{self, BucketFilter, ScenarioQuery};
use tierpath::{Cost, Grid, Method, Movement, Path};

/// Arguments of `tierpath solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map: Moving AI `.map` (or the project's terrain text format).
    pub map: PathBuf,
    /// The Moving AI scenario (`.scen`) whose queries to run on MAP.
    pub scen: PathBuf,
    /// The planner.
    #[arg(long, value_enum, default_value = "astar")]
    pub algo: Algo,
    /// Which buckets to run: `all`, `top:N` (the N highest buckets: the
    /// longest paths), `A-B` or `A`.
    #[arg(long, default_value = "all")]
    pub buckets: BucketFilter,
    /// Run at most N of the selected queries (in file order).
    #[arg(long, value_name = "N")]
    pub max_queries: Option<usize>,
    /// Write every path to FILE: `<query_index> <cost> x0,y0 x1,y1 ...` or
    /// `<query_index> unreachable` (index counts the scenario's queries from 0;
    /// cost in straight steps).
    #[arg(long, value_name = "FILE")]
    pub paths: Option<PathBuf>,
    /// Also print the summary as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
    /// With `--algo hpa`: load this saved hierarchy (`tierpath preprocess`)
    /// instead of building one. It must have been built from MAP.
    #[arg(long, value_name = "FILE", conflicts_with = "cluster_size")]
    pub hierarchy: Option<PathBuf>,
    /// With `--algo hpa`: build the hierarchy with clusters of N x N cells
    /// (default 16, see the README).
    #[arg(long, value_name = "N")]
    pub cluster_size: Option<u32>,
    /// Also run flat A* on the same queries, after the main run, and report
    /// its times, the speedup (flat A* median / this planner's median) and
    /// each path's cost against A*'s exact one.
    #[arg(long)]
    pub compare: bool,
    /// Plan for a unit SIZE x SIZE cells, anchored at its top-left cell: with
    /// `--algo hpa` the sized hierarchy (built for sizes 1 to SIZE), with
    /// `--algo astar` exact A* for that size. Queries whose start or goal the
    /// unit does not fit on are skipped; `--compare` compares with exact A*
    /// for the size.
    #[arg(long, value_name = "SIZE")]
    pub size: Option<u32>,
}

/// A path whose cost differs from the scenario's optimum by more than this
/// (relative) is counted as not optimal.
const OPTIMAL_TOLERANCE: f64 = 1e-4;

/// A path shorter than the scenario's optimum times `1 - SHORTER_RELATIVE`,
/// less `SHORTER_ABSOLUTE` steps, is counted as shorter than optimal:
/// impossible for a valid path. The slack covers the diagonal cost 14,142
/// (sqrt 2 rounded down: up to 9.6e-6 low, relative) and the rounding of the
/// printed lengths (six significant digits: up to 5e-6 relative). Exact paths
/// come up to 1.08e-5 below the printed optimum (sc1/Expedition line 3160).
const SHORTER_RELATIVE: f64 = 2e-5;
const SHORTER_ABSOLUTE: f64 = 1e-4;

/// Per-query problems printed in full; the rest are only counted.
const MAX_REPORTED: usize = 5;

/// The counters of a run.
#[derive(Debug, Default)]
struct Tally {
    queries: usize,
    solved: usize,
    unreachable: usize,
    errors: usize,
    invalid: usize,
    not_optimal: usize,
    /// Paths shorter than the scenario's optimum (see [`SHORTER_RELATIVE`]).
    shorter: usize,
    /// Queries the scenario marks unsolvable (optimal 0 between two cells).
    expected_unreachable: usize,
    /// Solvable queries answered unreachable, and unsolvable ones answered
    /// with a path.
    reachability_mismatch: usize,
    times: Vec<Duration>,
    ratios: Vec<f64>,
    expanded: u64,
    /// Hierarchical planners: expansions per level and methods used.
    levels: Option<LevelTally>,
}

/// Per-level counters of a hierarchical planner.
#[derive(Debug, Default, Clone, Copy)]
struct LevelTally {
    abstract_expanded: u64,
    fine_expanded: u64,
    near: usize,
    hierarchical: usize,
    fallback: usize,
    unreachable: usize,
}

impl LevelTally {
    fn add(&mut self, l: &Levels) {
        self.abstract_expanded += l.abstract_expanded;
        self.fine_expanded += l.fine_expanded;
        match l.method {
            Method::Near => self.near += 1,
            Method::Hierarchical => self.hierarchical += 1,
            Method::Fallback => self.fallback += 1,
            Method::Unreachable => self.unreachable += 1,
        }
    }
}

/// One query's answer as `--compare` needs it: `None` for an input error,
/// `Some(None)` for unreachable, else the path's cost.
type Answer = Option<Option<Cost>>;

/// The flat A* run of `--compare` over the same queries.
#[derive(Debug, Default)]
struct Comparison {
    times: Vec<Duration>,
    expanded: u64,
    /// Per query: this planner's cost over A*'s (both found a path).
    ratios: Vec<f64>,
    /// Queries where one found a path and the other did not.
    reachability_disagreements: usize,
    /// Paths cheaper than A*'s exact optimum (impossible for a valid path).
    cheaper_than_exact: usize,
}

/// Runs `tierpath solve`.
pub fn run(args: Args) -> CliResult {
    run_to(args, &mut std::io::stdout().lock())
}

/// Runs `tierpath solve`, printing the summary to `out`.
fn run_to(args: Args, out: &mut impl Write) -> CliResult {
    if let Some(size) = args.size {
        return super::sized::solve(&args, size, out);
    }
    if args.algo != Algo::Hpa && (args.hierarchy.is_some() || args.cluster_size.is_some()) {
        return Err("--hierarchy and --cluster-size apply only to --algo hpa".into());
    }
    let grid = io::read_grid(&args.map)?;
    let scenario = io::read_scenario(&args.scen)?;
    scenario.check_against(&grid)?;
    let index_of: HashMap<usize, usize> = scenario
        .queries
        .iter()
        .enumerate()
        .map(|(i, q)| (q.line, i))
        .collect();
    let mut selected = scenario.select(args.buckets);
    if let Some(n) = args.max_queries {
        selected.truncate(n);
    }
    let movement = Movement::default();
    let options = HpaOptions {
        hierarchy: args.hierarchy.clone(),
        cluster_size: args.cluster_size,
    };
    let setup_start = Instant::now();
    let mut solver = args.algo.build_with(&grid, movement, &options)?;
    let setup = setup_start.elapsed();
    let name = solver.name().to_string();
    let mut paths_out = match &args.paths {
        Some(p) => {
            let file = File::create(p)
                .map_err(|e| format!("cannot create paths file {}: {e}", p.display()))?;
            let mut w = BufWriter::new(file);
            writeln!(
                w,
                "# tierpath solve paths: map {} scenario {} algo {name}",
                args.map.display(),
                args.scen.display(),
            )?;
            writeln!(
                w,
                "# <query_index> <cost in straight steps> x0,y0 x1,y1 ... | <query_index> unreachable"
            )?;
            writeln!(
                w,
                "# query_index counts the scenario's queries from 0; '#' lines are comments"
            )?;
            Some((p.clone(), w))
        }
        None => None,
    };

    let progress = ProgressBar::with_draw_target(
        Some(selected.len() as u64 * if args.compare { 2 } else { 1 }),
        ProgressDrawTarget::stderr_with_hz(4),
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} queries {elapsed}") {
        progress.set_style(style);
    }

    let mut tally = Tally::default();
    let mut answers: Vec<Answer> = Vec::with_capacity(selected.len());
    for q in &selected {
        let index = index_of.get(&q.line).copied().unwrap_or(0);
        tally.queries += 1;
        let unsolvable = q.optimal == 0.0 && q.start != q.goal;
        tally.expected_unreachable += unsolvable as usize;
        let t0 = Instant::now();
        let answer = solver.solve(q.start, q.goal);
        let elapsed = t0.elapsed();
        progress.inc(1);
        match answer {
            Err(e) => {
                answers.push(None);
                tally.errors += 1;
                if tally.errors <= MAX_REPORTED {
                    progress.suspend(|| {
                        eprintln!("warning: query {index} (line {}): {e}", q.line);
                    });
                }
                if let Some((_, w)) = paths_out.as_mut() {
                    writeln!(w, "# {index} error: {e}")?;
                }
            }
            Ok(SolveResult {
                path,
                expanded,
                levels,
            }) => {
                answers.push(Some(path.as_ref().map(|p| p.cost)));
                tally.times.push(elapsed);
                tally.expanded += expanded;
                if let Some(l) = &levels {
                    tally.levels.get_or_insert_with(LevelTally::default).add(l);
                }
                if path.is_some() == unsolvable {
                    tally.reachability_mismatch += 1;
                    if tally.reachability_mismatch <= MAX_REPORTED {
                        let found = if unsolvable { "a path" } else { "no path" };
                        progress.suspend(|| {
                            eprintln!(
                                "warning: query {index} (line {}): found {found}, the scenario says \
                                 optimal length {}",
                                q.line, q.optimal
                            );
                        });
                    }
                }
                match path {
                    None => {
                        tally.unreachable += 1;
                        if let Some((_, w)) = paths_out.as_mut() {
                            writeln!(w, "{index} unreachable")?;
                        }
                    }
                    Some(path) => {
                        tally.solved += 1;
                        if let Err(problem) = check_path(&grid, &movement, q, &path) {
                            tally.invalid += 1;
                            if tally.invalid <= MAX_REPORTED {
                                progress.suspend(|| {
                                    eprintln!(
                                        "invalid path: query {index} (line {}): {problem}",
                                        q.line
                                    );
                                });
                            }
                        }
                        let cost = movement.cost_in_steps(path.cost);
                        score(&mut tally, cost, q.optimal);
                        if let Some((_, w)) = paths_out.as_mut() {
                            write_path(w, index, cost, &path)?;
                        }
                    }
                }
            }
        }
    }
    let comparison = if args.compare {
        let mut flat = Algo::Astar.build(&grid, movement)?;
        Some(compare(flat.as_mut(), &selected, &answers, &progress))
    } else {
        None
    };
    progress.finish_and_clear();
    if let Some((p, mut w)) = paths_out {
        w.flush()
            .map_err(|e| format!("cannot write paths file {}: {e}", p.display()))?;
    }
    if tally.errors > MAX_REPORTED {
        eprintln!(
            "warning: {} more queries with errors not shown",
            tally.errors - MAX_REPORTED
        );
    }

    let summary = Summary {
        args: &args,
        grid: &grid,
        scenario_queries: scenario.queries.len(),
        algo: &name,
        setup,
        hierarchy: solver.hierarchy(),
        tally: &tally,
        comparison: comparison.as_ref(),
    };
    summary.print(out)?;
    out.flush()?;
    if tally.invalid > 0 {
        return Err(format!("{} of {} paths are invalid", tally.invalid, tally.solved).into());
    }
    Ok(())
}

/// Runs flat A* over the same queries and compares its answers with the main
/// planner's.
fn compare(
    flat: &mut dyn Solver,
    selected: &[&ScenarioQuery],
    answers: &[Answer],
    progress: &ProgressBar,
) -> Comparison {
    let mut c = Comparison::default();
    for (q, answer) in selected.iter().zip(answers) {
        let t0 = Instant::now();
        let exact = flat.solve(q.start, q.goal);
        let elapsed = t0.elapsed();
        progress.inc(1);
        // Input errors are the same for every planner: reported once above.
        let (Ok(exact), Some(found)) = (exact, answer) else {
            continue;
        };
        c.times.push(elapsed);
        c.expanded += exact.expanded;
        match (exact.path.map(|p| p.cost), found) {
            (Some(e), Some(f)) => {
                if *f < e {
                    c.cheaper_than_exact += 1;
                }
                if e.0 > 0 {
                    c.ratios.push(f.0 as f64 / e.0 as f64);
                }
            }
            (None, None) => {}
            _ => c.reachability_disagreements += 1,
        }
    }
    c
}

/// Why a path does not answer its query, if it does not.
fn check_path(
    grid: &Grid,
    movement: &Movement,
    q: &ScenarioQuery,
    path: &Path,
) -> Result<(), String> {
    path.validate(grid, movement).map_err(|e| e.to_string())?;
    if path.start() != Some(q.start) || path.goal() != Some(q.goal) {
        return Err(format!(
            "path runs {:?} -> {:?}, query asks {} -> {}",
            path.start(),
            path.goal(),
            q.start,
            q.goal
        ));
    }
    Ok(())
}

/// Records how a found cost compares with the scenario's optimum.
fn score(tally: &mut Tally, cost: f64, optimal: f64) {
    if optimal > 0.0 {
        let ratio = cost / optimal;
        tally.ratios.push(ratio);
        if (ratio - 1.0).abs() > OPTIMAL_TOLERANCE {
            tally.not_optimal += 1;
        }
        if cost < optimal * (1.0 - SHORTER_RELATIVE) - SHORTER_ABSOLUTE {
            tally.shorter += 1;
        }
    } else if cost > OPTIMAL_TOLERANCE {
        // Start equals goal (optimum 0) but the path has a cost.
        tally.not_optimal += 1;
    }
}

/// One `--paths` line.
fn write_path(w: &mut impl Write, index: usize, cost: f64, path: &Path) -> std::io::Result<()> {
    write!(w, "{index} {cost:.6}")?;
    for p in &path.cells {
        write!(w, " {},{}", p.x, p.y)?;
    }
    writeln!(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a one-line JSON object, in order, duplicates kept (parsing
    /// into a map would hide them).
    fn top_level_keys(line: &str) -> Vec<String> {
        let (mut keys, mut depth, mut in_string, mut escaped) = (Vec::new(), 0, false, false);
        let mut current = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                    if depth == 1 && chars.peek() == Some(&':') {
                        keys.push(std::mem::take(&mut current));
                    }
                    current.clear();
                    continue;
                }
                current.push(c);
                continue;
            }
            match c {
                '"' => in_string = true,
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                _ => {}
            }
        }
        keys
    }

    #[test]
    fn duplicate_keys_are_seen() {
        let keys = top_level_keys(r#"{"a":1,"b":{"a":"x\"y"},"a":[{"c":2}]}"#);
        assert_eq!(keys, ["a", "b", "a"]);
    }

    /// `solve --algo hpa --compare --json --paths` on a small generated map:
    /// the summary's JSON has every key once, the hierarchy's figures, the
    /// per-level expansions and the comparison; the paths file has one line
    /// per query in the flat planners' format.
    #[test]
    fn hpa_with_comparison() {
        use tierpath::Point;
        let dir = std::env::temp_dir().join(format!("tierpath-solve-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let grid = Grid::from_fn(96, 96, |p| {
            !((p.x == 40 && p.y < 80) || (p.y == 50 && p.x > 50 && p.x < 95))
        })
        .unwrap();
        let map = dir.join("walls.map");
        io::save_map(&grid, &map).unwrap();
        let mut astar = crate::solver::Algo::Astar
            .build(&grid, Movement::default())
            .unwrap();
        let mut scen = String::from("version 1\n");
        let queries = [
            (Point::new(2, 2), Point::new(90, 90)),
            (Point::new(90, 2), Point::new(3, 94)),
            (Point::new(45, 60), Point::new(47, 61)),
            (Point::new(10, 10), Point::new(10, 10)),
        ];
        for (s, g) in queries {
            let steps =
                Movement::default().cost_in_steps(astar.solve(s, g).unwrap().path.unwrap().cost);
            scen.push_str(&format!(
                "{}\twalls.map\t96\t96\t{}\t{}\t{}\t{}\t{steps:.8}\n",
                (steps / 4.0) as u32,
                s.x,
                s.y,
                g.x,
                g.y
            ));
        }
        let scen_path = dir.join("walls.map.scen");
        std::fs::write(&scen_path, scen).unwrap();
        let paths = dir.join("hpa.paths");
        let args = Args {
            map: map.clone(),
            scen: scen_path,
            algo: Algo::Hpa,
            buckets: BucketFilter::All,
            max_queries: None,
            paths: Some(paths.clone()),
            json: true,
            hierarchy: None,
            cluster_size: Some(8),
            compare: true,
            size: None,
        };
        let mut out = Vec::new();
        run_to(args, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("hierarchy   cluster 8"), "{text}");
        assert!(text.contains("speedup"), "{text}");
        let line = text.lines().last().unwrap();
        let j: serde_json::Value = serde_json::from_str(line).unwrap();
        let keys = top_level_keys(line);
        assert_eq!(
            keys.len(),
            j.as_object().unwrap().len(),
            "a key twice: {line}"
        );
        assert_eq!(j["algo"], "hpa");
        assert_eq!(j["solved"], 4);
        assert_eq!(j["invalid"], 0);
        assert_eq!(j["shorter_than_optimal"], 0);
        assert_eq!(j["setup"], "build");
        assert_eq!(j["hierarchy"]["cluster_size"], 8);
        assert!(j["hierarchy"]["bytes_per_cell"].as_f64().unwrap() > 0.0);
        let (a, f, m) = (
            j["mean_abstract_expanded"].as_f64().unwrap(),
            j["mean_fine_expanded"].as_f64().unwrap(),
            j["mean_expanded"].as_f64().unwrap(),
        );
        assert!(a > 0.0 && (a + f - m).abs() < 1e-9, "{line}");
        assert_eq!(j["compare"]["reachability_disagreements"], 0);
        assert_eq!(j["compare"]["cheaper_than_exact"], 0);
        assert!(j["speedup_median"].as_f64().unwrap() > 0.0);
        assert!(j["compare"]["max_cost_ratio"].as_f64().unwrap() >= 1.0);
        let written = std::fs::read_to_string(&paths).unwrap();
        let lines: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 4);
        assert!(
            lines[0].starts_with("0 ")
                && lines[0].contains(" 2,2 ")
                && lines[0].ends_with(" 90,90")
        );
        assert_eq!(lines[3], "3 0.000000 10,10");

        // Options for the hierarchy only apply to it.
        let flat = Args {
            map,
            scen: dir.join("walls.map.scen"),
            algo: Algo::Astar,
            buckets: BucketFilter::All,
            max_queries: None,
            paths: None,
            json: false,
            hierarchy: None,
            cluster_size: Some(8),
            compare: false,
            size: None,
        };
        let err = run_to(flat, &mut Vec::new()).unwrap_err().to_string();
        assert!(err.contains("--algo hpa"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scoring_counts_off_optimal() {
        let mut t = Tally::default();
        score(&mut t, 10.0, 10.0);
        score(&mut t, 14.1421, 14.14213562);
        score(&mut t, 11.0, 10.0);
        score(&mut t, 0.0, 0.0);
        score(&mut t, 9.9, 10.0);
        assert_eq!(t.not_optimal, 2);
        assert_eq!(t.shorter, 1);
        assert_eq!(t.ratios.len(), 4);
    }
}
