//! Landmark distances for every cell: a sharper estimate for jump point
//! search on maps whose ways wind (the ALT bound of Goldberg and Harrelson,
//! over cells).
//!
//! For a landmark `L`, the triangle inequality gives `d(n, t) >= |d(L, t) -
//! d(L, n)|` on any map; the largest such bound over the landmarks and the
//! octile distance is admissible and consistent (each term changes by at most
//! one move's cost along a move), so the search stays exact and its expanded
//! nodes final. Where the octile distance ignores a wall between the ends,
//! the landmarks see the way round it: on Dragon Age's long queries (7,800,
//! two landmarks) jump point search expands a median of 23 jump points
//! instead of 59, and takes about half the time.
//!
//! Distances are stored per padded cell, the landmarks of one cell side by
//! side (one cache line read per estimate), in units of [`Weight::ONE`]
//! (every cost on a map of uniform cost is a multiple of it).
//!
//! Closing cells keeps the distances admissible and consistent (the true
//! distances can only grow); opening one does not, so a repair that opens
//! cells drops them ([`Hierarchy`](crate::Hierarchy) does).

use crate::engine::SearchCache;
use crate::grid::{Cost, Grid, Movement, Point, Weight};
use crate::search::Dijkstra;

/// A cell the landmarks' searches did not reach (another island).
pub(crate) const UNREACHED: u32 = u32::MAX;

/// Landmarks a guide may hold.
pub(crate) const MAX_GUIDE_LANDMARKS: usize = 4;

/// Every cell's distance from a few landmarks, chosen farthest first.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Guide {
    /// Landmarks.
    count: usize,
    /// `dist[n * count + i]`: padded cell `n`'s distance from landmark `i`,
    /// in units of [`Weight::ONE`], or [`UNREACHED`].
    dist: Vec<u32>,
}

impl Guide {
    /// `count` landmarks (1 to [`MAX_GUIDE_LANDMARKS`]) on `grid`, an
    /// unweighted map, under `movement`: the first the cell farthest from
    /// the passable cell nearest the map's centre, each next the cell
    /// farthest from those chosen. `None` for a map with no passable cell,
    /// a weighted one, or distances beyond 32 bits.
    pub(crate) fn new(grid: &Grid, movement: Movement, count: usize) -> Option<Guide> {
        let count = count.clamp(1, MAX_GUIDE_LANDMARKS);
        if grid.is_weighted() {
            return None;
        }
        let (w, h) = (grid.width(), grid.height());
        let centre = Point::new(w / 2, h / 2);
        let seed = (0..h)
            .flat_map(|y| (0..w).map(move |x| Point::new(x, y)))
            .filter(|p| grid.is_passable(*p))
            .min_by_key(|p| p.x.abs_diff(centre.x) + p.y.abs_diff(centre.y))?;
        let dijkstra = Dijkstra::new(grid).movement(movement);
        let mut cache = SearchCache::default();
        // A distance in the guide's units; `None` beyond 32 bits.
        let units = |c: Option<Cost>| match c {
            None => Some(UNREACHED),
            Some(c) => u32::try_from(c.0 / Weight::ONE.0 as u64)
                .ok()
                .filter(|d| *d != UNREACHED),
        };
        let cell = |k: usize| Point::new(k as u32 % w, k as u32 / w);
        let farthest = |nearest: &[u32]| -> Point {
            let i = (0..nearest.len())
                .filter(|i| nearest[*i] != UNREACHED)
                .max_by_key(|i| nearest[*i])
                .unwrap_or(0);
            cell(i)
        };
        // Each map cell's (row-major) least distance from the landmarks
        // chosen so far; before the first, from the seed.
        let from_seed = dijkstra.distance_field(&mut cache, seed).ok()?;
        let mut nearest = (0..(w * h) as usize)
            .map(|k| units(from_seed.get(cell(k))))
            .collect::<Option<Vec<u32>>>()?;
        drop(from_seed);
        let pw = grid.padded_width();
        let mut dist = vec![UNREACHED; (pw * (h + 2)) as usize * count];
        for i in 0..count {
            let field = dijkstra
                .distance_field(&mut cache, farthest(&nearest))
                .ok()?;
            for (k, near) in nearest.iter_mut().enumerate() {
                let p = cell(k);
                let d = units(field.get(p))?;
                dist[((p.y + 1) * pw + p.x + 1) as usize * count + i] = d;
                if i == 0 || d < *near {
                    *near = d;
                }
            }
        }
        Some(Guide { count, dist })
    }

    /// Landmarks held.
    pub(crate) fn count(&self) -> usize {
        self.count
    }

    /// The distances of padded cell `n` from the landmarks.
    #[inline(always)]
    pub(crate) fn of(&self, n: u32) -> &[u32] {
        let at = n as usize * self.count;
        &self.dist[at..at + self.count]
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.dist.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landmarks_are_far_apart_and_their_distances_exact() {
        // A wall with a gap at the bottom: the landmarks fall at the far
        // corners, and distances go round the wall.
        let grid = Grid::from_fn(20, 10, |p| p.x != 10 || p.y == 9).unwrap();
        let g = Guide::new(&grid, Movement::default(), 2).unwrap();
        assert_eq!(g.count(), 2);
        let pw = grid.padded_width();
        let node = |p: Point| (p.y + 1) * pw + p.x + 1;
        let mut cache = SearchCache::default();
        let dijkstra = Dijkstra::new(&grid);
        let zero: Vec<Point> = (0..10)
            .flat_map(|y| (0..20).map(move |x| Point::new(x, y)))
            .filter(|p| grid.is_passable(*p))
            .filter(|p| g.of(node(*p)).contains(&0))
            .collect();
        assert_eq!(zero.len(), 2, "{zero:?}");
        for (i, l) in zero.iter().enumerate() {
            let f = dijkstra.distance_field(&mut cache, *l).unwrap();
            let i = g.of(node(*l)).iter().position(|d| *d == 0).unwrap_or(i);
            for y in 0..10 {
                for x in 0..20 {
                    let p = Point::new(x, y);
                    let want = f.get(p).map_or(UNREACHED, |c| (c.0 / 100) as u32);
                    assert_eq!(g.of(node(p))[i], want, "{p:?}");
                }
            }
        }
        // The two landmarks lie on opposite sides of the wall.
        assert!((zero[0].x < 10) != (zero[1].x < 10), "{zero:?}");
        assert!(
            Guide::new(
                &Grid::from_fn(4, 4, |_| false).unwrap(),
                Movement::default(),
                2
            )
            .is_none()
        );
    }

    #[test]
    fn the_landmarks_cut_the_jump_points_of_a_winding_way_and_keep_its_cost() {
        // A field of pillars (a jump point beside each) cut by a wall with
        // one gap, far from the straight line between the ends.
        let grid = Grid::from_fn(81, 60, |p| {
            !(p.x % 4 == 2 && p.y % 4 == 2) && (p.x != 40 || p.y == 59)
        })
        .unwrap();
        let m = Movement::default();
        let lines = super::super::JumpLines::new(&grid, m).unwrap();
        let guide = Guide::new(&grid, m, 2).unwrap();
        let mut cache = super::super::JpsCache::new();
        let (s, t) = (Point::new(30, 5), Point::new(50, 5));
        let plain = lines
            .search_within(&mut cache, s, t, u64::MAX, None)
            .into_path()
            .unwrap();
        let plain_expanded = cache.stats().expanded;
        let guided = lines
            .search_within(&mut cache, s, t, u64::MAX, Some(&guide))
            .into_path()
            .unwrap();
        let guided_expanded = cache.stats().expanded;
        assert_eq!(guided.cost, plain.cost);
        assert!(
            guided_expanded * 2 < plain_expanded,
            "{guided_expanded} of {plain_expanded}"
        );
        // Paused and resumed with the guide, the same search.
        let mut paused = lines.search_within(&mut cache, s, t, 3, Some(&guide));
        while paused == super::super::Jumped::Paused {
            let limit = cache.stats().expanded + 3;
            paused = lines.resume_within(&mut cache, t, limit, Some(&guide));
        }
        assert_eq!(paused.into_path().unwrap().cost, plain.cost);
        assert_eq!(cache.stats().expanded, guided_expanded);
    }
}
