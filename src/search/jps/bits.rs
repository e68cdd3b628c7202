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
//! the cell beside it can then be reached optimally only through this one).

/// One bit per padded cell, in lines of words with a zero guard word in front.
#[derive(Debug, Clone, Default)]
pub(super) struct BitLines {
    /// Words per line.
    stride: usize,
    words: Vec<u64>,
}

/// Bit offset of position 0 in a line: one guard word.
const GUARD: usize = 64;

impl BitLines {
    /// `lines` lines of `len` bits; bit `pos` of line `line` is `bit(line, pos)`.
    pub(super) fn new(lines: u32, len: u32, mut bit: impl FnMut(u32, u32) -> bool) -> BitLines {
        // A window at the last position reads the word after it too.
        let stride = (GUARD + len as usize).div_ceil(64) + 1;
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

    /// Jumps from `pos` towards higher positions along `line` (a real line,
    /// not padding): the first cell after `pos` that stops the jump, and
    /// whether it is a jump point (passable and forced) rather than the
    /// blocked cell that ends the line of sight.
    #[inline(always)]
    pub(super) fn jump_up(&self, line: u32, pos: u32) -> (u32, bool) {
        let mut at = pos;
        loop {
            let (a, own, b) = self.read3(line, GUARD + at as usize);
            // Bit k > 0: cell at + k blocked, or a line beside passable at
            // at + k but blocked at at + k - 1. Bit 0 is `at`, already passed.
            let stops = (!own | (a & !(a << 1)) | (b & !(b << 1))) & !1;
            if stops != 0 {
                let k = stops.trailing_zeros();
                return (at + k, own >> k & 1 != 0);
            }
            at += 63;
        }
    }

    /// [`jump_up`](BitLines::jump_up) towards lower positions.
    #[inline(always)]
    pub(super) fn jump_down(&self, line: u32, pos: u32) -> (u32, bool) {
        let mut at = pos;
        loop {
            let (a, own, b) = self.read3(line, GUARD + at as usize - 63);
            // Mirror image: bit 63 is `at`, bit 63 - k is `at - k`.
            let stops = (!own | (a & !(a >> 1)) | (b & !(b >> 1))) & !(1 << 63);
            if stops != 0 {
                let k = stops.leading_zeros();
                return (at - k, own >> (63 - k) & 1 != 0);
            }
            // No stop: `at - 63` is passable, so not the padding at 0.
            at -= 63;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same jump, one cell at a time.
    fn slow_jump(open: &dyn Fn(i64, i64) -> bool, line: i64, pos: i64, step: i64) -> (i64, bool) {
        let mut at = pos;
        loop {
            at += step;
            if !open(line, at) {
                return (at, false);
            }
            for side in [line - 1, line + 1] {
                if open(side, at) && !open(side, at - step) {
                    return (at, true);
                }
            }
        }
    }

    #[test]
    fn word_jumps_match_cell_by_cell_jumps() {
        // Three long lines of pseudo-random cells, padding blocked at both ends.
        let len = 300u32;
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut cells = vec![vec![false; len as usize]; 5];
        for (l, line) in cells.iter_mut().enumerate().skip(1).take(3) {
            for c in line.iter_mut().skip(1).take(len as usize - 2) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // The middle line is mostly open, so jumps run across words.
                *c = state % 100 < if l == 2 { 97 } else { 60 };
            }
        }
        let open = |l: i64, p: i64| cells[l as usize][p as usize];
        let bits = BitLines::new(5, len, |l, p| cells[l as usize][p as usize]);
        for pos in 1..len - 1 {
            assert_eq!(bits.get(2, pos), open(2, pos as i64));
            if !open(2, pos as i64) {
                continue;
            }
            let (up, forced) = bits.jump_up(2, pos);
            assert_eq!((up as i64, forced), slow_jump(&open, 2, pos as i64, 1));
            let (down, forced) = bits.jump_down(2, pos);
            assert_eq!((down as i64, forced), slow_jump(&open, 2, pos as i64, -1));
        }
    }
}
