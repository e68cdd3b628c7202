//! # tierpath
//!
//! Fast pathfinding on large grid maps for games: exact flat A* and Dijkstra,
//! and a two-tier hierarchical planner whose heavy work is done once, offline.
//!
//! The pipeline, one module per stage:
//! [`grid`](crate::Grid) (the map model) -> [`io`] (map and scenario files) ->
//! search (exact flat search).
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
mod grid;
mod hierarchy;
pub mod io;
pub mod mapgen;
mod packed;
mod preprocess;
mod query;
mod search;

pub use grid::{
    CellIndex, Connectivity, CornerRule, Cost, Grid, GridError, MAX_CELLS, MAX_SIDE, Movement,
    Point, Weight,
};
pub use hierarchy::{
    BuildError, BuildSettings, BuildStats, DEFAULT_CLUSTER_SIZE, DEFAULT_LANDMARKS, FORMAT_VERSION,
    Hierarchy, HierarchyBuilder, LoadError, MAGIC, StageStats, TOTAL_STAGE,
};
pub use preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Islands, Landmarks,
    build_cluster_graph, find_dead_ends, find_entrances, find_islands, find_landmarks,
};
pub use query::{Method, PathPlan, PhaseTimes, QueryCache, QueryOutcome, QueryStats};
pub use search::{
    AStar, Dijkstra, DistanceField, Expansion, Heuristic, Nearest, Path, PathError, QueryError,
    SearchCache, SearchOutcome, SearchStats, TieBreak, legal_move, path_cost,
};
