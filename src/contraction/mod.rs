//! A customizable contraction hierarchy (CCH) over a directed graph: the
//! abstract search in microseconds.
//!
//! Three phases, as in Dibbelt, Strasser and Wagner's CCH:
//!
//! 1. **Order** (metric-independent, once per graph shape): a nested
//!    dissection by the nodes' coordinates (see `order`). On the cluster graph
//!    a cut along a cluster border crosses only the few links between
//!    transitions facing each other, so the separators are tiny.
//! 2. **Contraction** (metric-independent): the nodes are eliminated in that
//!    order; each node's upward neighbours become a clique (the *fill*). The
//!    result, [`Contraction`], is an undirected chordal supergraph stored as
//!    CSR in rank space, plus its transpose and the map from each input arc to
//!    the supergraph edge it lies on.
//! 3. **Customization** (per metric, cheap): [`Contraction::customize`] gives
//!    each supergraph edge its exact upward and downward costs by one sweep over
//!    lower triangles, bottom up (see `customize`). A metric may forbid arcs
//!    ([`FORBIDDEN`]), so one contraction serves every unit-size class.
//!    After an edit changes a few arc costs, [`Contraction::recustomize`]
//!    prices again only the edges whose costs can change (see
//!    `recustomize`).
//!
//! A query ([`Contraction::query`]) is an elimination-tree search: the search
//! space of a node is the chain of its ancestors in the elimination tree, swept
//! bottom up with no priority queue, from any number of sources and to any
//! number of targets, each with an initial distance. The shortcuts of the
//! winning route are unpacked into the input graph's arcs. Scratch is
//! per-thread ([`ContractionScratch`]) and reset by a generation stamp.
//!
//! ```
//! use tierpath::{ArcGraph, Contraction, ContractionScratch};
//! // 0 -> 1 -> 2 -> 3, and a dear direct arc 0 -> 3.
//! let first = [0, 2, 3, 4, 4];
//! let to = [1, 3, 2, 3];
//! let cost = [1, 10, 1, 1];
//! let graph = ArcGraph::new(&first, &to)?;
//! let cch = Contraction::new(&graph, None)?;
//! let metric = cch.customize(&cost)?;
//! let mut scratch = ContractionScratch::default();
//! let route = cch.query(&metric, &mut scratch, &[(0, 0)], &[(3, 0)]).expect("reachable");
//! assert_eq!(route.cost, 3);
//! assert_eq!(route.nodes, [0, 1, 2, 3]);
//! assert_eq!(route.arcs, [0, 2, 3]);
//! # Ok::<(), tierpath::ContractionError>(())
//! ```

mod classic;
mod customize;
mod forest;
mod order;
mod patch_chains;
mod patched;
mod pruned;
mod pruned_query;
mod query;
mod recustomize;
mod searches;
mod stored;

pub use customize::{ContractionMetric, FORBIDDEN};
#[cfg(test)]
pub(crate) use patched::PatchError;
pub(crate) use patched::{Current, Patchable};
pub use pruned::{QueryGraph, QuerySearch};
pub(crate) use query::PackedRoute;
pub use query::{ContractionRoute, ContractionScratch};
pub(crate) use stored::{StoredInts, StoredQueryGraph, StoredSide};

use rayon::prelude::*;

/// No node / no edge.
const NONE: u32 = u32::MAX;

/// How [`Hierarchy::contract_with`](crate::Hierarchy::contract_with)
/// contracts the cluster graph: both give the same least costs, and their
/// query graphs answer the same queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContractionKind {
    /// A customizable contraction hierarchy ([`Contraction`], nested
    /// dissection from the transitions' cells), customized, made perfect and
    /// pruned per metric ([`Contraction::query_graph`]); the default: the
    /// quicker to build (about a tenth of `Classic`'s time on sc1 maps).
    #[default]
    Customizable,
    /// A classic contraction hierarchy per metric
    /// ([`QueryGraph::classic`]: node order by edge difference, bounded
    /// witness searches): about half the bytes and a slightly faster search
    /// on sc1 maps, at about ten times the build time (see
    /// `docs/contraction.md`).
    Classic,
}

/// Why a contraction or a customization was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContractionError {
    /// The offsets are not `nodes + 1` non-decreasing values from 0 to the
    /// number of arcs.
    #[error("arc offsets are malformed: {0}")]
    BadOffsets(&'static str),
    /// An arc points at a node that does not exist.
    #[error("arc {arc} points at node {target}, but the graph has {nodes} nodes")]
    BadTarget {
        /// The arc.
        arc: u32,
        /// Its target.
        target: u32,
        /// Number of nodes.
        nodes: u32,
    },
    /// A cost slice or a coordinate slice has the wrong length.
    #[error("expected {expected} {what}, got {got}")]
    Length {
        /// What was counted.
        what: &'static str,
        /// How many were expected.
        expected: usize,
        /// How many were given.
        got: usize,
    },
    /// The graph is too large for 32-bit indices.
    #[error("the graph is too large ({0} arcs or supergraph edges)")]
    TooLarge(usize),
    /// A changed arc given to `recustomize` does not exist.
    #[error("arc {0} does not exist")]
    NoSuchArc(u32),
    /// A least cost (or a sum of two) does not fit in the metric's 32-bit
    /// costs, counted in units of the arc costs' greatest common divisor.
    #[error("a route cost does not fit in 32 bits in units of {scale}")]
    CostRange {
        /// The metric's unit: the arc costs' greatest common divisor.
        scale: u64,
    },
}

/// The shape of a directed graph in compressed sparse rows, borrowed: the
/// out-arcs of node `v` are `first[v]..first[v + 1]`, arc `a` going to
/// `to[a]`. Costs come separately, one list per metric, in arc order.
#[derive(Debug, Clone, Copy)]
pub struct ArcGraph<'a> {
    first: &'a [u32],
    to: &'a [u32],
}

impl<'a> ArcGraph<'a> {
    /// Checks and wraps a CSR graph.
    pub fn new(first: &'a [u32], to: &'a [u32]) -> Result<Self, ContractionError> {
        if first.is_empty() || first[0] != 0 {
            return Err(ContractionError::BadOffsets("must start at 0"));
        }
        if first.windows(2).any(|w| w[0] > w[1]) {
            return Err(ContractionError::BadOffsets("must not decrease"));
        }
        if *first.last().expect("non-empty") as usize != to.len() {
            return Err(ContractionError::BadOffsets("must end at the arc count"));
        }
        if to.len() >= NONE as usize / 2 || first.len() >= NONE as usize / 2 {
            return Err(ContractionError::TooLarge(to.len()));
        }
        let nodes = first.len() as u32 - 1;
        if let Some(arc) = to.iter().position(|t| *t >= nodes) {
            return Err(ContractionError::BadTarget {
                arc: arc as u32,
                target: to[arc],
                nodes,
            });
        }
        Ok(ArcGraph { first, to })
    }

    /// Wraps a CSR graph known to be well formed (a hierarchy's own cluster
    /// graph, checked when it was built or loaded), without the linear-time
    /// checks of [`ArcGraph::new`].
    pub(crate) fn trusted(first: &'a [u32], to: &'a [u32]) -> Self {
        debug_assert!(Self::new(first, to).is_ok());
        ArcGraph { first, to }
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    /// Number of arcs.
    pub fn arcs(&self) -> usize {
        self.to.len()
    }

    /// Whether `arc` leaves `tail` for `head`.
    #[inline]
    fn has_arc(&self, tail: u32, arc: u32, head: u32) -> bool {
        (tail as usize) < self.nodes()
            && (self.first[tail as usize]..self.first[tail as usize + 1]).contains(&arc)
            && self.to[arc as usize] == head
    }

    /// The arcs leaving `v`: `(arc, target)`.
    fn out(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (a, b) = (self.first[v as usize], self.first[v as usize + 1]);
        (a..b).map(move |e| (e, self.to[e as usize]))
    }
}

/// The metric-independent part of a CCH: the node order, the chordal
/// supergraph in rank space and the map from input arcs to its edges.
///
/// Build once per graph shape with [`Contraction::new`]; then
/// [`customize`](Contraction::customize) once per metric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contraction {
    /// Rank of each input node.
    rank: Vec<u32>,
    /// Input node of each rank.
    node_of: Vec<u32>,
    /// Upward neighbours of rank `u`, ascending:
    /// `up_to[up_first[u]..up_first[u + 1]]`; the index is the edge id.
    up_first: Vec<u32>,
    up_to: Vec<u32>,
    /// Downward neighbours of rank `u`, ascending, as `(lower node, edge id)`:
    /// `down[down_first[u]..down_first[u + 1]]`.
    down_first: Vec<u32>,
    down: Vec<(u32, u32)>,
    /// The input arcs on the edges whose lower end is rank `u`:
    /// `low_arcs[low_first[u]..low_first[u + 1]]`.
    low_first: Vec<u32>,
    low_arcs: Vec<u32>,
    /// Per input arc: `2 * edge + 1` when it runs downward (from the higher
    /// rank to the lower), `2 * edge` when upward, `NONE` for a loop.
    arc_slot: Vec<u32>,
    /// Number of input arcs per node, to check a graph given later has this
    /// shape.
    shape_first: Vec<u32>,
    /// A hash of the arcs' targets, for the same check.
    shape_hash: u64,
}

impl Contraction {
    /// Orders and contracts `graph`. `coords` (one `(x, y)` per node, e.g. the
    /// transitions' cells) drive the nested dissection; without them the order
    /// falls back to bisecting by breadth-first levels, which is correct but
    /// contracts less well.
    pub fn new(graph: &ArcGraph, coords: Option<&[(u32, u32)]>) -> Result<Self, ContractionError> {
        let n = graph.nodes();
        if let Some(c) = coords
            && c.len() != n
        {
            return Err(ContractionError::Length {
                what: "node coordinates",
                expected: n,
                got: c.len(),
            });
        }
        let adjacency = order::Adjacency::undirected(graph);
        let node_of = order::nested_dissection(&adjacency, coords);
        Self::contract(graph, &adjacency, node_of)
    }

    /// Like [`new`](Self::new), the order read off a grid of square cells of
    /// side `cell` (the cluster grid, `coords` being the transitions' map
    /// cells): each part is cut along the cell border across the middle of
    /// its longer side, with no cut search. Intra-cluster edges never cross a
    /// cluster border, so the separators are the transitions facing one
    /// another across it, as with the searched cuts, at a fraction of the
    /// time. `cell` must be positive.
    pub fn on_grid(
        graph: &ArcGraph,
        coords: &[(u32, u32)],
        cell: u32,
    ) -> Result<Self, ContractionError> {
        if coords.len() != graph.nodes() {
            return Err(ContractionError::Length {
                what: "node coordinates",
                expected: graph.nodes(),
                got: coords.len(),
            });
        }
        if cell == 0 {
            return Err(ContractionError::Length {
                what: "cell side (positive)",
                expected: 1,
                got: 0,
            });
        }
        let adjacency = order::Adjacency::undirected(graph);
        let node_of = order::grid_dissection(&adjacency, coords, cell);
        Self::contract(graph, &adjacency, node_of)
    }

    /// Contracts `graph` in the order `node_of` (input node of each rank).
    fn contract(
        graph: &ArcGraph,
        adjacency: &order::Adjacency,
        node_of: Vec<u32>,
    ) -> Result<Self, ContractionError> {
        let n = graph.nodes();
        let mut rank = vec![0u32; n];
        for (r, v) in node_of.iter().enumerate() {
            rank[*v as usize] = r as u32;
        }
        let (up_first, up_to) = order::fill(adjacency, &rank, &node_of);
        if up_to.len() >= NONE as usize / 2 {
            return Err(ContractionError::TooLarge(up_to.len()));
        }
        let mut cch = Contraction {
            rank,
            node_of,
            up_first,
            up_to,
            down_first: Vec::new(),
            down: Vec::new(),
            low_first: Vec::new(),
            low_arcs: Vec::new(),
            arc_slot: Vec::new(),
            shape_first: Vec::new(),
            shape_hash: 0,
        };
        // The transpose, the arcs' places and the shape, side by side on the
        // pool's threads (each reads only the fill).
        let ((down_first, down), ((arc_slot, (low_first, low_arcs)), (shape_first, shape_hash))) =
            rayon::join(
                || transpose(&cch.up_first, &cch.up_to),
                || {
                    rayon::join(
                        || cch.map_arcs(graph),
                        || (graph.first.to_vec(), shape_hash(graph.to)),
                    )
                },
            );
        (cch.down_first, cch.down) = (down_first, down);
        (cch.arc_slot, cch.low_first, cch.low_arcs) = (arc_slot, low_first, low_arcs);
        (cch.shape_first, cch.shape_hash) = (shape_first, shape_hash);
        Ok(cch)
    }

    /// Each input arc's place in the fill (`arc_slot`: twice its edge, plus
    /// one when the arc runs downward; [`NONE`] for a loop), and the arcs
    /// listed by their lower end's rank (`low_first`, `low_arcs`). The
    /// places are found node by node in parallel (a binary search each).
    #[allow(clippy::type_complexity)]
    fn map_arcs(&self, graph: &ArcGraph) -> (Vec<u32>, (Vec<u32>, Vec<u32>)) {
        let slot: Vec<u32> = (0..graph.nodes() as u32)
            .into_par_iter()
            .flat_map_iter(|v| {
                graph.out(v).map(move |(_, w)| {
                    let (rv, rw) = (self.rank[v as usize], self.rank[w as usize]);
                    if rv == rw {
                        return NONE;
                    }
                    let edge = self
                        .edge(rv.min(rw), rv.max(rw))
                        .expect("every input edge is in the fill");
                    2 * edge + u32::from(rv > rw)
                })
            })
            .collect();
        let rank = &self.rank;
        let low = bucket(graph.nodes(), || {
            (0..graph.nodes() as u32).flat_map(|v| {
                graph
                    .out(v)
                    .filter(|(arc, _)| slot[*arc as usize] != NONE)
                    .map(move |(arc, w)| (rank[v as usize].min(rank[w as usize]), arc))
            })
        });
        (slot, low)
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.node_of.len()
    }

    /// Number of edges of the chordal supergraph (input edges and shortcuts,
    /// each counted once for both directions).
    pub fn edges(&self) -> usize {
        self.up_to.len()
    }

    /// The number of supergraph edges whose lower end is rank `rank` (its
    /// upward degree), to see where the fill lies; 0 out of range.
    pub fn upward_degree(&self, rank: u32) -> usize {
        if rank as usize >= self.nodes() {
            return 0;
        }
        self.up_range(rank).len()
    }

    /// The rank of input node `v` in the contraction order (higher ranks are
    /// contracted later; the top separator ranks highest).
    pub fn rank(&self, v: u32) -> u32 {
        self.rank[v as usize]
    }

    /// The height of the elimination tree: the longest chain a query sweeps
    /// from one endpoint.
    pub fn tree_height(&self) -> usize {
        let n = self.nodes();
        let mut depth = vec![1u32; n];
        let mut best = 0;
        for u in (0..n).rev() {
            if let Some(p) = self.parent(u as u32) {
                depth[u] = depth[p as usize] + 1;
            }
            best = best.max(depth[u]);
        }
        best as usize
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.rank.len()
            + self.node_of.len()
            + self.up_first.len()
            + self.up_to.len()
            + self.down_first.len()
            + self.low_first.len()
            + self.low_arcs.len()
            + self.arc_slot.len()
            + self.shape_first.len())
            + 8 * self.down.len()
    }

    /// The upward edge ids of rank `u`.
    #[inline]
    fn up_range(&self, u: u32) -> std::ops::Range<usize> {
        self.up_first[u as usize] as usize..self.up_first[u as usize + 1] as usize
    }

    /// The parent of rank `u` in the elimination tree: its lowest upward
    /// neighbour.
    #[inline]
    fn parent(&self, u: u32) -> Option<u32> {
        let r = self.up_range(u);
        (!r.is_empty()).then(|| self.up_to[r.start])
    }

    /// The id of edge `{low, high}` (`low < high`, ranks), if in the fill.
    #[inline]
    fn edge(&self, low: u32, high: u32) -> Option<u32> {
        let r = self.up_range(low);
        self.up_to[r.clone()]
            .binary_search(&high)
            .ok()
            .map(|i| (r.start + i) as u32)
    }

    /// The lower end of edge `e`: the rank whose upward range holds it.
    #[inline]
    fn low_of_edge(&self, e: u32) -> u32 {
        (self.up_first.partition_point(|f| *f <= e) - 1) as u32
    }

    /// Whether `graph` has the shape this contraction was built from.
    fn check_shape(&self, graph: &ArcGraph) -> Result<(), ContractionError> {
        if graph.first != self.shape_first.as_slice() || shape_hash(graph.to) != self.shape_hash {
            return Err(ContractionError::BadOffsets(
                "not the graph this contraction was built from",
            ));
        }
        Ok(())
    }
}

/// FNV-1a over the arc targets.
fn shape_hash(to: &[u32]) -> u64 {
    to.iter().fold(0xcbf2_9ce4_8422_2325, |h, t| {
        (h ^ u64::from(*t)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Counting sort of `(key, value)` pairs into CSR: `(first, values)` with
/// the values of key `k` at `first[k]..first[k + 1]`, in the pairs' order.
/// `pairs` is called twice (count, then place), and each time run by
/// `for_each`: the callers' iterators nest (`flat_map` over each node's
/// arcs), which `for_each` runs as plain nested loops, where a `for` loop
/// paid a `next` of about 60 instructions per pair (5% of TheFrozenSea's
/// contraction on one thread).
fn bucket<T: Copy + Default, I: Iterator<Item = (u32, T)>>(
    keys: usize,
    pairs: impl Fn() -> I,
) -> (Vec<u32>, Vec<T>) {
    let mut first = vec![0u32; keys + 1];
    pairs().for_each(|(k, _)| first[k as usize + 1] += 1);
    for i in 0..keys {
        first[i + 1] += first[i];
    }
    let mut next = first.clone();
    let mut values = vec![T::default(); first[keys] as usize];
    pairs().for_each(|(k, v)| {
        values[next[k as usize] as usize] = v;
        next[k as usize] += 1;
    });
    (first, values)
}

/// The transpose of an upward CSR: per node, `(lower node, edge id)`, both
/// ascending.
fn transpose(up_first: &[u32], up_to: &[u32]) -> (Vec<u32>, Vec<(u32, u32)>) {
    bucket(up_first.len() - 1, || {
        (0..up_first.len() as u32 - 1).flat_map(move |u| {
            (up_first[u as usize]..up_first[u as usize + 1])
                .map(move |e| (up_to[e as usize], (u, e)))
        })
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_classic;
#[cfg(test)]
mod tests_patched;
#[cfg(test)]
mod tests_pruned;
#[cfg(test)]
mod tests_stored;
