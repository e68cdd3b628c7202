//! `tierpath solve MAP SCEN --size K`: a scenario's queries for a `K x K`
//! unit (anchored at its top-left cell), with the sized hierarchy or exact
//! flat A* for that size; every path checked against the footprint rule.
//!
//! The scenario's optimal lengths are for single cells: a unit's path can
//! only be as long or longer, which is checked. Queries whose start or goal
//! the unit does not fit on are counted and skipped. `--compare` runs exact
//! flat A* for the size on the same queries: speedup, cost against the exact
//! optimum, and reachability agreement.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::{Duration, Instant};

use tierpath::io::{self, ScenarioQuery};
use tierpath::{
    AStar, Clearance, Cost, Method, Movement, Path, Point, QueryError, SearchCache, SizedBuilder,
    SizedHierarchy, SizedQueryCache, validate_sized_path,
};

use super::CliResult;
use super::solve::Args;
use super::solver::Algo;

/// One query's answer.
struct Answer {
    path: Option<Path>,
    expanded: u64,
    method: Option<Method>,
}

/// A planner for one size.
enum Planner {
    Flat(Clearance, Box<SearchCache>),
    Hierarchy(Box<SizedHierarchy>, Box<SizedQueryCache>),
}

impl Planner {
    fn clearance(&self) -> &Clearance {
        match self {
            Planner::Flat(c, _) => c,
            Planner::Hierarchy(h, _) => h.clearance(),
        }
    }

    fn solve(
        &mut self,
        movement: Movement,
        s: Point,
        g: Point,
        size: u32,
    ) -> Result<Answer, QueryError> {
        Ok(match self {
            Planner::Flat(c, cache) => {
                let out = AStar::for_unit(c, size)
                    .movement(movement)
                    .find_path(cache, s, g)?;
                Answer {
                    path: out.path,
                    expanded: out.stats.expanded,
                    method: None,
                }
            }
            Planner::Hierarchy(h, cache) => {
                let out = h.find_path(cache, s, g, size)?;
                Answer {
                    path: out.path,
                    expanded: out.stats.abstract_expanded + out.stats.fine_expanded,
                    method: Some(out.stats.method),
                }
            }
        })
    }
}

fn median_us(times: &[Duration]) -> Option<f64> {
    let mut t = times.to_vec();
    t.sort_unstable();
    t.get(t.len().saturating_sub(1) / 2)
        .map(|d| d.as_secs_f64() * 1e6)
}

fn stats(ratios: &[f64]) -> (Option<f64>, Option<f64>) {
    let mean = (!ratios.is_empty()).then(|| ratios.iter().sum::<f64>() / ratios.len() as f64);
    (mean, ratios.iter().copied().reduce(f64::max))
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or_else(|| "-".to_string(), |v| format!("{v:.digits$}"))
}

/// Runs `solve` for a unit of `size`.
pub fn solve(args: &Args, size: u32, out: &mut impl Write) -> CliResult {
    if size == 0 {
        return Err("--size 0 is invalid: sizes start at 1 (a 1x1 unit)".into());
    }
    if size > Clearance::CAP as u32 {
        return Err(format!("--size {size} is too large: at most {}", Clearance::CAP).into());
    }
    if args.hierarchy.is_some() {
        return Err(
            "--hierarchy loads a single-size hierarchy: it does not apply with --size".into(),
        );
    }
    if args.algo != Algo::Hpa && args.cluster_size.is_some() {
        return Err("--cluster-size applies only to --algo hpa".into());
    }
    let grid = crate::read_grid(&args.map)?;
    let scenario = io::read_scenario(&args.scen)?;
    crate::scenario::check_fits(&scenario, &grid, &args.map)?;
    let printed = crate::optimum::Printed::read(&args.scen);
    let mut selected: Vec<(usize, &ScenarioQuery)> = {
        let chosen = scenario.select(args.buckets);
        let lines: std::collections::HashMap<usize, usize> = scenario
            .queries
            .iter()
            .enumerate()
            .map(|(i, q)| (q.line, i))
            .collect();
        chosen
            .into_iter()
            .map(|q| (lines.get(&q.line).copied().unwrap_or(0), q))
            .collect()
    };
    if let Some(n) = args.max_queries {
        selected.truncate(n);
    }
    let movement = Movement::default();
    let setup_start = Instant::now();
    let mut planner = match args.algo {
        Algo::Astar => Planner::Flat(Clearance::new(grid.clone()), Box::default()),
        Algo::Hpa => {
            let mut b = SizedBuilder::new().movement(movement).max_size(size);
            if let Some(c) = args.cluster_size {
                b = b.cluster_size(c);
            }
            Planner::Hierarchy(
                Box::new(b.build(grid.clone())?),
                Box::new(SizedQueryCache::new()),
            )
        }
        Algo::Dijkstra | Algo::Jps => {
            return Err("--size supports --algo astar and --algo hpa".into());
        }
    };
    let setup = setup_start.elapsed();
    let name = match args.algo {
        Algo::Hpa => "sized hierarchy",
        _ => "sized astar",
    };

    let mut paths_out = match &args.paths {
        Some(p) => {
            let file = File::create(p)
                .map_err(|e| format!("cannot create paths file {}: {e}", p.display()))?;
            let mut w = BufWriter::new(file);
            writeln!(
                w,
                "# tierpath solve paths: map {} scenario {} algo {name} size {size}",
                args.map.display(),
                args.scen.display()
            )?;
            writeln!(
                w,
                "# <query_index> <cost in straight steps> x0,y0 x1,y1 ... (top-left cells) | \
                 <query_index> unreachable | # <query_index> skipped: ..."
            )?;
            Some((p.clone(), w))
        }
        None => None,
    };

    let (mut skipped, mut solved, mut unreachable, mut invalid, mut shorter) = (0, 0, 0, 0, 0);
    let (mut expanded, mut near, mut hierarchical, mut fallback) = (0u64, 0, 0, 0);
    let mut times = Vec::new();
    let mut run: Vec<(Point, Point, Option<Cost>)> = Vec::new();
    for &(index, q) in &selected {
        let clearance = planner.clearance();
        if !clearance.fits(q.start, size) || !clearance.fits(q.goal, size) {
            skipped += 1;
            if let Some((_, w)) = paths_out.as_mut() {
                writeln!(
                    w,
                    "# {index} skipped: a {size}x{size} unit does not fit at an endpoint"
                )?;
            }
            continue;
        }
        let t0 = Instant::now();
        let answer = planner.solve(movement, q.start, q.goal, size)?;
        times.push(t0.elapsed());
        expanded += answer.expanded;
        match answer.method {
            Some(Method::Near) => near += 1,
            Some(Method::Hierarchical) => hierarchical += 1,
            Some(Method::Fallback) => fallback += 1,
            _ => {}
        }
        run.push((q.start, q.goal, answer.path.as_ref().map(|p| p.cost)));
        match answer.path {
            None => {
                unreachable += 1;
                if let Some((_, w)) = paths_out.as_mut() {
                    writeln!(w, "{index} unreachable")?;
                }
            }
            Some(path) => {
                solved += 1;
                let ends = path.start() == Some(q.start) && path.goal() == Some(q.goal);
                if let Err(e) = validate_sized_path(&path, &grid, &movement, size) {
                    invalid += 1;
                    eprintln!("invalid path: query {index} (line {}): {e}", q.line);
                } else if !ends {
                    invalid += 1;
                    eprintln!(
                        "invalid path: query {index} (line {}): wrong endpoints",
                        q.line
                    );
                }
                let steps = movement.cost_in_steps(path.cost);
                if q.optimal > 0.0 && printed.is_below(q.line, steps, q.optimal) {
                    shorter += 1;
                }
                if let Some((_, w)) = paths_out.as_mut() {
                    write!(w, "{index} {steps:.6}")?;
                    for p in &path.cells {
                        write!(w, " {},{}", p.x, p.y)?;
                    }
                    writeln!(w)?;
                }
            }
        }
    }
    if let Some((p, mut w)) = paths_out {
        w.flush()
            .map_err(|e| format!("cannot write paths file {}: {e}", p.display()))?;
    }

    // Exact flat A* for the size on the same queries.
    let mut compare_json = serde_json::Value::Null;
    let mut compare_lines = Vec::new();
    let mut disagreements = 0;
    let mut cheaper = 0;
    if args.compare {
        let exact = AStar::for_unit(planner.clearance(), size).movement(movement);
        let mut cache = SearchCache::new();
        let (mut c_times, mut ratios) = (Vec::new(), Vec::new());
        for &(s, g, found) in &run {
            let t0 = Instant::now();
            let e = exact.find_path(&mut cache, s, g)?;
            c_times.push(t0.elapsed());
            match (e.path.map(|p| p.cost), found) {
                (Some(e), Some(f)) => {
                    cheaper += usize::from(f < e);
                    ratios.push(f.0 as f64 / e.0.max(1) as f64);
                }
                (None, None) => {}
                _ => disagreements += 1,
            }
        }
        let (c_median, median) = (median_us(&c_times), median_us(&times));
        let speedup = c_median.zip(median).map(|(a, b)| a / b.max(1e-3));
        let (mean, max) = stats(&ratios);
        compare_lines.push(format!(
            "compare     exact sized astar median {} us; speedup {}x (median astar / median {name})",
            opt(c_median, 2),
            opt(speedup, 1)
        ));
        compare_lines.push(format!(
            "vs exact    cost/exact mean {}, max {}; {disagreements} reachability disagreements, \
             {cheaper} cheaper than exact",
            opt(mean, 6),
            opt(max, 6)
        ));
        compare_json = serde_json::json!({
            "median_us": c_median,
            "speedup": speedup,
            "cost_ratio_mean": mean,
            "cost_ratio_max": max,
            "reachability_disagreements": disagreements,
            "cheaper_than_exact": cheaper,
        });
    }

    let median = median_us(&times);
    writeln!(
        out,
        "map         {} ({}x{}), {} cells fit a {size}x{size} unit",
        args.map.display(),
        grid.width(),
        grid.height(),
        planner.clearance().cells_per_size(size as u8)[size as usize - 1]
    )?;
    writeln!(
        out,
        "scenario    {} ({} queries, buckets {}: {} selected, {skipped} skipped: the unit does not \
         fit at an endpoint)",
        args.scen.display(),
        scenario.queries.len(),
        args.buckets,
        selected.len()
    )?;
    writeln!(
        out,
        "algorithm   {name}, size {size} (setup {:.2} ms)",
        setup.as_secs_f64() * 1e3
    )?;
    let mut hierarchy_json = serde_json::Value::Null;
    if let Planner::Hierarchy(h, _) = &planner {
        let s = h.stats();
        writeln!(
            out,
            "hierarchy   sizes 1..={}, cluster {}, {} nodes, {} edges; {} bytes ({:.2} bytes/cell)",
            s.max_size,
            h.settings().cluster_size,
            s.nodes,
            s.intra_edges + s.inter_edges,
            s.memory_bytes,
            s.bytes_per_cell()
        )?;
        writeln!(
            out,
            "methods     {near} near, {hierarchical} hierarchical, {fallback} fallback"
        )?;
        hierarchy_json = serde_json::json!({
            "max_size": s.max_size,
            "nodes": s.nodes,
            "edges": s.intra_edges + s.inter_edges,
            "memory_bytes": s.memory_bytes,
            "near": near,
            "hierarchical": hierarchical,
            "fallback": fallback,
        });
    }
    writeln!(
        out,
        "queries     {}: {solved} solved, {unreachable} unreachable for this size, {invalid} invalid",
        times.len()
    )?;
    if shorter > 0 {
        writeln!(
            out,
            "WRONG       {shorter} paths are shorter than the scenario's single-cell optimum"
        )?;
    }
    writeln!(
        out,
        "time        median {} us; mean {} nodes expanded",
        opt(median, 2),
        opt(
            (!times.is_empty()).then(|| expanded as f64 / times.len() as f64),
            1
        )
    )?;
    for l in &compare_lines {
        writeln!(out, "{l}")?;
    }
    if args.json {
        let j = serde_json::json!({
            "map": args.map.display().to_string(),
            "algo": name,
            "size": size,
            "selected": selected.len(),
            "skipped": skipped,
            "queries": times.len(),
            "solved": solved,
            "unreachable": unreachable,
            "invalid": invalid,
            "shorter_than_single_cell_optimum": shorter,
            "median_us": median,
            "setup_ms": setup.as_secs_f64() * 1e3,
            "hierarchy": hierarchy_json,
            "compare": compare_json,
        });
        writeln!(out, "{j}")?;
    }
    out.flush()?;
    if invalid > 0 {
        return Err(format!("{invalid} of {solved} paths are invalid for size {size}").into());
    }
    if shorter + disagreements + cheaper > 0 {
        return Err(format!(
            "{shorter} paths shorter than the single-cell optimum, {disagreements} reachability \
             disagreements and {cheaper} paths cheaper than exact: a bug"
        )
        .into());
    }
    Ok(())
}
