//! Live bytes per step as filled columns, one per pixel column where steps are narrower than
//! a pixel (`view::lod::column_maxima`: no peak is ever hidden).

use egui::{pos2, Color32, Rect, Shape, Ui};
use egui_plot::{PlotBounds, PlotItem, PlotItemBase, PlotPoint, PlotTransform};

use super::{item_boilerplate, screen_rect};
use crate::view::lod::column_maxima;

/// Live bytes per step as filled columns. Where steps are narrower than a pixel, each pixel
/// column shows the largest value of the steps it covers (no peak is ever hidden).
pub struct StepAreaItem<'a> {
    base: PlotItemBase,
    pub values: &'a [u64],
    pub fill: Color32,
}

impl<'a> StepAreaItem<'a> {
    pub fn new(values: &'a [u64], fill: Color32) -> Self {
        StepAreaItem {
            base: PlotItemBase::new("live bytes".into()),
            values,
            fill,
        }
    }
}

impl PlotItem for StepAreaItem<'_> {
    fn shapes(&self, _ui: &Ui, t: &PlotTransform, shapes: &mut Vec<Shape>) {
        let b = *t.bounds();
        let n = self.values.len();
        let lo = (b.min()[0].floor().max(0.0) as usize).min(n);
        let hi = (b.max()[0].ceil().max(0.0) as usize).min(n);
        let px_per_step = t.dpos_dvalue_x().abs();
        let y0 = t.position_from_point(&PlotPoint::new(0.0, 0.0)).y;
        let fill = self.fill.gamma_multiply(0.45);
        let mut mesh = egui::Mesh::default();
        // A column and its top edge, one pixel thick.
        let mut column = |x0: f32, x1: f32, top: f32| {
            mesh.add_colored_rect(Rect::from_min_max(pos2(x0, top), pos2(x1, y0)), fill);
            mesh.add_colored_rect(
                Rect::from_min_max(pos2(x0, top), pos2(x1, top + 1.0)),
                self.fill,
            );
        };
        if px_per_step >= 1.0 {
            for s in lo..hi {
                let r = screen_rect(t, s as f64, s as f64 + 1.0, 0.0, self.values[s] as f64);
                column(r.min.x, r.max.x, r.min.y);
            }
        } else {
            // One column per pixel: the maximum of its steps.
            let x_of = |s: usize| t.position_from_point(&PlotPoint::new(s as f64, 0.0)).x;
            for (x, max) in column_maxima(self.values, lo, hi, x_of) {
                let top = t.position_from_point(&PlotPoint::new(0.0, max as f64)).y;
                column(x, x + 1.0, top);
            }
        }
        shapes.push(Shape::mesh(mesh));
    }

    fn bounds(&self) -> PlotBounds {
        let max = self.values.iter().copied().max().unwrap_or(0).max(1) as f64;
        PlotBounds::from_min_max([0.0, 0.0], [self.values.len().max(1) as f64, max])
    }

    item_boilerplate!();
}
