//! Property tests of offline preprocessing (islands, dead ends, entrances, the
//! cluster graph, the saved file) on random grids, under every movement rule,
//! with terrain weights on and off, against plain references (the reference
//! Dijkstra is `common::reference`'s):
//!
//! * islands: `same_island` / `island_of` agree with flat Dijkstra reachability
//!   (`Dijkstra::distance_field`);
//! * abstract edges: an edge inside a cluster costs exactly the least cost
//!   between its ends *within the cluster* (a reference Dijkstra over only the
//!   cluster's cells), every pair of transitions the reference connects inside
//!   a cluster has its edge, and an edge between clusters is one legal move
//!   costing `path_cost`;
//! * dead ends: searching only the cells `may_use(p, s, t)` allows never
//!   changes the optimal cost from `s` to `t`;
//! * the file: save -> load -> save is byte-identical, any flipped bit,
//!   truncation or appended byte is rejected, and another map is
//!   `MapMismatch`.
//!
//! Every failure prints the map as ASCII (`grid.to_ascii()`, with marks), its
//! weights, cluster size, entrance policy and movement rule.
//!
//! Plus deterministic tests: every byte of a saved file flipped, and (when
//! `../shared/movingai` is present) the dead-end share on real maps, printed
//! per set with `--nocapture`.

use crate::common;

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::fmt;

use crate::common::reference::{Distances, TestMap, dijkstra, dijkstra_within, movements};
use proptest::prelude::*;
use proptest::sample::Index;
use tierpath::mapgen::{self, MapKind, MapParams};
use tierpath::{
    Cost, Dijkstra, EntrancePolicy, Grid, Hierarchy, HierarchyBuilder, LoadError, Movement, Point,
    SearchCache, Weight, path_cost,
};

const MAX_SIDE: u32 = 40;
const CASES: u32 = 256;

// ----- the test map -----

/// How the passable cells were made (shown in failure messages).
#[derive(Debug, Clone, Copy)]
#[allow(dead_code)] // the fields are read through `Debug`
enum Shape {
    /// Independent random obstacles (shrinks well).
    Noise,
    /// A generated map (corridors, rooms, caves: many dead ends).
    Generated(MapKind, u64),
}

/// A random map with its build settings.
#[derive(Clone)]
struct Case {
    map: TestMap,
    shape: Shape,
    cluster_size: u32,
    policy: EntrancePolicy,
    keep_paths: bool,
    /// Landmarks for the planner's bound (saved with the file).
    landmarks: u32,
    /// Query picks: (start, goal, start from a dead end when there is one).
    pairs: Vec<(Index, Index, bool)>,
    /// Bytes of the saved file to damage: (position, bit).
    flips: Vec<(Index, u8)>,
    /// Where to cut the saved file.
    cut: Index,
    /// A cell to change for the foreign-map check.
    foreign: Index,
}

impl Case {
    fn grid(&self) -> Grid {
        self.map.to_grid()
    }

    fn build(&self, m: Movement) -> Hierarchy {
        HierarchyBuilder::new()
            .cluster_size(self.cluster_size)
            .movement(m)
            .entrance_policy(self.policy)
            .keep_paths(self.keep_paths)
            .landmarks(self.landmarks)
            .build(self.grid())
            .expect("valid settings")
    }

    /// The map as ASCII (`.` and `@`, as `grid.to_ascii()`) with marks, its
    /// weights, and the settings.
    fn render(&self, marks: &[(Point, char)]) -> String {
        format!(
            "\n{}x{} map ({:?}), cluster size {}, {:?}, keep_paths {}, {} landmarks\n{}",
            self.map.width,
            self.map.height,
            self.shape,
            self.cluster_size,
            self.policy,
            self.keep_paths,
            self.landmarks,
            self.map.render(marks)
        )
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(&[]))
    }
}

/// Random cases. Noise maps take their cells from a fixed sheet of which the
/// map is the top-left window, so shrinking the size keeps the other cells.
fn case_strategy() -> impl Strategy<Value = Case> {
    let cell = (0u32..100, 0u32..100, 50u16..400);
    let side = MAX_SIDE as usize;
    let shape = prop_oneof![
        3 => Just(None),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Maze, s))),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Rooms, s))),
        1 => (0u64..1000).prop_map(|s| Some((MapKind::Caves, s))),
    ];
    (
        (1..=MAX_SIDE, 1..=MAX_SIDE, 0u32..=45, any::<bool>(), shape),
        (2u32..=10, 1u32..=8, 0u32..=6, any::<bool>(), 0u32..=16),
        prop::collection::vec((any::<Index>(), any::<Index>(), any::<bool>()), 6),
        prop::collection::vec((any::<Index>(), 0u8..8), 4),
        (any::<Index>(), any::<Index>()),
        prop::collection::vec(cell, side * side),
    )
        .prop_map(
            move |(
                (w, h, density, weighted, shape),
                (cluster_size, single_below, max_gap, keep_paths, landmarks),
                pairs,
                flips,
                (cut, foreign),
                sheet,
            )| {
                let at = |x: u32, y: u32| sheet[y as usize * side + x as usize];
                let generated = shape.map(|(kind, seed)| {
                    let params = MapParams {
                        room_size: 3,
                        corridor_width: 1,
                        ..MapParams::default()
                    };
                    mapgen::generate_with(kind, w, h, seed, &params).expect("valid size")
                });
                let mut open = Vec::with_capacity((w * h) as usize);
                let mut weight = Vec::with_capacity((w * h) as usize);
                for y in 0..h {
                    for x in 0..w {
                        let (block, heavy, wt) = at(x, y);
                        open.push(match &generated {
                            Some(g) => g.is_passable(Point::new(x, y)),
                            None => 99 - block >= density,
                        });
                        weight.push(if weighted && heavy >= 70 {
                            wt
                        } else {
                            Weight::ONE.0
                        });
                    }
                }
                Case {
                    map: TestMap {
                        width: w,
                        height: h,
                        open,
                        weight,
                    },
                    shape: shape.map_or(Shape::Noise, |(k, s)| Shape::Generated(k, s)),
                    cluster_size,
                    policy: EntrancePolicy {
                        single_below,
                        max_gap,
                    },
                    keep_paths,
                    landmarks,
                    pairs,
                    flips,
                    cut,
                    foreign,
                }
            },
        )
}

fn config() -> ProptestConfig {
    ProptestConfig {
        // `PROPTEST_CASES` overrides the default, for deeper runs.
        cases: common::env_number("PROPTEST_CASES", CASES),
        max_shrink_iters: 5_000,
        // Tests have no lib.rs beside them to anchor a regressions file.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Island labels agree with flat Dijkstra reachability; `island_of` is
    /// `None` exactly on blocked (and off-map) cells; the count is right.
    #[test]
    fn islands_match_reachability(case in case_strategy()) {
        let grid = case.grid();
        let mut cache = SearchCache::new();
        for m in movements() {
            let h = case.build(m);
            let ctx = |msg: String, marks: &[(Point, char)]| {
                format!("{msg} under {m:?}{}", case.render(marks))
            };
            // One representative per label, and None exactly on blocked cells.
            let mut reps: HashMap<u32, Point> = HashMap::new();
            for y in 0..case.map.height {
                for x in 0..case.map.width {
                    let p = Point::new(x, y);
                    let label = h.island_of(p);
                    prop_assert_eq!(
                        label.is_some(),
                        grid.is_passable(p),
                        "{}",
                        ctx(format!("island_of({p}) = {label:?}"), &[(p, 'X')])
                    );
                    if let Some(l) = label {
                        reps.entry(l).or_insert(p);
                    }
                }
            }
            prop_assert_eq!(h.island_of(Point::new(case.map.width, 0)), None);
            prop_assert_eq!(h.island_of(Point::new(0, case.map.height)), None);
            prop_assert_eq!(
                h.stats().islands as usize,
                reps.len(),
                "{}",
                ctx("island count".into(), &[])
            );
            // A cell is reachable from its label's representative, and from no
            // other's; same_island says the same.
            let dijkstra = Dijkstra::new(&grid).movement(m);
            for (label, rep) in &reps {
                let field = dijkstra.distance_field(&mut cache, *rep).unwrap();
                for p in case.map.passable_points() {
                    let reachable = field.get(p).is_some();
                    let same_label = h.island_of(p) == Some(*label);
                    prop_assert_eq!(
                        reachable,
                        same_label,
                        "{}",
                        ctx(
                            format!("{p} reachable from {rep} (R): {reachable}, same label: {same_label}"),
                            &[(*rep, 'R'), (p, 'P')]
                        )
                    );
                    prop_assert_eq!(h.same_island(*rep, p), reachable);
                }
            }
        }
    }

    /// Every abstract edge is exact: inside a cluster, the least cost within
    /// the cluster; between clusters, one legal move. Over the edges, every
    /// pair of transitions of a cluster is as far apart as inside the cluster.
    #[test]
    fn abstract_edges_are_exact_and_complete(case in case_strategy()) {
        let grid = case.grid();
        for m in movements() {
            let h = case.build(m);
            let layout = *h.layout();
            let ctx = |msg: String, marks: &[(Point, char)]| {
                format!("{msg} under {m:?}{}", case.render(marks))
            };
            let transitions: Vec<Point> = h.transitions().collect();
            let tset: HashSet<Point> = transitions.iter().copied().collect();
            prop_assert_eq!(tset.len(), transitions.len(), "{}", ctx("duplicate transitions".into(), &[]));
            prop_assert_eq!(h.stats().nodes as usize, transitions.len());
            for t in &transitions {
                prop_assert!(grid.is_passable(*t), "{}", ctx(format!("transition {t} blocked"), &[(*t, 'X')]));
            }

            let edges: Vec<(Point, Point, Cost)> = h.abstract_edges().collect();
            prop_assert_eq!(
                (h.stats().intra_edges + h.stats().inter_edges) as usize,
                edges.len(),
                "{}",
                ctx("edge count".into(), &[])
            );
            let mut by_pair: HashMap<(Point, Point), Cost> = HashMap::new();
            let mut in_cluster: HashMap<Point, Distances> = HashMap::new();
            let within = |c: u32, from: Point| {
                let (x0, y0, x1, y1) = layout.bounds(c);
                dijkstra_within(&case.map, &m, from, |p| {
                    p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1
                })
            };
            let (mut intra, mut inter) = (0u64, 0u64);
            for (a, b, cost) in &edges {
                let marks = [(*a, 'A'), (*b, 'B')];
                prop_assert!(
                    tset.contains(a) && tset.contains(b),
                    "{}",
                    ctx(format!("edge {a} -> {b} joins a non-transition"), &marks)
                );
                prop_assert!(a != b, "{}", ctx(format!("self-loop at {a}"), &marks));
                prop_assert!(
                    by_pair.insert((*a, *b), *cost).is_none(),
                    "{}",
                    ctx(format!("two edges {a} -> {b}"), &marks)
                );
                let (ca, cb) = (layout.cluster_of(*a), layout.cluster_of(*b));
                if ca == cb {
                    intra += 1;
                    let dist = in_cluster.entry(*a).or_insert_with(|| within(ca, *a));
                    let want = dist.get(*b);
                    prop_assert_eq!(
                        Some(cost.0),
                        want,
                        "{}",
                        ctx(format!("intra-cluster edge {a} -> {b} (cluster {ca} {:?})", layout.bounds(ca)), &marks)
                    );
                } else {
                    inter += 1;
                    prop_assert!(
                        a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1,
                        "{}",
                        ctx(format!("inter-cluster edge {a} -> {b} is not one move"), &marks)
                    );
                    let want = path_cost(&grid, &m, &[*a, *b]);
                    prop_assert_eq!(
                        Ok(*cost),
                        want.clone(),
                        "{}",
                        ctx(format!("inter-cluster edge {a} -> {b}"), &marks)
                    );
                }
            }
            prop_assert_eq!(intra, h.stats().intra_edges, "{}", ctx("intra edge count".into(), &[]));
            prop_assert_eq!(inter, h.stats().inter_edges, "{}", ctx("inter edge count".into(), &[]));
            // The move between clusters is legal both ways: both edges exist.
            for (a, b) in by_pair.keys() {
                if layout.cluster_of(*a) != layout.cluster_of(*b) {
                    prop_assert!(
                        by_pair.contains_key(&(*b, *a)),
                        "{}",
                        ctx(format!("inter edge {a} -> {b} without its reverse"), &[(*a, 'A'), (*b, 'B')])
                    );
                }
            }
            // Completeness inside each cluster: the intra-cluster edges may
            // leave out an edge another transition matches exactly (a
            // dominated edge), but the shortest route over them between two
            // transitions is the least cost within the cluster, and exists
            // exactly when a path does.
            for a in &transitions {
                let c = layout.cluster_of(*a);
                let dist = in_cluster.entry(*a).or_insert_with(|| within(c, *a)).clone();
                // Dijkstra over this cluster's intra edges, from `a`.
                let mut best: HashMap<Point, u64> = HashMap::from([(*a, 0)]);
                let mut open = BinaryHeap::from([Reverse((0u64, *a))]);
                while let Some(Reverse((d, u))) = open.pop() {
                    if best.get(&u).is_some_and(|b| *b < d) {
                        continue;
                    }
                    for ((x, y), w) in &by_pair {
                        if *x == u && layout.cluster_of(*y) == c {
                            let nd = d + w.0;
                            if best.get(y).is_none_or(|b| nd < *b) {
                                best.insert(*y, nd);
                                open.push(Reverse((nd, *y)));
                            }
                        }
                    }
                }
                for b in &transitions {
                    if a == b || layout.cluster_of(*b) != c {
                        continue;
                    }
                    prop_assert_eq!(
                        best.get(b).copied(),
                        dist.get(*b),
                        "{}",
                        ctx(format!("intra-cluster distance {a} -> {b} over the edges"), &[(*a, 'A'), (*b, 'B')])
                    );
                }
            }
        }
    }

    /// Ignoring the cells `may_use` rules out never changes an optimal cost,
    /// and the dead-end tags are consistent.
    #[test]
    fn dead_end_pruning_is_safe(case in case_strategy()) {
        let cells = case.map.passable_points();
        prop_assume!(!cells.is_empty());
        for m in movements() {
            let h = case.build(m);
            let ctx = |msg: String, marks: &[(Point, char)]| {
                format!("{msg} under {m:?}{}", case.render(marks))
            };
            let dead: Vec<Point> = cells.iter().copied().filter(|p| h.in_dead_end(*p)).collect();
            prop_assert_eq!(
                dead.len() as u64,
                h.stats().dead_end_cells,
                "{}",
                ctx("dead-end count".into(), &[])
            );
            for (si, ti, from_dead) in &case.pairs {
                let s = if *from_dead && !dead.is_empty() {
                    dead[si.index(dead.len())]
                } else {
                    cells[si.index(cells.len())]
                };
                let t = cells[ti.index(cells.len())];
                let full = dijkstra(&case.map, &m, s);
                let Some(optimal) = full.get(t) else {
                    prop_assert!(!h.same_island(s, t));
                    continue;
                };
                let marks = [(s, 'S'), (t, 'T')];
                prop_assert!(h.may_use(s, s, t) && h.may_use(t, s, t), "{}", ctx("an endpoint is ruled out".into(), &marks));
                let mut allowed = vec![false; case.map.open.len()];
                for p in &cells {
                    let usable = h.may_use(*p, s, t);
                    let reachable = full.get(*p).is_some();
                    if usable {
                        prop_assert!(reachable, "{}", ctx(format!("{p} (P) may be used but is on another island"), &[(s, 'S'), (t, 'T'), (*p, 'P')]));
                    }
                    if reachable && !h.in_dead_end(*p) {
                        prop_assert!(usable, "{}", ctx(format!("{p} (P) is in no dead end yet ruled out"), &[(s, 'S'), (t, 'T'), (*p, 'P')]));
                    }
                    allowed[case.map.idx(p.x, p.y)] = usable;
                }
                let pruned = dijkstra_within(&case.map, &m, s, |p| allowed[case.map.idx(p.x, p.y)]);
                let got = pruned.get(t);
                if got != Some(optimal) {
                    let mut marks = marks.to_vec();
                    marks.extend(
                        cells
                            .iter()
                            .filter(|p| !allowed[case.map.idx(p.x, p.y)] && **p != s && **p != t)
                            .map(|p| (*p, 'x')),
                    );
                    prop_assert!(
                        false,
                        "{}",
                        ctx(format!("pruned cost {got:?} != optimal {optimal} from S to T (x = ruled out)"), &marks)
                    );
                }
            }
        }
    }

    /// save -> load -> save is identical; damage, truncation, an appended
    /// byte and another map are all rejected.
    #[test]
    fn saved_files_round_trip_and_reject_damage(case in case_strategy(), mi in 0usize..5) {
        let m = movements()[mi];
        let h = case.build(m);
        let grid = case.grid();
        let ctx = |msg: String| format!("{msg} under {m:?}{}", case.render(&[]));
        let bytes = h.to_bytes();
        let back = Hierarchy::from_bytes(grid.clone(), &bytes)
            .map_err(|e| TestCaseError::fail(ctx(format!("load failed: {e}"))))?;
        prop_assert!(back.to_bytes() == bytes, "{}", ctx("reloaded file differs".into()));
        prop_assert_eq!(back.stats(), h.stats());
        prop_assert_eq!(back.settings(), h.settings());
        prop_assert_eq!(
            back.abstract_edges().collect::<Vec<_>>(),
            h.abstract_edges().collect::<Vec<_>>()
        );
        for p in grid.passable_points() {
            prop_assert_eq!(back.island_of(p), h.island_of(p));
            prop_assert_eq!(back.in_dead_end(p), h.in_dead_end(p));
        }

        for (at, bit) in &case.flips {
            let i = at.index(bytes.len());
            let mut bad = bytes.clone();
            bad[i] ^= 1 << bit;
            prop_assert!(
                Hierarchy::from_bytes(grid.clone(), &bad).is_err(),
                "{}",
                ctx(format!("flipping bit {bit} of byte {i} of {} went unnoticed", bytes.len()))
            );
        }
        let cut = case.cut.index(bytes.len());
        prop_assert!(
            Hierarchy::from_bytes(grid.clone(), &bytes[..cut]).is_err(),
            "{}",
            ctx(format!("truncation to {cut} of {} bytes went unnoticed", bytes.len()))
        );
        let mut longer = bytes.clone();
        longer.push(0);
        prop_assert!(Hierarchy::from_bytes(grid.clone(), &longer).is_err(), "{}", ctx("appended byte went unnoticed".into()));

        // Another map: one cell toggled, one weight changed, another size.
        let n = (case.map.width * case.map.height) as usize;
        let p = Point::new(
            (case.foreign.index(n) as u32) % case.map.width,
            (case.foreign.index(n) as u32) / case.map.width,
        );
        let mut toggled = grid.clone();
        toggled.set_passable(p, !grid.is_passable(p)).unwrap();
        let mut reweighted = grid.clone();
        if let Some(q) = grid.passable_points().next() {
            let w = if grid.weight(q) == Weight(250) { Weight(251) } else { Weight(250) };
            reweighted.set_weight(q, w).unwrap();
        }
        let resized = Grid::new(case.map.width + 1, case.map.height).unwrap();
        for (what, other) in [("toggled cell", Some(toggled)), ("changed weight", (grid.passable_count() > 0).then_some(reweighted)), ("other size", Some(resized))] {
            let Some(other) = other else { continue };
            let got = Hierarchy::from_bytes(other, &bytes);
            prop_assert!(
                matches!(got, Err(LoadError::MapMismatch { .. })),
                "{}",
                ctx(format!("{what} at {p}: expected MapMismatch, got {:?}", got.map(|_| "a hierarchy")))
            );
        }
    }
}

/// A fixed weighted map with corridors, rooms and islands.
fn fixed_grid() -> Grid {
    let params = MapParams {
        room_size: 4,
        ..MapParams::default()
    };
    let mut g = mapgen::generate_with(MapKind::Mixed, 40, 30, 7, &params).unwrap();
    for (i, p) in g
        .passable_points()
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
    {
        if i % 5 == 0 {
            g.set_weight(p, Weight(50 + (i % 300) as u16)).unwrap();
        }
    }
    g
}

/// Every single-bit flip of every byte of a saved file is rejected (with and
/// without the cell paths kept).
#[test]
fn every_flipped_byte_is_rejected() {
    let grid = fixed_grid();
    for keep in [false, true] {
        let h = HierarchyBuilder::new()
            .cluster_size(8)
            .keep_paths(keep)
            .build(grid.clone())
            .unwrap();
        let bytes = h.to_bytes();
        let mut bad = bytes.clone();
        for i in 0..bytes.len() {
            for bit in [0u8, 7] {
                bad[i] ^= 1 << bit;
                assert!(
                    Hierarchy::from_bytes(grid.clone(), &bad).is_err(),
                    "flipping bit {bit} of byte {i} of {} (keep_paths {keep}) went unnoticed",
                    bytes.len()
                );
                bad[i] = bytes[i];
            }
        }
        for cut in 0..bytes.len() {
            assert!(
                Hierarchy::from_bytes(grid.clone(), &bytes[..cut]).is_err(),
                "truncation to {cut} went unnoticed"
            );
        }
    }
}

/// On real maps: the dead-end share of a few maps of each set (printed with
/// `--nocapture`); on the corridor-width-1 mazes, most cells are in dead ends.
#[test]
fn dead_end_share_on_benchmark_maps() {
    if common::movingai_root().is_none() {
        return;
    }
    for (set, n) in [
        ("dao", 8),
        ("sc1", 3),
        ("mazes", 12),
        ("rooms", 8),
        ("random", 4),
    ] {
        let files = common::map_files(set);
        let picked = common::sample(&files, n, common::seed_of(set));
        let mut shares = Vec::new();
        for f in &picked {
            let grid = tierpath::io::read_map(f).unwrap_or_else(|e| panic!("{e}"));
            let h = Hierarchy::build(grid).unwrap();
            let share = h.stats().dead_end_share();
            let name = common::short_name(f);
            shares.push(format!("{name} {:.1}%", 100.0 * share));
            if name.starts_with("maze512-1-") {
                assert!(
                    share > 0.5,
                    "{name}: only {:.1}% of cells in dead ends",
                    100.0 * share
                );
            }
        }
        println!("dead-end share, {set}: {}", shares.join(", "));
    }
}
