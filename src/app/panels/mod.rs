//! The panels. Each draws from a [`Frame`] (the document, the preferences, the selection and
//! the views built for this frame, all borrowed) and pushes [`Command`]s; none changes the
//! app's state itself.

pub mod compare;
pub mod conflicts;
pub mod deployer;
pub mod details;
pub mod exports;
pub mod gantt;
pub mod layout;
pub mod memory;
pub mod menu;
pub mod plot_helpers;
pub mod settings;
pub mod summary;
pub mod table;

use super::command::{Command, Selection};
use super::document::Document;
use super::exact_job::ExactJob;
pub use super::panel::Panel;
use super::preferences::Preferences;
use super::theme::Colors;
use super::view_cache::FrameViews;
use super::TableState;

/// What one frame's panels read.
pub struct Frame<'a> {
    pub doc: &'a Document,
    pub prefs: &'a Preferences,
    pub views: &'a FrameViews,
    pub selection: Selection,
    /// The buffers of the selected and hovered tensors (an alias: its root's).
    pub selected_buffer: Option<usize>,
    pub hovered_buffer: Option<usize>,
    pub colors: Colors,
    pub exact: Option<&'a ExactJob>,
    pub optimizing: Option<&'a super::optimize_job::OptimizeJob>,
    /// Opening a file or planning again in the background.
    pub planning: Option<&'a super::PlanJob>,
    pub error: Option<&'a str>,
    pub status: Option<&'a str>,
    pub table: &'a TableState,
    /// The RAM budget, if one is set, with what the runtime needs beside the plans.
    pub budget: Option<crate::document::Budget>,
    pub budget_field: &'a super::BudgetField,
}

impl Frame<'_> {
    /// The tensor number of a buffer of the shown problem.
    pub fn tensor_of(&self, buffer: usize) -> Option<usize> {
        self.doc.current().buffers.get(buffer).map(|b| b.tensor)
    }
}

/// The commands a frame's panels push.
pub type Commands = Vec<Command>;

pub fn tab_bar(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    ui.horizontal(|ui| {
        for p in Panel::ALL {
            if ui.selectable_label(f.prefs.panel == p, p.title()).clicked() {
                out.push(Command::ShowPanel(p));
            }
        }
    });
}

/// The hint shown over the embedded sample (">", as the default font has no arrow).
pub const SAMPLE_HINT: &str =
    "This is an embedded sample — File > Open… (Ctrl+O) or drop a .tflite here";

/// The error and status lines above the panels, with their dismiss buttons first, and the
/// hint over the embedded sample. Each line wraps within the central panel: a long one
/// (a path, a report) must neither widen the window's panes nor push its button off screen.
pub fn messages(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    if let Some(p) = f.planning {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!(
                "{} {:.1} s — the document shown stays until the new one is ready.",
                p.job.label,
                p.job.seconds()
            ));
            if ui.small_button("Cancel").clicked() {
                out.push(Command::CancelPlan);
            }
        });
    }
    if let Some(e) = f.error {
        ui.horizontal(|ui| {
            if ui.small_button("Dismiss").clicked() {
                out.push(Command::DismissError);
            }
            ui.add(
                egui::Label::new(
                    egui::RichText::new(format!("Error: {e}")).color(ui.visuals().error_fg_color),
                )
                .wrap(),
            );
        });
    }
    if let Some(s) = f.status {
        ui.horizontal(|ui| {
            if ui.small_button("OK").clicked() {
                out.push(Command::DismissStatus);
            }
            ui.add(egui::Label::new(s).wrap());
        });
    }
    if f.doc.path.is_none() {
        ui.add(egui::Label::new(egui::RichText::new(SAMPLE_HINT).weak()).wrap());
    }
}

/// The panel `f.prefs.panel`.
pub fn central(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    match f.prefs.panel {
        Panel::Summary => summary::ui(f, ui, out),
        Panel::Tensors => table::ui(f, ui, out),
        Panel::Gantt => gantt::ui(f, ui, out),
        Panel::Layout => layout::ui(f, ui, out),
        Panel::Conflicts => conflicts::ui(f, ui, out),
        Panel::Memory => memory::ui(f, ui, out),
        Panel::Compare => compare::ui(f, ui, out),
    }
}
