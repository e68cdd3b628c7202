//! Packing passability booleans into the bits of bytes and words.

/// The low bits of eight 0/1 bytes as one byte, bit `k` from byte `k`: one
/// multiplication lands byte `k` on bit `56 + k`, with no carries.
#[inline(always)]
fn gather8(bytes: [u8; 8]) -> u8 {
    (u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Packs up to eight booleans into the bits of a byte, bit `k` for
/// `cells[k]`.
#[inline]
fn pack8(cells: &[bool]) -> u8 {
    let mut bytes = [0u8; 8];
    for (b, c) in bytes.iter_mut().zip(cells) {
        *b = *c as u8;
    }
    gather8(bytes)
}

/// Packs up to 64 booleans into the bits of a word, bit `k` for `cells[k]`.
/// Whole groups of eight are read as one word each.
#[inline]
pub(crate) fn pack64(cells: &[bool]) -> u64 {
    debug_assert!(cells.len() <= 64);
    let mut groups = cells.chunks_exact(8);
    let mut word = 0u64;
    for (k, group) in (&mut groups).enumerate() {
        let group: &[bool; 8] = group.try_into().expect("8 cells");
        word |= (gather8(group.map(u8::from)) as u64) << (8 * k);
    }
    let rest = groups.remainder();
    if !rest.is_empty() {
        word |= (pack8(rest) as u64) << (cells.len() - rest.len());
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_puts_cell_k_on_bit_k() {
        for m in 0..256u32 {
            let cells: Vec<bool> = (0..8).map(|i| m & (1 << i) != 0).collect();
            assert_eq!(pack8(&cells) as u32, m);
            assert_eq!(pack8(&cells[..5]) as u32, m & 0x1f);
        }
        for len in [0, 1, 9, 63, 64] {
            let cells: Vec<bool> = (0..len).map(|k| k % 3 == 0 || k == 62).collect();
            let want = cells
                .iter()
                .enumerate()
                .fold(0u64, |m, (k, c)| m | (*c as u64) << k);
            assert_eq!(pack64(&cells), want, "{len} cells");
        }
    }
}
