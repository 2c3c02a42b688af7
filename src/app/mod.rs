//! The eframe application (behind the `gui` feature).

use std::path::PathBuf;

/// Opens the window on `file` (or the embedded sample model).
pub fn run(file: Option<PathBuf>, screenshot: Option<PathBuf>) -> Result<(), String> {
    let _ = (file, screenshot);
    let options = eframe::NativeOptions::default();
    eframe::run_native(
        "arenascope",
        options,
        Box::new(|_cc| Ok(Box::new(Placeholder))),
    )
    .map_err(|e| e.to_string())
}

struct Placeholder;

impl eframe::App for Placeholder {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show_inside(ui, |ui| {
            ui.heading("arenascope");
        });
    }
}
