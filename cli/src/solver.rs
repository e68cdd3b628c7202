//! Pluggable path planners for `solve` and `demo`.
//!
//! A planner is anything that answers point-to-point queries on one map: it
//! owns its per-query scratch (a reused [`SearchCache`] for the flat engines,
//! a [`QueryCache`] for the hierarchy) and whatever it precomputed. To add one:
//! implement [`Solver`], add a variant to [`Algo`], and build it in
//! [`Algo::build_with`]; `solve` and `demo` need no other change.
//!
//! Every planner but jump point search plans for a unit of any size
//! ([`PlannerOptions::size`]): the flat ones with `AStar::for_unit`, the
//! hierarchy with a query option (its hierarchy built or loaded for that
//! size).

use std::path::PathBuf;

use tierpath::{
    AStar, Clearance, Grid, Heuristic, Hierarchy, HierarchyBuilder, Jps, JpsCache, LoadError,
    Method, Movement, Path, Point, QueryCache, QueryError, QueryOptions, SearchCache,
};

/// One query's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult {
    /// The path, `None` when the goal is unreachable.
    pub path: Option<Path>,
    /// Nodes expanded (for a hierarchical planner: at every level together).
    pub expanded: u64,
    /// For a hierarchical planner: the split of `expanded` between levels, and
    /// how the query was answered.
    pub levels: Option<Levels>,
}

/// What a hierarchical query did, level by level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Levels {
    /// Nodes of the cluster graph expanded.
    pub abstract_expanded: u64,
    /// Grid cells expanded (near search, connection, refinement).
    pub fine_expanded: u64,
    /// How the query was answered.
    pub method: Method,
}

/// A planner bound to one map and one movement rule.
pub trait Solver {
    /// The name shown in summaries (`astar`, `dijkstra`, ...).
    fn name(&self) -> &str;

    /// Answers one query. `Err` only for bad input (an endpoint off the map or
    /// blocked); "no path" is `Ok` with `path: None`.
    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError>;

    /// The hierarchy the planner queries, if it has one (for its statistics).
    fn hierarchy(&self) -> Option<&Hierarchy> {
        None
    }
}

/// The planners the command line offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Algo {
    /// Flat A* with the octile heuristic (exact).
    Astar,
    /// Flat Dijkstra, no heuristic (exact; the slow baseline).
    Dijkstra,
    /// Jump point search (exact, no preprocessing; uniform-cost maps, any
    /// movement rule).
    Jps,
    /// The two-tier hierarchical planner (near-optimal, smoothed): builds the
    /// map's hierarchy first, or loads a saved one.
    Hpa,
}

/// The unit a planner serves, and where the hierarchical planner gets its
/// hierarchy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannerOptions {
    /// Load this saved hierarchy (`tierpath preprocess`) instead of building.
    pub hierarchy: Option<PathBuf>,
    /// Build with this cluster side instead of the default.
    pub cluster_size: Option<u32>,
    /// The unit's size (1 to 255): a built hierarchy serves sizes 1 to this,
    /// a loaded one must.
    pub size: u32,
}

impl Default for PlannerOptions {
    fn default() -> Self {
        PlannerOptions {
            hierarchy: None,
            cluster_size: None,
            size: 1,
        }
    }
}

impl Algo {
    /// Builds the planner for `grid` with default settings (any preprocessing
    /// happens here, so callers time it separately from the queries).
    pub fn build<'g>(
        self,
        grid: &'g Grid,
        movement: Movement,
    ) -> super::CliResult<Box<dyn Solver + 'g>> {
        self.build_with(grid, movement, &PlannerOptions::default())
    }

    /// Builds the planner for `grid` and a unit of `options.size`; the
    /// hierarchy options apply to [`Algo::Hpa`] only.
    pub fn build_with<'g>(
        self,
        grid: &'g Grid,
        movement: Movement,
        options: &PlannerOptions,
    ) -> super::CliResult<Box<dyn Solver + 'g>> {
        movement.validate()?;
        let size = options.size;
        if size > 1 && self != Algo::Hpa {
            if self == Algo::Jps {
                return Err(format!(
                    "--algo jps plans for single cells only; for a {size}x{size} unit use \
                     --algo astar, dijkstra or hpa"
                )
                .into());
            }
            return Ok(Box::new(Sized {
                name: if self == Algo::Astar {
                    "astar"
                } else {
                    "dijkstra"
                },
                clearance: Clearance::new(grid.clone()),
                size,
                movement,
                heuristic: if self == Algo::Astar {
                    Heuristic::Auto
                } else {
                    Heuristic::Zero
                },
                cache: SearchCache::new(),
            }));
        }
        Ok(match self {
            Algo::Astar => Box::new(Flat {
                name: "astar",
                engine: FlatEngine::AStar(AStar::new(grid).movement(movement), Box::default()),
            }),
            // Dijkstra is A* without a heuristic (what `Dijkstra::find_path` runs).
            Algo::Dijkstra => Box::new(Flat {
                name: "dijkstra",
                engine: FlatEngine::AStar(
                    AStar::new(grid)
                        .movement(movement)
                        .heuristic(Heuristic::Zero),
                    Box::default(),
                ),
            }),
            Algo::Jps => Box::new(Flat {
                name: "jps",
                engine: FlatEngine::Jps(Jps::with_movement(grid, movement)?, JpsCache::new()),
            }),
            Algo::Hpa => Box::new(Hpa {
                hierarchy: hierarchy_for(grid, movement, options)?,
                cache: QueryCache::new(),
                options: QueryOptions::new().unit_size(size),
            }),
        })
    }
}

/// Loads the hierarchy named in `options` (checking it belongs to `grid` and
/// `movement` and serves the unit's size), or builds one for sizes 1 to the
/// unit's.
pub fn hierarchy_for(
    grid: &Grid,
    movement: Movement,
    options: &PlannerOptions,
) -> super::CliResult<Hierarchy> {
    if let Some(file) = &options.hierarchy {
        let h = Hierarchy::load_file(grid.clone(), file).map_err(|e| {
            // An I/O error already names the file.
            let what = match e {
                LoadError::Io { .. } => e.to_string(),
                _ => format!("{}: {e}", file.display()),
            };
            format!(
                "cannot load hierarchy {what}; save one for this map with `tierpath \
                 preprocess MAP -o FILE`, or leave out --hierarchy to build it in this run"
            )
        })?;
        if *h.movement() != movement {
            return Err(format!(
                "hierarchy {} was built for movement {:?}, but solve uses {:?}",
                file.display(),
                h.movement(),
                movement
            )
            .into());
        }
        crate::unit::check_hierarchy(&h, options.size, file)?;
        return Ok(h);
    }
    let mut builder = HierarchyBuilder::new()
        .movement(movement)
        .max_unit_size(options.size);
    if let Some(size) = options.cluster_size {
        builder = builder.cluster_size(size);
    }
    Ok(builder.build(grid.clone())?)
}

/// A flat search with one reused cache: A* (or, without a heuristic,
/// Dijkstra), or jump point search.
struct Flat<'g> {
    name: &'static str,
    engine: FlatEngine<'g>,
}

/// The engine of a [`Flat`] planner and its scratch.
enum FlatEngine<'g> {
    AStar(AStar<'g>, Box<SearchCache>),
    Jps(Jps<'g>, JpsCache),
}

impl Solver for Flat<'_> {
    fn name(&self) -> &str {
        self.name
    }

    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError> {
        let out = match &mut self.engine {
            FlatEngine::AStar(engine, cache) => engine.find_path(cache, start, goal)?,
            FlatEngine::Jps(engine, cache) => engine.find_path(cache, start, goal)?,
        };
        Ok(SolveResult {
            path: out.path,
            expanded: out.stats.expanded,
            levels: None,
        })
    }
}

/// Exact flat search for a unit larger than one cell: A* (or Dijkstra)
/// on the map's clearance.
struct Sized {
    name: &'static str,
    clearance: Clearance,
    size: u32,
    movement: Movement,
    heuristic: Heuristic,
    cache: SearchCache,
}

impl Solver for Sized {
    fn name(&self) -> &str {
        self.name
    }

    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError> {
        let out = AStar::for_unit(&self.clearance, self.size)
            .movement(self.movement)
            .heuristic(self.heuristic)
            .find_path(&mut self.cache, start, goal)?;
        Ok(SolveResult {
            path: out.path,
            expanded: out.stats.expanded,
            levels: None,
        })
    }
}

/// The two-tier planner: a [`Hierarchy`] (owning a copy of the grid), one
/// reused [`QueryCache`] and the unit's query options.
struct Hpa {
    hierarchy: Hierarchy,
    cache: QueryCache,
    options: QueryOptions,
}

impl Solver for Hpa {
    fn name(&self) -> &str {
        "hpa"
    }

    fn solve(&mut self, start: Point, goal: Point) -> Result<SolveResult, QueryError> {
        let out = self
            .hierarchy
            .find_path_with(&mut self.cache, start, goal, &self.options)?;
        let s = out.stats;
        Ok(SolveResult {
            path: out.path,
            expanded: s.abstract_expanded + s.fine_expanded,
            levels: Some(Levels {
                abstract_expanded: s.abstract_expanded,
                fine_expanded: s.fine_expanded,
                method: s.method,
            }),
        })
    }

    fn hierarchy(&self) -> Option<&Hierarchy> {
        Some(&self.hierarchy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_solvers_agree() {
        let grid = Grid::from_ascii(
            "
            ......
            .@@@@.
            ......",
        )
        .unwrap();
        let (s, g) = (Point::new(0, 1), Point::new(5, 1));
        let mut costs = Vec::new();
        for algo in [Algo::Astar, Algo::Dijkstra, Algo::Jps] {
            let mut solver = algo.build(&grid, Movement::default()).unwrap();
            let r = solver.solve(s, g).unwrap();
            assert!(r.expanded > 0, "{}", solver.name());
            costs.push(r.path.unwrap().cost);
            assert!(matches!(
                solver.solve(Point::new(1, 1), g),
                Err(QueryError::Blocked { .. })
            ));
        }
        assert_eq!(costs[0], costs[1]);
        assert_eq!(costs[0], costs[2]);
        // Jump point search serves every rule, and refuses weighted maps.
        assert!(Algo::Jps.build(&grid, Movement::FOUR).is_ok());
        let mut weighted = grid.clone();
        weighted.set_weight(s, tierpath::Weight(200)).unwrap();
        let err = Algo::Jps
            .build(&weighted, Movement::default())
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("jump point search"), "{err}");
    }

    #[test]
    fn hpa_reports_levels_and_checks_its_hierarchy() {
        let grid = Grid::from_fn(64, 64, |p| !(p.x == 32 && p.y < 60)).unwrap();
        let (s, g) = (Point::new(2, 2), Point::new(60, 2));
        let options = PlannerOptions {
            hierarchy: None,
            cluster_size: Some(8),
            ..PlannerOptions::default()
        };
        let mut hpa = Algo::Hpa
            .build_with(&grid, Movement::default(), &options)
            .unwrap();
        assert_eq!(hpa.name(), "hpa");
        assert_eq!(hpa.hierarchy().unwrap().settings().cluster_size, 8);
        let r = hpa.solve(s, g).unwrap();
        let levels = r.levels.unwrap();
        assert_eq!(levels.method, Method::Hierarchical);
        assert!(levels.abstract_expanded > 0);
        assert_eq!(r.expanded, levels.abstract_expanded + levels.fine_expanded);
        let path = r.path.unwrap();
        path.validate(&grid, &Movement::default()).unwrap();
        let exact = Algo::Astar
            .build(&grid, Movement::default())
            .unwrap()
            .solve(s, g)
            .unwrap();
        assert!(path.cost >= exact.path.unwrap().cost);
        assert!(matches!(
            hpa.solve(Point::new(32, 0), g),
            Err(QueryError::Blocked { .. })
        ));

        // A saved hierarchy loads; a missing file, or one built for another
        // movement rule, is a clear error.
        let dir = std::env::temp_dir().join(format!("tierpath-solver-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("h.tph");
        hpa.hierarchy().unwrap().save_file(&file).unwrap();
        let loaded = PlannerOptions {
            hierarchy: Some(file.clone()),
            cluster_size: None,
            ..PlannerOptions::default()
        };
        let mut again = Algo::Hpa
            .build_with(&grid, Movement::default(), &loaded)
            .unwrap();
        assert_eq!(again.solve(s, g).unwrap().path, Some(path));
        let err = Algo::Hpa
            .build_with(&grid, Movement::FOUR, &loaded)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("movement"), "{err}");
        let missing = PlannerOptions {
            hierarchy: Some(dir.join("nope.tph")),
            cluster_size: None,
            ..PlannerOptions::default()
        };
        let err = Algo::Hpa
            .build_with(&grid, Movement::default(), &missing)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("nope.tph") && err.contains("preprocess"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
