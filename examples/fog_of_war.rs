//! Fog of war: a player plans on what it has seen. Unexplored cells count as
//! open ground, so the first plan runs straight at a wall it cannot see; as
//! the unit walks, its sight reveals the wall, the player's hierarchy is
//! repaired, and the plan bends toward the gap. Two players with different
//! knowledge plan different paths on the same map.
//!
//! `cargo run --release --example fog_of_war`

use std::sync::Arc;

use tierpath::{Grid, Hierarchy, PlayerView, Point, QueryCache};

fn draw(truth: &Grid, view: &PlayerView, path: &[Point], unit: Point) -> String {
    let mut out = String::new();
    for y in 0..truth.height() {
        for x in 0..truth.width() {
            let p = Point::new(x, y);
            out.push(if p == unit {
                'U'
            } else if path.contains(&p) {
                '*'
            } else if !view.is_explored(p) {
                if truth.is_passable(p) { ' ' } else { '?' }
            } else if truth.is_passable(p) {
                '.'
            } else {
                '#'
            });
        }
        out.push('\n');
    }
    out
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A wall across the middle with one gap at the bottom.
    let truth = Grid::from_fn(40, 20, |p| p.x != 20 || p.y >= 17)?;
    // The true map's hierarchy, built once and shared by every player.
    let shared = Arc::new(Hierarchy::builder().cluster_size(8).build(truth.clone())?);
    let mut scout = PlayerView::new(Arc::clone(&shared))?;
    let mut cache = QueryCache::new();
    let (mut unit, goal) = (Point::new(2, 3), Point::new(37, 3));
    const SIGHT: u32 = 4;
    scout.reveal_radius(unit, SIGHT)?;
    let mut steps = 0;
    while unit != goal && steps < 200 {
        let path = scout
            .find_path(&mut cache, unit, goal)?
            .path
            .ok_or("no path")?;
        if steps % 12 == 0 {
            println!(
                "step {steps}: {} cells explored, planned {} cells ('?' = walls not yet seen)",
                scout.explored_cells(),
                path.cells.len()
            );
            print!("{}", draw(&truth, &scout, &path.cells, unit));
        }
        // Walk one cell, look around, re-plan if what was seen changed the map.
        unit = path.cells[1];
        scout.reveal_radius(unit, SIGHT)?;
        steps += 1;
    }
    println!(
        "arrived after {steps} steps; the player holds {} bytes of its own: {}",
        scout.memory_bytes(),
        if scout.is_shared() {
            "it has seen every wall, so it plans on the true map's hierarchy, shared"
        } else {
            "its own hierarchy of what it believes"
        }
    );

    // A second player who has seen nothing yet still believes the straight line.
    let fresh = PlayerView::new(shared)?;
    let naive = fresh
        .find_path(&mut cache, Point::new(2, 3), goal)?
        .path
        .ok_or("no path")?;
    println!(
        "an unexplored player's plan: {} cells, straight through the unseen wall \
         (it holds {} bytes of its own, and shares the hierarchy of open ground, {} bytes, \
         with every player who has seen nothing else)",
        naive.cells.len(),
        fresh.memory_bytes(),
        fresh.open_twin_bytes()
    );
    Ok(())
}
