//! Time-sliced two-tier queries: the work of [`Hierarchy::find_path`] spread
//! over calls of a bounded number of expansions.

mod job;

use super::{Method, PhaseTimes, QueryCache, QueryOptions, QueryOutcome, QueryStats};
use crate::grid::Point;
use crate::hierarchy::{Hierarchy, Identity};
use crate::query::local::NearSearch;
use crate::search::{QueryError, SliceStatus};
use job::{Flow, Job, Step, unreachable};

/// A two-tier query spread over many calls, after Recast/Detour's
/// `initSlicedFindPath` / `updateSlicedFindPath` / `finalizeSlicedFindPath`:
/// [`start`](SlicedQuery::start) it, [`update`](SlicedQuery::update) it by
/// at most `max_expansions` expanded nodes per call (grid cells and
/// cluster-graph nodes alike), then [`finish`](SlicedQuery::finish) it for the
/// outcome.
///
/// The outcome is exactly [`Hierarchy::find_path`]'s (the same cells, cost and
/// counters; phase times are not measured) whatever the slices: every search
/// of the query (the near search,
/// the connections of start and goal to their clusters, the search over the
/// cluster graph, the in-cluster searches that refine it) runs as in
/// `find_path`, paused and resumed. Steps that expand nothing (copying stored
/// edge paths, smoothing) run in the update that reaches them, so a call with
/// a budget of zero may still finish a query that needs no more searching;
/// so does the search over a contracted cluster graph
/// ([`Hierarchy::contract`]), microseconds in all.
/// Every call must pass the hierarchy the query was started on (another one
/// is refused with an error).
///
/// ```
/// use tierpath::{Grid, Hierarchy, Point, QueryCache, SliceStatus, SlicedQuery};
/// let h = Hierarchy::build(Grid::from_fn(200, 200, |p| !(p.x == 100 && p.y < 190)).unwrap())?;
/// let (start, goal) = (Point::new(5, 5), Point::new(195, 5));
/// let mut query = SlicedQuery::new();
/// query.start(&h, start, goal)?;
/// let mut frames = 0;
/// while query.update(&h, 20)? == SliceStatus::InProgress {
///     frames += 1; // ... the rest of the frame ...
/// }
/// let out = query.finish().expect("done");
/// assert_eq!(out, h.find_path(&mut QueryCache::new(), start, goal)?);
/// # assert!(frames > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Performance
/// The query owns its [`QueryCache`] (reset by generation stamps, sized on
/// first use) and reuses it for every query it is started on: keep one per
/// concurrent query (a [`PathQueue`](crate::PathQueue) needs only one for all
/// its requests). Pausing and resuming cost nothing beyond the expansions.
#[derive(Debug, Clone, Default)]
pub struct SlicedQuery {
    cache: QueryCache,
    job: Option<Job>,
}

/// What identifies the hierarchy a query was started on: its
/// [`Identity`] (a query refuses to continue on another), and what the
/// messages name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HierarchyKey {
    identity: Identity,
    width: u32,
    height: u32,
    nodes: usize,
    revision: u64,
}

impl HierarchyKey {
    pub(crate) fn of(h: &Hierarchy) -> HierarchyKey {
        HierarchyKey {
            identity: h.identity(),
            width: h.grid().width(),
            height: h.grid().height(),
            nodes: h.node_count(),
            revision: h.revision(),
        }
    }

    /// Whether `h` is this key's hierarchy, perhaps repaired since.
    pub(crate) fn same_map(&self, h: &Hierarchy) -> bool {
        self.identity.lineage == h.identity().lineage
    }

    /// Whether `h` is this key's hierarchy, unchanged.
    pub(crate) fn is(&self, h: &Hierarchy) -> bool {
        self.identity == h.identity()
    }

    /// `Ok` when `h` is the hierarchy this key was taken from, unchanged.
    pub(crate) fn check(&self, h: &Hierarchy, what: &str) -> Result<(), QueryError> {
        let now = HierarchyKey::of(h);
        if self.is(h) {
            Ok(())
        } else if self.same_map(h) && self.revision == now.revision {
            Err(QueryError::Unsupported(format!(
                "the hierarchy's search changed since {what} started (a contraction \
                 installed or cell landmarks added); start it again"
            )))
        } else if self.same_map(h) {
            Err(QueryError::Unsupported(format!(
                "the map changed since {what} started (repair {} -> {}); start it again",
                self.revision, now.revision
            )))
        } else {
            Err(QueryError::Unsupported(format!(
                "{what} was started on another hierarchy ({}x{}, {} transitions); \
                 pass the same one to every call",
                self.width, self.height, self.nodes
            )))
        }
    }
}

impl SlicedQuery {
    /// An idle query with a scratch of its own.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a query from `start` to `goal` on `h`, abandoning any query in
    /// progress. `Err` for bad input, as [`Hierarchy::find_path`]. Expands
    /// nothing: a goal on another island is answered here at once.
    pub fn start(&mut self, h: &Hierarchy, start: Point, goal: Point) -> Result<(), QueryError> {
        self.start_with(h, start, goal, &QueryOptions::new())
    }

    /// [`SlicedQuery::start`] with options: the outcome is then exactly
    /// [`Hierarchy::find_path_with`]'s. A unit of any size the hierarchy
    /// serves is sliced like one cell. A partial path (the goal cannot be
    /// reached) is found in the first update, whatever its budget: it is
    /// the nearest-of-many search of [`Hierarchy::find_path_with`], run
    /// whole, and its expansions count against that update.
    pub fn start_with(
        &mut self,
        h: &Hierarchy,
        start: Point,
        goal: Point,
        options: &QueryOptions,
    ) -> Result<(), QueryError> {
        self.job = None;
        let size = h.check_unit(start, goal, options.size())?;
        let cache = &mut self.cache;
        cache.fine_trace.clear();
        cache.abstract_trace.clear();
        let phases = cache.timing.then(PhaseTimes::default);
        let mut job = Job {
            key: HierarchyKey::of(h),
            start,
            goal,
            stats: QueryStats {
                method: Method::Near,
                phases,
                ..QueryStats::default()
            },
            near: None,
            expanded: 0,
            size,
            step: Step::ConnectGoal { searching: false },
        };
        if !h.connected_for(start, goal, size) {
            job.step = if options.is_partial() {
                Step::Partial(*options)
            } else {
                Step::Done(unreachable(phases))
            };
        } else {
            match h.near(size, start, goal) {
                NearSearch::Jumps => job.step = Step::Jump { begun: false },
                NearSearch::Bounded(area) => {
                    let (est, t) = h.bounded_begin(&mut cache.grid, start, goal);
                    job.step = Step::Near { area, est, goal: t };
                }
                NearSearch::Skip => {}
            }
        }
        self.job = Some(job);
        Ok(())
    }

    /// Advances the query by at most `max_expansions` expansions and says
    /// where it stands. `h` must be the hierarchy the query was started on
    /// (`Err` otherwise).
    pub fn update(
        &mut self,
        h: &Hierarchy,
        max_expansions: u64,
    ) -> Result<SliceStatus, QueryError> {
        let Some(job) = self.job.as_mut() else {
            return Ok(SliceStatus::Idle);
        };
        job.key.check(h, "the sliced query")?;
        let mut left = max_expansions;
        while !matches!(job.step, Step::Done(_)) {
            if let Flow::Yield = job.advance(h, &mut self.cache, &mut left) {
                return Ok(SliceStatus::InProgress);
            }
        }
        Ok(SliceStatus::Done)
    }

    /// Where the query stands.
    pub fn status(&self) -> SliceStatus {
        match &self.job {
            None => SliceStatus::Idle,
            Some(Job {
                step: Step::Done(_),
                ..
            }) => SliceStatus::Done,
            Some(_) => SliceStatus::InProgress,
        }
    }

    /// The outcome of a query that is [`Done`](SliceStatus::Done), after which
    /// the query is idle; `None` (and nothing changes) otherwise.
    pub fn finish(&mut self) -> Option<QueryOutcome> {
        if !matches!(self.status(), SliceStatus::Done) {
            return None;
        }
        match self.job.take()?.step {
            Step::Done(out) => Some(out),
            _ => None,
        }
    }

    /// Abandons the query in progress, if any.
    pub fn cancel(&mut self) {
        self.job = None;
    }

    /// The start and goal of the current query.
    pub fn endpoints(&self) -> Option<(Point, Point)> {
        self.job.as_ref().map(|j| (j.start, j.goal))
    }

    /// Nodes the current query has expanded so far (grid cells and
    /// cluster-graph nodes).
    pub fn expanded(&self) -> u64 {
        self.job.as_ref().map_or(0, |j| j.expanded)
    }

    /// Bytes of scratch held.
    pub fn memory_bytes(&self) -> usize {
        self.cache.memory_bytes()
    }

    /// Sizes the scratch for `h` now, abandoning any query in progress:
    /// otherwise the first query on a map larger than any before allocates it
    /// (a few bytes per cell, once), which a game may prefer to do while
    /// loading rather than in a frame.
    pub fn reserve(&mut self, h: &Hierarchy) {
        self.job = None;
        self.cache.grid.begin(h.grid());
        self.cache.abs.begin(h.node_count());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, HierarchyBuilder, QueryCache};

    #[test]
    fn every_slice_size_gives_the_one_shot_answer() {
        let grid = Grid::from_fn(120, 90, |p| {
            !((p.x % 13 == 6 && p.y % 29 != 3) || (p.y % 17 == 8 && p.x % 31 == 2))
        })
        .unwrap();
        let h = HierarchyBuilder::new().cluster_size(8).build(grid).unwrap();
        let mut cache = QueryCache::new();
        let mut q = SlicedQuery::new();
        let pts: Vec<Point> = h.grid().passable_points().collect();
        let mut methods = std::collections::BTreeSet::new();
        for k in 0..40 {
            let (s, t) = (
                pts[(k * 7919) % pts.len()],
                pts[(k * 104_729 + 17) % pts.len()],
            );
            let want = h.find_path(&mut cache, s, t).unwrap();
            methods.insert(format!("{:?}", want.stats.method));
            for slice in [1, 3, 50, u64::MAX] {
                q.start(&h, s, t).unwrap();
                let mut calls = 0u64;
                while q.update(&h, slice).unwrap() == SliceStatus::InProgress {
                    calls += 1;
                    assert!(q.expanded() <= calls * slice);
                }
                assert_eq!(
                    q.finish().as_ref(),
                    Some(&want),
                    "{s} -> {t}, slice {slice}"
                );
                assert_eq!(q.status(), SliceStatus::Idle);
            }
        }
        assert!(
            methods.contains("Hierarchical") && methods.contains("Near"),
            "{methods:?}"
        );
    }

    #[test]
    fn another_hierarchy_is_refused() {
        let a = Hierarchy::build(Grid::new(40, 40).unwrap()).unwrap();
        let b = Hierarchy::build(Grid::new(50, 40).unwrap()).unwrap();
        let mut q = SlicedQuery::new();
        q.start(&a, Point::new(0, 0), Point::new(39, 39)).unwrap();
        assert!(matches!(q.update(&b, 10), Err(QueryError::Unsupported(_))));
        assert_eq!(q.update(&a, 0).unwrap(), SliceStatus::InProgress);
        assert!(q.finish().is_none());
        q.cancel();
        assert_eq!(q.update(&a, 10).unwrap(), SliceStatus::Idle);
        assert!(matches!(
            q.start(&a, Point::new(40, 0), Point::new(0, 0)),
            Err(QueryError::OffMap { .. })
        ));
    }

    #[test]
    fn identity_not_counts_tells_hierarchies_apart() {
        // Another map of the same size, and a second build of the same map
        // (the same sizes and counts in every array): both are other
        // hierarchies, told apart by identity.
        let left = Grid::from_fn(40, 40, |p| !(p.x == 10 && p.y < 30)).unwrap();
        let right = Grid::from_fn(40, 40, |p| !(p.x == 29 && p.y < 30)).unwrap();
        let (a, b) = (
            Hierarchy::build(left.clone()).unwrap(),
            Hierarchy::build(right).unwrap(),
        );
        let again = Hierarchy::build(left).unwrap();
        assert_ne!(a.identity(), again.identity(), "every build is its own");
        assert_eq!(
            (a.entrances().cells.len(), a.graph().edges()),
            (again.entrances().cells.len(), again.graph().edges())
        );
        let (s, t) = (Point::new(0, 39), Point::new(39, 0));
        for other in [&b, &again] {
            let mut q = SlicedQuery::new();
            q.start(&a, s, t).unwrap();
            assert!(matches!(
                q.update(other, 1),
                Err(QueryError::Unsupported(_))
            ));
        }
        // A clone answers alike and is accepted.
        let copy = a.clone();
        let mut q = SlicedQuery::new();
        q.start(&a, s, t).unwrap();
        while q.update(&copy, 5).unwrap() == SliceStatus::InProgress {}
        assert_eq!(
            q.finish(),
            Some(a.find_path(&mut QueryCache::new(), s, t).unwrap())
        );
    }
}
