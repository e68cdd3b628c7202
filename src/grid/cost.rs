//! Path costs and terrain weights, as exact integers.
//!
//! # The cost unit
//!
//! Every cost in tierpath is an integer [`Cost`], so sums are exact and results
//! deterministic on every machine. A move's cost is
//!
//! ```text
//! cost = base(move) * weight(cell entered)
//! ```
//!
//! where `base` is [`Movement::straight`](crate::Movement) or
//! [`Movement::diagonal`](crate::Movement) and `weight` is the entered cell's
//! terrain [`Weight`] (plus any cost layers), counted in percent
//! (`Weight::ONE` = 100 = plain ground).
//!
//! With the default movement (`straight = 10_000`, `diagonal = 14_142`, the
//! tutorials' 10/14 with four more digits), one straight step on plain ground
//! costs `10_000 * 100 = 1_000_000` units: a cost is a length in millionths of a
//! straight step, and a diagonal step is `1_414_200` (within 1e-5 of sqrt 2).
//! [`Movement::cost_in_steps`](crate::Movement::cost_in_steps) converts back.

use std::fmt;
use std::ops::{Add, AddAssign};

/// An exact path cost. The unit: a move costs `base * weight`, where `base` is [`Movement::straight`](crate::Movement) or [`Movement::diagonal`](crate::Movement) (by default 10,000 and 14,142) and `weight` the entered cell's [`Weight`] in percent (100 on plain ground), so one straight step on plain ground costs 1,000,000 and a diagonal one 1,414,200 (sqrt 2 to within 1e-5). [`Movement::cost_in_steps`](crate::Movement::cost_in_steps) converts back to steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Cost(pub u64);

impl Cost {
    /// Zero cost.
    pub const ZERO: Cost = Cost(0);
    /// A cost larger than any real path ("infinite").
    pub const MAX: Cost = Cost(u64::MAX);
}

impl Add for Cost {
    type Output = Cost;
    #[inline]
    fn add(self, rhs: Cost) -> Cost {
        Cost(self.0 + rhs.0)
    }
}

impl AddAssign for Cost {
    #[inline]
    fn add_assign(&mut self, rhs: Cost) {
        self.0 += rhs.0;
    }
}

impl fmt::Display for Cost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The cost multiplier of entering a cell, in percent: `Weight::ONE` (100) is
/// plain ground, 50 a road that halves the cost, 300 snow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Weight(pub u16);

impl Weight {
    /// Plain ground: a move costs exactly its base cost times 100.
    pub const ONE: Weight = Weight(100);
    /// The largest weight, 655.35 times plain ground.
    pub const MAX: Weight = Weight(u16::MAX);

    /// A weight from a multiplier such as `0.5` or `3.0`, rounded to the nearest
    /// percent. `None` when the multiplier is not finite, rounds to zero, or is
    /// above 655.35: a cell that cannot be entered is a wall, not a weight.
    pub fn from_multiplier(m: f64) -> Option<Weight> {
        if !m.is_finite() {
            return None;
        }
        let p = (m * 100.0).round();
        if p < 1.0 || p > u16::MAX as f64 {
            None
        } else {
            Some(Weight(p as u16))
        }
    }

    /// The weight as a multiplier (`Weight::ONE` is `1.0`).
    pub fn multiplier(self) -> f64 {
        self.0 as f64 / 100.0
    }
}

impl Default for Weight {
    fn default() -> Self {
        Weight::ONE
    }
}
