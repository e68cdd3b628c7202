//! Queries on a pruned [`QueryGraph`]: the rank-order sweep over the ranks
//! reachable upward through kept edges (a subset of the elimination-tree
//! ancestors the full contraction sweeps), then the unpacking, whole or one
//! arc at a time (the route's first arcs come first: a unit can start moving
//! before the rest is unpacked).

use super::pruned::QueryGraph;
use super::query::{self, ContractionRoute, ContractionScratch, Leg, Upward};

impl Upward for QueryGraph {
    fn ranks(&self) -> usize {
        self.nodes()
    }

    fn rank_of(&self, v: u32) -> Option<u32> {
        self.rank.get(v as usize).copied()
    }

    fn node_of(&self, u: u32) -> u32 {
        self.node_of[u as usize]
    }

    fn reach(&self, s: &mut ContractionScratch, d: usize, u: u32) {
        if !s.enter(d, u) {
            return;
        }
        // The space list doubles as the queue of this breadth-first walk.
        let side = self.side(d);
        let mut i = s.space[d].len() - 1;
        while i < s.space[d].len() {
            let x = s.space[d][i];
            i += 1;
            for w in &side.to[side.range(x)] {
                s.enter(d, *w);
            }
        }
    }

    #[inline]
    fn relax(&self, s: &mut ContractionScratch, d: usize, u: u32, du: u64) {
        let side = self.side(d);
        for pos in side.range(u) {
            // A kept edge is finite: below 2^32 units, and the scale is at most
            // FORBIDDEN / 2^32, so the sum stays below 2 * FORBIDDEN.
            let nd = du + u64::from(side.cost[pos]) * self.scale;
            s.offer(d, side.to[pos] as usize, nd, pos as u32);
        }
    }

    fn leg(&self, d: usize, pos: u32) -> Leg {
        let side = self.side(d);
        let how = if d == 0 {
            self.fwd_how[pos as usize]
        } else {
            self.bwd_how[pos as usize]
        };
        (side.low_of(pos), side.to[pos as usize], d == 1, how)
    }

    fn half(&self, low: u32, high: u32, downward: bool) -> Leg {
        (low, high, downward, self.how(low, high, downward))
    }
}

impl QueryGraph {
    /// The least cost from any of `sources` (input node, initial distance)
    /// to any of `targets` (input node, final distance), with its route
    /// unpacked into input arcs; `None` when no target is reachable. Nodes
    /// out of range are ignored. Same answers as [`Contraction::query`]
    /// on the metric this graph was built from.
    ///
    /// [`Contraction::query`]: super::Contraction::query
    pub fn query(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<ContractionRoute> {
        let mut route = ContractionRoute::default();
        self.query_into(scratch, sources, targets, &mut route)
            .then_some(route)
    }

    /// [`query`](Self::query) writing into `route` (reused): whether a route
    /// was found (`route` is emptied otherwise).
    pub fn query_into(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> bool {
        query::route_into(self, scratch, sources, targets, route)
    }

    /// The least cost alone (no unpacking).
    pub fn distance(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<u64> {
        query::search(self, scratch, sources, targets).map(|(c, _)| c)
    }

    /// Searches without unpacking: the least cost and the input node the
    /// route starts from. The route's arcs then come one at a time, in route
    /// order, from [`next_arc`](Self::next_arc) with the same scratch (each
    /// unpacks only as far as needed).
    pub fn start_route(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<(u64, u32)> {
        query::search(self, scratch, sources, targets)
    }

    /// The next arc of the route [`start_route`](Self::start_route) found,
    /// with its head node; `None` at the end. The scratch must not have been
    /// used by another search in between.
    pub fn next_arc(&self, scratch: &mut ContractionScratch) -> Option<(u32, u32)> {
        query::next_arc(self, scratch)
    }
}
