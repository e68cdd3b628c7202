//! Units larger than one cell: what a hierarchy built for several unit sizes
//! ([`HierarchyBuilder::max_unit_size`](crate::HierarchyBuilder::max_unit_size))
//! keeps beside the products every hierarchy has.
//!
//! A unit of size `k` is a `k x k` square named by its top-left cell. The
//! clearance of a cell (see [`Clearance`](crate::Clearance)) is the largest
//! square that fits with its corner there, so the unit fits exactly where
//! clearance `>= k`, and it moves as a single cell would on that grid (the
//! movement rule of [`Hierarchy`](crate::Hierarchy#unit-sizes)). The grid of
//! size `k + 1` lies inside the grid of size `k`, with the same moves and
//! costs, which is what lets one cluster graph serve every size (Harabor and
//! Botea's HAA*, "Hierarchical path planning for multi-size agents in
//! heterogeneous environments", 2008):
//!
//! * [`find_transitions`]: the entrances of every size, each crossing
//!   annotated with the largest size it admits (replaces the entrance stage);
//! * [`build_sized_graph`]: exact in-cluster costs per band of sizes, each
//!   edge annotated with the largest size it serves, its moves kept when
//!   a search settled it (replaces the cluster-graph stage);
//! * [`SizeComponents`]: the connected components of every size as one
//!   forest, so "unreachable for this size" is answered without a search
//!   (the islands of the larger sizes);
//! * [`SearchAids`], derived from the graph at build, load and repair: the
//!   sizes each parallel edge is the cheapest for, and landmark distances
//!   for the larger sizes that must go around.
//!
//! Dead ends need nothing of their own. A dead-end region is
//! cut off from the rest of the map by one cell on the grid of size 1; a
//! path of a larger unit is a path on that grid too, so one that enters such
//! a region without ending there leaves it through the same cell, and
//! cutting out the loop gives a legal path of the size that costs no more.
//! Landmark distances over the whole graph (size 1's) bound every size's
//! distances from below, because each size's graph is a subgraph of it with
//! the same costs; where a larger size must go around, distances over the
//! edges serving it bound its distances (and every larger size's) far more
//! sharply, hence the levels of [`SearchAids`].

mod aids;
mod bands;
mod components;
mod transitions;

pub(crate) use aids::SearchAids;
pub(crate) use bands::{ClusterScratch, SizedClusters, build_sized_graph, sized_cluster_edges};
pub(crate) use components::{NONE as NO_COMPONENT, SizeComponents};
pub use transitions::SizeTransitions;
pub(crate) use transitions::{ScanScratch, TransitionRules, find_transitions};

use crate::grid::{Grid, Movement, Point, clearance_values};

/// The largest unit size a hierarchy can serve (the clearance cap).
pub const MAX_UNIT_SIZE: u32 = crate::Clearance::CAP as u32;

/// What a hierarchy built for units up to `max` cells wide keeps for them:
/// the clearance of every cell and the components of every size.
#[derive(Debug, Clone)]
pub(crate) struct UnitSizes {
    /// The largest size served, `2..=255`.
    pub(crate) max: u8,
    /// Clearance in the grid's padded layout (0 on walls and the padding).
    pub(crate) clearance: Vec<u8>,
    pub(crate) components: SizeComponents,
    /// Derived from the graph for the abstract search (not saved).
    pub(crate) aids: SearchAids,
}

impl UnitSizes {
    /// Computes the clearance and the components of every size up to `max`
    /// (what a loaded file rebuilds from the map).
    pub(crate) fn build(grid: &Grid, movement: &Movement, max: u8) -> UnitSizes {
        let (clearance, _) = clearance_values(grid);
        let components = SizeComponents::build(grid, &clearance, movement, max);
        UnitSizes {
            max,
            clearance,
            components,
            aids: SearchAids::default(),
        }
    }

    /// The clearance of an on-map cell, capped at the largest size served.
    #[inline]
    pub(crate) fn level(&self, grid: &Grid, p: Point) -> u8 {
        self.clearance[grid.node(p).index()].min(self.max)
    }

    /// Whether a unit of `size` standing on `a` can reach `b` (both cells
    /// where it fits).
    pub(crate) fn connected(&self, grid: &Grid, a: Point, b: Point, size: u8) -> bool {
        self.components.connected(
            grid.cell_index(a).index(),
            self.level(grid, a),
            grid.cell_index(b).index(),
            self.level(grid, b),
            size,
        )
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.clearance.len() + self.components.memory_bytes() + self.aids.memory_bytes()
    }
}
