//! `tierpath replan [MAP] [--script FILE]`: the map changes while units walk.
//!
//! Builds the hierarchy, plans paths for a number of units, then applies a
//! script of edits one line at a time. After each: what the repair touched
//! and how long it took, which units' paths crossed a changed cluster (and
//! which were blocked outright), and the time to plan those again. With
//! `--verify`, each step also rebuilds the hierarchy from scratch and checks
//! that every unit's query gives the same path on both hierarchies (on a
//! patched contraction, the same reach and a legal path: ties between
//! routes of one cost may fall either way). With
//! `--contract`, the hierarchy is contracted first, and each step says
//! whether its repair kept the contraction, patched it or ended it.
//!
//! The script holds one edit per line (`#` starts a comment):
//!
//! ```text
//! close X,Y [WxH]        block a cell or a rectangle (a building goes up)
//! open X,Y [WxH]         clear it again
//! weight X,Y [WxH] W     set the terrain weight (percent, 100 = plain)
//! field X,Y R PEAK       add a cost-layer field: PEAK percent points at
//!                        X,Y, falling to 0 at distance R (negative attracts)
//! ```
//!
//! Without a script, ten 6x6 buildings go up on open ground and then come
//! down again.

use std::path::PathBuf;
use std::time::Instant;

use super::{CliResult, parse_point, parse_size};
use tierpath::{
    ContractionKind, ContractionRepair, CostLayers, DeadEndRepair, DynamicHierarchy, Edit, Grid,
    Hierarchy, Point, QueryCache, Weight,
};

/// Arguments of `tierpath replan`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The map (Moving AI `.map` or terrain text); default: the shipped
    /// data/default.map.
    pub map: Option<PathBuf>,
    /// The edit script; default: ten buildings going up and coming down on
    /// open ground. One edit per line, `#` starts a comment; X,Y is column,row
    /// (0,0 top-left), WxH a rectangle from X,Y (1x1 when left out):
    ///
    ///      close X,Y [WxH]      block a cell or a rectangle (a building goes up)
    ///
    ///      open X,Y [WxH]       clear it again
    ///
    ///      weight X,Y [WxH] W   set the terrain weight (percent, 100 = plain)
    ///
    ///      field X,Y R PEAK     add a cost field: PEAK percent points at X,Y,
    ///      falling to 0 at distance R (a negative PEAK attracts)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    pub script: Option<PathBuf>,
    /// Units walking the map, each with a long path.
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub units: usize,
    /// Seed for the units' start and goal cells and the default script.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// After each step, rebuild from scratch and check that every unit's query
    /// gives the same path on the repaired and the rebuilt hierarchy.
    #[arg(long)]
    pub verify: bool,
    /// Contract the cluster graph first (queries search the contraction).
    /// Each step then says whether its repair kept the contraction (the
    /// cluster graph's arcs and costs unchanged), patched it (the clusters
    /// it laid out again searched beside it) or ended it, and an ended one
    /// is contracted again after the step (its time summed apart at the
    /// end).
    #[arg(long)]
    pub contract: bool,
}

/// One line of a script.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Cells(Vec<Edit>),
    Field(Point, u32, i32),
}

/// A deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u32) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as u32
    }
}

fn rect(p: Point, w: u32, h: u32) -> impl Iterator<Item = Point> {
    (0..h).flat_map(move |dy| (0..w).map(move |dx| Point::new(p.x + dx, p.y + dy)))
}

/// Parses a script; errors name the line.
fn parse_script(text: &str, name: &str) -> CliResult<Vec<(usize, String, Step)>> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: String| format!("{name}:{}: {why} in `{line}`", i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let point = |w: &str| parse_point(w).map_err(bad);
        let size = |w: Option<&&str>| match w {
            Some(s) => parse_size(s).map(|s| (s.width, s.height)).map_err(bad),
            None => Ok((1, 1)),
        };
        let step =
            match words.as_slice() {
                ["close" | "open", at, rest @ ..] if rest.len() <= 1 => {
                    let (w, h) = size(rest.first())?;
                    let open = words[0] == "open";
                    Step::Cells(
                        rect(point(at)?, w, h)
                            .map(|p| Edit::Passable(p, open))
                            .collect(),
                    )
                }
                ["weight", at, rest @ ..] if (1..=2).contains(&rest.len()) => {
                    let (w, h) = if rest.len() == 2 {
                        size(rest.first())?
                    } else {
                        (1, 1)
                    };
                    let weight: u16 = rest[rest.len() - 1]
                        .parse()
                        .ok()
                        .filter(|w| *w > 0)
                        .ok_or_else(|| bad("the weight must be 1 to 65535".into()))?;
                    Step::Cells(
                        rect(point(at)?, w, h)
                            .map(|p| Edit::Weight(p, Weight(weight)))
                            .collect(),
                    )
                }
                ["field", at, r, peak] => Step::Field(
                    point(at)?,
                    r.parse()
                        .map_err(|_| bad("the radius must be a whole number".into()))?,
                    peak.parse()
                        .map_err(|_| bad("the peak must be a whole number".into()))?,
                ),
                _ => return Err(bad(
                    "expected `close|open X,Y [WxH]`, `weight X,Y [WxH] W` or `field X,Y R PEAK`"
                        .into(),
                )
                .into()),
            };
        steps.push((i + 1, line.to_owned(), step));
    }
    Ok(steps)
}

/// Checks every edit of a script lies on the map, before anything runs: the
/// error names the file, the line and the cell.
fn check_on_map(steps: &[(usize, String, Step)], grid: &Grid, name: &str) -> CliResult {
    for (n, line, step) in steps {
        let off = match step {
            Step::Cells(edits) => edits
                .iter()
                .map(|e| match e {
                    Edit::Passable(p, _) | Edit::Weight(p, _) => *p,
                })
                .find(|p| !grid.contains(*p)),
            Step::Field(p, ..) => Some(*p).filter(|p| !grid.contains(*p)),
        };
        if let Some(p) = off {
            return Err(format!(
                "{name}:{n}: cell {p} of `{line}` is off the {}x{} map",
                grid.width(),
                grid.height()
            )
            .into());
        }
    }
    Ok(())
}

/// Side of the default script's buildings.
const BUILDING: u32 = 6;

/// Ten buildings on open ground (a free cell all around), then the same ten
/// removed.
fn default_script(grid: &Grid, rng: &mut Rng) -> Vec<(usize, String, Step)> {
    let mut spots = Vec::new();
    let side = BUILDING + 2;
    for _ in 0..200_000 {
        if spots.len() == 10 || grid.width() < side || grid.height() < side {
            break;
        }
        let corner = Point::new(
            rng.below(grid.width() - side + 1),
            rng.below(grid.height() - side + 1),
        );
        let p = Point::new(corner.x + 1, corner.y + 1);
        let clear = rect(corner, side, side).all(|q| grid.is_passable(q));
        let apart = spots
            .iter()
            .all(|s: &Point| s.x.abs_diff(p.x) >= side || s.y.abs_diff(p.y) >= side);
        if clear && apart {
            spots.push(p);
        }
    }
    let mut steps = Vec::new();
    for open in [false, true] {
        for p in &spots {
            let verb = if open { "open" } else { "close" };
            let edits = rect(*p, BUILDING, BUILDING)
                .map(|q| Edit::Passable(q, open))
                .collect();
            steps.push((
                steps.len() + 1,
                format!("{verb} {},{} {BUILDING}x{BUILDING}", p.x, p.y),
                Step::Cells(edits),
            ));
        }
    }
    steps
}

/// The longest edit script read.
const MAX_SCRIPT_BYTES: u64 = 64 << 20;

/// Runs `tierpath replan`.
pub fn run(args: Args) -> CliResult {
    let map = match args.map {
        Some(m) => m,
        None => super::find_default_map()?,
    };
    let grid = crate::read_grid(&map)?;
    let mut rng = Rng(args.seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let steps = match &args.script {
        Some(f) => {
            // A regular file of sane size only (a device or FIFO would never end).
            let meta = std::fs::metadata(f).map_err(|e| format!("{}: {e}", f.display()))?;
            if !meta.is_file() || meta.len() > MAX_SCRIPT_BYTES {
                return Err(format!(
                    "{}: not a regular file of at most {MAX_SCRIPT_BYTES} bytes",
                    f.display()
                )
                .into());
            }
            let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
            parse_script(&text, &f.display().to_string())?
        }
        None => default_script(&grid, &mut rng),
    };
    if let Some(f) = &args.script {
        check_on_map(&steps, &grid, &f.display().to_string())?;
    }
    let t = Instant::now();
    let hierarchy = Hierarchy::build(grid.clone())?;
    let build_ms = t.elapsed().as_secs_f64() * 1e3;
    let settings = *hierarchy.settings();
    let mut world = DynamicHierarchy::new(hierarchy);
    if args.contract {
        world.contract(ContractionKind::default())?;
    }
    let mut layers = CostLayers::new(&grid);
    let field_layer = layers.add_layer("script fields");
    let mut cache = QueryCache::new();

    // Units: random start and goal on the largest island.
    let open: Vec<Point> = grid.passable_points().collect();
    if open.is_empty() {
        return Err(format!("{}: the map has no passable cell", map.display()).into());
    }
    let mut units: Vec<(Point, Point, Option<tierpath::Path>)> = Vec::new();
    for _ in 0..args.units * 20 {
        if units.len() == args.units {
            break;
        }
        let s = open[rng.below(open.len() as u32) as usize];
        let g = open[rng.below(open.len() as u32) as usize];
        if world.same_island(s, g)
            && s.x.abs_diff(g.x) + s.y.abs_diff(g.y) > (grid.width() + grid.height()) / 4
        {
            let path = world.find_path(&mut cache, s, g)?.path;
            units.push((s, g, path));
        }
    }
    println!(
        "{}: {}x{}, built in {build_ms:.1} ms; {} with paths; {}",
        map.display(),
        grid.width(),
        grid.height(),
        super::count(units.len() as u64, "unit", "units"),
        super::count(steps.len() as u64, "script step", "script steps")
    );
    println!(
        "touched: units whose path crosses a changed cluster (planned again); on edit: those \
         whose path steps on an edited cell (closed or re-weighted)"
    );
    println!(
        "{:<28} {:>7} {:>8} {:>10} {:>10} {:>8} {:>8} {:>10}{}{}",
        "step",
        "cells",
        "clusters",
        "dead ends",
        "repair ms",
        "touched",
        "on edit",
        "replan ms",
        if args.contract { "  contraction" } else { "" },
        if args.verify {
            "  rebuild ms  check"
        } else {
            ""
        }
    );
    let (mut repair_total, mut steps_done) = (0.0, 0usize);
    // With --contract: the time of each contraction made again after a
    // step that ended it (not counted in the repair column).
    let mut recontracted: Vec<f64> = Vec::new();
    for (_, line, step) in &steps {
        let edits = match step {
            // Weights go through the layers, so later fields add to them.
            Step::Cells(edits) => {
                let weights: Vec<(Point, Weight)> = edits
                    .iter()
                    .filter_map(|e| match e {
                        Edit::Weight(p, w) => Some((*p, *w)),
                        Edit::Passable(..) => None,
                    })
                    .collect();
                let mut out: Vec<Edit> = edits
                    .iter()
                    .filter(|e| matches!(e, Edit::Passable(..)))
                    .copied()
                    .collect();
                out.extend(layers.set_terrain(&weights));
                out
            }
            Step::Field(p, r, peak) => layers
                .add_field(field_layer, *p, *r, *peak)
                .expect("the layer is these layers' own"),
        };
        let t = Instant::now();
        let report = world.apply(&edits)?;
        let repair_ms = t.elapsed().as_secs_f64() * 1e3;
        repair_total += repair_ms;
        steps_done += 1;
        let (mut touched, mut on_edit) = (0, 0);
        let t = Instant::now();
        for (s, g, path) in units.iter_mut() {
            let cells = path.as_ref().map_or(&[][..], |p| &p.cells[..]);
            let touches = path.is_none() || report.touches(cells);
            if !touches {
                continue;
            }
            touched += 1;
            on_edit += report.blocks(cells) as usize;
            *path = if world.grid().is_passable(*s) && world.grid().is_passable(*g) {
                world.find_path(&mut cache, *s, *g)?.path
            } else {
                None
            };
        }
        let replan_ms = t.elapsed().as_secs_f64() * 1e3;
        let dead = match report.dead_ends {
            DeadEndRepair::Unchanged => "-",
            DeadEndRepair::Local => "local",
            DeadEndRepair::Recomputed => "global",
        };
        let mut verify = String::new();
        if args.verify {
            // Landmarks where a build puts them (repairs keep them where they
            // were, which can break ties between equal-cost routes apart).
            world.refresh_landmarks();
            let t = Instant::now();
            let mut s = settings;
            s.landmarks = world.settings().landmarks;
            let mut rebuilt =
                tierpath::HierarchyBuilder::with_settings(s).build(world.grid().clone())?;
            if world.is_contracted() {
                rebuilt.contract()?;
            }
            let rebuild_ms = t.elapsed().as_secs_f64() * 1e3;
            let mut same = true;
            for (s, g, _) in &units {
                if !world.grid().is_passable(*s) || !world.grid().is_passable(*g) {
                    continue;
                }
                let repaired = world.find_path(&mut cache, *s, *g)?.path;
                let again = rebuilt.find_path(&mut cache, *s, *g)?.path;
                if world.is_contraction_patched() {
                    // An exact search of the same graph, but ties between
                    // routes of one cost may fall the other way: the same
                    // reach, and a legal path.
                    same &= again.is_some() == repaired.is_some()
                        && repaired
                            .is_none_or(|p| p.validate(world.grid(), world.movement()).is_ok());
                } else {
                    same &= again.map(|p| p.cells) == repaired.map(|p| p.cells);
                }
            }
            if !same {
                return Err(format!(
                    "after `{line}`: a unit's path differs from the rebuilt hierarchy's"
                )
                .into());
            }
            verify = format!("  {rebuild_ms:>10.2}  same");
        }
        let mut contraction = String::new();
        if args.contract {
            let what = match report.contraction {
                ContractionRepair::Kept | ContractionRepair::NotContracted => "kept",
                ContractionRepair::Patched { .. } => "patched",
                ContractionRepair::Ended => "ended",
            };
            contraction = format!("  {what:<11}");
            if !world.is_contracted() {
                let t = Instant::now();
                world.contract(ContractionKind::default())?;
                recontracted.push(t.elapsed().as_secs_f64() * 1e3);
            }
        }
        println!(
            "{:<28} {:>7} {:>8} {:>10} {:>10.3} {:>8} {:>8} {:>10.3}{contraction}{verify}",
            line,
            report.changed_cells.len(),
            report.clusters.len(),
            dead,
            repair_ms,
            touched,
            on_edit,
            replan_ms
        );
    }
    let t = Instant::now();
    world.refresh_landmarks();
    println!(
        "{} repaired in {repair_total:.2} ms in all; landmarks refreshed once at the end in {:.2} ms",
        super::count(steps_done, "step", "steps"),
        t.elapsed().as_secs_f64() * 1e3
    );
    if args.contract {
        println!(
            "contraction kept by {} of {}; contracted again after the others in {:.1} ms in all",
            super::count(
                (steps_done - recontracted.len()) as u64,
                "repair",
                "repairs"
            ),
            steps_done,
            recontracted.iter().sum::<f64>()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_parse_and_errors_name_the_line() {
        let steps = parse_script(
            "# a comment\nclose 3,4 2x1\nopen 3,4\nweight 1,1 3\nweight 0,0 2x2 250\nfield 5,5 4 -50\n",
            "s",
        )
        .unwrap();
        assert_eq!(steps.len(), 5);
        assert_eq!(
            steps[0].2,
            Step::Cells(vec![
                Edit::Passable(Point::new(3, 4), false),
                Edit::Passable(Point::new(4, 4), false)
            ])
        );
        assert_eq!(steps[4].2, Step::Field(Point::new(5, 5), 4, -50));
        assert_eq!(steps[4].0, 6);
        let err = parse_script("close 1,1\nexplode 2,2\n", "s.txt").unwrap_err();
        assert!(err.to_string().starts_with("s.txt:2:"), "{err}");
        let err = parse_script("weight 1,1 0", "s").unwrap_err();
        assert!(err.to_string().contains("1 to 65535"), "{err}");
    }
}
