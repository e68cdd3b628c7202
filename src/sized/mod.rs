//! Units larger than one cell: clearance, exact flat search for any size,
//! and one hierarchy that serves every size.
//!
//! A unit of size `k` is a `k x k` square named by its top-left cell. The
//! [`Clearance`](crate::Clearance) of a cell is the largest square that fits with its corner
//! there, so the unit fits exactly where clearance `>= k`, and it moves as a
//! single cell would on that grid (the [movement
//! rule](SizedHierarchy#the-movement-rule), checked cell by cell by
//! [`sized_path_cost`](crate::sized_path_cost)).
//!
//! * [`AStar::for_unit`](crate::AStar::for_unit): exact A* for any size on the implicit grid "clearance
//!   `>= k`", the baseline and the oracle.
//! * [`SizedHierarchy`]: built once with a largest size; its components
//!   answer "unreachable for this size" at once, and one cluster graph with
//!   edges annotated by the largest size they admit (HAA*) answers
//!   two-tier queries for every size, refined and smoothed on the size's
//!   grid.
//!
//! ```
//! use tierpath::{AStar, Clearance, Grid, Point, SizedHierarchy, SizedQueryCache, SearchCache};
//! let grid = Grid::from_fn(80, 60, |p| !(p.x == 40 && p.y > 3)).unwrap(); // a wall, gap at the top
//! let h = SizedHierarchy::build(grid, 3)?;
//! let mut cache = SizedQueryCache::new();
//! let (s, t) = (Point::new(10, 50), Point::new(70, 50));
//! let out = h.find_path(&mut cache, s, t, 3)?;        // a 3x3 unit, over the wall's top
//! let path = out.path.expect("the 4-row gap fits a 3x3 unit");
//! assert!(path.cells.iter().all(|p| h.clearance().fits(*p, 3)));
//! // The exact flat search for the same size: never more expensive.
//! let exact = AStar::for_unit(h.clearance(), 3).find_path(&mut SearchCache::new(), s, t)?;
//! assert!(exact.path.unwrap().cost <= path.cost);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod components;
mod hierarchy;
mod landmarks;
mod query;

pub use build::SizeTransitions;
pub use hierarchy::{
    DEFAULT_MAX_SIZE, DEFAULT_SIZED_LANDMARKS, SizeClassStats, SizedBuilder, SizedHierarchy,
    SizedSettings, SizedStats,
};
pub use query::SizedQueryCache;

use thiserror::Error;

#[cfg(test)]
use crate::grid::Clearance;
use crate::grid::GridError;
#[cfg(test)]
use crate::{AStar, Point, QueryError, SearchCache};

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
        let h = SizedHierarchy::build(grid.clone(), 2).unwrap();
        let mut cache = SizedQueryCache::new();
        let p = Point::new;
        let q = |s, g, k| {
            h.find_path(&mut SizedQueryCache::new(), s, g, k)
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
            QueryError::DoesNotFit {
                role: "goal",
                clearance: 0,
                ..
            }
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
}
