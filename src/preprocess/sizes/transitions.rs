//! The transitions of a hierarchy built for several unit sizes: every
//! crossing between clusters annotated with the largest unit it admits.

use super::super::clusters::{ClusterLayout, EntrancePolicy, Entrances};
use crate::grid::{CornerRule, Grid, Movement, Point};

/// Where a hierarchy built for several unit sizes
/// ([`HierarchyBuilder::max_unit_size`](crate::HierarchyBuilder::max_unit_size))
/// puts the transitions of the sizes above 1 (size 1's follow the
/// [`EntrancePolicy`]).
///
/// Measured on long queries (top 10 buckets) for sizes 2 and 3 on
/// sc1/Nightshade, dao/ost100d and mazes/maze512-4-0 (corridors 4 cells
/// wide), hierarchies for sizes 1 to 3: with `Ends` the mean suboptimality
/// was 0.03-0.51% (max 0.91%); `One` had 17-42% fewer nodes and built up to
/// twice as fast (the maze), but its mean suboptimality was 0.41-0.68% on
/// the two open maps and 0.94-1.94% in the maze, where a unit must then
/// cross every corridor border at a single cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SizeTransitions {
    /// Both ends of every entrance of the size (a transition already there
    /// is reused), as size 1 has: a unit crosses where a least-cost route
    /// hugs a corner. The default.
    #[default]
    Ends,
    /// One per entrance of the size, HAA*'s placement: none when a
    /// transition already in it admits the size, else one in the middle of
    /// the entrance's widest stretch. Fewer nodes, a faster build, longer
    /// paths where corridors fit a unit with little room to spare.
    One,
}

/// The largest size (up to the cap the values were clamped to) for which the
/// diagonal move between cells of clearance `a` and `b`, passing cells of
/// clearance `side1` and `side2`, is legal; 0 when never.
fn diagonal_clearance(movement: &Movement, a: u8, b: u8, side1: u8, side2: u8) -> u8 {
    let sides = match movement.corners {
        CornerRule::Never => side1.min(side2),
        CornerRule::IfOneFree => side1.max(side2),
        CornerRule::Always => u8::MAX,
    };
    a.min(b).min(sides)
}

/// A border between clusters: the column `at` (vertical) or row `at`
/// (horizontal) starts the second cluster.
#[derive(Clone, Copy)]
struct Border {
    vertical: bool,
    at: u32,
}

impl Border {
    /// The cell before the border at position `i` along it.
    #[inline(always)]
    fn a(self, i: u32) -> Point {
        if self.vertical {
            Point::new(self.at - 1, i)
        } else {
            Point::new(i, self.at - 1)
        }
    }

    /// The cell after the border at position `i` along it.
    #[inline(always)]
    fn b(self, i: u32) -> Point {
        if self.vertical {
            Point::new(self.at, i)
        } else {
            Point::new(i, self.at)
        }
    }
}

/// Finds the transitions (stage 2 of the sized build).
///
/// Along every border two clusters share, each cell pair `(a, b)` across it
/// admits units up to `min(clearance(a), clearance(b))`. For every size `k`,
/// the maximal runs of pairs admitting `k` are the entrances for `k` (runs
/// for `k + 1` nest inside runs for `k`; a size whose runs equal the
/// previous size's adds nothing). Size 1's entrances get transitions by the
/// entrance policy, a larger size's as [`SizeTransitions`] says. Each pair
/// is annotated with the largest size it admits. Diagonal moves where
/// four clusters meet are links too, and so is a diagonal move across a
/// border that no straight pair beside it bridges for some size (possible
/// only when corners may always be cut), so every size keeps every crossing.
pub(crate) fn find_transitions(
    grid: &Grid,
    clearance: &[u8],
    movement: &Movement,
    layout: ClusterLayout,
    policy: &EntrancePolicy,
    larger: SizeTransitions,
    max_size: u8,
) -> Entrances {
    let (w, h) = (grid.width(), grid.height());
    let clr = |x: u32, y: u32| clearance[grid.node(Point::new(x, y)).index()].min(max_size);
    let size = layout.size;
    // (cell a, cell b, clearance) before de-duplication.
    let mut pairs: Vec<(Point, Point, u8)> = Vec::new();
    let mut offsets = Vec::new();
    let mut entrances = 0u64;
    let mut admits: Vec<u8> = Vec::new();
    // Positions (along the segment) of the transitions placed on it.
    let mut placed: Vec<usize> = Vec::new();

    // One border segment: the pairs `(a(i), b(i))` for `i` in `from..=to`.
    let mut segment = |from: u32, to: u32, border: Border, pairs: &mut Vec<(Point, Point, u8)>| {
        let a = |i: u32| border.a(i);
        let b = |i: u32| border.b(i);
        admits.clear();
        admits.extend((from..=to).map(|i| {
            let (pa, pb) = (a(i), b(i));
            clr(pa.x, pa.y).min(clr(pb.x, pb.y))
        }));
        let top = admits.iter().copied().max().unwrap_or(0);
        placed.clear();
        for k in 1..=top {
            // Runs for `k` differ from runs for `k - 1` only where some pair
            // admits exactly `k - 1`.
            if k > 1 && !admits.contains(&(k - 1)) {
                continue;
            }
            let mut run_start = None;
            for i in 0..=admits.len() {
                let ok = i < admits.len() && admits[i] >= k;
                match (ok, run_start) {
                    (true, None) => run_start = Some(i),
                    (false, Some(s)) => {
                        run_start = None;
                        entrances += 1;
                        if k == 1 {
                            policy.offsets((i - s) as u32, &mut offsets);
                            placed.extend(offsets.iter().map(|o| s + *o as usize));
                        } else if larger == SizeTransitions::Ends {
                            placed.extend([s, i - 1]);
                        } else if !placed.iter().any(|j| (s..i).contains(j) && admits[*j] >= k) {
                            // One transition, in the middle of the run's
                            // widest stretch.
                            let best = admits[s..i].iter().copied().max().unwrap_or(k);
                            let first =
                                s + admits[s..i].iter().position(|a| *a == best).unwrap_or(0);
                            let len = admits[first..i].iter().take_while(|a| **a == best).count();
                            placed.push(first + (len - 1) / 2);
                        }
                    }
                    _ => {}
                }
            }
        }
        placed.sort_unstable();
        placed.dedup();
        for &j in placed.iter() {
            let at = from + j as u32;
            pairs.push((a(at), b(at), admits[j]));
        }
        // Diagonal crossings no straight pair beside them bridges.
        if movement.diagonals() {
            for i in from..to {
                let j = (i - from) as usize;
                let bridge = admits[j].max(admits[j + 1]);
                for (p, q, s1, s2) in [
                    (a(i), b(i + 1), b(i), a(i + 1)),
                    (a(i + 1), b(i), b(i + 1), a(i)),
                ] {
                    let d = diagonal_clearance(
                        movement,
                        clr(p.x, p.y),
                        clr(q.x, q.y),
                        clr(s1.x, s1.y),
                        clr(s2.x, s2.y),
                    );
                    if d > bridge {
                        entrances += 1;
                        pairs.push((p, q, d));
                    }
                }
            }
        }
    };
    for cy in 0..layout.rows {
        let (y0, y1) = (cy * size, ((cy + 1) * size).min(h) - 1);
        for cx in 1..layout.cols {
            let bx = cx * size;
            let border = Border {
                vertical: true,
                at: bx,
            };
            segment(y0, y1, border, &mut pairs);
        }
    }
    for cx in 0..layout.cols {
        let (x0, x1) = (cx * size, ((cx + 1) * size).min(w) - 1);
        for cy in 1..layout.rows {
            let by = cy * size;
            let border = Border {
                vertical: false,
                at: by,
            };
            segment(x0, x1, border, &mut pairs);
        }
    }
    // Where four clusters meet: the two diagonal moves across the corner.
    if movement.diagonals() {
        for cy in 1..layout.rows {
            for cx in 1..layout.cols {
                let (x, y) = (cx * size, cy * size);
                for ((ax, ay), (bx, by)) in [((x - 1, y - 1), (x, y)), ((x, y - 1), (x - 1, y))] {
                    let d = diagonal_clearance(
                        movement,
                        clr(ax, ay),
                        clr(bx, by),
                        clr(bx, ay),
                        clr(ax, by),
                    );
                    if d >= 1 {
                        entrances += 1;
                        pairs.push((Point::new(ax, ay), Point::new(bx, by), d));
                    }
                }
            }
        }
    }

    // Nodes: the distinct cells, grouped by cluster.
    let key = |p: Point| (layout.cluster_of(p), p.y, p.x);
    let mut cells: Vec<(u32, u32, u32)> = pairs
        .iter()
        .flat_map(|(a, b, _)| [key(*a), key(*b)])
        .collect();
    cells.sort_unstable();
    cells.dedup();
    let mut cluster_first = vec![0u32; layout.count() + 1];
    for (c, _, _) in &cells {
        cluster_first[*c as usize + 1] += 1;
    }
    for i in 0..layout.count() {
        cluster_first[i + 1] += cluster_first[i];
    }
    let index_of = |p: Point| -> u32 {
        cells
            .binary_search(&key(p))
            .expect("every paired cell is a node") as u32
    };
    let mut links: Vec<(u32, u32, u8)> = pairs
        .iter()
        .map(|(a, b, d)| (index_of(*a), index_of(*b), *d))
        .collect();
    links.sort_unstable();
    links.dedup();
    let clear = cells.iter().map(|(_, y, x)| clr(*x, *y)).collect();
    Entrances {
        layout,
        cells: cells
            .iter()
            .map(|(_, y, x)| grid.cell_index(Point::new(*x, *y)).0)
            .collect(),
        cluster_first,
        link_clear: links.iter().map(|l| l.2).collect(),
        links: links.iter().map(|l| (l.0, l.1)).collect(),
        clear,
        entrances,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    #[test]
    fn transitions_carry_the_largest_size_they_admit() {
        // Two 4x4 clusters side by side; the border at x = 4 has a 3-cell gap
        // in rows 0..3 (row 3 walled on the right) for size 1, of which rows
        // 0..2 admit size 2 as far as the clearance allows.
        let grid = Grid::from_ascii(
            "
            ........
            ........
            ........
            ....@...",
        )
        .unwrap();
        let c = crate::Clearance::new(grid.clone());
        let layout = ClusterLayout::new(&grid, 4);
        let t = find_transitions(
            &grid,
            c.padded(),
            &Movement::default(),
            layout,
            &EntrancePolicy::default(),
            SizeTransitions::Ends,
            3,
        );
        let p = Point::new;
        // Pairs across x = 3 | 4: rows 0..=2 (row 3 blocked at (4, 3)).
        let find = |q: Point| {
            t.cells
                .iter()
                .position(|x| *x == grid.cell_index(q).0)
                .map(|i| i as u32)
        };
        for (a, b) in [(p(3, 0), p(4, 0)), (p(3, 2), p(4, 2))] {
            let (ia, ib) = (find(a).unwrap(), find(b).unwrap());
            let link = t.links.iter().position(|l| *l == (ia.min(ib), ia.max(ib)));
            let want = c.get(a).min(c.get(b)).min(3);
            assert_eq!(link.map(|l| t.link_clear[l]), Some(want), "{a} | {b}");
        }
        assert!(
            t.clear
                .iter()
                .zip(&t.cells)
                .all(|(k, q)| *k == c.get(grid.point_of(crate::CellIndex(*q))).min(3))
        );
    }

    #[test]
    fn diagonal_clearance_follows_the_corner_rule() {
        let never = Movement::default();
        let one = Movement {
            corners: CornerRule::IfOneFree,
            ..never
        };
        let always = Movement {
            corners: CornerRule::Always,
            ..never
        };
        assert_eq!(diagonal_clearance(&never, 3, 4, 2, 5), 2);
        assert_eq!(diagonal_clearance(&one, 3, 4, 2, 5), 3);
        assert_eq!(diagonal_clearance(&always, 3, 4, 0, 0), 3);
        assert_eq!(diagonal_clearance(&never, 3, 4, 0, 5), 0);
    }
}
