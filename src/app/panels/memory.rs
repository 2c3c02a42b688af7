//! The memory curve: live bytes per step against each plan's arena; a plan far above the
//! rest is a mark at the top edge (`view::MemoryView` decides which). Hovering it reads out
//! the step, its live bytes and every plan's arena.

use egui_plot::{Corner, HLine, Legend, LineStyle, PlotPoint, Text, VLine};

use super::plot_helpers::{
    base_plot, budget_line_within, bytes_axis, bytes_grid, steps_axis, steps_grid, top_with_budget,
};
use super::{Commands, Frame};
use crate::app::plots::StepAreaItem;
use crate::view::{format_bytes, format_bytes_exact};

/// Distinct colours for the plans' arena lines.
const SERIES: [egui::Color32; 8] = [
    egui::Color32::from_rgb(0xd6, 0x27, 0x28),
    egui::Color32::from_rgb(0x1f, 0x77, 0xb4),
    egui::Color32::from_rgb(0x94, 0x67, 0xbd),
    egui::Color32::from_rgb(0x8c, 0x56, 0x4b),
    egui::Color32::from_rgb(0xe3, 0x77, 0xc2),
    egui::Color32::from_rgb(0x17, 0xbe, 0xcf),
    egui::Color32::from_rgb(0x7f, 0x7f, 0x7f),
    egui::Color32::from_rgb(0xbc, 0xbd, 0x22),
];

pub fn ui(f: &Frame, ui: &mut egui::Ui, _out: &mut Commands) {
    let Some(view) = &f.views.memory else {
        return;
    };
    let colors = f.colors;
    let before = f.views.file_memory.as_deref();
    ui.label(format!(
        "Live bytes per step (its peak is the lower bound, {}) against the arena of every plan{}",
        format_bytes(view.lower_bound),
        before.map_or(String::new(), |b| format!(
            "; dashed: the file's order, peak {}",
            format_bytes(b.lower_bound)
        ))
    ));
    let steps = view.steps.max(1) as f64;
    let top = top_with_budget(
        view.axis_top
            .max(before.map_or(0.0, |b| b.lower_bound as f64 * 1.05)),
        f.budget.as_ref(),
    );
    let before_line = before.map(|b| {
        egui_plot::Line::new(
            format!("the file's order (peak {})", format_bytes(b.lower_bound)),
            egui_plot::PlotPoints::new(super::gantt::step_points(&b.live_bytes)),
        )
        .color(colors.weak_text())
        .width(1.5)
        .style(LineStyle::dashed_loose())
    });
    let budget = f.budget;
    let resp = base_plot("memory", &colors)
        .legend(Legend::default().position(Corner::RightTop))
        .height(ui.available_height())
        .custom_x_axes(vec![steps_axis("step")])
        .y_axis_formatter(bytes_axis)
        .y_grid_spacer(bytes_grid)
        .y_axis_min_width(64.0)
        .include_y(0.0)
        .include_y(top)
        .include_x(0.0)
        .include_x(steps)
        .x_grid_spacer(steps_grid)
        .show(ui, |pui| {
            pui.add(StepAreaItem::new(
                &view.live_bytes,
                colors.kind(crate::analysis::BufferKind::Activation),
            ));
            if let Some(line) = before_line {
                pui.line(line);
            }
            pui.hline(
                HLine::new(
                    format!("lower bound {}", format_bytes(view.lower_bound)),
                    view.lower_bound as f64,
                )
                .color(colors.lower_bound())
                .width(2.0)
                .style(LineStyle::dashed_loose()),
            );
            if let Some(line) = budget.and_then(|b| budget_line_within(&b, top, &colors)) {
                pui.hline(line);
            }
            let mut off_scale = 0;
            for (k, g) in view.groups.iter().enumerate() {
                let color = SERIES[k % SERIES.len()];
                if g.off_scale {
                    // Off scale: a mark at the top-left edge with its value (not in the legend,
                    // which covers the top right), not a line that would stretch the axis.
                    let y = top * (1.0 - 0.045 * off_scale as f64);
                    off_scale += 1;
                    pui.text(
                        Text::new(
                            "",
                            PlotPoint::new(0.0, y),
                            egui::RichText::new(format!(
                                "above the axis: {} {}",
                                g.who(),
                                format_bytes_exact(g.bytes)
                            ))
                            .size(13.0)
                            .strong()
                            .color(color),
                        )
                        .anchor(egui::Align2::LEFT_TOP)
                        .color(color),
                    );
                    continue;
                }
                let label = if g.bytes == view.lower_bound {
                    format!("{} = lower bound", g.planners.join(", "))
                } else {
                    format!("{} {}", g.planners.join(", "), format_bytes(g.bytes))
                };
                pui.hline(HLine::new(label, g.bytes as f64).color(color).width(1.5));
            }
            // The step under the pointer, marked; its readout is the tooltip.
            let readout = pui.pointer_coordinate().and_then(|pt| view.readout(pt.x));
            if let Some(r) = &readout {
                pui.vline(
                    VLine::new("", r.step as f64 + 0.5)
                        .color(colors.weak_text())
                        .width(1.0),
                );
            }
            readout
        });
    if let Some(r) = resp.inner.filter(|_| resp.response.hovered()) {
        resp.response.on_hover_ui_at_pointer(|ui| {
            for line in r.lines() {
                ui.label(line);
            }
        });
    }
}
