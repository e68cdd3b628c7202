//! Saving and loading: the hierarchy file.
//!
//! # Format (all integers little-endian)
//!
//! ```text
//! magic      8 bytes  "TIERPATH"
//! version    u32      FORMAT_VERSION
//! fingerprint u64     Grid::fingerprint of the map it was built from
//! width, height u32   map size
//! content             settings and sections (see `layout`)
//! checksum   u64      word hash of every byte before it
//! ```
//!
//! Three parts: `codec` reads and writes integers and arrays through a
//! checksummed stream, `layout` says which sections come in which order and
//! how long each may be, and `validate` checks what they say.
//!
//! # A file that loads is as good as a freshly built hierarchy
//!
//! The checksum catches damage, not intent: anyone can recompute it. So
//! loading checks meaning, not only bytes, and the rule is: **a file that
//! loads is as good as a freshly built hierarchy for every operation** (no
//! query, repair or landmark refresh can panic, hang, overflow or return an
//! illegal path on it). A forged file is a [`LoadError`] naming what is
//! inconsistent.
//!
//! Loading reads a file a small piece at a time, checksumming each piece as
//! it arrives and decoding it straight into the hierarchy's arrays; the map's
//! fingerprint is computed beside. Every length is checked against what the
//! map and settings allow before anything is allocated, and a length beyond
//! that (or bytes after the end) stops reading at once
//! ([`LoadError::TooLarge`]), so a huge or sparse file costs nothing. Other
//! errors come in a fixed order whatever the damage: not a hierarchy (magic),
//! another version, a damaged file (checksum, so a damaged byte is never
//! reported as anything else) or one cut short ([`LoadError::CutShort`]:
//! its content runs past its end), another map (fingerprint and size), then
//! invalid content (see `validate`). Nothing is rebuilt for one size: the
//! entrances' borders are scanned again and what they give looked up in the
//! file's tables; the checks run side by side, each in parallel.
//!
//! A hierarchy built for several unit sizes keeps, beside the file's
//! products, the clearance of every cell and the components of every size:
//! those are never read from the file but rebuilt from the map at load
//! (`UnitSizes::build`), and every size annotation is checked against them
//! (`sizes`, `edges`), so the rule holds for every size the file serves.

use std::io::Write;
use std::path::Path;

use thiserror::Error;

mod codec;
mod edges;
#[cfg(test)]
mod forge;
mod layout;
#[cfg(test)]
mod sized_tests;
mod sizes;
#[cfg(test)]
mod tests;
mod validate;

use super::{BuildSettings, Hierarchy, Products, StageStats};
use crate::grid::Grid;
use crate::preprocess::sizes::UnitSizes;
use crate::search::LineBits;
use codec::{CHUNK, FileSource, Reader, SliceSource, Source, Writer};
use layout::Content;

/// What a hierarchy file says on its own ([`Hierarchy::inspect_file`]):
/// unchecked against any map.
#[derive(Debug, Clone, PartialEq)]
pub struct FileSummary {
    /// The format version (always [`FORMAT_VERSION`] here: other versions are
    /// refused).
    pub version: u32,
    /// `Grid::fingerprint` of the map the file was built from.
    pub fingerprint: u64,
    /// Width of that map.
    pub width: u32,
    /// Height of that map.
    pub height: u32,
    /// The settings it was built with.
    pub settings: BuildSettings,
    /// Islands (connected regions of passable cells).
    pub islands: u64,
    /// Cells in dead ends.
    pub dead_end_cells: u64,
    /// Transitions (nodes of the cluster graph).
    pub transitions: u64,
    /// Edges inside clusters.
    pub intra_edges: u64,
    /// Edges between clusters.
    pub inter_edges: u64,
    /// Landmarks stored.
    pub landmarks: u32,
    /// Query graphs of the contraction stored ([`Hierarchy::contract`]; one
    /// per band of unit sizes), 0 when the file holds none.
    pub contraction_graphs: u32,
    /// Cell landmarks stored ([`Hierarchy::add_cell_landmarks`]), 0 when the
    /// file holds none.
    pub cell_landmarks: u32,
    /// The build's stages, timed when it was built.
    pub stages: Vec<StageStats>,
    /// The file's size in bytes.
    pub file_bytes: u64,
}

/// Bytes of the magic and version at the start of a file.
const HEADER: usize = 12;

/// The first eight bytes of a saved hierarchy.
pub const MAGIC: &[u8; 8] = b"TIERPATH";
/// The file format version this build writes and reads.
pub const FORMAT_VERSION: u32 = 6;

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
    /// The file ends before its content does: it was cut short (a copy or
    /// download that stopped early), not damaged.
    #[error(
        "hierarchy file is cut short: it ends after {length} bytes, at least {expected} expected (reading {what})"
    )]
    CutShort {
        /// What was being read when the bytes ran out.
        what: &'static str,
        /// The file's length in bytes.
        length: u64,
        /// The fewest bytes a whole file can have, from what was read.
        expected: u64,
    },
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
    /// Not a regular file (a directory, a device, a pipe).
    #[error("{path}: not a regular file")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// A length beyond what the map and settings allow (or bytes after the
    /// end): reading stopped there, before allocating anything for it.
    #[error(
        "hierarchy file is invalid: {what} claims length {length}, more than the {max} this map allows"
    )]
    TooLarge {
        /// What the length is of.
        what: &'static str,
        /// The length in the file.
        length: u64,
        /// The largest this map and these settings allow.
        max: u64,
    },
    /// Inconsistent content: the message names what.
    #[error("hierarchy file is invalid: {0}")]
    Invalid(String),
}

impl Hierarchy {
    /// Serialises the hierarchy (not the grid: the file records the grid's
    /// fingerprint, and loading needs the same grid).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.save(&mut bytes).expect("a Vec<u8> takes every write");
        bytes
    }

    /// Writes the hierarchy to `out`, a piece at a time (the file is never
    /// held whole in memory). A fog-of-war player's view, whose cluster
    /// graph is read from hierarchies it shares, is written as the
    /// hierarchy of its map (built for the write).
    pub fn save(&self, out: &mut impl Write) -> std::io::Result<()> {
        if self.view().is_some() {
            return self.clone().into_own().save(out);
        }
        let mut w = Writer::new(out);
        w.raw(MAGIC);
        w.u32(FORMAT_VERSION);
        w.u64(self.grid.fingerprint());
        w.u32(self.grid.width());
        w.u32(self.grid.height());
        layout::write_content(self, &mut w);
        w.finish()
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
        let written = std::fs::File::create(&tmp).and_then(|mut f| {
            self.save(&mut f)?;
            f.flush()
        });
        if let Err(e) = written {
            // Best effort: the error that matters is the write's.
            let _ = std::fs::remove_file(&tmp);
            return Err(io(e));
        }
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
        match open_file(path)? {
            // Too short to hold a header: read whole, so the error names what
            // is missing exactly as for bytes in memory.
            Opened::Short(bytes) => Hierarchy::from_bytes(grid, &bytes),
            Opened::File(file, len) => {
                let source = FileSource::new(file, path.display().to_string(), len, chunk);
                Hierarchy::read(grid, source)
            }
        }
    }

    /// What a hierarchy file says on its own, without the map it was built
    /// from: its header, build settings, counts and build stages (what
    /// `tierpath info FILE` shows when no map is given).
    ///
    /// The file's shape and checksum are checked, its meaning is not: that
    /// needs the map ([`Hierarchy::load_file`]). Reading is bounded as for a
    /// load (only regular files; no length beyond what a map of the header's
    /// size allows).
    ///
    /// ```
    /// use tierpath::{Grid, Hierarchy};
    /// let h = Hierarchy::build(Grid::from_fn(40, 30, |p| p.x != 20 || p.y == 3).unwrap())?;
    /// let path = std::env::temp_dir().join("tierpath-doc-inspect.tph");
    /// h.save_file(&path)?;
    /// let summary = Hierarchy::inspect_file(&path)?;
    /// assert_eq!((summary.width, summary.height), (40, 30));
    /// assert_eq!(summary.transitions, h.stats().nodes);
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inspect_file(path: impl AsRef<Path>) -> Result<FileSummary, LoadError> {
        let path = path.as_ref();
        let (file, len) = match open_file(path)? {
            // Shorter than a header: the error says so.
            Opened::Short(bytes) => return check_head(&bytes).and(Err(LoadError::NotAHierarchy)),
            Opened::File(file, len) => (file, len),
        };
        let mut r = Reader::new(FileSource::new(
            file,
            path.display().to_string(),
            len,
            CHUNK,
        ));
        let version = read_version(&mut r)?;
        let parsed = (|| {
            let fingerprint = r.u64("header")?;
            let (width, height) = (r.u32("header")?, r.u32("header")?);
            if width == 0
                || height == 0
                || width > crate::grid::MAX_SIDE
                || height > crate::grid::MAX_SIDE
                || width as u64 * height as u64 > crate::grid::MAX_CELLS
            {
                return Err(codec::invalid(format!(
                    "the header's map size {width}x{height} is outside the limits"
                )));
            }
            let content = layout::parse_content((width, height), &mut r)?;
            Ok((fingerprint, width, height, content))
        })();
        if let Err(e @ LoadError::TooLarge { .. }) = parsed {
            return Err(e);
        }
        if !r.src.checksum_matches()? {
            return Err(match parsed {
                Err(e @ LoadError::CutShort { .. }) => e,
                _ => LoadError::Checksum,
            });
        }
        let (fingerprint, width, height, content) = parsed?;
        let (settings, dead_ends, entrances, graph, landmarks, contraction, guide, stages) =
            content;
        Ok(FileSummary {
            version,
            fingerprint,
            width,
            height,
            settings,
            islands: dead_ends.islands() as u64,
            dead_end_cells: dead_ends.dead_end_cells,
            transitions: entrances.cells.len() as u64,
            intra_edges: graph.intra_edges,
            inter_edges: graph.inter_edges,
            landmarks: landmarks.count,
            contraction_graphs: contraction.map_or(0, |c| c.len() as u32),
            cell_landmarks: guide.map_or(0, |g| g.count),
            stages,
            file_bytes: len,
        })
    }

    /// Reads a hierarchy saved by [`Hierarchy::to_bytes`] for `grid`, which must
    /// be the map it was built from.
    pub fn from_bytes(grid: Grid, bytes: &[u8]) -> Result<Hierarchy, LoadError> {
        check_head(bytes)?;
        Hierarchy::read(grid, SliceSource::new(bytes))
    }

    /// Reads a hierarchy for `grid` from `src`, whose body holds the magic
    /// bytes and version at least.
    fn read<S: Source + Send>(grid: Grid, src: S) -> Result<Hierarchy, LoadError> {
        let mut r = Reader::new(src);
        read_version(&mut r)?;
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
                let content = same_size(width, height)
                    .then(|| parse_and_check_cells(&grid, (width, height), &mut r));
                Ok(((fingerprint, width, height), content))
            })();
            if let Ok((_, Some(Err(e @ LoadError::TooLarge { .. })))) = parsed {
                // Reading stops at a length the map cannot need.
                return Err(e);
            }
            if !r.src.checksum_matches()? {
                // A file whose content runs past its end was cut short (a
                // damaged byte elsewhere leaves the content whole).
                return Err(match parsed {
                    Err(e @ LoadError::CutShort { .. })
                    | Ok((_, Some(Err(e @ LoadError::CutShort { .. })))) => e,
                    _ => LoadError::Checksum,
                });
            }
            let (header, content) = parsed?;
            let content = content.map(|c| c.and_then(|(c, early)| check(&grid, c, early)));
            Ok((header, content))
        };
        let (read, (map_fingerprint, line_bits)) =
            rayon::join(read, || (grid.fingerprint(), LineBits::of(&grid)));
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
        let ((settings, dead_ends, entrances, graph, landmarks, contraction, guide, stages), sizes) =
            content.expect("read for a map of the same size")?;
        let products = Products {
            dead_ends,
            entrances,
            graph,
            landmarks,
            sizes,
            line_bits: Some(line_bits),
        };
        let mut h = Hierarchy::assemble(grid, settings, products, stages);
        h.stats.stages.shrink_to_fit();
        if let Some(graphs) = contraction {
            h.install_saved_contraction(graphs)
                .map_err(LoadError::Invalid)?;
        }
        if let Some(guide) = guide {
            h.install_saved_guide(guide).map_err(LoadError::Invalid)?;
        }
        Ok(h)
    }
}

/// Parses the content for `grid` (of the file's `size`): the settings and
/// the cell table, then the rest while the other core checks the cell table
/// and rebuilds from the map the clearance and components of every size the
/// settings serve (what a build for several sizes keeps beside the file's
/// products). The check's verdict waits beside the content for the
/// checksum: a damaged file is reported as damaged.
fn parse_and_check_cells<S: Source + Send>(
    grid: &Grid,
    size: (u32, u32),
    r: &mut Reader<S>,
) -> Result<(Content, Early), LoadError> {
    let (settings, dead_ends) = layout::parse_cells(size, r)?;
    let (rest, early) = rayon::join(
        || layout::parse_rest(size, &settings, r),
        || {
            validate::check_cells(grid, &settings, &dead_ends)?;
            let s = &settings;
            Ok((s.max_unit_size > 1)
                .then(|| UnitSizes::build(grid, &s.movement, s.max_unit_size as u8)))
        },
    );
    let content = layout::content_of((settings, dead_ends), rest?);
    Ok((content, early))
}

/// The cell table's verdict and, when built for several sizes, the sizes
/// rebuilt from the map.
type Early = Result<Option<UnitSizes>, LoadError>;

/// Checks parsed content against `grid` once its cell table has passed
/// (`early`, see [`parse_and_check_cells`]).
fn check(
    grid: &Grid,
    content: Content,
    early: Early,
) -> Result<(Content, Option<UnitSizes>), LoadError> {
    let sizes = early?;
    validate::check_content(grid, &content, sizes.as_ref())?;
    Ok((content, sizes))
}

/// A hierarchy file opened for reading: whole bytes when it is shorter than
/// a header, else the file and its length.
enum Opened {
    Short(Vec<u8>),
    File(std::fs::File, u64),
}

/// Opens a hierarchy file, only when it is a regular file (a FIFO would block
/// the open, a device never end).
fn open_file(path: &Path) -> Result<Opened, LoadError> {
    let io = |source| LoadError::Io {
        path: path.display().to_string(),
        source,
    };
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(LoadError::NotAFile {
            path: path.display().to_string(),
        });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len < (HEADER + 8) as u64 {
        return Ok(Opened::Short(std::fs::read(path).map_err(io)?));
    }
    Ok(Opened::File(file, len))
}

/// Bytes that start with the magic and hold a header and checksum at least.
fn check_head(bytes: &[u8]) -> Result<(), LoadError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(LoadError::NotAHierarchy);
    }
    if bytes.len() < HEADER + 8 {
        return Err(LoadError::CutShort {
            what: "header",
            length: bytes.len() as u64,
            expected: (HEADER + 8) as u64,
        });
    }
    Ok(())
}

/// Reads the magic bytes and the version, which must be [`FORMAT_VERSION`].
fn read_version<S: Source>(r: &mut Reader<S>) -> Result<u32, LoadError> {
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
    Ok(version)
}
