//! The key below the map: swatches, labels and the figures, drawn with a
//! small built-in 5x7 pixel font.

use super::canvas::*;

/// A legend entry: a swatch and its label.
#[derive(Clone, Copy)]
pub(super) enum Swatch {
    Fill(Rgb),
    Islands,
    DeadEnd,
    Border,
    Marker(Rgb, bool),
    Tint(Rgb, f32),
    Line(Rgb, f32, bool),
    Dot(Rgb),
}

pub(super) fn legend_entries(with_query: bool) -> Vec<(Swatch, &'static str)> {
    let mut v = vec![
        (Swatch::Fill(BLOCKED), "blocked"),
        (Swatch::Fill(MAIN_ISLAND), "largest island"),
        (Swatch::Islands, "other islands"),
        (Swatch::DeadEnd, "dead end"),
        (Swatch::Border, "cluster border"),
        (Swatch::Marker(TRANSITION, false), "transition"),
    ];
    if with_query {
        v.extend([
            (
                Swatch::Tint(FLAT_EXPANDED, FLAT_EXPANDED_ALPHA),
                "A* expanded",
            ),
            (
                Swatch::Tint(HPA_EXPANDED, HPA_EXPANDED_ALPHA),
                "hpa expanded",
            ),
            (Swatch::Marker(ABSTRACT_EXPANDED, true), "abstract expanded"),
            (Swatch::Line(FLAT_PATH, 0.5, false), "A* path"),
            (Swatch::Line(HPA_PATH, 0.25, false), "hpa path"),
            (Swatch::Line(ROUTE, 0.15, true), "abstract route"),
            (Swatch::Dot(START), "start"),
            (Swatch::Dot(GOAL), "goal"),
        ]);
    }
    v
}

/// Font pixel size of the key for a picture `width` pixels wide.
pub(super) fn font_px(width: u32) -> i64 {
    (width as i64 / 640).clamp(2, 4)
}

/// Lays out the key: positions of entries (x, row) and the number of rows.
pub(super) fn legend_layout(width: u32, with_query: bool) -> (Vec<(i64, i64)>, i64) {
    let k = font_px(width);
    let mut x = 4 * k;
    let mut row = 0;
    let mut pos = Vec::new();
    for (_, label) in legend_entries(with_query) {
        let w = 12 * k + 3 * k + text_width(label, k) + 8 * k;
        if x + w > width as i64 && x > 4 * k {
            x = 4 * k;
            row += 1;
        }
        pos.push((x, row));
        x += w;
    }
    (pos, row + 1)
}

pub(super) fn legend_height(width: u32, title: &str, figures: &[String], with_query: bool) -> u32 {
    let k = font_px(width);
    let line = 11 * k;
    let (_, rows) = legend_layout(width, with_query);
    let text_lines = wrap(title, width, k).len()
        + figures
            .iter()
            .map(|f| wrap(f, width, k).len())
            .sum::<usize>();
    (4 * k + (text_lines as i64 + rows) * line + 2 * k) as u32
}

/// Splits text into lines no wider than `width` pixels at font size `k`.
pub(super) fn wrap(text: &str, width: u32, k: i64) -> Vec<String> {
    let per_line = ((width as i64 - 8 * k) / (6 * k)).max(8) as usize;
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split(' ') {
        if !cur.is_empty() && cur.len() + 1 + word.len() > per_line {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

pub(super) fn draw_legend(
    canvas: &mut Canvas,
    top: u32,
    title: &str,
    figures: &[String],
    with_query: bool,
) {
    let width = canvas.width;
    let k = font_px(width);
    let line = 11 * k;
    let top = top as i64;
    canvas.fill_rect(0, top, width as i64, k, INK);
    let mut y = top + 3 * k;
    for text in std::iter::once(title.to_string()).chain(figures.iter().cloned()) {
        for l in wrap(&text, width, k) {
            draw_text(canvas, 4 * k, y + 2 * k, &l, k, INK);
            y += line;
        }
    }
    let (pos, _) = legend_layout(width, with_query);
    for ((swatch, label), (x, row)) in legend_entries(with_query).into_iter().zip(pos) {
        let sy = y + row * line + k;
        draw_swatch(canvas, x, sy, 12 * k, 9 * k, swatch);
        draw_text(canvas, x + 15 * k, sy + k, label, k, INK);
    }
}

pub(super) fn draw_swatch(canvas: &mut Canvas, x: i64, y: i64, w: i64, h: i64, swatch: Swatch) {
    let (cx, cy) = (x as f32 + w as f32 / 2.0, y as f32 + h as f32 / 2.0);
    let unit = (h as f32 / 4.0).max(1.0);
    match swatch {
        Swatch::Fill(c) => canvas.fill_rect(x, y, w, h, c),
        Swatch::Islands => {
            for i in 0..3 {
                canvas.fill_rect(x + i * w / 3, y, w / 3 + 1, h, island_tint(i as usize + 1));
            }
        }
        Swatch::DeadEnd => {
            for yy in y..y + h {
                for xx in x..x + w {
                    let f = if (xx + yy) % 4 == 0 {
                        HATCH_SHADE
                    } else {
                        DEAD_END_SHADE
                    };
                    canvas.set(xx, yy, shade(MAIN_ISLAND, f));
                }
            }
        }
        Swatch::Border => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let (mx, my) = (x + w / 2, y + h / 2);
            for yy in y..y + h {
                canvas.blend(mx, yy, BORDER, 0.8);
            }
            for xx in x..x + w {
                canvas.blend(xx, my, BORDER, 0.8);
            }
        }
        Swatch::Marker(c, big) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let side = if big {
                (unit * 2.4) as i64
            } else {
                (unit * 1.4) as i64
            }
            .max(2);
            canvas.fill_rect(
                (cx - side as f32 / 2.0) as i64,
                (cy - side as f32 / 2.0) as i64,
                side,
                side,
                c,
            );
        }
        Swatch::Tint(c, a) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            canvas.blend_rect(x, y, w, h, c, a);
        }
        Swatch::Line(c, frac, dashed) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            let r = (h as f32 * frac).max(1.0);
            let dash = dashed.then_some((unit * 1.6, unit * 1.0, 0.0));
            canvas.line((x as f32 + r, cy), ((x + w) as f32 - r, cy), r, c, dash);
        }
        Swatch::Dot(c) => {
            canvas.fill_rect(x, y, w, h, MAIN_ISLAND);
            canvas.disc(cx, cy, h as f32 / 2.0, INK);
            canvas.disc(cx, cy, h as f32 / 2.0 - 1.5, c);
        }
    }
}

/// Width in pixels of `text` at font size `k` (6 columns per character).
pub(super) fn text_width(text: &str, k: i64) -> i64 {
    text.chars().count() as i64 * 6 * k
}

/// Draws `text` (upper-cased) with the 5x7 font, each font pixel `k` x `k`.
pub(super) fn draw_text(canvas: &mut Canvas, x: i64, y: i64, text: &str, k: i64, c: Rgb) {
    for (i, ch) in text.chars().enumerate() {
        let Some(rows) = glyph(ch.to_ascii_uppercase()) else {
            continue;
        };
        let gx = x + i as i64 * 6 * k;
        for (r, bits) in rows.iter().enumerate() {
            for (col, b) in bits.bytes().enumerate() {
                if b == b'#' {
                    canvas.fill_rect(gx + col as i64 * k, y + r as i64 * k, k, k, c);
                }
            }
        }
    }
}

/// A 5x7 bitmap font for the key: capitals, digits and some punctuation.
pub(super) fn glyph(c: char) -> Option<[&'static str; 7]> {
    FONT.iter().find(|(k, _)| *k == c).map(|(_, rows)| *rows)
}

#[rustfmt::skip]
pub(super) const FONT: &[(char, [&str; 7])] = &[
    ('A', [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('B', ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."]),
    ('C', [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."]),
    ('D', ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."]),
    ('E', ["#####", "#....", "#....", "####.", "#....", "#....", "#####"]),
    ('F', ["#####", "#....", "#....", "####.", "#....", "#....", "#...."]),
    ('G', [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"]),
    ('H', ["#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"]),
    ('I', [".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."]),
    ('J', ["..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."]),
    ('K', ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"]),
    ('L', ["#....", "#....", "#....", "#....", "#....", "#....", "#####"]),
    ('M', ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"]),
    ('N', ["#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"]),
    ('O', [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('P', ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."]),
    ('Q', [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"]),
    ('R', ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"]),
    ('S', [".####", "#....", "#....", ".###.", "....#", "....#", "####."]),
    ('T', ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."]),
    ('U', ["#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."]),
    ('V', ["#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."]),
    ('W', ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."]),
    ('X', ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"]),
    ('Y', ["#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."]),
    ('Z', ["#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"]),
    ('0', [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."]),
    ('1', ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."]),
    ('2', [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"]),
    ('3', ["#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."]),
    ('4', ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."]),
    ('5', ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."]),
    ('6', ["..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."]),
    ('7', ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."]),
    ('8', [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."]),
    ('9', [".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."]),
    ('.', [".....", ".....", ".....", ".....", ".....", ".##..", ".##.."]),
    (',', [".....", ".....", ".....", ".....", ".##..", "..#..", ".#..."]),
    (':', [".....", ".##..", ".##..", ".....", ".##..", ".##..", "....."]),
    ('-', [".....", ".....", ".....", "#####", ".....", ".....", "....."]),
    ('+', [".....", "..#..", "..#..", "#####", "..#..", "..#..", "....."]),
    ('*', [".....", "..#..", "#.#.#", ".###.", "#.#.#", "..#..", "....."]),
    ('/', [".....", "....#", "...#.", "..#..", ".#...", "#....", "....."]),
    ('(', ["...#.", "..#..", ".#...", ".#...", ".#...", "..#..", "...#."]),
    (')', [".#...", "..#..", "...#.", "...#.", "...#.", "..#..", ".#..."]),
    ('%', ["##...", "##..#", "...#.", "..#..", ".#...", "#..##", "...##"]),
    ('=', [".....", ".....", "#####", ".....", "#####", ".....", "....."]),
    ('>', [".#...", "..#..", "...#.", "....#", "...#.", "..#..", ".#..."]),
    ('_', [".....", ".....", ".....", ".....", ".....", ".....", "#####"]),
];
