//! Planning again in the background, as the window runs it: the frame that asks does not wait,
//! a spinner says what runs with a Cancel button, the document shown stays until the new one
//! is there, and Cancel puts the settings back.
#![cfg(feature = "gui")]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arenascope::analysis::Lifetimes;
use arenascope::app::{ArenaApp, Command, Panel, Preferences};
use arenascope::document::OrderChoice;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn background_app(model: &str, prefs: Preferences) -> Harness<'static, ArenaApp> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(model);
    let mut app = ArenaApp::new(prefs, Some(&path));
    assert!(app.error.is_none(), "{:?}", app.error);
    app.sync_jobs = false;
    Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app)
}

#[test]
fn the_memory_optimised_order_is_searched_in_the_background_and_then_shown() {
    let prefs = Preferences {
        panel: Panel::Summary,
        lifetimes: Lifetimes::Tflm,
        ..Preferences::default()
    };
    let mut h = background_app("nasnet_cells_int8.tflite", prefs);
    h.run();
    h.state_mut()
        .push(Command::SetOrder(OrderChoice::Optimized));
    let t0 = Instant::now();
    h.step();
    // The frame that asked did not run the search (about a second, more in a debug build).
    assert!(
        t0.elapsed() < Duration::from_millis(900),
        "{:?}",
        t0.elapsed()
    );
    assert!(h.state().plan_job.is_some());
    assert_eq!(h.state().doc.request.order, OrderChoice::File);
    h.step();
    h.get_by_label_contains("Planning under tflm lifetimes, searching the memory-optimised order");
    h.get_by_label("Cancel");
    let t0 = Instant::now();
    while h.state().plan_job.is_some() {
        assert!(t0.elapsed().as_secs() < 120, "the search ends");
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run();
    let app = h.state();
    assert_eq!(app.doc.request.order, OrderChoice::Optimized);
    assert!(app.error.is_none(), "{:?}", app.error);
    // The headline is still the file's: nasnet_cells_int8 as opened needs 187760 bytes
    // (sample_models/nasnet_cells_int8.tflm.json), the optimised order less, on its own line.
    h.get_by_label("TFLM needs 187760 bytes (183.4 KiB)");
    h.get_by_label_contains("Saved with the optimised order:");
}

#[test]
fn cancel_keeps_the_document_and_puts_the_runtime_back() {
    let prefs = Preferences {
        panel: Panel::Summary,
        ..Preferences::default()
    };
    let mut h = background_app("nasnet_cells_int8.tflite", prefs);
    h.run();
    h.state_mut()
        .push(Command::SetOrder(OrderChoice::Optimized));
    h.step();
    h.step();
    h.get_by_label("Cancel").click();
    h.step();
    h.step();
    let app = h.state();
    assert!(app.plan_job.is_none());
    assert_eq!(app.prefs.order, OrderChoice::File);
    assert_eq!(app.doc.request.order, OrderChoice::File);
    assert_eq!(app.doc.request.lifetimes, Lifetimes::Litert);
    h.get_by_label_contains("Cancelled: Planning under litert lifetimes");
}
