//! End-to-end tests of `tierpath bench` and `tierpath render`: tables and
//! JSON/CSV figures on a tiny generated map (and a real Dragon Age scenario
//! when `../shared/movingai` is present), PNG sizes, and clean failures.

use crate::common;

use crate::support::*;

use std::path::{Path, PathBuf};
use tierpath::{Dijkstra, Grid, Movement, Point, SearchCache, io};

/// A 60x40 map: a wall down the middle with a gap at the bottom, and a walled
/// pocket in the top-right corner (its own island).
fn tiny_grid() -> Grid {
    Grid::from_fn(60, 40, |p| {
        let wall = p.x == 30 && p.y < 34;
        let pocket_wall = (p.x == 52 && p.y <= 6) || (p.y == 6 && p.x >= 52);
        !(wall || pocket_wall)
    })
    .unwrap()
}

/// Writes `set/tiny.map` and its scenario into `dir`: reachable queries with
/// exact optimal lengths (from Dijkstra), plus one unreachable query (into the
/// pocket) marked with optimum 0, as old scenarios do. `wrong` scales the
/// first query's recorded optimum (1.0 for a correct file).
fn write_tiny(dir: &Path, set: &str, wrong: f64) -> (PathBuf, PathBuf, Grid) {
    let grid = tiny_grid();
    let folder = dir.join(set);
    std::fs::create_dir_all(&folder).unwrap();
    let map = folder.join("tiny.map");
    io::save_map(&grid, &map).unwrap();
    let pairs = [
        ((2, 2), (57, 30)),
        ((5, 38), (40, 2)),
        ((10, 10), (45, 20)),
        ((29, 0), (31, 0)),
        ((0, 39), (59, 39)),
        ((15, 5), (50, 10)),
    ];
    let mut text = String::from("version 1\n");
    let mut cache = SearchCache::new();
    let m = Movement::default();
    for (i, ((sx, sy), (gx, gy))) in pairs.iter().enumerate() {
        let (a, b) = (Point::new(*sx, *sy), Point::new(*gx, *gy));
        let path = Dijkstra::new(&grid)
            .find_path(&mut cache, a, b)
            .unwrap()
            .path
            .unwrap();
        let mut optimal = m.cost_in_steps(path.cost);
        if i == 0 {
            optimal *= wrong;
        }
        text.push_str(&format!(
            "{}\ttiny.map\t60\t40\t{sx}\t{sy}\t{gx}\t{gy}\t{optimal:.8}\n",
            (optimal / 4.0) as u32
        ));
    }
    // Unreachable: into the walled pocket.
    text.push_str("0\ttiny.map\t60\t40\t2\t2\t57\t2\t0\n");
    let scen = folder.join("tiny.map.scen");
    std::fs::write(&scen, text).unwrap();
    (map, scen, grid)
}

#[test]
fn bench_prints_tables_and_writes_the_same_figures() {
    let dir = scratch("bench-tiny");
    write_tiny(&dir, "toys", 1.0);
    let json = dir.join("out.json");
    let csv = dir.join("out.csv");
    let o = tierpath(&[
        "bench",
        s(&dir),
        "--buckets",
        "all",
        "--json",
        s(&json),
        "--csv",
        s(&csv),
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    for needle in [
        "machine: ",
        "query time and quality",
        "median us",
        "speedup",
        "subopt mean",
        "expanded",
        "build ms med",
        "bytes/cell max",
        "all paths valid",
    ] {
        assert!(out.contains(needle), "stdout lacks {needle:?}:\n{out}");
    }
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("toys ")).collect();
    assert_eq!(
        rows.len(),
        4,
        "astar, hpa and jps rows, hierarchy row:\n{out}"
    );
    assert!(
        rows[0].contains("astar") && rows[1].contains("hpa") && rows[2].contains("jps"),
        "{out}"
    );
    assert!(out.contains("vs jps"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("all ")), "{out}");

    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("valid JSON");
    assert_eq!(v["command"], "bench");
    assert!(v["machine"]["cores"].as_u64().unwrap() >= 1);
    let set = &v["sets"][0];
    assert_eq!(set["set"], "toys");
    assert_eq!(set["maps"], 1);
    assert_eq!(set["queries"], 6);
    assert_eq!(set["unreachable"], 1);
    for planner in ["astar", "hpa", "jps"] {
        let p = &set["planners"][planner];
        for field in [
            "median_us",
            "p95_us",
            "mean_us",
            "speedup",
            "query_ratio_median",
            "vs_jps",
            "vs_jps_total",
            "subopt_mean_pct",
            "subopt_p95_pct",
            "subopt_max_pct",
            "expanded_mean",
        ] {
            assert!(p[field].is_number(), "{planner}.{field} missing: {p}");
        }
        assert!(p["median_us"].as_f64().unwrap() > 0.0);
        assert!(p["subopt_mean_pct"].as_f64().unwrap() >= 0.0);
    }
    assert_eq!(set["planners"]["astar"]["subopt_max_pct"], 0.0);
    // JPS is exact, and the hierarchy's time against it is the ratio of medians.
    assert_eq!(set["planners"]["jps"]["subopt_max_pct"], 0.0);
    assert!((set["planners"]["jps"]["vs_jps"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    let jps_median = set["planners"]["jps"]["median_us"].as_f64().unwrap();
    let hpa_median = set["planners"]["hpa"]["median_us"].as_f64().unwrap();
    let vs = set["planners"]["hpa"]["vs_jps"].as_f64().unwrap();
    assert!(
        (vs - jps_median / hpa_median).abs() <= 1e-3 * vs.max(1.0),
        "{set}"
    );
    // And the ratio of total times is that of the means.
    let jps_mean = set["planners"]["jps"]["mean_us"].as_f64().unwrap();
    let hpa_mean = set["planners"]["hpa"]["mean_us"].as_f64().unwrap();
    let total = set["planners"]["hpa"]["vs_jps_total"].as_f64().unwrap();
    assert!(
        (total - jps_mean / hpa_mean).abs() <= 1e-3 * total.max(1.0),
        "{set}"
    );
    assert!((set["planners"]["astar"]["speedup"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    for field in [
        "build_ms_median",
        "build_ms_max",
        "load_ms_median",
        "bytes_per_cell_max",
    ] {
        assert!(set[field].as_f64().unwrap() > 0.0, "{field}: {set}");
    }
    // Not contracted: no contraction time.
    assert!(set["contract_ms_median"].is_null(), "{set}");
    assert!(out.contains("of which contract ms med"), "{out}");
    assert_eq!(v["overall"]["set"], "all");
    assert_eq!(v["maps"][0]["map"], "tiny");
    assert_eq!(v["maps"][0]["width"], 60);
    assert_eq!(v["problems"].as_array().unwrap().len(), 0);

    // The table shows the JSON's figures.
    let median = set["planners"]["hpa"]["median_us"].as_f64().unwrap();
    let shown = if median >= 100.0 {
        format!("{median:.0}")
    } else {
        format!("{median:.1}")
    };
    assert!(rows[1].contains(&shown), "{shown} not in {}", rows[1]);

    // CSV: a header, then the set, the overall row and the map.
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("scope,set,map,"));
    assert!(lines[0].contains("hpa_median_us") && lines[0].contains("astar_p95_us"));
    assert!(lines[1].starts_with("set,toys,"));
    assert!(lines[2].starts_with("overall,all,"));
    assert!(lines[3].starts_with("map,toys,tiny,60,40,"));
    let cols = lines[0].split(',').count();
    assert!(lines.iter().all(|l| l.split(',').count() == cols));

    // `--no-jps` leaves JPS out.
    let o = tierpath(&["bench", s(&dir), "--buckets", "all", "--no-jps"]);
    assert_ok(&o);
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("toys ")).collect();
    assert_eq!(rows.len(), 3, "astar and hpa rows, hierarchy row:\n{out}");
    assert!(!rows.iter().any(|r| r.contains("jps")), "{out}");

    // `--contract`: the contraction's time, part of the build's, apart.
    let o = tierpath(&[
        "bench",
        s(&dir),
        "--buckets",
        "all",
        "--contract",
        "--json",
        s(&json),
        "--csv",
        s(&csv),
    ]);
    assert_ok(&o);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("valid JSON");
    let set = &v["sets"][0];
    let contract = set["contract_ms_median"].as_f64().expect("contracted");
    assert!(contract > 0.0, "{set}");
    assert!(
        contract <= set["build_ms_median"].as_f64().unwrap(),
        "{set}"
    );
    assert!(
        set["contract_ms_max"].as_f64().unwrap() >= contract,
        "{set}"
    );
    let row = stdout(&o)
        .lines()
        .find(|l| l.starts_with("toys ") && !["astar", "hpa", "jps"].iter().any(|p| l.contains(p)))
        .map(str::to_string)
        .expect("the hierarchy row");
    assert!(
        row.contains(&format!("{contract:.1}")),
        "{contract} in {row}"
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let head: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let at = head
        .iter()
        .position(|h| *h == "contract_ms_median")
        .unwrap();
    let map_row: Vec<&str> = text.lines().nth(3).unwrap().split(',').collect();
    assert!(map_row[at].parse::<f64>().unwrap() > 0.0, "{text}");
}

#[test]
fn bench_fails_on_a_wrong_optimum_and_bad_inputs() {
    let dir = scratch("bench-bad");
    let (_, scen, _) = write_tiny(&dir, "toys", 0.9);
    let json = dir.join("out.json");
    let o = tierpath(&["bench", s(&scen), "--buckets", "all", "--json", s(&json)]);
    assert_fails(&o, "differs from the scenario's optimum");
    // The tables and the file are still written.
    assert!(stdout(&o).contains("query time and quality"));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["problems"].as_array().unwrap().len(), 1);

    let o = tierpath(&["bench", s(&dir.join("nope.scen"))]);
    assert_fails(&o, "no such file");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = tierpath(&["bench", s(&empty)]);
    assert_fails(&o, "no scenario files");
    let o = tierpath(&["bench", s(&scen), "--max-queries", "0"]);
    assert_fails(&o, "--max-queries");
    let o = tierpath(&["bench", s(&scen), "--buckets", "top:x"]);
    assert_fails(&o, "bucket");
    let o = tierpath(&["bench"]);
    assert!(!o.status.success());
}

#[test]
fn bench_runs_a_real_dao_scenario() {
    let Some(scen) = common::scenario_file("dao", "arena") else {
        return;
    };
    let dir = scratch("bench-dao");
    let json = dir.join("dao.json");
    let o = tierpath(&["bench", s(&scen), "--max-queries", "20", "--json", s(&json)]);
    assert_ok(&o);
    assert!(stdout(&o).lines().any(|l| l.starts_with("dao ")));
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let set = &v["sets"][0];
    assert_eq!(set["set"], "dao");
    assert_eq!(set["selected"], 20);
    assert_eq!(
        set["queries"].as_u64().unwrap() + set["unreachable"].as_u64().unwrap(),
        20
    );
    let hpa = &set["planners"]["hpa"];
    assert!(hpa["subopt_max_pct"].as_f64().unwrap() < 10.0, "{hpa}");
}

/// Decodes a PNG: its size and pixels.
fn decode(png: &Path) -> image::RgbImage {
    image::open(png).expect("a PNG").to_rgb8()
}

#[test]
fn render_draws_a_query_at_the_expected_scale() {
    let dir = scratch("render");
    let (map, scen, grid) = write_tiny(&dir, "toys", 1.0);
    // 60x40 cells: 2048 / 60 = 34 px per cell, clamped to 16.
    let png = dir.join("q.png");
    let o = tierpath(&[
        "render",
        s(&map),
        "--scen",
        s(&scen),
        "--query",
        "0",
        "--no-legend",
        "-o",
        s(&png),
    ]);
    assert_ok(&o);
    let out = stdout(&o);
    for needle in [
        "flat A*     cost",
        "hierarchy   cost",
        "cells expanded",
        "waypoints",
        "16 px per cell",
    ] {
        assert!(out.contains(needle), "stdout lacks {needle:?}:\n{out}");
    }
    let img = decode(&png);
    assert_eq!(img.dimensions(), (60 * 16, 40 * 16));
    // Blocked cells are dark; both paths and the endpoints are drawn.
    let wall = img.get_pixel(30 * 16 + 8, 10 * 16 + 8).0;
    assert!(wall.iter().all(|c| *c < 80), "{wall:?}");
    let has = |rgb: [u8; 3]| img.pixels().any(|p| p.0 == rgb);
    assert!(has([228, 52, 28]), "flat A* path colour");
    assert!(has([0, 160, 70]), "hierarchy path colour");
    assert!(has([30, 210, 60]) && has([230, 20, 20]), "start and goal");

    // --from/--to, a chosen scale, and the key below the map.
    let png2 = dir.join("ft.png");
    let o = tierpath(&[
        "render",
        s(&map),
        "--from",
        "1,1",
        "--to",
        "58,38",
        "--scale",
        "3",
        "-o",
        s(&png2),
    ]);
    assert_ok(&o);
    let img = decode(&png2);
    assert_eq!(img.width(), grid.width() * 3);
    assert!(img.height() > grid.height() * 3, "a key below the map");

    // No query: the hierarchy's layers only; a saved hierarchy loads.
    let tph = dir.join("tiny.tph");
    tierpath::Hierarchy::build(grid.clone())
        .unwrap()
        .save_file(&tph)
        .unwrap();
    let png3 = dir.join("plain.png");
    let o = tierpath(&[
        "render",
        s(&map),
        "--hierarchy",
        s(&tph),
        "--region",
        "0,0,19,9",
        "--no-legend",
        "-o",
        s(&png3),
    ]);
    assert_ok(&o);
    assert!(stdout(&o).contains("loaded"), "{}", stdout(&o));
    assert_eq!(decode(&png3).dimensions(), (20 * 16, 10 * 16));
}

#[test]
fn render_rejects_bad_inputs() {
    let dir = scratch("render-bad");
    let (map, scen, _) = write_tiny(&dir, "toys", 1.0);
    let png = dir.join("x.png");
    let (m, sc, p) = (s(&map), s(&scen), s(&png));
    let o = tierpath(&["render", m, "--scen", sc, "--query", "99", "-o", p]);
    assert_fails(&o, "out of range");
    let o = tierpath(&["render", m, "--from", "30,5", "--to", "1,1", "-o", p]);
    assert_fails(&o, "blocked");
    let o = tierpath(&["render", m, "--from", "1,1", "--to", "100,1", "-o", p]);
    assert_fails(&o, "off the");
    let o = tierpath(&["render", m, "--region", "0,0,60,10", "-o", p]);
    assert_fails(&o, "reaches past");
    let o = tierpath(&["render", m, "--scale", "0", "-o", p]);
    assert_fails(&o, "--scale");
    let o = tierpath(&["render", m, "--from", "1,1", "-o", p]);
    assert_fails(&o, "--to");
    let o = tierpath(&["render", m]);
    assert_fails(&o, "--output");
    let o = tierpath(&["render", s(&dir.join("missing.map")), "-o", p]);
    assert_fails(&o, "missing.map");
    let o = tierpath(&["render", m, "--hierarchy", s(&dir.join("no.tph")), "-o", p]);
    assert_fails(&o, "no.tph");
    let o = tierpath(&["render", m, "-o", s(&dir.join("no/such/dir/x.png"))]);
    assert_fails(&o, "cannot write");
    assert!(!png.exists());
}
