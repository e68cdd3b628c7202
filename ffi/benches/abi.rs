//! The cost of the C ABI: the same queries answered by the Rust call
//! (`Hierarchy::find_path`) and through the C functions (`tierpath_find_path`
//! into a caller buffer, and `tierpath_find_path_handle`, reading the cells
//! and freeing the handle), on `data/default.map` or the map in
//! `TIERPATH_BENCH_MAP`. Setup (map, hierarchy, handles, 200 reachable
//! queries) is outside the timing. After criterion's report, one plain line
//! gives the ratio of each C path to the Rust call, from interleaved whole
//! passes (the median of 15).
//!
//! `cargo bench -p tierpath-ffi --bench abi`

use std::hint::black_box;
use std::ptr::{null, null_mut};
use std::time::Instant;

use criterion::{Criterion, criterion_group};
use tierpath::{Hierarchy, Point, QueryCache, io};
use tierpath_ffi::*;

struct Setup {
    label: String,
    h: Hierarchy,
    ch: *mut TierpathHierarchy,
    cache: *mut TierpathCache,
    queries: Vec<(Point, Point)>,
}

fn setup() -> Setup {
    let path = std::env::var("TIERPATH_BENCH_MAP").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../data/default.map").to_string()
    });
    let grid = io::read_grid(&path).expect("the map reads");
    let h = Hierarchy::build(grid.clone()).expect("builds");
    let open: Vec<Point> = grid.passable_points().collect();
    let mut queries = Vec::new();
    let mut i = 0usize;
    while queries.len() < 200 {
        let (s, g) = (
            open[(i * 7919) % open.len()],
            open[(i * 104_729 + 13) % open.len()],
        );
        i += 1;
        if h.same_island(s, g) {
            queries.push((s, g));
        }
    }
    // The C side loads the same map through the C ABI.
    let cpath = std::ffi::CString::new(path.clone()).expect("no NUL in the path");
    let (mut map, mut ch, mut cache) = (null_mut(), null_mut(), null_mut());
    unsafe {
        assert_eq!(
            tierpath_map_load(cpath.as_ptr(), &mut map),
            TierpathStatus::Ok
        );
        assert_eq!(
            tierpath_hierarchy_build(map, null(), &mut ch),
            TierpathStatus::Ok
        );
        assert_eq!(tierpath_cache_new(&mut cache), TierpathStatus::Ok);
        assert_eq!(tierpath_map_free(map), TierpathStatus::Ok);
    }
    let label = std::path::Path::new(&path)
        .file_name()
        .map_or(path.clone(), |f| f.to_string_lossy().into_owned());
    Setup {
        label,
        h,
        ch,
        cache,
        queries,
    }
}

fn c_point(p: Point) -> TierpathPoint {
    TierpathPoint { x: p.x, y: p.y }
}

fn rust_pass(s: &Setup, cache: &mut QueryCache) -> u64 {
    let mut total = 0;
    for &(a, b) in &s.queries {
        let out = s.h.find_path(cache, a, b).expect("valid query");
        total += out.path.map_or(0, |p| p.cost.0 + p.cells.len() as u64);
    }
    total
}

fn c_buffer_pass(s: &Setup, buf: &mut [TierpathPoint]) -> u64 {
    let mut total = 0;
    for &(a, b) in &s.queries {
        let mut info = std::mem::MaybeUninit::<TierpathPathInfo>::uninit();
        let status = unsafe {
            tierpath_find_path(
                s.ch,
                s.cache,
                c_point(a),
                c_point(b),
                null(),
                buf.as_mut_ptr(),
                buf.len(),
                info.as_mut_ptr(),
            )
        };
        assert_eq!(status, TierpathStatus::Ok);
        let info = unsafe { info.assume_init() };
        total += info.cost + info.cells;
    }
    total
}

fn c_handle_pass(s: &Setup, buf: &mut [TierpathPoint]) -> u64 {
    let mut total = 0;
    for &(a, b) in &s.queries {
        let mut path = null_mut();
        let mut info = std::mem::MaybeUninit::<TierpathPathInfo>::uninit();
        let mut n = 0usize;
        unsafe {
            let status =
                tierpath_find_path_handle(s.ch, s.cache, c_point(a), c_point(b), null(), &mut path);
            assert_eq!(status, TierpathStatus::Ok);
            assert_eq!(
                tierpath_path_info(path, info.as_mut_ptr()),
                TierpathStatus::Ok
            );
            let copied = tierpath_path_cells(path, buf.as_mut_ptr(), buf.len(), &mut n);
            assert_eq!(copied, TierpathStatus::Ok);
            assert_eq!(tierpath_path_free(path), TierpathStatus::Ok);
            total += info.assume_init().cost + n as u64;
        }
    }
    total
}

fn bench(c: &mut Criterion) {
    let s = setup();
    let mut cache = QueryCache::new();
    let mut buf = vec![TierpathPoint::default(); 1 << 20];
    let expected = rust_pass(&s, &mut cache);
    assert_eq!(
        c_buffer_pass(&s, &mut buf),
        expected,
        "same costs and lengths"
    );
    assert_eq!(c_handle_pass(&s, &mut buf), expected);

    let mut group = c.benchmark_group(format!("abi/{}", s.label));
    group.sample_size(20);
    group.bench_function("rust find_path", |b| {
        b.iter(|| black_box(rust_pass(&s, &mut cache)))
    });
    group.bench_function("C tierpath_find_path (buffer)", |b| {
        b.iter(|| black_box(c_buffer_pass(&s, &mut buf)))
    });
    group.bench_function("C tierpath_find_path_handle", |b| {
        b.iter(|| black_box(c_handle_pass(&s, &mut buf)))
    });
    group.finish();

    // Interleaved passes: the ratios under the same machine load.
    let (mut rust, mut cbuf, mut chandle) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..15 {
        let t = Instant::now();
        black_box(rust_pass(&s, &mut cache));
        rust.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(c_buffer_pass(&s, &mut buf));
        cbuf.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        black_box(c_handle_pass(&s, &mut buf));
        chandle.push(t.elapsed().as_secs_f64());
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (r, b, h) = (median(&mut rust), median(&mut cbuf), median(&mut chandle));
    let per = |t: f64| t / s.queries.len() as f64 * 1e6;
    println!(
        "abi {}: {} queries; per query: Rust {:.2} us, C buffer {:.2} us ({:.3}x), \
         C handle {:.2} us ({:.3}x)",
        s.label,
        s.queries.len(),
        per(r),
        per(b),
        b / r,
        per(h),
        h / r
    );
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
