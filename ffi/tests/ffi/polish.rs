//! Polishing chosen through the C ABI (`TierpathBuildSettings::polish`):
//! each choice answers as the Rust builder with the same [`Polish`], the
//! statistics say what the build decided, and a value out of range is a
//! status.

use std::ptr::{null, null_mut};

use tierpath::{Grid, HierarchyBuilder, Point, Polish, QueryCache};
use tierpath_ffi::*;

use crate::sizes::answer;
use TierpathStatus::*;

const SIDE: u32 = 96;

/// A field of scattered one-cell obstacles (about one cell in five): the
/// kind of map where the builder polishes by default.
fn scattered(p: Point) -> bool {
    let h =
        (p.x.wrapping_mul(73_856_093) ^ p.y.wrapping_mul(19_349_663)).wrapping_mul(2_654_435_761);
    h >> 29 != 0 || (p.x < 2 && p.y < 2) || (p.x + 2 >= SIDE && p.y + 2 >= SIDE)
}

#[test]
fn polish_is_chosen_through_the_c_abi_as_in_rust() {
    let grid = Grid::from_fn(SIDE, SIDE, scattered).unwrap();
    let cells: Vec<u8> = (0..SIDE)
        .flat_map(|y| (0..SIDE).map(move |x| u8::from(scattered(Point::new(x, y)))))
        .collect();
    let ends = [
        (Point::new(0, 0), Point::new(SIDE - 1, SIDE - 1)),
        (Point::new(1, 1), Point::new(SIDE - 2, SIDE - 1)),
        (Point::new(0, 1), Point::new(SIDE - 1, SIDE - 2)),
    ];
    let options = TierpathQueryOptions {
        partial: 0,
        unit_size: 1,
    };
    let mut rc = QueryCache::new();
    let mut paths = Vec::new();
    unsafe {
        let mut map = null_mut();
        assert_eq!(
            tierpath_map_from_cells(SIDE, SIDE, cells.as_ptr(), null(), &mut map),
            Ok
        );
        let mut cache = null_mut();
        assert_eq!(tierpath_cache_new(&mut cache), Ok);
        for (code, polish, decided) in [
            (0, Polish::Auto, 1),
            (1, Polish::Always, 1),
            (2, Polish::Never, 2),
        ] {
            let rust = HierarchyBuilder::new()
                .polish(polish)
                .build(grid.clone())
                .unwrap();
            let mut settings = std::mem::zeroed();
            assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
            assert_eq!(settings.polish, 0, "auto by default");
            settings.polish = code;
            let mut h = null_mut();
            assert_eq!(tierpath_hierarchy_build(map, &settings, &mut h), Ok);
            let mut stats = std::mem::zeroed();
            assert_eq!(tierpath_hierarchy_stats(h, &mut stats), Ok);
            let stats: TierpathStats = stats;
            assert_eq!(stats.polish, decided, "polish {code}");
            let mut got_all = Vec::new();
            for (s, g) in ends {
                let want = rust.find_path(&mut rc, s, g).unwrap().path.unwrap();
                let (status, got, info) = answer(h, cache, s, g, &options);
                assert_eq!(status, Ok);
                assert_eq!(
                    (&got[..], info.cost),
                    (&want.cells[..], want.cost.0),
                    "polish {code}"
                );
                got_all.push(got);
            }
            paths.push(got_all);
            assert_eq!(tierpath_hierarchy_free(h), Ok);
        }
        // The choice matters on this map: polishing changes some path.
        assert_eq!(paths[0], paths[1], "auto polishes scattered obstacles");
        assert_ne!(paths[1], paths[2], "never polishing gives other paths");

        let mut settings = std::mem::zeroed();
        assert_eq!(tierpath_build_settings_default(&mut settings), Ok);
        let mut settings: TierpathBuildSettings = settings;
        settings.polish = 3;
        let mut bad = null_mut();
        assert_eq!(
            tierpath_hierarchy_build(map, &settings, &mut bad),
            InvalidArgument
        );
        assert!(bad.is_null());
        let message = std::ffi::CStr::from_ptr(tierpath_last_error());
        assert!(
            message.to_str().unwrap().contains("polish 3"),
            "{message:?}"
        );
        assert_eq!(tierpath_cache_free(cache), Ok);
        assert_eq!(tierpath_map_free(map), Ok);
    }
}
