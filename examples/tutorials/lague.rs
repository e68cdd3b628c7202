//! Tutorial 3: ties on F broken toward the lowest H, after Sebastian Lague's
//! A* notes.
//!
//! 8-connected, straight 10 and diagonal 14 ([`MOVEMENT`]), H the same 10/14
//! distance to the goal ignoring walls (`Heuristic::Octile`), and
//! among open squares of equal F the one with the lowest H
//! (`TieBreak::LOWER_H`). On equal F = G + H the lowest H is the largest G,
//! so `LOWER_H` is another name for `TieBreak::LargerG`, tierpath's default.
//! Against ties toward the smallest G (the squares nearest the start), the
//! path costs the same and far fewer squares are closed.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, Expansion, Heuristic, Movement, Path, Point, SearchCache, TieBreak, Weight};

use crate::common::{TutorialMap, cell_list, path_marks};

/// One search on Lague's map.
pub struct Search {
    /// The tie-breaking rule.
    pub tie_break: TieBreak,
    /// Squares closed, in order.
    pub expansions: Vec<Expansion>,
    /// The path found.
    pub path: Path,
}

/// Lague's rule against ties toward the start.
pub struct Lague {
    /// The map.
    pub map: TutorialMap,
    /// The start.
    pub start: Point,
    /// The goal.
    pub goal: Point,
    /// The movement rules.
    pub movement: Movement,
    /// Ties toward the lowest H.
    pub lowest_h: Search,
    /// Ties toward the smallest G.
    pub smallest_g: Search,
}

/// Lague's 10 and 14, written with three more zeros. The open list keeps G
/// for tie-breaking to 256 cost units (see `TieBreak::LOWER_H`); with
/// `Movement::TEN_FOURTEEN` (one straight step 1,000 units) two G values 200
/// apart can fall into one step of that key and their tie to heap order. At
/// this scale every difference is 200,000 units or more, so the lowest H
/// always wins.
pub const MOVEMENT: Movement = Movement {
    straight: 10_000,
    diagonal: 14_000,
    ..Movement::TEN_FOURTEEN
};

/// A cost in the tutorial's numbers, 10 a straight step.
pub fn units(cost: u64) -> u64 {
    cost / (MOVEMENT.straight as u64 / 10 * Weight::ONE.0 as u64)
}

/// Runs both searches.
pub fn run() -> Result<Lague, Box<dyn Error>> {
    let map = TutorialMap::load("lague.txt")?;
    let (start, goal) = (map.marker('A')?, map.marker('B')?);
    let movement = MOVEMENT;
    let search = |tie_break: TieBreak| -> Result<Search, Box<dyn Error>> {
        let mut cache = SearchCache::new();
        cache.record_expansions(true);
        let out = AStar::new(&map.grid)
            .movement(movement)
            .heuristic(Heuristic::Octile)
            .tie_break(tie_break)
            .find_path(&mut cache, start, goal)?;
        Ok(Search {
            tie_break,
            expansions: cache.expansions().to_vec(),
            path: out.path.ok_or("Lague's map has a path from A to B")?,
        })
    };
    Ok(Lague {
        lowest_h: search(TieBreak::LOWER_H)?,
        smallest_g: search(TieBreak::SmallerG)?,
        map,
        start,
        goal,
        movement,
    })
}

impl Lague {
    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 3: ties toward the lowest H (Lague), {}",
            self.map.file.display()
        );
        let _ = writeln!(
            s,
            "8-connected, straight {}, diagonal {}, H = the same distance to B ignoring walls.\n",
            units(self.movement.straight_step().0),
            units(self.movement.diagonal as u64 * Weight::ONE.0 as u64)
        );
        s += &self.map.draw(&[]);
        let e = &self.lowest_h;
        let _ = writeln!(
            s,
            "\nTies toward the lowest H (TieBreak::LOWER_H = TieBreak::{:?}), squares in the order closed:",
            e.tie_break
        );
        let _ = writeln!(s, "  #  square     F    G    H");
        for (i, x) in e.expansions.iter().enumerate() {
            let (g, h) = (units(x.g), units(x.h));
            let _ = writeln!(
                s,
                "{:>3}  ({},{}) {:>6} {:>4} {:>4}",
                i + 1,
                x.cell.x,
                x.cell.y,
                g + h,
                g,
                h
            );
        }
        let _ = writeln!(
            s,
            "Path, cost {}: {}",
            units(e.path.cost.0),
            cell_list(&e.path.cells)
        );
        let mut marks: Vec<(Point, char)> = self
            .smallest_g
            .expansions
            .iter()
            .map(|x| (x.cell, ','))
            .collect();
        marks.extend(e.expansions.iter().map(|x| (x.cell, ':')));
        marks.extend(path_marks(&e.path.cells, 'o'));
        marks.push((self.start, 'A'));
        marks.push((self.goal, 'B'));
        let _ = writeln!(
            s,
            "\no path, : closed with ties toward the lowest H, , closed only with ties toward the smallest G"
        );
        s += &self.map.draw(&marks);
        let _ = writeln!(
            s,
            "\nsquares closed: {} with ties toward the lowest H, {} with ties toward the smallest G (TieBreak::{:?});\npath cost {} and {}: the same length, the rule only decides how much is searched.",
            e.expansions.len(),
            self.smallest_g.expansions.len(),
            self.smallest_g.tie_break,
            units(e.path.cost.0),
            units(self.smallest_g.path.cost.0),
        );
        s
    }
}
