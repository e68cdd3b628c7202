//! Saving and loading: the hierarchy file.
//!
//! # Format (all integers little-endian)
//!
//! ```text
//! magic      8 bytes  "TIERPATH"
//! version    u32      FORMAT_VERSION
//! fingerprint u64     Grid::fingerprint of the map it was built from
//! width, height u32   map size
//! settings            cluster size u32, connectivity u8, corner rule u8,
//!                     straight u32, diagonal u32, single_below u32,
//!                     max_gap u32, keep_paths u8
//! sections            arrays as (u64 length, elements), scalars as u64
//! stats               the build's per-stage times and sizes
//! checksum   u64      word hash of every byte before it
//! ```
//!
//! Loading checks, in order: length, magic, version, checksum (so any damaged
//! byte is caught before parsing), the map's fingerprint, then every array's
//! length and index range, so even a file with a forged checksum cannot make a
//! later query index out of bounds. Nothing is rebuilt. The map's fingerprint
//! is computed beside reading the file (or, from bytes, beside checking
//! them), and the bulk of the checks (the cell table, transitions and stored
//! paths) run in parallel.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use thiserror::Error;

use super::{BuildSettings, Hierarchy, StageStats};
use crate::checksum::WordHasher;
use crate::grid::{Connectivity, CornerRule, Grid, Movement};
use crate::packed::{Column32, Column64};
use crate::preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Landmarks, NO_NODE,
};

/// The first eight bytes of a saved hierarchy.
pub const MAGIC: &[u8; 8] = b"TIERPATH";
/// The file format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Why a saved hierarchy could not be loaded.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The file does not start with the magic bytes.
    #[error("not a tierpath hierarchy file (bad magic bytes)")]
    NotAHierarchy,
    /// Written by another format version.
    #[error(
        "hierarchy format version {found} is not supported (this build reads version {supported})"
    )]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this build reads.
        supported: u32,
    },
    /// The file ends early.
    #[error("hierarchy file is truncated ({0})")]
    Truncated(&'static str),
    /// The checksum does not match: the file is damaged.
    #[error("hierarchy file is corrupted: checksum mismatch")]
    Checksum,
    /// Built from another map.
    #[error(
        "hierarchy was built for another map (fingerprint {file:016x}, {file_width}x{file_height}; this map is {map:016x}, {map_width}x{map_height})"
    )]
    MapMismatch {
        /// Fingerprint in the file.
        file: u64,
        /// Width in the file.
        file_width: u32,
        /// Height in the file.
        file_height: u32,
        /// Fingerprint of the map given.
        map: u64,
        /// Width of the map given.
        map_width: u32,
        /// Height of the map given.
        map_height: u32,
    },
    /// Structurally invalid content.
    #[error("hierarchy file is invalid: {0}")]
    Invalid(String),
}

struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_le_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.u64(v.to_bits());
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        self.buf.reserve(v.len() * 4);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn u64s(&mut self, v: &[u64]) {
        self.u64(v.len() as u64);
        self.buf.reserve(v.len() * 8);
        for x in v {
            self.buf.extend_from_slice(&x.to_le_bytes());
        }
    }
    fn bytes(&mut self, v: &[u8]) {
        self.u64(v.len() as u64);
        self.buf.extend_from_slice(v);
    }
    fn col32(&mut self, c: &Column32) {
        match c {
            Column32::Narrow(v) => {
                self.u8(2);
                self.u64(v.len() as u64);
                self.buf.reserve(v.len() * 2);
                for x in v {
                    self.buf.extend_from_slice(&x.to_le_bytes());
                }
            }
            Column32::Wide(v) => {
                self.u8(4);
                self.u32s(v);
            }
        }
    }
    fn col64(&mut self, c: &Column64) {
        match c {
            Column64::Narrow(v) => {
                self.u8(4);
                self.u32s(v);
            }
            Column64::Wide(v) => {
                self.u8(8);
                self.u64s(v);
            }
        }
    }
    fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.buf.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &'static str) -> Result<&'a [u8], LoadError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|e| *e <= self.bytes.len())
            .ok_or(LoadError::Truncated(what))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, LoadError> {
        Ok(self.take(1, what)?[0])
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(
            self.take(4, what)?.try_into().expect("4 bytes"),
        ))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(
            self.take(8, what)?.try_into().expect("8 bytes"),
        ))
    }
    fn f64(&mut self, what: &'static str) -> Result<f64, LoadError> {
        Ok(f64::from_bits(self.u64(what)?))
    }
    fn len(&mut self, elem: usize, what: &'static str) -> Result<usize, LoadError> {
        let n = self.u64(what)?;
        let remaining = (self.bytes.len() - self.at) as u64;
        if n.checked_mul(elem as u64).is_none_or(|b| b > remaining) {
            return Err(LoadError::Truncated(what));
        }
        Ok(n as usize)
    }
    fn u32s(&mut self, what: &'static str) -> Result<Vec<u32>, LoadError> {
        let n = self.len(4, what)?;
        let raw = self.take(n * 4, what)?;
        Ok(raw
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect())
    }
    fn u64s(&mut self, what: &'static str) -> Result<Vec<u64>, LoadError> {
        let n = self.len(8, what)?;
        let raw = self.take(n * 8, what)?;
        Ok(raw
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect())
    }
    fn bytes(&mut self, what: &'static str) -> Result<Vec<u8>, LoadError> {
        let n = self.len(1, what)?;
        Ok(self.take(n, what)?.to_vec())
    }
    fn col32(&mut self, what: &'static str) -> Result<Column32, LoadError> {
        match self.u8(what)? {
            2 => {
                let n = self.len(2, what)?;
                let raw = self.take(n * 2, what)?;
                Ok(Column32::Narrow(
                    raw.chunks_exact(2)
                        .map(|c| u16::from_le_bytes(c.try_into().expect("2 bytes")))
                        .collect(),
                ))
            }
            4 => Ok(Column32::Wide(self.u32s(what)?)),
            w => Err(invalid(format!("{what}: unknown column width {w}"))),
        }
    }
    fn col64(&mut self, what: &'static str) -> Result<Column64, LoadError> {
        match self.u8(what)? {
            4 => Ok(Column64::Narrow(self.u32s(what)?)),
            8 => Ok(Column64::Wide(self.u64s(what)?)),
            w => Err(invalid(format!("{what}: unknown column width {w}"))),
        }
    }
    fn str(&mut self, what: &'static str) -> Result<String, LoadError> {
        let n = self.len(1, what)?;
        String::from_utf8(self.take(n, what)?.to_vec())
            .map_err(|_| LoadError::Invalid(format!("{what} is not UTF-8")))
    }
}

fn invalid(msg: impl Into<String>) -> LoadError {
    LoadError::Invalid(msg.into())
}

/// Checks `v` is non-decreasing, starts at 0 and ends at `end`.
fn check_offsets(v: &[u32], len: usize, end: usize, what: &str) -> Result<(), LoadError> {
    if v.len() != len || v.first() != Some(&0) || v.last().map(|x| *x as usize) != Some(end) {
        return Err(invalid(format!("{what} offsets have the wrong shape")));
    }
    // Folded without early exits, so the comparisons vectorise.
    if v.iter()
        .zip(&v[1..])
        .fold(false, |bad, (a, b)| bad | (a > b))
    {
        return Err(invalid(format!("{what} offsets decrease")));
    }
    Ok(())
}

fn check_below(v: &[u32], bound: usize, what: &str) -> Result<(), LoadError> {
    let bound = bound.min(u32::MAX as usize + 1) as u64;
    if v.iter().fold(false, |bad, x| bad | (*x as u64 >= bound)) {
        return Err(invalid(format!("{what} holds an index out of range")));
    }
    Ok(())
}

impl Hierarchy {
    /// Serialises the hierarchy (not the grid: the file records the grid's
    /// fingerprint, and loading needs the same grid).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer { buf: Vec::new() };
        w.buf.extend_from_slice(MAGIC);
        w.u32(FORMAT_VERSION);
        w.u64(self.grid.fingerprint());
        w.u32(self.grid.width());
        w.u32(self.grid.height());
        let s = &self.settings;
        w.u32(s.cluster_size);
        w.u8(match s.movement.connectivity {
            Connectivity::Four => 4,
            Connectivity::Eight => 8,
        });
        w.u8(match s.movement.corners {
            CornerRule::Never => 0,
            CornerRule::IfOneFree => 1,
            CornerRule::Always => 2,
        });
        w.u32(s.movement.straight);
        w.u32(s.movement.diagonal);
        w.u32(s.entrances.single_below);
        w.u32(s.entrances.max_gap);
        w.u8(s.keep_paths as u8);
        w.u32(s.landmarks);

        let d = &self.dead_ends;
        w.col32(&d.cell_anchor);
        w.u32s(&d.block_end);
        w.u32s(&d.block_island);
        w.u32s(&d.island_core);
        w.u32s(&d.island_sizes);
        w.u64(d.dead_end_cells);
        w.u64(d.articulation_cells);

        let e = &self.entrances;
        w.u32s(&e.cells);
        w.u32s(&e.cluster_first);
        let links: Vec<u32> = e.links.iter().flat_map(|(a, b)| [*a, *b]).collect();
        w.u32s(&links);
        w.u64(e.entrances);

        let g = &self.graph;
        w.u32s(&g.edge_first);
        w.u32s(&g.edge_to);
        w.col64(&g.edge_cost);
        w.u32s(&g.path_first);
        w.bytes(&g.path_codes);
        w.u64(g.intra_edges);
        w.u64(g.inter_edges);

        let l = &self.landmarks;
        w.u32(l.count);
        w.u32s(&l.nodes);
        w.col64(&l.dist);

        w.u64(self.stats.stages.len() as u64);
        for st in &self.stats.stages {
            w.str(&st.name);
            w.f64(st.seconds);
            w.u64(st.bytes);
        }

        let mut h = WordHasher::new();
        h.write(&w.buf);
        let sum = h.finish();
        w.u64(sum);
        w.buf
    }

    /// Writes the hierarchy to `out`.
    pub fn save(&self, out: &mut impl Write) -> std::io::Result<()> {
        out.write_all(&self.to_bytes())
    }

    /// Writes the hierarchy to a file (via a temporary file and a rename, so a
    /// failed write never leaves a half-written hierarchy behind).
    pub fn save_file(&self, path: impl AsRef<Path>) -> Result<(), LoadError> {
        let path = path.as_ref();
        let io = |source| LoadError::Io {
            path: path.display().to_string(),
            source,
        };
        let tmp = path.with_extension("tmp-tierpath");
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Loads a hierarchy file for `grid`.
    pub fn load_file(grid: Grid, path: impl AsRef<Path>) -> Result<Hierarchy, LoadError> {
        let path = path.as_ref();
        // The map's fingerprint while the file is read.
        let (bytes, fingerprint) = rayon::join(|| std::fs::read(path), || grid.fingerprint());
        let bytes = bytes.map_err(|source| LoadError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Hierarchy::read_bytes(grid, &bytes, Some(fingerprint))
    }

    /// Reads a hierarchy saved by [`Hierarchy::to_bytes`] for `grid`, which must
    /// be the map it was built from.
    pub fn from_bytes(grid: Grid, bytes: &[u8]) -> Result<Hierarchy, LoadError> {
        Hierarchy::read_bytes(grid, bytes, None)
    }

    /// [`Hierarchy::from_bytes`], given the map's fingerprint when it is known
    /// already.
    fn read_bytes(
        grid: Grid,
        bytes: &[u8],
        fingerprint: Option<u64>,
    ) -> Result<Hierarchy, LoadError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(LoadError::NotAHierarchy);
        }
        if bytes.len() < MAGIC.len() + 4 + 8 {
            return Err(LoadError::Truncated("header"));
        }
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(LoadError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let same_size = |width: u32, height: u32| width == grid.width() && height == grid.height();
        // The checksum, then (for a file of the map's size) parsing and
        // checking the content, which cannot go wrong on another map's cells,
        // only fail; the map's fingerprint, when not known yet, is computed
        // beside them. The errors keep their order: a damaged file, then
        // another map, then invalid content.
        let read = || {
            let mut h = WordHasher::new();
            h.write(body);
            if h.finish() != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
                return Err(LoadError::Checksum);
            }
            let mut r = Reader {
                bytes: body,
                at: 12,
            };
            let fingerprint = r.u64("header")?;
            let (width, height) = (r.u32("header")?, r.u32("header")?);
            let content = same_size(width, height).then(|| read_content(&grid, r));
            Ok(((fingerprint, width, height), content))
        };
        let (read, map_fingerprint) = match fingerprint {
            Some(known) => (read(), known),
            None => rayon::join(read, || grid.fingerprint()),
        };
        let ((fingerprint, width, height), content) = read?;
        if !same_size(width, height) || fingerprint != map_fingerprint {
            return Err(LoadError::MapMismatch {
                file: fingerprint,
                file_width: width,
                file_height: height,
                map: map_fingerprint,
                map_width: grid.width(),
                map_height: grid.height(),
            });
        }
        let (settings, dead_ends, entrances, graph, landmarks, stages) =
            content.expect("read for a map of the same size")?;
        let mut h = Hierarchy::assemble(
            grid, settings, dead_ends, entrances, graph, landmarks, stages,
        );
        h.stats.stages.shrink_to_fit();
        Ok(h)
    }
}

/// Everything a file holds after its header, parsed and checked against
/// `grid` (of the file's size).
type Content = (
    BuildSettings,
    DeadEnds,
    Entrances,
    ClusterGraph,
    Landmarks,
    Vec<StageStats>,
);

/// Parses the settings and sections after the header and checks them.
fn read_content(grid: &Grid, mut r: Reader<'_>) -> Result<Content, LoadError> {
    let body = r.bytes;
    let cluster_size = r.u32("settings")?;
    let connectivity = match r.u8("settings")? {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        c => return Err(invalid(format!("unknown connectivity {c}"))),
    };
    let corners = match r.u8("settings")? {
        0 => CornerRule::Never,
        1 => CornerRule::IfOneFree,
        2 => CornerRule::Always,
        c => return Err(invalid(format!("unknown corner rule {c}"))),
    };
    let movement = Movement {
        connectivity,
        corners,
        straight: r.u32("settings")?,
        diagonal: r.u32("settings")?,
    };
    movement.validate().map_err(|e| invalid(e.to_string()))?;
    let entrances_policy = EntrancePolicy {
        single_below: r.u32("settings")?,
        max_gap: r.u32("settings")?,
    };
    let keep_paths = r.u8("settings")? != 0;
    let landmark_count = r.u32("settings")?;
    if !(2..=1024).contains(&cluster_size) {
        return Err(invalid(format!("cluster size {cluster_size}")));
    }
    let settings = BuildSettings {
        cluster_size,
        movement,
        entrances: entrances_policy,
        keep_paths,
        landmarks: landmark_count,
    };

    let dead_ends = DeadEnds {
        cell_anchor: r.col32("dead ends")?,
        block_end: r.u32s("dead ends")?,
        block_island: r.u32s("dead ends")?,
        island_core: r.u32s("dead ends")?,
        island_sizes: r.u32s("dead ends")?,
        dead_end_cells: r.u64("dead ends")?,
        articulation_cells: r.u64("dead ends")?,
    };
    let cells = r.u32s("entrances")?;
    let cluster_first = r.u32s("entrances")?;
    let flat_links = r.u32s("entrances")?;
    if flat_links.len() % 2 != 0 {
        return Err(invalid("odd link list"));
    }
    let entrances = Entrances {
        layout: ClusterLayout::new(grid, cluster_size),
        cells,
        cluster_first,
        links: flat_links.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
        entrances: r.u64("entrances")?,
    };
    let graph = ClusterGraph {
        edge_first: r.u32s("cluster graph")?,
        edge_to: r.u32s("cluster graph")?,
        edge_cost: r.col64("cluster graph")?,
        path_first: r.u32s("cluster graph")?,
        path_codes: r.bytes("cluster graph")?,
        intra_edges: r.u64("cluster graph")?,
        inter_edges: r.u64("cluster graph")?,
    };
    let landmarks = Landmarks {
        count: r.u32("landmarks")?,
        nodes: r.u32s("landmarks")?,
        dist: r.col64("landmarks")?,
    };
    let n_stages = r.len(1, "stats")?;
    let mut stages = Vec::with_capacity(n_stages.min(64));
    for _ in 0..n_stages {
        stages.push(StageStats {
            name: r.str("stats")?,
            seconds: r.f64("stats")?,
            bytes: r.u64("stats")?,
        });
    }
    if r.at != body.len() {
        return Err(invalid("trailing bytes after the stats"));
    }

    validate(grid, &settings, &dead_ends, &entrances, &graph)?;
    let n = entrances.cells.len();
    if landmarks.count > 16
        || landmarks.nodes.len() != landmarks.count as usize
        || landmarks.dist.len() != n * landmarks.count as usize
    {
        return Err(invalid("landmark tables have the wrong shape"));
    }
    check_below(&landmarks.nodes, n.max(1), "landmarks")?;
    Ok((settings, dead_ends, entrances, graph, landmarks, stages))
}

/// Checks every invariant a query relies on.
fn validate(
    grid: &Grid,
    settings: &BuildSettings,
    d: &DeadEnds,
    e: &Entrances,
    g: &ClusterGraph,
) -> Result<(), LoadError> {
    let cells = grid.len();
    let blocks = d.block_end.len();
    if d.cell_anchor.len() != cells {
        return Err(invalid("cell table has the wrong length"));
    }
    // The cell table (a million cells on the largest maps) and the stored
    // paths are checked side by side; each is the bulk of its half.
    let (anchors, rest) = rayon::join(
        || check_anchors(grid, &d.cell_anchor, blocks),
        || validate_graph(grid, settings, e, g),
    );
    anchors?;
    rest?;
    if d.block_island.len() != blocks {
        return Err(invalid("block tables differ in length"));
    }
    if d.block_end
        .iter()
        .enumerate()
        .any(|(i, e)| (*e as usize) <= i || *e as usize > blocks)
    {
        return Err(invalid("block preorder ranges are invalid"));
    }
    check_below(&d.block_island, d.island_sizes.len(), "block islands")?;
    if d.island_core.len() != d.island_sizes.len() {
        return Err(invalid("island tables differ in length"));
    }
    check_below(&d.island_core, blocks, "island cores")?;

    Ok(())
}

/// A cell has an anchor exactly when it is passable, and anchors name
/// existing blocks. Row by row, over slices, every comparison folded without
/// early exits (so it vectorises); only a failing row is looked for again.
fn check_anchors(grid: &Grid, anchors: &Column32, blocks: usize) -> Result<(), LoadError> {
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    let passable = grid.passable_slice();
    let open = |y: usize| &passable[(y + 1) * pw + 1..(y + 1) * pw + 1 + w];
    let bad_row = match anchors {
        Column32::Narrow(v) => {
            let limit = blocks.min(u16::MAX as usize) as u16;
            (0..grid.height() as usize).find(|y| {
                !v[y * w..(y + 1) * w]
                    .iter()
                    .zip(open(*y))
                    .fold(true, |ok, (a, p)| {
                        let wall = *a == u16::MAX;
                        ok & (wall != *p) & (wall | (*a < limit))
                    })
            })
        }
        Column32::Wide(v) => {
            let limit = blocks.min(u32::MAX as usize) as u32;
            (0..grid.height() as usize).find(|y| {
                !v[y * w..(y + 1) * w]
                    .iter()
                    .zip(open(*y))
                    .fold(true, |ok, (a, p)| {
                        let wall = *a == NO_NODE;
                        ok & (wall != *p) & (wall | (*a < limit))
                    })
            })
        }
    };
    match bad_row {
        Some(y) => Err(invalid(format!(
            "row {y} has a cell with an invalid anchor"
        ))),
        None => Ok(()),
    }
}

/// The transitions, links, edges and stored paths.
fn validate_graph(
    grid: &Grid,
    settings: &BuildSettings,
    e: &Entrances,
    g: &ClusterGraph,
) -> Result<(), LoadError> {
    let cells = grid.len();
    let layout = ClusterLayout::new(grid, settings.cluster_size);
    let nodes = e.cells.len();
    check_below(&e.cells, cells, "transition cells")?;
    check_offsets(&e.cluster_first, layout.count() + 1, nodes, "cluster")?;
    // The transitions per cluster in parallel (the largest maps have tens of
    // thousands), beside the tables; then the stored paths (hundreds of
    // thousands of moves) per node in parallel.
    let (placed, tables) = rayon::join(
        || {
            (0..layout.count())
                .into_par_iter()
                .with_min_len(64)
                .try_for_each(|c| {
                    for i in e.cluster_first[c]..e.cluster_first[c + 1] {
                        let cell = e.cells[i as usize];
                        let p = grid.point_of(crate::CellIndex(cell));
                        if layout.cluster_of(p) as usize != c || !grid.is_passable(p) {
                            return Err(invalid(format!("transition {i} is misplaced")));
                        }
                    }
                    Ok(())
                })
        },
        || {
            let nodes = nodes as u64;
            if e.links.iter().fold(false, |bad, (a, b)| {
                bad | (*a as u64 >= nodes) | (*b as u64 >= nodes)
            }) {
                return Err(invalid("link to a missing transition"));
            }
            check_offsets(&g.edge_first, nodes as usize + 1, g.edge_to.len(), "edge")?;
            check_below(&g.edge_to, nodes as usize, "edge targets")?;
            if g.edge_cost.len() != g.edge_to.len() {
                return Err(invalid("edge costs differ in length from edges"));
            }
            if !g.path_first.is_empty() || !g.path_codes.is_empty() {
                check_offsets(
                    &g.path_first,
                    g.edge_to.len() + 1,
                    g.path_codes.len(),
                    "path",
                )?;
            }
            Ok(())
        },
    );
    placed?;
    tables?;
    if !g.path_first.is_empty() || !g.path_codes.is_empty() {
        // Every stored path must walk, by legal moves, from its edge's source
        // to its target: queries copy them without further checks.
        (0..nodes)
            .into_par_iter()
            .with_min_len(256)
            .try_for_each(|v| {
                let from = grid.node(grid.point_of(crate::CellIndex(e.cells[v])));
                for edge in g.edge_first[v] as usize..g.edge_first[v + 1] as usize {
                    let Some(codes) = g.edge_path(edge) else {
                        continue;
                    };
                    // Walk on padded nodes: a legal move only ever reaches a
                    // passable cell, so the walk cannot leave the map.
                    let mut n = from;
                    for c in codes {
                        let step = (*c < 8)
                            .then(|| grid.neighbor_in(n, *c, &settings.movement))
                            .flatten();
                        let Some((m, _)) = step else {
                            return Err(invalid(format!(
                                "stored path of edge {edge} makes an illegal move"
                            )));
                        };
                        n = m;
                    }
                    let to = grid
                        .node(grid.point_of(crate::CellIndex(e.cells[g.edge_to[edge] as usize])));
                    if n != to {
                        return Err(invalid(format!(
                            "stored path of edge {edge} ends off its target"
                        )));
                    }
                }
                Ok(())
            })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Point;

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
        let narrow = |v: &[u32]| {
            Column32::Narrow(
                v.iter()
                    .map(|a| if *a == NO_NODE { u16::MAX } else { *a as u16 })
                    .collect(),
            )
        };
        for column in [narrow as fn(&[u32]) -> Column32, |v| {
            Column32::Wide(v.to_vec())
        }] {
            assert!(check_anchors(grid, &column(&good), blocks).is_ok());
            for (cell, anchor) in [(wall, 0), (open, NO_NODE), (open, blocks as u32)] {
                let mut bad = good.clone();
                bad[cell] = anchor;
                let row = cell / grid.width() as usize;
                match check_anchors(grid, &column(&bad), blocks) {
                    Err(LoadError::Invalid(msg)) => {
                        assert!(msg.contains(&format!("row {row} ")), "{msg}")
                    }
                    other => panic!("cell {cell} anchored at {anchor}: {other:?}"),
                }
            }
        }
    }

    /// Serialises `h` (the checksum made to match whatever it holds), and
    /// the message `from_bytes` rejects the file with.
    fn rejection(h: &Hierarchy, extra: bool) -> String {
        let mut bytes = h.to_bytes();
        if extra {
            // One byte more before the checksum, and the checksum remade.
            bytes.insert(bytes.len() - 8, 0);
            let body = bytes.len() - 8;
            let mut hasher = WordHasher::new();
            hasher.write(&bytes[..body]);
            bytes[body..].copy_from_slice(&hasher.finish().to_le_bytes());
        }
        match Hierarchy::from_bytes(h.grid().clone(), &bytes) {
            Err(LoadError::Invalid(msg)) => msg,
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
        bad_anchor.dead_ends.cell_anchor = match &h.dead_ends.cell_anchor {
            Column32::Narrow(v) => {
                let mut v = v.clone();
                v[open] = u16::MAX;
                Column32::Narrow(v)
            }
            Column32::Wide(v) => {
                let mut v = v.clone();
                v[open] = NO_NODE;
                Column32::Wide(v)
            }
        };
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
        assert!(rejection(&bad_landmarks, false).contains("landmark tables"));

        let mut bad_transition = h.clone();
        let wall = (0..h.grid().len() as u32)
            .find(|i| {
                !h.grid()
                    .is_passable(h.grid().point_of(crate::CellIndex(*i)))
            })
            .unwrap();
        bad_transition.entrances.cells[0] = wall;
        assert!(rejection(&bad_transition, false).contains("misplaced"));
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
        let mut v2 = bytes.clone();
        v2[8] = 2;
        assert!(matches!(
            Hierarchy::from_bytes(h.grid().clone(), &v2),
            Err(LoadError::Version { found: 2, .. })
        ));
        assert!(matches!(
            Hierarchy::from_bytes(h.grid().clone(), b"PNG\x89 whatever"),
            Err(LoadError::NotAHierarchy)
        ));
    }
}
