//! What File → Export writes: the shown view as SVG (from the same views the panels drew),
//! the plans as JSON and CSV, with file names after the model.

use super::{Frame, Panel};
use crate::export::svg;

/// The model's file stem, for default export names.
pub fn stem(f: &Frame) -> String {
    let t = f
        .doc
        .title
        .split(' ')
        .next()
        .unwrap_or("arenascope")
        .to_string();
    t.rsplit_once('.').map(|(s, _)| s.to_string()).unwrap_or(t)
}

/// The SVG of the shown panel (the primary layout for panels without a plot), with the
/// headline above it.
pub fn view_svg(f: &Frame) -> String {
    let lines = f.views.headline.caption_lines(f.prefs.budget);
    crate::export::caption::with_caption(&panel_svg(f), &lines, &f.colors.palette)
}

/// The SVG of the shown panel's picture alone.
fn panel_svg(f: &Frame) -> String {
    let palette = f.colors.palette;
    let problem = f.doc.current();
    let v = f.views;
    match (f.prefs.panel, &v.gantt, &v.conflicts, &v.memory) {
        (Panel::Gantt, Some(g), _, _) => match (&v.file_gantt, f.doc.file_order(f.doc.shown)) {
            (Some(before), Some(file)) => {
                svg::gantt_before_after_svg((&file.problem, before), (problem, g), &palette)
            }
            _ => svg::gantt_svg(problem, g, &palette),
        },
        (Panel::Conflicts, _, Some(c), _) => svg::conflicts_svg(problem, c, &palette),
        (Panel::Memory, _, _, Some(m)) => svg::memory_svg(m, v.file_memory.as_deref(), &palette),
        (Panel::Compare, ..) if !v.compared.is_empty() => {
            let views: Vec<(&crate::analysis::Problem, crate::view::LayoutView)> = v
                .compared
                .iter()
                .map(|c| (super::layout::problem_of(f, c), (*c.view).clone()))
                .collect();
            svg::compare_svg(&views, &palette)
        }
        (Panel::Layout, ..) if !v.layout_lanes.is_empty() => {
            let lanes: Vec<(&crate::analysis::Problem, crate::view::LayoutView, String)> = v
                .layout_lanes
                .iter()
                .map(|l| {
                    let k = match l.source {
                        crate::app::view_cache::LayoutSource::Problem(k) => k,
                        _ => f.doc.shown,
                    };
                    let problem = super::layout::problem_of(f, l);
                    (problem, (*l.view).clone(), f.doc.problem_label(k))
                })
                .collect();
            svg::lanes_svg(&lanes, &palette)
        }
        _ => match &v.layout {
            Some(l) => svg::layout_svg(problem, &l.view, &palette),
            // Not built for this frame: build it (an export, not a frame, pays for it).
            None => svg::layout_svg(
                problem,
                &crate::view::LayoutView::build(problem, &f.doc.current_plans()[v.primary]),
                &palette,
            ),
        },
    }
}

/// The plan JSON (DESIGN.md §3.2) of the shown problem's plans: the same document
/// `plan --format json` writes, restricted to that problem.
pub fn plan_json(f: &Frame) -> String {
    let opts = crate::document::HeadlineOptions {
        target: f.prefs.tflm_target,
        shown: f
            .doc
            .current_plans()
            .get(f.views.primary)
            .map(|p| (f.doc.shown, p.planner)),
    };
    serde_json::to_string_pretty(&f.doc.plan_json(&[f.doc.shown], opts, f.prefs.budget))
        .unwrap_or_default()
}

/// The primary plan as MiniMalloc CSV.
pub fn plan_csv(f: &Frame) -> String {
    let plan = &f.doc.current_plans()[f.views.primary];
    crate::export::csv::write_plan(f.doc.current(), &plan.offsets)
}
