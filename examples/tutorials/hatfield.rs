//! Tutorial 4: re-opening closed nodes, after Tom Hatfield's Usenet post.
//!
//! Hatfield's A* moves a closed node back to the open list when a better
//! route to it appears (`AStar::reopen_closed(true)`). That matters when the
//! heuristic is admissible (never above the true remaining cost) but not
//! consistent (it may drop by more than a step's cost from one square to the
//! next). Here the heuristic is a table: the exact distance to the goal on the
//! surveyed north road, measured once with `Dijkstra::distance_field`, and 0
//! everywhere else. It is supplied with `AStar::find_path_with_heuristic`.
//!
//! Without re-opening, A* closes the junction east of the wall by the long
//! southern detour, whose squares all estimate 0, before it has walked the
//! road; when the road reaches the junction with a shorter route, the
//! junction is already closed and keeps the detour. With re-opening it is
//! opened again and the path is optimal.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, Cost, Dijkstra, Heuristic, Movement, Path, Point, SearchCache, SearchStats};

use crate::common::{TutorialMap, cell_list, path_marks};

/// One search with the survey's heuristic.
pub struct Search {
    /// Whether closed squares were re-opened.
    pub reopen: bool,
    /// The path found.
    pub path: Path,
    /// What the search did.
    pub stats: SearchStats,
}

/// Both variants on Hatfield's map.
pub struct Hatfield {
    /// The map.
    pub map: TutorialMap,
    /// The start.
    pub start: Point,
    /// The goal.
    pub goal: Point,
    /// The heuristic, row by row: the survey's distance, or 0.
    pub table: Vec<Cost>,
    /// The plain closed list.
    pub plain: Search,
    /// Hatfield's re-opening variant.
    pub reopening: Search,
    /// The optimal path (A* with the consistent Manhattan heuristic).
    pub optimal: Path,
}

/// Movement: 4-connected, every step costs one square.
pub const MOVEMENT: Movement = Movement::FOUR;

/// A cost in steps.
pub fn steps(cost: Cost) -> u64 {
    cost.0 / MOVEMENT.straight_step().0
}

/// Runs both variants.
pub fn run() -> Result<Hatfield, Box<dyn Error>> {
    let map = TutorialMap::load("hatfield.txt")?;
    let (start, goal) = (map.marker('A')?, map.marker('B')?);
    let grid = &map.grid;

    // The survey: exact distances to the goal, kept only on the road. (On a
    // map without terrain weights a distance from the goal is a distance to
    // it.)
    let mut cache = SearchCache::new();
    let field = Dijkstra::new(grid)
        .movement(MOVEMENT)
        .distance_field(&mut cache, goal)?;
    let width = grid.width() as usize;
    let mut table = vec![Cost::ZERO; width * grid.height() as usize];
    for p in map.cells('s') {
        table[p.y as usize * width + p.x as usize] =
            field.get(p).ok_or("every surveyed cell reaches the goal")?;
    }
    let heuristic = |p: Point| table[p.y as usize * width + p.x as usize];

    let search = |reopen: bool, cache: &mut SearchCache| -> Result<Search, Box<dyn Error>> {
        let out = AStar::new(grid)
            .movement(MOVEMENT)
            .reopen_closed(reopen)
            .find_path_with_heuristic(cache, start, goal, heuristic)?;
        Ok(Search {
            reopen,
            path: out.path.ok_or("the goal is reachable")?,
            stats: out.stats,
        })
    };
    let plain = search(false, &mut cache)?;
    let reopening = search(true, &mut cache)?;
    let optimal = AStar::new(grid)
        .movement(MOVEMENT)
        .heuristic(Heuristic::Manhattan)
        .find_path(&mut cache, start, goal)?
        .path
        .ok_or("the goal is reachable")?;
    Ok(Hatfield {
        map,
        start,
        goal,
        table,
        plain,
        reopening,
        optimal,
    })
}

impl Hatfield {
    fn search_report(&self, title: &str, search: &Search) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\n{title} (reopen_closed({})): {} steps, {} squares closed, {} re-opened\n  {}",
            search.reopen,
            steps(search.path.cost),
            search.stats.expanded,
            search.stats.reopened,
            cell_list(&search.path.cells)
        );
        s += &self.map.draw(&path_marks(&search.path.cells, 'o'));
        s
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 4: re-opening closed nodes (Hatfield), {}",
            self.map.file.display()
        );
        let _ = writeln!(
            s,
            "4-connected, one step per square. s: the surveyed road, A {} the start, B {} the goal.\n",
            self.start, self.goal
        );
        s += &self.map.draw(&[]);
        let _ = writeln!(
            s,
            "\nThe heuristic table (steps to B on the road, 0 where nobody looked):"
        );
        let w = self.map.grid.width();
        for y in 0..self.map.grid.height() {
            for x in 0..w {
                let p = Point::new(x, y);
                if self.map.grid.is_passable(p) {
                    let _ = write!(s, "{:>3}", steps(self.table[(y * w + x) as usize]));
                } else {
                    s += "  #";
                }
            }
            s += "\n";
        }
        s += &self.search_report("Plain closed list", &self.plain);
        s += &self.search_report("Re-opening closed squares", &self.reopening);
        let _ = writeln!(
            s,
            "\nThe optimal path is {} steps: only the re-opening variant finds it.",
            steps(self.optimal.cost)
        );
        s
    }
}
