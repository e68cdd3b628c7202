//! Distance estimates for A*.

use crate::grid::{Connectivity, Cost, FastDiv, Movement, Node, Point, Weight};

/// The distance estimate A* adds to G.
///
/// Each is computed in the [cost unit](crate::Cost) from the cell and goal
/// coordinates and scaled by the map's smallest terrain weight, so that on a
/// weighted map (roads cheaper than plain ground) it still never overestimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// The admissible default for the movement rule: octile when 8-connected,
    /// Manhattan when 4-connected.
    Auto,
    /// `straight * (dx + dy)`. Exact on open 4-connected maps; overestimates
    /// when diagonal moves exist.
    Manhattan,
    /// `diagonal * min(dx, dy) + straight * |dx - dy|`: the exact open-ground
    /// distance when 8-connected.
    Octile,
    /// Straight-line distance (rounded down), admissible for every rule.
    Euclidean,
    /// `min(straight, diagonal) * max(dx, dy)`, admissible for every rule.
    Chebyshev,
    /// Zero: A* becomes Dijkstra.
    Zero,
}

impl Heuristic {
    /// The heuristic `Auto` stands for under `movement`.
    pub fn resolve(self, movement: &Movement) -> Heuristic {
        match (self, movement.connectivity) {
            (Heuristic::Auto, Connectivity::Eight) => Heuristic::Octile,
            (Heuristic::Auto, Connectivity::Four) => Heuristic::Manhattan,
            (h, _) => h,
        }
    }

    /// Whether this heuristic never overestimates under `movement`.
    pub fn is_admissible(self, movement: &Movement) -> bool {
        !matches!(
            (self.resolve(movement), movement.connectivity),
            (Heuristic::Manhattan, Connectivity::Eight)
        )
    }
}

/// A heuristic bound to one goal, one movement rule, one weight scale and a
/// weighted-A* factor: evaluated once per generated node.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Estimator {
    kind: Heuristic,
    goal_x: u32,
    goal_y: u32,
    padded_width: FastDiv,
    /// Straight and diagonal step costs already multiplied by the minimum weight.
    straight: u64,
    diagonal: u64,
    /// Weighted-A* factor as a fraction of 1024 (1024 = plain A*).
    factor: u64,
}

/// Fixed-point denominator of the weighted-A* factor.
pub(crate) const FACTOR_ONE: u64 = 1024;

impl Estimator {
    pub(crate) fn new(
        kind: Heuristic,
        movement: &Movement,
        min_weight: Weight,
        goal: Node,
        padded_width: u32,
        factor: u64,
    ) -> Self {
        let w = min_weight.0 as u64;
        Estimator {
            kind: kind.resolve(movement),
            goal_x: goal.0 % padded_width,
            goal_y: goal.0 / padded_width,
            padded_width: FastDiv::new(padded_width),
            straight: movement.straight as u64 * w,
            diagonal: movement.diagonal as u64 * w,
            factor,
        }
    }

    /// The zero estimate (Dijkstra).
    pub(crate) fn zero() -> Self {
        Estimator {
            kind: Heuristic::Zero,
            goal_x: 0,
            goal_y: 0,
            padded_width: FastDiv::new(3),
            straight: 0,
            diagonal: 0,
            factor: FACTOR_ONE,
        }
    }

    /// The estimate at padded node `n`.
    #[inline(always)]
    pub(crate) fn estimate(&self, n: Node) -> u64 {
        if self.kind == Heuristic::Zero {
            return 0;
        }
        let (y, x) = self.padded_width.div_rem(n.0);
        self.estimate_at(x, y)
    }

    /// The padded coordinates `(x, y)` of node `n`.
    #[inline(always)]
    pub(crate) fn coords(&self, n: Node) -> (u32, u32) {
        let (y, x) = self.padded_width.div_rem(n.0);
        (x, y)
    }

    /// Whether the estimate is always zero (no coordinates needed).
    #[inline(always)]
    pub(crate) fn is_zero(&self) -> bool {
        self.kind == Heuristic::Zero
    }

    /// The estimate at padded coordinates `(x, y)`.
    #[inline(always)]
    pub(crate) fn estimate_at(&self, x: u32, y: u32) -> u64 {
        if self.kind == Heuristic::Zero {
            return 0;
        }
        let dx = x.abs_diff(self.goal_x) as u64;
        let dy = y.abs_diff(self.goal_y) as u64;
        let h = match self.kind {
            Heuristic::Octile | Heuristic::Auto => {
                let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
                self.diagonal * lo + self.straight * (hi - lo)
            }
            Heuristic::Manhattan => self.straight * (dx + dy),
            Heuristic::Chebyshev => self.straight.min(self.diagonal) * dx.max(dy),
            Heuristic::Euclidean => {
                // The cheapest cost per unit of straight-line length: a straight
                // step, or a diagonal step over its length sqrt 2.
                let per_unit = (self.straight as f64).min(self.diagonal as f64 / 2f64.sqrt());
                (((dx * dx + dy * dy) as f64).sqrt() * per_unit).floor() as u64
            }
            Heuristic::Zero => 0,
        };
        if self.factor == FACTOR_ONE {
            h
        } else {
            h * self.factor / FACTOR_ONE
        }
    }
}

/// A distance estimate as the search engine asks for it: at a padded node, or
/// at padded coordinates the engine already has. [`Estimator`] (the built-in
/// heuristics) and [`CustomEstimate`] (a caller's function) implement it; the
/// engine is generic over it, so each compiles to its own loop.
pub(crate) trait Estimate {
    /// The estimate at padded node `n`.
    fn estimate(&self, n: Node) -> u64;
    /// The padded coordinates `(x, y)` of node `n`.
    fn coords(&self, n: Node) -> (u32, u32);
    /// Whether the estimate is always zero (no coordinates needed).
    fn is_zero(&self) -> bool;
    /// The estimate at padded coordinates `(x, y)`.
    fn estimate_at(&self, x: u32, y: u32) -> u64;
}

impl Estimate for Estimator {
    #[inline(always)]
    fn estimate(&self, n: Node) -> u64 {
        Estimator::estimate(self, n)
    }
    #[inline(always)]
    fn coords(&self, n: Node) -> (u32, u32) {
        Estimator::coords(self, n)
    }
    #[inline(always)]
    fn is_zero(&self) -> bool {
        Estimator::is_zero(self)
    }
    #[inline(always)]
    fn estimate_at(&self, x: u32, y: u32) -> u64 {
        Estimator::estimate_at(self, x, y)
    }
}

/// A caller's heuristic: a function of the cell, in the cost unit, times the
/// weighted-A* factor. Evaluated each time a node is put on the open list.
pub(crate) struct CustomEstimate<F> {
    function: F,
    padded_width: FastDiv,
    /// Weighted-A* factor as a fraction of [`FACTOR_ONE`].
    factor: u64,
}

impl<F: Fn(Point) -> Cost> CustomEstimate<F> {
    pub(crate) fn new(function: F, padded_width: u32, factor: u64) -> Self {
        CustomEstimate {
            function,
            padded_width: FastDiv::new(padded_width),
            factor,
        }
    }
}

impl<F: Fn(Point) -> Cost> Estimate for CustomEstimate<F> {
    #[inline]
    fn estimate(&self, n: Node) -> u64 {
        let (x, y) = self.coords(n);
        self.estimate_at(x, y)
    }
    #[inline]
    fn coords(&self, n: Node) -> (u32, u32) {
        let (y, x) = self.padded_width.div_rem(n.0);
        (x, y)
    }
    #[inline]
    fn is_zero(&self) -> bool {
        false
    }
    #[inline]
    fn estimate_at(&self, x: u32, y: u32) -> u64 {
        // The engine only asks about real cells, whose padded coordinates are
        // at least one.
        let h = (self.function)(Point::new(x - 1, y - 1)).0;
        if self.factor == FACTOR_ONE {
            h
        } else {
            h.saturating_mul(self.factor) / FACTOR_ONE
        }
    }
}
