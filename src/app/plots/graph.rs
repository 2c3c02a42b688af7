//! The conflict graph on its circle: chords for conflicts, nodes with the radii and label
//! sides `view::ConflictView` computed, labels that never overlap.

use egui::{pos2, FontId, Pos2, Rect, Shape, Stroke, Ui};
use egui_plot::{PlotBounds, PlotItem, PlotItemBase, PlotPoint, PlotTransform};

use super::item_boilerplate;
use crate::app::theme::Colors;
use crate::view::conflicts::LabelSide;
use crate::view::{ConflictView, PAINT};

/// The conflict graph on its circle (unit radius in plot units).
pub struct GraphItem<'a> {
    base: PlotItemBase,
    pub view: &'a ConflictView,
    pub colors: Colors,
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
}

impl<'a> GraphItem<'a> {
    pub fn new(
        view: &'a ConflictView,
        colors: Colors,
        selected: Option<usize>,
        hovered: Option<usize>,
    ) -> Self {
        GraphItem {
            base: PlotItemBase::new("conflicts".into()),
            view,
            colors,
            selected,
            hovered,
        }
    }
}

impl PlotItem for GraphItem<'_> {
    fn shapes(&self, ui: &Ui, t: &PlotTransform, shapes: &mut Vec<Shape>) {
        let c = &self.colors;
        let pos = |k: usize| {
            t.position_from_point(&PlotPoint::new(self.view.nodes[k].x, self.view.nodes[k].y))
        };
        let focus = self.selected.or(self.hovered);
        let clip = *t.frame();
        for &(a, b) in &self.view.edges {
            let (na, nb) = (&self.view.nodes[a], &self.view.nodes[b]);
            let (pa, pb) = (pos(a), pos(b));
            if !clip.intersects(Rect::from_two_pos(pa, pb)) {
                continue;
            }
            let touches_focus = focus.is_some_and(|f| na.buffer == f || nb.buffer == f);
            let stroke = if touches_focus {
                Stroke::new(1.8, c.selection())
            } else if na.in_peak_clique && nb.in_peak_clique {
                Stroke::new(1.6, c.peak())
            } else {
                Stroke::new(0.7, c.edge())
            };
            shapes.push(Shape::line_segment([pa, pb], stroke));
        }
        let scale = t.dpos_dvalue_x().abs() as f32;
        let mut labels = 0;
        // Labels already placed, so that none overlaps another.
        let mut placed: Vec<Rect> = Vec::new();
        for (k, n) in self.view.nodes.iter().enumerate() {
            let p = pos(k);
            let r = (n.radius as f32 * scale).max(PAINT.node_min_px as f32);
            if !clip.expand(r).contains(p) {
                continue;
            }
            shapes.push(Shape::circle_filled(p, r, c.kind(n.kind)));
            let stroke = if Some(n.buffer) == self.selected {
                Stroke::new(3.0, c.selection())
            } else if Some(n.buffer) == self.hovered {
                Stroke::new(2.0, c.selection().gamma_multiply(0.6))
            } else if n.in_peak_clique {
                Stroke::new(2.0, c.peak())
            } else {
                Stroke::new(0.5, c.outline())
            };
            shapes.push(Shape::circle_stroke(p, r, stroke));
            if labels < PAINT.max_labels {
                let galley = ui.painter().layout_no_wrap(
                    n.label.clone(),
                    FontId::proportional(10.0),
                    c.weak_text(),
                );
                let dir = egui::vec2(n.x as f32, -(n.y as f32));
                let anchor = p + dir * (r + PAINT.node_label_gap_px as f32);
                let w = galley.size().x;
                let x = match n.side {
                    LabelSide::Right => anchor.x,
                    LabelSide::Left => anchor.x - w,
                    LabelSide::Centre => anchor.x - w / 2.0,
                };
                let rect =
                    Rect::from_min_size(pos2(x, anchor.y - galley.size().y / 2.0), galley.size());
                if clip.contains_rect(rect) && !placed.iter().any(|q| q.intersects(rect)) {
                    placed.push(rect);
                    shapes.push(Shape::galley(rect.min, galley, c.weak_text()));
                    labels += 1;
                }
            }
        }
    }

    fn bounds(&self) -> PlotBounds {
        PlotBounds::from_min_max([-1.5, -1.2], [1.5, 1.2])
    }

    item_boilerplate!();
}

/// The node under a screen position, if any.
pub fn graph_hit(view: &ConflictView, t: &PlotTransform, pointer: Pos2) -> Option<usize> {
    let scale = t.dpos_dvalue_x().abs() as f32;
    view.nodes
        .iter()
        .map(|n| {
            let p = t.position_from_point(&PlotPoint::new(n.x, n.y));
            let r = (n.radius as f32 * scale).max(PAINT.node_hit_min_px as f32);
            (n.buffer, p.distance(pointer), r)
        })
        .filter(|(_, d, r)| d <= r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _, _)| b)
}
