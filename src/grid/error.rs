//! The errors of building or editing a grid, and of unusable movement rules.

use super::{MAX_CELLS, MAX_SIDE, Point};
use thiserror::Error;

/// What went wrong building or editing a grid.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GridError {
    /// A map with zero width or height.
    #[error("map is empty ({width}x{height}): both sides must be at least 1")]
    Empty {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// A map larger than [`MAX_SIDE`] or [`MAX_CELLS`].
    #[error(
        "map is too large ({width}x{height}): at most {MAX_SIDE} per side and {MAX_CELLS} cells"
    )]
    TooLarge {
        /// Requested width.
        width: u64,
        /// Requested height.
        height: u64,
    },
    /// A point outside the map.
    #[error("{point} is off the {width}x{height} map")]
    OutOfBounds {
        /// The offending point.
        point: Point,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// A character [`Grid::from_ascii`](crate::Grid::from_ascii) does not know.
    #[error("line {line}, column {column}: unknown map character {ch:?}")]
    BadChar {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character.
        ch: char,
    },
    /// Rows of different lengths in [`Grid::from_ascii`](crate::Grid::from_ascii).
    #[error("line {line}: row has {found} cells, expected {expected}")]
    RaggedRow {
        /// 1-based line.
        line: usize,
        /// Cells found.
        found: usize,
        /// Cells expected (the first row's length).
        expected: usize,
    },
    /// Unusable movement costs.
    #[error(
        "movement costs straight={straight} diagonal={diagonal} are unusable: need 0 < straight <= diagonal <= 2*straight and diagonal <= 262144"
    )]
    BadMovement {
        /// Straight cost.
        straight: u32,
        /// Diagonal cost.
        diagonal: u32,
    },
}
