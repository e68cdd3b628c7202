//! Map edits at run time: the hierarchy is repaired locally, and the repair
//! report says which paths to plan again.

use tierpath::{DeadEndRepair, Edit, Point, RepairReport, Weight};

use crate::handle::{
    Handle, Kind, TierpathStatus, clear_out, fail, get, guard, publish, put, release, slice,
};
use crate::hierarchy::TierpathHierarchy;
use crate::map::TierpathPoint;
use crate::query::TierpathPath;

/// What an edit changes.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathEditKind {
    /// Opens (`value` non-zero) or closes (`value` 0) the cell.
    Passable = 0,
    /// Sets the cell's terrain weight to `value` percent (1 to 65535; 100 is
    /// plain ground).
    Weight = 1,
}

/// One change to the map.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierpathEdit {
    /// The cell.
    pub cell: TierpathPoint,
    /// What changes.
    pub kind: TierpathEditKind,
    /// The new value (see the kind).
    pub value: u32,
}

/// How islands and dead ends were brought up to date.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TierpathDeadEndRepair {
    /// No cell opened or closed.
    Unchanged = 0,
    /// Only the changed cells' tags changed.
    Local = 1,
    /// Recomputed over the map.
    Recomputed = 2,
}

/// What a repair changed.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierpathRepairInfo {
    /// Cells whose passability or weight actually changed.
    pub changed_cells: u64,
    /// Clusters repaired.
    pub clusters: u64,
    /// How islands and dead ends were repaired.
    pub dead_ends: TierpathDeadEndRepair,
    /// 1 when a landmark's transition disappeared and the landmark was
    /// replaced. Repairs keep landmark distances a valid, sharp bound;
    /// `tierpath_hierarchy_refresh_landmarks` makes them exact again.
    pub landmarks_dropped: u8,
}

/// The report of one repair (opaque): ask it which paths to plan again.
/// Released by `tierpath_repair_free`.
pub struct TierpathRepair {
    report: RepairReport,
}

impl Handle for TierpathRepair {
    const KIND: Kind = Kind::Repair;
    const NAME: &'static str = "repair report";
}

/// Applies `count` edits as one batch (later ones win on a cell) and repairs
/// the hierarchy, taking it exclusively (queries on other threads wait).
/// When `report` is not null it receives the repair report. All edits are
/// checked first: on an error nothing changes. Sliced queries in progress on
/// this hierarchy must be started again; queues carry on by themselves.
/// Errors: `TIERPATH_STATUS_OFF_MAP`, `TIERPATH_STATUS_INVALID_ARGUMENT` (a weight of 0 or
/// above 65535, an unknown kind).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_edit(
    hierarchy: *const TierpathHierarchy,
    edits: *const TierpathEdit,
    count: usize,
    report: *mut *mut TierpathRepair,
) -> TierpathStatus {
    guard(|| unsafe {
        clear_out(report);
        let h = get(hierarchy)?;
        // Read the kind as a raw integer: C may pass any value.
        let raw = slice(edits.cast::<[u32; 4]>(), count, "edits")?;
        let mut batch = Vec::with_capacity(raw.len());
        for (i, &[x, y, kind, value]) in raw.iter().enumerate() {
            let p = Point::new(x, y);
            batch.push(match kind {
                0 => Edit::Passable(p, value != 0),
                1 => match u16::try_from(value) {
                    Ok(w) => Edit::Weight(p, Weight(w)),
                    Err(_) => {
                        return fail(
                            TierpathStatus::InvalidArgument,
                            format!("edit {i}: weight {value} is above 65535"),
                        );
                    }
                },
                _ => {
                    return fail(
                        TierpathStatus::InvalidArgument,
                        format!("edit {i}: unknown kind {kind}"),
                    );
                }
            });
        }
        let done = h.write().dynamic().apply(&batch)?;
        if report.is_null() {
            return Ok(());
        }
        publish(TierpathRepair { report: done }, report)
    })
}

/// Moves the landmarks to where a build would pick them and makes their
/// distances exact (a search per landmark that moves; nothing when no repair
/// happened since the last call). Repairs keep the distances a valid, sharp
/// bound without it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_hierarchy_refresh_landmarks(
    hierarchy: *const TierpathHierarchy,
) -> TierpathStatus {
    guard(|| unsafe {
        get(hierarchy)?.write().dynamic().refresh_landmarks();
        Ok(())
    })
}

/// Writes what a repair changed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_repair_info(
    repair: *const TierpathRepair,
    info: *mut TierpathRepairInfo,
) -> TierpathStatus {
    guard(|| unsafe {
        let r = &get(repair)?.report;
        let value = TierpathRepairInfo {
            changed_cells: r.changed_cells.len() as u64,
            clusters: r.clusters.len() as u64,
            dead_ends: match r.dead_ends {
                DeadEndRepair::Unchanged => TierpathDeadEndRepair::Unchanged,
                DeadEndRepair::Local => TierpathDeadEndRepair::Local,
                DeadEndRepair::Recomputed => TierpathDeadEndRepair::Recomputed,
            },
            landmarks_dropped: u8::from(r.landmarks_dropped),
        };
        put(info, value, "info")
    })
}

/// Writes 1 to `touched` when a path given as `count` cells crosses a
/// cluster the repair changed (plan it again), else 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_repair_touches(
    repair: *const TierpathRepair,
    cells: *const TierpathPoint,
    count: usize,
    touched: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let r = &get(repair)?.report;
        let cells: Vec<Point> = slice(cells, count, "cells")?
            .iter()
            .map(|p| Point::from(*p))
            .collect();
        put(touched, u8::from(r.touches(&cells)), "touched")
    })
}

/// Writes 1 to `touched` when the path handle's path crosses a cluster the
/// repair changed (plan it again), else 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_repair_touches_path(
    repair: *const TierpathRepair,
    path: *const TierpathPath,
    touched: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let r = &get(repair)?.report;
        let cells: Vec<Point> = get(path)?.cells.iter().map(|p| Point::from(*p)).collect();
        put(touched, u8::from(r.touches(&cells)), "touched")
    })
}

/// Releases a repair report (null: nothing).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_repair_free(repair: *mut TierpathRepair) -> TierpathStatus {
    unsafe { release(repair) }
}

// `tierpath_hierarchy_edit` reads edits as four 32-bit words.
const _: () = assert!(size_of::<TierpathEdit>() == 16 && align_of::<TierpathEdit>() == 4);
