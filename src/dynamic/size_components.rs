//! The components of every unit size after a local change, without the
//! global recomputation when the change cannot merge, split, create or
//! remove a component (the rule the islands' local repair follows, size by
//! size).
//!
//! Let `R` be the cells whose capped clearance changed and `W` the bounding
//! box of `R` grown by one cell, so every neighbour of `R` lies in `W`. For
//! each size `k`, label the cells of `W` where the unit fits by their
//! connected components inside `W`, once on the old levels and once on the
//! new. Any path of the size that passes through `R` enters and leaves it
//! through cells of `W` outside `R` (whose levels did not change), and the
//! part between lies in `W`. So when, for every size, the cells of `W`
//! outside `R` are grouped alike by the old and the new labels, and every
//! cell of `R` that fits (before or after) shares a label with one of them,
//! the components of the whole map are the same sets outside `R`, none
//! appears or vanishes, and the forest between sizes is unchanged: only
//! the cells of `R` take the component of a neighbour they now connect to.
//! Otherwise the components are computed again over the map.

use crate::grid::{CornerRule, Grid, Movement, Point};
use crate::preprocess::sizes::{NO_COMPONENT, UnitSizes};

/// The largest window (in cells, times the number of sizes) repaired
/// locally; a larger change costs about as much as the global pass.
const MAX_WINDOW_WORK: usize = 1 << 16;

/// Tries the local repair of the components after the cells of `changed`
/// (each with its old capped clearance; `sizes.clearance` holds the new)
/// changed level. Returns whether it applied; on `false` nothing changed.
pub(crate) fn repair_components_locally(
    grid: &Grid,
    movement: &Movement,
    sizes: &mut UnitSizes,
    changed: &[(Point, u8)],
) -> bool {
    let Some(first) = changed.first() else {
        return true;
    };
    let (mut x0, mut y0, mut x1, mut y1) = (first.0.x, first.0.y, first.0.x, first.0.y);
    for (p, _) in changed {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    let (x0, y0) = (x0.saturating_sub(1), y0.saturating_sub(1));
    let (x1, y1) = (
        (x1 + 1).min(grid.width() - 1),
        (y1 + 1).min(grid.height() - 1),
    );
    let (w, h) = ((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
    if w * h * sizes.max as usize > MAX_WINDOW_WORK {
        return false;
    }
    let max = sizes.max;
    let at = |i: usize| Point::new(x0 + (i % w) as u32, y0 + (i / w) as u32);
    let new_lv: Vec<u8> = (0..w * h).map(|i| sizes.level(grid, at(i))).collect();
    let mut old_lv = new_lv.clone();
    let mut in_r = vec![false; w * h];
    for (p, old) in changed {
        let i = (p.y - y0) as usize * w + (p.x - x0) as usize;
        old_lv[i] = *old;
        in_r[i] = true;
    }
    let diagonal = movement.diagonals() && movement.corners == CornerRule::Always;
    let (mut lo, mut ln, mut stack) = (Vec::new(), Vec::new(), Vec::new());
    // Per cell of R that fits after the change: a cell outside R it
    // connects to at its new top level.
    let mut joins = vec![usize::MAX; w * h];
    for k in 1..=max {
        let n_old = label(&old_lv, (w, h), k, diagonal, &mut lo, &mut stack);
        let n_new = label(&new_lv, (w, h), k, diagonal, &mut ln, &mut stack);
        // The cells outside R must be grouped alike by both labellings.
        let mut old_to_new = vec![u32::MAX; n_old];
        let mut new_to_old = vec![u32::MAX; n_new];
        let mut rep_new = vec![usize::MAX; n_new];
        for i in (0..w * h).filter(|i| !in_r[*i] && new_lv[*i] >= k) {
            let (a, b) = (lo[i], ln[i]);
            let (to_new, to_old) = (old_to_new[a as usize], new_to_old[b as usize]);
            if (to_new != u32::MAX && to_new != b) || (to_old != u32::MAX && to_old != a) {
                return false; // components merge or split
            }
            old_to_new[a as usize] = b;
            new_to_old[b as usize] = a;
            rep_new[b as usize] = i;
        }
        for i in (0..w * h).filter(|i| in_r[*i]) {
            if old_lv[i] >= k && old_to_new[lo[i] as usize] == u32::MAX {
                return false; // a component of the size vanishes
            }
            if new_lv[i] >= k {
                let u = rep_new[ln[i] as usize];
                if u == usize::MAX {
                    return false; // a component of the size appears
                }
                if new_lv[i] == k {
                    joins[i] = u;
                }
            }
        }
    }
    let cell = |p: Point| grid.cell_index(p).index();
    for (p, old) in changed {
        let i = (p.y - y0) as usize * w + (p.x - x0) as usize;
        let comp = match new_lv[i] {
            0 => NO_COMPONENT,
            l => {
                let u = joins[i];
                sizes.components.component(cell(at(u)), new_lv[u], l)
            }
        };
        sizes.components.set_cell(cell(*p), comp, *old, new_lv[i]);
    }
    true
}

/// Labels the cells of level `>= k` of a `w x h` window by their
/// components inside it (straight neighbours, and diagonal ones with
/// `diagonal`) into `out` (`u32::MAX` where the size does not fit); returns
/// the number of labels.
fn label(
    lv: &[u8],
    (w, h): (usize, usize),
    k: u8,
    diagonal: bool,
    out: &mut Vec<u32>,
    stack: &mut Vec<usize>,
) -> usize {
    out.clear();
    out.resize(w * h, u32::MAX);
    let mut count = 0u32;
    for s in 0..w * h {
        if lv[s] < k || out[s] != u32::MAX {
            continue;
        }
        out[s] = count;
        stack.push(s);
        while let Some(c) = stack.pop() {
            let (x, y) = ((c % w) as i64, (c / w) as i64);
            for (dx, dy) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                if dx != 0 && dy != 0 && !diagonal {
                    continue;
                }
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i64 || ny >= h as i64 {
                    continue;
                }
                let n = ny as usize * w + nx as usize;
                if lv[n] >= k && out[n] == u32::MAX {
                    out[n] = count;
                    stack.push(n);
                }
            }
        }
        count += 1;
    }
    count as usize
}
