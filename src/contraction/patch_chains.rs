//! A patch's chains and table (see `patched`): per entry the least clean
//! cost from each rank of its elimination-tree chain down to it, per exit
//! from it up to each rank of its chain, and per exit and entry the least
//! clean cost between them (the two chains joined).
//!
//! Each chain is the sweep of one end's ancestors in rank order, so the
//! ends of one patch (the clean nodes around a few clusters) sweep much the
//! same ranks. [`Lanes`] sweeps the union of their ancestors once per
//! [`LANES`] ends, every lane relaxing the same upward edges, and joins the
//! chains for the table over the same union: each rank's edges are read
//! once per block of ends, and the lanes' arithmetic is in `f64`, which
//! baseline x86-64 adds and takes minima of two at a time (its vector
//! integer instructions have no 64-bit compare).
//!
//! Exactness. The lanes sum stored costs (below 2^32 each, in units of the
//! metric's scale) and widen the results at the end. A finite sum below
//! 2^52 is exact in `f64`, and so is a join of two of them; a sweep that
//! finds a finite sum at or above [`EXACT`] (an upward path of more than a
//! million edges of the largest costs) is done again one end at a time in
//! integers. A lane with no route holds [`NO_ROUTE`], far above any finite
//! sum (a sum of two such is 2^63, still a number). The widened values
//! equal those of one integer sweep per end: a sweep there stops a path once
//! its cost reaches `FORBIDDEN`, and costs only grow along a path, so both
//! keep exactly the least costs below `FORBIDDEN`.
//!
//! On TheFrozenSea a 10x10 block closed across a cluster border gives a
//! patch of about 17 entries and 17 exits, whose ancestors' union is some
//! 240 ranks with 9,000 upward edges: one sweep per end read them 34
//! times, the lanes 6 times. In an instrumented probe the chains and table
//! of such a repair took 2.2-4.6 times as long as its re-customization
//! before, 0.6-1.2 times after (docs/contraction.md, round 18).

use super::FORBIDDEN;
use super::query::{ContractionScratch, Full, Upward, sort_ranks};

/// Ends whose least costs one sweep computes together: a cache line of
/// `f64` per rank.
const LANES: usize = 8;

/// A lane's cost with no route so far (2^62).
const NO_ROUTE: f64 = 4_611_686_018_427_387_904.0;

/// Finite lane sums below this (2^52) are exact, and so are sums of two.
const EXACT: f64 = 4_503_599_627_370_496.0;

/// The chains of a patch's entries and exits and its table, for one metric.
#[derive(Debug, Clone)]
pub(super) struct PatchChains {
    /// Per entry, the least clean cost from each rank of its chain down to
    /// it: `entry_chain[entry_first[i]..entry_first[i + 1]]`, ascending by
    /// rank.
    entry_first: Vec<u32>,
    entry_chain: Vec<(u32, u64)>,
    /// Per exit, the least clean cost from it up to each rank of its chain.
    exit_first: Vec<u32>,
    exit_chain: Vec<(u32, u64)>,
    /// `table[x * entries + e]`: the least clean cost from exit `x` to entry
    /// `e` (`FORBIDDEN` when none).
    table: Vec<u64>,
    entries: usize,
}

impl Default for PatchChains {
    fn default() -> Self {
        PatchChains {
            entry_first: vec![0],
            entry_chain: Vec::new(),
            exit_first: vec![0],
            exit_chain: Vec::new(),
            table: Vec::new(),
            entries: 0,
        }
    }
}

impl PatchChains {
    /// Entry `e`'s chain: (rank, least cost from it down to the entry),
    /// ascending by rank.
    pub(super) fn entry(&self, e: usize) -> &[(u32, u64)] {
        &self.entry_chain[self.entry_first[e] as usize..self.entry_first[e + 1] as usize]
    }

    /// Exit `x`'s chain: (rank, least cost from the exit up to it).
    pub(super) fn exit(&self, x: usize) -> &[(u32, u64)] {
        &self.exit_chain[self.exit_first[x] as usize..self.exit_first[x + 1] as usize]
    }

    /// The least clean cost from exit `x` to entry `e` (`FORBIDDEN` when
    /// none).
    pub(super) fn table(&self, x: usize, e: usize) -> u64 {
        self.table[x * self.entries + e]
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        (self.entry_first.capacity() + self.exit_first.capacity()) * 4
            + (self.entry_chain.capacity() + self.exit_chain.capacity()) * 16
            + self.table.capacity() * 8
    }

    /// The chains of `exits` and `entries` (ranks) and their table under
    /// `full`'s metric, by [`Lanes`] when exact there, else one sweep per
    /// end.
    pub(super) fn compute(
        &mut self,
        full: &Full<'_>,
        s: &mut ContractionScratch,
        lanes: &mut Lanes,
        exits: &[u32],
        entries: &[u32],
    ) {
        self.compute_below(full, s, lanes, (exits, entries), EXACT);
    }

    /// [`compute`](Self::compute), the lanes trusted below `exact` only.
    fn compute_below(
        &mut self,
        full: &Full<'_>,
        s: &mut ContractionScratch,
        lanes: &mut Lanes,
        (exits, entries): (&[u32], &[u32]),
        exact: f64,
    ) {
        self.entries = entries.len();
        if lanes.sweep(full, s, exits, entries, exact) {
            self.read_lanes(lanes, full.metric.scale(), exits.len());
        } else {
            self.one_by_one(full, s, exits, entries);
        }
    }

    /// Chains and table from the lanes swept (exits' blocks first).
    fn read_lanes(&mut self, lanes: &Lanes, scale: u64, exits: usize) {
        // A lane is finite and below EXACT, or at least NO_ROUTE (the sweep
        // checked), so a sum of two is finite and exact below 2 * EXACT, or
        // at least NO_ROUTE.
        let widen = |c: f64| {
            if c < NO_ROUTE {
                Some((c as u64).saturating_mul(scale)).filter(|w| *w < FORBIDDEN)
            } else {
                None
            }
        };
        let u = lanes.union.len();
        let first_entry_block = exits.div_ceil(LANES);
        for (ends, first, chain, first_block) in [
            (exits, &mut self.exit_first, &mut self.exit_chain, 0),
            (
                self.entries,
                &mut self.entry_first,
                &mut self.entry_chain,
                first_entry_block,
            ),
        ] {
            first.clear();
            first.push(0);
            chain.clear();
            for end in 0..ends {
                let (block, lane) = (first_block + end / LANES, end % LANES);
                let dist = &lanes.dist[block * u..(block + 1) * u];
                chain.extend(
                    lanes
                        .union
                        .iter()
                        .zip(dist)
                        .filter_map(|(r, d)| Some((*r, widen(d[lane])?))),
                );
                first.push(chain.len() as u32);
            }
        }
        // The table: per block of exits and block of entries, the least sum
        // over the union (a rank off either chain holds NO_ROUTE).
        let (nx, ne) = (exits, self.entries);
        self.table.clear();
        self.table.resize(nx * ne, FORBIDDEN);
        for bx in 0..nx.div_ceil(LANES) {
            let up = &lanes.dist[bx * u..(bx + 1) * u];
            for be in 0..ne.div_ceil(LANES) {
                let b = first_entry_block + be;
                let down = &lanes.dist[b * u..(b + 1) * u];
                let mut best = [[NO_ROUTE; LANES]; LANES];
                for (x, e) in up.iter().zip(down) {
                    for (row, xv) in best.iter_mut().zip(x) {
                        for (cell, ev) in row.iter_mut().zip(e) {
                            let sum = xv + ev;
                            *cell = if sum < *cell { sum } else { *cell };
                        }
                    }
                }
                for (a, row) in best.iter().enumerate() {
                    let x = bx * LANES + a;
                    if x >= nx {
                        break;
                    }
                    for (b, cell) in row.iter().enumerate() {
                        let e = be * LANES + b;
                        if e >= ne {
                            break;
                        }
                        self.table[x * ne + e] = widen(*cell).unwrap_or(FORBIDDEN);
                    }
                }
            }
        }
    }

    /// Chains and table by one integer sweep per end and a join per pair.
    fn one_by_one(
        &mut self,
        full: &Full<'_>,
        s: &mut ContractionScratch,
        exits: &[u32],
        entries: &[u32],
    ) {
        for (d, ends, first, chain) in [
            (0, exits, &mut self.exit_first, &mut self.exit_chain),
            (1, entries, &mut self.entry_first, &mut self.entry_chain),
        ] {
            first.clear();
            first.push(0);
            chain.clear();
            for &r in ends {
                s.begin(full.ranks());
                full.reach(s, d, r);
                s.dist[d][r as usize] = 0;
                super::patched::sweep(full, s, d);
                chain.extend(
                    s.space[d]
                        .iter()
                        .map(|x| (*x, s.dist[d][*x as usize]))
                        .filter(|(_, c)| *c < FORBIDDEN),
                );
                first.push(chain.len() as u32);
            }
        }
        let (nx, ne) = (exits.len(), entries.len());
        self.table.clear();
        for x in 0..nx {
            for e in 0..ne {
                self.table.push(join(self.exit(x), self.entry(e)));
            }
        }
    }
}

/// The least sum over the ranks two chains (ascending by rank) share.
fn join(a: &[(u32, u64)], b: &[(u32, u64)]) -> u64 {
    let (mut i, mut j, mut best) = (0, 0, FORBIDDEN);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                best = best.min(a[i].1 + b[j].1);
                i += 1;
                j += 1;
            }
        }
    }
    best
}

/// Scratch of [`PatchChains::compute`]: the union of the ends' ancestors
/// and, per block of [`LANES`] ends, each lane's least cost there.
#[derive(Debug, Clone, Default)]
pub(super) struct Lanes {
    /// The union, ascending by rank.
    union: Vec<u32>,
    /// Per rank of the union, its place there (stale elsewhere).
    place: Vec<u32>,
    /// `dist[block * union.len() + i][lane]`: the least cost between the
    /// block's lane's end and the union's `i`-th rank, in units of the
    /// metric's scale; the exits' blocks first, then the entries'.
    dist: Vec<[f64; LANES]>,
}

impl Lanes {
    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        (self.union.capacity() + self.place.capacity()) * 4 + self.dist.capacity() * 8 * LANES
    }

    /// Sweeps the exits upward (direction 0) and the entries downward
    /// (direction 1), [`LANES`] at a time over the union of their
    /// ancestors: whether every finite sum stayed below `exact`.
    fn sweep(
        &mut self,
        full: &Full<'_>,
        s: &mut ContractionScratch,
        exits: &[u32],
        entries: &[u32],
        exact: f64,
    ) -> bool {
        // The union is closed upward: every edge swept leads into it.
        s.begin(full.ranks());
        for &r in exits.iter().chain(entries) {
            full.reach(s, 0, r);
        }
        self.union.clear();
        self.union.append(&mut s.space[0]);
        sort_ranks(&mut self.union, &mut s.sort_buf, full.ranks());
        if self.place.len() < full.ranks() {
            self.place.resize(full.ranks(), 0);
        }
        for (i, r) in self.union.iter().enumerate() {
            self.place[*r as usize] = i as u32;
        }
        let u = self.union.len();
        let blocks = exits.len().div_ceil(LANES) + entries.len().div_ceil(LANES);
        self.dist.clear();
        self.dist.resize(blocks * u, [NO_ROUTE; LANES]);
        if u == 0 {
            return true;
        }
        // (The blocks are independent, but on two threads of rayon's pool
        // they took longer on the project's 2-core machine, and slowed the
        // re-customization beside them.)
        let metric = full.metric;
        let blocks = (exits.chunks(LANES).map(|ends| (&metric.up[..], ends)))
            .chain(entries.chunks(LANES).map(|ends| (&metric.down[..], ends)));
        let (union, place) = (&self.union[..], &self.place[..]);
        let mut exact_everywhere = true;
        for (dist, (costs, ends)) in self.dist.chunks_mut(u).zip(blocks) {
            for (lane, r) in ends.iter().enumerate() {
                dist[place[*r as usize] as usize][lane] = 0.0;
            }
            exact_everywhere &= sweep_block(full, costs, (union, place), dist, exact);
        }
        exact_everywhere
    }
}

/// Sweeps one block of lanes over `union` (with each rank's `place` in
/// it) by the stored costs `costs` of one direction: whether every finite
/// sum stayed below `exact`.
fn sweep_block(
    full: &Full<'_>,
    costs: &[u32],
    (union, place): (&[u32], &[u32]),
    dist: &mut [[f64; LANES]],
    exact: f64,
) -> bool {
    let (cch, metric) = (full.cch, full.metric);
    let mut exact_everywhere = true;
    for (i, &r) in union.iter().enumerate() {
        let from = dist[i];
        if from.iter().all(|c| *c >= NO_ROUTE) {
            continue;
        }
        exact_everywhere &= from.iter().all(|c| *c < exact || *c >= NO_ROUTE);
        for e in cch.up_range(r) {
            let c = metric.stored_as_f64(costs[e], NO_ROUTE);
            let to = &mut dist[place[cch.up_to[e] as usize] as usize];
            for (t, f) in to.iter_mut().zip(&from) {
                let sum = f + c;
                *t = if sum < *t { sum } else { *t };
            }
        }
    }
    // A lane is finite between `exact` and NO_ROUTE only if a finite sum
    // got there (a finite lane plus NO_ROUTE lands at or above NO_ROUTE),
    // and every finite lane was looked at above.
    exact_everywhere
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contraction::tests::{Lcg, grid_graph};
    use crate::contraction::{Contraction, FORBIDDEN};

    /// The lanes give the chains and table of one sweep per end, on grids
    /// with forbidden arcs, ends in blocks full and not.
    #[test]
    fn lanes_equal_one_sweep_per_end() {
        let mut rng = Lcg(7);
        let (mut finite, mut pairs) = (0, 0);
        for seed in 0..6 {
            let (mut a, coords) = grid_graph(9, 8, seed);
            for c in a.cost.iter_mut() {
                if rng.next(7) == 0 {
                    *c = FORBIDDEN;
                } else {
                    *c *= 3;
                }
            }
            let cch = Contraction::on_grid(&a.graph(), &coords, 2).unwrap();
            let metric = cch.customize(&a.cost).unwrap();
            let full = Full {
                cch: &cch,
                metric: &metric,
            };
            let n = cch.nodes() as u64;
            let mut s = ContractionScratch::default();
            let mut lanes = Lanes::default();
            for (nx, ne) in [(1, 1), (3, 9), (17, 16), (8, 8), (0, 5)] {
                let exits: Vec<u32> = (0..nx).map(|_| rng.next(n) as u32).collect();
                let entries: Vec<u32> = (0..ne).map(|_| rng.next(n) as u32).collect();
                let mut by_lanes = PatchChains::default();
                by_lanes.compute(&full, &mut s, &mut lanes, &exits, &entries);
                let mut by_ends = PatchChains::default();
                // Nothing is exact below 0: one sweep per end.
                by_ends.compute_below(&full, &mut s, &mut lanes, (&exits, &entries), 0.0);
                for x in 0..nx {
                    assert_eq!(by_lanes.exit(x), by_ends.exit(x), "exit {x}");
                    for e in 0..ne {
                        assert_eq!(by_lanes.table(x, e), by_ends.table(x, e), "{x} -> {e}");
                    }
                }
                for e in 0..ne {
                    assert_eq!(by_lanes.entry(e), by_ends.entry(e), "entry {e}");
                }
                finite += by_ends.table.iter().filter(|c| **c < FORBIDDEN).count();
                pairs += nx * ne;
            }
        }
        // Most pairs are joined: the comparison is not of empty tables.
        assert!(finite * 2 > pairs, "{finite} of {pairs}");
    }
}
