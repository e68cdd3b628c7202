//! The one best-first search loop behind every grid search in tierpath: flat
//! A*, Dijkstra, the hierarchy's in-cluster searches and its refinement.
//!
//! It is generic over how a move is priced ([`StepCost`]) and where the search
//! may go ([`Region`]), so the common case (uniform costs, whole map) compiles to
//! a loop with no per-move branches for either. It is resumable: [`SearchCache::run`]
//! stops after a budget of expansions and continues where it left off, which is
//! what time-sliced searches are made of.

pub(crate) mod heap;
pub(crate) mod route;
pub(crate) mod smooth;
mod space;
pub(crate) mod stamps;

mod problem;
pub(crate) use problem::{
    Everywhere, Goal, Pricing, Problem, Rect, Region, Status, StepCost, run_space,
};
pub(crate) use space::{Fits, Plain, Space, corner_ok};

use crate::grid::{Cost, Grid, Node, Point};
use crate::search::partial::Closest;
use crate::search::{CellState, Estimate, Expansion, Path, SearchStats, TieBreak};
use heap::{Entry, OpenList, tie_g};
use stamps::{FLAT_LIMIT, Flat, Generation, Layout, Paged, Scratch};

/// Sentinel parent of a search's start nodes.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Per-node scratch: one 16-byte record so a relaxation touches one cache line.
#[derive(Debug, Clone, Copy)]
struct NodeState {
    g: u64,
    parent: u32,
    /// `generation` when open (seen), `generation + 1` when closed; anything
    /// else means "untouched by this search".
    stamp: u32,
}

const UNTOUCHED: NodeState = NodeState {
    g: u64::MAX,
    parent: NO_PARENT,
    stamp: 0,
};

/// Reusable search scratch: per-node G, parent and open/closed state, the open
/// list, and counters. Create one per thread and pass it to every search. It
/// is never cleared between searches (a generation stamp marks which entries
/// belong to the current one), so a search costs nothing proportional to the
/// map's size. Its per-node records are one array on maps up to about
/// 2,048 x 2,048 cells, sized once; on larger maps they are allocated by pages
/// of 1,024 consecutive cells when a search first writes into one, so a short
/// query on a 16,384 x 16,384 map touches a few megabytes, not the 5 GB a
/// record per cell would take. The pages stay for later searches.
///
/// ```
/// use tierpath::{AStar, Grid, Point, SearchCache};
/// let grid = Grid::new(64, 64).unwrap();
/// let mut cache = SearchCache::new();
/// for i in 0..10 {
///     let out = AStar::new(&grid).find_path(&mut cache, Point::new(0, 0), Point::new(63, i)).unwrap();
///     assert!(out.path.is_some());
/// }
/// ```
#[derive(Debug, Clone)]
pub struct SearchCache {
    nodes: Scratch<NodeState>,
    /// Per node: the generation in which it was marked a target.
    targets: Scratch<u32>,
    /// Marked targets not yet expanded, for [`Goal::AllTargets`].
    remaining: u32,
    heap: OpenList,
    generation: Generation,
    sequence: u64,
    pub(crate) stats: SearchStats,
    pub(crate) trace: Option<Vec<Expansion>>,
    /// The expanded cell closest to the goal, when the search keeps a partial
    /// path ([`crate::AStar::partial`]); `None` (not tracked) after `begin`.
    pub(crate) closest: Option<Closest>,
}

impl Default for SearchCache {
    fn default() -> Self {
        SearchCache {
            nodes: Scratch::new(UNTOUCHED, FLAT_LIMIT),
            targets: Scratch::new(0, FLAT_LIMIT),
            remaining: 0,
            heap: OpenList::default(),
            generation: Generation::default(),
            sequence: 0,
            stats: SearchStats::default(),
            trace: None,
            closest: None,
        }
    }
}

impl SearchCache {
    /// An empty cache; it sizes itself on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// A cache whose records are paged on spaces above `flat_limit` nodes
    /// (tests compare the two layouts on small maps).
    #[cfg(test)]
    pub(crate) fn with_flat_limit(flat_limit: usize) -> Self {
        SearchCache {
            nodes: Scratch::new(UNTOUCHED, flat_limit),
            targets: Scratch::new(0, flat_limit),
            ..Self::default()
        }
    }

    /// Records every expansion of the following searches (cell, G, H, in the
    /// order taken) for teaching and rendering; off by default. See
    /// [`SearchCache::expansions`].
    pub fn record_expansions(&mut self, on: bool) {
        self.trace = if on { Some(Vec::new()) } else { None };
    }

    /// The expansions of the last search, when recording is on.
    pub fn expansions(&self) -> &[Expansion] {
        self.trace.as_deref().unwrap_or(&[])
    }

    /// Counters of the last search (or of all runs since it began, when sliced).
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// What the last search recorded for cell `p` of `grid`, the map it ran
    /// on: its G, its parent, and whether it was closed or is still on the
    /// open list. `None` when that search never reached `p` or `p` is off the
    /// map. With [`record_expansions`](SearchCache::record_expansions), this
    /// draws the open and closed lists of the A* tutorials; it reads the
    /// scratch as the search left it and costs nothing to the search itself.
    /// (Asked about another map than the last search's, it answers about
    /// whatever cell shares the index, or `None`; never a panic.)
    ///
    /// ```
    /// use tierpath::{AStar, Grid, Point, SearchCache};
    /// let grid = Grid::from_ascii("
    ///     .....
    ///     .@@@.
    ///     .....
    /// ").unwrap();
    /// let mut cache = SearchCache::new();
    /// AStar::new(&grid).find_path(&mut cache, Point::new(0, 1), Point::new(4, 1)).unwrap();
    /// let goal = cache.cell_state(&grid, Point::new(4, 1)).unwrap();
    /// assert!(goal.closed);
    /// assert_eq!(goal.parent, Some(Point::new(4, 0)));
    /// assert!(cache.cell_state(&grid, Point::new(2, 1)).is_none()); // a wall
    /// ```
    pub fn cell_state(&self, grid: &Grid, p: Point) -> Option<CellState> {
        if !grid.contains(p) {
            return None;
        }
        let n = grid.node(p);
        if !self.nodes.covers(n.index()) {
            return None;
        }
        let st = self.nodes.get(n.index());
        if !self.generation.holds(st.stamp) {
            return None;
        }
        // A parent always lies on the map it was searched on; checked anyway,
        // so that asking with another map cannot underflow.
        let pw = grid.padded_width();
        let (px, py) = (st.parent % pw, st.parent / pw);
        let parent = (st.parent != NO_PARENT
            && (1..=grid.width()).contains(&px)
            && (1..=grid.height()).contains(&py))
        .then(|| Point::new(px - 1, py - 1));
        Some(CellState {
            g: Cost(st.g),
            parent,
            closed: st.stamp == self.generation.closed(),
        })
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.memory_bytes()
            + self.targets.memory_bytes()
            + self.heap.capacity() * std::mem::size_of::<Entry>()
    }

    /// Starts a new search on `grid`: bumps the generation (O(1) except when the
    /// stamp wraps, once per two billion searches), empties the open list, and
    /// resets counters.
    pub(crate) fn begin(&mut self, grid: &Grid) {
        self.begin_len(grid.padded_len());
    }

    /// Starts a new search over padded nodes `0..len` (see [`begin`](Self::begin)).
    pub(crate) fn begin_len(&mut self, len: usize) {
        self.nodes.cover(len);
        self.targets.cover(len);
        let (nodes, targets) = (&mut self.nodes, &mut self.targets);
        self.generation.advance(|| {
            nodes.clear();
            targets.clear();
        });
        self.heap.clear();
        self.sequence = 0;
        self.remaining = 0;
        self.stats = SearchStats::default();
        self.closest = None;
        if let Some(t) = self.trace.as_mut() {
            t.clear();
        }
    }

    /// The smallest key on the open list (F, or G in Dijkstra), stale entries
    /// included; `None` when the list is empty. With a consistent estimate
    /// every node not yet expanded costs at least this much to reach (plus its
    /// own estimate): the bound a paused search proves.
    #[inline]
    pub(crate) fn min_open_key(&self) -> Option<u64> {
        self.heap.peek_f()
    }

    /// Marks `n` as a target of the current search ([`Goal::Targets`]).
    #[inline]
    pub(crate) fn mark_target(&mut self, n: Node) {
        let open = self.generation.open();
        let mark = self.targets.get_mut(n.index());
        if *mark != open {
            self.remaining += 1;
        }
        *mark = open;
    }

    /// Adds a start node with initial cost `g` (several starts make a
    /// multi-source search).
    pub(crate) fn push_start<E: Estimate>(
        &mut self,
        n: Node,
        g: u64,
        estimator: &E,
        tie: TieBreak,
    ) {
        let stamp_gen = self.generation.open();
        let st = self.nodes.get_mut(n.index());
        if st.stamp == stamp_gen && st.g <= g {
            return;
        }
        *st = NodeState {
            g,
            parent: NO_PARENT,
            stamp: stamp_gen,
        };
        let h = estimator.estimate(n);
        self.push(n, g, h, tie);
    }

    #[inline(always)]
    fn push(&mut self, n: Node, g: u64, h: u64, tie: TieBreak) {
        let tie = match tie {
            TieBreak::LargerG => u32::MAX - tie_g(g),
            TieBreak::SmallerG => tie_g(g),
            TieBreak::LastAdded => u32::MAX - self.sequence as u32,
            TieBreak::FirstAdded => self.sequence as u32,
        };
        self.sequence += 1;
        self.stats.generated += 1;
        self.heap.push(Entry {
            f: g.saturating_add(h),
            tie,
            node: n.0,
        });
    }

    /// G of `n` in the current search, if it was reached.
    #[inline]
    pub(crate) fn g(&self, n: Node) -> Option<u64> {
        let st = self.nodes.get(n.index());
        self.generation.holds(st.stamp).then_some(st.g)
    }

    /// Whether `n` was expanded (closed) in the current search.
    #[inline]
    pub(crate) fn is_closed(&self, n: Node) -> bool {
        self.nodes.get(n.index()).stamp == self.generation.closed()
    }

    /// The parent of `n` in the current search (`None` at a start).
    #[inline]
    pub(crate) fn parent(&self, n: Node) -> Option<Node> {
        let p = self.nodes.get(n.index()).parent;
        (p != NO_PARENT).then_some(Node(p))
    }

    /// The nodes from a start to `n`, in order.
    pub(crate) fn trace_back(&self, n: Node, out: &mut Vec<Node>) {
        let first = out.len();
        let mut cur = Some(n);
        while let Some(c) = cur {
            out.push(c);
            cur = self.parent(c);
        }
        out[first..].reverse();
    }

    /// Runs the search for at most `budget` expansions.
    pub(crate) fn run<S: Space, C: StepCost, R: Region, E: Estimate>(
        &mut self,
        p: &Problem<S, C, R, E>,
        budget: u64,
    ) -> Status {
        if self.nodes.paged() {
            self.run_in::<Paged, S, C, R, E>(p, budget)
        } else {
            self.run_in::<Flat, S, C, R, E>(p, budget)
        }
    }

    /// [`run`](Self::run) with the scratch indexed as `L`.
    fn run_in<L: Layout, S: Space, C: StepCost, R: Region, E: Estimate>(
        &mut self,
        p: &Problem<S, C, R, E>,
        budget: u64,
    ) -> Status {
        let stamp_gen = self.generation.open();
        let closed = stamp_gen + 1;
        let mut spent = 0u64;

        while let Some(Entry { node, .. }) = self.heap.pop() {
            let n = Node(node);
            let st = L::get(&self.nodes, n.index());
            if st.stamp == closed {
                continue; // a stale entry for a node already expanded
            }
            let g = st.g;
            L::get_mut(&mut self.nodes, n.index()).stamp = closed;
            self.stats.expanded += 1;
            if let Some(t) = self.trace.as_mut() {
                t.push(Expansion {
                    cell: p.space.point(n),
                    g,
                    h: p.estimator.estimate(n),
                });
            }
            if let Some(c) = self.closest.as_mut() {
                c.offer(n, g);
            }
            let done = match p.goal {
                Goal::Node(goal) => n == goal,
                Goal::Targets => L::get(&self.targets, n.index()) == stamp_gen,
                Goal::AllTargets => {
                    if L::get(&self.targets, n.index()) == stamp_gen {
                        self.remaining -= 1;
                    }
                    self.remaining == 0
                }
                Goal::Exhaust => false,
            };
            if done {
                return Status::Found(n);
            }

            let (x, y) = if p.estimator.is_zero() {
                (0, 0)
            } else {
                p.estimator.coords(n)
            };
            p.space.for_each_neighbor(n, |m, base, dx, dy| {
                self.relax::<L, S, C, R, E>(
                    p,
                    n,
                    g,
                    m,
                    base,
                    closed,
                    (x as i32 + dx) as u32,
                    (y as i32 + dy) as u32,
                );
            });

            spent += 1;
            if spent >= budget {
                return Status::Paused;
            }
        }
        Status::Exhausted
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn relax<L: Layout, S: Space, C: StepCost, R: Region, E: Estimate>(
        &mut self,
        p: &Problem<S, C, R, E>,
        from: Node,
        g: u64,
        to: Node,
        base: u32,
        closed: u32,
        x: u32,
        y: u32,
    ) {
        // `(x, y)` are `to`'s padded coordinates unless the estimate is zero
        // (then they were not computed).
        let allowed = if p.estimator.is_zero() {
            p.region.allows(to)
        } else {
            p.region.allows_at(to, x, y)
        };
        if !allowed {
            return;
        }
        let ng = g + p.step.cost(base, from, to);
        let st = L::get_mut(&mut self.nodes, to.index());
        if st.stamp == closed {
            if !p.reopen || ng >= st.g {
                return;
            }
            self.stats.reopened += 1;
        } else if st.stamp == closed - 1 && ng >= st.g {
            return;
        }
        *st = NodeState {
            g: ng,
            parent: from.0,
            stamp: closed - 1,
        };
        let h = p.estimator.estimate_at(x, y);
        self.push(to, ng, h, p.tie_break);
    }
}

/// Builds the path ending at `end` from the cache's parent pointers.
pub(crate) fn path_to(cache: &SearchCache, grid: &Grid, end: Node) -> Path {
    let mut nodes = Vec::new();
    cache.trace_back(end, &mut nodes);
    Path {
        cells: nodes.iter().map(|n| grid.point(*n)).collect(),
        cost: Cost(cache.g(end).unwrap_or(0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_state_reads_the_last_search() {
        let grid = Grid::from_ascii(
            "
            ......
            .@@@@.
            ......
            ",
        )
        .unwrap();
        let mut cache = SearchCache::new();
        assert_eq!(cache.cell_state(&grid, Point::new(0, 0)), None);
        let (s, t) = (Point::new(0, 1), Point::new(5, 1));
        crate::AStar::new(&grid)
            .find_path(&mut cache, s, t)
            .unwrap();
        let start = cache.cell_state(&grid, s).unwrap();
        assert_eq!((start.g, start.parent, start.closed), (Cost(0), None, true));
        let goal = cache.cell_state(&grid, t).unwrap();
        assert!(goal.closed);
        assert_eq!(goal.g, Cost(7 * 1_000_000)); // up, along, down: no corner cutting
        // Reached but never expanded: still open.
        assert!(
            grid.passable_points()
                .filter_map(|p| cache.cell_state(&grid, p))
                .any(|c| !c.closed)
        );
        assert_eq!(cache.cell_state(&grid, Point::new(2, 1)), None);
        assert_eq!(cache.cell_state(&grid, Point::new(6, 0)), None);
        // A later search forgets the earlier one; a bigger map never panics.
        crate::AStar::new(&grid)
            .find_path(&mut cache, Point::new(0, 0), Point::new(1, 0))
            .unwrap();
        assert_eq!(cache.cell_state(&grid, t), None);
        let big = Grid::new(40, 40).unwrap();
        assert_eq!(cache.cell_state(&big, Point::new(39, 39)), None);
    }

    #[test]
    fn generation_wrap_clears_stamps() {
        let grid = Grid::new(4, 4).unwrap();
        // Flat, then paged.
        for mut cache in [SearchCache::new(), SearchCache::with_flat_limit(0)] {
            cache.begin(&grid);
            cache.generation = Generation::at(u32::MAX - 4);
            cache.nodes.get_mut(7).stamp = u32::MAX - 3;
            *cache.targets.get_mut(9) = u32::MAX - 4;
            cache.begin(&grid);
            assert_eq!(cache.generation.open(), 2);
            assert!((0..grid.padded_len()).all(|i| cache.nodes.get(i).stamp == 0));
            assert!((0..grid.padded_len()).all(|i| cache.targets.get(i) == 0));
        }
    }
}

#[cfg(test)]
mod paging_tests;
