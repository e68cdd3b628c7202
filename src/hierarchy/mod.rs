//! The hierarchy: everything preprocessing produces, immutable and shared.
//!
//! Built once per map by [`HierarchyBuilder`] (or loaded from a file written by
//! [`Hierarchy::save`]), then queried from any number of threads, each with its
//! own scratch (see the query module).

mod file;

pub use file::{FORMAT_VERSION, LoadError, MAGIC};

use std::time::Instant;

use thiserror::Error;

use crate::grid::{Grid, GridError, Movement, Point};
use crate::preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Landmarks, NO_NODE,
    build_cluster_graph, find_dead_ends, find_entrances, find_islands, find_landmarks,
};

/// Settings a hierarchy is built with (saved with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BuildSettings {
    /// Side of a cluster in cells.
    pub cluster_size: u32,
    /// Movement rules the hierarchy answers queries under.
    pub movement: Movement,
    /// Placement of transition cells along entrances.
    pub entrances: EntrancePolicy,
    /// Keep the path behind every abstract edge that winds (costs over 5/4 of
    /// its straight-line bound), one byte per move: refining it becomes a
    /// copy instead of a search. Straight and near-straight edges are found
    /// again cheaply and are not stored; on open maps few edges wind, on mazes
    /// most do.
    pub keep_paths: bool,
    /// Number of landmarks for the planner's heuristic (0 to 16; 0 turns the
    /// landmark bound off).
    pub landmarks: u32,
}

/// The default cluster side, chosen by benchmark: swept over 8, 12, 16, 24
/// and 32 on 28 maps of all five sets (top-10-bucket queries), 16 was at or
/// near the fastest query time on sc1, rooms and mazes, with the lowest build
/// time; 24 and 32 improved random maps' quality (mean 0.60% and 0.45% above
/// optimal against 0.78%) and memory, but answered no faster.
pub const DEFAULT_CLUSTER_SIZE: u32 = 16;
/// The default number of landmarks: the four map corners. More landmarks
/// (the edge midpoints next, up to 16) sharpen the planner's heuristic at the
/// price of one search over the cluster graph each at build time and 4-8
/// bytes per transition. Measured on top-10-bucket queries of five maps (two
/// 1024x1024 StarCraft maps, a Dragon Age map, a maze and a rooms map), the
/// cluster-graph nodes expanded per query were, for 0 / 4 / 8 / 16 landmarks:
/// TheFrozenSea 11224 / 4287 / 2725 / 1907, Cauldron 13693 / 3183 / 2341 /
/// 1418, orz700d 2880 / 1024 / 526 / 389, maze512-4 12589 / 5113 / 2139 /
/// 1785; with 8, queries on the large StarCraft maps and mazes ran about 30%
/// faster than with 4. When that was measured, 8 pushed the largest maps'
/// build past the 50 ms it aims for; since the stages were made faster,
/// TheFrozenSea builds in about 31-38 ms with 4 and about 33 ms in one
/// measurement with 8. Four stays the default, for the margin on a shared
/// machine (the README's query figures are measured with it);
/// `HierarchyBuilder::landmarks(8)` trades a few milliseconds of build for
/// faster queries.
pub const DEFAULT_LANDMARKS: u32 = 4;

impl Default for BuildSettings {
    fn default() -> Self {
        BuildSettings {
            cluster_size: DEFAULT_CLUSTER_SIZE,
            movement: Movement::default(),
            entrances: EntrancePolicy::default(),
            keep_paths: true,
            landmarks: DEFAULT_LANDMARKS,
        }
    }
}

/// Why a hierarchy could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// Unusable movement rules.
    #[error(transparent)]
    Movement(#[from] GridError),
    /// A cluster side outside 2..=1024.
    #[error("cluster size {0} is out of range: use 2 to 1024")]
    ClusterSize(u32),
    /// More than 16 landmarks.
    #[error("{0} landmarks is out of range: use 0 to 16")]
    Landmarks(u32),
}

/// Name of the [`BuildStats::stages`] entry that holds the whole build's time.
pub const TOTAL_STAGE: &str = "total (wall)";

/// Time and size of one build stage.
#[derive(Debug, Clone, PartialEq)]
pub struct StageStats {
    /// Stage name.
    pub name: String,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes of its product.
    pub bytes: u64,
}

/// What a build produced and what it cost (printed by `tierpath preprocess`
/// and `tierpath info`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BuildStats {
    /// Per-stage timings and sizes, in build order, then the whole build's wall
    /// time as a last entry named [`TOTAL_STAGE`] (the two stage chains run side
    /// by side, so stage times overlap).
    pub stages: Vec<StageStats>,
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Passable cells.
    pub passable_cells: u64,
    /// Islands (connected components).
    pub islands: u64,
    /// Cells in dead-end regions.
    pub dead_end_cells: u64,
    /// Articulation cells.
    pub articulation_cells: u64,
    /// Clusters.
    pub clusters: u64,
    /// Entrances between clusters.
    pub entrances: u64,
    /// Abstract nodes (transition cells).
    pub nodes: u64,
    /// Abstract edges inside clusters.
    pub intra_edges: u64,
    /// Abstract edges between clusters.
    pub inter_edges: u64,
    /// Bytes the hierarchy holds in memory, excluding the grid itself.
    pub memory_bytes: u64,
}

impl BuildStats {
    /// The whole build's wall-clock seconds.
    pub fn total_seconds(&self) -> f64 {
        self.stages
            .iter()
            .find(|s| s.name == TOTAL_STAGE)
            .map_or_else(
                || self.stages.iter().map(|s| s.seconds).sum(),
                |s| s.seconds,
            )
    }

    /// Share of passable cells in dead ends, 0..=1.
    pub fn dead_end_share(&self) -> f64 {
        if self.passable_cells == 0 {
            0.0
        } else {
            self.dead_end_cells as f64 / self.passable_cells as f64
        }
    }

    /// Memory per map cell, in bytes.
    pub fn bytes_per_cell(&self) -> f64 {
        self.memory_bytes as f64 / (self.width as f64 * self.height as f64)
    }
}

/// Builds a [`Hierarchy`] in named, timed stages.
///
/// ```
/// use tierpath::{Grid, HierarchyBuilder};
/// let grid = Grid::new(64, 64).unwrap();
/// let h = HierarchyBuilder::new().cluster_size(16).build(grid).unwrap();
/// assert_eq!(h.stats().clusters, 16);
/// assert_eq!(h.stats().stages.len(), 6); // five stages and the total
/// ```
#[derive(Debug, Clone, Default)]
pub struct HierarchyBuilder {
    settings: BuildSettings,
}

impl HierarchyBuilder {
    /// A builder with [`BuildSettings::default`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder with these settings.
    pub fn with_settings(settings: BuildSettings) -> Self {
        HierarchyBuilder { settings }
    }

    /// Sets the cluster side.
    pub fn cluster_size(mut self, size: u32) -> Self {
        self.settings.cluster_size = size;
        self
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.settings.movement = movement;
        self
    }

    /// Sets the transition placement policy.
    pub fn entrance_policy(mut self, policy: EntrancePolicy) -> Self {
        self.settings.entrances = policy;
        self
    }

    /// Sets the number of landmarks (0 to 16).
    pub fn landmarks(mut self, count: u32) -> Self {
        self.settings.landmarks = count;
        self
    }

    /// Keeps the cell paths behind abstract edges.
    pub fn keep_paths(mut self, on: bool) -> Self {
        self.settings.keep_paths = on;
        self
    }

    /// The settings so far.
    pub fn settings(&self) -> &BuildSettings {
        &self.settings
    }

    /// Runs the stages on `grid` and returns the hierarchy, which owns the grid.
    pub fn build(&self, grid: Grid) -> Result<Hierarchy, BuildError> {
        let s = self.settings;
        s.movement.validate()?;
        if !(2..=1024).contains(&s.cluster_size) {
            return Err(BuildError::ClusterSize(s.cluster_size));
        }
        if s.landmarks > 16 {
            return Err(BuildError::Landmarks(s.landmarks));
        }
        let started = Instant::now();
        let timed = |name: &str, start: Instant, bytes: usize| StageStats {
            name: name.to_string(),
            seconds: start.elapsed().as_secs_f64(),
            bytes: bytes as u64,
        };
        // Two independent chains side by side: islands -> dead ends, and
        // entrances -> cluster graph (itself parallel across clusters) ->
        // landmarks.
        let (topology, (entrances, graph, landmarks, graph_stages)) = rayon::join(
            || {
                let t = Instant::now();
                let islands = find_islands(&grid, &s.movement);
                let st1 = timed("islands", t, islands.labels.len() * 4);
                let t = Instant::now();
                let dead_ends = find_dead_ends(&grid, &s.movement, &islands);
                let st2 = timed("dead ends", t, dead_ends.memory_bytes());
                (dead_ends, [st1, st2])
            },
            || {
                let t = Instant::now();
                let entrances = find_entrances(&grid, &s.movement, s.cluster_size, &s.entrances);
                let st3 = timed("entrances", t, entrances_bytes(&entrances));
                let t = Instant::now();
                let graph = build_cluster_graph(&grid, &s.movement, &entrances, s.keep_paths);
                let st4 = timed("cluster graph", t, graph.memory_bytes());
                let t = Instant::now();
                let node_points: Vec<Point> = entrances
                    .cells
                    .iter()
                    .map(|c| grid.point_of(crate::CellIndex(*c)))
                    .collect();
                let landmarks = find_landmarks(
                    &graph,
                    &node_points,
                    grid.width(),
                    grid.height(),
                    s.landmarks,
                );
                let st5 = timed("landmarks", t, landmarks.memory_bytes());
                (entrances, graph, landmarks, [st3, st4, st5])
            },
        );
        let (dead_ends, topology_stages) = topology;
        let mut stages: Vec<StageStats> = topology_stages.into_iter().chain(graph_stages).collect();
        stages.push(timed(TOTAL_STAGE, started, 0));
        Ok(Hierarchy::assemble(
            grid, s, dead_ends, entrances, graph, landmarks, stages,
        ))
    }
}

fn entrances_bytes(e: &Entrances) -> usize {
    4 * (e.cells.len() + e.cluster_first.len()) + 8 * e.links.len()
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
/// Memory is a few bytes per cell (3.2 to 4.1 on the largest StarCraft
/// maps): each cell's node in the block-cut forest, which also gives its
/// island, stored once per 64-cell run that shares it (well under a byte per
/// cell); small per-node tables; and the cluster graph in flat
/// compressed-sparse-row arrays. The build runs the in-cluster searches in
/// parallel (rayon). Loading a saved hierarchy streams the file through a
/// small buffer and checks what it says against the map (a file that loads
/// is as good as a fresh build; see `docs/hostile-input.md`) in parallel,
/// rebuilding nothing: on those maps it is about 5 times faster than
/// building (5.0-5.6x in `cargo bench --bench build`, 23 Nov 2026).
#[derive(Debug, Clone)]
pub struct Hierarchy {
    pub(crate) grid: Grid,
    pub(crate) settings: BuildSettings,
    pub(crate) dead_ends: DeadEnds,
    pub(crate) entrances: Entrances,
    pub(crate) graph: ClusterGraph,
    pub(crate) landmarks: Landmarks,
    /// Per abstract node: its cell's anchor in the block-cut forest and the end
    /// of the anchor's preorder range (for the dead-end test).
    pub(crate) node_anchor: Vec<(u32, u32)>,
    /// Per abstract node: its cell (derived at assembly, not saved).
    pub(crate) node_points: Vec<Point>,
    /// The smallest weight of a passable cell (heuristics scale by it).
    pub(crate) min_weight: crate::Weight,
    pub(crate) stats: BuildStats,
    /// Bumped by every repair of a [`DynamicHierarchy`](crate::DynamicHierarchy)
    /// (not saved), so searches in progress can tell the map changed.
    pub(crate) revision: u64,
    /// Who this hierarchy is, for queries that span calls (not saved).
    pub(crate) identity: Identity,
}

/// A hierarchy's identity in this process, so that a query spanning calls
/// ([`SlicedQuery`](crate::SlicedQuery), [`PathQueue`](crate::PathQueue))
/// recognises the hierarchy it was started on without comparing contents.
/// Every build and load takes a fresh `id` from a process-wide counter and
/// starts a `lineage` with it; every repair takes a fresh `id` and keeps the
/// lineage. A clone shares both (it answers every query alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Identity {
    /// Unique to this content in this process.
    pub id: u64,
    /// The `id` of the build or load this hierarchy was repaired from.
    pub lineage: u64,
}

impl Identity {
    /// A fresh identity, starting a lineage.
    pub(crate) fn fresh() -> Identity {
        let id = next_identity();
        Identity { id, lineage: id }
    }

    /// The identity after a repair: a fresh id, the same lineage.
    pub(crate) fn repaired(self) -> Identity {
        Identity {
            id: next_identity(),
            lineage: self.lineage,
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

    pub(crate) fn assemble(
        grid: Grid,
        settings: BuildSettings,
        dead_ends: DeadEnds,
        entrances: Entrances,
        graph: ClusterGraph,
        landmarks: Landmarks,
        stages: Vec<StageStats>,
    ) -> Hierarchy {
        let mut h = Hierarchy {
            node_points: Vec::new(),
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
            node_anchor: Vec::new(),
            revision: 0,
            identity: Identity::fresh(),
        };
        h.node_points = h
            .entrances
            .cells
            .iter()
            .map(|c| h.grid.point_of(crate::CellIndex(*c)))
            .collect();
        h.refresh_node_anchors();
        h.refresh_stats();
        h
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
            nodes: self.entrances.transitions() as u64,
            intra_edges: self.graph.intra_edges(),
            inter_edges: self.graph.inter_edges(),
            memory_bytes: 0,
        };
        self.stats.memory_bytes = self.memory_bytes() as u64;
    }

    /// How many repairs changed this hierarchy since it was built or loaded
    /// (see [`DynamicHierarchy`](crate::DynamicHierarchy)).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Records a change of content (a repair): the revision goes up and the
    /// identity takes a fresh id in the same lineage.
    pub(crate) fn mark_changed(&mut self) {
        self.revision += 1;
        self.identity = self.identity.repaired();
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
        self.entrances
            .cells
            .iter()
            .map(|c| self.grid.point_of(crate::CellIndex(*c)))
    }

    /// The abstract edges as `(from cell, to cell, cost)`.
    pub fn abstract_edges(&self) -> impl Iterator<Item = (Point, Point, crate::Cost)> + '_ {
        (0..self.entrances.cells.len() as u32).flat_map(move |v| {
            self.graph.out_edges(v).map(move |(w, c, _)| {
                let p = |n: u32| {
                    self.grid
                        .point_of(crate::CellIndex(self.entrances.cells[n as usize]))
                };
                (p(v), p(w), crate::Cost(c))
            })
        })
    }

    /// Bytes held, excluding the grid.
    pub fn memory_bytes(&self) -> usize {
        self.dead_ends.memory_bytes()
            + entrances_bytes(&self.entrances)
            + self.graph.memory_bytes()
            + self.node_anchor.len() * 8
            + self.node_points.len() * 8
            + self.landmarks.memory_bytes()
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
