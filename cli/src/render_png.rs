//! `tierpath render MAP -o OUT.png`: a picture of a map, its hierarchy and,
//! for one query, what flat A* and the hierarchy did.
//!
//! Layers, bottom to top:
//!
//! 1. cells: blocked cells dark; passable cells tinted by island (the largest
//!    island neutral light, the others in distinct pale hues); cells in
//!    dead-end regions darker and hatched;
//! 2. the cells each search expanded (with a query): flat A*'s in a faint
//!    orange, the hierarchy's grid searches (near search, connection,
//!    refinement) in a faint cyan;
//! 3. cluster borders as thin lines, transition cells (abstract nodes) as
//!    small dark dots, and the cluster-graph nodes the abstract search
//!    expanded as larger violet dots;
//! 4. flat A*'s path (thick, red-orange), the hierarchy's refined path
//!    (green, on top), the abstract route through its waypoints (dashed
//!    purple) and the start and goal;
//! 5. a key with the figures, below the map (leave out with `--no-legend`).
//!
//! A cell is `--scale` pixels wide, by default as many as fit about 2048
//! pixels across the map (at least 1, at most 16): 2 on a 1024x1024 map, 16 on
//! maps of 128 cells or fewer. `--region` draws part of the map only.
//!
//! `--size K` draws the query for a `K x K` unit: both searches plan for it
//! (the hierarchy built for sizes 1 to K), and the paths drawn are its
//! top-left cells, checked against the footprint rule.

mod canvas;
mod layers;
mod legend;

use super::{CliResult, parse_point};
use canvas::*;
use image::ImageFormat;
use layers::*;
use legend::*;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use tierpath::io;
use tierpath::{
    AStar, Clearance, Grid, Hierarchy, Method, Movement, Point, QueryCache, QueryOptions,
    SearchCache,
};

/// Arguments of `tierpath render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map: Moving AI `.map` (or the project's terrain text format).
    pub map: PathBuf,
    /// Where to write the PNG.
    #[arg(short = 'o', long = "output", value_name = "OUT.png")]
    pub output: PathBuf,
    /// Load this saved hierarchy (`tierpath preprocess`) instead of building
    /// one. It must have been built from MAP.
    #[arg(long, value_name = "FILE", conflicts_with = "cluster_size")]
    pub hierarchy: Option<PathBuf>,
    /// Build the hierarchy with clusters of N x N cells (default 16).
    #[arg(long, value_name = "N")]
    pub cluster_size: Option<u32>,
    /// Take the query from this Moving AI scenario (with `--query N`).
    #[arg(long, value_name = "SCEN", requires = "query", conflicts_with_all = ["from", "to"])]
    pub scen: Option<PathBuf>,
    /// The query of `--scen` to draw: its N-th query, counting from 0.
    #[arg(long, value_name = "N", requires = "scen")]
    pub query: Option<usize>,
    /// The query's start cell, `X,Y` (with `--to`).
    #[arg(long, value_name = "X,Y", value_parser = parse_point, requires = "to")]
    pub from: Option<Point>,
    /// The query's goal cell, `X,Y` (with `--from`).
    #[arg(long, value_name = "X,Y", value_parser = parse_point, requires = "from")]
    pub to: Option<Point>,
    /// Pixels per cell (1 to 64; default: about 2048 pixels across, 1 to 16).
    #[arg(long, value_name = "N")]
    pub scale: Option<u32>,
    /// Draw only the cells from X0,Y0 to X1,Y1 (inclusive).
    #[arg(long, value_name = "X0,Y0,X1,Y1", value_parser = parse_region)]
    pub region: Option<Region>,
    /// Leave out the key below the map (the picture is then exactly the map
    /// area).
    #[arg(long)]
    pub no_legend: bool,
    /// Draw the query for a unit SIZE x SIZE cells (its top-left cells).
    #[arg(long, value_name = "SIZE", default_value_t = 1, value_parser = crate::unit::parse)]
    pub size: u32,
}

/// Inclusive cell bounds of the part of the map drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

/// Parses `X0,Y0,X1,Y1`.
fn parse_region(text: &str) -> Result<Region, String> {
    let bad = || format!("`{text}` is not a region: expected X0,Y0,X1,Y1, like 100,200,355,455");
    let parts: Vec<u32> = text
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad())?;
    match parts.as_slice() {
        [x0, y0, x1, y1] if x0 <= x1 && y0 <= y1 => Ok(Region {
            x0: *x0,
            y0: *y0,
            x1: *x1,
            y1: *y1,
        }),
        [_, _, _, _] => Err(format!("`{text}`: X0 must not exceed X1, nor Y0 Y1")),
        _ => Err(bad()),
    }
}

/// What a query drew.
struct QueryDrawing {
    start: Point,
    goal: Point,
    label: String,
    flat_cost: Option<f64>,
    flat_expanded: Vec<Point>,
    flat_path: Vec<Point>,
    hpa_cost: Option<f64>,
    hpa_path: Vec<Point>,
    waypoints: Vec<Point>,
    fine_expanded: Vec<Point>,
    abstract_expanded: Vec<Point>,
    method: Method,
    optimal: Option<f64>,
}

/// Runs `tierpath render`.
pub fn run(args: Args) -> CliResult {
    if !args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        return Err(format!(
            "{}: render writes PNG pictures only; name the output with .png (like {}.png)",
            args.output.display(),
            args.output.with_extension("").display()
        )
        .into());
    }
    let grid = crate::read_grid(&args.map)?;
    let movement = Movement::default();
    let t = Instant::now();
    let options = crate::solver::PlannerOptions {
        hierarchy: args.hierarchy.clone(),
        cluster_size: args.cluster_size,
        size: args.size,
    };
    let hierarchy = crate::solver::hierarchy_for(&grid, movement, &options)?;
    let how = if args.hierarchy.is_some() {
        "loaded"
    } else {
        "built"
    };
    let setup_ms = t.elapsed().as_secs_f64() * 1e3;

    let view = view_for(&grid, args.region, args.scale)?;
    let query = match (&args.scen, args.query, args.from, args.to) {
        (Some(scen), Some(n), _, _) => Some(scenario_query(scen, n, &grid)?),
        (_, _, Some(s), Some(g)) => Some((s, g, format!("{s} -> {g}"), None)),
        _ => None,
    };
    let drawing = match query {
        Some((s, g, label, optimal)) => {
            let label = match args.size {
                1 => label,
                k => format!("{label}, a {k}x{k} unit"),
            };
            Some(run_query(&hierarchy, s, g, label, optimal, args.size)?)
        }
        None => None,
    };

    let pens = Pens::for_scale(view.scale);
    let map_w = view.width * view.scale;
    let map_h = view.height * view.scale;
    let mut canvas = Canvas::new(map_w, map_h, PAPER);
    let island_ranks = draw_cells(&mut canvas, &hierarchy, &view);
    if let Some(d) = &drawing {
        draw_expanded(
            &mut canvas,
            &view,
            &d.flat_expanded,
            FLAT_EXPANDED,
            FLAT_EXPANDED_ALPHA,
        );
        draw_expanded(
            &mut canvas,
            &view,
            &d.fine_expanded,
            HPA_EXPANDED,
            HPA_EXPANDED_ALPHA,
        );
    }
    draw_clusters(&mut canvas, &hierarchy, &view, pens);
    if let Some(d) = &drawing {
        for p in &d.abstract_expanded {
            if view.contains(*p) {
                marker(
                    &mut canvas,
                    &view,
                    *p,
                    pens.abstract_node,
                    ABSTRACT_EXPANDED,
                );
            }
        }
        // Transitions again on top of the violet dots, so both show.
        for p in hierarchy.transitions() {
            if view.contains(p) {
                marker(&mut canvas, &view, p, pens.transition, TRANSITION);
            }
        }
        polyline(
            &mut canvas,
            &view,
            &d.flat_path,
            pens.flat_path,
            FLAT_PATH,
            None,
        );
        polyline(
            &mut canvas,
            &view,
            &d.hpa_path,
            pens.hpa_path,
            HPA_PATH,
            None,
        );
        let dash = (pens.route * 6.0).max(5.0);
        polyline(
            &mut canvas,
            &view,
            &d.waypoints,
            pens.route,
            ROUTE,
            Some((dash, dash * 0.6)),
        );
        for w in &d.waypoints {
            if view.contains(*w) {
                let (x, y) = view.centre(*w);
                canvas.disc(x, y, pens.waypoint, ROUTE);
                canvas.disc(x, y, pens.waypoint * 0.45, PAPER);
            }
        }
        for (p, c) in [(d.start, START), (d.goal, GOAL)] {
            if view.contains(p) {
                let (x, y) = view.centre(p);
                canvas.disc(x, y, pens.endpoint + 1.5, INK);
                canvas.disc(x, y, pens.endpoint, c);
            }
        }
    }

    let stats = hierarchy.stats();
    let name = args
        .map
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut title = format!(
        "{name} {}x{}, cluster {}, {} px/cell",
        grid.width(),
        grid.height(),
        hierarchy.layout().size,
        view.scale
    );
    if let Some(d) = &drawing {
        title.push_str(&format!(", {}", d.label));
    }
    let mut figures = Vec::new();
    if let Some(d) = &drawing {
        let gap = match (d.hpa_cost, d.flat_cost) {
            (Some(h), Some(f)) if f > 0.0 => format!(" (+{:.2}%)", (h / f - 1.0) * 100.0),
            _ => String::new(),
        };
        figures.push(format!(
            "A* cost {}, {} expanded",
            fmt_cost(d.flat_cost),
            d.flat_expanded.len()
        ));
        figures.push(format!(
            "hpa cost {}{gap}, {} abstract + {} fine expanded",
            fmt_cost(d.hpa_cost),
            d.abstract_expanded.len(),
            d.fine_expanded.len()
        ));
    }
    let legend_h = if args.no_legend {
        0
    } else {
        legend_height(map_w, &title, &figures, drawing.is_some())
    };
    let mut full = Canvas::new(map_w, map_h + legend_h, PAPER);
    full.px[..canvas.px.len()].copy_from_slice(&canvas.px);
    if legend_h > 0 {
        draw_legend(&mut full, map_h, &title, &figures, drawing.is_some());
    }
    let (out_w, out_h) = (full.width, full.height);
    full.into_image()
        .save_with_format(&args.output, ImageFormat::Png)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;

    // What was drawn.
    let mut out = std::io::stdout().lock();
    let passable = grid.passable_count() as u64;
    writeln!(
        out,
        "map         {} ({}x{}, {} passable cells)",
        args.map.display(),
        grid.width(),
        grid.height(),
        passable
    )?;
    writeln!(
        out,
        "hierarchy   {how} in {setup_ms:.1} ms: cluster {}, {} clusters, {} transitions, {} \
         ({} tinted), {} dead-end cells ({:.1}% of passable)",
        hierarchy.layout().size,
        stats.clusters,
        stats.nodes,
        super::count(stats.islands, "island", "islands"),
        island_ranks.saturating_sub(1),
        stats.dead_end_cells,
        stats.dead_end_share() * 100.0
    )?;
    if let Some(d) = &drawing {
        writeln!(
            out,
            "query       {}{}",
            d.label,
            d.optimal
                .map_or_else(String::new, |o| format!(", scenario optimum {o:.4}"))
        )?;
        writeln!(
            out,
            "flat A*     cost {} steps, {} cells expanded, {} cells on the path",
            fmt_cost(d.flat_cost),
            d.flat_expanded.len(),
            d.flat_path.len()
        )?;
        let gap = match (d.hpa_cost, d.flat_cost) {
            (Some(h), Some(f)) if f > 0.0 => {
                format!(" ({:+.3}% over flat A*)", (h / f - 1.0) * 100.0)
            }
            _ => String::new(),
        };
        writeln!(
            out,
            "hierarchy   cost {} steps{gap}, method {:?}, {} abstract nodes + {} cells expanded, \
             {} waypoints, {} cells on the path",
            fmt_cost(d.hpa_cost),
            d.method,
            d.abstract_expanded.len(),
            d.fine_expanded.len(),
            d.waypoints.len(),
            d.hpa_path.len()
        )?;
    }
    let region = if view.width == grid.width() && view.height == grid.height() {
        "the whole map".to_string()
    } else {
        format!(
            "cells {},{} to {},{}",
            view.x0,
            view.y0,
            view.x0 + view.width - 1,
            view.y0 + view.height - 1
        )
    };
    writeln!(
        out,
        "picture     {}: {out_w}x{out_h} px, {region} at {} px per cell{}",
        args.output.display(),
        view.scale,
        if legend_h > 0 {
            format!(", key {legend_h} px below")
        } else {
            String::new()
        }
    )?;
    writeln!(
        out,
        "layers      blocked dark; islands tinted (largest neutral); dead ends darker, hatched; \
         cluster borders blue lines; transitions dark dots{}",
        if drawing.is_some() {
            "; A* expanded orange tint; hpa expanded cyan tint; abstract expanded violet dots; \
             A* path red-orange (thick); hpa path green; abstract route dashed purple with \
             waypoint rings; start green, goal red"
        } else {
            ""
        }
    )?;
    Ok(())
}

fn fmt_cost(c: Option<f64>) -> String {
    c.map_or_else(|| "none (unreachable)".to_string(), |c| format!("{c:.4}"))
}

/// The `n`-th query of a scenario: start, goal, a label, the optimum.
fn scenario_query(
    scen: &std::path::Path,
    n: usize,
    grid: &Grid,
) -> CliResult<(Point, Point, String, Option<f64>)> {
    let scenario = io::read_scenario(scen)?;
    let count = scenario.queries.len();
    let q = scenario.queries.get(n).ok_or_else(|| {
        format!(
            "{}: --query {n} is out of range: the scenario has {count} quer{} (0 to {})",
            scen.display(),
            if count == 1 { "y" } else { "ies" },
            count.saturating_sub(1)
        )
    })?;
    if (q.width, q.height) != (grid.width(), grid.height()) {
        return Err(format!(
            "{}:{}: the query is for a {}x{} map, but the map is {}x{}",
            scen.display(),
            q.line,
            q.width,
            q.height,
            grid.width(),
            grid.height()
        )
        .into());
    }
    Ok((
        q.start,
        q.goal,
        format!("query {n} (line {}): {} -> {}", q.line, q.start, q.goal),
        Some(q.optimal),
    ))
}

/// Runs flat A* and the hierarchy on one query for a unit of `size`,
/// recording expansions.
fn run_query(
    h: &Hierarchy,
    start: Point,
    goal: Point,
    label: String,
    optimal: Option<f64>,
    size: u32,
) -> CliResult<QueryDrawing> {
    let grid = h.grid();
    let movement = *h.movement();
    let mut flat_cache = SearchCache::new();
    flat_cache.record_expansions(true);
    let clearance = (size > 1).then(|| Clearance::new(grid.clone()));
    let flat = match &clearance {
        Some(c) => AStar::for_unit(c, size),
        None => AStar::new(grid),
    }
    .movement(movement)
    .find_path(&mut flat_cache, start, goal)?;
    let flat_expanded: Vec<Point> = flat_cache.expansions().iter().map(|e| e.cell).collect();

    let mut cache = QueryCache::new();
    cache.record_expansions(true);
    let (mut hpa_path, mut waypoints, mut method, mut hpa_cost) =
        (Vec::new(), Vec::new(), Method::Unreachable, None);
    let options = QueryOptions::new().unit_size(size);
    if let Some(mut plan) = h.plan_with(&mut cache, start, goal, &options)? {
        waypoints = plan.waypoints(h).to_vec();
        while let Some(piece) = plan.next_segment(h, &mut cache) {
            hpa_path.extend_from_slice(piece);
        }
        method = plan.stats().method;
        hpa_cost = Some(plan.cost());
    }
    // The drawn path must be a real one: check it as the benchmark does.
    if let Some(cost) = hpa_cost {
        let p = tierpath::Path {
            cells: hpa_path.clone(),
            cost,
        };
        crate::unit::Footprint::new(grid, size)
            .validate(grid, &movement, &p)
            .map_err(|e| format!("the hierarchy's path: {e}"))?;
    }
    let steps = |c: tierpath::Cost| movement.cost_in_steps(c);
    Ok(QueryDrawing {
        start,
        goal,
        label,
        flat_cost: flat.path.as_ref().map(|p| steps(p.cost)),
        flat_path: flat.path.map(|p| p.cells).unwrap_or_default(),
        flat_expanded,
        hpa_cost: hpa_cost.map(steps),
        hpa_path,
        waypoints,
        fine_expanded: cache.fine_expansions().to_vec(),
        abstract_expanded: cache.abstract_expansions().to_vec(),
        method,
        optimal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_and_scales() {
        assert_eq!(
            parse_region("1,2,30,40"),
            Ok(Region {
                x0: 1,
                y0: 2,
                x1: 30,
                y1: 40
            })
        );
        assert!(parse_region("5,5,1,1").is_err());
        assert!(parse_region("1,2,3").is_err());
        assert_eq!(default_scale(1024, 1024), 2);
        assert_eq!(default_scale(512, 768), 2);
        assert_eq!(default_scale(512, 512), 4);
        assert_eq!(default_scale(49, 49), 16);
        assert_eq!(default_scale(5000, 10), 1);
    }

    #[test]
    fn font_covers_the_key() {
        for (_, label) in legend_entries(true) {
            for c in label.chars().filter(|c| *c != ' ') {
                assert!(glyph(c.to_ascii_uppercase()).is_some(), "{c:?}");
            }
        }
        for rows in ('A'..='Z').chain('0'..='9').filter_map(glyph) {
            assert!(rows.iter().all(|r| r.len() == 5));
        }
    }

    #[test]
    fn island_tints_differ() {
        let tints: Vec<Rgb> = (0..12).map(island_tint).collect();
        for i in 0..tints.len() {
            for j in i + 1..tints.len() {
                assert_ne!(tints[i], tints[j]);
            }
        }
    }
}
