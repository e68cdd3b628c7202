//! The map styles: rooms, caves, mazes, and the mixed demo map.

use super::MapParams;
use super::canvas::{Canvas, Rect, SplitMix64, UnionFind};

/// Lays out rooms of side `room` inside `area`: one-cell walls between them,
/// a random spanning tree of doors, and each remaining wall given a door with
/// probability `extra_doors` percent. Every open cell of `area` ends up
/// connected.
pub(super) fn carve_rooms(
    canvas: &mut Canvas,
    area: Rect,
    room: u32,
    extra_doors: u32,
    rng: &mut SplitMix64,
) {
    let pitch = room + 1;
    let nx = area.w.div_ceil(pitch);
    let ny = area.h.div_ceil(pitch);
    // Room (i, j) spans columns area.x + i*pitch .. + room (clipped); its east
    // wall is column area.x + i*pitch + room, its south wall the same for rows.
    let span = |i: u32, len: u32| (i * pitch, (i * pitch + room).min(len));
    canvas.fill(area, true);
    for i in 0..nx {
        let wx = i * pitch + room;
        if wx < area.w {
            canvas.fill(Rect::new(area.x + wx, area.y, 1, area.h), false);
        }
    }
    for j in 0..ny {
        let wy = j * pitch + room;
        if wy < area.h {
            canvas.fill(Rect::new(area.x, area.y + wy, area.w, 1), false);
        }
    }
    // Walls between neighbouring rooms: (room a, room b, east wall?).
    let id = |i: u32, j: u32| (j * nx + i) as usize;
    let mut walls = Vec::new();
    for j in 0..ny {
        for i in 0..nx {
            if i + 1 < nx {
                walls.push((i, j, true));
            }
            if j + 1 < ny {
                walls.push((i, j, false));
            }
        }
    }
    rng.shuffle(&mut walls);
    let mut sets = UnionFind::new((nx * ny) as usize);
    for (i, j, east) in walls {
        let (a, b) = if east {
            (id(i, j), id(i + 1, j))
        } else {
            (id(i, j), id(i, j + 1))
        };
        let tree = sets.union(a, b);
        if !tree && !rng.percent(extra_doors) {
            continue;
        }
        // A door of width 1 (or 2 in rooms of 16 and more) somewhere along the
        // wall segment shared by the two rooms.
        let (lo, hi) = if east {
            span(j, area.h)
        } else {
            span(i, area.w)
        };
        let len = hi - lo;
        let width = rng.between(1, (room / 8).clamp(1, 2)).min(len);
        let at = lo + rng.below(len - width + 1);
        for k in at..at + width {
            if east {
                canvas.set(area.x + i * pitch + room, area.y + k, true);
            } else {
                canvas.set(area.x + k, area.y + j * pitch + room, true);
            }
        }
    }
}

// ----- caves -----

/// Cellular-automaton caves (the RogueBasin 4-5 rule): noise, then `steps`
/// rounds where a cell becomes wall when 5 or more of the 9 cells of its 3x3
/// block (itself included) are walls; in the first rounds, also when at most 2
/// of the 25 cells within two steps are, which seeds pillars in big open areas.
pub(super) fn caves(canvas: &mut Canvas, fill_percent: u32, steps: u32, rng: &mut SplitMix64) {
    let fill = fill_percent.min(100);
    for cell in canvas.open.iter_mut() {
        *cell = !rng.percent(fill);
    }
    let mut next = canvas.open.clone();
    for step in 0..steps {
        let pillars = step < steps.saturating_sub(2).min(3);
        for y in 0..canvas.h {
            for x in 0..canvas.w {
                let wall = canvas.blocked_around(x, y, 1) >= 5
                    || (pillars && canvas.blocked_around(x, y, 2) <= 2);
                next[canvas.idx(x, y)] = !wall;
            }
        }
        std::mem::swap(&mut canvas.open, &mut next);
    }
}

// ----- maze -----

/// A perfect maze on cells of `corridor x corridor` with one-cell walls, grown
/// by a growing tree that takes the newest cell half the time (long corridors)
/// and a random one otherwise (many short dead ends).
pub(super) fn maze(canvas: &mut Canvas, corridor: u32, rng: &mut SplitMix64) {
    let pitch = corridor + 1;
    let cells = |len: u32| {
        if len >= corridor {
            (len - corridor) / pitch + 1
        } else {
            1
        }
    };
    let (nx, ny) = (cells(canvas.w), cells(canvas.h));
    canvas.open.fill(false);
    let carve_cell = |canvas: &mut Canvas, i: u32, j: u32| {
        canvas.fill(Rect::new(i * pitch, j * pitch, corridor, corridor), true);
    };
    let mut visited = vec![false; (nx * ny) as usize];
    let mut active = Vec::new();
    let (si, sj) = (rng.below(nx), rng.below(ny));
    visited[(sj * nx + si) as usize] = true;
    carve_cell(canvas, si, sj);
    active.push((si, sj));
    while !active.is_empty() {
        let k = if rng.percent(50) {
            active.len() - 1
        } else {
            rng.below(active.len() as u32) as usize
        };
        let (i, j) = active[k];
        let mut options = [(0u32, 0u32); 4];
        let mut n = 0;
        for (di, dj) in [(1i64, 0i64), (-1, 0), (0, 1), (0, -1)] {
            let (ni, nj) = (i as i64 + di, j as i64 + dj);
            if ni >= 0
                && nj >= 0
                && ni < nx as i64
                && nj < ny as i64
                && !visited[(nj as u32 * nx + ni as u32) as usize]
            {
                options[n] = (ni as u32, nj as u32);
                n += 1;
            }
        }
        if n == 0 {
            active.swap_remove(k);
            continue;
        }
        let (ni, nj) = options[rng.below(n as u32) as usize];
        visited[(nj * nx + ni) as usize] = true;
        carve_cell(canvas, ni, nj);
        // Open the wall between the two cells.
        let (x0, y0) = (i.min(ni) * pitch, j.min(nj) * pitch);
        if ni != i {
            canvas.fill(Rect::new(x0 + corridor, y0, 1, corridor), true);
        } else {
            canvas.fill(Rect::new(x0, y0 + corridor, corridor, 1), true);
        }
        active.push((ni, nj));
    }
}

// ----- rooms and caves -----

/// Caves, then walled buildings of rooms placed on them, each with a street
/// around it and two to four outside doors.
pub(super) fn mixed(canvas: &mut Canvas, params: &MapParams, rng: &mut SplitMix64) {
    caves(
        canvas,
        params.cave_fill_percent,
        params.smoothing_steps,
        rng,
    );
    let (w, h) = (canvas.w, canvas.h);
    if w < 16 || h < 16 {
        return;
    }
    let target = w as u64 * h as u64 * 30 / 100;
    let mut covered = 0u64;
    let mut buildings: Vec<Rect> = Vec::new();
    for _ in 0..200 {
        if covered >= target {
            break;
        }
        let bw = rng.between((w / 6).max(9), (w / 3).max(9)).min(w - 4);
        let bh = rng.between((h / 6).max(9), (h / 3).max(9)).min(h - 4);
        let b = Rect::new(
            rng.between(2, w - bw - 2),
            rng.between(2, h - bh - 2),
            bw,
            bh,
        );
        if buildings.iter().any(|o| o.near(&b, 6)) {
            continue;
        }
        building(canvas, b, rng);
        covered += bw as u64 * bh as u64;
        buildings.push(b);
    }
}

/// One building: a street two cells wide around it, an outer wall, rooms
/// inside, and doors through the outer wall.
pub(super) fn building(canvas: &mut Canvas, b: Rect, rng: &mut SplitMix64) {
    canvas.fill(
        Rect::new(
            b.x.saturating_sub(2),
            b.y.saturating_sub(2),
            b.w + 4,
            b.h + 4,
        ),
        true,
    );
    canvas.fill(b, false);
    let inside = Rect::new(b.x + 1, b.y + 1, b.w - 2, b.h - 2);
    let room = rng.between(5, 12);
    carve_rooms(canvas, inside, room, 30, rng);
    // Doors: each side with probability 60%, at least two sides.
    let mut sides = [0u32, 1, 2, 3];
    rng.shuffle(&mut sides);
    let mut doors = 0;
    for side in sides {
        if doors >= 2 && !rng.percent(60) {
            continue;
        }
        // Candidate spots on the outer wall whose inner neighbour is open.
        let spots: Vec<(u32, u32)> = match side {
            0 => (inside.x..inside.x + inside.w)
                .filter(|&x| canvas.get(x, inside.y))
                .map(|x| (x, b.y))
                .collect(),
            1 => (inside.x..inside.x + inside.w)
                .filter(|&x| canvas.get(x, inside.y + inside.h - 1))
                .map(|x| (x, b.y + b.h - 1))
                .collect(),
            2 => (inside.y..inside.y + inside.h)
                .filter(|&y| canvas.get(inside.x, y))
                .map(|y| (b.x, y))
                .collect(),
            _ => (inside.y..inside.y + inside.h)
                .filter(|&y| canvas.get(inside.x + inside.w - 1, y))
                .map(|y| (b.x + b.w - 1, y))
                .collect(),
        };
        if spots.is_empty() {
            continue;
        }
        let (x, y) = spots[rng.below(spots.len() as u32) as usize];
        canvas.set(x, y, true);
        doors += 1;
    }
}
