//! The tensor table's rows (and the details pane's facts): every tensor of a problem, planned
//! or not, with what the model says about it. Producers and consumers come from one pass over
//! each subgraph's operators, so the rows of a 1300-tensor model take a few milliseconds.

use crate::analysis::{BufferKind, Lifetimes, OutsideReason, Problem};
use crate::model::Model;

/// What a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// Planned in the arena.
    Planned(BufferKind),
    /// An in-place output sharing its input's bytes.
    Alias,
    /// Weights and biases: memory-mapped, never in the arena.
    Constant,
    /// Kept outside the reusable arena.
    Outside(OutsideReason),
}

impl RowKind {
    /// input, output, activation, scratch, alias, constant, variable, persistent, dynamic.
    pub fn name(self) -> &'static str {
        match self {
            RowKind::Planned(k) => k.name(),
            RowKind::Alias => "alias",
            RowKind::Constant => "constant",
            RowKind::Outside(r) => r.name(),
        }
    }
}

impl std::fmt::Display for RowKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

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
    pub kind: RowKind,
    pub first: Option<u32>,
    pub last: Option<u32>,
    /// The buffer whose bytes it occupies (itself, or an alias's root).
    pub buffer: Option<usize>,
    pub producer: Option<String>,
    pub consumers: Vec<String>,
    pub dynamic_dims: bool,
}

/// One subgraph's operators as the rows name them, and who produces and consumes each tensor.
struct OpIndex {
    labels: Vec<String>,
    producer: Vec<Option<usize>>,
    consumers: Vec<Vec<usize>>,
}

impl OpIndex {
    fn of(model: &Model, sg: usize) -> Self {
        let s = &model.subgraphs[sg];
        let mut index = OpIndex {
            labels: Vec::with_capacity(s.operators.len()),
            producer: vec![None; s.tensors.len()],
            consumers: vec![Vec::new(); s.tensors.len()],
        };
        for (i, op) in s.operators.iter().enumerate() {
            index
                .labels
                .push(format!("op {i} {} (subgraph {sg})", model.op_name(op)));
            let slot = |t: &i32| usize::try_from(*t).ok().filter(|&t| t < s.tensors.len());
            for t in op.outputs.iter().filter_map(slot) {
                index.producer[t] = Some(i);
            }
            for t in op.inputs.iter().filter_map(slot) {
                if index.consumers[t].last() != Some(&i) {
                    index.consumers[t].push(i);
                }
            }
        }
        index
    }
}

pub(super) fn tensor_rows(model: Option<&Model>, problem: &Problem) -> Vec<TensorRow> {
    let mut rows = Vec::new();
    let mut indices: Vec<Option<OpIndex>> = (0..model.map_or(0, |m| m.subgraphs.len()))
        .map(|_| None)
        .collect();
    let mut push = |tensor: usize,
                    subgraph: usize,
                    name: &str,
                    bytes: u64,
                    kind: RowKind,
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
            model.and_then(|m| Some((m, problem.model_tensor(m, tensor)?)))
        {
            let t = &model.subgraphs[sg].tensors[local];
            row.shape = t.shape_string();
            row.dtype = t.dtype.name().to_string();
            row.dynamic_dims = t.has_dynamic_dims();
            let index = indices[sg].get_or_insert_with(|| OpIndex::of(model, sg));
            row.producer = index.producer[local].map(|i| index.labels[i].clone());
            row.consumers = index.consumers[local]
                .iter()
                .map(|&i| index.labels[i].clone())
                .collect();
        } else if kind == RowKind::Planned(BufferKind::Scratch) {
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
            RowKind::Planned(b.kind),
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
            RowKind::Alias,
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
            RowKind::Outside(o.reason),
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
                        RowKind::Constant,
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
