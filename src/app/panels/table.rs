//! The tensor table: sortable by any column, filtered by name; a click selects.

use egui_extras::{Column, TableBuilder};

use super::{Commands, Frame};
use crate::app::command::Command;
use crate::document::TensorRow;
use crate::view::format_bytes;

const HEADERS: [&str; 8] = [
    "name", "shape", "type", "bytes", "kind", "first", "last", "offset",
];

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let rows = &f.views.rows;
    let plan = &f.doc.current_plans()[f.views.primary];
    let offsets = &plan.offsets;
    ui.horizontal(|ui| {
        let label = ui.label("Filter by name:");
        let mut filter = f.table.filter.clone();
        if ui
            .text_edit_singleline(&mut filter)
            .labelled_by(label.id)
            .changed()
        {
            out.push(Command::SetTableFilter(filter));
        }
        ui.label(format!("offsets from {}", plan.planner));
    });
    let filter = f.table.filter.to_lowercase();
    let mut shown: Vec<&TensorRow> = rows
        .iter()
        .filter(|r| filter.is_empty() || r.name.to_lowercase().contains(&filter))
        .collect();
    let (col, asc) = f.table.sort;
    let offset_of = |r: &TensorRow| r.buffer.map(|b| offsets[b]);
    shown.sort_by(|a, b| {
        let o = match col {
            0 => natural_cmp(&a.name, &b.name),
            1 => a.shape.cmp(&b.shape),
            2 => a.dtype.cmp(&b.dtype),
            3 => a.bytes.cmp(&b.bytes),
            4 => a.kind.name().cmp(b.kind.name()),
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
    let selected = f.selection.selected;
    let mut clicked = None;
    let mut sort_clicked = None;
    let row_h = 18.0;
    // A selection made elsewhere (another panel, while this one was hidden) is scrolled into
    // view; a row clicked here is in view already, so nothing moves.
    let seen_id = egui::Id::unique("tensor table: selection scrolled to");
    let seen: Option<usize> = ui.data(|d| d.get_temp(seen_id)).flatten();
    ui.data_mut(|d| d.insert_temp(seen_id, selected));
    let scroll_to = selected
        .filter(|_| seen != selected)
        .and_then(|t| shown.iter().position(|r| r.tensor == t));
    let mut table = TableBuilder::new(ui);
    if let Some(row) = scroll_to {
        table = table.scroll_to_row(row, None);
    }
    table
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
                row.set_selected(selected == Some(r.tensor));
                row.col(|ui| cell(ui, &r.name));
                row.col(|ui| cell(ui, &r.shape));
                row.col(|ui| cell(ui, &r.dtype));
                row.col(|ui| cell(ui, format_bytes(r.bytes)));
                row.col(|ui| cell(ui, r.kind.name()));
                row.col(|ui| cell(ui, r.first.map(|v| v.to_string()).unwrap_or_default()));
                row.col(|ui| cell(ui, r.last.map(|v| v.to_string()).unwrap_or_default()));
                row.col(|ui| cell(ui, offset_of(r).map(|v| v.to_string()).unwrap_or_default()));
                if row.response().clicked() {
                    clicked = Some(r.tensor);
                }
            });
        });
    if let Some(i) = sort_clicked {
        out.push(Command::SortTable(i));
    }
    if let Some(t) = clicked {
        out.push(Command::Select(Some(t)));
    }
}

/// A table cell's text: not selectable, so that a click selects the row.
fn cell(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) {
    ui.add(egui::Label::new(text).selectable(false).truncate());
}

/// Text order with digit runs compared as numbers (`#2` before `#10`, `conv_9` before
/// `conv_10`).
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut x, mut y) = (a.chars().peekable(), b.chars().peekable());
    loop {
        match (x.peek().copied(), y.peek().copied()) {
            (None, None) => return std::cmp::Ordering::Equal,
            (None, Some(_)) => return std::cmp::Ordering::Less,
            (Some(_), None) => return std::cmp::Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |it: &mut std::iter::Peekable<std::str::Chars>| {
                    let mut digits = String::new();
                    while let Some(c) = it.peek().copied().filter(char::is_ascii_digit) {
                        digits.push(c);
                        it.next();
                    }
                    let trimmed = digits.trim_start_matches('0').to_string();
                    (trimmed.len(), trimmed)
                };
                let o = run(&mut x).cmp(&run(&mut y));
                if o != std::cmp::Ordering::Equal {
                    return o;
                }
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(&d);
                }
                x.next();
                y.next();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::natural_cmp;

    #[test]
    fn names_sort_with_their_numbers_as_numbers() {
        let mut v = vec!["#10 · SVDF out", "#2", "#1", "conv_10", "conv_9", "#02x"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(
            v,
            vec!["#1", "#2", "#02x", "#10 · SVDF out", "conv_9", "conv_10"]
        );
    }
}
