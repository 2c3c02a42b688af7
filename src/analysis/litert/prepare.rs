//! Prepare, as LiteRT's kernels run it (RUNTIME_RULES.md L1–L4, L6): each tensor's allocation
//! type, what WHILE, DEQUANTIZE (of a constant: persistent), DENSIFY (persistent RW, which is
//! not a constant to what follows), VAR_HANDLE and READ_VARIABLE change, and the kernel
//! temporaries (Init-phase reservations first, then Prepare-phase ones, indexed after the
//! model's tensors), node by node until the first node with a dynamic output. Kernels with
//! temporaries: CONV_2D, DEPTHWISE_CONV_2D (hybrid), FULLY_CONNECTED (hybrid), the reducers
//! (MEAN, SUM, REDUCE_PROD/MAX/MIN/ANY/ALL), BATCH_MATMUL, ADD_N, CONV_3D, TRANSPOSE_CONV
//! (dynamic, or hybrid), SVDF and UNIDIRECTIONAL_SEQUENCE_LSTM here; RNN,
//! UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN (hybrid), LSTM (full kernel: float,
//! hybrid, int8), BIDIRECTIONAL_SEQUENCE_LSTM, RFFT2D and STABLEHLO_REDUCE_WINDOW in
//! `recurrent.rs`.

use crate::model::{ops, Model, Operator, Options, TensorType};

#[path = "recurrent.rs"]
mod recurrent;
use recurrent::{
    BIDIRECTIONAL_SEQUENCE_LSTM, BIDIRECTIONAL_SEQUENCE_RNN, LSTM, RFFT2D, RNN,
    STABLEHLO_REDUCE_WINDOW, UNIDIRECTIONAL_SEQUENCE_RNN,
};

/// Builtin codes not named in `model::ops`.
const REDUCE_PROD: i32 = 81;
const REDUCE_ANY: i32 = 91;
const CONV_3D: i32 = 132;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AllocType {
    /// Constant (memory-mapped), or LiteRT's `PersistentRo`: an output a kernel computed at
    /// Prepare (SHAPE, RANK, RESHAPE and the like of constants, `prepare_outputs`).
    MmapRo,
    Dynamic,
    ArenaRwPersistent,
    ArenaRw,
}

/// A tensor as the interpreter sees it after Prepare (model tensors and kernel temporaries).
#[derive(Clone, Debug)]
pub(super) struct ITensor {
    pub name: String,
    pub bytes: u64,
    pub alloc: AllocType,
    /// A kernel temporary reserved but never given a size (holds no arena bytes).
    pub unused: bool,
}

/// The interpreter-side state after Prepare for one subgraph.
pub(super) struct Prepared {
    pub tensors: Vec<ITensor>,
    pub inputs_of: Vec<Vec<i32>>,
    pub outputs_of: Vec<Vec<i32>>,
    pub temporaries: Vec<Vec<usize>>,
    /// Nodes `0..=last_prepared` are planned (the first chunk).
    pub last_prepared: usize,
}

fn shape_of(model: &Model, sg: usize, t: i32) -> Option<&[i32]> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[sg]
        .tensors
        .get(t)
        .map(|x| x.shape.as_slice())
}

fn dtype_of(model: &Model, sg: usize, t: i32) -> Option<TensorType> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[sg].tensors.get(t).map(|x| x.dtype)
}

fn elements(shape: &[i64]) -> u64 {
    shape
        .iter()
        .map(|&d| d.max(0) as u64)
        .fold(1u64, |a, d| a.saturating_mul(d))
}

/// Runs the Prepare-time rules (L1–L4, L6) over subgraph `si`.
pub(super) fn prepare(model: &Model, si: usize) -> Prepared {
    let sg = &model.subgraphs[si];
    let labels = model.tensor_labels(si);
    let mut tensors: Vec<ITensor> = sg
        .tensors
        .iter()
        .zip(labels)
        .map(|(t, name)| ITensor {
            name,
            bytes: t.bytes.unwrap_or(0),
            alloc: if t.is_constant {
                AllocType::MmapRo
            } else if t.dtype.is_dynamic() || t.bytes.is_none() {
                AllocType::Dynamic
            } else if t.is_variable {
                AllocType::ArenaRwPersistent
            } else {
                AllocType::ArenaRw
            },
            unused: false,
        })
        .collect();
    let n_nodes = sg.operators.len();
    let inputs_of: Vec<Vec<i32>> = sg.operators.iter().map(|o| o.inputs.clone()).collect();
    let mut outputs_of: Vec<Vec<i32>> = sg.operators.iter().map(|o| o.outputs.clone()).collect();
    let mut temporaries = vec![Vec::new(); n_nodes];

    // Init phase: per-node reservations, in node order.
    let mut init_base = vec![0usize; n_nodes];
    for (i, op) in sg.operators.iter().enumerate() {
        let count = match op.builtin {
            ops::UNIDIRECTIONAL_SEQUENCE_LSTM => 12,
            ops::SVDF => 6,
            ops::ADD_N => 1,
            _ => recurrent::init_reservations(op),
        };
        if count > 0 {
            init_base[i] = reserve(&mut tensors, count);
        }
    }

    // Prepare phase, node by node, until the first node with a dynamic output.
    let mut last_prepared = n_nodes.saturating_sub(1);
    for (i, op) in sg.operators.iter().enumerate() {
        let in0 = op.inputs.first().copied().unwrap_or(-1);
        let out0 = op.outputs.first().copied().unwrap_or(-1);
        match op.builtin {
            ops::WHILE => drop_unused_pass_through(model, si, i, &inputs_of, &mut outputs_of[i]),
            ops::CONV_2D => conv_im2col(model, si, op, &mut tensors, &mut temporaries[i]),
            ops::DEPTHWISE_CONV_2D => {
                depthwise_hybrid_temporaries(model, si, op, &mut tensors, &mut temporaries[i])
            }
            ops::MEAN | ops::SUM | REDUCE_PROD => {
                reduce_temporaries(model, si, op, true, &mut tensors, &mut temporaries[i])
            }
            ops::REDUCE_MAX | ops::REDUCE_MIN | REDUCE_ANY | ops::REDUCE_ALL => {
                reduce_temporaries(model, si, op, false, &mut tensors, &mut temporaries[i])
            }
            ops::BATCH_MATMUL => {
                batch_matmul_temporaries(model, si, op, &mut tensors, &mut temporaries[i])
            }
            ops::ADD_N => add_n_temporary(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            CONV_3D => conv3d_im2col(model, si, op, &mut tensors, &mut temporaries[i]),
            ops::TRANSPOSE_CONV => {
                transpose_conv_temporaries(model, si, op, &mut tensors, &mut temporaries[i])
            }
            ops::SVDF => svdf_temporaries(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            ops::UNIDIRECTIONAL_SEQUENCE_LSTM => lstm_temporaries(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            RNN | UNIDIRECTIONAL_SEQUENCE_RNN => recurrent::rnn(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            BIDIRECTIONAL_SEQUENCE_RNN => recurrent::bidirectional_rnn(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            LSTM => recurrent::lstm(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            BIDIRECTIONAL_SEQUENCE_LSTM => recurrent::bidirectional_lstm(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            RFFT2D => recurrent::rfft2d(model, si, op, &mut tensors, &mut temporaries[i]),
            STABLEHLO_REDUCE_WINDOW => recurrent::stablehlo_reduce_window(
                model,
                si,
                op,
                init_base[i],
                &mut tensors,
                &mut temporaries[i],
            ),
            ops::DEQUANTIZE if is_const(&tensors, in0) && out0 >= 0 => {
                tensors[out0 as usize].alloc = AllocType::ArenaRwPersistent;
            }
            // DENSIFY's output is persistent RW (densify.cc), not a constant: a DEQUANTIZE
            // fed by it keeps its own output in the RW arena (sparse models).
            ops::DENSIFY if is_const(&tensors, in0) && out0 >= 0 => {
                tensors[out0 as usize].alloc = AllocType::ArenaRwPersistent;
            }
            ops::VAR_HANDLE if out0 >= 0 => {
                let t = &mut tensors[out0 as usize];
                t.alloc = AllocType::ArenaRwPersistent;
                t.bytes = 4;
            }
            ops::READ_VARIABLE if out0 >= 0 && sg.tensors[out0 as usize].shape.is_empty() => {
                tensors[out0 as usize].alloc = AllocType::Dynamic;
            }
            ops::FULLY_CONNECTED => {
                // Six indices; temporaries only on the hybrid path.
                let base = reserve(&mut tensors, 6);
                fc_hybrid_temporaries(model, si, op, base, &mut tensors, &mut temporaries[i]);
            }
            _ => {}
        }
        // Outputs computed at Prepare (PersistentRo), outputs sized only at Eval (dynamic),
        // and RESHAPE's "output shape not known": each stops Prepare like a dynamic output.
        let shape_not_known = prepare_outputs(model, si, op, &mut tensors);
        // WHILE outputs become dynamic when the body changes shapes (L2).
        let has_dynamic_output = shape_not_known
            || outputs_of[i]
                .iter()
                .any(|&t| t >= 0 && tensors[t as usize].alloc == AllocType::Dynamic);
        if has_dynamic_output {
            last_prepared = i;
            break;
        }
    }
    // Kernel temporaries have no name in the file: name them after their node.
    for (i, temps) in temporaries.iter().enumerate() {
        let op = model.op_name(&sg.operators[i]);
        for (k, &t) in temps.iter().enumerate() {
            tensors[t].name = if sg.operators[i].builtin == ops::CONV_2D {
                format!("im2col of node {i} ({op})")
            } else {
                format!("{op} temporary {k} of node {i}")
            };
        }
    }
    Prepared {
        tensors,
        inputs_of,
        outputs_of,
        temporaries,
        last_prepared,
    }
}

/// What a kernel's Prepare does to its outputs' allocation, as each kernel's source states it
/// (`IsConstantOrPersistentTensor` is [`is_const`]): SHAPE and RANK always, and BROADCAST_ARGS,
/// CONCATENATION, GATHER, MUL, RANGE, RESHAPE, STRIDED_SLICE and TILE of constant inputs,
/// compute their output at Prepare into a `PersistentRo` tensor, out of the arena; the kernels
/// below set their output dynamic (sized at Eval, on the heap) when an operand that fixes the
/// output's shape is not constant. Returns true for RESHAPE with a non-constant shape tensor
/// (`kTfLiteOutputShapeNotKnown`: its output stays in the arena with the input's bytes, and
/// Prepare stops after it, `Subgraph::PrepareOpsStartingAt`).
fn prepare_outputs(model: &Model, si: usize, op: &Operator, tensors: &mut [ITensor]) -> bool {
    let c = |k: usize| op.inputs.get(k).is_some_and(|&t| is_const(tensors, t));
    let all_const = op.inputs.iter().all(|&t| t < 0 || is_const(tensors, t));
    let unspecified = |k: usize| {
        op.inputs
            .get(k)
            .and_then(|&t| usize::try_from(t).ok())
            .and_then(|t| model.subgraphs[si].tensors.get(t))
            .is_some_and(|t| t.has_dynamic_dims())
    };
    let rank0 = |k: usize| {
        op.inputs
            .get(k)
            .and_then(|&t| shape_of(model, si, t))
            .is_some_and(|s| s.is_empty())
    };
    enum Effect {
        None,
        Persistent,
        /// These output positions become dynamic.
        Dynamic(&'static [usize]),
        AllDynamic,
        ShapeNotKnown,
    }
    const FIRST: &[usize] = &[0];
    let name = ops::name(op.builtin).unwrap_or("");
    let effect = match name {
        // shape.cc, rank.cc: "the input shape is always known at the time of Prepare".
        "SHAPE" | "RANK" => Effect::Persistent,
        "BROADCAST_ARGS" | "GATHER" | "MUL" if c(0) && c(1) => Effect::Persistent,
        "CONCATENATION" if all_const => Effect::Persistent,
        "RANGE" if c(0) && c(1) && c(2) => Effect::Persistent,
        "RANGE" => Effect::Dynamic(FIRST),
        "RESHAPE" => {
            let shape_known = op.inputs.len() == 1 || c(1);
            match (shape_known, c(0)) {
                (true, true) => Effect::Persistent,
                (true, false) => Effect::None,
                (false, _) => Effect::ShapeNotKnown,
            }
        }
        "STRIDED_SLICE" => {
            let offset = matches!(op.options, Options::StridedSlice { offset: true, .. });
            if !(c(3) && (offset || (c(1) && c(2)))) {
                Effect::Dynamic(FIRST)
            } else if c(0) && c(1) && c(2) {
                Effect::Persistent
            } else {
                Effect::None
            }
        }
        "TILE" if c(1) && c(0) => Effect::Persistent,
        "TILE" if !c(1) => Effect::Dynamic(FIRST),
        "ARG_MAX"
        | "ARG_MIN"
        | "BROADCAST_TO"
        | "DILATE"
        | "EXPAND_DIMS"
        | "MIRROR_PAD"
        | "ONE_HOT"
        | "RESIZE_BILINEAR"
        | "RESIZE_NEAREST_NEIGHBOR"
        | "RFFT2D"
        | "SPARSE_TO_DENSE"
        | "TRANSPOSE"
        | "MEAN"
        | "SUM"
        | "REDUCE_PROD"
        | "REDUCE_MAX"
        | "REDUCE_MIN"
        | "REDUCE_ANY"
        | "REDUCE_ALL"
            if !c(1) =>
        {
            Effect::Dynamic(FIRST)
        }
        "BATCH_TO_SPACE_ND" | "SPACE_TO_BATCH_ND" | "MULTINOMIAL" if !(c(1) && c(2)) => {
            Effect::Dynamic(FIRST)
        }
        "PAD" | "PADV2" if rank0(0) || !c(1) => Effect::Dynamic(FIRST),
        "FILL" | "RANDOM_STANDARD_NORMAL" | "RANDOM_UNIFORM" | "WHERE" if !c(0) => {
            Effect::Dynamic(FIRST)
        }
        "SCATTER_ND" if !c(2) => Effect::Dynamic(FIRST),
        "SEGMENT_SUM" if !(c(0) && c(1)) => Effect::Dynamic(FIRST),
        "UNSORTED_SEGMENT_MAX"
        | "UNSORTED_SEGMENT_MIN"
        | "UNSORTED_SEGMENT_PROD"
        | "UNSORTED_SEGMENT_SUM"
            if !(c(1) && c(2)) =>
        {
            Effect::Dynamic(FIRST)
        }
        "SLICE" if !(c(1) && c(2)) || unspecified(0) => Effect::Dynamic(FIRST),
        "TOPK_V2" if !c(1) || unspecified(0) => Effect::AllDynamic,
        "NON_MAX_SUPPRESSION_V4" if !c(2) => Effect::Dynamic(FIRST),
        "NON_MAX_SUPPRESSION_V5" if !c(2) => Effect::Dynamic(&[0, 1]),
        "SPLIT" if !c(0) => Effect::AllDynamic,
        "SPLIT_V" if !(c(1) && c(2)) => Effect::AllDynamic,
        // unique.cc: the unique values' count is only known at Eval.
        "UNIQUE" => Effect::Dynamic(FIRST),
        "EMBEDDING_LOOKUP_SPARSE" => Effect::Dynamic(FIRST),
        _ => Effect::None,
    };
    let outputs: Vec<usize> = op
        .outputs
        .iter()
        .filter_map(|&t| usize::try_from(t).ok())
        .filter(|&t| t < tensors.len())
        .collect();
    match effect {
        Effect::None => false,
        Effect::ShapeNotKnown => {
            // reshape.cc: "the output bytes size is the same as the input", for sharing.
            let input_bytes = op
                .inputs
                .first()
                .and_then(|&t| usize::try_from(t).ok())
                .and_then(|t| tensors.get(t))
                .map(|t| t.bytes);
            if let (Some(bytes), Some(&t)) = (input_bytes, outputs.first()) {
                if tensors[t].alloc == AllocType::ArenaRw {
                    tensors[t].bytes = bytes;
                }
            }
            true
        }
        Effect::Persistent => {
            for t in outputs {
                tensors[t].alloc = AllocType::MmapRo;
            }
            false
        }
        Effect::Dynamic(which) => {
            for (k, &t) in outputs.iter().enumerate() {
                if which.contains(&k) {
                    tensors[t].alloc = AllocType::Dynamic;
                }
            }
            false
        }
        Effect::AllDynamic => {
            for t in outputs {
                tensors[t].alloc = AllocType::Dynamic;
            }
            false
        }
    }
}

/// An index for `count` temporaries that get no size (yet): dynamic, holding no bytes.
fn reserve(tensors: &mut Vec<ITensor>, count: usize) -> usize {
    let base = tensors.len();
    for _ in 0..count {
        tensors.push(ITensor {
            name: String::new(),
            bytes: 0,
            alloc: AllocType::Dynamic,
            unused: true,
        });
    }
    base
}

/// Gives temporary `idx` a shape and type: an RW-arena tensor of that many bytes.
fn set_temp(tensors: &mut [ITensor], idx: usize, shape: &[i64], dtype: TensorType) {
    let bytes = dtype
        .bytes_for(elements(shape))
        .and_then(Result::ok)
        .unwrap_or(0);
    tensors[idx] = ITensor {
        name: String::new(),
        bytes,
        alloc: AllocType::ArenaRw,
        unused: false,
    };
}

/// A constant to the kernels' checks: `MmapRo` (or `PersistentRo`); `ArenaRwPersistent`,
/// what DENSIFY makes, does not count.
fn is_const(tensors: &[ITensor], t: i32) -> bool {
    t >= 0 && tensors[t as usize].alloc == AllocType::MmapRo
}

/// WHILE (L2): an output whose body passes its input straight through and that nothing
/// consumes is dropped from the node's outputs.
fn drop_unused_pass_through(
    model: &Model,
    si: usize,
    i: usize,
    inputs_of: &[Vec<i32>],
    outputs: &mut [i32],
) {
    let sg = &model.subgraphs[si];
    let op = &sg.operators[i];
    if let Options::While { body_subgraph, .. } = op.options {
        let body = &model.subgraphs[body_subgraph as usize];
        for (k, out) in outputs.iter_mut().enumerate() {
            if *out < 0 {
                continue;
            }
            let t = *out as usize;
            let pass_through =
                body.inputs.get(k).is_some() && body.inputs.get(k) == body.outputs.get(k);
            let consumed =
                inputs_of.iter().flatten().any(|&x| x == *out) || sg.outputs.contains(&t);
            if pass_through && !consumed && !sg.tensors[t].dtype.is_dynamic() {
                *out = -1;
            }
        }
    }
}

/// CONV_2D (L6): an im2col temporary unless the filter is 1×1 with unit strides and dilation.
/// On the hybrid path (float input, int8 weights: dynamic-range quantisation) the im2col holds
/// the quantised input (the filter's type) and five more temporaries follow, in this order:
/// the quantised input (input shape), a float scaling factor and an int32 offset per input
/// pixel row (`elements / in_ch`), an int32 accumulator `[out_ch, out_h·out_w]`, and the
/// int32 row sums `[out_ch]`, persistent. Measured on a 3×3 dynamic-range convolution made
/// here (16×16×8 → 14×14×32): LiteRT's arena 76608 and every offset equal; before, the
/// rule skipped them all and planned 39748. Per-channel weights only (what the converter
/// writes); a per-tensor hybrid filter is taken the same way, unmeasured.
fn conv_im2col(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let (in0, out0) = (first(&op.inputs), first(&op.outputs));
    if let (
        Some(inp),
        Some(filter),
        Some(out),
        Options::Conv2D {
            stride_w,
            stride_h,
            dilation_w,
            dilation_h,
            ..
        },
    ) = (
        shape_of(model, si, in0),
        shape_of(model, si, op.inputs.get(1).copied().unwrap_or(-1)),
        shape_of(model, si, out0),
        &op.options,
    ) {
        let hybrid = dtype_of(model, si, in0) == Some(TensorType::Float32)
            && matches!(
                dtype_of(model, si, op.inputs[1]),
                Some(TensorType::Int8 | TensorType::Uint8)
            );
        let need_im2col = *stride_w != 1
            || *stride_h != 1
            || *dilation_w != 1
            || *dilation_h != 1
            || filter.get(1) != Some(&1)
            || filter.get(2) != Some(&1);
        let (input_type, filter_type) = (
            dtype_of(model, si, in0).unwrap_or(TensorType::Float32),
            dtype_of(model, si, op.inputs[1]).unwrap_or(TensorType::Int8),
        );
        let four_d = inp.len() == 4 && filter.len() == 4 && out.len() == 4;
        if need_im2col && four_d {
            let idx = reserve(tensors, 1);
            let shape = [
                out[0] as i64,
                out[1] as i64,
                out[2] as i64,
                inp[3] as i64 * filter[1] as i64 * filter[2] as i64,
            ];
            let dtype = if hybrid { filter_type } else { input_type };
            set_temp(tensors, idx, &shape, dtype);
            temporaries.push(idx);
        }
        if hybrid && four_d {
            let base = reserve(tensors, 5);
            let in_shape: Vec<i64> = inp.iter().map(|&d| d as i64).collect();
            let rows = elements(&in_shape) as i64 / (inp[3] as i64).max(1);
            let pixels = out[1] as i64 * out[2] as i64;
            let temps = Hybrid {
                input: &in_shape,
                filter_type,
                rows,
                units: filter[0] as i64,
                accumulated: pixels,
            };
            temps.set(tensors, base, temporaries);
        }
    }
}

/// DEPTHWISE_CONV_2D on the hybrid path (float input, int8 weights; depthwise_conv.cc): the
/// quantised input (int8, the input's shape), then a float scaling factor and an int32 offset
/// per batch. Measured on a 3×3 dynamic-range depthwise convolution over 12×12×128 made here:
/// LiteRT's arena 143428, every offset equal.
fn depthwise_hybrid_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let in0 = first(&op.inputs);
    let filter = op.inputs.get(1).copied().unwrap_or(-1);
    if let (Some(TensorType::Float32), Some(TensorType::Int8), Some(inp)) = (
        dtype_of(model, si, in0),
        dtype_of(model, si, filter),
        shape_of(model, si, in0),
    ) {
        let shape: Vec<i64> = inp.iter().map(|&d| d as i64).collect();
        let batch = shape.first().copied().unwrap_or(1);
        let base = reserve(tensors, 3);
        set_temp(tensors, base, &shape, TensorType::Int8);
        set_temp(tensors, base + 1, &[batch], TensorType::Float32);
        set_temp(tensors, base + 2, &[batch], TensorType::Int32);
        temporaries.extend(base..base + 3);
    }
}

/// The reducers (reduce.cc, L6): four temporaries — resolved axes, the axis count, the
/// accumulator and normalized dims (dynamic). MEAN, SUM and REDUCE_PROD size the accumulator
/// (float, int64 or int32 by input type, output elements; `accumulator`); REDUCE_MAX, MIN, ANY
/// and ALL (`PrepareSimple` only) leave it without a size, so it holds no bytes. Checked on the
/// operator sweep: reduce_max/min_* and reduce_any_bool hold int32[3] and int32[1] only
/// (LiteRT's arena 644/388/260 B for f32/int16/int8), reduce_prod_* also the accumulator
/// (f32[8] or int32[8]: 708/452/324 B).
fn reduce_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    accumulator: bool,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let (in0, out0) = (first(&op.inputs), first(&op.outputs));
    let base = reserve(tensors, 4);
    let in_shape = shape_of(model, si, in0).unwrap_or(&[]);
    set_temp(tensors, base, &[in_shape.len() as i64], TensorType::Int32);
    temporaries.push(base);
    let axis = op.inputs.get(1).copied().unwrap_or(-1);
    if is_const(tensors, axis) {
        let n_axis = elements(
            &shape_of(model, si, axis)
                .unwrap_or(&[])
                .iter()
                .map(|&d| d as i64)
                .collect::<Vec<_>>(),
        );
        set_temp(tensors, base + 1, &[n_axis as i64], TensorType::Int32);
    } else {
        tensors[base + 1].unused = false;
    }
    temporaries.push(base + 1);
    let accum = match dtype_of(model, si, in0) {
        Some(TensorType::Float32) => TensorType::Float32,
        Some(TensorType::Int32 | TensorType::Int64) => TensorType::Int64,
        Some(TensorType::Bool) => TensorType::Bool,
        _ => TensorType::Int32,
    };
    let out_elems = shape_of(model, si, out0)
        .map(|s| s.iter().map(|&d| d as i64).collect::<Vec<_>>())
        .unwrap_or_default();
    if accumulator {
        set_temp(tensors, base + 2, &[elements(&out_elems) as i64], accum);
    }
    temporaries.push(base + 2);
    // normalized dims: dynamic for a non-constant input, never planned.
    temporaries.push(base + 3);
}

fn shape_i64(model: &Model, si: usize, t: i32) -> Option<Vec<i64>> {
    shape_of(model, si, t).map(|s| s.iter().map(|&d| d as i64).collect())
}

/// `shape` with its last two dimensions swapped (rank ≥ 2).
fn swap_last_two(mut shape: Vec<i64>) -> Vec<i64> {
    let n = shape.len();
    if n >= 2 {
        shape.swap(n - 2, n - 1);
    }
    shape
}

/// BATCH_MATMUL (batch_matmul.cc): Prepare reserves seven indices. The first two are always
/// temporaries: the transposed LHS (the LHS's type and shape with its last two dimensions
/// swapped, RW arena) and the transposed RHS (likewise; persistent when the RHS is a
/// constant). On the hybrid path (float LHS, int8 RHS) five more follow: the LHS quantised
/// (int8, its shape), a float scaling factor and an int32 offset per LHS row
/// (`batches · rows`), an int32 accumulator `[units, rows]` and the int32 row sums
/// (`weight matrices · units`, persistent); rows and units are the output's last two
/// dimensions. Checked on batch_matmul{,_adj_y}_{f32,int8,int16}: LiteRT's arena
/// 9216/2304/4608 B, both temporaries at their offsets, 10 interpreter tensors.
fn batch_matmul_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let (lhs, rhs, out0) = (
        first(&op.inputs),
        op.inputs.get(1).copied().unwrap_or(-1),
        first(&op.outputs),
    );
    let base = reserve(tensors, 7);
    let (Some(l), Some(r), Some(lt), Some(rt)) = (
        shape_i64(model, si, lhs),
        shape_i64(model, si, rhs),
        dtype_of(model, si, lhs),
        dtype_of(model, si, rhs),
    ) else {
        return;
    };
    if l.len() < 2 || r.len() < 2 {
        return;
    }
    let rhs_const = is_const(tensors, rhs);
    set_temp(tensors, base, &swap_last_two(l.clone()), lt);
    set_temp(tensors, base + 1, &swap_last_two(r.clone()), rt);
    if rhs_const {
        tensors[base + 1].alloc = AllocType::ArenaRwPersistent;
    }
    temporaries.extend([base, base + 1]);
    if lt == TensorType::Float32 && rt == TensorType::Int8 {
        let out = shape_i64(model, si, out0).unwrap_or_default();
        let dim = |s: &[i64], back: usize| s.len().checked_sub(back).map_or(1, |k| s[k]);
        let (rows, units) = (dim(&out, 2), dim(&out, 1));
        let batches: i64 = l[..l.len() - 2].iter().product();
        let matrices: i64 = r[..r.len() - 2].iter().product();
        set_temp(tensors, base + 2, &l, rt);
        set_temp(tensors, base + 3, &[batches * rows], TensorType::Float32);
        set_temp(tensors, base + 4, &[units, rows], TensorType::Int32);
        set_temp(tensors, base + 5, &[batches * rows], TensorType::Int32);
        set_temp(tensors, base + 6, &[matrices * units], TensorType::Int32);
        tensors[base + 6].alloc = AllocType::ArenaRwPersistent;
        temporaries.extend(base + 2..base + 7);
    }
}

/// ADD_N (add_n.cc): Init reserves one index; Prepare makes it an RW-arena accumulator of
/// the first input's type and `threads · elements` (one thread, as the oracle runs it).
/// Checked on add_n_f32: f32[128] at 2048, LiteRT's arena 2560 B.
fn add_n_temporary(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let in0 = first(&op.inputs);
    if let (Some(shape), Some(dtype)) = (shape_i64(model, si, in0), dtype_of(model, si, in0)) {
        set_temp(tensors, base, &[elements(&shape) as i64], dtype);
        temporaries.push(base);
    }
}

/// CONV_3D (conv3d.cc, optimized kernel): one im2col temporary, added only when the filter
/// is not 1×1×1 or a stride or dilation is not 1: the input's type, shape
/// `[N, out_d, out_h, out_w, fd·fh·fw·in_ch]`. The options are not read here: a 1×1×1
/// filter counts as strided when the output's spatial shape differs from the input's (a
/// dilation has no effect on a 1×1×1 filter's shapes and is missed). Checked on conv_3d_f32:
/// f32 `[1,4,6,6,108]` at 4608, LiteRT's arena 66816 B.
fn conv3d_im2col(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let (in0, out0) = (first(&op.inputs), first(&op.outputs));
    let filter = op.inputs.get(1).copied().unwrap_or(-1);
    let (Some(inp), Some(f), Some(out), Some(dtype)) = (
        shape_i64(model, si, in0),
        shape_i64(model, si, filter),
        shape_i64(model, si, out0),
        dtype_of(model, si, in0),
    ) else {
        return;
    };
    if inp.len() != 5 || f.len() != 5 || out.len() != 5 {
        return;
    }
    let need = f[..3] != [1, 1, 1] || inp[1..4] != out[1..4];
    if need {
        let idx = reserve(tensors, 1);
        let depth: i64 = f[..4].iter().product();
        set_temp(
            tensors,
            idx,
            &[out[0], out[1], out[2], out[3], depth],
            dtype,
        );
        temporaries.push(idx);
    }
}

/// TRANSPOSE_CONV (transpose_conv.cc, optimized kernel): Prepare reserves, in this order, the
/// col2im and transposed-weights temporaries (both dynamic: heap, never in the arena), for
/// int8/uint8/int16 inputs a scratch accumulator (dynamic too) and, on the hybrid path (float
/// input, int8 weights), the input quantised (int8, input shape), a float scaling factor and
/// an int32 offset per input row (`elements / in_ch`), all three in the RW arena. The dynamic
/// ones only take their place in the node's hash set. Checked on transpose_conv_{f32,int8,
/// int16}: 7, 8 and 8 interpreter tensors, arenas 1536 (see below), 384 and 768 B. In
/// transpose_conv_f32's oracle the transposed weights (dynamic, a heap block just below the
/// arena buffer) are taken for the arena base; the arena itself, as its preserve-all run
/// measures it too, is 1536 B with the input at 0 and the output at 512, as here.
fn transpose_conv_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let weights = op.inputs.get(1).copied().unwrap_or(-1);
    let input = op.inputs.get(2).copied().unwrap_or(-1);
    let (it, wt) = (dtype_of(model, si, input), dtype_of(model, si, weights));
    let quantized = matches!(
        it,
        Some(TensorType::Int8 | TensorType::Uint8 | TensorType::Int16)
    );
    let hybrid = it == Some(TensorType::Float32) && wt == Some(TensorType::Int8);
    let count = 2 + usize::from(quantized) + 3 * usize::from(hybrid);
    let base = reserve(tensors, count);
    for t in &mut tensors[base..base + count] {
        t.unused = false;
    }
    temporaries.extend(base..base + count);
    if hybrid {
        if let (Some(inp), Some(w)) = (shape_i64(model, si, input), shape_i64(model, si, weights)) {
            let channels_in = w.get(3).copied().unwrap_or(1).max(1);
            let height = elements(&inp) as i64 / channels_in;
            let q = base + 2;
            set_temp(tensors, q, &inp, TensorType::Int8);
            set_temp(tensors, q + 1, &[height], TensorType::Float32);
            set_temp(tensors, q + 2, &[height], TensorType::Int32);
        }
    }
}

/// SVDF, full int8 (L6): two int32 scratch tensors in the Init-phase reservation.
fn svdf_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let in0 = first(&op.inputs);
    let weights_feature = op.inputs.get(1).copied().unwrap_or(-1);
    let full_int8 = dtype_of(model, si, in0) == Some(TensorType::Int8)
        && dtype_of(model, si, weights_feature) == Some(TensorType::Int8);
    if let (true, Some(wf), Some(inp), Options::Svdf { rank }) = (
        full_int8,
        shape_of(model, si, weights_feature),
        shape_of(model, si, in0),
        &op.options,
    ) {
        let num_filters = *wf.first().unwrap_or(&0) as i64;
        let num_units = if *rank > 0 {
            num_filters / *rank as i64
        } else {
            0
        };
        let batch = *inp.first().unwrap_or(&1) as i64;
        set_temp(tensors, base, &[batch, num_filters], TensorType::Int32);
        set_temp(tensors, base + 1, &[num_units, batch], TensorType::Int32);
        temporaries.extend([base, base + 1]);
    }
}

/// FULLY_CONNECTED on the hybrid path (float input, int8 or uint8 weights: dynamic-range
/// quantisation; fully_connected.cc): the input quantised (the filter's type, the input's
/// shape), one float scaling factor and one int32 offset per batch row, an int32
/// `[units, batch]` accumulator, and the int32 row sums `[units]`, persistent. Measured on
/// dense_dynamic_range (sample model): every offset equal.
fn fc_hybrid_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let in0 = first(&op.inputs);
    let filter = op.inputs.get(1).copied().unwrap_or(-1);
    if let (
        Some(TensorType::Float32),
        Some(filter_type @ (TensorType::Int8 | TensorType::Uint8)),
        Some(inp),
        Some([units, k]),
    ) = (
        dtype_of(model, si, in0),
        dtype_of(model, si, filter),
        shape_of(model, si, in0),
        shape_of(model, si, filter),
    ) {
        let k = *k as i64;
        let shape: Vec<i64> = inp.iter().map(|&d| d as i64).collect();
        let batch = if k > 0 {
            elements(&shape) as i64 / k
        } else {
            0
        };
        let temps = Hybrid {
            input: &shape,
            filter_type,
            rows: batch,
            units: *units as i64,
            accumulated: batch,
        };
        temps.set(tensors, base, temporaries);
    }
}

/// The five temporaries of LiteRT's hybrid (dynamic-range) convolution and fully connected
/// kernels, in their order: the input quantised to the filter's type, a float scaling factor
/// per row, an int32 accumulator `[units, accumulated]`, an int32 input offset per row, and
/// the int32 row sums per unit, persistent.
struct Hybrid<'a> {
    input: &'a [i64],
    filter_type: TensorType,
    rows: i64,
    units: i64,
    accumulated: i64,
}

impl Hybrid<'_> {
    fn set(&self, tensors: &mut [ITensor], base: usize, temporaries: &mut Vec<usize>) {
        set_temp(tensors, base, self.input, self.filter_type);
        set_temp(tensors, base + 1, &[self.rows], TensorType::Float32);
        set_temp(
            tensors,
            base + 2,
            &[self.units, self.accumulated],
            TensorType::Int32,
        );
        set_temp(tensors, base + 3, &[self.rows], TensorType::Int32);
        set_temp(tensors, base + 4, &[self.units], TensorType::Int32);
        tensors[base + 4].alloc = AllocType::ArenaRwPersistent;
        temporaries.extend(base..base + 5);
    }
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM (L6): float `[n_batch, n_cell·(4|5) + 16]` scratch, or the
/// full-integer path's four int16, one int8 and one int32 `[n_batch, n_cell]`.
fn lstm_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let in0 = first(&op.inputs);
    // Cell state (input 19) is [n_batch, n_cell].
    let cell = shape_of(model, si, op.inputs.get(19).copied().unwrap_or(-1));
    let cifg = op.inputs.get(1).is_none_or(|&t| t < 0);
    if let Some([n_batch, n_cell]) = cell
        .filter(|c| !c.is_empty())
        .map(|c| [c[0] as i64, c[c.len() - 1] as i64])
    {
        match dtype_of(model, si, in0) {
            Some(TensorType::Float32) => {
                let cols = n_cell * if cifg { 4 } else { 5 } + 16;
                set_temp(tensors, base, &[n_batch, cols], TensorType::Float32);
                temporaries.push(base);
            }
            Some(TensorType::Int8) => {
                for k in 0..4 {
                    set_temp(tensors, base + k, &[n_batch, n_cell], TensorType::Int16);
                }
                set_temp(tensors, base + 4, &[n_batch, n_cell], TensorType::Int8);
                set_temp(tensors, base + 5, &[n_batch, n_cell], TensorType::Int32);
                temporaries.extend(base..base + 6);
            }
            _ => {}
        }
    }
}

fn first(v: &[i32]) -> i32 {
    v.first().copied().unwrap_or(-1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Prepare of subgraph 0 of `sample_models/ops/<name>.tflite`.
    fn prepared(name: &str) -> Prepared {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("sample_models/ops")
            .join(format!("{name}.tflite"));
        let model = Model::from_path(&path).expect("sample model loads");
        prepare(&model, 0)
    }

    /// (bytes, in the RW arena) of node 0's temporaries.
    fn temps(p: &Prepared) -> Vec<(u64, bool)> {
        p.temporaries[0]
            .iter()
            .map(|&t| (p.tensors[t].bytes, p.tensors[t].alloc == AllocType::ArenaRw))
            .collect()
    }

    #[test]
    fn batch_matmul_transposes_both_operands_into_the_rw_arena() {
        // Oracle: 10 interpreter tensors; tensors 3 (a transposed, [1,4,16,8]) and 4 (b
        // transposed, [1,4,8,16]) are 2048-byte arena temporaries, 5..9 hold no data.
        for name in ["batch_matmul_f32", "batch_matmul_adj_y_f32"] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), 10, "{name}");
            assert_eq!(p.temporaries[0], vec![3, 4], "{name}");
            assert_eq!(temps(&p), vec![(2048, true), (2048, true)], "{name}");
            assert!(p.tensors[5..].iter().all(|t| t.unused), "{name}");
        }
        // int8: 512 bytes each (oracle tensors 3 and 4).
        assert_eq!(
            temps(&prepared("batch_matmul_int8")),
            vec![(512, true), (512, true)]
        );
    }

    #[test]
    fn reduce_max_min_any_size_no_accumulator_but_prod_does() {
        // Oracle: 7 interpreter tensors; int32[3] (12 B) and int32[1] (4 B) in the arena,
        // tensor 5 (accumulator) and 6 (normalized dims) without data.
        for name in ["reduce_max_int8", "reduce_min_f32", "reduce_any_bool"] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), 7, "{name}");
            let t = temps(&p);
            assert_eq!(t.len(), 4, "{name}");
            assert_eq!(&t[..2], &[(12, true), (4, true)], "{name}");
            assert_eq!(t[2].0, 0, "{name}");
            assert!(!t[3].1, "{name}");
        }
        // REDUCE_PROD: the accumulator is tensor 5, int32[8] (32 B) for int8/int16 and
        // float32[8] for f32.
        for name in ["reduce_prod_int8", "reduce_prod_int16", "reduce_prod_f32"] {
            assert_eq!(temps(&prepared(name))[2], (32, true), "{name}");
        }
    }

    #[test]
    fn add_n_reserves_its_accumulator_at_init() {
        // Oracle add_n_f32: 5 interpreter tensors; tensor 4 is float32[128], 512 B, in the
        // arena (at 2048).
        let p = prepared("add_n_f32");
        assert_eq!(p.tensors.len(), 5);
        assert_eq!(p.temporaries[0], vec![4]);
        assert_eq!(temps(&p), vec![(512, true)]);
    }

    #[test]
    fn conv3d_adds_an_im2col_for_a_3x3x3_filter() {
        // Oracle conv_3d_f32: tensor 3, float32 [1,4,6,6,108] = 62208 B, in the arena.
        let p = prepared("conv_3d_f32");
        assert_eq!(p.tensors.len(), 4);
        assert_eq!(temps(&p), vec![(62208, true)]);
    }

    #[test]
    fn transpose_conv_temporaries_stay_out_of_the_arena() {
        // Oracle: 7 interpreter tensors for f32 (col2im, transposed weights), 8 for int8 and
        // int16 (plus the scratch accumulator); none is planned in the RW arena.
        for (name, count) in [
            ("transpose_conv_f32", 7),
            ("transpose_conv_int8", 8),
            ("transpose_conv_int16", 8),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), count, "{name}");
            assert_eq!(p.temporaries[0].len(), count - 5, "{name}");
            assert!(temps(&p).iter().all(|&(_, rw)| !rw), "{name}");
        }
    }
    /// (bytes, allocation class) of node `node`'s temporaries.
    fn temps_at(p: &Prepared, node: usize) -> Vec<(u64, AllocType)> {
        p.temporaries[node]
            .iter()
            .map(|&t| (p.tensors[t].bytes, p.tensors[t].alloc))
            .collect()
    }

    use AllocType::{ArenaRw as RW, ArenaRwPersistent as PERSIST};

    #[test]
    fn recurrent_builtin_codes_name_their_kernels() {
        for (code, name) in [
            (LSTM, "LSTM"),
            (RNN, "RNN"),
            (UNIDIRECTIONAL_SEQUENCE_RNN, "UNIDIRECTIONAL_SEQUENCE_RNN"),
            (BIDIRECTIONAL_SEQUENCE_RNN, "BIDIRECTIONAL_SEQUENCE_RNN"),
            (BIDIRECTIONAL_SEQUENCE_LSTM, "BIDIRECTIONAL_SEQUENCE_LSTM"),
            (RFFT2D, "RFFT2D"),
            (STABLEHLO_REDUCE_WINDOW, "STABLEHLO_REDUCE_WINDOW"),
        ] {
            assert_eq!(ops::name(code), Some(name));
        }
    }

    #[test]
    fn float_rnns_reserve_indices_that_stay_unused() {
        // Oracle: 12 interpreter tensors for the RNNs (6 model + 6), 20 and 19 for the
        // bidirectional ones (+9); every extra one without data.
        for (name, model_tensors, total) in [
            ("rnn_f32", 6, 12),
            ("unidirectional_sequence_rnn_f32", 6, 12),
            ("bidirectional_sequence_rnn_f32", 11, 20),
            ("bidirectional_sequence_rnn_merged_f32", 10, 19),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), total, "{name}");
            assert!(p.temporaries[0].is_empty(), "{name}");
            assert!(
                p.tensors[model_tensors..].iter().all(|t| t.unused),
                "{name}"
            );
        }
    }

    #[test]
    fn hybrid_rnns_quantise_input_and_state_and_keep_row_sums_persistent() {
        // rnn_hybrid (oracle tensors 6..11): int8 input [2,8], int8 state [2,16], f32 [2],
        // int32 [16,2], int32 [2], row sums int32 [2,16] "other". The sequence RNN's input
        // is [2,4,8].
        for (name, input_q) in [
            ("rnn_hybrid", 16),
            ("unidirectional_sequence_rnn_hybrid", 64),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), 12, "{name}");
            assert_eq!(p.temporaries[0], (6..12).collect::<Vec<_>>(), "{name}");
            assert_eq!(
                temps_at(&p, 0),
                vec![
                    (input_q, RW),
                    (32, RW),
                    (8, RW),
                    (128, RW),
                    (8, RW),
                    (128, PERSIST)
                ],
                "{name}"
            );
        }
    }

    #[test]
    fn hybrid_bidirectional_rnn_adds_the_aux_input_only_with_aux_weights() {
        // Oracle bidirectional_sequence_rnn_hybrid: tensors 11..18, 19 without data; row sums
        // [2,16] per direction. _aux_hybrid: 14..22, row sums [3,16], aux input int8 [2,4,4].
        let p = prepared("bidirectional_sequence_rnn_hybrid");
        assert_eq!(p.tensors.len(), 20);
        assert_eq!(p.temporaries[0], (11..19).collect::<Vec<_>>());
        let common = [(64, RW), (32, RW), (32, RW), (8, RW), (128, RW), (8, RW)];
        let mut want = common.to_vec();
        want.extend([(128, PERSIST), (128, PERSIST)]);
        assert_eq!(temps_at(&p, 0), want);
        assert!(p.tensors[19].unused);

        let p = prepared("bidirectional_sequence_rnn_aux_hybrid");
        assert_eq!(p.tensors.len(), 23);
        assert_eq!(p.temporaries[0], (14..23).collect::<Vec<_>>());
        let mut want = common.to_vec();
        want.extend([(192, PERSIST), (192, PERSIST), (32, RW)]);
        assert_eq!(temps_at(&p, 0), want);
    }

    #[test]
    fn full_lstm_scratch_has_four_or_five_gates_and_no_extra_columns() {
        // Oracle lstm_full_f32: tensor 16 f32 [2,80] (n_cell 16 · 5); lstm_cifg_f32: tensor 13
        // f32 [2,64] (· 4). 21 indices reserved, the other 20 without data.
        for (name, model_tensors, bytes) in [("lstm_full_f32", 16, 640), ("lstm_cifg_f32", 13, 512)]
        {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), model_tensors + 21, "{name}");
            assert_eq!(p.temporaries[0], vec![model_tensors], "{name}");
            assert_eq!(temps_at(&p, 0), vec![(bytes, RW)], "{name}");
            assert!(
                p.tensors[model_tensors + 1..].iter().all(|t| t.unused),
                "{name}"
            );
        }
    }

    #[test]
    fn hybrid_lstm_sizes_twelve_temporaries_and_projection_row_sums() {
        // Oracle lstm_hybrid tensors 16..27: scratch f32 [2,80], int8 input [2,8], int8
        // output state [2,16], int8 cell state [2,16], three f32 [2], f32 [16], int32
        // [16,2], two f32 [2], row sums int32 [8,16] "other". With projection (output 8):
        // output state [2,8] and 8 + ceil(8/16) = 9 row-sum rows.
        for (name, model_tensors, out_state, row_sums) in [
            ("lstm_hybrid", 16, 32, 512),
            ("lstm_proj_hybrid", 17, 16, 576),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), model_tensors + 21, "{name}");
            assert_eq!(
                temps_at(&p, 0),
                vec![
                    (640, RW),
                    (16, RW),
                    (out_state, RW),
                    (32, RW),
                    (8, RW),
                    (8, RW),
                    (8, RW),
                    (64, RW),
                    (128, RW),
                    (8, RW),
                    (8, RW),
                    (row_sums, PERSIST),
                ],
                "{name}"
            );
            // The nine sparse ledgers stay unused.
            assert!(
                p.tensors[model_tensors + 12..].iter().all(|t| t.unused),
                "{name}"
            );
        }
    }

    #[test]
    fn bidirectional_lstm_forward_scratch_has_sixteen_more_columns_than_backward() {
        // Oracle: f32 [2,56] (8 · 5 + 16) and f32 [2,40] (8 · 5), 19 indices reserved.
        for (name, model_tensors) in [
            ("bidirectional_sequence_lstm_f32", 31),
            ("bidirectional_sequence_lstm_merged_f32", 30),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), model_tensors + 19, "{name}");
            assert_eq!(temps_at(&p, 0), vec![(448, RW), (320, RW)], "{name}");
        }
        // Hybrid (oracle tensors 31..48): the two scratches, int8 input [4,2,8], four int8
        // states [2,8], four f32 [2], f32 [8], int32 [8,2], three f32 [2], row sums int32
        // [8,8] twice "other"; index 49 (aux input) without data.
        let p = prepared("bidirectional_sequence_lstm_hybrid");
        assert_eq!(p.tensors.len(), 50);
        let mut want = vec![(448, RW), (320, RW), (64, RW)];
        want.extend([(16, RW); 4]);
        want.extend([(8, RW); 4]);
        want.extend([(32, RW), (64, RW)]);
        want.extend([(8, RW); 3]);
        want.extend([(256, PERSIST), (256, PERSIST)]);
        assert_eq!(temps_at(&p, 0), want);
        assert!(p.tensors[49].unused);
    }

    #[test]
    fn rfft2d_adds_four_working_areas_at_prepare() {
        // fft_length [8,16]: int32 [2 + ⌊√8⌋], int64 [4 + 4], int64 [8], int64 [8,18]
        // (oracle tensors 3..6 of rfft2d_f32, 4..7 of complex_abs_f32).
        let want = vec![(16, RW), (64, RW), (64, RW), (1152, RW)];
        let p = prepared("rfft2d_f32");
        assert_eq!(p.tensors.len(), 7);
        assert_eq!(p.temporaries[0], vec![3, 4, 5, 6]);
        assert_eq!(temps_at(&p, 0), want);
        let p = prepared("complex_abs_f32");
        assert_eq!(p.temporaries[0], vec![4, 5, 6, 7]);
        assert_eq!(temps_at(&p, 0), want);
    }

    #[test]
    fn stablehlo_reduce_window_dilates_then_pads_its_input() {
        // Options in the file: base_dilations [1,2,1,1], padding [0,0,1,1,1,1,0,0]; input
        // [1,8,8,4] → dilated [1,15,8,4] → padded [1,17,10,4] (oracle tensors 3 and 4).
        for (name, elem) in [
            ("stablehlo_reduce_window_f32", 4),
            ("stablehlo_reduce_window_int16", 2),
            ("stablehlo_reduce_window_int8", 1),
        ] {
            let p = prepared(name);
            assert_eq!(p.tensors.len(), 5, "{name}");
            assert_eq!(
                temps_at(&p, 0),
                vec![(480 * elem, RW), (680 * elem, RW)],
                "{name}"
            );
        }
    }

    #[test]
    fn hybrid_batch_matmul_with_constant_weights_keeps_transposed_rhs_and_row_sums_persistent() {
        // Read from batch_matmul.cc (no oracle model has this path): float LHS [2,3,4],
        // constant int8 RHS [4,5], output [2,3,5].
        use crate::model::{OperatorCode, Subgraph, Tensor};
        let tensor = |name: &str, shape: &[i32], dtype: TensorType, constant: bool| Tensor {
            name: name.into(),
            ..crate::analysis::tflm_tail::tests::tensor(shape, dtype, constant)
        };
        let model = Model {
            operator_codes: vec![OperatorCode {
                builtin: ops::BATCH_MATMUL,
                custom: None,
                version: 1,
            }],
            subgraphs: vec![Subgraph {
                tensors: vec![
                    tensor("x", &[2, 3, 4], TensorType::Float32, false),
                    tensor("w", &[4, 5], TensorType::Int8, true),
                    tensor("y", &[2, 3, 5], TensorType::Float32, false),
                ],
                inputs: vec![0],
                outputs: vec![2],
                operators: vec![Operator {
                    opcode_index: 0,
                    builtin: ops::BATCH_MATMUL,
                    inputs: vec![0, 1],
                    outputs: vec![2],
                    intermediates: vec![],
                    options: Options::None,
                    custom_options: vec![],
                }],
                ..Subgraph::default()
            }],
            ..Model::default()
        };
        let p = prepare(&model, 0);
        assert_eq!(p.tensors.len(), 3 + 7);
        let got: Vec<(u64, AllocType)> = p.temporaries[0]
            .iter()
            .map(|&t| (p.tensors[t].bytes, p.tensors[t].alloc))
            .collect();
        use AllocType::{ArenaRw as Rw, ArenaRwPersistent as Persistent};
        assert_eq!(
            got,
            vec![
                (96, Rw),         // LHS transposed, f32 [2,4,3]
                (20, Persistent), // RHS transposed, int8 [5,4], constant RHS
                (24, Rw),         // LHS quantised, int8 [2,3,4]
                (24, Rw),         // scaling factors, f32 [2·3]
                (60, Rw),         // accumulator, int32 [5,3]
                (24, Rw),         // input offsets, int32 [2·3]
                (20, Persistent), // row sums, int32 [1·5]
            ]
        );
    }
}
