//! The pruned query graph against Dijkstra on random graphs and metrics.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::tests::{Arcs, Lcg, grid_graph, random_edit};
use super::*;

/// Least cost from the sources (with initial distances) to the targets (with
/// final distances), by Dijkstra.
pub(super) fn dijkstra(
    a: &Arcs,
    costs: &[u64],
    sources: &[(u32, u64)],
    targets: &[(u32, u64)],
) -> Option<u64> {
    let n = a.first.len() - 1;
    let mut dist = vec![u64::MAX; n];
    let mut heap = BinaryHeap::new();
    for (s, c) in sources {
        if *c < dist[*s as usize] {
            dist[*s as usize] = *c;
            heap.push(Reverse((*c, *s)));
        }
    }
    while let Some(Reverse((d, v))) = heap.pop() {
        if d > dist[v as usize] {
            continue;
        }
        for arc in a.first[v as usize]..a.first[v as usize + 1] {
            let c = costs[arc as usize];
            let w = a.to[arc as usize] as usize;
            if c < FORBIDDEN && d + c < dist[w] {
                dist[w] = d + c;
                heap.push(Reverse((d + c, w as u32)));
            }
        }
    }
    targets
        .iter()
        .filter(|(t, _)| dist[*t as usize] != u64::MAX)
        .map(|(t, c)| dist[*t as usize] + c)
        .min()
}

/// A random sparse directed graph: `n` nodes, about `3n` arcs, some in both
/// directions, some parallel, a few loops.
pub(super) fn random_graph(n: u32, rng: &mut Lcg) -> Arcs {
    let mut arcs = Vec::new();
    for _ in 0..3 * n {
        let (a, b) = (rng.next(n as u64) as u32, rng.next(n as u64) as u32);
        arcs.push((a, b, 0));
        if rng.next(2) == 0 {
            arcs.push((b, a, 0));
        }
    }
    Arcs::new(n as usize, arcs)
}

/// Metric kinds: random, random with forbidden arcs, symmetric (by the
/// unordered pair of ends), with zero-cost arcs, octile-like.
pub(super) fn metric(a: &Arcs, kind: u32, rng: &mut Lcg) -> Vec<u64> {
    (0..a.to.len() as u32)
        .map(|arc| {
            let (v, w) = (a.tail(arc) as u64, a.to[arc as usize] as u64);
            match kind {
                0 => 1 + rng.next(20),
                1 if rng.next(6) == 0 => FORBIDDEN,
                1 => 1 + rng.next(20),
                2 => 1 + (v.min(w) * 7 + v.max(w) * 13) % 5,
                3 => rng.next(3),
                _ => 1_000_000 + rng.next(2) * 414_200,
            }
        })
        .collect()
}

/// Every pair and some multi-source / multi-target queries: the pruned
/// graph's cost equals Dijkstra's, its route is a real route of that cost,
/// and the arc-by-arc unpacking yields the same route.
pub(super) fn check_against_dijkstra(a: &Arcs, costs: &[u64], qg: &QueryGraph, rng: &mut Lcg) {
    let n = a.first.len() as u32 - 1;
    let mut scratch = ContractionScratch::default();
    let graph = a.graph();
    let cost = |arc: u32| costs[arc as usize];
    type Ends = Vec<(u32, u64)>;
    let mut queries: Vec<(Ends, Ends)> = (0..n)
        .flat_map(|s| (0..n).map(move |t| (vec![(s, 0)], vec![(t, 0)])))
        .collect();
    for _ in 0..50 {
        let mut ends = || -> Vec<(u32, u64)> {
            (0..1 + rng.next(4))
                .map(|_| (rng.next(n as u64) as u32, rng.next(30)))
                .collect()
        };
        queries.push((ends(), ends()));
    }
    for (src, dst) in &queries {
        let want = dijkstra(a, costs, src, dst);
        let got = qg.query(&graph, cost, &mut scratch, src, dst).unwrap();
        assert_eq!(got.as_ref().map(|r| r.cost), want, "{src:?} -> {dst:?}");
        assert_eq!(qg.distance(&mut scratch, src, dst), want);
        let Some(route) = got else { continue };
        a.check(costs, &route, src, dst);
        let (total, first) = qg.start_route(&mut scratch, src, dst).unwrap();
        let mut nodes = vec![first];
        let mut arcs = Vec::new();
        while let Some((arc, head)) = qg.next_arc(&graph, cost, &mut scratch).unwrap() {
            arcs.push(arc);
            nodes.push(head);
        }
        assert_eq!((total, nodes, arcs), (route.cost, route.nodes, route.arcs));
    }
}

#[test]
fn pruned_graph_matches_dijkstra_on_random_graphs_and_metrics() {
    let mut rng = Lcg(2026);
    for seed in 0..6u64 {
        let (grid, coords) = grid_graph(7, 6, seed);
        let sparse = random_graph(40, &mut rng);
        for (a, coords) in [
            (&grid, Some(coords.as_slice())),
            (&grid, None),
            (&sparse, None),
        ] {
            let cch = Contraction::new(&a.graph(), coords).unwrap();
            for kind in 0..5 {
                let costs = metric(a, kind, &mut rng);
                let full = cch.customize(&costs).unwrap();
                let qg = cch.query_graph(&full).unwrap();
                assert_eq!(qg.scale(), full.scale());
                assert!(qg.arcs() <= 2 * cch.edges());
                check_against_dijkstra(a, &costs, &qg, &mut rng);
            }
        }
    }
}

#[test]
fn pruning_drops_dominated_edges_and_stores_a_symmetric_metric_once() {
    // A 10x10 4-connected grid, every arc both ways, unit costs: symmetric,
    // and full of ties the pruning may drop.
    let (w, h) = (10u32, 10u32);
    let mut arcs = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if x + 1 < w {
                arcs.push((y * w + x, y * w + x + 1, 1));
                arcs.push((y * w + x + 1, y * w + x, 1));
            }
            if y + 1 < h {
                arcs.push((y * w + x, (y + 1) * w + x, 1));
                arcs.push(((y + 1) * w + x, y * w + x, 1));
            }
        }
    }
    let a = Arcs::new((w * h) as usize, arcs);
    let coords: Vec<(u32, u32)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let full = cch.customize(&a.cost).unwrap();
    let qg = cch.query_graph(&full).unwrap();
    assert!(matches!(qg.fwd.to, super::pruned::Ranks::Narrow(_)));
    assert!(qg.symmetric());
    assert!(qg.arcs() < 2 * cch.edges(), "some edge is dominated");
    assert!(qg.memory_bytes() < cch.memory_bytes() + full.memory_bytes());
    check_against_dijkstra(&a, &a.cost, &qg, &mut Lcg(5));
    // One arc dearer one way: no longer symmetric, still exact.
    let mut costs = a.cost.clone();
    costs[7] = 3;
    let qg = cch.query_graph(&cch.customize(&costs).unwrap()).unwrap();
    assert!(!qg.symmetric());
    check_against_dijkstra(&a, &costs, &qg, &mut Lcg(6));
}

/// The query graph keeps exactly the edge directions of the definition, on
/// graphs small enough for distances between every pair: `u -> w` (`u`
/// below `w`, an edge of the contraction) is kept when its ends are joined
/// and no upward neighbour `x` of `u` other than `w` has `d(u, x) + d(x, w)
/// = d(u, w)` (`w -> u` alike), at the cost `d(u, w)`. A perfect
/// customization that keeps an edge a triangle matches, or drops one none
/// does, fails here even where queries stay exact.
#[test]
fn pruning_keeps_exactly_the_unmatched_directions_at_their_distances() {
    let mut rng = Lcg(77);
    let mut checked = [0usize; 2];
    for seed in 0..4u64 {
        let (grid, coords) = grid_graph(8, 7, seed);
        let sparse = random_graph(45, &mut rng);
        for (a, coords) in [(&grid, Some(coords.as_slice())), (&sparse, None)] {
            let n = a.first.len() - 1;
            let cch = Contraction::new(&a.graph(), coords).unwrap();
            // Not the zero-cost kind: such metrics are not pruned.
            for kind in [0, 1, 2, 4] {
                let costs = metric(a, kind, &mut rng);
                let qg = cch.query_graph(&cch.customize(&costs).unwrap()).unwrap();
                // d[u][w] between ranks, u64::MAX when not joined.
                let d: Vec<Vec<u64>> = (0..n)
                    .map(|u| {
                        let s = cch.node_of[u];
                        (0..n)
                            .map(|w| {
                                dijkstra(a, &costs, &[(s, 0)], &[(cch.node_of[w], 0)])
                                    .unwrap_or(u64::MAX)
                            })
                            .collect()
                    })
                    .collect();
                for u in 0..n as u32 {
                    let up: Vec<u32> = cch.up_range(u).map(|e| cch.up_to[e]).collect();
                    for &w in &up {
                        let (ui, wi) = (u as usize, w as usize);
                        for side in 0..2 {
                            // Side 0: u -> w; side 1: w -> u.
                            let (from, to) = if side == 0 { (ui, wi) } else { (wi, ui) };
                            let dist = d[from][to];
                            let matched = up.iter().any(|&x| {
                                let x = x as usize;
                                x != wi && d[from][x].saturating_add(d[x][to]) == dist
                            });
                            let want = (dist != u64::MAX && !matched).then_some(dist);
                            let list = qg.side(side);
                            let got = list
                                .find(u, w)
                                .map(|pos| u64::from(list.cost[pos]) * qg.scale());
                            assert_eq!(got, want, "kind {kind}, {u} -> {w}, side {side}");
                            checked[usize::from(want.is_some())] += 1;
                        }
                    }
                }
            }
        }
    }
    // Both outcomes were seen often.
    assert!(checked[0] > 500 && checked[1] > 500, "{checked:?}");
}

#[test]
fn pruned_graph_after_recustomization_equals_a_fresh_one() {
    let (a, coords) = grid_graph(8, 6, 11);
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let mut metric = cch.customize(&a.cost).unwrap();
    let mut costs = a.cost.clone();
    let mut rng = Lcg(13);
    for round in 0..4 {
        random_edit(&a, &cch, &mut metric, &mut costs, &mut rng, (round, 4));
        let qg = cch.query_graph(&metric).unwrap();
        assert_eq!(
            qg,
            cch.query_graph(&cch.customize(&costs).unwrap()).unwrap()
        );
        check_against_dijkstra(&a, &costs, &qg, &mut rng);
    }
}

/// The customization and the perfect customization run subtrees of the
/// elimination forest on several threads, and price a triangle once when
/// every edge costs the same both ways: the same metric and query graph as
/// the passes in rank order, one rank at a time, both ways, under every
/// metric kind (a grid with some arcs one-way, and one with every arc both
/// ways, where the symmetric kind is symmetric).
#[test]
fn passes_on_several_threads_equal_the_rank_order() {
    use super::forest::Forest;
    let (one_way, coords) = grid_graph(120, 80, 21);
    let both_ways = Arcs::new(
        coords.len(),
        (0..one_way.to.len() as u32)
            .flat_map(|e| {
                let (v, w) = (one_way.tail(e), one_way.to[e as usize]);
                [(v, w, 1), (w, v, 1)]
            })
            .collect(),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let mut rng = Lcg(22);
    for (a, every_arc_both_ways) in [(one_way, false), (both_ways, true)] {
        let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
        let ranks = Forest::in_rank_order(cch.nodes());
        for kind in 0..5 {
            let costs = metric(&a, kind, &mut rng);
            let symmetric = cch.symmetric(&costs);
            assert_eq!(symmetric, kind == 2 && every_arc_both_ways, "kind {kind}");
            let (metric, qg) = pool.install(|| {
                let m = cch.customize(&costs).unwrap();
                let qg = cch.query_graph(&m).unwrap();
                (m, qg)
            });
            let one_by_one = cch.customize_on(&ranks, &costs, false).unwrap();
            assert!(metric == one_by_one, "metric kind {kind}");
            assert_eq!(metric.up == metric.down, symmetric, "kind {kind}");
            let qg_one_by_one = cch.query_graph_on(&ranks, &one_by_one, false).unwrap();
            assert_eq!(qg, qg_one_by_one, "kind {kind}");
            let mut scratch = ContractionScratch::default();
            for _ in 0..20 {
                let n = cch.nodes() as u64;
                let (s, t) = ([(rng.next(n) as u32, 0)], [(rng.next(n) as u32, 0)]);
                assert_eq!(
                    qg.distance(&mut scratch, &s, &t),
                    dijkstra(&a, &costs, &s, &t)
                );
            }
        }
    }
}

#[test]
fn unpacking_with_another_graph_is_an_error() {
    let (a, coords) = grid_graph(6, 5, 4);
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let qg = cch.query_graph(&cch.customize(&a.cost).unwrap()).unwrap();
    let mut scratch = ContractionScratch::default();
    let far = [(29, 0)];
    let cost = |arc: u32| a.cost[arc as usize];
    assert!(
        qg.query(&a.graph(), cost, &mut scratch, &[(0, 0)], &far)
            .unwrap()
            .is_some()
    );
    // Other counts.
    let small = Arcs::new(3, vec![(0, 1, 1)]);
    assert!(
        qg.query(&small.graph(), |_| 1, &mut scratch, &[(0, 0)], &far)
            .is_err()
    );
    // Same counts, every arc pointing elsewhere: the arcs cannot be named.
    let moved = Arcs {
        first: a.first.clone(),
        to: a.to.iter().map(|t| (t + 7) % 30).collect(),
        cost: a.cost.clone(),
    };
    let mut route = ContractionRoute::default();
    assert!(
        qg.query_into(
            &moved.graph(),
            cost,
            &mut scratch,
            &[(0, 0)],
            &far,
            &mut route
        )
        .is_err()
    );
    assert!(route.arcs.is_empty() && route.nodes.is_empty());
}

#[test]
fn large_graphs_store_wide_ranks_and_make_ups() {
    use super::pruned::{Makeups, Ranks};
    // 200 x 200 = 40,000 nodes: ranks fit in 16 bits, make-ups not in 15;
    // 272 x 272 = 73,984: neither fits.
    for (side, narrow_ranks) in [(200, true), (272, false)] {
        let (a, coords) = grid_graph(side, side, 8);
        let cch = Contraction::on_grid(&a.graph(), &coords, 16).unwrap();
        let qg = cch.query_graph(&cch.customize(&a.cost).unwrap()).unwrap();
        assert_eq!(matches!(qg.fwd.to, Ranks::Narrow(_)), narrow_ranks);
        assert!(matches!(qg.fwd.how, Makeups::Wide(_)));
        check_random_pairs(&a, &qg, 40);
    }
}

/// `count` random single-source, single-target queries of `qg` (on `a`'s
/// own costs) against Dijkstra, for graphs too large for every pair.
pub(super) fn check_random_pairs(a: &Arcs, qg: &QueryGraph, count: usize) {
    let n = a.first.len() as u64 - 1;
    let mut rng = Lcg(21);
    let mut scratch = ContractionScratch::default();
    let cost = |arc: u32| a.cost[arc as usize];
    for _ in 0..count {
        let (s, t) = ([(rng.next(n) as u32, 0)], [(rng.next(n) as u32, 0)]);
        let route = qg.query(&a.graph(), cost, &mut scratch, &s, &t).unwrap();
        assert_eq!(route.as_ref().map(|r| r.cost), dijkstra(a, &a.cost, &s, &t));
        if let Some(r) = route {
            a.check(&a.cost, &r, &s, &t);
        }
    }
}

#[test]
fn narrow_make_ups_keep_middles_and_offsets_that_fit() {
    use super::pruned::{DIRECT, Makeups, direct};
    let first = [0u32, 200, 400];
    // Direct make-ups, by their arcs' positions (plus one) in their tails'
    // lists: 1 up and 128 down, 127 up, 1 down; then the largest and the
    // smallest middle rank of a narrow graph.
    let cases = [
        direct(&first, Some((0, 0)), Some((1, 327))),
        direct(&first, Some((0, 126)), None),
        direct(&first, None, Some((1, 200))),
        (1 << 15) - 1,
        0,
    ];
    let mut narrow = Makeups::for_nodes(1 << 15);
    let mut wide = Makeups::for_nodes((1 << 15) + 1);
    for how in cases {
        narrow.push(how);
        wide.push(how);
    }
    assert!(matches!(narrow, Makeups::Narrow(_)) && matches!(wide, Makeups::Wide(_)));
    for (i, how) in cases.iter().enumerate() {
        assert_eq!(wide.get(i), *how);
    }
    // An offset of 128 or more becomes 0 ("search the tail's arcs").
    assert_eq!(narrow.get(0), direct(&first, Some((0, 0)), None));
    assert_eq!(narrow.get(1), direct(&first, Some((0, 126)), None));
    assert_eq!(narrow.get(2), direct(&first, None, Some((1, 200))));
    assert_eq!(narrow.get(2) & DIRECT, DIRECT);
    assert_eq!(narrow.get(3), (1 << 15) - 1);
    assert_eq!(narrow.get(4), 0);
}
