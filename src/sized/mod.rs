//! Units larger than one cell: clearance, exact flat search for any size,
//! and one hierarchy that serves every size.
//!
//! A unit of size `k` is a `k x k` square named by its top-left cell. The
//! [`Clearance`] of a cell is the largest square that fits with its corner
//! there, so the unit fits exactly where clearance `>= k`, and it moves as a
//! single cell would on that grid (the [movement
//! rule](SizedHierarchy#the-movement-rule), checked cell by cell by
//! [`sized_path_cost`]).
//!
//! * [`SizedAStar`]: exact A* for any size on the implicit grid "clearance
//!   `>= k`", the baseline and the oracle.
//! * [`SizedHierarchy`]: built once with a largest size; its components
//!   answer "unreachable for this size" at once, and one cluster graph with
//!   edges annotated by the largest size they admit (HAA*) answers
//!   two-tier queries for every size, refined and smoothed on the size's
//!   grid.
//!
//! ```
//! use tierpath::{Clearance, Grid, Point, SizedAStar, SizedHierarchy, SizedQueryCache, SearchCache};
//! let grid = Grid::from_fn(80, 60, |p| !(p.x == 40 && p.y > 3)).unwrap(); // a wall, gap at the top
//! let h = SizedHierarchy::build(grid, 3)?;
//! let mut cache = SizedQueryCache::new();
//! let (s, t) = (Point::new(10, 50), Point::new(70, 50));
//! let out = h.find_path(&mut cache, s, t, 3)?;        // a 3x3 unit, over the wall's top
//! let path = out.path.expect("the 4-row gap fits a 3x3 unit");
//! assert!(path.cells.iter().all(|p| h.clearance().fits(*p, 3)));
//! // The exact flat search for the same size: never more expensive.
//! let exact = SizedAStar::new(h.clearance()).find_path(&mut SearchCache::new(), s, t, 3)?;
//! assert!(exact.path.unwrap().cost <= path.cost);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod astar;
mod build;
mod clearance;
mod components;
mod hierarchy;
mod landmarks;
mod moves;
mod query;

pub use astar::SizedAStar;
pub use build::SizeTransitions;
pub use clearance::Clearance;
pub use hierarchy::{
    DEFAULT_MAX_SIZE, DEFAULT_SIZED_LANDMARKS, SizeClassStats, SizedBuilder, SizedHierarchy,
    SizedSettings, SizedStats,
};
pub use moves::{
    SizedPathError, footprint_fits, sized_legal_move, sized_path_cost, validate_sized_path,
};
pub use query::SizedQueryCache;

use thiserror::Error;

#[cfg(test)]
use crate::SearchCache;
use crate::grid::{GridError, Point};

/// Why a sized hierarchy could not be built.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SizedBuildError {
    /// Unusable movement rules.
    #[error(transparent)]
    Movement(#[from] GridError),
    /// A cluster side outside 2..=1024.
    #[error("cluster size {0} is out of range: use 2 to 1024")]
    ClusterSize(u32),
    /// A largest unit size outside 1..=255.
    #[error("largest unit size {0} is out of range: use 1 to 255")]
    MaxSize(u32),
    /// More than 8 landmarks.
    #[error("{0} landmarks is out of range: use 0 to 8")]
    Landmarks(u32),
}

/// Bad input to a sized query (never "no path", which is a value).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SizedQueryError {
    /// Unit size 0.
    #[error("unit size 0 is invalid: sizes start at 1")]
    ZeroSize,
    /// A size larger than the search serves.
    #[error("unit size {size} is above the largest size served, {max}")]
    SizeAboveMax {
        /// The size asked for.
        size: u32,
        /// The largest size served.
        max: u32,
    },
    /// An endpoint off the map.
    #[error("{role} {point} is off the {width}x{height} map")]
    OffMap {
        /// "start" or "goal".
        role: &'static str,
        /// The point.
        point: Point,
        /// Map width.
        width: u32,
        /// Map height.
        height: u32,
    },
    /// An endpoint where the unit does not fit.
    #[error(
        "a size-{size} unit does not fit at {role} {point}: the largest square with its top-left corner there is {clearance}x{clearance}"
    )]
    DoesNotFit {
        /// "start" or "goal".
        role: &'static str,
        /// The point.
        point: Point,
        /// The unit's size.
        size: u32,
        /// The point's clearance.
        clearance: u8,
    },
    /// Unusable movement rules.
    #[error(transparent)]
    Movement(#[from] GridError),
}

/// Checks a sized query: size in `1..=max`, both endpoints on the map and
/// fitting the unit. Returns the size as a byte.
pub(crate) fn check_endpoints(
    clearance: &Clearance,
    start: Point,
    goal: Point,
    size: u32,
    max: u32,
) -> Result<u8, SizedQueryError> {
    if size == 0 {
        return Err(SizedQueryError::ZeroSize);
    }
    if size > max {
        return Err(SizedQueryError::SizeAboveMax { size, max });
    }
    let grid = clearance.grid();
    for (role, point) in [("start", start), ("goal", goal)] {
        if !grid.contains(point) {
            return Err(SizedQueryError::OffMap {
                role,
                point,
                width: grid.width(),
                height: grid.height(),
            });
        }
        let c = clearance.get(point);
        if (c as u32) < size {
            return Err(SizedQueryError::DoesNotFit {
                role,
                point,
                size,
                clearance: c,
            });
        }
    }
    Ok(size as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Movement};

    #[test]
    fn is_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<SizedHierarchy>();
        check::<Clearance>();
    }

    #[test]
    fn the_largest_sizes_build_and_answer() {
        // Sizes up to the clearance cap, on a map larger than the cap.
        let h = SizedBuilder::new()
            .max_size(255)
            .build(Grid::new(300, 300).unwrap())
            .unwrap();
        assert_eq!(h.stats().per_size.len(), 255);
        let mut cache = SizedQueryCache::new();
        let (s, t) = (Point::new(0, 0), Point::new(40, 45));
        for size in [1, 17, 200, 255] {
            let path = h.find_path(&mut cache, s, t, size).unwrap().path.unwrap();
            crate::validate_sized_path(&path, h.grid(), h.movement(), size).unwrap();
        }
        assert!(matches!(
            h.find_path(&mut cache, s, Point::new(50, 50), 255),
            Err(SizedQueryError::DoesNotFit { role: "goal", .. })
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
        let h = SizedHierarchy::build(grid.clone(), 2).unwrap();
        let mut cache = SizedQueryCache::new();
        let p = Point::new;
        let q = |s, g, k| {
            h.find_path(&mut SizedQueryCache::new(), s, g, k)
                .unwrap_err()
        };
        assert_eq!(q(p(0, 0), p(1, 1), 0), SizedQueryError::ZeroSize);
        assert_eq!(
            q(p(0, 0), p(1, 1), 3),
            SizedQueryError::SizeAboveMax { size: 3, max: 2 }
        );
        assert!(matches!(
            q(p(6, 0), p(1, 1), 1),
            SizedQueryError::OffMap { role: "start", .. }
        ));
        assert!(matches!(
            q(p(0, 0), p(4, 2), 1),
            SizedQueryError::DoesNotFit {
                role: "goal",
                clearance: 0,
                ..
            }
        ));
        assert!(matches!(
            q(p(3, 1), p(0, 0), 2),
            SizedQueryError::DoesNotFit {
                role: "start",
                clearance: 1,
                ..
            }
        ));
        assert!(matches!(
            q(p(0, 0), p(5, 0), 2),
            SizedQueryError::DoesNotFit { role: "goal", .. }
        ));
        assert!(h.reachable(p(0, 0), p(0, 0), 0).is_err());
        let ok = h.find_path(&mut cache, p(0, 0), p(4, 0), 2).unwrap();
        assert!(ok.path.is_some());
        for bad in [
            SizedBuilder::new().max_size(0).build(grid.clone()),
            SizedBuilder::new().max_size(256).build(grid.clone()),
            SizedBuilder::new().cluster_size(1).build(grid.clone()),
            SizedBuilder::new()
                .movement(Movement {
                    straight: 0,
                    ..Movement::default()
                })
                .build(grid.clone()),
        ] {
            assert!(bad.is_err());
        }
        let c = Clearance::new(grid);
        let flat = SizedAStar::new(&c);
        let mut sc = SearchCache::new();
        assert_eq!(
            flat.find_path(&mut sc, p(0, 0), p(1, 1), 256).unwrap_err(),
            SizedQueryError::SizeAboveMax {
                size: 256,
                max: 255
            }
        );
        assert_eq!(
            flat.find_path(&mut sc, p(0, 0), p(1, 1), 0).unwrap_err(),
            SizedQueryError::ZeroSize
        );
    }
}
