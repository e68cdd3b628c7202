//! Forging tests: real hierarchies saved with one field rewritten (every
//! array and every setting, the size annotations and settings of
//! hierarchies built for several unit sizes among them: random values,
//! boundary values, targeted forgeries), the checksum remade by saving.
//! Each forged file must either be refused at load time with an error
//! naming the content, or load into a hierarchy on which every operation
//! behaves: `find_path` (path validated, reachability and cost bound
//! checked against exact A*), `plan`, `nearest`, a sliced query, a repair
//! through `DynamicHierarchy` and `refresh_landmarks`; on a hierarchy for
//! several sizes, for every size it serves, `find_path_with`, `plan_with`,
//! `nearest_with` and `SlicedQuery::start_with` (paths checked with
//! `validate_sized_path`, reachability and cost bound against the size's
//! exact A*). Operations run in a thread under a generous bound for hangs
//! (a bound for "hang", not a timing assertion).

use std::sync::mpsc;
use std::time::Duration;

use super::*;
use crate::packed::{Column32, Column64};
use crate::preprocess::NO_NODE;
use crate::preprocess::{ClusterGraph, SizeTransitions};
use crate::tiled::TileColumn;
use crate::{AStar, DynamicHierarchy, Movement, Point, QueryCache, SearchCache, SlicedQuery};
use crate::{Connectivity, CornerRule, QueryOptions, validate_sized_path};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// A random value, a boundary value, or a small one.
    fn value(&mut self, like: u64) -> u64 {
        match self.below(8) {
            0 => 0,
            1 => 1,
            2 => u64::MAX,
            3 => u64::MAX - 1,
            4 => u32::MAX as u64,
            5 => like.wrapping_add(1),
            6 => like.wrapping_sub(1),
            _ => self.next() >> self.below(64),
        }
    }
}

fn set_col64(c: &mut Column64, i: usize, v: u64) {
    let mut all: Vec<u64> = (0..c.len()).map(|j| c.get(j)).collect();
    if let Some(x) = all.get_mut(i) {
        *x = v;
    }
    *c = Column64::pack(all);
}

/// Rewrites one element of `v` (or changes its length).
fn poke(v: &mut Vec<u32>, rng: &mut Rng) {
    match rng.below(6) {
        0 => {
            v.pop();
        }
        1 => v.push(rng.value(0) as u32),
        _ if !v.is_empty() => {
            let i = rng.below(v.len());
            v[i] = rng.value(v[i] as u64) as u32;
        }
        _ => {}
    }
}

/// Rewrites one size annotation of `v` (or changes its length).
fn poke_sizes(v: &mut Vec<u8>, max: u8, rng: &mut Rng) {
    let value = |rng: &mut Rng| {
        let k = [0, 1, 2, max.wrapping_sub(1), max, max.wrapping_add(1), 255];
        k[rng.below(k.len())]
    };
    match rng.below(6) {
        0 => {
            v.pop();
        }
        1 => v.push(value(rng)),
        _ if !v.is_empty() => {
            let i = rng.below(v.len());
            v[i] = value(rng);
        }
        _ => {}
    }
}

/// Sorts the edges of node `v` as a build does: by the size they serve,
/// largest first, then by cost.
pub(super) fn resort(g: &mut ClusterGraph, v: usize) {
    let (a, b) = (g.edge_first[v] as usize, g.edge_first[v + 1] as usize);
    let mut costs: Vec<u64> = (0..g.edges()).map(|e| g.edge_cost.get(e)).collect();
    // Each edge's stored moves travel with it.
    let moves = |e: usize| g.edge_path(e).map_or(Vec::new(), <[u8]>::to_vec);
    let mut mine: Vec<(u8, u64, u32, Vec<u8>)> = (a..b)
        .map(|e| (g.edge_clear[e], costs[e], g.edge_to[e], moves(e)))
        .collect();
    mine.sort_by_key(|(size, cost, to, _)| (std::cmp::Reverse(*size), *cost, *to));
    let mut at = g.path_first.get(a).map_or(0, |p| *p as usize);
    for (i, (size, cost, to, codes)) in mine.into_iter().enumerate() {
        (g.edge_clear[a + i], costs[a + i], g.edge_to[a + i]) = (size, cost, to);
        if !g.path_first.is_empty() {
            g.path_codes[at..at + codes.len()].copy_from_slice(&codes);
            at += codes.len();
            g.path_first[a + i + 1] = at as u32;
        }
    }
    g.edge_cost = Column64::pack(costs);
}

/// The source node of every edge.
fn edge_sources(g: &ClusterGraph) -> Vec<usize> {
    (0..g.edge_first.len() - 1)
        .flat_map(|v| (g.edge_first[v]..g.edge_first[v + 1]).map(move |_| v))
        .collect()
}

/// The number of forgery kinds [`forge`] knows.
const KINDS: usize = 40;

/// `h` with one field forged by kind `kind`.
fn forge(h: &Hierarchy, kind: usize, rng: &mut Rng) -> Hierarchy {
    let mut f = h.clone();
    let nodes = h.entrances.cells.len();
    let s = &mut f.settings;
    match kind {
        0 => s.cluster_size = [0, 1, 2, 3, 7, 9, 1024, 1025, rng.value(8) as u32][rng.below(9)],
        1 => {
            s.movement.connectivity = match s.movement.connectivity {
                Connectivity::Four => Connectivity::Eight,
                Connectivity::Eight => Connectivity::Four,
            }
        }
        2 => {
            s.movement.corners =
                [CornerRule::Never, CornerRule::IfOneFree, CornerRule::Always][rng.below(3)]
        }
        3 => s.movement.straight = rng.value(s.movement.straight as u64) as u32,
        4 => s.movement.diagonal = rng.value(s.movement.diagonal as u64) as u32,
        5 => s.entrances.single_below = rng.value(2) as u32,
        6 => s.entrances.max_gap = [0, 1, 2, rng.value(8) as u32][rng.below(4)],
        7 => s.keep_paths = !s.keep_paths,
        8 => s.landmarks = rng.value(4) as u32,
        9 => {
            let cells = h.grid.len();
            let i = rng.below(cells);
            let was = f.dead_ends.cell_anchor.get(i);
            let v = [
                NO_NODE,
                0,
                rng.value(was as u64) as u32,
                was.wrapping_add(1),
            ][rng.below(4)];
            f.dead_ends.cell_anchor.set(i, v);
        }
        10 => poke(&mut f.dead_ends.block_end, rng),
        11 => poke(&mut f.dead_ends.block_island, rng),
        12 => poke(&mut f.dead_ends.island_core, rng),
        13 => poke(&mut f.dead_ends.island_sizes, rng),
        14 => poke(&mut f.entrances.cells, rng),
        15 if nodes > 0 => {
            // A transition moved to a neighbouring cell.
            let i = rng.below(nodes);
            let c = f.entrances.cells[i] as i64 + [1, -1, h.grid.width() as i64][rng.below(3)];
            f.entrances.cells[i] = c.clamp(0, h.grid.len() as i64 - 1) as u32;
        }
        16 => poke(&mut f.entrances.cluster_first, rng),
        17 if !f.entrances.links.is_empty() => {
            let i = rng.below(f.entrances.links.len());
            f.entrances.links[i].1 = rng.below(nodes + 1) as u32;
        }
        18 => poke(&mut f.graph.edge_first, rng),
        19 => poke(&mut f.graph.edge_to, rng),
        20 if !f.graph.edge_to.is_empty() => {
            // An edge retargeted to another transition of its own cluster.
            let e = rng.below(f.graph.edge_to.len());
            let to = f.graph.edge_to[e] as usize;
            let c = h.layout().cluster_of(h.node_points[to]) as usize;
            let (a, b) = (
                h.entrances.cluster_first[c],
                h.entrances.cluster_first[c + 1],
            );
            f.graph.edge_to[e] = a + rng.below((b - a) as usize) as u32;
            if rng.below(2) == 0 {
                set_col64(&mut f.graph.edge_cost, e, 1);
            }
        }
        21 if f.graph.edges() > 0 => {
            let e = rng.below(f.graph.edges());
            let was = f.graph.edge_cost.get(e);
            set_col64(&mut f.graph.edge_cost, e, rng.value(was));
        }
        22 => {
            // Every edge cost the same forged value.
            let v = [u64::MAX - 1, 1, 1 << 62, rng.value(0)][rng.below(4)];
            f.graph.edge_cost = Column64::pack(vec![v; f.graph.edges()]);
        }
        23 => poke(&mut f.graph.path_first, rng),
        24 if !f.graph.path_codes.is_empty() => {
            let i = rng.below(f.graph.path_codes.len());
            f.graph.path_codes[i] = rng.value(0) as u8;
        }
        25 => {
            f.graph.path_first.clear();
            f.graph.path_codes.clear();
        }
        26 => match rng.below(2) {
            0 => f.graph.intra_edges = rng.value(f.graph.intra_edges),
            _ => f.graph.inter_edges = rng.value(f.graph.inter_edges),
        },
        27 => match rng.below(3) {
            0 => f.landmarks.count = rng.value(f.landmarks.count as u64) as u32,
            1 => poke(&mut f.landmarks.nodes, rng),
            _ if f.landmarks.dist.len() > 0 => {
                let i = rng.below(f.landmarks.dist.len());
                let was = f.landmarks.dist.get(i);
                set_col64(&mut f.landmarks.dist, i, rng.value(was));
            }
            _ => {}
        },
        30 => {
            // Written as a byte: 256 becomes 0.
            s.max_unit_size = [0, 1, 2, 3, 4, 255, 256, rng.value(3) as u32][rng.below(8)]
        }
        31 => {
            s.larger_sizes = match s.larger_sizes {
                SizeTransitions::Ends => SizeTransitions::One,
                SizeTransitions::One => SizeTransitions::Ends,
            }
        }
        32 => poke_sizes(&mut f.entrances.clear, h.max_unit_size() as u8, rng),
        33 => poke_sizes(&mut f.entrances.link_clear, h.max_unit_size() as u8, rng),
        34 => poke_sizes(&mut f.graph.edge_clear, h.max_unit_size() as u8, rng),
        35 | 36 if !f.graph.edge_clear.is_empty() => {
            // One edge made to serve more (35: as much as its ends admit)
            // or less (36), its node's edges sorted again as a build
            // sorts them, so only the claim itself is wrong.
            let from = edge_sources(&f.graph);
            let e = rng.below(f.graph.edges());
            let (v, w) = (from[e], f.graph.edge_to[e] as usize);
            let was = f.graph.edge_clear[e];
            f.graph.edge_clear[e] = if kind == 35 {
                f.entrances.clear[v].min(f.entrances.clear[w])
            } else {
                was.saturating_sub(1).max(1)
            };
            resort(&mut f.graph, v);
        }
        37 => {
            // Stored paths: none in a hierarchy for several sizes.
            let edges = f.graph.edges();
            f.graph.path_first = (0..=edges as u32).collect();
            f.graph.path_codes = (0..edges).map(|_| rng.below(8) as u8).collect();
        }
        28 => {
            let anchors = f.dead_ends.cell_anchor.canonical().into_owned();
            let mut rows: Vec<u32> = anchors.rows.iter().collect();
            poke(&mut rows, rng);
            f.dead_ends.cell_anchor = TileColumn::from_parts(
                anchors.len(),
                anchors.present.clone(),
                anchors.value.clone(),
                anchors.row.clone(),
                Column32::pack(rows),
            );
        }
        38 | 39 => {
            // Cell landmarks: one distance rewritten (38), or every one
            // halved (39: still changing by at most a move's cost along
            // every move, so the file loads and the search stays exact).
            if let Some(guide) = f.guide.as_mut() {
                let d = guide.distances_mut();
                if kind == 38 {
                    let i = rng.below(d.len());
                    d[i] = rng.value(d[i] as u64) as u32;
                } else {
                    d.iter_mut()
                        .filter(|v| **v != crate::search::UNREACHED)
                        .for_each(|v| *v /= 2);
                }
            }
        }
        _ => {
            if let Some(st) = f.stats.stages.first_mut() {
                st.name = "x".repeat([255, 256, 257, 65_535][rng.below(4)]);
                st.seconds = [f64::NAN, -1.0, f64::INFINITY, 1e300][rng.below(4)];
            }
        }
    }
    f
}

/// Runs every query for every unit size `h` serves (above 1) and checks
/// what it returns against the size's exact A*; panics (in the calling
/// thread) on a wrong answer.
fn exercise_sizes(h: &Hierarchy, seed: u64) {
    let grid = h.grid();
    let m = *h.movement();
    let (clearance, _) = crate::grid::clearance_values(grid);
    let mut rng = Rng(seed | 1);
    let (mut cache, mut flat) = (QueryCache::new(), SearchCache::new());
    for size in 1..=h.max_unit_size() {
        let fits: Vec<Point> = (0..grid.len() as u32)
            .map(|i| grid.point_of(crate::CellIndex(i)))
            .filter(|p| clearance[grid.node(*p).index()] as u32 >= size)
            .collect();
        if fits.is_empty() {
            continue;
        }
        let options = QueryOptions::new().unit_size(size);
        let legal = |p: &crate::Path, what: &str| {
            validate_sized_path(p, grid, &m, size)
                .unwrap_or_else(|e| panic!("{what}, size {size}: {e}"));
        };
        let exact = AStar::for_unit_on(grid, &clearance, size).movement(m);
        let pairs: Vec<(Point, Point)> = (0..4)
            .map(|_| (fits[rng.below(fits.len())], fits[rng.below(fits.len())]))
            .collect();
        for (s, t) in &pairs {
            let got = h.find_path_with(&mut cache, *s, *t, &options).unwrap();
            let want = exact.find_path(&mut flat, *s, *t).unwrap().path;
            match (got.path, want) {
                (Some(p), Some(best)) => {
                    legal(&p, "find_path_with");
                    assert_eq!((p.cells[0], *p.cells.last().unwrap()), (*s, *t));
                    assert!(p.cost >= best.cost, "size {size}: cheaper than optimal");
                }
                (None, None) => {}
                (got, want) => panic!(
                    "size {size}, {s} -> {t}: reachability differs: {:?} vs {:?}",
                    got.map(|p| p.cost),
                    want.map(|p| p.cost)
                ),
            }
        }
        let (s, t) = pairs[0];
        if let Some(mut plan) = h.plan_with(&mut cache, s, t, &options).unwrap() {
            let mut cells = Vec::new();
            while let Some(piece) = plan.next_segment(h, &mut cache) {
                cells.extend_from_slice(piece);
            }
            let cost = plan.cost();
            legal(&crate::Path { cells, cost }, "plan_with");
        }
        let targets: Vec<Point> = pairs.iter().map(|p| p.1).collect();
        if let Some(n) = h
            .nearest_with(&mut cache, s, &targets, &options)
            .unwrap()
            .nearest
        {
            legal(&n.path, "nearest_with");
        }
        let mut sliced = SlicedQuery::new();
        sliced.start_with(h, s, t, &options).unwrap();
        while sliced.update(h, 16).unwrap() != crate::SliceStatus::Done {}
        if let Some(p) = sliced.finish().and_then(|o| o.path) {
            legal(&p, "sliced");
        }
    }
}

/// Runs every operation on `h` and checks what it returns; panics (in the
/// calling thread) on a wrong answer.
fn exercise(h: Hierarchy, seed: u64) {
    if h.max_unit_size() > 1 {
        // Repairs do not serve several sizes yet: the queries only.
        return exercise_sizes(&h, seed);
    }
    let grid = h.grid().clone();
    let m = *h.movement();
    let open: Vec<Point> = (0..grid.len() as u32)
        .map(|i| grid.point_of(crate::CellIndex(i)))
        .filter(|p| grid.is_passable(*p))
        .collect();
    if open.is_empty() {
        return;
    }
    let mut rng = Rng(seed | 1);
    let pairs: Vec<(Point, Point)> = (0..6)
        .map(|_| (open[rng.below(open.len())], open[rng.below(open.len())]))
        .collect();
    let mut cache = QueryCache::new();
    let mut flat = SearchCache::new();
    let exact = AStar::new(&grid).movement(m);
    let check = |h: &Hierarchy, cache: &mut QueryCache, flat: &mut SearchCache| {
        for (s, t) in &pairs {
            let got = h.find_path(cache, *s, *t).expect("endpoints are passable");
            let want = exact.find_path(flat, *s, *t).unwrap().path;
            match (got.path, want) {
                (Some(p), Some(best)) => {
                    p.validate(h.grid(), &m).expect("a legal path of its cost");
                    assert_eq!((p.cells[0], *p.cells.last().unwrap()), (*s, *t));
                    assert!(p.cost >= best.cost, "cheaper than optimal");
                }
                (None, None) => {}
                (got, want) => panic!(
                    "{s} -> {t}: reachability differs: {:?} vs {:?}",
                    got.map(|p| p.cost),
                    want.map(|p| p.cost)
                ),
            }
        }
    };
    check(&h, &mut cache, &mut flat);
    let (s, t) = pairs[0];
    if let Some(mut plan) = h.plan(&mut cache, s, t).unwrap() {
        while plan.next_segment(&h, &mut cache).is_some() {}
    }
    let targets: Vec<Point> = pairs.iter().map(|p| p.1).collect();
    if let Some(n) = h.nearest(&mut cache, s, &targets).unwrap().nearest {
        n.path.validate(&grid, &m).expect("nearest: a legal path");
    }
    let mut sliced = SlicedQuery::new();
    sliced.start(&h, s, t).unwrap();
    while sliced.update(&h, 16).unwrap() != crate::SliceStatus::Done {}
    if let Some(p) = sliced.finish().and_then(|o| o.path) {
        p.validate(&grid, &m).expect("sliced: a legal path");
    }
    let mut world = DynamicHierarchy::new(h);
    let wall: Vec<Point> = (0..3).map(|_| open[rng.below(open.len())]).collect();
    world.set_passable(&wall, false).unwrap();
    world.set_passable(&wall, true).unwrap();
    world.refresh_landmarks();
    check(world.hierarchy(), &mut cache, &mut flat);
}

/// Gives about a third of the passable cells of `grid` a weight from half
/// to four times plain ground.
pub(super) fn weigh(grid: &mut Grid, seed: u64) {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ seed);
    for i in 0..grid.len() as u32 {
        let p = grid.point_of(crate::CellIndex(i));
        if grid.is_passable(p) && rng.below(3) == 0 {
            let w = crate::Weight([50, 150, 200, 400][rng.below(4)]);
            grid.set_weight(p, w).unwrap();
        }
    }
}

/// The maps forged: generated ones under several rules, some built for
/// several unit sizes, and a Moving AI map when the data is present.
fn hierarchies() -> Vec<Hierarchy> {
    use crate::mapgen::{MapKind, generate};
    let mut out = Vec::new();
    for (i, (kind, m, keep)) in [
        (MapKind::Maze, Movement::default(), true),
        (MapKind::Rooms, Movement::FOUR, true),
        (MapKind::Caves, Movement::every_rule()[3], false),
        (MapKind::Random, Movement::TEN_FOURTEEN, true),
    ]
    .into_iter()
    .enumerate()
    {
        let grid = generate(kind, 40, 32, 11 + i as u64).unwrap();
        let h = Hierarchy::builder()
            .cluster_size(8)
            .movement(m)
            .keep_paths(keep)
            .build(grid)
            .unwrap();
        let mut h = h;
        // Every other map guided by cell landmarks (saved in the file).
        if i % 2 == 0 {
            assert!(h.add_cell_landmarks(1 + i));
        }
        out.push(h);
    }
    // Built for several sizes: wider corridors, so larger units move.
    let wide = crate::mapgen::MapParams {
        corridor_width: 3,
        ..Default::default()
    };
    let every = Movement::every_rule();
    for (i, (kind, m, max, larger, weighted)) in [
        (MapKind::Maze, every[1], 3, SizeTransitions::Ends, false),
        (MapKind::Rooms, every[2], 2, SizeTransitions::One, true),
        (MapKind::Caves, every[3], 3, SizeTransitions::Ends, false),
        (MapKind::Rooms, every[0], 3, SizeTransitions::Ends, false),
        (MapKind::Caves, every[4], 2, SizeTransitions::One, true),
    ]
    .into_iter()
    .enumerate()
    {
        let mut grid = crate::mapgen::generate_with(kind, 40, 32, 21 + i as u64, &wide).unwrap();
        if weighted {
            weigh(&mut grid, i as u64);
        }
        let h = Hierarchy::builder()
            .cluster_size(8)
            .movement(m)
            .max_unit_size(max)
            .larger_sizes(larger)
            .build(grid)
            .unwrap();
        out.push(h);
    }
    let den = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/movingai/maps/dao/den312d.map");
    match crate::io::read_map(&den) {
        Ok(grid) => {
            let mut h = Hierarchy::build(grid).unwrap();
            assert!(h.add_cell_landmarks(2));
            out.push(h);
        }
        Err(_) => eprintln!("skipped den312d: the Moving AI data is absent"),
    }
    out
}

/// How long one forged file's operations may take before they count as a
/// hang (generous: they take milliseconds).
const HANG: Duration = Duration::from_secs(60);

#[test]
fn forged_files_are_refused_or_behave() {
    let (mut tried, mut refused, mut loaded, mut sized) = (0, 0, 0, 0);
    for (n, h) in hierarchies().into_iter().enumerate() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ n as u64);
        let per_kind = if h.grid().len() > 10_000 { 6 } else { 20 };
        for kind in 0..KINDS {
            for k in 0..per_kind {
                let forged = forge(&h, kind, &mut rng);
                let bytes = forged.to_bytes();
                tried += 1;
                sized += (h.max_unit_size() > 1) as u32;
                let what = format!("map {n}, forgery kind {kind} #{k}");
                match Hierarchy::from_bytes(h.grid().clone(), &bytes) {
                    Err(LoadError::Invalid(msg)) => {
                        assert!(!msg.is_empty(), "{what}");
                        refused += 1;
                    }
                    Err(LoadError::TooLarge { .. }) => refused += 1,
                    Err(e) => panic!("{what}: refused as {e}, not as invalid content"),
                    Ok(back) => {
                        loaded += 1;
                        let (tx, rx) = mpsc::channel();
                        let seed = rng.next();
                        let run = std::thread::spawn(move || {
                            exercise(back, seed);
                            let _ = tx.send(());
                        });
                        match rx.recv_timeout(HANG) {
                            Ok(()) => run.join().unwrap(),
                            Err(mpsc::RecvTimeoutError::Disconnected) => {
                                let e = run.join().unwrap_err();
                                let msg = e
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                                panic!("{what}: loaded, then failed: {msg:?}");
                            }
                            Err(mpsc::RecvTimeoutError::Timeout) => {
                                panic!("{what}: loaded, then hung")
                            }
                        }
                    }
                }
            }
        }
    }
    eprintln!(
        "{tried} forged files ({sized} for several sizes): {refused} refused at load, \
         {loaded} loaded and behaved"
    );
    assert!(refused > tried / 2, "most forgeries change something");
}

/// A transition moved off the map (into the padding row below it, or far
/// beyond) or elsewhere on it, with and without a forged link to a
/// transition moved beside it: the stored-path walks, the link moves and the
/// component lookups start there, so the edge check refuses a transition off
/// the map before it walks, and copes with one outside its cluster (the
/// load names the transitions).
#[test]
fn transitions_off_the_map_are_refused() {
    for h in hierarchies().into_iter().take(4) {
        let (w, cells) = (h.grid.width(), h.grid.len() as u32);
        let nodes = h.entrances.cells.len();
        let mut tried = 0;
        for v in (0..nodes).step_by(nodes.div_ceil(40).max(1)) {
            let x = h.entrances.cells[v] % w;
            // Below the map, far below it, at the very end of the index
            // range, and (refused as misplaced) a random cell of the map.
            let anywhere = (v as u32).wrapping_mul(2_654_435_761) % cells;
            for below in [
                cells + x,
                cells + 5 * w + x,
                u32::MAX - (w - 1 - x),
                anywhere,
            ] {
                if below == h.entrances.cells[v] {
                    continue;
                }
                let mut f = h.clone();
                f.entrances.cells[v] = below;
                // A link from it to a transition moved one row further down.
                if let Some(&(a, b)) = f.entrances.links.iter().find(|(a, _)| *a as usize == v) {
                    f.entrances.cells[b as usize] = below.saturating_add(w);
                    assert_eq!(a as usize, v);
                }
                let r = Hierarchy::from_bytes(h.grid.clone(), &f.to_bytes());
                assert!(r.is_err(), "a transition at cell {below} loaded");
                tried += 1;
            }
        }
        assert!(tried > 0);
    }
}
