//! Hierarchies built for several unit sizes, saved and loaded: a file loads
//! back into the same hierarchy (same products, same stats, same answers
//! for every size), and each size annotation or setting forged on its own
//! is refused with an error naming it.

use super::forge::{resort, weigh};
use super::tests::rejection;
use super::*;
use crate::mapgen::{MapKind, MapParams, generate_with};
use crate::preprocess::SizeTransitions;
use crate::{Movement, Point, QueryCache, QueryOptions, validate_sized_path};

/// A map with open ground and scattered walls (clearances 1 to 3 and more)
/// built for sizes up to 3 with 8-cell clusters.
fn sample(max: u32) -> Hierarchy {
    let grid = Grid::from_fn(48, 40, |p| (p.x * 7 + p.y * 13) % 23 != 0).unwrap();
    Hierarchy::builder()
        .cluster_size(8)
        .max_unit_size(max)
        .build(grid)
        .unwrap()
}

/// Every fourth cell where a unit of `size` fits.
fn fitting(h: &Hierarchy, size: u32) -> Vec<Point> {
    let grid = h.grid();
    let clearance = &h.sizes().expect("built for several sizes").clearance;
    (0..grid.len() as u32)
        .map(|i| grid.point_of(crate::CellIndex(i)))
        .filter(|p| clearance[grid.node(*p).index()] as u32 >= size)
        .step_by(4)
        .collect()
}

/// Asserts `back` answers every query for every size as `h` does, with
/// paths legal for the size; returns how many paths of sizes above 1 it
/// found.
fn same_answers(h: &Hierarchy, back: &Hierarchy, what: &str) -> usize {
    let mut cache = QueryCache::new();
    let mut found = 0;
    for size in 1..=h.max_unit_size() {
        let cells = fitting(h, size);
        let options = QueryOptions::new().unit_size(size);
        let pairs = cells.iter().zip(cells.iter().rev().skip(cells.len() / 3));
        for (s, t) in pairs.step_by(7).take(12) {
            let a = h.find_path_with(&mut cache, *s, *t, &options).unwrap();
            let b = back.find_path_with(&mut cache, *s, *t, &options).unwrap();
            assert_eq!(a.path, b.path, "{what}, size {size}: {s} -> {t}");
            if let Some(p) = &b.path {
                validate_sized_path(p, back.grid(), back.movement(), size).unwrap();
                found += (size > 1) as usize;
            }
            assert_eq!(
                h.reachable(*s, *t, size).unwrap(),
                back.reachable(*s, *t, size).unwrap()
            );
        }
        if let (Some(s), true) = (cells.first(), cells.len() > 8) {
            let targets = &cells[cells.len() - 8..];
            let a = h.nearest_with(&mut cache, *s, targets, &options).unwrap();
            let b = back
                .nearest_with(&mut cache, *s, targets, &options)
                .unwrap();
            let path = |n: Option<crate::Nearest>| n.map(|n| n.path);
            assert_eq!(path(a.nearest), path(b.nearest), "{what}, size {size}");
        }
    }
    found
}

#[test]
fn sized_hierarchies_load_back_identical() {
    let wide = MapParams {
        corridor_width: 3,
        room_size: 10,
        ..MapParams::default()
    };
    let kinds = [
        MapKind::Maze,
        MapKind::Rooms,
        MapKind::Caves,
        MapKind::Random,
    ];
    let (mut n, mut found) = (0, 0);
    for (r, m) in Movement::every_rule().into_iter().enumerate() {
        for (i, kind) in kinds.into_iter().enumerate() {
            let seed = (r * kinds.len() + i) as u64;
            let mut grid = generate_with(kind, 40, 32, 31 + seed, &wide).unwrap();
            if seed.is_multiple_of(3) {
                weigh(&mut grid, seed);
            }
            let max = 2 + (seed % 2) as u32;
            let larger = [SizeTransitions::Ends, SizeTransitions::One][i % 2];
            let h = Hierarchy::builder()
                .cluster_size(8)
                .movement(m)
                .max_unit_size(max)
                .larger_sizes(larger)
                .build(grid)
                .unwrap();
            let what = format!("{kind:?}, rule {r}, sizes 1..={max}");
            let bytes = h.to_bytes();
            let back = Hierarchy::from_bytes(h.grid().clone(), &bytes).unwrap();
            assert_eq!(back.to_bytes(), bytes, "{what}");
            assert_eq!(back.settings, h.settings, "{what}");
            assert_eq!(back.entrances, h.entrances, "{what}");
            assert_eq!(back.graph, h.graph, "{what}");
            assert_eq!(back.dead_ends, h.dead_ends, "{what}");
            assert_eq!(back.landmarks, h.landmarks, "{what}");
            assert_eq!(back.stats(), h.stats(), "{what}");
            assert_eq!(back.max_unit_size(), max, "{what}");
            assert_eq!(
                back.sizes().map(|s| &s.clearance),
                h.sizes().map(|s| &s.clearance)
            );
            found += same_answers(&h, &back, &what);
            n += 1;
        }
    }
    assert_eq!(n, 20);
    // The queries compared found paths for the larger sizes.
    assert!(found > 100, "{found} paths for sizes above 1");
}

#[test]
fn files_of_every_size_load_from_a_file() {
    let dir = std::env::temp_dir().join(format!("tierpath-sized-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for max in [1, 3] {
        let h = sample(max);
        let path = dir.join(format!("{max}.tph"));
        h.save_file(&path).unwrap();
        let back = Hierarchy::load_file(h.grid().clone(), &path).unwrap();
        assert_eq!(back.to_bytes(), h.to_bytes());
        assert_eq!(back.stats(), h.stats());
        assert_eq!(back.max_unit_size(), max);
        let summary = Hierarchy::inspect_file(&path).unwrap();
        assert_eq!(summary.settings, *h.settings());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_of_the_previous_version_is_named() {
    let mut bytes = sample(2).to_bytes();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION - 1).to_le_bytes());
    match Hierarchy::from_bytes(sample(2).grid().clone(), &bytes) {
        Err(e @ LoadError::Version { found, supported }) => {
            assert_eq!((found, supported), (FORMAT_VERSION - 1, FORMAT_VERSION));
            assert!(e.to_string().contains("is not supported"));
        }
        other => panic!("expected a version error, got {:?}", other.map(|_| ())),
    }
}

/// The first edge (node, edge) that `pick` accepts.
fn find_edge(h: &Hierarchy, pick: impl Fn(u32, u32, usize) -> bool) -> (usize, usize) {
    (0..h.entrances.cells.len() as u32)
        .flat_map(|v| h.graph.out_edges(v).map(move |(w, _, e)| (v, w, e)))
        .find(|(v, w, e)| pick(*v, *w, *e))
        .map(|(v, _, e)| (v as usize, e))
        .expect("the sample has such an edge")
}

#[test]
fn each_forged_size_annotation_is_named() {
    let h = sample(3);
    let clear = &h.entrances.clear;
    let inter = |v: u32, w: u32| {
        h.layout().cluster_of(h.node_points[v as usize])
            != h.layout().cluster_of(h.node_points[w as usize])
    };

    let mut f = h.clone();
    let v = clear.iter().position(|c| *c < 3).unwrap();
    f.entrances.clear[v] += 1;
    assert!(rejection(&f, false).contains(&format!("transition {v} claims size")));

    let mut f = h.clone();
    let l = h.entrances.link_clear.iter().position(|c| *c > 1).unwrap();
    f.entrances.link_clear[l] -= 1;
    assert!(rejection(&f, false).contains(&format!("link {l} claims size")));

    for bad in [0, 4] {
        let mut f = h.clone();
        f.graph.edge_clear[0] = bad;
        assert!(rejection(&f, false).contains("outside 1..=3"), "{bad}");
    }

    // More than an end admits.
    let (v, e) = find_edge(&h, |v, w, _| clear[v as usize].min(clear[w as usize]) < 3);
    let mut f = h.clone();
    let (a, b) = (v, f.graph.edge_to[e] as usize);
    f.graph.edge_clear[e] = clear[a].min(clear[b]) + 1;
    resort(&mut f.graph, v);
    assert!(rejection(&f, false).contains("more than one of its ends admits"));

    // A node's edges out of order.
    let (v, _) = find_edge(&h, |v, _, e| {
        let last = h.graph.edge_first[v as usize + 1] as usize - 1;
        h.graph.edge_clear[e] > h.graph.edge_clear[last]
    });
    let mut f = h.clone();
    let (first, last) = (
        h.graph.edge_first[v] as usize,
        h.graph.edge_first[v + 1] as usize - 1,
    );
    f.graph.edge_clear.swap(first, last);
    f.graph.edge_to.swap(first, last);
    let mut costs: Vec<u64> = (0..h.graph.edges())
        .map(|e| h.graph.edge_cost.get(e))
        .collect();
    costs.swap(first, last);
    f.graph.edge_cost = crate::packed::Column64::pack(costs);
    let msg = rejection(&f, false);
    assert!(
        msg.contains(&format!("edges of transition {v} are not sorted")),
        "{msg}"
    );

    // An edge between clusters serving less than its link admits.
    let (v, e) = find_edge(&h, |v, w, e| inter(v, w) && h.graph.edge_clear[e] > 1);
    let mut f = h.clone();
    f.graph.edge_clear[e] -= 1;
    resort(&mut f.graph, v);
    assert!(rejection(&f, false).contains("but its link admits size"));

    // The annotation arrays of the wrong length.
    let mut f = h.clone();
    f.entrances.clear.pop();
    assert!(rejection(&f, false).contains("transition sizes: "));
    let mut f = h.clone();
    f.graph.edge_clear.push(1);
    assert!(rejection(&f, false).contains("edge sizes claims length"));

    // Stored moves where the settings keep none.
    let mut f = h.clone();
    f.settings.keep_paths = false;
    assert!(rejection(&f, false).contains("stored paths in a file saved without keep_paths"));

    // The settings: another largest size or placement changes what the
    // map gives.
    for max in [0, 1, 2, 4] {
        let mut f = h.clone();
        f.settings.max_unit_size = max;
        rejection(&f, false);
    }
    let mut f = h.clone();
    f.settings.larger_sizes = SizeTransitions::One;
    assert!(rejection(&f, false).contains("differ from those the settings place"));
}

#[test]
fn an_edge_serving_a_size_its_cluster_cannot_join_is_named() {
    // Two 8x8 clusters; a wall across row 3 with a one-cell gap at (0, 3):
    // in the left cluster the rows above and below it are joined for size
    // 1 only, but transitions on both sides fit a unit of size 2. Without
    // stored moves the components of size 2 refuse the edge; with them, its
    // moves (through the gap) are illegal for size 2.
    let grid = Grid::from_fn(16, 8, |p| p.y != 3 || p.x == 0).unwrap();
    for keep in [false, true] {
        let h = Hierarchy::builder()
            .cluster_size(8)
            .max_unit_size(2)
            .keep_paths(keep)
            .build(grid.clone())
            .unwrap();
        let msg = forged_across_the_gap(&h);
        let want = match keep {
            false => "not joined inside their cluster for a unit of size 2",
            true => "makes an illegal move",
        };
        assert!(msg.contains(want), "{msg}");
    }
}

/// The rejection of `h` with an edge through the gap annotated for size 2.
fn forged_across_the_gap(h: &Hierarchy) -> String {
    let clear = &h.entrances.clear;
    let at = |v: u32| h.node_points[v as usize];
    let (v, e) = find_edge(h, |v, w, _| {
        let (a, b) = (at(v), at(w));
        a.x < 8
            && b.x < 8
            && (a.y < 3) != (b.y < 3)
            && clear[v as usize].min(clear[w as usize]) == 2
    });
    assert_eq!(h.graph.edge_clear[e], 1);
    let mut f = h.clone();
    f.graph.edge_clear[e] = 2;
    resort(&mut f.graph, v);
    rejection(&f, false)
}
