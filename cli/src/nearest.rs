//! `tierpath nearest MAP X,Y X,Y...`: from the first cell, the nearest of the
//! others by path cost, with the hierarchy; `--compare` checks the choice
//! against the exact flat multi-target Dijkstra.

use super::solver::{PlannerOptions, hierarchy_for};
use super::{CliResult, parse_point};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use tierpath::{AStar, Dijkstra, Movement, Point, QueryCache, SearchCache};

/// Arguments of `tierpath nearest`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map (Moving AI `.map` or terrain text).
    pub map: PathBuf,
    /// The start cell X,Y.
    #[arg(value_name = "START", value_parser = parse_point)]
    pub start: Point,
    /// The targets X,Y (one or more).
    #[arg(value_name = "TARGET", value_parser = parse_point, required = true)]
    pub targets: Vec<Point>,
    /// Load this saved hierarchy instead of building one.
    #[arg(long, value_name = "FILE")]
    pub hierarchy: Option<PathBuf>,
    /// Also run the flat multi-target Dijkstra and check the choice against it.
    #[arg(long)]
    pub compare: bool,
    /// Also print the answer as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tierpath nearest`.
pub fn run(args: Args) -> CliResult {
    let grid = crate::read_grid(&args.map)?;
    let movement = Movement::default();
    let name = args.map.display().to_string();
    let hpa = PlannerOptions {
        hierarchy: args.hierarchy.clone(),
        cluster_size: None,
        ..PlannerOptions::default()
    };
    let h = hierarchy_for(&grid, movement, &hpa)?;
    let mut cache = QueryCache::new();
    let t = Instant::now();
    let out = h
        .nearest(&mut cache, args.start, &args.targets)
        .map_err(|e| format!("{name}: {e}"))?;
    let elapsed = t.elapsed();
    let steps = |c| movement.cost_in_steps(c);

    let mut stdout = std::io::stdout().lock();
    writeln!(
        stdout,
        "tierpath nearest: {name} ({}x{}), from {} to the nearest of {} targets",
        grid.width(),
        grid.height(),
        args.start,
        args.targets.len()
    )?;
    let s = out.stats;
    match &out.nearest {
        Some(n) => writeln!(
            stdout,
            "nearest: target {} at {}, path of {} moves, cost {:.4} steps ({:?})",
            n.target,
            args.targets[n.target],
            n.path.moves(),
            steps(n.path.cost),
            s.method
        )?,
        None => writeln!(stdout, "nearest: none: no target is reachable")?,
    }
    writeln!(
        stdout,
        "search: {} of {} targets on the start's island; {} two-tier queries, {} exact \
         searches; {} cells and {} cluster-graph nodes expanded in {:.3} ms",
        s.candidates,
        args.targets.len(),
        s.hierarchical_queries,
        s.exact_searches,
        s.fine_expanded,
        s.abstract_expanded,
        elapsed.as_secs_f64() * 1e3
    )?;
    let mut flat_json = serde_json::Value::Null;
    if args.compare {
        let mut flat_cache = SearchCache::new();
        let t = Instant::now();
        let (flat, stats) = Dijkstra::new(&grid).movement(movement).nearest(
            &mut flat_cache,
            args.start,
            &args.targets,
        )?;
        let flat_time = t.elapsed();
        // The chosen target's least cost, by exact A*.
        let chosen = match &out.nearest {
            Some(n) => AStar::new(&grid)
                .movement(movement)
                .find_path(&mut flat_cache, args.start, args.targets[n.target])?
                .path
                .map(|p| p.cost),
            None => None,
        };
        let want = flat.as_ref().map(|f| f.path.cost);
        writeln!(
            stdout,
            "flat Dijkstra: {} ({} cells expanded in {:.3} ms); {}",
            match &flat {
                Some(f) => format!(
                    "target {} at cost {:.4} steps",
                    f.target,
                    steps(f.path.cost)
                ),
                None => "no target reachable".to_string(),
            },
            stats.expanded,
            flat_time.as_secs_f64() * 1e3,
            if chosen == want {
                "the choice agrees"
            } else {
                "THE CHOICE DIFFERS"
            }
        )?;
        if chosen != want {
            return Err("the hierarchy's choice differs from the flat Dijkstra's".into());
        }
        flat_json = serde_json::json!({
            "target": flat.as_ref().map(|f| f.target),
            "cost": want.map(steps),
            "expanded": stats.expanded,
            "ms": flat_time.as_secs_f64() * 1e3,
        });
    }
    if args.json {
        let json = serde_json::json!({
            "map": name,
            "start": [args.start.x, args.start.y],
            "targets": args.targets.len(),
            "target": out.nearest.as_ref().map(|n| n.target),
            "cost": out.nearest.as_ref().map(|n| steps(n.path.cost)),
            "moves": out.nearest.as_ref().map(|n| n.path.moves()),
            "method": format!("{:?}", s.method),
            "candidates": s.candidates,
            "hierarchical_queries": s.hierarchical_queries,
            "exact_searches": s.exact_searches,
            "ms": elapsed.as_secs_f64() * 1e3,
            "flat": flat_json,
        });
        writeln!(stdout, "{json}")?;
    }
    stdout.flush()?;
    Ok(())
}
