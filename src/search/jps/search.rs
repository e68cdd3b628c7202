//! One jump point search: A* over jump points, with the jumps of each rule.
//!
//! The search is generic over the movement rule `R` (see [`rules`]), so
//! each rule's loop is compiled on its own.

use super::guide::{Guide, UNREACHED};
use super::reached::{CLOSED, Lookup, NO_PARENT, Slot};
use super::rules::{
    self, ALWAYS, E, FOUR, FROM_START, IF_ONE_FREE, N, NE, NEVER, NW, Rule, S, SE, SUCCESSORS, SW,
    W,
};
use super::{JpsCache, JumpLines};
use crate::engine::heap::{Entry, tie_g};

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ran {
    /// The goal was expanded; its slot.
    Reached(u32),
    /// The open list ran dry: the goal is unreachable.
    Exhausted,
    /// The limit of expansions was reached first; the search can resume.
    Paused,
}

/// One query in progress: the engine, its scratch and the goal; with `G`,
/// guided by landmark distances.
pub(super) struct Search<'a, const R: Rule, const G: bool> {
    pub lines: &'a JumpLines,
    pub cache: &'a mut JpsCache,
    pub goal: u32,
    pub goal_x: u32,
    pub goal_y: u32,
    /// The cost of a straight move.
    pub straight: u64,
    /// The cost of a diagonal move; 4-connected, two straight moves (so the
    /// octile estimate is the Manhattan distance).
    pub diagonal: u64,
    /// With `G`: the landmark distances, and the goal's.
    pub guide: Option<&'a Guide>,
    pub goal_guide: [u32; super::guide::MAX_GUIDE_LANDMARKS],
    /// What a landmark distance's unit costs.
    pub unit: u64,
}

impl<const R: Rule, const G: bool> Search<'_, R, G> {
    /// The octile distance from padded cell `(x, y)` to the goal; with `G`,
    /// the landmarks' bound where it is larger.
    #[inline(always)]
    fn h(&self, x: u32, y: u32) -> u64 {
        let (dx, dy) = (
            x.abs_diff(self.goal_x) as u64,
            y.abs_diff(self.goal_y) as u64,
        );
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        let octile = self.diagonal * lo + self.straight * (hi - lo);
        match self.guide {
            Some(guide) if G => {
                let mut bound = 0;
                for (d, t) in guide.of(y * self.lines.pw + x).iter().zip(&self.goal_guide) {
                    if *d != UNREACHED && *t != UNREACHED {
                        bound = bound.max(d.abs_diff(*t));
                    }
                }
                octile.max(bound as u64 * self.unit)
            }
            _ => octile,
        }
    }

    /// Offers padded cell `(x, y)` with cost `g` from slot `parent`.
    #[inline(always)]
    fn reach(&mut self, x: u32, y: u32, g: u64, parent: u32) {
        let n = y * self.lines.pw + x;
        let f = g + self.h(x, y);
        let cache = &mut *self.cache;
        let slot = match cache.reached.find(n) {
            Lookup::Found(known) => {
                let slot = cache.reached.slot_mut(known);
                // Closed nodes are final: the estimate is consistent (octile, and
                // the landmarks' bound: see `guide`).
                if slot.node & CLOSED != 0 || slot.g <= g {
                    return;
                }
                slot.g = g;
                slot.parent = parent;
                known
            }
            Lookup::Vacant(at) => cache.reached.insert(at, Slot { g, node: n, parent }),
        };
        cache.open.push(Entry {
            f,
            tie: u32::MAX - tie_g(g),
            node: slot,
        });
        cache.stats.generated += 1;
    }

    /// Puts padded node `start` on the open list of a search just begun.
    pub(super) fn start(&mut self, start: u32) {
        let (sy, sx) = self.lines.padded_width.div_rem(start);
        self.reach(sx, sy, 0, NO_PARENT);
    }

    /// Runs (or resumes) A* over jump points until `limit` of them have been
    /// expanded since the search began.
    pub(super) fn resume(&mut self, limit: u64) -> Ran {
        loop {
            if self.cache.stats.expanded >= limit {
                return Ran::Paused;
            }
            let Some(e) = self.cache.open.pop() else {
                return Ran::Exhausted;
            };
            let slot = self.cache.reached.slot_mut(e.node);
            if slot.node & CLOSED != 0 {
                continue; // a stale entry: the node was expanded at a lower G
            }
            slot.node |= CLOSED;
            let (node, g, parent) = (slot.node & !CLOSED, slot.g, slot.parent);
            self.cache.stats.expanded += 1;
            if node == self.goal {
                return Ran::Reached(e.node);
            }
            let (y, x) = self.lines.padded_width.div_rem(node);
            let dir = if parent == NO_PARENT {
                FROM_START
            } else {
                let from = self.cache.reached.slot(parent).node & !CLOSED;
                let (py, px) = self.lines.padded_width.div_rem(from);
                rules::arrival::<R>(x as i64 - px as i64, y as i64 - py as i64)
            };
            let succ = SUCCESSORS[R as usize][dir][self.neighbours(x, y) as usize];
            self.expand(x, y, g, e.node, succ);
        }
    }

    /// The passable neighbours of padded cell `(x, y)` as direction bits.
    #[inline(always)]
    fn neighbours(&self, x: u32, y: u32) -> u8 {
        let rows = &self.lines.rows;
        // Bits 0, 1, 2: columns x - 1, x, x + 1.
        let above = rows.ahead(y - 1, x - 1);
        let own = rows.ahead(y, x - 1);
        let below = rows.ahead(y + 1, x - 1);
        let bit = |w: u64, k: u32, d: u8| if w >> k & 1 != 0 { d } else { 0 };
        bit(above, 1, N)
            | bit(own, 2, E)
            | bit(below, 1, S)
            | bit(own, 0, W)
            | bit(above, 2, NE)
            | bit(below, 2, SE)
            | bit(below, 0, SW)
            | bit(above, 0, NW)
    }

    /// Jumps from `(x, y)` (cost `g`) in every direction of `succ`, offering
    /// what the jumps find as children of the node in slot `node`.
    #[inline(always)]
    fn expand(&mut self, x: u32, y: u32, g: u64, node: u32, succ: u8) {
        if succ & N != 0 {
            self.straight::<true, false>(x, y, g, node);
        }
        if succ & S != 0 {
            self.straight::<true, true>(x, y, g, node);
        }
        if R == FOUR {
            if succ & E != 0 {
                self.horizontal::<true>(x, y, g, node);
            }
            if succ & W != 0 {
                self.horizontal::<false>(x, y, g, node);
            }
            return;
        }
        if succ & E != 0 {
            self.straight::<false, true>(y, x, g, node);
        }
        if succ & W != 0 {
            self.straight::<false, false>(y, x, g, node);
        }
        if succ & NE != 0 {
            self.diagonal::<true, false>(x, y, g, node);
        }
        if succ & SE != 0 {
            self.diagonal::<true, true>(x, y, g, node);
        }
        if succ & SW != 0 {
            self.diagonal::<false, true>(x, y, g, node);
        }
        if succ & NW != 0 {
            self.diagonal::<false, false>(x, y, g, node);
        }
    }

    /// Jumps from position `pos` of a line: row `line` (padded `y`), or
    /// column `line` when `VERTICAL`, towards higher positions when `UP`.
    /// The next cell that way is passable.
    #[inline(always)]
    fn straight<const VERTICAL: bool, const UP: bool>(
        &mut self,
        line: u32,
        pos: u32,
        g: u64,
        parent: u32,
    ) {
        let bits = if VERTICAL {
            &self.lines.cols
        } else {
            &self.lines.rows
        };
        let (stop, forced) = if UP {
            bits.jump_up::<R>(line, pos)
        } else {
            bits.jump_down::<R>(line, pos)
        };
        let (goal_line, goal_pos) = if VERTICAL {
            (self.goal_x, self.goal_y)
        } else {
            (self.goal_y, self.goal_x)
        };
        let passes_goal = line == goal_line
            && if UP {
                pos < goal_pos && goal_pos <= stop
            } else {
                stop <= goal_pos && goal_pos < pos
            };
        let end = match (passes_goal, forced) {
            (true, _) => goal_pos,
            (false, true) => stop,
            (false, false) => return,
        };
        let g = g + self.straight * pos.abs_diff(end) as u64;
        if VERTICAL {
            self.reach(line, end, g, parent);
        } else {
            self.reach(end, line, g, parent);
        }
    }

    /// Steps diagonally (east when `EAST`, south when `SOUTH`) from `(x, y)`,
    /// whose next diagonal move is legal, jumping straight along both
    /// components from every cell passed; stops at the goal, where the
    /// diagonal move is no longer legal, or (cutting corners) at a cell with
    /// a forced turn, which becomes a jump point.
    #[inline(always)]
    fn diagonal<const EAST: bool, const SOUTH: bool>(
        &mut self,
        mut x: u32,
        mut y: u32,
        mut g: u64,
        parent: u32,
    ) {
        let step = |v: u32, up: bool| if up { v + 1 } else { v - 1 };
        let lines = self.lines;
        let (rows, cols) = (&lines.rows, &lines.cols);
        loop {
            x = step(x, EAST);
            y = step(y, SOUTH);
            g += self.diagonal;
            if x == self.goal_x && y == self.goal_y {
                self.reach(x, y, g, parent);
                return;
            }
            let (next_x, next_y) = (step(x, EAST), step(y, SOUTH));
            let ahead_x = rows.get(y, next_x);
            let ahead_y = cols.get(x, next_y);
            if R != NEVER {
                // A blocked cell behind along one axis with the diagonal
                // past it (legal) free: the turn to that diagonal is forced.
                let (back_x, back_y) = (step(x, !EAST), step(y, !SOUTH));
                let legal = |other: bool| R == ALWAYS || other;
                let turn_x = !rows.get(y, back_x) && rows.get(next_y, back_x) && legal(ahead_y);
                let turn_y = !cols.get(x, back_y) && rows.get(back_y, next_x) && legal(ahead_x);
                if turn_x || turn_y {
                    self.reach(x, y, g, parent);
                    return;
                }
            }
            if ahead_x {
                self.straight::<false, EAST>(y, x, g, parent);
            }
            if ahead_y {
                self.straight::<true, SOUTH>(x, y, g, parent);
            }
            let goes_on = match R {
                NEVER => ahead_x && ahead_y,
                IF_ONE_FREE => ahead_x || ahead_y,
                _ => true,
            } && rows.get(next_y, next_x);
            if !goes_on {
                return;
            }
        }
    }

    /// 4-connected: steps horizontally (east when `EAST`) from `(x, y)`,
    /// whose next cell that way is passable, jumping vertically both ways
    /// from every cell passed (a canonical path is horizontal moves, then
    /// vertical ones); stops at the goal or a wall.
    #[inline(always)]
    fn horizontal<const EAST: bool>(&mut self, mut x: u32, y: u32, mut g: u64, parent: u32) {
        loop {
            x = if EAST { x + 1 } else { x - 1 };
            g += self.straight;
            if x == self.goal_x && y == self.goal_y {
                self.reach(x, y, g, parent);
                return;
            }
            let cols = &self.lines.cols;
            let (up, down) = (cols.get(x, y - 1), cols.get(x, y + 1));
            if up {
                self.straight::<true, false>(x, y, g, parent);
            }
            if down {
                self.straight::<true, true>(x, y, g, parent);
            }
            if !self.lines.rows.get(y, if EAST { x + 1 } else { x - 1 }) {
                return;
            }
        }
    }
}
