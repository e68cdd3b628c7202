//! Run-time repair on real game maps (Moving AI, when `../shared/movingai` is
//! present): random edits of every kind (buildings, doors, single cells,
//! terrain, cost fields), and after each batch the repaired hierarchy answers
//! like one rebuilt from scratch: same statistics (transitions, edges,
//! islands, dead-end cells) and the same paths for a set of queries.

use crate::common;

use tierpath::{
    CostLayers, DynamicHierarchy, Edit, Grid, Hierarchy, HierarchyBuilder, Point, QueryCache,
    Weight, io,
};

fn check_same(world: &DynamicHierarchy, grid: &Grid, queries: &[(Point, Point)], what: &str) {
    let rebuilt = HierarchyBuilder::with_settings(*world.settings())
        .build(grid.clone())
        .unwrap();
    let (a, b) = (world.stats(), rebuilt.stats());
    assert_eq!(
        (
            a.nodes,
            a.intra_edges,
            a.inter_edges,
            a.islands,
            a.dead_end_cells,
            a.articulation_cells,
            a.entrances
        ),
        (
            b.nodes,
            b.intra_edges,
            b.inter_edges,
            b.islands,
            b.dead_end_cells,
            b.articulation_cells,
            b.entrances
        ),
        "{what}"
    );
    let mut cache = QueryCache::new();
    for (s, t) in queries {
        if !grid.is_passable(*s) || !grid.is_passable(*t) {
            continue;
        }
        let x = world.find_path(&mut cache, *s, *t).unwrap().path;
        let y = rebuilt.find_path(&mut cache, *s, *t).unwrap().path;
        assert_eq!(x.map(|p| p.cells), y.map(|p| p.cells), "{s} -> {t} {what}");
    }
}

#[test]
fn repairs_on_real_maps_answer_like_rebuilds() {
    if common::movingai_root().is_none() {
        eprintln!("skipped: ../shared/movingai not found");
        return;
    }
    let mut maps = Vec::new();
    for set in ["dao", "sc1", "mazes"] {
        let files: Vec<_> = common::map_files(set)
            .into_iter()
            .filter(|f| {
                io::read_map(f)
                    .is_ok_and(|g| g.width() <= 512 && g.height() <= 512 && g.width() >= 128)
            })
            .collect();
        maps.extend(common::sample(
            &files,
            1,
            common::seed_of(&format!("dynamic/{set}")),
        ));
    }
    for file in maps {
        let mut grid = io::read_map(&file).unwrap();
        let name = common::short_name(&file);
        let mut rng = common::Rng::new(common::seed_of(&name));
        let open: Vec<Point> = grid.passable_points().collect();
        let queries: Vec<(Point, Point)> = (0..15)
            .map(|_| (open[rng.below(open.len())], open[rng.below(open.len())]))
            .collect();
        let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
        let mut layers = CostLayers::new(&grid);
        let heat = layers.add_layer("heat");
        let (mut local, mut global) = (0, 0);
        for step in 0..12 {
            let p = open[rng.below(open.len())];
            let edits: Vec<Edit> = match step % 4 {
                // A building (10x10), or its removal.
                0 | 1 => {
                    let open_it = step % 4 == 1;
                    (0..10)
                        .flat_map(|dy| (0..10).map(move |dx| (dx, dy)))
                        .map(|(dx, dy)| {
                            Point::new(
                                (p.x + dx).min(grid.width() - 1),
                                (p.y + dy).min(grid.height() - 1),
                            )
                        })
                        .map(|q| Edit::Passable(q, open_it))
                        .collect()
                }
                // A door: one cell toggled.
                2 => vec![Edit::Passable(p, !grid.is_passable(p))],
                // Swamp and a danger field.
                _ => {
                    let mut e: Vec<Edit> = (0..6)
                        .map(|d| {
                            Edit::Weight(
                                Point::new((p.x + d).min(grid.width() - 1), p.y),
                                Weight(250),
                            )
                        })
                        .collect();
                    e.extend(layers.add_field(heat, p, 8, 200).unwrap());
                    e
                }
            };
            let report = world.apply(&edits).unwrap();
            for e in &edits {
                match *e {
                    Edit::Passable(q, b) => grid.set_passable(q, b).unwrap(),
                    Edit::Weight(q, w) => grid.set_weight(q, w).unwrap(),
                }
            }
            match report.dead_ends {
                tierpath::DeadEndRepair::Local => local += 1,
                tierpath::DeadEndRepair::Recomputed => global += 1,
                tierpath::DeadEndRepair::Unchanged => {}
            }
            // Repairs keep the landmarks where they were (a build may pick
            // other transitions, whose bounds break ties between equal-cost
            // routes differently): moved where a build puts them, the paths
            // must be a rebuild's. (Exact distances from the kept landmarks
            // are the library's property tests.)
            world.refresh_landmarks();
            check_same(&world, &grid, &queries, &format!("{name} step {step}"));
        }
        world.refresh_landmarks();
        check_same(
            &world,
            &grid,
            &queries,
            &format!("{name} after refreshing landmarks"),
        );
        eprintln!(
            "{name}: 12 edit batches, dead ends repaired locally {local} times, recomputed {global} times"
        );
    }
}
