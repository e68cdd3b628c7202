//! End-to-end tests of unit sizes on the command line: `preprocess
//! --max-size`, then `--size` on `solve`, `path`, `bench`, `render` and the
//! per-size table of `info`; paths checked here again against the
//! footprint rule, and clean failures on bad sizes.

use crate::support::*;

use tierpath::{Dijkstra, Grid, Movement, Point, SearchCache, io, sized_path_cost};

/// A generated map with a scenario of single-cell queries (their optimal
/// lengths by Dijkstra); returns the map, the scenario and the grid.
fn fixture(name: &str) -> (std::path::PathBuf, std::path::PathBuf, Grid) {
    let dir = scratch(name);
    // Rooms 20 cells wide behind walls whose doors are 1 to 6 cells wide,
    // with scattered pillars: some routes fit only small units.
    let grid = Grid::from_fn(100, 80, |p| {
        let (rx, ry) = (p.x / 20, p.y / 20);
        let door = |seg: u32, along: u32| {
            let width = [1, 3, 4, 6][((seg * 7 + 3) % 4) as usize];
            (8..8 + width).contains(&(along % 20))
        };
        let wall_v = p.x % 20 == 19 && !door(rx * 5 + ry, p.y);
        let wall_h = p.y % 20 == 19 && !door(ry * 3 + rx + 1, p.x);
        let pillar = p.x % 7 == 3 && p.y % 9 == 4;
        !(wall_v || wall_h || pillar)
    })
    .unwrap();
    let map = dir.join("gen.map");
    io::save_map(&grid, &map).unwrap();
    let cells: Vec<Point> = grid.passable_points().collect();
    let mut cache = SearchCache::new();
    let dijkstra = Dijkstra::new(&grid);
    let mut scen = String::from("version 1\n");
    for k in 0..60 {
        let a = cells[(k * 7919) % cells.len()];
        let b = cells[(k * 104_729 + 13) % cells.len()];
        if let Some(path) = dijkstra.find_path(&mut cache, a, b).unwrap().path {
            let optimal = Movement::default().cost_in_steps(path.cost);
            scen.push_str(&scen_line("gen.map", &grid, a, b, optimal));
        }
    }
    let scen_path = dir.join("gen.map.scen");
    std::fs::write(&scen_path, scen).unwrap();
    (map, scen_path, grid)
}

/// Checks every path of a `--paths` file is legal for a unit of `size`, with
/// the stated cost; returns how many there were.
fn check_paths_file(file: &std::path::Path, grid: &Grid, size: u32) -> u64 {
    let written = std::fs::read_to_string(file).unwrap();
    let mut checked = 0;
    for line in written.lines().filter(|l| !l.starts_with('#')) {
        let parts: Vec<&str> = line.split_whitespace().collect();
        if parts[1] == "unreachable" {
            continue;
        }
        let cells: Vec<Point> = parts[2..]
            .iter()
            .map(|c| {
                let (x, y) = c.split_once(',').unwrap();
                Point::new(x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let cost = sized_path_cost(grid, &Movement::default(), size, &cells)
            .unwrap_or_else(|e| panic!("size {size} path {line}: {e}"));
        let steps: f64 = parts[1].parse().unwrap();
        assert!((Movement::default().cost_in_steps(cost) - steps).abs() < 1e-5);
        checked += 1;
    }
    checked
}

#[test]
fn the_readme_pipeline_preprocesses_once_and_serves_every_size() {
    let (map, scen, grid) = fixture("sized-pipeline");
    let file = map.with_file_name("gen.tph");
    let paths = map.with_file_name("paths.txt");
    // README: tierpath preprocess MAP --max-size 3 -o FILE
    let o = tierpath(&["preprocess", s(&map), "--max-size", "3", "-o", s(&file)]);
    assert_ok(&o);
    assert!(stdout(&o).contains("unit sizes 1..=3"), "{}", stdout(&o));
    // The per-size table: one row per size, each size fitting on fewer cells.
    let o = tierpath(&["info", s(&file), "--map", s(&map), "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["max_unit_size"], 3);
    let per_size = j["per_size"].as_array().unwrap();
    let cells: Vec<u64> = per_size
        .iter()
        .map(|c| c["cells"].as_u64().unwrap())
        .collect();
    assert_eq!(cells.len(), 3);
    assert!(cells[0] > cells[1] && cells[1] > cells[2], "{cells:?}");
    for row in ["1x1", "2x2", "3x3"] {
        assert!(stdout(&o).lines().any(|l| l.starts_with(row)), "{row}");
    }
    // README: tierpath solve MAP SCEN --size 2 --algo hpa --hierarchy FILE --compare
    for size in ["2", "3"] {
        let o = tierpath(&[
            "solve",
            s(&map),
            s(&scen),
            "--size",
            size,
            "--algo",
            "hpa",
            "--hierarchy",
            s(&file),
            "--compare",
            "--json",
            "--paths",
            s(&paths),
        ]);
        assert_ok(&o);
        let j = last_json(&o);
        let k: u32 = size.parse().unwrap();
        assert_eq!(j["size"], k);
        assert_eq!(j["setup"], "load");
        assert_eq!(j["hierarchy"]["max_unit_size"], 3);
        assert_eq!(j["invalid"], 0);
        assert_eq!(j["shorter_than_optimal"], 0);
        assert_eq!(j["compare"]["reachability_disagreements"], 0);
        assert_eq!(j["compare"]["cheaper_than_exact"], 0);
        assert!(j["compare"]["max_cost_ratio"].as_f64().unwrap() >= 1.0);
        assert!(
            j["blocked_skipped"].as_u64().unwrap() > 0,
            "some ends are tight"
        );
        assert!(j["solved"].as_u64().unwrap() >= 10, "{}", stdout(&o));
        assert_eq!(check_paths_file(&paths, &grid, k), j["solved"]);
    }
}

#[test]
fn flat_planners_serve_a_size_and_agree_with_the_hierarchy_on_reachability() {
    let (map, scen, grid) = fixture("sized-solve");
    let paths = map.with_file_name("paths.txt");
    let mut reachable = Vec::new();
    for algo in ["astar", "dijkstra", "hpa"] {
        let o = tierpath(&[
            "solve",
            s(&map),
            s(&scen),
            "--size",
            "2",
            "--algo",
            algo,
            "--json",
            "--paths",
            s(&paths),
        ]);
        assert_ok(&o);
        let j = last_json(&o);
        assert_eq!(j["invalid"], 0);
        assert_eq!(j["shorter_than_optimal"], 0);
        assert_eq!(check_paths_file(&paths, &grid, 2), j["solved"]);
        reachable.push((j["solved"].clone(), j["unreachable"].clone()));
        if algo == "hpa" {
            assert_eq!(j["hierarchy"]["max_unit_size"], 2, "built for the size");
        }
    }
    assert!(reachable.windows(2).all(|w| w[0] == w[1]), "{reachable:?}");
}

#[test]
fn path_bench_and_render_take_a_size() {
    let (map, scen, grid) = fixture("sized-tools");
    // `path`: the one-shot, sliced and partial answers for a 3x3 unit.
    let o = tierpath(&[
        "path",
        s(&map),
        "--from",
        "1,1",
        "--to",
        "90,70",
        "--size",
        "3",
        "--slice",
        "50",
        "--json",
        "--cols",
        "0",
    ]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["size"], 3);
    let o = tierpath(&[
        "path",
        s(&map),
        "--algo",
        "astar",
        "--from",
        "1,1",
        "--to",
        "90,70",
        "--size",
        "3",
        "--json",
        "--cols",
        "0",
    ]);
    assert_ok(&o);
    let flat = last_json(&o);
    assert_eq!(flat["found"], j["found"]);
    if j["found"] == true {
        assert!(j["cost"].as_f64() >= flat["cost"].as_f64());
    }
    // `bench`: JPS is left out, every path checked for the size.
    let o = tierpath(&["bench", s(&scen), "--buckets", "all", "--size", "2"]);
    assert_ok(&o);
    let out = stdout(&o);
    let jps_row = out
        .lines()
        .any(|l| l.split_whitespace().nth(1) == Some("jps"));
    assert!(out.contains("a 2x2 unit") && !jps_row, "{out}");
    // `render`: the drawn query is the unit's.
    let png = map.with_file_name("q.png");
    let o = tierpath(&[
        "render",
        s(&map),
        "--from",
        "1,1",
        "--to",
        "90,70",
        "--size",
        "2",
        "-o",
        s(&png),
    ]);
    assert_ok(&o);
    assert!(stdout(&o).contains("a 2x2 unit"), "{}", stdout(&o));
    // A start no 2x2 unit fits on is an error naming it.
    let tight = grid
        .passable_points()
        .find(|p| !grid.is_passable(Point::new(p.x + 1, p.y)))
        .unwrap();
    let from = format!("{},{}", tight.x, tight.y);
    let o = tierpath(&[
        "path",
        s(&map),
        "--from",
        &from,
        "--to",
        "1,1",
        "--size",
        "2",
    ]);
    assert_fails(&o, "does not fit");
}

#[test]
fn bad_sizes_fail_with_a_message() {
    let (map, scen, _) = fixture("sized-bad");
    let run = |extra: &[&str]| {
        let mut args = vec!["solve", s(&map), s(&scen)];
        args.extend_from_slice(extra);
        tierpath(&args)
    };
    assert_fails(&run(&["--size", "0"]), "sizes start at 1");
    assert_fails(&run(&["--size", "300"]), "too large");
    assert_fails(&run(&["--size", "two"]), "--size");
    assert_fails(&run(&["--size", "2", "--algo", "jps"]), "single cells only");
    assert_fails(
        &tierpath(&["bench", s(&scen), "--size", "2", "--algo", "jps"]),
        "single cells only",
    );
    assert_fails(
        &tierpath(&["preprocess", s(&map), "--max-size", "0"]),
        "sizes start at 1",
    );
    // A size above the file's largest is refused, naming the fix.
    let file = map.with_file_name("one.tph");
    assert_ok(&tierpath(&["preprocess", s(&map), "-o", s(&file)]));
    let o = run(&["--size", "2", "--algo", "hpa", "--hierarchy", s(&file)]);
    assert_fails(&o, "above the largest unit size 1");
    assert_fails(&o, "--max-size 2");
    let o = tierpath(&[
        "path",
        s(&map),
        "--from",
        "1,1",
        "--to",
        "5,5",
        "--size",
        "2",
        "--hierarchy",
        s(&file),
    ]);
    assert_fails(&o, "above the largest unit size");
    // A size no cell fits: every query skipped, still a clean run.
    let o = run(&["--size", "200", "--algo", "astar", "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["queries"], 0);
    assert_eq!(j["unit_cells"], 0);
}
