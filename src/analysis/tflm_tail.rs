//! TFLM's tail: the persistent allocations `MicroAllocator` and `MicroInterpreter` make from the
//! top of the arena (RUNTIME_RULES.md B.4a), so that `tensor_arena_size` = head + tail can be
//! computed from the file.
//!
//! The tail grows down from the arena's 16-aligned end: each allocation of `size` bytes at
//! `align` moves the tail to `round_up(tail + size, align)`. The order, as the Python
//! interpreter of the `tflite-micro` package (the oracle) runs it with its recording
//! allocator:
//! 1. the allocator's own objects: `RecordingSingleArenaBufferAllocator`, the
//!    `GreedyMemoryPlanner`, the `RecordingMicroAllocator`;
//! 2. `StartModelAllocation`: the builtin-data allocator, one `SubgraphAllocations` per
//!    subgraph, the `TfLiteEvalTensor` arrays (recorded), the `NodeAndRegistration` arrays
//!    (recorded);
//! 3. every operator's builtin options struct, parsed from the flatbuffer (`TfLite*Params`);
//! 4. every kernel's `Init` (its op data), then every kernel's `Prepare` (per-channel
//!    multipliers and shifts, lookup tables), both through `AllocatePersistentBuffer` at 16
//!    bytes (recorded as persistent buffer data);
//! 5. `FinishModelAllocation`: the scratch-buffer handles, then the variable tensors' buffers
//!    (recorded);
//! 6. the interpreter's input and output pointer arrays (recorded as persistent buffer data),
//!    each input's and output's persistent `TfLiteTensor` (recorded) and its quantization
//!    struct and zero-point array when quantized (recorded).
//!
//! Sizes are those of the x86-64 host build (`USE_TFLM_COMPRESSION`, `TF_LITE_STATIC_MEMORY`),
//! read off the tflite-micro headers with the compiler; the "recorded" groups are the
//! categories `RecordingMicroAllocator::PrintAllocations` itemises, with the same used
//! (alignment included) and requested bytes.

use crate::model::{ops, Model, Operator, Options, TensorType};

/// One category of `RecordingMicroAllocator`'s report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TailCategory {
    #[serde(rename = "type")]
    pub name: &'static str,
    /// Bytes the tail grew by, alignment included.
    pub bytes: u64,
    pub requested_bytes: u64,
    pub count: u64,
}

/// The tail of a model: its size, the itemised categories, operators the rules do not cover
/// (then `bytes` is a lower bound), and why TFLM cannot run the model at all (then no arena
/// size makes it run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    pub bytes: u64,
    pub categories: Vec<TailCategory>,
    pub not_modelled: Vec<String>,
    pub cannot_run: Vec<String>,
}

/// Custom operators TFLM's op resolver registers a kernel for (the signal library's and the
/// detection post-processing); any other custom operator makes `MicroInterpreter` fail with
/// "Failed to get registration from op code CUSTOM" (measured on person_detect_vela: the
/// package's build has no Ethos-U kernel).
fn tflm_registers_custom(name: &str) -> bool {
    name.starts_with("Signal") || name == "TFLite_Detection_PostProcess"
}

pub const EVAL_TENSORS: &str = "TfLiteEvalTensor data";
pub const PERSISTENT_TENSORS: &str = "Persistent TfLiteTensor data";
pub const QUANTIZATION: &str = "Persistent TfLiteTensor quantization data";
pub const PERSISTENT_BUFFERS: &str = "Persistent buffer data";
pub const VARIABLES: &str = "TfLiteTensor variable buffer data";
pub const NODES: &str = "NodeAndRegistration struct";

/// The build whose struct sizes the tail uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The x86-64 host build of the `tflite-micro` package: measured by the oracle.
    Host64,
    /// A 32-bit target (pointers of 4 bytes, 8-byte alignment of 64-bit values, as ARM's
    /// EABI): computed by the same rules with 32-bit struct sizes, not measured.
    Target32,
}

/// Sizes (bytes, alignment) of the structs the tail holds, per build. Read off the
/// tflite-micro headers with the compiler (`-DTF_LITE_STATIC_MEMORY -DUSE_TFLM_COMPRESSION`;
/// 32-bit: `-m32 -malign-double`), corrected where the measured package is newer than those
/// headers (see `op_cost`).
struct Sizes {
    pointer: u64,
    arena_allocator: (u64, u64),
    planner: (u64, u64),
    micro_allocator: (u64, u64),
    builtin_data_allocator: (u64, u64),
    subgraph_allocations: (u64, u64),
    eval_tensor: (u64, u64),
    node_and_registration: (u64, u64),
    scratch_handle: (u64, u64),
    tflite_tensor: (u64, u64),
    affine_quantization: (u64, u64),
}

const HOST64: Sizes = Sizes {
    pointer: 8,
    arena_allocator: (104, 8), // RecordingSingleArenaBufferAllocator
    planner: (72, 8),          // GreedyMemoryPlanner
    micro_allocator: (272, 8), // RecordingMicroAllocator
    builtin_data_allocator: (16, 8),
    subgraph_allocations: (24, 8),
    eval_tensor: (24, 8),
    node_and_registration: (64, 8),
    scratch_handle: (8, 8),
    tflite_tensor: (64, 8),
    affine_quantization: (24, 8),
};

const TARGET32: Sizes = Sizes {
    pointer: 4,
    arena_allocator: (52, 4),
    planner: (44, 4),
    micro_allocator: (136, 4),
    builtin_data_allocator: (8, 4),
    subgraph_allocations: (12, 4),
    eval_tensor: (12, 4),
    node_and_registration: (32, 4),
    scratch_handle: (4, 4),
    tflite_tensor: (40, 4),
    affine_quantization: (12, 4),
};

impl Target {
    fn sizes(self) -> &'static Sizes {
        match self {
            Target::Host64 => &HOST64,
            Target::Target32 => &TARGET32,
        }
    }

    pub fn pointer_bytes(self) -> u64 {
        self.sizes().pointer
    }

    /// Whether the real runtime was measured for this build (the oracle runs the host one).
    pub fn measured(self) -> bool {
        self == Target::Host64
    }
}

/// `MicroArenaBufferAlignment()`: kernels' and the interpreter's persistent buffers.
const BUFFER_ALIGNMENT: u64 = 16;

/// What one builtin operator allocates persistently, apart from what depends on its tensors.
struct OpCost {
    /// The builtin options struct its parser allocates (bytes, alignment).
    params: Option<(u64, u64)>,
    /// Its op data, allocated in `Init`.
    init: Option<u64>,
}

/// Builtin options and op data per operator. The measured package is newer than the headers
/// read for the sizes in two places, found by matching the oracle: FULLY_CONNECTED's options
/// are 32 bytes at 8 (headers: 16 at 4) and CONCATENATION's op data 80 bytes (headers: 40);
/// on 32 bits the growth is taken to be pointers (two and five), so half of it.
fn op_cost(builtin: i32, target: Target) -> Option<OpCost> {
    let c = |params: Option<(u64, u64)>, init: Option<u64>| Some(OpCost { params, init });
    let t32 = target == Target::Target32;
    // Op data that holds pointers or 64-bit values differs on 32 bits.
    let (conv, fc, softmax, concat, fc_params) = if t32 {
        (64, 56, 56, 44, (24, 4))
    } else {
        (80, 72, 80, 80, (32, 8))
    };
    match builtin {
        ops::ADD => c(Some((8, 4)), Some(60)),
        ops::CONV_2D => c(Some((28, 4)), Some(conv)),
        ops::DEPTHWISE_CONV_2D => c(Some((28, 4)), Some(conv)),
        ops::FULLY_CONNECTED => c(Some(fc_params), Some(fc)),
        ops::LOGISTIC => c(None, Some(16)),
        ops::MEAN | ops::SUM => c(Some((1, 1)), Some(44)),
        ops::MUL => c(Some((4, 4)), Some(36)),
        ops::SOFTMAX => c(Some((4, 4)), Some(softmax)),
        ops::STRIDED_SLICE => c(Some((24, 4)), Some(84)),
        ops::UNIDIRECTIONAL_SEQUENCE_LSTM => c(Some((16, 4)), Some(688)),
        ops::MAX_POOL_2D | ops::AVERAGE_POOL_2D => c(Some((40, 4)), Some(32)),
        ops::RESHAPE => c(Some((36, 4)), None),
        ops::HARD_SWISH => c(None, Some(20)),
        ops::CONCATENATION => c(Some((8, 4)), Some(concat)),
        ops::LESS => c(None, Some(32)),
        ops::RELU => c(None, Some(28)),
        ops::TANH => c(None, Some(16)),
        ops::WHILE => c(Some((8, 4)), Some(8)),
        ops::CAST => c(Some((8, 4)), None),
        ops::DIV => c(Some((4, 4)), Some(28)),
        ops::MAXIMUM | ops::MINIMUM => c(None, None),
        ops::PAD => c(None, Some(56)),
        ops::QUANTIZE => c(None, Some(32)),
        ops::DEQUANTIZE => c(None, Some(32)),
        ops::SVDF => c(Some((12, 4)), Some(36)),
        // TfLiteVarHandleParams: two string pointers. OpData: the resource id.
        ops::VAR_HANDLE => c(Some(if t32 { (8, 4) } else { (16, 8) }), Some(4)),
        // OpData: a scratch index (compressed input).
        ops::ASSIGN_VARIABLE => c(None, Some(4)),
        ops::READ_VARIABLE => c(None, None),
        // TfLiteCallOnceParams: the subgraph index. OpData: the index and has_run.
        ops::CALL_ONCE => c(Some((4, 4)), Some(8)),
        _ => op_cost_by_name(ops::name(builtin)?, t32),
    }
}

/// The operators `model::ops` has no constant for, by schema name. Options structs are
/// `flatbuffer_conversions.cc`'s `Parse*` allocations, sized with the compiler from
/// `builtin_op_data.h` (ints and bools only, so the same on 32 bits); op data is the kernel's
/// `Init` `AllocatePersistentBuffer(sizeof(OpData))`, its size as the oracle requests it
/// (one allocation per model of the operator sweep, `sample_models/ops`).
fn op_cost_by_name(name: &str, t32: bool) -> Option<OpCost> {
    let c = |params: Option<(u64, u64)>, init: Option<u64>| Some(OpCost { params, init });
    match name {
        // OpDataSub (sub.h): the same integer fields as ADD's op data minus one.
        "SUB" => c(Some((8, 4)), Some(52)),
        // PreluParams: offsets, two multipliers and shifts.
        "PRELU" => c(None, Some(28)),
        // No Init; Prepare copies the output's dims (prepare_buffers).
        "GATHER" => c(Some((8, 4)), None),
        "GATHER_ND" => c(None, None),
        // OpDataBatchMatmul: three pointers and three bools; Prepare adds the rest
        // (prepare_buffers).
        "BATCH_MATMUL" => c(Some((3, 1)), Some(if t32 { 16 } else { 32 })),
        "SPLIT" | "SPLIT_V" => c(Some((4, 4)), None),
        // PADV2 is pad.cc's kernel: PAD's op data.
        "PADV2" => c(None, Some(56)),
        // reduce.cc: MEAN's TfLiteReducerParams and OpDataReduce.
        "REDUCE_MAX" | "REDUCE_MIN" | "REDUCE_ALL" => c(Some((1, 1)), Some(44)),
        // No Init and nothing parsed (ParseFill, ParseZerosLike, ParseBroadcastArgs,
        // ParseDynamicUpdateSlice, ParseEmbeddingLookup); EMBEDDING_LOOKUP's op data comes in
        // Prepare (prepare_buffers).
        "FILL" | "ZEROS_LIKE" | "BROADCAST_ARGS" | "DYNAMIC_UPDATE_SLICE" | "EMBEDDING_LOOKUP" => {
            c(None, None)
        }
        // ParsePool's TfLitePoolParams (MAX_POOL_2D's); no Init (l2_pool_2d.cc).
        "L2_POOL_2D" => c(Some((40, 4)), None),
        // TfLiteIfParams: two subgraph indices; OpData the same two (if.cc).
        "IF" => c(Some((8, 4)), Some(8)),
        "TRANSPOSE" | "SLICE" | "EXP" | "LOG" | "SQRT" | "NEG" | "SIN" | "COS" | "SQUARE"
        | "CEIL" | "FLOOR" | "ROUND" | "LOGICAL_NOT" | "LOGICAL_AND" | "LOGICAL_OR"
        | "EXPAND_DIMS" | "BROADCAST_TO" | "REVERSE_V2" | "ADD_N" | "FLOOR_DIV" | "FLOOR_MOD"
        | "BATCH_TO_SPACE_ND" => c(None, None),
        // LOG_SOFTMAX allocates its op data in Prepare, for int8 only (prepare_buffers).
        "LOG_SOFTMAX" => c(None, None),
        // OpDataSquaredDifference: two arithmetic-params blocks of integers.
        "SQUARED_DIFFERENCE" => c(None, Some(112)),
        // elementwise.cc OpDataAbsRsqrt: four ints, a bool, two enums; only ABS and RSQRT
        // have an Init.
        "ABS" | "RSQRT" => c(None, Some(28)),
        // LeakyReluOpData: two multipliers, two shifts, two offsets.
        "LEAKY_RELU" => c(Some((4, 4)), Some(24)),
        // elu.cc OpData: an int8 lookup table of 256 entries, whatever the type.
        "ELU" => c(None, Some(256)),
        "PACK" | "UNPACK" => c(Some((8, 4)), None),
        "RESIZE_BILINEAR" | "RESIZE_NEAREST_NEIGHBOR" => c(Some((2, 1)), None),
        // No Init; Prepare copies the output's dims (prepare_buffers).
        "SPACE_TO_DEPTH" | "DEPTH_TO_SPACE" => c(Some((4, 4)), None),
        "ARG_MAX" | "ARG_MIN" => c(Some((4, 4)), None),
        // comparisons.cc OpData: ComparisonParams (a bool, offsets, multipliers, shifts).
        "EQUAL" | "NOT_EQUAL" | "GREATER" | "GREATER_EQUAL" | "LESS_EQUAL" => c(None, Some(32)),
        // OpData with ConvParams, scratch indices and two per-channel array pointers; the
        // arrays themselves come in Prepare (prepare_buffers).
        "TRANSPOSE_CONV" => c(Some((20, 4)), Some(if t32 { 80 } else { 88 })),
        // L2NormalizationParams: one int.
        "L2_NORMALIZATION" => c(Some((4, 4)), Some(4)),
        "CUMSUM" => c(Some((2, 1)), None),
        // MirrorPad OpData: five ints.
        "MIRROR_PAD" => c(Some((4, 4)), Some(20)),
        // Relu6OpData: the quantized bounds (int8 and int16 pairs), 8 bytes.
        "RELU6" => c(None, Some(8)),
        // select.cc OpData: one bool (requires_broadcast); TFLM registers SELECT_V2 only.
        "SELECT_V2" => c(None, Some(1)),
        // SpaceToBatchParams: one int (output offset).
        "SPACE_TO_BATCH_ND" => c(None, Some(4)),
        "SHAPE" => c(Some((4, 4)), None),
        "SQUEEZE" => c(Some((36, 4)), None),
        _ => None,
    }
}

/// What the audio front end's custom operators (tflite-micro `signal/micro/kernels`) allocate
/// in `Init`, from their options; `None` for a custom operator the rules do not cover.
fn signal_init(model: &Model, op: &Operator, target: Target) -> Option<Vec<u64>> {
    use super::custom_options::int;
    let channels = || int(op, "num_channels").map(|n| n.max(0) as u64);
    let ptr = target.pointer_bytes();
    Some(match model.op_name(op).as_str() {
        "SignalWindow" | "SignalEnergy" | "SignalFilterBankLog" => vec![8],
        "SignalPCAN" => vec![4],
        "SignalFftAutoScale" | "SignalFilterBankSquareRoot" => vec![],
        // Params (five ints, the work area, the scratch index, the state), then the
        // kiss_fftr state for fft_length.
        "SignalRfft" => {
            let n = int(op, "fft_length")?.max(0) as u64;
            let params = if ptr == 8 { 48 } else { 32 };
            vec![params, kiss_fftr_bytes(n, rfft_complex_bytes(op)?, ptr)]
        }
        // Params (a FilterbankConfig: an int, five pointers, two ints; the work area
        // pointer), then the work area of 64-bit values.
        "SignalFilterBank" => vec![if ptr == 8 { 64 } else { 36 }, 8 * (channels()? + 1)],
        // Params (a SpectralSubtractionConfig of nine ints, the estimate and its size), then
        // the estimate.
        "SignalFilterBankSpectralSubtraction" => {
            vec![if ptr == 8 { 56 } else { 44 }, 4 * channels()?]
        }
        _ => return None,
    })
}

/// Bytes of one complex value of SignalRfft's element type (options `T`, a TensorType).
pub(crate) fn rfft_complex_bytes(op: &Operator) -> Option<u64> {
    match super::custom_options::int(op, "T")? {
        7 => Some(4),     // int16
        2 | 0 => Some(8), // int32, float32
        _ => None,
    }
}

/// `kiss_fftr_alloc`'s memory for a real FFT of `n` points: its state (three pointers), the
/// complex FFT of `n / 2` points (`kiss_fft_state`: two ints, 64 factors, one twiddle; then
/// `n / 2 − 1` more twiddles), and `3/4 n` super-twiddles and scratch values.
fn kiss_fftr_bytes(n: u64, cpx: u64, pointer: u64) -> u64 {
    let half = n / 2;
    let fft_state = crate::analysis::round_up(4 + 4 + 64 * 4 + cpx, 4);
    let sub = fft_state + cpx * half.saturating_sub(1);
    3 * pointer + sub + cpx * (half * 3 / 2)
}

/// The arena's tail as it grows, with the recorded categories.
struct TailArena {
    top: u64,
    categories: Vec<TailCategory>,
}

impl TailArena {
    fn alloc(&mut self, (size, align): (u64, u64)) {
        self.top = crate::analysis::round_up(self.top + size, align);
    }

    /// Allocations recorded together as one category entry (`count` items).
    fn recorded(&mut self, name: &'static str, items: &[(u64, u64)]) {
        let before = self.top;
        for &item in items {
            self.alloc(item);
        }
        let requested: u64 = items.iter().map(|i| i.0).sum();
        self.add(name, self.top - before, requested, items.len() as u64);
    }

    fn add(&mut self, name: &'static str, bytes: u64, requested: u64, count: u64) {
        match self.categories.iter_mut().find(|c| c.name == name) {
            Some(c) => {
                c.bytes += bytes;
                c.requested_bytes += requested;
                c.count += count;
            }
            None => self.categories.push(TailCategory {
                name,
                bytes,
                requested_bytes: requested,
                count,
            }),
        }
    }

    /// One `AllocatePersistentBuffer` of a kernel or the interpreter (recorded, 16-aligned).
    fn buffer(&mut self, bytes: u64) {
        self.recorded(PERSISTENT_BUFFERS, &[(bytes, BUFFER_ALIGNMENT)]);
    }
}

fn tensor_of(model: &Model, sg: usize, t: i32) -> Option<&crate::model::Tensor> {
    model.subgraphs[sg].tensors.get(usize::try_from(t).ok()?)
}

/// What a kernel's `Prepare` allocates persistently, from its tensors.
fn prepare_buffers(model: &Model, sg: usize, op: &Operator, target: Target) -> Vec<u64> {
    let input = op.inputs.first().and_then(|&t| tensor_of(model, sg, t));
    let filter = op.inputs.get(1).and_then(|&t| tensor_of(model, sg, t));
    let output = op.outputs.first().and_then(|&t| tensor_of(model, sg, t));
    let dim = |t: Option<&crate::model::Tensor>, k: usize| {
        t.and_then(|t| t.shape.get(k))
            .map_or(0, |&d| d.max(0) as u64)
    };
    match op.builtin {
        // Per-channel output multipliers and shifts, whatever the types (conv_common.cc).
        ops::CONV_2D => vec![4 * dim(filter, 0); 2],
        ops::DEPTHWISE_CONV_2D => vec![4 * dim(filter, 3); 2],
        // Only for a per-channel quantized filter (fully_connected_common.cc).
        ops::FULLY_CONNECTED => match filter.map_or(0, |f| f.quant_channels) {
            n if n > 1 => vec![4 * n as u64; 2],
            _ => vec![],
        },
        // Two int16 lookup tables of 513 entries for int16 input (softmax_common.cc).
        ops::SOFTMAX if input.is_some_and(|t| t.dtype == TensorType::Int16) => vec![1026; 2],
        _ => match ops::name(op.builtin) {
            // CreateWritableTensorDimsWithCopy (kernel_util.cc): the output's dims as a
            // TfLiteIntArray (an int and one int per dimension).
            Some("GATHER" | "GATHER_ND" | "SPACE_TO_DEPTH" | "DEPTH_TO_SPACE" | "L2_POOL_2D") => {
                vec![output.map_or(4, int_array_bytes)]
            }
            Some("BATCH_MATMUL") => batch_matmul_buffers(model, sg, op, target).unwrap_or_default(),
            // Per-output-channel multipliers and shifts, whatever the types; the filter
            // (input 1) is [out_ch, h, w, in_ch] (transpose_conv.cc).
            Some("TRANSPOSE_CONV") => vec![4 * dim(filter, 0); 2],
            // LogSoftmaxOpData (five ints, two size_t), int8 only (log_softmax.cc).
            // OpData: a float scale and a size_t column count, allocated in Prepare
            // (embedding_lookup.cc CalculateOpData).
            // reshape_common.cc: a -1 in the output's dims is stretched in a writable copy.
            Some("RESHAPE") if output.is_some_and(|t| t.shape.contains(&-1)) => {
                vec![output.map_or(4, int_array_bytes)]
            }
            // after the output's dims copy.
            Some("EMBEDDING_LOOKUP") => vec![
                output.map_or(4, int_array_bytes),
                if target == Target::Target32 { 8 } else { 16 },
            ],
            Some("LOG_SOFTMAX") if input.is_some_and(|t| t.dtype == TensorType::Int8) => {
                vec![if target == Target::Target32 { 28 } else { 40 }]
            }
            _ => vec![],
        },
    }
}

/// Every operator of every subgraph in order, with its subgraph index.
fn all_ops_of(model: &Model) -> impl Iterator<Item = (usize, &Operator)> {
    model
        .subgraphs
        .iter()
        .enumerate()
        .flat_map(|(s, sg)| sg.operators.iter().map(move |o| (s, o)))
}

/// `TfLiteIntArrayGetSizeInBytes` for a tensor's dims: the size, then one int per dimension.
fn int_array_bytes(t: &crate::model::Tensor) -> u64 {
    4 + 4 * t.shape.len() as u64
}

/// BATCH_MATMUL's `adj_x` and `adj_y`, from the shapes (the options table is not parsed):
/// the output is `[.., lhs rows, rhs columns]`, the rows taken from the lhs's second-last
/// dimension unless `adj_x`, the columns from the rhs's last unless `adj_y`. `None` when a
/// square operand leaves it open.
fn batch_matmul_adjoints(model: &Model, sg: usize, op: &Operator) -> Option<(bool, bool)> {
    let t = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, sg, t));
    let last2 = |t: &crate::model::Tensor| -> Option<(i32, i32)> {
        let n = t.shape.len();
        (n >= 2).then(|| (t.shape[n - 2], t.shape[n - 1]))
    };
    let (lhs, rhs) = (last2(t(0)?)?, last2(t(1)?)?);
    let out = last2(op.outputs.first().and_then(|&o| tensor_of(model, sg, o))?)?;
    let pick = |(a, b): (i32, i32), want: i32, plain_is_a: bool| -> Option<bool> {
        let (plain, adj) = if plain_is_a { (a, b) } else { (b, a) };
        match (plain == want, adj == want) {
            (true, false) => Some(false),
            (false, true) => Some(true),
            _ => None,
        }
    };
    Some((pick(lhs, out.0, true)?, pick(rhs, out.1, false)?))
}

/// BATCH_MATMUL's Prepare (batch_matmul.cc): the quantization op data for int8 and int16
/// (seven int32), a transposed copy of the lhs when `adj_x` and of the rhs unless `adj_y`
/// (each a `TfLiteEvalTensor`, its dims and its data), then the output's writable dims.
fn batch_matmul_buffers(
    model: &Model,
    sg: usize,
    op: &Operator,
    target: Target,
) -> Option<Vec<u64>> {
    let (adj_x, adj_y) = batch_matmul_adjoints(model, sg, op)?;
    let t = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, sg, t));
    let (lhs, rhs) = (t(0)?, t(1)?);
    let output = op.outputs.first().and_then(|&o| tensor_of(model, sg, o))?;
    let mut v = Vec::new();
    if matches!(lhs.dtype, TensorType::Int8 | TensorType::Int16) {
        v.push(28);
    }
    let transposed = |t: &crate::model::Tensor| {
        [
            target.sizes().eval_tensor.0,
            int_array_bytes(t),
            t.bytes.unwrap_or(0),
        ]
    };
    if adj_x {
        v.extend(transposed(lhs));
    }
    if !adj_y {
        v.extend(transposed(rhs));
    }
    v.push(int_array_bytes(output));
    Some(v)
}

/// The tail TFLM's Python interpreter allocates for `model` with `scratch_requests` kernel
/// scratch requests, on the x86-64 host build.
pub fn tail(model: &Model, scratch_requests: usize) -> Tail {
    tail_for(model, scratch_requests, Target::Host64)
}

/// Why TFLM cannot run node `op` of subgraph `s`, when it cannot: no kernel registered (a
/// builtin: "Didn't find op for builtin opcode 'DENSIFY'", measured; a custom operator other
/// than the signal library's), DEQUANTIZE of float16 (dequantize_common.cc takes int8, int16
/// and uint8), dynamic-range quantisation (float input with integer weights: "Hybrid models
/// are not supported on TFLite Micro"), or a type its kernel refuses ([`type_refusal`]).
pub fn refusal(model: &Model, s: usize, op: &Operator) -> Option<String> {
    let name = model.op_name(op);
    if op.builtin == ops::CUSTOM {
        return (!tflm_registers_custom(&name))
            .then(|| "custom operator: TFLM registers no kernel for it".to_string());
    }
    if !super::catalogue::Runtime::Tflm.registers(&name) {
        return Some("TFLM registers no kernel for it".to_string());
    }
    let dtype = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| tensor_of(model, s, t))
            .map(|t| t.dtype)
    };
    if op.builtin == ops::DEQUANTIZE && dtype(0) == Some(TensorType::Float16) {
        return Some("float16 input, which TFLM's kernel refuses".to_string());
    }
    if matches!(
        op.builtin,
        ops::FULLY_CONNECTED | ops::CONV_2D | ops::DEPTHWISE_CONV_2D
    ) && dtype(0) == Some(TensorType::Float32)
        && matches!(dtype(1), Some(TensorType::Int8 | TensorType::Uint8))
    {
        return Some(
            "float input with integer weights (dynamic-range quantisation), which TFLM's kernels refuse"
                .to_string(),
        );
    }
    type_refusal(model, s, op).map(str::to_string)
}

/// Types a registered TFLM kernel refuses in Prepare, as its source checks them and the
/// oracle showed (the sweep's exp_int8 / exp_int16, gather_int16, gather_nd_int16,
/// padv2_int16, fill_dynshape_f32, dynamic_reshape_f32).
fn type_refusal(model: &Model, s: usize, op: &Operator) -> Option<&'static str> {
    let dtype = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| tensor_of(model, s, t))
            .map(|t| t.dtype)
    };
    match ops::name(op.builtin)? {
        // exp.cc: TF_LITE_ENSURE_TYPES_EQ(input->type, kTfLiteFloat32).
        "EXP" if dtype(0) != Some(TensorType::Float32) => Some("EXP takes float32 input only"),
        // gather.cc: float32 and int8 data only.
        "GATHER" if !matches!(dtype(0), Some(TensorType::Float32 | TensorType::Int8)) => {
            Some("GATHER takes float32 or int8 data only")
        }
        // gather_nd.cc: float32 and int8 params only.
        "GATHER_ND" if !matches!(dtype(0), Some(TensorType::Float32 | TensorType::Int8)) => {
            Some("GATHER_ND takes float32 or int8 params only")
        }
        // fill.cc: "Non-constant >dims< tensor is not supported".
        "FILL"
            if !op
                .inputs
                .first()
                .and_then(|&t| tensor_of(model, s, t))
                .is_some_and(|t| t.is_constant) =>
        {
            Some("FILL's dims must be a constant")
        }
        // reshape_common.cc: the output's dims in the file (one -1 stretched, a legacy [0]
        // a scalar) must hold as many elements as the input.
        "RESHAPE" => {
            let t = |k: usize| op.outputs.get(k).and_then(|&t| tensor_of(model, s, t));
            let input = op.inputs.first().and_then(|&t| tensor_of(model, s, t))?;
            let output = t(0)?;
            let elements = |shape: &[i32]| shape.iter().map(|&d| i64::from(d)).product::<i64>();
            let legacy_scalar = op.inputs.len() == 1 && output.shape == [0];
            let stretch = output.shape.contains(&-1);
            let inputs = elements(&input.shape);
            let outputs = if legacy_scalar {
                1
            } else {
                elements(&output.shape)
            };
            (!stretch && inputs != outputs)
                .then_some("RESHAPE's output shape in the file does not hold its input's elements")
        }
        // pad_common.cc: the constant value's type must be the input's.
        "PADV2" if op.inputs.get(2).is_some_and(|&t| t >= 0) && dtype(2) != dtype(0) => {
            Some("PADV2's constant value is not of the input's type")
        }
        _ => None,
    }
}

/// The distinct `shared_name`s of the model's VAR_HANDLE nodes, in first-seen order (a
/// VAR_HANDLE without options has the empty name).
fn variable_names(model: &Model) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (_, op) in all_ops_of(model).filter(|(_, o)| o.builtin == ops::VAR_HANDLE) {
        let name = shared_name(op);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

fn shared_name(op: &Operator) -> String {
    match &op.options {
        Options::VarHandle { shared_name } => shared_name.clone(),
        _ => String::new(),
    }
}

/// The `shared_name` of the variable whose handle is tensor `handle` of subgraph `s`: the
/// VAR_HANDLE node of that subgraph writing it.
fn variable_of_handle(model: &Model, s: usize, handle: i32) -> Option<String> {
    model.subgraphs.get(s)?.operators.iter().find_map(|op| {
        (op.builtin == ops::VAR_HANDLE && op.outputs.first() == Some(&handle))
            .then(|| shared_name(op))
    })
}

/// The tail on `target` (the same allocations, that build's struct sizes).
pub fn tail_for(model: &Model, scratch_requests: usize, target: Target) -> Tail {
    let z = target.sizes();
    let mut a = TailArena {
        top: 0,
        categories: Vec::new(),
    };
    let mut not_modelled = Vec::new();
    let mut cannot_run = Vec::new();
    a.alloc(z.arena_allocator);
    a.alloc(z.planner);
    a.alloc(z.micro_allocator);
    // The Python interpreter's MicroResourceVariables (interpreter_wrapper.cc), when the
    // model has resource variables: the object (a pointer, two ints), then one
    // MicroResourceVariable (three pointers, a size_t, an int8) per distinct VAR_HANDLE
    // `shared_name` (runtime.py `count_resource_variables`), in one allocation.
    let names = variable_names(model);
    if !names.is_empty() {
        let (object, entry) = if target == Target::Target32 {
            (12, 20)
        } else {
            (16, 40)
        };
        a.buffer(object);
        a.buffer(entry * names.len() as u64);
    }
    // StartModelAllocation.
    a.alloc(z.builtin_data_allocator);
    a.alloc((
        z.subgraph_allocations.0 * model.subgraphs.len() as u64,
        z.subgraph_allocations.1,
    ));
    let per_subgraph = |item: (u64, u64), count: &dyn Fn(usize) -> usize| -> Vec<(u64, u64)> {
        (0..model.subgraphs.len())
            .map(|s| (item.0 * count(s) as u64, item.1))
            .collect()
    };
    let eval = per_subgraph(z.eval_tensor, &|s| model.subgraphs[s].tensors.len());
    let before = a.top;
    eval.iter().for_each(|&e| a.alloc(e));
    let count = model.tensor_count() as u64;
    a.add(EVAL_TENSORS, a.top - before, count * z.eval_tensor.0, count);
    let nodes = per_subgraph(z.node_and_registration, &|s| {
        model.subgraphs[s].operators.len()
    });
    let before = a.top;
    nodes.iter().for_each(|&n| a.alloc(n));
    let count = model.operator_count() as u64;
    a.add(
        NODES,
        a.top - before,
        count * z.node_and_registration.0,
        count,
    );
    // Builtin options, every operator of every subgraph in order (custom operators have none).
    let all_ops = || all_ops_of(model);
    for (s, op) in all_ops() {
        if let Some(why) = refusal(model, s, op) {
            cannot_run.push(format!("{} (subgraph {s}): {why}", model.op_name(op)));
        }
        if op.builtin == ops::CUSTOM {
            if tflm_registers_custom(&model.op_name(op)) && signal_init(model, op, target).is_none()
            {
                not_modelled.push(format!("{} (subgraph {s})", model.op_name(op)));
            }
            continue;
        }
        if ops::name(op.builtin) == Some("BATCH_MATMUL")
            && batch_matmul_adjoints(model, s, op).is_none()
        {
            not_modelled.push(format!(
                "BATCH_MATMUL (subgraph {s}): adj_x / adj_y not decidable from the shapes"
            ));
        }
        match op_cost(op.builtin, target) {
            Some(cost) => {
                if let Some(p) = cost.params {
                    a.alloc(p);
                }
            }
            None => not_modelled.push(format!("{} (subgraph {s})", model.op_name(op))),
        }
    }
    // Init, then Prepare.
    for (_, op) in all_ops() {
        if op.builtin == ops::CUSTOM {
            for bytes in signal_init(model, op, target).unwrap_or_default() {
                a.buffer(bytes);
            }
        } else if let Some(bytes) = op_cost(op.builtin, target).and_then(|c| c.init) {
            a.buffer(bytes);
        }
    }
    for (s, op) in all_ops() {
        for bytes in prepare_buffers(model, s, op, target) {
            a.buffer(bytes);
        }
    }
    // ASSIGN_VARIABLE's Prepare allocates a variable's buffer the first time the variable is
    // assigned, of the assigned value's bytes (MicroResourceVariables::Allocate): per
    // variable, the first ASSIGN_VARIABLE in preparation order (subgraphs in order).
    let mut allocated: Vec<String> = Vec::new();
    for (s, op) in all_ops().filter(|(_, o)| o.builtin == ops::ASSIGN_VARIABLE) {
        let Some(name) = op
            .inputs
            .first()
            .and_then(|&h| variable_of_handle(model, s, h))
        else {
            not_modelled.push(format!(
                "ASSIGN_VARIABLE (subgraph {s}): its resource handle is not written by a VAR_HANDLE of the subgraph"
            ));
            continue;
        };
        if allocated.contains(&name) {
            continue;
        }
        allocated.push(name);
        if let Some(t) = op.inputs.get(1).and_then(|&t| tensor_of(model, s, t)) {
            a.buffer(t.bytes.unwrap_or(0));
        }
    }
    // FinishModelAllocation: scratch handles, then variables.
    if scratch_requests > 0 {
        a.alloc((
            z.scratch_handle.0 * scratch_requests as u64,
            z.scratch_handle.1,
        ));
    }
    let variables: Vec<(u64, u64)> = model
        .subgraphs
        .iter()
        .flat_map(|sg| &sg.tensors)
        .filter(|t| t.is_variable)
        .map(|t| (t.bytes.unwrap_or(0), BUFFER_ALIGNMENT))
        .collect();
    if !variables.is_empty() {
        a.recorded(VARIABLES, &variables);
    }
    // The interpreter's inputs and outputs of subgraph 0.
    if let Some(sg) = model.subgraphs.first() {
        for list in [&sg.inputs, &sg.outputs] {
            a.buffer(z.pointer * list.len() as u64);
            for &t in list {
                a.recorded(PERSISTENT_TENSORS, &[z.tflite_tensor]);
                let channels = sg.tensors.get(t).map_or(0, |t| t.quant_channels);
                if channels > 0 {
                    a.recorded(
                        QUANTIZATION,
                        &[z.affine_quantization, (4 + 4 * channels as u64, 4)],
                    );
                }
            }
        }
    }
    cannot_run.dedup();
    Tail {
        bytes: a.top,
        categories: a.categories,
        not_modelled,
        cannot_run,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{OperatorCode, Options, Subgraph, Tensor};

    pub(crate) fn tensor(shape: &[i32], dtype: TensorType, constant: bool) -> Tensor {
        let elements: u64 = shape.iter().map(|&d| d as u64).product();
        Tensor {
            name: String::new(),
            shape: shape.to_vec(),
            shape_signature: None,
            dtype,
            buffer: u32::from(constant),
            is_variable: false,
            is_constant: constant,
            bytes: dtype.bytes_for(elements).and_then(Result::ok),
            quant_channels: 0,
        }
    }

    /// One operator of a test model: builtin code, custom name (empty for a builtin),
    /// inputs, outputs, custom options.
    pub(crate) type TestOp<'a> = (i32, &'a str, Vec<i32>, Vec<i32>, Vec<u8>);

    /// A one-subgraph model running `ops` over `tensors`, with the given graph inputs and
    /// outputs.
    pub(crate) fn model(
        tensors: Vec<Tensor>,
        ops: Vec<TestOp<'_>>,
        inputs: Vec<usize>,
        outputs: Vec<usize>,
    ) -> Model {
        let operator_codes = ops
            .iter()
            .map(|(b, custom, ..)| OperatorCode {
                builtin: *b,
                custom: (!custom.is_empty()).then(|| custom.to_string()),
                version: 1,
            })
            .collect();
        let operators = ops
            .into_iter()
            .enumerate()
            .map(
                |(i, (builtin, _, inputs, outputs, custom_options))| Operator {
                    opcode_index: i as u32,
                    builtin,
                    inputs,
                    outputs,
                    intermediates: vec![],
                    options: Options::None,
                    custom_options,
                },
            )
            .collect();
        Model {
            operator_codes,
            subgraphs: vec![Subgraph {
                tensors,
                inputs,
                outputs,
                operators,
                ..Subgraph::default()
            }],
            ..Model::default()
        }
    }

    #[test]
    fn one_float_fully_connected_layer_by_hand() {
        // Input [1, 4], weights [2, 4], bias [2] (constants), output [1, 2]; one FC.
        let m = model(
            vec![
                tensor(&[1, 4], TensorType::Float32, false),
                tensor(&[2, 4], TensorType::Float32, true),
                tensor(&[2], TensorType::Float32, true),
                tensor(&[1, 2], TensorType::Float32, false),
            ],
            vec![(ops::FULLY_CONNECTED, "", vec![0, 1, 2], vec![3], vec![])],
            vec![0],
            vec![3],
        );
        let t = tail(&m, 0);
        // Allocator objects 104 + 72 + 272 = 448; builtin-data allocator 16 -> 464;
        // SubgraphAllocations 24 -> 488; 4 eval tensors 96 -> 584; 1 node 64 -> 648;
        // FC options 32 (8-aligned) -> 680; FC op data 72 at 16 -> 752; input pointer array
        // 8 at 16 -> 768; its TfLiteTensor 64 -> 832; output array -> 848; its tensor -> 912.
        assert_eq!(t.bytes, 912);
        let cat = |name| {
            let c = t.categories.iter().find(|c| c.name == name).unwrap();
            (c.bytes, c.requested_bytes, c.count)
        };
        assert_eq!(cat(EVAL_TENSORS), (96, 96, 4));
        assert_eq!(cat(NODES), (64, 64, 1));
        assert_eq!(cat(PERSISTENT_BUFFERS), (104, 88, 3));
        assert_eq!(cat(PERSISTENT_TENSORS), (128, 128, 2));
        assert!(t.not_modelled.is_empty());
    }

    #[test]
    fn kiss_fftr_state_for_512_int16_points() {
        // 256-point complex FFT: state 4 + 4 + 256 + 4 = 268, plus 255 twiddles of 4 bytes =
        // 1288; the real FFT adds its 24-byte state and 384 values: 2848.
        assert_eq!(kiss_fftr_bytes(512, 4, 8), 2848);
    }

    #[test]
    fn an_operator_without_rules_is_reported() {
        let m = model(
            vec![
                tensor(&[4], TensorType::Float32, false),
                tensor(&[4], TensorType::Float32, false),
            ],
            vec![(ops::BITCAST, "", vec![0], vec![1], vec![])],
            vec![0],
            vec![1],
        );
        assert_eq!(
            tail(&m, 0).not_modelled,
            vec!["BITCAST (subgraph 0)".to_string()]
        );
    }

    /// The tail and its persistent-buffer category (used, requested, count) of a sweep model
    /// whose kernels request `scratch` scratch buffers.
    fn sweep_with(name: &str, scratch: usize) -> (Tail, (u64, u64, u64)) {
        let path = format!(
            "{}/sample_models/ops/{name}.tflite",
            env!("CARGO_MANIFEST_DIR")
        );
        let m = Model::from_path(std::path::Path::new(&path)).unwrap();
        let t = tail(&m, scratch);
        let c = t
            .categories
            .iter()
            .find(|c| c.name == PERSISTENT_BUFFERS)
            .map(|c| (c.bytes, c.requested_bytes, c.count))
            .unwrap();
        (t, c)
    }

    fn sweep(name: &str) -> (Tail, (u64, u64, u64)) {
        sweep_with(name, 0)
    }

    #[test]
    fn sub_has_options_and_op_data_like_add() {
        // Two [1, 8, 16] float inputs, one output; the oracle (sub_f32.tflm.json): tail 912,
        // persistent buffers 88 used / 76 requested / 3: the two pointer arrays (16 + 8)
        // and OpDataSub (52).
        let m = model(
            vec![
                tensor(&[1, 8, 16], TensorType::Float32, false),
                tensor(&[1, 8, 16], TensorType::Float32, false),
                tensor(&[1, 8, 16], TensorType::Float32, false),
            ],
            vec![(ops::code("SUB").unwrap(), "", vec![0, 1], vec![2], vec![])],
            vec![0, 1],
            vec![2],
        );
        let t = tail(&m, 0);
        assert_eq!(t.bytes, 912);
        let pb = t
            .categories
            .iter()
            .find(|c| c.name == PERSISTENT_BUFFERS)
            .unwrap();
        assert_eq!((pb.bytes, pb.requested_bytes, pb.count), (88, 76, 3));
        assert!(t.not_modelled.is_empty());
    }

    #[test]
    fn batch_matmul_keeps_a_transposed_copy_of_the_rhs_unless_adj_y() {
        // batch_matmul_f32: op data 32, the transposed rhs (eval tensor 24, dims 20, 512
        // floats), the output's dims 20; the oracle: tail 3040, buffers 2221 / 2168 / 7.
        let (t, pb) = sweep("batch_matmul_f32");
        assert_eq!((t.bytes, pb), (3040, (2221, 2168, 7)));
        // adj_y int8: op data 32, quantization 28, output dims 20; oracle 1056, 141/104/5.
        let (t, pb) = sweep("batch_matmul_adj_y_int8");
        assert_eq!((t.bytes, pb), (1056, (141, 104, 5)));
        assert!(t.not_modelled.is_empty());
    }

    #[test]
    fn batch_matmul_with_square_operands_is_said_not_modelled() {
        // [4, 4] x [4, 4] -> [4, 4]: adj_x / adj_y cannot be told from the shapes.
        let m = model(
            vec![
                tensor(&[4, 4], TensorType::Float32, false),
                tensor(&[4, 4], TensorType::Float32, false),
                tensor(&[4, 4], TensorType::Float32, false),
            ],
            vec![(
                ops::code("BATCH_MATMUL").unwrap(),
                "",
                vec![0, 1],
                vec![2],
                vec![],
            )],
            vec![0, 1],
            vec![2],
        );
        assert_eq!(tail(&m, 0).not_modelled.len(), 1);
    }

    #[test]
    fn prepare_allocations_that_depend_on_tensors() {
        // TRANSPOSE_CONV: op data 88 and 4 output channels' multipliers and shifts (16 + 16);
        // int8 requests one scratch buffer, whose 8-byte handle takes the padding the oracle
        // would otherwise count against the buffers.
        let (t, pb) = sweep_with("transpose_conv_int8", 1);
        assert_eq!((t.bytes, pb), (1040, (148, 136, 5)));
        // LOG_SOFTMAX: LogSoftmaxOpData (40) in Prepare, for int8 only.
        assert_eq!(sweep("log_softmax_int8").1, (72, 56, 3));
        assert_eq!(sweep("log_softmax_f32").1, (24, 16, 2));
        // GATHER: no Init; the output's rank-3 dims copied (16).
        let (t, pb) = sweep("gather_f32");
        assert_eq!((t.bytes, pb), (816, (56, 32, 3)));
    }

    #[test]
    fn resource_variables_are_costed_per_shared_name() {
        // var_handle_f32: MicroResourceVariables (16) and one entry (40) for its one shared
        // name, CALL_ONCE, VAR_HANDLE and ASSIGN_VARIABLE op data, the variable's 512 bytes;
        // oracle 2016, 408 / 316 / 13.
        let (t, pb) = sweep("var_handle_f32");
        assert_eq!((t.bytes, pb), (2016, (408, 316, 13)));
        assert!(t.not_modelled.is_empty(), "{:?}", t.not_modelled);
    }
}
