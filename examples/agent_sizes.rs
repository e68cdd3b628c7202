//! Agent sizes: one preprocessing, paths for 1x1, 2x2 and 3x3 units.
//!
//! A wall splits the map; its openings are 1, 2 and 4 cells wide. The
//! hierarchy is built once for sizes 1 to 3 (`max_unit_size(3)`); each unit
//! then takes the cheapest opening it fits through. Each panel draws one unit's path: its
//! top-left cell (the anchor) as the size's digit, the rest of the squares it
//! sweeps as `+`. The exact flat A* for the size gives the optimum to
//! compare with, and the memory of the one annotated hierarchy is compared
//! with building one per size.
//!
//! `cargo run --release --example agent_sizes`

use tierpath::{
    AStar, Clearance, Grid, Hierarchy, HierarchyBuilder, Point, QueryCache, QueryOptions,
    SearchCache, validate_sized_path,
};

const W: u32 = 64;
const H: u32 = 22;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The wall at x = 31..=32, with a 1-cell door at y = 10, a 2-cell door at
    // y = 5..=6 and a 4-cell opening at y = 16..=19; a pillar on each side.
    let grid = Grid::from_fn(W, H, |p| {
        let wall = (31..=32).contains(&p.x)
            && !(p.y == 10 || (5..=6).contains(&p.y) || (16..=19).contains(&p.y));
        let pillar =
            (p.x == 14 && (13..=18).contains(&p.y)) || (p.x == 50 && (2..=6).contains(&p.y));
        !(wall || pillar)
    })?;
    let h = HierarchyBuilder::new()
        .cluster_size(8)
        .max_unit_size(3)
        .build(grid.clone())?;
    let clearance = Clearance::new(grid.clone());
    let (start, goal) = (Point::new(2, 10), Point::new(58, 10));
    let mut cache = QueryCache::new();
    let mut flat_cache = SearchCache::new();
    for size in 1..=3 {
        let options = QueryOptions::new().unit_size(size);
        let out = h.find_path_with(&mut cache, start, goal, &options)?;
        let path = out.path.ok_or("every size fits through some opening")?;
        validate_sized_path(&path, h.grid(), h.movement(), size)?;
        let exact = AStar::for_unit(&clearance, size)
            .find_path(&mut flat_cache, start, goal)?
            .path
            .ok_or("the exact search agrees")?;
        println!(
            "size {size} ({size}x{size} unit): {} moves, cost {:.2} steps ({:?}); exact flat A*: {:.2} steps",
            path.moves(),
            h.movement().cost_in_steps(path.cost),
            out.stats.method,
            h.movement().cost_in_steps(exact.cost)
        );
        println!("{}", draw(&grid, &path.cells, size));
    }

    // One annotated hierarchy against one single-cell hierarchy per size,
    // each built on its size's grid.
    let per_size: usize = (1..=3)
        .map(|k| Hierarchy::build(clearance.grid_for_size(k)).map(|o| o.memory_bytes()))
        .sum::<Result<usize, _>>()?;
    let s = h.stats();
    println!(
        "one hierarchy for sizes 1..=3: {} nodes, {} edges, {} bytes; one per size: {} bytes",
        s.nodes,
        s.intra_edges + s.inter_edges,
        h.memory_bytes(),
        per_size
    );
    if h.memory_bytes() > per_size {
        println!(
            "  (larger here, {:.2}x: the shared hierarchy keeps every size's transitions and a \
             component label per size for each cell, while the larger sizes' own grids, where few \
             cells fit on a map this small, give small graphs; on large maps, where each size's \
             graph is nearly full, the shared one is up to 1.5x smaller than one per size: \
             docs/agent-sizes.md, `cargo bench --bench sized`)",
            h.memory_bytes() as f64 / per_size as f64
        );
    } else {
        println!(
            "  (the shared hierarchy is {:.2}x smaller than one per size)",
            per_size as f64 / h.memory_bytes() as f64
        );
    }
    for c in &s.per_size {
        println!(
            "  size {}: fits on {} cells, uses {} of {} nodes and {} of {} edges",
            c.size,
            c.cells,
            c.nodes,
            s.nodes,
            c.edges,
            s.intra_edges + s.inter_edges
        );
    }
    Ok(())
}

/// The map with a unit's path: anchors as the size's digit, the rest of the
/// swept squares as `+`, walls `#`.
fn draw(grid: &Grid, cells: &[Point], size: u32) -> String {
    let mut rows: Vec<Vec<char>> = (0..grid.height())
        .map(|y| {
            (0..grid.width())
                .map(|x| {
                    if grid.is_passable(Point::new(x, y)) {
                        '.'
                    } else {
                        '#'
                    }
                })
                .collect()
        })
        .collect();
    for p in cells {
        for dy in 0..size {
            for dx in 0..size {
                let c = &mut rows[(p.y + dy) as usize][(p.x + dx) as usize];
                if *c == '.' {
                    *c = '+';
                }
            }
        }
    }
    let digit = char::from_digit(size, 10).unwrap_or('*');
    for p in cells {
        rows[p.y as usize][p.x as usize] = digit;
    }
    let mut s = String::new();
    for r in rows {
        s.extend(r);
        s.push('\n');
    }
    s
}
