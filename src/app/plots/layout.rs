//! The address-vs-time layout of one plan: holes, the peak steps, padding hatching, buffer
//! rectangles and labels, with the selection highlight on top.

use egui::{Color32, FontId, Rect, Shape, Stroke, StrokeKind, Ui};
use egui_plot::{PlotBounds, PlotItem, PlotItemBase, PlotTransform};

use super::{
    from_pixel_rect, hatch_segments, item_boilerplate, pixel_rect, screen_rect, visible, Affine,
};
use crate::analysis::{BufferKind, Problem};
use crate::app::theme::Colors;
use crate::view::layout::PeakBand;
use crate::view::lod::{min_span, peak_marker, ThinColumns};
use crate::view::{short_name, LayoutView, PAINT};

/// The address-vs-time layout of one plan.
pub struct LayoutItem<'a> {
    base: PlotItemBase,
    pub view: &'a LayoutView,
    pub problem: &'a Problem,
    pub colors: Colors,
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
    /// The shapes of the last frame, reused while the view, the visible bounds and the plot
    /// frame stay the same (hovering and selecting change only the highlight on top).
    pub cache: Option<&'a ShapeCache>,
}

/// Shapes painted for a plot, with what they were painted for.
#[derive(Default)]
pub struct ShapeCache(std::sync::Mutex<Option<(CacheKey, Vec<Shape>)>>);

#[derive(Clone, Copy, PartialEq)]
pub struct CacheKey {
    view: usize,
    bounds: [f64; 4],
    frame: Rect,
    dark_text: Color32,
}

impl<'a> LayoutItem<'a> {
    pub fn new(
        view: &'a LayoutView,
        problem: &'a Problem,
        colors: Colors,
        selected: Option<usize>,
        hovered: Option<usize>,
    ) -> Self {
        LayoutItem {
            base: PlotItemBase::new(format!("layout {}", view.planner)),
            view,
            problem,
            colors,
            selected,
            hovered,
            cache: None,
        }
    }

    pub fn with_cache(mut self, cache: &'a ShapeCache) -> Self {
        self.cache = Some(cache);
        self
    }
}

impl PlotItem for LayoutItem<'_> {
    fn shapes(&self, ui: &Ui, t: &PlotTransform, shapes: &mut Vec<Shape>) {
        let b = *t.bounds();
        let key = CacheKey {
            view: self.view as *const LayoutView as usize,
            bounds: [b.min()[0], b.min()[1], b.max()[0], b.max()[1]],
            frame: *t.frame(),
            dark_text: self.colors.text(),
        };
        let cached = self.cache.and_then(|c| c.0.lock().ok()).and_then(|guard| {
            guard
                .as_ref()
                .filter(|(k, _)| *k == key)
                .map(|(_, s)| s.clone())
        });
        let body = match cached {
            Some(body) => body,
            None => {
                let body = self.body_shapes(ui, t);
                if let Some(mut guard) = self.cache.and_then(|c| c.0.lock().ok()) {
                    *guard = Some((key, body.clone()));
                }
                body
            }
        };
        shapes.extend(body);
        let c = &self.colors;
        for (id, color, width) in [
            (self.hovered, c.selection().gamma_multiply(0.5), 1.5),
            (self.selected, c.selection(), 2.5),
        ] {
            if let Some(r) = id.and_then(|i| self.view.rects.get(i)) {
                let rect = screen_rect(t, r.x0, r.x1, r.y0, r.pad_y1);
                shapes.push(Shape::rect_stroke(
                    rect,
                    0.0,
                    Stroke::new(width, color),
                    StrokeKind::Outside,
                ));
            }
        }
    }

    fn bounds(&self) -> PlotBounds {
        PlotBounds::from_min_max(
            [0.0, 0.0],
            [self.view.steps.max(1) as f64, self.view.axis_top()],
        )
    }

    item_boilerplate!();
}

impl LayoutItem<'_> {
    /// Holes, padding, rectangles, labels and the peak marker (everything but the
    /// highlight), in that order: buffers are drawn over the padding hatching, so that a one-byte buffer
    /// next to another's padding shows, and every buffer is at least
    /// `PAINT.min_rect_height_px` tall.
    fn body_shapes(&self, ui: &Ui, t: &PlotTransform) -> Vec<Shape> {
        let mut shapes = Vec::new();
        let b = *t.bounds();
        let tr = Affine::of(t);
        let c = &self.colors;
        // Fills go into meshes (one shape each, no per-rectangle tessellation); outlines,
        // hatching and labels only where a rectangle is big enough on screen to show them.
        let frame = t.frame();
        let mut thin = ThinColumns::new(frame.left(), frame.right(), PAINT.thin_width_px as f32);
        let mut holes = egui::Mesh::default();
        for h in &self.view.holes {
            if visible(&b, h.x0, h.x1, h.y0, h.y1) {
                let r = tr.rect(h.x0, h.x1, h.y0, h.y1);
                if !thin.take(pixel_rect(r, 0)) {
                    holes.add_colored_rect(r, c.hole());
                }
            }
        }
        for p in thin.drain() {
            holes.add_colored_rect(from_pixel_rect(&p), c.hole());
        }
        shapes.push(Shape::mesh(holes));
        let peaks = self.peak_shapes(ui, t, &tr);
        let kinds = [
            c.kind(BufferKind::Input),
            c.kind(BufferKind::Output),
            c.kind(BufferKind::Activation),
            c.kind(BufferKind::Scratch),
        ];
        let mut pads = egui::Mesh::default();
        let mut hatching = Vec::new();
        let mut fills = egui::Mesh::default();
        let mut details = Vec::new();
        let mut labels = 0;
        let pad_stroke = Stroke::new(1.0, c.padding());
        let pad_fill = c.padding().gamma_multiply(0.3);
        let (outline, hatch) = (PAINT.outline_min_px as f32, PAINT.hatch_min_px as f32);
        // The arena's extent on screen: tiny buffers grow inside it.
        let arena_px = tr.rect(0.0, 1.0, 0.0, self.view.arena_bytes as f64);
        for r in &self.view.rects {
            if !visible(&b, r.x0, r.x1, r.y0, r.pad_y1) {
                continue;
            }
            let mut rect = tr.rect(r.x0, r.x1, r.y0, r.y1);
            let (top, bottom) = min_span(
                rect.min.y as f64,
                rect.max.y as f64,
                PAINT.min_rect_height_px,
                arena_px.min.y as f64,
                arena_px.max.y as f64,
            );
            (rect.min.y, rect.max.y) = (top as f32, bottom as f32);
            // A sliver merges into its pixel column, padding and all (on 20 000 buffers a
            // padding rectangle each would be most of the frame).
            if thin.take(pixel_rect(rect, r.kind as u8)) {
                continue;
            }
            if r.pad_y1 > r.y1 {
                let pad = tr.rect(r.x0, r.x1, r.y1, r.pad_y1);
                if pad.height() >= 0.5 {
                    pads.add_colored_rect(pad, pad_fill);
                }
                if pad.height() >= hatch && pad.width() >= hatch {
                    for seg in hatch_segments(pad, PAINT.hatch_spacing_px as f32) {
                        hatching.push(Shape::line_segment(seg, pad_stroke));
                    }
                }
            }
            fills.add_colored_rect(rect, c.kind(r.kind));
            if rect.width() > outline && rect.height() > outline {
                details.push(Shape::rect_stroke(
                    rect,
                    0.0,
                    Stroke::new(0.5, c.outline()),
                    StrokeKind::Inside,
                ));
            }
            if labels < PAINT.max_labels {
                let name = short_name(&self.problem.buffers[r.buffer].name);
                if label(ui, &mut details, rect, name, c.on_fill()) {
                    labels += 1;
                }
            }
        }
        for p in thin.drain() {
            fills.add_colored_rect(from_pixel_rect(&p), kinds[p.color as usize % kinds.len()]);
        }
        shapes.push(Shape::mesh(pads));
        shapes.extend(hatching);
        shapes.push(Shape::mesh(fills));
        shapes.extend(details);
        shapes.extend(peaks);
        shapes
    }

    /// The peak steps, painted over the buffers: per run, the lines and bar of
    /// `lod::peak_marker` and the label "peak" at the top of the plot.
    fn peak_shapes(&self, ui: &Ui, t: &PlotTransform, tr: &Affine) -> Vec<Shape> {
        let b = *t.bounds();
        let frame = *t.frame();
        let color = self.colors.peak();
        let mut out = Vec::new();
        let mut last_label_right = f32::NEG_INFINITY;
        for p in &self.view.peaks {
            if !visible(&b, p.x0, p.x1, b.min()[1], b.max()[1]) {
                continue;
            }
            let (xa, xb) = (p.line_x0(), p.line_x1());
            let marker = peak_marker(tr.ox + tr.sx * xa, tr.ox + tr.sx * xb, PAINT.peak_merge_px);
            for &x in &marker.lines {
                let x = x as f32;
                out.extend(Shape::dashed_line(
                    &[egui::pos2(x, frame.top()), egui::pos2(x, frame.bottom())],
                    Stroke::new(PAINT.peak_line_px as f32, color),
                    6.0,
                    4.0,
                ));
            }
            if let Some((left, right)) = marker.bar {
                out.push(Shape::rect_filled(
                    Rect::from_min_max(
                        egui::pos2(left as f32, frame.top()),
                        egui::pos2(right as f32, frame.top() + 3.0),
                    ),
                    0.0,
                    color,
                ));
            }
            let galley = ui.painter().layout_no_wrap(
                PeakBand::LABEL.to_string(),
                FontId::proportional(PAINT.label_font_px as f32),
                color,
            );
            let x = marker.label_x as f32;
            if x > last_label_right && x + galley.size().x < frame.right() {
                last_label_right = x + galley.size().x + 4.0;
                out.push(Shape::galley(
                    egui::pos2(x, frame.top() + 4.0),
                    galley,
                    color,
                ));
            }
        }
        out
    }
}

/// A rectangle's label where `PAINT` gives it room, cut to the measured width of its glyphs;
/// true when one was drawn.
fn label(ui: &Ui, shapes: &mut Vec<Shape>, r: Rect, text: &str, color: Color32) -> bool {
    let font = FontId::proportional(PAINT.label_font_px as f32);
    let painter = ui.painter();
    let measure = |s: &str| {
        painter
            .layout_no_wrap(s.to_string(), font.clone(), color)
            .size()
            .x as f64
    };
    let Some(shown) = PAINT.rect_label_measured(text, r.width() as f64, r.height() as f64, measure)
    else {
        return false;
    };
    let galley = painter.layout_no_wrap(shown, font, color);
    let pad = PAINT.label_padding_px as f32;
    let pos = egui::pos2(r.min.x + pad, r.center().y - galley.size().y / 2.0);
    shapes.push(Shape::galley(pos, galley, color));
    true
}
