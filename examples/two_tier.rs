//! The two-tier planner in a few lines: build the hierarchy of the shipped
//! default map once, answer one long query with it and with flat A*, and
//! compare the work each did.
//!
//! `cargo run --release --example two_tier [MAP]`

use std::time::Instant;

use tierpath::{AStar, Dijkstra, Grid, Hierarchy, Point, QueryCache, SearchCache, io};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let map = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.map").to_string());
    let grid = io::read_grid(&map)?;

    // Offline, once per map: the hierarchy (it keeps its own copy of the grid).
    let t = Instant::now();
    let hierarchy = Hierarchy::build(grid.clone())?;
    let stats = hierarchy.stats();
    println!(
        "{map}: {}x{}; hierarchy built in {:.1} ms: {} clusters, {} nodes, {} edges, {:.1} bytes/cell",
        grid.width(),
        grid.height(),
        t.elapsed().as_secs_f64() * 1e3,
        stats.clusters,
        stats.nodes,
        stats.intra_edges + stats.inter_edges,
        stats.bytes_per_cell()
    );

    let (start, goal) = far_apart(&grid).ok_or("the map has no passable cell")?;
    println!("query {start} -> {goal}");

    // Online: one scratch per thread, reused across queries (the first query
    // sizes it, so time the second).
    let mut cache = QueryCache::new();
    hierarchy.find_path(&mut cache, start, goal)?;
    let t = Instant::now();
    let out = hierarchy.find_path(&mut cache, start, goal)?;
    let hpa_time = t.elapsed();
    let path = out.path.ok_or("unreachable")?;
    path.validate(hierarchy.grid(), hierarchy.movement())?;

    let mut flat_cache = SearchCache::new();
    AStar::new(&grid).find_path(&mut flat_cache, start, goal)?;
    let t = Instant::now();
    let flat = AStar::new(&grid).find_path(&mut flat_cache, start, goal)?;
    let flat_time = t.elapsed();
    let exact = flat.path.ok_or("unreachable")?;

    let m = hierarchy.movement();
    println!(
        "flat A*:   cost {:.2}, {} cells expanded, {:.0} us",
        m.cost_in_steps(exact.cost),
        flat.stats.expanded,
        flat_time.as_secs_f64() * 1e6
    );
    println!(
        "hierarchy: cost {:.2} ({:+.2}%), {} abstract nodes + {} cells expanded ({:?}), {:.0} us",
        m.cost_in_steps(path.cost),
        (path.cost.0 as f64 / exact.cost.0 as f64 - 1.0) * 100.0,
        out.stats.abstract_expanded,
        out.stats.fine_expanded,
        out.stats.method,
        hpa_time.as_secs_f64() * 1e6
    );
    println!(
        "nodes expanded: {:.1}x fewer with the hierarchy",
        flat.stats.expanded as f64 / (out.stats.abstract_expanded + out.stats.fine_expanded) as f64
    );
    Ok(())
}

/// Two cells far apart on one region: the farthest cell from the first
/// passable one, and the farthest from that.
fn far_apart(grid: &Grid) -> Option<(Point, Point)> {
    let dijkstra = Dijkstra::new(grid);
    let mut cache = SearchCache::new();
    let mut farthest = |from: Point| {
        let field = dijkstra.distance_field(&mut cache, from).ok()?;
        grid.passable_points()
            .filter_map(|p| field.get(p).map(|c| (c, p)))
            .max_by_key(|(c, p)| (*c, std::cmp::Reverse((p.y, p.x))))
            .map(|(_, p)| p)
    };
    let a = farthest(grid.passable_points().next()?)?;
    let b = farthest(a)?;
    Some((a, b))
}
