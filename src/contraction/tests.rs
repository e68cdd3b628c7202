//! Unit tests: small graphs against a Bellman-Ford oracle.

use super::*;

/// A graph built from an arc list.
pub(super) struct Arcs {
    pub(super) first: Vec<u32>,
    pub(super) to: Vec<u32>,
    pub(super) cost: Vec<u64>,
}

impl Arcs {
    pub(super) fn new(nodes: usize, mut arcs: Vec<(u32, u32, u64)>) -> Self {
        arcs.sort_by_key(|a| a.0);
        let mut first = vec![0u32; nodes + 1];
        for (a, _, _) in &arcs {
            first[*a as usize + 1] += 1;
        }
        for i in 0..nodes {
            first[i + 1] += first[i];
        }
        Arcs {
            first,
            to: arcs.iter().map(|a| a.1).collect(),
            cost: arcs.iter().map(|a| a.2).collect(),
        }
    }

    pub(super) fn graph(&self) -> ArcGraph<'_> {
        ArcGraph::new(&self.first, &self.to).unwrap()
    }

    pub(super) fn tail(&self, arc: u32) -> u32 {
        (self.first.partition_point(|f| *f <= arc) - 1) as u32
    }

    /// Least cost by Bellman-Ford from the sources, plus the final distances.
    fn oracle(&self, costs: &[u64], sources: &[(u32, u64)], targets: &[(u32, u64)]) -> Option<u64> {
        let n = self.first.len() - 1;
        let mut d = vec![u64::MAX; n];
        for (s, c) in sources {
            d[*s as usize] = d[*s as usize].min(*c);
        }
        for _ in 0..n {
            for arc in 0..self.to.len() as u32 {
                let (a, b) = (self.tail(arc) as usize, self.to[arc as usize] as usize);
                if d[a] != u64::MAX && costs[arc as usize] < FORBIDDEN {
                    d[b] = d[b].min(d[a] + costs[arc as usize]);
                }
            }
        }
        targets
            .iter()
            .filter(|(t, _)| d[*t as usize] != u64::MAX)
            .map(|(t, c)| d[*t as usize] + c)
            .min()
    }

    /// Checks a route: consecutive arcs, right ends, right cost.
    pub(super) fn check(
        &self,
        costs: &[u64],
        route: &ContractionRoute,
        s: &[(u32, u64)],
        t: &[(u32, u64)],
    ) {
        assert_eq!(route.nodes.len(), route.arcs.len() + 1);
        let first = route.nodes[0];
        let last = *route.nodes.last().unwrap();
        let init = s
            .iter()
            .filter(|x| x.0 == first)
            .map(|x| x.1)
            .min()
            .unwrap();
        let fin = t.iter().filter(|x| x.0 == last).map(|x| x.1).min().unwrap();
        let mut total = init + fin;
        for (k, arc) in route.arcs.iter().enumerate() {
            assert_eq!(self.tail(*arc), route.nodes[k]);
            assert_eq!(self.to[*arc as usize], route.nodes[k + 1]);
            total += costs[*arc as usize];
        }
        assert_eq!(total, route.cost);
    }
}

/// A small deterministic generator.
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    pub(super) fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A `w x h` grid, 4-connected, some arcs missing, random costs.
pub(super) fn grid_graph(w: u32, h: u32, seed: u64) -> (Arcs, Vec<(u32, u32)>) {
    let mut rng = Lcg(seed);
    let mut arcs = Vec::new();
    let id = |x: u32, y: u32| y * w + x;
    for y in 0..h {
        for x in 0..w {
            for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
                let (nx, ny) = (x as i32 + dx, y as i32 + dy);
                if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 || rng.next(5) == 0 {
                    continue;
                }
                arcs.push((id(x, y), id(nx as u32, ny as u32), 1 + rng.next(9)));
            }
        }
    }
    let coords = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).collect();
    (Arcs::new((w * h) as usize, arcs), coords)
}

fn all_pairs(a: &Arcs, cch: &Contraction, metric: &ContractionMetric, costs: &[u64]) {
    let n = a.first.len() as u32 - 1;
    let mut scratch = ContractionScratch::default();
    for s in 0..n {
        for t in 0..n {
            let (src, dst) = ([(s, 0)], [(t, 0)]);
            let want = a.oracle(costs, &src, &dst);
            let got = cch.query(metric, &mut scratch, &src, &dst);
            assert_eq!(got.as_ref().map(|r| r.cost), want, "{s} -> {t}");
            if let Some(r) = got {
                a.check(costs, &r, &src, &dst);
            }
        }
    }
}

/// One simulated edit: `count` random arcs forbidden (even rounds) or given
/// new costs (odd rounds) in `costs`, re-customized into `metric`; the arcs.
pub(super) fn random_edit(
    a: &Arcs,
    cch: &Contraction,
    metric: &mut ContractionMetric,
    costs: &mut [u64],
    rng: &mut Lcg,
    (round, count): (usize, usize),
) -> Vec<u32> {
    let changed: Vec<u32> = (0..count)
        .map(|_| rng.next(costs.len() as u64) as u32)
        .collect();
    for arc in &changed {
        costs[*arc as usize] = if round % 2 == 0 {
            FORBIDDEN
        } else {
            1 + rng.next(20)
        };
    }
    cch.recustomize(&a.graph(), metric, costs, &changed)
        .unwrap();
    changed
}

#[test]
fn grids_all_pairs_with_and_without_coordinates() {
    for seed in 0..4 {
        let (a, coords) = grid_graph(6, 5, seed);
        for coords in [Some(coords.as_slice()), None] {
            let cch = Contraction::new(&a.graph(), coords).unwrap();
            let metric = cch.customize(&a.cost).unwrap();
            all_pairs(&a, &cch, &metric, &a.cost);
        }
        // Orders read off grids of 1x1, 2x2 and 3x3 cells.
        for cell in 1..=3 {
            let cch = Contraction::on_grid(&a.graph(), &coords, cell).unwrap();
            let metric = cch.customize(&a.cost).unwrap();
            all_pairs(&a, &cch, &metric, &a.cost);
        }
    }
}

#[test]
fn loops_parallel_arcs_and_isolated_nodes() {
    let a = Arcs::new(
        5,
        vec![
            (0, 0, 1),
            (0, 1, 7),
            (0, 1, 3),
            (1, 2, 2),
            (2, 1, 1),
            (1, 0, 4),
        ],
    );
    let cch = Contraction::new(&a.graph(), None).unwrap();
    let metric = cch.customize(&a.cost).unwrap();
    all_pairs(&a, &cch, &metric, &a.cost);
    let mut scratch = ContractionScratch::default();
    let r = cch
        .query(&metric, &mut scratch, &[(0, 0)], &[(2, 0)])
        .unwrap();
    assert_eq!((r.cost, r.arcs.len()), (5, 2));
}

#[test]
fn many_sources_and_targets_with_initial_distances() {
    let (a, coords) = grid_graph(7, 7, 9);
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let metric = cch.customize(&a.cost).unwrap();
    let mut scratch = ContractionScratch::default();
    let sources = [(0, 5), (3, 0), (10, 2), (3, 1)];
    let targets = [(48, 0), (40, 7), (30, 3)];
    let want = a.oracle(&a.cost, &sources, &targets);
    let got = cch.query(&metric, &mut scratch, &sources, &targets);
    assert_eq!(got.as_ref().map(|r| r.cost), want);
    a.check(&a.cost, &got.unwrap(), &sources, &targets);
    // A node both source and target meets itself.
    let r = cch
        .query(&metric, &mut scratch, &[(4, 2)], &[(4, 3)])
        .unwrap();
    assert_eq!((r.cost, r.nodes.as_slice()), (5, [4].as_slice()));
    assert_eq!(cch.distance(&metric, &mut scratch, &[], &targets), None);
}

/// A re-customized metric against a fresh customization: the same costs
/// and make-ups, ties broken alike.
fn assert_same_as_fresh(
    cch: &Contraction,
    metric: &ContractionMetric,
    costs: &[u64],
    (seed, round): (u64, u64),
) {
    assert_eq!(
        *metric,
        cch.customize(costs).unwrap(),
        "seed {seed} round {round}"
    );
    // The make-ups counted through each rank, kept by re-customization.
    if !metric.made_through.is_empty() {
        assert_eq!(
            metric.made_through,
            super::recustomize::made_through(metric, cch.nodes()),
            "seed {seed} round {round}"
        );
    }
}

#[test]
fn forbidden_arcs_and_recustomization_equal_a_fresh_customization() {
    for (seed, (w, h)) in [(8, 6), (11, 9), (5, 13), (14, 14)]
        .into_iter()
        .cycle()
        .take(12)
        .enumerate()
    {
        let (a, coords) = grid_graph(w, h, seed as u64);
        let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
        let mut metric = cch.customize(&a.cost).unwrap();
        let mut costs = a.cost.clone();
        let mut rng = Lcg(77 + seed as u64);
        for round in 0..10 {
            random_edit(
                &a,
                &cch,
                &mut metric,
                &mut costs,
                &mut rng,
                (round, 1 + round % 5),
            );
            assert_same_as_fresh(&cch, &metric, &costs, (seed as u64, round as u64));
        }
        if seed == 0 {
            all_pairs(&a, &cch, &metric, &costs);
        }
    }
}

#[test]
fn recustomizing_symmetric_costs_equals_a_fresh_customization() {
    // Every arc costs what its reverse does, so a fresh customization
    // prices each triangle once (the symmetric sweep); edits keep that.
    for seed in 0..6 {
        let (mut a, coords) = grid_graph(9, 8, 40 + seed);
        let reverse: Vec<Option<usize>> = (0..a.to.len())
            .map(|k| {
                let (from, to) = (a.tail(k as u32), a.to[k]);
                let out = a.first[to as usize] as usize..a.first[to as usize + 1] as usize;
                out.into_iter().find(|r| a.to[*r] == from)
            })
            .collect();
        for (k, r) in reverse.iter().enumerate() {
            if let Some(r) = *r {
                a.cost[r.max(k)] = a.cost[r.min(k)];
            }
        }
        let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
        let mut metric = cch.customize(&a.cost).unwrap();
        let mut costs = a.cost.clone();
        let mut rng = Lcg(seed);
        for round in 0..10u64 {
            let mut changed = Vec::new();
            for _ in 0..1 + round % 4 {
                let k = rng.next(costs.len() as u64) as usize;
                let c = if round % 3 == 0 {
                    FORBIDDEN
                } else {
                    1 + rng.next(9)
                };
                for arc in std::iter::once(k).chain(reverse[k]) {
                    costs[arc] = c;
                    changed.push(arc as u32);
                }
            }
            cch.recustomize(&a.graph(), &mut metric, &costs, &changed)
                .unwrap();
            assert_same_as_fresh(&cch, &metric, &costs, (seed, round));
        }
        if seed == 0 {
            all_pairs(&a, &cch, &metric, &costs);
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let (first, to) = ([0u32, 1, 1], [5u32]);
    assert!(matches!(
        ArcGraph::new(&first, &to),
        Err(ContractionError::BadTarget {
            arc: 0,
            target: 5,
            nodes: 2
        })
    ));
    assert!(ArcGraph::new(&[1, 1], &[0]).is_err());
    assert!(ArcGraph::new(&[0, 2, 1], &[0, 0]).is_err());
    assert!(ArcGraph::new(&[0, 1], &[0, 0]).is_err());
    let a = Arcs::new(3, vec![(0, 1, 1), (1, 2, 1)]);
    let cch = Contraction::new(&a.graph(), None).unwrap();
    assert!(cch.customize(&[1]).is_err());
    assert!(Contraction::new(&a.graph(), Some(&[(0, 0)])).is_err());
    assert!(Contraction::on_grid(&a.graph(), &[(0, 0)], 4).is_err());
    assert!(Contraction::on_grid(&a.graph(), &[(0, 0); 3], 0).is_err());
    let mut metric = cch.customize(&a.cost).unwrap();
    assert_eq!(
        cch.recustomize(&a.graph(), &mut metric, &a.cost, &[9]),
        Err(ContractionError::NoSuchArc(9))
    );
    let other = Arcs::new(3, vec![(0, 2, 1), (1, 2, 1)]);
    assert!(
        cch.recustomize(&other.graph(), &mut metric, &other.cost, &[])
            .is_err()
    );
    // The empty graph.
    let empty = Contraction::new(&ArcGraph::new(&[0], &[]).unwrap(), None).unwrap();
    let none = empty.customize(&[]).unwrap();
    let mut scratch = ContractionScratch::default();
    assert_eq!(
        empty.distance(&none, &mut scratch, &[(0, 0)], &[(0, 0)]),
        None
    );
    assert_eq!(empty.tree_height(), 0);
    // Out-of-range endpoints are ignored.
    assert_eq!(
        cch.distance(&metric, &mut scratch, &[(7, 0)], &[(1, 0)]),
        None
    );
}

#[test]
fn costs_are_stored_in_units_of_their_common_divisor() {
    // Octile-like costs: multiples of 200; the route must stay exact.
    let (mut a, coords) = grid_graph(6, 6, 3);
    for c in &mut a.cost {
        *c = 1_000_000 + (*c % 3) * 414_200;
    }
    let cch = Contraction::new(&a.graph(), Some(&coords)).unwrap();
    let mut metric = cch.customize(&a.cost).unwrap();
    assert_eq!(metric.scale(), 200);
    all_pairs(&a, &cch, &metric, &a.cost);
    // A change off the scale re-customizes afresh, still exact.
    let mut costs = a.cost.clone();
    costs[4] = 1_000_001;
    cch.recustomize(&a.graph(), &mut metric, &costs, &[4])
        .unwrap();
    assert_eq!(metric.scale(), 1);
    assert_eq!(metric, cch.customize(&costs).unwrap());
    all_pairs(&a, &cch, &metric, &costs);
}

#[test]
fn costs_too_large_for_32_bits_are_refused() {
    // 0 -> 1 -> 2, each arc 3 * 2^30 units of 1 (the sum needs 33 bits), and
    // 0 -> 2 at one more.
    let big = 3 << 30;
    let a = Arcs::new(3, vec![(0, 1, big), (1, 2, big), (0, 2, big + 1)]);
    let cch = Contraction::new(&a.graph(), None).unwrap();
    // The least costs fit; the triangle through 1 (if 1 is contracted first)
    // does not: either refused as such, or exact, never wrapped.
    match cch.customize(&a.cost) {
        Ok(metric) => {
            all_pairs(&a, &cch, &metric, &a.cost);
            // The query graph too: refused, or exact.
            match cch.query_graph(&metric) {
                Ok(qg) => {
                    let mut scratch = ContractionScratch::default();
                    for (s, t) in [(0, 2), (0, 1), (1, 2)] {
                        let want = a.oracle(&a.cost, &[(s, 0)], &[(t, 0)]);
                        assert_eq!(qg.distance(&mut scratch, &[(s, 0)], &[(t, 0)]), want);
                    }
                }
                Err(e) => assert_eq!(e, ContractionError::CostRange { scale: 1 }),
            }
        }
        Err(e) => assert_eq!(e, ContractionError::CostRange { scale: 1 }),
    }
    let a = Arcs::new(2, vec![(0, 1, 1 << 33), (1, 0, 1)]);
    let cch = Contraction::new(&a.graph(), None).unwrap();
    assert_eq!(
        cch.customize(&a.cost),
        Err(ContractionError::CostRange { scale: 1 })
    );
    // The same costs scaled by a common divisor fit.
    let a = Arcs::new(2, vec![(0, 1, 1 << 33), (1, 0, 1 << 20)]);
    let cch = Contraction::new(&a.graph(), None).unwrap();
    let metric = cch.customize(&a.cost).unwrap();
    assert_eq!(metric.scale(), 1 << 20);
    all_pairs(&a, &cch, &metric, &a.cost);
}

/// Calls `check` with the arcs `arcs(u, v, w)` on three nodes and their
/// contraction, for every naming `(u, v, w)` of the nodes whose ranks
/// (`[u, v, w]`) `ranked` accepts; fails when it accepts none.
fn for_ranked_namings(
    arcs: impl Fn(u32, u32, u32) -> Vec<(u32, u32, u64)>,
    ranked: impl Fn([u32; 3]) -> bool,
    mut check: impl FnMut(&Arcs, &Contraction, (u32, u32, u32)),
) {
    let mut met = false;
    for (u, v, w) in [
        (0, 1, 2),
        (0, 2, 1),
        (1, 0, 2),
        (1, 2, 0),
        (2, 0, 1),
        (2, 1, 0),
    ] {
        let a = Arcs::new(3, arcs(u, v, w));
        let cch = Contraction::new(&a.graph(), None).unwrap();
        if ranked([u, v, w].map(|x| cch.rank[x as usize])) {
            met = true;
            check(&a, &cch, (u, v, w));
        }
    }
    assert!(met, "no naming of the roles is ranked as asked");
}

/// A lower triangle whose sum is too large for 32 bits refuses the
/// customization, whether the metric is symmetric (each triangle priced
/// once) or not: `u`'s arcs to `v` and to `w` (both ways, or `v -> u -> w`
/// alone) at `3 * 2^30` and `3 * 2^30 + 1` units, so that `{v, w}` is a
/// fill edge through `u`. The namings that rank `u` lowest are refused.
#[test]
fn lower_triangles_too_large_for_32_bits_are_refused() {
    let (a, b) = (3 << 30, (3 << 30) + 1);
    for symmetric in [true, false] {
        let arcs = |u, v, w| {
            let mut arcs = vec![(v, u, a), (u, w, b)];
            if symmetric {
                arcs.extend([(u, v, a), (w, u, b)]);
            }
            arcs
        };
        let u_lowest = |[u, v, w]: [u32; 3]| u < v && u < w;
        for_ranked_namings(arcs, u_lowest, |arcs, cch, (u, _, _)| {
            assert_eq!(cch.symmetric(&arcs.cost), symmetric);
            assert_eq!(
                cch.customize(&arcs.cost),
                Err(ContractionError::CostRange { scale: 1 }),
                "symmetric {symmetric}, u {u}"
            );
        });
    }
}

/// A re-customization that makes a lower triangle's sum too large for 32
/// bits refuses, as a customization would, even where the triangle makes
/// nothing up (the edge it is a triangle of keeps its arc, and nothing is
/// made up through `u`, so the dearer edge's triangles are checked for
/// overflow alone): `u <-> v` at `3 * 2^30` units, `u <-> w` at one, and
/// `v <-> w` at two; then `u <-> w` at `2^30 + 1` (odd, so that the unit
/// stays one).
#[test]
fn recustomized_sums_too_large_for_32_bits_are_refused() {
    let big = 3 << 30;
    let arcs = |u, v, w| {
        vec![
            (u, v, big),
            (v, u, big),
            (u, w, 1),
            (w, u, 1),
            (v, w, 2),
            (w, v, 2),
        ]
    };
    let u_lowest = |[u, v, w]: [u32; 3]| u < v && u < w;
    for_ranked_namings(arcs, u_lowest, |arcs, cch, (u, _, w)| {
        let mut metric = cch.customize(&arcs.cost).unwrap();
        let arc = |s: u32, t: u32| {
            (arcs.first[s as usize]..arcs.first[s as usize + 1])
                .find(|a| arcs.to[*a as usize] == t)
                .unwrap()
        };
        let changed = [arc(u, w), arc(w, u)];
        let mut costs = arcs.cost.clone();
        for a in changed {
            costs[a as usize] = (1 << 30) + 1;
        }
        let refused = Err(ContractionError::CostRange { scale: 1 });
        assert_eq!(cch.customize(&costs).map(|_| ()), refused);
        assert_eq!(
            cch.recustomize(&arcs.graph(), &mut metric, &costs, &changed)
                .map(|_| ()),
            refused
        );
    });
}

/// A sum too large for 32 bits that only the perfect pass meets (an
/// intermediate triangle `u -> v -> w` where `u -> w` has no cost) refuses
/// the query graph, as the customization refuses its own: `u -> v` and
/// `v -> w` at `3 * 2^30` units each, and `w -> u` at one unit, which makes
/// `{u, w}` an edge. The naming that ranks them `u < v < w` customizes
/// (no lower triangle sums past 32 bits) and its query graph is refused.
#[test]
fn sums_too_large_for_32_bits_in_the_perfect_pass_are_refused() {
    let big = 3 << 30;
    let arcs = |u, v, w| vec![(u, v, big), (v, w, big), (w, u, 1)];
    let in_order = |[u, v, w]: [u32; 3]| u < v && v < w;
    for_ranked_namings(arcs, in_order, |arcs, cch, _| {
        let metric = cch.customize(&arcs.cost).unwrap();
        assert_eq!(
            cch.query_graph(&metric),
            Err(ContractionError::CostRange { scale: 1 })
        );
    });
}

#[test]
fn search_spaces_sort_by_rank_as_a_comparison_sort_does() {
    let mut buf = Vec::new();
    let mut x = 12345u64;
    for (len, ranks) in [
        (10, 20),
        (300, 300),
        (1000, 70_000),
        (5000, 1 << 24),
        (256, 257),
    ] {
        // `len` distinct ranks below `ranks`, shuffled.
        let mut v: Vec<u32> = (0..len as u32).map(|i| i * (ranks / len) as u32).collect();
        for i in (1..v.len()).rev() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            v.swap(i, (x >> 33) as usize % (i + 1));
        }
        let mut want = v.clone();
        want.sort_unstable();
        super::query::sort_ranks(&mut v, &mut buf, ranks);
        assert_eq!(v, want, "{len} ranks below {ranks}");
    }
}

#[test]
fn search_spaces_of_a_few_ascending_runs_sort_by_merging() {
    let mut buf = Vec::new();
    let mut x = 777u64;
    for runs in [1, 2, 3, 5, 16, 17, 40] {
        for len in [0, 1, 7, 300, 2000] {
            // Distinct ranks dealt at random into `runs` lists, each
            // ascending, then laid end to end (as the walks up the tree lay
            // their chains).
            let mut lists = vec![Vec::new(); runs];
            for r in 0..len as u32 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                lists[(x >> 33) as usize % runs].push(r * 3);
            }
            let mut v: Vec<u32> = lists.concat();
            let mut want = v.clone();
            want.sort_unstable();
            super::query::sort_ranks(&mut v, &mut buf, 3 * len.max(1));
            assert_eq!(v, want, "{len} ranks in {runs} runs");
        }
    }
}
