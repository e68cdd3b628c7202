//! The pruning rules of jump point search, one per movement rule: which
//! directions a canonical path may take next from a node, by its direction of
//! arrival and its passable neighbours, as tables made at compile time.
//!
//! Every rule is the pruning of Harabor and Grastien (2011): a neighbour `n`
//! of node `x` (reached from `p`) is left out when some other path from `p`
//! to `n`, one a canonical path takes instead, costs no more than `p, x, n`.
//! Which alternatives exist depends on the corner rule; the derivations are in
//! `docs/jps.md`. In short, arriving at `x`:
//!
//! | rule | arriving straight | arriving diagonally |
//! |---|---|---|
//! | 8-connected, [`Never`](crate::CornerRule::Never) | ahead; a side where the cell behind it is blocked, and then diagonally forward to it | the diagonal and its two components |
//! | 8-connected, [`IfOneFree`](crate::CornerRule::IfOneFree) | ahead; diagonally forward to a side whose cell is blocked, if ahead is free | the diagonal, its components, and the diagonal turned 90 degrees towards a blocked cell behind (if its other component is free) |
//! | 8-connected, [`Always`](crate::CornerRule::Always) | ahead; diagonally forward to a side whose cell is blocked | the same as `IfOneFree`, any components |
//! | 4-connected | ahead; a side where the cell behind it is blocked | (horizontal) ahead and both vertical directions |
//!
//! From the start every legal move is taken.

use crate::grid::{Connectivity, CornerRule, Movement};

/// A movement rule jump point search has a pruning rule for, as a `const`
/// parameter of the search (so each rule's search is compiled on its own and
/// the benchmark rule's loop is free of the others' tests).
pub(super) type Rule = u8;

/// 8-connected, no corner cutting (the benchmark rule).
pub(super) const NEVER: Rule = 0;
/// 8-connected, a diagonal move needs one of its two orthogonal cells free.
pub(super) const IF_ONE_FREE: Rule = 1;
/// 8-connected, a diagonal move needs only its destination free.
pub(super) const ALWAYS: Rule = 2;
/// 4-connected.
pub(super) const FOUR: Rule = 3;

/// The rule of `movement`.
pub(super) fn rule_of(movement: &Movement) -> Rule {
    match (movement.connectivity, movement.corners) {
        (Connectivity::Four, _) => FOUR,
        (Connectivity::Eight, CornerRule::Never) => NEVER,
        (Connectivity::Eight, CornerRule::IfOneFree) => IF_ONE_FREE,
        (Connectivity::Eight, CornerRule::Always) => ALWAYS,
    }
}

/// The rule searched for `movement`: [`rule_of`], except 8-connected
/// without cutting a corner past a blocked cell ([`CornerRule::Never`],
/// [`CornerRule::IfOneFree`]) when a diagonal move costs as much as two
/// straight ones. Every legal diagonal move then has a free straight cell
/// beside it, so a detour of two straight moves at the same cost, and the
/// 4-connected search finds the same least costs (its paths are legal
/// 8-connected paths). The 8-connected pruning needs a diagonal strictly
/// cheaper than its detour: at equal cost, a node reached first along a
/// straight line prunes turns that only a diagonal arrival would keep, and
/// the path the pruning counts on may itself be pruned (a property test
/// found paths up to 11% longer under `IfOneFree`).
/// [`CornerRule::Always`] is refused at that cost (`JpsError::DiagonalTies`):
/// a diagonal past two blocked cells has no detour.
pub(super) fn search_rule(movement: &Movement) -> Rule {
    if diagonal_ties(movement) && movement.corners != CornerRule::Always {
        FOUR
    } else {
        rule_of(movement)
    }
}

/// Whether `movement` is 8-connected with a diagonal move as dear as two
/// straight ones.
pub(super) fn diagonal_ties(movement: &Movement) -> bool {
    movement.connectivity == Connectivity::Eight
        && movement.diagonal as u64 >= 2 * movement.straight as u64
}

/// Whether straight jumps under `rule` stop where a line beside turns from
/// blocked (one cell behind) to passable, as without corner cutting; else
/// they stop where a line beside is blocked and passable one cell ahead.
pub(super) const fn stops_behind(rule: Rule) -> bool {
    rule == NEVER || rule == FOUR
}

/// Direction codes as in the grid: N, E, S, W, NE, SE, SW, NW; bit `d` of a
/// neighbourhood or successor set is direction `d`.
pub(super) const N: u8 = 1;
pub(super) const E: u8 = 1 << 1;
pub(super) const S: u8 = 1 << 2;
pub(super) const W: u8 = 1 << 3;
pub(super) const NE: u8 = 1 << 4;
pub(super) const SE: u8 = 1 << 5;
pub(super) const SW: u8 = 1 << 6;
pub(super) const NW: u8 = 1 << 7;

/// Index of the successor table for a start node (no direction of arrival).
pub(super) const FROM_START: usize = 8;

/// The successor tables, `SUCCESSORS[rule][dir][nb]`: the directions a
/// canonical path may take next, by direction of arrival (0..8, or
/// [`FROM_START`]) and passable neighbours.
pub(super) static SUCCESSORS: [[[u8; 256]; 9]; 4] = [
    successor_table(NEVER),
    successor_table(IF_ONE_FREE),
    successor_table(ALWAYS),
    successor_table(FOUR),
];

/// Whether every direction of `dirs` is passable in neighbourhood `nb`.
const fn free(nb: usize, dirs: u8) -> bool {
    nb as u8 & dirs == dirs
}

/// Whether the diagonal move `d`, whose straight components are `a` and `b`,
/// is legal under `rule` in neighbourhood `nb`.
const fn legal(rule: Rule, nb: usize, d: u8, a: u8, b: u8) -> bool {
    free(nb, d)
        && match rule {
            NEVER => free(nb, a | b),
            IF_ONE_FREE => free(nb, a) || free(nb, b),
            _ => true,
        }
}

const fn successor_table(rule: Rule) -> [[u8; 256]; 9] {
    // Straight directions: (ahead, left, back-left, ahead-left, right,
    // back-right, ahead-right).
    const STRAIGHT: [[u8; 7]; 4] = [
        [N, W, SW, NW, E, SE, NE],
        [E, N, NW, NE, S, SW, SE],
        [S, E, NE, SE, W, NW, SW],
        [W, S, SE, SW, N, NE, NW],
    ];
    // Diagonal directions: (diagonal, its components a and b, then the cell
    // opposite b with the diagonal of a and it, and the cell opposite a with
    // the diagonal of b and it).
    const DIAGONAL: [[u8; 7]; 4] = [
        [NE, N, E, W, NW, S, SE],
        [SE, S, E, W, SW, N, NE],
        [SW, S, W, E, SE, N, NW],
        [NW, N, W, E, NE, S, SW],
    ];
    let mut table = [[0u8; 256]; 9];
    let mut nb = 0;
    while nb < 256 {
        let mut i = 0;
        while i < 4 {
            let [f, l, bl, fl, r, br, fr] = STRAIGHT[i];
            let [d, a, b, ob, da, oa, db] = DIAGONAL[i];
            let mut out = nb as u8 & f;
            if rule == FOUR {
                // A side is a turn only where the cell behind it is blocked.
                if free(nb, l) && !free(nb, bl) {
                    out |= l;
                }
                if free(nb, r) && !free(nb, br) {
                    out |= r;
                }
                table[i][nb] = out;
                // Horizontal arrival (E, W): on, or either vertical way.
                if f == E || f == W {
                    table[i][nb] = nb as u8 & (f | N | S);
                }
                table[FROM_START][nb] |= nb as u8 & f;
                i += 1;
                continue;
            }
            if rule == NEVER {
                if free(nb, l) && !free(nb, bl) {
                    out |= l;
                    if free(nb, f | fl) {
                        out |= fl;
                    }
                }
                if free(nb, r) && !free(nb, br) {
                    out |= r;
                    if free(nb, f | fr) {
                        out |= fr;
                    }
                }
            } else {
                // Cutting corners, a side is reached from behind diagonally;
                // the diagonal forward past a blocked side is a turn.
                if !free(nb, l) && legal(rule, nb, fl, f, l) {
                    out |= fl;
                }
                if !free(nb, r) && legal(rule, nb, fr, f, r) {
                    out |= fr;
                }
            }
            table[i][nb] = out;
            let diagonal = if legal(rule, nb, d, a, b) { d } else { 0 };
            let mut out = diagonal | (nb as u8 & (a | b));
            if rule != NEVER {
                // Past a blocked cell behind, the diagonal turned 90 degrees.
                if !free(nb, ob) && legal(rule, nb, da, a, ob) {
                    out |= da;
                }
                if !free(nb, oa) && legal(rule, nb, db, b, oa) {
                    out |= db;
                }
            }
            table[4 + i][nb] = out;
            table[FROM_START][nb] |= (nb as u8 & f) | diagonal;
            i += 1;
        }
        nb += 1;
    }
    table
}

/// The direction of arrival at a node from its parent `(dx, dy)` away.
/// 8-connected, an edge is diagonal steps then straight ones, so the last
/// move is along the longer component, or diagonal when both are equal;
/// 4-connected, an edge is horizontal steps then vertical ones.
#[inline(always)]
pub(super) fn arrival<const R: Rule>(dx: i64, dy: i64) -> usize {
    let (ax, ay) = (dx.abs(), dy.abs());
    let vertical = if R == FOUR { ay > 0 } else { ay > ax };
    if vertical {
        if dy > 0 { 2 } else { 0 }
    } else if R == FOUR || ax > ay {
        if dx > 0 { 1 } else { 3 }
    } else {
        match (dx > 0, dy > 0) {
            (true, false) => 4,
            (true, true) => 5,
            (false, true) => 6,
            (false, false) => 7,
        }
    }
}
