//! `arenascope optimize`: write a copy of a model whose operators run in the order that lowers
//! the runtime's arena (DESIGN.md §3.4), and for TFLM with the best plan as its offline plan
//! where that beats TFLM's own planner. The operator vectors are rewritten in place and the
//! offline plan goes in front of the unchanged original (every other byte kept); the result is
//! reloaded, verified and its arena predicted before it is written, to a temporary name
//! renamed only then. Nothing is written when no smaller arena was found, for a Vela model, or
//! over the input.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{CliError, LifetimesArg};
use crate::analysis::Lifetimes;
use crate::document::optimize::{write_optimized, OptimizeError};
use crate::document::{Document, Source};

#[derive(Args, Debug)]
pub struct OptimizeArgs {
    pub model: PathBuf,
    #[arg(long, value_name = "OUT.tflite")]
    pub out: PathBuf,
    /// The runtime whose arena to lower: LiteRT (every subgraph's arena) or TFLite Micro (its
    /// head: the order, and an offline plan where it beats TFLM's own planner).
    #[arg(long, value_enum, default_value = "litert")]
    pub runtime: LifetimesArg,
    /// Time for the order search of each subgraph, in seconds (it widens its beam while time
    /// is left).
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    #[arg(long, value_enum, default_value = "table")]
    pub format: OptimizeFormat,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OptimizeFormat {
    Table,
    Json,
}

pub fn run(args: &OptimizeArgs) -> Result<String, CliError> {
    let lifetimes: Lifetimes = args.runtime.into();
    if args.out == args.model {
        return Err(CliError::Usage(format!(
            "--out must not be the input; nothing was written: {}",
            args.out.display()
        )));
    }
    let doc = Document::open(&args.model, lifetimes, None)?;
    let Source::Model(model) = &*doc.source else {
        return Err(CliError::Usage(format!(
            "optimize takes a .tflite model, not a CSV problem: {}",
            args.model.display()
        )));
    };
    let input_err = |what: String| CliError::Input(format!("{what}: {}", args.model.display()));
    let bytes = std::fs::read(&args.model).map_err(|e| input_err(format!("cannot read ({e})")))?;
    let done = write_optimized(
        model,
        &bytes,
        Some(&args.model),
        &args.out,
        lifetimes,
        args.time_limit,
        None,
    )
    .map_err(|e| match e {
        OptimizeError::SamePath(_) => CliError::Usage(format!(
            "--out must not be the input; nothing was written: {}",
            args.out.display()
        )),
        OptimizeError::Refused(why) => input_err(why),
    })?;
    let (before, after, reports) = (done.before, done.after, &done.reports);
    let exact = done.exact();
    Ok(match args.format {
        OptimizeFormat::Json => {
            let v = serde_json::json!({
                "runtime": lifetimes.name(),
                "before": {"order": "file", "arena_bytes": before},
                "after": {"order": "optimized", "arena_bytes": after},
                "order_changed": reports.iter().any(|r| r.changed),
                "offline_plan": done.offline.as_ref().map(|p| serde_json::json!({
                    "planner": p.planner,
                    "head": p.head,
                    "tflm_own_head": p.greedy_head,
                })),
                "order_search": if exact { "exact" } else { "heuristic" },
                "seconds": done.seconds(),
                "written": args.out.display().to_string(),
            });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
        OptimizeFormat::Table => {
            let mut s = String::new();
            let _ = writeln!(
                s,
                "{}: {} arena {before} -> {after} bytes ({:.1}% less), {} order search; wrote {}",
                args.model.display(),
                lifetimes.name(),
                done.percent_less(),
                if exact { "exact" } else { "heuristic" },
                args.out.display()
            );
            if let Some(p) = &done.offline {
                let _ = writeln!(
                    s,
                    "  offline plan ({}) written: TFLM's head {} instead of its own {}",
                    p.planner, p.head, p.greedy_head
                );
            }
            for r in reports {
                let _ = writeln!(
                    s,
                    "  subgraph {}: {} -> {}{}",
                    r.subgraph,
                    r.arena_before,
                    r.arena_after,
                    if r.changed { "" } else { " (file order kept)" }
                );
            }
            s
        }
    })
}
