//! The app driven headlessly with egui_kittest: open a model, pick a tensor in the table and
//! find it selected in the layout and Gantt, switch the planner, export, keep the model on a
//! load error.
#![cfg(feature = "gui")]

mod common;

use arenascope::app::view_cache::LayoutSource;
use arenascope::app::{ArenaApp, Command, Panel, Preferences};
use common::sample_path as sample;
use common::ui::{app_on, harness};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

#[test]
fn opening_without_a_file_shows_the_embedded_sample() {
    let app = ArenaApp::new(Preferences::default(), None);
    assert!(app.doc.title.contains("embedded sample"));
    let mut h = harness(app);
    h.run();
    // The layout panel titles the litert plan with its arena.
    h.get_by_label_contains("arena 780.0 KiB");
}

#[test]
fn picking_a_tensor_in_the_table_selects_it_in_the_layout_and_gantt() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Tensors));
    h.run();
    h.get_by_label("functional_1/max_pooling2d_1/MaxPool2d")
        .click();
    h.run();
    let app = h.state();
    // Tensor 6 of mnist_conv_f32: the pooling output.
    assert_eq!(app.selection.selected, Some(6));
    let buffer = app.selected_buffer().expect("a planned buffer");
    assert_eq!(app.doc.problem(0).buffers[buffer].tensor, 6);
    // The details pane names it; the Gantt and the layout have its bar and rectangle.
    h.get_by_label_contains("op 1 MAX_POOL_2D");
    h.state_mut().push(Command::ShowPanel(Panel::Gantt));
    h.run();
    let views = h.state_mut().frame_views();
    assert!(views
        .gantt
        .expect("the Gantt view")
        .row_of(buffer)
        .is_some());
    let layout = h
        .state_mut()
        .export_views()
        .layout
        .expect("the layout view");
    let r = &layout.view.rects[buffer];
    assert_eq!(
        (r.x0, r.x1),
        (1.0, 4.0),
        "alive at steps 1..=3: its RESHAPE alias is consumed at step 3"
    );
    // Switching to the layout keeps the selection.
    h.state_mut().push(Command::ShowPanel(Panel::Layout));
    h.run();
    assert_eq!(h.state().selection.selected, Some(6));
}

#[test]
fn selecting_an_alias_selects_its_root_bytes() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Tensors));
    h.run();
    h.get_by_label("functional_1/flatten_1/Reshape").click();
    h.run();
    let app = h.state();
    assert_eq!(app.selection.selected, Some(7));
    let buffer = app.selected_buffer().unwrap();
    assert_eq!(
        app.doc.problem(0).buffers[buffer].tensor,
        6,
        "RESHAPE output 7 shares tensor 6's bytes"
    );
}

#[test]
fn switching_the_planner_changes_the_layout_shown() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    h.get_by_label_contains("arena 69.1 KiB (70736 B)");
    h.state_mut().push(Command::SetPrimary("naive".into()));
    h.run();
    h.get_by_label_contains("arena 79.8 KiB (81680 B)");
    let primary = h.state_mut().frame_views().primary;
    assert_eq!(h.state().doc.plans(0)[primary].planner, "naive");
}

#[test]
fn switching_to_tflm_lifetimes_replans_every_subgraph_in_one_arena() {
    let mut h = harness(app_on("while_loop_f32.tflite", Panel::Summary));
    h.run();
    h.get_by_label("TFLite Micro (one arena)").click();
    h.run();
    let app = h.state();
    assert_eq!(app.doc.problem_count(), 1);
    let tflm = app
        .doc
        .plans(0)
        .iter()
        .find(|p| p.planner == "tflm")
        .expect("the tflm emulation runs");
    assert_eq!(tflm.arena_bytes, 464);
}

#[test]
fn every_panel_renders_and_exports() {
    let dir = std::env::temp_dir().join(format!("arenascope-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut h = harness(app_on("residual_branch_f32.tflite", Panel::Summary));
    for panel in Panel::ALL {
        h.state_mut().push(Command::ShowPanel(panel));
        h.run();
        let svg = h.state_mut().current_view_svg();
        assert!(svg.starts_with("<svg") && svg.len() > 1000, "{panel:?}");
        let path = dir.join(format!("{panel:?}.svg"));
        std::fs::write(&path, &svg).unwrap();
        assert!(std::fs::metadata(&path).unwrap().len() > 1000);
    }
    let png = arenascope::export::png::svg_to_png(&h.state_mut().current_view_svg()).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let json = h.state_mut().plan_json();
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["format"], "arenascope-plan");
    assert_eq!(doc["plans"].as_array().unwrap().len(), 9);
}

#[test]
fn a_load_error_is_shown_and_the_previous_model_stays() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    let bad = std::env::temp_dir().join(format!("arenascope-bad-ui-{}.tflite", std::process::id()));
    std::fs::write(&bad, b"definitely not a model").unwrap();
    h.state_mut().push(Command::Open(bad));
    h.run();
    assert_eq!(h.state().doc.title, "mnist_conv_f32.tflite");
    h.get_by_label_contains("not a .tflite model");
    h.get_by_label_contains("arena 69.1 KiB");
}

#[test]
fn the_exact_solver_runs_in_the_background_and_its_plan_joins_the_others() {
    let mut h = harness(app_on("while_loop_f32.tflite", Panel::Summary));
    h.run();
    h.get_by_label_contains("Find the optimum").click();
    h.step();
    // The search is fast on this model: it may already have finished and joined by now.
    let joined = |app: &ArenaApp| app.doc.plans(0).iter().any(|p| p.planner == "exact");
    assert!(
        h.state().exact_job.is_some() || joined(h.state()),
        "the search started"
    );
    // The window keeps drawing frames while the search runs on its own thread.
    let start = std::time::Instant::now();
    while h.state().exact_job.is_some() && start.elapsed().as_secs() < 30 {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let app = h.state();
    let exact = app
        .doc
        .plans(0)
        .iter()
        .find(|p| p.planner == "exact")
        .expect("the exact plan joined");
    // Subgraph 0 of while_loop_f32 at 64-byte alignment: 324 B, proven (litert gives 384 B).
    assert_eq!(exact.arena_bytes, 324);
    assert!(exact.optimal());
    h.run();
    h.get_by_label_contains("optimum 324 B");
}

#[test]
fn a_budget_typed_in_the_field_says_which_plans_fit_and_is_remembered() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Summary));
    h.run();
    h.get_by_label("RAM budget").click();
    h.run();
    h.get_by_label("RAM budget").type_text("70K");
    h.run();
    // 70K = 71680 B: every plan but naive (81680 B, 10000 B over) fits.
    assert_eq!(h.state().prefs.budget, Some(71680));
    h.get_by_label_contains("8 of 9 plans fit");
    h.get_by_label_contains("9.8 KiB over");
    // The layout says how its plan stands.
    h.state_mut().push(Command::ShowPanel(Panel::Layout));
    h.run();
    h.get_by_label_contains("fits the budget (944 B spare)");
    // Text that does not parse says why and applies no budget (issue 16: the old one stayed
    // applied under the error); typed again, it is back. An empty field means none.
    h.state_mut().push(Command::SetBudgetText("12X".into()));
    h.run();
    assert_eq!(h.state().prefs.budget, None);
    h.get_by_label_contains("not \"12X\"");
    h.state_mut().push(Command::SetBudgetText("70K".into()));
    h.run();
    // Remembered: the preferences carry it (eframe stores them between runs).
    let stored = serde_json::to_string(&h.state().prefs).unwrap();
    let back: Preferences = serde_json::from_str(&stored).unwrap();
    assert_eq!(back.budget, Some(71680));
    h.state_mut().push(Command::SetBudgetText(String::new()));
    h.run();
    assert_eq!(h.state().prefs.budget, None);
}

#[test]
fn the_summary_leads_with_the_number_a_deployer_types() {
    let prefs = Preferences {
        panel: Panel::Summary,
        lifetimes: arenascope::analysis::Lifetimes::Tflm,
        ..Preferences::default()
    };
    let app = ArenaApp::new(prefs, Some(&sample("keyword_scrambled.tflite")));
    let mut h = harness(app);
    h.run();
    // TFLM's head 672 + tail 14480 (its oracle's total_bytes).
    h.get_by_label_contains("TFLM needs 15152 bytes");
    h.get_by_label_contains("tail 14480 B");
    h.get_by_label("Copy");
    // On LiteRT lifetimes: the RW arena (LiteRT's own, 896 B) and the persistent arena that
    // holds the 7 variables (10240 B).
    h.state_mut().push(Command::SetLifetimes(
        arenascope::analysis::Lifetimes::Litert,
    ));
    h.run();
    h.get_by_label_contains("LiteRT needs 11136 bytes");
}

#[test]
fn the_memory_optimised_order_replans_every_panel() {
    let mut h = harness(app_on("sparse_conv_f16.tflite", Panel::Layout));
    h.run();
    // LiteRT's own plan on the file's order (sparse_conv_f16.litert.json: 324864 B).
    h.get_by_label_contains("arena 317.2 KiB (324864 B)");
    h.get_by_label("memory-optimised").click();
    h.run();
    h.run();
    // The order the search keeps: LiteRT's plan of it is 192512 B (the real LiteRT agrees).
    h.get_by_label_contains("arena 188.0 KiB (192512 B)");
    h.get_by_label_contains("40.7% less");
    assert_eq!(
        h.state().prefs.order,
        arenascope::document::OrderChoice::Optimized
    );
    // The Gantt shows the new order's lifetimes too: the peak is the new lower bound; and,
    // before/after, the file's.
    h.state_mut().push(Command::ShowPanel(Panel::Gantt));
    h.run();
    h.get_by_label_contains("The optimised order: peak 188.0 KiB");
    h.get_by_label_contains("The file's order: peak");
}

#[test]
fn before_after_shows_the_file_order_beside_the_optimised_one() {
    let mut app = app_on("nasnet_cells_int8.tflite", Panel::Compare);
    app.push(Command::SetLifetimes(arenascope::analysis::Lifetimes::Tflm));
    app.push(Command::SetOrder(
        arenascope::document::OrderChoice::Optimized,
    ));
    let mut h = harness(app);
    h.run();
    h.run();
    // TFLM's own plan on the file's order and on the optimised one, side by side (the real
    // TFLM: head 79696 B, and 76240 B for the written model; README's optimize table).
    h.get_by_label("tflm on the file's order");
    h.get_by_label("tflm on the optimised order");
    h.get_by_label_contains("arena 77.8 KiB (79696 B)");
    h.get_by_label_contains("arena 74.5 KiB (76240 B)");
    let views = h.state_mut().frame_views().compared;
    assert_eq!(
        views
            .iter()
            .map(|v| (v.source == LayoutSource::FileOrder, v.view.arena_bytes))
            .collect::<Vec<_>>(),
        vec![(true, 79696), (false, 76240)]
    );
    // The lifetimes and the memory curve show both orders' peaks.
    h.state_mut().push(Command::ShowPanel(Panel::Gantt));
    h.run();
    h.get_by_label_contains("The file's order: peak 77.8 KiB");
    h.get_by_label_contains("The optimised order: peak 74.5 KiB");
    h.state_mut().push(Command::ShowPanel(Panel::Memory));
    h.run();
    h.get_by_label_contains("dashed: the file's order, peak 77.8 KiB");
    // Off: one order, and the compare panel is back to the planners chosen.
    h.state_mut().push(Command::SetBeforeAfter(false));
    h.state_mut().push(Command::ShowPanel(Panel::Gantt));
    h.run();
    assert!(h.query_by_label_contains("The file's order").is_none());
    h.state_mut().push(Command::ShowPanel(Panel::Compare));
    h.run();
    assert!(h
        .state_mut()
        .frame_views()
        .compared
        .iter()
        .all(|v| v.source == LayoutSource::Shown));
}

#[test]
fn litert_with_xnnpack_shows_the_tflite_arena_and_the_workspace() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Summary));
    h.run();
    h.get_by_label("LiteRT with XNNPACK (its default delegate)")
        .click();
    h.run();
    h.run();
    // The real runtime (mnist_conv_f32.xnnpack.json): TFLite arena 3176 B, workspace 54080 B.
    h.get_by_label_contains("LiteRT with XNNPACK needs 57256 bytes");
    h.get_by_label_contains("TFLite arena 3176 B");
    h.get_by_label_contains("XNNPACK workspace 54080 B");
    // The whole picture: + packed weights 173760 B + indirection 54320 B, as measured on the
    // oracle's AVX-512 + AMX CPU.
    h.get_by_label_contains("indirection buffers: 285336 bytes");
    // On ARM NEON the conv's row tile is 6: 9 x round_up(676, 6) x 8 = 48816 B of indirection
    // (+ the pool's 5432), the packing the same: 285264 bytes; the planned part is unchanged.
    h.state_mut()
        .push(Command::SetIsa(arenascope::analysis::xnnpack::Isa::ArmNeon));
    h.run();
    h.get_by_label_contains("indirection buffers: 285264 bytes");
    h.get_by_label_contains("LiteRT with XNNPACK needs 57256 bytes");
    // ARM rounding (16 bytes) plans again; mnist's 40-byte value rounds to 48 instead of 64
    // and still fits under the 10816-byte block, so the numbers stay; the text says ARM.
    h.get_by_label("ARM").click();
    h.run();
    h.get_by_label_contains("rounded for arm (computed, not measured)");
    h.get_by_label_contains("LiteRT with XNNPACK needs 57256 bytes");
    h.get_by_label("x86-64").click();
    h.run();
    h.get_by_label_contains("rounded for x86-64");
    // The second problem is the workspace, on XNNPACK's op axis, planned by XNNPACK's planner.
    h.state_mut().push(Command::ShowProblem(1));
    h.state_mut().push(Command::ShowPanel(Panel::Layout));
    h.run();
    h.get_by_label_contains("arena 52.8 KiB (54080 B)");
    let views = h.state_mut().frame_views();
    // The layout panel shows two lanes: the TFLite arena (LiteRT's plan, on TFLite's steps:
    // one, the delegate node, as XNNPACK takes the whole graph) above the workspace shown
    // (XNNPACK's plan, on its six ops).
    let lanes: Vec<(LayoutSource, &str, u64, u32)> = views
        .layout_lanes
        .iter()
        .map(|v| (v.source, v.view.planner, v.view.arena_bytes, v.view.steps))
        .collect();
    assert_eq!(
        lanes,
        [
            (LayoutSource::Problem(0), "litert", 3176, 1),
            (LayoutSource::Shown, "xnnpack", 54080, 6)
        ]
    );
    h.get_by_label("TFLite arena, subgraph 0");
    h.get_by_label("XNNPACK workspace 0 (subgraph 0)");
    let layout = views.layout.expect("the layout panel's view");
    assert_eq!(layout.view.planner, "xnnpack");
    // Its SVG export is the two lanes too, the workspace on XNNPACK's op axis.
    let svg = h.state_mut().current_view_svg();
    assert!(svg.contains("TFLite arena, subgraph 0 - "), "{svg:.300}");
    assert!(svg.contains("XNNPACK workspace 0 (subgraph 0) - xnnpack: arena 52.8 KiB (54080 B)"));
    assert!(svg.contains(">XNNPACK op<"));
    assert_eq!(
        h.state().doc.problem_label(1),
        "XNNPACK workspace 0 (subgraph 0)"
    );
    // A tensor of the workspace names the XNNPACK ops it lives over and their TFLite nodes:
    // tensor 5, the convolution's output, from op 0 to op 1 (the max pool).
    h.state_mut().push(Command::Select(Some(5)));
    h.run();
    h.get_by_label("convolution_2d (node 0 CONV_2D)");
    h.get_by_label("max_pooling_2d (node 1 MAX_POOL_2D)");
    // On the TFLite arena the compare panel shows the two lanes: the TFLite arena (LiteRT's
    // plan) and the workspace (XNNPACK's), each with its own problem.
    h.state_mut().push(Command::ShowProblem(0));
    h.run();
    // Shown the TFLite arena, the layout's lanes swap roles: it is the shown one, the
    // largest workspace the other.
    let lanes: Vec<(LayoutSource, &str)> = h
        .state_mut()
        .frame_views()
        .layout_lanes
        .iter()
        .map(|v| (v.source, v.view.planner))
        .collect();
    assert_eq!(
        lanes,
        [
            (LayoutSource::Shown, "litert"),
            (LayoutSource::Problem(1), "xnnpack")
        ]
    );
    h.state_mut().push(Command::ShowPanel(Panel::Compare));
    h.run();
    let lanes: Vec<(LayoutSource, &str, u64)> = h
        .state_mut()
        .frame_views()
        .compared
        .iter()
        .map(|v| (v.source, v.view.planner, v.view.arena_bytes))
        .collect();
    assert_eq!(
        lanes,
        [
            (LayoutSource::Problem(0), "litert", 3176),
            (LayoutSource::Problem(1), "xnnpack", 54080)
        ]
    );
    h.get_by_label("litert on the TFLite arena (the delegated graph)");
    h.get_by_label("xnnpack on the XNNPACK workspace of partition 0 (the largest of 1)");
    // No order search under XNNPACK: the switch is off and stays on the file's order.
    assert_eq!(
        h.state().prefs.order,
        arenascope::document::OrderChoice::File
    );
}

/// Pushes File → "Save optimised model…" for `out` and steps frames until the background job
/// has ended (the window keeps drawing meanwhile).
fn save_optimized(h: &mut Harness<'static, ArenaApp>, out: &std::path::Path) {
    h.state_mut()
        .push(Command::SaveOptimized(out.to_path_buf()));
    h.step();
    let start = std::time::Instant::now();
    while h.state().optimize_job.is_some() && start.elapsed().as_secs() < 60 {
        h.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn saving_an_optimised_model_runs_in_the_background_and_reports_before_and_after() {
    let mut h = harness(app_on("sparse_conv_f16.tflite", Panel::Summary));
    h.run();
    // The menu entry is there; its file dialog cannot be driven headlessly, so the command
    // it pushes is.
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Save optimised model…");
    let dir = std::env::temp_dir().join(format!("arenascope-ui-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("sparse_conv_f16-litert-optimised.tflite");
    let _ = std::fs::remove_file(&out);
    save_optimized(&mut h, &out);
    let app = h.state();
    assert!(app.error.is_none(), "{:?}", app.error);
    // LiteRT on the file's order 324864 B, on the written one 192512 B (the real LiteRT agrees,
    // README's optimize table).
    let status = app.status.clone().unwrap_or_default();
    assert!(
        status.contains("324864 B before, 192512 B after"),
        "{status}"
    );
    // The file written reloads and needs what the status says.
    let written = arenascope::model::Model::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    let arena = arenascope::document::optimize::runtime_arena(
        &written,
        arenascope::analysis::Lifetimes::Litert,
    )
    .unwrap();
    assert_eq!(arena, 192512);
    // Saving over the input itself is refused, and the input is left as it was.
    let input = sample("sparse_conv_f16.tflite");
    let before = std::fs::read(&input).unwrap();
    save_optimized(&mut h, &input);
    let err = h.state().error.clone().unwrap_or_default();
    assert!(err.contains("must not be the input"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
