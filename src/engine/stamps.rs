//! The generation stamp: scratch that is reset in O(1) between searches.
//!
//! Every per-node record of a search carries a `u32` stamp; a record belongs
//! to the current search only when its stamp is the current generation
//! ("open", seen) or the one after it ("closed", expanded). Starting a new
//! search moves the generation on by two, which forgets every record at
//! once. Stamps start at 0, which no generation ever is; when the counter
//! nears the top of `u32` (once per two billion searches), every stamp is
//! returned to 0 and counting restarts.

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
