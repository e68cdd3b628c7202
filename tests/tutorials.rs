//! The classic A* tutorials (`examples/tutorials/`), pinned: each test runs a
//! tutorial exactly as `cargo run --example tutorials -- <name>` does and
//! checks what its text describes: the squares closed and their scores, the
//! path, its cost, and the behaviour the lesson is about. Optimal costs are
//! checked against Dijkstra, and tie-breaking against a replay written here.

#[path = "../examples/tutorials/calkins.rs"]
mod calkins;
#[path = "../examples/tutorials/common.rs"]
mod common;
#[path = "../examples/tutorials/fradj.rs"]
mod fradj;
#[path = "../examples/tutorials/hatfield.rs"]
mod hatfield;
#[path = "../examples/tutorials/islands.rs"]
mod islands;
#[path = "../examples/tutorials/lague.rs"]
mod lague;
#[path = "../examples/tutorials/lester.rs"]
mod lester;
#[path = "../examples/tutorials/two_tiers.rs"]
mod two_tiers;
#[path = "../examples/tutorials/warmth.rs"]
mod warmth;

use std::collections::HashMap;

use tierpath::{
    AStar, Cost, Dijkstra, Grid, Method, Movement, Point, SearchCache, TieBreak, Weight,
};

fn pt(x: u32, y: u32) -> Point {
    Point::new(x, y)
}

/// The optimal cost from `s` to `t` by Dijkstra.
fn optimum(grid: &Grid, m: Movement, s: Point, t: Point) -> Cost {
    let mut cache = SearchCache::new();
    Dijkstra::new(grid)
        .movement(m)
        .find_path(&mut cache, s, t)
        .unwrap()
        .path
        .expect("reachable")
        .cost
}

// ----- 1. Lester -----

#[test]
fn lester_open_and_closed_lists() {
    let l = lester::run().unwrap();
    let (a, b) = (l.start, l.goal);
    assert_eq!((a, b), (pt(1, 1), pt(5, 1)));
    let scores = |e: &tierpath::Expansion| {
        let (g, h) = (lester::lester_units(e.g), lester::lester_units(e.h));
        (e.cell, g + h, g, h)
    };
    let order: Vec<_> = l.expansions.iter().map(scores).collect();
    // The start; then the square to its right, the only F of 40 (G 10,
    // H 30); then of the two squares with F 54 the one below and to the
    // right, the one added last; then the other.
    assert_eq!(order[0], (a, 40, 0, 40));
    assert_eq!(order[1], (pt(2, 1), 40, 10, 30));
    assert_eq!(order[2], (pt(2, 2), 54, 14, 40));
    assert_eq!(order[3], (pt(2, 0), 54, 14, 40));
    // The search ends when the goal is closed.
    assert_eq!(order.last().unwrap().0, b);
    assert_eq!(
        order.iter().map(|o| o.0).collect::<Vec<_>>(),
        vec![
            a,
            pt(2, 1),
            pt(2, 2),
            pt(2, 0),
            pt(0, 1),
            pt(1, 2),
            pt(1, 0),
            pt(2, 3),
            pt(3, 3),
            pt(4, 3),
            pt(5, 2),
            b
        ]
    );

    // Figure 3: around the start, G is 10 straight and 14 diagonal, H is 10
    // per square of Manhattan distance to B (30 right of A, 40 above that).
    for (p, g, h) in [
        (pt(2, 1), 10, 30),
        (pt(2, 0), 14, 40),
        (pt(1, 0), 10, 50),
        (pt(0, 1), 10, 50),
        (pt(0, 2), 14, 60),
        (pt(1, 2), 10, 50),
    ] {
        let s = l.scores(p).unwrap();
        assert_eq!((s.g, s.h, s.f), (g, h, g + h), "at {p}");
        assert_eq!(s.parent, Some(a), "at {p}");
    }
    // The wall's squares were never reached.
    assert!(l.scores(pt(3, 1)).is_none());

    // Figure 6: the square two below the start was first reached from the
    // square below and to the right (G 14 + 14 = 28: that one closed third,
    // before the square just below the start) and now has G 20 through the
    // square just above it.
    let closed_at = |p: Point| l.expansions.iter().position(|e| e.cell == p).unwrap();
    assert!(closed_at(pt(2, 2)) < closed_at(pt(1, 2)));
    let two_below = l.scores(pt(1, 3)).unwrap();
    assert_eq!((two_below.g, two_below.parent), (20, Some(pt(1, 2))));
    assert_eq!(two_below.closed, None, "still on the open list");

    // Figure 7: first step below and to the right, round the wall's foot.
    assert_eq!(
        l.path.cells,
        vec![a, pt(2, 2), pt(2, 3), pt(3, 3), pt(4, 3), pt(5, 2), b]
    );
    assert_eq!(lester::lester_units(l.path.cost.0), 68);
    l.path
        .validate(&l.map.grid, &Movement::TEN_FOURTEEN)
        .unwrap();
    assert_eq!(
        l.path.cost,
        optimum(&l.map.grid, Movement::TEN_FOURTEEN, a, b)
    );

    let report = l.report();
    assert!(report.contains("|54  ↖   3|"), "{report}");
    assert!(report.contains("\n..o#.o.\n..ooo..\n"), "{report}");
}

// ----- 2. Fradj -----

#[test]
fn fradj_cat_and_bone() {
    let f = fradj::run().unwrap();
    let (cat, bone) = (f.cat, f.bone);
    let g_h = |e: &tierpath::Expansion| (e.cell, fradj::squares(e.g), fradj::squares(e.h));

    // The cat's walk-through: the square above it (G 1, H 4) is the only F
    // of 5 among three neighbours (the others have H 6, the fourth is wall);
    // then the square above that (F 5); then four squares tie at F 7 and
    // the most recent one, north again, wins; and so on to the bone.
    let walk: Vec<_> = f.visionary.expansions.iter().map(g_h).collect();
    assert_eq!(
        walk,
        vec![
            (cat, 0, 5),
            (pt(1, 2), 1, 4),
            (pt(1, 1), 2, 3),
            (pt(1, 0), 3, 4),
            (pt(2, 0), 4, 3),
            (pt(3, 0), 5, 2),
            (pt(3, 1), 6, 1),
            (bone, 7, 0),
        ]
    );
    let neighbour_h: Vec<u64> = [pt(1, 2), pt(1, 4), pt(0, 3)]
        .iter()
        .map(|p| (p.x.abs_diff(bone.x) + p.y.abs_diff(bone.y)) as u64)
        .collect();
    assert_eq!(neighbour_h, vec![4, 6, 6]);
    assert!(!f.map.grid.is_passable(pt(2, 3)));
    assert_eq!(
        f.visionary.path.cells,
        vec![
            cat,
            pt(1, 2),
            pt(1, 1),
            pt(1, 0),
            pt(2, 0),
            pt(3, 0),
            pt(3, 1),
            bone
        ]
    );

    // The non-visionary cat closes more squares and finds another path of
    // the same length.
    let other = &f.non_visionary;
    assert_eq!(fradj::squares(f.visionary.path.cost.0), 7);
    assert_eq!(other.path.cost, f.visionary.path.cost);
    assert_ne!(other.path.cells, f.visionary.path.cells);
    assert_eq!(
        other.path.cells,
        vec![
            cat,
            pt(1, 2),
            pt(1, 1),
            pt(1, 0),
            pt(2, 0),
            pt(3, 0),
            pt(4, 0),
            bone
        ]
    );
    assert!(other.expansions.len() > f.visionary.expansions.len());
    assert_eq!(other.expansions.len(), 18);
    for walk in [&f.visionary, &f.non_visionary] {
        walk.path.validate(&f.map.grid, &Movement::FOUR).unwrap();
    }
    assert_eq!(
        f.visionary.path.cost,
        optimum(&f.map.grid, Movement::FOUR, cat, bone)
    );
    let report = f.report();
    assert!(report.contains(".345...\n#2#6B..\n.1#....\n"), "{report}");
}

// ----- 3. Lague -----

/// Replays A* on `grid` (8-connected, 10/14, no corner cutting, H the 10/14
/// distance to `goal`) along the expansion order `taken`, and checks every
/// choice: the square taken is open, has the smallest F, and among those
/// the H that `prefer` picks. Returns the number of choices where that
/// rule, not F alone, decided.
fn replay(
    grid: &Grid,
    start: Point,
    goal: Point,
    taken: &[tierpath::Expansion],
    prefer: fn(&[u64]) -> u64,
) -> usize {
    let h = |p: Point| {
        let (dx, dy) = (p.x.abs_diff(goal.x) as u64, p.y.abs_diff(goal.y) as u64);
        14 * dx.min(dy) + 10 * (dx.max(dy) - dx.min(dy))
    };
    let free = |x: i64, y: i64| {
        x >= 0
            && y >= 0
            && (x as u32) < grid.width()
            && (y as u32) < grid.height()
            && grid.is_passable(pt(x as u32, y as u32))
    };
    let mut open: HashMap<Point, u64> = HashMap::from([(start, 0)]);
    let mut closed: HashMap<Point, u64> = HashMap::new();
    let mut decided = 0;
    for e in taken {
        let g = *open
            .get(&e.cell)
            .unwrap_or_else(|| panic!("{} not open", e.cell));
        assert_eq!(lague::units(e.g), g, "G of {}", e.cell);
        assert_eq!(lague::units(e.h), h(e.cell), "H of {}", e.cell);
        let best_f = open.iter().map(|(p, g)| g + h(*p)).min().unwrap();
        assert_eq!(g + h(e.cell), best_f, "{} has not the lowest F", e.cell);
        let tied: Vec<u64> = open
            .iter()
            .filter(|(p, g)| *g + h(**p) == best_f)
            .map(|(p, _)| h(*p))
            .collect();
        assert_eq!(h(e.cell), prefer(&tied), "{} broke a tie wrongly", e.cell);
        if tied.iter().any(|t| *t != h(e.cell)) {
            decided += 1;
        }
        open.remove(&e.cell);
        closed.insert(e.cell, g);
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                let (x, y) = (e.cell.x as i64 + dx, e.cell.y as i64 + dy);
                if (dx, dy) == (0, 0) || !free(x, y) {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal
                    && !(free(e.cell.x as i64 + dx, e.cell.y as i64) && free(e.cell.x as i64, y))
                {
                    continue;
                }
                let q = pt(x as u32, y as u32);
                let ng = g + if diagonal { 14 } else { 10 };
                if closed.contains_key(&q) {
                    continue;
                }
                if open.get(&q).is_none_or(|old| ng < *old) {
                    open.insert(q, ng);
                }
            }
        }
    }
    assert_eq!(taken.last().map(|e| e.cell), Some(goal));
    decided
}

#[test]
fn lague_ties_toward_the_lowest_h() {
    let l = lague::run().unwrap();
    assert_eq!(TieBreak::LOWER_H, TieBreak::LargerG);
    assert_eq!(l.lowest_h.tie_break, TieBreak::LOWER_H);
    assert_eq!(l.movement, lague::MOVEMENT);
    let lowest = |hs: &[u64]| *hs.iter().min().unwrap();
    let highest = |hs: &[u64]| *hs.iter().max().unwrap();
    // Every square was the open one with the lowest F, ties to the lowest H;
    // and the rule was not idle.
    let decided = replay(&l.map.grid, l.start, l.goal, &l.lowest_h.expansions, lowest);
    assert!(decided >= 10, "ties decided {decided} choices");
    // The other rule, ties toward the smallest G, is the highest H.
    replay(
        &l.map.grid,
        l.start,
        l.goal,
        &l.smallest_g.expansions,
        highest,
    );

    // Same cost, the optimum; fewer squares closed with Lague's rule.
    let optimal = optimum(&l.map.grid, l.movement, l.start, l.goal);
    assert_eq!(l.lowest_h.path.cost, optimal);
    assert_eq!(l.smallest_g.path.cost, optimal);
    assert_eq!(lague::units(optimal.0), 178);
    assert_eq!(l.lowest_h.expansions.len(), 54);
    assert_eq!(l.smallest_g.expansions.len(), 74);
    for s in [&l.lowest_h, &l.smallest_g] {
        s.path.validate(&l.map.grid, &l.movement).unwrap();
    }
    assert!(l.report().contains("54 with ties toward the lowest H, 74"));
}

// ----- 4. Hatfield -----

#[test]
fn hatfield_reopening_closed_nodes() {
    let h = hatfield::run().unwrap();
    let grid = &h.map.grid;
    let m = hatfield::MOVEMENT;
    let w = grid.width();
    let est = |p: Point| h.table[(p.y * w + p.x) as usize];

    // The table: exact distances on the surveyed road, zero elsewhere.
    let road: Vec<u64> = h
        .map
        .cells('s')
        .iter()
        .map(|p| hatfield::steps(est(*p)))
        .collect();
    assert_eq!(road, vec![7, 6, 5, 4]);
    // Admissible: never above the true distance to the goal ...
    let mut cache = SearchCache::new();
    for p in grid.passable_points() {
        let exact = Dijkstra::new(grid)
            .movement(m)
            .find_path(&mut cache, p, h.goal)
            .unwrap()
            .path
            .unwrap()
            .cost;
        assert!(est(p) <= exact, "overestimates at {p}");
    }
    // ... but not consistent: from the road's east end to the junction
    // below it the estimate drops by 4 over one step.
    let (end, junction) = (pt(3, 0), pt(3, 1));
    assert!(est(end).0 > m.straight_step().0 + est(junction).0);

    // The plain closed list keeps the junction's first, dearer route (the
    // southern detour); re-opening finds the road.
    assert_eq!(hatfield::steps(h.plain.path.cost), 10);
    assert_eq!(h.plain.stats.reopened, 0);
    assert!(h.plain.path.cells.contains(&pt(0, 3)));
    assert_eq!(hatfield::steps(h.reopening.path.cost), 8);
    assert!(h.reopening.stats.reopened > 0);
    assert_eq!(
        h.reopening.path.cells,
        vec![
            h.start,
            pt(0, 0),
            pt(1, 0),
            pt(2, 0),
            pt(3, 0),
            junction,
            pt(4, 1),
            pt(5, 1),
            h.goal
        ]
    );
    assert_eq!(h.reopening.path.cost, h.optimal.cost);
    assert_eq!(h.optimal.cost, optimum(grid, m, h.start, h.goal));
    for s in [&h.plain, &h.reopening] {
        s.path.validate(grid, &m).unwrap();
    }
    assert!(h.report().contains("only the re-opening variant finds it"));
}

// ----- 5. Calkins -----

#[test]
fn calkins_terrain_and_roads() {
    let c = calkins::run().unwrap();
    let m = calkins::MOVEMENT;
    let (road_map, long_map) = (&c.road.map.grid, &c.long_wall.map.grid);

    // The legend's costs, as weights in percent.
    let weight_of = |trip: &calkins::Trip, ch: char| trip.map.grid.weight(trip.map.cells(ch)[0]);
    assert_eq!(weight_of(&c.road, '.'), Weight(100));
    assert_eq!(weight_of(&c.road, '*'), Weight(300));
    assert_eq!(weight_of(&c.road, '='), calkins::ROAD);
    assert_eq!(calkins::ROAD, Weight(50));
    assert!(!road_map.is_passable(c.road.map.cells('#')[0]));

    // The second map is the first with one more square of wall.
    let differ: Vec<Point> = road_map
        .passable_points()
        .chain(long_map.passable_points())
        .filter(|p| road_map.is_passable(*p) != long_map.is_passable(*p))
        .collect();
    assert_eq!(differ, vec![pt(8, 2)]);

    for trip in [&c.road, &c.long_wall] {
        trip.path.validate(&trip.map.grid, &m).unwrap();
        assert_eq!(
            trip.path.cost,
            optimum(&trip.map.grid, m, trip.tent, trip.castle),
            "{}",
            trip.map.file.display()
        );
        assert!(
            trip.path
                .cells
                .iter()
                .all(|p| trip.map.grid.weight(*p) != Weight(300)),
            "no snow"
        );
    }
    // Short wall: along the road, north round the wall's top.
    assert_eq!(c.road.road_cells(), 9);
    assert!(c.road.path.cells.iter().all(|p| p.y <= 6));
    assert_eq!(
        c.road.path.cells,
        vec![
            pt(1, 6),
            pt(2, 5),
            pt(2, 4),
            pt(2, 3),
            pt(2, 2),
            pt(3, 1),
            pt(4, 1),
            pt(5, 1),
            pt(6, 1),
            pt(7, 1),
            pt(8, 2),
            pt(9, 3),
            pt(9, 4),
            pt(10, 5),
            pt(11, 6)
        ]
    );
    // Long wall: the grass south of the wall, off the road after its first
    // square.
    assert!(c.long_wall.road_cells() <= 1);
    assert!(c.long_wall.path.cells.contains(&pt(8, 9)));
    assert!(c.long_wall.path.cost > c.road.path.cost);
    // There the road's way costs more than the grass: the best path through
    // the road's east end (7, 1).
    let mut cache = SearchCache::new();
    let leg = |a: Point, b: Point, cache: &mut SearchCache| {
        AStar::new(long_map)
            .movement(m)
            .find_path(cache, a, b)
            .unwrap()
            .path
            .unwrap()
            .cost
    };
    let by_road =
        leg(c.long_wall.tent, pt(7, 1), &mut cache) + leg(pt(7, 1), c.long_wall.castle, &mut cache);
    assert!(by_road > c.long_wall.path.cost);
    assert!(c.report().contains("1 of its squares on the road"));
}

// ----- 7. Islands and dead ends -----

#[test]
fn islands_and_dead_ends() {
    let t = islands::run().unwrap();
    let h = &t.hierarchy;
    let (a, b) = (t.past_cellar.start, t.past_cellar.goal);

    // The island: refused at once.
    let q = &t.to_island;
    assert!(!h.same_island(q.start, q.goal));
    assert!(q.path.is_none());
    assert_eq!(q.stats.method, Method::Unreachable);
    assert_eq!((q.stats.abstract_expanded, q.stats.fine_expanded), (0, 0));
    assert!(q.abstract_expanded.is_empty());
    // Flat A* closes every cell it can reach before it gives up.
    let reachable = Dijkstra::new(h.grid())
        .distance_field(&mut SearchCache::new(), q.start)
        .unwrap()
        .reachable();
    assert_eq!(q.flat_expanded.len(), reachable);

    // The cellar is a dead end; the corridors are not.
    let cellar: Vec<Point> = h
        .grid()
        .passable_points()
        .filter(|p| (6..=41).contains(&p.x) && (6..=21).contains(&p.y))
        .collect();
    assert!(cellar.len() > 400);
    assert!(
        cellar
            .iter()
            .all(|p| h.in_dead_end(*p) && !h.may_use(*p, a, b))
    );
    assert!(!h.in_dead_end(a) && !h.in_dead_end(b) && !h.in_dead_end(pt(20, 2)));

    // Past the cellar: the two-tier search skips it; flat A* does not.
    let q = &t.past_cellar;
    assert_eq!(q.stats.method, Method::Hierarchical);
    assert!(t.skippable_transitions(a, b) >= 50);
    assert!(!q.abstract_expanded.is_empty());
    assert!(q.abstract_expanded.iter().all(|p| h.may_use(*p, a, b)));
    assert!(q.abstract_expanded.iter().all(|p| !cellar.contains(p)));
    let flat_in_cellar = q
        .flat_expanded
        .iter()
        .filter(|p| cellar.contains(p))
        .count();
    assert!(flat_in_cellar >= 100, "{flat_in_cellar}");
    let path = q.path.as_ref().unwrap();
    path.validate(h.grid(), h.movement()).unwrap();
    assert!(path.cells.iter().all(|p| !cellar.contains(p)));
    assert_eq!(path.cost, optimum(h.grid(), *h.movement(), a, b));

    // Into the cellar: then it is searched.
    let q = &t.into_cellar;
    assert!(cellar.contains(&q.goal));
    assert_eq!(q.stats.method, Method::Hierarchical);
    assert!(
        q.abstract_expanded
            .iter()
            .filter(|p| cellar.contains(p))
            .count()
            >= 5
    );
    let path = q.path.as_ref().unwrap();
    assert_eq!(path.goal(), Some(q.goal));
    path.validate(h.grid(), h.movement()).unwrap();
    assert!(t.report().contains("0 of them in the cellar"));
}

// ----- 8. Two tiers -----

#[test]
fn two_tiers_expand_a_fraction() {
    let t = two_tiers::run().unwrap();
    assert_eq!(t.stats.method, Method::Hierarchical);
    let m = Movement::default();
    t.path.validate(&t.grid, &m).unwrap();
    assert_eq!(t.path.start(), Some(two_tiers::START));
    assert_eq!(t.path.goal(), Some(two_tiers::GOAL));
    assert_eq!(
        t.flat_path.cost,
        optimum(&t.grid, m, two_tiers::START, two_tiers::GOAL)
    );
    assert!(m.cost_in_steps(t.flat_path.cost) > 400.0, "a long query");
    // A fraction of the nodes, a path within 2% of the optimum.
    assert!(t.ratio() >= 10.0, "only {:.1}x", t.ratio());
    assert!(t.flat_expanded >= 10 * t.hierarchy_expanded());
    assert!(t.excess_percent() < 2.0, "{:.2}%", t.excess_percent());
    assert!(t.report().contains("times as many nodes"));
}

// ----- the maps' loader -----

#[test]
fn bad_maps_are_clear_errors() {
    let dir = std::env::temp_dir().join(format!("tierpath-tutorials-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two-starts.txt");
    std::fs::write(&file, "legend\n. floor 1\nA start 1\nmap\nA.A\n").unwrap();
    let map = common::TutorialMap::load_from(&file).unwrap();
    let e = map.marker('A').unwrap_err().to_string();
    assert!(
        e.contains("expected exactly one 'A'") && e.contains("found 2"),
        "{e}"
    );
    assert!(map.marker('B').unwrap_err().to_string().contains("found 0"));
    let file = dir.join("bad.txt");
    std::fs::write(&file, "legend\n. floor 1\nmap\n.x\n").unwrap();
    let e = common::TutorialMap::load_from(&file)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("bad.txt:4:") && e.contains("'x'"), "{e}");
    assert!(common::TutorialMap::load("no-such-map.txt").is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Tutorial 6 (Calkins' volcano and tombstone, as cost layers): the straight
/// line on even snow; the erupting volcano's warmth bends the path toward it
/// and makes it cheaper; the tombstone's dread pushes the path off the line,
/// away from it; with both, the path runs closer to the volcano than with the
/// volcano alone; removing the layers at run time restores the straight line.
/// Every path is optimal for the weights of its scene, and the two-tier
/// planner on the repaired hierarchy finds the same cost.
#[test]
fn calkins_warmth_and_dread() {
    let w = warmth::run().unwrap();
    let [plain, volcano, tomb, both, cleared] = w.scenes.as_slice() else {
        panic!("five scenes");
    };
    let row = w.tent.y;
    assert_eq!(w.castle.y, row);
    assert!(
        plain.path.cells.iter().all(|p| p.y == row),
        "straight on even snow"
    );
    assert_eq!(plain.path.cost, Cost(12 * 3 * 1_000_000));
    assert_eq!(cleared.path.cells, plain.path.cells, "layers removed");

    // Warmth: toward the volcano (north of the line), and cheaper.
    assert!(volcano.path.cells.iter().any(|p| p.y < row));
    assert!(volcano.path.cost < plain.path.cost);
    assert!(w.mean_distance_to_volcano(&volcano.path) < w.mean_distance_to_volcano(&plain.path));
    // Dread alone: off the line, never next to the tombstone, dearer.
    let near = |p: &Point, q: Point| p.x.abs_diff(q.x) <= 1 && p.y.abs_diff(q.y) <= 1;
    assert!(tomb.path.cells.iter().any(|p| p.y != row));
    assert!(!tomb.path.cells.iter().any(|p| near(p, w.tombstone)));
    assert!(tomb.path.cost > plain.path.cost);
    // Both: closer to the volcano than the volcano alone.
    assert!(w.mean_distance_to_volcano(&both.path) < w.mean_distance_to_volcano(&volcano.path));
    assert_ne!(both.path.cells, volcano.path.cells);

    // The layers are Calkins' factors: at the volcano a move costs a tenth,
    // next to the tombstone 3.85 times; and every scene's path is optimal.
    assert!((warmth::warmth_factor(0.0) - 0.1).abs() < 1e-12);
    assert!((warmth::dread_factor(0.0) - 3.85).abs() < 1e-12);
    for sc in &w.scenes {
        assert_eq!(sc.hierarchy_cost, sc.path.cost, "{}", sc.name);
    }
    // The report draws every scene.
    let text = w.report();
    for sc in &w.scenes {
        assert!(text.contains(&sc.picture), "{text}");
    }
}
