//! Finding the map file a scenario names, in the Moving AI archive's layout
//! or beside the scenario.

use std::path::{Path, PathBuf};

use super::Scenario;
use crate::io::IoError;

impl Scenario {
    /// The map file this scenario names (that of its first query), found on
    /// disk: see [`Scenario::resolve_map`].
    pub fn map_path(&self) -> Result<PathBuf, IoError> {
        match self.queries.first() {
            Some(q) => self.resolve_map(&q.map),
            None => Err(IoError::MapNotFound {
                path: self.path.clone(),
                map: String::new(),
                tried: Vec::new(),
            }),
        }
    }

    /// Finds the file of `map`, a map column of this scenario (like
    /// `maps/dao/arena.map`). With the scenario at `ROOT/scenarios/dao/x.scen`,
    /// tries, in order:
    ///
    /// 1. `map` itself, when it is an absolute path;
    /// 2. `ROOT/<map>`: the map column relative to the Moving AI root, two
    ///    folders above the scenario's folder;
    /// 3. the map's bare file name beside the scenario;
    /// 4. `ROOT/maps/<set>/<name>`, where `<set>` is the map column's folder
    ///    (`dao`) or, when it names none, the scenario's folder.
    ///
    /// Returns the first that exists, or [`IoError::MapNotFound`] listing every
    /// path tried.
    pub fn resolve_map(&self, map: &str) -> Result<PathBuf, IoError> {
        let scen = Path::new(&self.path);
        let dir = match scen.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let root = dir.join("..").join("..");
        let column = Path::new(map);
        let mut tried: Vec<PathBuf> = Vec::new();
        if column.is_absolute() {
            tried.push(column.to_path_buf());
        } else {
            tried.push(root.join(column));
        }
        if let Some(name) = column.file_name() {
            tried.push(dir.join(name));
            let set = column
                .parent()
                .and_then(Path::file_name)
                .or_else(|| dir.file_name());
            if let Some(set) = set {
                tried.push(root.join("maps").join(set).join(name));
            }
        }
        let mut unique: Vec<PathBuf> = Vec::with_capacity(tried.len());
        for p in tried {
            if !unique.contains(&p) {
                unique.push(p);
            }
        }
        let tried = unique;
        match tried.iter().find(|p| p.is_file()) {
            Some(p) => Ok(p.clone()),
            None => Err(IoError::MapNotFound {
                path: self.path.clone(),
                map: map.to_string(),
                tried,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{TEST_SCEN, parse_scenario};
    use super::*;

    #[test]
    fn map_resolution() {
        let root = std::env::temp_dir().join(format!("tierpath-io-scen-{}", std::process::id()));
        let scen_dir = root.join("scenarios/dao");
        std::fs::create_dir_all(&scen_dir).unwrap();
        std::fs::create_dir_all(root.join("maps/dao")).unwrap();
        let scen_path = scen_dir.join("arena.map.scen");
        let scen = Scenario {
            path: scen_path.display().to_string(),
            queries: parse_scenario(TEST_SCEN.as_bytes(), "x").unwrap().queries,
        };
        // Nothing exists yet: the error lists every candidate.
        let e = scen.map_path().unwrap_err();
        match &e {
            IoError::MapNotFound { map, tried, .. } => {
                assert_eq!(map, "maps/dao/arena.map");
                assert_eq!(tried.len(), 2, "{tried:?}"); // ROOT/maps/dao/... is listed once
                assert_eq!(tried[0], scen_dir.join("../../maps/dao/arena.map"));
                assert_eq!(tried[1], scen_dir.join("arena.map"));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string()
                .contains("cannot find map `maps/dao/arena.map`; tried ")
        );
        // Beside the scenario.
        std::fs::write(scen_dir.join("arena.map"), "x").unwrap();
        assert_eq!(scen.map_path().unwrap(), scen_dir.join("arena.map"));
        // In the Moving AI layout, which wins.
        std::fs::write(root.join("maps/dao/arena.map"), "x").unwrap();
        assert_eq!(
            scen.map_path().unwrap(),
            scen_dir.join("../../maps/dao/arena.map")
        );
        // A bare map name: looked up in maps/<scenario folder>/.
        assert_eq!(
            scen.resolve_map("arena.map").unwrap(),
            scen_dir.join("arena.map")
        );
        std::fs::remove_file(scen_dir.join("arena.map")).unwrap();
        assert_eq!(
            scen.resolve_map("arena.map").unwrap(),
            scen_dir.join("../../maps/dao/arena.map")
        );
        let none = Scenario {
            path: "s.scen".into(),
            queries: vec![],
        };
        assert!(
            none.map_path()
                .unwrap_err()
                .to_string()
                .contains("no queries")
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
