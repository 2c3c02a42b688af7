//! TFLite Micro's view of a model: `AllocationInfoBuilder` lifetimes over all subgraphs in one
//! arena, 16-byte sizes, kernel scratch requests and the offline plan (RUNTIME_RULES.md B, T1,
//! T2, and the reductions' requests).
//!
//! Time is TFLM's allocation scope: 0 on entry, +1 before each operator and before each
//! subgraph an operator calls (walked nested at that point). Inputs and outputs of a subgraph
//! are created on entry; an op's outputs are (re)created at its scope; inputs get their last
//! use after the called subgraphs; an op's own outputs also get `last = scope`, so an output
//! nothing consumes lives one tick; a subgraph's outputs live to the end of its walk.

use super::problem::{Buffer, BufferKind, Lifetimes, Outside, Problem};
use super::AnalysisError;
use crate::model::{ops, Model, Options, TensorType};

/// `MicroArenaBufferAlignment()`.
pub const TFLM_ALIGNMENT: u64 = 16;

const UNSET: i64 = -1;

#[derive(Clone, Copy)]
struct Life {
    first: i64,
    last: i64,
}

struct Scratch {
    subgraph: usize,
    node: usize,
    bytes: u64,
}

struct Walker<'a> {
    model: &'a Model,
    /// Offset of each subgraph's tensors in the concatenation.
    base: Vec<usize>,
    life: Vec<Life>,
    scratch: Vec<Scratch>,
    scratch_life: Vec<Life>,
    scope: i64,
    depth: usize,
}

impl Walker<'_> {
    fn created(&mut self, i: usize) {
        self.life[i] = Life {
            first: self.scope,
            last: self.scope,
        };
    }

    fn used(&mut self, i: usize) {
        self.life[i].last = self.scope;
    }

    fn walk(&mut self, si: usize) -> Result<(), AnalysisError> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(AnalysisError::Invalid(
                "subgraphs call each other too deeply (a call cycle?)".into(),
            ));
        }
        let model = self.model;
        let sg = &model.subgraphs[si];
        let base = self.base[si];
        for &t in sg.inputs.iter().chain(&sg.outputs) {
            self.created(base + t);
        }
        for (i, op) in sg.operators.iter().enumerate() {
            self.scope += 1;
            for &t in op.outputs.iter().filter(|&&t| t >= 0) {
                self.created(base + t as usize);
            }
            let start = self.scope;
            for called in op.called_subgraphs() {
                self.scope += 1;
                self.walk(called)?;
            }
            for &t in op.inputs.iter().filter(|&&t| t >= 0) {
                self.used(base + t as usize);
            }
            for &t in op.outputs.iter().filter(|&&t| t >= 0) {
                self.used(base + t as usize);
            }
            for (k, s) in self.scratch.iter().enumerate() {
                if s.subgraph == si && s.node == i {
                    self.scratch_life[k] = Life {
                        first: start,
                        last: self.scope,
                    };
                }
            }
        }
        for &t in &sg.outputs {
            self.used(base + t);
        }
        self.depth -= 1;
        Ok(())
    }
}

/// Scratch buffers the reference kernels request in Prepare (T1, T2), in request order.
fn scratch_requests(model: &Model) -> Vec<Scratch> {
    let mut out = Vec::new();
    for (si, sg) in model.subgraphs.iter().enumerate() {
        let tensor = |t: i32| usize::try_from(t).ok().and_then(|t| sg.tensors.get(t));
        for (i, op) in sg.operators.iter().enumerate() {
            let mut push = |bytes: u64| {
                out.push(Scratch {
                    subgraph: si,
                    node: i,
                    bytes,
                })
            };
            match op.builtin {
                ops::UNIDIRECTIONAL_SEQUENCE_LSTM => {
                    // Four buffers of the cell state's size (input 19).
                    if let Some(bytes) = op
                        .inputs
                        .get(19)
                        .and_then(|&t| tensor(t))
                        .and_then(|t| t.bytes)
                    {
                        for _ in 0..4 {
                            push(bytes);
                        }
                    }
                }
                ops::SVDF => {
                    let input = op.inputs.first().and_then(|&t| tensor(t));
                    let wf = op.inputs.get(1).and_then(|&t| tensor(t));
                    if let (Some(input), Some(wf), Options::Svdf { rank }) =
                        (input, wf, &op.options)
                    {
                        let batch = input.shape.first().copied().unwrap_or(1).max(0) as u64;
                        let num_filters = wf.shape.first().copied().unwrap_or(0).max(0) as u64;
                        if input.dtype == TensorType::Int8 {
                            let num_units = if *rank > 0 {
                                num_filters / *rank as u64
                            } else {
                                0
                            };
                            push(batch * num_filters * 4);
                            push(batch * num_units * 4);
                        } else {
                            push(batch * num_filters * 4);
                        }
                    }
                }
                // Reductions (reduce_common.cc): MEAN and SUM of int8/int16 first request an
                // int32 accumulator per output element; every reduction then requests the
                // input iterator (an int per input dimension) and the resolved axes (an int
                // per axis element). Requests of 0 bytes still count (they get a handle).
                ops::MEAN | ops::SUM | ops::REDUCE_MAX | ops::REDUCE_MIN | ops::REDUCE_ALL => {
                    let input = op.inputs.first().and_then(|&t| tensor(t));
                    let axis = op.inputs.get(1).and_then(|&t| tensor(t));
                    let output = op.outputs.first().and_then(|&t| tensor(t));
                    let quantized = input
                        .is_some_and(|t| matches!(t.dtype, TensorType::Int8 | TensorType::Int16));
                    if matches!(op.builtin, ops::MEAN | ops::SUM) && quantized {
                        push(4 * output.map_or(0, |t| t.elements()));
                    }
                    push(4 * input.map_or(0, |t| t.shape.len() as u64));
                    push(4 * axis.map_or(0, |t| t.elements()));
                }
                _ => {}
            }
        }
    }
    out
}

/// How many scratch buffers the reference kernels request for `model` (each gets a handle in
/// TFLM's tail, even one of 0 bytes).
pub fn scratch_request_count(model: &Model) -> usize {
    scratch_requests(model).len()
}

/// Builds the `tflm` problem: every subgraph in one arena (DESIGN.md §1.2).
pub fn problem(model: &Model) -> Result<Problem, AnalysisError> {
    let mut base = Vec::with_capacity(model.subgraphs.len());
    let mut total = 0usize;
    for sg in &model.subgraphs {
        base.push(total);
        total += sg.tensors.len();
    }
    let scratch = scratch_requests(model);
    let mut w = Walker {
        model,
        base: base.clone(),
        life: vec![
            Life {
                first: UNSET,
                last: UNSET
            };
            total
        ],
        scratch_life: vec![
            Life {
                first: UNSET,
                last: UNSET
            };
            scratch.len()
        ],
        scratch,
        scope: 0,
        depth: 0,
    };
    w.walk(0)?;

    let offline = model.offline_offsets.as_ref();
    let mut buffers = Vec::new();
    let mut outside = Vec::new();
    for (si, sg) in model.subgraphs.iter().enumerate() {
        let labels = model.tensor_labels(si);
        for (t, tensor) in sg.tensors.iter().enumerate() {
            let gi = base[si] + t;
            let Some(bytes) = tensor.bytes else {
                if !tensor.is_constant {
                    outside.push(Outside {
                        tensor: gi,
                        subgraph: si,
                        name: labels[t].clone(),
                        size_bytes: 0,
                        reason: "dynamic",
                    });
                }
                continue;
            };
            let fixed = offline
                .and_then(|o| o.get(gi))
                .copied()
                .filter(|&o| o >= 0)
                .map(|o| o as u64);
            if tensor.is_constant || bytes == 0 {
                continue;
            }
            if tensor.is_variable && fixed.is_none() {
                outside.push(Outside {
                    tensor: gi,
                    subgraph: si,
                    name: labels[t].clone(),
                    size_bytes: bytes,
                    reason: "variable",
                });
                continue;
            }
            let mut life = w.life[gi];
            if life.last < 0 {
                // Never touched by the walk (a tensor no op names): TFLM leaves its lifetime
                // uninitialised; it takes no part in this plan.
                continue;
            }
            // Read but never created (an op input no op produces, e.g. Vela's scratch): TFLM
            // keeps first = -1, alive from before the first op.
            life.first = life.first.max(0);
            let kind = if si == 0 && sg.inputs.contains(&t) {
                BufferKind::Input
            } else if si == 0 && sg.outputs.contains(&t) {
                BufferKind::Output
            } else {
                BufferKind::Activation
            };
            buffers.push(Buffer {
                tensor: gi,
                subgraph: si,
                name: labels[t].clone(),
                kind,
                size_bytes: super::problem::round_up(bytes, TFLM_ALIGNMENT),
                first: life.first as u32,
                last: life.last as u32,
                alignment: match fixed {
                    Some(o) if o % TFLM_ALIGNMENT != 0 => 1,
                    _ => TFLM_ALIGNMENT,
                },
                fixed_offset: fixed,
            });
        }
    }
    for (k, s) in w.scratch.iter().enumerate() {
        let life = w.scratch_life[k];
        if life.first < 0 || s.bytes == 0 {
            continue;
        }
        buffers.push(Buffer {
            tensor: total + k,
            subgraph: s.subgraph,
            name: format!(
                "scratch {} of {} (node {})",
                k,
                model.op_name(&model.subgraphs[s.subgraph].operators[s.node]),
                s.node
            ),
            kind: BufferKind::Scratch,
            size_bytes: super::problem::round_up(s.bytes, TFLM_ALIGNMENT),
            first: life.first as u32,
            last: life.last as u32,
            alignment: TFLM_ALIGNMENT,
            fixed_offset: None,
        });
    }
    Ok(Problem {
        lifetimes: Some(Lifetimes::Tflm),
        subgraph: None,
        buffers,
        aliases: Vec::new(),
        outside,
        steps: (w.scope + 1) as u32,
        litert_candidates: None,
        step_values: Vec::new(),
    })
}
