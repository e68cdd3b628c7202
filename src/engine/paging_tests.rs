//! The paged scratch against the flat one: the same searches on random maps
//! give the same paths, costs, counters and cell states, and a short search on
//! a large map holds a few pages, not a record per cell.

use proptest::prelude::*;

use super::SearchCache;
use crate::grid::{Grid, Movement, Point};
use crate::search::{AStar, Dijkstra};

/// A cache that pages every space (a page is 1,024 nodes, so a small map
/// spans several pages and most searches cross page boundaries).
fn paged() -> SearchCache {
    SearchCache::with_flat_limit(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A* and Dijkstra (path, nearest target) on a random map, with a few
    /// searches in a row on one cache: the flat and paged caches agree on
    /// every outcome and on what the last search left in every cell.
    #[test]
    fn paged_scratch_gives_the_flat_results(
        w in 1u32..90,
        h in 1u32..90,
        density in 0u32..45,
        seed in any::<u64>(),
        ends in proptest::collection::vec((0u32..90, 0u32..90, 0u32..90, 0u32..90), 1..5),
        four in any::<bool>(),
    ) {
        let mut x = seed | 1;
        let g = Grid::from_fn(w, h, |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % 100 >= u64::from(density)
        })
        .unwrap();
        let m = if four { Movement::FOUR } else { Movement::default() };
        let (mut flat, mut paged) = (SearchCache::new(), paged());
        let cells: Vec<Point> = g.passable_points().collect();
        prop_assume!(!cells.is_empty());
        let pick = |a: u32, b: u32| cells[(a as usize * 97 + b as usize) % cells.len()];
        for (a, b, c, d) in ends {
            let (s, t) = (pick(a, b), pick(c, d));
            let astar = AStar::new(&g).movement(m);
            let one = astar.find_path(&mut flat, s, t).unwrap();
            let two = astar.find_path(&mut paged, s, t).unwrap();
            prop_assert_eq!(&one.path, &two.path);
            prop_assert_eq!(one.stats, two.stats);
            let dijkstra = Dijkstra::new(&g).movement(m);
            let targets = [t, pick(d, a), pick(b, c)];
            let one = dijkstra.nearest(&mut flat, s, &targets).unwrap();
            let two = dijkstra.nearest(&mut paged, s, &targets).unwrap();
            prop_assert_eq!(
                one.0.map(|n| (n.target, n.path)),
                two.0.map(|n| (n.target, n.path))
            );
            prop_assert_eq!(one.1, two.1);
            for p in (0..h).flat_map(|y| (0..w).map(move |x| Point::new(x, y))) {
                prop_assert_eq!(flat.cell_state(&g, p), paged.cell_state(&g, p));
            }
        }
        prop_assert!(paged.nodes.paged() && !flat.nodes.paged());
    }
}

#[test]
fn a_short_search_on_a_large_map_holds_a_few_pages() {
    // 4,096 x 4,096: a record per padded cell would be 16 bytes times 16.8
    // million; a 50-cell query touches a few rows of pages (and the page
    // tables, 4 bytes per 1,024 cells each).
    let g = Grid::new(4096, 4096).unwrap();
    let mut cache = SearchCache::new();
    let out = AStar::new(&g)
        .find_path(&mut cache, Point::new(2000, 2000), Point::new(2050, 2020))
        .unwrap();
    assert_eq!(out.path.map(|p| p.cells.len()), Some(51));
    let flat_bytes = g.padded_len() * 16;
    assert!(
        cache.memory_bytes() < flat_bytes / 100,
        "{} bytes of scratch for a 50-cell query ({flat_bytes} flat)",
        cache.memory_bytes()
    );
    // A small map stays flat: one array, sized to the map.
    let small = Grid::new(64, 64).unwrap();
    AStar::new(&small)
        .find_path(&mut cache, Point::new(0, 0), Point::new(63, 63))
        .unwrap();
    assert!(!cache.nodes.paged());
}
