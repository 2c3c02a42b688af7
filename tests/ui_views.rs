//! The pictures of the layout, memory and compare panels as a user reads them (issue 16):
//! hover readouts, lifetimes written as step runs, and plot headers that keep side-by-side
//! axes in line. Driven headlessly with egui_kittest.
#![cfg(feature = "gui")]

mod common;

use arenascope::app::{ArenaApp, Command, Panel, Preferences};
use arenascope::view::format_bytes_exact;
use common::sample_path as sample;
use common::ui::{app_on, harness, harness_sized};
use egui_kittest::kittest::Queryable;

fn app_with(model: &str, prefs: Preferences) -> ArenaApp {
    let app = ArenaApp::new(prefs, Some(&sample(model)));
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

#[test]
fn hovering_the_memory_curve_reads_out_the_step_its_live_bytes_and_every_arena() {
    let mut h = harness(app_on("lstm_f32.tflite", Panel::Memory));
    h.run();
    let view = h.state_mut().frame_views().memory.expect("the memory view");
    // lstm_f32 on LiteRT: four steps; the middle of the window is over one of them.
    assert_eq!(view.steps, 4);
    h.hover_at(egui::pos2(700.0, 500.0));
    h.run();
    let step = (0..view.steps)
        .find(|s| h.query_by_label(&format!("step {s}")).is_some())
        .expect("a readout naming the step under the pointer");
    let live = view.live_bytes[step as usize];
    h.get_by_label(&format!("live {}", format_bytes_exact(live)));
    assert!(!view.arenas.is_empty());
    for &(planner, bytes) in &view.arenas {
        h.get_by_label_contains(&format!("{planner}: arena {}", format_bytes_exact(bytes)));
    }
    // The litert plan of lstm_f32 is LiteRT's own: 4864 B (sample_models/lstm_f32.litert.json).
    h.get_by_label_contains("litert: arena 4.8 KiB (4864 B)");
}

#[test]
fn a_lifetime_is_written_as_a_run_of_steps_not_rust_range_syntax() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Tensors));
    h.run();
    h.get_by_label("functional_1/max_pooling2d_1/MaxPool2d")
        .click();
    h.run();
    // Tensor 6 of mnist_conv_f32 (the pooling output) is alive at steps 1 to 3.
    h.get_by_label("steps 1–3");
    assert!(h.query_by_label_contains("..=").is_none());
}

#[test]
fn compare_headers_are_one_line_each_so_the_panes_axes_line_up() {
    // Four panes in a narrow window, with a budget: each header is longer than its pane.
    let planners = ["naive", "first-fit-scan", "size-best-fit", "greedy-breadth"];
    let prefs = Preferences {
        panel: Panel::Compare,
        compare: planners.iter().map(|s| s.to_string()).collect(),
        budget: Some(300 * 1024),
        ..Preferences::default()
    };
    let mut h = harness_sized(
        app_with("residual_branch_f32.tflite", prefs),
        egui::vec2(1100.0, 800.0),
    );
    h.run();
    // Each header: the planner's name, then its numbers in one label ("arena …  lower
    // bound …"), cut where the pane ends.
    let headers: Vec<egui::Rect> = h
        .query_all_by_label_contains("  lower bound ")
        .map(|n| n.rect())
        .collect();
    assert_eq!(headers.len(), planners.len(), "{headers:?}");
    let line = headers[0].height();
    assert!(line <= 22.0, "one line, {line} points");
    for r in &headers {
        assert_eq!(r.min.y, headers[0].min.y, "{headers:?}");
        assert_eq!(r.height(), line, "{headers:?}");
    }
    // The panes side by side, left to right.
    for w in headers.windows(2) {
        assert!(w[0].max.x <= w[1].min.x + 1.0, "{headers:?}");
    }
    h.state_mut().push(Command::ShowPanel(Panel::Layout));
    h.run();
}
