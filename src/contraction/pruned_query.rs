//! Queries on a pruned [`QueryGraph`]: the rank-order sweep over the ranks
//! reachable upward through kept edges (a subset of the elimination-tree
//! ancestors the full contraction sweeps), then the unpacking, whole or one
//! arc at a time (the route's first arcs come first: a unit can start moving
//! before the rest is unpacked).

use super::pruned::{DIRECT, QueryGraph, QuerySearch, Ranks, direct_offset};
use super::query::{self, ContractionRoute, ContractionScratch, Leg, PackedRoute, Unpack, Upward};
use super::{ArcGraph, ContractionError, FORBIDDEN};

impl Upward for QueryGraph {
    fn ranks(&self) -> usize {
        self.nodes()
    }

    fn rank_of(&self, v: u32) -> Option<u32> {
        ((v as usize) < self.rank.len()).then(|| self.rank.get(v as usize))
    }

    fn node_of(&self, u: u32) -> u32 {
        self.node_of.get(u as usize)
    }

    fn reach(&self, s: &mut ContractionScratch, d: usize, u: u32) {
        if self.search == QuerySearch::TreeSweep && self.parent.len() == self.nodes() {
            match &self.parent {
                Ranks::Narrow(parent) => s.enter_chain(d, u, parent),
                Ranks::Wide(parent) => s.enter_chain(d, u, parent),
            }
            return;
        }
        if !s.enter(d, u) {
            return;
        }
        // The space list doubles as the queue of this breadth-first walk.
        let side = self.side(d);
        let mut i = s.space[d].len() - 1;
        while i < s.space[d].len() {
            let x = s.space[d][i];
            i += 1;
            side.to.each(side.range(x), |_, w| {
                s.enter(d, w);
            });
        }
    }

    #[inline]
    fn relax(&self, s: &mut ContractionScratch, d: usize, u: u32, du: u64) {
        // A kept edge is finite: below 2^32 units, and the scale is at most
        // FORBIDDEN / 2^32, so the sum stays below 2 * FORBIDDEN.
        let side = self.side(d);
        let range = side.range(u);
        let cost = &side.cost[range.clone()];
        match &side.to {
            Ranks::Narrow(to) => {
                s.offer_all(d, &to[range.clone()], cost, range.start, du, self.scale)
            }
            Ranks::Wide(to) => {
                s.offer_all(d, &to[range.clone()], cost, range.start, du, self.scale)
            }
        }
    }

    fn find(
        &self,
        s: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<(u64, u32)> {
        match self.search {
            QuerySearch::Sweep | QuerySearch::TreeSweep => query::search(self, s, sources, targets),
            QuerySearch::BitsetSweep => super::searches::sweep(self, s, sources, targets),
            QuerySearch::Dijkstra => super::searches::search(self, s, sources, targets),
        }
    }

    fn leg(&self, d: usize, pos: u32) -> Leg {
        let side = self.side(d);
        let pos = pos as usize;
        (
            side.low_of(pos as u32),
            side.to.get(pos),
            d == 1,
            side.how.get(pos),
        )
    }
}

/// A query graph with the input graph and the metric's costs, to name the
/// arcs of a route.
struct WithArcs<'a, F> {
    qg: &'a QueryGraph,
    graph: &'a ArcGraph<'a>,
    cost: F,
}

impl<F: Fn(u32) -> u64> Unpack for WithArcs<'_, F> {
    fn node(&self, u: u32) -> u32 {
        self.qg.node_of.get(u as usize)
    }

    fn half(&self, low: u32, high: u32, downward: bool) -> Leg {
        (low, high, downward, self.qg.how(low, high, downward))
    }

    /// The input arc of a direct leg: the one the build named (see
    /// `pruned::direct`), else the cheapest from the leg's tail to its head
    /// (the customization priced a direct edge so, and no triangle beat it).
    fn arc(&self, (low, high, downward, how): Leg) -> Result<Option<u32>, ContractionError> {
        if how & DIRECT == 0 {
            return Ok(None);
        }
        let (tail, head) = if downward { (high, low) } else { (low, high) };
        let off = direct_offset(how, downward);
        direct_arc(
            self.graph,
            &self.cost,
            self.node(tail),
            self.node(head),
            off,
        )
        .map(Some)
        .ok_or(ContractionError::BadOffsets(
            "not the graph and costs this query graph was built from",
        ))
    }
}

/// The input arc of a direct edge direction from input node `tail` to
/// `head`: the one at `off` in the tail's out-arcs (plus one; 0 for none)
/// when it leads there and is allowed, else the cheapest allowed one from
/// `tail` to `head` (the customization priced a direct edge so, and no
/// triangle beat it); `None` when there is none.
pub(super) fn direct_arc(
    graph: &ArcGraph,
    cost: &impl Fn(u32) -> u64,
    tail: u32,
    head: u32,
    off: u32,
) -> Option<u32> {
    if (tail as usize) >= graph.nodes() {
        return None;
    }
    if off != 0
        && let Some(arc) = graph.first[tail as usize].checked_add(off - 1)
        && graph.has_arc(tail, arc, head)
        && cost(arc) < FORBIDDEN
    {
        return Some(arc);
    }
    graph
        .out(tail)
        .filter(|(arc, w)| *w == head && cost(*arc) < FORBIDDEN)
        .min_by_key(|(arc, _)| cost(*arc))
        .map(|(arc, _)| arc)
}

impl QueryGraph {
    /// Checks `graph` has the counts of the graph this was built from (an
    /// arc the unpacking cannot find is an error too).
    fn with_arcs<'a, F: Fn(u32) -> u64>(
        &'a self,
        graph: &'a ArcGraph<'a>,
        cost: F,
    ) -> Result<WithArcs<'a, F>, ContractionError> {
        if graph.nodes() != self.nodes() || graph.arcs() != self.input_arcs {
            return Err(ContractionError::BadOffsets(
                "not the graph this query graph was built from",
            ));
        }
        Ok(WithArcs {
            qg: self,
            graph,
            cost,
        })
    }

    /// The least cost from any of `sources` (input node, initial distance)
    /// to any of `targets` (input node, final distance), with its route
    /// unpacked into input arcs; `Ok(None)` when no target is reachable.
    /// Nodes out of range are ignored. Same costs as [`Contraction::query`]
    /// on the metric this graph was built from. `graph` and `cost` (arc ->
    /// cost, [`FORBIDDEN`] or more when forbidden) must be that graph and
    /// metric: they name the arcs (an error when they cannot).
    ///
    /// [`Contraction::query`]: super::Contraction::query
    pub fn query(
        &self,
        graph: &ArcGraph,
        cost: impl Fn(u32) -> u64,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Result<Option<ContractionRoute>, ContractionError> {
        let mut route = ContractionRoute::default();
        let found = self.query_into(graph, cost, scratch, sources, targets, &mut route)?;
        Ok(found.then_some(route))
    }

    /// [`query`](Self::query) writing into `route` (reused): whether a route
    /// was found (`route` is emptied otherwise).
    pub fn query_into(
        &self,
        graph: &ArcGraph,
        cost: impl Fn(u32) -> u64,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> Result<bool, ContractionError> {
        let arcs = self.with_arcs(graph, cost)?;
        query::route_into(self, &arcs, scratch, sources, targets, route)
    }

    /// The least cost alone (no unpacking).
    pub fn distance(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<u64> {
        self.find(scratch, sources, targets).map(|(c, _)| c)
    }

    /// Searches without unpacking: the least cost and the input node the
    /// route starts from. The route's arcs then come one at a time, in route
    /// order, from [`next_arc`](Self::next_arc) with the same scratch (each
    /// call unpacks only as far as its arc).
    pub fn start_route(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
    ) -> Option<(u64, u32)> {
        self.find(scratch, sources, targets)
    }

    /// The next arc of the route [`start_route`](Self::start_route) found,
    /// with its head node; `Ok(None)` at the end. The scratch must not have
    /// been used by another search in between; `graph` and `cost` as for
    /// [`query`](Self::query).
    pub fn next_arc(
        &self,
        graph: &ArcGraph,
        cost: impl Fn(u32) -> u64,
        scratch: &mut ContractionScratch,
    ) -> Result<Option<(u32, u32)>, ContractionError> {
        query::next_arc(&self.with_arcs(graph, cost)?, &mut scratch.stack)
    }

    /// [`start_route`](Self::start_route) with the route's legs copied into
    /// `route` (so the scratch may serve other searches before the arcs are
    /// taken): the least cost and the first and last input nodes of the
    /// route.
    pub(crate) fn start_packed(
        &self,
        scratch: &mut ContractionScratch,
        sources: &[(u32, u64)],
        targets: &[(u32, u64)],
        route: &mut PackedRoute,
    ) -> Option<(u64, u32, u32)> {
        route.clear();
        let (cost, first) = self.find(scratch, sources, targets)?;
        route.legs.extend_from_slice(&scratch.stack);
        // The last leg in route order is at the bottom: a backward leg runs
        // down to its lower end, a forward one up to its higher.
        let last = route
            .legs
            .first()
            .map_or(first, |&(low, high, downward, _)| {
                self.node_of(if downward { low } else { high })
            });
        Some((cost, first, last))
    }

    /// The next arc of a route [`start_packed`](Self::start_packed) found,
    /// with its head node; `Ok(None)` at the end. `graph` and `cost` as for
    /// [`query`](Self::query).
    pub(crate) fn next_packed_arc(
        &self,
        graph: &ArcGraph,
        cost: impl Fn(u32) -> u64,
        route: &mut PackedRoute,
    ) -> Result<Option<(u32, u32)>, ContractionError> {
        query::next_arc(&self.with_arcs(graph, cost)?, &mut route.legs)
    }
}
