//! Deterministic, seeded map generators: test and demo maps in the styles of the
//! Moving AI benchmark sets, made by the project itself.
//!
//! Every generator is a pure function of its kind, size, seed and
//! [`MapParams`]: the same inputs give the same [`Grid`] on every machine (the
//! random numbers come from a built-in SplitMix64, not from a crate whose
//! stream may change between versions).
//!
//! | kind | looks like |
//! |---|---|
//! | [`MapKind::Rooms`] | square rooms behind one-cell walls, joined by doors (Moving AI `rooms`) |
//! | [`MapKind::Caves`] | cellular-automaton caves: open areas, pillars, some sealed pockets (game maps) |
//! | [`MapKind::Maze`] | a perfect maze with corridors of a given width: many dead ends (Moving AI `mazes`) |
//! | [`MapKind::Random`] | each cell blocked with a given probability (Moving AI `random`) |
//! | [`MapKind::Mixed`] | caves with walled buildings of rooms, all joined by tunnels: the default demo map |
//!
//! ```
//! use tierpath::mapgen::{self, MapKind};
//! let grid = mapgen::generate(MapKind::Caves, 64, 48, 7).unwrap();
//! assert_eq!((grid.width(), grid.height()), (64, 48));
//! assert_eq!(grid, mapgen::generate(MapKind::Caves, 64, 48, 7).unwrap());
//! ```

use crate::grid::{Grid, GridError, MAX_CELLS, MAX_SIDE, Point};
use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// Which generator to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MapKind {
    /// Square rooms of [`MapParams::room_size`] cells behind one-cell walls; a
    /// random spanning tree of doors keeps every room reachable, and extra doors
    /// add loops.
    Rooms,
    /// Cellular-automaton caves: start from [`MapParams::cave_fill_percent`]
    /// blocked noise, smooth with the 4-5 rule. Small sealed pockets stay, as in
    /// real game maps, unless [`MapParams::connect`] is set.
    Caves,
    /// A perfect maze (exactly one route between two cells) with corridors of
    /// [`MapParams::corridor_width`] cells and one-cell walls, grown by a
    /// "growing tree" that mixes long corridors with many dead ends.
    Maze,
    /// Each cell blocked independently with probability
    /// [`MapParams::obstacle_percent`].
    Random,
    /// Rooms and caves: a cave landscape with walled buildings of rooms (each
    /// with a few outside doors and a street around it), every region of 24
    /// cells or more joined to the largest by tunnels. The default demo map.
    Mixed,
}

impl MapKind {
    /// Every kind, in declaration order.
    pub const ALL: [MapKind; 5] = [
        MapKind::Rooms,
        MapKind::Caves,
        MapKind::Maze,
        MapKind::Random,
        MapKind::Mixed,
    ];

    /// The kind's lower-case name, as [`FromStr`] accepts it.
    pub fn name(self) -> &'static str {
        match self {
            MapKind::Rooms => "rooms",
            MapKind::Caves => "caves",
            MapKind::Maze => "maze",
            MapKind::Random => "random",
            MapKind::Mixed => "mixed",
        }
    }
}

impl fmt::Display for MapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A map kind name that [`MapKind::from_str`] does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMapKind(pub String);

impl fmt::Display for UnknownMapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown map kind {:?}: expected one of rooms, caves, maze, random, mixed",
            self.0
        )
    }
}

impl std::error::Error for UnknownMapKind {}

impl FromStr for MapKind {
    type Err = UnknownMapKind;

    fn from_str(s: &str) -> Result<MapKind, UnknownMapKind> {
        MapKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownMapKind(s.to_string()))
    }
}

/// Tuning knobs; each generator reads only its own. Out-of-range values are
/// clamped (a side of at least 1, a percentage of at most 100), never rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MapParams {
    /// [`MapKind::Rooms`]: the inside side of a room, in cells (default 16).
    pub room_size: u32,
    /// [`MapKind::Maze`]: corridor width in cells (default 1).
    pub corridor_width: u32,
    /// [`MapKind::Random`]: percentage of blocked cells (default 25).
    pub obstacle_percent: u32,
    /// [`MapKind::Caves`] and [`MapKind::Mixed`]: percentage of blocked cells in
    /// the initial noise (default 45).
    pub cave_fill_percent: u32,
    /// [`MapKind::Caves`] and [`MapKind::Mixed`]: smoothing rounds (default 5).
    pub smoothing_steps: u32,
    /// Every kind: after generating, join each region of 24 cells or more to the
    /// largest one by a tunnel, so that almost every cell is reachable (default
    /// false; [`MapKind::Mixed`] always does it).
    pub connect: bool,
}

impl Default for MapParams {
    fn default() -> Self {
        MapParams {
            room_size: 16,
            corridor_width: 1,
            obstacle_percent: 25,
            cave_fill_percent: 45,
            smoothing_steps: 5,
            connect: false,
        }
    }
}

/// Regions at least this large are joined by [`MapParams::connect`] and by
/// [`MapKind::Mixed`]; smaller pockets stay sealed.
const CONNECT_MIN_CELLS: usize = 24;

/// Generates a `width x height` map of `kind` from `seed` with default
/// [`MapParams`]. Fails only for an empty or too large size.
pub fn generate(kind: MapKind, width: u32, height: u32, seed: u64) -> Result<Grid, GridError> {
    generate_with(kind, width, height, seed, &MapParams::default())
}

/// Generates a `width x height` map of `kind` from `seed` with `params`.
/// Fails only for an empty or too large size.
///
/// ```
/// use tierpath::mapgen::{self, MapKind, MapParams};
/// let params = MapParams { corridor_width: 4, ..MapParams::default() };
/// let maze = mapgen::generate_with(MapKind::Maze, 100, 100, 1, &params).unwrap();
/// assert!(maze.passable_count() > 100 * 100 / 2);
/// ```
pub fn generate_with(
    kind: MapKind,
    width: u32,
    height: u32,
    seed: u64,
    params: &MapParams,
) -> Result<Grid, GridError> {
    check_size(width, height)?;
    // Each kind draws from its own stream, so `rooms 1` and `caves 1` are unrelated.
    let mut rng = SplitMix64::new(seed ^ (kind as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut canvas = Canvas::new(width, height);
    match kind {
        MapKind::Rooms => {
            let all = Rect::new(0, 0, width, height);
            carve_rooms(&mut canvas, all, params.room_size.max(1), 40, &mut rng);
        }
        MapKind::Caves => caves(
            &mut canvas,
            params.cave_fill_percent,
            params.smoothing_steps,
            &mut rng,
        ),
        MapKind::Maze => maze(&mut canvas, params.corridor_width.max(1), &mut rng),
        MapKind::Random => {
            let p = params.obstacle_percent.min(100);
            for cell in canvas.open.iter_mut() {
                *cell = !rng.percent(p);
            }
        }
        MapKind::Mixed => mixed(&mut canvas, params, &mut rng),
    }
    if params.connect || kind == MapKind::Mixed {
        connect_regions(&mut canvas, CONNECT_MIN_CELLS);
    }
    canvas.into_grid()
}

fn check_size(width: u32, height: u32) -> Result<(), GridError> {
    if width == 0 || height == 0 {
        return Err(GridError::Empty { width, height });
    }
    if width > MAX_SIDE || height > MAX_SIDE || width as u64 * height as u64 > MAX_CELLS {
        return Err(GridError::TooLarge {
            width: width as u64,
            height: height as u64,
        });
    }
    Ok(())
}

// ----- random numbers -----

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and a fixed stream forever.
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift.
    fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    fn between(&mut self, lo: u32, hi: u32) -> u32 {
        if hi <= lo {
            lo
        } else {
            lo + self.below(hi - lo + 1)
        }
    }

    /// True with probability `p` percent.
    fn percent(&mut self, p: u32) -> bool {
        self.below(100) < p
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

// ----- the drawing surface -----

/// A rectangle of cells, `[x, x + w) x [y, y + h)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    w: u32,
    h: u32,
}

impl Rect {
    fn new(x: u32, y: u32, w: u32, h: u32) -> Self {
        Rect { x, y, w, h }
    }

    /// Whether the rectangles, each grown by `gap` cells, overlap.
    fn near(&self, o: &Rect, gap: u32) -> bool {
        self.x < o.x + o.w + gap
            && o.x < self.x + self.w + gap
            && self.y < o.y + o.h + gap
            && o.y < self.y + self.h + gap
    }
}

/// Row-major passability under construction.
struct Canvas {
    w: u32,
    h: u32,
    open: Vec<bool>,
}

impl Canvas {
    fn new(w: u32, h: u32) -> Self {
        Canvas {
            w,
            h,
            open: vec![true; w as usize * h as usize],
        }
    }

    #[inline]
    fn idx(&self, x: u32, y: u32) -> usize {
        y as usize * self.w as usize + x as usize
    }

    #[inline]
    fn get(&self, x: u32, y: u32) -> bool {
        self.open[self.idx(x, y)]
    }

    /// Sets a cell; points off the canvas are ignored.
    #[inline]
    fn set(&mut self, x: u32, y: u32, open: bool) {
        if x < self.w && y < self.h {
            let i = self.idx(x, y);
            self.open[i] = open;
        }
    }

    /// Sets every cell of `r` (clipped to the canvas).
    fn fill(&mut self, r: Rect, open: bool) {
        for y in r.y..(r.y + r.h).min(self.h) {
            for x in r.x..(r.x + r.w).min(self.w) {
                self.set(x, y, open);
            }
        }
    }

    /// Number of blocked cells within `radius` steps of `(x, y)`, itself
    /// included (9 cells for radius 1, 25 for radius 2); off the canvas counts
    /// as blocked.
    fn blocked_around(&self, x: u32, y: u32, radius: i64) -> u32 {
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

    fn from_grid(grid: &Grid) -> Self {
        Canvas {
            w: grid.width(),
            h: grid.height(),
            open: (0..grid.height())
                .flat_map(|y| (0..grid.width()).map(move |x| Point::new(x, y)))
                .map(|p| grid.is_passable(p))
                .collect(),
        }
    }

    fn into_grid(self) -> Result<Grid, GridError> {
        Grid::from_fn(self.w, self.h, |p| self.get(p.x, p.y))
    }
}

// ----- rooms -----

/// Lays out rooms of side `room` inside `area`: one-cell walls between them,
/// a random spanning tree of doors, and each remaining wall given a door with
/// probability `extra_doors` percent. Every open cell of `area` ends up
/// connected.
fn carve_rooms(canvas: &mut Canvas, area: Rect, room: u32, extra_doors: u32, rng: &mut SplitMix64) {
    let pitch = room + 1;
    let nx = area.w.div_ceil(pitch);
    let ny = area.h.div_ceil(pitch);
    // Room (i, j) spans columns area.x + i*pitch .. + room (clipped); its east
    // wall is column area.x + i*pitch + room, its south wall the same for rows.
    let span = |i: u32, len: u32| (i * pitch, (i * pitch + room).min(len));
    canvas.fill(area, true);
    for i in 0..nx {
        let wx = i * pitch + room;
        if wx < area.w {
            canvas.fill(Rect::new(area.x + wx, area.y, 1, area.h), false);
        }
    }
    for j in 0..ny {
        let wy = j * pitch + room;
        if wy < area.h {
            canvas.fill(Rect::new(area.x, area.y + wy, area.w, 1), false);
        }
    }
    // Walls between neighbouring rooms: (room a, room b, east wall?).
    let id = |i: u32, j: u32| (j * nx + i) as usize;
    let mut walls = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            if i + 1 < nx {
                walls.push((i, j, true));
            }
            if j + 1 < ny {
                walls.push((i, j, false));
            }
        }
    }
    rng.shuffle(&mut walls);
    let mut sets = UnionFind::new((nx * ny) as usize);
    for (i, j, east) in walls {
        let (a, b) = if east {
            (id(i, j), id(i + 1, j))
        } else {
            (id(i, j), id(i, j + 1))
        };
        let tree = sets.union(a, b);
        if !tree && !rng.percent(extra_doors) {
            continue;
        }
        // A door of width 1 (or 2 in rooms of 16 and more) somewhere along the
        // wall segment shared by the two rooms.
        let (lo, hi) = if east {
            span(j, area.h)
        } else {
            span(i, area.w)
        };
        let len = hi - lo;
        let width = rng.between(1, (room / 8).clamp(1, 2)).min(len);
        let at = lo + rng.below(len - width + 1);
        for k in at..at + width {
            if east {
                canvas.set(area.x + i * pitch + room, area.y + k, true);
            } else {
                canvas.set(area.x + k, area.y + j * pitch + room, true);
            }
        }
    }
}

/// Disjoint sets with path halving.
struct UnionFind(Vec<usize>);

impl UnionFind {
    fn new(n: usize) -> Self {
        UnionFind((0..n).collect())
    }

    fn find(&mut self, mut a: usize) -> usize {
        while self.0[a] != a {
            self.0[a] = self.0[self.0[a]];
            a = self.0[a];
        }
        a
    }

    /// Joins the sets of `a` and `b`; false when they were already one.
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        self.0[ra] = rb;
        ra != rb
    }
}

// ----- caves -----

/// Cellular-automaton caves (the RogueBasin 4-5 rule): noise, then `steps`
/// rounds where a cell becomes wall when 5 or more of the 9 cells of its 3x3
/// block (itself included) are walls; in the first rounds, also when at most 2
/// of the 25 cells within two steps are, which seeds pillars in big open areas.
fn caves(canvas: &mut Canvas, fill_percent: u32, steps: u32, rng: &mut SplitMix64) {
    let fill = fill_percent.min(100);
    for cell in canvas.open.iter_mut() {
        *cell = !rng.percent(fill);
    }
    let mut next = canvas.open.clone();
    for step in 0..steps {
        let pillars = step < steps.saturating_sub(2).min(3);
        for y in 0..canvas.h {
            for x in 0..canvas.w {
                let wall = canvas.blocked_around(x, y, 1) >= 5
                    || (pillars && canvas.blocked_around(x, y, 2) <= 2);
                next[canvas.idx(x, y)] = !wall;
            }
        }
        std::mem::swap(&mut canvas.open, &mut next);
    }
}

// ----- maze -----

/// A perfect maze on cells of `corridor x corridor` with one-cell walls, grown
/// by a growing tree that takes the newest cell half the time (long corridors)
/// and a random one otherwise (many short dead ends).
fn maze(canvas: &mut Canvas, corridor: u32, rng: &mut SplitMix64) {
    let pitch = corridor + 1;
    let cells = |len: u32| {
        if len >= corridor {
            (len - corridor) / pitch + 1
        } else {
            1
        }
    };
    let (nx, ny) = (cells(canvas.w), cells(canvas.h));
    canvas.open.fill(false);
    let carve_cell = |canvas: &mut Canvas, i: u32, j: u32| {
        canvas.fill(Rect::new(i * pitch, j * pitch, corridor, corridor), true);
    };
    let mut visited = vec![false; (nx * ny) as usize];
    let mut active = Vec::new();
    let (si, sj) = (rng.below(nx), rng.below(ny));
    visited[(sj * nx + si) as usize] = true;
    carve_cell(canvas, si, sj);
    active.push((si, sj));
    while !active.is_empty() {
        let k = if rng.percent(50) {
            active.len() - 1
        } else {
            rng.below(active.len() as u32) as usize
        };
        let (i, j) = active[k];
        let mut options = [(0u32, 0u32); 4];
        let mut n = 0;
        for (di, dj) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            if ni >= 0
                && nj >= 0
                && ni < nx as i64
                && nj < ny as i64
                && !visited[(nj as u32 * nx + ni as u32) as usize]
            {
                options[n] = (ni as u32, nj as u32);
                n += 1;
            }
        }
        if n == 0 {
            active.swap_remove(k);
            continue;
        }
        let (ni, nj) = options[rng.below(n as u32) as usize];
        visited[(nj * nx + ni) as usize] = true;
        carve_cell(canvas, ni, nj);
        // Open the wall between the two cells.
        let (x0, y0) = (i.min(ni) * pitch, j.min(nj) * pitch);
        if ni != i {
            canvas.fill(Rect::new(x0 + corridor, y0, 1, corridor), true);
        } else {
            canvas.fill(Rect::new(x0, y0 + corridor, corridor, 1), true);
        }
        active.push((ni, nj));
    }
}

// ----- rooms and caves -----

/// Caves, then walled buildings of rooms placed on them, each with a street
/// around it and two to four outside doors.
fn mixed(canvas: &mut Canvas, params: &MapParams, rng: &mut SplitMix64) {
    caves(
        canvas,
        params.cave_fill_percent,
        params.smoothing_steps,
        rng,
    );
    let (w, h) = (canvas.w, canvas.h);
    if w < 16 || h < 16 {
        return;
    }
    let target = w as u64 * h as u64 * 30 / 100;
    let mut covered = 0u64;
    let mut buildings: Vec<Rect> = Vec::new();
    for _ in 0..200 {
        if covered >= target {
            break;
        }
        let bw = rng.between((w / 6).max(9), (w / 3).max(9)).min(w - 4);
        let bh = rng.between((h / 6).max(9), (h / 3).max(9)).min(h - 4);
        let b = Rect::new(
            rng.between(2, w - bw - 2),
            rng.between(2, h - bh - 2),
            bw,
            bh,
        );
        if buildings.iter().any(|o| o.near(&b, 6)) {
            continue;
        }
        building(canvas, b, rng);
        covered += bw as u64 * bh as u64;
        buildings.push(b);
    }
}

/// One building: a street two cells wide around it, an outer wall, rooms
/// inside, and doors through the outer wall.
fn building(canvas: &mut Canvas, b: Rect, rng: &mut SplitMix64) {
    canvas.fill(
        Rect::new(
            b.x.saturating_sub(2),
            b.y.saturating_sub(2),
            b.w + 4,
            b.h + 4,
        ),
        true,
    );
    canvas.fill(b, false);
    let inside = Rect::new(b.x + 1, b.y + 1, b.w - 2, b.h - 2);
    let room = rng.between(5, 12);
    carve_rooms(canvas, inside, room, 30, rng);
    // Doors: each side with probability 60%, at least two sides.
    let mut sides = [0u32, 1, 2, 3];
    rng.shuffle(&mut sides);
    let mut doors = 0;
    for side in sides {
        if doors >= 2 && !rng.percent(60) {
            continue;
        }
        // Candidate spots on the outer wall whose inner neighbour is open.
        let spots: Vec<(u32, u32)> = match side {
            0 => (inside.x..inside.x + inside.w)
                .filter(|&x| canvas.get(x, inside.y))
                .map(|x| (x, b.y))
                .collect(),
            1 => (inside.x..inside.x + inside.w)
                .filter(|&x| canvas.get(x, inside.y + inside.h - 1))
                .map(|x| (x, b.y + b.h - 1))
                .collect(),
            2 => (inside.y..inside.y + inside.h)
                .filter(|&y| canvas.get(inside.x, y))
                .map(|y| (b.x, y))
                .collect(),
            _ => (inside.y..inside.y + inside.h)
                .filter(|&y| canvas.get(inside.x + inside.w - 1, y))
                .map(|y| (b.x + b.w - 1, y))
                .collect(),
        };
        if spots.is_empty() {
            continue;
        }
        let (x, y) = spots[rng.below(spots.len() as u32) as usize];
        canvas.set(x, y, true);
        doors += 1;
    }
}

// ----- connectivity -----

/// Labels 4-connected regions of open cells (the regions of the benchmark's
/// no-corner-cutting 8-connected movement too). Blocked cells get `u32::MAX`.
fn regions(canvas: &Canvas) -> (Vec<u32>, Vec<usize>) {
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
fn neighbours4(canvas: &Canvas, i: usize) -> impl Iterator<Item = usize> + use<> {
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
fn connect_regions(canvas: &mut Canvas, min_cells: usize) {
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

/// The share of passable cells, and the share of passable cells in the largest
/// region (4-connected, which is also the benchmark's 8-connected movement
/// without corner cutting): a quick summary of a generated map.
pub fn coverage(grid: &Grid) -> (f64, f64) {
    let (_, sizes) = regions(&Canvas::from_grid(grid));
    let open: usize = sizes.iter().sum();
    let largest = sizes.iter().copied().max().unwrap_or(0);
    let share = |a: usize, b: usize| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    (share(open, grid.len()), share(largest, open))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Dijkstra, SearchCache};

    /// Checks size, determinism, passable share and that the largest region
    /// (found by flood fill, confirmed by the library's Dijkstra) holds at least
    /// `min_largest` of the passable cells.
    fn check(kind: MapKind, params: &MapParams, w: u32, h: u32, min_open: f64, min_largest: f64) {
        for seed in [0u64, 1, 42, u64::MAX] {
            let g = generate_with(kind, w, h, seed, params).unwrap();
            assert_eq!((g.width(), g.height()), (w, h), "{kind} size");
            assert_eq!(
                g,
                generate_with(kind, w, h, seed, params).unwrap(),
                "{kind} deterministic"
            );
            let (open, largest) = coverage(&g);
            assert!(
                open >= min_open && open < 0.98,
                "{kind} seed {seed}: {open:.3} passable"
            );
            assert!(
                largest >= min_largest,
                "{kind} seed {seed}: largest region {largest:.3}"
            );

            // Confirm with a distance field from a cell of the largest region.
            let (label, sizes) = regions(&Canvas::from_grid(&g));
            let main = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap();
            let i = label.iter().position(|&l| l == main as u32).unwrap();
            let start = Point::new(i as u32 % w, i as u32 / w);
            let field = Dijkstra::new(&g)
                .distance_field(&mut SearchCache::new(), start)
                .unwrap();
            assert_eq!(
                field.reachable(),
                sizes[main],
                "{kind}: flood fill vs Dijkstra"
            );
        }
    }

    #[test]
    fn rooms() {
        let p = MapParams::default();
        check(MapKind::Rooms, &p, 128, 96, 0.80, 1.0);
        let small = MapParams { room_size: 4, ..p };
        check(MapKind::Rooms, &small, 61, 40, 0.60, 1.0);
    }

    #[test]
    fn caves() {
        check(MapKind::Caves, &MapParams::default(), 128, 128, 0.45, 0.75);
        check(MapKind::Caves, &MapParams::default(), 200, 64, 0.45, 0.75);
    }

    #[test]
    fn maze_is_perfect_and_connected() {
        for corridor in [1, 2, 4] {
            let p = MapParams {
                corridor_width: corridor,
                ..MapParams::default()
            };
            check(MapKind::Maze, &p, 101, 77, 0.40, 1.0);
        }
        // A perfect maze of 1-wide corridors: open cells form a tree, so
        // (4-neighbour edges) = (open cells) - 1, and it has many dead ends.
        let g = generate(MapKind::Maze, 81, 81, 3).unwrap();
        let open =
            |x: i64, y: i64| x >= 0 && y >= 0 && g.is_passable(Point::new(x as u32, y as u32));
        let (mut edges, mut dead_ends) = (0, 0);
        for p in g.passable_points() {
            let (x, y) = (p.x as i64, p.y as i64);
            edges += open(x + 1, y) as usize + open(x, y + 1) as usize;
            let degree = [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .filter(|(dx, dy)| open(x + dx, y + dy))
                .count();
            dead_ends += (degree == 1) as usize;
        }
        assert_eq!(edges, g.passable_count() - 1);
        assert!(dead_ends > 100, "{dead_ends} dead ends");
    }

    #[test]
    fn random() {
        check(MapKind::Random, &MapParams::default(), 128, 128, 0.70, 0.90);
        let dense = MapParams {
            obstacle_percent: 10,
            ..MapParams::default()
        };
        check(MapKind::Random, &dense, 64, 64, 0.85, 0.97);
    }

    #[test]
    fn mixed_is_nearly_one_region() {
        check(MapKind::Mixed, &MapParams::default(), 256, 256, 0.50, 0.97);
        check(MapKind::Mixed, &MapParams::default(), 100, 60, 0.45, 0.95);
    }

    #[test]
    fn connect_joins_caves() {
        let p = MapParams {
            connect: true,
            ..MapParams::default()
        };
        check(MapKind::Caves, &p, 128, 128, 0.45, 0.97);
    }

    #[test]
    fn seeds_and_kinds_differ() {
        let a = generate(MapKind::Caves, 64, 64, 1).unwrap();
        let b = generate(MapKind::Caves, 64, 64, 2).unwrap();
        assert_ne!(a, b);
        assert_ne!(
            generate(MapKind::Random, 64, 64, 1).unwrap(),
            generate(MapKind::Random, 64, 64, 2).unwrap()
        );
    }

    #[test]
    fn tiny_and_bad_sizes() {
        for kind in MapKind::ALL {
            for (w, h) in [(1, 1), (1, 9), (9, 1), (3, 3), (17, 16)] {
                let g = generate(kind, w, h, 5).unwrap();
                assert_eq!((g.width(), g.height()), (w, h), "{kind} {w}x{h}");
            }
            assert!(matches!(
                generate(kind, 0, 10, 1),
                Err(GridError::Empty { .. })
            ));
            assert!(matches!(
                generate(kind, MAX_SIDE + 1, 10, 1),
                Err(GridError::TooLarge { .. })
            ));
        }
    }

    #[test]
    fn kind_names_round_trip() {
        for kind in MapKind::ALL {
            assert_eq!(kind.name().parse::<MapKind>(), Ok(kind));
        }
        assert_eq!("Caves".parse::<MapKind>(), Ok(MapKind::Caves));
        assert!("swamp".parse::<MapKind>().is_err());
    }
}
