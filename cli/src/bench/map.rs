//! One map of `tierpath bench`: read the scenario and find its map, build
//! the hierarchy (timed, and its load from bytes timed), run every planner
//! over the selected queries, and check every answer (all for the unit size
//! `--size`).

use super::inputs::{file_label, set_name, short_name};
use super::{Args, FLAT, HPA, algo_name};
use crate::CliResult;
use crate::optimum::Printed;
use crate::scenario::{check_fits, check_path, find_map};
use crate::solver::{Algo, PlannerOptions, Solver};
use crate::unit::Footprint;
use std::path::Path;
use std::time::{Duration, Instant};
use tierpath::io::{self, ScenarioQuery};
use tierpath::{
    AStar, Clearance, Cost, Hierarchy, HierarchyBuilder, Method, Movement, Point, QueryCache,
    QueryOptions, SearchCache,
};

/// One planner's answer to one query.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Answer {
    /// Query time (the median of `--runs` runs), microseconds.
    pub(super) micros: f64,
    /// Path cost in straight steps; `None` when no path.
    pub(super) steps: Option<f64>,
    /// Exact cost.
    pub(super) cost: Option<Cost>,
    pub(super) expanded: u64,
    /// Hierarchy only: abstract and fine expansions and the method.
    pub(super) abstract_expanded: u64,
    pub(super) fine_expanded: u64,
    pub(super) method: Option<Method>,
    /// Hierarchy only: the first move's time (`plan_with` and the first
    /// `next_segment`, the median of `--runs` runs), microseconds.
    pub(super) first_micros: Option<f64>,
}

/// One query that every planner solved: the answers in planner order
/// (flat A* first, the hierarchy second).
#[derive(Debug, Clone)]
pub(super) struct Solved {
    pub(super) answers: Vec<Answer>,
}

/// Everything measured on one map.
#[derive(Debug, Clone)]
pub(super) struct MapRun {
    pub(super) set: String,
    pub(super) name: String,
    pub(super) width: u32,
    pub(super) height: u32,
    /// The whole build, the contraction included when asked for.
    pub(super) build_ms: f64,
    /// The contraction's part of `build_ms` (`--contract`), else `None`.
    pub(super) contract_ms: Option<f64>,
    pub(super) load_ms: f64,
    pub(super) bytes_per_cell: f64,
    pub(super) memory_bytes: u64,
    pub(super) selected: usize,
    pub(super) unreachable: usize,
    /// Selected queries skipped for a blocked start or goal (one the unit
    /// does not fit on).
    pub(super) blocked: usize,
    pub(super) solved: Vec<Solved>,
}

/// At most `n` of `items`, spread evenly (the first always kept), in order.
pub(super) fn spread<T: Copy>(items: &[T], n: Option<usize>) -> Vec<T> {
    match n {
        Some(n) if n < items.len() => (0..n).map(|i| items[i * items.len() / n]).collect(),
        _ => items.to_vec(),
    }
}

/// The median of `n` timings of `f`, and its last result.
pub(super) fn timed<R>(runs: usize, mut f: impl FnMut() -> R) -> (f64, R) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = f();
        times.push(t.elapsed());
        last = Some(r);
    }
    times.sort();
    let d: Duration = times[times.len() / 2];
    (
        d.as_secs_f64() * 1e6,
        last.expect("at least one run is made"),
    )
}

/// Loads, builds and runs one map.
pub(super) fn bench_map(
    file: &Path,
    args: &Args,
    cluster_size: Option<u32>,
    extras: &[Algo],
    problems: &mut Vec<String>,
) -> CliResult<MapRun> {
    let scenario = io::read_scenario(file)?;
    let map = find_map(&scenario, args.maps.as_deref())?;
    let grid = crate::read_grid(&map)?;
    check_fits(&scenario, &grid, &map)?;
    let printed = Printed::read(file);
    let label = file_label(file);
    let movement = Movement::default();

    let size = args.size;
    let unit = Footprint::new(&grid, size);
    let mut builder = args.entrances.apply(
        HierarchyBuilder::new()
            .movement(movement)
            .max_unit_size(size)
            .polish(args.polish.into()),
    );
    if let Some(side) = cluster_size {
        builder = builder.cluster_size(side);
    }
    let copy = grid.clone();
    let t = Instant::now();
    // With --contract, the build contracts (beside its other stages).
    let mut hierarchy = builder
        .contract(args.contract)
        .build(copy)
        .map_err(|e| format!("{label}: {e}"))?;
    if args.cell_landmarks > 0 {
        hierarchy.add_cell_landmarks(args.cell_landmarks.into());
    }
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let contract_ms = hierarchy.stats().contraction_seconds().map(|s| s * 1e3);
    let bytes = hierarchy.to_bytes();
    let copy = grid.clone();
    let t = Instant::now();
    let loaded = Hierarchy::from_bytes(copy, &bytes);
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    if let Err(e) = loaded {
        problems.push(format!(
            "{label}: the hierarchy does not load back from its own bytes: {e}"
        ));
    }
    drop(bytes);

    let selected = scenario.select(args.buckets);
    let (queries, blocked): (Vec<&ScenarioQuery>, Vec<&ScenarioQuery>) =
        spread(&selected, args.max_queries)
            .into_iter()
            .partition(|q| !unit.misfit(&grid, q.start, q.goal));
    if args.strict {
        for q in &blocked {
            problems.push(format!(
                "{label} line {} ({} -> {}): {} (--strict)",
                q.line,
                q.start,
                q.goal,
                unit.misfit_reason()
            ));
        }
    }
    let n = queries.len();
    let runs = args.runs;
    let steps = |c: Cost| movement.cost_in_steps(c);

    // One pass per planner; answers[planner][query], `None` for an input error.
    let mut answers: Vec<Vec<Option<Answer>>> = Vec::new();

    // The hierarchy.
    let mut cache = QueryCache::new();
    let mut hpa = Vec::with_capacity(n);
    // find_path's cells per query, to check the first moves against.
    let mut hpa_paths: Vec<Option<Vec<Point>>> = Vec::with_capacity(n);
    let options = QueryOptions::new().unit_size(size);
    for q in &queries {
        let (micros, out) = timed(runs, || {
            hierarchy.find_path_with(&mut cache, q.start, q.goal, &options)
        });
        hpa_paths.push(match &out {
            Ok(out) => out.path.as_ref().map(|p| p.cells.clone()),
            Err(_) => None,
        });
        hpa.push(match out {
            Err(e) => {
                problems.push(format!("{label} line {}: {HPA}: {e}", q.line));
                None
            }
            Ok(out) => {
                if let Some(p) = &out.path
                    && let Some(why) = check_path(&grid, &movement, &unit, q, p).err()
                {
                    problems.push(format!(
                        "{label} line {} ({} -> {}): {HPA}: {why}",
                        q.line, q.start, q.goal
                    ));
                }
                let s = out.stats;
                Some(Answer {
                    micros,
                    steps: out.path.as_ref().map(|p| steps(p.cost)),
                    cost: out.path.as_ref().map(|p| p.cost),
                    expanded: s.abstract_expanded + s.fine_expanded,
                    abstract_expanded: s.abstract_expanded,
                    fine_expanded: s.fine_expanded,
                    method: Some(s.method),
                    first_micros: None,
                })
            }
        });
    }
    // The hierarchy's first move: a plan and its first piece, which must
    // begin the path find_path gave (or be no plan when it gave none).
    for ((q, answer), path) in queries.iter().zip(&mut hpa).zip(&hpa_paths) {
        let Some(answer) = answer else { continue };
        let (micros, first) = timed(runs, || {
            let plan = hierarchy.plan_with(&mut cache, q.start, q.goal, &options)?;
            Ok::<_, tierpath::QueryError>(plan.map(|mut plan| {
                plan.next_segment(&hierarchy, &mut cache)
                    .map(<[Point]>::to_vec)
                    .unwrap_or_default()
            }))
        });
        let begins = |first: &Option<Vec<Point>>| match (first, path) {
            (None, None) => true,
            (Some(f), Some(p)) => !f.is_empty() && p.starts_with(f),
            _ => false,
        };
        match first {
            Err(e) => problems.push(format!("{label} line {}: {HPA}: plan: {e}", q.line)),
            Ok(first) if !begins(&first) => problems.push(format!(
                "{label} line {} ({} -> {}): {HPA}: the plan's first piece does not begin \
                 find_path's path",
                q.line, q.start, q.goal
            )),
            Ok(_) => answer.first_micros = Some(micros),
        }
    }
    drop(hpa_paths);

    // Flat A* (for the unit's size).
    let clearance = (size > 1).then(|| Clearance::new(grid.clone()));
    let engine = match &clearance {
        Some(c) => AStar::for_unit(c, size),
        None => AStar::new(&grid),
    }
    .movement(movement);
    let mut flat_cache = SearchCache::new();
    let mut flat = Vec::with_capacity(n);
    for q in &queries {
        let (micros, out) = timed(runs, || engine.find_path(&mut flat_cache, q.start, q.goal));
        flat.push(match out {
            Err(e) => {
                problems.push(format!("{label} line {}: {FLAT}: {e}", q.line));
                None
            }
            Ok(out) => {
                if let Some(p) = &out.path {
                    if let Some(why) = check_path(&grid, &movement, &unit, q, p).err() {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {FLAT}: {why}",
                            q.line, q.start, q.goal
                        ));
                    }
                    let found = steps(p.cost);
                    // A larger unit's optimum is only bounded by one cell's.
                    let wrong = match size {
                        1 => !printed.matches(q.line, found, q.optimal),
                        _ => printed.is_below(q.line, found, q.optimal),
                    };
                    if q.optimal > 0.0 && wrong {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {FLAT}: cost {found:.6} differs from \
                             the scenario's optimum {} (by more than {:.2e}: half a unit of its \
                             last printed digit, plus the diagonal's rounding)",
                            q.line,
                            q.start,
                            q.goal,
                            q.optimal,
                            printed.tolerance(q.line, q.optimal)
                        ));
                    }
                }
                Some(Answer {
                    micros,
                    steps: out.path.as_ref().map(|p| steps(p.cost)),
                    cost: out.path.as_ref().map(|p| p.cost),
                    expanded: out.stats.expanded,
                    ..Answer::default()
                })
            }
        });
    }
    answers.push(flat);
    answers.push(hpa);

    // Extra planners.
    for algo in extras {
        let options = PlannerOptions {
            size,
            ..PlannerOptions::default()
        };
        let mut solver: Box<dyn Solver + '_> = algo.build_with(&grid, movement, &options)?;
        let name = solver.name().to_string();
        let mut out_list = Vec::with_capacity(n);
        for q in &queries {
            let (micros, out) = timed(runs, || solver.solve(q.start, q.goal));
            out_list.push(match out {
                Err(e) => {
                    problems.push(format!("{label} line {}: {name}: {e}", q.line));
                    None
                }
                Ok(r) => {
                    if let Some(p) = &r.path
                        && let Some(why) = check_path(&grid, &movement, &unit, q, p).err()
                    {
                        problems.push(format!(
                            "{label} line {} ({} -> {}): {name}: {why}",
                            q.line, q.start, q.goal
                        ));
                    }
                    Some(Answer {
                        micros,
                        steps: r.path.as_ref().map(|p| steps(p.cost)),
                        cost: r.path.as_ref().map(|p| p.cost),
                        expanded: r.expanded,
                        ..Answer::default()
                    })
                }
            });
        }
        answers.push(out_list);
    }

    // Reachability and quality checks; the solved queries.
    let names: Vec<String> = std::iter::once(FLAT.to_string())
        .chain(std::iter::once(HPA.to_string()))
        .chain(extras.iter().map(|a| algo_name(*a)))
        .collect();
    let mut solved = Vec::new();
    let mut unreachable = 0;
    for (i, q) in queries.iter().enumerate() {
        let row: Option<Vec<Answer>> = answers.iter().map(|a| a[i]).collect();
        let Some(row) = row else {
            continue; // an input error, already reported
        };
        let expects_none = q.optimal == 0.0 && q.start != q.goal;
        let found: Vec<bool> = row.iter().map(|a| a.cost.is_some()).collect();
        if found.iter().all(|f| !f) {
            unreachable += 1;
            if !expects_none && size == 1 {
                problems.push(format!(
                    "{label} line {} ({} -> {}): no planner finds a path, but the scenario \
                     gives optimum {}",
                    q.line, q.start, q.goal, q.optimal
                ));
            }
            continue;
        }
        if found.iter().any(|f| !f) || expects_none {
            let said: Vec<String> = names
                .iter()
                .zip(&found)
                .map(|(n, f)| format!("{n}: {}", if *f { "path" } else { "no path" }))
                .collect();
            problems.push(format!(
                "{label} line {} ({} -> {}): reachability disagrees ({}; scenario: {})",
                q.line,
                q.start,
                q.goal,
                said.join(", "),
                if expects_none { "no path" } else { "path" }
            ));
            continue;
        }
        let exact = row[0].cost.expect("checked above");
        for (name, a) in names.iter().zip(&row).skip(1) {
            let c = a.cost.expect("checked above");
            if c < exact {
                problems.push(format!(
                    "{label} line {} ({} -> {}): {name} cost {} is below flat A*'s exact {}",
                    q.line, q.start, q.goal, c, exact
                ));
            }
        }
        solved.push(Solved { answers: row });
    }

    let stats = hierarchy.stats();
    Ok(MapRun {
        set: set_name(file),
        name: short_name(file),
        width: grid.width(),
        height: grid.height(),
        build_ms,
        contract_ms,
        load_ms,
        bytes_per_cell: stats.bytes_per_cell(),
        memory_bytes: stats.memory_bytes,
        selected: n + blocked.len(),
        unreachable,
        blocked: blocked.len(),
        solved,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_keeps_the_first_and_spaces_the_rest() {
        let items: Vec<u32> = (0..10).collect();
        assert_eq!(spread(&items, Some(5)), vec![0, 2, 4, 6, 8]);
        assert_eq!(spread(&items, Some(20)).len(), 10);
        assert_eq!(spread(&items, None).len(), 10);
    }
}
