//! Two to four planners' layouts side by side, axes linked, each titled with its arena and
//! its overhead over the lower bound, on one byte axis.

use super::{Commands, Frame};

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let shown = &f.views.compared;
    let n = shown.len().max(1);
    let height = ui.available_height();
    let link = egui::Id::unique(("compare-link", f.doc.shown));
    ui.columns(n, |cols| {
        for (col, lv) in cols.iter_mut().zip(shown) {
            super::layout::layout_plot(
                f,
                col,
                lv,
                Some(link),
                height,
                Some(super::plot_helpers::top_with_budget(
                    f.views.compare_top,
                    f.budget.as_ref(),
                )),
                out,
            );
        }
    });
}
