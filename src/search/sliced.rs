//! Time-sliced flat A*: start a search, advance it a bounded number of
//! expansions per call (a frame's share), take the result when done.

use super::{AStar, Estimator, QueryError, SearchCache, SearchOutcome, Status};
use crate::grid::{Node, Point};

/// Where a time-sliced query stands, as [`SlicedSearch::update`] and
/// [`SlicedQuery::update`](crate::SlicedQuery::update) report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SliceStatus {
    /// No query: none was started, or the last one was finished.
    Idle,
    /// The query needs more updates.
    InProgress,
    /// The query has its answer: take it with `finish`.
    Done,
}

/// Flat A* spread over many calls, after Recast/Detour's
/// `initSlicedFindPath` / `updateSlicedFindPath` / `finalizeSlicedFindPath`:
/// [`start`](SlicedSearch::start) a query, [`update`](SlicedSearch::update)
/// it by at most `max_expansions` expanded cells per call (say once per
/// frame), then [`finish`](SlicedSearch::finish) it for the outcome.
///
/// The outcome equals [`AStar::find_path`]'s with the same settings, whatever
/// the slices: the search is the same search, paused and resumed. The
/// engine's settings apply, [`AStar::max_expansions`] as a limit on the whole
/// search and [`AStar::partial`] included: finishing a search early (or one
/// whose limit ran out) gives the partial path to the closest cell expanded
/// so far, or none.
///
/// ```
/// use tierpath::{AStar, Grid, Point, SliceStatus, SlicedSearch};
/// let grid = Grid::from_fn(64, 64, |p| !(p.x == 32 && p.y < 60)).unwrap();
/// let mut search = SlicedSearch::new(AStar::new(&grid));
/// search.start(Point::new(0, 0), Point::new(63, 0))?;
/// let mut frames = 0;
/// while search.update(100) == SliceStatus::InProgress {
///     frames += 1; // ... draw a frame ...
/// }
/// let out = search.finish().expect("a search was started");
/// assert!(frames > 1 && out.path.is_some());
/// # Ok::<(), tierpath::QueryError>(())
/// ```
///
/// # Performance
/// The search owns its [`SearchCache`] (reset by generation stamps, sized to
/// the largest map it has seen) and reuses it for every query it is
/// started on: keep one `SlicedSearch` per concurrent query, not one per query.
/// Resuming costs nothing beyond the expansions themselves.
#[derive(Debug, Clone)]
pub struct SlicedSearch<'g> {
    astar: AStar<'g>,
    cache: SearchCache,
    run: Option<Run>,
}

#[derive(Debug, Clone, Copy)]
struct Run {
    est: Estimator,
    goal: Node,
    /// Expansions so far.
    spent: u64,
    /// How the search ended, once it has.
    ended: Option<Status>,
}

impl<'g> SlicedSearch<'g> {
    /// A sliced search with `astar`'s settings and a scratch of its own.
    pub fn new(astar: AStar<'g>) -> Self {
        SlicedSearch {
            astar,
            cache: SearchCache::new(),
            run: None,
        }
    }

    /// Starts a query from `start` to `goal`, abandoning any query in
    /// progress. `Err` for bad input, as [`AStar::find_path`].
    pub fn start(&mut self, start: Point, goal: Point) -> Result<(), QueryError> {
        self.run = None;
        let (est, goal) = self.astar.prepare(&mut self.cache, start, goal)?;
        self.run = Some(Run {
            est,
            goal,
            spent: 0,
            ended: None,
        });
        Ok(())
    }

    /// Advances the query by at most `max_expansions` expansions.
    pub fn update(&mut self, max_expansions: u64) -> SliceStatus {
        let Some(run) = self.run.as_mut() else {
            return SliceStatus::Idle;
        };
        if run.ended.is_some() {
            return SliceStatus::Done;
        }
        let allowed = max_expansions.min(self.astar.max_expansions - run.spent);
        if allowed == 0 {
            return SliceStatus::InProgress;
        }
        let before = self.cache.stats.expanded;
        let status = self
            .astar
            .advance(&mut self.cache, run.est, run.goal, allowed);
        run.spent += self.cache.stats.expanded - before;
        match status {
            Status::Paused if run.spent < self.astar.max_expansions => SliceStatus::InProgress,
            ended => {
                run.ended = Some(ended);
                SliceStatus::Done
            }
        }
    }

    /// Where the query stands.
    pub fn status(&self) -> SliceStatus {
        match self.run {
            None => SliceStatus::Idle,
            Some(Run { ended: None, .. }) => SliceStatus::InProgress,
            Some(_) => SliceStatus::Done,
        }
    }

    /// Ends the query and returns its outcome: the path when done, as
    /// [`AStar::find_path`] would give it. Finishing a query still in
    /// progress stops it: the outcome is flagged
    /// [`out_of_budget`](SearchOutcome::out_of_budget) and holds the partial
    /// path when [`AStar::partial`] is on, else none. `None` when no query
    /// was started (or it was already finished).
    pub fn finish(&mut self) -> Option<SearchOutcome> {
        let run = self.run.take()?;
        let status = run.ended.unwrap_or(Status::Paused);
        Some(self.astar.outcome(&self.cache, status))
    }

    /// The scratch, for the counters and recorded expansions of the current
    /// query ([`SearchCache::stats`], [`SearchCache::expansions`]).
    pub fn cache(&self) -> &SearchCache {
        &self.cache
    }

    /// The scratch, to turn [`SearchCache::record_expansions`] on or off
    /// (before [`start`](SlicedSearch::start)).
    pub fn cache_mut(&mut self) -> &mut SearchCache {
        &mut self.cache
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

    #[test]
    fn slices_give_the_one_shot_answer() {
        let grid = Grid::from_fn(40, 30, |p| !(p.x % 8 == 4 && p.y % 20 != (p.x / 8) * 3)).unwrap();
        let (s, t) = (Point::new(0, 0), Point::new(39, 29));
        let mut one = SearchCache::new();
        let astar = AStar::new(&grid);
        let want = astar.find_path(&mut one, s, t).unwrap();
        for slice in [1, 2, 7, 100, u64::MAX] {
            let mut q = SlicedSearch::new(astar);
            assert_eq!(q.update(5), SliceStatus::Idle);
            q.start(s, t).unwrap();
            let mut calls = 0;
            while q.update(slice) == SliceStatus::InProgress {
                calls += 1;
                assert!(q.cache().stats().expanded <= calls * slice);
            }
            assert_eq!(q.status(), SliceStatus::Done);
            assert_eq!(q.finish(), Some(want.clone()), "slice {slice}");
            assert_eq!(q.finish(), None);
        }
    }

    #[test]
    fn early_finish_and_limits() {
        let grid = Grid::new(50, 50).unwrap();
        let (s, t) = (Point::new(0, 0), Point::new(49, 49));
        let mut q = SlicedSearch::new(AStar::new(&grid).partial(true));
        q.start(s, t).unwrap();
        assert_eq!(q.update(10), SliceStatus::InProgress);
        let out = q.finish().unwrap();
        assert!(out.partial && out.out_of_budget);
        assert_eq!(out.stats.expanded, 10);
        let path = out.path.unwrap();
        assert_eq!(path.start(), Some(s));
        // A limit on the whole search: the one-shot answer with the same limit.
        let limited = AStar::new(&grid).partial(true).max_expansions(25);
        let want = limited.find_path(&mut SearchCache::new(), s, t).unwrap();
        let mut q = SlicedSearch::new(limited);
        q.start(s, t).unwrap();
        while q.update(4) == SliceStatus::InProgress {}
        assert_eq!(q.finish(), Some(want));
        assert!(matches!(
            q.start(Point::new(99, 0), t),
            Err(QueryError::OffMap { role: "start", .. })
        ));
        assert_eq!(q.status(), SliceStatus::Idle);
    }
}
