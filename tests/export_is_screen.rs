//! An export is the screen: the SVG exporter and the egui painter draw the same `view/`
//! geometry. The same views are drawn both ways, every shape is mapped back to plot units
//! through its own frame, and both must give the view's node radii and rectangles.
#![cfg(feature = "gui")]

use std::path::PathBuf;

use arenascope::app::plots::{GraphItem, LayoutItem};
use arenascope::app::theme::Colors;
use arenascope::document::Document;
use arenascope::export::svg;
use arenascope::view::{theme, ConflictView, LayoutView, PAINT};
use egui::{pos2, Rect, Shape};
use egui_plot::{PlotBounds, PlotItem, PlotTransform};

fn residual_branch() -> Document {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models/residual_branch_f32.tflite");
    let mut doc = Document::open(&path, arenascope::analysis::Lifetimes::Litert, None).unwrap();
    let request =
        arenascope::document::PlanRequest::defaults(&doc.source, doc.request.lifetimes, None);
    doc.plan(request).unwrap();
    doc
}

/// The value of attribute `name` in one SVG element.
fn attr(element: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let i = element.find(&key)? + key.len();
    element[i..].split('"').next()?.parse().ok()
}

/// The shapes an egui_plot item paints into `frame` showing `bounds`.
fn painted(item: &dyn PlotItem, frame: Rect, bounds: PlotBounds) -> (Vec<Shape>, PlotTransform) {
    let t = PlotTransform::new(frame, bounds, false);
    let ctx = egui::Context::default();
    let mut shapes = Vec::new();
    let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
        item.shapes(ui, &t, &mut shapes)
    });
    out.textures_delta.clear();
    (shapes, t)
}

#[test]
fn the_conflict_graph_exports_the_node_radii_the_screen_paints() {
    let doc = residual_branch();
    let problem = doc.problem(0);
    let view = ConflictView::build(problem, None, PAINT.graph_max_nodes);
    assert!(view.nodes.len() > 20);
    // SVG: circles on a ring of GRAPH_RING_PX around the canvas centre (600, 520).
    let text = svg::conflicts_svg(problem, &view, &theme::LIGHT);
    let ring = svg::GRAPH_RING_PX;
    let exported: Vec<(f64, f64, f64)> = text
        .lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| {
            (
                (attr(l, "cx").unwrap() - 600.0) / ring,
                -(attr(l, "cy").unwrap() - 520.0) / ring,
                attr(l, "r").unwrap() / ring,
            )
        })
        .collect();
    // Screen: the painter's filled circles, mapped back through its transform.
    let colors = Colors::new(false);
    let item = GraphItem::new(&view, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(900.0, 900.0));
    let (shapes, t) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([-1.5, -1.5], [1.5, 1.5]),
    );
    let scale = t.dpos_dvalue_x();
    let screen: Vec<(f64, f64, f64)> = shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Circle(c) if c.fill != egui::Color32::TRANSPARENT => {
                let p = t.value_from_position(c.center);
                Some((p.x, p.y, c.radius as f64 / scale))
            }
            _ => None,
        })
        .collect();
    assert_eq!(exported.len(), view.nodes.len());
    assert_eq!(screen.len(), view.nodes.len());
    for ((n, e), s) in view.nodes.iter().zip(&exported).zip(&screen) {
        for (got, what) in [(e, "svg"), (s, "screen")] {
            assert!(
                (got.0 - n.x).abs() < 1e-3 && (got.1 - n.y).abs() < 1e-3,
                "{what}: {got:?} vs {n:?}"
            );
            assert!(
                (got.2 - n.radius).abs() < 1e-3,
                "{what} radius {} vs {}",
                got.2,
                n.radius
            );
        }
    }
}

#[test]
fn the_layout_exports_the_rectangles_the_screen_paints() {
    let doc = residual_branch();
    let problem = doc.problem(0);
    let plan = doc.plans(0).iter().find(|p| p.planner == "litert").unwrap();
    let view = LayoutView::build(problem, plan);
    let top = view.axis_top();
    let steps = view.steps as f64;
    // SVG: the layout frame is 1280 × 660 px at (90, 60); buffer fills have opacity 0.90.
    let text = svg::layout_svg(problem, &view, &theme::LIGHT);
    let mut exported: Vec<[f64; 4]> = text
        .lines()
        .filter(|l| l.starts_with("<rect") && l.contains("fill-opacity=\"0.90\""))
        .map(|l| {
            let (x, y) = (attr(l, "x").unwrap(), attr(l, "y").unwrap());
            let (w, h) = (attr(l, "width").unwrap(), attr(l, "height").unwrap());
            let px = |x: f64| (x - 90.0) / 1280.0 * steps;
            let py = |y: f64| (720.0 - y) / 660.0 * top;
            [px(x), px(x + w), py(y + h), py(y)]
        })
        .collect();
    // Screen: the fills mesh (kind colours), every four vertices one rectangle.
    let colors = Colors::new(false);
    let kinds: Vec<egui::Color32> = view.rects.iter().map(|r| colors.kind(r.kind)).collect();
    let item = LayoutItem::new(&view, problem, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 660.0));
    let (shapes, t) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([0.0, 0.0], [steps, top]),
    );
    let mut screen: Vec<[f64; 4]> = Vec::new();
    for s in &shapes {
        let Shape::Mesh(m) = s else { continue };
        for quad in m.vertices.chunks(4) {
            if quad.len() == 4 && kinds.contains(&quad[0].color) {
                let pts: Vec<_> = quad.iter().map(|v| t.value_from_position(v.pos)).collect();
                let xs = pts.iter().map(|p| p.x);
                let ys = pts.iter().map(|p| p.y);
                screen.push([
                    xs.clone().fold(f64::INFINITY, f64::min),
                    xs.fold(f64::NEG_INFINITY, f64::max),
                    ys.clone().fold(f64::INFINITY, f64::min),
                    ys.fold(f64::NEG_INFINITY, f64::max),
                ]);
            }
        }
    }
    // Both draw every buffer at least `min_rect_height_px` tall, grown inside the arena
    // (both frames are 660 px tall over [0, top]).
    let px_of = |v: f64| 660.0 - v / top * 660.0;
    let value_of = |y: f64| (660.0 - y) / 660.0 * top;
    let (arena_top, arena_bottom) = (px_of(view.arena_bytes as f64), px_of(0.0));
    let want: Vec<[f64; 4]> = view
        .rects
        .iter()
        .map(|r| {
            let (t, b) = arenascope::view::lod::min_span(
                px_of(r.y1),
                px_of(r.y0),
                PAINT.min_rect_height_px,
                arena_top,
                arena_bottom,
            );
            [r.x0, r.x1, value_of(b), value_of(t)]
        })
        .collect();
    assert!(
        want.iter()
            .zip(&view.rects)
            .any(|(w, r)| w[3] - w[2] > r.y1 - r.y0),
        "some buffers are grown to the minimum height"
    );
    assert_eq!(exported.len(), want.len());
    assert_eq!(screen.len(), want.len());
    // One pixel in plot units: the painter draws nothing thinner than a pixel.
    let (px_x, px_y) = (steps / 1280.0, top / 660.0);
    let near = |g: &[f64; 4], w: &[f64; 4]| {
        (g[0] - w[0]).abs() <= px_x / 2.0
            && (g[1] - w[1]).abs() <= px_x / 2.0
            && (g[2] - w[2]).abs() <= px_y
            && (g[3] - w[3]).abs() <= px_y
    };
    // Every rectangle of the view is drawn, once, by each.
    for (got, what) in [(&mut exported, "svg"), (&mut screen, "screen")] {
        for w in &want {
            let k = got
                .iter()
                .position(|g| near(g, w))
                .unwrap_or_else(|| panic!("{what} has no rectangle at the view's {w:?}"));
            got.swap_remove(k);
        }
    }
}

#[test]
fn the_gantt_exports_the_bars_the_screen_paints() {
    use arenascope::app::plots::GanttItem;
    use arenascope::view::GanttView;
    let doc = residual_branch();
    let problem = doc.problem(0);
    let view = GanttView::build(problem);
    let inset = PAINT.gantt_bar_inset;
    let steps = view.steps as f64;
    let rows = view.rows as f64;
    // SVG: rows from y = 40 down, row_h each; bars 1280 px wide over the steps; fill-opacity
    // 0.95 marks them.
    let text = svg::gantt_svg(problem, &view, &theme::LIGHT);
    let row_h = (640.0 / rows).clamp(2.0, 16.0);
    let mut exported: Vec<[f64; 4]> = text
        .lines()
        .filter(|l| l.starts_with("<rect") && l.contains("fill-opacity=\"0.95\""))
        .map(|l| {
            let (x, y) = (attr(l, "x").unwrap(), attr(l, "y").unwrap());
            let (w, h) = (attr(l, "width").unwrap(), attr(l, "height").unwrap());
            let px = |x: f64| (x - 90.0) / 1280.0 * steps;
            // Back to the painter's plot units: row r spans y in [-r-1, -r].
            let py = |y: f64| -(y - 40.0) / row_h;
            [px(x), px(x + w), py(y + h), py(y)]
        })
        .collect();
    // Screen: the bars mesh mapped back through the plot transform.
    let colors = Colors::new(false);
    let kinds: Vec<egui::Color32> = view.bars.iter().map(|b| colors.kind(b.kind)).collect();
    let item = GanttItem::new(&view, problem, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 16.0 * rows as f32));
    let (shapes, t) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([0.0, -rows], [steps, 0.0]),
    );
    let mut screen: Vec<[f64; 4]> = Vec::new();
    for s in &shapes {
        let Shape::Mesh(m) = s else { continue };
        for quad in m.vertices.chunks(4) {
            if quad.len() == 4 && kinds.contains(&quad[0].color) {
                let pts: Vec<_> = quad.iter().map(|v| t.value_from_position(v.pos)).collect();
                let (xs, ys): (Vec<f64>, Vec<f64>) = pts.iter().map(|p| (p.x, p.y)).unzip();
                screen.push([
                    xs.iter().cloned().fold(f64::INFINITY, f64::min),
                    xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                    ys.iter().cloned().fold(f64::INFINITY, f64::min),
                    ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                ]);
            }
        }
    }
    let want: Vec<[f64; 4]> = view
        .bars
        .iter()
        .map(|b| {
            let r = b.row as f64;
            [b.x0, b.x1, -r - 1.0 + inset, -r - inset]
        })
        .collect();
    assert_eq!(exported.len(), want.len());
    assert_eq!(screen.len(), want.len());
    let near = |g: &[f64; 4], w: &[f64; 4]| g.iter().zip(w).all(|(a, b)| (a - b).abs() < 0.02);
    for (got, what) in [(&mut exported, "svg"), (&mut screen, "screen")] {
        for w in &want {
            let k = got
                .iter()
                .position(|g| near(g, w))
                .unwrap_or_else(|| panic!("{what} has no bar at the view's {w:?}"));
            got.swap_remove(k);
        }
    }
}

#[test]
fn the_memory_export_draws_the_views_arena_groups_on_its_axis() {
    use arenascope::view::MemoryView;
    let doc = residual_branch();
    let problem = doc.problem(0);
    let plans: Vec<&arenascope::plan::Plan> = doc.plans(0).iter().collect();
    let view = MemoryView::build(problem, &plans);
    let text = svg::memory_svg(&view, None, &theme::LIGHT);
    // The frame is 480 px tall at y = 50 over [0, axis_top]: each group within scale is a
    // line across it at its bytes (the panel draws an HLine per group at the same bytes).
    let y_of = |bytes: u64| 50.0 + 480.0 - bytes as f64 / view.axis_top * 480.0;
    for g in view.groups.iter().filter(|g| !g.off_scale) {
        let y = y_of(g.bytes);
        assert!(
            text.lines().any(|l| l.starts_with("<line")
                && attr(l, "x1") == Some(90.0)
                && (attr(l, "y1").unwrap() - y).abs() < 0.01
                && attr(l, "y1") == attr(l, "y2")),
            "no line at {} B",
            g.bytes
        );
        assert!(
            text.contains(&format!("({} B)", g.bytes)),
            "{} unlabelled",
            g.bytes
        );
    }
}

/// A hand-made problem: `(first, last, bytes, alignment)` per buffer (lifetimes inclusive).
fn problem_of(buffers: &[(u32, u32, u64, u64)]) -> arenascope::analysis::Problem {
    let mut csv = String::from("id,lower,upper,size,alignment\n");
    for (i, (first, last, bytes, align)) in buffers.iter().enumerate() {
        csv += &format!("{i},{first},{},{bytes},{align}\n", last + 1);
    }
    arenascope::analysis::csv::read_problem(&csv).unwrap().1
}

fn plan_with(planner: &str, problem: &arenascope::analysis::Problem) -> arenascope::plan::Plan {
    arenascope::planner::run(
        arenascope::planner::find(planner).unwrap(),
        problem,
        &arenascope::planner::Settings::default(),
    )
    .unwrap()
}

/// Bytes written as an axis label: `1500 B`, `2 KiB`, `1.5 MiB`.
fn parse_bytes(label: &str) -> f64 {
    let (n, unit) = label.split_once(' ').unwrap();
    let n: f64 = n.parse().unwrap();
    n * match unit {
        "B" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1048576.0,
        "GiB" => 1073741824.0,
        _ => panic!("unit of {label}"),
    }
}

/// The text of an SVG `<text>` element.
fn text_of(element: &str) -> &str {
    let start = element.find('>').unwrap() + 1;
    &element[start..element.rfind("</text>").unwrap()]
}

#[test]
fn small_arenas_export_byte_ticks_labelled_with_their_exact_values() {
    use arenascope::app::panels::plot_helpers::{bytes_axis, bytes_grid};
    // Two 1000-byte buffers alive together: a 2000-byte arena (a microcontroller's size),
    // axis top 2100 B. And two of 150 B: 300 B, axis top 315 B.
    for (bytes, want) in [
        (1000, vec!["0 B", "500 B", "1000 B", "1500 B", "2000 B"]),
        (150, vec!["0 B", "100 B", "200 B", "300 B"]),
    ] {
        let problem = problem_of(&[(0, 1, bytes, 1), (1, 2, bytes, 1)]);
        let plan = plan_with("naive", &problem);
        assert_eq!(plan.arena_bytes, 2 * bytes);
        let view = LayoutView::build(&problem, &plan);
        let top = view.axis_top();
        let text = svg::layout_svg(&problem, &view, &theme::LIGHT);
        // The byte axis' labels: right-aligned at x = 84, 4 px under their tick at
        // y = 720 - value / top * 660.
        let ticks: Vec<(String, f64)> = text
            .lines()
            .filter(|l| {
                l.starts_with("<text") && attr(l, "x") == Some(84.0) && l.contains("\"end\"")
            })
            .map(|l| {
                let y = attr(l, "y").unwrap() - 4.0;
                (text_of(l).to_string(), (720.0 - y) / 660.0 * top)
            })
            .collect();
        let labels: Vec<&str> = ticks.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(labels, want);
        for (label, at) in &ticks {
            assert!(
                (parse_bytes(label) - at).abs() < 0.1,
                "{label} drawn at {at} B"
            );
        }
        // The GUI's axis over the same range, 660 points tall, labels the same ticks.
        let marks = bytes_grid(egui_plot::GridInput {
            bounds: (0.0, top),
            base_step_size: top / 660.0 * 8.0,
        });
        let gui: Vec<String> = marks.iter().map(|m| bytes_axis(*m, &(0.0..=top))).collect();
        assert_eq!(gui, want);
    }
}

#[test]
fn padding_stops_at_the_arena_top_and_one_byte_buffers_show_over_it() {
    // hello_world_int8 on LiteRT: tensor 8 (16 B) at offset 128 ends the 144-byte arena
    // (sample_models/hello_world_int8.litert.json); aligned to 64 its padding would reach 192.
    // Tensors 0 and 9 are one byte each.
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models/hello_world_int8.tflite");
    let mut doc = Document::open(&path, arenascope::analysis::Lifetimes::Litert, None).unwrap();
    let request =
        arenascope::document::PlanRequest::defaults(&doc.source, doc.request.lifetimes, None);
    doc.plan(request).unwrap();
    let problem = doc.problem(0);
    let plan = doc.plans(0).iter().find(|p| p.planner == "litert").unwrap();
    assert_eq!(plan.arena_bytes, 144);
    let view = LayoutView::build(problem, plan);
    let top_buffer = view
        .rects
        .iter()
        .find(|r| problem.buffers[r.buffer].tensor == 8)
        .unwrap();
    assert_eq!((top_buffer.y0, top_buffer.y1), (128.0, 144.0));
    assert_eq!(top_buffer.pad_y1, 144.0, "no padding above the arena top");
    assert!(view.rects.iter().all(|r| r.pad_y1 <= 144.0));
    let tiny: Vec<usize> = view
        .rects
        .iter()
        .filter(|r| r.y1 - r.y0 == 1.0)
        .map(|r| r.buffer)
        .collect();
    assert_eq!(tiny.len(), 2);
    // SVG: hatched rectangles start at or below the arena line (y grows down), and the
    // one-byte buffers are drawn after every one of them, at least 3 px tall.
    let top = view.axis_top();
    let arena_y = 720.0 - 144.0 / top * 660.0;
    let text = svg::layout_svg(problem, &view, &theme::LIGHT);
    let lines: Vec<&str> = text.lines().collect();
    let hatches: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("<rect") && lines[i].contains("url(#hatch)\""))
        .filter(|&i| attr(lines[i], "x").unwrap() > 90.0 - 1e-9) // not the legend's swatch
        .filter(|&i| attr(lines[i], "y").unwrap() < 740.0)
        .collect();
    assert!(!hatches.is_empty());
    for &i in &hatches {
        assert!(
            attr(lines[i], "y").unwrap() >= arena_y - 0.01,
            "padding above the arena top: {}",
            lines[i]
        );
    }
    let buffers: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("<rect") && lines[i].contains("fill-opacity=\"0.90\""))
        .collect();
    assert_eq!(buffers.len(), view.rects.len());
    let last_hatch = *hatches.iter().max().unwrap();
    for &i in &buffers {
        assert!(i > last_hatch, "a buffer under the hatching: {}", lines[i]);
        assert!(attr(lines[i], "height").unwrap() >= PAINT.min_rect_height_px - 0.01);
    }
    // Screen: the padding mesh comes before the buffer fills, and the one-byte buffers are
    // quads at least 3 px tall.
    let colors = Colors::new(false);
    let pad_fill = colors.padding().gamma_multiply(0.3);
    let kinds: Vec<egui::Color32> = view.rects.iter().map(|r| colors.kind(r.kind)).collect();
    let item = LayoutItem::new(&view, problem, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 660.0));
    let (shapes, t) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([0.0, 0.0], [view.steps as f64, top]),
    );
    let mesh_with = |color: &dyn Fn(egui::Color32) -> bool| {
        shapes.iter().position(|s| match s {
            Shape::Mesh(m) => m.vertices.first().is_some_and(|v| color(v.color)),
            _ => false,
        })
    };
    let pads = mesh_with(&|c| c == pad_fill).expect("a padding mesh");
    let fills = mesh_with(&|c| kinds.contains(&c)).expect("a fills mesh");
    assert!(pads < fills, "padding painted over the buffers");
    let arena_px = t
        .position_from_point(&egui_plot::PlotPoint::new(0.0, 144.0))
        .y;
    let Shape::Mesh(pad_mesh) = &shapes[pads] else {
        unreachable!()
    };
    for v in &pad_mesh.vertices {
        assert!(v.pos.y >= arena_px - 0.01, "padding above the arena top");
    }
    let Shape::Mesh(fill_mesh) = &shapes[fills] else {
        unreachable!()
    };
    let heights: Vec<f32> = fill_mesh
        .vertices
        .chunks(4)
        .map(|q| {
            let ys = q.iter().map(|v| v.pos.y);
            ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min)
        })
        .collect();
    assert_eq!(heights.len(), view.rects.len());
    assert!(heights
        .iter()
        .all(|&h| h >= PAINT.min_rect_height_px as f32 - 0.01));
}

#[test]
fn the_layout_marks_the_peak_step_where_the_screen_does() {
    // Live bytes 10, 30, 35, 15 (the layout unit test's problem): the peak is step 2.
    let problem = problem_of(&[(0, 1, 10, 8), (1, 2, 20, 8), (2, 3, 15, 8)]);
    let plan = plan_with("size-first-fit", &problem);
    let view = LayoutView::build(&problem, &plan);
    assert_eq!(view.peaks.len(), 1);
    assert_eq!((view.peaks[0].first, view.peaks[0].last), (2, 2));
    // SVG: a dashed line at the middle of step 2 (x = 90 + 2.5 / 4 × 1280 = 890), "peak".
    let text = svg::layout_svg(&problem, &view, &theme::LIGHT);
    assert!(text.lines().any(|l| l.starts_with("<line")
        && l.contains("stroke-dasharray")
        && attr(l, "x1") == Some(890.0)
        && attr(l, "x2") == Some(890.0)));
    let peak_label = text
        .lines()
        .find(|l| l.starts_with("<text") && text_of(l) == "peak")
        .expect("a peak label");
    assert!((attr(peak_label, "x").unwrap() - 893.0).abs() < 0.01);
    // Screen: the label "peak" just right of the same step's middle.
    let colors = Colors::new(false);
    let item = LayoutItem::new(&view, &problem, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 660.0));
    let (shapes, _) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([0.0, 0.0], [4.0, view.axis_top()]),
    );
    let at: Vec<f32> = shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) if t.galley.text() == "peak" => Some(t.pos.x),
            _ => None,
        })
        .collect();
    assert_eq!(at, vec![2.5 / 4.0 * 1280.0 + 3.0]);
}

#[test]
fn the_screen_labels_every_box_the_export_labels() {
    // lstm_f32 on TFLM lifetimes: its scratch buffers are named in capitals
    // ("scratch 0 of UNIDIRECTIONAL_SEQUENCE_LSTM …"), wider than the estimate of a glyph.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models/lstm_f32.tflite");
    let mut doc = Document::open(&path, arenascope::analysis::Lifetimes::Tflm, None).unwrap();
    let request =
        arenascope::document::PlanRequest::defaults(&doc.source, doc.request.lifetimes, None);
    doc.plan(request).unwrap();
    let problem = doc.problem(0);
    let plan = doc.plans(0).iter().find(|p| p.planner == "tflm").unwrap();
    let view = LayoutView::build(problem, plan);
    let text = svg::layout_svg(problem, &view, &theme::LIGHT);
    // Buffer labels: 11 px text in the near-black label colour.
    let exported = text
        .lines()
        .filter(|l| l.starts_with("<text") && l.contains("fill=\"#101010\""))
        .count();
    let colors = Colors::new(false);
    let item = LayoutItem::new(&view, problem, colors, None, None);
    let frame = Rect::from_min_max(pos2(0.0, 0.0), pos2(1280.0, 660.0));
    let (shapes, _) = painted(
        &item,
        frame,
        PlotBounds::from_min_max([0.0, 0.0], [view.steps as f64, view.axis_top()]),
    );
    let screen: Vec<String> = shapes
        .iter()
        .filter_map(|s| match s {
            Shape::Text(t) if t.galley.text() != "peak" => Some(t.galley.text().to_string()),
            _ => None,
        })
        .collect();
    assert!(exported >= 7, "{exported} labels exported");
    assert_eq!(screen.len(), exported, "{screen:?}");
    assert!(screen
        .iter()
        .any(|l| l.starts_with("scratch 0 of UNIDIRECTIONAL")));
}
