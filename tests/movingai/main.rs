//! Integration tests on the real Moving AI benchmark maps (read from
//! `../shared/movingai`, never copied into the repository), one binary.

#[path = "../common/mod.rs"]
mod common;

mod dynamic;
mod flat;
mod hpa;
mod jps;

/// Fails when the data is absent, unless `TIERPATH_SKIP_MOVINGAI=1`: the
/// other tests of this binary skip their work then, and would otherwise pass
/// silently.
#[test]
fn movingai_data_present() {
    if let Err(why) = common::check_data() {
        panic!("{why}");
    }
}
