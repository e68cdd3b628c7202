//! Tutorial 6: warmth and dread, after Charles Calkins' "Pathfinding with
//! A*" (the erupting volcano and the tombstone).
//!
//! On an even snowfield the path from the tent to the castle is a straight
//! line. Calkins then changes the cost of entering a square near two
//! features: within 4.5 squares of an erupting volcano a move costs
//! `1 / ((5 - d) * 2)` as much (the warmth draws the path), within 2.5
//! squares of a tombstone `((3 - d) + 0.5) * 1.1` times as much (the dread
//! pushes it away), `d` being the square's distance to the feature.
//!
//! In tierpath each field is a **cost layer** ([`CostLayers`]): the same
//! factors written as percent-point deltas on top of the snow's weight (300),
//! added and removed while the program runs. Each change returns the edits
//! of the squares whose weight changed; here they are applied both to a grid
//! for exact flat A* and to a [`DynamicHierarchy`], whose two-tier planner
//! bends the same way.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{
    AStar, CostLayers, DynamicHierarchy, Grid, Heuristic, Hierarchy, LayerId, Path, Point,
    QueryCache, SearchCache,
};

use crate::common::{TutorialMap, path_marks};

/// One situation: which fields are on, and the path found.
pub struct Scene {
    /// What is on the map.
    pub name: &'static str,
    /// The exact (flat A*) path.
    pub path: Path,
    /// The two-tier planner's path cost on the repaired hierarchy.
    pub hierarchy_cost: tierpath::Cost,
    /// The map with the path drawn.
    pub picture: String,
}

/// The lesson: the scenes in order.
pub struct Warmth {
    /// The map.
    pub map: TutorialMap,
    /// The tent, castle, volcano and tombstone.
    pub tent: Point,
    /// The castle.
    pub castle: Point,
    /// The volcano.
    pub volcano: Point,
    /// The tombstone.
    pub tombstone: Point,
    /// No field; the volcano; the tombstone; both; the volcano gone again.
    pub scenes: Vec<Scene>,
}

/// Calkins' factor for a square at distance `d` from an erupting volcano.
pub fn warmth_factor(d: f64) -> f64 {
    if d <= 4.5 {
        1.0 / ((5.0 - d) * 2.0)
    } else {
        1.0
    }
}

/// Calkins' factor for a square at distance `d` from a tombstone.
pub fn dread_factor(d: f64) -> f64 {
    if d <= 2.5 {
        ((3.0 - d) + 0.5) * 1.1
    } else {
        1.0
    }
}

/// The layer values (percent points on top of `base`) of a field around
/// `center` with `factor`.
fn field(grid: &Grid, center: Point, base: f64, factor: fn(f64) -> f64) -> Vec<(Point, i32)> {
    grid.passable_points()
        .filter_map(|p| {
            let d = ((p.x as f64 - center.x as f64).powi(2)
                + (p.y as f64 - center.y as f64).powi(2))
            .sqrt();
            let delta = (base * factor(d) - base).round() as i32;
            (delta != 0).then_some((p, delta))
        })
        .collect()
}

/// Runs the scenes.
pub fn run() -> Result<Warmth, Box<dyn Error>> {
    let map = TutorialMap::load("calkins-volcano.txt")?;
    let (tent, castle) = (map.marker('T')?, map.marker('C')?);
    let (volcano, tombstone) = (map.marker('V')?, map.marker('t')?);
    let snow = map.grid.weight(tent).0 as f64;

    let mut layers = CostLayers::new(&map.grid);
    let warmth = layers.add_layer("warmth");
    let dread = layers.add_layer("dread");
    let mut grid = map.grid.clone();
    let mut world = DynamicHierarchy::new(Hierarchy::build(map.grid.clone())?);
    let (mut search, mut cache) = (SearchCache::new(), QueryCache::new());

    let mut scenes = Vec::new();
    let mut scene = |name: &'static str,
                     edits: Vec<tierpath::Edit>,
                     grid: &mut Grid,
                     world: &mut DynamicHierarchy|
     -> Result<(), Box<dyn Error>> {
        world.apply(&edits)?;
        for e in &edits {
            if let tierpath::Edit::Weight(p, w) = e {
                grid.set_weight(*p, *w)?;
            }
        }
        let out = AStar::new(grid).heuristic(Heuristic::Euclidean).find_path(
            &mut search,
            tent,
            castle,
        )?;
        let path = out.path.ok_or("the castle is reachable")?;
        let two_tier = world
            .find_path(&mut cache, tent, castle)?
            .path
            .ok_or("reachable")?;
        let mut marks = path_marks(&path.cells, 'o');
        marks.extend([(volcano, 'V'), (tombstone, 't')]);
        scenes.push(Scene {
            name,
            picture: map_picture(&map, &marks),
            hierarchy_cost: two_tier.cost,
            path,
        });
        Ok(())
    };
    let set = |layers: &mut CostLayers, layer: LayerId, values: Vec<(Point, i32)>| {
        layers.set(layer, &values)
    };

    scene("an even snowfield", Vec::new(), &mut grid, &mut world)?;
    let e = set(
        &mut layers,
        warmth,
        field(&map.grid, volcano, snow, warmth_factor),
    )?;
    scene("the volcano erupts", e, &mut grid, &mut world)?;
    let mut e = layers.clear(warmth)?;
    e.extend(set(
        &mut layers,
        dread,
        field(&map.grid, tombstone, snow, dread_factor),
    )?);
    scene("only the tombstone", e, &mut grid, &mut world)?;
    let e = set(
        &mut layers,
        warmth,
        field(&map.grid, volcano, snow, warmth_factor),
    )?;
    scene("the volcano and the tombstone", e, &mut grid, &mut world)?;
    let mut e = layers.clear(warmth)?;
    e.extend(layers.clear(dread)?);
    scene("both fields removed", e, &mut grid, &mut world)?;

    Ok(Warmth {
        map,
        tent,
        castle,
        volcano,
        tombstone,
        scenes,
    })
}

fn map_picture(map: &TutorialMap, marks: &[(Point, char)]) -> String {
    map.draw(marks)
}

impl Warmth {
    /// Mean distance from the path's squares to the volcano.
    pub fn mean_distance_to_volcano(&self, path: &Path) -> f64 {
        let v = self.volcano;
        path.cells
            .iter()
            .map(|p| ((p.x as f64 - v.x as f64).powi(2) + (p.y as f64 - v.y as f64).powi(2)).sqrt())
            .sum::<f64>()
            / path.cells.len() as f64
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 6: warmth and dread (Calkins), as cost layers\n{}: tent {}, castle {}, volcano {}, tombstone {}",
            self.map.file.display(),
            self.tent,
            self.castle,
            self.volcano,
            self.tombstone
        );
        let _ = writeln!(
            s,
            "snow * costs 3 everywhere; T the tent, C the castle, V a volcano, t a tombstone, o the path.\nwarmth: a move into a square d from the erupting volcano costs 1/((5-d)*2) as much (d <= 4.5);\ndread: near the tombstone ((3-d)+0.5)*1.1 times as much (d <= 2.5)."
        );
        for sc in &self.scenes {
            let _ = writeln!(
                s,
                "\n{}: cost {:.3} (grass steps), {} moves, mean distance to the volcano {:.2}; two-tier planner: cost {:.3}",
                sc.name,
                tierpath::Movement::default().cost_in_steps(sc.path.cost),
                sc.path.moves(),
                self.mean_distance_to_volcano(&sc.path),
                tierpath::Movement::default().cost_in_steps(sc.hierarchy_cost)
            );
            s += &sc.picture;
        }
        let _ = writeln!(
            s,
            "\nThe warmth bends the path toward the volcano; the tombstone pushes it away, so with both\nthe path runs closer to the volcano than with the volcano alone; without the fields it is\nstraight again."
        );
        s
    }
}
