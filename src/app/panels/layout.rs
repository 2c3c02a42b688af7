//! The address-vs-time layout of the chosen plan.

use egui_plot::{HLine, LineStyle};

use egui::RichText;

use super::plot_helpers::{
    base_plot, budget_line_within, budget_verdict, bytes_axis, bytes_grid, header_line_ui,
    header_row_ui, legend, plot_interaction, steps_axis, steps_grid, top_with_budget,
    HEADER_LINE_PX,
};
use super::{Commands, Frame};
use crate::app::plots::LayoutItem;
use crate::app::view_cache::{LayoutPanelView, LayoutSource};
use crate::view::format_bytes;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let Some(layout) = &f.views.layout else {
        return;
    };
    let height = ui.available_height();
    let lanes = &f.views.layout_lanes;
    if lanes.is_empty() {
        layout_plot(f, ui, layout, Placement::alone(height, true), out);
        return;
    }
    // LiteRT with XNNPACK: the TFLite arena above the workspace, each on its own time axis
    // (TFLite's node steps, XNNPACK's ops) and byte scale.
    let lane_height = (height - 36.0 * lanes.len() as f32) / lanes.len() as f32;
    for (i, lv) in lanes.iter().enumerate() {
        let k = match lv.source {
            LayoutSource::Problem(k) => k,
            _ => f.doc.shown,
        };
        ui.heading(f.doc.problem_label(k));
        layout_plot(f, ui, lv, Placement::alone(lane_height, i == 0), out);
    }
}

/// The problem a layout is drawn from: the shown one, the same on the file's order, or
/// another of the document (an XNNPACK lane).
pub fn problem_of<'a>(f: &Frame<'a>, lv: &LayoutPanelView) -> &'a crate::analysis::Problem {
    match (lv.source, f.doc.file_order(f.doc.shown)) {
        (LayoutSource::FileOrder, Some(file)) => &file.problem,
        (LayoutSource::Problem(k), _) => f.doc.problem(k),
        _ => f.doc.current(),
    }
}

/// Where and how a layout plot is drawn beside others.
pub struct Placement {
    /// Shares the plot's axes with the other plots of this id, which then start from the
    /// same byte range `y_top`.
    pub link: Option<egui::Id>,
    pub y_top: Option<f64>,
    pub height: f32,
    /// The colour legend in the title line (once a panel).
    pub legend: bool,
}

impl Placement {
    /// A plot on its own axes.
    pub fn alone(height: f32, legend: bool) -> Self {
        Placement {
            link: None,
            y_top: None,
            height,
            legend,
        }
    }
}

/// One plan's layout as a zoomable plot, placed by `at`.
pub fn layout_plot(
    f: &Frame,
    ui: &mut egui::Ui,
    lv: &LayoutPanelView,
    at: Placement,
    out: &mut Commands,
) {
    let Placement {
        link,
        y_top,
        height,
        legend: with_legend,
    } = at;
    let view = &lv.view;
    let colors = f.colors;
    // Whole header lines, cut where the width ends: plots side by side start at the same
    // height, so that their axes line up however long their names are.
    let title = RichText::new(view.name()).strong();
    let mut parts = vec![
        RichText::new(format!(
            "arena {} ({} B)",
            format_bytes(view.arena_bytes),
            view.arena_bytes
        )),
        RichText::new(format!("lower bound {}", format_bytes(view.lower_bound)))
            .color(colors.lower_bound()),
        RichText::new(format!(
            "+{:.2}% ({})",
            view.overhead_pct(),
            format_bytes(view.overhead_bytes())
        )),
    ];
    if let Some(b) = &f.budget {
        let (text, color) = budget_verdict(ui, view.arena_bytes, b, &colors);
        parts.push(RichText::new(text).color(color));
    }
    if link.is_none() {
        parts.push(RichText::new(format!(
            "padding {}",
            format_bytes(view.padding_bytes)
        )));
    }
    header_line_ui(ui, title, parts);
    let mut header_lines = 1.0;
    if with_legend {
        header_row_ui(ui, |ui| legend(ui, &colors));
        header_lines += 1.0;
    }
    let header_height = header_lines * (HEADER_LINE_PX + ui.spacing().item_spacing.y);
    let problem = problem_of(f, lv);
    let axis_top = top_with_budget(y_top.unwrap_or(view.axis_top()), f.budget.as_ref());
    let mut plot = base_plot(&lv.id, &colors)
        .height((height - header_height).max(40.0))
        .custom_x_axes(vec![steps_axis(if problem.partition().is_some() {
            "XNNPACK op"
        } else {
            "step"
        })])
        .x_grid_spacer(steps_grid)
        .y_axis_formatter(bytes_axis)
        .y_grid_spacer(bytes_grid)
        .y_axis_min_width(64.0)
        .include_x(0.0)
        .include_x(view.steps.max(1) as f64)
        .include_y(0.0)
        .include_y(axis_top);
    // On XNNPACK's op axis, the op under the pointer and the TFLite nodes it came from.
    if !problem.step_labels.is_empty() {
        let labels = &problem.step_labels;
        plot = plot.coordinates_formatter(
            egui_plot::Corner::RightTop,
            egui_plot::CoordinatesFormatter::new(move |pt, _| {
                let k = pt.x.floor();
                (k >= 0.0)
                    .then(|| labels.get(k as usize))
                    .flatten()
                    .map(|l| format!("XNNPACK op {k}: {l}"))
                    .unwrap_or_default()
            }),
        );
    }
    if let Some(link) = link {
        plot = plot
            .link_axis(link, [true, true])
            .link_cursor(link, [true, true]);
    }
    let arena = view.arena_bytes as f64;
    let lower = view.lower_bound as f64;
    // The same tensors, by their buffers in this problem.
    let (selected, hovered) = if lv.source != LayoutSource::Shown {
        (
            f.selection.selected_buffer(problem),
            f.selection.hovered_buffer(problem),
        )
    } else {
        (f.selected_buffer, f.hovered_buffer)
    };
    let item = LayoutItem::new(view, problem, colors, selected, hovered).with_cache(&lv.shapes);
    let budget = f.budget.and_then(|b| {
        budget_line_within(&b, axis_top, &colors).map(|line| (line, b.for_arena() as f64))
    });
    let steps = view.steps.max(1) as f64;
    let line_label = |name: &str, y: f64, color| {
        egui_plot::Text::new(
            name.to_string(),
            egui_plot::PlotPoint::new(steps, y),
            egui::RichText::new(name).size(11.0),
        )
        .anchor(egui::Align2::RIGHT_BOTTOM)
        .color(color)
    };
    let resp = plot.show(ui, move |pui| {
        pui.add(item);
        if let Some((line, y)) = budget {
            pui.hline(line);
            pui.text(line_label("budget", y, colors.budget()));
        }
        pui.hline(HLine::new("arena", arena).color(colors.arena()).width(1.5));
        pui.hline(
            HLine::new("lower bound", lower)
                .color(colors.lower_bound())
                .width(1.5)
                .style(LineStyle::dashed_loose()),
        );
        // The lines named where they end; one name where they coincide on screen (within 3 %
        // of the axis, their labels would overlap).
        if arena == lower {
            pui.text(line_label(
                "arena = lower bound",
                arena,
                colors.lower_bound(),
            ));
        } else if arena - lower < 0.03 * axis_top {
            let text = format!(
                "arena (lower bound + {})",
                format_bytes((arena - lower) as u64)
            );
            pui.text(line_label(&text, arena, colors.arena()));
        } else {
            pui.text(line_label("arena", arena, colors.arena()));
            pui.text(line_label("lower bound", lower, colors.lower_bound()));
        }
    });
    let hit = resp
        .response
        .hover_pos()
        .map(|p| resp.transform.value_from_position(p))
        .and_then(|pt| view.hit(pt.x, pt.y))
        // Another problem: its buffers are not the ones selected (the same tensors are
        // highlighted by number above).
        .filter(|_| lv.source == LayoutSource::Shown);
    plot_interaction(f, &resp.response, hit, lv.plan, out);
}
