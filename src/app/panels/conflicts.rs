//! The conflict graph: a node per buffer, an edge per conflict, the peak clique in red; for
//! large problems the selected tensor's neighbourhood.

use crate::app::plots::{graph_hit, GraphItem};
use crate::app::ArenaApp;

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let view = app.conflict_view();
    let colors = app.colors();
    let (sel, hov) = (app.selected_buffer(), app.hovered_buffer());
    ui.horizontal_wrapped(|ui| {
        match view.neighbourhood_of {
            Some((f, total)) => {
                let name = app.doc.problem(app.problem).buffers[f].name.clone();
                ui.label(format!("{total} buffers: showing the neighbourhood of {name} ({} nodes). Select another tensor to move.", view.nodes.len()));
            }
            None => {
                ui.label(format!("{} buffers, {} conflicts.", view.nodes.len(), view.edges.len()));
            }
        }
        ui.colored_label(colors.peak(), format!("Peak clique: {} buffers.", view.peak_clique.len()));
        ui.label("Nodes in order of first step, clockwise from the top; area by bytes.");
    });
    let resp = {
        let problem = app.doc.problem(app.problem);
        let item = GraphItem::new(&view, problem, colors, sel, hov);
        super::base_plot("conflicts", &colors)
            .height(ui.available_height())
            .data_aspect(1.0)
            .show_axes([false, false])
            .show_grid([false, false])
            .include_x(-1.6)
            .include_x(1.6)
            .include_y(-1.25)
            .include_y(1.25)
            .show(ui, move |pui| pui.add(item))
    };
    let hit = resp
        .response
        .hover_pos()
        .and_then(|p| graph_hit(&view, &resp.transform, p));
    let plan = app.primary_index();
    super::plot_interaction(app, &resp.response, hit, plan);
}
