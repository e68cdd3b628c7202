//! `tierpath queue-demo [MAP]`: many units ask for paths at once; a
//! [`PathQueue`] answers them, oldest first, within a budget of expanded
//! nodes per frame. Prints the first frames, the totals, and checks every
//! answer against the one-shot query.

use super::solver::{PlannerOptions, hierarchy_for};
use super::{CliResult, micros};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tierpath::{Movement, PathQueue, Point, QueryCache};

/// Arguments of `tierpath queue-demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map (Moving AI `.map` or terrain text); default: the shipped
    /// data/default.map.
    pub map: Option<PathBuf>,
    /// Units, each asking for a path between two random cells of the map.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub units: usize,
    /// Expansions per frame (grid cells and cluster-graph nodes).
    #[arg(long, value_name = "N", default_value_t = 2000)]
    pub budget: u64,
    /// Seed of the units' random cells.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Frames to print one line each.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub show: usize,
    /// Load this saved hierarchy instead of building one.
    #[arg(long, value_name = "FILE")]
    pub hierarchy: Option<PathBuf>,
    /// Also print the summary as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tierpath queue-demo`.
pub fn run(args: Args) -> CliResult {
    if args.budget == 0 {
        return Err("--budget must be at least 1 expansion per frame".into());
    }
    let map = match args.map {
        Some(m) => m,
        None => super::find_default_map()?,
    };
    let grid = crate::read_grid(&map)?;
    let movement = Movement::default();
    let hpa = PlannerOptions {
        hierarchy: args.hierarchy.clone(),
        cluster_size: None,
        ..PlannerOptions::default()
    };
    let h = hierarchy_for(&grid, movement, &hpa)?;
    let cells: Vec<Point> = grid.passable_points().collect();
    if cells.is_empty() {
        return Err(format!("{}: the map has no passable cell", map.display()).into());
    }
    // SplitMix64 over the seed: the same units on every run.
    let mut state = args.seed;
    let mut pick = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        cells[((z ^ (z >> 31)) % cells.len() as u64) as usize]
    };
    let requests: Vec<(Point, Point)> = (0..args.units).map(|_| (pick(), pick())).collect();

    let mut queue = PathQueue::new();
    queue.reserve(&h)?;
    let ids = requests
        .iter()
        .map(|(s, t)| queue.push(&h, *s, *t))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "tierpath queue-demo: {} ({}x{}), {} units, at most {} expansions per frame, oldest first",
        map.display(),
        grid.width(),
        grid.height(),
        args.units,
        args.budget
    )?;
    let mut times: Vec<Duration> = Vec::new();
    let mut answered = Vec::with_capacity(ids.len());
    let mut expanded = 0u64;
    while queue.pending() > 0 {
        let t = Instant::now();
        let frame = queue.update(&h, args.budget)?;
        let took = t.elapsed();
        times.push(took);
        expanded += frame.expanded;
        if times.len() <= args.show {
            writeln!(
                out,
                "frame {}: {} expansions, {} answered, {} waiting, {:.0} us",
                times.len(),
                frame.expanded,
                frame.completed,
                queue.pending(),
                micros(took)
            )?;
        }
        while let Some(a) = queue.pop_finished() {
            answered.push(a);
        }
    }
    // Every answer is the one-shot answer, and they came oldest first.
    let mut cache = QueryCache::new();
    let mut differ = 0;
    let (mut reachable, mut moves) = (0usize, 0usize);
    for (k, (id, outcome)) in answered.iter().enumerate() {
        if *id != ids[k] {
            return Err(format!("request {id} answered out of order").into());
        }
        let (s, t) = requests[k];
        if *outcome != h.find_path(&mut cache, s, t)? {
            differ += 1;
        }
        if let Some(p) = &outcome.path {
            reachable += 1;
            moves += p.moves();
        }
    }
    let frames = times.len();
    let total: Duration = times.iter().sum();
    let mut sorted = times.clone();
    sorted.sort();
    let (median, longest) = (
        sorted.get(frames / 2).copied().unwrap_or_default(),
        sorted.last().copied().unwrap_or_default(),
    );
    writeln!(
        out,
        "{} requests answered ({} reachable, {:.0} moves on average) in {frames} frames: \
         {:.1} per frame; frame median {:.0} us, longest {:.0} us; {expanded} expansions in all",
        answered.len(),
        reachable,
        moves as f64 / reachable.max(1) as f64,
        answered.len() as f64 / frames.max(1) as f64,
        micros(median),
        micros(longest)
    )?;
    writeln!(
        out,
        "check: {} of {} answers equal the one-shot query's",
        answered.len() - differ,
        answered.len()
    )?;
    if args.json {
        let json = serde_json::json!({
            "map": map.display().to_string(),
            "units": args.units,
            "budget": args.budget,
            "frames": frames,
            "answered": answered.len(),
            "reachable": reachable,
            "per_frame": answered.len() as f64 / frames.max(1) as f64,
            "expanded": expanded,
            "frame_median_us": micros(median),
            "frame_longest_us": micros(longest),
            "total_ms": total.as_secs_f64() * 1e3,
            "differ": differ,
        });
        writeln!(out, "{json}")?;
    }
    out.flush()?;
    if differ > 0 {
        return Err(format!("{differ} answers differ from the one-shot query").into());
    }
    Ok(())
}
