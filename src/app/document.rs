//! An opened file and everything computed from it: the problems under the chosen lifetime
//! convention, every applicable planner's validated plan on each, and the tensor rows the
//! panels show.

use std::path::{Path, PathBuf};

use crate::analysis::{Lifetimes, Problem};
use crate::cli::{self, Input, Planned};
use crate::model::Model;
use crate::plan::Plan;
use crate::planner::{self, Settings};

/// The model embedded in the binary, opened when no file is given.
pub const SAMPLE_NAME: &str = "residual_branch_f32.tflite (embedded sample)";
pub const SAMPLE_BYTES: &[u8] = include_bytes!("../../sample_models/residual_branch_f32.tflite");

/// One row of the tensor table (and the details pane).
#[derive(Clone, Debug)]
pub struct TensorRow {
    /// The tensor number in the problem's numbering (as in the plan JSON).
    pub tensor: usize,
    pub subgraph: usize,
    pub name: String,
    pub shape: String,
    pub dtype: String,
    pub bytes: u64,
    /// input, output, activation, scratch, alias, constant, variable, persistent, dynamic.
    pub kind: &'static str,
    pub first: Option<u32>,
    pub last: Option<u32>,
    /// The buffer whose bytes it occupies (itself, or an alias's root).
    pub buffer: Option<usize>,
    pub producer: Option<String>,
    pub consumers: Vec<String>,
    pub dynamic_dims: bool,
}

pub struct Document {
    pub path: Option<PathBuf>,
    pub title: String,
    pub input: Input,
    pub lifetimes: Lifetimes,
    pub align: Option<u64>,
    /// One per problem (subgraph for litert lifetimes; one for tflm and CSV problems).
    pub planned: Vec<Planned>,
}

impl Document {
    pub fn open(path: &Path, lifetimes: Lifetimes, align: Option<u64>) -> Result<Self, String> {
        let input = cli::load(path).map_err(|e| e.message().to_string())?;
        let title = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        Self::build(Some(path.to_path_buf()), title, input, lifetimes, align)
    }

    pub fn sample(lifetimes: Lifetimes, align: Option<u64>) -> Result<Self, String> {
        let model = Model::from_bytes(SAMPLE_BYTES).map_err(|e| e.to_string())?;
        Self::build(
            None,
            SAMPLE_NAME.into(),
            Input::Model(Box::new(model)),
            lifetimes,
            align,
        )
    }

    fn build(
        path: Option<PathBuf>,
        title: String,
        input: Input,
        lifetimes: Lifetimes,
        align: Option<u64>,
    ) -> Result<Self, String> {
        let mut doc = Document {
            path,
            title,
            input,
            lifetimes,
            align,
            planned: Vec::new(),
        };
        doc.replan(lifetimes, align)?;
        Ok(doc)
    }

    /// Recomputes every problem and plan under new settings.
    pub fn replan(&mut self, lifetimes: Lifetimes, align: Option<u64>) -> Result<(), String> {
        let settings = Settings::default();
        let planned = match &self.input {
            Input::Model(model) => {
                let all: Vec<_> = planner::REGISTRY.iter().filter(|p| !p.on_request).collect();
                cli::plan_model(model, lifetimes, align, &all, &settings)?
            }
            Input::Csv(_, problem) => {
                let problem = match align {
                    Some(a) => problem.clone().with_alignment(a),
                    None => problem.clone(),
                };
                let all: Vec<_> = planner::REGISTRY
                    .iter()
                    .filter(|p| !p.on_request && p.applies_to(&problem))
                    .collect();
                let plans = cli::plan_problem(&problem, &all, &settings)?;
                vec![Planned { problem, plans }]
            }
        };
        self.planned = planned;
        self.lifetimes = lifetimes;
        self.align = align;
        Ok(())
    }

    pub fn is_csv(&self) -> bool {
        matches!(self.input, Input::Csv(..))
    }

    pub fn model(&self) -> Option<&Model> {
        match &self.input {
            Input::Model(m) => Some(m),
            Input::Csv(..) => None,
        }
    }

    /// Problems the subgraph selector offers (litert lifetimes on a model: one per subgraph).
    pub fn problem_count(&self) -> usize {
        self.planned.len()
    }

    pub fn problem(&self, index: usize) -> &Problem {
        &self.planned[index.min(self.planned.len() - 1)].problem
    }

    pub fn plans(&self, index: usize) -> &[Plan] {
        &self.planned[index.min(self.planned.len() - 1)].plans
    }

    /// The model subgraph and local index of a tensor number of problem `index`.
    fn model_tensor(&self, index: usize, tensor: usize) -> Option<(usize, usize)> {
        let model = self.model()?;
        match self.lifetimes {
            Lifetimes::Litert => {
                let sg = self.problem(index).subgraph?;
                (tensor < model.subgraphs[sg].tensors.len()).then_some((sg, tensor))
            }
            Lifetimes::Tflm => {
                let mut base = 0;
                for (si, sg) in model.subgraphs.iter().enumerate() {
                    if tensor < base + sg.tensors.len() {
                        return Some((si, tensor - base));
                    }
                    base += sg.tensors.len();
                }
                None
            }
        }
    }

    /// Every tensor row of problem `index`: planned buffers, in-place aliases, tensors kept
    /// outside the arena, and the model's constants.
    pub fn tensor_rows(&self, index: usize) -> Vec<TensorRow> {
        let problem = self.problem(index);
        let mut rows = Vec::new();
        let mut push = |tensor: usize,
                        subgraph: usize,
                        name: &str,
                        bytes: u64,
                        kind: &'static str,
                        life: Option<(u32, u32)>,
                        buffer: Option<usize>| {
            let mut row = TensorRow {
                tensor,
                subgraph,
                name: name.to_string(),
                shape: String::new(),
                dtype: String::new(),
                bytes,
                kind,
                first: life.map(|l| l.0),
                last: life.map(|l| l.1),
                buffer,
                producer: None,
                consumers: Vec::new(),
                dynamic_dims: false,
            };
            if let (Some(model), Some((sg, local))) =
                (self.model(), self.model_tensor(index, tensor))
            {
                let t = &model.subgraphs[sg].tensors[local];
                row.shape = t.shape_string();
                row.dtype = t.dtype.name().to_string();
                row.dynamic_dims = t.has_dynamic_dims();
                for (i, op) in model.subgraphs[sg].operators.iter().enumerate() {
                    let label = format!("op {i} {} (subgraph {sg})", model.op_name(op));
                    if op.outputs.contains(&(local as i32)) {
                        row.producer = Some(label.clone());
                    }
                    if op.inputs.contains(&(local as i32)) {
                        row.consumers.push(label);
                    }
                }
            } else if kind == "scratch" {
                row.shape = "kernel temporary".into();
            }
            rows.push(row);
        };
        for (i, b) in problem.buffers.iter().enumerate() {
            push(
                b.tensor,
                b.subgraph,
                &b.name,
                b.size_bytes,
                b.kind.name(),
                Some((b.first, b.last)),
                Some(i),
            );
        }
        for a in &problem.aliases {
            push(
                a.tensor,
                a.subgraph,
                &a.name,
                a.size_bytes,
                "alias",
                Some((a.first, a.last)),
                Some(a.root),
            );
        }
        for o in &problem.outside {
            push(
                o.tensor,
                o.subgraph,
                &o.name,
                o.size_bytes,
                o.reason,
                None,
                None,
            );
        }
        if let Some(model) = self.model() {
            let mut base = 0;
            for (si, sg) in model.subgraphs.iter().enumerate() {
                let in_problem = match self.lifetimes {
                    Lifetimes::Litert => problem.subgraph == Some(si),
                    Lifetimes::Tflm => true,
                };
                if in_problem {
                    let offset = if self.lifetimes == Lifetimes::Tflm {
                        base
                    } else {
                        0
                    };
                    for (ti, t) in sg.tensors.iter().enumerate().filter(|(_, t)| t.is_constant) {
                        push(
                            offset + ti,
                            si,
                            &t.name,
                            t.bytes.unwrap_or(0),
                            "constant",
                            None,
                            None,
                        );
                    }
                }
                base += sg.tensors.len();
            }
        }
        rows.sort_by_key(|r| (r.subgraph, r.tensor));
        rows
    }
}
