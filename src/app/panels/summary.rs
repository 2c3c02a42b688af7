//! The summary: arena per planner against the lower bound, overheads, the peak and what is
//! outside the arena.

use egui_plot::{Bar, BarChart, HLine, LineStyle, PlotPoint, Text};

use super::{bytes_axis, bytes_grid};
use crate::app::{ArenaApp, Command};
use crate::plan;
use crate::view::format_bytes;

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let colors = app.colors();
    let problem = app.doc.problem(app.problem).clone();
    let plans = app.doc.plans(app.problem).to_vec();
    let lower = problem.lower_bound();
    ui.horizontal_wrapped(|ui| {
        super::super::plots::swatch(ui, colors.lower_bound(), false);
        ui.label("reaches the lower bound");
        super::super::plots::swatch(
            ui,
            colors.kind(crate::analysis::BufferKind::Activation),
            false,
        );
        ui.label("above it");
        ui.separator();
        ui.label(format!(
            "{} buffers over {} steps.",
            problem.buffers.len(),
            problem.steps
        ));
        ui.colored_label(
            colors.lower_bound(),
            format!(
                "Lower bound (max live): {} ({} B).",
                format_bytes(lower),
                lower
            ),
        );
        if let Some(best) = plans.iter().min_by_key(|p| p.arena_bytes) {
            ui.label(format!(
                "Best: {} with {}.",
                best.planner,
                format_bytes(best.arena_bytes)
            ));
        }
    });
    let names: Vec<&'static str> = plans.iter().map(|p| p.planner).collect();
    let bars: Vec<Bar> = plans
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let color = if p.optimal() {
                colors.lower_bound()
            } else {
                colors.kind(crate::analysis::BufferKind::Activation)
            };
            Bar::new(i as f64, p.arena_bytes as f64)
                .name(p.planner)
                .fill(color)
                .width(0.7)
        })
        .collect();
    let labels: Vec<(u64, String)> = plans
        .iter()
        .map(|p| {
            let over = p.arena_bytes.saturating_sub(lower);
            let pct = if lower > 0 {
                100.0 * over as f64 / lower as f64
            } else {
                0.0
            };
            (
                p.arena_bytes,
                format!("{}\n+{:.2}%", format_bytes(p.arena_bytes), pct),
            )
        })
        .collect();
    let top = plans
        .iter()
        .map(|p| p.arena_bytes)
        .max()
        .unwrap_or(1)
        .max(lower)
        .max(1) as f64;
    super::base_plot("summary-bars", &colors)
        .height(ui.available_height() * 0.42)
        .y_axis_formatter(bytes_axis)
        .y_grid_spacer(bytes_grid)
        .y_axis_min_width(64.0)
        .x_axis_formatter(move |m, _| {
            let i = m.value.round();
            if (m.value - i).abs() < 1e-6 && i >= 0.0 {
                names
                    .get(i as usize)
                    .map(|s| s.to_string())
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .x_grid_spacer(move |input| {
            let (lo, hi) = input.bounds;
            (lo.ceil().max(0.0) as i64..=hi.floor() as i64)
                .map(|v| egui_plot::GridMark {
                    value: v as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .include_y(0.0)
        .include_y(top * 1.12)
        .show(ui, |pui| {
            pui.bar_chart(BarChart::new("arena", bars));
            for (i, p) in labels.iter().enumerate() {
                pui.text(
                    Text::new(
                        format!("bar {i}"),
                        PlotPoint::new(i as f64, p.0 as f64),
                        p.1.clone(),
                    )
                    .anchor(egui::Align2::CENTER_BOTTOM)
                    .color(colors.text()),
                );
            }
            pui.hline(
                HLine::new("lower bound", lower as f64)
                    .color(colors.lower_bound())
                    .width(2.0)
                    .style(LineStyle::dashed_loose()),
            );
        });
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.strong("Plans");
        egui::Grid::new("summary-plans")
            .striped(true)
            .num_columns(6)
            .show(ui, |ui| {
                for h in [
                    "planner",
                    "arena",
                    "overhead",
                    "padding",
                    "largest hole",
                    "optimal",
                ] {
                    ui.strong(h);
                }
                ui.end_row();
                for p in &plans {
                    let m = plan::metrics(&problem, &p.offsets);
                    ui.label(p.planner);
                    ui.label(format_bytes(m.arena_bytes));
                    ui.label(format!("{:.2}%", m.overhead_pct));
                    ui.label(format_bytes(m.padding_bytes));
                    ui.label(
                        m.largest_hole
                            .map(|h| format!("{} at step {}", format_bytes(h.bytes()), h.step))
                            .unwrap_or_else(|| "—".into()),
                    );
                    ui.label(if p.optimal() { "yes" } else { "" });
                    ui.end_row();
                }
            });
        let ui = &mut cols[1];
        let m = plan::metrics(
            &problem,
            &plans.first().map(|p| p.offsets.clone()).unwrap_or_default(),
        );
        let steps: Vec<String> = m.peak_steps.iter().map(u32::to_string).collect();
        ui.strong(format!(
            "Peak: {} live at step {}",
            format_bytes(lower),
            steps.join(", ")
        ));
        egui::ScrollArea::vertical()
            .id_salt("peak-list")
            .max_height(160.0)
            .show(ui, |ui| {
                let mut peak = m.peak_buffers.clone();
                peak.sort_by_key(|&i| std::cmp::Reverse(problem.buffers[i].size_bytes));
                for i in peak {
                    let b = &problem.buffers[i];
                    if ui
                        .link(format!(
                            "{} — {}",
                            crate::view::short_name(&b.name),
                            format_bytes(b.size_bytes)
                        ))
                        .on_hover_text(&b.name)
                        .clicked()
                    {
                        app.push(Command::Select(Some(b.tensor)));
                    }
                }
            });
        ui.separator();
        ui.strong("Outside the arena");
        let rows = app.tensor_rows();
        for kind in ["constant", "variable", "persistent", "dynamic"] {
            let (n, bytes) = rows
                .iter()
                .filter(|r| r.kind == kind)
                .fold((0, 0u64), |(n, b), r| (n + 1, b + r.bytes));
            if n > 0 {
                let what = match kind {
                    "constant" => "constants (weights, memory-mapped)",
                    "variable" => "variables (persistent state)",
                    "persistent" => "persistent tensors (outside the reusable arena)",
                    _ => "dynamic tensors (sized at run time)",
                };
                ui.label(format!("{n} {what}: {}", format_bytes(bytes)));
            }
        }
        let aliases = problem.aliases.len();
        if aliases > 0 {
            ui.label(format!(
                "in-place outputs (sharing their input's bytes): {aliases}"
            ));
        }
    });
}
