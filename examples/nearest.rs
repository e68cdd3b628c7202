//! Nearest of many: from one start, the nearest of 25 "resources" by path
//! cost, with the hierarchy (`Hierarchy::nearest`) and with the exact flat
//! multi-target Dijkstra, which it always agrees with on the choice.
//!
//! `cargo run --release --example nearest [MAP]`

use std::time::Instant;

use tierpath::{AStar, Dijkstra, Hierarchy, Point, QueryCache, SearchCache, io};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let map = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.map").to_string());
    let grid = io::read_grid(&map)?;
    let hierarchy = Hierarchy::build(grid.clone())?;
    let cells: Vec<Point> = grid.passable_points().collect();
    if cells.is_empty() {
        return Err("the map has no passable cell".into());
    }
    let mut seed = 2024u64;
    let mut pick = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        cells[((seed >> 33) as usize) % cells.len()]
    };
    let start = pick();
    let resources: Vec<Point> = (0..25).map(|_| pick()).collect();
    println!(
        "{map}: from {start}, the nearest of {} resources",
        resources.len()
    );

    let mut cache = QueryCache::new();
    hierarchy.nearest(&mut cache, start, &resources)?; // sizes the scratch
    let t = Instant::now();
    let out = hierarchy.nearest(&mut cache, start, &resources)?;
    let hier_time = t.elapsed();
    let mut flat_cache = SearchCache::new();
    let t = Instant::now();
    let (flat, _) = Dijkstra::new(&grid).nearest(&mut flat_cache, start, &resources)?;
    let flat_time = t.elapsed();

    match (&out.nearest, &flat) {
        (Some(n), Some(f)) => {
            // The choice is exact: the chosen resource costs what the flat
            // search's costs (the path may be the hierarchy's, near-optimal).
            let exact = AStar::new(&grid)
                .find_path(&mut flat_cache, start, resources[n.target])?
                .path
                .expect("reachable");
            assert_eq!(exact.cost, f.path.cost);
            println!(
                "hierarchy: resource #{} at {}, path cost {:.2} steps, {:?}, {:.3} ms \
                 ({} two-tier queries, {} exact searches, {} targets on the start's island)",
                n.target,
                resources[n.target],
                hierarchy.movement().cost_in_steps(n.path.cost),
                out.stats.method,
                hier_time.as_secs_f64() * 1e3,
                out.stats.hierarchical_queries,
                out.stats.exact_searches,
                out.stats.candidates
            );
            println!(
                "flat Dijkstra: resource #{} at {}, cost {:.2} steps, {:.3} ms",
                f.target,
                resources[f.target],
                hierarchy.movement().cost_in_steps(f.path.cost),
                flat_time.as_secs_f64() * 1e3
            );
        }
        (None, None) => println!("no resource is reachable from {start}"),
        _ => unreachable!("the hierarchy and the flat search agree on reachability"),
    }
    Ok(())
}
