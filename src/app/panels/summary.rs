//! The summary: the deployer's number, then the arena per planner against the lower bound
//! (bars and a table), the peak and what is outside the arena. A plan far above the rest
//! (naive, usually) is drawn cut at the end of the byte axis and marked, as the memory curve
//! marks it, so that the plans worth comparing keep the length of the chart.

use egui_plot::{Bar, BarChart, GridMark, LineStyle, PlotPoint, Text, VLine};

use super::plot_helpers::{base_plot, bytes_axis, bytes_grid, top_with_budget};
use super::{Commands, Frame};
use crate::analysis::BufferKind;
use crate::app::command::Command;
use crate::app::plots::swatch;
use crate::app::theme::Colors;
use crate::document::{Budget, Verdict};
use crate::plan::Metrics;
use crate::view::{format_bytes, overhead_pct, short_name, PAINT};

/// The peak list and what is outside the arena go beside the plans table when this much
/// width is left of the panel, px; below it otherwise.
const SIDE_MIN_WIDTH: f32 = 340.0;

/// One plan as the summary shows it.
#[derive(Clone, Debug, PartialEq)]
struct PlanBar {
    planner: &'static str,
    arena_bytes: u64,
    /// At the lower bound or a proven bound.
    optimal: bool,
}

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let Some(metrics) = &f.views.metrics else {
        return;
    };
    super::deployer::ui(f, ui, out);
    ui.separator();
    let plans: Vec<PlanBar> = f
        .doc
        .current_plans()
        .iter()
        .map(|p| PlanBar {
            planner: p.planner,
            arena_bytes: p.arena_bytes,
            optimal: p.optimal(),
        })
        .collect();
    let lower = metrics.first().map_or(0, |m| m.lower_bound);
    header_ui(f, ui, &plans, lower);
    bars_ui(f, ui, &plans, lower);
    let mut picked = None;
    egui::ScrollArea::vertical()
        .id_salt("summary-below-bars")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let mut beside = false;
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| plans_table_ui(f, ui, &plans, metrics));
                ui.add_space(2.0 * ui.spacing().item_spacing.x);
                if ui.available_width() >= SIDE_MIN_WIDTH {
                    beside = true;
                    ui.vertical(|ui| {
                        picked = peak_ui(f, ui, metrics);
                        outside_ui(f, ui);
                    });
                }
            });
            if !beside {
                ui.separator();
                picked = peak_ui(f, ui, metrics);
                outside_ui(f, ui);
            }
        });
    if let Some(t) = picked {
        out.push(Command::Select(Some(t)));
    }
}

/// The colour key of the bars, the problem's size, the lower bound and the best plan.
fn header_ui(f: &Frame, ui: &mut egui::Ui, plans: &[PlanBar], lower: u64) {
    let colors = f.colors;
    let problem = f.doc.current();
    ui.horizontal_wrapped(|ui| {
        swatch(ui, colors.lower_bound(), false);
        ui.label("reaches the lower bound");
        swatch(ui, colors.kind(BufferKind::Activation), false);
        ui.label("above it");
        if let Some(b) = &f.budget {
            swatch(ui, colors.budget(), false);
            ui.label(format!(
                "budget ({} for the arena)",
                format_bytes(b.for_arena())
            ));
        }
        ui.separator();
        ui.label(format!(
            "{} buffers over {} steps.",
            problem.buffers.len(),
            problem.steps
        ));
        ui.colored_label(
            colors.lower_bound(),
            format!(
                "Lower bound (max live): {} ({lower} B).",
                format_bytes(lower)
            ),
        );
        let runtime = problem.lifetimes.map(|l| l.name());
        if let Some(best) = best_line(plans, runtime) {
            ui.label(best);
        }
    });
}

/// The arena of every plan as a horizontal bar, the planner's name beside it and its bytes
/// and overhead at its end (readable at any width); the lower bound and the budget as lines;
/// a plan off the scale cut at the edge and marked.
fn bars_ui(f: &Frame, ui: &mut egui::Ui, plans: &[PlanBar], lower: u64) {
    let colors = f.colors;
    let arenas: Vec<u64> = plans.iter().map(|p| p.arena_bytes).collect();
    let scale = BarScale::of(&arenas, lower);
    // Labels at the size of the body text, with room for them right of the longest bar.
    let font = egui::TextStyle::Body.resolve(ui.style()).size;
    let names: Vec<&'static str> = plans.iter().map(|p| p.planner).collect();
    let name_px = names.iter().map(|n| n.len()).max().unwrap_or(0) as f32 * font * 0.6 + 12.0;
    let label_px = 20.0 * font * 0.6;
    let plot_px = (ui.available_width() - name_px).max(1.0);
    let room = (label_px / plot_px).clamp(0.1, 0.6) as f64;
    let x_top = top_with_budget(scale.top_bytes as f64 / (1.0 - room), f.budget.as_ref());
    // A budget far above the plans is not drawn (the line would stretch the axis): a note
    // under the chart says where it is.
    let (budget, budget_above) = match f.budget {
        Some(b) if b.for_arena() as f64 > x_top => (None, Some(b)),
        b => (b, None),
    };
    let rows = plans.len().max(1) as f64;
    let height = (ui.available_height() * 0.42).max(rows as f32 * 1.8 * font + 40.0);
    base_plot("summary-bars", &colors)
        .height(height)
        .x_axis_formatter(bytes_axis)
        .x_grid_spacer(bytes_grid)
        .y_axis_formatter(move |m, _| planner_tick(&names, rows - 1.0 - m.value))
        .y_grid_spacer(whole_steps)
        .y_axis_min_width(name_px)
        .include_x(0.0)
        .include_x(x_top)
        .include_y(-0.6)
        .include_y(rows - 0.4)
        .show(ui, |pui| {
            pui.bar_chart(bar_chart(plans, &scale, x_top, &colors));
            if let Some(b) = &budget {
                pui.vline(budget_vline(b, &colors));
            }
            pui.vline(
                VLine::new("lower bound", lower as f64)
                    .color(colors.lower_bound())
                    .width(2.0)
                    .style(LineStyle::dashed_loose()),
            );
            // Labels last: over the lines that cross the bars' ends.
            bar_labels(pui, plans, &scale, (lower, x_top), (font, colors.text()));
        });
    if let Some(b) = budget_above {
        ui.colored_label(
            colors.budget(),
            format!(
                "The budget line is right of the chart: {} for the arena ({} less {} outside it).",
                format_bytes(b.for_arena()),
                format_bytes(b.bytes),
                format_bytes(b.outside_bytes)
            ),
        );
    }
}

/// The budget as a dashed line across the bars (`plot_helpers::budget_line`, upright).
fn budget_vline(budget: &Budget, colors: &Colors) -> VLine {
    let label = if budget.outside_bytes > 0 {
        format!(
            "budget {} less {} outside the arena",
            format_bytes(budget.bytes),
            format_bytes(budget.outside_bytes)
        )
    } else {
        format!("budget {}", format_bytes(budget.bytes))
    };
    VLine::new(label, budget.for_arena() as f64)
        .color(colors.budget())
        .width(2.0)
        .style(LineStyle::dashed_dense())
}

/// Each bar's arena and overhead at its end (given the lower bound and the axis end); an
/// off-scale bar's inside its cut end, saying so. The labels' font size and colour last.
fn bar_labels(
    pui: &mut egui_plot::PlotUi,
    plans: &[PlanBar],
    scale: &BarScale,
    (lower, x_top): (u64, f64),
    (size, color): (f32, egui::Color32),
) {
    let rows = plans.len() as f64;
    for (i, (p, &off)) in plans.iter().zip(&scale.off_scale).enumerate() {
        let over = over_label(p.arena_bytes, lower);
        let bytes = format_bytes(p.arena_bytes);
        let (text, x, anchor) = if off {
            let t = format!("{bytes}  {over}, beyond the axis  ");
            (t, x_top, egui::Align2::RIGHT_CENTER)
        } else {
            let t = format!("  {bytes}  {over}");
            (t, p.arena_bytes as f64, egui::Align2::LEFT_CENTER)
        };
        let rich = egui::RichText::new(text).size(size).color(color);
        let at = PlotPoint::new(x, rows - 1.0 - i as f64);
        pui.text(Text::new(format!("bar {i}"), at, rich).anchor(anchor));
    }
}

/// One bar per plan, the first on top: at the bound in the bound's colour, above it in the
/// activations'; a plan off the scale reaches the end of the axis (`x_top`), paler.
fn bar_chart(plans: &[PlanBar], scale: &BarScale, x_top: f64, colors: &Colors) -> BarChart {
    let rows = plans.len() as f64;
    let bars: Vec<Bar> = plans
        .iter()
        .zip(&scale.off_scale)
        .enumerate()
        .map(|(i, (p, &off))| {
            let fill = match (p.optimal, off) {
                (true, _) => colors.lower_bound(),
                (false, false) => colors.kind(BufferKind::Activation),
                (false, true) => colors.kind(BufferKind::Activation).gamma_multiply(0.4),
            };
            let length = if off { x_top } else { p.arena_bytes as f64 };
            Bar::new(rows - 1.0 - i as f64, length)
                .name(p.planner)
                .fill(fill)
                .width(0.7)
        })
        .collect();
    // The pointer's readout: the plan's own arena, also where the bar is cut.
    let arenas: Vec<(&'static str, u64)> =
        plans.iter().map(|p| (p.planner, p.arena_bytes)).collect();
    let chart = BarChart::new("arena", bars).horizontal();
    chart.element_formatter(Box::new(move |bar, _| {
        let i = (rows - 1.0 - bar.argument).round().max(0.0) as usize;
        arenas.get(i).map_or_else(String::new, |(id, bytes)| {
            format!("{id}: {bytes} B ({})", format_bytes(*bytes))
        })
    }))
}

/// The axis of the bars' names: the planner's name at each bar (`value`: its plan index).
fn planner_tick(names: &[&str], value: f64) -> String {
    let i = value.round();
    if (value - i).abs() < 1e-6 && i >= 0.0 {
        names
            .get(i as usize)
            .map(|s| s.to_string())
            .unwrap_or_default()
    } else {
        String::new()
    }
}

/// Grid marks at every whole number in view (one per bar).
fn whole_steps(input: egui_plot::GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    (lo.ceil().max(0.0) as i64..=hi.floor() as i64)
        .map(|v| GridMark {
            value: v as f64,
            step_size: 1.0,
        })
        .collect()
}

/// Arena (in the bound's colour where optimal, as on the bars), overhead, padding, largest
/// hole (its step on hover) and the budget of every plan. Cells are kept short so that the
/// table fits beside the peak list at 1600 px and alone at 1000 px; narrower, it scrolls
/// sideways.
fn plans_table_ui(f: &Frame, ui: &mut egui::Ui, plans: &[PlanBar], metrics: &[Metrics]) {
    ui.strong("Plans");
    let headers = ["planner", "arena", "overhead", "padding", "largest hole"];
    egui::ScrollArea::horizontal()
        .id_salt("summary-plans-scroll")
        .show(ui, |ui| {
            egui::Grid::new("summary-plans")
                .striped(true)
                .num_columns(headers.len() + usize::from(f.budget.is_some()))
                .show(ui, |ui| {
                    for h in headers {
                        ui.strong(h);
                    }
                    if f.budget.is_some() {
                        ui.strong("budget");
                    }
                    ui.end_row();
                    for (p, m) in plans.iter().zip(metrics) {
                        plan_row_ui(f, ui, p, m);
                        ui.end_row();
                    }
                });
        });
}

/// One row of the plans table.
fn plan_row_ui(f: &Frame, ui: &mut egui::Ui, p: &PlanBar, m: &Metrics) {
    ui.label(p.planner);
    let arena = format_bytes(m.arena_bytes);
    if p.optimal {
        ui.colored_label(f.colors.lower_bound(), arena)
            .on_hover_text("optimal: at the lower bound or a proven bound");
    } else {
        ui.label(arena);
    }
    ui.label(over_label(m.arena_bytes, m.lower_bound));
    ui.label(format_bytes(m.padding_bytes));
    match m.largest_hole {
        Some(h) => {
            ui.label(format_bytes(h.bytes())).on_hover_text(format!(
                "{} B free below the top at step {}",
                h.bytes(),
                h.step
            ));
        }
        None => {
            ui.label("—");
        }
    }
    if let Some(b) = &f.budget {
        budget_cell(ui, p.arena_bytes, b, &f.colors);
    }
}

/// The peak: its bytes and steps, what bounds every order, and the buffers live at it
/// (largest first; a click selects one). Returns the tensor clicked.
fn peak_ui(f: &Frame, ui: &mut egui::Ui, metrics: &[Metrics]) -> Option<usize> {
    let problem = f.doc.current();
    let m = metrics.first()?;
    let lower = m.lower_bound;
    ui.strong(format!(
        "Peak: {} live at {}",
        format_bytes(lower),
        crate::view::format_step_list(&m.peak_steps)
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
    let mut peak: Vec<&crate::analysis::Buffer> = m
        .peak_buffers
        .iter()
        .filter_map(|&i| problem.buffers.get(i))
        .collect();
    peak.sort_by_key(|b| std::cmp::Reverse(b.size_bytes));
    let mut picked = None;
    egui::ScrollArea::vertical()
        .id_salt("peak-list")
        .max_height(160.0)
        .show(ui, |ui| {
            for b in peak.iter().take(200) {
                let text = format!("{} — {}", short_name(&b.name), format_bytes(b.size_bytes));
                if ui.link(text).on_hover_text(&b.name).clicked() {
                    picked = Some(b.tensor);
                }
            }
        });
    picked
}

/// What the runtime keeps outside the planned arena, by kind, and the in-place outputs.
fn outside_ui(f: &Frame, ui: &mut egui::Ui) {
    ui.separator();
    ui.strong("Outside the arena");
    use crate::analysis::OutsideReason;
    use crate::document::RowKind;
    for (kind, what) in [
        (RowKind::Constant, "constants (weights, memory-mapped)"),
        (
            RowKind::Outside(OutsideReason::Variable),
            "variables (persistent state)",
        ),
        (
            RowKind::Outside(OutsideReason::Persistent),
            "persistent tensors (outside the reusable arena)",
        ),
        (
            RowKind::Outside(OutsideReason::Dynamic),
            "dynamic tensors (sized at run time)",
        ),
    ] {
        let (n, bytes) = f
            .views
            .rows
            .iter()
            .filter(|r| r.kind == kind)
            .fold((0, 0u64), |(n, b), r| (n + 1, b + r.bytes));
        if n > 0 {
            ui.label(format!("{n} {what}: {}", format_bytes(bytes)));
        }
    }
    let aliases = f.doc.current().aliases.len();
    if aliases > 0 {
        ui.label(format!(
            "in-place outputs (sharing their input's bytes): {aliases}"
        ));
    }
}

/// A plan against the budget, in a table cell: "fits" or "N over".
fn budget_cell(ui: &mut egui::Ui, arena_bytes: u64, budget: &Budget, colors: &Colors) {
    match budget.verdict(arena_bytes) {
        Verdict::Fits { .. } => {
            ui.colored_label(colors.lower_bound(), "fits");
        }
        Verdict::Misses { short } => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("{} over", format_bytes(short)),
            );
        }
    }
}

/// The byte scale of the bars: the plans worth comparing set the top; a plan more than
/// `PAINT.off_scale_factor` times the lower bound is off the scale (unless every plan is),
/// as on the memory curve.
#[derive(Clone, Debug, PartialEq)]
struct BarScale {
    /// The highest bar on the scale, or the lower bound if higher (at least 1).
    top_bytes: u64,
    /// Per plan, in the order given.
    off_scale: Vec<bool>,
}

impl BarScale {
    fn of(arenas: &[u64], lower: u64) -> Self {
        let limit = lower.max(1) as f64 * PAINT.off_scale_factor;
        let mut off_scale: Vec<bool> = arenas.iter().map(|&a| a as f64 > limit).collect();
        if off_scale.iter().all(|&o| o) {
            off_scale.iter_mut().for_each(|o| *o = false);
        }
        let top_bytes = arenas
            .iter()
            .zip(&off_scale)
            .filter(|(_, &off)| !off)
            .map(|(&a, _)| a)
            .max()
            .unwrap_or(0)
            .max(lower)
            .max(1);
        BarScale {
            top_bytes,
            off_scale,
        }
    }
}

/// A plan's overhead over the lower bound: `+0 %` at the bound, `+N B` when the percentage
/// would round to zero (a few bytes over a large bound), else `+1.25 %`.
fn over_label(arena_bytes: u64, lower: u64) -> String {
    let over = arena_bytes.saturating_sub(lower);
    let pct = overhead_pct(arena_bytes, lower);
    if over == 0 {
        "+0 %".to_string()
    } else if pct < 0.005 {
        format!("+{}", format_bytes(over))
    } else {
        format!("+{pct:.2} %")
    }
}

/// Which plan is smallest, ties named as ties, the runtime's own planner (`runtime`) first:
/// "Best: tflm with 1.2 KiB.", "Best: tflm, size-best-fit and 2 more tie at 1.2 KiB.",
/// "All 9 planners tie at 1.2 KiB."
fn best_line(plans: &[PlanBar], runtime: Option<&str>) -> Option<String> {
    let best = plans.iter().map(|p| p.arena_bytes).min()?;
    let mut tied: Vec<&'static str> = plans
        .iter()
        .filter(|p| p.arena_bytes == best)
        .map(|p| p.planner)
        .collect();
    tied.sort_by_key(|&id| Some(id) != runtime);
    let bytes = format_bytes(best);
    Some(match tied.as_slice() {
        [one] => format!("Best: {one} with {bytes}."),
        _ if tied.len() == plans.len() => format!("All {} planners tie at {bytes}.", plans.len()),
        [a, b] => format!("Best: {a} and {b} tie at {bytes}."),
        [a, b, c] => format!("Best: {a}, {b} and {c} tie at {bytes}."),
        [a, b, rest @ ..] => format!("Best: {a}, {b} and {} more tie at {bytes}.", rest.len()),
        [] => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bars(list: &[(&'static str, u64)]) -> Vec<PlanBar> {
        list.iter()
            .map(|&(planner, arena_bytes)| PlanBar {
                planner,
                arena_bytes,
                optimal: false,
            })
            .collect()
    }

    #[test]
    fn a_plan_more_than_three_times_the_bound_is_off_the_bar_scale() {
        // Lower bound 1000: naive's 3001 B is off the scale, 3000 B is not (3 × the bound).
        let s = BarScale::of(&[3001, 1200, 3000], 1000);
        assert_eq!(s.off_scale, [true, false, false]);
        assert_eq!(s.top_bytes, 3000);
        let s = BarScale::of(&[9000, 1200, 1100], 1000);
        assert_eq!((s.off_scale, s.top_bytes), (vec![true, false, false], 1200));
        // Every plan far above the bound: none is hidden, the highest sets the top.
        let s = BarScale::of(&[5000, 4000], 1000);
        assert_eq!((s.off_scale, s.top_bytes), (vec![false, false], 5000));
        // No plans: the bound sets the top.
        assert_eq!(BarScale::of(&[], 0).top_bytes, 1);
    }

    #[test]
    fn an_overhead_too_small_for_the_percentage_reads_in_bytes() {
        assert_eq!(over_label(1000, 1000), "+0 %");
        // 64 B over 2 MiB is 0.003 %: "+0.00 %" would read as no overhead.
        assert_eq!(over_label(2 * 1024 * 1024 + 64, 2 * 1024 * 1024), "+64 B");
        // 0.005 % and up show as a percentage: 105 B over 2 MiB is 0.0050 %.
        assert_eq!(
            over_label(2 * 1024 * 1024 + 105, 2 * 1024 * 1024),
            "+0.01 %"
        );
        assert_eq!(over_label(1250, 1000), "+25.00 %");
        // A bound of zero (nothing planned) has no percentage: the bytes over it.
        assert_eq!(over_label(64, 0), "+64 B");
    }

    #[test]
    fn tied_best_plans_are_named_as_a_tie_with_the_runtimes_first() {
        let one = bars(&[("naive", 900), ("tflm", 700), ("size-best-fit", 640)]);
        assert_eq!(
            best_line(&one, Some("tflm")).unwrap(),
            "Best: size-best-fit with 640 B."
        );
        let all = bars(&[("naive", 672), ("litert", 672), ("tflm", 672)]);
        assert_eq!(
            best_line(&all, Some("tflm")).unwrap(),
            "All 3 planners tie at 672 B."
        );
        let two = bars(&[("naive", 900), ("size-best-fit", 640), ("tflm", 640)]);
        assert_eq!(
            best_line(&two, Some("tflm")).unwrap(),
            "Best: tflm and size-best-fit tie at 640 B."
        );
        // No runtime (a CSV problem): plan order.
        assert_eq!(
            best_line(&two, None).unwrap(),
            "Best: size-best-fit and tflm tie at 640 B."
        );
        let many = bars(&[
            ("naive", 900),
            ("first-fit-scan", 640),
            ("size-best-fit", 640),
            ("hill-climb", 640),
            ("tflm", 640),
        ]);
        assert_eq!(
            best_line(&many, Some("tflm")).unwrap(),
            "Best: tflm, first-fit-scan and 2 more tie at 640 B."
        );
        assert_eq!(best_line(&[], None), None);
    }
}
