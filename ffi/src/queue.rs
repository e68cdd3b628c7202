//! Frame budgets: the time-sliced query and the request queue.

use std::collections::HashMap;
use std::sync::Mutex;

use tierpath::{PathQueue, RequestId, RequestStatus, SliceStatus, SlicedQuery};

use crate::handle::{
    Handle, Kind, TierpathStatus, clear_out, fail, get, guard, lock, publish, put, put_opt,
    release, required_out,
};
use crate::hierarchy::TierpathHierarchy;
use crate::map::TierpathPoint;
use crate::query::{Request, TierpathPath, TierpathQueryOptions};

/// Where a sliced query stands.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathSliceStatus {
    /// No query started (or the last one was finished).
    Idle = 0,
    /// More updates needed.
    InProgress = 1,
    /// Answered: take it with `tierpath_sliced_finish`.
    Done = 2,
}

/// A query spread over frames (opaque): start it, update it with a budget
/// of expansions per frame, finish it. Owns its scratch; one thread at a
/// time. Released by `tierpath_sliced_free`.
pub struct TierpathSliced {
    query: Mutex<SlicedQuery>,
}

impl Handle for TierpathSliced {
    const KIND: Kind = Kind::Sliced;
    const NAME: &'static str = "sliced query";
}

/// Makes an idle sliced query.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_sliced_new(out: *mut *mut TierpathSliced) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        publish(
            TierpathSliced {
                query: Mutex::new(SlicedQuery::new()),
            },
            out,
        )
    })
}

/// Starts a query (abandoning one in progress). Expands nothing. `options`
/// may be null (defaults); the answer is then exactly `tierpath_find_path`'s
/// with the same options (a partial path is found whole in the first
/// update, whatever its budget). Errors as `tierpath_find_path`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_sliced_start(
    sliced: *const TierpathSliced,
    hierarchy: *const TierpathHierarchy,
    start: TierpathPoint,
    goal: TierpathPoint,
    options: *const TierpathQueryOptions,
) -> TierpathStatus {
    guard(|| unsafe {
        let request = Request::new(start, goal, options);
        let mut query = lock(&get(sliced)?.query, "sliced query")?;
        let held = get(hierarchy)?.read();
        Ok(query.start_with(
            held.get(),
            request.start,
            request.goal,
            &request.library_options(),
        )?)
    })
}

/// Advances the query by at most `max_expansions` expanded nodes and writes
/// where it stands to `status`. `hierarchy` must be the one it was started
/// on, unchanged (`TIERPATH_STATUS_WRONG_HIERARCHY` otherwise).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_sliced_update(
    sliced: *const TierpathSliced,
    hierarchy: *const TierpathHierarchy,
    max_expansions: u64,
    status: *mut TierpathSliceStatus,
) -> TierpathStatus {
    guard(|| unsafe {
        if status.is_null() {
            return fail(TierpathStatus::NullArgument, "the status pointer is null");
        }
        let mut query = lock(&get(sliced)?.query, "sliced query")?;
        let held = get(hierarchy)?.read();
        let now = query.update(held.get(), max_expansions)?;
        put(status, slice_status(now), "status")
    })
}

fn slice_status(s: SliceStatus) -> TierpathSliceStatus {
    match s {
        SliceStatus::Idle => TierpathSliceStatus::Idle,
        SliceStatus::InProgress => TierpathSliceStatus::InProgress,
        SliceStatus::Done => TierpathSliceStatus::Done,
    }
}

/// Takes the answer of a query that is done into a new path handle (`out`,
/// required) and leaves the query idle. `TIERPATH_STATUS_NOT_READY` while it is not
/// done. `hierarchy` is the one it ran on (for the cost in steps).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_sliced_finish(
    sliced: *const TierpathSliced,
    hierarchy: *const TierpathHierarchy,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let mut query = lock(&get(sliced)?.query, "sliced query")?;
        let held = get(hierarchy)?.read();
        match query.finish() {
            Some(outcome) => publish(TierpathPath::new(held.get(), &outcome), out),
            None => fail(TierpathStatus::NotReady, "the sliced query is not done"),
        }
    })
}

/// Releases a sliced query (null: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_sliced_free(sliced: *mut TierpathSliced) -> TierpathStatus {
    unsafe { release(sliced) }
}

/// A queue of path requests served oldest first within a per-frame budget
/// of expansions (opaque). One thread at a time. Released by
/// `tierpath_queue_free`.
pub struct TierpathQueue {
    queue: Mutex<Served>,
}

/// The library's queue, and its ids by number for the requests it may still
/// answer (removed when taken or cancelled).
#[derive(Default)]
struct Served {
    queue: PathQueue,
    ids: HashMap<u64, RequestId>,
}

impl Served {
    fn status(&self, id: u64) -> RequestStatus {
        self.ids
            .get(&id)
            .map_or(RequestStatus::Unknown, |r| self.queue.status(*r))
    }
}

impl Handle for TierpathQueue {
    const KIND: Kind = Kind::Queue;
    const NAME: &'static str = "queue";
}

/// What one `tierpath_queue_update` did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierpathQueueFrame {
    /// Nodes expanded (at most the budget).
    pub expanded: u64,
    /// Requests answered.
    pub completed: u32,
}

/// Where a request stands.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathRequestState {
    /// Not known: cancelled, taken, or never issued by this queue.
    Unknown = 0,
    /// Waiting behind others.
    Queued = 1,
    /// Being searched.
    InProgress = 2,
    /// Answered: take it.
    Done = 3,
}

/// Makes an empty queue.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_new(out: *mut *mut TierpathQueue) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        publish(
            TierpathQueue {
                queue: Mutex::new(Served::default()),
            },
            out,
        )
    })
}

/// Queues a request from `start` to `goal` and writes its id (never reused)
/// to `id`. `options` may be null (defaults); the answer is then
/// `tierpath_find_path`'s with the same options. Errors:
/// `TIERPATH_STATUS_OFF_MAP`, `TIERPATH_STATUS_BLOCKED`,
/// `TIERPATH_STATUS_INVALID_ARGUMENT` (a unit size the hierarchy does not
/// serve), `TIERPATH_STATUS_WRONG_HIERARCHY` (a queue serves one
/// hierarchy), `TIERPATH_STATUS_BUSY`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_push(
    queue: *const TierpathQueue,
    hierarchy: *const TierpathHierarchy,
    start: TierpathPoint,
    goal: TierpathPoint,
    options: *const TierpathQueryOptions,
    id: *mut u64,
) -> TierpathStatus {
    guard(|| unsafe {
        if id.is_null() {
            return fail(TierpathStatus::NullArgument, "the id pointer is null");
        }
        let request = Request::new(start, goal, options);
        let mut queue = lock(&get(queue)?.queue, "queue")?;
        let held = get(hierarchy)?.read();
        let got = queue.queue.push_with(
            held.get(),
            request.start,
            request.goal,
            &request.library_options(),
        )?;
        queue.ids.insert(got.get(), got);
        put(id, got.get(), "id")
    })
}

/// Serves requests, oldest first, expanding at most `max_expansions` nodes;
/// `frame` (may be null) receives what was done. After an edit of the
/// hierarchy the request in progress starts again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_update(
    queue: *const TierpathQueue,
    hierarchy: *const TierpathHierarchy,
    max_expansions: u64,
    frame: *mut TierpathQueueFrame,
) -> TierpathStatus {
    guard(|| unsafe {
        let mut queue = lock(&get(queue)?.queue, "queue")?;
        let held = get(hierarchy)?.read();
        let done = queue.queue.update(held.get(), max_expansions)?;
        put_opt(
            frame,
            TierpathQueueFrame {
                expanded: done.expanded,
                completed: done.completed,
            },
        );
        Ok(())
    })
}

/// Writes where request `id` stands to `state`, and (when `ahead` is not
/// null) how many requests are served before it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_status(
    queue: *const TierpathQueue,
    id: u64,
    state: *mut TierpathRequestState,
    ahead: *mut u64,
) -> TierpathStatus {
    guard(|| unsafe {
        if state.is_null() {
            return fail(TierpathStatus::NullArgument, "the state pointer is null");
        }
        let queue = lock(&get(queue)?.queue, "queue")?;
        let (now, before) = match queue.status(id) {
            RequestStatus::Unknown => (TierpathRequestState::Unknown, 0),
            RequestStatus::Queued { ahead } => (TierpathRequestState::Queued, ahead as u64),
            RequestStatus::InProgress => (TierpathRequestState::InProgress, 0),
            RequestStatus::Done => (TierpathRequestState::Done, 0),
        };
        put_opt(ahead, before);
        put(state, now, "state")
    })
}

/// Takes the answer to request `id` into a new path handle (`out`,
/// required), once. `TIERPATH_STATUS_NOT_READY` while it is waiting or in progress;
/// `TIERPATH_STATUS_INVALID_ARGUMENT` for an id the queue does not know (taken,
/// cancelled, never issued).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_take(
    queue: *const TierpathQueue,
    hierarchy: *const TierpathHierarchy,
    id: u64,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let mut queue = lock(&get(queue)?.queue, "queue")?;
        let held = get(hierarchy)?.read();
        match queue.status(id) {
            RequestStatus::Done => {}
            RequestStatus::Unknown => {
                return fail(
                    TierpathStatus::InvalidArgument,
                    format!(
                        "request {id} is not known to the queue (taken, cancelled or never issued)"
                    ),
                );
            }
            _ => {
                return fail(
                    TierpathStatus::NotReady,
                    format!("request {id} is not answered yet"),
                );
            }
        }
        let rid = queue.ids.remove(&id).expect("a done request has an id");
        let outcome = queue.queue.take(rid).expect("a done request has an answer");
        publish(TierpathPath::new(held.get(), &outcome), out)
    })
}

/// Takes the oldest answer not yet taken: its id to `id` and its path to a
/// new handle (`out`). `TIERPATH_STATUS_NOT_READY` when no answer is waiting.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_pop_finished(
    queue: *const TierpathQueue,
    hierarchy: *const TierpathHierarchy,
    id: *mut u64,
    out: *mut *mut TierpathPath,
) -> TierpathStatus {
    guard(|| unsafe {
        clear_out(out);
        if out.is_null() || id.is_null() {
            return fail(
                TierpathStatus::NullArgument,
                "the id or output path pointer is null",
            );
        }
        let mut queue = lock(&get(queue)?.queue, "queue")?;
        let held = get(hierarchy)?.read();
        match queue.queue.pop_finished() {
            Some((rid, outcome)) => {
                queue.ids.remove(&rid.get());
                id.write(rid.get());
                publish(TierpathPath::new(held.get(), &outcome), out)
            }
            None => fail(TierpathStatus::NotReady, "no answered request is waiting"),
        }
    })
}

/// Cancels request `id` (waiting, in progress or answered and not taken);
/// writes 1 to `known` (may be null) when the queue knew it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_cancel(
    queue: *const TierpathQueue,
    id: u64,
    known: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let mut queue = lock(&get(queue)?.queue, "queue")?;
        let known_now = match queue.ids.remove(&id) {
            Some(rid) => queue.queue.cancel(rid),
            None => false,
        };
        put_opt(known, u8::from(known_now));
        Ok(())
    })
}

/// Writes the number of requests not yet answered (waiting or in progress).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_pending(
    queue: *const TierpathQueue,
    pending: *mut u64,
) -> TierpathStatus {
    guard(|| unsafe {
        let queue = lock(&get(queue)?.queue, "queue")?;
        put(pending, queue.queue.pending() as u64, "pending")
    })
}

/// Releases a queue (null: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_queue_free(queue: *mut TierpathQueue) -> TierpathStatus {
    unsafe { release(queue) }
}
