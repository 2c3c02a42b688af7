//! What every plot panel shares: the plot's settings, byte axes, colour keys, and what the
//! pointer does over a plot.

use super::{Commands, Frame};
use crate::app::command::Command;
use crate::app::plots::swatch;
use crate::app::theme::Colors;
use crate::document::{Budget, Verdict};
use crate::view;

/// What a pointer over a plot does: hovering a buffer highlights it and shows its tooltip,
/// clicking selects it; clicking empty space clears the selection; a double-click (which
/// resets the view) leaves the selection as it was.
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
            // A double-click resets the view: its second click puts back what the first picked.
            if response.double_clicked() {
                out.push(Command::RevertSelect);
            } else if response.clicked() {
                out.push(Command::Select(Some(t)));
            }
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| super::details::buffer_tooltip(f, ui, b, Some(plan)));
        }
        None => {
            if response.double_clicked() {
                out.push(Command::RevertSelect);
            } else if response.clicked() {
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

/// Y axis labels in bytes: each its tick's value exactly, in the unit of the tick step
/// (`view::format_axis_tick`, as the SVG export labels them).
pub fn bytes_axis(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    if mark.value < 0.0 {
        String::new()
    } else {
        view::format_axis_tick(mark.value.round() as u64, mark.step_size.round() as u64)
    }
}

/// The plot's length along an axis in points, from egui_plot's grid input (its
/// `base_step_size` is the value of `MIN_GRID_SPACING_PX` points).
fn axis_length_px(input: &egui_plot::GridInput) -> f64 {
    let (lo, hi) = input.bounds;
    (hi - lo) / input.base_step_size.max(f64::MIN_POSITIVE) * MIN_GRID_SPACING_PX
}

/// egui_plot's default smallest grid spacing, points (`Plot::grid_spacing`'s minimum).
const MIN_GRID_SPACING_PX: f64 = 8.0;

/// Grid marks on a byte axis at whole numbers of B, KiB or MiB (`view::byte_tick_step`), at
/// most six and never closer than egui_plot shows labels (30 points).
pub fn bytes_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = (input.bounds.0.max(0.0), input.bounds.1.max(1.0));
    let target = ((axis_length_px(&input) / 32.0).floor() as usize).clamp(1, 6);
    let step = view::byte_tick_step(lo, hi, target);
    view::byte_ticks_every(lo, hi, step)
        .into_iter()
        .map(|t| egui_plot::GridMark {
            value: t,
            step_size: step as f64,
        })
        .collect()
}

/// Step labels are shown from this far apart, points (short numbers: egui_plot's default
/// for x axes, 60 points, leaves a narrow compare pane with one tick or none).
pub const STEP_LABEL_SPACING_PX: f32 = 36.0;

/// The x axis of a plot over steps, labelled `label`, whose ticks show from
/// `STEP_LABEL_SPACING_PX` apart (with `steps_grid`).
pub fn steps_axis<'a>(label: &str) -> egui_plot::AxisHints<'a> {
    egui_plot::AxisHints::new_x()
        .label(label.to_string())
        .label_spacing(STEP_LABEL_SPACING_PX..=STEP_LABEL_SPACING_PX + 12.0)
}

/// Grid marks on a step axis at whole steps, 1, 2, 5, 10, … apart: at most ten in view and
/// never closer than `steps_axis` shows their labels, so that every pane of the compare panel
/// keeps its step ticks; never between two steps.
pub fn steps_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let span = (hi - lo).max(1.0);
    let px = axis_length_px(&input).max(1.0);
    let max_ticks = (px / (STEP_LABEL_SPACING_PX as f64 + 12.0))
        .floor()
        .clamp(1.0, 10.0);
    let step = [1.0, 2.0, 5.0]
        .iter()
        .flat_map(|f| (0..12).map(move |e| f * 10f64.powi(e)))
        .filter(|s| span / s <= max_ticks)
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

/// The budget line when it belongs on an axis that reaches `top`: not when the budget leaves
/// nothing for the arena (the header says so; a line at 0 would read as a budget of 0), nor
/// when it is above the axis (drawn, it would stretch the axis and squash the plans).
pub fn budget_line_within(budget: &Budget, top: f64, colors: &Colors) -> Option<egui_plot::HLine> {
    let y = budget.for_arena() as f64;
    (y > 0.0 && y <= top).then(|| budget_line(budget, colors))
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
    let (text, color) = budget_verdict(ui, arena_bytes, budget, colors);
    ui.colored_label(color, text);
}

/// The budget verdict's words and colour.
pub fn budget_verdict(
    ui: &egui::Ui,
    arena_bytes: u64,
    budget: &Budget,
    colors: &Colors,
) -> (String, egui::Color32) {
    match budget.verdict(arena_bytes) {
        Verdict::Fits { spare } => (
            format!("fits the budget ({} spare)", view::format_bytes(spare)),
            colors.lower_bound(),
        ),
        Verdict::Misses { short } => (
            format!(
                "misses the budget by {} ({short} B)",
                view::format_bytes(short)
            ),
            ui.visuals().error_fg_color,
        ),
    }
}

/// Height of one line of a plot's header, points: headers are whole lines, so that plots
/// side by side start at the same height and their axes line up.
pub const HEADER_LINE_PX: f32 = 20.0;

/// One header line of a plot: its title (at most half the line), then the other parts
/// separated by two spaces, each cut with "…" where its width ends (egui shows the whole text
/// on hover then); always `HEADER_LINE_PX` tall.
pub fn header_line_ui(ui: &mut egui::Ui, title: egui::RichText, parts: Vec<egui::RichText>) {
    let mut job = egui::text::LayoutJob::default();
    let style = ui.style().clone();
    for (k, part) in parts.into_iter().enumerate() {
        if k > 0 {
            egui::RichText::new("  ").append_to(
                &mut job,
                &style,
                egui::FontSelection::Default,
                egui::Align::Center,
            );
        }
        part.append_to(
            &mut job,
            &style,
            egui::FontSelection::Default,
            egui::Align::Center,
        );
    }
    header_row_ui(ui, |ui| {
        ui.scope(|ui| {
            ui.set_max_width(ui.available_width() / 2.0);
            ui.add(egui::Label::new(title).truncate());
        });
        ui.add(egui::Label::new(job).truncate());
    });
}

/// One row of a plot's header, left to right, always `HEADER_LINE_PX` tall and the full width.
pub fn header_row_ui(ui: &mut egui::Ui, add_contents: impl FnOnce(&mut egui::Ui)) {
    let size = egui::vec2(ui.available_width(), HEADER_LINE_PX);
    ui.allocate_ui_with_layout(
        size,
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_size(size);
            add_contents(ui);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// egui_plot's grid input for `[lo, hi]` shown over `px` points.
    fn input(lo: f64, hi: f64, px: f64) -> egui_plot::GridInput {
        egui_plot::GridInput {
            bounds: (lo, hi),
            base_step_size: (hi - lo) / px * MIN_GRID_SPACING_PX,
        }
    }

    fn values(marks: &[egui_plot::GridMark]) -> Vec<f64> {
        marks.iter().map(|m| m.value).collect()
    }

    #[test]
    fn a_narrow_pane_keeps_step_ticks_far_enough_apart_to_be_labelled() {
        // One of four compare panes, 200 points over five steps (and a little margin).
        let marks = steps_grid(input(-0.2, 5.2, 200.0));
        assert_eq!(values(&marks), vec![0.0, 2.0, 4.0]);
        let spacing = marks[0].step_size * 200.0 / 5.4;
        assert!(spacing >= STEP_LABEL_SPACING_PX as f64, "{spacing} points");
        // A wide plot over 300 steps: ten at most, whole steps.
        let marks = steps_grid(input(0.0, 300.0, 1280.0));
        assert_eq!(marks[1].value - marks[0].value, 50.0);
        assert!(marks.iter().all(|m| m.value.fract() == 0.0));
    }

    #[test]
    fn byte_grid_marks_are_labelled_with_their_exact_values() {
        let marks = bytes_grid(input(0.0, 2100.0, 600.0));
        let labels: Vec<String> = marks.iter().map(|m| bytes_axis(*m, &(0.0..=1.0))).collect();
        assert_eq!(labels, ["0 B", "500 B", "1000 B", "1500 B", "2000 B"]);
        // A short plot (a lane): fewer ticks, never closer than 32 points.
        let marks = bytes_grid(input(0.0, 2100.0, 100.0));
        assert_eq!(values(&marks), vec![0.0, 1024.0, 2048.0]);
    }
}
