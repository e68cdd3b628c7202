//! Helpers shared by the benches: the tests' Moving AI helpers
//! (`tests/common/mod.rs`, re-exported here), picking maps and their long
//! queries, criterion's settings, the summary plumbing, and what the peer
//! comparisons share (the benchmark's integer costs, the octile distance,
//! `hierarchical_pathfinding`'s cache).
//!
//! Use from a bench with `mod common;` (a folder, so that cargo does not take
//! it for a bench of its own). Everything that needs the data returns `None`
//! (or nothing) when `../shared/movingai` is absent, as the tests' helpers
//! do.
#![allow(dead_code)] // each bench uses a different part of this module

#[path = "../../tests/common/mod.rs"]
mod data;

pub use data::*;

use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::Criterion;
use hierarchical_pathfinding::prelude::{MooreNeighborhood, PathCache, PathCacheConfig};
use tierpath::io::{self, BucketFilter, ScenarioQuery};
use tierpath::{Grid, Point};

/// Answers `cargo bench --bench NAME -- --help` (or `-h`) at once: criterion
/// prints its options and the process ends, before any map is loaded. Call
/// first in every bench's `main`.
pub fn help_first() {
    if std::env::args().skip(1).any(|a| a == "--help" || a == "-h") {
        // Parsing the arguments prints the help and exits.
        let _ = Criterion::default().configure_from_args();
    }
}

/// How many of the highest buckets count as "long".
pub const TOP_BUCKETS: u32 = 10;

/// The benchmark's rules in integer costs: a straight step.
pub const STRAIGHT: u64 = 10_000;
/// The benchmark's rules in integer costs: a diagonal step.
pub const DIAGONAL: u64 = 14_142;

/// Scenario files of `set` whose map is at least `min` x `min`.
pub fn at_least(set: &str, min: u32) -> Vec<PathBuf> {
    scenario_files(set)
        .into_iter()
        .filter(|f| {
            let scen = io::read_scenario(f).unwrap_or_else(|e| panic!("{e}"));
            scen.queries
                .first()
                .is_some_and(|q| q.width >= min && q.height >= min)
        })
        .collect()
}

/// Per `(set, min, n)` of `picks`: a deterministic sample of `n` of the set's
/// scenario files whose map is at least `min` x `min` (seeded by
/// `seed(set)`), each with its set. `None` when the data is absent.
pub fn pick_files(
    picks: &[(&'static str, u32, usize)],
    seed: impl Fn(&str) -> u64,
) -> Option<Vec<(&'static str, PathBuf)>> {
    movingai_root()?;
    let mut files = Vec::new();
    for &(set, min, n) in picks {
        for f in sample(&at_least(set, min), n, seed(set)) {
            files.push((set, f));
        }
    }
    Some(files)
}

/// A picked map, read, with a sample of its long queries.
pub struct LongQueries {
    /// The map's short name (`arena`).
    pub name: String,
    pub grid: Grid,
    pub queries: Vec<ScenarioQuery>,
}

impl LongQueries {
    /// Reads a scenario file and its map, and samples `n` of its queries
    /// from the top [`TOP_BUCKETS`] buckets (deterministically, seeded by the
    /// map's name).
    pub fn load(file: &Path, n: usize) -> LongQueries {
        let (grid, scen) = load(file);
        let name = short_name(file);
        let long = scen.select(BucketFilter::Top(TOP_BUCKETS));
        let queries = sample(&long, n, seed_of(&name))
            .into_iter()
            .cloned()
            .collect();
        LongQueries {
            name,
            grid,
            queries,
        }
    }

    /// The queries' endpoints.
    pub fn endpoints(&self) -> Vec<(Point, Point)> {
        self.queries.iter().map(|q| (q.start, q.goal)).collect()
    }

    /// `set/name (WxH)`.
    pub fn label(&self, set: &str) -> String {
        format!(
            "{set}/{} ({}x{})",
            self.name,
            self.grid.width(),
            self.grid.height()
        )
    }
}

/// Criterion with the benches' settings: 10 samples, the given warm-up and
/// measurement times, plots only when `plots`, then the command line's
/// options.
pub fn criterion(warm_up: Duration, measurement: Duration, plots: bool) -> Criterion {
    let c = Criterion::default()
        .sample_size(10)
        .warm_up_time(warm_up)
        .measurement_time(measurement);
    let c = if plots { c } else { c.without_plots() };
    c.configure_from_args()
}

/// Whether this run actually benchmarks (`cargo bench`), not just checks the
/// benches (`cargo test --benches`, `--list`): the plain summaries after
/// criterion's report are measured only then.
pub fn benchmarking() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test" || a == "--list")
}

/// The median (the upper one of an even count) of timings.
pub fn median<T: Copy + PartialOrd>(mut xs: Vec<T>) -> T {
    xs.sort_by(|a, b| a.partial_cmp(b).expect("timings are comparable"));
    xs[xs.len() / 2]
}

/// The octile distance in the benchmark's integer costs.
#[inline]
pub fn octile(a: Point, b: Point) -> u64 {
    let dx = a.x.abs_diff(b.x) as u64;
    let dy = a.y.abs_diff(b.y) as u64;
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    DIAGONAL * lo + STRAIGHT * (hi - lo)
}

/// `hierarchical_pathfinding`'s cost of a tile: 1 when passable, -1 (solid)
/// when blocked.
pub fn hpf_cost(grid: &Grid) -> impl Fn((usize, usize)) -> isize + Sync + '_ {
    move |(x, y)| {
        if grid.is_passable(Point::new(x as u32, y as u32)) {
            1
        } else {
            -1
        }
    }
}

/// `hierarchical_pathfinding`'s cache for `grid`: 8-connected (Moore
/// neighbourhood), [`hpf_cost`], chunks of `chunk`.
pub fn hpf_cache(grid: &Grid, chunk: usize) -> PathCache<MooreNeighborhood> {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    PathCache::new(
        (w, h),
        hpf_cost(grid),
        MooreNeighborhood::new(w, h),
        PathCacheConfig::with_chunk_size(chunk),
    )
}
