use super::*;
use crate::{Dijkstra, Point, SearchCache};

/// Checks size, determinism, passable share and that the largest region
/// (found by flood fill, confirmed by the library's Dijkstra) holds at least
/// `min_largest` of the passable cells.
fn check(kind: MapKind, params: &MapParams, w: u32, h: u32, min_open: f64, min_largest: f64) {
    for seed in [0u64, 1, 42, u64::MAX] {
        let g = generate_with(kind, w, h, seed, params).unwrap();
        assert_eq!((g.width(), g.height()), (w, h), "{kind} size");
        assert_eq!(
            g,
            generate_with(kind, w, h, seed, params).unwrap(),
            "{kind} deterministic"
        );
        let (open, largest) = coverage(&g);
        assert!(
            open >= min_open && open < 0.98,
            "{kind} seed {seed}: {open:.3} passable"
        );
        assert!(
            largest >= min_largest,
            "{kind} seed {seed}: largest region {largest:.3}"
        );

        // Confirm with a distance field from a cell of the largest region.
        let (label, sizes) = regions(&Canvas::from_grid(&g));
        let main = (0..sizes.len()).max_by_key(|&r| sizes[r]).unwrap();
        let i = label.iter().position(|&l| l == main as u32).unwrap();
        let start = Point::new(i as u32 % w, i as u32 / w);
        let field = Dijkstra::new(&g)
            .distance_field(&mut SearchCache::new(), start)
            .unwrap();
        assert_eq!(
            field.reachable(),
            sizes[main],
            "{kind}: flood fill vs Dijkstra"
        );
    }
}

#[test]
fn rooms() {
    let p = MapParams::default();
    check(MapKind::Rooms, &p, 128, 96, 0.80, 1.0);
    let small = MapParams { room_size: 4, ..p };
    check(MapKind::Rooms, &small, 61, 40, 0.60, 1.0);
}

#[test]
fn caves() {
    check(MapKind::Caves, &MapParams::default(), 128, 128, 0.45, 0.75);
    check(MapKind::Caves, &MapParams::default(), 200, 64, 0.45, 0.75);
}

#[test]
fn maze_is_perfect_and_connected() {
    for corridor in [1, 2, 4] {
        let p = MapParams {
            corridor_width: corridor,
            ..MapParams::default()
        };
        check(MapKind::Maze, &p, 101, 77, 0.40, 1.0);
    }
    // A perfect maze of 1-wide corridors: open cells form a tree, so
    // (4-neighbour edges) = (open cells) - 1, and it has many dead ends.
    let g = generate(MapKind::Maze, 81, 81, 3).unwrap();
    let open = |x: i64, y: i64| x >= 0 && y >= 0 && g.is_passable(Point::new(x as u32, y as u32));
    let (mut edges, mut dead_ends) = (0, 0);
    for p in g.passable_points() {
        let (x, y) = (p.x as i64, p.y as i64);
        edges += open(x + 1, y) as usize + open(x, y + 1) as usize;
        let degree = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .iter()
            .filter(|(dx, dy)| open(x + dx, y + dy))
            .count();
        dead_ends += (degree == 1) as usize;
    }
    assert_eq!(edges, g.passable_count() - 1);
    assert!(dead_ends > 100, "{dead_ends} dead ends");
}

#[test]
fn random() {
    check(MapKind::Random, &MapParams::default(), 128, 128, 0.70, 0.90);
    let dense = MapParams {
        obstacle_percent: 10,
        ..MapParams::default()
    };
    check(MapKind::Random, &dense, 64, 64, 0.85, 0.97);
}

#[test]
fn mixed_is_nearly_one_region() {
    check(MapKind::Mixed, &MapParams::default(), 256, 256, 0.50, 0.97);
    check(MapKind::Mixed, &MapParams::default(), 100, 60, 0.45, 0.95);
}

#[test]
fn connect_joins_caves() {
    let p = MapParams {
        connect: true,
        ..MapParams::default()
    };
    check(MapKind::Caves, &p, 128, 128, 0.45, 0.97);
}

#[test]
fn seeds_and_kinds_differ() {
    let a = generate(MapKind::Caves, 64, 64, 1).unwrap();
    let b = generate(MapKind::Caves, 64, 64, 2).unwrap();
    assert_ne!(a, b);
    assert_ne!(
        generate(MapKind::Random, 64, 64, 1).unwrap(),
        generate(MapKind::Random, 64, 64, 2).unwrap()
    );
}

#[test]
fn tiny_and_bad_sizes() {
    for kind in MapKind::ALL {
        for (w, h) in [(1, 1), (1, 9), (9, 1), (3, 3), (17, 16)] {
            let g = generate(kind, w, h, 5).unwrap();
            assert_eq!((g.width(), g.height()), (w, h), "{kind} {w}x{h}");
        }
        assert!(matches!(
            generate(kind, 0, 10, 1),
            Err(GridError::Empty { .. })
        ));
        assert!(matches!(
            generate(kind, MAX_SIDE + 1, 10, 1),
            Err(GridError::TooLarge { .. })
        ));
    }
}

#[test]
fn kind_names_round_trip() {
    for kind in MapKind::ALL {
        assert_eq!(kind.name().parse::<MapKind>(), Ok(kind));
    }
    assert_eq!("Caves".parse::<MapKind>(), Ok(MapKind::Caves));
    assert!("swamp".parse::<MapKind>().is_err());
}
