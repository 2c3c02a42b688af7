//! Helpers shared by the integration tests.

use std::process::Command;

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
