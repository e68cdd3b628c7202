//! The blocks (biconnected components) of the passable cells of a window
//! of the map, with the moves between them that stay in the window: the
//! local computation behind the window rule of `dead_end_repair`.
//!
//! The depth-first search is the build's (`preprocess::dead_ends`): seeds in
//! row-major order, directions in the grid's order (`Grid::neighbor_in`),
//! blocks numbered as they complete, a root in the block of its only child.
//! So for an island that lies wholly in the window the blocks come out in
//! the build's order, and its core (the first largest) is the build's.
//!
//! # Performance
//! A few `u32` per window cell, held between calls; the window's passability
//! is copied once into a padded local array so that a move is an offset and
//! a corner test.

use crate::grid::{CornerRule, Grid, Movement, Point};
use crate::preprocess::NO_NODE;

/// Per window cell: never visited (a wall reads as visited, see `WALL`).
const WALL: u32 = u32::MAX;

/// The block structure of one window (see the module docs). Cells are named
/// by their index in the padded window (`(y - y0 + 1) * (w + 2) + x - x0 + 1`).
#[derive(Debug, Default)]
pub(crate) struct WindowBlocks {
    /// The window: first column and row, width and height.
    pub(crate) x0: u32,
    pub(crate) y0: u32,
    pub(crate) w: u32,
    pub(crate) h: u32,
    /// Padded passability of the window (padding closed).
    open: Vec<bool>,
    /// Per padded cell: its virtual neighbours (empty without a cycle).
    virt: Vec<[u32; 2]>,
    /// Discovery time per padded cell (0: unvisited; `WALL`).
    disc: Vec<u32>,
    /// Per padded cell: the block it was popped into (`NO_NODE` for a wall
    /// and for a depth-first root that splits).
    pub(crate) block_of: Vec<u32>,
    /// Per padded cell: whether it is a cut cell of the window graph.
    pub(crate) cut: Vec<bool>,
    /// Per padded cell: the component (depth-first tree).
    pub(crate) comp_of: Vec<u32>,
    /// Per block: the cell above it (its depth-first parent end).
    pub(crate) block_top: Vec<u32>,
    /// Per block: its cells.
    pub(crate) block_size: Vec<u32>,
    /// Per block: its component.
    pub(crate) block_comp: Vec<u32>,
    /// Per component: its cells, and its first block.
    pub(crate) comp_size: Vec<u32>,
    pub(crate) comp_first_block: Vec<u32>,
    /// Cut cells of the window graph.
    pub(crate) cuts: u32,
    /// Cells of the windows searched since the count was last taken
    /// ([`WindowBlocks::take_searched`]).
    searched: u64,
    stack: Vec<(u32, u32, u8)>,
    low: Vec<u32>,
    vstack: Vec<u32>,
    // The orientation (see `orient`).
    /// Per block: the block above it once oriented (`NO_NODE`: a root).
    pub(crate) block_parent: Vec<u32>,
    /// Per cut cell (padded index): the block above it once oriented.
    pub(crate) cut_parent: Vec<u32>,
    adj_first: Vec<u32>,
    adj: Vec<u32>,
    fill: Vec<u32>,
    edges: Vec<(u32, u32)>,
    seen: Vec<bool>,
    todo: Vec<u32>,
}

impl WindowBlocks {
    /// The padded index of a map cell in the window.
    #[inline]
    pub(crate) fn local(&self, p: Point) -> u32 {
        (p.y - self.y0 + 1) * (self.w + 2) + (p.x - self.x0 + 1)
    }

    /// The map cell of a padded index.
    #[inline]
    pub(crate) fn point(&self, i: u32) -> Point {
        let pw = self.w + 2;
        Point::new(self.x0 + i % pw - 1, self.y0 + i / pw - 1)
    }

    /// Whether the padded cell is passable.
    #[inline]
    pub(crate) fn is_open(&self, i: u32) -> bool {
        self.open[i as usize]
    }

    /// Whether the map cell lies in the window and is open there (in `R`,
    /// for the window rule).
    #[inline]
    pub(crate) fn holds(&self, p: Point) -> bool {
        p.x >= self.x0
            && p.y >= self.y0
            && p.x - self.x0 < self.w
            && p.y - self.y0 < self.h
            && self.is_open(self.local(p))
    }

    /// The cells of the windows computed since the last call (what a repair
    /// has spent searching windows).
    pub(crate) fn take_searched(&mut self) -> u64 {
        std::mem::take(&mut self.searched)
    }

    /// Computes the blocks of the window `(x0, y0, x1, y1)` (inclusive) of
    /// `grid` as it stands, under `movement` (already the topology's).
    ///
    /// With `cycle` (padded indices of this window), those cells are also
    /// joined in a cycle of virtual moves, in order (searched after the
    /// real ones). With `hole`, the cells of that box are taken as closed,
    /// except those of `keep`. Unless `only` is empty (else one flag per
    /// padded index of this window), the cells it flags false are taken as
    /// closed too.
    pub(crate) fn compute(
        &mut self,
        grid: &Grid,
        movement: &Movement,
        window: [u32; 4],
        cycle: &[u32],
        hole: Option<([u32; 4], &[Point])>,
        only: &[bool],
    ) {
        let [x0, y0, x1, y1] = window;
        (self.x0, self.y0, self.w, self.h) = (x0, y0, x1 - x0 + 1, y1 - y0 + 1);
        self.searched += u64::from(self.w) * u64::from(self.h);
        let pw = (self.w + 2) as usize;
        let len = pw * (self.h + 2) as usize;
        self.open.clear();
        self.open.resize(len, false);
        for y in y0..=y1 {
            let row = (y - y0 + 1) as usize * pw;
            for x in x0..=x1 {
                self.open[row + (x - x0 + 1) as usize] = grid.is_passable(Point::new(x, y));
            }
        }
        if let Some(([hx0, hy0, hx1, hy1], keep)) = hole {
            for y in hy0.max(y0)..=hy1.min(y1) {
                for x in hx0.max(x0)..=hx1.min(x1) {
                    let i = self.local(Point::new(x, y));
                    self.open[i as usize] = false;
                }
            }
            for p in keep {
                let i = self.local(*p);
                self.open[i as usize] = grid.is_passable(*p);
            }
        }
        if !only.is_empty() {
            debug_assert_eq!(only.len(), len, "one flag per padded cell");
            for (o, keep) in self.open.iter_mut().zip(only) {
                *o &= *keep;
            }
        }
        self.virt.clear();
        if !cycle.is_empty() {
            self.virt.resize(len, [NO_NODE; 2]);
            for (k, c) in cycle.iter().enumerate() {
                let next = cycle[(k + 1) % cycle.len()];
                if next != *c {
                    self.virt[*c as usize][1] = next;
                    self.virt[next as usize][0] = *c;
                }
            }
        }
        self.disc.clear();
        self.disc
            .extend(self.open.iter().map(|o| if *o { 0 } else { WALL }));
        self.low.clear();
        self.low.resize(len, 0);
        self.block_of.clear();
        self.block_of.resize(len, NO_NODE);
        self.cut.clear();
        self.cut.resize(len, false);
        self.comp_of.clear();
        self.comp_of.resize(len, NO_NODE);
        self.block_top.clear();
        self.block_size.clear();
        self.block_comp.clear();
        self.comp_size.clear();
        self.comp_first_block.clear();
        self.cuts = 0;

        let pwi = pw as u32;
        let diagonals = movement.diagonals();
        let corners = movement.corners;
        let dirs: u8 = if diagonals { 8 } else { 4 };
        let all_dirs = dirs + if self.virt.is_empty() { 0 } else { 2 };
        let open = std::mem::take(&mut self.open);
        let virt = std::mem::take(&mut self.virt);
        // The move from `v` in direction `d`, as `Grid::neighbor_in`.
        let step = |v: u32, d: u8| -> Option<u32> {
            let (n, e, s, wst) = (v - pwi, v + 1, v + pwi, v - 1);
            let (to, a, b) = match d {
                0 => return open[n as usize].then_some(n),
                1 => return open[e as usize].then_some(e),
                2 => return open[s as usize].then_some(s),
                3 => return open[wst as usize].then_some(wst),
                4 => (n + 1, n, e),
                5 => (s + 1, s, e),
                6 => (s - 1, s, wst),
                _ => (n - 1, n, wst),
            };
            let ok = match corners {
                CornerRule::Never => open[a as usize] && open[b as usize],
                CornerRule::IfOneFree => open[a as usize] || open[b as usize],
                CornerRule::Always => true,
            };
            (ok && open[to as usize]).then_some(to)
        };
        let mut time = 0u32;
        for seed in 0..len as u32 {
            if self.disc[seed as usize] != 0 {
                continue;
            }
            let comp = self.comp_size.len() as u32;
            self.comp_first_block.push(self.block_top.len() as u32);
            let first_time = time + 1;
            time += 1;
            self.disc[seed as usize] = time;
            self.low[seed as usize] = time;
            self.comp_of[seed as usize] = comp;
            self.vstack.push(seed);
            self.stack.push((seed, NO_NODE, 0));
            let (mut root_children, mut root_block) = (0u32, 0u32);
            while let Some(&mut (v, parent, ref mut dir)) = self.stack.last_mut() {
                if *dir < all_dirs {
                    let d = *dir;
                    *dir += 1;
                    let w = if d < dirs {
                        step(v, d)
                    } else {
                        Some(virt[v as usize][(d - dirs) as usize]).filter(|w| *w != NO_NODE)
                    };
                    let Some(w) = w else { continue };
                    if self.disc[w as usize] == 0 {
                        time += 1;
                        self.disc[w as usize] = time;
                        self.low[w as usize] = time;
                        self.comp_of[w as usize] = comp;
                        self.vstack.push(w);
                        self.stack.push((w, v, 0));
                    } else if w != parent {
                        let dw = self.disc[w as usize];
                        if dw < self.low[v as usize] {
                            self.low[v as usize] = dw;
                        }
                    }
                    continue;
                }
                self.stack.pop();
                if parent == NO_NODE {
                    break;
                }
                let lv = self.low[v as usize];
                if lv < self.low[parent as usize] {
                    self.low[parent as usize] = lv;
                }
                if lv >= self.disc[parent as usize] {
                    let b = self.block_top.len() as u32;
                    self.block_top.push(parent);
                    self.block_comp.push(comp);
                    let mut size = 1u32;
                    while let Some(x) = self.vstack.pop() {
                        self.block_of[x as usize] = b;
                        size += 1;
                        if x == v {
                            break;
                        }
                    }
                    self.block_size.push(size);
                    if parent == seed {
                        root_children += 1;
                        root_block = b;
                    } else if !self.cut[parent as usize] {
                        self.cut[parent as usize] = true;
                        self.cuts += 1;
                    }
                }
            }
            self.vstack.clear();
            self.comp_size.push(time + 1 - first_time);
            match root_children {
                0 => {
                    self.block_of[seed as usize] = self.block_top.len() as u32;
                    self.block_top.push(seed);
                    self.block_size.push(1);
                    self.block_comp.push(comp);
                }
                1 => self.block_of[seed as usize] = root_block,
                _ => {
                    self.cut[seed as usize] = true;
                    self.cuts += 1;
                }
            }
        }
        self.open = open;
        self.virt = virt;
    }

    /// The first largest block of component `comp` (the build's core).
    pub(crate) fn largest_block(&self, comp: u32) -> u32 {
        let first = self.comp_first_block[comp as usize] as usize;
        let end = self
            .comp_first_block
            .get(comp as usize + 1)
            .map_or(self.block_top.len(), |e| *e as usize);
        let mut best = first;
        for b in first..end {
            if self.block_size[b] > self.block_size[best] {
                best = b;
            }
        }
        best as u32
    }

    /// Orients the block-cut tree of every component from `roots` (one block
    /// per component): fills `block_parent` and, for cut cells, `cut_parent`.
    pub(crate) fn orient(&mut self, roots: &[u32]) {
        let nb = self.block_top.len();
        let len = self.block_of.len();
        // Tree nodes: blocks 0..nb, then cut cells as nb + padded index.
        let node_count = nb + len;
        let mut edges = std::mem::take(&mut self.edges);
        edges.clear();
        for (b, top) in self.block_top.iter().enumerate() {
            if self.cut[*top as usize] {
                edges.push((b as u32, nb as u32 + *top));
            }
        }
        for (c, is_cut) in self.cut.iter().enumerate() {
            if *is_cut && self.block_of[c] != NO_NODE {
                edges.push((self.block_of[c], (nb + c) as u32));
            }
        }
        let mut first = std::mem::take(&mut self.adj_first);
        first.clear();
        first.resize(node_count + 1, 0);
        for (a, b) in &edges {
            first[*a as usize + 1] += 1;
            first[*b as usize + 1] += 1;
        }
        for i in 0..node_count {
            first[i + 1] += first[i];
        }
        let mut adj = std::mem::take(&mut self.adj);
        adj.clear();
        adj.resize(first[node_count] as usize, 0);
        let mut fill = std::mem::take(&mut self.fill);
        fill.clear();
        fill.extend_from_slice(&first);
        for (a, b) in &edges {
            adj[fill[*a as usize] as usize] = *b;
            fill[*a as usize] += 1;
            adj[fill[*b as usize] as usize] = *a;
            fill[*b as usize] += 1;
        }
        self.edges = edges;
        self.fill = fill;
        self.block_parent.clear();
        self.block_parent.resize(nb, NO_NODE);
        self.cut_parent.clear();
        self.cut_parent.resize(len, NO_NODE);
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.resize(node_count, false);
        let mut todo = std::mem::take(&mut self.todo);
        for r in roots {
            seen[*r as usize] = true;
            todo.push(*r);
            while let Some(v) = todo.pop() {
                for k in first[v as usize]..first[v as usize + 1] {
                    let u = adj[k as usize];
                    if seen[u as usize] {
                        continue;
                    }
                    seen[u as usize] = true;
                    if (v as usize) < nb {
                        self.cut_parent[u as usize - nb] = v;
                    } else {
                        // A block below a cut cell: its parent is the block
                        // above that cell.
                        self.block_parent[u as usize] = self.cut_parent[v as usize - nb];
                    }
                    todo.push(u);
                }
            }
        }
        self.adj_first = first;
        self.adj = adj;
        self.todo = todo;
        self.seen = seen;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blocks(ascii: &str, movement: Movement) -> WindowBlocks {
        let g = Grid::from_ascii(ascii).unwrap();
        let mut s = WindowBlocks::default();
        let m = Grid::topology_movement(&movement);
        s.compute(
            &g,
            &m,
            [0, 0, g.width() - 1, g.height() - 1],
            &[],
            None,
            &[],
        );
        s
    }

    #[test]
    fn rings_paths_and_pieces() {
        let m = Movement::default();
        let ring = blocks("...\n.@.\n...", m);
        assert_eq!((ring.block_top.len(), ring.cuts), (1, 0));
        assert_eq!(ring.block_size, vec![8]);
        let path = blocks("...\n@@@\n...", Movement::FOUR);
        assert_eq!(path.comp_size, vec![3, 3]);
        assert_eq!(path.block_size, vec![2, 2, 2, 2]);
        assert_eq!(path.cuts, 2);
        // Two rings joined at one cell (4-connected): that cell splits them.
        let two = blocks("...@@\n.@.@@\n.....\n@@.@.\n@@...", Movement::FOUR);
        assert_eq!(two.cuts, 1);
        let mut sizes = two.block_size.clone();
        sizes.sort_unstable();
        assert_eq!(sizes, vec![8, 8]);
    }

    #[test]
    fn orientation_hangs_blocks_below_the_root() {
        // A ring with a tail: rooted at the ring, the tail's blocks hang
        // below it, each under the one before.
        let mut s = blocks("...@@\n.@...\n...@@", Movement::FOUR);
        let ring = s.largest_block(0);
        assert_eq!(s.block_size[ring as usize], 8);
        s.orient(&[ring]);
        let tail: Vec<u32> = (0..s.block_top.len() as u32)
            .filter(|b| *b != ring)
            .collect();
        assert_eq!(tail.len(), 2);
        let near = s.local(Point::new(3, 1));
        let far = s.local(Point::new(4, 1));
        assert!(s.cut[near as usize] && !s.cut[far as usize]);
        assert_eq!(s.cut_parent[s.local(Point::new(2, 1)) as usize], ring);
        let far_block = s.block_of[far as usize];
        assert_eq!(
            s.cut_parent[near as usize],
            s.block_parent[far_block as usize]
        );
        assert_eq!(
            s.block_parent[s.block_parent[far_block as usize] as usize],
            ring
        );
    }
}
