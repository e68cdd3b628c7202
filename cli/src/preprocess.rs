//! `tierpath preprocess MAP... [-o FILE | --out-dir DIR] [--cluster-size N]
//! [--max-size K] [--contract] [--cell-landmarks N] [--jobs N] [--json]`:
//! builds the hierarchy of one map or many (for units of 1x1 to KxK cells),
//! contracts its cluster graph and adds cell landmarks when asked (both
//! saved with it, so a load computes neither), saves
//! each to a `.tph` file, and prints what every build cost and produced
//! (with `--max-size` above 1, a table per map of what each unit size uses).
//!
//! # Where files go
//! * `-o FILE`: one map only, saved to FILE.
//! * `--out-dir DIR` (created when missing): `DIR/<map file name>.tph`, for
//!   any number of maps (`arena.map` -> `DIR/arena.map.tph`).
//! * Neither: beside each map (`maps/arena.map` -> `maps/arena.map.tph`),
//!   where `tierpath info` finds the map by itself.
//!
//! # Parallelism
//! `--jobs N` maps are built at once (default: one per core), each by its own
//! job thread, which pulls the next map when it is done; every build is itself
//! parallel on rayon's global pool (islands and dead ends beside entrances and
//! the cluster graph, and the cluster graph across clusters). The job threads
//! are plain threads rather than a rayon pool on purpose: a rayon worker that
//! waits for a build may start another map's work meanwhile, which would both
//! exceed N maps in flight and count the other map's time in this map's build.
//! With N > 1 the maps share the cores, so per-map times are wall times under
//! that contention; `--jobs 1` times each map alone.

mod stats;

pub use stats::{Table, headers, per_size_table, round3, stage_columns, stats_json, stats_row};

use super::CliResult;
use crate::entrances::EntrancesArg;
use crate::polish::PolishArg;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use tierpath::{BuildStats, HierarchyBuilder, TOTAL_STAGE};

/// Arguments of `tierpath preprocess`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Maps to preprocess (Moving AI `.map` or terrain text).
    #[arg(value_name = "MAP", required = true)]
    pub maps: Vec<PathBuf>,
    /// Output file, for a single MAP (default: `<MAP>.tph` beside the map).
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "out",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
    /// Output folder, created when missing: each map is saved as
    /// `DIR/<map file name>.tph` (default: each beside its map).
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub out_dir: Option<PathBuf>,
    /// Side of a cluster, in cells (2 to 1024; by default 16, or 32 on a
    /// map of scattered obstacles).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=1024))]
    pub cluster_size: Option<u32>,
    /// Serve units of 1x1 up to K x K cells (1 to 255): `solve`, `path`,
    /// `render` and `bench` then take `--size` up to K with this file.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = crate::unit::parse)]
    pub max_size: u32,
    /// Whether queries on these files polish their paths: `auto` decides
    /// per map (on where obstacles are scattered).
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = PolishArg::Auto)]
    pub polish: PolishArg,
    /// Where transitions go along the entrances between clusters: `auto`
    /// puts them at the ends only on large maps of open ground (768x768 or
    /// more, a fifth of the clusters wall-free).
    #[arg(long, value_enum, value_name = "WHERE", default_value_t = EntrancesArg::Auto)]
    pub entrances: EntrancesArg,
    /// Also contract each cluster graph (`HierarchyBuilder::contract`: queries
    /// then search the contraction), saved in the file: loading it takes
    /// no contraction.
    #[arg(long)]
    pub contract: bool,
    /// Also store every cell's distance from N landmarks (0 to 4;
    /// `Hierarchy::add_cell_landmarks`), saved in the file: queries for
    /// units of one cell are then answered by exact jump point search at any
    /// distance, within its budget. For maps like Dragon Age's, of uniform
    /// cost (a weighted map is an error); 4 bytes per cell per landmark.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub cell_landmarks: u8,
    /// Maps built at once (default: the number of cores). Each build is itself
    /// parallel.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
    /// Also print everything as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// One map built and saved.
#[derive(Debug, Clone)]
pub struct Built {
    /// The map file.
    pub map: PathBuf,
    /// The hierarchy file written.
    pub output: PathBuf,
    /// The build's statistics.
    pub stats: BuildStats,
    /// Milliseconds reading the map.
    pub read_ms: f64,
    /// Milliseconds contracting the cluster graph (the build's stage), when
    /// asked.
    pub contract_ms: Option<f64>,
    /// Milliseconds adding the cell landmarks, when asked.
    pub cell_landmarks_ms: Option<f64>,
    /// Milliseconds serialising and writing the file.
    pub save_ms: f64,
    /// Size of the file written.
    pub file_bytes: u64,
}

/// Runs `tierpath preprocess`.
pub fn run(args: Args) -> CliResult {
    let outputs = output_paths(&args)?;
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create output folder {}: {e}", dir.display()))?;
    }
    let mut builder = args.entrances.apply(
        HierarchyBuilder::new()
            .max_unit_size(args.max_size)
            .polish(args.polish.into()),
    );
    if let Some(side) = args.cluster_size {
        builder = builder.cluster_size(side);
    }
    let n = args.maps.len();
    let jobs = args
        .jobs
        .map(|j| j as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |p| p.get()))
        .clamp(1, n.max(1));

    let progress = if n > 1 {
        let bar =
            ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr_with_hz(8));
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} maps {elapsed} {wide_msg}")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };

    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Result<Built, String>>>> =
        (0..n).map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let map = &args.maps[i];
                    let result = preprocess_one(&builder, map, &outputs[i], &args);
                    match &result {
                        Ok(_) => progress.set_message(file_name(map)),
                        Err(e) => progress.suspend(|| eprintln!("error: {e}")),
                    }
                    progress.inc(1);
                    *results[i].lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
                }
            });
        }
    });
    progress.finish_and_clear();
    let wall = started.elapsed().as_secs_f64();

    let results: Vec<Result<Built, String>> = results
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|p| p.into_inner())
                .unwrap_or_else(|| Err("not built".to_string()))
        })
        .collect();
    let built: Vec<&Built> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
    let failed: Vec<(&PathBuf, &String)> = args
        .maps
        .iter()
        .zip(&results)
        .filter_map(|(m, r)| r.as_ref().err().map(|e| (m, e)))
        .collect();

    let mut out = std::io::stdout().lock();
    let stage_names = stage_columns(built.iter().map(|b| &b.stats));
    let mut table = Table::new(headers(&stage_names));
    for (map, result) in args.maps.iter().zip(&results) {
        match result {
            Ok(b) => table.row(stats_row(
                &file_name(&b.map),
                &b.stats,
                &stage_names,
                Some(b.file_bytes),
            )),
            Err(e) => table.row(vec![file_name(map), format!("FAILED: {e}")]),
        }
    }
    let totals = Totals::of(&built);
    if n > 1 && !built.is_empty() {
        table.separator();
        table.row(totals.row(&stage_names, built.len()));
    }
    table.print(&mut out)?;
    for b in &built {
        if let Some(c) = b.contract_ms {
            writeln!(
                out,
                "{}: cluster graph contracted in {c:.1} ms (a build stage, beside the islands and dead ends; saved in the file)",
                file_name(&b.map)
            )?;
        }
        if let Some(c) = b.cell_landmarks_ms {
            writeln!(
                out,
                "{}: {} cell landmarks added in {c:.1} ms (saved in the file)",
                file_name(&b.map),
                args.cell_landmarks
            )?;
        }
    }
    if args.max_size > 1 {
        for b in &built {
            writeln!(
                out,
                "{}: unit sizes 1..={}",
                file_name(&b.map),
                args.max_size
            )?;
            per_size_table(&b.stats).print(&mut out)?;
        }
    }
    let destination = match (&args.output, &args.out_dir) {
        (Some(f), _) => f.display().to_string(),
        (_, Some(d)) => format!("{}/", d.display()),
        _ if n > 1 => "beside each map".to_string(),
        _ => "beside the map".to_string(),
    };
    writeln!(
        out,
        "{} of {n} map{} built and saved ({destination}), {} failed, in {:.2} s wall \
         (--jobs {jobs}, cluster size {}, unit sizes 1..={}; build ms = whole build, stage \
         times overlap)",
        built.len(),
        if n == 1 { "" } else { "s" },
        failed.len(),
        wall,
        args.cluster_size
            .map_or_else(|| "by map".to_string(), |c| c.to_string()),
        args.max_size,
    )?;
    if args.json {
        let maps: Vec<serde_json::Value> = built.iter().map(|b| built_json(b)).collect();
        let failures: Vec<serde_json::Value> = failed
            .iter()
            .map(|(m, e)| serde_json::json!({"map": m.display().to_string(), "error": e}))
            .collect();
        let json = serde_json::json!({
            "cluster_size": args.cluster_size,
            "entrances": format!("{:?}", args.entrances).to_lowercase(),
            "max_unit_size": args.max_size,
            "jobs": jobs,
            "wall_ms": round3(wall * 1e3),
            "maps": maps,
            "failed": failures,
            "totals": totals.json(built.len()),
        });
        writeln!(out, "{json}")?;
    }
    out.flush()?;
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} of {n} maps failed", failed.len()).into())
    }
}

/// Where each map's hierarchy goes; errors on ambiguous or clashing outputs.
fn output_paths(args: &Args) -> CliResult<Vec<PathBuf>> {
    let n = args.maps.len();
    let outputs: Vec<PathBuf> = match (&args.output, &args.out_dir) {
        (Some(file), _) => {
            if n != 1 {
                return Err(format!(
                    "-o/--output names one file but {n} maps were given: use --out-dir DIR"
                )
                .into());
            }
            vec![file.clone()]
        }
        (None, Some(dir)) => args
            .maps
            .iter()
            .map(|m| dir.join(format!("{}.tph", file_name(m))))
            .collect(),
        (None, None) => args.maps.iter().map(|m| beside(m)).collect(),
    };
    let mut seen: HashMap<&PathBuf, &PathBuf> = HashMap::new();
    for (map, out) in args.maps.iter().zip(&outputs) {
        if let Some(other) = seen.insert(out, map) {
            return Err(format!(
                "{} and {} would both be saved as {}",
                other.display(),
                map.display(),
                out.display()
            )
            .into());
        }
    }
    Ok(outputs)
}

/// `<map>.tph` beside the map.
fn beside(map: &Path) -> PathBuf {
    let mut s = map.as_os_str().to_os_string();
    s.push(".tph");
    PathBuf::from(s)
}

/// The last component of a path, for tables.
pub fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Reads, builds and saves one map.
fn preprocess_one(
    builder: &HierarchyBuilder,
    map: &Path,
    output: &Path,
    args: &Args,
) -> Result<Built, String> {
    let t = Instant::now();
    let grid = crate::read_grid(map).map_err(|e| e.to_string())?;
    let read_ms = ms(t.elapsed().as_secs_f64());
    let mut h = builder
        .clone()
        .contract(args.contract)
        .build(grid)
        .map_err(|e| format!("{}: {e}", map.display()))?;
    let contract_ms = h.stats().contraction_seconds().map(ms);
    let cell_landmarks_ms = match args.cell_landmarks {
        0 => None,
        n => {
            let t = Instant::now();
            if !h.add_cell_landmarks(n.into()) {
                return Err(format!(
                    "{}: cell landmarks need a map of uniform cost{} (nothing saved)",
                    map.display(),
                    if h.grid().is_weighted() {
                        ": this one has terrain weights"
                    } else {
                        " with distances within 32 bits"
                    }
                ));
            }
            Some(ms(t.elapsed().as_secs_f64()))
        }
    };
    let t = Instant::now();
    h.save_file(output).map_err(|e| e.to_string())?;
    let save_ms = ms(t.elapsed().as_secs_f64());
    let file_bytes = std::fs::metadata(output)
        .map_err(|e| format!("{}: {e}", output.display()))?
        .len();
    Ok(Built {
        map: map.to_path_buf(),
        output: output.to_path_buf(),
        stats: h.stats().clone(),
        read_ms,
        contract_ms,
        cell_landmarks_ms,
        save_ms,
        file_bytes,
    })
}

fn ms(seconds: f64) -> f64 {
    seconds * 1e3
}

fn built_json(b: &Built) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("map".into(), b.map.display().to_string().into());
    m.insert("output".into(), b.output.display().to_string().into());
    m.extend(stats_json(&b.stats));
    m.insert("file_bytes".into(), b.file_bytes.into());
    m.insert("read_ms".into(), round3(b.read_ms).into());
    m.insert("save_ms".into(), round3(b.save_ms).into());
    if let Some(c) = b.contract_ms {
        m.insert("contract_ms".into(), round3(c).into());
    }
    if let Some(c) = b.cell_landmarks_ms {
        m.insert("cell_landmarks_ms".into(), round3(c).into());
    }
    serde_json::Value::Object(m)
}

/// Sums over a batch.
#[derive(Debug, Default)]
struct Totals {
    cells: u64,
    passable: u64,
    build_s: f64,
    stage_s: HashMap<String, f64>,
    islands: u64,
    dead_end_cells: u64,
    clusters: u64,
    nodes: u64,
    intra: u64,
    inter: u64,
    memory: u64,
    file: u64,
}

impl Totals {
    fn of(built: &[&Built]) -> Totals {
        let mut t = Totals::default();
        for b in built {
            let s = &b.stats;
            t.cells += s.width as u64 * s.height as u64;
            t.passable += s.passable_cells;
            t.build_s += s.total_seconds();
            for st in &s.stages {
                if st.name != TOTAL_STAGE {
                    *t.stage_s.entry(st.name.clone()).or_default() += st.seconds;
                }
            }
            t.islands += s.islands;
            t.dead_end_cells += s.dead_end_cells;
            t.clusters += s.clusters;
            t.nodes += s.nodes;
            t.intra += s.intra_edges;
            t.inter += s.inter_edges;
            t.memory += s.memory_bytes;
            t.file += b.file_bytes;
        }
        t
    }

    fn dead_end_share(&self) -> f64 {
        if self.passable == 0 {
            0.0
        } else {
            self.dead_end_cells as f64 / self.passable as f64
        }
    }

    fn bytes_per_cell(&self) -> f64 {
        if self.cells == 0 {
            0.0
        } else {
            self.memory as f64 / self.cells as f64
        }
    }

    fn row(&self, stage_names: &[String], maps: usize) -> Vec<String> {
        let mut row = vec![
            format!("total ({maps} maps)"),
            format!("{:.2} Mcell", self.cells as f64 / 1e6),
            format!("{:.2}", ms(self.build_s)),
        ];
        row.extend(stage_names.iter().map(|n| {
            self.stage_s
                .get(n)
                .map_or("-".to_string(), |s| format!("{:.2}", ms(*s)))
        }));
        row.extend([
            self.islands.to_string(),
            format!("{:.1}%", 100.0 * self.dead_end_share()),
            self.clusters.to_string(),
            self.nodes.to_string(),
            format!(
                "{} ({}+{})",
                self.intra + self.inter,
                self.intra,
                self.inter
            ),
            self.memory.to_string(),
            format!("{:.2}", self.bytes_per_cell()),
            self.file.to_string(),
        ]);
        row
    }

    fn json(&self, maps: usize) -> serde_json::Value {
        let stages: serde_json::Map<String, serde_json::Value> = self
            .stage_s
            .iter()
            .map(|(k, v)| (k.clone(), round3(ms(*v)).into()))
            .collect();
        serde_json::json!({
            "maps": maps,
            "cells": self.cells,
            "passable_cells": self.passable,
            "build_ms": round3(ms(self.build_s)),
            "stage_ms": stages,
            "islands": self.islands,
            "dead_end_cells": self.dead_end_cells,
            "dead_end_share": self.dead_end_share(),
            "clusters": self.clusters,
            "nodes": self.nodes,
            "intra_edges": self.intra,
            "inter_edges": self.inter,
            "memory_bytes": self.memory,
            "bytes_per_cell": self.bytes_per_cell(),
            "file_bytes": self.file,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_follow_the_flags() {
        let args = |maps: &[&str], output: Option<&str>, dir: Option<&str>| Args {
            maps: maps.iter().map(PathBuf::from).collect(),
            output: output.map(PathBuf::from),
            out_dir: dir.map(PathBuf::from),
            cluster_size: Some(16),
            max_size: 1,
            polish: PolishArg::Auto,
            entrances: EntrancesArg::Auto,
            contract: false,
            cell_landmarks: 0,
            jobs: None,
            json: false,
        };
        assert_eq!(
            output_paths(&args(&["m/a.map"], None, None)).unwrap(),
            vec![PathBuf::from("m/a.map.tph")]
        );
        assert_eq!(
            output_paths(&args(&["m/a.map"], Some("x.tph"), None)).unwrap(),
            vec![PathBuf::from("x.tph")]
        );
        assert_eq!(
            output_paths(&args(&["m/a.map", "n/b.map"], None, Some("out"))).unwrap(),
            vec![
                PathBuf::from("out/a.map.tph"),
                PathBuf::from("out/b.map.tph")
            ]
        );
        assert_eq!(
            output_paths(&args(&["m/a.map", "n/b.map"], None, None)).unwrap(),
            vec![PathBuf::from("m/a.map.tph"), PathBuf::from("n/b.map.tph")]
        );
        assert!(output_paths(&args(&["a.map", "b.map"], Some("x"), None)).is_err());
        let clash = output_paths(&args(&["m/a.map", "n/a.map"], None, Some("out")));
        assert!(clash.unwrap_err().to_string().contains("both"));
    }
}
