//! How a hierarchy is built: the settings (saved with it), the builder that
//! runs the stages, and what each stage cost.

use std::time::Instant;

use thiserror::Error;

use super::contracted::Contracted;
use super::{Hierarchy, Products, entrances_bytes};
use crate::contraction::{ContractionError, ContractionKind};
use crate::grid::{Grid, GridError, Movement, Point};
use crate::preprocess::sizes::{
    SizeComponents, SizedClusters, UnitSizes, build_sized_graph, find_transitions,
};
use crate::preprocess::{
    ClusterGraph, EntrancePolicy, Entrances, Landmarks, MAX_UNIT_SIZE, SizeTransitions,
    build_cluster_graph, find_dead_ends, find_entrances, find_islands, find_landmarks,
};
use crate::query::Polish;
use crate::search::LineBits;

/// Settings a hierarchy is built with (saved with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BuildSettings {
    /// Side of a cluster in cells ([`HierarchyBuilder::new`] picks it from
    /// the map unless told one).
    pub cluster_size: u32,
    /// Movement rules the hierarchy answers queries under.
    pub movement: Movement,
    /// Placement of transition cells along entrances.
    pub entrances: EntrancePolicy,
    /// Keep the path behind every abstract edge that no straight route
    /// joins (one found by an in-cluster search), one byte per move:
    /// refining it becomes a copy instead of a search. Edges along a free
    /// straight route are walked again at no cost and are not stored.
    pub keep_paths: bool,
    /// Number of landmarks for the planner's heuristic (0 to 16; 0 turns the
    /// landmark bound off).
    pub landmarks: u32,
    /// The largest unit served, in cells of its side (1 to
    /// [`MAX_UNIT_SIZE`]): queries may ask for any size from 1 up to it (see
    /// [`Hierarchy`](crate::Hierarchy#unit-sizes)). 1, the default, builds
    /// what a one-cell unit needs and nothing more.
    pub max_unit_size: u32,
    /// Where the sizes above 1 get their transitions (used when
    /// `max_unit_size > 1`).
    pub larger_sizes: SizeTransitions,
    /// Whether queries polish their paths by exact searches over short
    /// windows ([`Polish`]). The build decides [`Polish::Auto`] from the
    /// map: a built hierarchy's settings hold `Always` or `Never`.
    pub polish: Polish,
}

/// The default cluster side, chosen by benchmark: swept over 8, 12, 16, 24
/// and 32 on 28 maps of all five sets (top-10-bucket queries), 16 was at or
/// near the fastest query time on sc1, rooms and mazes, with the lowest build
/// time; 24 and 32 improved random maps' quality (mean 0.60% and 0.45% above
/// optimal against 0.78%) and memory, but answered no faster. Since random
/// maps' paths are polished ([`Polish::Auto`]), 32 answers them about twice
/// as fast as 16 (shorter polish windows suffice): a builder not told a
/// side picks [`SCATTERED_CLUSTER_SIZE`] on such maps.
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
            max_unit_size: 1,
            larger_sizes: SizeTransitions::default(),
            polish: Polish::default(),
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
    /// A largest unit size outside 1..=255.
    #[error("largest unit size {0} is out of range: use 1 to 255")]
    MaxUnitSize(u32),
    /// The contraction asked for ([`HierarchyBuilder::contract`]) was
    /// refused.
    #[error("contracting the cluster graph: {0}")]
    Contraction(#[from] ContractionError),
}

/// Maps of more cells than this run the two stage chains (islands and dead
/// ends; entrances, cluster graph and landmarks) one after the other instead
/// of side by side: each chain's scratch is about 13 bytes per cell at its
/// peak (the dead-end search's state and stacks; the cluster graph being
/// written), and on a 16,384 x 16,384 map the two peaks added were 7 GB.
/// Below it (4,096 x 4,096 and smaller) the peaks add to at most a few
/// hundred megabytes and the chains share the cores.
pub(crate) const SEQUENTIAL_CELLS: u64 = 1 << 24;

/// Name of the [`BuildStats::stages`] entry that holds the whole build's time.
pub const TOTAL_STAGE: &str = "total (wall)";

/// Name of the [`BuildStats::stages`] entry of a build that contracts
/// ([`HierarchyBuilder::contract`]).
pub const CONTRACTION_STAGE: &str = "contraction";

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
    /// by side on maps up to 2^24 cells, so stage times overlap; larger maps
    /// run them one after the other to bound memory).
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
    /// Entrances between clusters (not counted for a fog-of-war player's
    /// view, whose clusters are mostly read from other hierarchies: 0).
    pub entrances: u64,
    /// Abstract nodes (transition cells).
    pub nodes: u64,
    /// Abstract edges inside clusters.
    pub intra_edges: u64,
    /// Abstract edges between clusters.
    pub inter_edges: u64,
    /// Bytes the hierarchy holds in memory, excluding the grid itself.
    pub memory_bytes: u64,
    /// What each unit size `1..=max_unit_size` sees (one entry, size 1's,
    /// unless built for several sizes).
    pub per_size: Vec<SizeClassStats>,
}

/// What one unit size sees of a hierarchy built for several sizes.
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
    /// Abstract edges the unit searches: annotated with its size or more,
    /// less those a cheaper parallel edge serving it supersedes.
    pub edges: u64,
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

    /// The contraction's wall-clock seconds, when the build contracted
    /// ([`HierarchyBuilder::contract`]).
    pub fn contraction_seconds(&self) -> Option<f64> {
        self.stages
            .iter()
            .find(|s| s.name == CONTRACTION_STAGE)
            .map(|s| s.seconds)
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
    /// Whether the cluster side was chosen ([`cluster_size`](Self::cluster_size)
    /// or [`with_settings`](Self::with_settings)); if not, the build picks
    /// it from the map.
    cluster_chosen: bool,
    /// Whether the entrance policy was chosen
    /// ([`entrance_policy`](Self::entrance_policy) or
    /// [`with_settings`](Self::with_settings)); if not, the build picks it
    /// from the map's size.
    entrances_chosen: bool,
    /// Whether the build contracts the cluster graph
    /// ([`contract`](Self::contract)).
    contract: bool,
}

/// The cluster side a builder picks, unless told one, for a map of
/// scattered obstacles (where queries polish their paths, see
/// [`Polish::Auto`]): coarser clusters leave fewer bends at their borders,
/// so the polish windows are shorter. On the Moving AI random maps
/// (contracted, the 10 highest buckets), 32 against 16: 3.38x exact JPS's
/// speed by median against 1.81x, 0.147% above optimal against 0.172%, 48
/// bytes per cell against 45.
pub const SCATTERED_CLUSTER_SIZE: u32 = 32;

/// The size, in cells, from which a builder not told an entrance policy
/// may pick [`EntrancePolicy::ENDS`] (768 x 768; it does where open ground
/// fills clusters: [`EntrancePolicy::for_map`] has the rule and its
/// measurements). On such maps the search over the cluster graph and its
/// contraction are most of a long query's and a build's time, and fewer
/// transitions shrink both; on smaller ones they gain little (Dragon Age's
/// paths with the ends on every map: 0.198% -> 0.359% above optimal, no
/// faster).
pub const LARGE_MAP_CELLS: u64 = 768 * 768;

impl HierarchyBuilder {
    /// A builder with [`BuildSettings::default`], but for two settings the
    /// build picks from the map unless told them: the cluster side,
    /// [`DEFAULT_CLUSTER_SIZE`], or [`SCATTERED_CLUSTER_SIZE`] on a map of
    /// scattered obstacles ([`cluster_size`](Self::cluster_size) sets one);
    /// and the entrance policy, the default, or [`EntrancePolicy::ENDS`] on
    /// a large map of open ground ([`EntrancePolicy::for_map`];
    /// [`entrance_policy`](Self::entrance_policy) sets one).
    pub fn new() -> Self {
        Self::default()
    }

    /// A builder with these settings (the cluster side as they say).
    pub fn with_settings(settings: BuildSettings) -> Self {
        HierarchyBuilder {
            settings,
            cluster_chosen: true,
            entrances_chosen: true,
            contract: false,
        }
    }

    /// Sets the cluster side (otherwise the build picks it: see
    /// [`new`](Self::new)).
    pub fn cluster_size(mut self, size: u32) -> Self {
        self.settings.cluster_size = size;
        self.cluster_chosen = true;
        self
    }

    /// Sets the movement rules.
    pub fn movement(mut self, movement: Movement) -> Self {
        self.settings.movement = movement;
        self
    }

    /// Sets the transition placement policy (otherwise the build picks it:
    /// see [`new`](Self::new)).
    pub fn entrance_policy(mut self, policy: EntrancePolicy) -> Self {
        self.settings.entrances = policy;
        self.entrances_chosen = true;
        self
    }

    /// Sets the number of landmarks (0 to 16).
    pub fn landmarks(mut self, count: u32) -> Self {
        self.settings.landmarks = count;
        self
    }

    /// Serves units of every size from 1 to `size` cells wide (1 to
    /// [`MAX_UNIT_SIZE`]; default 1). A hierarchy for one size costs what it
    /// always did; larger sizes add the clearance of every cell (one byte),
    /// their components, the transitions where only a smaller unit fits
    /// none, the edges whose cost differs between sizes, two bytes per edge
    /// for the sizes it serves, and landmark distances for the larger sizes
    /// that must go around (see [`Hierarchy`](crate::Hierarchy#unit-sizes)).
    ///
    /// ```
    /// use tierpath::{Grid, HierarchyBuilder, Point, QueryCache, QueryOptions, validate_sized_path};
    /// // A wall with a 1-cell gap at the top and a 3-cell gap at the bottom.
    /// let grid = Grid::from_fn(60, 40, |p| p.x != 30 || p.y == 2 || (30..33).contains(&p.y)).unwrap();
    /// let h = HierarchyBuilder::new().max_unit_size(3).build(grid)?;
    /// let mut cache = QueryCache::new();
    /// for size in 1..=3 {
    ///     let options = QueryOptions::new().unit_size(size);
    ///     let out = h.find_path_with(&mut cache, Point::new(5, 0), Point::new(50, 0), &options)?;
    ///     let path = out.path.expect("every size fits through the 3-cell gap");
    ///     validate_sized_path(&path, h.grid(), h.movement(), size).unwrap();
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_unit_size(mut self, size: u32) -> Self {
        self.settings.max_unit_size = size;
        self
    }

    /// Sets where the sizes above 1 get their transitions.
    pub fn larger_sizes(mut self, placement: SizeTransitions) -> Self {
        self.settings.larger_sizes = placement;
        self
    }

    /// Sets whether queries polish their paths ([`Polish`]; `Auto` by
    /// default: where the map's obstacles are scattered).
    ///
    /// ```
    /// use tierpath::{Grid, HierarchyBuilder, Polish};
    /// // Pillars everywhere: scattered obstacles.
    /// let grid = Grid::from_fn(64, 64, |p| p.x % 3 != 1 || p.y % 4 != 2).unwrap();
    /// let h = HierarchyBuilder::new().build(grid.clone())?;
    /// assert_eq!(h.settings().polish, Polish::Always);
    /// let h = HierarchyBuilder::new().polish(Polish::Never).build(grid)?;
    /// assert_eq!(h.settings().polish, Polish::Never);
    /// # Ok::<(), tierpath::BuildError>(())
    /// ```
    pub fn polish(mut self, polish: Polish) -> Self {
        self.settings.polish = polish;
        self
    }

    /// Keeps the cell paths behind abstract edges.
    pub fn keep_paths(mut self, on: bool) -> Self {
        self.settings.keep_paths = on;
        self
    }

    /// Contracts the cluster graph as part of the build (off by default):
    /// the hierarchy is the one [`Hierarchy::contract`] makes of the plain
    /// build (the same queries, the same saved file but for its build
    /// statistics), made sooner. The contraction runs beside the islands and
    /// dead ends instead of after them, and the landmark stage, whose
    /// distances a contraction lets go of, is skipped. Its time is the
    /// stage named [`CONTRACTION_STAGE`]
    /// ([`BuildStats::contraction_seconds`]).
    ///
    /// ```
    /// use tierpath::{Grid, HierarchyBuilder, Point, QueryCache};
    /// let grid = Grid::from_fn(200, 120, |p| p.x != 100 || p.y > 110).unwrap();
    /// let h = HierarchyBuilder::new().contract(true).build(grid)?;
    /// assert!(h.is_contracted());
    /// assert!(h.stats().contraction_seconds().is_some());
    /// let path = h.find_path(&mut QueryCache::new(), Point::new(5, 5), Point::new(195, 5))?.path;
    /// assert!(path.unwrap().cells.contains(&Point::new(100, 111)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Performance
    /// On 2 cores, about 0.9x the time of a build followed by
    /// [`Hierarchy::contract`]: 111-116 ms against 122-127 on TheFrozenSea
    /// (1024 x 1024; `docs/contraction.md`, round 12).
    pub fn contract(mut self, on: bool) -> Self {
        self.contract = on;
        self
    }

    /// The settings so far (a build decides [`Polish::Auto`], and the
    /// cluster side when none was set, from its map).
    pub fn settings(&self) -> &BuildSettings {
        &self.settings
    }

    /// Runs the stages on `grid` and returns the hierarchy, which owns the grid.
    pub fn build(&self, grid: Grid) -> Result<Hierarchy, BuildError> {
        let mut s = self.settings;
        // What the map's obstacles are like decides the polish and, unless
        // chosen, the cluster side.
        if s.polish == Polish::Auto || !self.cluster_chosen {
            let scattered = Polish::scattered(&grid);
            s.polish = s.polish.resolve_for(scattered);
            if scattered && !self.cluster_chosen {
                s.cluster_size = SCATTERED_CLUSTER_SIZE;
            }
        }
        s.movement.validate()?;
        if !(2..=1024).contains(&s.cluster_size) {
            return Err(BuildError::ClusterSize(s.cluster_size));
        }
        if !self.entrances_chosen {
            s.entrances = EntrancePolicy::for_map(&grid, s.cluster_size);
        }
        if s.landmarks > 16 {
            return Err(BuildError::Landmarks(s.landmarks));
        }
        if !(1..=MAX_UNIT_SIZE).contains(&s.max_unit_size) {
            return Err(BuildError::MaxUnitSize(s.max_unit_size));
        }
        let started = Instant::now();
        let timed = |name: &str, start: Instant, bytes: usize| StageStats {
            name: name.to_string(),
            seconds: start.elapsed().as_secs_f64(),
            bytes: bytes as u64,
        };
        let max = s.max_unit_size as u8;
        // Several sizes: the clearance first (one pass), which the sized
        // entrance and graph stages read.
        let mut stages = Vec::new();
        let clearance = (max > 1).then(|| {
            let t = Instant::now();
            let (values, _) = crate::grid::clearance_values(&grid);
            stages.push(timed("clearance", t, values.len()));
            values
        });
        // Two independent chains: islands -> dead ends (-> components of
        // every size), and entrances -> cluster graph (itself parallel
        // across clusters) -> landmarks. Side by side, unless the map is so
        // large that their peaks must not add up.
        let topology_chain = || {
            let t = Instant::now();
            let islands = find_islands(&grid, &s.movement);
            let st1 = timed("islands", t, islands.memory_bytes());
            let t = Instant::now();
            let dead_ends = find_dead_ends(&grid, &s.movement, &islands);
            let st2 = timed("dead ends", t, dead_ends.memory_bytes());
            let components = clearance.as_ref().map(|values| {
                let t = Instant::now();
                let c = SizeComponents::build(&grid, values, &s.movement, max);
                (c, timed("components", t, 0))
            });
            // The near search's bitsets, beside the graph's stages.
            let line_bits = LineBits::of(&grid);
            (dead_ends, [st1, st2], components, line_bits)
        };
        let graph_chain = || {
            let t = Instant::now();
            let (entrances, graph, st3, st4) = match &clearance {
                None => {
                    let e = find_entrances(&grid, &s.movement, s.cluster_size, &s.entrances);
                    let st3 = timed("entrances", t, entrances_bytes(&e));
                    let t = Instant::now();
                    let g = build_cluster_graph(&grid, &s.movement, &e, s.keep_paths);
                    let st4 = timed("cluster graph", t, g.memory_bytes());
                    (e, g, st3, st4)
                }
                Some(values) => sized_stages(&grid, values, &s, &timed),
            };
            let node_points: Vec<Point> = entrances
                .cells
                .iter()
                .map(|c| grid.point_of(crate::CellIndex(*c)))
                .collect();
            (entrances, graph, node_points, [st3, st4])
        };
        // The last stage of the graph chain: the landmarks, or the
        // contraction, which lets go of them (so they are not computed).
        let last_stage = |graph: &ClusterGraph, node_points: &[Point]| {
            let t = Instant::now();
            if self.contract {
                let c = Contracted::of(
                    ContractionKind::default(),
                    graph,
                    node_points,
                    s.max_unit_size,
                )?;
                let st = timed(CONTRACTION_STAGE, t, c.memory_bytes());
                Ok((Landmarks::default(), Some(c), st))
            } else {
                let l =
                    find_landmarks(graph, node_points, grid.width(), grid.height(), s.landmarks);
                let st = timed("landmarks", t, l.memory_bytes());
                Ok::<_, BuildError>((l, None, st))
            }
        };
        let whole_graph_chain = || {
            let products = graph_chain();
            let last = last_stage(&products.1, &products.2);
            (products, last)
        };
        let (topology, ((entrances, graph, node_points, [st3, st4]), last)) =
            if grid.len() as u64 > SEQUENTIAL_CELLS {
                (topology_chain(), whole_graph_chain())
            } else if self.contract {
                // The cluster graph on every thread first; then the
                // contraction, whose serial parts (the top of the order and
                // of the elimination tree) leave threads idle, beside the
                // islands and dead ends, which fill them.
                let products = graph_chain();
                let (last, topology) =
                    rayon::join(|| last_stage(&products.1, &products.2), topology_chain);
                (topology, (products, last))
            } else {
                rayon::join(topology_chain, whole_graph_chain)
            };
        drop(node_points);
        let (landmarks, contraction, st5) = last?;
        let graph_stages = [st3, st4, st5];
        let (dead_ends, topology_stages, components, line_bits) = topology;
        stages.extend(topology_stages);
        let sizes = match (clearance, components) {
            (Some(clearance), Some((components, st))) => {
                stages.push(st);
                Some(UnitSizes {
                    max,
                    clearance,
                    components,
                    aids: Default::default(),
                })
            }
            _ => None,
        };
        stages.extend(graph_stages);
        stages.push(timed(TOTAL_STAGE, started, 0));
        let products = Products {
            dead_ends,
            entrances,
            graph,
            landmarks,
            sizes,
            line_bits: Some(line_bits),
        };
        let mut h = Hierarchy::assemble(grid, s, products, stages);
        if let Some(c) = contraction {
            h.install_built_contraction(c);
        }
        Ok(h)
    }
}

/// The entrance and cluster-graph stages of a hierarchy for several sizes:
/// transitions and edges annotated with the largest size they serve.
fn sized_stages(
    grid: &Grid,
    clearance: &[u8],
    s: &BuildSettings,
    timed: &impl Fn(&str, Instant, usize) -> StageStats,
) -> (Entrances, ClusterGraph, StageStats, StageStats) {
    let max = s.max_unit_size as u8;
    let t = Instant::now();
    let layout = crate::preprocess::ClusterLayout::new(grid, s.cluster_size);
    let e = find_transitions(
        grid,
        clearance,
        &s.movement,
        layout,
        &s.entrances,
        s.larger_sizes,
        max,
    );
    let st3 = timed("entrances", t, entrances_bytes(&e));
    let t = Instant::now();
    let (g, _) = build_sized_graph(&SizedClusters {
        grid,
        clearance,
        movement: &s.movement,
        entrances: &e,
        max_size: max,
        keep_paths: s.keep_paths,
    });
    let st4 = timed("cluster graph", t, g.memory_bytes());
    (e, g, st3, st4)
}
