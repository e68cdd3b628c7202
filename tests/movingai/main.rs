//! Integration tests on the real Moving AI benchmark maps (read from
//! `../shared/movingai`, never copied into the repository), one binary.

#[path = "../common/mod.rs"]
mod common;

mod dynamic;
mod flat;
mod hpa;
mod jps;
