//! The checked-in header `include/tierpath.h` is exactly what cbindgen
//! generates from this crate. `TIERPATH_BLESS=1` writes it instead.

use std::path::Path;

#[test]
fn checked_in_header_is_fresh() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml parses");
    let bindings = cbindgen::Builder::new()
        .with_crate(crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header");
    let mut fresh = Vec::new();
    bindings.write(&mut fresh);
    let fresh = String::from_utf8(fresh).expect("the header is UTF-8");
    let header = crate_dir.join("../include/tierpath.h");
    if std::env::var_os("TIERPATH_BLESS").is_some() {
        std::fs::write(&header, &fresh).expect("write include/tierpath.h");
        return;
    }
    let checked_in = std::fs::read_to_string(&header).unwrap_or_default();
    if checked_in != fresh {
        let line = checked_in
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| checked_in.lines().count().min(fresh.lines().count()));
        panic!(
            "include/tierpath.h differs from a fresh cbindgen run (first difference at line {}); \
             regenerate it with TIERPATH_BLESS=1 cargo test --release -p tierpath-ffi --test ffi header",
            line + 1
        );
    }
}
