//! The summary: arena per planner against the lower bound, overheads, the peak and what is
//! outside the arena.

use egui_plot::{Bar, BarChart, GridMark, HLine, LineStyle, PlotPoint, Text};

use super::plot_helpers::{base_plot, budget_line, bytes_axis, bytes_grid, top_with_budget};
use super::{Commands, Frame};
use crate::analysis::BufferKind;
use crate::app::command::Command;
use crate::app::plots::swatch;
use crate::view::{format_bytes, overhead_pct, short_name};

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let colors = f.colors;
    let Some(metrics) = &f.views.metrics else {
        return;
    };
    super::deployer::ui(f, ui, out);
    ui.separator();
    let rows = &f.views.rows;
    let problem = f.doc.current();
    let plans: Vec<(&'static str, u64, bool)> = f
        .doc
        .current_plans()
        .iter()
        .map(|p| (p.planner, p.arena_bytes, p.optimal()))
        .collect();
    let lower = metrics.first().map(|m| m.lower_bound).unwrap_or(0);
    let (n_buffers, steps, n_aliases) =
        (problem.buffers.len(), problem.steps, problem.aliases.len());
    let peak_steps: Vec<String> = metrics
        .first()
        .map(|m| m.peak_steps.iter().map(u32::to_string).collect())
        .unwrap_or_default();
    // The buffers live at the peak, largest first: (tensor, short name, full name, bytes).
    let mut peak: Vec<(usize, String, String, u64)> = metrics
        .first()
        .map(|m| {
            m.peak_buffers
                .iter()
                .map(|&i| {
                    let b = &problem.buffers[i];
                    (
                        b.tensor,
                        short_name(&b.name).to_string(),
                        b.name.clone(),
                        b.size_bytes,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    peak.sort_by_key(|p| std::cmp::Reverse(p.3));

    ui.horizontal_wrapped(|ui| {
        swatch(ui, colors.lower_bound(), false);
        ui.label("reaches the lower bound");
        swatch(ui, colors.kind(BufferKind::Activation), false);
        ui.label("above it");
        ui.separator();
        ui.label(format!("{n_buffers} buffers over {steps} steps."));
        ui.colored_label(
            colors.lower_bound(),
            format!(
                "Lower bound (max live): {} ({lower} B).",
                format_bytes(lower)
            ),
        );
        if let Some(best) = plans.iter().min_by_key(|p| p.1) {
            ui.label(format!("Best: {} with {}.", best.0, format_bytes(best.1)));
        }
    });
    let names: Vec<&'static str> = plans.iter().map(|p| p.0).collect();
    let bars: Vec<Bar> = plans
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let color = if p.2 {
                colors.lower_bound()
            } else {
                colors.kind(BufferKind::Activation)
            };
            Bar::new(i as f64, p.1 as f64)
                .name(p.0)
                .fill(color)
                .width(0.7)
        })
        .collect();
    let labels: Vec<(u64, String)> = plans
        .iter()
        .map(|p| {
            (
                p.1,
                format!("{}\n+{:.2}%", format_bytes(p.1), overhead_pct(p.1, lower)),
            )
        })
        .collect();
    let top = plans
        .iter()
        .map(|p| p.1)
        .max()
        .unwrap_or(1)
        .max(lower)
        .max(1) as f64;
    base_plot("summary-bars", &colors)
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
                .map(|v| GridMark {
                    value: v as f64,
                    step_size: 1.0,
                })
                .collect()
        })
        .include_y(0.0)
        .include_y(top_with_budget(top * 1.12, f.budget.as_ref()))
        .show(ui, |pui| {
            if let Some(b) = &f.budget {
                pui.hline(budget_line(b, &colors));
            }
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
    let mut picked = None;
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        ui.strong("Plans");
        egui::Grid::new("summary-plans")
            .striped(true)
            .num_columns(7)
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
                if f.budget.is_some() {
                    ui.strong("budget");
                }
                ui.end_row();
                for (p, m) in plans.iter().zip(metrics.iter()) {
                    ui.label(p.0);
                    ui.label(format_bytes(m.arena_bytes));
                    ui.label(format!("{:.2}%", m.overhead_pct));
                    ui.label(format_bytes(m.padding_bytes));
                    ui.label(
                        m.largest_hole
                            .map(|h| format!("{} at step {}", format_bytes(h.bytes()), h.step))
                            .unwrap_or_else(|| "—".into()),
                    );
                    ui.label(if p.2 { "yes" } else { "" });
                    if let Some(b) = &f.budget {
                        budget_cell(ui, p.1, b, &colors);
                    }
                    ui.end_row();
                }
            });
        let ui = &mut cols[1];
        ui.strong(format!(
            "Peak: {} live at step {}",
            format_bytes(lower),
            peak_steps.join(", ")
        ));
        if let Some(b) = &f.views.order_bound {
            let parts: Vec<String> = b
                .parts
                .iter()
                .take(4)
                .map(|(name, bytes)| format!("{} {}", short_name(name), format_bytes(*bytes)))
                .collect();
            let why = format!(
                "{} needs {} at once in any order ({})",
                b.label,
                format_bytes(b.bytes),
                parts.join(" + ")
            );
            if b.bytes >= lower {
                ui.label(format!("Already optimal for every order: {why}."));
            } else {
                ui.label(format!(
                    "Another execution order could lower the peak by up to {}: the bound no order beats is {} ({why}).",
                    format_bytes(lower - b.bytes),
                    format_bytes(b.bytes)
                ));
            }
        }
        egui::ScrollArea::vertical()
            .id_salt("peak-list")
            .max_height(160.0)
            .show(ui, |ui| {
                for (tensor, short, full, bytes) in peak.iter().take(200) {
                    if ui
                        .link(format!("{short} — {}", format_bytes(*bytes)))
                        .on_hover_text(full)
                        .clicked()
                    {
                        picked = Some(*tensor);
                    }
                }
            });
        ui.separator();
        ui.strong("Outside the arena");
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
        if n_aliases > 0 {
            ui.label(format!(
                "in-place outputs (sharing their input's bytes): {n_aliases}"
            ));
        }
    });
    if let Some(t) = picked {
        out.push(Command::Select(Some(t)));
    }
}

/// A plan against the budget, in a table cell: "fits" or "+N over".
fn budget_cell(
    ui: &mut egui::Ui,
    arena_bytes: u64,
    budget: &crate::document::Budget,
    colors: &crate::app::theme::Colors,
) {
    match budget.verdict(arena_bytes) {
        crate::document::Verdict::Fits { .. } => {
            ui.colored_label(colors.lower_bound(), "fits");
        }
        crate::document::Verdict::Misses { short } => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("{} over", format_bytes(short)),
            );
        }
    }
}
