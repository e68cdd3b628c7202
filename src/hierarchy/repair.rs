//! The narrow changes a repair makes to a hierarchy (see
//! [`DynamicHierarchy`](crate::DynamicHierarchy)): the only writes to a built
//! hierarchy, so that its parts can only change together as a repair changes
//! them.

use super::Hierarchy;
use crate::grid::{Grid, GridError, Point, Weight};
use crate::preprocess::sizes::{SearchAids, SizeComponents, UnitSizes};
use crate::preprocess::{
    ClusterGraph, DeadEnds, Entrances, find_dead_ends, find_islands, find_landmarks,
};

impl Hierarchy {
    /// Sets a cell's terrain weight on the grid (nothing else follows).
    pub(crate) fn set_cell_weight(&mut self, p: Point, w: Weight) -> Result<(), GridError> {
        self.grid.set_weight(p, w)
    }

    /// Opens or closes a cell on the grid (nothing else follows).
    pub(crate) fn set_cell_passable(&mut self, p: Point, open: bool) -> Result<(), GridError> {
        self.grid.set_passable(p, open)
    }

    /// The grid and the dead-end forest together, for a local repair that
    /// changes a cell and its tags at once.
    pub(crate) fn grid_and_dead_ends_mut(&mut self) -> (&mut Grid, &mut DeadEnds) {
        (&mut self.grid, &mut self.dead_ends)
    }

    /// The grid and the clearance and components of the sizes above 1 (when
    /// built for them), for a repair that brings the clearance up to date
    /// with the grid.
    pub(crate) fn grid_and_sizes_mut(&mut self) -> (&Grid, Option<&mut UnitSizes>) {
        (&self.grid, self.sizes.as_mut())
    }

    /// Recomputes the components of every size from the grid and the
    /// clearance (a no-op for a hierarchy of one size).
    pub(crate) fn recompute_size_components(&mut self) {
        if let Some(sizes) = &mut self.sizes {
            sizes.components = SizeComponents::build(
                &self.grid,
                &sizes.clearance,
                &self.settings.movement,
                sizes.max,
            );
        }
    }

    /// Recomputes islands and dead ends over the whole map (stages 1 and 2).
    pub(crate) fn recompute_dead_ends(&mut self) -> &DeadEnds {
        let movement = self.settings.movement;
        let islands = find_islands(&self.grid, &movement);
        self.dead_ends = find_dead_ends(&self.grid, &movement, &islands);
        &self.dead_ends
    }

    /// Records the smallest weight of a passable cell.
    pub(crate) fn set_min_weight(&mut self, w: Weight) {
        self.min_weight = w;
    }

    /// Replaces the transitions, the cluster graph and the per-node cells and
    /// anchors, which a repair recomputes together.
    pub(crate) fn replace_nodes(
        &mut self,
        entrances: Entrances,
        graph: ClusterGraph,
        node_points: Vec<Point>,
        node_anchor: Vec<(u32, u32)>,
    ) {
        debug_assert_eq!(entrances.cells.len(), node_points.len());
        debug_assert_eq!(entrances.cells.len(), node_anchor.len());
        self.entrances = entrances;
        self.graph = graph;
        self.node_points = node_points;
        self.node_anchor = node_anchor;
        self.refresh_search_aids(false);
    }

    /// Derives what the abstract search of the sizes above 1 reads from the
    /// graph (a no-op for a hierarchy of one size): the parallel edges'
    /// ranges, and with `landmarks` the landmark distances of the levels
    /// (dropped otherwise, until [`compute_landmarks`](Self::compute_landmarks)).
    pub(crate) fn refresh_search_aids(&mut self, landmarks: bool) {
        let Some(sizes) = &mut self.sizes else {
            return;
        };
        sizes.aids.edge_lo = SearchAids::edge_lo(&self.graph);
        sizes.aids.levels = if landmarks {
            SearchAids::levels(
                &self.graph,
                &self.node_points,
                (self.grid.width(), self.grid.height()),
                self.landmarks.count,
                sizes.max,
                // A walk across a cluster.
                self.settings.cluster_size as u64
                    * self.settings.movement.straight as u64
                    * self.min_weight.0 as u64,
            )
        } else {
            Vec::new()
        };
    }

    /// Drops the landmark distances (queries fall back to the octile bound).
    /// Returns whether there were any.
    pub(crate) fn drop_landmarks(&mut self) -> bool {
        let dropped = self.settings.landmarks > 0;
        self.landmarks = find_landmarks(&self.graph, &[], 0, 0, 0);
        self.settings.landmarks = 0;
        if let Some(sizes) = &mut self.sizes {
            sizes.aids.levels.clear();
        }
        dropped
    }

    /// Computes `count` landmarks' distances over the current graph.
    pub(crate) fn compute_landmarks(&mut self, count: u32) {
        self.landmarks = find_landmarks(
            &self.graph,
            &self.node_points,
            self.grid.width(),
            self.grid.height(),
            count,
        );
        self.settings.landmarks = count;
        self.refresh_search_aids(true);
    }

    /// Records a change of content (a repair): the revision goes up and the
    /// identity takes a fresh id in the same lineage.
    pub(crate) fn mark_changed(&mut self) {
        self.revision += 1;
        self.identity = self.identity.repaired();
    }
}
