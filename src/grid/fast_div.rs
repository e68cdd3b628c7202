//! Division by a fixed divisor with one multiplication, for turning padded
//! indices into coordinates in hot loops.

/// Division by a fixed `u32` divisor with one multiplication (Lemire, Kaser and
/// Kurz, "Faster remainder by direct computation", 2019): exact for every
/// `u32` dividend. Turns padded indices into coordinates in hot loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FastDiv {
    d: u32,
    m: u64,
}

impl FastDiv {
    /// A divider by `d >= 2`.
    pub(crate) fn new(d: u32) -> Self {
        debug_assert!(d >= 2);
        FastDiv {
            d,
            m: u64::MAX / d as u64 + 1,
        }
    }

    /// `(n / d, n % d)`.
    #[inline(always)]
    pub(crate) fn div_rem(&self, n: u32) -> (u32, u32) {
        let q = ((self.m as u128 * n as u128) >> 64) as u32;
        (q, n - q * self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_division_is_exact() {
        for d in [3u32, 7, 66, 1026, 65_537] {
            let f = FastDiv::new(d);
            for n in (0..2_000_000u32).chain([u32::MAX, u32::MAX - 1, u32::MAX - d]) {
                assert_eq!(f.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
