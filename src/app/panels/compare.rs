//! Two to four planners' layouts side by side, axes linked, each titled with its arena and
//! its overhead over the lower bound, on one byte axis: the ones chosen, else the runtime's own
//! planner and the best generic ones (`view_cache::compare_indices`, the set `export --view
//! compare` draws). Before/after: one planner on both orders. LiteRT with XNNPACK, on a
//! TFLite arena: that arena and the largest workspace as two lanes, each on its own axes.

use super::{Commands, Frame};
use crate::app::view_cache::LayoutSource;

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let shown = &f.views.compared;
    let n = shown.len().max(1);
    let height = ui.available_height();
    let link = egui::Id::unique(("compare-link", f.doc.shown));
    // XNNPACK lanes are on different time axes and scales: each keeps its own.
    let lanes = shown
        .iter()
        .any(|lv| matches!(lv.source, LayoutSource::Problem(_)));
    ui.columns(n, |cols| {
        for (col, lv) in cols.iter_mut().zip(shown) {
            let top = (!lanes).then(|| {
                super::plot_helpers::top_with_budget(f.views.compare_top, f.budget.as_ref())
            });
            let at = super::layout::Placement {
                link: (!lanes).then_some(link),
                y_top: top,
                height,
                legend: false,
            };
            super::layout::layout_plot(f, col, lv, at, out);
        }
    });
}
