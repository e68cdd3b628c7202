//! The in-cluster searches of the cluster-graph stage: exact least costs from
//! one transition to the others of its cluster.
//!
//! Thousands of these run per map, each over a few hundred cells, so on
//! unweighted clusters they use a kernel of their own: costs as `u32` (a
//! 16 x 16 cluster's costs stay below 4e8), each open-list entry one `u64`
//! (cost above, cell below) compared in one instruction, and no generation
//! stamps or tie-breaking, which exact costs do not need. Measured on the
//! 1024 x 1024 StarCraft maps it does the stage's searches in well under half
//! the instructions of the general engine, which weighted clusters (and
//! clusters too large for `u32` costs) still use.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::{Grid, Movement, Node, Weight};
use crate::search::{Estimator, Everywhere, Goal, Pricing, SearchCache, TieBreak, run_in};

/// Per-thread scratch for in-cluster searches.
#[derive(Debug, Default)]
pub(crate) struct ClusterSearch {
    dist: Vec<u32>,
    parent: Vec<u32>,
    target: Vec<bool>,
    heap: BinaryHeap<Reverse<u64>>,
    engine: SearchCache,
    /// Which backend ran last.
    kernel: bool,
}

const UNSEEN: u32 = u32::MAX;

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
        let worst = local.padded_len() as u64 * movement.diagonal as u64 * Weight::ONE.0 as u64;
        let fits = worst < u64::from(u32::MAX);
        self.kernel = !local.is_weighted() && fits;
        if self.kernel {
            self.run_kernel(local, movement, source, targets);
        } else {
            let est = Estimator::zero();
            self.engine.begin(local);
            for t in targets {
                self.engine.mark_target(*t);
            }
            self.engine.push_start(source, 0, &est, TieBreak::default());
            run_in(
                &mut self.engine,
                local,
                movement,
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

    fn run_kernel(&mut self, local: &Grid, movement: &Movement, source: Node, targets: &[Node]) {
        let len = local.padded_len();
        self.dist.clear();
        self.dist.resize(len, UNSEEN);
        self.parent.clear();
        self.parent.resize(len, UNSEEN);
        self.target.clear();
        self.target.resize(len, false);
        let mut remaining = 0u32;
        for t in targets {
            if !self.target[t.index()] {
                self.target[t.index()] = true;
                remaining += 1;
            }
        }
        let (dist, parent, target, heap) = (
            &mut self.dist,
            &mut self.parent,
            &mut self.target,
            &mut self.heap,
        );
        heap.clear();
        dist[source.index()] = 0;
        heap.push(Reverse(source.0 as u64));
        let one = Weight::ONE.0 as u32;
        while let Some(Reverse(key)) = heap.pop() {
            let (d, u) = ((key >> 32) as u32, key as u32);
            if d > dist[u as usize] {
                continue; // stale
            }
            if target[u as usize] {
                target[u as usize] = false;
                remaining -= 1;
                if remaining == 0 {
                    break;
                }
            }
            local.for_each_neighbor(Node(u), movement, |w, base, _, _| {
                let nd = d + base * one;
                if nd < dist[w.index()] {
                    dist[w.index()] = nd;
                    parent[w.index()] = u;
                    heap.push(Reverse(((nd as u64) << 32) | w.0 as u64));
                }
            });
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

    /// The nodes from the last run's source to `n`, in order.
    pub(crate) fn trace(&self, n: Node, out: &mut Vec<Node>) {
        if self.kernel {
            let first = out.len();
            let mut cur = n.0;
            while cur != UNSEEN {
                out.push(Node(cur));
                cur = self.parent[cur as usize];
            }
            out[first..].reverse();
        } else {
            self.engine.trace_back(n, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CornerRule, Point};

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
