//! Connected components for every unit size at once, as one forest.
//!
//! The grid of size `k + 1` ("clearance `>= k + 1`") is a subset of the grid
//! of size `k`, and every move legal for size `k + 1` is legal for size `k`,
//! so each component for size `k + 1` lies inside exactly one component for
//! size `k`. The components of all sizes therefore form a forest: level `k`
//! holds the components for size `k`, each pointing to the one of level
//! `k - 1` that contains it.
//!
//! A cell stores only its component at its own top level (its clearance,
//! capped at the largest size); its component for a smaller size `k` is
//! reached by following parents down, at most `max_size - 1` steps. Two cells
//! (where a unit of size `k` fits) are connected for size `k` exactly when
//! those walks end on the same component: an O(max_size) test, no search.
//!
//! Built like islands, by union-find, but adding cells level by level from
//! the largest size down (a Kruskal order): after level `k` the union-find
//! holds exactly the components for size `k`. Connectivity for every size
//! only needs the straight neighbours unless diagonal moves may pass two
//! blocked corners ([`CornerRule::Always`]): a legal diagonal with one free
//! side cell is two legal straight moves through it.

use crate::grid::{CornerRule, Grid, Movement};
use crate::packed::Column32;
use crate::tiled::TileColumn;

/// No component (a blocked cell).
pub(crate) const NONE: u32 = u32::MAX;

/// The component forest of every size up to a maximum.
#[derive(Debug, Clone)]
pub(crate) struct SizeComponents {
    /// Per cell (row-major): its component at its top level; NONE when
    /// blocked. Stored once per run of equal labels.
    cell_comp: TileColumn,
    /// Per component: the component one level down holding it (NONE at level 1).
    parent: Column32,
    /// Components per size, index `k - 1`.
    per_size: Vec<u32>,
    /// Cells per top level (clearance capped at the largest size), index
    /// `0..=max_size` (level 0: the blocked cells).
    level_cells: Vec<u64>,
}

fn find(parent: &mut [u32], mut a: u32) -> u32 {
    while parent[a as usize] != a {
        let up = parent[parent[a as usize] as usize];
        parent[a as usize] = up;
        a = up;
    }
    a
}

/// Numbers the components of one level as their roots are met.
struct Ids<'a> {
    root_id: &'a mut [u32],
    root_level: &'a mut [u8],
    parent: &'a mut Vec<u32>,
    rep: &'a mut Vec<u32>,
    level: u8,
}

impl Ids<'_> {
    /// The id at this level of the component holding `cell`, numbering it
    /// on first sight.
    fn of(&mut self, uf: &mut [u32], cell: u32) -> u32 {
        let r = find(uf, cell) as usize;
        if self.root_level[r] != self.level {
            self.root_level[r] = self.level;
            self.root_id[r] = self.parent.len() as u32;
            self.parent.push(NONE);
            self.rep.push(r as u32);
        }
        self.root_id[r]
    }
}

impl SizeComponents {
    /// The forest of sizes `1..=max_size` on `grid`, whose clearance (in
    /// the grid's padded layout) is `values`.
    pub(crate) fn build(grid: &Grid, values: &[u8], movement: &Movement, max_size: u8) -> Self {
        let pw = grid.padded_width() as usize;
        let (w, h) = (grid.width() as usize, grid.height() as usize);
        let level = |i: usize| values[i].min(max_size);
        // Cells (padded indices) bucketed by level, by counting sort.
        let mut first = vec![0usize; max_size as usize + 2];
        for y in 1..=h {
            for x in 1..=w {
                first[level(y * pw + x) as usize + 1] += 1;
            }
        }
        let level_cells = first[1..].iter().map(|n| *n as u64).collect();
        for l in 0..=max_size as usize {
            first[l + 1] += first[l];
        }
        let mut slot = first.clone();
        let mut order = vec![0u32; w * h];
        for y in 1..=h {
            for x in 1..=w {
                let i = y * pw + x;
                let l = level(i) as usize;
                order[slot[l]] = i as u32;
                slot[l] += 1;
            }
        }

        let diagonal = movement.diagonals() && movement.corners == CornerRule::Always;
        let pw_i = pw as isize;
        // Each pair of neighbours is joined once: when the later of the two
        // is added (the one of lower level), or from the earlier in scan
        // order ("forward") when both share a level.
        let mut forward: Vec<isize> = vec![1, pw_i];
        let mut backward: Vec<isize> = vec![-1, -pw_i];
        if diagonal {
            forward.extend([pw_i + 1, pw_i - 1]);
            backward.extend([-pw_i - 1, -pw_i + 1]);
        }
        let mut uf: Vec<u32> = (0..values.len() as u32).collect();
        let mut root_id = vec![NONE; values.len()];
        let mut root_level = vec![0u8; values.len()];
        let mut cell_comp = vec![NONE; w * h];
        let mut parent: Vec<u32> = Vec::new();
        let mut rep: Vec<u32> = Vec::new();
        let mut per_size = vec![0u32; max_size as usize];
        // The components of the level above: ids `above.0..above.1`.
        let mut above = (0u32, 0u32);
        let unpadded = |i: usize| (i / pw - 1) * w + (i % pw - 1);
        for l in (1..=max_size).rev() {
            let cells = &order[first[l as usize]..first[l as usize + 1]];
            for &c in cells {
                let mut join = |d: usize| {
                    let (a, b) = (find(&mut uf, c), find(&mut uf, d as u32));
                    if a != b {
                        uf[a.max(b) as usize] = a.min(b);
                    }
                };
                for off in &forward {
                    let d = (c as isize + off) as usize;
                    if level(d) >= l {
                        join(d);
                    }
                }
                for off in &backward {
                    let d = (c as isize + off) as usize;
                    if level(d) > l {
                        join(d);
                    }
                }
            }
            let start = parent.len() as u32;
            let mut ids = Ids {
                root_id: &mut root_id,
                root_level: &mut root_level,
                parent: &mut parent,
                rep: &mut rep,
                level: l,
            };
            for comp in above.0..above.1 {
                let id = ids.of(&mut uf, ids.rep[comp as usize]);
                ids.parent[comp as usize] = id;
            }
            for &c in cells {
                cell_comp[unpadded(c as usize)] = ids.of(&mut uf, c);
            }
            per_size[l as usize - 1] = parent.len() as u32 - start;
            above = (start, parent.len() as u32);
        }
        SizeComponents {
            cell_comp: TileColumn::pack_slice(&cell_comp, NONE),
            parent: Column32::pack(parent),
            per_size,
            level_cells,
        }
    }
}

impl SizeComponents {
    /// Whether cells `a` and `b` (row-major indices, with top levels `la` and
    /// `lb`, both `>= size`) are connected for a unit of `size`.
    #[inline]
    pub(crate) fn connected(&self, a: usize, la: u8, b: usize, lb: u8, size: u8) -> bool {
        debug_assert!(la >= size && lb >= size && size >= 1);
        self.component(a, la, size) == self.component(b, lb, size)
    }

    /// The component for `size` of cell `c` (row-major, of top level
    /// `level >= size`).
    #[inline]
    pub(crate) fn component(&self, c: usize, level: u8, size: u8) -> u32 {
        let (mut comp, mut l) = (self.cell_comp.get(c), level);
        while l > size {
            comp = self.parent.get(comp as usize);
            l -= 1;
        }
        comp
    }

    /// Sets the component of cell `c` (row-major), whose top level went
    /// from `old` to `new`, at its new top level (NONE when blocked), for a
    /// repair that keeps every component's cells connected.
    pub(crate) fn set_cell(&mut self, c: usize, comp: u32, old: u8, new: u8) {
        self.cell_comp.set(c, comp);
        self.level_cells[old as usize] -= 1;
        self.level_cells[new as usize] += 1;
    }

    /// Cells per top level, index `0..=max_size` (level 0: blocked cells).
    pub(crate) fn cells_per_level(&self) -> &[u64] {
        &self.level_cells
    }

    /// Components per size, index `k - 1`.
    pub(crate) fn per_size(&self) -> &[u32] {
        &self.per_size
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.cell_comp.memory_bytes()
            + self.parent.memory_bytes()
            + self.per_size.len() * 4
            + self.level_cells.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, Point};

    /// Connectivity for one size by flood fill over the footprint rule.
    fn flood(grid: &Grid, m: &Movement, size: u32, from: Point) -> Vec<bool> {
        let w = grid.width();
        let mut seen = vec![false; grid.len()];
        let mut stack = vec![from];
        seen[(from.y * w + from.x) as usize] = true;
        while let Some(p) = stack.pop() {
            for (dx, dy) in crate::grid::DIRECTIONS {
                let (x, y) = (p.x as i64 + dx as i64, p.y as i64 + dy as i64);
                if x < 0 || y < 0 || x >= w as i64 || y >= grid.height() as i64 {
                    continue;
                }
                let q = Point::new(x as u32, y as u32);
                let i = (q.y * w + q.x) as usize;
                if !seen[i] && crate::sized_legal_move(grid, m, size, p, q) {
                    seen[i] = true;
                    stack.push(q);
                }
            }
        }
        seen
    }

    #[test]
    fn agrees_with_flood_fill_for_every_size() {
        let mut x = 99u64;
        let grid = Grid::from_fn(23, 19, |_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % 100 >= 18
        })
        .unwrap();
        let c = crate::Clearance::new(grid.clone());
        for m in [
            Movement::default(),
            Movement::FOUR,
            Movement {
                corners: CornerRule::Always,
                ..Movement::default()
            },
        ] {
            let max = 3u8;
            let comps = SizeComponents::build(&grid, c.padded(), &m, max);
            for size in 1..=max {
                let fits: Vec<Point> = grid
                    .passable_points()
                    .filter(|p| c.fits(*p, size as u32))
                    .collect();
                for a in fits.iter().step_by(3) {
                    let reach = flood(&grid, &m, size as u32, *a);
                    for b in &fits {
                        let (ia, ib) = (grid.cell_index(*a).index(), grid.cell_index(*b).index());
                        let (la, lb) = (c.get(*a).min(max), c.get(*b).min(max));
                        assert_eq!(
                            comps.connected(ia, la, ib, lb, size),
                            reach[ib],
                            "{m:?} size {size}: {a} -> {b}"
                        );
                    }
                }
            }
        }
    }
}
