//! The address-vs-time layout of one plan: a rectangle per buffer (steps across, bytes up),
//! its alignment padding on top (up to the arena top: padding past the last buffer's end is
//! not part of the arena), the holes below the live top at each step, the peak steps, the
//! arena top and the lower bound.

use super::options::PAINT;
use crate::analysis::{round_up, BufferKind, Problem};
use crate::plan::{self, Plan};

/// One buffer's rectangle. `x` in steps (`[first, last + 1)`), `y` in bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferRect {
    pub buffer: usize,
    pub kind: BufferKind,
    pub x0: f64,
    pub x1: f64,
    /// Offset.
    pub y0: f64,
    /// Offset + bytes.
    pub y1: f64,
    /// Offset + bytes rounded up to the alignment, but not above the arena top:
    /// `[y1, pad_y1)` is padding.
    pub pad_y1: f64,
}

/// A run of steps where the live bytes reach their peak (the lower bound): `[x0, x1)` in
/// steps, drawn as a marked band labelled "peak".
#[derive(Clone, Debug, PartialEq)]
pub struct PeakBand {
    pub first: u32,
    pub last: u32,
    pub x0: f64,
    pub x1: f64,
}

impl PeakBand {
    /// The label drawn on the band.
    pub const LABEL: &'static str = "peak";

    /// Where the marker's first dashed line is, in steps: the middle of the first step.
    pub fn line_x0(&self) -> f64 {
        self.first as f64 + 0.5
    }

    /// Where its last dashed line is: the middle of the last step (the first's for one).
    pub fn line_x1(&self) -> f64 {
        self.last as f64 + 0.5
    }

    /// "peak at step 5" or "peak at steps 3–7".
    pub fn describe(&self) -> String {
        format!("peak at {}", super::format_steps(self.first, self.last))
    }
}

/// Free bytes below the live top over a run of steps with the same free range.
#[derive(Clone, Debug, PartialEq)]
pub struct HoleRect {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LayoutView {
    pub planner: &'static str,
    /// What it is of, when it shares a panel with another problem's layout (before/after:
    /// "file's order"; LiteRT with XNNPACK: the TFLite arena or a workspace).
    pub order: Option<String>,
    pub rects: Vec<BufferRect>,
    pub holes: Vec<HoleRect>,
    pub arena_bytes: u64,
    pub lower_bound: u64,
    pub steps: u32,
    pub padding_bytes: u64,
    /// The steps where the live bytes reach the lower bound (the plan metrics'
    /// `peak_steps`), merged into runs.
    pub peaks: Vec<PeakBand>,
}

impl LayoutView {
    pub fn build(problem: &Problem, plan: &Plan) -> Self {
        let top = plan.arena_bytes as f64;
        let rects = problem
            .buffers
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let y0 = plan.offsets[i] as f64;
                let y1 = y0 + b.size_bytes as f64;
                BufferRect {
                    buffer: i,
                    kind: b.kind,
                    x0: b.first as f64,
                    x1: b.last as f64 + 1.0,
                    y0,
                    y1,
                    pad_y1: (y0 + round_up(b.size_bytes, b.alignment) as f64).min(top.max(y1)),
                }
            })
            .collect();
        // Merge a hole with the same range at consecutive steps into one rectangle.
        let mut holes = plan::holes(problem, &plan.offsets);
        holes.sort_by_key(|h| (h.start, h.end, h.step));
        let mut merged: Vec<HoleRect> = Vec::new();
        let mut prev: Option<(u64, u64, u32)> = None;
        for h in holes {
            match (prev, merged.last_mut()) {
                (Some((s, e, step)), Some(last))
                    if s == h.start && e == h.end && step + 1 == h.step =>
                {
                    last.x1 = h.step as f64 + 1.0;
                }
                _ => merged.push(HoleRect {
                    x0: h.step as f64,
                    x1: h.step as f64 + 1.0,
                    y0: h.start as f64,
                    y1: h.end as f64,
                }),
            }
            prev = Some((h.start, h.end, h.step));
        }
        let padding_bytes = problem.buffers.iter().map(|b| b.padding_bytes()).sum();
        LayoutView {
            planner: plan.planner,
            order: None,
            rects,
            holes: merged,
            arena_bytes: plan.arena_bytes,
            lower_bound: plan.lower_bound,
            steps: problem.steps,
            padding_bytes,
            peaks: peak_bands(&problem.live_bytes_per_step()),
        }
    }

    /// The planner, and the order when one is named.
    pub fn name(&self) -> String {
        match &self.order {
            Some(order) => format!("{} on the {order}", self.planner),
            None => self.planner.to_string(),
        }
    }

    pub fn overhead_bytes(&self) -> u64 {
        self.arena_bytes.saturating_sub(self.lower_bound)
    }

    pub fn overhead_pct(&self) -> f64 {
        super::overhead_pct(self.arena_bytes, self.lower_bound)
    }

    /// The top of this layout's byte axis: the arena or the lower bound, with head room.
    pub fn axis_top(&self) -> f64 {
        self.arena_bytes.max(self.lower_bound).max(1) as f64 * PAINT.byte_axis_headroom
    }

    /// One byte axis for layouts compared side by side: the highest of their tops.
    pub fn shared_axis_top(views: &[&LayoutView]) -> f64 {
        views
            .iter()
            .map(|v| v.axis_top())
            .fold(PAINT.byte_axis_headroom, f64::max)
    }

    /// The buffer whose rectangle (padding included) holds the point, smallest first.
    pub fn hit(&self, x: f64, y: f64) -> Option<usize> {
        self.rects
            .iter()
            .filter(|r| r.x0 <= x && x < r.x1 && r.y0 <= y && y < r.pad_y1.max(r.y1))
            .min_by(|a, b| (a.pad_y1 - a.y0).total_cmp(&(b.pad_y1 - b.y0)))
            .map(|r| r.buffer)
    }
}

/// The steps where `live` reaches its maximum (none when nothing is alive), merged into runs.
fn peak_bands(live: &[u64]) -> Vec<PeakBand> {
    let peak = live.iter().copied().max().unwrap_or(0);
    let mut out: Vec<PeakBand> = Vec::new();
    if peak == 0 {
        return out;
    }
    for (s, &v) in live.iter().enumerate() {
        if v != peak {
            continue;
        }
        let s = s as u32;
        match out.last_mut() {
            Some(b) if b.last + 1 == s => {
                b.last = s;
                b.x1 = s as f64 + 1.0;
            }
            _ => out.push(PeakBand {
                first: s,
                last: s,
                x0: s as f64,
                x1: s as f64 + 1.0,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::csv::read_problem;
    use crate::planner::{self, Settings};

    #[test]
    fn textbook_rectangles_padding_and_holes() {
        // 10, 20, 15 bytes over [0,2), [1,3), [2,4), aligned to 8, placed by size-first-fit:
        // 20 at 0; 15 at 24 (20 rounded up to 8); 10 at 24.
        let (_, p) =
            read_problem("id,lower,upper,size,alignment\n0,0,2,10,8\n1,1,3,20,8\n2,2,4,15,8\n")
                .unwrap();
        let plan = crate::planner::run(
            planner::find("size-first-fit").unwrap(),
            &p,
            &Settings::default(),
        )
        .unwrap();
        assert_eq!(plan.offsets, vec![24, 0, 24]);
        let v = LayoutView::build(&p, &plan);
        // The arena ends at 39 (24 + 15): the padding of both buffers at 24 (to 40) stops
        // at the arena top.
        let r0 = &v.rects[0];
        assert_eq!(
            (r0.x0, r0.x1, r0.y0, r0.y1, r0.pad_y1),
            (0.0, 2.0, 24.0, 34.0, 39.0)
        );
        let r2 = &v.rects[2];
        assert_eq!(
            (r2.x0, r2.x1, r2.y0, r2.y1, r2.pad_y1),
            (2.0, 4.0, 24.0, 39.0, 39.0)
        );
        assert_eq!(v.rects[1].pad_y1, 24.0, "below the top: padded to 24");
        assert_eq!(v.padding_bytes, 6 + 4 + 1);
        // Holes below the live top: step 0 [0,24) (only the 10-byte buffer at 24 is live);
        // steps 1 and 2: the 20-byte buffer covers [0,20), hole [20,24), merged into one;
        // step 3: only the 15-byte buffer at 24 is live: [0,24).
        let holes: Vec<(f64, f64, f64, f64)> =
            v.holes.iter().map(|h| (h.x0, h.x1, h.y0, h.y1)).collect();
        assert_eq!(
            holes,
            vec![
                (0.0, 1.0, 0.0, 24.0),
                (3.0, 4.0, 0.0, 24.0),
                (1.0, 3.0, 20.0, 24.0)
            ]
        );
        assert_eq!(v.arena_bytes, 39);
        assert_eq!(v.lower_bound, 35);
        assert!((v.overhead_pct() - 100.0 * 4.0 / 35.0).abs() < 1e-9);
        assert_eq!(v.axis_top(), 39.0 * 1.05);
        assert_eq!(v.hit(1.5, 5.0), Some(1));
        assert_eq!(v.hit(0.5, 36.0), Some(0), "padding belongs to its buffer");
        assert_eq!(v.hit(0.5, 5.0), None, "a hole is not a buffer");
        // Live bytes 10, 30, 35, 15: the peak (the lower bound, 35) is at step 2.
        assert_eq!(
            v.peaks,
            vec![PeakBand {
                first: 2,
                last: 2,
                x0: 2.0,
                x1: 3.0
            }]
        );
        assert_eq!(v.peaks[0].describe(), "peak at step 2");
    }

    #[test]
    fn consecutive_peak_steps_are_one_band() {
        assert_eq!(
            peak_bands(&[5, 9, 9, 9, 2, 9]),
            vec![
                PeakBand {
                    first: 1,
                    last: 3,
                    x0: 1.0,
                    x1: 4.0
                },
                PeakBand {
                    first: 5,
                    last: 5,
                    x0: 5.0,
                    x1: 6.0
                }
            ]
        );
        assert!(peak_bands(&[0, 0]).is_empty(), "nothing alive: no peak");
    }
}
