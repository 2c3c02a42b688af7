//! The `arenascope` binary: the GUI, or a headless command.

use clap::Parser;

use arenascope::cli::{self, Cli};

fn main() {
    let args = Cli::parse();
    let code = match args.command {
        Some(command) => match cli::run(command) {
            Ok(text) => {
                print!("{text}");
                0
            }
            Err(e) => {
                eprintln!("arenascope: {}", e.message());
                e.exit_code()
            }
        },
        None => gui(args.file, args.screenshot),
    };
    std::process::exit(code);
}

#[cfg(feature = "gui")]
fn gui(file: Option<std::path::PathBuf>, screenshot: Option<std::path::PathBuf>) -> i32 {
    match arenascope_app::run(file, screenshot) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arenascope: {e}");
            1
        }
    }
}

#[cfg(not(feature = "gui"))]
fn gui(_: Option<std::path::PathBuf>, _: Option<std::path::PathBuf>) -> i32 {
    eprintln!("arenascope: this build has no GUI (built without the `gui` feature); use a subcommand, see --help");
    2
}

#[cfg(feature = "gui")]
mod arenascope_app {
    pub use arenascope::app::run;
}
