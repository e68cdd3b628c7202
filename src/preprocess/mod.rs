//! Offline preprocessing: the named stages that turn a grid into a hierarchy.
//!
//! Each stage is a function from the previous products to a new one, measured
//! by the builder ([`crate::HierarchyBuilder`]):
//!
//! 1. [`find_islands`]: connected components ([`Islands`]).
//! 2. [`find_dead_ends`]: articulation cells, blocks, and the block forest
//!    that tags dead-end regions ([`DeadEnds`]).
//! 3. [`find_entrances`]: clusters, entrances and transition cells ([`Entrances`]).
//! 4. [`build_cluster_graph`]: exact in-cluster costs between transitions
//!    ([`ClusterGraph`]).
//! 5. [`find_landmarks`]: exact graph distances from a few rim nodes, for
//!    a sharper planner heuristic ([`Landmarks`]).
//!
//! The builder runs the chain 1 -> 2 beside the chain 3 -> 4 -> 5 (one after
//! the other on maps of more than 2^24 cells, so that their peaks of memory
//! do not add up).
//! Saving and loading live with the hierarchy they serialise.

pub(crate) mod cluster_search;
pub(crate) mod clusters;
mod dead_ends;
mod entrance_nodes;
pub(crate) mod graph;
mod graph_stream;
mod islands;
pub(crate) mod landmarks;
pub(crate) mod scatter;
pub(crate) mod sizes;

pub use clusters::{ClusterLayout, EntrancePolicy, Entrances, find_entrances};
pub(crate) use dead_ends::NO_NODE;
pub use dead_ends::{DeadEnds, find_dead_ends};
pub use graph::{ClusterGraph, build_cluster_graph};
pub use islands::{Islands, find_islands};
pub(crate) use islands::{join_sets, set_root};
pub(crate) use landmarks::UNREACHED;
pub use landmarks::{Landmarks, find_landmarks};
pub use sizes::{MAX_UNIT_SIZE, SizeTransitions};
