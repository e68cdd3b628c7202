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
//! Per player: one bit per cell for what is explored, plus, while the
//! player's map differs from the truth, its own hierarchy of the believed map
//! (about the size of the truth's: open ground has many transitions). Once
//! the player has seen every cell where the truth differs from open plain
//! ground, its view *is* the truth: the own hierarchy is dropped and the
//! truth's, held in an [`Arc`], is shared by every such player at no cost.
//! [`PlayerView::memory_bytes`] reports what the player holds.

use std::ops::Deref;
use std::sync::Arc;

use fixedbitset::FixedBitSet;

use super::{DynamicHierarchy, Edit, EditError, RepairReport};
use crate::grid::{Grid, Point, Weight};
use crate::hierarchy::{BuildError, Hierarchy, HierarchyBuilder};

/// The hierarchy a player plans on.
#[derive(Debug)]
enum View {
    /// Its own, while its map differs from the truth.
    Own(Box<DynamicHierarchy>),
    /// The truth's, once they are the same map.
    Shared,
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
            View::Shared => &self.truth,
        }
    }
}

/// Whether a cell of the truth is what an unexplored cell is assumed to be.
fn as_assumed(truth: &Grid, p: Point) -> bool {
    truth.is_passable(p) && truth.weight(p) == Weight::ONE
}

impl PlayerView {
    /// A player who has seen nothing of `truth`'s map (everything looks like
    /// open plain ground); its hierarchy uses `truth`'s settings.
    pub fn new(truth: Arc<Hierarchy>) -> Result<PlayerView, BuildError> {
        let grid = truth.grid();
        let hidden = (0..grid.height())
            .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
            .filter(|p| !as_assumed(grid, *p))
            .count();
        let view = if hidden == 0 {
            View::Shared
        } else {
            let believed = Grid::new(grid.width(), grid.height())?;
            let h = HierarchyBuilder::with_settings(*truth.settings()).build(believed)?;
            View::Own(Box::new(DynamicHierarchy::new(h)))
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
    /// and landmarks).
    pub fn own(&mut self) -> Option<&mut DynamicHierarchy> {
        match &mut self.view {
            View::Own(world) => Some(world),
            View::Shared => None,
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
        let report = match &mut self.view {
            View::Own(world) => world.apply(&edits),
            View::Shared => Ok(RepairReport::nothing(truth.layout())),
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
    /// truth counts for nothing.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(self.explored.as_slice())
            + match &self.view {
                View::Own(world) => {
                    world.memory_bytes() + grid_bytes(world.grid()) + world.repair_memory_bytes()
                }
                View::Shared => 0,
            }
    }
}

/// Bytes a grid holds (a passability byte per padded cell, and a weight per
/// padded cell when weighted).
fn grid_bytes(grid: &Grid) -> usize {
    grid.padded_len() * if grid.is_weighted() { 3 } else { 1 }
}
