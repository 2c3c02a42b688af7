//! The deployer's number, at the top of the summary: with TFLM lifetimes the whole
//! `tensor_arena_size` (head from the plan shown + TFLM's tail, with the tail's parts); with
//! LiteRT the RW arena and the persistent arena; with LiteRT and XNNPACK the delegated graph's
//! TFLite arena, XNNPACK's workspace and the persistent arena. A stacked bar shows the parts (and the budget),
//! a button copies the number.

use super::plot_helpers::budget_verdict_ui;
use super::{Commands, Frame};
use crate::analysis::xnnpack::Isa;
use crate::analysis::{BufferKind, Lifetimes};
use crate::app::command::Command;
use crate::app::theme::Colors;
use crate::view::format_bytes;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let plans = f.doc.current_plans();
    let Some(plan) = plans.get(f.views.primary) else {
        return;
    };
    let problem = f.doc.current();
    let colors = f.colors;
    let xnnpack = f.views.xnnpack.as_deref();
    let (title, parts): (String, Vec<(String, u64)>) = match (problem.lifetimes, &f.views.tflm_tail)
    {
        _ if xnnpack.is_some() => {
            let x = xnnpack.cloned().unwrap_or_default();
            let persistent = x.persistent;
            let total = x.planned();
            let with_other = x.with_other();
            ui.horizontal_wrapped(|ui| {
                ui.heading(format!(
                    "LiteRT with XNNPACK needs {total} bytes ({}) of planned memory",
                    format_bytes(total)
                ));
                if ui.button("Copy").clicked() {
                    ui.ctx().copy_text(total.to_string());
                }
            });
            ui.label(format!(
                "TFLite arena {} B (the delegated graph, LiteRT's planner) + XNNPACK workspace {} B (the largest of {} partition plans, XNNPACK's planner; rounded for {}) + persistent arena {persistent} B.",
                x.tflite_arena, x.workspace, x.partitions, f.doc.request.platform.name()
            ));
            ui.horizontal_wrapped(|ui| {
                let heading = ui.strong(format!(
                    "With XNNPACK's packed weights and indirection buffers: {with_other} bytes ({}), estimated for",
                    format_bytes(with_other)
                ));
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
            ui.label(format!("Not planned: {}.", x.other.describe()));
            if !x.not_modelled.is_empty() {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "Not modelled, so these numbers are approximate (a node left to TFLite here moves its tensors from the workspace to the TFLite arena): {}",
                        x.not_modelled.join(", ")
                    ),
                );
            }
            (
                "LiteRT with XNNPACK".to_string(),
                vec![
                    ("TFLite arena".to_string(), x.tflite_arena),
                    ("XNNPACK workspace".to_string(), x.workspace),
                    ("persistent arena".to_string(), persistent),
                    (
                        "packed weights (estimate)".to_string(),
                        x.other.packed_weights,
                    ),
                    ("indirection (estimate)".to_string(), x.other.indirection),
                ],
            )
        }
        (Some(Lifetimes::Tflm), Some(tails)) => {
            let (tail, tail32) = &**tails;
            let total = plan.arena_bytes + tail.bytes;
            let mut parts = vec![(format!("head ({} plan)", plan.planner), plan.arena_bytes)];
            for c in &tail.categories {
                parts.push((c.name.to_string(), c.bytes));
            }
            let itemised: u64 = tail.categories.iter().map(|c| c.bytes).sum();
            parts.push((
                "allocator, options, handles".to_string(),
                tail.bytes.saturating_sub(itemised),
            ));
            ui.horizontal_wrapped(|ui| {
                ui.heading(format!(
                    "TFLM needs {total} bytes ({})",
                    format_bytes(total)
                ));
                if ui
                    .button("Copy")
                    .on_hover_text("Copy the number for tensor_arena_size")
                    .clicked()
                {
                    ui.ctx().copy_text(total.to_string());
                }
            });
            ui.label(format!(
                "head {} B (the {} plan) + tail {} B (TFLM's persistent allocations; x86-64 host build, as measured). On a 32-bit target: {} B (computed, not measured).",
                plan.arena_bytes,
                plan.planner,
                tail.bytes,
                plan.arena_bytes + tail32.bytes
            ));
            if !tail.not_modelled.is_empty() {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "Not modelled, so the tail is a lower bound: {}",
                        tail.not_modelled.join(", ")
                    ),
                );
            }
            ("TFLM".to_string(), parts)
        }
        _ => {
            let persistent = problem.persistent_bytes();
            let total = plan.arena_bytes + persistent;
            ui.horizontal_wrapped(|ui| {
                ui.heading(format!(
                    "LiteRT needs {total} bytes ({}) for this subgraph",
                    format_bytes(total)
                ));
                if ui.button("Copy").clicked() {
                    ui.ctx().copy_text(total.to_string());
                }
            });
            ui.label(format!(
                "RW arena {} B (the {} plan) + persistent arena {persistent} B (variables and persistent tensors).",
                plan.arena_bytes, plan.planner
            ));
            (
                "LiteRT".to_string(),
                vec![
                    (
                        format!("RW arena ({} plan)", plan.planner),
                        plan.arena_bytes,
                    ),
                    ("persistent arena".to_string(), persistent),
                ],
            )
        }
    };
    if let Some(b) = &f.budget {
        ui.horizontal(|ui| {
            ui.label(format!("{title} against the budget:"));
            budget_verdict_ui(ui, plan.arena_bytes, b, &colors);
        });
    }
    stacked_bar(ui, &parts, f.budget.map(|b| b.bytes), &colors);
}

/// The parts side by side in one bar, each coloured and with its bytes on hover; the budget
/// as a mark when it falls inside the bar's scale.
fn stacked_bar(ui: &mut egui::Ui, parts: &[(String, u64)], budget: Option<u64>, colors: &Colors) {
    let total: u64 = parts.iter().map(|p| p.1).sum();
    let scale_max = budget.map_or(total, |b| b.max(total)).max(1) as f32;
    let width = ui.available_width().min(900.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, 22.0), egui::Sense::hover());
    let fills = [
        colors.kind(BufferKind::Activation),
        colors.kind(BufferKind::Input),
        colors.kind(BufferKind::Output),
        colors.kind(BufferKind::Scratch),
        colors.peak(),
        colors.arena(),
        colors.lower_bound(),
        colors.outline(),
    ];
    let mut x = rect.left();
    for (k, (name, bytes)) in parts.iter().enumerate() {
        let w = rect.width() * (*bytes as f32 / scale_max);
        if w <= 0.0 {
            continue;
        }
        let r = egui::Rect::from_min_size(egui::pos2(x, rect.top()), egui::vec2(w, rect.height()));
        ui.painter().rect_filled(r, 0.0, fills[k % fills.len()]);
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
            crate::app::plots::swatch(ui, fills[k % fills.len()], false);
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
