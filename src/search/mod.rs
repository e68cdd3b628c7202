//! Exact flat search on the grid: A* and Dijkstra, the baseline the hierarchy is
//! measured against and the oracle its tests trust.
//!
//! Engines are cheap, borrowed configurations ([`AStar`], [`Dijkstra`]); all
//! mutable state lives in a [`SearchCache`] the caller owns and reuses (one per
//! thread), in the style of regex-automata's engine-plus-cache split.
//!
//! ```
//! use tierpath::{AStar, Grid, Point, SearchCache};
//! let grid = Grid::from_ascii("
//!     .....
//!     .@@@.
//!     .....
//! ").unwrap();
//! let mut cache = SearchCache::new();
//! let out = AStar::new(&grid).find_path(&mut cache, Point::new(0, 1), Point::new(4, 1)).unwrap();
//! let path = out.path.expect("reachable");
//! // Around the wall without cutting its corners: up, along, down.
//! assert_eq!(path.cells.len(), 7);
//! assert!(out.stats.expanded > 0);
//! ```
//!
//! # Performance
//! No allocation per expanded node and no hashing: per-node state lives in one
//! flat array indexed by padded cell index and reset in O(1) by a generation
//! stamp; the open list is a binary heap with lazy deletion (an improved node is
//! pushed again and its stale entries skipped when popped).

mod engine;
pub(crate) mod heap;
mod heuristic;
mod path;
pub(crate) mod route;

pub use engine::SearchCache;
pub(crate) use engine::{
    Everywhere, Goal, Problem, Rect, Region, Status, Uniform, Weighted, WeightedReverse,
};
pub use heuristic::Heuristic;
pub(crate) use heuristic::{Estimator, FACTOR_ONE};
pub use path::{Path, PathError, legal_move, path_cost};

use crate::grid::{Cost, Grid, GridError, Movement, Node, Point};
use thiserror::Error;

/// How A* orders open nodes of equal F. Every rule ends in the node index, so
/// results are deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TieBreak {
    /// Prefer the larger G (equivalently, the smaller H): the node nearest the
    /// goal. The default; it expands fewest nodes on open maps.
    #[default]
    LargerG,
    /// Prefer the smaller G.
    SmallerG,
    /// Prefer the most recently added node (a stack among ties).
    LastAdded,
    /// Prefer the earliest added node (a queue among ties).
    FirstAdded,
}

/// One expansion, as recorded by [`SearchCache::record_expansions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expansion {
    /// The expanded cell.
    pub cell: Point,
    /// Its G (cost from the start) when expanded.
    pub g: u64,
    /// Its H (estimate to the goal), including any weighted-A* factor.
    pub h: u64,
}

/// What a search did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Nodes taken off the open list and expanded.
    pub expanded: u64,
    /// Nodes put on the open list (including re-pushes after improvement).
    pub generated: u64,
    /// Closed nodes moved back to the open list (only with re-opening on).
    pub reopened: u64,
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, o: SearchStats) {
        self.expanded += o.expanded;
        self.generated += o.generated;
        self.reopened += o.reopened;
    }
}

/// A search's result: the path, or `None` when the goal is unreachable (no path
/// is a value, not an error), and what the search did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The path found, or `None` when there is none.
    pub path: Option<Path>,
    /// Counters.
    pub stats: SearchStats,
}

/// Bad input to a query (never "no path", which is a value).
#[derive(Debug, Error, Clone, PartialEq)]
pub enum QueryError {
    /// An endpoint off the map.
    #[error("{role} {point} is off the {width}x{height} map")]
    OffMap {
        /// "start", "goal" or "target".
        role: &'static str,
        /// The point.
        point: Point,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// An endpoint on a blocked cell.
    #[error("{role} {point} is on a blocked cell")]
    Blocked {
        /// "start", "goal" or "target".
        role: &'static str,
        /// The point.
        point: Point,
    },
    /// A weighted-A* factor below one or not finite.
    #[error("heuristic weight {0} is invalid: it must be a finite number >= 1")]
    BadWeight(f64),
    /// Unusable movement rules.
    #[error(transparent)]
    Movement(#[from] GridError),
    /// A query the hierarchy cannot answer because it was built differently.
    #[error("{0}")]
    Unsupported(String),
}

/// Checks a query endpoint: on the map and passable.
pub(crate) fn check_endpoint(
    grid: &Grid,
    point: Point,
    role: &'static str,
) -> Result<Node, QueryError> {
    if !grid.contains(point) {
        return Err(QueryError::OffMap {
            role,
            point,
            width: grid.width(),
            height: grid.height(),
        });
    }
    if !grid.is_passable(point) {
        return Err(QueryError::Blocked { role, point });
    }
    Ok(grid.node(point))
}

/// Which way a search's moves are priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pricing {
    /// Moves as searched: a move costs its base times the entered cell's weight.
    Forward,
    /// A search run backwards from a goal: each searched move stands for the
    /// real move the other way, which enters the cell searched from.
    Reverse,
}

/// Runs the engine with the grid's step pricing (uniform or weighted) in `region`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_in<R: Region>(
    cache: &mut SearchCache,
    grid: &Grid,
    movement: &Movement,
    region: R,
    estimator: Estimator,
    goal: Goal,
    tie_break: TieBreak,
    reopen: bool,
    budget: u64,
) -> Status {
    run_priced(
        cache,
        grid,
        movement,
        region,
        estimator,
        goal,
        tie_break,
        reopen,
        budget,
        Pricing::Forward,
    )
}

/// [`run_in`] with a choice of [`Pricing`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_priced<R: Region>(
    cache: &mut SearchCache,
    grid: &Grid,
    movement: &Movement,
    region: R,
    estimator: Estimator,
    goal: Goal,
    tie_break: TieBreak,
    reopen: bool,
    budget: u64,
    pricing: Pricing,
) -> Status {
    // One problem, three ways of pricing a move: each compiles to its own loop.
    macro_rules! run {
        ($step:expr) => {
            cache.run(
                &Problem {
                    grid,
                    movement,
                    step: $step,
                    region,
                    estimator,
                    goal,
                    tie_break,
                    reopen,
                },
                budget,
            )
        };
    }
    match (grid.weight_slice(), pricing) {
        (None, _) => run!(Uniform),
        (Some(w), Pricing::Forward) => run!(Weighted(w)),
        (Some(w), Pricing::Reverse) => run!(WeightedReverse(w)),
    }
}

/// Builds the path ending at `end` from the cache's parent pointers.
pub(crate) fn path_to(cache: &SearchCache, grid: &Grid, end: Node) -> Path {
    let mut nodes = Vec::new();
    cache.trace_back(end, &mut nodes);
    Path {
        cells: nodes.iter().map(|n| grid.point(*n)).collect(),
        cost: Cost(cache.g(end).unwrap_or(0)),
    }
}

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
        let est = Estimator::zero();
        cache.push_start(s, 0, &est, TieBreak::default());
        let status = run_in(
            cache,
            self.grid,
            &self.movement,
            Everywhere,
            est,
            Goal::Targets,
            TieBreak::default(),
            false,
            u64::MAX,
        );
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
        let est = Estimator::zero();
        cache.push_start(s, 0, &est, TieBreak::default());
        run_in(
            cache,
            self.grid,
            &self.movement,
            Everywhere,
            est,
            Goal::Exhaust,
            TieBreak::default(),
            false,
            u64::MAX,
        );
        let costs = (0..self.grid.height())
            .flat_map(|y| (0..self.grid.width()).map(move |x| Point::new(x, y)))
            .map(|p| cache.g(self.grid.node(p)).unwrap_or(u64::MAX))
            .collect();
        Ok(DistanceField {
            width: self.grid.width(),
            costs,
        })
    }
}
