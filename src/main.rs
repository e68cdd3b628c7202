//! The `tierpath` command line: `demo`, `solve`, `generate`, `preprocess`,
//! `info`, `bench`, `render`, and the run-time tools `replan`, `path`,
//! `nearest` and `queue-demo`. Each subcommand lives in its own file under
//! `src/cli/`; see the README.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Fast grid pathfinding for games: a two-tier hierarchical planner
/// (preprocess a map once, then answer long queries in microseconds), with
/// exact flat A* and Dijkstra as the baseline.
#[derive(Parser)]
#[command(name = "tierpath", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find a long path on the shipped default map (or MAP) and draw it.
    Demo(cli::demo::Args),
    /// Run every query of a Moving AI scenario, validate the paths, and
    /// summarise time, optimality and nodes expanded.
    Solve(cli::solve::Args),
    /// Generate a map (rooms, caves, maze, random, mixed) in Moving AI format.
    Generate(cli::generate::Args),
    /// Build the hierarchy of one map or many (in parallel), save each to a
    /// `.tph` file, and print per-map build statistics.
    Preprocess(cli::preprocess::Args),
    /// Load a saved hierarchy file and print its statistics.
    Info(cli::info::Args),
    /// Benchmark flat A* against the hierarchy on scenario files or folders:
    /// time, speedup, suboptimality, nodes expanded, build time and memory,
    /// one table row per map set.
    Bench(cli::bench::Args),
    /// Draw a map as a PNG: islands, dead ends, clusters, transitions, and for
    /// a query the abstract route, the hierarchy's and flat A*'s paths, and
    /// the cells each search expanded.
    Render(cli::render_png::Args),
    /// Change the map while units walk: apply a script of edits (walls,
    /// terrain, cost fields), repair the hierarchy locally after each, and
    /// re-plan only the paths the repair touched.
    Replan(cli::replan::Args),
    /// One query with the run-time options: a budget on the search, a partial
    /// path when the goal is not reached, the search spread over frames.
    Path(cli::path::Args),
    /// From one cell, the nearest of many targets by path cost.
    Nearest(cli::nearest::Args),
    /// Many units' requests served by a queue within a per-frame budget of
    /// expanded nodes, oldest first.
    QueueDemo(cli::queue_demo::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Demo(args) => cli::demo::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Generate(args) => cli::generate::run(args),
        Command::Preprocess(args) => cli::preprocess::run(args),
        Command::Info(args) => cli::info::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Render(args) => cli::render_png::run(args),
        Command::Replan(args) => cli::replan::run(args),
        Command::Path(args) => cli::path::run(args),
        Command::Nearest(args) => cli::nearest::run(args),
        Command::QueueDemo(args) => cli::queue_demo::run(args),
    };
    cli::exit_code(result)
}
