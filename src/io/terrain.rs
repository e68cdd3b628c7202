//! The project's terrain text format (specified in the [module docs](super)).

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::path::Path;

use super::{IoError, parse_error, quote, read_bytes};
use crate::{Grid, MAX_CELLS, MAX_SIDE, Point, Weight};

/// The default legend: character, name, weight (`None` for a wall).
const DEFAULT_LEGEND: [(char, &str, Option<Weight>); 6] = [
    ('.', "grass", Some(Weight(100))),
    ('=', "road", Some(Weight(50))),
    ('~', "swamp", Some(Weight(200))),
    ('*', "snow", Some(Weight(300))),
    ('#', "wall", None),
    ('@', "wall", None),
];

/// Reads a map in the [terrain text format](super#the-terrain-text-format).
pub fn read_terrain(path: impl AsRef<Path>) -> Result<Grid, IoError> {
    let path = path.as_ref();
    let origin = path.display().to_string();
    let bytes = read_bytes(path, super::MAX_TERRAIN_BYTES, "terrain map")?;
    parse_terrain_bytes(&bytes, &origin)
}

/// [`parse_terrain`] on raw bytes: text that is not UTF-8 is an error naming
/// the line of the first bad byte.
pub(crate) fn parse_terrain_bytes(bytes: &[u8], origin: &str) -> Result<Grid, IoError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_terrain(text, origin),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            Err(parse_error(origin, line, "text is not valid UTF-8"))
        }
    }
}

/// The lines of `text` with their 1-based numbers, without `\n` or `\r\n`.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    (!text.is_empty())
        .then(|| body.split('\n'))
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

/// A legend entry: the weight of the terrain (`None` for a wall) and the line
/// that declared it (0 for the default legend).
type Legend = HashMap<char, (Option<Weight>, usize)>;

/// Parses a map in the [terrain text format](super#the-terrain-text-format):
/// an optional `legend` section, then `map` and the rows. Errors are
/// [`IoError::Parse`] naming `origin`, the line and the problem. Never panics.
///
/// ```
/// use tierpath::{Point, Weight, io::parse_terrain};
/// let grid = parse_terrain("legend\n. grass 1\n% mud 2.5\nX wall\nmap\n.%X\n", "<input>").unwrap();
/// assert_eq!(grid.weight(Point::new(1, 0)), Weight(250));
/// assert!(!grid.is_passable(Point::new(2, 0)));
/// ```
pub fn parse_terrain(text: &str, origin: &str) -> Result<Grid, IoError> {
    let err = |line: usize, message: String| parse_error(origin, line, message);
    let mut lines = numbered_lines(text);
    let mut legend: Option<Legend> = None;
    // A hint for a line like `# some comment` inside the legend.
    let hint = |ch: char| {
        if ch == '#' {
            " (inside the legend `#` is a map character: start a comment with `##`)"
        } else {
            ""
        }
    };

    // ----- preamble and legend -----
    let mut map_line = None;
    for (n, raw) in lines.by_ref() {
        let line = raw.trim();
        if line == "map" {
            map_line = Some(n);
            break;
        }
        let Some(entries) = legend.as_mut() else {
            match line {
                "" => {}
                "legend" => legend = Some(Legend::new()),
                _ if line.starts_with('#') => {}
                _ => {
                    return Err(err(
                        n,
                        format!(
                            "expected `legend` or `map` (or a comment starting with '#'), found {}",
                            quote(line)
                        ),
                    ));
                }
            }
            continue;
        };
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            continue; // blank line
        };
        let mut chars = first.chars();
        let (Some(ch), None) = (chars.next(), chars.next()) else {
            if first.starts_with('#') {
                continue; // a legend comment: `##...` or `#text`
            }
            return Err(err(
                n,
                format!(
                    "a legend entry starts with a single character, found {} (comments in the legend start with `##`)",
                    quote(first)
                ),
            ));
        };
        let weight = match (words.next(), words.next(), words.next()) {
            (None, _, _) => {
                return Err(err(n, format!("legend entry {ch:?} has no name and cost")));
            }
            (Some("wall"), None, _) | (Some(_), Some("wall"), None) => None,
            (Some(name), None, _) => {
                return Err(err(
                    n,
                    format!(
                        "legend entry {ch:?} {} has no cost (a multiplier such as 1 or 0.5, or `wall`){}",
                        quote(name),
                        hint(ch)
                    ),
                ));
            }
            (Some(_), Some(cost), None) => {
                let Ok(m) = cost.parse::<f64>() else {
                    return Err(err(
                        n,
                        format!(
                            "legend entry {ch:?}: cost {} is not a number or `wall`{}",
                            quote(cost),
                            hint(ch)
                        ),
                    ));
                };
                match Weight::from_multiplier(m) {
                    Some(w) => Some(w),
                    None => {
                        return Err(err(
                            n,
                            format!(
                                "legend entry {ch:?}: cost multiplier {} does not fit (must be from 0.01 to 655.35; use `wall` for impassable)",
                                quote(cost)
                            ),
                        ));
                    }
                }
            }
            (Some(_), Some(_), Some(extra)) => {
                return Err(err(
                    n,
                    format!(
                        "legend entry {ch:?}: unexpected {} after the cost{}",
                        quote(extra),
                        hint(ch)
                    ),
                ));
            }
        };
        if let Some((_, before)) = entries.insert(ch, (weight, n)) {
            return Err(err(
                n,
                format!("legend character {ch:?} is already declared on line {before}"),
            ));
        }
    }
    let Some(map_line) = map_line else {
        return Err(err(
            super::line_after_end(text.as_bytes()),
            "the text ends before the `map` line".into(),
        ));
    };
    let explicit = legend.is_some();
    let legend = legend.unwrap_or_else(|| {
        DEFAULT_LEGEND
            .iter()
            .map(|(c, _, w)| (*c, (*w, 0)))
            .collect()
    });

    // ----- rows: checked before the grid is allocated -----
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut blank: Option<usize> = None;
    let mut width = 0usize;
    for (n, raw) in lines {
        let row = raw.trim();
        if row.is_empty() {
            blank.get_or_insert(n);
            continue;
        }
        if let Some(b) = blank {
            return Err(err(
                b,
                "blank line inside the map (blank lines may only follow the last row)".into(),
            ));
        }
        let mut count = 0usize;
        for (i, ch) in row.chars().enumerate() {
            if !legend.contains_key(&ch) {
                return Err(err(
                    n,
                    format!(
                        "column {}: map character {ch:?} is not in the {}legend",
                        i + 1,
                        if explicit { "" } else { "default " }
                    ),
                ));
            }
            count += 1;
        }
        if rows.is_empty() {
            width = count;
        } else if count != width {
            return Err(err(
                n,
                format!(
                    "row {} has {count} cells, expected {width} (the first row's length)",
                    rows.len() + 1
                ),
            ));
        }
        rows.push((n, row));
    }
    let height = rows.len();
    if height == 0 {
        return Err(err(map_line, "the map has no rows".into()));
    }
    if width > MAX_SIDE as usize
        || height > MAX_SIDE as usize
        || (width as u64) * (height as u64) > MAX_CELLS
    {
        return Err(err(
            map_line,
            format!(
                "a {width}x{height} map is too large (at most {MAX_SIDE} per side and {MAX_CELLS} cells)"
            ),
        ));
    }

    let mut grid =
        Grid::new(width as u32, height as u32).map_err(|e| err(map_line, e.to_string()))?;
    for (y, (n, row)) in rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate() {
            let p = Point::new(x as u32, y as u32);
            let done = match legend.get(&ch) {
                Some((None, _)) => grid.set_passable(p, false),
                Some((Some(w), _)) => grid.set_weight(p, *w),
                None => Ok(()), // unreachable: every character was checked
            };
            done.map_err(|e| err(*n, e.to_string()))?;
        }
    }
    Ok(grid)
}

/// Writes `grid` in the [terrain text format](super#the-terrain-text-format),
/// with a legend of one entry per weight used (the default characters and
/// names for the default weights, `#` for walls).
///
/// The result parses back ([`parse_terrain`]) to a grid with the same size,
/// passability and passable-cell weights: the same
/// [`fingerprint`](Grid::fingerprint).
pub fn write_terrain(grid: &Grid) -> String {
    let points =
        || (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)));
    let weights: BTreeSet<u16> = points()
        .filter(|p| grid.is_passable(*p))
        .map(|p| grid.weight(p).0)
        .collect();
    let has_walls = points().any(|p| !grid.is_passable(p));

    // Characters: the defaults for default weights, then fresh ones.
    let mut fresh = ('a'..='z')
        .chain('A'..='Z')
        .chain('0'..='9')
        .chain("+-%&$!?:;<>^_|/\\()[]{}',\"`".chars())
        .chain((0xC0..=0x10_FFFF).filter_map(char::from_u32))
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .filter(|c| !DEFAULT_LEGEND.iter().any(|(d, _, _)| d == c));
    let mut chars: HashMap<u16, char> = HashMap::new();
    let mut out = format!(
        "# {}x{} terrain map written by tierpath\nlegend\n",
        grid.width(),
        grid.height()
    );
    for &w in &weights {
        let (ch, name) = match DEFAULT_LEGEND
            .iter()
            .find(|(_, _, d)| *d == Some(Weight(w)))
        {
            Some((c, name, _)) => (*c, *name),
            // More fresh characters exist than there are weights.
            None => (fresh.next().unwrap_or('?'), "terrain"),
        };
        chars.insert(w, ch);
        let _ = writeln!(out, "{ch} {name} {}", Weight(w).multiplier());
    }
    if has_walls {
        out.push_str("# wall\n");
    }
    out.push_str("map\n");
    out.reserve((grid.width() as usize + 1) * grid.height() as usize);
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let p = Point::new(x, y);
            out.push(if grid.is_passable(p) {
                chars.get(&grid.weight(p).0).copied().unwrap_or('?')
            } else {
                '#'
            });
        }
        out.push('\n');
    }
    out
}

/// Writes `grid` to a file in the terrain text format (see [`write_terrain`]).
pub fn save_terrain(grid: &Grid, path: impl AsRef<Path>) -> Result<(), IoError> {
    let path = path.as_ref();
    std::fs::write(path, write_terrain(grid)).map_err(|source| IoError::Write {
        path: path.display().to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expect(text: &str, line: usize, needle: &str) {
        match parse_terrain(text, "t.txt") {
            Err(IoError::Parse {
                path,
                line: l,
                message,
            }) => {
                assert_eq!(path, "t.txt");
                assert_eq!(l, line, "wrong line for {needle:?}: {message}");
                assert!(
                    message.contains(needle),
                    "{message:?} does not contain {needle:?}"
                );
            }
            other => panic!("expected a parse error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn brief_example() {
        let text = "# comment lines start with '#'\nlegend\n. grass 1\n= road 0.5\n* snow 3\n# wall\nmap\n..*.#..\n..=====\n";
        let g = parse_terrain(text, "<input>").unwrap();
        assert_eq!((g.width(), g.height()), (7, 2));
        assert_eq!(g.weight(Point::new(2, 0)), Weight(300));
        assert_eq!(g.weight(Point::new(2, 1)), Weight(50));
        assert_eq!(g.weight(Point::new(0, 0)), Weight::ONE);
        assert!(!g.is_passable(Point::new(4, 0)));
        assert_eq!(g.passable_count(), 13);
        assert_eq!(g.min_weight(), Weight(50));
    }

    #[test]
    fn default_legend() {
        let g = parse_terrain("\n# hi\nmap\r\n.=~*#@\r\n\r\n", "<input>").unwrap();
        let w: Vec<_> = (0..4).map(|x| g.weight(Point::new(x, 0)).0).collect();
        assert_eq!(w, vec![100, 50, 200, 300]);
        assert!(!g.is_passable(Point::new(4, 0)) && !g.is_passable(Point::new(5, 0)));
        // No weights other than one: an unweighted grid.
        assert!(!parse_terrain("map\n.#\n", "<input>").unwrap().is_weighted());
    }

    #[test]
    fn legend_syntax() {
        let text = "legend\n\n## a comment\n#another\n  .   plain   1  \nX rock wall\n# wall\né ice 0.75\nmap\n  .Xé#  \n";
        let g = parse_terrain(text, "<input>").unwrap();
        assert_eq!(g.width(), 4);
        assert_eq!(g.weight(Point::new(2, 0)), Weight(75));
        assert_eq!(g.passable_count(), 2);
    }

    #[test]
    fn round_trips() {
        let text = "map\n..==*~\n#.~~..\n.*.#.=\n";
        let g = parse_terrain(text, "<input>").unwrap();
        let written = write_terrain(&g);
        assert_eq!(
            written,
            "# 6x3 terrain map written by tierpath\nlegend\n= road 0.5\n. grass 1\n~ swamp 2\n* snow 3\n# wall\nmap\n..==*~\n#.~~..\n.*.#.=\n"
        );
        assert_eq!(parse_terrain(&written, "<input>").unwrap(), g);

        // Unusual weights get fresh characters.
        let mut g = Grid::new(5, 2).unwrap();
        for (x, w) in [(0, 1), (1, 137), (2, 65535), (3, 250)] {
            g.set_weight(Point::new(x, 1), Weight(w)).unwrap();
        }
        g.set_passable(Point::new(4, 0), false).unwrap();
        let back = parse_terrain(&write_terrain(&g), "<input>").unwrap();
        assert_eq!(back, g);
        assert_eq!(back.weight(Point::new(2, 1)), Weight::MAX);

        // Many distinct weights.
        let mut g = Grid::new(300, 2).unwrap();
        for x in 0..300 {
            g.set_weight(Point::new(x, 0), Weight(x as u16 + 1))
                .unwrap();
        }
        let back = parse_terrain(&write_terrain(&g), "<input>").unwrap();
        assert_eq!(back.fingerprint(), g.fingerprint());
        assert_eq!(back, g);
    }

    #[test]
    fn save_and_read() {
        let dir = std::env::temp_dir().join(format!("tierpath-io-terrain-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let g = parse_terrain("map\n.=*\n#~.\n", "<input>").unwrap();
        save_terrain(&g, dir.join("t.txt")).unwrap();
        assert_eq!(read_terrain(dir.join("t.txt")).unwrap(), g);
        std::fs::write(dir.join("bad.txt"), b"map\n..\n.\xff\n").unwrap();
        let e = read_terrain(dir.join("bad.txt")).unwrap_err();
        assert!(matches!(e, IoError::Parse { line: 3, .. }), "{e}");
        assert!(matches!(
            save_terrain(&g, dir.join("no/such/t.txt")),
            Err(IoError::Write { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn errors_name_their_line() {
        expect("", 1, "ends before the `map` line");
        expect("# only a comment\n", 2, "ends before the `map` line");
        expect("legend\n. grass 1\n", 3, "ends before the `map` line");
        expect("\nhello\nmap\n.\n", 2, "expected `legend` or `map`");
        expect(
            "legend\nab grass 1\nmap\n.\n",
            2,
            "single character, found `ab`",
        );
        expect(
            "legend\n# comment lines start here\nmap\n.\n",
            2,
            "start a comment with `##`",
        );
        expect(
            "legend\n# comment lines\nmap\n.\n",
            2,
            "cost `lines` is not a number",
        );
        expect("legend\n# comment\nmap\n.\n", 2, "`comment` has no cost");
        expect("legend\n.\nmap\n.\n", 2, "'.' has no name and cost");
        expect("legend\n. grass\nmap\n.\n", 2, "'.' `grass` has no cost");
        expect("legend\n. grass x\nmap\n.\n", 2, "cost `x` is not a number");
        expect("legend\n. grass 0\nmap\n.\n", 2, "`0` does not fit");
        expect("legend\n. grass -1\nmap\n.\n", 2, "`-1` does not fit");
        expect("legend\n. grass 0.001\nmap\n.\n", 2, "does not fit");
        expect("legend\n. grass 700\nmap\n.\n", 2, "`700` does not fit");
        expect("legend\n. grass NaN\nmap\n.\n", 2, "does not fit");
        expect("legend\n. grass inf\nmap\n.\n", 2, "does not fit");
        expect(
            "legend\n. grass 1 2\nmap\n.\n",
            2,
            "unexpected `2` after the cost",
        );
        expect(
            "legend\n. a 1\n\n. b 2\nmap\n.\n",
            4,
            "'.' is already declared on line 2",
        );
        expect("map\n", 1, "the map has no rows");
        expect("map\n\n\n", 1, "the map has no rows");
        expect(
            "map\n..\n.x\n",
            3,
            "column 2: map character 'x' is not in the default legend",
        );
        expect(
            "legend\n. a 1\nmap\n..\n.~\n",
            5,
            "column 2: map character '~' is not in the legend",
        );
        expect("map\n..\n...\n", 3, "row 2 has 3 cells, expected 2");
        expect("map\n..\n\n..\n", 3, "blank line inside the map");
        expect("map\n..\n..\nlegend\n", 4, "column 1");
    }
}
