//! Every function of the C ABI driven with bad input: null pointers, freed,
//! foreign and wrongly typed handles, off-map points, blocked endpoints,
//! too-small buffers. Each must return its status code (never crash, never
//! panic across the boundary). The last test checks that every function the
//! header declares is called here.

use std::ffi::{CStr, c_char};
use std::ptr::{null, null_mut};

use tierpath_ffi::*;

use TierpathStatus::*;

const W: u32 = 40;
const H: u32 = 30;

fn pt(x: u32, y: u32) -> TierpathPoint {
    TierpathPoint { x, y }
}

/// A 40x30 map with a wall at x = 20 (open at the bottom row) and a sealed
/// pocket at (35, 2).
fn cells() -> Vec<u8> {
    let mut c = vec![1u8; (W * H) as usize];
    for y in 0..H - 1 {
        c[(y * W + 20) as usize] = 0;
    }
    for (x, y) in [
        (34, 2),
        (36, 2),
        (35, 1),
        (35, 3),
        (34, 1),
        (36, 1),
        (34, 3),
        (36, 3),
    ] {
        c[(y * W + x) as usize] = 0;
    }
    c
}

struct World {
    map: *mut TierpathMap,
    h: *mut TierpathHierarchy,
    cache: *mut TierpathCache,
}

fn world() -> World {
    unsafe {
        let mut map = null_mut();
        let passable = cells();
        assert_eq!(
            tierpath_map_from_cells(W, H, passable.as_ptr(), null(), &mut map),
            Ok
        );
        let mut h = null_mut();
        assert_eq!(tierpath_hierarchy_build(map, null(), &mut h), Ok);
        let mut cache = null_mut();
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        World { map, h, cache }
    }
}

fn last_error() -> String {
    unsafe { CStr::from_ptr(tierpath_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// Asserts a status, and that a failure left a message.
#[track_caller]
fn expect(got: TierpathStatus, want: TierpathStatus) {
    assert_eq!(got, want, "last error: {}", last_error());
    if want != Ok {
        assert!(!last_error().is_empty(), "a failure leaves a message");
    }
}

/// A pointer to memory that is no handle of any kind.
fn foreign<T>() -> *mut T {
    static mut JUNK: [u64; 8] = [0xdead_beef; 8];
    (&raw mut JUNK).cast()
}

/// Handles that are not live handles of type T: null, a foreign pointer,
/// and `freed` (made and released).
fn bad<T>(freed: *mut T) -> [(*mut T, TierpathStatus); 3] {
    [
        (null_mut(), NullArgument),
        (foreign(), InvalidHandle),
        (freed, InvalidHandle),
    ]
}

fn freed_map() -> *mut TierpathMap {
    unsafe {
        let mut m = null_mut();
        expect(
            tierpath_map_from_cells(2, 2, [1u8; 4].as_ptr(), null(), &mut m),
            Ok,
        );
        expect(tierpath_map_free(m), Ok);
        m
    }
}

fn freed_hierarchy(w: &World) -> *mut TierpathHierarchy {
    unsafe {
        let mut h = null_mut();
        expect(tierpath_hierarchy_build(w.map, null(), &mut h), Ok);
        expect(tierpath_hierarchy_free(h), Ok);
        h
    }
}

fn freed_cache() -> *mut TierpathCache {
    unsafe {
        let mut c = null_mut();
        expect(tierpath_cache_new(&mut c), Ok);
        expect(tierpath_cache_free(c), Ok);
        c
    }
}

fn a_path(w: &World) -> *mut TierpathPath {
    unsafe {
        let mut p = null_mut();
        expect(
            tierpath_find_path_handle(w.h, w.cache, pt(1, 1), pt(30, 5), null(), &mut p),
            Ok,
        );
        p
    }
}

#[test]
fn free_functions_accept_null_and_refuse_double_frees() {
    let w = world();
    unsafe {
        expect(tierpath_map_free(null_mut()), Ok);
        expect(tierpath_hierarchy_free(null_mut()), Ok);
        expect(tierpath_cache_free(null_mut()), Ok);
        expect(tierpath_path_free(null_mut()), Ok);
        expect(tierpath_sliced_free(null_mut()), Ok);
        expect(tierpath_queue_free(null_mut()), Ok);
        expect(tierpath_repair_free(null_mut()), Ok);
        expect(tierpath_map_free(freed_map()), InvalidHandle);
        expect(tierpath_hierarchy_free(freed_hierarchy(&w)), InvalidHandle);
        expect(tierpath_cache_free(freed_cache()), InvalidHandle);
        let p = a_path(&w);
        expect(tierpath_path_free(p), Ok);
        expect(tierpath_path_free(p), InvalidHandle);
        let mut s = null_mut();
        expect(tierpath_sliced_new(&mut s), Ok);
        expect(tierpath_sliced_free(s), Ok);
        expect(tierpath_sliced_free(s), InvalidHandle);
        let mut q = null_mut();
        expect(tierpath_queue_new(&mut q), Ok);
        expect(tierpath_queue_free(q), Ok);
        expect(tierpath_queue_free(q), InvalidHandle);
        let mut r = null_mut();
        let e = TierpathEdit {
            cell: pt(2, 2),
            kind: TierpathEditKind::Passable,
            value: 1,
        };
        expect(tierpath_hierarchy_edit(w.h, &e, 1, &mut r), Ok);
        expect(tierpath_repair_free(r), Ok);
        expect(tierpath_repair_free(r), InvalidHandle);
        // A handle of another type is refused by every free.
        expect(tierpath_map_free(w.h.cast()), InvalidHandle);
        expect(tierpath_hierarchy_free(w.map.cast()), InvalidHandle);
        expect(tierpath_cache_free(w.map.cast()), InvalidHandle);
        expect(tierpath_path_free(w.cache.cast()), InvalidHandle);
        expect(tierpath_sliced_free(w.cache.cast()), InvalidHandle);
        expect(tierpath_queue_free(w.cache.cast()), InvalidHandle);
        expect(tierpath_repair_free(w.cache.cast()), InvalidHandle);
        expect(tierpath_map_free(foreign()), InvalidHandle);
    }
}

#[test]
fn strings_and_constants_are_never_null() {
    unsafe {
        for s in -3..20 {
            assert!(!CStr::from_ptr(tierpath_status_name(s)).is_empty());
        }
        assert_eq!(
            CStr::from_ptr(tierpath_status_name(BufferTooSmall as i32)),
            c"TIERPATH_STATUS_BUFFER_TOO_SMALL"
        );
        assert!(!CStr::from_ptr(tierpath_version()).is_empty());
        assert!(!tierpath_last_error().is_null());
        expect(tierpath_build_settings_default(null_mut()), NullArgument);
        expect(tierpath_query_options_default(null_mut()), NullArgument);
    }
}

#[test]
fn maps_refuse_bad_input() {
    let w = world();
    unsafe {
        let mut m = foreign::<TierpathMap>();
        expect(tierpath_map_load(null(), &mut m), NullArgument);
        assert!(m.is_null(), "a failed call leaves the output null");
        expect(tierpath_map_load(c"/no/such/file.map".as_ptr(), &mut m), Io);
        let bad_utf8: [u8; 3] = [0xff, 0xfe, 0];
        expect(
            tierpath_map_load(bad_utf8.as_ptr().cast::<c_char>(), &mut m),
            InvalidArgument,
        );
        expect(
            tierpath_map_load(c"../data/default.map".as_ptr(), null_mut()),
            NullArgument,
        );
        let junk = b"type octile\nheight x\n";
        expect(
            tierpath_map_parse(junk.as_ptr(), junk.len(), &mut m),
            BadMap,
        );
        expect(tierpath_map_parse(null(), 5, &mut m), NullArgument);
        let good = b"type octile\nheight 2\nwidth 3\nmap\n..@\n...\n";
        expect(tierpath_map_parse(good.as_ptr(), good.len(), &mut m), Ok);
        expect(tierpath_map_free(m), Ok);
        expect(
            tierpath_map_from_cells(0, 5, null(), null(), &mut m),
            InvalidArgument,
        );
        expect(
            tierpath_map_from_cells(u32::MAX, u32::MAX, null(), null(), &mut m),
            InvalidArgument,
        );
        expect(
            tierpath_map_from_cells(4, 4, null(), null(), &mut m),
            NullArgument,
        );
        let ones = [1u8; 16];
        let zero_weights = [0u16; 16];
        expect(
            tierpath_map_from_cells(4, 4, ones.as_ptr(), zero_weights.as_ptr(), &mut m),
            InvalidArgument,
        );
        let weights = [250u16; 16];
        expect(
            tierpath_map_from_cells(4, 4, ones.as_ptr(), weights.as_ptr(), &mut m),
            Ok,
        );
        expect(tierpath_map_free(m), Ok);

        let (mut width, mut height, mut p) = (0, 0, 0u8);
        for (bad, want) in bad(freed_map()) {
            expect(tierpath_map_size(bad, &mut width, &mut height), want);
            expect(tierpath_map_passable(bad, pt(0, 0), &mut p), want);
        }
        expect(
            tierpath_map_size(w.h.cast(), &mut width, &mut height),
            InvalidHandle,
        );
        expect(
            tierpath_map_size(w.map, null_mut(), &mut height),
            NullArgument,
        );
        expect(
            tierpath_map_size(w.map, &mut width, null_mut()),
            NullArgument,
        );
        expect(tierpath_map_size(w.map, &mut width, &mut height), Ok);
        assert_eq!((width, height), (W, H));
        expect(tierpath_map_passable(w.map, pt(W, 0), &mut p), OffMap);
        expect(
            tierpath_map_passable(w.map, pt(0, u32::MAX), &mut p),
            OffMap,
        );
        expect(
            tierpath_map_passable(w.map, pt(20, 0), null_mut()),
            NullArgument,
        );
        expect(tierpath_map_passable(w.map, pt(20, 0), &mut p), Ok);
        assert_eq!(p, 0);
    }
}

#[test]
fn hierarchies_refuse_bad_input() {
    let w = world();
    unsafe {
        let mut h = foreign::<TierpathHierarchy>();
        for (bad, want) in bad(freed_map()) {
            expect(tierpath_hierarchy_build(bad, null(), &mut h), want);
            assert!(h.is_null());
            expect(
                tierpath_hierarchy_load(bad, c"x.tph".as_ptr(), &mut h),
                want,
            );
            expect(
                tierpath_hierarchy_from_bytes(bad, [0u8].as_ptr(), 1, &mut h),
                want,
            );
        }
        let mut settings = std::mem::zeroed();
        expect(tierpath_build_settings_default(&mut settings), Ok);
        settings.cluster_size = 1;
        expect(
            tierpath_hierarchy_build(w.map, &settings, &mut h),
            InvalidArgument,
        );
        settings.cluster_size = 16;
        settings.landmarks = 99;
        expect(
            tierpath_hierarchy_build(w.map, &settings, &mut h),
            InvalidArgument,
        );
        expect(
            tierpath_hierarchy_build(w.map, null(), null_mut()),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_load(w.map, c"/no/such/h.tph".as_ptr(), &mut h),
            Io,
        );
        expect(tierpath_hierarchy_load(w.map, null(), &mut h), NullArgument);

        // Bytes: the required-size protocol, a damaged copy, another map's.
        let mut needed = 0usize;
        expect(
            tierpath_hierarchy_to_bytes(w.h, null_mut(), 0, &mut needed),
            BufferTooSmall,
        );
        assert!(needed > 0);
        let mut bytes = vec![0u8; needed];
        expect(
            tierpath_hierarchy_to_bytes(w.h, bytes.as_mut_ptr(), 10, &mut needed),
            BufferTooSmall,
        );
        expect(
            tierpath_hierarchy_to_bytes(w.h, null_mut(), needed, &mut needed),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_to_bytes(w.h, bytes.as_mut_ptr(), needed, null_mut()),
            Ok,
        );
        expect(
            tierpath_hierarchy_from_bytes(w.map, bytes.as_ptr(), bytes.len(), &mut h),
            Ok,
        );
        expect(tierpath_hierarchy_free(h), Ok);
        expect(
            tierpath_hierarchy_from_bytes(w.map, bytes.as_ptr(), 7, &mut h),
            BadHierarchy,
        );
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x5a;
        expect(
            tierpath_hierarchy_from_bytes(w.map, bytes.as_ptr(), bytes.len(), &mut h),
            BadHierarchy,
        );
        expect(
            tierpath_hierarchy_from_bytes(w.map, null(), 10, &mut h),
            NullArgument,
        );
        bytes[mid] ^= 0x5a;
        let mut other = null_mut();
        expect(
            tierpath_map_from_cells(W, H, [1u8; (W * H) as usize].as_ptr(), null(), &mut other),
            Ok,
        );
        expect(
            tierpath_hierarchy_from_bytes(other, bytes.as_ptr(), bytes.len(), &mut h),
            WrongHierarchy,
        );
        expect(tierpath_map_free(other), Ok);

        let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("abuse.tph");
        let cfile = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
        let mut stats = std::mem::zeroed();
        let (mut p, mut same) = (0u8, 0u8);
        for (bad, want) in bad(freed_hierarchy(&w)) {
            expect(tierpath_hierarchy_save(bad, cfile.as_ptr()), want);
            expect(
                tierpath_hierarchy_to_bytes(bad, null_mut(), 0, &mut needed),
                want,
            );
            expect(tierpath_hierarchy_stats(bad, &mut stats), want);
            expect(tierpath_hierarchy_passable(bad, pt(0, 0), &mut p), want);
            expect(
                tierpath_hierarchy_same_island(bad, pt(0, 0), pt(1, 1), &mut same),
                want,
            );
            expect(tierpath_hierarchy_refresh_landmarks(bad), want);
            expect(tierpath_hierarchy_contract(bad), want);
            expect(tierpath_hierarchy_is_contracted(bad, &mut same), want);
            expect(
                tierpath_hierarchy_add_cell_landmarks(bad, 2, &mut same),
                want,
            );
            expect(tierpath_hierarchy_has_cell_landmarks(bad, &mut same), want);
        }
        expect(
            tierpath_hierarchy_has_cell_landmarks(w.h, null_mut()),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_is_contracted(w.h, null_mut()),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_stats(w.map.cast(), &mut stats),
            InvalidHandle,
        );
        expect(tierpath_hierarchy_save(w.h, null()), NullArgument);
        expect(
            tierpath_hierarchy_save(w.h, c"/no/such/dir/h.tph".as_ptr()),
            Io,
        );
        expect(tierpath_hierarchy_save(w.h, cfile.as_ptr()), Ok);
        expect(tierpath_hierarchy_load(w.map, cfile.as_ptr(), &mut h), Ok);
        expect(tierpath_hierarchy_free(h), Ok);
        expect(tierpath_hierarchy_stats(w.h, null_mut()), NullArgument);
        expect(tierpath_hierarchy_stats(w.h, &mut stats), Ok);
        assert_eq!((stats.width, stats.height), (W, H));
        expect(tierpath_hierarchy_passable(w.h, pt(W, H), &mut p), OffMap);
        expect(
            tierpath_hierarchy_passable(w.h, pt(1, 1), null_mut()),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_same_island(w.h, pt(W + 9, 0), pt(1, 1), &mut same),
            Ok,
        );
        assert_eq!(same, 0, "off the map is on no island");
        expect(
            tierpath_hierarchy_same_island(w.h, pt(1, 1), pt(35, 2), &mut same),
            Ok,
        );
        assert_eq!(same, 0, "the pocket is sealed");
        expect(
            tierpath_hierarchy_same_island(w.h, pt(1, 1), pt(30, 5), null_mut()),
            NullArgument,
        );
        expect(tierpath_hierarchy_refresh_landmarks(w.h), Ok);
    }
}

#[test]
fn queries_refuse_bad_input() {
    let w = world();
    unsafe {
        let mut buf = [TierpathPoint::default(); 256];
        let mut info: TierpathPathInfo = std::mem::zeroed();
        let mut path = foreign::<TierpathPath>();
        let (s, g) = (pt(1, 1), pt(30, 5));
        for (bad, want) in bad(freed_hierarchy(&w)) {
            expect(
                tierpath_find_path(bad, w.cache, s, g, null(), buf.as_mut_ptr(), 256, &mut info),
                want,
            );
            expect(
                tierpath_find_path_handle(bad, w.cache, s, g, null(), &mut path),
                want,
            );
            assert!(path.is_null());
            let mut index = 0i64;
            expect(
                tierpath_nearest(bad, w.cache, s, &g, 1, &mut index, &mut path),
                want,
            );
        }
        for (bad, want) in bad(freed_cache()) {
            expect(
                tierpath_find_path(w.h, bad, s, g, null(), buf.as_mut_ptr(), 256, &mut info),
                want,
            );
            expect(
                tierpath_find_path_handle(w.h, bad, s, g, null(), &mut path),
                want,
            );
            let mut index = 0i64;
            expect(
                tierpath_nearest(w.h, bad, s, &g, 1, &mut index, &mut path),
                want,
            );
        }
        expect(tierpath_cache_new(null_mut()), NullArgument);
        // Wrong types: a cache for a hierarchy and the reverse.
        expect(
            tierpath_find_path(
                w.cache.cast(),
                w.h.cast(),
                s,
                g,
                null(),
                buf.as_mut_ptr(),
                256,
                &mut info,
            ),
            InvalidHandle,
        );
        // Endpoints.
        for (a, b, want) in [
            (pt(W, 0), g, OffMap),
            (s, pt(0, H), OffMap),
            (pt(u32::MAX, u32::MAX), g, OffMap),
            (pt(20, 3), g, Blocked),
            (s, pt(20, 3), Blocked),
        ] {
            expect(
                tierpath_find_path(w.h, w.cache, a, b, null(), buf.as_mut_ptr(), 256, &mut info),
                want,
            );
            expect(
                tierpath_find_path_handle(w.h, w.cache, a, b, null(), &mut path),
                want,
            );
        }
        // Outputs and buffers.
        expect(
            tierpath_find_path(
                w.h,
                w.cache,
                s,
                g,
                null(),
                buf.as_mut_ptr(),
                256,
                null_mut(),
            ),
            NullArgument,
        );
        expect(
            tierpath_find_path(w.h, w.cache, s, g, null(), null_mut(), 256, &mut info),
            NullArgument,
        );
        expect(
            tierpath_find_path(w.h, w.cache, s, g, null(), buf.as_mut_ptr(), 3, &mut info),
            BufferTooSmall,
        );
        let needed = info.cells as usize;
        assert!(needed > 3);
        expect(
            tierpath_find_path(
                w.h,
                w.cache,
                s,
                g,
                null(),
                buf.as_mut_ptr(),
                needed,
                &mut info,
            ),
            Ok,
        );
        assert_eq!(info.found, 1);
        // Unreachable: success, no cells, even with no buffer.
        expect(
            tierpath_find_path(w.h, w.cache, s, pt(35, 2), null(), null_mut(), 0, &mut info),
            Ok,
        );
        assert_eq!((info.found, info.cells), (0, 0));
        // Partial: a path towards the sealed pocket.
        let options = TierpathQueryOptions {
            partial: 1,
            ..Default::default()
        };
        expect(
            tierpath_find_path(
                w.h,
                w.cache,
                s,
                pt(35, 2),
                &options,
                buf.as_mut_ptr(),
                256,
                &mut info,
            ),
            Ok,
        );
        assert_eq!((info.found, info.partial), (1, 1));
        expect(
            tierpath_find_path_handle(w.h, w.cache, s, g, null(), null_mut()),
            NullArgument,
        );

        // Path handles.
        let p = a_path(&w);
        let mut count = 0usize;
        for (bad, want) in bad(freed_path(&w)) {
            expect(tierpath_path_info(bad, &mut info), want);
            expect(
                tierpath_path_cells(bad, buf.as_mut_ptr(), 256, &mut count),
                want,
            );
        }
        expect(tierpath_path_info(w.cache.cast(), &mut info), InvalidHandle);
        expect(tierpath_path_info(p, null_mut()), NullArgument);
        expect(
            tierpath_path_cells(p, buf.as_mut_ptr(), 2, &mut count),
            BufferTooSmall,
        );
        assert_eq!(count, needed);
        expect(
            tierpath_path_cells(p, null_mut(), 256, &mut count),
            NullArgument,
        );
        expect(
            tierpath_path_cells(p, buf.as_mut_ptr(), 256, null_mut()),
            Ok,
        );
        expect(tierpath_path_free(p), Ok);

        // Nearest.
        let mut index = 0i64;
        let targets = [pt(35, 2), pt(30, 5), pt(2, 2)];
        expect(
            tierpath_nearest(w.h, w.cache, s, targets.as_ptr(), 3, null_mut(), &mut path),
            NullArgument,
        );
        expect(
            tierpath_nearest(w.h, w.cache, s, null(), 3, &mut index, &mut path),
            NullArgument,
        );
        expect(
            tierpath_nearest(
                w.h,
                w.cache,
                s,
                [pt(W, 1)].as_ptr(),
                1,
                &mut index,
                &mut path,
            ),
            OffMap,
        );
        expect(
            tierpath_nearest(
                w.h,
                w.cache,
                pt(20, 1),
                targets.as_ptr(),
                3,
                &mut index,
                &mut path,
            ),
            Blocked,
        );
        expect(
            tierpath_nearest(w.h, w.cache, s, targets.as_ptr(), 3, &mut index, null_mut()),
            Ok,
        );
        assert_eq!(index, 2);
        expect(
            tierpath_nearest(w.h, w.cache, s, targets.as_ptr(), 1, &mut index, &mut path),
            Ok,
        );
        assert_eq!(index, -1, "the pocket is unreachable");
        expect(tierpath_path_free(path), Ok);
        expect(
            tierpath_nearest(w.h, w.cache, s, null(), 0, &mut index, null_mut()),
            Ok,
        );
        assert_eq!(index, -1);
        // With options: null is one cell; a size the hierarchy does not serve.
        let too_large = TierpathQueryOptions {
            unit_size: 2,
            ..Default::default()
        };
        let found = targets.as_ptr();
        expect(
            tierpath_nearest_with(w.h, w.cache, s, found, 3, null(), &mut index, null_mut()),
            Ok,
        );
        assert_eq!(index, 2);
        expect(
            tierpath_nearest_with(
                w.h,
                w.cache,
                s,
                found,
                3,
                &too_large,
                &mut index,
                null_mut(),
            ),
            InvalidArgument,
        );
        expect(
            tierpath_query_options_default(&mut TierpathQueryOptions {
                partial: 7,
                ..Default::default()
            }),
            Ok,
        );
    }
}

fn freed_path(w: &World) -> *mut TierpathPath {
    let p = a_path(w);
    unsafe { expect(tierpath_path_free(p), Ok) };
    p
}

#[test]
fn sliced_queries_and_queues_refuse_bad_input() {
    let w = world();
    unsafe {
        let (s, g) = (pt(1, 1), pt(30, 5));
        let mut sliced = null_mut();
        expect(tierpath_sliced_new(null_mut()), NullArgument);
        expect(tierpath_sliced_new(&mut sliced), Ok);
        let freed_sliced = {
            let mut x = null_mut();
            expect(tierpath_sliced_new(&mut x), Ok);
            expect(tierpath_sliced_free(x), Ok);
            x
        };
        let mut status = TierpathSliceStatus::Idle;
        let mut path = null_mut();
        for (bad, want) in bad(freed_sliced) {
            expect(tierpath_sliced_start(bad, w.h, s, g, null()), want);
            expect(tierpath_sliced_update(bad, w.h, 10, &mut status), want);
            expect(tierpath_sliced_finish(bad, w.h, &mut path), want);
        }
        for (bad, want) in bad(freed_hierarchy(&w)) {
            expect(tierpath_sliced_start(sliced, bad, s, g, null()), want);
            expect(tierpath_sliced_update(sliced, bad, 10, &mut status), want);
            expect(tierpath_sliced_finish(sliced, bad, &mut path), want);
        }
        expect(
            tierpath_sliced_start(sliced, w.h, pt(W, 0), g, null()),
            OffMap,
        );
        expect(
            tierpath_sliced_start(sliced, w.h, s, pt(20, 0), null()),
            Blocked,
        );
        // A unit size the hierarchy (built for one cell) does not serve.
        let too_large = TierpathQueryOptions {
            unit_size: 2,
            ..Default::default()
        };
        expect(
            tierpath_sliced_start(sliced, w.h, s, g, &too_large),
            InvalidArgument,
        );
        expect(tierpath_sliced_update(sliced, w.h, 10, &mut status), Ok);
        assert_eq!(status, TierpathSliceStatus::Idle);
        expect(tierpath_sliced_finish(sliced, w.h, &mut path), NotReady);
        expect(tierpath_sliced_start(sliced, w.h, s, g, null()), Ok);
        expect(
            tierpath_sliced_update(sliced, w.h, 1, null_mut()),
            NullArgument,
        );
        expect(tierpath_sliced_update(sliced, w.h, 1, &mut status), Ok);
        if status == TierpathSliceStatus::InProgress {
            expect(tierpath_sliced_finish(sliced, w.h, &mut path), NotReady);
        }
        // Another hierarchy (another map) is refused mid-query.
        let mut other_map = null_mut();
        let mut other = null_mut();
        expect(
            tierpath_map_from_cells(8, 8, [1u8; 64].as_ptr(), null(), &mut other_map),
            Ok,
        );
        expect(tierpath_hierarchy_build(other_map, null(), &mut other), Ok);
        if status == TierpathSliceStatus::InProgress {
            expect(
                tierpath_sliced_update(sliced, other, 10, &mut status),
                WrongHierarchy,
            );
        }
        while status != TierpathSliceStatus::Done {
            expect(tierpath_sliced_update(sliced, w.h, 5, &mut status), Ok);
        }
        expect(
            tierpath_sliced_finish(sliced, w.h, null_mut()),
            NullArgument,
        );
        expect(tierpath_sliced_finish(sliced, w.h, &mut path), Ok);
        expect(tierpath_path_free(path), Ok);
        expect(tierpath_sliced_free(sliced), Ok);

        // Queues.
        let mut queue = null_mut();
        expect(tierpath_queue_new(null_mut()), NullArgument);
        expect(tierpath_queue_new(&mut queue), Ok);
        let freed_queue = {
            let mut x = null_mut();
            expect(tierpath_queue_new(&mut x), Ok);
            expect(tierpath_queue_free(x), Ok);
            x
        };
        let (mut id, mut pending, mut known) = (0u64, 0u64, 0u8);
        let mut state = TierpathRequestState::Unknown;
        let mut frame = TierpathQueueFrame::default();
        for (bad, want) in bad(freed_queue) {
            expect(tierpath_queue_push(bad, w.h, s, g, null(), &mut id), want);
            expect(tierpath_queue_update(bad, w.h, 10, &mut frame), want);
            expect(tierpath_queue_status(bad, 0, &mut state, null_mut()), want);
            expect(tierpath_queue_take(bad, w.h, 0, &mut path), want);
            expect(
                tierpath_queue_pop_finished(bad, w.h, &mut id, &mut path),
                want,
            );
            expect(tierpath_queue_cancel(bad, 0, &mut known), want);
            expect(tierpath_queue_pending(bad, &mut pending), want);
        }
        for (bad, want) in bad(freed_hierarchy(&w)) {
            expect(tierpath_queue_push(queue, bad, s, g, null(), &mut id), want);
            expect(tierpath_queue_update(queue, bad, 10, &mut frame), want);
            expect(tierpath_queue_take(queue, bad, 0, &mut path), want);
            expect(
                tierpath_queue_pop_finished(queue, bad, &mut id, &mut path),
                want,
            );
        }
        expect(
            tierpath_queue_push(queue, w.h, s, g, null(), null_mut()),
            NullArgument,
        );
        expect(
            tierpath_queue_push(queue, w.h, pt(0, H), g, null(), &mut id),
            OffMap,
        );
        expect(
            tierpath_queue_push(queue, w.h, s, pt(20, 1), null(), &mut id),
            Blocked,
        );
        let too_large = TierpathQueryOptions {
            unit_size: 2,
            ..Default::default()
        };
        expect(
            tierpath_queue_push(queue, w.h, s, g, &too_large, &mut id),
            InvalidArgument,
        );
        expect(
            tierpath_queue_pop_finished(queue, w.h, &mut id, &mut path),
            NotReady,
        );
        expect(tierpath_queue_push(queue, w.h, s, g, null(), &mut id), Ok);
        expect(
            tierpath_queue_push(queue, other, pt(1, 1), pt(2, 2), null(), &mut id),
            WrongHierarchy,
        );
        expect(
            tierpath_queue_status(queue, id, null_mut(), null_mut()),
            NullArgument,
        );
        expect(tierpath_queue_status(queue, id, &mut state, null_mut()), Ok);
        assert_eq!(state, TierpathRequestState::Queued);
        expect(
            tierpath_queue_status(queue, 999, &mut state, null_mut()),
            Ok,
        );
        assert_eq!(state, TierpathRequestState::Unknown);
        expect(tierpath_queue_take(queue, w.h, id, &mut path), NotReady);
        expect(
            tierpath_queue_take(queue, w.h, 999, &mut path),
            InvalidArgument,
        );
        expect(
            tierpath_queue_take(queue, w.h, id, null_mut()),
            NullArgument,
        );
        expect(
            tierpath_queue_pop_finished(queue, w.h, null_mut(), &mut path),
            NullArgument,
        );
        expect(tierpath_queue_pending(queue, null_mut()), NullArgument);
        expect(tierpath_queue_update(queue, w.h, 0, null_mut()), Ok);
        loop {
            expect(tierpath_queue_update(queue, w.h, 7, &mut frame), Ok);
            assert!(frame.expanded <= 7);
            expect(tierpath_queue_pending(queue, &mut pending), Ok);
            if pending == 0 {
                break;
            }
        }
        expect(tierpath_queue_take(queue, w.h, id, &mut path), Ok);
        expect(tierpath_path_free(path), Ok);
        expect(
            tierpath_queue_take(queue, w.h, id, &mut path),
            InvalidArgument,
        );
        expect(tierpath_queue_cancel(queue, id, &mut known), Ok);
        assert_eq!(known, 0);
        expect(tierpath_queue_cancel(queue, 12345, null_mut()), Ok);
        expect(tierpath_queue_free(queue), Ok);
        expect(tierpath_hierarchy_free(other), Ok);
        expect(tierpath_map_free(other_map), Ok);
    }
}

#[test]
fn edits_and_repairs_refuse_bad_input() {
    let w = world();
    unsafe {
        let mut report = foreign::<TierpathRepair>();
        let edit = |x, y, kind, value| TierpathEdit {
            cell: pt(x, y),
            kind,
            value,
        };
        let open = edit(20, 5, TierpathEditKind::Passable, 1);
        for (bad, want) in bad(freed_hierarchy(&w)) {
            expect(tierpath_hierarchy_edit(bad, &open, 1, &mut report), want);
            assert!(report.is_null());
        }
        expect(
            tierpath_hierarchy_edit(w.h, null(), 1, &mut report),
            NullArgument,
        );
        expect(
            tierpath_hierarchy_edit(
                w.h,
                &edit(W, 0, TierpathEditKind::Passable, 1),
                1,
                &mut report,
            ),
            OffMap,
        );
        expect(
            tierpath_hierarchy_edit(
                w.h,
                &edit(1, 1, TierpathEditKind::Weight, 0),
                1,
                &mut report,
            ),
            InvalidArgument,
        );
        expect(
            tierpath_hierarchy_edit(
                w.h,
                &edit(1, 1, TierpathEditKind::Weight, 70_000),
                1,
                &mut report,
            ),
            InvalidArgument,
        );
        // An unknown kind, as C could pass it.
        let raw: [u32; 4] = [1, 1, 9, 1];
        expect(
            tierpath_hierarchy_edit(w.h, raw.as_ptr().cast(), 1, &mut report),
            InvalidArgument,
        );
        expect(tierpath_hierarchy_edit(w.h, null(), 0, null_mut()), Ok);

        let path = a_path(&w);
        expect(tierpath_hierarchy_edit(w.h, &open, 1, &mut report), Ok);
        let freed_repair = {
            let mut x = null_mut();
            expect(tierpath_hierarchy_edit(w.h, &open, 1, &mut x), Ok);
            expect(tierpath_repair_free(x), Ok);
            x
        };
        let mut info = std::mem::zeroed();
        let mut touched = 0u8;
        let cells = [pt(20, 5)];
        for (bad, want) in bad(freed_repair) {
            expect(tierpath_repair_info(bad, &mut info), want);
            expect(
                tierpath_repair_touches(bad, cells.as_ptr(), 1, &mut touched),
                want,
            );
            expect(tierpath_repair_touches_path(bad, path, &mut touched), want);
        }
        for (bad, want) in bad(freed_path(&w)) {
            expect(
                tierpath_repair_touches_path(report, bad, &mut touched),
                want,
            );
        }
        expect(tierpath_repair_info(report, null_mut()), NullArgument);
        expect(tierpath_repair_info(report, &mut info), Ok);
        assert_eq!(info.changed_cells, 1);
        expect(
            tierpath_repair_touches(report, null(), 1, &mut touched),
            NullArgument,
        );
        expect(
            tierpath_repair_touches(report, cells.as_ptr(), 1, null_mut()),
            NullArgument,
        );
        expect(
            tierpath_repair_touches(report, cells.as_ptr(), 1, &mut touched),
            Ok,
        );
        assert_eq!(touched, 1);
        expect(
            tierpath_repair_touches(report, [pt(W + 5, 1)].as_ptr(), 1, &mut touched),
            Ok,
        );
        assert_eq!(touched, 0, "an off-map cell touches nothing");
        expect(
            tierpath_repair_touches_path(report, path, null_mut()),
            NullArgument,
        );
        expect(tierpath_repair_touches_path(report, path, &mut touched), Ok);
        expect(tierpath_repair_free(report), Ok);
        expect(tierpath_path_free(path), Ok);
    }
}

#[test]
fn every_function_in_the_header_is_driven_here() {
    let header = include_str!("../../../include/tierpath.h");
    let this = include_str!("abuse.rs");
    let mut missing = Vec::new();
    for line in header.lines() {
        let Some(at) = line.find("tierpath_") else {
            continue;
        };
        if line.starts_with("//") || line.starts_with(' ') || !line.contains('(') {
            continue;
        }
        let name: String = line[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !this.contains(&format!("{name}(")) {
            missing.push(name);
        }
    }
    assert!(missing.is_empty(), "not driven with bad input: {missing:?}");
}
