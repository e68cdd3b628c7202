//! `tierpath solve MAP SCEN`: runs a Moving AI scenario, validates every path
//! and summarises speed and optimality.
//!
//! With `--algo hpa` the map's hierarchy is built first (or loaded with
//! `--hierarchy FILE`); that setup time is reported apart from the query
//! times. `--compare` also runs flat A* on the same queries in the same run
//! and reports the ratio of the median query times: how the hierarchy's speed
//! goals are measured.
//!
//! `--size K` runs the queries for a `K x K` unit (anchored at its top-left
//! cell): queries whose start or goal it does not fit on are skipped and
//! counted, every path is checked against the footprint rule, and the
//! scenario's single-cell optimum is only a lower bound (a path below it is
//! wrong); `--compare` then compares with exact A* for the size.

mod summary;

use super::CliResult;
use super::optimum::Printed;
use super::scenario::{check_fits, check_path, other_map_warning};
use super::solver::{Algo, Levels, PlannerOptions, SolveResult, Solver};
use super::unit::Footprint;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use summary::Summary;
use tierpath::io::{self, BucketFilter, ScenarioQuery};
use tierpath::{Cost, Method, Movement, Path};

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
    /// `--algo hpa` the hierarchy built for sizes 1 to SIZE (or a loaded one
    /// preprocessed with `--max-size` at least SIZE), with `--algo astar` or
    /// `dijkstra` exact search for that size. Queries whose start or goal the
    /// unit does not fit on are skipped; `--compare` compares with exact A*
    /// for the size.
    #[arg(long, value_name = "SIZE", default_value_t = 1, value_parser = crate::unit::parse)]
    pub size: u32,
    /// Fail on queries whose start or goal is a blocked cell (by default they
    /// are skipped and counted).
    #[arg(long)]
    pub strict: bool,
}

/// A path more than this (relative) above exact A*'s cost is not optimal,
/// where exact A* judges (see [`crate::optimum`]).
const EXACT_TOLERANCE: f64 = 1e-9;

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
    /// Paths shorter than the scenario's optimum allows (see
    /// [`crate::optimum`]).
    shorter: usize,
    /// Selected queries skipped for a blocked start or goal (one the unit
    /// does not fit on, for a larger unit).
    blocked: usize,
    /// Queries judged against exact A* (their optimum printed coarsely).
    judged_exact: usize,
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
    if args.algo != Algo::Hpa && (args.hierarchy.is_some() || args.cluster_size.is_some()) {
        return Err("--hierarchy and --cluster-size apply only to --algo hpa".into());
    }
    let grid = crate::read_grid(&args.map)?;
    let scenario = io::read_scenario(&args.scen)?;
    check_fits(&scenario, &grid, &args.map)?;
    if let Some(warning) = other_map_warning(&scenario, &args.map) {
        eprintln!("warning: {warning}");
    }
    let printed = Printed::read(&args.scen);
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
    if selected.is_empty() && !scenario.queries.is_empty() {
        return Err(format!(
            "--buckets {} selects no query of {} (its buckets are 0 to {})",
            args.buckets,
            args.scen.display(),
            scenario.max_bucket().unwrap_or(0)
        )
        .into());
    }
    let movement = Movement::default();
    let options = PlannerOptions {
        hierarchy: args.hierarchy.clone(),
        cluster_size: args.cluster_size,
        size: args.size,
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
                "# tierpath solve paths: map {} scenario {} algo {name} size {}",
                args.map.display(),
                args.scen.display(),
                args.size
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
    // Exact A*, for the queries whose optimum is printed too coarsely to
    // judge by (built on first need; not when the planner is A* itself).
    let mut exact: Option<Box<dyn Solver + '_>> = None;
    let mut answers: Vec<Answer> = Vec::with_capacity(selected.len());
    let unit = Footprint::new(&grid, args.size);
    let misfit = |q: &ScenarioQuery| unit.misfit(&grid, q.start, q.goal);
    let blocked_count = selected.iter().filter(|q| misfit(q)).count();
    if let Some((_, w)) = paths_out.as_mut() {
        for q in selected.iter().filter(|q| misfit(q)) {
            let index = index_of.get(&q.line).copied().unwrap_or(0);
            writeln!(w, "# {index} skipped: {}", unit.misfit_reason())?;
        }
    }
    selected.retain(|q| !misfit(q));
    tally.blocked = blocked_count;
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
                // A larger unit may find no path where one cell does.
                if path.is_some() == unsolvable && (unsolvable || args.size == 1) {
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
                        if let Err(problem) = check_path(&grid, &movement, &unit, q, &path) {
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
                        let reference = if printed.is_coarse(q.line, q.optimal)
                            && args.algo != Algo::Astar
                            && args.size == 1
                        {
                            if exact.is_none() {
                                exact = Some(Algo::Astar.build(&grid, movement)?);
                            }
                            let solver = exact.as_mut().expect("built above");
                            tally.judged_exact += 1;
                            solver
                                .solve(q.start, q.goal)?
                                .path
                                .map(|p| movement.cost_in_steps(p.cost))
                        } else {
                            None
                        };
                        if args.size == 1 {
                            score(&mut tally, &printed, q, cost, reference);
                        } else if printed.is_below(q.line, cost, q.optimal) {
                            tally.shorter += 1;
                        }
                        if let Some((_, w)) = paths_out.as_mut() {
                            write_path(w, index, cost, &path)?;
                        }
                    }
                }
            }
        }
    }
    let comparison = if args.compare {
        let exact = PlannerOptions {
            size: args.size,
            ..PlannerOptions::default()
        };
        let mut flat = Algo::Astar.build_with(&grid, movement, &exact)?;
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
        unit: &unit,
        tally: &tally,
        comparison: comparison.as_ref(),
    };
    summary.print(out)?;
    out.flush()?;
    if tally.invalid > 0 {
        return Err(format!(
            "{} of {} paths are invalid{}",
            tally.invalid,
            tally.solved,
            match args.size {
                1 => String::new(),
                k => format!(" for a {k}x{k} unit"),
            }
        )
        .into());
    }
    if args.strict && tally.blocked > 0 {
        return Err(format!(
            "{} quer{} a blocked start or goal (--strict)",
            tally.blocked,
            if tally.blocked == 1 {
                "y has"
            } else {
                "ies have"
            }
        )
        .into());
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

/// Records how a found cost compares with the optimum: exact A*'s cost
/// `exact` when given (the scenario's is printed coarsely), else the
/// scenario's as printed, within half a unit of its last digit.
fn score(tally: &mut Tally, printed: &Printed, q: &ScenarioQuery, cost: f64, exact: Option<f64>) {
    let optimal = q.optimal;
    let below_exact = exact.is_some_and(|e| cost < e * (1.0 - EXACT_TOLERANCE));
    if below_exact || printed.is_below(q.line, cost, optimal) {
        tally.shorter += 1;
    }
    match exact {
        Some(e) if e > 0.0 => {
            tally.ratios.push(cost / e);
            if cost > e * (1.0 + EXACT_TOLERANCE) {
                tally.not_optimal += 1;
            }
        }
        _ if optimal > 0.0 => {
            tally.ratios.push(cost / optimal);
            if !printed.matches(q.line, cost, optimal) {
                tally.not_optimal += 1;
            }
        }
        // Start equals goal (optimum 0) but the path has a cost.
        _ => tally.not_optimal += usize::from(cost > 0.0),
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
mod tests;
