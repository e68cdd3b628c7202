//! Tutorial 2: the cat and the bone, after Johann Fradj's "Introduction to A*
//! Pathfinding".
//!
//! 4-connected (`Movement::FOUR`), every step costs one square, H the
//! Manhattan distance. Fradj's cat breaks ties on F toward the square added
//! to the open list most recently (`TieBreak::LastAdded`) and walks almost
//! straight to the bone; his "non-visionary" cat takes the first added
//! (`TieBreak::FirstAdded`), closes more squares, and finds another path of
//! the same length. tierpath looks at neighbours in the order north, east,
//! south, west.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, Expansion, Heuristic, Movement, Path, Point, SearchCache, TieBreak};

use crate::common::{TutorialMap, cell_list, path_marks};

/// One cat's search.
pub struct Walk {
    /// The tie-breaking rule.
    pub tie_break: TieBreak,
    /// Squares closed, in order.
    pub expansions: Vec<Expansion>,
    /// The path found.
    pub path: Path,
}

/// Both cats on Fradj's map.
pub struct Fradj {
    /// The map.
    pub map: TutorialMap,
    /// The cat.
    pub cat: Point,
    /// The bone.
    pub bone: Point,
    /// Ties toward the most recent square.
    pub visionary: Walk,
    /// Ties toward the oldest square.
    pub non_visionary: Walk,
}

/// A cost in squares (one step on plain ground is `Movement::FOUR`'s
/// `straight_step`).
pub fn squares(cost: u64) -> u64 {
    cost / Movement::FOUR.straight_step().0
}

/// Runs both cats.
pub fn run() -> Result<Fradj, Box<dyn Error>> {
    let map = TutorialMap::load("fradj.txt")?;
    let (cat, bone) = (map.marker('C')?, map.marker('B')?);
    let walk = |tie_break: TieBreak| -> Result<Walk, Box<dyn Error>> {
        let mut cache = SearchCache::new();
        cache.record_expansions(true);
        let out = AStar::new(&map.grid)
            .movement(Movement::FOUR)
            .heuristic(Heuristic::Manhattan)
            .tie_break(tie_break)
            .find_path(&mut cache, cat, bone)?;
        Ok(Walk {
            tie_break,
            expansions: cache.expansions().to_vec(),
            path: out.path.ok_or("the bone is reachable")?,
        })
    };
    Ok(Fradj {
        visionary: walk(TieBreak::LastAdded)?,
        non_visionary: walk(TieBreak::FirstAdded)?,
        map,
        cat,
        bone,
    })
}

impl Fradj {
    fn walk_report(&self, title: &str, walk: &Walk) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "\n{title} (TieBreak::{:?}):", walk.tie_break);
        let _ = writeln!(s, "  step  square    F  G  H");
        for (i, e) in walk.expansions.iter().enumerate() {
            let (g, h) = (squares(e.g), squares(e.h));
            let _ = writeln!(
                s,
                "  {:>4}  ({},{}) {:>4} {:>2} {:>2}",
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
            "{} squares closed; path of {} steps: {}",
            walk.expansions.len(),
            squares(walk.path.cost.0),
            cell_list(&walk.path.cells)
        );
        // Number the path's squares 1, 2, 3... as Fradj does.
        let marks: Vec<(Point, char)> = path_marks(&walk.path.cells, ' ')
            .iter()
            .enumerate()
            .map(|(i, (p, _))| (*p, char::from_digit((i as u32 + 1) % 36, 36).unwrap_or('o')))
            .collect();
        s += &self.map.draw(&marks);
        s
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 2: the cat and the bone (Fradj), {}",
            self.map.file.display()
        );
        let _ = writeln!(
            s,
            "4-connected, one square per step, H = Manhattan distance; the cat C {}, the bone B {}.\n",
            self.cat, self.bone
        );
        s += &self.map.draw(&[]);
        s += &self.walk_report(
            "The cat, ties toward the most recent square",
            &self.visionary,
        );
        s += &self.walk_report(
            "The non-visionary cat, ties toward the first square added",
            &self.non_visionary,
        );
        let _ = writeln!(
            s,
            "\nSame length ({} = {} steps), different paths: ties decide which shortest path.",
            squares(self.visionary.path.cost.0),
            squares(self.non_visionary.path.cost.0)
        );
        s
    }
}
