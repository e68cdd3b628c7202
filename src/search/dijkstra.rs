//! Dijkstra's algorithm: paths without a heuristic, the nearest of many
//! targets, and one-to-all distance fields.

use super::{
    AStar, Estimator, Everywhere, Goal, Heuristic, Path, Plain, Pricing, QueryError, SearchCache,
    SearchOutcome, SearchStats, Status, TieBreak, check_endpoint, path_to, run_space,
};
use crate::grid::{Cost, Grid, Movement, Node, Point};

/// Dijkstra's algorithm on a grid: paths with no heuristic, the nearest of many
/// targets, and one-to-all distance fields.
#[derive(Debug, Clone, Copy)]
pub struct Dijkstra<'g> {
    grid: &'g Grid,
    movement: Movement,
}

/// Which of several targets was nearest, and the path to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nearest {
    /// Index into the targets slice of the target reached (the first listed
    /// among equally near ones is not guaranteed; ties go to the one expanded first).
    pub target: usize,
    /// The path to it.
    pub path: Path,
}

/// Costs from one start to every cell, from [`Dijkstra::distance_field`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistanceField {
    width: u32,
    costs: Vec<u64>,
}

impl DistanceField {
    /// The cost from the start to `p`, `None` when unreachable or off the map.
    pub fn get(&self, p: Point) -> Option<Cost> {
        if p.x >= self.width {
            return None;
        }
        let i = p.y as usize * self.width as usize + p.x as usize;
        self.costs
            .get(i)
            .copied()
            .filter(|c| *c != u64::MAX)
            .map(Cost)
    }

    /// Number of reachable cells.
    pub fn reachable(&self) -> usize {
        self.costs.iter().filter(|c| **c != u64::MAX).count()
    }
}

impl<'g> Dijkstra<'g> {
    /// Dijkstra on `grid` with the default movement rules.
    pub fn new(grid: &'g Grid) -> Self {
        Dijkstra {
            grid,
            movement: Movement::default(),
        }
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.movement = movement;
        self
    }

    /// A least-cost path from `start` to `goal`, found without a heuristic.
    pub fn find_path(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
    ) -> Result<SearchOutcome, QueryError> {
        AStar::new(self.grid)
            .movement(self.movement)
            .heuristic(Heuristic::Zero)
            .find_path(cache, start, goal)
    }

    /// The target nearest to `start` by path cost, and the path to it; `None`
    /// when no target is reachable. Blocked or off-map targets are errors.
    pub fn nearest(
        &self,
        cache: &mut SearchCache,
        start: Point,
        targets: &[Point],
    ) -> Result<(Option<Nearest>, SearchStats), QueryError> {
        self.movement.validate()?;
        let s = check_endpoint(self.grid, start, "start")?;
        let nodes = targets
            .iter()
            .map(|t| check_endpoint(self.grid, *t, "target"))
            .collect::<Result<Vec<_>, _>>()?;
        cache.begin(self.grid);
        for n in &nodes {
            cache.mark_target(*n);
        }
        let status = self.settle(cache, s, Goal::Targets);
        let found = match status {
            Status::Found(n) => Some(Nearest {
                target: nodes.iter().position(|t| *t == n).unwrap_or(0),
                path: path_to(cache, self.grid, n),
            }),
            _ => None,
        };
        Ok((found, cache.stats))
    }

    /// The cost from `start` to every reachable cell.
    pub fn distance_field(
        &self,
        cache: &mut SearchCache,
        start: Point,
    ) -> Result<DistanceField, QueryError> {
        self.movement.validate()?;
        let s = check_endpoint(self.grid, start, "start")?;
        cache.begin(self.grid);
        self.settle(cache, s, Goal::Exhaust);
        let costs = (0..self.grid.height())
            .flat_map(|y| (0..self.grid.width()).map(move |x| Point::new(x, y)))
            .map(|p| cache.g(self.grid.node(p)).unwrap_or(u64::MAX))
            .collect();
        Ok(DistanceField {
            width: self.grid.width(),
            costs,
        })
    }

    /// Runs Dijkstra from `start` in a cache already begun (targets marked)
    /// until `goal` says stop.
    fn settle(&self, cache: &mut SearchCache, start: Node, goal: Goal) -> Status {
        let est = Estimator::zero();
        cache.push_start(start, 0, &est, TieBreak::default());
        run_space(
            cache,
            Plain::new(self.grid, &self.movement),
            Everywhere,
            est,
            goal,
            TieBreak::default(),
            false,
            u64::MAX,
            Pricing::Forward,
        )
    }
}
