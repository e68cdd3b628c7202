//! The cluster graph contracted (a customizable contraction hierarchy, see
//! `src/contraction`), so the search over it takes microseconds: built on
//! demand by [`Hierarchy::contract`], one metric per band of unit sizes.

use crate::contraction::{
    ArcGraph, Contraction, ContractionError, ContractionKind, ContractionMetric, ContractionRoute,
    ContractionScratch, Current, FORBIDDEN, PackedRoute, Patchable, QueryGraph, StoredQueryGraph,
};
use crate::grid::Point;
use crate::hierarchy::Hierarchy;
use crate::preprocess::ClusterGraph;
use rayon::prelude::*;

/// A contraction of one hierarchy's cluster graph, as its queries read it:
/// one pruned query graph per band of unit sizes.
#[derive(Debug, Clone)]
pub(crate) struct Contracted {
    /// The cluster graph's arcs and costs contracted (`Identity::arcs`): a
    /// repair that changes them gives the hierarchy others, and its
    /// searches fall back to A* until contracted again. 0 (no identity)
    /// while a build's contraction waits for its hierarchy
    /// ([`Contracted::of`]).
    pub(super) built_for: u64,
    /// One query graph per distinct edge annotation, ascending by the
    /// largest size it serves (one for a hierarchy of one size).
    graphs: Vec<QueryGraph>,
    /// The smallest size each query graph serves the edges of (its band).
    bands: Vec<u8>,
    /// The query graph of each unit size, by size (index 0 unused).
    graph_of: Vec<u8>,
    /// A dynamic hierarchy's: the contraction itself with one full metric
    /// per band, kept so that a repair that changes arcs patches it (see
    /// `contraction::patched`) instead of ending it. Once patched, `graphs`
    /// is emptied and queries search the patched contraction.
    patchable: Option<Box<Patchable>>,
}

impl Contracted {
    /// Contracts `graph` (its nodes at `node_points`) for every band of the
    /// unit sizes up to `max_unit_size`, during a build, before its
    /// hierarchy exists: what [`Hierarchy::contract_with`] makes of the same
    /// graph, made for no hierarchy until
    /// [`Hierarchy::install_built_contraction`] installs it.
    pub(crate) fn of(
        kind: ContractionKind,
        graph: &ClusterGraph,
        node_points: &[Point],
        max_unit_size: u32,
    ) -> Result<Contracted, ContractionError> {
        let (bands, graph_of) = bands_of(&graph.edge_clear, max_unit_size as usize);
        let costs = band_costs(graph, &bands);
        let arcs = ArcGraph::new(&graph.edge_first, &graph.edge_to)?;
        let coords: Vec<(u32, u32)> = node_points.iter().map(|p| (p.x, p.y)).collect();
        Ok(Contracted {
            built_for: 0,
            graphs: query_graphs(kind, &arcs, &coords, &costs)?,
            bands,
            graph_of,
            patchable: None,
        })
    }

    /// The query graphs, one per band of unit sizes.
    #[cfg(test)]
    pub(crate) fn graphs(&self) -> &[QueryGraph] {
        &self.graphs
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.graphs
            .iter()
            .map(QueryGraph::memory_bytes)
            .sum::<usize>()
            + self.bands.len()
            + self.graph_of.len()
            + self.patchable.as_ref().map_or(0, |p| p.memory_bytes())
    }

    /// The patched contraction, once a repair patched it (queries then
    /// search it, not the query graphs).
    fn patched(&self) -> Option<&Patchable> {
        self.patchable.as_deref().filter(|p| p.is_patched())
    }

    /// Whether repairs that change the cluster graph's arcs patch this
    /// contraction rather than end it.
    pub(crate) fn is_patchable(&self) -> bool {
        self.patchable.is_some()
    }
}

/// The work of contracting a hierarchy's cluster graph, taken by
/// [`Hierarchy::contraction_job`] and run anywhere (it owns a copy of what
/// it needs: `Send`), to be installed on that hierarchy if no repair since
/// changed its cluster graph's arcs or costs.
#[derive(Debug, Clone)]
pub struct ContractionJob {
    kind: ContractionKind,
    /// The hierarchy's arcs and costs as the job was taken
    /// (`Identity::arcs`).
    made_for: u64,
    /// The cluster graph (CSR), its nodes' cells, and the costs of each band
    /// of unit sizes.
    first: Vec<u32>,
    to: Vec<u32>,
    coords: Vec<(u32, u32)>,
    costs: Vec<Vec<u64>>,
    bands: Vec<u8>,
    graph_of: Vec<u8>,
    /// The first node of each cluster, and whether to keep the contraction
    /// for repairs to patch (a dynamic hierarchy's job).
    cluster_first: Vec<u32>,
    for_repairs: bool,
}

impl ContractionJob {
    /// The job of a [`DynamicHierarchy`](crate::DynamicHierarchy): its
    /// result also keeps the contraction itself and one full metric per
    /// band, which repairs that change the cluster graph's arcs patch.
    pub(crate) fn for_repairs(mut self) -> ContractionJob {
        self.for_repairs = true;
        self
    }

    /// The contraction of the job's graph with one full metric per band,
    /// kept for repairs to patch.
    fn patchable(&self) -> Result<Patchable, ContractionError> {
        let arcs = ArcGraph::new(&self.first, &self.to)?;
        let cch = Contraction::new(&arcs, Some(&self.coords))?;
        let metrics = self
            .costs
            .par_iter()
            .map(|c| cch.customize(c))
            .collect::<Result<Vec<ContractionMetric>, _>>()?;
        Ok(Patchable::new(
            cch,
            (&self.first, &self.to),
            &self.cluster_first,
            metrics,
            self.costs.clone(),
            self.coords
                .iter()
                .map(|(x, y)| Point::new(*x, *y))
                .collect(),
        ))
    }

    /// Contracts: orders and contracts the graph once, then customizes and
    /// prunes one query graph per band (or builds a classic hierarchy per
    /// band), the bands in parallel (rayon), and within a band the order's
    /// two sides and the customization's independent subtrees too. Takes
    /// what [`Hierarchy::contract`] takes.
    pub fn run(self) -> Result<ContractionDone, ContractionError> {
        let arcs = ArcGraph::new(&self.first, &self.to)?;
        let (graphs, patchable) = match (self.for_repairs, self.kind) {
            (false, kind) => (query_graphs(kind, &arcs, &self.coords, &self.costs)?, None),
            (true, ContractionKind::Customizable) => {
                // The query graphs from the contraction kept.
                let patchable = self.patchable()?;
                (patchable.query_graphs()?, Some(Box::new(patchable)))
            }
            (true, ContractionKind::Classic) => (
                query_graphs(ContractionKind::Classic, &arcs, &self.coords, &self.costs)?,
                Some(Box::new(self.patchable()?)),
            ),
        };
        let contracted = Contracted {
            built_for: self.made_for,
            graphs,
            bands: self.bands,
            graph_of: self.graph_of,
            patchable,
        };
        Ok(ContractionDone { contracted })
    }
}

/// Orders and contracts `arcs` (its nodes at `coords`) once, then
/// customizes and prunes one query graph per cost list (or builds a classic
/// hierarchy per list), the lists in parallel.
fn query_graphs(
    kind: ContractionKind,
    arcs: &ArcGraph,
    coords: &[(u32, u32)],
    costs: &[Vec<u64>],
) -> Result<Vec<QueryGraph>, ContractionError> {
    let contraction = match kind {
        ContractionKind::Customizable => Some(Contraction::new(arcs, Some(coords))?),
        ContractionKind::Classic => None,
    };
    costs
        .par_iter()
        .map(|costs| match &contraction {
            Some(cch) => cch.query_graph(&cch.customize(costs)?),
            None => QueryGraph::classic(arcs, costs),
        })
        .collect()
}

/// A patched contraction, a band, and the cluster graph with its costs.
type PatchedFor<'a, C> = (&'a Patchable, usize, Current<'a, C>);

/// A finished [`ContractionJob`], to install on the hierarchy it was taken
/// from ([`Hierarchy::install_contraction`]).
#[derive(Debug, Clone)]
pub struct ContractionDone {
    contracted: Contracted,
}

/// The bands of unit sizes up to `max` that share a metric, given each
/// edge's largest size (`edge_clear`, empty for one size): see
/// [`Hierarchy::bands`].
fn bands_of(edge_clear: &[u8], max: usize) -> (Vec<u8>, Vec<u8>) {
    let mut bands: Vec<u8> = edge_clear.to_vec();
    bands.sort_unstable();
    bands.dedup();
    if bands.last().is_none_or(|b| (*b as usize) < max) {
        bands.push(max as u8);
    }
    // Size k uses the graph of the least band >= k.
    let graph_of = (0..=max)
        .map(|k| bands.iter().position(|b| *b as usize >= k).unwrap_or(0) as u8)
        .collect();
    (bands, graph_of)
}

/// Each band's costs, one per edge (see [`band_cost`]).
fn band_costs(graph: &ClusterGraph, bands: &[u8]) -> Vec<Vec<u64>> {
    bands
        .iter()
        .map(|&band| {
            (0..graph.edges() as u32)
                .map(band_cost(graph, band))
                .collect()
        })
        .collect()
}

/// Whether edge `e` serves units of `band` (every edge does without sizes).
fn serves(edge_clear: &[u8], e: usize, band: u8) -> bool {
    edge_clear.is_empty() || edge_clear[e] >= band
}

/// The costs of `band`'s metric: an edge's cost where it serves the band,
/// else [`FORBIDDEN`].
fn band_cost(graph: &ClusterGraph, band: u8) -> impl Fn(u32) -> u64 + '_ {
    move |e: u32| {
        if serves(&graph.edge_clear, e as usize, band) {
            graph.edge_cost.get(e as usize)
        } else {
            FORBIDDEN
        }
    }
}

impl Hierarchy {
    /// Contracts the cluster graph, so that the search over it (about 70% of
    /// a long query's time otherwise) takes microseconds: a customizable
    /// contraction hierarchy (nested-dissection order from the transitions'
    /// cells, one metric per band of unit sizes), searched by
    /// [`find_path`](Hierarchy::find_path) and every other query from now on
    /// instead of A* over the graph. Paths are those of an exact search over
    /// the same graph (equal in cost to the A* route).
    ///
    /// It is saved with the hierarchy ([`save_file`](Hierarchy::save_file)),
    /// and a contracted file loads contracted: each query graph is checked
    /// against the cluster graph as it loads, in a fraction of the time a
    /// contraction takes (see `docs/hostile-input.md`). A repair
    /// ([`DynamicHierarchy`](crate::DynamicHierarchy)) leaves the copy it
    /// repaired uncontracted (its queries use A* until contracted again).
    ///
    /// What only that A* reads (the landmark distances of its heuristic and
    /// each transition's place in the dead-end forest) is let go of here,
    /// since no contracted query runs it: [`DynamicHierarchy::new`]
    /// derives it again (about a build's landmark stage), and
    /// [`save`](Hierarchy::save) writes the landmarks a build would: the
    /// file is the uncontracted hierarchy's, then the contraction.
    ///
    /// [`DynamicHierarchy::new`]: crate::DynamicHierarchy::new
    ///
    /// ```
    /// use tierpath::{Grid, Hierarchy, Point, QueryCache};
    /// let mut h = Hierarchy::build(Grid::from_fn(300, 200, |p| !(p.x == 150 && p.y > 20)).unwrap())?;
    /// let mut cache = QueryCache::new();
    /// let (s, t) = (Point::new(5, 190), Point::new(295, 190));
    /// let before = h.find_path(&mut cache, s, t)?.path.unwrap();
    /// h.contract()?;
    /// assert!(h.is_contracted());
    /// let after = h.find_path(&mut cache, s, t)?.path.unwrap();
    /// after.validate(h.grid(), h.movement())?;
    /// assert!(after.cost <= before.cost);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Performance
    /// Measured with `tierpath bench --contract` on the long queries of the
    /// Moving AI sets (README, 26 Nov 2026): about 4x as fast as exact JPS
    /// on StarCraft and rooms maps by median, at a whole hierarchy of 5.3
    /// bytes per cell on StarCraft maps (median) but 45 on random maps,
    /// whose build takes about a second (see `docs/contraction.md`): an
    /// option for games that ask for many long paths, not yet the default.
    /// It runs on rayon's threads: 90-93 ms on TheFrozenSea (1024 x 1024)
    /// on 2 cores, after a build of about 30 ms (28 Nov 2026). A build that
    /// is to be contracted anyway is better asked to
    /// ([`HierarchyBuilder::contract`](crate::HierarchyBuilder::contract)):
    /// the contraction then runs beside the build's other stages and skips
    /// its landmarks, 111-114 ms for both on that map.
    pub fn contract(&mut self) -> Result<(), ContractionError> {
        self.contract_with(ContractionKind::default())
    }

    /// [`contract`](Hierarchy::contract) with a chosen kind of contraction
    /// (see [`ContractionKind`]): the same least costs either way.
    ///
    /// A fog-of-war player's view, whose cluster graph is read from
    /// hierarchies it shares, becomes the hierarchy of its map (built) and
    /// is contracted as such.
    pub fn contract_with(&mut self, kind: ContractionKind) -> Result<(), ContractionError> {
        self.make_own();
        let done = self.contraction_job(kind).run()?;
        let installed = self.install_contraction(done);
        debug_assert!(installed, "made for this hierarchy as it is");
        Ok(())
    }

    /// The work of [`contract_with`](Hierarchy::contract_with), detached
    /// from the hierarchy (a copy of its cluster graph and of each band's
    /// costs: 8 bytes per edge, and 8 more per band), so that it can run on
    /// another thread while this hierarchy keeps answering queries. Its
    /// result is installed by
    /// [`install_contraction`](Hierarchy::install_contraction) (or
    /// [`DynamicHierarchy::install_contraction`], which keeps the landmark
    /// distances until its next repair), unless a repair after the job was
    /// taken changed the cluster graph's arcs or costs: the result is then
    /// stale, and not installed (a repair that kept them, such as a cell
    /// closed where another least-cost way inside its cluster remains, does
    /// not matter). A job taken from a fog-of-war player's view (whose
    /// cluster graph is read from hierarchies it shares) contracts the
    /// hierarchy of its map, built for the job, and installs into no
    /// hierarchy: [`contract`](Hierarchy::contract) it instead.
    ///
    /// [`DynamicHierarchy::install_contraction`]: crate::DynamicHierarchy::install_contraction
    ///
    /// ```
    /// use tierpath::{ContractionKind, Grid, Hierarchy};
    /// let mut h = Hierarchy::build(Grid::from_fn(120, 80, |p| p.x != 60 || p.y < 5).unwrap())?;
    /// let job = h.contraction_job(ContractionKind::default());
    /// let done = std::thread::spawn(move || job.run()).join().unwrap()?;
    /// assert!(h.install_contraction(done));
    /// assert!(h.is_contracted());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contraction_job(&self, kind: ContractionKind) -> ContractionJob {
        if self.view().is_some() {
            // Made for the built copy, which is dropped: it installs nowhere.
            return self.clone().into_own().contraction_job(kind);
        }
        let graph = self.graph();
        let (bands, graph_of) = self.bands();
        let costs = band_costs(graph, &bands);
        ContractionJob {
            kind,
            made_for: self.identity().arcs,
            first: graph.edge_first.clone(),
            to: graph.edge_to.clone(),
            coords: self.node_points().iter().map(|p| (p.x, p.y)).collect(),
            costs,
            bands,
            graph_of,
            cluster_first: self.entrances().cluster_first.clone(),
            for_repairs: false,
        }
    }

    /// Installs a contraction a [`ContractionJob`] taken from this
    /// hierarchy made, when the cluster graph's arcs and costs are still
    /// as they were then (no repair since changed them): whether it was
    /// installed. Plans and time-sliced queries begun before do not go on
    /// afterwards ([`PathPlan::is_valid_for`](crate::PathPlan::is_valid_for));
    /// a [`PathQueue`](crate::PathQueue) starts its request in progress
    /// again. As
    /// [`contract`](Hierarchy::contract), lets go of what only the A* over
    /// the cluster graph reads.
    pub fn install_contraction(&mut self, done: ContractionDone) -> bool {
        self.put_contraction(done, true)
    }

    /// Installs a contraction its build made of this hierarchy's cluster
    /// graph, letting go of what only the A* over the graph reads, as
    /// [`contract`](Hierarchy::contract) does.
    pub(crate) fn install_built_contraction(&mut self, mut contracted: Contracted) {
        contracted.built_for = self.identity().arcs;
        self.put_contraction(ContractionDone { contracted }, true);
    }

    /// Installs `done` when made for this hierarchy as it is, letting go of
    /// the A*'s aids when `release_aids` (a dynamic hierarchy keeps them
    /// for its repairs, which let go of the landmarks while the
    /// contraction is kept for them): whether it was.
    /// The hierarchy takes a new identity (the same lineage), as after a
    /// repair: plans and time-sliced queries begun before hold routes of
    /// the search they began with, so they must not go on here.
    pub(crate) fn put_contraction(&mut self, done: ContractionDone, release_aids: bool) -> bool {
        if done.contracted.built_for != self.identity().arcs {
            return false;
        }
        if release_aids {
            self.release_astar_aids();
        }
        self.identity = self.identity.renewed(true);
        self.set_contracted(Some(done.contracted));
        true
    }

    /// The bands of unit sizes that share a metric (the distinct edge
    /// annotations, ascending, and the largest size when no annotation
    /// reaches it: its metric then forbids every edge), and the band of each
    /// size (index 0 unused).
    fn bands(&self) -> (Vec<u8>, Vec<u8>) {
        bands_of(&self.graph().edge_clear, self.max_unit_size() as usize)
    }

    /// The contraction as a file stores it: one query graph per band, when
    /// contracted.
    pub(crate) fn contraction_to_save(&self) -> Option<Vec<StoredQueryGraph>> {
        self.contracted()
            .filter(|c| c.patched().is_none())
            .map(|c| c.graphs.iter().map(QueryGraph::to_stored).collect())
    }

    /// Installs a contraction read from a file, each query graph checked
    /// against this hierarchy's cluster graph and its band's costs (see
    /// `contraction::stored`); lets go of the A*'s aids, as
    /// [`contract`](Hierarchy::contract) does. An error names what is
    /// inconsistent.
    pub(crate) fn install_saved_contraction(
        &mut self,
        stored: Vec<StoredQueryGraph>,
    ) -> Result<(), String> {
        let (bands, graph_of) = self.bands();
        if stored.len() != bands.len() {
            return Err(format!(
                "{} query graphs for {} bands of unit sizes",
                stored.len(),
                bands.len()
            ));
        }
        let graph = self.graph();
        let arcs = ArcGraph::trusted(&graph.edge_first, &graph.edge_to);
        // The bands' graphs are checked in parallel; the first error in
        // band order is reported.
        let graphs = stored
            .into_par_iter()
            .zip(&bands)
            .enumerate()
            .map(|(i, (s, &band))| {
                QueryGraph::from_stored(s, &arcs, band_cost(graph, band))
                    .map_err(|e| format!("contraction, query graph {i}: {e}"))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
        let contracted = Contracted {
            built_for: self.identity().arcs,
            graphs,
            bands,
            graph_of,
            patchable: None,
        };
        self.put_contraction(ContractionDone { contracted }, true);
        Ok(())
    }

    /// Whether the contraction was patched by repairs
    /// ([`DynamicHierarchy::contract`](crate::DynamicHierarchy::contract)):
    /// queries then search the contraction with the clusters repairs laid
    /// out since beside it, exact but about half as fast as a contraction
    /// made afresh; contract again (on another thread) to get that speed
    /// back.
    pub fn is_contraction_patched(&self) -> bool {
        self.contraction_patch_nodes().is_some()
    }

    /// Whether queries search a contraction of the cluster graph
    /// ([`Hierarchy::contract`]) rather than the graph itself.
    pub fn is_contracted(&self) -> bool {
        self.contracted().is_some()
    }

    /// The least-cost route over the contracted graph for a unit of `size`
    /// from any of `starts` to any of `goals` (node, cost), unpacked into
    /// cluster-graph edges: `None` when the hierarchy has no contraction
    /// made for it as it is, else whether a route exists (and the nodes the
    /// search swept, in the scratch).
    pub(crate) fn contracted_route(
        &self,
        scratch: &mut ContractionScratch,
        size: u8,
        starts: &[(u32, u64)],
        goals: &[(u32, u64)],
        route: &mut ContractionRoute,
    ) -> Option<bool> {
        if let Some((p, band, current)) = self.patched_for(size) {
            return Some(p.route(band, &current, scratch, starts, goals, route));
        }
        let (qg, arcs, cost) = self.contraction_for(size)?;
        let found = qg
            .query_into(&arcs, cost, scratch, starts, goals, route)
            .expect("the query graph was built from this cluster graph");
        Some(found)
    }

    /// [`contracted_route`](Self::contracted_route) with the route left
    /// packed in `route`, its edges taken one at a time by
    /// [`contracted_unpack`](Self::contracted_unpack): `None` when the
    /// hierarchy has no contraction made for it as it is, else the route's
    /// cost and its first and last nodes, if one exists. (A patched
    /// contraction finds its route whole, and hands it out the same way.)
    pub(crate) fn contracted_start(
        &self,
        scratch: &mut ContractionScratch,
        size: u8,
        starts: &[(u32, u64)],
        goals: &[(u32, u64)],
        route: &mut PackedRoute,
    ) -> Option<Option<(u64, u32, u32)>> {
        if let Some((p, band, current)) = self.patched_for(size) {
            let whole = route.whole();
            let found = p.route(band, &current, scratch, starts, goals, whole);
            return Some(found.then(|| {
                (
                    whole.cost,
                    whole.nodes[0],
                    whole.nodes[whole.nodes.len() - 1],
                )
            }));
        }
        let (qg, _, _) = self.contraction_for(size)?;
        Some(qg.start_packed(scratch, starts, goals, route))
    }

    /// Unpacks the next cluster-graph edges of a route
    /// [`contracted_start`](Self::contracted_start) left packed, calling
    /// `more(edge, head node)` for each in route order while it returns
    /// true: whether the route ended.
    ///
    /// # Panics
    /// When this hierarchy is not the one, contracted as it was, whose
    /// search packed the route.
    pub(crate) fn contracted_unpack(
        &self,
        size: u8,
        route: &mut PackedRoute,
        mut more: impl FnMut(u32, u32) -> bool,
    ) -> bool {
        if route.holds_whole() {
            while let Some((edge, head)) = route.next_whole() {
                if !more(edge, head) {
                    return route.is_empty();
                }
            }
            return true;
        }
        if route.is_empty() {
            return true;
        }
        let (qg, arcs, cost) = self
            .contraction_for(size)
            .expect("a packed route is unpacked on the hierarchy whose search packed it");
        loop {
            let next = qg
                .next_packed_arc(&arcs, &cost, route)
                .expect("the query graph was built from this cluster graph");
            match next {
                None => return true,
                Some((edge, head)) if !more(edge, head) => return route.is_empty(),
                Some(_) => {}
            }
        }
    }

    /// The patched contraction, the band of units of `size` and the cluster
    /// graph with that band's costs, when the hierarchy's contraction,
    /// made for it as it is, has been patched by repairs.
    fn patched_for(&self, size: u8) -> Option<PatchedFor<'_, impl Fn(u32) -> u64 + '_>> {
        let c = self.contracted()?;
        let p = c.patched()?;
        let g = c.graph_of[size as usize] as usize;
        let graph = self.graph();
        let current = Current {
            first: &graph.edge_first,
            to: &graph.edge_to,
            group_first: &self.entrances().cluster_first,
            cost: band_cost(graph, c.bands[g]),
            place: self.node_points(),
        };
        Some((p, g, current))
    }

    /// Transitions a patched contraction searches beside it (`None` when
    /// not patched).
    pub(crate) fn contraction_patch_nodes(&self) -> Option<usize> {
        self.contracted()
            .and_then(Contracted::patched)
            .map(Patchable::patch_nodes)
    }

    /// Brings a contraction kept for repairs up to date after a repair that
    /// changed the cluster graph's arcs or costs, laying out again the
    /// clusters in `fresh` (see `contraction::patched`): whether it was
    /// (else the caller drops it). Called before the repair renews the
    /// hierarchy's identity.
    pub(crate) fn patch_contraction(&mut self, fresh: &[u32]) -> bool {
        let arcs = self.identity().arcs;
        let (bands, _) = self.bands();
        let Some(c) = self.contracted.as_deref_mut() else {
            return false;
        };
        if c.built_for != arcs || c.bands != bands {
            return false;
        }
        let Some(p) = c.patchable.as_deref_mut() else {
            return false;
        };
        let graph = &self.graph;
        let current: Vec<_> = bands
            .iter()
            .map(|band| Current {
                first: &graph.edge_first,
                to: &graph.edge_to,
                group_first: &self.entrances.cluster_first,
                cost: band_cost(graph, *band),
                place: &self.node_points,
            })
            .collect();
        if p.patch(&current, fresh).is_err() {
            return false;
        }
        // The query graphs no longer answer: the patched contraction does.
        c.graphs = Vec::new();
        true
    }

    /// Keeps the contraction itself with its full metrics beside the query
    /// graphs of a contracted hierarchy (one loaded from a file, or
    /// contracted before it became dynamic), so that repairs patch it
    /// rather than end it: an order, a fill and a customization per band,
    /// most of a contraction's time. Does nothing when not contracted or
    /// already kept.
    pub(crate) fn keep_contraction_for_repairs(&mut self) -> Result<bool, ContractionError> {
        match self.contracted() {
            None => return Ok(false),
            Some(c) if c.is_patchable() => return Ok(true),
            Some(_) => {}
        }
        let patchable = self
            .contraction_job(ContractionKind::Customizable)
            .patchable()?;
        if let Some(c) = self.contracted.as_deref_mut() {
            c.patchable = Some(Box::new(patchable));
        }
        self.stats.memory_bytes = self.memory_bytes() as u64;
        Ok(true)
    }

    /// The query graph for units of `size`, the cluster graph as arcs and
    /// the costs of that graph's band; `None` when the hierarchy has no
    /// contraction made for it as it is.
    fn contraction_for(
        &self,
        size: u8,
    ) -> Option<(&QueryGraph, ArcGraph<'_>, impl Fn(u32) -> u64 + '_)> {
        let c = self.contracted()?;
        let g = c.graph_of[size as usize] as usize;
        let (graph, band) = (self.graph(), c.bands[g]);
        let arcs = ArcGraph::trusted(&graph.edge_first, &graph.edge_to);
        Some((&c.graphs[g], arcs, band_cost(graph, band)))
    }

    /// The contraction, when made for this hierarchy as it is.
    pub(crate) fn contracted(&self) -> Option<&Contracted> {
        self.contracted_raw()
            .filter(|c| c.built_for == self.identity().arcs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Grid, Point};
    use crate::query::QueryCache;

    /// A map with walls and gaps, for units of sizes 1 to 3.
    fn hierarchy() -> Hierarchy {
        let grid = Grid::from_fn(96, 80, |p| {
            let wall = (p.x % 23 == 11 && p.y % 17 > 3) || (p.y % 19 == 9 && p.x % 13 > 2);
            let pillar = (p.x * 7 + p.y * 13) % 31 == 0;
            !(wall || pillar)
        })
        .unwrap();
        Hierarchy::builder()
            .cluster_size(8)
            .max_unit_size(3)
            .build(grid)
            .unwrap()
    }

    #[test]
    fn classic_and_customizable_contractions_agree_on_every_band() {
        let base = hierarchy();
        let n = base.graph().edge_first.len() as u64 - 1;
        let mut kinds = Vec::new();
        for kind in [ContractionKind::Classic, ContractionKind::Customizable] {
            let mut h = base.clone();
            h.contract_with(kind).unwrap();
            assert!(h.is_contracted());
            kinds.push(h);
        }
        let mut seed = 7u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let (mut scratch, mut route) = (ContractionScratch::default(), ContractionRoute::default());
        let mut found = 0;
        for _ in 0..300 {
            let mut ends = || -> Vec<(u32, u64)> {
                (0..1 + next(3))
                    .map(|_| (next(n) as u32, next(50_000)))
                    .collect()
            };
            let (starts, goals) = (ends(), ends());
            for size in 1..=3u8 {
                let costs: Vec<Option<u64>> = kinds
                    .iter()
                    .map(|h| {
                        h.contracted_route(&mut scratch, size, &starts, &goals, &mut route)
                            .expect("contracted")
                            .then_some(route.cost)
                    })
                    .collect();
                assert_eq!(costs[0], costs[1], "size {size}: {starts:?} -> {goals:?}");
                found += usize::from(costs[0].is_some());
            }
        }
        assert!(found > 300, "most queries find a route ({found})");
        // Whole queries answer with valid paths.
        let mut cache = QueryCache::new();
        let (s, t) = (Point::new(1, 1), Point::new(94, 78));
        let path = kinds[0].find_path(&mut cache, s, t).unwrap().path.unwrap();
        path.validate(kinds[0].grid(), kinds[0].movement()).unwrap();
    }

    /// A job run on another thread installs the contraction `contract`
    /// makes, on the hierarchy it was taken from (and its clones), not on
    /// another.
    #[test]
    fn a_job_run_elsewhere_installs_where_it_was_taken() {
        let base = hierarchy();
        for kind in [ContractionKind::Customizable, ContractionKind::Classic] {
            let mut direct = base.clone();
            direct.contract_with(kind).unwrap();
            let job = base.contraction_job(kind);
            let done = std::thread::spawn(move || job.run())
                .join()
                .unwrap()
                .unwrap();
            let mut other = Hierarchy::builder()
                .cluster_size(8)
                .max_unit_size(3)
                .build(base.grid().clone())
                .unwrap();
            assert!(!other.install_contraction(done.clone()), "another build");
            assert!(!other.is_contracted());
            let mut h = base.clone();
            assert!(h.install_contraction(done));
            assert_eq!(
                h.contracted().unwrap().graphs(),
                direct.contracted().unwrap().graphs()
            );
            assert_eq!(h.memory_bytes(), direct.memory_bytes());
        }
    }

    /// A build asked to contract gives the hierarchy a build and then
    /// `contract` give: the same query graphs, paths, bytes held and saved
    /// file (once the stage statistics, which name and time other stages,
    /// are made the same), for one unit size and for several.
    #[test]
    fn a_build_that_contracts_equals_a_build_then_contract() {
        let grid = hierarchy().grid().clone();
        for max_size in [1, 3] {
            let builder = Hierarchy::builder().cluster_size(8).max_unit_size(max_size);
            let mut after = builder.build(grid.clone()).unwrap();
            after.contract().unwrap();
            let mut during = builder.clone().contract(true).build(grid.clone()).unwrap();
            assert!(during.is_contracted());
            let names: Vec<&str> = during
                .stats()
                .stages
                .iter()
                .map(|s| s.name.as_str())
                .collect();
            assert!(
                names.contains(&"contraction") && !names.contains(&"landmarks"),
                "{names:?}"
            );
            assert_eq!(
                during.contracted().unwrap().graphs(),
                after.contracted().unwrap().graphs()
            );
            assert_eq!(during.memory_bytes(), after.memory_bytes());
            let (mut cache, mut found) = (QueryCache::new(), 0);
            for (s, t) in [((1, 1), (94, 78)), ((90, 2), (3, 70)), ((40, 40), (41, 79))] {
                let (s, t) = (Point::new(s.0, s.1), Point::new(t.0, t.1));
                for size in 1..=max_size {
                    let options = crate::QueryOptions::new().unit_size(size);
                    let a = after
                        .find_path_with(&mut cache, s, t, &options)
                        .map(|o| o.path);
                    let d = during
                        .find_path_with(&mut cache, s, t, &options)
                        .map(|o| o.path);
                    assert_eq!(a, d, "size {size}: {s} -> {t}");
                    found += usize::from(matches!(a, Ok(Some(_))));
                }
            }
            assert!(found >= 3, "{found} paths");
            during.stats.stages = after.stats.stages.clone();
            let bytes = during.to_bytes();
            assert!(
                after.to_bytes() == bytes,
                "the saved files differ (max size {max_size})"
            );
            assert!(
                Hierarchy::from_bytes(grid.clone(), &bytes)
                    .unwrap()
                    .is_contracted()
            );
        }
    }

    /// A contraction installed over another gives the hierarchy a new
    /// identity: a plan or a sliced query begun on the old one refuses to
    /// go on (its packed route names the old contraction's shortcuts), and
    /// planning again gives a whole, legal path; a plan whose cells were
    /// known at once stays valid. A job taken before still installs (the
    /// arcs and costs are the same), renewing the identity again.
    #[test]
    fn a_new_contraction_ends_plans_and_sliced_queries_begun_before() {
        use crate::{SliceStatus, SlicedQuery};
        let mut h = hierarchy();
        h.contract_with(ContractionKind::Customizable).unwrap();
        let (s, t) = (Point::new(1, 1), Point::new(94, 78));
        let mut cache = QueryCache::new();
        let mut plan = h.plan(&mut cache, s, t).unwrap().unwrap();
        assert_eq!(plan.stats().method, crate::Method::Hierarchical);
        plan.next_segment(&h, &mut cache).unwrap();
        let mut sliced = SlicedQuery::new();
        sliced.start(&h, s, t).unwrap();
        assert_eq!(sliced.update(&h, 1).unwrap(), SliceStatus::InProgress);
        let job = h.contraction_job(ContractionKind::Customizable);
        assert!(plan.is_valid_for(&h));

        h.contract_with(ContractionKind::Classic).unwrap();
        assert!(h.is_contracted());
        assert!(!plan.is_valid_for(&h));
        let err = sliced.update(&h, u64::MAX).unwrap_err().to_string();
        assert!(err.contains("a contraction installed"), "{err}");
        let before = h.identity();
        assert!(h.install_contraction(job.run().unwrap()));
        assert_ne!(h.identity(), before);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            plan.next_segment(&h, &mut cache).map(<[Point]>::to_vec)
        }));
        let message = *caught.unwrap_err().downcast::<&str>().unwrap();
        assert!(message.contains("is_valid_for"), "{message}");

        // Planned again, the path is whole and legal; a plan known whole
        // at once (a short query) reads no hierarchy and stays valid.
        let path = h.find_path(&mut cache, s, t).unwrap().path.unwrap();
        path.validate(h.grid(), h.movement()).unwrap();
        let near = h.plan(&mut cache, s, Point::new(3, 2)).unwrap().unwrap();
        h.contract_with(ContractionKind::Customizable).unwrap();
        assert!(near.is_valid_for(&h));
    }

    /// Bytes of the larger sizes' own landmark distances.
    fn levels_bytes(h: &Hierarchy) -> usize {
        h.sizes().map_or(0, |s| {
            s.aids.levels.iter().map(|(_, l)| l.memory_bytes()).sum()
        })
    }

    /// Contracting lets go of the A*'s landmarks and node anchors (no
    /// contracted query reads them); a save writes the build's landmarks
    /// and the contraction, and loads back contracted, and a
    /// `DynamicHierarchy`, whose repairs may end the contraction, derives
    /// them again exactly.
    #[test]
    fn contracting_releases_the_astar_aids_and_they_come_back() {
        for max_size in [1, 3] {
            let base = Hierarchy::builder()
                .cluster_size(8)
                .max_unit_size(max_size)
                .build(hierarchy().grid().clone())
                .unwrap();
            let mut saved = Vec::new();
            base.save(&mut saved).unwrap();
            let mut h = base.clone();
            h.contract().unwrap();
            assert_eq!(h.landmarks().count, 0);
            assert!(h.node_anchors().is_empty());
            let released = base.landmarks().memory_bytes() + 8 * base.node_anchors().len();
            assert_eq!(
                h.memory_bytes() + released + levels_bytes(&base),
                base.memory_bytes() + h.contracted().unwrap().memory_bytes()
            );
            // Queries still answer, from the contraction.
            let mut cache = QueryCache::new();
            let (s, t) = (Point::new(1, 1), Point::new(94, 78));
            let path = h.find_path(&mut cache, s, t).unwrap().path.unwrap();
            path.validate(h.grid(), h.movement()).unwrap();
            // The file is the uncontracted hierarchy's, then the contraction.
            let again = h.to_bytes();
            let plain = Hierarchy::from_bytes(h.grid().clone(), &saved).unwrap();
            assert!(!plain.is_contracted());
            let loaded = Hierarchy::from_bytes(h.grid().clone(), &again).unwrap();
            assert_eq!(
                loaded.contracted().unwrap().graphs,
                h.contracted().unwrap().graphs,
                "size {max_size}"
            );
            assert_eq!(loaded.memory_bytes(), h.memory_bytes());
            let from_file = loaded.find_path(&mut cache, s, t).unwrap().path.unwrap();
            assert_eq!(from_file, path);
            // A dynamic hierarchy has them back, as built.
            let world = crate::DynamicHierarchy::new(h);
            assert_eq!(world.landmarks(), base.landmarks());
            assert_eq!(world.node_anchors(), base.node_anchors());
            let levels = |h: &Hierarchy| h.sizes().map(|s| s.aids.levels.clone());
            assert_eq!(levels(&world), levels(&base));
        }
    }
}
