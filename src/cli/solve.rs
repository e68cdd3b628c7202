//! `tierpath solve MAP SCEN`: runs a Moving AI scenario, validates every path
//! and summarises speed and optimality.

use super::CliResult;
use super::solver::{Algo, SolveResult};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tierpath::io::{self, BucketFilter, ScenarioQuery};
use tierpath::{Grid, Movement, Path};

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
}

/// A path whose cost differs from the scenario's optimum by more than this
/// (relative) is counted as not optimal.
const OPTIMAL_TOLERANCE: f64 = 1e-4;

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
    times: Vec<Duration>,
    ratios: Vec<f64>,
    expanded: u64,
}

/// Runs `tierpath solve`.
pub fn run(args: Args) -> CliResult {
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
    let setup_start = Instant::now();
    let mut solver = args.algo.build(&grid, movement)?;
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
        Some(selected.len() as u64),
        ProgressDrawTarget::stderr_with_hz(4),
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} queries {elapsed}") {
        progress.set_style(style);
    }

    let mut tally = Tally::default();
    for q in &selected {
        let index = index_of.get(&q.line).copied().unwrap_or(0);
        tally.queries += 1;
        let t0 = Instant::now();
        let answer = solver.solve(q.start, q.goal);
        let elapsed = t0.elapsed();
        progress.inc(1);
        match answer {
            Err(e) => {
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
            Ok(SolveResult { path, expanded }) => {
                tally.times.push(elapsed);
                tally.expanded += expanded;
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
        tally: &tally,
    };
    let mut out = std::io::stdout().lock();
    summary.print(&mut out)?;
    out.flush()?;
    if tally.invalid > 0 {
        return Err(format!("{} of {} paths are invalid", tally.invalid, tally.solved).into());
    }
    Ok(())
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

/// The `p`-th percentile (nearest rank) of sorted durations, in microseconds.
fn percentile_us(sorted: &[Duration], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(super::micros(sorted[rank - 1]))
}

struct Summary<'a> {
    args: &'a Args,
    grid: &'a Grid,
    scenario_queries: usize,
    algo: &'a str,
    setup: Duration,
    tally: &'a Tally,
}

impl Summary<'_> {
    fn print(&self, out: &mut impl Write) -> std::io::Result<()> {
        let t = self.tally;
        let mut times = t.times.clone();
        times.sort_unstable();
        // Nanosecond resolution is plenty; it keeps the JSON short.
        let round3 = |v: f64| (v * 1e3).round() / 1e3;
        let median = percentile_us(&times, 0.5).map(round3);
        let p95 = percentile_us(&times, 0.95).map(round3);
        let total_ms = round3(times.iter().sum::<Duration>().as_secs_f64() * 1e3);
        let searched = times.len();
        let mean_ratio =
            (!t.ratios.is_empty()).then(|| t.ratios.iter().sum::<f64>() / t.ratios.len() as f64);
        let max_ratio = t.ratios.iter().copied().reduce(f64::max);
        let mean_expanded = (searched > 0).then(|| t.expanded as f64 / searched as f64);
        let opt = |v: Option<f64>, digits: usize| match v {
            Some(v) => format!("{v:.digits$}"),
            None => "-".to_string(),
        };

        writeln!(
            out,
            "map         {} ({}x{}, {} passable cells)",
            self.args.map.display(),
            self.grid.width(),
            self.grid.height(),
            self.grid.passable_count()
        )?;
        writeln!(
            out,
            "scenario    {} ({} queries, buckets {}: {} selected)",
            self.args.scen.display(),
            self.scenario_queries,
            self.args.buckets,
            t.queries
        )?;
        writeln!(
            out,
            "algorithm   {} (setup {:.2} ms)",
            self.algo,
            self.setup.as_secs_f64() * 1e3
        )?;
        writeln!(
            out,
            "queries     {}: {} solved, {} unreachable, {} errors, {} invalid",
            t.queries, t.solved, t.unreachable, t.errors, t.invalid
        )?;
        writeln!(
            out,
            "time        median {} us, p95 {} us, total {:.3} ms",
            opt(median, 2),
            opt(p95, 2),
            total_ms
        )?;
        writeln!(
            out,
            "optimality  cost/optimal mean {}, max {}; {} differ by more than {:e}",
            opt(mean_ratio, 6),
            opt(max_ratio, 6),
            t.not_optimal,
            OPTIMAL_TOLERANCE
        )?;
        writeln!(
            out,
            "expanded    mean {} nodes per query",
            opt(mean_expanded, 1)
        )?;
        if self.args.json {
            let json = serde_json::json!({
                "map": self.args.map.display().to_string(),
                "scenario": self.args.scen.display().to_string(),
                "algo": self.algo,
                "buckets": self.args.buckets.to_string(),
                "width": self.grid.width(),
                "height": self.grid.height(),
                "scenario_queries": self.scenario_queries,
                "queries": t.queries,
                "solved": t.solved,
                "unreachable": t.unreachable,
                "errors": t.errors,
                "invalid": t.invalid,
                "median_us": median,
                "p95_us": p95,
                "total_ms": total_ms,
                "setup_ms": round3(self.setup.as_secs_f64() * 1e3),
                "mean_ratio": mean_ratio,
                "max_ratio": max_ratio,
                "not_optimal": t.not_optimal,
                "optimal_tolerance": OPTIMAL_TOLERANCE,
                "mean_expanded": mean_expanded,
            });
            writeln!(out, "{json}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let d: Vec<Duration> = (1..=100).map(Duration::from_micros).collect();
        assert_eq!(percentile_us(&d, 0.5), Some(50.0));
        assert_eq!(percentile_us(&d, 0.95), Some(95.0));
        assert_eq!(percentile_us(&d[..1], 0.95), Some(1.0));
        assert_eq!(percentile_us(&[], 0.5), None);
    }

    #[test]
    fn scoring_counts_off_optimal() {
        let mut t = Tally::default();
        score(&mut t, 10.0, 10.0);
        score(&mut t, 14.1421, 14.14213562);
        score(&mut t, 11.0, 10.0);
        score(&mut t, 0.0, 0.0);
        assert_eq!(t.not_optimal, 1);
        assert_eq!(t.ratios.len(), 3);
    }
}
