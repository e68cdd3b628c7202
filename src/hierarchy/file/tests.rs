use super::validate::{check_anchors, check_islands};
use super::*;
use crate::checksum::WordHasher;
use crate::preprocess::NO_NODE;
use crate::tiled::{TILE, TileColumn};
use crate::{CornerRule, DeadEnds, HierarchyBuilder, Movement, Point, QueryCache};

/// Remakes the checksum (the last 8 bytes) of a file's bytes after they
/// were rewritten.
fn reseal(bytes: &mut [u8]) {
    let body = bytes.len() - 8;
    let mut hasher = WordHasher::new();
    hasher.write(&bytes[..body]);
    let sum = hasher.finish().to_le_bytes();
    bytes[body..].copy_from_slice(&sum);
}

fn sample() -> Hierarchy {
    let grid = Grid::from_fn(40, 30, |p| (p.x * 7 + p.y * 13) % 11 != 0).unwrap();
    Hierarchy::builder().cluster_size(8).build(grid).unwrap()
}

#[test]
fn round_trip_is_identical() {
    let h = sample();
    let bytes = h.to_bytes();
    let back = Hierarchy::from_bytes(h.grid().clone(), &bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    assert_eq!(back.dead_ends, h.dead_ends);
    assert_eq!(back.entrances, h.entrances);
    assert_eq!(back.graph, h.graph);
    assert_eq!(back.stats, h.stats);
}

/// A sink that takes `left` bytes, a few at a time, then fails.
struct Failing {
    left: usize,
    got: Vec<u8>,
}

impl std::io::Write for Failing {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.left == 0 {
            return Err(std::io::Error::other("disk full"));
        }
        let n = buf.len().min(self.left).min(1000);
        self.left -= n;
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn saving_streams_the_same_bytes_and_reports_a_failed_write() {
    // A hierarchy whose file spans several of the writer's chunks.
    let grid = Grid::from_fn(700, 500, |p| (p.x * 7 + p.y * 13) % 11 != 0).unwrap();
    let h = Hierarchy::builder().cluster_size(8).build(grid).unwrap();
    let bytes = h.to_bytes();
    assert!(
        bytes.len() > 3 * super::codec::CHUNK,
        "{} bytes",
        bytes.len()
    );
    let mut all = Failing {
        left: usize::MAX,
        got: Vec::new(),
    };
    h.save(&mut all).unwrap();
    assert!(
        all.got == bytes,
        "a stream in small writes gives the same file"
    );
    for left in [0, 5, super::codec::CHUNK + 3, bytes.len() - 1] {
        let mut sink = Failing {
            left,
            got: Vec::new(),
        };
        let err = h.save(&mut sink).unwrap_err();
        assert_eq!(err.to_string(), "disk full", "after {left} bytes");
        assert!(sink.got.len() <= left);
    }
    // A file that cannot be written leaves nothing behind.
    let dir = std::env::temp_dir().join(format!("tierpath-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("missing").join("h.tph");
    assert!(matches!(h.save_file(&path), Err(LoadError::Io { .. })));
    let path = dir.join("h.tph");
    h.save_file(&path).unwrap();
    assert!(std::fs::read(&path).unwrap() == bytes);
    assert!(!path.with_extension("tmp-tierpath").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The hierarchy in a file read `chunk` bytes at a time, or the error.
fn load_in_pieces(h: &Hierarchy, bytes: &[u8], chunk: usize) -> Result<Hierarchy, LoadError> {
    let dir = std::env::temp_dir().join(format!("tierpath-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{chunk}-{}.tph", bytes.len()));
    std::fs::write(&file, bytes).unwrap();
    let loaded = Hierarchy::load_file_in_pieces(h.grid().clone(), &file, chunk);
    std::fs::remove_file(&file).unwrap();
    loaded
}

#[test]
fn files_read_in_pieces_load_like_bytes() {
    // A maze keeps many stored paths, so the file crosses many pieces.
    let grid = crate::mapgen::generate(crate::mapgen::MapKind::Maze, 48, 40, 5).unwrap();
    let h = Hierarchy::builder().cluster_size(8).build(grid).unwrap();
    let bytes = h.to_bytes();
    assert!(bytes.len() > 20 * 1000, "{} bytes", bytes.len());
    for chunk in [8, 9, 13, 64, 4096, CHUNK] {
        let back = load_in_pieces(&h, &bytes, chunk).unwrap();
        assert_eq!(back.to_bytes(), bytes, "pieces of {chunk}");
    }
    // Damage and cuts anywhere give the error bytes in memory give.
    let same = |bad: &[u8], chunk: usize| {
        let want = format!(
            "{:?}",
            Hierarchy::from_bytes(h.grid().clone(), bad).map(|_| ())
        );
        let got = format!("{:?}", load_in_pieces(&h, bad, chunk).map(|_| ()));
        assert_eq!(got, want, "{} bytes in pieces of {chunk}", bad.len());
        assert!(want.starts_with("Err"));
    };
    for (n, i) in (0..bytes.len()).step_by(997).enumerate() {
        let mut bad = bytes.clone();
        bad[i] ^= 0x04;
        same(&bad, [8, 13, 4096][n % 3]);
    }
    for cut in [0, 3, 8, 12, 19, 20, 40, bytes.len() / 3, bytes.len() - 1] {
        same(&bytes[..cut], 13);
    }
    let mut longer = bytes.clone();
    longer.push(0);
    same(&longer, 9);
}

#[test]
fn a_cut_file_is_cut_short_and_a_damaged_one_a_checksum_error() {
    let h = sample();
    let bytes = h.to_bytes();
    let len = bytes.len() as u64;
    for cut in [
        13,
        27,
        40,
        bytes.len() / 2,
        bytes.len() - 9,
        bytes.len() - 1,
    ] {
        for loaded in [
            Hierarchy::from_bytes(h.grid().clone(), &bytes[..cut]),
            load_in_pieces(&h, &bytes[..cut], 13),
        ] {
            match loaded.map(|_| ()).unwrap_err() {
                e @ LoadError::CutShort {
                    length, expected, ..
                } => {
                    assert_eq!(length, cut as u64);
                    assert!(expected > length && expected <= len, "{e}");
                    let text = e.to_string();
                    assert!(text.contains(&format!("ends after {cut} bytes")), "{text}");
                }
                e => panic!("cut to {cut}: {e:?}"),
            }
        }
    }
    // Damage to any byte of the content's values (not a length) is damage.
    for i in [bytes.len() / 3, bytes.len() / 2, bytes.len() - 4] {
        let mut bad = bytes.clone();
        bad[i] ^= 0x01;
        let e = Hierarchy::from_bytes(h.grid().clone(), &bad).map(|_| ());
        assert!(matches!(e, Err(LoadError::Checksum)), "byte {i}: {e:?}");
        let e = load_in_pieces(&h, &bad, 4096).map(|_| ());
        assert!(matches!(e, Err(LoadError::Checksum)), "byte {i}: {e:?}");
    }
}

#[test]
fn every_damaged_byte_is_caught() {
    let h = sample();
    let bytes = h.to_bytes();
    for i in (0..bytes.len()).step_by(7) {
        let mut bad = bytes.clone();
        bad[i] ^= 0x10;
        assert!(
            Hierarchy::from_bytes(h.grid().clone(), &bad).is_err(),
            "byte {i}"
        );
    }
    for cut in [0, 5, 12, 40, bytes.len() / 2, bytes.len() - 1] {
        assert!(Hierarchy::from_bytes(h.grid().clone(), &bytes[..cut]).is_err());
    }
}

#[test]
fn anchor_check_catches_each_kind_of_bad_cell() {
    let h = sample();
    let (grid, blocks) = (h.grid(), h.dead_ends.blocks());
    let good: Vec<u32> = (0..grid.len()).map(|i| h.dead_ends.anchor_of(i)).collect();
    let wall = (0..grid.len())
        .rev()
        .find(|i| !grid.is_passable(grid.point_of(crate::CellIndex(*i as u32))))
        .unwrap();
    let open = (0..grid.len())
        .rev()
        .find(|i| grid.is_passable(grid.point_of(crate::CellIndex(*i as u32))))
        .unwrap();
    let packed = |v: &[u32]| TileColumn::pack_slice(v, NO_NODE);
    assert!(check_anchors(grid, &packed(&good), blocks).is_ok());
    for (cell, anchor) in [(wall, 0), (open, NO_NODE), (open, blocks as u32)] {
        let mut bad = good.clone();
        bad[cell] = anchor;
        let p = grid.point_of(crate::CellIndex(cell as u32));
        match check_anchors(grid, &packed(&bad), blocks) {
            Err(LoadError::Invalid(msg)) => {
                assert!(msg.contains(&format!("cell ({}, {}) ", p.x, p.y)), "{msg}")
            }
            other => panic!("cell {cell} anchored at {anchor}: {other:?}"),
        }
    }
    // Layouts that read right but are not the canonical one.
    let canon = packed(&good);
    let uniform = (0..canon.row.len())
        .find(|t| canon.row[*t] == NO_NODE && canon.present[*t] != 0)
        .expect("a uniform tile");
    let mut split = canon.clone();
    split.set(uniform * TILE, canon.value[uniform] + 1);
    split.set(uniform * TILE, canon.value[uniform]);
    assert!(split == canon, "same values");
    let msg = format!("{:?}", check_anchors(grid, &split, blocks));
    assert!(
        msg.contains("out of order") || msg.contains("canonical form"),
        "{msg}"
    );
    let mut stale = canon.clone();
    let empty = (0..canon.row.len()).find(|t| canon.present[*t] == 0);
    if let Some(t) = empty {
        stale.value[t] = 1;
        let msg = format!("{:?}", check_anchors(grid, &stale, blocks));
        assert!(msg.contains("canonical form"), "{msg}");
    }
    let mut short = canon.clone();
    short.present.pop();
    let msg = format!("{:?}", check_anchors(grid, &short, blocks));
    assert!(msg.contains("wrong shape"), "{msg}");
}

/// Whether every two neighbouring cells with islands (side by side, one
/// above the other, and diagonally when corners may always be cut) share
/// one: the island check's rule, cell by cell.
fn islands_agree(grid: &Grid, squeeze: bool, d: &DeadEnds) -> bool {
    let (w, h) = (grid.width() as usize, grid.height() as usize);
    let island = |x: usize, y: usize| match d.cell_anchor.get(y * w + x) {
        NO_NODE => None,
        b => d.block_island.get(b as usize).copied(),
    };
    for y in 0..h {
        for x in 0..w {
            let Some(here) = island(x, y) else { continue };
            let mut around = vec![(x + 1, y), (x, y + 1)];
            if squeeze {
                around.push((x + 1, y + 1));
                if x > 0 {
                    around.push((x - 1, y + 1));
                }
            }
            for (nx, ny) in around {
                if nx < w && ny < h && island(nx, ny).is_some_and(|there| there != here) {
                    return false;
                }
            }
        }
    }
    true
}

#[test]
fn island_check_matches_the_cell_by_cell_rule() {
    // Random maps under every rule (widths around a tile and not multiples
    // of it), their island tables forged: a block given another island, a
    // cell given a block of another island. The check's verdict on
    // neighbours is the cell-by-cell rule's.
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let (mut caught, mut passed) = (0, 0);
    for case in 0..60 {
        let (w, h) = (20 + next(130) as u32, 3 + next(40) as u32);
        let density = next(45);
        let grid = Grid::from_fn(w, h, |_| next(100) >= density).unwrap();
        for m in Movement::every_rule() {
            let hier = HierarchyBuilder::new()
                .movement(m)
                .cluster_size(8)
                .build(grid.clone())
                .unwrap();
            let (s, good) = (hier.settings(), hier.dead_ends());
            let squeeze = m.diagonals() && m.corners == CornerRule::Always;
            assert!(check_islands(&grid, s, good).is_ok(), "case {case} {m:?}");
            let islands = good.island_sizes.len() as u64;
            if islands < 2 {
                continue;
            }
            for forgery in 0..6 {
                let mut d = good.clone();
                if forgery % 2 == 0 {
                    let b = next(d.block_island.len() as u64) as usize;
                    d.block_island[b] =
                        (d.block_island[b] + 1 + next(islands - 1) as u32) % islands as u32;
                } else {
                    let open: Vec<usize> = (0..grid.len())
                        .filter(|i| d.cell_anchor.get(*i) != NO_NODE)
                        .collect();
                    let cell = open[next(open.len() as u64) as usize];
                    let b = next(d.block_island.len() as u64) as u32;
                    d.cell_anchor.set(cell, b);
                }
                let want = islands_agree(&grid, squeeze, &d);
                let got = format!("{:?}", check_islands(&grid, s, &d));
                assert_eq!(
                    !got.contains("different islands"),
                    want,
                    "case {case} {m:?} forgery {forgery}: {got}\n{}",
                    grid.to_ascii()
                );
                if want {
                    passed += 1;
                } else {
                    caught += 1;
                }
            }
        }
    }
    assert!(
        caught > 100 && passed > 20,
        "caught {caught}, passed {passed}"
    );
}

/// Serialises `h` (the checksum made to match whatever it holds), and
/// the message `from_bytes` rejects the file with.
pub(super) fn rejection(h: &Hierarchy, extra: bool) -> String {
    let mut bytes = h.to_bytes();
    if extra {
        // One byte more before the checksum, and the checksum remade.
        bytes.insert(bytes.len() - 8, 0);
        reseal(&mut bytes);
    }
    match Hierarchy::from_bytes(h.grid().clone(), &bytes) {
        Err(e @ (LoadError::Invalid(_) | LoadError::TooLarge { .. })) => e.to_string(),
        other => panic!("expected invalid content, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn forged_content_is_rejected_in_order() {
    let h = sample();
    let open = (0..h.grid().len())
        .find(|i| {
            h.grid()
                .is_passable(h.grid().point_of(crate::CellIndex(*i as u32)))
        })
        .unwrap();
    let mut bad_anchor = h.clone();
    bad_anchor.dead_ends.cell_anchor.set(open, NO_NODE);
    assert!(rejection(&bad_anchor, false).contains("invalid anchor"));
    // The file's layout is wrong too: that comes first.
    assert!(rejection(&bad_anchor, true).contains("trailing bytes"));

    let mut bad_block = h.clone();
    bad_block.dead_ends.block_end[0] = 0;
    assert!(rejection(&bad_block, false).contains("block preorder"));
    // The cell table is checked first.
    bad_block.dead_ends.cell_anchor = bad_anchor.dead_ends.cell_anchor.clone();
    assert!(rejection(&bad_block, false).contains("invalid anchor"));

    let mut bad_edge = h.clone();
    bad_edge.graph.edge_to[0] = h.entrances.cells.len() as u32;
    assert!(rejection(&bad_edge, false).contains("edge targets"));

    let mut bad_landmarks = h.clone();
    bad_landmarks.landmarks.nodes.push(0);
    // More landmark nodes than the count: reading stops at the length.
    assert!(rejection(&bad_landmarks, false).contains("landmark nodes claims length"));

    let mut bad_transition = h.clone();
    let wall = (0..h.grid().len() as u32)
        .find(|i| {
            !h.grid()
                .is_passable(h.grid().point_of(crate::CellIndex(*i)))
        })
        .unwrap();
    bad_transition.entrances.cells[0] = wall;
    assert!(rejection(&bad_transition, false).contains("transitions differ"));
}

/// The block forest's tree as a repair reads it: ranges that nest, the
/// core at the top of its island's tree. A forged core (found by the forgery
/// test: accepted, it made a later repair index past the forest) is refused.
#[test]
fn a_forest_whose_core_is_not_at_its_top_is_refused() {
    // A maze: blocks below blocks, and several islands.
    let grid = crate::mapgen::generate(crate::mapgen::MapKind::Maze, 48, 40, 5).unwrap();
    let h = Hierarchy::build(grid).unwrap();
    let d = &h.dead_ends;
    let island = (0..d.island_core.len())
        .find(|i| {
            let c = d.island_core[*i] as usize;
            d.block_end[c] as usize > c + 1
        })
        .expect("an island of two blocks or more");
    let core = d.island_core[island] as usize;
    let mut bad_core = h.clone();
    bad_core.dead_ends.island_core[island] = core as u32 + 1;
    assert!(rejection(&bad_core, false).contains("core is not the block at the top"));

    // A block whose range runs past the range of the block above it.
    let blocks = d.block_end.len();
    let (above, below) = (0..blocks)
        .filter(|t| (d.block_end[*t] as usize) < blocks)
        .find_map(|t| (t + 1 < d.block_end[t] as usize).then_some((t, t + 1)))
        .expect("a block with a block below it, not last");
    let mut bad_nest = h.clone();
    bad_nest.dead_ends.block_end[below] = d.block_end[above] + 1;
    assert!(rejection(&bad_nest, false).contains("do not nest"));
}

#[test]
fn the_polish_setting_is_saved_and_a_forged_one_named() {
    use crate::Polish;
    for polish in [Polish::Always, Polish::Never] {
        let h = HierarchyBuilder::new()
            .polish(polish)
            .build(sample().grid().clone())
            .unwrap();
        let back = Hierarchy::from_bytes(h.grid().clone(), &h.to_bytes()).unwrap();
        assert_eq!(back.settings().polish, polish);
    }
    // The settings' 30th byte, then the checksum remade.
    let h = sample();
    let mut bytes = h.to_bytes();
    let at = 8 + 4 + 8 + 8 + 29;
    assert!(bytes[at] <= 1, "layout moved");
    bytes[at] = 2;
    reseal(&mut bytes);
    match Hierarchy::from_bytes(h.grid().clone(), &bytes) {
        Err(e @ LoadError::Invalid(_)) => assert!(e.to_string().contains("polish is 2"), "{e}"),
        other => panic!("expected invalid content, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn forged_stored_paths_are_rejected() {
    let grid = crate::mapgen::generate(crate::mapgen::MapKind::Maze, 48, 48, 3).unwrap();
    let h = Hierarchy::builder().cluster_size(16).build(grid).unwrap();
    let edge = (0..h.graph.edges())
        .find(|e| h.graph.edge_path(*e).is_some())
        .expect("a maze keeps winding paths");
    let at = h.graph.path_first[edge] as usize;
    let mut illegal = h.clone();
    illegal.graph.path_codes[at] = 9;
    assert!(rejection(&illegal, false).contains("illegal move"));
    // Every stored move turned around: legal moves (on an open maze
    // corridor) that end elsewhere, or illegal ones.
    let mut astray = h.clone();
    let end = h.graph.path_first[edge + 1] as usize;
    for c in &mut astray.graph.path_codes[at..end] {
        *c = crate::grid::opposite_direction(*c);
    }
    let msg = rejection(&astray, false);
    assert!(
        msg.contains("ends off its target") || msg.contains("illegal move"),
        "{msg}"
    );
}

#[test]
fn foreign_map_and_version_are_named() {
    let h = sample();
    let bytes = h.to_bytes();
    let mut other = h.grid().clone();
    other
        .set_passable(Point::new(0, 0), !other.is_passable(Point::new(0, 0)))
        .unwrap();
    assert!(matches!(
        Hierarchy::from_bytes(other, &bytes),
        Err(LoadError::MapMismatch { .. })
    ));
    // A map of another size, and one whose cells make the content
    // invalid: still named as another map.
    let smaller = Grid::from_fn(40, 29, |_| true).unwrap();
    assert!(matches!(
        Hierarchy::from_bytes(smaller, &bytes),
        Err(LoadError::MapMismatch {
            file_height: 30,
            map_height: 29,
            ..
        })
    ));
    let walled = Grid::from_fn(40, 30, |_| false).unwrap();
    assert!(matches!(
        Hierarchy::from_bytes(walled, &bytes),
        Err(LoadError::MapMismatch { .. })
    ));
    let mut newer = bytes.clone();
    newer[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(
        Hierarchy::from_bytes(h.grid().clone(), &newer),
        Err(LoadError::Version { found, .. }) if found == FORMAT_VERSION + 1
    ));
    assert!(matches!(
        Hierarchy::from_bytes(h.grid().clone(), b"PNG\x89 whatever"),
        Err(LoadError::NotAHierarchy)
    ));
}

/// Offset of the cell table's mask-array length: magic, version,
/// fingerprint, size, 30 bytes of settings, the cell count.
const MASKS_LENGTH_AT: usize = 8 + 4 + 8 + 8 + 30 + 8;

#[test]
fn a_sparse_file_claiming_a_huge_array_stops_at_the_length() {
    let h = sample();
    let mut bytes = h.to_bytes();
    let tiles = TileColumn::tiles_for(h.grid().len()) as u64;
    let at = MASKS_LENGTH_AT;
    assert_eq!(bytes[at..at + 8], tiles.to_le_bytes(), "layout moved");
    // 1.25e9 masks of eight bytes: a 10 GB array, in a 10 GB sparse file.
    bytes[at..at + 8].copy_from_slice(&1_250_000_000u64.to_le_bytes());
    let dir = std::env::temp_dir().join(format!("tierpath-sparse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.tph");
    std::fs::write(&path, &bytes).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(10_000_000_000)
        .unwrap();
    let got = Hierarchy::load_file(h.grid().clone(), &path).map(|_| ());
    std::fs::remove_dir_all(&dir).unwrap();
    // Named by its length and the bound, so nothing was allocated for it
    // (the bound is the map's tile count) and the rest was never read.
    match got {
        Err(LoadError::TooLarge { what, length, max }) => {
            assert_eq!(
                (what, length, max),
                ("cell table masks", 1_250_000_000, tiles)
            );
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn devices_and_directories_are_not_read() {
    let h = sample();
    for path in ["/dev/zero", "/dev/urandom", "/"] {
        if std::path::Path::new(path).exists() {
            let got = Hierarchy::load_file(h.grid().clone(), path).map(|_| ());
            assert!(
                matches!(got, Err(LoadError::NotAFile { .. })),
                "{path}: {got:?}"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let h = sample();
    let dir = std::env::temp_dir().join(format!("tierpath-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.tph");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped: mkfifo is not available");
        return;
    }
    // Opening a FIFO with no writer would block: it must not be opened.
    let got = Hierarchy::load_file(h.grid().clone(), &fifo).map(|_| ());
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(got, Err(LoadError::NotAFile { .. })), "{got:?}");
}

#[test]
fn a_file_alone_says_its_settings_and_counts() {
    let h = sample();
    let bytes = h.to_bytes();
    let dir = std::env::temp_dir().join(format!("tierpath-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, b: &[u8]| {
        let f = dir.join(name);
        std::fs::write(&f, b).unwrap();
        f
    };

    let s = Hierarchy::inspect_file(write("whole.tph", &bytes)).unwrap();
    let st = h.stats();
    assert_eq!((s.width, s.height), (40, 30));
    assert_eq!(s.fingerprint, h.grid().fingerprint());
    assert_eq!(s.version, FORMAT_VERSION);
    assert_eq!(s.file_bytes, bytes.len() as u64);
    assert_eq!(&s.settings, h.settings());
    assert_eq!(
        (s.islands, s.dead_end_cells, s.transitions),
        (st.islands, st.dead_end_cells, st.nodes)
    );
    assert_eq!(
        (s.intra_edges, s.inter_edges),
        (st.intra_edges, st.inter_edges)
    );
    assert_eq!(s.landmarks, h.settings().landmarks);
    assert_eq!(s.stages, st.stages);

    // Cut, damaged, not a hierarchy, another version: the errors of a load.
    let cut = Hierarchy::inspect_file(write("cut.tph", &bytes[..bytes.len() / 2]));
    assert!(matches!(cut, Err(LoadError::CutShort { .. })), "{cut:?}");
    let mut damaged = bytes.clone();
    damaged[bytes.len() / 2] ^= 0x10;
    let damaged = Hierarchy::inspect_file(write("damaged.tph", &damaged));
    assert!(matches!(damaged, Err(LoadError::Checksum)), "{damaged:?}");
    let mut other = bytes.clone();
    other[0] ^= 1;
    let other = Hierarchy::inspect_file(write("other.tph", &other));
    assert!(matches!(other, Err(LoadError::NotAHierarchy)), "{other:?}");
    let mut version = bytes.clone();
    version[8] = version[8].wrapping_add(1);
    let version = Hierarchy::inspect_file(write("version.tph", &version));
    assert!(
        matches!(version, Err(LoadError::Version { .. })),
        "{version:?}"
    );
    let short = Hierarchy::inspect_file(write("short.tph", &bytes[..12]));
    assert!(
        matches!(short, Err(LoadError::CutShort { .. })),
        "{short:?}"
    );
    let dir_itself = Hierarchy::inspect_file(&dir);
    assert!(
        matches!(dir_itself, Err(LoadError::NotAFile { .. })),
        "{dir_itself:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A contracted hierarchy saves its contraction (either kind, one size or
/// several) and loads back contracted, with the same query graphs and
/// paths; a repaired one, whose contraction ended, saves without.
#[test]
fn a_contracted_hierarchy_loads_contracted() {
    use crate::{ContractionKind, DynamicHierarchy};
    let grid = crate::mapgen::generate(crate::mapgen::MapKind::Rooms, 96, 80, 7).unwrap();
    for (max_size, kind) in [
        (1, ContractionKind::Customizable),
        (1, ContractionKind::Classic),
        (3, ContractionKind::Customizable),
    ] {
        let mut h = Hierarchy::builder()
            .cluster_size(8)
            .max_unit_size(max_size)
            .build(grid.clone())
            .unwrap();
        h.contract_with(kind).unwrap();
        let dir = std::env::temp_dir().join(format!("tierpath-contracted-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{max_size}-{kind:?}.tph"));
        h.save_file(&path).unwrap();
        let summary = Hierarchy::inspect_file(&path).unwrap();
        let back = Hierarchy::load_file(grid.clone(), &path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let graphs = h.contracted().unwrap().graphs().len();
        assert_eq!(summary.contraction_graphs as usize, graphs);
        assert_eq!(
            back.contracted().unwrap().graphs(),
            h.contracted().unwrap().graphs()
        );
        let mut cache = QueryCache::new();
        let cells: Vec<Point> = grid.passable_points().step_by(53).collect();
        for w in cells.windows(2) {
            for size in 1..=max_size {
                let opts = crate::QueryOptions::new().unit_size(size);
                let want = h.find_path_with(&mut cache, w[0], w[1], &opts);
                let got = back.find_path_with(&mut cache, w[0], w[1], &opts);
                assert_eq!(got.map(|o| o.path), want.map(|o| o.path));
            }
        }
        // A repair that changes the cluster graph (a transition closed)
        // ends the contraction; the file then holds none.
        let transition = back.transitions().nth(5).unwrap();
        let mut world = DynamicHierarchy::new(back);
        world.set_passable(&[transition], false).unwrap();
        let repaired = world.into_hierarchy();
        assert!(!repaired.is_contracted());
        let again = Hierarchy::from_bytes(repaired.grid().clone(), &repaired.to_bytes()).unwrap();
        assert!(!again.is_contracted());
    }
}

/// A contraction whose content is forged (its search named 9) is refused
/// with an error naming the contraction.
#[test]
fn a_forged_contraction_is_named() {
    let h = sample();
    let plain = h.to_bytes();
    let mut c = h.clone();
    c.contract().unwrap();
    let mut bytes = c.to_bytes();
    // The two files agree up to the contraction's tag byte; then come the
    // count of query graphs (8 bytes), the first one's cost unit (8) and its
    // search (1).
    let tag = plain.iter().zip(&bytes).position(|(a, b)| a != b).unwrap();
    assert_eq!((plain[tag], bytes[tag]), (0, 1), "layout moved");
    let search = tag + 1 + 8 + 8;
    assert_eq!(bytes[search], 3, "layout moved");
    bytes[search] = 9;
    reseal(&mut bytes);
    match Hierarchy::from_bytes(h.grid().clone(), &bytes) {
        Err(e @ LoadError::Invalid(_)) => {
            let e = e.to_string();
            assert!(e.contains("contraction") && e.contains("search 9"), "{e}")
        }
        other => panic!("expected invalid content, got {:?}", other.map(|_| ())),
    }
}

/// Cell landmarks are saved and load back (checked, the same guide and the
/// same paths; the summary counts them); a hierarchy repaired by closing
/// cells (which keeps them) saves them too, walls written unreached; a
/// file whose distance at one cell is raised past a move's cost, or whose
/// tag is unknown, is refused naming the cell landmarks.
#[test]
fn cell_landmarks_are_saved_checked_and_loaded() {
    use crate::DynamicHierarchy;
    let grid = crate::mapgen::generate(crate::mapgen::MapKind::Rooms, 96, 80, 7).unwrap();
    let mut h = Hierarchy::builder()
        .cluster_size(8)
        .build(grid.clone())
        .unwrap();
    let plain = h.to_bytes();
    assert!(h.add_cell_landmarks(2));
    let bytes = h.to_bytes();
    // Two landmarks, four bytes each per cell, an array length and a count.
    let cells = (grid.width() * grid.height()) as usize;
    assert_eq!(bytes.len(), plain.len() + 4 + 8 + cells * 8);
    let back = Hierarchy::from_bytes(grid.clone(), &bytes).unwrap();
    assert!(back.has_cell_landmarks());
    assert_eq!(back.guide(), h.guide());
    assert_eq!(back.memory_bytes(), h.memory_bytes());
    assert_eq!(back.to_bytes(), bytes);
    let dir = std::env::temp_dir().join(format!("tierpath-guided-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("guided.tph");
    h.save_file(&path).unwrap();
    assert_eq!(Hierarchy::inspect_file(&path).unwrap().cell_landmarks, 2);
    std::fs::remove_dir_all(&dir).unwrap();
    let mut cache = QueryCache::new();
    let open: Vec<Point> = grid.passable_points().step_by(41).collect();
    for w in open.windows(2) {
        let want = h.find_path(&mut cache, w[0], w[1]).unwrap();
        let got = back.find_path(&mut cache, w[0], w[1]).unwrap();
        assert_eq!(got.path, want.path);
    }

    // Closing cells keeps the landmarks; the closed cells' old distances
    // are not saved.
    let mut world = DynamicHierarchy::new(back);
    let closed: Vec<Point> = open.iter().copied().step_by(3).collect();
    world.set_passable(&closed, false).unwrap();
    assert!(world.has_cell_landmarks());
    let repaired = world.into_hierarchy();
    let again = Hierarchy::from_bytes(repaired.grid().clone(), &repaired.to_bytes()).unwrap();
    assert!(again.has_cell_landmarks());
    for w in open.windows(2).filter(|w| again.grid().is_passable(w[0])) {
        if again.grid().is_passable(w[1]) {
            let want = repaired.find_path(&mut cache, w[0], w[1]).unwrap();
            let got = again.find_path(&mut cache, w[0], w[1]).unwrap();
            assert_eq!(got.path, want.path);
        }
    }

    // The section starts where the two files first differ: its tag, the
    // count (4 bytes), the array's length (8), then the distances.
    let tag = plain.iter().zip(&bytes).position(|(a, b)| a != b).unwrap();
    assert_eq!((plain[tag], bytes[tag]), (0, 1), "layout moved");
    let first = tag + 1 + 4 + 8;
    let p = grid.passable_points().nth(100).unwrap();
    let at = first + (p.y * grid.width() + p.x) as usize * 8;
    let refused = |bytes: &mut Vec<u8>| {
        reseal(bytes);
        match Hierarchy::from_bytes(grid.clone(), bytes) {
            Err(LoadError::Invalid(e)) => e,
            other => panic!("expected invalid content, got {:?}", other.map(|_| ())),
        }
    };
    let mut raised = bytes.clone();
    let d = u32::from_le_bytes(raised[at..at + 4].try_into().unwrap());
    raised[at..at + 4].copy_from_slice(&(d + 20_000).to_le_bytes());
    let e = refused(&mut raised);
    assert!(
        e.contains("cell landmark") && e.contains(&format!("({}, {})", p.x, p.y)),
        "{e}"
    );
    let mut tagged = bytes.clone();
    tagged[tag] = 2;
    let e = refused(&mut tagged);
    assert!(e.contains("unknown cell landmarks tag 2"), "{e}");
}
