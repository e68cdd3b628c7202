//! Division by a fixed divisor with one multiplication, for turning padded
//! indices into coordinates in hot loops.

/// Division by a fixed `u32` divisor with one multiplication (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019): exact for every
/// `u32` dividend. Turns padded indices into coordinates and cells into
/// clusters in hot loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FastDiv {
    d: u32,
    /// `ceil(2^64 / d)`, 0 for `d == 1` (whose `2^64` does not fit).
    m: u64,
    /// All ones for `d == 1`, which adds the dividend itself, else 0.
    one: u32,
}

impl FastDiv {
    /// A divider by `d >= 1` (0 is taken as 1).
    pub(crate) fn new(d: u32) -> Self {
        let d = d.max(1);
        FastDiv {
            d,
            m: (u64::MAX / d as u64).wrapping_add(1),
            one: if d == 1 { u32::MAX } else { 0 },
        }
    }

    /// `n / d`.
    #[inline(always)]
    pub(crate) fn div(&self, n: u32) -> u32 {
        ((self.m as u128 * n as u128) >> 64) as u32 + (n & self.one)
    }

    /// `(n / d, n % d)`.
    #[inline(always)]
    pub(crate) fn div_rem(&self, n: u32) -> (u32, u32) {
        let q = self.div(n);
        (q, n - q * self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_division_is_exact() {
        for d in [1u32, 2, 3, 7, 32, 66, 1026, 65_537, u32::MAX] {
            let f = FastDiv::new(d);
            for n in (0..2_000_000u32).chain([u32::MAX, u32::MAX - 1, u32::MAX - d]) {
                assert_eq!(f.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
