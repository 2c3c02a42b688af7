//! LiteRT's default XNNPACK delegate, from the file alone (RUNTIME_RULES_XNNPACK, LiteRT 2.3.0
//! with google/XNNPACK@8388bd7869): which nodes it takes, the partitions it makes, the XNNPACK
//! values and runtime ops each partition becomes, and the workspace problem XNNPACK plans.
//!
//! **Partitions.** A node is taken when its operator and types are in the delegate's support
//! rules as modelled here (`support`); TFLite's partitioner then groups the taken and the
//! other nodes epoch by epoch (`node_subsets`), so a partition need not be a contiguous run,
//! and the delegated graph runs the subsets in epoch order. A node this module has no rule
//! for is *not modelled*: it is reported by name, never guessed, and stays out of the
//! partitions, so the numbers are then approximate: its tensors land in the TFLite arena
//! instead of the workspace (measured on a pointwise dynamic-range convolution made here:
//! TFLite arena 45136 and workspace 0 against the real 20128 and 9920).
//!
//! **Values.** The partition's tensors are collected (RESHAPE, MEAN, PAD, RESIZE_BILINEAR and
//! STRIDED_SLICE only their first input; a skipped fp16 DEQUANTIZE's readers take its fp16
//! source instead; nodes run once at prepare, fp16 DEQUANTIZE and DENSIFY of constants, add
//! nothing), sorted and made unique. Partition inputs without data and partition outputs are
//! external, numbered 0, 1, … in tensor order; every other tensor of the set gets an id from
//! the set's size upwards, in tensor order, whether or not it is defined later. Values the
//! rewrites create take the next ids as they are made.
//!
//! **Runtime ops**, in the partition's node order: FULLY_CONNECTED without `keep_num_dims`
//! becomes a `static_reshape` onto a new value and the `fully_connected` on it (an int8 one
//! also re-defines its filter: one id more); ADD, SUB and MUL with a fused activation write a
//! new value that a clamp (`unary_elementwise`) reads into the node's output; a RELU whose
//! input a conv, FC or pool writes for it alone is merged into that op (no op of its own: the
//! runtime is compacted); an int8 swish `x * logistic(x)` becomes one lookup-table
//! `unary_elementwise` of x, its LOGISTIC an `invalid` op that keeps its index; nodes run at
//! prepare have no op; the rest one op each.
//!
//! **Records.** Every workspace value (not external, not constant) is a record of its size
//! rounded up to 16 (`XNN_EXTRA_BYTES`) and then to the platform's allocation alignment (64 on
//! x86-64, 16 on ARM), alive from the first to the last runtime op naming it (op 0 counted
//! last, so a value op 0 touches starts at 0). In place: a `unary_elementwise`,
//! `binary_elementwise`, `softmax` or `static_reshape` whose first workspace input with one
//! consumer has output 0's exact byte size, where output 0 is a workspace value with one
//! consumer, writes into the input's bytes: the output's record has size 0 and rides on the
//! input's root, whose last op becomes the output's first consumer. Quantised MEAN adds an op
//! workspace of `outputs × 4 + 16` bytes over its own op.

mod estimate;

pub use estimate::{other_estimate, Isa, OtherEstimate};

use super::{Alias, Buffer, BufferKind, Problem};
use crate::model::{ops, Model, Operator, OperatorCode, Options, TensorType};

/// Builtin codes used only here (schema.fbs).
const RELU_N1_TO_1: i32 = 20;
const RESIZE_BILINEAR: i32 = 23;
const PRELU: i32 = 54;
const STRIDED_SLICE: i32 = ops::STRIDED_SLICE;
const RELU6: i32 = 21;
const GREATER: i32 = 61;
const GREATER_EQUAL: i32 = 62;
const LESS_EQUAL: i32 = 63;
const EQUAL: i32 = 71;
const NOT_EQUAL: i32 = 72;

/// Bytes XNNPACK may read past a value's end (`XNN_EXTRA_BYTES`).
const EXTRA_BYTES: u64 = 16;

/// The platform class whose constants the plan uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Platform {
    #[default]
    /// x86-64 (what the oracle measures): allocations aligned to 64.
    X86_64,
    /// ARM: allocations aligned to 16 (computed by the same rules, not measured).
    Arm,
}

impl Platform {
    /// The name the JSON and the summary give it; ARM is computed, not measured.
    pub fn name(self) -> &'static str {
        match self {
            Platform::X86_64 => "x86-64",
            Platform::Arm => "arm (computed, not measured)",
        }
    }

    pub fn alignment(self) -> u64 {
        match self {
            Platform::X86_64 => 64,
            Platform::Arm => 16,
        }
    }

    /// `xnn_get_rounded_size`.
    pub fn rounded(self, bytes: u64) -> u64 {
        super::round_up(super::round_up(bytes, EXTRA_BYTES), self.alignment())
    }
}

/// A run of nodes the delegate replaces by one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    pub subgraph: usize,
    pub nodes: Vec<usize>,
    /// Tensors read from outside the partition (constants included), and written for outside.
    pub inputs: Vec<usize>,
    pub outputs: Vec<usize>,
}

/// What the delegate does to a model.
#[derive(Clone, Debug, Default)]
pub struct Delegation {
    pub partitions: Vec<Partition>,
    /// Per subgraph, the node subsets in the order TFLite runs them after delegation:
    /// (taken by the delegate, nodes in the order they joined).
    pub subsets: Vec<Vec<(bool, Vec<usize>)>>,
    /// (subgraph, node) the delegate leaves to TFLite.
    pub not_delegated: Vec<(usize, usize)>,
    /// Nodes no rule here covers: "node K (OP)"; the numbers are then approximate.
    pub not_modelled: Vec<String>,
}

enum Support {
    Taken,
    Left,
    Unknown,
}

/// Tensor `t` of subgraph `si` (none for -1 or an index out of range).
fn tensor_of(model: &Model, si: usize, t: i32) -> Option<&crate::model::Tensor> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[si].tensors.get(t)
}

fn dtype(model: &Model, si: usize, t: i32) -> Option<TensorType> {
    tensor_of(model, si, t).map(|x| x.dtype)
}

fn constant(model: &Model, si: usize, t: i32) -> bool {
    tensor_of(model, si, t).is_some_and(|x| x.is_constant)
}

/// The DEQUANTIZE node writing `t` from a constant fp16 tensor, if one does.
fn fp16_dequantize_of(model: &Model, si: usize, t: i32) -> Option<usize> {
    let sg = &model.subgraphs[si];
    sg.operators.iter().position(|op| {
        op.builtin == ops::DEQUANTIZE
            && op.outputs.first() == Some(&t)
            && op.inputs.first().is_some_and(|&i| {
                unpacked_constant(model, si, i) && dtype(model, si, i) == Some(TensorType::Float16)
            })
    })
}

/// The DENSIFY node writing `t` from a constant (sparse) tensor, if one does: the delegate
/// densifies it once, so `t` is static data.
fn densified(model: &Model, si: usize, t: i32) -> Option<usize> {
    model.subgraphs[si].operators.iter().position(|op| {
        op.builtin == ops::DENSIFY
            && op.outputs.first() == Some(&t)
            && op.inputs.first().is_some_and(|&i| constant(model, si, i))
    })
}

/// A constant, or the densified copy of one.
fn unpacked_constant(model: &Model, si: usize, t: i32) -> bool {
    constant(model, si, t) || densified(model, si, t).is_some()
}

/// A weight or bias the delegate treats as static: a constant, or the output of a DEQUANTIZE
/// of a constant fp16 tensor (whose fp16 data the GEMM takes directly).
fn static_like(model: &Model, si: usize, t: i32) -> bool {
    constant(model, si, t) || fp16_dequantize_of(model, si, t).is_some()
}

/// Whether node `n` is a DEQUANTIZE of a constant fp16 tensor whose output only ever feeds
/// the weights or bias of a convolution or fully connected node: the delegate skips it.
fn skipped_dequantize(model: &Model, si: usize, n: usize) -> bool {
    let sg = &model.subgraphs[si];
    let op = &sg.operators[n];
    let Some(&out) = op.outputs.first() else {
        return false;
    };
    fp16_dequantize_of(model, si, out) == Some(n)
        && sg.operators.iter().all(|c| {
            !c.inputs.contains(&out)
                || (matches!(
                    c.builtin,
                    ops::CONV_2D | ops::DEPTHWISE_CONV_2D | ops::FULLY_CONNECTED
                ) && c.inputs.first() != Some(&out))
        })
        && !sg.outputs.contains(&(out as usize))
}

/// A dynamic-range fully connected (float input, constant int8 weights) that flattens its
/// input to one row: its input channels `k`. XNNPACK quantises the row at run time into the
/// op's own workspace, `round_up(k, 4) + 8` bytes (the int8 row padded to the kernel's k
/// granularity, and its quantisation parameters), and re-defines the filter as a per-channel
/// int8 value two ids on (measured on four models made here: k 16, 100, 6272 and 30 give 24,
/// 108, 6280 and 40 bytes). Rows in batches are padded to the kernel's row tile, which
/// depends on the CPU (4 rows took 5 × (k + 8) on AVX-512 VNNI), so they are not modelled.
fn dynamic_range_row(model: &Model, si: usize, op: &Operator) -> Option<u64> {
    let tensor = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, si, t));
    let (input, filter) = (tensor(0)?, tensor(1)?);
    let keep_dims = matches!(
        op.options,
        Options::FullyConnected {
            keep_num_dims: true,
            ..
        }
    );
    let k = filter.shape.last().map(|&d| d.max(0) as u64)?;
    let rows = input
        .shape
        .iter()
        .map(|&d| d.max(0) as u64)
        .product::<u64>();
    (input.dtype == TensorType::Float32
        && filter.dtype == TensorType::Int8
        && filter.is_constant
        && !keep_dims
        && k > 0
        && rows == k)
        .then_some(k)
}

/// A dynamic-range convolution (float input, constant int8 weights) on XNNPACK's IGEMM path
/// (a kernel larger than 1×1, a stride or padding): its batch. XNNPACK quantises the input
/// in a `convert` op into a `qduint8` value of one byte an element, planned with
/// `(batch + 15) × 8` bytes of quantisation parameters and `(batch + 15) × 4` of row sums,
/// each rounded on its own (`xnn_plan_memory`); the filter is re-defined one id after it.
/// Measured on three convolutions made here: 1216, 1792 and 2240 bytes. A 1×1 convolution
/// becomes a fully connected over every pixel, whose row tile depends on the CPU: not
/// modelled.
fn dynamic_range_conv(model: &Model, si: usize, op: &Operator) -> Option<u64> {
    let tensor = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, si, t));
    let (input, filter) = (tensor(0)?, tensor(1)?);
    let output = op.outputs.first().and_then(|&t| tensor_of(model, si, t))?;
    let (
        Options::Conv2D {
            stride_w, stride_h, ..
        },
        [n, ih, iw, _],
        [_, kh, kw, _],
        [_, oh, ow, _],
    ) = (
        &op.options,
        &input.shape[..],
        &filter.shape[..],
        &output.shape[..],
    )
    else {
        return None;
    };
    let pointwise =
        *kh == 1 && *kw == 1 && *stride_w == 1 && *stride_h == 1 && ih == oh && iw == ow;
    (input.dtype == TensorType::Float32
        && filter.dtype == TensorType::Int8
        && filter.is_constant
        && !pointwise)
        .then_some((*n).max(0) as u64)
}

/// The delegate's support rules for one node, as far as they are modelled.
fn support(model: &Model, si: usize, node: usize) -> Support {
    let op = &model.subgraphs[si].operators[node];
    let input = op.inputs.first().copied().unwrap_or(-1);
    let in_type = dtype(model, si, input);
    let out_type = op.outputs.first().and_then(|&t| dtype(model, si, t));
    let float_or_int8 = matches!(in_type, Some(TensorType::Float32 | TensorType::Int8));
    let weights_static = op.inputs.get(1).is_some_and(|&w| static_like(model, si, w))
        && op
            .inputs
            .get(2)
            .is_none_or(|&b| b < 0 || static_like(model, si, b));
    let hybrid = in_type == Some(TensorType::Float32)
        && op.inputs.get(1).is_some_and(|&w| {
            matches!(
                dtype(model, si, w),
                Some(TensorType::Int8 | TensorType::Uint8 | TensorType::Int4)
            )
        });
    match op.builtin {
        // Dynamic-range quantisation (float activations, int8 weights): a flattening fully
        // connected over one row is modelled (`dynamic_range_row`); the others quantise
        // their input into values of their own, which are not.
        ops::FULLY_CONNECTED if hybrid && dynamic_range_row(model, si, op).is_some() => {
            Support::Taken
        }
        ops::CONV_2D if hybrid && dynamic_range_conv(model, si, op).is_some() => Support::Taken,
        // A dynamic-range depthwise convolution stays in TFLite (measured on
        // depthwise_dynamic_range).
        ops::DEPTHWISE_CONV_2D if hybrid => Support::Left,
        ops::FULLY_CONNECTED | ops::CONV_2D if hybrid => Support::Unknown,
        ops::FULLY_CONNECTED | ops::CONV_2D | ops::DEPTHWISE_CONV_2D
            if float_or_int8 && weights_static && !constant(model, si, input) =>
        {
            Support::Taken
        }
        ops::MAX_POOL_2D if float_or_int8 => Support::Taken,
        // Quantised average pooling stays in TFLite (seen on nasnet_cells_int8).
        ops::AVERAGE_POOL_2D if in_type == Some(TensorType::Float32) => Support::Taken,
        ops::AVERAGE_POOL_2D if in_type == Some(TensorType::Int8) => Support::Left,
        ops::RESHAPE
            if op
                .inputs
                .get(1)
                .is_none_or(|&s| s < 0 || constant(model, si, s)) =>
        {
            Support::Taken
        }
        ops::SOFTMAX if in_type == Some(TensorType::Float32) => Support::Taken,
        // Quantised SOFTMAX is left to TFLite.
        ops::SOFTMAX => Support::Left,
        ops::QUANTIZE
            if in_type == Some(TensorType::Float32)
                && matches!(out_type, Some(TensorType::Int8 | TensorType::Uint8)) =>
        {
            Support::Taken
        }
        // A constant fp16 tensor dequantised: for GEMM weights the fp16 data is used as is
        // (skipped), otherwise unpacked once into a static fp32 value (quasi-static); either
        // way the node runs nothing.
        ops::DEQUANTIZE
            if unpacked_constant(model, si, input) && in_type == Some(TensorType::Float16) =>
        {
            Support::Taken
        }
        // Sparse weights densified once, when the delegate prepares (sparse_conv_f16).
        ops::DENSIFY if constant(model, si, input) => Support::Taken,
        PRELU
            if in_type == Some(TensorType::Float32)
                && op.inputs.get(1).is_some_and(|&a| static_like(model, si, a)) =>
        {
            Support::Taken
        }
        RESIZE_BILINEAR
            if float_or_int8 && op.inputs.get(1).is_some_and(|&a| constant(model, si, a)) =>
        {
            Support::Taken
        }
        ops::PAD if float_or_int8 && op.inputs.get(1).is_some_and(|&a| constant(model, si, a)) => {
            Support::Taken
        }
        ops::DEQUANTIZE
            if !constant(model, si, input)
                && matches!(in_type, Some(TensorType::Int8 | TensorType::Uint8))
                && out_type == Some(TensorType::Float32) =>
        {
            Support::Taken
        }
        ops::LOGISTIC | ops::TANH | ops::HARD_SWISH if float_or_int8 => Support::Taken,
        ops::ADD | ops::SUB | ops::MUL
            if float_or_int8
                && matches!(
                    op.options,
                    Options::Binary { activation: 0..=3 } | Options::None
                ) =>
        {
            Support::Taken
        }
        ops::MEAN if float_or_int8 && op.inputs.get(1).is_some_and(|&a| constant(model, si, a)) => {
            Support::Taken
        }
        // XNNPACK concatenates at most five inputs (nasnet_cells_int8 leaves its six-way ones).
        ops::CONCATENATION if float_or_int8 && op.inputs.len() <= 5 => Support::Taken,
        ops::CONCATENATION if float_or_int8 => Support::Left,
        // A float clamp (its merging into the producer is flagged after partitioning).
        ops::RELU | RELU6 | RELU_N1_TO_1 if in_type == Some(TensorType::Float32) => Support::Taken,
        // XNNPACK has no 16-bit integers: QUANTIZE from int16 (audio front ends) stays.
        ops::QUANTIZE | ops::DEQUANTIZE if in_type == Some(TensorType::Int16) => Support::Left,
        // A plain slice (no ellipsis, new or shrunk axes; begin, end and strides constant; the
        // strides' values are not read here) is a static slice; the others stay in TFLite
        // (lstm_f32's shrinks an axis).
        STRIDED_SLICE
            if float_or_int8
                && op.inputs.iter().skip(1).all(|&t| constant(model, si, t))
                && matches!(
                    op.options,
                    Options::StridedSlice {
                        ellipsis_mask: 0,
                        new_axis_mask: 0,
                        shrink_axis_mask: 0,
                        offset: false,
                    }
                ) =>
        {
            Support::Taken
        }
        STRIDED_SLICE if matches!(op.options, Options::StridedSlice { .. }) => Support::Left,
        // Quantised RELUs stay in TFLite (seen on nasnet_cells_int8).
        ops::RELU | RELU6 | RELU_N1_TO_1 if in_type == Some(TensorType::Int8) => Support::Left,
        // Integer arithmetic (a loop counter) and comparisons stay in TFLite.
        ops::ADD | ops::SUB | ops::MUL if in_type == Some(TensorType::Int32) => Support::Left,
        ops::LESS | LESS_EQUAL | GREATER | GREATER_EQUAL | EQUAL | NOT_EQUAL => Support::Left,
        // Recurrent and control-flow kernels and custom operators stay in TFLite.
        ops::UNIDIRECTIONAL_SEQUENCE_LSTM
        | ops::SVDF
        | ops::WHILE
        | ops::IF
        | ops::CALL_ONCE
        | ops::CUSTOM => Support::Left,
        _ => Support::Unknown,
    }
}

/// The nodes of `sg` that read tensor `t`.
fn readers_of(sg: &crate::model::Subgraph, t: i32) -> Vec<usize> {
    (0..sg.operators.len())
        .filter(|&m| sg.operators[m].inputs.contains(&t))
        .collect()
}

/// A clamp (RELU, RELU6, RELU_N1_TO_1) XNNPACK folds into the node that writes its input.
struct Merge {
    clamp: usize,
    /// The tensor between producer and clamp (never defined), and the clamp's output.
    between: usize,
    output: usize,
}

/// The clamps of `p` that XNNPACK merges into their producer (`src/subgraph.c`,
/// `optimize_common_subgraphs_merge_clamps`): the producer is a convolution, fully connected
/// node or pool of the partition, and the clamp is the only reader of its output, which
/// leaves the partition nowhere else. The runtime is compacted afterwards: the clamp has no op.
fn merged_clamps(model: &Model, p: &Partition) -> Vec<Merge> {
    let sg = &model.subgraphs[p.subgraph];
    let mut out = Vec::new();
    for &n in &p.nodes {
        let op = &sg.operators[n];
        if !matches!(op.builtin, ops::RELU | RELU6 | RELU_N1_TO_1) {
            continue;
        }
        let (Some(&input), Some(&output)) = (op.inputs.first(), op.outputs.first()) else {
            continue;
        };
        let (Ok(between), Ok(output)) = (usize::try_from(input), usize::try_from(output)) else {
            continue;
        };
        let producer = p
            .nodes
            .iter()
            .find(|&&m| sg.operators[m].outputs.contains(&input));
        let readers = readers_of(sg, input).len();
        let folds = producer.is_some_and(|&m| {
            matches!(
                sg.operators[m].builtin,
                ops::CONV_2D
                    | ops::DEPTHWISE_CONV_2D
                    | ops::FULLY_CONNECTED
                    | ops::MAX_POOL_2D
                    | ops::AVERAGE_POOL_2D
            )
        });
        if folds && readers == 1 && !p.outputs.contains(&between) {
            out.push(Merge {
                clamp: n,
                between,
                output,
            });
        }
    }
    out
}

/// An int8 swish, x * logistic(x), that XNNPACK turns into one lookup-table op
/// (`xnn_subgraph_fuse_unary_quantized_into_lut`): the LOGISTIC stays as an invalid op in place
/// (the runtime is not compacted), the MUL becomes a `unary_elementwise` of x alone, and the
/// logistic's output is never defined.
struct LutFusion {
    unary: usize,
    mul: usize,
    between: usize,
}

fn lut_fusions(model: &Model, p: &Partition) -> Vec<LutFusion> {
    let sg = &model.subgraphs[p.subgraph];
    let mut out = Vec::new();
    for &n in &p.nodes {
        let op = &sg.operators[n];
        let (Some(&x), Some(&y)) = (op.inputs.first(), op.outputs.first()) else {
            continue;
        };
        if op.builtin != ops::LOGISTIC || dtype(model, p.subgraph, x) != Some(TensorType::Int8) {
            continue;
        }
        let Ok(between) = usize::try_from(y) else {
            continue;
        };
        let [mul] = readers_of(sg, y)[..] else {
            continue;
        };
        let m = &sg.operators[mul];
        let swish = m.builtin == ops::MUL
            && p.nodes.contains(&mul)
            && m.inputs.len() == 2
            && m.inputs.contains(&x)
            && m.inputs.contains(&y)
            && matches!(m.options, Options::Binary { activation: 0 } | Options::None);
        if swish && !p.outputs.contains(&between) {
            out.push(LutFusion {
                unary: n,
                mul,
                between,
            });
        }
    }
    out
}

/// TFLite's partitioner (`PartitionGraphIntoIndependentNodeSubsets`, tflite/graph_info.cc),
/// as this module understands it: epoch after epoch, the nodes are scanned in execution order,
/// again and again until nothing changes; a node joins the current epoch when every tensor it
/// reads is ready and, for a node with side effects, the previous such node has an epoch; the
/// first node that joins decides whether the epoch is taken by the delegate or not, and only
/// nodes of that kind join after it. Each epoch is one node subset; the taken ones become the
/// partitions, and TFLite then runs the subsets in epoch order.
fn node_subsets(model: &Model, si: usize, taken: &[bool]) -> Vec<(bool, Vec<usize>)> {
    let sg = &model.subgraphs[si];
    let n = sg.operators.len();
    let mut produced = vec![false; sg.tensors.len()];
    for op in &sg.operators {
        for &t in &op.outputs {
            if let Some(p) = usize::try_from(t).ok().and_then(|t| produced.get_mut(t)) {
                *p = true;
            }
        }
    }
    // Tensors ready: those no node writes, and the outputs of nodes placed.
    let mut ready: Vec<bool> = produced.iter().map(|&p| !p).collect();
    // Side effects run in their order: each waits for the previous one.
    let side_effect = |i: usize| super::order::has_side_effect(sg, i);
    let mut after = vec![None; n];
    let mut last = None;
    for (i, dep) in after.iter_mut().enumerate() {
        if side_effect(i) {
            *dep = last;
            last = Some(i);
        }
    }
    let mut placed = vec![false; n];
    let mut subsets: Vec<(bool, Vec<usize>)> = Vec::new();
    loop {
        let mut kind: Option<bool> = None;
        let mut nodes = Vec::new();
        loop {
            let mut changed = false;
            for i in 0..n {
                if placed[i] {
                    continue;
                }
                let op = &sg.operators[i];
                let inputs_ready = op
                    .inputs
                    .iter()
                    .filter_map(|&t| usize::try_from(t).ok())
                    .all(|t| ready.get(t).copied().unwrap_or(true));
                let dep_ready = after[i].is_none_or(|d| placed[d]);
                if !inputs_ready || !dep_ready {
                    continue;
                }
                if *kind.get_or_insert(taken[i]) != taken[i] {
                    continue;
                }
                placed[i] = true;
                nodes.push(i);
                for t in op.outputs.iter().filter_map(|&t| usize::try_from(t).ok()) {
                    if let Some(r) = ready.get_mut(t) {
                        *r = true;
                    }
                }
                changed = true;
            }
            if !changed {
                break;
            }
        }
        match kind {
            Some(k) if !nodes.is_empty() => subsets.push((k, nodes)),
            _ => break,
        }
    }
    subsets
}

/// The partitions of every subgraph: TFLite's node subsets of the nodes the delegate takes.
pub fn delegate(model: &Model) -> Delegation {
    let mut d = Delegation::default();
    for (si, sg) in model.subgraphs.iter().enumerate() {
        let mut taken = vec![false; sg.operators.len()];
        for (node, t) in taken.iter_mut().enumerate() {
            match support(model, si, node) {
                Support::Taken => *t = true,
                Support::Left => d.not_delegated.push((si, node)),
                Support::Unknown => {
                    d.not_delegated.push((si, node));
                    d.not_modelled.push(format!(
                        "subgraph {si} node {node} ({})",
                        model.op_name(&sg.operators[node])
                    ));
                }
            }
        }
        let subsets = node_subsets(model, si, &taken);
        for (is_taken, nodes) in &subsets {
            if *is_taken {
                d.partitions.push(partition(model, si, nodes.clone()));
            }
        }
        d.subsets.push(subsets);
    }
    // XNNPACK fuses int8 chains of pure unary ops into one lookup table. The swish pattern
    // (x * logistic(x)) is modelled (`lut_fusions`); any other chain is not yet.
    for p in &d.partitions {
        let sg = &model.subgraphs[p.subgraph];
        let fused = lut_fusions(model, p);
        for &n in p
            .nodes
            .iter()
            .filter(|&&n| !fused.iter().any(|f| f.unary == n))
        {
            let op = &sg.operators[n];
            let unary = matches!(op.builtin, ops::LOGISTIC | ops::TANH | ops::HARD_SWISH);
            let int8 = op.inputs.first().and_then(|&t| dtype(model, p.subgraph, t))
                == Some(TensorType::Int8);
            let out = op.outputs.first().copied().unwrap_or(-1);
            // Another pure unary op reading it (a MUL of two different tensors is binary and
            // stops a chain).
            let chained = p.nodes.iter().any(|&m| {
                let next = &sg.operators[m];
                matches!(next.builtin, ops::LOGISTIC | ops::TANH | ops::HARD_SWISH)
                    && next.inputs.contains(&out)
            });
            if unary && int8 && chained {
                d.not_modelled.push(format!(
                    "subgraph {} node {n} ({}: int8 unary chain fused into a lookup table)",
                    p.subgraph,
                    model.op_name(op)
                ));
            }
        }
    }
    d
}

fn partition(model: &Model, si: usize, nodes: Vec<usize>) -> Partition {
    let sg = &model.subgraphs[si];
    let inside = |t: usize| {
        nodes
            .iter()
            .any(|&n| sg.operators[n].outputs.contains(&(t as i32)))
    };
    let mut inputs: Vec<usize> = Vec::new();
    let mut outputs: Vec<usize> = Vec::new();
    for &n in &nodes {
        for t in sg.operators[n]
            .inputs
            .iter()
            .filter_map(|&t| usize::try_from(t).ok())
        {
            if !inside(t) && !inputs.contains(&t) {
                inputs.push(t);
            }
        }
        for t in sg.operators[n]
            .outputs
            .iter()
            .filter_map(|&t| usize::try_from(t).ok())
        {
            let read_outside = sg.outputs.contains(&t)
                || sg
                    .operators
                    .iter()
                    .enumerate()
                    .any(|(k, op)| !nodes.contains(&k) && op.inputs.contains(&(t as i32)));
            if read_outside && !outputs.contains(&t) {
                outputs.push(t);
            }
        }
    }
    inputs.sort_unstable();
    outputs.sort_unstable();
    Partition {
        subgraph: si,
        nodes,
        inputs,
        outputs,
    }
}

/// One XNNPACK value the plan cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub id: u32,
    /// The model tensor it stands for (`None`: a value a rewrite made).
    pub tensor: Option<usize>,
    pub bytes: u64,
    /// Planned in the workspace (not external, not static).
    pub workspace: bool,
    /// The tensor's label, or what the rewrite made it for; ends with `[v<id>]`.
    pub name: String,
    /// A dynamically quantised value (`qduint8`): its batch rows, each with quantisation
    /// parameters (8 bytes) and a row sum (4 bytes) planned after the data, with 15 rows more
    /// (`XNN_EXTRA_QUANTIZATION_PARAMS`) and each part rounded on its own.
    pub quantised_rows: Option<u64>,
}

impl Value {
    /// Bytes XNNPACK plans for it on `platform` (`xnn_plan_memory`).
    pub fn planned_bytes(&self, platform: Platform) -> u64 {
        let extra = self.quantised_rows.map_or(0, |rows| {
            platform.rounded((rows + 15) * 8) + platform.rounded((rows + 15) * 4)
        });
        platform.rounded(self.bytes) + extra
    }
}

/// One op of a partition's runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub kind: &'static str,
    /// The TFLite node it came from.
    pub node: usize,
    /// "kind (node N OP)", for the op axis.
    pub label: String,
    /// Value ids read and written (static weights left out: they are never planned).
    pub inputs: Vec<u32>,
    pub outputs: Vec<u32>,
    /// Bytes of its own workspace (before rounding).
    pub workspace_bytes: u64,
}

/// A partition as XNNPACK runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    pub values: Vec<Value>,
    pub ops: Vec<Op>,
    /// Values in the id space (defined or not): op workspaces are numbered after them.
    pub num_values: u32,
}

/// The values and runtime ops of `p`.
pub fn runtime(model: &Model, p: &Partition) -> Runtime {
    let sg = &model.subgraphs[p.subgraph];
    // A skipped fp16 DEQUANTIZE adds nothing: its readers take the fp16 tensor instead.
    let source = |t: i32| match fp16_dequantize_of(model, p.subgraph, t) {
        Some(d) if skipped_dequantize(model, p.subgraph, d) => sg.operators[d].inputs[0],
        _ => t,
    };
    let mut set: Vec<usize> = Vec::new();
    // Nodes the delegate runs once when it prepares (static data), never in the runtime.
    let unpacked = |n: usize| {
        let op = &sg.operators[n];
        let first = op.inputs.first().copied().unwrap_or(-1);
        (op.builtin == ops::DEQUANTIZE
            && unpacked_constant(model, p.subgraph, first)
            && dtype(model, p.subgraph, first) == Some(TensorType::Float16))
            || (op.builtin == ops::DENSIFY && constant(model, p.subgraph, first))
    };
    for &n in p.nodes.iter().filter(|&&n| !unpacked(n)) {
        let op = &sg.operators[n];
        let reads = match op.builtin {
            ops::RESHAPE | ops::MEAN | ops::PAD | RESIZE_BILINEAR | STRIDED_SLICE => {
                &op.inputs[..op.inputs.len().min(1)]
            }
            _ => &op.inputs[..],
        };
        set.extend(
            reads
                .iter()
                .map(|&t| source(t))
                .chain(op.outputs.iter().copied())
                .filter_map(|t| usize::try_from(t).ok()),
        );
    }
    set.sort_unstable();
    set.dedup();
    let external =
        |t: usize| p.outputs.contains(&t) || (p.inputs.contains(&t) && !sg.tensors[t].is_constant);
    let mut id_of = std::collections::HashMap::new();
    let mut values = Vec::new();
    let mut next = 0u32;
    for &t in set.iter().filter(|&&t| external(t)) {
        id_of.insert(t, next);
        next += 1;
    }
    next = set.len() as u32;
    for &t in set.iter().filter(|&&t| !external(t)) {
        id_of.insert(t, next);
        next += 1;
    }
    // Clamps merged into their producer: the producer writes the clamp's output, and the
    // value between them is never defined.
    let merged = merged_clamps(model, p);
    let skipped = |n: usize| unpacked(n) || merged.iter().any(|m| m.clamp == n);
    let luts = lut_fusions(model, p);
    // Never a workspace value: a dequantised constant (static, or replaced by its fp16
    // source), the value between a merged clamp and its producer.
    let undefined = |t: usize| {
        fp16_dequantize_of(model, p.subgraph, t as i32).is_some()
            || densified(model, p.subgraph, t as i32).is_some()
            || merged.iter().any(|m| m.between == t)
            || luts.iter().any(|f| f.between == t)
    };
    let labels = model.tensor_labels(p.subgraph);
    for &t in &set {
        let tensor = &sg.tensors[t];
        values.push(Value {
            id: id_of[&t],
            tensor: Some(t),
            bytes: tensor.bytes.unwrap_or(0),
            workspace: !external(t) && !tensor.is_constant && !undefined(t),
            name: format!("{} [v{}]", labels[t], id_of[&t]),
            quantised_rows: None,
        });
    }
    let label_of = |t: i32| {
        usize::try_from(t)
            .ok()
            .and_then(|t| labels.get(t).cloned())
            .unwrap_or_default()
    };
    let planned = |t: i32| -> Option<u32> {
        let t = usize::try_from(t).ok()?;
        (!sg.tensors[t].is_constant && !undefined(t)).then(|| id_of.get(&t).copied())?
    };
    let mut ops_out = Vec::new();
    for &n in p.nodes.iter().filter(|&&n| !skipped(n)) {
        let op = &sg.operators[n];
        let first = op.inputs.first().copied().unwrap_or(-1);
        if luts.iter().any(|f| f.unary == n) {
            // Fused away, but it keeps its op index.
            ops_out.push(Op {
                kind: "invalid",
                node: n,
                label: String::new(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                workspace_bytes: 0,
            });
            continue;
        }
        if let Some(f) = luts.iter().find(|f| f.mul == n) {
            let x = sg.operators[f.unary].inputs[0];
            ops_out.push(Op {
                kind: "unary_elementwise",
                node: n,
                label: String::new(),
                inputs: planned(x).into_iter().collect(),
                outputs: op.outputs.iter().filter_map(|&t| planned(t)).collect(),
                workspace_bytes: 0,
            });
            continue;
        }
        let inputs: Vec<u32> = match op.builtin {
            ops::RESHAPE | ops::MEAN | ops::PAD | RESIZE_BILINEAR | STRIDED_SLICE => {
                planned(first).into_iter().collect()
            }
            _ => op.inputs.iter().filter_map(|&t| planned(t)).collect(),
        };
        // A merged clamp's producer writes the clamp's output.
        let outputs: Vec<u32> = op
            .outputs
            .iter()
            .map(|&t| {
                merged
                    .iter()
                    .find(|m| m.between as i32 == t)
                    .map_or(t, |m| m.output as i32)
            })
            .filter_map(planned)
            .collect();
        let kind = match op.builtin {
            ops::CONV_2D => "convolution_2d",
            ops::DEPTHWISE_CONV_2D => "depthwise_convolution_2d",
            ops::MAX_POOL_2D => "max_pooling_2d",
            ops::AVERAGE_POOL_2D => "average_pooling_2d",
            ops::RESHAPE => "static_reshape",
            ops::SOFTMAX => "softmax",
            ops::FULLY_CONNECTED => "fully_connected",
            ops::ADD | ops::SUB | ops::MUL | PRELU => "binary_elementwise",
            RESIZE_BILINEAR => "static_resize_bilinear_2d",
            STRIDED_SLICE => "static_slice",
            ops::MEAN => "static_mean",
            ops::CONCATENATION => "concatenate",
            ops::PAD => "static_constant_pad",
            _ => "unary_elementwise",
        };
        if let Some(rows) = dynamic_range_conv(model, p.subgraph, op) {
            // Dynamic range: a convert op quantises the input into a value of its own (one
            // byte an element, then the rows' parameters and sums); the filter is re-defined
            // as a per-channel int8 value, one id more; the convolution reads the quantised
            // value.
            let quantised = next;
            next += 2;
            let elements = usize::try_from(first)
                .ok()
                .and_then(|t| sg.tensors.get(t))
                .map_or(0, |t| t.elements());
            values.push(Value {
                id: quantised,
                tensor: None,
                bytes: elements,
                workspace: true,
                name: format!("{} quantised [v{quantised}]", label_of(first)),
                quantised_rows: Some(rows),
            });
            ops_out.push(Op {
                kind: "convert",
                node: n,
                label: String::new(),
                inputs: planned(first).into_iter().collect(),
                outputs: vec![quantised],
                workspace_bytes: 0,
            });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs: vec![quantised],
                outputs,
                workspace_bytes: 0,
            });
            continue;
        }
        let out_bytes = |outputs: &[u32], values: &[Value]| {
            values
                .iter()
                .find(|v| outputs.first() == Some(&v.id))
                .map_or(0, |v| v.bytes)
        };
        if let Options::Binary { activation: 1..=3 } = op.options {
            // A fused activation becomes a clamp node: the binary op writes a new value, the
            // clamp reads it into the node's output (`xnn_insert_clamp_node`).
            let inner = next;
            next += 1;
            values.push(Value {
                id: inner,
                tensor: None,
                bytes: out_bytes(&outputs, &values),
                workspace: true,
                name: format!(
                    "{} before its clamp [v{inner}]",
                    label_of(op.outputs.first().copied().unwrap_or(-1))
                ),
                quantised_rows: None,
            });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs,
                outputs: vec![inner],
                workspace_bytes: 0,
            });
            ops_out.push(Op {
                kind: "unary_elementwise",
                node: n,
                label: String::new(),
                inputs: vec![inner],
                outputs,
                workspace_bytes: 0,
            });
            continue;
        }
        if op.builtin == ops::MEAN && dtype(model, p.subgraph, first) != Some(TensorType::Float32) {
            // Quantised mean: an accumulator of 4 bytes per output element plus 16.
            let elements = op
                .outputs
                .first()
                .and_then(|&t| usize::try_from(t).ok())
                .and_then(|t| sg.tensors.get(t))
                .map_or(0, |t| {
                    t.shape.iter().map(|&d| d.max(0) as u64).product::<u64>()
                });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs,
                outputs,
                workspace_bytes: elements * 4 + 16,
            });
            continue;
        }
        let keep_dims = matches!(
            op.options,
            Options::FullyConnected {
                keep_num_dims: true,
                ..
            }
        );
        if op.builtin == ops::FULLY_CONNECTED && !keep_dims {
            // The flattening reshape onto a new value of the input's bytes.
            let bytes = values
                .iter()
                .find(|v| inputs.first() == Some(&v.id))
                .map_or(0, |v| v.bytes);
            let flat = next;
            next += 1;
            values.push(Value {
                id: flat,
                tensor: None,
                bytes,
                workspace: true,
                name: format!("{} flattened [v{flat}]", label_of(first)),
                quantised_rows: None,
            });
            ops_out.push(Op {
                kind: "static_reshape",
                node: n,
                label: String::new(),
                inputs: inputs.clone(),
                outputs: vec![flat],
                workspace_bytes: 0,
            });
            if dtype(model, p.subgraph, first) == Some(TensorType::Int8) {
                // The int8 filter re-defined as a per-channel static value: an id, no bytes
                // planned.
                next += 1;
            }
            // Dynamic range: the filter two ids on, the quantised row in the op's workspace.
            let dynamic = dynamic_range_row(model, p.subgraph, op);
            if dynamic.is_some() {
                next += 2;
            }
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs: vec![flat],
                outputs,
                workspace_bytes: dynamic.map_or(0, |k| super::round_up(k, 4) + 8),
            });
            continue;
        }
        ops_out.push(Op {
            kind,
            node: n,
            label: String::new(),
            inputs,
            outputs,
            workspace_bytes: 0,
        });
    }
    values.sort_by_key(|v| v.id);
    for op in &mut ops_out {
        op.label = format!(
            "{} (node {} {})",
            op.kind,
            op.node,
            model.op_name(&sg.operators[op.node])
        );
    }
    Runtime {
        values,
        ops: ops_out,
        num_values: next,
    }
}

/// The workspace problem of one runtime: a buffer per record of non-zero size in XNNPACK's
/// record order (values by id, then op workspaces), in-place outputs as aliases of their root.
pub fn workspace_problem(rt: &Runtime, subgraph: usize, platform: Platform) -> Problem {
    let n_ops = rt.ops.len();
    // Lifetimes: ops >= 1 first, then op 0 (a value only op 0 touches is [0, 0]).
    let mut life: std::collections::HashMap<u32, (usize, usize)> = Default::default();
    let touch = |life: &mut std::collections::HashMap<u32, (usize, usize)>, v: u32, k: usize| {
        let e = life.entry(v).or_insert((k, k));
        e.0 = e.0.min(k);
        e.1 = e.1.max(k);
    };
    for (k, op) in rt.ops.iter().enumerate() {
        for &v in op.inputs.iter().chain(&op.outputs) {
            touch(&mut life, v, k);
        }
    }
    // Consumers per value (an external output counts one more; they are not planned anyway).
    let consumers = |v: u32| rt.ops.iter().filter(|op| op.inputs.contains(&v)).count();
    let first_consumer = |v: u32| rt.ops.iter().position(|op| op.inputs.contains(&v));
    let value = |v: u32| rt.values.iter().find(|x| x.id == v);
    // In place: the output rides on the input's root.
    let mut root: std::collections::HashMap<u32, u32> = Default::default();
    for op in &rt.ops {
        if !matches!(
            op.kind,
            "unary_elementwise" | "binary_elementwise" | "softmax" | "static_reshape" | "copy"
        ) {
            continue;
        }
        let Some(&out) = op.outputs.first() else {
            continue;
        };
        let Some(out_v) = value(out).filter(|v| v.workspace) else {
            continue;
        };
        if consumers(out) != 1 {
            continue;
        }
        let input = op.inputs.iter().copied().find(|&i| {
            value(i).is_some_and(|v| v.workspace && v.bytes == out_v.bytes) && consumers(i) == 1
        });
        let Some(input) = input else { continue };
        let r = *root.get(&input).unwrap_or(&input);
        root.insert(out, r);
        if let (Some(fc), Some(l)) = (first_consumer(out), life.get_mut(&r)) {
            l.1 = fc;
        }
    }
    let mut buffers = Vec::new();
    let mut aliases = Vec::new();
    let mut buffer_of: std::collections::HashMap<u32, usize> = Default::default();
    for v in rt.values.iter().filter(|v| v.workspace) {
        let (first, last) = life.get(&v.id).copied().unwrap_or((0, 0));
        if root.contains_key(&v.id) {
            continue;
        }
        buffer_of.insert(v.id, buffers.len());
        buffers.push(Buffer {
            tensor: v.tensor.unwrap_or(super::problem::NO_TENSOR),
            subgraph,
            name: v.name.clone(),
            kind: BufferKind::Activation,
            size_bytes: v.planned_bytes(platform),
            first: first as u32,
            last: last as u32,
            alignment: platform.alignment(),
            fixed_offset: None,
        });
    }
    for v in rt.values.iter().filter(|v| v.workspace) {
        let Some(r) = root.get(&v.id) else { continue };
        let (first, last) = life.get(&v.id).copied().unwrap_or((0, 0));
        aliases.push(Alias {
            tensor: v.tensor.unwrap_or(super::problem::NO_TENSOR),
            subgraph,
            name: v.name.clone(),
            kind: BufferKind::Activation,
            size_bytes: v.bytes,
            first: first as u32,
            last: last as u32,
            root: buffer_of[r],
        });
    }
    for (k, op) in rt.ops.iter().enumerate() {
        if op.workspace_bytes > 0 {
            buffers.push(Buffer {
                tensor: super::problem::NO_TENSOR,
                subgraph,
                name: format!("workspace of op {k} ({})", op.kind),
                kind: BufferKind::Scratch,
                size_bytes: platform.rounded(op.workspace_bytes),
                first: k as u32,
                last: k as u32,
                alignment: platform.alignment(),
                fixed_offset: None,
            });
        }
    }
    let mut problem = Problem::from_buffers(buffers);
    problem.steps = problem.steps.max(n_ops as u32);
    problem.step_labels = rt.ops.iter().map(|o| o.label.clone()).collect();
    problem.aliases = aliases;
    problem.subgraph = Some(subgraph);
    problem
}

/// The name of the node that stands for a partition in the delegated graph.
pub const DELEGATE_NODE: &str = "TfLiteXNNPackDelegate";

/// The graph TFLite plans once the delegate has run: the node subsets in epoch order, each
/// partition one node reading its inputs (constants included) and writing its outputs; the
/// tensors only a partition used are then used by nothing.
pub fn delegated_model(model: &Model, delegation: &Delegation) -> Model {
    let mut m = model.clone();
    let code = m.operator_codes.len() as u32;
    m.operator_codes.push(OperatorCode {
        builtin: ops::CUSTOM,
        custom: Some(DELEGATE_NODE.into()),
        version: 1,
    });
    for (si, sg) in m.subgraphs.iter_mut().enumerate() {
        let parts: Vec<&Partition> = delegation
            .partitions
            .iter()
            .filter(|p| p.subgraph == si)
            .collect();
        if parts.is_empty() {
            continue;
        }
        let old = std::mem::take(&mut sg.operators);
        // The subsets in epoch order: a taken one as one node, the others node by node.
        for (taken, nodes) in delegation.subsets.get(si).into_iter().flatten() {
            match parts.iter().find(|p| *taken && p.nodes == *nodes) {
                Some(p) => sg.operators.push(Operator {
                    opcode_index: code,
                    builtin: ops::CUSTOM,
                    inputs: p.inputs.iter().map(|&t| t as i32).collect(),
                    outputs: p.outputs.iter().map(|&t| t as i32).collect(),
                    intermediates: Vec::new(),
                    options: Options::None,
                    custom_options: Vec::new(),
                }),
                None => sg.operators.extend(nodes.iter().map(|&n| old[n].clone())),
            }
        }
    }
    m
}

/// The problems of the xnnpack convention: the delegated graph's TFLite arena per subgraph
/// (LiteRT's ArenaPlanner plans it: `litert` lifetimes), then each partition's workspace
/// (`xnnpack` lifetimes, on that runtime's op axis).
pub fn problems(model: &Model, platform: Platform) -> Result<Vec<Problem>, super::AnalysisError> {
    let delegation = delegate(model);
    let delegated = delegated_model(model, &delegation);
    let mut out: Vec<Problem> = Vec::new();
    for s in 0..delegated.subgraphs.len() {
        let mut problem = super::litert::problem(&delegated, s)?;
        problem.xnnpack = Some(super::XnnpackPart::TfliteArena);
        out.push(problem);
    }
    for (k, p) in delegation.partitions.iter().enumerate() {
        let mut problem = workspace_problem(&runtime(model, p), p.subgraph, platform);
        problem.lifetimes = Some(super::Lifetimes::Xnnpack);
        problem.xnnpack = Some(super::XnnpackPart::Workspace { partition: k });
        out.push(problem);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tflm_tail::tests::{model, tensor};
    use crate::model::TensorType::{Float16, Float32, Int8};

    fn one(m: &Model) -> (Delegation, Runtime) {
        let d = delegate(m);
        assert_eq!(d.partitions.len(), 1, "{:?}", d.partitions);
        let rt = runtime(m, &d.partitions[0]);
        (d, rt)
    }

    /// (bytes, first, last) of each record.
    fn records(p: &Problem) -> Vec<(u64, u32, u32)> {
        p.buffers
            .iter()
            .map(|b| (b.size_bytes, b.first, b.last))
            .collect()
    }

    fn io(rt: &Runtime) -> Vec<(&'static str, Vec<u32>, Vec<u32>)> {
        rt.ops
            .iter()
            .map(|o| (o.kind, o.inputs.clone(), o.outputs.clone()))
            .collect()
    }

    #[test]
    fn an_int8_swish_becomes_one_lookup_table_op_and_an_invalid_one() {
        // x -> LOGISTIC -> y; MUL(x, y) -> z; LOGISTIC(z) -> w. Set {0,1,2,3}: x -> v0 and
        // w -> v1 (external), y -> v4 (never defined), z -> v5.
        let m = model(
            vec![
                tensor(&[1, 16], Int8, false),
                tensor(&[1, 16], Int8, false),
                tensor(&[1, 16], Int8, false),
                tensor(&[1, 16], Int8, false),
            ],
            vec![
                (ops::LOGISTIC, "", vec![0], vec![1], vec![]),
                (ops::MUL, "", vec![0, 1], vec![2], vec![]),
                (ops::LOGISTIC, "", vec![2], vec![3], vec![]),
            ],
            vec![0],
            vec![3],
        );
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        assert_eq!(
            io(&rt),
            [
                ("invalid", vec![], vec![]),
                ("unary_elementwise", vec![0], vec![5]),
                ("unary_elementwise", vec![5], vec![1]),
            ]
        );
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        assert_eq!(records(&p), [(64, 1, 2)]);
    }

    #[test]
    fn a_relu_after_a_convolution_is_merged_into_it() {
        // CONV(x) -> c; RELU(c) -> r; LOGISTIC(r) -> out. The convolution writes r itself; c
        // is never defined and the RELU has no op. Set {0..5}: x -> v0, out -> v1; weights
        // v6, v7; c v8; r v9 (128 B).
        let m = model(
            vec![
                tensor(&[1, 4, 4, 1], Float32, false),
                tensor(&[2, 1, 1, 1], Float32, true),
                tensor(&[2], Float32, true),
                tensor(&[1, 4, 4, 2], Float32, false),
                tensor(&[1, 4, 4, 2], Float32, false),
                tensor(&[1, 4, 4, 2], Float32, false),
            ],
            vec![
                (ops::CONV_2D, "", vec![0, 1, 2], vec![3], vec![]),
                (ops::RELU, "", vec![3], vec![4], vec![]),
                (ops::LOGISTIC, "", vec![4], vec![5], vec![]),
            ],
            vec![0],
            vec![5],
        );
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty());
        assert_eq!(
            io(&rt),
            [
                ("convolution_2d", vec![0], vec![9]),
                ("unary_elementwise", vec![9], vec![1]),
            ]
        );
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        assert_eq!(records(&p), [(128, 0, 1)]);
    }

    #[test]
    fn fp16_weights_are_used_as_they_are_and_their_dequantize_runs_nothing() {
        // DEQUANTIZE(w16) -> w32; FULLY_CONNECTED(x, w32) -> y; LOGISTIC(y) -> out. The
        // delegate gives the GEMM w16 directly: the set is {x, w16, y, out} (w32 left out), so
        // w16 -> v4, y -> v5, and the flattening reshape makes v6.
        let m = model(
            vec![
                tensor(&[1, 4], Float32, false),
                tensor(&[2, 4], Float16, true),
                tensor(&[2, 4], Float32, false),
                tensor(&[1, 2], Float32, false),
                tensor(&[1, 2], Float32, false),
            ],
            vec![
                (ops::DEQUANTIZE, "", vec![1], vec![2], vec![]),
                (ops::FULLY_CONNECTED, "", vec![0, 2, -1], vec![3], vec![]),
                (ops::LOGISTIC, "", vec![3], vec![4], vec![]),
            ],
            vec![0],
            vec![4],
        );
        let (d, rt) = one(&m);
        assert_eq!(d.partitions[0].nodes, [0, 1, 2]);
        assert_eq!(
            io(&rt),
            [
                ("static_reshape", vec![0], vec![6]),
                ("fully_connected", vec![6], vec![5]),
                ("unary_elementwise", vec![5], vec![1]),
            ]
        );
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        // y (8 B) and the flattened x (16 B), each 64 after rounding.
        assert_eq!(records(&p), [(64, 1, 2), (64, 0, 1)]);
    }

    #[test]
    fn a_node_no_rule_covers_is_named_and_left_out() {
        // MIRROR_PAD has no rule here: named, and its node stays out of the partitions (the
        // numbers are then approximate), never guessed into one.
        let m = model(
            vec![
                tensor(&[1, 4], Float32, false),
                tensor(&[2, 2], crate::model::TensorType::Int32, true),
                tensor(&[1, 8], Float32, false),
                tensor(&[1, 8], Float32, false),
            ],
            vec![
                (ops::MIRROR_PAD, "", vec![0, 1], vec![2], vec![]),
                (ops::LOGISTIC, "", vec![2], vec![3], vec![]),
            ],
            vec![0],
            vec![3],
        );
        let d = delegate(&m);
        assert_eq!(d.not_modelled, ["subgraph 0 node 0 (MIRROR_PAD)"]);
        assert_eq!(d.not_delegated, [(0, 0)]);
        assert_eq!(d.partitions.len(), 1);
        assert_eq!(d.partitions[0].nodes, [1]);
    }

    #[test]
    fn a_dynamic_range_row_is_quantised_in_its_ops_workspace_and_a_conv_is_named() {
        // x (1x4 f32) -> FULLY_CONNECTED with int8 weights (8x4) -> y -> LOGISTIC -> z. Set
        // {0,1,2,3}: x -> v0, z -> v1 (external), the filter v4, y v5, then the flattened x
        // v6 (XNNPACK's filter re-definition takes v8, two ids on: 9 values). The FC's own
        // workspace holds the quantised row: 4 + 8 = 12 bytes, 64 after rounding, over op 1.
        let m = model(
            vec![
                tensor(&[1, 4], Float32, false),
                tensor(&[8, 4], Int8, true),
                tensor(&[1, 8], Float32, false),
                tensor(&[1, 8], Float32, false),
            ],
            vec![
                (ops::FULLY_CONNECTED, "", vec![0, 1, -1], vec![2], vec![]),
                (ops::LOGISTIC, "", vec![2], vec![3], vec![]),
            ],
            vec![0],
            vec![3],
        );
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        assert_eq!(
            io(&rt),
            [
                ("static_reshape", vec![0], vec![6]),
                ("fully_connected", vec![6], vec![5]),
                ("unary_elementwise", vec![5], vec![1]),
            ]
        );
        assert_eq!(rt.num_values, 9);
        assert_eq!(rt.ops[1].workspace_bytes, 12);
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        // v5 (32 B) [1, 2], v6 (16 B) [0, 1], then the op's workspace [1, 1]: 64 each.
        assert_eq!(records(&p), [(64, 1, 2), (64, 0, 1), (64, 1, 1)]);
        // k = 30: the row is padded to 32 (measured: 40 bytes).
        let mut wide = m.clone();
        wide.subgraphs[0].tensors[0].shape = vec![1, 30];
        wide.subgraphs[0].tensors[1].shape = vec![8, 30];
        assert_eq!(one(&wide).1.ops[1].workspace_bytes, 40);
        // A dynamic-range convolution quantises its input in a convert op of its own: named.
        let conv = model(
            vec![
                tensor(&[1, 1, 1, 4], Float32, false),
                tensor(&[8, 1, 1, 4], Int8, true),
                tensor(&[1, 1, 1, 8], Float32, false),
            ],
            vec![(ops::CONV_2D, "", vec![0, 1, -1], vec![2], vec![])],
            vec![0],
            vec![2],
        );
        assert_eq!(
            delegate(&conv).not_modelled,
            ["subgraph 0 node 0 (CONV_2D)"]
        );
    }

    #[test]
    fn a_dynamic_range_convolution_quantises_its_input_in_a_convert_op() {
        // x (1x5x5x2 f32) -> 3x3 CONV_2D with int8 weights (4x3x3x2) -> y (1x3x3x4), both
        // external. Set {0,1,2}: x v0, y v1, the filter v3; the quantised x is v4 (the filter
        // re-defined takes v5: 6 values). Its record: 50 bytes (64) + (1 + 15) x 8 = 128 of
        // parameters + (1 + 15) x 4 = 64 of row sums = 256 bytes over ops 0 and 1.
        let mut m = model(
            vec![
                tensor(&[1, 5, 5, 2], Float32, false),
                tensor(&[4, 3, 3, 2], Int8, true),
                tensor(&[1, 3, 3, 4], Float32, false),
            ],
            vec![(ops::CONV_2D, "", vec![0, 1, -1], vec![2], vec![])],
            vec![0],
            vec![2],
        );
        m.subgraphs[0].operators[0].options = Options::Conv2D {
            stride_w: 1,
            stride_h: 1,
            dilation_w: 1,
            dilation_h: 1,
        };
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        assert_eq!(
            io(&rt),
            [
                ("convert", vec![0], vec![4]),
                ("convolution_2d", vec![4], vec![1]),
            ]
        );
        assert_eq!(rt.num_values, 6);
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        assert_eq!(records(&p), [(256, 0, 1)]);
        // On ARM each part rounds to 16 only: 64 + 128 + 64 as well.
        let arm = workspace_problem(&rt, 0, Platform::Arm);
        assert_eq!(records(&arm), [(256, 0, 1)]);
    }

    #[test]
    fn a_quantised_mean_has_a_workspace_of_four_bytes_per_output_plus_16() {
        // MEAN over an int8 [1, 4, 4, 8] into [1, 1, 1, 8]: 8 x 4 + 16 = 48 bytes, rounded to
        // 64, over its own op only (mobilenet_v2_int8's is 1280 x 4 + 16 = 5136 -> 5184).
        let m = model(
            vec![
                tensor(&[1, 4, 4, 8], Int8, false),
                tensor(&[2], crate::model::TensorType::Int32, true),
                tensor(&[1, 1, 1, 8], Int8, false),
                tensor(&[1, 1, 1, 8], Int8, false),
            ],
            vec![
                (ops::MEAN, "", vec![0, 1], vec![2], vec![]),
                (ops::LOGISTIC, "", vec![2], vec![3], vec![]),
            ],
            vec![0],
            vec![3],
        );
        let (_, rt) = one(&m);
        assert_eq!(rt.ops[0].kind, "static_mean");
        assert_eq!(rt.ops[0].workspace_bytes, 48);
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        // The 8-byte mean output (v5, [0, 1]) and the op's workspace ([0, 0]), 64 each.
        assert_eq!(records(&p), [(64, 0, 1), (64, 0, 0)]);
        assert_eq!(p.buffers[1].kind, BufferKind::Scratch);
    }

    #[test]
    fn the_partitioner_groups_independent_nodes_epoch_by_epoch() {
        // A: x -> a (taken), B: a -> b (left: int8 average pool), C: a -> c (taken),
        // D: b, c -> d (taken). Epoch 0 takes A, then C (ready, same kind), not B; epoch 1
        // takes B; epoch 2 takes D. So the partitions are [A, C] and [D], not contiguous runs.
        let m = model(
            vec![
                tensor(&[1, 4, 4, 8], Int8, false),
                tensor(&[1, 4, 4, 8], Int8, false),
                tensor(&[1, 4, 4, 8], Int8, false),
                tensor(&[1, 4, 4, 8], Int8, false),
                tensor(&[1, 4, 4, 8], Int8, false),
            ],
            vec![
                (ops::MAX_POOL_2D, "", vec![0], vec![1], vec![]),
                (ops::AVERAGE_POOL_2D, "", vec![1], vec![2], vec![]),
                (ops::MAX_POOL_2D, "", vec![1], vec![3], vec![]),
                (ops::ADD, "", vec![2, 3], vec![4], vec![]),
            ],
            vec![0],
            vec![4],
        );
        let d = delegate(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        let parts: Vec<&[usize]> = d.partitions.iter().map(|p| &p.nodes[..]).collect();
        assert_eq!(parts, [&[0, 2][..], &[3][..]]);
        assert_eq!(
            d.subsets[0],
            [(true, vec![0, 2]), (false, vec![1]), (true, vec![3])]
        );
        // The delegated graph runs them in that order: partition, pool, partition.
        let g = delegated_model(&m, &d);
        let ops: Vec<i32> = g.subgraphs[0].operators.iter().map(|o| o.builtin).collect();
        assert_eq!(ops, [ops::CUSTOM, ops::AVERAGE_POOL_2D, ops::CUSTOM]);
    }
}
