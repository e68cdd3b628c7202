//! Stage 1: islands, the connected components of passable cells.
//!
//! A flood fill under the movement rules labels every passable cell with its
//! component. Two cells on different islands have no path between them, so a
//! query across islands is answered "unreachable" without searching. (With
//! corner cutting forbidden, the 8-connected components are exactly the
//! 4-connected ones: a legal diagonal move has both its straight cells free.)

use crate::grid::{CornerRule, Grid, Movement, Node};

/// Label of a blocked cell.
pub(crate) const NO_ISLAND: u32 = u32::MAX;

/// Island labels for every cell, the product of stage 1.
#[derive(Debug, Clone)]
pub struct Islands {
    /// Label per padded node; [`NO_ISLAND`] on blocked cells and padding.
    pub(crate) labels: Vec<u32>,
    /// Cells per island.
    pub(crate) sizes: Vec<u32>,
}

impl Islands {
    /// Number of islands.
    pub fn count(&self) -> usize {
        self.sizes.len()
    }

    /// Cells on each island, by label.
    pub fn sizes(&self) -> &[u32] {
        &self.sizes
    }

    /// The label of a padded node.
    #[inline]
    pub(crate) fn label(&self, n: Node) -> u32 {
        self.labels[n.index()]
    }
}

/// Labels the islands of `grid` under `movement` (stage 1).
///
/// Islands are numbered in row-major order of their first cell. The labelling
/// works on runs of passable cells along each row, joined (union-find) with
/// the runs of the row above that they touch: overlapping runs when diagonal
/// moves need a free straight cell beside them (then islands are exactly the
/// 4-connected components), runs overlapping or meeting at a corner when
/// corners may always be cut.
pub fn find_islands(grid: &Grid, movement: &Movement) -> Islands {
    let reach = i64::from(movement.diagonals() && movement.corners == CornerRule::Always);
    let pw = grid.padded_width() as usize;
    let open = grid.passable_slice();
    // Runs as (row, first x, last x) in padded coordinates, row by row.
    let mut runs: Vec<(u32, u32, u32)> = Vec::new();
    let mut row_first = Vec::with_capacity(grid.height() as usize + 1);
    for y in 1..=grid.height() as usize {
        row_first.push(runs.len());
        let row = &open[y * pw..(y + 1) * pw];
        let mut x = 1;
        while x <= grid.width() as usize {
            if row[x] {
                let start = x;
                while row[x + 1] {
                    x += 1;
                }
                runs.push((y as u32, start as u32, x as u32));
            }
            x += 1;
        }
    }
    row_first.push(runs.len());

    let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
    fn find(parent: &mut [u32], mut a: u32) -> u32 {
        while parent[a as usize] != a {
            let up = parent[parent[a as usize] as usize];
            parent[a as usize] = up;
            a = up;
        }
        a
    }
    for r in 1..grid.height() as usize {
        let (above, here) = (
            row_first[r - 1]..row_first[r],
            row_first[r]..row_first[r + 1],
        );
        let mut k = above.start;
        for i in here {
            let (_, a0, a1) = runs[i];
            // Skip runs above that end before this one (less `reach`) begins.
            while k < above.end && (runs[k].2 as i64) + reach < a0 as i64 {
                k += 1;
            }
            let mut m = k;
            while m < above.end && (runs[m].1 as i64) <= a1 as i64 + reach {
                let (ra, rb) = (find(&mut parent, i as u32), find(&mut parent, m as u32));
                if ra != rb {
                    // The earlier run stays the root, so labels follow first cells.
                    let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
                    parent[hi as usize] = lo;
                }
                m += 1;
            }
        }
    }

    let mut labels = vec![NO_ISLAND; grid.padded_len()];
    let mut label_of_root = vec![NO_ISLAND; runs.len()];
    let mut sizes: Vec<u32> = Vec::new();
    for (i, (y, x0, x1)) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        if label_of_root[root] == NO_ISLAND {
            label_of_root[root] = sizes.len() as u32;
            sizes.push(0);
        }
        let label = label_of_root[root];
        sizes[label as usize] += x1 - x0 + 1;
        let row = *y as usize * pw;
        labels[row + *x0 as usize..=row + *x1 as usize].fill(label);
    }
    Islands { labels, sizes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Space;
    use crate::{CornerRule, Point};

    #[test]
    fn labels_components() {
        let g = Grid::from_ascii(
            "
            ..@..
            ..@..
            @@@@.
            .@...",
        )
        .unwrap();
        let isl = find_islands(&g, &Movement::default());
        assert_eq!(isl.count(), 3);
        let l = |x, y| isl.label(g.node(Point::new(x, y)));
        assert_eq!(l(0, 0), l(1, 1));
        assert_eq!(l(3, 0), l(2, 3));
        assert_ne!(l(0, 0), l(3, 0));
        assert_ne!(l(0, 3), l(0, 0));
        assert_eq!(isl.sizes().iter().sum::<u32>() as usize, g.passable_count());
    }

    #[test]
    fn matches_a_flood_fill_on_awkward_shapes() {
        // U shapes, diagonal contacts and single cells, under every rule.
        let g = Grid::from_fn(23, 17, |p| (p.x * 7 + p.y * 5 + p.x * p.y) % 5 != 0).unwrap();
        for m in Movement::every_rule() {
            let isl = find_islands(&g, &m);
            // Reference: a depth-first flood fill with the movement's moves.
            let mut reference = vec![NO_ISLAND; g.padded_len()];
            let mut next = 0;
            for p in g.passable_points() {
                let seed = g.node(p);
                if reference[seed.index()] != NO_ISLAND {
                    continue;
                }
                let mut stack = vec![seed];
                reference[seed.index()] = next;
                while let Some(n) = stack.pop() {
                    crate::engine::Plain::new(&g, &m).for_each_neighbor(n, |q, _, _, _| {
                        if reference[q.index()] == NO_ISLAND {
                            reference[q.index()] = next;
                            stack.push(q);
                        }
                    });
                }
                next += 1;
            }
            assert_eq!(isl.labels, reference, "{m:?}");
            assert_eq!(isl.count(), next as usize);
        }
    }

    #[test]
    fn corner_cutting_joins_diagonal_cells() {
        let g = Grid::from_ascii(".@\n@.").unwrap();
        assert_eq!(find_islands(&g, &Movement::default()).count(), 2);
        let cut = Movement {
            corners: CornerRule::Always,
            ..Movement::default()
        };
        assert_eq!(find_islands(&g, &cut).count(), 1);
    }
}
