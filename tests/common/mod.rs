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
