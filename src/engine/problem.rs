//! What one run of the search loop is asked to do: where the unit moves
//! ([`Space`]), how a move is priced ([`StepCost`]), where the search may go
//! ([`Region`]), its estimate and when it stops ([`Goal`]); and the entry
//! points that pick the pricing for a space.

use super::{SearchCache, Space};
use crate::grid::{FastDiv, Node, Weight};
use crate::search::{Estimate, Estimator, TieBreak};

/// What a run of the search loop ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    /// A goal (or target) was expanded.
    Found(Node),
    /// The open list ran dry: no goal is reachable.
    Exhausted,
    /// The expansion budget ran out; call `run` again to continue.
    Paused,
}

/// When the search stops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Goal {
    /// When this node is expanded.
    Node(Node),
    /// When any node marked with [`SearchCache::mark_target`] is expanded.
    Targets,
    /// When every marked target has been expanded (or the open list runs dry).
    AllTargets,
    /// Never: the search settles everything reachable.
    Exhaust,
}

/// Prices a move from `from` to `to`: `base` is the movement's straight or
/// diagonal cost.
pub(crate) trait StepCost {
    fn cost(&self, base: u32, from: Node, to: Node) -> u64;
}

/// Every cell weighs `Weight::ONE`.
pub(crate) struct Uniform;

impl StepCost for Uniform {
    #[inline(always)]
    fn cost(&self, base: u32, _from: Node, _to: Node) -> u64 {
        base as u64 * Weight::ONE.0 as u64
    }
}

/// Per-cell weights from a padded array: a move costs its base times the
/// weight of the cell entered.
pub(crate) struct Weighted<'a>(pub &'a [u16]);

impl StepCost for Weighted<'_> {
    #[inline(always)]
    fn cost(&self, base: u32, _from: Node, to: Node) -> u64 {
        base as u64 * self.0[to.index()] as u64
    }
}

/// [`Weighted`] for a search run backwards from a goal: the engine's move
/// `from -> to` stands for the real move `to -> from`, which enters `from`.
pub(crate) struct WeightedReverse<'a>(pub &'a [u16]);

impl StepCost for WeightedReverse<'_> {
    #[inline(always)]
    fn cost(&self, base: u32, from: Node, _to: Node) -> u64 {
        base as u64 * self.0[from.index()] as u64
    }
}

/// Which nodes a search may enter.
pub(crate) trait Region {
    fn allows(&self, n: Node) -> bool;

    /// [`allows`](Self::allows) for a node whose padded coordinates
    /// `(x, y)` the caller knows (no division).
    #[inline(always)]
    fn allows_at(&self, n: Node, _x: u32, _y: u32) -> bool {
        self.allows(n)
    }
}

/// The whole map.
pub(crate) struct Everywhere;

impl Region for Everywhere {
    #[inline(always)]
    fn allows(&self, _n: Node) -> bool {
        true
    }
}

/// An axis-aligned rectangle of padded coordinates, bounds inclusive.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rect {
    pub padded_width: FastDiv,
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl Region for Rect {
    #[inline(always)]
    fn allows(&self, n: Node) -> bool {
        let (y, x) = self.padded_width.div_rem(n.0);
        self.allows_at(n, x, y)
    }

    #[inline(always)]
    fn allows_at(&self, _n: Node, x: u32, y: u32) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }
}

/// Everything a run of the loop needs besides the scratch. The estimate is a
/// type parameter like the pricing and the region: the built-in
/// [`Estimator`] (the default) compiles to its own loop, and a caller's
/// heuristic ([`AStar::find_path_with_heuristic`](crate::AStar::find_path_with_heuristic))
/// to another.
pub(crate) struct Problem<S: Space, C: StepCost, R: Region, E: Estimate = Estimator> {
    /// Where the unit may stand and how it moves.
    pub space: S,
    pub step: C,
    pub region: R,
    pub estimator: E,
    pub goal: Goal,
    pub tie_break: TieBreak,
    /// Move a closed node back to the open list when a cheaper route to it
    /// appears (needed for optimality with inconsistent heuristics).
    pub reopen: bool,
}

/// Which way a search's moves are priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pricing {
    /// Moves as searched: a move costs its base times the entered cell's weight.
    Forward,
    /// A search run backwards from a goal: each searched move stands for the
    /// real move the other way, which enters the cell searched from.
    Reverse,
}

/// Runs the engine on `space` in `region` with its step pricing (uniform or
/// weighted), moves priced as `pricing` says.
#[allow(clippy::too_many_arguments)]
pub(crate) fn run_space<S: Space, R: Region, E: Estimate>(
    cache: &mut SearchCache,
    space: S,
    region: R,
    estimator: E,
    goal: Goal,
    tie_break: TieBreak,
    reopen: bool,
    budget: u64,
    pricing: Pricing,
) -> Status {
    // One problem, three ways of pricing a move: each compiles to its own loop.
    macro_rules! run {
        ($step:expr) => {
            cache.run(
                &Problem {
                    space,
                    step: $step,
                    region,
                    estimator,
                    goal,
                    tie_break,
                    reopen,
                },
                budget,
            )
        };
    }
    match (space.weights(), pricing) {
        (None, _) => run!(Uniform),
        (Some(w), Pricing::Forward) => run!(Weighted(w)),
        (Some(w), Pricing::Reverse) => run!(WeightedReverse(w)),
    }
}
