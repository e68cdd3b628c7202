//! The `tierpath` command line: `demo`, `solve`, `generate`, `preprocess`,
//! `info`, `bench`, `render`, and the run-time tools `replan`, `path`,
//! `nearest` and `queue-demo`. Each subcommand lives in its own file under
//! `cli/src/`; see the README.

mod bench;
mod demo;
mod entrances;
mod generate;
mod info;
mod nearest;
mod optimum;
mod path;
mod polish;
mod preprocess;
mod queue_demo;
mod render;
mod render_png;
mod replan;
mod scenario;
mod solve;
mod solver;
mod unit;

use std::error::Error as StdError;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tierpath::Point;

/// Any error a subcommand reports: printed as `error: ...` with its causes.
pub type Error = Box<dyn StdError + Send + Sync>;

/// A subcommand's result.
pub type CliResult<T = ()> = Result<T, Error>;

/// Turns a subcommand's result into the process exit code, printing the error
/// and its causes (each once) to stderr. A closed stdout (`tierpath demo |
/// head`) is not an error.
pub fn exit_code(result: CliResult) -> ExitCode {
    let Err(e) = result else {
        return ExitCode::SUCCESS;
    };
    if is_broken_pipe(e.as_ref()) {
        return ExitCode::SUCCESS;
    }
    let mut message = format!("error: {e}");
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !message.contains(&text) {
            message.push_str(&format!("\n  caused by: {text}"));
        }
        source = s.source();
    }
    eprintln!("{message}");
    ExitCode::FAILURE
}

fn is_broken_pipe(e: &(dyn StdError + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return true;
        }
        cur = err.source();
    }
    false
}

/// Parses `X,Y` (also `X Y`, `(X, Y)`) into a point.
pub fn parse_point(text: &str) -> Result<Point, String> {
    let t = text.trim().trim_start_matches('(').trim_end_matches(')');
    let parts: Vec<&str> = t
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    let bad = || format!("`{text}` is not a cell: expected X,Y (column,row), like 12,40");
    match parts.as_slice() {
        [x, y] => Ok(Point::new(
            x.parse().map_err(|_| bad())?,
            y.parse().map_err(|_| bad())?,
        )),
        _ => Err(bad()),
    }
}

/// A map size `WxH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

/// Parses `WxH` (or a single `N` for a square).
pub fn parse_size(text: &str) -> Result<Size, String> {
    let bad = || format!("`{text}` is not a size: expected WxH, like 256x256");
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = t.split_once('x').unwrap_or((&t, &t));
    let width: u32 = w.trim().parse().map_err(|_| bad())?;
    let height: u32 = h.trim().parse().map_err(|_| bad())?;
    if width == 0 || height == 0 {
        return Err(format!("`{text}`: both sides must be at least 1"));
    }
    Ok(Size { width, height })
}

/// The project's shipped default map, relative to the repository root.
pub const DEFAULT_MAP: &str = "data/default.map";

/// Where the shipped default map may be: the current directory (a checkout),
/// beside the executable's `target/<profile>/` (a built checkout run from
/// elsewhere), and the repository the binary was built from (`cargo run`;
/// the command line is a member crate one folder below the root).
pub fn default_map_candidates() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from(DEFAULT_MAP)];
    if let Ok(exe) = std::env::current_exe()
        && let Some(root) = exe.parent().and_then(Path::parent).and_then(Path::parent)
    {
        out.push(root.join(DEFAULT_MAP));
    }
    out.push(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(DEFAULT_MAP),
    );
    let mut unique: Vec<PathBuf> = Vec::new();
    for p in out {
        if !unique.contains(&p) {
            unique.push(p);
        }
    }
    unique
}

/// The first default-map candidate that exists, or an error listing them.
pub fn find_default_map() -> CliResult<PathBuf> {
    let candidates = default_map_candidates();
    if let Some(p) = candidates.iter().find(|p| p.is_file()) {
        return Ok(p.clone());
    }
    let tried: Vec<String> = candidates.iter().map(|p| p.display().to_string()).collect();
    Err(format!(
        "no map given and the default map {DEFAULT_MAP} was not found (tried {}); \
         pass one (`tierpath demo MAP`) or regenerate it (see README.md)",
        tried.join(", ")
    )
    .into())
}

/// `n` and the noun, singular or plural as `n` needs: `1 island`, `2 islands`.
pub fn count(n: impl TryInto<u64>, one: &str, many: &str) -> String {
    let n: u64 = n.try_into().unwrap_or(u64::MAX);
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A ratio as a reader expects it: `3.0x faster` for 3, `2.5x slower` for
/// 0.4 (a ratio below 1 is turned over and takes the other word), `as fast`
/// (`same`) within 5%.
pub fn times(ratio: f64, above: &str, below: &str) -> String {
    if !ratio.is_finite() || ratio <= 0.0 {
        return format!("- {above}");
    }
    if (0.95..=1.05).contains(&ratio) {
        return format!("about the same ({ratio:.2}x)");
    }
    if ratio >= 1.0 {
        format!("{ratio:.1}x {above}")
    } else {
        format!("{:.1}x {below}", 1.0 / ratio)
    }
}

/// Reads a map as [`tierpath::io::read_grid`] does; when that fails on a
/// file that starts with a byte-order mark or ends its lines with CR alone,
/// the error says so (the parser's own message is true but puzzling then).
pub fn read_grid(path: &Path) -> CliResult<tierpath::Grid> {
    tierpath::io::read_grid(path).map_err(|e| match map_file_hint(path) {
        Some(hint) => format!("{e}\n  hint: {hint}").into(),
        None => e.into(),
    })
}

/// What is unusual about a map file's bytes, if anything: a byte-order mark,
/// or CR-only line ends. Reads at most the first 64 KiB.
fn map_file_hint(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(64 * 1024)
        .read_to_end(&mut head)
        .ok()?;
    if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Some(format!(
            "{} starts with a UTF-8 byte-order mark (bytes EF BB BF); save it without one",
            path.display()
        ));
    }
    if head.contains(&b'\r') && !head.contains(&b'\n') {
        return Some(format!(
            "{} ends its lines with CR alone (classic Mac line ends); convert them to LF",
            path.display()
        ));
    }
    None
}

/// How a two-tier query was answered, as the command line prints it
/// (`near`, `hierarchical`, ...).
pub fn method_name(method: tierpath::Method) -> String {
    format!("{method:?}").to_lowercase()
}

/// Microseconds of a duration, as a float.
pub fn micros(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_read_the_right_way_round() {
        assert_eq!(times(3.0, "faster", "slower"), "3.0x faster");
        assert_eq!(times(0.4, "faster", "slower"), "2.5x slower");
        assert_eq!(times(1.01, "faster", "slower"), "about the same (1.01x)");
        assert_eq!(count(1u32, "island", "islands"), "1 island");
        assert_eq!(count(3u32, "island", "islands"), "3 islands");
    }

    #[test]
    fn points_and_sizes_parse() {
        assert_eq!(parse_point("3,4"), Ok(Point::new(3, 4)));
        assert_eq!(parse_point(" (3, 4) "), Ok(Point::new(3, 4)));
        assert!(parse_point("3").is_err());
        assert!(parse_point("-1,2").is_err());
        assert_eq!(
            parse_size("256x128"),
            Ok(Size {
                width: 256,
                height: 128
            })
        );
        assert_eq!(parse_size("64").map(|s| s.height), Ok(64));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("axb").is_err());
    }
}

use clap::{Parser, Subcommand};

/// Fast grid pathfinding for games: a two-tier hierarchical planner
/// (preprocess a map once, then answer long queries in microseconds), with
/// exact flat A* and Dijkstra as the baseline.
#[derive(Parser)]
#[command(name = "tierpath", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What `solve` and `bench` do with blocked endpoints and rounded optima.
const SCENARIO_RULES: &str = "Queries whose start or goal is a blocked cell (some published \
scenario files have them) are skipped and counted; with --strict they make the command fail.\n\
A path matches the scenario's optimum when it lies within half a unit of the optimum's last \
printed digit (12.66: 0.005); where that half unit is more than 1/20,000 of the optimum, \
solve judges optimality against exact A* on the same query (bench always compares with \
flat A*).";

#[derive(Subcommand)]
enum Command {
    /// Find a long path on the shipped default map (or MAP) and draw it.
    Demo(demo::Args),
    /// Run every query of a Moving AI scenario, validate the paths, and
    /// summarise time, optimality and nodes expanded.
    #[command(after_help = SCENARIO_RULES)]
    Solve(solve::Args),
    /// Generate a map (rooms, caves, maze, random, mixed) in Moving AI format.
    Generate(generate::Args),
    /// Build the hierarchy of one map or many (in parallel), save each to a
    /// `.tph` file, and print per-map build statistics.
    Preprocess(preprocess::Args),
    /// Load a saved hierarchy file and print its statistics.
    Info(info::Args),
    /// Benchmark flat A* against the hierarchy on scenario files or folders:
    /// time, speedup, suboptimality, nodes expanded, build time and memory,
    /// one table row per map set.
    #[command(after_help = SCENARIO_RULES)]
    Bench(bench::Args),
    /// Draw a map as a PNG: islands, dead ends, clusters, transitions, and for
    /// a query the abstract route, the hierarchy's and flat A*'s paths, and
    /// the cells each search expanded.
    Render(render_png::Args),
    /// Change the map while units walk: apply a script of edits (walls,
    /// terrain, cost fields), repair the hierarchy locally after each, and
    /// re-plan only the paths the repair touched.
    Replan(replan::Args),
    /// One query with the run-time options: a budget on the search, a partial
    /// path when the goal is not reached, the search spread over frames.
    Path(path::Args),
    /// From one cell, the nearest of many targets by path cost.
    Nearest(nearest::Args),
    /// Many units' requests served by a queue within a per-frame budget of
    /// expanded nodes, oldest first.
    QueueDemo(queue_demo::Args),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Demo(args) => demo::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Preprocess(args) => preprocess::run(args),
        Command::Info(args) => info::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Render(args) => render_png::run(args),
        Command::Replan(args) => replan::run(args),
        Command::Path(args) => path::run(args),
        Command::Nearest(args) => nearest::run(args),
        Command::QueueDemo(args) => queue_demo::run(args),
    };
    exit_code(result)
}
