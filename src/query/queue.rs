//! A request queue that serves many units' path queries within a per-frame
//! expansion budget, oldest first.

use std::collections::{HashMap, VecDeque};
use std::fmt;

use super::sliced::{HierarchyKey, SlicedQuery};
use super::{QueryOptions, QueryOutcome, QueryStats};
use crate::grid::Point;
use crate::hierarchy::Hierarchy;
use crate::search::{QueryError, SliceStatus};

/// Names a request made to a [`PathQueue`]; never reused by that queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId(u64);

impl RequestId {
    /// The number behind the id (requests are numbered from 0 in the order
    /// pushed).
    pub fn get(self) -> u64 {
        self.0
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Where a request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RequestStatus {
    /// Waiting: this many older requests are ahead of it (the one in progress
    /// included).
    Queued {
        /// Requests to be served first.
        ahead: usize,
    },
    /// Being searched.
    InProgress,
    /// Answered: take the result with [`PathQueue::take`].
    Done,
    /// Not known to the queue: cancelled, already taken, or never issued by it.
    Unknown,
}

/// What one [`PathQueue::update`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct QueueFrame {
    /// Nodes expanded (grid cells and cluster-graph nodes): at most the budget.
    pub expanded: u64,
    /// Requests answered.
    pub completed: u32,
}

/// A queue of path requests served within a budget of expanded nodes per
/// update, in the manner of Recast/Detour's `dtPathQueue`: units
/// [`push`](PathQueue::push) requests, the game calls
/// [`update`](PathQueue::update) once per frame with that frame's budget, and
/// results are picked up by request id ([`take`](PathQueue::take)) or in the
/// order they finish ([`pop_finished`](PathQueue::pop_finished)).
///
/// **Fairness: oldest first.** Requests are served one at a time in the order
/// they were pushed; an update spends its budget on the oldest unanswered
/// request and, when that one is answered, on the next. No request is ever
/// overtaken by a younger one, and none starves: a query expands finitely many
/// nodes, and every update with a budget of at least one expansion advances
/// the oldest request (requests that need no search, such as a goal on
/// another island, are answered without using the budget). Each answer is
/// exactly [`Hierarchy::find_path`]'s for that request.
///
/// ```
/// use tierpath::{Grid, Hierarchy, PathQueue, Point, RequestStatus};
/// let h = Hierarchy::build(Grid::from_fn(128, 128, |p| !(p.x == 64 && p.y < 120)).unwrap())?;
/// let mut queue = PathQueue::new();
/// let a = queue.push(&h, Point::new(0, 0), Point::new(127, 0))?;
/// let b = queue.push(&h, Point::new(3, 3), Point::new(10, 90))?;
/// let mut frames = 0;
/// while queue.pending() > 0 {
///     let frame = queue.update(&h, 25)?; // at most 25 expansions this frame
///     assert!(frame.expanded <= 25);
///     frames += 1;
/// }
/// assert_eq!(queue.status(a), RequestStatus::Done);
/// let path_b = queue.take(b).expect("answered").path.expect("reachable");
/// assert_eq!(path_b.goal(), Some(Point::new(10, 90)));
/// # assert!(frames > 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Performance
/// One [`SlicedQuery`] (one query scratch) serves every request. Pushing,
/// answering and taking cost constant time; [`cancel`](PathQueue::cancel) and
/// [`status`](PathQueue::status) of a waiting request scan the waiting line.
/// Answers are kept until taken.
#[derive(Debug, Clone, Default)]
pub struct PathQueue {
    query: SlicedQuery,
    /// The request in progress.
    active: Option<RequestId>,
    /// The options of the request in progress.
    active_options: QueryOptions,
    /// Waiting requests, oldest first.
    waiting: VecDeque<(RequestId, Point, Point, QueryOptions)>,
    /// Answers not yet taken.
    answers: HashMap<RequestId, QueryOutcome>,
    /// Answered requests in the order answered (taken ones are skipped).
    answered: VecDeque<RequestId>,
    next: u64,
    key: Option<HierarchyKey>,
}

impl PathQueue {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues a query from `start` to `goal` on `h` and returns its id. The
    /// endpoints are checked now: `Err` for one off the map or blocked, as
    /// [`Hierarchy::find_path`], and when `h` is not the hierarchy the queue
    /// already serves.
    pub fn push(
        &mut self,
        h: &Hierarchy,
        start: Point,
        goal: Point,
    ) -> Result<RequestId, QueryError> {
        self.push_with(h, start, goal, &QueryOptions::new())
    }

    /// [`PathQueue::push`] with options (a unit's size, partial paths): the
    /// answer is then [`Hierarchy::find_path_with`]'s (see
    /// [`SlicedQuery::start_with`] for how a partial path is budgeted).
    pub fn push_with(
        &mut self,
        h: &Hierarchy,
        start: Point,
        goal: Point,
        options: &QueryOptions,
    ) -> Result<RequestId, QueryError> {
        self.check(h)?;
        h.check_unit(start, goal, options.size())?;
        let id = RequestId(self.next);
        self.next += 1;
        self.waiting.push_back((id, start, goal, *options));
        Ok(id)
    }

    /// Serves requests, oldest first, expanding at most `max_expansions`
    /// nodes in all. `Err` when `h` is not the hierarchy the queue serves.
    pub fn update(&mut self, h: &Hierarchy, max_expansions: u64) -> Result<QueueFrame, QueryError> {
        self.check(h)?;
        let mut frame = QueueFrame::default();
        loop {
            let id = match self.active {
                Some(id) => id,
                None => {
                    let Some((id, s, t, options)) = self.waiting.pop_front() else {
                        break;
                    };
                    match self.query.start_with(h, s, t, &options) {
                        Ok(()) => self.active_options = options,
                        // The map changed under a waiting request: an end on
                        // a wall (or too narrow for the unit) now is
                        // unreachable, not an error.
                        Err(QueryError::Blocked { .. } | QueryError::DoesNotFit { .. }) => {
                            self.answers.insert(
                                id,
                                QueryOutcome {
                                    path: None,
                                    stats: QueryStats::default(),
                                    partial: false,
                                },
                            );
                            self.answered.push_back(id);
                            frame.completed += 1;
                            continue;
                        }
                        Err(e) => return Err(e),
                    }
                    self.active = Some(id);
                    id
                }
            };
            let before = self.query.expanded();
            let status = self.query.update(h, max_expansions - frame.expanded)?;
            frame.expanded += self.query.expanded() - before;
            if status != SliceStatus::Done {
                break;
            }
            let outcome = self
                .query
                .finish()
                .expect("a query that is done has an outcome");
            self.answers.insert(id, outcome);
            self.answered.push_back(id);
            self.active = None;
            frame.completed += 1;
        }
        Ok(frame)
    }

    /// Where request `id` stands.
    pub fn status(&self, id: RequestId) -> RequestStatus {
        if self.active == Some(id) {
            return RequestStatus::InProgress;
        }
        if self.answers.contains_key(&id) {
            return RequestStatus::Done;
        }
        match self.waiting.iter().position(|(w, ..)| *w == id) {
            Some(i) => RequestStatus::Queued {
                ahead: i + usize::from(self.active.is_some()),
            },
            None => RequestStatus::Unknown,
        }
    }

    /// The answer to request `id`, once; `None` while it is not answered (or
    /// when it was cancelled, already taken, or is unknown).
    pub fn take(&mut self, id: RequestId) -> Option<QueryOutcome> {
        self.answers.remove(&id)
    }

    /// The oldest answer not yet taken, with its request id, in the order
    /// answered.
    pub fn pop_finished(&mut self) -> Option<(RequestId, QueryOutcome)> {
        while let Some(id) = self.answered.pop_front() {
            if let Some(out) = self.answers.remove(&id) {
                return Some((id, out));
            }
        }
        None
    }

    /// Cancels request `id`, whether waiting, in progress (its search is
    /// dropped, and the next update goes on with the next request) or answered
    /// and not taken (the answer is dropped). Returns whether the queue knew it.
    pub fn cancel(&mut self, id: RequestId) -> bool {
        if self.active == Some(id) {
            self.query.cancel();
            self.active = None;
            return true;
        }
        if self.answers.remove(&id).is_some() {
            return true;
        }
        match self.waiting.iter().position(|(w, ..)| *w == id) {
            Some(i) => {
                self.waiting.remove(i);
                true
            }
            None => false,
        }
    }

    /// Sizes the queue's scratch for `h` now (see [`SlicedQuery::reserve`]),
    /// so that no frame pays for it. Call it before the first request or
    /// between frames: a request in progress starts over.
    pub fn reserve(&mut self, h: &Hierarchy) -> Result<(), QueryError> {
        self.check(h)?;
        if let Some(id) = self.active.take() {
            let (s, t) = self
                .query
                .endpoints()
                .expect("the request in progress has a query");
            self.waiting.push_front((id, s, t, self.active_options));
        }
        self.query.reserve(h);
        Ok(())
    }

    /// Requests not yet answered (waiting or in progress).
    pub fn pending(&self) -> usize {
        self.waiting.len() + usize::from(self.active.is_some())
    }

    /// Answers not yet taken.
    pub fn answered(&self) -> usize {
        self.answers.len()
    }

    /// Drops every request and answer; the queue may then serve another
    /// hierarchy. Request ids are not reused.
    pub fn clear(&mut self) {
        self.query.cancel();
        self.active = None;
        self.waiting.clear();
        self.answers.clear();
        self.answered.clear();
        self.key = None;
    }

    /// Binds the queue to `h` on first use; refuses another map after. When
    /// the map was repaired since (a [`DynamicHierarchy`](crate::DynamicHierarchy)
    /// edit), the request in progress starts again on the repaired hierarchy
    /// and the queue carries on.
    fn check(&mut self, h: &Hierarchy) -> Result<(), QueryError> {
        match &self.key {
            Some(key) if key.same_map(h) && !key.is(h) => {
                if let (Some(id), Some((s, t))) = (self.active, self.query.endpoints()) {
                    self.query.cancel();
                    self.waiting.push_front((id, s, t, self.active_options));
                }
                self.active = None;
                self.key = Some(HierarchyKey::of(h));
                Ok(())
            }
            Some(key) => key.check(h, "the path queue"),
            None => {
                self.key = Some(HierarchyKey::of(h));
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Grid, QueryCache};

    #[test]
    fn serves_oldest_first_within_budget() {
        let grid = Grid::from_fn(96, 96, |p| !(p.x % 24 == 12 && p.y % 48 != 40)).unwrap();
        let h = Hierarchy::build(grid).unwrap();
        let mut queue = PathQueue::new();
        let pairs = [
            (Point::new(0, 0), Point::new(95, 95)),
            (Point::new(5, 5), Point::new(6, 6)),
            (Point::new(90, 2), Point::new(1, 80)),
            (Point::new(40, 40), Point::new(41, 90)),
        ];
        let ids: Vec<RequestId> = pairs
            .iter()
            .map(|(s, t)| queue.push(&h, *s, *t).unwrap())
            .collect();
        assert_eq!(queue.status(ids[2]), RequestStatus::Queued { ahead: 2 });
        let mut order = Vec::new();
        let mut frames = 0;
        while queue.pending() > 0 {
            let frame = queue.update(&h, 64).unwrap();
            assert!(frame.expanded <= 64);
            while let Some((id, _)) = queue.pop_finished() {
                order.push(id);
            }
            frames += 1;
            assert!(frames < 10_000, "the queue does not finish");
        }
        assert_eq!(order, ids, "answered in the order pushed");
        assert_eq!(queue.status(ids[0]), RequestStatus::Unknown);

        // Answers equal one-shot queries; cancelled requests never answer.
        let mut cache = QueryCache::new();
        let ids: Vec<RequestId> = pairs
            .iter()
            .map(|(s, t)| queue.push(&h, *s, *t).unwrap())
            .collect();
        queue.update(&h, 1).unwrap();
        assert_eq!(queue.status(ids[0]), RequestStatus::InProgress);
        queue.reserve(&h).unwrap();
        assert_eq!(queue.status(ids[0]), RequestStatus::Queued { ahead: 0 });
        queue.update(&h, 1).unwrap();
        assert_eq!(queue.status(ids[0]), RequestStatus::InProgress);
        assert!(queue.cancel(ids[0]) && queue.cancel(ids[2]));
        assert!(!queue.cancel(ids[2]));
        while queue.pending() > 0 {
            queue.update(&h, 1000).unwrap();
        }
        for (k, id) in ids.iter().enumerate() {
            let got = queue.take(*id);
            if k == 0 || k == 2 {
                assert_eq!(got, None);
            } else {
                let (s, t) = pairs[k];
                assert_eq!(got, Some(h.find_path(&mut cache, s, t).unwrap()));
            }
        }
        assert_eq!(queue.answered(), 0);
    }

    #[test]
    fn bad_requests_are_errors() {
        let h = Hierarchy::build(Grid::from_ascii("...\n.@.\n...").unwrap()).unwrap();
        let other = Hierarchy::build(Grid::new(5, 5).unwrap()).unwrap();
        let mut queue = PathQueue::new();
        assert!(matches!(
            queue.push(&h, Point::new(1, 1), Point::new(0, 0)),
            Err(QueryError::Blocked { role: "start", .. })
        ));
        assert!(matches!(
            queue.push(&h, Point::new(0, 0), Point::new(3, 0)),
            Err(QueryError::OffMap { role: "goal", .. })
        ));
        assert!(matches!(
            queue.update(&other, 10),
            Err(QueryError::Unsupported(_))
        ));
        queue.clear();
        assert!(
            queue
                .push(&other, Point::new(0, 0), Point::new(4, 4))
                .is_ok()
        );
        assert_eq!(queue.update(&other, 1000).unwrap().completed, 1);
    }
}
