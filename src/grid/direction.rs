//! Direction codes of unit moves: N, E, S, W, NE, SE, SW, NW as 0..8.

/// The unit moves by direction code, in the order of
/// [`Space::for_each_neighbor`](crate::engine::Space::for_each_neighbor): N, E, S, W, NE, SE, SW, NW.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The direction code of a unit move `(dx, dy)` (see [`DIRECTIONS`]).
#[inline]
pub(crate) fn direction_code(dx: i64, dy: i64) -> u8 {
    match (dx, dy) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        (-1, 0) => 3,
        (1, -1) => 4,
        (1, 1) => 5,
        (-1, 1) => 6,
        _ => 7,
    }
}

/// The code of the opposite move.
#[inline]
pub(crate) fn opposite_direction(code: u8) -> u8 {
    match code {
        0..=3 => (code + 2) % 4,
        _ => 4 + (code - 4 + 2) % 4,
    }
}
