//! Level of detail, as plain geometry (no window needed): rectangles about a pixel wide are
//! merged per pixel column and colour into as few one-pixel rectangles as cover them, so
//! thousands of overlapping slivers become a handful and nothing visible is lost (rerun merges
//! narrow lanes the same way); and a series narrower than a pixel per value shows, per pixel
//! column, the largest value it covers, so no peak is ever hidden.

/// A screen rectangle `[x0, x1) × [y0, y1)` in pixels (y down) with a colour index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PixelRect {
    pub x0: f32,
    pub x1: f32,
    pub y0: f32,
    pub y1: f32,
    pub color: u8,
}

/// Collects thin rectangles per pixel column, then merges them.
pub struct ThinColumns {
    left: f32,
    thin_width: f32,
    /// Per column: (colour index, top, bottom).
    columns: Vec<Vec<(u8, f32, f32)>>,
}

impl ThinColumns {
    /// For a frame from `left` to `right` px; rectangles narrower than `thin_width` px merge.
    pub fn new(left: f32, right: f32, thin_width: f32) -> Self {
        ThinColumns {
            left: left.floor() - 2.0,
            thin_width,
            columns: vec![Vec::new(); (right - left).max(0.0) as usize + 6],
        }
    }

    /// Keeps `r` for merging when it is thin and on screen; false when it is drawn as it is.
    pub fn take(&mut self, r: PixelRect) -> bool {
        if r.x1 - r.x0 > self.thin_width {
            return false;
        }
        let col = (r.x0.floor() - self.left) as isize;
        match usize::try_from(col)
            .ok()
            .and_then(|c| self.columns.get_mut(c))
        {
            Some(v) => {
                v.push((r.color, r.y0, r.y1));
                true
            }
            None => false,
        }
    }

    /// The merged one-pixel rectangles: per column and colour, extents that touch (within a
    /// pixel) become one. Leaves the collector empty for the next use.
    pub fn drain(&mut self) -> Vec<PixelRect> {
        let mut out = Vec::new();
        for (c, items) in self.columns.iter_mut().enumerate() {
            if items.is_empty() {
                continue;
            }
            let x = self.left + c as f32;
            items.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            let mut run = items[0];
            let mut emit = |run: (u8, f32, f32)| {
                out.push(PixelRect {
                    x0: x,
                    x1: x + 1.0,
                    y0: run.1,
                    y1: run.2,
                    color: run.0,
                })
            };
            for &it in &items[1..] {
                if it.0 == run.0 && it.1 <= run.2 + 1.0 {
                    run.2 = run.2.max(it.2);
                } else {
                    emit(run);
                    run = it;
                }
            }
            emit(run);
            items.clear();
        }
        out
    }
}

/// Per pixel column, the largest of the values whose step starts in it: `(x, max)` pairs for
/// the steps `lo..hi`, `x_of(step)` giving a step's left edge in px.
pub fn column_maxima(
    values: &[u64],
    lo: usize,
    hi: usize,
    x_of: impl Fn(usize) -> f32,
) -> Vec<(f32, u64)> {
    let mut out = Vec::new();
    let mut s = lo;
    let hi = hi.min(values.len());
    while s < hi {
        let x = x_of(s).floor();
        let mut max = 0u64;
        while s < hi && x_of(s).floor() == x {
            max = max.max(values[s]);
            s += 1;
        }
        out.push((x, max));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x0: f32, x1: f32, y0: f32, y1: f32, color: u8) -> PixelRect {
        PixelRect {
            x0,
            x1,
            y0,
            y1,
            color,
        }
    }

    #[test]
    fn thin_slivers_merge_per_column_and_colour() {
        let mut t = ThinColumns::new(0.0, 100.0, 1.5);
        assert!(
            !t.take(r(10.0, 20.0, 0.0, 5.0, 0)),
            "wide rectangles are drawn as they are"
        );
        // Three slivers in column 10: two of colour 1 that touch, one of colour 2.
        assert!(t.take(r(10.2, 10.7, 0.0, 4.0, 1)));
        assert!(t.take(r(10.4, 10.9, 4.5, 9.0, 1)));
        assert!(t.take(r(10.1, 10.3, 2.0, 3.0, 2)));
        // One far apart in the same column and colour stays separate.
        assert!(t.take(r(10.0, 10.5, 20.0, 21.0, 1)));
        let mut got = t.drain();
        got.sort_by_key(|a| (a.color, a.y0 as i32));
        assert_eq!(
            got,
            vec![
                r(10.0, 11.0, 0.0, 9.0, 1),
                r(10.0, 11.0, 20.0, 21.0, 1),
                r(10.0, 11.0, 2.0, 3.0, 2)
            ]
        );
        assert!(t.drain().is_empty(), "drained");
    }

    #[test]
    fn column_maxima_keep_every_peak() {
        // Four steps a pixel: 10 steps over 2.5 px.
        let v = [1, 9, 2, 3, 4, 4, 8, 1, 0, 7];
        let got = column_maxima(&v, 0, 10, |s| s as f32 / 4.0);
        assert_eq!(got, vec![(0.0, 9), (1.0, 8), (2.0, 7)]);
    }
}
