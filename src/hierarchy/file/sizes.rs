//! The transitions of a hierarchy built for several unit sizes, checked
//! against the map: recomputed by the sized entrance stage from the map's
//! clearance (rebuilt at load, never read from the file) and compared whole,
//! with the size each transition and link admits. The edges' annotations
//! are checked with the edges (`edges`).

use super::LoadError;
use super::codec::invalid;
use crate::grid::Grid;
use crate::hierarchy::BuildSettings;
use crate::preprocess::sizes::{UnitSizes, find_transitions};
use crate::preprocess::{ClusterLayout, Entrances};

/// The transitions and links are exactly those the settings place on this
/// map for every size up to the largest, each transition's size is its
/// cell's clearance capped at the largest size, and each link's is the
/// largest size whose unit can make its move (a straight move: the smaller
/// of the two cells' capped clearances; a diagonal one: also the side cells'
/// by the corner rule).
pub(super) fn check_sized_entrances(
    grid: &Grid,
    s: &BuildSettings,
    e: &Entrances,
    sizes: &UnitSizes,
) -> Result<(), LoadError> {
    let layout = ClusterLayout::new(grid, s.cluster_size);
    let want = find_transitions(
        grid,
        &sizes.clearance,
        &s.movement,
        layout,
        &s.entrances,
        s.larger_sizes,
        sizes.max,
    );
    if want.cells != e.cells || want.cluster_first != e.cluster_first {
        return Err(invalid(
            "transitions differ from those the settings place on this map for every size",
        ));
    }
    if want.links != e.links || want.entrances != e.entrances {
        return Err(invalid(
            "links differ from those the settings place on this map for every size",
        ));
    }
    let differs = |a: &[u8], b: &[u8]| a.iter().zip(b).position(|(x, y)| x != y);
    if let Some(v) = differs(&e.clear, &want.clear) {
        return Err(invalid(format!(
            "transition {v} claims size {}, but its cell's clearance (capped at {}) is {}",
            e.clear[v], sizes.max, want.clear[v]
        )));
    }
    if let Some(l) = differs(&e.link_clear, &want.link_clear) {
        return Err(invalid(format!(
            "link {l} claims size {}, but its move admits size {}",
            e.link_clear[l], want.link_clear[l]
        )));
    }
    Ok(())
}
