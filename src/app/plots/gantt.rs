//! The lifetime Gantt chart: a bar per buffer, labels where rows are tall enough.

use egui::{pos2, FontId, Shape, Stroke, StrokeKind, Ui};
use egui_plot::{PlotBounds, PlotItem, PlotItemBase, PlotTransform};

use super::{item_boilerplate, screen_rect, visible};
use crate::analysis::Problem;
use crate::app::theme::Colors;
use crate::view::{short_name, GanttView, PAINT};

/// The lifetime Gantt chart: row `r` spans y in `[-r-1, -r]`.
pub struct GanttItem<'a> {
    base: PlotItemBase,
    pub view: &'a GanttView,
    pub problem: &'a Problem,
    pub colors: Colors,
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
}

impl<'a> GanttItem<'a> {
    pub fn new(
        view: &'a GanttView,
        problem: &'a Problem,
        colors: Colors,
        selected: Option<usize>,
        hovered: Option<usize>,
    ) -> Self {
        GanttItem {
            base: PlotItemBase::new("gantt".into()),
            view,
            problem,
            colors,
            selected,
            hovered,
        }
    }
}

impl PlotItem for GanttItem<'_> {
    fn shapes(&self, ui: &Ui, t: &PlotTransform, shapes: &mut Vec<Shape>) {
        let b = *t.bounds();
        let c = &self.colors;
        // Rows inside the visible y range only.
        let first_row = (-b.max()[1]).floor().max(0.0) as usize;
        let last_row = ((-b.min()[1]).ceil().max(0.0) as usize).min(self.view.rows);
        let mut labels = 0;
        let mut fills = egui::Mesh::default();
        let mut details = Vec::new();
        for bar in self.view.bars.get(first_row..last_row).unwrap_or(&[]) {
            let y1 = -(bar.row as f64) - PAINT.gantt_bar_inset;
            let y0 = -(bar.row as f64) - (1.0 - PAINT.gantt_bar_inset);
            if !visible(&b, bar.x0, bar.x1, y0, y1) {
                continue;
            }
            let rect = screen_rect(t, bar.x0, bar.x1, y0, y1);
            fills.add_colored_rect(rect, c.kind(bar.kind));
            if labels < PAINT.max_labels && rect.height() as f64 >= PAINT.gantt_label_min_row_px {
                let name = short_name(&self.problem.buffers[bar.buffer].name);
                let galley = ui.painter().layout_no_wrap(
                    name.to_string(),
                    FontId::proportional(10.0),
                    c.weak_text(),
                );
                details.push(Shape::galley(
                    pos2(rect.max.x + 4.0, rect.center().y - galley.size().y / 2.0),
                    galley,
                    c.weak_text(),
                ));
                labels += 1;
            }
            let mark = if Some(bar.buffer) == self.selected {
                Some((c.selection(), 2.5))
            } else if Some(bar.buffer) == self.hovered {
                Some((c.selection().gamma_multiply(0.5), 1.5))
            } else {
                None
            };
            if let Some((color, w)) = mark {
                details.push(Shape::rect_stroke(
                    rect,
                    1.0,
                    Stroke::new(w, color),
                    StrokeKind::Outside,
                ));
            }
        }
        shapes.push(Shape::mesh(fills));
        shapes.extend(details);
    }

    fn bounds(&self) -> PlotBounds {
        PlotBounds::from_min_max(
            [0.0, -(self.view.rows.max(1) as f64)],
            [self.view.steps.max(1) as f64, 0.0],
        )
    }

    item_boilerplate!();
}
