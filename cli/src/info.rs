//! `tierpath info FILE [--map MAP] [--json]`: loads a hierarchy saved by
//! `tierpath preprocess` and prints what it holds: the statistics recorded
//! when it was built (stage times, islands, dead ends, clusters, abstract
//! nodes and edges, memory), what each unit size it serves uses (cells,
//! components, nodes, edges), its size on disk, its format version and how
//! long loading it took.
//!
//! A hierarchy file records only a fingerprint of its map, so loading needs
//! the map itself: `--map MAP`, or by default FILE without its `.tph`
//! (`arena.map.tph` -> `arena.map`, where `preprocess` puts files when given
//! no output). Without a map, `info` shows what the file alone says (its
//! format version, the map's size and fingerprint, the file's size, the
//! build settings, counts and stage times, checked for shape and checksum)
//! and names what needs the map (the integrity check against it, memory,
//! load time). A damaged file, or one built from another map,
//! is reported (exit code 1), never loaded.

use super::CliResult;
use super::preprocess::{
    Table, file_name, headers, per_size_table, round3, stage_columns, stats_json, stats_row,
};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tierpath::{Connectivity, FORMAT_VERSION, Hierarchy, LoadError, MAGIC, Movement, TOTAL_STAGE};

/// Arguments of `tierpath info`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A hierarchy file written by `tierpath preprocess`.
    pub file: PathBuf,
    /// The map FILE was built from (default: FILE without its `.tph`).
    #[arg(long, value_name = "MAP")]
    pub map: Option<PathBuf>,
    /// Also print everything as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
}

/// Runs `tierpath info`.
pub fn run(args: Args) -> CliResult {
    let file = &args.file;
    let (file_bytes, version) =
        file_header(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let map = match &args.map {
        Some(m) => m.clone(),
        None => match default_map(file) {
            Ok(m) => m,
            Err(why) => return header_only(&args, file_bytes, version, &why.to_string()),
        },
    };
    let t = Instant::now();
    let grid = crate::read_grid(&map)?;
    let map_ms = t.elapsed().as_secs_f64() * 1e3;

    let t = Instant::now();
    let loaded = Hierarchy::load_file(grid, file);
    let load_ms = t.elapsed().as_secs_f64() * 1e3;
    let h = loaded.map_err(|e| load_error(file, &map, args.map.is_some(), &e))?;
    let version = version.unwrap_or(FORMAT_VERSION);
    let s = h.stats();
    let set = h.settings();

    let mut out = std::io::stdout().lock();
    let kv = |out: &mut std::io::StdoutLock, k: &str, v: String| writeln!(out, "{k:<12}{v}");
    kv(
        &mut out,
        "file",
        format!(
            "{} ({file_bytes} bytes, format version {version})",
            file.display(),
        ),
    )?;
    kv(
        &mut out,
        "map",
        format!(
            "{} ({}x{}, {} passable cells, fingerprint {:016x})",
            map.display(),
            s.width,
            s.height,
            s.passable_cells,
            h.grid().fingerprint()
        ),
    )?;
    kv(&mut out, "settings", settings_text(set))?;
    kv(
        &mut out,
        "load",
        format!("{load_ms:.3} ms (read, checked and decoded in one pass); map read {map_ms:.3} ms"),
    )?;
    let stages: Vec<String> = s
        .stages
        .iter()
        .filter(|st| st.name != TOTAL_STAGE)
        .map(|st| format!("{} {:.3}", st.name, st.seconds * 1e3))
        .collect();
    kv(
        &mut out,
        "build",
        format!(
            "{:.3} ms wall when built ({} ms; stage times overlap)",
            s.total_seconds() * 1e3,
            stages.join(", ")
        ),
    )?;
    kv(&mut out, "islands", s.islands.to_string())?;
    kv(
        &mut out,
        "dead ends",
        format!(
            "{:.1}% of passable cells ({} cells), {} articulation cells",
            100.0 * s.dead_end_share(),
            s.dead_end_cells,
            s.articulation_cells
        ),
    )?;
    kv(
        &mut out,
        "clusters",
        format!("{} ({} entrances)", s.clusters, s.entrances),
    )?;
    kv(
        &mut out,
        "abstract",
        format!(
            "{} nodes, {} edges ({} intra + {} inter)",
            s.nodes,
            s.intra_edges + s.inter_edges,
            s.intra_edges,
            s.inter_edges
        ),
    )?;
    kv(
        &mut out,
        "contracted",
        if h.is_contracted() {
            "yes (saved in the file: queries search the contraction)".to_string()
        } else {
            "no (`tierpath preprocess --contract` saves one)".to_string()
        },
    )?;
    kv(
        &mut out,
        "cell landmarks",
        if h.has_cell_landmarks() {
            "yes (saved in the file: exact jump point search answers at any distance)".to_string()
        } else {
            "no (`tierpath preprocess --cell-landmarks 2` saves them)".to_string()
        },
    )?;
    kv(
        &mut out,
        "memory",
        format!(
            "{} bytes ({:.2} bytes/cell); on disk {} bytes",
            s.memory_bytes,
            s.bytes_per_cell(),
            file_bytes
        ),
    )?;
    writeln!(out)?;
    // The same row `preprocess` prints.
    let names = stage_columns(std::iter::once(s));
    let mut table = Table::new(headers(&names));
    table.row(stats_row(&file_name(&map), s, &names, Some(file_bytes)));
    table.print(&mut out)?;
    writeln!(out)?;
    per_size_table(s).print(&mut out)?;
    if args.json {
        let mut m = serde_json::Map::new();
        m.insert("file".into(), file.display().to_string().into());
        m.insert("map".into(), map.display().to_string().into());
        m.insert("format_version".into(), version.into());
        m.insert("file_bytes".into(), file_bytes.into());
        m.insert("load_ms".into(), round3(load_ms).into());
        m.insert("map_read_ms".into(), round3(map_ms).into());
        m.insert("cluster_size".into(), set.cluster_size.into());
        m.insert("movement".into(), describe_movement(&set.movement).into());
        m.insert("keep_paths".into(), set.keep_paths.into());
        m.insert("landmarks".into(), set.landmarks.into());
        m.insert("contracted".into(), h.is_contracted().into());
        m.insert("cell_landmarks".into(), h.has_cell_landmarks().into());
        m.insert(
            "polish".into(),
            (set.polish == tierpath::Polish::Always).into(),
        );
        m.extend(stats_json(s));
        writeln!(out, "{}", serde_json::Value::Object(m))?;
    }
    out.flush()?;
    Ok(())
}

/// What the file alone says, when no map is at hand: its header.
fn header_only(args: &Args, file_bytes: u64, version: Option<u32>, why: &str) -> CliResult {
    let file = &args.file;
    let Some(version) = version else {
        return Err(format!(
            "{}: not a tierpath hierarchy file (it does not start with the magic bytes)",
            file.display()
        )
        .into());
    };
    let map = map_header(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{:<12}{} ({file_bytes} bytes, format version {version}{})",
        "file",
        file.display(),
        if version == FORMAT_VERSION {
            ""
        } else {
            ", not the one this build reads"
        }
    )?;
    match map {
        Some((fingerprint, w, h)) => writeln!(
            out,
            "{:<12}built for a {w}x{h} map with fingerprint {fingerprint:016x}",
            "map"
        )?,
        None => writeln!(out, "{:<12}the header is cut short", "map")?,
    }
    // The settings, counts and stages the file records, when this build
    // reads its version (checked for shape and checksum, not against a map).
    let summary = if version == FORMAT_VERSION {
        let summary = Hierarchy::inspect_file(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        writeln!(
            out,
            "{:<12}{}",
            "settings",
            settings_text(&summary.settings)
        )?;
        writeln!(
            out,
            "{:<12}{} island{}, {} dead-end cell{}, {} transitions, {} edges ({} inside clusters + {} between)",
            "holds",
            summary.islands,
            if summary.islands == 1 { "" } else { "s" },
            summary.dead_end_cells,
            if summary.dead_end_cells == 1 { "" } else { "s" },
            summary.transitions,
            summary.intra_edges + summary.inter_edges,
            summary.intra_edges,
            summary.inter_edges
        )?;
        let stages: Vec<String> = summary
            .stages
            .iter()
            .map(|st| format!("{} {:.2} ms", st.name, st.seconds * 1e3))
            .collect();
        writeln!(out, "{:<12}{}", "built in", stages.join(", "))?;
        Some(summary)
    } else {
        None
    };
    writeln!(
        out,
        "{:<12}the integrity check against the map, memory and load time need the map: {why}",
        "not shown"
    )?;
    if args.json {
        let json = serde_json::json!({
            "file": file.display().to_string(),
            "file_bytes": file_bytes,
            "format_version": version,
            "map_width": map.map(|m| m.1),
            "map_height": map.map(|m| m.2),
            "map_fingerprint": map.map(|m| format!("{:016x}", m.0)),
            "cluster_size": summary.as_ref().map(|x| x.settings.cluster_size),
            "landmarks": summary.as_ref().map(|x| x.settings.landmarks),
            "contraction_graphs": summary.as_ref().map(|x| x.contraction_graphs),
            "cell_landmarks": summary.as_ref().map(|x| x.cell_landmarks),
            "islands": summary.as_ref().map(|x| x.islands),
            "dead_end_cells": summary.as_ref().map(|x| x.dead_end_cells),
            "nodes": summary.as_ref().map(|x| x.transitions),
            "intra_edges": summary.as_ref().map(|x| x.intra_edges),
            "inter_edges": summary.as_ref().map(|x| x.inter_edges),
            "loaded": false,
        });
        writeln!(out, "{json}")?;
    }
    out.flush()?;
    Ok(())
}

/// The map fields of a hierarchy file's header: fingerprint, width and
/// height (after the magic bytes and the version), `None` when the file is
/// shorter.
fn map_header(file: &Path) -> std::io::Result<Option<(u64, u32, u32)>> {
    use std::io::Read;
    let mut head = Vec::with_capacity(28);
    std::fs::File::open(file)?.take(28).read_to_end(&mut head)?;
    if head.len() < 28 {
        return Ok(None);
    }
    let u32_at = |i: usize| u32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
    let fingerprint = u64::from_le_bytes(head[12..20].try_into().expect("8 bytes"));
    Ok(Some((fingerprint, u32_at(20), u32_at(24))))
}

/// FILE without its `.tph`, when that is a file.
fn default_map(file: &Path) -> CliResult<PathBuf> {
    let name = file.as_os_str().to_string_lossy();
    let hint = "a hierarchy file stores only a fingerprint of its map, so loading needs the map: \
                pass the map it was built from with --map MAP";
    let Some(stem) = name.strip_suffix(".tph") else {
        return Err(format!(
            "{}: no --map given and the file name does not end in .tph (so no map name can be \
             guessed from it); {hint}",
            file.display()
        )
        .into());
    };
    let candidate = PathBuf::from(stem);
    if candidate.is_file() {
        Ok(candidate)
    } else {
        Err(format!(
            "{}: no --map given and {} (the file name without .tph) does not exist; {hint}",
            file.display(),
            candidate.display()
        )
        .into())
    }
}

/// The file's length, and its version field when it starts with the magic
/// bytes.
fn file_header(file: &Path) -> std::io::Result<(u64, Option<u32>)> {
    use std::io::Read;
    // Only a regular file: opening a FIFO would block.
    let meta = std::fs::metadata(file)?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let len = meta.len();
    let mut f = std::fs::File::open(file)?;
    let mut head = Vec::with_capacity(12);
    Read::by_ref(&mut f).take(12).read_to_end(&mut head)?;
    let version = (head.len() == 12 && &head[..8] == MAGIC)
        .then(|| u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")));
    Ok((len, version))
}

fn load_error(file: &Path, map: &Path, map_given: bool, e: &LoadError) -> super::Error {
    let hint = match e {
        LoadError::MapMismatch { .. } if map_given => {
            format!(" (is {} the map it was built from?)", map.display())
        }
        LoadError::MapMismatch { .. } => format!(
            " ({} was guessed from the file name: pass the map it was built from with --map MAP)",
            map.display()
        ),
        LoadError::Checksum
        | LoadError::Truncated(_)
        | LoadError::CutShort { .. }
        | LoadError::Invalid(_) => " (rebuild it with `tierpath preprocess`)".to_string(),
        LoadError::Version { .. } => " (rebuild it with this `tierpath preprocess`)".to_string(),
        _ => String::new(),
    };
    format!("cannot load {}: {e}{hint}", file.display()).into()
}

/// The build settings in one line.
fn settings_text(set: &tierpath::BuildSettings) -> String {
    format!(
        "cluster size {}, unit sizes 1..={}{}, {}, entrances: one transition below {} cells, \
         {}, {} landmarks, cell paths {}, paths {}",
        set.cluster_size,
        set.max_unit_size,
        match set.max_unit_size {
            1 => String::new(),
            _ => format!(" (larger sizes' transitions: {:?})", set.larger_sizes),
        },
        describe_movement(&set.movement),
        set.entrances.single_below,
        match set.entrances.max_gap {
            0 => "others at their ends only".to_string(),
            gap => format!("others at most {gap} cells apart"),
        },
        set.landmarks,
        if set.keep_paths { "kept" } else { "not kept" },
        match set.polish {
            tierpath::Polish::Always => "polished",
            _ => "smoothed only",
        },
    )
}

/// `8-connected, corners never, straight 10000, diagonal 14142`.
pub fn describe_movement(m: &Movement) -> String {
    let conn = match m.connectivity {
        Connectivity::Four => "4-connected".to_string(),
        Connectivity::Eight => format!("8-connected, corner cutting {:?}", m.corners),
    };
    format!("{conn}, straight {}, diagonal {}", m.straight, m.diagonal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_map_strips_tph() {
        let dir = std::env::temp_dir().join(format!("tierpath-info-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let map = dir.join("a.map");
        std::fs::write(&map, "x").unwrap();
        assert_eq!(default_map(&dir.join("a.map.tph")).unwrap(), map);
        let missing = default_map(&dir.join("b.map.tph")).unwrap_err().to_string();
        assert!(missing.contains("--map"), "{missing}");
        assert!(missing.contains("b.map"), "{missing}");
        let odd = default_map(&dir.join("a.bin")).unwrap_err().to_string();
        assert!(odd.contains("--map"), "{odd}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
