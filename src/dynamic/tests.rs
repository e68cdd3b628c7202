//! Repaired == rebuilt, on random maps and random edit sequences.

use proptest::prelude::*;

use super::*;
use crate::hierarchy::HierarchyBuilder;
use crate::mapgen::{self, MapKind, MapParams};
use crate::preprocess::{
    ClusterGraph, DeadEnds, EntrancePolicy, Landmarks, NO_NODE, SizeTransitions,
};
use crate::{ContractionKind, CornerRule, Grid, Movement, Polish, QueryCache};

/// The block forest as a value independent of block numbering: per cell,
/// its anchor block, that block's parent, its island and the island's core,
/// each named by the first cell (row-major) anchored at it; plus the counts.
fn canonical(d: &DeadEnds) -> (Vec<[u32; 4]>, Vec<u32>, u64, u64) {
    let cells = d.cell_anchor.len();
    let blocks = d.block_end.len();
    let mut name = vec![NO_NODE; blocks];
    for i in 0..cells {
        let a = d.anchor_of(i);
        if a != NO_NODE && name[a as usize] == NO_NODE {
            name[a as usize] = i as u32;
        }
    }
    // Parents from the nested preorder ranges.
    let mut parent = vec![NO_NODE; blocks];
    let mut open: Vec<u32> = Vec::new();
    for b in 0..blocks as u32 {
        while open.last().is_some_and(|t| d.block_end[*t as usize] <= b) {
            open.pop();
        }
        parent[b as usize] = open.last().copied().unwrap_or(NO_NODE);
        open.push(b);
    }
    let named = |b: u32| {
        if b == NO_NODE {
            NO_NODE
        } else {
            name[b as usize]
        }
    };
    let mut island_name = vec![NO_NODE; d.island_sizes.len()];
    for i in 0..cells {
        let a = d.anchor_of(i);
        if a != NO_NODE {
            let isl = d.block_island[a as usize] as usize;
            if island_name[isl] == NO_NODE {
                island_name[isl] = i as u32;
            }
        }
    }
    let per_cell = (0..cells)
        .map(|i| {
            let a = d.anchor_of(i);
            if a == NO_NODE {
                return [NO_NODE; 4];
            }
            let isl = d.block_island[a as usize] as usize;
            [
                named(a),
                named(parent[a as usize]),
                island_name[isl],
                named(d.island_core[isl]),
            ]
        })
        .collect();
    let mut sizes: Vec<(u32, u32)> = island_name
        .iter()
        .zip(&d.island_sizes)
        .map(|(n, s)| (*n, *s))
        .collect();
    sizes.sort_unstable();
    (
        per_cell,
        sizes.into_iter().map(|(_, s)| s).collect(),
        d.dead_end_cells,
        d.articulation_cells,
    )
}

/// Asserts two hierarchies describe the same thing (see the module docs).
/// The least-cost routes of `repaired`'s patched contraction between a few
/// pairs of its nodes, for every unit size, against `rebuilt`'s
/// (contracted): the same costs, and each route a legal one of the repaired
/// cluster graph whose arcs sum to its cost.
pub(super) fn assert_same_patched_routes(repaired: &Hierarchy, rebuilt: &Hierarchy, context: &str) {
    use crate::contraction::{ContractionRoute, ContractionScratch};
    let graph = repaired.graph();
    let n = graph.edge_first.len() - 1;
    let (mut s1, mut s2) = (ContractionScratch::default(), ContractionScratch::default());
    let (mut r1, mut r2) = (ContractionRoute::default(), ContractionRoute::default());
    for size in 1..=repaired.max_unit_size() as u8 {
        for k in 0..n.min(10) {
            let node = |i: usize| (i % n) as u32;
            let starts = [(node(k * 7), 0), (node(k * 11 + 3), 3_000_000)];
            let goals = [(node(k * 13 + 5), 0)];
            let a = repaired.contracted_route(&mut s1, size, &starts, &goals, &mut r1);
            let b = rebuilt.contracted_route(&mut s2, size, &starts, &goals, &mut r2);
            assert!(a.is_some() && b.is_some(), "both contracted {context}");
            assert_eq!(a, b, "size {size}, {starts:?} -> {goals:?} {context}");
            if a != Some(true) {
                continue;
            }
            assert_eq!(
                r1.cost, r2.cost,
                "size {size}, {starts:?} -> {goals:?} {context}"
            );
            let first = starts.iter().find(|s| s.0 == r1.nodes[0]).expect("a start");
            let mut cost = first.1;
            for (i, e) in r1.arcs.iter().enumerate() {
                let e = *e as usize;
                let tail = r1.nodes[i] as usize;
                assert!(
                    (graph.edge_first[tail] as usize..graph.edge_first[tail + 1] as usize)
                        .contains(&e),
                    "arc {e} leaves {tail} {context}"
                );
                assert_eq!(graph.edge_to[e], r1.nodes[i + 1], "{context}");
                cost += graph.edge_cost.get(e);
            }
            assert_eq!(
                Some(&r1.nodes[r1.nodes.len() - 1]),
                goals.first().map(|g| &g.0)
            );
            assert_eq!(cost, r1.cost, "route cost {context}");
        }
    }
}

pub(super) fn assert_same(repaired: &Hierarchy, rebuilt: &Hierarchy, context: &str) {
    assert!(repaired.grid() == rebuilt.grid(), "grids differ {context}");
    assert_eq!(
        repaired.entrances(),
        rebuilt.entrances(),
        "entrances {context}"
    );
    assert_eq!(repaired.graph(), rebuilt.graph(), "graph {context}");
    assert_eq!(repaired.edge_lo(), rebuilt.edge_lo(), "edge_lo {context}");
    assert_eq!(
        repaired.min_weight(),
        rebuilt.min_weight(),
        "min weight {context}"
    );
    assert_eq!(repaired.node_points(), rebuilt.node_points(), "{context}");
    assert!(
        repaired.jump_lines() == rebuilt.jump_lines(),
        "jump lines {context}"
    );
    // Several sizes: the same clearance (the components are compared by
    // their counts in the stats, and by the queries of the sized tests).
    assert_eq!(
        repaired.sizes().map(|s| (s.max, &s.clearance)),
        rebuilt.sizes().map(|s| (s.max, &s.clearance)),
        "clearance {context}"
    );
    assert_eq!(
        canonical(repaired.dead_ends()),
        canonical(rebuilt.dead_ends()),
        "dead ends {context}"
    );
    // A repair keeps its landmarks where they were (a build may pick other
    // transitions): their distances must be exact on the rebuilt graph.
    assert_landmarks_exact(repaired, rebuilt.graph(), context);
    assert_eq!(
        repaired.settings(),
        rebuilt.settings(),
        "settings {context}"
    );
    let (mut s1, mut s2) = (repaired.stats().clone(), rebuilt.stats().clone());
    s1.stages.clear();
    s2.stages.clear();
    (s1.memory_bytes, s2.memory_bytes) = (0, 0);
    assert_eq!(s1, s2, "stats {context}");
}

/// Asserts a fog-of-war view (whose cluster graph is read from the truth and
/// open ground) is the hierarchy `rebuilt` of its map: the same map, islands,
/// dead ends and jump lines, the same nodes and edges (targets, costs, stored
/// paths) in the same order, the same stats, and the same paths.
pub(super) fn assert_same_view(view: &Hierarchy, rebuilt: &Hierarchy, context: &str) {
    assert!(view.grid() == rebuilt.grid(), "grids differ {context}");
    assert_eq!(view.settings(), rebuilt.settings(), "settings {context}");
    assert_eq!(
        view.min_weight(),
        rebuilt.min_weight(),
        "min weight {context}"
    );
    assert!(
        view.jump_lines() == rebuilt.jump_lines(),
        "jump lines {context}"
    );
    assert_eq!(
        canonical(view.dead_ends()),
        canonical(rebuilt.dead_ends()),
        "dead ends {context}"
    );
    assert_eq!(
        view.node_count(),
        rebuilt.node_points().len(),
        "nodes {context}"
    );
    for v in 0..view.node_count() as u32 {
        assert_eq!(
            view.node_point(v),
            rebuilt.node_points()[v as usize],
            "{context}"
        );
        let got: Vec<_> = view
            .out_edges(v)
            .map(|(to, cost, e)| (to, cost, view.edge_path(e as u32).map(<[u8]>::to_vec)))
            .collect();
        let want: Vec<_> = rebuilt
            .out_edges(v)
            .map(|(to, cost, e)| (to, cost, rebuilt.edge_path(e as u32).map(<[u8]>::to_vec)))
            .collect();
        assert_eq!(got, want, "edges of {:?} {context}", view.node_point(v));
    }
    let (mut s1, mut s2) = (view.stats().clone(), rebuilt.stats().clone());
    s1.stages.clear();
    s2.stages.clear();
    (s1.memory_bytes, s2.memory_bytes, s2.entrances) = (0, 0, 0);
    assert_eq!(s1, s2, "stats {context}");
    // Paths between passable cells spread over the map.
    let cells: Vec<Point> = rebuilt.grid().passable_points().collect();
    let mut cache = crate::QueryCache::new();
    let mut other = crate::QueryCache::new();
    for i in 0..cells.len().min(12) {
        let (s, t) = (
            cells[i * 7 % cells.len()],
            cells[(i * 13 + cells.len() / 2) % cells.len()],
        );
        let a = view.find_path(&mut cache, s, t).unwrap().path;
        let b = rebuilt.find_path(&mut other, s, t).unwrap().path;
        assert_eq!(
            a.as_ref().map(|p| (&p.cells, p.cost)),
            b.as_ref().map(|p| (&p.cells, p.cost)),
            "path {s:?} -> {t:?} {context}"
        );
    }
}

/// Asserts the landmark table of `h` holds exactly the distances computed
/// afresh from its landmark nodes over `graph` (a rebuild's), stored as a
/// build stores them.
pub(super) fn assert_landmarks_exact(h: &Hierarchy, graph: &ClusterGraph, context: &str) {
    let l = h.landmarks();
    assert!(l.count <= h.settings().landmarks, "{context}");
    assert_eq!(l.nodes.len(), l.count as usize, "{context}");
    let n = graph.edge_first.len() - 1;
    let want = if l.count == 0 {
        Landmarks::default()
    } else {
        Landmarks::from_nodes(graph, l.nodes.clone(), n)
    };
    assert_eq!(*l, want, "landmark distances {context}");
}

/// A hierarchy built from `grid` with `world`'s settings, the decisions of
/// its build included (a build with `Polish::Auto` decides from its own map,
/// a repair keeps the decision made for the first).
pub(super) fn rebuild_as(world: &DynamicHierarchy, grid: Grid) -> Hierarchy {
    HierarchyBuilder::with_settings(*world.settings())
        .build(grid)
        .unwrap()
}

/// A grid copy of `grid` with `edits` applied (for tests and callers that
/// want to rebuild from scratch to compare).
pub(super) fn edited(grid: &Grid, edits: &[Edit]) -> Grid {
    let mut g = grid.clone();
    for e in edits {
        match *e {
            Edit::Passable(p, b) => g.set_passable(p, b).expect("on the map"),
            Edit::Weight(p, w) => g.set_weight(p, w).expect("on the map"),
        }
    }
    g
}

#[derive(Debug, Clone)]
pub(super) enum Step {
    /// A rectangle opened or closed.
    Rect(u32, u32, u32, u32, bool),
    /// Scattered cells toggled.
    Toggle(Vec<(u32, u32)>),
    /// A rectangle re-weighted.
    Weigh(u32, u32, u32, u32, u16),
}

#[derive(Debug, Clone)]
pub(super) struct Case {
    pub(super) w: u32,
    pub(super) h: u32,
    kind: Option<(MapKind, u64)>,
    density: u32,
    cells: Vec<u8>,
    cluster: u32,
    movement: u8,
    policy: (u32, u32),
    keep_paths: bool,
    pub(super) steps: Vec<Step>,
    /// The largest unit size served (1: one size).
    pub(super) max_size: u32,
    /// Where sizes above 1 get their transitions.
    pub(super) larger: SizeTransitions,
}

impl Case {
    pub(super) fn grid(&self) -> Grid {
        let generated = self.kind.map(|(kind, seed)| {
            let params = MapParams {
                room_size: 3,
                corridor_width: 1,
                ..MapParams::default()
            };
            mapgen::generate_with(kind, self.w, self.h, seed, &params).expect("valid size")
        });
        let mut g = Grid::from_fn(self.w, self.h, |p| match &generated {
            Some(g) => g.is_passable(p),
            None => (self.cells[(p.y * self.w + p.x) as usize] as u32) >= self.density,
        })
        .unwrap();
        if self.movement == 4 {
            for y in 0..self.h {
                for x in 0..self.w {
                    let c = self.cells[(y * self.w + x) as usize];
                    if c.is_multiple_of(3) {
                        g.set_weight(Point::new(x, y), Weight(50 + c as u16))
                            .unwrap();
                    }
                }
            }
        }
        g
    }

    fn movement(&self) -> Movement {
        match self.movement {
            0 | 4 => Movement::default(),
            1 => Movement::FOUR,
            2 => Movement {
                corners: CornerRule::IfOneFree,
                ..Movement::default()
            },
            _ => Movement {
                corners: CornerRule::Always,
                ..Movement::default()
            },
        }
    }

    pub(super) fn builder(&self, landmarks: u32) -> HierarchyBuilder {
        HierarchyBuilder::new()
            .cluster_size(self.cluster)
            .movement(self.movement())
            .entrance_policy(EntrancePolicy {
                single_below: self.policy.0,
                max_gap: self.policy.1,
            })
            .keep_paths(self.keep_paths)
            .landmarks(landmarks)
            .max_unit_size(self.max_size)
            .larger_sizes(self.larger)
            // Fixed per case, not `Auto` (which a rebuild would decide
            // again from the edited map, while a repair keeps the decision):
            // half the cases polish their paths.
            .polish(if self.cluster.is_multiple_of(2) {
                Polish::Always
            } else {
                Polish::Never
            })
    }

    pub(super) fn edits(&self, step: &Step, grid: &Grid) -> Vec<Edit> {
        let clip = |x: u32, y: u32| Point::new(x % self.w, y % self.h);
        match step {
            Step::Rect(x, y, w, h, open) => (0..*h)
                .flat_map(|dy| (0..*w).map(move |dx| (dx, dy)))
                .map(|(dx, dy)| Edit::Passable(clip(x + dx, y + dy), *open))
                .collect(),
            Step::Toggle(cells) => cells
                .iter()
                .map(|(x, y)| {
                    let p = clip(*x, *y);
                    Edit::Passable(p, !grid.is_passable(p))
                })
                .collect(),
            Step::Weigh(x, y, w, h, wt) => (0..*h)
                .flat_map(|dy| (0..*w).map(move |dx| (dx, dy)))
                .map(|(dx, dy)| Edit::Weight(clip(x + dx, y + dy), Weight(*wt)))
                .collect(),
        }
    }
}

pub(super) fn case_strategy() -> impl Strategy<Value = Case> {
    let step = prop_oneof![
        3 => (0u32..40, 0u32..40, 1u32..4, 1u32..4, any::<bool>())
            .prop_map(|(x, y, w, h, o)| Step::Rect(x, y, w, h, o)),
        3 => prop::collection::vec((0u32..40, 0u32..40), 1..4).prop_map(Step::Toggle),
        1 => (0u32..40, 0u32..40, 1u32..5, 1u32..5, 1u16..300)
            .prop_map(|(x, y, w, h, wt)| Step::Weigh(x, y, w, h, wt)),
    ];
    let kind = prop_oneof![
        2 => Just(None),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Maze, s))),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Rooms, s))),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Caves, s))),
    ];
    (
        (4u32..=32, 4u32..=32, kind, prop_oneof![0u32..8, 0u32..60]),
        prop::collection::vec(any::<u8>(), 32 * 32),
        (2u32..=8, 0u8..5, 1u32..=6, 0u32..=6, any::<bool>()),
        prop::collection::vec(step, 1..8),
    )
        .prop_map(
            |((w, h, kind, density), cells, (cluster, movement, single, gap, keep), steps)| Case {
                w,
                h,
                kind,
                density: density * 256 / 100,
                cells,
                cluster,
                movement,
                policy: (single, gap),
                keep_paths: keep,
                steps,
                max_size: 1,
                larger: SizeTransitions::Ends,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 800,
        max_shrink_iters: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// After every batch of edits the repaired hierarchy equals one built
    /// from scratch on the changed map (its landmarks, kept through the
    /// repairs, with the exact distances a computation from them on the
    /// rebuilt graph gives; after a refresh, the build's landmarks), and
    /// queries on both return the same paths. In a third of the cases the
    /// hierarchy is contracted (again after every repair that ends the
    /// contraction): one that a repair kept (the cluster graph's arcs and
    /// costs unchanged) is the very contraction of the rebuilt map, and
    /// answers as it does.
    #[test]
    fn repaired_equals_rebuilt(case in case_strategy()) {
        let mut grid = case.grid();
        let built = case.builder(4).build(grid.clone()).unwrap();
        let mut world = DynamicHierarchy::new(built);
        let contracted = case.policy.1 % 3 == 0;
        if contracted {
            world.contract(ContractionKind::default()).unwrap();
        }
        // A third of the cases guided by cell landmarks, which repairs keep
        // (lowered where cells open) until a weight makes the map uneven.
        if (case.w + case.h) % 3 == 0 {
            world.add_cell_landmarks(2);
        }
        // Every raise carried through: exact distances to compare.
        world.landmark_scratch.budget = Some(usize::MAX);
        let mut cache = QueryCache::new();
        for (i, step) in case.steps.iter().enumerate() {
            let edits = case.edits(step, &grid);
            let report = world.apply(&edits).unwrap();
            grid = edited(&grid, &edits);
            let ctx = format!("after step {i} ({step:?}), {:?}\n{}", report.dead_ends, grid.to_ascii());
            let mut rebuilt = case.builder(4).build(grid.clone()).unwrap();
            if report.changed_cells.is_empty() {
                continue;
            }
            assert_same(world.hierarchy(), &rebuilt, &ctx);
            // The same landmarks on both: the same searches.
            rebuilt.set_landmarks(world.landmarks().clone());
            let patched = world.contraction_patch_nodes().is_some();
            if world.is_contracted() {
                rebuilt.contract().unwrap();
                if patched {
                    // Patched: the least costs of the rebuilt map's.
                    assert_same_patched_routes(world.hierarchy(), &rebuilt, &ctx);
                } else {
                    prop_assert!(
                        world.contracted().unwrap().graphs() == rebuilt.contracted().unwrap().graphs(),
                        "a kept contraction differs from the rebuilt map's {}", ctx
                    );
                }
            }
            // Same answers on a few queries; guided by cell landmarks, the
            // same reach, never below the optimum, and the guided jump
            // point search's answers optimal.
            let open: Vec<Point> = grid.passable_points().collect();
            let exact = crate::AStar::new(&grid).movement(*world.movement());
            let mut flat = crate::SearchCache::new();
            for k in 0..open.len().min(6) {
                let (s, t) = (open[k * 7 % open.len()], open[(k * 13 + 5) % open.len()]);
                let a = world.find_path(&mut cache, s, t).unwrap();
                let b = rebuilt.find_path(&mut cache, s, t).unwrap();
                if world.has_cell_landmarks() {
                    let best = exact.find_path(&mut flat, s, t).unwrap().path.map(|p| p.cost);
                    let got = a.path.as_ref().map(|p| p.cost);
                    prop_assert_eq!(got.is_some(), best.is_some(), "{} -> {} {}", s, t, ctx);
                    prop_assert!(got >= best, "{} -> {}: below the optimum {}", s, t, ctx);
                    if a.stats.method == crate::Method::Near {
                        prop_assert_eq!(got, best, "{} -> {}: guided, not optimal {}", s, t, ctx);
                    }
                } else if patched {
                    // Routes of the same cost, maybe not the same one.
                    prop_assert_eq!(a.path.is_some(), b.path.is_some(), "{} -> {} {}", s, t, ctx);
                    if let Some(p) = a.path {
                        prop_assert!(p.validate(&grid, world.movement()).is_ok(), "{} -> {} {}", s, t, ctx);
                    }
                } else {
                    prop_assert_eq!(a.path.map(|p| p.cells), b.path.map(|p| p.cells), "{} -> {} {}", s, t, ctx);
                }
            }
            if contracted && !world.is_contracted() {
                world.contract(ContractionKind::default()).unwrap();
            }
        }
        // Saved and loaded before a refresh: the kept landmarks (and cell
        // landmarks) pass the file's checks.
        let bytes = world.hierarchy().to_bytes();
        let back = Hierarchy::from_bytes(grid.clone(), &bytes);
        prop_assert!(back.is_ok(), "{:?}\n{}", back.map(|_| ()), grid.to_ascii());
        world.refresh_landmarks();
        let rebuilt = case.builder(4).build(grid.clone()).unwrap();
        assert_same(world.hierarchy(), &rebuilt, "after refreshing landmarks");
        prop_assert_eq!(world.landmarks(), rebuilt.landmarks(), "after refreshing landmarks");
        // A repaired hierarchy saves (its cell table repacked to canonical
        // form) and loads back, passing every check.
        let bytes = world.hierarchy().to_bytes();
        let back = Hierarchy::from_bytes(grid.clone(), &bytes);
        prop_assert!(back.is_ok(), "{:?}\n{}", back.map(|_| ()), grid.to_ascii());
        prop_assert!(back.unwrap().to_bytes() == bytes);
    }
}

#[test]
fn local_repairs_keep_the_forest() {
    // A wall in an open field and a block opened in a room: both local.
    let grid = Grid::new(64, 48).unwrap();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let wall: Vec<Point> = (10..20)
        .flat_map(|y| (30..40).map(move |x| Point::new(x, y)))
        .collect();
    let report = world.set_passable(&wall, false).unwrap();
    assert_eq!(report.dead_ends, DeadEndRepair::Local);
    assert_eq!(report.changed_cells.len(), 100);
    assert!(!report.landmarks_dropped);
    assert!(world.landmarks_current());
    let one = world.set_passable(&[Point::new(5, 5)], false).unwrap();
    assert_eq!(one.dead_ends, DeadEndRepair::Local);
    assert_eq!(one.clusters, vec![0]);
    let back = world.set_passable(&wall, true).unwrap();
    assert_eq!(back.dead_ends, DeadEndRepair::Local);
    // A no-op changes nothing.
    let none = world.set_passable(&wall, true).unwrap();
    assert!(none.changed_cells.is_empty() && none.clusters.is_empty());
    assert_eq!(none.dead_ends, DeadEndRepair::Unchanged);
}

#[test]
fn cutting_an_island_repairs_in_a_window() {
    let grid = Grid::from_ascii(
        "
        ..........
        ..........
        .....@@@@@
        ..........
        ..........",
    )
    .unwrap();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let (a, b) = (Point::new(0, 0), Point::new(9, 4));
    assert!(world.same_island(a, b));
    let cut: Vec<Point> = (0..5).map(|x| Point::new(x, 2)).collect();
    let report = world.set_passable(&cut, false).unwrap();
    assert_eq!(report.dead_ends, DeadEndRepair::Local);
    assert!(!world.same_island(a, b));
    let mut cache = QueryCache::new();
    assert!(world.find_path(&mut cache, a, b).unwrap().path.is_none());
    let edits: Vec<Edit> = cut.iter().map(|p| Edit::Passable(*p, false)).collect();
    let rebuilt = rebuild_as(&world, edited(&grid, &edits));
    world.refresh_landmarks();
    assert_same(world.hierarchy(), &rebuilt, "after the cut");
}

#[test]
fn windows_past_a_sixteenth_of_the_map_are_not_searched() {
    use super::dead_end_repair::{MAX_WINDOW, SMALL_WINDOW, largest_window};
    assert_eq!(largest_window(1024, 1024), MAX_WINDOW);
    assert_eq!(largest_window(512, 512), 512 * 512 / 16);
    assert_eq!(largest_window(256, 256), SMALL_WINDOW);
    assert_eq!(largest_window(40, 30), SMALL_WINDOW);
    // On the shipped rooms map, no window up to a sixteenth of the map
    // repairs a 6x6 block filling most of a room of 8x8 cells with three
    // doors: the map is recomputed at once, where the whole-map window used
    // to be searched first at twice the cost. Exact either way.
    let grid = shipped_map();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let block: Vec<Point> = (27..33)
        .flat_map(|y| (80..86).map(move |x| Point::new(x, y)))
        .collect();
    assert!(block.iter().all(|p| grid.is_passable(*p)));
    let report = world.set_passable(&block, false).unwrap();
    assert_eq!(report.dead_ends, DeadEndRepair::Recomputed);
    let edits: Vec<Edit> = block.iter().map(|p| Edit::Passable(*p, false)).collect();
    let rebuilt = rebuild_as(&world, edited(&grid, &edits));
    world.refresh_landmarks();
    assert_same(world.hierarchy(), &rebuilt, "after the block");
}

#[test]
fn an_edit_no_window_repairs_searches_half_the_map_at_most() {
    use super::dead_end_repair::window_budget;
    // The shipped rooms map: 6x6 blocks in rooms, a few beside doors, which
    // no window repairs. Each repair searches windows up to half the map's
    // cells (and the last window it began), then recomputes; before the
    // budget, such an edit searched over twice the map's cells first.
    let grid = shipped_map();
    let budget = window_budget(grid.width(), grid.height());
    assert_eq!(budget, grid.len() as u64 / 2);
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let mut recomputed = 0;
    for (x0, y0) in [(153, 96), (20, 20), (100, 140), (200, 60), (60, 200)] {
        let block: Vec<Point> = (y0..y0 + 6)
            .flat_map(|y| (x0..x0 + 6).map(move |x| Point::new(x, y)))
            .filter(|p| grid.is_passable(*p))
            .collect();
        for open in [false, true] {
            let report = world.set_passable(&block, open).unwrap();
            recomputed += (report.dead_ends == DeadEndRepair::Recomputed) as usize;
            assert!(
                world.window.spent <= 2 * budget,
                "{} cells of windows searched around ({x0}, {y0}), budget {budget}",
                world.window.spent
            );
        }
    }
    assert!(recomputed >= 2, "some edits recompute: {recomputed}");
    let rebuilt = rebuild_as(&world, grid);
    world.refresh_landmarks();
    assert_same(
        world.hierarchy(),
        &rebuilt,
        "after the blocks, closed and opened",
    );
}

#[test]
fn a_core_that_changes_recomputes() {
    // Two rooms joined by a door: the left one, the core, shrinks below the
    // right one, so the forest is rooted elsewhere.
    let grid = Grid::from_fn(200, 100, |p| p.x != 100 || p.y == 50).unwrap();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let block: Vec<Point> = (40..60)
        .flat_map(|y| (40..50).map(move |x| Point::new(x, y)))
        .collect();
    let report = world.set_passable(&block, false).unwrap();
    assert_eq!(report.dead_ends, DeadEndRepair::Recomputed);
    let edits: Vec<Edit> = block.iter().map(|p| Edit::Passable(*p, false)).collect();
    let rebuilt = rebuild_as(&world, edited(&grid, &edits));
    world.refresh_landmarks();
    assert_same(world.hierarchy(), &rebuilt, "after the shrink");
}

#[test]
fn bad_edits_change_nothing() {
    let mut world = DynamicHierarchy::new(Hierarchy::build(Grid::new(8, 8).unwrap()).unwrap());
    let before = world.grid().clone();
    let err = world
        .apply(&[
            Edit::Passable(Point::new(1, 1), false),
            Edit::Passable(Point::new(8, 0), false),
        ])
        .unwrap_err();
    assert!(matches!(err, EditError::OffMap { index: 1, .. }), "{err}");
    let err = world
        .apply(&[Edit::Weight(Point::new(1, 1), Weight(0))])
        .unwrap_err();
    assert!(err.to_string().contains("weight 0"), "{err}");
    assert!(*world.grid() == before);
}

#[test]
fn reports_tell_which_paths_to_replan() {
    let mut world = DynamicHierarchy::new(
        HierarchyBuilder::new()
            .cluster_size(8)
            .build(Grid::new(64, 64).unwrap())
            .unwrap(),
    );
    let mut cache = QueryCache::new();
    let top = world
        .find_path(&mut cache, Point::new(1, 1), Point::new(62, 1))
        .unwrap()
        .path
        .unwrap();
    let bottom = world
        .find_path(&mut cache, Point::new(1, 62), Point::new(62, 62))
        .unwrap()
        .path
        .unwrap();
    let report = world.set_passable(&[Point::new(30, 1)], false).unwrap();
    assert!(report.touches(&top.cells) && report.blocks(&top.cells));
    assert!(!report.touches(&bottom.cells) && !report.blocks(&bottom.cells));
}

/// Reveals (x, y, radius) and fields (x, y, radius, peak).
type FogCase = (Case, Vec<(u32, u32, u32)>, Vec<(u32, u32, u32, i32)>);

fn fog_strategy() -> impl Strategy<Value = FogCase> {
    (
        // Hierarchies of one size and of several.
        (case_strategy(), 1u32..=3).prop_map(|(mut case, max_size)| {
            case.max_size = max_size;
            case
        }),
        prop::collection::vec((0u32..32, 0u32..32, 0u32..6), 1..6),
        prop::collection::vec((0u32..32, 0u32..32, 1u32..6, -90i32..400), 0..4),
    )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        max_shrink_iters: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// A player's view after reveals equals a hierarchy built on the map as
    /// the player believes it; cost-layer fields applied to a dynamic
    /// hierarchy equal a rebuild with the combined weights.
    #[test]
    fn fog_and_layers_equal_rebuilt(input in fog_strategy()) {
        let (case, reveals, fields) = input;
        let truth = case.grid();
        let shared = std::sync::Arc::new(case.builder(0).build(truth.clone()).unwrap());
        let mut view = PlayerView::new(shared).unwrap();
        for (x, y, r) in &reveals {
            let c = Point::new(x % case.w, y % case.h);
            view.reveal_radius(c, *r).unwrap();
            // Every cell that differs from open plain ground seen: the view
            // is the truth's hierarchy, shared.
            let all_seen = (0..case.h)
                .flat_map(|y| (0..case.w).map(move |x| Point::new(x, y)))
                .all(|p| view.is_explored(p) || (truth.is_passable(p) && truth.weight(p) == Weight::ONE));
            prop_assert_eq!(view.is_shared(), all_seen);
            let mut believed =
                Grid::from_fn(case.w, case.h, |p| !view.is_explored(p) || truth.is_passable(p)).unwrap();
            for p in (0..case.h).flat_map(|y| (0..case.w).map(move |x| Point::new(x, y))) {
                if view.is_explored(p) {
                    believed.set_weight(p, truth.weight(p)).unwrap();
                }
            }
            let rebuilt = case.builder(0).build(believed).unwrap();
            let context = format!("after revealing {r} around {c}");
            if view.view().is_some() {
                assert_same_view(&view, &rebuilt, &context);
            } else {
                assert_same(&view, &rebuilt, &context);
            }
        }

        let mut layers = CostLayers::new(&truth);
        let heat = layers.add_layer("heat");
        let mut world = DynamicHierarchy::new(case.builder(4).build(truth.clone()).unwrap());
        world.landmark_scratch.budget = Some(usize::MAX);
        for (x, y, r, peak) in &fields {
            let c = Point::new(x % case.w, y % case.h);
            world.apply(&layers.add_field(heat, c, *r, *peak).unwrap()).unwrap();
            let mut g = truth.clone();
            layers.apply_to(&mut g);
            let rebuilt = case.builder(4).build(g).unwrap();
            assert_same(world.hierarchy(), &rebuilt, &format!("after a field of {peak} around {c}"));
        }
        world.apply(&layers.clear(heat).unwrap()).unwrap();
        let rebuilt = case.builder(4).build(truth.clone()).unwrap();
        assert_same(world.hierarchy(), &rebuilt, "after clearing the layer");
    }
}

#[test]
fn queries_in_flight_notice_repairs() {
    use crate::{PathQueue, SlicedQuery};
    let grid = Grid::new(96, 96).unwrap();
    let mut world =
        DynamicHierarchy::new(HierarchyBuilder::new().cluster_size(8).build(grid).unwrap());
    let mut cache = QueryCache::new();
    let mut queue = PathQueue::new();
    let (s1, t1) = (Point::new(0, 0), Point::new(95, 95));
    let a = queue.push(&world, s1, t1).unwrap();
    let b = queue
        .push(&world, Point::new(0, 95), Point::new(95, 0))
        .unwrap();
    queue.update(&world, 3).unwrap();
    // A wall across the first request's straight line, and the second's goal
    // walled in, while the first is in progress.
    let wall: Vec<Point> = (0..90).map(|y| Point::new(48, y)).collect();
    world.set_passable(&wall, false).unwrap();
    world.set_passable(&[Point::new(95, 0)], false).unwrap();
    for _ in 0..10_000 {
        if queue.pending() == 0 {
            break;
        }
        queue.update(&world, 500).unwrap();
    }
    let got = queue.take(a).unwrap().path.unwrap();
    let want = world.find_path(&mut cache, s1, t1).unwrap().path.unwrap();
    assert_eq!(got.cells, want.cells);
    assert!(!got.cells.iter().any(|p| p.x == 48 && p.y < 90));
    assert!(queue.take(b).unwrap().path.is_none(), "goal walled in");

    // A sliced query started before a repair refuses to go on after it.
    let mut q = SlicedQuery::new();
    q.start(&world, s1, t1).unwrap();
    world.set_passable(&[Point::new(10, 10)], false).unwrap();
    let err = q.update(&world, 10).unwrap_err();
    assert!(err.to_string().contains("map changed"), "{err}");
}

#[test]
fn the_first_open_cell_sets_the_smallest_weight() {
    // No passable cell: the map's smallest weight is reported as one; opening
    // a heavier cell must not keep that.
    let mut grid = Grid::from_fn(8, 4, |_| false).unwrap();
    grid.set_weight(Point::new(2, 1), Weight(160)).unwrap();
    grid.set_weight(Point::new(3, 1), Weight(170)).unwrap();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    world
        .set_passable(&[Point::new(2, 1), Point::new(3, 1)], true)
        .unwrap();
    grid.set_passable(Point::new(2, 1), true).unwrap();
    grid.set_passable(Point::new(3, 1), true).unwrap();
    assert_eq!(world.min_weight(), Weight(160));
    world.refresh_landmarks();
    assert_same(
        world.hierarchy(),
        &Hierarchy::build(grid).unwrap(),
        "after opening",
    );
}

/// The shipped rooms map, `data/default.map` (256x256).
fn shipped_map() -> Grid {
    crate::io::read_map(concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.map")).unwrap()
}

/// What the window rule gives with `margins` around `cell`, flipped on a
/// hierarchy of `map`, whether `R` is less than the box (narrowed to the
/// edit's components or cells peeled off), and the cells peeled off; the
/// hierarchy is dropped after.
fn window_outcome(map: &Grid, cell: Point, margins: [u32; 4]) -> (Outcome, bool, Vec<Point>) {
    let movement = Grid::topology_movement(&Movement::default());
    let mut world = DynamicHierarchy::new(Hierarchy::build(map.clone()).unwrap());
    let (grid, dead_ends) = world.h.grid_and_dead_ends_mut();
    let outcome = dead_end_repair::try_window(
        grid,
        &movement,
        dead_ends,
        &mut world.forest,
        &[cell],
        margins,
        &mut world.window,
    );
    (
        outcome,
        !world.window.only.is_empty(),
        world.window.peeled.clone(),
    )
}

/// Closes `cell` of `map` and opens it again: both repairs local, each the
/// rebuild's.
fn assert_toggles_locally(map: &Grid, cell: Point) {
    let mut world = DynamicHierarchy::new(Hierarchy::build(map.clone()).unwrap());
    for open in [false, true] {
        let report = world.set_passable(&[cell], open).unwrap();
        assert_eq!(report.dead_ends, DeadEndRepair::Local);
        let edits = [Edit::Passable(cell, open)];
        let rebuilt = rebuild_as(&world, edited(map, if open { &[] } else { &edits }));
        assert_same(world.hierarchy(), &rebuilt, &format!("cell open: {open}"));
    }
}

/// Where a side of the window runs past a notch in a wall, a ring cell can
/// hang from the window by one move on both sides (here the bottom-left
/// corner inside, the cell above the notch outside), so that no block of
/// the window, nor of a band around it, holds the whole ring. That cell is
/// two steps from the edit: taken out of `R`, it leaves the ring in one
/// block, the window of margin 2 repairs, and the repair is the rebuild's.
#[test]
fn a_ring_cell_hanging_from_a_notch_is_peeled_off_the_window() {
    let map = Grid::from_fn(20, 16, |p| match p.y {
        8 => p.x != 5,
        9 => p.x == 6 || p.x >= 8,
        10.. => p.x >= 8,
        _ => true,
    })
    .unwrap();
    let cell = Point::new(6, 6);
    let (outcome, smaller, peeled) = window_outcome(&map, cell, [2; 4]);
    assert!(matches!(outcome, Outcome::Repaired { .. }), "{outcome:?}");
    assert!(smaller, "R is less than the box");
    assert_eq!(peeled, vec![Point::new(4, 8)]);
    assert_toggles_locally(&map, cell);
}

/// A cell beside a long wall: every box around it also holds cells beyond
/// the wall, which join the cell's side only around the wall's far end. The
/// ring then lies in two components of the box, and neither the box nor a
/// band around it holds it in one block. Narrowed to the edit's component,
/// the smallest box repairs, the other side's cells keep their anchors, and
/// the repair is the rebuild's.
#[test]
fn a_window_narrowed_to_the_edits_component_repairs_beside_a_wall() {
    let map = Grid::from_fn(60, 40, |p| p.y != 10 || p.x > 50).unwrap();
    let cell = Point::new(20, 9);
    let (outcome, narrowed, _) = window_outcome(&map, cell, [2; 4]);
    assert!(matches!(outcome, Outcome::Repaired { .. }), "{outcome:?}");
    assert!(narrowed, "the box was narrowed");
    assert_toggles_locally(&map, cell);
}

/// A block dropped over a long wall, its passable cells on both sides,
/// which join only beyond the wall's far end: a window holding the whole
/// block holds both sides' rings, in no block together short of that end,
/// so the block repairs piece by piece (each side's cells in a window
/// narrowed to that side), closed and opened again, each repair the
/// rebuild's.
#[test]
fn a_block_over_a_wall_repairs_piece_by_piece() {
    let map = Grid::from_fn(200, 40, |p| p.y != 10 || p.x > 190).unwrap();
    let block: Vec<Point> = (7..14)
        .flat_map(|y| (20..27).map(move |x| Point::new(x, y)))
        .filter(|p| map.is_passable(*p))
        .collect();
    assert_eq!(super::adjacent_pieces(&block).len(), 2);
    let mut world = DynamicHierarchy::new(Hierarchy::build(map.clone()).unwrap());
    for open in [false, true] {
        let report = world.set_passable(&block, open).unwrap();
        assert_eq!(report.dead_ends, DeadEndRepair::Local, "open: {open}");
        let edits: Vec<Edit> = block.iter().map(|p| Edit::Passable(*p, open)).collect();
        let rebuilt = rebuild_as(&world, edited(&map, if open { &[] } else { &edits }));
        world.refresh_landmarks();
        assert_same(world.hierarchy(), &rebuilt, &format!("block open: {open}"));
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 150,
        max_shrink_iters: 1_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Blocks of up to 10x10 dropped anywhere on walled maps (rooms, mazes
    /// of one- and two-cell corridors, caves), their passable cells closed,
    /// some opened again later: blocks over walls fall into pieces and are
    /// repaired piece by piece. After every block the repaired hierarchy
    /// equals one built from the changed map.
    #[test]
    fn blocks_over_walls_equal_rebuilt(
        kind in 0usize..4,
        seed in 0u64..1000,
        (w, h) in (20u32..=40, 20u32..=40),
        blocks in prop::collection::vec((0u32..40, 0u32..40, 2u32..=10, any::<bool>()), 1..6),
    ) {
        let (kind, params) = match kind {
            0 => (MapKind::Rooms, MapParams { room_size: 4, ..MapParams::default() }),
            1 => (MapKind::Maze, MapParams::default()),
            2 => (MapKind::Maze, MapParams { corridor_width: 2, ..MapParams::default() }),
            _ => (MapKind::Caves, MapParams::default()),
        };
        let mut grid = mapgen::generate_with(kind, w, h, seed, &params).unwrap();
        let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
        let mut closed: Vec<Vec<Point>> = Vec::new();
        for (i, (x, y, side, reopen)) in blocks.into_iter().enumerate() {
            let cells: Vec<Point> = if reopen && !closed.is_empty() {
                closed.remove(0)
            } else {
                let (x, y) = (x % (w - side + 1), y % (h - side + 1));
                let cells: Vec<Point> = (y..y + side)
                    .flat_map(|y| (x..x + side).map(move |x| Point::new(x, y)))
                    .filter(|p| grid.is_passable(*p))
                    .collect();
                closed.push(cells.clone());
                cells
            };
            let open = !cells.first().is_some_and(|p| grid.is_passable(*p));
            let edits: Vec<Edit> = cells.iter().map(|p| Edit::Passable(*p, open)).collect();
            let report = world.apply(&edits).unwrap();
            grid = edited(&grid, &edits);
            let rebuilt = rebuild_as(&world, grid.clone());
            world.refresh_landmarks();
            assert_same(
                world.hierarchy(),
                &rebuilt,
                &format!("after block {i} (open: {open}), {:?}\n{}", report.dead_ends, grid.to_ascii()),
            );
        }
    }
}

#[test]
fn edits_split_into_pieces_joined_through_eight_neighbours() {
    let cells =
        [(3, 3), (4, 4), (6, 3), (6, 4), (3, 6), (7, 7), (8, 8)].map(|(x, y)| Point::new(x, y));
    let pieces = super::adjacent_pieces(&cells);
    let want: Vec<Vec<Point>> = [
        vec![(3, 3), (4, 4)],
        vec![(6, 3), (6, 4)],
        vec![(3, 6)],
        vec![(7, 7), (8, 8)],
    ]
    .into_iter()
    .map(|v| v.into_iter().map(|(x, y)| Point::new(x, y)).collect())
    .collect();
    assert_eq!(pieces, want);
    assert!(super::adjacent_pieces(&[]).is_empty());
}

/// Two rooms joined by three doors, eight and twelve cells apart, and the
/// cell beside the middle door closed: a window around it holds pieces of
/// both rooms joined by that door alone, and the door, one step from the
/// edit, cannot be taken out of the window. The ring joins in one block
/// only through the other two doors, which a band of 4 cells misses and a
/// thicker one ([`dead_end_repair::THICK_BANDS`]) finds. (Around the
/// window of margin 2 the cell beyond the door is a ring cell that becomes
/// a cut cell, the door hanging from it once its other side is closed: no
/// band helps there.)
#[test]
fn a_thicker_band_finds_a_rooms_other_doors() {
    let map = Grid::from_fn(40, 30, |p| p.x != 20 || [2, 10, 22].contains(&p.y)).unwrap();
    let cell = Point::new(19, 10);
    assert_eq!(window_outcome(&map, cell, [2; 4]).0, Outcome::Grow);
    let (outcome, smaller, peeled) = window_outcome(&map, cell, [6; 4]);
    assert!(matches!(outcome, Outcome::Repaired { .. }), "{outcome:?}");
    assert!(!smaller && peeled.is_empty(), "{peeled:?}");
    assert_toggles_locally(&map, cell);
}

/// A dynamic hierarchy contracted (in place, or by a job run on another
/// thread) searches the contraction until a repair changes the cluster
/// graph (here: transitions closed), which ends it; a job taken before such
/// a repair is stale; contracted again after repairs, it
/// holds the very contraction of a hierarchy built from the edited map, and
/// answers alike, for every unit size. The landmarks stay, kept up to date
/// by the repairs.
#[test]
fn contracted_again_after_repairs_as_a_rebuilt_map() {
    use crate::QueryOptions;
    let grid = mapgen::generate(MapKind::Rooms, 72, 56, 11).unwrap();
    for max_size in [1, 2] {
        let base = HierarchyBuilder::new()
            .cluster_size(8)
            .max_unit_size(max_size)
            .build(grid.clone())
            .unwrap();
        let mut world = DynamicHierarchy::new(base);
        world.contract(ContractionKind::default()).unwrap();
        assert!(world.is_contracted());
        assert_eq!(world.landmarks().count, world.settings().landmarks);
        // Transitions closed: repairs that change the cluster graph.
        let cells: Vec<Point> = world.transitions().step_by(13).collect();
        let report = world.set_passable(&cells[3..5], false).unwrap();
        assert!(
            matches!(report.contraction, ContractionRepair::Patched { .. }),
            "a repair that changes arcs patches the contraction: {:?}",
            report.contraction
        );
        assert!(world.is_contracted());
        let stale = world.contraction_job(ContractionKind::default());
        world.set_passable(&cells[6..7], false).unwrap();
        let stale = std::thread::spawn(move || stale.run())
            .join()
            .unwrap()
            .unwrap();
        assert!(!world.install_contraction(stale));
        assert!(world.is_contracted(), "still patched");
        let mut rebuilt = rebuild_as(&world, world.grid().clone());
        rebuilt.contract().unwrap();
        assert_same_patched_routes(world.hierarchy(), &rebuilt, "patched twice");
        // Saved patched, it loads uncontracted.
        let back =
            Hierarchy::from_bytes(world.grid().clone(), &world.hierarchy().to_bytes()).unwrap();
        assert!(!back.is_contracted());
        let job = world.contraction_job(ContractionKind::default());
        assert!(world.install_contraction(job.run().unwrap()));
        // The patching repairs let the landmarks go; a refresh derives them.
        assert_eq!(world.landmarks().count, 0);
        world.refresh_landmarks();
        assert_eq!(world.landmarks().count, world.settings().landmarks);
        let mut rebuilt = rebuild_as(&world, world.grid().clone());
        rebuilt.contract().unwrap();
        assert_eq!(
            world.contracted().unwrap().graphs(),
            rebuilt.contracted().unwrap().graphs()
        );
        let mut cache = QueryCache::new();
        let open: Vec<Point> = world.grid().passable_points().step_by(41).collect();
        for w in open.windows(2) {
            for size in 1..=max_size {
                let opts = QueryOptions::new().unit_size(size);
                let a = world.find_path_with(&mut cache, w[0], w[1], &opts);
                let b = rebuilt.find_path_with(&mut cache, w[0], w[1], &opts);
                assert_eq!(a.map(|o| o.path), b.map(|o| o.path), "size {size}");
            }
        }
    }
}

/// A contracted map stays contracted through edits that leave the cluster
/// graph's arcs and costs as they were (a cell closed where another
/// least-cost way inside its cluster remains), under a new identity (plans
/// made before must plan again), and answers as the rebuilt map contracted;
/// an edit that changes an arc or a cost patches it (the same least costs
/// as the rebuilt map's). A contraction job taken before the edit installs
/// after it exactly when the edit kept them.
#[test]
fn a_contraction_outlives_repairs_that_keep_the_cluster_graph() {
    let grid = mapgen::generate(MapKind::Rooms, 96, 80, 5).unwrap();
    let mut world = DynamicHierarchy::new(
        HierarchyBuilder::new()
            .cluster_size(16)
            .build(grid.clone())
            .unwrap(),
    );
    world.contract(ContractionKind::default()).unwrap();
    let mut cache = QueryCache::new();
    let open: Vec<Point> = grid.passable_points().collect();
    let (mut kept, mut patched) = (0, 0);
    for p in open.iter().step_by(53).take(40) {
        let now: Vec<Point> = world.grid().passable_points().collect();
        let identity = world.identity();
        let job = world.contraction_job(ContractionKind::default());
        let report = world.set_passable(&[*p], false).unwrap();
        if report.changed_cells.is_empty() {
            continue;
        }
        assert!(world.is_contracted(), "{p}: kept or patched");
        if report.contraction == ContractionRepair::Kept {
            kept += 1;
            assert_ne!(world.identity(), identity, "{p}: a new identity");
            assert!(world.install_contraction(job.run().unwrap()), "{p}");
            let mut rebuilt = rebuild_as(&world, world.grid().clone());
            rebuilt.contract().unwrap();
            assert!(world.contracted().unwrap().graphs() == rebuilt.contracted().unwrap().graphs());
            for w in now
                .windows(2)
                .step_by(97)
                .filter(|w| w.iter().all(|q| q != p))
            {
                let a = world.find_path(&mut cache, w[0], w[1]).unwrap();
                let b = rebuilt.find_path(&mut cache, w[0], w[1]).unwrap();
                assert_eq!(a.path, b.path, "after closing {p}");
            }
        } else {
            patched += 1;
            assert!(
                matches!(report.contraction, ContractionRepair::Patched { .. }),
                "{p}: {:?}",
                report.contraction
            );
            assert!(!world.install_contraction(job.run().unwrap()), "{p}");
            let mut rebuilt = rebuild_as(&world, world.grid().clone());
            rebuilt.contract().unwrap();
            assert_same_patched_routes(world.hierarchy(), &rebuilt, &format!("after closing {p}"));
            world.contract(ContractionKind::default()).unwrap();
        }
    }
    assert!(kept >= 5 && patched >= 5, "kept {kept}, patched {patched}");
}

/// While a contraction is kept for repairs, repairs let the landmark
/// distances go (no contracted query reads them) and keep patching; the
/// repair that ends the contraction derives them again, exactly as a build
/// of the map as it then is, for the A* that runs until contracted again.
/// A save in between writes the landmarks a build would.
#[test]
fn landmarks_wait_for_the_repair_that_ends_a_contraction() {
    let grid = Grid::from_fn(256, 256, |_| true).unwrap();
    let mut world = DynamicHierarchy::new(
        HierarchyBuilder::new()
            .cluster_size(16)
            .build(grid.clone())
            .unwrap(),
    );
    assert!(world.landmarks().count > 0);
    world.contract(ContractionKind::default()).unwrap();
    let report = world.set_passable(&[Point::new(16, 5)], false).unwrap();
    assert!(
        matches!(report.contraction, ContractionRepair::Patched { .. }),
        "{:?}",
        report.contraction
    );
    assert_eq!(world.landmarks().count, 0, "let go of");
    assert!(world.landmarks_current());
    let rebuilt = rebuild_as(&world, world.grid().clone());
    let loaded = Hierarchy::from_bytes(world.grid().clone(), &world.to_bytes()).unwrap();
    assert_eq!(loaded.landmarks(), rebuilt.landmarks(), "the save's");
    // A refresh derives them; the next repair lets them go again.
    world.refresh_landmarks();
    assert_eq!(world.landmarks(), rebuilt.landmarks());
    assert!(world.is_contracted());
    world.set_passable(&[Point::new(16, 5)], true).unwrap();
    assert_eq!(world.landmarks().count, 0);
    // Every vertical border split into one-cell entrances: thousands of new
    // transitions, past what a patch takes.
    let cells: Vec<Point> = (1..16)
        .flat_map(|i| (0..256).step_by(2).map(move |y| Point::new(16 * i, y)))
        .collect();
    let report = world.set_passable(&cells, false).unwrap();
    assert_eq!(report.contraction, ContractionRepair::Ended);
    assert!(!world.is_contracted());
    let rebuilt = rebuild_as(&world, world.grid().clone());
    assert!(world.landmarks().count > 0);
    assert_eq!(world.landmarks(), rebuilt.landmarks());
    assert!(world.landmarks_current());
    let mut cache = QueryCache::new();
    for (s, t) in [((1, 1), (250, 250)), ((200, 3), (5, 240))] {
        let (s, t) = (Point::new(s.0, s.1), Point::new(t.0, t.1));
        let a = world.find_path(&mut cache, s, t).unwrap().path.unwrap();
        let b = rebuilt.find_path(&mut cache, s, t).unwrap().path.unwrap();
        assert_eq!(a, b, "{s} -> {t}");
    }
}

/// On a map of scattered obstacles (generated, 512x512, a quarter blocked)
/// every side of a window crosses pockets and notches, whose ring cells hang
/// off the window's main block, so that no window held the ring in one block
/// and about half of the one-cell edits recomputed the map (88 of 200 on
/// random512-25-0; 28 of these 40 without peeling). Taken out of the window
/// (`dead_end_repair::peel_hanging`), they leave every edit here repaired
/// locally, the result the rebuild's.
#[test]
fn pieces_hanging_off_the_ring_are_peeled_off_on_scattered_obstacles() {
    let grid = mapgen::generate(MapKind::Random, 512, 512, 5).unwrap();
    let mut world = DynamicHierarchy::new(Hierarchy::build(grid.clone()).unwrap());
    let mut state = 12345u64;
    let mut cells = Vec::new();
    while cells.len() < 20 {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let p = Point::new((state >> 33) as u32 % 512, (state >> 45) as u32 % 512);
        if grid.is_passable(p) {
            cells.push(p);
        }
    }
    let mut recomputed = Vec::new();
    for p in &cells {
        for open in [false, true] {
            let report = world.set_passable(&[*p], open).unwrap();
            if report.dead_ends == DeadEndRepair::Recomputed {
                recomputed.push((*p, open));
            }
        }
    }
    assert!(recomputed.is_empty(), "recomputed: {recomputed:?}");
    let rebuilt = rebuild_as(&world, grid);
    world.refresh_landmarks();
    assert_same(world.hierarchy(), &rebuilt, "after the edits");
}

/// On the shipped rooms map, a cell in a room's corner (89, 178) and one
/// beside a wall (157, 193): in the windows around them (margins 30 and
/// 14) the block holding most ring cells is another block of rooms, and
/// the piece hanging off it that holds the edit's block cannot be peeled
/// off the window. Rooted at the largest block beside the edit instead
/// (`dead_end_repair::hanging_pieces`), every other piece holding ring
/// cells is peeled off, the cells those pieces hung from join the ring,
/// and the repair is local, the rebuild's. Both recomputed the map before.
#[test]
fn pieces_are_peeled_off_the_edits_room_when_the_ring_is_mostly_elsewhere() {
    let grid = shipped_map();
    for cell in [Point::new(89, 178), Point::new(157, 193)] {
        assert!(grid.is_passable(cell));
        assert_toggles_locally(&grid, cell);
    }
}
