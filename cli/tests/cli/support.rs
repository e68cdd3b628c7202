//! Helpers for the tests that run the `tierpath` binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use tierpath::{Grid, Point};

/// Runs the built binary with `args`.
pub fn tierpath(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tierpath"))
        .args(args)
        .output()
        .expect("run tierpath")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch folder for one test (named after the test crate and `name`).
pub fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", env!("CARGO_CRATE_NAME")));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as `&str`.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The last line of stdout as JSON.
pub fn last_json(o: &Output) -> serde_json::Value {
    let out = stdout(o);
    let line = out.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("last line is not JSON ({e}): {out}"))
}

/// Asserts success, showing both streams otherwise.
pub fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "failed: {}\nstdout: {}",
        stderr(o),
        stdout(o)
    );
}

/// Asserts a clean failure: non-zero exit, a message containing `needle`
/// (case-insensitive), no panic.
pub fn assert_fails(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "expected failure, got success: {err}");
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "stderr lacks {needle:?}: {err}"
    );
}

/// One Moving AI scenario line.
pub fn scen_line(map: &str, grid: &Grid, s: Point, g: Point, optimal: f64) -> String {
    format!(
        "{}\t{map}\t{}\t{}\t{}\t{}\t{}\t{}\t{optimal:.8}\n",
        (optimal / 4.0) as u32,
        grid.width(),
        grid.height(),
        s.x,
        s.y,
        g.x,
        g.y
    )
}
