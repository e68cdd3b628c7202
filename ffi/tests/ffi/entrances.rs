//! Transition placement chosen through the C ABI
//! (`TierpathBuildSettings::entrances`): each choice builds as the Rust
//! builder with the same policy, the statistics say what the build
//! decided, and a value out of range is a status.

use std::ptr::{null, null_mut};

use tierpath::{EntrancePolicy, Grid, HierarchyBuilder, LARGE_MAP_CELLS, Point};
use tierpath_ffi::*;

use TierpathStatus::*;

/// Open ground, with pillars every few cells on its left half: long
/// entrances along most borders, where the placement changes the
/// transitions, and wall-free clusters on the right.
fn pillars(p: Point) -> bool {
    !(p.x % 9 == 4 && p.y % 7 == 3 && p.x < p.y.max(48))
}

/// Builds `side x side` through the C ABI with `code`: the status, and the
/// statistics' placement and node count when built.
unsafe fn build(side: u32, code: u8) -> (TierpathStatus, u8, u64) {
    let cells: Vec<u8> = (0..side)
        .flat_map(|y| (0..side).map(move |x| u8::from(pillars(Point::new(x, y)))))
        .collect();
    unsafe {
        let mut map = null_mut();
        assert_eq!(
            tierpath_map_from_cells(side, side, cells.as_ptr(), null(), &mut map),
            Ok
        );
        let mut settings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        let mut settings: TierpathBuildSettings = settings;
        assert_eq!(settings.entrances, 0, "the builder's choice by default");
        settings.entrances = code;
        let mut h = null_mut();
        let status = tierpath_hierarchy_build(map, &settings, &mut h);
        let mut out = (status, 0, 0);
        if status == Ok {
            let mut stats = std::mem::zeroed();
            assert_eq!(tierpath_hierarchy_stats(h, &mut stats), Ok);
            let stats: TierpathStats = stats;
            out = (status, stats.entrances, stats.nodes);
            assert_eq!(tierpath_hierarchy_free(h), Ok);
        } else {
            assert!(h.is_null());
        }
        assert_eq!(tierpath_map_free(map), Ok);
        out
    }
}

#[test]
fn entrances_are_chosen_through_the_c_abi_as_in_rust() {
    let large = (LARGE_MAP_CELLS as f64).sqrt() as u32;
    for (side, code, policy, decided) in [
        (96, 0, None, 1),
        (large, 0, None, 2),
        (96, 1, Some(EntrancePolicy::default()), 1),
        (large, 1, Some(EntrancePolicy::default()), 1),
        (96, 2, Some(EntrancePolicy::ENDS), 2),
    ] {
        let mut rust = HierarchyBuilder::new();
        if let Some(p) = policy {
            rust = rust.entrance_policy(p);
        }
        let rust = rust
            .build(Grid::from_fn(side, side, pillars).unwrap())
            .unwrap();
        let (status, entrances, nodes) = unsafe { build(side, code) };
        assert_eq!(status, Ok, "{side}, entrances {code}");
        assert_eq!(entrances, decided, "{side}, entrances {code}");
        assert_eq!(nodes, rust.stats().nodes, "{side}, entrances {code}");
    }
    let (spaced, ends) = unsafe { (build(96, 1).2, build(96, 2).2) };
    assert!(
        ends < spaced,
        "ends only: fewer transitions ({ends} of {spaced})"
    );

    let (status, _, _) = unsafe { build(96, 3) };
    assert_eq!(status, InvalidArgument);
    let message = unsafe { std::ffi::CStr::from_ptr(tierpath_last_error()) };
    assert!(
        message.to_str().unwrap().contains("entrances 3"),
        "{message:?}"
    );
}
