//! Headless: units on `data/default.map` (or the map given) ask for paths
//! between random cells; the plugin serves them within a per-frame budget;
//! every tenth frame a wall goes up across some unit's path, and the paths
//! it touches are planned again. Prints the frame times.
//!
//! ```text
//! cargo run --release -p bevy_tierpath --example units -- [MAP] [UNITS] [FRAMES] [BUDGET]
//! ```

use std::time::Instant;

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_tierpath::{
    EditMap, NavGrid, Path, PathFailed, PathFrameStats, PathRequest, TierpathPlugin,
};
use tierpath::{Edit, Hierarchy, Point, io};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let map = args
        .first()
        .cloned()
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/../data/default.map").to_string());
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (units, frames, budget) = (number(1, 500), number(2, 300), number(3, 4000));

    let grid = io::read_grid(&map)?;
    let open: Vec<Point> = grid.passable_points().collect();
    let hierarchy = Hierarchy::build(grid)?;
    let mut app = App::new();
    app.add_plugins(TierpathPlugin { budget })
        .insert_resource(NavGrid::new(hierarchy));

    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut pick = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        open[(seed % open.len() as u64) as usize]
    };
    for _ in 0..units {
        let (s, g) = (pick(), pick());
        app.world_mut().spawn(PathRequest::new(s, g));
    }

    let (mut times, mut edit_times) = (Vec::new(), Vec::new());
    let (mut expanded, mut edits, mut failed) = (0u64, 0u32, 0usize);
    for frame in 0..frames {
        let editing = frame % 10 == 9;
        if editing {
            // Close three cells in the middle of some unit's path.
            let world = app.world_mut();
            let mut paths = world.query::<&Path>();
            if let Some(path) = paths.iter(world).nth(frame as usize % 7) {
                let mid = path.cells.len() / 2;
                let cells = &path.cells[mid.saturating_sub(1)..(mid + 2).min(path.cells.len())];
                let batch: Vec<Edit> = cells.iter().map(|p| Edit::Passable(*p, false)).collect();
                world.write_message(EditMap(batch));
                edits += 1;
            }
        }
        let t = Instant::now();
        app.update();
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if editing {
            edit_times.push(ms)
        } else {
            times.push(ms)
        }
        expanded += app.world().resource::<PathFrameStats>().expanded;
        failed += app.world().resource::<Messages<PathFailed>>().len();
    }
    let answered = app.world_mut().query::<&Path>().iter(app.world()).count();
    let stats = *app.world().resource::<PathFrameStats>();
    println!("map {map}: {units} units, {frames} frames, budget {budget} expansions per frame");
    summary("frames without edits", &times);
    summary("frames with an edit (repair + re-requests)", &edit_times);
    println!(
        "expanded {expanded} nodes ({:.0} per frame); {answered} units hold a path, {} pending, \
         {} answered in all, {failed} failure messages; {edits} edits",
        expanded as f64 / frames as f64,
        stats.pending,
        stats.answered_total
    );
    Ok(())
}

fn summary(what: &str, times: &[f64]) {
    if times.is_empty() {
        return;
    }
    let mut sorted = times.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "{what}, ms: mean {mean:.3}, median {:.3}, p95 {:.3}, max {:.3} ({} frames)",
        at(0.5),
        at(0.95),
        at(1.0),
        times.len()
    );
}
