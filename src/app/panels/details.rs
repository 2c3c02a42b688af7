//! The details pane (the selected tensor: shape, type, bytes, producer, consumers, lifetime,
//! offset in every plan) and the tooltip of a buffer under the pointer.

use super::{Commands, Frame};
use crate::app::command::Command;
use crate::view::format_bytes;

/// The widths the details pane may take (points); a long name wraps inside it.
pub const SIZE_RANGE: std::ops::RangeInclusive<f32> = 160.0..=480.0;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    egui::Panel::right("details")
        .resizable(true)
        .default_size(280.0)
        .size_range(SIZE_RANGE)
        .show(ui, |ui| {
            ui.heading("Selection");
            let Some(t) = f.selection.selected else {
                ui.label("Click a tensor in any panel to see its details here.");
                return;
            };
            let Some(row) = f.views.rows.iter().find(|r| r.tensor == t) else {
                ui.label(format!("tensor {t} is not in this problem"));
                return;
            };
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.label(egui::RichText::new(&row.name).strong());
                egui::Grid::new("details")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        let mut kv = |k: &str, v: String| {
                            ui.label(k);
                            ui.label(v);
                            ui.end_row();
                        };
                        kv(
                            "tensor",
                            format!("{} (subgraph {})", row.tensor, row.subgraph),
                        );
                        kv("kind", row.kind.to_string());
                        kv(
                            "shape",
                            if row.dynamic_dims {
                                format!("{} (dynamic dims)", row.shape)
                            } else {
                                row.shape.clone()
                            },
                        );
                        kv("type", row.dtype.clone());
                        kv(
                            "bytes",
                            format!("{} ({})", row.bytes, format_bytes(row.bytes)),
                        );
                        if let (Some(first), Some(last)) = (row.first, row.last) {
                            kv("lifetime", crate::view::format_steps(first, last));
                            // XNNPACK's op axis: the ops, with the TFLite nodes they came from.
                            let labels = &f.doc.current().step_labels;
                            if let (Some(a), Some(b)) =
                                (labels.get(first as usize), labels.get(last as usize))
                            {
                                kv("first op", a.clone());
                                kv("last op", b.clone());
                            }
                            let values = &f.doc.current().step_values;
                            if let (Some(a), Some(b)) =
                                (values.get(first as usize), values.get(last as usize + 1))
                            {
                                kv("real times", format!("[{a}, {b})"));
                            }
                        }
                        kv(
                            "producer",
                            row.producer.clone().unwrap_or_else(|| "—".into()),
                        );
                    });
                if !row.consumers.is_empty() {
                    ui.label(egui::RichText::new("Consumers").strong());
                    for c in &row.consumers {
                        ui.label(c);
                    }
                }
                if let Some(buf) = row.buffer {
                    ui.separator();
                    ui.label(egui::RichText::new("Offset in each plan").strong());
                    let problem = f.doc.current();
                    let pad = problem.buffers[buf].padding_bytes();
                    egui::Grid::new("offsets")
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            for p in f.doc.current_plans() {
                                ui.label(p.planner);
                                ui.label(format!("{}", p.offsets[buf]));
                                ui.end_row();
                            }
                        });
                    ui.label(format!("alignment padding: {pad} B"));
                    if row.kind == crate::document::RowKind::Alias {
                        ui.label(format!(
                            "shares the bytes of tensor {} (in place)",
                            problem.buffers[buf].tensor
                        ));
                    }
                }
                if ui.button("Clear selection").clicked() {
                    out.push(Command::Select(None));
                }
            });
        });
}

/// Tooltip contents for a buffer (name, shape, type, bytes, lifetime, offset, padding).
pub fn buffer_tooltip(f: &Frame, ui: &mut egui::Ui, buffer: usize, plan: Option<usize>) {
    let problem = f.doc.current();
    let Some(b) = problem.buffers.get(buffer) else {
        return;
    };
    ui.label(egui::RichText::new(&b.name).strong());
    if let Some(r) = f.views.rows.iter().find(|r| r.tensor == b.tensor) {
        if !r.shape.is_empty() {
            ui.label(format!("{} {}", r.shape, r.dtype));
        }
    }
    ui.label(format!(
        "{} · {} bytes ({})",
        b.kind.name(),
        b.size_bytes,
        format_bytes(b.size_bytes)
    ));
    ui.label(format!(
        "alive at {}",
        crate::view::format_steps(b.first, b.last)
    ));
    // XNNPACK's op axis: which ops, and the TFLite nodes they came from.
    for (what, step) in [("from", b.first), ("to", b.last)] {
        if let Some(label) = problem.step_labels.get(step as usize) {
            ui.label(format!("{what} op {step}: {label}"));
        }
    }
    if let Some(p) = plan.and_then(|k| f.doc.current_plans().get(k)) {
        ui.label(format!("offset {} in {}", p.offsets[buffer], p.planner));
    }
    let pad = b.padding_bytes();
    if pad > 0 {
        ui.label(format!("alignment padding {pad} B"));
    }
    let aliases: Vec<&str> = problem
        .aliases
        .iter()
        .filter(|a| a.root == buffer)
        .map(|a| a.name.as_str())
        .collect();
    if !aliases.is_empty() {
        ui.label(format!("shared in place with: {}", aliases.join(", ")));
    }
}
