//! # tierpath
//!
//! Fast pathfinding on large grid maps for games. The heavy work is done once,
//! offline: a map is preprocessed into a [`Hierarchy`] (islands, dead ends, a
//! cluster graph with exact in-cluster costs, landmark distances), which can be
//! saved and loaded in milliseconds. Queries then plan over clusters and refine
//! into a smoothed grid path within a fraction of a percent of optimal, tens of
//! times faster than flat A* on large maps.
//!
//! ```
//! use tierpath::{Grid, Hierarchy, Point, QueryCache};
//! # let grid = Grid::from_fn(300, 200, |p| !(p.x == 150 && p.y > 20)).unwrap();
//! let hierarchy = Hierarchy::build(grid)?;          // once per map (or Hierarchy::load_file)
//! let mut cache = QueryCache::new();                 // once per thread
//! let path = hierarchy.find_path(&mut cache, Point::new(5, 190), Point::new(295, 190))?.path;
//! # let path = path.expect("reachable around the wall");
//! # path.validate(hierarchy.grid(), hierarchy.movement()).unwrap();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The pipeline
//!
//! One module per concept, in the order data flows:
//!
//! * **grid**: [`Grid`] (passable cells, terrain [`Weight`]s), [`Movement`]
//!   rules (4/8-connected, [`CornerRule`], straight and diagonal costs) and the
//!   exact integer [`Cost`] unit.
//! * **[`io`]**: Moving AI `.map` and `.scen` files, and a text format for
//!   hand-made maps with terrain. [`mapgen`] makes maps of its own.
//! * **search**: exact flat [`AStar`] and [`Dijkstra`] (nearest of many
//!   targets, distance fields), the baseline and the oracle, with per-thread
//!   [`SearchCache`] scratch reset by generation stamps.
//! * **preprocess**: the build stages, each a function from one product to
//!   the next: [`find_islands`], [`find_dead_ends`], [`find_entrances`],
//!   [`build_cluster_graph`], [`find_landmarks`].
//! * **hierarchy**: [`HierarchyBuilder`] runs the stages (timed, in
//!   parallel where independent) into an immutable, `Send + Sync`
//!   [`Hierarchy`]; its file format checks magic, version, map fingerprint and
//!   a checksum.
//! * **query**: [`Hierarchy::find_path`], [`Hierarchy::plan`] (lazy,
//!   segment by segment) and [`Hierarchy::find_paths`] (parallel batches), with
//!   per-thread [`QueryCache`] scratch.
//! * **run time**: frame budgets ([`SlicedQuery`] and [`SlicedSearch`] advance
//!   a query by at most N expansions per call; [`PathQueue`] serves many
//!   units' requests within a per-frame budget, oldest first), the nearest
//!   of many targets ([`Hierarchy::nearest`], exact in its choice) and
//!   partial paths ([`AStar::partial`], [`QueryOptions::partial`]).
//! * **unit sizes**: the [`Clearance`] of every cell and exact
//!   [`AStar::for_unit`] for `k x k` units; a hierarchy built with
//!   [`HierarchyBuilder::max_unit_size`] annotates its cluster graph with the
//!   largest size each edge admits, so one preprocessing serves every size,
//!   and every query above takes the size in its [`QueryOptions`].
//!
//! Flat search on its own:
//!
//! ```
//! use tierpath::{AStar, Grid, Point, SearchCache};
//! let grid = Grid::from_ascii("
//!     ..@..
//!     ..@..
//!     .....
//! ").unwrap();
//! let mut cache = SearchCache::new();
//! let out = AStar::new(&grid).find_path(&mut cache, Point::new(0, 0), Point::new(4, 0)).unwrap();
//! assert_eq!(out.path.unwrap().cells.len(), 7);
//! ```
#![deny(missing_docs)]

mod checksum;
mod contraction;
mod dynamic;
mod engine;
mod grid;
mod hierarchy;
pub mod io;
pub mod mapgen;
mod packed;
mod preprocess;
mod query;
mod search;
mod tiled;

pub use contraction::{
    ArcGraph, Contraction, ContractionError, ContractionKind, ContractionMetric, ContractionRoute,
    ContractionScratch, FORBIDDEN, QueryGraph, QuerySearch,
};
pub use dynamic::{
    ContractionRepair, CostLayers, DeadEndRepair, DynamicHierarchy, Edit, EditError, ForeignLayer,
    LayerId, PlayerView, RepairReport,
};
pub use grid::{
    CellIndex, Clearance, Connectivity, CornerRule, Cost, Grid, GridError, MAX_CELLS, MAX_SIDE,
    Movement, Point, Weight,
};
pub use hierarchy::{
    BuildError, BuildSettings, BuildStats, CONTRACTION_STAGE, ContractionDone, ContractionJob,
    DEFAULT_CLUSTER_SIZE, DEFAULT_LANDMARKS, FORMAT_VERSION, FileSummary, Hierarchy,
    HierarchyBuilder, LARGE_MAP_CELLS, LoadError, MAGIC, SCATTERED_CLUSTER_SIZE, SizeClassStats,
    StageStats, TOTAL_STAGE,
};
#[cfg(feature = "petgraph")]
pub use hierarchy::{
    ClusterEdge, ClusterEdges, ClusterGraphView, ClusterNeighbors, ClusterNode, ClusterNodes,
};
pub use preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Islands, Landmarks,
    MAX_UNIT_SIZE, SizeTransitions, build_cluster_graph, find_dead_ends, find_entrances,
    find_islands, find_landmarks,
};
pub use query::{
    Method, NEAREST_LOCAL_EXPANSIONS, NearestMethod, NearestOutcome, NearestStats, PathPlan,
    PathQueue, PhaseTimes, Polish, QueryCache, QueryOptions, QueryOutcome, QueryStats, QueueFrame,
    RequestId, RequestStatus, SlicedQuery,
};
pub use search::{
    AStar, CellState, Dijkstra, DistanceField, Expansion, Heuristic, Jps, JpsCache, JpsError,
    Nearest, Path, PathError, QueryError, SearchCache, SearchOutcome, SearchStats, SizedPathError,
    SliceStatus, SlicedSearch, TieBreak, footprint_fits, legal_move, path_cost, sized_legal_move,
    sized_path_cost, validate_sized_path,
};
