//! The conflict graph: a node per buffer, an edge per conflict, the peak clique in red; for
//! large problems the selected tensor's neighbourhood.

use super::plot_helpers::{base_plot, plot_interaction};
use super::{Commands, Frame};
use crate::app::plots::{graph_hit, GraphItem};

pub fn ui(f: &Frame, ui: &mut egui::Ui, out: &mut Commands) {
    let Some(view) = &f.views.conflicts else {
        return;
    };
    let colors = f.colors;
    ui.horizontal_wrapped(|ui| {
        match view.neighbourhood_of {
            Some((focus, total)) => {
                let name = &f.doc.current().buffers[focus].name;
                ui.label(format!("{total} buffers: showing the neighbourhood of {name} ({} nodes). Select another tensor to move.", view.nodes.len()));
            }
            None => {
                ui.label(format!("{} buffers, {} conflicts.", view.nodes.len(), view.edges.len()));
            }
        }
        ui.colored_label(colors.peak(), format!("Peak clique: {} buffers.", view.peak_clique.len()));
        ui.label("Nodes in order of first step, clockwise from the top; area by bytes.");
    });
    let item = GraphItem::new(view, colors, f.selected_buffer, f.hovered_buffer);
    let resp = base_plot("conflicts", &colors)
        .height(ui.available_height())
        .data_aspect(1.0)
        .show_axes([false, false])
        .show_grid([false, false])
        .include_x(-1.6)
        .include_x(1.6)
        .include_y(-1.25)
        .include_y(1.25)
        .show(ui, move |pui| pui.add(item));
    let hit = resp
        .response
        .hover_pos()
        .and_then(|p| graph_hit(view, &resp.transform, p));
    plot_interaction(f, &resp.response, hit, f.views.primary, out);
}
