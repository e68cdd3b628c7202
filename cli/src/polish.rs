//! The `--polish` option of the commands that build hierarchies.

use tierpath::Polish;

/// Whether queries polish their paths (exact searches over short windows of
/// the smoothed path; see `tierpath::Polish`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PolishArg {
    /// Where the map's obstacles are scattered (random obstacle fields).
    #[default]
    Auto,
    /// On every map: the closest paths, at the most time.
    Always,
    /// Smoothing alone.
    Never,
}

impl From<PolishArg> for Polish {
    fn from(p: PolishArg) -> Polish {
        match p {
            PolishArg::Auto => Polish::Auto,
            PolishArg::Always => Polish::Always,
            PolishArg::Never => Polish::Never,
        }
    }
}
