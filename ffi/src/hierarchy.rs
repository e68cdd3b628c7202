//! Hierarchies: build, load, save, statistics.

use std::ffi::c_char;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use tierpath::{
    BuildSettings, ContractionKind, DynamicHierarchy, EntrancePolicy, Hierarchy, HierarchyBuilder,
    LoadError, Point, Polish,
};

use crate::handle::{
    Handle, Kind, Res, TierpathStatus, copy_out, fail, get, guard, publish, put, release,
    required_out, slice, text,
};
use crate::map::{TierpathMap, TierpathPoint, passable_in};

/// Settings a hierarchy is built with; start from
/// `tierpath_build_settings_default`.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierpathBuildSettings {
    /// Side of a cluster in cells (2 to 1024), or 0 (the default) for the
    /// builder's choice by map: 16, or 32 on a map of scattered obstacles.
    pub cluster_size: u32,
    /// Landmarks for the planner's heuristic (0 to 16; default 4).
    pub landmarks: u32,
    /// Non-zero: keep the cell paths behind winding abstract edges (faster
    /// queries, more memory; default 1).
    pub keep_paths: u8,
    /// The largest unit size the hierarchy serves: queries for `k x k`
    /// units, `k` from 1 to this (1 to 255; 0 is taken as 1; default 1).
    pub max_unit_size: u32,
    /// Whether queries polish their paths (each window of the smoothed path
    /// searched again exactly, replaced where that is cheaper): 0 (the
    /// default) where the map's obstacles are scattered, as the builder
    /// decides; 1 always (the closest paths, the most time); 2 never
    /// (smoothing alone, the fastest). Saved with the hierarchy.
    pub polish: u8,
    /// Non-zero: contract the cluster graph as a stage of the build
    /// (`HierarchyBuilder::contract` in Rust): queries then search the
    /// contraction, as after `tierpath_hierarchy_contract`, and the build
    /// takes about 0.9x the time of building and then contracting (the
    /// contraction runs beside the islands and dead ends, and the landmarks
    /// a contraction lets go of are not computed). Default 0.
    pub contract: u8,
    /// Where transitions go along the entrances between clusters: 0 (the
    /// default) as the builder decides by the map, at both ends and at most
    /// 8 cells apart, or at the ends only on maps of 768x768 cells or more
    /// where a fifth of the clusters hold no wall (a smaller graph: faster
    /// queries and builds, paths a little longer); 1 at both ends and at
    /// most 8 cells apart on every map (the closest paths); 2 at the ends
    /// only on every map. Saved with the hierarchy.
    pub entrances: u8,
}

/// The value a setting's `code` stands for among `meanings` (codes 0, 1,
/// 2, ... in order, each with its name); an invalid argument naming every
/// code when it is none of them.
fn decode<T: Copy>(setting: &str, code: u8, meanings: &[(T, &str)]) -> Res<T> {
    match meanings.get(usize::from(code)) {
        Some((value, _)) => Ok(*value),
        None => {
            let known: Vec<String> = meanings
                .iter()
                .enumerate()
                .map(|(i, (_, name))| format!("{i} ({name})"))
                .collect();
            fail(
                TierpathStatus::InvalidArgument,
                format!("{setting} {code} is none of {}", known.join(", ")),
            )
        }
    }
}

/// A preprocessed map (opaque): the map, its islands, dead ends, cluster
/// graph and landmarks. Shared by threads: queries take a shared lock, edits
/// (`tierpath_hierarchy_edit`) an exclusive one. Released by
/// `tierpath_hierarchy_free`.
pub struct TierpathHierarchy {
    held: RwLock<Held>,
}

/// The hierarchy, made dynamic (repairable) on its first edit. One per
/// handle, so the variants' sizes do not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Held {
    Fixed(Hierarchy),
    Dynamic(DynamicHierarchy),
    /// Only while switching from one to the other.
    Switching,
}

impl Held {
    pub(crate) fn get(&self) -> &Hierarchy {
        match self {
            Held::Fixed(h) => h,
            Held::Dynamic(d) => d.hierarchy(),
            Held::Switching => unreachable!("a hierarchy is never left switching"),
        }
    }

    pub(crate) fn dynamic(&mut self) -> &mut DynamicHierarchy {
        if let Held::Fixed(_) = self
            && let Held::Fixed(h) = std::mem::replace(self, Held::Switching)
        {
            *self = Held::Dynamic(DynamicHierarchy::new(h));
        }
        match self {
            Held::Dynamic(d) => d,
            _ => unreachable!("switched above"),
        }
    }
}

impl Handle for TierpathHierarchy {
    const KIND: Kind = Kind::Hierarchy;
    const NAME: &'static str = "hierarchy";
}

impl TierpathHierarchy {
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, Held> {
        self.held.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, Held> {
        self.held.write().unwrap_or_else(|e| e.into_inner())
    }
}

unsafe fn publish_hierarchy(h: Hierarchy, out: *mut *mut TierpathHierarchy) -> Res {
    // SAFETY: forwarded caller contract.
    unsafe {
        publish(
            TierpathHierarchy {
                held: RwLock::new(Held::Fixed(h)),
            },
            out,
        )
    }
}

/// Writes the default build settings.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_build_settings_default(
    settings: *mut TierpathBuildSettings,
) -> TierpathStatus {
    let d = BuildSettings::default();
    guard(|| unsafe {
        put(
            settings,
            TierpathBuildSettings {
                cluster_size: 0,
                landmarks: d.landmarks,
                keep_paths: u8::from(d.keep_paths),
                max_unit_size: d.max_unit_size,
                polish: 0,
                contract: 0,
                entrances: 0,
            },
            "settings",
        )
    })
}

/// Preprocesses a map into a hierarchy (the map is copied; free it when you
/// like), contracted when `settings->contract` says so. `settings` may be
/// null for the defaults. Errors: `TIERPATH_STATUS_INVALID_ARGUMENT`
/// (settings out of range, `polish` or `entrances` above 2 among them;
/// costs too large to contract).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_build(
    map: *const TierpathMap,
    settings: *const TierpathBuildSettings,
    out: *mut *mut TierpathHierarchy,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let map = get(map)?;
        let mut builder = HierarchyBuilder::new();
        if let Some(s) = settings.as_ref() {
            if s.cluster_size != 0 {
                builder = builder.cluster_size(s.cluster_size);
            }
            let polish = decode(
                "polish",
                s.polish,
                &[
                    (Polish::Auto, "auto"),
                    (Polish::Always, "always"),
                    (Polish::Never, "never"),
                ],
            )?;
            let entrances = decode(
                "entrances",
                s.entrances,
                &[
                    (None, "by the map"),
                    (Some(EntrancePolicy::default()), "spaced"),
                    (Some(EntrancePolicy::ENDS), "ends only"),
                ],
            )?;
            if let Some(policy) = entrances {
                builder = builder.entrance_policy(policy);
            }
            builder = builder
                .landmarks(s.landmarks)
                .keep_paths(s.keep_paths != 0)
                .max_unit_size(s.max_unit_size.max(1))
                .polish(polish)
                .contract(s.contract != 0);
        }
        publish_hierarchy(builder.build(map.grid.clone())?, out)
    })
}

/// Loads a hierarchy saved by `tierpath_hierarchy_save` for this map.
/// Errors: `TIERPATH_STATUS_IO`, `TIERPATH_STATUS_BAD_HIERARCHY` (damaged, truncated,
/// another version), `TIERPATH_STATUS_WRONG_HIERARCHY` (built for another map).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_load(
    map: *const TierpathMap,
    path: *const c_char,
    out: *mut *mut TierpathHierarchy,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let map = get(map)?;
        let path = text(path, "hierarchy path")?;
        publish_hierarchy(Hierarchy::load_file(map.grid.clone(), path)?, out)
    })
}

/// Loads a hierarchy from `len` bytes written by
/// `tierpath_hierarchy_to_bytes`. Errors as `tierpath_hierarchy_load`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_from_bytes(
    map: *const TierpathMap,
    bytes: *const u8,
    len: usize,
    out: *mut *mut TierpathHierarchy,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let map = get(map)?;
        let bytes = slice(bytes, len, "hierarchy bytes")?;
        publish_hierarchy(Hierarchy::from_bytes(map.grid.clone(), bytes)?, out)
    })
}

/// Saves the hierarchy (as it stands, edits included) to a file.
/// Errors: `TIERPATH_STATUS_IO`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_save(
    hierarchy: *const TierpathHierarchy,
    path: *const c_char,
) -> TierpathStatus {
    guard(|| unsafe {
        let h = get(hierarchy)?;
        let path = text(path, "hierarchy path")?;
        h.read()
            .get()
            .save_file(path)
            .map_err(|e: LoadError| e.into())
    })
}

/// Serialises the hierarchy into `buffer` (`capacity` bytes). The size
/// needed is written to `needed` (may be null); with a buffer too small
/// (null with capacity 0 to ask for the size) nothing is copied and the call
/// returns `TIERPATH_STATUS_BUFFER_TOO_SMALL`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_to_bytes(
    hierarchy: *const TierpathHierarchy,
    buffer: *mut u8,
    capacity: usize,
    needed: *mut usize,
) -> TierpathStatus {
    guard(|| unsafe {
        let h = get(hierarchy)?;
        let bytes = h.read().get().to_bytes();
        copy_out(&bytes, buffer, capacity, needed, "hierarchy bytes")
    })
}

/// What a hierarchy holds and what building it cost.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TierpathStats {
    /// Map width.
    pub width: u32,
    /// Map height.
    pub height: u32,
    /// Side of a cluster in cells.
    pub cluster_size: u32,
    /// Landmarks.
    pub landmarks: u32,
    /// Passable cells.
    pub passable_cells: u64,
    /// Islands (connected components).
    pub islands: u64,
    /// Cells in dead-end regions.
    pub dead_end_cells: u64,
    /// Clusters.
    pub clusters: u64,
    /// Abstract nodes (transition cells).
    pub nodes: u64,
    /// Abstract edges inside clusters.
    pub intra_edges: u64,
    /// Abstract edges between clusters.
    pub inter_edges: u64,
    /// Bytes held in memory, excluding the grid.
    pub memory_bytes: u64,
    /// Repairs applied since it was built or loaded.
    pub revision: u64,
    /// Seconds the build took (0 for a loaded hierarchy).
    pub build_seconds: f64,
    /// Seconds of `build_seconds` the contraction took, running beside the
    /// other stages (`TierpathBuildSettings::contract`; 0 when the build
    /// did not contract).
    pub contraction_seconds: f64,
    /// Whether queries polish their paths, as the build decided: 1 they do,
    /// 2 they do not (see `TierpathBuildSettings::polish`).
    pub polish: u8,
    /// Where transitions are along entrances, as the build decided: 1 at
    /// both ends and at most 8 cells apart (or another spacing a Rust build
    /// chose), 2 at the ends only (see `TierpathBuildSettings::entrances`).
    pub entrances: u8,
}

/// Writes the hierarchy's statistics.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_stats(
    hierarchy: *const TierpathHierarchy,
    stats: *mut TierpathStats,
) -> TierpathStatus {
    guard(|| unsafe {
        let held = get(hierarchy)?.read();
        let h = held.get();
        let s = h.stats();
        let value = TierpathStats {
            width: s.width,
            height: s.height,
            cluster_size: h.settings().cluster_size,
            landmarks: h.settings().landmarks,
            passable_cells: s.passable_cells,
            islands: s.islands,
            dead_end_cells: s.dead_end_cells,
            clusters: s.clusters,
            nodes: s.nodes,
            intra_edges: s.intra_edges,
            inter_edges: s.inter_edges,
            memory_bytes: s.memory_bytes,
            revision: h.revision(),
            build_seconds: s.total_seconds(),
            contraction_seconds: s.contraction_seconds().unwrap_or(0.0),
            polish: if h.settings().polish == Polish::Never {
                2
            } else {
                1
            },
            entrances: if h.settings().entrances == EntrancePolicy::ENDS {
                2
            } else {
                1
            },
        };
        put(stats, value, "stats")
    })
}

/// Writes 1 to `passable` when the cell is passable now (edits included), 0
/// when blocked. Errors: `TIERPATH_STATUS_OFF_MAP`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_passable(
    hierarchy: *const TierpathHierarchy,
    cell: TierpathPoint,
    passable: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let held = get(hierarchy)?.read();
        passable_in(held.get().grid(), cell, passable)
    })
}

/// Writes 1 to `same` when `a` and `b` are passable and on one island (a
/// path exists), else 0. Constant time; off-map points give 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_same_island(
    hierarchy: *const TierpathHierarchy,
    a: TierpathPoint,
    b: TierpathPoint,
    same: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let held = get(hierarchy)?.read();
        let same_island = held.get().same_island(Point::from(a), Point::from(b));
        put(same, u8::from(same_island), "same")
    })
}

/// Contracts the hierarchy's cluster graph (`Hierarchy::contract` in Rust):
/// every query then searches the contraction instead of running A* over the
/// graph (long queries several times faster), until an edit that changes
/// the cluster graph's arcs or costs ends it (call this again; an edit that
/// leaves them as they were keeps it). On a hierarchy edited before (its
/// first edit made it dynamic), the contraction made is kept for edits to
/// patch instead of end: exact, about half as fast as a fresh one, which
/// this call then makes again. A hierarchy to be contracted from the
/// start is built so more cheaply (`TierpathBuildSettings::contract`). The
/// work (about 90 ms on a 1024x1024 StarCraft map on two cores) runs on the
/// calling thread without holding the hierarchy,
/// so other threads' queries and edits go on meanwhile; an edit meanwhile
/// that changes the cluster graph makes it stale, and it is done again,
/// three times at most
/// (`TIERPATH_STATUS_NOT_READY` then). On a contracted hierarchy (not
/// patched by edits) it does nothing. A hierarchy saved afterwards holds the
/// contraction, and loading it gives it back without this call. Errors:
/// `TIERPATH_STATUS_INVALID_ARGUMENT` (costs too large to contract).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_contract(
    hierarchy: *const TierpathHierarchy,
) -> TierpathStatus {
    guard(|| unsafe {
        let h = get(hierarchy)?;
        for _ in 0..3 {
            let job = {
                let held = h.read();
                if fresh_contraction(held.get()) {
                    return Ok(());
                }
                match &*held {
                    // Kept for the next edits to patch.
                    Held::Dynamic(d) => d.contraction_job(ContractionKind::default()),
                    other => other.get().contraction_job(ContractionKind::default()),
                }
            };
            let done = job.run()?;
            let mut held = h.write();
            // Another thread's call may have installed one meanwhile: a
            // second would end the plans and sliced queries begun on it.
            if fresh_contraction(held.get()) {
                return Ok(());
            }
            let installed = match &mut *held {
                Held::Fixed(x) => x.install_contraction(done),
                Held::Dynamic(d) => d.install_contraction(done),
                Held::Switching => unreachable!("a hierarchy is never left switching"),
            };
            if installed {
                return Ok(());
            }
        }
        fail(
            TierpathStatus::NotReady,
            "the hierarchy was edited during each of three contractions: call again",
        )
    })
}

/// Whether `h` searches a contraction that edits have not patched.
fn fresh_contraction(h: &Hierarchy) -> bool {
    h.is_contracted() && !h.is_contraction_patched()
}

/// Writes 1 to `contracted` when the hierarchy's queries search a
/// contraction (`tierpath_hierarchy_contract`, or a file saved contracted),
/// 0 when they run A* over the cluster graph (never contracted, or an edit
/// since changed the cluster graph's arcs or costs).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_is_contracted(
    hierarchy: *const TierpathHierarchy,
    contracted: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let held = get(hierarchy)?.read();
        put(
            contracted,
            u8::from(held.get().is_contracted()),
            "contracted",
        )
    })
}

/// Adds every cell's distance from `count` landmarks, 1 to 4
/// (`Hierarchy::add_cell_landmarks` in Rust), and writes 1 to `added` when
/// they were added, 0 when the map cannot take them (terrain weights, a
/// movement rule jump point search refuses, distances beyond 32 bits). With
/// them, queries for units of one cell are answered by exact jump point
/// search at any distance (within its budget; the hierarchy answers
/// otherwise): on maps like Dragon Age's, long queries about twice as fast.
/// Four bytes per cell per landmark; one search over the map per landmark,
/// plus one, on the calling thread, holding the hierarchy. Saved with the
/// hierarchy (a file loads with them). Edits keep them (an opened cell
/// lowers the distances its opening shortens, as far as they shrink); an
/// edit that gives a cell a terrain weight drops them. Plans and
/// time-sliced queries begun before this call plan again. Errors: `TIERPATH_STATUS_INVALID_ARGUMENT` (`count` outside
/// 1 to 4).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_add_cell_landmarks(
    hierarchy: *const TierpathHierarchy,
    count: u32,
    added: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        if !(1..=4).contains(&count) {
            return fail(
                TierpathStatus::InvalidArgument,
                format!("{count} cell landmarks: give 1 to 4"),
            );
        }
        if added.is_null() {
            return fail(TierpathStatus::NullArgument, "the added pointer is null");
        }
        let h = get(hierarchy)?;
        let mut held = h.write();
        let done = match &mut *held {
            Held::Fixed(x) => x.add_cell_landmarks(count as usize),
            Held::Dynamic(d) => d.add_cell_landmarks(count as usize),
            Held::Switching => unreachable!("a hierarchy is never left switching"),
        };
        put(added, u8::from(done), "added")
    })
}

/// Writes 1 to `has` when cell landmarks guide the hierarchy's queries
/// (`tierpath_hierarchy_add_cell_landmarks`, or a file saved with them), 0
/// otherwise (never added, or an edit since gave a cell a terrain weight).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_has_cell_landmarks(
    hierarchy: *const TierpathHierarchy,
    has: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let held = get(hierarchy)?.read();
        put(has, u8::from(held.get().has_cell_landmarks()), "has")
    })
}

/// Releases a hierarchy (null: nothing). Caches, sliced queries and queues
/// used with it stay valid (free them separately).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_free(
    hierarchy: *mut TierpathHierarchy,
) -> TierpathStatus {
    unsafe { release(hierarchy) }
}
