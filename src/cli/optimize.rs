//! `arenascope optimize`: write a copy of a model whose operators run in the order that lowers
//! the runtime's arena (DESIGN.md §3.4). The operator vectors are rewritten in place (every
//! other byte kept); the result is reloaded, verified and its arena predicted before it is
//! written, to a temporary name renamed only then. Nothing is written when no smaller arena
//! was found, for a Vela model, or over the input.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{CliError, LifetimesArg};
use crate::analysis::{self, Lifetimes};
use crate::document::{optimize_orders, Document, Source};
use crate::model::Model;
use crate::planner::{self, Settings};

#[derive(Args, Debug)]
pub struct OptimizeArgs {
    pub model: PathBuf,
    #[arg(long, value_name = "OUT.tflite")]
    pub out: PathBuf,
    /// The runtime whose arena to lower: LiteRT (every subgraph's arena) or TFLite Micro (its
    /// head; the offline plan is not written yet, the order is).
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

/// The runtime's arena for a model: LiteRT's arenas summed over subgraphs (each has its own),
/// or TFLM's head.
fn runtime_arena(model: &Model, lifetimes: Lifetimes) -> Result<u64, CliError> {
    let id = lifetimes.name();
    let info = planner::find(id).expect("the runtime emulations are registered");
    let problems =
        analysis::problems(model, lifetimes).map_err(|e| CliError::Input(e.to_string()))?;
    let mut total = 0;
    for p in &problems {
        let plan = planner::run(info, p, &Settings::default())
            .map_err(|v| CliError::Input(format!("the {id} plan is invalid ({v})")))?;
        total += plan.arena_bytes;
    }
    Ok(total)
}

pub fn run(args: &OptimizeArgs) -> Result<String, CliError> {
    let input_err = |what: String| CliError::Input(format!("{what}: {}", args.model.display()));
    if args.out == args.model
        || std::fs::canonicalize(&args.out).ok() == std::fs::canonicalize(&args.model).ok()
            && args.out.exists()
    {
        return Err(CliError::Usage(format!(
            "--out must not be the input; nothing was written: {}",
            args.out.display()
        )));
    }
    let lifetimes: Lifetimes = args.runtime.into();
    let doc = Document::open(&args.model, lifetimes, None)?;
    let Source::Model(model) = &doc.source else {
        return Err(CliError::Usage(format!(
            "optimize takes a .tflite model, not a CSV problem: {}",
            args.model.display()
        )));
    };
    if model.offline_offsets.is_some() {
        return Err(input_err(
            "the model already carries an offline plan (OfflineMemoryAllocation, e.g. Vela's); nothing was written"
                .into(),
        ));
    }
    let before = runtime_arena(model, lifetimes)?;
    let (orders, reports) =
        optimize_orders(model, lifetimes, args.time_limit).map_err(|e| input_err(e.to_string()))?;
    if orders.iter().all(Option::is_none) {
        return Err(input_err(format!(
            "no order lowers {}'s arena below {before} bytes; nothing was written",
            lifetimes.name()
        )));
    }
    // Every order is checked: each operator after the producers of its inputs, side effects
    // in their file order.
    for (s, order) in orders.iter().enumerate() {
        if let Some(order) = order {
            if !analysis::order::is_valid_order(model, s, order) {
                return Err(input_err(format!(
                    "the order found for subgraph {s} is not valid; nothing was written"
                )));
            }
        }
    }
    let bytes = std::fs::read(&args.model).map_err(|e| input_err(format!("cannot read ({e})")))?;
    let written = crate::model::patch::reorder_operators(&bytes, &orders)
        .map_err(|e| input_err(e.to_string()))?;
    // Reload what would be written: it must verify and need the predicted arena.
    let reloaded = Model::from_bytes(&written).map_err(|e| {
        input_err(format!(
            "the rewritten model does not verify ({e}); nothing was written"
        ))
    })?;
    let after = runtime_arena(&reloaded, lifetimes)?;
    let predicted = runtime_arena(&analysis::order::reordered(model, &orders), lifetimes)?;
    if after != predicted || after >= before {
        return Err(input_err(format!(
            "the rewritten model needs {after} bytes (predicted {predicted}, before {before}); nothing was written"
        )));
    }
    let tmp = args.out.with_extension("tflite.partial");
    std::fs::write(&tmp, &written).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::Input(format!("cannot write ({e}): {}", tmp.display()))
    })?;
    std::fs::rename(&tmp, &args.out).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::Input(format!("cannot write ({e}): {}", args.out.display()))
    })?;
    let exact = reports.iter().all(|r| r.exact);
    Ok(match args.format {
        OptimizeFormat::Json => {
            let v = serde_json::json!({
                "runtime": lifetimes.name(),
                "before": {"order": "file", "arena_bytes": before},
                "after": {"order": "optimized", "arena_bytes": after},
                "order_changed": true,
                "offline_plan": false,
                "order_search": if exact { "exact" } else { "heuristic" },
                "seconds": reports.iter().map(|r| r.seconds).sum::<f64>(),
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
                100.0 * (before - after) as f64 / before.max(1) as f64,
                if exact { "exact" } else { "heuristic" },
                args.out.display()
            );
            for r in &reports {
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
