//! The lifetime Gantt chart, with the live bytes per step under it (x axes linked).

use egui_plot::{LineStyle, VLine};

use super::plot_helpers::{base_plot, bytes_axis, bytes_grid, kind_legend, plot_interaction};
use super::{Commands, Frame};
use crate::app::plots::{GanttItem, StepAreaItem};
use crate::view::format_bytes;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let Some(view) = &f.views.gantt else {
        return;
    };
    let colors = f.colors;
    let link = egui::Id::unique(("gantt-link", f.doc.shown));
    ui.horizontal(|ui| {
        ui.label(format!("{} buffers over {} steps", view.rows, view.steps));
        let steps: Vec<String> = view.peak_steps.iter().map(u32::to_string).collect();
        ui.colored_label(
            colors.peak(),
            format!(
                "peak {} at step {}",
                format_bytes(view.lower_bound),
                steps.join(", ")
            ),
        );
        ui.separator();
        kind_legend(ui, &colors);
    });
    let total = ui.available_height();
    let resp = {
        let item = GanttItem::new(
            view,
            f.doc.current(),
            colors,
            f.selected_buffer,
            f.hovered_buffer,
        );
        let peaks: Vec<f64> = view.peak_steps.iter().map(|&s| s as f64 + 0.5).collect();
        let rows_shown = (view.rows as f64).min(60.0);
        base_plot("gantt", &colors)
            .height(total * 0.68)
            .link_axis(link, [true, false])
            .show_axes([true, false])
            .show_grid([true, false])
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
    };
    let hit = resp
        .response
        .hover_pos()
        .map(|p| resp.transform.value_from_position(p))
        .and_then(|pt| {
            let row = (-pt.y).floor();
            (row >= 0.0).then(|| view.hit(pt.x, row as usize)).flatten()
        });
    plot_interaction(f, &resp.response, hit, f.views.primary, out);
    ui.label("Live bytes per step");
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
            for &s in &view.peak_steps {
                pui.vline(
                    VLine::new("peak", s as f64 + 0.5)
                        .color(colors.peak())
                        .style(LineStyle::dashed_loose()),
                );
            }
        });
}
