//! One headline, three faces: on every sample model, under every runtime and both orders, with
//! a planner other than the runtime's shown in the layout, the GUI's summary, the SVG it
//! exports, and `plan`'s last lines say the same number — the runtime's own, for the file as
//! opened — and it is the number the real runtime measured where the oracle file has it.
#![cfg(feature = "gui")]

use std::path::PathBuf;

use arenascope::analysis::Lifetimes;
use arenascope::app::{ArenaApp, Panel, Preferences};
use arenascope::document::headline::{HeadlineOptions, TflmTarget};
use arenascope::document::OrderChoice;
use clap::Parser;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tflite"))
        .collect();
    v.sort();
    v
}

fn cli(args: &[&str]) -> String {
    let parsed = arenascope::cli::Cli::try_parse_from(args).unwrap();
    arenascope::cli::run(parsed.command.unwrap()).unwrap()
}

/// The real runtime's total for this model and runtime, from the oracle file beside it.
fn measured(model: &std::path::Path, lifetimes: Lifetimes) -> Option<u64> {
    let (suffix, field) = match lifetimes {
        Lifetimes::Tflm => ("tflm", "total_bytes"),
        _ => return None,
    };
    let path = model.with_extension(format!("{suffix}.json"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    v[field].as_u64()
}

#[test]
fn the_summary_the_export_and_the_cli_give_the_runtimes_number_for_the_file_as_opened() {
    let mut checked = 0;
    for model in samples() {
        let name = model.display().to_string();
        for (lifetimes, flag) in [
            (Lifetimes::Litert, "litert"),
            (Lifetimes::Tflm, "tflm"),
            (Lifetimes::Xnnpack, "xnnpack"),
        ] {
            let orders: &[(OrderChoice, &str)] = if lifetimes == Lifetimes::Xnnpack {
                &[(OrderChoice::File, "file")]
            } else {
                &[
                    (OrderChoice::File, "file"),
                    (OrderChoice::Optimized, "optimized"),
                ]
            };
            for &(order, order_flag) in orders {
                let prefs = Preferences {
                    panel: Panel::Summary,
                    lifetimes,
                    order,
                    primary: "first-fit-scan".into(),
                    ..Preferences::default()
                };
                let mut app = ArenaApp::new(prefs, Some(&model));
                assert!(app.error.is_none(), "{name}: {:?}", app.error);
                let headline = app.frame_views().headline;
                // The headline does not follow the planner shown nor the order planned.
                let file_only = app.doc.headline(HeadlineOptions {
                    target: TflmTarget::Host64,
                    shown: None,
                });
                assert_eq!(
                    headline.bytes, file_only.bytes,
                    "{name} {flag} {order_flag}"
                );
                if let Some(truth) = measured(&model, lifetimes) {
                    assert_eq!(headline.bytes, truth, "{name} {flag}: the oracle's total");
                }
                let sentence = headline.sentence();
                let svg = app.current_view_svg();
                assert!(
                    svg.contains(&sentence.replace('&', "&amp;")),
                    "{name} {flag} {order_flag}: the export's caption"
                );
                let mut h = Harness::builder()
                    .with_size(egui::vec2(1600.0, 1000.0))
                    .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app);
                h.run();
                h.get_by_label(&sentence);
                let out = cli(&[
                    "arenascope",
                    "plan",
                    &name,
                    "--lifetimes",
                    flag,
                    "--order",
                    order_flag,
                    "--time-limit",
                    "1",
                ]);
                assert!(
                    out.contains(&format!("{sentence}. ")),
                    "{name} {flag} {order_flag}: plan says\n{}",
                    out.lines().rev().take(6).collect::<Vec<_>>().join("\n")
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 5 * 10, "{checked} settings checked");
}

#[test]
fn person_detect_with_first_fit_scan_shown_reads_tflms_own_number() {
    let model = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/models/tflm/person_detect.tflite");
    if !model.exists() {
        println!("SKIPPED: ../shared/models/tflm/person_detect.tflite is not beside this checkout");
        return;
    }
    let prefs = Preferences {
        panel: Panel::Summary,
        lifetimes: Lifetimes::Tflm,
        primary: "first-fit-scan".into(),
        budget: Some(84 * 1024),
        ..Preferences::default()
    };
    let app = ArenaApp::new(prefs, Some(&model));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app);
    h.run();
    // The oracle: TFLM's own planner, 85264 bytes in all; 84 KiB (86016 B) leaves 752 B.
    h.get_by_label("TFLM needs 85264 bytes (83.3 KiB)");
    h.get_by_label("fits the budget of 84.0 KiB with 752 B to spare");
    // The first-fit-scan plan shown has its own line.
    h.get_by_label_contains(
        "The first-fit-scan plan shown, written into the model as its offline plan:",
    );
}
