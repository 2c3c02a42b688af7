//! `arenascope bench`: load, lifetime and planner times on models and synthetic problems (the
//! README's speed tables); `--exact` prints the optimum tables instead (`bench_exact`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::analysis::{self, Lifetimes};
use crate::document::{default_planners, Document, PlanRequest, Source};
use crate::planner::{self, PlannerInfo, Scope, Settings};

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Models to time (default: the .tflite files in ../shared/models and sample_models);
    /// with --exact, MiniMalloc .csv problems too (default: the challenging suite).
    pub models: Vec<PathBuf>,
    /// Sizes of the synthetic problems.
    #[arg(long = "synthetic", value_name = "N", default_values_t = [1000usize, 10000, 100000])]
    pub synthetic: Vec<usize>,
    /// Print the optimum tables instead: what `exact` proves on every model subgraph and
    /// MiniMalloc problem, against the runtimes and the best heuristic.
    #[arg(long)]
    pub exact: bool,
    /// With --exact: time each inference rule's absence instead, on the decision at each
    /// MiniMalloc problem's capacity.
    #[arg(long, requires = "exact")]
    pub ablation: bool,
    /// Print the order-search table instead: per model and runtime, the arena on the file's
    /// order and on the order `optimize` finds, exact or heuristic, steps and seconds.
    #[arg(long, conflicts_with = "exact")]
    pub orders: bool,
    /// Time limit of each `exact` run with --exact (default 60 s), or of each subgraph's order
    /// search with --orders (default 1 s), in seconds.
    #[arg(long)]
    pub time_limit: Option<f64>,
}

pub fn run(args: &BenchArgs) -> String {
    let exact_secs = args.time_limit.unwrap_or(60.0);
    match (args.exact, args.ablation, args.orders) {
        (true, true, _) => super::bench_exact::ablation(&args.models, exact_secs),
        (true, false, _) => {
            super::bench_exact::bench_exact(&args.models, default_bench_models(), exact_secs)
        }
        (_, _, true) => orders(&args.models, args.time_limit.unwrap_or(1.0)),
        _ => bench(&args.models, &args.synthetic),
    }
}

/// Default models for `bench`: the shared corpus and the bundled samples.
pub fn default_bench_models() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in ["../shared/models", "../shared/models/tflm", "sample_models"] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            let mut v: Vec<PathBuf> = rd
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "tflite"))
                .collect();
            v.sort();
            // The samples are copies of shared models: time each model once.
            v.retain(|p| !out.iter().any(|q| q.file_name() == p.file_name()));
            out.extend(v);
        }
    }
    out
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn bench(models: &[PathBuf], synthetic: &[usize]) -> String {
    let models = if models.is_empty() {
        default_bench_models()
    } else {
        models.to_vec()
    };
    let all: Vec<&PlannerInfo> = planner::REGISTRY.iter().filter(|p| !p.on_request).collect();
    let settings = Settings::default();
    let mut s = String::new();
    let _ = write!(s, "| model | load ms | lifetimes ms |");
    for p in &all {
        let _ = write!(s, " {} |", p.id);
    }
    let _ = write!(s, " plan all (wall) ms |\n|---|---|---|");
    for _ in &all {
        s += "---|";
    }
    s += "---|\n";
    for path in &models {
        let t = Instant::now();
        let Ok((Source::Model(model), _)) = Source::open(path) else {
            continue;
        };
        let load_ms = ms(t);
        let t = Instant::now();
        let (Ok(lit), Ok(tfl), Ok(xnn)) = (
            analysis::problems(&model, Lifetimes::Litert),
            analysis::problems(&model, Lifetimes::Tflm),
            analysis::problems(&model, Lifetimes::Xnnpack),
        ) else {
            continue;
        };
        // XNNPACK's planner on the workspaces.
        let xnn: Vec<_> = xnn
            .into_iter()
            .filter(|p| p.partition().is_some())
            .collect();
        let life_ms = ms(t);
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let _ = write!(s, "| {name} | {load_ms:.2} | {life_ms:.2} |");
        for p in &all {
            let problems = match p.scope {
                Scope::Runtime(Lifetimes::Tflm) => &tfl,
                Scope::Runtime(Lifetimes::Xnnpack) => &xnn,
                _ => &lit,
            };
            let t = Instant::now();
            let ok = problems
                .iter()
                .all(|pr| planner::run(p, pr, &settings).is_ok());
            let _ = write!(s, " {:.2}{} |", ms(t), if ok { "" } else { " (invalid!)" });
        }
        // The whole pipeline, as `plan` runs it: open, derive, plan with every default planner.
        let t = Instant::now();
        let all_ok = Document::open(path, Lifetimes::Litert, None).and_then(|mut doc| {
            doc.plan(PlanRequest {
                order: crate::document::OrderChoice::File,
                lifetimes: Lifetimes::Litert,
                align: None,
                planners: default_planners(Some(Lifetimes::Litert)),
                settings: settings.clone(),
                platform: Default::default(),
                isa: None,
            })
        });
        let _ = writeln!(
            s,
            " {:.1}{} |",
            ms(t),
            if all_ok.is_ok() { "" } else { " (failed)" }
        );
    }
    s += "\n| synthetic buffers |";
    for p in &all {
        let _ = write!(s, " {} |", p.id);
    }
    s += "\n|---|";
    for _ in &all {
        s += "---|";
    }
    s.push('\n');
    for &n in synthetic {
        let problem = crate::synth::network_like(n, 42, 64);
        let _ = write!(s, "| {n} |");
        for p in &all {
            let t = Instant::now();
            let ok = planner::run(p, &problem, &settings).is_ok();
            let _ = write!(s, " {:.1}{} |", ms(t), if ok { "" } else { " (invalid!)" });
        }
        s.push('\n');
    }
    s
}

/// The order-search table: what `optimize` finds on each model for each runtime (the order,
/// and for TFLM the offline plan it counts), with its work and time.
fn orders(models: &[PathBuf], time_limit: f64) -> String {
    let models = if models.is_empty() {
        default_bench_models()
    } else {
        models.to_vec()
    };
    let mut s = format!(
        "Order search, --time-limit {time_limit} s per subgraph\n\n\
         | model | operators | runtime | arena before | after | gain | search | steps | seconds |\n\
         |---|---|---|---|---|---|---|---|---|\n"
    );
    for path in &models {
        let Ok((Source::Model(model), _)) = Source::open(path) else {
            continue;
        };
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let operators = model
            .subgraphs
            .iter()
            .map(|sg| sg.operators.len())
            .max()
            .unwrap_or(0);
        for lifetimes in [Lifetimes::Litert, Lifetimes::Tflm] {
            let t = Instant::now();
            let tflm = lifetimes == Lifetimes::Tflm;
            let Ok((_, reports)) =
                crate::document::optimize_orders(&model, lifetimes, time_limit, tflm)
            else {
                let _ = writeln!(
                    s,
                    "| {name} | {operators} | {} | cannot be planned |||||",
                    lifetimes.name()
                );
                continue;
            };
            let seconds = t.elapsed().as_secs_f64();
            // LiteRT: the subgraphs' arenas summed; TFLM: one head (every report says it).
            let (before, after) = match lifetimes {
                Lifetimes::Litert | Lifetimes::Xnnpack => reports
                    .iter()
                    .fold((0, 0), |(b, a), r| (b + r.arena_before, a + r.arena_after)),
                Lifetimes::Tflm => reports
                    .last()
                    .map_or((0, 0), |r| (reports[0].arena_before, r.arena_after)),
            };
            let exact = reports.iter().all(|r| r.exact);
            let steps: u64 = reports.iter().map(|r| r.steps).sum();
            let _ = writeln!(
                s,
                "| {name} | {operators} | {} | {before} | {after} | {:.1} % | {} | {steps} | {seconds:.2} |",
                lifetimes.name(),
                100.0 * before.saturating_sub(after) as f64 / before.max(1) as f64,
                if exact { "exact" } else { "heuristic" },
            );
        }
    }
    s
}
