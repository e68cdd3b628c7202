//! Coordinates and the index types that name a cell.

use std::fmt;

/// A cell's coordinates: `x` is the column, `y` the row, `(0, 0)` the top-left cell.
///
/// This is the type the public API speaks. Internally cells are named by
/// [`CellIndex`] (row-major, unpadded) and by a padded node index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Point {
    /// Column, counted from the left edge.
    pub x: u32,
    /// Row, counted from the top edge.
    pub y: u32,
}

impl Point {
    /// The point at column `x`, row `y`.
    #[inline]
    pub const fn new(x: u32, y: u32) -> Self {
        Point { x, y }
    }
}

impl From<(u32, u32)> for Point {
    #[inline]
    fn from((x, y): (u32, u32)) -> Self {
        Point { x, y }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A cell's row-major index on an unpadded map: `y * width + x`.
///
/// Used for per-cell tables that callers index (island labels, distance fields).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellIndex(pub u32);

impl CellIndex {
    /// The index as a `usize`, for slicing.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A cell's index in the padded grid (one blocked cell of margin on every side),
/// so neighbour loops need no bounds checks. Crate-internal: the public API speaks
/// [`Point`] and [`CellIndex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Node(pub u32);

impl Node {
    /// The index as a `usize`, for slicing.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}
