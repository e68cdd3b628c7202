//! Clearance repair: after cells open or close, the clearance (the largest
//! free square with its top-left corner on a cell, see
//! [`Clearance`]) is computed again only where it can
//! change.
//!
//! A cell's clearance depends on its own passability and on the clearance
//! of its right, lower and lower-right neighbours, so a change spreads only
//! left and up, and stops where a value comes out unchanged. Rows are
//! recomputed from the lowest changed one upwards, each from its rightmost
//! candidate leftwards: a row's candidates are its changed cells and the
//! cells above a change in the row below (and one to the left); the walk
//! left stops at the first unchanged value past them, and the rows stop at
//! the first one above the edits where nothing changed. A change therefore
//! costs about the cells whose clearance changes, at most the 255 x 255
//! square above and left of it.

use crate::grid::{Clearance, Grid, Point};

/// Recomputes `values` (clearance in the padded layout of `grid`, which
/// already holds the edits) after the cells `changed` (sorted by row, then
/// column) opened or closed. Pushes onto `levels` every cell whose
/// clearance capped at `max` changed, with its old capped value, row by row
/// from the bottom.
pub(crate) fn repair_clearance(
    grid: &Grid,
    values: &mut [u8],
    changed: &[Point],
    max: u8,
    levels: &mut Vec<(Point, u8)>,
) {
    let Some(last) = changed.last() else {
        return;
    };
    let pw = grid.padded_width() as usize;
    let open = grid.passable_slice();
    // The changed columns of the row below: (leftmost, rightmost).
    let mut below: Option<(u32, u32)> = None;
    let mut k = changed.len();
    for y in (0..=last.y).rev() {
        let (mut lo, mut hi) = (u32::MAX, 0u32);
        while k > 0 && changed[k - 1].y == y {
            lo = lo.min(changed[k - 1].x);
            hi = hi.max(changed[k - 1].x);
            k -= 1;
        }
        if let Some((bl, bh)) = below {
            lo = lo.min(bl.saturating_sub(1));
            hi = hi.max(bh);
        }
        if lo == u32::MAX {
            if k == 0 {
                break;
            }
            continue;
        }
        let row = (y as usize + 1) * pw;
        let mut row_changed: Option<(u32, u32)> = None;
        let mut x = hi;
        loop {
            let i = row + x as usize + 1;
            let v = if open[i] {
                let least = values[i + 1].min(values[i + pw]).min(values[i + pw + 1]);
                (1 + least as u16).min(Clearance::CAP as u16) as u8
            } else {
                0
            };
            let old = values[i];
            if v != old {
                values[i] = v;
                row_changed = Some(row_changed.map_or((x, x), |(a, b)| (a.min(x), b.max(x))));
                if v.min(max) != old.min(max) {
                    levels.push((Point::new(x, y), old.min(max)));
                }
            } else if x <= lo {
                break;
            }
            if x == 0 {
                break;
            }
            x -= 1;
        }
        below = row_changed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::clearance_values;

    /// A deterministic pseudo-random stream.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            x >> 33
        }
    }

    /// Every cell of the map.
    fn all_points(grid: &Grid) -> impl Iterator<Item = Point> + '_ {
        (0..grid.height()).flat_map(move |y| (0..grid.width()).map(move |x| Point::new(x, y)))
    }

    /// Applies `cells` toggled, repairs, and checks against a full
    /// recomputation: the values and the cells whose capped level changed.
    fn check(grid: &mut Grid, values: &mut Vec<u8>, cells: &[Point], max: u8) {
        let before = values.clone();
        let mut sorted = cells.to_vec();
        sorted.sort_unstable_by_key(|p| (p.y, p.x));
        sorted.dedup();
        for p in &sorted {
            let open = grid.is_passable(*p);
            grid.set_passable(*p, !open).unwrap();
        }
        let mut levels = Vec::new();
        repair_clearance(grid, values, &sorted, max, &mut levels);
        let (want, _) = clearance_values(grid);
        for (p, old) in &levels {
            assert_eq!(*old, before[grid.node(*p).index()].min(max), "{p}");
        }
        let mut levels: Vec<Point> = levels.iter().map(|(p, _)| *p).collect();
        assert_eq!(*values, want, "after toggling {sorted:?}");
        let mut expected: Vec<Point> = all_points(grid)
            .filter(|p| {
                let i = grid.node(*p).index();
                before[i].min(max) != want[i].min(max)
            })
            .collect();
        expected.sort_unstable_by_key(|p| (p.y, p.x));
        levels.sort_unstable_by_key(|p| (p.y, p.x));
        assert_eq!(levels, expected, "capped changes after {sorted:?}");
    }

    #[test]
    fn repairs_equal_a_recomputation() {
        let mut next = stream(17);
        for (w, h, density) in [(23, 17, 10), (40, 40, 3), (9, 31, 30), (64, 8, 0)] {
            let mut grid = Grid::from_fn(w, h, |_| next() % 100 >= density).unwrap();
            let (mut values, _) = clearance_values(&grid);
            for round in 0..60 {
                // A single cell, a small block, or cells scattered over the map.
                let cells: Vec<Point> = match round % 3 {
                    0 => vec![Point::new(next() as u32 % w, next() as u32 % h)],
                    1 => {
                        let (x, y) = (next() as u32 % w, next() as u32 % h);
                        let (bw, bh) = (1 + next() as u32 % 4, 1 + next() as u32 % 4);
                        (y..(y + bh).min(h))
                            .flat_map(|y| (x..(x + bw).min(w)).map(move |x| Point::new(x, y)))
                            .collect()
                    }
                    _ => (0..5)
                        .map(|_| Point::new(next() as u32 % w, next() as u32 % h))
                        .collect(),
                };
                check(&mut grid, &mut values, &cells, 1 + (round % 4) as u8);
            }
        }
    }

    #[test]
    fn a_change_spreads_up_and_left_only() {
        // An open 300x300 field: closing (200, 200) lowers clearance only in
        // the square above and left of it, as far as 255 cells, and the
        // capped values only within `max - 1` of it.
        let mut grid = Grid::new(300, 300).unwrap();
        let (mut values, _) = clearance_values(&grid);
        let before = values.clone();
        let p = Point::new(200, 200);
        grid.set_passable(p, false).unwrap();
        let mut levels = Vec::new();
        repair_clearance(&grid, &mut values, &[p], 3, &mut levels);
        assert_eq!(values, clearance_values(&grid).0);
        for q in all_points(&grid) {
            let i = grid.node(q).index();
            if values[i] != before[i] {
                assert!(q.x <= p.x && q.y <= p.y, "{q} changed");
            }
        }
        levels.sort_unstable_by_key(|(q, _)| (q.y, q.x));
        let want: Vec<(Point, u8)> = (198..=200)
            .flat_map(|y| (198..=200).map(move |x| (Point::new(x, y), 3)))
            .collect();
        assert_eq!(levels, want);
        // Opening it again restores every value.
        grid.set_passable(p, true).unwrap();
        levels.clear();
        repair_clearance(&grid, &mut values, &[p], 3, &mut levels);
        assert_eq!(values, before);
        assert_eq!(levels.len(), 9);
    }
}
