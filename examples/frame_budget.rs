//! Frame budgets: spread path searches over frames.
//!
//! 1. One long two-tier query, time-sliced: `SlicedQuery::update` expands at
//!    most 500 nodes per frame; the answer equals the one-shot `find_path`.
//! 2. The same with flat A* (`SlicedSearch`).
//! 3. A `PathQueue` serving 100 units' requests, at most 2,000 expansions per
//!    frame, oldest first; every answer is checked against `find_path`.
//!
//! `cargo run --release --example frame_budget [MAP]`

use std::time::{Duration, Instant};

use tierpath::{
    AStar, Hierarchy, PathQueue, Point, QueryCache, SearchCache, SliceStatus, SlicedQuery,
    SlicedSearch, io,
};

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
    // A deterministic spread of cells (a linear congruential walk).
    let mut seed = 12345u64;
    let mut pick = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        cells[((seed >> 33) as usize) % cells.len()]
    };
    let (start, goal) = (cells[0], cells[cells.len() - 1]);
    println!(
        "{map}: {}x{}; query {start} -> {goal}",
        grid.width(),
        grid.height()
    );

    // 1. A two-tier query, 500 expansions per frame.
    let mut query = SlicedQuery::new();
    query.reserve(&hierarchy); // size the scratch now, not in a frame
    query.start(&hierarchy, start, goal)?;
    let mut frames = 0;
    let mut last = 0;
    while query.update(&hierarchy, 500)? == SliceStatus::InProgress {
        frames += 1;
        assert!(query.expanded() - last <= 500);
        last = query.expanded();
    }
    let sliced = query.finish().expect("done");
    let one_shot = hierarchy.find_path(&mut QueryCache::new(), start, goal)?;
    assert_eq!(sliced, one_shot, "slicing never changes the answer");
    println!(
        "two-tier, 500 expansions per frame: {} frames, {} nodes expanded, path of {} cells \
         (identical to find_path)",
        frames + 1,
        sliced.stats.abstract_expanded + sliced.stats.fine_expanded,
        sliced.path.as_ref().map_or(0, |p| p.cells.len())
    );

    // 2. Flat A*, 500 expansions per frame.
    let astar = AStar::new(&grid);
    let mut search = SlicedSearch::new(astar);
    search.start(start, goal)?;
    let mut frames = 1;
    while search.update(500) == SliceStatus::InProgress {
        frames += 1;
    }
    let flat = search.finish().expect("started");
    assert_eq!(flat, astar.find_path(&mut SearchCache::new(), start, goal)?);
    println!(
        "flat A*, 500 expansions per frame: {frames} frames, {} cells expanded",
        flat.stats.expanded
    );

    // 3. A queue of 100 units' requests, 2,000 expansions per frame.
    let mut queue = PathQueue::new();
    queue.reserve(&hierarchy)?;
    let requests: Vec<(Point, Point)> = (0..100).map(|_| (pick(), pick())).collect();
    let ids = requests
        .iter()
        .map(|(s, t)| queue.push(&hierarchy, *s, *t))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut frames, mut busiest) = (0, Duration::ZERO);
    let mut answered = Vec::new();
    while queue.pending() > 0 {
        let t = Instant::now();
        let frame = queue.update(&hierarchy, 2_000)?;
        busiest = busiest.max(t.elapsed());
        frames += 1;
        if frames <= 3 {
            println!(
                "  frame {frames}: {} expansions, {} requests answered",
                frame.expanded, frame.completed
            );
        }
        while let Some((id, outcome)) = queue.pop_finished() {
            answered.push((id, outcome));
        }
    }
    let mut cache = QueryCache::new();
    for (id, outcome) in &answered {
        let k = ids.iter().position(|i| i == id).expect("our request");
        let (s, t) = requests[k];
        assert_eq!(outcome, &hierarchy.find_path(&mut cache, s, t)?);
    }
    assert!(
        answered.iter().map(|(id, _)| *id).eq(ids.iter().copied()),
        "oldest first"
    );
    println!(
        "queue: {} requests in {frames} frames of at most 2000 expansions ({:.1} per frame), \
         the busiest frame {:.2} ms; every answer equals find_path's",
        answered.len(),
        answered.len() as f64 / frames as f64,
        busiest.as_secs_f64() * 1e3
    );
    Ok(())
}
