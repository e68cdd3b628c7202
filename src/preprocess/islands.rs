//! Stage 1: islands, the connected components of passable cells.
//!
//! A flood fill under the movement rules labels every passable cell with its
//! component. Two cells on different islands have no path between them, so a
//! query across islands is answered "unreachable" without searching. (With
//! corner cutting forbidden, the 8-connected components are exactly the
//! 4-connected ones: a legal diagonal move has both its straight cells free.)

use crate::grid::{CornerRule, Grid, Movement};

/// Label of a blocked cell.
#[cfg(test)]
pub(crate) const NO_ISLAND: u32 = u32::MAX;

/// The islands of a map, the product of stage 1: how many, and their cells.
///
/// No label per cell is kept: the dead-end stage finds every cell's island
/// again (one depth-first tree per island, in the same order) and keeps it
/// in its block forest, and a label per cell would take a gigabyte on a
/// 16,384 x 16,384 map.
#[derive(Debug, Clone)]
pub struct Islands {
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

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        4 * self.sizes.len()
    }
}

/// The root of `a`'s set in a disjoint-set forest (`parent[r] == r` at a
/// root), halving the path on the way.
pub(crate) fn set_root(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let up = parent[parent[a as usize] as usize];
        parent[a as usize] = up;
        a = up;
    }
    a
}

/// Joins the sets of `a` and `b` under the lower of their roots, so that a
/// set's root is its first member.
pub(crate) fn join_sets(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (set_root(parent, a), set_root(parent, b));
    parent[ra.max(rb) as usize] = ra.min(rb);
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
    Islands {
        sizes: label_runs(grid, movement, |_, _, _| {}),
    }
}

/// The labelling of [`find_islands`]: calls `each_run(first, last, label)`
/// for every run of passable cells (padded nodes `first..=last`, row-major)
/// and returns the cells per island. A run's label is its island's number.
/// Runs come in row-major order, so an island's first run holds its first
/// cell.
pub(crate) fn label_runs(
    grid: &Grid,
    movement: &Movement,
    mut each_run: impl FnMut(usize, usize, u32),
) -> Vec<u32> {
    let reach = i64::from(movement.diagonals() && movement.corners == CornerRule::Always);
    let pw = grid.padded_width() as usize;
    let open = grid.passable_slice();
    // Runs as (first x, last x) in padded coordinates, row by row; padding
    // row 0 has none.
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
                // The earlier run stays the root, so labels follow first cells.
                join_sets(&mut parent, i as u32, m as u32);
                m += 1;
            }
        }
    }

    // Every run points at its root, the island's first run; then, in run
    // order, a root takes the next label and the others their root's
    // (labelled before them), in place.
    for i in 0..runs.len() {
        parent[i] = set_root(&mut parent, i as u32);
    }
    let mut sizes: Vec<u32> = Vec::new();
    for r in 0..grid.height() as usize {
        for i in row_runs(r) {
            let root = parent[i] as usize;
            if root == i {
                parent[i] = sizes.len() as u32;
                sizes.push(0);
            } else {
                parent[i] = parent[root];
            }
            let ((x0, x1), label) = (runs[i], parent[i]);
            sizes[label as usize] += x1 - x0 + 1;
            let row = (r + 1) * pw;
            each_run(row + x0 as usize, row + x1 as usize, label);
        }
    }
    sizes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Space;
    use crate::{CornerRule, Point};

    /// The label of every padded node ([`NO_ISLAND`] when blocked).
    fn node_labels(g: &Grid, m: &Movement) -> Vec<u32> {
        let mut labels = vec![NO_ISLAND; g.padded_len()];
        let sizes = label_runs(g, m, |first, last, label| labels[first..=last].fill(label));
        assert_eq!(sizes, find_islands(g, m).sizes);
        labels
    }

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
        let labels = node_labels(&g, &Movement::default());
        let l = |x, y| labels[g.node(Point::new(x, y)).index()];
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
            assert_eq!(node_labels(&g, &m), reference, "{m:?}");
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
