//! Moving AI `.scen` scenario files.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use super::{IoError, lines, parse_error, quote, read_bytes};
use crate::{Grid, Point};

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

    /// The map file this scenario names (that of its first query), found on
    /// disk: see [`Scenario::resolve_map`].
    pub fn map_path(&self) -> Result<PathBuf, IoError> {
        match self.queries.first() {
            Some(q) => self.resolve_map(&q.map),
            None => Err(IoError::MapNotFound {
                path: self.path.clone(),
                map: String::new(),
                tried: Vec::new(),
            }),
        }
    }

    /// Finds the file of `map`, a map column of this scenario (like
    /// `maps/dao/arena.map`). With the scenario at `ROOT/scenarios/dao/x.scen`,
    /// tries, in order:
    ///
    /// 1. `map` itself, when it is an absolute path;
    /// 2. `ROOT/<map>`: the map column relative to the Moving AI root, two
    ///    folders above the scenario's folder;
    /// 3. the map's bare file name beside the scenario;
    /// 4. `ROOT/maps/<set>/<name>`, where `<set>` is the map column's folder
    ///    (`dao`) or, when it names none, the scenario's folder.
    ///
    /// Returns the first that exists, or [`IoError::MapNotFound`] listing every
    /// path tried.
    pub fn resolve_map(&self, map: &str) -> Result<PathBuf, IoError> {
        let scen = Path::new(&self.path);
        let dir = match scen.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let root = dir.join("..").join("..");
        let column = Path::new(map);
        let mut tried: Vec<PathBuf> = Vec::new();
        if column.is_absolute() {
            tried.push(column.to_path_buf());
        } else {
            tried.push(root.join(column));
        }
        if let Some(name) = column.file_name() {
            tried.push(dir.join(name));
            let set = column
                .parent()
                .and_then(Path::file_name)
                .or_else(|| dir.file_name());
            if let Some(set) = set {
                tried.push(root.join("maps").join(set).join(name));
            }
        }
        let mut unique: Vec<PathBuf> = Vec::with_capacity(tried.len());
        for p in tried {
            if !unique.contains(&p) {
                unique.push(p);
            }
        }
        let tried = unique;
        match tried.iter().find(|p| p.is_file()) {
            Some(p) => Ok(p.clone()),
            None => Err(IoError::MapNotFound {
                path: self.path.clone(),
                map: map.to_string(),
                tried,
            }),
        }
    }

    /// The highest bucket of any query, `None` when there are no queries.
    pub fn max_bucket(&self) -> Option<u32> {
        self.queries.iter().map(|q| q.bucket).max()
    }

    /// The queries whose bucket passes `buckets`, in file order.
    pub fn select(&self, buckets: BucketFilter) -> Vec<&ScenarioQuery> {
        let keep: Box<dyn Fn(u32) -> bool> = match buckets {
            BucketFilter::All => Box::new(|_| true),
            BucketFilter::Range(lo, hi) => Box::new(move |b| lo <= b && b <= hi),
            BucketFilter::Top(n) => {
                let mut present: Vec<u32> = self.queries.iter().map(|q| q.bucket).collect();
                present.sort_unstable_by(|a, b| b.cmp(a));
                present.dedup();
                match (n as usize).checked_sub(1).and_then(|i| present.get(i)) {
                    Some(&lowest) => Box::new(move |b| b >= lowest),
                    None if n == 0 => Box::new(|_| false),
                    None => Box::new(|_| true),
                }
            }
        };
        self.queries.iter().filter(|q| keep(q.bucket)).collect()
    }
}

/// Which buckets of a scenario to run ([`Scenario::select`]).
///
/// Parses from `all`, `top:N` (the `N` highest buckets present), `A-B` (buckets
/// `A` to `B` inclusive) or `A` (bucket `A` only):
///
/// ```
/// use tierpath::io::BucketFilter;
/// assert_eq!("top:3".parse::<BucketFilter>().unwrap(), BucketFilter::Top(3));
/// assert_eq!("10-20".parse::<BucketFilter>().unwrap(), BucketFilter::Range(10, 20));
/// assert_eq!("7".parse::<BucketFilter>().unwrap(), BucketFilter::Range(7, 7));
/// assert!("top:x".parse::<BucketFilter>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BucketFilter {
    /// Every query.
    #[default]
    All,
    /// Queries in the `n` highest buckets present (the longest paths).
    Top(u32),
    /// Queries whose bucket lies in `lo..=hi`.
    Range(u32, u32),
}

/// A bucket filter that does not parse; the message names the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid bucket filter {}: {reason} (expected `all`, `top:N`, `A-B` or `A`)", quote(.text))]
pub struct BucketFilterError {
    /// The text that did not parse.
    pub text: String,
    /// Why.
    pub reason: String,
}

impl FromStr for BucketFilter {
    type Err = BucketFilterError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason: &str| BucketFilterError {
            text: s.to_string(),
            reason: reason.to_string(),
        };
        let number = |t: &str| -> Result<u32, BucketFilterError> {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(fail("not a whole number"));
            }
            t.parse().map_err(|_| fail("number too large"))
        };
        let t = s.trim();
        if t.eq_ignore_ascii_case("all") {
            return Ok(BucketFilter::All);
        }
        if let Some(n) = t
            .strip_prefix("top:")
            .or_else(|| t.strip_prefix("TOP:"))
            .or_else(|| t.strip_prefix("Top:"))
        {
            let n = number(n)?;
            if n == 0 {
                return Err(fail("top:0 selects nothing"));
            }
            return Ok(BucketFilter::Top(n));
        }
        if let Some((a, b)) = t.split_once('-') {
            let (a, b) = (number(a)?, number(b)?);
            if a > b {
                return Err(fail("the range is empty (first bucket above the last)"));
            }
            return Ok(BucketFilter::Range(a, b));
        }
        let a = number(t)?;
        Ok(BucketFilter::Range(a, a))
    }
}

impl std::fmt::Display for BucketFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BucketFilter::All => f.write_str("all"),
            BucketFilter::Top(n) => write!(f, "top:{n}"),
            BucketFilter::Range(a, b) if a == b => write!(f, "{a}"),
            BucketFilter::Range(a, b) => write!(f, "{a}-{b}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCEN: &str = "version 1\n\
        0\tmaps/dao/arena.map\t4\t3\t0\t0\t1\t1\t1.5\n\
        \n\
        2\tmaps/dao/arena.map\t4\t3\t0\t0\t3\t2\t8.5\n\
        1 maps/dao/arena.map 4 3 3 2 0 0 4.0\n\
        2\tmaps/dao/arena.map\t4\t3\t1\t0\t3\t2\t9\n";

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
        let s = parse_scenario(SCEN.as_bytes(), "s.scen").unwrap();
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
        let crlf = SCEN
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
        let s = parse_scenario(SCEN.as_bytes(), "s.scen").unwrap();
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

    #[test]
    fn buckets() {
        let s = parse_scenario(SCEN.as_bytes(), "s.scen").unwrap();
        let lines = |f: BucketFilter| s.select(f).iter().map(|q| q.line).collect::<Vec<_>>();
        assert_eq!(lines(BucketFilter::All), vec![2, 4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(1)), vec![4, 6]);
        assert_eq!(lines(BucketFilter::Top(2)), vec![4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(9)), vec![2, 4, 5, 6]);
        assert_eq!(lines(BucketFilter::Top(0)), Vec::<usize>::new());
        assert_eq!(lines(BucketFilter::Range(0, 1)), vec![2, 5]);
        assert_eq!(lines(BucketFilter::Range(1, 1)), vec![5]);
        assert_eq!(lines(BucketFilter::Range(3, 9)), Vec::<usize>::new());
    }

    #[test]
    fn bucket_filter_parsing() {
        for (text, want) in [
            ("all", BucketFilter::All),
            (" ALL ", BucketFilter::All),
            ("top:5", BucketFilter::Top(5)),
            ("3-7", BucketFilter::Range(3, 7)),
            ("3 - 7", BucketFilter::Range(3, 7)),
            ("12", BucketFilter::Range(12, 12)),
        ] {
            assert_eq!(text.parse::<BucketFilter>().unwrap(), want, "{text}");
            assert_eq!(want.to_string().parse::<BucketFilter>().unwrap(), want);
        }
        for (text, needle) in [
            ("", "``: not a whole number"),
            ("top:", "`top:`: not a whole number"),
            ("top:0", "selects nothing"),
            ("top:-1", "not a whole number"),
            ("7-3", "`7-3`: the range is empty"),
            ("1-2-3", "not a whole number"),
            ("x", "`x`"),
            ("99999999999", "too large"),
        ] {
            let e = text.parse::<BucketFilter>().unwrap_err();
            assert!(e.to_string().contains(needle), "{text}: {e}");
            assert!(
                e.to_string()
                    .contains("expected `all`, `top:N`, `A-B` or `A`")
            );
        }
    }

    #[test]
    fn map_resolution() {
        let root = std::env::temp_dir().join(format!("tierpath-io-scen-{}", std::process::id()));
        let scen_dir = root.join("scenarios/dao");
        std::fs::create_dir_all(&scen_dir).unwrap();
        std::fs::create_dir_all(root.join("maps/dao")).unwrap();
        let scen_path = scen_dir.join("arena.map.scen");
        let scen = Scenario {
            path: scen_path.display().to_string(),
            queries: parse_scenario(SCEN.as_bytes(), "x").unwrap().queries,
        };
        // Nothing exists yet: the error lists every candidate.
        let e = scen.map_path().unwrap_err();
        match &e {
            IoError::MapNotFound { map, tried, .. } => {
                assert_eq!(map, "maps/dao/arena.map");
                assert_eq!(tried.len(), 2, "{tried:?}"); // ROOT/maps/dao/... is listed once
                assert_eq!(tried[0], scen_dir.join("../../maps/dao/arena.map"));
                assert_eq!(tried[1], scen_dir.join("arena.map"));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string()
                .contains("cannot find map `maps/dao/arena.map`; tried ")
        );
        // Beside the scenario.
        std::fs::write(scen_dir.join("arena.map"), "x").unwrap();
        assert_eq!(scen.map_path().unwrap(), scen_dir.join("arena.map"));
        // In the Moving AI layout, which wins.
        std::fs::write(root.join("maps/dao/arena.map"), "x").unwrap();
        assert_eq!(
            scen.map_path().unwrap(),
            scen_dir.join("../../maps/dao/arena.map")
        );
        // A bare map name: looked up in maps/<scenario folder>/.
        assert_eq!(
            scen.resolve_map("arena.map").unwrap(),
            scen_dir.join("arena.map")
        );
        std::fs::remove_file(scen_dir.join("arena.map")).unwrap();
        assert_eq!(
            scen.resolve_map("arena.map").unwrap(),
            scen_dir.join("../../maps/dao/arena.map")
        );
        let none = Scenario {
            path: "s.scen".into(),
            queries: vec![],
        };
        assert!(
            none.map_path()
                .unwrap_err()
                .to_string()
                .contains("no queries")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
