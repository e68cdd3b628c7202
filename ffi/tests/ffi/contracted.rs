//! Contractions and cell landmarks through the C ABI: a hierarchy saved
//! contracted (`Hierarchy::contract`, `tierpath preprocess --contract`)
//! loads contracted, with the Rust API's answers for every unit size, and an
//! edit still repairs; `tierpath_hierarchy_contract` contracts a built one,
//! and `TierpathBuildSettings::contract` builds one contracted, each as the
//! Rust API does; cell landmarks load from a file and are added by
//! `tierpath_hierarchy_add_cell_landmarks`.

use std::ptr::null_mut;

use tierpath::{Grid, Hierarchy, HierarchyBuilder, Point, QueryCache, QueryOptions};
use tierpath_ffi::*;

use crate::sizes::{H, W, answer, map_handle, passable};
use TierpathStatus::*;

#[test]
fn a_contracted_file_loads_contracted_through_the_c_abi() {
    let grid = Grid::from_fn(W, H, passable).unwrap();
    let mut rust = HierarchyBuilder::new()
        .cluster_size(8)
        .max_unit_size(2)
        .build(grid.clone())
        .unwrap();
    rust.contract().unwrap();
    let bytes = rust.to_bytes();
    let map = map_handle();
    unsafe {
        let (mut h, mut cache) = (null_mut(), null_mut());
        assert_eq!(
            tierpath_hierarchy_from_bytes(map, bytes.as_ptr(), bytes.len(), &mut h),
            Ok
        );
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        let ends = [
            (Point::new(2, 8), Point::new(40, 8)),
            (Point::new(1, 30), Point::new(46, 4)),
            (Point::new(10, 1), Point::new(30, 28)),
        ];
        answers_as(&rust, h, cache, &ends, 2);
        // An edit repairs (and ends the contraction); queries still answer.
        let wall = TierpathEdit {
            cell: Point::new(30, 8).into(),
            kind: TierpathEditKind::Passable,
            value: 0,
        };
        let across = || {
            let one = TierpathQueryOptions {
                partial: 0,
                unit_size: 1,
            };
            answer(h, cache, Point::new(2, 8), Point::new(40, 8), &one)
        };
        let mut repair = null_mut();
        assert_eq!(tierpath_hierarchy_edit(h, &wall, 1, &mut repair), Ok);
        assert_eq!(tierpath_repair_free(repair), Ok);
        let (status, got, _) = across();
        assert_eq!(status, Ok);
        assert!(!got.contains(&Point::new(30, 8)));
        assert!(!is_contracted(h), "an edit ends the contraction");
        assert_eq!(tierpath_hierarchy_contract(h), Ok);
        assert!(is_contracted(h));
        // Contracted once edited: the next edits patch the contraction.
        let door = TierpathEdit { value: 1, ..wall };
        assert_eq!(tierpath_hierarchy_edit(h, &door, 1, &mut repair), Ok);
        assert_eq!(tierpath_repair_free(repair), Ok);
        assert!(is_contracted(h), "an edit patches the contraction");
        let (status, got, _) = across();
        assert_eq!(status, Ok);
        assert!(got.contains(&Point::new(30, 8)), "through the door again");
        // Contracted afresh.
        assert_eq!(tierpath_hierarchy_contract(h), Ok);
        assert!(is_contracted(h));
        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_hierarchy_free(h), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}

/// Built through the C ABI with the default settings (the cluster side by
/// map, as the Rust builder picks it) and contracted there: the Rust API's
/// contracted answers.
#[test]
fn the_c_abi_contracts_as_the_rust_api_does() {
    let grid = Grid::from_fn(W, H, passable).unwrap();
    let mut rust = HierarchyBuilder::new().build(grid).unwrap();
    rust.contract().unwrap();
    let map = map_handle();
    unsafe {
        let (mut h, mut cache) = (null_mut(), null_mut());
        let mut settings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        assert_eq!(settings.cluster_size, 0, "by map");
        assert_eq!(tierpath_hierarchy_build(map, &settings, &mut h), Ok);
        let mut stats: TierpathStats = std::mem::zeroed();
        assert_eq!(tierpath_hierarchy_stats(h, &mut stats), Ok);
        assert_eq!(stats.contraction_seconds, 0.0, "built uncontracted");
        assert!(!is_contracted(h));
        assert_eq!(tierpath_hierarchy_contract(h), Ok);
        assert!(is_contracted(h));
        // Again: nothing to do.
        assert_eq!(tierpath_hierarchy_contract(h), Ok);
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        let ends = [
            (Point::new(2, 8), Point::new(40, 8)),
            (Point::new(1, 30), Point::new(46, 4)),
        ];
        answers_as(&rust, h, cache, &ends, 1);
        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_hierarchy_free(h), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}

/// Contracted as a stage of its build (`TierpathBuildSettings::contract`):
/// the Rust builder's hierarchy and its answers.
#[test]
fn the_c_abi_builds_contracted_as_the_rust_builder_does() {
    let grid = Grid::from_fn(W, H, passable).unwrap();
    let rust = HierarchyBuilder::new()
        .max_unit_size(2)
        .contract(true)
        .build(grid)
        .unwrap();
    assert!(rust.is_contracted());
    let map = map_handle();
    unsafe {
        let (mut h, mut cache) = (null_mut(), null_mut());
        let mut settings: TierpathBuildSettings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        assert_eq!(settings.contract, 0, "not by default");
        settings.contract = 1;
        settings.max_unit_size = 2;
        assert_eq!(tierpath_hierarchy_build(map, &settings, &mut h), Ok);
        assert!(is_contracted(h));
        let mut stats: TierpathStats = std::mem::zeroed();
        assert_eq!(tierpath_hierarchy_stats(h, &mut stats), Ok);
        assert!(stats.contraction_seconds > 0.0);
        assert!(stats.contraction_seconds <= stats.build_seconds);
        let mut needed = 0;
        let status = tierpath_hierarchy_to_bytes(h, null_mut(), 0, &mut needed);
        assert_eq!(status, BufferTooSmall);
        let mut bytes = vec![0u8; needed];
        assert_eq!(
            tierpath_hierarchy_to_bytes(h, bytes.as_mut_ptr(), needed, &mut needed),
            Ok
        );
        // As long as the Rust builder's file (only the stage times in it
        // differ), and loaded back, contracted.
        assert_eq!(bytes.len(), rust.to_bytes().len());
        let loaded = Hierarchy::from_bytes(rust.grid().clone(), &bytes).unwrap();
        assert!(loaded.is_contracted());
        assert_eq!(loaded.memory_bytes(), rust.memory_bytes());
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        let ends = [
            (Point::new(2, 8), Point::new(40, 8)),
            (Point::new(1, 30), Point::new(46, 4)),
        ];
        answers_as(&rust, h, cache, &ends, 2);
        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_hierarchy_free(h), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}

/// Whether the C ABI says `h` is contracted (the call must succeed, with a
/// flag of 0 or 1).
fn is_contracted(h: *mut TierpathHierarchy) -> bool {
    let mut contracted = 2;
    assert_eq!(
        unsafe { tierpath_hierarchy_is_contracted(h, &mut contracted) },
        Ok
    );
    assert!(contracted <= 1, "a flag");
    contracted == 1
}

/// Asserts that each of `ends`, asked through the C ABI (`h`, `cache`) for
/// units of sizes 1 to `max_size`, gets the path and cost `rust` gives.
fn answers_as(
    rust: &Hierarchy,
    h: *mut TierpathHierarchy,
    cache: *mut TierpathCache,
    ends: &[(Point, Point)],
    max_size: u32,
) {
    let mut rc = QueryCache::new();
    for &(s, g) in ends {
        for size in 1..=max_size {
            let want = rust
                .find_path_with(&mut rc, s, g, &QueryOptions::new().unit_size(size))
                .unwrap()
                .path
                .expect("reachable");
            let options = TierpathQueryOptions {
                partial: 0,
                unit_size: size,
            };
            let (status, got, info) = answer(h, cache, s, g, &options);
            assert_eq!(status, Ok);
            assert_eq!((got.as_slice(), info.cost), (&want.cells[..], want.cost.0));
        }
    }
}

/// Whether the C ABI says cell landmarks guide `h` (the call must succeed,
/// with a flag of 0 or 1).
fn has_cell_landmarks(h: *mut TierpathHierarchy) -> bool {
    let mut has = 2;
    assert_eq!(
        unsafe { tierpath_hierarchy_has_cell_landmarks(h, &mut has) },
        Ok
    );
    assert!(has <= 1, "a flag");
    has == 1
}

/// Cell landmarks through the C ABI: a file saved with them loads with
/// them, and one built there takes them (`count` 1 to 4, else an invalid
/// argument), answering as the Rust API does; edits keep them, and they
/// are added again.
#[test]
fn cell_landmarks_through_the_c_abi() {
    let grid = Grid::from_fn(W, H, passable).unwrap();
    let mut rust = HierarchyBuilder::new().cluster_size(8).build(grid).unwrap();
    assert!(rust.add_cell_landmarks(2));
    let bytes = rust.to_bytes();
    let map = map_handle();
    let ends = [
        (Point::new(2, 8), Point::new(40, 8)),
        (Point::new(1, 30), Point::new(46, 4)),
        (Point::new(10, 1), Point::new(30, 28)),
    ];
    unsafe {
        let (mut loaded, mut built, mut cache) = (null_mut(), null_mut(), null_mut());
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        assert_eq!(
            tierpath_hierarchy_from_bytes(map, bytes.as_ptr(), bytes.len(), &mut loaded),
            Ok
        );
        assert!(has_cell_landmarks(loaded));
        answers_as(&rust, loaded, cache, &ends, 1);

        let mut settings: TierpathBuildSettings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        settings.cluster_size = 8;
        assert_eq!(tierpath_hierarchy_build(map, &settings, &mut built), Ok);
        assert!(!has_cell_landmarks(built));
        let mut added = 2;
        for count in [0, 5] {
            let status = tierpath_hierarchy_add_cell_landmarks(built, count, &mut added);
            assert_eq!(status, InvalidArgument);
        }
        assert_eq!(
            tierpath_hierarchy_add_cell_landmarks(built, 2, null_mut()),
            NullArgument
        );
        assert_eq!(added, 2, "nothing written on an error");
        assert_eq!(
            tierpath_hierarchy_add_cell_landmarks(built, 2, &mut added),
            Ok
        );
        assert_eq!(added, 1);
        assert!(has_cell_landmarks(built));
        answers_as(&rust, built, cache, &ends, 1);

        // Closing a cell and opening it again keeps them (lowered where the
        // opening shortens a way), and the answers; added again, too.
        for value in [0, 1] {
            let edit = TierpathEdit {
                cell: Point::new(12, 12).into(),
                kind: TierpathEditKind::Passable,
                value,
            };
            assert_eq!(tierpath_hierarchy_edit(built, &edit, 1, null_mut()), Ok);
            assert!(has_cell_landmarks(built));
        }
        answers_as(&rust, built, cache, &ends, 1);
        assert_eq!(
            tierpath_hierarchy_add_cell_landmarks(built, 2, &mut added),
            Ok
        );
        assert_eq!(added, 1);
        answers_as(&rust, built, cache, &ends, 1);
        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_hierarchy_free(loaded), Ok);
        assert_eq!(tierpath_hierarchy_free(built), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}
