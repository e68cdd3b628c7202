//! Islands that need no depth-first search: those where every cell is
//! *locally safe*.
//!
//! A cell is locally safe when its neighbours (the cells it has a move to)
//! are connected to one another by moves among the eight cells around it. A
//! path through a safe cell can then step around it, so removing it splits
//! nothing: it is no articulation cell. An island of safe cells only has no
//! articulation cell, so it is one block (or a lone cell), and the
//! depth-first pass would find exactly that: one block, topped by the
//! island's first cell (the search's root, with one child), holding every
//! cell. Open ground is safe (a cell beside a lone obstacle too: the ring of
//! its neighbours stays connected); a corridor one cell wide is not.
//!
//! Whether a cell is safe depends only on which of the eight cells around it
//! are open (every move between two of them, and every move from the cell,
//! has its corner cells among them), so it is a table of 256 entries per
//! movement rule, built by searching each 3 x 3 pattern with the grid's own
//! moves. The pass reads the rows above and below a run of open cells once,
//! and stops looking at an island at its first unsafe cell.

use crate::grid::{Grid, Movement, Node, Point};
use crate::preprocess::islands::label_runs;

/// Islands skipped only when their cells add up to at least this many: the
/// skip costs two more labelling passes over the map (about a millisecond a
/// million cells), the search it saves tens of nanoseconds a cell.
pub(super) const SKIP_MIN_CELLS: u64 = 1 << 16;

/// The offsets of the eight cells around a cell, in direction order: bit
/// `d` of a pattern is the cell in direction `d`.
const AROUND: [(i32, i32); 8] = crate::grid::DIRECTIONS;

/// Per pattern of open cells around an open cell: whether the cell is
/// locally safe under `movement` (a topology movement: moves both ways).
fn safe_table(movement: &Movement) -> [bool; 256] {
    let mut table = [false; 256];
    for (mask, safe) in table.iter_mut().enumerate() {
        let open = |p: Point| {
            p == Point::new(1, 1)
                || AROUND.iter().enumerate().any(|(d, (dx, dy))| {
                    mask >> d & 1 == 1 && p == Point::new((1 + dx) as u32, (1 + dy) as u32)
                })
        };
        let g = Grid::from_fn(3, 3, open).expect("a 3 x 3 grid");
        let center = g.node(Point::new(1, 1));
        let g = &g;
        let moves =
            |n: Node| (0..8u8).filter_map(move |d| g.neighbor_in(n, d, movement).map(|(w, _)| w));
        let neighbours: Vec<Node> = moves(center).collect();
        let Some(first) = neighbours.first() else {
            *safe = true;
            continue;
        };
        let mut seen = vec![*first];
        let mut stack = vec![*first];
        while let Some(n) = stack.pop() {
            for w in moves(n) {
                if w != center && !seen.contains(&w) {
                    seen.push(w);
                    stack.push(w);
                }
            }
        }
        *safe = neighbours.iter().all(|n| seen.contains(n));
    }
    table
}

/// The islands found safe, by label: their first cell (a padded node) and
/// their block once the pass has numbered it.
pub(super) struct SafeIslands {
    /// Per island: every cell safe, and at least [`SKIP_MIN_CELLS`] such
    /// cells on the map in all (else all false).
    pub(super) safe: Vec<bool>,
    /// Per island: its first cell in row-major order (padded node).
    pub(super) first: Vec<u32>,
    /// Per safe island: the block the pass gave it.
    pub(super) block: Vec<u32>,
}

impl SafeIslands {
    /// Finds the safe islands of `grid` (labelled as under `movement`, the
    /// rule the islands were found with; `topology` is the one the
    /// depth-first pass searches with). With fewer than `min_cells` cells on
    /// safe islands, none is marked.
    pub(super) fn find(
        grid: &Grid,
        movement: &Movement,
        topology: &Movement,
        min_cells: u64,
    ) -> SafeIslands {
        let table = safe_table(topology);
        let open = grid.passable_slice();
        let pw = grid.padded_width() as usize;
        let mut safe: Vec<bool> = Vec::new();
        let mut first: Vec<u32> = Vec::new();
        let sizes = label_runs(grid, movement, |a, b, label| {
            let label = label as usize;
            if label == safe.len() {
                // An island's first run: its first cell.
                safe.push(true);
                first.push(a as u32);
            }
            if safe[label] && !run_is_safe(open, pw, a, b, &table) {
                safe[label] = false;
            }
        });
        let cells: u64 = sizes
            .iter()
            .zip(&safe)
            .filter(|(_, s)| **s)
            .map(|(n, _)| *n as u64)
            .sum();
        if cells < min_cells.max(1) {
            safe.iter_mut().for_each(|s| *s = false);
        }
        let block = vec![0; safe.len()];
        SafeIslands { safe, first, block }
    }

    /// Whether any island is skipped.
    pub(super) fn any(&self) -> bool {
        self.safe.iter().any(|s| *s)
    }
}

/// Whether every cell of the run of open padded nodes `a..=b` is safe.
fn run_is_safe(open: &[bool], pw: usize, a: usize, b: usize, table: &[bool; 256]) -> bool {
    let (above, below) = (
        &open[a - pw - 1..=b - pw + 1],
        &open[a + pw - 1..=b + pw + 1],
    );
    // Three columns of the window, as bits: north-west/west/south-west of
    // the cell, its own column (north, south), north-east/east/south-east.
    let bit = |v: bool, d: u32| (v as u32) << d;
    let all_open = |cells: &[bool]| cells.iter().fold(true, |all, c| all & *c);
    let last = b - a;
    let mut i = 0;
    while i <= last {
        // Open ground: 32 cells with every cell around them open at once.
        if i > 0 && i + 32 < last && all_open(&above[i..i + 34]) && all_open(&below[i..i + 34]) {
            if !table[255] {
                return false;
            }
            i += 32;
            continue;
        }
        let west = i > 0;
        let east = i < last;
        let mask = bit(above[i + 1], 0)
            | bit(east, 1)
            | bit(below[i + 1], 2)
            | bit(west, 3)
            | bit(above[i + 2], 4)
            | bit(below[i + 2], 5)
            | bit(below[i], 6)
            | bit(above[i], 7);
        if !table[mask as usize] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_ground_is_safe_and_a_corridor_is_not() {
        for m in Movement::every_rule() {
            let m = Grid::topology_movement(&m);
            let t = safe_table(&m);
            assert!(t[255], "{m:?}");
            assert!(t[0], "a lone cell");
            // North and south open only: a corridor cell.
            assert!(!t[0b0101], "{m:?}");
            // Beside one obstacle (north-east closed): still safe.
            assert!(t[255 & !(1 << 4)], "{m:?}");
        }
    }
}
