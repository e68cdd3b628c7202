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

mod canvas;
mod styles;

use crate::grid::{Grid, GridError, MAX_CELLS, MAX_SIDE};
use canvas::{Canvas, Rect, SplitMix64, connect_regions, regions};
use std::fmt;
use std::str::FromStr;
use styles::{carve_rooms, caves, maze, mixed};

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
mod tests;
