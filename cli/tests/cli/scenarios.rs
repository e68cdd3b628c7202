//! End-to-end tests of scenario files as other people publish them: optima
//! printed with two decimals, map columns naming another folder, scenario
//! folders behind symbolic links, blocked endpoints; and the messages and
//! options a newcomer meets first.

use crate::support::*;

use std::path::{Path, PathBuf};
use tierpath::mapgen::{self, MapKind};
use tierpath::{AStar, Grid, Movement, Point, SearchCache, io};

/// A generated map with one clear region (caves joined up).
fn cave_map() -> Grid {
    let params = mapgen::MapParams {
        connect: true,
        ..mapgen::MapParams::default()
    };
    mapgen::generate_with(MapKind::Caves, 96, 80, 7, &params).unwrap()
}

/// Scenario lines for `count` queries between passable cells far apart, the
/// map column `column`, optima by exact A* printed with `decimals` decimals.
fn scenario(grid: &Grid, column: &str, count: usize, decimals: usize) -> String {
    let open: Vec<Point> = grid.passable_points().collect();
    let astar = AStar::new(grid);
    let mut cache = SearchCache::new();
    let mut text = String::from("version 1\n");
    let mut made = 0;
    let mut i = 0usize;
    while made < count && i < 10_000 {
        let s = open[(i * 7919) % open.len()];
        let g = open[(i * 104_729 + open.len() / 2) % open.len()];
        i += 1;
        let Some(path) = astar.find_path(&mut cache, s, g).unwrap().path else {
            continue;
        };
        let steps = Movement::default().cost_in_steps(path.cost);
        if steps < 20.0 {
            continue;
        }
        text.push_str(&format!(
            "{}\t{column}\t{}\t{}\t{}\t{}\t{}\t{}\t{steps:.decimals$}\n",
            (steps / 4.0) as u32,
            grid.width(),
            grid.height(),
            s.x,
            s.y,
            g.x,
            g.y,
        ));
        made += 1;
    }
    assert_eq!(made, count);
    text
}

/// In a fresh folder `name`: `cave.map` and `cave.map.scen` (see
/// [`scenario`]); returns their paths and the folder.
fn map_and_scenario(
    name: &str,
    column: &str,
    count: usize,
    decimals: usize,
) -> (PathBuf, PathBuf, PathBuf) {
    let dir = scratch(name);
    let grid = cave_map();
    let map = dir.join("cave.map");
    io::save_map(&grid, &map).unwrap();
    let scen = dir.join("cave.map.scen");
    std::fs::write(&scen, scenario(&grid, column, count, decimals)).unwrap();
    (map, scen, dir)
}

/// A blocked cell of `grid` and a passable one.
fn blocked_and_open(grid: &Grid) -> (Point, Point) {
    let all = (0..grid.height()).flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)));
    let blocked = all.clone().find(|p| !grid.is_passable(*p)).unwrap();
    let open = all.clone().find(|p| grid.is_passable(*p)).unwrap();
    (blocked, open)
}

/// An archive laid out as the public one: `maps/caves/cave.map`,
/// `scenarios/caves/cave.map.scen` where `scenarios/caves` is a symbolic link
/// to a folder elsewhere, and a map column naming another folder
/// (`maps/bgmaps/cave.map`); optima with two decimals.
#[cfg(unix)]
fn archive(dir: &Path, grid: &Grid, extra: &str) -> PathBuf {
    let root = dir.join("archive");
    std::fs::create_dir_all(root.join("maps/caves")).unwrap();
    std::fs::create_dir_all(root.join("scenarios")).unwrap();
    io::save_map(grid, root.join("maps/caves/cave.map")).unwrap();
    let elsewhere = dir.join("elsewhere/caves");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let text = scenario(grid, "maps/bgmaps/cave.map", 12, 2) + extra;
    std::fs::write(elsewhere.join("cave.map.scen"), text).unwrap();
    std::os::unix::fs::symlink(&elsewhere, root.join("scenarios/caves")).unwrap();
    root
}

#[cfg(unix)]
#[test]
fn bench_runs_on_archive_layouts_with_rounded_optima() {
    let dir = scratch("archive");
    let grid = cave_map();
    let (blocked, open) = blocked_and_open(&grid);
    let line = format!(
        "9\tmaps/bgmaps/cave.map\t{}\t{}\t{}\t{}\t{}\t{}\t39.00\n",
        grid.width(),
        grid.height(),
        blocked.x,
        blocked.y,
        open.x,
        open.y
    );
    let root = archive(&dir, &grid, &line);
    let scenarios = root.join("scenarios");
    let o = tierpath(&["bench", s(&scenarios), "--buckets", "all"]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("all paths valid"), "{out}");
    assert!(
        out.contains("skipped 1 query whose start or goal is a blocked cell"),
        "{out}"
    );
    // --strict: the blocked query is a problem.
    let o = tierpath(&["bench", s(&scenarios), "--buckets", "all", "--strict"]);
    assert_fails(&o, "1 problem");
    assert!(
        stderr(&o).contains("blocked cell (--strict)"),
        "{}",
        stderr(&o)
    );
    // A bucket filter that selects nothing is an error, not a silent pass.
    assert_fails(
        &tierpath(&["bench", s(&scenarios), "--buckets", "999"]),
        "selects no query",
    );

    // The scenario alone, away from its maps: found with --maps DIR, and
    // the error without it suggests the flag.
    let lone = dir.join("lone");
    std::fs::create_dir_all(&lone).unwrap();
    let scen = lone.join("cave.map.scen");
    std::fs::copy(dir.join("elsewhere/caves/cave.map.scen"), &scen).unwrap();
    assert_fails(&tierpath(&["bench", s(&scen)]), "--maps DIR");
    let o = tierpath(&[
        "bench",
        s(&scen),
        "--maps",
        s(&root.join("maps/caves")),
        "--buckets",
        "all",
    ]);
    assert_ok(&o);
    assert!(stdout(&o).contains("all paths valid"), "{}", stdout(&o));
}

#[test]
fn solve_judges_two_decimal_optima_without_false_alarms() {
    let (map, scen, _) = map_and_scenario("two-decimals", "maps/bgmaps/cave.map", 12, 2);
    // Exact A*: every path matches its rounded optimum.
    let o = tierpath(&["solve", s(&map), s(&scen), "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(
        (&j["solved"], &j["shorter_than_optimal"], &j["not_optimal"]),
        (&12.into(), &0.into(), &0.into())
    );
    assert!(!stdout(&o).contains("WRONG"), "{}", stdout(&o));
    // The hierarchy: judged against exact A* on every (coarse) line.
    let o = tierpath(&["solve", s(&map), s(&scen), "--algo", "hpa", "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    // Coarse: half a unit of the last digit (0.005) above 1/20,000 of the
    // optimum, so optima below 100.
    let coarse = std::fs::read_to_string(&scen)
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| l.rsplit('\t').next().unwrap().parse::<f64>().unwrap() < 100.0)
        .count();
    assert!(coarse > 0);
    assert_eq!(j["judged_against_exact"], coarse);
    assert_eq!(j["shorter_than_optimal"], 0);
    assert!(j["mean_ratio"].as_f64().unwrap() >= 1.0);
}

#[test]
fn solve_names_the_map_given() {
    let (map, scen, dir) = map_and_scenario("map-named", "maps/dao/other.map", 3, 8);
    // Same size, another name: runs, with a warning.
    let o = tierpath(&["solve", s(&map), s(&scen)]);
    assert_ok(&o);
    assert!(
        stderr(&o).contains("names map `maps/dao/other.map` (3 lines, first line 2)"),
        "{}",
        stderr(&o)
    );
    // Another size: the message names the map given, not the column.
    let small = dir.join("small.map");
    io::save_map(&Grid::new(10, 10).unwrap(), &small).unwrap();
    let o = tierpath(&["solve", s(&small), s(&scen)]);
    assert_fails(&o, "is for a 96x80 map, but");
    assert!(stderr(&o).contains("small.map is 10x10"), "{}", stderr(&o));
    assert_fails(
        &tierpath(&["solve", s(&map), s(&scen), "--buckets", "999"]),
        "selects no query",
    );
}

#[test]
fn path_times_the_hierarchy_apart_from_the_query() {
    let dir = scratch("path-times");
    let map = dir.join("cave.map");
    io::save_map(&cave_map(), &map).unwrap();
    let grid = io::read_grid(&map).unwrap();
    let (_, from) = blocked_and_open(&grid);
    let to = grid.passable_points().last().unwrap();
    let (from, to) = (
        format!("{},{}", from.x, from.y),
        format!("{},{}", to.x, to.y),
    );
    let o = tierpath(&[
        "path",
        s(&map),
        "--from",
        &from,
        "--to",
        &to,
        "--slice",
        "50",
        "--cols",
        "0",
        "--json",
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.starts_with("tierpath path: hpa on"), "{out}");
    assert!(out.contains("\nhierarchy: built in "), "{out}");
    assert!(out.contains("\nsearch: hpa ("), "{out}");
    assert!(out.contains("\nsliced: "), "{out}");
    let j = last_json(&o);
    assert!(j["setup_ms"].as_f64().is_some() && j["query_ms"].as_f64().is_some());
    assert_eq!(j["setup"], "built");
    assert!(j["sliced_ms"].as_f64().is_some());
}

#[test]
fn messages_read_the_right_way() {
    // Dijkstra expands more and runs slower than A*: said so, not "0.3x fewer".
    let o = tierpath(&["demo", "--algo", "dijkstra"]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(
        out.contains("more nodes") && !out.contains("fewer nodes"),
        "{out}"
    );

    let dir = scratch("messages");
    // A byte-order mark and CR-only line ends are named.
    let bom = dir.join("bom.map");
    std::fs::write(
        &bom,
        b"\xEF\xBB\xBFtype octile\nheight 1\nwidth 2\nmap\n..\n",
    )
    .unwrap();
    assert_fails(
        &tierpath(&["path", s(&bom), "--from", "0,0", "--to", "1,0"]),
        "byte-order mark",
    );
    let cr = dir.join("cr.map");
    std::fs::write(&cr, b"type octile\rheight 1\rwidth 2\rmap\r..\r").unwrap();
    assert_fails(
        &tierpath(&["path", s(&cr), "--from", "0,0", "--to", "1,0"]),
        "CR alone",
    );

    // Options that would be ignored are refused.
    assert_fails(
        &tierpath(&["generate", "maze", "--obstacles", "30"]),
        "--obstacles applies to random maps only",
    );
    let map = dir.join("open.map");
    io::save_map(&Grid::new(20, 10).unwrap(), &map).unwrap();
    assert_fails(
        &tierpath(&["render", s(&map), "-o", s(&dir.join("y.txt"))]),
        "PNG pictures only",
    );

    // replan: the script syntax is in --help; an off-map edit names the file
    // and line before anything runs.
    let help = stdout(&tierpath(&["replan", "--help"]));
    assert!(
        help.contains("weight X,Y [WxH] W") && help.contains("field X,Y R PEAK"),
        "{help}"
    );
    let script = dir.join("edits.txt");
    std::fs::write(&script, "close 1,1\n# fine so far\nclose 25,3 2x2\n").unwrap();
    let o = tierpath(&["replan", s(&map), "--script", s(&script)]);
    assert_fails(
        &o,
        "edits.txt:3: cell (25, 3) of `close 25,3 2x2` is off the 20x10 map",
    );
    assert!(!stdout(&o).contains("repair ms"), "{}", stdout(&o));
}
