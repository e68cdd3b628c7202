//! Writing a landmark table in place: what a repair changes in it (see
//! `dynamic::landmark_repair`) without computing every distance again.

use super::distances::{Buckets, distances_from, widen};
use super::{Landmarks, UNREACHED};
use crate::packed::Column64;
use crate::preprocess::graph::ClusterGraph;

impl Landmarks {
    /// Nodes the table holds distances for.
    pub(crate) fn nodes_held(&self) -> usize {
        if self.count == 0 {
            0
        } else {
            self.dist.len() / self.count as usize
        }
    }

    /// Sets the distance from landmark `l` to node `v`, widening the table
    /// when the distance does not fit its narrow form.
    #[inline]
    pub(crate) fn set(&mut self, v: u32, l: usize, d: u64) {
        let i = v as usize * self.count as usize + l;
        match &mut self.dist {
            Column64::Narrow(c) if d < u32::MAX as u64 || d == UNREACHED => {
                c[i] = if d == UNREACHED { u32::MAX } else { d as u32 };
            }
            Column64::Narrow(c) => {
                let mut wide: Vec<u64> = c.iter().map(|x| widen(*x)).collect();
                wide[i] = d;
                self.dist = Column64::Wide(wide);
            }
            Column64::Wide(c) => c[i] = d,
        }
    }

    /// Renumbers the nodes after a repair: old node `i` becomes `remap[i]`
    /// (`u32::MAX`: gone) of `n` nodes, nodes new to the graph start
    /// unreached, and a landmark whose node is gone gets `u32::MAX`. `runs`
    /// are the runs of old nodes that move together, in order, each the
    /// longest possible (the repair knows them: no pass over `remap`). Free
    /// when no node moved; else the runs are moved in place (the kept nodes
    /// keep their order).
    pub(crate) fn renumber(&mut self, remap: &[u32], runs: &[Run], n: usize) {
        for node in &mut self.nodes {
            *node = remap[*node as usize];
        }
        let k = self.count as usize;
        if k == 0 || (remap.len() == n && (n == 0 || runs == [(0, 0, n)])) {
            return;
        }
        match &mut self.dist {
            Column64::Narrow(c) => shift(c, runs, n, k, u32::MAX),
            Column64::Wide(c) => shift(c, runs, n, k, UNREACHED),
        }
    }

    /// Narrows a wide table whose distances all fit again, as a build would
    /// store it (a no-op on a narrow one).
    pub(crate) fn canonicalize(&mut self) {
        if self.count == 0 {
            *self = Landmarks::default();
        } else if let Column64::Wide(c) = &mut self.dist
            && c.iter().all(|d| *d < u32::MAX as u64 || *d == UNREACHED)
        {
            self.dist = Column64::pack(std::mem::take(c));
        }
    }

    /// Makes `node` landmark `l` and computes its distances over `graph` (one
    /// search over the whole graph).
    pub(crate) fn replace(&mut self, graph: &ClusterGraph, l: usize, node: u32) {
        let n = self.nodes_held();
        self.nodes[l] = node;
        let column = distances_from(graph, node, n, Buckets::for_graph(graph));
        for (v, d) in column.widened().into_iter().enumerate() {
            self.set(v as u32, l, d);
        }
    }

    /// Removes landmark `l` (its column and node).
    pub(crate) fn remove(&mut self, l: usize) {
        let (k, n) = (self.count as usize, self.nodes_held());
        self.nodes.remove(l);
        if k == 1 {
            *self = Landmarks::default();
            return;
        }
        let kept = (0..n * k)
            .filter(|i| i % k != l)
            .map(|i| self.dist.get(i))
            .collect();
        self.dist = Column64::pack(kept);
        self.count -= 1;
    }
}

/// A run of old nodes renumbered together: `(from, to, len)`, old nodes
/// `from..from + len` becoming `to..to + len`.
pub(crate) type Run = (usize, usize, usize);

/// The runs of a renumbering (`remap`, increasing over the kept nodes),
/// each the longest possible, in order: what a repair's renumbering gives
/// [`Landmarks::renumber`], found here by a pass over the table.
#[cfg(test)]
pub(crate) fn runs_of(remap: &[u32]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut i = 0;
    while i < remap.len() {
        if remap[i] == u32::MAX {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < remap.len() && remap[j] == remap[i].wrapping_add((j - i) as u32) {
            j += 1;
        }
        runs.push((i, remap[i] as usize, j - i));
        i = j;
    }
    runs
}

/// Moves `k` values per node in place from the old numbering to the new
/// (`runs`, in order), `none` at new nodes. The destinations lie in the
/// sources' order, so runs moving towards the start are moved first in
/// ascending order and runs moving towards the end then in descending
/// order, each without overwriting a source still to be read.
fn shift<T: Copy>(values: &mut Vec<T>, runs: &[Run], n: usize, k: usize, none: T) {
    if values.len() < n * k {
        values.resize(n * k, none);
    }
    for &(from, to, len) in runs.iter().filter(|r| r.1 < r.0) {
        values.copy_within(from * k..(from + len) * k, to * k);
    }
    for &(from, to, len) in runs.iter().rev().filter(|r| r.1 > r.0) {
        values.copy_within(from * k..(from + len) * k, to * k);
    }
    values.truncate(n * k);
    // New nodes: the gaps between destinations.
    let mut next = 0;
    for &(_, to, len) in runs {
        values[next * k..to * k].fill(none);
        next = to + len;
    }
    values[next * k..].fill(none);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two landmarks over five nodes: distance `10 * v + l`, node 1 of
    /// landmark 1 unreached.
    fn table() -> Landmarks {
        let mut d: Vec<u64> = (0..5u64)
            .flat_map(|v| (0..2u64).map(move |l| 10 * v + l))
            .collect();
        d[3] = UNREACHED;
        Landmarks {
            count: 2,
            nodes: vec![0, 3],
            dist: Column64::pack(d),
        }
    }

    /// Renumbers `lm` by `remap`, its runs found by a pass.
    fn renumber(lm: &mut Landmarks, remap: &[u32], n: usize) {
        lm.renumber(remap, &runs_of(remap), n);
    }

    #[test]
    fn renumbering_moves_runs_and_drops_gone_nodes() {
        let mut lm = table();
        // Node 1 gone, 2..4 shift down, 4 moves past a new node 3.
        renumber(&mut lm, &[0, u32::MAX, 1, 2, 4], 6);
        assert_eq!(lm.nodes, vec![0, 2]);
        let got: Vec<u64> = (0..12).map(|i| lm.dist.get(i)).collect();
        let u = UNREACHED;
        assert_eq!(got, vec![0, 1, 20, 21, 30, 31, u, u, 40, 41, u, u]);
        // A landmark whose node is gone is marked.
        let mut lm = table();
        lm.nodes = vec![1, 4];
        renumber(&mut lm, &[0, u32::MAX, 1, 2, 3], 4);
        assert_eq!(lm.nodes, vec![u32::MAX, 3]);
        // No node moved: the table stays as it was.
        let mut same = table();
        renumber(&mut same, &[0, 1, 2, 3, 4], 5);
        assert_eq!(same, table());
    }

    #[test]
    fn moving_in_place_equals_copying() {
        let mut x = 0x9e37_79b9u64;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for round in 0..500 {
            let (old_n, k) = (next(40) as usize, 1 + next(4) as usize);
            // Kept nodes keep their order; gaps open and close anywhere.
            let mut remap = Vec::new();
            let mut to = next(3) as u32;
            for _ in 0..old_n {
                if next(4) == 0 {
                    remap.push(u32::MAX);
                } else {
                    remap.push(to);
                    to += 1 + (next(5) == 0) as u32 * next(4) as u32;
                }
            }
            let n = to as usize + next(3) as usize;
            let values: Vec<u64> = (0..old_n * k).map(|i| i as u64).collect();
            let mut want = vec![UNREACHED; n * k];
            for (i, r) in remap.iter().enumerate().filter(|(_, r)| **r != u32::MAX) {
                let r = *r as usize;
                want[r * k..(r + 1) * k].copy_from_slice(&values[i * k..(i + 1) * k]);
            }
            let mut got = values.clone();
            shift(&mut got, &runs_of(&remap), n, k, UNREACHED);
            assert_eq!(got, want, "round {round}: {remap:?} to {n}");
        }
    }

    #[test]
    fn writes_widen_and_tables_narrow_again() {
        let mut lm = table();
        lm.set(2, 1, 1 << 40);
        assert!(matches!(lm.dist, Column64::Wide(_)));
        assert_eq!(lm.get(2, 1), 1 << 40);
        assert_eq!(lm.get(1, 1), UNREACHED);
        lm.set(2, 1, 21);
        lm.canonicalize();
        assert_eq!(lm, table());
        lm.remove(0);
        assert_eq!((lm.count, lm.nodes.clone()), (1, vec![3]));
        let col: Vec<u64> = (0..5).map(|v| lm.get(v, 0)).collect();
        assert_eq!(col, vec![1, UNREACHED, 21, 31, 41]);
        lm.remove(0);
        assert_eq!(lm, Landmarks::default());
    }
}
