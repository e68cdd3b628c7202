//! A scenario file and its map, as `solve` and `bench` meet them: finding the
//! map a scenario names in other people's layouts, checking the map fits, and
//! the one rule for checking a path (for the unit's size).

use crate::CliResult;
use crate::unit::Footprint;
use std::path::{Component, Path, PathBuf};
use tierpath::io::{Scenario, ScenarioQuery};
use tierpath::{Grid, Movement};

/// Longest text of a file's field quoted in a message; longer ones are cut.
const MAX_QUOTED: usize = 60;

/// `text`, cut to [`MAX_QUOTED`] characters with `...` when longer: a field
/// read from a file may be megabytes long.
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(MAX_QUOTED) {
        Some((cut, _)) => format!("{}... ({} bytes)", &text[..cut], text.len()),
        None => text.to_string(),
    }
}

/// Checks every query of `scenario` fits `grid`, read from `map`: the size
/// each line states and its endpoints. The message names the map given (not
/// the one the scenario's column names) and the line.
pub fn check_fits(scenario: &Scenario, grid: &Grid, map: &Path) -> CliResult {
    for q in &scenario.queries {
        if (q.width, q.height) != (grid.width(), grid.height()) {
            return Err(format!(
                "{} line {}: the query is for a {}x{} map, but {} is {}x{}",
                scenario.path,
                q.line,
                q.width,
                q.height,
                map.display(),
                grid.width(),
                grid.height()
            )
            .into());
        }
        for (role, p) in [("start", q.start), ("goal", q.goal)] {
            if !grid.contains(p) {
                return Err(format!(
                    "{} line {}: {role} {p} is off the {}x{} map {}",
                    scenario.path,
                    q.line,
                    grid.width(),
                    grid.height(),
                    map.display()
                )
                .into());
            }
        }
    }
    Ok(())
}

/// A warning when the scenario's map column names another map than `map`
/// (compared by file name): the sizes agree, so the run goes on, but its
/// answers will not match the scenario's optima.
pub fn other_map_warning(scenario: &Scenario, map: &Path) -> Option<String> {
    let given = map.file_name()?.to_string_lossy().into_owned();
    let other = scenario.queries.iter().find(|q| {
        Path::new(&q.map)
            .file_name()
            .is_some_and(|n| n.to_string_lossy() != given)
    })?;
    let count = scenario
        .queries
        .iter()
        .filter(|q| q.map == other.map)
        .count();
    Some(format!(
        "{} names map `{}` ({count} line{}, first line {}), not {}: running on {} as given",
        scenario.path,
        shorten(&other.map),
        if count == 1 { "" } else { "s" },
        other.line,
        map.display(),
        map.display()
    ))
}

/// Why a planner's path does not answer its query (a move illegal for
/// `unit`, a wrong stated cost, other endpoints), if it does not.
pub fn check_path(
    grid: &Grid,
    movement: &Movement,
    unit: &Footprint,
    q: &ScenarioQuery,
    path: &tierpath::Path,
) -> Result<(), String> {
    unit.validate(grid, movement, path)?;
    if path.start() != Some(q.start) || path.goal() != Some(q.goal) {
        return Err(format!(
            "path runs {:?} -> {:?}, query asks {} -> {}",
            path.start(),
            path.goal(),
            q.start,
            q.goal
        ));
    }
    Ok(())
}

/// `path` with `.` and `name/..` removed lexically, so that `..` climbs the
/// folders as written even through a symbolic link (the operating system
/// would climb from the link's target).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = out.components().next_back();
                match last {
                    Some(Component::Normal(_)) => {
                        out.pop();
                    }
                    Some(Component::RootDir | Component::Prefix(_)) => {}
                    _ => out.push(".."),
                }
            }
            other => out.push(other),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Finds the map file of a scenario (that of its first query's map column,
/// like `maps/bgmaps/AR0014SR.map`), following symbolic links, in order:
///
/// 1. the column itself when absolute; the column under the archive root two
///    folders above the scenario (`ROOT/scenarios/SET/x.scen` ->
///    `ROOT/<column>`), both as written and through the scenario's real
///    location;
/// 2. the map's file name beside the scenario;
/// 3. `ROOT/maps/<set>/<name>`, `<set>` the column's folder, then the
///    scenario's;
/// 4. with `maps_dir`: `<maps_dir>/<column>`, `<maps_dir>/<name>` and
///    `<maps_dir>/<set>/<name>`.
///
/// The error lists every path tried and shortens a long map column.
pub fn find_map(scenario: &Scenario, maps_dir: Option<&Path>) -> CliResult<PathBuf> {
    let Some(first) = scenario.queries.first() else {
        return Err(format!("{}: the scenario has no queries", scenario.path).into());
    };
    let column = Path::new(&first.map);
    let scen = Path::new(&scenario.path);
    let dir = match scen.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = column.file_name();
    // The map's set: the column's folder (`bgmaps`), and the scenario's
    // folder (`bg512`), which is where archives often put the maps.
    let mut sets: Vec<std::ffi::OsString> = Vec::new();
    for set in [column.parent().and_then(Path::file_name), dir.file_name()]
        .into_iter()
        .flatten()
    {
        if !sets.iter().any(|s| s == set) {
            sets.push(set.to_os_string());
        }
    }
    let mut dirs = vec![dir.clone()];
    if let Ok(real) = std::fs::canonicalize(scen)
        && let Some(parent) = real.parent()
    {
        dirs.push(parent.to_path_buf());
    }
    let mut tried: Vec<PathBuf> = Vec::new();
    if column.is_absolute() {
        tried.push(column.to_path_buf());
    }
    for d in &dirs {
        let root = lexical(&d.join("..").join(".."));
        if !column.is_absolute() {
            tried.push(root.join(column));
        }
        if let Some(name) = name {
            tried.push(d.join(name));
            for set in &sets {
                tried.push(root.join("maps").join(set).join(name));
            }
        }
    }
    if let Some(m) = maps_dir {
        if !column.is_absolute() {
            tried.push(m.join(column));
        }
        if let Some(name) = name {
            tried.push(m.join(name));
            for set in &sets {
                tried.push(m.join(set).join(name));
            }
        }
    }
    let mut unique: Vec<PathBuf> = Vec::with_capacity(tried.len());
    for p in tried {
        if !unique.contains(&p) {
            unique.push(p);
        }
    }
    if let Some(found) = unique.iter().find(|p| p.is_file()) {
        return Ok(found.clone());
    }
    let list: Vec<String> = unique
        .iter()
        .map(|p| shorten(&p.display().to_string()))
        .collect();
    Err(format!(
        "{}: cannot find map `{}`; tried {}{}",
        scenario.path,
        shorten(&first.map),
        list.join(", "),
        if maps_dir.is_none() {
            " (name the folder holding the maps with --maps DIR)"
        } else {
            ""
        }
    )
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_paths_climb_as_written() {
        assert_eq!(lexical(Path::new("a/b/../..")), PathBuf::from("."));
        assert_eq!(
            lexical(Path::new("x/scenarios/bg/../../maps/bg/m.map")),
            PathBuf::from("x/maps/bg/m.map")
        );
        assert_eq!(lexical(Path::new("../a/./b")), PathBuf::from("../a/b"));
        assert_eq!(lexical(Path::new("/..")), PathBuf::from("/"));
    }

    #[test]
    fn long_fields_are_shortened() {
        let long = "m".repeat(10_000_000);
        let s = shorten(&long);
        assert!(s.len() < 100 && s.ends_with("(10000000 bytes)"), "{s}");
        assert_eq!(shorten("maps/dao/arena.map"), "maps/dao/arena.map");
    }
}
