//! The summary's headline in the window: the runtime's number (the oracle's) whatever planner
//! is shown, the TFLM build switch (remembered) driving the number, Copy and the budget; a
//! model TFLM cannot run; a CSV problem named as no runtime; Copy says what it copied.
#![cfg(feature = "gui")]

mod common;

use arenascope::analysis::Lifetimes;
use arenascope::app::{ArenaApp, Command, Panel, Preferences};
use arenascope::document::headline::TflmTarget;
use common::sample_path as sample;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

fn summary(
    model: &std::path::Path,
    lifetimes: Lifetimes,
    budget: Option<u64>,
) -> Harness<'static, ArenaApp> {
    let prefs = Preferences {
        panel: Panel::Summary,
        lifetimes,
        budget,
        primary: "naive".into(),
        ..Preferences::default()
    };
    let app = ArenaApp::new(prefs, Some(model));
    assert!(app.error.is_none(), "{:?}", app.error);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app);
    h.run();
    h
}

#[test]
fn the_tflm_build_switch_drives_the_number_and_is_remembered() {
    // hello_world_int8: TFLM's head 32 B + tail 1472 B = 1504 B (its oracle file).
    let mut h = summary(
        &sample("hello_world_int8.tflite"),
        Lifetimes::Tflm,
        Some(2048),
    );
    h.get_by_label("TFLM needs 1504 bytes (1.5 KiB)");
    h.get_by_label("fits the budget of 2.0 KiB with 544 B to spare");
    h.state_mut()
        .push(Command::SetTflmTarget(TflmTarget::Bits32));
    h.run();
    // Measured under qemu-arm on a Cortex-M with the reference kernels: 788 bytes
    // (hello_world_int8.tflm-cm3-ref.json).
    let n = 788;
    h.get_by_label_contains(&format!("TFLM needs {n} bytes"));
    h.get_by_label_contains("fits the budget of 2.0 KiB with 1.2 KiB (1260 B) to spare");
    // Remembered: the preferences carry it through a save and a load.
    let saved = serde_json::to_string(&h.state().prefs).unwrap();
    let loaded: Preferences = serde_json::from_str(&saved).unwrap();
    assert_eq!(loaded.tflm_target, TflmTarget::Bits32);
    // Copy copies the number shown and says so.
    h.get_by_label("Copy").click();
    h.run();
    h.get_by_label_contains(&format!("Copied {n} to the clipboard."));
}

#[test]
fn a_model_tflm_cannot_run_says_so_and_offers_no_number_to_copy() {
    // conv_dynamic_range: TFLM refuses its hybrid CONV_2D ("Hybrid models are not supported
    // on TFLite Micro", sample_models/conv_dynamic_range.tflm.json).
    let h = summary(
        &sample("conv_dynamic_range.tflite"),
        Lifetimes::Tflm,
        Some(1 << 20),
    );
    h.get_by_label_contains("TFLM cannot run this model: CONV_2D (subgraph 0)");
    assert!(h.get_by_label("Copy").accesskit_node().is_disabled());
    h.get_by_label_contains("cannot run at any budget");
}

#[test]
fn litert_with_xnnpack_leads_with_the_planned_whole() {
    // mnist_conv_f32: TFLite arena 3176 B + workspace 54080 B (its XNNPACK oracle file).
    let h = summary(&sample("mnist_conv_f32.tflite"), Lifetimes::Xnnpack, None);
    h.get_by_label("LiteRT with XNNPACK needs 57256 bytes (55.9 KiB) of planned memory");
}

#[test]
fn a_csv_problem_is_named_as_no_runtime() {
    let dir = std::env::temp_dir().join(format!("arenascope-ui-headline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("three.csv");
    // 300 B and 200 B alive together, then 100 B: no plan needs less than 500 B.
    std::fs::write(
        &path,
        "id,lower,upper,size\n0,0,2,300\n1,1,3,200\n2,3,4,100\n",
    )
    .unwrap();
    let h = summary(&path, Lifetimes::Litert, None);
    h.get_by_label("The best plan of this problem needs 500 bytes (500 B)");
    assert!(h.query_by_label_contains("LiteRT needs").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
