//! What `tierpath bench` runs on: the scenario files its inputs name, and
//! the names of their maps and sets.

use crate::CliResult;
use std::path::{Path, PathBuf};

/// `*.scen` in them and their direct subfolders; sorted within each input.
pub(super) fn scenario_files(inputs: &[PathBuf]) -> CliResult<Vec<PathBuf>> {
    let is_scen = |p: &Path| p.is_file() && p.extension().is_some_and(|e| e == "scen");
    let list = |dir: &Path| -> CliResult<Vec<PathBuf>> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        let mut out = Vec::new();
        for e in entries {
            let e = e.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
            out.push(e.path());
        }
        out.sort();
        Ok(out)
    };
    let mut files: Vec<PathBuf> = Vec::new();
    for input in inputs {
        if input.is_file() {
            files.push(input.clone());
        } else if input.is_dir() {
            let mut found = Vec::new();
            for p in list(input)? {
                if is_scen(&p) {
                    found.push(p);
                } else if p.is_dir() {
                    found.extend(list(&p)?.into_iter().filter(|q| is_scen(q)));
                }
            }
            if found.is_empty() {
                return Err(format!(
                    "{}: no scenario files (*.scen) in this folder or its subfolders",
                    input.display()
                )
                .into());
            }
            found.sort();
            files.extend(found);
        } else {
            return Err(format!(
                "{}: no such file or folder (expected a .scen file or a folder of them)",
                input.display()
            )
            .into());
        }
    }
    let mut unique: Vec<PathBuf> = Vec::with_capacity(files.len());
    for f in files {
        if !unique.contains(&f) {
            unique.push(f);
        }
    }
    Ok(unique)
}

/// `arena` for `.../arena.map.scen`.
pub(super) fn short_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.trim_end_matches(".scen")
        .trim_end_matches(".map")
        .to_string()
}

/// The set of a scenario: its folder's name.
pub(super) fn set_name(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .map_or_else(|| ".".to_string(), |n| n.to_string_lossy().into_owned())
}

pub(super) fn file_label(path: &Path) -> String {
    format!("{}/{}", set_name(path), short_name(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let p = Path::new("/x/movingai/scenarios/dao/arena.map.scen");
        assert_eq!(short_name(p), "arena");
        assert_eq!(set_name(p), "dao");
        assert_eq!(file_label(p), "dao/arena");
    }
}
