//! `arenascope ops`: the operator catalogue (DESIGN.md §3.5) per runtime — every builtin
//! operator it registers, per type variant verified against the real runtime or not modelled,
//! with the models that verify it — as a table or JSON.

use std::fmt::Write as _;

use clap::{Args, ValueEnum};

use super::CliError;
use crate::analysis::catalogue::{self, Runtime};

#[derive(Args, Debug)]
pub struct OpsArgs {
    /// The runtime whose catalogue to print (default: all three).
    #[arg(long, value_enum)]
    pub runtime: Option<RuntimeArg>,
    #[arg(long, value_enum, default_value = "table")]
    pub format: OpsFormat,
    /// A .tflite model: list its operator × type variants instead, with each one's status on
    /// the three runtimes.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<std::path::PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum RuntimeArg {
    Litert,
    Tflm,
    Xnnpack,
}

impl From<RuntimeArg> for Runtime {
    fn from(r: RuntimeArg) -> Self {
        match r {
            RuntimeArg::Litert => Runtime::Litert,
            RuntimeArg::Tflm => Runtime::Tflm,
            RuntimeArg::Xnnpack => Runtime::Xnnpack,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OpsFormat {
    Table,
    Json,
}

/// One catalogue row of the JSON, with its runtime.
#[derive(serde::Serialize)]
struct Row {
    runtime: &'static str,
    #[serde(flatten)]
    entry: catalogue::Entry,
}

pub fn run(args: &OpsArgs) -> Result<String, CliError> {
    if let Some(path) = &args.model {
        return of_model(path, args.format);
    }
    let runtimes: Vec<Runtime> = match args.runtime {
        Some(r) => vec![r.into()],
        None => Runtime::ALL.to_vec(),
    };
    Ok(match args.format {
        OpsFormat::Json => {
            let rows: Vec<Row> = runtimes
                .iter()
                .flat_map(|&r| {
                    catalogue::entries(r).into_iter().map(move |entry| Row {
                        runtime: r.name(),
                        entry,
                    })
                })
                .collect();
            serde_json::to_string_pretty(&rows).unwrap_or_default() + "\n"
        }
        OpsFormat::Table => {
            let mut s = String::new();
            for r in runtimes {
                let (registered, verified) = catalogue::coverage(r);
                let _ = writeln!(
                    s,
                    "{}: {verified} of the {registered} builtin operators {} verified (source: {})",
                    r.name(),
                    match r {
                        catalogue::Runtime::Xnnpack => "the delegate visits",
                        _ => "it registers",
                    },
                    r.registry_source()
                );
                let _ = writeln!(
                    s,
                    "  {:<32} {:<9} {:<13} verified by",
                    "op", "types", "status"
                );
                let mut noted: Vec<String> = Vec::new();
                for e in catalogue::entries(r) {
                    let _ = writeln!(
                        s,
                        "  {:<32} {:<9} {:<13} {}",
                        e.op,
                        e.types,
                        e.status,
                        e.verified_by.join(", ")
                    );
                    if let Some(note) = e.note.filter(|_| !noted.contains(&e.op)) {
                        let _ = writeln!(s, "  {:<32} ({note})", "");
                        noted.push(e.op.clone());
                    }
                }
                s.push('\n');
            }
            s
        }
    })
}

/// `ops --model`: the model's operator × type variants and their status per runtime.
fn of_model(path: &std::path::Path, format: OpsFormat) -> Result<String, CliError> {
    let (source, _) = crate::document::Source::open(path)?;
    let crate::document::Source::Model(model) = source else {
        return Err(CliError::Usage(format!(
            "{}: not a .tflite model (ops --model lists a model's operators)",
            path.display()
        )));
    };
    let pairs = catalogue::model_pairs(&model);
    Ok(match format {
        OpsFormat::Json => serde_json::to_string_pretty(&pairs).unwrap_or_default() + "\n",
        OpsFormat::Table => {
            let mut s = String::new();
            let _ = writeln!(
                s,
                "  {:<32} {:<9} {:>5}  {:<13} {:<13} {:<13}",
                "op", "types", "nodes", "litert", "tflm", "xnnpack"
            );
            for p in &pairs {
                let _ = writeln!(
                    s,
                    "  {:<32} {:<9} {:>5}  {:<13} {:<13} {:<13}",
                    p.op, p.types, p.nodes, p.litert, p.tflm, p.xnnpack
                );
            }
            s
        }
    })
}
