//! Moving AI `.scen` scenario files: the queries, read and parsed, and
//! checked against their map. Finding a scenario's map file on disk is in
//! `scenario/map_file.rs`, choosing queries by length bucket in
//! `scenario/buckets.rs`.

mod buckets;
mod map_file;

use std::path::Path;

use super::{IoError, lines, parse_error, quote, read_bytes};
use crate::{Grid, Point};
pub use buckets::{BucketFilter, BucketFilterError};

/// One query of a scenario file: find a path from `start` to `goal` on `map`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioQuery {
    /// 1-based line of the query in its file.
    pub line: usize,
    /// Length bucket: bucket `b` holds optimal lengths in `[4b, 4b + 4)`.
    pub bucket: u32,
    /// The map, as the scenario names it (like `maps/dao/arena.map`).
    pub map: String,
    /// The map's width, as the scenario states it.
    pub width: u32,
    /// The map's height, as the scenario states it.
    pub height: u32,
    /// Start cell.
    pub start: Point,
    /// Goal cell.
    pub goal: Point,
    /// Length of a shortest octile path (straight 1, diagonal sqrt 2, no corner
    /// cutting), as printed in the file (rounded).
    pub optimal: f64,
}

/// A Moving AI scenario file: a list of queries on one map.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Where the scenario came from (its file, or the origin given to
    /// [`parse_scenario`]); map paths are resolved relative to it.
    pub path: String,
    /// The queries, in file order.
    pub queries: Vec<ScenarioQuery>,
}

/// Reads a Moving AI `.scen` file (see [`parse_scenario`]).
pub fn read_scenario(path: impl AsRef<Path>) -> Result<Scenario, IoError> {
    let path = path.as_ref();
    let bytes = read_bytes(path, super::MAX_SCENARIO_BYTES, "scenario")?;
    parse_scenario(&bytes, &path.display().to_string())
}

/// The nine fields of a query line, in order, as named in error messages.
const FIELDS: [&str; 9] = [
    "bucket",
    "map",
    "map_width",
    "map_height",
    "start_x",
    "start_y",
    "goal_x",
    "goal_y",
    "optimal_length",
];

/// Parses a Moving AI scenario: a first line `version 1` (or `version 1.0`),
/// then one query per line, nine fields separated by tabs (or, on a line without
/// tabs, by spaces): `bucket map map_width map_height start_x start_y goal_x
/// goal_y optimal_length`. Blank lines are skipped.
///
/// Errors name `origin`, the line and the field: a wrong number of fields, a
/// field that is not a non-negative whole number (`optimal_length`: a finite,
/// non-negative number), or an endpoint outside the map size the line itself
/// states. Never panics.
///
/// ```
/// let s = tierpath::io::parse_scenario(
///     b"version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n", "<input>").unwrap();
/// assert_eq!(s.queries[0].goal, tierpath::Point::new(1, 12));
/// ```
pub fn parse_scenario(bytes: &[u8], origin: &str) -> Result<Scenario, IoError> {
    let err = |line: usize, message: String| parse_error(origin, line, message);
    let mut queries = Vec::new();
    let mut seen_version = false;
    for (n, raw) in lines(bytes) {
        let Ok(line) = std::str::from_utf8(raw) else {
            return Err(err(n, "line is not valid UTF-8".into()));
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if !seen_version {
            let mut words = line.split_whitespace();
            match (words.next(), words.next(), words.next()) {
                (Some("version"), Some("1" | "1.0"), None) => {
                    seen_version = true;
                    continue;
                }
                (Some("version"), Some(v), None) => {
                    return Err(err(
                        n,
                        format!("unsupported scenario version {} (expected 1)", quote(v)),
                    ));
                }
                _ => {
                    return Err(err(
                        n,
                        format!(
                            "expected the first line to be `version 1`, found {}",
                            quote(line)
                        ),
                    ));
                }
            }
        }
        let fields: Vec<&str> = if line.contains('\t') {
            line.split('\t').map(str::trim).collect()
        } else {
            line.split_whitespace().collect()
        };
        if fields.len() != FIELDS.len() {
            return Err(err(
                n,
                format!(
                    "expected {} fields ({}), found {}",
                    FIELDS.len(),
                    FIELDS.join(" "),
                    fields.len()
                ),
            ));
        }
        let int = |i: usize| -> Result<u32, IoError> {
            let text = fields[i];
            let why = if text.starts_with('-') && text.len() > 1 {
                "is negative"
            } else {
                match text.parse::<u32>() {
                    Ok(v) => return Ok(v),
                    Err(_) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
                        "is too large"
                    }
                    Err(_) => "is not a whole number",
                }
            };
            Err(err(
                n,
                format!("field `{}`: {} {why}", FIELDS[i], quote(text)),
            ))
        };
        let bucket = int(0)?;
        let map = fields[1];
        if map.is_empty() {
            return Err(err(n, "field `map` is empty".into()));
        }
        let width = int(2)?;
        let height = int(3)?;
        let start = Point::new(int(4)?, int(5)?);
        let goal = Point::new(int(6)?, int(7)?);
        let text = fields[8];
        let optimal = match text.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => v,
            Ok(v) if v.is_finite() => {
                return Err(err(
                    n,
                    format!("field `optimal_length`: {} is negative", quote(text)),
                ));
            }
            Ok(_) => {
                return Err(err(
                    n,
                    format!("field `optimal_length`: {} is not finite", quote(text)),
                ));
            }
            Err(_) => {
                return Err(err(
                    n,
                    format!("field `optimal_length`: {} is not a number", quote(text)),
                ));
            }
        };
        for (name, p) in [("start", start), ("goal", goal)] {
            if p.x >= width || p.y >= height {
                return Err(err(
                    n,
                    format!("{name} {p} is outside the {width}x{height} map the line states"),
                ));
            }
        }
        queries.push(ScenarioQuery {
            line: n,
            bucket,
            map: map.to_string(),
            width,
            height,
            start,
            goal,
            optimal,
        });
    }
    if !seen_version {
        return Err(err(
            1,
            "the scenario is empty: expected a first line `version 1`".into(),
        ));
    }
    Ok(Scenario {
        path: origin.to_string(),
        queries,
    })
}

impl Scenario {
    /// Checks every query against `grid`: an [`IoError::Mismatch`] naming the
    /// scenario file, the query's line and the problem when the map size the
    /// query states differs from the grid's, or an endpoint is off the grid.
    /// Blocked endpoints are not an error here: searches report them per query.
    pub fn check_against(&self, grid: &Grid) -> Result<(), IoError> {
        for q in &self.queries {
            let mismatch = |message: String| IoError::Mismatch {
                path: self.path.clone(),
                line: q.line,
                message,
            };
            if (q.width, q.height) != (grid.width(), grid.height()) {
                return Err(mismatch(format!(
                    "the query is for a {}x{} map, but `{}` is {}x{}",
                    q.width,
                    q.height,
                    q.map,
                    grid.width(),
                    grid.height()
                )));
            }
            for (name, p) in [("start", q.start), ("goal", q.goal)] {
                if !grid.contains(p) {
                    return Err(mismatch(format!(
                        "{name} {p} is off the {}x{} map",
                        grid.width(),
                        grid.height()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// A small scenario for the tests of this module and its submodules: four
/// queries on lines 2, 4, 5 and 6 (buckets 0, 2, 1, 2), tabs and spaces.
#[cfg(test)]
const TEST_SCEN: &str = "version 1\n\
    0\tmaps/dao/arena.map\t4\t3\t0\t0\t1\t1\t1.5\n\
    \n\
    2\tmaps/dao/arena.map\t4\t3\t0\t0\t3\t2\t8.5\n\
    1 maps/dao/arena.map 4 3 3 2 0 0 4.0\n\
    2\tmaps/dao/arena.map\t4\t3\t1\t0\t3\t2\t9\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(text: impl AsRef<[u8]>, line: usize, needle: &str) {
        let text = text.as_ref();
        match parse_scenario(text, "s.scen") {
            Err(IoError::Parse {
                path,
                line: l,
                message,
            }) => {
                assert_eq!(path, "s.scen");
                assert_eq!(l, line, "wrong line for {needle:?}: {message}");
                assert!(
                    message.contains(needle),
                    "{message:?} does not contain {needle:?}"
                );
            }
            other => panic!(
                "expected a parse error for {:?}, got {other:?}",
                String::from_utf8_lossy(text)
            ),
        }
    }

    #[test]
    fn parses_queries() {
        let s = parse_scenario(TEST_SCEN.as_bytes(), "s.scen").unwrap();
        assert_eq!(s.path, "s.scen");
        assert_eq!(s.queries.len(), 4);
        assert_eq!(
            s.queries[0],
            ScenarioQuery {
                line: 2,
                bucket: 0,
                map: "maps/dao/arena.map".into(),
                width: 4,
                height: 3,
                start: Point::new(0, 0),
                goal: Point::new(1, 1),
                optimal: 1.5,
            }
        );
        assert_eq!(s.queries[2].line, 5);
        assert_eq!(s.queries[2].start, Point::new(3, 2));
        assert_eq!(s.max_bucket(), Some(2));
        let crlf = TEST_SCEN
            .replace('\n', "\r\n")
            .replace("version 1", "version 1.0");
        assert_eq!(parse_scenario(crlf.as_bytes(), "s.scen").unwrap(), s);
        let empty = parse_scenario(b"version 1\n", "<input>").unwrap();
        assert!(empty.queries.is_empty());
        assert_eq!(empty.max_bucket(), None);
    }

    #[test]
    fn errors_name_line_and_field() {
        let q = |fields: &str| format!("version 1\n\n{fields}\n");
        expect("", 1, "scenario is empty");
        expect("\n\n", 1, "scenario is empty");
        expect(
            "0\tm\t1\t1\t0\t0\t0\t0\t0\n",
            1,
            "first line to be `version 1`",
        );
        expect("version 2\n", 1, "unsupported scenario version `2`");
        expect(b"version 1\n\xff\n", 2, "not valid UTF-8");
        expect(q("0\tm\t4\t3\t0\t0\t1\t1"), 3, "expected 9 fields");
        expect(q("0\tm\t4\t3\t0\t0\t1\t1\t1\t1"), 3, "found 10");
        expect(
            q("x\tm\t4\t3\t0\t0\t1\t1\t1"),
            3,
            "field `bucket`: `x` is not a whole number",
        );
        expect(q("0\t\t4\t3\t0\t0\t1\t1\t1"), 3, "field `map` is empty");
        expect(q("0\tm\t4.5\t3\t0\t0\t1\t1\t1"), 3, "field `map_width`");
        expect(
            q("0\tm\t4\t99999999999\t0\t0\t1\t1\t1"),
            3,
            "field `map_height`: `99999999999` is too large",
        );
        expect(
            q("0\tm\t4\t3\t-1\t0\t1\t1\t1"),
            3,
            "field `start_x`: `-1` is negative",
        );
        expect(
            q("0\tm\t4\t3\t0\t\t1\t1\t1"),
            3,
            "field `start_y`: `` is not a whole number",
        );
        expect(q("0\tm\t4\t3\t0\t0\t+\t1\t1"), 3, "field `goal_x`");
        expect(q("0\tm\t4\t3\t0\t0\t1\ty\t1"), 3, "field `goal_y`");
        expect(
            q("0\tm\t4\t3\t0\t0\t1\t1\tabc"),
            3,
            "field `optimal_length`: `abc` is not a number",
        );
        expect(
            q("0\tm\t4\t3\t0\t0\t1\t1\t-2.5"),
            3,
            "field `optimal_length`: `-2.5` is negative",
        );
        expect(q("0\tm\t4\t3\t0\t0\t1\t1\tinf"), 3, "`inf` is not finite");
        expect(q("0\tm\t4\t3\t0\t0\t1\t1\tNaN"), 3, "`NaN` is not finite");
        expect(
            q("0\tm\t4\t3\t4\t0\t1\t1\t1"),
            3,
            "start (4, 0) is outside the 4x3 map",
        );
        expect(
            q("0\tm\t4\t3\t0\t0\t1\t3\t1"),
            3,
            "goal (1, 3) is outside the 4x3 map",
        );
        expect(q("0\tm\t0\t3\t0\t0\t0\t0\t0"), 3, "outside the 0x3 map");
    }

    #[test]
    fn check_against_grid() {
        let s = parse_scenario(TEST_SCEN.as_bytes(), "s.scen").unwrap();
        let mut g = Grid::new(4, 3).unwrap();
        g.set_passable(Point::new(0, 0), false).unwrap(); // blocked endpoints are fine
        s.check_against(&g).unwrap();
        let e = s.check_against(&Grid::new(5, 3).unwrap()).unwrap_err();
        assert!(matches!(e, IoError::Mismatch { line: 2, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "s.scen:2: the query is for a 4x3 map, but `maps/dao/arena.map` is 5x3"
        );
        // An endpoint off the grid (possible only for a hand-built scenario).
        let mut s2 = s.clone();
        s2.queries[1].goal = Point::new(9, 9);
        let e = s2.check_against(&g).unwrap_err();
        assert_eq!(e.to_string(), "s.scen:4: goal (9, 9) is off the 4x3 map");
    }
}
