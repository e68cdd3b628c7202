//! The classic A* tutorials, reproduced with tierpath: one subcommand per
//! tutorial, each printing its map, what the search did and the path.
//!
//! `cargo run --release --example tutorials -- <name>`, where name is one of
//! the commands below (or `all`). The maps are in `data/tutorials/`; each
//! tutorial's module says which text it follows and which tierpath calls do
//! the work. `tests/tutorials.rs` pins what each one shows.

mod calkins;
mod common;
mod fradj;
mod hatfield;
mod islands;
mod lague;
mod lester;
mod two_tiers;
mod warmth;

use std::error::Error;
use std::process::ExitCode;

/// The tutorials: command, one line about it, and the function that runs it
/// and returns its report.
type Lesson = (
    &'static str,
    &'static str,
    fn() -> Result<String, Box<dyn Error>>,
);

const LESSONS: [Lesson; 8] = [
    (
        "open-closed",
        "1. Lester: open and closed lists, F = G + H, 10/14 costs",
        || Ok(lester::run()?.report()),
    ),
    (
        "cat-and-bone",
        "2. Fradj: 4-connected, ties toward the newest square",
        || Ok(fradj::run()?.report()),
    ),
    (
        "lowest-h",
        "3. Lague: ties on F toward the lowest H",
        || Ok(lague::run()?.report()),
    ),
    (
        "reopening",
        "4. Hatfield: re-opening closed nodes, a custom heuristic",
        || Ok(hatfield::run()?.report()),
    ),
    (
        "terrain",
        "5. Calkins: grass, snow, roads and walls",
        || Ok(calkins::run()?.report()),
    ),
    (
        "warmth",
        "6. Calkins: warmth and dread, cost layers that attract and repel",
        || Ok(warmth::run()?.report()),
    ),
    ("islands", "7. Lester: islands and dead ends", || {
        Ok(islands::run()?.report())
    }),
    (
        "two-tiers",
        "8. Lester: a two-tier search on a large map",
        || Ok(two_tiers::run()?.report()),
    ),
];

fn usage() -> String {
    let mut s = String::from(
        "usage: cargo run --release --example tutorials -- <tutorial>\n\ntutorials:\n",
    );
    for (name, about, _) in LESSONS {
        s += &format!("  {name:<14}{about}\n");
    }
    s += "  all           every one in turn\n";
    s
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name] = args.as_slice() else {
        eprint!("{}", usage());
        return ExitCode::from(2);
    };
    let chosen: Vec<&Lesson> = LESSONS
        .iter()
        .filter(|(n, _, _)| name == "all" || n == name)
        .collect();
    if chosen.is_empty() {
        eprintln!("unknown tutorial {name:?}\n");
        eprint!("{}", usage());
        return ExitCode::from(2);
    }
    for (i, (_, _, run)) in chosen.iter().enumerate() {
        if i > 0 {
            println!("\n{}\n", "=".repeat(78));
        }
        match run() {
            Ok(report) => print!("{report}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
