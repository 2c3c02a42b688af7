//! SVG drawings of the views (DESIGN.md §3.3 export). They draw only what `view/` computed
//! (rectangles, node radii, label sides, axis tops, arena groups) with the thresholds of
//! `view::PAINT`, mapped linearly onto the canvas, so an export is the screen at another size.
//! Exports show the full extent.

use std::fmt::Write as _;

use crate::analysis::Problem;
use crate::view::conflicts::LabelSide;
use crate::view::layout::PeakBand;
use crate::view::lod::{min_span, peak_marker};
use crate::view::theme::{Palette, Rgba};
use crate::view::{
    byte_tick_step, byte_ticks_every, format_axis_tick, format_bytes, format_bytes_exact,
    format_step_list, nice_ticks, short_name, ConflictView, GanttView, LayoutView, MemoryView,
    PAINT,
};

/// Where plot units land on the canvas.
#[derive(Clone, Copy)]
struct Frame {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    x_min: f64,
    x_max: f64,
    y_min: f64,
    y_max: f64,
}

impl Frame {
    fn x(&self, v: f64) -> f64 {
        self.left + (v - self.x_min) / (self.x_max - self.x_min).max(1e-9) * self.width
    }

    fn y(&self, v: f64) -> f64 {
        self.top + self.height
            - (v - self.y_min) / (self.y_max - self.y_min).max(1e-9) * self.height
    }
}

/// An SVG document being written.
struct Svg {
    out: String,
    height: f64,
    /// The canvas colour: the halo behind labels drawn over the plot.
    background: Rgba,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Svg {
    fn new(width: f64, height: f64, palette: &Palette) -> Self {
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"Ubuntu, sans-serif\">\n"
        );
        let _ = writeln!(
            out,
            "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"{}\" fill-opacity=\"0.25\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"{}\" stroke-width=\"2\"/></pattern></defs>",
            palette.padding.hex(),
            palette.padding.hex()
        );
        let _ = writeln!(
            out,
            "<rect width=\"{width}\" height=\"{height}\" fill=\"{}\"/>",
            palette.background.hex()
        );
        Svg {
            out,
            height,
            background: palette.background,
        }
    }

    #[allow(clippy::too_many_arguments)] // a rectangle: position, size and style
    fn rect(
        &mut self,
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        fill: &str,
        opacity: f32,
        stroke: Option<Rgba>,
    ) {
        let _ = write!(
            self.out,
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"{fill}\"",
            w.max(0.0),
            h.max(0.0)
        );
        if opacity < 1.0 {
            let _ = write!(self.out, " fill-opacity=\"{opacity:.2}\"");
        }
        if let Some(s) = stroke {
            let _ = write!(
                self.out,
                " stroke=\"{}\" stroke-opacity=\"{:.2}\" stroke-width=\"0.6\"",
                s.hex(),
                s.opacity()
            );
        }
        self.out.push_str("/>\n");
    }

    #[allow(clippy::too_many_arguments)] // a segment: two points and style
    fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Rgba, width: f64, dashed: bool) {
        let _ = write!(
            self.out,
            "<line x1=\"{x1:.2}\" y1=\"{y1:.2}\" x2=\"{x2:.2}\" y2=\"{y2:.2}\" stroke=\"{}\" stroke-opacity=\"{:.2}\" stroke-width=\"{width}\"",
            color.hex(),
            color.opacity()
        );
        if dashed {
            self.out.push_str(" stroke-dasharray=\"6 4\"");
        }
        self.out.push_str("/>\n");
    }

    fn text(&mut self, x: f64, y: f64, size: f64, color: Rgba, anchor: &str, s: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size}\" fill=\"{}\" text-anchor=\"{anchor}\">{}</text>",
            color.hex(),
            esc(s)
        );
    }

    /// A label over the plot (a line's, the peak's) with a halo of the canvas colour, so
    /// that it stays readable on hatching and fills.
    fn line_label(&mut self, x: f64, y: f64, size: f64, color: Rgba, anchor: &str, s: &str) {
        let _ = writeln!(
            self.out,
            "<text x=\"{x:.2}\" y=\"{y:.2}\" font-size=\"{size}\" fill=\"{}\" text-anchor=\"{anchor}\" stroke=\"{}\" stroke-width=\"3\" stroke-opacity=\"0.85\" stroke-linejoin=\"round\" paint-order=\"stroke\">{}</text>",
            color.hex(),
            self.background.hex(),
            esc(s)
        );
    }

    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// Estimated text width for a font size (the painter measures; the SVG estimates).
fn text_width(s: &str, size: f64) -> f64 {
    s.chars().count() as f64 * size * PAINT.glyph_width
}

fn axes(svg: &mut Svg, f: &Frame, p: &Palette, x_label: &str, bytes_y: bool) {
    // Byte ticks a whole number of B, KiB or MiB apart, each labelled with its value exactly
    // (`view::format_axis_tick`, as the GUI's axis).
    let byte_step = byte_tick_step(f.y_min, f.y_max, 6);
    let ticks = if bytes_y {
        byte_ticks_every(f.y_min, f.y_max, byte_step)
    } else {
        nice_ticks(f.y_min, f.y_max, 6)
    };
    for t in ticks {
        let y = f.y(t);
        svg.line(f.left, y, f.left + f.width, y, p.grid, 1.0, false);
        let label = if bytes_y {
            format_axis_tick(t.max(0.0).round() as u64, byte_step)
        } else {
            format!("{t}")
        };
        svg.text(f.left - 6.0, y + 4.0, 11.0, p.weak_text, "end", &label);
    }
    // Steps are whole numbers: no tick between two of them.
    let x_ticks = (f.width / 60.0).floor().clamp(2.0, 10.0) as usize;
    for t in nice_ticks(f.x_min, f.x_max, x_ticks)
        .into_iter()
        .filter(|t| t.fract() == 0.0)
    {
        let x = f.x(t);
        svg.line(
            x,
            f.top + f.height,
            x,
            f.top + f.height + 4.0,
            p.weak_text,
            1.0,
            false,
        );
        svg.text(
            x,
            f.top + f.height + 17.0,
            11.0,
            p.weak_text,
            "middle",
            &format!("{t}"),
        );
    }
    svg.line(
        f.left,
        f.top + f.height,
        f.left + f.width,
        f.top + f.height,
        p.weak_text,
        1.0,
        false,
    );
    svg.line(
        f.left,
        f.top,
        f.left,
        f.top + f.height,
        p.weak_text,
        1.0,
        false,
    );
    svg.text(
        f.left + f.width / 2.0,
        f.top + f.height + 34.0,
        12.0,
        p.text,
        "middle",
        x_label,
    );
}

fn legend(svg: &mut Svg, p: &Palette, x: f64, y: f64) {
    let items = [
        ("input", p.input.hex()),
        ("output", p.output.hex()),
        ("activation", p.activation.hex()),
        ("scratch", p.scratch.hex()),
        ("padding", "url(#hatch)".to_string()),
        ("hole (free below the top)", p.hole.hex()),
    ];
    let mut cx = x;
    for (name, fill) in items {
        let opacity = if name.starts_with("hole") {
            p.hole.opacity()
        } else {
            1.0
        };
        svg.rect(cx, y - 9.0, 12.0, 12.0, &fill, opacity, Some(p.outline));
        svg.text(cx + 16.0, y + 1.0, 11.0, p.text, "start", name);
        cx += 24.0 + text_width(name, 11.0);
    }
}

/// Draws one layout into `f`; `y_max` fixes the byte axis (shared in comparisons).
fn draw_layout(
    svg: &mut Svg,
    problem: &Problem,
    v: &LayoutView,
    f: &Frame,
    p: &Palette,
    title: &str,
) {
    // A workspace of LiteRT's XNNPACK delegate runs on XNNPACK's op axis.
    let x_label = if problem.partition().is_some() {
        "XNNPACK op"
    } else {
        "step"
    };
    axes(svg, f, p, x_label, true);
    let mut labels = 0;
    for h in &v.holes {
        svg.rect(
            f.x(h.x0),
            f.y(h.y1),
            f.x(h.x1) - f.x(h.x0),
            f.y(h.y0) - f.y(h.y1),
            &p.hole.hex(),
            p.hole.opacity(),
            None,
        );
    }
    // Padding first, buffers over it: a one-byte buffer beside another's padding shows.
    for r in &v.rects {
        if r.pad_y1 > r.y1 {
            let (x0, x1) = (f.x(r.x0), f.x(r.x1));
            let (pad_top, top) = (f.y(r.pad_y1), f.y(r.y1));
            svg.rect(
                x0,
                pad_top,
                x1 - x0,
                top - pad_top,
                "url(#hatch)",
                1.0,
                None,
            );
        }
    }
    let (arena_top, arena_bottom) = (f.y(v.arena_bytes as f64), f.y(0.0));
    for r in &v.rects {
        let (x0, x1) = (f.x(r.x0), f.x(r.x1));
        // Every buffer at least `min_rect_height_px` tall, inside the arena (as on screen).
        let (top, bottom) = min_span(
            f.y(r.y1),
            f.y(r.y0),
            PAINT.min_rect_height_px,
            arena_top,
            arena_bottom,
        );
        svg.rect(
            x0,
            top,
            x1 - x0,
            bottom - top,
            &p.kind(r.kind).hex(),
            0.9,
            Some(p.outline),
        );
        let (w, h) = (x1 - x0, bottom - top);
        if labels < PAINT.max_labels {
            if let Some(label) = PAINT.rect_label(short_name(&problem.buffers[r.buffer].name), w, h)
            {
                svg.text(
                    x0 + PAINT.label_padding_px,
                    top + h / 2.0 + 4.0,
                    PAINT.label_font_px,
                    Rgba::rgb(0x10, 0x10, 0x10),
                    "start",
                    &label,
                );
                labels += 1;
            }
        }
    }
    // The peak steps over the buffers: dashed lines at the middle of a run's first and last
    // step, a bar along the top between them, "peak" at the top (as on screen).
    let mut last_label_right = f64::NEG_INFINITY;
    for band in &v.peaks {
        let marker = peak_marker(
            f.x(band.line_x0()),
            f.x(band.line_x1()),
            PAINT.peak_merge_px,
        );
        for &x in &marker.lines {
            svg.line(
                x,
                f.top,
                x,
                f.top + f.height,
                p.peak,
                PAINT.peak_line_px,
                true,
            );
        }
        if let Some((left, right)) = marker.bar {
            svg.rect(left, f.top, right - left, 3.0, &p.peak.hex(), 1.0, None);
        }
        let x = marker.label_x;
        let w = text_width(PeakBand::LABEL, PAINT.label_font_px);
        if x > last_label_right && x + w < f.left + f.width {
            svg.line_label(
                x,
                f.top + PAINT.label_font_px + 4.0,
                PAINT.label_font_px,
                p.peak,
                "start",
                PeakBand::LABEL,
            );
            last_label_right = x + w + 4.0;
        }
    }
    let ya = f.y(v.arena_bytes as f64);
    svg.line(f.left, ya, f.left + f.width, ya, p.arena_line, 1.5, false);
    svg.line_label(
        f.left + f.width - 4.0,
        ya - 4.0,
        11.0,
        p.arena_line,
        "end",
        &format!("arena {}", format_bytes(v.arena_bytes)),
    );
    lower_bound_line(svg, f, p, v.lower_bound);
    svg.text(f.left, f.top - 12.0, 14.0, p.text, "start", title);
}

/// The lower bound as a dashed line across the frame, labelled at its left end.
fn lower_bound_line(svg: &mut Svg, f: &Frame, p: &Palette, bytes: u64) {
    let y = f.y(bytes as f64);
    svg.line(
        f.left,
        y,
        f.left + f.width,
        y,
        p.lower_bound_line,
        1.5,
        true,
    );
    let label = format!("lower bound {}", format_bytes(bytes));
    svg.line_label(
        f.left + 4.0,
        y - 4.0,
        11.0,
        p.lower_bound_line,
        "start",
        &label,
    );
}

fn layout_title(v: &LayoutView) -> String {
    format!(
        "{}: arena {} ({} B), +{:.2}% over the lower bound",
        v.name(),
        format_bytes(v.arena_bytes),
        v.arena_bytes,
        v.overhead_pct()
    )
}

pub fn layout_svg(problem: &Problem, v: &LayoutView, p: &Palette) -> String {
    let mut svg = Svg::new(1400.0, 800.0, p);
    let f = Frame {
        left: 90.0,
        top: 60.0,
        width: 1280.0,
        height: 660.0,
        x_min: 0.0,
        x_max: v.steps.max(1) as f64,
        y_min: 0.0,
        y_max: v.axis_top(),
    };
    draw_layout(&mut svg, problem, v, &f, p, &layout_title(v));
    let legend_y = svg.height - 12.0;
    legend(&mut svg, p, 90.0, legend_y);
    svg.finish()
}

/// LiteRT with XNNPACK: the TFLite arena's layout above the workspace's, each on its own
/// axes (TFLite's steps, XNNPACK's ops; each its own bytes) and titled with what it plans.
pub fn lanes_svg(lanes: &[(&Problem, LayoutView, String)], p: &Palette) -> String {
    let lane_h = 320.0;
    let gap = 80.0;
    let n = lanes.len().max(1) as f64;
    let mut svg = Svg::new(1400.0, 60.0 + n * (lane_h + gap) + 10.0, p);
    for (k, (problem, v, caption)) in lanes.iter().enumerate() {
        let f = Frame {
            left: 90.0,
            top: 60.0 + k as f64 * (lane_h + gap),
            width: 1280.0,
            height: lane_h,
            x_min: 0.0,
            x_max: v.steps.max(1) as f64,
            y_min: 0.0,
            y_max: v.axis_top(),
        };
        draw_layout(
            &mut svg,
            problem,
            v,
            &f,
            p,
            &format!("{caption} - {}", layout_title(v)),
        );
    }
    let legend_y = svg.height - 12.0;
    legend(&mut svg, p, 90.0, legend_y);
    svg.finish()
}

/// Two to four layouts side by side on the same axes, each with its problem (the same one,
/// or the same model on another order).
pub fn compare_svg(views: &[(&Problem, LayoutView)], p: &Palette) -> String {
    let n = views.len().max(1) as f64;
    let width = 1600.0;
    let col = (width - 40.0) / n;
    let mut svg = Svg::new(width, 800.0, p);
    let y_max = LayoutView::shared_axis_top(&views.iter().map(|v| &v.1).collect::<Vec<_>>());
    for (k, (problem, v)) in views.iter().enumerate() {
        let f = Frame {
            left: 20.0 + col * k as f64 + 75.0,
            top: 60.0,
            width: col - 95.0,
            height: 660.0,
            x_min: 0.0,
            x_max: v.steps.max(1) as f64,
            y_min: 0.0,
            y_max,
        };
        let title = format!(
            "{}: {} (+{:.1}%)",
            v.name(),
            format_bytes(v.arena_bytes),
            v.overhead_pct()
        );
        draw_layout(&mut svg, problem, v, &f, p, &title);
    }
    let legend_y = svg.height - 12.0;
    legend(&mut svg, p, 95.0, legend_y);
    svg.finish()
}

pub fn gantt_svg(problem: &Problem, v: &GanttView, p: &Palette) -> String {
    let row_h = (640.0 / v.rows.max(1) as f64).clamp(2.0, 16.0);
    let chart_h = row_h * v.rows.max(1) as f64;
    let mut svg = Svg::new(1400.0, chart_h + 60.0 + 220.0 + 50.0, p);
    let title = format!("Lifetimes: {} buffers over {} steps", v.rows, v.steps);
    let bottom = draw_gantt(&mut svg, p, problem, v, 40.0, row_h, &title);
    let m = live_frame(bottom + 40.0, v.steps, v.lower_bound);
    axes(&mut svg, &m, p, "step", true);
    draw_live(&mut svg, &v.live_bytes, &m, p);
    live_caption(&mut svg, &m, p, v, "live bytes");
    svg.finish()
}

/// Before/after: the Gantt chart of the file's order above the optimised order's, and both
/// live-bytes curves under them (the file's as a dashed outline).
pub fn gantt_before_after_svg(
    before: (&Problem, &GanttView),
    after: (&Problem, &GanttView),
    p: &Palette,
) -> String {
    let rows = before.1.rows.max(after.1.rows).max(1) as f64;
    let row_h = (320.0 / rows).clamp(1.0, 12.0);
    let chart_h = row_h * rows;
    let mut svg = Svg::new(1400.0, 2.0 * (chart_h + 40.0) + 40.0 + 220.0 + 50.0, p);
    let mut top = 40.0;
    for ((problem, v), which) in [(before, "file's order"), (after, "optimised order")] {
        let title = format!(
            "Lifetimes on the {which}: {} buffers over {} steps, peak {}",
            v.rows,
            v.steps,
            format_bytes(v.lower_bound)
        );
        top = draw_gantt(&mut svg, p, problem, v, top, row_h, &title) + 40.0;
    }
    let (b, a) = (before.1, after.1);
    let m = live_frame(top + 20.0, a.steps, b.lower_bound.max(a.lower_bound));
    axes(&mut svg, &m, p, "step", true);
    draw_live(&mut svg, &a.live_bytes, &m, p);
    draw_live_outline(&mut svg, &b.live_bytes, &m, p.weak_text);
    live_caption(
        &mut svg,
        &m,
        p,
        a,
        &format!(
            "live bytes, optimised order (dashed: the file's, peak {})",
            format_bytes(b.lower_bound)
        ),
    );
    svg.finish()
}

/// Draws a Gantt chart's bars and peak lines from `top`, under `title`; returns its bottom.
fn draw_gantt(
    svg: &mut Svg,
    p: &Palette,
    problem: &Problem,
    v: &GanttView,
    top: f64,
    row_h: f64,
    title: &str,
) -> f64 {
    let chart_h = row_h * v.rows.max(1) as f64;
    let f = Frame {
        left: 90.0,
        top,
        width: 1280.0,
        height: chart_h,
        x_min: 0.0,
        x_max: v.steps.max(1) as f64,
        y_min: 0.0,
        y_max: v.rows.max(1) as f64,
    };
    svg.text(f.left, top - 14.0, 14.0, p.text, "start", title);
    for bar in &v.bars {
        let y_top = f.top + bar.row as f64 * row_h;
        let (x0, x1) = (f.x(bar.x0), f.x(bar.x1));
        let inset = PAINT.gantt_bar_inset;
        svg.rect(
            x0,
            y_top + row_h * inset,
            x1 - x0,
            row_h * (1.0 - 2.0 * inset),
            &p.kind(bar.kind).hex(),
            0.95,
            None,
        );
        if row_h >= PAINT.gantt_label_min_row_px {
            if let Some(label) =
                PAINT.fit_label(short_name(&problem.buffers[bar.buffer].name), 400.0, 9.0)
            {
                svg.text(
                    x1 + 4.0,
                    y_top + row_h * 0.8,
                    9.0,
                    p.weak_text,
                    "start",
                    &label,
                );
            }
        }
    }
    for &s in &v.peak_steps {
        let x = f.x(s as f64 + 0.5);
        svg.line(x, f.top, x, f.top + chart_h, p.peak, 1.5, true);
    }
    f.top + chart_h
}

/// The frame of the live-bytes plot under a Gantt chart.
fn live_frame(top: f64, steps: u32, peak: u64) -> Frame {
    Frame {
        left: 90.0,
        top,
        width: 1280.0,
        height: 180.0,
        x_min: 0.0,
        x_max: steps.max(1) as f64,
        y_min: 0.0,
        y_max: peak.max(1) as f64 * 1.1,
    }
}

fn live_caption(svg: &mut Svg, m: &Frame, p: &Palette, v: &GanttView, what: &str) {
    svg.text(
        m.left,
        m.top - 8.0,
        12.0,
        p.text,
        "start",
        &format!(
            "{what} (peak {} at {})",
            format_bytes(v.lower_bound),
            format_step_list(&v.peak_steps)
        ),
    );
}

/// A live-bytes curve as a dashed outline (the other order's, in before/after).
fn draw_live_outline(svg: &mut Svg, live: &[u64], f: &Frame, color: Rgba) {
    let mut d = String::new();
    for (s, &v) in live.iter().enumerate() {
        let _ = write!(
            d,
            "{}{:.2},{:.2} L{:.2},{:.2}",
            if s == 0 { "M" } else { " L" },
            f.x(s as f64),
            f.y(v as f64),
            f.x(s as f64 + 1.0),
            f.y(v as f64)
        );
    }
    let _ = writeln!(
        svg.out,
        "<path d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-opacity=\"{:.2}\" stroke-width=\"1.6\" stroke-dasharray=\"6 4\"/>",
        color.hex(),
        color.opacity()
    );
}

fn draw_live(svg: &mut Svg, live: &[u64], f: &Frame, p: &Palette) {
    let mut d = format!("M{:.2},{:.2}", f.x(0.0), f.y(0.0));
    for (s, &v) in live.iter().enumerate() {
        let _ = write!(
            d,
            " L{:.2},{:.2} L{:.2},{:.2}",
            f.x(s as f64),
            f.y(v as f64),
            f.x(s as f64 + 1.0),
            f.y(v as f64)
        );
    }
    let _ = write!(d, " L{:.2},{:.2} Z", f.x(live.len() as f64), f.y(0.0));
    let _ = writeln!(
        svg.out,
        "<path d=\"{d}\" fill=\"{}\" fill-opacity=\"0.35\" stroke=\"{}\" stroke-width=\"1.2\"/>",
        p.activation.hex(),
        p.activation.hex()
    );
}

/// The memory curve; with `before` (before/after), the file order's live bytes as a dashed
/// outline too.
pub fn memory_svg(v: &MemoryView, before: Option<&MemoryView>, p: &Palette) -> String {
    let mut svg = Svg::new(1400.0, 600.0, p);
    let f = Frame {
        left: 90.0,
        top: 50.0,
        width: 1100.0,
        height: 480.0,
        x_min: 0.0,
        x_max: v.steps.max(1) as f64,
        y_min: 0.0,
        y_max: v
            .axis_top
            .max(before.map_or(0.0, |b| b.lower_bound as f64 * 1.05)),
    };
    axes(&mut svg, &f, p, "step", true);
    draw_live(&mut svg, &v.live_bytes, &f, p);
    if let Some(b) = before {
        draw_live_outline(&mut svg, &b.live_bytes, &f, p.weak_text);
        svg.text(
            f.left + 8.0,
            f.top + 16.0,
            12.0,
            p.weak_text,
            "start",
            &format!(
                "dashed: the file's order, peak {} ({} B)",
                format_bytes(b.lower_bound),
                b.lower_bound
            ),
        );
    }
    lower_bound_line(&mut svg, &f, p, v.lower_bound);
    // One line and one label per group of equal arenas, labels stacked so that they never
    // overlap; a group off scale is a mark at the top edge with its value.
    let mut last_label_y = f64::NEG_INFINITY;
    let mut off_scale = 0.0;
    for g in &v.groups {
        let label = format!("{} {}", g.who(), format_bytes_exact(g.bytes));
        if g.off_scale {
            // As on screen: at the top-left edge, inside the frame.
            let y = f.top + 16.0 + 16.0 * off_scale;
            off_scale += 1.0;
            svg.text(
                f.left + 8.0,
                y,
                13.0,
                p.arena_line,
                "start",
                &format!("above the axis: {label}"),
            );
            continue;
        }
        let y = f.y(g.bytes as f64);
        svg.line(f.left, y, f.left + f.width, y, p.arena_line, 1.0, false);
        let ly = (y + 4.0).max(last_label_y + 13.0);
        svg.text(
            f.left + f.width + 8.0,
            ly,
            11.0,
            p.arena_line,
            "start",
            &label,
        );
        last_label_y = ly;
    }
    svg.text(
        f.left,
        30.0,
        14.0,
        p.text,
        "start",
        "Live bytes per step against each plan's arena",
    );
    svg.finish()
}

/// Radius of the circle the conflict graph is drawn on, px (its centre is mid-canvas).
pub const GRAPH_RING_PX: f64 = 380.0;

pub fn conflicts_svg(problem: &Problem, v: &ConflictView, p: &Palette) -> String {
    let (w, h) = (1200.0, 1000.0);
    let mut svg = Svg::new(w, h, p);
    let ring = GRAPH_RING_PX;
    let (cx, cy) = (w / 2.0, h / 2.0 + 20.0);
    let pos = |k: usize| (cx + ring * v.nodes[k].x, cy - ring * v.nodes[k].y);
    for &(a, b) in &v.edges {
        let ((xa, ya), (xb, yb)) = (pos(a), pos(b));
        let clique = v.nodes[a].in_peak_clique && v.nodes[b].in_peak_clique;
        let (color, width) = if clique { (p.peak, 1.6) } else { (p.edge, 0.8) };
        svg.line(xa, ya, xb, yb, color, width, false);
    }
    let font = 10.0;
    // Label boxes already placed: none overlaps another (as on screen).
    let mut placed: Vec<[f64; 4]> = Vec::new();
    for (k, n) in v.nodes.iter().enumerate() {
        let (x, y) = pos(k);
        let r = (n.radius * ring).max(PAINT.node_min_px);
        let stroke = if n.in_peak_clique {
            format!(" stroke=\"{}\" stroke-width=\"2\"", p.peak.hex())
        } else {
            format!(
                " stroke=\"{}\" stroke-opacity=\"0.6\" stroke-width=\"0.5\"",
                p.outline.hex()
            )
        };
        let _ = writeln!(
            svg.out,
            "<circle cx=\"{x:.2}\" cy=\"{y:.2}\" r=\"{r:.2}\" fill=\"{}\"{stroke}/>",
            p.kind(n.kind).hex()
        );
        if placed.len() >= PAINT.max_labels {
            continue;
        }
        let (ax, ay) = (
            x + (r + PAINT.node_label_gap_px) * n.x,
            y - (r + PAINT.node_label_gap_px) * n.y,
        );
        let tw = text_width(&n.label, font);
        let (x0, anchor) = match n.side {
            LabelSide::Right => (ax, "start"),
            LabelSide::Left => (ax - tw, "end"),
            LabelSide::Centre => (ax - tw / 2.0, "middle"),
        };
        let bx = [x0, ay - font / 2.0, x0 + tw, ay + font / 2.0];
        let inside = bx[0] >= 0.0 && bx[2] <= w && bx[1] >= 0.0 && bx[3] <= h;
        let free = !placed
            .iter()
            .any(|q| bx[0] < q[2] && q[0] < bx[2] && bx[1] < q[3] && q[1] < bx[3]);
        if inside && free {
            placed.push(bx);
            svg.text(ax, ay + font * 0.35, font, p.weak_text, anchor, &n.label);
        }
    }
    let title = match v.neighbourhood_of {
        Some((f_id, total)) => format!(
            "Conflict graph: neighbourhood of {} ({} of {} buffers); peak clique in red",
            problem.buffers[f_id].name,
            v.nodes.len(),
            total
        ),
        None => format!(
            "Conflict graph: {} buffers, {} conflicts; peak clique ({} buffers) in red; node area by bytes",
            v.nodes.len(),
            v.edges.len(),
            v.peak_clique.len()
        ),
    };
    svg.text(30.0, 30.0, 14.0, p.text, "start", &title);
    svg.text(
        30.0,
        50.0,
        11.0,
        p.weak_text,
        "start",
        "Nodes in order of first step, clockwise from the top",
    );
    svg.finish()
}
