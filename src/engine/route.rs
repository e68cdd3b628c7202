//! Straight-line routes on the grid: the canonical least-cost ways from one
//! cell to another on open ground.
//!
//! Between cells `dx` and `dy` apart, every 8-connected route of `min(dx, dy)`
//! diagonal and `|dx - dy|` straight moves in the right directions costs the
//! octile distance, the least possible on uniformly weighted ground (when
//! 4-connected: `dx + dy` straight moves, the Manhattan distance). Such a route
//! is therefore optimal whenever it is free. Three shapes are tried: the moves
//! spread evenly (the look of a straight line), diagonals first, and straight
//! moves first.

use super::Space;
use super::stamps::Generation;
use crate::grid::{Movement, Node, Point, direction_code};

/// The order of a route's moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// The two kinds of move interleaved evenly, like a rasterised line.
    /// The only shape smoothing walks cell by cell (the others are read
    /// from the anchor's runs). Measured 2026-11-28 (an untracked probe,
    /// the 10 highest buckets, 50 contracted queries per map; median time
    /// and mean suboptimality), smoothing without it:
    ///
    /// | smoothing | dao | mazes | rooms | sc1 |
    /// |---|---|---|---|---|
    /// | with it, window 96 (kept) | 9.1-9.2 us, 0.191% | 144 us, 0.198% | 27.1 us, 0.033% | 28.3 us, 0.119% |
    /// | without, window 96 | 8.4 us, 0.211% | | | |
    /// | without, window 160 | 8.5 us, 0.197% | 118 us, 0.1996% | | |
    /// | without, window 192 | 8.5-8.6 us, 0.194% | 120 us, 0.206% | 22.9 us, 0.032% | 27.4 us, 0.108% |
    ///
    /// Faster everywhere, but the mazes come to issue #13's 0.2% or past it,
    /// Dragon Age stays slower than exact JPS by median (0.88-0.90x against
    /// 0.82x), and a wider window delays the first move (192: 27.5 us
    /// against 25.6 on the six long StarCraft maps, the plan refining twice
    /// as far ahead): not taken.
    Spread,
    /// All diagonal (or, 4-connected, horizontal) moves first.
    DiagonalFirst,
    /// All straight (or, 4-connected, vertical) moves first.
    StraightFirst,
}

/// Every shape, in the order smoothing tries them.
pub(crate) const SHAPES: [Shape; 3] = [Shape::Spread, Shape::DiagonalFirst, Shape::StraightFirst];

/// The two kinds of move of a straight route from `a` to `b`, and how many of
/// each: diagonal and straight when 8-connected, horizontal and vertical when
/// 4-connected. `(first, second, n_first, n_second)`.
fn decompose(movement: &Movement, a: Point, b: Point) -> ((i64, i64), (i64, i64), i64, i64) {
    let (dx, dy) = (a.x.abs_diff(b.x) as i64, a.y.abs_diff(b.y) as i64);
    let sx = (b.x as i64 - a.x as i64).signum();
    let sy = (b.y as i64 - a.y as i64).signum();
    if movement.diagonals() {
        let d = dx.min(dy);
        let straight = if dx > dy { (sx, 0) } else { (0, sy) };
        ((sx, sy), straight, d, dx.max(dy) - d)
    } else {
        ((sx, 0), (0, sy), dx, dy)
    }
}

/// One kind of unit move, precomputed for walking padded indices: the index
/// offset, its base cost, and (for a diagonal) the offsets of the two
/// straight cells beside it.
#[derive(Clone, Copy)]
struct Step {
    offset: i64,
    base: u32,
    corners: Option<(i64, i64)>,
}

impl Step {
    fn new<S: Space>(space: &S, (mx, my): (i64, i64)) -> Step {
        let pw = space.padded_width() as i64;
        let movement = space.movement();
        let diagonal = mx != 0 && my != 0;
        Step {
            offset: my * pw + mx,
            base: if diagonal {
                movement.diagonal
            } else {
                movement.straight
            },
            corners: diagonal.then_some((mx, my * pw)),
        }
    }

    /// The node after this move from `n`, if the move is legal.
    #[inline(always)]
    fn take<S: Space>(&self, space: &S, n: i64) -> Option<i64> {
        let m = n + self.offset;
        if !space.open(m as u32) {
            return None;
        }
        if let Some((a, b)) = self.corners
            && !space.corner_ok(space.open((n + a) as u32), space.open((n + b) as u32))
        {
            return None;
        }
        Some(m)
    }

    /// Takes this move `count` times from `*n` (left at the last cell
    /// reached), calling `visit` after each; false at the first illegal one.
    #[inline(always)]
    fn run<S: Space>(
        &self,
        space: &S,
        n: &mut i64,
        count: i64,
        visit: &mut impl FnMut(Node, u32),
    ) -> bool {
        for _ in 0..count {
            match self.take(space, *n) {
                Some(m) => {
                    visit(Node(m as u32), self.base);
                    *n = m;
                }
                None => return false,
            }
        }
        true
    }
}

/// The route from one cell to another, decomposed once so that every
/// [`Shape`] can be tried from it (smoothing tries up to three per
/// candidate): its two kinds of move and how many of each.
pub(crate) struct Line {
    first: Step,
    second: Step,
    first_dir: u8,
    second_dir: u8,
    n_first: i64,
    n_second: i64,
    start: i64,
}

/// Every unit move of a space (and no move), at `(dx + 1) * 3 + dy + 1`:
/// what [`Line::new`] works out for each route, worked out once for the
/// routes smoothing tries from one anchor (a table lookup instead of about
/// a hundred instructions per route).
pub(crate) struct Steps([(Step, u8); 9]);

impl Steps {
    /// The moves of `space`, with their direction codes.
    pub(crate) fn new<S: Space>(space: &S) -> Steps {
        Steps(std::array::from_fn(|i| {
            let m = (i as i64 / 3 - 1, i as i64 % 3 - 1);
            (Step::new(space, m), direction_code(m.0, m.1))
        }))
    }

    /// The move `(dx, dy)` and its direction code.
    #[inline(always)]
    fn get(&self, (dx, dy): (i64, i64)) -> (Step, u8) {
        self.0[((dx + 1) * 3 + dy + 1) as usize]
    }
}

impl Line {
    /// The route from `a` to `b` (`a != b` for [`first_move`](Self::first_move)).
    #[inline]
    pub(crate) fn new<S: Space>(space: &S, a: Point, b: Point) -> Line {
        let (first, second, n_first, n_second) = decompose(space.movement(), a, b);
        let step = |m: (i64, i64)| (Step::new(space, m), direction_code(m.0, m.1));
        Line::of(step(first), step(second), n_first, n_second, space.node(a))
    }

    /// [`new`](Self::new) with the moves read from `steps` (made for
    /// `space`).
    #[inline]
    pub(crate) fn with_steps<S: Space>(space: &S, steps: &Steps, a: Point, b: Point) -> Line {
        let (first, second, n_first, n_second) = decompose(space.movement(), a, b);
        Line::of(
            steps.get(first),
            steps.get(second),
            n_first,
            n_second,
            space.node(a),
        )
    }

    #[inline(always)]
    fn of(
        (first, first_dir): (Step, u8),
        (second, second_dir): (Step, u8),
        n_first: i64,
        n_second: i64,
        start: Node,
    ) -> Line {
        Line {
            first,
            second,
            first_dir,
            second_dir,
            n_first,
            n_second,
            start: start.0 as i64,
        }
    }

    /// Whether the `k`-th move of `shape` is of the first kind; `err` is
    /// the Bresenham error term the spread shape carries along.
    #[inline(always)]
    fn uses_first(&self, shape: Shape, k: i64, err: &mut i64) -> bool {
        let total = self.n_first + self.n_second;
        match shape {
            Shape::DiagonalFirst => k < self.n_first,
            Shape::StraightFirst => k >= self.n_second,
            // Spread: Bresenham's error term decides each move, spreading
            // the `first` moves evenly among the others.
            Shape::Spread => {
                *err += self.n_first;
                if *err >= total {
                    *err -= total;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// Whether the spread route's cells after every eighth of its moves are
    /// open ([`spread_probes`](Self::spread_probes)): a condition of its
    /// being free, read in constant time per cell. Most spread routes
    /// smoothing tries are blocked, often away from their ends, where a
    /// walk meets the block late: on the dao set's long queries (7,800,
    /// callgrind over `find_path`), 2.6% fewer instructions with three
    /// cells read, 3.9% with seven (4.6% in 32-bit arithmetic, as here:
    /// 1,469 M -> 1,401 M; 9.2 -> 8.9-9.0 us by median), 2.8% with
    /// fifteen; the same paths.
    #[inline]
    fn spread_may_be_free<S: Space>(&self, space: &S) -> bool {
        self.spread_probes().all(|n| space.open(n))
    }

    /// The spread route's cells after a half, a quarter, three quarters,
    /// then the odd eighths of its moves (padded indices): after `m` moves
    /// the error term has chosen `m * n_first / total` first moves, rounded
    /// down.
    #[inline]
    fn spread_probes(&self) -> impl Iterator<Item = u32> {
        // Both counts are below a window's length: 32-bit arithmetic.
        let (n_first, total) = (
            self.n_first as u32,
            (self.n_first + self.n_second).max(1) as u32,
        );
        [4, 2, 6, 1, 3, 5, 7].into_iter().map(move |e| {
            let m = e * total / 8;
            let f = (m * n_first / total) as i64;
            (self.start + f * self.first.offset + (m as i64 - f) * self.second.offset) as u32
        })
    }

    /// The first move of `shape`, as a direction index.
    #[inline]
    pub(crate) fn first_move(&self, shape: Shape) -> u8 {
        if self.uses_first(shape, 0, &mut 0) {
            self.first_dir
        } else {
            self.second_dir
        }
    }

    /// The cost of the route of `shape` in `space`, `None` when it is
    /// blocked.
    pub(crate) fn cost<S: Space>(&self, space: &S, shape: Shape) -> Option<u64> {
        let mut total = 0u64;
        let free = self.walk(space, shape, |m, base| {
            total += base as u64 * space.weight(m.0);
        });
        free.then_some(total)
    }

    /// Walks the route of `shape` in `space`, calling `visit(cell,
    /// base_cost)` for every cell after the first. Returns false (having
    /// stopped) at the first illegal move.
    ///
    /// The two run-first shapes walk each kind of move as a run of one
    /// fixed step (a tight loop, no choice per move); the spread shape
    /// chooses each move by its error term.
    #[inline]
    pub(crate) fn walk<S: Space>(
        &self,
        space: &S,
        shape: Shape,
        mut visit: impl FnMut(Node, u32),
    ) -> bool {
        let mut n = self.start;
        match shape {
            Shape::DiagonalFirst => {
                self.first.run(space, &mut n, self.n_first, &mut visit)
                    && self.second.run(space, &mut n, self.n_second, &mut visit)
            }
            Shape::StraightFirst => {
                self.second.run(space, &mut n, self.n_second, &mut visit)
                    && self.first.run(space, &mut n, self.n_first, &mut visit)
            }
            Shape::Spread => {
                let mut err = 0i64;
                for k in 0..self.n_first + self.n_second {
                    let step = if self.uses_first(shape, k, &mut err) {
                        &self.first
                    } else {
                        &self.second
                    };
                    if !step.run(space, &mut n, 1, &mut visit) {
                        return false;
                    }
                }
                true
            }
        }
    }
}

/// The longest run a [`Runs`] memo holds: a route of the widest smoothing
/// window (at most [`WIDE_WINDOW`](super::smooth::WIDE_WINDOW) moves) has no
/// longer run.
const MAX_RUN: i64 = super::smooth::WIDE_WINDOW as i64;
// A record counts a run's free moves in a byte.
const _: () = assert!(MAX_RUN <= u8::MAX as i64);

/// What is known of one run: a straight or diagonal line of moves of one
/// kind out of a cell.
#[derive(Debug, Clone, Copy, Default)]
struct Run {
    /// The memo's generation when this record was written (else unknown).
    stamp: u32,
    /// Moves known to be legal from the run's first cell.
    free: u8,
    /// Whether the move after those is known to be illegal.
    blocked: bool,
}

/// The free runs out of one cell (an anchor of smoothing), and out of the
/// cells along its rays, learnt as routes from the anchor ask for them.
///
/// A run-first route from the anchor is a run of one kind of move and a run
/// of the other from where the first ends ([`Shape::DiagonalFirst`],
/// [`Shape::StraightFirst`]). Smoothing tries routes to dozens of cells from
/// one anchor, and neighbouring targets share their first run and often the
/// corner their second starts from: each run is walked once, as far as some
/// route needs it, and a later route reads it. Records are keyed by the
/// first run's direction and length and the second run's direction, and
/// reset in O(1) per anchor by a generation stamp.
#[derive(Debug, Clone, Default)]
pub(crate) struct Runs {
    generation: Generation,
    /// The anchor's node: routes must start there.
    anchor: i64,
    runs: Vec<Run>,
}

impl Runs {
    /// Forgets every run: routes now start at `anchor` (a node of the space
    /// the following routes walk in).
    pub(crate) fn begin(&mut self, anchor: Node) {
        if self.runs.is_empty() {
            self.runs = vec![Run::default(); 8 * (MAX_RUN as usize + 1) * 8];
        }
        let runs = &mut self.runs;
        self.generation
            .advance(|| runs.iter_mut().for_each(|r| r.stamp = 0));
        self.anchor = anchor.0 as i64;
    }

    /// The record of the run in direction `dir` out of the cell `k` moves
    /// along direction `lead` from the anchor (`k == 0`: the anchor itself).
    fn key(lead: u8, k: i64, dir: u8) -> usize {
        let lead = if k == 0 { 0 } else { lead as usize };
        (lead * (MAX_RUN as usize + 1) + k as usize) * 8 + dir as usize
    }

    /// Whether `n` moves of `step` from `from` are legal, `key` being that
    /// run's record: read from the record, walking only beyond what it knows.
    fn free<S: Space>(&mut self, space: &S, from: i64, step: &Step, key: usize, n: i64) -> bool {
        if n == 0 {
            return true;
        }
        let stamp = self.generation.open();
        let run = &mut self.runs[key];
        if run.stamp != stamp {
            *run = Run {
                stamp,
                free: 0,
                blocked: false,
            };
        }
        if n <= run.free as i64 {
            return true;
        }
        if run.blocked {
            return false;
        }
        let mut at = from + run.free as i64 * step.offset;
        while (run.free as i64) < n {
            match step.take(space, at) {
                Some(next) => {
                    at = next;
                    run.free += 1;
                }
                None => {
                    run.blocked = true;
                    return false;
                }
            }
        }
        true
    }
}

impl Line {
    /// Whether the route of `shape` is legal throughout, as
    /// [`walk`](Self::walk) would find, with the run-first shapes answered
    /// from `runs` (begun at this line's first cell) and the spread shape
    /// walked.
    pub(crate) fn is_free_in<S: Space>(&self, space: &S, shape: Shape, runs: &mut Runs) -> bool {
        let ((lead, lead_dir, n_lead), (tail, tail_dir, n_tail)) = match shape {
            Shape::Spread => {
                return self.spread_may_be_free(space) && self.walk(space, shape, |_, _| {});
            }
            Shape::DiagonalFirst => (
                (&self.first, self.first_dir, self.n_first),
                (&self.second, self.second_dir, self.n_second),
            ),
            Shape::StraightFirst => (
                (&self.second, self.second_dir, self.n_second),
                (&self.first, self.first_dir, self.n_first),
            ),
        };
        if n_lead > MAX_RUN || n_tail > MAX_RUN || runs.anchor != self.start {
            return self.walk(space, shape, |_, _| {});
        }
        runs.free(space, self.start, lead, Runs::key(0, 0, lead_dir), n_lead)
            && runs.free(
                space,
                self.start + n_lead * lead.offset,
                tail,
                Runs::key(lead_dir, n_lead, tail_dir),
                n_tail,
            )
    }
}

/// Walks the route of `shape` from `a` to `b` in `space`, calling
/// `visit(cell, base_cost)` for every cell after `a`. Returns false (having
/// stopped) at the first illegal move.
#[inline]
pub(crate) fn walk<S: Space>(
    space: &S,
    a: Point,
    b: Point,
    shape: Shape,
    visit: impl FnMut(Node, u32),
) -> bool {
    Line::new(space, a, b).walk(space, shape, visit)
}

/// The legal first moves out of `a`, as a bit set over the directions of
/// [`direction_code`]: a cheap filter before walking routes from `a`.
pub(crate) fn legal_moves<S: Space>(space: &S, a: Point) -> u8 {
    let mut mask = 0u8;
    space.for_each_neighbor(space.node(a), |_, _, dx, dy| {
        mask |= 1 << direction_code(dx as i64, dy as i64);
    });
    mask
}

/// Whether the route of `shape` from `a` to `b` is legal throughout.
pub(crate) fn is_free<S: Space>(space: &S, a: Point, b: Point, shape: Shape) -> bool {
    walk(space, a, b, shape, |_, _| {})
}

/// Appends the cells of the route of `shape` from `a` to `b` (after `a`) to `out`.
#[cfg(test)]
pub(crate) fn cells<S: Space>(space: &S, a: Point, b: Point, shape: Shape, out: &mut Vec<Point>) {
    walk(space, a, b, shape, |m, _| out.push(space.point(m)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;
    use crate::engine::Plain;
    use crate::search::path_cost;

    /// The spread route's cells read in constant time are the walk's: on
    /// open ground every probed cell lies on the route, and on random maps
    /// the check never turns down a free spread route, for every movement
    /// rule.
    #[test]
    fn the_spread_check_reads_cells_of_the_route_and_keeps_every_free_one() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m as u64) as u32
        };
        let open = Grid::new(40, 30).unwrap();
        let walls: Vec<Grid> = (0..4)
            .map(|_| Grid::from_fn(40, 30, |_| next(100) >= 18).unwrap())
            .collect();
        let (mut free, mut turned_down) = (0, 0);
        for m in [
            Movement::default(),
            Movement::FOUR,
            Movement {
                corners: crate::CornerRule::Always,
                ..Movement::default()
            },
        ] {
            for _ in 0..400 {
                let a = Point::new(next(40), next(30));
                let b = Point::new(next(40), next(30));
                let space = Plain::new(&open, &m);
                let line = Line::new(&space, a, b);
                let mut route = vec![a];
                cells(&space, a, b, Shape::Spread, &mut route);
                // Every cell the check reads is one the walk visits.
                let on_route: std::collections::HashSet<u32> =
                    route.iter().map(|p| space.node(*p).0).collect();
                for n in line.spread_probes() {
                    assert!(on_route.contains(&n), "{a} -> {b}: {n} is off the route");
                }
                for g in &walls {
                    let space = Plain::new(g, &m);
                    if !g.is_passable(a) || !g.is_passable(b) {
                        continue;
                    }
                    let line = Line::new(&space, a, b);
                    let walked = line.walk(&space, Shape::Spread, |_, _| {});
                    let checked = line.spread_may_be_free(&space);
                    assert!(checked || !walked, "{a} -> {b}: a free route turned down");
                    free += usize::from(walked);
                    turned_down += usize::from(!checked);
                }
            }
        }
        assert!(
            free > 100 && turned_down > 100,
            "{free} free, {turned_down} turned down"
        );
    }

    #[test]
    fn routes_are_octile_and_legal_on_open_ground() {
        let g = Grid::new(20, 20).unwrap();
        for m in [Movement::default(), Movement::FOUR] {
            for (a, b) in [
                ((0, 0), (13, 5)),
                ((19, 3), (2, 17)),
                ((5, 5), (5, 12)),
                ((4, 4), (9, 9)),
            ] {
                let (a, b) = (Point::new(a.0, a.1), Point::new(b.0, b.1));
                for shape in SHAPES {
                    let mut out = vec![a];
                    cells(&Plain::new(&g, &m), a, b, shape, &mut out);
                    assert_eq!(*out.last().unwrap(), b);
                    let c = path_cost(&g, &m, &out).unwrap();
                    assert_eq!(c, m.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)));
                    let space = Plain::new(&g, &m);
                    assert_eq!(Line::new(&space, a, b).cost(&space, shape), Some(c.0));
                }
            }
        }
    }

    #[test]
    fn first_move_matches_the_walk() {
        let g = Grid::new(30, 30).unwrap();
        for m in [Movement::default(), Movement::FOUR] {
            let a = Point::new(12, 9);
            for b in [
                (0, 0),
                (29, 3),
                (12, 29),
                (20, 9),
                (5, 25),
                (13, 10),
                (12, 8),
            ] {
                let b = Point::new(b.0, b.1);
                for shape in SHAPES {
                    let mut cells = vec![a];
                    super::cells(&Plain::new(&g, &m), a, b, shape, &mut cells);
                    let (p, q) = (cells[0], cells[1]);
                    let want = crate::grid::direction_code(
                        q.x as i64 - p.x as i64,
                        q.y as i64 - p.y as i64,
                    );
                    let space = Plain::new(&g, &m);
                    let got = Line::new(&space, a, b).first_move(shape);
                    assert_eq!(got, want, "{m:?} {b:?} {shape:?}");
                }
            }
        }
        assert_eq!(
            legal_moves(&Plain::new(&g, &Movement::default()), Point::new(0, 0)),
            0b0010_0110
        );
    }

    /// The movement rules the walks are checked under.
    fn rules() -> [Movement; 3] {
        [
            Movement::default(),
            Movement::FOUR,
            Movement {
                corners: crate::CornerRule::IfOneFree,
                ..Movement::default()
            },
        ]
    }

    /// The passable cells of `g`, row by row.
    fn open_cells(g: &Grid) -> Vec<Point> {
        (0..g.height())
            .flat_map(|y| (0..g.width()).map(move |x| Point::new(x, y)))
            .filter(|p| g.is_passable(*p))
            .collect()
    }

    /// The run-first shapes walk as runs; the reference here takes every
    /// move by `uses_first`, one at a time, as the spread shape does. A line
    /// whose moves come from a [`Steps`] table is the same line.
    #[test]
    fn runs_take_the_moves_of_the_shape_rule() {
        let g = Grid::from_fn(24, 19, |p| (p.x * 7 + p.y * 13 + p.x * p.y) % 9 != 0).unwrap();
        for m in rules() {
            let space = Plain::new(&g, &m);
            let steps = Steps::new(&space);
            let open = open_cells(&g);
            let mut free = 0;
            for &a in open.iter().step_by(3) {
                for &b in open.iter().step_by(5) {
                    let line = Line::new(&space, a, b);
                    let table = Line::with_steps(&space, &steps, a, b);
                    let parts = |l: &Line| {
                        let step = |s: &Step| (s.offset, s.base, s.corners);
                        let dirs = (l.first_dir, l.second_dir);
                        let counts = (l.n_first, l.n_second, l.start);
                        (dirs, counts, step(&l.first), step(&l.second))
                    };
                    assert_eq!(parts(&table), parts(&line), "{m:?} {a:?} {b:?}");
                    for shape in SHAPES {
                        let mut got = Vec::new();
                        let ok = line.walk(&space, shape, |n, base| got.push((n, base)));
                        let (mut want, mut n, mut err) = (Vec::new(), line.start, 0);
                        let mut want_ok = true;
                        for k in 0..line.n_first + line.n_second {
                            let step = if line.uses_first(shape, k, &mut err) {
                                &line.first
                            } else {
                                &line.second
                            };
                            match step.take(&space, n) {
                                Some(next) => {
                                    want.push((Node(next as u32), step.base));
                                    n = next;
                                }
                                None => {
                                    want_ok = false;
                                    break;
                                }
                            }
                        }
                        assert_eq!((ok, &got), (want_ok, &want), "{m:?} {a:?} {b:?} {shape:?}");
                        free += usize::from(ok);
                    }
                }
            }
            // Both outcomes occur on this map.
            assert!(free > 0 && free < open.len().div_ceil(3) * open.len().div_ceil(5) * 3);
        }
    }

    /// A route answered from an anchor's memo of runs is free exactly when
    /// its walk is, whatever routes the memo answered before (targets taken
    /// far and near, so that records are both read and extended).
    #[test]
    fn routes_read_from_runs_are_free_exactly_when_walked() {
        let g = Grid::from_fn(40, 33, |p| (p.x * 5 + p.y * 11 + p.x * p.y) % 13 != 0).unwrap();
        let mut runs = Runs::default();
        for m in rules() {
            let space = Plain::new(&g, &m);
            let open = open_cells(&g);
            let (mut free, mut blocked) = (0, 0);
            for &a in open.iter().step_by(7) {
                runs.begin(space.node(a));
                // Far targets first, then near ones, then far again.
                let order = open.iter().rev().chain(&open).chain(open.iter().rev());
                for &b in order.step_by(3) {
                    let line = Line::new(&space, a, b);
                    for shape in SHAPES {
                        let walked = line.walk(&space, shape, |_, _| {});
                        let read = line.is_free_in(&space, shape, &mut runs);
                        assert_eq!(read, walked, "{m:?} {a:?} {b:?} {shape:?}");
                        if walked { free += 1 } else { blocked += 1 }
                    }
                }
            }
            assert!(
                free > 100 && blocked > 100,
                "{free} free, {blocked} blocked"
            );
        }
    }

    #[test]
    fn blocked_routes_are_refused() {
        let g = Grid::from_ascii(
            "
            .....
            ..@..
            .....",
        )
        .unwrap();
        let m = Movement::default();
        let (a, b) = (Point::new(0, 1), Point::new(4, 1));
        let g = Plain::new(&g, &m);
        assert!(!is_free(&g, a, b, Shape::Spread));
        assert!(!is_free(
            &g,
            Point::new(0, 0),
            Point::new(4, 2),
            Shape::DiagonalFirst
        ));
        assert!(is_free(
            &g,
            Point::new(0, 0),
            Point::new(4, 0),
            Shape::Spread
        ));
    }
}
