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
//! Supported rules: 8-connected with [`CornerRule::Never`] (any straight and
//! diagonal costs [`Movement::validate`] accepts). Other rules are refused
//! with [`JpsError::UnsupportedRule`], weighted maps with
//! [`JpsError::Weighted`].

mod bits;
mod reached;

use super::{Path, QueryError, SearchOutcome, SearchStats, check_endpoint};
use crate::engine::heap::{Entry, OpenList, tie_g};
use crate::grid::{
    Connectivity, CornerRule, Cost, FastDiv, Grid, GridError, Movement, Point, Weight,
};
use bits::BitLines;
use reached::{CLOSED, Lookup, NO_PARENT, Reached, Slot};
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
    /// A movement rule jump point search has no pruning rule for here.
    #[error(
        "jump point search supports 8-connected moves without corner cutting (CornerRule::Never), not {connectivity:?} with {corners:?}; use AStar for this rule"
    )]
    UnsupportedRule {
        /// The rule's connectivity.
        connectivity: Connectivity,
        /// The rule's corner rule.
        corners: CornerRule,
    },
    /// Unusable movement costs.
    #[error(transparent)]
    Movement(#[from] GridError),
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
    movement: Movement,
    /// Padded rows: bit `x` of line `y`.
    rows: BitLines,
    /// Padded columns: bit `y` of line `x`.
    cols: BitLines,
    padded_width: FastDiv,
}

impl<'g> Jps<'g> {
    /// Jump point search on `grid` under the benchmark rules
    /// ([`Movement::default`]).
    pub fn new(grid: &'g Grid) -> Result<Jps<'g>, JpsError> {
        Jps::with_movement(grid, Movement::default())
    }

    /// Jump point search on `grid` under `movement`: an error for a weighted
    /// grid or a rule other than 8-connected without corner cutting.
    ///
    /// ```
    /// use tierpath::{Grid, Jps, JpsError, Movement, Weight, Point};
    /// let mut grid = Grid::new(8, 8).unwrap();
    /// assert!(matches!(
    ///     Jps::with_movement(&grid, Movement::FOUR),
    ///     Err(JpsError::UnsupportedRule { .. })
    /// ));
    /// grid.set_weight(Point::new(3, 3), Weight(250)).unwrap();
    /// assert_eq!(Jps::new(&grid).unwrap_err(), JpsError::Weighted);
    /// ```
    pub fn with_movement(grid: &'g Grid, movement: Movement) -> Result<Jps<'g>, JpsError> {
        movement.validate()?;
        if movement.connectivity != Connectivity::Eight || movement.corners != CornerRule::Never {
            return Err(JpsError::UnsupportedRule {
                connectivity: movement.connectivity,
                corners: movement.corners,
            });
        }
        if grid.is_weighted() {
            return Err(JpsError::Weighted);
        }
        let pw = grid.padded_width();
        let ph = grid.height() + 2;
        let open = grid.passable_slice();
        let at = |x: u32, y: u32| open[(y * pw + x) as usize];
        Ok(Jps {
            grid,
            movement,
            rows: BitLines::new(ph, pw, |y, x| at(x, y)),
            cols: BitLines::new(pw, ph, at),
            padded_width: FastDiv::new(pw),
        })
    }

    /// The grid searched.
    pub fn grid(&self) -> &'g Grid {
        self.grid
    }

    /// The movement rule searched.
    pub fn movement_rules(&self) -> &Movement {
        &self.movement
    }

    /// Bytes held by the bitsets (the scratch is in the [`JpsCache`]).
    pub fn memory_bytes(&self) -> usize {
        self.rows.memory_bytes() + self.cols.memory_bytes()
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
        let s = check_endpoint(self.grid, start, "start")?;
        let t = check_endpoint(self.grid, goal, "goal")?;
        cache.begin();
        let pw = self.grid.padded_width();
        let mut search = Search {
            jps: self,
            cache,
            goal: t.0,
            goal_x: t.0 % pw,
            goal_y: t.0 / pw,
            straight: self.movement.straight as u64 * Weight::ONE.0 as u64,
            diagonal: self.movement.diagonal as u64 * Weight::ONE.0 as u64,
        };
        let found = search.run(s.0);
        let stats = cache.stats;
        let path = found.map(|slot| self.walk(cache, slot));
        Ok(SearchOutcome {
            path,
            stats,
            partial: false,
            out_of_budget: false,
        })
    }

    /// The path to the node of slot `end`: its jump points from the parent
    /// links, each edge walked out cell by cell (diagonal steps first, then
    /// straight ones).
    fn walk(&self, cache: &JpsCache, end: u32) -> Path {
        let mut jumps = Vec::new();
        let mut slot = end;
        while slot != NO_PARENT {
            let s = cache.reached.slot(slot);
            jumps.push(s.node & !CLOSED);
            slot = s.parent;
        }
        let pw = self.grid.padded_width();
        let point = |n: u32| Point::new(n % pw - 1, n / pw - 1);
        let first = point(*jumps.last().expect("at least the end"));
        let mut cells = vec![first];
        for pair in jumps.windows(2).rev() {
            let to = point(pair[0]);
            let mut at = *cells.last().expect("non-empty");
            // Diagonally while both coordinates differ, then straight.
            while at != to {
                let toward = |a: u32, b: u32| a.wrapping_add_signed(b.cmp(&a) as i32);
                at = Point::new(toward(at.x, to.x), toward(at.y, to.y));
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

    /// Starts a search.
    fn begin(&mut self) {
        self.reached.clear();
        self.open.clear();
        self.stats = SearchStats::default();
    }
}

/// Direction codes as in the grid: N, E, S, W, NE, SE, SW, NW; bit `d` of a
/// neighbourhood or successor set is direction `d`.
const N: u8 = 1;
const E: u8 = 1 << 1;
const S: u8 = 1 << 2;
const W: u8 = 1 << 3;
const NE: u8 = 1 << 4;
const SE: u8 = 1 << 5;
const SW: u8 = 1 << 6;
const NW: u8 = 1 << 7;

/// Index of the successor table for a start node (no direction of arrival).
const FROM_START: usize = 8;

/// The directions a canonical path may take next, by direction of arrival
/// (0..8, or [`FROM_START`]) and passable neighbours: `SUCCESSORS[dir][nb]`.
/// Without corner cutting:
///
/// * arriving straight, go on ahead; turn to a side only where the cell
///   behind that side is blocked (else the side was reached more cheaply
///   past the corner), and then also diagonally forward to that side;
/// * arriving diagonally, go on diagonally, or straight along either of its
///   two components (no turn is ever forced);
/// * from the start, every legal move.
static SUCCESSORS: [[u8; 256]; 9] = successor_table();

/// Whether every direction of `dirs` is passable in neighbourhood `nb`.
const fn free(nb: usize, dirs: u8) -> bool {
    nb as u8 & dirs == dirs
}

const fn successor_table() -> [[u8; 256]; 9] {
    // Straight directions: (ahead, left, back-left, ahead-left, right,
    // back-right, ahead-right).
    const STRAIGHT: [[u8; 7]; 4] = [
        [N, W, SW, NW, E, SE, NE],
        [E, N, NW, NE, S, SW, SE],
        [S, E, NE, SE, W, NW, SW],
        [W, S, SE, SW, N, NE, NW],
    ];
    // Diagonal directions: (diagonal, its two straight components).
    const DIAGONAL: [[u8; 3]; 4] = [[NE, N, E], [SE, S, E], [SW, S, W], [NW, N, W]];
    let mut table = [[0u8; 256]; 9];
    let mut nb = 0;
    while nb < 256 {
        let mut i = 0;
        while i < 4 {
            let [f, l, bl, fl, r, br, fr] = STRAIGHT[i];
            let mut out = 0;
            if free(nb, f) {
                out |= f;
            }
            if free(nb, l) && !free(nb, bl) {
                out |= l;
                if free(nb, f | fl) {
                    out |= fl;
                }
            }
            if free(nb, r) && !free(nb, br) {
                out |= r;
                if free(nb, f | fr) {
                    out |= fr;
                }
            }
            table[i][nb] = out;
            let [d, a, b] = DIAGONAL[i];
            let legal = if free(nb, d | a | b) { d } else { 0 };
            let straight = nb as u8 & (a | b);
            table[4 + i][nb] = legal | straight;
            table[FROM_START][nb] |= (nb as u8 & f) | legal;
            i += 1;
        }
        nb += 1;
    }
    table
}

/// One query in progress: the engine, its scratch and the goal.
struct Search<'a, 'g> {
    jps: &'a Jps<'g>,
    cache: &'a mut JpsCache,
    goal: u32,
    goal_x: u32,
    goal_y: u32,
    straight: u64,
    diagonal: u64,
}

impl Search<'_, '_> {
    /// The octile distance from padded cell `(x, y)` to the goal.
    #[inline(always)]
    fn h(&self, x: u32, y: u32) -> u64 {
        let (dx, dy) = (
            x.abs_diff(self.goal_x) as u64,
            y.abs_diff(self.goal_y) as u64,
        );
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        self.diagonal * lo + self.straight * (hi - lo)
    }

    /// Offers padded cell `(x, y)` with cost `g` from slot `parent`.
    #[inline(always)]
    fn reach(&mut self, x: u32, y: u32, g: u64, parent: u32) {
        let n = y * self.jps.grid.padded_width() + x;
        let f = g + self.h(x, y);
        let cache = &mut *self.cache;
        let slot = match cache.reached.find(n) {
            Lookup::Found(known) => {
                let slot = cache.reached.slot_mut(known);
                // Closed nodes are final: the octile estimate is consistent.
                if slot.node & CLOSED != 0 || slot.g <= g {
                    return;
                }
                slot.g = g;
                slot.parent = parent;
                known
            }
            Lookup::Vacant(at) => cache.reached.insert(at, Slot { g, node: n, parent }),
        };
        cache.open.push(Entry {
            f,
            tie: u32::MAX - tie_g(g),
            node: slot,
        });
        cache.stats.generated += 1;
    }

    /// Runs A* over jump points from padded node `start`; the goal's slot
    /// when it was reached.
    fn run(&mut self, start: u32) -> Option<u32> {
        let (sy, sx) = self.jps.padded_width.div_rem(start);
        self.reach(sx, sy, 0, NO_PARENT);
        while let Some(e) = self.cache.open.pop() {
            let slot = self.cache.reached.slot_mut(e.node);
            if slot.node & CLOSED != 0 {
                continue; // a stale entry: the node was expanded at a lower G
            }
            slot.node |= CLOSED;
            let (node, g, parent) = (slot.node & !CLOSED, slot.g, slot.parent);
            self.cache.stats.expanded += 1;
            if node == self.goal {
                return Some(e.node);
            }
            let (y, x) = self.jps.padded_width.div_rem(node);
            let dir = if parent == NO_PARENT {
                FROM_START
            } else {
                let from = self.cache.reached.slot(parent).node & !CLOSED;
                let (py, px) = self.jps.padded_width.div_rem(from);
                arrival(x as i64 - px as i64, y as i64 - py as i64)
            };
            let succ = SUCCESSORS[dir][self.neighbours(x, y) as usize];
            self.expand(x, y, g, e.node, succ);
        }
        None
    }

    /// The passable neighbours of padded cell `(x, y)` as direction bits.
    #[inline(always)]
    fn neighbours(&self, x: u32, y: u32) -> u8 {
        let rows = &self.jps.rows;
        // Bits 0, 1, 2: columns x - 1, x, x + 1.
        let above = rows.ahead(y - 1, x - 1);
        let own = rows.ahead(y, x - 1);
        let below = rows.ahead(y + 1, x - 1);
        let bit = |w: u64, k: u32, d: u8| if w >> k & 1 != 0 { d } else { 0 };
        bit(above, 1, N)
            | bit(own, 2, E)
            | bit(below, 1, S)
            | bit(own, 0, W)
            | bit(above, 2, NE)
            | bit(below, 2, SE)
            | bit(below, 0, SW)
            | bit(above, 0, NW)
    }

    /// Jumps from `(x, y)` (cost `g`) in every direction of `succ`, offering
    /// what the jumps find as children of the node in slot `node`.
    #[inline(always)]
    fn expand(&mut self, x: u32, y: u32, g: u64, node: u32, succ: u8) {
        if succ & N != 0 {
            self.straight::<true, false>(x, y, g, node);
        }
        if succ & E != 0 {
            self.straight::<false, true>(y, x, g, node);
        }
        if succ & S != 0 {
            self.straight::<true, true>(x, y, g, node);
        }
        if succ & W != 0 {
            self.straight::<false, false>(y, x, g, node);
        }
        if succ & NE != 0 {
            self.diagonal::<true, false>(x, y, g, node);
        }
        if succ & SE != 0 {
            self.diagonal::<true, true>(x, y, g, node);
        }
        if succ & SW != 0 {
            self.diagonal::<false, true>(x, y, g, node);
        }
        if succ & NW != 0 {
            self.diagonal::<false, false>(x, y, g, node);
        }
    }

    /// Jumps from position `pos` of a line: row `line` (padded `y`), or
    /// column `line` when `VERTICAL`, towards higher positions when `UP`.
    /// The next cell that way is passable.
    #[inline(always)]
    fn straight<const VERTICAL: bool, const UP: bool>(
        &mut self,
        line: u32,
        pos: u32,
        g: u64,
        parent: u32,
    ) {
        let bits = if VERTICAL {
            &self.jps.cols
        } else {
            &self.jps.rows
        };
        let (stop, forced) = if UP {
            bits.jump_up(line, pos)
        } else {
            bits.jump_down(line, pos)
        };
        let (goal_line, goal_pos) = if VERTICAL {
            (self.goal_x, self.goal_y)
        } else {
            (self.goal_y, self.goal_x)
        };
        let passes_goal = line == goal_line
            && if UP {
                pos < goal_pos && goal_pos <= stop
            } else {
                stop <= goal_pos && goal_pos < pos
            };
        let end = match (passes_goal, forced) {
            (true, _) => goal_pos,
            (false, true) => stop,
            (false, false) => return,
        };
        let g = g + self.straight * pos.abs_diff(end) as u64;
        if VERTICAL {
            self.reach(line, end, g, parent);
        } else {
            self.reach(end, line, g, parent);
        }
    }

    /// Steps diagonally (east when `EAST`, south when `SOUTH`) from `(x, y)`,
    /// whose next diagonal move is legal, jumping straight along both
    /// components from every cell passed; stops at the goal or where the
    /// diagonal move is no longer legal.
    #[inline(always)]
    fn diagonal<const EAST: bool, const SOUTH: bool>(
        &mut self,
        mut x: u32,
        mut y: u32,
        mut g: u64,
        parent: u32,
    ) {
        let step = |v: u32, up: bool| if up { v + 1 } else { v - 1 };
        loop {
            x = step(x, EAST);
            y = step(y, SOUTH);
            g += self.diagonal;
            if x == self.goal_x && y == self.goal_y {
                self.reach(x, y, g, parent);
                return;
            }
            let ahead_x = self.jps.rows.get(y, step(x, EAST));
            let ahead_y = self.jps.cols.get(x, step(y, SOUTH));
            if ahead_x {
                self.straight::<false, EAST>(y, x, g, parent);
            }
            if ahead_y {
                self.straight::<true, SOUTH>(x, y, g, parent);
            }
            if !(ahead_x && ahead_y && self.jps.rows.get(step(y, SOUTH), step(x, EAST))) {
                return;
            }
        }
    }
}

/// The direction of arrival at a node from its parent `(dx, dy)` away: an
/// edge is diagonal steps then straight ones, so the last move is along the
/// longer component, or diagonal when both are equal.
#[inline(always)]
fn arrival(dx: i64, dy: i64) -> usize {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax > ay {
        if dx > 0 { 1 } else { 3 }
    } else if ay > ax {
        if dy > 0 { 2 } else { 0 }
    } else {
        match (dx > 0, dy > 0) {
            (true, false) => 4,
            (true, true) => 5,
            (false, true) => 6,
            (false, false) => 7,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AStar, SearchCache};

    /// Every pair of passable cells: JPS and A* agree on the cost, and JPS's
    /// path is valid.
    fn agrees_with_astar(grid: &Grid) {
        let jps = Jps::new(grid).unwrap();
        let astar = AStar::new(grid);
        let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
        let cells: Vec<Point> = grid.passable_points().collect();
        for &s in &cells {
            for &t in &cells {
                let a = astar.find_path(&mut ac, s, t).unwrap().path;
                let j = jps.find_path(&mut jc, s, t).unwrap().path;
                assert_eq!(
                    j.as_ref().map(|p| p.cost),
                    a.map(|p| p.cost),
                    "{s} -> {t} on\n{}",
                    grid.to_ascii()
                );
                if let Some(p) = j {
                    p.validate(grid, &Movement::default()).unwrap();
                    assert_eq!((p.start(), p.goal()), (Some(s), Some(t)));
                }
            }
        }
    }

    #[test]
    fn small_maps_every_pair() {
        for text in [
            "
            .....
            .@@@.
            .....
            ",
            "
            ..........
            .@@@@@@@..
            .......@..
            .@@@@..@..
            ....@.....
            ",
            "
            ..@...@...
            ..@.@.@.@.
            ....@...@.
            @@@@@@@.@@
            ..........
            ",
            "
            .@.
            @.@
            .@.
            ",
        ] {
            agrees_with_astar(&Grid::from_ascii(text).unwrap());
        }
    }

    #[test]
    fn long_jumps_cross_words() {
        // A 200-wide map: straight jumps span several 64-bit words, and
        // forced cells sit on both sides of word boundaries.
        let grid = Grid::from_fn(200, 9, |p| {
            !((p.y == 2 && p.x % 63 != 5) || (p.y == 6 && p.x % 61 == 7) || (p.x == 130 && p.y < 8))
        })
        .unwrap();
        let jps = Jps::new(&grid).unwrap();
        let astar = AStar::new(&grid);
        let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
        for (s, t) in [
            ((0, 0), (199, 0)),
            ((199, 8), (0, 0)),
            ((3, 4), (197, 1)),
            ((0, 8), (199, 3)),
        ] {
            let (s, t) = (Point::new(s.0, s.1), Point::new(t.0, t.1));
            let a = astar.find_path(&mut ac, s, t).unwrap();
            let j = jps.find_path(&mut jc, s, t).unwrap();
            let p = j.path.unwrap();
            p.validate(&grid, &Movement::default()).unwrap();
            assert_eq!(p.cost, a.path.unwrap().cost, "{s} -> {t}");
            assert!(j.stats.expanded < a.stats.expanded, "{s} -> {t}");
        }
    }

    #[test]
    fn unreachable_and_trivial_queries() {
        let grid = Grid::from_ascii(
            "
            ..@..
            ..@..
            ..@..
            ",
        )
        .unwrap();
        let jps = Jps::new(&grid).unwrap();
        let mut cache = JpsCache::new();
        let out = jps
            .find_path(&mut cache, Point::new(0, 0), Point::new(4, 2))
            .unwrap();
        assert_eq!(out.path, None);
        assert!(out.stats.expanded > 0);
        let here = jps
            .find_path(&mut cache, Point::new(1, 1), Point::new(1, 1))
            .unwrap();
        assert_eq!(here.path.unwrap().cells, vec![Point::new(1, 1)]);
        assert!(matches!(
            jps.find_path(&mut cache, Point::new(2, 0), Point::new(0, 0)),
            Err(QueryError::Blocked { role: "start", .. })
        ));
        assert!(matches!(
            jps.find_path(&mut cache, Point::new(0, 0), Point::new(5, 0)),
            Err(QueryError::OffMap { role: "goal", .. })
        ));
    }

    #[test]
    fn rules_it_cannot_prune_are_refused() {
        let grid = Grid::new(6, 6).unwrap();
        for m in Movement::every_rule() {
            let supported = m.diagonals() && m.corners == CornerRule::Never;
            match Jps::with_movement(&grid, m) {
                Ok(_) => assert!(supported, "{m:?}"),
                Err(e) => {
                    assert!(!supported, "{m:?}");
                    assert_eq!(
                        e,
                        JpsError::UnsupportedRule {
                            connectivity: m.connectivity,
                            corners: m.corners
                        }
                    );
                }
            }
        }
        let bad = Movement {
            diagonal: 5,
            ..Movement::default()
        };
        assert!(matches!(
            Jps::with_movement(&grid, bad),
            Err(JpsError::Movement(_))
        ));
    }

    #[test]
    fn ten_fourteen_costs() {
        let grid = Grid::from_fn(40, 30, |p| {
            (p.x != 20 || p.y <= 3) && (p.y != 10 || p.x >= 15)
        })
        .unwrap();
        let m = Movement::TEN_FOURTEEN;
        let jps = Jps::with_movement(&grid, m).unwrap();
        let astar = AStar::new(&grid).movement(m);
        let (mut jc, mut ac) = (JpsCache::new(), SearchCache::new());
        for (s, t) in [((0, 29), (39, 29)), ((5, 0), (5, 20)), ((39, 0), (0, 29))] {
            let (s, t) = (Point::new(s.0, s.1), Point::new(t.0, t.1));
            let p = jps.find_path(&mut jc, s, t).unwrap().path.unwrap();
            p.validate(&grid, &m).unwrap();
            assert_eq!(
                p.cost,
                astar.find_path(&mut ac, s, t).unwrap().path.unwrap().cost
            );
        }
    }
}
