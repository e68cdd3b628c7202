//! Exact A*: the flat planner, the baseline the hierarchy is measured against.

use super::partial::{self, Closest};
use super::{
    Estimator, Everywhere, FACTOR_ONE, Goal, Heuristic, Pricing, QueryError, SearchCache,
    SearchOutcome, Status, TieBreak, check_endpoint, run_in,
};
use crate::grid::{Grid, Movement, Node, Point};

/// Exact A* on a grid: a borrowed configuration; state lives in a
/// [`SearchCache`].
///
/// Defaults: [`Movement::default`] (the benchmark rules), [`Heuristic::Auto`],
/// weight 1 (optimal), [`TieBreak::LargerG`], no re-opening of closed nodes,
/// no expansion limit, no partial paths.
#[derive(Debug, Clone, Copy)]
pub struct AStar<'g> {
    grid: &'g Grid,
    movement: Movement,
    heuristic: Heuristic,
    weight: f64,
    tie_break: TieBreak,
    reopen: bool,
    /// Return the path to the closest expanded cell when the goal is not reached.
    pub(crate) partial: bool,
    /// Stop after this many expansions.
    pub(crate) max_expansions: u64,
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
            partial: false,
            max_expansions: u64::MAX,
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

    /// When the goal is unreachable or [`max_expansions`](AStar::max_expansions)
    /// runs out, returns the path to the expanded cell closest to the goal
    /// (by [`Movement::distance`]; ties to the lower cost from the start, then
    /// the cell expanded first), flagged [`SearchOutcome::partial`], instead of
    /// no path. Off by default.
    ///
    /// ```
    /// use tierpath::{AStar, Grid, Point, SearchCache};
    /// let grid = Grid::from_ascii("
    ///     ...@..
    ///     ...@..
    /// ").unwrap();
    /// let mut cache = SearchCache::new();
    /// let out = AStar::new(&grid).partial(true)
    ///     .find_path(&mut cache, Point::new(0, 0), Point::new(5, 0)).unwrap();
    /// assert!(out.partial);
    /// assert_eq!(out.path.unwrap().goal(), Some(Point::new(2, 0))); // beside the wall
    /// ```
    pub fn partial(mut self, on: bool) -> Self {
        self.partial = on;
        self
    }

    /// Stops the search after `n` expansions (at least one); the outcome is
    /// then flagged [`SearchOutcome::out_of_budget`] and holds no path, or a
    /// partial one with [`partial`](AStar::partial). Unlimited by default.
    pub fn max_expansions(mut self, n: u64) -> Self {
        self.max_expansions = n.max(1);
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
        if self.partial {
            cache.closest = Some(Closest::new(self.grid, &self.movement, t));
        }
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

    /// The outcome of a prepared search that ended with `status`.
    pub(crate) fn outcome(&self, cache: &SearchCache, status: Status) -> SearchOutcome {
        partial::outcome(cache, self.grid, &self.movement, status, self.partial)
    }

    /// Finds a least-cost path from `start` to `goal` (within the weight bound
    /// when weighted). `Ok` with `path: None` when the goal is unreachable (or,
    /// with [`partial`](AStar::partial), a partial path); `Err` for an endpoint
    /// off the map or on a blocked cell.
    pub fn find_path(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
    ) -> Result<SearchOutcome, QueryError> {
        let (est, t) = self.prepare(cache, start, goal)?;
        let status = self.advance(cache, est, t, self.max_expansions);
        Ok(self.outcome(cache, status))
    }
}
