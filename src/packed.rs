//! Integer columns stored at half width when every value fits.
//!
//! The hierarchy's largest tables (a cost per edge, a landmark distance per
//! node, the mixed rows of the tiled cell table) usually hold values far
//! below their type's range. Each is kept at half width when all of its
//! values fit, with the "none" sentinel (`MAX`) preserved, and widened on
//! read.

/// A column of `u32` values, stored as `u16` when every value is below
/// `u16::MAX` or is the sentinel `u32::MAX`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Column32 {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for Column32 {
    fn default() -> Self {
        Column32::Wide(Vec::new())
    }
}

impl Column32 {
    /// Packs `values`, narrowing when possible.
    pub(crate) fn pack(values: Vec<u32>) -> Column32 {
        if values
            .iter()
            .all(|v| *v < u16::MAX as u32 || *v == u32::MAX)
        {
            Column32::Narrow(
                values
                    .iter()
                    .map(|v| if *v == u32::MAX { u16::MAX } else { *v as u16 })
                    .collect(),
            )
        } else {
            Column32::Wide(values)
        }
    }

    /// The value at `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u32 {
        match self {
            Column32::Narrow(v) => {
                let x = v[i];
                if x == u16::MAX { u32::MAX } else { x as u32 }
            }
            Column32::Wide(v) => v[i],
        }
    }

    /// Sets the value at `i`, widening the column if `value` does not fit.
    pub(crate) fn set(&mut self, i: usize, value: u32) {
        match self {
            Column32::Narrow(v) if value < u16::MAX as u32 || value == u32::MAX => {
                v[i] = value as u16;
            }
            Column32::Narrow(v) => {
                let mut wide: Vec<u32> = v
                    .iter()
                    .map(|x| if *x == u16::MAX { u32::MAX } else { *x as u32 })
                    .collect();
                wide[i] = value;
                *self = Column32::Wide(wide);
            }
            Column32::Wide(v) => v[i] = value,
        }
    }

    /// Appends `value`, widening the column if it does not fit.
    pub(crate) fn push(&mut self, value: u32) {
        match self {
            Column32::Narrow(v) if value < u16::MAX as u32 || value == u32::MAX => {
                v.push(value as u16);
            }
            Column32::Narrow(_) => {
                let i = self.len();
                self.push(u32::MAX);
                self.set(i, value);
            }
            Column32::Wide(v) => v.push(value),
        }
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        match self {
            Column32::Narrow(v) => v.len(),
            Column32::Wide(v) => v.len(),
        }
    }

    /// Every value, widened.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            Column32::Narrow(v) => v.len() * 2,
            Column32::Wide(v) => v.len() * 4,
        }
    }
}

/// A column of `u64` values, stored as `u32` when every value is below
/// `u32::MAX` or is the sentinel `u64::MAX`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Column64 {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl Default for Column64 {
    fn default() -> Self {
        Column64::Wide(Vec::new())
    }
}

impl Column64 {
    /// Packs `values`, narrowing when possible.
    pub(crate) fn pack(values: Vec<u64>) -> Column64 {
        if values
            .iter()
            .all(|v| *v < u32::MAX as u64 || *v == u64::MAX)
        {
            Column64::Narrow(
                values
                    .iter()
                    .map(|v| if *v == u64::MAX { u32::MAX } else { *v as u32 })
                    .collect(),
            )
        } else {
            Column64::Wide(values)
        }
    }

    /// The value at `i`.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u64 {
        match self {
            Column64::Narrow(v) => {
                let x = v[i];
                if x == u32::MAX { u64::MAX } else { x as u64 }
            }
            Column64::Wide(v) => v[i],
        }
    }

    /// Number of values.
    pub(crate) fn len(&self) -> usize {
        match self {
            Column64::Narrow(v) => v.len(),
            Column64::Wide(v) => v.len(),
        }
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        match self {
            Column64::Narrow(v) => v.len() * 4,
            Column64::Wide(v) => v.len() * 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrows_only_when_values_fit() {
        let c = Column32::pack(vec![0, 7, u32::MAX, 65_534]);
        assert!(matches!(c, Column32::Narrow(_)));
        assert_eq!(c.iter().collect::<Vec<_>>(), vec![0, 7, u32::MAX, 65_534]);
        assert!(matches!(Column32::pack(vec![65_535]), Column32::Wide(_)));
        let d = Column64::pack(vec![3, u64::MAX, (u32::MAX - 1) as u64]);
        assert!(matches!(d, Column64::Narrow(_)));
        assert_eq!(d.get(1), u64::MAX);
        assert_eq!(d.memory_bytes(), 12);
        assert!(matches!(Column64::pack(vec![1 << 40]), Column64::Wide(_)));
    }
}
