//! ASCII pictures of a map and a path, downscaled to fit a terminal.

use tierpath::{Grid, Point};

/// The part of the map a picture shows and how it was scaled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct View {
    /// Left column shown.
    pub x0: u32,
    /// Top row shown.
    pub y0: u32,
    /// Columns shown.
    pub width: u32,
    /// Rows shown.
    pub height: u32,
    /// Map columns per character.
    pub sx: u32,
    /// Map rows per line.
    pub sy: u32,
}

impl View {
    /// The window around `points` (grown by `margin`, clipped to the map) and
    /// the scale that fits it in `max_cols` characters. Terminal characters are
    /// about twice as tall as wide, so a downscaled picture takes twice as many
    /// rows per line as columns per character; at full scale every cell shows.
    pub fn around(grid: &Grid, points: &[Point], margin: u32, max_cols: u32) -> View {
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for p in points {
            x0 = x0.min(p.x);
            y0 = y0.min(p.y);
            x1 = x1.max(p.x);
            y1 = y1.max(p.y);
        }
        if points.is_empty() {
            (x0, y0, x1, y1) = (0, 0, grid.width() - 1, grid.height() - 1);
        }
        let x0 = x0.saturating_sub(margin);
        let y0 = y0.saturating_sub(margin);
        let x1 = x1.saturating_add(margin).min(grid.width() - 1);
        let y1 = y1.saturating_add(margin).min(grid.height() - 1);
        let (width, height) = (x1 - x0 + 1, y1 - y0 + 1);
        let sx = width.div_ceil(max_cols.max(8));
        let sy = if sx == 1 { 1 } else { 2 * sx };
        View {
            x0,
            y0,
            width,
            height,
            sx,
            sy,
        }
    }

    /// Characters per line.
    pub fn cols(&self) -> u32 {
        self.width.div_ceil(self.sx)
    }

    /// Lines.
    pub fn rows(&self) -> u32 {
        self.height.div_ceil(self.sy)
    }

    /// The character cell of a map point inside the view.
    fn slot(&self, p: Point) -> Option<usize> {
        let inside = p.x >= self.x0
            && p.y >= self.y0
            && p.x < self.x0 + self.width
            && p.y < self.y0 + self.height;
        inside.then(|| {
            let (c, r) = ((p.x - self.x0) / self.sx, (p.y - self.y0) / self.sy);
            (r * self.cols() + c) as usize
        })
    }
}

/// Legend of [`draw`]'s characters.
pub const LEGEND: &str = "S start, G goal, * path, # wall, . partly wall, blank open";

/// Draws the view of `grid` with `path` (every cell) from `start` to `goal`.
/// Each character stands for `sx x sy` cells: `S`/`G` where an endpoint lies,
/// `*` where the path passes, otherwise `#` when at least half the cells are
/// blocked, `.` when some are, a blank when none are.
pub fn draw(grid: &Grid, view: &View, path: &[Point], start: Point, goal: Point) -> String {
    let (cols, rows) = (view.cols() as usize, view.rows() as usize);
    let mut blocked = vec![0u32; cols * rows];
    let mut total = vec![0u32; cols * rows];
    for y in view.y0..view.y0 + view.height {
        for x in view.x0..view.x0 + view.width {
            let p = Point::new(x, y);
            if let Some(i) = view.slot(p) {
                total[i] += 1;
                blocked[i] += u32::from(!grid.is_passable(p));
            }
        }
    }
    let mut chars: Vec<u8> = blocked
        .iter()
        .zip(&total)
        .map(|(&b, &t)| match b {
            0 => b' ',
            _ if 2 * b >= t => b'#',
            _ => b'.',
        })
        .collect();
    for p in path {
        if let Some(i) = view.slot(*p) {
            chars[i] = b'*';
        }
    }
    for (p, c) in [(start, b'S'), (goal, b'G')] {
        if let Some(i) = view.slot(p) {
            chars[i] = c;
        }
    }
    let mut out = String::with_capacity((cols + 1) * rows);
    for row in chars.chunks(cols) {
        out.extend(row.iter().map(|&c| c as char));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_maps_show_every_cell() {
        let grid = Grid::from_ascii(
            "
            ....
            .@@.
            ....",
        )
        .unwrap();
        let path = [Point::new(0, 1), Point::new(0, 2), Point::new(1, 2)];
        let view = View::around(&grid, &path, 10, 80);
        assert_eq!((view.sx, view.sy, view.cols(), view.rows()), (1, 1, 4, 3));
        let pic = draw(&grid, &view, &path, path[0], path[2]);
        assert_eq!(pic, "    \nS## \n*G  \n");
    }

    #[test]
    fn big_maps_are_downscaled_to_fit() {
        let grid = Grid::new(256, 256).unwrap();
        let path: Vec<Point> = (0..256).map(|i| Point::new(i, i)).collect();
        let view = View::around(&grid, &path, 2, 128);
        assert_eq!((view.sx, view.sy), (2, 4));
        assert_eq!((view.cols(), view.rows()), (128, 64));
        let pic = draw(&grid, &view, &path, path[0], path[255]);
        assert_eq!(pic.lines().count(), 64);
        assert!(pic.starts_with('S') && pic.trim_end().ends_with('G'));
        assert!(pic.matches('*').count() >= 120);
    }
}
