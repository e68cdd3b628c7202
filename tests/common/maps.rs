//! Random maps for the run-time property tests (`nearest_props`,
//! `sliced_props`, `partial_props`): noise, walls with gaps (some sealed, so
//! there are several islands) or rooms with doors, optional terrain patches,
//! every movement rule; a failing case prints as ASCII.

use std::fmt;

use proptest::prelude::*;
use tierpath::{Grid, Hierarchy, HierarchyBuilder, Movement, Point, Weight};

use super::Rng;
use super::reference::{TestMap, movements};

/// How the obstacles are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Independent random obstacles.
    Noise,
    /// Walls across the map, most with a gap or two, some sealed.
    Walls,
    /// Rooms with doors; some walls have none.
    Rooms,
}

/// A random map with its movement rule, cluster side and some points on it.
#[derive(Clone)]
pub struct MapCase {
    pub layout: Layout,
    pub seed: u64,
    pub movement_index: usize,
    pub cluster_size: u32,
    pub map: TestMap,
    /// Passable cells chosen at random (opened if they were blocked).
    pub points: Vec<Point>,
}

impl MapCase {
    pub fn movement(&self) -> Movement {
        movements()[self.movement_index]
    }

    pub fn grid(&self) -> Grid {
        self.map.to_grid()
    }

    pub fn hierarchy(&self) -> Hierarchy {
        HierarchyBuilder::new()
            .cluster_size(self.cluster_size)
            .movement(self.movement())
            .build(self.grid())
            .expect("valid settings")
    }
}

impl fmt::Debug for MapCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let marks: Vec<(Point, char)> = self
            .points
            .iter()
            .enumerate()
            .rev()
            .map(|(i, p)| (*p, if i == 0 { 'S' } else { 'p' }))
            .collect();
        write!(
            f,
            "\n{}x{} {:?} seed {:#x}, cluster {}, {:?}\n{}points (S is the first): {:?}",
            self.map.width,
            self.map.height,
            self.layout,
            self.seed,
            self.cluster_size,
            self.movement(),
            self.map.render(&marks),
            self.points
        )
    }
}

/// How dense and how wide the obstacles of each [`Layout`] are: each property
/// test tunes them (units larger than one cell need wider gaps).
#[derive(Debug, Clone, Copy)]
pub struct Obstacles {
    /// The noise density of walls and rooms maps is the case's density
    /// divided by these.
    pub walls_noise_div: u32,
    /// See `walls_noise_div`.
    pub rooms_noise_div: u32,
    /// Percent of walls with no gap at all (`None`: every wall has one, and
    /// no random number is drawn for it).
    pub sealed_percent: Option<u32>,
    /// A gap in a wall is 1 to this many cells.
    pub gap_max: u32,
    /// Rooms are `room_min` to `room_min + room_span - 1` cells a side.
    pub room_min: u32,
    /// See `room_min`.
    pub room_span: u32,
    /// One wall segment in this many has no door.
    pub doorless_one_in: u32,
    /// A door is 1 to this many cells.
    pub door_max: u32,
}

impl Obstacles {
    /// The run-time tests' obstacles (some walls sealed, so several islands).
    pub const RUNTIME: Obstacles = Obstacles {
        walls_noise_div: 2,
        rooms_noise_div: 3,
        sealed_percent: Some(25),
        gap_max: 3,
        room_min: 5,
        room_span: 8,
        doorless_one_in: 5,
        door_max: 2,
    };
}

/// Lays out the obstacles of a `w` x `h` map (`true` = passable).
pub fn lay_out(
    w: u32,
    h: u32,
    layout: Layout,
    density: u32,
    o: &Obstacles,
    rng: &mut Rng,
) -> Vec<bool> {
    let idx = |x: u32, y: u32| (y * w + x) as usize;
    let noise = match layout {
        Layout::Noise => density,
        Layout::Walls => density / o.walls_noise_div,
        Layout::Rooms => density / o.rooms_noise_div,
    };
    let mut open: Vec<bool> = (0..w * h).map(|_| !rng.percent(noise)).collect();
    match layout {
        Layout::Noise => {}
        Layout::Walls => {
            for _ in 0..1 + rng.below_u32(4) {
                let vertical = rng.below_u32(2) == 0;
                let (len, across) = if vertical { (h, w) } else { (w, h) };
                let at = 1 + rng.below_u32(across - 2);
                let sealed = o.sealed_percent.is_some_and(|p| rng.percent(p));
                let gaps = if sealed { 0 } else { 1 + rng.below_u32(2) };
                let gaps: Vec<(u32, u32)> = (0..gaps)
                    .map(|_| (rng.below_u32(len), 1 + rng.below_u32(o.gap_max)))
                    .collect();
                for i in 0..len {
                    let in_gap = gaps.iter().any(|(g, n)| i >= *g && i < g + n);
                    let (x, y) = if vertical { (at, i) } else { (i, at) };
                    open[idx(x, y)] = in_gap;
                }
            }
        }
        Layout::Rooms => {
            let room = o.room_min + rng.below_u32(o.room_span);
            // Walls on every `room`-th row and column; each wall segment
            // between two corners gets a door, or (one in `doorless_one_in`)
            // none.
            for y in 0..h {
                for x in 0..w {
                    if x % room == 0 || y % room == 0 {
                        open[idx(x, y)] = false;
                    }
                }
            }
            for (vertical, lines, span) in [(false, h, w), (true, w, h)] {
                for line in (0..lines).step_by(room as usize) {
                    for seg in (0..span).step_by(room as usize) {
                        if rng.below_u32(o.doorless_one_in) == 0 {
                            continue;
                        }
                        let width = 1 + rng.below_u32(o.door_max);
                        let start = seg + 1 + rng.below_u32(room - 1);
                        for i in start..(start + width).min(seg + room).min(span) {
                            let (x, y) = if vertical { (line, i) } else { (i, line) };
                            open[idx(x, y)] = true;
                        }
                    }
                }
            }
        }
    }
    open
}

/// Cases on maps from `min_side` to `max_side` cells a side, with `points`
/// random passable points each.
pub fn map_cases(min_side: u32, max_side: u32, points: usize) -> impl Strategy<Value = MapCase> {
    (
        (min_side..=max_side, min_side..=max_side),
        prop_oneof![
            Just(Layout::Noise),
            Just(Layout::Walls),
            Just(Layout::Rooms)
        ],
        0u32..=45,
        any::<u64>(),
        0usize..5,
        4u32..=16,
        prop_oneof![3 => Just(false), 1 => Just(true)],
    )
        .prop_map(
            move |(
                (width, height),
                layout,
                density,
                seed,
                movement_index,
                cluster_size,
                weighted,
            )| {
                let mut rng = Rng::new(seed);
                let mut map = TestMap {
                    open: lay_out(
                        width,
                        height,
                        layout,
                        density,
                        &Obstacles::RUNTIME,
                        &mut rng,
                    ),
                    ..TestMap::new(width, height)
                };
                if weighted {
                    // Patches of one weight each, 50 (cheap) to 400.
                    for _ in 0..1 + rng.below_u32(6) {
                        let (x0, y0) = (rng.below_u32(width), rng.below_u32(height));
                        let (pw, ph) = (1 + rng.below_u32(12), 1 + rng.below_u32(12));
                        let wt = Weight(50 + rng.below_u32(351) as u16);
                        for y in y0..(y0 + ph).min(height) {
                            for x in x0..(x0 + pw).min(width) {
                                let i = map.idx(x, y);
                                map.weight[i] = wt.0;
                            }
                        }
                    }
                }
                let points = (0..points)
                    .map(|_| {
                        let (x, y) = (rng.below_u32(width), rng.below_u32(height));
                        let i = map.idx(x, y);
                        map.open[i] = true;
                        Point::new(x, y)
                    })
                    .collect();
                MapCase {
                    layout,
                    seed,
                    movement_index,
                    cluster_size,
                    map,
                    points,
                }
            },
        )
}
