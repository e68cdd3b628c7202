//! End-to-end tests of the `tierpath` binary: `demo`, `solve`, `generate`, and
//! clean failures on bad input.

use crate::common;

use crate::support::*;

use std::path::Path;
use std::process::Command;
use tierpath::mapgen::{self, MapKind};
use tierpath::{Dijkstra, Grid, Movement, Point, SearchCache, io};

#[test]
fn demo_runs_from_anywhere_and_draws_a_path() {
    // From an unrelated folder: the default map is found relative to the crate.
    let dir = scratch("demo");
    let o = Command::new(env!("CARGO_BIN_EXE_tierpath"))
        .arg("demo")
        .current_dir(&dir)
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("default.map"), "{out}");
    // The picture: lines of map characters only, with the path and endpoints.
    let picture: Vec<&str> = out
        .lines()
        .filter(|l| l.len() > 40 && l.chars().all(|c| " .#*SG".contains(c)))
        .collect();
    assert!(picture.len() > 20, "no picture: {out}");
    assert!(
        picture.iter().filter(|l| l.contains('*')).count() > 20,
        "{out}"
    );
    assert!(picture.iter().any(|l| l.contains('S')), "{out}");
    assert!(picture.iter().any(|l| l.contains('G')), "{out}");
    assert!(out.contains("nodes expanded"), "{out}");
    let cost_line = out.lines().find(|l| l.starts_with("path:")).unwrap();
    let cost: f64 = cost_line
        .split("cost ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap();
    assert!(cost > 200.0, "a long query on the 256x256 map: {cost_line}");
}

#[test]
fn demo_with_endpoints_on_a_given_map() {
    let dir = scratch("demo-endpoints");
    let map = dir.join("small.map");
    let grid = Grid::from_ascii(
        "
        ..........
        .@@@@@@@@.
        ..........",
    )
    .unwrap();
    io::save_map(&grid, &map).unwrap();
    let o = tierpath(&["demo", s(&map), "--from", "0,1", "--to", "9,1"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("S########G"), "{out}");
    assert!(out.contains("cost 11.0000"), "{out}");

    let blocked = tierpath(&["demo", s(&map), "--from", "1,1", "--to", "9,1"]);
    assert_fails(&blocked, "blocked");
    let off = tierpath(&["demo", s(&map), "--from", "0,0", "--to", "99,1"]);
    assert_fails(&off, "off the");
    let half = tierpath(&["demo", s(&map), "--from", "0,0"]);
    assert_fails(&half, "--to");
}

#[test]
fn solve_small_scenario_is_all_optimal_and_writes_paths() {
    let dir = scratch("solve-small");
    let grid = mapgen::generate(MapKind::Mixed, 60, 40, 9).unwrap();
    let map = dir.join("gen.map");
    io::save_map(&grid, &map).unwrap();

    // Queries between passable cells of the same region, optimal by Dijkstra.
    let cells: Vec<Point> = grid.passable_points().collect();
    let mut cache = SearchCache::new();
    let dijkstra = Dijkstra::new(&grid);
    let mut scen = String::from("version 1\n");
    let mut expected = Vec::new();
    for k in 0..40 {
        let a = cells[(k * 7919) % cells.len()];
        let b = cells[(k * 104_729 + 13) % cells.len()];
        let out = dijkstra.find_path(&mut cache, a, b).unwrap();
        if let Some(path) = out.path {
            let optimal = Movement::default().cost_in_steps(path.cost);
            scen.push_str(&scen_line("gen.map", &grid, a, b, optimal));
            expected.push((a, b));
        }
    }
    assert!(expected.len() >= 30);
    let scen_path = dir.join("gen.map.scen");
    std::fs::write(&scen_path, scen).unwrap();
    let paths = dir.join("paths.txt");

    for algo in ["astar", "dijkstra"] {
        let o = tierpath(&[
            "solve",
            s(&map),
            s(&scen_path),
            "--algo",
            algo,
            "--json",
            "--paths",
            s(&paths),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let j = last_json(&o);
        let n = expected.len() as u64;
        assert_eq!(j["algo"], algo);
        assert_eq!(j["queries"], n);
        assert_eq!(j["solved"], n);
        assert_eq!(j["unreachable"], 0);
        assert_eq!(j["errors"], 0);
        assert_eq!(j["invalid"], 0);
        assert_eq!(j["not_optimal"], 0);
        assert!((j["max_ratio"].as_f64().unwrap() - 1.0).abs() < 1e-6);
        assert!(j["mean_expanded"].as_f64().unwrap() > 0.0);
        assert!(j["median_us"].as_f64().unwrap() > 0.0);
        assert!(stdout(&o).contains("invalid"), "human summary first");

        // One line per query, every cell, endpoints right, cost >= 6 digits.
        let text = std::fs::read_to_string(&paths).unwrap();
        assert!(text.starts_with('#'));
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), expected.len());
        for (i, (line, (a, b))) in lines.iter().zip(&expected).enumerate() {
            let mut f = line.split(' ');
            assert_eq!(f.next(), Some(i.to_string().as_str()));
            let cost = f.next().unwrap();
            assert!(
                cost.split('.').nth(1).is_some_and(|d| d.len() >= 6),
                "{cost}"
            );
            let pts: Vec<Point> = f
                .map(|c| {
                    let (x, y) = c.split_once(',').unwrap();
                    Point::new(x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            assert_eq!((pts[0], *pts.last().unwrap()), (*a, *b));
            let exact = tierpath::path_cost(&grid, &Movement::default(), &pts).unwrap();
            let steps = Movement::default().cost_in_steps(exact);
            assert!((steps - cost.parse::<f64>().unwrap()).abs() < 1e-6);
        }
    }

    // Bucket selection and the query cap.
    let o = tierpath(&[
        "solve",
        s(&map),
        s(&scen_path),
        "--buckets",
        "top:1",
        "--max-queries",
        "3",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = last_json(&o);
    assert!(j["queries"].as_u64().unwrap() <= 3);
    assert_eq!(j["buckets"], "top:1");
}

#[test]
fn solve_counts_blocked_and_unreachable_queries_without_failing() {
    let dir = scratch("solve-errors");
    let grid = Grid::from_ascii(
        "
        ...@...
        ...@...
        ...@...",
    )
    .unwrap();
    let map = dir.join("split.map");
    io::save_map(&grid, &map).unwrap();
    let p = Point::new;
    let scen = format!(
        "version 1\n{}{}{}",
        scen_line("split.map", &grid, p(0, 0), p(2, 2), 2.0 * 2f64.sqrt()),
        scen_line("split.map", &grid, p(0, 0), p(6, 0), 6.0),
        scen_line("split.map", &grid, p(3, 1), p(6, 0), 3.0),
    );
    let scen_path = dir.join("split.map.scen");
    std::fs::write(&scen_path, scen).unwrap();
    let paths = dir.join("paths.txt");
    let o = tierpath(&[
        "solve",
        s(&map),
        s(&scen_path),
        "--json",
        "--paths",
        s(&paths),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = last_json(&o);
    assert_eq!(
        (&j["solved"], &j["unreachable"], &j["errors"], &j["invalid"]),
        (&1.into(), &1.into(), &0.into(), &0.into())
    );
    // The blocked start is skipped and counted, not an error.
    assert_eq!(j["blocked_skipped"], 1);
    assert!(
        stdout(&o).contains("1 skipped (start or goal is a blocked cell)"),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&paths).unwrap();
    assert!(text.lines().any(|l| l == "1 unreachable"), "{text}");
    assert!(
        text.lines()
            .any(|l| l == "# 2 skipped: start or goal is a blocked cell"),
        "{text}"
    );
    // --strict makes it fail, after the summary.
    let o = tierpath(&["solve", s(&map), s(&scen_path), "--strict"]);
    assert_fails(&o, "1 query has a blocked start or goal (--strict)");
    assert!(
        stdout(&o).contains("queries     2: 1 solved"),
        "{}",
        stdout(&o)
    );
    // The help states the rule.
    for command in ["solve", "bench"] {
        let help = stdout(&tierpath(&[command, "--help"]));
        assert!(
            help.contains("are skipped and counted; with --strict"),
            "{help}"
        );
        assert!(help.contains("half a unit"), "{help}");
    }
}

#[test]
fn solve_moving_ai_arena() {
    let Some(root) = common::movingai_root() else {
        return;
    };
    let map = root.join("maps/dao/arena.map");
    let scen = root.join("scenarios/dao/arena.map.scen");
    let queries = std::fs::read_to_string(&scen)
        .unwrap()
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .count() as u64;
    let o = tierpath(&["solve", s(&map), s(&scen), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let j = last_json(&o);
    assert_eq!(j["queries"], queries);
    assert_eq!(j["scenario_queries"], queries);
    assert_eq!(j["solved"], queries);
    assert_eq!(j["unreachable"], 0);
    assert_eq!(j["errors"], 0);
    assert_eq!(j["invalid"], 0);
    assert_eq!(j["not_optimal"], 0);
    let mean = j["mean_ratio"].as_f64().unwrap();
    let max = j["max_ratio"].as_f64().unwrap();
    assert!((mean - 1.0).abs() < 1e-4 && (max - 1.0).abs() < 1e-4, "{j}");
    for key in ["median_us", "p95_us", "total_ms", "mean_expanded"] {
        assert!(j[key].as_f64().is_some_and(|v| v >= 0.0), "{key}: {j}");
    }

    let top = tierpath(&["solve", s(&map), s(&scen), "--buckets", "top:2", "--json"]);
    let j = last_json(&top);
    assert!(j["queries"].as_u64().unwrap() < queries);
    assert_eq!(j["not_optimal"], 0);
}

#[test]
fn bad_inputs_fail_with_a_message() {
    let dir = scratch("bad");
    let good = dir.join("good.map");
    io::save_map(&Grid::new(8, 8).unwrap(), &good).unwrap();
    let scen = dir.join("good.map.scen");
    let grid = Grid::new(8, 8).unwrap();
    std::fs::write(
        &scen,
        format!(
            "version 1\n{}",
            scen_line("good.map", &grid, Point::new(0, 0), Point::new(7, 0), 7.0)
        ),
    )
    .unwrap();

    let missing = dir.join("nope.map");
    assert_fails(&tierpath(&["solve", s(&missing), s(&scen)]), "nope.map");
    assert_fails(
        &tierpath(&["solve", s(&good), s(&dir.join("nope.scen"))]),
        "nope.scen",
    );

    let garbage = dir.join("garbage.map");
    std::fs::write(&garbage, "type octile\nheight 2\nwidth 3\nmap\n..\n...\n").unwrap();
    assert_fails(&tierpath(&["solve", s(&garbage), s(&scen)]), "garbage.map");

    let small = dir.join("small.map");
    io::save_map(&Grid::new(4, 4).unwrap(), &small).unwrap();
    assert_fails(&tierpath(&["solve", s(&small), s(&scen)]), "good.map.scen");

    let bad_scen = dir.join("bad.scen");
    std::fs::write(
        &bad_scen,
        "version 1\n0\tgood.map\t8\t8\t0\tzero\t1\t1\t1\n",
    )
    .unwrap();
    assert_fails(&tierpath(&["solve", s(&good), s(&bad_scen)]), "bad.scen");

    let o = tierpath(&["solve", s(&good), s(&scen), "--buckets", "top:x"]);
    assert_fails(&o, "bucket");
    assert_fails(
        &tierpath(&["solve", s(&good), s(&scen), "--algo", "magic"]),
        "magic",
    );
    let unwritable = dir.join("no/such/dir/paths.txt");
    assert_fails(
        &tierpath(&["solve", s(&good), s(&scen), "--paths", s(&unwritable)]),
        "paths",
    );

    assert_fails(&tierpath(&["demo", s(&missing)]), "nope.map");
    assert_fails(&tierpath(&["demo", s(&garbage)]), "garbage.map");
    assert_fails(
        &tierpath(&["demo", s(&good), "--from", "1;2", "--to", "3,3"]),
        "1;2",
    );

    assert_fails(&tierpath(&["generate", "swamp"]), "swamp");
    assert_fails(&tierpath(&["generate", "caves", "--size", "0x9"]), "size");
    assert_fails(
        &tierpath(&["generate", "caves", "--size", "70000x2"]),
        "too large",
    );
    assert_fails(
        &tierpath(&["generate", "random", "--obstacles", "150"]),
        "percentage",
    );
    let o = tierpath(&["generate", "maze", "-o", s(&dir.join("no/such/dir/m.map"))]);
    assert_fails(&o, "m.map");
}

#[test]
fn generate_writes_deterministic_readable_maps() {
    let dir = scratch("generate");
    let (a, b) = (dir.join("a.map"), dir.join("b.map"));
    for out in [&a, &b] {
        let o = tierpath(&[
            "generate",
            "maze",
            "--size",
            "40x30",
            "--seed",
            "5",
            "--corridor",
            "2",
            "-o",
            s(out),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("passable"));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let grid = io::read_map(&a).unwrap();
    assert_eq!((grid.width(), grid.height()), (40, 30));

    let o = tierpath(&["generate", "random", "--size", "12x5", "--seed", "2"]);
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("type octile"), "{}", stdout(&o));
}

/// The maps in data/ are exactly what the commands in docs/command-line.md
/// produce.
#[test]
fn shipped_maps_match_their_generate_commands() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data");
    let dir = scratch("regenerate");
    for (file, args) in [
        (
            "default.map",
            &["mixed", "--size", "256x256", "--seed", "1"][..],
        ),
        (
            "maze.map",
            &[
                "maze",
                "--size",
                "128x128",
                "--seed",
                "1",
                "--corridor",
                "2",
            ][..],
        ),
    ] {
        let out = dir.join(file);
        let mut all = vec!["generate"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", s(&out)]);
        let o = tierpath(&all);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            std::fs::read(data.join(file)).unwrap() == std::fs::read(&out).unwrap(),
            "data/{file} differs from `tierpath {}`",
            all[..all.len() - 2].join(" ")
        );
    }
}

#[test]
fn replan_repairs_and_verifies_against_rebuilds() {
    // The default script on the shipped map, each step checked against a
    // rebuild from scratch.
    let o = tierpath(&["replan", "--verify", "--units", "12"]);
    assert_ok(&o);
    let out = stdout(&o);
    assert!(out.contains("20 script steps"), "{out}");
    assert_eq!(out.matches("  same").count(), 20, "{out}");

    // A script: a wall, terrain, a field; and a bad line named by number.
    let dir = scratch("replan");
    let map = dir.join("open.map");
    io::save_map(&Grid::new(64, 48).unwrap(), &map).unwrap();
    let script = dir.join("edits.txt");
    std::fs::write(
        &script,
        "# a wall with a gap\nclose 32,0 1x40\nweight 10,10 8x8 300\nfield 40,20 6 -60\nopen 32,0 1x40\n",
    )
    .unwrap();
    let o = tierpath(&[
        "replan",
        s(&map),
        "--script",
        s(&script),
        "--verify",
        "--units",
        "8",
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    assert_eq!(out.matches("  same").count(), 4, "{out}");
    assert!(out.contains("close 32,0 1x40"), "{out}");

    std::fs::write(&script, "close 1,1\nteleport 2,2\n").unwrap();
    let o = tierpath(&["replan", s(&map), "--script", s(&script)]);
    assert_fails(&o, "edits.txt:2:");

    // Contracted: a cell closed off every straight line between its
    // cluster's transitions keeps the contraction (no distance inside
    // changes), a wall across the map patches it (the clusters it changed
    // searched beside it); each step still checked against a rebuild,
    // contracted when contracted.
    std::fs::write(&script, "close 40,10\nclose 32,0 1x40\nopen 40,10\n").unwrap();
    let o = tierpath(&[
        "replan",
        s(&map),
        "--script",
        s(&script),
        "--contract",
        "--verify",
        "--units",
        "8",
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    assert_eq!(out.matches("  same").count(), 3, "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(",")).collect();
    assert!(
        rows.iter()
            .any(|l| l.starts_with("close 40,10") && l.contains("kept")),
        "{out}"
    );
    assert!(
        rows.iter()
            .any(|l| l.starts_with("close 32,0") && l.contains("patched")),
        "{out}"
    );
}
