//! `tierpath generate KIND --size WxH --seed S -o FILE`: writes a generated
//! map in Moving AI format (how data/*.map are made).

use super::{CliResult, Size, parse_size};
use std::io::Write;
use std::path::PathBuf;
use tierpath::io;
use tierpath::mapgen::{self, MapKind, MapParams};

/// Arguments of `tierpath generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// rooms | caves | maze | random | mixed (caves with buildings of rooms).
    pub kind: MapKind,
    /// Map size, WxH.
    #[arg(long, value_name = "WxH", value_parser = parse_size, default_value = "256x256")]
    pub size: Size,
    /// Seed: the same kind, size, seed and options give the same map.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (Moving AI .map); standard output when omitted.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// rooms: inside side of a room, in cells.
    #[arg(long, value_name = "N")]
    pub room_size: Option<u32>,
    /// maze: corridor width, in cells.
    #[arg(long, value_name = "N")]
    pub corridor: Option<u32>,
    /// random: percentage of blocked cells.
    #[arg(long, value_name = "PERCENT")]
    pub obstacles: Option<u32>,
    /// caves, mixed: percentage of blocked cells in the initial noise.
    #[arg(long, value_name = "PERCENT")]
    pub fill: Option<u32>,
    /// Join every region of 24 cells or more to the largest by tunnels
    /// (always on for mixed).
    #[arg(long)]
    pub connect: bool,
}

/// Runs `tierpath generate`.
pub fn run(args: Args) -> CliResult {
    let defaults = MapParams::default();
    for (name, value) in [("--obstacles", args.obstacles), ("--fill", args.fill)] {
        if value.is_some_and(|v| v > 100) {
            return Err(format!("{name} is a percentage: at most 100").into());
        }
    }
    for (name, value) in [
        ("--room-size", args.room_size),
        ("--corridor", args.corridor),
    ] {
        if value == Some(0) {
            return Err(format!("{name} must be at least 1").into());
        }
    }
    // Each option shapes one kind (or two): given to another, it would be
    // ignored silently.
    let applies = [
        (
            "--room-size",
            args.room_size.is_some(),
            &[MapKind::Rooms][..],
        ),
        ("--corridor", args.corridor.is_some(), &[MapKind::Maze][..]),
        (
            "--obstacles",
            args.obstacles.is_some(),
            &[MapKind::Random][..],
        ),
        (
            "--fill",
            args.fill.is_some(),
            &[MapKind::Caves, MapKind::Mixed][..],
        ),
    ];
    for (name, given, kinds) in applies {
        if given && !kinds.contains(&args.kind) {
            let names: Vec<String> = kinds.iter().map(|k| k.to_string()).collect();
            return Err(format!(
                "{name} applies to {} maps only, not {}",
                names.join(" and "),
                args.kind
            )
            .into());
        }
    }
    let params = MapParams {
        room_size: args.room_size.unwrap_or(defaults.room_size),
        corridor_width: args.corridor.unwrap_or(defaults.corridor_width),
        obstacle_percent: args.obstacles.unwrap_or(defaults.obstacle_percent),
        cave_fill_percent: args.fill.unwrap_or(defaults.cave_fill_percent),
        connect: args.connect,
        ..defaults
    };
    let Size { width, height } = args.size;
    let grid = mapgen::generate_with(args.kind, width, height, args.seed, &params)?;
    match &args.output {
        Some(path) => io::save_map(&grid, path)?,
        None => {
            let mut out = std::io::stdout().lock();
            io::write_map(&grid, &mut out)?;
            out.flush()?;
        }
    }
    let (open, largest) = mapgen::coverage(&grid);
    let target = args
        .output
        .as_ref()
        .map_or("standard output".to_string(), |p| p.display().to_string());
    eprintln!(
        "generated {} {width}x{height} seed {}: {:.1}% passable, largest region {:.1}% of it -> {target}",
        args.kind,
        args.seed,
        open * 100.0,
        largest * 100.0
    );
    Ok(())
}
