//! The map changes while a unit walks: a wall goes up across its path, the
//! hierarchy repairs the clusters it touched, the report says the path must
//! be planned again, and the new path goes around. Then a cost layer (a
//! danger zone) bends the path without blocking anything.
//!
//! `cargo run --release --example dynamic_map`

use tierpath::{CostLayers, DynamicHierarchy, Grid, Hierarchy, Point, QueryCache};

/// The map as ASCII: `#` walls, `*` the path, `~` cells costlier than plain.
fn draw(world: &DynamicHierarchy, path: &[Point]) -> String {
    let g = world.grid();
    let mut out = String::new();
    for y in 0..g.height() {
        for x in 0..g.width() {
            let p = Point::new(x, y);
            out.push(if path.contains(&p) {
                '*'
            } else if !g.is_passable(p) {
                '#'
            } else if g.weight(p).0 > 100 {
                '~'
            } else {
                '.'
            });
        }
        out.push('\n');
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let grid = Grid::from_fn(48, 20, |p| !(p.x == 24 && p.y < 12))?;
    let mut layers = CostLayers::new(&grid);
    let hierarchy = Hierarchy::builder().cluster_size(8).build(grid)?;
    let mut world = DynamicHierarchy::new(hierarchy);
    let mut cache = QueryCache::new();
    let (start, goal) = (Point::new(2, 16), Point::new(45, 16));

    let path = world
        .find_path(&mut cache, start, goal)?
        .path
        .ok_or("unreachable")?;
    println!(
        "before: cost {:.1} steps\n{}",
        world.movement().cost_in_steps(path.cost),
        draw(&world, &path.cells)
    );

    // A wall goes up from the bottom edge, leaving a gap at rows 12..14.
    let wall: Vec<Point> = (14..20).map(|y| Point::new(24, y)).collect();
    let report = world.set_passable(&wall, false)?;
    println!(
        "wall up: {} cells changed, clusters {:?} repaired ({:?} dead-end repair); path touched: {}, blocked: {}",
        report.changed_cells.len(),
        report.clusters,
        report.dead_ends,
        report.touches(&path.cells),
        report.blocks(&path.cells)
    );
    let path = world
        .find_path(&mut cache, start, goal)?
        .path
        .ok_or("unreachable")?;
    println!(
        "after: cost {:.1} steps\n{}",
        world.movement().cost_in_steps(path.cost),
        draw(&world, &path.cells)
    );

    // Danger around the gap: cells near (24, 13) cost up to 6x more.
    let danger = layers.add_layer("danger");
    let edits = layers.add_field(danger, Point::new(24, 13), 6, 500)?;
    let report = world.apply(&edits)?;
    println!(
        "danger zone: {} cells re-weighted, clusters {:?} repaired",
        report.changed_cells.len(),
        report.clusters
    );
    let path = world
        .find_path(&mut cache, start, goal)?
        .path
        .ok_or("unreachable")?;
    println!(
        "with danger: cost {:.1} (weighted) steps\n{}",
        world.movement().cost_in_steps(path.cost),
        draw(&world, &path.cells)
    );
    world.refresh_landmarks();
    Ok(())
}
