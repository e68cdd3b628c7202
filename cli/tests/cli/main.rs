//! End-to-end tests of the `tierpath` binary, one test binary: every
//! subcommand on small maps (and real scenarios when `../shared/movingai` is
//! present), and clean failures, never a panic, on bad input.

#[path = "../../../tests/common/mod.rs"]
mod common;
mod support;

mod basics;
mod bench_render;
mod preprocess;
mod runtime;
mod scenarios;
mod sized;
