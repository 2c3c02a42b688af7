//! The document: one opened file and everything computed from it, headless. It opens a
//! `.tflite` model or a MiniMalloc CSV problem (typed errors), derives the problems under a
//! lifetime convention, runs the chosen planners and holds their validated plans; it also
//! builds what every face reports about them (the plan JSON header, the tensor rows). The
//! command line, the app, the exports and the benches all stand on this one pipeline, so they
//! cannot disagree.

pub mod budget;
pub mod optimize;
mod rows;
mod select;

use std::path::{Path, PathBuf};

pub use analysis::order::FoundOrder;
pub use budget::{parse_budget, Budget, BudgetError, Verdict};
pub use rows::TensorRow;
pub use select::{
    default_compare, default_planners, registry_position, select_planners, SelectError,
};

use crate::analysis::csv::{CsvError, CsvRow};
use crate::analysis::{self, AnalysisError, Lifetimes, Problem};
use crate::export::json::ModelInfo;
use crate::model::{Model, ModelError};
use crate::plan::{Plan, Violation};
use crate::planner::{self, PlannerInfo, Scope, Settings};

/// The model embedded in the binary, opened when no file is given.
pub const SAMPLE_NAME: &str = "residual_branch_f32.tflite (embedded sample)";
pub const SAMPLE_BYTES: &[u8] = include_bytes!("../../sample_models/residual_branch_f32.tflite");

/// Why a file could not be opened or planned. Every message ends with the file's path.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("this is a directory, not a model or problem file: {0}")]
    Directory(PathBuf),
    #[error("no such file: {0}")]
    NotFound(PathBuf),
    #[error("cannot read the file ({source}): {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{source}: {path}")]
    Model { path: PathBuf, source: ModelError },
    #[error("{source}: {path}")]
    Csv { path: PathBuf, source: CsvError },
    #[error("{source}: {path}")]
    Analysis {
        path: PathBuf,
        source: AnalysisError,
    },
    #[error("planner {planner} produced an invalid plan ({violation}): {path}")]
    InvalidPlan {
        path: PathBuf,
        planner: &'static str,
        violation: Violation,
    },
}

/// What was opened.
pub enum Source {
    Model(Box<Model>),
    /// A MiniMalloc problem: its rows as written (for `solve --out`) and the problem on
    /// compressed time.
    Csv {
        rows: Vec<CsvRow>,
        problem: Box<Problem>,
    },
}

/// What to plan: the lifetime convention, the generic planners' alignment, which planners.
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub lifetimes: Lifetimes,
    /// The operators in the file's order, or in the order that lowers the runtime's arena.
    pub order: OrderChoice,
    /// Offset alignment of the generic planners (`None`: the convention's default; a CSV
    /// problem keeps its own).
    pub align: Option<u64>,
    pub planners: Vec<&'static PlannerInfo>,
    pub settings: Settings,
    /// The CPU class XNNPACK's workspace is rounded for (xnnpack lifetimes).
    pub platform: analysis::xnnpack::Platform,
    /// The CPU class packed weights and indirection buffers are estimated for (`None`: the
    /// platform's usual one).
    pub isa: Option<analysis::xnnpack::Isa>,
}

impl PlanRequest {
    /// The CPU class the XNNPACK estimate is for: the one asked for, else the platform's.
    pub fn estimate_isa(&self) -> analysis::xnnpack::Isa {
        self.isa
            .unwrap_or(analysis::xnnpack::Isa::for_platform(self.platform))
    }

    /// Every planner that runs by default on this source under `lifetimes`.
    pub fn defaults(source: &Source, lifetimes: Lifetimes, align: Option<u64>) -> Self {
        PlanRequest {
            lifetimes,
            order: OrderChoice::File,
            align,
            planners: default_planners(if source.is_csv() {
                None
            } else {
                Some(lifetimes)
            }),
            settings: Settings::default(),
            platform: Default::default(),
            isa: None,
        }
    }
}

/// Which execution order the problems are built on (DESIGN.md §3.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OrderChoice {
    /// The operators as the file lists them.
    #[default]
    File,
    /// Per subgraph, the order the search finds when it lowers the runtime's arena
    /// (`litert`: that subgraph's plan; `tflm`: TFLM's head), else the file's.
    Optimized,
}

impl OrderChoice {
    pub fn name(self) -> &'static str {
        match self {
            OrderChoice::File => "file",
            OrderChoice::Optimized => "optimized",
        }
    }
}

/// What the order search did for one subgraph.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderReport {
    pub subgraph: usize,
    /// The runtime's arena on the file's order, and on the order kept (with an offline plan
    /// where the search counted one).
    pub arena_before: u64,
    pub arena_after: u64,
    /// Whether the kept order differs from the file's.
    pub changed: bool,
    /// Whether the search proved its order has the least peak of live bytes.
    pub exact: bool,
    /// Search steps taken (the budget's unit: the same on every machine).
    pub steps: u64,
    pub seconds: f64,
}

/// What LiteRT with XNNPACK needs, planned (not counting packed weights and indirection
/// buffers, which depend on the CPU).
#[derive(Clone, Debug, Default)]
pub struct XnnpackSummary {
    /// The delegated graph's TFLite arenas (LiteRT's ArenaPlanner), summed over subgraphs.
    pub tflite_arena: u64,
    /// XNNPACK's one workspace block: its largest partition plan (the block allocated is 32
    /// bytes more).
    pub workspace: u64,
    pub partitions: usize,
    /// LiteRT's persistent arena (variables, persistent tensors) of the delegated graph.
    pub persistent: u64,
    /// Nodes no rule covers: kept out of the partitions, so the numbers are then approximate.
    pub not_modelled: Vec<String>,
    /// Packed weights and indirection buffers, estimated for one CPU class.
    pub other: analysis::xnnpack::OtherEstimate,
}

impl XnnpackSummary {
    /// The planned memory: TFLite arena + XNNPACK workspace + persistent arena.
    pub fn planned(&self) -> u64 {
        self.tflite_arena + self.workspace + self.persistent
    }

    /// The whole picture: the planned memory and the estimated packed weights and
    /// indirection buffers.
    pub fn with_other(&self) -> u64 {
        self.planned()
            .saturating_add(self.other.packed_weights)
            .saturating_add(self.other.indirection)
    }
}

/// One problem with the plans made on it.
#[derive(Clone, Debug)]
pub struct Planned {
    pub problem: Problem,
    pub plans: Vec<Plan>,
}

pub struct Document {
    /// The file, `None` for the embedded sample.
    pub path: Option<PathBuf>,
    /// The file name shown in titles.
    pub title: String,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    pub source: Source,
    /// What `planned` was made with.
    pub request: PlanRequest,
    /// The problems and their plans: under a model, first the convention's problems (one per
    /// subgraph for litert, one for tflm), then the problems of a runtime emulation named for
    /// another convention; one for a CSV problem.
    pub planned: Vec<Planned>,
    /// The order each subgraph runs in (`None`: the file's), and what the search did.
    pub orders: Orders,
    pub order_reports: Vec<OrderReport>,
    /// The model with `orders` applied, when any differs from the file's.
    reordered: Option<Box<Model>>,
    /// With `reordered`: the same problems and planners on the file's order (before/after).
    pub file_planned: Vec<Planned>,
}

impl Source {
    pub fn is_csv(&self) -> bool {
        matches!(self, Source::Csv { .. })
    }

    /// Reads a model or, for a `.csv` path, a MiniMalloc problem.
    pub fn open(path: &Path) -> Result<(Source, u64), DocumentError> {
        if path.is_dir() {
            return Err(DocumentError::Directory(path.into()));
        }
        if !path.exists() {
            return Err(DocumentError::NotFound(path.into()));
        }
        let read_err = |source| DocumentError::Read {
            path: path.into(),
            source,
        };
        if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
        {
            let text = std::fs::read_to_string(path).map_err(read_err)?;
            let (rows, problem) =
                analysis::csv::read_problem(&text).map_err(|source| DocumentError::Csv {
                    path: path.into(),
                    source,
                })?;
            Ok((
                Source::Csv {
                    rows,
                    problem: Box::new(problem),
                },
                text.len() as u64,
            ))
        } else {
            let bytes = std::fs::read(path).map_err(read_err)?;
            let model = Model::from_bytes(&bytes).map_err(|source| DocumentError::Model {
                path: path.into(),
                source,
            })?;
            Ok((Source::Model(Box::new(model)), bytes.len() as u64))
        }
    }
}

impl Document {
    /// Opens a file without planning it yet (`plan` does).
    pub fn open(
        path: &Path,
        lifetimes: Lifetimes,
        align: Option<u64>,
    ) -> Result<Self, DocumentError> {
        let (source, file_bytes) = Source::open(path)?;
        let title = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let request = PlanRequest::defaults(&source, lifetimes, align);
        Ok(Document {
            path: Some(path.to_path_buf()),
            title,
            file_bytes,
            source,
            request,
            planned: Vec::new(),
            orders: Vec::new(),
            order_reports: Vec::new(),
            reordered: None,
            file_planned: Vec::new(),
        })
    }

    /// The embedded sample model, not planned yet.
    pub fn sample(lifetimes: Lifetimes, align: Option<u64>) -> Result<Self, DocumentError> {
        let model = Model::from_bytes(SAMPLE_BYTES).map_err(|source| DocumentError::Model {
            path: SAMPLE_NAME.into(),
            source,
        })?;
        let source = Source::Model(Box::new(model));
        let request = PlanRequest::defaults(&source, lifetimes, align);
        Ok(Document {
            path: None,
            title: SAMPLE_NAME.into(),
            file_bytes: SAMPLE_BYTES.len() as u64,
            source,
            request,
            planned: Vec::new(),
            orders: Vec::new(),
            order_reports: Vec::new(),
            reordered: None,
            file_planned: Vec::new(),
        })
    }

    /// Where messages point: the file, or the sample's name.
    pub fn display_path(&self) -> PathBuf {
        self.path
            .clone()
            .unwrap_or_else(|| self.title.clone().into())
    }

    pub fn is_csv(&self) -> bool {
        self.source.is_csv()
    }

    /// The model as planned: the file's, with its subgraphs' operators in `orders`.
    pub fn model(&self) -> Option<&Model> {
        match &self.source {
            Source::Model(m) => Some(self.reordered.as_deref().unwrap_or(m)),
            Source::Csv { .. } => None,
        }
    }

    /// The model as the file has it.
    pub fn file_model(&self) -> Option<&Model> {
        match &self.source {
            Source::Model(m) => Some(m),
            Source::Csv { .. } => None,
        }
    }

    /// Derives the problems and runs `request`'s planners on them; every plan is validated.
    /// The generic planners solve the convention's problems at the requested alignment; a
    /// runtime emulation solves its own runtime's problems (named for another convention, it
    /// adds those problems); on a CSV problem every planner places the buffers as given.
    pub fn plan(&mut self, request: PlanRequest) -> Result<(), DocumentError> {
        let path = self.display_path();
        let analysis_err = |source| DocumentError::Analysis {
            path: path.clone(),
            source,
        };
        let mut planned = Vec::new();
        self.reordered = None;
        self.orders = Vec::new();
        self.order_reports = Vec::new();
        if let (Source::Model(model), OrderChoice::Optimized) = (&self.source, request.order) {
            let (orders, reports) = optimize_orders(
                model,
                request.lifetimes,
                request.settings.time_limit_secs,
                false,
            )
            .map_err(analysis_err)?;
            if orders.iter().any(Option::is_some) {
                self.reordered = Some(Box::new(analysis::order::reordered(model, &orders)));
            }
            self.orders = orders;
            self.order_reports = reports;
        }
        self.file_planned = Vec::new();
        match &self.source {
            Source::Model(file_model) => {
                let model = self.reordered.as_deref().unwrap_or(file_model);
                planned = plan_model(model, &request, &path)?;
                if self.reordered.is_some() {
                    self.file_planned = plan_model(file_model, &request, &path)?;
                }
            }
            Source::Csv { problem, .. } => {
                let problem = match request.align {
                    Some(a) => (**problem).clone().with_alignment(a),
                    None => (**problem).clone(),
                };
                let plans = request
                    .planners
                    .iter()
                    .map(|p| run(p, &problem, &request.settings, &path))
                    .collect::<Result<_, _>>()?;
                planned.push(Planned { problem, plans });
            }
        }
        self.planned = planned;
        self.request = request;
        Ok(())
    }

    /// Problem `index` and its plans on the file's order, when the plans are on another.
    pub fn file_order(&self, index: usize) -> Option<&Planned> {
        self.file_planned
            .get(index.min(self.file_planned.len().saturating_sub(1)))
    }

    /// How the problem selector names problem `index`: its subgraph (number and name), or
    /// which half of LiteRT with XNNPACK it is.
    pub fn problem_label(&self, index: usize) -> String {
        let problem = self.problem(index);
        let sg = problem.subgraph.unwrap_or(0);
        match problem.xnnpack {
            Some(analysis::XnnpackPart::TfliteArena) => format!("TFLite arena, subgraph {sg}"),
            Some(analysis::XnnpackPart::Workspace { partition }) => {
                format!("XNNPACK workspace {partition} (subgraph {sg})")
            }
            None => {
                let name = self
                    .model()
                    .and_then(|m| m.subgraphs.get(sg))
                    .map(|s| s.name.clone())
                    .unwrap_or_default();
                format!("{index} {name}")
            }
        }
    }

    /// Problems the subgraph selector offers (litert lifetimes on a model: one per subgraph).
    pub fn problem_count(&self) -> usize {
        self.planned.len()
    }

    /// Problem `index` (clamped to the last one).
    pub fn problem(&self, index: usize) -> &Problem {
        &self.planned[index.min(self.planned.len().saturating_sub(1))].problem
    }

    pub fn plans(&self, index: usize) -> &[Plan] {
        &self.planned[index.min(self.planned.len().saturating_sub(1))].plans
    }

    /// The model facts of the plan JSON header (DESIGN.md §3.2).
    pub fn model_info(&self) -> ModelInfo {
        let (subgraphs, tensors, operators) = match &self.source {
            Source::Model(m) => (m.subgraphs.len(), m.tensor_count(), m.operator_count()),
            Source::Csv { problem, .. } => (1, problem.buffers.len(), 0),
        };
        ModelInfo {
            path: self.display_path().display().to_string(),
            bytes: self.file_bytes,
            subgraphs,
            tensors,
            operators,
        }
    }

    /// The plan JSON (DESIGN.md §3.2) of the plans on the problems `indices`: planners in
    /// registry order, then by problem.
    pub fn plan_json(&self, indices: &[usize]) -> serde_json::Value {
        let mut entries: Vec<(usize, usize, serde_json::Value)> = Vec::new();
        for &i in indices {
            let Some(pl) = self.planned.get(i) else {
                continue;
            };
            let order_bound = self
                .model()
                .and_then(|m| analysis::order_bound::order_bound(m, &pl.problem));
            let tflm = pl.problem.lifetimes == Some(Lifetimes::Tflm);
            let tail = tflm.then(|| self.tflm_tail()).flatten();
            let tail32 = tflm
                .then(|| self.tflm_tail_for(crate::analysis::tflm_tail::Target::Target32))
                .flatten();
            for plan in &pl.plans {
                let mut entry = crate::export::json::plan_entry(&pl.problem, plan);
                entry["order"] = self.request.order.name().into();
                if let Some(b) = &order_bound {
                    entry["order_bound"] = serde_json::json!({
                        "bytes": b.bytes, "operator": b.operator, "subgraph": b.subgraph,
                    });
                }
                if let Some(tail) = &tail {
                    entry["tflm_arena"] =
                        crate::export::json::tflm_arena(plan.arena_bytes, tail, 8, true);
                    // Written into the model as an offline plan, TFLM re-places the scratch.
                    let written = crate::planner::tflm::with_pinned(&pl.problem, &plan.offsets);
                    if crate::plan::validate(&pl.problem, &written.offsets, None).is_ok() {
                        entry["tflm_arena"]["head_when_written"] =
                            pl.problem.arena_bytes(&written.offsets).into();
                    }
                }
                if let Some(tail) = &tail32 {
                    entry["tflm_arena_32bit"] =
                        crate::export::json::tflm_arena(plan.arena_bytes, tail, 4, false);
                }
                entries.push((registry_position(plan.planner), i, entry));
            }
        }
        entries.sort_by_key(|e| (e.0, e.1));
        let mut doc = crate::export::json::plan_document(
            &self.model_info(),
            entries.into_iter().map(|e| e.2).collect(),
        );
        if let Some(x) = self.xnnpack_summary() {
            doc["xnnpack"] = serde_json::json!({
                "tflite_arena": x.tflite_arena, "workspace": x.workspace,
                "platform": self.request.platform.name(), "partitions": x.partitions,
                "not_modelled": x.not_modelled,
            });
            doc["xnnpack_other"] = serde_json::json!({
                "packed_weights": x.other.packed_weights, "indirection": x.other.indirection,
                "isa": x.other.isa, "estimate": true, "not_estimated": x.other.not_estimated,
            });
        }
        if self.request.order == OrderChoice::Optimized {
            doc["order_search"] = self
                .order_reports
                .iter()
                .map(|r| {
                    serde_json::json!({
                        "subgraph": r.subgraph, "arena_before": r.arena_before,
                        "arena_after": r.arena_after, "order_changed": r.changed,
                        "order_search": if r.exact { "exact" } else { "heuristic" },
                        "seconds": r.seconds,
                        "order": self.orders.get(r.subgraph).cloned().flatten(),
                    })
                })
                .collect();
        }
        doc
    }

    /// TFLM's tail for this model on the x86-64 host build (`None` for a CSV problem).
    pub fn tflm_tail(&self) -> Option<crate::analysis::tflm_tail::Tail> {
        self.tflm_tail_for(crate::analysis::tflm_tail::Target::Host64)
    }

    /// TFLM's tail on `target` (a 32-bit one is computed, not measured).
    pub fn tflm_tail_for(
        &self,
        target: crate::analysis::tflm_tail::Target,
    ) -> Option<crate::analysis::tflm_tail::Tail> {
        let model = self.model()?;
        Some(crate::analysis::tflm_tail::tail_for(
            model,
            analysis::tflm::scratch_request_count(model),
            target,
        ))
    }

    /// What the runtime needs beside the planned arena of problem `index`: TFLM's tail for a
    /// problem on tflm lifetimes, LiteRT's persistent arena on litert, nothing for a CSV one.
    pub fn outside_plan_bytes(&self, index: usize) -> u64 {
        let problem = self.problem(index);
        match problem.lifetimes {
            Some(Lifetimes::Tflm) => self.tflm_tail().map_or(0, |t| t.bytes),
            Some(Lifetimes::Litert) => problem.persistent_bytes(),
            Some(Lifetimes::Xnnpack) | None => 0,
        }
    }

    /// LiteRT with XNNPACK as a whole (xnnpack lifetimes on a model): the TFLite arenas summed
    /// over subgraphs (the `litert` plans) and the one workspace (the largest `xnnpack` plan:
    /// the partitions run one after another in the same block).
    pub fn xnnpack_summary(&self) -> Option<XnnpackSummary> {
        if self.request.lifetimes != Lifetimes::Xnnpack {
            return None;
        }
        let model = self.model()?;
        // The runtime's own plan of each problem: the one made, else made here.
        let arena_of = |pl: &Planned, id: &str| {
            pl.plans
                .iter()
                .find(|p| p.planner == id)
                .map(|p| p.arena_bytes)
                .or_else(|| {
                    let info = planner::find(id)?;
                    planner::run(info, &pl.problem, &Settings::default())
                        .ok()
                        .map(|p| p.arena_bytes)
                })
                .unwrap_or(0)
        };
        let delegation = analysis::xnnpack::delegate(model);
        let mut s = XnnpackSummary {
            other: analysis::xnnpack::other_estimate(
                model,
                &delegation,
                self.request.estimate_isa(),
            ),
            not_modelled: delegation.not_modelled,
            ..Default::default()
        };
        for pl in &self.planned {
            match pl.problem.xnnpack {
                Some(analysis::XnnpackPart::TfliteArena) => {
                    s.tflite_arena += arena_of(pl, "litert");
                    s.persistent += pl.problem.persistent_bytes();
                }
                Some(analysis::XnnpackPart::Workspace { .. }) => {
                    s.partitions += 1;
                    s.workspace = s.workspace.max(arena_of(pl, "xnnpack"));
                }
                None => {}
            }
        }
        Some(s)
    }

    /// The plan JSON of every problem.
    pub fn plan_json_all(&self) -> serde_json::Value {
        let all: Vec<usize> = (0..self.planned.len()).collect();
        self.plan_json(&all)
    }

    /// Every tensor row of problem `index`: planned buffers, in-place aliases, tensors kept
    /// outside the arena, and the model's constants.
    pub fn tensor_rows(&self, index: usize) -> Vec<TensorRow> {
        rows::tensor_rows(self.model(), self.problem(index))
    }
}

/// The problems of `model` and the plans of `request`'s planners on them (see
/// [`Document::plan`]).
fn plan_model(
    model: &Model,
    request: &PlanRequest,
    path: &Path,
) -> Result<Vec<Planned>, DocumentError> {
    let analysis_err = |source| DocumentError::Analysis {
        path: path.to_path_buf(),
        source,
    };
    let mut planned = Vec::new();
    let align = request
        .align
        .unwrap_or(request.lifetimes.default_alignment());
    for problem in
        analysis::problems_on(model, request.lifetimes, request.platform).map_err(analysis_err)?
    {
        let generic = problem.clone().with_alignment(align);
        let mut plans = Vec::new();
        for p in &request.planners {
            match p.scope {
                Scope::Any => plans.push(run(p, &generic, &request.settings, path)?),
                // Each emulation on the problems of its runtime (with XNNPACK: LiteRT's on the
                // delegated graph, XNNPACK's on the workspaces).
                Scope::Runtime(l) if Some(l) == problem.lifetimes => {
                    plans.push(run(p, &problem, &request.settings, path)?)
                }
                Scope::Runtime(_) => {}
            }
        }
        planned.push(Planned {
            problem: generic,
            plans,
        });
    }
    for p in &request.planners {
        let Scope::Runtime(l) = p.scope else { continue };
        let own = l == request.lifetimes
            || (l == Lifetimes::Litert && request.lifetimes == Lifetimes::Xnnpack);
        if own {
            continue;
        }
        for problem in analysis::problems(model, l).map_err(analysis_err)? {
            let plans = vec![run(p, &problem, &request.settings, path)?];
            planned.push(Planned { problem, plans });
        }
    }
    Ok(planned)
}

/// Runs one planner; an invalid plan is an error naming the planner.
fn run(
    info: &'static PlannerInfo,
    problem: &Problem,
    settings: &Settings,
    path: &Path,
) -> Result<Plan, DocumentError> {
    planner::run(info, problem, settings).map_err(|violation| DocumentError::InvalidPlan {
        path: path.into(),
        planner: info.id,
        violation,
    })
}

/// Order-search steps budgeted per second of `time_limit_secs`: about what a release build
/// does in a second on the 2-core machine of the README's tables (NASNet-Mobile).
pub const ORDER_STEPS_PER_SEC: f64 = 2.5e6;

/// The arena the runtime of `lifetimes` gives `problem` (its own emulation's plan, validated),
/// or why the plan is invalid.
pub fn emulation_arena(problem: &analysis::Problem, lifetimes: Lifetimes) -> Result<u64, String> {
    let id = lifetimes.name();
    let info = planner::find(id).expect("the runtime emulations are registered");
    planner::run(info, problem, &Settings::default())
        .map(|p| p.arena_bytes)
        .map_err(|v| format!("the {id} plan is invalid ({v})"))
}

/// Each subgraph's operator order (`None`: the file's).
pub type Orders = Vec<Option<Vec<usize>>>;

/// Per subgraph, the order that lowers the runtime's real arena (`litert`: the subgraph's
/// `litert` plan; `tflm`: TFLM's head over all subgraphs), else `None` (the file's), searched
/// for about `time_limit_secs` per subgraph at most. With `offline_plan` (TFLM), an order
/// counts at the smaller of TFLM's own head and the head of the best generic plan written into
/// the model as its offline plan.
pub fn optimize_orders(
    model: &Model,
    lifetimes: Lifetimes,
    time_limit_secs: f64,
    offline_plan: bool,
) -> Result<(Orders, Vec<OrderReport>), AnalysisError> {
    // The runtime's own arena, and the objective (the same, or with an offline plan).
    let runtime_arena = |m: &Model, si: usize| -> Result<(u64, u64), AnalysisError> {
        let problem = match lifetimes {
            Lifetimes::Litert => analysis::litert::problem(m, si)?,
            Lifetimes::Tflm => analysis::tflm::problem(m)?,
            Lifetimes::Xnnpack => return Err(AnalysisError::NoXnnpackOrders),
        };
        // An order whose plan does not validate is never kept.
        let own = emulation_arena(&problem, lifetimes).unwrap_or(u64::MAX);
        Ok(match lifetimes {
            Lifetimes::Tflm if offline_plan => (
                own,
                optimize::best_offline_plan(m, &problem, None).map_or(own, |p| p.head.min(own)),
            ),
            _ => (own, own),
        })
    };
    let mut orders: Orders = vec![None; model.subgraphs.len()];
    let mut reports = Vec::new();
    for si in 0..model.subgraphs.len() {
        let t0 = std::time::Instant::now();
        let current = analysis::order::reordered(model, &orders);
        // The temporaries and scratch of each operator, under this convention.
        let problem = match lifetimes {
            Lifetimes::Litert => analysis::litert::problem(&current, si)?,
            Lifetimes::Tflm => analysis::tflm::problem(&current)?,
            Lifetimes::Xnnpack => return Err(AnalysisError::NoXnnpackOrders),
        };
        let mut temps = vec![0u64; model.subgraphs[si].operators.len()];
        for &(s, node, b) in &problem.op_scratch {
            if s == si {
                temps[node] += problem.buffers[b].size_bytes;
            }
        }
        let (before, mut after) = runtime_arena(&current, si)?;
        let mut exact;
        // First the exact search (it gives up early on graphs with many branches); then, anytime,
        // beams widened fourfold while the next round, about four times the work, still fits in
        // the budget, keeping the order whose real arena is the smallest. The budget counts search
        // steps, not seconds, so the result is the same on every machine.
        let budget = (time_limit_secs.max(0.0) * ORDER_STEPS_PER_SEC) as u64;
        let mut used = 0u64;
        let mut beam = analysis::order::BEAM_WIDTH;
        let mut mode = analysis::order::Mode::Exact;
        loop {
            let found = match analysis::order::search_with(model, si, lifetimes, &temps, mode) {
                Ok(found) => found,
                Err(steps) => {
                    used += steps;
                    mode = analysis::order::Mode::Beam { width: beam };
                    continue;
                }
            };
            exact = found.exact;
            used += found.steps;
            let changed = found.order.iter().enumerate().any(|(k, &o)| k != o);
            if changed && analysis::order::is_valid_order(model, si, &found.order) {
                let mut trial = orders.clone();
                trial[si] = Some(found.order.clone());
                let (_, arena) = runtime_arena(&analysis::order::reordered(model, &trial), si)?;
                if arena < after {
                    orders = trial;
                    after = arena;
                }
            }
            // A beam that kept every set cannot do better wider.
            if found.exact || !found.truncated || used + 4 * found.steps > budget {
                break;
            }
            beam *= 4;
            mode = analysis::order::Mode::Beam { width: beam };
        }
        reports.push(OrderReport {
            subgraph: si,
            arena_before: before,
            arena_after: after,
            changed: orders[si].is_some(),
            exact,
            steps: used,
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    Ok((orders, reports))
}
