//! End-to-end tests of the run-time commands: `path` (budget, partial,
//! slices), `nearest` and `queue-demo`, on small hand-made maps and the
//! shipped default map; bad input fails with a message, never a panic.

use std::path::PathBuf;

use crate::support::{assert_fails, assert_ok, last_json, s, scratch, tierpath};
use tierpath::{Grid, io};

/// A map with a sealed room on the right: cells x >= 21 of rows 2..=7 are
/// unreachable from the left, behind a closed wall.
fn walled_map(name: &str) -> PathBuf {
    let grid = Grid::from_fn(30, 12, |p| {
        let room_wall =
            (p.x == 20 && (1..=8).contains(&p.y)) || ((p.y == 1 || p.y == 8) && p.x >= 20);
        let long_wall = p.x == 10 && p.y < 10;
        !(room_wall || long_wall)
    })
    .unwrap();
    let file = scratch(name).join("walled.map");
    io::save_map(&grid, &file).unwrap();
    file
}

#[test]
fn path_reports_complete_partial_and_sliced_answers() {
    let map = walled_map("path");
    let m = s(&map);
    // Around the long wall: complete, with both planners, sliced too.
    for algo in ["hpa", "astar"] {
        let o = tierpath(&[
            "path", m, "--from", "0,0", "--to", "15,0", "--algo", algo, "--slice", "3", "--json",
        ]);
        assert_ok(&o);
        let j = last_json(&o);
        assert_eq!(j["status"], "complete", "{j}");
        assert_eq!(j["end"], serde_json::json!([15, 0]));
        assert!(j["frames"].as_u64().unwrap() > 1, "{j}");
    }
    // Into the sealed room: no path, or a partial one to the nearest cell
    // outside it (above its top wall).
    let o = tierpath(&["path", m, "--from", "0,0", "--to", "25,4", "--json"]);
    assert_ok(&o);
    assert_eq!(last_json(&o)["status"], "none (goal unreachable)");
    for algo in ["hpa", "astar"] {
        let o = tierpath(&[
            "path",
            m,
            "--from",
            "0,0",
            "--to",
            "25,4",
            "--algo",
            algo,
            "--partial",
            "--json",
        ]);
        assert_ok(&o);
        let j = last_json(&o);
        assert_eq!(j["status"], "partial (goal unreachable)", "{algo}: {j}");
        assert_eq!(j["end"], serde_json::json!([25, 0]), "{algo}: {j}");
    }
    // A budget: out of budget, with and without a partial path.
    let o = tierpath(&[
        "path", m, "--from", "0,0", "--to", "15,0", "--algo", "astar", "--budget", "5", "--json",
    ]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["status"], "none (out of budget)", "{j}");
    assert_eq!(j["expanded"], 5);
    let o = tierpath(&[
        "path",
        m,
        "--from",
        "0,0",
        "--to",
        "15,0",
        "--algo",
        "astar",
        "--budget",
        "5",
        "--partial",
        "--slice",
        "2",
        "--json",
    ]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["status"], "partial (out of budget)", "{j}");
    assert_eq!(j["partial"], true);
    assert!(stdout_has(&o, "same answer as one-shot"));
}

fn stdout_has(o: &std::process::Output, needle: &str) -> bool {
    crate::support::stdout(o).contains(needle)
}

#[test]
fn path_rejects_bad_input() {
    let map = walled_map("path-bad");
    let m = s(&map);
    assert_fails(
        &tierpath(&["path", m, "--from", "0,0", "--to", "10,0"]),
        "blocked",
    );
    assert_fails(
        &tierpath(&["path", m, "--from", "0,99", "--to", "1,1"]),
        "off the",
    );
    assert_fails(
        &tierpath(&["path", m, "--from", "0,0", "--to", "1,1", "--budget", "9"]),
        "--budget applies to --algo astar",
    );
    assert_fails(
        &tierpath(&["path", m, "--from", "0,0", "--to", "1,1", "--slice", "0"]),
        "--slice",
    );
    assert_fails(
        &tierpath(&["path", "/nonexistent.map", "--from", "0,0", "--to", "1,1"]),
        "nonexistent",
    );
}

#[test]
fn nearest_picks_by_path_cost_and_agrees_with_dijkstra() {
    let map = walled_map("nearest");
    let m = s(&map);
    // From (9,0): (11,0) is two cells away across the wall but 21 moves round
    // it; (5,5) is nearer by path. (25,4) is in the sealed room.
    let o = tierpath(&[
        "nearest",
        m,
        "9,0",
        "11,0",
        "5,5",
        "25,4",
        "--compare",
        "--json",
    ]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["target"], 1, "{j}");
    assert_eq!(j["candidates"], 2, "{j}");
    assert_eq!(j["flat"]["target"], 1, "{j}");
    assert!(stdout_has(&o, "the choice agrees"));
    let o = tierpath(&["nearest", m, "0,0", "25,4", "--json"]);
    assert_ok(&o);
    assert_eq!(last_json(&o)["target"], serde_json::Value::Null);
    assert_fails(
        &tierpath(&["nearest", m, "0,0", "10,3"]),
        "target (10, 3) is on a blocked cell",
    );
    assert_fails(&tierpath(&["nearest", m, "0,0"]), "TARGET");
}

#[test]
fn queue_demo_answers_every_unit() {
    let o = tierpath(&["queue-demo", "--units", "60", "--budget", "300", "--json"]);
    assert_ok(&o);
    let j = last_json(&o);
    assert_eq!(j["answered"], 60, "{j}");
    assert_eq!(j["differ"], 0, "{j}");
    let frames = j["frames"].as_u64().unwrap();
    assert!(
        frames > 1 && j["expanded"].as_u64().unwrap() <= 300 * frames,
        "{j}"
    );
    let map = walled_map("queue");
    let o = tierpath(&[
        "queue-demo",
        s(&map),
        "--units",
        "20",
        "--budget",
        "50",
        "--json",
    ]);
    assert_ok(&o);
    assert_eq!(last_json(&o)["answered"], 20);
    assert_fails(&tierpath(&["queue-demo", "--budget", "0"]), "--budget");
}
