//! The classic contraction hierarchy's query graph against Dijkstra.

use super::tests::{Arcs, Lcg, grid_graph};
use super::tests_pruned::{check_against_dijkstra, check_random_pairs, metric, random_graph};
use super::*;

#[test]
fn classic_graph_matches_dijkstra_on_random_graphs_and_metrics() {
    let mut rng = Lcg(2027);
    for seed in 0..6u64 {
        let (grid, _) = grid_graph(7, 6, seed);
        let sparse = random_graph(40, &mut rng);
        for a in [&grid, &sparse] {
            for kind in 0..5 {
                let costs = metric(a, kind, &mut rng);
                let mut qg = QueryGraph::classic(&a.graph(), &costs).unwrap();
                assert_eq!(qg.search(), QuerySearch::BitsetSweep);
                // TreeSweep has no tree here: it sweeps as Sweep does.
                for search in [
                    QuerySearch::BitsetSweep,
                    QuerySearch::Sweep,
                    QuerySearch::Dijkstra,
                    QuerySearch::TreeSweep,
                ] {
                    qg.set_search(search);
                    check_against_dijkstra(a, &costs, &qg, &mut rng);
                }
            }
        }
    }
}

#[test]
fn classic_graph_stores_a_symmetric_metric_once_and_adds_few_shortcuts() {
    let (w, h) = (12u32, 12u32);
    let mut arcs = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if x + 1 < w {
                arcs.push((y * w + x, y * w + x + 1, 2));
                arcs.push((y * w + x + 1, y * w + x, 2));
            }
            if y + 1 < h {
                arcs.push((y * w + x, (y + 1) * w + x, 3));
                arcs.push(((y + 1) * w + x, y * w + x, 3));
            }
        }
    }
    let a = Arcs::new((w * h) as usize, arcs);
    let qg = QueryGraph::classic(&a.graph(), &a.cost).unwrap();
    assert!(qg.symmetric());
    assert!(qg.unpack_only() == 0);
    // No more edges than the customizable contraction's fill.
    let coords: Vec<(u32, u32)> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    assert!(qg.arcs() <= 2 * cch.edges(), "{} arcs", qg.arcs());
    check_against_dijkstra(&a, &a.cost, &qg, &mut Lcg(5));
}

#[test]
fn classic_graph_of_a_large_grid_is_exact() {
    // 272 x 272 = 73,984 nodes: wide ranks.
    let (a, _) = grid_graph(272, 272, 8);
    let qg = QueryGraph::classic(&a.graph(), &a.cost).unwrap();
    assert!(matches!(qg.fwd.to, super::pruned::Ranks::Wide(_)));
    check_random_pairs(&a, &qg, 40);
}

#[test]
fn classic_costs_too_large_for_32_bits_are_refused() {
    // A cycle of three arcs of 2^31 + 1 units each (gcd 1, by another arc):
    // whichever node goes first needs a shortcut of two of them.
    let c = (1u64 << 31) + 1;
    let a = Arcs::new(5, vec![(0, 1, c), (1, 2, c), (2, 0, c), (3, 4, 1)]);
    let r = QueryGraph::classic(&a.graph(), &a.cost);
    assert!(
        matches!(r, Err(ContractionError::CostRange { .. })),
        "{r:?}"
    );
    let short = Arcs::new(1, vec![]);
    assert!(QueryGraph::classic(&short.graph(), &[1]).is_err());
}

#[test]
fn every_search_is_exact_on_the_customizable_query_graph() {
    let mut rng = Lcg(2028);
    for seed in 0..4u64 {
        let (grid, coords) = grid_graph(7, 6, seed);
        let sparse = random_graph(40, &mut rng);
        for (a, coords) in [(&grid, Some(coords.as_slice())), (&sparse, None)] {
            let cch = Contraction::new(&a.graph(), coords).unwrap();
            for kind in 0..5 {
                let costs = metric(a, kind, &mut rng);
                let mut qg = cch.query_graph(&cch.customize(&costs).unwrap()).unwrap();
                assert_eq!(qg.search(), QuerySearch::TreeSweep);
                check_against_dijkstra(a, &costs, &qg, &mut rng);
                for search in [
                    QuerySearch::Sweep,
                    QuerySearch::BitsetSweep,
                    QuerySearch::Dijkstra,
                ] {
                    qg.set_search(search);
                    check_against_dijkstra(a, &costs, &qg, &mut rng);
                }
            }
        }
    }
}
