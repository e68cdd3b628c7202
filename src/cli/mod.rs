//! The command line's pieces: one file per subcommand, plus the pluggable
//! [`solver::Solver`] trait and the helpers they share.

pub mod bench;
pub mod demo;
pub mod generate;
pub mod info;
pub mod nearest;
pub mod path;
pub mod preprocess;
pub mod queue_demo;
pub mod render;
pub mod render_png;
pub mod replan;
pub mod sized;
pub mod solve;
pub mod solver;

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

/// The project's shipped default map, relative to the crate.
pub const DEFAULT_MAP: &str = "data/default.map";

/// Where the shipped default map may be: the current directory (a checkout),
/// beside the executable's `target/<profile>/` (a built checkout run from
/// elsewhere), and the crate the binary was built from (`cargo run`).
pub fn default_map_candidates() -> Vec<PathBuf> {
    let mut out = vec![PathBuf::from(DEFAULT_MAP)];
    if let Ok(exe) = std::env::current_exe()
        && let Some(root) = exe.parent().and_then(Path::parent).and_then(Path::parent)
    {
        out.push(root.join(DEFAULT_MAP));
    }
    out.push(Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_MAP));
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

/// Microseconds of a duration, as a float.
pub fn micros(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

#[cfg(test)]
mod tests {
    use super::*;

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
