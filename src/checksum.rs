//! A fast word-wise hash for map fingerprints and file checksums.
//!
//! Input is read as little-endian 8-byte words dealt round-robin to four
//! lanes; each lane folds its words in by `h = (h ^ word) * K` then a
//! rotation. For a fixed word each step is a bijection of the lane, and the
//! lanes are combined by a bijective mix of their rotated XOR with the length,
//! so changing any one byte of the input always changes the result. Four
//! independent lanes let the processor overlap the multiplications: a few
//! megabytes hash in about a millisecond. Not cryptographic.

/// An incremental word-wise hasher.
#[derive(Debug, Clone)]
pub(crate) struct WordHasher {
    lanes: [u64; 4],
    /// Index of the lane the next word goes to.
    next: usize,
    pending: [u8; 8],
    len: usize,
    total: u64,
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl WordHasher {
    pub(crate) fn new() -> Self {
        WordHasher {
            lanes: [
                0x243F_6A88_85A3_08D3,
                0x1319_8A2E_0370_7344,
                0xA409_3822_299F_31D0,
                0x082E_FA98_EC4E_6C89,
            ],
            next: 0,
            pending: [0; 8],
            len: 0,
            total: 0,
        }
    }

    #[inline(always)]
    fn fold(lane: u64, w: u64) -> u64 {
        (lane ^ w).wrapping_mul(K).rotate_left(29)
    }

    #[inline(always)]
    fn word(&mut self, w: u64) {
        self.lanes[self.next] = Self::fold(self.lanes[self.next], w);
        self.next = (self.next + 1) & 3;
    }

    /// Hashes `bytes` (the split of input into calls does not matter).
    pub(crate) fn write(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        if self.len > 0 {
            let take = (8 - self.len).min(bytes.len());
            self.pending[self.len..self.len + take].copy_from_slice(&bytes[..take]);
            self.len += take;
            bytes = &bytes[take..];
            if self.len < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.len = 0;
        }
        // Whole groups of four words, one per lane, while aligned on lane 0.
        while self.next != 0 && bytes.len() >= 8 {
            self.word(u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")));
            bytes = &bytes[8..];
        }
        let mut groups = bytes.chunks_exact(32);
        for g in &mut groups {
            let w = |i: usize| u64::from_le_bytes(g[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            self.lanes[0] = Self::fold(self.lanes[0], w(0));
            self.lanes[1] = Self::fold(self.lanes[1], w(1));
            self.lanes[2] = Self::fold(self.lanes[2], w(2));
            self.lanes[3] = Self::fold(self.lanes[3], w(3));
        }
        let mut words = groups.remainder().chunks_exact(8);
        for c in &mut words {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.len = rest.len();
    }

    /// Hashes one `u64` as its 8 little-endian bytes.
    pub(crate) fn write_u64(&mut self, v: u64) {
        self.write(&v.to_le_bytes());
    }

    /// The hash of everything written.
    pub(crate) fn finish(mut self) -> u64 {
        if self.len > 0 {
            let mut last = [0u8; 8];
            last[..self.len].copy_from_slice(&self.pending[..self.len]);
            self.word(u64::from_le_bytes(last));
        }
        let [a, b, c, d] = self.lanes;
        let mut h = Self::fold(
            a ^ b.rotate_left(16) ^ c.rotate_left(32) ^ d.rotate_left(48),
            self.total,
        );
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^ (h >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash(b: &[u8]) -> u64 {
        let mut h = WordHasher::new();
        h.write(b);
        h.finish()
    }

    #[test]
    fn split_does_not_matter_and_bytes_do() {
        let data: Vec<u8> = (0..200u8).collect();
        for cut in [0, 1, 7, 8, 13, 31, 32, 33, 100, 199] {
            let mut h = WordHasher::new();
            h.write(&data[..cut]);
            h.write(&data[cut..cut.max(cut + 1).min(data.len())]);
            h.write(&data[(cut + 1).min(data.len())..]);
            assert_eq!(h.finish(), hash(&data), "cut at {cut}");
        }
        for i in 0..data.len() {
            let mut d = data.clone();
            d[i] ^= 0x40;
            assert_ne!(hash(&d), hash(&data), "byte {i}");
        }
        assert_ne!(hash(&data[..199]), hash(&data));
        assert_ne!(hash(&[0]), hash(&[0, 0]));
    }
}
