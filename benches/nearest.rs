//! Nearest of many: [`Hierarchy::nearest`] against the exact flat
//! multi-target Dijkstra (`Dijkstra::nearest`) on two real maps of the Moving
//! AI benchmarks (StarCraft's Cauldron, 1024x1024, and rooms/64room_000,
//! 512x512), with 8 and 64 targets scattered at random over the map (some on
//! other islands), from 40 random starts.
//!
//! Everything is prepared before timing, and every answer is checked: the
//! target chosen costs exactly as much as the flat Dijkstra's (its cost found
//! by a flat A* to it). The criterion groups time a pass over the 40 starts
//! with each; the plain summary after them gives, per map and target count,
//! the median query time of the flat Dijkstra and of the hierarchy with
//! local radii of 256 to 16,384 expansions (the default is
//! `NEAREST_LOCAL_EXPANSIONS`), and how the hierarchy's answers were found.
//!
//! `cargo bench --bench nearest`. Skips with a notice when
//! `../shared/movingai` is absent.

mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{Rng, median};
use tierpath::{
    AStar, Dijkstra, Grid, Hierarchy, NEAREST_LOCAL_EXPANSIONS, Point, QueryCache, SearchCache,
};

const MAPS: [(&str, &str); 2] = [("sc1", "Cauldron"), ("rooms", "64room_000")];
const STARTS: usize = 40;
const TARGETS: [usize; 2] = [8, 64];
const RADII: [u64; 5] = [64, 256, 1024, 4096, 16384];

/// A start and its targets.
type Query = (Point, Vec<Point>);

struct Case {
    label: String,
    grid: Grid,
    hierarchy: Hierarchy,
    /// Per target count: (start, targets) pairs.
    sets: Vec<(usize, Vec<Query>)>,
}

fn random_cell(grid: &Grid, rng: &mut Rng) -> Point {
    loop {
        let p = Point::new(rng.below_u32(grid.width()), rng.below_u32(grid.height()));
        if grid.is_passable(p) {
            return p;
        }
    }
}

fn setup() -> Option<Vec<Case>> {
    let root = common::movingai_root()?;
    let mut cases = Vec::new();
    for (set, name) in MAPS {
        let path = root.join("maps").join(set).join(format!("{name}.map"));
        if !path.is_file() {
            println!(
                "nearest: skipped {set}/{name}: {} not found",
                path.display()
            );
            continue;
        }
        let grid = tierpath::io::read_map(&path).unwrap_or_else(|e| panic!("{e}"));
        let mut rng = Rng::new(common::seed_of(name));
        let sets = TARGETS
            .iter()
            .map(|&k| {
                let queries = (0..STARTS)
                    .map(|_| {
                        let s = random_cell(&grid, &mut rng);
                        let targets = (0..k).map(|_| random_cell(&grid, &mut rng)).collect();
                        (s, targets)
                    })
                    .collect();
                (k, queries)
            })
            .collect();
        let hierarchy = Hierarchy::build(grid.clone()).expect("default settings");
        cases.push(Case {
            label: format!("{set}/{name} ({}x{})", grid.width(), grid.height()),
            grid,
            hierarchy,
            sets,
        });
    }
    (!cases.is_empty()).then_some(cases)
}

/// The flat answer's cost, `None` when no target is reachable.
fn flat(grid: &Grid, cache: &mut SearchCache, s: Point, targets: &[Point]) -> Option<u64> {
    let (found, _) = Dijkstra::new(grid)
        .nearest(cache, s, targets)
        .expect("valid");
    found.map(|n| n.path.cost.0)
}

fn main() {
    common::help_first();
    let Some(cases) = setup() else {
        println!("nearest: skipped: ../shared/movingai not found");
        return;
    };
    let mut flat_cache = SearchCache::new();
    let mut cache = QueryCache::new();
    // Check before timing: the choice is always a nearest target.
    for c in &cases {
        for (_, queries) in &c.sets {
            for (s, targets) in queries {
                let want = flat(&c.grid, &mut flat_cache, *s, targets);
                for r in RADII {
                    let got = c
                        .hierarchy
                        .nearest_within(&mut cache, *s, targets, r)
                        .expect("valid");
                    let cost = got.nearest.map(|n| {
                        AStar::new(&c.grid)
                            .find_path(&mut flat_cache, *s, targets[n.target])
                            .expect("valid")
                            .path
                            .expect("reachable")
                            .cost
                            .0
                    });
                    assert_eq!(cost, want, "{}: from {s}, radius {r}", c.label);
                }
            }
        }
    }
    println!(
        "nearest: {STARTS} starts with 8 and 64 random targets on {}",
        cases
            .iter()
            .map(|c| c.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut crit = common::criterion(Duration::from_millis(500), Duration::from_secs(2), false);
    for c in &cases {
        for (k, queries) in &c.sets {
            let mut group = crit.benchmark_group(format!("nearest/{}/{k} targets", c.label));
            group.bench_function("flat_dijkstra", |b| {
                b.iter(|| {
                    for (s, t) in queries {
                        black_box(flat(&c.grid, &mut flat_cache, *s, t));
                    }
                })
            });
            group.bench_function("hierarchy", |b| {
                b.iter(|| {
                    for (s, t) in queries {
                        black_box(c.hierarchy.nearest(&mut cache, *s, t).expect("valid"));
                    }
                })
            });
            group.finish();
        }
    }
    crit.final_summary();

    if !common::benchmarking() {
        return;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let time = |f: &mut dyn FnMut()| {
        median(
            (0..5)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed()
                })
                .collect(),
        )
    };
    for c in &cases {
        for (k, queries) in &c.sets {
            let flat_times: Vec<Duration> = queries
                .iter()
                .map(|(s, t)| {
                    time(&mut || {
                        black_box(flat(&c.grid, &mut flat_cache, *s, t));
                    })
                })
                .collect();
            let mean = |ts: &[Duration]| ts.iter().sum::<Duration>() / ts.len() as u32;
            let mut line = format!(
                "nearest: {} {k} targets: flat Dijkstra median {:.0} us, mean {:.0} us",
                c.label,
                us(median(flat_times.clone())),
                us(mean(&flat_times))
            );
            for r in RADII {
                let mut methods = BTreeMap::new();
                let times: Vec<Duration> = queries
                    .iter()
                    .map(|(s, t)| {
                        let out = c
                            .hierarchy
                            .nearest_within(&mut cache, *s, t, r)
                            .expect("valid");
                        *methods
                            .entry(format!("{:?}", out.stats.method))
                            .or_insert(0) += 1;
                        time(&mut || {
                            black_box(
                                c.hierarchy
                                    .nearest_within(&mut cache, *s, t, r)
                                    .expect("valid"),
                            );
                        })
                    })
                    .collect();
                let default = if r == NEAREST_LOCAL_EXPANSIONS {
                    " (default)"
                } else {
                    ""
                };
                line.push_str(&format!(
                    "; radius {r}{default}: median {:.0} us, mean {:.0} us, max {:.0} us {methods:?}",
                    us(median(times.clone())),
                    us(mean(&times)),
                    us(times.iter().max().copied().unwrap_or_default())
                ));
            }
            println!("{line}");
        }
    }
}
