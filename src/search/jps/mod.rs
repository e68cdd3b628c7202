//! Exact jump point search (Harabor and Grastien's JPS) on maps of uniform
//! cost: an online optimal search, no preprocessing, that expands only the
//! *jump points* of a map instead of every cell.
//!
//! Under the Moving AI rules (8-connected, no corner cutting) every optimal
//! path has a *canonical* form: diagonal moves first, straight moves after,
//! turning only where an obstacle forces it. The search keeps to canonical
//! paths: from a node it moves only in the directions such a path may take
//! next (the *pruning rule*, a table from the direction of arrival and the
//! eight neighbours), and instead of stepping cell by cell it *jumps*:
//!
//! * straight, until the next cell where a line beside turns from blocked to
//!   passable (a forced turn), or the goal, or a wall. Jumps scan the map's
//!   passability as bits, 63 cells per word operation: rows for horizontal
//!   jumps, the transposed map for vertical ones (the block-based jumps of
//!   Harabor and Grastien's "Improving jump point search", 2014).
//! * diagonally, one step at a time, jumping straight both ways from every
//!   cell passed: what those straight jumps find becomes a successor of the
//!   node the diagonal left from (the diagonal cells are never put on the open
//!   list).
//!
//! A successor's edge is "diagonal steps, then straight steps"; the path
//! returned is those edges walked out into every cell, and its cost is exact
//! in the integer [`Cost`] unit.
//!
//! The other movement rules have pruning rules of their own (`rules.rs`):
//! when diagonal moves may cut corners ([`CornerRule::IfOneFree`],
//! [`CornerRule::Always`]) a turn is forced one cell earlier, past a blocked
//! cell beside, and diagonal jumps stop at such turns too (Harabor and
//! Grastien's original 2011 rules); 4-connected, a canonical path is
//! horizontal moves then vertical ones, so horizontal runs play the part of
//! the diagonals and vertical jumps stop where a column beside turns from
//! blocked to passable.
//!
//! Supported: every movement rule (4- and 8-connected, every corner rule)
//! with any straight and diagonal costs [`Movement::validate`] accepts, on
//! maps of uniform cost; weighted maps are refused with
//! [`JpsError::Weighted`]. When a diagonal costs as much as two straight
//! moves and may not cut past a blocked corner, the 4-connected search runs
//! instead (the same least costs; see `rules::search_rule`); when it may
//! ([`CornerRule::Always`]), the rule is refused with
//! [`JpsError::DiagonalTies`].

mod bits;
mod guide;
mod reached;
mod rules;
mod search;
#[cfg(test)]
mod tests;

use super::{Path, QueryError, SearchOutcome, SearchStats, check_endpoint};
use crate::engine::heap::{Entry, OpenList};
use crate::grid::{
    Connectivity, CornerRule, Cost, FastDiv, Grid, GridError, Movement, Point, Weight,
};
use bits::BitLines;
#[cfg(test)]
pub(crate) use guide::UNREACHED;
pub(crate) use guide::{Guide, MAX_GUIDE_LANDMARKS, SavedGuide};
use reached::{CLOSED, NO_PARENT, Reached};
use rules::{ALWAYS, FOUR, IF_ONE_FREE, NEVER, Rule};
use search::{Ran, Search};
use thiserror::Error;

/// Why a [`Jps`] cannot be made for a grid and movement rule.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum JpsError {
    /// The grid has terrain weights: jump point search skips cells on the
    /// assumption that every move of a kind costs the same.
    #[error(
        "jump point search needs uniform costs, but this map has terrain weights; use AStar for weighted maps"
    )]
    Weighted,
    /// Unusable movement costs (the same check as [`Movement::validate`]).
    #[error(transparent)]
    Movement(#[from] GridError),
    /// Diagonal moves that may cut past two blocked cells
    /// ([`CornerRule::Always`]) at the cost of two straight moves: the
    /// pruning needs a diagonal strictly cheaper than the two straight
    /// moves around it (at equal cost it can lose the least-cost path), and
    /// such a diagonal has no detour for the 4-connected search to take.
    #[error(
        "jump point search cannot cut corners past blocked cells when a diagonal move costs two straight ones (straight {straight}, diagonal {diagonal}); use AStar, or a diagonal cheaper than two straight moves"
    )]
    DiagonalTies {
        /// The straight move's cost.
        straight: u32,
        /// The diagonal move's cost.
        diagonal: u32,
    },
}

/// Exact jump point search on a uniform-cost grid: the same optimal costs as
/// [`AStar`](crate::AStar), found by expanding jump points only. Built once per
/// map and movement rule (it keeps the map as row and column bitsets, an
/// eighth of a byte per cell each, made in one pass); per-query scratch lives
/// in a [`JpsCache`].
///
/// ```
/// use tierpath::{Grid, Jps, JpsCache, Movement, Point};
/// let grid = Grid::from_ascii("
///     ..........
///     .@@@@@@@..
///     .......@..
///     .@@@@..@..
///     ....@.....
/// ").unwrap();
/// let jps = Jps::new(&grid).unwrap();
/// let mut cache = JpsCache::new();
/// let out = jps.find_path(&mut cache, Point::new(0, 4), Point::new(9, 0)).unwrap();
/// let path = out.path.expect("reachable");
/// // Every cell of the path, not only the jump points, and an exact cost.
/// path.validate(&grid, &Movement::default()).unwrap();
/// assert_eq!(path.cells.first(), Some(&Point::new(0, 4)));
/// assert_eq!(path.cells.last(), Some(&Point::new(9, 0)));
/// ```
#[derive(Debug, Clone)]
pub struct Jps<'g> {
    grid: &'g Grid,
    lines: JumpLines,
}

/// What a jump point search reads of a map besides its size: the passability
/// as row and column bitsets, and the movement rule. Owned, so that a
/// [`Hierarchy`](crate::Hierarchy) keeps one beside its grid (kept up to
/// date as cells open and close) for its exact near searches.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct JumpLines {
    movement: Movement,
    /// Padded rows: bit `x` of line `y`.
    rows: BitLines,
    /// Padded columns: bit `y` of line `x`.
    cols: BitLines,
    /// The padded width, and its divider.
    pw: u32,
    padded_width: FastDiv,
    /// The pruning rule of `movement`.
    rule: Rule,
}

/// How a search by [`JumpLines::search_within`] or
/// [`JumpLines::resume_within`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Jumped {
    /// A least-cost path.
    Path(Path),
    /// No path: the goal is unreachable.
    Unreachable,
    /// The limit of expansions came first; the search can resume.
    Paused,
}

impl Jumped {
    /// The path found, if any.
    pub(crate) fn into_path(self) -> Option<Path> {
        match self {
            Jumped::Path(path) => Some(path),
            Jumped::Unreachable | Jumped::Paused => None,
        }
    }
}

/// A map's passability as row and column bitsets: the part of a
/// [`JumpLines`] that depends on the map alone, made beside other work where
/// a hierarchy is built or loaded.
#[derive(Debug, Clone)]
pub(crate) struct LineBits {
    rows: BitLines,
    cols: BitLines,
}

impl LineBits {
    /// The bitsets of `grid`'s passability.
    pub(crate) fn of(grid: &Grid) -> LineBits {
        let pw = grid.padded_width();
        let rows = BitLines::rows(grid.passable_slice(), pw);
        LineBits {
            cols: BitLines::transposed(&rows, pw),
            rows,
        }
    }
}

impl JumpLines {
    /// The bitsets of `grid` for a search under `movement`: the errors of
    /// [`Jps::with_movement`].
    pub(crate) fn new(grid: &Grid, movement: Movement) -> Result<JumpLines, JpsError> {
        JumpLines::with_bits(LineBits::of(grid), grid, movement)
    }

    /// [`JumpLines::new`] with `grid`'s bitsets already made.
    pub(crate) fn with_bits(
        bits: LineBits,
        grid: &Grid,
        movement: Movement,
    ) -> Result<JumpLines, JpsError> {
        movement.validate()?;
        if grid.is_weighted() {
            return Err(JpsError::Weighted);
        }
        if rules::diagonal_ties(&movement) && movement.corners == CornerRule::Always {
            return Err(JpsError::DiagonalTies {
                straight: movement.straight,
                diagonal: movement.diagonal,
            });
        }
        let pw = grid.padded_width();
        let LineBits { rows, cols } = bits;
        Ok(JumpLines {
            movement,
            rows,
            cols,
            pw,
            padded_width: FastDiv::new(pw),
            rule: rules::search_rule(&movement),
        })
    }

    /// Bytes held by the bitsets.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.rows.memory_bytes() + self.cols.memory_bytes()
    }

    /// Opens or closes map cell `p` (which must be on the map).
    pub(crate) fn set_passable(&mut self, p: Point, open: bool) {
        let (x, y) = (p.x + 1, p.y + 1);
        self.rows.set(y, x, open);
        self.cols.set(x, y, open);
    }

    /// Begins a search for a least-cost path from `start` to `goal`
    /// (passable cells of the map these lines were made of) and runs it until
    /// `limit` jump points are expanded; the counts are in `cache`'s stats.
    pub(crate) fn search_within(
        &self,
        cache: &mut JpsCache,
        start: Point,
        goal: Point,
        limit: u64,
        guide: Option<&Guide>,
    ) -> Jumped {
        cache.begin();
        self.drive(cache, Some(self.node(start)), self.node(goal), limit, guide)
    }

    /// Resumes the search [`search_within`](Self::search_within) paused
    /// (the same `goal`) until `limit` jump points are expanded in all.
    /// A guided search must resume with the same `guide`.
    pub(crate) fn resume_within(
        &self,
        cache: &mut JpsCache,
        goal: Point,
        limit: u64,
        guide: Option<&Guide>,
    ) -> Jumped {
        self.drive(cache, None, self.node(goal), limit, guide)
    }

    /// The cells of the jump points the last search in `cache` expanded.
    pub(crate) fn expanded<'a>(&self, cache: &'a JpsCache) -> impl Iterator<Item = Point> + 'a {
        let pw = self.pw;
        cache
            .reached
            .slots()
            .iter()
            .filter(|s| s.node & CLOSED != 0)
            .map(move |s| {
                let n = s.node & !CLOSED;
                Point::new(n % pw - 1, n / pw - 1)
            })
    }

    /// The padded cell of map point `p`.
    fn node(&self, p: Point) -> u32 {
        (p.y + 1) * self.pw + p.x + 1
    }

    /// Runs the search in `cache` (from padded cell `start` when given, a
    /// search just begun) under this map's rule until `limit` expansions.
    /// With `guide`, its landmarks sharpen the estimate.
    fn drive(
        &self,
        cache: &mut JpsCache,
        start: Option<u32>,
        goal: u32,
        limit: u64,
        guide: Option<&Guide>,
    ) -> Jumped {
        let run = Run {
            start,
            goal,
            limit,
            guide,
        };
        let ran = match (self.rule, guide.is_some()) {
            (NEVER, false) => self.search::<NEVER, false>(cache, run),
            (NEVER, true) => self.search::<NEVER, true>(cache, run),
            (IF_ONE_FREE, false) => self.search::<IF_ONE_FREE, false>(cache, run),
            (IF_ONE_FREE, true) => self.search::<IF_ONE_FREE, true>(cache, run),
            (ALWAYS, false) => self.search::<ALWAYS, false>(cache, run),
            (ALWAYS, true) => self.search::<ALWAYS, true>(cache, run),
            (_, false) => self.search::<FOUR, false>(cache, run),
            (_, true) => self.search::<FOUR, true>(cache, run),
        };
        match ran {
            Ran::Reached(slot) => Jumped::Path(self.walk(cache, slot)),
            Ran::Exhausted => Jumped::Unreachable,
            Ran::Paused => Jumped::Paused,
        }
    }
}

impl<'g> Jps<'g> {
    /// Jump point search on `grid` under the benchmark rules
    /// ([`Movement::default`]).
    pub fn new(grid: &'g Grid) -> Result<Jps<'g>, JpsError> {
        Jps::with_movement(grid, Movement::default())
    }

    /// Jump point search on `grid` under `movement`, any connectivity and
    /// corner rule: an error for a weighted grid or unusable costs.
    ///
    /// ```
    /// use tierpath::{CornerRule, Grid, Jps, JpsCache, JpsError, Movement, Weight, Point};
    /// let mut grid = Grid::from_ascii("
    ///     ....
    ///     .@..
    ///     ..@.
    ///     ....
    /// ").unwrap();
    /// let mut cache = JpsCache::new();
    /// let loose = Movement { corners: CornerRule::Always, ..Movement::default() };
    /// let (s, t) = (Point::new(0, 0), Point::new(3, 3));
    /// for m in [Movement::FOUR, Movement::default(), loose] {
    ///     let path = Jps::with_movement(&grid, m).unwrap()
    ///         .find_path(&mut cache, s, t).unwrap().path.unwrap();
    ///     path.validate(&grid, &m).unwrap();
    /// }
    /// grid.set_weight(Point::new(3, 3), Weight(250)).unwrap();
    /// assert_eq!(Jps::new(&grid).unwrap_err(), JpsError::Weighted);
    /// ```
    pub fn with_movement(grid: &'g Grid, movement: Movement) -> Result<Jps<'g>, JpsError> {
        Ok(Jps {
            grid,
            lines: JumpLines::new(grid, movement)?,
        })
    }

    /// The grid searched.
    pub fn grid(&self) -> &'g Grid {
        self.grid
    }

    /// The movement rule searched.
    pub fn movement_rules(&self) -> &Movement {
        &self.lines.movement
    }

    /// Bytes held by the bitsets (the scratch is in the [`JpsCache`]).
    pub fn memory_bytes(&self) -> usize {
        self.lines.memory_bytes()
    }

    /// Finds a least-cost path from `start` to `goal`: `Ok` with `path: None`
    /// when the goal is unreachable, `Err` for an endpoint off the map or on a
    /// blocked cell. The stats count jump points: `expanded` taken off the
    /// open list, `generated` put on it.
    pub fn find_path(
        &self,
        cache: &mut JpsCache,
        start: Point,
        goal: Point,
    ) -> Result<SearchOutcome, QueryError> {
        check_endpoint(self.grid, start, "start")?;
        check_endpoint(self.grid, goal, "goal")?;
        let path = self
            .lines
            .search_within(cache, start, goal, u64::MAX, None)
            .into_path();
        Ok(SearchOutcome {
            path,
            stats: cache.stats,
            partial: false,
            out_of_budget: false,
        })
    }
}

/// One call of the search: from padded cell `start` when given (a search
/// just begun), to padded cell `goal`, until `limit` jump points are
/// expanded, guided by `guide`'s landmarks when given.
#[derive(Clone, Copy)]
struct Run<'a> {
    start: Option<u32>,
    goal: u32,
    limit: u64,
    guide: Option<&'a Guide>,
}

impl JumpLines {
    /// Runs `run` under rule `R`, guided when `G` (and `run.guide` is
    /// given).
    fn search<const R: Rule, const G: bool>(&self, cache: &mut JpsCache, run: Run) -> Ran {
        let Run {
            start,
            goal,
            limit,
            guide,
        } = run;
        let pw = self.pw;
        let unit = Weight::ONE.0 as u64;
        let straight = self.movement.straight as u64 * unit;
        let diagonal = match self.movement.connectivity {
            Connectivity::Eight => self.movement.diagonal as u64 * unit,
            Connectivity::Four => 2 * straight,
        };
        let mut goal_guide = [guide::UNREACHED; guide::MAX_GUIDE_LANDMARKS];
        if let Some(g) = guide {
            goal_guide[..g.count()].copy_from_slice(g.of(goal));
        }
        let mut search = Search::<R, G> {
            lines: self,
            cache,
            goal,
            goal_x: goal % pw,
            goal_y: goal / pw,
            straight,
            diagonal,
            guide,
            goal_guide,
            unit,
        };
        if let Some(start) = start {
            search.start(start);
        }
        search.resume(limit)
    }

    /// The path to the node of slot `end`: its jump points from the parent
    /// links, each edge walked out cell by cell (8-connected, diagonal steps
    /// first, then straight ones; 4-connected, horizontal steps first, then
    /// vertical ones).
    fn walk(&self, cache: &JpsCache, end: u32) -> Path {
        let mut jumps = Vec::new();
        let mut slot = end;
        while slot != NO_PARENT {
            let s = cache.reached.slot(slot);
            jumps.push(s.node & !CLOSED);
            slot = s.parent;
        }
        let pw = self.pw;
        let point = |n: u32| Point::new(n % pw - 1, n / pw - 1);
        let first = point(*jumps.last().expect("at least the end"));
        let mut cells = vec![first];
        for pair in jumps.windows(2).rev() {
            let to = point(pair[0]);
            let mut at = *cells.last().expect("non-empty");
            // Diagonally while both coordinates differ, then straight;
            // 4-connected, horizontally, then vertically.
            let toward = |a: u32, b: u32| a.wrapping_add_signed(b.cmp(&a) as i32);
            while at != to {
                at = if self.rule == FOUR && at.x != to.x {
                    Point::new(toward(at.x, to.x), at.y)
                } else {
                    Point::new(toward(at.x, to.x), toward(at.y, to.y))
                };
                cells.push(at);
            }
        }
        Path {
            cells,
            cost: Cost(cache.reached.slot(end).g),
        }
    }
}

/// Reusable scratch for [`Jps`]: the nodes a search reached (cost, parent,
/// open or closed) and its open list. One per thread, passed to every search.
///
/// The reached nodes are a dense list indexed by a small hash table sized to
/// them, neither cleared between searches (see `reached.rs`): a search costs
/// nothing proportional to the map's size, allocates nothing per node once
/// warm, and keeps its per-node records in cache however large the map.
#[derive(Debug, Clone, Default)]
pub struct JpsCache {
    reached: Reached,
    open: OpenList,
    stats: SearchStats,
}

impl JpsCache {
    /// An empty cache; it sizes itself on first use.
    pub fn new() -> JpsCache {
        JpsCache::default()
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.reached.memory_bytes() + self.open.capacity() * std::mem::size_of::<Entry>()
    }

    /// What the last search counted.
    pub(crate) fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Starts a search.
    fn begin(&mut self) {
        self.reached.clear();
        self.open.clear();
        self.stats = SearchStats::default();
    }
}
