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
    let want: Vec<[f64; 4]> = view
        .rects
        .iter()
        .map(|r| [r.x0, r.x1, r.y0, r.y1])
        .collect();
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
