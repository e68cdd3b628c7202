//! How scattered a map's obstacles are: the share of its blocked cells that
//! lie in small clumps, which decides whether queries polish their paths
//! ([`Polish::Auto`](crate::Polish::Auto)).
//!
//! Smoothing replaces a refined path's detours by straight routes. Where the
//! obstacles are walls and rooms (every Dragon Age, StarCraft, maze and
//! rooms map of the Moving AI benchmarks) those routes get through, and the
//! paths come out within a few tenths of a percent of optimal. Where they
//! are scattered single cells and small clumps (the random maps), a straight
//! route is almost always blocked, the path keeps the bends it took at the
//! cluster borders, and it stays 0.4-1.6% above optimal; an exact search
//! over short windows of the path removes most of that (see
//! [`Polish`](crate::Polish)).
//!
//! Measured over all 265 maps of the benchmarks (every cell, 8-connected
//! clumps of at most [`SMALL_CLUMP`] cells): random maps with 10-35% of
//! their cells blocked have 0.15-0.99 of their blocked cells in such clumps,
//! random maps with 40% have 0.04 (their obstacles percolate into one mass,
//! and their paths are already within 0.08% of optimal); every other map
//! has at most 0.049 (`brc501d`), most of them 0.00. [`SCATTERED`] sits
//! between.

use crate::grid::{Grid, Point};

/// A clump of at most this many blocked cells (8-connected) is small.
pub(crate) const SMALL_CLUMP: usize = 8;

/// A map whose blocked cells lie in small clumps at least this share of the
/// time has scattered obstacles.
pub(crate) const SCATTERED: f64 = 0.1;

/// About how many cells the estimate samples (a lattice over the map).
const SAMPLES: u64 = 16_384;

/// The share of `grid`'s blocked cells that lie in clumps of at most
/// [`SMALL_CLUMP`] blocked cells (8-connected, the map's edge not counted as
/// blocked), estimated on a lattice of about [`SAMPLES`] cells: a few
/// hundred microseconds on any map, and the same figure for the same map.
/// 0 when no sampled cell is blocked.
pub(crate) fn small_clump_share(grid: &Grid) -> f64 {
    let (w, h) = (grid.width(), grid.height());
    let cells = w as u64 * h as u64;
    let step = ((cells / SAMPLES) as f64).sqrt().max(1.0) as u32;
    let (mut blocked, mut small) = (0u64, 0u64);
    let mut clump = Vec::with_capacity(SMALL_CLUMP + 1);
    for y in (step / 2..h).step_by(step as usize) {
        for x in (step / 2..w).step_by(step as usize) {
            let p = Point::new(x, y);
            if grid.is_passable(p) {
                continue;
            }
            blocked += 1;
            if clump_is_small(grid, p, &mut clump) {
                small += 1;
            }
        }
    }
    if blocked == 0 {
        0.0
    } else {
        small as f64 / blocked as f64
    }
}

/// Whether the 8-connected clump of blocked cells holding `p` has at most
/// [`SMALL_CLUMP`] cells: a flood that stops at one more.
fn clump_is_small(grid: &Grid, p: Point, clump: &mut Vec<Point>) -> bool {
    clump.clear();
    clump.push(p);
    let mut next = 0;
    while next < clump.len() {
        let c = clump[next];
        next += 1;
        for dy in -1..=1i32 {
            for dx in -1..=1i32 {
                let (Some(x), Some(y)) = (c.x.checked_add_signed(dx), c.y.checked_add_signed(dy))
                else {
                    continue;
                };
                let q = Point::new(x, y);
                if x >= grid.width() || y >= grid.height() || grid.is_passable(q) {
                    continue;
                }
                if !clump.contains(&q) {
                    clump.push(q);
                    if clump.len() > SMALL_CLUMP {
                        return false;
                    }
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_cells_are_scattered_and_walls_are_not() {
        // Pillars on a lattice: every blocked cell alone.
        let pillars = Grid::from_fn(64, 64, |p| p.x % 4 != 1 || p.y % 4 != 1).unwrap();
        assert_eq!(small_clump_share(&pillars), 1.0);
        // 3x3 blocks (nine cells): one too many.
        let blocks = Grid::from_fn(64, 64, |p| p.x % 6 >= 3 || p.y % 6 >= 3).unwrap();
        assert_eq!(small_clump_share(&blocks), 0.0);
        // 2x4 blocks (eight cells): small.
        let eights = Grid::from_fn(64, 64, |p| p.x % 5 >= 2 || p.y % 6 >= 4).unwrap();
        assert_eq!(small_clump_share(&eights), 1.0);
        // Long walls, and an open map.
        let walls = Grid::from_fn(64, 64, |p| p.y % 8 != 3 || p.x == 40).unwrap();
        assert_eq!(small_clump_share(&walls), 0.0);
        assert_eq!(small_clump_share(&Grid::new(64, 64).unwrap()), 0.0);
        // Clumps at the map's edge are cut there, not extended past it.
        let corner = Grid::from_fn(8, 8, |p| p.x > 0 || p.y > 0).unwrap();
        assert_eq!(small_clump_share(&corner), 1.0);
    }

    #[test]
    fn a_large_map_is_sampled_on_a_lattice() {
        // 512 x 512 with pillars every third cell each way: the lattice
        // (every second cell) lands on pillars and on open cells alike.
        let grid = Grid::from_fn(512, 512, |p| p.x % 3 != 0 || p.y % 3 != 0).unwrap();
        assert_eq!(small_clump_share(&grid), 1.0);
        let mixed = Grid::from_fn(512, 512, |p| {
            (p.x % 3 != 0 || p.y % 3 != 0) && !(p.y > 256 && p.x % 64 < 20)
        })
        .unwrap();
        let share = small_clump_share(&mixed);
        assert!(share > 0.2 && share < 0.8, "{share}");
    }
}
