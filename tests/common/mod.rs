//! Helpers shared by the integration tests.

use std::process::Command;

#[allow(dead_code)] // not every test crate runs the binary
/// Runs the `arenascope` binary: (exit code, stdout, stderr).
pub fn arenascope(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arenascope"))
        .args(args)
        .output()
        .expect("run arenascope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[allow(dead_code)] // not every test crate has a corpus part
/// Says that a test skipped its corpus part, visibly: written to the real stderr, which the
/// test harness does not capture, so it shows in a plain `cargo test` run.
pub fn skipped(what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED: {what}");
}

#[allow(dead_code)] // not every test crate opens a sample
/// A model of `sample_models/`.
pub fn sample_path(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(name)
}

/// The app driven headlessly (egui_kittest), for the UI test crates.
#[cfg(feature = "gui")]
#[allow(dead_code)] // each UI test crate uses some of these
pub mod ui {
    use arenascope::app::{ArenaApp, Panel, Preferences};
    use egui_kittest::Harness;

    /// The app's whole window at `size` points.
    pub fn harness_sized(app: ArenaApp, size: egui::Vec2) -> Harness<'static, ArenaApp> {
        Harness::builder()
            .with_size(size)
            .build_ui_state(|ui, app: &mut ArenaApp| app.ui_root(ui), app)
    }

    /// The app's whole window at 1600 x 1000, the screenshots' size.
    pub fn harness(app: ArenaApp) -> Harness<'static, ArenaApp> {
        harness_sized(app, egui::vec2(1600.0, 1000.0))
    }

    /// The app on a sample model, showing `panel`; it opened without an error.
    pub fn app_on(model: &str, panel: Panel) -> ArenaApp {
        let prefs = Preferences {
            panel,
            ..Preferences::default()
        };
        let app = ArenaApp::new(prefs, Some(&super::sample_path(model)));
        assert!(app.error.is_none(), "{:?}", app.error);
        app
    }
}
