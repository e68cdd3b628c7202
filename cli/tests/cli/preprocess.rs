//! End-to-end tests of `tierpath preprocess` and `tierpath info`: outputs
//! where the flags say, stats that match the library's, batches that survive a
//! bad map, and clean failures (never a panic) on damaged or foreign files.

use crate::support::*;

use std::path::{Path, PathBuf};
use tierpath::mapgen::{self, MapKind};
use tierpath::{Hierarchy, HierarchyBuilder, io};

/// Writes a generated map and returns its path.
fn map(dir: &Path, name: &str, kind: MapKind, seed: u64) -> PathBuf {
    let grid = mapgen::generate(kind, 90, 70, seed).unwrap();
    let path = dir.join(name);
    io::save_map(&grid, &path).unwrap();
    path
}

#[test]
fn one_map_is_saved_beside_it_and_info_finds_the_map() {
    let dir = scratch("one");
    let m = map(&dir, "caves.map", MapKind::Caves, 3);
    let o = tierpath(&["preprocess", s(&m), "--cluster-size", "8", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("caves.map") && out.contains("90x70"), "{out}");
    let file = dir.join("caves.map.tph");
    assert!(file.is_file(), "{out}");

    // The stats printed are the library's for the same settings.
    let h = Hierarchy::load_file(io::read_grid(&m).unwrap(), &file).unwrap();
    assert_eq!(h.settings().cluster_size, 8);
    let json = last_json(&o);
    let row = &json["maps"][0];
    let st = h.stats();
    assert_eq!(row["islands"], st.islands);
    assert_eq!(row["clusters"], st.clusters);
    assert_eq!(row["nodes"], st.nodes);
    assert_eq!(row["intra_edges"], st.intra_edges);
    assert_eq!(row["inter_edges"], st.inter_edges);
    assert_eq!(row["memory_bytes"], st.memory_bytes);
    assert_eq!(row["dead_end_cells"], st.dead_end_cells);
    assert_eq!(row["file_bytes"], std::fs::metadata(&file).unwrap().len());
    let fresh = HierarchyBuilder::new()
        .cluster_size(8)
        .build(io::read_grid(&m).unwrap())
        .unwrap();
    assert_eq!(fresh.stats().nodes, st.nodes);

    // info: the map is guessed from the file name.
    let o = tierpath(&["info", s(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "format version",
        "load",
        "dead ends",
        "abstract",
        "bytes/cell",
    ] {
        assert!(out.contains(needle), "info lacks {needle:?}: {out}");
    }
    let json = last_json(&o);
    assert_eq!(json["nodes"], st.nodes);
    assert_eq!(json["format_version"], tierpath::FORMAT_VERSION);
    assert!(json["load_ms"].as_f64().unwrap() >= 0.0);
}

#[test]
fn entrances_follow_the_flag() {
    let dir = scratch("entrances");
    let m = map(&dir, "rooms.map", MapKind::Rooms, 5);
    let mut nodes = Vec::new();
    for (flag, policy) in [
        ("auto", tierpath::EntrancePolicy::default()),
        ("spaced", tierpath::EntrancePolicy::default()),
        ("ends", tierpath::EntrancePolicy::ENDS),
    ] {
        let file = dir.join(format!("{flag}.tph"));
        let o = tierpath(&["preprocess", s(&m), "-o", s(&file), "--entrances", flag]);
        assert!(o.status.success(), "{}", stderr(&o));
        let h = Hierarchy::load_file(io::read_grid(&m).unwrap(), &file).unwrap();
        assert_eq!(h.settings().entrances, policy, "--entrances {flag}");
        nodes.push(h.stats().nodes);
        let o = tierpath(&["info", s(&file)]);
        let wanted = if flag == "ends" {
            "at their ends only"
        } else {
            "at most 8 cells apart"
        };
        assert!(stdout(&o).contains(wanted), "{}", stdout(&o));
    }
    assert!(nodes[2] < nodes[1], "{nodes:?}");
    let o = tierpath(&["preprocess", s(&m), "--entrances", "middle"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("middle"), "{}", stderr(&o));
}

#[test]
fn output_flags() {
    let dir = scratch("flags");
    let a = map(&dir, "a.map", MapKind::Rooms, 1);
    let b = map(&dir, "b.map", MapKind::Maze, 2);
    let file = dir.join("custom.bin");
    let o = tierpath(&["preprocess", s(&a), "-o", s(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(file.is_file());
    // No .tph suffix: info shows what the file alone says (the map's size and
    // fingerprint) and asks for --map for the rest.
    let o = tierpath(&["info", s(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let grid = io::read_grid(&a).unwrap();
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "built for a {}x{} map with fingerprint {:016x}",
            grid.width(),
            grid.height(),
            grid.fingerprint()
        )),
        "{out}"
    );
    assert!(
        out.contains("need the map") && out.contains("--map"),
        "{out}"
    );
    // What the file records without the map: settings, counts, stages.
    let built = tierpath::Hierarchy::build(grid.clone()).unwrap();
    let st = built.stats();
    assert!(out.contains("settings    cluster size 16"), "{out}");
    assert!(out.contains(&format!("{} transitions", st.nodes)), "{out}");
    assert!(out.contains("built in    islands"), "{out}");
    let json = last_json(&o);
    assert_eq!(json["loaded"], false);
    assert_eq!(json["nodes"], st.nodes);
    assert_eq!(json["islands"], st.islands);
    let o = tierpath(&["info", s(&file), "--map", s(&a)]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Several maps cannot share -o; with no flag, each is saved beside its map.
    assert_fails(
        &tierpath(&["preprocess", s(&a), s(&b), "-o", s(&file)]),
        "--out-dir",
    );
    let o = tierpath(&["preprocess", s(&a), s(&b)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("beside each map"), "{}", stdout(&o));
    assert!(dir.join("a.map.tph").is_file() && dir.join("b.map.tph").is_file());
    assert_fails(
        &tierpath(&["preprocess", s(&a), "--cluster-size", "1"]),
        "cluster-size",
    );
}

#[test]
fn batch_reports_failures_and_keeps_going() {
    let dir = scratch("batch");
    let maps_dir = dir.join("maps");
    std::fs::create_dir_all(&maps_dir).unwrap();
    let mut maps = Vec::new();
    for (i, kind) in MapKind::ALL.into_iter().enumerate() {
        maps.push(map(&maps_dir, &format!("m{i}.map"), kind, i as u64));
    }
    let bad = maps_dir.join("broken.map");
    std::fs::write(&bad, "type octile\nheight 2\nwidth 3\nmap\n...\n").unwrap();
    maps.insert(2, bad);
    let out_dir = dir.join("out/nested");
    let mut args = vec![
        "preprocess",
        "--out-dir",
        s(&out_dir),
        "--jobs",
        "2",
        "--json",
    ];
    args.extend(maps.iter().map(|m| s(m)));
    let o = tierpath(&args);
    assert_fails(&o, "broken.map");
    let out = stdout(&o);
    assert!(out.contains("FAILED"), "{out}");
    assert!(out.contains("total (5 maps)"), "{out}");
    let json = last_json(&o);
    assert_eq!(json["maps"].as_array().unwrap().len(), 5);
    assert_eq!(json["failed"].as_array().unwrap().len(), 1);
    assert_eq!(json["totals"]["maps"], 5);
    for i in 0..5 {
        assert!(out_dir.join(format!("m{i}.map.tph")).is_file());
    }
    assert!(!out_dir.join("broken.map.tph").exists());
}

#[test]
fn info_rejects_damaged_and_foreign_files_cleanly() {
    let dir = scratch("damaged");
    let a = map(&dir, "a.map", MapKind::Caves, 5);
    let b = map(&dir, "b.map", MapKind::Caves, 6);
    let o = tierpath(&["preprocess", s(&a)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = dir.join("a.map.tph");
    let bytes = std::fs::read(&file).unwrap();

    assert_fails(
        &tierpath(&["info", s(&file), "--map", s(&b)]),
        "another map",
    );

    for (i, what) in [(bytes.len() / 2, "corrupted"), (3, "not a tierpath")] {
        let mut bad = bytes.clone();
        bad[i] ^= 0x20;
        let damaged = dir.join("damaged.map.tph");
        std::fs::write(&damaged, &bad).unwrap();
        assert_fails(&tierpath(&["info", s(&damaged), "--map", s(&a)]), what);
    }
    let cut = dir.join("cut.map.tph");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    assert_fails(&tierpath(&["info", s(&cut), "--map", s(&a)]), "cannot load");

    // The guessed map does not exist: the header is shown, and the message
    // names the map looked for and --map.
    let orphan = dir.join("orphan.map.tph");
    std::fs::write(&orphan, &bytes).unwrap();
    let o = tierpath(&["info", s(&orphan)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("orphan.map") && out.contains("--map"), "{out}");
    assert!(out.contains("format version"), "{out}");
    assert_fails(
        &tierpath(&["info", s(&dir.join("missing.tph"))]),
        "cannot read",
    );
}

#[test]
fn devices_and_pipes_are_refused_at_once() {
    // /dev/zero never ends; each command refuses it before reading a byte.
    if std::path::Path::new("/dev/zero").exists() {
        let o = tierpath(&["preprocess", "/dev/zero"]);
        assert!(stdout(&o).contains("not a regular file"), "{}", stdout(&o));
        assert_fails(&o, "failed");
        assert_fails(&tierpath(&["info", "/dev/zero"]), "not a regular file");
        assert_fails(
            &tierpath(&["replan", "--script", "/dev/zero"]),
            "not a regular file",
        );
    }
    // A FIFO would block the open of a `.tph`.
    let dir = scratch("fifo");
    let a = map(&dir, "a.map", MapKind::Caves, 5);
    let fifo = dir.join("pipe.tph");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|st| st.success()) {
        assert_fails(
            &tierpath(&["info", s(&fifo), "--map", s(&a)]),
            "not a regular file",
        );
    } else {
        eprintln!("skipped the FIFO case: mkfifo is not available");
    }
}

/// What a `preprocess` option saves in the file, checked: the plain file
/// and one with `flag` built from the same map, the run's line and JSON
/// timing (`said`, `ms_key`), `info`'s JSON `info_key` false for the plain
/// file and true for the other, as `has` says of each loaded, and the
/// loaded file answering with the paths of `direct` (the map's hierarchy
/// given the same in memory).
struct SavedOption<'a> {
    name: &'a str,
    flag: &'a [&'a str],
    said: &'a str,
    ms_key: &'a str,
    info_key: &'a str,
    has: fn(&Hierarchy) -> bool,
    direct: fn(&mut Hierarchy),
}

impl SavedOption<'_> {
    /// Runs the checks; returns the scratch folder and the map's path.
    fn check(&self) -> (PathBuf, PathBuf) {
        let dir = scratch(self.name);
        let m = map(&dir, "rooms.map", MapKind::Rooms, 5);
        let (plain, with) = (dir.join("plain.tph"), dir.join("with.tph"));
        let o = tierpath(&["preprocess", s(&m), "-o", s(&plain)]);
        assert!(o.status.success(), "{}", stderr(&o));
        let mut args = vec!["preprocess", s(&m), "-o", s(&with), "--json"];
        args.extend_from_slice(self.flag);
        let o = tierpath(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains(self.said), "{}", stdout(&o));
        assert!(last_json(&o)["maps"][0][self.ms_key].as_f64().unwrap() >= 0.0);
        for (file, want) in [(&plain, false), (&with, true)] {
            let o = tierpath(&["info", s(file), "--map", s(&m), "--json"]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(last_json(&o)[self.info_key], want, "{}", stdout(&o));
            let h = Hierarchy::load_file(io::read_grid(&m).unwrap(), file).unwrap();
            assert_eq!((self.has)(&h), want);
        }
        let grid = io::read_grid(&m).unwrap();
        let mut direct = Hierarchy::build(grid.clone()).unwrap();
        (self.direct)(&mut direct);
        let loaded = Hierarchy::load_file(grid, &with).unwrap();
        let mut cache = tierpath::QueryCache::new();
        let cells: Vec<_> = loaded.grid().passable_points().step_by(211).collect();
        for w in cells.windows(2) {
            let a = loaded.find_path(&mut cache, w[0], w[1]).unwrap().path;
            let b = direct.find_path(&mut cache, w[0], w[1]).unwrap().path;
            assert_eq!(a, b);
        }
        (dir, m)
    }
}

/// `--contract` saves the contraction in the file: `info` says the file is
/// contracted (and the plain one not), and the library loads it contracted,
/// answering with the paths the in-memory contracted hierarchy gives.
#[test]
fn contract_saves_the_contraction() {
    SavedOption {
        name: "contract",
        flag: &["--contract"],
        said: "contracted in",
        ms_key: "contract_ms",
        info_key: "contracted",
        has: Hierarchy::is_contracted,
        direct: |h| h.contract().unwrap(),
    }
    .check();
}

/// `--cell-landmarks N` saves the cell landmarks in the file: `info` says so
/// (and of the plain file not), the library loads them, answering as the
/// in-memory hierarchy given them; on a weighted map it is an error naming
/// the weights, and no file is written.
#[test]
fn cell_landmarks_are_saved() {
    let (dir, m) = SavedOption {
        name: "cell-landmarks",
        flag: &["--cell-landmarks", "2"],
        said: "2 cell landmarks added in",
        ms_key: "cell_landmarks_ms",
        info_key: "cell_landmarks",
        has: Hierarchy::has_cell_landmarks,
        direct: |h| assert!(h.add_cell_landmarks(2)),
    }
    .check();
    let out_of_range = tierpath(&["preprocess", s(&m), "--cell-landmarks", "5"]);
    assert!(!out_of_range.status.success());
    assert!(
        stderr(&out_of_range).contains("--cell-landmarks"),
        "{}",
        stderr(&out_of_range)
    );
    let mut weighted = io::read_grid(&m).unwrap();
    let p = weighted.passable_points().next().unwrap();
    weighted.set_weight(p, tierpath::Weight(200)).unwrap();
    let terrain = dir.join("weighted.txt");
    io::save_terrain(&weighted, &terrain).unwrap();
    let out = dir.join("weighted.tph");
    let o = tierpath(&[
        "preprocess",
        s(&terrain),
        "-o",
        s(&out),
        "--cell-landmarks",
        "2",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("terrain weights"), "{}", stderr(&o));
    assert!(!out.exists());
}
