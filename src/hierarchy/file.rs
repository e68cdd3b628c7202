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
//!                     max_gap u32, keep_paths u8, landmarks u32
//! sections            arrays as (u64 length, elements), scalars as u64;
//!                     the cell table first, in canonical tile form
//!                     (cells u64, then per tile its open-cell mask, shared
//!                     value and mixed row, then the mixed rows)
//! stats               the build's per-stage times and sizes
//! checksum   u64      word hash of every byte before it
//! ```
//!
//! Loading reads a file a small piece at a time, checksumming each piece as
//! it arrives and decoding it straight into the hierarchy's arrays; the map's
//! fingerprint is computed beside. Errors come in a fixed order whatever the
//! damage: not a hierarchy (magic), another version, a damaged file
//! (checksum, so a damaged byte is never reported as anything else), another
//! map (fingerprint and size), then invalid content: every array's length and
//! index range and every stored path, so even a file with a forged checksum
//! cannot make a later query index out of bounds. Nothing is rebuilt; the
//! bulk of the checks (the cell table, transitions and stored paths) run in
//! parallel.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use thiserror::Error;

use super::{BuildSettings, Hierarchy, StageStats};
use crate::checksum::WordHasher;
use crate::grid::{Connectivity, CornerRule, Grid, Movement, pack64};
use crate::packed::{Column32, Column64};
use crate::preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Landmarks, NO_NODE,
};
use crate::tiled::{TILE, TileColumn};

/// Bytes of the magic and version at the start of a file.
const HEADER: usize = 12;

/// The first eight bytes of a saved hierarchy.
pub const MAGIC: &[u8; 8] = b"TIERPATH";
/// The file format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 2;

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

/// Bytes read from a [`Source`] at a time: small enough to stay in cache
/// between the read, the checksum and the decoding.
const CHUNK: usize = 128 * 1024;

/// Where a saved hierarchy's bytes come from, consumed front to back. The
/// body is everything before the last eight bytes, the checksum.
trait Source {
    /// The unconsumed body bytes ahead: at least `min` of them (`min` is at
    /// most eight and at most [`Source::remaining`]).
    fn peek(&mut self, min: usize) -> Result<&[u8], LoadError>;
    /// Consumes the first `n` bytes of the last [`Source::peek`].
    fn consume(&mut self, n: usize);
    /// Body bytes not yet consumed.
    fn remaining(&self) -> u64;
    /// Consumes the rest of the body and says whether the checksum matches.
    fn checksum_matches(self) -> Result<bool, LoadError>;
}

/// A whole file in memory: [`Hierarchy::from_bytes`].
struct SliceSource<'a> {
    body: &'a [u8],
    at: usize,
    sum: u64,
}

impl<'a> SliceSource<'a> {
    /// `bytes` is at least eight bytes long.
    fn new(bytes: &'a [u8]) -> Self {
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        SliceSource {
            body,
            at: 0,
            sum: u64::from_le_bytes(sum.try_into().expect("8 bytes")),
        }
    }
}

impl Source for SliceSource<'_> {
    fn peek(&mut self, _min: usize) -> Result<&[u8], LoadError> {
        Ok(&self.body[self.at..])
    }
    fn consume(&mut self, n: usize) {
        self.at += n;
    }
    fn remaining(&self) -> u64 {
        (self.body.len() - self.at) as u64
    }
    fn checksum_matches(self) -> Result<bool, LoadError> {
        let mut h = WordHasher::new();
        h.write(self.body);
        Ok(h.finish() == self.sum)
    }
}

/// A file read a [`CHUNK`] at a time into one small buffer, hashed as it
/// arrives: decoding writes each array once, in its final place, and no copy
/// of the whole file is ever made.
struct FileSource {
    file: std::fs::File,
    path: String,
    /// [`CHUNK`] bytes (fewer in tests, to cross many piece boundaries).
    buf: Box<[u8]>,
    /// The unconsumed bytes are `buf[pos..end]`.
    pos: usize,
    end: usize,
    /// Body bytes still in the file.
    unread: u64,
    hasher: WordHasher,
}

impl FileSource {
    /// `len` is the file's length, at least eight bytes; `chunk` (at least
    /// eight) the bytes read at a time.
    fn new(file: std::fs::File, path: String, len: u64, chunk: usize) -> Self {
        FileSource {
            file,
            path,
            buf: vec![0; chunk.max(8)].into_boxed_slice(),
            pos: 0,
            end: 0,
            unread: len - 8,
            hasher: WordHasher::new(),
        }
    }

    fn io(&self, source: std::io::Error) -> LoadError {
        LoadError::Io {
            path: self.path.clone(),
            source,
        }
    }

    /// Reads into `buf[at..at + want]`, some bytes at least.
    fn read_some(&mut self, at: usize, want: usize) -> Result<usize, LoadError> {
        use std::io::Read;
        loop {
            match self.file.read(&mut self.buf[at..at + want]) {
                Ok(0) => return Err(LoadError::Truncated("the file shrank while being read")),
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.io(e)),
            }
        }
    }
}

impl Source for FileSource {
    fn peek(&mut self, min: usize) -> Result<&[u8], LoadError> {
        if self.end - self.pos < min {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            while self.end < min {
                let want = (self.buf.len() - self.end).min(self.unread as usize);
                let n = self.read_some(self.end, want)?;
                self.hasher.write(&self.buf[self.end..self.end + n]);
                self.end += n;
                self.unread -= n as u64;
            }
        }
        Ok(&self.buf[self.pos..self.end])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
    fn remaining(&self) -> u64 {
        (self.end - self.pos) as u64 + self.unread
    }
    fn checksum_matches(mut self) -> Result<bool, LoadError> {
        while self.unread > 0 {
            let want = self.buf.len().min(self.unread as usize);
            let n = self.read_some(0, want)?;
            self.hasher.write(&self.buf[..n]);
            self.unread -= n as u64;
        }
        let mut sum = [0u8; 8];
        let mut got = 0;
        while got < 8 {
            let n = self.read_some(0, 8 - got)?;
            sum[got..got + n].copy_from_slice(&self.buf[..n]);
            got += n;
        }
        Ok(self.hasher.finish() == u64::from_le_bytes(sum))
    }
}

/// Decodes the body of a [`Source`].
struct Reader<S> {
    src: S,
}

impl<S: Source> Reader<S> {
    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], LoadError> {
        if self.src.remaining() < N as u64 {
            return Err(LoadError::Truncated(what));
        }
        let b: [u8; N] = self.src.peek(N)?[..N].try_into().expect("N bytes");
        self.src.consume(N);
        Ok(b)
    }
    fn u8(&mut self, what: &'static str) -> Result<u8, LoadError> {
        Ok(self.array::<1>(what)?[0])
    }
    fn u32(&mut self, what: &'static str) -> Result<u32, LoadError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }
    fn u64(&mut self, what: &'static str) -> Result<u64, LoadError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }
    fn f64(&mut self, what: &'static str) -> Result<f64, LoadError> {
        Ok(f64::from_bits(self.u64(what)?))
    }
    /// A length prefix of `elem`-byte elements, which the body must hold.
    fn len(&mut self, elem: usize, what: &'static str) -> Result<usize, LoadError> {
        let n = self.u64(what)?;
        let remaining = self.src.remaining();
        if n.checked_mul(elem as u64).is_none_or(|b| b > remaining) {
            return Err(LoadError::Truncated(what));
        }
        Ok(n as usize)
    }
    /// Hands the next `n` elements of `elem` bytes to `f`, in pieces of whole
    /// elements (`n` was checked by [`Reader::len`]).
    fn each_piece(
        &mut self,
        n: usize,
        elem: usize,
        mut f: impl FnMut(&[u8]),
    ) -> Result<(), LoadError> {
        let mut left = n * elem;
        while left > 0 {
            let ahead = self.src.peek(elem)?;
            let take = ahead.len().min(left) / elem * elem;
            f(&ahead[..take]);
            self.src.consume(take);
            left -= take;
        }
        Ok(())
    }
    /// A length-prefixed array of `N`-byte little-endian integers. (`from_le`
    /// is generic, not a `fn` pointer: a pointer is not inlined, and the
    /// decoding then ran at half speed.)
    fn ints<T, const N: usize>(
        &mut self,
        what: &'static str,
        from_le: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, LoadError> {
        let n = self.len(N, what)?;
        let mut v = Vec::with_capacity(n);
        self.each_piece(n, N, |b| {
            v.extend(
                b.chunks_exact(N)
                    .map(|c| from_le(c.try_into().expect("N bytes"))),
            )
        })?;
        Ok(v)
    }
    fn u16s(&mut self, what: &'static str) -> Result<Vec<u16>, LoadError> {
        self.ints(what, u16::from_le_bytes)
    }
    fn u32s(&mut self, what: &'static str) -> Result<Vec<u32>, LoadError> {
        self.ints(what, u32::from_le_bytes)
    }
    fn u64s(&mut self, what: &'static str) -> Result<Vec<u64>, LoadError> {
        self.ints(what, u64::from_le_bytes)
    }
    fn bytes(&mut self, what: &'static str) -> Result<Vec<u8>, LoadError> {
        let n = self.len(1, what)?;
        let mut v = Vec::with_capacity(n);
        self.each_piece(n, 1, |b| v.extend_from_slice(b))?;
        Ok(v)
    }
    fn col32(&mut self, what: &'static str) -> Result<Column32, LoadError> {
        match self.u8(what)? {
            2 => Ok(Column32::Narrow(self.u16s(what)?)),
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
        String::from_utf8(self.bytes(what)?)
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
        let anchors = d.cell_anchor.canonical();
        w.u64(anchors.len() as u64);
        w.u64s(&anchors.present);
        w.u32s(&anchors.value);
        w.u32s(&anchors.row);
        w.col32(&anchors.rows);
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

    /// Loads a hierarchy file for `grid`, which must be the map it was built
    /// from.
    ///
    /// The file is read a small piece at a time, checksummed as it arrives
    /// and decoded straight into the hierarchy's arrays, beside the map's
    /// fingerprint: no copy of the whole file is made.
    pub fn load_file(grid: Grid, path: impl AsRef<Path>) -> Result<Hierarchy, LoadError> {
        Hierarchy::load_file_in_pieces(grid, path.as_ref(), CHUNK)
    }

    /// [`Hierarchy::load_file`], reading `chunk` bytes at a time.
    fn load_file_in_pieces(grid: Grid, path: &Path, chunk: usize) -> Result<Hierarchy, LoadError> {
        let io = |source| LoadError::Io {
            path: path.display().to_string(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len < (HEADER + 8) as u64 {
            // Too short to hold a header: read whole, so the error names what
            // is missing exactly as for bytes in memory.
            let bytes = std::fs::read(path).map_err(io)?;
            return Hierarchy::from_bytes(grid, &bytes);
        }
        let source = FileSource::new(file, path.display().to_string(), len, chunk);
        Hierarchy::read(grid, source)
    }

    /// Reads a hierarchy saved by [`Hierarchy::to_bytes`] for `grid`, which must
    /// be the map it was built from.
    pub fn from_bytes(grid: Grid, bytes: &[u8]) -> Result<Hierarchy, LoadError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(LoadError::NotAHierarchy);
        }
        if bytes.len() < HEADER + 8 {
            return Err(LoadError::Truncated("header"));
        }
        Hierarchy::read(grid, SliceSource::new(bytes))
    }

    /// Reads a hierarchy for `grid` from `src`, whose body holds the magic
    /// bytes and version at least.
    fn read<S: Source + Send>(grid: Grid, src: S) -> Result<Hierarchy, LoadError> {
        let mut r = Reader { src };
        if &r.array::<8>("header")? != MAGIC {
            return Err(LoadError::NotAHierarchy);
        }
        let version = r.u32("header")?;
        if version != FORMAT_VERSION {
            return Err(LoadError::Version {
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let same_size = |width: u32, height: u32| width == grid.width() && height == grid.height();
        // Parsing (for a file of the map's size), the checksum, then checking
        // the content, which cannot go wrong on another map's cells, only
        // fail; the map's fingerprint is computed beside them. The errors
        // keep their order: a damaged file, then another map, then invalid
        // content.
        let read = || {
            let parsed = (|| {
                let fingerprint = r.u64("header")?;
                let (width, height) = (r.u32("header")?, r.u32("header")?);
                let content = same_size(width, height).then(|| parse_content(&grid, &mut r));
                Ok(((fingerprint, width, height), content))
            })();
            if !r.src.checksum_matches()? {
                return Err(LoadError::Checksum);
            }
            let (header, content) = parsed?;
            let content = content.map(|c| c.and_then(|c| check_content(&grid, &c).map(|()| c)));
            Ok((header, content))
        };
        let (read, map_fingerprint) = rayon::join(read, || grid.fingerprint());
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

/// Parses the settings and sections after the header (the shape of the
/// file; [`check_content`] checks what it says).
fn parse_content<S: Source>(grid: &Grid, r: &mut Reader<S>) -> Result<Content, LoadError> {
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
        cell_anchor: TileColumn::from_parts(
            r.u64("dead ends")?.min(usize::MAX as u64) as usize,
            r.u64s("dead ends")?,
            r.u32s("dead ends")?,
            r.u32s("dead ends")?,
            r.col32("dead ends")?,
        ),
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
    if r.src.remaining() != 0 {
        return Err(invalid("trailing bytes after the stats"));
    }
    Ok((settings, dead_ends, entrances, graph, landmarks, stages))
}

/// Checks parsed content against `grid`.
fn check_content(grid: &Grid, content: &Content) -> Result<(), LoadError> {
    let (settings, dead_ends, entrances, graph, landmarks, _) = content;
    validate(grid, settings, dead_ends, entrances, graph)?;
    let n = entrances.cells.len();
    if landmarks.count > 16
        || landmarks.nodes.len() != landmarks.count as usize
        || landmarks.dist.len() != n * landmarks.count as usize
    {
        return Err(invalid("landmark tables have the wrong shape"));
    }
    check_below(&landmarks.nodes, n.max(1), "landmarks")?;
    Ok(())
}

/// Checks every invariant a query relies on.
fn validate(
    grid: &Grid,
    settings: &BuildSettings,
    d: &DeadEnds,
    e: &Entrances,
    g: &ClusterGraph,
) -> Result<(), LoadError> {
    let blocks = d.block_end.len();
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

/// A cell has an anchor exactly when it is passable, anchors name existing
/// blocks, and the table is in canonical form (see [`crate::tiled`]): mixed
/// tiles numbered in tile order and truly mixed, shared values 0 where
/// unused. The tiles are checked in parallel; only a failing tile is looked
/// at again, to name its first bad cell.
fn check_anchors(grid: &Grid, anchors: &TileColumn, blocks: usize) -> Result<(), LoadError> {
    let cells = grid.len();
    let tiles = TileColumn::tiles_for(cells);
    let (present, value, row) = (&anchors.present, &anchors.value, &anchors.row);
    if anchors.len() != cells
        || present.len() != tiles
        || value.len() != tiles
        || row.len() != tiles
        || !anchors.rows.len().is_multiple_of(TILE)
    {
        return Err(invalid("cell table has the wrong shape"));
    }
    let mut mixed = 0u32;
    for r in row.iter().filter(|r| **r != NO_NODE) {
        if *r != mixed {
            return Err(invalid("cell table's mixed tiles are out of order"));
        }
        mixed += 1;
    }
    if mixed as usize != anchors.mixed_tiles() {
        return Err(invalid("cell table has the wrong number of mixed tiles"));
    }
    let limit = blocks.min(NO_NODE as usize) as u32;
    // Tile t, whose passable cells are the bits of `open`.
    let tile_ok = |t: usize, open: u64| {
        if present[t] != open {
            return false;
        }
        match row[t] {
            NO_NODE if open == 0 => value[t] == 0,
            NO_NODE => value[t] < limit,
            r => value[t] == 0 && open != 0 && anchors.row_is_mixed(r as usize, open, limit),
        }
    };
    // Groups of tiles in parallel; within one, the cells are walked in runs
    // along the rows (a tile may span two), their passability packed to bits.
    let (w, pw) = (grid.width() as usize, grid.padded_width() as usize);
    let passable = grid.passable_slice();
    const GROUP: usize = 256;
    let bad = (0..tiles.div_ceil(GROUP))
        .into_par_iter()
        .filter_map(|g| {
            let mut i = g * GROUP * TILE;
            let (mut y, mut x) = (i / w, i % w);
            for t in g * GROUP..(g * GROUP + GROUP).min(tiles) {
                let (start, end) = (i, (i + TILE).min(cells));
                let mut open = 0u64;
                while i < end {
                    let run = (w - x).min(end - i);
                    let at = (y + 1) * pw + 1 + x;
                    open |= pack64(&passable[at..at + run]) << (i - start);
                    i += run;
                    x += run;
                    if x == w {
                        (x, y) = (0, y + 1);
                    }
                }
                if !tile_ok(t, open) {
                    return Some(t);
                }
            }
            None
        })
        .min();
    let Some(t) = bad else {
        return Ok(());
    };
    let (start, end) = (t * TILE, (t * TILE + TILE).min(cells));
    for i in start..end {
        let p = grid.point_of(crate::CellIndex(i as u32));
        let a = anchors.get(i);
        if (a == NO_NODE) == grid.is_passable(p) || (a != NO_NODE && a >= limit) {
            return Err(invalid(format!(
                "cell ({}, {}) has an invalid anchor",
                p.x, p.y
            )));
        }
    }
    Err(invalid(format!(
        "tile {t} of the cell table is not in canonical form"
    )))
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
        // to its target: queries copy them without further checks. Walks
        // run on padded nodes, each transition's found once.
        let node_at: Vec<crate::grid::Node> = e
            .cells
            .par_iter()
            .map(|c| grid.node(grid.point_of(crate::CellIndex(*c))))
            .collect();
        (0..nodes)
            .into_par_iter()
            .with_min_len(256)
            .try_for_each(|v| {
                let from = node_at[v];
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
                    if n != node_at[g.edge_to[edge] as usize] {
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
}
