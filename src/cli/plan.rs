//! `arenascope plan`: every problem of a model (or a CSV problem) planned by the chosen
//! planners, as a table, the plan JSON (DESIGN.md §3.2) or one CSV row per buffer.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{CliError, LifetimesArg};
use crate::analysis::xnnpack::Isa;
use crate::document::{parse_budget, select_planners, Document, HeadlineOptions, PlanRequest};
use crate::planner::Settings;

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// The .tflite model (a MiniMalloc .csv problem works too).
    pub model: PathBuf,
    /// Planner id (see `arenascope planners`); repeat for several; `all` = every heuristic and
    /// the emulation of the chosen lifetimes' runtime. A runtime emulation named explicitly
    /// runs on its own runtime's problem, whatever --lifetimes says.
    #[arg(long = "planner", value_name = "ID")]
    pub planners: Vec<String>,
    /// Lifetime convention of the generic planners: the problem LiteRT (per subgraph) or
    /// TFLite Micro (one arena) solves.
    #[arg(long, value_enum, default_value = "litert")]
    pub lifetimes: LifetimesArg,
    /// With --lifetimes xnnpack: the CPU class XNNPACK's workspace is rounded for (x86-64: 64
    /// bytes, as measured; arm: 16 bytes, computed by the same rules, not measured).
    #[arg(long, value_enum, default_value = "x86-64")]
    pub platform: PlatformArg,
    /// With --lifetimes xnnpack: the CPU class whose XNNPACK kernels the packed weights and
    /// indirection buffers are estimated for (default: amx on x86-64, neon on arm). amx and
    /// avx512 are measured; neon is computed, not measured.
    #[arg(long, value_enum)]
    pub isa: Option<IsaArg>,
    /// Offset alignment of the generic planners (default: 64 with litert lifetimes, 16 with tflm).
    #[arg(long, value_name = "BYTES")]
    pub align: Option<u64>,
    /// Time limit of the search planners, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 10.0)]
    pub time_limit: f64,
    #[arg(long, value_enum, default_value = "table")]
    pub format: PlanFormat,
    /// The execution order: as in the file, or the one that lowers the runtime's arena
    /// (searched per subgraph; kept only where the runtime's own plan gets smaller).
    #[arg(long, value_enum, default_value = "file")]
    pub order: OrderArg,
    /// A RAM budget (bytes, or with K, M, G: KiB, MiB, GiB): adds a "fits" column (JSON: a
    /// `fits` field per plan); the exit code is 0 either way.
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub budget: Option<String>,
    /// With --lifetimes tflm: the TFLM build the headline's tensor_arena_size is for.
    #[arg(long, value_enum, default_value = "x86-64")]
    pub target: super::TargetArg,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum OrderArg {
    File,
    Optimized,
}

impl From<OrderArg> for crate::document::OrderChoice {
    fn from(o: OrderArg) -> Self {
        match o {
            OrderArg::File => crate::document::OrderChoice::File,
            OrderArg::Optimized => crate::document::OrderChoice::Optimized,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PlatformArg {
    #[value(name = "x86-64")]
    X86_64,
    Arm,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum IsaArg {
    /// x86-64 with AVX-512 and AMX (Sapphire Rapids and later).
    Amx,
    /// x86-64 with AVX-512 VNNI and no AMX (Ice Lake, Cascade Lake).
    Avx512,
    /// aarch64 NEON with the dot product.
    Neon,
}

impl From<IsaArg> for Isa {
    fn from(i: IsaArg) -> Self {
        match i {
            IsaArg::Amx => Isa::X86Amx,
            IsaArg::Avx512 => Isa::X86Avx512,
            IsaArg::Neon => Isa::ArmNeon,
        }
    }
}

impl From<PlatformArg> for crate::analysis::xnnpack::Platform {
    fn from(p: PlatformArg) -> Self {
        match p {
            PlatformArg::X86_64 => Self::X86_64,
            PlatformArg::Arm => Self::Arm,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PlanFormat {
    Table,
    Json,
    Csv,
}

/// Opens a file and plans it as the command line asks (shared by `plan` and `export`).
pub(super) fn open_and_plan(
    path: &std::path::Path,
    ids: &[String],
    lifetimes: LifetimesArg,
    align: Option<u64>,
    order: crate::document::OrderChoice,
    settings: Settings,
    (platform, isa): (crate::analysis::xnnpack::Platform, Option<Isa>),
) -> Result<Document, CliError> {
    if align == Some(0) {
        return Err(CliError::Usage("--align must be at least 1".into()));
    }
    let lifetimes = lifetimes.into();
    let mut doc = Document::open(path, lifetimes, align)?;
    let planners = select_planners(ids, (!doc.is_csv()).then_some(lifetimes))?;
    doc.plan(PlanRequest {
        order,
        lifetimes,
        align,
        planners,
        settings,
        platform,
        isa,
    })?;
    if doc.planned.iter().all(|p| p.plans.is_empty()) {
        return Err(CliError::Usage(format!(
            "none of the named planners runs on this problem: {}",
            path.display()
        )));
    }
    Ok(doc)
}

pub fn run(args: &PlanArgs) -> Result<String, CliError> {
    let budget = args
        .budget
        .as_deref()
        .map(parse_budget)
        .transpose()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let settings = Settings {
        time_limit_secs: args.time_limit,
        capacity: None,
    };
    let doc = open_and_plan(
        &args.model,
        &args.planners,
        args.lifetimes,
        args.align,
        args.order.into(),
        settings,
        (args.platform.into(), args.isa.map(Into::into)),
    )?;
    let opts = HeadlineOptions {
        target: args.target.into(),
        shown: None,
    };
    let json = || doc.plan_json_all(opts, budget);
    Ok(match args.format {
        PlanFormat::Json => serde_json::to_string_pretty(&json()).unwrap_or_default() + "\n",
        PlanFormat::Csv => crate::export::json::plan_csv(&json().plans),
        PlanFormat::Table => table(&doc, budget, args.target.into()),
    })
}

/// One section per problem that has plans: a header line, then the plan table.
fn table(doc: &Document, budget: Option<u64>, target: crate::document::TflmTarget) -> String {
    let path = doc.display_path().display().to_string();
    let mut s = String::new();
    for (index, pl) in doc
        .planned
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.plans.is_empty())
    {
        let title = match (pl.problem.lifetimes, pl.problem.subgraph) {
            _ if pl.problem.xnnpack.is_some() => match pl.problem.partition() {
                Some(k) => format!(
                    "{path} — XNNPACK workspace, partition {k} (subgraph {}), its op axis",
                    pl.problem.subgraph.unwrap_or(0)
                ),
                None => format!(
                    "{path} — subgraph {}, TFLite arena with XNNPACK (the delegated graph)",
                    pl.problem.subgraph.unwrap_or(0)
                ),
            },
            (Some(l), Some(sg)) => format!("{path} — subgraph {sg}, {} lifetimes", l.name()),
            (Some(l), None) => format!("{path} — all subgraphs, {} lifetimes", l.name()),
            _ => path.clone(),
        };
        let _ = writeln!(
            s,
            "{title}: {} buffers, {} steps, lower bound {} bytes, {} bytes outside the arena",
            pl.problem.buffers.len(),
            pl.problem.steps,
            pl.problem.lower_bound(),
            pl.problem.persistent_bytes()
        );
        let budget = budget.map(|bytes| crate::document::Budget {
            bytes,
            outside_bytes: doc.outside_plan_bytes(index),
        });
        if let Some(b) = doc
            .model()
            .and_then(|m| crate::analysis::order_bound::order_bound(m, &pl.problem))
        {
            let _ = writeln!(
                s,
                "order bound {} bytes: {} needs them at once in any order{}",
                b.bytes,
                b.label,
                if b.bytes == pl.problem.lower_bound() {
                    " (this order already reaches it)"
                } else {
                    ""
                }
            );
        }
        s += &super::plan_table(&pl.problem, &pl.plans, budget);
        if pl.problem.lifetimes == Some(crate::analysis::Lifetimes::Tflm) {
            if let Some(tail) = doc.tflm_tail() {
                s += &super::table::tflm_arena_lines(&pl.plans, tail);
            }
            if let (Some(tails), Some(head)) = (doc.facts.tflm_tails.as_ref(), pl.runtime_arena) {
                for t in crate::document::TflmTarget::ALL.into_iter().skip(1) {
                    let target = t.tail_target();
                    let head = tails.head(target).unwrap_or(head);
                    let tail = tails.get(target).bytes;
                    let _ = writeln!(
                        s,
                        "  on {} (--target {}): head {head} + tail {tail} = {} bytes",
                        t.label(),
                        t.name(),
                        head + tail
                    );
                }
            }
        }
        s.push('\n');
    }
    if let Some(x) = doc.xnnpack_summary() {
        let _ = writeln!(s, "not planned, {}", x.other.describe());
        let _ = writeln!(
            s,
            "LiteRT with XNNPACK on {}: TFLite arena {} bytes + XNNPACK workspace {} bytes ({} partition(s); the block allocated is 32 bytes more) + persistent arena {} bytes = {} bytes planned; with the estimated packed weights and indirection buffers, {} bytes{}",
            doc.request.platform.name(),
            x.tflite_arena,
            x.workspace,
            x.partitions,
            x.persistent,
            x.planned(),
            x.with_other(),
            if x.not_modelled.is_empty() {
                String::new()
            } else {
                format!(
                    "\nnot modelled (left to TFLite here, so these numbers are approximate): {}",
                    x.not_modelled.join(", ")
                )
            }
        );
    }
    for r in &doc.order_reports {
        let saved = r.arena_before.saturating_sub(r.arena_after);
        let _ = writeln!(
            s,
            "order of subgraph {} ({} search, {:.2} s): {} -> {} bytes{}",
            r.subgraph,
            if r.exact { "exact" } else { "heuristic" },
            r.seconds,
            r.arena_before,
            r.arena_after,
            if r.changed {
                format!(
                    ", {saved} bytes ({:.1}%) less",
                    100.0 * saved as f64 / r.arena_before.max(1) as f64
                )
            } else {
                ", the file's order kept".to_string()
            }
        );
    }
    s += &headline_lines(doc, budget, target);
    s
}

/// The closing lines: the runtime's number for the file as opened (the GUI's headline), why
/// it is not exact where it is not, the secondary numbers, and the budget's verdict.
pub(super) fn headline_lines(
    doc: &Document,
    budget: Option<u64>,
    target: crate::document::TflmTarget,
) -> String {
    let h = doc.headline(HeadlineOptions {
        target,
        shown: None,
    });
    let mut s = format!("{}. {}\n", h.sentence(), h.detail);
    if let Some(c) = h.caveat() {
        let _ = writeln!(s, "  {c}");
    }
    if let crate::document::Certainty::CannotRun { why } = &h.certainty {
        for w in why {
            let _ = writeln!(s, "  cannot run: {w}");
        }
    }
    for line in &h.secondary {
        let _ = writeln!(s, "  {}", line.text);
    }
    if let Some(b) = budget {
        let _ = writeln!(
            s,
            "budget {b} bytes: {} ({}); the fits column compares each plan's arena",
            h.verdict(b).sentence(b),
            h.subject.name()
        );
    }
    s
}
