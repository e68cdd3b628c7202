//! The best-first search loop for a unit of one size: the grid "clearance >=
//! size", read from the clearance array on the fly (never materialised).
//!
//! The same design as the flat engine: per-node state in one flat array
//! indexed by padded cell and reset by a generation stamp, a binary heap with
//! lazy deletion, the move pricing and the allowed region as type parameters
//! so the common case compiles to a loop without branches for either.

use crate::grid::{CornerRule, Movement, Node, Point, Weight};
use crate::search::heap::{Entry, OpenList, tie_g};
use crate::search::{Estimator, Goal, Region, SearchStats, Status};

use super::Clearance;

const NO_PARENT: u32 = u32::MAX;

/// The grid a unit of one size moves on: a cell is open when the unit fits
/// there (clearance `>= size`). See the module docs for the rule.
#[derive(Clone, Copy)]
pub(crate) struct Space<'a> {
    pub clearance: &'a [u8],
    pub weights: Option<&'a [u16]>,
    pub padded_width: u32,
    pub movement: &'a Movement,
    pub size: u8,
}

impl<'a> Space<'a> {
    /// The space of unit `size` (1..=255) on `clearance`'s grid.
    pub(crate) fn new(clearance: &'a Clearance, movement: &'a Movement, size: u8) -> Self {
        debug_assert!(size >= 1);
        Space {
            clearance: clearance.padded(),
            weights: clearance.grid().weight_slice(),
            padded_width: clearance.grid().padded_width(),
            movement,
            size,
        }
    }

    /// Whether the unit fits at padded index `i` (the padding never fits).
    #[inline(always)]
    pub(crate) fn open(&self, i: u32) -> bool {
        self.clearance[i as usize] >= self.size
    }

    /// The padded node of an on-map point.
    #[inline(always)]
    pub(crate) fn node(&self, p: Point) -> Node {
        Node((p.y + 1) * self.padded_width + p.x + 1)
    }

    /// The point of a padded node.
    #[inline(always)]
    pub(crate) fn point(&self, n: Node) -> Point {
        Point::new(n.0 % self.padded_width - 1, n.0 / self.padded_width - 1)
    }

    /// The weight of the cell at padded index `i`.
    #[inline(always)]
    pub(crate) fn weight(&self, i: u32) -> u64 {
        self.weights.map_or(Weight::ONE.0, |w| w[i as usize]) as u64
    }

    /// Whether a diagonal move from `n` passes the corner rule, given whether
    /// the unit fits at the two straight neighbours beside it.
    #[inline(always)]
    pub(crate) fn corner_ok(&self, a: bool, b: bool) -> bool {
        match self.movement.corners {
            CornerRule::Never => a && b,
            CornerRule::IfOneFree => a || b,
            CornerRule::Always => true,
        }
    }

    /// The cost of one legal move from `a` to `b` (neighbours).
    #[inline]
    pub(crate) fn step_cost(&self, a: Point, b: Point) -> u64 {
        let base = if a.x != b.x && a.y != b.y {
            self.movement.diagonal
        } else {
            self.movement.straight
        };
        base as u64 * self.weight(self.node(b).0)
    }

    /// Whether the move `a -> b` is legal for the unit (both on the map).
    #[cfg(test)]
    pub(crate) fn legal(&self, a: Point, b: Point) -> bool {
        let (na, nb) = (self.node(a), self.node(b));
        if !self.open(na.0) || !self.open(nb.0) {
            return false;
        }
        match (a.x.abs_diff(b.x), a.y.abs_diff(b.y)) {
            (1, 0) | (0, 1) => true,
            (1, 1) if self.movement.diagonals() => {
                let side_a = self.node(Point::new(b.x, a.y));
                let side_b = self.node(Point::new(a.x, b.y));
                self.corner_ok(self.open(side_a.0), self.open(side_b.0))
            }
            _ => false,
        }
    }

    /// Calls `f(neighbour, base_cost, dx, dy)` for every legal move out of
    /// `n`, in the flat engine's order (N, E, S, W, NE, SE, SW, NW).
    #[inline(always)]
    pub(crate) fn for_each_neighbor(&self, n: Node, mut f: impl FnMut(Node, u32, i32, i32)) {
        let pw = self.padded_width;
        let ortho = [n.0 - pw, n.0 + 1, n.0 + pw, n.0 - 1];
        let free = [
            self.open(ortho[0]),
            self.open(ortho[1]),
            self.open(ortho[2]),
            self.open(ortho[3]),
        ];
        const STRAIGHT: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
        for i in 0..4 {
            if free[i] {
                f(
                    Node(ortho[i]),
                    self.movement.straight,
                    STRAIGHT[i].0,
                    STRAIGHT[i].1,
                );
            }
        }
        if self.movement.diagonals() {
            let diag = [
                (n.0 - pw + 1, 0, 1, 1, -1),
                (n.0 + pw + 1, 2, 1, 1, 1),
                (n.0 + pw - 1, 2, 3, -1, 1),
                (n.0 - pw - 1, 0, 3, -1, -1),
            ];
            for (d, a, b, dx, dy) in diag {
                if self.corner_ok(free[a], free[b]) && self.open(d) {
                    f(Node(d), self.movement.diagonal, dx, dy);
                }
            }
        }
    }
}

/// Which way moves are priced (see [`crate::search`]'s pricing): forward, a
/// move costs its base times the weight of the cell entered; reverse (a
/// search run backwards from a goal), the weight of the cell searched from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pricing {
    Forward,
    Reverse,
}

trait Price {
    fn cost(&self, base: u32, from: Node, to: Node) -> u64;
}

struct Uniform;
impl Price for Uniform {
    #[inline(always)]
    fn cost(&self, base: u32, _: Node, _: Node) -> u64 {
        base as u64 * Weight::ONE.0 as u64
    }
}

struct Forward<'a>(&'a [u16]);
impl Price for Forward<'_> {
    #[inline(always)]
    fn cost(&self, base: u32, _: Node, to: Node) -> u64 {
        base as u64 * self.0[to.index()] as u64
    }
}

struct Reverse<'a>(&'a [u16]);
impl Price for Reverse<'_> {
    #[inline(always)]
    fn cost(&self, base: u32, from: Node, _: Node) -> u64 {
        base as u64 * self.0[from.index()] as u64
    }
}

#[derive(Debug, Clone, Copy)]
struct NodeState {
    g: u64,
    parent: u32,
    /// `generation` when open, `generation + 1` when closed.
    stamp: u32,
}

const UNTOUCHED: NodeState = NodeState {
    g: u64::MAX,
    parent: NO_PARENT,
    stamp: 0,
};

/// Reusable scratch for searches of sized units ([`SizedAStar`](crate::SizedAStar)
/// and the sized hierarchy's grid searches): per-node cost, parent and
/// open/closed state, and the open list. One per thread; it grows to the
/// largest map it has seen and is reset in O(1) by a generation stamp, so a
/// search costs nothing proportional to the map.
#[derive(Debug, Default, Clone)]
pub struct SizedSearchCache {
    nodes: Vec<NodeState>,
    targets: Vec<u32>,
    remaining: u32,
    heap: OpenList,
    generation: u32,
    pub(crate) stats: SearchStats,
}

impl SizedSearchCache {
    /// An empty cache; it sizes itself on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Counters of the last search.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<NodeState>()
            + self.targets.capacity() * 4
            + self.heap.capacity() * std::mem::size_of::<Entry>()
    }

    /// Starts a new search over `padded_len` nodes.
    pub(crate) fn begin(&mut self, padded_len: usize) {
        if self.nodes.len() < padded_len {
            self.nodes.resize(padded_len, UNTOUCHED);
            self.targets.resize(padded_len, 0);
        }
        if self.generation >= u32::MAX - 4 {
            self.nodes.fill(UNTOUCHED);
            self.targets.fill(0);
            self.generation = 0;
        }
        self.generation += 2;
        self.heap.clear();
        self.remaining = 0;
        self.stats = SearchStats::default();
    }

    /// Marks `n` as a target of the current search ([`Goal::AllTargets`]).
    pub(crate) fn mark_target(&mut self, n: Node) {
        if self.targets[n.index()] != self.generation {
            self.remaining += 1;
            self.targets[n.index()] = self.generation;
        }
    }

    /// Adds a start node with cost `g`.
    pub(crate) fn push_start(&mut self, n: Node, g: u64, estimator: &Estimator) {
        let st = &mut self.nodes[n.index()];
        if st.stamp == self.generation && st.g <= g {
            return;
        }
        *st = NodeState {
            g,
            parent: NO_PARENT,
            stamp: self.generation,
        };
        let h = estimator.estimate(n);
        self.push(n, g, h);
    }

    #[inline(always)]
    fn push(&mut self, n: Node, g: u64, h: u64) {
        self.stats.generated += 1;
        self.heap.push(Entry {
            f: g.saturating_add(h),
            tie: u32::MAX - tie_g(g),
            node: n.0,
        });
    }

    /// The cost of `n` in the current search, if reached.
    #[inline]
    pub(crate) fn g(&self, n: Node) -> Option<u64> {
        let st = self.nodes[n.index()];
        (st.stamp == self.generation || st.stamp == self.generation + 1).then_some(st.g)
    }

    /// Whether `n` was expanded in the current search.
    #[inline]
    pub(crate) fn is_closed(&self, n: Node) -> bool {
        self.nodes[n.index()].stamp == self.generation + 1
    }

    /// Appends the cells from a start to `n`, in order.
    pub(crate) fn trace_back(&self, space: &Space, n: Node, out: &mut Vec<Point>) {
        let first = out.len();
        let mut cur = n.0;
        loop {
            out.push(space.point(Node(cur)));
            let p = self.nodes[cur as usize].parent;
            if p == NO_PARENT {
                break;
            }
            cur = p;
        }
        out[first..].reverse();
    }

    /// Runs the search to its end in `region`, moves priced as `pricing` says.
    pub(crate) fn run<R: Region>(
        &mut self,
        space: &Space,
        region: R,
        estimator: Estimator,
        goal: Goal,
        pricing: Pricing,
    ) -> Status {
        match (space.weights, pricing) {
            (None, _) => self.run_priced(space, &Uniform, region, estimator, goal),
            (Some(w), Pricing::Forward) => {
                self.run_priced(space, &Forward(w), region, estimator, goal)
            }
            (Some(w), Pricing::Reverse) => {
                self.run_priced(space, &Reverse(w), region, estimator, goal)
            }
        }
    }

    fn run_priced<P: Price, R: Region>(
        &mut self,
        space: &Space,
        price: &P,
        region: R,
        estimator: Estimator,
        goal: Goal,
    ) -> Status {
        let open_stamp = self.generation;
        let closed = open_stamp + 1;
        while let Some(Entry { node, .. }) = self.heap.pop() {
            let n = Node(node);
            let st = self.nodes[n.index()];
            if st.stamp == closed {
                continue;
            }
            let g = st.g;
            self.nodes[n.index()].stamp = closed;
            self.stats.expanded += 1;
            let done = match goal {
                Goal::Node(t) => n == t,
                Goal::Targets => self.targets[n.index()] == open_stamp,
                Goal::AllTargets => {
                    if self.targets[n.index()] == open_stamp {
                        self.remaining -= 1;
                    }
                    self.remaining == 0
                }
                Goal::Exhaust => false,
            };
            if done {
                return Status::Found(n);
            }
            let (x, y) = if estimator.is_zero() {
                (0, 0)
            } else {
                estimator.coords(n)
            };
            space.for_each_neighbor(n, |m, base, dx, dy| {
                if !region.allows(m) {
                    return;
                }
                let ng = g + price.cost(base, n, m);
                let st = &mut self.nodes[m.index()];
                if st.stamp == closed || (st.stamp == open_stamp && ng >= st.g) {
                    return;
                }
                *st = NodeState {
                    g: ng,
                    parent: n.0,
                    stamp: open_stamp,
                };
                let h = estimator.estimate_at((x as i32 + dx) as u32, (y as i32 + dy) as u32);
                self.push(m, ng, h);
            });
        }
        Status::Exhausted
    }
}
