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

/// The longest start of `text` that fits `width_px` as measured by `measure` (a string's
/// width in px: the painter's real glyphs, or the exporter's estimate), with "…" when cut;
/// `None` when fewer than `min_chars` characters would show. The guess from the full
/// text's width is checked and shortened until it fits, so a label of wide glyphs (capitals)
/// is cut further rather than dropped.
pub fn fit_label_measured(
    text: &str,
    width_px: f64,
    min_chars: usize,
    measure: impl Fn(&str) -> f64,
) -> Option<String> {
    let full = measure(text);
    if full <= width_px {
        return Some(text.to_string());
    }
    let n = text.chars().count();
    let mut k = ((n as f64 * width_px / full.max(1e-9)).floor() as usize).min(n);
    while k >= min_chars.max(2) {
        let cut: String = text.chars().take(k - 1).collect::<String>() + "…";
        if measure(&cut) <= width_px {
            return Some(cut);
        }
        k -= (k / 10).max(1);
    }
    None
}

/// A span `[top, bottom]` px (y down) made at least `min` px tall: grown about its centre,
/// then moved inside `[lo, hi]` (the arena's extent on screen, `lo` its top), so that a
/// one-byte buffer at the arena top shows under the top line and one at offset 0 above the
/// axis. Spans already tall enough are returned as they are.
pub fn min_span(top: f64, bottom: f64, min: f64, lo: f64, hi: f64) -> (f64, f64) {
    if bottom - top >= min {
        return (top, bottom);
    }
    let mid = (top + bottom) / 2.0;
    let (mut t, mut b) = (mid - min / 2.0, mid + min / 2.0);
    if hi - lo >= min {
        if t < lo {
            (t, b) = (lo, lo + min);
        } else if b > hi {
            (t, b) = (hi - min, hi);
        }
    }
    (t, b)
}

/// Where the marker of a run of peak steps goes on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct PeakMarker {
    /// Dashed vertical lines, px.
    pub lines: Vec<f64>,
    /// A bar along the top between the lines, px.
    pub bar: Option<(f64, f64)>,
    /// Where the label "peak" starts, px.
    pub label_x: f64,
}

/// The marker of a run of peak steps from the middles of its first and last step (`left`,
/// `right`, px): a dashed line at each with a bar between them along the top, or one line at
/// their middle when they are closer than `merge_px` (a single step, or a run zoomed out).
pub fn peak_marker(left: f64, right: f64, merge_px: f64) -> PeakMarker {
    if right - left < merge_px {
        let x = (left + right) / 2.0;
        PeakMarker {
            lines: vec![x],
            bar: None,
            label_x: x + 3.0,
        }
    } else {
        PeakMarker {
            lines: vec![left, right],
            bar: Some((left, right)),
            label_x: left + 3.0,
        }
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
    fn labels_of_wide_glyphs_are_cut_further_not_dropped() {
        // Capitals 8 px wide, the rest 5 px.
        let measure = |s: &str| {
            s.chars()
                .map(|c| if c.is_uppercase() { 8.0 } else { 5.0 })
                .sum::<f64>()
        };
        assert_eq!(
            fit_label_measured("abc", 20.0, 6, measure).as_deref(),
            Some("abc")
        );
        // 30 capitals (240 px) into 100 px: the proportional guess (12) is 11 capitals and
        // the ellipsis, 93 px: it fits.
        let caps = "A".repeat(30);
        let got = fit_label_measured(&caps, 100.0, 6, measure).unwrap();
        assert_eq!(got, "A".repeat(11) + "…");
        assert!(measure(&got) <= 100.0);
        // Capitals first, then small letters: the guess is too wide and is shortened.
        let mixed = "ABCDEFGHIJ".to_string() + &"x".repeat(40);
        let got = fit_label_measured(&mixed, 60.0, 6, measure).unwrap();
        assert!(measure(&got) <= 60.0, "{got}");
        assert_eq!(got, "ABCDEF…");
        // Room for fewer than six characters: no label.
        assert_eq!(fit_label_measured(&caps, 40.0, 6, measure), None);
    }

    #[test]
    fn a_peak_run_is_two_lines_and_a_bar_unless_they_would_touch() {
        assert_eq!(
            peak_marker(100.0, 160.0, 6.0),
            PeakMarker {
                lines: vec![100.0, 160.0],
                bar: Some((100.0, 160.0)),
                label_x: 103.0
            }
        );
        assert_eq!(
            peak_marker(100.0, 102.0, 6.0),
            PeakMarker {
                lines: vec![101.0],
                bar: None,
                label_x: 104.0
            }
        );
    }

    #[test]
    fn tiny_spans_grow_to_the_minimum_inside_the_arena() {
        // A one-byte buffer at the top of a 1000-byte arena drawn 500 px tall: 0.5 px at
        // [100, 100.5] under the arena top at 100 px; grown to 3 px it stays below the top.
        assert_eq!(min_span(100.0, 100.5, 3.0, 100.0, 600.0), (100.0, 103.0));
        // At offset 0: above the axis.
        assert_eq!(min_span(599.5, 600.0, 3.0, 100.0, 600.0), (597.0, 600.0));
        // In the middle: about its centre.
        assert_eq!(min_span(300.0, 301.0, 3.0, 100.0, 600.0), (299.0, 302.0));
        // Tall enough: unchanged.
        assert_eq!(min_span(300.0, 310.0, 3.0, 100.0, 600.0), (300.0, 310.0));
    }

    #[test]
    fn column_maxima_keep_every_peak() {
        // Four steps a pixel: 10 steps over 2.5 px.
        let v = [1, 9, 2, 3, 4, 4, 8, 1, 0, 7];
        let got = column_maxima(&v, 0, 10, |s| s as f32 / 4.0);
        assert_eq!(got, vec![(0.0, 9), (1.0, 8), (2.0, 7)]);
    }
}
