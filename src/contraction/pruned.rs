//! The per-metric query graph: perfect customization, then pruning.
//!
//! Following Dibbelt, Strasser and Wagner, a customized metric is made
//! *perfect* top down: for each node `u`, from the highest rank, every pair of
//! upward neighbours `v < w` of `u` forms a triangle with edge `{v, w}`, whose
//! costs are already exact (both ends rank above `u`), and `u -> v -> w`
//! (intermediate triangle, for `u -> w`) or `u -> w -> v` (upper triangle, for
//! `u -> v`) may be cheaper than the edge; likewise downward. One pass makes
//! every edge cost the exact distance between its ends: the first node above
//! `u` on a shortest path from `u` is reached through lower nodes only, which
//! the bottom-up customization already priced exactly. A node's pass reads
//! only its ancestors' edges (its upward neighbours are ancestors in the
//! elimination tree) and writes only its own, so any order that takes a
//! node after its parent computes the same: disjoint subtrees run on
//! several threads (see `forest`; 1.7x less time on two cores on the six
//! large StarCraft maps).
//!
//! Then an edge direction is dropped when an intermediate or upper triangle
//! matches its cost exactly (another route over nodes above its lower end is
//! as short), and when it is forbidden. With every arc cost positive, the
//! up-down query stays exact on what is left: every "valley" `w -> v -> x`
//! (`v` below both) is matched by the kept edge `{w, x}` or by kept edges
//! over nodes above `v`, by induction on the lower end (descending) and the
//! cost (ascending). A metric with a zero-cost arc is not pruned (ties of cost
//! zero could justify each other's removal); its query graph keeps every
//! finite edge.
//!
//! A kept edge costs what the bottom-up customization found (had a triangle
//! above improved it, the same triangle would match it now), so its make-up
//! (an input arc, or a middle node below both ends) stays valid; a middle's
//! two halves are exact too and are kept for unpacking alone where pruning
//! dropped them ("unpack-only", not searched), recursively downward.
//!
//! Stored per direction as CSR by lower end: target ranks in 16 bits when
//! every rank fits, costs in the metric's units, make-ups ([`DIRECT`] or the
//! middle rank, see [`Makeups`]) in 16 bits when every rank fits in 15; a
//! symmetric metric's directions once. A middle's halves are found by their
//! ends (a binary search in the middle's list) when unpacking: their stored
//! positions took 16 more bits per make-up; the 16-bit make-ups without them
//! cost about 1.5% more instructions per long sc1 query.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU32};

use rayon::prelude::*;

use super::customize::{ContractionMetric, INF, into_plain};
use super::forest::{Direction, Forest};
use super::{Contraction, ContractionError};

/// Marks the make-up of an edge direction that is an input arc (the cheapest
/// from its tail to its head); other make-ups are middle ranks, below
/// `2^31`. See [`direct`] for the bits below it.
pub(super) const DIRECT: u32 = 1 << 31;

/// Bits of one arc offset in a direct make-up.
const OFFSET_BITS: u32 = 15;

/// The make-up of a direct edge direction: [`DIRECT`], with the position of
/// the edge's upward arc in its tail's out-arcs plus one in bits 0..15 and
/// that of its downward arc in bits 15..30 (0 when that way is not direct
/// or the position does not fit), so that unpacking names the arc without a
/// search, and both ways of a symmetric edge store the same value.
/// `first`: the input graph's offsets; the arcs as `(tail, arc)`.
pub(super) fn direct(first: &[u32], up: Option<(u32, u32)>, down: Option<(u32, u32)>) -> u32 {
    let offset = |a: Option<(u32, u32)>| {
        a.map_or(0, |(tail, arc)| {
            let off = arc - first[tail as usize] + 1;
            if off < 1 << OFFSET_BITS { off } else { 0 }
        })
    };
    DIRECT | offset(up) | (offset(down) << OFFSET_BITS)
}

/// The position (plus one, 0 for none) of a direct make-up's arc in its
/// tail's out-arcs, for the upward or the `downward` way.
#[inline]
pub(super) fn direct_offset(how: u32, downward: bool) -> u32 {
    let mask = (1 << OFFSET_BITS) - 1;
    if downward {
        (how >> OFFSET_BITS) & mask
    } else {
        how & mask
    }
}

/// Ranks, in 16 bits when every rank fits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Ranks {
    /// At most `2^16` nodes.
    Narrow(Vec<u16>),
    /// More.
    Wide(Vec<u32>),
}

impl Ranks {
    /// An empty list for a graph of `nodes` nodes.
    pub(super) fn for_nodes(nodes: usize) -> Self {
        if nodes <= 1 << 16 {
            Ranks::Narrow(Vec::new())
        } else {
            Ranks::Wide(Vec::new())
        }
    }

    /// `ranks` (each below `nodes`) in the width `nodes` allows.
    pub(super) fn of(nodes: usize, ranks: &[u32]) -> Self {
        let mut out = Ranks::for_nodes(nodes);
        ranks.iter().for_each(|r| out.push(*r));
        out
    }

    pub(super) fn push(&mut self, r: u32) {
        match self {
            Ranks::Narrow(v) => v.push(r as u16),
            Ranks::Wide(v) => v.push(r),
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Ranks::Narrow(v) => v.len(),
            Ranks::Wide(v) => v.len(),
        }
    }

    pub(super) fn bytes(&self) -> usize {
        match self {
            Ranks::Narrow(v) => 2 * v.len(),
            Ranks::Wide(v) => 4 * v.len(),
        }
    }

    #[inline]
    pub(super) fn get(&self, i: usize) -> u32 {
        match self {
            Ranks::Narrow(v) => u32::from(v[i]),
            Ranks::Wide(v) => v[i],
        }
    }

    /// Calls `f(i, rank)` for each `i` in `range`, the width chosen once.
    #[inline]
    pub(super) fn each(&self, range: std::ops::Range<usize>, mut f: impl FnMut(usize, u32)) {
        match self {
            Ranks::Narrow(v) => {
                for (i, r) in v[range.clone()].iter().enumerate() {
                    f(range.start + i, u32::from(*r));
                }
            }
            Ranks::Wide(v) => {
                for (i, r) in v[range.clone()].iter().enumerate() {
                    f(range.start + i, *r);
                }
            }
        }
    }

    /// The index of `r` within `range` (ascending there), if present.
    fn find(&self, range: std::ops::Range<usize>, r: u32) -> Option<usize> {
        let at = match self {
            Ranks::Narrow(v) => v[range.clone()].binary_search(&(r as u16)),
            Ranks::Wide(v) => v[range.clone()].binary_search(&r),
        };
        at.ok().map(|i| range.start + i)
    }
}

/// `with_capacity` and `append` for a list kept in 16 or 32 bits by the
/// graph's size ([`Ranks`], [`Makeups`]), whose `for_nodes` picks the width.
macro_rules! sized_list {
    ($list:ident) => {
        impl $list {
            /// An empty list for a graph of `nodes` nodes, room for `capacity`.
            fn with_capacity(nodes: usize, capacity: usize) -> Self {
                match $list::for_nodes(nodes) {
                    $list::Narrow(_) => $list::Narrow(Vec::with_capacity(capacity)),
                    $list::Wide(_) => $list::Wide(Vec::with_capacity(capacity)),
                }
            }

            /// `other`, of the same width, appended.
            fn append(&mut self, other: $list) {
                match (self, other) {
                    ($list::Narrow(a), $list::Narrow(b)) => a.extend(b),
                    ($list::Wide(a), $list::Wide(b)) => a.extend(b),
                    _ => unreachable!("lists of one graph have one width"),
                }
            }
        }
    };
}
sized_list!(Ranks);
sized_list!(Makeups);

/// Make-ups in the form [`direct`] and the middle ranks give them, stored in
/// 16 bits when every rank fits in 15: a middle rank as it is, a direct
/// make-up as bit 15 with its two arc offsets in 7 bits each (0, "search
/// the tail's arcs", when an offset does not fit). Half the bytes of the
/// 32-bit form, which larger graphs keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Makeups {
    /// At most `2^15` nodes.
    Narrow(Vec<u16>),
    /// More.
    Wide(Vec<u32>),
}

/// The direct bit of a narrow make-up, and the bits of one of its offsets.
const NARROW_DIRECT: u16 = 1 << 15;
const NARROW_OFFSET_BITS: u32 = 7;

impl Makeups {
    /// An empty list for a graph of `nodes` nodes.
    pub(super) fn for_nodes(nodes: usize) -> Self {
        if nodes <= 1 << 15 {
            Makeups::Narrow(Vec::new())
        } else {
            Makeups::Wide(Vec::new())
        }
    }

    /// Appends `how` (a middle rank, or a [`direct`] make-up).
    pub(super) fn push(&mut self, how: u32) {
        match self {
            Makeups::Narrow(v) if how & DIRECT != 0 => {
                let fit = |off: u32| {
                    if off < 1 << NARROW_OFFSET_BITS {
                        off as u16
                    } else {
                        0
                    }
                };
                let (up, down) = (direct_offset(how, false), direct_offset(how, true));
                v.push(NARROW_DIRECT | fit(up) | (fit(down) << NARROW_OFFSET_BITS));
            }
            Makeups::Narrow(v) => {
                debug_assert!(how < 1 << 15, "a narrow graph's middle rank");
                v.push(how as u16)
            }
            Makeups::Wide(v) => v.push(how),
        }
    }

    /// The make-up at `i`, in the 32-bit form.
    #[inline]
    pub(super) fn get(&self, i: usize) -> u32 {
        match self {
            Makeups::Narrow(v) => {
                let h = v[i];
                if h & NARROW_DIRECT == 0 {
                    return u32::from(h);
                }
                let mask = (1 << NARROW_OFFSET_BITS) - 1;
                let (up, down) = (
                    u32::from(h) & mask,
                    (u32::from(h) >> NARROW_OFFSET_BITS) & mask,
                );
                DIRECT | up | (down << OFFSET_BITS)
            }
            Makeups::Wide(v) => v[i],
        }
    }

    pub(super) fn len(&self) -> usize {
        match self {
            Makeups::Narrow(v) => v.len(),
            Makeups::Wide(v) => v.len(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Makeups::Narrow(v) => 2 * v.len(),
            Makeups::Wide(v) => 4 * v.len(),
        }
    }
}

/// One direction of the searchable graph: per rank `u`, the kept edges from
/// `u` to higher ranks (forward: `u -> w`; backward: `w -> u` seen from `u`),
/// ascending by the higher end: `to[first[u]..first[u + 1]]`, with their costs
/// in units of the metric's scale and their make-ups ([`DIRECT`] or the
/// middle rank, below both ends).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Side {
    pub(super) first: Vec<u32>,
    pub(super) to: Ranks,
    pub(super) cost: Vec<u32>,
    pub(super) how: Makeups,
}

impl Side {
    /// `other`, the side of the ranks after this one's, appended.
    fn append(&mut self, other: Side) {
        let base = self.to.len() as u32;
        self.first.extend(other.first[1..].iter().map(|f| f + base));
        self.to.append(other.to);
        self.cost.extend(other.cost);
        self.how.append(other.how);
    }

    #[inline]
    pub(super) fn range(&self, u: u32) -> std::ops::Range<usize> {
        self.first[u as usize] as usize..self.first[u as usize + 1] as usize
    }

    /// The lower end of the edge at `pos`.
    #[inline]
    pub(super) fn low_of(&self, pos: u32) -> u32 {
        (self.first.partition_point(|f| *f <= pos) - 1) as u32
    }

    /// The position of `low`'s edge to `high`, if kept.
    #[inline]
    pub(super) fn find(&self, low: u32, high: u32) -> Option<usize> {
        self.to.find(self.range(low), high)
    }

    fn bytes(&self) -> usize {
        4 * (self.first.len() + self.cost.len()) + self.to.bytes() + self.how.bytes()
    }
}

/// The pruned search graph of one metric, with what unpacking needs; no
/// longer tied to the [`Contraction`] it came from (query it alone).
///
/// Built by [`Contraction::query_graph`]. A symmetric metric (every edge
/// costs the same both ways and is made up the same way, as on uniform-cost
/// maps) stores its searchable edges once. Input arcs are not named: the
/// unpacking takes the input graph and the metric's costs, and picks the
/// cheapest arc between two consecutive nodes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryGraph {
    pub(super) scale: u64,
    /// Rank of each input node, and input node of each rank.
    pub(super) rank: Ranks,
    pub(super) node_of: Ranks,
    /// Forward edges (`u -> w`, `u < w`).
    pub(super) fwd: Side,
    /// Backward edges (`w -> u` stored at `u`); `None` when equal to `fwd`.
    pub(super) bwd: Option<Side>,
    /// Edge directions kept for unpacking alone.
    pub(super) extra: UnpackOnly,
    /// The input graph's node and arc counts, checked when unpacking.
    pub(super) input_arcs: usize,
    /// How queries search it.
    pub(super) search: QuerySearch,
    /// Per rank, its parent in the elimination tree of the contraction it
    /// came from (itself at a root); empty for a classic hierarchy, which
    /// has no such tree.
    pub(super) parent: Ranks,
}

/// How a [`QueryGraph`] is searched: all three give the same least costs
/// (and routes of that cost) on any query graph; they differ in speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuerySearch {
    /// Everything reachable upward from the sources and from the targets
    /// collected (a breadth-first walk), sorted by rank and swept in rank
    /// order, both directions at once, with no priority queue.
    Sweep,
    /// The same sweep with the search spaces kept as bitsets over the ranks:
    /// a node enters when first offered a distance, each edge is read once,
    /// nothing is sorted. The fastest on a classic hierarchy's graph (its
    /// default).
    BitsetSweep,
    /// Bidirectional Dijkstra with stall-on-demand, stopping at the best
    /// meeting: the fewest nodes settled, but slower per node.
    Dijkstra,
    /// [`QuerySearch::Sweep`] over the ends' ancestors in the elimination
    /// tree, collected by following parents instead of edges: in a
    /// customizable contraction every upward edge goes to an ancestor, so
    /// they hold everything reachable upward (those not reached are passed
    /// over in the sweep). The fastest on a customizable contraction's
    /// graph (its default): on the 600 long queries of six 1024 x 1024
    /// StarCraft maps the abstract phase takes 39 us instead of the
    /// breadth-first sweep's 56. On a classic hierarchy's graph, which has
    /// no such tree, it is [`QuerySearch::Sweep`].
    TreeSweep,
}

impl QueryGraph {
    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.node_of.len()
    }

    /// Searchable edge directions (forward plus backward; a symmetric
    /// metric's shared edges count twice).
    pub fn arcs(&self) -> usize {
        self.fwd.to.len() + self.bwd.as_ref().unwrap_or(&self.fwd).to.len()
    }

    /// Edge directions kept for unpacking alone.
    pub fn unpack_only(&self) -> usize {
        self.extra.len()
    }

    /// Whether the searchable edges are stored once for both directions.
    pub fn symmetric(&self) -> bool {
        self.bwd.is_none()
    }

    /// Chooses how queries search this graph (see [`QuerySearch`]; the
    /// default is the fastest measured for how it was built).
    pub fn set_search(&mut self, search: QuerySearch) {
        self.search = search;
    }

    /// How queries search this graph.
    pub fn search(&self) -> QuerySearch {
        self.search
    }

    /// The unit of the stored costs (see [`ContractionMetric::scale`]).
    pub fn scale(&self) -> u64 {
        self.scale
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.fwd.bytes()
            + self.bwd.as_ref().map_or(0, Side::bytes)
            + self.rank.bytes()
            + self.node_of.bytes()
            + self.parent.bytes()
            + self.extra.bytes()
    }

    /// The side searched in direction `d` (0 forward, 1 backward).
    #[inline]
    pub(super) fn side(&self, d: usize) -> &Side {
        if d == 0 {
            &self.fwd
        } else {
            self.bwd.as_ref().unwrap_or(&self.fwd)
        }
    }

    /// The make-up of edge direction `low -> high` (`downward`: `high -> low`).
    pub(super) fn how(&self, low: u32, high: u32, downward: bool) -> u32 {
        let side = self.side(usize::from(downward));
        if let Some(pos) = side.find(low, high) {
            return side.how.get(pos);
        }
        self.extra
            .find(low, high, downward)
            .expect("a middle's halves are kept for unpacking")
    }
}

/// Edge directions kept for unpacking alone, by `(low, high, downward)`
/// ascending, with their make-ups; keys in 32 bits when every rank fits in
/// 15 (as narrow [`Makeups`]), else 64.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UnpackOnly {
    pub(super) keys: Keys,
    pub(super) how: Makeups,
}

/// The keys of [`UnpackOnly`]: [`narrow_key`]s or [`wide_key`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Keys {
    Narrow(Vec<u32>),
    Wide(Vec<u64>),
}

impl UnpackOnly {
    /// An empty list for a graph of `nodes` nodes.
    pub(super) fn for_nodes(nodes: usize) -> Self {
        let how = Makeups::for_nodes(nodes);
        let keys = match how {
            Makeups::Narrow(_) => Keys::Narrow(Vec::new()),
            Makeups::Wide(_) => Keys::Wide(Vec::new()),
        };
        UnpackOnly { keys, how }
    }

    /// Appends edge direction `low -> high` (`downward`: `high -> low`),
    /// after every direction below it.
    fn push(&mut self, low: u32, high: u32, downward: bool, how: u32) {
        match &mut self.keys {
            Keys::Narrow(k) => k.push(narrow_key(low, high, downward)),
            Keys::Wide(k) => k.push(wide_key(low, high, downward)),
        }
        self.how.push(how);
    }

    /// The make-up of edge direction `low -> high`, if kept.
    fn find(&self, low: u32, high: u32, downward: bool) -> Option<u32> {
        self.position(low, high, downward).map(|i| self.how.get(i))
    }

    /// Where edge direction `low -> high` is in the list, if kept.
    pub(super) fn position(&self, low: u32, high: u32, downward: bool) -> Option<usize> {
        match &self.keys {
            Keys::Narrow(k) => k.binary_search(&narrow_key(low, high, downward)),
            Keys::Wide(k) => k.binary_search(&wide_key(low, high, downward)),
        }
        .ok()
    }

    /// The direction at `i`: `(low, high, downward)`.
    pub(super) fn key(&self, i: usize) -> (u32, u32, bool) {
        match &self.keys {
            Keys::Narrow(k) => (k[i] >> 16, (k[i] >> 1) & 0x7fff, k[i] & 1 == 1),
            Keys::Wide(k) => (
                (k[i] >> 33) as u32,
                ((k[i] >> 1) & 0xffff_ffff) as u32,
                k[i] & 1 == 1,
            ),
        }
    }

    pub(super) fn len(&self) -> usize {
        match &self.keys {
            Keys::Narrow(k) => k.len(),
            Keys::Wide(k) => k.len(),
        }
    }

    fn bytes(&self) -> usize {
        self.how.bytes()
            + match &self.keys {
                Keys::Narrow(k) => 4 * k.len(),
                Keys::Wide(k) => 8 * k.len(),
            }
    }

    /// Whether no key repeats and each follows the one before.
    pub(super) fn is_strictly_ascending(&self) -> bool {
        match &self.keys {
            Keys::Narrow(k) => k.windows(2).all(|w| w[0] < w[1]),
            Keys::Wide(k) => k.windows(2).all(|w| w[0] < w[1]),
        }
    }

    fn is_sorted(&self) -> bool {
        match &self.keys {
            Keys::Narrow(k) => k.is_sorted(),
            Keys::Wide(k) => k.is_sorted(),
        }
    }
}

/// The key of an unpack-only direction when every rank fits in 15 bits
/// (ordered as [`wide_key`]).
fn narrow_key(low: u32, high: u32, downward: bool) -> u32 {
    (low << 16) | (high << 1) | u32::from(downward)
}

fn wide_key(low: u32, high: u32, downward: bool) -> u64 {
    (u64::from(low) << 33) | (u64::from(high) << 1) | u64::from(downward)
}

/// The perfect customization's lists, shared by the threads of one pass,
/// each writing only the edges of the ranks it visits (see `forest`):
/// relaxed atomics, plain loads and stores.
#[derive(Clone, Copy)]
struct Triangles<'a> {
    up: &'a [AtomicU32],
    down: &'a [AtomicU32],
    flag: &'a [AtomicU8],
    /// Every edge costs the same both ways (uniform-cost maps): then every
    /// triangle does too, the passes work on `up` and bit 0 alone (`down`
    /// is then `up` itself, read but never written), and bit 1 is copied
    /// from bit 0 afterwards.
    symmetric: bool,
}

impl Contraction {
    /// The pruned query graph of `metric` (customized on this contraction):
    /// perfect costs, dominated and forbidden edge directions dropped, stored
    /// compactly (see [`QueryGraph`]). Query it with
    /// [`QueryGraph::query`]; it gives the same least costs as
    /// [`Contraction::query`]. [`ContractionError::CostRange`] when a
    /// perfect cost may not fit in 32 bits in units of the metric's scale
    /// (a triangle of finite costs reaching `2^32` units where the edge has
    /// none: refused, never wrapped).
    pub fn query_graph(&self, metric: &ContractionMetric) -> Result<QueryGraph, ContractionError> {
        self.query_graph_on(&Forest::new(self), metric, metric.up == metric.down)
    }

    /// [`query_graph`](Self::query_graph) in the order of `forest` (this
    /// contraction's, or, in tests, the ranks one by one), on `up` and bit 0
    /// alone when `symmetric` (only if every edge costs the same both ways).
    pub(super) fn query_graph_on(
        &self,
        forest: &Forest,
        metric: &ContractionMetric,
        symmetric: bool,
    ) -> Result<QueryGraph, ContractionError> {
        let m = self.edges();
        let atomic = |list: &[u32]| list.iter().map(|c| AtomicU32::new(*c)).collect::<Vec<_>>();
        // A symmetric metric's passes read `up` alone (its `down` is a copy).
        let up = atomic(&metric.up);
        let down = if symmetric {
            Vec::new()
        } else {
            atomic(&metric.down)
        };
        // Bit 0: up kept, bit 1: down kept, bit 2: up needed, bit 3: down needed.
        let mut flag: Vec<AtomicU8> = (0..m)
            .map(|e| {
                AtomicU8::new(
                    u8::from(metric.up[e] != INF) | (u8::from(metric.down[e] != INF) << 1),
                )
            })
            .collect();
        if !metric.up.contains(&0) && !metric.down.contains(&0) {
            // Top down (a node's edges are final once its own pass is done),
            // independent subtrees on several threads (see `forest`).
            let lists = Triangles {
                up: &up,
                down: if symmetric { &up } else { &down },
                flag: &flag,
                symmetric,
            };
            let fits = forest.walk(Direction::TopDown, &|u| self.make_perfect(u, lists));
            if !fits {
                return Err(ContractionError::CostRange {
                    scale: metric.scale,
                });
            }
        }
        let up = into_plain(up);
        let down = (!symmetric).then(|| into_plain(down));
        for f in &mut flag {
            let f = f.get_mut();
            if symmetric {
                *f = (*f & 1) * 3;
            }
            *f |= (*f & 3) << 2;
        }
        // Top down again: a shortcut's halves lie in its lower end's subtree.
        forest.walk(Direction::TopDown, &|u| {
            self.mark_halves(metric, &flag, u);
            true
        });
        let flag: Vec<u8> = flag.into_iter().map(AtomicU8::into_inner).collect();
        Ok(self.lay_out(metric, &up, down.as_deref(), &flag))
    }

    /// Perfect costs for `u`'s upward edges, those of every higher node being
    /// perfect already (see the module docs), clearing the kept bit of an
    /// edge direction whenever a triangle is no dearer. Returns whether every
    /// sum fitted: a triangle of finite costs summing to `2^32` units or more
    /// where the edge has none is refused ([`ContractionError::CostRange`]).
    ///
    /// One pass finds every bit to clear, though it prices a triangle with
    /// the cost `u`'s edge has when the triangle comes up, which a later
    /// triangle may still lower. A cleared bit is right: the last triangle
    /// that lowered the edge, or this one, matches the final cost. A bit to
    /// clear is cleared: say a triangle through `x` matches the final cost
    /// of `u -> w`, so a least-cost route from `u` to `w` passes `x`. Let
    /// `v` be its first node above `u`: an upward neighbour of `u`, not `w`
    /// (the route would come back to `w`, and costs are positive), reached
    /// through lower nodes only, so the customization priced `u -> v` at
    /// its distance already, and no triangle moves a cost below a distance.
    /// When the triangle through `v` comes up, its sum is the distance from
    /// `u` to `w`, no more than the edge's cost then: the bit is cleared.
    /// (Until 2026-11-28 a second pass over the triangles checked the bits
    /// again whenever one of `u`'s costs changed during its pass: nearly
    /// every node's, the whole perfect customization twice, for nothing.)
    fn make_perfect(&self, u: u32, lists: Triangles) -> bool {
        let mut fits = true;
        // The cost `a` lowered to the triangle `p + q` if that is less,
        // clearing `bit` of `f` when it is no more. A sum saturates at
        // `INF` (so does one with an infinite part), which lowers nothing;
        // two finite parts summing to `INF` or more where the edge has no
        // cost do not fit.
        let mut lower = |a: u32, p: u32, q: u32, f: &mut u8, bit: u8| -> u32 {
            let b = p.saturating_add(q);
            if b <= a {
                if b == INF {
                    fits &= p == INF || q == INF;
                    return a;
                }
                *f &= !bit;
                return b;
            }
            a
        };
        let range = self.up_range(u);
        let (to_u, up_u, down_u, flag_u) = (
            &self.up_to[range.clone()],
            &lists.up[range.clone()],
            &lists.down[range.clone()],
            &lists.flag[range],
        );
        for i in 0..to_u.len() {
            let v = to_u[i] as usize;
            // `u`'s edge to `v` stays in registers over its triangles (only
            // this pass writes `u`'s edges).
            let (mut uv, mut vu) = (up_u[i].load(Relaxed), down_u[i].load(Relaxed));
            let mut f_uv = flag_u[i].load(Relaxed);
            // v's upward neighbours include every upward neighbour of u
            // above v: walked alongside u's.
            let v_range = self.up_first[v] as usize..self.up_first[v + 1] as usize;
            let mut v_list = self.up_to[v_range.clone()]
                .iter()
                .zip(&lists.up[v_range.clone()])
                .zip(&lists.down[v_range]);
            let above = to_u[i + 1..]
                .iter()
                .zip(&up_u[i + 1..])
                .zip(&down_u[i + 1..])
                .zip(&flag_u[i + 1..]);
            for (((w, slot_uw), slot_wu), flag_uw) in above {
                let ((_, slot_vw), slot_wv) = v_list
                    .find(|((x, _), _)| *x == w)
                    .expect("a triangle's third edge");
                let mut f_uw = flag_uw.load(Relaxed);
                let vw = slot_vw.load(Relaxed);
                let uw = lower(slot_uw.load(Relaxed), uv, vw, &mut f_uw, 1);
                slot_uw.store(uw, Relaxed);
                if lists.symmetric {
                    uv = lower(uv, uw, vw, &mut f_uv, 1);
                } else {
                    let wv = slot_wv.load(Relaxed);
                    let wu = lower(slot_wu.load(Relaxed), wv, vu, &mut f_uw, 2);
                    slot_wu.store(wu, Relaxed);
                    uv = lower(uv, uw, wv, &mut f_uv, 1);
                    vu = lower(vu, vw, wu, &mut f_uv, 2);
                }
                flag_uw.store(f_uw, Relaxed);
            }
            up_u[i].store(uv, Relaxed);
            // (A symmetric metric's `down` is its `up`: not written twice.)
            if !lists.symmetric {
                down_u[i].store(vu, Relaxed);
            }
            flag_u[i].store(f_uv, Relaxed);
        }
        fits
    }

    /// Sets the needed bits (2, 3) of the halves of `u`'s needed shortcuts;
    /// run top down, so `u`'s own bits are final (a half's lower end is the
    /// middle, a descendant of the shortcut's lower end).
    fn mark_halves(&self, metric: &ContractionMetric, flag: &[AtomicU8], u: u32) {
        // A plain load and store: the halves' lower end, the middle, is in
        // `u`'s subtree, which only this thread visits now.
        let set = |e: u32, bit: u8| {
            let f = &flag[e as usize];
            f.store(f.load(Relaxed) | bit, Relaxed);
        };
        for e in self.up_range(u) {
            let w = self.up_to[e];
            for (bit, how) in [(4u8, metric.up_how[e]), (8, metric.down_how[e])] {
                if flag[e].load(Relaxed) & bit == 0 || ContractionMetric::arc_of(how).is_some() {
                    continue;
                }
                let v = how;
                let e_vu = self.edge(v, u).expect("triangle edge");
                let e_vw = self.edge(v, w).expect("triangle edge");
                if bit == 4 {
                    // u -> v (down on {v, u}), v -> w (up on {v, w}).
                    set(e_vu, 8);
                    set(e_vw, 4);
                } else {
                    // w -> v (down on {v, w}), v -> u (up on {v, u}).
                    set(e_vw, 8);
                    set(e_vu, 4);
                }
            }
        }
    }

    /// Builds the compact [`QueryGraph`] from the flags; `down` is `None`
    /// for a symmetric metric (its flags' two kept bits are equal, so its
    /// backward side would be the forward one: not laid out).
    fn lay_out(
        &self,
        metric: &ContractionMetric,
        up: &[u32],
        down: Option<&[u32]>,
        flag: &[u8],
    ) -> QueryGraph {
        let n = self.nodes();
        // Per edge, its ways' direct make-up (see `direct`).
        let packed: Vec<u32> = (0..n as u32)
            .into_par_iter()
            .flat_map_iter(|u| self.up_range(u).map(move |e| (u, e)))
            .map(|(u, e)| {
                let w = self.up_to[e];
                let (tu, tw) = (self.node_of[u as usize], self.node_of[w as usize]);
                direct(
                    &self.shape_first,
                    ContractionMetric::arc_of(metric.up_how[e]).map(|a| (tu, a)),
                    ContractionMetric::arc_of(metric.down_how[e]).map(|a| (tw, a)),
                )
            })
            .collect();
        let how = |h: u32, e: usize| {
            if ContractionMetric::arc_of(h).is_some() {
                packed[e]
            } else {
                h
            }
        };
        let kept_in = |kept: u8, lo: u32, hi: u32| {
            let edges = self.up_first[lo as usize] as usize..self.up_first[hi as usize] as usize;
            flag[edges].iter().filter(|f| **f & kept != 0).count()
        };
        // The kept edges of the ranks `lo..hi` (offsets from 0), with room
        // for `count` edges and the offsets of the ranks from `lo` on.
        let part = |kept: u8, cost: &[u32], how_of: &[u32], lo: u32, hi: u32, count: usize| {
            let mut s = Side {
                first: Vec::with_capacity(n + 1 - lo as usize),
                to: Ranks::with_capacity(n, count),
                cost: Vec::with_capacity(count),
                how: Makeups::with_capacity(n, count),
            };
            s.first.push(0);
            for u in lo..hi {
                for e in self.up_range(u) {
                    if flag[e] & kept != 0 {
                        s.to.push(self.up_to[e]);
                        s.cost.push(cost[e]);
                        s.how.push(how(how_of[e], e));
                    }
                }
                s.first.push(s.to.len() as u32);
            }
            s
        };
        // One side: its lower and upper halves of ranks on two threads, the
        // upper appended to the lower, which has room for both.
        let side = |kept: u8, cost: &[u32], how_of: &[u32]| {
            let mid = n as u32 / 2;
            let (low_count, high_count) = (kept_in(kept, 0, mid), kept_in(kept, mid, n as u32));
            let (mut low, high) = rayon::join(
                || part(kept, cost, how_of, 0, mid, low_count + high_count),
                || part(kept, cost, how_of, mid, n as u32, high_count),
            );
            low.append(high);
            low
        };
        let unpack_only = || {
            let mut extra = UnpackOnly::for_nodes(n);
            for u in 0..n as u32 {
                for e in self.up_range(u) {
                    let w = self.up_to[e];
                    if flag[e] & 5 == 4 {
                        extra.push(u, w, false, how(metric.up_how[e], e));
                    }
                    if flag[e] & 10 == 8 {
                        extra.push(u, w, true, how(metric.down_how[e], e));
                    }
                }
            }
            extra
        };
        // The sides and the unpack-only list on the pool's threads.
        let (fwd, (bwd, extra)) = rayon::join(
            || side(1, up, &metric.up_how),
            || {
                rayon::join(
                    || down.map(|down| side(2, down, &metric.down_how)),
                    unpack_only,
                )
            },
        );
        debug_assert!(extra.is_sorted());
        debug_assert!(down.is_some() || side(2, up, &metric.down_how) == fwd);
        QueryGraph {
            scale: metric.scale,
            rank: Ranks::of(n, &self.rank),
            node_of: Ranks::of(n, &self.node_of),
            bwd: bwd.filter(|bwd| *bwd != fwd),
            fwd,
            extra,
            input_arcs: self.arc_slot.len(),
            search: QuerySearch::TreeSweep,
            parent: {
                let mut parent = Ranks::for_nodes(n);
                (0..n as u32).for_each(|u| parent.push(self.parent(u).unwrap_or(u)));
                parent
            },
        }
    }
}
