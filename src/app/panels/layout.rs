//! The address-vs-time layout of the chosen plan.

use egui_plot::{HLine, LineStyle};

use super::{bytes_axis, bytes_grid};
use crate::app::plots::LayoutItem;
use crate::app::ArenaApp;
use crate::view::format_bytes;

pub fn ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    let k = app.primary_index();
    let height = ui.available_height();
    layout_plot(app, ui, k, "layout", None, height, None);
}

/// One plan's layout as a zoomable plot; `link` shares its axes with other plots, which then
/// start from the same byte range `y_top`.
pub fn layout_plot(
    app: &mut ArenaApp,
    ui: &mut egui::Ui,
    k: usize,
    id: &str,
    link: Option<egui::Id>,
    height: f32,
    y_top: Option<f64>,
) {
    let view = app.layout_view(k);
    let cache = app.shape_cache(&format!("{id}/{}/{k}", app.problem));
    let colors = app.colors();
    let (sel, hov) = (app.selected_buffer(), app.hovered_buffer());
    let over = view.arena_bytes.saturating_sub(view.lower_bound);
    let pct = if view.lower_bound > 0 {
        100.0 * over as f64 / view.lower_bound as f64
    } else {
        0.0
    };
    ui.horizontal_wrapped(|ui| {
        ui.strong(view.planner);
        ui.label(format!(
            "arena {} ({} B)",
            format_bytes(view.arena_bytes),
            view.arena_bytes
        ));
        ui.colored_label(
            colors.lower_bound(),
            format!("lower bound {}", format_bytes(view.lower_bound)),
        );
        ui.label(format!("+{:.2}% ({})", pct, format_bytes(over)));
        if link.is_none() {
            ui.label(format!("padding {}", format_bytes(view.padding_bytes)));
            ui.separator();
            super::legend(ui, &colors);
        }
    });
    let resp = {
        let problem = app.doc.problem(app.problem);
        let mut plot = super::base_plot(id, &colors)
            .height(height - 24.0)
            .x_axis_label("step")
            .y_axis_formatter(bytes_axis)
            .y_grid_spacer(bytes_grid)
            .y_axis_min_width(64.0)
            .include_x(0.0)
            .include_x(view.steps.max(1) as f64)
            .include_y(0.0)
            .include_y(
                y_top.unwrap_or(view.arena_bytes.max(view.lower_bound).max(1) as f64) * 1.05,
            );
        if let Some(link) = link {
            plot = plot
                .link_axis(link, [true, true])
                .link_cursor(link, [true, true]);
        }
        let arena = view.arena_bytes as f64;
        let lower = view.lower_bound as f64;
        let item = LayoutItem::new(&view, problem, colors, sel, hov).with_cache(&cache);
        plot.show(ui, move |pui| {
            pui.add(item);
            pui.hline(HLine::new("arena", arena).color(colors.arena()).width(1.5));
            pui.hline(
                HLine::new("lower bound", lower)
                    .color(colors.lower_bound())
                    .width(1.5)
                    .style(LineStyle::dashed_loose()),
            );
        })
    };
    let hit = resp
        .response
        .hover_pos()
        .map(|p| resp.transform.value_from_position(p))
        .and_then(|pt| view.hit(pt.x, pt.y));
    super::plot_interaction(app, &resp.response, hit, k);
}
