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
///
/// Stored per run of passable cells along a row, not per cell: a map's
/// islands take a few bytes per run (an open 16,384 x 16,384 map has 16,384
/// runs), where a label per cell would take a gigabyte.
#[derive(Debug, Clone)]
pub struct Islands {
    /// Padded width of the map, to split a node into row and column.
    padded_width: u32,
    /// Index into `runs` of each padded row's first run; one more entry than
    /// rows (padding rows have no runs).
    row_first: Vec<u32>,
    /// Runs of passable cells as (first x, last x), padded coordinates, row
    /// by row, left to right.
    runs: Vec<(u32, u32)>,
    /// Island of each run.
    run_label: Vec<u32>,
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

    /// The label of a padded node ([`NO_ISLAND`] when blocked or padding): a
    /// binary search among the runs of its row.
    pub(crate) fn label(&self, n: Node) -> u32 {
        let (y, x) = ((n.0 / self.padded_width) as usize, n.0 % self.padded_width);
        let Some(range) = self.row_first.get(y..y + 2) else {
            return NO_ISLAND;
        };
        let row = &self.runs[range[0] as usize..range[1] as usize];
        let k = row.partition_point(|(x0, _)| *x0 <= x);
        match k.checked_sub(1) {
            Some(k) if x <= row[k].1 => self.run_label[range[0] as usize + k],
            _ => NO_ISLAND,
        }
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        4 * (self.row_first.len() + 2 * self.runs.len() + self.run_label.len() + self.sizes.len())
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
    // Runs row by row; padding row 0 has none.
    let mut runs: Vec<(u32, u32)> = Vec::new();
    let mut row_first: Vec<u32> = Vec::with_capacity(grid.height() as usize + 3);
    row_first.push(0);
    for y in 1..=grid.height() as usize {
        row_first.push(runs.len() as u32);
        let row = &open[y * pw..(y + 1) * pw];
        let mut x = 1;
        while x <= grid.width() as usize {
            if row[x] {
                let start = x;
                while row[x + 1] {
                    x += 1;
                }
                runs.push((start as u32, x as u32));
            }
            x += 1;
        }
    }
    // The last real row's end, and the bottom padding row's (empty) end.
    row_first.push(runs.len() as u32);
    row_first.push(runs.len() as u32);
    // Runs of real row `r` (from 0).
    let row_runs = |r: usize| row_first[r + 1] as usize..row_first[r + 2] as usize;

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
        let (above, here) = (row_runs(r - 1), row_runs(r));
        let mut k = above.start;
        for i in here {
            let (a0, a1) = runs[i];
            // Skip runs above that end before this one (less `reach`) begins.
            while k < above.end && (runs[k].1 as i64) + reach < a0 as i64 {
                k += 1;
            }
            let mut m = k;
            while m < above.end && (runs[m].0 as i64) <= a1 as i64 + reach {
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

    // Every run points at its root, the island's first run; then, in run
    // order, a root takes the next label and the others their root's
    // (labelled before them), in place.
    for i in 0..runs.len() {
        parent[i] = find(&mut parent, i as u32);
    }
    let mut sizes: Vec<u32> = Vec::new();
    for (i, (x0, x1)) in runs.iter().enumerate() {
        let root = parent[i] as usize;
        if root == i {
            parent[i] = sizes.len() as u32;
            sizes.push(0);
        } else {
            parent[i] = parent[root];
        }
        sizes[parent[i] as usize] += x1 - x0 + 1;
    }
    Islands {
        padded_width: pw as u32,
        row_first,
        runs,
        run_label: parent,
        sizes,
    }
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
            let labels: Vec<u32> = (0..g.padded_len() as u32)
                .map(|n| isl.label(Node(n)))
                .collect();
            assert_eq!(labels, reference, "{m:?}");
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
