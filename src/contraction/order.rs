//! The metric-independent node order (nested dissection) and the fill.
//!
//! # Order
//! A part of the graph is cut by a line across one coordinate axis, at the
//! position (among those leaving at least a quarter of the part on each side)
//! crossed by the fewest edges, ties broken towards the middle; both axes are
//! tried and the smaller cut wins. The separator is the smaller of the two
//! sets of cut-edge endpoints; it takes the highest ranks of the part, and
//! both sides are ordered the same way, recursively. On the cluster graph the
//! cheapest cuts run along cluster borders, where only the links between
//! facing transitions cross. Without coordinates, breadth-first levels from
//! a far node serve as the single axis. The two sides of a large part are
//! ordered on two threads (rayon); the order is the same on any number.
//!
//! # Fill
//! Eliminating the nodes in rank order joins each node's upward neighbours
//! into a clique. The upward neighbourhood of `u` is its input upward
//! neighbours plus those of its children in the elimination tree (the nodes
//! whose lowest upward neighbour is `u`), minus `u`: one pass, bottom up.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicU8, AtomicU32};

use super::{ArcGraph, NONE};

/// Parts at most this small are ordered as they come.
const LEAF: usize = 4;

/// The undirected simple graph under a directed one, as CSR.
pub(super) struct Adjacency {
    first: Vec<u32>,
    to: Vec<u32>,
}

impl Adjacency {
    /// Both directions of every arc, without loops or repeats.
    pub(super) fn undirected(graph: &ArcGraph) -> Self {
        let n = graph.nodes();
        let (degree, mut to) = super::bucket(n, || {
            (0..n as u32).flat_map(move |v| {
                graph
                    .out(v)
                    .filter(move |(_, w)| *w != v)
                    .flat_map(move |(_, w)| [(v, w), (w, v)])
            })
        });
        // Sort and deduplicate each row, compacting.
        let mut first = vec![0u32; n + 1];
        let mut out = 0usize;
        for v in 0..n {
            let (a, b) = (degree[v] as usize, degree[v + 1] as usize);
            to[a..b].sort_unstable();
            let mut last = NONE;
            for i in a..b {
                if to[i] != last {
                    last = to[i];
                    to[out] = last;
                    out += 1;
                }
            }
            first[v + 1] = out as u32;
        }
        to.truncate(out);
        Adjacency { first, to }
    }

    fn nodes(&self) -> usize {
        self.first.len() - 1
    }

    #[inline]
    fn neighbours(&self, v: u32) -> &[u32] {
        &self.to[self.first[v as usize] as usize..self.first[v as usize + 1] as usize]
    }
}

/// Breadth-first levels from a node far from `start`'s component, a stand-in
/// for one coordinate when none are given.
fn bfs_levels(adj: &Adjacency) -> Vec<(u32, u32)> {
    let n = adj.nodes();
    let mut level = vec![NONE; n];
    let mut queue = Vec::with_capacity(n);
    let run = |root: u32, level: &mut Vec<u32>, queue: &mut Vec<u32>| -> u32 {
        let begin = queue.len();
        level[root as usize] = 0;
        queue.push(root);
        let mut i = begin;
        while i < queue.len() {
            let v = queue[i];
            i += 1;
            for w in adj.neighbours(v) {
                if level[*w as usize] == NONE {
                    level[*w as usize] = level[v as usize] + 1;
                    queue.push(*w);
                }
            }
        }
        *queue.last().expect("root pushed")
    };
    for root in 0..n as u32 {
        if level[root as usize] != NONE {
            continue;
        }
        // Twice: the last node reached from any root is far out; restart there.
        let begin = queue.len();
        let far = run(root, &mut level, &mut queue);
        for v in &queue[begin..] {
            level[*v as usize] = NONE;
        }
        queue.truncate(begin);
        run(far, &mut level, &mut queue);
    }
    level.into_iter().map(|l| (l, 0)).collect()
}

/// A node order (input node of each rank) by nested dissection.
pub(super) fn nested_dissection(adj: &Adjacency, coords: Option<&[(u32, u32)]>) -> Vec<u32> {
    let levels;
    let coords = match coords {
        Some(c) => c,
        None => {
            levels = bfs_levels(adj);
            &levels
        }
    };
    dissect(adj, &|cut, shared, nodes, id| {
        cut.best(adj, coords, shared, nodes, id)
    })
}

/// A node order by nested dissection along the borders of a grid of square
/// cells of side `cell` (the cluster grid): no cut search. A part is cut
/// across the longer side of its box of cells, at the border nearest the
/// middle; a part within one cell is ordered as it comes.
pub(super) fn grid_dissection(adj: &Adjacency, coords: &[(u32, u32)], cell: u32) -> Vec<u32> {
    dissect(adj, &|_, shared, nodes, id| {
        let (mut lo, mut hi) = ((u32::MAX, u32::MAX), (0, 0));
        for v in nodes {
            let (x, y) = coords[*v as usize];
            let (cx, cy) = (x / cell, y / cell);
            lo = (lo.0.min(cx), lo.1.min(cy));
            hi = (hi.0.max(cx), hi.1.max(cy));
        }
        let (span_x, span_y) = (hi.0 - lo.0, hi.1 - lo.1);
        if span_x == 0 && span_y == 0 {
            return None;
        }
        // Cells at or after `at` go right: both sides hold a node.
        Some(if span_x >= span_y {
            let at = lo.0 + span_x.div_ceil(2);
            split(adj, shared, nodes, id, |v| {
                coords[v as usize].0 / cell >= at
            })
        } else {
            let at = lo.1 + span_y.div_ceil(2);
            split(adj, shared, nodes, id, |v| {
                coords[v as usize].1 / cell >= at
            })
        })
    })
}

/// A part's cut: `(left, right, separator)`, or `None` to leave it whole.
type Split = Option<(Vec<u32>, Vec<u32>, Vec<u32>)>;

/// What the parts of one dissection share, per node: the part it is in now
/// (the part's id, to see which edges stay within a part), its key's index
/// in the cut search (one per axis: a large part searches both at once) and
/// its side in a split. Parts ordered at the same time
/// are disjoint, and each writes only its own nodes' entries and reads a
/// neighbour's only once the neighbour's part id says it is in the same
/// part, so the threads share them as relaxed atomics (plain loads and
/// stores).
struct Shared {
    part_of: Vec<AtomicU32>,
    /// Per axis (the second for parts whose axes are searched side by side).
    index: [Vec<AtomicU32>; 2],
    side: Vec<AtomicU8>,
    next_part: AtomicU32,
}

impl Shared {
    fn in_part(&self, v: u32, id: u32) -> bool {
        self.part_of[v as usize].load(Relaxed) == id
    }
}

/// Parts with at least this many nodes on each side are ordered on two
/// threads (rayon): smaller ones cost more to hand over than to order.
const PARALLEL_SIDE: usize = 2048;

/// Nested dissection driven by `cut(scratch, shared, nodes, id)`, which
/// splits a part into `(left, right, separator)` or leaves it whole
/// (`None`): the separator takes the part's highest ranks, the sides
/// recurse, on two threads when both are large. The order does not depend
/// on the threads: a part's cut depends on its nodes alone.
fn dissect(
    adj: &Adjacency,
    cut: &(impl Fn(&mut Cut, &Shared, &[u32], u32) -> Split + Sync),
) -> Vec<u32> {
    let n = adj.nodes();
    let shared = Shared {
        part_of: (0..n).map(|_| AtomicU32::new(0)).collect(),
        index: [0, 1].map(|_| (0..n).map(|_| AtomicU32::new(0)).collect()),
        side: (0..n).map(|_| AtomicU8::new(0)).collect(),
        next_part: AtomicU32::new(1),
    };
    let mut order = vec![NONE; n];
    dissect_part(&shared, cut, (0..n as u32).collect(), &mut order);
    debug_assert!(order.iter().all(|v| *v != NONE));
    order
}

/// Orders the part `nodes` into `out` (its ranks, lowest first).
fn dissect_part(
    shared: &Shared,
    cut: &(impl Fn(&mut Cut, &Shared, &[u32], u32) -> Split + Sync),
    nodes: Vec<u32>,
    out: &mut [u32],
) {
    let mut scratch = Cut::default();
    // Parts still to order on this thread, with where their ranks go.
    let mut stack = vec![(nodes, out)];
    while let Some((nodes, out)) = stack.pop() {
        let id = shared.next_part.fetch_add(1, Relaxed);
        for v in &nodes {
            shared.part_of[*v as usize].store(id, Relaxed);
        }
        let split = if nodes.len() > LEAF {
            cut(&mut scratch, shared, &nodes, id)
        } else {
            None
        };
        let Some((left, right, separator)) = split else {
            out.copy_from_slice(&nodes);
            continue;
        };
        let (sides, top) = out.split_at_mut(left.len() + right.len());
        top.copy_from_slice(&separator);
        let (left_out, right_out) = sides.split_at_mut(left.len());
        if left.len().min(right.len()) >= PARALLEL_SIDE {
            rayon::join(
                || dissect_part(shared, cut, left, left_out),
                || dissect_part(shared, cut, right, right_out),
            );
        } else {
            stack.push((left, left_out));
            stack.push((right, right_out));
        }
    }
}

/// Scratch of the cut search (per thread, one per axis).
#[derive(Default)]
struct Cut {
    /// The part's distinct keys, ascending.
    keys: Vec<u32>,
    /// Per key (by its place in `keys`): the edges crossing a cut just
    /// after it, and how many nodes have it.
    crossing: Vec<i64>,
    count: Vec<u32>,
    /// Per coordinate from the part's least: its place in `keys`, or
    /// `NONE`.
    slot: Vec<u32>,
    /// The other axis's scratch, for parts large enough to search both
    /// axes side by side.
    other: Option<Box<Cut>>,
}

/// Parts with at least this many nodes search their two axes on two threads.
const PARALLEL_AXES: usize = 4 * PARALLEL_SIDE;

/// A part's key range up to this many times its node count is indexed by
/// counting over the range; a wider one (a few nodes far apart) by sorting.
const DENSE_KEYS: usize = 8;

impl Cut {
    /// The best balanced cut of `nodes` over both axes: `(left, right,
    /// separator)`, the sides without the separator. `None` when no axis
    /// separates the part.
    fn best(
        &mut self,
        adj: &Adjacency,
        coords: &[(u32, u32)],
        shared: &Shared,
        nodes: &[u32],
        id: u32,
    ) -> Split {
        let key_x = |v: u32| coords[v as usize].0;
        let key_y = |v: u32| coords[v as usize].1;
        let (x, y) = if nodes.len() >= PARALLEL_AXES {
            let mut other = self.other.take().unwrap_or_default();
            let found = rayon::join(
                || self.along(adj, &shared.part_of, &shared.index[0], nodes, id, &key_x),
                || other.along(adj, &shared.part_of, &shared.index[1], nodes, id, &key_y),
            );
            self.other = Some(other);
            found
        } else {
            (
                self.along(adj, &shared.part_of, &shared.index[0], nodes, id, &key_x),
                self.along(adj, &shared.part_of, &shared.index[0], nodes, id, &key_y),
            )
        };
        let (axis, at): (&dyn Fn(u32) -> u32, u32) = match (x, y) {
            (Some(a), Some(b)) if b.0 < a.0 => (&key_y, b.1),
            (Some(a), _) => (&key_x, a.1),
            (None, Some(b)) => (&key_y, b.1),
            (None, None) => return None,
        };
        Some(split(adj, shared, nodes, id, |v| axis(v) > at))
    }

    /// Fills `keys` with the distinct keys of `nodes`, ascending, and
    /// `index` with each node's place among them.
    fn index_keys(&mut self, index: &[AtomicU32], nodes: &[u32], key: &dyn Fn(u32) -> u32) {
        self.keys.clear();
        if nodes.is_empty() {
            return;
        }
        let (lo, hi) = nodes.iter().fold((u32::MAX, 0), |(lo, hi), v| {
            let k = key(*v);
            (lo.min(k), hi.max(k))
        });
        let span = (hi - lo) as usize + 1;
        if span > DENSE_KEYS * nodes.len() {
            self.keys.extend(nodes.iter().map(|v| key(*v)));
            self.keys.sort_unstable();
            self.keys.dedup();
            for v in nodes {
                let i = self
                    .keys
                    .binary_search(&key(*v))
                    .expect("key of a node in the part");
                index[*v as usize].store(i as u32, Relaxed);
            }
            return;
        }
        self.slot.clear();
        self.slot.resize(span, NONE);
        for v in nodes {
            self.slot[(key(*v) - lo) as usize] = 0;
        }
        for (k, slot) in self.slot.iter_mut().enumerate() {
            if *slot != NONE {
                *slot = self.keys.len() as u32;
                self.keys.push(lo + k as u32);
            }
        }
        for v in nodes {
            index[*v as usize].store(self.slot[(key(*v) - lo) as usize], Relaxed);
        }
    }

    /// The best cut along one axis: `(edges crossing, position)`; nodes with
    /// key `<= position` go left. `index` holds each node's place among the
    /// part's keys while it runs.
    fn along(
        &mut self,
        adj: &Adjacency,
        part_of: &[AtomicU32],
        index: &[AtomicU32],
        nodes: &[u32],
        id: u32,
        key: &dyn Fn(u32) -> u32,
    ) -> Option<(u64, u32)> {
        self.index_keys(index, nodes, key);
        let keys = &self.keys;
        if keys.len() < 2 {
            return None;
        }
        self.crossing.clear();
        self.crossing.resize(keys.len(), 0);
        // How many nodes have each key, for the balance.
        self.count.clear();
        self.count.resize(keys.len(), 0);
        let (crossing, count) = (&mut self.crossing[..], &mut self.count[..]);
        let index = |v: u32| index[v as usize].load(Relaxed) as usize;
        for v in nodes {
            let i = index(*v);
            count[i] += 1;
            for w in adj.neighbours(*v) {
                if part_of[*w as usize].load(Relaxed) != id {
                    continue;
                }
                let j = index(*w);
                if i < j {
                    crossing[i] += 1;
                    crossing[j] -= 1;
                }
            }
        }
        let m = nodes.len() as u64;
        let mut best: Option<(u64, u64, u32)> = None; // (crossing, imbalance, key)
        let (mut running, mut left) = (0i64, 0u64);
        for i in 0..keys.len() - 1 {
            running += crossing[i];
            left += count[i] as u64;
            if 4 * left < m || 4 * (m - left) < m {
                continue;
            }
            let candidate = (running as u64, (2 * left).abs_diff(m), keys[i]);
            if best.is_none_or(|b| (candidate.0, candidate.1) < (b.0, b.1)) {
                best = Some(candidate);
            }
        }
        if best.is_none() {
            // Too few distinct keys for a balanced cut: the median one.
            let (mut left, mut i) = (0u64, 0);
            while i < keys.len() - 1 && 2 * (left + count[i] as u64) <= m {
                left += count[i] as u64;
                i += 1;
            }
            let i = i.min(keys.len() - 2);
            let running: i64 = crossing[..=i].iter().sum();
            best = Some((running as u64, 0, keys[i]));
        }
        best.map(|(c, _, k)| (c, k))
    }
}

/// Splits a part by `right` (which side each node is on): `(left, right,
/// separator)`, the separator being the smaller of the two endpoint sets of
/// the edges crossing, taken out of the sides.
fn split(
    adj: &Adjacency,
    shared: &Shared,
    nodes: &[u32],
    id: u32,
    right: impl Fn(u32) -> bool,
) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
    // Sides: 0 left, 1 right; then the separator (2).
    let side = |v: u32| shared.side[v as usize].load(Relaxed);
    let set_side = |v: u32, s: u8| shared.side[v as usize].store(s, Relaxed);
    let (mut on_left, mut on_right) = (Vec::new(), Vec::new());
    for v in nodes {
        set_side(*v, u8::from(right(*v)));
    }
    for v in nodes {
        let s = side(*v);
        let crosses = adj
            .neighbours(*v)
            .iter()
            .any(|w| shared.in_part(*w, id) && side(*w) != s);
        if crosses {
            if s == 0 {
                on_left.push(*v)
            } else {
                on_right.push(*v)
            }
        }
    }
    let separator = if on_left.len() <= on_right.len() {
        on_left
    } else {
        on_right
    };
    for v in &separator {
        set_side(*v, 2);
    }
    let (mut left, mut right) = (Vec::new(), Vec::new());
    for v in nodes {
        match side(*v) {
            0 => left.push(*v),
            1 => right.push(*v),
            _ => {}
        }
    }
    (left, right, separator)
}

/// The chordal supergraph in rank space: per rank, its upward neighbours
/// ascending, as CSR `(first, to)`.
pub(super) fn fill(adj: &Adjacency, rank: &[u32], node_of: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = node_of.len();
    let mut first = Vec::with_capacity(n + 1);
    first.push(0u32);
    let mut to: Vec<u32> = Vec::new();
    // Children in the elimination tree, as linked lists.
    let mut first_child = vec![NONE; n];
    let mut next_sibling = vec![NONE; n];
    let mut seen = vec![NONE; n];
    let mut row = Vec::new();
    for u in 0..n as u32 {
        row.clear();
        seen[u as usize] = u;
        for w in adj.neighbours(node_of[u as usize]) {
            let r = rank[*w as usize];
            if r > u && seen[r as usize] != u {
                seen[r as usize] = u;
                row.push(r);
            }
        }
        let mut c = first_child[u as usize];
        while c != NONE {
            let (a, b) = (first[c as usize] as usize, first[c as usize + 1] as usize);
            for r in &to[a..b] {
                if seen[*r as usize] != u {
                    seen[*r as usize] = u;
                    row.push(*r);
                }
            }
            c = next_sibling[c as usize];
        }
        row.sort_unstable();
        to.extend_from_slice(&row);
        first.push(to.len() as u32);
        if let Some(p) = row.first() {
            next_sibling[u as usize] = first_child[*p as usize];
            first_child[*p as usize] = u;
        }
    }
    (first, to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contraction::tests::grid_graph;

    #[test]
    fn the_order_is_the_same_on_one_thread_and_on_several() {
        // Large enough for the top parts to split on two threads.
        let (a, coords) = grid_graph(150, 100, 5);
        let adj = Adjacency::undirected(&a.graph());
        let on = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                (
                    nested_dissection(&adj, Some(&coords)),
                    nested_dissection(&adj, None),
                    grid_dissection(&adj, &coords, 8),
                )
            })
        };
        let one = on(1);
        for order in [&one.0, &one.1, &one.2] {
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert!(sorted.iter().copied().eq(0..15_000), "a permutation");
        }
        assert!(one == on(4));
    }
}
