//! The settings pane: model facts, lifetimes, subgraph, alignment, the planner shown, the
//! exact solver, the planners compared, the theme.

use super::{Commands, Frame};
use crate::analysis::Lifetimes;
use crate::app::command::Command;
use crate::app::exact_job::EXACT_SECONDS;
use crate::view::format_bytes;

/// The widths the settings pane may take (points): its contents wrap inside, so a long line
/// never widens it, nor is a wider one remembered.
pub const SIZE_RANGE: std::ops::RangeInclusive<f32> = 160.0..=420.0;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    egui::Panel::left("settings")
        .resizable(true)
        .default_size(230.0)
        .size_range(SIZE_RANGE)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| contents(f, ui, out));
        });
}

fn contents(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    model_ui(f, ui);
    ui.separator();
    runtime_ui(f, ui, out);
    order_ui(f, ui, out);
    problem_ui(f, ui, out);
    ui.separator();
    alignment_ui(f, ui, out);
    ui.separator();
    primary_ui(f, ui, out);
    ui.separator();
    budget_ui(f, ui, out);
    ui.separator();
    exact_ui(f, ui, out);
    ui.separator();
    compare_ui(f, ui, out);
    ui.separator();
    let mut dark = f.prefs.dark;
    if ui.checkbox(&mut dark, "Dark theme").changed() {
        out.push(Command::SetDark(dark));
    }
}

/// The model's size, or the MiniMalloc problem's.
fn model_ui(f: &Frame, ui: &mut egui::Ui) {
    let doc = f.doc;
    ui.heading("Model");
    match doc.model() {
        Some(m) => {
            ui.label(format!(
                "{} subgraph(s), {} tensors, {} operators, {}",
                m.subgraphs.len(),
                m.tensor_count(),
                m.operator_count(),
                format_bytes(doc.file_bytes)
            ));
        }
        None => {
            ui.label(format!(
                "MiniMalloc problem: {} buffers",
                doc.problem(0).buffers.len()
            ));
        }
    }
}

/// The runtime (lifetime convention) and, under XNNPACK, the platform's rounding.
fn runtime_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    ui.strong("Runtime");
    let mut lifetimes = f.prefs.lifetimes;
    ui.add_enabled_ui(!doc.is_csv(), |ui| {
        ui.radio_value(
            &mut lifetimes,
            Lifetimes::Xnnpack,
            "LiteRT with XNNPACK (its default delegate)",
        )
        .on_hover_text(
            "The delegated graph's TFLite arena and XNNPACK's workspace, one problem each; \
             packed weights and indirection buffers are not planned (the summary estimates \
             them)",
        );
        ui.radio_value(
            &mut lifetimes,
            Lifetimes::Litert,
            "LiteRT, no delegate, per subgraph (the default)",
        );
        ui.radio_value(&mut lifetimes, Lifetimes::Tflm, "TFLite Micro (one arena)");
    });
    if lifetimes != f.prefs.lifetimes {
        out.push(Command::SetLifetimes(lifetimes));
    }
    if f.prefs.lifetimes == Lifetimes::Xnnpack {
        use crate::analysis::xnnpack::Platform;
        let mut platform = doc.request.platform;
        ui.horizontal(|ui| {
            ui.label("Rounding for");
            ui.radio_value(&mut platform, Platform::X86_64, "x86-64")
                .on_hover_text("64-byte allocations, as measured");
            ui.radio_value(&mut platform, Platform::Arm, "ARM")
                .on_hover_text("16-byte allocations: computed by the same rules, not measured");
        });
        if platform != doc.request.platform {
            out.push(Command::SetPlatform(platform));
        }
    }
}

/// The execution order, before/after, what the search did, a running save.
fn order_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    ui.strong("Execution order");
    let mut order = f.prefs.order;
    // With XNNPACK the partitions depend on the order: no search for it yet.
    let searchable = !doc.is_csv() && f.prefs.lifetimes != Lifetimes::Xnnpack;
    ui.add_enabled_ui(searchable, |ui| {
        use crate::document::OrderChoice;
        ui.radio_value(&mut order, OrderChoice::File, "as in the file");
        ui.radio_value(&mut order, OrderChoice::Optimized, "memory-optimised");
    });
    if order != f.prefs.order {
        out.push(Command::SetOrder(order));
    }
    if !doc.file_planned.is_empty() {
        let mut both = f.prefs.before_after;
        ui.checkbox(&mut both, "Before/after: the file's order beside it")
            .on_hover_text(
                "Compare shows the chosen planner on both orders; the lifetimes and memory \
                 panels show the file's order too",
            );
        if both != f.prefs.before_after {
            out.push(Command::SetBeforeAfter(both));
        }
    }
    for r in &doc.order_reports {
        ui.label(if r.changed {
            format!(
                "subgraph {}: {} to {} ({:.1}% less, {} search)",
                r.subgraph,
                format_bytes(r.arena_before),
                format_bytes(r.arena_after),
                100.0 * (r.arena_before - r.arena_after) as f64 / r.arena_before.max(1) as f64,
                if r.exact { "exact" } else { "heuristic" }
            )
        } else {
            format!(
                "subgraph {}: no order beats the file's {} ({} search)",
                r.subgraph,
                format_bytes(r.arena_before),
                if r.exact { "exact" } else { "heuristic" }
            )
        });
    }
    if let Some(job) = f.optimizing {
        ui.horizontal_wrapped(|ui| {
            ui.spinner();
            ui.label(format!(
                "saving an optimised model for {}: searching {:.0} s (budget about {:.0} s)",
                job.lifetimes.name(),
                job.seconds(),
                crate::app::optimize_job::OPTIMIZE_SECONDS
            ));
        });
        if job.cancelled() {
            ui.label("cancelling after this round; nothing will be written");
        } else if ui.button("Cancel").clicked() {
            out.push(Command::CancelOptimize);
        }
    }
}

/// The problem shown: a subgraph, or under XNNPACK an arena or workspace.
fn problem_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    if doc.problem_count() > 1 {
        let mut p = doc.shown;
        let heading = ui.strong(if f.prefs.lifetimes == Lifetimes::Xnnpack {
            "Arena"
        } else {
            "Subgraph"
        });
        egui::ComboBox::from_id_salt("subgraph")
            .selected_text(doc.problem_label(p))
            .width(180.0)
            .show_ui(ui, |ui| {
                for k in 0..doc.problem_count() {
                    ui.selectable_value(&mut p, k, doc.problem_label(k));
                }
            })
            .response
            .labelled_by(heading.id);
        if p != doc.shown {
            out.push(Command::ShowProblem(p));
        }
    }
}

/// The generic planners' offset alignment.
fn alignment_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    ui.strong("Alignment of the generic planners");
    let mut auto = f.prefs.align.is_none();
    let mut align = f
        .prefs
        .align
        .unwrap_or(f.prefs.lifetimes.default_alignment());
    // A MiniMalloc problem brings its own alignments (1 unless a column says).
    let default_label = if doc.model().is_some() {
        format!(
            "runtime default ({} B)",
            f.prefs.lifetimes.default_alignment()
        )
    } else {
        "as in the file".to_string()
    };
    let changed_auto = ui.checkbox(&mut auto, default_label).changed();
    let changed_value = ui
        .add_enabled(
            !auto,
            egui::DragValue::new(&mut align)
                .range(1..=4096)
                .suffix(" B"),
        )
        .changed();
    if changed_auto || changed_value {
        out.push(Command::SetAlign(if auto {
            None
        } else {
            Some(align.max(1))
        }));
    }
}

/// The planner shown in the layout, each with its arena.
fn primary_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    let heading = ui.strong("Planner shown in the layout");
    let plans: Vec<&'static str> = doc.current_plans().iter().map(|p| p.planner).collect();
    let primary = plans.get(f.views.primary).copied().unwrap_or("");
    let entry = |k: usize| {
        doc.current_plans()
            .get(k)
            .map_or(String::new(), |p| planner_entry(p.planner, p.arena_bytes))
    };
    egui::ComboBox::from_id_salt("primary")
        .selected_text(entry(f.views.primary))
        .width(200.0)
        .show_ui(ui, |ui| {
            for (k, id) in plans.iter().enumerate() {
                if ui.selectable_label(*id == primary, entry(k)).clicked() {
                    out.push(Command::SetPrimary(id.to_string()));
                }
            }
        })
        .response
        .labelled_by(heading.id);
}

/// The two to four plans compared side by side.
fn compare_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let doc = f.doc;
    let plans: Vec<&'static str> = doc.current_plans().iter().map(|p| p.planner).collect();
    ui.strong("Compare side by side (2–4)");
    if f.prefs.before_after && !doc.file_planned.is_empty() {
        ui.weak("Before/after is on: Compare shows the layout's planner on both orders.");
    }
    if doc.current().xnnpack == Some(crate::analysis::XnnpackPart::TfliteArena) {
        ui.weak(
            "On a TFLite arena with XNNPACK, Compare shows it beside the largest workspace; \
             pick a workspace under Arena to compare planners on it.",
        );
    }
    let shown: Vec<&'static str> = f
        .views
        .compare
        .iter()
        .filter_map(|&k| plans.get(k).copied())
        .collect();
    for id in &plans {
        let mut on = shown.contains(id);
        let can_add = shown.len() < 4;
        if ui
            .add_enabled(on || can_add, egui::Checkbox::new(&mut on, *id))
            .changed()
        {
            let mut next: Vec<String> = shown.iter().map(|s| s.to_string()).collect();
            if on {
                next.push(id.to_string());
            } else if next.len() > 2 {
                next.retain(|s| s != id);
            }
            out.push(Command::SetCompare(next));
        }
    }
}

/// The exact solver: start, progress, cancel, result.
fn exact_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    ui.strong("Optimal plan");
    if let Some(job) = f.exact {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("searching {:.0} s", job.seconds()));
        });
        ui.label(exact_progress_text(job.snapshot()));
        if ui.button("Cancel").clicked() {
            out.push(Command::CancelExact);
        }
        return;
    }
    if let Some(p) = f.doc.current_plans().iter().find(|p| p.planner == "exact") {
        if p.optimal() {
            ui.label(format!(
                "optimum {} ({} B), proven",
                format_bytes(p.arena_bytes),
                p.arena_bytes
            ));
        } else {
            ui.label(format!(
                "best {} B; proven bound {} B",
                p.arena_bytes,
                p.proven_bound.unwrap_or(p.lower_bound)
            ));
        }
    }
    if ui
        .button("Find the optimum")
        .on_hover_text(format!(
            "The exact planner (branch and bound), up to {EXACT_SECONDS:.0} s on a background \
             thread; the window stays responsive and Cancel keeps the best plan found."
        ))
        .clicked()
    {
        out.push(Command::StartExact);
    }
}

/// The RAM budget: a field (empty: none), why it does not parse, and which plans fit.
fn budget_ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let heading = ui.strong("RAM budget");
    let mut text = f.budget_field.text.clone();
    let response = ui
        .add(
            egui::TextEdit::singleline(&mut text)
                .hint_text("e.g. 256K, 1M (empty: none)")
                .desired_width(140.0),
        )
        .labelled_by(heading.id);
    if response.changed() {
        out.push(Command::SetBudgetText(text));
    }
    if let Some(e) = &f.budget_field.error {
        ui.colored_label(ui.visuals().error_fg_color, e);
    }
    let Some(budget) = f.budget else { return };
    let plans = f.doc.current_plans();
    let fitting = plans
        .iter()
        .filter(|p| budget.verdict(p.arena_bytes).fits())
        .count();
    ui.label(format!(
        "{} ({} B): {fitting} of {} plans fit",
        format_bytes(budget.bytes),
        budget.bytes,
        plans.len()
    ));
    if budget.outside_bytes > budget.bytes {
        ui.colored_label(
            ui.visuals().error_fg_color,
            format!(
                "What the runtime keeps beside the arena ({}) is already {} more than the budget: no arena fits.",
                format_bytes(budget.outside_bytes),
                format_bytes(budget.outside_bytes - budget.bytes)
            ),
        );
    } else if budget.outside_bytes > 0 {
        ui.label(format!(
            "{} of it goes to what the runtime keeps beside the arena; {} is left for it",
            format_bytes(budget.outside_bytes),
            format_bytes(budget.for_arena())
        ));
    }
    if let Some(best) = plans.iter().min_by_key(|p| p.arena_bytes) {
        if let crate::document::Verdict::Misses { short } = budget.verdict(best.arena_bytes) {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!(
                    "none fits: the smallest, {}, needs {} more",
                    best.planner,
                    format_bytes(short)
                ),
            );
        }
    }
}

/// A planner in the drop-down: its id and its arena on the problem shown,
/// "first-fit-scan — 82 944 B".
pub fn planner_entry(id: &str, arena_bytes: u64) -> String {
    format!("{id} — {} B", grouped(arena_bytes))
}

/// Digits in groups of three, "82 944".
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// The exact solver's progress: "searching…" until it has a first plan.
fn exact_progress_text(snapshot: Option<crate::app::exact_job::Snapshot>) -> String {
    match snapshot {
        None => "searching… (no plan yet)".to_string(),
        Some(s) => format!(
            "nodes {}, best {} B, bound {} B",
            s.nodes, s.best_bytes, s.bound_bytes
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planner_entries_name_the_arena_in_groups_of_three_digits() {
        assert_eq!(
            planner_entry("first-fit-scan", 82944),
            "first-fit-scan — 82 944 B"
        );
        assert_eq!(planner_entry("tflm", 464), "tflm — 464 B");
        assert_eq!(planner_entry("naive", 1_170_528), "naive — 1 170 528 B");
        assert_eq!(planner_entry("x", 100_000), "x — 100 000 B");
        assert_eq!(planner_entry("x", 0), "x — 0 B");
    }

    #[test]
    fn the_exact_progress_says_searching_until_a_first_plan() {
        assert_eq!(exact_progress_text(None), "searching… (no plan yet)");
        let s = crate::app::exact_job::Snapshot {
            nodes: 2048,
            best_bytes: 324,
            bound_bytes: 320,
        };
        assert_eq!(
            exact_progress_text(Some(s)),
            "nodes 2048, best 324 B, bound 320 B"
        );
    }
}
