//! Peers benchmark (in progress).
fn main() {}
