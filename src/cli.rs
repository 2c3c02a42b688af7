//! The command line: argument parsing (clap) and the headless commands `plan`, `solve`,
//! `planners` and `bench`. Errors are one sentence with the file path last; exit code 1 for bad
//! input, 2 for bad usage.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use crate::analysis::{self, Lifetimes, Problem};
use crate::export::{self, json::ModelInfo};
use crate::model::Model;
use crate::plan::{self, Plan};
use crate::planner::{self, PlannerInfo, Settings};

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
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum LifetimesArg {
    Litert,
    Tflm,
}

impl From<LifetimesArg> for Lifetimes {
    fn from(l: LifetimesArg) -> Self {
        match l {
            LifetimesArg::Litert => Lifetimes::Litert,
            LifetimesArg::Tflm => Lifetimes::Tflm,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum PlanFormat {
    Table,
    Json,
    Csv,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum SolveFormat {
    Table,
    Json,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ViewArg {
    Layout,
    Gantt,
    Conflicts,
    Memory,
    Compare,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Plan a model's arena with one or more planners and report arena, lower bound and overhead.
    Plan {
        /// The .tflite model (a MiniMalloc .csv problem works too).
        model: PathBuf,
        /// Planner id (see `arenascope planners`); repeat for several; `all` = every heuristic and both emulations.
        #[arg(long = "planner", value_name = "ID")]
        planners: Vec<String>,
        /// Lifetime convention: the problem LiteRT (per subgraph) or TFLite Micro (one arena) solves.
        #[arg(long, value_enum, default_value = "litert")]
        lifetimes: LifetimesArg,
        /// Offset alignment of the generic planners (default: 64 with litert lifetimes, 16 with tflm).
        #[arg(long, value_name = "BYTES")]
        align: Option<u64>,
        /// Time limit of the search planners, in seconds.
        #[arg(long, value_name = "SECS", default_value_t = 10.0)]
        time_limit: f64,
        #[arg(long, value_enum, default_value = "table")]
        format: PlanFormat,
    },
    /// Solve a MiniMalloc CSV problem (id,lower,upper,size[,alignment]; half-open times).
    Solve {
        problem: PathBuf,
        #[arg(long = "planner", value_name = "ID")]
        planners: Vec<String>,
        /// Decide whether the buffers fit in this many bytes (exit code 1 when no planner fits).
        #[arg(long, value_name = "BYTES")]
        capacity: Option<u64>,
        #[arg(long, value_name = "SECS", default_value_t = 10.0)]
        time_limit: f64,
        #[arg(long, value_enum, default_value = "table")]
        format: SolveFormat,
        /// Write the solution (the input rows plus an offset column); needs exactly one --planner.
        #[arg(long, value_name = "SOLUTION.csv")]
        out: Option<PathBuf>,
    },
    /// Draw a view of a model's (or CSV problem's) plans as SVG or PNG, with no display.
    Export {
        /// The .tflite model or MiniMalloc .csv problem.
        model: PathBuf,
        #[arg(long, value_enum)]
        view: ViewArg,
        /// Planner(s) to draw: the layout view draws the first; compare draws two to four
        /// (default: the runtime's emulation and the best generic planners).
        #[arg(long = "planner", value_name = "ID")]
        planners: Vec<String>,
        #[arg(long, value_enum, default_value = "litert")]
        lifetimes: LifetimesArg,
        /// The subgraph (litert lifetimes).
        #[arg(long, default_value_t = 0)]
        subgraph: usize,
        /// Dark theme.
        #[arg(long)]
        dark: bool,
        /// Output file: .svg or .png.
        #[arg(long, value_name = "FILE.svg|FILE.png")]
        out: PathBuf,
    },
    /// List the planner ids with one line each.
    Planners,
    /// Time loading, lifetimes and every planner on models and synthetic problems; print tables.
    Bench {
        /// Models to time (default: the .tflite files in ../shared/models and sample_models);
        /// with --exact, MiniMalloc .csv problems too (default: the challenging suite).
        models: Vec<PathBuf>,
        /// Sizes of the synthetic problems.
        #[arg(long = "synthetic", value_name = "N", default_values_t = [1000usize, 10000, 100000])]
        synthetic: Vec<usize>,
        /// Print the optimum tables instead: what `exact` proves on every model subgraph and
        /// MiniMalloc problem, against the runtimes and the best heuristic.
        #[arg(long)]
        exact: bool,
        /// With --exact: time each inference rule's absence instead, on the decision at each
        /// MiniMalloc problem's capacity.
        #[arg(long, requires = "exact")]
        ablation: bool,
        /// Time limit of each `exact` run with --exact, in seconds.
        #[arg(long, default_value_t = 60.0)]
        time_limit: f64,
    },
}

/// A failure of a command: bad input (exit 1) or bad usage (exit 2).
#[derive(Debug)]
pub enum CliError {
    Input(String),
    Usage(String),
}

impl CliError {
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Input(_) => 1,
            CliError::Usage(_) => 2,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            CliError::Input(m) | CliError::Usage(m) => m,
        }
    }
}

fn input_err(e: impl std::fmt::Display, path: &Path) -> CliError {
    CliError::Input(format!("{e}: {}", path.display()))
}

/// A file opened from the command line or the GUI.
pub enum Input {
    Model(Box<Model>),
    Csv(Vec<export::csv::CsvRow>, Problem),
}

/// Reads a model or, for a `.csv` path, a MiniMalloc problem.
pub fn load(path: &Path) -> Result<Input, CliError> {
    if path.is_dir() {
        return Err(input_err(
            "this is a directory, not a model or problem file",
            path,
        ));
    }
    if !path.exists() {
        return Err(input_err("no such file", path));
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
    {
        let text = std::fs::read_to_string(path)
            .map_err(|e| input_err(format!("cannot read the file ({e})"), path))?;
        let (rows, problem) = export::csv::read_problem(&text).map_err(|e| input_err(e, path))?;
        Ok(Input::Csv(rows, problem))
    } else {
        Model::from_path(path)
            .map(|m| Input::Model(Box::new(m)))
            .map_err(|e| input_err(e, path))
    }
}

/// Resolves `--planner` values: none or `all` → every planner run by default that applies.
pub fn select_planners(ids: &[String], csv: bool) -> Result<Vec<&'static PlannerInfo>, CliError> {
    if ids.is_empty() || ids.iter().any(|i| i == "all") {
        let mut out: Vec<&PlannerInfo> = planner::REGISTRY
            .iter()
            .filter(|p| !p.on_request && (!csv || p.scope == planner::Scope::Any))
            .collect();
        for id in ids.iter().filter(|i| *i != "all") {
            let p = find_planner(id)?;
            if !out.iter().any(|q| q.id == p.id) {
                out.push(p);
            }
        }
        out.sort_by_key(|p| registry_pos(p.id));
        return Ok(out);
    }
    let mut out = Vec::new();
    for id in ids {
        let p = find_planner(id)?;
        if csv && p.scope != planner::Scope::Any {
            return Err(CliError::Usage(format!(
                "planner {id} emulates a runtime and needs a model, not a CSV problem"
            )));
        }
        if !out.iter().any(|q: &&PlannerInfo| q.id == p.id) {
            out.push(p);
        }
    }
    out.sort_by_key(|p| registry_pos(p.id));
    Ok(out)
}

fn registry_pos(id: &str) -> usize {
    planner::REGISTRY
        .iter()
        .position(|p| p.id == id)
        .unwrap_or(usize::MAX)
}

fn find_planner(id: &str) -> Result<&'static PlannerInfo, CliError> {
    planner::find(id).ok_or_else(|| {
        let ids: Vec<&str> = planner::REGISTRY.iter().map(|p| p.id).collect();
        CliError::Usage(format!(
            "unknown planner {id:?}; the planners are: all, {}",
            ids.join(", ")
        ))
    })
}

/// One problem with the planners' results on it.
pub struct Planned {
    pub problem: Problem,
    pub plans: Vec<Plan>,
}

/// Runs `planners` on every problem of a model under `lifetimes`: runtime emulations on the
/// runtime's own problem, the others on the same problem with `align` as offset alignment.
pub fn plan_model(
    model: &Model,
    lifetimes: Lifetimes,
    align: Option<u64>,
    planners: &[&'static PlannerInfo],
    settings: &Settings,
) -> Result<Vec<Planned>, String> {
    let problems = analysis::problems(model, lifetimes).map_err(|e| e.to_string())?;
    let align = align.unwrap_or(lifetimes.default_alignment());
    problems
        .into_iter()
        .map(|problem| {
            let generic = problem.clone().with_alignment(align);
            let mut plans = Vec::new();
            for p in planners {
                let on = match p.scope {
                    planner::Scope::Any => &generic,
                    planner::Scope::Runtime(l) if l == lifetimes => &problem,
                    planner::Scope::Runtime(_) => continue,
                };
                plans.extend(plan_problem(on, &[*p], settings)?);
            }
            Ok(Planned {
                problem: generic,
                plans,
            })
        })
        .collect()
}

/// Runs `planners` on one problem; every plan is validated, an invalid one is an error.
pub fn plan_problem(
    problem: &Problem,
    planners: &[&'static PlannerInfo],
    settings: &Settings,
) -> Result<Vec<Plan>, String> {
    planners
        .iter()
        .map(|p| {
            plan::run(p, problem, settings)
                .map_err(|v| format!("planner {} produced an invalid plan ({v})", p.id))
        })
        .collect()
}

/// Runs the command; returns what to print on stdout.
pub fn run(command: Command) -> Result<String, CliError> {
    match command {
        Command::Planners => Ok(planners_text()),
        Command::Plan {
            model,
            planners,
            lifetimes,
            align,
            time_limit,
            format,
        } => cmd_plan(
            &model,
            &planners,
            lifetimes.into(),
            align,
            time_limit,
            format,
        ),
        Command::Solve {
            problem,
            planners,
            capacity,
            time_limit,
            format,
            out,
        } => cmd_solve(
            &problem,
            &planners,
            capacity,
            time_limit,
            format,
            out.as_deref(),
        ),
        Command::Bench {
            models,
            exact: true,
            ablation: true,
            time_limit,
            ..
        } => Ok(crate::bench_exact::ablation(&models, time_limit)),
        Command::Bench {
            models,
            exact: true,
            time_limit,
            ..
        } => Ok(crate::bench_exact::bench_exact(
            &models,
            default_bench_models(),
            time_limit,
        )),
        Command::Bench {
            models, synthetic, ..
        } => Ok(bench(&models, &synthetic)),
        Command::Export {
            model,
            view,
            planners,
            lifetimes,
            subgraph,
            dark,
            out,
        } => cmd_export(
            &model,
            view,
            &planners,
            lifetimes.into(),
            subgraph,
            dark,
            &out,
        ),
    }
}

fn planners_text() -> String {
    let mut s = String::new();
    for p in planner::REGISTRY {
        let _ = writeln!(s, "{:<18} {}", p.id, p.summary);
    }
    s
}

fn cmd_plan(
    path: &Path,
    ids: &[String],
    lifetimes: Lifetimes,
    align: Option<u64>,
    time_limit: f64,
    format: PlanFormat,
) -> Result<String, CliError> {
    if align == Some(0) {
        return Err(CliError::Usage("--align must be at least 1".into()));
    }
    let settings = Settings {
        time_limit_secs: time_limit,
        capacity: None,
    };
    let input = load(path)?;
    let (info, planned) = match &input {
        Input::Model(model) => {
            let planners = select_planners(ids, false)?;
            let planned = plan_model(model, lifetimes, align, &planners, &settings)
                .map_err(|e| input_err(e, path))?;
            let info = (
                model.file_bytes,
                model.subgraphs.len(),
                model.tensor_count(),
                model.operator_count(),
            );
            (info, planned)
        }
        Input::Csv(_, problem) => {
            let planners = select_planners(ids, true)?;
            let problem = match align {
                Some(a) => problem.clone().with_alignment(a),
                None => problem.clone(),
            };
            let plans =
                plan_problem(&problem, &planners, &settings).map_err(|e| input_err(e, path))?;
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            (
                (bytes, 1, problem.buffers.len(), 0),
                vec![Planned { problem, plans }],
            )
        }
    };
    let path_str = path.display().to_string();
    Ok(match format {
        PlanFormat::Json => {
            let mut entries = Vec::new();
            // Order: planners as listed, then by subgraph.
            let n_planners = planned.first().map(|p| p.plans.len()).unwrap_or(0);
            for k in 0..n_planners {
                for pl in &planned {
                    if let Some(plan) = pl.plans.get(k) {
                        entries.push(export::json::plan_entry(&pl.problem, plan));
                    }
                }
            }
            let doc = export::json::plan_document(
                &ModelInfo {
                    path: &path_str,
                    bytes: info.0,
                    subgraphs: info.1,
                    tensors: info.2,
                    operators: info.3,
                },
                entries,
            );
            serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
        }
        PlanFormat::Csv => {
            let mut s = String::from(
                "planner,subgraph,tensor,name,kind,bytes,first,last,offset,alias_of\n",
            );
            let n_planners = planned.first().map(|p| p.plans.len()).unwrap_or(0);
            for k in 0..n_planners {
                for pl in &planned {
                    if let Some(plan) = pl.plans.get(k) {
                        export::json::plan_csv_rows(&pl.problem, plan, &mut s);
                    }
                }
            }
            s
        }
        PlanFormat::Table => {
            let mut s = String::new();
            for pl in &planned {
                let title = match (pl.problem.lifetimes, pl.problem.subgraph) {
                    (Some(l), Some(sg)) => {
                        format!("{path_str} — subgraph {sg}, {} lifetimes", l.name())
                    }
                    (Some(l), None) => {
                        format!("{path_str} — all subgraphs, {} lifetimes", l.name())
                    }
                    _ => path_str.clone(),
                };
                let _ = writeln!(
                    s,
                    "{title}: {} buffers, {} steps, lower bound {} bytes, {} bytes outside the arena",
                    pl.problem.buffers.len(),
                    pl.problem.steps,
                    pl.problem.lower_bound(),
                    pl.problem.persistent_bytes()
                );
                s += &plan_table(&pl.problem, &pl.plans);
                s.push('\n');
            }
            s
        }
    })
}

/// The table printed by `plan` and `solve`.
pub fn plan_table(problem: &Problem, plans: &[Plan]) -> String {
    let mut s = format!(
        "{:<18} {:>12} {:>12} {:>10} {:>9} {:>9} {:>12} {:>9} {:>8}\n",
        "planner",
        "arena",
        "lower bound",
        "overhead",
        "overhead%",
        "padding",
        "largest hole",
        "ms",
        "optimal"
    );
    for p in plans {
        let m = plan::metrics(problem, &p.offsets);
        let _ = writeln!(
            s,
            "{:<18} {:>12} {:>12} {:>10} {:>8.2}% {:>9} {:>12} {:>9.3} {:>8}",
            p.planner,
            m.arena_bytes,
            m.lower_bound,
            m.overhead_bytes,
            m.overhead_pct,
            m.padding_bytes,
            m.largest_hole.map(|h| h.bytes()).unwrap_or(0),
            p.seconds * 1e3,
            if p.optimal() { "yes" } else { "" }
        );
    }
    s
}

fn cmd_solve(
    path: &Path,
    ids: &[String],
    capacity: Option<u64>,
    time_limit: f64,
    format: SolveFormat,
    out: Option<&Path>,
) -> Result<String, CliError> {
    let planners = select_planners(ids, true)?;
    if out.is_some() && planners.len() != 1 {
        return Err(CliError::Usage("--out needs exactly one --planner".into()));
    }
    let (rows, problem) = match load(path)? {
        Input::Csv(rows, problem) => (rows, problem),
        Input::Model(_) => {
            return Err(CliError::Usage(format!(
                "solve takes a MiniMalloc .csv problem, not a model: {}",
                path.display()
            )))
        }
    };
    let settings = Settings {
        time_limit_secs: time_limit,
        capacity,
    };
    let plans = plan_problem(&problem, &planners, &settings).map_err(|e| input_err(e, path))?;
    if let (Some(out), Some(plan)) = (out, plans.first()) {
        std::fs::write(out, export::csv::write_solution(&rows, &plan.offsets))
            .map_err(|e| input_err(format!("cannot write the solution ({e})"), out))?;
    }
    let fits = |p: &Plan| capacity.map(|c| p.arena_bytes <= c);
    let text = match format {
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
            s += &plan_table(&problem, &plans);
            if let Some(c) = capacity {
                for p in &plans {
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

/// The planners drawn by default in comparisons: the runtime's emulation, then the generic
/// planners with the smallest arenas (up to four in all).
pub fn default_compare(plans: &[Plan], lifetimes: Option<Lifetimes>) -> Vec<usize> {
    let runtime = lifetimes.map(|l| l.name());
    let mut picked: Vec<usize> = plans
        .iter()
        .position(|p| Some(p.planner) == runtime)
        .into_iter()
        .collect();
    let mut rest: Vec<usize> = (0..plans.len())
        .filter(|i| !picked.contains(i) && plans[*i].planner != "naive")
        .collect();
    rest.sort_by_key(|&i| (plans[i].arena_bytes, i));
    picked.extend(rest.into_iter().take(4 - picked.len().min(4)));
    picked.truncate(4);
    picked
}

#[allow(clippy::too_many_arguments)]
fn cmd_export(
    path: &Path,
    view: ViewArg,
    ids: &[String],
    lifetimes: Lifetimes,
    subgraph: usize,
    dark: bool,
    out: &Path,
) -> Result<String, CliError> {
    use crate::export::svg;
    use crate::view;
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("svg") | Some("png")) {
        return Err(CliError::Usage(format!(
            "--out must end in .svg or .png: {}",
            out.display()
        )));
    }
    let input = load(path)?;
    let settings = Settings::default();
    let csv = matches!(input, Input::Csv(..));
    let planners = select_planners(ids, csv)?;
    let planned = match &input {
        Input::Model(model) => plan_model(model, lifetimes, None, &planners, &settings)
            .map_err(|e| input_err(e, path))?,
        Input::Csv(_, problem) => {
            let plans =
                plan_problem(problem, &planners, &settings).map_err(|e| input_err(e, path))?;
            vec![Planned {
                problem: problem.clone(),
                plans,
            }]
        }
    };
    let index = if lifetimes == Lifetimes::Tflm || csv {
        0
    } else {
        subgraph
    };
    let pl = planned.get(index).ok_or_else(|| {
        CliError::Usage(format!(
            "the model has no subgraph {subgraph}: {}",
            path.display()
        ))
    })?;
    if pl.plans.is_empty() {
        return Err(CliError::Usage(
            "none of the named planners runs on this problem".into(),
        ));
    }
    let palette = if dark {
        view::theme::DARK
    } else {
        view::theme::LIGHT
    };
    let explicit = !(ids.is_empty() || ids.iter().any(|i| i == "all"));
    let text = match view {
        ViewArg::Layout => {
            let k = if explicit {
                0
            } else {
                default_compare(&pl.plans, pl.problem.lifetimes)[0]
            };
            svg::layout_svg(
                &pl.problem,
                &view::LayoutView::build(&pl.problem, &pl.plans[k]),
                &palette,
            )
        }
        ViewArg::Compare => {
            let picked: Vec<usize> = if explicit {
                (0..pl.plans.len().min(4)).collect()
            } else {
                default_compare(&pl.plans, pl.problem.lifetimes)
            };
            let views: Vec<view::LayoutView> = picked
                .iter()
                .map(|&k| view::LayoutView::build(&pl.problem, &pl.plans[k]))
                .collect();
            svg::compare_svg(&pl.problem, &views, &palette)
        }
        ViewArg::Gantt => {
            svg::gantt_svg(&pl.problem, &view::GanttView::build(&pl.problem), &palette)
        }
        ViewArg::Conflicts => svg::conflicts_svg(
            &pl.problem,
            &view::ConflictView::build(&pl.problem, None, 400),
            &palette,
        ),
        ViewArg::Memory => {
            let plans: Vec<&Plan> = pl.plans.iter().collect();
            svg::memory_svg(&view::MemoryView::build(&pl.problem, &plans), &palette)
        }
    };
    let bytes = if ext.as_deref() == Some("png") {
        svg::svg_to_png(&text).map_err(|e| input_err(e, out))?
    } else {
        text.into_bytes()
    };
    std::fs::write(out, &bytes)
        .map_err(|e| input_err(format!("cannot write the file ({e})"), out))?;
    Ok(format!("wrote {} ({} bytes)\n", out.display(), bytes.len()))
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
        let Ok(Input::Model(model)) = load(path) else {
            continue;
        };
        let load_ms = ms(t);
        let t = Instant::now();
        let (Ok(lit), Ok(tfl)) = (
            analysis::problems(&model, Lifetimes::Litert),
            analysis::problems(&model, Lifetimes::Tflm),
        ) else {
            continue;
        };
        let life_ms = ms(t);
        let name = path
            .file_stem()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let _ = write!(s, "| {name} | {load_ms:.2} | {life_ms:.2} |");
        for p in &all {
            let problems = match p.scope {
                planner::Scope::Runtime(Lifetimes::Tflm) => &tfl,
                _ => &lit,
            };
            let t = Instant::now();
            let ok = problems
                .iter()
                .all(|pr| plan::run(p, pr, &settings).is_ok());
            let _ = write!(s, " {:.2}{} |", ms(t), if ok { "" } else { " (invalid!)" });
        }
        let t = Instant::now();
        let all_ok = plan_model(&model, Lifetimes::Litert, None, &all, &settings).is_ok();
        let _ = writeln!(
            s,
            " {:.1}{} |",
            ms(t) + load_ms,
            if all_ok { "" } else { " (failed)" }
        );
    }
    s += "\n| synthetic buffers |";
    let generic: Vec<&PlannerInfo> = all.to_vec();
    for p in &generic {
        let _ = write!(s, " {} |", p.id);
    }
    s += "\n|---|";
    for _ in &generic {
        s += "---|";
    }
    s.push('\n');
    for &n in synthetic {
        let problem = crate::synth::network_like(n, 42, 64);
        let _ = write!(s, "| {n} |");
        for p in &generic {
            let t = Instant::now();
            let ok = plan::run(p, &problem, &settings).is_ok();
            let _ = write!(s, " {:.1}{} |", ms(t), if ok { "" } else { " (invalid!)" });
        }
        s.push('\n');
    }
    s
}
