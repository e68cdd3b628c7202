//! Tutorial 5: terrain and roads, after Charles Calkins' "Pathfinding with
//! A*".
//!
//! Terrain costs are weights in percent of plain ground, declared in the
//! map's legend: grass 1 (100), snow 3 (300), road 0.5 (50), walls
//! impassable. A move costs its length (1 straight, sqrt 2 diagonal) times
//! the weight of the square entered, as in Calkins' code. Diagonal moves are
//! allowed and, as there, may pass the corner of a wall
//! (`CornerRule::Always`). H is the straight-line distance
//! (`Heuristic::Euclidean`), scaled by the cheapest terrain so that it never
//! overestimates on roads.
//!
//! From the tent to the castle the path follows the road round the
//! snowfield; with the wall one square longer, the way round its top costs
//! more than the road saves and the path leaves the road for the grass south
//! of the wall.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, CornerRule, Heuristic, Movement, Path, Point, SearchCache, Weight};

use crate::common::{TutorialMap, cell_list, path_marks};

/// Calkins' movement: 8-connected, corners may be cut.
pub const MOVEMENT: Movement = Movement {
    corners: CornerRule::Always,
    ..Movement::OCTILE
};

/// The road's weight: half of grass.
pub const ROAD: Weight = Weight(50);

/// The path on one map.
pub struct Trip {
    /// The map.
    pub map: TutorialMap,
    /// The tent.
    pub tent: Point,
    /// The castle.
    pub castle: Point,
    /// The path found.
    pub path: Path,
    /// Squares A* closed.
    pub expanded: u64,
}

impl Trip {
    /// Squares of the path that are road.
    pub fn road_cells(&self) -> usize {
        self.path
            .cells
            .iter()
            .filter(|p| self.map.grid.weight(**p) == ROAD)
            .count()
    }
}

/// Both maps.
pub struct Calkins {
    /// The short wall: the road wins.
    pub road: Trip,
    /// The long wall: the grass wins.
    pub long_wall: Trip,
}

/// Finds the tent-to-castle path on one map.
pub fn trip(file: &str) -> Result<Trip, Box<dyn Error>> {
    let map = TutorialMap::load(file)?;
    let (tent, castle) = (map.marker('T')?, map.marker('C')?);
    let mut cache = SearchCache::new();
    let out = AStar::new(&map.grid)
        .movement(MOVEMENT)
        .heuristic(Heuristic::Euclidean)
        .find_path(&mut cache, tent, castle)?;
    Ok(Trip {
        path: out.path.ok_or("the castle is reachable from the tent")?,
        expanded: out.stats.expanded,
        map,
        tent,
        castle,
    })
}

/// Runs both maps.
pub fn run() -> Result<Calkins, Box<dyn Error>> {
    Ok(Calkins {
        road: trip("calkins-road.txt")?,
        long_wall: trip("calkins-long-wall.txt")?,
    })
}

impl Calkins {
    fn trip_report(trip: &Trip) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "\n{}: from the tent {} to the castle {}: cost {:.3} (grass steps), {} moves,\n{} of its squares on the road, {} squares closed",
            trip.map.file.display(),
            trip.tent,
            trip.castle,
            MOVEMENT.cost_in_steps(trip.path.cost),
            trip.path.moves(),
            trip.road_cells(),
            trip.expanded
        );
        let _ = writeln!(s, "  {}", cell_list(&trip.path.cells));
        s += &trip.map.draw(&path_marks(&trip.path.cells, 'o'));
        s
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Tutorial 5: terrain and roads (Calkins)");
        let _ = writeln!(
            s,
            "grass . 1, snow * 3, road = 0.5, wall # impassable; 8-connected, corners may be cut,\nH = straight-line distance. T the tent, C the castle, o the path."
        );
        s += &Self::trip_report(&self.road);
        s += &Self::trip_report(&self.long_wall);
        let _ = writeln!(
            s,
            "\nWith the short wall the path keeps to the road; one more square of wall and it\ntakes the grass south of the wall instead."
        );
        s
    }
}
