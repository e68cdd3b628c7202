//! Fog of war: a player's own view of the map.
//!
//! A player knows the cells it has explored; every other cell is assumed
//! walkable plain ground until seen. [`PlayerView`] keeps which cells are
//! explored and a [`DynamicHierarchy`] of the map as the player believes it,
//! so the player's units plan on what it knows (and may walk into a wall
//! they have not seen yet, then re-plan). Revealing cells repairs that view
//! locally: only cells whose truth differs from the assumption become edits.
//!
//! ```
//! use std::sync::Arc;
//! use tierpath::{Grid, Hierarchy, PlayerView, Point, QueryCache};
//! let truth = Grid::from_fn(32, 32, |p| p.x != 16 || p.y == 31)?; // a wall with a gap
//! let truth = Arc::new(Hierarchy::build(truth)?);
//! let mut view = PlayerView::new(Arc::clone(&truth))?;
//! let mut cache = QueryCache::new();
//! let (s, t) = (Point::new(2, 2), Point::new(30, 2));
//! // Nothing seen: the straight line looks open.
//! assert_eq!(view.find_path(&mut cache, s, t)?.path.unwrap().cells.len(), 29);
//! // The unit sees the wall, and goes around by the gap.
//! view.reveal_radius(Point::new(15, 2), 40)?;
//! let around = view.find_path(&mut cache, s, t)?.path.unwrap();
//! assert!(around.cells.contains(&Point::new(16, 31)));
//! // It has now seen every wall: its view is the truth, shared.
//! assert!(view.is_shared());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Memory
//! A player who has seen nothing but open plain ground plans on the
//! hierarchy of open ground, built once per truth and shared by every
//! player (and dropped when none is left). Its first wall or heavy cell
//! seen gives it a view of its own: its map (one byte per cell), islands,
//! dead ends and jump lines, but not a cluster graph. Cluster by cluster,
//! the graph of its map is the truth's where it believes the cluster and
//! the cells around it as the truth has them, open ground's where it
//! believes them open plain ground, and only on the frontier of what it has
//! explored a part of its own (see `view_graph`): it reads the two shared
//! hierarchies there. Queries on the view are exactly those of a hierarchy
//! built from its map without landmarks (a view plans with the octile
//! bound: on long queries its A* over the cluster graph expands about 2.6x
//! the nodes it would with the default four). On TheFrozenSea with the top quarter explored, 52 of 4,096
//! clusters are its own, and the player holds 0.45x the truth's hierarchy
//! with its grid (0.91x with a whole hierarchy of its own), most of it the
//! map, its jump lines and its dead ends (`cargo bench --bench repair`).
//! Units of several sizes still get a copy of open ground's hierarchy to
//! repair. Once the player has seen every cell where the truth differs from
//! open plain ground, its view *is* the truth: what it held is dropped and
//! the truth's, held in an [`Arc`], is shared by every such player at no
//! cost. [`PlayerView::memory_bytes`] reports what the player holds.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError, Weak};

use fixedbitset::FixedBitSet;

use super::view_graph::as_assumed;
use super::{DynamicHierarchy, Edit, EditError, RepairReport};
use crate::grid::{Grid, Point, Weight};
use crate::hierarchy::{BuildError, Hierarchy, HierarchyBuilder};

/// The hierarchy a player plans on.
#[derive(Debug)]
enum View {
    /// Its own, while its map differs from the truth and from open ground.
    Own(Box<DynamicHierarchy>),
    /// The truth's open twin, while the player has seen open plain ground
    /// only.
    Open(Arc<Hierarchy>),
    /// The truth's, once they are the same map.
    Shared,
}

/// A truth's open twin: the hierarchy of its map's size and settings with
/// every cell open plain ground, built when a player first needs it and
/// held by the players planning on it (the truth keeps only a weak
/// reference, so it is dropped when the last of them sees a wall).
#[derive(Default)]
pub(crate) struct OpenTwin(Mutex<Weak<Hierarchy>>);

impl OpenTwin {
    /// The twin of `truth` (whose field this is), built unless some player
    /// still holds it.
    fn get(&self, truth: &Hierarchy) -> Result<Arc<Hierarchy>, BuildError> {
        let mut twin = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(open) = twin.upgrade() {
            return Ok(open);
        }
        let grid = truth.grid();
        let open = Grid::new(grid.width(), grid.height())?;
        let open = Arc::new(HierarchyBuilder::with_settings(*truth.settings()).build(open)?);
        *twin = Arc::downgrade(&open);
        Ok(open)
    }

    /// Whether some player holds the twin now.
    #[cfg(test)]
    fn is_held(&self) -> bool {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .strong_count()
            > 0
    }
}

impl Clone for OpenTwin {
    /// A clone of a hierarchy builds its own twin when asked (the players of
    /// the original keep theirs).
    fn clone(&self) -> OpenTwin {
        OpenTwin::default()
    }
}

impl std::fmt::Debug for OpenTwin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenTwin").finish_non_exhaustive()
    }
}

/// One player's knowledge of the map (see the module docs). Queries go
/// through `Deref` to the player's hierarchy.
#[derive(Debug)]
pub struct PlayerView {
    truth: Arc<Hierarchy>,
    explored: FixedBitSet,
    /// Unexplored cells whose truth is not open plain ground.
    hidden: usize,
    view: View,
}

impl Deref for PlayerView {
    type Target = Hierarchy;
    fn deref(&self) -> &Hierarchy {
        match &self.view {
            View::Own(world) => world.hierarchy(),
            View::Open(open) => open,
            View::Shared => &self.truth,
        }
    }
}

impl PlayerView {
    /// A player who has seen nothing of `truth`'s map (everything looks like
    /// open plain ground); its hierarchy uses `truth`'s settings. The
    /// hierarchy of open ground is built by the first such player and shared
    /// by the others (see the module docs).
    pub fn new(truth: Arc<Hierarchy>) -> Result<PlayerView, BuildError> {
        let grid = truth.grid();
        let hidden = if grid.is_weighted() {
            (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
                .filter(|p| !as_assumed(grid, *p))
                .count()
        } else {
            // Every cell weighs one: the walls.
            grid.len() - grid.passable_count()
        };
        let view = if hidden == 0 {
            View::Shared
        } else {
            View::Open(truth.open_twin.get(&truth)?)
        };
        Ok(PlayerView {
            explored: FixedBitSet::with_capacity(grid.len()),
            hidden,
            view,
            truth,
        })
    }

    /// Whether the player has seen `p`.
    pub fn is_explored(&self, p: Point) -> bool {
        self.truth.grid().contains(p) && self.explored.contains(self.index(p))
    }

    fn index(&self, p: Point) -> usize {
        p.y as usize * self.truth.grid().width() as usize + p.x as usize
    }

    /// Cells explored so far.
    pub fn explored_cells(&self) -> usize {
        self.explored.count_ones(..)
    }

    /// Whether the player's map is now the truth, and its hierarchy the
    /// truth's, shared.
    pub fn is_shared(&self) -> bool {
        matches!(self.view, View::Shared)
    }

    /// The player's own hierarchy, while it has one (for its repair state
    /// and landmarks): a hierarchy serving units of several sizes, once it
    /// has seen a wall or heavy ground and until its view is the truth. A
    /// view of one size reads its cluster graph from the truth's and open
    /// ground's, and its repairs are the reveals alone: `None`.
    pub fn own(&mut self) -> Option<&mut DynamicHierarchy> {
        match &mut self.view {
            View::Own(world) if world.hierarchy().view().is_none() => Some(world),
            View::Own(_) | View::Open(_) | View::Shared => None,
        }
    }

    /// Reveals `cells` of the truth: those that differ from what the player
    /// assumed are repaired in its hierarchy. A cell off the map is an error,
    /// and then nothing is revealed.
    pub fn reveal(&mut self, cells: &[Point]) -> Result<RepairReport, EditError> {
        let truth = Arc::clone(&self.truth);
        let grid = truth.grid();
        for (index, p) in cells.iter().enumerate() {
            grid.check(*p)
                .map_err(|source| EditError::OffMap { index, source })?;
        }
        let mut edits = Vec::new();
        let mut fresh = Vec::new();
        for p in cells {
            let i = self.index(*p);
            if self.explored.contains(i) {
                continue;
            }
            self.explored.insert(i);
            fresh.push(i);
            if !as_assumed(grid, *p) {
                self.hidden -= 1;
                if !grid.is_passable(*p) {
                    edits.push(Edit::Passable(*p, false));
                }
                if grid.weight(*p) != Weight::ONE {
                    edits.push(Edit::Weight(*p, grid.weight(*p)));
                }
            }
        }
        if let View::Open(open) = &self.view
            && !edits.is_empty()
        {
            // The first wall or heavy cell seen: a view of its own, whose
            // cluster graph is read from the truth's and open ground's where
            // it believes them (a copy of open ground's hierarchy to repair
            // when units of several sizes are served).
            let own = if truth.max_unit_size() == 1 {
                DynamicHierarchy::for_view(Hierarchy::view_of(Arc::clone(&truth), Arc::clone(open)))
            } else {
                DynamicHierarchy::new(Hierarchy::clone(open))
            };
            self.view = View::Own(Box::new(own));
        }
        let report = match &mut self.view {
            View::Own(world) => world.apply(&edits),
            View::Open(_) | View::Shared => Ok(RepairReport::nothing(truth.layout())),
        };
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                // Nothing was applied: nothing is revealed.
                for i in fresh {
                    self.explored.set(i, false);
                }
                self.hidden += edits
                    .iter()
                    .map(|e| match e {
                        Edit::Passable(p, _) | Edit::Weight(p, _) => *p,
                    })
                    .collect::<std::collections::BTreeSet<_>>()
                    .len();
                return Err(e);
            }
        };
        if self.hidden == 0 {
            self.view = View::Shared;
        }
        Ok(report)
    }

    /// Reveals every cell within Euclidean distance `radius` of `center`
    /// (a unit's sight).
    pub fn reveal_radius(&mut self, center: Point, radius: u32) -> Result<RepairReport, EditError> {
        let grid = self.truth.grid();
        grid.check(center)
            .map_err(|source| EditError::OffMap { index: 0, source })?;
        let cells: Vec<Point> = super::disk(center, radius, grid.width(), grid.height(), true)
            .map(|(p, _)| p)
            .collect();
        self.reveal(&cells)
    }

    /// Bytes this player holds on its own: the explored bits, and while it
    /// has one, its hierarchy (with its grid) and repair state. A shared
    /// truth or open twin counts for nothing (see
    /// [`open_twin_bytes`](Self::open_twin_bytes)).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(self.explored.as_slice())
            + match &self.view {
                View::Own(world) => {
                    world.memory_bytes() + grid_bytes(world.grid()) + world.repair_memory_bytes()
                }
                View::Open(_) | View::Shared => 0,
            }
    }

    /// Bytes of the hierarchy of open ground (with its grid) this player
    /// shares with the other players: planning on it while it has seen
    /// nothing but open ground, reading the clusters it has not explored
    /// from it once it has seen walls. 0 when it plans on a hierarchy of its
    /// own (units of several sizes) or on the truth's.
    pub fn open_twin_bytes(&self) -> usize {
        let open = match &self.view {
            View::Open(open) => open,
            View::Own(world) => match world.hierarchy().view() {
                Some(parts) => &parts.open,
                None => return 0,
            },
            View::Shared => return 0,
        };
        open.memory_bytes() + grid_bytes(open.grid())
    }
}

/// Bytes a grid holds (a passability byte per padded cell, and a weight per
/// padded cell when weighted).
fn grid_bytes(grid: &Grid) -> usize {
    grid.padded_len() * if grid.is_weighted() { 3 } else { 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::QueryCache;

    /// A view reads its cluster graph from the truth and open ground; what
    /// it shows of it (petgraph's view, the abstract edges, a saved file, a
    /// contraction, a dynamic hierarchy taking a copy) is the hierarchy of
    /// its map's.
    #[test]
    fn a_view_shows_the_hierarchy_of_its_map() {
        use petgraph::visit::{EdgeCount, IntoNodeReferences, NodeCount, NodeRef};
        let truth = crate::mapgen::generate(crate::mapgen::MapKind::Rooms, 80, 64, 5).unwrap();
        let truth_h = Arc::new(
            HierarchyBuilder::new()
                .cluster_size(8)
                .build(truth.clone())
                .unwrap(),
        );
        let mut view = PlayerView::new(Arc::clone(&truth_h)).unwrap();
        view.reveal_radius(Point::new(20, 20), 14).unwrap();
        assert!(view.view().is_some());
        let believed =
            Grid::from_fn(80, 64, |p| !view.is_explored(p) || truth.is_passable(p)).unwrap();
        let built = HierarchyBuilder::with_settings(*view.settings())
            .build(believed)
            .unwrap();
        let (g, b) = (view.cluster_graph(), built.cluster_graph());
        assert_eq!(g.node_count(), b.node_count());
        assert_eq!(g.edge_count(), b.edge_count());
        let points = |h: &Hierarchy| -> Vec<Point> {
            h.cluster_graph()
                .node_references()
                .map(|n| *n.weight())
                .collect()
        };
        assert_eq!(points(&view), points(&built));
        let edges = |h: &Hierarchy| -> Vec<_> { h.abstract_edges().collect() };
        assert_eq!(edges(&view), edges(&built));
        let loaded = Hierarchy::from_bytes(view.grid().clone(), &view.to_bytes()).unwrap();
        assert_eq!(edges(&loaded), edges(&built));
        let mut copy = Hierarchy::clone(&view);
        copy.contract().unwrap();
        assert!(copy.is_contracted() && copy.view().is_none());
        let world = DynamicHierarchy::new(Hierarchy::clone(&view));
        assert!(world.hierarchy().view().is_none());
        assert_eq!(edges(world.hierarchy()), edges(&built));
        let mut cache = QueryCache::new();
        let (s, t) = (Point::new(2, 2), Point::new(77, 60));
        let want = built
            .find_path(&mut cache, s, t)
            .unwrap()
            .path
            .map(|p| p.cells);
        for h in [&*view, &copy, world.hierarchy()] {
            assert_eq!(
                h.find_path(&mut cache, s, t).unwrap().path.map(|p| p.cells),
                want
            );
        }
    }

    #[test]
    fn players_who_have_seen_only_open_ground_share_one_hierarchy() {
        // A wall across the middle, with a gap at the bottom.
        let truth = Grid::from_fn(64, 48, |p| p.x != 32 || p.y == 47).unwrap();
        let truth = Arc::new(Hierarchy::build(truth).unwrap());
        let bits = FixedBitSet::with_capacity(64 * 48).as_slice().len() * 8;
        let mut a = PlayerView::new(Arc::clone(&truth)).unwrap();
        let mut b = PlayerView::new(Arc::clone(&truth)).unwrap();
        assert!(truth.open_twin.is_held());
        for view in [&a, &b] {
            assert_eq!(view.memory_bytes(), bits);
            assert!(view.open_twin_bytes() > 0);
        }
        let (s, t) = (Point::new(2, 2), Point::new(60, 2));
        let mut cache = QueryCache::new();
        // Open ground seen: still the shared hierarchy.
        a.reveal_radius(Point::new(8, 8), 5).unwrap();
        assert_eq!(a.memory_bytes(), bits);
        assert!(a.own().is_none());
        let straight = a.find_path(&mut cache, s, t).unwrap().path.unwrap();
        assert_eq!(straight.cells.len(), 59);
        // A wall seen: a view of its own (its cluster graph read from the
        // truth's and open ground's), repaired; the other player still
        // shares.
        a.reveal_radius(Point::new(32, 2), 3).unwrap();
        assert!(a.view().is_some() && a.own().is_none());
        assert!(a.memory_bytes() > 10 * bits);
        assert!(
            a.open_twin_bytes() > 0,
            "still read where it has not explored"
        );
        let around = a.find_path(&mut cache, s, t).unwrap().path.unwrap();
        assert!(around.cost > straight.cost, "around the wall seen");
        assert!(!around.cells.iter().any(|p| p.x == 32 && p.y <= 5));
        assert_eq!(b.memory_bytes(), bits);
        let unaware = b.find_path(&mut cache, s, t).unwrap().path.unwrap();
        assert_eq!(unaware.cells, straight.cells);
        // The twin is held while some player reads it: dropped with the
        // last, and built again for the next new player.
        b.reveal(&[Point::new(32, 10)]).unwrap();
        assert!(truth.open_twin.is_held());
        drop((a, b));
        assert!(!truth.open_twin.is_held());
        let c = PlayerView::new(Arc::clone(&truth)).unwrap();
        assert!(truth.open_twin.is_held());
        assert_eq!(c.memory_bytes(), bits);
        drop(c);
        assert!(!truth.open_twin.is_held());
    }
}
