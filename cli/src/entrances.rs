//! The `--entrances` option of the commands that build hierarchies.

use tierpath::{EntrancePolicy, HierarchyBuilder};

/// Where transitions go along the entrances between clusters (see
/// `tierpath::EntrancePolicy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EntrancesArg {
    /// At the ends of entrances only on maps of 768x768 cells or more where
    /// a fifth of the clusters hold no wall (a smaller graph: faster queries
    /// and builds, paths a little longer), spaced on the others.
    #[default]
    Auto,
    /// At both ends and at most 8 cells apart, on every map: the closest
    /// paths.
    Spaced,
    /// At both ends only, on every map.
    Ends,
}

impl EntrancesArg {
    /// `builder` with this choice (`auto` leaves it to the build).
    pub fn apply(self, builder: HierarchyBuilder) -> HierarchyBuilder {
        match self {
            EntrancesArg::Auto => builder,
            EntrancesArg::Spaced => builder.entrance_policy(EntrancePolicy::default()),
            EntrancesArg::Ends => builder.entrance_policy(EntrancePolicy::ENDS),
        }
    }
}
