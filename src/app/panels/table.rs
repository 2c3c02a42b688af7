//! The tensor table: sortable by any column, filtered by name; a click selects.

use egui_extras::{Column, TableBuilder};

use crate::app::{ArenaApp, Command};
use crate::view::format_bytes;

const HEADERS: [&str; 8] = [
    "name", "shape", "type", "bytes", "kind", "first", "last", "offset",
];

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let rows = app.tensor_rows();
    let k = app.primary_index();
    let plan_name = app.doc.plans(app.problem)[k].planner;
    let offsets = app.doc.plans(app.problem)[k].offsets.clone();
    ui.horizontal(|ui| {
        let label = ui.label("Filter by name:");
        ui.text_edit_singleline(&mut app.table_filter)
            .labelled_by(label.id);
        ui.label(format!("offsets from {plan_name}"));
    });
    let filter = app.table_filter.to_lowercase();
    let mut shown: Vec<&crate::app::TensorRow> = rows
        .iter()
        .filter(|r| filter.is_empty() || r.name.to_lowercase().contains(&filter))
        .collect();
    let (col, asc) = app.table_sort;
    let offset_of = |r: &crate::app::TensorRow| r.buffer.map(|b| offsets[b]);
    shown.sort_by(|a, b| {
        let o = match col {
            0 => a.name.cmp(&b.name),
            1 => a.shape.cmp(&b.shape),
            2 => a.dtype.cmp(&b.dtype),
            3 => a.bytes.cmp(&b.bytes),
            4 => a.kind.cmp(b.kind),
            5 => a.first.cmp(&b.first),
            6 => a.last.cmp(&b.last),
            _ => offset_of(a).cmp(&offset_of(b)),
        };
        let o = o.then(a.tensor.cmp(&b.tensor));
        if asc {
            o
        } else {
            o.reverse()
        }
    });
    let selected = app.selected;
    let mut clicked = None;
    let mut sort_clicked = None;
    let row_h = 18.0;
    TableBuilder::new(ui)
        .striped(true)
        .sense(egui::Sense::click())
        .column(
            Column::initial(280.0)
                .at_least(80.0)
                .clip(true)
                .resizable(true),
        )
        .column(Column::initial(120.0).clip(true).resizable(true))
        .column(Column::initial(60.0))
        .column(Column::initial(90.0))
        .column(Column::initial(80.0))
        .column(Column::initial(45.0))
        .column(Column::initial(45.0))
        .column(Column::remainder())
        .header(20.0, |mut header| {
            for (i, h) in HEADERS.iter().enumerate() {
                header.col(|ui| {
                    let arrow = if col == i {
                        if asc {
                            " ^"
                        } else {
                            " v"
                        }
                    } else {
                        ""
                    };
                    if ui.button(format!("{h}{arrow}")).clicked() {
                        sort_clicked = Some(i);
                    }
                });
            }
        })
        .body(|body| {
            body.rows(row_h, shown.len(), |mut row| {
                let r = shown[row.index()];
                row.set_selected(
                    selected == Some(r.tensor) && r.buffer.is_some() || selected == Some(r.tensor),
                );
                row.col(|ui| cell(ui, &r.name));
                row.col(|ui| cell(ui, &r.shape));
                row.col(|ui| cell(ui, &r.dtype));
                row.col(|ui| cell(ui, format_bytes(r.bytes)));
                row.col(|ui| cell(ui, r.kind));
                row.col(|ui| cell(ui, r.first.map(|v| v.to_string()).unwrap_or_default()));
                row.col(|ui| cell(ui, r.last.map(|v| v.to_string()).unwrap_or_default()));
                row.col(|ui| cell(ui, offset_of(r).map(|v| v.to_string()).unwrap_or_default()));
                if row.response().clicked() {
                    clicked = Some(r.tensor);
                }
            });
        });
    if let Some(i) = sort_clicked {
        app.table_sort = if app.table_sort.0 == i {
            (i, !app.table_sort.1)
        } else {
            (i, true)
        };
    }
    if let Some(t) = clicked {
        app.push(Command::Select(Some(t)));
    }
}

/// A table cell's text: not selectable, so that a click selects the row.
fn cell(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) {
    ui.add(egui::Label::new(text).selectable(false).truncate());
}
