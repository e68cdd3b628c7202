//! A per-cell column stored once per run of equal values.
//!
//! The dead-end stage labels every cell with its anchor block, and on real
//! maps almost every open cell shares its neighbours' anchor: the core block
//! of a big island covers most of the map. [`TileColumn`] cuts the cells
//! (row-major) into tiles of [`TILE`] and keeps, per tile, a bit mask of the
//! cells that hold a value (the rest hold the sentinel `u32::MAX`: walls) and
//! either the one value all of them share or, for a *mixed* tile, a row of
//! [`TILE`] values. On three of the largest StarCraft maps 9% to 19% of the
//! tiles are mixed (small blocks around articulation cells), and the table
//! takes 0.44 to 0.63 bytes per cell instead of two.
//!
//! # Canonical form
//!
//! [`TileColumn::pack_slice`] makes a tile mixed only when its cells differ, and
//! numbers the mixed rows in tile order; an empty or mixed tile's shared value
//! is 0. [`TileColumn::set`] keeps lookups right but may leave a tile mixed
//! whose cells became equal, or rows out of order; [`TileColumn::canonical`]
//! repacks an edited column (saved files hold the canonical form). Equality
//! compares values, not layout.
//!
//! # Performance
//!
//! A lookup is a mask test and one or two array reads; [`TileColumn::pack_slice`]
//! packs a million cells in about a third of a millisecond.

use crate::grid::pack64;
use crate::packed::Column32;

/// Cells per tile.
pub(crate) const TILE: usize = 64;

/// The sentinel: a cell without a value.
const NONE: u32 = u32::MAX;

/// A column of one `u32` per cell, `u32::MAX` for "none", stored per tile of
/// [`TILE`] cells (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct TileColumn {
    len: usize,
    /// Per tile: bit `k` set when cell `TILE * t + k` holds a value.
    pub(crate) present: Vec<u64>,
    /// Per tile: the value every present cell holds (0 when none is, or when
    /// the tile is mixed).
    pub(crate) value: Vec<u32>,
    /// Per tile: its row in `rows` when mixed, else `u32::MAX`.
    pub(crate) row: Vec<u32>,
    /// [`TILE`] values per mixed tile, the sentinel where no value is.
    pub(crate) rows: Column32,
    /// Set by [`TileColumn::set`]: the layout may not be canonical.
    edited: bool,
}

impl TileColumn {
    /// Tiles needed for `len` cells.
    pub(crate) fn tiles_for(len: usize) -> usize {
        len.div_ceil(TILE)
    }

    /// Packs a column held in full as `values`, `none` marking cells without
    /// a value (canonical form). Each tile is two folds over a slice, which
    /// vectorise.
    pub(crate) fn pack_slice<T>(values: &[T], none: T) -> TileColumn
    where
        T: Copy + Eq + Into<u32>,
    {
        let mut packer = TilePacker::with_len(values.len());
        let mut wide = [NONE; TILE];
        for tile in values.chunks(TILE) {
            for (w, v) in wide.iter_mut().zip(tile) {
                *w = if *v == none { NONE } else { (*v).into() };
            }
            packer.push_tile(&wide[..tile.len()]);
        }
        packer.finish()
    }

    /// The same values in canonical form (repacked only after edits).
    pub(crate) fn canonical(&self) -> std::borrow::Cow<'_, TileColumn> {
        if self.edited {
            let values: Vec<u32> = (0..self.len).map(|i| self.get(i)).collect();
            std::borrow::Cow::Owned(TileColumn::pack_slice(&values, NONE))
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// Assembles a column from its parts, as saved (checked by the loader).
    pub(crate) fn from_parts(
        len: usize,
        present: Vec<u64>,
        value: Vec<u32>,
        row: Vec<u32>,
        rows: Column32,
    ) -> TileColumn {
        TileColumn {
            len,
            present,
            value,
            row,
            rows,
            edited: false,
        }
    }

    /// The value of cell `i` (`u32::MAX` when none).
    #[inline]
    pub(crate) fn get(&self, i: usize) -> u32 {
        let (t, k) = (i / TILE, i % TILE);
        if self.present[t] >> k & 1 == 0 {
            return NONE;
        }
        match self.row[t] {
            NONE => self.value[t],
            r => self.rows.get(r as usize * TILE + k),
        }
    }

    /// Sets the value of cell `i` (`u32::MAX` to clear it). A tile whose
    /// cells come to differ gets a row of its own.
    pub(crate) fn set(&mut self, i: usize, value: u32) {
        assert!(i < self.len, "cell {i} of {}", self.len);
        self.edited = true;
        let (t, k) = (i / TILE, i % TILE);
        let bit = 1u64 << k;
        let r = self.row[t];
        if r != NONE {
            self.rows.set(r as usize * TILE + k, value);
        } else if value == NONE {
            // Cleared; the shared value stays right for the rest.
        } else if self.present[t] & !bit == 0 || self.value[t] == value {
            self.value[t] = value;
        } else {
            let r = self.rows.len() / TILE;
            let (shared, mask) = (self.value[t], self.present[t]);
            for j in 0..TILE {
                self.rows
                    .push(if mask >> j & 1 == 1 { shared } else { NONE });
            }
            self.rows.set(r * TILE + k, value);
            self.row[t] = r as u32;
            self.value[t] = 0;
        }
        if value == NONE {
            self.present[t] &= !bit;
        } else {
            self.present[t] |= bit;
        }
    }

    /// Whether mixed row `r` holds a value below `limit` exactly at the set
    /// bits of `open`, and not the same value at all of them (the check of a
    /// loaded table).
    pub(crate) fn row_is_mixed(&self, r: usize, open: u64, limit: u32) -> bool {
        fn check<T: Copy + Into<u32> + PartialEq>(
            row: &[T],
            none: T,
            open: u64,
            limit: u32,
        ) -> bool {
            let first = row[(open.trailing_zeros() as usize).min(TILE - 1)];
            let (mut ok, mut same) = (true, true);
            for (k, a) in row.iter().enumerate() {
                let is_open = open >> k & 1 == 1;
                ok &= (*a != none) == is_open && (*a == none || (*a).into() < limit);
                same &= !is_open || *a == first;
            }
            ok && !same
        }
        let rows = r * TILE..(r + 1) * TILE;
        match &self.rows {
            Column32::Narrow(v) => check(&v[rows], u16::MAX, open, limit),
            Column32::Wide(v) => check(&v[rows], NONE, open, limit),
        }
    }

    /// Adds to `counts[v]` the number of cells holding `v`, for every value
    /// (a uniform tile at once).
    pub(crate) fn count_values(&self, counts: &mut [u32]) {
        for (t, mask) in self.present.iter().enumerate() {
            match self.row[t] {
                _ if *mask == 0 => {}
                NONE => counts[self.value[t] as usize] += mask.count_ones(),
                r => {
                    let mut bits = *mask;
                    while bits != 0 {
                        let k = bits.trailing_zeros() as usize;
                        counts[self.rows.get(r as usize * TILE + k) as usize] += 1;
                        bits &= bits - 1;
                    }
                }
            }
        }
    }

    /// Number of cells.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Number of mixed tiles.
    pub(crate) fn mixed_tiles(&self) -> usize {
        self.rows.len() / TILE
    }

    /// Whether the mixed rows are stored at full width (a value above
    /// `u16::MAX - 1`).
    #[cfg(test)]
    pub(crate) fn is_wide(&self) -> bool {
        matches!(self.rows, Column32::Wide(_))
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.present.len() * 8 + (self.value.len() + self.row.len()) * 4 + self.rows.memory_bytes()
    }
}

impl PartialEq for TileColumn {
    /// Equal values, whatever the layout.
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && (0..self.len).all(|i| self.get(i) == other.get(i))
    }
}

impl Eq for TileColumn {}

/// Builds a [`TileColumn`] (canonical form) from its values in order, a run
/// or a tile at a time, without the column ever held in full: a
/// 16,384 x 16,384 map's anchors would be half a gigabyte at two bytes a
/// cell, for a column of a few megabytes.
pub(crate) struct TilePacker {
    col: TileColumn,
    /// Mixed tiles' values so far.
    rows: Vec<u32>,
    /// The tile being filled, and how many of its cells are.
    tile: [u32; TILE],
    fill: usize,
}

impl TilePacker {
    /// A packer for a column of about `len` cells (only a capacity).
    pub(crate) fn with_len(len: usize) -> TilePacker {
        let tiles = TileColumn::tiles_for(len);
        TilePacker {
            col: TileColumn {
                len: 0,
                present: Vec::with_capacity(tiles),
                value: Vec::with_capacity(tiles),
                row: Vec::with_capacity(tiles),
                rows: Column32::default(),
                edited: false,
            },
            rows: Vec::new(),
            tile: [NONE; TILE],
            fill: 0,
        }
    }

    /// Appends `n` cells holding `value` (`u32::MAX`: none); whole tiles of
    /// them at once.
    pub(crate) fn push_run(&mut self, value: u32, mut n: usize) {
        while n > 0 {
            if self.fill == 0 && n >= TILE {
                let open = value != NONE;
                self.col.present.push(if open { u64::MAX } else { 0 });
                self.col.value.push(if open { value } else { 0 });
                self.col.row.push(NONE);
                self.col.len += TILE;
                n -= TILE;
                continue;
            }
            let k = (TILE - self.fill).min(n);
            self.tile[self.fill..self.fill + k].fill(value);
            self.fill += k;
            n -= k;
            if self.fill == TILE {
                self.fill = 0;
                let tile = self.tile;
                self.push_tile(&tile);
            }
        }
    }

    /// Appends a tile's values (all of [`TILE`], or the column's last
    /// ones) when no partial tile is pending.
    fn push_tile(&mut self, tile: &[u32]) {
        debug_assert_eq!(self.fill, 0);
        let mut open = [false; TILE];
        for (o, v) in open.iter_mut().zip(tile) {
            *o = *v != NONE;
        }
        let mask = pack64(&open[..tile.len()]);
        let first = tile[(mask.trailing_zeros() as usize).min(tile.len() - 1)];
        let same = tile
            .iter()
            .fold(true, |same, v| same & ((*v == NONE) | (*v == first)));
        let c = &mut self.col;
        c.present.push(mask);
        c.len += tile.len();
        if same {
            c.value.push(if mask == 0 { 0 } else { first });
            c.row.push(NONE);
        } else {
            c.value.push(0);
            c.row.push((self.rows.len() / TILE) as u32);
            self.rows.extend_from_slice(tile);
            self.rows
                .resize(self.rows.len().next_multiple_of(TILE), NONE);
        }
    }

    /// The column of every value pushed.
    pub(crate) fn finish(mut self) -> TileColumn {
        if self.fill > 0 {
            let (tile, fill) = (self.tile, self.fill);
            self.fill = 0;
            self.push_tile(&tile[..fill]);
        }
        self.col.rows = Column32::pack(self.rows);
        self.col
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn uniform_tiles_store_one_value() {
        // 200 cells: tiles of walls-and-7, all walls, one odd cell, a tail.
        let values: Vec<u32> = (0..200)
            .map(|i| match i {
                0..64 if i % 3 == 0 => NONE,
                0..64 => 7,
                64..128 => NONE,
                130 => 9,
                _ => 7,
            })
            .collect();
        let c = TileColumn::pack_slice(&values, NONE);
        assert_eq!((0..200).map(|i| c.get(i)).collect::<Vec<_>>(), values);
        assert_eq!(c.present.len(), 4);
        assert_eq!(c.mixed_tiles(), 1);
        assert_eq!(c.row, vec![NONE, NONE, 0, NONE]);
        assert_eq!(c.value, vec![7, 0, 0, 7]);
        assert_eq!(c.present[3], (1 << 8) - 1);
        assert!(!c.is_wide());
        assert_eq!(c.memory_bytes(), 4 * 16 + 64 * 2);
    }

    #[test]
    fn wide_values_widen_the_rows() {
        let values: Vec<u32> = (0..70).map(|i| if i == 3 { 1 << 20 } else { 5 }).collect();
        let c = TileColumn::pack_slice(&values, NONE);
        assert!(c.is_wide());
        assert_eq!(c.get(3), 1 << 20);
        assert_eq!(c.get(69), 5);
    }

    proptest! {
        /// Runs pushed one after another pack exactly as the same values
        /// held in full.
        #[test]
        fn runs_pack_like_the_slice(
            runs in proptest::collection::vec((prop_oneof![Just(NONE), 0u32..3, Just(70_000u32)], 0usize..150), 0..12),
        ) {
            let mut packer = TilePacker::with_len(0);
            let mut plain = Vec::new();
            for (v, n) in runs {
                if n % 3 == 0 {
                    (0..n).for_each(|_| packer.push_run(v, 1));
                } else {
                    packer.push_run(v, n);
                }
                plain.extend(std::iter::repeat_n(v, n));
            }
            let packed = packer.finish();
            let want = TileColumn::pack_slice(&plain, NONE);
            prop_assert_eq!(packed.len(), plain.len());
            prop_assert_eq!(&packed.present, &want.present);
            prop_assert_eq!(&packed.value, &want.value);
            prop_assert_eq!(&packed.row, &want.row);
            prop_assert_eq!(&packed.rows, &want.rows);
            for (i, v) in plain.iter().enumerate() {
                prop_assert_eq!(packed.get(i), *v, "cell {}", i);
            }
        }

        /// Any sequence of sets reads back like a plain vector, and
        /// repacking gives the canonical layout of those values.
        #[test]
        fn sets_read_back_like_a_vector(
            len in 1usize..300,
            init in proptest::collection::vec(prop_oneof![Just(NONE), 0u32..4], 300),
            sets in proptest::collection::vec((0usize..300, prop_oneof![Just(NONE), 0u32..4, Just(70_000u32)]), 0..80),
        ) {
            let mut plain: Vec<u32> = init[..len].to_vec();
            let mut c = TileColumn::pack_slice(&plain, NONE);
            for (i, v) in sets {
                let i = i % len;
                plain[i] = v;
                c.set(i, v);
                prop_assert_eq!(c.get(i), v);
            }
            for (i, v) in plain.iter().enumerate() {
                prop_assert_eq!(c.get(i), *v, "cell {}", i);
            }
            let packed = TileColumn::pack_slice(&plain, NONE);
            let canon = c.canonical();
            prop_assert_eq!(&canon.present, &packed.present);
            prop_assert_eq!(&canon.value, &packed.value);
            prop_assert_eq!(&canon.row, &packed.row);
            prop_assert_eq!(&canon.rows, &packed.rows);
            prop_assert!(c == packed);
            let mut counts = [0u32; 70_001];
            c.count_values(&mut counts);
            for v in [0u32, 1, 2, 3, 70_000] {
                let want = plain.iter().filter(|x| **x == v).count() as u32;
                prop_assert_eq!(counts[v as usize], want, "value {}", v);
            }
        }
    }
}
