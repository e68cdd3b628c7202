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

mod astar;
mod dijkstra;
mod footprint;
mod heuristic;
mod jps;
pub(crate) mod partial;
mod path;
mod sliced;

pub use crate::engine::SearchCache;
pub(crate) use crate::engine::{
    Everywhere, Goal, Plain, Pricing, Rect, Status, path_to, run_space,
};
pub use astar::AStar;
pub use dijkstra::{Dijkstra, DistanceField, Nearest};
pub use footprint::{
    SizedPathError, footprint_fits, sized_legal_move, sized_path_cost, validate_sized_path,
};
pub use heuristic::Heuristic;
pub(crate) use heuristic::{CustomEstimate, Estimate, Estimator, FACTOR_ONE};
#[cfg(test)]
pub(crate) use jps::UNREACHED;
pub(crate) use jps::{Guide, JumpLines, Jumped, LineBits, MAX_GUIDE_LANDMARKS, SavedGuide};
pub use jps::{Jps, JpsCache, JpsError};
pub use path::{Path, PathError, legal_move, path_cost};
pub use sliced::{SliceStatus, SlicedSearch};

use crate::grid::{Cost, Grid, GridError, Node, Point};
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

impl TieBreak {
    /// "Ties on F go to the lowest H", the rule of Sebastian Lague's A*
    /// tutorial: another name for [`TieBreak::LargerG`], not a rule of its own.
    /// Among nodes of equal F = G + H, a larger G is exactly a smaller H, so
    /// the two orders are one.
    ///
    /// The open list keeps G for tie-breaking to 256 cost units, which keeps
    /// apart every two G values that differ by a move or more; values closer
    /// than that may fall to heap order: with [`Movement::TEN_FOURTEEN`](crate::Movement::TEN_FOURTEEN), G
    /// values 200 units apart (three diagonal steps, 4,200, against four
    /// straight ones, 4,000) sometimes do.
    ///
    /// ```
    /// use tierpath::TieBreak;
    /// assert_eq!(TieBreak::LOWER_H, TieBreak::LargerG);
    /// ```
    pub const LOWER_H: TieBreak = TieBreak::LargerG;
}

/// What a search recorded for one cell, from [`SearchCache::cell_state`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellState {
    /// The cost of the best route from the start found so far (final once
    /// closed, with a consistent heuristic).
    pub g: Cost,
    /// The cell that route comes from; `None` at the start.
    pub parent: Option<Point>,
    /// Closed (expanded), or still on the open list.
    pub closed: bool,
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
    /// The path found, or `None` when there is none. With
    /// [`AStar::partial`], a search that does not reach the goal returns the
    /// path to the expanded cell closest to it here, and sets `partial`.
    pub path: Option<Path>,
    /// Counters.
    pub stats: SearchStats,
    /// Whether `path` is partial: it ends at the expanded cell closest to the
    /// goal, not at the goal.
    pub partial: bool,
    /// Whether the search stopped because its expansion budget
    /// ([`AStar::max_expansions`]) ran out, or a [`SlicedSearch`] was finished
    /// while still in progress, before reaching the goal or proving it
    /// unreachable.
    pub out_of_budget: bool,
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
    /// Unit size 0.
    #[error("unit size 0 is invalid: sizes start at 1")]
    ZeroSize,
    /// A unit size larger than the search serves.
    #[error("unit size {size} is above the largest size served, {max}")]
    SizeAboveMax {
        /// The size asked for.
        size: u32,
        /// The largest size served.
        max: u32,
    },
    /// An endpoint where the unit does not fit.
    #[error(
        "a size-{size} unit does not fit at {role} {point}: the largest square with its top-left corner there is {clearance}x{clearance}"
    )]
    DoesNotFit {
        /// "start" or "goal".
        role: &'static str,
        /// The point.
        point: Point,
        /// The unit's size.
        size: u32,
        /// The point's clearance.
        clearance: u8,
    },
}

/// Checks the endpoints of a query for a unit of `size`: the size in
/// `1..=max`, both endpoints on the map and fitting the unit. Returns the
/// size as a byte.
pub(crate) fn check_unit_endpoints(
    grid: &Grid,
    clearance: &[u8],
    start: Point,
    goal: Point,
    size: u32,
    max: u32,
) -> Result<u8, QueryError> {
    let k = check_size(size, max)?;
    check_unit_cell(grid, clearance, start, "start", k)?;
    check_unit_cell(grid, clearance, goal, "goal", k)?;
    Ok(k)
}

/// Checks a unit size is in `1..=max` (at most 255); returns it as a byte.
pub(crate) fn check_size(size: u32, max: u32) -> Result<u8, QueryError> {
    if size == 0 {
        return Err(QueryError::ZeroSize);
    }
    if size > max {
        return Err(QueryError::SizeAboveMax { size, max });
    }
    Ok(size as u8)
}

/// Checks a unit of `size` may stand on `point` (on the map, clearance
/// `>= size`); returns its node.
pub(crate) fn check_unit_cell(
    grid: &Grid,
    clearance: &[u8],
    point: Point,
    role: &'static str,
    size: u8,
) -> Result<Node, QueryError> {
    on_map(grid, point, role)?;
    let node = grid.node(point);
    let c = clearance[node.index()];
    if c < size {
        return Err(QueryError::DoesNotFit {
            role,
            point,
            size: size as u32,
            clearance: c,
        });
    }
    Ok(node)
}

/// Checks a query endpoint is on the map.
fn on_map(grid: &Grid, point: Point, role: &'static str) -> Result<(), QueryError> {
    if grid.contains(point) {
        Ok(())
    } else {
        Err(QueryError::OffMap {
            role,
            point,
            width: grid.width(),
            height: grid.height(),
        })
    }
}

/// Checks a query endpoint: on the map and passable.
pub(crate) fn check_endpoint(
    grid: &Grid,
    point: Point,
    role: &'static str,
) -> Result<Node, QueryError> {
    on_map(grid, point, role)?;
    if !grid.is_passable(point) {
        return Err(QueryError::Blocked { role, point });
    }
    Ok(grid.node(point))
}
