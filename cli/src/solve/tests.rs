//! Tests of `tierpath solve`: scoring against rounded optima, and a whole
//! run with the hierarchy, `--compare`, `--json` and `--paths`.

use super::*;
use tierpath::Grid;

/// The keys of a one-line JSON object, in order, duplicates kept (parsing
/// into a map would hide them).
fn top_level_keys(line: &str) -> Vec<String> {
    let (mut keys, mut depth, mut in_string, mut escaped) = (Vec::new(), 0, false, false);
    let mut current = String::new();
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
                if depth == 1 && chars.peek() == Some(&':') {
                    keys.push(std::mem::take(&mut current));
                }
                current.clear();
                continue;
            }
            current.push(c);
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            _ => {}
        }
    }
    keys
}

#[test]
fn duplicate_keys_are_seen() {
    let keys = top_level_keys(r#"{"a":1,"b":{"a":"x\"y"},"a":[{"c":2}]}"#);
    assert_eq!(keys, ["a", "b", "a"]);
}

/// `solve --algo hpa --compare --json --paths` on a small generated map:
/// the summary's JSON has every key once, the hierarchy's figures, the
/// per-level expansions and the comparison; the paths file has one line
/// per query in the flat planners' format.
#[test]
fn hpa_with_comparison() {
    use tierpath::Point;
    let dir = std::env::temp_dir().join(format!("tierpath-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grid = Grid::from_fn(96, 96, |p| {
        !((p.x == 40 && p.y < 80) || (p.y == 50 && p.x > 50 && p.x < 95))
    })
    .unwrap();
    let map = dir.join("walls.map");
    io::save_map(&grid, &map).unwrap();
    let mut astar = crate::solver::Algo::Astar
        .build(&grid, Movement::default())
        .unwrap();
    let mut scen = String::from("version 1\n");
    let queries = [
        (Point::new(2, 2), Point::new(90, 90)),
        (Point::new(90, 2), Point::new(3, 94)),
        (Point::new(45, 60), Point::new(47, 61)),
        (Point::new(10, 10), Point::new(10, 10)),
    ];
    for (s, g) in queries {
        let steps =
            Movement::default().cost_in_steps(astar.solve(s, g).unwrap().path.unwrap().cost);
        scen.push_str(&format!(
            "{}\twalls.map\t96\t96\t{}\t{}\t{}\t{}\t{steps:.8}\n",
            (steps / 4.0) as u32,
            s.x,
            s.y,
            g.x,
            g.y
        ));
    }
    let scen_path = dir.join("walls.map.scen");
    std::fs::write(&scen_path, scen).unwrap();
    let paths = dir.join("hpa.paths");
    let args = Args {
        map: map.clone(),
        scen: scen_path,
        algo: Algo::Hpa,
        buckets: BucketFilter::All,
        max_queries: None,
        paths: Some(paths.clone()),
        json: true,
        hierarchy: None,
        cluster_size: Some(8),
        compare: true,
        size: 1,
        strict: false,
    };
    let mut out = Vec::new();
    run_to(args, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("hierarchy   sizes 1..=1, cluster 8"),
        "{text}"
    );
    assert!(text.contains("speedup"), "{text}");
    let line = text.lines().last().unwrap();
    let j: serde_json::Value = serde_json::from_str(line).unwrap();
    let keys = top_level_keys(line);
    assert_eq!(
        keys.len(),
        j.as_object().unwrap().len(),
        "a key twice: {line}"
    );
    assert_eq!(j["algo"], "hpa");
    assert_eq!(j["solved"], 4);
    assert_eq!(j["invalid"], 0);
    assert_eq!(j["shorter_than_optimal"], 0);
    assert_eq!(j["setup"], "build");
    assert_eq!(j["hierarchy"]["cluster_size"], 8);
    assert!(j["hierarchy"]["bytes_per_cell"].as_f64().unwrap() > 0.0);
    let (a, f, m) = (
        j["mean_abstract_expanded"].as_f64().unwrap(),
        j["mean_fine_expanded"].as_f64().unwrap(),
        j["mean_expanded"].as_f64().unwrap(),
    );
    assert!(a > 0.0 && (a + f - m).abs() < 1e-9, "{line}");
    assert_eq!(j["compare"]["reachability_disagreements"], 0);
    assert_eq!(j["compare"]["cheaper_than_exact"], 0);
    assert!(j["speedup_median"].as_f64().unwrap() > 0.0);
    assert!(j["compare"]["max_cost_ratio"].as_f64().unwrap() >= 1.0);
    let written = std::fs::read_to_string(&paths).unwrap();
    let lines: Vec<&str> = written.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 4);
    assert!(
        lines[0].starts_with("0 ") && lines[0].contains(" 2,2 ") && lines[0].ends_with(" 90,90")
    );
    assert_eq!(lines[3], "3 0.000000 10,10");

    // Options for the hierarchy only apply to it.
    let flat = Args {
        map,
        scen: dir.join("walls.map.scen"),
        algo: Algo::Astar,
        buckets: BucketFilter::All,
        max_queries: None,
        paths: None,
        json: false,
        hierarchy: None,
        cluster_size: Some(8),
        compare: false,
        size: 1,
        strict: false,
    };
    let err = run_to(flat, &mut Vec::new()).unwrap_err().to_string();
    assert!(err.contains("--algo hpa"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn scoring_counts_off_optimal() {
    let printed =
        Printed::parse(b"version 1\n1 m 9 9 0 0 1 1 10.00000000\n1 m 9 9 0 0 1 1 12.66\n");
    let query = |line: usize, optimal: f64| ScenarioQuery {
        line,
        bucket: 0,
        map: "m".into(),
        width: 9,
        height: 9,
        start: tierpath::Point::new(0, 0),
        goal: tierpath::Point::new(1, 1),
        optimal,
    };
    let mut t = Tally::default();
    score(&mut t, &printed, &query(2, 10.0), 10.0, None);
    score(&mut t, &printed, &query(2, 14.14213562), 14.1421, None);
    score(&mut t, &printed, &query(2, 10.0), 11.0, None);
    score(&mut t, &printed, &query(2, 0.0), 0.0, None);
    score(&mut t, &printed, &query(2, 10.0), 9.9, None);
    assert_eq!(t.not_optimal, 2);
    assert_eq!(t.shorter, 1);
    assert_eq!(t.ratios.len(), 4);
    // Two decimals: 12.65685 is the optimum printed as 12.66; judged
    // against the exact cost, a path a little longer is not optimal.
    let mut t = Tally::default();
    score(&mut t, &printed, &query(3, 12.66), 12.65685, Some(12.65685));
    assert_eq!((t.not_optimal, t.shorter), (0, 0));
    score(&mut t, &printed, &query(3, 12.66), 12.6580, Some(12.65685));
    assert_eq!((t.not_optimal, t.shorter), (1, 0));
    score(&mut t, &printed, &query(3, 12.66), 12.6, Some(12.65685));
    assert_eq!(t.shorter, 1);
}
