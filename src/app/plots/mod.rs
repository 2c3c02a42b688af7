//! Custom `egui_plot` items that paint the views' geometry with culling and level of detail:
//! only what is inside the visible bounds is drawn; rectangles thinner than a pixel are drawn
//! one pixel wide and merged per pixel column (`view::lod`); outlines, hatching and labels
//! only where `view::PAINT` says there is room (puffin's and rerun's approach), so a
//! 20 000-buffer layout stays fluid. The items compute no geometry of their own: they map
//! what `view/` built onto the screen.

mod gantt;
mod graph;
mod layout;
mod step_area;

use egui::{pos2, Color32, Pos2, Rect, Stroke, Ui};
use egui_plot::{PlotBounds, PlotTransform};

pub use gantt::GanttItem;
pub use graph::{graph_hit, GraphItem};
pub use layout::{LayoutItem, ShapeCache};
pub use step_area::StepAreaItem;

use crate::view::lod::PixelRect;

fn screen_rect(t: &PlotTransform, x0: f64, x1: f64, y0: f64, y1: f64) -> Rect {
    Affine::of(t).rect(x0, x1, y0, y1)
}

/// Plot to screen as one multiply-add per coordinate, for the loops over thousands of items.
#[derive(Clone, Copy)]
struct Affine {
    sx: f64,
    ox: f64,
    sy: f64,
    oy: f64,
}

impl Affine {
    /// From the visible bounds and the frame (computed in f64: a byte axis spans millions).
    fn of(t: &PlotTransform) -> Self {
        let (b, f) = (t.bounds(), t.frame());
        let sx = f.width() as f64 / (b.max()[0] - b.min()[0]).max(f64::MIN_POSITIVE);
        let sy = -(f.height() as f64) / (b.max()[1] - b.min()[1]).max(f64::MIN_POSITIVE);
        Affine {
            sx,
            ox: f.left() as f64 - b.min()[0] * sx,
            sy,
            oy: f.bottom() as f64 - b.min()[1] * sy,
        }
    }

    fn rect(&self, x0: f64, x1: f64, y0: f64, y1: f64) -> Rect {
        let a = pos2(
            (self.ox + self.sx * x0) as f32,
            (self.oy + self.sy * y0) as f32,
        );
        let b = pos2(
            (self.ox + self.sx * x1) as f32,
            (self.oy + self.sy * y1) as f32,
        );
        let mut r = Rect::from_two_pos(a, b);
        // Level of detail: never thinner than a pixel.
        if r.width() < 1.0 {
            r = Rect::from_center_size(r.center(), egui::vec2(1.0, r.height()));
        }
        if r.height() < 1.0 {
            r = Rect::from_center_size(r.center(), egui::vec2(r.width(), 1.0));
        }
        r
    }
}

fn pixel_rect(r: Rect, color: u8) -> PixelRect {
    PixelRect {
        x0: r.min.x,
        x1: r.max.x,
        y0: r.min.y,
        y1: r.max.y,
        color,
    }
}

fn from_pixel_rect(p: &PixelRect) -> Rect {
    Rect::from_min_max(pos2(p.x0, p.y0), pos2(p.x1, p.y1))
}

/// 45° hatch segments clipped to `r`, `spacing` pixels apart.
pub fn hatch_segments(r: Rect, spacing: f32) -> Vec<[Pos2; 2]> {
    let mut out = Vec::new();
    let mut c = r.min.x + r.min.y + spacing;
    while c < r.max.x + r.max.y {
        // Points on x + y = c inside r.
        let x_start = r.min.x.max(c - r.max.y);
        let x_end = r.max.x.min(c - r.min.y);
        if x_start < x_end {
            out.push([pos2(x_start, c - x_start), pos2(x_end, c - x_end)]);
        }
        c += spacing;
    }
    out
}

fn visible(b: &PlotBounds, x0: f64, x1: f64, y0: f64, y1: f64) -> bool {
    x1 >= b.min()[0] && x0 <= b.max()[0] && y1 >= b.min()[1] && y0 <= b.max()[1]
}

macro_rules! item_boilerplate {
    () => {
        fn initialize(&mut self, _x_range: std::ops::RangeInclusive<f64>) {}

        fn color(&self) -> egui::Color32 {
            egui::Color32::TRANSPARENT
        }

        fn geometry(&self) -> egui_plot::PlotGeometry<'_> {
            egui_plot::PlotGeometry::None
        }

        fn base(&self) -> &egui_plot::PlotItemBase {
            &self.base
        }

        fn base_mut(&mut self) -> &mut egui_plot::PlotItemBase {
            &mut self.base
        }
    };
}
use item_boilerplate;

/// A small filled square, for colour keys (the default fonts have no "■").
pub fn swatch(ui: &mut Ui, color: Color32, hatched: bool) {
    let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
    if hatched {
        ui.painter()
            .rect_filled(rect, 1.0, color.gamma_multiply(0.3));
        for seg in hatch_segments(rect, 4.0) {
            ui.painter().line_segment(seg, Stroke::new(1.0, color));
        }
    } else {
        ui.painter().rect_filled(rect, 1.0, color);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hatch_segments_stay_inside_the_rectangle() {
        let r = Rect::from_min_max(pos2(10.0, 20.0), pos2(40.0, 30.0));
        let segs = hatch_segments(r, 6.0);
        assert!(!segs.is_empty());
        for [a, b] in segs {
            for p in [a, b] {
                assert!(r.expand(0.01).contains(p), "{p:?}");
            }
            assert!(((a.x + a.y) - (b.x + b.y)).abs() < 1e-3, "45 degrees");
        }
    }
}
