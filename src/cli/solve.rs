//! `arenascope solve`: a MiniMalloc CSV problem minimised (or decided at `--capacity`) by the
//! chosen planners; `--out` writes the solution rows. The runtime emulations run here too, as
//! placement rules: the CSV's row order stands for the runtime's buffer (tensor) index.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::CliError;
use crate::analysis::Lifetimes;
use crate::document::{select_planners, Document, PlanRequest, Source};
use crate::plan::Plan;
use crate::planner::Settings;

#[derive(Args, Debug)]
pub struct SolveArgs {
    pub problem: PathBuf,
    /// Planner id; repeat for several; `all` (the default) = every heuristic. `litert` and
    /// `tflm` place the buffers by the runtime's own rules when named.
    #[arg(long = "planner", value_name = "ID")]
    pub planners: Vec<String>,
    /// Decide whether the buffers fit in this many bytes (exit code 1 when no planner fits).
    #[arg(long, value_name = "BYTES")]
    pub capacity: Option<u64>,
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    #[arg(long, value_enum, default_value = "table")]
    pub format: SolveFormat,
    /// Write the solution (the input rows plus an offset column); needs exactly one --planner.
    #[arg(long, value_name = "SOLUTION.csv")]
    pub out: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SolveFormat {
    Table,
    Json,
}

pub fn run(args: &SolveArgs) -> Result<String, CliError> {
    let path = &args.problem;
    let planners = select_planners(&args.planners, None)?;
    if args.out.is_some() && planners.len() != 1 {
        return Err(CliError::Usage("--out needs exactly one --planner".into()));
    }
    let mut doc = Document::open(path, Lifetimes::Litert, None)?;
    if !doc.is_csv() {
        return Err(CliError::Usage(format!(
            "solve takes a MiniMalloc .csv problem, not a model: {}",
            path.display()
        )));
    }
    doc.plan(PlanRequest {
        order: crate::document::OrderChoice::File,
        lifetimes: Lifetimes::Litert,
        align: None,
        planners,
        settings: Settings {
            time_limit_secs: args.time_limit,
            capacity: args.capacity,
        },
        platform: Default::default(),
        isa: None,
    })?;
    let (problem, plans) = (doc.problem(0), doc.plans(0));
    if let (Some(out), Some(plan), Source::Csv { rows, .. }) =
        (&args.out, plans.first(), &*doc.source)
    {
        std::fs::write(out, crate::export::csv::write_solution(rows, &plan.offsets)).map_err(
            |e| {
                CliError::Input(format!(
                    "cannot write the solution ({e}): {}",
                    out.display()
                ))
            },
        )?;
    }
    let capacity = args.capacity;
    let fits = |p: &Plan| capacity.map(|c| p.arena_bytes <= c);
    let text = match args.format {
        SolveFormat::Json => {
            let arr: Vec<serde_json::Value> = plans
                .iter()
                .map(|p| {
                    let mut v = serde_json::json!({
                        "planner": p.planner, "arena_bytes": p.arena_bytes, "lower_bound": p.lower_bound,
                        "optimal": p.optimal(), "seconds": p.seconds,
                    });
                    if let Some(pb) = p.proven_bound.filter(|&b| b > p.lower_bound) {
                        v["proven_bound"] = pb.into();
                    }
                    if let Some(f) = fits(p) {
                        v["fits"] = f.into();
                    }
                    v
                })
                .collect();
            serde_json::to_string_pretty(&arr).unwrap_or_default() + "\n"
        }
        SolveFormat::Table => {
            let mut s = format!(
                "{}: {} buffers, lower bound {} bytes\n",
                path.display(),
                problem.buffers.len(),
                problem.lower_bound()
            );
            s += &super::plan_table(problem, plans, None);
            if let Some(c) = capacity {
                for p in plans {
                    let verdict = if p.arena_bytes <= c {
                        "fits in"
                    } else if p.proven_bound.is_some_and(|b| b > c) {
                        "proved that no plan fits in"
                    } else {
                        "found no plan (and no proof that none exists) in"
                    };
                    let _ = writeln!(s, "{}: {verdict} {c} bytes", p.planner);
                }
            }
            s
        }
    };
    if let Some(c) = capacity {
        if !plans.iter().any(|p| p.arena_bytes <= c) {
            print!("{text}");
            return Err(CliError::Input(format!(
                "no planner fitted the buffers in {c} bytes: {}",
                path.display()
            )));
        }
    }
    Ok(text)
}
