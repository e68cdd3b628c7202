//! How far a found length may lie from a scenario's printed optimum.
//!
//! Scenario files print optimal lengths rounded, and not all alike: the Moving
//! AI sets bundled with HOG2 print six significant digits (`746.34`,
//! `1179.8`), others two decimals (`12.66` for 12.65685). A length is taken to
//! match its printed optimum when it lies within half a unit of the printed
//! last digit (`12.66`: 0.005; `4786`: 0.5), plus the slack of the diagonal
//! cost (sqrt 2 is stored as 14,142 ten-thousandths: up to 9.6e-6 low,
//! relative).
//!
//! Where the printed optimum is coarse (its half unit above 1/20,000 of the
//! optimum: `12.66`, `4786`), it cannot tell an optimal path from one a
//! little longer; `solve` then judges the planner against exact A* on the
//! same query, and `bench` always does.

use std::path::Path;

/// Relative slack for the diagonal cost's rounding (14,142 for
/// 14,142.1356...; 9.6e-6 relative at most), with a margin.
const DIAGONAL_SLACK: f64 = 1.2e-5;

/// An optimum whose printed half unit exceeds this share of it is coarse:
/// exact A* judges optimality instead (`12.66`: 4e-4; `746.34`: 6.7e-6).
const COARSE_SHARE: f64 = 5e-5;

/// The number of decimals each line of a scenario file prints for its
/// optimum (its last field), by 1-based line number.
#[derive(Debug, Clone, Default)]
pub struct Printed {
    decimals: Vec<u32>,
}

impl Printed {
    /// Reads the printed precision of every line of the scenario at `path`
    /// (already parsed by the library, so well formed). Unreadable files give
    /// the default precision (eight decimals) on every line.
    pub fn read(path: &Path) -> Printed {
        std::fs::read(path)
            .map(|bytes| Printed::parse(&bytes))
            .unwrap_or_default()
    }

    /// The printed precision of every line of a scenario's text.
    pub fn parse(bytes: &[u8]) -> Printed {
        let decimals = bytes
            .split(|b| *b == b'\n')
            .map(|line| {
                let last = line
                    .rsplit(|b| b.is_ascii_whitespace())
                    .find(|w| !w.is_empty())
                    .unwrap_or_default();
                match last.iter().position(|b| *b == b'.') {
                    Some(dot) => (last.len() - dot - 1) as u32,
                    None => 0,
                }
            })
            .collect();
        Printed { decimals }
    }

    /// Decimals printed on `line` (1-based); eight when unknown.
    pub fn decimals(&self, line: usize) -> u32 {
        line.checked_sub(1)
            .and_then(|i| self.decimals.get(i))
            .copied()
            .unwrap_or(8)
    }

    /// Whether `optimal`, printed on `line`, is too coarse to judge
    /// optimality by: half a unit of its last digit is more than 1/20,000 of
    /// it.
    pub fn is_coarse(&self, line: usize, optimal: f64) -> bool {
        self.half_unit(line) > COARSE_SHARE * optimal.abs()
    }

    /// Half a unit of the last digit printed on `line`.
    fn half_unit(&self, line: usize) -> f64 {
        0.5 * 10f64.powi(-(self.decimals(line).min(15) as i32))
    }

    /// How far a length may lie from `optimal`, printed on `line`, and still
    /// match it: half a unit of the last printed digit, plus the diagonal
    /// cost's slack.
    pub fn tolerance(&self, line: usize, optimal: f64) -> f64 {
        self.half_unit(line) + DIAGONAL_SLACK * optimal.abs()
    }

    /// Whether `found` matches `optimal` as printed on `line`.
    pub fn matches(&self, line: usize, found: f64, optimal: f64) -> bool {
        (found - optimal).abs() <= self.tolerance(line, optimal)
    }

    /// Whether `found` is shorter than `optimal` as printed on `line` can
    /// allow: impossible for a valid path.
    pub fn is_below(&self, line: usize, found: f64, optimal: f64) -> bool {
        found < optimal - self.tolerance(line, optimal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_follows_each_line() {
        let p = Printed::parse(
            b"version 1\n0\tm.map\t9\t9\t0\t0\t8\t8\t12.66\n\
              0\tm.map\t9\t9\t0\t0\t8\t8\t12.65685425\r\n0 m.map 9 9 0 0 8 0 8\n",
        );
        assert_eq!((p.decimals(2), p.decimals(3), p.decimals(4)), (2, 8, 0));
        assert_eq!(p.decimals(99), 8);
        let exact = 8.0 * std::f64::consts::SQRT_2 + 1.34314575;
        // 12.65685 printed as 12.66 matches; as 12.65685425 it is exact.
        assert!(p.matches(2, 12.65685, 12.66));
        assert!(!p.is_below(2, 12.65685, 12.66));
        assert!(p.matches(3, exact, 12.65685425));
        // A path one diagonal-for-straight swap longer does not match.
        assert!(!p.matches(2, 12.66 + 0.41421, 12.66));
        // Shorter by more than the printed rounding is impossible.
        assert!(p.is_below(2, 12.64, 12.66));
        assert!(p.matches(4, 8.4, 8.0) && !p.matches(4, 8.6, 8.0));
        assert!(p.is_coarse(2, 12.66) && !p.is_coarse(3, 12.65685425));
        assert!(p.is_coarse(4, 8.0) && !p.is_coarse(2, 746.34));
    }
}
