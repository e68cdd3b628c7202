//! Property tests of the time-sliced queries and the request queue on random
//! maps up to 48x48 (noise, walls with sealed stretches, rooms), every
//! movement rule, with and without terrain weights, cluster sides 4 to 16.
//!
//! - Flat: a [`SlicedSearch`] advanced by arbitrary slices (zero included)
//!   finishes with exactly [`AStar::find_path`]'s outcome under the same
//!   settings (partial paths and a whole-search limit included), and no call
//!   expands more than its slice.
//! - Two-tier: a [`SlicedQuery`] advanced by arbitrary slices finishes with
//!   exactly [`Hierarchy::find_path`]'s outcome, and no call expands more than
//!   its slice.
//! - Queue: every request not cancelled is answered exactly once, with
//!   `find_path`'s outcome, in the order pushed; no frame expands more than
//!   its budget; cancelled requests are never answered; the queue always
//!   empties.

use crate::common;

use crate::common::Rng;
use crate::common::maps::{MapCase, map_cases};
use proptest::prelude::*;
use tierpath::{
    AStar, PathQueue, QueryCache, RequestId, RequestStatus, SearchCache, SliceStatus, SlicedQuery,
    SlicedSearch,
};

/// Cases per property (`PROPTEST_CASES` overrides).
const CASES: u32 = 1000;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: common::env_number("PROPTEST_CASES", CASES),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A slice size: mostly small, sometimes zero or large.
fn slice(rng: &mut Rng) -> u64 {
    match rng.below(10) {
        0 => 0,
        1 => 1 + rng.below(5000) as u64,
        9 => u64::MAX,
        _ => 1 + rng.below(40) as u64,
    }
}

fn check_flat(case: &MapCase, rng: &mut Rng) -> Result<(), TestCaseError> {
    let grid = case.grid();
    let mut astar = AStar::new(&grid)
        .movement(case.movement())
        .partial(rng.percent(50));
    if rng.percent(30) {
        astar = astar.max_expansions(1 + rng.below(300) as u64);
    }
    let mut one = SearchCache::new();
    let mut sliced = SlicedSearch::new(astar);
    for pair in case.points.windows(2) {
        let (s, t) = (pair[0], pair[1]);
        let want = astar.find_path(&mut one, s, t).unwrap();
        sliced.start(s, t).unwrap();
        let mut calls = 0;
        loop {
            let n = slice(rng);
            let before = sliced.cache().stats().expanded;
            let status = sliced.update(n);
            let used = sliced.cache().stats().expanded - before;
            prop_assert!(used <= n, "a call of {} expanded {}", n, used);
            if status == SliceStatus::Done {
                break;
            }
            prop_assert_eq!(status, SliceStatus::InProgress);
            calls += 1;
            prop_assert!(calls < 1_000_000, "never done");
        }
        let got = sliced.finish();
        prop_assert_eq!(got.as_ref(), Some(&want), "{} -> {}", s, t);
        prop_assert_eq!(sliced.status(), SliceStatus::Idle);
    }
    Ok(())
}

fn check_hierarchical(case: &MapCase, rng: &mut Rng) -> Result<(), TestCaseError> {
    let mut h = case.hierarchy();
    // Half the cases search a contracted cluster graph.
    if rng.below(2) == 0 {
        h.contract().expect("a cluster graph contracts");
    }
    // A third guide the near search by cell landmarks, at any distance.
    if rng.below(3) == 0 {
        h.add_cell_landmarks(2);
    }
    let mut cache = QueryCache::new();
    let mut q = SlicedQuery::new();
    for pair in case.points.windows(2) {
        let (s, t) = (pair[0], pair[1]);
        let want = h.find_path(&mut cache, s, t).unwrap();
        q.start(&h, s, t).unwrap();
        let mut calls = 0;
        loop {
            let n = slice(rng);
            let before = q.expanded();
            let status = q.update(&h, n).unwrap();
            prop_assert!(
                q.expanded() - before <= n,
                "a call of {} expanded {}",
                n,
                q.expanded() - before
            );
            if status == SliceStatus::Done {
                break;
            }
            calls += 1;
            prop_assert!(calls < 1_000_000, "never done");
        }
        let got = q.finish();
        prop_assert_eq!(got.as_ref(), Some(&want), "{} -> {}", s, t);
    }
    Ok(())
}

fn check_queue(case: &MapCase, rng: &mut Rng) -> Result<(), TestCaseError> {
    let h = case.hierarchy();
    let mut cache = QueryCache::new();
    let mut queue = PathQueue::new();
    let pairs: Vec<_> = case
        .points
        .iter()
        .zip(case.points.iter().rev())
        .map(|(a, b)| (*a, *b))
        .collect();
    let ids: Vec<RequestId> = pairs
        .iter()
        .map(|(s, t)| queue.push(&h, *s, *t).unwrap())
        .collect();
    let mut cancelled = Vec::new();
    let mut order = Vec::new();
    let mut answers = std::collections::HashMap::new();
    let mut frames = 0;
    while queue.pending() > 0 {
        // Now and then cancel a request, waiting or in progress.
        if rng.percent(10) {
            let id = ids[rng.below(ids.len())];
            let was = queue.status(id);
            let known = queue.cancel(id);
            prop_assert_eq!(known, was != RequestStatus::Unknown);
            if known {
                // Waiting, in progress, or answered and not taken: dropped.
                cancelled.push(id);
            }
        }
        let budget = 1 + rng.below(60) as u64;
        let frame = queue.update(&h, budget).unwrap();
        prop_assert!(frame.expanded <= budget);
        if rng.percent(50) {
            while let Some((id, out)) = queue.pop_finished() {
                order.push(id);
                prop_assert!(answers.insert(id, out).is_none(), "answered twice");
            }
        }
        frames += 1;
        prop_assert!(frames < 1_000_000, "the queue never empties");
    }
    while let Some((id, out)) = queue.pop_finished() {
        order.push(id);
        prop_assert!(answers.insert(id, out).is_none(), "answered twice");
    }
    let expected: Vec<RequestId> = ids
        .iter()
        .copied()
        .filter(|id| !cancelled.contains(id))
        .collect();
    prop_assert_eq!(&order, &expected, "answered out of order, or some lost");
    for (k, id) in ids.iter().enumerate() {
        if let Some(out) = answers.get(id) {
            let (s, t) = pairs[k];
            prop_assert_eq!(
                out,
                &h.find_path(&mut cache, s, t).unwrap(),
                "request {}",
                k
            );
        }
        prop_assert_eq!(queue.status(*id), RequestStatus::Unknown);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sliced_flat_search_equals_one_shot(case in map_cases(4, 48, 6), seed in any::<u64>()) {
        check_flat(&case, &mut Rng::new(seed))?;
    }

    #[test]
    fn sliced_two_tier_query_equals_one_shot(case in map_cases(4, 48, 6), seed in any::<u64>()) {
        check_hierarchical(&case, &mut Rng::new(seed))?;
    }

    #[test]
    fn queue_answers_every_request_as_one_shot(case in map_cases(4, 48, 8), seed in any::<u64>()) {
        check_queue(&case, &mut Rng::new(seed))?;
    }
}
