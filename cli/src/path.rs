//! `tierpath path MAP --from X,Y --to X,Y`: one query with the run-time
//! options: a budget on the search (`--budget N`), a partial path when the goal
//! is not reached (`--partial`), and the search spread over frames of at most
//! N expansions (`--slice N`), with the answer checked against the one-shot
//! query; all of them for a unit of `--size K` cells (checked against the
//! footprint rule).

use super::render::{self, View};
use super::solver::{PlannerOptions, hierarchy_for};
use super::{CliResult, parse_point};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tierpath::{
    AStar, Clearance, Movement, Path, Point, QueryCache, QueryOptions, SearchCache, SliceStatus,
    SlicedQuery, SlicedSearch,
};

/// The planners `path` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PathAlgo {
    /// Flat A* (exact).
    Astar,
    /// The two-tier planner.
    Hpa,
}

/// Arguments of `tierpath path`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map (Moving AI `.map` or terrain text).
    pub map: PathBuf,
    /// Start cell X,Y (column,row; 0,0 is the top-left).
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub from: Point,
    /// Goal cell X,Y.
    #[arg(long, value_name = "X,Y", value_parser = parse_point)]
    pub to: Point,
    /// The planner.
    #[arg(long, value_enum, default_value = "hpa")]
    pub algo: PathAlgo,
    /// With `--algo astar`: stop the search after N expansions (the answer is
    /// then "out of budget", or a partial path with `--partial`).
    #[arg(long, value_name = "N")]
    pub budget: Option<u64>,
    /// When the goal is not reached (unreachable, or the budget ran out),
    /// return the path to the reachable cell closest to it.
    #[arg(long)]
    pub partial: bool,
    /// Spread the search over frames of at most N expansions each (a sliced
    /// query) and report the frames; the answer is checked to equal the
    /// one-shot query's.
    #[arg(long, value_name = "N")]
    pub slice: Option<u64>,
    /// With `--algo hpa`: load this saved hierarchy instead of building one.
    #[arg(long, value_name = "FILE")]
    pub hierarchy: Option<PathBuf>,
    /// Plan for a unit SIZE x SIZE cells, anchored at its top-left cell (a
    /// loaded hierarchy must serve the size).
    #[arg(long, value_name = "SIZE", default_value_t = 1, value_parser = crate::unit::parse)]
    pub size: u32,
    /// Widest picture, in characters (0: no picture).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub cols: u32,
    /// Also print the answer as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// An answer, whichever the planner.
struct Answer {
    path: Option<Path>,
    partial: bool,
    out_of_budget: bool,
    expanded: u64,
    frames: Option<usize>,
    method: String,
    /// Building or loading the hierarchy (`--algo hpa`), and what it was.
    setup: Option<(&'static str, Duration)>,
    /// The one-shot query alone.
    query: Duration,
    /// The sliced run alone (`--slice`).
    sliced: Option<Duration>,
}

/// Runs `tierpath path`.
pub fn run(args: Args) -> CliResult {
    let grid = crate::read_grid(&args.map)?;
    let movement = Movement::default();
    let (start, goal) = (args.from, args.to);
    let name = args.map.display().to_string();
    if args.slice == Some(0) {
        return Err("--slice must be at least 1 expansion per frame".into());
    }
    let answer = match args.algo {
        PathAlgo::Astar => {
            if args.hierarchy.is_some() {
                return Err("--hierarchy applies to --algo hpa".into());
            }
            let clearance = (args.size > 1).then(|| Clearance::new(grid.clone()));
            let mut astar = match &clearance {
                Some(c) => AStar::for_unit(c, args.size),
                None => AStar::new(&grid),
            }
            .movement(movement)
            .partial(args.partial);
            if let Some(n) = args.budget {
                astar = astar.max_expansions(n);
            }
            let mut cache = SearchCache::new();
            let t = Instant::now();
            let one = astar
                .find_path(&mut cache, start, goal)
                .map_err(|e| format!("{name}: {e}"))?;
            let query = t.elapsed();
            let (mut frames, mut sliced_time) = (None, None);
            if let Some(n) = args.slice {
                let t = Instant::now();
                let mut search = SlicedSearch::new(astar);
                search.start(start, goal)?;
                let mut count = 1;
                while search.update(n) == SliceStatus::InProgress {
                    count += 1;
                }
                let sliced = search.finish().expect("a search was started");
                sliced_time = Some(t.elapsed());
                if sliced != one {
                    return Err("the sliced search differs from the one-shot search".into());
                }
                frames = Some(count);
            }
            Answer {
                expanded: one.stats.expanded,
                partial: one.partial,
                out_of_budget: one.out_of_budget,
                path: one.path,
                frames,
                method: "flat".into(),
                setup: None,
                query,
                sliced: sliced_time,
            }
        }
        PathAlgo::Hpa => {
            if args.budget.is_some() {
                return Err("--budget applies to --algo astar: a two-tier query always \
                            completes (spread it over frames with --slice N)"
                    .into());
            }
            let hpa = PlannerOptions {
                hierarchy: args.hierarchy.clone(),
                cluster_size: None,
                size: args.size,
            };
            let t = Instant::now();
            let h = hierarchy_for(&grid, movement, &hpa)?;
            let setup = t.elapsed();
            let setup_kind = if args.hierarchy.is_some() {
                "loaded"
            } else {
                "built"
            };
            let options = QueryOptions::new()
                .partial(args.partial)
                .unit_size(args.size);
            let mut cache = QueryCache::new();
            let t = Instant::now();
            let one = h
                .find_path_with(&mut cache, start, goal, &options)
                .map_err(|e| format!("{name}: {e}"))?;
            let query = t.elapsed();
            let (mut frames, mut sliced_time) = (None, None);
            if let Some(n) = args.slice {
                let t = Instant::now();
                let mut sliced = SlicedQuery::new();
                sliced.start_with(&h, start, goal, &options)?;
                let mut count = 1;
                while sliced.update(&h, n)? == SliceStatus::InProgress {
                    count += 1;
                }
                let finished = sliced.finish();
                sliced_time = Some(t.elapsed());
                if finished.as_ref() != Some(&one) {
                    return Err("the sliced query differs from the one-shot query".into());
                }
                frames = Some(count);
            }
            Answer {
                expanded: one.stats.abstract_expanded + one.stats.fine_expanded,
                partial: one.partial,
                out_of_budget: false,
                path: one.path,
                frames,
                method: super::method_name(one.stats.method),
                setup: Some((setup_kind, setup)),
                query,
                sliced: sliced_time,
            }
        }
    };

    if let Some(p) = &answer.path {
        crate::unit::Footprint::new(&grid, args.size).validate(&grid, &movement, p)?;
    }
    let mut out = std::io::stdout().lock();
    let unit = match args.size {
        1 => String::new(),
        k => format!(", a {k}x{k} unit"),
    };
    writeln!(
        out,
        "tierpath path: {} on {name} ({}x{}), {start} -> {goal}{unit}",
        args.algo_name(),
        grid.width(),
        grid.height()
    )?;
    let cells: &[Point] = answer.path.as_ref().map_or(&[], |p| &p.cells);
    if args.cols > 0 {
        let shown: Vec<Point> = cells.iter().copied().chain([start, goal]).collect();
        let view = View::around(&grid, &shown, 3, args.cols);
        out.write_all(render::draw(&grid, &view, cells, start, goal).as_bytes())?;
        writeln!(out, "{}", render::LEGEND)?;
    }
    let status = match (&answer.path, answer.partial, answer.out_of_budget) {
        (Some(_), false, _) => "complete",
        (Some(_), true, true) => "partial (out of budget)",
        (Some(_), true, false) => "partial (goal unreachable)",
        (None, _, true) => "none (out of budget)",
        (None, _, false) => "none (goal unreachable)",
    };
    match &answer.path {
        Some(p) => writeln!(
            out,
            "path: {status}: {} moves to {}, cost {:.4} steps",
            p.moves(),
            p.goal().expect("paths are non-empty"),
            movement.cost_in_steps(p.cost)
        )?,
        None => writeln!(out, "path: {status}")?,
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    if let Some((kind, d)) = answer.setup {
        writeln!(out, "hierarchy: {kind} in {:.3} ms (once per map)", ms(d))?;
    }
    writeln!(
        out,
        "search: {} ({}), {} nodes expanded in {:.3} ms",
        args.algo_name(),
        answer.method,
        answer.expanded,
        ms(answer.query)
    )?;
    if let (Some(f), Some(d)) = (answer.frames, answer.sliced) {
        writeln!(
            out,
            "sliced: {f} frames of at most {} expansions in {:.3} ms in all, same answer as \
             one-shot",
            args.slice.unwrap_or_default(),
            ms(d)
        )?;
    }
    if args.json {
        let json = serde_json::json!({
            "map": name,
            "algo": args.algo_name(),
            "from": [start.x, start.y],
            "to": [goal.x, goal.y],
            "size": args.size,
            "status": status,
            "found": answer.path.is_some(),
            "partial": answer.partial,
            "out_of_budget": answer.out_of_budget,
            "end": answer.path.as_ref().and_then(|p| p.goal()).map(|p| [p.x, p.y]),
            "moves": answer.path.as_ref().map(|p| p.moves()),
            "cost": answer.path.as_ref().map(|p| movement.cost_in_steps(p.cost)),
            "expanded": answer.expanded,
            "frames": answer.frames,
            "method": answer.method,
            "setup": answer.setup.map(|(kind, _)| kind),
            "setup_ms": answer.setup.map(|(_, d)| ms(d)),
            "query_ms": ms(answer.query),
            "sliced_ms": answer.sliced.map(ms),
        });
        writeln!(out, "{json}")?;
    }
    out.flush()?;
    Ok(())
}

impl Args {
    fn algo_name(&self) -> &'static str {
        match self.algo {
            PathAlgo::Astar => "astar",
            PathAlgo::Hpa => "hpa",
        }
    }
}
