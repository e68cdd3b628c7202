//! The plugin in a headless app: every requested path arrives within a
//! bounded number of frames, is legal and goes from the start to the goal,
//! no frame expands more than the budget, and an edit across answered paths
//! has them planned again around it.

use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_tierpath::{
    EditMap, MapRepaired, NavGrid, Path, PathFailed, PathFailure, PathFrameStats, PathRequest,
    TierpathPlugin,
};
use tierpath::{Edit, Grid, Hierarchy, Point, QueryCache, io};

const BUDGET: u64 = 1500;

fn app() -> (App, Vec<Point>) {
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/default.map");
    let grid: Grid = io::read_map(map).expect("data/default.map reads");
    let open: Vec<Point> = grid.passable_points().collect();
    let mut app = App::new();
    app.add_plugins(TierpathPlugin { budget: BUDGET })
        .insert_resource(NavGrid::new(Hierarchy::build(grid).unwrap()));
    (app, open)
}

fn run_until_answered(app: &mut App, max_frames: usize) -> usize {
    for frame in 0..max_frames {
        app.update();
        assert!(app.world().resource::<PathFrameStats>().expanded <= BUDGET);
        if app.world().resource::<NavGrid>().pending() == 0 {
            return frame + 1;
        }
    }
    panic!("requests still pending after {max_frames} frames");
}

/// Checks every unit's path is legal and joins its request's ends; with
/// `fresh`, also that it costs what `find_path` answers now (paths an edit
/// did not touch are kept, so after an edit only legality is asked).
fn check_paths(app: &mut App, units: &[Entity], fresh: bool) {
    let world = app.world();
    let nav = world.resource::<NavGrid>();
    let h = nav.hierarchy();
    let mut cache = QueryCache::new();
    for &unit in units {
        let request = world.get::<PathRequest>(unit).unwrap();
        let path = world
            .get::<Path>(unit)
            .unwrap_or_else(|| panic!("unit {unit:?} ({request:?}) has no path"));
        path.validate(h.grid(), h.movement()).expect("a legal path");
        assert_eq!(path.start(), Some(request.start));
        assert_eq!(path.goal(), Some(request.goal));
        if !fresh {
            continue;
        }
        let direct = h
            .find_path(&mut cache, request.start, request.goal)
            .unwrap()
            .path
            .unwrap();
        assert_eq!(path.cost, direct.cost, "the queue answers as find_path");
    }
}

#[test]
fn every_request_arrives_legal_and_edits_replan_touched_paths() {
    let (mut app, open) = app();
    let h = app.world().resource::<NavGrid>().hierarchy().clone();
    // Reachable pairs, picked deterministically.
    let mut units = Vec::new();
    let mut i = 0usize;
    while units.len() < 60 {
        let (s, g) = (
            open[(i * 7919) % open.len()],
            open[(i * 104_729 + 17) % open.len()],
        );
        i += 1;
        if h.same_island(s, g) {
            units.push(app.world_mut().spawn(PathRequest::new(s, g)).id());
        }
    }
    let frames = run_until_answered(&mut app, 2000);
    assert!(frames > 1, "the budget spreads the work over frames");
    check_paths(&mut app, &units, true);

    // Close a cell in the middle of the first long path (not an endpoint of
    // any request): that path is planned again around it.
    let world = app.world();
    let (victim, wall) = units
        .iter()
        .find_map(|u| {
            let path = world.get::<Path>(*u).unwrap();
            let mid = path.cells[path.cells.len() / 2];
            let endpoint = units.iter().any(|v| {
                let r = world.get::<PathRequest>(*v).unwrap();
                r.start == mid || r.goal == mid
            });
            (path.cells.len() > 20 && !endpoint).then_some((*u, mid))
        })
        .expect("a long path");
    app.world_mut()
        .write_message(EditMap(vec![Edit::Passable(wall, false)]));
    app.update();
    let repaired: Vec<MapRepaired> = app
        .world_mut()
        .resource_mut::<Messages<MapRepaired>>()
        .drain()
        .collect();
    assert_eq!(repaired.len(), 1);
    assert_eq!(repaired[0].result.as_ref().map(|r| r.0), Ok(1));
    assert!(repaired[0].requested_again >= 1);
    run_until_answered(&mut app, 2000);
    let failed: Vec<PathFailed> = app
        .world_mut()
        .resource_mut::<Messages<PathFailed>>()
        .drain()
        .collect();
    // Closing one cell may seal a pocket; those units are told so.
    let sealed: Vec<Entity> = failed
        .iter()
        .inspect(|f| assert_eq!(f.reason, PathFailure::Unreachable))
        .map(|f| f.entity)
        .collect();
    let alive: Vec<Entity> = units
        .iter()
        .copied()
        .filter(|u| !sealed.contains(u))
        .collect();
    check_paths(&mut app, &alive, false);
    if !sealed.contains(&victim) {
        let path = app.world().get::<Path>(victim).unwrap();
        assert!(!path.cells.contains(&wall), "the new path avoids the wall");
    }
}

#[test]
fn bad_and_unreachable_requests_are_messages() {
    let (mut app, open) = app();
    let h = app.world().resource::<NavGrid>().hierarchy().clone();
    let wall = Point::new(0, 0);
    assert!(!h.grid().is_passable(wall));
    let bad = app.world_mut().spawn(PathRequest::new(open[0], wall)).id();
    let off = app
        .world_mut()
        .spawn(PathRequest::new(open[0], Point::new(9999, 1)))
        .id();
    let other_island = open.iter().copied().find(|p| !h.same_island(open[0], *p));
    let unreachable =
        other_island.map(|g| app.world_mut().spawn(PathRequest::new(open[0], g)).id());
    run_until_answered(&mut app, 100);
    let failed: Vec<PathFailed> = app
        .world_mut()
        .resource_mut::<Messages<PathFailed>>()
        .drain()
        .collect();
    let reason = |e: Entity| {
        failed
            .iter()
            .find(|f| f.entity == e)
            .map(|f| f.reason.clone())
    };
    assert!(matches!(
        reason(bad),
        Some(PathFailure::Invalid(tierpath::QueryError::Blocked { .. }))
    ));
    assert!(matches!(
        reason(off),
        Some(PathFailure::Invalid(tierpath::QueryError::OffMap { .. }))
    ));
    if let Some(u) = unreachable {
        assert_eq!(reason(u), Some(PathFailure::Unreachable));
        assert!(app.world().get::<Path>(u).is_none());
    }
}

/// A contracted map stays contracted across an edit: an edit that changes
/// the cluster graph ends the contraction, a worker thread contracts the repaired map, and a later
/// frame installs it; paths stay legal throughout and, once contracted
/// again, equal those of a hierarchy built and contracted from the edited
/// map. With `keep_contracted(false)` the map stays uncontracted.
/// Up to 20 units asking for paths between cells spread over `open`, each
/// pair on one island of `h`.
fn spread_units(app: &mut App, h: &Hierarchy, open: &[Point]) -> Vec<Entity> {
    (0..20)
        .map(|i| open[(i * 7919) % open.len()])
        .zip((0..20).map(|i| open[(i * 104_729 + 17) % open.len()]))
        .filter(|(s, g)| h.same_island(*s, *g))
        .map(|(s, g)| app.world_mut().spawn(PathRequest::new(s, g)).id())
        .collect()
}

#[test]
fn a_contracted_map_is_contracted_again_after_an_edit() {
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/default.map");
    let grid: Grid = io::read_map(map).expect("data/default.map reads");
    let mut h = Hierarchy::build(grid.clone()).unwrap();
    h.contract().unwrap();
    for keep in [true, false] {
        let mut app = App::new();
        app.add_plugins(TierpathPlugin { budget: BUDGET })
            .insert_resource(NavGrid::new(h.clone()).keep_contracted(keep));
        let open: Vec<Point> = grid.passable_points().collect();
        let units = spread_units(&mut app, &h, &open);
        run_until_answered(&mut app, 2000);
        check_paths(&mut app, &units, true);
        assert!(
            app.world()
                .resource::<NavGrid>()
                .hierarchy()
                .is_contracted()
        );

        // A wall on a transition cell away from every request's ends: the
        // cluster graph changes (an edit that keeps its arcs and costs
        // would keep the contraction).
        let ends: Vec<Point> = units
            .iter()
            .map(|u| *app.world().get::<PathRequest>(*u).unwrap())
            .flat_map(|r| [r.start, r.goal])
            .collect();
        let transitions: Vec<Point> = h.transitions().collect();
        let wall = *transitions
            .iter()
            .skip(transitions.len() / 2)
            .find(|p| !ends.contains(p))
            .unwrap();
        app.world_mut()
            .write_message(EditMap(vec![Edit::Passable(wall, false)]));
        app.update();
        let nav = app.world().resource::<NavGrid>();
        assert!(!nav.hierarchy().is_contracted(), "the edit ends it");
        assert_eq!(nav.contracting(), keep);
        // Frames go on while the worker contracts (bounded, with a short
        // pause per frame to leave it the cores).
        let mut frames = 0;
        while app.world().resource::<NavGrid>().contracting() && frames < 5000 {
            app.update();
            std::thread::sleep(std::time::Duration::from_millis(2));
            frames += 1;
        }
        app.update();
        let nav = app.world().resource::<NavGrid>();
        assert_eq!(nav.contraction_error(), None);
        assert_eq!(nav.hierarchy().is_contracted(), keep);
        run_until_answered(&mut app, 2000);
        let alive: Vec<Entity> = units
            .iter()
            .copied()
            .filter(|u| app.world().get::<Path>(*u).is_some())
            .collect();
        check_paths(&mut app, &alive, false);
        if keep {
            // Contracted again: the very answers of the edited map's own
            // contracted hierarchy.
            let mut edited = grid.clone();
            edited.set_passable(wall, false).unwrap();
            let mut rebuilt = Hierarchy::build(edited).unwrap();
            rebuilt.contract().unwrap();
            let nav = app.world().resource::<NavGrid>();
            let mut cache = QueryCache::new();
            for &(s, g) in &[
                (open[3], open[open.len() - 5]),
                (open[100], open[open.len() / 3]),
            ] {
                let a = nav.hierarchy().find_path(&mut cache, s, g).unwrap().path;
                let b = rebuilt.find_path(&mut cache, s, g).unwrap().path;
                assert_eq!(a, b);
            }
        }
    }
}

/// Cell landmarks through the plugin: a hierarchy loaded from a file saved
/// with them has them, requests in progress when they are added again start
/// over and every answer costs what the guided hierarchy's `find_path`
/// answers (the exact cost, where its jump point search answered).
#[test]
fn cell_landmarks_guide_the_queue() {
    let map = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/default.map");
    let grid: Grid = io::read_map(map).expect("data/default.map reads");
    let mut h = Hierarchy::build(grid.clone()).unwrap();
    assert!(h.add_cell_landmarks(2));
    let loaded = Hierarchy::from_bytes(grid.clone(), &h.to_bytes()).unwrap();
    let mut app = App::new();
    app.add_plugins(TierpathPlugin { budget: BUDGET })
        .insert_resource(NavGrid::new(loaded));
    assert!(
        app.world()
            .resource::<NavGrid>()
            .hierarchy()
            .has_cell_landmarks()
    );
    let open: Vec<Point> = grid.passable_points().collect();
    let units = spread_units(&mut app, &h, &open);
    app.update();
    // Added again while requests are in progress: they start over on the
    // new hierarchy and still arrive.
    assert!(
        app.world_mut()
            .resource_mut::<NavGrid>()
            .add_cell_landmarks(3)
    );
    run_until_answered(&mut app, 2000);
    check_paths(&mut app, &units, true);
    assert!(
        app.world()
            .resource::<NavGrid>()
            .hierarchy()
            .has_cell_landmarks()
    );
}
