//! Helpers shared by the integration tests and benches that run on the Moving
//! AI benchmark data (`../shared/movingai`, beside the crate; never copied
//! into the repository).
//!
//! Use from a test with `mod common;`; the benches get it through their own
//! helpers (`benches/common/mod.rs`, also `mod common;`), which re-export it.
//! Every entry point that needs the data returns `None` (or nothing) and
//! prints `skipped: ../shared/movingai not found` when it is absent, so
//! callers skip instead of failing. So that a skip is not mistaken for a
//! pass, the data binary's `movingai_data_present` test ([`check_data`])
//! fails when the data is absent, unless `TIERPATH_SKIP_MOVINGAI=1` says
//! skipping is intended:
//!
//! ```ignore
//! let Some(root) = common::movingai_root() else { return };
//! for scen in common::scenario_files("dao") {
//!     let (grid, scenario) = common::load(&scen);
//!     for q in common::sample(&scenario.select(BucketFilter::Top(5)), 3, common::seed_of(&scenario.path)) {
//!         // ...
//!     }
//! }
//! ```
#![allow(dead_code)] // each test crate uses a different part of this module

pub mod maps;
pub mod reference;

use std::path::{Path, PathBuf};

use tierpath::Grid;
use tierpath::io::{BucketFilter, Scenario, ScenarioQuery, read_map, read_scenario};

/// The five benchmark sets, smallest maps first.
pub const SETS: [&str; 5] = ["dao", "sc1", "mazes", "rooms", "random"];

/// Environment variable that points at another copy of the data.
pub const ROOT_VAR: &str = "TIERPATH_MOVINGAI";

/// Environment variable that says skipping the data tests is intended
/// (`TIERPATH_SKIP_MOVINGAI=1`).
pub const SKIP_VAR: &str = "TIERPATH_SKIP_MOVINGAI";

/// Where the data is looked for: `$TIERPATH_MOVINGAI` when set, else
/// `../shared/movingai` beside the repository.
fn data_location() -> PathBuf {
    match std::env::var_os(ROOT_VAR) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        // Beside the repository; member crates (the command line) sit one
        // folder below its root.
        _ => {
            let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
            let beside = |dir: &Path| dir.join("../shared/movingai");
            if manifest.join("../Cargo.toml").is_file() {
                beside(&manifest.join(".."))
            } else {
                beside(manifest)
            }
        }
    }
}

/// `Ok` when the data is present, or absent with skipping intended
/// ([`SKIP_VAR`]); otherwise `Err` with a message saying where the data was
/// looked for and how to provide it or skip knowingly. The data binary turns
/// it into a failing test, so that `cargo test` shows the skip.
pub fn check_data() -> Result<(), String> {
    let root = data_location();
    let present = root.join("maps").is_dir() && root.join("scenarios").is_dir();
    let skip = std::env::var(SKIP_VAR).is_ok_and(|v| v == "1");
    if present || skip {
        return Ok(());
    }
    Err(format!(
        "the Moving AI benchmark data was not found at {} (expected maps/ and scenarios/ in it), \
         so every real-map test skipped its work. Put the data there (see docs/testing.md), or \
         point {ROOT_VAR} at a copy, or run with {SKIP_VAR}=1 to skip these tests knowingly.",
        root.display()
    ))
}

/// The Moving AI data folder (holding `maps/` and `scenarios/`): `$TIERPATH_MOVINGAI`
/// when set, else `../shared/movingai` relative to the crate's manifest.
/// `None`, with a printed notice, when it is absent.
pub fn movingai_root() -> Option<PathBuf> {
    let root = data_location();
    if root.join("maps").is_dir() && root.join("scenarios").is_dir() {
        Some(root)
    } else {
        eprintln!(
            "skipped: ../shared/movingai not found (looked in {})",
            root.display()
        );
        None
    }
}

/// A number from environment variable `var` (like `PROPTEST_CASES` or a
/// sample scale), `default` when unset or unreadable.
pub fn env_number<T: std::str::FromStr>(var: &str, default: T) -> T {
    std::env::var(var)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The files of `set` in the data's `sub` folder (`"maps"` or `"scenarios"`)
/// ending in `.ext`, sorted by name; empty when the data is absent.
fn data_files(sub: &str, set: &str, ext: &str) -> Vec<PathBuf> {
    let Some(root) = movingai_root() else {
        return Vec::new();
    };
    let dir = root.join(sub).join(set);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    files
}

/// Every `.map` file of `set`, sorted by name; empty when the data is absent.
pub fn map_files(set: &str) -> Vec<PathBuf> {
    data_files("maps", set, "map")
}

/// Every scenario file of `set` (`"dao"`, `"sc1"`, ...), sorted by name; empty
/// when the data is absent.
pub fn scenario_files(set: &str) -> Vec<PathBuf> {
    data_files("scenarios", set, "scen")
}

/// The scenario file of one map, like `scenario_file("dao", "arena")`; `None`
/// when the data is absent.
pub fn scenario_file(set: &str, map: &str) -> Option<PathBuf> {
    let root = movingai_root()?;
    let path = root
        .join("scenarios")
        .join(set)
        .join(format!("{map}.map.scen"));
    assert!(path.is_file(), "{} is missing", path.display());
    Some(path)
}

/// Reads a scenario and the map it names, checking every query fits the map.
/// Panics (naming the file) on any error: the data is expected to be intact.
pub fn load(scen: &Path) -> (Grid, Scenario) {
    let scenario = read_scenario(scen).unwrap_or_else(|e| panic!("{e}"));
    let map = scenario.map_path().unwrap_or_else(|e| panic!("{e}"));
    let grid = read_map(&map).unwrap_or_else(|e| panic!("{e}"));
    scenario
        .check_against(&grid)
        .unwrap_or_else(|e| panic!("{e}"));
    (grid, scenario)
}

/// The short name of a scenario or map file: `arena` for
/// `.../arena.map.scen`.
pub fn short_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.trim_end_matches(".scen")
        .trim_end_matches(".map")
        .to_string()
}

/// A small deterministic random generator (SplitMix64), so samples are the
/// same on every machine and run.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// A number in `0..n` (`n > 0`), for `u32` sizes.
    pub fn below_u32(&mut self, n: u32) -> u32 {
        self.below(n as usize) as u32
    }

    /// `true` with a chance of `p` percent.
    pub fn percent(&mut self, p: u32) -> bool {
        self.below(100) < p as usize
    }
}

/// A seed from a name (64-bit FNV-1a), so a map's sample does not depend on
/// which other maps are sampled.
pub fn seed_of(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// A deterministic sample of `n` of `items` (all of them when fewer), without
/// repetition, kept in their original order.
pub fn sample<T: Clone>(items: &[T], n: usize, seed: u64) -> Vec<T> {
    if n >= items.len() {
        return items.to_vec();
    }
    let mut rng = Rng::new(seed);
    let mut idx: Vec<usize> = (0..items.len()).collect();
    // Partial Fisher-Yates: the first n slots become the sample.
    for i in 0..n {
        let j = i + rng.below(items.len() - i);
        idx.swap(i, j);
    }
    let mut chosen = idx[..n].to_vec();
    chosen.sort_unstable();
    chosen.into_iter().map(|i| items[i].clone()).collect()
}

/// A deterministic pick of a scenario's queries that emphasises long ones:
/// `n_long` from the `top` highest buckets, plus `n_any` from all buckets
/// (not repeating those), in file order.
pub fn pick_queries(
    scenario: &Scenario,
    top: u32,
    n_long: usize,
    n_any: usize,
    seed: u64,
) -> Vec<&ScenarioQuery> {
    let long = sample(&scenario.select(BucketFilter::Top(top)), n_long, seed);
    let rest: Vec<&ScenarioQuery> = scenario
        .queries
        .iter()
        .filter(|q| !long.iter().any(|l| l.line == q.line))
        .collect();
    let mut picked = long;
    picked.extend(sample(&rest, n_any, seed ^ 0x5555_5555_5555_5555));
    picked.sort_by_key(|q| q.line);
    picked
}

/// A sampled run over one benchmark set: how many of its maps (a
/// deterministic sample; `usize::MAX` for all), and per map how many long
/// queries and how many from any bucket.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub set: &'static str,
    pub maps: usize,
    pub long: usize,
    pub any: usize,
}

impl Plan {
    /// The set's scenario files and a deterministic sample of `maps * scale`
    /// of them (seeded by `seed`); both empty when the data is absent.
    pub fn files(&self, scale: usize, seed: u64) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let files = scenario_files(self.set);
        let maps = sample(&files, self.maps.saturating_mul(scale), seed);
        (files, maps)
    }

    /// The queries to run on one map (`file`, read into `scenario`): `long *
    /// scale` from the `top` highest buckets and `any * scale` from any bucket
    /// (seeded by the map's name, see [`pick_queries`]), then every query the
    /// data marks unsolvable (see [`expects_no_path`]) not already picked.
    /// Panics when that leaves none.
    pub fn queries<'a>(
        &self,
        file: &Path,
        scenario: &'a Scenario,
        top: u32,
        scale: usize,
    ) -> Vec<&'a ScenarioQuery> {
        let seed = seed_of(&short_name(file));
        let mut picked = pick_queries(scenario, top, self.long * scale, self.any * scale, seed);
        let extra: Vec<&ScenarioQuery> = scenario
            .queries
            .iter()
            .filter(|q| expects_no_path(q) && !picked.iter().any(|p| p.line == q.line))
            .collect();
        picked.extend(extra);
        assert!(!picked.is_empty(), "{}: no queries", scenario.path);
        picked
    }
}

/// A query named for failure messages: file, line, bucket, endpoints and
/// optimal length.
pub fn query_context(scenario: &Scenario, q: &ScenarioQuery) -> String {
    format!(
        "{}:{} (bucket {}, {} -> {}, optimal {})",
        scenario.path, q.line, q.bucket, q.start, q.goal, q.optimal
    )
}

/// Whether a query is one the data marks as unsolvable: some old `dao`
/// scenarios list queries between disconnected cells with optimal length 0
/// (in bucket 0). A search must report no path for them.
pub fn expects_no_path(q: &ScenarioQuery) -> bool {
    q.optimal == 0.0 && q.start != q.goal
}

/// Whether a length found (in straight steps) matches a scenario's printed
/// optimal length within relative tolerance `rel` (absolute below one step).
pub fn length_matches(found: f64, optimal: f64, rel: f64) -> bool {
    (found - optimal).abs() <= rel * optimal.max(1.0)
}
