//! Map generators (owned by the mapgen helper; being written).
