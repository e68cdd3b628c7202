//! The unit a command plans for: `--size K` (a `K x K` square named by its
//! top-left cell; 1 by default), where it fits, and whether a hierarchy
//! serves it.

use tierpath::{Clearance, Grid, Hierarchy, Movement, Path, Point, validate_sized_path};

use super::CliResult;

/// Parses `--size` and `--max-size`: 1 to 255.
pub fn parse(text: &str) -> Result<u32, String> {
    let k: u32 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a unit size: expected a whole number, like 2"))?;
    match k {
        0 => Err("sizes start at 1 (a 1x1 unit)".into()),
        1..=255 => Ok(k),
        _ => Err(format!("{k} is too large: units are at most 255x255 cells")),
    }
}

/// Checks hierarchy `h` (loaded from `file`) serves units of `size`.
pub fn check_hierarchy(h: &Hierarchy, size: u32, file: &std::path::Path) -> CliResult {
    if size > h.max_unit_size() {
        return Err(format!(
            "--size {size} is above the largest unit size {} of hierarchy {}; preprocess it \
             for this size: `tierpath preprocess MAP --max-size {size} -o {}`",
            h.max_unit_size(),
            file.display(),
            file.display()
        )
        .into());
    }
    Ok(())
}

/// Where a unit of one size fits on a map: the plain grid for size 1, its
/// clearance for a larger one.
pub struct Footprint {
    size: u32,
    clearance: Option<Clearance>,
}

impl Footprint {
    /// The footprint of a unit of `size` on `grid`.
    pub fn new(grid: &Grid, size: u32) -> Footprint {
        Footprint {
            size,
            clearance: (size > 1).then(|| Clearance::new(grid.clone())),
        }
    }

    /// The unit's size.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Whether the unit fits with its top-left cell on `p` (on the map).
    pub fn fits(&self, grid: &Grid, p: Point) -> bool {
        match &self.clearance {
            Some(c) => c.fits(p, self.size),
            None => grid.is_passable(p),
        }
    }

    /// Whether the unit does not fit at a query's start or goal.
    pub fn misfit(&self, grid: &Grid, start: Point, goal: Point) -> bool {
        !self.fits(grid, start) || !self.fits(grid, goal)
    }

    /// Why [`misfit`](Self::misfit) queries are skipped, as a summary says it.
    pub fn misfit_reason(&self) -> String {
        match self.size {
            1 => "start or goal is a blocked cell".into(),
            k => format!("a {k}x{k} unit does not fit at start or goal"),
        }
    }

    /// Checks `path` is legal for the unit: every move by the footprint rule.
    pub fn validate(&self, grid: &Grid, movement: &Movement, path: &Path) -> Result<(), String> {
        match self.size {
            1 => path.validate(grid, movement).map_err(|e| e.to_string()),
            k => validate_sized_path(path, grid, movement, k).map_err(|e| e.to_string()),
        }
        .map_err(|e| format!("invalid path: {e}"))
    }

    /// Cells the unit fits on.
    pub fn cells(&self, grid: &Grid) -> u64 {
        match &self.clearance {
            Some(c) => c.cells_per_size(self.size as u8)[self.size as usize - 1],
            None => grid.passable_count() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_and_fit() {
        assert_eq!(parse("3"), Ok(3));
        assert!(parse("0").unwrap_err().contains("start at 1"));
        assert!(parse("256").unwrap_err().contains("too large"));
        assert!(parse("two").is_err());
        let grid = Grid::from_ascii(
            "
            ...
            ..@",
        )
        .unwrap();
        let (one, two) = (Footprint::new(&grid, 1), Footprint::new(&grid, 2));
        assert!(one.fits(&grid, Point::new(1, 1)) && !two.fits(&grid, Point::new(1, 0)));
        assert!(two.fits(&grid, Point::new(0, 0)));
        assert_eq!((one.cells(&grid), two.cells(&grid)), (5, 1));
        assert!(two.misfit(&grid, Point::new(0, 0), Point::new(1, 0)));
    }
}
