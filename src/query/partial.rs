//! Query options, and partial paths for two-tier queries: when the goal is on
//! another island, the path to a cell of the start's island closest to it.

use super::{Method, NEAREST_LOCAL_EXPANSIONS, QueryCache, QueryOutcome, QueryStats};
use crate::grid::Point;
use crate::hierarchy::Hierarchy;
use crate::search::QueryError;
use crate::{NearestMethod, Path};

/// Options of a query: [`Hierarchy::find_path_with`], [`Hierarchy::plan_with`],
/// [`Hierarchy::nearest_with`], [`SlicedQuery::start_with`](crate::SlicedQuery::start_with)
/// and [`PathQueue::push_with`](crate::PathQueue::push_with).
///
/// ```
/// use tierpath::QueryOptions;
/// let options = QueryOptions::new().partial(true).unit_size(2);
/// assert!(options.is_partial());
/// assert_eq!(options.size(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QueryOptions {
    partial: bool,
    unit_size: u32,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            partial: false,
            unit_size: 1,
        }
    }
}

impl QueryOptions {
    /// The defaults: exactly [`Hierarchy::find_path`] (a unit of one cell, no
    /// partial paths).
    pub fn new() -> Self {
        Self::default()
    }

    /// The unit's size: a square of `size x size` cells named by its
    /// top-left cell (see [`Hierarchy`](crate::Hierarchy#unit-sizes)); 1 by
    /// default. Sizes above 1 need a hierarchy built for them
    /// ([`HierarchyBuilder::max_unit_size`](crate::HierarchyBuilder::max_unit_size));
    /// otherwise the query is an error ([`QueryError::SizeAboveMax`]).
    pub fn unit_size(mut self, size: u32) -> Self {
        self.unit_size = size;
        self
    }

    /// The unit's size.
    pub fn size(&self) -> u32 {
        self.unit_size
    }

    /// When the goal is unreachable, return a partial path instead of none:
    /// see [`Hierarchy::find_path_with`]. Off by default.
    pub fn partial(mut self, on: bool) -> Self {
        self.partial = on;
        self
    }

    /// Whether partial paths are on.
    pub fn is_partial(&self) -> bool {
        self.partial
    }
}

impl Hierarchy {
    /// [`Hierarchy::find_path`] with options. With
    /// [`QueryOptions::partial`], an unreachable goal (on another island)
    /// gives a partial path, flagged [`QueryOutcome::partial`], to the
    /// reachable cell closest to the goal: among the cells of the start's
    /// island (every one of them reachable), those at the least
    /// [`Movement::distance`](crate::Movement::distance) from the goal (octile
    /// when 8-connected, Manhattan when 4-connected), and among those the
    /// nearest to the start by path cost, chosen exactly by
    /// [`Hierarchy::nearest`] (whose guarantee the path shares: optimal, or
    /// the hierarchy's path when its method is hierarchical). A reachable goal
    /// is answered exactly as `find_path` answers it.
    ///
    /// ```
    /// use tierpath::{Grid, Hierarchy, Point, QueryCache, QueryOptions};
    /// // A sealed wall: the right side cannot be reached from the left.
    /// let h = Hierarchy::build(Grid::from_fn(100, 60, |p| p.x != 50).unwrap())?;
    /// let mut cache = QueryCache::new();
    /// let options = QueryOptions::new().partial(true);
    /// let out = h.find_path_with(&mut cache, Point::new(3, 30), Point::new(80, 12), &options)?;
    /// assert!(out.partial);
    /// assert_eq!(out.path.unwrap().goal(), Some(Point::new(49, 12)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Performance
    /// The closest cells are found by scanning square rings around the goal
    /// (island labels, no search) until no closer cell can remain: time grows
    /// with the square of the goal's distance to the start's island, not with
    /// the map. Then one nearest-of-many query picks among them.
    pub fn find_path_with(
        &self,
        cache: &mut QueryCache,
        start: Point,
        goal: Point,
        options: &QueryOptions,
    ) -> Result<QueryOutcome, QueryError> {
        let size = self.check_unit(start, goal, options.unit_size)?;
        if !options.partial || self.connected_for(start, goal, size) {
            return self.find_path_for(cache, start, goal, size);
        }
        let closest = self.closest_cells(start, goal, size);
        let out = self.nearest_for(cache, start, &closest, NEAREST_LOCAL_EXPANSIONS, size)?;
        let method = match out.stats.method {
            NearestMethod::Local => Method::Near,
            NearestMethod::Hierarchical => Method::Hierarchical,
            NearestMethod::Exact => Method::Fallback,
            NearestMethod::Unreachable => Method::Unreachable,
        };
        let path: Option<Path> = out.nearest.map(|n| n.path);
        Ok(QueryOutcome {
            partial: path.is_some(),
            path,
            stats: QueryStats {
                method,
                abstract_expanded: out.stats.abstract_expanded,
                fine_expanded: out.stats.fine_expanded,
                abstract_edges: 0,
                phases: None,
            },
        })
    }

    /// The cells a unit of `size` can reach from `start` (its island, for
    /// size 1) at the least open-ground distance from `goal`, in row-major
    /// order: rings of growing Chebyshev radius around the goal, until a
    /// ring's least possible distance exceeds the best found.
    pub(crate) fn closest_cells(&self, start: Point, goal: Point, size: u8) -> Vec<Point> {
        let movement = &self.settings().movement;
        let (w, h) = (self.grid().width() as i64, self.grid().height() as i64);
        let (gx, gy) = (goal.x as i64, goal.y as i64);
        let mut best = (u64::MAX, Vec::new());
        let consider = |best: &mut (u64, Vec<Point>), x: i64, y: i64| {
            if x < 0 || y < 0 || x >= w || y >= h {
                return;
            }
            let p = Point::new(x as u32, y as u32);
            if !self.reaches(start, p, size) {
                return;
            }
            let d = movement
                .distance(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y))
                .0;
            if d < best.0 {
                *best = (d, Vec::new());
            }
            if d == best.0 {
                best.1.push(p);
            }
        };
        for r in 0..=w.max(h) {
            // Every cell of ring r is at least r straight steps away.
            if movement.distance(r as u32, 0).0 > best.0 {
                break;
            }
            if r == 0 {
                consider(&mut best, gx, gy);
                continue;
            }
            for x in gx - r..=gx + r {
                consider(&mut best, x, gy - r);
                consider(&mut best, x, gy + r);
            }
            for y in gy - r + 1..gy + r {
                consider(&mut best, gx - r, y);
                consider(&mut best, gx + r, y);
            }
        }
        let mut found = best.1;
        found.sort_by_key(|p| (p.y, p.x));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Movement};

    #[test]
    fn closest_cells_are_found_by_rings() {
        let grid = Grid::from_ascii(
            "
            ....@......
            ....@......
            ....@......
            @@@@@......",
        )
        .unwrap();
        for m in [Movement::default(), Movement::FOUR] {
            let h = Hierarchy::builder()
                .movement(m)
                .build(grid.clone())
                .unwrap();
            let cells = h.closest_cells(Point::new(0, 0), Point::new(8, 3), 1);
            assert_eq!(cells, vec![Point::new(3, 2)], "{m:?}");
            // Straight across the wall.
            let cells = h.closest_cells(Point::new(0, 0), Point::new(6, 1), 1);
            assert_eq!(cells, vec![Point::new(3, 1)], "{m:?}");
        }
        let h = Hierarchy::build(grid).unwrap();
        let cells = h.closest_cells(Point::new(7, 0), Point::new(0, 2), 1);
        assert_eq!(cells, vec![Point::new(5, 2)]);
        // Equally close cells all count, in row-major order: a ring of cells
        // around a lone cell.
        let ring = Grid::from_fn(9, 9, |p| {
            p.x == 0 || p.x == 8 || p.y == 0 || p.y == 8 || (p.x == 4 && p.y == 4)
        })
        .unwrap();
        let h = Hierarchy::build(ring).unwrap();
        let p = Point::new;
        assert_eq!(
            h.closest_cells(p(0, 0), p(4, 4), 1),
            vec![p(4, 0), p(0, 4), p(8, 4), p(4, 8)]
        );
    }

    #[test]
    fn partial_answers_and_errors() {
        let h = Hierarchy::build(Grid::from_fn(40, 20, |p| p.x != 20).unwrap()).unwrap();
        let mut cache = QueryCache::new();
        let on = QueryOptions::new().partial(true);
        let (s, t) = (Point::new(2, 2), Point::new(30, 17));
        let out = h.find_path_with(&mut cache, s, t, &on).unwrap();
        assert!(out.partial);
        let path = out.path.unwrap();
        assert_eq!(path.goal(), Some(Point::new(19, 17)));
        path.validate(h.grid(), h.movement()).unwrap();
        let off = h
            .find_path_with(&mut cache, s, t, &QueryOptions::new())
            .unwrap();
        assert!(off.path.is_none() && !off.partial);
        let reachable = h
            .find_path_with(&mut cache, s, Point::new(10, 10), &on)
            .unwrap();
        assert!(!reachable.partial);
        assert_eq!(
            reachable,
            h.find_path(&mut cache, s, Point::new(10, 10)).unwrap()
        );
        assert!(matches!(
            h.find_path_with(&mut cache, s, Point::new(20, 3), &on),
            Err(QueryError::Blocked { role: "goal", .. })
        ));
    }
}
