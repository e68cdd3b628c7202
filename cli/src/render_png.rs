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

use super::{CliResult, parse_point};
use image::{ImageFormat, RgbImage};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;
use tierpath::io;
use tierpath::{
    AStar, Grid, Hierarchy, HierarchyBuilder, Method, Movement, Point, QueryCache, SearchCache,
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

type Rgb = [u8; 3];

const BLOCKED: Rgb = [38, 40, 48];
const MAIN_ISLAND: Rgb = [238, 236, 228];
const BORDER: Rgb = [70, 80, 130];
const TRANSITION: Rgb = [35, 45, 95];
const ABSTRACT_EXPANDED: Rgb = [170, 60, 230];
const FLAT_EXPANDED: Rgb = [255, 150, 40];
const HPA_EXPANDED: Rgb = [40, 190, 235];
const FLAT_PATH: Rgb = [228, 52, 28];
const HPA_PATH: Rgb = [0, 160, 70];
const ROUTE: Rgb = [120, 0, 150];
const START: Rgb = [30, 210, 60];
const GOAL: Rgb = [230, 20, 20];
const INK: Rgb = [20, 20, 24];
const PAPER: Rgb = [250, 250, 247];

/// Shade factor of dead-end cells, and of their hatch lines.
const DEAD_END_SHADE: f32 = 0.80;
const HATCH_SHADE: f32 = 0.60;
const FLAT_EXPANDED_ALPHA: f32 = 0.42;
const HPA_EXPANDED_ALPHA: f32 = 0.55;
const BORDER_ALPHA: f32 = 0.50;

/// The picture: an RGB canvas with clipping.
struct Canvas {
    width: u32,
    height: u32,
    px: Vec<Rgb>,
}

impl Canvas {
    fn new(width: u32, height: u32, fill: Rgb) -> Canvas {
        Canvas {
            width,
            height,
            px: vec![fill; width as usize * height as usize],
        }
    }

    fn index(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    fn set(&mut self, x: i64, y: i64, c: Rgb) {
        if let Some(i) = self.index(x, y) {
            self.px[i] = c;
        }
    }

    fn blend(&mut self, x: i64, y: i64, c: Rgb, alpha: f32) {
        if let Some(i) = self.index(x, y) {
            self.px[i] = mix(self.px[i], c, alpha);
        }
    }

    fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    fn blend_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb, alpha: f32) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.blend(xx, yy, c, alpha);
            }
        }
    }

    /// A filled disc of radius `r` around `(cx, cy)`.
    fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        let (x0, x1) = ((cx - r).floor() as i64, (cx + r).ceil() as i64);
        let (y0, y1) = ((cy - r).floor() as i64, (cy + r).ceil() as i64);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                if dx * dx + dy * dy <= r * r {
                    self.set(x, y, c);
                }
            }
        }
    }

    /// A line of half-width `r` from `a` to `b`; with `dash = Some((on, off,
    /// offset))`, only the "on" stretches of a dash pattern that starts
    /// `offset` pixels before `a`.
    fn line(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        r: f32,
        c: Rgb,
        dash: Option<(f32, f32, f32)>,
    ) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        let len = len2.sqrt();
        let (x0, x1) = (
            (a.0.min(b.0) - r).floor() as i64,
            (a.0.max(b.0) + r).ceil() as i64,
        );
        let (y0, y1) = (
            (a.1.min(b.1) - r).floor() as i64,
            (a.1.max(b.1) + r).ceil() as i64,
        );
        for y in y0.max(0)..=y1.min(self.height as i64 - 1) {
            for x in x0.max(0)..=x1.min(self.width as i64 - 1) {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let t = if len2 > 0.0 {
                    (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (qx, qy) = (a.0 + t * dx - px, a.1 + t * dy - py);
                if qx * qx + qy * qy > r * r {
                    continue;
                }
                if let Some((on, off, offset)) = dash
                    && (offset + t * len) % (on + off) >= on
                {
                    continue;
                }
                self.set(x, y, c);
            }
        }
    }

    fn into_image(self) -> RgbImage {
        let mut raw = Vec::with_capacity(self.px.len() * 3);
        for p in &self.px {
            raw.extend_from_slice(p);
        }
        RgbImage::from_raw(self.width, self.height, raw).expect("buffer matches the size")
    }
}

fn mix(a: Rgb, b: Rgb, alpha: f32) -> Rgb {
    let m = |x: u8, y: u8| (x as f32 * (1.0 - alpha) + y as f32 * alpha).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

fn shade(c: Rgb, f: f32) -> Rgb {
    [
        (c[0] as f32 * f) as u8,
        (c[1] as f32 * f) as u8,
        (c[2] as f32 * f) as u8,
    ]
}

/// A colour from hue (0..1), saturation and value.
fn hsv(h: f32, s: f32, v: f32) -> Rgb {
    let h6 = (h.fract() * 6.0).max(0.0);
    let i = h6.floor() as u32 % 6;
    let f = h6 - h6.floor();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match i {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    [
        (r * 255.0).round() as u8,
        (g * 255.0).round() as u8,
        (b * 255.0).round() as u8,
    ]
}

/// The tint of the `rank`-th largest island (rank 0, the largest: neutral).
fn island_tint(rank: usize) -> Rgb {
    if rank == 0 {
        MAIN_ISLAND
    } else {
        // Golden-ratio hue steps keep neighbouring ranks far apart.
        hsv(0.11 + rank as f32 * 0.618_034, 0.38, 0.93)
    }
}

/// The part of the map drawn and its scale.
#[derive(Debug, Clone, Copy)]
struct View {
    x0: u32,
    y0: u32,
    width: u32,
    height: u32,
    scale: u32,
}

impl View {
    /// Top-left pixel of cell `p`.
    fn cell(&self, p: Point) -> (i64, i64) {
        (
            (p.x as i64 - self.x0 as i64) * self.scale as i64,
            (p.y as i64 - self.y0 as i64) * self.scale as i64,
        )
    }

    /// Centre of cell `p`, in pixels.
    fn centre(&self, p: Point) -> (f32, f32) {
        let (x, y) = self.cell(p);
        let half = self.scale as f32 / 2.0;
        (x as f32 + half, y as f32 + half)
    }

    fn contains(&self, p: Point) -> bool {
        p.x >= self.x0
            && p.y >= self.y0
            && p.x < self.x0 + self.width
            && p.y < self.y0 + self.height
    }

    fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (self.y0..self.y0 + self.height)
            .flat_map(move |y| (self.x0..self.x0 + self.width).map(move |x| Point::new(x, y)))
    }
}

/// Line and marker sizes for a scale, in pixels, chosen to stay visible on
/// big maps drawn at 1 or 2 pixels per cell.
#[derive(Debug, Clone, Copy)]
struct Pens {
    flat_path: f32,
    hpa_path: f32,
    route: f32,
    waypoint: f32,
    endpoint: f32,
    transition: i64,
    abstract_node: i64,
}

impl Pens {
    fn for_scale(s: u32) -> Pens {
        let s = s as f32;
        Pens {
            flat_path: (s * 0.45).max(3.0),
            hpa_path: (s * 0.22).max(1.5),
            route: (s * 0.12).max(1.0),
            waypoint: (s * 0.35).max(3.0),
            endpoint: (s * 0.9).max(8.0),
            transition: ((s * 0.4).round() as i64).max(2),
            abstract_node: ((s * 0.7).round() as i64).max(4),
        }
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
    let grid = io::read_grid(&args.map)?;
    let movement = Movement::default();
    let t = Instant::now();
    let (hierarchy, how) = match &args.hierarchy {
        Some(file) => {
            let h = Hierarchy::load_file(grid.clone(), file).map_err(|e| {
                format!(
                    "cannot load hierarchy {}: {e} (save one for this map with `tierpath \
                     preprocess`, or leave out --hierarchy to build it)",
                    file.display()
                )
            })?;
            (h, "loaded")
        }
        None => {
            let mut b = HierarchyBuilder::new().movement(movement);
            if let Some(n) = args.cluster_size {
                b = b.cluster_size(n);
            }
            (b.build(grid.clone())?, "built")
        }
    };
    let setup_ms = t.elapsed().as_secs_f64() * 1e3;

    let view = view_for(&grid, args.region, args.scale)?;
    let query = match (&args.scen, args.query, args.from, args.to) {
        (Some(scen), Some(n), _, _) => Some(scenario_query(scen, n, &grid)?),
        (_, _, Some(s), Some(g)) => Some((s, g, format!("{s} -> {g}"), None)),
        _ => None,
    };
    let drawing = match query {
        Some((s, g, label, optimal)) => Some(run_query(&hierarchy, s, g, label, optimal)?),
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
        "hierarchy   {how} in {setup_ms:.1} ms: cluster {}, {} clusters, {} transitions, {} islands \
         ({} tinted), {} dead-end cells ({:.1}% of passable)",
        hierarchy.layout().size,
        stats.clusters,
        stats.nodes,
        stats.islands,
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

/// The view for `region` (or the whole map) at `scale` (or the default).
fn view_for(grid: &Grid, region: Option<Region>, scale: Option<u32>) -> CliResult<View> {
    let r = region.unwrap_or(Region {
        x0: 0,
        y0: 0,
        x1: grid.width() - 1,
        y1: grid.height() - 1,
    });
    if r.x1 >= grid.width() || r.y1 >= grid.height() {
        return Err(format!(
            "region {},{},{},{} reaches past the {}x{} map",
            r.x0,
            r.y0,
            r.x1,
            r.y1,
            grid.width(),
            grid.height()
        )
        .into());
    }
    let (w, h) = (r.x1 - r.x0 + 1, r.y1 - r.y0 + 1);
    let scale = match scale {
        Some(s) if (1..=64).contains(&s) => s,
        Some(s) => return Err(format!("--scale {s} is out of range: use 1 to 64").into()),
        None => default_scale(w, h),
    };
    let pixels = w as u64 * scale as u64 * h as u64 * scale as u64;
    if pixels > 100_000_000 {
        return Err(format!(
            "a {w}x{h} area at {scale} px per cell is too large a picture ({pixels} pixels); \
             lower --scale or draw a --region"
        )
        .into());
    }
    Ok(View {
        x0: r.x0,
        y0: r.y0,
        width: w,
        height: h,
        scale,
    })
}

/// Pixels per cell: about 2048 pixels across the longer side, 1 to 16.
pub fn default_scale(width: u32, height: u32) -> u32 {
    (2048 / width.max(height).max(1)).clamp(1, 16)
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

/// Runs flat A* and the hierarchy on one query, recording expansions.
fn run_query(
    h: &Hierarchy,
    start: Point,
    goal: Point,
    label: String,
    optimal: Option<f64>,
) -> CliResult<QueryDrawing> {
    let grid = h.grid();
    let movement = *h.movement();
    let mut flat_cache = SearchCache::new();
    flat_cache.record_expansions(true);
    let flat = AStar::new(grid)
        .movement(movement)
        .find_path(&mut flat_cache, start, goal)?;
    let flat_expanded: Vec<Point> = flat_cache.expansions().iter().map(|e| e.cell).collect();

    let mut cache = QueryCache::new();
    cache.record_expansions(true);
    let (mut hpa_path, mut waypoints, mut method, mut hpa_cost) =
        (Vec::new(), Vec::new(), Method::Unreachable, None);
    if let Some(mut plan) = h.plan(&mut cache, start, goal)? {
        waypoints = plan.waypoints().to_vec();
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
        p.validate(grid, &movement)
            .map_err(|e| format!("the hierarchy's path is invalid: {e}"))?;
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

/// Draws blocked cells, island tints and dead ends; returns the number of
/// islands.
fn draw_cells(canvas: &mut Canvas, h: &Hierarchy, view: &View) -> usize {
    let grid = h.grid();
    // Island sizes over the whole map, ranked largest first.
    let mut sizes: HashMap<u32, u64> = HashMap::new();
    for p in grid.passable_points() {
        if let Some(i) = h.island_of(p) {
            *sizes.entry(i).or_default() += 1;
        }
    }
    let mut order: Vec<(u32, u64)> = sizes.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let rank: HashMap<u32, usize> = order
        .iter()
        .enumerate()
        .map(|(r, (i, _))| (*i, r))
        .collect();
    let s = view.scale as i64;
    for p in view.points() {
        let (x, y) = view.cell(p);
        match h.island_of(p) {
            None => canvas.fill_rect(x, y, s, s, BLOCKED),
            Some(i) => {
                let tint = island_tint(rank[&i]);
                if h.in_dead_end(p) {
                    let dark = shade(tint, DEAD_END_SHADE);
                    let hatch = shade(tint, HATCH_SHADE);
                    for yy in y..y + s {
                        for xx in x..x + s {
                            // Diagonal hatch lines in picture coordinates, so
                            // they run on across cells.
                            let c = if (xx + yy) % 4 == 0 { hatch } else { dark };
                            canvas.set(xx, yy, c);
                        }
                    }
                } else {
                    canvas.fill_rect(x, y, s, s, tint);
                }
            }
        }
    }
    order.len()
}

fn draw_expanded(canvas: &mut Canvas, view: &View, cells: &[Point], c: Rgb, alpha: f32) {
    let s = view.scale as i64;
    let mut seen = std::collections::HashSet::new();
    for p in cells {
        if view.contains(*p) && seen.insert(*p) {
            let (x, y) = view.cell(*p);
            canvas.blend_rect(x, y, s, s, c, alpha);
        }
    }
}

/// Cluster borders (a one-pixel line along each cluster's top and left edge)
/// and transition cells.
fn draw_clusters(canvas: &mut Canvas, h: &Hierarchy, view: &View, pens: Pens) {
    let layout = h.layout();
    let size = layout.size;
    let (w, ht) = (canvas.width as i64, canvas.height as i64);
    for x in view.x0..view.x0 + view.width {
        if x % size == 0 && x > 0 {
            let (px, _) = view.cell(Point::new(x, view.y0));
            for y in 0..ht {
                canvas.blend(px, y, BORDER, BORDER_ALPHA);
            }
        }
    }
    for y in view.y0..view.y0 + view.height {
        if y % size == 0 && y > 0 {
            let (_, py) = view.cell(Point::new(view.x0, y));
            for x in 0..w {
                canvas.blend(x, py, BORDER, BORDER_ALPHA);
            }
        }
    }
    for p in h.transitions() {
        if view.contains(p) {
            marker(canvas, view, p, pens.transition, TRANSITION);
        }
    }
}

/// A square marker of side `side` pixels centred on cell `p`.
fn marker(canvas: &mut Canvas, view: &View, p: Point, side: i64, c: Rgb) {
    let (cx, cy) = view.centre(p);
    let x0 = (cx - side as f32 / 2.0).round() as i64;
    let y0 = (cy - side as f32 / 2.0).round() as i64;
    canvas.fill_rect(x0, y0, side, side, c);
}

/// A polyline through the centres of `cells`.
fn polyline(
    canvas: &mut Canvas,
    view: &View,
    cells: &[Point],
    r: f32,
    c: Rgb,
    dash: Option<(f32, f32)>,
) {
    if let [only] = cells {
        let (x, y) = view.centre(*only);
        canvas.disc(x, y, r, c);
        return;
    }
    let mut travelled = 0.0f32;
    for w in cells.windows(2) {
        let (a, b) = (view.centre(w[0]), view.centre(w[1]));
        canvas.line(a, b, r, c, dash.map(|(on, off)| (on, off, travelled)));
        travelled += ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    }
}

// ----- the key below the map -----

/// A legend entry: a swatch and its label.
#[derive(Clone, Copy)]
enum Swatch {
    Fill(Rgb),
    Islands,
    DeadEnd,
    Border,
    Marker(Rgb, bool),
    Tint(Rgb, f32),
    Line(Rgb, f32, bool),
    Dot(Rgb),
}

fn legend_entries(with_query: bool) -> Vec<(Swatch, &'static str)> {
    let mut v = vec![
        (Swatch::Fill(BLOCKED), "blocked"),
        (Swatch::Fill(MAIN_ISLAND), "largest island"),
        (Swatch::Islands, "other islands"),
        (Swatch::DeadEnd, "dead end"),
        (Swatch::Border, "cluster border"),
        (Swatch::Marker(TRANSITION, false), "transition"),
    ];
    if with_query {
        v.extend([
            (
                Swatch::Tint(FLAT_EXPANDED, FLAT_EXPANDED_ALPHA),
                "A* expanded",
            ),
            (
                Swatch::Tint(HPA_EXPANDED, HPA_EXPANDED_ALPHA),
                "hpa expanded",
            ),
            (Swatch::Marker(ABSTRACT_EXPANDED, true), "abstract expanded"),
            (Swatch::Line(FLAT_PATH, 0.5, false), "A* path"),
            (Swatch::Line(HPA_PATH, 0.25, false), "hpa path"),
            (Swatch::Line(ROUTE, 0.15, true), "abstract route"),
            (Swatch::Dot(START), "start"),
            (Swatch::Dot(GOAL), "goal"),
        ]);
    }
    v
}

/// Font pixel size of the key for a picture `width` pixels wide.
fn font_px(width: u32) -> i64 {
    (width as i64 / 640).clamp(2, 4)
}

/// Lays out the key: positions of entries (x, row) and the number of rows.
fn legend_layout(width: u32, with_query: bool) -> (Vec<(i64, i64)>, i64) {
    let k = font_px(width);
    let mut x = 4 * k;
    let mut row = 0;
    let mut pos = Vec::new();
    for (_, label) in legend_entries(with_query) {
        let w = 12 * k + 3 * k + text_width(label, k) + 8 * k;
        if x + w > width as i64 && x > 4 * k {
            x = 4 * k;
            row += 1;
        }
        pos.push((x, row));
        x += w;
    }
    (pos, row + 1)
}

fn legend_height(width: u32, title: &str, figures: &[String], with_query: bool) -> u32 {
    let k = font_px(width);
    let line = 11 * k;
    let (_, rows) = legend_layout(width, with_query);
    let text_lines = wrap(title, width, k).len()
        + figures
            .iter()
            .map(|f| wrap(f, width, k).len())
            .sum::<usize>();
    (4 * k + (text_lines as i64 + rows) * line + 2 * k) as u32
}

/// Splits text into lines no wider than `width` pixels at font size `k`.
fn wrap(text: &str, width: u32, k: i64) -> Vec<String> {
    let per_line = ((width as i64 - 8 * k) / (6 * k)).max(8) as usize;
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + word.len() > per_line {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

fn draw_legend(canvas: &mut Canvas, top: u32, title: &str, figures: &[String], with_query: bool) {
    let width = canvas.width;
    let k = font_px(width);
    let line = 11 * k;
    let top = top as i64;
    canvas.fill_rect(0, top, width as i64, k, INK);
    let mut y = top + 3 * k;
    for text in std::iter::once(title.to_string()).chain(figures.iter().cloned()) {
        for l in wrap(&text, width, k) {
            draw_text(canvas, 4 * k, y + 2 * k, &l, k, INK);
            y += line;
        }
    }
    let (pos, _) = legend_layout(width, with_query);
    for ((swatch, label), (x, row)) in legend_entries(with_query).into_iter().zip(pos) {
        let sy = y + row * line + k;
        draw_swatch(canvas, x, sy, 12 * k, 9 * k, swatch);
        draw_text(canvas, x + 15 * k, sy + k, label, k, INK);
    }
}

fn draw_swatch(canvas: &mut Canvas, x: i64, y: i64, w: i64, h: i64, swatch: Swatch) {
    let (cx, cy) = (x as f32 + w as f32 / 2.0, y as f32 + h as f32 / 2.0);
    let unit = (h as f32 / 4.0).max(1.0);
    match swatch {
        Swatch::Fill(c) => canvas.fill_rect(x, y, w, h, c),
        Swatch::Islands => {
            for i in 0..3 {
                canvas.fill_rect(x + i * w / 3, y, w / 3 + 1, h, island_tint(i as usize + 1));
            }
        }
        Swatch::DeadEnd => {
            for yy in y..y + h {
                for xx in x..x + w {
                    let f = if (xx + yy) % 4 == 0 {
                        HATCH_SHADE
                    } else {
                        DEAD_END_SHADE
                    };
                    canvas.set(xx, yy, shade(MAIN_ISLAND, f));
                }
            }
        }
        Swatch::Border => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let (mx, my) = (x + w / 2, y + h / 2);
            for yy in y..y + h {
                canvas.blend(mx, yy, BORDER, 0.8);
            }
            for xx in x..x + w {
                canvas.blend(xx, my, BORDER, 0.8);
            }
        }
        Swatch::Marker(c, big) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let side = if big {
                (unit * 2.4) as i64
            } else {
                (unit * 1.4) as i64
            }
            .max(2);
            canvas.fill_rect(
                (cx - side as f32 / 2.0) as i64,
                (cy - side as f32 / 2.0) as i64,
                side,
                side,
                c,
            );
        }
        Swatch::Tint(c, a) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            canvas.blend_rect(x, y, w, h, c, a);
        }
        Swatch::Line(c, frac, dashed) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let r = (h as f32 * frac).max(1.0);
            let dash = dashed.then_some((unit * 1.6, unit * 1.0, 0.0));
            canvas.line((x as f32 + r, cy), ((x + w) as f32 - r, cy), r, c, dash);
        }
        Swatch::Dot(c) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            canvas.disc(cx, cy, h as f32 / 2.0, INK);
            canvas.disc(cx, cy, h as f32 / 2.0 - 1.5, c);
        }
    }
}

/// Width in pixels of `text` at font size `k` (6 columns per character).
fn text_width(text: &str, k: i64) -> i64 {
    text.chars().count() as i64 * 6 * k
}

/// Draws `text` (upper-cased) with the 5x7 font, each font pixel `k` x `k`.
fn draw_text(canvas: &mut Canvas, x: i64, y: i64, text: &str, k: i64, c: Rgb) {
    for (i, ch) in text.chars().enumerate() {
        let Some(rows) = glyph(ch.to_ascii_uppercase()) else {
            continue;
        };
        let gx = x + i as i64 * 6 * k;
        for (r, bits) in rows.iter().enumerate() {
            for (col, b) in bits.bytes().enumerate() {
                if b == b'#' {
                    canvas.fill_rect(gx + col as i64 * k, y + r as i64 * k, k, k, c);
                }
            }
        }
    }
}

/// A 5x7 bitmap font for the key: capitals, digits and some punctuation.
fn glyph(c: char) -> Option<[&'static str; 7]> {
    FONT.iter().find(|(k, _)| *k == c).map(|(_, rows)| *rows)
}

#[rustfmt::skip]
const FONT: &[(char, [&str; 7])] = &[
    ('A', [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('B', ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."]),
    ('C', [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."]),
    ('D', ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."]),
    ('E', ["#####", "#....", "#....", "####.", "#....", "#....", "#####"]),
    ('F', ["#####", "#....", "#....", "####.", "#....", "#....", "#...."]),
    ('G', [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"]),
    ('H', ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('I', [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."]),
    ('J', ["..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."]),
    ('K', ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"]),
    ('L', ["#....", "#....", "#....", "#....", "#....", "#....", "#####"]),
    ('M', ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"]),
    ('N', ["#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"]),
    ('O', [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('P', ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."]),
    ('Q', [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"]),
    ('R', ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"]),
    ('S', [".####", "#....", "#....", ".###.", "....#", "....#", "####."]),
    ('T', ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."]),
    ('U', ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('V', ["#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."]),
    ('W', ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."]),
    ('X', ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"]),
    ('Y', ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."]),
    ('Z', ["#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"]),
    ('0', [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."]),
    ('1', ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."]),
    ('2', [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"]),
    ('3', ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."]),
    ('4', ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."]),
    ('5', ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."]),
    ('6', ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."]),
    ('7', ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."]),
    ('8', [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."]),
    ('9', [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."]),
    ('.', [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."]),
    (',', [".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."]),
    (':', [".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."]),
    ('-', [".....", ".....", ".....", "#####", ".....", ".....", "....."]),
    ('+', [".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."]),
    ('*', [".....", "..#..", "#.#.#", ".###.", "#.#.#", "..#..", "....."]),
    ('/', [".....", "....#", "...#.", "..#..", ".#...", "#....", "....."]),
    ('(', ["...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."]),
    (')', [".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."]),
    ('%', ["##...", "##..#", "...#.", "..#..", ".#...", "#..##", "...##"]),
    ('=', [".....", ".....", "#####", ".....", "#####", ".....", "....."]),
    ('>', [".#...", "..#..", "...#.", "....#", "...#.", "..#..", ".#..."]),
    ('_', [".....", ".....", ".....", ".....", ".....", ".....", "#####"]),
];

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
