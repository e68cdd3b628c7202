//! The generation stamp: scratch that is reset in O(1) between searches, and
//! allocated by pages as the searches touch it.
//!
//! Every per-node record of a search carries a `u32` stamp; a record belongs
//! to the current search only when its stamp is the current generation
//! ("open", seen) or the one after it ("closed", expanded). Starting a new
//! search moves the generation on by two, which forgets every record at
//! once. Stamps start at 0, which no generation ever is; when the counter
//! nears the top of `u32` (once per two billion searches), every stamp is
//! returned to 0 and counting restarts.
//!
//! The records live in a [`Scratch`]: one flat array on maps up to
//! [`FLAT_LIMIT`] nodes (the fastest to index), and above that in [`Pages`]
//! of [`PAGE`] consecutive nodes, each allocated (blank) on the first write
//! into it. So a short search on a huge map costs the pages it touches, not a
//! record per cell of the map (on a 16,384 x 16,384 map that would be 5 GB,
//! written in full before the first search could start). The search loop is
//! compiled once per [`Layout`], so the flat case pays nothing for paging.

/// The current generation of a stamp-reset scratch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Generation(u32);

impl Generation {
    /// Starts a new generation. When the counter would wrap, `reset` is
    /// called first and must return every stamp of the scratch to 0.
    #[inline]
    pub(crate) fn advance(&mut self, reset: impl FnOnce()) {
        if self.0 >= u32::MAX - 4 {
            reset();
            self.0 = 0;
        }
        self.0 += 2;
    }

    /// The stamp of a record seen (open) in the current generation.
    #[inline(always)]
    pub(crate) fn open(self) -> u32 {
        self.0
    }

    /// The stamp of a record closed in the current generation.
    #[inline(always)]
    pub(crate) fn closed(self) -> u32 {
        self.0 + 1
    }

    /// Whether `stamp` belongs to the current generation (open or closed).
    #[inline(always)]
    pub(crate) fn holds(self, stamp: u32) -> bool {
        self.0 != 0 && (stamp == self.0 || stamp == self.0 + 1)
    }

    /// A generation at `g`, for tests of the wrap.
    #[cfg(test)]
    pub(crate) fn at(g: u32) -> Generation {
        Generation(g)
    }
}

/// Nodes per page of [`Pages`], as a power of two.
const PAGE_BITS: u32 = 10;
/// Nodes per page of [`Pages`]: 16 KiB of search records, a few rows' worth
/// of a large map's width.
pub(crate) const PAGE: usize = 1 << PAGE_BITS;

/// Per-node records for nodes `0..len`, stored by pages of [`PAGE`]
/// consecutive nodes and allocated on the first write into a page; a node of
/// a page never written reads as the blank record. A read is two array reads
/// (the page's slot, then the record), with no test of whether the page
/// exists: unwritten pages all map to one shared blank page.
#[derive(Debug, Clone)]
pub(crate) struct Pages<T> {
    /// Per page of `0..len`: its slot in `pool`, 0 (the blank page) until
    /// written.
    table: Vec<u32>,
    /// The pages' records, slot after slot; slot 0 is the blank page, never
    /// written.
    pool: Vec<T>,
    /// The record of a node not written since the pages were cleared.
    blank: T,
}

impl<T: Copy> Pages<T> {
    /// No pages yet: every node reads as `blank`.
    pub(crate) fn new(blank: T) -> Self {
        Pages {
            table: Vec::new(),
            pool: vec![blank; PAGE],
            blank,
        }
    }

    /// Covers nodes `0..len` (never shrinks); the new pages are unwritten.
    pub(crate) fn cover(&mut self, len: usize) {
        let pages = len.div_ceil(PAGE);
        if self.table.len() < pages {
            self.table.resize(pages, 0);
        }
    }

    /// Whether node `i` is covered (its records may be read).
    pub(crate) fn covers(&self, i: usize) -> bool {
        i >> PAGE_BITS < self.table.len()
    }

    /// The record of node `i` (blank when its page was never written).
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> T {
        let slot = self.table[i >> PAGE_BITS] as usize;
        self.pool[slot << PAGE_BITS | (i & (PAGE - 1))]
    }

    /// The record of node `i`, to write; allocates its page on first use.
    #[inline(always)]
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut T {
        let page = i >> PAGE_BITS;
        let mut slot = self.table[page] as usize;
        if slot == 0 {
            slot = self.allocate(page);
        }
        &mut self.pool[slot << PAGE_BITS | (i & (PAGE - 1))]
    }

    /// Gives `page` a blank page of its own and returns its slot.
    #[cold]
    #[inline(never)]
    fn allocate(&mut self, page: usize) -> usize {
        let slot = self.pool.len() / PAGE;
        self.pool.resize(self.pool.len() + PAGE, self.blank);
        self.table[page] = slot as u32;
        slot
    }

    /// Returns every node to the blank record and frees the pages.
    pub(crate) fn clear(&mut self) {
        self.table.fill(0);
        self.pool.truncate(PAGE);
        self.pool.shrink_to_fit();
    }

    /// Pages written since the last [`clear`](Self::clear).
    #[cfg(test)]
    pub(crate) fn pages(&self) -> usize {
        self.pool.len() / PAGE - 1
    }

    /// Bytes held: the page table and the pages (with the blank one).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.table.capacity() * 4 + self.pool.capacity() * std::mem::size_of::<T>()
    }
}

/// The most nodes a [`Scratch`] keeps in one flat array (about a
/// 2,048 x 2,048 map: 64 MiB of search records, written once when first
/// sized); larger spaces are paged.
pub(crate) const FLAT_LIMIT: usize = 1 << 22;

/// Per-node records of a search: flat for spaces up to a limit, paged above
/// it (see the module docs). Reads of nodes never written give the blank
/// record.
#[derive(Debug, Clone)]
pub(crate) struct Scratch<T> {
    flat: Vec<T>,
    pages: Pages<T>,
    /// Whether the space last covered is paged.
    paged: bool,
    /// Spaces of more nodes than this are paged.
    flat_limit: usize,
    blank: T,
}

impl<T: Copy> Scratch<T> {
    /// No records yet; spaces above `flat_limit` nodes will be paged.
    pub(crate) fn new(blank: T, flat_limit: usize) -> Self {
        Scratch {
            flat: Vec::new(),
            pages: Pages::new(blank),
            paged: false,
            flat_limit,
            blank,
        }
    }

    /// Covers nodes `0..len` for the next search, flat or paged by size.
    pub(crate) fn cover(&mut self, len: usize) {
        self.paged = len > self.flat_limit;
        if self.paged {
            self.pages.cover(len);
        } else if self.flat.len() < len {
            self.flat.resize(len, self.blank);
        }
    }

    /// Whether the space last covered is paged.
    pub(crate) fn paged(&self) -> bool {
        self.paged
    }

    /// Whether node `i` is covered (its record may be read).
    pub(crate) fn covers(&self, i: usize) -> bool {
        if self.paged {
            self.pages.covers(i)
        } else {
            i < self.flat.len()
        }
    }

    /// The record of node `i`.
    pub(crate) fn get(&self, i: usize) -> T {
        if self.paged {
            Paged::get(self, i)
        } else {
            Flat::get(self, i)
        }
    }

    /// The record of node `i`, to write.
    pub(crate) fn get_mut(&mut self, i: usize) -> &mut T {
        if self.paged {
            Paged::get_mut(self, i)
        } else {
            Flat::get_mut(self, i)
        }
    }

    /// Returns every node to the blank record (and frees the pages).
    pub(crate) fn clear(&mut self) {
        self.flat.fill(self.blank);
        self.pages.clear();
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.flat.capacity() * std::mem::size_of::<T>() + self.pages.memory_bytes()
    }
}

/// How a search indexes its [`Scratch`], fixed for the whole search loop.
pub(crate) trait Layout {
    /// The record of node `i`.
    fn get<T: Copy>(s: &Scratch<T>, i: usize) -> T;
    /// The record of node `i`, to write.
    fn get_mut<T: Copy>(s: &mut Scratch<T>, i: usize) -> &mut T;
}

/// The flat array (spaces up to [`FLAT_LIMIT`] nodes).
pub(crate) struct Flat;

/// The pages (larger spaces).
pub(crate) struct Paged;

impl Layout for Flat {
    #[inline(always)]
    fn get<T: Copy>(s: &Scratch<T>, i: usize) -> T {
        s.flat[i]
    }

    #[inline(always)]
    fn get_mut<T: Copy>(s: &mut Scratch<T>, i: usize) -> &mut T {
        &mut s.flat[i]
    }
}

impl Layout for Paged {
    #[inline(always)]
    fn get<T: Copy>(s: &Scratch<T>, i: usize) -> T {
        s.pages.get(i)
    }

    #[inline(always)]
    fn get_mut<T: Copy>(s: &mut Scratch<T>, i: usize) -> &mut T {
        s.pages.get_mut(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_generation_holds_nothing() {
        let mut g = Generation::default();
        assert!(!g.holds(0), "the initial stamp never belongs to a search");
        g.advance(|| panic!("no reset before the wrap"));
        assert!(g.holds(g.open()) && g.holds(g.closed()));
        assert!(!g.holds(0));
        let (open, closed) = (g.open(), g.closed());
        g.advance(|| panic!("no reset before the wrap"));
        assert!(
            !g.holds(open) && !g.holds(closed),
            "the last search is forgotten"
        );
    }

    #[test]
    fn pages_are_written_on_first_write_only() {
        let mut p = Pages::new(7u32);
        p.cover(10 * PAGE + 3);
        assert_eq!(p.pages(), 0);
        assert_eq!(p.get(10 * PAGE + 2), 7, "an unwritten node reads blank");
        *p.get_mut(5 * PAGE + 1) = 1;
        *p.get_mut(5 * PAGE + 2) = 2;
        *p.get_mut(3) = 3;
        assert_eq!(p.pages(), 2);
        assert_eq!(
            (p.get(5 * PAGE + 1), p.get(5 * PAGE + 2), p.get(3)),
            (1, 2, 3)
        );
        // Neighbouring pages and the rest of written pages stay blank.
        assert_eq!((p.get(5 * PAGE), p.get(6 * PAGE), p.get(4)), (7, 7, 7));
        assert_eq!(p.get(0), 7);
        let held = p.memory_bytes();
        p.clear();
        assert_eq!((p.pages(), p.get(3), p.get(5 * PAGE + 1)), (0, 7, 7));
        assert!(p.memory_bytes() < held);
        // Covering more keeps what is written.
        *p.get_mut(PAGE) = 9;
        p.cover(40 * PAGE);
        assert_eq!((p.get(PAGE), p.get(40 * PAGE - 1)), (9, 7));
    }

    #[test]
    fn the_wrap_resets_stamps_and_restarts() {
        let mut g = Generation(u32::MAX - 4);
        let mut reset = false;
        g.advance(|| reset = true);
        assert!(reset);
        assert_eq!((g.open(), g.closed()), (2, 3));
        // Below the threshold no reset happens.
        let mut g = Generation(u32::MAX - 6);
        g.advance(|| panic!("not yet"));
        assert_eq!(g.open(), u32::MAX - 4);
    }
}
