//! Unit sizes and partial paths through every query of the C ABI: each
//! answer equals the Rust API's for the same options (cells and cost), is
//! legal for the unit by the footprint rule, and a bad size is a status.

use std::ptr::{null, null_mut};

use tierpath::{Grid, HierarchyBuilder, Point, QueryCache, QueryOptions, validate_sized_path};
use tierpath_ffi::*;

use TierpathStatus::*;

pub(crate) const W: u32 = 48;
pub(crate) const H: u32 = 32;

/// Two rooms joined by a 1-cell door (x = 24, y = 8) and a 3-cell one
/// (x = 24, y = 20..=22), and a pocket a 2x2 unit cannot enter (x 40..=47,
/// y 0..=1 behind a wall at y = 2 with a 1-cell gap at x = 44).
pub(crate) fn passable(p: Point) -> bool {
    let wall = p.x == 24 && !(p.y == 8 || (20..=22).contains(&p.y));
    let pocket = p.y == 2 && p.x >= 40 && p.x != 44;
    !(wall || pocket)
}

pub(crate) fn answer(
    h: *mut TierpathHierarchy,
    cache: *mut TierpathCache,
    s: Point,
    g: Point,
    options: &TierpathQueryOptions,
) -> (TierpathStatus, Vec<Point>, TierpathPathInfo) {
    let mut handle = null_mut();
    let status =
        unsafe { tierpath_find_path_handle(h, cache, s.into(), g.into(), options, &mut handle) };
    if status != Ok {
        return (status, Vec::new(), unsafe { std::mem::zeroed() });
    }
    path_of(handle)
}

/// The cells and info of a path handle, which is freed.
fn path_of(handle: *mut TierpathPath) -> (TierpathStatus, Vec<Point>, TierpathPathInfo) {
    unsafe {
        let mut info = std::mem::zeroed();
        assert_eq!(tierpath_path_info(handle, &mut info), Ok);
        let mut cells = vec![TierpathPoint { x: 0, y: 0 }; info.cells as usize];
        let mut n = 0;
        assert_eq!(
            tierpath_path_cells(handle, cells.as_mut_ptr(), cells.len(), &mut n),
            Ok
        );
        assert_eq!(tierpath_path_free(handle), Ok);
        (Ok, cells.into_iter().map(Point::from).collect(), info)
    }
}

/// The map of [`passable`] through the C ABI.
pub(crate) fn map_handle() -> *mut TierpathMap {
    let cells: Vec<u8> = (0..H)
        .flat_map(|y| (0..W).map(move |x| u8::from(passable(Point::new(x, y)))))
        .collect();
    let mut map = null_mut();
    let status = unsafe { tierpath_map_from_cells(W, H, cells.as_ptr(), null(), &mut map) };
    assert_eq!(status, Ok);
    map
}

#[test]
fn every_query_serves_a_unit_size_and_partial_paths_as_the_rust_api_does() {
    let grid = Grid::from_fn(W, H, passable).unwrap();
    let rust = HierarchyBuilder::new()
        .cluster_size(8)
        .max_unit_size(2)
        .build(grid.clone())
        .unwrap();
    let map = map_handle();
    unsafe {
        let (mut h, mut cache) = (null_mut(), null_mut());
        let mut settings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        assert_eq!(settings.max_unit_size, 1);
        settings.cluster_size = 8;
        settings.max_unit_size = 2;
        assert_eq!(tierpath_hierarchy_build(map, &settings, &mut h), Ok);
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        let mut options = std::mem::zeroed();
        assert_eq!(tierpath_query_options_default(&mut options), Ok);
        assert_eq!((options.partial, options.unit_size), (0, 1));

        let mut rc = QueryCache::new();
        let (s, g, pocket) = (Point::new(2, 8), Point::new(40, 8), Point::new(44, 0));
        for (size, partial, goal) in [(1, 0, g), (2, 0, g), (2, 1, pocket), (1, 1, pocket)] {
            let options = TierpathQueryOptions {
                partial,
                unit_size: size,
            };
            let want = rust
                .find_path_with(
                    &mut rc,
                    s,
                    goal,
                    &QueryOptions::new().unit_size(size).partial(partial != 0),
                )
                .unwrap();
            let path = want.path.as_ref().expect("a path, partial or whole");
            validate_sized_path(path, &grid, rust.movement(), size).unwrap();
            // find_path.
            let (status, got, info) = answer(h, cache, s, goal, &options);
            assert_eq!(status, Ok);
            assert_eq!((got.as_slice(), info.cost), (&path.cells[..], path.cost.0));
            assert_eq!(info.partial, u8::from(want.partial));
            // The sliced query.
            let mut sliced = null_mut();
            assert_eq!(tierpath_sliced_new(&mut sliced), Ok);
            assert_eq!(
                tierpath_sliced_start(sliced, h, s.into(), goal.into(), &options),
                Ok
            );
            let mut state = TierpathSliceStatus::InProgress;
            while state != TierpathSliceStatus::Done {
                assert_eq!(tierpath_sliced_update(sliced, h, 20, &mut state), Ok);
            }
            let mut handle = null_mut();
            assert_eq!(tierpath_sliced_finish(sliced, h, &mut handle), Ok);
            let (_, sliced_cells, sliced_info) = path_of(handle);
            assert_eq!((sliced_cells, sliced_info.cost), (got.clone(), info.cost));
            assert_eq!(tierpath_sliced_free(sliced), Ok);
            // The queue.
            let mut queue = null_mut();
            let mut id = 0;
            assert_eq!(tierpath_queue_new(&mut queue), Ok);
            assert_eq!(
                tierpath_queue_push(queue, h, s.into(), goal.into(), &options, &mut id),
                Ok
            );
            let mut pending = 1;
            while pending > 0 {
                assert_eq!(tierpath_queue_update(queue, h, 20, null_mut()), Ok);
                assert_eq!(tierpath_queue_pending(queue, &mut pending), Ok);
            }
            let mut handle = null_mut();
            assert_eq!(tierpath_queue_take(queue, h, id, &mut handle), Ok);
            let (_, queued, queued_info) = path_of(handle);
            assert_eq!((queued, queued_info.partial), (got, info.partial));
            assert_eq!(tierpath_queue_free(queue), Ok);
        }

        // Nearest for a 2x2 unit: the target behind the 1-cell door is
        // farther for it than for one cell.
        let targets = [Point::new(30, 8), Point::new(14, 28)].map(TierpathPoint::from);
        for size in [1, 2] {
            let options = TierpathQueryOptions {
                unit_size: size,
                ..Default::default()
            };
            let mut index = -2;
            let mut handle = null_mut();
            let status = tierpath_nearest_with(
                h,
                cache,
                s.into(),
                targets.as_ptr(),
                2,
                &options,
                &mut index,
                &mut handle,
            );
            assert_eq!(status, Ok);
            let want = rust
                .nearest_with(
                    &mut rc,
                    s,
                    &targets.map(Point::from),
                    &QueryOptions::new().unit_size(size),
                )
                .unwrap()
                .nearest
                .unwrap();
            let (_, cells, info) = path_of(handle);
            assert_eq!((index, info.cost), (want.target as i64, want.path.cost.0));
            validate_sized_path(&want.path, &grid, rust.movement(), size).unwrap();
            assert_eq!(cells, want.path.cells);
        }

        // Bad sizes: above the hierarchy's largest, and a start too narrow.
        let three = TierpathQueryOptions {
            unit_size: 3,
            ..Default::default()
        };
        assert_eq!(answer(h, cache, s, g, &three).0, InvalidArgument);
        let two = TierpathQueryOptions {
            unit_size: 2,
            ..Default::default()
        };
        assert_eq!(answer(h, cache, Point::new(23, 0), g, &two).0, Blocked);
        settings.max_unit_size = 256;
        let mut bad = null_mut();
        assert_eq!(
            tierpath_hierarchy_build(map, &settings, &mut bad),
            InvalidArgument
        );

        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_hierarchy_free(h), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}
