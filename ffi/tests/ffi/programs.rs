//! The C ABI from the other side: the C program (`examples/c/check.c`), the
//! C++ one through `include/tierpath.hpp`, and the C# binding's program
//! (`bindings/csharp/Check.cs`, Mono) are compiled against the header and the
//! library cargo built for this test, run on `data/default.map`, and every
//! path they print is checked here against the Rust API: legal moves, the
//! stated cost, the same cost as `Hierarchy::find_path`. Each program also
//! asks for one path for a unit larger than one cell (`sized K path ...`),
//! checked by the footprint rule and against `find_path_with` for the size
//! on a hierarchy built for sizes 1 to K.

use std::path::{Path, PathBuf};
use std::process::Command;

use tierpath::{
    Grid, Hierarchy, HierarchyBuilder, Point, QueryCache, QueryOptions, io, validate_sized_path,
};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("ffi/ sits in the workspace")
        .to_path_buf()
}

/// The directory holding the `libtierpath_ffi.a` / `.so` cargo built with
/// this test binary (its own `deps/` directory).
fn artifacts() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe.parent().expect("deps/").to_path_buf();
    for name in ["libtierpath_ffi.a", "libtierpath_ffi.so"] {
        assert!(
            dir.join(name).exists(),
            "{name} is not in {}: build the workspace with `cargo test --release` at the root \
             (or `cargo build --release -p tierpath-ffi`)",
            dir.display()
        );
    }
    dir
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn map_path() -> PathBuf {
    root().join("data/default.map")
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {cmd:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stderr}\n{}",
        out.status,
        stdout.lines().rev().take(5).collect::<Vec<_>>().join("\n")
    );
    stdout
}

/// Compiles a C or C++ program against the header and the static library.
fn compile(compiler: &str, std: &str, source: &str, name: &str) -> PathBuf {
    let root = root();
    let exe = scratch(name).join(name);
    let mut cmd = Command::new(compiler);
    cmd.arg(format!("-std={std}"))
        .args(["-Wall", "-Wextra", "-Werror", "-O1"])
        .arg(format!("-I{}", root.join("include").display()))
        .arg(root.join(source))
        .arg(artifacts().join("libtierpath_ffi.a"))
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe);
    run(&mut cmd, &format!("compiling {source} with {compiler}"));
    exe
}

/// Checks every `path` line against the Rust API; returns how many, and
/// how many `sized` lines (for units larger than one cell) there were.
fn check_paths(output: &str) -> (usize, usize) {
    let grid: Grid = io::read_map(map_path()).expect("data/default.map reads");
    let h = Hierarchy::build(grid.clone()).expect("builds");
    let mut cache = QueryCache::new();
    let (mut count, mut sized) = (0, 0);
    for line in output.lines() {
        let (size, rest) = match line.strip_prefix("sized ") {
            Some(rest) => {
                let (k, rest) = rest.split_once(' ').expect("sized K path ...");
                (k.parse::<u32>().expect("a size"), rest)
            }
            None => (1, line),
        };
        let Some(rest) = rest.strip_prefix("path ") else {
            continue;
        };
        let n: Vec<u64> = rest
            .split_whitespace()
            .map(|w| w.parse().expect("numbers"))
            .collect();
        let (start, goal) = (
            Point::new(n[0] as u32, n[1] as u32),
            Point::new(n[2] as u32, n[3] as u32),
        );
        let (cost, cells) = (n[4], n[5] as usize);
        assert_eq!(n.len(), 6 + 2 * cells, "{line}");
        let path = tierpath::Path {
            cells: n[6..]
                .chunks(2)
                .map(|c| Point::new(c[0] as u32, c[1] as u32))
                .collect(),
            cost: tierpath::Cost(cost),
        };
        assert_eq!(path.start(), Some(start));
        assert_eq!(path.goal(), Some(goal));
        if size > 1 {
            validate_sized_path(&path, &grid, h.movement(), size)
                .unwrap_or_else(|e| panic!("size {size}: {start} -> {goal}: {e}"));
            let hk = HierarchyBuilder::new()
                .max_unit_size(size)
                .build(grid.clone())
                .expect("builds");
            let options = QueryOptions::new().unit_size(size);
            let rust = hk
                .find_path_with(&mut cache, start, goal, &options)
                .expect("valid query")
                .path
                .expect("reachable in Rust too");
            assert_eq!(
                path.cost, rust.cost,
                "size {size}: {start} -> {goal}: cost differs"
            );
            sized += 1;
            continue;
        }
        path.validate(h.grid(), h.movement())
            .unwrap_or_else(|e| panic!("{start} -> {goal}: {e}"));
        let rust = h
            .find_path(&mut cache, start, goal)
            .expect("valid query")
            .path
            .expect("reachable in Rust too");
        assert_eq!(path.cost, rust.cost, "{start} -> {goal}: cost differs");
        count += 1;
    }
    (count, sized)
}

fn compiler(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.to_string())
}

#[test]
fn c_program_answers_as_rust_and_reports_bad_input() {
    let exe = compile(
        &compiler("CC", "cc"),
        "c99",
        "examples/c/check.c",
        "check-c",
    );
    let out = run(
        Command::new(&exe).arg(map_path()).arg(scratch("check-c")),
        "the C program",
    );
    assert!(
        out.contains("C checks:") && out.contains(", 0 failed"),
        "{out}"
    );
    let (paths, sized) = check_paths(&out);
    assert!(paths >= 10 && sized == 1, "too few paths checked:\n{out}");
}

#[test]
fn cpp_program_answers_as_rust_and_reports_bad_input() {
    let exe = compile(
        &compiler("CXX", "c++"),
        "c++17",
        "examples/c/check.cpp",
        "check-cpp",
    );
    let out = run(
        Command::new(&exe).arg(map_path()).arg(scratch("check-cpp")),
        "the C++ program",
    );
    assert!(out.contains("C++ checks: 0 failed"), "{out}");
    let (paths, sized) = check_paths(&out);
    assert!(paths >= 8 && sized == 1, "too few paths checked:\n{out}");
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn csharp_binding_answers_as_rust_and_reports_bad_input() {
    if !(have("mcs") && have("mono")) {
        if std::env::var("TIERPATH_SKIP_CSHARP").is_ok_and(|v| v == "1") {
            eprintln!("NOTICE: C# binding test skipped (TIERPATH_SKIP_CSHARP=1)");
            return;
        }
        panic!(
            "the C# binding test needs Mono: apt-get update && apt-get install -y mono-mcs \
             mono-runtime (bash .ci/run installs them), or set TIERPATH_SKIP_CSHARP=1 to skip"
        );
    }
    let dir = scratch("check-cs");
    let exe = dir.join("check.exe");
    let cs = root().join("bindings/csharp");
    run(
        Command::new("mcs")
            .arg(format!("-out:{}", exe.display()))
            .arg(cs.join("Tierpath.cs"))
            .arg(cs.join("Check.cs")),
        "compiling the C# binding with mcs",
    );
    let lib = artifacts();
    let search = match std::env::var("LD_LIBRARY_PATH") {
        Ok(old) if !old.is_empty() => format!("{}:{old}", lib.display()),
        _ => lib.display().to_string(),
    };
    let out = run(
        Command::new("mono")
            .arg(&exe)
            .arg(map_path())
            .arg(&dir)
            .env("LD_LIBRARY_PATH", search),
        "the C# program under mono",
    );
    assert!(out.contains("C# checks: 0 failed"), "{out}");
    let (paths, sized) = check_paths(&out);
    assert!(paths >= 6 && sized == 1, "too few paths checked:\n{out}");
}
