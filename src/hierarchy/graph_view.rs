//! The cluster graph seen through petgraph's visit traits, so petgraph's
//! algorithms (Dijkstra, A*, strongly connected components, DOT output...)
//! run on a hierarchy without copying it.
//!
//! Nodes are the abstract nodes (transition cells), numbered `0..n` as the
//! hierarchy stores them, weighted by their cell; edges are the directed
//! abstract edges, numbered by their place in the compressed rows, weighted
//! by their exact [`Cost`].

use std::ops::Range;

use fixedbitset::FixedBitSet;
use petgraph::Directed;
use petgraph::visit::{
    Data, EdgeCount, EdgeRef, GraphBase, GraphProp, GraphRef, IntoEdgeReferences, IntoEdges,
    IntoNeighbors, IntoNodeIdentifiers, IntoNodeReferences, NodeCompactIndexable, NodeCount,
    NodeIndexable, NodeRef, Visitable,
};

use super::{Hierarchy, OutEdges};
use crate::grid::{Cost, Point};

/// A read-only view of a hierarchy's cluster graph implementing petgraph's
/// visit traits ([`GraphBase`], [`IntoNeighbors`], [`IntoEdges`],
/// [`IntoEdgeReferences`], [`IntoNodeIdentifiers`], [`IntoNodeReferences`],
/// [`NodeIndexable`], [`NodeCount`], [`EdgeCount`], [`Visitable`], [`Data`]).
/// Made by [`Hierarchy::cluster_graph`]; copying it is free.
///
/// ```
/// use petgraph::algo::dijkstra;
/// use petgraph::visit::{EdgeRef, NodeCount};
/// use tierpath::{Grid, Hierarchy};
/// let h = Hierarchy::build(Grid::from_fn(64, 64, |p| !(p.x == 32 && p.y < 60)).unwrap())?;
/// let graph = h.cluster_graph();
/// let from = 0; // the first transition
/// let costs = dijkstra(graph, from, None, |e| *e.weight());
/// // Every transition is reachable: the map is one island.
/// assert_eq!(costs.len(), graph.node_count());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ClusterGraphView<'a> {
    h: &'a Hierarchy,
}

/// One directed abstract edge, as petgraph's [`EdgeRef`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterEdge {
    source: u32,
    target: u32,
    id: usize,
    cost: Cost,
}

impl EdgeRef for ClusterEdge {
    type NodeId = u32;
    type EdgeId = usize;
    type Weight = Cost;
    fn source(&self) -> u32 {
        self.source
    }
    fn target(&self) -> u32 {
        self.target
    }
    fn weight(&self) -> &Cost {
        &self.cost
    }
    fn id(&self) -> usize {
        self.id
    }
}

impl Hierarchy {
    /// The cluster graph as a petgraph graph (see [`ClusterGraphView`]).
    pub fn cluster_graph(&self) -> ClusterGraphView<'_> {
        ClusterGraphView { h: self }
    }
}

// Every read of the hierarchy is here, through its node and edge
// accessors (a fog-of-war view's graph is read from other hierarchies).
impl ClusterGraphView<'_> {
    /// The cell of node `n`.
    pub fn point(&self, n: u32) -> Point {
        self.h.node_point(n)
    }

    fn nodes(&self) -> usize {
        self.h.node_count()
    }

    fn edge_total(&self) -> usize {
        self.h.edge_count()
    }

    /// The node whose cell is `p`, when `p` is a transition cell (a scan
    /// over the transitions).
    pub fn node_at(&self, p: Point) -> Option<u32> {
        (0..self.nodes() as u32).find(|v| self.point(*v) == p)
    }
}

/// The out-edges of one node, or (for [`IntoEdgeReferences`]) of every node
/// from `source` on. No allocation.
#[derive(Debug, Clone)]
pub struct ClusterEdges<'a> {
    h: &'a Hierarchy,
    source: u32,
    edges: Option<OutEdges<'a>>,
    /// Whether to go on to the next nodes when this one's edges run out.
    all: bool,
}

impl<'a> ClusterEdges<'a> {
    fn new(h: &'a Hierarchy, source: u32, all: bool) -> ClusterEdges<'a> {
        ClusterEdges {
            h,
            source,
            edges: ((source as usize) < h.node_count()).then(|| h.out_edges(source)),
            all,
        }
    }
}

impl Iterator for ClusterEdges<'_> {
    type Item = ClusterEdge;
    fn next(&mut self) -> Option<ClusterEdge> {
        loop {
            if let Some((target, cost, id)) = self.edges.as_mut().and_then(Iterator::next) {
                return Some(ClusterEdge {
                    source: self.source,
                    target,
                    id,
                    cost: Cost(cost),
                });
            }
            if !self.all || self.source as usize + 1 >= self.h.node_count() {
                return None;
            }
            self.source += 1;
            self.edges = Some(self.h.out_edges(self.source));
        }
    }
}

/// The out-neighbours of a node.
#[derive(Debug, Clone)]
pub struct ClusterNeighbors<'a>(ClusterEdges<'a>);

impl Iterator for ClusterNeighbors<'_> {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        self.0.next().map(|e| e.target)
    }
}

/// One node, as petgraph's [`NodeRef`]: its id and its cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClusterNode {
    id: u32,
    point: Point,
}

impl NodeRef for ClusterNode {
    type NodeId = u32;
    type Weight = Point;
    fn id(&self) -> u32 {
        self.id
    }
    fn weight(&self) -> &Point {
        &self.point
    }
}

/// The nodes of a cluster graph, as [`ClusterNode`]s.
#[derive(Debug, Clone)]
pub struct ClusterNodes<'a> {
    h: &'a Hierarchy,
    next: Range<u32>,
}

impl Iterator for ClusterNodes<'_> {
    type Item = ClusterNode;
    fn next(&mut self) -> Option<ClusterNode> {
        self.next.next().map(|id| ClusterNode {
            id,
            point: self.h.node_point(id),
        })
    }
}

impl GraphBase for ClusterGraphView<'_> {
    type NodeId = u32;
    type EdgeId = usize;
}

impl GraphRef for ClusterGraphView<'_> {}

impl GraphProp for ClusterGraphView<'_> {
    type EdgeType = Directed;
}

impl Data for ClusterGraphView<'_> {
    type NodeWeight = Point;
    type EdgeWeight = Cost;
}

impl NodeCount for ClusterGraphView<'_> {
    fn node_count(&self) -> usize {
        self.nodes()
    }
}

impl EdgeCount for ClusterGraphView<'_> {
    fn edge_count(&self) -> usize {
        self.edge_total()
    }
}

impl NodeIndexable for ClusterGraphView<'_> {
    fn node_bound(&self) -> usize {
        self.nodes()
    }
    fn to_index(&self, n: u32) -> usize {
        n as usize
    }
    fn from_index(&self, i: usize) -> u32 {
        i as u32
    }
}

impl NodeCompactIndexable for ClusterGraphView<'_> {}

impl Visitable for ClusterGraphView<'_> {
    type Map = FixedBitSet;
    fn visit_map(&self) -> FixedBitSet {
        FixedBitSet::with_capacity(self.nodes())
    }
    fn reset_map(&self, map: &mut FixedBitSet) {
        map.clear();
        map.grow(self.nodes());
    }
}

impl<'a> IntoNeighbors for ClusterGraphView<'a> {
    type Neighbors = ClusterNeighbors<'a>;
    fn neighbors(self, a: u32) -> ClusterNeighbors<'a> {
        ClusterNeighbors(self.edges(a))
    }
}

impl<'a> IntoEdgeReferences for ClusterGraphView<'a> {
    type EdgeRef = ClusterEdge;
    type EdgeReferences = ClusterEdges<'a>;
    fn edge_references(self) -> ClusterEdges<'a> {
        ClusterEdges::new(self.h, 0, true)
    }
}

impl<'a> IntoEdges for ClusterGraphView<'a> {
    type Edges = ClusterEdges<'a>;
    fn edges(self, a: u32) -> ClusterEdges<'a> {
        ClusterEdges::new(self.h, a, false)
    }
}

impl IntoNodeIdentifiers for ClusterGraphView<'_> {
    type NodeIdentifiers = Range<u32>;
    fn node_identifiers(self) -> Range<u32> {
        0..self.nodes() as u32
    }
}

impl<'a> IntoNodeReferences for ClusterGraphView<'a> {
    type NodeRef = ClusterNode;
    type NodeReferences = ClusterNodes<'a>;
    fn node_references(self) -> ClusterNodes<'a> {
        ClusterNodes {
            h: self.h,
            next: 0..self.nodes() as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use petgraph::algo::dijkstra;
    use petgraph::visit::{EdgeRef, IntoEdgeReferences, NodeCount};

    use crate::{Grid, Hierarchy, Point, QueryCache, SearchCache};

    fn maps() -> Vec<Grid> {
        vec![
            Grid::from_fn(96, 80, |p| {
                let wall = p.x == 48 && p.y < 70;
                let shelf = p.y == 30 && p.x > 60;
                !(wall || shelf)
            })
            .unwrap(),
            crate::mapgen::generate(crate::mapgen::MapKind::Maze, 81, 81, 7).unwrap(),
        ]
    }

    /// The landmark distances the planner's heuristic uses are exactly
    /// petgraph's Dijkstra distances over the view from each landmark.
    #[test]
    fn landmark_distances_match_petgraph_dijkstra() {
        for grid in maps() {
            let h = Hierarchy::build(grid).unwrap();
            let g = h.cluster_graph();
            let l = &h.landmarks;
            assert!(!l.nodes.is_empty());
            for (k, &node) in l.nodes.iter().enumerate() {
                let d = dijkstra(g, node, None, |e| *e.weight());
                for v in 0..g.node_count() as u32 {
                    let stored = l.get(v, k);
                    match d.get(&v) {
                        Some(c) => assert_eq!(c.0, stored, "landmark {k}, node {v}"),
                        None => assert_eq!(stored, crate::preprocess::UNREACHED),
                    }
                }
            }
        }
    }

    /// Abstract distances between transitions bound the query from above
    /// (the query's route is a shortest one over this graph, and refining and
    /// smoothing never raise its cost) and exact flat search from below.
    #[test]
    fn abstract_distances_bound_the_query() {
        for grid in maps() {
            let h = Hierarchy::build(grid).unwrap();
            let g = h.cluster_graph();
            let (mut cache, mut flat) = (QueryCache::new(), SearchCache::new());
            let n = g.node_count() as u32;
            for s in (0..n).step_by((n as usize / 5).max(1)) {
                let d = dijkstra(g, s, None, |e| *e.weight());
                for t in (0..n).step_by((n as usize / 7).max(1)) {
                    let (a, b) = (g.point(s), g.point(t));
                    let Some(abs) = d.get(&t) else {
                        assert!(!h.same_island(a, b));
                        continue;
                    };
                    let q = h.find_path(&mut cache, a, b).unwrap().path.unwrap();
                    let exact = crate::AStar::new(h.grid())
                        .find_path(&mut flat, a, b)
                        .unwrap()
                        .path
                        .unwrap();
                    assert!(exact.cost <= q.cost && q.cost <= *abs, "{a} -> {b}");
                }
            }
        }
    }

    #[test]
    fn view_lists_the_hierarchy_edges() {
        let h = Hierarchy::build(maps().remove(0)).unwrap();
        let g = h.cluster_graph();
        let mine: Vec<(Point, Point, crate::Cost)> = g
            .edge_references()
            .map(|e| (g.point(e.source()), g.point(e.target()), *e.weight()))
            .collect();
        let theirs: Vec<_> = h.abstract_edges().collect();
        assert_eq!(mine, theirs);
        assert_eq!(g.node_at(g.point(3)), Some(3));
        assert_eq!(g.node_count(), h.transitions().count());
    }
}
