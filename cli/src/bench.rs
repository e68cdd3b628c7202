//! `tierpath bench SCEN_OR_DIR...`: flat A* against the hierarchy on the same
//! queries, map by map, summarised per map set.
//!
//! For every scenario (a `.scen` file given directly, or found in a given
//! folder or its subfolders one level down) the map is read, its hierarchy
//! built (timed, and its load from bytes timed), and the selected queries run
//! through the hierarchy, flat A*, exact jump point search (JPS, the best
//! exact method without preprocessing; `--no-jps` leaves it out) and any extra
//! `--algo` planner, one pass per
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
//! the per-query ratios) and over JPS (JPS's median over its median), its
//! suboptimality against flat A*'s exact cost, and
//! nodes expanded; then the hierarchy's first move (a `plan_with` and its
//! first `next_segment`, timed in a pass of its own; the piece must begin
//! the path `find_path` gave), its build and load times and memory per map
//! cell. `--json` and `--csv` write the same figures per set, overall and
//! per map.
//!
//! `--size K` runs everything for a `K x K` unit: the hierarchy built for
//! sizes 1 to K and queried for K, flat A* for the size (`AStar::for_unit`),
//! queries the unit does not fit on skipped (counted as blocked), and the
//! scenario's single-cell optimum only a lower bound. JPS plans for single
//! cells only and is left out.

mod inputs;
mod map;
mod report;

use super::CliResult;
use super::entrances::EntrancesArg;
use super::polish::PolishArg;
use super::solver::Algo;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use inputs::{file_label, scenario_files};
use map::{MapRun, bench_map};
use report::{Machine, Summary, csv, hierarchy_table, summarise, summary_json, time_table};
use serde_json::json;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use tierpath::io::BucketFilter;

/// Arguments of `tierpath bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Moving AI scenario files (`.scen`), or folders holding them (searched
    /// one level of subfolders deep, following links). Each scenario's map is
    /// found by its map column (relative to the archive root two folders up,
    /// like `maps/bgmaps/X.map`), then by file name beside the scenario, then
    /// in `--maps DIR`.
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
    /// Build hierarchies with clusters of N x N cells (default: 16, or 32 on maps
    /// of scattered obstacles).
    #[arg(long, value_name = "N")]
    pub cluster_size: Option<u32>,
    /// Whether the hierarchy's queries polish their paths (`auto`: where a
    /// map's obstacles are scattered).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = PolishArg::Auto)]
    pub polish: PolishArg,
    /// Where transitions go along the entrances between clusters: `auto`
    /// puts them at the ends only on large maps of open ground (768x768 or
    /// more, a fifth of the clusters wall-free).
    #[arg(long, value_enum, value_name = "WHERE", default_value_t = EntrancesArg::Auto)]
    pub entrances: EntrancesArg,
    /// Also run this planner of `tierpath solve --algo` on the same queries
    /// (repeatable; flat A* and the hierarchy always run, and JPS unless
    /// `--no-jps`).
    #[arg(long = "algo", value_enum, value_name = "ALGO")]
    pub algos: Vec<Algo>,
    /// Leave exact jump point search out (it is run by default as the best
    /// exact planner without preprocessing).
    #[arg(long)]
    pub no_jps: bool,
    /// Write the figures (per set, overall and per map) as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the figures (per set, overall and per map) as CSV to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Also look for the maps in DIR (by the map column under DIR, by file
    /// name, and in DIR/SET/).
    #[arg(long, value_name = "DIR")]
    pub maps: Option<PathBuf>,
    /// Fail on queries whose start or goal is a blocked cell (by default they
    /// are skipped and counted).
    #[arg(long)]
    pub strict: bool,
    /// Plan for a unit SIZE x SIZE cells (the hierarchy built for sizes 1 to
    /// SIZE; JPS left out). Queries it does not fit on are skipped.
    #[arg(long, value_name = "SIZE", default_value_t = 1, value_parser = crate::unit::parse)]
    pub size: u32,
    /// Contract each hierarchy's cluster graph as part of its build
    /// (`HierarchyBuilder::contract`: its queries then search the
    /// contraction; the contraction's time counts in the build, and its
    /// stage's time is shown apart as "of which contract ms"; its bytes
    /// count in the memory).
    #[arg(long)]
    pub contract: bool,
    /// Add every cell's distance from N landmarks (0 to 4) to each
    /// hierarchy (`Hierarchy::add_cell_landmarks`: its exact near search by
    /// jump points then answers queries at any distance, within its budget;
    /// the time counts in the build, the bytes in the memory). Meant for
    /// maps like Dragon Age's (on large open maps the hierarchy alone is faster).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub cell_landmarks: u8,
}

/// Problems printed in full; the rest are counted.
const MAX_PRINTED_PROBLEMS: usize = 20;

/// Name of the exact baseline.
const FLAT: &str = "astar";
/// Name of the hierarchy.
const HPA: &str = "hpa";

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
    if args.size > 1 && args.algos.contains(&Algo::Jps) {
        return Err("--algo jps plans for single cells only: leave it out with --size".into());
    }
    let extras = extra_algos(&args.algos, !args.no_jps && args.size == 1);
    let mut planners: Vec<String> = vec![FLAT.to_string(), HPA.to_string()];
    planners.extend(extras.iter().map(|a| algo_name(*a)));
    let cluster_size = args.cluster_size;

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
        "planners: {} (hierarchy: cluster {}, polish {:?}, entrances {:?}, {}); rules: \
         8-connected, straight 1, diagonal sqrt 2, no corner cutting{}",
        planners.join(", "),
        cluster_size.map_or_else(|| "by map".to_string(), |c| c.to_string()),
        args.polish,
        args.entrances,
        match (args.contract, args.cell_landmarks) {
            (true, 0) => "cluster graph contracted".to_string(),
            (false, 0) => "default settings".to_string(),
            (true, n) => format!("cluster graph contracted, {n} cell landmarks"),
            (false, n) => format!("{n} cell landmarks"),
        },
        match args.size {
            1 => String::new(),
            k => format!("; a {k}x{k} unit (hierarchy for sizes 1..={k})"),
        }
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
         per-query time ratios; vs jps = JPS median / planner median (above 1: faster than JPS); total = JPS total time / planner total time over the same queries; subopt = cost / flat A* exact cost - 1; expanded = mean nodes per \
         query (hpa: abstract + fine)"
    )?;
    let blocked: usize = runs.iter().map(|r| r.blocked).sum();
    if blocked > 0 {
        writeln!(
            out,
            "skipped {blocked} quer{} whose start or goal is a blocked cell{}{}",
            if blocked == 1 { "y" } else { "ies" },
            match args.size {
                1 => String::new(),
                k => format!(" or too narrow for a {k}x{k} unit"),
            },
            if args.strict {
                " (--strict: an error)"
            } else {
                ""
            }
        )?;
    }
    let selected: usize = runs.iter().map(|r| r.selected).sum();
    if selected == 0 {
        return Err(format!(
            "--buckets {} selects no query in any scenario (see each file's buckets)",
            args.buckets
        )
        .into());
    }
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
                "polish": format!("{:?}", args.polish).to_lowercase(),
                "entrances": format!("{:?}", args.entrances).to_lowercase(),
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
        "{} problem{} (invalid paths, wrong costs, reachability disagreements{}): see above",
        problems.len(),
        plural(problems.len()),
        if args.strict {
            ", blocked endpoints"
        } else {
            ""
        }
    )
    .into())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The planners run beside flat A* and the hierarchy: JPS first when `jps`,
/// then the `--algo` planners not already run, once each.
fn extra_algos(algos: &[Algo], jps: bool) -> Vec<Algo> {
    let mut out: Vec<Algo> = Vec::new();
    for a in jps.then_some(&Algo::Jps).into_iter().chain(algos) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_planners() {
        assert_eq!(
            extra_algos(&[Algo::Astar, Algo::Dijkstra, Algo::Dijkstra], false),
            vec![Algo::Dijkstra]
        );
        assert_eq!(
            extra_algos(&[Algo::Dijkstra, Algo::Jps], true),
            vec![Algo::Jps, Algo::Dijkstra]
        );
    }
}
