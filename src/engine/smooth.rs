//! Smoothing: a refined path's detours replaced by straight routes.
//!
//! The refined path (stored in-cluster paths and exact searches joined at
//! the transitions) is optimal within each cluster but bends where it
//! crosses a border; smoothing walks it anchor by anchor and replaces the
//! stretch to the farthest cell within [`WINDOW`] that a straight route
//! ([`route`](super::route)) reaches more cheaply. Its decisions depend only
//! on the window, so a path smoothed piece by piece as it is refined is the
//! path smoothed whole.

use super::Space;
use super::route::{Line, Runs, SHAPES, Shape, Steps, legal_moves};
use crate::grid::{Point, Weight};
use crate::preprocess::EntrancePolicy;

/// How far ahead (in cells of the unsmoothed path) smoothing looks for a
/// shortcut from each anchor. Decisions depend only on this window, which is
/// what lets lazy refinement reproduce the eager path exactly.
///
/// A wider window buys quality with time, since a scan that keeps finding
/// shortcuts walks a longer route for each. Measured 2026-11-27 on the dao
/// set's 10 highest buckets (7,800 queries, 50 per map, contracted
/// hierarchies; mean suboptimality, and `find_path`'s instructions under
/// callgrind before the run-first walks): 64 gives 0.229% at 2,148 M, 80
/// 0.201%, 96 0.190% at 2,556 M (+19%), 128 0.183% at 2,780 M (+30%), 256
/// 0.171% at 3,171 M (+48%; sc1 0.137% -> 0.099%). 64 was kept then: speed
/// against exact search came first (issue #13). Once the run-first routes
/// were read from the anchor's [`Runs`] (the same paths in 10.8% fewer
/// instructions at 64), the wider window came within the old budget: dao
/// 1,658 M at 64, 1,738 M at 80 (0.201%), **1,800 M at 96** (0.190%), against
/// 1,859 M at 64 before the memo; mean suboptimality at 96 (64): dao 0.190%
/// (0.229%), sc1 0.118% (0.151%), mazes 0.198% (0.202%), rooms 0.033%
/// (0.029%), random 0.854% (0.853%). On the six long sc1 maps of issue #13,
/// `find_path` takes 406 M at 96 against 368 M at 64 (405 M before the
/// memo), the first move 175 M against 167 M. An earlier measurement,
/// before the window's last cell was tried first, found 128 no better than
/// 64 and 32 about 0.1 point worse on Dragon Age maps.
pub(crate) const WINDOW: usize = 96;

/// The window on a hierarchy whose long entrances have transitions at their
/// ends only ([`EntrancePolicy::ENDS`]): a path crossing such an entrance
/// bends towards an end, and a bend lies up to half a border further from
/// the straight line than with a transition every 8 cells. Measured
/// 2026-11-28 on StarCraft's six largest maps with that policy (the 10
/// highest buckets, contracted; `tierpath bench`): mean suboptimality
/// 0.226% at 96, 0.207% at 128, **0.177% at 160** (0.099% with the default
/// policy and 96), at 8.1x, 7.9x and 7.4x exact JPS's speed by median, the
/// first move 15.9, 16.9 and 17.9 us.
pub(crate) const WIDE_WINDOW: usize = 160;

/// The smoothing window for paths refined through transitions placed by
/// `policy`: [`WIDE_WINDOW`] when long entrances get no transitions between
/// their ends, [`WINDOW`] otherwise.
pub(crate) fn window_for(policy: &EntrancePolicy) -> usize {
    if policy.max_gap == 0 {
        WIDE_WINDOW
    } else {
        WINDOW
    }
}

/// Smoothing stops looking ahead after this many candidates in a row offer no
/// shortcut. Measured: 6 keeps the quality of 16 and halves smoothing time in
/// winding corridors (no shortcut exists there, yet each anchor probes).
pub(crate) const PATIENCE: usize = 6;

/// One step of smoothing a refined path `raw` (with `cum[j]` the cost of
/// `raw[..=j]`): from the anchor `raw[i]`, the farthest cell within
/// `window` cells (at most [`WIDE_WINDOW`]) that a straight route of
/// `space` reaches more cheaply than the path (or as cheaply, when the
/// path's stretch is already straight-line cost) replaces the stretch
/// between them. Appends the cells after the
/// anchor up to the new anchor to `out`, and returns the new anchor's index
/// and the cost appended. Never raises the cost; every route taken is legal
/// in `space`.
///
/// The window's last cell is tried first: on open ground it is reached, and
/// the step costs one route instead of a probe per cell of the window (on
/// the 600 long sc1 queries of issue #13, 35% fewer instructions in
/// smoothing, the same mean suboptimality). Otherwise the window is scanned
/// from the anchor, stopping after [`PATIENCE`] misses in a row (skipping
/// ahead where that cannot change the outcome; see the scan's comment).
pub(crate) fn smooth_step<S: Space>(
    space: &S,
    min_weight: Weight,
    (raw, cum): (&[Point], &[u64]),
    i: usize,
    window: usize,
    runs: &mut Runs,
    out: &mut Vec<Point>,
) -> (usize, u64) {
    debug_assert!(window <= WIDE_WINDOW);
    let movement = space.movement();
    let weighted = space.weights().is_some();
    let last = (raw.len() - 1).min(i + window);
    let a = raw[i];
    let mut best = (i + 1, None::<(Option<Shape>, u64)>);
    // Routes whose first move is illegal need no walk.
    let legal = legal_moves(space, a);
    let may_walk = |line: &Line, shape: Shape| legal & (1 << line.first_move(shape)) != 0;
    runs.begin(space.node(a));
    let steps = Steps::new(space);
    // The shortcut to `raw[j]`: `Some(None)` when the path is already as
    // short as a straight route there, `Some(Some((shape, cost)))` for a
    // cheaper straight route (the shape left to choose, `None`, when the map
    // is unweighted: every free shape costs the same), `None` when there is
    // none.
    let mut candidate = |j: usize| {
        let b = raw[j];
        let stretch = cum[j] - cum[i];
        let bound = movement.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)).0
            / Weight::ONE.0 as u64
            * min_weight.0 as u64;
        if stretch <= bound {
            return Some(None);
        }
        let line = Line::with_steps(space, &steps, a, b);
        if !weighted {
            // Any free shape will do: the run-first ones, read from the
            // anchor's runs, before the spread one, walked.
            [Shape::DiagonalFirst, Shape::StraightFirst, Shape::Spread]
                .into_iter()
                .any(|s| may_walk(&line, s) && line.is_free_in(space, s, runs))
                .then_some(Some((None, bound)))
        } else {
            SHAPES
                .into_iter()
                .filter(|s| may_walk(&line, *s))
                .filter_map(|s| line.cost(space, s).map(|c| (s, c)))
                .filter(|(_, c)| *c < stretch)
                .min_by_key(|(_, c)| *c)
                .map(|(s, c)| Some((Some(s), c)))
        }
    };
    // On open ground the window's last cell is reached at once: try it
    // first, and scan from the anchor only when it is not.
    if let Some(c) = (last >= i + 2).then(|| candidate(last)).flatten() {
        best = (last, c);
    } else if let Some(found) = scan(i + 2..last, candidate) {
        best = found;
    }
    let (j, shortcut) = best;
    match shortcut {
        None => {
            out.extend_from_slice(&raw[i + 1..=j]);
            (j, cum[j] - cum[i])
        }
        Some((shape, c)) => {
            // The first free shape in smoothing's order.
            let line = Line::with_steps(space, &steps, a, raw[j]);
            let shape = shape.unwrap_or_else(|| {
                SHAPES
                    .into_iter()
                    .find(|s| may_walk(&line, *s) && line.is_free_in(space, *s, runs))
                    .expect("a free shape was found to this cell")
            });
            line.walk(space, shape, |m, _| out.push(space.point(m)));
            (j, c)
        }
    }
}

/// Scans the candidates `range` in order, stopping after [`PATIENCE`]
/// misses (`candidate` giving `None`) in a row: the last one that gave
/// something, and what it gave.
///
/// With a skip that does not change the outcome: every PATIENCE-th
/// candidate first, from the range's start, while they give something. The
/// scan cannot stop between two that do (that needs PATIENCE misses in a
/// row, and fewer candidates lie between them), and the later one
/// overrides whatever lay between, so the scan goes on from the last of
/// them. Where the path runs straight or a shortcut holds for many cells,
/// this tries about a sixth of the candidates: the same paths in 12% fewer
/// instructions on the dao set's long queries (`find_path`, callgrind).
/// Skipping again after each later success, past the first miss, cost more
/// than it saved (there the candidates PATIENCE ahead mostly miss).
fn scan<C>(
    range: std::ops::Range<usize>,
    mut candidate: impl FnMut(usize) -> Option<C>,
) -> Option<(usize, C)> {
    let mut best = None;
    let (mut from, mut failed) = (range.start, None);
    let mut j = from;
    while j < range.end {
        match candidate(j) {
            Some(c) => {
                best = Some((j, c));
                from = j + 1;
                j += PATIENCE;
            }
            None => {
                failed = Some(j);
                break;
            }
        }
    }
    let mut misses = 0;
    for j in from..range.end {
        let found = if failed == Some(j) {
            None
        } else {
            candidate(j)
        };
        match found {
            Some(c) => {
                best = Some((j, c));
                misses = 0;
            }
            None => {
                misses += 1;
                if misses >= PATIENCE {
                    break;
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan without the skip.
    fn every_candidate(
        range: std::ops::Range<usize>,
        mut candidate: impl FnMut(usize) -> Option<usize>,
    ) -> Option<(usize, usize)> {
        let (mut best, mut misses) = (None, 0);
        for j in range {
            match candidate(j) {
                Some(c) => (best, misses) = (Some((j, c)), 0),
                None if misses + 1 >= PATIENCE => break,
                None => misses += 1,
            }
        }
        best
    }

    #[test]
    fn the_skip_keeps_the_scans_outcome_and_tries_fewer() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let (mut tried, mut tried_all) = (0, 0);
        for case in 0..20_000 {
            // Runs of hits and misses of random lengths, as along a path.
            let len = 2 + case % 97;
            let mut hits = Vec::with_capacity(len);
            while hits.len() < len {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let run = 1 + (x % [3, 9, 30][case % 3]) as usize;
                hits.extend(std::iter::repeat_n(x >> 40 & 1 == 1, run));
            }
            let start = case % 3;
            let answer = |j: usize| hits[j].then_some(j * 7);
            let mut seen = vec![false; len];
            let got = scan(start..len, |j| {
                assert!(!std::mem::replace(&mut seen[j], true), "tried {j} twice");
                tried += 1;
                answer(j)
            });
            let want = every_candidate(start..len, |j| {
                tried_all += 1;
                answer(j)
            });
            assert_eq!(got, want, "case {case}: {hits:?} from {start}");
        }
        assert!(tried < tried_all, "{tried} of {tried_all}");
        // A shortcut all the way: a sixth of the candidates, and the end.
        let mut tried = 0;
        let got = scan(2..98, |j| {
            tried += 1;
            Some(j)
        });
        assert_eq!((got, tried), (Some((97, 97)), 16 + 5));
    }
}
