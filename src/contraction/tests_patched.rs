//! A patched contraction against Dijkstra on random grouped graphs whose
//! groups are laid out again, edit after edit.

use super::tests::{Arcs, Lcg};
use super::tests_pruned::dijkstra;
use super::*;
use crate::grid::Point;

/// An arc's cost per metric.
type Costs = [u64; 2];

/// A link: (group, port) at both ends, and its costs there and back.
type Link = (u32, u32, u32, u32, Costs, Costs);

/// A grid of groups; each keeps its first `ports` nodes through edits (the
/// only nodes links between groups join, as a cluster's facing
/// transitions). Links go both ways, as a hierarchy's do.
struct Grouped {
    side: u32,
    ports: Vec<u32>,
    /// Per group, per node, its arcs inside the group: (index, cost per
    /// metric).
    inside: Vec<Vec<Vec<(u32, Costs)>>>,
    /// Links between ports of neighbouring groups: (group, port) twice, and
    /// the costs there and back.
    links: Vec<Link>,
}

/// A random arc cost per metric (the second metric forbids some arcs).
fn cost(rng: &mut Lcg) -> [u64; 2] {
    let c = 1 + rng.next(20);
    let other = if rng.next(5) == 0 {
        FORBIDDEN
    } else {
        c + rng.next(6)
    };
    [c, other]
}

impl Grouped {
    fn new(side: u32, rng: &mut Lcg) -> Grouped {
        let groups = side * side;
        let mut g = Grouped {
            side,
            ports: (0..groups).map(|_| 1 + rng.next(3) as u32).collect(),
            inside: vec![Vec::new(); groups as usize],
            links: Vec::new(),
        };
        let all: Vec<u32> = (0..groups).collect();
        g.lay_out(&all, rng);
        g
    }

    /// Lays the groups `fresh` out afresh (each its whole inside, or, one
    /// time in three, only new costs, and one in three with an arc fewer)
    /// and the links between two of them.
    fn lay_out(&mut self, fresh: &[u32], rng: &mut Lcg) {
        for &i in fresh {
            let nodes = &mut self.inside[i as usize];
            match rng.next(3) {
                0 if !nodes.is_empty() => {
                    for out in nodes.iter_mut() {
                        for arc in out.iter_mut() {
                            arc.1 = cost(rng);
                        }
                    }
                }
                1 if !nodes.is_empty() => {
                    let v = rng.next(nodes.len() as u64) as usize;
                    nodes[v].pop();
                }
                _ => {
                    let count = self.ports[i as usize] + rng.next(4) as u32;
                    *nodes = (0..count)
                        .map(|_| {
                            (0..rng.next(4))
                                .map(|_| (rng.next(count as u64) as u32, cost(rng)))
                                .collect()
                        })
                        .collect();
                }
            }
        }
        let is_fresh = |g: u32| fresh.contains(&g);
        self.links.retain(|l| !(is_fresh(l.0) && is_fresh(l.2)));
        for &i in fresh {
            let (x, y) = (i % self.side, i / self.side);
            // Towards the right and down, so each pair is laid out once.
            for n in [
                (x + 1 < self.side).then_some(i + 1),
                (y + 1 < self.side).then_some(i + self.side),
            ]
            .into_iter()
            .flatten()
            .filter(|n| is_fresh(*n))
            {
                for _ in 0..rng.next(4) {
                    let a = rng.next(self.ports[i as usize] as u64) as u32;
                    let b = rng.next(self.ports[n as usize] as u64) as u32;
                    self.links.push((i, a, n, b, cost(rng), cost(rng)));
                }
            }
        }
    }

    /// Each node's place in its group (what a patch matches nodes by: a
    /// group keeps its first nodes, the ports, through edits).
    fn places(&self) -> Vec<Point> {
        let mut places = Vec::new();
        for (g, nodes) in self.inside.iter().enumerate() {
            places.extend((0..nodes.len() as u32).map(|v| Point::new(v, g as u32)));
        }
        places
    }

    fn group_first(&self) -> Vec<u32> {
        let mut first = vec![0];
        for g in &self.inside {
            first.push(first.last().unwrap() + g.len() as u32);
        }
        first
    }

    /// The graph as CSR, with metric `m`'s costs, and each node's place.
    fn arcs(&self, m: usize) -> (Arcs, Vec<(u32, u32)>) {
        let gf = self.group_first();
        let mut arcs = Vec::new();
        let mut coords = Vec::new();
        for (g, nodes) in self.inside.iter().enumerate() {
            let (gx, gy) = (g as u32 % self.side, g as u32 / self.side);
            for (v, out) in nodes.iter().enumerate() {
                let id = gf[g] + v as u32;
                coords.push((gx * 8 + v as u32 % 4, gy * 8 + v as u32 / 4));
                for (w, c) in out {
                    arcs.push((id, gf[g] + w, c[m]));
                }
            }
        }
        for (g, a, h, b, there, back) in &self.links {
            let (u, v) = (gf[*g as usize] + a, gf[*h as usize] + b);
            arcs.push((u, v, there[m]));
            arcs.push((v, u, back[m]));
        }
        (Arcs::new(coords.len(), arcs), coords)
    }
}

/// Checks that `route` is a legal route of `a` from a source to a target
/// whose cost is its ends' and arcs'.
fn check_route(a: &Arcs, route: &ContractionRoute, sources: &[(u32, u64)], targets: &[(u32, u64)]) {
    assert_eq!(route.nodes.len(), route.arcs.len() + 1, "{route:?}");
    let start = route.nodes[0];
    let end = *route.nodes.last().unwrap();
    let mut cost = sources
        .iter()
        .filter(|s| s.0 == start)
        .map(|s| s.1)
        .min()
        .expect("a source");
    for (k, arc) in route.arcs.iter().enumerate() {
        assert_eq!(a.tail(*arc), route.nodes[k], "arc {k} of {route:?}");
        assert_eq!(
            a.to[*arc as usize],
            route.nodes[k + 1],
            "arc {k} of {route:?}"
        );
        assert!(a.cost[*arc as usize] < FORBIDDEN);
        cost += a.cost[*arc as usize];
    }
    // A target listed twice counts its cheapest final cost.
    cost += targets
        .iter()
        .filter(|t| t.0 == end)
        .map(|t| t.1)
        .min()
        .expect("a target");
    assert_eq!(cost, route.cost, "{route:?}");
}

#[test]
fn patched_routes_are_the_least_after_every_edit() {
    // Groups laid out again that fit the base's shape, and that do not;
    // of those, the ones some of whose nodes still stand for base nodes.
    let mut fits = [0; 2];
    let mut partly = 0;
    for seed in 0..12u64 {
        let mut rng = Lcg(seed * 7919 + 3);
        let side = 3 + rng.next(4) as u32;
        let mut g = Grouped::new(side, &mut rng);
        let base = [g.arcs(0), g.arcs(1)];
        let shape = base[0].0.graph();
        let cch = Contraction::new(&shape, Some(&base[0].1)).unwrap();
        let costs: Vec<Vec<u64>> = base.iter().map(|(a, _)| a.cost.clone()).collect();
        let metrics = costs.iter().map(|c| cch.customize(c).unwrap()).collect();
        let mut p = Patchable::new(
            cch,
            (&base[0].0.first, &base[0].0.to),
            &g.group_first(),
            metrics,
            costs,
            g.places(),
        );
        assert!(!p.is_patched());
        let mut s = ContractionScratch::default();
        let mut route = ContractionRoute::default();
        for round in 0..6 {
            let mut fresh: Vec<u32> = (0..1 + rng.next(3))
                .map(|_| rng.next((side * side) as u64) as u32)
                .collect();
            fresh.sort_unstable();
            fresh.dedup();
            g.lay_out(&fresh, &mut rng);
            let now = [g.arcs(0).0, g.arcs(1).0];
            let gf = g.group_first();
            let places = g.places();
            let current: Vec<_> = now
                .iter()
                .map(|a| Current {
                    first: &a.first,
                    to: &a.to,
                    group_first: &gf,
                    cost: |e: u32| a.cost[e as usize],
                    place: &places,
                })
                .collect();
            p.patch(&current, &fresh).unwrap();
            assert!(p.is_patched());
            for g in &fresh {
                fits[usize::from(p.in_patch(*g))] += 1;
                let (standing, inside) = p.standing(*g);
                partly += usize::from(standing > 0 && inside > 0);
            }
            let n = gf[gf.len() - 1] as u64;
            for _ in 0..40 {
                let ends = |rng: &mut Lcg| -> Vec<(u32, u64)> {
                    (0..1 + rng.next(2))
                        .map(|_| (rng.next(n) as u32, rng.next(10)))
                        .collect()
                };
                let (sources, targets) = (ends(&mut rng), ends(&mut rng));
                for (m, a) in now.iter().enumerate() {
                    let want = dijkstra(a, &a.cost, &sources, &targets);
                    let found = p.route(m, &current[m], &mut s, &sources, &targets, &mut route);
                    let context = format!(
                        "seed {seed}, round {round}, metric {m}, {sources:?} -> {targets:?}"
                    );
                    assert_eq!(found, want.is_some(), "{context}");
                    if let Some(want) = want {
                        assert_eq!(route.cost, want, "{context}");
                        check_route(a, &route, &sources, &targets);
                    }
                }
            }
        }
    }
    assert!(fits[0] > 20 && fits[1] > 20, "{fits:?}");
    assert!(partly > 10, "{partly} groups partly in the patch");
}

#[test]
fn a_group_changed_without_being_named_is_found_out() {
    let mut rng = Lcg(5);
    let mut g = Grouped::new(3, &mut rng);
    let (a, coords) = g.arcs(0);
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let metric = cch.customize(&a.cost).unwrap();
    let mut p = Patchable::new(
        cch,
        (&a.first, &a.to),
        &g.group_first(),
        vec![metric],
        vec![a.cost.clone()],
        g.places(),
    );
    // A group that lost a node without being named is found out.
    let port = g.ports[4];
    g.inside[4].truncate(port as usize);
    g.inside[4].extend(std::iter::repeat_n(Vec::new(), 5));
    let (now, _) = g.arcs(0);
    let gf = g.group_first();
    let places = g.places();
    let current = [Current {
        first: &now.first,
        to: &now.to,
        group_first: &gf,
        cost: |e: u32| now.cost[e as usize],
        place: &places,
    }];
    assert_eq!(p.patch(&current, &[0]), Err(PatchError::Unnamed(4)));
}
