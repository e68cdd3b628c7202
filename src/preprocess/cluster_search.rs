//! The in-cluster searches of the cluster-graph stage: exact least costs from
//! one transition to the others of its cluster.
//!
//! Thousands of these run per map, each over a few hundred cells, so on
//! unweighted clusters they use a kernel of their own: costs as `u32` (a
//! 16 x 16 cluster's costs stay below 4e8), the legal moves out of a cell
//! from one table lookup on its four straight neighbours, and, for the open
//! list, a ring of buckets no wider than a straight step (Dial's algorithm:
//! every cell in the lowest bucket already has its exact cost, so a bucket is
//! settled in any order, and a straight step is the cheapest move, at most
//! half a diagonal below it, so eight buckets hold every cost in flight).
//! Nothing records parents: a path is traced back afterwards through, at each
//! cell, the cheapest-then-lowest-numbered neighbour that lies on a least-cost
//! path to it, exactly the parent a Dijkstra popping `(cost, cell)` in order
//! records (the first neighbour to reach the final cost). Measured on the
//! 1024 x 1024 StarCraft maps it does the stage's searches in a fraction of
//! the instructions of the general engine, which weighted clusters (and
//! clusters too large for `u32` costs) still use.

use crate::grid::{Connectivity, CornerRule, Grid, Movement, Node, Weight};
use crate::search::{
    Estimator, Everywhere, Goal, Plain, Pricing, SearchCache, TieBreak, run_space,
};

/// Per-thread scratch for in-cluster searches.
#[derive(Debug, Default, Clone)]
pub(crate) struct ClusterSearch {
    /// Cost per padded cell of the cluster copy, [`UNSEEN`] when not reached.
    dist: Vec<u32>,
    /// Whether a cell's moves have been scanned.
    done: Vec<bool>,
    /// Targets not yet settled.
    target: Vec<bool>,
    /// The passable cells of the cluster copy searched last, and the legal
    /// moves out of each of its cells found so far (`KNOWN | mask`, 0 when
    /// not yet needed): kept while the searches stay in one cluster (the
    /// same cells under the same rules), which is most of them.
    open: Vec<bool>,
    moves_out: Vec<u16>,
    /// The bucket ring, and the bucket being settled.
    ring: [Vec<u32>; RING],
    settle: Vec<u32>,
    /// The moves of the last kernel search, and what they were made for
    /// (padded width and movement rule).
    moves: Moves,
    moves_for: Option<(u32, Movement)>,
    /// Its source.
    source: u32,
    engine: SearchCache,
    /// Which backend ran last.
    kernel: bool,
    /// Where the kernel's search stands (see [`ClusterSearch::resume`]).
    state: KernelState,
}

/// The progress of a kernel search, so that it can pause and resume.
#[derive(Debug, Default, Clone, Copy)]
struct KernelState {
    /// Cells in the ring's buckets.
    pending: usize,
    /// Buckets taken so far (the next is `bucket % RING`).
    bucket: usize,
    /// Position in the bucket being settled.
    at: usize,
    /// Targets not yet settled.
    remaining: u32,
    /// Cells settled.
    settled: u64,
    finished: bool,
}

const UNSEEN: u32 = u32::MAX;
/// Marks an entry of `ClusterSearch::moves_out` as found.
const KNOWN: u16 = 1 << 8;
/// Buckets in the kernel's ring: a power of two above the number of buckets
/// a move can span (see the module docs).
const RING: usize = 8;

/// The moves on a padded cluster copy under one movement rule.
#[derive(Debug, Default, Clone, Copy)]
struct Moves {
    /// Node offsets in direction order (N, E, S, W, NE, SE, SW, NW: the order
    /// of `Grid::for_each_neighbor`).
    offset: [u32; 8],
    /// Cost of each move onto an unweighted cell.
    cost: [u32; 8],
    /// Per mask of free straight neighbours (bit `i` for direction `i`): the
    /// moves the corner rule allows (a diagonal also needs its own cell free).
    allowed: [u8; 16],
    /// Bucket width, as a shift: the largest power of two no above a straight
    /// step.
    shift: u32,
}

impl Moves {
    fn new(local: &Grid, movement: &Movement) -> Moves {
        let pw = local.padded_width();
        let one = Weight::ONE.0 as u32;
        let (s, d) = (movement.straight * one, movement.diagonal * one);
        // The straight cells each diagonal passes (the order of
        // `Grid::neighbor_in`).
        const CORNERS: [(u32, u32); 4] = [(0, 1), (2, 1), (2, 3), (0, 3)];
        let mut allowed = [0u8; 16];
        for (free, moves) in allowed.iter_mut().enumerate() {
            let free = free as u32;
            let mut m = free;
            if movement.connectivity == Connectivity::Eight {
                for (k, (a, b)) in CORNERS.iter().enumerate() {
                    let (fa, fb) = (free >> a & 1 == 1, free >> b & 1 == 1);
                    let ok = match movement.corners {
                        CornerRule::Never => fa && fb,
                        CornerRule::IfOneFree => fa || fb,
                        CornerRule::Always => true,
                    };
                    m |= (ok as u32) << (4 + k);
                }
            }
            *moves = m as u8;
        }
        Moves {
            offset: [
                pw.wrapping_neg(),
                1,
                pw,
                u32::MAX,
                pw.wrapping_neg().wrapping_add(1),
                pw + 1,
                pw - 1,
                pw.wrapping_neg().wrapping_sub(1),
            ],
            cost: [s, s, s, s, d, d, d, d],
            allowed,
            shift: 31 - s.leading_zeros(),
        }
    }

    /// The legal moves out of padded cell `u`, as a bit mask over directions.
    #[inline(always)]
    fn out_of(&self, open: &[bool], u: u32) -> u32 {
        let at = |i: usize| open[u.wrapping_add(self.offset[i]) as usize] as u32;
        let free = at(0) | at(1) << 1 | at(2) << 2 | at(3) << 3;
        let own = 0xf | at(4) << 4 | at(5) << 5 | at(6) << 6 | at(7) << 7;
        self.allowed[free as usize] as u32 & own
    }
}

impl ClusterSearch {
    /// Runs one search on the cluster copy `local` from `source` until every
    /// node of `targets` is settled (or all it can reach is).
    pub(crate) fn run(
        &mut self,
        local: &Grid,
        movement: &Movement,
        source: Node,
        targets: &[Node],
    ) {
        if self.begin_kernel(local, movement, source, targets) {
            self.resume(u64::MAX);
        } else {
            let est = Estimator::zero();
            self.engine.begin(local);
            for t in targets {
                self.engine.mark_target(*t);
            }
            self.engine.push_start(source, 0, &est, TieBreak::default());
            run_space(
                &mut self.engine,
                Plain::new(local, movement),
                Everywhere,
                est,
                Goal::AllTargets,
                TieBreak::default(),
                false,
                u64::MAX,
                Pricing::Forward,
            );
        }
    }

    /// Begins a kernel search on the unweighted cluster copy `local` from
    /// `source` to `targets`, to be run by [`resume`](Self::resume). Whether
    /// the kernel applies (an unweighted copy whose costs fit in `u32`);
    /// when it does not, nothing is begun.
    pub(crate) fn begin_kernel(
        &mut self,
        local: &Grid,
        movement: &Movement,
        source: Node,
        targets: &[Node],
    ) -> bool {
        let worst = local.padded_len() as u64 * movement.diagonal as u64 * Weight::ONE.0 as u64;
        self.kernel = !local.is_weighted() && worst < u64::from(u32::MAX);
        if !self.kernel {
            return false;
        }
        let len = local.padded_len();
        let key = Some((local.padded_width(), *movement));
        if self.moves_for != key {
            self.moves = Moves::new(local, movement);
            self.moves_for = key;
            self.open.clear();
        }
        if self.open != local.passable_slice() {
            self.open.clear();
            self.open.extend_from_slice(local.passable_slice());
            self.moves_out.clear();
            self.moves_out.resize(len, 0);
        }
        self.source = source.0;
        self.dist.clear();
        self.dist.resize(len, UNSEEN);
        self.done.clear();
        self.done.resize(len, false);
        self.target.clear();
        self.target.resize(len, false);
        let mut remaining = 0u32;
        for t in targets {
            if !self.target[t.index()] {
                self.target[t.index()] = true;
                remaining += 1;
            }
        }
        for bucket in self.ring.iter_mut() {
            bucket.clear();
        }
        self.settle.clear();
        self.dist[source.index()] = 0;
        self.ring[0].push(source.0);
        self.state = KernelState {
            pending: 1,
            bucket: 0,
            at: 0,
            remaining,
            settled: 0,
            finished: false,
        };
        true
    }

    /// Runs the kernel search begun by [`begin_kernel`](Self::begin_kernel)
    /// until every target is settled (or all it can reach is), settling at
    /// most `budget` cells: whether it finished.
    pub(crate) fn resume(&mut self, budget: u64) -> bool {
        let ClusterSearch {
            dist,
            done,
            target,
            open,
            moves_out,
            ring,
            settle,
            moves,
            state,
            ..
        } = self;
        let (dist, done, target, open, moves_out) = (
            dist.as_mut_slice(),
            done.as_mut_slice(),
            target.as_mut_slice(),
            open.as_slice(),
            moves_out.as_mut_slice(),
        );
        let mut used = 0u64;
        while !state.finished {
            if state.at == settle.len() {
                // The next bucket: its cells all have their exact costs.
                settle.clear();
                state.at = 0;
                if state.pending == 0 {
                    state.finished = true;
                    break;
                }
                let slot = state.bucket % RING;
                state.bucket += 1;
                // Relaxations from this bucket only fill later ones.
                std::mem::swap(settle, &mut ring[slot]);
                state.pending -= settle.len();
                continue;
            }
            let u = settle[state.at];
            if done[u as usize] {
                state.at += 1;
                continue; // reached again within its bucket, at a lower cost
            }
            if used == budget {
                return false;
            }
            state.at += 1;
            done[u as usize] = true;
            used += 1;
            state.settled += 1;
            if target[u as usize] {
                target[u as usize] = false;
                state.remaining -= 1;
                if state.remaining == 0 {
                    state.finished = true;
                    break;
                }
            }
            let du = dist[u as usize];
            let mut m = moves_out[u as usize] as u32;
            if m == 0 {
                m = moves.out_of(open, u);
                moves_out[u as usize] = KNOWN | m as u16;
            }
            m &= 0xff;
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let w = u.wrapping_add(moves.offset[i]);
                let nd = du + moves.cost[i];
                if nd < dist[w as usize] {
                    dist[w as usize] = nd;
                    ring[(nd >> moves.shift) as usize % RING].push(w);
                    state.pending += 1;
                }
            }
        }
        true
    }

    /// Cells the last run settled (expanded).
    pub(crate) fn settled(&self) -> u64 {
        if self.kernel {
            self.state.settled
        } else {
            self.engine.stats().expanded
        }
    }

    /// The least cost to `n` found by the last run, if it reached `n` (every
    /// target reached is settled, so this is exact for targets).
    pub(crate) fn cost(&self, n: Node) -> Option<u64> {
        if self.kernel {
            let d = self.dist[n.index()];
            (d != UNSEEN).then_some(d as u64)
        } else {
            self.engine
                .is_closed(n)
                .then(|| self.engine.g(n).expect("closed nodes have a cost"))
        }
    }

    /// The nodes from the last run's source to `n` (a target it reached), in
    /// order.
    pub(crate) fn trace(&self, n: Node, out: &mut Vec<Node>) {
        if self.kernel {
            let first = out.len();
            let mut cur = n.0;
            out.push(Node(cur));
            while cur != self.source {
                cur = self.parent(cur);
                out.push(Node(cur));
            }
            out[first..].reverse();
        } else {
            self.engine.trace_back(n, out);
        }
    }

    /// The parent of a reached cell `n` (not the source) in the kernel's last
    /// search: of the neighbours `u` with `cost(u) + move(u, n) == cost(n)`
    /// (moves and their costs are the same both ways on unweighted cells),
    /// the one with the least `(cost, cell)`, the first such neighbour a
    /// Dijkstra popping `(cost, cell)` in order settles, which is the one that
    /// gives `n` its final cost there. Every cell costing less than a settled
    /// cell has its exact cost, so each such `u` is known.
    fn parent(&self, n: u32) -> u32 {
        let (dist, moves) = (&self.dist, &self.moves);
        let dn = dist[n as usize];
        let mut best = (UNSEEN, UNSEEN);
        let mut m = match self.moves_out[n as usize] {
            0 => moves.out_of(&self.open, n),
            known => known as u32 & 0xff,
        };
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            let u = n.wrapping_add(moves.offset[i]);
            let du = dist[u as usize];
            if du < dn && du + moves.cost[i] == dn && (du, u) < best {
                best = (du, u);
            }
        }
        debug_assert_ne!(best.1, UNSEEN, "a reached cell has a parent");
        best.1
    }
}

/// The transition to search from next among `n` whose pairs still
/// unresolved are `unresolved[i * n + j]`: when costs are symmetric (one
/// search settles both directions) the one with the most unresolved partners
/// (a greedy vertex cover of the pairs), else the first with any. `None`
/// when every pair is resolved.
pub(crate) fn next_source(unresolved: &[bool], n: usize, symmetric: bool) -> Option<usize> {
    let count = |i: usize| {
        unresolved[i * n..(i + 1) * n]
            .iter()
            .filter(|u| **u)
            .count()
    };
    let source = if symmetric {
        (0..n).max_by_key(|i| (count(*i), std::cmp::Reverse(*i)))
    } else {
        (0..n).find(|i| count(*i) > 0)
    };
    source.filter(|i| count(*i) > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;
    use crate::engine::Space;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// The kernel as first written: Dijkstra popping `(cost, cell)` in order
    /// from a binary heap, a parent recorded at every strict improvement,
    /// stopping once every target is settled. Returns the costs and parents.
    fn reference(
        local: &Grid,
        movement: &Movement,
        source: Node,
        targets: &[Node],
    ) -> (Vec<u32>, Vec<u32>) {
        let len = local.padded_len();
        let (mut dist, mut parent) = (vec![UNSEEN; len], vec![UNSEEN; len]);
        let mut target = vec![false; len];
        let mut remaining = 0u32;
        for t in targets {
            if !target[t.index()] {
                target[t.index()] = true;
                remaining += 1;
            }
        }
        let mut heap = BinaryHeap::new();
        dist[source.index()] = 0;
        heap.push(Reverse(source.0 as u64));
        let one = Weight::ONE.0 as u32;
        while let Some(Reverse(key)) = heap.pop() {
            let (d, u) = ((key >> 32) as u32, key as u32);
            if d > dist[u as usize] {
                continue;
            }
            if target[u as usize] {
                target[u as usize] = false;
                remaining -= 1;
                if remaining == 0 {
                    break;
                }
            }
            Plain::new(local, movement).for_each_neighbor(Node(u), |w, base, _, _| {
                let nd = d + base * one;
                if nd < dist[w.index()] {
                    dist[w.index()] = nd;
                    parent[w.index()] = u;
                    heap.push(Reverse(((nd as u64) << 32) | w.0 as u64));
                }
            });
        }
        (dist, parent)
    }

    #[test]
    fn kernel_matches_the_reference_costs_and_paths() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut search = ClusterSearch::default();
        let mut previous: Option<Grid> = None;
        for case in 0..400 {
            // Some maps come twice in a row (the moves found stay valid),
            // some differ from the last in one cell.
            let g = match (next() % 4, previous.take()) {
                (0, Some(p)) => p,
                (1, Some(mut p)) => {
                    let c = Point::new(
                        (next() % p.width() as u64) as u32,
                        (next() % p.height() as u64) as u32,
                    );
                    p.set_passable(c, !p.is_passable(c)).unwrap();
                    p
                }
                _ => {
                    let (w, h) = (1 + next() % 20, 1 + next() % 20);
                    let density = next() % 50;
                    Grid::from_fn(w as u32, h as u32, |_| next() % 100 >= density).unwrap()
                }
            };
            previous = Some(g.clone());
            let cells: Vec<Node> = g.passable_points().map(|p| g.node(p)).collect();
            if cells.is_empty() {
                continue;
            }
            // Several searches per map and rule, through one scratch kept
            // across maps and rules (as a thread's is across clusters).
            for m in Movement::every_rule().into_iter().flat_map(|m| [m; 3]) {
                let source = cells[(next() % cells.len() as u64) as usize];
                // A few targets (the search stops early), or none (it
                // explores everything).
                let count = next() % 6;
                let targets: Vec<Node> = (0..count)
                    .map(|_| cells[(next() % cells.len() as u64) as usize])
                    .collect();
                search.run(&g, &m, source, &targets);
                assert!(search.kernel);
                let (dist, parent) = reference(&g, &m, source, &targets);
                let checked: Vec<Node> = if targets.is_empty() {
                    cells.clone()
                } else {
                    targets.clone()
                };
                for t in checked {
                    let want = (dist[t.index()] != UNSEEN).then_some(dist[t.index()] as u64);
                    assert_eq!(search.cost(t), want, "case {case}, {m:?}");
                    if want.is_none() {
                        continue;
                    }
                    let mut path = Vec::new();
                    search.trace(t, &mut path);
                    let mut expected = vec![t];
                    while parent[expected.last().unwrap().index()] != UNSEEN {
                        expected.push(Node(parent[expected.last().unwrap().index()]));
                    }
                    expected.reverse();
                    assert_eq!(
                        path,
                        expected,
                        "case {case}, {m:?}, from {} to {}\n{}",
                        g.point(source),
                        g.point(t),
                        g.to_ascii()
                    );
                }
            }
        }
    }

    #[test]
    fn kernel_and_engine_agree() {
        let g = Grid::from_fn(16, 16, |p| (p.x * 5 + p.y * 3 + p.x * p.y) % 7 != 0).unwrap();
        let mut weighted = g.clone();
        weighted
            .set_weight(Point::new(15, 15), Weight(101))
            .unwrap(); // forces the engine
        for m in [
            Movement::default(),
            Movement::FOUR,
            Movement {
                corners: CornerRule::Always,
                ..Movement::default()
            },
        ] {
            let source = g.node(g.passable_points().next().unwrap());
            let targets: Vec<Node> = g.passable_points().map(|p| g.node(p)).collect();
            let (mut a, mut b) = (ClusterSearch::default(), ClusterSearch::default());
            a.run(&g, &m, source, &targets);
            assert!(a.kernel);
            // The engine on the same (unweighted) cells, through the weighted twin.
            b.run(&weighted, &m, source, &targets);
            assert!(!b.kernel);
            for t in &targets {
                if g.point(*t) == Point::new(15, 15) {
                    continue;
                }
                assert_eq!(a.cost(*t), b.cost(*t), "{m:?} to {}", g.point(*t));
                if a.cost(*t).is_some() {
                    let mut path = Vec::new();
                    a.trace(*t, &mut path);
                    let cells: Vec<Point> = path.iter().map(|n| g.point(*n)).collect();
                    assert_eq!(
                        crate::path_cost(&g, &m, &cells).unwrap().0,
                        a.cost(*t).unwrap()
                    );
                }
            }
        }
    }
}
