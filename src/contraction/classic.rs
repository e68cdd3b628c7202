//! A classic contraction hierarchy for one fixed metric (Geisberger, Sanders,
//! Schultes and Delling 2008), laid out as a [`QueryGraph`].
//!
//! Nodes are contracted one at a time, cheapest first by a lazily updated
//! priority: the edge difference (shortcuts added minus edges removed), plus
//! the number of neighbours already contracted and the node's depth (one more
//! than its deepest contracted neighbour's), which spread the contraction
//! evenly. Contracting `v` joins each in-neighbour `u` to each out-neighbour
//! `w` by a shortcut `u -> w` of cost `c(u, v) + c(v, w)` unless a *witness*
//! is found: a route from `u` to `w` avoiding `v` that is no dearer, by a
//! Dijkstra search over the nodes not yet contracted, bounded by the dearest
//! shortcut it could spare and by a number of settled nodes. A bounded search
//! that stops early only adds a shortcut that is not needed: the hierarchy
//! stays exact. The shortcut remembers `v` as its middle; both its halves
//! were final when `v` was contracted (an edge changes only while both its
//! ends remain), so unpacking follows middles as in the customizable
//! contraction's query graph.
//!
//! Forbidden arcs (`FORBIDDEN` or more) are left out, so one hierarchy per
//! metric serves one band of unit sizes. On a symmetric metric (every arc
//! as dear as its reverse: uniform-cost maps) each pair of neighbours is
//! witnessed once and its shortcut added both ways, so the query graph
//! stores one side for both directions. The result is a [`QueryGraph`]
//! whose ranks are the contraction order: the same queries and unpacking as
//! the customizable contraction's (see `pruned_query`), searched by default
//! with the bitset sweep (`searches::sweep`), measured the fastest on it.
//!
//! Priority updates are lazy: a node whose neighbourhood changed since its
//! priority was computed is re-evaluated when it comes up, and re-queued if
//! it is no longer the least. The witness searches are the build's cost
//! (about ten times a customizable contraction's build on sc1 cluster
//! graphs, see `docs/contraction.md`).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::customize::INF64;
use super::pruned::{DIRECT, Makeups, QueryGraph, QuerySearch, Ranks, Side, UnpackOnly, direct};
use super::{ArcGraph, ContractionError, FORBIDDEN, NONE};

/// No route (in the build's `u64` costs, in units of the scale).
const INF: u64 = u64::MAX;

/// Nodes a witness search may settle when contracting.
const SETTLE_LIMIT: u32 = 100;
/// Nodes a witness search may settle when estimating a priority.
const SIMULATE_LIMIT: u32 = 25;

/// One edge `{a, b}` of the graph being contracted, with its cost and
/// make-up each way ([`DIRECT`] or the middle node).
#[derive(Debug, Clone, Copy)]
struct Edge {
    a: u32,
    b: u32,
    /// `a -> b`, `b -> a` (INF: none).
    cost: [u64; 2],
    how: [u32; 2],
}

impl Edge {
    /// The other end from `x`, and the index of the direction `x -> other`.
    #[inline]
    fn from(&self, x: u32) -> (u32, usize) {
        if self.a == x {
            (self.b, 0)
        } else {
            (self.a, 1)
        }
    }
}

/// The graph during contraction, and the witness search's scratch.
struct Builder {
    edges: Vec<Edge>,
    /// Edge ids at each node (both ends list each edge).
    adj: Vec<Vec<u32>>,
    contracted: Vec<bool>,
    /// Witness search: distance and stamp per node, heap.
    dist: Vec<u64>,
    stamp: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Reverse<(u64, u32)>>,
    /// Per node: contracted neighbours, depth.
    gone: Vec<u32>,
    depth: Vec<u32>,
    /// Shortcuts of the node being contracted or simulated.
    found: Vec<(u32, u32, u64)>,
    /// The witness search's targets.
    target: Vec<bool>,
    /// Per contracted node, its edges to the nodes contracted later.
    up_first: Vec<u32>,
    up: Vec<u32>,
    /// Whether every edge costs the same both ways (then so does every
    /// shortcut, found once per pair and added both ways).
    symmetric: bool,
}

impl Builder {
    /// The edge between `x` and `y`, if any.
    fn edge_between(&self, x: u32, y: u32) -> Option<u32> {
        let (s, t) = if self.adj[x as usize].len() <= self.adj[y as usize].len() {
            (x, y)
        } else {
            (y, x)
        };
        self.adj[s as usize]
            .iter()
            .copied()
            .find(|e| self.edges[*e as usize].from(s).0 == t)
    }

    /// Lowers `x -> y` to `cost` (made up by `how`), adding the edge if new.
    fn offer(&mut self, x: u32, y: u32, cost: u64, how: u32) {
        match self.edge_between(x, y) {
            Some(e) => {
                let edge = &mut self.edges[e as usize];
                let d = edge.from(x).1;
                if cost < edge.cost[d] {
                    edge.cost[d] = cost;
                    edge.how[d] = how;
                }
            }
            None => {
                let id = self.edges.len() as u32;
                let mut edge = Edge {
                    a: x,
                    b: y,
                    cost: [INF, INF],
                    how: [DIRECT, DIRECT],
                };
                edge.cost[0] = cost;
                edge.how[0] = how;
                self.edges.push(edge);
                self.adj[x as usize].push(id);
                self.adj[y as usize].push(id);
            }
        }
    }

    /// The live neighbours of `v`: `(node, cost v -> node, cost node -> v)`.
    fn neighbours(&self, v: u32, out: &mut Vec<(u32, u64, u64)>) {
        out.clear();
        for e in &self.adj[v as usize] {
            let edge = &self.edges[*e as usize];
            let (w, d) = edge.from(v);
            out.push((w, edge.cost[d], edge.cost[1 - d]));
        }
    }

    /// The shortcuts contracting `v` needs, into `self.found`, with witness
    /// searches settling at most `limit` nodes each.
    fn shortcuts(&mut self, v: u32, nb: &[(u32, u64, u64)], limit: u32) {
        self.found.clear();
        let max_out = nb
            .iter()
            .map(|(_, out, _)| *out)
            .filter(|c| *c != INF)
            .max()
            .unwrap_or(0);
        for (i, &(u, _, in_cost)) in nb.iter().enumerate() {
            // The targets other than `u` itself (on a symmetric graph, those
            // after it: the pair's other way is the same shortcut reversed).
            let after = if self.symmetric { i + 1 } else { 0 };
            let targets = nb[after..]
                .iter()
                .filter(|(w, out, _)| *w != u && *out != INF)
                .count() as u32;
            if in_cost == INF || targets == 0 {
                continue;
            }
            for &(w, out, _) in &nb[after..] {
                if w != u && out != INF {
                    self.target[w as usize] = true;
                }
            }
            self.witness(u, v, in_cost + max_out, limit, targets);
            for &(w, out, _) in &nb[after..] {
                if w == u || out == INF {
                    continue;
                }
                self.target[w as usize] = false;
                let need = in_cost + out;
                let known = if self.stamp[w as usize] == self.generation {
                    self.dist[w as usize]
                } else {
                    INF
                };
                if known > need {
                    self.found.push((u, w, need));
                }
            }
        }
    }

    /// Dijkstra from `u` over live nodes other than `v`, up to cost `bound`,
    /// `limit` settled nodes, or until the `targets` marked are settled.
    fn witness(&mut self, u: u32, v: u32, bound: u64, limit: u32, mut targets: u32) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        self.heap.clear();
        self.dist[u as usize] = 0;
        self.stamp[u as usize] = g;
        self.heap.push(Reverse((0, u)));
        let mut settled = 0;
        while let Some(Reverse((d, x))) = self.heap.pop() {
            if d > self.dist[x as usize] {
                continue;
            }
            if d > bound || settled >= limit {
                break;
            }
            settled += 1;
            if self.target[x as usize] {
                targets -= 1;
                if targets == 0 {
                    break;
                }
            }
            for e in &self.adj[x as usize] {
                let edge = &self.edges[*e as usize];
                let (y, dir) = edge.from(x);
                let c = edge.cost[dir];
                if y == v || c == INF {
                    continue;
                }
                let nd = d + c;
                let yi = y as usize;
                if self.stamp[yi] != g || nd < self.dist[yi] {
                    self.stamp[yi] = g;
                    self.dist[yi] = nd;
                    self.heap.push(Reverse((nd, y)));
                }
            }
        }
    }

    /// The priority of contracting `v` now (lower first).
    fn priority(&mut self, v: u32, nb: &mut Vec<(u32, u64, u64)>) -> i64 {
        self.neighbours(v, nb);
        let nbs = std::mem::take(nb);
        self.shortcuts(v, &nbs, SIMULATE_LIMIT);
        let removed = nbs.len() as i64;
        *nb = nbs;
        let added = self.found.len() as i64;
        2 * (added - removed)
            + i64::from(self.gone[v as usize])
            + 2 * i64::from(self.depth[v as usize])
    }
}

impl QueryGraph {
    /// A classic contraction hierarchy of `graph` under `costs` (one per arc,
    /// in arc order; [`FORBIDDEN`] or more forbids an arc), laid out as a
    /// query graph: the same queries as the customizable contraction's, for
    /// this one metric. Costs are stored in units of their greatest common
    /// divisor, in 32 bits: [`ContractionError::CostRange`] when a shortcut
    /// does not fit.
    pub fn classic(graph: &ArcGraph, costs: &[u64]) -> Result<QueryGraph, ContractionError> {
        let n = graph.nodes();
        if costs.len() != graph.arcs() {
            return Err(ContractionError::Length {
                what: "arc costs",
                expected: graph.arcs(),
                got: costs.len(),
            });
        }
        let scale = costs
            .iter()
            .filter(|c| **c < FORBIDDEN)
            .fold(0, |g, c| super::customize::gcd(g, *c))
            .max(1);
        if scale > FORBIDDEN / INF64 {
            return Err(ContractionError::CostRange { scale });
        }
        let mut b = Builder {
            edges: Vec::with_capacity(graph.arcs()),
            adj: vec![Vec::new(); n],
            contracted: vec![false; n],
            dist: vec![INF; n],
            stamp: vec![0; n],
            generation: 0,
            heap: BinaryHeap::new(),
            gone: vec![0; n],
            depth: vec![0; n],
            found: Vec::new(),
            target: vec![false; n],
            up_first: vec![0],
            up: Vec::new(),
            symmetric: false,
        };
        for v in 0..n as u32 {
            for (arc, w) in graph.out(v) {
                let c = costs[arc as usize];
                if w != v && c < FORBIDDEN {
                    b.offer(v, w, c / scale, DIRECT | arc);
                }
            }
        }
        b.symmetric = b.edges.iter().all(|e| e.cost[0] == e.cost[1]);
        // Lazy priority queue: a node whose neighbourhood changed since its
        // priority was computed (`stale`) is re-evaluated when it comes up,
        // and goes back in if it is no longer the least.
        let mut nb = Vec::new();
        let mut stale = vec![false; n];
        let mut queue = BinaryHeap::with_capacity(n);
        for v in 0..n as u32 {
            queue.push(Reverse((b.priority(v, &mut nb), v)));
        }
        let mut order = Vec::with_capacity(n);
        while let Some(Reverse((p, v))) = queue.pop() {
            if stale[v as usize] {
                stale[v as usize] = false;
                let now = b.priority(v, &mut nb);
                if now > p && queue.peek().is_some_and(|Reverse((q, _))| now > *q) {
                    queue.push(Reverse((now, v)));
                    continue;
                }
            }
            b.neighbours(v, &mut nb);
            let nbs = std::mem::take(&mut nb);
            b.shortcuts(v, &nbs, SETTLE_LIMIT);
            for i in 0..b.found.len() {
                let (x, y, c) = b.found[i];
                b.offer(x, y, c, v);
                if b.symmetric {
                    b.offer(y, x, c, v);
                }
            }
            b.contracted[v as usize] = true;
            order.push(v);
            let mine = std::mem::take(&mut b.adj[v as usize]);
            for e in &mine {
                let w = b.edges[*e as usize].from(v).0;
                let list = &mut b.adj[w as usize];
                if let Some(i) = list.iter().position(|x| x == e) {
                    list.swap_remove(i);
                }
            }
            b.up.extend_from_slice(&mine);
            b.up_first.push(b.up.len() as u32);
            for &(w, _, _) in &nbs {
                let wi = w as usize;
                b.gone[wi] += 1;
                b.depth[wi] = b.depth[wi].max(b.depth[v as usize] + 1);
                stale[wi] = true;
            }
            nb = nbs;
        }
        lay_out(&b, &order, scale, graph)
    }
}

/// The query graph of a finished contraction (`order`: nodes by rank).
fn lay_out(
    b: &Builder,
    order: &[u32],
    scale: u64,
    graph: &ArcGraph,
) -> Result<QueryGraph, ContractionError> {
    let (first, input_arcs) = (graph.first, graph.arcs());
    let n = order.len();
    let mut rank = vec![NONE; n];
    for (r, v) in order.iter().enumerate() {
        rank[*v as usize] = r as u32;
    }
    let mut sides: [Side; 2] = std::array::from_fn(|_| Side {
        first: Vec::with_capacity(n + 1),
        to: Ranks::for_nodes(n),
        cost: Vec::new(),
        how: Makeups::for_nodes(n),
    });
    let mut up: Vec<(u32, u32, u32, u32, u32)> = Vec::new();
    for s in &mut sides {
        s.first.push(0);
    }
    for (r, &v) in order.iter().enumerate() {
        // (higher rank, cost up, how up, cost down, how down)
        up.clear();
        for e in &b.up[b.up_first[r] as usize..b.up_first[r + 1] as usize] {
            let edge = &b.edges[*e as usize];
            let (w, d) = edge.from(v);
            let fit = |c: u64| -> Result<u32, ContractionError> {
                if c == INF {
                    Ok(u32::MAX)
                } else if c >= INF64 {
                    Err(ContractionError::CostRange { scale })
                } else {
                    Ok(c as u32)
                }
            };
            let arc = |d: usize, tail: u32| {
                let h = edge.how[d];
                (h & DIRECT != 0 && edge.cost[d] != INF).then_some((tail, h & !DIRECT))
            };
            let packed = direct(first, arc(d, v), arc(1 - d, w));
            let how = |h: u32| {
                if h & DIRECT != 0 {
                    packed
                } else {
                    rank[h as usize]
                }
            };
            up.push((
                rank[w as usize],
                fit(edge.cost[d])?,
                how(edge.how[d]),
                fit(edge.cost[1 - d])?,
                how(edge.how[1 - d]),
            ));
        }
        up.sort_unstable_by_key(|x| x.0);
        for &(w, cu, hu, cd, hd) in &up {
            for (d, c, h) in [(0, cu, hu), (1, cd, hd)] {
                let s = &mut sides[d];
                if c != u32::MAX {
                    s.to.push(w);
                    s.cost.push(c);
                    s.how.push(h);
                }
            }
        }
        for s in &mut sides {
            s.first.push(s.to.len() as u32);
        }
    }
    let [fwd, bwd] = sides;
    Ok(QueryGraph {
        scale,
        rank: Ranks::of(n, &rank),
        node_of: Ranks::of(n, order),
        bwd: (bwd != fwd).then_some(bwd),
        fwd,
        extra: UnpackOnly::for_nodes(0),
        input_arcs,
        search: QuerySearch::BitsetSweep,
        parent: Ranks::for_nodes(0),
    })
}
