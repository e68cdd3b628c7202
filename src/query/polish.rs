//! Polishing: a smoothed path's windows searched again exactly, where
//! straight routes do not get through.
//!
//! Smoothing (`engine::smooth`) replaces detours by straight routes. Among
//! scattered obstacles those are nearly always blocked, so a path keeps the
//! bends it took where it crossed cluster borders at their transitions. A
//! polished plan takes the smoothed path [`WINDOW`] cells at a time: an
//! exact A* from the window's first cell to its last, bounded to the
//! window's cells' bounding box grown by [`MARGIN`], replaces the stretch
//! when it is cheaper; the first half of the window is then final and the
//! next window starts at its middle, so every border crossing lies inside
//! some window away from its ends. Like smoothing, each decision depends
//! only on the cells of its window, so a plan polished piece by piece gives
//! the path polished whole.
//!
//! Measured on the Moving AI random maps (the 10 highest buckets, 50
//! queries per map, 700 queries; an untracked probe, 27 Nov 2026), mean /
//! p95 suboptimality: smoothed only 0.864% / 1.84%; polished with windows
//! of 32 cells 0.38%, 64 cells 0.251% / 0.86%, **96 cells 0.190% / 0.72%**
//! (about 14,000 cells expanded per query), 128 cells (two passes) 0.151% /
//! 0.70%. The margin matters little (96 cells: 0.188% with 2, the same with
//! 0). On the other sets polishing would help little (dao 0.199% -> 0.050%,
//! sc1 0.127% -> 0.058%, mazes 0.197% -> 0.011%) at many times their query
//! time (mazes: 41,000 cells expanded per query), so [`Polish::Auto`] turns
//! it on for maps of scattered obstacles only
//! (`preprocess::scatter`).

use crate::grid::{FastDiv, Grid, Point, Weight};
use crate::hierarchy::Hierarchy;
use crate::search::{Rect, SearchCache};

/// Cells of the smoothed path searched again at a time.
pub(crate) const WINDOW: usize = 96;

/// Cells the search may stray beyond the window's bounding box.
pub(crate) const MARGIN: u32 = 2;

/// Whether queries polish their paths (see the module docs of
/// `query::polish`: an exact search over each window of 96 cells of the
/// smoothed path, kept where cheaper). A [`BuildSettings`] field, saved
/// with the hierarchy: a built hierarchy's settings hold `Always` or
/// `Never`, `Auto` being decided by the build from its map.
///
/// [`BuildSettings`]: crate::BuildSettings
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Polish {
    /// Polish where the map's obstacles are scattered: at least a tenth of
    /// its blocked cells lie in clumps of eight cells or fewer (random
    /// obstacle fields; none of the benchmarks' game maps, mazes or rooms).
    /// There straight routes seldom get through and polishing brings paths
    /// from about 0.9% to 0.2% above optimal on average; elsewhere smoothing
    /// alone is within a few tenths of a percent, and polishing would
    /// multiply the query time.
    #[default]
    Auto,
    /// Always polish: the closest paths, at the most time.
    Always,
    /// Never polish: smoothing alone.
    Never,
}

impl Polish {
    /// `Auto` decided for `grid` (see [`Polish::Auto`]); the others as they are.
    pub(crate) fn resolve(self, grid: &Grid) -> Polish {
        match self {
            Polish::Auto => {
                let share = crate::preprocess::scatter::small_clump_share(grid);
                if share >= crate::preprocess::scatter::SCATTERED {
                    Polish::Always
                } else {
                    Polish::Never
                }
            }
            other => other,
        }
    }
}

/// Searches the window `cells[..=j]` of a smoothed path again: an exact A*
/// from `cells[0]` to `cells[j]` for a unit of `size`, inside the cells'
/// bounding box grown by [`MARGIN`]; when its path is cheaper it replaces
/// `cells[1..j]`. Returns the cost saved and the cells expanded. A window
/// already at the straight-line bound is not searched.
pub(super) fn polish_window(
    h: &Hierarchy,
    cache: &mut SearchCache,
    size: u8,
    cells: &mut Vec<Point>,
    j: usize,
) -> (u64, u64) {
    let grid = h.grid();
    let movement = &h.settings().movement;
    let (a, b) = (cells[0], cells[j]);
    let old: u64 = cells[..=j]
        .windows(2)
        .map(|w| grid.step_cost(movement, w[0], w[1]))
        .sum();
    let bound = movement.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)).0 / Weight::ONE.0 as u64
        * h.min_weight().0 as u64;
    if old <= bound {
        return (0, 0);
    }
    let (mut x0, mut y0, mut x1, mut y1) = (a.x, a.y, a.x, a.y);
    for c in &cells[1..=j] {
        (x0, y0) = (x0.min(c.x), y0.min(c.y));
        (x1, y1) = (x1.max(c.x), y1.max(c.y));
    }
    let area = Rect {
        padded_width: FastDiv::new(grid.padded_width()),
        x0: x0.saturating_sub(MARGIN) + 1,
        y0: y0.saturating_sub(MARGIN) + 1,
        x1: (x1 + MARGIN).min(grid.width() - 1) + 1,
        y1: (y1 + MARGIN).min(grid.height() - 1) + 1,
    };
    let found = h.bounded_astar(cache, size, a, b, area);
    let expanded = cache.stats().expanded;
    let Some(path) = found else {
        // The window itself lies inside: unreachable only if the smoothed
        // path were illegal, which smoothing never makes it.
        debug_assert!(false, "a window's own cells join its ends");
        return (0, expanded);
    };
    let new: u64 = path
        .cells
        .windows(2)
        .map(|w| grid.step_cost(movement, w[0], w[1]))
        .sum();
    if new >= old {
        return (0, expanded);
    }
    cells.splice(1..j, path.cells[1..path.cells.len() - 1].iter().copied());
    (old - new, expanded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AStar, HierarchyBuilder, QueryCache};

    /// A map of scattered single obstacles (`percent` of the cells).
    fn scattered(seed: u64, side: u32, percent: u64) -> Grid {
        let mut x = seed;
        Grid::from_fn(side, side, |_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % 100 >= percent
        })
        .unwrap()
    }

    #[test]
    fn polished_paths_are_legal_never_dearer_and_alike_piece_by_piece() {
        let grid = scattered(11, 120, 22);
        let polished = HierarchyBuilder::new().build(grid.clone()).unwrap();
        assert_eq!(polished.settings().polish, Polish::Always, "Auto decides");
        let plain = HierarchyBuilder::new()
            .polish(Polish::Never)
            .build(grid.clone())
            .unwrap();
        let movement = *polished.movement();
        let astar = AStar::new(&grid);
        let mut cache = QueryCache::new();
        let mut search = Default::default();
        let (mut cheaper, mut pairs) = (0, 0);
        for i in 0..60u32 {
            let a = Point::new((i * 37) % 20, (i * 53) % 120);
            let b = Point::new(100 + (i * 29) % 20, (i * 71) % 120);
            if !grid.is_passable(a) || !grid.is_passable(b) {
                continue;
            }
            let exact = astar.find_path(&mut search, a, b).unwrap().path;
            let smoothed = plain.find_path(&mut cache, a, b).unwrap().path;
            let out = polished.find_path(&mut cache, a, b).unwrap();
            let (Some(exact), Some(smoothed), Some(path)) = (exact, smoothed, out.path) else {
                continue;
            };
            pairs += 1;
            path.validate(&grid, &movement).unwrap();
            assert!(path.cost >= exact.cost, "below optimal {a:?} -> {b:?}");
            assert!(path.cost <= smoothed.cost, "dearer {a:?} -> {b:?}");
            cheaper += (path.cost < smoothed.cost) as u32;
            // Piece by piece: the same cells and cost.
            let mut plan = polished.plan(&mut cache, a, b).unwrap().unwrap();
            let mut cells = Vec::new();
            while let Some(piece) = plan.next_segment(&polished, &mut cache) {
                cells.extend_from_slice(piece);
            }
            assert_eq!(cells, path.cells, "{a:?} -> {b:?}");
            assert_eq!(plan.cost(), path.cost);
        }
        assert!(pairs >= 30, "{pairs} pairs");
        // Mutation check: a polish that never replaces leaves this at 0.
        assert!(cheaper * 3 >= pairs, "{cheaper} of {pairs} cheaper");
    }

    #[test]
    fn walls_and_rooms_are_not_polished_by_default() {
        let rooms = Grid::from_fn(120, 120, |p| {
            (p.x % 30 != 0 || p.y % 30 == 15) && (p.y % 30 != 0 || p.x % 30 == 15)
        })
        .unwrap();
        let h = HierarchyBuilder::new().build(rooms.clone()).unwrap();
        assert_eq!(h.settings().polish, Polish::Never);
        let h = HierarchyBuilder::new()
            .polish(Polish::Always)
            .build(rooms)
            .unwrap();
        assert_eq!(h.settings().polish, Polish::Always);
    }
}
