//! The sized hierarchy's build stages: transitions annotated with the largest
//! unit they admit, and exact in-cluster costs per band of sizes.

use rayon::prelude::*;

use crate::engine::route::SHAPES;
use crate::grid::{CornerRule, Movement, Point};
use crate::preprocess::{ClusterLayout, EntrancePolicy};
use crate::search::{Estimator, Everywhere, Goal};

use crate::engine::route::is_free;
use crate::engine::{Fits, Pricing, SearchCache, Space, run_space};
use crate::grid::Clearance;
use crate::search::TieBreak;

/// Transitions and the moves between clusters.
pub(crate) struct Transitions {
    /// Node cells as points, grouped by cluster, row-major within.
    pub points: Vec<Point>,
    /// Capped clearance of each node's cell.
    pub clear: Vec<u8>,
    /// `points[cluster_first[c]..cluster_first[c + 1]]` are cluster `c`'s.
    pub cluster_first: Vec<u32>,
    /// Inter-cluster moves `(node, node, largest size)`, each listed once;
    /// legal both ways for every size up to the annotation.
    pub links: Vec<(u32, u32, u8)>,
    /// Entrances: maximal runs of crossing pairs, counted once per size band
    /// that changes them, plus diagonal crossings.
    pub entrances: u64,
}

/// Where a [`SizedHierarchy`](crate::SizedHierarchy) puts the transitions of
/// the sizes above 1 (size 1's follow the
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
    clearance: &Clearance,
    movement: &Movement,
    layout: &ClusterLayout,
    policy: &EntrancePolicy,
    larger: SizeTransitions,
    max_size: u8,
) -> Transitions {
    let grid = clearance.grid();
    let (w, h) = (grid.width(), grid.height());
    let clr = |x: u32, y: u32| clearance.get(Point::new(x, y)).min(max_size);
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
    let points: Vec<Point> = cells.iter().map(|(_, y, x)| Point::new(*x, *y)).collect();
    let clear = points.iter().map(|p| clr(p.x, p.y)).collect();
    Transitions {
        points,
        clear,
        cluster_first,
        links,
        entrances,
    }
}

/// One abstract edge before assembly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RawEdge {
    pub from: u32,
    pub to: u32,
    pub cost: u64,
    /// The largest size the edge serves.
    pub clear: u8,
}

/// What the in-cluster stage did, summed over clusters.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct CostWork {
    /// Bands of sizes whose costs were computed (one table each).
    pub bands: u64,
    /// Pairs settled by a free straight route.
    pub straight: u64,
    /// Grid searches run.
    pub searches: u64,
    /// Candidate edges dropped as dominated.
    pub dominated: u64,
}

impl std::ops::AddAssign for CostWork {
    fn add_assign(&mut self, o: CostWork) {
        self.bands += o.bands;
        self.straight += o.straight;
        self.searches += o.searches;
        self.dominated += o.dominated;
    }
}

/// Computes the in-cluster edges of every cluster (stage 3 of the sized
/// build), in parallel.
pub(crate) fn cluster_edges(
    clearance: &Clearance,
    movement: &Movement,
    layout: &ClusterLayout,
    t: &Transitions,
    max_size: u8,
) -> (Vec<RawEdge>, CostWork) {
    let per_cluster: Vec<(Vec<RawEdge>, CostWork)> = (0..layout.count() as u32)
        .into_par_iter()
        .map_init(ClusterScratch::default, |scratch, c| {
            one_cluster(clearance, movement, layout, t, max_size, c, scratch)
        })
        .collect();
    let mut work = CostWork::default();
    let mut edges = Vec::with_capacity(per_cluster.iter().map(|(e, _)| e.len()).sum());
    for (e, w) in per_cluster {
        edges.extend(e);
        work += w;
    }
    (edges, work)
}

/// Per-worker scratch of the in-cluster stage.
#[derive(Default)]
struct ClusterScratch {
    search: SearchCache,
    /// One `n x n` cost table per band, concatenated.
    tables: Vec<u64>,
    /// Per band: its largest size.
    band_hi: Vec<u8>,
    unresolved: Vec<bool>,
    targets: Vec<usize>,
    /// The cluster's clearance (and weights), padded by one blocked cell:
    /// searches on it need no region test and their scratch stays small.
    local_clear: Vec<u8>,
    local_weights: Vec<u16>,
}

/// The in-cluster edges of cluster `c`.
///
/// Sizes fall into bands: within a cluster the grid of size `k` equals the
/// grid of size `k - 1` unless some cell of the cluster has clearance exactly
/// `k - 1`, and then their costs are equal too. For each band, the exact
/// least in-cluster cost between every two transitions the band's sizes fit
/// on: a free straight route on unweighted ground costs the octile
/// distance; the other pairs come from Dijkstra searches over the band's
/// grid bounded to the cluster (from a greedy vertex cover of the pairs when
/// costs are symmetric). Costs never fall as the size grows (each size's
/// grid is inside the smaller one's), so for a pair the bands form runs of
/// equal cost: each run becomes one edge annotated with its largest size
/// (HAA*'s annotated edges), which serves every smaller size too, at its
/// exact cost for the sizes of the run. A run is dropped when, for every
/// band in it, some third transition matches its cost exactly (the argument
/// of the flat cluster graph's dominance pruning, size by size: distances
/// for every size are unchanged).
fn one_cluster(
    clearance: &Clearance,
    movement: &Movement,
    layout: &ClusterLayout,
    t: &Transitions,
    max_size: u8,
    c: u32,
    s: &mut ClusterScratch,
) -> (Vec<RawEdge>, CostWork) {
    let (a, b) = (t.cluster_first[c as usize], t.cluster_first[c as usize + 1]);
    let n = (b - a) as usize;
    let mut work = CostWork::default();
    let mut out = Vec::new();
    if n < 2 {
        return (out, work);
    }
    let grid = clearance.grid();
    let (x0, y0, x1, y1) = layout.bounds(c);
    let (w, h) = (x1 - x0 + 1, y1 - y0 + 1);
    // The cluster as a window of its own, in local coordinates.
    let lpw = w as usize + 2;
    s.local_clear.clear();
    s.local_clear.resize(lpw * (h as usize + 2), 0);
    let weighted = grid.is_weighted();
    s.local_weights.clear();
    if weighted {
        s.local_weights
            .resize(s.local_clear.len(), crate::Weight::ONE.0);
    }
    // Which capped clearances occur in the cluster.
    let mut present = [false; 256];
    for y in 0..h {
        for x in 0..w {
            let p = Point::new(x0 + x, y0 + y);
            let v = clearance.get(p).min(max_size);
            present[v as usize] = true;
            let i = (y as usize + 1) * lpw + x as usize + 1;
            s.local_clear[i] = v;
            if weighted {
                s.local_weights[i] = grid.weight(p).0;
            }
        }
    }
    let points: Vec<Point> = t.points[a as usize..b as usize]
        .iter()
        .map(|p| Point::new(p.x - x0, p.y - y0))
        .collect();
    let clear = &t.clear[a as usize..b as usize];
    let top = clear.iter().copied().max().unwrap_or(0);
    let symmetric = !weighted;
    s.tables.clear();
    s.band_hi.clear();
    // Bands of sizes `lo..=hi` (as `u16`: the last band may end at 255).
    let mut lo = 1u16;
    while lo <= top as u16 {
        let mut hi = lo;
        while hi < max_size as u16 && !present[hi as usize] {
            hi += 1;
        }
        let usable = clear.iter().filter(|c| **c as u16 >= lo).count();
        if usable < 2 {
            break;
        }
        work.bands += 1;
        let base = s.tables.len();
        s.tables.resize(base + n * n, u64::MAX);
        let space = Fits {
            clearance: &s.local_clear,
            weights: weighted.then_some(&s.local_weights[..]),
            padded_width: lpw as u32,
            movement,
            size: lo as u8,
        };
        let table = &mut s.tables[base..];
        s.unresolved.clear();
        s.unresolved.resize(n * n, false);
        for i in 0..n {
            if (clear[i] as u16) < lo {
                continue;
            }
            table[i * n + i] = 0;
            for j in 0..n {
                if j == i || (clear[j] as u16) < lo || (symmetric && j < i) {
                    continue;
                }
                let (p, q) = (points[i], points[j]);
                let direct =
                    symmetric && SHAPES.into_iter().any(|shape| is_free(&space, p, q, shape));
                if direct {
                    work.straight += 1;
                    let d = movement.distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y)).0;
                    table[i * n + j] = d;
                    table[j * n + i] = d;
                } else {
                    s.unresolved[i * n + j] = true;
                    if symmetric {
                        s.unresolved[j * n + i] = true;
                    }
                }
            }
        }
        // Searches: from the node with the most unresolved partners first
        // (one search settles both directions when symmetric).
        loop {
            let count = |i: usize| {
                s.unresolved[i * n..(i + 1) * n]
                    .iter()
                    .filter(|u| **u)
                    .count()
            };
            let source = if symmetric {
                (0..n).max_by_key(|i| (count(*i), std::cmp::Reverse(*i)))
            } else {
                (0..n).find(|i| count(*i) > 0)
            };
            let Some(i) = source.filter(|i| count(*i) > 0) else {
                break;
            };
            work.searches += 1;
            s.targets.clear();
            s.targets.extend((0..n).filter(|j| s.unresolved[i * n + j]));
            s.search.begin_len(s.local_clear.len());
            for j in &s.targets {
                s.search.mark_target(space.node(points[*j]));
            }
            let zero = Estimator::zero();
            s.search
                .push_start(space.node(points[i]), 0, &zero, TieBreak::LargerG);
            run_space(
                &mut s.search,
                space,
                Everywhere,
                zero,
                Goal::AllTargets,
                TieBreak::LargerG,
                false,
                u64::MAX,
                Pricing::Forward,
            );
            for &j in &s.targets {
                s.unresolved[i * n + j] = false;
                if symmetric {
                    s.unresolved[j * n + i] = false;
                }
                let node = space.node(points[j]);
                if s.search.is_closed(node) {
                    let d = s.search.g(node).expect("closed nodes have a cost");
                    table[i * n + j] = d;
                    if symmetric {
                        table[j * n + i] = d;
                    }
                }
            }
        }
        s.band_hi.push(hi as u8);
        lo = hi + 1;
    }

    // Annotated edges: runs of bands of equal cost, dominated runs dropped.
    let bands = s.band_hi.len();
    let tables = &s.tables;
    let dominated_in = |band: usize, i: usize, j: usize, cost: u64| {
        let t = &tables[band * n * n..(band + 1) * n * n];
        (0..n).any(|k| {
            k != i && k != j && {
                let (ik, kj) = (t[i * n + k], t[k * n + j]);
                ik != u64::MAX && kj != u64::MAX && ik + kj == cost
            }
        })
    };
    for i in 0..n {
        for j in 0..n {
            if i == j {
                continue;
            }
            let mut band = 0;
            while band < bands {
                let cost = tables[band * n * n + i * n + j];
                if cost == u64::MAX {
                    break; // and for every larger size
                }
                let mut end = band;
                while end + 1 < bands && tables[(end + 1) * n * n + i * n + j] == cost {
                    end += 1;
                }
                if (band..=end).all(|bd| dominated_in(bd, i, j, cost)) {
                    work.dominated += 1;
                } else {
                    out.push(RawEdge {
                        from: a + i as u32,
                        to: a + j as u32,
                        cost,
                        clear: s.band_hi[end],
                    });
                }
                band = end + 1;
            }
        }
    }
    (out, work)
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
        let c = Clearance::new(grid.clone());
        let layout = ClusterLayout::new(&grid, 4);
        let t = find_transitions(
            &c,
            &Movement::default(),
            &layout,
            &EntrancePolicy::default(),
            SizeTransitions::Ends,
            3,
        );
        let p = Point::new;
        // Pairs across x = 3 | 4: rows 0..=2 (row 3 blocked at (4, 3)).
        let find = |q: Point| t.points.iter().position(|x| *x == q).map(|i| i as u32);
        for (a, b) in [(p(3, 0), p(4, 0)), (p(3, 2), p(4, 2))] {
            let (ia, ib) = (find(a).unwrap(), find(b).unwrap());
            let link = t
                .links
                .iter()
                .find(|l| (l.0, l.1) == (ia.min(ib), ia.max(ib)));
            let want = c.get(a).min(c.get(b)).min(3);
            assert_eq!(link.map(|l| l.2), Some(want), "{a} | {b}");
        }
        assert!(
            t.clear
                .iter()
                .zip(&t.points)
                .all(|(k, q)| *k == c.get(*q).min(3))
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
