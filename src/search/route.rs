//! Straight-line routes on the grid: the canonical least-cost ways from one
//! cell to another on open ground.
//!
//! Between cells `dx` and `dy` apart, every 8-connected route of `min(dx, dy)`
//! diagonal and `|dx - dy|` straight moves in the right directions costs the
//! octile distance, the least possible on uniformly weighted ground (when
//! 4-connected: `dx + dy` straight moves, the Manhattan distance). Such a route
//! is therefore optimal whenever it is free. Three shapes are tried: the moves
//! spread evenly (the look of a straight line), diagonals first, and straight
//! moves first.

use crate::grid::{Grid, Movement, Node, Point};

/// The order of a route's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The two kinds of move interleaved evenly, like a rasterised line.
    Spread,
    /// All diagonal (or, 4-connected, horizontal) moves first.
    DiagonalFirst,
    /// All straight (or, 4-connected, vertical) moves first.
    StraightFirst,
}

/// Every shape, in the order smoothing tries them.
pub(crate) const SHAPES: [Shape; 3] = [Shape::Spread, Shape::DiagonalFirst, Shape::StraightFirst];

/// Direction index (as [`Grid::neighbor_in`] numbers them) of a unit move.
#[inline]
fn dir_of(mx: i32, my: i32) -> u8 {
    match (mx, my) {
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

/// The moves of a route from `a` to `b` of the given shape, as unit steps.
struct Moves {
    /// The two kinds of move: `first` taken `n_first` times, `second` `n_second` times.
    first: (i32, i32),
    second: (i32, i32),
    n_first: u32,
    n_second: u32,
    shape: Shape,
    k: u32,
}

impl Moves {
    fn new(movement: &Movement, a: Point, b: Point, shape: Shape) -> Moves {
        let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
        let sx = if b.x > a.x { 1 } else { -1 };
        let sy = if b.y > a.y { 1 } else { -1 };
        let (first, second, n_first, n_second) = if movement.diagonals() {
            let d = dx.min(dy);
            let straight = if dx > dy { (sx, 0) } else { (0, sy) };
            ((sx, sy), straight, d, dx.max(dy) - d)
        } else {
            ((sx, 0), (0, sy), dx, dy)
        };
        Moves {
            first,
            second,
            n_first,
            n_second,
            shape,
            k: 0,
        }
    }
}

impl Iterator for Moves {
    type Item = (i32, i32);
    #[inline]
    fn next(&mut self) -> Option<(i32, i32)> {
        let total = self.n_first + self.n_second;
        if self.k >= total {
            return None;
        }
        let k = self.k;
        self.k += 1;
        let is_first = match self.shape {
            Shape::DiagonalFirst => k < self.n_first,
            Shape::StraightFirst => k >= self.n_second,
            // Bresenham-like: the (k+1)-th move is a `first` when the running
            // share of `first` moves crosses an integer.
            Shape::Spread => {
                let before = (k as u64 * self.n_first as u64) / total as u64;
                let after = ((k + 1) as u64 * self.n_first as u64) / total as u64;
                after > before
            }
        };
        Some(if is_first { self.first } else { self.second })
    }
}

/// Walks the route of `shape` from `a` to `b`, calling `visit(cell, base_cost)`
/// for every cell after `a`. Returns false (having stopped) at the first
/// illegal move.
#[inline]
pub(crate) fn walk(
    grid: &Grid,
    movement: &Movement,
    a: Point,
    b: Point,
    shape: Shape,
    mut visit: impl FnMut(Node, u32),
) -> bool {
    let mut n = grid.node(a);
    let pw = grid.padded_width() as i64;
    for (mx, my) in Moves::new(movement, a, b, shape) {
        match grid.neighbor_in(n, dir_of(mx, my), movement) {
            Some((m, base)) => {
                debug_assert_eq!(m.0 as i64, n.0 as i64 + my as i64 * pw + mx as i64);
                visit(m, base);
                n = m;
            }
            None => return false,
        }
    }
    true
}

/// Whether the route of `shape` from `a` to `b` is legal throughout.
pub(crate) fn is_free(grid: &Grid, movement: &Movement, a: Point, b: Point, shape: Shape) -> bool {
    walk(grid, movement, a, b, shape, |_, _| {})
}

/// The cost of the route of `shape` from `a` to `b`, `None` when it is blocked.
pub(crate) fn cost(
    grid: &Grid,
    movement: &Movement,
    a: Point,
    b: Point,
    shape: Shape,
) -> Option<u64> {
    let weights = grid.weight_slice();
    let mut total = 0u64;
    let free = walk(grid, movement, a, b, shape, |m, base| {
        let w = weights.map_or(crate::Weight::ONE.0, |w| w[m.index()]);
        total += base as u64 * w as u64;
    });
    free.then_some(total)
}

/// Appends the cells of the route of `shape` from `a` to `b` (after `a`) to `out`.
pub(crate) fn cells(
    grid: &Grid,
    movement: &Movement,
    a: Point,
    b: Point,
    shape: Shape,
    out: &mut Vec<Point>,
) {
    walk(grid, movement, a, b, shape, |m, _| out.push(grid.point(m)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::path_cost;

    #[test]
    fn routes_are_octile_and_legal_on_open_ground() {
        let g = Grid::new(20, 20).unwrap();
        for m in [Movement::default(), Movement::FOUR] {
            for (a, b) in [
                ((0, 0), (13, 5)),
                ((19, 3), (2, 17)),
                ((5, 5), (5, 12)),
                ((4, 4), (9, 9)),
            ] {
                let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
                for shape in SHAPES {
                    let mut out = vec![a];
                    cells(&g, &m, a, b, shape, &mut out);
                    assert_eq!(*out.last().unwrap(), b);
                    let c = path_cost(&g, &m, &out).unwrap();
                    assert_eq!(c, m.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)));
                    assert_eq!(cost(&g, &m, a, b, shape), Some(c.0));
                }
            }
        }
    }

    #[test]
    fn blocked_routes_are_refused() {
        let g = Grid::from_ascii(
            "
            .....
            ..@..
            .....",
        )
        .unwrap();
        let m = Movement::default();
        let (a, b) = (Point::new(0, 1), Point::new(4, 1));
        assert!(!is_free(&g, &m, a, b, Shape::Spread));
        assert!(!is_free(
            &g,
            &m,
            Point::new(0, 0),
            Point::new(4, 2),
            Shape::DiagonalFirst
        ));
        assert!(is_free(
            &g,
            &m,
            Point::new(0, 0),
            Point::new(4, 0),
            Shape::Spread
        ));
    }
}
