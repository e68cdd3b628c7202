//! Pluggable path planners for `solve` and `demo`.
//!
//! A planner is anything that answers point-to-point queries on one map: it
//! owns its per-query scratch (a reused [`SearchCache`] for the flat engines)
//! and whatever it precomputed. To add one (the hierarchical planner, say):
//! implement [`Solver`], add a variant to [`Algo`], and build it in
//! [`Algo::build`]; `solve` and `demo` need no other change.

use tierpath::{AStar, Dijkstra, Grid, Movement, Path, Point, QueryError, SearchCache};

/// One query's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult {
    /// The path, `None` when the goal is unreachable.
    pub path: Option<Path>,
    /// Nodes expanded (for a hierarchical planner: at every level together).
    pub expanded: u64,
}

/// A planner bound to one map and one movement rule.
pub trait Solver {
    /// The name shown in summaries (`astar`, `dijkstra`, ...).
    fn name(&self) -> &str;

    /// Answers one query. `Err` only for bad input (an endpoint off the map or
    /// blocked); "no path" is `Ok` with `path: None`.
    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError>;
}

/// The planners the command line offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algo {
    /// Flat A* with the octile heuristic (exact).
    Astar,
    /// Flat Dijkstra, no heuristic (exact; the slow baseline).
    Dijkstra,
}

impl Algo {
    /// Builds the planner for `grid` (any preprocessing happens here, so
    /// callers time it separately from the queries).
    pub fn build<'g>(
        self,
        grid: &'g Grid,
        movement: Movement,
    ) -> super::CliResult<Box<dyn Solver + 'g>> {
        movement.validate()?;
        Ok(match self {
            Algo::Astar => Box::new(FlatAStar {
                engine: AStar::new(grid).movement(movement),
                cache: SearchCache::new(),
            }),
            Algo::Dijkstra => Box::new(FlatDijkstra {
                engine: Dijkstra::new(grid).movement(movement),
                cache: SearchCache::new(),
            }),
        })
    }
}

/// [`AStar`] with one reused cache.
struct FlatAStar<'g> {
    engine: AStar<'g>,
    cache: SearchCache,
}

impl Solver for FlatAStar<'_> {
    fn name(&self) -> &str {
        "astar"
    }

    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError> {
        let out = self.engine.find_path(&mut self.cache, start, goal)?;
        Ok(SolveResult {
            path: out.path,
            expanded: out.stats.expanded,
        })
    }
}

/// [`Dijkstra`] with one reused cache.
struct FlatDijkstra<'g> {
    engine: Dijkstra<'g>,
    cache: SearchCache,
}

impl Solver for FlatDijkstra<'_> {
    fn name(&self) -> &str {
        "dijkstra"
    }

    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError> {
        let out = self.engine.find_path(&mut self.cache, start, goal)?;
        Ok(SolveResult {
            path: out.path,
            expanded: out.stats.expanded,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_solvers_agree() {
        let grid = Grid::from_ascii(
            "
            ......
            .@@@@.
            ......",
        )
        .unwrap();
        let (s, g) = (Point::new(0, 1), Point::new(5, 1));
        let mut costs = Vec::new();
        for algo in [Algo::Astar, Algo::Dijkstra] {
            let mut solver = algo.build(&grid, Movement::default()).unwrap();
            let r = solver.solve(s, g).unwrap();
            assert!(r.expanded > 0, "{}", solver.name());
            costs.push(r.path.unwrap().cost);
            assert!(matches!(
                solver.solve(Point::new(1, 1), g),
                Err(QueryError::Blocked { .. })
            ));
        }
        assert_eq!(costs[0], costs[1]);
    }
}
