//! The `arenascope` binary: the GUI, or a headless command.

// No `unwrap`/`expect` outside tests: a fallible path returns its error instead (tests, the
// benches and `#[cfg(test)]` modules are compiled without this attribute).
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

use clap::Parser;

use arenascope::cli::{self, Cli};

fn main() {
    let args = Cli::parse();
    let code = match args.command {
        Some(command) => match cli::run(command) {
            Ok(text) => {
                // A reader that stops early (`| head`) closes the pipe: not an error of ours.
                use std::io::Write as _;
                let mut out = std::io::stdout().lock();
                match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        eprintln!("arenascope: writing the output: {e}");
                        1
                    }
                    _ => 0,
                }
            }
            Err(e) => {
                eprintln!("arenascope: {e}");
                e.exit_code()
            }
        },
        None => gui(&args),
    };
    std::process::exit(code);
}

#[cfg(feature = "gui")]
fn gui(args: &Cli) -> i32 {
    let panel = match args
        .panel
        .as_deref()
        .map(|p| (p, arenascope::app::Panel::from_name(p)))
    {
        Some((name, None)) => {
            eprintln!("arenascope: unknown panel {name:?}; the panels are summary, tensors, lifetimes, layout, conflicts, memory, compare");
            return 2;
        }
        Some((_, p)) => p,
        None => None,
    };
    let budget = match args
        .budget
        .as_deref()
        .map(arenascope::document::parse_budget)
    {
        Some(Err(e)) => {
            eprintln!("arenascope: {e}");
            return 2;
        }
        Some(Ok(b)) => Some(b),
        None => None,
    };
    if let Some(id) = args
        .planner
        .as_deref()
        .filter(|id| arenascope::planner::find(id).is_none())
    {
        let known: Vec<&str> = arenascope::planner::REGISTRY.iter().map(|p| p.id).collect();
        eprintln!(
            "arenascope: unknown planner {id:?} for --planner; the planners are: {}",
            known.join(", ")
        );
        return 2;
    }
    let opts = arenascope::app::RunOptions {
        file: args.file.clone(),
        screenshot: args.screenshot.clone(),
        panel,
        dark: args.dark.then_some(true),
        budget,
        lifetimes: args.lifetimes.map(Into::into),
        order: args.order.map(Into::into),
        problem: args.problem,
        planner: args.planner.clone(),
        target: args.target.map(Into::into),
    };
    match arenascope::app::run(opts) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("arenascope: {e}");
            1
        }
    }
}

#[cfg(not(feature = "gui"))]
fn gui(_: &Cli) -> i32 {
    eprintln!("arenascope: this build has no GUI (built without the `gui` feature); use a subcommand, see --help");
    2
}
