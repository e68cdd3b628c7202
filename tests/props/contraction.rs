//! Property tests of the contraction hierarchy (`Contraction`) against a plain
//! multi-source Dijkstra over the same arcs: random graphs (loops, parallel
//! arcs, unreachable parts), grid-like graphs with blocked cells, the cluster
//! graphs of hierarchies built on random maps (printed as ASCII when they
//! fail); metrics that forbid arcs; many sources and targets with initial and
//! final distances; and re-customization after cost changes equal to a fresh
//! customization.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;

use crate::common::maps::{MapCase, map_cases};
use proptest::prelude::*;
use tierpath::{ArcGraph, Contraction, ContractionScratch, FORBIDDEN, Point};

const CASES: u32 = 128;

/// A graph as an arc list, its coordinates and a query.
#[derive(Clone)]
struct Case {
    nodes: u32,
    /// `(from, to, cost)`, sorted by `from`; a cost of `FORBIDDEN` forbids.
    arcs: Vec<(u32, u32, u64)>,
    coords: Option<Vec<(u32, u32)>>,
    sources: Vec<(u32, u64)>,
    targets: Vec<(u32, u64)>,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} nodes, coordinates {:?}", self.nodes, self.coords)?;
        for (a, b, c) in &self.arcs {
            let c = if *c >= FORBIDDEN {
                "forbidden".to_string()
            } else {
                c.to_string()
            };
            writeln!(f, "  {a} -> {b}: {c}")?;
        }
        write!(f, "sources {:?}, targets {:?}", self.sources, self.targets)
    }
}

impl Case {
    fn csr(&self) -> (Vec<u32>, Vec<u32>, Vec<u64>) {
        let mut first = vec![0u32; self.nodes as usize + 1];
        for (a, _, _) in &self.arcs {
            first[*a as usize + 1] += 1;
        }
        for i in 0..self.nodes as usize {
            first[i + 1] += first[i];
        }
        let to = self.arcs.iter().map(|a| a.1).collect();
        let cost = self.arcs.iter().map(|a| a.2).collect();
        (first, to, cost)
    }

    fn tail(first: &[u32], arc: u32) -> u32 {
        (first.partition_point(|f| *f <= arc) - 1) as u32
    }
}

/// The reference: Dijkstra from every source at its initial distance, then
/// the least distance plus final distance over the targets.
fn reference(first: &[u32], to: &[u32], cost: &[u64], case: &Case) -> Option<u64> {
    let n = first.len() - 1;
    let mut dist = vec![u64::MAX; n];
    let mut heap = BinaryHeap::new();
    for (s, c) in &case.sources {
        if *c < dist[*s as usize] {
            dist[*s as usize] = *c;
            heap.push(Reverse((*c, *s)));
        }
    }
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for a in first[v as usize]..first[v as usize + 1] {
            let (w, c) = (to[a as usize], cost[a as usize]);
            if c < FORBIDDEN && d + c < dist[w as usize] {
                dist[w as usize] = d + c;
                heap.push(Reverse((d + c, w)));
            }
        }
    }
    case.targets
        .iter()
        .filter(|(t, _)| dist[*t as usize] != u64::MAX)
        .map(|(t, c)| dist[*t as usize] + c)
        .min()
}

/// Checks the contraction's answers on `case` under `cost`: the reference's
/// distance, and a route of consecutive allowed arcs from a source to a
/// target whose cost is the distance.
fn check(cch: &Contraction, metric_costs: &[u64], case: &Case) -> Result<(), TestCaseError> {
    let (first, to, _) = case.csr();
    let metric = cch.customize(metric_costs).unwrap();
    let mut scratch = ContractionScratch::default();
    let want = reference(&first, &to, metric_costs, case);
    let got = cch.query(&metric, &mut scratch, &case.sources, &case.targets);
    prop_assert_eq!(got.as_ref().map(|r| r.cost), want);
    prop_assert_eq!(
        cch.distance(&metric, &mut scratch, &case.sources, &case.targets),
        want
    );
    // The pruned query graph of the same metric: the same cost, a valid route.
    let graph = ArcGraph::new(&first, &to).unwrap();
    let pruned = cch.query_graph(&metric).unwrap();
    let cost = |arc: u32| metric_costs[arc as usize];
    let pruned = pruned
        .query(&graph, cost, &mut scratch, &case.sources, &case.targets)
        .unwrap();
    prop_assert_eq!(pruned.as_ref().map(|r| r.cost), want);
    for route in [got, pruned].into_iter().flatten() {
        prop_assert_eq!(route.nodes.len(), route.arcs.len() + 1);
        let (s, t) = (route.nodes[0], *route.nodes.last().unwrap());
        let init = case.sources.iter().filter(|x| x.0 == s).map(|x| x.1).min();
        let fin = case.targets.iter().filter(|x| x.0 == t).map(|x| x.1).min();
        prop_assert!(
            init.is_some() && fin.is_some(),
            "route ends are a source and a target"
        );
        let mut total = init.unwrap() + fin.unwrap();
        for (k, arc) in route.arcs.iter().enumerate() {
            prop_assert_eq!(Case::tail(&first, *arc), route.nodes[k]);
            prop_assert_eq!(to[*arc as usize], route.nodes[k + 1]);
            prop_assert!(
                metric_costs[*arc as usize] < FORBIDDEN,
                "forbidden arc used"
            );
            total += metric_costs[*arc as usize];
        }
        prop_assert_eq!(total, route.cost);
    }
    Ok(())
}

fn ends(nodes: u32) -> impl Strategy<Value = Vec<(u32, u64)>> {
    prop::collection::vec((0..nodes, 0u64..30), 1..5)
}

/// Random graphs: any arcs (loops and parallel arcs included), about one in
/// eight forbidden, coordinates random or absent.
fn random_cases() -> impl Strategy<Value = Case> {
    (1u32..40).prop_flat_map(|n| {
        (
            prop::collection::vec(
                (
                    0..n,
                    0..n,
                    prop_oneof![7 => 1u64..100, 1 => Just(FORBIDDEN)],
                ),
                0..(4 * n as usize),
            ),
            prop::option::of(prop::collection::vec((0u32..20, 0u32..20), n as usize)),
            ends(n),
            ends(n),
        )
            .prop_map(move |(mut arcs, coords, sources, targets)| {
                arcs.sort_by_key(|a| a.0);
                Case {
                    nodes: n,
                    arcs,
                    coords,
                    sources,
                    targets,
                }
            })
    })
}

/// Grid-like graphs: the open cells of a `w x h` board, 8-connected, with
/// random costs per arc (so directions differ) and some blocked cells.
fn grid_cases() -> impl Strategy<Value = Case> {
    (2u32..12, 2u32..12).prop_flat_map(|(w, h)| {
        let n = w * h;
        (
            prop::collection::vec(prop::bool::weighted(0.25), n as usize),
            prop::collection::vec(1u64..20, 8 * n as usize),
            ends(n),
            ends(n),
        )
            .prop_map(move |(blocked, costs, sources, targets)| {
                let mut arcs = Vec::new();
                for v in 0..n {
                    let (x, y) = ((v % w) as i32, (v / w) as i32);
                    for (k, (dx, dy)) in [
                        (1, 0),
                        (1, 1),
                        (0, 1),
                        (-1, 1),
                        (-1, 0),
                        (-1, -1),
                        (0, -1),
                        (1, -1),
                    ]
                    .into_iter()
                    .enumerate()
                    {
                        let (nx, ny) = (x + dx, y + dy);
                        if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                            continue;
                        }
                        let u = ny as u32 * w + nx as u32;
                        if !blocked[v as usize] && !blocked[u as usize] {
                            arcs.push((v, u, costs[v as usize * 8 + k]));
                        }
                    }
                }
                Case {
                    nodes: n,
                    arcs,
                    coords: Some((0..n).map(|v| (v % w, v / w)).collect()),
                    sources,
                    targets,
                }
            })
    })
}

/// The cluster graph of a hierarchy built on a random map, queried between
/// transitions of the clusters of two of its points at octile distances.
fn cluster_case(map: &MapCase) -> Option<Case> {
    let h = map.hierarchy();
    let points: Vec<Point> = h.transitions().collect();
    let index = |p: Point| points.iter().position(|q| *q == p).expect("a transition") as u32;
    let mut arcs: Vec<(u32, u32, u64)> = h
        .abstract_edges()
        .map(|(a, b, c)| (index(a), index(b), c.0))
        .collect();
    arcs.sort_by_key(|a| a.0);
    let layout = h.layout();
    let around = |p: Point| -> Vec<(u32, u64)> {
        (0..points.len() as u32)
            .filter(|v| layout.cluster_of(points[*v as usize]) == layout.cluster_of(p))
            .map(|v| {
                let q = points[v as usize];
                (
                    v,
                    h.movement()
                        .distance(p.x.abs_diff(q.x), p.y.abs_diff(q.y))
                        .0,
                )
            })
            .collect()
    };
    let (sources, targets) = (around(map.points[0]), around(map.points[1]));
    (!sources.is_empty() && !targets.is_empty()).then(|| Case {
        nodes: points.len() as u32,
        arcs,
        coords: Some(points.iter().map(|p| (p.x, p.y)).collect()),
        sources,
        targets,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn contraction_equals_dijkstra_on_random_graphs(case in random_cases()) {
        let (first, to, cost) = case.csr();
        let cch = Contraction::new(&ArcGraph::new(&first, &to).unwrap(), case.coords.as_deref()).unwrap();
        check(&cch, &cost, &case)?;
    }

    #[test]
    fn contraction_equals_dijkstra_on_grid_graphs(case in grid_cases()) {
        let (first, to, cost) = case.csr();
        let cch = Contraction::new(&ArcGraph::new(&first, &to).unwrap(), case.coords.as_deref()).unwrap();
        check(&cch, &cost, &case)?;
    }

    #[test]
    fn contraction_equals_dijkstra_on_cluster_graphs(map in map_cases(8, 40, 2)) {
        let Some(case) = cluster_case(&map) else { return Ok(()) };
        let (first, to, cost) = case.csr();
        let cch = Contraction::new(&ArcGraph::new(&first, &to).unwrap(), case.coords.as_deref()).unwrap();
        check(&cch, &cost, &case).map_err(|e| TestCaseError::fail(format!("{e}\n{map:?}")))?;
    }

    /// One contraction, several metrics: each forbids a different random set
    /// of arcs and re-prices others, as unit-size classes would.
    #[test]
    fn one_contraction_serves_every_metric(
        case in grid_cases(),
        metrics in prop::collection::vec(prop::collection::vec(prop_oneof![3 => Just(None), 1 => Just(Some(FORBIDDEN)), 1 => (1u64..50).prop_map(Some)], 0..800), 1..4),
    ) {
        let (first, to, cost) = case.csr();
        let cch = Contraction::new(&ArcGraph::new(&first, &to).unwrap(), case.coords.as_deref()).unwrap();
        for m in metrics {
            let costs: Vec<u64> = cost.iter().enumerate().map(|(i, c)| m.get(i).copied().flatten().unwrap_or(*c)).collect();
            check(&cch, &costs, &case)?;
        }
    }

    /// Changing some arc costs (up, down, to and from forbidden) and
    /// re-customizing gives exactly a fresh customization.
    #[test]
    fn recustomization_equals_a_fresh_customization(
        case in prop_oneof![random_cases(), grid_cases()],
        rounds in prop::collection::vec(prop::collection::vec((any::<prop::sample::Index>(), prop_oneof![3 => 1u64..100, 1 => Just(FORBIDDEN)]), 1..6), 1..4),
    ) {
        let (first, to, mut cost) = case.csr();
        let graph = ArcGraph::new(&first, &to).unwrap();
        let cch = Contraction::new(&graph, case.coords.as_deref()).unwrap();
        let mut metric = cch.customize(&cost).unwrap();
        for round in rounds {
            if cost.is_empty() {
                break;
            }
            let changed: Vec<u32> = round.iter().map(|(i, _)| i.index(cost.len()) as u32).collect();
            for ((_, c), arc) in round.iter().zip(&changed) {
                cost[*arc as usize] = *c;
            }
            cch.recustomize(&graph, &mut metric, &cost, &changed).unwrap();
            prop_assert_eq!(&metric, &cch.customize(&cost).unwrap());
        }
        check(&cch, &cost, &case)?;
    }
}
