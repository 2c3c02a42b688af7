//! `arenascope bench --exact`: the optimum tables of the README, measured. For each model,
//! every LiteRT subgraph: the runtimes' arenas, the best heuristic and what `exact` proves; for
//! each MiniMalloc problem: the decision at the capacity in its file name, then minimisation.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::analysis::{self, Lifetimes, Problem};
use crate::document::Source;
use crate::plan::{self, Plan};
use crate::planner::{self, Scope, Settings};

/// The MiniMalloc problems measured by default.
pub const CHALLENGING: &str = "../shared/benchmarks/minimalloc/challenging";

/// The best plan of the generic planners run by default, with its planner.
fn best_heuristic(p: &Problem, settings: &Settings) -> Option<Plan> {
    planner::REGISTRY
        .iter()
        .filter(|i| i.scope == Scope::Any && !i.on_request)
        .filter_map(|i| planner::run(i, p, settings).ok())
        .min_by_key(|pl| pl.arena_bytes)
}

/// Planner `id`'s plan of `p` (`None` when it is not registered or its plan is invalid).
fn run_one(id: &str, p: &Problem, settings: &Settings) -> Option<Plan> {
    planner::run(planner::find(id)?, p, settings).ok()
}

fn proven(pl: &Plan) -> String {
    if pl.optimal() {
        format!("yes, {:.2} s", pl.seconds)
    } else {
        format!("no ({:.1} s)", pl.seconds)
    }
}

/// The capacity in a MiniMalloc file name (`A.1048576.csv`).
fn capacity_of(path: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?;
    name.split('.').nth(1)?.parse().ok()
}

pub fn bench_exact(files: &[PathBuf], models: Vec<PathBuf>, time_limit: f64) -> String {
    let settings = Settings {
        time_limit_secs: time_limit,
        capacity: None,
    };
    let (mut csvs, mut tflites): (Vec<PathBuf>, Vec<PathBuf>) = files
        .iter()
        .cloned()
        .partition(|f| f.extension().is_some_and(|e| e.eq_ignore_ascii_case("csv")));
    if files.is_empty() {
        tflites = models;
        if let Ok(rd) = std::fs::read_dir(CHALLENGING) {
            csvs = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            csvs.sort();
        }
    }
    let mut s = String::new();
    if !tflites.is_empty() {
        s += "| model (subgraph) | litert | tflm (all subgraphs) | best heuristic | optimum (`exact`) | proven | saved vs litert |\n|---|---|---|---|---|---|---|\n";
    }
    for path in &tflites {
        let Ok((Source::Model(model), _)) = Source::open(path) else {
            continue;
        };
        let (Ok(lit), Ok(tfl)) = (
            analysis::problems(&model, Lifetimes::Litert),
            analysis::problems(&model, Lifetimes::Tflm),
        ) else {
            continue;
        };
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let tflm = tfl.first().and_then(|p| run_one("tflm", p, &settings));
        for (k, p) in lit.iter().enumerate() {
            let (Some(rt), Some(best), Some(ex)) = (
                run_one("litert", p, &settings),
                best_heuristic(p, &settings),
                run_one("exact", p, &settings),
            ) else {
                continue;
            };
            let label = if lit.len() > 1 {
                format!("{name} ({k})")
            } else {
                name.clone()
            };
            let tflm_cell = match (&tflm, k) {
                (Some(t), 0) => t.arena_bytes.to_string(),
                _ => String::new(),
            };
            let saved = rt.arena_bytes.saturating_sub(ex.arena_bytes);
            let _ = writeln!(
                s,
                "| {label} | {} | {tflm_cell} | {} ({}) | {} | {} | {saved} B ({:.1}%) |",
                rt.arena_bytes,
                best.arena_bytes,
                best.planner,
                ex.arena_bytes,
                proven(&ex),
                100.0 * saved as f64 / rt.arena_bytes.max(1) as f64
            );
        }
    }
    if !csvs.is_empty() {
        s += "\n| problem | buffers | lower bound | best heuristic | decision at capacity | exact (minimise) | proven |\n|---|---|---|---|---|---|---|\n";
    }
    for path in &csvs {
        let Ok((Source::Csv { problem: p, .. }, _)) = Source::open(path) else {
            continue;
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let best = best_heuristic(&p, &settings);
        let decision = capacity_of(path).map(|c| {
            let with_capacity = Settings {
                capacity: Some(c),
                ..settings.clone()
            };
            match run_one("exact", &p, &with_capacity) {
                Some(pl) if pl.arena_bytes <= c => format!("fits {c} in {:.2} s", pl.seconds),
                Some(pl) => format!("no plan in {:.1} s", pl.seconds),
                None => "invalid plan!".into(),
            }
        });
        let Some(ex) = run_one("exact", &p, &settings) else {
            continue;
        };
        let _ = writeln!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} |",
            p.buffers.len(),
            p.lower_bound(),
            best.map(|b| format!("{} ({})", b.arena_bytes, b.planner))
                .unwrap_or_default(),
            decision.unwrap_or_default(),
            ex.arena_bytes,
            proven(&ex)
        );
    }
    s
}

/// What each inference rule of `exact` is worth: the decision at each file's capacity with all
/// rules, then with each one switched off (`time_limit` seconds a problem).
pub fn ablation(files: &[PathBuf], time_limit: f64) -> String {
    use crate::planner::exact::{decide_with, Control, Decision, Params};
    let mut csvs: Vec<PathBuf> = files.to_vec();
    if csvs.is_empty() {
        if let Ok(rd) = std::fs::read_dir(CHALLENGING) {
            csvs = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
            csvs.sort();
        }
    }
    let problems: Vec<(Problem, u64)> = csvs
        .iter()
        .filter_map(|f| match (Source::open(f), capacity_of(f)) {
            (Ok((Source::Csv { problem: p, .. }, _)), Some(c)) => Some((*p, c)),
            _ => None,
        })
        .collect();
    let mut s = format!(
        "| rules | fitted (of {}) | seconds (unfitted count {time_limit} s) |\n|---|---|---|\n",
        problems.len()
    );
    for (name, params) in Params::each_off() {
        let (mut fitted, mut seconds) = (0, 0.0);
        for (p, c) in &problems {
            let t = std::time::Instant::now();
            let deadline = t + std::time::Duration::from_secs_f64(time_limit);
            if let Decision::Fits(offsets) =
                decide_with(p, &params, *c, deadline, Control::default())
            {
                if plan::validate(p, &offsets, Some(*c)).is_ok() {
                    fitted += 1;
                }
            }
            seconds += t.elapsed().as_secs_f64();
        }
        let _ = writeln!(s, "| {name} | {fitted} | {seconds:.1} |");
    }
    s
}
