//! The generators' tools: a seeded random stream, a drawing surface, and
//! the connectivity of what was drawn.

use crate::grid::{Grid, GridError, Point};
use std::collections::VecDeque;

// ----- random numbers -----

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and a fixed stream forever.
#[derive(Debug, Clone)]
pub(super) struct SplitMix64(u64);

impl SplitMix64 {
    pub(super) fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub(super) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift.
    pub(super) fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    pub(super) fn between(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            lo
        } else {
            lo + self.below(hi - lo + 1)
        }
    }

    /// True with probability `p` percent.
    pub(super) fn percent(&mut self, p: u32) -> bool {
        self.below(100) < p
    }

    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

// ----- the drawing surface -----

/// A rectangle of cells, `[x, x + w) x [y, y + h)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rect {
    pub(super) x: u32,
    pub(super) y: u32,
    pub(super) w: u32,
    pub(super) h: u32,
}

impl Rect {
    pub(super) fn new(x: u32, y: u32, w: u32, h: u32) -> Self {
        Rect { x, y, w, h }
    }

    /// Whether the rectangles, each grown by `gap` cells, overlap.
    pub(super) fn near(&self, o: &Rect, gap: u32) -> bool {
        self.x < o.x + o.w + gap
            && o.x < self.x + self.w + gap
            && self.y < o.y + o.h + gap
            && o.y < self.y + self.h + gap
    }
}

/// Row-major passability under construction.
pub(super) struct Canvas {
    pub(super) w: u32,
    pub(super) h: u32,
    pub(super) open: Vec<bool>,
}

impl Canvas {
    pub(super) fn new(w: u32, h: u32) -> Self {
        Canvas {
            w,
            h,
            open: vec![true; w as usize * h as usize],
        }
    }

    #[inline]
    pub(super) fn idx(&self, x: u32, y: u32) -> usize {
        y as usize * self.w as usize + x as usize
    }

    #[inline]
    pub(super) fn get(&self, x: u32, y: u32) -> bool {
        self.open[self.idx(x, y)]
    }

    /// Sets a cell; points off the canvas are ignored.
    #[inline]
    pub(super) fn set(&mut self, x: u32, y: u32, open: bool) {
        if x < self.w && y < self.h {
            let i = self.idx(x, y);
            self.open[i] = open;
        }
    }

    /// Sets every cell of `r` (clipped to the canvas).
    pub(super) fn fill(&mut self, r: Rect, open: bool) {
        for y in r.y..(r.y + r.h).min(self.h) {
            for x in r.x..(r.x + r.w).min(self.w) {
                self.set(x, y, open);
            }
        }
    }

    /// Number of blocked cells within `radius` steps of `(x, y)`, itself
    /// included (9 cells for radius 1, 25 for radius 2); off the canvas counts
    /// as blocked.
    pub(super) fn blocked_around(&self, x: u32, y: u32, radius: i64) -> u32 {
        let mut n = 0;
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx < 0
                    || ny < 0
                    || nx >= self.w as i64
                    || ny >= self.h as i64
                    || !self.get(nx as u32, ny as u32)
                {
                    n += 1;
                }
            }
        }
        n
    }

    pub(super) fn from_grid(grid: &Grid) -> Self {
        Canvas {
            w: grid.width(),
            h: grid.height(),
            open: (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
                .map(|p| grid.is_passable(p))
                .collect(),
        }
    }

    pub(super) fn into_grid(self) -> Result<Grid, GridError> {
        Grid::from_fn(self.w, self.h, |p| self.get(p.x, p.y))
    }
}

// ----- rooms -----

/// Disjoint sets with path halving.
pub(super) struct UnionFind(Vec<usize>);

impl UnionFind {
    pub(super) fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }

    pub(super) fn find(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }

    /// Joins the sets of `a` and `b`; false when they were already one.
    pub(super) fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        self.0[ra] = rb;
        ra != rb
    }
}

// ----- connectivity -----

/// Labels 4-connected regions of open cells (the regions of the benchmark's
/// no-corner-cutting 8-connected movement too). Blocked cells get `u32::MAX`.
pub(super) fn regions(canvas: &Canvas) -> (Vec<u32>, Vec<usize>) {
    let mut label = vec![u32::MAX; canvas.open.len()];
    let mut sizes = Vec::new();
    let mut queue = VecDeque::new();
    for start in 0..canvas.open.len() {
        if !canvas.open[start] || label[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0;
        label[start] = id;
        queue.push_back(start);
        while let Some(i) = queue.pop_front() {
            size += 1;
            for n in neighbours4(canvas, i) {
                if canvas.open[n] && label[n] == u32::MAX {
                    label[n] = id;
                    queue.push_back(n);
                }
            }
        }
        sizes.push(size);
    }
    (label, sizes)
}

/// The up to four orthogonal neighbours of cell index `i`.
pub(super) fn neighbours4(canvas: &Canvas, i: usize) -> impl Iterator<Item = usize> + use<> {
    let w = canvas.w as usize;
    let h = canvas.h as usize;
    let (x, y) = (i % w, i / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then(|| i + w),
    ]
    .into_iter()
    .flatten()
}

/// Joins every region of at least `min_cells` cells to the largest region by
/// the shortest tunnel (two cells wide) through the walls.
pub(super) fn connect_regions(canvas: &mut Canvas, min_cells: usize) {
    let (label, sizes) = regions(canvas);
    let Some(main) = (0..sizes.len()).max_by_key(|&r| (sizes[r], usize::MAX - r)) else {
        return;
    };
    if !sizes
        .iter()
        .enumerate()
        .any(|(r, s)| r != main && *s >= min_cells)
    {
        return;
    }
    // Breadth-first search from the whole main region through every cell.
    let n = canvas.open.len();
    let mut dist = vec![u32::MAX; n];
    let mut parent = vec![usize::MAX; n];
    let mut queue = VecDeque::new();
    for i in 0..n {
        if label[i] == main as u32 {
            dist[i] = 0;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for j in neighbours4(canvas, i) {
            if dist[j] == u32::MAX {
                dist[j] = dist[i] + 1;
                parent[j] = i;
                queue.push_back(j);
            }
        }
    }
    // The cell of each region nearest the main one.
    let mut nearest = vec![usize::MAX; sizes.len()];
    for i in 0..n {
        let r = label[i];
        if r != u32::MAX
            && (nearest[r as usize] == usize::MAX || dist[i] < dist[nearest[r as usize]])
        {
            nearest[r as usize] = i;
        }
    }
    let w = canvas.w as usize;
    for (r, &size) in sizes.iter().enumerate() {
        if r == main || size < min_cells || nearest[r] == usize::MAX {
            continue;
        }
        let mut i = nearest[r];
        while dist[i] > 0 {
            let (x, y) = ((i % w) as u32, (i / w) as u32);
            canvas.set(x, y, true);
            canvas.set(x + 1, y, true);
            canvas.set(x, y + 1, true);
            i = parent[i];
        }
    }
}
