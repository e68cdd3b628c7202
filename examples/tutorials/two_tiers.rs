//! Tutorial 8: two tiers, after the speed tips in Patrick Lester's "A*
//! Pathfinding for Beginners" ("use large areas for long paths, then switch
//! to finer searches when you get close").
//!
//! On the shipped 256x256 map (`data/default.map`, made by
//! `tierpath generate mixed --seed 1`), one long query answered by flat A*
//! and by the two-tier planner: `Hierarchy::build` cuts the map into 16x16
//! clusters and links their entrances by exact in-cluster costs once;
//! `find_path` then plans over that small graph and refines only the clusters
//! the plan crosses. The counts of nodes each expands are compared.

use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

use tierpath::{AStar, Grid, Hierarchy, Path, Point, QueryCache, QueryStats, SearchCache, io};

/// The map.
pub fn map_file() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data/default.map"))
}

/// The long query: the map's south-east corner to its north-west corner.
pub const START: Point = Point::new(245, 254);
/// The query's goal.
pub const GOAL: Point = Point::new(1, 6);

/// Both tiers against flat A*.
pub struct TwoTiers {
    /// The map.
    pub grid: Grid,
    /// Flat A*'s path (optimal).
    pub flat_path: Path,
    /// Cells flat A* closed.
    pub flat_expanded: u64,
    /// The two-tier path.
    pub path: Path,
    /// How the two-tier query went.
    pub stats: QueryStats,
    /// Cluster-graph nodes expanded, as their cells.
    pub abstract_expanded: Vec<Point>,
}

impl TwoTiers {
    /// Nodes the two-tier query expanded, on both tiers.
    pub fn hierarchy_expanded(&self) -> u64 {
        self.stats.abstract_expanded + self.stats.fine_expanded
    }

    /// How many times more nodes flat A* expanded.
    pub fn ratio(&self) -> f64 {
        self.flat_expanded as f64 / self.hierarchy_expanded().max(1) as f64
    }

    /// How much longer the two-tier path is than the optimum, in percent.
    pub fn excess_percent(&self) -> f64 {
        (self.path.cost.0 as f64 / self.flat_path.cost.0 as f64 - 1.0) * 100.0
    }
}

/// Builds the hierarchy and runs the query both ways.
pub fn run() -> Result<TwoTiers, Box<dyn Error>> {
    let grid = io::read_map(map_file())?;
    let hierarchy = Hierarchy::build(grid.clone())?;
    let mut cache = QueryCache::new();
    cache.record_expansions(true);
    let out = hierarchy.find_path(&mut cache, START, GOAL)?;
    let mut flat_cache = SearchCache::new();
    let flat = AStar::new(&grid).find_path(&mut flat_cache, START, GOAL)?;
    Ok(TwoTiers {
        flat_path: flat.path.ok_or("the query is reachable")?,
        flat_expanded: flat.stats.expanded,
        path: out.path.ok_or("the query is reachable")?,
        stats: out.stats,
        abstract_expanded: cache.abstract_expansions().to_vec(),
        grid,
    })
}

/// The map shrunk `scale` times each way: `#` where most of a block is
/// blocked, `o` where the path passes, `x` where a cluster-graph node was
/// expanded, `S` and `G` the ends.
pub fn draw(t: &TwoTiers, scale: u32) -> String {
    let (w, h) = (
        t.grid.width().div_ceil(scale),
        t.grid.height().div_ceil(scale),
    );
    let mut rows: Vec<Vec<char>> = (0..h)
        .map(|by| {
            (0..w)
                .map(|bx| {
                    let mut blocked = 0;
                    let mut all = 0;
                    for y in by * scale..((by + 1) * scale).min(t.grid.height()) {
                        for x in bx * scale..((bx + 1) * scale).min(t.grid.width()) {
                            all += 1;
                            if !t.grid.is_passable(Point::new(x, y)) {
                                blocked += 1;
                            }
                        }
                    }
                    if blocked * 2 > all { '#' } else { '.' }
                })
                .collect()
        })
        .collect();
    let mut mark = |p: Point, ch: char| rows[(p.y / scale) as usize][(p.x / scale) as usize] = ch;
    for p in &t.abstract_expanded {
        mark(*p, 'x');
    }
    for p in &t.path.cells {
        mark(*p, 'o');
    }
    mark(START, 'S');
    mark(GOAL, 'G');
    rows.iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect()
}

impl TwoTiers {
    /// The whole lesson as text.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let m = tierpath::Movement::default();
        let _ = writeln!(
            s,
            "Tutorial 8: two tiers (Lester's speed tips), {} ({}x{})",
            map_file().display(),
            self.grid.width(),
            self.grid.height()
        );
        let _ = writeln!(
            s,
            "Query {START} -> {GOAL}. The map shrunk 4x each way: o the two-tier path, x cluster-graph nodes expanded.\n"
        );
        s += &draw(self, 4);
        let _ = writeln!(
            s,
            "\nflat A*:   cost {:.2} steps, {} cells expanded",
            m.cost_in_steps(self.flat_path.cost),
            self.flat_expanded
        );
        let _ = writeln!(
            s,
            "two tiers: cost {:.2} steps ({:+.2}%), {} cluster-graph nodes + {} cells expanded ({:?})",
            m.cost_in_steps(self.path.cost),
            self.excess_percent(),
            self.stats.abstract_expanded,
            self.stats.fine_expanded,
            self.stats.method
        );
        let _ = writeln!(
            s,
            "flat A* expanded {:.1} times as many nodes.",
            self.ratio()
        );
        s
    }
}
