//! The hierarchy: everything preprocessing produces, immutable and shared.
//!
//! Built once per map by [`HierarchyBuilder`] (or loaded from a file written by
//! [`Hierarchy::save`]), then queried from any number of threads, each with its
//! own scratch (see the query module).

mod build;
mod contracted;
mod file;
#[cfg(feature = "petgraph")]
mod graph_view;
mod repair;

pub use build::{
    BuildError, BuildSettings, BuildStats, CONTRACTION_STAGE, DEFAULT_CLUSTER_SIZE,
    DEFAULT_LANDMARKS, HierarchyBuilder, LARGE_MAP_CELLS, SCATTERED_CLUSTER_SIZE, SizeClassStats,
    StageStats, TOTAL_STAGE,
};
pub use contracted::{ContractionDone, ContractionJob};
pub use file::{FORMAT_VERSION, FileSummary, LoadError, MAGIC};
#[cfg(feature = "petgraph")]
pub use graph_view::{
    ClusterEdge, ClusterEdges, ClusterGraphView, ClusterNeighbors, ClusterNode, ClusterNodes,
};
pub(crate) use repair::Spliced;

use std::sync::Arc;

use crate::grid::{Grid, Movement, Point};
use crate::preprocess::sizes::UnitSizes;
use crate::preprocess::{ClusterGraph, ClusterLayout, DeadEnds, Entrances, Landmarks, NO_NODE};
use crate::search::{Guide, JumpLines, LineBits, SavedGuide};

fn entrances_bytes(e: &Entrances) -> usize {
    4 * (e.cells.len() + e.cluster_first.len())
        + 8 * e.links.len()
        + e.clear.len()
        + e.link_clear.len()
}

/// A preprocessed map: islands, dead ends and the cluster graph, plus the grid
/// they describe. Immutable, `Send + Sync`: build or load it once, share it
/// between threads, and give each thread its own query scratch.
///
/// ```
/// use tierpath::{Grid, Hierarchy, Point};
/// let grid = Grid::from_ascii("
///     ..@..
///     ..@..
///     @@@..
/// ").unwrap();
/// let h = Hierarchy::build(grid).unwrap();
/// assert!(h.same_island(Point::new(3, 0), Point::new(4, 2)));
/// assert!(!h.same_island(Point::new(0, 0), Point::new(4, 2)));
/// ```
///
/// # Performance
/// Memory is a few bytes per cell (contracted, on the six largest StarCraft
/// maps: 3.7 by median, 4.5 at most): each cell's node in the block-cut forest, which also gives its
/// island, stored once per 64-cell run that shares it (well under a byte per
/// cell); small per-node tables; the cluster graph in flat
/// compressed-sparse-row arrays; and, on a map of uniform cost, its rows and
/// columns as bitsets for the near search by jump points (a quarter of a
/// byte per cell on large maps, more on small ones, whose lines are short
/// beside their guard words). The build runs the in-cluster searches in
/// parallel (rayon). Loading a saved hierarchy streams the file through a
/// small buffer and checks what it says against the map (a file that loads
/// is as good as a fresh build; see `docs/hostile-input.md`) in parallel,
/// rebuilding nothing for one unit size: on those maps it is about 5 times
/// faster than building (5.0-5.6x in `cargo bench --bench build`, 23 Nov
/// 2026). A file for several sizes also rebuilds the clearance and the
/// components of every size from the map (about 4x faster than a build of
/// sizes 1 to 3 on TheFrozenSea, by instruction count).
///
/// # Unit sizes
///
/// Built with [`HierarchyBuilder::max_unit_size`]`(k)`, one hierarchy serves
/// square units of every size from 1 to `k` cells wide
/// ([`QueryOptions::unit_size`](crate::QueryOptions::unit_size) on every
/// query): its transitions and edges carry the largest size they admit
/// (Harabor and Botea's HAA*), instead of one hierarchy per size.
///
/// A unit of size `k` is a `k x k` square, named by its top-left cell (its
/// *anchor*); it occupies the cells `x..x+k` by `y..y+k`. It may stand on `p`
/// when every one of those cells is on the map and passable, that is when
/// the [`Clearance`](crate::Clearance) of `p` is at least `k`. A move
/// `p -> q` is legal for size `k` exactly when the size-1 move `p -> q` is
/// legal on the grid whose passable cells are those of clearance `>= k`,
/// under the same [`Movement`]. Stated on the square itself:
///
/// * a straight move needs the square to fit at `p` and at `q`;
/// * a diagonal move `p -> p + (dx, dy)` also needs, by the corner rule,
///   the square to fit at `p + (dx, 0)` and at `p + (0, dy)`
///   ([`CornerRule::Never`](crate::CornerRule::Never): the whole
///   `(k+1) x (k+1)` square swept by the move is free), at one of them
///   ([`CornerRule::IfOneFree`](crate::CornerRule::IfOneFree)), or nothing
///   more ([`CornerRule::Always`](crate::CornerRule::Always)).
///
/// For `k = 1` this is exactly the grid's own rule. A move costs its base
/// cost times the terrain weight of the anchor cell entered (the size-1 cost
/// on that grid). [`validate_sized_path`](crate::validate_sized_path) checks
/// a path against this rule cell by cell.
///
/// For every size: a path is found exactly when one exists (the components
/// of each size answer "unreachable" without a search, and every crossing
/// between clusters keeps a transition for every size that can make it);
/// every path returned is legal for the size and states its exact cost.
///
/// Memory for the sizes: one byte per cell of clearance, the components of
/// every size stored once per 64-cell run that shares a label, the
/// transitions only larger units need, and one byte per edge for its size;
/// a node's edges are sorted by that annotation, largest first, so a query
/// for size `k` reads a prefix and stops. Sizes whose in-cluster grids
/// coincide share one cost computation per cluster, and an edge serving a
/// run of sizes at one cost is stored once, with its moves when they wind
/// ([`BuildSettings::keep_paths`]), legal for every size it serves. Derived
/// at build and load (not saved): one byte per edge for the smallest size
/// it is the cheapest of its parallel edges for, and landmark distances of
/// their own for the larger sizes that must go around where smaller ones
/// pass.
#[derive(Debug, Clone)]
pub struct Hierarchy {
    grid: Grid,
    settings: BuildSettings,
    dead_ends: DeadEnds,
    entrances: Entrances,
    graph: ClusterGraph,
    landmarks: Landmarks,
    /// Clearance and components, when built for units above one cell.
    sizes: Option<UnitSizes>,
    /// The cluster graph contracted, when asked for (saved with it).
    contracted: Option<Box<contracted::Contracted>>,
    /// Whether [`Hierarchy::contract`] let go of the node anchors, which
    /// only the A* over the cluster graph reads: contracted queries never
    /// run it. Derived again when a
    /// [`DynamicHierarchy`](crate::DynamicHierarchy) takes the hierarchy
    /// (for the A* after a repair that ends the contraction).
    anchors_released: bool,
    /// Whether the landmark distances (every size's), which only that A*
    /// reads too, were let go of: by [`Hierarchy::contract`], or by a
    /// repair of a `DynamicHierarchy` whose contraction is kept for repairs
    /// (derived again by the repair that ends it). A save writes the
    /// landmarks a build would.
    landmarks_released: bool,
    /// Per abstract node: its cell's anchor in the block-cut forest and the end
    /// of the anchor's preorder range (for the dead-end test).
    node_anchor: Vec<(u32, u32)>,
    /// Per abstract node: its cell (derived at assembly, not saved).
    node_points: Vec<Point>,
    /// The grid's passability as bitsets for the exact near search by jump
    /// points, when the map has uniform cost and the movement rule allows
    /// (derived at assembly, kept up to date by repairs, not saved).
    jump_lines: Option<JumpLines>,
    /// Every cell's distance from a few landmarks, guiding the near search
    /// by jump points when added ([`Hierarchy::add_cell_landmarks`]; saved,
    /// and checked at load).
    guide: Option<Guide>,
    /// The smallest weight of a passable cell (heuristics scale by it).
    min_weight: crate::Weight,
    stats: BuildStats,
    /// Bumped by every repair of a [`DynamicHierarchy`](crate::DynamicHierarchy)
    /// (not saved), so searches in progress can tell the map changed.
    revision: u64,
    /// Who this hierarchy is, for queries that span calls (not saved).
    identity: Identity,
    /// The hierarchy of open ground the size of this map, while fog-of-war
    /// players who have seen nothing else plan on it (not saved).
    pub(crate) open_twin: crate::dynamic::OpenTwin,
    /// A fog-of-war player's view: its cluster graph read from the truth's
    /// hierarchy and open ground's (see `dynamic::view_graph`). While set,
    /// `entrances` holds the layout only, and `graph`, `landmarks`,
    /// `node_points` and `node_anchor` hold nothing: the node and edge
    /// accessors read the view.
    view: Option<Box<crate::dynamic::ViewParts>>,
}

/// The out-edges of an abstract node, `(target, cost, edge)`: from the
/// hierarchy's own graph, or from a fog-of-war view's.
#[derive(Debug, Clone)]
pub(crate) enum OutEdges<'a> {
    Own(crate::preprocess::graph::GraphEdges<'a>),
    View(crate::dynamic::ViewEdges<'a>),
}

impl Iterator for OutEdges<'_> {
    type Item = (u32, u64, usize);

    #[inline]
    fn next(&mut self) -> Option<(u32, u64, usize)> {
        match self {
            OutEdges::Own(edges) => edges.next(),
            OutEdges::View(edges) => edges.next(),
        }
    }
}

/// How a search over the cluster graph reads nodes and edges, chosen once
/// per search so that its loop is compiled for each: [`OwnNodes`] for a
/// hierarchy's own graph, [`ViewNodes`] for a fog-of-war view's.
pub(crate) trait NodeReader: Copy {
    type Edges: Iterator<Item = (u32, u64, usize)>;
    /// The out-edges of node `v`: `(target, cost, edge)`.
    fn out_edges(self, v: u32) -> Self::Edges;
    /// The cell of node `v`.
    fn point(self, v: u32) -> Point;
    /// Node `v`'s anchor in the dead-end forest and the end of its range.
    fn anchor(self, v: u32) -> (u32, u32);
}

/// A hierarchy's own cluster graph, read from its arrays.
#[derive(Clone, Copy)]
pub(crate) struct OwnNodes<'a>(&'a Hierarchy);

impl<'a> NodeReader for OwnNodes<'a> {
    type Edges = crate::preprocess::graph::GraphEdges<'a>;
    #[inline(always)]
    fn out_edges(self, v: u32) -> Self::Edges {
        self.0.graph.out_edges(v)
    }
    #[inline(always)]
    fn point(self, v: u32) -> Point {
        self.0.node_points[v as usize]
    }
    #[inline(always)]
    fn anchor(self, v: u32) -> (u32, u32) {
        self.0.node_anchor[v as usize]
    }
}

/// A fog-of-war view's cluster graph, read through its view graph.
#[derive(Clone, Copy)]
pub(crate) struct ViewNodes<'a> {
    h: &'a Hierarchy,
    view: &'a crate::dynamic::ViewParts,
}

impl<'a> NodeReader for ViewNodes<'a> {
    type Edges = crate::dynamic::ViewEdges<'a>;
    #[inline]
    fn out_edges(self, v: u32) -> Self::Edges {
        let view = self.view;
        view.graph.out_edges(&view.truth, &view.open, v)
    }
    #[inline]
    fn point(self, v: u32) -> Point {
        let view = self.view;
        let cell = view.graph.node_cell(&view.truth, &view.open, v);
        self.h.grid.point_of(crate::CellIndex(cell))
    }
    #[inline]
    fn anchor(self, v: u32) -> (u32, u32) {
        let view = self.view;
        let cell = view.graph.node_cell(&view.truth, &view.open, v);
        let d = &self.h.dead_ends;
        let a = d.anchor_of(cell as usize);
        (a, d.block_end[a as usize])
    }
}

/// The reader of a hierarchy's cluster graph (see [`NodeReader`]).
#[derive(Clone, Copy)]
pub(crate) enum Nodes<'a> {
    Own(OwnNodes<'a>),
    View(ViewNodes<'a>),
}

/// What the build stages produce (or a file holds) for a hierarchy.
pub(crate) struct Products {
    pub(crate) dead_ends: DeadEnds,
    pub(crate) entrances: Entrances,
    pub(crate) graph: ClusterGraph,
    pub(crate) landmarks: Landmarks,
    pub(crate) sizes: Option<UnitSizes>,
    /// The grid's row and column bitsets, made beside the stages (or left
    /// for the assembly to make).
    pub(crate) line_bits: Option<LineBits>,
}

/// A hierarchy's identity in this process, so that a query spanning calls
/// ([`SlicedQuery`](crate::SlicedQuery), [`PathQueue`](crate::PathQueue))
/// recognises the hierarchy it was started on without comparing contents.
/// Every build and load takes a fresh `id` from a process-wide counter and
/// starts a `lineage` with it; every repair, and every contraction installed
/// or ended, takes a fresh `id` and keeps the lineage. A clone shares both
/// (it answers every query alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    /// Unique to this content in this process.
    pub id: u64,
    /// The `id` of the build or load this hierarchy was repaired from.
    pub lineage: u64,
    /// Names the cluster graph's arcs and costs (the `id` of the change
    /// that last changed them): kept by repairs that leave them as they
    /// were. A contraction is made for it.
    pub arcs: u64,
}

impl Identity {
    /// A fresh identity, starting a lineage.
    pub(crate) fn fresh() -> Identity {
        let id = next_identity();
        Identity {
            id,
            lineage: id,
            arcs: id,
        }
    }

    /// The identity after a change of what queries read (a repair, a
    /// contraction installed): a fresh id, the same lineage, and the same
    /// `arcs` when the change kept the cluster graph's arcs and costs.
    pub(crate) fn renewed(self, arcs_kept: bool) -> Identity {
        let id = next_identity();
        Identity {
            id,
            lineage: self.lineage,
            arcs: if arcs_kept { self.arcs } else { id },
        }
    }
}

fn next_identity() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Hierarchy {
    /// Builds a hierarchy with the default settings.
    pub fn build(grid: Grid) -> Result<Hierarchy, BuildError> {
        HierarchyBuilder::new().build(grid)
    }

    /// Starts a builder.
    pub fn builder() -> HierarchyBuilder {
        HierarchyBuilder::new()
    }

    /// The hierarchy of `grid` from the stages' products (built or loaded).
    pub(crate) fn assemble(
        grid: Grid,
        settings: BuildSettings,
        products: Products,
        stages: Vec<StageStats>,
    ) -> Hierarchy {
        let Products {
            dead_ends,
            entrances,
            graph,
            landmarks,
            sizes,
            line_bits,
        } = products;
        let line_bits = line_bits.unwrap_or_else(|| LineBits::of(&grid));
        let mut h = Hierarchy {
            node_points: Vec::new(),
            jump_lines: JumpLines::with_bits(line_bits, &grid, settings.movement).ok(),
            guide: None,
            min_weight: grid.min_weight(),
            stats: BuildStats {
                stages,
                ..BuildStats::default()
            },
            grid,
            settings,
            dead_ends,
            entrances,
            graph,
            landmarks,
            sizes,
            contracted: None,
            anchors_released: false,
            landmarks_released: false,
            node_anchor: Vec::new(),
            revision: 0,
            identity: Identity::fresh(),
            open_twin: Default::default(),
            view: None,
        };
        h.node_points = h
            .entrances
            .cells
            .iter()
            .map(|c| h.grid.point_of(crate::CellIndex(*c)))
            .collect();
        h.refresh_node_anchors();
        h.refresh_search_aids(true);
        h.refresh_stats();
        h
    }

    /// A fog-of-war player's view of `truth` before it has seen anything:
    /// the map of `open` (open plain ground, built with `truth`'s settings),
    /// its islands, dead ends and jump lines, and a cluster graph read from
    /// `truth` and `open` (see `dynamic::view_graph`) instead of one of its
    /// own. No landmarks: the truth's do not bound a view's distances (a
    /// view opens cells the truth blocks), and open ground's are the octile
    /// bound itself.
    pub(crate) fn view_of(truth: Arc<Hierarchy>, open: Arc<Hierarchy>) -> Hierarchy {
        let mut graph = crate::dynamic::ViewGraph::new(&truth);
        graph.renumber(&truth, &open);
        let layout = open.entrances.layout;
        let mut h = Hierarchy {
            grid: open.grid.clone(),
            settings: BuildSettings {
                landmarks: 0,
                ..open.settings
            },
            dead_ends: open.dead_ends.clone(),
            entrances: Entrances {
                layout,
                cells: Vec::new(),
                cluster_first: vec![0; layout.count() + 1],
                links: Vec::new(),
                entrances: 0,
                clear: Vec::new(),
                link_clear: Vec::new(),
            },
            graph: ClusterGraph::default(),
            landmarks: Landmarks::default(),
            sizes: None,
            contracted: None,
            anchors_released: false,
            landmarks_released: false,
            node_anchor: Vec::new(),
            node_points: Vec::new(),
            jump_lines: open.jump_lines.clone(),
            guide: None,
            min_weight: open.min_weight,
            stats: open.stats.clone(),
            revision: 0,
            identity: Identity::fresh(),
            open_twin: Default::default(),
            view: None,
        };
        h.view = Some(Box::new(crate::dynamic::ViewParts { truth, open, graph }));
        h.refresh_stats();
        h
    }

    /// This hierarchy with a cluster graph of its own: a fog-of-war view is
    /// built again on its map with its settings (the view's graph is that
    /// build's, read from elsewhere); any other hierarchy is itself.
    pub(crate) fn into_own(self) -> Hierarchy {
        if self.view.is_none() {
            return self;
        }
        HierarchyBuilder::with_settings(self.settings)
            .build(self.grid)
            .expect("the settings and map size of a hierarchy already built")
    }

    /// [`into_own`](Self::into_own) in place.
    pub(crate) fn make_own(&mut self) {
        if self.view.is_some() {
            let own = self.clone().into_own();
            *self = own;
        }
    }

    /// Takes in cells a fog-of-war player has just seen (`revealed`, whose
    /// truth is not open plain ground), already set on the grid: the view
    /// graph classes the clusters around them again and lays out the parts
    /// of its own. Returns the clusters whose part changed.
    pub(crate) fn reveal_in_view(
        &mut self,
        revealed: &[Point],
        search: &mut crate::preprocess::cluster_search::ClusterSearch,
    ) -> Vec<u32> {
        let Hierarchy { grid, view, .. } = self;
        let view = view.as_mut().expect("a fog-of-war view");
        view.graph
            .reveal(&view.truth, &view.open, grid, revealed, search)
    }

    /// Derives each abstract node's place in the dead-end forest.
    pub(crate) fn refresh_node_anchors(&mut self) {
        let d = &self.dead_ends;
        self.node_anchor = self
            .entrances
            .cells
            .iter()
            .map(|c| {
                let a = d.anchor_of(*c as usize);
                (a, d.block_end[a as usize])
            })
            .collect();
    }

    /// Recomputes the sizes and counts in the stats (the stage times stay).
    pub(crate) fn refresh_stats(&mut self) {
        let stages = std::mem::take(&mut self.stats.stages);
        let (intra_edges, inter_edges) = match &self.view {
            None => (self.graph.intra_edges(), self.graph.inter_edges()),
            Some(v) => v.graph.edge_split(&v.truth, &v.open),
        };
        self.stats = BuildStats {
            stages,
            width: self.grid.width(),
            height: self.grid.height(),
            // Every passable cell is on exactly one island.
            passable_cells: self.dead_ends.island_sizes.iter().map(|s| *s as u64).sum(),
            islands: self.dead_ends.islands() as u64,
            dead_end_cells: self.dead_ends.dead_end_cells(),
            articulation_cells: self.dead_ends.articulation_cells(),
            clusters: self.entrances.layout.count() as u64,
            entrances: self.entrances.entrances(),
            nodes: self.node_count() as u64,
            intra_edges,
            inter_edges,
            memory_bytes: 0,
            per_size: self.size_class_stats(intra_edges + inter_edges),
        };
        self.stats.memory_bytes = self.memory_bytes() as u64;
    }

    /// What each unit size sees, when built for several (`edges`: the
    /// cluster graph's, for a hierarchy of one size).
    fn size_class_stats(&self, edges: u64) -> Vec<SizeClassStats> {
        let Some(sizes) = &self.sizes else {
            return vec![SizeClassStats {
                size: 1,
                cells: self.dead_ends.island_sizes.iter().map(|s| *s as u64).sum(),
                components: self.dead_ends.islands() as u32,
                nodes: self.node_count() as u64,
                edges,
            }];
        };
        let cells = sizes.components.cells_per_level();
        (1..=sizes.max)
            .map(|k| SizeClassStats {
                size: k as u32,
                cells: cells[k as usize..].iter().sum(),
                components: sizes.components.per_size()[k as usize - 1],
                nodes: self.entrances.clear.iter().filter(|c| **c >= k).count() as u64,
                // Those serving `k` that no cheaper parallel edge supersedes.
                edges: sizes.aids.serving[k as usize - 1],
            })
            .collect()
    }

    /// The largest unit size this hierarchy serves
    /// ([`HierarchyBuilder::max_unit_size`]; 1 unless built for more).
    pub fn max_unit_size(&self) -> u32 {
        self.sizes.as_ref().map_or(1, |s| s.max as u32)
    }

    /// The contraction stored, whichever hierarchy it was made for.
    fn contracted_raw(&self) -> Option<&contracted::Contracted> {
        self.contracted.as_deref()
    }

    /// Stores (or drops) the contraction of the cluster graph.
    fn set_contracted(&mut self, c: Option<contracted::Contracted>) {
        self.contracted = c.map(Box::new);
        self.stats.memory_bytes = self.memory_bytes() as u64;
    }

    /// The clearance and components of the sizes above 1, when built for them.
    pub(crate) fn sizes(&self) -> Option<&UnitSizes> {
        self.sizes.as_ref()
    }

    /// How many repairs changed this hierarchy since it was built or loaded
    /// (see [`DynamicHierarchy`](crate::DynamicHierarchy)).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The grid this hierarchy describes.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The settings it was built with.
    pub fn settings(&self) -> &BuildSettings {
        &self.settings
    }

    /// The movement rules its queries use.
    pub fn movement(&self) -> &Movement {
        &self.settings.movement
    }

    /// Build statistics.
    pub fn stats(&self) -> &BuildStats {
        &self.stats
    }

    /// The cluster layout.
    pub fn layout(&self) -> &ClusterLayout {
        &self.entrances.layout
    }

    /// The island of `p`, `None` when blocked or off the map. Constant time.
    pub fn island_of(&self, p: Point) -> Option<u32> {
        if !self.grid.contains(p) {
            return None;
        }
        self.dead_ends.island_of(self.grid.cell_index(p).index())
    }

    /// Whether `a` and `b` are passable and on the same island (a path exists).
    /// Constant time.
    pub fn same_island(&self, a: Point, b: Point) -> bool {
        match (self.island_of(a), self.island_of(b)) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        }
    }

    /// Whether `p` lies in a dead-end region (see the dead-end stage's docs).
    pub fn in_dead_end(&self, p: Point) -> bool {
        self.grid.contains(p) && self.dead_ends.in_dead_end(self.grid.cell_index(p).index())
    }

    /// Whether `p` may lie on a least-cost path from `s` to `t`: false only for
    /// cells in dead-end regions that hold neither endpoint. All three must be
    /// passable.
    pub fn may_use(&self, p: Point, s: Point, t: Point) -> bool {
        let idx = |q: Point| self.grid.cell_index(q).index();
        if !(self.grid.is_passable(p) && self.grid.is_passable(s) && self.grid.is_passable(t)) {
            return false;
        }
        let (ns, nt) = (
            self.dead_ends.anchor_of(idx(s)),
            self.dead_ends.anchor_of(idx(t)),
        );
        debug_assert!(ns != NO_NODE && nt != NO_NODE);
        self.dead_ends.relevant(idx(p), ns, nt)
    }

    /// The transition cells (abstract nodes), grouped by cluster.
    pub fn transitions(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.node_count() as u32).map(|v| self.node_point(v))
    }

    /// The abstract edges as `(from cell, to cell, cost)`.
    pub fn abstract_edges(&self) -> impl Iterator<Item = (Point, Point, crate::Cost)> + '_ {
        (0..self.node_count() as u32).flat_map(move |v| {
            self.out_edges(v)
                .map(move |(w, c, _)| (self.node_point(v), self.node_point(w), crate::Cost(c)))
        })
    }

    /// Number of abstract edges.
    pub(crate) fn edge_count(&self) -> usize {
        match &self.view {
            None => self.graph.edges(),
            Some(v) => {
                let (intra, inter) = v.graph.edge_split(&v.truth, &v.open);
                (intra + inter) as usize
            }
        }
    }

    /// Islands and the dead-end forest.
    pub(crate) fn dead_ends(&self) -> &DeadEnds {
        &self.dead_ends
    }

    /// The transitions (abstract nodes) by cluster, and the links between
    /// clusters.
    pub(crate) fn entrances(&self) -> &Entrances {
        &self.entrances
    }

    /// The cluster graph: abstract edges, their costs and stored paths.
    pub(crate) fn graph(&self) -> &ClusterGraph {
        &self.graph
    }

    /// Landmark distances over the cluster graph.
    pub(crate) fn landmarks(&self) -> &Landmarks {
        &self.landmarks
    }

    /// The passability bitsets of the exact near search, when the map has
    /// uniform cost and the movement rule allows jump point search.
    pub(crate) fn jump_lines(&self) -> Option<&JumpLines> {
        self.jump_lines.as_ref()
    }

    /// The landmark distances guiding the near search, when added.
    pub(crate) fn guide(&self) -> Option<&Guide> {
        self.guide.as_ref()
    }

    /// Number of abstract nodes.
    #[inline]
    pub(crate) fn node_count(&self) -> usize {
        match &self.view {
            None => self.entrances.cells.len(),
            Some(v) => v.graph.nodes(),
        }
    }

    /// The abstract nodes of cluster `c`, as the range `a..b`.
    #[inline]
    pub(crate) fn cluster_nodes(&self, c: u32) -> (u32, u32) {
        match &self.view {
            None => {
                let first = &self.entrances.cluster_first;
                (first[c as usize], first[c as usize + 1])
            }
            Some(v) => v.graph.cluster_nodes(c),
        }
    }

    /// Abstract node `v`'s cell.
    #[inline]
    pub(crate) fn node_point(&self, v: u32) -> Point {
        match self.nodes() {
            Nodes::Own(n) => n.point(v),
            Nodes::View(n) => n.point(v),
        }
    }

    /// Abstract node `v`'s anchor in the dead-end forest and the end of the
    /// anchor's preorder range.
    #[inline]
    pub(crate) fn node_anchor(&self, v: u32) -> (u32, u32) {
        match self.nodes() {
            Nodes::Own(n) => n.anchor(v),
            Nodes::View(n) => n.anchor(v),
        }
    }

    /// The out-edges of abstract node `v`: `(target, cost, edge)`.
    #[inline]
    pub(crate) fn out_edges(&self, v: u32) -> OutEdges<'_> {
        match self.nodes() {
            Nodes::Own(n) => OutEdges::Own(n.out_edges(v)),
            Nodes::View(n) => OutEdges::View(n.out_edges(v)),
        }
    }

    /// The moves behind edge `e` as direction codes, when stored.
    #[inline]
    pub(crate) fn edge_path(&self, e: u32) -> Option<&[u8]> {
        match &self.view {
            None => self.graph.edge_path(e as usize),
            Some(view) => view.graph.edge_path(&view.truth, &view.open, e),
        }
    }

    /// The reader of this hierarchy's cluster graph: its own arrays, or a
    /// fog-of-war view's graph.
    #[inline]
    pub(crate) fn nodes(&self) -> Nodes<'_> {
        match self.view.as_deref() {
            None => Nodes::Own(OwnNodes(self)),
            Some(view) => Nodes::View(ViewNodes { h: self, view }),
        }
    }

    /// The fog-of-war view this hierarchy reads its cluster graph from, if
    /// any.
    pub(crate) fn view(&self) -> Option<&crate::dynamic::ViewParts> {
        self.view.as_deref()
    }

    /// Each abstract node's cell, by node.
    pub(crate) fn node_points(&self) -> &[Point] {
        &self.node_points
    }

    /// Each abstract node's anchor in the dead-end forest and the end of the
    /// anchor's preorder range, by node.
    #[cfg(test)]
    pub(crate) fn node_anchors(&self) -> &[(u32, u32)] {
        &self.node_anchor
    }

    /// The smallest weight of a passable cell.
    pub(crate) fn min_weight(&self) -> crate::Weight {
        self.min_weight
    }

    /// Who this hierarchy is in this process.
    pub(crate) fn identity(&self) -> Identity {
        self.identity
    }

    /// Adds every cell's distance from `count` landmarks (1 to 4, chosen
    /// farthest first) to guide the near search by jump points, and lets
    /// that search answer queries at any distance: a query for a unit of one
    /// cell on this map of uniform cost is then answered by exact jump point
    /// search whose estimate is the larger of the octile distance and the
    /// landmarks' triangle bound, given up for the hierarchical answer after
    /// 256 jump points (as the near search is). Returns whether they were
    /// added: not on a weighted map, under a movement rule jump point search
    /// refuses, nor on a map whose distances exceed 32 bits.
    ///
    /// ```
    /// use tierpath::{Grid, Hierarchy, Point, QueryCache};
    /// // Walls that make the straight line a poor guess.
    /// let grid = Grid::from_fn(120, 90, |p| p.x % 30 != 15 || (p.y == 0) == (p.x % 60 == 15))?;
    /// let mut h = Hierarchy::build(grid)?;
    /// assert!(h.add_cell_landmarks(2));
    /// let mut cache = QueryCache::new();
    /// let found = h.find_path(&mut cache, Point::new(0, 45), Point::new(119, 45))?;
    /// assert!(found.path.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Performance
    /// Four bytes per cell per landmark (two landmarks on a 256x256 map:
    /// 0.5 MB), and one Dijkstra over the map per landmark plus one. Meant
    /// for maps like Dragon Age's (small ones, and indoor ones whose ways
    /// wind), where jump point search so guided answers long queries faster
    /// than the hierarchy: 1.63x exact JPS's speed by median there, against
    /// 0.85x without. On StarCraft maps, mazes and rooms of 512x512 cells
    /// and more the hierarchy alone is faster (docs/results.md, "Cell
    /// landmarks"). Saved with the hierarchy ([`save`](Self::save)); a
    /// load checks them (every legal move changes each distance by at most
    /// its cost, which keeps the search exact whatever the values).
    /// Repairs keep them: closing cells changes nothing (distances can
    /// only grow, so the bound stays exact); opening cells lowers the
    /// distances the opening shortens, by a search from the opened cells
    /// that goes only as far as they shrink. A terrain weight drops them.
    ///
    /// Adding them (or others in their place) gives the hierarchy a new
    /// identity, as installing a contraction does: plans and time-sliced
    /// queries begun before plan again or refuse
    /// ([`PathPlan::is_valid_for`](crate::PathPlan::is_valid_for)), since a
    /// search must not change its estimate half-way.
    pub fn add_cell_landmarks(&mut self, count: usize) -> bool {
        if self.jump_lines.is_none() {
            return false;
        }
        let had = self.guide.is_some();
        self.guide = Guide::new(&self.grid, self.settings.movement, count);
        if had || self.guide.is_some() {
            self.identity = self.identity.renewed(true);
        }
        self.stats.memory_bytes = self.memory_bytes() as u64;
        self.guide.is_some()
    }

    /// Whether cell landmarks guide the near search
    /// ([`add_cell_landmarks`](Self::add_cell_landmarks)).
    pub fn has_cell_landmarks(&self) -> bool {
        self.guide.is_some()
    }

    /// The cell landmarks as a file stores them, when added.
    pub(crate) fn guide_to_save(&self) -> Option<SavedGuide> {
        self.guide.as_ref().map(|g| g.to_saved(&self.grid))
    }

    /// Installs the cell landmarks a file stored, once checked to keep the
    /// search exact ([`Guide::from_saved`]); refused where jump point search
    /// cannot run (a weighted map, a movement rule it refuses).
    pub(crate) fn install_saved_guide(&mut self, saved: SavedGuide) -> Result<(), String> {
        if self.jump_lines.is_none() {
            return Err(
                "cell landmarks for a map or movement rule jump point search refuses".into(),
            );
        }
        self.guide = Some(Guide::from_saved(
            &self.grid,
            self.settings.movement,
            saved,
        )?);
        self.stats.memory_bytes = self.memory_bytes() as u64;
        Ok(())
    }

    /// Brings the cell landmarks up to date after a repair opened `opened`
    /// ([`Guide::open_cells`]), dropping them in the one case that cannot.
    pub(crate) fn open_cell_landmarks(&mut self, opened: &[Point]) {
        let movement = self.settings.movement;
        if let Some(guide) = &mut self.guide
            && !guide.open_cells(&self.grid, movement, opened)
        {
            self.guide = None;
            self.stats.memory_bytes = self.memory_bytes() as u64;
        }
    }

    /// Bytes held, excluding the grid.
    pub fn memory_bytes(&self) -> usize {
        self.dead_ends.memory_bytes()
            + entrances_bytes(&self.entrances)
            + self.graph.memory_bytes()
            + self.node_anchor.len() * 8
            + self.node_points.len() * 8
            + self.landmarks.memory_bytes()
            + self.sizes.as_ref().map_or(0, UnitSizes::memory_bytes)
            + self.contracted.as_ref().map_or(0, |c| c.memory_bytes())
            + self.jump_lines.as_ref().map_or(0, JumpLines::memory_bytes)
            + self.guide.as_ref().map_or(0, Guide::memory_bytes)
            + self.view.as_ref().map_or(0, |v| v.graph.memory_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<Hierarchy>();
    }

    #[test]
    fn large_maps_get_transitions_at_entrance_ends_unless_told() {
        use crate::{EntrancePolicy, LARGE_MAP_CELLS};
        let side = (LARGE_MAP_CELLS as f64).sqrt() as u32;
        assert_eq!(u64::from(side) * u64::from(side), LARGE_MAP_CELLS);
        let policy = |builder: HierarchyBuilder, w: u32, h: u32| {
            builder
                .build(Grid::new(w, h).unwrap())
                .unwrap()
                .settings()
                .entrances
        };
        assert_eq!(
            policy(HierarchyBuilder::new(), side, side),
            EntrancePolicy::ENDS
        );
        assert_eq!(
            policy(HierarchyBuilder::new(), side, side - 1),
            EntrancePolicy::default()
        );
        // Large, with walls in every cluster but one in five: the ends;
        // but one in six: the default.
        let walled = |every: u32| {
            HierarchyBuilder::new()
                .cluster_size(16)
                .build(
                    Grid::from_fn(side, side, |p| {
                        let cluster = p.y / 16 * side.div_ceil(16) + p.x / 16;
                        !(p.x % 16 == 5 && p.y % 16 == 5 && !cluster.is_multiple_of(every))
                    })
                    .unwrap(),
                )
                .unwrap()
                .settings()
                .entrances
        };
        assert_eq!(walled(5), EntrancePolicy::ENDS, "a fifth open");
        assert_eq!(walled(6), EntrancePolicy::default(), "a sixth open");
        let told = EntrancePolicy {
            single_below: 3,
            max_gap: 5,
        };
        assert_eq!(
            policy(HierarchyBuilder::new().entrance_policy(told), side, side),
            told
        );
        let settings = BuildSettings::default();
        assert_eq!(
            policy(HierarchyBuilder::with_settings(settings), side, side),
            EntrancePolicy::default()
        );
    }

    #[test]
    fn rejects_bad_settings() {
        let g = Grid::new(8, 8).unwrap();
        assert_eq!(
            HierarchyBuilder::new()
                .cluster_size(1)
                .build(g.clone())
                .unwrap_err(),
            BuildError::ClusterSize(1)
        );
        let bad = Movement {
            straight: 0,
            ..Movement::default()
        };
        assert!(matches!(
            HierarchyBuilder::new().movement(bad).build(g),
            Err(BuildError::Movement(_))
        ));
    }
}
