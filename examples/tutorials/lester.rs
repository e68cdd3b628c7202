//! Tutorial 1: open and closed lists with 10/14 costs, after Patrick Lester's
//! "A* Pathfinding for Beginners".
//!
//! Lester's example, step by step: 8-connected moves costing 10 straight and
//! 14 diagonal (`Movement::TEN_FOURTEEN`), no cutting of wall corners, H the
//! Manhattan distance times 10 (`Heuristic::Manhattan`), and among squares of
//! equal F the one added to the open list last (`TieBreak::LastAdded`), which
//! is Lester's choice of the square below and to the right of the start.
//! `SearchCache::record_expansions` keeps every square A* takes off the open
//! list, with its G and H, in order.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, Expansion, Heuristic, Movement, Path, Point, SearchCache, TieBreak, Weight};

use crate::common::{TutorialMap, cell_list, path_marks};

/// A cost in the tutorial's numbers: tierpath multiplies every move by the
/// terrain weight of the cell entered, 100 on plain ground, so Lester's 10 is
/// 1,000 units.
pub fn lester_units(cost: u64) -> u64 {
    cost / Weight::ONE.0 as u64
}

/// What the search did on Lester's map.
pub struct Lester {
    /// The map.
    pub map: TutorialMap,
    /// A, the start.
    pub start: Point,
    /// B, the goal.
    pub goal: Point,
    /// Every square taken off the open list, in order, with its G and H.
    pub expansions: Vec<Expansion>,
    /// The path found.
    pub path: Path,
    /// The search's scratch, as the search left it: the open and closed
    /// lists.
    pub cache: SearchCache,
}

/// One square's scores, as in Lester's figures.
pub struct Scores {
    /// G + H.
    pub f: u64,
    /// Cost from the start.
    pub g: u64,
    /// Estimate to the goal.
    pub h: u64,
    /// Where the best route to it comes from.
    pub parent: Option<Point>,
    /// When it was closed (1 = first), `None` while on the open list.
    pub closed: Option<usize>,
}

/// An arrow from `p` toward its neighbour `q`.
fn arrow(p: Point, q: Point) -> char {
    match (q.x as i64 - p.x as i64, q.y as i64 - p.y as i64) {
        (0, -1) => '↑',
        (1, -1) => '↗',
        (1, 0) => '→',
        (1, 1) => '↘',
        (0, 1) => '↓',
        (-1, 1) => '↙',
        (-1, 0) => '←',
        _ => '↖',
    }
}

/// Runs Lester's search.
pub fn run() -> Result<Lester, Box<dyn Error>> {
    let map = TutorialMap::load("lester.txt")?;
    let (start, goal) = (map.marker('A')?, map.marker('B')?);
    let mut cache = SearchCache::new();
    cache.record_expansions(true);
    let out = AStar::new(&map.grid)
        .movement(Movement::TEN_FOURTEEN)
        .heuristic(Heuristic::Manhattan)
        .tie_break(TieBreak::LastAdded)
        .find_path(&mut cache, start, goal)?;
    let path = out.path.ok_or("Lester's map has a path from A to B")?;
    Ok(Lester {
        expansions: cache.expansions().to_vec(),
        cache,
        map,
        start,
        goal,
        path,
    })
}

impl Lester {
    /// What the search left on the open and closed lists for `p`: F, G, H
    /// (tutorial numbers), the parent, and the order `p` was closed in.
    pub fn scores(&self, p: Point) -> Option<Scores> {
        let state = self.cache.cell_state(&self.map.grid, p)?;
        let g = lester_units(state.g.0);
        // Lester's H, as the search computed it: 10 per square, Manhattan.
        let h = 10 * (p.x.abs_diff(self.goal.x) + p.y.abs_diff(self.goal.y)) as u64;
        Some(Scores {
            f: g + h,
            g,
            h,
            parent: state.parent,
            closed: self
                .expansions
                .iter()
                .position(|e| e.cell == p)
                .map(|i| i + 1),
        })
    }

    /// Lester's figure 6 as text: every square on the open or closed list,
    /// F top left, an arrow to its parent, the order it was closed in top
    /// right (none while still open), G bottom left and H bottom right.
    pub fn figure(&self) -> String {
        let (w, h) = (self.map.grid.width(), self.map.grid.height());
        let border = "+---------".repeat(w as usize) + "+\n";
        let mut out = border.clone();
        for y in 0..h {
            let (mut top, mut bottom) = (String::from("|"), String::from("|"));
            for x in 0..w {
                let p = Point::new(x, y);
                if !self.map.grid.is_passable(p) {
                    top += "#########|";
                    bottom += "#########|";
                } else if let Some(sc) = self.scores(p) {
                    let arrow = sc.parent.map_or(' ', |q| arrow(p, q));
                    let mark = match sc.closed {
                        _ if p == self.start => "A".to_string(),
                        _ if p == self.goal => "B".to_string(),
                        Some(i) => i.to_string(),
                        None => String::new(),
                    };
                    let _ = write!(top, "{:<3} {arrow} {:>3}|", sc.f, mark);
                    let _ = write!(bottom, "{:<4} {:>4}|", sc.g, sc.h);
                } else {
                    top += "         |";
                    bottom += "         |";
                }
            }
            out += &(top + "\n");
            out += &(bottom + "\n");
            out += &border;
        }
        out
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 1: open and closed lists (Lester), {}",
            self.map.file.display()
        );
        let _ = writeln!(
            s,
            "8-connected, straight 10, diagonal 14, no corner cutting, H = 10 x Manhattan,\nties on F to the square added last.\n"
        );
        s += &self.map.draw(&[]);
        let _ = writeln!(s, "\nSquares in the order A* closes them:");
        let _ = writeln!(s, "  #  square    F    G    H");
        for (i, e) in self.expansions.iter().enumerate() {
            let (g, h) = (lester_units(e.g), lester_units(e.h));
            let _ = writeln!(
                s,
                "{:>3}  ({},{}) {:>6} {:>4} {:>4}",
                i + 1,
                e.cell.x,
                e.cell.y,
                g + h,
                g,
                h
            );
        }
        let _ = writeln!(
            s,
            "\nThe open and closed lists at the end (F top left, arrow to the parent, order closed\ntop right, blank while still open; G bottom left, H bottom right):"
        );
        s += &self.figure();
        let _ = writeln!(
            s,
            "\nPath, cost {}: {}",
            lester_units(self.path.cost.0),
            cell_list(&self.path.cells)
        );
        s += &self.map.draw(&path_marks(&self.path.cells, 'o'));
        s
    }
}
