//! How a unit may move between cells: connectivity, corner cutting and step costs.

use super::cost::{Cost, Weight};

/// Which neighbours a cell has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Connectivity {
    /// North, east, south, west.
    Four,
    /// The four straight neighbours and the four diagonal ones.
    Eight,
}

/// When a diagonal move may pass the corner of a blocked cell.
///
/// A diagonal move from `(x, y)` to `(x+1, y+1)` passes the two orthogonal cells
/// `(x+1, y)` and `(x, y+1)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CornerRule {
    /// Both orthogonal cells must be passable (no corner cutting). The Moving AI
    /// benchmark rule, and the default.
    #[default]
    Never,
    /// At least one of the orthogonal cells must be passable (cuts corners, never
    /// squeezes between two diagonal walls).
    IfOneFree,
    /// Only the destination must be passable.
    Always,
}

/// The movement rules of a search: one value, shared by flat search and the
/// hierarchy (a hierarchy is built for one `Movement`).
///
/// Costs are integers in the unit described in [`cost`](crate::Cost): the
/// default is `straight = 10_000`, `diagonal = 14_142` (sqrt 2 to 1e-5), 8-connected,
/// no corner cutting: exactly the Moving AI benchmark rules.
///
/// ```
/// use tierpath::{Movement, CornerRule};
/// let benchmark = Movement::default();
/// let tutorial = Movement::TEN_FOURTEEN; // the classic 10/14 costs
/// let rook = Movement::FOUR;
/// let loose = Movement { corners: CornerRule::Always, ..Movement::default() };
/// assert_eq!(benchmark.diagonal, 14_142);
/// # let _ = (tutorial, rook, loose);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Movement {
    /// Four or eight neighbours.
    pub connectivity: Connectivity,
    /// The corner-cutting rule for diagonal moves (ignored when 4-connected).
    pub corners: CornerRule,
    /// Base cost of a straight move onto a cell of weight one, before the weight
    /// (see the [cost unit](crate::Cost)).
    pub straight: u32,
    /// Base cost of a diagonal move.
    pub diagonal: u32,
}

impl Movement {
    /// 8-connected, no corner cutting, straight 10,000 and diagonal 14,142: the
    /// Moving AI benchmark rules.
    pub const OCTILE: Movement = Movement {
        connectivity: Connectivity::Eight,
        corners: CornerRule::Never,
        straight: 10_000,
        diagonal: 14_142,
    };
    /// 4-connected, straight cost 10,000.
    pub const FOUR: Movement = Movement {
        connectivity: Connectivity::Four,
        corners: CornerRule::Never,
        straight: 10_000,
        diagonal: 14_142,
    };
    /// 8-connected, no corner cutting, the tutorials' straight 10 and diagonal 14.
    pub const TEN_FOURTEEN: Movement = Movement {
        connectivity: Connectivity::Eight,
        corners: CornerRule::Never,
        straight: 10,
        diagonal: 14,
    };

    /// Every movement rule, for tests: 4-connected, the three corner rules
    /// of 8-connected moves, and the 10/14 costs.
    #[cfg(test)]
    pub(crate) fn every_rule() -> [Movement; 5] {
        let with = |corners| Movement {
            corners,
            ..Movement::default()
        };
        [
            Movement::FOUR,
            Movement::default(),
            with(CornerRule::IfOneFree),
            with(CornerRule::Always),
            Movement::TEN_FOURTEEN,
        ]
    }

    /// Whether diagonal moves exist.
    #[inline]
    pub fn diagonals(&self) -> bool {
        self.connectivity == Connectivity::Eight
    }

    /// The cost of one straight step onto plain ground.
    #[inline]
    pub fn straight_step(&self) -> Cost {
        Cost(self.straight as u64 * Weight::ONE.0 as u64)
    }

    /// Converts a cost to the number of straight steps on plain ground it
    /// equals: the unit of Moving AI's optimal lengths.
    pub fn cost_in_steps(&self, cost: Cost) -> f64 {
        cost.0 as f64 / self.straight_step().0 as f64
    }

    /// The largest base cost of a move, 2^18 = 262,144: a path through every
    /// cell of the largest map ([`MAX_CELLS`](crate::MAX_CELLS)) by diagonal
    /// moves onto the heaviest ground ([`Weight::MAX`]) then costs under
    /// 2^62, so a sum of two path costs (a cost so far and an estimate, a
    /// landmark distance and an edge) never overflows a `u64`.
    pub const MAX_BASE_COST: u32 = 1 << 18;

    /// Checks the rule is usable: positive costs, a diagonal no cheaper than
    /// a straight step and no dearer than two, and no base cost above
    /// [`Movement::MAX_BASE_COST`] (so no path cost can overflow).
    ///
    /// ```
    /// use tierpath::Movement;
    /// let huge = Movement { straight: u32::MAX, diagonal: u32::MAX, ..Movement::default() };
    /// assert!(huge.validate().is_err());
    /// assert!(Movement::default().validate().is_ok());
    /// ```
    pub fn validate(&self) -> Result<(), crate::GridError> {
        let ok = self.straight > 0
            && self.diagonal >= self.straight
            && (self.diagonal as u64) <= 2 * self.straight as u64
            && self.diagonal <= Self::MAX_BASE_COST;
        if ok {
            Ok(())
        } else {
            Err(crate::GridError::BadMovement {
                straight: self.straight,
                diagonal: self.diagonal,
            })
        }
    }

    /// The cheapest possible cost between two cells `dx` columns and `dy` rows
    /// apart on plain ground: the exact octile (or Manhattan, when 4-connected)
    /// distance in cost units.
    #[inline]
    pub fn distance(&self, dx: u32, dy: u32) -> Cost {
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        let base = match self.connectivity {
            Connectivity::Eight => {
                self.diagonal as u64 * lo as u64 + self.straight as u64 * (hi - lo) as u64
            }
            Connectivity::Four => self.straight as u64 * (dx as u64 + dy as u64),
        };
        Cost(base * Weight::ONE.0 as u64)
    }
}

impl Default for Movement {
    fn default() -> Self {
        Movement::OCTILE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_costs_that_could_overflow_are_rejected() {
        let with = |straight, diagonal| Movement {
            straight,
            diagonal,
            ..Movement::default()
        };
        assert!(with(u32::MAX, u32::MAX).validate().is_err());
        let top = Movement::MAX_BASE_COST;
        assert!(with(top / 2, top).validate().is_ok());
        assert!(with(top, top + 1).validate().is_err());
        assert!(with(top + 1, top + 1).validate().is_err());
        // The largest allowed path cost leaves room for a sum of two.
        let moves = crate::MAX_CELLS;
        let worst = moves as u128 * top as u128 * Weight::MAX.0 as u128;
        assert!(2 * worst <= u64::MAX as u128, "{worst}");
    }
}
