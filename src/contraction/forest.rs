//! The elimination forest as a schedule: the customization's passes over
//! the ranks, with independent subtrees on several threads.
//!
//! Both triangle passes touch, for a rank `u`, only `u`'s own upward edges
//! (written) and the edges of `u`'s relatives on one side (read): the
//! bottom-up customization reads its descendants' edges (every lower
//! neighbour of `u` lies in `u`'s subtree), the top-down perfect
//! customization its ancestors' (every upward neighbour is an ancestor). So
//! any order that visits a node after its children (bottom up) or after its
//! parent (top down) computes exactly what the rank order does, and two
//! disjoint subtrees never read what the other writes: they run in
//! parallel (rayon), joined before their common ancestors (bottom up) or
//! started after them (top down). Nested dissection splits a part's
//! ranks between its two sides below the separator's chain, so the forest
//! branches into large subtrees near the top.

use rayon::prelude::*;

use super::Contraction;

/// Whether a pass visits a node after its children or after its parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Direction {
    /// After all its descendants (the customization).
    BottomUp,
    /// After all its ancestors (the perfect customization).
    TopDown,
}

/// The elimination forest of a contraction: children lists and subtree
/// sizes, per rank.
#[derive(Debug)]
pub(super) struct Forest {
    /// `children[child_first[u]..child_first[u + 1]]` are `u`'s children.
    child_first: Vec<u32>,
    children: Vec<u32>,
    /// Nodes in the subtree of each rank, itself included.
    size: Vec<u32>,
    roots: Vec<u32>,
    /// A subtree at least this large is worth a thread of its own.
    grain: u32,
}

/// The smallest subtree handed to a thread of its own: smaller ones cost
/// more to schedule than to run (a rank's pass is about a microsecond).
const MIN_GRAIN: u32 = 1024;

/// A subtree is large from `1 / SPLITS` of the graph up: a parallel split
/// leaves at least that much to a sibling, so a root-to-leaf path meets at
/// most `SPLITS` of them and the recursion stays shallow whatever the
/// forest's shape.
const SPLITS: u32 = 64;

impl Forest {
    /// The forest of `cch` (a rank's parent is its lowest upward neighbour).
    pub(super) fn new(cch: &Contraction) -> Forest {
        let n = cch.nodes();
        let parent: Vec<Option<u32>> = (0..n as u32).map(|u| cch.parent(u)).collect();
        // Children by parent, each list ascending.
        let (child_first, children) = super::bucket(n, || {
            parent
                .iter()
                .enumerate()
                .filter_map(|(u, p)| p.map(|p| (p, u as u32)))
        });
        let roots = (0..n as u32)
            .filter(|u| parent[*u as usize].is_none())
            .collect();
        // A parent ranks above its children: ascending ranks see every
        // subtree complete before its root's parent adds it.
        let mut size = vec![1u32; n];
        for (u, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                size[*p as usize] += size[u];
            }
        }
        Forest {
            child_first,
            children,
            size,
            roots,
            grain: MIN_GRAIN.max(n as u32 / SPLITS),
        }
    }

    /// A forest that visits the `n` ranks one by one in rank order, on one
    /// thread (a chain: each rank the parent of the one below): the order the
    /// passes were written for, to compare with.
    #[cfg(test)]
    pub(super) fn in_rank_order(n: usize) -> Forest {
        let n = n as u32;
        Forest {
            child_first: (0..=n).map(|u| u.saturating_sub(1)).collect(),
            children: (0..n.saturating_sub(1)).collect(),
            size: (1..=n).collect(),
            roots: n.checked_sub(1).into_iter().collect(),
            grain: u32::MAX,
        }
    }

    fn children(&self, u: u32) -> &[u32] {
        &self.children
            [self.child_first[u as usize] as usize..self.child_first[u as usize + 1] as usize]
    }

    fn is_large(&self, u: u32) -> bool {
        self.size[u as usize] >= self.grain
    }

    /// Calls `visit` once on every rank, in `direction`'s order, subtrees
    /// that split into two large parts on several threads. Whether every
    /// visit returned true (all are made either way).
    pub(super) fn walk(&self, direction: Direction, visit: &(impl Fn(u32) -> bool + Sync)) -> bool {
        self.walk_all(&self.roots, direction, visit)
    }

    /// [`walk`](Self::walk) over the subtrees of `tops`: the large ones in
    /// parallel when two or more are, the small ones on this thread.
    fn walk_all(
        &self,
        tops: &[u32],
        direction: Direction,
        visit: &(impl Fn(u32) -> bool + Sync),
    ) -> bool {
        if tops.iter().filter(|t| self.is_large(**t)).count() >= 2 {
            tops.par_iter()
                .map(|t| self.walk_from(*t, direction, visit))
                .reduce(|| true, |a, b| a & b)
        } else {
            tops.iter()
                .fold(true, |ok, t| ok & self.walk_from(*t, direction, visit))
        }
    }

    /// The subtree of `top`: down the chain of its large children while
    /// there is one, the small subtrees beside the chain on this thread,
    /// then the children of the chain's last node (in parallel when two or
    /// more are large).
    fn walk_from(
        &self,
        top: u32,
        direction: Direction,
        visit: &(impl Fn(u32) -> bool + Sync),
    ) -> bool {
        if !self.is_large(top) {
            return self.walk_here(top, direction, visit);
        }
        let mut ok = true;
        let mut chain = Vec::new();
        let mut x = top;
        loop {
            match direction {
                Direction::TopDown => ok &= visit(x),
                Direction::BottomUp => chain.push(x),
            }
            let kids = self.children(x);
            let mut large = kids.iter().filter(|c| self.is_large(**c));
            match (large.next(), large.next()) {
                (Some(c), None) => {
                    for k in kids.iter().filter(|k| **k != *c) {
                        ok &= self.walk_here(*k, direction, visit);
                    }
                    x = *c;
                }
                _ => {
                    ok &= self.walk_all(kids, direction, visit);
                    break;
                }
            }
        }
        // Bottom up: the chain after everything below it, lowest first.
        for x in chain.into_iter().rev() {
            ok &= visit(x);
        }
        ok
    }

    /// The subtree of `top` on this thread, without recursion, in
    /// descending (top down) or ascending (bottom up) rank order.
    fn walk_here(&self, top: u32, direction: Direction, visit: &impl Fn(u32) -> bool) -> bool {
        let mut order = Vec::with_capacity(self.size[top as usize] as usize);
        order.push(top);
        let mut i = 0;
        while i < order.len() {
            let x = order[i];
            i += 1;
            order.extend_from_slice(self.children(x));
        }
        // In rank order (a parent ranks above its children): the edges of
        // neighbouring ranks lie side by side, and the pass reads them while
        // they are still in cache (breadth-first order cost about a fifth
        // more time on one thread).
        order.sort_unstable();
        let mut ok = true;
        match direction {
            Direction::TopDown => order.iter().rev().for_each(|x| ok &= visit(*x)),
            Direction::BottomUp => order.iter().for_each(|x| ok &= visit(*x)),
        }
        ok
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::contraction::tests::{Arcs, grid_graph};

    #[test]
    fn every_rank_is_visited_once_after_its_relatives() {
        // Large enough to split on several threads; two components, so the
        // forest has two roots.
        let (a, mut coords) = grid_graph(120, 80, 7);
        let (b, more) = grid_graph(40, 40, 8);
        let n = coords.len() as u32;
        let arcs = (0..a.to.len() as u32)
            .map(|e| (a.tail(e), a.to[e as usize], a.cost[e as usize]))
            .chain((0..b.to.len() as u32).map(|e| (b.tail(e) + n, b.to[e as usize] + n, 1)))
            .collect();
        coords.extend(more.iter().map(|(x, y)| (x + 200, *y)));
        let both = Arcs::new(coords.len(), arcs);
        let cch = Contraction::new(&both.graph(), Some(&coords)).unwrap();
        let forest = Forest::new(&cch);
        assert_eq!(forest.roots.len(), 2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap();
        for direction in [Direction::BottomUp, Direction::TopDown] {
            let seen = Mutex::new(Vec::new());
            let ok = pool.install(|| {
                forest.walk(direction, &|u| {
                    seen.lock().unwrap().push(u);
                    u % 7 != 3
                })
            });
            assert!(!ok, "a false visit makes the walk false");
            let seen = seen.into_inner().unwrap();
            let mut when = vec![usize::MAX; cch.nodes()];
            for (i, u) in seen.iter().enumerate() {
                assert_eq!(when[*u as usize], usize::MAX, "{u} visited twice");
                when[*u as usize] = i;
            }
            assert!(when.iter().all(|w| *w != usize::MAX), "every rank visited");
            for u in 0..cch.nodes() as u32 {
                if let Some(p) = cch.parent(u) {
                    let (cu, cp) = (when[u as usize], when[p as usize]);
                    match direction {
                        Direction::BottomUp => assert!(cu < cp, "{u} after its parent {p}"),
                        Direction::TopDown => assert!(cp < cu, "{u} before its parent {p}"),
                    }
                }
            }
        }
    }

    #[test]
    fn the_rank_order_forest_visits_the_ranks_one_by_one() {
        let forest = Forest::in_rank_order(5);
        for (direction, want) in [
            (Direction::BottomUp, vec![0, 1, 2, 3, 4]),
            (Direction::TopDown, vec![4, 3, 2, 1, 0]),
        ] {
            let seen = Mutex::new(Vec::new());
            assert!(forest.walk(direction, &|u| {
                seen.lock().unwrap().push(u);
                true
            }));
            assert_eq!(seen.into_inner().unwrap(), want);
        }
        assert!(Forest::in_rank_order(0).walk(Direction::TopDown, &|_| false));
    }
}
