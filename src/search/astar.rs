//! Exact A*: the flat planner, the baseline the hierarchy is measured against.

use super::{
    Estimator, Everywhere, FACTOR_ONE, Goal, Heuristic, Pricing, QueryError, SearchCache,
    SearchOutcome, Status, TieBreak, check_endpoint, path_to, run_in,
};
use crate::grid::{Grid, Movement, Node, Point};

/// Exact A* on a grid: a borrowed configuration; state lives in a
/// [`SearchCache`].
///
/// Defaults: [`Movement::default`] (the benchmark rules), [`Heuristic::Auto`],
/// weight 1 (optimal), [`TieBreak::LargerG`], no re-opening of closed nodes.
#[derive(Debug, Clone, Copy)]
pub struct AStar<'g> {
    grid: &'g Grid,
    movement: Movement,
    heuristic: Heuristic,
    weight: f64,
    tie_break: TieBreak,
    reopen: bool,
}

impl<'g> AStar<'g> {
    /// A* on `grid` with the default settings.
    pub fn new(grid: &'g Grid) -> Self {
        AStar {
            grid,
            movement: Movement::default(),
            heuristic: Heuristic::Auto,
            weight: 1.0,
            tie_break: TieBreak::default(),
            reopen: false,
        }
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.movement = movement;
        self
    }

    /// Sets the heuristic.
    pub fn heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = heuristic;
        self
    }

    /// Sets the weighted-A* factor `w >= 1`: H is multiplied by `w`, trading
    /// optimality for speed; with an admissible heuristic the path costs at most
    /// `w` times the optimum. Precision is 1/1024.
    pub fn weight(mut self, w: f64) -> Self {
        self.weight = w;
        self
    }

    /// Sets the tie-breaking rule among equal F.
    pub fn tie_break(mut self, tie_break: TieBreak) -> Self {
        self.tie_break = tie_break;
        self
    }

    /// Re-opens closed nodes when a cheaper route to them appears, which keeps A*
    /// optimal under an inconsistent (but admissible) heuristic.
    pub fn reopen_closed(mut self, on: bool) -> Self {
        self.reopen = on;
        self
    }

    /// The configured movement rules.
    pub fn movement_rules(&self) -> &Movement {
        &self.movement
    }

    fn factor(&self) -> Result<u64, QueryError> {
        if !self.weight.is_finite() || self.weight < 1.0 || self.weight > 1e6 {
            return Err(QueryError::BadWeight(self.weight));
        }
        Ok((self.weight * FACTOR_ONE as f64).round() as u64)
    }

    /// Validates the query and prepares `cache` for it; returns the problem's
    /// fixed parts.
    pub(crate) fn prepare(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
    ) -> Result<(Estimator, Node), QueryError> {
        self.movement.validate()?;
        let factor = self.factor()?;
        let s = check_endpoint(self.grid, start, "start")?;
        let t = check_endpoint(self.grid, goal, "goal")?;
        let est = Estimator::new(
            self.heuristic,
            &self.movement,
            self.grid.min_weight(),
            t,
            self.grid.padded_width(),
            factor,
        );
        cache.begin(self.grid);
        cache.push_start(s, 0, &est, self.tie_break);
        Ok((est, t))
    }

    /// Advances a prepared search by at most `budget` expansions.
    pub(crate) fn advance(
        &self,
        cache: &mut SearchCache,
        est: Estimator,
        goal: Node,
        budget: u64,
    ) -> Status {
        run_in(
            cache,
            self.grid,
            &self.movement,
            Everywhere,
            est,
            Goal::Node(goal),
            self.tie_break,
            self.reopen,
            budget,
            Pricing::Forward,
        )
    }

    /// Finds a least-cost path from `start` to `goal` (within the weight bound
    /// when weighted). `Ok` with `path: None` when the goal is unreachable; `Err`
    /// for an endpoint off the map or on a blocked cell.
    pub fn find_path(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
    ) -> Result<SearchOutcome, QueryError> {
        let (est, t) = self.prepare(cache, start, goal)?;
        let status = self.advance(cache, est, t, u64::MAX);
        Ok(SearchOutcome {
            path: match status {
                Status::Found(n) => Some(path_to(cache, self.grid, n)),
                _ => None,
            },
            stats: cache.stats,
        })
    }
}
