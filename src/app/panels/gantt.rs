//! The lifetime Gantt chart, with the live bytes per step under it (x axes linked). Before/
//! after (plans on the memory-optimised order, the file's shown beside it): the file order's
//! chart above the optimised one's, and both live-bytes curves, the file's dashed.

use egui_plot::{Line, LineStyle, PlotPoints, VLine};

use super::plot_helpers::{base_plot, bytes_axis, bytes_grid, kind_legend, plot_interaction};
use super::{Commands, Frame};
use crate::analysis::Problem;
use crate::app::plots::{GanttItem, StepAreaItem};
use crate::view::{format_bytes, format_step_list, GanttView};

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let Some(view) = &f.views.gantt else {
        return;
    };
    let colors = f.colors;
    let link = egui::Id::unique(("gantt-link", f.doc.shown));
    let before = f
        .views
        .file_gantt
        .as_ref()
        .zip(f.doc.file_order(f.doc.shown));
    ui.horizontal(|ui| {
        ui.label(format!("{} buffers over {} steps", view.rows, view.steps));
        ui.colored_label(colors.peak(), peak_text(view));
        ui.separator();
        kind_legend(ui, &colors);
    });
    let total = ui.available_height();
    match before {
        Some((file_view, file)) => {
            ui.label(format!("The file's order: {}", peak_text(file_view)));
            let selected = f.selection.selected_buffer(&file.problem);
            let hovered = f.selection.hovered_buffer(&file.problem);
            // The file's order is another problem: hovering it selects nothing here.
            chart(
                f,
                ui,
                file_view,
                &file.problem,
                (selected, hovered),
                ("gantt-before", link, total * 0.36),
            );
            ui.label(format!("The optimised order: {}", peak_text(view)));
            let resp = chart(
                f,
                ui,
                view,
                f.doc.current(),
                (f.selected_buffer, f.hovered_buffer),
                ("gantt", link, total * 0.36),
            );
            interact(f, view, resp, out);
        }
        None => {
            let resp = chart(
                f,
                ui,
                view,
                f.doc.current(),
                (f.selected_buffer, f.hovered_buffer),
                ("gantt", link, total * 0.68),
            );
            interact(f, view, resp, out);
        }
    }
    ui.label(match before {
        Some((file_view, _)) => format!(
            "Live bytes per step (dashed: the file's order, peak {})",
            format_bytes(file_view.lower_bound)
        ),
        None => "Live bytes per step".to_string(),
    });
    let before_line = before.map(|(v, _)| {
        Line::new(
            "the file's order",
            PlotPoints::new(step_points(&v.live_bytes)),
        )
        .color(colors.weak_text())
        .width(1.5)
        .style(LineStyle::dashed_loose())
    });
    base_plot("gantt-live", &colors)
        .height(ui.available_height())
        .link_axis(link, [true, false])
        .x_axis_label("step")
        .y_axis_formatter(bytes_axis)
        .y_grid_spacer(bytes_grid)
        .y_axis_min_width(64.0)
        .include_y(0.0)
        .include_x(0.0)
        .include_x(view.steps.max(1) as f64)
        .show(ui, |pui| {
            pui.add(StepAreaItem::new(
                &view.live_bytes,
                colors.kind(crate::analysis::BufferKind::Activation),
            ));
            if let Some(line) = before_line {
                pui.line(line);
            }
            for &s in &view.peak_steps {
                pui.vline(
                    VLine::new("peak", s as f64 + 0.5)
                        .color(colors.peak())
                        .style(LineStyle::dashed_loose()),
                );
            }
        });
}

fn peak_text(view: &GanttView) -> String {
    format!(
        "peak {} at {}",
        format_bytes(view.lower_bound),
        format_step_list(&view.peak_steps)
    )
}

/// A step curve's corners: each value held from its step to the next.
pub fn step_points(values: &[u64]) -> Vec<[f64; 2]> {
    values
        .iter()
        .enumerate()
        .flat_map(|(s, &v)| [[s as f64, v as f64], [s as f64 + 1.0, v as f64]])
        .collect()
}

/// One Gantt chart of `problem`, its selected and hovered buffers highlighted; `plot`: its id,
/// the x-axis link and its height.
fn chart(
    f: &Frame,
    ui: &mut egui::Ui,
    view: &GanttView,
    problem: &Problem,
    (selected, hovered): (Option<usize>, Option<usize>),
    (id, link, height): (&str, egui::Id, f32),
) -> egui_plot::PlotResponse<()> {
    let colors = f.colors;
    let item = GanttItem::new(view, problem, colors, selected, hovered);
    let peaks: Vec<f64> = view.peak_steps.iter().map(|&s| s as f64 + 0.5).collect();
    let rows_shown = (view.rows as f64).min(60.0);
    base_plot(id, &colors)
        .height(height)
        .link_axis(link, [true, false])
        // A y axis with no labels, as wide as the live-bytes plot's, so that the steps of
        // every chart line up under each other.
        .show_grid([true, false])
        .y_axis_formatter(|_, _| String::new())
        .y_axis_min_width(64.0)
        .include_x(0.0)
        .include_x(view.steps.max(1) as f64)
        .include_y(0.0)
        .include_y(-rows_shown)
        .show(ui, move |pui| {
            pui.add(item);
            for x in peaks {
                pui.vline(
                    VLine::new("peak", x)
                        .color(colors.peak())
                        .style(LineStyle::dashed_loose()),
                );
            }
        })
}

/// Hover and click on the shown problem's chart.
fn interact(f: &Frame, view: &GanttView, resp: egui_plot::PlotResponse<()>, out: &mut Commands) {
    let hit = resp
        .response
        .hover_pos()
        .map(|p| resp.transform.value_from_position(p))
        .and_then(|pt| {
            let row = (-pt.y).floor();
            (row >= 0.0).then(|| view.hit(pt.x, row as usize)).flatten()
        });
    plot_interaction(f, &resp.response, hit, f.views.primary, out);
}
