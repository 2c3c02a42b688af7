//! The deployer's number, at the top of the summary: the document's [`Headline`] — the
//! runtime's own number for the file as opened, how sure it is, its parts in a stacked bar (and
//! the budget), Copy, and the secondary lines (the planner shown, the optimised order, an
//! offline plan, XNNPACK's estimates). It renders the headline and decides nothing: the CLI's
//! last lines and the exports say the same.

use super::{Commands, Frame};
use crate::analysis::xnnpack::Isa;
use crate::app::command::Command;
use crate::app::theme::Colors;
use crate::document::headline::{
    BudgetVerdict, Certainty, Headline, SecondaryKind, Subject, TflmTarget,
};
use crate::view::format_bytes;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let h = &*f.views.headline;
    let colors = f.colors;
    heading_ui(f, h, ui, out);
    ui.label(&h.detail);
    caveat_ui(h, ui);
    for line in &h.secondary {
        match line.kind {
            SecondaryKind::WithEstimates => estimates_ui(f, &line.text, ui, out),
            _ => {
                ui.label(&line.text);
            }
        }
    }
    if let Some(bytes) = f.prefs.budget {
        budget_ui(h, bytes, f.views.outside_plan_bytes, ui, &colors);
    }
    stacked_bar(ui, h, f.prefs.budget, &colors);
}

/// The headline sentence, Copy, and under TFLM the build it is for.
fn heading_ui(f: &Frame, h: &Headline, ui: &mut egui::Ui, out: &mut Commands) {
    ui.horizontal_wrapped(|ui| {
        let heading = egui::RichText::new(h.sentence()).heading();
        match h.certainty {
            Certainty::CannotRun { .. } => {
                ui.label(heading.color(ui.visuals().error_fg_color));
            }
            _ => {
                ui.label(heading);
            }
        }
        let copy = h.copy_value();
        let what = match h.subject {
            Subject::Tflm { .. } => "Copy the number for tensor_arena_size",
            _ => "Copy the number",
        };
        if ui
            .add_enabled(copy.is_some(), egui::Button::new("Copy"))
            .on_hover_text(what)
            .on_disabled_hover_text("The runtime cannot run this model: no number to copy")
            .clicked()
        {
            if let Some(n) = copy {
                ui.ctx().copy_text(n.to_string());
                out.push(Command::Notice(format!("Copied {n} to the clipboard.")));
            }
        }
        if let Subject::Tflm { target } = h.subject {
            let mut t = target;
            let label = ui.label("for the TFLM build");
            egui::ComboBox::from_id_salt("tflm-target")
                .selected_text(t.label())
                .show_ui(ui, |ui| {
                    for option in TflmTarget::ALL {
                        ui.selectable_value(&mut t, option, option.label());
                    }
                })
                .response
                .labelled_by(label.id);
            if t != f.prefs.tflm_target {
                out.push(Command::SetTflmTarget(t));
            }
        }
    });
}

/// Why the number is not exact, or why the runtime cannot run the model.
fn caveat_ui(h: &Headline, ui: &mut egui::Ui) {
    if let Certainty::CannotRun { why } = &h.certainty {
        for w in why.iter().take(8) {
            ui.colored_label(ui.visuals().error_fg_color, format!("• {w}"));
        }
        if why.len() > 8 {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("… and {} more", why.len() - 8),
            );
        }
    }
    if let Some(c) = h.caveat() {
        ui.colored_label(ui.visuals().warn_fg_color, c);
    }
}

/// XNNPACK's estimated allocations outside the plan, with the CPU class they are for.
fn estimates_ui(f: &Frame, text: &str, ui: &mut egui::Ui, out: &mut Commands) {
    ui.horizontal_wrapped(|ui| {
        let heading = ui.strong(text);
        ui.label("CPU class:");
        let current = f.doc.request.estimate_isa();
        let mut isa = current;
        egui::ComboBox::from_id_salt("xnnpack-isa")
            .selected_text(isa_label(isa))
            .show_ui(ui, |ui| {
                for i in [Isa::X86Amx, Isa::X86Avx512, Isa::ArmNeon] {
                    ui.selectable_value(&mut isa, i, isa_label(i));
                }
            })
            .response
            .labelled_by(heading.id);
        if isa != current {
            out.push(Command::SetIsa(isa));
        }
    });
}

/// The budget's verdict on the headline's own figure.
fn budget_ui(h: &Headline, budget: u64, outside: u64, ui: &mut egui::Ui, colors: &Colors) {
    let verdict = h.verdict(budget);
    let color = match verdict {
        BudgetVerdict::Fits { .. } => colors.lower_bound(),
        BudgetVerdict::Over { .. } | BudgetVerdict::CannotRun { .. } => ui.visuals().error_fg_color,
        BudgetVerdict::Unsure { .. } => ui.visuals().warn_fg_color,
    };
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("{} against the budget:", h.subject.name()));
        ui.colored_label(color, verdict.sentence(budget));
    });
    if budget < outside {
        let what = match h.subject {
            Subject::Tflm { .. } => "TFLM's tail",
            _ => "the persistent arena",
        };
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "The budget is smaller than {what} alone ({outside} B): no plan of the arena can fit."
            ),
        );
    }
}

/// The parts side by side in one bar, each in its own colour with its bytes on hover; the
/// budget as a mark when it falls inside the bar's scale.
fn stacked_bar(ui: &mut egui::Ui, h: &Headline, budget: Option<u64>, colors: &Colors) {
    let parts: Vec<(&str, u64)> = h.parts.iter().map(|p| (p.name.as_str(), p.bytes)).collect();
    let total: u64 = parts.iter().map(|p| p.1).sum();
    let scale_max = budget.map_or(total, |b| b.max(total)).max(1) as f32;
    let width = ui.available_width().min(900.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 22.0), egui::Sense::hover());
    let mut x = rect.left();
    for (k, (name, bytes)) in parts.iter().enumerate() {
        let w = rect.width() * (*bytes as f32 / scale_max);
        if w <= 0.0 {
            continue;
        }
        let r = egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, rect.height()));
        ui.painter().rect_filled(r, 0.0, colors.part(k));
        ui.interact(
            r,
            ui.scope_id().with(("deployer-part", k)),
            egui::Sense::hover(),
        )
        .on_hover_text(format!("{name}: {bytes} B ({})", format_bytes(*bytes)));
        x += w;
    }
    if let Some(b) = budget {
        let bx = rect.left() + rect.width() * (b as f32 / scale_max);
        ui.painter().line_segment(
            [
                egui::pos2(bx, rect.top() - 3.0),
                egui::pos2(bx, rect.bottom() + 3.0),
            ],
            egui::Stroke::new(2.5, colors.budget()),
        );
    }
    ui.horizontal_wrapped(|ui| {
        for (k, (name, bytes)) in parts.iter().enumerate() {
            crate::app::plots::swatch(ui, colors.part(k), false);
            ui.label(format!("{name} {}", format_bytes(*bytes)));
        }
    });
}

/// The CPU classes the estimate's selector offers, as it names them.
fn isa_label(isa: Isa) -> &'static str {
    match isa {
        Isa::X86Amx => "x86-64 AVX-512 + AMX (measured)",
        Isa::X86Avx512 => "x86-64 AVX-512 VNNI, no AMX (measured)",
        Isa::ArmNeon => "ARM64 NEON (computed)",
    }
}
