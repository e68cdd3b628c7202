//! The movement rule of a unit `size` cells square, stated on its footprint
//! (independent of clearance: the definition the tests hold the searches
//! to), and straight routes for smoothing.

use thiserror::Error;

use crate::grid::{Connectivity, CornerRule, Cost, Grid, Movement, Node, Point};
use crate::search::route::Shape;
use crate::search::{Path, PathError};

use super::engine::Space;

/// Why a sequence of cells is not a valid path for a unit of some size.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SizedPathError {
    /// Unit size 0.
    #[error("unit size 0 is invalid: sizes start at 1")]
    ZeroSize,
    /// The cells break the rule (a footprint cell blocked or off the map, a
    /// move that is not one step, a diagonal the corner rule forbids, or a
    /// wrong stated cost). A blocked cell is the first blocked or off-map
    /// cell of the offending footprint.
    #[error(transparent)]
    Path(#[from] PathError),
}

/// The first cell of the `size x size` square with top-left `p` that is
/// blocked or off the map, if any. O(size^2).
fn first_blocked(grid: &Grid, size: u32, p: Point) -> Option<Point> {
    for dy in 0..size {
        for dx in 0..size {
            let (Some(x), Some(y)) = (p.x.checked_add(dx), p.y.checked_add(dy)) else {
                return Some(p);
            };
            let c = Point::new(x, y);
            if !grid.is_passable(c) {
                return Some(c);
            }
        }
    }
    None
}

/// Whether a unit of `size` fits with its top-left corner on `p`: every cell
/// of the `size x size` square on the map and passable. Checked cell by cell
/// (O(size^2)); [`Clearance::fits`](crate::Clearance::fits) answers the same
/// in constant time. Size 0 never fits.
pub fn footprint_fits(grid: &Grid, size: u32, p: Point) -> bool {
    size >= 1 && first_blocked(grid, size, p).is_none()
}

/// Why the move `a -> b` (the `index`-th cell) is illegal for a unit of
/// `size >= 1`, by the footprint rule.
fn move_error(
    grid: &Grid,
    m: &Movement,
    size: u32,
    index: usize,
    a: Point,
    b: Point,
) -> Option<PathError> {
    if let Some(cell) = first_blocked(grid, size, b) {
        return Some(PathError::Blocked { index, cell });
    }
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    match (dx, dy) {
        (1, 0) | (0, 1) => None,
        (1, 1) if m.connectivity == Connectivity::Eight => {
            // The footprints the square passes beside: shifted along x only,
            // and along y only.
            let side_x = footprint_fits(grid, size, Point::new(b.x, a.y));
            let side_y = footprint_fits(grid, size, Point::new(a.x, b.y));
            let ok = match m.corners {
                CornerRule::Never => side_x && side_y,
                CornerRule::IfOneFree => side_x || side_y,
                CornerRule::Always => true,
            };
            (!ok).then_some(PathError::CutsCorner {
                index,
                from: a,
                to: b,
            })
        }
        _ => Some(PathError::IllegalMove {
            index,
            from: a,
            to: b,
        }),
    }
}

/// Whether one move `a -> b` is legal for a unit of `size` (see the
/// [module rule](crate::SizedHierarchy#the-movement-rule)).
pub fn sized_legal_move(grid: &Grid, movement: &Movement, size: u32, a: Point, b: Point) -> bool {
    footprint_fits(grid, size, a) && move_error(grid, movement, size, 1, a, b).is_none()
}

/// The exact cost of a unit of `size` walking `cells` (anchored at their
/// top-left corners), or why the walk is illegal: every footprint on the map
/// and passable, every move one step, every diagonal within the corner rule
/// for the whole square. A move costs its base times the weight of the
/// anchor cell entered.
///
/// ```
/// use tierpath::{Grid, Movement, Point, sized_path_cost};
/// let grid = Grid::from_ascii("
///     ....
///     ....
///     ..@.
/// ").unwrap();
/// let m = Movement::default();
/// let p = Point::new;
/// assert!(sized_path_cost(&grid, &m, 2, &[p(0, 0), p(1, 0), p(2, 0)]).is_ok());
/// assert!(sized_path_cost(&grid, &m, 2, &[p(0, 0), p(1, 1)]).is_err()); // (2, 2) is a wall
/// ```
pub fn sized_path_cost(
    grid: &Grid,
    movement: &Movement,
    size: u32,
    cells: &[Point],
) -> Result<Cost, SizedPathError> {
    if size == 0 {
        return Err(SizedPathError::ZeroSize);
    }
    let first = *cells.first().ok_or(PathError::Empty)?;
    if let Some(cell) = first_blocked(grid, size, first) {
        return Err(PathError::Blocked { index: 0, cell }.into());
    }
    let mut cost = 0u64;
    for (i, w) in cells.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if let Some(e) = move_error(grid, movement, size, i + 1, a, b) {
            return Err(e.into());
        }
        let base = if a.x != b.x && a.y != b.y {
            movement.diagonal
        } else {
            movement.straight
        };
        cost += base as u64 * grid.weight(b).0 as u64;
    }
    Ok(Cost(cost))
}

/// Checks `path` is valid for a unit of `size` on `grid` under `movement`
/// ([`sized_path_cost`]) and that its stated cost is its moves' sum.
pub fn validate_sized_path(
    path: &Path,
    grid: &Grid,
    movement: &Movement,
    size: u32,
) -> Result<(), SizedPathError> {
    let actual = sized_path_cost(grid, movement, size, &path.cells)?;
    if actual != path.cost {
        return Err(PathError::WrongCost {
            stated: path.cost,
            actual,
        }
        .into());
    }
    Ok(())
}

/// The two kinds of move of a straight route from `a` to `b` and their
/// counts (as `search::route` decomposes them).
fn decompose(movement: &Movement, a: Point, b: Point) -> ((i64, i64), (i64, i64), i64, i64) {
    let (dx, dy) = (a.x.abs_diff(b.x) as i64, a.y.abs_diff(b.y) as i64);
    let sx = (b.x as i64 - a.x as i64).signum();
    let sy = (b.y as i64 - a.y as i64).signum();
    if movement.diagonals() {
        let d = dx.min(dy);
        let straight = if dx > dy { (sx, 0) } else { (0, sy) };
        ((sx, sy), straight, d, dx.max(dy) - d)
    } else {
        ((sx, 0), (0, sy), dx, dy)
    }
}

/// Walks the straight route of `shape` from `a` to `b` in `space`, calling
/// `visit(node, base)` for every cell after `a`; false (stopped) at the first
/// illegal move. The same shapes as the flat planner's smoothing.
pub(crate) fn walk(
    space: &Space,
    a: Point,
    b: Point,
    shape: Shape,
    mut visit: impl FnMut(Node, u32),
) -> bool {
    let (first, second, n_first, n_second) = decompose(space.movement, a, b);
    let pw = space.padded_width as i64;
    let step = |(mx, my): (i64, i64)| {
        let diagonal = mx != 0 && my != 0;
        (
            my * pw + mx,
            if diagonal {
                space.movement.diagonal
            } else {
                space.movement.straight
            },
            diagonal.then_some((mx, my * pw)),
        )
    };
    let (first, second) = (step(first), step(second));
    let total = n_first + n_second;
    let mut n = space.node(a).0 as i64;
    let mut err = 0i64;
    for k in 0..total {
        let use_first = match shape {
            Shape::DiagonalFirst => k < n_first,
            Shape::StraightFirst => k >= n_second,
            Shape::Spread => {
                err += n_first;
                if err >= total {
                    err -= total;
                    true
                } else {
                    false
                }
            }
        };
        let (offset, base, corners) = if use_first { first } else { second };
        let m = n + offset;
        if !space.open(m as u32) {
            return false;
        }
        if let Some((ca, cb)) = corners
            && !space.corner_ok(space.open((n + ca) as u32), space.open((n + cb) as u32))
        {
            return false;
        }
        visit(Node(m as u32), base);
        n = m;
    }
    true
}

/// The cost of the route of `shape` from `a` to `b`, `None` when blocked.
pub(crate) fn route_cost(space: &Space, a: Point, b: Point, shape: Shape) -> Option<u64> {
    let mut total = 0u64;
    walk(space, a, b, shape, |m, base| {
        total += base as u64 * space.weight(m.0)
    })
    .then_some(total)
}

/// Appends the cells of the route of `shape` from `a` to `b` (after `a`).
pub(crate) fn route_cells(space: &Space, a: Point, b: Point, shape: Shape, out: &mut Vec<Point>) {
    walk(space, a, b, shape, |m, _| out.push(space.point(m)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clearance;
    use crate::search::route::SHAPES;

    #[test]
    fn footprint_rule_on_a_small_map() {
        let grid = Grid::from_ascii(
            "
            .....
            .....
            ...@.
            .....",
        )
        .unwrap();
        let m = Movement::default();
        let p = Point::new;
        assert!(footprint_fits(&grid, 2, p(0, 0)));
        assert!(!footprint_fits(&grid, 2, p(2, 1)));
        assert!(!footprint_fits(&grid, 2, p(4, 0)), "off the right edge");
        assert!(!footprint_fits(&grid, 0, p(0, 0)));
        // (0,0) -> (1,1) for size 2 sweeps the 3x3 square at (0,0): free.
        assert!(sized_legal_move(&grid, &m, 2, p(0, 0), p(1, 1)));
        // (1,0) -> (2,1): the target footprint holds the wall.
        assert!(!sized_legal_move(&grid, &m, 2, p(1, 0), p(2, 1)));
        // (1,1) -> (0,2)? footprint at (0,2) = (0..1, 2..3): free; corners:
        // the footprints at (0,1) and (1,2): (1,2) holds (2,2),(2,3),(1,3),(1,2): free.
        assert!(sized_legal_move(&grid, &m, 2, p(1, 1), p(0, 2)));
        // Size 2 from (1,0) to (2,0)? Footprint (2..3, 0..1): free.
        assert!(sized_legal_move(&grid, &m, 2, p(1, 0), p(2, 0)));
        // Corner cutting for size 2: (1,1) -> (2,2) is blocked at the
        // target; (2,0) -> (3,1)? target (3..4, 1..2) holds (3,2).
        assert!(!sized_legal_move(&grid, &m, 2, p(2, 0), p(3, 1)));
        assert_eq!(
            sized_path_cost(&grid, &m, 0, &[p(0, 0)]),
            Err(SizedPathError::ZeroSize)
        );
        assert!(matches!(
            sized_path_cost(&grid, &m, 2, &[p(0, 0), p(2, 0)]),
            Err(SizedPathError::Path(PathError::IllegalMove { .. }))
        ));
        assert!(matches!(
            sized_path_cost(&grid, &m, 2, &[p(1, 0), p(2, 1)]),
            Err(SizedPathError::Path(PathError::Blocked {
                cell: Point { x: 3, y: 2 },
                ..
            }))
        ));
    }

    #[test]
    fn diagonal_corner_rules_for_the_whole_square() {
        // A wall cell at (2, 0): size 2 moving (0,1) -> (1,0) sweeps past it.
        let grid = Grid::from_ascii(
            "
            ..@.
            ....
            ....",
        )
        .unwrap();
        let p = Point::new;
        let never = Movement::default();
        let one = Movement {
            corners: CornerRule::IfOneFree,
            ..never
        };
        let always = Movement {
            corners: CornerRule::Always,
            ..never
        };
        // (0,1) -> (1,0)? The target square (1..2, 0..1) holds (2,0): blocked.
        assert!(!sized_legal_move(&grid, &always, 2, p(0, 1), p(1, 0)));
        // (1,1) -> (0,0): both footprints free; side footprints (0,1) free
        // and (1,0) holding (2,0) blocked.
        assert!(!sized_legal_move(&grid, &never, 2, p(1, 1), p(0, 0)));
        assert!(sized_legal_move(&grid, &one, 2, p(1, 1), p(0, 0)));
        assert!(sized_legal_move(&grid, &always, 2, p(1, 1), p(0, 0)));
        assert!(!sized_legal_move(
            &grid,
            &Movement::FOUR,
            2,
            p(1, 1),
            p(0, 0)
        ));
    }

    #[test]
    fn the_clearance_rule_equals_the_footprint_rule() {
        let mut x = 7u64;
        let grid = Grid::from_fn(19, 17, |_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % 100 >= 15
        })
        .unwrap();
        let c = Clearance::new(grid.clone());
        for corners in [CornerRule::Never, CornerRule::IfOneFree, CornerRule::Always] {
            let m = Movement {
                corners,
                ..Movement::default()
            };
            for size in 1..=4u8 {
                let space = Space::new(&c, &m, size);
                for a in grid.passable_points() {
                    for (dx, dy) in crate::grid::DIRECTIONS {
                        let (bx, by) = (a.x as i64 + dx as i64, a.y as i64 + dy as i64);
                        if bx < 0 || by < 0 || bx >= 19 || by >= 17 {
                            continue;
                        }
                        let b = Point::new(bx as u32, by as u32);
                        assert_eq!(
                            space.legal(a, b),
                            sized_legal_move(&grid, &m, size as u32, a, b),
                            "{corners:?} size {size}: {a} -> {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn routes_follow_the_rule() {
        let grid = Grid::from_ascii(
            "
            ........
            ........
            ........
            ...@....
            ........",
        )
        .unwrap();
        let c = Clearance::new(grid.clone());
        let m = Movement::default();
        let space = Space::new(&c, &m, 2);
        let (a, b) = (Point::new(0, 0), Point::new(6, 3));
        let (mut free, mut blocked) = (false, false);
        for shape in SHAPES {
            let mut cells = vec![a];
            if walk(&space, a, b, shape, |_, _| {}) {
                free = true;
                route_cells(&space, a, b, shape, &mut cells);
                let cost = sized_path_cost(&grid, &m, 2, &cells).unwrap();
                assert_eq!(Some(cost.0), route_cost(&space, a, b, shape));
            } else {
                blocked = true;
                assert_eq!(route_cost(&space, a, b, shape), None);
            }
        }
        assert!(
            free && blocked,
            "the wall blocks some shapes, not all: {free} {blocked}"
        );
    }
}
