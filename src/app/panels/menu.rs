//! The menu bar: File (open, recent, exports, quit), View (panels, theme), Help.

use std::path::PathBuf;

use super::exports::stem;
use super::{Commands, Frame, Panel};
use crate::app::command::Command;

/// File → Open…
pub const OPEN_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::O);
/// File → Quit.
pub const QUIT_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Q);

/// The dialog of File → Open… (and Ctrl+O): a model or a MiniMalloc problem.
pub fn open_dialog() -> Option<PathBuf> {
    rfd::FileDialog::new()
        .add_filter("TFLite model or MiniMalloc CSV", &["tflite", "csv"])
        .pick_file()
}

fn save_dialog(name: &str, ext: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_file_name(name)
        .add_filter(ext, &[ext])
        .save_file()
}

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| file_menu(f, ui, out));
            ui.menu_button("View", |ui| {
                for p in Panel::ALL {
                    if ui.selectable_label(f.prefs.panel == p, p.title()).clicked() {
                        out.push(Command::ShowPanel(p));
                    }
                }
                ui.separator();
                let mut dark = f.prefs.dark;
                if ui.checkbox(&mut dark, "Dark theme").changed() {
                    out.push(Command::SetDark(dark));
                }
            });
            ui.menu_button("Help", |ui| {
                ui.label("Ctrl + wheel: zoom at the pointer · drag: pan · double-click: reset");
                ui.label("Click a tensor anywhere to select it in every panel.");
                ui.label("Drop a .tflite or MiniMalloc .csv file on the window to open it.");
                ui.label("Ctrl+O: open a file · Ctrl+Q: quit");
            });
            ui.separator();
            ui.strong(&f.doc.title);
        });
    });
}

fn file_menu(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let ctx = ui.ctx().clone();
    if ui
        .add(egui::Button::new("Open…").shortcut_text(ctx.format_shortcut(&OPEN_SHORTCUT)))
        .clicked()
    {
        out.push(Command::OpenDialog);
    }
    ui.menu_button("Open recent", |ui| {
        if f.prefs.recent.is_empty() {
            ui.label("(none yet)");
        }
        for p in &f.prefs.recent {
            if ui.button(p.display().to_string()).clicked() {
                out.push(Command::Open(p.clone()));
            }
        }
    });
    ui.separator();
    let stem = stem(f);
    let panel = f.prefs.panel.title().to_lowercase();
    if ui.button("Export screenshot (PNG)…").clicked() {
        if let Some(p) = save_dialog(&format!("{stem}-window.png"), "png") {
            out.push(Command::Screenshot(p));
        }
    }
    if ui.button("Export this view as SVG…").clicked() {
        if let Some(path) = save_dialog(&format!("{stem}-{panel}.svg"), "svg") {
            out.push(Command::ExportView { path, png: false });
        }
    }
    if ui.button("Export this view as PNG…").clicked() {
        if let Some(path) = save_dialog(&format!("{stem}-{panel}.png"), "png") {
            out.push(Command::ExportView { path, png: true });
        }
    }
    if ui.button("Export plans as JSON…").clicked() {
        if let Some(p) = save_dialog(&format!("{stem}-plans.json"), "json") {
            out.push(Command::ExportJson(p));
        }
    }
    if ui.button("Export plan as MiniMalloc CSV…").clicked() {
        if let Some(p) = save_dialog(&format!("{stem}-plan.csv"), "csv") {
            out.push(Command::ExportCsv(p));
        }
    }
    ui.separator();
    let can_optimize = !f.doc.source.is_csv() && f.optimizing.is_none();
    let runtime = f.prefs.lifetimes.name();
    if ui
        .add_enabled(can_optimize, egui::Button::new("Save optimised model…"))
        .on_hover_text(format!(
            "Write a copy whose operators run in the order that lowers {runtime}'s arena (the lifetimes chosen in Settings); nothing is written when no order is better"
        ))
        .clicked()
    {
        if let Some(p) = save_dialog(&format!("{stem}-{runtime}-optimised.tflite"), "tflite") {
            out.push(Command::SaveOptimized(p));
        }
    }
    ui.separator();
    if ui
        .add(egui::Button::new("Quit").shortcut_text(ctx.format_shortcut(&QUIT_SHORTCUT)))
        .clicked()
    {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}
