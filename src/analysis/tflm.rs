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
use super::tflm_tail::Target;
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

/// Scratch buffers the kernels of `target` request in Prepare (T1, T2), in request order: the
/// reference kernels', or on a CMSIS-NN build the optimised kernel's requests where CMSIS-NN
/// has the node (`tflm_tail::cmsis_scratch`).
fn scratch_requests(model: &Model, target: Target) -> Vec<Scratch> {
    let pointer = target.pointer_bytes();
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
            if let Some(requests) = super::tflm_tail::cmsis_scratch(model, si, i, target) {
                requests.into_iter().for_each(&mut push);
                continue;
            }
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
                // int4 weights are unpacked into a scratch buffer of one byte per element.
                ops::CONV_2D | ops::DEPTHWISE_CONV_2D | ops::FULLY_CONNECTED => {
                    if let Some(f) = op.inputs.get(1).and_then(|&t| tensor(t)) {
                        if f.dtype == TensorType::Int4 {
                            push(f.elements());
                        }
                    }
                }
                // TRANSPOSE_CONV (inputs: output shape, filter, input, bias): an accumulator per
                // output element, int32 for int8 input, int64 for int16; then, for int16 with
                // an int16 bias, the bias widened to int64.
                ops::TRANSPOSE_CONV => {
                    let input = op.inputs.get(2).and_then(|&t| tensor(t));
                    let output = op.outputs.first().and_then(|&t| tensor(t));
                    let bias = op.inputs.get(3).and_then(|&t| tensor(t));
                    let out = output.map_or(0, |t| t.elements());
                    match input.map(|t| t.dtype) {
                        Some(TensorType::Int8) => push(4 * out),
                        Some(TensorType::Int16) => {
                            push(8 * out);
                            if let Some(b) = bias.filter(|b| b.dtype == TensorType::Int16) {
                                push(8 * b.elements());
                            }
                        }
                        _ => {}
                    }
                }
                // ADD_N (float and int8): a pointer per input (8 bytes on the host, 4 on
                // Cortex-M).
                ops::ADD_N => {
                    let output = op.outputs.first().and_then(|&t| tensor(t));
                    if output
                        .is_some_and(|t| matches!(t.dtype, TensorType::Float32 | TensorType::Int8))
                    {
                        push(pointer * op.inputs.len() as u64);
                    }
                }
                // MIRROR_PAD: two int arrays of the input's rank.
                ops::MIRROR_PAD => {
                    let rank = op
                        .inputs
                        .first()
                        .and_then(|&t| tensor(t))
                        .map_or(0, |t| t.shape.len() as u64);
                    push(4 * rank);
                    push(4 * rank);
                }
                // The audio front end's real FFT: fft_length values of its element type.
                ops::CUSTOM if model.op_name(op) == "SignalRfft" => {
                    let n = super::custom_options::int(op, "fft_length")
                        .unwrap_or(0)
                        .max(0);
                    let complex = super::tflm_tail::rfft_complex_bytes(op).unwrap_or(0);
                    push(n as u64 * complex / 2);
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
    scratch_requests(model, Target::Host64).len()
}

/// Builds the `tflm` problem: every subgraph in one arena (DESIGN.md §1.2), with the scratch
/// requests of the x86-64 host build.
pub fn problem(model: &Model) -> Result<Problem, AnalysisError> {
    problem_for(model, Target::Host64)
}

/// How many scratch buffers the kernels of `target` request for `model`.
pub fn scratch_request_count_for(model: &Model, target: Target) -> usize {
    scratch_requests(model, target).len()
}

/// The `tflm` problem with the scratch requests of the kernels of `target`.
pub fn problem_for(model: &Model, target: Target) -> Result<Problem, AnalysisError> {
    let mut base = Vec::with_capacity(model.subgraphs.len());
    let mut total = 0usize;
    for sg in &model.subgraphs {
        base.push(total);
        total += sg.tensors.len();
    }
    let scratch = scratch_requests(model, target);
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
                        reason: super::OutsideReason::Dynamic,
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
                    reason: super::OutsideReason::Variable,
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
    let mut op_scratch = Vec::new();
    for (k, s) in w.scratch.iter().enumerate() {
        let life = w.scratch_life[k];
        if life.first < 0 || s.bytes == 0 {
            continue;
        }
        op_scratch.push((s.subgraph, s.node, buffers.len()));
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
        xnnpack: None,
        step_labels: Vec::new(),
        buffers,
        aliases: Vec::new(),
        outside,
        steps: (w.scope + 1) as u32,
        litert_candidates: None,
        op_scratch,
        step_values: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tflm_tail::tests::{model, tensor, TestOp};
    use TensorType::{Float32, Int16, Int32, Int4, Int8};

    /// The scratch requests of a one-operator model, in bytes, in request order.
    fn requests(tensors: Vec<crate::model::Tensor>, op: TestOp<'_>) -> Vec<u64> {
        let out = op.3.clone();
        let inputs: Vec<usize> =
            op.2.iter()
                .filter(|&&t| t >= 0)
                .map(|&t| t as usize)
                .collect();
        let m = model(
            tensors,
            vec![op],
            inputs,
            out.iter().map(|&t| t as usize).collect(),
        );
        scratch_requests(&m, Target::Host64)
            .iter()
            .map(|s| s.bytes)
            .collect()
    }

    #[test]
    fn mean_of_int8_requests_an_accumulator_then_iterators_and_axes() {
        // [1, 4, 4, 8] -> mean over axes [1, 2] -> [1, 8]: 8 int32 accumulators, 4 ints for
        // the input's rank, 2 for the axes.
        let t = vec![
            tensor(&[1, 4, 4, 8], Int8, false),
            tensor(&[2], Int32, true),
            tensor(&[1, 8], Int8, false),
        ];
        assert_eq!(
            requests(t.clone(), (ops::MEAN, "", vec![0, 1], vec![2], vec![])),
            vec![32, 16, 8]
        );
        // Float: no accumulator.
        let f: Vec<_> = t
            .iter()
            .map(|x| {
                tensor(
                    &x.shape,
                    if x.dtype == Int8 { Float32 } else { Int32 },
                    x.is_constant,
                )
            })
            .collect();
        assert_eq!(
            requests(f, (ops::MEAN, "", vec![0, 1], vec![2], vec![])),
            vec![16, 8]
        );
        // REDUCE_MAX never has one.
        assert_eq!(
            requests(t, (ops::REDUCE_MAX, "", vec![0, 1], vec![2], vec![])),
            vec![16, 8]
        );
    }

    #[test]
    fn transpose_conv_requests_an_accumulator_per_output_element() {
        // Output [1, 4, 4, 2]: 32 elements; int8 -> int32 accumulators, int16 -> int64 plus
        // the 3 int16 biases widened to int64.
        let t = |dtype, bias| {
            vec![
                tensor(&[4], Int32, true),
                tensor(&[2, 3, 3, 1], Int8, true),
                tensor(&[1, 2, 2, 1], dtype, false),
                tensor(&[3], bias, true),
                tensor(&[1, 4, 4, 2], dtype, false),
            ]
        };
        let op = || (ops::TRANSPOSE_CONV, "", vec![0, 1, 2, 3], vec![4], vec![]);
        assert_eq!(requests(t(Int8, Int32), op()), vec![128]);
        assert_eq!(requests(t(Int16, Int16), op()), vec![256, 24]);
        assert_eq!(requests(t(Int16, Int32), op()), vec![256]);
    }

    #[test]
    fn add_n_mirror_pad_and_int4_weights_request_their_buffers() {
        let three = vec![
            tensor(&[8], Float32, false),
            tensor(&[8], Float32, false),
            tensor(&[8], Float32, false),
            tensor(&[8], Float32, false),
        ];
        // Three inputs: three 8-byte pointers.
        assert_eq!(
            requests(three, (ops::ADD_N, "", vec![0, 1, 2], vec![3], vec![])),
            vec![24]
        );
        let pad = vec![
            tensor(&[1, 4, 4, 2], Float32, false),
            tensor(&[4, 2], Int32, true),
            tensor(&[1, 6, 6, 2], Float32, false),
        ];
        // Rank 4: two arrays of 4 ints.
        assert_eq!(
            requests(pad, (ops::MIRROR_PAD, "", vec![0, 1], vec![2], vec![])),
            vec![16, 16]
        );
        let conv = vec![
            tensor(&[1, 8, 8, 4], Int8, false),
            tensor(&[8, 3, 3, 4], Int4, true),
            tensor(&[1, 6, 6, 8], Int8, false),
        ];
        // 8 x 3 x 3 x 4 int4 weights unpacked to a byte each.
        assert_eq!(
            requests(conv, (ops::CONV_2D, "", vec![0, 1, -1], vec![2], vec![])),
            vec![288]
        );
    }

    #[test]
    fn the_audio_front_ends_fft_requests_its_length_in_values() {
        let mut b = flexbuffers::Builder::default();
        let mut m = b.start_map();
        m.push("T", 7i8);
        m.push("fft_length", 512i16);
        m.end_map();
        let t = vec![tensor(&[480], Int16, false), tensor(&[514], Int16, false)];
        // 512 int16 values.
        assert_eq!(
            requests(
                t,
                (
                    ops::CUSTOM,
                    "SignalRfft",
                    vec![0],
                    vec![1],
                    b.view().to_vec()
                )
            ),
            vec![1024]
        );
    }
}
