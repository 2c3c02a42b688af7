//! Frame times of every panel, headless: an egui `Context` runs the app's UI and tessellates
//! the output, as a window would each frame (the GPU upload aside). Workloads: the largest
//! shared model (efficientnet_b0_int8, 404 tensors) and a synthetic 20 000-buffer problem.
//!
//! `cargo bench --bench frames` prints a table: the cold frame (it builds the view geometry),
//! then the median and 95th percentile of 60 steady frames (the pointer moving over the plot:
//! hit tests and tooltips included) and of 60 frames panning the plot (new bounds every
//! frame, so nothing painted can be reused), in milliseconds of CPU time.
//!
//! A second table times the actions that plan again (a change of runtime, the memory-optimised
//! order, opening a file) on the largest models: every frame from the click until the new
//! document is shown, as the window runs them (the work in the background), with the longest
//! frame — no frame may wait for the work — and the time until the result is shown.

use std::path::PathBuf;
use std::time::Instant;

use arenascope::app::{ArenaApp, Command, Panel, Preferences};

/// One frame; with `pan`, a horizontal wheel scroll moves the plot so every frame draws new
/// bounds.
fn frame(ctx: &egui::Context, app: &mut ArenaApp, t: f64, pan: bool) -> f64 {
    let mut input = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1600.0, 1000.0),
        )),
        time: Some(t),
        ..Default::default()
    };
    let x = 700.0 + (t * 37.0 % 200.0) as f32;
    input
        .events
        .push(egui::Event::PointerMoved(egui::pos2(x, 500.0)));
    if pan {
        let dx = if (t * 60.0) as i64 % 2 == 0 {
            3.0
        } else {
            -3.0
        };
        input.events.push(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(dx, 0.0),
            phase: egui::TouchPhase::Move,
            modifiers: egui::Modifiers::NONE,
            source: egui::MouseWheelSource::Wheel,
        });
    }
    let start = Instant::now();
    let out = ctx.run_ui(input, |ui| app.ui_root(ui));
    let prims = ctx.tessellate(out.shapes, out.pixels_per_point);
    std::hint::black_box(prims);
    start.elapsed().as_secs_f64() * 1e3
}

/// Frames from `action` until its document is shown and drawn: the longest frame in ms and
/// the seconds until then.
fn action(ctx: &egui::Context, app: &mut ArenaApp, action: Command, t: &mut f64) -> (f64, f64) {
    app.push(action);
    let start = Instant::now();
    let mut longest: f64 = 0.0;
    loop {
        *t += 1.0 / 60.0;
        let waiting = app.plan_job.is_some();
        longest = longest.max(frame(ctx, app, *t, false));
        if !waiting && app.plan_job.is_none() {
            break;
        }
        assert!(start.elapsed().as_secs() < 300, "the action ends");
        std::thread::sleep(std::time::Duration::from_millis(4));
    }
    (longest, start.elapsed().as_secs_f64())
}

/// The action table on `path`, shown on `panel`.
fn actions(name: &str, path: &std::path::Path, panel: Panel) {
    use arenascope::analysis::Lifetimes;
    use arenascope::document::OrderChoice;
    let prefs = Preferences {
        panel,
        ..Preferences::default()
    };
    let mut app = ArenaApp::new(prefs, Some(path));
    assert!(app.error.is_none(), "{:?}", app.error);
    app.sync_jobs = false;
    let ctx = egui::Context::default();
    let mut t = 0.0;
    frame(&ctx, &mut app, t, false);
    let steps = [
        (
            "runtime: LiteRT to TFLM",
            Command::SetLifetimes(Lifetimes::Tflm),
        ),
        (
            "order: memory-optimised (TFLM)",
            Command::SetOrder(OrderChoice::Optimized),
        ),
        (
            "order: the file's (TFLM)",
            Command::SetOrder(OrderChoice::File),
        ),
        (
            "runtime: TFLM to LiteRT with XNNPACK",
            Command::SetLifetimes(Lifetimes::Xnnpack),
        ),
        (
            "runtime: XNNPACK to LiteRT",
            Command::SetLifetimes(Lifetimes::Litert),
        ),
        (
            "order: memory-optimised (LiteRT)",
            Command::SetOrder(OrderChoice::Optimized),
        ),
        ("open the file again", Command::Open(path.to_path_buf())),
    ];
    for (what, c) in steps {
        let (longest, seconds) = action(&ctx, &mut app, c, &mut t);
        assert!(app.error.is_none(), "{what}: {:?}", app.error);
        println!(
            "| {name} | {} | {what} | {longest:.1} | {seconds:.2} |",
            panel.title()
        );
    }
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(|a, b| a.total_cmp(b));
    (v[v.len() / 2], v[v.len() * 95 / 100])
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut large = vec![(
        "nasnet_mobile_int8".to_string(),
        root.join("sample_models/nasnet_mobile_int8.tflite"),
    )];
    let effnet = root.join("../shared/models/efficientnet_b0_int8.tflite");
    if effnet.exists() {
        large.push(("efficientnet_b0_int8".into(), effnet));
    }
    println!("| model | panel | action | longest frame ms | until shown s |");
    println!("|---|---|---|---|---|");
    for (name, path) in large.iter().filter(|(_, p)| p.exists()) {
        for panel in [Panel::Summary, Panel::Layout] {
            actions(name, path, panel);
        }
    }
    println!();

    let mut workloads: Vec<(String, PathBuf)> = Vec::new();
    let effnet = root.join("../shared/models/efficientnet_b0_int8.tflite");
    if effnet.exists() {
        workloads.push(("efficientnet_b0_int8 (404 tensors)".into(), effnet));
    } else {
        println!("SKIPPED efficientnet_b0_int8: ../shared/models is not beside this checkout");
    }
    let synth = std::env::temp_dir().join("arenascope-frames-20000.csv");
    let problem = arenascope::synth::network_like(20_000, 7, 64);
    std::fs::write(&synth, arenascope::export::csv::write_problem(&problem))
        .expect("write the synthetic problem");
    workloads.push(("synthetic, 20 000 buffers".into(), synth));

    println!("| workload | panel | cold frame ms | median ms | p95 ms | panning median ms | panning p95 ms |");
    println!("|---|---|---|---|---|---|---|");
    for (name, path) in &workloads {
        for panel in Panel::ALL {
            let prefs = Preferences {
                panel,
                ..Preferences::default()
            };
            let mut app = ArenaApp::new(prefs, Some(path));
            assert!(app.error.is_none(), "{:?}", app.error);
            // Select the largest buffer at the peak, so every panel paints a highlight and the
            // conflict graph of the large problem shows its neighbourhood.
            let problem = app.doc.problem(0);
            let m = arenascope::plan::metrics(problem, &app.doc.plans(0)[0].offsets);
            let largest = m
                .peak_buffers
                .iter()
                .max_by_key(|&&b| problem.buffers[b].size_bytes)
                .map(|&b| problem.buffers[b].tensor);
            app.push(Command::Select(largest));
            app.apply_commands();
            let ctx = egui::Context::default();
            let cold = frame(&ctx, &mut app, 0.0, false);
            let steady = percentiles(
                (1..=60)
                    .map(|i| frame(&ctx, &mut app, i as f64 / 60.0, false))
                    .collect(),
            );
            let panning = percentiles(
                (61..=120)
                    .map(|i| frame(&ctx, &mut app, i as f64 / 60.0, true))
                    .collect(),
            );
            println!(
                "| {name} | {} | {cold:.1} | {:.2} | {:.2} | {:.2} | {:.2} |",
                panel.title(),
                steady.0,
                steady.1,
                panning.0,
                panning.1
            );
        }
    }
}
