//! The transitions of a hierarchy built for several unit sizes: every
//! crossing between clusters annotated with the largest unit it admits.

use super::super::clusters::{Border as ClusterBorder, ClusterLayout, EntrancePolicy, Entrances};
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

/// What the transitions of a hierarchy for several sizes are placed by: the
/// grid, its clearance and the build's rules.
#[derive(Clone, Copy)]
pub(crate) struct TransitionRules<'a> {
    pub(crate) grid: &'a Grid,
    /// Clearance in the grid's padded layout.
    pub(crate) clearance: &'a [u8],
    pub(crate) movement: &'a Movement,
    pub(crate) layout: ClusterLayout,
    pub(crate) policy: &'a EntrancePolicy,
    pub(crate) larger: SizeTransitions,
    pub(crate) max_size: u8,
}

/// Reused buffers of [`TransitionRules::scan`].
#[derive(Debug, Default)]
pub(crate) struct ScanScratch {
    offsets: Vec<u32>,
    /// Per position along a segment: the largest size its pair admits.
    admits: Vec<u8>,
    /// Positions (along the segment) of the transitions placed on it.
    placed: Vec<usize>,
}

impl TransitionRules<'_> {
    /// The clearance of a cell, capped at the largest size.
    #[inline(always)]
    pub(crate) fn level(&self, p: Point) -> u8 {
        self.clearance[self.grid.node(p).index()].min(self.max_size)
    }

    /// Scans one border or corner: pushes its transition cell pairs
    /// (row-major indices, the first in the left, upper or upper cluster of
    /// the move) with the largest size each admits, and returns how many
    /// entrances (of every size) it holds.
    pub(crate) fn scan(
        &self,
        border: ClusterBorder,
        s: &mut ScanScratch,
        pairs: &mut Vec<(u32, u32)>,
        clear: &mut Vec<u8>,
    ) -> u64 {
        let size = self.layout.size;
        let (w, h) = (self.grid.width(), self.grid.height());
        let mut push = |a: Point, b: Point, d: u8| {
            pairs.push((self.grid.cell_index(a).0, self.grid.cell_index(b).0));
            clear.push(d);
        };
        // A side: the border's line `at` and its extent along the cluster.
        let side = |vertical: bool, across: u32, along: u32, extent: u32| {
            let from = along * size;
            let border = Border {
                vertical,
                at: across * size,
            };
            (from, (from + size).min(extent) - 1, border)
        };
        match border {
            ClusterBorder::Vertical { cx, cy } => {
                let (from, to, border) = side(true, cx, cy, h);
                self.segment(from, to, border, s, &mut push)
            }
            ClusterBorder::Horizontal { cx, cy } => {
                let (from, to, border) = side(false, cy, cx, w);
                self.segment(from, to, border, s, &mut push)
            }
            // Where four clusters meet: the two diagonal moves across the
            // corner.
            ClusterBorder::Corner { cx, cy } if self.movement.diagonals() => {
                let (x, y) = (cx * size, cy * size);
                let mut entrances = 0;
                for ((ax, ay), (bx, by)) in [((x - 1, y - 1), (x, y)), ((x, y - 1), (x - 1, y))] {
                    let p = Point::new;
                    let d = diagonal_clearance(
                        self.movement,
                        self.level(p(ax, ay)),
                        self.level(p(bx, by)),
                        self.level(p(bx, ay)),
                        self.level(p(ax, by)),
                    );
                    if d >= 1 {
                        entrances += 1;
                        push(p(ax, ay), p(bx, by), d);
                    }
                }
                entrances
            }
            ClusterBorder::Corner { .. } => 0,
        }
    }

    /// One border segment: the pairs `(a(i), b(i))` for `i` in `from..=to`.
    fn segment(
        &self,
        from: u32,
        to: u32,
        border: Border,
        s: &mut ScanScratch,
        push: &mut impl FnMut(Point, Point, u8),
    ) -> u64 {
        let a = |i: u32| border.a(i);
        let b = |i: u32| border.b(i);
        let mut entrances = 0;
        let (admits, placed, offsets) = (&mut s.admits, &mut s.placed, &mut s.offsets);
        admits.clear();
        admits.extend((from..=to).map(|i| self.level(a(i)).min(self.level(b(i)))));
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
                            self.policy.offsets((i - s) as u32, offsets);
                            placed.extend(offsets.iter().map(|o| s + *o as usize));
                        } else if self.larger == SizeTransitions::Ends {
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
            push(a(at), b(at), admits[j]);
        }
        // Diagonal crossings no straight pair beside them bridges.
        if self.movement.diagonals() {
            for i in from..to {
                let j = (i - from) as usize;
                let bridge = admits[j].max(admits[j + 1]);
                for (p, q, s1, s2) in [
                    (a(i), b(i + 1), b(i), a(i + 1)),
                    (a(i + 1), b(i), b(i + 1), a(i)),
                ] {
                    let d = diagonal_clearance(
                        self.movement,
                        self.level(p),
                        self.level(q),
                        self.level(s1),
                        self.level(s2),
                    );
                    if d > bridge {
                        entrances += 1;
                        push(p, q, d);
                    }
                }
            }
        }
        entrances
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
/// Each border is scanned on its own ([`TransitionRules::scan`]), so a
/// repair scans again only the borders whose clearance changed.
pub(crate) fn find_transitions(
    grid: &Grid,
    clearance: &[u8],
    movement: &Movement,
    layout: ClusterLayout,
    policy: &EntrancePolicy,
    larger: SizeTransitions,
    max_size: u8,
) -> Entrances {
    let rules = TransitionRules {
        grid,
        clearance,
        movement,
        layout,
        policy,
        larger,
        max_size,
    };
    let mut scratch = ScanScratch::default();
    let (mut pairs, mut clear) = (Vec::new(), Vec::new());
    let mut entrances = 0u64;
    for border in layout.borders() {
        entrances += rules.scan(border, &mut scratch, &mut pairs, &mut clear);
    }
    rules.entrances_from(&pairs, &clear, entrances)
}

impl TransitionRules<'_> {
    /// Nodes and annotated links from transition cell pairs and the largest
    /// size each admits (in any order, repeats allowed).
    fn entrances_from(&self, pairs: &[(u32, u32)], clear: &[u8], entrances: u64) -> Entrances {
        let mut e = Entrances::from_pairs(self.grid, self.layout, pairs, entrances);
        let width = self.grid.width();
        let cluster_of = |c: u32| self.layout.cluster_of(Point::new(c % width, c / width));
        let index_of = |c: u32| -> u32 {
            let k = cluster_of(c) as usize;
            let (a, b) = (e.cluster_first[k] as usize, e.cluster_first[k + 1] as usize);
            (a + e.cells[a..b]
                .binary_search(&c)
                .expect("every paired cell is a node")) as u32
        };
        let mut links: Vec<(u32, u32, u8)> = pairs
            .iter()
            .zip(clear)
            .map(|((a, b), d)| (index_of(*a), index_of(*b), *d))
            .collect();
        links.sort_unstable();
        links.dedup();
        e.clear = e.cells.iter().map(|c| self.cell_level(*c)).collect();
        e.links = links.iter().map(|l| (l.0, l.1)).collect();
        e.link_clear = links.iter().map(|l| l.2).collect();
        e
    }

    /// The capped clearance of a cell given by its row-major index.
    #[inline]
    pub(crate) fn cell_level(&self, c: u32) -> u8 {
        self.level(self.grid.point_of(crate::CellIndex(c)))
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
