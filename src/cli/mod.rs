//! The command line: clap parses into one `Args` struct per subcommand, each run by its own
//! file over the headless [`crate::document`] pipeline. Errors are one sentence with the file
//! path last; exit code 1 for bad input, 2 for bad usage.

mod bench;
mod bench_exact;
mod export;
mod ops;
mod optimize;
mod plan;
mod solve;
mod table;

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::analysis::Lifetimes;
use crate::document::{DocumentError, SelectError};

pub use bench::BenchArgs;
pub use export::ExportArgs;
pub use ops::OpsArgs;
pub use optimize::OptimizeArgs;
pub use plan::PlanArgs;
pub use solve::SolveArgs;
pub use table::plan_table;

#[derive(Parser, Debug)]
#[command(
    name = "arenascope",
    version,
    about = "See every tensor's lifetime and place in the TFLite / TFLite Micro tensor arena; compare memory planners against the lower bound.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// A .tflite model or a MiniMalloc .csv problem to open in the GUI (default: an embedded sample model).
    pub file: Option<PathBuf>,
    /// Render the window for a few frames, save it as PNG and exit.
    #[arg(long, value_name = "OUT.png")]
    pub screenshot: Option<PathBuf>,
    /// The panel to show first: summary, tensors, lifetimes, layout, conflicts, memory, compare.
    #[arg(long, value_name = "NAME")]
    pub panel: Option<String>,
    /// Start in the dark theme.
    #[arg(long)]
    pub dark: bool,
    /// Start with this RAM budget (bytes, or with K, M, G).
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub budget: Option<String>,
    /// Start with these lifetimes (the problem LiteRT or TFLite Micro solves).
    #[arg(long, value_enum)]
    pub lifetimes: Option<LifetimesArg>,
    /// Start on this execution order: as in the file, or the memory-optimised one.
    #[arg(long, value_enum)]
    pub order: Option<plan::OrderArg>,
    /// Start on this problem: a subgraph, or with --lifetimes xnnpack the TFLite arenas (one
    /// per subgraph) then the XNNPACK workspaces (one per partition).
    #[arg(long, value_name = "N")]
    pub problem: Option<usize>,
    /// Start with this planner shown in the layout (an id of `arenascope planners`).
    #[arg(long, value_name = "ID")]
    pub planner: Option<String>,
    /// Start with the headline for this TFLM build (remembered).
    #[arg(long, value_enum)]
    pub target: Option<TargetArg>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Plan a model's arena with one or more planners and report arena, lower bound and overhead.
    Plan(PlanArgs),
    /// Solve a MiniMalloc CSV problem (id,lower,upper,size[,alignment]; half-open times).
    Solve(SolveArgs),
    /// Draw a view of a model's (or CSV problem's) plans as SVG or PNG, with no display.
    Export(ExportArgs),
    /// Write a copy of a model whose operators run in the order that lowers the runtime's arena.
    Optimize(OptimizeArgs),
    /// List the planner ids with one line each.
    Planners,
    /// The operator catalogue per runtime: every builtin operator it registers, per type
    /// variant verified against the real runtime or not modelled.
    Ops(OpsArgs),
    /// Time loading, lifetimes and every planner on models and synthetic problems; print tables.
    Bench(BenchArgs),
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum LifetimesArg {
    Litert,
    Tflm,
    /// LiteRT with its default XNNPACK delegate.
    Xnnpack,
}

impl From<LifetimesArg> for Lifetimes {
    fn from(l: LifetimesArg) -> Self {
        match l {
            LifetimesArg::Litert => Lifetimes::Litert,
            LifetimesArg::Tflm => Lifetimes::Tflm,
            LifetimesArg::Xnnpack => Lifetimes::Xnnpack,
        }
    }
}

/// The TFLM build whose `tensor_arena_size` the headline gives (`--target`), each measured: the
/// x86-64 host build of the pip package, and Cortex-M builds under qemu-arm.
#[derive(Clone, Copy, Debug, clap::ValueEnum, PartialEq, Eq, Default)]
pub enum TargetArg {
    /// The x86-64 host build of the `tflite-micro` pip package.
    #[default]
    #[value(name = "x86-64")]
    X8664,
    /// A 32-bit Cortex-M with TFLM's reference kernels (GCC bare-metal ABI).
    CortexM,
    /// A Cortex-M with DSP (M4, M7, M33) and the CMSIS-NN kernels.
    CortexMCmsisNn,
    /// A Cortex-M55 (MVE) with the CMSIS-NN kernels.
    #[value(name = "cortex-m55-cmsis-nn")]
    CortexM55CmsisNn,
}

impl From<TargetArg> for crate::document::TflmTarget {
    fn from(t: TargetArg) -> Self {
        use crate::document::TflmTarget;
        match t {
            TargetArg::X8664 => TflmTarget::Host64,
            TargetArg::CortexM => TflmTarget::Bits32,
            TargetArg::CortexMCmsisNn => TflmTarget::CmsisNn,
            TargetArg::CortexM55CmsisNn => TflmTarget::CmsisNnM55,
        }
    }
}

/// A failure of a command: bad input (exit 1) or bad usage (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Input(String),
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 1,
            CliError::Usage(_) => 2,
        }
    }
}

impl From<DocumentError> for CliError {
    fn from(e: DocumentError) -> Self {
        CliError::Input(e.to_string())
    }
}

impl From<SelectError> for CliError {
    fn from(e: SelectError) -> Self {
        CliError::Usage(e.to_string())
    }
}

/// Runs the command; returns what to print on stdout.
pub fn run(command: Command) -> Result<String, CliError> {
    match command {
        Command::Planners => Ok(planners_text()),
        Command::Ops(args) => ops::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Optimize(args) => optimize::run(&args),
        Command::Bench(args) => Ok(bench::run(&args)),
    }
}

fn planners_text() -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    for p in crate::planner::REGISTRY {
        let _ = writeln!(s, "{:<18} {}", p.id, p.summary);
    }
    s
}
