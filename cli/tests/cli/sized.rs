//! End-to-end tests of `tierpath solve --size`: paths for a `K x K` unit,
//! checked here again against the footprint rule, and clean failures on bad
//! sizes.

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

#[test]
fn solve_with_a_size_writes_legal_paths_and_agrees_with_exact_search() {
    let (map, scen, grid) = fixture("sized-solve");
    let paths = map.with_file_name("paths.txt");
    for (algo, size) in [("hpa", "2"), ("hpa", "3"), ("astar", "2")] {
        let o = tierpath(&[
            "solve",
            s(&map),
            s(&scen),
            "--size",
            size,
            "--algo",
            algo,
            "--compare",
            "--json",
            "--paths",
            s(&paths),
        ]);
        assert_ok(&o);
        let j = last_json(&o);
        let k: u32 = size.parse().unwrap();
        assert_eq!(j["size"], k);
        assert_eq!(j["invalid"], 0);
        assert_eq!(j["compare"]["reachability_disagreements"], 0);
        assert_eq!(j["compare"]["cheaper_than_exact"], 0);
        let solved = j["solved"].as_u64().unwrap();
        assert!(solved >= 10, "{}", stdout(&o));
        assert!(
            j["skipped"].as_u64().unwrap() > 0,
            "some endpoints are too tight"
        );
        if algo == "hpa" {
            assert_eq!(j["hierarchy"]["max_size"], k);
            assert_eq!(j["hierarchy"]["fallback"], 0);
            assert!(j["compare"]["cost_ratio_max"].as_f64().unwrap() >= 1.0);
        } else {
            assert_eq!(j["compare"]["cost_ratio_max"].as_f64().unwrap(), 1.0);
        }
        // Every written path is legal for the unit, cell by cell.
        let written = std::fs::read_to_string(&paths).unwrap();
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
            let cost = sized_path_cost(&grid, &Movement::default(), k, &cells)
                .unwrap_or_else(|e| panic!("size {k} path {line}: {e}"));
            let steps: f64 = parts[1].parse().unwrap();
            assert!((Movement::default().cost_in_steps(cost) - steps).abs() < 1e-5);
            checked += 1;
        }
        assert_eq!(checked, j["solved"].as_u64().unwrap());
    }
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
    assert_fails(&run(&["--size", "2", "--algo", "dijkstra"]), "--algo astar");
    assert_fails(
        &run(&["--size", "2", "--algo", "hpa", "--hierarchy", "x.tph"]),
        "--hierarchy",
    );
    assert_fails(
        &run(&["--size", "2", "--algo", "hpa", "--cluster-size", "1"]),
        "cluster size",
    );
    // A size no cell fits: every query skipped, still a clean run.
    let o = run(&["--size", "200", "--algo", "astar", "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["queries"], 0);
    assert_eq!(j["skipped"], j["selected"]);
}
