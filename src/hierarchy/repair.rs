//! The narrow changes a repair makes to a hierarchy (see
//! [`DynamicHierarchy`](crate::DynamicHierarchy)): the only writes to a built
//! hierarchy, so that its parts can only change together as a repair changes
//! them.

use std::ops::Range;

use super::Hierarchy;
use crate::grid::{Grid, GridError, Point, Weight};
use crate::preprocess::landmarks::pick_landmarks;
use crate::preprocess::sizes::{SearchAids, SizeComponents, UnitSizes};
use crate::preprocess::{
    ClusterGraph, DeadEnds, Entrances, Landmarks, find_dead_ends, find_islands, find_landmarks,
};
use crate::search::JumpLines;

/// What a repair replaced in the graph (the rest only moved): the old
/// edges `old_edges`, annotated `old_clear` (empty for one size), by the
/// edges of the new nodes `new_nodes`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Spliced {
    pub(crate) old_edges: Range<usize>,
    pub(crate) new_nodes: Range<usize>,
    pub(crate) old_clear: Vec<u8>,
}

impl Hierarchy {
    /// Sets a cell's terrain weight on the grid (nothing else follows).
    pub(crate) fn set_cell_weight(&mut self, p: Point, w: Weight) -> Result<(), GridError> {
        self.grid.set_weight(p, w)?;
        // Jump point search needs uniform cost: its bitsets go with the first
        // heavy cell and come back with the last one's end.
        if self.grid.is_weighted() {
            self.jump_lines = None;
            self.guide = None;
        } else if self.jump_lines.is_none() {
            self.jump_lines = JumpLines::new(&self.grid, self.settings.movement).ok();
        }
        Ok(())
    }

    /// Opens or closes a cell on the grid (nothing else follows).
    pub(crate) fn set_cell_passable(&mut self, p: Point, open: bool) -> Result<(), GridError> {
        self.grid.set_passable(p, open)
    }

    /// Brings the jump point bitsets up to date with the grid at `cells`
    /// (those a repair opened or closed, by whichever of its ways).
    pub(crate) fn sync_jump_lines<'a>(&mut self, cells: impl IntoIterator<Item = &'a Point>) {
        if let Some(lines) = &mut self.jump_lines {
            for p in cells {
                lines.set_passable(*p, self.grid.is_passable(*p));
            }
        }
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

    /// Takes the cluster graph and the per-node cells and anchors out (leaving
    /// them empty), for a repair to splice in place and put back with
    /// [`Hierarchy::replace_nodes`].
    pub(crate) fn take_nodes(&mut self) -> (ClusterGraph, Vec<Point>, Vec<(u32, u32)>) {
        (
            std::mem::take(&mut self.graph),
            std::mem::take(&mut self.node_points),
            std::mem::take(&mut self.node_anchor),
        )
    }

    /// Replaces the transitions, the cluster graph and the per-node cells and
    /// anchors, which a repair recomputes together. `spliced`: the old edges
    /// the repair replaced and the new nodes whose edges replaced them (the
    /// rest of the graph only moved), so that what is derived per edge is
    /// recomputed there only.
    pub(crate) fn replace_nodes(
        &mut self,
        (entrances, graph): (Entrances, ClusterGraph),
        node_points: Vec<Point>,
        node_anchor: Vec<(u32, u32)>,
        spliced: Spliced,
    ) {
        debug_assert_eq!(entrances.cells.len(), node_points.len());
        debug_assert_eq!(entrances.cells.len(), node_anchor.len());
        self.entrances = entrances;
        self.graph = graph;
        self.node_points = node_points;
        self.node_anchor = node_anchor;
        if let Some(sizes) = &mut self.sizes {
            let (aids, max) = (&mut sizes.aids, sizes.max);
            let (old_edges, nodes) = (spliced.old_edges, spliced.new_nodes);
            let new_edges = self.graph.edge_first[nodes.start] as usize
                ..self.graph.edge_first[nodes.end] as usize;
            let lo = SearchAids::edge_lo_of(&self.graph, nodes);
            let old_lo = &aids.edge_lo[old_edges.clone()];
            let gone = SearchAids::serving_counts(&spliced.old_clear, old_lo, max);
            let came = SearchAids::serving_counts(&self.graph.edge_clear[new_edges], &lo, max);
            for (total, (gone, came)) in aids.serving.iter_mut().zip(gone.iter().zip(&came)) {
                *total = *total - gone + came;
            }
            aids.edge_lo.splice(old_edges, lo);
            // Derived from the whole graph: dropped until
            // `refresh_search_aids(true)`.
            aids.levels = Vec::new();
        }
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
        sizes.aids.serving =
            SearchAids::serving_counts(&self.graph.edge_clear, &sizes.aids.edge_lo, sizes.max);
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

    /// Takes the landmark table out (leaving none), for a repair to bring
    /// it up to date and put it back with [`Hierarchy::set_landmarks`].
    pub(crate) fn take_landmarks(&mut self) -> Landmarks {
        std::mem::take(&mut self.landmarks)
    }

    /// Puts a landmark table (over the current graph) in place.
    pub(crate) fn set_landmarks(&mut self, landmarks: Landmarks) {
        debug_assert_eq!(landmarks.nodes_held(), {
            let n = self.entrances.cells.len();
            if landmarks.count == 0 { 0 } else { n }
        });
        self.landmarks = landmarks;
    }

    /// Computes `count` landmarks' distances over the current graph.
    pub(crate) fn compute_landmarks(&mut self, count: u32) {
        self.landmarks = self.built_landmarks(count);
        self.settings.landmarks = count;
        self.refresh_search_aids(true);
    }

    /// Lets go of what only the A* over the cluster graph reads: the
    /// landmark distances (every size's) and the node anchors (see
    /// `anchors_released`).
    pub(crate) fn release_astar_aids(&mut self) {
        self.release_landmarks();
        self.node_anchor = Vec::new();
        self.anchors_released = true;
    }

    /// Lets go of the landmark distances (every size's; see
    /// `landmarks_released`), until
    /// [`restore_astar_aids`](Self::restore_astar_aids).
    pub(crate) fn release_landmarks(&mut self) {
        self.landmarks = Landmarks::default();
        if let Some(sizes) = &mut self.sizes {
            sizes.aids.levels = Vec::new();
        }
        self.landmarks_released = true;
    }

    /// Whether the landmark distances were let go of.
    pub(crate) fn landmarks_released(&self) -> bool {
        self.landmarks_released
    }

    /// Derives again what [`Hierarchy::release_astar_aids`] or
    /// [`Hierarchy::release_landmarks`] let go of, if anything (the
    /// landmarks a build would pick, with exact distances).
    pub(crate) fn restore_astar_aids(&mut self) {
        let anchors = std::mem::take(&mut self.anchors_released);
        let landmarks = std::mem::take(&mut self.landmarks_released);
        if anchors {
            self.refresh_node_anchors();
        }
        if landmarks {
            self.compute_landmarks(self.settings.landmarks);
        }
        if anchors || landmarks {
            self.refresh_stats();
        }
    }

    /// The landmark table a save writes: the hierarchy's own, or, when
    /// released, the one a build would compute.
    pub(crate) fn landmarks_to_save(&self) -> std::borrow::Cow<'_, Landmarks> {
        if !self.landmarks_released {
            return std::borrow::Cow::Borrowed(&self.landmarks);
        }
        std::borrow::Cow::Owned(self.built_landmarks(self.settings.landmarks))
    }

    /// The `count` landmarks a build of the current graph picks, with their
    /// distances (one search over the graph each).
    fn built_landmarks(&self, count: u32) -> Landmarks {
        find_landmarks(
            &self.graph,
            &self.node_points,
            self.grid.width(),
            self.grid.height(),
            count,
        )
    }

    /// Moves the landmarks to the nodes a build would pick, computing the
    /// distances of those that move (all of them when the count changes).
    /// Returns whether any moved.
    pub(crate) fn repick_landmarks(&mut self, count: u32) -> bool {
        let (w, h) = (self.grid.width(), self.grid.height());
        let want = if self.node_points.is_empty() || count == 0 {
            Vec::new()
        } else {
            pick_landmarks(&self.graph, &self.node_points, w, h, count)
        };
        if want == self.landmarks.nodes {
            return false;
        }
        if want.len() != self.landmarks.nodes.len() {
            self.compute_landmarks(count);
            return true;
        }
        for (l, v) in want.into_iter().enumerate() {
            if self.landmarks.nodes[l] != v {
                self.landmarks.replace(&self.graph, l, v);
            }
        }
        true
    }

    /// Records a change of content (a repair): the revision goes up and the
    /// identity takes a fresh id in the same lineage. A contraction depends
    /// on the cluster graph's arcs and costs alone: it stays when the change
    /// left them as they were (`arcs_kept`: the same nodes, each with the
    /// same out-arcs at the same costs; only the moves behind edges or the
    /// search aids changed), and is dropped otherwise, as is the claim of
    /// any contraction job taken before, unless the repair `patched` it
    /// ([`Hierarchy::patch_contraction`]): it then serves the new arcs.
    pub(crate) fn mark_changed(&mut self, arcs_kept: bool, patched: bool) {
        self.revision += 1;
        self.identity = self.identity.renewed(arcs_kept);
        if arcs_kept {
            return;
        }
        let arcs = self.identity.arcs;
        match self.contracted.as_deref_mut() {
            Some(c) if patched => c.built_for = arcs,
            Some(_) => self.set_contracted(None),
            None => {}
        }
    }
}
