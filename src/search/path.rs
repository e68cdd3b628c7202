//! Paths and their validation.

use crate::grid::{Connectivity, CornerRule, Cost, Grid, Movement, Point};
use thiserror::Error;

/// A path on the grid: every cell from start to goal inclusive, consecutive
/// cells neighbours, and its exact cost.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Path {
    /// The cells, start first, goal last.
    pub cells: Vec<Point>,
    /// The sum of the moves' costs (see [`Cost`]).
    pub cost: Cost,
}

impl Path {
    /// The number of moves (cells minus one).
    pub fn moves(&self) -> usize {
        self.cells.len().saturating_sub(1)
    }

    /// The first cell.
    pub fn start(&self) -> Option<Point> {
        self.cells.first().copied()
    }

    /// The last cell.
    pub fn goal(&self) -> Option<Point> {
        self.cells.last().copied()
    }

    /// Checks this path is valid on `grid` under `movement` and that its stated
    /// cost is the sum of its moves.
    pub fn validate(&self, grid: &Grid, movement: &Movement) -> Result<(), PathError> {
        let cost = path_cost(grid, movement, &self.cells)?;
        if cost != self.cost {
            return Err(PathError::WrongCost {
                stated: self.cost,
                actual: cost,
            });
        }
        Ok(())
    }
}

/// Why a sequence of cells is not a valid path.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PathError {
    /// No cells at all.
    #[error("path is empty")]
    Empty,
    /// A cell that is off the map or blocked.
    #[error("step {index}: cell {cell} is blocked or off the map")]
    Blocked {
        /// Position in the path.
        index: usize,
        /// The cell.
        cell: Point,
    },
    /// Two consecutive cells that are not neighbours under the movement rule.
    #[error("step {index}: {from} -> {to} is not a legal move")]
    IllegalMove {
        /// Position of `to` in the path.
        index: usize,
        /// Cell moved from.
        from: Point,
        /// Cell moved to.
        to: Point,
    },
    /// A diagonal move that cuts a corner the rule forbids.
    #[error("step {index}: {from} -> {to} cuts a blocked corner")]
    CutsCorner {
        /// Position of `to` in the path.
        index: usize,
        /// Cell moved from.
        from: Point,
        /// Cell moved to.
        to: Point,
    },
    /// The stated cost is not the sum of the moves.
    #[error("stated cost {stated} differs from the moves' sum {actual}")]
    WrongCost {
        /// What the path says.
        stated: Cost,
        /// What its moves add up to.
        actual: Cost,
    },
}

/// Whether a single move from `a` to `b` is legal on `grid` under `movement`
/// (both cells passable, neighbours, corner rule respected).
pub fn legal_move(grid: &Grid, movement: &Movement, a: Point, b: Point) -> bool {
    grid.is_passable(a) && move_error(grid, movement, 1, a, b).is_none()
}

fn move_error(grid: &Grid, m: &Movement, index: usize, a: Point, b: Point) -> Option<PathError> {
    if !grid.is_passable(b) {
        return Some(PathError::Blocked { index, cell: b });
    }
    let dx = a.x.abs_diff(b.x);
    let dy = a.y.abs_diff(b.y);
    let illegal = PathError::IllegalMove {
        index,
        from: a,
        to: b,
    };
    match (dx, dy) {
        (1, 0) | (0, 1) => None,
        (1, 1) if m.connectivity == Connectivity::Eight => {
            let c1 = grid.is_passable(Point::new(b.x, a.y));
            let c2 = grid.is_passable(Point::new(a.x, b.y));
            let ok = match m.corners {
                CornerRule::Never => c1 && c2,
                CornerRule::IfOneFree => c1 || c2,
                CornerRule::Always => true,
            };
            (!ok).then_some(PathError::CutsCorner {
                index,
                from: a,
                to: b,
            })
        }
        _ => Some(illegal),
    }
}

/// The exact cost of walking `cells` on `grid` under `movement`, or why the walk
/// is illegal.
pub fn path_cost(grid: &Grid, movement: &Movement, cells: &[Point]) -> Result<Cost, PathError> {
    let first = *cells.first().ok_or(PathError::Empty)?;
    if !grid.is_passable(first) {
        return Err(PathError::Blocked {
            index: 0,
            cell: first,
        });
    }
    let mut cost = 0u64;
    for (i, w) in cells.windows(2).enumerate() {
        let (a, b) = (w[0], w[1]);
        if let Some(e) = move_error(grid, movement, i + 1, a, b) {
            return Err(e);
        }
        cost += grid.step_cost(movement, a, b);
    }
    Ok(Cost(cost))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_moves_and_corners() {
        let g = Grid::from_ascii(
            "
            ...
            .@.
            ...",
        )
        .unwrap();
        let m = Movement::default();
        let p = |x, y| Point::new(x, y);
        assert_eq!(
            path_cost(&g, &m, &[p(0, 0), p(1, 0), p(2, 0)]),
            Ok(m.distance(2, 0))
        );
        assert!(matches!(
            path_cost(&g, &m, &[p(0, 1), p(1, 0)]),
            Err(PathError::CutsCorner { .. })
        ));
        let loose = Movement {
            corners: CornerRule::IfOneFree,
            ..m
        };
        assert!(path_cost(&g, &loose, &[p(0, 1), p(1, 0)]).is_ok());
        assert!(
            !legal_move(&g, &m, p(1, 1), p(1, 0)),
            "moves out of a wall are illegal"
        );
        assert!(matches!(
            path_cost(&g, &m, &[p(0, 0), p(2, 0)]),
            Err(PathError::IllegalMove { .. })
        ));
        assert!(matches!(
            path_cost(&g, &m, &[p(0, 0), p(1, 1)]),
            Err(PathError::Blocked { .. })
        ));
        assert!(matches!(
            path_cost(&g, &Movement::FOUR, &[p(0, 1), p(1, 2)]),
            Err(PathError::IllegalMove { .. })
        ));
    }
}
