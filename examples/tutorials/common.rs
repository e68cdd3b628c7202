//! What every tutorial needs: its map from `data/tutorials/`, the cells its
//! letters mark, and an ASCII picture of a path on it.

use std::error::Error;
use std::path::{Path as FsPath, PathBuf};

use tierpath::{Grid, Point, io};

/// The directory the tutorial maps live in.
pub fn data_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/data/tutorials"))
}

/// A hand-drawn map in the terrain text format, with its rows kept so that
/// letters declared in the legend (`A start 1`, `T tent 1`) can mark places.
pub struct TutorialMap {
    /// The file it came from.
    pub file: PathBuf,
    /// The grid tierpath parsed from it.
    pub grid: Grid,
    rows: Vec<Vec<char>>,
}

impl TutorialMap {
    /// Reads `name` from the tutorial data directory.
    pub fn load(name: &str) -> Result<TutorialMap, Box<dyn Error>> {
        Self::load_from(&data_dir().join(name))
    }

    /// Reads a terrain text file: the grid through `tierpath::io`, which
    /// checks everything and names the line of any mistake, and the rows as
    /// drawn.
    pub fn load_from(file: &FsPath) -> Result<TutorialMap, Box<dyn Error>> {
        let grid = io::read_terrain(file)?;
        let text = std::fs::read_to_string(file)?;
        let rows: Vec<Vec<char>> = text
            .lines()
            .skip_while(|l| l.trim() != "map")
            .skip(1)
            .map(|l| l.trim().chars().collect::<Vec<char>>())
            .filter(|r| !r.is_empty())
            .collect();
        if rows.len() != grid.height() as usize {
            return Err(format!(
                "{}: the rows after `map` do not match the grid",
                file.display()
            )
            .into());
        }
        Ok(TutorialMap {
            file: file.to_path_buf(),
            grid,
            rows,
        })
    }

    /// Every cell drawn with `ch`, row by row.
    pub fn cells(&self, ch: char) -> Vec<Point> {
        let mut out = Vec::new();
        for (y, row) in self.rows.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                if *c == ch {
                    out.push(Point::new(x as u32, y as u32));
                }
            }
        }
        out
    }

    /// The one cell drawn with `ch`; an error naming the file otherwise.
    pub fn marker(&self, ch: char) -> Result<Point, Box<dyn Error>> {
        match self.cells(ch).as_slice() {
            [p] => Ok(*p),
            cells => Err(format!(
                "{}: expected exactly one {ch:?} on the map, found {}",
                self.file.display(),
                cells.len()
            )
            .into()),
        }
    }

    /// The map as drawn, with `marks` painted over it in order (later marks
    /// win), one row per line.
    pub fn draw(&self, marks: &[(Point, char)]) -> String {
        let mut rows = self.rows.clone();
        for (p, ch) in marks {
            if let Some(c) = rows
                .get_mut(p.y as usize)
                .and_then(|r| r.get_mut(p.x as usize))
            {
                *c = *ch;
            }
        }
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    }
}

/// The cells of `path` between its ends, each paired with `ch`: the marks that
/// draw a path without hiding its start and goal letters.
pub fn path_marks(path: &[Point], ch: char) -> Vec<(Point, char)> {
    let inner = path.len().saturating_sub(1);
    path.iter().take(inner).skip(1).map(|p| (*p, ch)).collect()
}

/// A list of cells as `(x,y) (x,y) ...`.
pub fn cell_list(cells: &[Point]) -> String {
    cells
        .iter()
        .map(|p| format!("({},{})", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ")
}
