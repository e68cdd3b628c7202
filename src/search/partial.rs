//! Partial paths: when the goal cannot be reached (or the search's budget runs
//! out first), the path to the expanded cell closest to the goal.
//!
//! "Closest" is measured by the open-ground distance to the goal under the
//! movement rules, [`Movement::distance`] (octile when 8-connected, Manhattan
//! when 4-connected), whatever heuristic the search itself uses; ties go to
//! the cell with the lower cost from the start, then to the cell expanded
//! first. Only expanded (closed) cells count: the cells whose cost the search
//! has settled.

use super::{Path, SearchOutcome};
use crate::engine::{SearchCache, Status};
use crate::grid::{Cost, FastDiv, Grid, Movement, Node};

/// Tracks the expanded cell closest to one goal; lives in the
/// [`SearchCache`] while a search that wants a partial path runs.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Closest {
    goal_x: u32,
    goal_y: u32,
    padded_width: FastDiv,
    movement: Movement,
    /// `(distance to the goal, cost from the start, node)` of the best so far.
    best: Option<(u64, u64, u32)>,
}

impl Closest {
    /// A tracker for searches towards `goal` on `grid` under `movement`.
    pub(crate) fn new(grid: &Grid, movement: &Movement, goal: Node) -> Closest {
        let pw = grid.padded_width();
        Closest {
            goal_x: goal.0 % pw,
            goal_y: goal.0 / pw,
            padded_width: FastDiv::new(pw),
            movement: *movement,
            best: None,
        }
    }

    /// Considers expanded node `n` with cost `g`.
    #[inline]
    pub(crate) fn offer(&mut self, n: Node, g: u64) {
        let (y, x) = self.padded_width.div_rem(n.0);
        let d = self
            .movement
            .distance(x.abs_diff(self.goal_x), y.abs_diff(self.goal_y))
            .0;
        if self.best.is_none_or(|(bd, bg, _)| (d, g) < (bd, bg)) {
            self.best = Some((d, g, n.0));
        }
    }

    /// The closest node so far, if any was expanded.
    pub(crate) fn node(&self) -> Option<Node> {
        self.best.map(|(_, _, n)| Node(n))
    }
}

/// The outcome of a search that ended with `status`: the path to the goal when
/// found; otherwise, when `partial`, the path to the closest expanded cell
/// (tracked since the search began), flagged as partial.
pub(crate) fn outcome(
    cache: &SearchCache,
    grid: &Grid,
    movement: &Movement,
    status: Status,
    partial: bool,
) -> SearchOutcome {
    let out_of_budget = status == Status::Paused;
    let (path, is_partial) = match status {
        Status::Found(n) => (Some(super::path_to(cache, grid, n)), false),
        Status::Exhausted | Status::Paused => match cache.closest.and_then(|c| c.node()) {
            Some(n) if partial => (Some(walked_path(cache, grid, movement, n)), true),
            _ => (None, false),
        },
    };
    SearchOutcome {
        path,
        stats: cache.stats,
        partial: is_partial,
        out_of_budget,
    }
}

/// The path to `end` along the cache's parent pointers, priced move by move
/// (a search stopped early may hold a G that a re-opened ancestor has since
/// undercut; the moves' sum is the path's true cost).
fn walked_path(cache: &SearchCache, grid: &Grid, movement: &Movement, end: Node) -> Path {
    let mut nodes = Vec::new();
    cache.trace_back(end, &mut nodes);
    let weights = grid.weight_slice();
    let pw = grid.padded_width();
    let cost = nodes
        .windows(2)
        .map(|w| {
            let diagonal = w[0].0 % pw != w[1].0 % pw && w[0].0 / pw != w[1].0 / pw;
            let base = if diagonal {
                movement.diagonal
            } else {
                movement.straight
            };
            let weight = weights.map_or(crate::Weight::ONE.0, |ws| ws[w[1].index()]);
            base as u64 * weight as u64
        })
        .sum();
    Path {
        cells: nodes.iter().map(|n| grid.point(*n)).collect(),
        cost: Cost(cost),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AStar, Point};

    #[test]
    fn closest_prefers_distance_then_cost() {
        let grid = Grid::new(10, 10).unwrap();
        let m = Movement::default();
        let mut c = Closest::new(&grid, &m, grid.node(Point::new(9, 9)));
        c.offer(grid.node(Point::new(0, 0)), 0);
        c.offer(grid.node(Point::new(5, 5)), 90);
        c.offer(grid.node(Point::new(9, 5)), 80);
        assert_eq!(c.node(), Some(grid.node(Point::new(9, 5))));
        // (5, 9) is as far from the goal as (9, 5): the cheaper one wins, and
        // the first one on equal cost.
        c.offer(grid.node(Point::new(5, 9)), 80);
        assert_eq!(c.node(), Some(grid.node(Point::new(9, 5))));
        c.offer(grid.node(Point::new(5, 9)), 70);
        assert_eq!(c.node(), Some(grid.node(Point::new(5, 9))));
    }

    #[test]
    fn walled_off_goal_gives_the_nearest_cell_beside_the_wall() {
        let grid = Grid::from_ascii(
            "
            ....@..
            ....@..
            ....@..",
        )
        .unwrap();
        let mut cache = SearchCache::new();
        let out = AStar::new(&grid)
            .partial(true)
            .find_path(&mut cache, Point::new(0, 2), Point::new(6, 1))
            .unwrap();
        assert!(out.partial && !out.out_of_budget);
        let path = out.path.unwrap();
        assert_eq!(path.goal(), Some(Point::new(3, 1)));
        path.validate(&grid, &Movement::default()).unwrap();
        let plain = AStar::new(&grid)
            .find_path(&mut cache, Point::new(0, 2), Point::new(6, 1))
            .unwrap();
        assert!(plain.path.is_none() && !plain.partial && !plain.out_of_budget);
    }
}
