//! Stage 1: islands, the connected components of passable cells.
//!
//! A flood fill under the movement rules labels every passable cell with its
//! component. Two cells on different islands have no path between them, so a
//! query across islands is answered "unreachable" without searching. (With
//! corner cutting forbidden, the 8-connected components are exactly the
//! 4-connected ones: a legal diagonal move has both its straight cells free.)

use crate::grid::{Grid, Movement, Node};

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
pub fn find_islands(grid: &Grid, movement: &Movement) -> Islands {
    let movement = &Grid::topology_movement(movement);
    let mut labels = vec![NO_ISLAND; grid.padded_len()];
    let mut sizes = Vec::new();
    let mut stack: Vec<Node> = Vec::new();
    for y in 0..grid.height() {
        for x in 0..grid.width() {
            let seed = grid.node(crate::Point::new(x, y));
            if !grid.open(seed) || labels[seed.index()] != NO_ISLAND {
                continue;
            }
            let label = sizes.len() as u32;
            let mut size = 0u32;
            labels[seed.index()] = label;
            stack.push(seed);
            while let Some(n) = stack.pop() {
                size += 1;
                grid.for_each_neighbor(n, movement, |m, _, _, _| {
                    if labels[m.index()] == NO_ISLAND {
                        labels[m.index()] = label;
                        stack.push(m);
                    }
                });
            }
            sizes.push(size);
        }
    }
    Islands { labels, sizes }
}

#[cfg(test)]
mod tests {
    use super::*;
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
