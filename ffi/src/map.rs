//! Maps: loading a grid from a Moving AI file, text in memory, or raw
//! passability bytes and weights.

use std::ffi::c_char;

use tierpath::{Grid, Point, Weight, io};

use crate::handle::{
    Handle, Kind, Res, TierpathStatus, fail, get, guard, publish, put, release, required_out,
    slice, text,
};

/// A cell of the map: column `x` from the left, row `y` from the top.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TierpathPoint {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

impl From<TierpathPoint> for Point {
    fn from(p: TierpathPoint) -> Point {
        Point::new(p.x, p.y)
    }
}

impl From<Point> for TierpathPoint {
    fn from(p: Point) -> TierpathPoint {
        TierpathPoint { x: p.x, y: p.y }
    }
}

/// A grid map (opaque). Made by `tierpath_map_load`, `tierpath_map_parse` or
/// `tierpath_map_from_cells`; released by `tierpath_map_free`. Read-only once
/// made: may be shared by threads.
pub struct TierpathMap {
    pub(crate) grid: Grid,
}

impl Handle for TierpathMap {
    const KIND: Kind = Kind::Map;
    const NAME: &'static str = "map";
}

/// Loads a map file: Moving AI `.map` text, or tierpath's terrain text
/// format. `path` is a NUL-terminated UTF-8 file name. Errors: `TIERPATH_STATUS_IO`
/// (cannot read), `TIERPATH_STATUS_BAD_MAP` (malformed).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_load(
    path: *const c_char,
    out: *mut *mut TierpathMap,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let path = text(path, "map path")?;
        let grid = io::read_grid(path)?;
        publish(TierpathMap { grid }, out)
    })
}

/// Parses a Moving AI map held in memory (`len` bytes of its text).
/// Errors: `TIERPATH_STATUS_BAD_MAP`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_parse(
    bytes: *const u8,
    len: usize,
    out: *mut *mut TierpathMap,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let bytes = slice(bytes, len, "map text")?;
        let grid = io::parse_map(bytes, "<memory>")?;
        publish(TierpathMap { grid }, out)
    })
}

/// Makes a map from memory: `passable` holds `width * height` bytes, row by
/// row from the top (non-zero: passable); `weights` is null (plain ground)
/// or holds `width * height` terrain weights in percent (100 = plain
/// ground, 1 to 65535; ignored on blocked cells). Errors:
/// `TIERPATH_STATUS_INVALID_ARGUMENT` (empty or too large a map, a zero weight).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_from_cells(
    width: u32,
    height: u32,
    passable: *const u8,
    weights: *const u16,
    out: *mut *mut TierpathMap,
) -> TierpathStatus {
    guard(|| unsafe {
        required_out(out)?;
        let cells = (width as u64 * height as u64) as usize;
        // Size checks first, so a huge width * height is refused before the
        // arrays are read.
        Grid::new(width, height)?;
        let passable = slice(passable, cells, "passable")?;
        let weights = if weights.is_null() {
            None
        } else {
            Some(slice(weights, cells, "weights")?)
        };
        let at = |p: Point| p.y as usize * width as usize + p.x as usize;
        let mut grid = Grid::from_fn(width, height, |p| passable[at(p)] != 0)?;
        if let Some(weights) = weights {
            for y in 0..height {
                for x in 0..width {
                    let p = Point::new(x, y);
                    let w = weights[at(p)];
                    if passable[at(p)] == 0 || w == Weight::ONE.0 {
                        continue;
                    }
                    if w == 0 {
                        return fail(
                            TierpathStatus::InvalidArgument,
                            format!("weight 0 at ({x}, {y}): weights are 1 to 65535"),
                        );
                    }
                    grid.set_weight(p, Weight(w))?;
                }
            }
        }
        publish(TierpathMap { grid }, out)
    })
}

/// Writes the map's width and height.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_size(
    map: *const TierpathMap,
    width: *mut u32,
    height: *mut u32,
) -> TierpathStatus {
    guard(|| unsafe {
        let map = get(map)?;
        put(width, map.grid.width(), "width")?;
        put(height, map.grid.height(), "height")
    })
}

/// Writes 1 to `passable` when the cell is passable, 0 when blocked.
/// Errors: `TIERPATH_STATUS_OFF_MAP`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_passable(
    map: *const TierpathMap,
    cell: TierpathPoint,
    passable: *mut u8,
) -> TierpathStatus {
    guard(|| unsafe {
        let map = get(map)?;
        passable_in(&map.grid, cell, passable)
    })
}

pub(crate) unsafe fn passable_in(grid: &Grid, cell: TierpathPoint, out: *mut u8) -> Res {
    let p = Point::from(cell);
    grid.check(p)?;
    // SAFETY: forwarded caller contract.
    unsafe { put(out, u8::from(grid.is_passable(p)), "passable") }
}

/// Releases a map (null: nothing). Hierarchies built from it keep their own
/// copy.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn tierpath_map_free(map: *mut TierpathMap) -> TierpathStatus {
    unsafe { release(map) }
}
