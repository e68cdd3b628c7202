//! The layout of a hierarchy file: the settings and sections after the
//! header, in order, and the largest length each may claim.
//!
//! ```text
//! settings            cluster size u32, connectivity u8, corner rule u8,
//!                     straight u32, diagonal u32, single_below u32,
//!                     max_gap u32, keep_paths u8, landmarks u32,
//!                     max_unit_size u8, larger_sizes u8 (0 Ends, 1 One),
//!                     polish u8 (0 Never, 1 Always; since version 4)
//! dead ends           the cell table in canonical tile form (cells u64,
//!                     per tile its open-cell mask, shared value and mixed
//!                     row, then the mixed rows), block ends and islands,
//!                     island cores and sizes, two counts
//! entrances           transition cells, cluster offsets, links, a count;
//!                     built for several sizes, per transition and per link
//!                     the largest size it admits (bytes)
//! cluster graph       edge offsets, targets, costs, path offsets and moves,
//!                     two counts; built for several sizes, per edge the
//!                     largest size it serves (bytes)
//! landmarks           count, nodes, distances
//! contraction         a tag byte (0 none, 1 contracted; since version 5),
//!                     then the count of query graphs (one per band of unit
//!                     sizes) and each: cost unit u64, search u8, input arcs
//!                     u64, ranks, nodes by rank, elimination tree, the
//!                     forward direction (offsets, targets, costs, make-ups),
//!                     a tag byte and the backward one when it differs, the
//!                     unpack-only directions and their make-ups; integer
//!                     lists of a graph's own width carry it in a byte (2, 4
//!                     or 8) before the array
//! cell landmarks      a tag byte (0 none, 1 present; since version 6),
//!                     then the count u32 and every map cell's distances
//!                     (u32, row-major, a cell's landmarks side by side)
//! stats               the build's per-stage names, times and sizes
//! ```
//!
//! Arrays are `(u64 length, elements)`. Every length is checked against
//! what the map and the settings allow ([`Bounds`]) before the array is
//! allocated. The size annotations are written only when `max_unit_size >
//! 1` (a one-size file is two bytes longer than before them), and their
//! lengths must equal the transitions, links and edges read before them.
//! The contraction is an optional section behind a tag byte (a file without
//! it is one byte longer than a version 4 file); it is checked against the
//! cluster graph once the hierarchy is assembled
//! (`Hierarchy::install_saved_contraction`). The cell landmarks likewise,
//! behind a tag byte, are checked against the map once it is assembled
//! (`Hierarchy::install_saved_guide`).

use super::codec::{Reader, Source, Writer, invalid};
use super::{LoadError, StageStats};
use crate::contraction::{StoredQueryGraph, StoredSide};
use crate::grid::{Connectivity, CornerRule, Movement};
use crate::hierarchy::{BuildSettings, Hierarchy};
use crate::preprocess::{
    ClusterGraph, ClusterLayout, DeadEnds, EntrancePolicy, Entrances, Landmarks, SizeTransitions,
};
use crate::query::Polish;
use crate::search::{MAX_GUIDE_LANDMARKS, SavedGuide};
use crate::tiled::{TILE, TileColumn};

/// Most stages a file may list.
pub(super) const MAX_STAGES: usize = 64;
/// Longest stage name, in bytes.
pub(super) const MAX_STAGE_NAME: usize = 256;
/// Most landmarks.
pub(super) const MAX_LANDMARKS: u32 = 16;
/// Most moves a cell has (eight neighbours).
const MAX_MOVES: usize = 8;
/// Most query graphs a contraction has (one per band of unit sizes, and
/// sizes fit in a byte).
const MAX_CONTRACTION_GRAPHS: usize = 256;

/// Everything a file holds after its header, parsed (not yet checked).
pub(super) type Content = (
    BuildSettings,
    DeadEnds,
    Entrances,
    ClusterGraph,
    Landmarks,
    Option<Vec<StoredQueryGraph>>,
    Option<SavedGuide>,
    Vec<StageStats>,
);

/// Writes the settings and sections of `h` after the header.
pub(super) fn write_content(h: &Hierarchy, w: &mut Writer) {
    let s = &h.settings;
    w.u32(s.cluster_size);
    w.u8(match s.movement.connectivity {
        Connectivity::Four => 4,
        Connectivity::Eight => 8,
    });
    w.u8(match s.movement.corners {
        CornerRule::Never => 0,
        CornerRule::IfOneFree => 1,
        CornerRule::Always => 2,
    });
    w.u32(s.movement.straight);
    w.u32(s.movement.diagonal);
    w.u32(s.entrances.single_below);
    w.u32(s.entrances.max_gap);
    w.u8(s.keep_paths as u8);
    w.u32(s.landmarks);
    w.u8(s.max_unit_size as u8);
    w.u8(match s.larger_sizes {
        SizeTransitions::Ends => 0,
        SizeTransitions::One => 1,
    });
    w.u8(match s.polish {
        Polish::Never => 0,
        Polish::Always => 1,
        // A build decides it; written as a build of this map would.
        Polish::Auto => u8::from(Polish::scattered(h.grid())),
    });
    let sized = s.max_unit_size > 1;

    let d = &h.dead_ends;
    let anchors = d.preorder_anchors();
    w.u64(anchors.len() as u64);
    w.u64s(&anchors.present);
    w.u32s(&anchors.value);
    w.u32s(&anchors.row);
    w.col32(&anchors.rows);
    w.u32s(&d.block_end);
    w.u32s(&d.block_island);
    w.u32s(&d.island_core);
    w.u32s(&d.island_sizes);
    w.u64(d.dead_end_cells);
    w.u64(d.articulation_cells);

    let e = &h.entrances;
    w.u32s(&e.cells);
    w.u32s(&e.cluster_first);
    let links: Vec<u32> = e.links.iter().flat_map(|(a, b)| [*a, *b]).collect();
    w.u32s(&links);
    w.u64(e.entrances);
    if sized {
        w.bytes(&e.clear);
        w.bytes(&e.link_clear);
    }

    let g = &h.graph;
    w.u32s(&g.edge_first);
    w.u32s(&g.edge_to);
    w.col64(&g.edge_cost);
    w.u32s(&g.path_first);
    w.bytes(&g.path_codes);
    w.u64(g.intra_edges);
    w.u64(g.inter_edges);
    if sized {
        w.bytes(&g.edge_clear);
    }

    let l = h.landmarks_to_save();
    w.u32(l.count);
    w.u32s(&l.nodes);
    w.col64(&l.dist);

    match h.contraction_to_save() {
        None => w.u8(0),
        Some(graphs) => {
            w.u8(1);
            w.u64(graphs.len() as u64);
            graphs.iter().for_each(|g| write_query_graph(g, w));
        }
    }

    match h.guide_to_save() {
        None => w.u8(0),
        Some(guide) => {
            w.u8(1);
            w.u32(guide.count);
            w.u32s(&guide.cells);
        }
    }

    w.u64(h.stats.stages.len() as u64);
    for st in &h.stats.stages {
        w.str(&st.name);
        w.f64(st.seconds);
        w.u64(st.bytes);
    }
}

/// Writes one query graph of a contraction.
fn write_query_graph(g: &StoredQueryGraph, w: &mut Writer) {
    w.u64(g.scale);
    w.u8(g.search);
    w.u64(g.input_arcs);
    w.ints(&g.rank);
    w.ints(&g.node_of);
    w.ints(&g.parent);
    let side = |s: &StoredSide, w: &mut Writer| {
        w.u32s(&s.first);
        w.ints(&s.to);
        w.u32s(&s.cost);
        w.ints(&s.how);
    };
    side(&g.fwd, w);
    match &g.bwd {
        None => w.u8(0),
        Some(b) => {
            w.u8(1);
            side(b, w);
        }
    }
    w.ints(&g.extra_keys);
    w.ints(&g.extra_how);
}

/// Reads the contraction section (after its tag byte said one follows) for
/// a cluster graph of `nodes` nodes: its query graphs, each list bounded by
/// what that many ranks allow.
fn parse_contraction<S: Source>(
    r: &mut Reader<S>,
    nodes: usize,
) -> Result<Vec<StoredQueryGraph>, LoadError> {
    // Each direction's edges join two ranks, the lower first.
    let pairs = (nodes as u64 * nodes.saturating_sub(1) as u64 / 2).min(u32::MAX as u64) as usize;
    let count = r.len(1, MAX_CONTRACTION_GRAPHS, "contraction")?;
    let mut graphs = Vec::with_capacity(count);
    for _ in 0..count {
        let scale = r.u64("contraction")?;
        let search = r.u8("contraction")?;
        let input_arcs = r.u64("contraction")?;
        let rank = r.ints_any("contraction ranks", nodes)?;
        let node_of = r.ints_any("contraction nodes by rank", nodes)?;
        let parent = r.ints_any("contraction elimination tree", nodes)?;
        let side = |r: &mut Reader<S>| -> Result<StoredSide, LoadError> {
            Ok(StoredSide {
                first: r.u32s("contraction edge offsets", nodes + 1)?,
                to: r.ints_any("contraction edge targets", pairs)?,
                cost: r.u32s("contraction edge costs", pairs)?,
                how: r.ints_any("contraction make-ups", pairs)?,
            })
        };
        let fwd = side(r)?;
        let bwd = match r.u8("contraction")? {
            0 => None,
            1 => Some(side(r)?),
            k => return Err(invalid(format!("contraction: unknown backward tag {k}"))),
        };
        graphs.push(StoredQueryGraph {
            scale,
            search,
            input_arcs,
            rank,
            node_of,
            parent,
            fwd,
            bwd,
            extra_keys: r.ints_any("contraction unpack-only directions", 2 * pairs)?,
            extra_how: r.ints_any("contraction unpack-only make-ups", 2 * pairs)?,
        });
    }
    Ok(graphs)
}

/// The settings, checked to be in range (the bounds of the sections depend
/// on them).
fn parse_settings<S: Source>(r: &mut Reader<S>) -> Result<BuildSettings, LoadError> {
    let cluster_size = r.u32("settings")?;
    let connectivity = match r.u8("settings")? {
        4 => Connectivity::Four,
        8 => Connectivity::Eight,
        c => return Err(invalid(format!("unknown connectivity {c}"))),
    };
    let corners = match r.u8("settings")? {
        0 => CornerRule::Never,
        1 => CornerRule::IfOneFree,
        2 => CornerRule::Always,
        c => return Err(invalid(format!("unknown corner rule {c}"))),
    };
    let movement = Movement {
        connectivity,
        corners,
        straight: r.u32("settings")?,
        diagonal: r.u32("settings")?,
    };
    movement.validate().map_err(|e| invalid(e.to_string()))?;
    let entrances = EntrancePolicy {
        single_below: r.u32("settings")?,
        max_gap: r.u32("settings")?,
    };
    let keep_paths = match r.u8("settings")? {
        0 => false,
        1 => true,
        k => return Err(invalid(format!("keep_paths is {k}, not 0 or 1"))),
    };
    let landmarks = r.u32("settings")?;
    let max_unit_size = r.u8("settings")? as u32;
    let larger_sizes = match r.u8("settings")? {
        0 => SizeTransitions::Ends,
        1 => SizeTransitions::One,
        k => return Err(invalid(format!("unknown placement {k} of larger sizes"))),
    };
    let polish = match r.u8("settings")? {
        0 => Polish::Never,
        1 => Polish::Always,
        k => {
            return Err(invalid(format!(
                "polish is {k}, not 0 (never) or 1 (always)"
            )));
        }
    };
    if max_unit_size == 0 {
        return Err(invalid("largest unit size 0 is out of range"));
    }
    if !(2..=1024).contains(&cluster_size) {
        return Err(invalid(format!(
            "cluster size {cluster_size} is out of range"
        )));
    }
    if landmarks > MAX_LANDMARKS {
        return Err(invalid(format!("{landmarks} landmarks is out of range")));
    }
    Ok(BuildSettings {
        cluster_size,
        movement,
        entrances,
        keep_paths,
        landmarks,
        max_unit_size,
        larger_sizes,
        polish,
    })
}

/// The largest length each array may claim, from the map and the settings
/// and the arrays read before it.
struct Bounds {
    cells: usize,
    tiles: usize,
}

impl Bounds {
    fn new(width: u32, height: u32) -> Self {
        let cells = width as usize * height as usize;
        Bounds {
            cells,
            tiles: TileColumn::tiles_for(cells),
        }
    }
    /// Blocks of the block-cut forest: at most one per passable cell and
    /// one per pair of cells (a bridge), so at most twice the cells.
    fn blocks(&self) -> usize {
        2 * self.cells + 1
    }
}

/// Checks `v` starts at 0, never decreases and ends at `end` (`end` is
/// then the length of the array it indexes).
pub(super) fn check_offsets(
    v: &[u32],
    len: usize,
    end: usize,
    what: &str,
) -> Result<(), LoadError> {
    if v.len() != len || v.first() != Some(&0) || v.last().map(|x| *x as usize) != Some(end) {
        return Err(invalid(format!("{what} offsets have the wrong shape")));
    }
    // Folded without early exits, so the comparisons vectorise.
    if v.iter()
        .zip(&v[1..])
        .fold(false, |bad, (a, b)| bad | (a > b))
    {
        return Err(invalid(format!("{what} offsets decrease")));
    }
    Ok(())
}

/// A size annotation per element of an array of `len`: exactly `len`
/// bytes (a longer claim stops reading before anything is allocated).
fn sizes<S: Source>(
    r: &mut Reader<S>,
    what: &'static str,
    len: usize,
) -> Result<Vec<u8>, LoadError> {
    let v = r.bytes(what, len)?;
    if v.len() != len {
        return Err(invalid(format!(
            "{what}: {} annotations for {len} elements",
            v.len()
        )));
    }
    Ok(v)
}

/// Parses the settings and sections after the header for a map of `width x
/// height` (the file's size): the shape of the file, every length bounded
/// before it is allocated; `validate` checks what it says.
pub(super) fn parse_content<S: Source>(
    size: (u32, u32),
    r: &mut Reader<S>,
) -> Result<Content, LoadError> {
    let cells = parse_cells(size, r)?;
    let rest = parse_rest(size, &cells.0, r)?;
    Ok(content_of(cells, rest))
}

/// The content from its two parts ([`parse_cells`], [`parse_rest`]).
pub(super) fn content_of(
    (settings, dead_ends): (BuildSettings, DeadEnds),
    (entrances, graph, landmarks, contraction, guide, stages): Rest,
) -> Content {
    (
        settings,
        dead_ends,
        entrances,
        graph,
        landmarks,
        contraction,
        guide,
        stages,
    )
}

/// What follows the cell table: the entrances, the cluster graph, the
/// landmarks, the contraction, the cell landmarks and the stats.
pub(super) type Rest = (
    Entrances,
    ClusterGraph,
    Landmarks,
    Option<Vec<StoredQueryGraph>>,
    Option<SavedGuide>,
    Vec<StageStats>,
);

/// The first part of [`parse_content`]: the settings and the cell table
/// (dead ends and islands), which a load checks while the rest is parsed.
pub(super) fn parse_cells<S: Source>(
    (width, height): (u32, u32),
    r: &mut Reader<S>,
) -> Result<(BuildSettings, DeadEnds), LoadError> {
    let settings = parse_settings(r)?;
    let b = Bounds::new(width, height);
    let cell_anchor = TileColumn::from_parts(
        r.u64("dead ends")?.min(usize::MAX as u64) as usize,
        r.u64s("cell table masks", b.tiles)?,
        r.u32s("cell table values", b.tiles)?,
        r.u32s("cell table rows", b.tiles)?,
        r.col32("cell table mixed rows", b.tiles * TILE)?,
    );
    let dead_ends = DeadEnds {
        cell_anchor,
        block_pre: Vec::new(),
        block_end: r.u32s("block ends", b.blocks())?,
        block_island: r.u32s("block islands", b.blocks())?,
        island_core: r.u32s("island cores", b.cells)?,
        island_sizes: r.u32s("island sizes", b.cells)?,
        dead_end_cells: r.u64("dead ends")?,
        articulation_cells: r.u64("dead ends")?,
    };
    Ok((settings, dead_ends))
}

/// The second part of [`parse_content`]: everything after the cell table.
pub(super) fn parse_rest<S: Source>(
    (width, height): (u32, u32),
    settings: &BuildSettings,
    r: &mut Reader<S>,
) -> Result<Rest, LoadError> {
    let b = Bounds::new(width, height);
    let layout = ClusterLayout::for_size(width, height, settings.cluster_size);
    let cells = r.u32s("transition cells", b.cells)?;
    let nodes = cells.len();
    let cluster_first = r.u32s("cluster offsets", layout.count() + 1)?;
    check_offsets(&cluster_first, layout.count() + 1, nodes, "cluster")?;
    let flat_links = r.u32s("links", 2 * MAX_MOVES * nodes)?;
    if flat_links.len() % 2 != 0 {
        return Err(invalid("odd link list"));
    }
    let links: Vec<(u32, u32)> = flat_links.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    let count = r.u64("entrances")?;
    let sized = settings.max_unit_size > 1;
    let (clear, link_clear) = if sized {
        (
            sizes(r, "transition sizes", nodes)?,
            sizes(r, "link sizes", links.len())?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let entrances = Entrances {
        layout,
        cells,
        cluster_first,
        links,
        entrances: count,
        clear,
        link_clear,
    };

    // Edges: at most one per ordered pair of a cluster's transitions, and
    // two per link.
    let pairs: u64 = entrances
        .cluster_first
        .windows(2)
        .map(|w| (w[1] - w[0]) as u64 * (w[1] - w[0]) as u64)
        .sum();
    let max_edges = (pairs + 2 * entrances.links.len() as u64).min(u32::MAX as u64) as usize;
    let edge_first = r.u32s("edge offsets", nodes + 1)?;
    let edge_to = r.u32s("edge targets", max_edges)?;
    let edges = edge_to.len();
    check_offsets(&edge_first, nodes + 1, edges, "edge")?;
    let edge_cost = r.col64("edge costs", edges)?;
    let path_first = r.u32s("path offsets", edges + 1)?;
    // A stored path is a least-cost path inside one cluster: fewer moves
    // than the cluster has cells.
    let area = settings.cluster_size as usize * settings.cluster_size as usize;
    let path_codes = r.bytes("path moves", edges.saturating_mul(area))?;
    let graph = ClusterGraph {
        edge_first,
        edge_to,
        edge_cost,
        path_first,
        path_codes,
        intra_edges: r.u64("cluster graph")?,
        inter_edges: r.u64("cluster graph")?,
        edge_clear: if sized {
            sizes(r, "edge sizes", edges)?
        } else {
            Vec::new()
        },
    };
    let count = r.u32("landmarks")?;
    if count > MAX_LANDMARKS {
        return Err(invalid(format!("{count} landmarks is out of range")));
    }
    let landmark_nodes = r.u32s("landmark nodes", count as usize)?;
    let landmarks = Landmarks {
        count,
        nodes: landmark_nodes,
        dist: r.col64("landmark distances", nodes * count as usize)?,
    };
    let contraction = match r.u8("contraction")? {
        0 => None,
        1 => Some(parse_contraction(r, nodes)?),
        k => return Err(invalid(format!("unknown contraction tag {k}"))),
    };
    let guide = match r.u8("cell landmarks")? {
        0 => None,
        1 => {
            let count = r.u32("cell landmarks")?;
            if count == 0 || count as usize > MAX_GUIDE_LANDMARKS {
                return Err(invalid(format!(
                    "{count} cell landmarks is out of range (1 to {MAX_GUIDE_LANDMARKS})"
                )));
            }
            let cells = r.u32s("cell landmark distances", b.cells * count as usize)?;
            Some(SavedGuide { count, cells })
        }
        k => return Err(invalid(format!("unknown cell landmarks tag {k}"))),
    };
    let n_stages = r.len(1, MAX_STAGES, "stats")?;
    let mut stages = Vec::with_capacity(n_stages);
    for _ in 0..n_stages {
        stages.push(StageStats {
            name: r.str("stage name", MAX_STAGE_NAME)?,
            seconds: r.f64("stats")?,
            bytes: r.u64("stats")?,
        });
    }
    let trailing = r.src.remaining();
    if trailing != 0 {
        return Err(LoadError::TooLarge {
            what: "trailing bytes after the stats",
            length: trailing,
            max: 0,
        });
    }
    Ok((entrances, graph, landmarks, contraction, guide, stages))
}
