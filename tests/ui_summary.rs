//! The Summary panel's plan comparison (bars, table, peak list: readable and not overlapping at
//! 1600×1000 and 1000×800) and the Compare panel's choice of plans (the runtime's own planner
//! always in, the same set as `arenascope export --view compare`), driven with egui_kittest.
#![cfg(feature = "gui")]

mod common;

use std::path::PathBuf;

use arenascope::analysis::Lifetimes;
use arenascope::app::{ArenaApp, Command, Panel, Preferences};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(name)
}

fn harness(app: ArenaApp, size: (f32, f32)) -> Harness<'static, ArenaApp> {
    Harness::builder()
        .with_size(egui::vec2(size.0, size.1))
        .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app)
}

fn app_with(model: &str, prefs: Preferences) -> ArenaApp {
    let app = ArenaApp::new(prefs, Some(&sample(model)));
    assert!(app.error.is_none(), "{:?}", app.error);
    app
}

fn summary_prefs(lifetimes: Lifetimes, budget: Option<u64>) -> Preferences {
    Preferences {
        panel: Panel::Summary,
        lifetimes,
        budget,
        ..Preferences::default()
    }
}

/// A text painted in the last frame.
#[derive(Clone, Debug)]
struct Painted {
    text: String,
    /// The smallest font size in it, points.
    size: f32,
    rect: egui::Rect,
    /// Where it may show: outside, it is cut.
    clip: egui::Rect,
}

/// Every text painted in the last frame.
fn painted_texts(h: &Harness<'static, ArenaApp>) -> Vec<Painted> {
    fn walk(shape: &egui::Shape, clip: egui::Rect, out: &mut Vec<Painted>) {
        match shape {
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, clip, out)),
            egui::Shape::Text(t) => out.push(Painted {
                text: t.galley.text().to_string(),
                size: t
                    .galley
                    .job
                    .sections
                    .iter()
                    .map(|s| s.format.font_id.size)
                    .fold(f32::MAX, f32::min),
                rect: t.galley.rect.translate(t.pos.to_vec2()),
                clip,
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, c.clip_rect, &mut out);
    }
    out
}

/// Whether a painted text shows whole (half a pixel of rounding allowed).
fn uncut(p: &Painted) -> bool {
    p.clip.expand(0.5).contains_rect(p.rect)
}

/// The planners of the compared layouts, in their order.
fn compared_planners(h: &mut Harness<'static, ArenaApp>) -> Vec<&'static str> {
    let views = h.state_mut().frame_views();
    let k = h.state().doc.shown;
    views
        .compared
        .iter()
        .map(|v| h.state().doc.plans(k)[v.plan].planner)
        .collect()
}

/// The planners whose layouts `arenascope export --view compare` draws, from the titles of its
/// SVG ("tflm: 672 B (+0.0%)"), in registry order.
fn exported_compare(model: &str, lifetimes: &str) -> Vec<String> {
    let out = std::env::temp_dir().join(format!(
        "arenascope-ui-summary-{}-{model}-{lifetimes}.svg",
        std::process::id()
    ));
    let path = sample(model);
    let (code, _, err) = common::arenascope(&[
        "export",
        path.to_str().unwrap(),
        "--view",
        "compare",
        "--lifetimes",
        lifetimes,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let (_, list, _) = common::arenascope(&["planners"]);
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|id| svg.contains(&format!(">{id}: ")))
        .map(str::to_string)
        .collect()
}

#[test]
fn compare_under_tflm_lifetimes_shows_the_tflm_plan_and_the_cli_picks_the_same() {
    for model in ["keyword_scrambled.tflite", "hello_world_int8.tflite"] {
        let prefs = Preferences {
            panel: Panel::Compare,
            lifetimes: Lifetimes::Tflm,
            ..Preferences::default()
        };
        let mut h = harness(app_with(model, prefs), (1600.0, 1000.0));
        h.run();
        let shown = compared_planners(&mut h);
        assert_eq!(shown.first(), Some(&"tflm"), "{model}: {shown:?}");
        assert!((2..=4).contains(&shown.len()), "{model}: {shown:?}");
        // The panel titles each layout with its planner: a "tflm" title right of the
        // settings pane (whose checkbox says "tflm" too), under the tab bar.
        let tab = h.get_by_label("Summary").rect();
        assert!(
            painted_texts(&h).iter().any(|p| p.text.starts_with("tflm")
                && p.rect.left() > tab.left() - 20.0
                && p.rect.top() > tab.bottom()),
            "{model}"
        );
        // The CLI draws the same plans.
        let mut gui: Vec<String> = shown.iter().map(|s| s.to_string()).collect();
        gui.sort_by_key(|id| arenascope::document::registry_position(id));
        assert_eq!(exported_compare(model, "tflm"), gui, "{model}");
    }
}

#[test]
fn keyword_scrambled_under_tflm_compares_tflm_with_the_three_smallest_ties() {
    let prefs = Preferences {
        panel: Panel::Compare,
        lifetimes: Lifetimes::Tflm,
        ..Preferences::default()
    };
    let mut h = harness(
        app_with("keyword_scrambled.tflite", prefs),
        (1600.0, 1000.0),
    );
    h.run();
    // tflm 672 B, then the generic plans at 672 B in registry order (first-fit-scan and
    // best-fit-coalesce are 800 B).
    assert_eq!(
        compared_planners(&mut h),
        ["tflm", "size-first-fit", "size-best-fit", "greedy-breadth"]
    );
}

#[test]
fn a_chosen_litert_plan_stands_for_the_runtimes_own_on_tflm_and_on_xnnpack_workspaces() {
    // The list remembered from LiteRT (the old default): under TFLM lifetimes the litert plan
    // does not exist, and tflm takes its place instead of being left out.
    let chosen: Vec<String> = ["litert", "size-best-fit", "best-fit-coalesce"]
        .map(String::from)
        .to_vec();
    let prefs = Preferences {
        panel: Panel::Compare,
        lifetimes: Lifetimes::Tflm,
        compare: chosen.clone(),
        ..Preferences::default()
    };
    let mut h = harness(app_with("hello_world_int8.tflite", prefs), (1600.0, 1000.0));
    h.run();
    assert_eq!(
        compared_planners(&mut h),
        ["tflm", "size-best-fit", "best-fit-coalesce"]
    );
    // LiteRT with XNNPACK, on a workspace of mnist_conv_f32: xnnpack's plan takes its place.
    let prefs = Preferences {
        panel: Panel::Compare,
        lifetimes: Lifetimes::Xnnpack,
        compare: chosen,
        ..Preferences::default()
    };
    let mut h = harness(app_with("mnist_conv_f32.tflite", prefs), (1600.0, 1000.0));
    h.run();
    let workspace = (0..h.state().doc.problem_count())
        .find(|&k| h.state().doc.problem(k).partition().is_some())
        .expect("mnist_conv_f32 has an XNNPACK workspace");
    h.state_mut().push(Command::ShowProblem(workspace));
    h.run();
    assert_eq!(
        compared_planners(&mut h),
        ["xnnpack", "size-best-fit", "best-fit-coalesce"]
    );
}

#[test]
fn summary_bars_are_labelled_at_the_body_size_and_naive_is_marked_off_scale() {
    let prefs = summary_prefs(Lifetimes::Tflm, Some(64 * 1024));
    let mut h = harness(
        app_with("keyword_scrambled.tflite", prefs),
        (1600.0, 1000.0),
    );
    h.run();
    let body = egui::TextStyle::Body.resolve(&h.ctx.global_style()).size;
    let texts = painted_texts(&h);
    // keyword_scrambled under TFLM: lower bound 672 B; tflm 672 B; first-fit-scan 800 B
    // (+19.05 %); naive 3.5 KiB, 5.3 times the bound, so off the scale.
    let label = |needle: &str| {
        texts
            .iter()
            .find(|p| p.text.contains(needle))
            .unwrap_or_else(|| panic!("no painted text with {needle:?}: {texts:?}"))
            .clone()
    };
    for needle in [
        "672 B  +0 %",
        "800 B  +19.05 %",
        "3.5 KiB  +430.95 %, beyond the axis",
    ] {
        let p = label(needle);
        assert!(
            p.size >= body,
            "{needle:?} at {} pt, body text {body} pt",
            p.size
        );
        assert!(uncut(&p), "{p:?}");
    }
    // The 64 KiB budget leaves 49.9 KiB for the arena, far right of the 672 B plans: not drawn,
    // said under the chart.
    h.get_by_label_contains("The budget line is right of the chart: 49.9 KiB for the arena");
    // All plans at the bound but three: named as a tie, TFLM's own planner first.
    h.get_by_label("Best: tflm, size-first-fit and 3 more tie at 672 B.");
}

#[test]
fn an_overhead_of_a_few_bytes_reads_in_bytes_not_as_zero_percent() {
    let prefs = summary_prefs(Lifetimes::Litert, None);
    let mut h = harness(
        app_with("nasnet_cells_int8.tflite", prefs),
        (1600.0, 1000.0),
    );
    h.run();
    // nasnet_cells_int8 on LiteRT: lower bound 122635 B; hill-climb 122640 B is 5 B above it
    // (0.004 %, which two decimals would show as +0.00 %).
    let plans = h.state().doc.plans(0);
    let hill = plans.iter().find(|p| p.planner == "hill-climb").unwrap();
    assert_eq!((hill.arena_bytes, hill.lower_bound), (122640, 122635));
    let texts = painted_texts(&h);
    assert!(texts.iter().any(|p| p.text.contains("119.8 KiB  +5 B")));
    assert!(texts.iter().all(|p| !p.text.contains("+0.00")), "{texts:?}");
    assert!(
        h.query_all_by_label("+5 B").count() == 1,
        "the table's overhead cell"
    );
}

/// The rectangles of the plans table and of the peak list and the outside-the-arena lines.
fn table_and_side(h: &Harness<'static, ArenaApp>) -> (Vec<egui::Rect>, Vec<egui::Rect>) {
    let mut table: Vec<egui::Rect> = [
        "planner",
        "arena",
        "overhead",
        "padding",
        "largest hole",
        "budget",
        "fits",
    ]
    .iter()
    .flat_map(|l| {
        h.query_all_by_label(l)
            .map(|n| n.rect())
            .collect::<Vec<_>>()
    })
    .collect();
    // The budget cells of plans that miss ("423.2 KiB over").
    table.extend(
        h.query_all_by(|n| n.label().is_some_and(|l| l.ends_with(" over")))
            .map(|n| n.rect()),
    );
    let mut side: Vec<egui::Rect> = h
        .query_all_by_label_contains("Peak: ")
        .map(|n| n.rect())
        .collect();
    side.extend(h.query_all_by_label("Outside the arena").map(|n| n.rect()));
    side.extend(
        h.query_all_by_role(egui::accesskit::Role::Link)
            .map(|n| n.rect()),
    );
    (table, side)
}

#[test]
fn the_plans_table_fits_and_never_overlaps_the_peak_list() {
    // nasnet with a 128 KiB budget has the widest cells ("423.2 KiB over"); keyword_scrambled
    // under TFLM the TFLM headline above.
    let cases = [
        ("nasnet_cells_int8.tflite", Lifetimes::Litert, 128 * 1024),
        ("keyword_scrambled.tflite", Lifetimes::Tflm, 64 * 1024),
    ];
    for (model, lifetimes, budget) in cases {
        for size in [(1600.0, 1000.0), (1000.0, 800.0)] {
            let prefs = summary_prefs(lifetimes, Some(budget));
            let mut h = harness(app_with(model, prefs), size);
            h.run();
            let (table, side) = table_and_side(&h);
            assert!(table.len() >= 8, "{model} {size:?}: {table:?}");
            assert!(!side.is_empty(), "{model} {size:?}");
            // Every header and budget cell shows whole: none is cut at the panel's edge.
            let cells: Vec<Painted> = painted_texts(&h)
                .into_iter()
                .filter(|p| p.text == "budget" || p.text.ends_with(" over") || p.text == "fits")
                .collect();
            // (At 800 px the last rows are below the fold, in the scroll area, not painted.)
            assert!(cells.len() >= 4, "{model} {size:?}: {cells:?}");
            for c in &cells {
                let across = c.clip.x_range().expand(0.5);
                assert!(
                    across.contains(c.rect.left()) && across.contains(c.rect.right()),
                    "{model} {size:?}: {c:?}"
                );
            }
            for t in &table {
                for s in &side {
                    assert!(!t.intersects(*s), "{model} {size:?}: {t:?} overlaps {s:?}");
                }
            }
            // 1600 px: the peak list beside the table; 1000 px: below it.
            let table_bottom = table.iter().map(|r| r.bottom()).fold(0.0, f32::max);
            let peak = h.get_by_label_contains("Peak: ").rect();
            if size.0 >= 1600.0 {
                assert!(peak.top() < table_bottom, "{model}: beside");
            } else {
                assert!(peak.top() >= table_bottom, "{model}: below");
            }
        }
    }
}
