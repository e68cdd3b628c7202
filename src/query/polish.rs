//! Polishing: a smoothed path's windows searched again exactly, where
//! straight routes do not get through.
//!
//! Smoothing (`engine::smooth`) replaces detours by straight routes. Among
//! scattered obstacles those are nearly always blocked, so a path keeps the
//! bends it took where it crossed cluster borders at their transitions. A
//! polished plan takes the smoothed path [`window`] cells at a time (128
//! with the default clusters of 16, fewer with larger clusters): an
//! exact A* from the window's first cell to its last, bounded to the
//! window's cells' bounding box grown by [`MARGIN`], replaces the stretch
//! when it is cheaper; the first half of the window is then final and the
//! next window starts at its middle, so every border crossing lies inside
//! some window away from its ends. Like smoothing, each decision depends
//! only on the cells of its window, so a plan polished piece by piece gives
//! the path polished whole.
//!
//! Measured on the Moving AI random maps (the 10 highest buckets, 50
//! queries per map, 700 queries, `tierpath bench`; the two maps with 40% of
//! their cells blocked are not polished by `Auto` and count unpolished),
//! mean / p95 suboptimality and cells expanded per query: smoothed only
//! 0.854% / 1.81% (about 300 expanded); windows of 80 cells (a new window
//! every 40) 0.245% / 0.82%; 96 (every 48) 0.213% / 0.72% at 13,400; 96
//! (every 64) 0.231%; **128 (every 64) 0.175% / 0.71% at 16,900**; 160
//! (every 80) 0.144% / 0.62% at 20,300. A cap on each window's search
//! loses most of the gain (2,000 cells: 0.487%), as the windows that
//! improve are the ones whose searches are large. The time goes into those
//! searches (three quarters of a polished query's instructions under
//! callgrind on random512-20-0): random maps' queries take about ten times
//! as long as smoothed only with clusters of 16, about six times with the
//! clusters of 32 a builder picks there (see [`window`]), still faster than
//! exact jump point search. On the other sets polishing would help little (an earlier probe
//! with 96-cell windows: dao 0.199% -> 0.050%, sc1 0.127% -> 0.058%, mazes
//! 0.197% -> 0.011%) at many times their query time (mazes: 41,000 cells
//! expanded per query), so [`Polish::Auto`] turns it on for maps of
//! scattered obstacles only
//! (`preprocess::scatter`).

use crate::grid::{FastDiv, Grid, Point, Weight};
use crate::hierarchy::Hierarchy;
use crate::search::{Rect, SearchCache};

/// Cells of the smoothed path searched again at a time with clusters of
/// 16 cells (the default): see [`window`].
pub(crate) const WINDOW: usize = 128;

/// Cells of the smoothed path searched again at a time on a hierarchy of
/// clusters `cluster_size` cells wide: [`WINDOW`] at 16, shorter for larger
/// clusters (`2048 / cluster_size`, 32 to [`WINDOW`]). Larger clusters
/// leave fewer bends at borders to polish: on the random maps, clusters of
/// 32 with 64-cell windows give 0.140% above optimal at 10,100 cells
/// expanded per query, 48-cell windows 0.169% at 8,200, against 0.175% at
/// 16,900 for clusters of 16 with 128-cell windows (and 24 with 96-cell
/// windows, 0.138% at 13,200).
pub(crate) fn window(cluster_size: u32) -> usize {
    (2048 / cluster_size.max(1) as usize).clamp(32, WINDOW)
}

/// Cells the search may stray beyond the window's bounding box.
pub(crate) const MARGIN: u32 = 2;

/// Whether queries polish their paths (see the module docs of
/// `query::polish`: an exact search over each window of 128 cells of the
/// smoothed path with clusters of 16, fewer with larger clusters, kept
/// where cheaper). A [`BuildSettings`] field, saved
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
    /// from about 0.85% to 0.17% above optimal on average, at about ten
    /// times the query time with the default clusters of 16; clusters of
    /// 32 (`HierarchyBuilder::cluster_size(32)`) need shorter windows and
    /// take about half that (on the random maps, contracted: 3.4x exact
    /// JPS's speed by median against 1.8x, 0.15% above optimal). Elsewhere
    /// smoothing alone is within a few tenths of a percent, and polishing
    /// would multiply the query time.
    #[default]
    Auto,
    /// Always polish: the closest paths, at the most time.
    Always,
    /// Never polish: smoothing alone.
    Never,
}

impl Polish {
    /// Whether `grid`'s obstacles are scattered (see [`Polish::Auto`]).
    pub(crate) fn scattered(grid: &Grid) -> bool {
        crate::preprocess::scatter::small_clump_share(grid) >= crate::preprocess::scatter::SCATTERED
    }

    /// `Auto` decided for a map whose obstacles are `scattered` or not; the
    /// others as they are.
    pub(crate) fn resolve_for(self, scattered: bool) -> Polish {
        match self {
            Polish::Auto if scattered => Polish::Always,
            Polish::Auto => Polish::Never,
            other => other,
        }
    }
}

/// Where a window lies in a smoothed path's cells from its anchor
/// (`cells[0]`), as [`next_window`] found it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    /// The window's last index.
    j: usize,
    /// Whether the window reaches the path's end.
    to_end: bool,
    /// How many cells there were from the anchor.
    len: usize,
    /// The window length in force ([`window`]).
    window: usize,
}

impl Span {
    /// The next window's anchor, once the window is done and the cells from
    /// this anchor are `len` long: half a window on (the first half is
    /// final), or the window's end when it reached the path's end.
    pub(crate) fn next_anchor(&self, len: usize) -> usize {
        let end = self.j + len - self.len;
        if self.to_end {
            end
        } else {
            end.min(self.window / 2)
        }
    }
}

/// The search a window needs: from `a` to `b`, inside `area`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub(crate) a: Point,
    pub(crate) b: Point,
    pub(crate) area: Rect,
    pub(crate) span: Span,
    /// The cost of the window's stretch as it is.
    old: u64,
}

/// The next window of `cells` (a smoothed path from its anchor,
/// `cells[0]`) on a hierarchy `h`, when a whole one is there or `done`
/// says the path ends with `cells`. `None` when no window is due.
pub(crate) fn next_window(h: &Hierarchy, cells: &[Point], done: bool) -> Option<Span> {
    let window = window(h.settings().cluster_size);
    let rest = cells.len().checked_sub(1)?;
    (rest >= window || (done && rest > 0)).then(|| {
        let j = rest.min(window);
        Span {
            j,
            to_end: j == rest,
            len: cells.len(),
            window,
        }
    })
}

/// The cost of the moves along `cells`.
pub(crate) fn stretch_cost(h: &Hierarchy, cells: &[Point]) -> u64 {
    let movement = &h.settings().movement;
    cells
        .windows(2)
        .map(|m| h.grid().step_cost(movement, m[0], m[1]))
        .sum()
}

/// The search for the window `span` of `cells`: `None` when its stretch
/// costs the straight-line bound already (nothing can be cheaper).
pub(crate) fn window_search(h: &Hierarchy, cells: &[Point], span: Span) -> Option<Window> {
    let grid = h.grid();
    let (a, b) = (cells[0], cells[span.j]);
    let old = stretch_cost(h, &cells[..=span.j]);
    let bound = h
        .settings()
        .movement
        .distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y))
        .0
        / Weight::ONE.0 as u64
        * h.min_weight().0 as u64;
    if old <= bound {
        return None;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (a.x, a.y, a.x, a.y);
    for c in &cells[1..=span.j] {
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
    Some(Window {
        a,
        b,
        area,
        span,
        old,
    })
}

/// Replaces the window's stretch of `cells` (the window anchored at
/// `cells[at]`) by `found` (the exact search's path, `None` when it found
/// none) when that is cheaper. Returns the cost saved.
pub(crate) fn apply(
    h: &Hierarchy,
    cells: &mut Vec<Point>,
    at: usize,
    w: &Window,
    found: Option<&[Point]>,
) -> u64 {
    let Some(path) = found else {
        // The window's own cells lie inside its area: the search finds a
        // path unless the smoothed path were illegal, which it never is.
        debug_assert!(false, "a window's own cells join its ends");
        return 0;
    };
    let new = stretch_cost(h, path);
    if new >= w.old {
        return 0;
    }
    cells.splice(
        at + 1..at + w.span.j,
        path[1..path.len() - 1].iter().copied(),
    );
    w.old - new
}

/// Polishes the next window of `cells` when one is due (see
/// [`next_window`]), searching at once: returns the number of cells from
/// the anchor that are now final (the new anchor's index; 0 when no window
/// was due) and the cells expanded.
pub(super) fn polish_next(
    h: &Hierarchy,
    cache: &mut SearchCache,
    size: u8,
    cells: &mut Vec<Point>,
    done: bool,
) -> (usize, u64) {
    let Some(span) = next_window(h, cells, done) else {
        return (0, 0);
    };
    let mut expanded = 0;
    if let Some(w) = window_search(h, cells, span) {
        let found = h.bounded_astar(cache, size, w.a, w.b, w.area);
        apply(h, cells, 0, &w, found.as_ref().map(|p| &p.cells[..]));
        expanded = cache.stats().expanded;
    }
    (span.next_anchor(cells.len()), expanded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AStar, HierarchyBuilder, QueryCache};

    /// A map of scattered single obstacles (`percent` of the cells).
    fn scattered(seed: u64, side: u32, percent: u64) -> Grid {
        crate::query::tests::seeded(seed, side, side, |_, r| r >= percent)
    }

    #[test]
    fn windows_shrink_with_larger_clusters() {
        assert_eq!(window(16), WINDOW);
        assert_eq!(window(8), WINDOW);
        assert_eq!(window(32), 64);
        assert_eq!(window(1024), 32);
    }

    #[test]
    fn polished_paths_are_legal_never_dearer_and_alike_piece_by_piece() {
        for cluster in [16, 32] {
            polished_paths_on(cluster);
        }
    }

    fn polished_paths_on(cluster: u32) {
        let grid = scattered(11, 120, 22);
        let polished = HierarchyBuilder::new()
            .cluster_size(cluster)
            .build(grid.clone())
            .unwrap();
        assert_eq!(polished.settings().polish, Polish::Always, "Auto decides");
        let plain = HierarchyBuilder::new()
            .cluster_size(cluster)
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
                // The cost of what has been emitted, not of what waits.
                let so_far = crate::path_cost(&grid, &movement, &cells).unwrap();
                assert_eq!(plan.cost(), so_far);
            }
            assert_eq!(cells, path.cells, "{a:?} -> {b:?}");
            assert_eq!(plan.cost(), path.cost);
        }
        assert!(pairs >= 30, "{pairs} pairs");
        // Mutation check: a polish that never replaces leaves this at 0.
        assert!(cheaper * 3 >= pairs, "{cheaper} of {pairs} cheaper");
    }

    #[test]
    fn a_sliced_query_polishes_within_its_budget_and_gives_the_same_answer() {
        let grid = scattered(5, 100, 25);
        let h = HierarchyBuilder::new().build(grid.clone()).unwrap();
        assert_eq!(h.settings().polish, Polish::Always);
        let mut cache = QueryCache::new();
        let mut q = crate::SlicedQuery::new();
        let mut polished = 0;
        for i in 0..12u32 {
            let (a, b) = (Point::new(i % 7, 3 * i), Point::new(99 - i, 90 - 2 * i));
            if !grid.is_passable(a) || !grid.is_passable(b) {
                continue;
            }
            let want = h.find_path(&mut cache, a, b).unwrap();
            q.start(&h, a, b).unwrap();
            let n = 40 + 7 * i as u64;
            loop {
                let before = q.expanded();
                let status = q.update(&h, n).unwrap();
                assert!(q.expanded() - before <= n, "a call of {n} expanded more");
                if status == crate::SliceStatus::Done {
                    break;
                }
            }
            let got = q.finish().unwrap();
            assert_eq!(got, want, "{a:?} -> {b:?}");
            let plain = HierarchyBuilder::new()
                .polish(Polish::Never)
                .build(grid.clone());
            let plain = plain.unwrap().find_path(&mut cache, a, b).unwrap();
            if let (Some(p), Some(s)) = (&got.path, &plain.path) {
                polished += (p.cost < s.cost) as u32;
            }
        }
        assert!(
            polished > 0,
            "no query was improved: the sliced polish went untested"
        );
    }

    #[test]
    fn a_builder_picks_coarser_clusters_for_scattered_obstacles_unless_told() {
        use crate::{BuildSettings, DEFAULT_CLUSTER_SIZE, SCATTERED_CLUSTER_SIZE};
        let side =
            |b: HierarchyBuilder, g: &Grid| b.build(g.clone()).unwrap().settings().cluster_size;
        let grid = scattered(3, 96, 20);
        assert_eq!(side(HierarchyBuilder::new(), &grid), SCATTERED_CLUSTER_SIZE);
        assert_eq!(side(HierarchyBuilder::new().cluster_size(16), &grid), 16);
        let settings = BuildSettings::default();
        assert_eq!(
            side(HierarchyBuilder::with_settings(settings), &grid),
            DEFAULT_CLUSTER_SIZE
        );
        // Polishing off does not change what the map is like.
        let never = HierarchyBuilder::new().polish(Polish::Never);
        assert_eq!(side(never, &grid), SCATTERED_CLUSTER_SIZE);
        let walls = Grid::from_fn(96, 96, |p| p.x % 24 != 0 || p.y % 24 == 12).unwrap();
        assert_eq!(side(HierarchyBuilder::new(), &walls), DEFAULT_CLUSTER_SIZE);
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
