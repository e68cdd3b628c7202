//! Moving AI `.map` files.

use std::path::Path;

use super::{IoError, line_after_end, lines, parse_error, quote, quote_bytes, read_bytes};
use crate::{Grid, MAX_CELLS, MAX_SIDE, Point};

/// Reads a Moving AI `.map` file (see [`parse_map`]).
pub fn read_map(path: impl AsRef<Path>) -> Result<Grid, IoError> {
    let path = path.as_ref();
    let bytes = read_bytes(path, super::MAX_MAP_BYTES, "Moving AI map")?;
    parse_map(&bytes, &path.display().to_string())
}

/// Parses a Moving AI map: header lines `type octile`, `height H` and `width W`
/// in any order, then `map`, then `H` rows of `W` characters (`.` `G` `S`
/// passable, `@` `O` `T` `W` blocked).
///
/// Tolerates CRLF line endings, blank lines in the header, trailing blanks on
/// any line and blank lines after the last row. Anything else unexpected is an
/// [`IoError::Parse`] naming `origin`, the line and the problem. Never panics,
/// and allocates the grid only once all its rows have been read and checked.
///
/// ```
/// let grid = tierpath::io::parse_map(b"type octile\nheight 2\nwidth 3\nmap\n..@\nT..\n", "<input>").unwrap();
/// assert_eq!((grid.width(), grid.height(), grid.passable_count()), (3, 2, 4));
/// ```
pub fn parse_map(bytes: &[u8], origin: &str) -> Result<Grid, IoError> {
    let err = |line: usize, message: String| parse_error(origin, line, message);
    let mut lines = lines(bytes);

    // ----- header -----
    let mut kind: Option<usize> = None;
    let mut height: Option<u64> = None;
    let mut width: Option<u64> = None;
    let map_line = loop {
        let Some((n, raw)) = lines.next() else {
            return Err(err(
                line_after_end(bytes),
                "the file ends before the `map` line".into(),
            ));
        };
        let line = raw.trim_ascii();
        if line.is_empty() {
            continue;
        }
        let Ok(line) = std::str::from_utf8(line) else {
            return Err(err(
                n,
                format!("header line {} is not valid UTF-8", quote_bytes(line)),
            ));
        };
        let mut words = line.split_ascii_whitespace();
        let key = words.next().unwrap_or_default();
        let value = words.next();
        if let Some(extra) = words.next() {
            return Err(err(
                n,
                format!("unexpected {} after the header field `{key}`", quote(extra)),
            ));
        }
        match (key, value) {
            ("map", None) => break n,
            ("type", Some(v)) => {
                if kind.replace(n).is_some() {
                    return Err(err(n, "duplicated header field `type`".into()));
                }
                if v != "octile" {
                    return Err(err(
                        n,
                        format!("unsupported map type {} (expected `octile`)", quote(v)),
                    ));
                }
            }
            ("height", Some(v)) => {
                if height
                    .replace(parse_side("height", v, n, origin)?)
                    .is_some()
                {
                    return Err(err(n, "duplicated header field `height`".into()));
                }
            }
            ("width", Some(v)) => {
                if width.replace(parse_side("width", v, n, origin)?).is_some() {
                    return Err(err(n, "duplicated header field `width`".into()));
                }
            }
            ("type" | "height" | "width", None) => {
                return Err(err(n, format!("header field `{key}` has no value")));
            }
            ("map", Some(v)) => {
                return Err(err(n, format!("unexpected {} after `map`", quote(v))));
            }
            _ => {
                return Err(err(
                    n,
                    format!(
                        "unexpected header line {} (expected `type`, `height`, `width` or `map`)",
                        quote(line)
                    ),
                ));
            }
        }
    };
    let missing = |field: &str| err(map_line, format!("the header has no `{field}` line"));
    if kind.is_none() {
        return Err(missing("type"));
    }
    let h = height.ok_or_else(|| missing("height"))?;
    let w = width.ok_or_else(|| missing("width"))?;
    if h * w > MAX_CELLS {
        return Err(err(
            map_line,
            format!("a {w}x{h} map is too large (at most {MAX_CELLS} cells)"),
        ));
    }
    let (w, h) = (w as usize, h as usize);

    // ----- rows: checked and collected before anything is allocated by size -----
    let mut rows: Vec<&[u8]> = Vec::new();
    while rows.len() < h {
        let Some((n, raw)) = lines.next() else {
            return Err(err(
                line_after_end(bytes),
                format!("the map ends after {} of its {h} rows", rows.len()),
            ));
        };
        let row = raw.trim_ascii_end();
        if let Some(column) = row.iter().position(|b| cell(*b).is_none()) {
            return Err(err(
                n,
                format!(
                    "column {}: unknown map character {}",
                    column + 1,
                    describe_char(&row[column..])
                ),
            ));
        }
        if row.len() != w {
            return Err(err(
                n,
                format!(
                    "row {} has {} cells, expected {w}",
                    rows.len() + 1,
                    row.len()
                ),
            ));
        }
        rows.push(row);
    }
    if let Some((n, _)) = lines.find(|(_, l)| !l.trim_ascii().is_empty()) {
        return Err(err(
            n,
            format!("unexpected text after the last of the {h} map rows"),
        ));
    }

    Grid::from_fn(w as u32, h as u32, |p: Point| {
        cell(rows[p.y as usize][p.x as usize]) == Some(true)
    })
    .map_err(|e| err(map_line, e.to_string()))
}

/// Passability of a map character, `None` for an unknown one.
fn cell(b: u8) -> Option<bool> {
    match b {
        b'.' | b'G' | b'S' => Some(true),
        b'@' | b'O' | b'T' | b'W' => Some(false),
        _ => None,
    }
}

/// The character at the start of `rest` (which may be invalid UTF-8), quoted.
fn describe_char(rest: &[u8]) -> String {
    let len = rest.len().min(4);
    let ch = (1..=len)
        .find_map(|n| std::str::from_utf8(&rest[..n]).ok())
        .and_then(|s| s.chars().next());
    match ch {
        Some(c) => format!("{c:?}"),
        None => format!("byte 0x{:02x}", rest.first().copied().unwrap_or(0)),
    }
}

/// A `height` or `width` value: a number from 1 to `MAX_SIDE`.
fn parse_side(field: &str, value: &str, line: usize, origin: &str) -> Result<u64, IoError> {
    let bad = |why: String| parse_error(origin, line, format!("`{field}` {why}"));
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!("{} is not a whole number", quote(value))));
    }
    match value.parse::<u64>() {
        Ok(0) => Err(bad(
            "is zero: a map needs at least one row and column".into()
        )),
        Ok(v) if v <= MAX_SIDE as u64 => Ok(v),
        _ => Err(bad(format!(
            "{} is too large (at most {MAX_SIDE})",
            quote(value)
        ))),
    }
}

/// Writes `grid` as a Moving AI map (`type octile`, `.` passable, `@` blocked).
/// Terrain weights are not part of the format and are dropped; see
/// [`write_terrain`](super::write_terrain) to keep them.
pub fn write_map(grid: &Grid, out: &mut impl std::io::Write) -> std::io::Result<()> {
    write!(
        out,
        "type octile\nheight {}\nwidth {}\nmap\n",
        grid.height(),
        grid.width()
    )?;
    let mut row = Vec::with_capacity(grid.width() as usize + 1);
    for y in 0..grid.height() {
        row.clear();
        row.extend((0..grid.width()).map(|x| {
            if grid.is_passable(Point::new(x, y)) {
                b'.'
            } else {
                b'@'
            }
        }));
        row.push(b'\n');
        out.write_all(&row)?;
    }
    Ok(())
}

/// Writes `grid` to a Moving AI map file (see [`write_map`]).
pub fn save_map(grid: &Grid, path: impl AsRef<Path>) -> Result<(), IoError> {
    let path = path.as_ref();
    let write = || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        write_map(grid, &mut out)?;
        std::io::Write::flush(&mut out)
    };
    write().map_err(|source| IoError::Write {
        path: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "type octile\nheight 3\nwidth 4\nmap\n.G@.\nS.TO\n..W.\n";

    fn parse_err(text: &[u8]) -> (usize, String) {
        match parse_map(text, "t.map") {
            Err(IoError::Parse {
                path,
                line,
                message,
            }) => {
                assert_eq!(path, "t.map");
                (line, message)
            }
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    fn expect(text: &str, line: usize, needle: &str) {
        let (l, m) = parse_err(text.as_bytes());
        assert_eq!(l, line, "wrong line for {needle:?}: {m}");
        assert!(m.contains(needle), "{m:?} does not contain {needle:?}");
    }

    #[test]
    fn parses_all_characters() {
        let g = parse_map(SMALL.as_bytes(), "<input>").unwrap();
        assert_eq!((g.width(), g.height()), (4, 3));
        assert_eq!(g.to_ascii(), "..@.\n..@@\n..@.\n");
        assert!(!g.is_weighted());
    }

    #[test]
    fn tolerant_header() {
        let text = "\r\nwidth 4  \r\n\r\ntype   octile\r\nheight\t3\r\nmap \r\n.G@. \r\nS.TO\r\n..W.\r\n\r\n  \n";
        let g = parse_map(text.as_bytes(), "<input>").unwrap();
        assert_eq!(g, parse_map(SMALL.as_bytes(), "<input>").unwrap());
        // No final newline.
        let g2 = parse_map(SMALL.trim_end().as_bytes(), "<input>").unwrap();
        assert_eq!(g, g2);
    }

    #[test]
    fn round_trip() {
        let g = Grid::from_ascii("..@@.\n@...@\n.....\n").unwrap();
        let mut out = Vec::new();
        write_map(&g, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out.clone()).unwrap(),
            "type octile\nheight 3\nwidth 5\nmap\n..@@.\n@...@\n.....\n"
        );
        assert_eq!(parse_map(&out, "<input>").unwrap(), g);
    }

    #[test]
    fn save_and_read() {
        let dir = std::env::temp_dir().join(format!("tierpath-io-map-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.map");
        let g = Grid::from_ascii(".@.\n...\n").unwrap();
        save_map(&g, &path).unwrap();
        assert_eq!(read_map(&path).unwrap(), g);
        let e = save_map(&g, dir.join("no/such/dir/g.map")).unwrap_err();
        assert!(matches!(e, IoError::Write { .. }), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn header_errors() {
        expect("", 1, "ends before the `map` line");
        expect(
            "type octile\nheight 1\nwidth 1\n",
            4,
            "ends before the `map` line",
        );
        expect("type octile\nheight 1\nmap\n.\n", 3, "no `width`");
        expect("type octile\nwidth 1\nmap\n.\n", 3, "no `height`");
        expect("height 1\nwidth 1\nmap\n.\n", 3, "no `type`");
        expect(
            "type octile\ntype octile\n",
            2,
            "duplicated header field `type`",
        );
        expect(
            "height 1\nwidth 1\nheight 2\n",
            3,
            "duplicated header field `height`",
        );
        expect("width 1\nwidth 1\n", 2, "duplicated header field `width`");
        expect("type hex\n", 1, "unsupported map type `hex`");
        expect("type octile\nheight\n", 2, "`height` has no value");
        expect("height 2 3\n", 1, "unexpected `3`");
        expect("map now\n", 1, "unexpected `now` after `map`");
        expect(
            "type octile\nsize 3\n",
            2,
            "unexpected header line `size 3`",
        );
        expect("height x1\n", 1, "`height` `x1` is not a whole number");
        expect("height -1\n", 1, "not a whole number");
        expect("width 1.5\n", 1, "not a whole number");
        expect("height 0\n", 1, "`height` is zero");
        expect("width 65536\n", 1, "too large");
        expect("width 99999999999999999999999999\n", 1, "too large");
        expect(
            "type octile\nheight 65535\nwidth 65535\nmap\n",
            4,
            "too large (at most 268435456 cells)",
        );
        let (line, m) = parse_err(b"type octile\n\xff\xfe 3\n");
        assert_eq!(line, 2);
        assert!(m.contains("not valid UTF-8"), "{m}");
    }

    #[test]
    fn row_errors() {
        let head = "type octile\nheight 2\nwidth 3\nmap\n";
        expect(
            &format!("{head}...\n.x.\n"),
            6,
            "column 2: unknown map character 'x'",
        );
        expect(
            &format!("{head}...\n.é.\n"),
            6,
            "column 2: unknown map character 'é'",
        );
        expect(
            &format!("{head}.. .\n...\n"),
            5,
            "column 3: unknown map character ' '",
        );
        let (line, m) = parse_err(format!("{head}...\n.\u{ff}").as_bytes());
        assert_eq!(line, 6);
        assert!(m.contains("column 2"), "{m}");
        let (line, m) = parse_err(&[head.as_bytes(), b"...\n.\xff."].concat());
        assert_eq!(line, 6);
        assert!(m.contains("byte 0xff"), "{m}");
        expect(
            &format!("{head}...\n....\n"),
            6,
            "row 2 has 4 cells, expected 3",
        );
        expect(
            &format!("{head}..\n...\n"),
            5,
            "row 1 has 2 cells, expected 3",
        );
        expect(&format!("{head}...\n\n...\n"), 6, "row 2 has 0 cells");
        expect(&format!("{head}...\n"), 6, "ends after 1 of its 2 rows");
        expect(head, 5, "ends after 0 of its 2 rows");
        expect(
            &format!("{head}...\n...\n...\n"),
            7,
            "unexpected text after the last",
        );
        expect(
            &format!("{head}...\n...\n\n\n@\n"),
            9,
            "unexpected text after the last",
        );
    }

    #[test]
    fn huge_header_allocates_nothing() {
        // 16384 x 16384 is allowed, but the rows are missing: an error, quickly.
        expect(
            "type octile\nheight 16384\nwidth 16384\nmap\n...\n",
            5,
            "row 1 has 3 cells, expected 16384",
        );
    }
}
