//! The grid model: a `width x height` map of passable or blocked cells with
//! optional terrain weights, and the movement rules that search it.
//!
//! # Layout
//!
//! Cells are stored padded: one blocked cell of margin on every side, so every
//! real cell has eight in-bounds neighbours and neighbour loops need no bounds
//! checks (the Warthog layout). The padding is invisible from the public API,
//! which speaks [`Point`] and [`CellIndex`].

mod clearance;
mod cost;
mod direction;
mod error;
mod fast_div;
mod movement;
mod pack;
mod point;

pub use clearance::Clearance;
pub(crate) use clearance::clearance_values;
pub use cost::{Cost, Weight};
pub(crate) use direction::{DIRECTIONS, direction_code, opposite_direction};
pub use error::GridError;
pub(crate) use fast_div::FastDiv;
pub use movement::{Connectivity, CornerRule, Movement};
pub(crate) use pack::pack64;
pub(crate) use point::Node;
pub use point::{CellIndex, Point};

use crate::checksum::WordHasher;

/// The largest width or height a map may have.
pub const MAX_SIDE: u32 = 65_535;
/// The largest number of cells a map may have (2^28, about 268 million: a
/// 16,384 x 16,384 map), so that padded indices and search scratch stay bounded.
pub const MAX_CELLS: u64 = 1 << 28;

/// A grid map: passable and blocked cells, plus an optional terrain weight per
/// cell (the cost multiplier of entering it; see [`Weight`]).
///
/// ```
/// use tierpath::{Grid, Point};
/// let grid = Grid::from_ascii("
///     ....
///     .@@.
///     ....
/// ").unwrap();
/// assert_eq!((grid.width(), grid.height()), (4, 3));
/// assert!(!grid.is_passable(Point::new(1, 1)));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    width: u32,
    /// Division by `width` with one multiplication ([`Grid::point_of`]).
    by_width: FastDiv,
    height: u32,
    /// Padded passability, `(width + 2) * (height + 2)` entries.
    passable: Vec<bool>,
    /// Padded terrain weights, or `None` when every cell weighs `Weight::ONE`.
    weights: Option<Vec<u16>>,
    /// How many entries of `weights` differ from `Weight::ONE`; the table is
    /// dropped when this returns to zero, so "weighted" means what it says.
    heavy: u32,
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grid")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("passable_cells", &self.passable_count())
            .field("weighted", &self.weights.is_some())
            .finish()
    }
}

impl Grid {
    /// A `width x height` map with every cell passable.
    pub fn new(width: u32, height: u32) -> Result<Grid, GridError> {
        Self::check_size(width as u64, height as u64)?;
        let pw = width as usize + 2;
        let ph = height as usize + 2;
        let mut passable = vec![false; pw * ph];
        for y in 1..=height as usize {
            passable[y * pw + 1..y * pw + 1 + width as usize].fill(true);
        }
        Ok(Grid {
            width,
            by_width: FastDiv::new(width),
            height,
            passable,
            weights: None,
            heavy: 0,
        })
    }

    /// A map whose passable cells are those for which `f` returns true.
    pub fn from_fn(
        width: u32,
        height: u32,
        mut f: impl FnMut(Point) -> bool,
    ) -> Result<Grid, GridError> {
        let mut g = Grid::new(width, height)?;
        for y in 0..height {
            for x in 0..width {
                let p = Point::new(x, y);
                let n = g.node(p);
                g.passable[n.index()] = f(p);
            }
        }
        Ok(g)
    }

    /// Parses a quick ASCII picture: `.` `G` `S` are passable, `@` `#` `O` `T` `W`
    /// blocked. Leading and trailing blank lines and indentation are ignored,
    /// which suits tests and doc examples. For files, see [`crate::io`].
    pub fn from_ascii(text: &str) -> Result<Grid, GridError> {
        let rows: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |(_, r)| r.chars().count());
        Self::check_size(width as u64, height as u64)?;
        let mut g = Grid::new(width as u32, height as u32)?;
        for (y, (line, row)) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != width {
                return Err(GridError::RaggedRow {
                    line: *line,
                    found,
                    expected: width,
                });
            }
            for (x, ch) in row.chars().enumerate() {
                let passable = match ch {
                    '.' | 'G' | 'S' => true,
                    '@' | '#' | 'O' | 'T' | 'W' => false,
                    _ => {
                        return Err(GridError::BadChar {
                            line: *line,
                            column: x + 1,
                            ch,
                        });
                    }
                };
                let n = g.node(Point::new(x as u32, y as u32));
                g.passable[n.index()] = passable;
            }
        }
        Ok(g)
    }

    fn check_size(width: u64, height: u64) -> Result<(), GridError> {
        if width == 0 || height == 0 {
            return Err(GridError::Empty {
                width: width.min(u32::MAX as u64) as u32,
                height: height.min(u32::MAX as u64) as u32,
            });
        }
        if width > MAX_SIDE as u64 || height > MAX_SIDE as u64 || width * height > MAX_CELLS {
            return Err(GridError::TooLarge { width, height });
        }
        Ok(())
    }

    /// Number of columns.
    #[inline]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Number of rows.
    #[inline]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells, `width * height`.
    #[inline]
    pub fn len(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Always false: a grid has at least one cell.
    #[inline]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Whether `p` lies on the map.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// `Ok(())` when `p` lies on the map, else [`GridError::OutOfBounds`].
    pub fn check(&self, p: Point) -> Result<(), GridError> {
        if self.contains(p) {
            Ok(())
        } else {
            Err(GridError::OutOfBounds {
                point: p,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// Whether `p` is on the map and passable.
    #[inline]
    pub fn is_passable(&self, p: Point) -> bool {
        self.contains(p) && self.passable[self.node(p).index()]
    }

    /// Makes `p` passable or blocked.
    pub fn set_passable(&mut self, p: Point, passable: bool) -> Result<(), GridError> {
        self.check(p)?;
        let n = self.node(p);
        self.passable[n.index()] = passable;
        Ok(())
    }

    /// The terrain weight of `p` (`Weight::ONE` off the map or on an unweighted map).
    #[inline]
    pub fn weight(&self, p: Point) -> Weight {
        match &self.weights {
            Some(w) if self.contains(p) => Weight(w[self.node(p).index()]),
            _ => Weight::ONE,
        }
    }

    /// The cost of the single move from `a` to its neighbour `b` under
    /// `movement`: the move's base cost (diagonal or straight) times the
    /// weight of the cell entered. Legality is not checked.
    #[inline]
    pub(crate) fn step_cost(&self, movement: &Movement, a: Point, b: Point) -> u64 {
        let base = if a.x != b.x && a.y != b.y {
            movement.diagonal
        } else {
            movement.straight
        };
        base as u64 * self.weight(b).0 as u64
    }

    /// Sets the terrain weight of `p`. The first weight other than one makes the
    /// map weighted (searches then read a weight per move).
    pub fn set_weight(&mut self, p: Point, weight: Weight) -> Result<(), GridError> {
        self.check(p)?;
        let n = self.node(p);
        if self.weights.is_none() {
            if weight == Weight::ONE {
                return Ok(());
            }
            self.weights = Some(vec![Weight::ONE.0; self.passable.len()]);
        }
        if let Some(w) = self.weights.as_mut() {
            let old = std::mem::replace(&mut w[n.index()], weight.0);
            match (old == Weight::ONE.0, weight == Weight::ONE) {
                (true, false) => self.heavy += 1,
                (false, true) => self.heavy -= 1,
                _ => {}
            }
        }
        if self.heavy == 0 {
            self.weights = None;
        }
        Ok(())
    }

    /// Whether any cell has a weight other than one.
    #[inline]
    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    /// The smallest weight of any passable cell (`Weight::ONE` when unweighted):
    /// heuristics scale by it to stay admissible.
    pub fn min_weight(&self) -> Weight {
        match &self.weights {
            None => Weight::ONE,
            Some(w) => w
                .iter()
                .zip(&self.passable)
                .filter(|(_, p)| **p)
                .map(|(w, _)| Weight(*w))
                .min()
                .unwrap_or(Weight::ONE),
        }
    }

    /// Number of passable cells.
    pub fn passable_count(&self) -> usize {
        self.passable.iter().filter(|p| **p).count()
    }

    /// Every passable point, row by row.
    pub fn passable_points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height)
            .flat_map(move |y| (0..self.width).map(move |x| Point::new(x, y)))
            .filter(move |p| self.is_passable(*p))
    }

    /// The row-major index of `p` (which must be on the map).
    #[inline]
    pub fn cell_index(&self, p: Point) -> CellIndex {
        debug_assert!(self.contains(p));
        CellIndex(p.y * self.width + p.x)
    }

    /// The point of a row-major index.
    #[inline]
    pub fn point_of(&self, c: CellIndex) -> Point {
        let (y, x) = self.by_width.div_rem(c.0);
        Point::new(x, y)
    }

    /// A 64-bit fingerprint of size, passability and weights: a saved
    /// hierarchy records it so it is never used with another map.
    pub fn fingerprint(&self) -> u64 {
        let mut h = WordHasher::new();
        h.write_u64(((self.width as u64) << 32) | self.height as u64);
        // The padded arrays include the (always blocked) margin; hashing them
        // whole is both exact and fast.
        for chunk in self.passable.chunks(64) {
            h.write_u64(pack64(chunk));
        }
        // Weights count only where they can be paid: on passable cells, and
        // only when one of those differs from one, so two grids that search
        // alike share a fingerprint whatever their history of edits.
        if let Some(w) = &self.weights {
            let passable_weights = || w.iter().zip(&self.passable).filter(|(_, p)| **p);
            if passable_weights().any(|(wt, _)| *wt != Weight::ONE.0) {
                for (wt, p) in w.iter().zip(&self.passable) {
                    h.write(&(if *p { *wt } else { 0 }).to_le_bytes());
                }
            }
        }
        h.finish()
    }

    /// A copy of the rectangle `x0..=x1, y0..=y1` (inclusive, on the map) as a
    /// grid of its own, weights included. Searches on the copy cannot leave the
    /// rectangle: its padding is the rectangle's edge.
    pub(crate) fn window(&self, x0: u32, y0: u32, x1: u32, y1: u32) -> Grid {
        let mut out =
            Grid::new(x1 - x0 + 1, y1 - y0 + 1).expect("a window of a valid grid is valid");
        self.window_into(x0, y0, x1, y1, &mut out);
        out
    }

    /// [`window`](Self::window) written into `out`, whose memory is reused
    /// (a query copies its endpoints' clusters this way without allocating
    /// once its scratch has grown).
    pub(crate) fn window_into(&self, x0: u32, y0: u32, x1: u32, y1: u32, out: &mut Grid) {
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
        if out.width != w {
            out.by_width = FastDiv::new(w);
        }
        (out.width, out.height) = (w, h);
        let (spw, dpw) = (self.padded_width() as usize, w as usize + 2);
        let len = dpw * (h as usize + 2);
        out.passable.clear();
        out.passable.resize(len, false);
        match &self.weights {
            None => out.weights = None,
            Some(_) => {
                let ow = out.weights.get_or_insert_with(Vec::new);
                ow.clear();
                ow.resize(len, Weight::ONE.0);
            }
        }
        for y in 0..h as usize {
            let src = (y0 as usize + y + 1) * spw + x0 as usize + 1;
            let dst = (y + 1) * dpw + 1;
            out.passable[dst..dst + w as usize]
                .copy_from_slice(&self.passable[src..src + w as usize]);
            if let (Some(weights), Some(ow)) = (&self.weights, &mut out.weights) {
                ow[dst..dst + w as usize].copy_from_slice(&weights[src..src + w as usize]);
            }
        }
        out.heavy = 0;
        if let Some(ow) = &out.weights {
            out.heavy = ow.iter().filter(|w| **w != Weight::ONE.0).count() as u32;
            if out.heavy == 0 {
                out.weights = None;
            }
        }
    }

    /// The movement whose connectivity equals `movement`'s for islands and
    /// articulation cells: with corner cutting forbidden a diagonal move needs
    /// both straight cells beside it, so it never joins what straight moves do
    /// not, nor survives the removal of a cell they do not; 4 directions suffice.
    pub(crate) fn topology_movement(movement: &Movement) -> Movement {
        match movement.corners {
            CornerRule::Never => Movement {
                connectivity: Connectivity::Four,
                ..*movement
            },
            _ => *movement,
        }
    }

    /// The map as ASCII: `.` passable, `@` blocked, one row per line.
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity((self.width as usize + 1) * self.height as usize);
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(if self.is_passable(Point::new(x, y)) {
                    '.'
                } else {
                    '@'
                });
            }
            s.push('\n');
        }
        s
    }

    // ----- padded-index internals, used by the search engines -----

    /// Width of the padded array.
    #[inline(always)]
    pub(crate) fn padded_width(&self) -> u32 {
        self.width + 2
    }

    /// Number of entries in the padded array.
    #[inline(always)]
    pub(crate) fn padded_len(&self) -> usize {
        self.passable.len()
    }

    /// The padded node of an on-map point.
    #[inline(always)]
    pub(crate) fn node(&self, p: Point) -> Node {
        Node((p.y + 1) * self.padded_width() + p.x + 1)
    }

    /// The point of a padded node (which must be a real cell).
    #[inline(always)]
    pub(crate) fn point(&self, n: Node) -> Point {
        let pw = self.padded_width();
        Point::new(n.0 % pw - 1, n.0 / pw - 1)
    }

    /// The neighbour of `n` in direction `dir` (0..8 in the order of
    /// [`Space::for_each_neighbor`](crate::engine::Space::for_each_neighbor)) when that move is legal, with its base cost.
    #[inline(always)]
    pub(crate) fn neighbor_in(&self, n: Node, dir: u8, movement: &Movement) -> Option<(Node, u32)> {
        let pw = self.padded_width();
        let open = |i: u32| self.passable[i as usize];
        let (north, east, south, west) = (n.0 - pw, n.0 + 1, n.0 + pw, n.0 - 1);
        let (to, a, b) = match dir {
            0 => return open(north).then_some((Node(north), movement.straight)),
            1 => return open(east).then_some((Node(east), movement.straight)),
            2 => return open(south).then_some((Node(south), movement.straight)),
            3 => return open(west).then_some((Node(west), movement.straight)),
            _ if !movement.diagonals() => return None,
            4 => (north + 1, north, east),
            5 => (south + 1, south, east),
            6 => (south - 1, south, west),
            7 => (north - 1, north, west),
            _ => return None,
        };
        let corner_ok = match movement.corners {
            CornerRule::Never => open(a) && open(b),
            CornerRule::IfOneFree => open(a) || open(b),
            CornerRule::Always => true,
        };
        (corner_ok && open(to)).then_some((Node(to), movement.diagonal))
    }

    /// The padded passability array.
    #[inline(always)]
    pub(crate) fn passable_slice(&self) -> &[bool] {
        &self.passable
    }

    /// The padded weight array, `None` when unweighted.
    #[inline(always)]
    pub(crate) fn weight_slice(&self) -> Option<&[u16]> {
        self.weights.as_deref()
    }
}

#[cfg(test)]
mod tests;
