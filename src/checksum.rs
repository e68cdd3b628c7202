//! A fast word-wise hash for map fingerprints and file checksums.
//!
//! Each 8-byte word is folded in by `h = (h ^ word) * K` then a rotation: every
//! step is a bijection of `h` for a fixed word, so changing any one byte of the
//! input always changes the result, and whole words are hashed at a time (a
//! megabyte in well under a millisecond). Not cryptographic.

/// An incremental word-wise hasher.
#[derive(Debug, Clone)]
pub(crate) struct WordHasher {
    h: u64,
    pending: [u8; 8],
    len: usize,
    total: u64,
}

const K: u64 = 0x9E37_79B9_7F4A_7C15;

impl WordHasher {
    pub(crate) fn new() -> Self {
        WordHasher {
            h: 0x243F_6A88_85A3_08D3,
            pending: [0; 8],
            len: 0,
            total: 0,
        }
    }

    #[inline(always)]
    fn word(&mut self, w: u64) {
        self.h = (self.h ^ w).wrapping_mul(K).rotate_left(29);
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
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
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
        let total = self.total;
        self.word(total);
        let mut h = self.h;
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
        let data: Vec<u8> = (0..100u8).collect();
        let mut h = WordHasher::new();
        h.write(&data[..13]);
        h.write(&data[13..14]);
        h.write(&data[14..]);
        assert_eq!(h.finish(), hash(&data));
        for i in 0..data.len() {
            let mut d = data.clone();
            d[i] ^= 0x40;
            assert_ne!(hash(&d), hash(&data), "byte {i}");
        }
        assert_ne!(hash(&data[..99]), hash(&data));
        assert_ne!(hash(&[0]), hash(&[0, 0]));
    }
}
