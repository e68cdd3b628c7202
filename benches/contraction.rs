//! The contraction hierarchy over the cluster graph (`tierpath::Contraction`)
//! against plain searches over the same graph, on the long queries (top 10
//! buckets, every query) of six large StarCraft maps: TheFrozenSea, Cauldron,
//! Expedition, Nightshade, BrokenSteppes, SapphireIsles.
//!
//! Setup (untimed by criterion): the hierarchy is built with the default
//! settings; its cluster graph is read through the public API
//! (`Hierarchy::transitions`, `Hierarchy::abstract_edges`) into CSR; the
//! contraction is ordered by the transitions' cells, customized with the
//! graph's costs, and pruned into its query graph. Each query's start is
//! joined to the transitions of its cluster on its island at their octile
//! distance, and likewise the goal (a stand-in for the in-cluster costs the
//! query computes: every search gets the same sources and targets). Every
//! search's cost is checked equal to a plain Dijkstra's.
//!
//! Criterion times, per map: a pass over the queries with the contraction and
//! with the query graph (query and unpacking); order + contract; customize;
//! the query graph's build; a re-customization after one cluster's inside
//! edges change. After criterion's report, when benchmarking, lines per map:
//! build times, memory per map cell, the query graph (size, build, query,
//! first arc), mean query times against plain Dijkstra and A* (octile bound)
//! over the same graph and the library's own abstract A* (with landmarks, the
//! phase timer of `find_path`), the median / p95 re-customization after
//! 1-cluster edits (a 1-cell edit's worth) and 2x2-cluster edits (a 10x10
//! block's worth), and the order read off the cluster grid against the
//! searched cuts.
//!
//! `cargo bench --bench contraction`. Skips with a notice when
//! `../shared/movingai` is absent.

mod common;

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{Rng, TOP_BUCKETS, median};
use tierpath::io::BucketFilter;
use tierpath::{
    ArcGraph, Contraction, ContractionMetric, ContractionRoute, ContractionScratch, Hierarchy,
    Point, QueryCache, QueryGraph,
};

const MAPS: [&str; 6] = [
    "TheFrozenSea",
    "Cauldron",
    "Expedition",
    "Nightshade",
    "BrokenSteppes",
    "SapphireIsles",
];

/// Edits timed per map and per kind in the summary.
const EDITS: usize = 100;

type Ends = Vec<(u32, u64)>;

/// The cluster graph in CSR, with the transitions' cells.
struct AbstractGraph {
    first: Vec<u32>,
    to: Vec<u32>,
    cost: Vec<u64>,
    points: Vec<Point>,
}

impl AbstractGraph {
    fn of(h: &Hierarchy) -> Self {
        let grid = h.grid();
        let points: Vec<Point> = h.transitions().collect();
        let mut node_at = vec![u32::MAX; grid.width() as usize * grid.height() as usize];
        let at = |p: Point| p.y as usize * grid.width() as usize + p.x as usize;
        for (i, p) in points.iter().enumerate() {
            node_at[at(*p)] = i as u32;
        }
        let mut first = vec![0u32; points.len() + 1];
        let (mut to, mut cost) = (Vec::new(), Vec::new());
        // `abstract_edges` lists each node's out-edges in node order.
        for (a, b, c) in h.abstract_edges() {
            first[node_at[at(a)] as usize + 1] += 1;
            to.push(node_at[at(b)]);
            cost.push(c.0);
        }
        for i in 0..points.len() {
            first[i + 1] += first[i];
        }
        AbstractGraph {
            first,
            to,
            cost,
            points,
        }
    }

    /// The transitions' cells, the order's coordinates.
    fn coords(&self) -> Vec<(u32, u32)> {
        self.points.iter().map(|p| (p.x, p.y)).collect()
    }

    /// Orders, contracts and customizes, timing the two phases.
    fn contract(&self) -> (Contraction, ContractionMetric, Duration, Duration) {
        let clock = Instant::now();
        let cch = Contraction::new(&self.graph(), Some(&self.coords())).expect("contracts");
        let contract = clock.elapsed();
        let clock = Instant::now();
        let metric = cch.customize(&self.cost).expect("costs fit");
        (cch, metric, contract, clock.elapsed())
    }

    fn graph(&self) -> ArcGraph<'_> {
        ArcGraph::new(&self.first, &self.to).expect("a well-formed CSR")
    }

    /// The transitions of `p`'s cluster on `p`'s island, at their octile
    /// distance from `p`.
    fn ends(&self, h: &Hierarchy, p: Point) -> Ends {
        let layout = h.layout();
        let c = layout.cluster_of(p);
        (0..self.points.len() as u32)
            .filter(|v| {
                let q = self.points[*v as usize];
                layout.cluster_of(q) == c && h.same_island(p, q)
            })
            .map(|v| {
                let q = self.points[v as usize];
                (
                    v,
                    h.movement()
                        .distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y))
                        .0,
                )
            })
            .collect()
    }

    /// The graph with every pair of transitions of a cluster joined (the
    /// missing pairs forbidden): the shape under which any change of a
    /// cluster's inside edges is a cost change.
    fn with_cluster_cliques(&self, h: &Hierarchy) -> AbstractGraph {
        let layout = h.layout();
        let cluster = |v: usize| layout.cluster_of(self.points[v]);
        // Transitions are grouped by cluster: each cluster's run of nodes.
        let n = self.points.len();
        let mut run_start = 0;
        let mut first = vec![0u32];
        let (mut to, mut cost) = (Vec::new(), Vec::new());
        for v in 0..n {
            if v > 0 && cluster(v) != cluster(v - 1) {
                run_start = v;
            }
            let arcs = self.first[v] as usize..self.first[v + 1] as usize;
            to.extend_from_slice(&self.to[arcs.clone()]);
            cost.extend_from_slice(&self.cost[arcs.clone()]);
            let mut w = run_start;
            while w < n && cluster(w) == cluster(v) {
                if w != v && !self.to[arcs.clone()].contains(&(w as u32)) {
                    to.push(w as u32);
                    cost.push(tierpath::FORBIDDEN);
                }
                w += 1;
            }
            first.push(to.len() as u32);
        }
        AbstractGraph {
            first,
            to,
            cost,
            points: self.points.clone(),
        }
    }

    /// The arcs inside the clusters of `clusters`.
    fn arcs_inside(&self, h: &Hierarchy, clusters: &[u32]) -> Vec<u32> {
        let layout = h.layout();
        let inside = |v: u32| clusters.contains(&layout.cluster_of(self.points[v as usize]));
        (0..self.points.len() as u32)
            .flat_map(|v| (self.first[v as usize]..self.first[v as usize + 1]).map(move |a| (v, a)))
            .filter(|(v, a)| {
                let w = self.to[*a as usize];
                inside(*v)
                    && inside(w)
                    && layout.cluster_of(self.points[*v as usize])
                        == layout.cluster_of(self.points[w as usize])
            })
            .map(|(_, a)| a)
            .collect()
    }
}

/// Plain Dijkstra (A* with `bound`) from many sources to many targets, scratch
/// reset by a generation stamp.
#[derive(Default)]
struct Plain {
    dist: Vec<u64>,
    stamp: Vec<u32>,
    goal: Vec<u64>,
    goal_stamp: Vec<u32>,
    generation: u32,
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
}

impl Plain {
    fn run(
        &mut self,
        g: &AbstractGraph,
        s: &Ends,
        t: &Ends,
        bound: impl Fn(u32) -> u64,
    ) -> Option<u64> {
        let n = g.points.len();
        if self.dist.len() < n {
            self.dist.resize(n, 0);
            self.stamp.resize(n, 0);
            self.goal.resize(n, 0);
            self.goal_stamp.resize(n, 0);
        }
        self.generation += 1;
        let gen_ = self.generation;
        self.heap.clear();
        for (v, c) in t {
            let v = *v as usize;
            if self.goal_stamp[v] != gen_ || self.goal[v] > *c {
                self.goal[v] = *c;
                self.goal_stamp[v] = gen_;
            }
        }
        for (v, c) in s {
            let i = *v as usize;
            if self.stamp[i] != gen_ || self.dist[i] > *c {
                self.dist[i] = *c;
                self.stamp[i] = gen_;
                self.heap.push(Reverse((c + bound(*v), *c, *v)));
            }
        }
        let mut best = u64::MAX;
        while let Some(Reverse((f, d, v))) = self.heap.pop() {
            if f >= best {
                break;
            }
            if d > self.dist[v as usize] {
                continue;
            }
            if self.goal_stamp[v as usize] == gen_ {
                best = best.min(d + self.goal[v as usize]);
            }
            for a in g.first[v as usize]..g.first[v as usize + 1] {
                let (w, nd) = (g.to[a as usize], d + g.cost[a as usize]);
                let wi = w as usize;
                if self.stamp[wi] != gen_ || nd < self.dist[wi] {
                    self.dist[wi] = nd;
                    self.stamp[wi] = gen_;
                    self.heap.push(Reverse((nd + bound(w), nd, w)));
                }
            }
        }
        (best != u64::MAX).then_some(best)
    }
}

struct BenchMap {
    label: String,
    hierarchy: Hierarchy,
    graph: AbstractGraph,
    cch: Contraction,
    metric: ContractionMetric,
    /// The pruned query graph of `metric`.
    pruned: QueryGraph,
    queries: Vec<(Point, Point, Ends, Ends)>,
    build: Duration,
    contract: Duration,
    customize: Duration,
    prune: Duration,
}

fn setup() -> Option<Vec<BenchMap>> {
    common::movingai_root()?;
    Some(
        MAPS.iter()
            .map(|name| {
                let file = common::scenario_file("sc1", name).expect("data present");
                let (grid, scen) = common::load(&file);
                let label = format!("sc1/{name} ({}x{})", grid.width(), grid.height());
                let clock = Instant::now();
                let hierarchy = Hierarchy::build(grid).expect("default settings");
                let build = clock.elapsed();
                let graph = AbstractGraph::of(&hierarchy);
                let (cch, metric, contract, customize) = graph.contract();
                let clock = Instant::now();
                let pruned = cch.query_graph(&metric).expect("costs fit");
                let prune = clock.elapsed();
                let queries = scen
                    .select(BucketFilter::Top(TOP_BUCKETS))
                    .into_iter()
                    .map(|q| {
                        let (s, t) = (
                            graph.ends(&hierarchy, q.start),
                            graph.ends(&hierarchy, q.goal),
                        );
                        (q.start, q.goal, s, t)
                    })
                    .collect();
                BenchMap {
                    label,
                    hierarchy,
                    graph,
                    cch,
                    metric,
                    pruned,
                    queries,
                    build,
                    contract,
                    customize,
                    prune,
                }
            })
            .collect(),
    )
}

fn octile_bound(m: &BenchMap, goal: Point) -> impl Fn(u32) -> u64 + '_ {
    move |v| {
        let p = m.graph.points[v as usize];
        m.hierarchy
            .movement()
            .distance(p.x.abs_diff(goal.x), p.y.abs_diff(goal.y))
            .0
    }
}

/// Checks every search agrees with plain Dijkstra on every query.
fn check(m: &BenchMap) {
    let (mut plain, mut scratch) = (Plain::default(), ContractionScratch::default());
    for (_, goal, s, t) in &m.queries {
        let want = plain.run(&m.graph, s, t, |_| 0);
        let route = m.cch.query(&m.metric, &mut scratch, s, t);
        assert_eq!(route.as_ref().map(|r| r.cost), want, "{}", m.label);
        let graph = m.graph.graph();
        let cost = |a: u32| m.graph.cost[a as usize];
        let pruned = m.pruned.query(&graph, cost, &mut scratch, s, t).unwrap();
        assert_eq!(pruned.as_ref().map(|r| r.cost), want, "{} pruned", m.label);
        assert_eq!(plain.run(&m.graph, s, t, octile_bound(m, *goal)), want);
        for r in [route, pruned].into_iter().flatten() {
            let sum: u64 = r.arcs.iter().map(|a| m.graph.cost[*a as usize]).sum();
            let ends = s.iter().find(|e| e.0 == r.nodes[0]).unwrap().1
                + t.iter()
                    .find(|e| e.0 == *r.nodes.last().unwrap())
                    .unwrap()
                    .1;
            assert_eq!(sum + ends, r.cost, "unpacked route costs what was found");
        }
    }
}

/// Edits of `size x size` clusters: the arcs inside them, each made one
/// straight step dearer with probability 1/2.
fn edits(m: &BenchMap, size: u32, count: usize) -> Vec<(Vec<u32>, Vec<u64>)> {
    let layout = m.hierarchy.layout();
    let mut rng = Rng::new(common::seed_of(&m.label) ^ size as u64);
    let step = m.hierarchy.movement().straight_step().0;
    (0..count)
        .map(|_| {
            let (cx, cy) = (
                rng.below_u32(layout.cols.saturating_sub(size - 1).max(1)),
                rng.below_u32(layout.rows.saturating_sub(size - 1).max(1)),
            );
            let clusters: Vec<u32> = (0..size * size)
                .map(|i| {
                    (cy + i / size).min(layout.rows - 1) * layout.cols
                        + (cx + i % size).min(layout.cols - 1)
                })
                .collect();
            let arcs: Vec<u32> = m
                .graph
                .arcs_inside(&m.hierarchy, &clusters)
                .into_iter()
                .filter(|_| rng.percent(50))
                .collect();
            let mut costs = m.graph.cost.clone();
            for a in &arcs {
                costs[*a as usize] += step;
            }
            (arcs, costs)
        })
        .collect()
}

/// Median and p95 of re-customizing after each edit (and back), and the mean
/// nodes recomputed.
fn time_edits(m: &BenchMap, edits: &[(Vec<u32>, Vec<u64>)]) -> (Duration, Duration, f64) {
    let mut metric = m.metric.clone();
    let graph = m.graph.graph();
    let mut times = Vec::new();
    let mut nodes = 0usize;
    for (k, (arcs, costs)) in edits.iter().enumerate() {
        for (costs, check) in [(costs, k < 3), (&m.graph.cost, false)] {
            let clock = Instant::now();
            nodes += m
                .cch
                .recustomize(&graph, &mut metric, costs, arcs)
                .expect("same graph");
            times.push(clock.elapsed());
            if check {
                assert_eq!(
                    metric,
                    m.cch.customize(costs).unwrap(),
                    "re-customized == fresh"
                );
            }
        }
    }
    let mut sorted = times.clone();
    sorted.sort();
    (
        median(times),
        sorted[sorted.len() * 95 / 100],
        nodes as f64 / sorted.len() as f64,
    )
}

fn mean_us(total: Duration, n: usize) -> f64 {
    total.as_secs_f64() * 1e6 / n.max(1) as f64
}

/// Times one pass of `f` over the queries (best of `runs`).
fn pass(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let clock = Instant::now();
            f();
            clock.elapsed()
        })
        .min()
        .expect("runs > 0")
}

fn summary(maps: &[BenchMap]) {
    println!(
        "\ncontraction summary (mean per query, {} top-{TOP_BUCKETS}-bucket queries per map):",
        maps.first().map_or(0, |m| m.queries.len())
    );
    for m in maps {
        let n = m.queries.len();
        let cells = m.hierarchy.grid().len() as f64;
        let (mut scratch, mut plain, mut route) = (
            ContractionScratch::default(),
            Plain::default(),
            ContractionRoute::default(),
        );
        let mut settled = 0u64;
        let cch = pass(5, || {
            settled = 0;
            for (_, _, s, t) in &m.queries {
                m.cch.query_into(&m.metric, &mut scratch, s, t, &mut route);
                settled += scratch.settled();
                black_box(&route);
            }
        });
        let graph = m.graph.graph();
        let cost = |a: u32| m.graph.cost[a as usize];
        let mut pruned_settled = 0u64;
        let pruned = pass(5, || {
            pruned_settled = 0;
            for (_, _, s, t) in &m.queries {
                m.pruned
                    .query_into(&graph, cost, &mut scratch, s, t, &mut route)
                    .unwrap();
                pruned_settled += scratch.settled();
                black_box(&route);
            }
        });
        // The first arc: the search, then one step of the unpacking.
        let first_arc = pass(5, || {
            for (_, _, s, t) in &m.queries {
                black_box(m.pruned.start_route(&mut scratch, s, t));
                black_box(m.pruned.next_arc(&graph, cost, &mut scratch).unwrap());
            }
        });
        let dijkstra = pass(3, || {
            for (_, _, s, t) in &m.queries {
                black_box(plain.run(&m.graph, s, t, |_| 0));
            }
        });
        let astar = pass(3, || {
            for (_, goal, s, t) in &m.queries {
                black_box(plain.run(&m.graph, s, t, octile_bound(m, *goal)));
            }
        });
        // The library's own abstract search (A* with landmarks), by its phase timer.
        let mut cache = QueryCache::new();
        cache.time_phases(true);
        let mut library = Duration::ZERO;
        for (a, b, _, _) in &m.queries {
            let out = m
                .hierarchy
                .find_path(&mut cache, *a, *b)
                .expect("valid query");
            library += out
                .stats
                .phases
                .map_or(Duration::ZERO, |p| p.abstract_search);
        }
        let cliques = m.graph.with_cluster_cliques(&m.hierarchy);
        let (cch_cliques, clique_metric, clique_contract, clique_customize) = cliques.contract();
        let one = time_edits(m, &edits(m, 1, EDITS));
        let block = time_edits(m, &edits(m, 2, EDITS));
        let bytes = m.cch.memory_bytes() + m.metric.memory_bytes();
        println!(
            "  {}: {} nodes, {} arcs -> {} CCH edges, tree height {}; build: hierarchy {:.1} ms, order+contract {:.1} ms, customize {:.1} ms; memory: hierarchy {:.2} B/cell, CCH {:.2} B/cell",
            m.label,
            m.graph.points.len(),
            m.graph.to.len(),
            m.cch.edges(),
            m.cch.tree_height(),
            m.build.as_secs_f64() * 1e3,
            m.contract.as_secs_f64() * 1e3,
            m.customize.as_secs_f64() * 1e3,
            m.hierarchy.memory_bytes() as f64 / cells,
            bytes as f64 / cells,
        );
        let (c, d, a, l) = (
            mean_us(cch, n),
            mean_us(dijkstra, n),
            mean_us(astar, n),
            mean_us(library, n),
        );
        println!(
            "    pruned query graph: {} arc directions searched + {} unpack-only, symmetric {}, {:.2} B/cell, built in {:.1} ms; query {:.1} us ({:.0} settled, {:.2}x the full CCH's time), first arc {:.1} us",
            m.pruned.arcs(),
            m.pruned.unpack_only(),
            m.pruned.symmetric(),
            m.pruned.memory_bytes() as f64 / cells,
            m.prune.as_secs_f64() * 1e3,
            mean_us(pruned, n),
            pruned_settled as f64 / n as f64,
            mean_us(pruned, n) / c,
            mean_us(first_arc, n),
        );
        println!(
            "    query: CCH {c:.1} us ({:.0} settled), Dijkstra {d:.1} us ({:.0}x), A* octile {a:.1} us ({:.0}x), library A*+landmarks {l:.1} us ({:.0}x)",
            settled as f64 / n as f64,
            d / c,
            a / c,
            l / c,
        );
        println!(
            "    with cluster cliques (for edits): {} arcs -> {} CCH edges, order+contract {:.1} ms, customize {:.1} ms, CCH {:.2} B/cell",
            cliques.to.len(),
            cch_cliques.edges(),
            clique_contract.as_secs_f64() * 1e3,
            clique_customize.as_secs_f64() * 1e3,
            (cch_cliques.memory_bytes() + clique_metric.memory_bytes()) as f64 / cells,
        );
        println!(
            "    re-customize: 1 cluster median {:.1} us, p95 {:.1} us ({:.0} nodes); 2x2 clusters median {:.1} us, p95 {:.1} us ({:.0} nodes)",
            one.0.as_secs_f64() * 1e6,
            one.1.as_secs_f64() * 1e6,
            one.2,
            block.0.as_secs_f64() * 1e6,
            block.1.as_secs_f64() * 1e6,
            block.2,
        );
        // The order read off the cluster grid, against the searched cuts, in
        // the same run (best of 3 each).
        let (coords, g) = (m.graph.coords(), m.graph.graph());
        let cell = m.hierarchy.layout().size;
        let searched = pass(3, || {
            black_box(Contraction::new(&g, Some(&coords)).expect("contracts"));
        });
        let on_grid = pass(3, || {
            black_box(Contraction::on_grid(&g, &coords, cell).expect("contracts"));
        });
        let grid_cch = Contraction::on_grid(&g, &coords, cell).expect("contracts");
        let grid_metric = grid_cch.customize(&m.graph.cost).expect("costs fit");
        let customize_grid = pass(3, || {
            black_box(grid_cch.customize(&m.graph.cost).expect("costs fit"));
        });
        let prune_grid = pass(3, || {
            black_box(grid_cch.query_graph(&grid_metric).expect("costs fit"));
        });
        let grid_pruned = grid_cch.query_graph(&grid_metric).expect("costs fit");
        let grid_query = pass(5, || {
            for (_, _, s, t) in &m.queries {
                grid_pruned
                    .query_into(&graph, cost, &mut scratch, s, t, &mut route)
                    .unwrap();
                black_box(&route);
            }
        });
        println!(
            "    grid order: {} CCH edges, tree height {}, order+contract {:.1} ms (searched cuts {:.1} ms), customize {:.1} ms, query graph {:.1} ms; pruned {} arcs, {:.2} B/cell, query {:.1} us",
            grid_cch.edges(),
            grid_cch.tree_height(),
            on_grid.as_secs_f64() * 1e3,
            searched.as_secs_f64() * 1e3,
            customize_grid.as_secs_f64() * 1e3,
            prune_grid.as_secs_f64() * 1e3,
            grid_pruned.arcs(),
            grid_pruned.memory_bytes() as f64 / cells,
            mean_us(grid_query, n),
        );
    }
}

fn main() {
    let Some(maps) = setup() else {
        return;
    };
    for m in &maps {
        check(m);
    }
    let mut c = common::criterion(Duration::from_millis(300), Duration::from_secs(1), false);
    for m in &maps {
        let mut group = c.benchmark_group(format!("contraction/{}", m.label));
        let (mut scratch, mut route) = (ContractionScratch::default(), ContractionRoute::default());
        group.bench_function("cch query + unpack, all queries", |b| {
            b.iter(|| {
                for (_, _, s, t) in &m.queries {
                    m.cch.query_into(&m.metric, &mut scratch, s, t, &mut route);
                    black_box(&route);
                }
            })
        });
        let graph = m.graph.graph();
        let cost = |a: u32| m.graph.cost[a as usize];
        group.bench_function("pruned query + unpack, all queries", |b| {
            b.iter(|| {
                for (_, _, s, t) in &m.queries {
                    m.pruned
                        .query_into(&graph, cost, &mut scratch, s, t, &mut route)
                        .unwrap();
                    black_box(&route);
                }
            })
        });
        let coords = m.graph.coords();
        group.bench_function("order + contract", |b| {
            b.iter(|| Contraction::new(&m.graph.graph(), Some(&coords)).expect("contracts"))
        });
        group.bench_function("customize", |b| {
            b.iter(|| m.cch.customize(&m.graph.cost).expect("costs fit"))
        });
        group.bench_function("query graph (perfect + prune)", |b| {
            b.iter(|| m.cch.query_graph(&m.metric).expect("costs fit"))
        });
        let edit = edits(m, 1, 1).remove(0);
        let mut metric = m.metric.clone();
        let graph = m.graph.graph();
        group.bench_function("re-customize one cluster and back", |b| {
            b.iter(|| {
                m.cch
                    .recustomize(&graph, &mut metric, &edit.1, &edit.0)
                    .unwrap();
                m.cch
                    .recustomize(&graph, &mut metric, &m.graph.cost, &edit.0)
                    .unwrap();
            })
        });
        group.finish();
    }
    c.final_summary();
    if common::benchmarking() {
        summary(&maps);
    }
}
