//! The two contraction kinds of `Hierarchy::contract_with` against exact
//! JPS, whole queries, on the long queries (every query of the top 10
//! buckets) of six large StarCraft maps: TheFrozenSea, Cauldron, Expedition,
//! Nightshade, BrokenSteppes, SapphireIsles (600 queries).
//!
//! Per map: the hierarchy's build, each contraction's time (`contract_with`)
//! and the bytes per map cell with it; then, in one run and interleaved,
//! the least time over `REPS` passes (default 7) of JPS and of the hierarchy
//! contracted each way, and the phase split (`QueryCache::time_phases`,
//! each query's least time over the passes: min-of-reps is the measure that
//! holds on a loaded machine). Every hierarchy path is checked no shorter
//! than JPS's.
//!
//! `cargo bench --bench contraction_kinds` (`REPS=15` for steadier figures).
//! Skips with a notice when `../shared/movingai` is absent. Not a criterion
//! bench: the figures are printed.

mod common;

use std::time::{Duration, Instant};

use tierpath::io::{BucketFilter, read_scenario};
use tierpath::{ContractionKind, Hierarchy, Jps, JpsCache, QueryCache};

const MAPS: [&str; 6] = [
    "TheFrozenSea",
    "Cauldron",
    "Expedition",
    "Nightshade",
    "BrokenSteppes",
    "SapphireIsles",
];

const KINDS: [ContractionKind; 2] = [ContractionKind::Customizable, ContractionKind::Classic];

fn main() {
    common::help_first();
    let Some(root) = common::movingai_root() else {
        return;
    };
    let reps: usize = common::env_number("REPS", 7).max(1);
    let (mut jps_all, mut nq) = (Duration::ZERO, 0usize);
    let mut kind_all = [Duration::ZERO; 2];
    // connect, abstract, refine, smooth (seconds, summed over queries).
    let mut phases = [[0f64; 4]; 2];
    let mut bytes: [Vec<f64>; 3] = Default::default();
    for m in MAPS {
        let scen_path = root.join(format!("scenarios/sc1/{m}.map.scen"));
        let grid = tierpath::io::read_map(root.join(format!("maps/sc1/{m}.map"))).expect("map");
        let scen = read_scenario(&scen_path).expect("scenario");
        let queries = scen.select(BucketFilter::Top(common::TOP_BUCKETS));
        let cells = grid.width() as f64 * grid.height() as f64;
        let clock = Instant::now();
        let base = Hierarchy::build(grid.clone()).expect("builds");
        let build = clock.elapsed();
        bytes[0].push(base.memory_bytes() as f64 / cells);
        let mut hs = Vec::new();
        let mut contract = Vec::new();
        for (k, kind) in KINDS.iter().enumerate() {
            let mut h = base.clone();
            let clock = Instant::now();
            h.contract_with(*kind).expect("contracts");
            contract.push(clock.elapsed());
            bytes[k + 1].push(h.memory_bytes() as f64 / cells);
            hs.push(h);
        }
        let jps = Jps::new(&grid).expect("uniform map");
        let (mut jc, mut cache) = (JpsCache::new(), QueryCache::new());
        for q in &queries {
            let best = jps
                .find_path(&mut jc, q.start, q.goal)
                .unwrap()
                .path
                .unwrap()
                .cost;
            for h in &hs {
                let p = h
                    .find_path(&mut cache, q.start, q.goal)
                    .unwrap()
                    .path
                    .unwrap();
                assert!(p.cost >= best, "{m}: shorter than optimal");
            }
        }
        let (mut jps_best, mut best) = (Duration::MAX, [Duration::MAX; 2]);
        for _ in 0..reps {
            let clock = Instant::now();
            for q in &queries {
                std::hint::black_box(jps.find_path(&mut jc, q.start, q.goal).unwrap());
            }
            jps_best = jps_best.min(clock.elapsed());
            for (k, h) in hs.iter().enumerate() {
                let clock = Instant::now();
                for q in &queries {
                    std::hint::black_box(h.find_path(&mut cache, q.start, q.goal).unwrap());
                }
                best[k] = best[k].min(clock.elapsed());
            }
        }
        cache.time_phases(true);
        for (k, h) in hs.iter().enumerate() {
            let mut least = vec![[f64::MAX; 4]; queries.len()];
            for _ in 0..reps {
                for (i, q) in queries.iter().enumerate() {
                    let out = h.find_path(&mut cache, q.start, q.goal).unwrap();
                    let p = out.stats.phases.expect("timed");
                    let t = [p.connect, p.abstract_search, p.refine, p.smooth];
                    for (l, t) in least[i].iter_mut().zip(t) {
                        *l = l.min(t.as_secs_f64());
                    }
                }
            }
            for l in &least {
                for (sum, t) in phases[k].iter_mut().zip(l) {
                    *sum += t;
                }
            }
        }
        cache.time_phases(false);
        let us = |d: Duration| d.as_secs_f64() / queries.len() as f64 * 1e6;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{m:14} build {:5.0} ms; contract customizable {:5.0} ms, classic {:5.0} ms | B/cell {:.2}, \
             +customizable {:.2}, +classic {:.2} | per query: jps {:6.1} us, customizable {:5.1} us \
             ({:.2}x), classic {:5.1} us ({:.2}x)",
            ms(build),
            ms(contract[0]),
            ms(contract[1]),
            bytes[0].last().unwrap(),
            bytes[1].last().unwrap(),
            bytes[2].last().unwrap(),
            us(jps_best),
            us(best[0]),
            jps_best.as_secs_f64() / best[0].as_secs_f64(),
            us(best[1]),
            jps_best.as_secs_f64() / best[1].as_secs_f64(),
        );
        jps_all += jps_best;
        for k in 0..2 {
            kind_all[k] += best[k];
        }
        nq += queries.len();
    }
    let n = nq as f64;
    println!(
        "all {nq} queries: jps {:.1} us",
        jps_all.as_secs_f64() / n * 1e6
    );
    for (k, name) in ["customizable", "classic"].iter().enumerate() {
        let p = phases[k];
        println!(
            "  {name:12} {:6.1} us ({:.2}x jps); phases (least per query): connect {:.1}, abstract {:.1}, \
             refine {:.1}, smooth {:.1} us",
            kind_all[k].as_secs_f64() / n * 1e6,
            jps_all.as_secs_f64() / kind_all[k].as_secs_f64(),
            p[0] / n * 1e6,
            p[1] / n * 1e6,
            p[2] / n * 1e6,
            p[3] / n * 1e6,
        );
    }
    let median = |v: &[f64]| common::median(v.to_vec());
    println!(
        "bytes per cell, median: hierarchy {:.2}, with customizable {:.2}, with classic {:.2}",
        median(&bytes[0]),
        median(&bytes[1]),
        median(&bytes[2])
    );
}
