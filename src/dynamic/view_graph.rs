//! A fog-of-war player's cluster graph, shared cluster by cluster with the
//! truth and with the hierarchy of open ground.
//!
//! A player believes every unexplored cell to be open plain ground and every
//! explored one to be what the truth says. Cluster by cluster, its map is then
//! mostly one of two maps a whole hierarchy already exists for: the truth's
//! (where it has explored) and open ground's (where it has not). What a
//! cluster contributes to the cluster graph (its transitions, the edges
//! between them, their stored paths, and its links to the clusters around)
//! depends only on the cluster's cells and the one-cell ring around it: the
//! borders and corners are scanned over the two lines (or the 2x2 cells) that
//! meet there, and the inside edges are searches within the cluster. So a
//! cluster whose cells and ring the player believes as the truth has them
//! contributes exactly the truth's part; one whose cells and ring it believes
//! open plain ground contributes exactly open ground's; only the others (on
//! the frontier of what it has explored) need a part of their own.
//!
//! [`ViewGraph`] keeps that class per cluster, counted as reveals come, and
//! the parts of its own clusters. Its nodes are numbered as a build of the
//! player's map numbers them (cluster by cluster, each cluster's transitions
//! by cell), and a node's out-edges come in the build's order (the inside
//! edges in the cluster's order, then the links by target), so reading it is
//! reading the graph a build of the player's map would make, without holding
//! one.
//!
//! # Performance
//! Per player: a class, two counts and a node offset per cluster (20 bytes),
//! and each own cluster's part (about what the truth's cluster costs, 1-2 KB
//! for clusters of 16): on TheFrozenSea with the top quarter explored, 52
//! of 4,096 clusters are the player's own and the whole view graph takes
//! 115 KB, where the truth's graph takes 1.47 MB. A reveal recounts the clusters whose ring holds a
//! changed cell, rebuilds the parts of the own clusters among them (one
//! border scan per side and corner, the cluster's inside searches), and lays
//! the node offsets out again (one pass over the clusters). Reading a node's
//! edges from a shared part translates each link's target to this player's
//! numbering (a binary search among the target cluster's few transitions).

use std::sync::Arc;

use crate::grid::{Grid, Point, Weight};
use crate::hierarchy::Hierarchy;
use crate::preprocess::ClusterLayout;
use crate::preprocess::cluster_search::ClusterSearch;
use crate::preprocess::clusters::border_pairs;
use crate::preprocess::graph::intra_cluster_edges;

/// Where a cluster's part of the graph comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The truth's hierarchy: the player believes the cluster and its ring as
    /// they are.
    Truth,
    /// The hierarchy of open ground: the player believes the cluster and its
    /// ring open plain ground.
    Open,
    /// A part of its own (index into the view's own parts).
    Own(u32),
}

/// The target of an own cluster's edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A transition of the same cluster (local index).
    Inside(u32),
    /// A transition of another cluster (its cell, row-major).
    Across(u32),
}

/// The part of the graph an own cluster contributes, laid out as a small
/// compressed-row graph over its local transitions.
#[derive(Debug, Clone, Default)]
struct OwnPart {
    /// Transition cells, row-major, sorted.
    cells: Vec<u32>,
    /// `to[first[v]..first[v + 1]]` are local node `v`'s out-edges.
    first: Vec<u32>,
    to: Vec<Target>,
    cost: Vec<u64>,
    /// Per edge: its moves, `codes[path.0..path.1]` (empty when not stored).
    path: Vec<(u32, u32)>,
    codes: Vec<u8>,
}

impl OwnPart {
    fn memory_bytes(&self) -> usize {
        4 * (self.cells.len() + self.first.len())
            + std::mem::size_of::<Target>() * self.to.len()
            + 8 * self.cost.len()
            + 8 * self.path.len()
            + self.codes.len()
    }
}

/// What a hierarchy holds for a fog-of-war player's view instead of a
/// cluster graph of its own: the two shared hierarchies and the view graph
/// over them.
#[derive(Debug, Clone)]
pub(crate) struct ViewParts {
    pub(crate) truth: Arc<Hierarchy>,
    pub(crate) open: Arc<Hierarchy>,
    pub(crate) graph: ViewGraph,
}

/// A player's cluster graph, read cluster by cluster from the truth, the
/// hierarchy of open ground, or parts of its own (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct ViewGraph {
    layout: ClusterLayout,
    /// Per cluster: cells of the cluster and its ring the player believes
    /// otherwise than the truth has them (unexplored, and not open plain
    /// ground).
    off_truth: Vec<u32>,
    /// Per cluster: cells of the cluster and its ring the player believes
    /// other than open plain ground (explored, and not open plain ground).
    off_open: Vec<u32>,
    source: Vec<Source>,
    /// Per cluster: its first node in the player's numbering; one more entry
    /// holds the number of nodes.
    first: Vec<u32>,
    own: Vec<OwnPart>,
    /// Own parts no cluster uses, for reuse.
    free: Vec<u32>,
    /// Per own part: the id of its first edge. Edges are numbered the
    /// truth's first, then open ground's, then the own parts' in turn.
    own_edge_first: Vec<u32>,
}

/// Whether a cell of the truth is what an unexplored cell is assumed to be.
pub(crate) fn as_assumed(truth: &Grid, p: Point) -> bool {
    truth.is_passable(p) && truth.weight(p) == Weight::ONE
}

impl ViewGraph {
    /// The graph of a player who has seen nothing of `truth`'s map: every
    /// cluster whose ring holds a cell other than open plain ground is the
    /// open ground's, the others the truth's (they are the same).
    pub(crate) fn new(truth: &Hierarchy) -> ViewGraph {
        let layout = *truth.layout();
        let grid = truth.grid();
        let mut off_truth = vec![0u32; layout.count()];
        for y in 0..grid.height() {
            for x in 0..grid.width() {
                let p = Point::new(x, y);
                if !as_assumed(grid, p) {
                    for_rings_holding(&layout, p, |c| off_truth[c as usize] += 1);
                }
            }
        }
        let mut view = ViewGraph {
            layout,
            off_open: vec![0; layout.count()],
            source: vec![Source::Truth; layout.count()],
            first: vec![0; layout.count() + 1],
            own: Vec::new(),
            free: Vec::new(),
            own_edge_first: Vec::new(),
            off_truth,
        };
        for c in 0..layout.count() {
            view.source[c] = view.class_of(c as u32);
        }
        view
    }

    /// The source a cluster's counts call for (`Own` with a placeholder
    /// index).
    fn class_of(&self, c: u32) -> Source {
        if self.off_truth[c as usize] == 0 {
            Source::Truth
        } else if self.off_open[c as usize] == 0 {
            Source::Open
        } else {
            Source::Own(u32::MAX)
        }
    }

    /// Takes in revealed cells whose truth is not open plain ground (the
    /// player now believes them as the truth has them), with `believed` the
    /// player's map after the reveal, and renumbers the nodes. `truth` and
    /// `open` are the two shared hierarchies. Returns the clusters whose part
    /// changed.
    pub(crate) fn reveal(
        &mut self,
        truth: &Hierarchy,
        open: &Hierarchy,
        believed: &Grid,
        revealed: &[Point],
        search: &mut ClusterSearch,
    ) -> Vec<u32> {
        let mut touched = Vec::new();
        for p in revealed {
            for_rings_holding(&self.layout, *p, |c| {
                self.off_truth[c as usize] -= 1;
                self.off_open[c as usize] += 1;
                touched.push(c);
            });
        }
        touched.sort_unstable();
        touched.dedup();
        for c in &touched {
            let class = self.class_of(*c);
            let slot = &mut self.source[*c as usize];
            if let Source::Own(k) = *slot {
                self.free.push(k);
            }
            *slot = class;
            if class == Source::Own(u32::MAX) {
                let part = own_part(truth, believed, *c, search);
                let k = match self.free.pop() {
                    Some(k) => {
                        self.own[k as usize] = part;
                        k
                    }
                    None => {
                        self.own.push(part);
                        self.own.len() as u32 - 1
                    }
                };
                self.source[*c as usize] = Source::Own(k);
            }
        }
        for k in &self.free {
            self.own[*k as usize] = OwnPart::default();
        }
        self.renumber(truth, open);
        touched
    }

    /// Lays out every cluster's first node, and every own part's first
    /// edge, again.
    pub(crate) fn renumber(&mut self, truth: &Hierarchy, open: &Hierarchy) {
        let mut next = (truth.graph().edges() + open.graph().edges()) as u32;
        self.own_edge_first.clear();
        for part in &self.own {
            self.own_edge_first.push(next);
            next += part.to.len() as u32;
        }
        let mut next = 0u32;
        for c in 0..self.layout.count() {
            self.first[c] = next;
            next += self.cluster_cells(truth, open, c as u32).len() as u32;
        }
        self.first[self.layout.count()] = next;
    }

    /// Number of nodes.
    pub(crate) fn nodes(&self) -> usize {
        self.first[self.layout.count()] as usize
    }

    /// Where cluster `c`'s part comes from.
    #[cfg(test)]
    pub(crate) fn source(&self, c: u32) -> Source {
        self.source[c as usize]
    }

    /// The transition cells of cluster `c` (row-major, sorted).
    pub(crate) fn cluster_cells<'a>(
        &'a self,
        truth: &'a Hierarchy,
        open: &'a Hierarchy,
        c: u32,
    ) -> &'a [u32] {
        match self.part(truth, open, c) {
            Part::Shared(h, _) => h.entrances().cluster_cells(c),
            Part::Own(part, _) => &part.cells,
        }
    }

    /// Where cluster `c`'s part is read, with the view's id of its first
    /// edge there (edge `e` of it is the view's `id + e`).
    fn part<'a>(&'a self, truth: &'a Hierarchy, open: &'a Hierarchy, c: u32) -> Part<'a> {
        match self.source[c as usize] {
            Source::Truth => Part::Shared(truth, 0),
            Source::Open => Part::Shared(open, truth.graph().edges() as u32),
            Source::Own(k) => Part::Own(&self.own[k as usize], self.own_edge_first[k as usize]),
        }
    }

    /// The cluster holding node `v`.
    pub(crate) fn cluster_of_node(&self, v: u32) -> u32 {
        (self.first.partition_point(|f| *f <= v) - 1) as u32
    }

    /// The cell (row-major) of node `v`.
    pub(crate) fn node_cell(&self, truth: &Hierarchy, open: &Hierarchy, v: u32) -> u32 {
        let c = self.cluster_of_node(v);
        self.cluster_cells(truth, open, c)[(v - self.first[c as usize]) as usize]
    }

    /// The node at transition cell `cell` (row-major), if it is one.
    pub(crate) fn node_at(&self, truth: &Hierarchy, open: &Hierarchy, cell: u32) -> Option<u32> {
        let w = self.layout.width;
        let c = self.layout.cluster_of(Point::new(cell % w, cell / w));
        let at = self
            .cluster_cells(truth, open, c)
            .binary_search(&cell)
            .ok()?;
        Some(self.first[c as usize] + at as u32)
    }

    /// The nodes of cluster `c`, as the range `a..b`.
    pub(crate) fn cluster_nodes(&self, c: u32) -> (u32, u32) {
        (self.first[c as usize], self.first[c as usize + 1])
    }

    /// The out-edges of node `v` as `(target, cost, edge)`, in the order a
    /// build of the player's map stores them.
    pub(crate) fn out_edges<'a>(
        &'a self,
        truth: &'a Hierarchy,
        open: &'a Hierarchy,
        v: u32,
    ) -> ViewEdges<'a> {
        let c = self.cluster_of_node(v);
        let local = v - self.first[c as usize];
        let (read, e, end) = match self.part(truth, open, c) {
            Part::Shared(h, id) => {
                let (base, base_end) = h.cluster_nodes(c);
                let first = &h.graph().edge_first;
                let v = (base + local) as usize;
                (
                    Read::Shared {
                        h,
                        base,
                        base_end,
                        id,
                    },
                    first[v] as usize,
                    first[v + 1] as usize,
                )
            }
            Part::Own(part, id) => (
                Read::Own { part, id },
                part.first[local as usize] as usize,
                part.first[local as usize + 1] as usize,
            ),
        };
        ViewEdges {
            view: self,
            truth,
            open,
            first: self.first[c as usize],
            read,
            e,
            end,
        }
    }

    /// The moves behind edge `e` (numbered as [`ViewEdges`] numbers them),
    /// when stored.
    pub(crate) fn edge_path<'a>(
        &'a self,
        truth: &'a Hierarchy,
        open: &'a Hierarchy,
        e: u32,
    ) -> Option<&'a [u8]> {
        let (t, o) = (truth.graph().edges() as u32, open.graph().edges() as u32);
        if e < t {
            return truth.graph().edge_path(e as usize);
        }
        if e < t + o {
            return open.graph().edge_path((e - t) as usize);
        }
        let k = self.own_edge_first.partition_point(|f| *f <= e) - 1;
        let part = &self.own[k];
        let (a, b) = part.path[(e - self.own_edge_first[k]) as usize];
        (a < b).then(|| &part.codes[a as usize..b as usize])
    }

    /// Edges inside clusters and between them (one pass over the edges'
    /// targets).
    pub(crate) fn edge_split(&self, truth: &Hierarchy, open: &Hierarchy) -> (u64, u64) {
        let (mut intra, mut inter) = (0u64, 0u64);
        for c in 0..self.layout.count() as u32 {
            let (inside, all) = match self.part(truth, open, c) {
                Part::Shared(h, _) => {
                    let (a, b) = h.cluster_nodes(c);
                    let g = h.graph();
                    let to = &g.edge_to
                        [g.edge_first[a as usize] as usize..g.edge_first[b as usize] as usize];
                    (to.iter().filter(|t| (a..b).contains(*t)).count(), to.len())
                }
                Part::Own(part, _) => (
                    part.to
                        .iter()
                        .filter(|t| matches!(t, Target::Inside(_)))
                        .count(),
                    part.to.len(),
                ),
            };
            intra += inside as u64;
            inter += (all - inside) as u64;
        }
        (intra, inter)
    }

    /// Clusters with a part of their own.
    #[cfg(test)]
    pub(crate) fn own_clusters(&self) -> usize {
        self.own.len() - self.free.len()
    }

    /// Bytes held: the per-cluster tables and the own parts.
    pub(crate) fn memory_bytes(&self) -> usize {
        4 * (self.off_truth.len() + self.off_open.len() + self.first.len())
            + 4 * self.own_edge_first.len()
            + std::mem::size_of::<Source>() * self.source.len()
            + self.own.iter().map(OwnPart::memory_bytes).sum::<usize>()
    }
}

/// Calls `f(c)` for every cluster whose ring (the cluster and the cells one
/// step around it) holds `p`.
fn for_rings_holding(layout: &ClusterLayout, p: Point, mut f: impl FnMut(u32)) {
    let s = layout.size;
    let (x0, x1) = (
        p.x.saturating_sub(1) / s,
        ((p.x + 1) / s).min(layout.cols - 1),
    );
    let (y0, y1) = (
        p.y.saturating_sub(1) / s,
        ((p.y + 1) / s).min(layout.rows - 1),
    );
    for cy in y0..=y1 {
        for cx in x0..=x1 {
            f(cy * layout.cols + cx);
        }
    }
}

/// Where a cluster's part of a view's graph is read: a shared hierarchy or
/// an own part, with the view's id of its first edge there.
#[derive(Debug, Clone, Copy)]
enum Part<'a> {
    Shared(&'a Hierarchy, u32),
    Own(&'a OwnPart, u32),
}

/// Where an out-edge iterator reads its edges.
#[derive(Debug, Clone, Copy)]
enum Read<'a> {
    /// From a shared hierarchy, whose cluster's nodes are `base..base_end`,
    /// its edge `e` being the view's `id + e`.
    Shared {
        h: &'a Hierarchy,
        base: u32,
        base_end: u32,
        id: u32,
    },
    /// From an own part, its edge `e` being the view's `id + e`.
    Own { part: &'a OwnPart, id: u32 },
}

/// The out-edges of a node of a [`ViewGraph`]: `(target, cost, edge)`.
#[derive(Debug, Clone)]
pub(crate) struct ViewEdges<'a> {
    view: &'a ViewGraph,
    truth: &'a Hierarchy,
    open: &'a Hierarchy,
    /// The view's first node of the cluster.
    first: u32,
    read: Read<'a>,
    e: usize,
    end: usize,
}

impl ViewEdges<'_> {
    /// The view's node at the far end of a link, at `cell`.
    fn across(&self, cell: u32) -> u32 {
        self.view
            .node_at(self.truth, self.open, cell)
            .expect("a link's far end is a transition of its cluster")
    }
}

impl Iterator for ViewEdges<'_> {
    type Item = (u32, u64, usize);

    #[inline]
    fn next(&mut self) -> Option<(u32, u64, usize)> {
        if self.e == self.end {
            return None;
        }
        let e = self.e;
        self.e += 1;
        Some(match self.read {
            Read::Shared {
                h,
                base,
                base_end,
                id,
            } => {
                let g = h.graph();
                let to = g.edge_to[e];
                let to = if (base..base_end).contains(&to) {
                    self.first + (to - base)
                } else {
                    self.across(h.entrances().cells[to as usize])
                };
                (to, g.edge_cost.get(e), id as usize + e)
            }
            Read::Own { part, id } => {
                let to = match part.to[e] {
                    Target::Inside(u) => self.first + u,
                    Target::Across(cell) => self.across(cell),
                };
                (to, part.cost[e], id as usize + e)
            }
        })
    }
}

/// The part cluster `c` contributes to the graph of `believed` (built with
/// `truth`'s settings).
fn own_part(truth: &Hierarchy, believed: &Grid, c: u32, search: &mut ClusterSearch) -> OwnPart {
    let layout = truth.layout();
    let settings = truth.settings();
    let w = believed.width();
    let cluster_of = |cell: u32| layout.cluster_of(Point::new(cell % w, cell / w));
    let (mut offsets, mut pairs) = (Vec::new(), Vec::new());
    for border in layout.borders_of(c) {
        border_pairs(
            believed,
            &settings.movement,
            layout,
            &settings.entrances,
            border,
            &mut offsets,
            &mut pairs,
        );
    }
    // Each pair with an end here as (this cluster's end, the far end); a
    // corner's diagonal may join two of the other clusters.
    let mut links: Vec<(u32, u32)> = pairs
        .iter()
        .filter_map(|(a, b)| match (cluster_of(*a) == c, cluster_of(*b) == c) {
            (true, _) => Some((*a, *b)),
            (_, true) => Some((*b, *a)),
            _ => None,
        })
        .collect();
    let mut cells: Vec<u32> = links.iter().map(|(a, _)| *a).collect();
    cells.sort_unstable();
    cells.dedup();
    // A node's links by target in the build's numbering: by cluster, then by
    // cell.
    links.sort_unstable_by_key(|(a, b)| (*a, cluster_of(*b), *b));
    links.dedup();
    let inside = intra_cluster_edges(
        believed,
        &settings.movement,
        layout,
        c,
        &cells,
        settings.keep_paths,
        search,
    );
    let mut part = OwnPart {
        first: Vec::with_capacity(cells.len() + 1),
        codes: inside.codes,
        ..OwnPart::default()
    };
    let mut next_link = 0;
    for (v, cell) in cells.iter().enumerate() {
        part.first.push(part.to.len() as u32);
        for e in inside.edges.iter().filter(|e| e.from == v as u32) {
            part.to.push(Target::Inside(e.to));
            part.cost.push(e.cost);
            part.path.push(e.path);
        }
        while next_link < links.len() && links[next_link].0 == *cell {
            let far = links[next_link].1;
            let (pa, pb) = (
                believed.point_of(crate::CellIndex(*cell)),
                believed.point_of(crate::CellIndex(far)),
            );
            part.to.push(Target::Across(far));
            part.cost
                .push(believed.step_cost(&settings.movement, pa, pb));
            part.path.push((0, 0));
            next_link += 1;
        }
    }
    part.first.push(part.to.len() as u32);
    part.cells = cells;
    part
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HierarchyBuilder;
    use crate::mapgen::{self, MapKind, MapParams};
    use fixedbitset::FixedBitSet;

    /// The player's map: explored cells as the truth has them, the others
    /// open plain ground.
    fn believed(truth: &Grid, explored: &FixedBitSet) -> Grid {
        let w = truth.width();
        let mut g = Grid::from_fn(w, truth.height(), |p| {
            !explored.contains((p.y * w + p.x) as usize) || truth.is_passable(p)
        })
        .unwrap();
        for p in truth.passable_points() {
            if explored.contains((p.y * w + p.x) as usize) && truth.weight(p) != Weight::ONE {
                g.set_weight(p, truth.weight(p)).unwrap();
            }
        }
        g
    }

    /// The view's graph is, node by node and edge by edge, the graph of a
    /// build of `map`.
    fn assert_reads_as(view: &ViewGraph, truth: &Hierarchy, open: &Hierarchy, built: &Hierarchy) {
        let cells = &built.entrances().cells;
        assert_eq!(view.nodes(), cells.len(), "nodes");
        let (intra, inter) = view.edge_split(truth, open);
        assert_eq!(
            (intra, inter),
            (built.graph().intra_edges(), built.graph().inter_edges()),
            "edges"
        );
        let own = (0..truth.layout().count() as u32)
            .filter(|c| matches!(view.source(*c), Source::Own(_)))
            .count();
        assert_eq!(own, view.own_clusters(), "own parts in use");
        for v in 0..view.nodes() as u32 {
            assert_eq!(
                view.node_cell(truth, open, v),
                cells[v as usize],
                "node {v}"
            );
            let got: Vec<_> = view
                .out_edges(truth, open, v)
                .map(|(to, cost, e)| {
                    (
                        to,
                        cost,
                        view.edge_path(truth, open, e as u32).map(<[u8]>::to_vec),
                    )
                })
                .collect();
            let want: Vec<_> = built
                .graph()
                .out_edges(v)
                .map(|(to, cost, e)| (to, cost, built.graph().edge_path(e).map(<[u8]>::to_vec)))
                .collect();
            assert_eq!(
                got,
                want,
                "edges of node {v} at {:?}",
                view.node_cell(truth, open, v)
            );
        }
    }

    fn check(truth_grid: Grid, builder: HierarchyBuilder, reveals: &[(u32, u32, u32)]) {
        let truth = builder.clone().build(truth_grid.clone()).unwrap();
        let settings = *truth.settings();
        let open = HierarchyBuilder::with_settings(settings)
            .build(Grid::new(truth_grid.width(), truth_grid.height()).unwrap())
            .unwrap();
        let mut view = ViewGraph::new(&truth);
        let mut explored = FixedBitSet::with_capacity(truth_grid.len());
        let mut search = ClusterSearch::default();
        let rebuild = |explored: &FixedBitSet| {
            HierarchyBuilder::with_settings(settings)
                .build(believed(&truth_grid, explored))
                .unwrap()
        };
        view.renumber(&truth, &open);
        assert_reads_as(&view, &truth, &open, &rebuild(&explored));
        let w = truth_grid.width();
        for (x, y, r) in reveals {
            let mut revealed = Vec::new();
            for p in super::super::disk(Point::new(*x, *y), *r, w, truth_grid.height(), true)
                .map(|(p, _)| p)
            {
                let i = (p.y * w + p.x) as usize;
                if !explored.contains(i) {
                    explored.insert(i);
                    if !as_assumed(&truth_grid, p) {
                        revealed.push(p);
                    }
                }
            }
            let map = believed(&truth_grid, &explored);
            view.reveal(&truth, &open, &map, &revealed, &mut search);
            assert_reads_as(&view, &truth, &open, &rebuild(&explored));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 300,
            failure_persistence: None,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// On random maps, under every movement rule and entrance policy,
        /// with weights and without: after every reveal, the view reads as a
        /// build of the player's map.
        #[test]
        fn views_read_as_builds_of_their_maps(
            case in super::super::tests::case_strategy(),
            reveals in proptest::collection::vec((0u32..32, 0u32..32, 0u32..6), 1..6),
        ) {
            let reveals: Vec<_> = reveals
                .into_iter()
                .map(|(x, y, r)| (x % case.w, y % case.h, r))
                .collect();
            check(case.grid(), case.builder(0), &reveals);
        }
    }

    #[test]
    fn a_view_reads_as_a_build_of_its_map() {
        let params = MapParams {
            room_size: 7,
            ..MapParams::default()
        };
        let grid = mapgen::generate_with(MapKind::Rooms, 96, 80, 3, &params).unwrap();
        let reveals = [
            (20, 20, 9),
            (60, 30, 14),
            (40, 70, 6),
            (90, 5, 30),
            (10, 60, 40),
        ];
        check(
            grid.clone(),
            HierarchyBuilder::new().cluster_size(8),
            &reveals,
        );
        check(grid, HierarchyBuilder::new().cluster_size(10), &reveals);
    }
}
