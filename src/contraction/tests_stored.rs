//! Stored query graphs: a saved graph comes back equal, and a forged one is
//! refused or answers with legal routes of the costs it reports.

use super::stored::{StoredInts, StoredQueryGraph};
use super::tests::{Arcs, Lcg, grid_graph};
use super::tests_pruned::{metric, random_graph};
use super::*;

/// Query graphs of both kinds under every metric kind, with their graphs
/// and costs.
fn cases() -> Vec<(Arcs, Vec<u64>, QueryGraph)> {
    let copy = |a: &Arcs| Arcs {
        first: a.first.clone(),
        to: a.to.clone(),
        cost: a.cost.clone(),
    };
    let mut rng = Lcg(77);
    let mut out = Vec::new();
    for seed in 0..3u64 {
        let (grid, coords) = grid_graph(7, 6, seed);
        let sparse = random_graph(30, &mut rng);
        for (a, coords) in [(grid, Some(coords)), (sparse, None)] {
            let cch = Contraction::new(&a.graph(), coords.as_deref()).unwrap();
            for kind in 0..5 {
                let costs = metric(&a, kind, &mut rng);
                let qg = cch.query_graph(&cch.customize(&costs).unwrap()).unwrap();
                out.push((copy(&a), costs.clone(), qg));
                if let Ok(classic) = QueryGraph::classic(&a.graph(), &costs) {
                    out.push((copy(&a), costs, classic));
                }
            }
        }
    }
    out
}

fn load(a: &Arcs, costs: &[u64], s: StoredQueryGraph) -> Result<QueryGraph, String> {
    QueryGraph::from_stored(s, &a.graph(), |arc| costs[arc as usize])
}

#[test]
fn stored_graphs_come_back_equal() {
    let cases = cases();
    assert!(cases.len() >= 40, "{}", cases.len());
    for (a, costs, qg) in &cases {
        let back = load(a, costs, qg.to_stored()).unwrap();
        assert_eq!(&back, qg);
    }
}

/// Sets element `i` (modulo the length) of a stored list to `v`.
fn poke(ints: &mut StoredInts, i: usize, v: u64) {
    match ints {
        StoredInts::U16(x) if !x.is_empty() => {
            let n = x.len();
            x[i % n] = v as u16
        }
        StoredInts::U32(x) if !x.is_empty() => {
            let n = x.len();
            x[i % n] = v as u32
        }
        StoredInts::U64(x) if !x.is_empty() => {
            let n = x.len();
            x[i % n] = v
        }
        _ => {}
    }
}

/// Every targeted forgery is refused with a message naming it.
#[test]
fn forged_stored_graphs_are_refused() {
    let (a, costs, qg) = cases().swap_remove(0);
    let ok = qg.to_stored();
    let refused = |what: &str, f: &dyn Fn(&mut StoredQueryGraph)| {
        let mut s = ok.clone();
        f(&mut s);
        let err = load(&a, &costs, s).expect_err(what);
        assert!(!err.is_empty());
        err
    };
    let e = refused("ranks", &|s| {
        let StoredInts::U16(r) = &mut s.rank else {
            panic!("narrow ranks")
        };
        r.swap(0, 1);
    });
    assert!(e.contains("permutation"), "{e}");
    let e = refused("search", &|s| s.search = 9);
    assert!(e.contains("search"), "{e}");
    let e = refused("unit", &|s| s.scale = 0);
    assert!(e.contains("unit"), "{e}");
    let e = refused("arcs", &|s| s.input_arcs += 1);
    assert!(e.contains("arcs"), "{e}");
    let e = refused("width", &|s| {
        let StoredInts::U16(r) = &s.rank else {
            panic!("narrow ranks")
        };
        s.rank = StoredInts::U32(r.iter().map(|x| *x as u32).collect());
    });
    assert!(e.contains("width"), "{e}");
    let e = refused("offsets", &|s| s.fwd.first[1] = u32::MAX);
    assert!(e.contains("offsets"), "{e}");
    let e = refused("cost", &|s| s.fwd.cost[0] += 1);
    assert!(e.contains("costs"), "{e}");
    let e = refused("downward", &|s| {
        // An edge that leads to its own rank.
        let u = s.fwd.first.iter().position(|f| *f > 0).unwrap() - 1;
        poke(&mut s.fwd.to, 0, u as u64);
    });
    assert!(e.contains("upward"), "{e}");
    let e = refused("parent", &|s| poke(&mut s.parent, 5, 0));
    assert!(e.contains("parent") || e.contains("ancestors"), "{e}");
    let e = refused("root", &|s| {
        // A rank with edges made a root: its edges leave its ancestors.
        let u = s.fwd.first.iter().position(|f| *f > 0).unwrap() - 1;
        poke(&mut s.parent, u, u as u64);
    });
    assert!(e.contains("ancestors"), "{e}");
    let middle = (0..ok.fwd.cost.len()).find(|i| match &ok.fwd.how {
        StoredInts::U16(h) => h[*i] & (1 << 15) == 0,
        StoredInts::U32(h) => h[*i] & (1 << 31) == 0,
        StoredInts::U64(_) => false,
    });
    if let Some(i) = middle {
        let e = refused("middle", &|s| poke(&mut s.fwd.how, i, 40));
        assert!(e.contains("middle") || e.contains("half"), "{e}");
    }
}

/// Random values written into random places: each forged graph is refused,
/// or answers every pair with a legal route whose cost is its arcs' (never
/// below the least).
#[test]
fn randomly_forged_stored_graphs_are_refused_or_legal() {
    let cases = cases();
    let mut rng = Lcg(5);
    let (mut refused, mut kept) = (0, 0);
    for round in 0..600 {
        let (a, costs, qg) = &cases[round % cases.len()];
        let mut s = qg.to_stored();
        let i = rng.next(1 << 20) as usize;
        let v = match rng.next(4) {
            0 => rng.next(4),
            1 => rng.next(64),
            2 => u64::from(u32::MAX),
            _ => rng.next(1 << 40),
        };
        match rng.next(12) {
            0 => poke(&mut s.rank, i, v),
            1 => poke(&mut s.node_of, i, v),
            2 => poke(&mut s.parent, i, v),
            3 => poke(&mut s.fwd.to, i, v),
            4 => poke(&mut s.fwd.how, i, v),
            5 if !s.fwd.cost.is_empty() => {
                let n = s.fwd.cost.len();
                s.fwd.cost[i % n] = v as u32
            }
            6 => {
                let n = s.fwd.first.len();
                s.fwd.first[i % n] = v as u32
            }
            7 => poke(&mut s.extra_keys, i, v),
            8 => poke(&mut s.extra_how, i, v),
            9 => s.scale = v,
            10 => s.search = v as u8,
            _ => {
                if let Some(b) = &mut s.bwd {
                    poke(&mut b.how, i, v)
                } else {
                    s.bwd = Some(s.fwd.clone());
                    poke(&mut s.bwd.as_mut().unwrap().to, i, v);
                }
            }
        }
        let Ok(forged) = load(a, costs, s) else {
            refused += 1;
            continue;
        };
        kept += 1;
        let n = a.first.len() as u32 - 1;
        let mut scratch = ContractionScratch::default();
        let cost = |arc: u32| costs[arc as usize];
        for src in 0..n {
            for dst in (0..n).step_by(3) {
                let (s, t) = ([(src, 0)], [(dst, 0)]);
                let Some(route) = forged
                    .query(&a.graph(), cost, &mut scratch, &s, &t)
                    .unwrap()
                else {
                    continue;
                };
                a.check(costs, &route, &s, &t);
                let least = super::tests_pruned::dijkstra(a, costs, &s, &t).unwrap();
                assert!(route.cost >= least);
            }
        }
    }
    assert!(refused > 100 && kept > 20, "refused {refused}, kept {kept}");
}
