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
//! use tierpath::{BuildSettings, Grid, PlayerView, Point, QueryCache};
//! let truth = Grid::from_fn(32, 32, |p| p.x != 16 || p.y == 31)?; // a wall with a gap
//! let mut view = PlayerView::new(&truth, BuildSettings::default())?;
//! let mut cache = QueryCache::new();
//! let (s, t) = (Point::new(2, 2), Point::new(30, 2));
//! // Nothing seen: the straight line looks open.
//! assert_eq!(view.find_path(&mut cache, s, t)?.path.unwrap().cells.len(), 29);
//! // The unit sees the wall, and goes around by the gap.
//! view.reveal_radius(&truth, Point::new(15, 2), 40)?;
//! let around = view.find_path(&mut cache, s, t)?.path.unwrap();
//! assert!(around.cells.contains(&Point::new(16, 31)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Memory
//! Per player: one bit per cell for what is explored, plus its own hierarchy
//! of the believed map. Early on that map is mostly open ground, whose
//! hierarchy is small (open clusters need no stored paths and no dead-end
//! blocks beyond one per island); it grows toward the size of the true map's
//! hierarchy as the player explores. [`PlayerView::memory_bytes`] reports it.

use std::ops::Deref;

use fixedbitset::FixedBitSet;

use super::{DynamicHierarchy, Edit, EditError, RepairReport};
use crate::grid::{Grid, Point, Weight};
use crate::hierarchy::{BuildError, BuildSettings, Hierarchy, HierarchyBuilder};

/// One player's knowledge of the map (see the module docs). Queries go
/// through `Deref` to the player's hierarchy.
#[derive(Debug)]
pub struct PlayerView {
    explored: FixedBitSet,
    width: u32,
    world: DynamicHierarchy,
}

impl Deref for PlayerView {
    type Target = Hierarchy;
    fn deref(&self) -> &Hierarchy {
        self.world.hierarchy()
    }
}

impl PlayerView {
    /// A player who has seen nothing of `truth` (everything looks like open
    /// plain ground), with hierarchy `settings`.
    pub fn new(truth: &Grid, settings: BuildSettings) -> Result<PlayerView, BuildError> {
        let believed = Grid::new(truth.width(), truth.height())?;
        let h = HierarchyBuilder::with_settings(settings).build(believed)?;
        Ok(PlayerView {
            explored: FixedBitSet::with_capacity(truth.len()),
            width: truth.width(),
            world: DynamicHierarchy::new(h),
        })
    }

    /// Whether the player has seen `p`.
    pub fn is_explored(&self, p: Point) -> bool {
        p.x < self.width
            && self
                .explored
                .contains(p.y as usize * self.width as usize + p.x as usize)
    }

    /// Cells explored so far.
    pub fn explored_cells(&self) -> usize {
        self.explored.count_ones(..)
    }

    /// The player's hierarchy, for repair state and landmarks.
    pub fn world(&mut self) -> &mut DynamicHierarchy {
        &mut self.world
    }

    /// Reveals `cells` of `truth` (the same map the view was made from):
    /// cells that differ from what the player assumed are repaired. Cells
    /// off the map are an error, and then nothing is revealed.
    pub fn reveal(&mut self, truth: &Grid, cells: &[Point]) -> Result<RepairReport, EditError> {
        let mut edits = Vec::new();
        for (index, p) in cells.iter().enumerate() {
            truth
                .check(*p)
                .and_then(|_| self.world.grid().check(*p))
                .map_err(|source| EditError::OffMap { index, source })?;
            if self.is_explored(*p) {
                continue;
            }
            if !truth.is_passable(*p) {
                edits.push(Edit::Passable(*p, false));
            }
            if truth.weight(*p) != Weight::ONE {
                edits.push(Edit::Weight(*p, truth.weight(*p)));
            }
        }
        let report = self.world.apply(&edits)?;
        for p in cells {
            self.explored
                .insert(p.y as usize * self.width as usize + p.x as usize);
        }
        Ok(report)
    }

    /// Reveals every cell within Euclidean distance `radius` of `center`
    /// (a unit's sight).
    pub fn reveal_radius(
        &mut self,
        truth: &Grid,
        center: Point,
        radius: u32,
    ) -> Result<RepairReport, EditError> {
        truth
            .check(center)
            .map_err(|source| EditError::OffMap { index: 0, source })?;
        let r = radius as i64;
        let (cx, cy) = (center.x as i64, center.y as i64);
        let mut cells = Vec::new();
        for y in (cy - r).max(0)..=(cy + r).min(truth.height() as i64 - 1) {
            for x in (cx - r).max(0)..=(cx + r).min(truth.width() as i64 - 1) {
                if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                    cells.push(Point::new(x as u32, y as u32));
                }
            }
        }
        self.reveal(truth, &cells)
    }

    /// Bytes this player holds: the explored bits, its hierarchy and the
    /// hierarchy's repair state.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of_val(self.explored.as_slice())
            + self.world.memory_bytes()
            + grid_bytes(self.world.grid())
            + self.world.repair_memory_bytes()
    }
}

/// Bytes a grid holds (a passability byte per padded cell, and a weight per
/// padded cell when weighted).
fn grid_bytes(grid: &Grid) -> usize {
    grid.padded_len() * if grid.is_weighted() { 3 } else { 1 }
}
