//! The parsers take untrusted input: whatever the bytes, they return `Ok` or
//! `Err`, never panic, and what they accept round-trips through the writers.

use std::path::Path;

use proptest::prelude::*;
use tierpath::io::{self, BucketFilter};
use tierpath::{Grid, Point, Weight};

const MAP: &str = "type octile\nheight 4\nwidth 6\nmap\n..@...\n.G@TT.\n...S@.\nOW....\n";
const SCEN: &str = "version 1\n0\tmaps/x/a.map\t6\t4\t0\t0\t1\t1\t1.41421\n\
                    1\tmaps/x/a.map\t6\t4\t0\t0\t5\t3\t7.24264\n\
                    1 maps/x/a.map 6 4 5 0 0 3 6.0\n";
const TERRAIN: &str =
    "# t\nlegend\n. grass 1\n= road 0.5\n* snow 3\n## c\n# wall\nmap\n..*.#..\n..=====\n";

/// Runs every parser on `bytes`; checks that accepted input round-trips.
fn exercise(bytes: &[u8]) {
    if let Ok(grid) = io::parse_map(bytes, "<fuzz>") {
        assert!(grid.width() >= 1 && grid.height() >= 1);
        let mut out = Vec::new();
        io::write_map(&grid, &mut out).unwrap();
        assert_eq!(io::parse_map(&out, "<again>").unwrap(), grid);
    }
    if let Ok(scen) = io::parse_scenario(bytes, "<fuzz>") {
        for q in &scen.queries {
            assert!(q.start.x < q.width && q.goal.y < q.height);
            assert!(q.optimal.is_finite() && q.optimal >= 0.0);
        }
        let top = scen.select(BucketFilter::Top(1));
        assert!(top.iter().all(|q| Some(q.bucket) == scen.max_bucket()));
        let _ = scen.map_path();
    }
    let text = String::from_utf8_lossy(bytes);
    if let Ok(grid) = io::parse_terrain(&text, "<fuzz>") {
        let again = io::parse_terrain(&io::write_terrain(&grid), "<again>").unwrap();
        assert_eq!(again.fingerprint(), grid.fingerprint());
    }
}

/// One edit of a valid file.
#[derive(Debug, Clone)]
enum Edit {
    Set(usize, u8),
    Insert(usize, u8),
    InsertToken(usize, &'static str),
    Delete(usize),
    Truncate(usize),
    DuplicateLine(usize),
}

const TOKENS: &[&str] = &[
    "\n",
    "\r\n",
    " ",
    "\t",
    "0",
    "9",
    "-1",
    "65535",
    "65536",
    "99999999999999999999",
    "1e309",
    "NaN",
    "inf",
    "0.001",
    "map",
    "legend",
    "type",
    "octile",
    "height",
    "width",
    "version",
    "1.0",
    "wall",
    "#",
    "##",
    ".",
    "@",
    "=",
    "é",
    "\u{0}",
    "\u{feff}",
];

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Set(i, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Edit::Insert(i, b)),
        (any::<usize>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Edit::InsertToken(i, t)),
        any::<usize>().prop_map(Edit::Delete),
        any::<usize>().prop_map(Edit::Truncate),
        any::<usize>().prop_map(Edit::DuplicateLine),
    ]
}

fn apply(seed: &str, edits: &[Edit]) -> Vec<u8> {
    let mut b = seed.as_bytes().to_vec();
    for e in edits {
        let at = |i: usize, len: usize| i % (len + 1);
        match *e {
            Edit::Set(i, v) if !b.is_empty() => {
                let n = b.len();
                b[i % n] = v;
            }
            Edit::Set(..) => {}
            Edit::Insert(i, v) => b.insert(at(i, b.len()), v),
            Edit::InsertToken(i, t) => {
                let i = at(i, b.len());
                b.splice(i..i, t.bytes());
            }
            Edit::Delete(i) if !b.is_empty() => {
                let n = b.len();
                b.remove(i % n);
            }
            Edit::Delete(_) => {}
            Edit::Truncate(i) => b.truncate(at(i, b.len())),
            Edit::DuplicateLine(i) => {
                let lines: Vec<&[u8]> = b.split_inclusive(|c| *c == b'\n').collect();
                if !lines.is_empty() {
                    let k = i % lines.len();
                    let mut out = Vec::with_capacity(b.len() * 2);
                    for (j, l) in lines.iter().enumerate() {
                        out.extend_from_slice(l);
                        if j == k {
                            out.extend_from_slice(l);
                        }
                    }
                    b = out;
                }
            }
        }
    }
    b
}

/// Text made of the formats' own words, to get past the first checks.
fn tokens() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..60).prop_map(|t| t.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        exercise(&bytes);
    }

    #[test]
    fn token_soup_never_panics(bytes in tokens()) {
        exercise(&bytes);
    }

    #[test]
    fn mutated_map_never_panics(edits in prop::collection::vec(edit(), 1..6)) {
        exercise(&apply(MAP, &edits));
    }

    #[test]
    fn mutated_scenario_never_panics(edits in prop::collection::vec(edit(), 1..6)) {
        exercise(&apply(SCEN, &edits));
    }

    #[test]
    fn mutated_terrain_never_panics(edits in prop::collection::vec(edit(), 1..6)) {
        exercise(&apply(TERRAIN, &edits));
    }

    #[test]
    fn mutated_headers_with_prefixes(prefix in tokens(), edits in prop::collection::vec(edit(), 0..3)) {
        let mut bytes = prefix;
        bytes.extend(apply(MAP, &edits));
        exercise(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Random grids with random weights survive both writers.
    #[test]
    fn random_grids_round_trip(
        w in 1u32..40,
        h in 1u32..40,
        cells in prop::collection::vec((any::<bool>(), prop::sample::select(vec![1u16, 50, 100, 100, 100, 137, 200, 300, 65535])), 1600),
    ) {
        let mut g = Grid::new(w, h).unwrap();
        for y in 0..h {
            for x in 0..w {
                let (open, weight) = cells[(y * 40 + x) as usize];
                let p = Point::new(x, y);
                if open {
                    g.set_weight(p, Weight(weight)).unwrap();
                } else {
                    g.set_passable(p, false).unwrap();
                }
            }
        }
        let back = io::parse_terrain(&io::write_terrain(&g), "<rt>").unwrap();
        prop_assert_eq!(back.fingerprint(), g.fingerprint());
        let mut out = Vec::new();
        io::write_map(&g, &mut out).unwrap();
        let map = io::parse_map(&out, "<rt>").unwrap();
        prop_assert_eq!(map.to_ascii(), g.to_ascii());
    }
}

#[test]
fn seeds_are_valid() {
    io::parse_map(MAP.as_bytes(), "seed").unwrap();
    io::parse_scenario(SCEN.as_bytes(), "seed").unwrap();
    io::parse_terrain(TERRAIN, "seed").unwrap();
}

#[test]
fn example_files_parse() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/examples");
    let terrain = io::read_terrain(dir.join("terrain.txt")).unwrap();
    assert!(terrain.is_weighted());
    assert_eq!(terrain.min_weight(), Weight(50));
    let map = io::read_map(dir.join("small.map")).unwrap();
    let scen = io::read_scenario(dir.join("small.map.scen")).unwrap();
    scen.check_against(&map).unwrap();
    assert_eq!(io::read_map(scen.map_path().unwrap()).unwrap(), map);
}

/// The Moving AI subset, when present: every map and scenario parses, and every
/// scenario finds its map and fits it.
#[test]
fn movingai_subset_parses() {
    let Some(root) = crate::common::movingai_root() else {
        return;
    };
    let mut checked = 0;
    for set in std::fs::read_dir(root.join("scenarios")).unwrap() {
        for file in std::fs::read_dir(set.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let scen = io::read_scenario(&path).unwrap_or_else(|e| panic!("{e}"));
            let map_path = scen.map_path().unwrap_or_else(|e| panic!("{e}"));
            let grid = io::read_map(&map_path).unwrap_or_else(|e| panic!("{e}"));
            scen.check_against(&grid).unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert!(checked > 0);
    eprintln!("checked {checked} scenarios and their maps");
}
