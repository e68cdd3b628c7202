//! Where a unit may stand and how it moves there: the neighbourhood the
//! search loop and the straight routes walk.
//!
//! A [`Space`] is the grid as one unit sees it: a predicate "the unit may
//! stand on padded cell `i`" over the padded array, read on the fly (never
//! materialised), in the spirit of petgraph's `NodeFiltered` adaptor. A move
//! is legal when the size-1 move is legal on the grid whose open cells are
//! the space's, under the same [`Movement`]. Two spaces exist:
//!
//! * [`Plain`]: the grid itself (a unit of one cell); it compiles to the
//!   flat search's loop of old.
//! * [`Fits`]: the grid seen by a `k x k` unit through the clearance map: a
//!   cell is open when clearance `>= k`.

use crate::grid::{CornerRule, Grid, Movement, Node, Point, Weight};

/// A neighbourhood: which padded cells are open, and the movement rules.
pub(crate) trait Space: Copy {
    /// Columns of the padded array (the map's width plus two).
    fn padded_width(&self) -> u32;
    /// The movement rules.
    fn movement(&self) -> &Movement;
    /// Per-cell weights over the padded array (`None`: every cell weighs one).
    fn weights(&self) -> Option<&[u16]>;
    /// Whether the unit may stand on padded cell `i` (the padding never is).
    fn open(&self, i: u32) -> bool;

    /// The padded node of an on-map point.
    #[inline(always)]
    fn node(&self, p: Point) -> Node {
        Node((p.y + 1) * self.padded_width() + p.x + 1)
    }

    /// The point of a padded node.
    #[inline(always)]
    fn point(&self, n: Node) -> Point {
        let pw = self.padded_width();
        Point::new(n.0 % pw - 1, n.0 / pw - 1)
    }

    /// The weight of padded cell `i`.
    #[inline(always)]
    fn weight(&self, i: u32) -> u64 {
        self.weights().map_or(Weight::ONE.0, |w| w[i as usize]) as u64
    }

    /// Whether a diagonal move passes the corner rule, given whether the
    /// two straight cells beside it are open.
    #[inline(always)]
    fn corner_ok(&self, a: bool, b: bool) -> bool {
        corner_ok(self.movement().corners, a, b)
    }

    /// Calls `f(neighbour, base_cost, dx, dy)` for every legal move out of
    /// `n`, in the order N, E, S, W, NE, SE, SW, NW.
    #[inline(always)]
    fn for_each_neighbor(&self, n: Node, mut f: impl FnMut(Node, u32, i32, i32)) {
        let movement = self.movement();
        let pw = self.padded_width();
        let ortho = [n.0 - pw, n.0 + 1, n.0 + pw, n.0 - 1];
        let free = ortho.map(|i| self.open(i));
        const STRAIGHT: [(i32, i32); 4] = [(0, -1), (1, 0), (0, 1), (-1, 0)];
        for i in 0..4 {
            if free[i] {
                f(
                    Node(ortho[i]),
                    movement.straight,
                    STRAIGHT[i].0,
                    STRAIGHT[i].1,
                );
            }
        }
        if movement.diagonals() {
            // Each diagonal with the two straight neighbours it passes.
            let diag = [
                (n.0 - pw + 1, 0, 1, 1, -1),
                (n.0 + pw + 1, 2, 1, 1, 1),
                (n.0 + pw - 1, 2, 3, -1, 1),
                (n.0 - pw - 1, 0, 3, -1, -1),
            ];
            for (d, a, b, dx, dy) in diag {
                if corner_ok(movement.corners, free[a], free[b]) && self.open(d) {
                    f(Node(d), movement.diagonal, dx, dy);
                }
            }
        }
    }

    /// Whether the move `a -> b` (both on the map) is legal.
    #[cfg(test)]
    fn legal(&self, a: Point, b: Point) -> bool {
        let (na, nb) = (self.node(a), self.node(b));
        if !self.open(na.0) || !self.open(nb.0) {
            return false;
        }
        match (a.x.abs_diff(b.x), a.y.abs_diff(b.y)) {
            (1, 0) | (0, 1) => true,
            (1, 1) if self.movement().diagonals() => {
                let side_a = self.node(Point::new(b.x, a.y));
                let side_b = self.node(Point::new(a.x, b.y));
                self.corner_ok(self.open(side_a.0), self.open(side_b.0))
            }
            _ => false,
        }
    }
}

/// The corner rule applied to the two straight cells beside a diagonal.
#[inline(always)]
pub(crate) fn corner_ok(rule: CornerRule, a: bool, b: bool) -> bool {
    match rule {
        CornerRule::Never => a && b,
        CornerRule::IfOneFree => a || b,
        CornerRule::Always => true,
    }
}

/// The grid itself: a unit of one cell stands on every passable cell.
#[derive(Clone, Copy)]
pub(crate) struct Plain<'a> {
    pub grid: &'a Grid,
    pub movement: &'a Movement,
    /// The grid's padded passability, held here so a walk reads it without
    /// going through the grid each move.
    passable: &'a [bool],
}

impl<'a> Plain<'a> {
    /// The space of a one-cell unit on `grid` under `movement`.
    pub(crate) fn new(grid: &'a Grid, movement: &'a Movement) -> Self {
        Plain {
            grid,
            movement,
            passable: grid.passable_slice(),
        }
    }
}

impl Space for Plain<'_> {
    #[inline(always)]
    fn padded_width(&self) -> u32 {
        self.grid.padded_width()
    }
    #[inline(always)]
    fn movement(&self) -> &Movement {
        self.movement
    }
    #[inline(always)]
    fn weights(&self) -> Option<&[u16]> {
        self.grid.weight_slice()
    }
    #[inline(always)]
    fn open(&self, i: u32) -> bool {
        self.passable[i as usize]
    }
}

/// The grid seen by a `size x size` unit: a cell is open when the unit fits
/// with its top-left corner there (clearance `>= size`).
#[derive(Clone, Copy)]
pub(crate) struct Fits<'a> {
    /// Clearance over a padded array (0 on the padding).
    pub clearance: &'a [u8],
    pub weights: Option<&'a [u16]>,
    pub padded_width: u32,
    pub movement: &'a Movement,
    pub size: u8,
}

impl<'a> Fits<'a> {
    /// The space of a `size x size` unit on `grid`, whose clearance (in the
    /// grid's padded layout) is `clearance`.
    pub(crate) fn on(
        grid: &'a Grid,
        clearance: &'a [u8],
        movement: &'a Movement,
        size: u8,
    ) -> Self {
        Fits {
            clearance,
            weights: grid.weight_slice(),
            padded_width: grid.padded_width(),
            movement,
            size,
        }
    }
}

impl Space for Fits<'_> {
    #[inline(always)]
    fn padded_width(&self) -> u32 {
        self.padded_width
    }
    #[inline(always)]
    fn movement(&self) -> &Movement {
        self.movement
    }
    #[inline(always)]
    fn weights(&self) -> Option<&[u16]> {
        self.weights
    }
    #[inline(always)]
    fn open(&self, i: u32) -> bool {
        self.clearance[i as usize] >= self.size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn neighbours<S: Space>(s: &S, p: Point) -> Vec<(Point, u32)> {
        let mut out = Vec::new();
        s.for_each_neighbor(s.node(p), |m, base, _, _| out.push((s.point(m), base)));
        out
    }

    #[test]
    fn size_one_fits_is_the_plain_grid() {
        let grid = Grid::from_ascii(
            "
            ..@..
            .@...
            .....",
        )
        .unwrap();
        // Clearance 1 on passable cells, 0 elsewhere and on the padding.
        let clear: Vec<u8> = grid.passable_slice().iter().map(|o| *o as u8).collect();
        for m in Movement::every_rule() {
            let plain = Plain::new(&grid, &m);
            let fits = Fits {
                clearance: &clear,
                weights: None,
                padded_width: grid.padded_width(),
                movement: &m,
                size: 1,
            };
            for p in grid.passable_points() {
                assert_eq!(neighbours(&plain, p), neighbours(&fits, p), "{m:?} {p:?}");
                for (q, _) in neighbours(&plain, p) {
                    assert!(crate::legal_move(&grid, &m, p, q), "{m:?} {p:?} -> {q:?}");
                }
            }
        }
    }
}
