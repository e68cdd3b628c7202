//! Tutorial 7: islands and dead ends, after the speed tips in Patrick
//! Lester's "A* Pathfinding for Beginners".
//!
//! Lester's advice: find the areas no path reaches (islands) beforehand, so
//! that a query to one is refused without searching; and tag the nodes that
//! lead nowhere (dead ends), to ignore them unless the start or the goal is
//! inside. `Hierarchy::build` does both, automatically: `same_island` and
//! `in_dead_end` answer in constant time, `find_path` answers a query across
//! islands with `Method::Unreachable` and no expansions, and its search over
//! the cluster graph never enters a dead end that holds neither end
//! (`may_use`). `QueryCache::record_expansions` shows what it expanded;
//! flat A* for comparison walks into the island's whole mainland and into the
//! cellar.

use std::error::Error;
use std::fmt::Write as _;

use tierpath::{AStar, Hierarchy, Movement, Path, Point, QueryCache, QueryStats, SearchCache};

use crate::common::{TutorialMap, path_marks};

/// The cluster side: small, so that this small map has clusters enough for
/// a two-tier search.
pub const CLUSTER_SIZE: u32 = 8;

/// One hierarchy query, with what it expanded.
pub struct Query {
    /// Start.
    pub start: Point,
    /// Goal.
    pub goal: Point,
    /// The path, `None` when unreachable.
    pub path: Option<Path>,
    /// How it was answered.
    pub stats: QueryStats,
    /// Cluster-graph nodes expanded, as their cells.
    pub abstract_expanded: Vec<Point>,
    /// Cells flat A* closed on the same query.
    pub flat_expanded: Vec<Point>,
}

/// The islands tutorial.
pub struct Islands {
    /// The map.
    pub map: TutorialMap,
    /// Its hierarchy.
    pub hierarchy: Hierarchy,
    /// A to the island I.
    pub to_island: Query,
    /// A to B, past the cellar.
    pub past_cellar: Query,
    /// A to D, into the cellar.
    pub into_cellar: Query,
}

fn query(h: &Hierarchy, start: Point, goal: Point) -> Result<Query, Box<dyn Error>> {
    let mut cache = QueryCache::new();
    cache.record_expansions(true);
    let out = h.find_path(&mut cache, start, goal)?;
    let mut flat = SearchCache::new();
    flat.record_expansions(true);
    AStar::new(h.grid())
        .movement(*h.movement())
        .find_path(&mut flat, start, goal)?;
    Ok(Query {
        start,
        goal,
        path: out.path,
        stats: out.stats,
        abstract_expanded: cache.abstract_expansions().to_vec(),
        flat_expanded: flat.expansions().iter().map(|e| e.cell).collect(),
    })
}

/// Builds the hierarchy and runs the three queries.
pub fn run() -> Result<Islands, Box<dyn Error>> {
    let map = TutorialMap::load("islands.txt")?;
    let (a, b, d, i) = (
        map.marker('A')?,
        map.marker('B')?,
        map.marker('D')?,
        map.marker('I')?,
    );
    let hierarchy = Hierarchy::builder()
        .cluster_size(CLUSTER_SIZE)
        .movement(Movement::default())
        .build(map.grid.clone())?;
    Ok(Islands {
        to_island: query(&hierarchy, a, i)?,
        past_cellar: query(&hierarchy, a, b)?,
        into_cellar: query(&hierarchy, a, d)?,
        hierarchy,
        map,
    })
}

impl Islands {
    /// Whether `p` is in a dead end that the query from `s` to `t` may skip.
    pub fn skippable(&self, p: Point, s: Point, t: Point) -> bool {
        self.hierarchy.in_dead_end(p) && !self.hierarchy.may_use(p, s, t)
    }

    /// Transitions (cluster-graph nodes) the query from `s` to `t` may skip.
    pub fn skippable_transitions(&self, s: Point, t: Point) -> usize {
        self.hierarchy
            .transitions()
            .filter(|p| self.skippable(*p, s, t))
            .count()
    }

    fn picture(&self, q: &Query, flat: bool) -> String {
        let mut marks: Vec<(Point, char)> = self
            .map
            .grid
            .passable_points()
            .filter(|p| self.hierarchy.in_dead_end(*p))
            .map(|p| (p, ','))
            .collect();
        let expanded = if flat {
            &q.flat_expanded
        } else {
            &q.abstract_expanded
        };
        marks.extend(expanded.iter().map(|p| (*p, 'x')));
        if let Some(path) = &q.path {
            marks.extend(path_marks(&path.cells, 'o'));
        }
        for ch in ['A', 'B', 'D', 'I'] {
            marks.extend(self.map.cells(ch).into_iter().map(|p| (p, ch)));
        }
        self.map.draw(&marks)
    }

    fn count_in_dead_end(&self, cells: &[Point], q: &Query) -> usize {
        cells
            .iter()
            .filter(|p| self.skippable(**p, q.start, q.goal))
            .count()
    }

    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let h = &self.hierarchy;
        let stats = h.stats();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Tutorial 7: islands and dead ends (Lester's speed tips), {}",
            self.map.file.display()
        );
        let _ = writeln!(
            s,
            "Hierarchy: {} islands, {} of {} passable cells in dead ends, {} clusters of {}x{}, {} transitions.\n, marks dead-end cells.\n",
            stats.islands,
            stats.dead_end_cells,
            stats.passable_cells,
            stats.clusters,
            CLUSTER_SIZE,
            CLUSTER_SIZE,
            stats.nodes
        );
        s += &self.picture(&self.past_cellar, false);

        let q = &self.to_island;
        let _ = writeln!(
            s,
            "\n1. A {} -> I {}: same_island = {}; find_path says {:?} with {} cluster-graph nodes and {} cells expanded.\n   Flat A* on the same query closes {} cells, every cell it can reach, before it gives up.",
            q.start,
            q.goal,
            h.same_island(q.start, q.goal),
            q.stats.method,
            q.stats.abstract_expanded,
            q.stats.fine_expanded,
            q.flat_expanded.len()
        );

        let q = &self.past_cellar;
        let _ = writeln!(
            s,
            "\n2. A {} -> B {} ({:?}): the cellar holds {} transitions the search may skip.\n   The two-tier search expanded {} cluster-graph nodes (x), {} of them in the cellar:",
            q.start,
            q.goal,
            q.stats.method,
            self.skippable_transitions(q.start, q.goal),
            q.abstract_expanded.len(),
            self.count_in_dead_end(&q.abstract_expanded, q)
        );
        s += &self.picture(q, false);
        let _ = writeln!(
            s,
            "   Flat A* closed {} cells (x), {} of them in the cellar:",
            q.flat_expanded.len(),
            self.count_in_dead_end(&q.flat_expanded, q)
        );
        s += &self.picture(q, true);

        let q = &self.into_cellar;
        let in_cellar = q
            .abstract_expanded
            .iter()
            .filter(|p| h.in_dead_end(**p))
            .count();
        let _ = writeln!(
            s,
            "\n3. A {} -> D {} ({:?}): the goal is in the cellar, so the cellar is searched: {} of {} expanded cluster-graph nodes lie in it.",
            q.start,
            q.goal,
            q.stats.method,
            in_cellar,
            q.abstract_expanded.len()
        );
        s += &self.picture(q, false);
        s
    }
}
