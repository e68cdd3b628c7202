//! Exact flat A* for a unit of any size: the baseline and the oracle of the
//! sized hierarchy.

use crate::engine::{Pricing, SearchCache, Space, run_space};
use crate::grid::{Movement, Point};
use crate::search::{
    Estimator, Everywhere, FACTOR_ONE, Goal, Heuristic, Path, SearchOutcome, Status, TieBreak,
};

use super::{Clearance, SizedQueryError, check_endpoints};

/// Exact A* for a unit of any size on the grid "clearance `>= size`" (see
/// the [movement rule](crate::SizedHierarchy#the-movement-rule)), reading the
/// [`Clearance`] on the fly. A borrowed configuration; state lives in a
/// [`SearchCache`].
///
/// ```
/// use tierpath::{Clearance, Grid, Point, SizedAStar, SearchCache};
/// let c = Clearance::new(Grid::from_ascii("
///     .........
///     ...@.....
///     .........
///     .....@...
///     .........
/// ").unwrap());
/// let mut cache = SearchCache::new();
/// let astar = SizedAStar::new(&c);
/// let one = astar.find_path(&mut cache, Point::new(0, 2), Point::new(7, 2), 1)?.path.unwrap();
/// let two = astar.find_path(&mut cache, Point::new(0, 2), Point::new(7, 2), 2)?.path;
/// assert_eq!(one.moves(), 7);
/// assert!(two.is_none()); // a 2x2 unit cannot squeeze between the staggered walls
/// # Ok::<(), tierpath::SizedQueryError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SizedAStar<'c> {
    clearance: &'c Clearance,
    movement: Movement,
}

impl<'c> SizedAStar<'c> {
    /// A* on `clearance`'s grid with [`Movement::default`].
    pub fn new(clearance: &'c Clearance) -> Self {
        SizedAStar {
            clearance,
            movement: Movement::default(),
        }
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.movement = movement;
        self
    }

    /// Finds a least-cost path for a unit of `size` from `start` to `goal`
    /// (top-left cells). `Ok` with `path: None` when no path exists for that
    /// size; `Err` for size 0 or above 255, an endpoint off the map, or an
    /// endpoint where the unit does not fit.
    pub fn find_path(
        &self,
        cache: &mut SearchCache,
        start: Point,
        goal: Point,
        size: u32,
    ) -> Result<SearchOutcome, SizedQueryError> {
        self.movement.validate()?;
        let size = check_endpoints(self.clearance, start, goal, size, Clearance::CAP as u32)?;
        let space = self.clearance.space(&self.movement, size);
        let (s, t) = (space.node(start), space.node(goal));
        let grid = self.clearance.grid();
        let est = Estimator::new(
            Heuristic::Auto,
            &self.movement,
            grid.min_weight(),
            t,
            grid.padded_width(),
            FACTOR_ONE,
        );
        cache.begin_len(grid.padded_len());
        cache.push_start(s, 0, &est, TieBreak::LargerG);
        let status = run_space(
            cache,
            space,
            Everywhere,
            est,
            Goal::Node(t),
            TieBreak::LargerG,
            false,
            u64::MAX,
            Pricing::Forward,
        );
        let path = match status {
            Status::Found(n) => {
                let mut cells = Vec::new();
                cache.trace_points(&space, n, &mut cells);
                Some(Path {
                    cells,
                    cost: crate::Cost(cache.g(n).unwrap_or(0)),
                })
            }
            _ => None,
        };
        Ok(SearchOutcome {
            path,
            stats: cache.stats,
            partial: false,
            out_of_budget: false,
        })
    }
}
