//! The sized hierarchy: one cluster graph whose edges carry the largest unit
//! size they admit, built once for every size up to a maximum.

use std::time::Instant;

use crate::grid::{Grid, Movement, Point, Weight};
use crate::hierarchy::{DEFAULT_CLUSTER_SIZE, StageStats, TOTAL_STAGE};
use crate::packed::Column64;
use crate::preprocess::{ClusterLayout, EntrancePolicy};

use super::SizedBuildError;
use super::build::{
    CostWork, RawEdge, SizeTransitions, Transitions, cluster_edges, find_transitions,
};
use super::components::SizeComponents;
use super::landmarks::SizedLandmarks;
use crate::grid::Clearance;

/// The largest unit size a [`SizedHierarchy`] serves by default (units of
/// 1x1 to 3x3 cells).
pub const DEFAULT_MAX_SIZE: u32 = 3;

/// Settings a sized hierarchy is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SizedSettings {
    /// Side of a cluster in cells.
    pub cluster_size: u32,
    /// Movement rules the hierarchy answers queries under.
    pub movement: Movement,
    /// The largest unit size served (1 to 255).
    pub max_size: u32,
    /// Placement of size 1's transitions along its entrances.
    pub entrances: EntrancePolicy,
    /// Placement of the larger sizes' transitions.
    pub larger_sizes: SizeTransitions,
    /// Landmarks for the planner's heuristic (0 to 8; 0 turns the landmark
    /// bound off). One set serves every size (see [`SizedHierarchy`]).
    pub landmarks: u32,
}

impl Default for SizedSettings {
    fn default() -> Self {
        SizedSettings {
            cluster_size: DEFAULT_CLUSTER_SIZE,
            movement: Movement::default(),
            max_size: DEFAULT_MAX_SIZE,
            entrances: EntrancePolicy::default(),
            larger_sizes: SizeTransitions::default(),
            landmarks: DEFAULT_SIZED_LANDMARKS,
        }
    }
}

/// The default number of landmarks of a [`SizedHierarchy`]: the nodes
/// nearest the map's four corners.
pub const DEFAULT_SIZED_LANDMARKS: u32 = 4;

/// What one unit size sees of a sized hierarchy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SizeClassStats {
    /// The unit size.
    pub size: u32,
    /// Cells where the unit fits.
    pub cells: u64,
    /// Connected components of those cells (for this size's moves).
    pub components: u32,
    /// Transitions the unit fits on.
    pub nodes: u64,
    /// Abstract edges the unit may use (annotated with its size or more).
    pub edges: u64,
}

/// What a sized build produced and what it cost.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SizedStats {
    /// Per-stage timings and sizes, then the whole build's wall time as a
    /// last entry named [`TOTAL_STAGE`].
    pub stages: Vec<StageStats>,
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// The largest size served.
    pub max_size: u32,
    /// Clusters.
    pub clusters: u64,
    /// Entrances (runs of crossings, counted once per size band that
    /// changes them).
    pub entrances: u64,
    /// Abstract nodes (transition cells) of all sizes.
    pub nodes: u64,
    /// Abstract edges inside clusters.
    pub intra_edges: u64,
    /// Abstract edges between clusters.
    pub inter_edges: u64,
    /// Size bands whose in-cluster costs were computed, over all clusters.
    pub cost_tables: u64,
    /// In-cluster pairs settled by a free straight route.
    pub straight_pairs: u64,
    /// In-cluster grid searches run.
    pub searches: u64,
    /// Candidate in-cluster edges dropped because another transition
    /// matches their cost for every size they serve.
    pub dominated_edges: u64,
    /// Per size, `1..=max_size`.
    pub per_size: Vec<SizeClassStats>,
    /// Bytes held in memory, excluding the grid.
    pub memory_bytes: u64,
}

impl SizedStats {
    /// The whole build's wall-clock seconds.
    pub fn total_seconds(&self) -> f64 {
        self.stages
            .iter()
            .find(|s| s.name == TOTAL_STAGE)
            .map_or(0.0, |s| s.seconds)
    }

    /// Memory per map cell, in bytes.
    pub fn bytes_per_cell(&self) -> f64 {
        self.memory_bytes as f64 / (self.width as f64 * self.height as f64)
    }
}

/// Builds a [`SizedHierarchy`].
///
/// ```
/// use tierpath::{Grid, SizedBuilder};
/// let h = SizedBuilder::new().max_size(4).cluster_size(8).build(Grid::new(64, 64).unwrap())?;
/// assert_eq!(h.max_size(), 4);
/// assert_eq!(h.stats().per_size.len(), 4);
/// # Ok::<(), tierpath::SizedBuildError>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SizedBuilder {
    settings: SizedSettings,
}

impl SizedBuilder {
    /// A builder with [`SizedSettings::default`].
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder with these settings.
    pub fn with_settings(settings: SizedSettings) -> Self {
        SizedBuilder { settings }
    }

    /// Sets the cluster side (2 to 1024).
    pub fn cluster_size(mut self, size: u32) -> Self {
        self.settings.cluster_size = size;
        self
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.settings.movement = movement;
        self
    }

    /// Sets the largest unit size served (1 to 255).
    pub fn max_size(mut self, size: u32) -> Self {
        self.settings.max_size = size;
        self
    }

    /// Sets the transition placement policy.
    pub fn entrance_policy(mut self, policy: EntrancePolicy) -> Self {
        self.settings.entrances = policy;
        self
    }

    /// Sets where the sizes above 1 get their transitions.
    pub fn larger_sizes(mut self, placement: SizeTransitions) -> Self {
        self.settings.larger_sizes = placement;
        self
    }

    /// Sets the number of landmarks (0 to 8).
    pub fn landmarks(mut self, count: u32) -> Self {
        self.settings.landmarks = count;
        self
    }

    /// The settings so far.
    pub fn settings(&self) -> &SizedSettings {
        &self.settings
    }

    /// Builds the hierarchy of `grid` (which it keeps).
    pub fn build(&self, grid: Grid) -> Result<SizedHierarchy, SizedBuildError> {
        let s = self.settings;
        s.movement.validate()?;
        if !(2..=1024).contains(&s.cluster_size) {
            return Err(SizedBuildError::ClusterSize(s.cluster_size));
        }
        if !(1..=Clearance::CAP as u32).contains(&s.max_size) {
            return Err(SizedBuildError::MaxSize(s.max_size));
        }
        if s.landmarks > 8 {
            return Err(SizedBuildError::Landmarks(s.landmarks));
        }
        let max = s.max_size as u8;
        let started = Instant::now();
        let timed = |name: &str, start: Instant, bytes: usize| StageStats {
            name: name.to_string(),
            seconds: start.elapsed().as_secs_f64(),
            bytes: bytes as u64,
        };
        let t = Instant::now();
        let clearance = Clearance::new(grid);
        let st_clearance = timed("clearance", t, clearance.memory_bytes());
        let layout = ClusterLayout::new(clearance.grid(), s.cluster_size);
        // Components beside the transitions -> in-cluster costs chain.
        let (components, (transitions, edges, work, chain_stages)) = rayon::join(
            || {
                let t = Instant::now();
                let c = SizeComponents::build(&clearance, &s.movement, max);
                let st = timed("components", t, c.memory_bytes());
                (c, st)
            },
            || {
                let t0 = Instant::now();
                let tr = find_transitions(
                    &clearance,
                    &s.movement,
                    &layout,
                    &s.entrances,
                    s.larger_sizes,
                    max,
                );
                let st1 = timed("transitions", t0, tr.points.len() * 9 + tr.links.len() * 9);
                let t1 = Instant::now();
                let (edges, work) = cluster_edges(&clearance, &s.movement, &layout, &tr, max);
                let st2 = timed("cluster costs", t1, edges.len() * 13);
                (tr, edges, work, [st1, st2])
            },
        );
        let (components, st_components) = components;
        let t = Instant::now();
        let mut h = SizedHierarchy::assemble(clearance, s, layout, components, transitions, edges);
        let st_assemble = timed("assembly", t, 0);
        let t = Instant::now();
        h.landmarks = SizedLandmarks::build(
            &h.node_points,
            &h.edge_first,
            &h.edge_to,
            &h.edge_cost,
            h.grid().width(),
            h.grid().height(),
            s.landmarks as usize,
        );
        let st_landmarks = timed("landmarks", t, h.landmarks.memory_bytes());
        let mut stages = vec![st_clearance, st_components];
        stages.extend(chain_stages);
        stages.push(st_assemble);
        stages.push(st_landmarks);
        stages.push(timed(TOTAL_STAGE, started, 0));
        h.fill_stats(stages, work);
        Ok(h)
    }
}

/// A map preprocessed for units of every size from 1 up to a maximum
/// (`SizedBuilder::max_size`, default [`DEFAULT_MAX_SIZE`]): the
/// [`Clearance`] of every cell, the connected components of every size, and
/// **one** cluster graph whose transitions and edges are annotated with the
/// largest unit size they admit (Harabor and Botea's HAA*, "Hierarchical
/// path planning for multi-size agents in heterogeneous environments",
/// 2008), instead of one hierarchy per size. Immutable and `Send + Sync`:
/// share it between threads, give each its own [`SizedQueryCache`](crate::SizedQueryCache).
///
/// ```
/// use tierpath::{Grid, Point, SizedHierarchy, SizedQueryCache, validate_sized_path};
/// // A wall with a 1-cell gap at the top and a 3-cell gap at the bottom.
/// let grid = Grid::from_fn(60, 40, |p| p.x != 30 || p.y == 2 || (30..33).contains(&p.y)).unwrap();
/// let h = SizedHierarchy::build(grid, 3)?;
/// let mut cache = SizedQueryCache::new();
/// for size in 1..=3 {
///     let out = h.find_path(&mut cache, Point::new(5, 0), Point::new(50, 0), size)?;
///     let path = out.path.expect("every size fits through the 3-cell gap");
///     validate_sized_path(&path, h.grid(), h.movement(), size).unwrap();
/// }
/// // A 4x4 unit is beyond this hierarchy's sizes: an error, not a panic.
/// assert!(h.find_path(&mut cache, Point::new(5, 0), Point::new(50, 0), 4).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # The movement rule
///
/// A unit of size `k` is a `k x k` square, named by its top-left cell (its
/// *anchor*); it occupies the cells `x..x+k` by `y..y+k`. It may stand on `p`
/// when every one of those cells is on the map and passable, that is when
/// `clearance(p) >= k`. A move `p -> q` is legal for size `k` exactly when
/// the size-1 move `p -> q` is legal on the grid whose passable cells are
/// those of clearance `>= k`, under the same [`Movement`]. Stated on the
/// square itself:
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
/// on that grid). [`sized_path_cost`](crate::sized_path_cost) checks a path
/// against this rule cell by cell, without clearance.
///
/// # Guarantees
///
/// For every size `1..=max_size`: a path is found exactly when one exists
/// (the components answer "unreachable" without a search, and every
/// crossing between clusters keeps a transition for every size that can
/// make it); every path returned is legal for the size and states its exact
/// cost; it is never cheaper than the optimum (it is legal), and queries
/// between nearby clusters whose path provably cannot leave the area around
/// them are exact.
///
/// # Performance
///
/// Memory: one byte per cell of clearance (read by every search step, so
/// kept flat), a component label per cell stored once per 64-cell run that
/// shares it (well under a byte per cell on open maps, about two in mazes of
/// narrow corridors), and one cluster
/// graph in flat compressed-sparse-row arrays, with one byte per edge for
/// its size annotation; each node's edges are sorted by that annotation,
/// largest first, so a query for size `k` reads a prefix and stops. The
/// planner's heuristic adds landmark (ALT) bounds from exact distances over
/// the whole graph, size 1's: every size's graph is a subgraph of it with
/// the same costs, so one table per landmark is a lower bound for every
/// size (4 to 8 bytes per node and landmark). Sizes
/// whose in-cluster grids coincide share one cost table per cluster, and an
/// edge serving a run of sizes at one cost is stored once: on maps with
/// clearings wider than the largest size, the one graph holds far fewer
/// edges than one graph per size. Building runs the clusters in parallel
/// (rayon). A query does no work proportional to the map and allocates only
/// its returned path (and scratch growth on first use).
#[derive(Debug, Clone)]
pub struct SizedHierarchy {
    pub(crate) clearance: Clearance,
    pub(crate) settings: SizedSettings,
    pub(crate) layout: ClusterLayout,
    pub(crate) components: SizeComponents,
    /// Transition cells, grouped by cluster.
    pub(crate) node_points: Vec<Point>,
    /// Capped clearance of each transition's cell.
    pub(crate) node_clear: Vec<u8>,
    pub(crate) cluster_first: Vec<u32>,
    /// CSR out-edges; within a node, sorted by `edge_clear`, largest first.
    pub(crate) edge_first: Vec<u32>,
    pub(crate) edge_to: Vec<u32>,
    pub(crate) edge_cost: Column64,
    pub(crate) edge_clear: Vec<u8>,
    pub(crate) landmarks: SizedLandmarks,
    pub(crate) min_weight: Weight,
    pub(crate) intra_edges: u64,
    pub(crate) inter_edges: u64,
    pub(crate) entrances: u64,
    pub(crate) stats: SizedStats,
}

impl SizedHierarchy {
    /// Builds the hierarchy of `grid` for units of size 1 to `max_size`, with
    /// the default settings otherwise.
    pub fn build(grid: Grid, max_size: u32) -> Result<SizedHierarchy, SizedBuildError> {
        SizedBuilder::new().max_size(max_size).build(grid)
    }

    /// Starts a builder.
    pub fn builder() -> SizedBuilder {
        SizedBuilder::new()
    }

    fn assemble(
        clearance: Clearance,
        settings: SizedSettings,
        layout: ClusterLayout,
        components: SizeComponents,
        t: Transitions,
        intra: Vec<RawEdge>,
    ) -> SizedHierarchy {
        let grid = clearance.grid();
        let nodes = t.points.len();
        let intra_edges = intra.len() as u64;
        let mut raw = intra;
        for &(a, b, clear) in &t.links {
            for (from, to) in [(a, b), (b, a)] {
                let (p, q) = (t.points[from as usize], t.points[to as usize]);
                let base = if p.x != q.x && p.y != q.y {
                    settings.movement.diagonal
                } else {
                    settings.movement.straight
                };
                raw.push(RawEdge {
                    from,
                    to,
                    cost: base as u64 * grid.weight(q).0 as u64,
                    clear,
                });
            }
        }
        let inter_edges = raw.len() as u64 - intra_edges;
        // By source (a counting sort), then within each source largest
        // annotation first, then cheapest.
        let mut edge_first = vec![0u32; nodes + 1];
        for e in &raw {
            edge_first[e.from as usize + 1] += 1;
        }
        for i in 0..nodes {
            edge_first[i + 1] += edge_first[i];
        }
        let mut slot: Vec<u32> = edge_first[..nodes].to_vec();
        let mut sorted = vec![
            RawEdge {
                from: 0,
                to: 0,
                cost: 0,
                clear: 0
            };
            raw.len()
        ];
        for e in raw {
            sorted[slot[e.from as usize] as usize] = e;
            slot[e.from as usize] += 1;
        }
        for v in 0..nodes {
            sorted[edge_first[v] as usize..edge_first[v + 1] as usize]
                .sort_unstable_by_key(|e| (std::cmp::Reverse(e.clear), e.cost, e.to));
        }
        let raw = sorted;
        SizedHierarchy {
            landmarks: SizedLandmarks::default(),
            min_weight: grid.min_weight(),
            settings,
            layout,
            components,
            node_points: t.points,
            node_clear: t.clear,
            cluster_first: t.cluster_first,
            edge_first,
            edge_to: raw.iter().map(|e| e.to).collect(),
            edge_cost: Column64::pack(raw.iter().map(|e| e.cost).collect()),
            edge_clear: raw.iter().map(|e| e.clear).collect(),
            intra_edges,
            inter_edges,
            entrances: t.entrances,
            stats: SizedStats::default(),
            clearance,
        }
    }

    fn fill_stats(&mut self, stages: Vec<StageStats>, work: CostWork) {
        let max = self.settings.max_size as u8;
        let cells = self.clearance.cells_per_size(max);
        let per_size = (1..=max)
            .map(|k| SizeClassStats {
                size: k as u32,
                cells: cells[k as usize - 1],
                components: self.components.per_size()[k as usize - 1],
                nodes: self.node_clear.iter().filter(|c| **c >= k).count() as u64,
                edges: self.edge_clear.iter().filter(|c| **c >= k).count() as u64,
            })
            .collect();
        self.stats = SizedStats {
            stages,
            width: self.grid().width(),
            height: self.grid().height(),
            max_size: self.settings.max_size,
            clusters: self.layout.count() as u64,
            entrances: self.entrances,
            nodes: self.node_points.len() as u64,
            intra_edges: self.intra_edges,
            inter_edges: self.inter_edges,
            cost_tables: work.bands,
            straight_pairs: work.straight,
            searches: work.searches,
            dominated_edges: work.dominated,
            per_size,
            memory_bytes: self.memory_bytes() as u64,
        };
    }

    /// The grid.
    pub fn grid(&self) -> &Grid {
        self.clearance.grid()
    }

    /// The clearance of every cell.
    pub fn clearance(&self) -> &Clearance {
        &self.clearance
    }

    /// The settings it was built with.
    pub fn settings(&self) -> &SizedSettings {
        &self.settings
    }

    /// The movement rules its queries use.
    pub fn movement(&self) -> &Movement {
        &self.settings.movement
    }

    /// The largest unit size it serves.
    pub fn max_size(&self) -> u32 {
        self.settings.max_size
    }

    /// The cluster layout.
    pub fn layout(&self) -> &ClusterLayout {
        &self.layout
    }

    /// Build statistics.
    pub fn stats(&self) -> &SizedStats {
        &self.stats
    }

    /// The transitions a unit of `size` may use (every transition of clearance
    /// `>= size`).
    pub fn transitions(&self, size: u32) -> impl Iterator<Item = Point> + '_ {
        self.node_points
            .iter()
            .zip(&self.node_clear)
            .filter(move |(_, c)| **c as u32 >= size)
            .map(|(p, _)| *p)
    }

    /// The abstract edges as `(from, to, cost, largest size served)`.
    pub fn abstract_edges(&self) -> impl Iterator<Item = (Point, Point, crate::Cost, u32)> + '_ {
        (0..self.node_points.len()).flat_map(move |v| {
            (self.edge_first[v] as usize..self.edge_first[v + 1] as usize).map(move |e| {
                (
                    self.node_points[v],
                    self.node_points[self.edge_to[e] as usize],
                    crate::Cost(self.edge_cost.get(e)),
                    self.edge_clear[e] as u32,
                )
            })
        })
    }

    /// Bytes held, excluding the grid.
    pub fn memory_bytes(&self) -> usize {
        self.clearance.memory_bytes()
            + self.components.memory_bytes()
            + self.node_points.len() * 8
            + self.node_clear.len()
            + self.cluster_first.len() * 4
            + self.edge_first.len() * 4
            + self.edge_to.len() * 4
            + self.edge_cost.memory_bytes()
            + self.edge_clear.len()
            + self.landmarks.memory_bytes()
    }
}
