//! Exact A*: the flat planner, the baseline the hierarchy is measured against.

use super::partial::{self, Closest};
use super::{
    CustomEstimate, Estimate, Estimator, Everywhere, FACTOR_ONE, Goal, Heuristic, Pricing,
    QueryError, SearchCache, SearchOutcome, Status, TieBreak, check_endpoint,
};
use crate::engine::{Fits, Plain, Space, run_space};
use crate::grid::Clearance;
use crate::grid::{Cost, Grid, Movement, Node, Point};
use crate::search::check_unit_endpoints;

/// Exact A* on a grid: a borrowed configuration; state lives in a
/// [`SearchCache`].
///
/// Defaults: [`Movement::default`] (the benchmark rules), [`Heuristic::Auto`],
/// weight 1 (optimal), [`TieBreak::LargerG`], no re-opening of closed nodes,
/// no expansion limit, no partial paths, a unit of one cell
/// ([`AStar::for_unit`] searches for a larger square unit).
#[derive(Debug, Clone, Copy)]
pub struct AStar<'g> {
    grid: &'g Grid,
    /// For a unit larger than a cell: its clearance map and its size (checked
    /// per query).
    unit: Option<(&'g [u8], u32)>,
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
            unit: None,
            movement: Movement::default(),
            heuristic: Heuristic::Auto,
            weight: 1.0,
            tie_break: TieBreak::default(),
            reopen: false,
            partial: false,
            max_expansions: u64::MAX,
        }
    }

    /// Exact A* for a `size x size` unit on `clearance`'s grid: the unit is
    /// named by its top-left cell and moves as a single cell would on the
    /// grid of cells where it fits (clearance `>= size`; see the [movement
    /// rule](crate::sized_legal_move), checked by
    /// [`sized_path_cost`](crate::sized_path_cost)). Every other setting
    /// applies as for one cell. A size of 0 or above 255, or an endpoint where
    /// the unit does not fit, is an error of the query.
    ///
    /// ```
    /// use tierpath::{AStar, Clearance, Grid, Point, SearchCache};
    /// let c = Clearance::new(Grid::from_ascii("
    ///     .........
    ///     ...@.....
    ///     .........
    ///     .....@...
    ///     .........
    /// ").unwrap());
    /// let mut cache = SearchCache::new();
    /// let (s, t) = (Point::new(0, 2), Point::new(7, 2));
    /// let one = AStar::for_unit(&c, 1).find_path(&mut cache, s, t)?.path.unwrap();
    /// let two = AStar::for_unit(&c, 2).find_path(&mut cache, s, t)?.path;
    /// assert_eq!(one.moves(), 7);
    /// assert!(two.is_none()); // a 2x2 unit cannot squeeze between the staggered walls
    /// # Ok::<(), tierpath::QueryError>(())
    /// ```
    pub fn for_unit(clearance: &'g Clearance, size: u32) -> Self {
        Self::for_unit_on(clearance.grid(), clearance.padded(), size)
    }

    /// [`AStar::for_unit`] on `grid` whose clearance (in the grid's padded
    /// layout) is `clearance`.
    pub(crate) fn for_unit_on(grid: &'g Grid, clearance: &'g [u8], size: u32) -> Self {
        AStar {
            unit: Some((clearance, size)),
            ..AStar::new(grid)
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
        let (s, t, factor) = self.check(start, goal)?;
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

    /// Checks the rules, the weight and the endpoints; returns the endpoints'
    /// nodes and the weight factor.
    fn check(&self, start: Point, goal: Point) -> Result<(Node, Node, u64), QueryError> {
        self.movement.validate()?;
        let factor = self.factor()?;
        match self.unit {
            None => Ok((
                check_endpoint(self.grid, start, "start")?,
                check_endpoint(self.grid, goal, "goal")?,
                factor,
            )),
            Some((c, size)) => {
                check_unit_endpoints(self.grid, c, start, goal, size, Clearance::CAP as u32)?;
                Ok((self.grid.node(start), self.grid.node(goal), factor))
            }
        }
    }

    /// Advances a prepared search by at most `budget` expansions.
    pub(crate) fn advance<E: Estimate>(
        &self,
        cache: &mut SearchCache,
        est: E,
        goal: Node,
        budget: u64,
    ) -> Status {
        match self.unit {
            None => self.advance_in(
                cache,
                Plain::new(self.grid, &self.movement),
                est,
                goal,
                budget,
            ),
            // The size was checked when the search was prepared.
            Some((c, size)) => self.advance_in(
                cache,
                Fits::on(self.grid, c, &self.movement, size as u8),
                est,
                goal,
                budget,
            ),
        }
    }

    fn advance_in<S: Space, E: Estimate>(
        &self,
        cache: &mut SearchCache,
        space: S,
        est: E,
        goal: Node,
        budget: u64,
    ) -> Status {
        run_space(
            cache,
            space,
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

    /// [`find_path`](AStar::find_path) with the caller's heuristic in place of
    /// the configured [`Heuristic`]: `heuristic(cell)` estimates the cost from
    /// `cell` to `goal`, in the [cost unit](crate::Cost) (one straight step on
    /// plain ground is `movement.straight * 100`). It is called each time a cell
    /// is put on the open list, so it should be cheap: a table look-up or a
    /// little arithmetic. Every other setting applies as usual: the weighted-A*
    /// factor (it multiplies the returned value), partial paths and the
    /// expansion limit.
    ///
    /// The path is optimal when the heuristic never overestimates (is
    /// *admissible*) and either never drops by more than a move's cost between
    /// neighbours (is *consistent*) or [`reopen_closed`](AStar::reopen_closed)
    /// is on. An admissible but inconsistent heuristic can close a cell before
    /// its cheapest route is known; without re-opening, that cell keeps its
    /// dearer route and so may the path.
    ///
    /// The built-in heuristics go through [`find_path`](AStar::find_path),
    /// whose search loop is compiled for them alone: this method adds nothing
    /// to it.
    ///
    /// ```
    /// use tierpath::{AStar, Cost, Grid, Movement, Point, SearchCache};
    /// let grid = Grid::from_ascii("
    ///     .....
    ///     .@@@.
    ///     .....
    /// ").unwrap();
    /// let (start, goal) = (Point::new(0, 1), Point::new(4, 1));
    /// let m = Movement::FOUR;
    /// // Manhattan distance, written out by hand.
    /// let manhattan = |p: Point| {
    ///     Cost(m.straight_step().0 * (p.x.abs_diff(goal.x) + p.y.abs_diff(goal.y)) as u64)
    /// };
    /// let mut cache = SearchCache::new();
    /// let out = AStar::new(&grid)
    ///     .movement(m)
    ///     .find_path_with_heuristic(&mut cache, start, goal, manhattan)
    ///     .unwrap();
    /// assert_eq!(out.path.unwrap().cost, Cost(6 * m.straight_step().0));
    /// ```
    pub fn find_path_with_heuristic<F: Fn(Point) -> Cost>(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
        heuristic: F,
    ) -> Result<SearchOutcome, QueryError> {
        let (s, t, factor) = self.check(start, goal)?;
        let est = CustomEstimate::new(heuristic, self.grid.padded_width(), factor);
        cache.begin(self.grid);
        cache.push_start(s, 0, &est, self.tie_break);
        if self.partial {
            cache.closest = Some(Closest::new(self.grid, &self.movement, t));
        }
        let status = self.advance(cache, est, t, self.max_expansions);
        Ok(self.outcome(cache, status))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Weight;

    fn octile(m: Movement, goal: Point) -> impl Fn(Point) -> Cost {
        move |p| m.distance(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y))
    }

    #[test]
    fn custom_octile_matches_the_built_in_one() {
        let grid = Grid::from_ascii(
            "
            ..........
            .@@@@@@@..
            .......@..
            .@@@@..@..
            ....@.....
            ",
        )
        .unwrap();
        let (s, t) = (Point::new(0, 4), Point::new(9, 0));
        let m = Movement::default();
        let mut built_in = SearchCache::new();
        let mut custom = SearchCache::new();
        built_in.record_expansions(true);
        custom.record_expansions(true);
        let astar = AStar::new(&grid).heuristic(Heuristic::Octile);
        let a = astar.find_path(&mut built_in, s, t).unwrap();
        let b = astar
            .find_path_with_heuristic(&mut custom, s, t, octile(m, t))
            .unwrap();
        assert_eq!(a, b);
        assert_eq!(built_in.expansions(), custom.expansions());
        assert!(
            custom
                .expansions()
                .iter()
                .all(|e| { e.h == m.distance(e.cell.x.abs_diff(t.x), e.cell.y.abs_diff(t.y)).0 })
        );
    }

    #[test]
    fn zero_heuristic_and_weight_factor() {
        let grid = Grid::from_fn(12, 9, |p| !(p.x == 6 && p.y < 7)).unwrap();
        let (s, t) = (Point::new(1, 1), Point::new(11, 2));
        let mut cache = SearchCache::new();
        let exact = AStar::new(&grid).find_path(&mut cache, s, t).unwrap();
        let zero = AStar::new(&grid)
            .find_path_with_heuristic(&mut cache, s, t, |_| Cost::ZERO)
            .unwrap();
        assert_eq!(zero.path.as_ref().unwrap().cost, exact.path.unwrap().cost);
        // Weight 2 doubles the recorded estimate.
        cache.record_expansions(true);
        AStar::new(&grid)
            .weight(2.0)
            .find_path_with_heuristic(&mut cache, s, t, |_| Cost(7))
            .unwrap();
        assert!(cache.expansions().iter().all(|e| e.h == 14));
    }

    /// An admissible heuristic that is zero in the bottom detour and exact
    /// elsewhere: it closes the junction `X` by the detour first. Only with
    /// re-opening does A* correct the junction and find the optimal path.
    #[test]
    fn inconsistent_heuristic_needs_reopening() {
        // S at (0,1); X at (3,1); goal at (6,1). Over the top S..X is five moves,
        // by the bottom seven.
        let grid = Grid::from_ascii(
            "
            ....@@@
            S@@....
            .@..@@@
            ....@@@
            ",
        )
        .unwrap();
        let (s, t) = (Point::new(0, 1), Point::new(6, 1));
        let step = Movement::FOUR.straight_step().0;
        let detour = |p: Point| p.y >= 2 || p == Point::new(3, 1);
        let h = |p: Point| {
            if detour(p) {
                Cost::ZERO
            } else {
                Cost(step * (p.x.abs_diff(t.x) + p.y.abs_diff(t.y)) as u64)
            }
        };
        let astar = AStar::new(&grid).movement(Movement::FOUR);
        let mut cache = SearchCache::new();
        let plain = astar.find_path_with_heuristic(&mut cache, s, t, h).unwrap();
        assert_eq!(plain.path.unwrap().cost, Cost(10 * step));
        assert_eq!(plain.stats.reopened, 0);
        let reopened = astar
            .reopen_closed(true)
            .find_path_with_heuristic(&mut cache, s, t, h)
            .unwrap();
        let path = reopened.path.unwrap();
        assert_eq!(path.cost, Cost(8 * step));
        assert!(reopened.stats.reopened > 0);
        path.validate(&grid, &Movement::FOUR).unwrap();
        let exact = astar.find_path(&mut cache, s, t).unwrap();
        assert_eq!(exact.path.unwrap().cost, path.cost);
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut grid = Grid::new(4, 4).unwrap();
        grid.set_passable(Point::new(2, 2), false).unwrap();
        grid.set_weight(Point::new(1, 1), Weight(50)).unwrap();
        let mut cache = SearchCache::new();
        let astar = AStar::new(&grid);
        let h = |_| Cost::ZERO;
        assert!(matches!(
            astar.find_path_with_heuristic(&mut cache, Point::new(9, 0), Point::new(0, 0), h),
            Err(QueryError::OffMap { role: "start", .. })
        ));
        assert!(matches!(
            astar.find_path_with_heuristic(&mut cache, Point::new(0, 0), Point::new(2, 2), h),
            Err(QueryError::Blocked { role: "goal", .. })
        ));
        assert!(matches!(
            astar.weight(0.5).find_path_with_heuristic(
                &mut cache,
                Point::new(0, 0),
                Point::new(3, 3),
                h
            ),
            Err(QueryError::BadWeight(_))
        ));
    }
}
