//! The memory curve: live bytes per step against each plan's arena.

use egui_plot::{Corner, HLine, Legend, LineStyle};

use super::{bytes_axis, bytes_grid};
use crate::app::plots::StepAreaItem;
use crate::app::ArenaApp;
use crate::view::format_bytes;

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

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let view = app.memory_view();
    let colors = app.colors();
    ui.label(format!(
        "Live bytes per step (its peak is the lower bound, {}) against the arena of every plan",
        format_bytes(view.lower_bound)
    ));
    let top = view.top_bytes() as f64;
    // Plans with the same arena share one line and one label.
    let mut groups: Vec<(u64, Vec<&str>)> = Vec::new();
    for (name, bytes) in &view.arenas {
        match groups.iter_mut().find(|g| g.0 == *bytes) {
            Some(g) => g.1.push(name),
            None => groups.push((*bytes, vec![name])),
        }
    }
    groups.sort_by_key(|g| std::cmp::Reverse(g.0));
    let steps = view.steps.max(1) as f64;
    super::base_plot("memory", &colors)
        .legend(Legend::default().position(Corner::RightTop))
        .height(ui.available_height())
        .x_axis_label("step")
        .y_axis_formatter(bytes_axis)
        .y_grid_spacer(bytes_grid)
        .y_axis_min_width(64.0)
        .include_y(0.0)
        .include_y(top * 1.08)
        .include_x(0.0)
        .include_x(steps)
        .show(ui, |pui| {
            pui.add(StepAreaItem::new(
                &view.live_bytes,
                colors.kind(crate::analysis::BufferKind::Activation),
            ));
            pui.hline(
                HLine::new(
                    format!("lower bound {}", format_bytes(view.lower_bound)),
                    view.lower_bound as f64,
                )
                .color(colors.lower_bound())
                .width(2.0)
                .style(LineStyle::dashed_loose()),
            );
            for (k, (bytes, names)) in groups.iter().enumerate() {
                let label = if *bytes == view.lower_bound {
                    format!("{} = lower bound", names.join(", "))
                } else {
                    format!("{} {}", names.join(", "), format_bytes(*bytes))
                };
                pui.hline(
                    HLine::new(label, *bytes as f64)
                        .color(SERIES[k % SERIES.len()])
                        .width(1.5),
                );
            }
        });
}
