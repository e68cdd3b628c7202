//! Cost layers: extra per-cell costs on top of terrain.
//!
//! A game keeps several cost maps that change while it runs: danger
//! (influence maps), cells claimed by other units' paths, fields that draw
//! paths toward a point or push them away (Calkins' erupting volcano and
//! tombstone). [`CostLayers`] holds the terrain weights and any number of
//! named layers of signed percent-point deltas; a cell's weight is
//!
//! ```text
//! weight = clamp(terrain + sum of layers, 1, 65535)
//! ```
//!
//! so a layer never makes a cell unwalkable (nor free). The sum is kept in
//! 64 bits, so no number of layers at any values can wrap it: two layers at
//! `i32::MAX` give the largest weight, `i32::MIN` and `-1` the smallest. A
//! [`LayerId`] names its own [`CostLayers`]: one from another is an error,
//! never another layer. Each change returns
//! the [`Edit`]s of the cells whose weight actually changed, for
//! [`DynamicHierarchy::apply`](crate::DynamicHierarchy::apply), which repairs
//! the clusters they touch; [`CostLayers::apply_to`] writes the weights into a
//! grid for flat searches.
//!
//! ```
//! use tierpath::{CostLayers, DynamicHierarchy, Grid, Hierarchy, Point};
//! let grid = Grid::new(48, 48)?;
//! let mut layers = CostLayers::new(&grid);
//! let mut world = DynamicHierarchy::new(Hierarchy::build(grid)?);
//! let dread = layers.add_layer("dread");
//! // A tombstone at (24, 24): cells within 10 cost up to 4x more.
//! world.apply(&layers.add_field(dread, Point::new(24, 24), 10, 300)?)?;
//! assert!(world.grid().weight(Point::new(24, 24)).0 > 300);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::atomic::{AtomicU64, Ordering};

use super::Edit;
use crate::grid::{Grid, Point, Weight};

/// A layer of a [`CostLayers`] (and of its clones).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayerId {
    /// The identity of the [`CostLayers`] that made it.
    owner: u64,
    index: u32,
}

/// A [`LayerId`] that is not one of this [`CostLayers`]' layers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("layer {index} belongs to another set of cost layers")]
pub struct ForeignLayer {
    /// The layer's index in the set that made it.
    pub index: u32,
}

/// Identities of [`CostLayers`], unique in the process.
static NEXT_OWNER: AtomicU64 = AtomicU64::new(1);

#[derive(Debug, Clone)]
struct Layer {
    name: String,
    /// Percent-point delta per cell, row-major (empty until first written).
    values: Vec<i32>,
}

/// Terrain weights plus named layers of extra cost (see the module docs).
///
/// # Performance
/// Four bytes per cell per layer written, plus ten for the terrain and the
/// running sum; a change costs O(cells changed).
#[derive(Debug, Clone)]
pub struct CostLayers {
    width: u32,
    height: u32,
    terrain: Vec<u16>,
    /// Sum of all layers per cell (64 bits: never wraps).
    sum: Vec<i64>,
    layers: Vec<Layer>,
    /// Identity, shared with clones, that its [`LayerId`]s carry.
    owner: u64,
}

impl CostLayers {
    /// Layers over `grid`'s size, its weights as the terrain.
    pub fn new(grid: &Grid) -> CostLayers {
        let (w, h) = (grid.width(), grid.height());
        let terrain = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .map(|p| grid.weight(p).0)
            .collect();
        CostLayers {
            width: w,
            height: h,
            terrain,
            sum: vec![0; (w * h) as usize],
            layers: Vec::new(),
            owner: NEXT_OWNER.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The index of `layer`, when it is one of these layers.
    fn slot(&self, layer: LayerId) -> Result<usize, ForeignLayer> {
        let i = layer.index as usize;
        if layer.owner == self.owner && i < self.layers.len() {
            Ok(i)
        } else {
            Err(ForeignLayer { index: layer.index })
        }
    }

    /// Adds an empty layer.
    pub fn add_layer(&mut self, name: &str) -> LayerId {
        self.layers.push(Layer {
            name: name.to_owned(),
            values: Vec::new(),
        });
        LayerId {
            owner: self.owner,
            index: self.layers.len() as u32 - 1,
        }
    }

    /// A layer's name.
    pub fn name(&self, layer: LayerId) -> Result<&str, ForeignLayer> {
        Ok(&self.layers[self.slot(layer)?].name)
    }

    /// The weight of `p` with every layer added (`Weight::ONE` off the map).
    pub fn weight(&self, p: Point) -> Weight {
        if p.x >= self.width || p.y >= self.height {
            return Weight::ONE;
        }
        self.combined(self.index(p))
    }

    /// The delta `layer` adds at `p` (0 off the map).
    pub fn value(&self, layer: LayerId, p: Point) -> Result<i32, ForeignLayer> {
        let values = &self.layers[self.slot(layer)?].values;
        if p.x >= self.width || p.y >= self.height || values.is_empty() {
            return Ok(0);
        }
        Ok(values[self.index(p)])
    }

    fn index(&self, p: Point) -> usize {
        p.y as usize * self.width as usize + p.x as usize
    }

    fn combined(&self, i: usize) -> Weight {
        let w = self.terrain[i] as i64 + self.sum[i];
        Weight(w.clamp(1, u16::MAX as i64) as u16)
    }

    /// Sets `layer`'s value at each cell (cells off the map are skipped);
    /// returns the weight edits.
    pub fn set(
        &mut self,
        layer: LayerId,
        cells: &[(Point, i32)],
    ) -> Result<Vec<Edit>, ForeignLayer> {
        self.change(layer, cells.iter().map(|(p, v)| (*p, Some(*v), 0)))
    }

    /// Adds `delta` to `layer` at each cell (for example the cells of a path
    /// another unit has claimed); returns the weight edits.
    pub fn add(
        &mut self,
        layer: LayerId,
        cells: &[Point],
        delta: i32,
    ) -> Result<Vec<Edit>, ForeignLayer> {
        self.change(layer, cells.iter().map(|p| (*p, None, delta)))
    }

    /// Adds a radial field to `layer`: `peak` at `center`, falling linearly
    /// to zero at Euclidean distance `radius`. A positive peak repels paths
    /// (danger, a tombstone), a negative one attracts them (warmth, a
    /// volcano). Returns the weight edits. Any radius is fine: one past the
    /// map covers all of it.
    pub fn add_field(
        &mut self,
        layer: LayerId,
        center: Point,
        radius: u32,
        peak: i32,
    ) -> Result<Vec<Edit>, ForeignLayer> {
        self.slot(layer)?;
        let cells: Vec<_> = super::disk(center, radius, self.width, self.height, false)
            .filter_map(|(p, d)| {
                let v = (peak as f64 * (1.0 - d / radius as f64)).round() as i32;
                (v != 0).then_some((p, None, v))
            })
            .collect();
        self.change(layer, cells.into_iter())
    }

    /// Sets the terrain weight of cells (off the map: skipped; a weight of 0
    /// counts as 1); returns the weight edits.
    pub fn set_terrain(&mut self, cells: &[(Point, Weight)]) -> Vec<Edit> {
        let mut edits = Vec::new();
        for (p, w) in cells {
            if p.x >= self.width || p.y >= self.height {
                continue;
            }
            let i = self.index(*p);
            let before = self.combined(i);
            self.terrain[i] = w.0.max(1);
            self.push_edit(i, before, &mut edits);
        }
        edits
    }

    /// Clears `layer`; returns the weight edits.
    pub fn clear(&mut self, layer: LayerId) -> Result<Vec<Edit>, ForeignLayer> {
        let slot = self.slot(layer)?;
        let values = std::mem::take(&mut self.layers[slot].values);
        let mut edits = Vec::new();
        for (i, v) in values.iter().enumerate() {
            if *v != 0 {
                let before = self.combined(i);
                self.sum[i] -= *v as i64;
                self.push_edit(i, before, &mut edits);
            }
        }
        Ok(edits)
    }

    /// Writes every cell's combined weight into `grid` (same size), for flat
    /// searches.
    pub fn apply_to(&self, grid: &mut Grid) {
        for y in 0..self.height.min(grid.height()) {
            for x in 0..self.width.min(grid.width()) {
                let p = Point::new(x, y);
                grid.set_weight(p, self.weight(p)).expect("on the map");
            }
        }
    }

    /// Sets (`Some`) or adds to (`None`, delta) layer values; collects the
    /// edits of cells whose combined weight changed.
    fn change(
        &mut self,
        layer: LayerId,
        cells: impl Iterator<Item = (Point, Option<i32>, i32)>,
    ) -> Result<Vec<Edit>, ForeignLayer> {
        let slot = self.slot(layer)?;
        let n = (self.width * self.height) as usize;
        let mut edits = Vec::new();
        let mut values = std::mem::take(&mut self.layers[slot].values);
        if values.is_empty() {
            values = vec![0; n];
        }
        for (p, set, delta) in cells {
            if p.x >= self.width || p.y >= self.height {
                continue;
            }
            let i = self.index(p);
            let before = self.combined(i);
            let new = set.unwrap_or_else(|| values[i].saturating_add(delta));
            self.sum[i] += new as i64 - values[i] as i64;
            values[i] = new;
            self.push_edit(i, before, &mut edits);
        }
        self.layers[slot].values = values;
        Ok(edits)
    }

    fn push_edit(&self, i: usize, before: Weight, edits: &mut Vec<Edit>) {
        let after = self.combined(i);
        if after != before {
            let p = Point::new(i as u32 % self.width, i as u32 / self.width);
            edits.push(Edit::Weight(p, after));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_add_up_and_clamp() {
        let mut g = Grid::new(8, 8).unwrap();
        g.set_weight(Point::new(1, 1), Weight(300)).unwrap();
        let mut l = CostLayers::new(&g);
        let a = l.add_layer("a");
        let b = l.add_layer("b");
        let e = l
            .set(a, &[(Point::new(1, 1), 50), (Point::new(2, 2), -150)])
            .unwrap();
        assert_eq!(
            e,
            vec![
                Edit::Weight(Point::new(1, 1), Weight(350)),
                Edit::Weight(Point::new(2, 2), Weight(1))
            ]
        );
        assert!(
            l.add(b, &[Point::new(2, 2)], 20).unwrap().is_empty(),
            "still clamped"
        );
        assert_eq!(l.weight(Point::new(2, 2)), Weight(1));
        let e = l.clear(a).unwrap();
        assert!(e.contains(&Edit::Weight(Point::new(2, 2), Weight(120))));
        assert!(e.contains(&Edit::Weight(Point::new(1, 1), Weight(300))));
        assert_eq!(l.value(a, Point::new(1, 1)), Ok(0));
        assert_eq!(l.name(b), Ok("b"));
    }

    #[test]
    fn fields_fall_off_with_distance() {
        let g = Grid::new(21, 21).unwrap();
        let mut l = CostLayers::new(&g);
        let f = l.add_layer("volcano");
        l.add_field(f, Point::new(10, 10), 5, -80).unwrap();
        assert_eq!(l.weight(Point::new(10, 10)), Weight(20));
        assert!(l.weight(Point::new(12, 10)) > Weight(20));
        assert_eq!(l.weight(Point::new(15, 10)), Weight::ONE);
        let mut g2 = g.clone();
        l.apply_to(&mut g2);
        assert_eq!(g2.weight(Point::new(10, 10)), Weight(20));
    }

    #[test]
    fn sums_never_wrap() {
        let g = Grid::new(4, 4).unwrap();
        let p = Point::new(1, 1);
        let mut l = CostLayers::new(&g);
        let (a, b) = (l.add_layer("a"), l.add_layer("b"));
        l.set(a, &[(p, i32::MAX)]).unwrap();
        l.set(b, &[(p, i32::MAX)]).unwrap();
        assert_eq!(l.weight(p), Weight::MAX, "two layers at i32::MAX");
        l.set(a, &[(p, i32::MIN)]).unwrap();
        l.set(b, &[(p, -1)]).unwrap();
        assert_eq!(l.weight(p), Weight(1), "i32::MIN and -1");
        // Many layers at the extremes, then cleared: back to the terrain.
        let many: Vec<LayerId> = (0..40).map(|i| l.add_layer(&i.to_string())).collect();
        for id in &many {
            l.add(*id, &[p], i32::MIN).unwrap();
        }
        assert_eq!(l.weight(p), Weight(1));
        for id in many.iter().chain([&a, &b]) {
            l.clear(*id).unwrap();
        }
        assert_eq!(l.weight(p), Weight::ONE);
    }

    #[test]
    fn a_foreign_layer_is_an_error() {
        let g = Grid::new(4, 4).unwrap();
        let mut mine = CostLayers::new(&g);
        let mut other = CostLayers::new(&g);
        for i in 0..3 {
            other.add_layer(&i.to_string());
        }
        let theirs = other.add_layer("theirs");
        let p = Point::new(0, 0);
        assert_eq!(mine.name(theirs), Err(ForeignLayer { index: 3 }));
        assert!(mine.value(theirs, p).is_err());
        assert!(mine.set(theirs, &[(p, 5)]).is_err());
        assert!(mine.add(theirs, &[p], 5).is_err());
        assert!(mine.add_field(theirs, p, 3, 5).is_err());
        assert!(mine.clear(theirs).is_err());
        // Same index, another set: still foreign.
        let own = mine.add_layer("own");
        let first = other.add_layer("x");
        assert_eq!(own.index, 0);
        let _ = first;
        let zero_of_other = LayerId {
            owner: other.owner,
            index: 0,
        };
        assert!(mine.set(zero_of_other, &[(p, 5)]).is_err());
        // A clone shares its layers' ids.
        let mut copy = mine.clone();
        assert_eq!(copy.set(own, &[(p, 50)]).unwrap().len(), 1);
    }

    #[test]
    fn huge_radii_cover_the_map() {
        let g = Grid::new(9, 7).unwrap();
        let mut l = CostLayers::new(&g);
        let f = l.add_layer("f");
        for radius in [3_037_000_500, u32::MAX] {
            let edits = l.add_field(f, Point::new(4, 3), radius, 1000).unwrap();
            assert_eq!(edits.len(), 63, "radius {radius}");
            l.clear(f).unwrap();
        }
    }
}
