//! The nodes one jump point search reached: a dense list of slots (cost,
//! parent, closed), in the order reached, and an index from padded cell to
//! slot.
//!
//! The index is an open-addressing table sized to the nodes reached (at most
//! half full), not an array over the map: a search reaches a few thousand
//! jump points of a million cells, and an array's look-ups miss the cache at
//! every one (a 4-byte-a-cell array cost a third of the search time on the
//! large sc1 maps; this table stays in L2). Neither is ever cleared: a table
//! entry counts only when the slot it names is in the current list and holds
//! that cell, so a search starts in O(1) whatever the last one left.

/// A node the current search reached: 16 bytes.
#[derive(Debug, Clone, Copy)]
pub(super) struct Slot {
    /// Cost from the start.
    pub g: u64,
    /// The padded cell, with [`CLOSED`] set once expanded.
    pub node: u32,
    /// The slot of the node it was reached from, or [`NO_PARENT`].
    pub parent: u32,
}

/// Flag on [`Slot::node`]: expanded. Padded indices stay below 2^31.
pub(super) const CLOSED: u32 = 1 << 31;

/// [`Slot::parent`] of the start.
pub(super) const NO_PARENT: u32 = u32::MAX;

/// The first table size.
const MIN_TABLE: usize = 1 << 10;

/// The reached nodes of one search.
#[derive(Debug, Clone, Default)]
pub(super) struct Reached {
    /// `cell << 32 | slot`, power-of-two length.
    table: Vec<u64>,
    slots: Vec<Slot>,
}

/// Where a cell is, or would go.
pub(super) enum Lookup {
    /// In this slot.
    Found(u32),
    /// Not reached yet; this table entry is free for it.
    Vacant(usize),
}

impl Reached {
    /// Forgets every node, in O(1).
    #[inline]
    pub(super) fn clear(&mut self) {
        self.slots.clear();
        if self.table.is_empty() {
            self.table = vec![0; MIN_TABLE];
        }
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.table.capacity() * 8 + self.slots.capacity() * std::mem::size_of::<Slot>()
    }

    /// Every node reached, in the order reached.
    pub(super) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The slot at index `s`.
    #[inline(always)]
    pub(super) fn slot(&self, s: u32) -> &Slot {
        &self.slots[s as usize]
    }

    /// The slot at index `s`, to update.
    #[inline(always)]
    pub(super) fn slot_mut(&mut self, s: u32) -> &mut Slot {
        &mut self.slots[s as usize]
    }

    /// The cell of table entry `e` when the entry belongs to this search.
    #[inline(always)]
    fn live(&self, e: u64) -> Option<u32> {
        let (cell, s) = ((e >> 32) as u32, e as u32);
        match self.slots.get(s as usize) {
            Some(slot) if slot.node & !CLOSED == cell => Some(cell),
            _ => None,
        }
    }

    /// Finds `cell` (linear probing from its Fibonacci hash).
    #[inline(always)]
    pub(super) fn find(&self, cell: u32) -> Lookup {
        let mask = self.table.len() - 1;
        let mut i = (cell.wrapping_mul(0x9e37_79b1) as usize) & mask;
        loop {
            let e = self.table[i];
            match self.live(e) {
                Some(c) if c == cell => return Lookup::Found(e as u32),
                Some(_) => i = (i + 1) & mask,
                None => return Lookup::Vacant(i),
            }
        }
    }

    /// Adds `slot` (not reached before) at the vacant entry `at` that
    /// [`find`](Reached::find) gave; returns its slot index.
    #[inline(always)]
    pub(super) fn insert(&mut self, at: usize, slot: Slot) -> u32 {
        let s = self.slots.len() as u32;
        self.table[at] = (slot.node as u64) << 32 | s as u64;
        self.slots.push(slot);
        if self.slots.len() * 2 > self.table.len() {
            self.grow();
        }
        s
    }

    /// Doubles the table and re-enters every slot.
    #[cold]
    fn grow(&mut self) {
        self.table = vec![0; self.table.len() * 2];
        for s in 0..self.slots.len() as u32 {
            let cell = self.slots[s as usize].node & !CLOSED;
            if let Lookup::Vacant(at) = self.find(cell) {
                self.table[at] = (cell as u64) << 32 | s as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_was_inserted_across_clears_and_growth() {
        let mut r = Reached::default();
        for round in 0..3u32 {
            r.clear();
            // Cells that collide in a small table, and more than fit in it.
            let cells: Vec<u32> = (0..3000).map(|i| 7 + i * 1024 + round).collect();
            for (k, &c) in cells.iter().enumerate() {
                let Lookup::Vacant(at) = r.find(c) else {
                    panic!("round {round}: {c} found before insertion");
                };
                let s = r.insert(
                    at,
                    Slot {
                        g: k as u64,
                        node: c,
                        parent: NO_PARENT,
                    },
                );
                assert_eq!(s as usize, k);
                if k % 3 == 0 {
                    r.slot_mut(s).node |= CLOSED;
                }
            }
            for (k, &c) in cells.iter().enumerate() {
                match r.find(c) {
                    Lookup::Found(s) => assert_eq!(r.slot(s).g, k as u64),
                    Lookup::Vacant(_) => panic!("round {round}: {c} lost"),
                }
            }
        }
        // A clear forgets every cell.
        r.clear();
        for i in 0..3000 {
            assert!(matches!(r.find(9 + i * 1024), Lookup::Vacant(_)));
        }
    }
}
