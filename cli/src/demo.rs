//! `tierpath demo [MAP]`: the first command to run. Preprocesses the shipped
//! default map (or MAP), finds a long path with the two-tier planner, draws
//! it, and compares cost and effort with exact flat A* on the same query.

use super::render::{self, View};
use super::solver::Algo;
use super::{CliResult, parse_point};
use std::collections::VecDeque;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;
use tierpath::{Dijkstra, Grid, Movement, Point, SearchCache};

/// Arguments of `tierpath demo`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map (Moving AI `.map` or terrain text); default: the shipped
    /// data/default.map.
    pub map: Option<PathBuf>,
    /// Start cell X,Y (column,row; 0,0 is the top-left). Default: one end of a
    /// longest shortest path of the map's largest region.
    #[arg(long, value_name = "X,Y", value_parser = parse_point, requires = "to")]
    pub from: Option<Point>,
    /// Goal cell X,Y.
    #[arg(long, value_name = "X,Y", value_parser = parse_point, requires = "from")]
    pub to: Option<Point>,
    /// The planner (flat A* also runs on the same query, for comparison).
    #[arg(long, value_enum, default_value = "hpa")]
    pub algo: Algo,
    /// Widest picture, in characters: larger maps are downscaled to fit.
    #[arg(long, value_name = "N", default_value_t = 128)]
    pub cols: u32,
}

/// Runs `tierpath demo`.
pub fn run(args: Args) -> CliResult {
    let map = match args.map {
        Some(m) => m,
        None => super::find_default_map()?,
    };
    let grid = crate::read_grid(&map)?;
    let movement = Movement::default();
    let (start, goal, chosen) = match (args.from, args.to) {
        (Some(s), Some(g)) => (s, g, "given"),
        _ => {
            let (s, g) = far_apart(&grid, &movement)
                .ok_or_else(|| format!("{}: the map has no passable cell", map.display()))?;
            (s, g, "far apart on the largest region")
        }
    };

    let built = Instant::now();
    let mut solver = args.algo.build(&grid, movement)?;
    let setup = built.elapsed();
    let t0 = Instant::now();
    let answer = solver
        .solve(start, goal)
        .map_err(|e| format!("{}: {e}", map.display()))?;
    let elapsed = t0.elapsed();

    let cells: &[Point] = answer.path.as_ref().map_or(&[], |p| &p.cells);
    let shown: Vec<Point> = if cells.is_empty() {
        vec![start, goal]
    } else {
        cells.to_vec()
    };
    let view = View::around(&grid, &shown, 4, args.cols);
    let picture = render::draw(&grid, &view, cells, start, goal);

    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "tierpath demo: {} on {} ({}x{}, {} passable cells)",
        solver.name(),
        map.display(),
        grid.width(),
        grid.height(),
        grid.passable_count()
    )?;
    writeln!(out, "query: {start} -> {goal} ({chosen})")?;
    writeln!(out)?;
    out.write_all(picture.as_bytes())?;
    writeln!(out)?;
    let scale = if view.sx == 1 {
        "1 character = 1 cell".to_string()
    } else {
        format!("1 character = {}x{} cells", view.sx, view.sy)
    };
    writeln!(
        out,
        "{}; {scale}; columns {}..{}, rows {}..{}",
        render::LEGEND,
        view.x0,
        view.x0 + view.width - 1,
        view.y0,
        view.y0 + view.height - 1
    )?;
    match &answer.path {
        Some(path) => writeln!(
            out,
            "path: {} moves, cost {:.4} (straight steps; diagonal = 1.4142)",
            path.moves(),
            movement.cost_in_steps(path.cost)
        )?,
        None => writeln!(out, "path: none: {goal} cannot be reached from {start}")?,
    }
    match &answer.levels {
        Some(levels) => {
            if let Some(h) = solver.hierarchy() {
                let s = h.stats();
                writeln!(
                    out,
                    "preprocessing: {:.1} ms once per map: {}, {:.1}% of cells in dead ends, {} clusters, {} transitions, {} edges, {:.1} bytes/cell",
                    setup.as_secs_f64() * 1e3,
                    super::count(s.islands, "island", "islands"),
                    100.0 * s.dead_end_share(),
                    s.clusters,
                    s.nodes,
                    s.intra_edges + s.inter_edges,
                    s.bytes_per_cell()
                )?;
            }
            writeln!(
                out,
                "search: {} cluster-graph nodes + {} grid cells expanded ({}) in {:.3} ms",
                levels.abstract_expanded,
                levels.fine_expanded,
                super::method_name(levels.method),
                elapsed.as_secs_f64() * 1e3
            )?;
        }
        None => writeln!(
            out,
            "search: {} nodes expanded in {:.3} ms",
            answer.expanded,
            elapsed.as_secs_f64() * 1e3
        )?,
    }
    if args.algo != Algo::Astar {
        // The same query with exact flat A*, for comparison.
        let mut flat = Algo::Astar.build(&grid, movement)?;
        let t = Instant::now();
        let exact = flat
            .solve(start, goal)
            .map_err(|e| format!("{}: {e}", map.display()))?;
        let flat_time = t.elapsed();
        if let (Some(p), Some(e)) = (&answer.path, &exact.path) {
            writeln!(
                out,
                "flat A*: {} nodes expanded in {:.3} ms, cost {:.4}; {} costs {:+.2}% and expands {}, {}",
                exact.expanded,
                flat_time.as_secs_f64() * 1e3,
                movement.cost_in_steps(e.cost),
                solver.name(),
                100.0 * (p.cost.0 as f64 / e.cost.0 as f64 - 1.0),
                super::times(
                    exact.expanded as f64 / answer.expanded.max(1) as f64,
                    "fewer nodes",
                    "more nodes"
                ),
                super::times(
                    flat_time.as_secs_f64() / elapsed.as_secs_f64().max(1e-9),
                    "faster",
                    "slower"
                )
            )?;
        }
    }
    writeln!(
        out,
        "next: tierpath demo --from X,Y --to X,Y | tierpath solve MAP SCEN | tierpath --help"
    )?;
    out.flush()?;
    Ok(())
}

/// Two far-apart cells of the largest region, deterministically: from the
/// region's first cell (row-major), the farthest cell `a` by path cost, then
/// the farthest from `a` (ties to the first in row-major order). `None` when
/// nothing is passable.
pub fn far_apart(grid: &Grid, movement: &Movement) -> Option<(Point, Point)> {
    let seed = largest_region_cell(grid)?;
    let mut cache = SearchCache::new();
    let dijkstra = Dijkstra::new(grid).movement(*movement);
    let farthest = |from: Point, cache: &mut SearchCache| -> Option<Point> {
        let field = dijkstra.distance_field(cache, from).ok()?;
        let mut best = (from, 0u64);
        for p in grid.passable_points() {
            if let Some(c) = field.get(p)
                && c.0 > best.1
            {
                best = (p, c.0);
            }
        }
        Some(best.0)
    };
    let a = farthest(seed, &mut cache)?;
    let b = farthest(a, &mut cache)?;
    Some((a, b))
}

/// The first cell (row-major) of the largest region of cells joined by
/// straight moves (which are also the regions of 8-connected movement without
/// corner cutting); the first such region on ties.
fn largest_region_cell(grid: &Grid) -> Option<Point> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let mut seen = vec![false; w * h];
    let mut queue = VecDeque::new();
    let mut best: Option<(usize, Point)> = None;
    for first in grid.passable_points() {
        let i0 = first.y as usize * w + first.x as usize;
        if seen[i0] {
            continue;
        }
        seen[i0] = true;
        queue.push_back(first);
        let mut size = 0;
        while let Some(p) = queue.pop_front() {
            size += 1;
            let (x, y) = (p.x as usize, p.y as usize);
            let next = [
                (x > 0).then(|| (x - 1, y)),
                (x + 1 < w).then_some((x + 1, y)),
                (y > 0).then(|| (x, y - 1)),
                (y + 1 < h).then_some((x, y + 1)),
            ];
            for (nx, ny) in next.into_iter().flatten() {
                let n = Point::new(nx as u32, ny as u32);
                if !seen[ny * w + nx] && grid.is_passable(n) {
                    seen[ny * w + nx] = true;
                    queue.push_back(n);
                }
            }
        }
        if best.is_none_or(|(s, _)| size > s) {
            best = Some((size, first));
        }
    }
    best.map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_apart_picks_the_largest_region() {
        let grid = Grid::from_ascii(
            "
            .......@..
            @@@@@@.@..
            .......@..",
        )
        .unwrap();
        let (a, b) = far_apart(&grid, &Movement::default()).unwrap();
        assert_eq!((a, b), (Point::new(0, 2), Point::new(0, 0)));
        let blocked = Grid::from_ascii("@@\n@@").unwrap();
        assert_eq!(far_apart(&blocked, &Movement::default()), None);
    }
}
