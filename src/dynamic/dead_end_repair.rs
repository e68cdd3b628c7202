//! Keeping islands and dead ends exact while cells open and close, in time
//! bounded by a window around the edit, not by the map.
//!
//! The block forest of stage 2 is global: one opened cell can join two
//! islands, one closed cell can cut a block in two far from where it stands.
//! But what an edit can change is decided by how the window around it
//! connects to the rest of the map, and that is read off the window alone:
//!
//! # The window rule
//!
//! Let `S` be the cells an edit opens or closes, `R` a box of cells holding
//! `S` at least two cells from its sides (sides on the map's edge aside), so
//! that every move whose legality `S` decides joins cells of `R`. Let `G`
//! and `G'` be the graphs of passable cells and legal moves before and after
//! the edit, `H = G[R]` and `H' = G'[R]` their parts in the window, and the
//! *ring* `Γ` the passable cells of `R` with a legal move to a cell outside
//! `R` (the same before and after: such moves do not depend on `S`). Write
//! `X` for the graph of the cells outside `R` and of `Γ`, with the moves
//! between them: `G = X ∪ H` and `G' = X ∪ H'`, overlapping in `Γ` (and the
//! moves among ring cells). If
//!
//! * `Γ` is empty, or
//! * `Γ` has at least two cells, every ring cell is a cut cell of `H` exactly
//!   when it is one of `H'`, and either (*inside*) `H` and `H'` each have a
//!   block holding all of `Γ` (`K` and `K'`), or (*outside*) `X` has a block
//!   holding all of `Γ`, and then `K` and `K'` are the blocks holding `Γ` of
//!   `H` and `H'` with a cycle of virtual moves through the ring cells added,
//!
//! then, with `B` the block of `G` that holds `K` (real moves of `K`):
//!
//! 1. the blocks of `G'` are those of `G` that lie outside `R` or meet it in
//!    `Γ` only, with `B` replaced by `B' = (B \ K) ∪ K'`, and the blocks of
//!    `H'` other than `K'`; every block of `G` other than `B` that meets
//!    `R \ Γ` is a block of `H` other than `K`, and lies in `R` but for a
//!    ring cell it may hang from;
//! 2. a cell of `R \ Γ` is an articulation cell of `G'` exactly when it is a
//!    cut cell of `H'` (of `G`: of `H`), and the ring cells keep theirs;
//! 3. the island holding `Γ` keeps every cell outside `R`, and the other
//!    islands meeting `R` are the components of `H'` (of `H`) without ring
//!    cells, which lie in `R`.
//!
//! **Proof.** Blocks are the classes of moves under "lie on a common cycle".
//! Gluing a biconnected graph `Y` onto a graph `Z` along a set `T` of at
//! least two cells merges exactly the blocks on `Z`'s block-cut forest paths
//! between cells of `T` into one block with `Y`, and leaves every other block
//! of `Z` as it was (a cycle through moves of `Y` leaves `Y` at one cell of
//! `T` and comes back at another, so it visits every block on the forest's
//! path between them; conversely each such block closes a cycle with `Y`).
//! *Inside*: glue `K` (biconnected, holding `Γ`) onto `X`: the blocks of `G`
//! are the blocks of `X` off the paths between ring cells, the blocks of `H`
//! other than `K`, and one block `B`, `K` with the blocks of `X` on those
//! paths. The same holds for `G'` with `K'` and the same `X`, so
//! `B' = (B \ K) ∪ K'`. *Outside*: glue the block of `X` holding `Γ` onto
//! `H`: it acts on `H` as any biconnected graph through `Γ` does, such as the
//! virtual cycle, so the blocks of `G` are those of `X` but that one, the
//! blocks of `H` plus the cycle but `K`, and `B`, that block of `X` with `K`;
//! again the same for `G'`. In both cases a block of `H` other than `K`
//! meets `Γ` in at most one cell, a cut cell of `H` it hangs from. A cell of
//! `R \ Γ` has all its moves in `R`, so its blocks in `G` are its blocks in
//! `H` (with `B` for `K`), which gives (2); a ring cell is in `B` and in the
//! blocks of `X` and of `H` that hang from it, so its status changes only if
//! its being a cut cell of the window does, which the rule excludes. For
//! (3), a component of `H` without ring cells has no move out of `R`. ∎
//!
//! The outside's condition is checked on a band of cells around `R` (the
//! cells of `R` off the ring taken as closed): a subgraph of `X`, so a block
//! of it holding `Γ` lies in a block of `X`, however thick the band. The
//! edit does not change it. Around the smallest windows, thicker bands are
//! tried when the first fails ([`THICK_BANDS`]: a room's other doors).
//!
//! # Narrowed to the edit's components
//!
//! Nothing above asks `R` to be a box: only that every move whose legality
//! `S` decides joins cells of `R`, and that the ring is read off `R`. When
//! the passable cells of the box fall into several components of `H_box`
//! (before) or `H'_box` (after), `R` is narrowed to `C`: the components,
//! before and after, that hold a cell of `S` or a neighbour of one, and
//! every component of either that meets one of those, until none is left
//! to add ([`narrow_to_edit`]). Then `C` is a union of components of
//! `H_box` and also of `H'_box`, so no move of `G` or `G'` joins a cell of
//! `C` to another cell of the box; the moves `S` decides join cells within
//! one step of `S`, which are in `C` when passable (before or after); and
//! the ring of `C` is its cells with a move out of the box, the same before
//! and after. The rule applies to `R = C` as stated, and the rest of the
//! box, now outside `R`, keeps its blocks and anchors. This is what lets a
//! window beside a wall repair when the wall's other side joins the edit's
//! only far away (a maze's parallel corridors, the next room): that side's
//! ring cells are no longer asked to share a block with the edit's.
//!
//! So the forest changes only inside the window: the blocks of `H` other
//! than `K` (those of `B`'s island hang below `B` through cut cells of the
//! window, the others are whole islands) are replaced by those of `H'`,
//! `B` keeps its name with a new size, and the anchors of the cells of
//! `R \ Γ` are read off `H'`; the ring cells keep theirs. The island's tree
//! stays rooted where it was as long as its core stays the same block: the
//! repair checks that the core is not in `R` (other than `B`: every old
//! anchor in `R` must be `B` or below it) and is strictly the largest block
//! after the edit (on a tie the build takes the first largest in its search
//! order, which the window does not know); the islands wholly inside the
//! window are searched as the build searches them, so their cores are the
//! build's.
//!
//! # Peeled off the window
//!
//! Nor need `R` hold every cell two steps or more from the edit. Where a
//! side of the box runs past a notch or a diagonal wall, a ring cell hangs
//! from the rest by one move on both sides of the ring; where it crosses
//! scattered obstacles, whole pockets of ring cells hang from the window's
//! main block through one cell; and the box may hold ring cells of another
//! component beyond a wall. Then no block holds the ring, inside or
//! outside. Such pieces are taken out of `R` when they lie two steps or
//! more from every edited cell ([`peel_hanging`]): a cell taken out is a
//! cell of the outside like any other, the cell a piece hung from becomes
//! a ring cell, and the conditions are checked again for the new `R`. The
//! pieces hang off the block holding most ring cells or, when one of those
//! lies beside the edit, off the largest block beside it: on maps of rooms
//! the ring may lie mostly in other rooms, and `R` then shrinks to the
//! edit's rooms, whose doors join the ring ([`hanging_pieces`]).
//!
//! # Growing
//! A window that does not meet the conditions is grown (2, 6, 14, 30, 62,
//! ... cells around the edit) up to a size
//! bound ([`largest_window`]: a sixteenth of the map, at most 65,536
//! cells), as long as the windows searched so far stay within half the
//! map's cells ([`window_budget`]); [`boxes`] gives the order and why. A
//! compact edit whose cells fall into a few pieces apart (a block over a
//! wall) is handed to the rule piece by piece, each an edit of its own:
//! one window for all would hold every piece's side, whose rings may join
//! only far away. The edits that still fail (an island split whose both
//! halves are large, a core that changes, the budget spent, a ring that
//! hangs apart at every size tried) run stages 1 and 2 again over the map,
//! which equals a rebuild by construction. The last was common on maps of
//! rooms joined by doors (pieces of the edit's component reach the ring in
//! two rooms joined by a door in the window, and the rooms' other doors lie
//! outside even the thicker bands) until pieces hanging off the ring were
//! peeled off the window: on rooms/8room_000, 512x512, no one-cell edit of
//! 200 recomputes now (36 before) and 2 of 200 6x6 ones (160; see
//! [`boxes`]; 8 until the pieces could hang off the edit's own block).
//! On the shipped map most 6x6 edits that still recompute fail before the
//! edit: no block holds the ring, the piece hanging off the ring's main
//! block holds cells beside the edit, and no band finds the rooms' other
//! doors.
//! Mazes with corridors wider than a cell repair locally once narrowed; in
//! mazes of one-cell corridors every edit cuts or joins an island's halves,
//! both large, and is recomputed.
//!
//! # Cost
//! Two searches of the window (before and after, each twice when the box
//! holds more than one component and is narrowed; once or twice more when
//! pieces are peeled off; a band around it and two
//! more when the outside is needed), a pass over its cells for
//! the anchors, and, when blocks or islands came or went, one pass over the
//! forest's blocks to number them again (`forest`), never over the map's
//! cells. An edit no window repairs costs the windows tried (at most half
//! the map's cells, [`window_budget`]) and the recompute.

use super::forest::Forest;
use super::window::WindowBlocks;
use crate::grid::{Grid, Movement, Point};
use crate::preprocess::{DeadEnds, NO_NODE, join_sets, set_root};

/// Margins tried around an edit, smallest first.
pub(crate) const MARGINS: [u32; 7] = [2, 6, 14, 30, 62, 126, 254];
/// The boxes a repair tries around an edit, in order, as margins (left,
/// top, right, bottom): the squares of [`MARGINS`].
///
/// Until 2026-11-29 each square up to a margin of 14 was also tried with
/// one side pushed out by one cell and by two, before the larger squares:
/// a side that runs past a notch or a diagonal wall leaves a ring cell
/// hanging by one move, which a side one cell further out does not. Ring
/// cells that hang are now taken out of the window instead
/// ([`peel_hanging`]), which repairs those edits in the square itself, and
/// without the 24 pushed boxes the budget ([`window_budget`]) reaches the
/// larger squares. Measured (an untracked probe, 100 places per map whose
/// block's top-left cell is passable, the block's passable cells closed
/// then opened: 200 repairs; how many recomputed the map, 1x1 / 6x6;
/// 2026-11-29):
///
/// | map | pushed boxes, no peeling | peeling and pushed boxes | **peeling, squares** |
/// |---|---|---|---|
/// | rooms/8room_000 | 36 / 160 | 0 / 80 | **0 / 8** |
/// | rooms/16room_000 | 16 / 44 | 0 / 24 | **0 / 12** |
/// | rooms/32room_000 | 6 / 24 | 4 / 16 | **2 / 14** |
/// | random/random512-25-0 | 88 / 195 | 0 / 0 | **0 / 0** |
/// | shipped 256x256 rooms | 24 / 86 | 10 / 66 | **6 / 53** |
/// | dao/orz100d | 0 / 4 | 0 / 4 | **0 / 0** |
/// | dao/den520d | 0 / 4 | 0 / 4 | 0 / 4 |
///
/// (sc1/TheFrozenSea and mazes/maze512-8-0: none recomputed either way.)
/// Dropping the [`THICK_BANDS`] too was measured and not kept: 9 more of
/// the shipped map's 6x6 edits recomputed, 2 of orz100d's and 1 of
/// 8room_000's.
pub(crate) fn boxes() -> impl Iterator<Item = [u32; 4]> {
    MARGINS.into_iter().map(|m| [m; 4])
}

/// The largest window searched, in cells, on any map.
pub(crate) const MAX_WINDOW: u64 = 1 << 16;
/// Windows of at most this many cells are searched on any map, however
/// small.
pub(crate) const SMALL_WINDOW: u64 = 1 << 12;

/// The largest window searched on a `width` x `height` map, in cells: a
/// sixteenth of the map, between [`SMALL_WINDOW`] and [`MAX_WINDOW`] (so on
/// a 1024x1024 map, [`MAX_WINDOW`]).
///
/// Past that a window costs more than the recompute it may save. A window
/// costs about what the recompute costs per cell, twice over when the
/// outside's band is searched too, and the windows that failed before it
/// about a third of it again; and where every smaller window failed, the
/// larger ones mostly fail too. Measured (untracked probe, cells or 6x6
/// blocks closed and opened anywhere on passable ground, a quarter of the
/// map against a sixteenth, before windows were narrowed to the edit's
/// components; medians and p95 in ms, the count of repairs that fell back
/// to the recompute unchanged unless said):
///
/// | map | edit | a quarter | a sixteenth |
/// |---|---|---|---|
/// | shipped 256x256 rooms (`data/default.map`) | 6x6 | 4.09 / 6.68 | 3.40 / 3.78 |
/// | rooms/8room_000 (512x512) | 1x1 | 10.7 / 12.7 | 8.31 / 9.83 |
/// | rooms/16room_000 | 1x1 | p95 15.0 | p95 11.4 |
/// | sc1 Aftershock (512x512) | 1x1 | max 9.0 (a 256x256 window that held) | max 7.4 (2 of 200 recomputed) |
///
/// Dragon Age maps (den520d, ost003d, brc202d) were alike either way.
/// (Before, windows grew up to [`MAX_WINDOW`] on every map, the whole map
/// at last: on the shipped map a 6x6 block took 12-19 ms, the recompute
/// 3.1-3.5 ms of it, against 4.5-5.9 ms with a quarter.)
pub(crate) fn largest_window(width: u32, height: u32) -> u64 {
    (width as u64 * height as u64 / 16).clamp(SMALL_WINDOW, MAX_WINDOW)
}

impl WindowRepair {
    /// The cells of the windows and bands searched since the last call.
    pub(crate) fn take_searched(&mut self) -> u64 {
        self.old.take_searched() + self.new.take_searched() + self.band.take_searched()
    }
}

/// The cells of windows (and their bands) one repair may search before it
/// gives up and recomputes the map: half the map's cells, at least
/// [`SMALL_WINDOW`].
///
/// A window's search costs about what the recompute costs per cell (see
/// [`largest_window`]), so an edit no window repairs costs at most about
/// one and a half recomputes, where it used to try every box up to
/// [`largest_window`], several bands each: on the shipped map
/// (`data/default.map`, 65,536 cells) the 6x6 edits that recomputed had
/// searched about 151,000 cells of windows first (2.3 times the map), and
/// two thirds of their time went to windows. Measured (untracked probe,
/// 100 places per map on passable ground, each closed then opened: 200
/// repairs; how many recomputed the map, their median, and the p95 of all
/// repairs, in ms), without a budget, with half the map, with a quarter:
///
/// | map | edit | none | **a half** | a quarter |
/// |---|---|---|---|---|
/// | shipped 256x256 | 1x1 | 24, 3.69 / 3.72 | 26, 2.43 / 2.45 | 28, 2.20 / 2.30 |
/// | shipped 256x256 | 6x6 | 80, 4.08 / 4.41 | 88, 2.42 / 2.54 | 94, 2.08 / 2.20 |
/// | rooms/8room_000 | 1x1 | 30, 8.30 / 8.50 | 30, 7.02 / 7.08 | 30, 6.20 / 6.21 |
/// | rooms/8room_000 | 6x6 | 172, 7.80 / 8.82 | 172, 7.18 / 7.34 | 188, 6.26 / 6.72 |
/// | rooms/16room_000 | 6x6 | 34, 7.21 / 7.79 | 34, 6.36 / 6.42 | 36, 5.32 / 5.37 |
/// | rooms/32room_000 | 6x6 | 8, 7.27 / 0.25 | 8, 6.06 / 0.22 | 8, 5.13 / 0.23 |
/// | mazes/maze512-1-0 | 1x1 | 200, 15.5 / 18.4 | 200, 15.0 / 17.0 | 200, 14.1 / 16.4 |
///
/// A quarter turns more edits that a window would have repaired into
/// recomputes (8room_000's 6x6, and 2 of 200 on sc1/Aftershock); with a
/// half, maze512-8-0, Aftershock, den520d and TheFrozenSea (one cell and
/// 6x6) repaired every edit locally, as without a budget, at the same
/// medians and p95s. What remains of a recompute on the 512x512 maps is
/// the recompute itself (stages 1 and 2 over the map).
pub(crate) fn window_budget(width: u32, height: u32) -> u64 {
    (width as u64 * height as u64 / 2).max(SMALL_WINDOW)
}

/// What one window gave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Repaired: the cells flipped, the forest exact; `renumbered` when
    /// preorder ids or the anchors of cells other than the edited ones
    /// changed.
    Repaired { renumbered: bool },
    /// The conditions do not hold here; a larger window may do (grid
    /// unchanged).
    Grow,
    /// No window will do (grid unchanged).
    Global,
}

/// Scratch of the window rule, held between repairs.
#[derive(Debug, Default)]
pub(crate) struct WindowRepair {
    /// The cells of windows and bands the last repair searched.
    pub(crate) spent: u64,
    old: WindowBlocks,
    new: WindowBlocks,
    band: WindowBlocks,
    keep: Vec<Point>,
    band_ring: Vec<u32>,
    ring: Vec<u32>,
    on_ring: Vec<bool>,
    /// Ring cells taken out of `R` (see [`peel_hanging`]).
    pub(crate) peeled: Vec<Point>,
    /// Per block of the window: how many ring cells it holds, then the
    /// branch it lies in (see [`peel_hanging`]).
    branch: Vec<u32>,
    /// Per branch, then per component: whether it holds a ring cell.
    marked: Vec<bool>,
    /// Per padded cell of the window: whether it is in `R` (see
    /// [`narrow_to_edit`]); empty when `R` is the whole box.
    pub(crate) only: Vec<bool>,
    /// Union-find over the components of the window before and after.
    comp_root: Vec<u32>,
    /// Per component root: whether it meets the edit.
    comp_seeded: Vec<bool>,
    /// Per name: the stamp of the repair that removes it.
    removed: Vec<u32>,
    removed_names: Vec<u32>,
    removed_islands: Vec<u32>,
    stamp: u32,
    names: Vec<u32>,
}

/// The block holding every ring cell, when there is one (found through a
/// ring cell that is no cut cell): `Some(None)` for an empty ring, `None`
/// when the ring does not qualify.
fn ring_block(wb: &WindowBlocks, ring: &[u32]) -> Option<Option<u32>> {
    if ring.is_empty() {
        return Some(None);
    }
    if ring.len() < 2 {
        return None;
    }
    // (A cell alone, in no block, holds no other ring cell with it.)
    let k = ring
        .iter()
        .find(|r| !wb.cut[**r as usize])
        .map(|r| wb.block_of[*r as usize])
        .filter(|k| *k != NO_NODE)?;
    // A cut cell lies in the block it was popped into and in those it tops.
    ring.iter()
        .all(|r| {
            wb.block_of[*r as usize] == k || wb.cut[*r as usize] && wb.block_top[k as usize] == *r
        })
        .then_some(Some(k))
}

/// Thicker bands tried for the outside's condition around the smallest
/// windows (margins up to [`THICK_BANDS_UP_TO`]) when the first band, half
/// the margin thick (at least 4), does not hold the ring in one block.
///
/// Made for rooms: a window around a door holds pieces of two rooms, joined
/// inside by the door alone, and outside through the rooms' other doors,
/// which a band of 4 cells misses and one of 16 or 32 finds. Measured
/// (untracked probe under callgrind, 40 places per map each closed and then
/// opened; instructions of the 80 repairs, and how many recomputed the
/// map), without / with:
///
/// | map | edit | without | with |
/// |---|---|---|---|
/// | rooms/8room_000 | 1x1 | 3.94 G, 38 | **2.07 G, 14** |
/// | rooms/8room_000 | 6x6 | 6.69 G, 68 | 7.52 G, 64 |
/// | rooms/16room_000 | 1x1 | 1.25 G, 12 | **0.55 G, 4** |
/// | rooms/16room_000 | 6x6 | 3.25 G, 34 | **2.21 G, 16** |
/// | sc1 TheFrozenSea | 1x1 | 234 M, 0 | 246 M, 0 |
/// | sc1 TheFrozenSea | 6x6 | 288 M, 0 | 295 M, 0 |
///
/// Tried at every window size they cost more than they saved (8room_000,
/// 6x6: 10.2 G); at margins up to 14, 2.37 G and 8.37 G on 8room_000.
pub(crate) const THICK_BANDS: [u32; 2] = [16, 32];
/// See [`THICK_BANDS`].
pub(crate) const THICK_BANDS_UP_TO: u32 = 6;

/// Whether the cells outside the window join its ring in one block: the
/// ring cells lie in one block of the map's cells in a band around the
/// window (the window's cells off the ring closed; a band of half the
/// margin, then, around the smallest windows, the [`THICK_BANDS`]), and are
/// no cut cells of it. A subgraph of the outside, so its blocks lie in the
/// outside's. Reads only cells the edit does not change.
fn outside_joins_ring(
    grid: &Grid,
    movement: &Movement,
    window: [u32; 4],
    margin: u32,
    s: &mut WindowRepair,
) -> bool {
    if s.ring.len() < 2 {
        return false;
    }
    let base = (margin / 2).max(4);
    let thicker = THICK_BANDS
        .into_iter()
        .filter(|t| *t > base && margin <= THICK_BANDS_UP_TO);
    let [x0, y0, x1, y1] = window;
    // The ring, and the cells peeled off the window, which are outside
    // `R` (see [`peel_hanging`]).
    s.keep.clear();
    s.keep.extend(s.ring.iter().map(|r| s.old.point(*r)));
    s.keep.extend_from_slice(&s.peeled);
    for t in std::iter::once(base).chain(thicker) {
        let band = [
            x0.saturating_sub(t),
            y0.saturating_sub(t),
            (x1 + t).min(grid.width() - 1),
            (y1 + t).min(grid.height() - 1),
        ];
        let area = (band[2] - band[0] + 1) as u64 * (band[3] - band[1] + 1) as u64;
        if area > 2 * MAX_WINDOW {
            return false;
        }
        s.band
            .compute(grid, movement, band, &[], Some((window, &s.keep)), &[]);
        s.band_ring.clear();
        s.band_ring
            .extend(s.keep[..s.ring.len()].iter().map(|p| s.band.local(*p)));
        if ring_block(&s.band, &s.band_ring).is_some() {
            return true;
        }
    }
    false
}

/// Flips the passability of `cells` (on the map): the edit, or its undoing.
fn flip(grid: &mut Grid, cells: &[Point]) {
    for p in cells {
        let open = !grid.is_passable(*p);
        grid.set_passable(*p, open).expect("cells are on the map");
    }
}

/// Narrows `R` from the window's box to `C`, the components of the box
/// before and after the edit that hold an edited cell or a neighbour of one
/// (closed under "meets"; see the module docs), when that leaves any
/// passable cell of the box out: fills `s.only` and returns true. Else
/// leaves `s.only` empty (`R` is the box) and returns false. `s.old` holds
/// the box before the edit; the grid is left as it was.
fn narrow_to_edit(
    grid: &mut Grid,
    movement: &Movement,
    window: [u32; 4],
    cells: &[Point],
    s: &mut WindowRepair,
) -> bool {
    s.only.clear();
    // One component before: the box is kept (narrowing pays where the box
    // falls apart, and the rule holds for the box as for any `R`).
    if s.old.comp_size.len() <= 1 {
        return false;
    }
    flip(grid, cells);
    s.new.compute(grid, movement, window, &[], None, &[]);
    flip(grid, cells);
    let before = s.old.comp_size.len() as u32;
    let comps = before as usize + s.new.comp_size.len();
    s.comp_root.clear();
    s.comp_root.extend(0..comps as u32);
    let len = s.old.comp_of.len();
    for i in 0..len {
        let (a, b) = (s.old.comp_of[i], s.new.comp_of[i]);
        if a != NO_NODE && b != NO_NODE {
            join_sets(&mut s.comp_root, a, before + b);
        }
    }
    s.comp_seeded.clear();
    s.comp_seeded.resize(comps, false);
    let [x0, y0, x1, y1] = window;
    for p in cells {
        for y in p.y.saturating_sub(1).max(y0)..=(p.y + 1).min(y1) {
            for x in p.x.saturating_sub(1).max(x0)..=(p.x + 1).min(x1) {
                let i = s.old.local(Point::new(x, y)) as usize;
                for c in [
                    s.old.comp_of[i],
                    s.new.comp_of[i].checked_add(before).unwrap_or(NO_NODE),
                ] {
                    if c != NO_NODE {
                        let r = set_root(&mut s.comp_root, c);
                        s.comp_seeded[r as usize] = true;
                    }
                }
            }
        }
    }
    let mut left_out = false;
    s.only.resize(len, false);
    for i in 0..len {
        let (a, b) = (s.old.comp_of[i], s.new.comp_of[i]);
        let c = if a != NO_NODE {
            a
        } else if b != NO_NODE {
            before + b
        } else {
            continue;
        };
        let r = set_root(&mut s.comp_root, c);
        s.only[i] = s.comp_seeded[r as usize];
        left_out |= !s.only[i];
    }
    if !left_out {
        s.only.clear();
    }
    left_out
}

/// Finds the ring of `R` (the cells `s.old` holds open: the window's box,
/// narrowed to the edit's components, without the peeled cells): its cells
/// with a legal move to a cell outside `R`. Such a cell lies on the box's
/// side or beside a peeled cell (the narrowed-away cells have no move into
/// `R`), so only those are looked at.
fn find_ring(grid: &Grid, movement: &Movement, window: [u32; 4], s: &mut WindowRepair) {
    let [wx0, wy0, wx1, wy1] = window;
    s.ring.clear();
    s.on_ring.clear();
    s.on_ring
        .resize(((wx1 - wx0 + 3) * (wy1 - wy0 + 3)) as usize, false);
    let look = |p: Point, s: &mut WindowRepair| {
        if !s.old.holds(p) {
            return;
        }
        let node = grid.node(p);
        let out = (0..8).any(|dir| {
            grid.neighbor_in(node, dir, movement)
                .is_some_and(|(q, _)| !s.old.holds(grid.point(q)))
        });
        let i = s.old.local(p);
        if out && !s.on_ring[i as usize] {
            s.on_ring[i as usize] = true;
            s.ring.push(i);
        }
    };
    for x in wx0..=wx1 {
        look(Point::new(x, wy0), s);
        look(Point::new(x, wy1), s);
    }
    for y in wy0..=wy1 {
        look(Point::new(wx0, y), s);
        look(Point::new(wx1, y), s);
    }
    for k in 0..s.peeled.len() {
        let node = grid.node(s.peeled[k]);
        for dir in 0..8 {
            if let Some((q, _)) = grid.neighbor_in(node, dir, movement) {
                look(grid.point(q), s);
            }
        }
    }
}

/// Rounds of [`peel_hanging`] per window: one takes out every piece that
/// hangs off the block holding most ring cells; a second may follow when
/// the ring found again still misses a block.
const PEEL_ROUNDS: usize = 2;

/// Where the ring is not in one block of the window only because some of
/// its cells hang off the rest (a side that crosses a diagonal wall or a
/// notch leaves a ring cell joined to the rest by one move; scattered
/// obstacles leave pockets on the side), takes the pieces holding them out
/// of `R` and finds the ring again: the block holding every ring cell
/// then, if there is one (as [`ring_block`]).
///
/// The rule holds for any `R` holding every cell within one step of the
/// edit (`edit_box`, the edit's bounding box): a cell two steps or more
/// from every edited cell decides no move the edit changes, so it may lie
/// outside `R` as well as in it. A cell taken out belongs to the outside
/// `X`, keeps its anchor, and makes ring cells of its neighbours in `R`
/// (see [`find_ring`]); the conditions are then checked again as for any
/// `R`. What is taken out is given by [`hanging_pieces`]: each piece hangs
/// from a cut cell of `K`, which becomes a ring cell. When no block holds
/// the ring after all, `R`, `s.old` and the ring are left as they were.
fn peel_hanging(
    grid: &Grid,
    movement: &Movement,
    window: [u32; 4],
    edit_box: [u32; 4],
    s: &mut WindowRepair,
) -> Option<Option<u32>> {
    let narrowed = !s.only.is_empty();
    for _ in 0..PEEL_ROUNDS {
        let before = s.peeled.len();
        if !hanging_pieces(
            &mut s.old,
            &s.ring,
            window,
            edit_box,
            &mut s.branch,
            &mut s.marked,
            &mut s.peeled,
        ) {
            break;
        }
        if s.only.is_empty() {
            s.only.resize(s.old.block_of.len(), true);
        }
        for p in &s.peeled[before..] {
            let i = s.old.local(*p) as usize;
            s.only[i] = false;
        }
        s.old.compute(grid, movement, window, &[], None, &s.only);
        find_ring(grid, movement, window, s);
        if let Some(k) = ring_block(&s.old, &s.ring) {
            return Some(k);
        }
    }
    // No luck: `R` as it was.
    if !s.peeled.is_empty() {
        for p in &s.peeled {
            let i = s.old.local(*p) as usize;
            s.only[i] = true;
        }
        s.peeled.clear();
        if !narrowed {
            s.only.clear();
        }
        s.old.compute(grid, movement, window, &[], None, &s.only);
        find_ring(grid, movement, window, s);
    }
    None
}

/// The cells of the pieces of a window (its blocks `wb`, whose ring is
/// `ring`) that hold ring cells and hang off a block `K`: with the
/// window's block-cut tree rooted at `K`, every branch below `K` that holds
/// a ring cell (all but the cut cell it hangs from, which is in `K`), and
/// every other component that holds one. `K` is the block holding most
/// non-cut ring cells or, when a piece hanging off that one lies within one
/// step of `edit_box`, the largest block holding a cell that does: on maps
/// of rooms, the edit's rooms, where most of the ring lies in other rooms
/// (what is left of `R` is then that block and the pieces off it without
/// ring cells; its ring, the block's own ring cells and the cells the
/// pieces hung from). Pushes the cells
/// onto `out` and returns true, unless there are none or one lies within
/// one step of `edit_box` for both (then `out` is left as it was).
/// `branch` and `marked` are scratch.
fn hanging_pieces(
    wb: &mut WindowBlocks,
    ring: &[u32],
    window: [u32; 4],
    edit_box: [u32; 4],
    branch: &mut Vec<u32>,
    marked: &mut Vec<bool>,
    out: &mut Vec<Point>,
) -> bool {
    let [ex0, ey0, ex1, ey1] = edit_box;
    // The block holding most non-cut ring cells.
    let nb = wb.block_top.len();
    branch.clear();
    branch.resize(nb, 0);
    for r in ring {
        let b = wb.block_of[*r as usize];
        if !wb.cut[*r as usize] && b != NO_NODE {
            branch[b as usize] += 1;
        }
    }
    let Some(most_ring) = (0..nb as u32).max_by_key(|b| branch[*b as usize]) else {
        return false;
    };
    if pieces_off(wb, ring, window, edit_box, most_ring, branch, marked, out) {
        return true;
    }
    // The largest block holding a cell within one step of the edit.
    let [wx0, wy0, wx1, wy1] = window;
    let mut edit_block = None;
    for y in ey0.saturating_sub(1).max(wy0)..=(ey1 + 1).min(wy1) {
        for x in ex0.saturating_sub(1).max(wx0)..=(ex1 + 1).min(wx1) {
            let i = wb.local(Point::new(x, y));
            let b = wb.block_of[i as usize];
            if wb.is_open(i) && !wb.cut[i as usize] && b != NO_NODE {
                let size = wb.block_size[b as usize];
                if edit_block.is_none_or(|(_, s)| size > s) {
                    edit_block = Some((b, size));
                }
            }
        }
    }
    match edit_block {
        Some((k, _)) if k != most_ring => {
            pieces_off(wb, ring, window, edit_box, k, branch, marked, out)
        }
        _ => false,
    }
}

/// [`hanging_pieces`] for one block `k`.
#[allow(clippy::too_many_arguments)]
fn pieces_off(
    wb: &mut WindowBlocks,
    ring: &[u32],
    window: [u32; 4],
    edit_box: [u32; 4],
    k: u32,
    branch: &mut [u32],
    marked: &mut Vec<bool>,
    out: &mut Vec<Point>,
) -> bool {
    let [ex0, ey0, ex1, ey1] = edit_box;
    let near_edit = |p: Point| p.x + 1 >= ex0 && p.x <= ex1 + 1 && p.y + 1 >= ey0 && p.y <= ey1 + 1;
    let nb = wb.block_top.len();
    let k_comp = wb.block_comp[k as usize];
    // Per block of K's component: the branch below K it lies in (the
    // block hanging from K at its top), K for K.
    wb.orient(&[k]);
    const UNSET: u32 = u32::MAX - 1;
    branch.fill(UNSET);
    branch[k as usize] = k;
    for b in 0..nb as u32 {
        if wb.block_comp[b as usize] != k_comp {
            branch[b as usize] = NO_NODE;
            continue;
        }
        let mut x = b;
        while branch[x as usize] == UNSET {
            let up = wb.block_parent[x as usize];
            if up == k {
                branch[x as usize] = x;
            } else if up == NO_NODE {
                // Not below K (never: the component's tree is connected).
                return false;
            } else {
                x = up;
            }
        }
        let top = branch[x as usize];
        let mut y = b;
        while branch[y as usize] == UNSET {
            branch[y as usize] = top;
            y = wb.block_parent[y as usize];
        }
    }
    // The piece a cell lies in, none for K: its branch below K (by the
    // block of the tree it belongs to, for a cut cell the one above it),
    // or `nb` + its component outside K's.
    let piece = |i: usize| {
        let b = if wb.cut[i] {
            wb.cut_parent[i]
        } else {
            wb.block_of[i]
        };
        match wb.comp_of[i] {
            _ if b == k => None,
            c if c == k_comp => Some(branch[b as usize] as usize),
            c => Some(nb + c as usize),
        }
    };
    // The pieces holding a ring cell.
    marked.clear();
    marked.resize(nb + wb.comp_size.len(), false);
    for r in ring {
        if let Some(m) = piece(*r as usize) {
            marked[m] = true;
        }
    }
    // Their cells, unless one is near the edit.
    let before = out.len();
    let [wx0, wy0, wx1, wy1] = window;
    for y in wy0..=wy1 {
        for x in wx0..=wx1 {
            let p = Point::new(x, y);
            let i = wb.local(p) as usize;
            if wb.is_open(i as u32) && piece(i).is_some_and(|m| marked[m]) {
                out.push(p);
            }
        }
    }
    if out.len() == before || out[before..].iter().any(|p| near_edit(*p)) {
        out.truncate(before);
        return false;
    }
    true
}

/// Flips the passability of `cells` (distinct) on `grid` and repairs `d` and
/// `forest` by the window rule with `margin` around them (see the module
/// docs); leaves everything unchanged unless it returns
/// [`Outcome::Repaired`]. `movement` is the topology's.
pub(crate) fn try_window(
    grid: &mut Grid,
    movement: &Movement,
    d: &mut DeadEnds,
    forest: &mut Forest,
    cells: &[Point],
    margins: [u32; 4],
    s: &mut WindowRepair,
) -> Outcome {
    let margin = margins.into_iter().max().unwrap_or(0);
    let Some(first) = cells.first() else {
        return Outcome::Repaired { renumbered: false };
    };
    let (mut x0, mut y0, mut x1, mut y1) = (first.x, first.y, first.x, first.y);
    for p in cells {
        (x0, y0, x1, y1) = (x0.min(p.x), y0.min(p.y), x1.max(p.x), y1.max(p.y));
    }
    let window = [
        x0.saturating_sub(margins[0]),
        y0.saturating_sub(margins[1]),
        (x1 + margins[2]).min(grid.width() - 1),
        (y1 + margins[3]).min(grid.height() - 1),
    ];
    let [wx0, wy0, wx1, wy1] = window;
    let width = grid.width() as usize;
    let index = |p: Point| p.y as usize * width + p.x as usize;

    // The window before the edit (narrowed to the edit's components), and
    // its ring.
    s.old.compute(grid, movement, window, &[], None, &[]);
    if narrow_to_edit(grid, movement, window, cells, s) {
        s.old.compute(grid, movement, window, &[], None, &s.only);
    }
    s.peeled.clear();
    find_ring(grid, movement, window, s);
    // The inside joins the ring in one block, or else the outside does
    // (then the window is searched with the ring closed in a cycle, which
    // stands for the outside's block).
    let mut virtual_ring = false;
    let edit_box = [x0, y0, x1, y1];
    let k_old = match ring_block(&s.old, &s.ring)
        .or_else(|| peel_hanging(grid, movement, window, edit_box, s))
    {
        Some(k) => k,
        None => {
            if !outside_joins_ring(grid, movement, window, margin, s) {
                return Outcome::Grow;
            }
            virtual_ring = true;
            s.old
                .compute(grid, movement, window, &s.ring, None, &s.only);
            match ring_block(&s.old, &s.ring) {
                Some(k) => k,
                None => return Outcome::Grow,
            }
        }
    };

    // B, the block of the map holding the window's ring block: of the
    // anchors of a ring cell and of a neighbour in the window (a move of
    // `K`), the later in preorder.
    let name_pre = |d: &DeadEnds, n: u32| {
        if d.block_pre.is_empty() {
            n
        } else {
            d.block_pre[n as usize]
        }
    };
    let b_name = match k_old {
        None => NO_NODE,
        Some(_) => {
            // A ring cell with a move inside the window, and no cut cell of
            // it: that move is in B.
            let found = s
                .ring
                .iter()
                .filter(|r| !s.old.cut[**r as usize])
                .find_map(|r| {
                    let g = s.old.point(*r);
                    let node = grid.node(g);
                    (0..8)
                        .filter_map(|dir| grid.neighbor_in(node, dir, movement))
                        .map(|(q, _)| grid.point(q))
                        .find(|q| s.old.holds(*q))
                        .map(|w| (g, w))
                });
            let Some((g, w)) = found else {
                return Outcome::Grow;
            };
            let (a, b) = (d.cell_anchor.get(index(g)), d.cell_anchor.get(index(w)));
            if name_pre(d, a) >= name_pre(d, b) {
                a
            } else {
                b
            }
        }
    };
    let ring_comp = s.ring.first().map(|r| s.old.comp_of[*r as usize]);

    // The old blocks of the window: all below B, or whole islands.
    s.stamp = s.stamp.wrapping_add(1);
    if s.stamp == 0 {
        s.removed.fill(0);
        s.stamp = 1;
    }
    s.removed.resize(forest.parent.len(), 0);
    s.removed_names.clear();
    s.removed_islands.clear();
    let mut old_dead = 0u64;
    let b_pre = if b_name == NO_NODE {
        NO_NODE
    } else {
        name_pre(d, b_name)
    };
    for y in wy0..=wy1 {
        for x in wx0..=wx1 {
            let p = Point::new(x, y);
            let i = s.old.local(p);
            if !s.old.is_open(i) || s.on_ring[i as usize] {
                continue;
            }
            let cell = index(p);
            let a = d.cell_anchor.get(cell);
            old_dead += d.in_dead_end(cell) as u64;
            if Some(s.old.comp_of[i as usize]) == ring_comp {
                if a == b_name {
                    continue;
                }
                if !d.contains(b_pre, name_pre(d, a)) {
                    return Outcome::Grow;
                }
            } else {
                let island = forest.island[a as usize];
                if forest.core[island as usize] != NO_NODE && !s.removed_islands.contains(&island) {
                    s.removed_islands.push(island);
                }
            }
            if s.removed[a as usize] != s.stamp {
                s.removed[a as usize] = s.stamp;
                s.removed_names.push(a);
            }
        }
    }

    // The window after the edit.
    flip(grid, cells);
    let undo = |grid: &mut Grid| flip(grid, cells);
    let cycle: &[u32] = if virtual_ring { &s.ring } else { &[] };
    s.new.compute(grid, movement, window, cycle, None, &s.only);
    let mut k_new = ring_block(&s.new, &s.ring);
    // The inside joined the ring before the edit but not after: the
    // outside may (with a cycle on the ring, the old window's blocks stay
    // as they are, the ring being in one of them).
    if k_new.is_none() && !virtual_ring && outside_joins_ring(grid, movement, window, margin, s) {
        s.new
            .compute(grid, movement, window, &s.ring, None, &s.only);
        k_new = ring_block(&s.new, &s.ring);
    }
    // A ring cell must stay a cut cell of the window, or not one: its
    // status in the map then stays too.
    let Some(k_new) = k_new.filter(|_| {
        s.ring
            .iter()
            .all(|r| s.old.cut[*r as usize] == s.new.cut[*r as usize])
    }) else {
        undo(grid);
        return Outcome::Grow;
    };

    // The core of B's island must stay the same block, strictly the largest.
    let new_ring_comp = s.ring.first().map(|r| s.new.comp_of[*r as usize]);
    let mut b_size = 0;
    if let (Some(ko), Some(kn)) = (k_old, k_new) {
        let island = forest.island[b_name as usize];
        let core = forest.core[island as usize];
        b_size = forest.size[b_name as usize] - s.old.block_size[ko as usize]
            + s.new.block_size[kn as usize];
        let comp = new_ring_comp.expect("a ring");
        let new_max = (0..s.new.block_top.len())
            .filter(|b| s.new.block_comp[*b] == comp && *b as u32 != kn)
            .map(|b| s.new.block_size[b])
            .max()
            .unwrap_or(0);
        let removed = &s.removed;
        let stamp = s.stamp;
        let others = forest
            .largest_other(island, core, |n| {
                removed[n as usize] == stamp || n == b_name
            })
            .max(new_max);
        let core_size = if core == b_name {
            b_size
        } else {
            forest.size[core as usize]
        };
        let others = if core == b_name {
            others
        } else {
            others.max(b_size)
        };
        if core_size <= others {
            undo(grid);
            return Outcome::Global;
        }
    }

    // Commit: old blocks and islands of the window go.
    let changed = !s.removed_names.is_empty() || s.new.block_top.len() > k_new.iter().count();
    for n in &s.removed_names {
        forest.release(*n);
    }
    for i in &s.removed_islands {
        forest.core[*i as usize] = NO_NODE;
        d.island_sizes[*i as usize] = 0;
    }
    // New names: K' is B; the other blocks of the ring's component hang
    // below it in B's island; every other component is a new island.
    let b_island = if b_name == NO_NODE {
        NO_NODE
    } else {
        forest.island[b_name as usize]
    };
    let comps = s.new.comp_size.len();
    let mut roots = Vec::with_capacity(comps);
    let mut comp_island = vec![NO_NODE; comps];
    for c in 0..comps as u32 {
        if Some(c) == new_ring_comp {
            roots.push(k_new.expect("a ring"));
            comp_island[c as usize] = b_island;
            d.island_sizes[b_island as usize] = d.island_sizes[b_island as usize]
                - s.old.comp_size[ring_comp.expect("a ring") as usize]
                + s.new.comp_size[c as usize];
        } else {
            roots.push(s.new.largest_block(c));
            comp_island[c as usize] = forest.core.len() as u32;
            forest.core.push(NO_NODE);
            d.island_sizes.push(s.new.comp_size[c as usize]);
        }
    }
    s.new.orient(&roots);
    s.names.clear();
    for b in 0..s.new.block_top.len() as u32 {
        let island = comp_island[s.new.block_comp[b as usize] as usize];
        let name = if Some(b) == k_new {
            forest.size[b_name as usize] = b_size;
            b_name
        } else {
            forest.alloc(NO_NODE, island, s.new.block_size[b as usize])
        };
        s.names.push(name);
    }
    for b in 0..s.new.block_top.len() {
        let above = s.new.block_parent[b];
        if Some(b as u32) == k_new {
            continue;
        }
        let name = s.names[b] as usize;
        if above == NO_NODE {
            forest.parent[name] = NO_NODE;
            forest.core[forest.island[name] as usize] = name as u32;
        } else {
            forest.parent[name] = s.names[above as usize];
        }
    }
    // Anchors of the cells off the ring.
    let mut new_dead = 0u64;
    let mut moved = false;
    for y in wy0..=wy1 {
        for x in wx0..=wx1 {
            let p = Point::new(x, y);
            let i = s.new.local(p) as usize;
            if s.on_ring[i] || !s.only.is_empty() && !s.only[i] {
                continue;
            }
            let cell = index(p);
            let now = if !s.new.is_open(i as u32) {
                NO_NODE
            } else if s.new.cut[i] {
                s.names[s.new.cut_parent[i] as usize]
            } else {
                s.names[s.new.block_of[i] as usize]
            };
            if now != NO_NODE {
                let island = forest.island[now as usize];
                new_dead += (forest.core[island as usize] != now) as u64;
            }
            if d.cell_anchor.get(cell) != now {
                d.cell_anchor.set(cell, now);
                moved |= s.old.is_open(i as u32) && s.new.is_open(i as u32);
            }
        }
    }
    d.dead_end_cells = d.dead_end_cells + new_dead - old_dead;
    d.articulation_cells = d.articulation_cells + s.new.cuts as u64 - s.old.cuts as u64;
    if changed || !s.removed_islands.is_empty() || comps > new_ring_comp.iter().count() {
        forest.publish(d);
        return Outcome::Repaired { renumbered: true };
    }
    Outcome::Repaired { renumbered: moved }
}
