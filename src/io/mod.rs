//! Reading and writing map and scenario files.
//!
//! Three formats:
//!
//! * **Moving AI maps** (`.map`, [`read_map`], [`parse_map`], [`write_map`],
//!   [`save_map`]): the grid benchmark format. Header lines `type octile`,
//!   `height H`, `width W` (any order), then a `map` line and `H` rows of `W`
//!   characters. `.` `G` `S` are passable, `@` `O` `T` `W` blocked. Terrain
//!   weights are not part of this format.
//! * **Moving AI scenarios** (`.scen`, [`read_scenario`], [`parse_scenario`]): a
//!   `version 1` line, then one query per line, nine tab- or space-separated
//!   fields: `bucket map map_width map_height start_x start_y goal_x goal_y
//!   optimal_length`.
//! * **Terrain text** (`.txt`, [`read_terrain`], [`parse_terrain`],
//!   [`write_terrain`], [`save_terrain`]): the project's own format for
//!   hand-made maps with terrain costs, described below.
//!
//! Every parser takes untrusted input: it never panics, whatever the bytes, and
//! only allocates a grid after the rows it describes have been read and checked,
//! so a header claiming a huge map costs nothing. Every error names the input
//! (a file path, or `<input>`), the 1-based line, and the problem.
//!
//! # The terrain text format
//!
//! ```text
//! # A river crossing. Comment lines start with '#'.
//! legend
//! .  grass  1
//! ~  swamp  2
//! *  snow   3
//! =  road   0.5
//! %  ford   1.5
//! #  wall
//! map
//! ..**~~~..
//! .=====%==
//! ..**~~~..
//! ###.#####
//! ```
//!
//! Rules, line by line (a trailing `\r` and surrounding blanks are ignored on
//! every line):
//!
//! 1. **Preamble.** Blank lines and comments (lines whose first non-blank
//!    character is `#`) until a `legend` or `map` line.
//! 2. **Legend** (optional), after a line `legend`: one entry per line,
//!    `CHAR NAME COST`, separated by blanks. `CHAR` is any single non-blank
//!    character; `NAME` a single word, for the reader only; `COST` the cost
//!    multiplier of entering the cell (`1` plain ground, `0.5` a road that halves
//!    it, `3` snow), stored as [`Weight::from_multiplier`] (hundredths, from
//!    0.01 to 655.35), or the word `wall` for an impassable cell. `CHAR wall`
//!    alone is short for `CHAR wall wall`. Inside the legend `#` is an ordinary
//!    character (`# wall` declares walls), so a legend comment starts with two
//!    characters, `##` or `#` followed directly by text (`#note`): a line is a
//!    comment there when its first word starts with `#` and is longer than one
//!    character. Blank lines are allowed. A character may be declared once.
//! 3. **Map**, after a line `map`: the rows, top row first, every row the same
//!    number of characters, each character declared in the legend. The map ends
//!    at the end of the text; blank lines are allowed only after the last row.
//!
//! When there is no `legend` section the **default legend** applies:
//!
//! | char | name | cost |
//! |---|---|---|
//! | `.` | grass | 1 |
//! | `=` | road | 0.5 |
//! | `~` | swamp | 2 |
//! | `*` | snow | 3 |
//! | `#` | wall | wall |
//! | `@` | wall | wall |
//!
//! A `legend` section replaces the default legend entirely, so a file that has
//! one says everything about itself. [`write_terrain`] always writes a legend:
//! one entry per weight used, with the default characters and names for the
//! default weights, so its output parses back to the same passability and
//! weights.
//!
//! ```
//! use tierpath::{Point, Weight, io};
//! let grid = io::parse_terrain("map\n..=*\n.#~.\n", "<input>").unwrap();
//! assert_eq!(grid.weight(Point::new(2, 0)), Weight(50));
//! assert!(!grid.is_passable(Point::new(1, 1)));
//! let again = io::parse_terrain(&io::write_terrain(&grid), "<input>").unwrap();
//! assert_eq!(again.fingerprint(), grid.fingerprint());
//! ```

mod movingai;
mod scenario;
mod terrain;

use std::path::{Path, PathBuf};

pub use movingai::{parse_map, read_map, save_map, write_map};
pub use scenario::{
    BucketFilter, BucketFilterError, Scenario, ScenarioQuery, parse_scenario, read_scenario,
};
pub use terrain::{parse_terrain, read_terrain, save_terrain, write_terrain};

use crate::Grid;
#[cfg(doc)]
use crate::Weight;

/// What went wrong reading or writing a map or scenario.
///
/// Every variant names where the input came from: a file path, or the origin
/// string given to a `parse_*` function (conventionally `"<input>"`).
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Not a regular file: a directory, a device such as `/dev/zero`, or a
    /// pipe (which could block or never end).
    #[error("{path}: not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// Longer than any input of its format can be.
    #[error("{path}: longer than the {limit} bytes the largest {what} can take")]
    TooLarge {
        /// The file.
        path: String,
        /// The format's bound, in bytes.
        limit: u64,
        /// The format.
        what: &'static str,
    },
    /// The file could not be written.
    #[error("{path}: cannot write: {source}")]
    Write {
        /// The file.
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The input is malformed.
    #[error("{path}:{line}: {message}")]
    Parse {
        /// The file or origin.
        path: String,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A scenario query does not fit the grid it is checked against
    /// ([`Scenario::check_against`]).
    #[error("{path}:{line}: {message}")]
    Mismatch {
        /// The scenario file.
        path: String,
        /// 1-based line of the query.
        line: usize,
        /// What does not match.
        message: String,
    },
    /// The map a scenario names could not be found ([`Scenario::map_path`]).
    #[error("{path}: cannot find map `{}`; tried {}", shorten(.map), list_paths(.tried))]
    MapNotFound {
        /// The scenario file.
        path: String,
        /// The map as the scenario names it.
        map: String,
        /// Every location tried, in order.
        tried: Vec<PathBuf>,
    },
}

/// Characters of a long field that an error message repeats.
const FIELD_SHOWN: usize = 80;

/// `s` whole if short, else its first [`FIELD_SHOWN`] characters and its
/// length: a scenario's map column can be megabytes long.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(FIELD_SHOWN) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &s[..cut], s.len()),
    }
}

fn list_paths(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "nothing (the scenario has no queries)".to_string();
    }
    paths
        .iter()
        .map(|p| shorten(&p.display().to_string()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a grid from a file in either map format: Moving AI when the file name
/// ends in `.map` or its first non-blank line starts with `type`, `height` or
/// `width`; the [terrain text format](self#the-terrain-text-format) otherwise.
pub fn read_grid(path: impl AsRef<Path>) -> Result<Grid, IoError> {
    let path = path.as_ref();
    let limit = if has_map_extension(path) {
        MAX_MAP_BYTES
    } else {
        MAX_TERRAIN_BYTES
    };
    let bytes = read_bytes(path, limit, "map")?;
    let origin = path.display().to_string();
    if is_moving_ai(path, &bytes) {
        if bytes.len() as u64 > MAX_MAP_BYTES {
            return Err(IoError::TooLarge {
                path: origin,
                limit: MAX_MAP_BYTES,
                what: "Moving AI map",
            });
        }
        parse_map(&bytes, &origin)
    } else {
        terrain::parse_terrain_bytes(&bytes, &origin)
    }
}

fn has_map_extension(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("map"))
}

fn is_moving_ai(path: &Path, bytes: &[u8]) -> bool {
    if has_map_extension(path) {
        return true;
    }
    let first = lines(bytes)
        .map(|(_, l)| l.trim_ascii())
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    let word = first
        .split(|b| b.is_ascii_whitespace())
        .next()
        .unwrap_or_default();
    matches!(word, b"type" | b"height" | b"width")
}

// ----- helpers shared by the parsers -----

/// Slack for header lines, blank lines and trailing blanks in a map file.
const MAP_SLACK: u64 = 1 << 20;

/// The longest Moving AI `.map` file read: the largest map
/// ([`MAX_CELLS`](crate::MAX_CELLS) cells in rows of at most
/// [`MAX_SIDE`](crate::MAX_SIDE)), a CRLF per row, and a megabyte for the
/// header, blank lines and trailing blanks.
pub const MAX_MAP_BYTES: u64 = crate::MAX_CELLS + 2 * crate::MAX_SIDE as u64 + MAP_SLACK;

/// The longest terrain text file read: the largest map at four UTF-8 bytes a
/// cell, plus the slack of [`MAX_MAP_BYTES`] (legend lines included).
pub const MAX_TERRAIN_BYTES: u64 = 4 * crate::MAX_CELLS + 2 * crate::MAX_SIDE as u64 + MAP_SLACK;

/// The longest scenario file read. The format does not bound the number of
/// queries; the largest Moving AI scenario is about 200 KiB, so 256 MiB
/// leaves room for a thousand times more.
pub const MAX_SCENARIO_BYTES: u64 = 256 << 20;

/// Reads a whole regular file of at most `limit` bytes (a `what` file),
/// naming it on failure. Devices, pipes and directories are refused before
/// they are opened (a FIFO would block the open); a file that grows past
/// the limit while read is cut off there and refused.
fn read_bytes(path: &Path, limit: u64, what: &'static str) -> Result<Vec<u8>, IoError> {
    use std::io::Read;
    let name = || path.display().to_string();
    let read = |source| IoError::Read {
        path: name(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(read)?;
    if !meta.is_file() {
        return Err(IoError::NotAFile { path: name() });
    }
    let too_large = || IoError::TooLarge {
        path: name(),
        limit,
        what,
    };
    if meta.len() > limit {
        return Err(too_large());
    }
    let file = std::fs::File::open(path).map_err(read)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1).read_to_end(&mut bytes).map_err(read)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

fn parse_error(origin: &str, line: usize, message: impl Into<String>) -> IoError {
    IoError::Parse {
        path: origin.to_string(),
        line,
        message: message.into(),
    }
}

/// The lines of `bytes` with their 1-based numbers, split at `\n`, without the
/// line ending (`\n` or `\r\n`). A final line ending does not start a new line.
fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let pieces = if bytes.is_empty() {
        None
    } else {
        Some(body.split(|b| *b == b'\n'))
    };
    pieces
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix(b"\r").unwrap_or(l)))
}

/// Quotes untrusted text for an error message, shortened when long.
fn quote(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("`{}...`", &text[..cut]),
        None => format!("`{text}`"),
    }
}

/// Quotes an untrusted byte string, replacing invalid UTF-8.
fn quote_bytes(bytes: &[u8]) -> String {
    quote(&String::from_utf8_lossy(bytes))
}

/// Number of the line just past the end of `bytes`, for "ended early" errors.
fn line_after_end(bytes: &[u8]) -> usize {
    lines(bytes).last().map_or(1, |(n, _)| n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_splitting() {
        let got: Vec<_> = lines(b"a\r\nb\n\nc").collect();
        assert_eq!(
            got,
            vec![
                (1, &b"a"[..]),
                (2, &b"b"[..]),
                (3, &b""[..]),
                (4, &b"c"[..])
            ]
        );
        assert_eq!(lines(b"a\n").count(), 1);
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\n").collect::<Vec<_>>(), vec![(1, &b""[..])]);
        assert_eq!(line_after_end(b"a\nb\n"), 3);
        assert_eq!(line_after_end(b""), 1);
    }

    #[test]
    fn quoting_is_bounded() {
        assert_eq!(quote("ab"), "`ab`");
        let long = "é".repeat(100);
        assert!(quote(&long).chars().count() < 50);
        assert_eq!(quote_bytes(b"\xff"), "`\u{fffd}`");
    }

    #[test]
    fn read_errors_name_the_file() {
        let e = read_map("/definitely/not/here.map").unwrap_err();
        assert!(matches!(e, IoError::Read { .. }));
        assert!(e.to_string().starts_with("/definitely/not/here.map: "));
        let e = read_grid("/definitely/not/here.txt").unwrap_err();
        assert!(matches!(e, IoError::Read { .. }));
    }

    #[test]
    fn devices_and_directories_are_refused_unread() {
        for path in ["/dev/zero", "/dev/urandom", "/"] {
            if !Path::new(path).exists() {
                continue;
            }
            assert!(
                matches!(read_grid(path), Err(IoError::NotAFile { .. })),
                "{path}"
            );
            assert!(
                matches!(read_map(path), Err(IoError::NotAFile { .. })),
                "{path}"
            );
            let scen = read_scenario(path);
            assert!(matches!(scen, Err(IoError::NotAFile { .. })), "{path}");
            let terrain = read_terrain(path);
            assert!(matches!(terrain, Err(IoError::NotAFile { .. })), "{path}");
        }
    }

    #[test]
    fn files_past_the_format_bound_are_refused_unread() {
        let dir = std::env::temp_dir().join(format!("tierpath-io-bound-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A sparse file a byte past each bound: refused by its length.
        let cases = [
            ("huge.map", MAX_MAP_BYTES),
            ("huge.scen", MAX_SCENARIO_BYTES),
            ("huge.txt", MAX_TERRAIN_BYTES),
        ];
        for (name, limit) in cases {
            let path = dir.join(name);
            let f = std::fs::File::create(&path).unwrap();
            f.set_len(limit + 1).unwrap();
            let e = match name {
                "huge.map" => read_map(&path).unwrap_err(),
                "huge.scen" => read_scenario(&path).map(|_| ()).unwrap_err(),
                _ => read_terrain(&path).unwrap_err(),
            };
            assert!(
                matches!(e, IoError::TooLarge { limit: l, .. } if l == limit),
                "{name}: {e}"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn example_files_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/examples");
        let terrain = read_terrain(dir.join("terrain.txt")).unwrap();
        assert!(terrain.is_weighted());
        assert_eq!(read_grid(dir.join("terrain.txt")).unwrap(), terrain);
        let map = read_map(dir.join("small.map")).unwrap();
        assert_eq!(read_grid(dir.join("small.map")).unwrap(), map);
        let scen = read_scenario(dir.join("small.map.scen")).unwrap();
        assert!(!scen.queries.is_empty());
        scen.check_against(&map).unwrap();
        assert_eq!(scen.map_path().unwrap(), dir.join("small.map"));
    }

    #[test]
    fn a_long_map_field_is_shortened_in_map_not_found() {
        let map = "é".repeat(1_000_000);
        let e = IoError::MapNotFound {
            path: "x.scen".into(),
            map: map.clone(),
            tried: vec![
                PathBuf::from(format!("../../{map}")),
                PathBuf::from("a.map"),
            ],
        };
        let text = e.to_string();
        assert!(text.len() < 600, "{} bytes", text.len());
        let shown = format!("`{}... (2000000 bytes in all)`", "é".repeat(FIELD_SHOWN));
        assert!(text.contains(&shown), "{text}");
        assert!(text.contains("2000006 bytes in all"), "{text}");
        assert!(text.ends_with(", a.map"), "{text}");
        // Short fields are shown whole.
        assert_eq!(shorten("maps/dao/arena.map"), "maps/dao/arena.map");
        assert_eq!(shorten(&"a".repeat(FIELD_SHOWN)), "a".repeat(FIELD_SHOWN));
    }
}
