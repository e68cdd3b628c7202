//! The passability bitsets jump point search scans, and the scans.
//!
//! A [`BitLines`] holds one bit per padded cell, line by line: the map's rows
//! (bit `x` of line `y`) for horizontal jumps, and its columns (bit `y` of
//! line `x`, the transpose) for vertical ones, so both are scans along a line
//! of bits. Each line starts with a guard word of zeros and ends with zeros,
//! so a 64-bit window may be read at any position of the line (or reaching
//! 63 bits before its start) with no bounds arithmetic: padding and guards
//! read as blocked.
//!
//! A straight jump reads three windows (its own line and the two beside it)
//! and finds, in one word operation, every cell of the 63 ahead that stops the
//! jump: a blocked cell (the jump ends before it) or a *forced* cell, where a
//! line beside turns from blocked to passable (with corner cutting forbidden,
//! the cell beside it can then be reached optimally only through this one; when
//! cutting corners, the turn is one cell earlier, see [`forced_up`]).

use super::rules::{IF_ONE_FREE, Rule, stops_behind};
use crate::grid::pack64;

/// One bit per padded cell, in lines of words with a zero guard word in front.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct BitLines {
    /// Words per line.
    stride: usize,
    words: Vec<u64>,
}

/// Bit offset of position 0 in a line: one guard word.
const GUARD: usize = 64;

/// Transposes a 64 x 64 matrix of bits in place: bit `j` of word `i`
/// becomes bit `i` of word `j` (swapping ever smaller off-diagonal blocks).
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut mask: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & mask;
            a[k] ^= t << j;
            a[k + j] ^= t;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        mask ^= mask << j;
    }
}

impl BitLines {
    /// Words per line of `len` bits: the guard word, the bits, and one more
    /// (a window at the last position reads the word after it too).
    fn stride(len: u32) -> usize {
        (GUARD + len as usize).div_ceil(64) + 1
    }

    /// The rows of a padded map, `open` row-major with `len` cells a row: bit
    /// `x` of line `y` is `open[y * len + x]`. Packed 64 cells to a word.
    pub(super) fn rows(open: &[bool], len: u32) -> BitLines {
        let stride = BitLines::stride(len);
        let lines = open.len() / len as usize;
        let mut words = vec![0u64; stride * lines];
        for (row, cells) in words
            .chunks_exact_mut(stride)
            .zip(open.chunks_exact(len as usize))
        {
            // The guard is one whole word: position `64 k` starts word `k + 1`.
            for (word, chunk) in row[GUARD / 64..].iter_mut().zip(cells.chunks(64)) {
                *word = pack64(chunk);
            }
        }
        BitLines { stride, words }
    }

    /// The transpose of `rows` (lines of `len` bits each): line `x` bit `y`
    /// is bit `x` of line `y`. Transposes 64 x 64 blocks of bits.
    pub(super) fn transposed(rows: &BitLines, len: u32) -> BitLines {
        let lines = (rows.words.len() / rows.stride) as u32;
        let stride = BitLines::stride(lines);
        let mut words = vec![0u64; stride * len as usize];
        let mut block = [0u64; 64];
        for band in 0..lines.div_ceil(64) {
            for k in 0..len.div_ceil(64) {
                // Rows 64 band.., positions 64 k..: word k + 1 of each row.
                for (i, b) in block.iter_mut().enumerate() {
                    let y = (band * 64) as usize + i;
                    *b = if y < lines as usize {
                        rows.words[y * rows.stride + GUARD / 64 + k as usize]
                    } else {
                        0
                    };
                }
                transpose64(&mut block);
                for (j, b) in block.iter().enumerate() {
                    let x = (k * 64) as usize + j;
                    if x < len as usize {
                        words[x * stride + GUARD / 64 + band as usize] = *b;
                    }
                }
            }
        }
        BitLines { stride, words }
    }

    /// `lines` lines of `len` bits; bit `pos` of line `line` is `bit(line, pos)`.
    #[cfg(test)]
    pub(super) fn new(lines: u32, len: u32, mut bit: impl FnMut(u32, u32) -> bool) -> BitLines {
        let stride = BitLines::stride(len);
        let mut words = vec![0u64; stride * lines as usize];
        for line in 0..lines {
            let row = &mut words[line as usize * stride..(line as usize + 1) * stride];
            for pos in 0..len {
                if bit(line, pos) {
                    let b = GUARD + pos as usize;
                    row[b / 64] |= 1 << (b % 64);
                }
            }
        }
        BitLines { stride, words }
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.words.capacity() * 8
    }

    /// The 64 bits starting at guard-offset bit `b` of `line`.
    #[inline(always)]
    fn read(&self, line: u32, b: usize) -> u64 {
        self.read_at(line as usize * self.stride + b / 64, b % 64)
    }

    /// The 64 bits starting at bit `s` of word `i`.
    #[inline(always)]
    fn read_at(&self, i: usize, s: usize) -> u64 {
        let pair = &self.words[i..i + 2];
        // `(hi << 1) << (63 - s)` is `hi << (64 - s)`, and zero when s = 0.
        (pair[0] >> s) | ((pair[1] << 1) << (63 - s))
    }

    /// The windows at guard-offset bit `b` of lines `line - 1`, `line` and
    /// `line + 1`.
    #[inline(always)]
    fn read3(&self, line: u32, b: usize) -> (u64, u64, u64) {
        let (i, s) = (line as usize * self.stride + b / 64, b % 64);
        (
            self.read_at(i - self.stride, s),
            self.read_at(i, s),
            self.read_at(i + self.stride, s),
        )
    }

    /// Bits `pos..pos + 64` of `line`, `pos` on bit 0.
    #[inline(always)]
    pub(super) fn ahead(&self, line: u32, pos: u32) -> u64 {
        self.read(line, GUARD + pos as usize)
    }

    /// Bit `pos` of `line`.
    #[inline(always)]
    pub(super) fn get(&self, line: u32, pos: u32) -> bool {
        let b = GUARD + pos as usize;
        self.words[line as usize * self.stride + b / 64] >> (b % 64) & 1 != 0
    }

    /// Sets bit `pos` of `line` to `on`.
    pub(super) fn set(&mut self, line: u32, pos: u32, on: bool) {
        let b = GUARD + pos as usize;
        let word = &mut self.words[line as usize * self.stride + b / 64];
        let mask = 1u64 << (b % 64);
        if on {
            *word |= mask;
        } else {
            *word &= !mask;
        }
    }

    /// Jumps from `pos` towards higher positions along `line` (a real line,
    /// not padding): the first cell after `pos` that stops the jump, and
    /// whether it is a jump point (passable and forced) rather than the
    /// blocked cell that ends the line of sight. `R` is the movement rule,
    /// which says which cells are forced (see [`forced_up`]).
    #[inline(always)]
    pub(super) fn jump_up<const R: Rule>(&self, line: u32, pos: u32) -> (u32, bool) {
        let mut at = pos;
        loop {
            let (a, own, b) = self.read3(line, GUARD + at as usize);
            // Bit k > 0: cell at + k blocked, or forced. Bit 0 is `at`,
            // already passed.
            let stops = (!own | forced_up::<R>(a, own, b)) & !1;
            if stops != 0 {
                let k = stops.trailing_zeros();
                return (at + k, own >> k & 1 != 0);
            }
            at += advance::<R>();
        }
    }

    /// [`jump_up`](BitLines::jump_up) towards lower positions.
    #[inline(always)]
    pub(super) fn jump_down<const R: Rule>(&self, line: u32, pos: u32) -> (u32, bool) {
        let mut at = pos;
        loop {
            let (a, own, b) = self.read3(line, GUARD + at as usize - 63);
            // Mirror image: bit 63 is `at`, bit 63 - k is `at - k`.
            let stops = (!own | forced_down::<R>(a, own, b)) & !(1 << 63);
            if stops != 0 {
                let k = stops.leading_zeros();
                return (at - k, own >> (63 - k) & 1 != 0);
            }
            // No stop: the cells down to the next window's start are
            // passable, so not the padding at 0.
            at -= advance::<R>();
        }
    }
}

/// How far a jump's window moves when it found no stop: 63 cells (bit 0 is
/// the cell already passed), or 62 when a cell's stop depends on the cell
/// after it, which the window's last bit does not hold.
#[inline(always)]
const fn advance<const R: Rule>() -> u32 {
    if stops_behind(R) { 63 } else { 62 }
}

/// The forced cells of a window read towards higher positions (bit `k` is
/// cell `at + k`), from the lines beside (`a`, `b`) and the line itself:
///
/// * without corner cutting (and 4-connected), where a line beside is
///   passable but blocked one cell behind: the cell beside can be reached
///   optimally only through this one;
/// * cutting corners, where a line beside is blocked but passable one cell
///   ahead: the diagonal past the blocked cell turns there (and under
///   [`IF_ONE_FREE`] only when the line itself goes on, which makes that
///   diagonal legal). The last bit is never forced: its next cell is not in
///   the window.
#[inline(always)]
fn forced_up<const R: Rule>(a: u64, own: u64, b: u64) -> u64 {
    if stops_behind(R) {
        (a & !(a << 1)) | (b & !(b << 1))
    } else {
        let turns = (!a & (a >> 1)) | (!b & (b >> 1));
        if R == IF_ONE_FREE {
            turns & (own >> 1)
        } else {
            turns
        }
    }
}

/// [`forced_up`] for a window read towards lower positions (bit `63 - k`
/// is cell `at - k`); the first bit is never forced when cutting corners.
#[inline(always)]
fn forced_down<const R: Rule>(a: u64, own: u64, b: u64) -> u64 {
    if stops_behind(R) {
        (a & !(a >> 1)) | (b & !(b >> 1))
    } else {
        let turns = (!a & (a << 1)) | (!b & (b << 1));
        if R == IF_ONE_FREE {
            turns & (own << 1)
        } else {
            turns
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::{ALWAYS, FOUR, NEVER};
    use super::*;

    /// The same jump, one cell at a time, under `rule`.
    fn slow_jump(
        rule: Rule,
        open: &dyn Fn(i64, i64) -> bool,
        line: i64,
        pos: i64,
        step: i64,
    ) -> (i64, bool) {
        let mut at = pos;
        loop {
            at += step;
            if !open(line, at) {
                return (at, false);
            }
            for side in [line - 1, line + 1] {
                let forced = if stops_behind(rule) {
                    open(side, at) && !open(side, at - step)
                } else {
                    !open(side, at)
                        && open(side, at + step)
                        && (rule != IF_ONE_FREE || open(line, at + step))
                };
                if forced {
                    return (at, true);
                }
            }
        }
    }

    /// Word jumps equal cell-by-cell jumps under rule `R`, from every cell.
    fn check_rule<const R: Rule>() {
        // Three long lines of pseudo-random cells, padding blocked at both ends.
        let len = 2000u32;
        let mut state = 0x1234_5678_9abc_def0u64 ^ R as u64;
        let mut cells = vec![vec![false; len as usize]; 5];
        for (l, line) in cells.iter_mut().enumerate().skip(1).take(3) {
            for c in line.iter_mut().skip(1).take(len as usize - 2) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly open lines (mostly blocked beside, when a stop is a
                // turn from blocked to open), so jumps run across words.
                let percent = match (l, R) {
                    (2, _) => 99,
                    (_, NEVER) | (_, FOUR) => 1,
                    _ => 99,
                };
                *c = state % 100 < percent;
            }
        }
        let open = |l: i64, p: i64| cells[l as usize][p as usize];
        let bits = BitLines::new(5, len, |l, p| cells[l as usize][p as usize]);
        let mut far = 0;
        for pos in 1..len - 1 {
            assert_eq!(bits.get(2, pos), open(2, pos as i64));
            if !open(2, pos as i64) {
                continue;
            }
            let (up, forced) = bits.jump_up::<R>(2, pos);
            assert_eq!(
                (up as i64, forced),
                slow_jump(R, &open, 2, pos as i64, 1),
                "rule {R}, up from {pos}"
            );
            let (down, forced) = bits.jump_down::<R>(2, pos);
            assert_eq!(
                (down as i64, forced),
                slow_jump(R, &open, 2, pos as i64, -1),
                "rule {R}, down from {pos}"
            );
            far = far.max(up - pos).max(pos - down);
        }
        assert!(far > 64, "rule {R}: no jump crossed a word ({far})");
    }

    #[test]
    fn packed_rows_and_their_transpose_hold_every_cell() {
        for (len, lines) in [(1, 1), (5, 3), (64, 64), (70, 130), (130, 67)] {
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            let open: Vec<bool> = (0..len * lines)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    !x.is_multiple_of(3)
                })
                .collect();
            let at = |line: u32, pos: u32| open[(line * len + pos) as usize];
            let rows = BitLines::rows(&open, len);
            assert_eq!(rows, BitLines::new(lines, len, at), "rows {len} x {lines}");
            assert_eq!(
                BitLines::transposed(&rows, len),
                BitLines::new(len, lines, |x, y| at(y, x)),
                "columns {len} x {lines}"
            );
        }
    }

    #[test]
    fn word_jumps_match_cell_by_cell_jumps() {
        check_rule::<NEVER>();
        check_rule::<IF_ONE_FREE>();
        check_rule::<ALWAYS>();
        check_rule::<FOUR>();
    }
}
