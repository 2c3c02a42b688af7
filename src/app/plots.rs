//! Custom `egui_plot` items that paint the views' geometry with culling and level of detail:
//! only what is inside the visible bounds is drawn; rectangles thinner than a pixel are drawn
//! one pixel wide without outline; labels and hatching only where there is room (puffin's and
//! rerun's approach), so a 20 000-buffer layout stays fluid.

use std::ops::RangeInclusive;

use egui::{pos2, Color32, FontId, Pos2, Rect, Shape, Stroke, StrokeKind, Ui};
use egui_plot::{PlotBounds, PlotGeometry, PlotItem, PlotItemBase, PlotPoint, PlotTransform};

use super::theme::Colors;
use crate::analysis::Problem;
use crate::view::{short_name, ConflictView, GanttView, LayoutView};

/// Most labels painted in one frame.
const MAX_LABELS: usize = 400;

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

/// Level of detail for rectangles about a pixel wide: per pixel column and colour, their
/// vertical extents are merged into as few one-pixel rectangles as cover them, so thousands of
/// overlapping slivers become a handful of rectangles and nothing visible is lost.
struct ThinColumns {
    left: f32,
    /// Per column: (colour index, top, bottom).
    columns: Vec<Vec<(u8, f32, f32)>>,
}

impl ThinColumns {
    fn new(frame: &Rect) -> Self {
        ThinColumns {
            left: frame.left().floor() - 2.0,
            columns: vec![Vec::new(); frame.width().max(0.0) as usize + 6],
        }
    }

    /// Keeps `r` for merging when it is thin and on screen; false when it is drawn as it is.
    fn take(&mut self, r: Rect, color: u8) -> bool {
        if r.width() > 1.5 {
            return false;
        }
        let col = (r.min.x.floor() - self.left) as isize;
        match usize::try_from(col)
            .ok()
            .and_then(|c| self.columns.get_mut(c))
        {
            Some(v) => {
                v.push((color, r.min.y, r.max.y));
                true
            }
            None => false,
        }
    }

    fn paint(&mut self, mesh: &mut egui::Mesh, colors: &[Color32]) {
        for (c, items) in self.columns.iter_mut().enumerate() {
            if items.is_empty() {
                continue;
            }
            let x = self.left + c as f32;
            items.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            let mut run = items[0];
            for &it in &items[1..] {
                if it.0 == run.0 && it.1 <= run.2 + 1.0 {
                    run.2 = run.2.max(it.2);
                } else {
                    mesh.add_colored_rect(
                        Rect::from_min_max(pos2(x, run.1), pos2(x + 1.0, run.2)),
                        colors[run.0 as usize % colors.len()],
                    );
                    run = it;
                }
            }
            mesh.add_colored_rect(
                Rect::from_min_max(pos2(x, run.1), pos2(x + 1.0, run.2)),
                colors[run.0 as usize % colors.len()],
            );
            items.clear();
        }
    }
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

fn label(
    ui: &Ui,
    shapes: &mut Vec<Shape>,
    r: Rect,
    text: &str,
    color: Color32,
    labels: &mut usize,
) {
    if *labels >= MAX_LABELS || r.height() < 13.0 || r.width() < 40.0 {
        return;
    }
    let font = FontId::proportional(11.0);
    let max_chars = ((r.width() - 6.0) / 6.0) as usize;
    let n = text.chars().count();
    let shown: String = if n <= max_chars {
        text.to_string()
    } else if max_chars >= 6 {
        text.chars().take(max_chars - 1).collect::<String>() + "…"
    } else {
        return;
    };
    let galley = ui.painter().layout_no_wrap(shown, font, color);
    if galley.size().x + 6.0 > r.width() {
        return;
    }
    let pos = pos2(r.min.x + 3.0, r.center().y - galley.size().y / 2.0);
    shapes.push(Shape::galley(pos, galley, color));
    *labels += 1;
}

macro_rules! item_boilerplate {
    () => {
        fn initialize(&mut self, _x_range: RangeInclusive<f64>) {}

        fn color(&self) -> Color32 {
            Color32::TRANSPARENT
        }

        fn geometry(&self) -> PlotGeometry<'_> {
            PlotGeometry::None
        }

        fn base(&self) -> &PlotItemBase {
            &self.base
        }

        fn base_mut(&mut self) -> &mut PlotItemBase {
            &mut self.base
        }
    };
}

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
            [
                self.view.steps.max(1) as f64,
                self.view.arena_bytes.max(self.view.lower_bound).max(1) as f64 * 1.05,
            ],
        )
    }

    item_boilerplate!();
}

impl LayoutItem<'_> {
    /// Holes, rectangles, padding and labels (everything but the highlight).
    fn body_shapes(&self, ui: &Ui, t: &PlotTransform) -> Vec<Shape> {
        let mut shapes = Vec::new();
        let b = *t.bounds();
        let tr = Affine::of(t);
        let c = &self.colors;
        // Fills go into meshes (one shape each, no per-rectangle tessellation); outlines,
        // hatching and labels only where a rectangle is big enough on screen to show them.
        let mut holes = egui::Mesh::default();
        let mut thin = ThinColumns::new(t.frame());
        for h in &self.view.holes {
            if visible(&b, h.x0, h.x1, h.y0, h.y1) {
                let r = tr.rect(h.x0, h.x1, h.y0, h.y1);
                if !thin.take(r, 0) {
                    holes.add_colored_rect(r, c.hole());
                }
            }
        }
        thin.paint(&mut holes, &[c.hole()]);
        shapes.push(Shape::mesh(holes));
        let kinds = [
            c.kind(crate::analysis::BufferKind::Input),
            c.kind(crate::analysis::BufferKind::Output),
            c.kind(crate::analysis::BufferKind::Activation),
            c.kind(crate::analysis::BufferKind::Scratch),
        ];
        let mut fills = egui::Mesh::default();
        let mut details = Vec::new();
        let mut labels = 0;
        let pad_stroke = Stroke::new(1.0, c.padding());
        let pad_fill = c.padding().gamma_multiply(0.3);
        for r in &self.view.rects {
            if !visible(&b, r.x0, r.x1, r.y0, r.pad_y1) {
                continue;
            }
            let rect = tr.rect(r.x0, r.x1, r.y0, r.y1);
            if thin.take(rect, r.kind as u8) {
                continue;
            }
            fills.add_colored_rect(rect, c.kind(r.kind));
            if rect.width() > 3.0 && rect.height() > 3.0 {
                details.push(Shape::rect_stroke(
                    rect,
                    0.0,
                    Stroke::new(0.5, c.outline()),
                    StrokeKind::Inside,
                ));
            }
            if r.pad_y1 > r.y1 {
                let pad = tr.rect(r.x0, r.x1, r.y1, r.pad_y1);
                fills.add_colored_rect(pad, pad_fill);
                if pad.height() >= 4.0 && pad.width() >= 4.0 {
                    for seg in hatch_segments(pad, 6.0) {
                        details.push(Shape::line_segment(seg, pad_stroke));
                    }
                }
            }
            label(
                ui,
                &mut details,
                rect,
                short_name(&self.problem.buffers[r.buffer].name),
                c.on_fill(),
                &mut labels,
            );
        }
        thin.paint(&mut fills, &kinds);
        shapes.push(Shape::mesh(fills));
        shapes.extend(details);
        shapes
    }
}

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
            let y1 = -(bar.row as f64) - 0.1;
            let y0 = -(bar.row as f64) - 0.9;
            if !visible(&b, bar.x0, bar.x1, y0, y1) {
                continue;
            }
            let rect = screen_rect(t, bar.x0, bar.x1, y0, y1);
            fills.add_colored_rect(rect, c.kind(bar.kind));
            if labels < MAX_LABELS && rect.height() >= 10.0 {
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

/// The conflict graph on its circle (unit radius in plot units).
pub struct GraphItem<'a> {
    base: PlotItemBase,
    pub view: &'a ConflictView,
    pub problem: &'a Problem,
    pub colors: Colors,
    pub selected: Option<usize>,
    pub hovered: Option<usize>,
}

impl<'a> GraphItem<'a> {
    pub fn new(
        view: &'a ConflictView,
        problem: &'a Problem,
        colors: Colors,
        selected: Option<usize>,
        hovered: Option<usize>,
    ) -> Self {
        GraphItem {
            base: PlotItemBase::new("conflicts".into()),
            view,
            problem,
            colors,
            selected,
            hovered,
        }
    }

    /// Node radius in plot units (the circle has radius 1).
    pub fn node_radius(view: &ConflictView, relative: f64) -> f64 {
        let spacing = std::f64::consts::TAU / view.nodes.len().max(1) as f64;
        (spacing * 0.45).min(0.08) * relative
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
            let r = (Self::node_radius(self.view, n.radius) as f32 * scale).max(2.0);
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
            if labels < MAX_LABELS {
                let name = short_name(&self.problem.buffers[n.buffer].name);
                let short: String = if name.chars().count() > 28 {
                    name.chars().take(27).collect::<String>() + "…"
                } else {
                    name.to_string()
                };
                let galley =
                    ui.painter()
                        .layout_no_wrap(short, FontId::proportional(10.0), c.weak_text());
                let dir = egui::vec2(n.x as f32, -(n.y as f32));
                let anchor = p + dir * (r + 6.0);
                let w = galley.size().x;
                let x = if n.x > 0.05 {
                    anchor.x
                } else if n.x < -0.05 {
                    anchor.x - w
                } else {
                    anchor.x - w / 2.0
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
            let r = (GraphItem::node_radius(view, n.radius) as f32 * scale).max(4.0);
            (n.buffer, p.distance(pointer), r)
        })
        .filter(|(_, d, r)| d <= r)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(b, _, _)| b)
}

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
            let x_of = |s: usize| {
                t.position_from_point(&PlotPoint::new(s as f64, 0.0))
                    .x
                    .floor()
            };
            let mut s = lo;
            while s < hi {
                let x = x_of(s);
                let (start, mut max) = (s, 0u64);
                while s < hi && x_of(s) == x {
                    max = max.max(self.values[s]);
                    s += 1;
                }
                let top = t
                    .position_from_point(&PlotPoint::new(start as f64, max as f64))
                    .y;
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
