//! The app shell driven headlessly (issue 16): start-up on every combination of flags, files
//! and problem index without a panic; the `--planner`, `--problem` and `--budget` flags; the
//! selection kept across runtimes and double-clicks, and scrolled to in the table; status
//! lines that wrap instead of widening the panes; bad CSV and truncated files refused in one
//! sentence; the sample's hint, Ctrl+O, Ctrl+Q and the window title; the runtime radio's
//! default, the budget field, the exact solver's first report, the planner drop-down.
#![cfg(feature = "gui")]

mod common;

use std::path::{Path, PathBuf};

use arenascope::analysis::Lifetimes;
use arenascope::app::{ArenaApp, Command, Panel, Preferences, RunOptions};
use arenascope::document::OrderChoice;
use common::sample_path as sample;
use common::ui::{app_on, harness};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenascope-ui-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// The name the tensor rows give tensor `number` of the problem shown.
fn row_name(app: &mut ArenaApp, number: usize) -> String {
    let views = app.frame_views();
    views
        .rows
        .iter()
        .find(|r| r.tensor == number)
        .map(|r| r.name.clone())
        .unwrap_or_else(|| panic!("no row for tensor {number}"))
}

// ---------------------------------------------------------------------------------------------
// 1. Start-up never panics.

#[derive(Clone, Copy, Debug, PartialEq)]
enum FileCase {
    None,
    Model,
    Csv,
    Missing,
    Bad,
}

#[test]
fn start_up_on_any_runtime_order_file_and_problem_shows_a_document_and_says_what_fell_back() {
    let model = sample("hello_world_int8.tflite");
    let csv = tmp(
        "three.csv",
        b"id,lower,upper,size\na,0,2,16\nb,1,3,32\nc,2,4,8\n",
    );
    let missing = PathBuf::from("/nonexistent/arenascope/person_detect.tflite");
    let bad = tmp("bad.tflite", b"TFL2 certainly not a model at all");
    let mut seen = 0;
    for lifetimes in [Lifetimes::Litert, Lifetimes::Tflm, Lifetimes::Xnnpack] {
        for order in [OrderChoice::File, OrderChoice::Optimized] {
            for case in [
                FileCase::None,
                FileCase::Model,
                FileCase::Csv,
                FileCase::Missing,
                FileCase::Bad,
            ] {
                for problem in [0, 99] {
                    let file: Option<&Path> = match case {
                        FileCase::None => None,
                        FileCase::Model => Some(&model),
                        FileCase::Csv => Some(&csv),
                        FileCase::Missing => Some(&missing),
                        FileCase::Bad => Some(&bad),
                    };
                    let opts = RunOptions {
                        file: file.map(Path::to_path_buf),
                        lifetimes: Some(lifetimes),
                        order: Some(order),
                        problem: Some(problem),
                        ..RunOptions::default()
                    };
                    let what = format!("{lifetimes:?} {order:?} {case:?} problem {problem}");
                    let app = ArenaApp::with_options(Preferences::default(), &opts)
                        .unwrap_or_else(|e| panic!("{what}: {e}"));
                    // The document shown: the file named when it opens, else the sample.
                    match case {
                        FileCase::Model | FileCase::Csv => {
                            assert_eq!(app.doc.path.as_deref(), file, "{what}")
                        }
                        _ => {
                            assert!(app.doc.path.is_none(), "{what}");
                            assert!(app.doc.title.contains("embedded sample"), "{what}");
                        }
                    }
                    // The error: the file's own, path last, never blaming the sample.
                    let error = app.error.clone();
                    match case {
                        FileCase::Missing | FileCase::Bad => {
                            let e = error.unwrap_or_else(|| panic!("{what}: no error"));
                            let p = file.unwrap().to_str().unwrap();
                            assert!(e.ends_with(p), "{what}: {e}");
                            assert!(!e.contains("embedded sample"), "{what}: {e}");
                            assert_eq!(e.lines().count(), 1, "{what}: {e}");
                            let why = if case == FileCase::Missing {
                                "no such file"
                            } else {
                                "not a .tflite model"
                            };
                            assert!(e.contains(why), "{what}: {e}");
                        }
                        _ => assert_eq!(error, None, "{what}"),
                    }
                    // The notices: the order under XNNPACK, the problem out of range.
                    let status = app.status.clone().unwrap_or_default();
                    let xnnpack_order =
                        lifetimes == Lifetimes::Xnnpack && order == OrderChoice::Optimized;
                    assert_eq!(
                        status.contains("does not apply to LiteRT with XNNPACK"),
                        xnnpack_order,
                        "{what}: {status:?}"
                    );
                    if xnnpack_order {
                        assert_eq!(app.prefs.order, OrderChoice::File, "{what}");
                    } else {
                        assert_eq!(app.prefs.order, order, "{what}");
                    }
                    assert_eq!(app.prefs.lifetimes, lifetimes, "{what}");
                    assert_eq!(
                        status.contains("There is no problem 99"),
                        problem == 99,
                        "{what}: {status:?}"
                    );
                    if !xnnpack_order && problem == 0 {
                        assert_eq!(app.status, None, "{what}");
                    }
                    assert_eq!(app.doc.shown, 0, "{what}");
                    assert!(!status.contains('\n'), "{what}: one line: {status:?}");
                    // And the window draws it.
                    let mut h = harness(app);
                    h.run();
                    if problem == 99 {
                        h.get_by_label_contains("There is no problem 99");
                    }
                    seen += 1;
                }
            }
        }
    }
    assert_eq!(seen, 60);
}

#[test]
fn a_remembered_xnnpack_runtime_with_the_optimised_order_starts_on_the_files_order() {
    // What eframe restores, then `--order optimized` on the command line.
    let remembered = Preferences {
        lifetimes: Lifetimes::Xnnpack,
        panel: Panel::Summary,
        ..Preferences::default()
    };
    let opts = RunOptions {
        file: Some(sample("mnist_conv_f32.tflite")),
        order: Some(OrderChoice::Optimized),
        ..RunOptions::default()
    };
    let app = ArenaApp::with_options(remembered, &opts).unwrap();
    assert_eq!(app.error, None);
    assert_eq!(app.prefs.order, OrderChoice::File);
    let mut h = harness(app);
    h.run();
    h.get_by_label_contains("The memory-optimised order does not apply to LiteRT with XNNPACK");
    // The real runtime (mnist_conv_f32.xnnpack.json): 3176 B + 54080 B.
    h.get_by_label_contains("TFLite arena 3176 B");
}

// ---------------------------------------------------------------------------------------------
// 2. --planner, --problem, --budget.

#[test]
fn the_planner_flag_picks_the_plan_the_layout_shows() {
    let opts = RunOptions {
        file: Some(sample("mnist_conv_f32.tflite")),
        panel: Some(Panel::Layout),
        planner: Some("naive".into()),
        ..RunOptions::default()
    };
    let app = ArenaApp::with_options(Preferences::default(), &opts).unwrap();
    assert_eq!(app.status, None);
    let mut h = harness(app);
    h.run();
    // mnist_conv_f32 with naive: 81680 B (litert: 70736 B).
    h.get_by_label_contains("arena 79.8 KiB (81680 B)");
    assert_eq!(h.state().prefs.primary, "naive");
}

#[test]
fn a_planner_flag_with_no_plan_here_says_what_the_layout_shows_instead() {
    let opts = RunOptions {
        file: Some(sample("mnist_conv_f32.tflite")),
        planner: Some("exact".into()),
        ..RunOptions::default()
    };
    let app = ArenaApp::with_options(Preferences::default(), &opts).unwrap();
    let status = app.status.clone().unwrap_or_default();
    assert!(
        status.contains("The planner exact has no plan here (it runs on request")
            && status.ends_with("the layout shows litert"),
        "{status}"
    );
}

#[test]
fn the_problem_flag_out_of_range_says_so_and_shows_problem_0() {
    let opts = RunOptions {
        file: Some(sample("while_loop_f32.tflite")),
        problem: Some(99),
        ..RunOptions::default()
    };
    let app = ArenaApp::with_options(Preferences::default(), &opts).unwrap();
    assert_eq!(app.doc.shown, 0);
    assert_eq!(
        app.status.as_deref(),
        Some(
            "There is no problem 99: this model has 3 under litert lifetimes (0 to 2); showing \
             problem 0"
        )
    );
    // In range: shown, no notice.
    let opts = RunOptions {
        problem: Some(2),
        ..opts
    };
    let app = ArenaApp::with_options(Preferences::default(), &opts).unwrap();
    assert_eq!((app.doc.shown, app.status), (2, None));
}

#[test]
fn bad_gui_flags_are_one_line_errors_with_exit_code_2() {
    use common::arenascope;
    let (code, _, err) = arenascope(&["--planner", "nope"]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.starts_with("arenascope: unknown planner \"nope\" for --planner; the planners are: naive, litert, tflm,"),
        "{err}"
    );
    // A negative budget reaches the budget's own sentence, not clap's "unexpected argument".
    let budget_sentence = "a budget is a whole number of bytes";
    let (code, _, err) = arenascope(&["--budget", "-5"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(budget_sentence) && err.contains("not \"-5\""),
        "{err}"
    );
    let model = sample("mnist_conv_f32.tflite");
    let (code, _, err) = arenascope(&["plan", model.to_str().unwrap(), "--budget", "-5"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(budget_sentence) && err.contains("not \"-5\""),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

// ---------------------------------------------------------------------------------------------
// 3. The selection.

#[test]
fn a_selected_tensor_survives_switching_the_runtime_in_either_numbering() {
    // while_loop_f32: subgraphs of 12, 5 and 11 tensors. "while/Tanh" is tensor 9 of subgraph
    // 2 under LiteRT, and 12 + 5 + 9 = 26 in TFLM's numbering of all subgraphs' tensors.
    let mut app = app_on("while_loop_f32.tflite", Panel::Layout);
    app.push(Command::ShowProblem(2));
    app.push(Command::Select(Some(9)));
    app.apply_commands();
    assert_eq!(row_name(&mut app, 9), "while/Tanh");
    app.push(Command::SetLifetimes(Lifetimes::Tflm));
    app.apply_commands();
    assert_eq!((app.doc.shown, app.selection.selected), (0, Some(26)));
    assert_eq!(row_name(&mut app, 26), "while/Tanh");
    // Back on LiteRT: its subgraph is shown again, the tensor selected there.
    app.push(Command::SetLifetimes(Lifetimes::Litert));
    app.apply_commands();
    assert_eq!((app.doc.shown, app.selection.selected), (2, Some(9)));
    // A tensor of subgraph 0 keeps its number in both.
    app.push(Command::ShowProblem(0));
    app.push(Command::Select(Some(9)));
    app.push(Command::SetLifetimes(Lifetimes::Tflm));
    app.apply_commands();
    assert_eq!(app.selection.selected, Some(9));
    assert_eq!(row_name(&mut app, 9), "Relu");
    // The details pane names it after the switch.
    let mut h = harness(app);
    h.run();
    h.get_by_label("Relu");
    h.get_by_label_contains("9 (subgraph 0)");
}

#[test]
fn a_selection_follows_a_switch_to_xnnpack_only_where_the_tensor_is() {
    // mnist_conv_f32, tensor 6 (the pooling output). XNNPACK delegates the whole graph: the
    // tensor lives in the workspace (problem 1), not in the delegated graph's TFLite arena.
    let mut app = app_on("mnist_conv_f32.tflite", Panel::Layout);
    app.push(Command::Select(Some(6)));
    app.apply_commands();
    let name = row_name(&mut app, 6);
    assert_eq!(name, "functional_1/max_pooling2d_1/MaxPool2d");
    app.push(Command::SetLifetimes(Lifetimes::Xnnpack));
    app.apply_commands();
    assert_eq!(app.doc.shown, 1, "the workspace, which has tensor 6");
    assert_eq!(app.selection.selected, Some(6));
    assert!(row_name(&mut app, 6).starts_with(&name));
    // Shown the TFLite arena, where it is not: no selection (never another tensor).
    app.push(Command::ShowProblem(0));
    app.apply_commands();
    assert_eq!(app.selection.selected, None);
}

/// Moves the pointer over the plot area until a buffer is hovered; returns where.
fn find_hovered_point(h: &mut Harness<'static, ArenaApp>) -> Option<(egui::Pos2, usize)> {
    for y in (120..900).step_by(40) {
        for x in (300..1300).step_by(40) {
            let pos = egui::pos2(x as f32, y as f32);
            h.hover_at(pos);
            h.step();
            h.step();
            if let Some(t) = h.state().selection.hovered {
                return Some((pos, t));
            }
        }
    }
    None
}

fn click_at(h: &mut Harness<'static, ArenaApp>, pos: egui::Pos2) {
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    h.step();
}

#[test]
fn a_double_click_in_a_plot_resets_the_view_and_keeps_the_selection() {
    // Frames 1/60 s apart, so that two clicks fall within egui's double-click delay (0.3 s).
    let mut h = Harness::builder()
        .with_size(egui::vec2(1600.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(
            |ui, app: &mut ArenaApp| app.ui_root(ui),
            app_on("mnist_conv_f32.tflite", Panel::Layout),
        );
    h.run();
    let (pos, t) = find_hovered_point(&mut h).expect("a buffer under the pointer");
    // One click selects it.
    click_at(&mut h, pos);
    h.step();
    assert_eq!(h.state().selection.selected, Some(t));
    // Cleared, then a double-click on it: nothing gets selected.
    h.state_mut().push(Command::Select(None));
    h.step();
    for _ in 0..30 {
        h.step(); // past the double-click window of the click before
    }
    click_at(&mut h, pos);
    click_at(&mut h, pos);
    h.step();
    assert_eq!(
        h.state().selection.selected,
        None,
        "a double-click selected {t}"
    );
    // With another tensor selected, a double-click keeps it.
    let other = if t == 0 { 1 } else { 0 };
    h.state_mut().push(Command::Select(Some(other)));
    for _ in 0..30 {
        h.step();
    }
    click_at(&mut h, pos);
    click_at(&mut h, pos);
    h.step();
    assert_eq!(h.state().selection.selected, Some(other));
}

#[test]
fn the_tensors_table_scrolls_to_a_selection_made_elsewhere() {
    let mut app = app_on("nasnet_cells_int8.tflite", Panel::Tensors);
    // The table sorts by name: take the last row, far below the first screen.
    let mut names: Vec<(String, usize)> = app
        .frame_views()
        .rows
        .iter()
        .map(|r| (r.name.clone(), r.tensor))
        .collect();
    assert!(names.len() > 200, "{} rows", names.len());
    names.sort();
    let mut h = harness(app);
    h.run();
    // Pick a row near the end of the name order whose name is unique.
    let (name, tensor) = names
        .iter()
        .rev()
        .find(|(n, _)| names.iter().filter(|(m, _)| m == n).count() == 1)
        .cloned()
        .unwrap();
    assert!(
        h.query_by_label(&name).is_none(),
        "{name} is off screen at first"
    );
    // Selected elsewhere (the layout), then the table shown: it is scrolled into view.
    h.state_mut().push(Command::ShowPanel(Panel::Layout));
    h.run();
    h.state_mut().push(Command::Select(Some(tensor)));
    h.run();
    h.state_mut().push(Command::ShowPanel(Panel::Tensors));
    h.run();
    // The table's row (the details pane, on the right, names it too).
    let in_table = |h: &Harness<'static, ArenaApp>, name: &str| {
        h.query_all_by_label(name)
            .any(|n| n.rect().left() < 1000.0 && n.rect().bottom() < 1000.0)
    };
    assert!(in_table(&h, &name), "{name} scrolled into view");
    // While the table is shown, a selection from elsewhere (the details pane, another panel's
    // command) scrolls too.
    let first = names
        .iter()
        .find(|(n, _)| names.iter().filter(|(m, _)| m == n).count() == 1)
        .cloned()
        .unwrap();
    assert!(!in_table(&h, &first.0));
    h.state_mut().push(Command::Select(Some(first.1)));
    h.run();
    assert!(in_table(&h, &first.0), "{} scrolled into view", first.0);
}

// ---------------------------------------------------------------------------------------------
// 4. Long status lines.

/// The left edge of the central panel's tab bar: the settings pane's width plus its margins.
fn tabs_left(h: &Harness<'static, ArenaApp>) -> f32 {
    h.get_by_label("Lifetimes").rect().left()
}

#[test]
fn a_long_status_line_wraps_and_leaves_the_panes_and_its_ok_button_in_the_window() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    let before = tabs_left(&h);
    // A path without spaces and a report: 400 characters.
    let mut status = String::from("Saved the optimised model to /tmp/");
    status.push_str(&"very_long_directory_name/".repeat(10));
    status.push_str("model.tflite: litert arena 324864 B before, 192512 B after");
    while status.len() < 400 {
        status.push_str(" and more");
    }
    status.truncate(400);
    h.state_mut().status = Some(status);
    h.state_mut().error = Some(format!("cannot write the file: {}", "/x".repeat(150)));
    for _ in 0..5 {
        h.run();
    }
    let after = tabs_left(&h);
    assert!(
        (after - before).abs() < 1.0 && after < 460.0,
        "the settings pane moved the tabs from {before} to {after}"
    );
    for button in ["OK", "Dismiss"] {
        let r = h.get_by_label(button).rect();
        assert!(
            r.left() >= 0.0 && r.right() <= 1600.0 && r.bottom() <= 1000.0,
            "{button} at {r:?}"
        );
    }
    let line = h
        .get_by_label_contains("Saved the optimised model to")
        .rect();
    assert!(
        line.right() <= 1600.0 && line.height() > 30.0,
        "wrapped: {line:?}"
    );
}

#[test]
fn saving_an_optimised_model_leaves_the_settings_pane_its_width() {
    let mut h = harness(app_on("sparse_conv_f16.tflite", Panel::Layout));
    h.run();
    let before = tabs_left(&h);
    let dir = std::env::temp_dir().join(format!("arenascope-ui-app-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join(format!(
        "{}-litert-optimised.tflite",
        "a_rather_long_name".repeat(6)
    ));
    h.state_mut().push(Command::SaveOptimized(out.clone()));
    h.step();
    let start = std::time::Instant::now();
    let mut widest = before;
    while h.state().optimize_job.is_some() && start.elapsed().as_secs() < 120 {
        h.step();
        widest = widest.max(tabs_left(&h));
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    h.run();
    h.run();
    let status = h.state().status.clone().unwrap_or_default();
    assert!(
        status.contains("324864 B before, 192512 B after"),
        "{status}"
    );
    widest = widest.max(tabs_left(&h));
    assert!(
        widest - before < 1.0,
        "the settings pane grew: tabs from {before} to {widest}"
    );
    let ok = h.get_by_label("OK").rect();
    assert!(ok.right() <= 1600.0, "{ok:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// 5. Bad CSV and truncated files.

#[test]
fn a_header_only_csv_is_refused_and_the_model_stays() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    let csv = tmp("header_only.csv", b"id,lower,upper,size\n");
    h.state_mut().push(Command::Open(csv.clone()));
    h.run();
    let app = h.state();
    assert_eq!(app.doc.title, "mnist_conv_f32.tflite");
    let e = app.error.clone().unwrap_or_default();
    assert_eq!(
        e,
        format!(
            "the file has a header but no buffer rows below it, so nothing to plan: {}",
            csv.display()
        )
    );
    h.get_by_label_contains("arena 69.1 KiB");
}

#[test]
fn a_truncated_model_is_refused_in_one_sentence_with_its_path_last() {
    let bytes = std::fs::read(sample("mnist_conv_f32.tflite")).unwrap();
    let cut = tmp("mnist_cut.tflite", &bytes[..bytes.len() / 2]);
    let mut h = harness(app_on("hello_world_int8.tflite", Panel::Layout));
    h.run();
    h.state_mut().push(Command::Open(cut.clone()));
    h.run();
    let e = h.state().error.clone().unwrap_or_default();
    // The model's last table starts at byte 110564 of the 110660; the cut file has 55330.
    assert_eq!(
        e,
        format!(
            "the file is truncated or not a .tflite model (the model refers to bytes \
             110564..110568, the file ends at byte 55330): {}",
            cut.display()
        )
    );
    assert_eq!(h.state().doc.title, "hello_world_int8.tflite");
}

// ---------------------------------------------------------------------------------------------
// 6. Start-up hints, shortcuts, title, radio, budget, exact, drop-down.

#[test]
fn the_embedded_sample_says_how_to_open_a_model_and_a_named_file_does_not() {
    let mut h = harness(ArenaApp::new(Preferences::default(), None));
    h.run();
    h.get_by_label("This is an embedded sample — File > Open… (Ctrl+O) or drop a .tflite here");
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    assert!(h
        .query_by_label_contains("This is an embedded sample")
        .is_none());
}

fn viewport_commands(h: &Harness<'static, ArenaApp>) -> Vec<egui::ViewportCommand> {
    h.output()
        .viewport_output
        .get(&egui::ViewportId::ROOT)
        .map(|v| v.commands.clone())
        .unwrap_or_default()
}

#[test]
fn ctrl_o_opens_through_the_file_dialog_and_the_title_follows() {
    let mut app = ArenaApp::new(Preferences::default(), None);
    app.open_dialog = || {
        Some(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("sample_models")
                .join("mnist_conv_f32.tflite"),
        )
    };
    let mut h = harness(app);
    h.run();
    assert_eq!(
        h.state().sent_title(),
        "arenascope — residual_branch_f32.tflite (embedded sample)"
    );
    h.event(egui::Event::Key {
        key: egui::Key::O,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.step();
    assert_eq!(h.state().doc.title, "mnist_conv_f32.tflite");
    assert!(
        viewport_commands(&h).contains(&egui::ViewportCommand::Title(
            "arenascope — mnist_conv_f32.tflite".into()
        )),
        "{:?}",
        viewport_commands(&h)
    );
    assert_eq!(h.state().sent_title(), "arenascope — mnist_conv_f32.tflite");
    // The menu offers the same, with its shortcut.
    h.run();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label_contains("Open…");
    h.get_by_label_contains("Ctrl+O");
    h.get_by_label_contains("Ctrl+Q");
}

#[test]
fn ctrl_q_closes_the_window() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    assert!(!viewport_commands(&h).contains(&egui::ViewportCommand::Close));
    h.event(egui::Event::Key {
        key: egui::Key::Q,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.step();
    assert!(viewport_commands(&h).contains(&egui::ViewportCommand::Close));
}

#[test]
fn the_runtime_radio_marked_the_default_is_the_one_the_defaults_select() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    let radio = h.get_by_label_contains("(the default)");
    assert_eq!(
        radio.accesskit_node().toggled(),
        Some(egui::accesskit::Toggled::True),
        "{radio:?}"
    );
    assert_eq!(Preferences::default().lifetimes, Lifetimes::Litert);
    assert_eq!(
        radio.accesskit_node().label().as_deref(),
        Some("LiteRT, no delegate, per subgraph (the default)")
    );
}

#[test]
fn a_budget_that_does_not_parse_is_not_applied_while_its_error_shows() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    h.state_mut().push(Command::SetBudgetText("70K".into()));
    h.run();
    // 70K = 71680 B: litert's 70736 B fits with 944 B spare.
    h.get_by_label_contains("fits the budget (944 B spare)");
    h.get_by_label_contains("8 of 9 plans fit");
    // Half typed: the error shows and no verdict of the old budget does.
    h.state_mut().push(Command::SetBudgetText("70X".into()));
    h.run();
    assert_eq!(h.state().prefs.budget, None);
    h.get_by_label_contains("not \"70X\"");
    assert!(h.query_by_label_contains("fits the budget").is_none());
    assert!(h.query_by_label_contains("plans fit").is_none());
    // Typed again: applied again.
    h.state_mut().push(Command::SetBudgetText("70K".into()));
    h.run();
    assert_eq!(h.state().prefs.budget, Some(71680));
    h.get_by_label_contains("fits the budget (944 B spare)");
}

#[test]
fn find_the_optimum_never_reports_a_zero_plan_before_it_has_one() {
    let mut app = app_on("nasnet_cells_int8.tflite", Panel::Layout);
    app.push(Command::SetLifetimes(Lifetimes::Tflm));
    let mut h = harness(app);
    h.run();
    h.state_mut().push(Command::StartExact);
    h.step();
    let mut frames = 0;
    let mut searching = 0;
    while h.state().exact_job.is_some() && frames < 40 {
        h.step();
        frames += 1;
        assert!(
            h.query_by_label_contains("best 0 B").is_none(),
            "frame {frames} shows a plan of 0 B"
        );
        if h.query_by_label("searching… (no plan yet)").is_some() {
            searching += 1;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    h.state_mut().push(Command::CancelExact);
    h.run();
    assert!(
        searching > 0 || frames == 0,
        "the warm start was never shown as searching"
    );
}

#[test]
fn the_planner_drop_down_lists_every_planner_with_its_arena() {
    let mut h = harness(app_on("mnist_conv_f32.tflite", Panel::Layout));
    h.run();
    // The selected text names litert's plan: 70736 B.
    h.get_by_value("litert — 70 736 B").click();
    h.run();
    h.get_by_label("naive — 81 680 B").click();
    h.run();
    assert_eq!(h.state().prefs.primary, "naive");
    h.get_by_label_contains("arena 79.8 KiB (81680 B)");
}
