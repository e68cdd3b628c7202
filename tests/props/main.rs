//! Property tests on random maps, one binary (each test binary costs a link
//! at opt-level 3): every search and the hierarchy against plain reference
//! searches, with shrunk failures printed as ASCII maps.

#[path = "../common/mod.rs"]
mod common;

mod contraction;
mod flat;
mod hpa;
mod jps;
mod nearest;
mod parse_fuzz;
mod partial;
mod preprocess;
mod sized;
mod sliced;
