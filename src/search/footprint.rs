//! The movement rule of a unit `size` cells square, stated on its footprint
//! (independent of clearance: the definition the tests hold the searches
//! to).

use thiserror::Error;

use super::{Path, PathError};
use crate::grid::{Connectivity, CornerRule, Cost, Grid, Movement, Point};

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
/// footprint rule, as [`validate_sized_path`] checks it).
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
        cost += grid.step_cost(movement, a, b);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Clearance;
    use crate::engine::Space;
    use crate::engine::route::{Line, SHAPES, cells as route_cells, is_free};

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
                let space = crate::engine::Fits::on(c.grid(), c.padded(), &m, size);
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
        let space = crate::engine::Fits::on(c.grid(), c.padded(), &m, 2);
        let (a, b) = (Point::new(0, 0), Point::new(6, 3));
        let (mut free, mut blocked) = (false, false);
        for shape in SHAPES {
            let mut cells = vec![a];
            if is_free(&space, a, b, shape) {
                free = true;
                route_cells(&space, a, b, shape, &mut cells);
                let cost = sized_path_cost(&grid, &m, 2, &cells).unwrap();
                assert_eq!(Some(cost.0), Line::new(&space, a, b).cost(&space, shape));
            } else {
                blocked = true;
                assert_eq!(Line::new(&space, a, b).cost(&space, shape), None);
            }
        }
        assert!(
            free && blocked,
            "the wall blocks some shapes, not all: {free} {blocked}"
        );
    }
}
