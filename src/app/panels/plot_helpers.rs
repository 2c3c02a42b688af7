//! What every plot panel shares: the plot's settings, byte axes, colour keys, and what the
//! pointer does over a plot.

use super::{Commands, Frame};
use crate::app::command::Command;
use crate::app::plots::swatch;
use crate::app::theme::Colors;
use crate::document::{Budget, Verdict};
use crate::view;

/// What a pointer over a plot does: hovering a buffer highlights it and shows its tooltip,
/// clicking selects it; clicking empty space clears the selection.
pub fn plot_interaction(
    f: &Frame,
    response: &egui::Response,
    hit: Option<usize>,
    plan: usize,
    out: &mut Commands,
) {
    match hit.and_then(|b| Some((b, f.tensor_of(b)?))) {
        Some((b, t)) => {
            out.push(Command::Hover(t));
            if response.clicked() {
                out.push(Command::Select(Some(t)));
            }
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| super::details::buffer_tooltip(f, ui, b, Some(plan)));
        }
        None => {
            if response.clicked() {
                out.push(Command::Select(None));
            }
        }
    }
}

/// The colour key of the layout: buffer kinds, padding, holes.
pub fn legend(ui: &mut egui::Ui, colors: &Colors) {
    kind_legend(ui, colors);
    swatch(ui, colors.padding(), true);
    ui.label("padding");
    swatch(ui, colors.hole(), false);
    ui.label("hole (free below the top)");
}

/// The colour key of the buffer kinds.
pub fn kind_legend(ui: &mut egui::Ui, colors: &Colors) {
    use crate::analysis::BufferKind;
    for (name, kind) in [
        ("input", BufferKind::Input),
        ("output", BufferKind::Output),
        ("activation", BufferKind::Activation),
        ("scratch", BufferKind::Scratch),
    ] {
        swatch(ui, colors.kind(kind), false);
        ui.label(name);
    }
}

/// A plot with the app's common settings: light grid, no box zoom (drag pans).
pub fn base_plot<'a>(id: &str, colors: &Colors) -> egui_plot::Plot<'a> {
    egui_plot::Plot::new(id)
        .grid_color(colors.grid())
        .allow_boxed_zoom(false)
        .show_crosshair(false)
}

/// Y axis labels in bytes.
pub fn bytes_axis(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    if mark.value < 0.0 {
        String::new()
    } else {
        view::format_tick(mark.value.round() as u64)
    }
}

/// Grid marks on a byte axis at round KiB / MiB values.
pub fn bytes_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let ticks = view::byte_ticks(lo.max(0.0), hi.max(1.0), 6);
    let step = if ticks.len() >= 2 {
        ticks[1] - ticks[0]
    } else {
        hi.max(1.0)
    };
    ticks
        .into_iter()
        .map(|t| egui_plot::GridMark {
            value: t,
            step_size: step,
        })
        .collect()
}

/// Grid marks on a step axis at whole steps, 1, 2, 5, 10, … apart: about ten in view, never
/// between two steps.
pub fn steps_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let span = (hi - lo).max(1.0);
    let step = [1.0, 2.0, 5.0]
        .iter()
        .flat_map(|f| (0..12).map(move |e| f * 10f64.powi(e)))
        .filter(|s| span / s <= 12.0)
        .fold(f64::MAX, f64::min);
    let first = (lo.max(0.0) / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last.max(first - 1))
        .map(|k| egui_plot::GridMark {
            value: k as f64 * step,
            step_size: step,
        })
        .collect()
}

/// The budget as a dashed line on an arena axis: the budget less what the runtime needs
/// beside the arena.
pub fn budget_line(budget: &Budget, colors: &Colors) -> egui_plot::HLine {
    let label = if budget.outside_bytes > 0 {
        format!(
            "budget {} less {} outside the arena",
            view::format_bytes(budget.bytes),
            view::format_bytes(budget.outside_bytes)
        )
    } else {
        format!("budget {}", view::format_bytes(budget.bytes))
    };
    egui_plot::HLine::new(label, budget.for_arena() as f64)
        .color(colors.budget())
        .width(2.0)
        .style(egui_plot::LineStyle::dashed_dense())
}

/// The byte axis top that also shows the budget line, unless it is so far above `top` that
/// showing it would squash the plot (then the header says how the plan stands instead).
pub fn top_with_budget(top: f64, budget: Option<&Budget>) -> f64 {
    match budget.map(|b| b.for_arena() as f64 * view::PAINT.byte_axis_headroom) {
        Some(b) if b > top && b <= top * view::PAINT.off_scale_factor => b,
        _ => top,
    }
}

/// "fits the budget (N spare)" or "misses the budget by N", coloured.
pub fn budget_verdict_ui(ui: &mut egui::Ui, arena_bytes: u64, budget: &Budget, colors: &Colors) {
    match budget.verdict(arena_bytes) {
        Verdict::Fits { spare } => ui.colored_label(
            colors.lower_bound(),
            format!("fits the budget ({} spare)", view::format_bytes(spare)),
        ),
        Verdict::Misses { short } => ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "misses the budget by {} ({short} B)",
                view::format_bytes(short)
            ),
        ),
    };
}
