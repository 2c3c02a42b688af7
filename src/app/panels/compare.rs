//! Two to four planners' layouts side by side, axes linked, each titled with its arena and
//! its overhead over the lower bound.

use crate::app::ArenaApp;

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let picked = app.compare_indices();
    let n = picked.len().max(1);
    let height = ui.available_height();
    let link = egui::Id::unique(("compare-link", app.problem));
    // One byte range for all: the largest arena shown.
    let y_top = picked
        .iter()
        .map(|&k| {
            let p = &app.doc.plans(app.problem)[k];
            p.arena_bytes.max(p.lower_bound)
        })
        .max()
        .unwrap_or(1) as f64;
    ui.columns(n, |cols| {
        for (col, k) in cols.iter_mut().zip(picked) {
            super::layout::layout_plot(
                app,
                col,
                k,
                &format!("compare-{k}"),
                Some(link),
                height,
                Some(y_top),
            );
        }
    });
}
