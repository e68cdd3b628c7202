//! Frame budgets: how many path requests a [`PathQueue`] answers per frame at
//! a fixed budget of expanded nodes, on two real maps of the Moving AI
//! benchmarks (StarCraft's Cauldron, 1024x1024, and rooms/64room_000,
//! 512x512).
//!
//! Everything is prepared before timing: the map read, its hierarchy built,
//! 256 requests sampled from all of its scenario's buckets (short and long
//! paths, as units ask; deterministic, seeded by the map's name), and every
//! queue answer checked against the one-shot `find_path`. The criterion
//! groups time one frame (`update` with the budget) of a queue kept full
//! (refilled, untimed, between frames). After criterion's report, a plain
//! summary per map and budget serves all 256 requests frame by frame and
//! gives the frames needed, requests answered per frame, the mean and
//! largest frame time, and the total against answering the same requests
//! one-shot (the cost of slicing), each the best of three passes.
//!
//! `cargo bench --bench queue`. Skips with a notice when `../shared/movingai`
//! is absent.

mod common;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use tierpath::io::BucketFilter;
use tierpath::{Hierarchy, PathQueue, Point, QueryCache};

/// The maps, as `(set, name)`.
const MAPS: [(&str, &str); 2] = [("sc1", "Cauldron"), ("rooms", "64room_000")];
/// Requests per map.
const REQUESTS: usize = 256;
/// Expansion budgets per frame.
const BUDGETS: [u64; 3] = [1_000, 5_000, 20_000];

struct BenchMap {
    label: String,
    hierarchy: Hierarchy,
    requests: Vec<(Point, Point)>,
}

fn setup() -> Option<Vec<BenchMap>> {
    let root = common::movingai_root()?;
    let mut maps = Vec::new();
    for (set, name) in MAPS {
        let scen: PathBuf = root
            .join("scenarios")
            .join(set)
            .join(format!("{name}.map.scen"));
        if !scen.is_file() {
            println!("queue: skipped {set}/{name}: {} not found", scen.display());
            continue;
        }
        let (grid, scenario) = common::load(&scen);
        let all = scenario.select(BucketFilter::All);
        let requests = common::sample(&all, REQUESTS, common::seed_of(name))
            .into_iter()
            .map(|q| (q.start, q.goal))
            .collect();
        let label = format!("{set}/{name} ({}x{})", grid.width(), grid.height());
        let hierarchy = Hierarchy::build(grid).expect("default settings");
        maps.push(BenchMap {
            label,
            hierarchy,
            requests,
        });
    }
    (!maps.is_empty()).then_some(maps)
}

/// Serves every request of `m` with `budget` per frame: (frames, per-frame
/// times, answers in request order).
fn serve_all(
    m: &BenchMap,
    queue: &mut PathQueue,
    budget: u64,
) -> (usize, Vec<Duration>, Vec<tierpath::QueryOutcome>) {
    let h = &m.hierarchy;
    let ids: Vec<_> = m
        .requests
        .iter()
        .map(|(s, t)| queue.push(h, *s, *t).expect("valid request"))
        .collect();
    let mut times = Vec::new();
    while queue.pending() > 0 {
        let t = Instant::now();
        black_box(queue.update(h, budget).expect("same hierarchy"));
        times.push(t.elapsed());
    }
    let answers = ids
        .iter()
        .map(|id| queue.take(*id).expect("answered"))
        .collect();
    (times.len(), times, answers)
}

fn main() {
    common::help_first();
    let Some(maps) = setup() else {
        println!("queue: skipped: ../shared/movingai not found");
        return;
    };
    // Check before timing: the queue's answers are the one-shot answers.
    let mut cache = QueryCache::new();
    let mut queue = PathQueue::new();
    for m in &maps {
        queue.clear();
        let (_, _, answers) = serve_all(m, &mut queue, BUDGETS[0]);
        for ((s, t), got) in m.requests.iter().zip(&answers) {
            let want = m.hierarchy.find_path(&mut cache, *s, *t).expect("valid");
            assert_eq!(got, &want, "{}: {s} -> {t}", m.label);
        }
    }
    println!(
        "queue: {REQUESTS} requests from all buckets per map on {}",
        maps.iter()
            .map(|m| m.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let mut c = common::criterion(Duration::from_millis(500), Duration::from_secs(2), false);
    for m in &maps {
        let h = &m.hierarchy;
        let mut group = c.benchmark_group(format!("queue/{}", m.label));
        for budget in BUDGETS {
            let mut queue = PathQueue::new();
            queue.reserve(h).expect("a fresh queue");
            let mut next = 0usize;
            group.bench_function(format!("frame of {budget} expansions"), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // Keep the queue full (untimed); drop old answers.
                        while queue.pending() < 64 {
                            let (s, t) = m.requests[next % m.requests.len()];
                            queue.push(h, s, t).expect("valid request");
                            next += 1;
                        }
                        while queue.pop_finished().is_some() {}
                        let t = Instant::now();
                        black_box(queue.update(h, budget).expect("same hierarchy"));
                        total += t.elapsed();
                    }
                    total
                })
            });
        }
        group.finish();
    }
    c.final_summary();

    if !common::benchmarking() {
        return;
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    for m in &maps {
        // The same requests one-shot, for the cost of slicing: the best of
        // three passes (as for the queue below).
        let one_shot = (0..3)
            .map(|_| {
                let t = Instant::now();
                for (s, g) in &m.requests {
                    black_box(m.hierarchy.find_path(&mut cache, *s, *g).expect("valid"));
                }
                t.elapsed()
            })
            .min()
            .expect("three passes");
        for budget in BUDGETS {
            let mut queue = PathQueue::new();
            queue.reserve(&m.hierarchy).expect("a fresh queue");
            // The best of three passes.
            let (frames, times, _) = (0..3)
                .map(|_| serve_all(m, &mut queue, budget))
                .min_by_key(|(_, times, _)| times.iter().sum::<Duration>())
                .expect("three passes");
            let total: Duration = times.iter().sum();
            let mut sorted = times.clone();
            sorted.sort();
            let (p50, p95) = (sorted[frames / 2], sorted[frames * 95 / 100]);
            let longest = sorted[frames - 1];
            println!(
                "queue: {}: budget {budget}: {frames} frames for {REQUESTS} requests, \
                 {:.1} answered per frame; frame mean {:.0} us, median {:.0} us, p95 {:.0} us, \
                 longest {:.0} us; total {:.1} ms (one-shot {:.1} ms, x{:.2})",
                m.label,
                REQUESTS as f64 / frames as f64,
                us(total) / frames as f64,
                us(p50),
                us(p95),
                us(longest),
                total.as_secs_f64() * 1e3,
                one_shot.as_secs_f64() * 1e3,
                total.as_secs_f64() / one_shot.as_secs_f64()
            );
        }
    }
}
