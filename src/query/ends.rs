//! Connecting a query's endpoints to their clusters with the build's
//! in-cluster kernel, and reading the first and last legs from those
//! searches.
//!
//! For a single-cell unit on an unweighted map, the transitions of an
//! endpoint's cluster that no straight route reaches get their costs from
//! one search of a copy of the cluster by the kernel the build uses for the
//! cluster graph's edges (`preprocess::cluster_search`: `u32` costs, a ring
//! of buckets instead of a heap, moves from a table), not from the general
//! engine's Dijkstra over map-sized scratch. Moves and costs are the same
//! both ways on such a map, so the goal's search runs from the goal too.
//!
//! Each endpoint keeps its search ([`EndSearch`]), so the route's first leg
//! (start to first transition) and last leg (last transition to goal) are
//! traced back from them instead of searched again: a least-cost path inside
//! the cluster, the same in one-shot, lazy and time-sliced queries, which
//! all connect this way.

use crate::grid::{Grid, Node, Point};
use crate::hierarchy::Hierarchy;
use crate::preprocess::cluster_search::ClusterSearch;
use crate::search::{Pricing, SearchCache};

/// One endpoint's connection search by the kernel, kept for its leg.
#[derive(Debug, Default, Clone)]
pub(crate) struct EndSearch {
    search: ClusterSearch,
    /// The copy of the cluster searched (its memory kept for the next), and
    /// its top-left cell on the map.
    local: Option<Grid>,
    origin: (u32, u32),
    /// Whether the endpoint's last connection ran this search (its legs can
    /// be traced).
    ran: bool,
    /// The endpoint searched from.
    endpoint: Point,
    targets: Vec<Node>,
    trace: Vec<Node>,
}

/// The start's search (index 0) and the goal's (index 1).
pub(crate) type Ends = [EndSearch; 2];

impl EndSearch {
    /// Forgets the last search: the endpoint is being connected afresh.
    pub(crate) fn reset(&mut self) {
        self.ran = false;
    }

    /// Whether the endpoint's last connection ran this search.
    pub(crate) fn ran(&self) -> bool {
        self.ran
    }

    /// Runs the search begun by [`Hierarchy::kernel_begin`] settling at most
    /// `budget` cells: the cells settled, and whether it finished.
    pub(crate) fn resume(&mut self, budget: u64) -> (u64, bool) {
        let before = self.search.settled();
        let finished = self.search.resume(budget);
        (self.search.settled() - before, finished)
    }

    /// The cells of a least-cost path inside the cluster between the
    /// endpoint searched from and `q`, from the endpoint (`toward` false) or
    /// to it (`toward` true), appended to `out`; false, with nothing
    /// appended, when this search did not run or did not reach `q`.
    pub(crate) fn leg(&mut self, q: Point, toward: bool, out: &mut Vec<Point>) -> bool {
        let Some(local) = self.local.as_ref().filter(|_| self.ran) else {
            return false;
        };
        let (x0, y0) = self.origin;
        let (lx, ly) = (q.x.wrapping_sub(x0), q.y.wrapping_sub(y0));
        if lx >= local.width() || ly >= local.height() {
            return false;
        }
        let n = local.node(Point::new(lx, ly));
        if self.search.cost(n).is_none() {
            return false;
        }
        self.trace.clear();
        self.search.trace(n, &mut self.trace);
        if toward {
            self.trace.reverse();
        }
        out.extend(self.trace.iter().map(|n| {
            let p = local.point(*n);
            Point::new(p.x + x0, p.y + y0)
        }));
        true
    }
}

impl Hierarchy {
    /// Connects `p` (see [`Hierarchy::connect`]) by the kernel when it
    /// applies, keeping the search in `end`, else by the engine's Dijkstra
    /// in `grid`. Returns the cells expanded.
    pub(crate) fn connect_with(
        &self,
        grid: &mut SearchCache,
        end: &mut EndSearch,
        size: u8,
        p: Point,
        pricing: Pricing,
        out: &mut Vec<(u32, u64)>,
    ) -> u64 {
        end.reset();
        if !self.connects_by_kernel(size) {
            return self.connect(grid, size, p, pricing, out);
        }
        out.clear();
        if !self.resolve_straight(size, p, out) {
            return 0;
        }
        self.connect_by_kernel(end, p, out)
    }

    /// Whether endpoints of a unit of `size` connect by the kernel (a
    /// single-cell unit on an unweighted map).
    pub(crate) fn connects_by_kernel(&self, size: u8) -> bool {
        size <= 1 && !self.grid().is_weighted()
    }

    /// Connects `p` by the kernel (see the module docs): `out` holds the
    /// transitions `resolve_straight` resolved (in node order, all of them
    /// admitted); appends the others the search reaches, in node order, and
    /// returns the cells it settled.
    pub(crate) fn connect_by_kernel(
        &self,
        end: &mut EndSearch,
        p: Point,
        out: &mut Vec<(u32, u64)>,
    ) -> u64 {
        self.kernel_begin(end, p, out);
        end.search.resume(u64::MAX);
        self.kernel_end(end, out);
        end.search.settled()
    }

    /// Begins the kernel's search of [`connect_by_kernel`](Self::connect_by_kernel),
    /// to be run by `end`'s [`resume`](EndSearch::resume).
    pub(crate) fn kernel_begin(&self, end: &mut EndSearch, p: Point, out: &[(u32, u64)]) {
        let layout = self.layout();
        let (x0, y0, x1, y1) = layout.bounds(layout.cluster_of(p));
        let local = match &mut end.local {
            Some(local) => {
                self.grid().window_into(x0, y0, x1, y1, local);
                local
            }
            none => none.insert(self.grid().window(x0, y0, x1, y1)),
        };
        let to_local = |q: Point| local.node(Point::new(q.x - x0, q.y - y0));
        let (a, b) = self.cluster_nodes(self.layout().cluster_of(p));
        end.targets.clear();
        let mut k = 0;
        for i in a..b {
            if k < out.len() && out[k].0 == i {
                k += 1;
            } else {
                end.targets.push(to_local(self.node_point(i)));
            }
        }
        let kernel =
            end.search
                .begin_kernel(local, &self.settings().movement, to_local(p), &end.targets);
        debug_assert!(kernel, "connects_by_kernel: an unweighted map");
        end.origin = (x0, y0);
        end.endpoint = p;
    }

    /// Ends the search of [`kernel_begin`](Self::kernel_begin), finished:
    /// appends the transitions it reached to `out`, in node order.
    pub(crate) fn kernel_end(&self, end: &mut EndSearch, out: &mut Vec<(u32, u64)>) {
        let p = end.endpoint;
        let (a, b) = self.cluster_nodes(self.layout().cluster_of(p));
        let (x0, y0) = end.origin;
        let local = end.local.as_ref().expect("begun");
        let resolved = out.len();
        let mut k = 0;
        for i in a..b {
            let q = self.node_point(i);
            if k < resolved && out[k].0 == i {
                k += 1;
            } else if let Some(cost) = end.search.cost(local.node(Point::new(q.x - x0, q.y - y0))) {
                out.push((i, cost));
            }
        }
        end.ran = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::path_cost;

    /// Random walls at about 1 in `odds` cells.
    fn walls(seed: u64, w: u32, h: u32, odds: u64) -> Grid {
        let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        Grid::from_fn(w, h, |_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            !(x >> 33).is_multiple_of(odds)
        })
        .unwrap()
    }

    #[test]
    fn the_kernel_connects_as_the_engine_does_and_its_legs_are_least_cost() {
        let mut checked = 0;
        for seed in 0..10 {
            let h = Hierarchy::build(walls(seed, 70, 50, 3 + seed % 3)).unwrap();
            assert!(h.connects_by_kernel(1));
            let mut cache = SearchCache::default();
            let mut end = EndSearch::default();
            for y in (0..50).step_by(3) {
                for x in (0..70).step_by(5) {
                    let p = Point::new(x, y);
                    if !h.grid().is_passable(p) {
                        continue;
                    }
                    let mut want = Vec::new();
                    h.connect(&mut cache, 1, p, Pricing::Forward, &mut want);
                    let mut got = Vec::new();
                    end.reset();
                    if h.resolve_straight(1, p, &mut got) {
                        h.connect_by_kernel(&mut end, p, &mut got);
                    }
                    assert_eq!(got, want, "seed {seed} at {p:?}");
                    for (v, cost) in &got {
                        let q = h.node_point(*v);
                        for toward in [false, true] {
                            let mut cells = Vec::new();
                            if end.leg(q, toward, &mut cells) {
                                let (first, last) = if toward { (q, p) } else { (p, q) };
                                assert_eq!(cells.first(), Some(&first));
                                assert_eq!(cells.last(), Some(&last));
                                let c = path_cost(h.grid(), h.movement(), &cells).unwrap();
                                assert_eq!(c.0, *cost, "seed {seed} {p:?} -> {q:?}");
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
