//! An oracle for the dead-end stage, independent of its assembly: the
//! module's definitions checked by brute-force reachability, one removed
//! cell at a time.

use super::DeadEnds;
use crate::engine::{Plain, Space};
use crate::grid::{Grid, Movement, Node};

/// The cells reachable from `from` without entering `removed`, by
/// padded node (`from != removed`).
fn reach(grid: &Grid, movement: &Movement, from: Node, removed: Option<Node>) -> Vec<bool> {
    let space = Plain::new(grid, movement);
    let mut seen = vec![false; grid.padded_len()];
    let mut stack = vec![from];
    seen[from.index()] = true;
    while let Some(n) = stack.pop() {
        space.for_each_neighbor(n, |m, _, _, _| {
            if Some(m) != removed && !seen[m.index()] {
                seen[m.index()] = true;
                stack.push(m);
            }
        });
    }
    seen
}

/// Checks `d` against the definitions, on a small map:
///
/// * islands are the connected components;
/// * an articulation cell is one whose removal splits its island;
/// * the core (the cells in no dead end) is biconnected: removing any one
///   cell leaves the rest of the core connected;
/// * a cell is in a dead end exactly when removing some other cell cuts
///   it off from the core (it lies in that cell's region `D(a)`).
///
/// Which block is the core (the largest) is not checked: pruning is safe
/// from any root.
///
/// Returns the first disagreement.
pub(super) fn check(grid: &Grid, movement: &Movement, d: &DeadEnds) -> Result<(), String> {
    let movement = &Grid::topology_movement(movement);
    let cells: Vec<Node> = grid.passable_points().map(|p| grid.node(p)).collect();
    let cell = |n: Node| grid.cell_index(grid.point(n)).index();
    // Islands: the connected components, one search each.
    let mut island = vec![u32::MAX; grid.padded_len()];
    let mut members: Vec<Vec<Node>> = Vec::new();
    for &c in &cells {
        if island[c.index()] == u32::MAX {
            let seen = reach(grid, movement, c, None);
            let id = members.len() as u32;
            let these: Vec<Node> = cells.iter().copied().filter(|o| seen[o.index()]).collect();
            for o in &these {
                island[o.index()] = id;
            }
            members.push(these);
        }
    }
    for &c in &cells {
        for &o in &members[island[c.index()] as usize] {
            if d.island_of(cell(o)) != d.island_of(cell(c)) {
                return Err(format!(
                    "{} and {} are connected but in different islands",
                    grid.point(c),
                    grid.point(o)
                ));
            }
        }
    }
    let islands: std::collections::BTreeSet<_> =
        cells.iter().map(|c| d.island_of(cell(*c))).collect();
    if islands.len() != members.len() {
        return Err(format!(
            "{} connected components, {} islands",
            members.len(),
            islands.len()
        ));
    }
    // Remove each cell `x` in turn and search its island from a core cell.
    let mut articulation = 0u64;
    let mut cut_off = vec![false; grid.padded_len()];
    for &x in &cells {
        let these = &members[island[x.index()] as usize];
        let Some(&from) = these.iter().find(|o| **o != x && !d.in_dead_end(cell(**o))) else {
            if these.iter().all(|o| d.in_dead_end(cell(*o))) {
                return Err(format!("the island of {} has no core", grid.point(x)));
            }
            continue; // the core is `x` alone
        };
        let rest = reach(grid, movement, from, Some(x));
        let mut split = false;
        for &o in these.iter().filter(|o| **o != x && !rest[o.index()]) {
            split = true;
            if !d.in_dead_end(cell(o)) {
                return Err(format!(
                    "removing {} splits the core at {}",
                    grid.point(x),
                    grid.point(o)
                ));
            }
            cut_off[o.index()] = true;
        }
        articulation += u64::from(split);
    }
    let mut dead = 0u64;
    for &c in &cells {
        if cut_off[c.index()] != d.in_dead_end(cell(c)) {
            return Err(format!(
                "{}: cut off from the core by one cell: {}, in a dead end: {}",
                grid.point(c),
                cut_off[c.index()],
                d.in_dead_end(cell(c))
            ));
        }
        dead += u64::from(cut_off[c.index()]);
    }
    if articulation != d.articulation_cells {
        return Err(format!(
            "{articulation} articulation cells, reported {}",
            d.articulation_cells
        ));
    }
    if dead != d.dead_end_cells {
        return Err(format!(
            "{dead} dead-end cells, reported {}",
            d.dead_end_cells
        ));
    }
    Ok(())
}
