//! Units of several sizes in one app: each request is served through the
//! queue for its size, its path is legal for that size by the footprint
//! rule and costs what `find_path_with` answers, and a size the hierarchy
//! does not serve fails as invalid.

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_tierpath::{NavGrid, Path, PathFailed, PathFailure, PathRequest, TierpathPlugin};
use tierpath::{
    Grid, HierarchyBuilder, Point, QueryCache, QueryError, QueryOptions, validate_sized_path,
};

#[derive(Resource, Default)]
struct Failures(Vec<PathFailed>);

fn collect(mut read: MessageReader<PathFailed>, mut all: ResMut<Failures>) {
    all.0.extend(read.read().cloned());
}

#[test]
fn each_unit_gets_a_path_for_its_size() {
    // Two rooms: a 1-cell door near the units, a 3-cell one far below.
    let grid = Grid::from_fn(64, 48, |p| {
        !(p.x == 32 && p.y != 6 && !(40..=42).contains(&p.y))
    })
    .unwrap();
    let h = HierarchyBuilder::new()
        .max_unit_size(2)
        .build(grid.clone())
        .unwrap();
    let mut app = App::new();
    app.add_plugins(TierpathPlugin { budget: 300 })
        .insert_resource(NavGrid::new(h))
        .init_resource::<Failures>()
        .add_systems(bevy_app::Last, collect);
    let (s, g) = (Point::new(4, 4), Point::new(60, 4));
    let request = PathRequest::new(s, g);
    assert_eq!(request.size, 1);
    let units: Vec<Entity> = [1, 2, 3]
        .map(|k| app.world_mut().spawn(request.with_size(k)).id())
        .to_vec();
    for _ in 0..200 {
        app.update();
        if app.world().resource::<NavGrid>().pending() == 0 {
            break;
        }
    }
    let world = app.world();
    let h = world.resource::<NavGrid>().hierarchy();
    let mut cache = QueryCache::new();
    let mut costs = Vec::new();
    for (k, unit) in [1, 2].into_iter().zip(&units) {
        let path = world.get::<Path>(*unit).expect("answered");
        validate_sized_path(path, &grid, h.movement(), k).expect("legal for the size");
        let direct = h
            .find_path_with(&mut cache, s, g, &QueryOptions::new().unit_size(k))
            .unwrap()
            .path
            .unwrap();
        assert_eq!(path.cost, direct.cost, "size {k}");
        costs.push(path.cost);
    }
    assert!(
        costs[1] > costs[0],
        "the 2x2 unit goes round by the wide door"
    );
    let failures = &world.resource::<Failures>().0;
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].entity, units[2]);
    assert_eq!(
        failures[0].reason,
        PathFailure::Invalid(QueryError::SizeAboveMax { size: 3, max: 2 })
    );
    assert!(world.get::<Path>(units[2]).is_none());
}
