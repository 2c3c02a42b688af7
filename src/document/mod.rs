//! The document: one opened file and everything computed from it, headless. It opens a
//! `.tflite` model or a MiniMalloc CSV problem (`open`), derives the problems under a lifetime
//! convention and runs the chosen planners, keeping their validated plans (`request`, with the
//! order search in `orders`), computes once what every face reports about them (`facts`), and
//! answers what the runtime needs (`headline`) and what the plan JSON says (`json`). The
//! command line, the app, the exports and the benches all stand on this one pipeline, so they
//! cannot disagree.

pub mod budget;
pub mod facts;
pub mod headline;
mod json;
mod open;
pub mod optimize;
mod orders;
mod request;
mod rows;
mod select;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::Arc;

pub use analysis::order::FoundOrder;
pub use budget::{parse_budget, Budget, BudgetError, Verdict};
pub use facts::{Facts, ProblemFacts, RuntimeFigure, TflmTails, XnnpackSummary};
pub use headline::{BudgetVerdict, Certainty, Headline, HeadlineOptions, Subject, TflmTarget};
pub use orders::{emulation_arena, optimize_orders, OrderReport, Orders, ORDER_STEPS_PER_SEC};
pub use request::{OrderChoice, PlanRequest};
pub use rows::{RowKind, TensorRow};
pub use select::{
    default_compare, default_planners, registry_position, select_planners, SelectError,
};

use crate::analysis::csv::{CsvError, CsvRow};
use crate::analysis::{self, AnalysisError, Problem};
use crate::export::json::ModelInfo;
use crate::model::{Model, ModelError};
use crate::plan::{Plan, Violation};

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

/// One problem with the plans made on it.
#[derive(Clone, Debug)]
pub struct Planned {
    pub problem: Problem,
    pub plans: Vec<Plan>,
    /// The arena of the problem's own runtime planner (`litert`, `tflm`, `xnnpack`), made
    /// whether or not the request named it (`None` for a CSV problem).
    pub runtime_arena: Option<u64>,
}

/// An opened file and its plans. Cloning shares the file (the model is not copied).
#[derive(Clone)]
pub struct Document {
    /// The file, `None` for the embedded sample.
    pub path: Option<PathBuf>,
    /// The file name shown in titles.
    pub title: String,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    pub source: Arc<Source>,
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
    reordered: Option<Arc<Model>>,
    /// With `reordered`: the same problems and planners on the file's order (before/after).
    pub file_planned: Vec<Planned>,
    /// What every face reports, computed when the document was planned.
    pub facts: Facts,
}

impl Document {
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
        match &*self.source {
            Source::Model(m) => Some(self.reordered.as_deref().unwrap_or(m)),
            Source::Csv { .. } => None,
        }
    }

    /// The model as the file has it.
    pub fn file_model(&self) -> Option<&Model> {
        match &*self.source {
            Source::Model(m) => Some(m),
            Source::Csv { .. } => None,
        }
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
        let (subgraphs, tensors, operators) = match &*self.source {
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

    /// TFLM's tail for this model on the x86-64 host build (`None` for a CSV problem).
    pub fn tflm_tail(&self) -> Option<&crate::analysis::tflm_tail::Tail> {
        self.facts.tflm_tails.as_ref().map(|t| &t.host64)
    }

    /// What the runtime needs beside the planned arena of problem `index`: TFLM's tail for a
    /// problem on tflm lifetimes, LiteRT's persistent arena on litert, nothing for a CSV one.
    pub fn outside_plan_bytes(&self, index: usize) -> u64 {
        self.problem_facts(index).map_or(0, |f| f.outside_bytes)
    }

    /// What the runtime needs beside problem `index`'s plan on TFLM build `target` (its tail;
    /// the other runtimes have one build).
    pub fn outside_plan_bytes_for(&self, index: usize, target: TflmTarget) -> u64 {
        let tflm = self.problem(index).lifetimes == Some(analysis::Lifetimes::Tflm);
        match (&self.facts.tflm_tails, tflm) {
            (Some(t), true) => t.get(target.tail_target()).bytes,
            _ => self.outside_plan_bytes(index),
        }
    }

    /// The facts of problem `index` (clamped to the last one).
    pub fn problem_facts(&self, index: usize) -> Option<&ProblemFacts> {
        self.facts
            .problems
            .get(index.min(self.facts.problems.len().saturating_sub(1)))
    }

    /// LiteRT with XNNPACK as a whole (xnnpack lifetimes on a model).
    pub fn xnnpack_summary(&self) -> Option<&XnnpackSummary> {
        self.facts.xnnpack.as_ref()
    }

    /// Every tensor row of problem `index`: planned buffers, in-place aliases, tensors kept
    /// outside the arena, and the model's constants.
    pub fn tensor_rows(&self, index: usize) -> Vec<TensorRow> {
        rows::tensor_rows(self.model(), self.problem(index))
    }
}
