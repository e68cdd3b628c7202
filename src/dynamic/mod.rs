//! Run-time map changes: a hierarchy that repairs itself locally.
//!
//! A [`DynamicHierarchy`] owns a [`Hierarchy`] and applies edits to its map
//! (cells opened or closed, terrain weights changed), repairing only what the
//! edits touch:
//!
//! * **Clusters.** The borders and corners next to a changed cell are scanned
//!   again; a cluster whose transitions or cells changed gets its inside edges
//!   recomputed (exact searches, as in the build), every other cluster keeps
//!   its edges. A batch of edits repairs each touched cluster once. The graph
//!   is then spliced in place (see `splice`): the stretch from the first
//!   repaired cluster to the last is laid out again, what follows it moves
//!   as one block.
//! * **Islands and dead ends.** The block forest is repaired inside a window
//!   around the edit (see `dead_end_repair`): the window's blocks before and
//!   after are searched, and when its ring (the cells with a move out of it)
//!   lies in one block both times, or is empty, the forest changes only
//!   inside it, even when islands split or join or blocks are cut. The
//!   window grows until that holds; an edit that needs more than the largest
//!   window, or that changes which block is an island's core, recomputes
//!   stages 1 and 2 over the map. Blocks keep their names across repairs
//!   (`forest`): the preorder ids the queries use are renumbered per block,
//!   not per cell.
//! * **Landmarks.** The landmark distances are brought up to date by a
//!   dynamic shortest-path update per landmark that touches only the nodes
//!   whose distance changes and their neighbours (see `landmark_repair`), so
//!   they stay those a computation from the same landmark nodes on the
//!   changed map gives (except where a raise would reach too far: the old,
//!   slightly lower values stay there, still a valid bound), and queries stay
//!   as fast as on a fresh build. A landmark whose transition disappears is
//!   replaced by the build's choice for its rim target.
//!   [`DynamicHierarchy::refresh_landmarks`] picks the landmarks again as a
//!   build would and makes every distance exact.
//!
//! The result equals a hierarchy built from scratch on the changed map: the
//! same transitions, edges, costs and stored paths in the same order, and the
//! same islands and dead-end regions (the block numbering may differ, the
//! forest it describes does not); the landmarks may sit on other transitions
//! than a build would pick, with exact distances from them (or, past the
//! raise budget, a few steps low: see `landmark_repair`). The property tests
//! check exactly this on random edit sequences.
//!
//! [`RepairReport`] says which clusters changed, so a game re-plans only the
//! paths that cross them ([`RepairReport::touches`]).
//!
//! ```
//! use tierpath::{DynamicHierarchy, Grid, Hierarchy, Point, QueryCache};
//! let grid = Grid::new(64, 64)?;
//! let mut world = DynamicHierarchy::new(Hierarchy::build(grid)?);
//! let mut cache = QueryCache::new();
//! let (start, goal) = (Point::new(2, 30), Point::new(60, 30));
//! let before = world.find_path(&mut cache, start, goal)?.path.unwrap();
//! // A wall goes up across the straight route.
//! let wall: Vec<Point> = (10..50).map(|y| Point::new(32, y)).collect();
//! let report = world.set_passable(&wall, false)?;
//! assert!(report.touches(&before.cells));
//! let after = world.find_path(&mut cache, start, goal)?.path.unwrap();
//! assert!(after.cells.iter().all(|p| p.x != 32 || !(10..50).contains(&p.y)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Performance
//! A repair costs the touched clusters' searches, the landmark update, and
//! the splice: the repaired stretch laid out again and, unless it keeps its
//! node and edge counts, one move of each array's tail. On the largest
//! Moving AI maps (1024x1024, 173,000 edges) the median repair of one cell
//! is about 0.15 ms and of a 10x10 block about 0.43 ms, a few hundredths of
//! a rebuild (`cargo bench --bench repair`). The dead-end window costs two
//! searches of its cells, and a pass over the forest's blocks when blocks
//! come or go; the global path, when it runs, costs about as much as stages
//! 1 and 2 of a build.

mod clearance;
mod cluster_repair;
mod dead_end_repair;
mod fog;
mod forest;
mod landmark_repair;
mod layers;
mod size_components;
mod splice;
mod view_graph;
mod window;

use std::ops::Deref;

use fixedbitset::FixedBitSet;
use thiserror::Error;

pub(crate) use fog::OpenTwin;
pub use fog::PlayerView;
pub use layers::{CostLayers, ForeignLayer, LayerId};
pub(crate) use view_graph::{ViewEdges, ViewGraph, ViewParts};

use crate::contraction::{ContractionError, ContractionKind};
use crate::grid::{Grid, GridError, Point, Weight};
use crate::hierarchy::{ContractionDone, ContractionJob, Hierarchy};
use crate::preprocess::ClusterLayout;
use crate::preprocess::cluster_search::ClusterSearch;
use crate::preprocess::sizes::ClusterScratch;
use cluster_repair::BorderScan;
use dead_end_repair::{Outcome, WindowRepair};
use forest::Forest;

/// One change to the map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Opens (`true`) or closes (`false`) a cell.
    Passable(Point, bool),
    /// Sets a cell's terrain weight (at least 1).
    Weight(Point, Weight),
}

/// Why an edit was refused. Nothing is applied when any edit of a batch is
/// refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EditError {
    /// A cell off the map.
    #[error("edit {index}: {source}")]
    OffMap {
        /// Position of the edit in the batch.
        index: usize,
        /// The grid's complaint.
        source: GridError,
    },
    /// A weight of zero (moves must cost more than nothing).
    #[error("edit {index}: weight 0 at ({x}, {y}); weights are at least 1")]
    ZeroWeight {
        /// Position of the edit in the batch.
        index: usize,
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
}

/// How islands and dead ends were brought up to date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadEndRepair {
    /// No cell opened or closed.
    Unchanged,
    /// Repaired within a window around the edits (the window rule of the
    /// repair's docs): islands may have split or joined and blocks changed,
    /// but only inside the window.
    Local,
    /// Stages 1 and 2 ran again over the map.
    Recomputed,
}

/// What a repair changed.
#[derive(Debug, Clone)]
pub struct RepairReport {
    layout: ClusterLayout,
    /// Clusters whose cells, transitions or inside edges changed, as a set.
    touched: FixedBitSet,
    /// Cells whose passability or weight actually changed, row by row.
    pub changed_cells: Vec<Point>,
    /// Clusters whose cells, transitions or inside edges changed, ascending.
    pub clusters: Vec<u32>,
    /// How islands and dead ends were repaired.
    pub dead_ends: DeadEndRepair,
    /// Whether a landmark's transition disappeared, so that it was replaced
    /// (one search over the graph for its distances). Repairs never drop
    /// landmark distances (they stay a valid, sharp bound with no refresh),
    /// except while a contraction is kept for repairs, whose queries do not
    /// read them (see [`DynamicHierarchy::contract`]).
    pub landmarks_dropped: bool,
    /// What became of the hierarchy's contraction.
    pub contraction: ContractionRepair,
}

/// What a repair did to the hierarchy's contraction
/// ([`DynamicHierarchy::contract`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContractionRepair {
    /// The hierarchy was not contracted.
    NotContracted,
    /// The cluster graph kept its arcs and costs: so did the contraction.
    Kept,
    /// Arcs or costs changed, and the contraction was patched: the clusters
    /// laid out again since it was made are searched beside it.
    Patched {
        /// Transitions in those clusters and around them (the patch's
        /// nodes; a query's work beside the contraction grows with them).
        patch_nodes: usize,
    },
    /// Arcs or costs changed, and the contraction ended (it was not kept
    /// for repairs, or the patch grew past its bound): queries run A* over
    /// the graph until contracted again.
    Ended,
}

impl RepairReport {
    /// A report of no change.
    pub(crate) fn nothing(layout: &ClusterLayout) -> RepairReport {
        RepairReport {
            layout: *layout,
            touched: FixedBitSet::with_capacity(layout.count()),
            changed_cells: Vec::new(),
            clusters: Vec::new(),
            dead_ends: DeadEndRepair::Unchanged,
            landmarks_dropped: false,
            contraction: ContractionRepair::NotContracted,
        }
    }

    /// Whether a path (its cells) crosses a cluster the repair changed: such a
    /// path may now be blocked or no longer the best, and should be planned
    /// again. Paths that cross no changed cluster keep their cost, stay
    /// valid, and stay within the planner's usual bound, so they can be kept.
    pub fn touches(&self, cells: &[Point]) -> bool {
        cells.iter().any(|p| {
            p.x < self.layout.width
                && p.y < self.layout.height
                && self.touched.contains(self.layout.cluster_of(*p) as usize)
        })
    }

    /// Whether a path (its cells) steps on a cell this repair closed or
    /// re-weighted: the path is then invalid or costs something else.
    pub fn blocks(&self, cells: &[Point]) -> bool {
        // The changed cells are listed row by row: a binary search per cell
        // of the path.
        cells.iter().any(|p| {
            self.changed_cells
                .binary_search_by_key(&(p.y, p.x), |q| (q.y, q.x))
                .is_ok()
        })
    }
}

/// A [`Hierarchy`] whose map changes at run time, repaired locally after each
/// batch of edits. Queries go through `Deref` to the hierarchy.
///
/// # Performance
/// Holds, beside the hierarchy, the dead-end forest by block name (parent,
/// island and size per block), an entrance count per cluster border (a few
/// bytes per block and per cluster), and the window searches' scratch. See the module docs for the cost of a repair.
#[derive(Debug)]
pub struct DynamicHierarchy {
    h: Hierarchy,
    /// Entrances per border, so the total stays exact as borders change.
    vertical: Vec<u32>,
    horizontal: Vec<u32>,
    corner: Vec<u32>,
    /// The block forest by name.
    forest: Forest,
    /// The landmark count asked for at build time.
    landmarks_wanted: u32,
    /// Whether a repair happened since the landmarks were last picked.
    landmarks_stale: bool,
    search: ClusterSearch,
    /// The in-cluster scratch of a hierarchy for several unit sizes.
    sized: ClusterScratch,
    window: WindowRepair,
    landmark_scratch: landmark_repair::LandmarkScratch,
}

impl Deref for DynamicHierarchy {
    type Target = Hierarchy;
    fn deref(&self) -> &Hierarchy {
        &self.h
    }
}

impl DynamicHierarchy {
    /// Takes a hierarchy for run-time changes. Costs one pass over its graph
    /// and its map; for a contracted hierarchy also the landmarks that
    /// [`Hierarchy::contract`] let go of (a build's landmark stage), since
    /// repairs keep them up to date for the A* that runs once a repair has
    /// ended the contraction (unless the contraction is kept for repairs:
    /// see [`contract`](Self::contract)). A contraction made before (one loaded from a
    /// contracted file, say) is not kept for repairs to patch (see
    /// [`contract`](Self::contract)): the first repair that changes the
    /// cluster graph's arcs ends it, unless
    /// [`keep_contraction_for_repairs`](Self::keep_contraction_for_repairs)
    /// was called.
    ///
    /// A fog-of-war player's view (a clone of what a [`PlayerView`]
    /// derefs to) reads its cluster graph from hierarchies it shares: it is
    /// first built as a hierarchy of its own, on its map with its settings.
    pub fn new(h: Hierarchy) -> DynamicHierarchy {
        let mut h = h.into_own();
        // Repairs keep the A*'s aids (for the A* after a repair that
        // ends the contraction).
        h.restore_astar_aids();
        let mut d = DynamicHierarchy::taking(h);
        let layout = d.h.entrances().layout;
        d.vertical = vec![0; layout.count()];
        d.horizontal = vec![0; layout.count()];
        d.corner = vec![0; layout.count()];
        let mut buf = BorderScan::default();
        for border in layout.borders() {
            let n = d.scan(border, &mut buf);
            *d.border_count(border) = n as u32;
        }
        d
    }

    /// Takes a fog-of-war player's view ([`Hierarchy::view_of`]), whose
    /// repairs are reveals: each edit sets a cell the player has just seen
    /// to what the truth has there, and the cluster graph is read again
    /// from the truth, open ground or parts of its own (see `view_graph`).
    pub(crate) fn for_view(h: Hierarchy) -> DynamicHierarchy {
        debug_assert!(h.view().is_some());
        DynamicHierarchy::taking(h)
    }

    /// The repair state of `h`, without the border counts (which only the
    /// repairs of a cluster graph of its own keep).
    fn taking(h: Hierarchy) -> DynamicHierarchy {
        DynamicHierarchy {
            vertical: Vec::new(),
            horizontal: Vec::new(),
            corner: Vec::new(),
            forest: Forest::new(h.dead_ends()),
            landmarks_wanted: h.settings().landmarks,
            landmarks_stale: true,
            search: ClusterSearch::default(),
            sized: ClusterScratch::default(),
            window: WindowRepair::default(),
            landmark_scratch: Default::default(),
            h,
        }
    }

    /// The hierarchy as it stands.
    pub fn hierarchy(&self) -> &Hierarchy {
        &self.h
    }

    /// Contracts the cluster graph as it stands
    /// ([`Hierarchy::contract_with`]), keeping the contraction itself and
    /// one full metric per band of unit sizes beside the query graphs, so
    /// that repairs keep it:
    /// - a repair that leaves the cluster graph's arcs and costs as they
    ///   were keeps the query graphs;
    /// - one that changes them *patches* the contraction: the clusters it
    ///   laid out again are forbidden in it (a partial re-customization)
    ///   and searched beside it, by a Dijkstra over their transitions and a
    ///   table of least costs between the clean transitions around them
    ///   (see `docs/contraction.md`, "Round 16"); queries then search that,
    ///   exactly, until contracted again;
    /// - when the patched clusters grow past a bound (thousands of
    ///   transitions around them), the repair ends the contraction, and
    ///   queries run A* over the graph until contracted again, with
    ///   landmark distances that repair derives again (a build's landmark
    ///   stage): repairs that keep or patch the contraction let them go,
    ///   since no contracted query reads them.
    ///
    /// Contract again now and then (a [`contraction_job`](Self::contraction_job)
    /// on another thread) to empty the patch. Takes what a contraction takes
    /// (about 350 ms on a 1024x1024 StarCraft map): between frames of a
    /// game, take a job instead and run it on another thread.
    ///
    /// With [`ContractionKind::Classic`], the classic query graphs are
    /// built and a customizable contraction beside them, for repairs to
    /// patch (more build time).
    ///
    /// # Memory
    /// A contracted `DynamicHierarchy` of a 1024x1024 StarCraft map reports
    /// 16.6 MB in all with the contraction kept for repairs (one band), and
    /// 15.3 MB once a repair has let the landmarks go (TheFrozenSea).
    pub fn contract(&mut self, kind: ContractionKind) -> Result<(), ContractionError> {
        let done = self.contraction_job(kind).run()?;
        let installed = self.install_contraction(done);
        debug_assert!(installed, "made for the hierarchy as it stands");
        Ok(())
    }

    /// Keeps the contraction itself and its full metrics beside the query
    /// graphs of a hierarchy contracted before it became dynamic (one
    /// loaded from a contracted file, say), so that repairs patch it as
    /// they patch one made by [`contract`](Self::contract): an order, a fill
    /// and a customization per band of unit sizes, most of a contraction's
    /// time (about 60-80 ms on a 1024x1024 StarCraft map). Whether a
    /// contraction is now kept for repairs (false when not contracted).
    pub fn keep_contraction_for_repairs(&mut self) -> Result<bool, ContractionError> {
        self.h.keep_contraction_for_repairs()
    }

    /// The work of contracting the cluster graph as it stands, to run on
    /// another thread and install with
    /// [`install_contraction`](Self::install_contraction): as
    /// [`Hierarchy::contraction_job`], but its contraction is kept for
    /// repairs to patch (see [`contract`](Self::contract)).
    pub fn contraction_job(&self, kind: ContractionKind) -> ContractionJob {
        self.h.contraction_job(kind).for_repairs()
    }

    /// Installs the contraction a [`ContractionJob`] taken from this
    /// hierarchy made, when no repair since the job was taken changed the
    /// cluster graph's arcs or costs (else it is stale: take another):
    /// whether it was installed. Unlike
    /// [`Hierarchy::install_contraction`], keeps the landmark distances
    /// until the next repair, which lets them go when the contraction is
    /// kept for repairs (see [`contract`](Self::contract)).
    ///
    /// ```
    /// use tierpath::{ContractionKind, DynamicHierarchy, Grid, Hierarchy, Point};
    /// let grid = Grid::from_fn(120, 80, |p| p.x != 60 || p.y < 5).unwrap();
    /// let mut world = DynamicHierarchy::new(Hierarchy::build(grid)?);
    /// let job = world.contraction_job(ContractionKind::default());
    /// let worker = std::thread::spawn(move || job.run());
    /// // A door closes while the job runs: its result is then stale.
    /// world.set_passable(&[Point::new(60, 2)], false)?;
    /// assert!(!world.install_contraction(worker.join().unwrap()?));
    /// let job = world.contraction_job(ContractionKind::default());
    /// assert!(world.install_contraction(job.run()?));
    /// assert!(world.is_contracted());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`ContractionJob`]: crate::ContractionJob
    pub fn install_contraction(&mut self, done: ContractionDone) -> bool {
        self.h.put_contraction(done, false)
    }

    /// Adds every cell's distance from `count` landmarks
    /// ([`Hierarchy::add_cell_landmarks`]): whether they were added (again:
    /// landmarks chosen afresh for the map as it is). Repairs keep them:
    /// closing cells changes nothing (distances only grow), opening cells
    /// lowers the distances the opening shortens, as far as they shrink;
    /// a terrain weight drops them.
    pub fn add_cell_landmarks(&mut self, count: usize) -> bool {
        self.h.add_cell_landmarks(count)
    }

    /// Gives the hierarchy back (for saving, or sharing between threads).
    pub fn into_hierarchy(self) -> Hierarchy {
        self.h
    }

    /// Bytes held beside the hierarchy for repairs.
    pub fn repair_memory_bytes(&self) -> usize {
        4 * (self.vertical.len() + self.horizontal.len() + self.corner.len())
            + self.forest.memory_bytes()
    }

    /// Opens or closes cells, then repairs.
    pub fn set_passable(
        &mut self,
        cells: &[Point],
        passable: bool,
    ) -> Result<RepairReport, EditError> {
        let edits: Vec<Edit> = cells.iter().map(|p| Edit::Passable(*p, passable)).collect();
        self.apply(&edits)
    }

    /// Sets terrain weights, then repairs.
    pub fn set_weights(&mut self, cells: &[(Point, Weight)]) -> Result<RepairReport, EditError> {
        let edits: Vec<Edit> = cells.iter().map(|(p, w)| Edit::Weight(*p, *w)).collect();
        self.apply(&edits)
    }

    /// Applies a batch of edits (later ones win on the same cell), then
    /// repairs every touched cluster once. All edits are checked first: on an
    /// error nothing changes.
    pub fn apply(&mut self, edits: &[Edit]) -> Result<RepairReport, EditError> {
        for (index, e) in edits.iter().enumerate() {
            let (Edit::Passable(p, _) | Edit::Weight(p, _)) = *e;
            self.h
                .grid()
                .check(p)
                .map_err(|source| EditError::OffMap { index, source })?;
            if let Edit::Weight(p, w) = *e
                && w.0 == 0
            {
                return Err(EditError::ZeroWeight {
                    index,
                    x: p.x,
                    y: p.y,
                });
            }
        }
        // The net effect per cell, in first-edit order.
        let mut opened = Vec::new();
        let mut closed = Vec::new();
        let mut weighted = Vec::new();
        let mut last: Vec<(Point, Option<bool>, Option<Weight>)> = Vec::new();
        {
            let mut order: Vec<(u32, u32, usize)> = Vec::with_capacity(edits.len());
            for (i, e) in edits.iter().enumerate() {
                let (Edit::Passable(p, _) | Edit::Weight(p, _)) = *e;
                order.push((p.y, p.x, i));
            }
            order.sort_unstable();
            let mut k = 0;
            while k < order.len() {
                let (y, x) = (order[k].0, order[k].1);
                let p = Point::new(x, y);
                let (mut pass, mut weight) = (None, None);
                while k < order.len() && (order[k].0, order[k].1) == (y, x) {
                    match edits[order[k].2] {
                        Edit::Passable(_, b) => pass = Some(b),
                        Edit::Weight(_, w) => weight = Some(w),
                    }
                    k += 1;
                }
                last.push((p, pass, weight));
            }
        }
        let grid = self.h.grid();
        for (p, pass, weight) in &last {
            match pass {
                Some(true) if !grid.is_passable(*p) => opened.push(*p),
                Some(false) if grid.is_passable(*p) => closed.push(*p),
                _ => {}
            }
            if let Some(w) = weight
                && *w != grid.weight(*p)
            {
                weighted.push((*p, *w));
            }
        }
        let mut changed: Vec<Point> = opened
            .iter()
            .chain(&closed)
            .copied()
            .chain(weighted.iter().map(|(p, _)| *p))
            .collect();
        changed.sort_unstable_by_key(|p| (p.y, p.x));
        changed.dedup();

        // Weights first: they do not touch islands or dead ends. The smallest
        // passable weight follows cheaply unless the smallest one goes.
        let mut min = self.h.min_weight();
        let mut rescan_min = false;
        for (p, w) in &weighted {
            let old = self.h.grid().weight(*p);
            self.h.set_cell_weight(*p, *w).expect("checked above");
            if self.h.grid().is_passable(*p) {
                rescan_min |= old == min;
                min = min.min(*w);
            }
        }
        // A map with no passable cell reports weight one, which is no cell's.
        rescan_min |= !opened.is_empty() && self.h.dead_ends().island_sizes.iter().all(|n| *n == 0);
        for p in &opened {
            min = min.min(self.h.grid().weight(*p));
        }
        for p in &closed {
            rescan_min |= self.h.grid().weight(*p) == min;
        }
        let (dead_ends, renumbered) = self.repair_dead_ends(&opened, &closed);
        self.h.sync_jump_lines(opened.iter().chain(&closed));
        if !opened.is_empty() {
            // Distances may shrink: lowered where they must.
            self.h.open_cell_landmarks(&opened);
        }
        let min = if rescan_min {
            self.h.grid().min_weight()
        } else {
            min
        };
        self.h.set_min_weight(min);
        let layout = self.h.entrances().layout;
        let mut touched = FixedBitSet::with_capacity(layout.count());
        if self.h.view().is_some() {
            // A reveal: the view graph reads the clusters around the cells
            // seen again.
            if !changed.is_empty() {
                for c in self.h.reveal_in_view(&changed, &mut self.search) {
                    touched.insert(c as usize);
                }
                self.h.mark_changed(false, false);
                self.h.refresh_stats();
            }
            return Ok(RepairReport {
                clusters: touched.ones().map(|c| c as u32).collect(),
                touched,
                layout,
                changed_cells: changed,
                dead_ends,
                landmarks_dropped: false,
                contraction: ContractionRepair::NotContracted,
            });
        }
        let mut contraction = if self.h.is_contracted() {
            ContractionRepair::Kept
        } else {
            ContractionRepair::NotContracted
        };
        let landmarks_dropped = if changed.is_empty() {
            false
        } else {
            // Several sizes: the clearance and components follow the opened
            // and closed cells, and the cells whose capped clearance changed
            // are repaired with the edited ones.
            let mut repair_at = Vec::new();
            let at = if self.h.sizes().is_some() {
                let mut moved: Vec<Point> = opened.iter().chain(&closed).copied().collect();
                moved.sort_unstable_by_key(|p| (p.y, p.x));
                self.repair_sizes(&moved, &mut repair_at);
                repair_at.extend_from_slice(&changed);
                &repair_at[..]
            } else {
                &changed[..]
            };
            // While a contraction is kept for repairs, no query runs the A*
            // that reads the landmarks: they are let go of rather than
            // repaired, and derived again when a repair ends the contraction.
            if self.h.contracted().is_some_and(|c| c.is_patchable()) {
                self.h.release_landmarks();
                self.landmark_scratch.inexact = false;
            }
            let repaired = self.repair_clusters(at, renumbered, &mut touched);
            self.landmarks_stale = true;
            // A contraction kept for repairs is patched where arcs changed.
            let was_contracted = self.h.is_contracted();
            let patched = !repaired.arcs_kept && self.h.patch_contraction(&repaired.fresh);
            self.h.mark_changed(repaired.arcs_kept, patched);
            contraction = match (was_contracted, repaired.arcs_kept, patched) {
                (false, _, _) => ContractionRepair::NotContracted,
                (true, true, _) => ContractionRepair::Kept,
                (true, false, true) => ContractionRepair::Patched {
                    patch_nodes: self.h.contraction_patch_nodes().unwrap_or(0),
                },
                (true, false, false) => {
                    // Its A* reads the landmarks again.
                    self.h.restore_astar_aids();
                    ContractionRepair::Ended
                }
            };
            self.h.refresh_stats();
            repaired.landmarks_replaced
        };
        Ok(RepairReport {
            clusters: touched.ones().map(|c| c as u32).collect(),
            touched,
            layout,
            changed_cells: changed,
            dead_ends,
            landmarks_dropped,
            contraction,
        })
    }

    /// Moves the landmarks to the transitions a build of the current map
    /// would pick, and makes every distance exact: computes the distances of
    /// the landmarks that move (a global search each), or of all of them
    /// when a repair left some a little low (see [`Self::landmarks_current`]).
    /// Free when no repair happened since the last call. Repairs keep the
    /// distances a valid, sharp bound without it; call it between frames or
    /// on a worker thread after many edits (for example when the largest
    /// island changed). Repairs of a contraction kept for them let the
    /// landmarks go (see [`contract`](Self::contract)): this derives them
    /// again (about a build's landmark stage).
    pub fn refresh_landmarks(&mut self) {
        let stale = std::mem::take(&mut self.landmarks_stale);
        let changed = if self.h.landmarks_released() {
            // Let go of by repairs of a contraction kept for them: derived
            // afresh, exact.
            self.h.restore_astar_aids();
            true
        } else if !stale {
            return;
        } else if std::mem::take(&mut self.landmark_scratch.inexact) {
            self.h.compute_landmarks(self.landmarks_wanted);
            true
        } else {
            let moved = self.h.repick_landmarks(self.landmarks_wanted);
            // Repairs drop the larger sizes' landmark levels (derived from
            // the whole graph); derive them again.
            self.h.refresh_search_aids(true);
            moved
        };
        if changed {
            // The landmarks moved; the arcs and costs did not (a
            // contraction, which does not read landmarks, stays).
            self.h.mark_changed(true, false);
            self.h.refresh_stats();
        }
    }

    /// Whether every landmark distance is exact. A repair whose raises of
    /// distances would reach too far keeps the old, lower values there (a
    /// bound as valid, slightly less sharp; see `landmark_repair`), until
    /// [`Self::refresh_landmarks`].
    pub fn landmarks_current(&self) -> bool {
        !self.landmark_scratch.inexact
    }

    /// Brings the clearance and the components of every size up to date
    /// after `moved` cells (sorted by row) opened or closed; pushes onto
    /// `levels` the cells whose capped clearance changed.
    /// The components are repaired locally when the change allows (see
    /// `size_components`), else computed again over the map.
    fn repair_sizes(&mut self, moved: &[Point], levels: &mut Vec<Point>) {
        let movement = self.h.settings().movement;
        let (grid, sizes) = self.h.grid_and_sizes_mut();
        let Some(sizes) = sizes else {
            return;
        };
        let mut changed = Vec::new();
        clearance::repair_clearance(grid, &mut sizes.clearance, moved, sizes.max, &mut changed);
        levels.extend(changed.iter().map(|(p, _)| *p));
        if !size_components::repair_components_locally(grid, &movement, sizes, &changed) {
            self.h.recompute_size_components();
        }
    }

    /// Opens and closes cells on the grid, keeping islands and dead ends
    /// exact: by the window rule when it applies (see `dead_end_repair`),
    /// else by recomputing them. Also says whether the preorder ids or the
    /// anchors of cells other than the edited ones changed.
    fn repair_dead_ends(&mut self, opened: &[Point], closed: &[Point]) -> (DeadEndRepair, bool) {
        self.window.spent = 0;
        if opened.is_empty() && closed.is_empty() {
            return (DeadEndRepair::Unchanged, false);
        }
        let cells: Vec<Point> = closed.iter().chain(opened).copied().collect();
        // The whole batch in one window when it is compact, else cell by
        // cell.
        let compact = {
            let (x0, x1) = cells
                .iter()
                .fold((u32::MAX, 0), |(a, b), p| (a.min(p.x), b.max(p.x)));
            let (y0, y1) = cells
                .iter()
                .fold((u32::MAX, 0), |(a, b), p| (a.min(p.y), b.max(p.y)));
            (x1 - x0) <= 24 && (y1 - y0) <= 24
        };
        // A compact batch whose cells fall into pieces apart (a block
        // over a wall, its cells on both sides) goes piece by piece: one window
        // for all would need both sides' rings, which may be joined only far
        // away, in one block. Repairs in turn are exact in turn.
        let pieces = if compact {
            adjacent_pieces(&cells)
        } else {
            Vec::new()
        };
        // A scattered batch of more cells than the map has cells per 2,048
        // (a reveal of a large area) costs more cell by cell than once over
        // the map.
        let map = self.h.grid().len();
        let groups: Vec<&[Point]> = if (2..=MAX_PIECES).contains(&pieces.len()) {
            pieces.iter().map(Vec::as_slice).collect()
        } else if compact {
            vec![&cells[..]]
        } else if cells.len() > 64 && cells.len() * 2048 > map {
            return self.flip_and_recompute(&cells);
        } else {
            cells.chunks(1).collect()
        };
        let mut renumbered = false;
        let (w, h) = (self.h.grid().width(), self.h.grid().height());
        let budget = dead_end_repair::window_budget(w, h);
        let mut spent = 0;
        let mut failed = None;
        for (k, group) in groups.iter().enumerate() {
            match self.window_repair(group, budget, &mut spent) {
                Some(r) => renumbered |= r,
                None => {
                    failed = Some(k);
                    break;
                }
            }
        }
        self.window.spent = spent;
        match failed {
            Some(k) => self.flip_and_recompute(groups[k..].concat().as_slice()),
            None => (DeadEndRepair::Local, renumbered),
        }
    }

    /// Flips `cells` (not yet flipped) and recomputes islands and dead ends
    /// over the map.
    fn flip_and_recompute(&mut self, cells: &[Point]) -> (DeadEndRepair, bool) {
        for p in cells {
            let open = !self.h.grid().is_passable(*p);
            self.h.set_cell_passable(*p, open).expect("checked above");
        }
        self.forest = Forest::new(self.h.recompute_dead_ends());
        (DeadEndRepair::Recomputed, true)
    }

    /// Flips `cells` and repairs by the window rule, growing the window
    /// until it applies or reaches its bound, and beginning no window that
    /// would take the cells searched (`spent`, which each window adds to)
    /// past `budget`: `None` (nothing changed) when it does not apply
    /// within them.
    fn window_repair(&mut self, cells: &[Point], budget: u64, spent: &mut u64) -> Option<bool> {
        let movement = Grid::topology_movement(&self.h.settings().movement);
        let (w, h) = (self.h.grid().width(), self.h.grid().height());
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for p in cells {
            (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
        }
        let largest = dead_end_repair::largest_window(w, h);
        for margins in dead_end_repair::boxes() {
            let cols = (x1 + margins[2]).min(w - 1) - x0.saturating_sub(margins[0]) + 1;
            let rows = (y1 + margins[3]).min(h - 1) - y0.saturating_sub(margins[1]) + 1;
            let area = cols as u64 * rows as u64;
            if area > largest {
                // Too large to search (the larger squares after it too).
                continue;
            }
            if *spent + area > budget {
                // The budget is spent: searching on would cost more than
                // the recompute it might save.
                return None;
            }
            let (grid, dead_ends) = self.h.grid_and_dead_ends_mut();
            let outcome = dead_end_repair::try_window(
                grid,
                &movement,
                dead_ends,
                &mut self.forest,
                cells,
                margins,
                &mut self.window,
            );
            *spent += self.window.take_searched();
            match outcome {
                Outcome::Repaired { renumbered } => return Some(renumbered),
                Outcome::Grow => {}
                Outcome::Global => return None,
            }
            if cols == w && rows == h {
                return None;
            }
        }
        None
    }
}

/// The most pieces a compact batch is repaired in, one window each (see
/// `repair_dead_ends`); a batch in more (a block over a maze of one-cell
/// corridors) takes one window for all. Measured 2026-11-28 (an untracked
/// probe, 100 10x10 blocks per map whose top-left cell is passable, their
/// passable cells closed then opened; repairs that recomputed the map, of
/// 200, and median / p95 ms where given), one window for the batch as
/// before, and pieces up to 2, 3, 4, 8 or any number:
///
/// | map | one window | 2 | 3 | 4 | **8** | any |
/// |---|---|---|---|---|---|---|
/// | sc1/TheFrozenSea | 12, 0.349 / 22.5 | 6, 0.345 / 2.09 | 0, 0.347 / 0.826 | 0, 0.339 / 0.778 | 0, 0.343 / 0.924 | 0, 0.348 / 0.843 |
/// | mazes/maze512-8-0 | 100, 4.85 / 7.99 | 62 | 48 | 48 | 48 | 48 |
/// | rooms/32room_000 | 64, 0.198 / 7.88 | 40 | 40 | 34 | 34 | 34 |
/// | mazes/maze512-1-0 | 200, 15.2 / 17.1 | 200, 15.3 / 16.1 | 200, 15.4 / 16.7 | 200, 15.7 / 19.2 | 200, 15.4 / 21.9 | 200, 16.0 / 23.9 |
///
/// The repair bench's 60 blocks on an edge of TheFrozenSea: 3 recomputed
/// and a p95 of 6.1 ms at 4, 2 and 2.6 ms at 8. Every edit of the one-cell
/// maze recomputes either way; there a piece that fails first costs its
/// windows before the recompute, and so do the pieces repaired before it.
const MAX_PIECES: usize = 8;

/// `cells` (distinct, within a box of at most 25 x 25) split into pieces
/// of cells joined through their eight neighbours, in the order of each
/// piece's first cell in `cells`.
fn adjacent_pieces(cells: &[Point]) -> Vec<Vec<Point>> {
    let x0 = cells.iter().map(|p| p.x).min().unwrap_or(0);
    let y0 = cells.iter().map(|p| p.y).min().unwrap_or(0);
    let w = cells.iter().map(|p| p.x - x0 + 1).max().unwrap_or(0) as usize;
    let h = cells.iter().map(|p| p.y - y0 + 1).max().unwrap_or(0) as usize;
    let at = |p: Point| (p.y - y0) as usize * w + (p.x - x0) as usize;
    // Per cell of the box: the edit's cell there, if any, and its piece.
    let mut cell = vec![None; w * h];
    for p in cells {
        cell[at(*p)] = Some(*p);
    }
    let mut piece = vec![usize::MAX; w * h];
    let mut pieces: Vec<Vec<Point>> = Vec::new();
    for p in cells {
        if piece[at(*p)] != usize::MAX {
            continue;
        }
        let k = pieces.len();
        piece[at(*p)] = k;
        let mut members = vec![*p];
        let mut i = 0;
        while i < members.len() {
            let q = members[i];
            i += 1;
            for y in q.y.saturating_sub(1).max(y0)..=(q.y + 1).min(y0 + h as u32 - 1) {
                for x in q.x.saturating_sub(1).max(x0)..=(q.x + 1).min(x0 + w as u32 - 1) {
                    let j = at(Point::new(x, y));
                    if let Some(r) = cell[j]
                        && piece[j] == usize::MAX
                    {
                        piece[j] = k;
                        members.push(r);
                    }
                }
            }
        }
        pieces.push(members);
    }
    pieces
}

/// The cells of a `width` x `height` map within Euclidean distance `radius`
/// of `center` (`radius` included when `inclusive`), each with its distance.
pub(crate) fn disk(
    center: Point,
    radius: u32,
    width: u32,
    height: u32,
    inclusive: bool,
) -> impl Iterator<Item = (Point, f64)> {
    // Every cell is nearer than width + height: a larger radius covers the
    // same cells, and clamped its square cannot overflow.
    let r = (radius as i64).min(width as i64 + height as i64);
    let (cx, cy) = (center.x as i64, center.y as i64);
    let (x0, x1) = ((cx - r).max(0), (cx + r).min(width as i64 - 1));
    let (y0, y1) = ((cy - r).max(0), (cy + r).min(height as i64 - 1));
    (y0..=y1)
        .flat_map(move |y| (x0..=x1).map(move |x| (x, y)))
        .filter_map(move |(x, y)| {
            let d2 = (x - cx).pow(2) + (y - cy).pow(2);
            let inside = if inclusive { d2 <= r * r } else { d2 < r * r };
            inside.then(|| (Point::new(x as u32, y as u32), (d2 as f64).sqrt()))
        })
}

#[cfg(test)]
mod cut_tests;
#[cfg(test)]
mod sized_tests;
#[cfg(test)]
mod tests;
