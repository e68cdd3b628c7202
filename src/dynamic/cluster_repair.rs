//! Cluster repair: the borders next to changed cells are scanned again, the
//! transitions of the clusters around them listed again, the inside edges of
//! clusters whose cells or transitions changed recomputed, and the node list
//! and graph spliced from the kept and the new parts.
//!
//! A hierarchy built for several unit sizes is repaired the same way, with
//! the sized stages' own pieces: borders are scanned by the sized rule
//! (transitions and links annotated with the largest size they admit), and
//! a changed cluster's edges come from the sized in-cluster computation.
//! The caller passes, beside the edited cells, every cell whose clearance
//! (capped at the largest size) changed, so the borders and clusters that
//! read it are repaired too.

use fixedbitset::FixedBitSet;

use super::DynamicHierarchy;
use super::landmark_repair::{GraphChange, collect_candidates, repair_landmarks};
use super::splice::{Span, cluster_edge_clear, renumber, splice_links};
use crate::grid::Point;
use crate::hierarchy::Spliced;
use crate::preprocess::Entrances;
use crate::preprocess::clusters::{Border, border_pairs};
use crate::preprocess::graph::{ClusterEdges, intra_cluster_edges};
use crate::preprocess::sizes::{ScanScratch, SizedClusters, TransitionRules, sized_cluster_edges};

/// What a repair of the clusters did beyond the clusters themselves.
pub(super) struct Repaired {
    /// Whether a landmark was replaced (its transition disappeared).
    pub(super) landmarks_replaced: bool,
    /// Whether the cluster graph kept its arcs and costs (a contraction,
    /// or one being made by a job, then stays valid).
    pub(super) arcs_kept: bool,
    /// The clusters laid out again (a patched contraction's edit).
    pub(super) fresh: Vec<u32>,
}

/// Buffers of a border scan: the transition cell pairs found and, for a
/// hierarchy of several sizes, the largest size each admits.
#[derive(Debug, Default)]
pub(super) struct BorderScan {
    offsets: Vec<u32>,
    sized: ScanScratch,
    pairs: Vec<(u32, u32)>,
    clear: Vec<u8>,
}

impl DynamicHierarchy {
    /// Rescans the borders next to `changed` cells, recomputes the inside
    /// edges of clusters whose cells or transitions changed, and reassembles
    /// the graph. Marks those clusters in `touched`.
    /// With `renumbered`, the dead-end forest was recomputed and every node's
    /// anchor is looked up again.
    pub(super) fn repair_clusters(
        &mut self,
        changed: &[Point],
        renumbered: bool,
        touched: &mut FixedBitSet,
    ) -> Repaired {
        let layout = self.h.entrances().layout;
        // Clusters holding a changed cell need new inside edges.
        let mut inside = FixedBitSet::with_capacity(layout.count());
        let mut borders = Vec::new();
        for p in changed {
            inside.insert(layout.cluster_of(*p) as usize);
            layout.borders_at(*p, &mut borders);
        }
        // Clusters next to a changed border get their transitions again.
        let mut rescan = inside.clone();
        let mut around = Vec::new();
        for b in &borders {
            around.clear();
            layout.clusters_at(*b, &mut around);
            for c in &around {
                rescan.insert(*c as usize);
            }
        }
        let mut rescanned: Vec<Border> = Vec::new();
        for c in rescan.ones() {
            rescanned.extend(layout.borders_of(c as u32));
        }
        rescanned.sort_unstable_by_key(border_key);
        rescanned.dedup();

        // New pairs of every rescanned border; entrance counts follow.
        let mut buf = BorderScan::default();
        let mut entrances = self.h.entrances().entrances;
        for b in &rescanned {
            let n = self.scan(*b, &mut buf);
            let slot = self.border_count(*b);
            entrances = entrances - *slot as u64 + n;
            *slot = n as u32;
        }
        let width = self.h.grid().width();
        let cluster_of_cell = |c: u32| layout.cluster_of(Point::new(c % width, c / width));

        // New transition lists of the rescanned clusters.
        let pairs = &buf.pairs;
        let mut fresh: Vec<(u32, u32)> = pairs
            .iter()
            .flat_map(|(a, b)| [*a, *b])
            .map(|c| (cluster_of_cell(c), c))
            .filter(|(k, _)| rescan.contains(*k as usize))
            .collect();
        fresh.sort_unstable();
        fresh.dedup();

        // Splice the node list: old clusters keep theirs. With several
        // sizes, each node's capped clearance follows its cell.
        let rules = self.rules();
        let old = self.h.entrances();
        let mut cells = Vec::with_capacity(old.cells.len() + fresh.len());
        let mut clear = Vec::new();
        let mut cluster_first = Vec::with_capacity(layout.count() + 1);
        cluster_first.push(0u32);
        let mut f = 0;
        let mut c = 0;
        while c < layout.count() {
            if rescan.contains(c) {
                let start = cells.len();
                while f < fresh.len() && fresh[f].0 as usize == c {
                    cells.push(fresh[f].1);
                    f += 1;
                }
                if cells[start..] != *old.cluster_cells(c as u32) {
                    inside.insert(c);
                }
                if let Some(r) = &rules {
                    clear.extend(cells[start..].iter().map(|cell| r.cell_level(*cell)));
                }
                cluster_first.push(cells.len() as u32);
                c += 1;
                continue;
            }
            // A run of clusters not rescanned: their nodes as one block.
            let end = (c..layout.count())
                .find(|k| rescan.contains(*k))
                .unwrap_or(layout.count());
            let (a, b) = (
                old.cluster_first[c] as usize,
                old.cluster_first[end] as usize,
            );
            let shift = cells.len() as i64 - a as i64;
            cells.extend_from_slice(&old.cells[a..b]);
            if rules.is_some() {
                clear.extend_from_slice(&old.clear[a..b]);
            }
            cluster_first.extend(
                old.cluster_first[c + 1..=end]
                    .iter()
                    .map(|x| (*x as i64 + shift) as u32),
            );
            c = end;
        }
        let index_of = |c: u32| -> u32 {
            let k = cluster_of_cell(c) as usize;
            let (a, b) = (cluster_first[k] as usize, cluster_first[k + 1] as usize);
            (a + cells[a..b]
                .binary_search(&c)
                .expect("every paired cell is a node")) as u32
        };
        let fresh: Vec<bool> = (0..layout.count()).map(|c| rescan.contains(c)).collect();
        let (remap, old_fresh, runs) = renumber(old, &cells, &cluster_first, &fresh);
        let sized = rules.is_some();
        // The rescanned borders' links, in new ids, each with the largest
        // size that can make the move (0 for a hierarchy of one size),
        // sorted; merged with the old ones between clusters not rescanned.
        let mut fresh_links: Vec<(u32, u32, u8)> = pairs
            .iter()
            .enumerate()
            .map(|(i, (a, b))| {
                (
                    index_of(*a),
                    index_of(*b),
                    if sized { buf.clear[i] } else { 0 },
                )
            })
            .collect();
        fresh_links.sort_unstable();
        fresh_links.dedup();
        let (links, link_clear) = splice_links(
            old,
            &cluster_first,
            &fresh,
            (&remap, &old_fresh),
            &fresh_links,
            sized,
        );
        let entrances = Entrances {
            layout,
            cells,
            cluster_first,
            links,
            entrances,
            clear,
            link_clear,
        };

        // Inside edges of the rescanned clusters: computed again where the
        // cluster changed, else read back from the graph. Then the graph.
        let movement = self.h.settings().movement;
        let keep_paths = self.h.settings().keep_paths;
        // With several sizes, each edge's annotation beside it.
        let mut fresh_clear: Vec<Vec<u8>> = Vec::new();
        let fresh_edges: Vec<ClusterEdges> = rescan
            .ones()
            .map(|c| {
                let c = c as u32;
                let (edges, clear) = match (inside.contains(c as usize), self.h.sizes()) {
                    (true, None) => (
                        intra_cluster_edges(
                            self.h.grid(),
                            &movement,
                            &layout,
                            c,
                            entrances.cluster_cells(c),
                            keep_paths,
                            &mut self.search,
                        ),
                        Vec::new(),
                    ),
                    (true, Some(sizes)) => {
                        let on = SizedClusters {
                            grid: self.h.grid(),
                            clearance: &sizes.clearance,
                            movement: &movement,
                            entrances: &entrances,
                            max_size: sizes.max,
                            keep_paths,
                        };
                        sized_cluster_edges(&on, c, &mut self.sized)
                    }
                    (false, sized) => {
                        let (graph, old) = (self.h.graph(), self.h.entrances());
                        let clear = match sized {
                            Some(_) => cluster_edge_clear(graph, old, c),
                            None => Vec::new(),
                        };
                        (graph.cluster_edges(old, c), clear)
                    }
                };
                fresh_clear.push(clear);
                edges
            })
            .collect();
        let span = Span::build(
            &self.h,
            &entrances,
            &fresh,
            &remap,
            &fresh_links,
            (&fresh_edges, &fresh_clear),
        );
        // The graph, node cells, anchors and landmarks taken out to be
        // brought up to date; the landmarks' candidates are read from the
        // old graph first.
        let mut landmarks = self.h.take_landmarks();
        let (mut graph, mut points, mut anchors) = self.h.take_nodes();
        let change = GraphChange {
            fresh: &fresh,
            old: self.h.entrances(),
            new: &entrances,
            remap: &remap,
            runs: &runs,
            map: (width, self.h.grid().height()),
        };
        collect_candidates(&landmarks, &mut self.landmark_scratch, &change, &graph);
        // Spliced in place: the stretch from the first repaired cluster to
        // the last laid out again (node cells and anchors copied for the
        // unchanged clusters in it).
        let old = self.h.entrances();
        let d = self.h.dead_ends();
        let anchor = |cell: u32| {
            let a = d.anchor_of(cell as usize);
            (a, d.block_end[a as usize])
        };
        let mut spliced = Spliced::default();
        // No stretch: no cluster was laid out again, every arc is kept.
        let mut arcs_kept = true;
        if let Some(mut span) = span {
            arcs_kept = span.keeps_arcs(&graph, old, &entrances);
            let nodes = (&mut points, &mut anchors);
            span.splice_nodes(old, &entrances, &fresh, (self.h.grid(), &anchor), nodes);
            spliced = span.replaced();
            span.apply(&mut graph, old, layout.cols as usize, &remap);
        }
        if renumbered {
            // The dead-end forest was recomputed: every anchor again.
            for (a, cell) in anchors.iter_mut().zip(&entrances.cells) {
                *a = anchor(*cell);
            }
        }
        // Landmark distances follow the new graph (see `landmark_repair`).
        let replaced = repair_landmarks(
            &mut landmarks,
            &mut self.landmark_scratch,
            &change,
            (&graph, &points),
        );
        self.h
            .replace_nodes((entrances, graph), points, anchors, spliced);
        self.h.set_landmarks(landmarks);
        touched.union_with(&inside);
        touched.union_with(&rescan);
        // A rescanned cluster whose transitions and inside are unchanged
        // kept everything: it is not reported.
        for c in rescan.ones() {
            if !inside.contains(c) {
                touched.set(c, false);
            }
        }
        Repaired {
            landmarks_replaced: replaced,
            arcs_kept,
            fresh: rescan.ones().map(|c| c as u32).collect(),
        }
    }

    /// Scans one border on the current grid (and clearance): appends its
    /// pairs to `buf`, and their sizes when built for several.
    pub(super) fn scan(&self, border: Border, buf: &mut BorderScan) -> u64 {
        if let Some(rules) = self.rules() {
            return rules.scan(border, &mut buf.sized, &mut buf.pairs, &mut buf.clear);
        }
        let h = &self.h;
        border_pairs(
            h.grid(),
            &h.settings().movement,
            &h.entrances().layout,
            &h.settings().entrances,
            border,
            &mut buf.offsets,
            &mut buf.pairs,
        )
    }

    /// The sized build's transition rules over the current grid and
    /// clearance, when built for several sizes.
    fn rules(&self) -> Option<TransitionRules<'_>> {
        let (h, sizes) = (&self.h, self.h.sizes()?);
        Some(TransitionRules {
            grid: h.grid(),
            clearance: &sizes.clearance,
            movement: &h.settings().movement,
            layout: h.entrances().layout,
            policy: &h.settings().entrances,
            larger: h.settings().larger_sizes,
            max_size: sizes.max,
        })
    }

    /// The stored entrance count of a border.
    pub(super) fn border_count(&mut self, border: Border) -> &mut u32 {
        let cols = self.h.entrances().layout.cols;
        match border {
            Border::Vertical { cx, cy } => &mut self.vertical[(cy * cols + cx) as usize],
            Border::Horizontal { cx, cy } => &mut self.horizontal[(cy * cols + cx) as usize],
            Border::Corner { cx, cy } => &mut self.corner[(cy * cols + cx) as usize],
        }
    }
}

/// A sort key for borders (kind, then position).
fn border_key(b: &Border) -> (u8, u32, u32) {
    match *b {
        Border::Vertical { cx, cy } => (0, cy, cx),
        Border::Horizontal { cx, cy } => (1, cy, cx),
        Border::Corner { cx, cy } => (2, cy, cx),
    }
}
