//! The view (which cells are drawn, at what scale) and the map's layers:
//! cells, island tints and dead ends, expanded cells, cluster borders and
//! transitions, markers and polylines.

use super::Region;
use super::canvas::*;
use crate::CliResult;
use std::collections::HashMap;
use tierpath::{Grid, Hierarchy, Point};

/// The part of the map drawn and its scale.
#[derive(Debug, Clone, Copy)]
pub(super) struct View {
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) scale: u32,
}

impl View {
    /// Top-left pixel of cell `p`.
    pub(super) fn cell(&self, p: Point) -> (i64, i64) {
        (
            (p.x as i64 - self.x0 as i64) * self.scale as i64,
            (p.y as i64 - self.y0 as i64) * self.scale as i64,
        )
    }

    /// Centre of cell `p`, in pixels.
    pub(super) fn centre(&self, p: Point) -> (f32, f32) {
        let (x, y) = self.cell(p);
        let half = self.scale as f32 / 2.0;
        (x as f32 + half, y as f32 + half)
    }

    pub(super) fn contains(&self, p: Point) -> bool {
        p.x >= self.x0
            && p.y >= self.y0
            && p.x < self.x0 + self.width
            && p.y < self.y0 + self.height
    }

    pub(super) fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (self.y0..self.y0 + self.height)
            .flat_map(move |y| (self.x0..self.x0 + self.width).map(move |x| Point::new(x, y)))
    }
}

/// Line and marker sizes for a scale, in pixels, chosen to stay visible on
/// big maps drawn at 1 or 2 pixels per cell.
#[derive(Debug, Clone, Copy)]
pub(super) struct Pens {
    pub(super) flat_path: f32,
    pub(super) hpa_path: f32,
    pub(super) route: f32,
    pub(super) waypoint: f32,
    pub(super) endpoint: f32,
    pub(super) transition: i64,
    pub(super) abstract_node: i64,
}

impl Pens {
    pub(super) fn for_scale(s: u32) -> Pens {
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

/// The view for `region` (or the whole map) at `scale` (or the default).
pub(super) fn view_for(grid: &Grid, region: Option<Region>, scale: Option<u32>) -> CliResult<View> {
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

/// Draws blocked cells, island tints and dead ends; returns the number of
/// islands.
pub(super) fn draw_cells(canvas: &mut Canvas, h: &Hierarchy, view: &View) -> usize {
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

pub(super) fn draw_expanded(canvas: &mut Canvas, view: &View, cells: &[Point], c: Rgb, alpha: f32) {
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
pub(super) fn draw_clusters(canvas: &mut Canvas, h: &Hierarchy, view: &View, pens: Pens) {
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
pub(super) fn marker(canvas: &mut Canvas, view: &View, p: Point, side: i64, c: Rgb) {
    let (cx, cy) = view.centre(p);
    let x0 = (cx - side as f32 / 2.0).round() as i64;
    let y0 = (cy - side as f32 / 2.0).round() as i64;
    canvas.fill_rect(x0, y0, side, side, c);
}

/// A polyline through the centres of `cells`.
pub(super) fn polyline(
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
