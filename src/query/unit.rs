//! The unit a query is for: its size, the cells it may stand on, and what of
//! the hierarchy serves it.

use crate::engine::{Fits, Plain};
use crate::grid::{Node, Point};
use crate::hierarchy::Hierarchy;
use crate::preprocess::Landmarks;
use crate::search::{QueryError, check_endpoint, check_size, check_unit_cell};

/// The grid as a query's unit sees it: the plain grid for a unit of one cell
/// (the search loop of old), the clearance map for a larger one.
pub(crate) enum UnitSpace<'a> {
    One(Plain<'a>),
    Larger(Fits<'a>),
}

/// Runs `$body` with `$space` bound to the [`UnitSpace`] of size `$size` on
/// hierarchy `$h`, monomorphised for each kind of space (so a unit of one
/// cell pays nothing for the others).
macro_rules! in_space {
    ($h:expr, $size:expr, |$space:ident| $body:expr) => {
        match $h.unit_space($size) {
            crate::query::unit::UnitSpace::One($space) => $body,
            crate::query::unit::UnitSpace::Larger($space) => $body,
        }
    };
}
pub(crate) use in_space;

impl Hierarchy {
    /// The space of a unit of `size` (checked by [`check_unit`](Self::check_unit)).
    pub(crate) fn unit_space(&self, size: u8) -> UnitSpace<'_> {
        let movement = &self.settings().movement;
        match self.sizes() {
            Some(sizes) if size > 1 => {
                UnitSpace::Larger(Fits::on(self.grid(), &sizes.clearance, movement, size))
            }
            _ => {
                debug_assert_eq!(size, 1);
                UnitSpace::One(Plain::new(self.grid(), movement))
            }
        }
    }

    /// Checks a unit of `size` may stand on both endpoints: `Err` for size 0
    /// or above [`Hierarchy::max_unit_size`], an endpoint off the map, or
    /// one where the unit does not fit (a wall, for size 1).
    pub(crate) fn check_unit(
        &self,
        start: Point,
        goal: Point,
        size: u32,
    ) -> Result<u8, QueryError> {
        let k = check_size(size, self.max_unit_size())?;
        self.check_cell(start, "start", k)?;
        self.check_cell(goal, "goal", k)?;
        Ok(k)
    }

    /// Checks a unit of `size` (checked) may stand on `p`; returns its node.
    pub(crate) fn check_cell(
        &self,
        p: Point,
        role: &'static str,
        size: u8,
    ) -> Result<Node, QueryError> {
        match self.sizes() {
            Some(sizes) if size > 1 => {
                check_unit_cell(self.grid(), &sizes.clearance, p, role, size)
            }
            _ => check_endpoint(self.grid(), p, role),
        }
    }

    /// Whether a unit of `size` (checked) fits on `p` and can reach it from
    /// `from` (where it fits).
    pub(crate) fn reaches(&self, from: Point, p: Point, size: u8) -> bool {
        match self.sizes() {
            Some(sizes) if size > 1 => {
                self.grid().contains(p)
                    && sizes.level(self.grid(), p) >= size
                    && sizes.connected(self.grid(), from, p, size)
            }
            _ => self.island_of(p).is_some() && self.island_of(p) == self.island_of(from),
        }
    }

    /// Whether a unit of `size` standing on `a` can reach `b` (both checked
    /// endpoints): the islands for size 1, the size's components otherwise.
    pub(crate) fn connected_for(&self, a: Point, b: Point, size: u8) -> bool {
        match self.sizes() {
            Some(sizes) if size > 1 => sizes.connected(self.grid(), a, b, size),
            _ => self.same_island(a, b),
        }
    }

    /// The landmark distances whose bound a unit of `size` reads: size 1's,
    /// or those of the largest level of sizes at or below it.
    #[inline]
    pub(crate) fn landmarks_for(&self, size: u8) -> &Landmarks {
        match self.sizes() {
            Some(sizes) if size > 1 => sizes.aids.landmarks_for(size).unwrap_or(self.landmarks()),
            _ => self.landmarks(),
        }
    }

    /// Per edge, the smallest size it serves as the cheapest of its
    /// parallel edges (empty for a hierarchy of one size).
    #[inline]
    pub(crate) fn edge_lo(&self) -> &[u8] {
        self.sizes().map_or(&[], |s| &s.aids.edge_lo)
    }

    /// Whether a unit of `size` fits on abstract node `v`.
    #[inline]
    pub(crate) fn node_admits(&self, v: u32, size: u8) -> bool {
        size <= 1 || self.entrances().clear[v as usize] >= size
    }

    /// Whether a unit of `size` can travel from `start` to `goal`: answered
    /// from the islands (size 1) or the components of its size, in
    /// O(largest size), without a search.
    ///
    /// ```
    /// use tierpath::{Grid, HierarchyBuilder, Point};
    /// // Two rooms joined by a one-cell door.
    /// let grid = Grid::from_fn(21, 9, |p| p.x != 10 || p.y == 4).unwrap();
    /// let h = HierarchyBuilder::new().max_unit_size(2).build(grid)?;
    /// assert!(h.reachable(Point::new(0, 0), Point::new(19, 0), 1)?);
    /// assert!(!h.reachable(Point::new(0, 0), Point::new(19, 0), 2)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reachable(&self, start: Point, goal: Point, size: u32) -> Result<bool, QueryError> {
        let k = self.check_unit(start, goal, size)?;
        Ok(self.connected_for(start, goal, k))
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        AStar, Clearance, Grid, HierarchyBuilder, Movement, Point, QueryCache, QueryError,
        QueryOptions, SearchCache,
    };

    #[test]
    fn the_largest_sizes_build_and_answer() {
        // Sizes up to the clearance cap, on a map larger than the cap.
        let h = HierarchyBuilder::new()
            .max_unit_size(255)
            .build(Grid::new(300, 300).unwrap())
            .unwrap();
        assert_eq!(h.stats().per_size.len(), 255);
        let mut cache = QueryCache::new();
        let (s, t) = (Point::new(0, 0), Point::new(40, 45));
        for size in [1, 17, 200, 255] {
            let options = QueryOptions::new().unit_size(size);
            let path = h
                .find_path_with(&mut cache, s, t, &options)
                .unwrap()
                .path
                .unwrap();
            crate::validate_sized_path(&path, h.grid(), h.movement(), size).unwrap();
        }
        assert!(matches!(
            h.find_path_with(
                &mut cache,
                s,
                Point::new(50, 50),
                &QueryOptions::new().unit_size(255)
            ),
            Err(QueryError::DoesNotFit { role: "goal", .. })
        ));
    }

    #[test]
    fn bad_input_is_an_error() {
        let grid = Grid::from_ascii(
            "
            ......
            ......
            ....@.
            ......",
        )
        .unwrap();
        let h = HierarchyBuilder::new()
            .max_unit_size(2)
            .build(grid.clone())
            .unwrap();
        let p = Point::new;
        let q = |s, g, k| {
            h.find_path_with(
                &mut QueryCache::new(),
                s,
                g,
                &QueryOptions::new().unit_size(k),
            )
            .unwrap_err()
        };
        assert_eq!(q(p(0, 0), p(1, 1), 0), QueryError::ZeroSize);
        assert_eq!(
            q(p(0, 0), p(1, 1), 3),
            QueryError::SizeAboveMax { size: 3, max: 2 }
        );
        assert!(matches!(
            q(p(6, 0), p(1, 1), 1),
            QueryError::OffMap { role: "start", .. }
        ));
        assert!(matches!(
            q(p(0, 0), p(4, 2), 1),
            QueryError::Blocked { role: "goal", .. }
        ));
        assert!(matches!(
            q(p(3, 1), p(0, 0), 2),
            QueryError::DoesNotFit {
                role: "start",
                clearance: 1,
                ..
            }
        ));
        assert!(matches!(
            q(p(0, 0), p(5, 0), 2),
            QueryError::DoesNotFit { role: "goal", .. }
        ));
        assert!(h.reachable(p(0, 0), p(0, 0), 0).is_err());
        let mut cache = QueryCache::new();
        let ok = h
            .find_path_with(
                &mut cache,
                p(0, 0),
                p(4, 0),
                &QueryOptions::new().unit_size(2),
            )
            .unwrap();
        assert!(ok.path.is_some());
        // A hierarchy for one size refuses larger units.
        let one = HierarchyBuilder::new().build(grid.clone()).unwrap();
        assert_eq!(
            one.find_path_with(
                &mut cache,
                p(0, 0),
                p(4, 0),
                &QueryOptions::new().unit_size(2)
            )
            .unwrap_err(),
            QueryError::SizeAboveMax { size: 2, max: 1 }
        );
        for bad in [
            HierarchyBuilder::new().max_unit_size(0).build(grid.clone()),
            HierarchyBuilder::new()
                .max_unit_size(256)
                .build(grid.clone()),
            HierarchyBuilder::new()
                .movement(Movement {
                    straight: 0,
                    ..Movement::default()
                })
                .max_unit_size(2)
                .build(grid.clone()),
        ] {
            assert!(bad.is_err());
        }
        let c = Clearance::new(grid);
        let mut sc = SearchCache::new();
        assert_eq!(
            AStar::for_unit(&c, 256)
                .find_path(&mut sc, p(0, 0), p(1, 1))
                .unwrap_err(),
            QueryError::SizeAboveMax {
                size: 256,
                max: 255
            }
        );
        assert_eq!(
            AStar::for_unit(&c, 0)
                .find_path(&mut sc, p(0, 0), p(1, 1))
                .unwrap_err(),
            QueryError::ZeroSize
        );
    }

    #[test]
    fn every_size_matches_exact_search_in_reachability_and_never_beats_it() {
        // A maze-ish map with corridors of several widths.
        let mut x = 7u64;
        let grid = Grid::from_fn(72, 56, |p| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            !((p.x % 9 < 2 || p.y % 11 < 3) && (x >> 33) % 100 < 70)
        })
        .unwrap();
        let h = HierarchyBuilder::new()
            .cluster_size(8)
            .max_unit_size(3)
            .build(grid.clone())
            .unwrap();
        let c = Clearance::new(grid.clone());
        let (mut cache, mut flat) = (QueryCache::new(), SearchCache::new());
        for size in 1..=3u32 {
            let pts: Vec<Point> = grid
                .passable_points()
                .filter(|p| c.fits(*p, size))
                .collect();
            let options = QueryOptions::new().unit_size(size);
            for k in 0..120 {
                let (s, t) = (
                    pts[(k * 7919) % pts.len()],
                    pts[(k * 104_729 + 13) % pts.len()],
                );
                let exact = AStar::for_unit(&c, size)
                    .find_path(&mut flat, s, t)
                    .unwrap()
                    .path;
                let out = h.find_path_with(&mut cache, s, t, &options).unwrap();
                assert_eq!(h.reachable(s, t, size).unwrap(), exact.is_some());
                match (exact, out.path) {
                    (None, None) => {}
                    (Some(e), Some(p)) => {
                        crate::validate_sized_path(&p, &grid, h.movement(), size).unwrap();
                        assert!(p.cost >= e.cost, "size {size}: {s} -> {t}");
                    }
                    (e, p) => panic!("size {size}: {s} -> {t}: {e:?} vs {p:?}"),
                }
            }
        }
    }
}
