//! Stage 3: square clusters and the entrances between them.
//!
//! The map is cut into `size x size` clusters (the last row and column may be
//! smaller). Along every border two clusters share, an *entrance* is a maximal
//! run of cell pairs passable on both sides; each entrance gets transition
//! cells on both sides, joined by an inter-cluster edge (one straight move).
//! Where four clusters meet, a diagonal move between two diagonally opposite
//! clusters gets an entrance of its own, so no least-cost route is lost to
//! corners.
//!
//! How many transitions an entrance gets is [`EntrancePolicy`]: one in the
//! middle of a short entrance, both ends of a longer one, plus evenly spaced
//! ones so that no two are more than `max_gap` cells apart.

use crate::engine::Rect;
use crate::grid::{CornerRule, FastDiv, Grid, Movement, Point};

/// How transition cells are placed along an entrance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntrancePolicy {
    /// Entrances shorter than this get one transition, in the middle.
    pub single_below: u32,
    /// Largest gap between consecutive transitions along a long entrance
    /// (0 = only the two ends).
    pub max_gap: u32,
}

impl Default for EntrancePolicy {
    /// Transitions at both ends of every entrance wider than one cell, and at
    /// most 8 cells apart along long ones: chosen by measurement, it keeps
    /// paths through corridors and wide gaps within about 1% of optimal (one
    /// transition in the middle of short entrances costs 2-3% on mazes). A
    /// builder not told a policy picks [`EntrancePolicy::ENDS`] instead on
    /// large maps.
    fn default() -> Self {
        EntrancePolicy {
            single_below: 2,
            max_gap: 8,
        }
    }
}

impl EntrancePolicy {
    /// Transitions at both ends of every entrance wider than one cell, and
    /// none between them: what a builder picks, unless told a policy, on a
    /// large map of open ground (see [`EntrancePolicy::for_map`]). Where
    /// open ground crosses whole borders (StarCraft's large maps) it makes
    /// about a third fewer transitions than the default, so a smaller
    /// cluster graph to search and to contract; its paths bend at the ends
    /// of wide entrances, which a wider smoothing window straightens.
    pub const ENDS: EntrancePolicy = EntrancePolicy {
        single_below: 2,
        max_gap: 0,
    };

    /// The policy a builder not told one picks for `grid` cut into clusters
    /// of `cluster_size`: [`EntrancePolicy::ENDS`] on a map of
    /// [`LARGE_MAP_CELLS`](crate::LARGE_MAP_CELLS) or more where at least a
    /// fifth of the clusters holding passable cells hold no wall, the
    /// default otherwise.
    ///
    /// Where open ground fills whole clusters, the bends the ends leave are
    /// in sight of each other and smoothing straightens them; among walls
    /// they stay. Measured 2026-11-28 (contracted, mean suboptimality
    /// against exact A*): StarCraft's large maps have 23-59% of their
    /// clusters open, and the ends take the six largest from 0.099% to
    /// 0.177% at 1.2x the speed, the first move 23 -> 18 us and the slowest
    /// build 108-113 -> 58-60 ms. Dragon Age's large maps have 3-18% (the
    /// ends: 0.253% -> 0.345% in all, no faster); generated 1024x1024 rooms,
    /// caves and mixed maps none, and the ends double their suboptimality
    /// (rooms 0.47% -> 1.05%, caves 0.67% -> 1.09%, mixed 0.47% -> 0.78%;
    /// random queries) for 5-13% of speed.
    pub fn for_map(grid: &Grid, cluster_size: u32) -> EntrancePolicy {
        if (grid.len() as u64) < crate::LARGE_MAP_CELLS {
            return EntrancePolicy::default();
        }
        let (open, holding) = open_clusters(grid, cluster_size);
        if open * 5 >= holding && holding > 0 {
            EntrancePolicy::ENDS
        } else {
            EntrancePolicy::default()
        }
    }

    /// Offsets (from the run's first cell) of the transitions of a run of `len` cells.
    pub(crate) fn offsets(&self, len: u32, out: &mut Vec<u32>) {
        out.clear();
        if len == 0 {
            return;
        }
        if len < self.single_below.max(1) {
            out.push((len - 1) / 2);
            return;
        }
        out.push(0);
        let last = len - 1;
        if self.max_gap > 0 && last > self.max_gap {
            let pieces = last.div_ceil(self.max_gap);
            for i in 1..pieces {
                out.push(i * last / pieces);
            }
        }
        if last > 0 {
            out.push(last);
        }
    }
}

/// Of `grid`'s clusters of `size` that hold a passable cell, how many hold
/// no wall, and how many there are: `(open, holding)`.
fn open_clusters(grid: &Grid, size: u32) -> (usize, usize) {
    let layout = ClusterLayout::new(grid, size);
    let (pw, passable) = (grid.padded_width() as usize, grid.passable_slice());
    let (mut open, mut holding) = (0, 0);
    for c in 0..layout.count() as u32 {
        let (x0, y0, x1, y1) = layout.bounds(c);
        let (mut free, mut cells) = (0, 0);
        for y in y0..=y1 {
            let row = (y as usize + 1) * pw + 1;
            let run = &passable[row + x0 as usize..=row + x1 as usize];
            free += run.iter().filter(|&&p| p).count();
            cells += run.len();
        }
        holding += usize::from(free > 0);
        open += usize::from(free == cells);
    }
    (open, holding)
}

/// The cluster grid: which cluster a cell is in and each cluster's rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterLayout {
    /// Side of a cluster in cells.
    pub size: u32,
    /// Clusters per row.
    pub cols: u32,
    /// Clusters per column.
    pub rows: u32,
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Division by `size` and by `cols` with one multiplication each:
    /// `cluster_of` and `bounds` run once per edge or cell in the load
    /// check and the queries' connection.
    by_size: FastDiv,
    by_cols: FastDiv,
}

impl ClusterLayout {
    /// The layout of `size`-cell clusters over `grid`.
    pub fn new(grid: &Grid, size: u32) -> Self {
        ClusterLayout::for_size(grid.width(), grid.height(), size)
    }

    /// The layout of a `width x height` map, when only its size is known.
    pub(crate) fn for_size(width: u32, height: u32, size: u32) -> Self {
        let size = size.max(1);
        let cols = width.div_ceil(size);
        ClusterLayout {
            size,
            cols,
            rows: height.div_ceil(size),
            width,
            height,
            by_size: FastDiv::new(size),
            by_cols: FastDiv::new(cols),
        }
    }

    /// Number of clusters.
    pub fn count(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// The cluster holding `p`.
    #[inline]
    pub fn cluster_of(&self, p: Point) -> u32 {
        self.by_size.div(p.y) * self.cols + self.by_size.div(p.x)
    }

    /// The cells of cluster `c` as inclusive bounds `(x0, y0, x1, y1)`.
    #[inline]
    pub fn bounds(&self, c: u32) -> (u32, u32, u32, u32) {
        let (cy, cx) = self.by_cols.div_rem(c);
        let x0 = cx * self.size;
        let y0 = cy * self.size;
        (
            x0,
            y0,
            (x0 + self.size).min(self.width) - 1,
            (y0 + self.size).min(self.height) - 1,
        )
    }
}

/// Transition cells and the moves between clusters, the product of stage 3.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrances {
    pub(crate) layout: ClusterLayout,
    /// Transition cells (row-major indices), grouped by cluster, sorted within.
    pub(crate) cells: Vec<u32>,
    /// `cells[cluster_first[c]..cluster_first[c + 1]]` are cluster `c`'s.
    pub(crate) cluster_first: Vec<u32>,
    /// Inter-cluster moves between transition nodes (indices into `cells`),
    /// each listed once; the move is legal both ways.
    pub(crate) links: Vec<(u32, u32)>,
    /// Number of entrances found.
    pub(crate) entrances: u64,
    /// Built for several unit sizes: per transition, its cell's clearance
    /// capped at the largest size (empty otherwise).
    pub(crate) clear: Vec<u8>,
    /// Built for several unit sizes: per link, the largest size whose unit
    /// can make the move (empty otherwise).
    pub(crate) link_clear: Vec<u8>,
}

impl Entrances {
    /// Number of transition cells (abstract nodes).
    pub fn transitions(&self) -> usize {
        self.cells.len()
    }

    /// Number of entrances.
    pub fn entrances(&self) -> u64 {
        self.entrances
    }

    /// The cluster layout.
    pub fn layout(&self) -> &ClusterLayout {
        &self.layout
    }

    /// Each node's links, both ways, in link order, as compressed rows of
    /// targets: `to[first[v]..first[v + 1]]`. `placed(slot, link)` is told
    /// where each link's end went (every node of `links` must exist).
    pub(crate) fn link_rows(&self, mut placed: impl FnMut(usize, usize)) -> (Vec<u32>, Vec<u32>) {
        let nodes = self.cells.len();
        let mut first = vec![0u32; nodes + 1];
        for (a, b) in &self.links {
            first[*a as usize + 1] += 1;
            first[*b as usize + 1] += 1;
        }
        for i in 0..nodes {
            first[i + 1] += first[i];
        }
        let mut to = vec![0u32; first[nodes] as usize];
        let mut fill: Vec<u32> = first[..nodes].to_vec();
        for (l, (a, b)) in self.links.iter().enumerate() {
            for (from, there) in [(*a, *b), (*b, *a)] {
                let slot = fill[from as usize] as usize;
                to[slot] = there;
                placed(slot, l);
                fill[from as usize] += 1;
            }
        }
        (first, to)
    }
}

/// One place where clusters meet: the border between two side-by-side
/// clusters, between two stacked ones, or the corner where four meet.
/// Coordinates are those of the right, lower, or lower-right cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Border {
    /// Between clusters `(cx - 1, cy)` and `(cx, cy)`.
    Vertical { cx: u32, cy: u32 },
    /// Between clusters `(cx, cy - 1)` and `(cx, cy)`.
    Horizontal { cx: u32, cy: u32 },
    /// The corner shared by `(cx - 1, cy - 1)`, `(cx, cy - 1)`,
    /// `(cx - 1, cy)` and `(cx, cy)`.
    Corner { cx: u32, cy: u32 },
}

/// The areas queries search in, in padded coordinates.
impl ClusterLayout {
    /// The padded rectangle covering clusters `from` (top-left) to `to`
    /// (bottom-right).
    pub(crate) fn rect(&self, from: u32, to: u32) -> Rect {
        let (x0, y0, _, _) = self.bounds(from);
        let (_, _, x1, y1) = self.bounds(to);
        Rect {
            padded_width: FastDiv::new(self.width + 2),
            x0: x0 + 1,
            y0: y0 + 1,
            x1: x1 + 1,
            y1: y1 + 1,
        }
    }

    /// How many clusters apart `a` and `b` are: the larger of the column and
    /// row differences of their clusters (0 in one cluster, 1 in
    /// neighbouring ones).
    pub(crate) fn clusters_apart(&self, a: Point, b: Point) -> u32 {
        let (ca, cb) = (self.cluster_of(a), self.cluster_of(b));
        let columns = (ca % self.cols).abs_diff(cb % self.cols);
        let rows = (ca / self.cols).abs_diff(cb / self.cols);
        columns.max(rows)
    }

    /// The area of the near search (the clusters around both ends) when
    /// `start` and `goal` are in the same or neighbouring clusters.
    pub(crate) fn near_area(&self, start: Point, goal: Point) -> Option<Rect> {
        let (cs, ct) = (self.cluster_of(start), self.cluster_of(goal));
        let (csx, csy, ctx, cty) = (
            cs % self.cols,
            cs / self.cols,
            ct % self.cols,
            ct / self.cols,
        );
        if csx.abs_diff(ctx) > 1 || csy.abs_diff(cty) > 1 {
            return None;
        }
        let (x0, x1) = (
            csx.min(ctx).saturating_sub(1),
            (csx.max(ctx) + 1).min(self.cols - 1),
        );
        let (y0, y1) = (
            csy.min(cty).saturating_sub(1),
            (csy.max(cty) + 1).min(self.rows - 1),
        );
        Some(self.rect(y0 * self.cols + x0, y1 * self.cols + x1))
    }

    /// A lower bound on the cost of any path from `s` to `t` that leaves
    /// `area`, when a move costs at least `step`: it must walk out to a
    /// column or row beyond one of the area's sides (one column or row per
    /// move at best) and back. Sides on the map's edge cannot be crossed.
    /// `u64::MAX` when the area is the whole map.
    pub(crate) fn escape_bound(&self, s: Point, t: Point, area: &Rect, step: u64) -> u64 {
        let (x0, x1, y0, y1) = (area.x0 - 1, area.x1 - 1, area.y0 - 1, area.y1 - 1);
        let (w, h) = (self.width, self.height);
        let mut bound = u64::MAX;
        let mut side = |moves: u32| bound = bound.min(moves as u64 * step);
        if x0 > 0 {
            side((s.x - (x0 - 1)) + (t.x - (x0 - 1)));
        }
        if x1 + 1 < w {
            side((x1 + 1 - s.x) + (x1 + 1 - t.x));
        }
        if y0 > 0 {
            side((s.y - (y0 - 1)) + (t.y - (y0 - 1)));
        }
        if y1 + 1 < h {
            side((y1 + 1 - s.y) + (y1 + 1 - t.y));
        }
        bound
    }
}

impl ClusterLayout {
    /// Every border and corner, in scan order.
    pub(crate) fn borders(&self) -> impl Iterator<Item = Border> + '_ {
        let (cols, rows) = (self.cols, self.rows);
        let vertical =
            (0..rows).flat_map(move |cy| (1..cols).map(move |cx| Border::Vertical { cx, cy }));
        let horizontal =
            (0..cols).flat_map(move |cx| (1..rows).map(move |cy| Border::Horizontal { cx, cy }));
        let corners =
            (1..rows).flat_map(move |cy| (1..cols).map(move |cx| Border::Corner { cx, cy }));
        vertical.chain(horizontal).chain(corners)
    }

    /// The borders and corners of cluster `c` (up to four of each).
    pub(crate) fn borders_of(&self, c: u32) -> impl Iterator<Item = Border> + use<> {
        let (cols, rows) = (self.cols, self.rows);
        let (cx, cy) = (c % cols, c / cols);
        let sides = [
            (cx >= 1).then_some(Border::Vertical { cx, cy }),
            (cx + 1 < cols).then_some(Border::Vertical { cx: cx + 1, cy }),
            (cy >= 1).then_some(Border::Horizontal { cx, cy }),
            (cy + 1 < rows).then_some(Border::Horizontal { cx, cy: cy + 1 }),
        ];
        let corners = [(cx, cy), (cx + 1, cy), (cx, cy + 1), (cx + 1, cy + 1)].map(|(x, y)| {
            (x >= 1 && y >= 1 && x < cols && y < rows).then_some(Border::Corner { cx: x, cy: y })
        });
        sides.into_iter().chain(corners).flatten()
    }

    /// The borders and corners whose entrances depend on cell `p` (its
    /// passability, or its weight through the inter-cluster moves).
    pub(crate) fn borders_at(&self, p: Point, out: &mut Vec<Border>) {
        let s = self.size;
        let (cx, cy) = (p.x / s, p.y / s);
        // The cluster boundaries at or just after p, per axis.
        let xs = [
            (p.x.is_multiple_of(s) && p.x > 0).then_some(p.x / s),
            ((p.x + 1).is_multiple_of(s) && p.x + 1 < self.width).then_some((p.x + 1) / s),
        ];
        let ys = [
            (p.y.is_multiple_of(s) && p.y > 0).then_some(p.y / s),
            ((p.y + 1).is_multiple_of(s) && p.y + 1 < self.height).then_some((p.y + 1) / s),
        ];
        for bx in xs.into_iter().flatten() {
            out.push(Border::Vertical { cx: bx, cy });
            for by in ys.into_iter().flatten() {
                out.push(Border::Corner { cx: bx, cy: by });
            }
        }
        for by in ys.into_iter().flatten() {
            out.push(Border::Horizontal { cx, cy: by });
        }
    }

    /// The clusters that share `border`.
    pub(crate) fn clusters_at(&self, border: Border, out: &mut Vec<u32>) {
        let id = |x: u32, y: u32| y * self.cols + x;
        match border {
            Border::Vertical { cx, cy } => out.extend([id(cx - 1, cy), id(cx, cy)]),
            Border::Horizontal { cx, cy } => out.extend([id(cx, cy - 1), id(cx, cy)]),
            Border::Corner { cx, cy } => out.extend([
                id(cx - 1, cy - 1),
                id(cx, cy - 1),
                id(cx - 1, cy),
                id(cx, cy),
            ]),
        }
    }
}

/// Scans one border or corner: pushes its transition cell pairs (row-major
/// indices, the first in the left, upper or upper cluster of the move) and
/// returns how many entrances it holds.
pub(crate) fn border_pairs(
    grid: &Grid,
    movement: &Movement,
    layout: &ClusterLayout,
    policy: &EntrancePolicy,
    border: Border,
    offsets: &mut Vec<u32>,
    pairs: &mut Vec<(u32, u32)>,
) -> u64 {
    // Passability straight from the padded array (the scan stays on the map).
    let (pw, passable) = (grid.padded_width() as usize, grid.passable_slice());
    let open = |x: u32, y: u32| passable[(y as usize + 1) * pw + x as usize + 1];
    let cell = |x: u32, y: u32| y * grid.width() + x;
    let size = layout.size;
    let mut entrances = 0u64;
    // A run of cells along a border, scanned across one cluster's side so an
    // entrance never spans two clusters.
    let mut scan = |fixed: u32, horizontal_border: bool, from: u32, to: u32| {
        let mut run_start = None;
        for i in from..=to + 1 {
            let both = i <= to
                && if horizontal_border {
                    open(i, fixed - 1) && open(i, fixed)
                } else {
                    open(fixed - 1, i) && open(fixed, i)
                };
            match (both, run_start) {
                (true, None) => run_start = Some(i),
                (false, Some(s)) => {
                    entrances += 1;
                    policy.offsets(i - s, offsets);
                    for o in offsets.iter() {
                        let k = s + o;
                        pairs.push(if horizontal_border {
                            (cell(k, fixed - 1), cell(k, fixed))
                        } else {
                            (cell(fixed - 1, k), cell(fixed, k))
                        });
                    }
                    run_start = None;
                }
                _ => {}
            }
        }
    };
    // When corners may always be cut, a diagonal move can cross a border
    // between two rows where no straight move does (both cells it passes are
    // blocked): each such move is an entrance of its own. With the other
    // corner rules a straight entrance lies beside every legal diagonal.
    let squeezed = movement.diagonals() && movement.corners == CornerRule::Always;
    let diagonals = |fixed: u32, horizontal_border: bool, from: u32, to: u32| {
        let mut found = Vec::new();
        // Along the border, `(i, j)` = (position along it, side 0 or 1).
        let at = |i: u32, side: u32| {
            if horizontal_border {
                (i, fixed - 1 + side)
            } else {
                (fixed - 1 + side, i)
            }
        };
        for i in from..to {
            for (a, b) in [(at(i, 0), at(i + 1, 1)), (at(i + 1, 0), at(i, 1))] {
                let corners = [(b.0, a.1), (a.0, b.1)];
                if open(a.0, a.1) && open(b.0, b.1) && corners.iter().all(|c| !open(c.0, c.1)) {
                    found.push((cell(a.0, a.1), cell(b.0, b.1)));
                }
            }
        }
        found
    };
    let mut squeezed_pairs = Vec::new();
    match border {
        Border::Vertical { cx, cy } => {
            let y0 = cy * size;
            let y1 = (y0 + size).min(grid.height()) - 1;
            scan(cx * size, false, y0, y1);
            if squeezed {
                squeezed_pairs = diagonals(cx * size, false, y0, y1);
            }
        }
        Border::Horizontal { cx, cy } => {
            let x0 = cx * size;
            let x1 = (x0 + size).min(grid.width()) - 1;
            scan(cy * size, true, x0, x1);
            if squeezed {
                squeezed_pairs = diagonals(cy * size, true, x0, x1);
            }
        }
        // The two diagonal moves across a corner where four clusters meet:
        // (x-1, y-1) <-> (x, y) and (x, y-1) <-> (x-1, y).
        Border::Corner { cx, cy } if movement.diagonals() => {
            let (x, y) = (cx * size, cy * size);
            for (a, b) in [((x - 1, y - 1), (x, y)), ((x, y - 1), (x - 1, y))] {
                if crate::search::legal_move(
                    grid,
                    movement,
                    Point::new(a.0, a.1),
                    Point::new(b.0, b.1),
                ) {
                    entrances += 1;
                    pairs.push((cell(a.0, a.1), cell(b.0, b.1)));
                }
            }
        }
        Border::Corner { .. } => {}
    }
    entrances += squeezed_pairs.len() as u64;
    pairs.extend(squeezed_pairs);
    entrances
}

/// Finds entrances and places transition cells (stage 3).
pub fn find_entrances(
    grid: &Grid,
    movement: &Movement,
    cluster_size: u32,
    policy: &EntrancePolicy,
) -> Entrances {
    let layout = ClusterLayout::new(grid, cluster_size);
    // (a, b) transition cell pairs, before de-duplication into nodes.
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut offsets = Vec::new();
    let mut entrances = 0u64;
    for border in layout.borders() {
        entrances += border_pairs(
            grid,
            movement,
            &layout,
            policy,
            border,
            &mut offsets,
            &mut pairs,
        );
    }
    Entrances::from_pairs(grid, layout, &pairs, entrances)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn policy_offsets() {
        let mut o = Vec::new();
        let p = EntrancePolicy {
            single_below: 6,
            max_gap: 0,
        };
        p.offsets(1, &mut o);
        assert_eq!(o, vec![0]);
        p.offsets(5, &mut o);
        assert_eq!(o, vec![2]);
        p.offsets(8, &mut o);
        assert_eq!(o, vec![0, 7]);
        EntrancePolicy::default().offsets(2, &mut o);
        assert_eq!(o, vec![0, 1]);
        let dense = EntrancePolicy {
            single_below: 3,
            max_gap: 4,
        };
        dense.offsets(16, &mut o);
        assert_eq!(o, vec![0, 3, 7, 11, 15]);
        for w in o.windows(2) {
            assert!(w[1] - w[0] <= 4);
        }
    }

    #[test]
    fn open_map_entrances() {
        let g = Grid::new(8, 8).unwrap();
        let policy = EntrancePolicy {
            single_below: 6,
            max_gap: 0,
        };
        let e = find_entrances(&g, &Movement::default(), 4, &policy);
        // 4 border segments of length 4 (one transition pair each) + 2 corner diagonals.
        assert_eq!(e.entrances(), 6);
        assert_eq!(e.links.len(), 6);
        assert_eq!(e.layout().count(), 4);
        for c in 0..4u32 {
            let (a, b) = (e.cluster_first[c as usize], e.cluster_first[c as usize + 1]);
            for i in a..b {
                let cell = e.cells[i as usize];
                assert_eq!(e.layout.cluster_of(g.point_of(crate::CellIndex(cell))), c);
            }
        }
    }

    #[test]
    fn blocked_border_has_no_entrance() {
        let g = Grid::from_ascii(
            "
            ...@....
            ...@....
            ...@....
            ........",
        )
        .unwrap();
        let e = find_entrances(&g, &Movement::default(), 4, &EntrancePolicy::default());
        // Only row 3 crosses the border at x = 4 ((3,3) | (4,3)).
        assert_eq!(e.entrances(), 1);
        assert_eq!(e.links.len(), 1);
    }
}
