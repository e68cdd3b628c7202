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
//! distances can only grow, and no move appears). Opening cells adds moves,
//! along which the old distances may differ by more than the move costs:
//! [`Guide::open_cells`] lowers them where they must, by a search from the
//! opened cells that goes only as far as distances shrink (see "Saved" for
//! why that is all the bound needs).
//!
//! # Saved
//! A hierarchy file stores the distances of every map cell
//! ([`SavedGuide`]). What makes the bound exact is not that they are true
//! distances but that they are *1-Lipschitz*: along every legal move, each
//! landmark's distance changes by at most the move's cost (and a cell and its
//! neighbour are both reached or both not). Summed along a least-cost path,
//! that gives `|d(L, n) - d(L, t)| <= d(n, t)` for any such values, and the
//! estimate's consistency move by move. So loading checks exactly that, one
//! pass over the moves: a forged file whose values pass can slow the search,
//! never make it wrong (true distances pass: they are what a build writes).

use crate::engine::SearchCache;
use crate::grid::{Cost, Grid, Movement, Point, Weight};
use crate::search::Dijkstra;
use rayon::prelude::*;

/// A cell the landmarks' searches did not reach (another island).
pub(crate) const UNREACHED: u32 = u32::MAX;

/// Landmarks a guide may hold.
pub(crate) const MAX_GUIDE_LANDMARKS: usize = 4;

/// Cell landmarks as a file stores them: the landmark count, and every map
/// cell's distances, row-major, a cell's landmarks side by side; walls
/// [`UNREACHED`].
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SavedGuide {
    /// Landmarks (1 to [`MAX_GUIDE_LANDMARKS`] in a valid file).
    pub(crate) count: u32,
    /// `cells[(y * width + x) * count + i]`.
    pub(crate) cells: Vec<u32>,
}

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

    /// Brings the distances back within every move's cost after `opened`
    /// cells were opened on `grid` (already open there; a map of uniform
    /// cost). Every move a cell's opening makes legal joins two cells
    /// within one step of it (the cell itself, or two cells the opening
    /// lets cut its corner), so those cells are the sources; from them a
    /// Dijkstra per landmark lowers each neighbour's distance above the
    /// source's plus the move's cost, and goes on only from cells it
    /// lowered: its work is the region whose distances shrink. An opened
    /// cell starts from the value it kept while it was a wall (its distance
    /// before it closed, 0 for a landmark's own cell; unreached for a cell
    /// that was never open), lowered to its neighbours' least distance plus
    /// the move; an island the opening joins to a landmark's gets distances
    /// from it. Lowering only ever ends, and ends with the distances changing
    /// by at most the move's cost along every move of the new map (the
    /// check a file's distances pass), whatever they started from: so the
    /// bound stays admissible and consistent. Where the distances were
    /// exact and no cell closed since, they end exact (an opening's effect
    /// is a decrease only, and this is Dijkstra's from its ends). Returns
    /// `false` (the guide is then unusable: drop it) when a distance would
    /// not fit in 32 bits, which only values near the top of the range (a
    /// file's, checked only move by move) can cause.
    #[must_use]
    pub(crate) fn open_cells(&mut self, grid: &Grid, movement: Movement, opened: &[Point]) -> bool {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let count = self.count;
        // The cells within one step of an opened cell (on the map, open),
        // each once.
        let mut sources: Vec<u32> = opened
            .iter()
            .flat_map(|p| {
                let (x0, y0) = (p.x.saturating_sub(1), p.y.saturating_sub(1));
                let (x1, y1) = (
                    (p.x + 1).min(grid.width() - 1),
                    (p.y + 1).min(grid.height() - 1),
                );
                (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| Point::new(x, y)))
            })
            .filter(|q| grid.is_passable(*q))
            .map(|q| grid.node(q).0)
            .collect();
        sources.sort_unstable();
        sources.dedup();
        let mut heap = BinaryHeap::new();
        for i in 0..count {
            let d = |dist: &[u32], n: u32| dist[n as usize * count + i];
            heap.extend(
                sources
                    .iter()
                    .filter(|n| d(&self.dist, **n) != UNREACHED)
                    .map(|n| Reverse((d(&self.dist, *n), *n))),
            );
            while let Some(Reverse((dn, n))) = heap.pop() {
                if dn != d(&self.dist, n) {
                    continue;
                }
                for dir in 0..8 {
                    let Some((m, cost)) = grid.neighbor_in(crate::grid::Node(n), dir, &movement)
                    else {
                        continue;
                    };
                    let Some(through) = dn.checked_add(cost).filter(|v| *v != UNREACHED) else {
                        return false;
                    };
                    let slot = &mut self.dist[m.0 as usize * count + i];
                    if through < *slot {
                        *slot = through;
                        heap.push(Reverse((through, m.0)));
                    }
                }
            }
        }
        true
    }

    /// Every padded cell's distances, to forge in tests.
    #[cfg(test)]
    pub(crate) fn distances_mut(&mut self) -> &mut [u32] {
        &mut self.dist
    }

    /// The distances of `grid`'s cells as a file stores them: walls
    /// [`UNREACHED`] whatever the guide holds there (a repair that closed
    /// cells keeps their old distances, which no search reads).
    pub(crate) fn to_saved(&self, grid: &Grid) -> SavedGuide {
        let (w, h, pw) = (grid.width(), grid.height(), grid.padded_width());
        let mut cells = Vec::with_capacity((w * h) as usize * self.count);
        for y in 0..h {
            for x in 0..w {
                let p = Point::new(x, y);
                if grid.is_passable(p) {
                    cells.extend_from_slice(self.of((y + 1) * pw + x + 1));
                } else {
                    cells.extend(std::iter::repeat_n(UNREACHED, self.count));
                }
            }
        }
        SavedGuide {
            count: self.count as u32,
            cells,
        }
    }

    /// The guide a file stores for `grid` under `movement`, checked to keep
    /// the search exact (see "Saved" above): the count in range, one value
    /// per landmark and cell, walls [`UNREACHED`], a map of uniform cost,
    /// and every legal move changing each distance by at most its cost.
    /// The error names the first cell that fails.
    pub(crate) fn from_saved(
        grid: &Grid,
        movement: Movement,
        saved: SavedGuide,
    ) -> Result<Guide, String> {
        let count = saved.count as usize;
        if !(1..=MAX_GUIDE_LANDMARKS).contains(&count) {
            return Err(format!(
                "{count} cell landmarks is out of range (1 to {MAX_GUIDE_LANDMARKS})"
            ));
        }
        if grid.is_weighted() {
            return Err("cell landmarks on a map of terrain weights".into());
        }
        let (w, h, pw) = (grid.width(), grid.height(), grid.padded_width());
        if saved.cells.len() != (w * h) as usize * count {
            return Err(format!(
                "{} cell landmark distances for {} cells of {count} landmarks",
                saved.cells.len(),
                w * h
            ));
        }
        let mut dist = vec![UNREACHED; grid.padded_len() * count];
        for (row, values) in saved.cells.chunks_exact((w as usize) * count).enumerate() {
            let at = ((row as u32 + 1) * pw + 1) as usize * count;
            dist[at..at + values.len()].copy_from_slice(values);
        }
        let guide = Guide { count, dist };
        let bad_row = (0..h)
            .into_par_iter()
            .find_first(|y| !guide.row_is_lipschitz(grid, &movement, *y));
        match bad_row {
            None => Ok(guide),
            Some(y) => Err(guide.first_fault(grid, &movement, y)),
        }
    }

    /// The moves checked from a cell: east, south and the two diagonals
    /// south (every legal move is one of these from one of its two ends,
    /// the rules being symmetric).
    const FORWARD: [u8; 4] = [1, 2, 5, 6];

    /// What is wrong at cell `p` for the check of
    /// [`from_saved`](Self::from_saved), if anything.
    fn fault_at(&self, grid: &Grid, movement: &Movement, p: Point) -> Option<String> {
        let n = grid.node(p);
        let here = self.of(n.0);
        if !grid.is_passable(p) {
            return here
                .iter()
                .any(|d| *d != UNREACHED)
                .then(|| format!("cell landmarks give wall ({}, {}) a distance", p.x, p.y));
        }
        for dir in Self::FORWARD {
            let Some((m, cost)) = grid.neighbor_in(n, dir, movement) else {
                continue;
            };
            for (a, b) in here.iter().zip(self.of(m.0)) {
                let fits = match (*a == UNREACHED, *b == UNREACHED) {
                    (true, true) => true,
                    (false, false) => a.abs_diff(*b) <= cost,
                    _ => false,
                };
                if !fits {
                    let q = grid.point(m);
                    let show = |d: u32| match d {
                        UNREACHED => "unreached".to_string(),
                        d => d.to_string(),
                    };
                    return Some(format!(
                        "cell landmark distances {} at ({}, {}) and {} at ({}, {}) differ by more \
                         than the move between them costs ({cost})",
                        show(*a),
                        p.x,
                        p.y,
                        show(*b),
                        q.x,
                        q.y
                    ));
                }
            }
        }
        None
    }

    /// Whether every cell of row `y` passes.
    fn row_is_lipschitz(&self, grid: &Grid, movement: &Movement, y: u32) -> bool {
        (0..grid.width()).all(|x| self.fault_at(grid, movement, Point::new(x, y)).is_none())
    }

    /// The fault of the first failing cell of row `y`.
    fn first_fault(&self, grid: &Grid, movement: &Movement, y: u32) -> String {
        (0..grid.width())
            .find_map(|x| self.fault_at(grid, movement, Point::new(x, y)))
            .unwrap_or_default()
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

    /// A wall with a gap, and a walled box whose inside is an island of
    /// its own (no landmark reaches it).
    fn walled() -> Grid {
        Grid::from_fn(30, 20, |p| {
            let boxed = (20..=28).contains(&p.x) && (2..=8).contains(&p.y);
            let box_wall = boxed && (p.x == 20 || p.x == 28 || p.y == 2 || p.y == 8);
            (p.x != 15 || p.y == 19) && !box_wall
        })
        .unwrap()
    }

    #[test]
    fn saved_guides_load_when_every_move_keeps_the_bound_and_are_refused_otherwise() {
        let grid = walled();
        for m in Movement::every_rule() {
            let g = Guide::new(&grid, m, 2).unwrap();
            let saved = g.to_saved(&grid);
            assert_eq!(saved.cells.len(), 30 * 20 * 2);
            assert_eq!(Guide::from_saved(&grid, m, saved), Ok(g));
        }
        let m = Movement::default();
        let g = Guide::new(&grid, m, 2).unwrap();
        let saved = g.to_saved(&grid);
        let at = |x: u32, y: u32| (y * 30 + x) as usize * 2;
        // Walls and the boxed island are unreached.
        assert_eq!(saved.cells[at(15, 3)], UNREACHED);
        assert_eq!(saved.cells[at(24, 5)..at(24, 5) + 2], [UNREACHED; 2]);
        let refused = |edit: &dyn Fn(&mut SavedGuide)| {
            let mut forged = saved.clone();
            edit(&mut forged);
            Guide::from_saved(&grid, m, forged).expect_err("forged")
        };
        let e = refused(&|s| s.cells[at(5, 5)] += 300);
        assert!(e.contains("(5, 5)") && e.contains("differ by more"), "{e}");
        let e = refused(&|s| s.cells[at(15, 3) + 1] = 7);
        assert!(e.contains("wall (15, 3)"), "{e}");
        let e = refused(&|s| s.cells[at(24, 5)] = 0);
        assert!(e.contains("unreached"), "{e}");
        let e = refused(&|s| s.cells.pop().map_or((), drop));
        assert!(e.contains("distances for 600 cells"), "{e}");
        for count in [0, 5] {
            let e = refused(&|s| s.count = count);
            assert!(e.contains("out of range"), "{e}");
        }
        let mut weighted = grid.clone();
        weighted.set_weight(Point::new(1, 1), Weight(200)).unwrap();
        let e = Guide::from_saved(&weighted, m, saved.clone()).unwrap_err();
        assert!(e.contains("terrain weights"), "{e}");
        // One unit more than a straight step between neighbours is refused.
        let e = refused(&|s| s.cells[at(3, 3)] = s.cells[at(4, 3)] + m.straight + 1);
        assert!(
            e.contains("(3, 3)") && e.contains(&format!("costs ({})", m.straight)),
            "{e}"
        );
    }

    #[test]
    fn a_forged_guide_that_keeps_the_bound_keeps_the_search_exact() {
        // Halved distances and all zeros pass the check (every move
        // changes them by at most its cost): the search may slow down, its
        // answers stay those of A*.
        let grid = walled();
        let m = Movement::default();
        let lines = super::super::JumpLines::new(&grid, m).unwrap();
        let real = Guide::new(&grid, m, 3).unwrap().to_saved(&grid);
        let halved = SavedGuide {
            cells: real
                .cells
                .iter()
                .map(|d| if *d == UNREACHED { *d } else { d / 2 })
                .collect(),
            ..real.clone()
        };
        let zeros = SavedGuide {
            cells: real
                .cells
                .iter()
                .map(|d| if *d == UNREACHED { *d } else { 0 })
                .collect(),
            ..real.clone()
        };
        for saved in [real, halved, zeros] {
            let guide = Guide::from_saved(&grid, m, saved).unwrap();
            guided_search_is_exact(&grid, m, &lines, &guide, 7, "forged");
        }
    }

    /// Asserts that jump point search guided by `guide` costs what A* does
    /// between every pair of every `every`-th passable cell of `grid`.
    fn guided_search_is_exact(
        grid: &Grid,
        m: Movement,
        lines: &super::super::JumpLines,
        guide: &Guide,
        every: usize,
        what: &str,
    ) {
        let astar = crate::AStar::new(grid).movement(m);
        let mut flat = SearchCache::default();
        let mut cache = super::super::JpsCache::new();
        let open: Vec<Point> = grid.passable_points().step_by(every).collect();
        for s in &open {
            for t in &open {
                let want = astar
                    .find_path(&mut flat, *s, *t)
                    .unwrap()
                    .path
                    .map(|p| p.cost);
                let got = lines
                    .search_within(&mut cache, *s, *t, u64::MAX, Some(guide))
                    .into_path()
                    .map(|p| p.cost);
                assert_eq!(got, want, "{what}: {s:?} -> {t:?}");
            }
        }
    }

    /// Opening cells keeps the distances within every move's cost under
    /// every movement rule (the check a file passes) and guided jump point
    /// search equal to A*; openings alone (no closing since the build)
    /// leave them the exact distances from the same landmarks, a closed
    /// and reopened landmark included.
    #[test]
    fn opened_cells_lower_the_distances_only_where_they_must() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as u32
        };
        for (k, m) in Movement::every_rule().into_iter().enumerate() {
            let (w, h) = (36, 28);
            let mut grid = Grid::from_fn(w, h, |p| {
                !(p.x * 7 + p.y * 11 + k as u32).is_multiple_of(5) && (p.x != 18 || p.y == 27)
            })
            .unwrap();
            let Ok(lines) = super::super::JumpLines::new(&grid, m) else {
                continue;
            };
            let mut lines = lines;
            let mut guide = Guide::new(&grid, m, 2).unwrap();
            let landmarks: Vec<Point> = (0..2)
                .map(|i| {
                    grid.passable_points()
                        .find(|p| guide.of(grid.node(*p).0)[i] == 0)
                        .unwrap()
                })
                .collect();
            let exact = |grid: &Grid, guide: &Guide| {
                let dijkstra = Dijkstra::new(grid).movement(m);
                let mut cache = SearchCache::default();
                for (i, l) in landmarks.iter().enumerate() {
                    let f = dijkstra.distance_field(&mut cache, *l).unwrap();
                    for p in grid.passable_points() {
                        let want = f.get(p).map_or(UNREACHED, |c| (c.0 / 100) as u32);
                        assert_eq!(guide.of(grid.node(p).0)[i], want, "rule {k}, {p:?}");
                    }
                }
            };
            for step in 0..40 {
                // Walls opened (steps 0 to 11), the first landmark's cell
                // closed (12) and opened again (13), then cells closed and
                // opened at random.
                let changes: Vec<(Point, bool)> = match step {
                    12 => vec![(landmarks[0], false)],
                    13 => vec![(landmarks[0], true)],
                    _ => (0..1 + next(3))
                        .map(|_| Point::new(next(w), next(h)))
                        .map(|p| (p, step < 12 || !grid.is_passable(p)))
                        .collect(),
                };
                let mut opened = Vec::new();
                for (p, open) in changes {
                    if grid.is_passable(p) != open {
                        grid.set_passable(p, open).unwrap();
                        lines.set_passable(p, open);
                        if open {
                            opened.push(p);
                        }
                    }
                }
                assert!(guide.open_cells(&grid, m, &opened));
                if step < 12 || step == 13 {
                    exact(&grid, &guide);
                }
                let checked = Guide::from_saved(&grid, m, guide.to_saved(&grid));
                assert_eq!(checked.err(), None, "rule {k}, step {step}");
                if step % 4 == 3 {
                    let what = format!("rule {k}, step {step}");
                    guided_search_is_exact(&grid, m, &lines, &guide, 23, &what);
                }
            }
        }
    }
}
