//! The checks of the cluster graph and the landmarks against the map: every
//! edge stands for a legal path of exactly its cost, and no sum of costs a
//! query, a repair or a landmark refresh makes can overflow.
//!
//! - an edge between clusters is one of the entrances' links (recomputed
//!   from the map, see `validate`), a legal move of exactly the move's cost,
//!   and every link is two such edges;
//! - an edge inside a cluster joins two transitions of that cluster; a
//!   stored path is walked by legal moves (for a unit of the largest size
//!   the edge serves, when built for several) to its target and its cost summed,
//!   which must be the edge's; an unstored edge's cost is at least the
//!   straight-line bound and at most what a path inside the cluster can cost,
//!   and its ends lie in one component of the cluster (labelled once per
//!   cluster that needs it), so refining it always finds a path;
//! - every landmark distance is 0 at its landmark, never more than the
//!   distance along an edge allows (`d(w) <= d(v) + cost`, so the bound it
//!   gives stays consistent), and small enough to add to.

use rayon::prelude::*;

use super::LoadError;
use super::codec::invalid;
use crate::engine::{Fits, Space, corner_ok};
use crate::grid::{CornerRule, DIRECTIONS, Grid, Movement, Node, Point, Weight, direction_code};
use crate::hierarchy::BuildSettings;
use crate::packed::Column64;
use crate::preprocess::sizes::UnitSizes;
use crate::preprocess::{ClusterGraph, Entrances, Landmarks, UNREACHED};

/// The dearest single move: a diagonal onto the heaviest cell.
pub(super) fn max_step(m: &Movement) -> u64 {
    m.diagonal.max(m.straight) as u64 * Weight::MAX.0 as u64
}

/// The legal move from `a` to `b` (neighbours or not): its cost, or `None`.
fn legal_move(grid: &Grid, m: &Movement, a: Point, b: Point) -> Option<u64> {
    let (dx, dy) = (b.x as i64 - a.x as i64, b.y as i64 - a.y as i64);
    if dx.abs() > 1 || dy.abs() > 1 || (dx, dy) == (0, 0) {
        return None;
    }
    let (to, _) = grid.neighbor_in(grid.node(a), direction_code(dx, dy), m)?;
    (to == grid.node(b)).then(|| grid.step_cost(m, a, b))
}

/// Per-thread scratch of the in-cluster component labels, kept per run of
/// passable cells along a row (open ground makes few runs).
struct Components {
    /// The cluster labelled, `u32::MAX` for none yet.
    cluster: u32,
    /// The unit size it was labelled for.
    size: u8,
    /// Runs of passable cells of each row of the cluster: `(first x, last x)`
    /// relative to the cluster, in row order.
    runs: Vec<(u32, u32)>,
    /// `runs[row_first[r]..row_first[r + 1]]` are row `r`'s.
    row_first: Vec<u32>,
    /// Union-find parent of each run, then its component.
    parent: Vec<u32>,
    /// The component of each transition of the cluster, in node order
    /// (`u32::MAX` for a blocked cell): looked up once, not per edge.
    node_component: Vec<u32>,
}

/// Bit `i` set where `cells[i]` is (at most 64 cells), eight at a time:
/// the eight bytes of eight cells as one word, whose low bits one
/// multiplication gathers into its top byte.
#[inline(always)]
fn open_bits(cells: &[bool]) -> u64 {
    let mut bits = 0u64;
    let mut blocks = cells.chunks_exact(8);
    for (k, block) in blocks.by_ref().enumerate() {
        let word = u64::from_le_bytes(std::array::from_fn(|j| block[j] as u8));
        bits |= (word.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
    }
    let done = cells.len() - blocks.remainder().len();
    for (j, open) in blocks.remainder().iter().enumerate() {
        bits |= (*open as u64) << (done + j);
    }
    bits
}

/// Appends the runs of passable cells of `row` as `(first, last)`
/// positions in the row: [`push_runs`] for passability, found 64 cells at a
/// time from their bits (open ground makes few runs; each costs a few
/// bit operations, not one test per cell).
fn push_open_runs(row: &[bool], runs: &mut Vec<(u32, u32)>) {
    // The start of a run still open at the end of the last word.
    let mut open: Option<u32> = None;
    for (k, word) in row.chunks(64).enumerate() {
        let (bits, n, base) = (open_bits(word), word.len() as u32, 64 * k as u32);
        let mut i = 0;
        while i < n {
            // Bits at and after `i`; those past the row are clear.
            let rest = bits >> i;
            match open {
                None if rest == 0 => break,
                None => {
                    i += rest.trailing_zeros();
                    open = Some(base + i);
                }
                Some(start) => {
                    i += (!rest).trailing_zeros();
                    if i >= n {
                        break;
                    }
                    runs.push((start, base + i - 1));
                    open = None;
                }
            }
        }
    }
    if let Some(start) = open {
        runs.push((start, row.len() as u32 - 1));
    }
}

/// Appends the runs of cells of `row` that `open` admits, as `(first,
/// last)` positions in the row.
#[inline(always)]
fn push_runs<T>(row: &[T], open: impl Fn(&T) -> bool, runs: &mut Vec<(u32, u32)>) {
    let mut x = 0;
    while x < row.len() {
        if !open(&row[x]) {
            x += 1;
            continue;
        }
        let start = x;
        while x < row.len() && open(&row[x]) {
            x += 1;
        }
        runs.push((start as u32, x as u32 - 1));
    }
}

fn root(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[i as usize];
        parent[i as usize] = parent[up as usize];
        i = up;
    }
    i
}

impl Components {
    fn new() -> Self {
        Components {
            cluster: u32::MAX,
            size: 0,
            runs: Vec::new(),
            row_first: Vec::new(),
            parent: Vec::new(),
            node_component: Vec::new(),
        }
    }

    /// Labels cluster `c`'s components for a unit of `size` (moves inside
    /// its rectangle on the grid of the cells where the unit fits: the
    /// passable ones for size 1, else those of clearance `>= size` in
    /// `x.clearance`, the grid's padded layout) unless already done. On that
    /// grid, straight moves join any two neighbours, and a diagonal move
    /// joins cells a straight detour inside the rectangle already joins,
    /// except when corners may be cut past two walls: so runs are joined
    /// where they overlap the run above (or touch it diagonally, in that
    /// case).
    #[inline(always)]
    fn label(&mut self, x: &EdgeCheck, c: u32, size: u8) {
        if self.cluster != c || self.size != size {
            self.relabel(x, c, size);
        }
    }

    /// [`Components::label`], when not already done.
    #[inline(never)]
    fn relabel(&mut self, x: &EdgeCheck, c: u32, size: u8) {
        let (grid, m, e, clearance) = (x.grid, x.m, x.e, x.clearance);
        self.cluster = c;
        self.size = size;
        let (x0, y0, x1, y1) = e.layout.bounds(c);
        let slack = (m.diagonals() && m.corners == CornerRule::Always) as u32;
        let (passable, pw) = (grid.passable_slice(), grid.padded_width() as usize);
        let (runs, row_first, parent) = (&mut self.runs, &mut self.row_first, &mut self.parent);
        runs.clear();
        row_first.clear();
        parent.clear();
        for y in y0..=y1 {
            row_first.push(runs.len() as u32);
            let at = (y as usize + 1) * pw + 1;
            let span = at + x0 as usize..=at + x1 as usize;
            if size <= 1 {
                push_open_runs(&passable[span], runs);
            } else {
                push_runs(&clearance[span], |x| *x >= size, runs);
            }
        }
        row_first.push(runs.len() as u32);
        parent.extend(0..runs.len() as u32);
        for r in 1..row_first.len() - 1 {
            let above = row_first[r - 1] as usize..row_first[r] as usize;
            let here = row_first[r] as usize..row_first[r + 1] as usize;
            let (mut i, mut j) = (above.start, here.start);
            while i < above.end && j < here.end {
                let ((a0, a1), (b0, b1)) = (runs[i], runs[j]);
                if a0 <= b1 + slack && b0 <= a1 + slack {
                    let (ra, rb) = (root(parent, i as u32), root(parent, j as u32));
                    parent[ra.max(rb) as usize] = ra.min(rb);
                }
                if a1 < b1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
        let mut node_component = std::mem::take(&mut self.node_component);
        node_component.clear();
        let nodes = e.cluster_first[c as usize]..e.cluster_first[c as usize + 1];
        node_component.extend(nodes.map(|v| {
            let p = grid.point_of(crate::CellIndex(e.cells[v as usize]));
            if e.layout.cluster_of(p) != c {
                return u32::MAX;
            }
            self.component(e, p).unwrap_or(u32::MAX)
        }));
        self.node_component = node_component;
    }

    /// The component of `p` in the labelled cluster, `None` when blocked
    /// or outside it (a forged transition: the entrance check refuses it).
    fn component(&mut self, e: &Entrances, p: Point) -> Option<u32> {
        let (x0, y0, _, _) = e.layout.bounds(self.cluster);
        let (x, r) = (p.x.checked_sub(x0)?, p.y.checked_sub(y0)? as usize);
        let row = *self.row_first.get(r)? as usize..*self.row_first.get(r + 1)? as usize;
        let i = self.runs[row.clone()].partition_point(|(_, last)| *last < x) + row.start;
        (i < row.end && self.runs[i].0 <= x).then(|| root(&mut self.parent, i as u32))
    }

    /// Whether nodes `v` at `a` and `w` at `b` (in the labelled cluster)
    /// are joined inside it.
    #[inline(always)]
    fn joined(&mut self, e: &Entrances, (v, a): (u32, Point), (w, b): (u32, Point)) -> bool {
        let first = e.cluster_first[self.cluster as usize];
        let mut of = |n: u32, p: Point| {
            let known = n
                .checked_sub(first)
                .and_then(|i| self.node_component.get(i as usize));
            match known {
                Some(c) if *c != u32::MAX => Some(*c),
                _ => self.component(e, p),
            }
        };
        let ca = of(v, a);
        ca.is_some() && ca == of(w, b)
    }
}

/// Checks the edges of the cluster graph (see the module docs); `e` has
/// been checked to be the map's entrances. With `sizes` (built for several
/// unit sizes, rebuilt from the map), each edge's annotation too: in
/// `1..=max`, at most what either end admits, its link's for an edge
/// between clusters, and for an edge inside a cluster its stored moves
/// legal for a unit of that size (so for every smaller one) or, unstored,
/// its ends joined inside the cluster for a unit of that size;
/// each node's edges sorted by it, largest first (a query stops at the
/// first edge below its size).
pub(super) fn check_edges(
    grid: &Grid,
    settings: &BuildSettings,
    e: &Entrances,
    g: &ClusterGraph,
    sizes: Option<&UnitSizes>,
) -> Result<(), LoadError> {
    let m = &settings.movement;
    let nodes = e.cells.len();
    super::validate::check_below(&g.edge_to, nodes, "edge targets")?;
    if g.edge_cost.len() != g.edge_to.len() {
        return Err(invalid("edge costs differ in length from edges"));
    }
    let stored = !g.path_first.is_empty() || !g.path_codes.is_empty();
    if settings.keep_paths {
        super::layout::check_offsets(&g.path_first, g.edges() + 1, g.path_codes.len(), "path")?
    } else if stored {
        return Err(invalid("stored paths in a file saved without keep_paths"));
    }
    if e.links
        .iter()
        .any(|(a, b)| *a as usize >= nodes || *b as usize >= nodes)
    {
        return Err(invalid("link to a missing transition"));
    }
    // Moves and walks start from transitions, so they must be cells of the
    // map (the entrance check, beside this one, says where they belong).
    if e.cells.iter().any(|c| *c as usize >= grid.len()) {
        return Err(invalid("a transition lies off the map"));
    }
    // Each node's links (a node has at most a few), as CSR, with each
    // link's size when built for several.
    let mut link_size = vec![
        0u8;
        if sizes.is_some() {
            2 * e.links.len()
        } else {
            0
        }
    ];
    let (link_first, link_to) = e.link_rows(|slot, l| {
        if let Some(size) = link_size.get_mut(slot) {
            *size = e.link_clear[l];
        }
    });
    let area = settings.cluster_size as u64 * settings.cluster_size as u64;
    // The grid of each size: the clearance, capped at the largest.
    let (clearance, max) = sizes.map_or((&[][..], 1), |u| (&u.clearance[..], u.max));
    let check = EdgeCheck {
        grid,
        m,
        e,
        g,
        link_first,
        link_to,
        link_size,
        clearance,
        max,
        max_intra: area * max_step(m),
        min_weight: grid.min_weight().0 as u64,
        steps: Steps::new(grid, m),
    };
    // Clusters in parallel, each with its own component scratch and, with
    // several sizes, its unstored edges inside it left for the components.
    let sized = sizes.is_some();
    let counts = (0..e.layout.count() as u32)
        .into_par_iter()
        .with_min_len(16)
        .map_init(
            || (Components::new(), Vec::new()),
            |(comp, pending), c| match sized {
                true => check.cluster::<true>(comp, pending, c),
                false => check.cluster::<false>(comp, pending, c),
            },
        )
        .try_reduce(|| (0, 0), |x, y| Ok((x.0 + y.0, x.1 + y.1)))?;
    if counts != (g.intra_edges, g.inter_edges) {
        return Err(invalid("edge counts differ from the edges"));
    }
    Ok(())
}

/// What the check of one cluster's edges reads: the graph, each node's
/// links (CSR, with each link's size when built for several sizes), and
/// with several sizes the clearance of every cell.
struct EdgeCheck<'a> {
    grid: &'a Grid,
    m: &'a Movement,
    e: &'a Entrances,
    g: &'a ClusterGraph,
    link_first: Vec<u32>,
    link_to: Vec<u32>,
    link_size: Vec<u8>,
    clearance: &'a [u8],
    /// The largest size served (1 for one size).
    max: u8,
    /// The dearest path inside a cluster.
    max_intra: u64,
    min_weight: u64,
    /// The moves stored paths make, by direction code.
    steps: Steps,
}

/// An unstored edge inside a cluster is refined by a straight route or a
/// search inside the cluster for a unit of each size it serves, which must
/// find a path.
fn not_joined(edge: u32, size: u8) -> LoadError {
    invalid(format!(
        "edge {edge} joins transitions not joined inside their cluster for a unit of size {size}"
    ))
}

impl EdgeCheck<'_> {
    fn point(&self, v: u32) -> Point {
        self.grid
            .point_of(crate::CellIndex(self.e.cells[v as usize]))
    }

    /// The size edge `edge` from `v` to `w` serves, checked against its
    /// ends and `above`, the size of the edge before it.
    fn annotation(&self, edge: usize, v: u32, w: u32, above: u8) -> Result<u8, LoadError> {
        let (size, max, clear) = (self.g.edge_clear[edge], self.max, &self.e.clear);
        if size == 0 || size > max {
            return Err(invalid(format!(
                "edge {edge} serves size {size}, outside 1..={max}"
            )));
        }
        if size > clear[v as usize] || size > clear[w as usize] {
            return Err(invalid(format!(
                "edge {edge} serves size {size}, more than one of its ends admits"
            )));
        }
        if size > above {
            return Err(invalid(format!(
                "the edges of transition {v} are not sorted by the size they serve"
            )));
        }
        Ok(size)
    }

    /// Checks the edges out of cluster `c`'s transitions and counts them
    /// (inside, between clusters). `SIZED`: built for several sizes, whose
    /// unstored edges inside the cluster are collected in `pending` and
    /// checked by size, so each size's grid is labelled once.
    fn cluster<const SIZED: bool>(
        &self,
        comp: &mut Components,
        pending: &mut Vec<(u8, u32, u32, u32)>,
        c: u32,
    ) -> Result<(u64, u64), LoadError> {
        let (grid, m, e, g) = (self.grid, self.m, self.e, self.g);
        let (mut intra, mut inter) = (0u64, 0u64);
        pending.clear();
        for v in e.cluster_first[c as usize]..e.cluster_first[c as usize + 1] {
            let a = self.point(v);
            let mine =
                self.link_first[v as usize] as usize..self.link_first[v as usize + 1] as usize;
            let links = &self.link_to[mine.clone()];
            let mut links_seen = 0;
            let mut above = u8::MAX;
            let (first, end) = (g.edge_first[v as usize], g.edge_first[v as usize + 1]);
            for edge in first as usize..end as usize {
                let w = g.edge_to[edge];
                let cost = g.edge_cost.get(edge);
                let b = self.point(w);
                let size = if SIZED {
                    self.annotation(edge, v, w, above)?
                } else {
                    1
                };
                above = size;
                if e.layout.cluster_of(b) != c {
                    inter += 1;
                    let duplicate = g.edge_to[first as usize..edge].contains(&w);
                    let link = links.iter().position(|x| *x == w);
                    let Some(link) = link.filter(|_| !duplicate) else {
                        return Err(invalid(format!(
                            "edge {edge} joins two clusters but is not an entrance's link"
                        )));
                    };
                    links_seen += 1;
                    if legal_move(grid, m, a, b) != Some(cost) {
                        return Err(invalid(format!(
                            "edge {edge} between clusters does not cost its move"
                        )));
                    }
                    let admits = if SIZED {
                        self.link_size[mine.start + link]
                    } else {
                        1
                    };
                    if admits != size {
                        return Err(invalid(format!(
                            "edge {edge} between clusters serves size {size}, but its link admits size {admits}"
                        )));
                    }
                    continue;
                }
                intra += 1;
                if w == v {
                    return Err(invalid(format!("edge {edge} is a loop")));
                }
                let bound = m.distance(a.x.abs_diff(b.x), a.y.abs_diff(b.y)).0
                    / Weight::ONE.0 as u64
                    * self.min_weight;
                if cost < bound || cost > self.max_intra {
                    return Err(invalid(format!(
                        "edge {edge} costs {cost}, outside what a path in its cluster can cost"
                    )));
                }
                if let Some(codes) = g.edge_path(edge) {
                    let fits = SIZED.then_some((self.clearance, size));
                    check_stored_path(grid, (m, &self.steps), fits, edge, (a, b), codes, cost)?;
                } else if SIZED {
                    pending.push((size, edge as u32, v, w));
                } else {
                    comp.label(self, c, 1);
                    if !comp.joined(e, (v, a), (w, b)) {
                        return Err(not_joined(edge as u32, 1));
                    }
                }
            }
            if links_seen != links.len() {
                return Err(invalid(format!("a link of transition {v} has no edge")));
            }
        }
        pending.sort_unstable();
        for &(size, edge, v, w) in pending.iter() {
            comp.label(self, c, size);
            if !comp.joined(e, (v, self.point(v)), (w, self.point(w))) {
                return Err(not_joined(edge, size));
            }
        }
        Ok((intra, inter))
    }
}

/// One move by direction code on the padded grid: the offset to its
/// target, the offsets of the two cells beside a diagonal move (the target
/// itself for a straight one), and its base cost.
#[derive(Clone, Copy)]
struct Step {
    to: isize,
    side_a: isize,
    side_b: isize,
    base: u64,
}

/// The moves a stored path may make under a movement rule, by direction
/// code, looked up once per move instead of matched (`None`: a diagonal
/// code under 4-connectivity).
struct Steps([Option<Step>; 8]);

impl Steps {
    fn new(grid: &Grid, m: &Movement) -> Self {
        let pw = grid.padded_width() as isize;
        Steps(std::array::from_fn(|code| {
            let (dx, dy) = DIRECTIONS[code];
            let (dx, dy) = (dx as isize, dy as isize);
            let diagonal = dx != 0 && dy != 0;
            (!diagonal || m.diagonals()).then_some(Step {
                to: dy * pw + dx,
                side_a: if diagonal { dy * pw } else { dy * pw + dx },
                side_b: if diagonal { dx } else { dy * pw + dx },
                base: if diagonal { m.diagonal } else { m.straight } as u64,
            })
        }))
    }
}

/// The end and cost of the moves `codes` from padded node `n` (a cell of
/// the map), `None` at an illegal move: `corner` says whether a diagonal
/// with these two sides open is legal, `weight` gives a node's weight. A
/// legal move only ever reaches a passable cell, so the walk stays on the
/// map and every offset from it inside the padded grid.
#[inline(always)]
fn walk(
    passable: &[bool],
    steps: &Steps,
    mut n: usize,
    codes: &[u8],
    corner: impl Fn(bool, bool) -> bool,
    weight: impl Fn(usize) -> u64,
) -> Option<(usize, u64)> {
    let mut sum = 0u64;
    for c in codes {
        let s = (*steps.0.get(*c as usize)?)?;
        let at = |off: isize| passable[n.wrapping_add_signed(off)];
        if !(at(s.to) && corner(at(s.side_a), at(s.side_b))) {
            return None;
        }
        n = n.wrapping_add_signed(s.to);
        sum += s.base * weight(n);
    }
    Some((n, sum))
}

/// [`walk`] under corner rule `rule`, matched once per path: each rule's
/// walk has its test inlined.
fn walk_by_rule(
    passable: &[bool],
    steps: &Steps,
    n: usize,
    codes: &[u8],
    rule: CornerRule,
    weight: impl Fn(usize) -> u64,
) -> Option<(usize, u64)> {
    use CornerRule::{Always, IfOneFree, Never};
    match rule {
        Never => walk(
            passable,
            steps,
            n,
            codes,
            |a, b| corner_ok(Never, a, b),
            weight,
        ),
        IfOneFree => walk(
            passable,
            steps,
            n,
            codes,
            |a, b| corner_ok(IfOneFree, a, b),
            weight,
        ),
        Always => walk(
            passable,
            steps,
            n,
            codes,
            |a, b| corner_ok(Always, a, b),
            weight,
        ),
    }
}

/// The end and cost of the moves `codes` from `n` for a unit of `size`
/// (the clearance given), `None` at a move illegal for it.
fn walk_sized(
    grid: &Grid,
    m: &Movement,
    (clearance, size): (&[u8], u8),
    mut n: Node,
    codes: &[u8],
) -> Option<(Node, u64)> {
    let space = Fits::on(grid, clearance, m, size);
    let mut sum = 0u64;
    for c in codes {
        let (dx, dy) = *DIRECTIONS.get(*c as usize)?;
        let mut next = None;
        space.for_each_neighbor(n, |w, base, ex, ey| {
            if (ex, ey) == (dx, dy) {
                next = Some((w, base));
            }
        });
        let (w, base) = next?;
        n = w;
        sum += base as u64 * space.weight(w.0);
    }
    Some((n, sum))
}

/// A stored path walks by legal moves (for a unit of the size given with
/// the clearance, when built for several) from `a` to `b` and costs `cost`.
fn check_stored_path(
    grid: &Grid,
    (m, steps): (&Movement, &Steps),
    fits: Option<(&[u8], u8)>,
    edge: usize,
    (a, b): (Point, Point),
    codes: &[u8],
    cost: u64,
) -> Result<(), LoadError> {
    // Walk on padded nodes from a cell of the map (`check_edges` refuses
    // transitions off it): a legal move only ever reaches a passable cell,
    // so the walk cannot leave the map. The corner rule and the weights'
    // presence are matched once per path, not per move.
    let start = grid.node(a);
    let walked = match (fits, grid.weight_slice()) {
        (Some(fits), _) => walk_sized(grid, m, fits, start, codes),
        (None, weights) => {
            let (passable, n) = (grid.passable_slice(), start.index());
            let walked = match weights {
                Some(w) => walk_by_rule(passable, steps, n, codes, m.corners, |n| w[n] as u64),
                None => walk_by_rule(passable, steps, n, codes, m.corners, |_| {
                    Weight::ONE.0 as u64
                }),
            };
            walked.map(|(n, sum)| (Node(n as u32), sum))
        }
    };
    let Some((n, sum)) = walked else {
        return Err(invalid(format!(
            "stored path of edge {edge} makes an illegal move"
        )));
    };
    if n != grid.node(b) {
        return Err(invalid(format!(
            "stored path of edge {edge} ends off its target"
        )));
    }
    if sum != cost {
        return Err(invalid(format!(
            "edge {edge} costs {cost} but its stored path costs {sum}"
        )));
    }
    Ok(())
}

/// Checks the landmark tables against the graph (see the module docs).
pub(super) fn check_landmarks(
    settings: &BuildSettings,
    g: &ClusterGraph,
    l: &Landmarks,
    nodes: usize,
) -> Result<(), LoadError> {
    let k = l.count as usize;
    if l.count > settings.landmarks
        || l.nodes.len() != k
        || l.dist.len() != nodes * k
        || (nodes == 0 && k != 0)
    {
        return Err(invalid("landmark tables have the wrong shape"));
    }
    super::validate::check_below(&l.nodes, nodes, "landmarks")?;
    // No sum of a distance and a path cost may overflow: a distance is at
    // most one dearest edge per node.
    let max_edge = (settings.cluster_size as u64).pow(2) * max_step(&settings.movement);
    let max_dist = max_edge.saturating_mul(nodes as u64);
    for (i, n) in l.nodes.iter().enumerate() {
        if l.get(*n, i) != 0 {
            return Err(invalid(format!(
                "landmark {i} is not at distance 0 from itself"
            )));
        }
    }
    // The column's width and the landmark count matched once, not per
    // distance read: `K` lanes compared at a time, at the stored width.
    macro_rules! lanes {
        ($dist:expr, $($n:literal)*) => {
            match k {
                0 => Ok(()),
                $($n => check_distances::<$n, _>(g, max_dist, $dist),)*
                _ => Err(invalid("landmark tables have the wrong shape")),
            }
        };
    }
    match &l.dist {
        Column64::Narrow(v) => lanes!(v, 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
        Column64::Wide(v) => lanes!(v, 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
    }
}

/// A stored landmark distance, all ones when unreached (at 32 bits, the
/// stored form of [`UNREACHED`]); sums saturate there, above every reached
/// distance, so a rule computed at the stored width is the rule at 64 bits.
trait Distance: Copy + Sync + Ord {
    const NONE: Self;
    /// `x` at this width, [`Distance::NONE`] when it does not fit.
    fn narrowed(x: u64) -> Self;
    fn saturating_add(self, other: Self) -> Self;
}

impl Distance for u32 {
    const NONE: u32 = u32::MAX;
    fn narrowed(x: u64) -> u32 {
        x.min(u32::MAX as u64) as u32
    }
    fn saturating_add(self, other: u32) -> u32 {
        u32::saturating_add(self, other)
    }
}

impl Distance for u64 {
    const NONE: u64 = UNREACHED;
    fn narrowed(x: u64) -> u64 {
        x
    }
    fn saturating_add(self, other: u64) -> u64 {
        u64::saturating_add(self, other)
    }
}

/// Every landmark distance (`dist[v * K + i]`) at most `max_dist` and
/// consistent along every edge (`d(w) <= d(v) + cost` where `d(v)` is
/// reached). Each node's `K` distances are read once, then each edge's
/// target's compared with them all without a branch.
fn check_distances<const K: usize, T: Distance>(
    g: &ClusterGraph,
    max_dist: u64,
    dist: &[T],
) -> Result<(), LoadError> {
    let max_dist = T::narrowed(max_dist);
    dist.par_chunks_exact(K)
        .enumerate()
        .with_min_len(1024)
        .try_for_each(|(v, here)| {
            let here: [T; K] = here.try_into().expect("chunks of K");
            if here.iter().any(|d| *d != T::NONE && *d > max_dist) {
                return Err(invalid(format!(
                    "landmark distance of node {v} is too large"
                )));
            }
            for (w, cost, _) in g.out_edges(v as u32) {
                let there = &dist[w as usize * K..][..K];
                let cost = T::narrowed(cost);
                let mut broken = [false; K];
                for i in 0..K {
                    let bound = here[i].saturating_add(cost);
                    broken[i] = (here[i] != T::NONE) & ((there[i] == T::NONE) | (there[i] > bound));
                }
                if let Some(i) = broken.iter().position(|b| *b) {
                    return Err(invalid(format!(
                        "landmark {i}'s distances break the triangle inequality at node {v}"
                    )));
                }
            }
            Ok(())
        })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Runs found from the cells' bits are those found cell by cell,
        /// for rows of every length around the 8- and 64-cell words.
        #[test]
        fn runs_from_bits_are_the_cells_runs(
            row in proptest::collection::vec(prop_oneof![3 => Just(true), 1 => Just(false)], 0..200),
        ) {
            let (mut from_bits, mut by_cell) = (Vec::new(), Vec::new());
            push_open_runs(&row, &mut from_bits);
            push_runs(&row, |x| *x, &mut by_cell);
            prop_assert_eq!(from_bits, by_cell);
        }
    }

    #[test]
    fn open_bits_set_one_bit_per_open_cell() {
        for len in [0, 1, 7, 8, 9, 63, 64] {
            let cells: Vec<bool> = (0..len).map(|i| i % 3 != 1).collect();
            let bits = open_bits(&cells);
            for (i, open) in cells.iter().enumerate() {
                assert_eq!(bits >> i & 1 == 1, *open, "cell {i} of {len}");
            }
            assert_eq!(
                bits.count_ones() as usize,
                cells.iter().filter(|x| **x).count()
            );
        }
    }
}
