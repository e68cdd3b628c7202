//! Clearance: how large a square unit fits with its top-left corner on each
//! cell.

use crate::grid::{Grid, Point};

/// A grid with the clearance of every cell: the largest `k` such that the
/// `k x k` square whose top-left cell is that cell lies on the map and is
/// passable throughout, capped at [`Clearance::CAP`] (255). Blocked cells
/// have clearance 0.
///
/// Computed in one pass over the cells by the classic dynamic programme, from
/// the bottom-right corner:
///
/// ```text
/// clearance(x, y) = 0                                    if (x, y) is blocked or off the map
///                 = 1 + min(clearance(x + 1, y),
///                           clearance(x, y + 1),
///                           clearance(x + 1, y + 1))      otherwise (capped at 255)
/// ```
///
/// A unit of size `k` fits with its top-left corner on `p` exactly when
/// `clearance(p) >= k`; the grid a size-`k` unit moves on is the set of those
/// cells (see the module docs for the movement rule).
///
/// ```
/// use tierpath::{Clearance, Grid, Point};
/// let c = Clearance::new(Grid::from_ascii("
///     ....
///     ...@
///     ....
/// ").unwrap());
/// assert_eq!(c.get(Point::new(0, 0)), 3); // the 3x3 square at (0, 0) is free
/// assert_eq!(c.get(Point::new(1, 0)), 2); // (3, 1) blocks the 3x3 square at (1, 0)
/// assert_eq!(c.get(Point::new(3, 1)), 0); // a wall
/// assert_eq!(c.get(Point::new(3, 2)), 1); // the map's edge
/// assert!(c.fits(Point::new(0, 1), 2) && !c.fits(Point::new(2, 0), 2));
/// ```
///
/// # Performance
/// One byte per cell, in the grid's padded layout (so searches read it with
/// the same node indices as passability); computing it visits each cell once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clearance {
    grid: Grid,
    /// Padded like the grid's arrays; 0 on blocked cells and the padding.
    values: Vec<u8>,
    largest: u8,
}

impl Clearance {
    /// The largest clearance recorded: larger open squares read as 255.
    pub const CAP: u8 = u8::MAX;

    /// Computes the clearance of every cell of `grid` (which it keeps).
    pub fn new(grid: Grid) -> Clearance {
        let (values, largest) = clearance_values(&grid);
        Clearance {
            grid,
            values,
            largest,
        }
    }

    /// The grid the clearance describes.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// Gives the grid back.
    pub fn into_grid(self) -> Grid {
        self.grid
    }

    /// The clearance of `p`: 0 when `p` is blocked or off the map.
    #[inline]
    pub fn get(&self, p: Point) -> u8 {
        if self.grid.contains(p) {
            self.values[self.grid.node(p).index()]
        } else {
            0
        }
    }

    /// Whether a unit of `size` fits with its top-left corner on `p` (every
    /// cell of the `size x size` square on the map and passable). Size 0
    /// never fits.
    #[inline]
    pub fn fits(&self, p: Point, size: u32) -> bool {
        size >= 1 && self.get(p) as u32 >= size
    }

    /// The largest clearance of any cell: the largest unit that fits anywhere.
    pub fn largest(&self) -> u8 {
        self.largest
    }

    /// The grid a unit of `size` moves on: a cell is passable when the unit
    /// fits there (clearance `>= size`), with the original terrain weights.
    /// Size-`size` paths on this map are exactly the size-1 paths on that
    /// grid (see the module docs). O(cells): for tests and comparisons, not
    /// for queries.
    pub fn grid_for_size(&self, size: u32) -> Grid {
        let mut out = Grid::from_fn(self.grid.width(), self.grid.height(), |p| {
            self.fits(p, size)
        })
        .expect("the same dimensions as a valid grid");
        if self.grid.is_weighted() {
            for y in 0..self.grid.height() {
                for x in 0..self.grid.width() {
                    let p = Point::new(x, y);
                    out.set_weight(p, self.grid.weight(p))
                        .expect("p lies on the map");
                }
            }
        }
        out
    }

    /// How many passable cells each size fits on: entry `k - 1` counts the
    /// cells of clearance `>= k`, for `k` in `1..=max_size`.
    pub fn cells_per_size(&self, max_size: u8) -> Vec<u64> {
        let mut count = vec![0u64; max_size as usize + 1];
        for v in &self.values {
            count[(*v).min(max_size) as usize] += 1;
        }
        // Suffix sums: clearance >= k.
        let mut out = vec![0u64; max_size as usize];
        let mut acc = 0;
        for k in (1..=max_size as usize).rev() {
            acc += count[k];
            out[k - 1] = acc;
        }
        out
    }

    /// Bytes held, excluding the grid.
    pub fn memory_bytes(&self) -> usize {
        self.values.len()
    }

    /// The padded clearance array.
    #[inline(always)]
    pub(crate) fn padded(&self) -> &[u8] {
        &self.values
    }
}

/// The clearance of every cell of `grid` in its padded layout (0 on blocked
/// cells and the padding), and the largest value, by the dynamic programme
/// of [`Clearance`].
pub(crate) fn clearance_values(grid: &Grid) -> (Vec<u8>, u8) {
    let pw = grid.padded_width() as usize;
    let open = grid.passable_slice();
    let mut values = vec![0u8; open.len()];
    let mut largest = 0u8;
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    for y in (1..=h).rev() {
        let row = y * pw;
        for x in (1..=w).rev() {
            let i = row + x;
            if open[i] {
                let below = values[i + pw].min(values[i + pw + 1]);
                let v = 1 + values[i + 1].min(below) as u16;
                let v = v.min(Clearance::CAP as u16) as u8;
                values[i] = v;
                largest = largest.max(v);
            }
        }
    }
    (values, largest)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition, by brute force.
    fn brute(grid: &Grid, p: Point) -> u8 {
        let mut k = 0u32;
        loop {
            let n = k + 1;
            let fits =
                (0..n).all(|dy| (0..n).all(|dx| grid.is_passable(Point::new(p.x + dx, p.y + dy))));
            if !fits || n > 255 {
                return k as u8;
            }
            k = n;
        }
    }

    #[test]
    fn matches_the_definition() {
        let mut x = 0x9e37_79b9_u64;
        let grid = Grid::from_fn(37, 23, |_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            (x >> 33) % 100 >= 12
        })
        .unwrap();
        let c = Clearance::new(grid.clone());
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let p = Point::new(x, y);
                assert_eq!(c.get(p), brute(&grid, p), "{p}");
            }
        }
        assert_eq!(c.get(Point::new(37, 0)), 0);
        assert_eq!(c.largest(), c.padded().iter().copied().max().unwrap());
    }

    #[test]
    fn caps_at_255() {
        let c = Clearance::new(Grid::new(300, 300).unwrap());
        assert_eq!(c.get(Point::new(0, 0)), 255);
        assert_eq!(c.get(Point::new(100, 100)), 200);
        assert_eq!(c.get(Point::new(299, 299)), 1);
        assert_eq!(c.largest(), 255);
        assert!(c.fits(Point::new(0, 0), 255) && !c.fits(Point::new(0, 0), 256));
        assert!(!c.fits(Point::new(0, 0), 0));
    }

    #[test]
    fn sizes_and_their_grids() {
        let mut grid = Grid::from_ascii(
            "
            .....
            .....
            ..@..
            .....",
        )
        .unwrap();
        grid.set_weight(Point::new(0, 0), crate::Weight(300))
            .unwrap();
        let c = Clearance::new(grid);
        let g2 = c.grid_for_size(2);
        assert_eq!(g2.to_ascii(), "....@\n.@@.@\n.@@.@\n@@@@@\n");
        assert_eq!(g2.weight(Point::new(0, 0)), crate::Weight(300));
        assert_eq!(c.cells_per_size(3), vec![19, 8, 0]);
    }
}
