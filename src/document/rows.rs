//! The tensor table's rows (and the details pane's facts): every tensor of a problem, planned
//! or not, with what the model says about it.

use crate::analysis::{Lifetimes, Problem};
use crate::model::Model;

/// One row of the tensor table.
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

/// The model subgraph and local index of a tensor number of `problem`.
fn model_tensor(model: &Model, problem: &Problem, tensor: usize) -> Option<(usize, usize)> {
    match problem.lifetimes? {
        Lifetimes::Litert | Lifetimes::Xnnpack => {
            let sg = problem.subgraph?;
            (tensor < model.subgraphs.get(sg)?.tensors.len()).then_some((sg, tensor))
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

pub(super) fn tensor_rows(model: Option<&Model>, problem: &Problem) -> Vec<TensorRow> {
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
        if let Some((model, (sg, local))) =
            model.and_then(|m| Some((m, model_tensor(m, problem, tensor)?)))
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
    if let Some(model) = model {
        let mut base = 0;
        for (si, sg) in model.subgraphs.iter().enumerate() {
            let (in_problem, offset) = match problem.lifetimes {
                Some(Lifetimes::Litert | Lifetimes::Xnnpack) => (problem.subgraph == Some(si), 0),
                Some(Lifetimes::Tflm) => (true, base),
                None => (false, 0),
            };
            if in_problem {
                let labels = model.tensor_labels(si);
                for (ti, t) in sg.tensors.iter().enumerate().filter(|(_, t)| t.is_constant) {
                    push(
                        offset + ti,
                        si,
                        &labels[ti],
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
