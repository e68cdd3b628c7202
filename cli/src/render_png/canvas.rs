//! The picture's canvas (RGB pixels with clipping and simple shapes) and
//! the palette of `tierpath render`.

use image::RgbImage;

pub(super) type Rgb = [u8; 3];

pub(super) const BLOCKED: Rgb = [38, 40, 48];
pub(super) const MAIN_ISLAND: Rgb = [238, 236, 228];
pub(super) const BORDER: Rgb = [70, 80, 130];
pub(super) const TRANSITION: Rgb = [35, 45, 95];
pub(super) const ABSTRACT_EXPANDED: Rgb = [170, 60, 230];
pub(super) const FLAT_EXPANDED: Rgb = [255, 150, 40];
pub(super) const HPA_EXPANDED: Rgb = [40, 190, 235];
pub(super) const FLAT_PATH: Rgb = [228, 52, 28];
pub(super) const HPA_PATH: Rgb = [0, 160, 70];
pub(super) const ROUTE: Rgb = [120, 0, 150];
pub(super) const START: Rgb = [30, 210, 60];
pub(super) const GOAL: Rgb = [230, 20, 20];
pub(super) const INK: Rgb = [20, 20, 24];
pub(super) const PAPER: Rgb = [250, 250, 247];

/// Shade factor of dead-end cells, and of their hatch lines.
pub(super) const DEAD_END_SHADE: f32 = 0.80;
pub(super) const HATCH_SHADE: f32 = 0.60;
pub(super) const FLAT_EXPANDED_ALPHA: f32 = 0.42;
pub(super) const HPA_EXPANDED_ALPHA: f32 = 0.55;
pub(super) const BORDER_ALPHA: f32 = 0.50;

/// The picture: an RGB canvas with clipping.
pub(super) struct Canvas {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) px: Vec<Rgb>,
}

impl Canvas {
    pub(super) fn new(width: u32, height: u32, fill: Rgb) -> Canvas {
        Canvas {
            width,
            height,
            px: vec![fill; width as usize * height as usize],
        }
    }

    pub(super) fn index(&self, x: i64, y: i64) -> Option<usize> {
        (x >= 0 && y >= 0 && x < self.width as i64 && y < self.height as i64)
            .then(|| y as usize * self.width as usize + x as usize)
    }

    pub(super) fn set(&mut self, x: i64, y: i64, c: Rgb) {
        if let Some(i) = self.index(x, y) {
            self.px[i] = c;
        }
    }

    pub(super) fn blend(&mut self, x: i64, y: i64, c: Rgb, alpha: f32) {
        if let Some(i) = self.index(x, y) {
            self.px[i] = mix(self.px[i], c, alpha);
        }
    }

    pub(super) fn fill_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.set(xx, yy, c);
            }
        }
    }

    pub(super) fn blend_rect(&mut self, x: i64, y: i64, w: i64, h: i64, c: Rgb, alpha: f32) {
        for yy in y..y + h {
            for xx in x..x + w {
                self.blend(xx, yy, c, alpha);
            }
        }
    }

    /// A filled disc of radius `r` around `(cx, cy)`.
    pub(super) fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgb) {
        let (x0, x1) = ((cx - r).floor() as i64, (cx + r).ceil() as i64);
        let (y0, y1) = ((cy - r).floor() as i64, (cy + r).ceil() as i64);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                if dx * dx + dy * dy <= r * r {
                    self.set(x, y, c);
                }
            }
        }
    }

    /// A line of half-width `r` from `a` to `b`; with `dash = Some((on, off,
    /// offset))`, only the "on" stretches of a dash pattern that starts
    /// `offset` pixels before `a`.
    pub(super) fn line(
        &mut self,
        a: (f32, f32),
        b: (f32, f32),
        r: f32,
        c: Rgb,
        dash: Option<(f32, f32, f32)>,
    ) {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len2 = dx * dx + dy * dy;
        let len = len2.sqrt();
        let (x0, x1) = (
            (a.0.min(b.0) - r).floor() as i64,
            (a.0.max(b.0) + r).ceil() as i64,
        );
        let (y0, y1) = (
            (a.1.min(b.1) - r).floor() as i64,
            (a.1.max(b.1) + r).ceil() as i64,
        );
        for y in y0.max(0)..=y1.min(self.height as i64 - 1) {
            for x in x0.max(0)..=x1.min(self.width as i64 - 1) {
                let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
                let t = if len2 > 0.0 {
                    (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0)
                } else {
                    0.0
                };
                let (qx, qy) = (a.0 + t * dx - px, a.1 + t * dy - py);
                if qx * qx + qy * qy > r * r {
                    continue;
                }
                if let Some((on, off, offset)) = dash
                    && (offset + t * len) % (on + off) >= on
                {
                    continue;
                }
                self.set(x, y, c);
            }
        }
    }

    pub(super) fn into_image(self) -> RgbImage {
        let mut raw = Vec::with_capacity(self.px.len() * 3);
        for p in &self.px {
            raw.extend_from_slice(p);
        }
        RgbImage::from_raw(self.width, self.height, raw).expect("buffer matches the size")
    }
}

pub(super) fn mix(a: Rgb, b: Rgb, alpha: f32) -> Rgb {
    let m = |x: u8, y: u8| (x as f32 * (1.0 - alpha) + y as f32 * alpha).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

pub(super) fn shade(c: Rgb, f: f32) -> Rgb {
    [
        (c[0] as f32 * f) as u8,
        (c[1] as f32 * f) as u8,
        (c[2] as f32 * f) as u8,
    ]
}

/// A colour from hue (0..1), saturation and value.
pub(super) fn hsv(h: f32, s: f32, v: f32) -> Rgb {
    let h6 = (h.fract() * 6.0).max(0.0);
    let i = h6.floor() as u32 % 6;
    let f = h6 - h6.floor();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match i {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    [
        (r * 255.0).round() as u8,
        (g * 255.0).round() as u8,
        (b * 255.0).round() as u8,
    ]
}

/// The tint of the `rank`-th largest island (rank 0, the largest: neutral).
pub(super) fn island_tint(rank: usize) -> Rgb {
    if rank == 0 {
        MAIN_ISLAND
    } else {
        // Golden-ratio hue steps keep neighbouring ranks far apart.
        hsv(0.11 + rank as f32 * 0.618_034, 0.38, 0.93)
    }
}
