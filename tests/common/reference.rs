//! A test map independent of [`Grid`], and a plain reference Dijkstra over it,
//! for the property tests (`flat_props`, `preprocess_props`, `hpa_props`).
//!
//! The reference is deliberately naive and shares no code with the library's
//! searches: Dijkstra over `(x, y)` coordinates with the neighbour rules
//! spelt out (4 or 8 neighbours, the corner rules), a move costing
//! `base * weight(entered cell)`, optionally restricted to the cells a
//! predicate admits.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use tierpath::{Connectivity, CornerRule, Grid, Movement, Point, Weight};

/// The movement rules under test: 4-connected first (index 0), then
/// 8-connected with each corner rule, and the tutorials' 10/14 costs.
pub fn movements() -> [Movement; 5] {
    [
        Movement::FOUR,
        Movement::OCTILE,
        Movement {
            corners: CornerRule::IfOneFree,
            ..Movement::OCTILE
        },
        Movement {
            corners: CornerRule::Always,
            ..Movement::OCTILE
        },
        Movement::TEN_FOURTEEN,
    ]
}

/// A map: passability and terrain weight (percent) per cell, row-major.
#[derive(Clone, PartialEq, Eq)]
pub struct TestMap {
    pub width: u32,
    pub height: u32,
    pub open: Vec<bool>,
    pub weight: Vec<u16>,
}

impl TestMap {
    /// An open, unweighted `width x height` map.
    pub fn new(width: u32, height: u32) -> TestMap {
        let n = (width * height) as usize;
        TestMap {
            width,
            height,
            open: vec![true; n],
            weight: vec![Weight::ONE.0; n],
        }
    }

    /// The passability and weights of `grid`.
    pub fn from_grid(grid: &Grid) -> TestMap {
        let mut map = TestMap::new(grid.width(), grid.height());
        for i in 0..map.open.len() {
            let p = map.point(i);
            map.open[i] = grid.is_passable(p);
            map.weight[i] = grid.weight(p).0;
        }
        map
    }

    /// The index of on-map cell `(x, y)`.
    pub fn idx(&self, x: u32, y: u32) -> usize {
        (y * self.width + x) as usize
    }

    /// The cell at index `i`.
    pub fn point(&self, i: usize) -> Point {
        Point::new(i as u32 % self.width, i as u32 / self.width)
    }

    /// Whether `(x, y)` is on the map and passable.
    pub fn passable(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < self.width as i64
            && y < self.height as i64
            && self.open[self.idx(x as u32, y as u32)]
    }

    /// Whether any cell has a weight other than [`Weight::ONE`].
    pub fn is_weighted(&self) -> bool {
        self.weight.iter().any(|w| *w != Weight::ONE.0)
    }

    /// The passable cells, row by row.
    pub fn passable_points(&self) -> Vec<Point> {
        (0..self.open.len())
            .filter(|i| self.open[*i])
            .map(|i| self.point(i))
            .collect()
    }

    /// The same map as a [`Grid`].
    pub fn to_grid(&self) -> Grid {
        let mut g = Grid::from_fn(self.width, self.height, |p| self.open[self.idx(p.x, p.y)])
            .expect("valid size");
        for (i, w) in self.weight.iter().enumerate() {
            if *w != Weight::ONE.0 {
                g.set_weight(self.point(i), Weight(*w)).expect("on the map");
            }
        }
        g
    }

    /// The map as ASCII (`.` passable, `@` blocked, as `Grid::to_ascii`)
    /// with `marks` drawn over it (a later mark over an earlier one), then a
    /// line listing the passable cells whose weight is not plain ground.
    pub fn render(&self, marks: &[(Point, char)]) -> String {
        let mut rows: Vec<Vec<char>> = (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| if self.open[self.idx(x, y)] { '.' } else { '@' })
                    .collect()
            })
            .collect();
        for (p, c) in marks {
            rows[p.y as usize][p.x as usize] = *c;
        }
        let mut s = String::new();
        for r in rows {
            s.extend(r);
            s.push('\n');
        }
        let weighted: Vec<String> = (0..self.open.len())
            .filter(|i| self.open[*i] && self.weight[*i] != Weight::ONE.0)
            .map(|i| {
                let p = self.point(i);
                format!("({},{})={}", p.x, p.y, self.weight[i])
            })
            .collect();
        if !weighted.is_empty() {
            s.push_str(&format!("weights: {}\n", weighted.join(" ")));
        }
        s
    }
}

/// The reference's answer: the least cost from the start to every cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    width: u32,
    cost: Vec<Option<u64>>,
}

impl Distances {
    /// The least cost to `p`; `None` when unreachable or off the map.
    pub fn get(&self, p: Point) -> Option<u64> {
        if p.x >= self.width {
            return None;
        }
        let i = p.y as usize * self.width as usize + p.x as usize;
        self.cost.get(i).copied().flatten()
    }

    /// Every cell with its least cost, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Point, Option<u64>)> + '_ {
        let w = self.width;
        self.cost
            .iter()
            .enumerate()
            .map(move |(i, c)| (Point::new(i as u32 % w, i as u32 / w), *c))
    }

    /// How many cells are reachable (the start included).
    pub fn reachable(&self) -> usize {
        self.cost.iter().filter(|c| c.is_some()).count()
    }
}

/// Plain Dijkstra from `start` over the whole map.
pub fn dijkstra(map: &TestMap, m: &Movement, start: Point) -> Distances {
    dijkstra_within(map, m, start, |_| true)
}

/// Plain Dijkstra from `start` entering only the passable cells `allowed`
/// admits. A move costs `base * weight(entered cell)`; a diagonal move's
/// corner rule looks at the map's cells beside it (allowed or not).
pub fn dijkstra_within(
    map: &TestMap,
    m: &Movement,
    start: Point,
    allowed: impl Fn(Point) -> bool,
) -> Distances {
    let mut dist: Vec<Option<u64>> = vec![None; map.open.len()];
    let mut heap = BinaryHeap::new();
    dist[map.idx(start.x, start.y)] = Some(0);
    heap.push(Reverse((0u64, start.x, start.y)));
    while let Some(Reverse((d, x, y))) = heap.pop() {
        if dist[map.idx(x, y)] != Some(d) {
            continue; // stale
        }
        for dy in -1i64..=1 {
            for dx in -1i64..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let diagonal = dx != 0 && dy != 0;
                if diagonal && m.connectivity == Connectivity::Four {
                    continue;
                }
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if !map.passable(nx, ny) || !allowed(Point::new(nx as u32, ny as u32)) {
                    continue;
                }
                if diagonal {
                    let side_a = map.passable(nx, y as i64);
                    let side_b = map.passable(x as i64, ny);
                    let ok = match m.corners {
                        CornerRule::Never => side_a && side_b,
                        CornerRule::IfOneFree => side_a || side_b,
                        CornerRule::Always => true,
                    };
                    if !ok {
                        continue;
                    }
                }
                let base = if diagonal { m.diagonal } else { m.straight };
                let i = map.idx(nx as u32, ny as u32);
                let nd = d + base as u64 * map.weight[i] as u64;
                if dist[i].is_none_or(|old| nd < old) {
                    dist[i] = Some(nd);
                    heap.push(Reverse((nd, nx as u32, ny as u32)));
                }
            }
        }
    }
    Distances {
        width: map.width,
        cost: dist,
    }
}
