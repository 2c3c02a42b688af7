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
//! The "recorded" groups are the categories `RecordingMicroAllocator::PrintAllocations`
//! itemises, with the same used (alignment included) and requested bytes.
//!
//! Per [`Target`]: the x86-64 host build of the pip wheel (`USE_TFLM_COMPRESSION`,
//! `TF_LITE_STATIC_MEMORY`; struct sizes read off the headers with the compiler, matched with
//! the wheel), and three Cortex-M builds of the tflite-micro source snapshot 90b983c2 measured
//! under qemu-arm (`../shared/tools/tflm_cortex_m`, README §6–7): the reference kernels, and
//! CMSIS-NN on a core with DSP and on a Cortex-M55 with MVE. The Cortex-M rules: GCC's
//! bare-metal ABI (4-byte pointers, 1-byte enums, so TfLiteTensor is 32 bytes and the
//! all-enum options structs 1 to 5), no compression, the same allocation order; each kernel's
//! op data as the per-node records of that build request it; CMSIS-NN's persistent data (no
//! per-channel arrays for float convolutions, kernel sums of FULLY_CONNECTED and SVDF on MVE
//! and of the integer LSTM) and its scratch requests ([`cmsis_scratch`]), whose number sets
//! the scratch-handle array (`tflm::scratch_request_count_for`). The snapshot is older than the wheel:
//! its TfLiteFullyConnectedParams is 16 bytes at 4 on x86-64 (5 at 1 on Cortex-M) where the
//! wheel's is 32 at 8, so a newer TFLM on Cortex-M may hold more per FULLY_CONNECTED node.

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
    super::catalogue::tflm_registers_custom(name)
}

pub const EVAL_TENSORS: &str = "TfLiteEvalTensor data";
pub const PERSISTENT_TENSORS: &str = "Persistent TfLiteTensor data";
pub const QUANTIZATION: &str = "Persistent TfLiteTensor quantization data";
pub const PERSISTENT_BUFFERS: &str = "Persistent buffer data";
pub const VARIABLES: &str = "TfLiteTensor variable buffer data";
pub const NODES: &str = "NodeAndRegistration struct";

/// The TFLM build a tail is computed for: its struct sizes, its kernels' op data and what
/// those kernels allocate. Every build here was measured (the x86-64 one by the pip package's
/// oracle, the Cortex-M ones under qemu-arm: `../shared/tools/tflm_cortex_m`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// The x86-64 host build of the `tflite-micro` pip package.
    Host64,
    /// A 32-bit Cortex-M with TFLM's reference kernels, built by arm-none-eabi GCC for the
    /// bare-metal AAPCS (4-byte pointers, 1-byte enums); measured as `cm3-ref` (a Cortex-M4
    /// with the reference kernels allocates the same).
    CortexM,
    /// A Cortex-M with the DSP extension (M4, M7, M33) and the CMSIS-NN kernels
    /// (`OPTIMIZED_KERNEL_DIR=cmsis_nn`, `KERNELS_OPTIMIZED_FOR_SPEED`); measured as
    /// `cm4-cmsisnn`.
    CortexMCmsisNn,
    /// A Cortex-M55 (MVE) with the CMSIS-NN kernels; measured as `cm55-cmsisnn`.
    CortexM55CmsisNn,
}

/// The extension CMSIS-NN's kernels are compiled for (`arm_nn_math_types.h`: `ARM_MATH_DSP`,
/// `ARM_MATH_MVEI`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmsisIsa {
    Dsp,
    Mve,
}

/// Sizes (bytes, alignment) of the structs the tail holds, per build. x86-64: read off the
/// tflite-micro headers with the compiler (`-DTF_LITE_STATIC_MEMORY -DUSE_TFLM_COMPRESSION`)
/// and matched with the wheel; Cortex-M: `struct_sizes-cm3-ref.json` (the oracle's sizeof
/// table, the same on the CMSIS-NN builds).
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
    /// The Python interpreter's `MicroResourceVariables` object, and one
    /// `MicroResourceVariable` (three pointers, a size_t, an int8).
    resource_variables: (u64, u64),
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
    resource_variables: (16, 40),
};

/// arm-none-eabi GCC 12.2, `-fshort-enums` being the bare-metal default: TfLiteTensor is 32
/// bytes (40 with 4-byte enums). No `USE_TFLM_COMPRESSION`: SubgraphAllocations holds two
/// pointers.
const CORTEX_M: Sizes = Sizes {
    pointer: 4,
    arena_allocator: (52, 4),
    planner: (44, 4),
    micro_allocator: (124, 4),
    builtin_data_allocator: (8, 4),
    subgraph_allocations: (8, 4),
    eval_tensor: (12, 4),
    node_and_registration: (32, 4),
    scratch_handle: (4, 4),
    tflite_tensor: (32, 4),
    affine_quantization: (12, 4),
    resource_variables: (12, 20),
};

impl Target {
    pub const ALL: [Target; 4] = [
        Target::Host64,
        Target::CortexM,
        Target::CortexMCmsisNn,
        Target::CortexM55CmsisNn,
    ];

    /// The target's name on the command line and in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Target::Host64 => "x86-64",
            Target::CortexM => "cortex-m",
            Target::CortexMCmsisNn => "cortex-m-cmsis-nn",
            Target::CortexM55CmsisNn => "cortex-m55-cmsis-nn",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// What the target is, in a sentence's words.
    pub fn label(self) -> &'static str {
        match self {
            Target::Host64 => "x86-64 host build (the tflite-micro package)",
            Target::CortexM => "Cortex-M, reference kernels (GCC bare-metal ABI)",
            Target::CortexMCmsisNn => "Cortex-M with DSP, CMSIS-NN kernels",
            Target::CortexM55CmsisNn => "Cortex-M55 (MVE), CMSIS-NN kernels",
        }
    }

    fn sizes(self) -> &'static Sizes {
        match self {
            Target::Host64 => &HOST64,
            _ => &CORTEX_M,
        }
    }

    pub fn pointer_bytes(self) -> u64 {
        self.sizes().pointer
    }

    /// Whether the real runtime was measured for this build (each one is: the rules are read
    /// off its measurements and sources).
    pub fn measured(self) -> bool {
        true
    }

    fn cortex_m(self) -> bool {
        self != Target::Host64
    }

    /// The CMSIS-NN extension of a CMSIS-NN build; `None` for the reference kernels.
    pub fn cmsis_isa(self) -> Option<CmsisIsa> {
        match self {
            Target::CortexMCmsisNn => Some(CmsisIsa::Dsp),
            Target::CortexM55CmsisNn => Some(CmsisIsa::Mve),
            Target::Host64 | Target::CortexM => None,
        }
    }

    /// The scratch requests CMSIS-NN's kernel for node `op` of subgraph `subgraph` makes in
    /// Prepare, in request order (see [`cmsis_scratch`]).
    pub fn cmsis_scratch(self, model: &Model, subgraph: usize, op: usize) -> Option<Vec<u64>> {
        cmsis_scratch(model, subgraph, op, self)
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

/// Builtin options and op data per operator and target.
///
/// Options: the `Parse*` allocation of `flatbuffer_conversions.cc`. x86-64: the wheel's (newer
/// than the headers in one place, found by matching the oracle: FULLY_CONNECTED's options are
/// 32 bytes at 8, the source snapshot's 16 at 4); Cortex-M: the oracle's sizeof table, where
/// GCC's short enums shrink the structs made of enums and bools (TfLiteAddParams 2 at 1).
///
/// Op data: the kernel's `Init` `AllocatePersistentBuffer(sizeof(OpData))`, as the per-node
/// records of each build request it (x86-64: the wheel, whose CONCATENATION op data is 80
/// bytes); where no shared model has the operator, the struct read in the source snapshot
/// (ints only: the same on both; pointers and enums shrink on Cortex-M).
fn op_cost(builtin: i32, target: Target) -> Option<OpCost> {
    let c = |params: Option<(u64, u64)>, init: Option<u64>| Some(OpCost { params, init });
    let cm = target.cortex_m();
    let cmsis = target.cmsis_isa().is_some();
    // Options: x86-64, Cortex-M.
    let p = |host: (u64, u64), arm: (u64, u64)| Some(if cm { arm } else { host });
    // Op data: x86-64, Cortex-M with the reference kernels, with CMSIS-NN's.
    let d = |host: u64, reference: u64, cmsis_nn: u64| {
        Some(if cmsis {
            cmsis_nn
        } else if cm {
            reference
        } else {
            host
        })
    };
    match builtin {
        ops::ADD => c(p((8, 4), (2, 1)), Some(60)),
        // OpDataConv (two pointers, padding, offsets, multiplier); CMSIS-NN adds a scratch
        // index.
        ops::CONV_2D | ops::DEPTHWISE_CONV_2D => c(Some((28, 4)), d(80, 56, 60)),
        // OpDataFullyConnected; CMSIS-NN adds two scratch indices, the kernel-sum pointer and
        // three dimensions.
        ops::FULLY_CONNECTED => c(p((32, 8), (5, 1)), d(72, 48, 72)),
        ops::LOGISTIC => c(None, Some(16)),
        ops::MEAN | ops::SUM => c(Some((1, 1)), Some(44)),
        ops::MUL => c(p((4, 4), (1, 1)), Some(36)),
        // SoftmaxParams (two table pointers, a double); CMSIS-NN adds the row count and size.
        ops::SOFTMAX => c(Some((4, 4)), d(80, 56, 64)),
        ops::STRIDED_SLICE => c(Some((24, 4)), Some(84)),
        // OpDataLSTM; CMSIS-NN's OpData adds its own LSTM parameters.
        ops::UNIDIRECTIONAL_SEQUENCE_LSTM => c(Some((16, 4)), d(688, 688, 912)),
        // OpDataPooling; CMSIS-NN adds a scratch index.
        ops::MAX_POOL_2D | ops::AVERAGE_POOL_2D => c(Some((40, 4)), d(32, 32, 36)),
        ops::RESHAPE => c(Some((36, 4)), None),
        ops::HARD_SWISH => c(None, Some(20)),
        // The wheel's 80 (pointer arrays of the compression build); the snapshot's 24.
        ops::CONCATENATION => c(Some((8, 4)), d(80, 24, 24)),
        ops::LESS => c(None, Some(32)),
        ops::RELU => c(None, Some(28)),
        ops::TANH => c(None, Some(16)),
        ops::WHILE => c(Some((8, 4)), Some(8)),
        ops::CAST => c(p((8, 4), (2, 1)), None),
        ops::DIV => c(p((4, 4), (1, 1)), Some(28)),
        ops::MAXIMUM | ops::MINIMUM => c(None, None),
        ops::PAD => c(None, Some(56)),
        ops::QUANTIZE => c(None, Some(32)),
        ops::DEQUANTIZE => c(None, Some(32)),
        // CmsisNnOpDataSvdf adds the kernel-sum pointer.
        ops::SVDF => c(p((12, 4), (8, 4)), d(36, 36, 40)),
        // TfLiteVarHandleParams: two string pointers. OpData: the resource id.
        ops::VAR_HANDLE => c(p((16, 8), (8, 4)), Some(4)),
        // OpData: a scratch index for a compressed input, only in the compression build (the
        // wheel); the Cortex-M builds have no Init.
        ops::ASSIGN_VARIABLE => c(None, if cm { None } else { Some(4) }),
        ops::READ_VARIABLE => c(None, None),
        // TfLiteCallOnceParams: the subgraph index. OpData: the index and has_run.
        ops::CALL_ONCE => c(Some((4, 4)), Some(8)),
        _ => op_cost_by_name(ops::name(builtin)?, target),
    }
}

/// The operators `model::ops` has no constant for, by schema name. Options structs are
/// `flatbuffer_conversions.cc`'s `Parse*` allocations (x86-64 sized with the compiler from
/// `builtin_op_data.h`; Cortex-M from the oracle's sizeof table); op data is the kernel's
/// `Init` `AllocatePersistentBuffer(sizeof(OpData))`, x86-64 as the oracle requests it (one
/// allocation per model of the operator sweep, `sample_models/ops`), Cortex-M from the
/// struct in the source snapshot.
fn op_cost_by_name(name: &str, target: Target) -> Option<OpCost> {
    let c = |params: Option<(u64, u64)>, init: Option<u64>| Some(OpCost { params, init });
    let cm = target.cortex_m();
    let cmsis = target.cmsis_isa().is_some();
    let p = |host: (u64, u64), arm: (u64, u64)| Some(if cm { arm } else { host });
    match name {
        // OpDataSub (sub.h): a bool and twelve ints.
        "SUB" => c(p((8, 4), (2, 1)), Some(52)),
        // PreluParams: offsets, two multipliers and shifts (measured on Cortex-M too).
        "PRELU" => c(None, Some(28)),
        // No Init; Prepare copies the output's dims (prepare_buffers).
        "GATHER" => c(Some((8, 4)), None),
        "GATHER_ND" => c(None, None),
        // OpDataBatchMatmul: three pointers and three bools (32 or 16); CMSIS-NN's OpData adds
        // the output's cmsis_nn_dims and a scratch index (36). Prepare adds the rest
        // (prepare_buffers).
        "BATCH_MATMUL" => c(
            Some((3, 1)),
            Some(match (cm, cmsis) {
                (false, _) => 32,
                (true, false) => 16,
                (true, true) => 36,
            }),
        ),
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
        // OpDataSquaredDifference: a bool and ArithmeticParams (uint8 enum classes, int64
        // bounds: the same layout on both).
        "SQUARED_DIFFERENCE" => c(None, Some(112)),
        // elementwise.cc OpDataAbsRsqrt: four ints, a bool, two enums (4 bytes each on
        // x86-64, 1 on Cortex-M); only ABS and RSQRT have an Init.
        "ABS" | "RSQRT" => c(None, Some(if cm { 20 } else { 28 })),
        // LeakyReluOpData: two multipliers, two shifts, two offsets.
        "LEAKY_RELU" => c(Some((4, 4)), Some(24)),
        // elu.cc OpData: an int8 lookup table of 256 entries, whatever the type.
        "ELU" => c(None, Some(256)),
        "PACK" | "UNPACK" => c(Some((8, 4)), None),
        "RESIZE_BILINEAR" | "RESIZE_NEAREST_NEIGHBOR" => c(Some((2, 1)), None),
        // No Init; Prepare copies the output's dims (prepare_buffers).
        "SPACE_TO_DEPTH" | "DEPTH_TO_SPACE" => c(Some((4, 4)), None),
        "ARG_MAX" | "ARG_MIN" => c(p((4, 4), (1, 1)), None),
        // comparisons.cc OpData: ComparisonParams (a bool, offsets, multipliers, shifts).
        "EQUAL" | "NOT_EQUAL" | "GREATER" | "GREATER_EQUAL" | "LESS_EQUAL" => c(None, Some(32)),
        // OpData: ConvParams (56, no pointer), scratch indices (two more in the compression
        // build) and two per-channel array pointers: 88 on the wheel, 72 on Cortex-M; CMSIS-NN
        // has three indices (76). The arrays themselves come in Prepare (prepare_buffers).
        "TRANSPOSE_CONV" => c(
            p((20, 4), (16, 4)),
            Some(match (cm, cmsis) {
                (false, _) => 88,
                (true, false) => 72,
                (true, true) => 76,
            }),
        ),
        // L2NormalizationParams: one int.
        "L2_NORMALIZATION" => c(p((4, 4), (1, 1)), Some(4)),
        "CUMSUM" => c(Some((2, 1)), None),
        // MirrorPad OpData: five ints.
        "MIRROR_PAD" => c(p((4, 4), (1, 1)), Some(20)),
        // Relu6OpData: the quantized bounds (int8 and int16 pairs), 8 bytes.
        "RELU6" => c(None, Some(8)),
        // select.cc OpData: one bool (requires_broadcast); TFLM registers SELECT_V2 only.
        "SELECT_V2" => c(None, Some(1)),
        // SpaceToBatchParams: one int (output offset).
        "SPACE_TO_BATCH_ND" => c(None, Some(4)),
        "SHAPE" => c(p((4, 4), (1, 1)), None),
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
    model.tensor(sg, t)
}

/// What a kernel's `Prepare` allocates persistently, from its tensors, on `target`.
fn prepare_buffers(model: &Model, sg: usize, op: &Operator, target: Target) -> Vec<u64> {
    let input = op.inputs.first().and_then(|&t| tensor_of(model, sg, t));
    let filter = op.inputs.get(1).and_then(|&t| tensor_of(model, sg, t));
    let output = op.outputs.first().and_then(|&t| tensor_of(model, sg, t));
    let dim = |t: Option<&crate::model::Tensor>, k: usize| {
        t.and_then(|t| t.shape.get(k))
            .map_or(0, |&d| d.max(0) as u64)
    };
    let isa = target.cmsis_isa();
    let quantized_input =
        input.is_some_and(|t| matches!(t.dtype, TensorType::Int8 | TensorType::Int16));
    match op.builtin {
        // Per-channel output multipliers and shifts: the reference kernels whatever the types
        // (conv_common.cc), CMSIS-NN's for int8 and int16 input only (cmsis_nn/conv.cc).
        ops::CONV_2D if isa.is_none() || quantized_input => vec![4 * dim(filter, 0); 2],
        ops::DEPTHWISE_CONV_2D if isa.is_none() || quantized_input => {
            vec![4 * dim(filter, 3); 2]
        }
        ops::CONV_2D | ops::DEPTHWISE_CONV_2D => vec![],
        // Only for a per-channel quantized filter (fully_connected_common.cc); then, on MVE,
        // CMSIS-NN's kernel sums of constant int8 weights (cmsis_nn/fully_connected.cc).
        ops::FULLY_CONNECTED => {
            // TFLM keeps a quantisation only with both scales and zero points
            // (`quant_channels`).
            let mut v = match filter.map_or(0, |f| f.quant_channels) {
                n if n > 1 => vec![4 * n as u64; 2],
                _ => vec![],
            };
            if isa == Some(CmsisIsa::Mve) {
                if let Some(FcInt8::Matmul {
                    out_depth,
                    constant: true,
                }) = fc_int8_path(model, sg, op)
                {
                    v.push(4 * out_depth);
                }
            }
            v
        }
        // Two int16 lookup tables of 513 entries for int16 input (softmax_common.cc).
        ops::SOFTMAX if input.is_some_and(|t| t.dtype == TensorType::Int16) => vec![1026; 2],
        // CMSIS-NN on MVE: the int8 weights' kernel sums, one int32 per filter
        // (cmsis_nn/svdf.cc, KERNELS_OPTIMIZED_FOR_SPEED).
        ops::SVDF
            if isa == Some(CmsisIsa::Mve) && input.is_some_and(|t| t.dtype == TensorType::Int8) =>
        {
            vec![4 * dim(filter, 0)]
        }
        // CMSIS-NN's integer LSTM: eight kernel sums (input and recurrent weights of four
        // gates) of one bias value per state unit: int32 for int8 activations, int64 for
        // int16 (cmsis_nn/unidirectional_sequence_lstm.cc).
        ops::UNIDIRECTIONAL_SEQUENCE_LSTM if isa.is_some() => {
            match cmsis_lstm_bias_bytes(model, sg, op) {
                Some(bias) => {
                    let cell = op.inputs.get(19).and_then(|&t| tensor_of(model, sg, t));
                    let state = cell
                        .and_then(|t| t.shape.last())
                        .map_or(0, |&d| d.max(0) as u64);
                    vec![state * bias; 8]
                }
                None => vec![],
            }
        }
        _ => match ops::name(op.builtin) {
            // CreateWritableTensorDimsWithCopy (kernel_util.cc): the output's dims as a
            // TfLiteIntArray (an int and one int per dimension).
            Some("GATHER" | "GATHER_ND" | "SPACE_TO_DEPTH" | "DEPTH_TO_SPACE" | "L2_POOL_2D") => {
                vec![output.map_or(4, int_array_bytes)]
            }
            Some("BATCH_MATMUL") => batch_matmul_buffers(model, sg, op, target).unwrap_or_default(),
            // Per-output-channel multipliers and shifts, whatever the types; the filter
            // (input 1) is [out_ch, h, w, in_ch] (transpose_conv.cc, cmsis_nn/transpose_conv.cc).
            Some("TRANSPOSE_CONV") => vec![4 * dim(filter, 0); 2],
            // reshape_common.cc: a -1 in the output's dims is stretched in a writable copy.
            Some("RESHAPE") if output.is_some_and(|t| t.shape.contains(&-1)) => {
                vec![output.map_or(4, int_array_bytes)]
            }
            // The output's dims copy, then OpData: a float scale and a size_t column count,
            // allocated in Prepare (embedding_lookup.cc CalculateOpData).
            Some("EMBEDDING_LOOKUP") => vec![
                output.map_or(4, int_array_bytes),
                if target.cortex_m() { 8 } else { 16 },
            ],
            // LogSoftmaxOpData (five ints, two size_t), int8 only (log_softmax.cc).
            Some("LOG_SOFTMAX") if input.is_some_and(|t| t.dtype == TensorType::Int8) => {
                vec![if target.cortex_m() { 28 } else { 40 }]
            }
            _ => vec![],
        },
    }
}

/// CMSIS-NN's FULLY_CONNECTED with int8 input and int8 weights (cmsis_nn/fully_connected.cc):
/// the path its Prepare takes.
enum FcInt8 {
    /// Output rank above 2 and an accumulation depth a multiple of 4: run as a 1x1
    /// convolution; per-tensor weights fake per-channel quantisation in a scratch buffer of
    /// two int32 per output channel.
    Conv1x1 { out_depth: u64, per_tensor: bool },
    /// `arm_fully_connected_s8`; its buffer (4 bytes per output channel on MVE) holds kernel
    /// sums, persistent when the weights and bias are constant (KERNELS_OPTIMIZED_FOR_SPEED).
    Matmul { out_depth: u64, constant: bool },
}

fn fc_int8_path(model: &Model, sg: usize, op: &Operator) -> Option<FcInt8> {
    let t = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, sg, t));
    let (input, filter) = (t(0)?, t(1)?);
    if input.dtype != TensorType::Int8 || filter.dtype != TensorType::Int8 {
        return None;
    }
    let output = op.outputs.first().and_then(|&o| tensor_of(model, sg, o))?;
    let out_depth = output.shape.last().map_or(0, |&d| d.max(0) as u64);
    let accum_depth = filter.shape.last().map_or(0, |&d| d.max(0) as u64);
    Some(if output.shape.len() > 2 && accum_depth % 4 == 0 {
        FcInt8::Conv1x1 {
            out_depth,
            per_tensor: filter.quant_channels <= 1,
        }
    } else {
        FcInt8::Matmul {
            out_depth,
            constant: filter.is_constant && t(2).is_none_or(|b| b.is_constant),
        }
    })
}

/// The bytes of one kernel sum of CMSIS-NN's integer LSTM: int32 for int8 activations, int64
/// for int16, both with an int16 cell state; `None` for the other LSTMs (float), which
/// CMSIS-NN runs with the reference code.
fn cmsis_lstm_bias_bytes(model: &Model, sg: usize, op: &Operator) -> Option<u64> {
    let dtype = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| tensor_of(model, sg, t))
            .map(|t| t.dtype)
    };
    match (dtype(0)?, dtype(19)?) {
        (TensorType::Int8, TensorType::Int16) => Some(4),
        (TensorType::Int16, TensorType::Int16) => Some(8),
        _ => None,
    }
}

/// What a node's kernel requests on a CMSIS-NN build.
enum CmsisRequests {
    /// TFLM's reference kernel runs it (CMSIS-NN has no kernel for the operator).
    Reference,
    /// CMSIS-NN's kernel, its scratch requests in order.
    Known(Vec<u64>),
    /// CMSIS-NN's kernel, with requests the rules cannot tell.
    Unknown(String),
}

/// `cmsis_nn_dims` of a rank-4 tensor: n, h, w, c.
fn nhwc(t: &crate::model::Tensor) -> Option<[i64; 4]> {
    match t.shape[..] {
        [n, h, w, c] => Some([n, h, w, c].map(i64::from)),
        _ => None,
    }
}

/// `ComputeOutSize` (tensorflow/lite/kernels/padding.h): `padding` 0 SAME, 1 VALID.
fn out_size(padding: u8, image: i64, filter: i64, stride: i64, dilation: i64) -> Option<i64> {
    if stride <= 0 || dilation <= 0 || filter <= 0 {
        return None;
    }
    let effective = (filter - 1) * dilation + 1;
    match padding {
        0 => Some((image + stride - 1) / stride),
        1 => Some((image + stride - effective) / stride).filter(|&v| v >= 0),
        _ => None,
    }
}

/// `ComputePaddingWithOffset`: the padding before the data (the total halved, rounded down),
/// for the output size the padding type gives.
fn padding(padding: u8, image: i64, filter: i64, stride: i64, dilation: i64) -> Option<i64> {
    let out = out_size(padding, image, filter, stride, dilation)?;
    let effective = (filter - 1) * dilation + 1;
    Some(((out - 1) * stride + effective - image).max(0) / 2)
}

/// `cmsis_nn_conv_params` as the size functions read them: stride (w, h; `None` when TFLM
/// leaves it unset), padding (w, h), dilation (w, h).
struct ConvGeometry {
    stride: Option<(i64, i64)>,
    pad: (i64, i64),
    dilation: (i64, i64),
}

/// `arm_convolve_s8_get_buffer_size` (GCC): the im2col columns of `f_w · f_h · in_c` int8
/// values, as int16 with the columns rounded up to 4 (DSP), or four rows of 16-lane vectors
/// (MVE).
fn conv_s8_general(isa: CmsisIsa, input_c: i64, filter: [i64; 4]) -> i64 {
    let cols = filter[1] * filter[2] * input_c;
    match isa {
        CmsisIsa::Dsp => 4 * ((cols + 3) / 4 * 4),
        CmsisIsa::Mve => 64 * ((cols + 15) / 16),
    }
}

/// `arm_convolve_wrapper_s8_get_buffer_size` (arm_convolve_get_buffer_sizes_s8.c, GCC: the
/// 1x1 fast path needs no buffer); `None` when the 1xN test reads an unset stride.
fn conv_s8_buffer(
    isa: CmsisIsa,
    input: [i64; 4],
    filter: [i64; 4],
    output: [i64; 4],
    g: &ConvGeometry,
) -> Option<i64> {
    let [_, in_h, in_w, in_c] = input;
    let (pad_w, pad_h) = g.pad;
    let (dil_w, dil_h) = g.dilation;
    if pad_w == 0
        && pad_h == 0
        && filter[1] == 1
        && filter[2] == 1
        && dil_w == 1
        && dil_h == 1
        && in_c == filter[3]
    {
        return Some(0);
    }
    let maybe_1xn = in_h == 1 && dil_w == 1 && filter[1] == 1 && in_c == filter[3];
    let is_1xn = maybe_1xn && (g.stride?.0 * in_c) % 4 == 0;
    if !is_1xn || isa == CmsisIsa::Dsp {
        return Some(conv_s8_general(isa, in_c, filter));
    }
    // arm_convolve_1_x_n_s8_get_buffer_size_mve.
    let stride_x = g.stride?.0;
    let (kernel_x, output_x) = (filter[2], output[2]);
    let total_pad = (output_x - 1) * stride_x + kernel_x - in_w;
    let asym_pad = total_pad % 2;
    let right = if pad_w + asym_pad != 0 {
        ((pad_w + asym_pad + stride_x - 1) / stride_x).max(1)
    } else {
        0
    };
    let left = if pad_w != 0 {
        ((pad_w + stride_x - 1) / stride_x).max(1)
    } else {
        0
    };
    let no_pad = (output_x - (right + left)).max(0);
    if right + no_pad + left != output_x {
        return Some(conv_s8_general(isa, in_c, filter));
    }
    let pad_left = pad_w * in_c;
    let pad_right = if asym_pad != 0 {
        right * in_c
    } else {
        pad_left
    };
    let elem_left = kernel_x * in_c;
    let elem_right = elem_left - in_c;
    Some((elem_left + pad_left).max(elem_right + pad_right))
}

/// `arm_convolve_wrapper_s16_get_buffer_size`: int16 im2col columns (DSP), or four rows of
/// 8-lane vectors (MVE).
fn conv_s16_buffer(isa: CmsisIsa, input_c: i64, filter: [i64; 4]) -> i64 {
    let cols = input_c * filter[1] * filter[2];
    match isa {
        CmsisIsa::Dsp => 4 * cols,
        CmsisIsa::Mve => 64 * ((cols + 7) / 8),
    }
}

/// `CH_IN_BLOCK_MVE`: the channels MVE's depthwise kernel handles per block.
const CH_IN_BLOCK_MVE: i64 = 124;

/// One request if `bytes` is positive (`if (buf_size > 0) RequestScratchBufferInArena`).
fn if_positive(bytes: i64) -> CmsisRequests {
    CmsisRequests::Known(if bytes > 0 {
        vec![bytes as u64]
    } else {
        vec![]
    })
}

/// The requests of node `op` of subgraph `sg` on a CMSIS-NN build for `isa`, as TFLM's
/// `kernels/cmsis_nn/*.cc` Prepare makes them with CMSIS-NN's `*_get_buffer_size` (the
/// revision TFLM's download script pins), compiled by GCC.
fn cmsis_requests(model: &Model, sg: usize, op: &Operator, isa: CmsisIsa) -> CmsisRequests {
    use CmsisRequests::{Known, Reference, Unknown};
    let t = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, sg, t));
    let output = op.outputs.first().and_then(|&o| tensor_of(model, sg, o));
    let dtype = |i: usize| t(i).map(|t| t.dtype);
    let unknown = |why: &str| Unknown(format!("{} (subgraph {sg}): {why}", model.op_name(op)));
    match op.builtin {
        ops::CONV_2D => {
            let Options::Conv2D {
                padding: kind,
                stride_w,
                stride_h,
                dilation_w,
                dilation_h,
                ..
            } = op.options
            else {
                return unknown("no Conv2DOptions in the file");
            };
            let dims = (
                t(0).and_then(nhwc),
                t(1).and_then(nhwc),
                output.and_then(nhwc),
            );
            let (Some(input), Some(f), Some(out)) = dims else {
                return unknown("input, filter or output not of rank 4");
            };
            let filter = [1, f[1], f[2], f[3]];
            let (sw, sh, dw, dh) = (
                i64::from(stride_w),
                i64::from(stride_h),
                i64::from(dilation_w),
                i64::from(dilation_h),
            );
            let pads = (
                padding(kind, input[2], filter[2], sw, dw),
                padding(kind, input[1], filter[1], sh, dh),
            );
            let (Some(pad_w), Some(pad_h)) = pads else {
                return unknown("padding or strides TFLM refuses");
            };
            let g = ConvGeometry {
                stride: Some((sw, sh)),
                pad: (pad_w, pad_h),
                dilation: (dw, dh),
            };
            match dtype(0) {
                // int8 input, int8 or int4 weights.
                Some(TensorType::Int8) => match conv_s8_buffer(isa, input, filter, out, &g) {
                    Some(b) => if_positive(b),
                    None => unknown("CMSIS-NN's buffer size reads an unset stride"),
                },
                // TFLM asks for the bias through the output list, so it always takes
                // CMSIS-NN's int16 path.
                Some(TensorType::Int16) => if_positive(conv_s16_buffer(isa, input[3], filter)),
                _ => Known(vec![]),
            }
        }
        ops::DEPTHWISE_CONV_2D => {
            if dtype(0) != Some(TensorType::Int8) {
                return Known(vec![]);
            }
            let Options::DepthwiseConv2D {
                padding: kind,
                stride_w,
                stride_h,
                dilation_w,
                dilation_h,
                ..
            } = op.options
            else {
                return unknown("no DepthwiseConv2DOptions in the file");
            };
            let dims = (
                t(0).and_then(nhwc),
                t(1).and_then(nhwc),
                output.and_then(nhwc),
            );
            let (Some(input), Some(f), Some(out)) = dims else {
                return unknown("input, filter or output not of rank 4");
            };
            let (dw, dh) = (i64::from(dilation_w), i64::from(dilation_h));
            let pads = (
                padding(kind, input[2], f[2], i64::from(stride_w), dw),
                padding(kind, input[1], f[1], i64::from(stride_h), dh),
            );
            let (Some(pad_w), Some(pad_h)) = pads else {
                return unknown("padding or strides TFLM refuses");
            };
            let (in_c, out_c, fh, fw) = (input[3], out[3], f[1], f[2]);
            let multiplier_one = in_c == out_c && input[0] == 1 && dw == 1 && dh == 1;
            match dtype(1) {
                Some(TensorType::Int8) => {
                    if isa == CmsisIsa::Mve && in_c == 1 && out_c > 1 {
                        // Converted to a convolution whose filter has the output channels as
                        // its batch; TFLM never sets the stride it passes.
                        let g = ConvGeometry {
                            stride: None,
                            pad: (pad_w, pad_h),
                            dilation: (dw, dh),
                        };
                        let filter = [out_c, fh, fw, 1];
                        return match conv_s8_buffer(isa, input, filter, out, &g) {
                            Some(b) => if_positive(b + out_c * fh * fw),
                            None => unknown(
                                "CMSIS-NN's buffer size (one input channel, 1xN) reads a stride TFLM never sets",
                            ),
                        };
                    }
                    if !multiplier_one {
                        return Known(vec![]);
                    }
                    match isa {
                        CmsisIsa::Dsp if fw == 3 && fh == 3 && pad_h <= 1 && pad_w <= 1 => {
                            Known(vec![])
                        }
                        CmsisIsa::Dsp => if_positive(2 * in_c * fw * fh),
                        CmsisIsa::Mve => if_positive(4 * CH_IN_BLOCK_MVE * fw * fh),
                    }
                }
                // arm_depthwise_conv_wrapper_s4_get_buffer_size.
                Some(TensorType::Int4) if multiplier_one => match isa {
                    CmsisIsa::Dsp => if_positive(2 * in_c * fw * fh),
                    CmsisIsa::Mve => if_positive(4 * CH_IN_BLOCK_MVE * fw * fh),
                },
                _ => Known(vec![]),
            }
        }
        ops::FULLY_CONNECTED => match fc_int8_path(model, sg, op) {
            // The per-channel fake (GCC: the 1x1 fast convolution needs no buffer).
            Some(FcInt8::Conv1x1 {
                out_depth,
                per_tensor,
            }) => Known(if per_tensor {
                vec![8 * out_depth]
            } else {
                vec![]
            }),
            Some(FcInt8::Matmul {
                out_depth,
                constant,
            }) => Known(if isa == CmsisIsa::Mve && !constant && out_depth > 0 {
                vec![4 * out_depth]
            } else {
                vec![]
            }),
            // int16 (arm_fully_connected_s16_get_buffer_size is 0), int4 weights, float.
            None => Known(vec![]),
        },
        ops::AVERAGE_POOL_2D => {
            let quantized = matches!(dtype(0), Some(TensorType::Int8 | TensorType::Int16));
            let depth = output
                .and_then(|o| o.shape.get(3))
                .map_or(0, |&d| i64::from(d));
            Known(if quantized && isa == CmsisIsa::Dsp && depth > 0 {
                vec![4 * depth as u64]
            } else {
                vec![]
            })
        }
        // As the reference kernel: the state's int32 accumulator per filter, and for int8 the
        // output's per unit.
        ops::SVDF => {
            let (Some(input), Some(wf), Options::Svdf { rank }) = (t(0), t(1), &op.options) else {
                return unknown("no SVDFOptions in the file");
            };
            let batch = input.shape.first().map_or(1, |&d| d.max(0) as u64);
            let filters = wf.shape.first().map_or(0, |&d| d.max(0) as u64);
            match input.dtype {
                TensorType::Int8 if *rank > 0 => Known(vec![
                    4 * batch * filters,
                    4 * batch * (filters / *rank as u64),
                ]),
                TensorType::Float32 => Known(vec![4 * batch * filters]),
                _ => unknown("rank or input type TFLM refuses"),
            }
        }
        // Three cell-state-sized buffers for the integer kernels (CMSIS-NN's), four for float.
        ops::UNIDIRECTIONAL_SEQUENCE_LSTM => {
            let Some(cell) = t(19).and_then(|c| c.bytes) else {
                return unknown("no cell state (input 19)");
            };
            let n = if cmsis_lstm_bias_bytes(model, sg, op).is_some() {
                3
            } else {
                4
            };
            Known(vec![cell; n])
        }
        ops::ADD | ops::MUL | ops::PAD | ops::MAXIMUM | ops::MINIMUM | ops::SOFTMAX => {
            Known(vec![])
        }
        _ => match ops::name(op.builtin) {
            Some("PADV2" | "TRANSPOSE") => Known(vec![]),
            // Inputs: output shape, filter [out_c, h, w, in_c], input, bias. int8: the
            // column buffer and the reversed filter (a request even of 0 bytes), made inside
            // TFLITE_DCHECK (gone with -DNDEBUG); int16: an int64 accumulator per output
            // value, then the int16 bias widened to int64.
            Some("TRANSPOSE_CONV") => {
                let Options::TransposeConv {
                    stride_w, stride_h, ..
                } = op.options
                else {
                    return unknown("no TransposeConvOptions in the file");
                };
                match dtype(2) {
                    Some(TensorType::Int8) => {
                        let dims = (t(2).and_then(nhwc), t(1).and_then(nhwc));
                        let (Some(input), Some(f), Some(out)) =
                            (dims.0, dims.1, output.and_then(nhwc))
                        else {
                            return unknown("input, filter or output not of rank 4");
                        };
                        let (sw, sh) = (i64::from(stride_w), i64::from(stride_h));
                        let (in_c, out_c, fh, fw) = (input[3], f[0], f[1], f[2]);
                        let reverse = sw <= 2 && sh <= 2 && in_c > 16;
                        let (columns, reversed) = if reverse {
                            (
                                conv_s8_general(isa, in_c, [out_c, fh, fw, in_c]),
                                in_c * fw * fh * out_c,
                            )
                        } else {
                            let x = ((input[2] - 1) * sw + fw.max(sh)) * out[3];
                            (x * fh.max(sh) * 4, 0)
                        };
                        Known(vec![columns.max(0) as u64, reversed.max(0) as u64])
                    }
                    Some(TensorType::Int16) => {
                        let mut v = vec![8 * output.map_or(0, |o| o.elements())];
                        if let Some(b) = t(3).filter(|b| b.dtype == TensorType::Int16) {
                            v.push(8 * b.elements());
                        }
                        Known(v)
                    }
                    _ => Known(vec![]),
                }
            }
            // int8: arm_fully_connected_s8_get_buffer_size of the output's last dimension.
            Some("BATCH_MATMUL") => {
                let int8 = dtype(0) == Some(TensorType::Int8);
                let last = output
                    .and_then(|o| o.shape.last())
                    .map_or(0, |&d| i64::from(d));
                Known(if int8 && isa == CmsisIsa::Mve && last > 0 {
                    vec![4 * last as u64]
                } else {
                    vec![]
                })
            }
            _ => Reference,
        },
    }
}

/// The scratch requests CMSIS-NN's kernel for node `op` of subgraph `subgraph` makes in
/// Prepare on `target`, in request order (bytes as requested, before the planner's rounding
/// to 16): `arm_*_get_buffer_size` per extension as TFLM's `kernels/cmsis_nn/*.cc` call them.
/// `None` when the target has no CMSIS-NN kernel for the node (TFLM's reference kernel runs
/// it, `analysis::tflm`'s requests), or when the request cannot be told from the file (then
/// the tail names the node as not modelled).
pub fn cmsis_scratch(
    model: &Model,
    subgraph: usize,
    op: usize,
    target: Target,
) -> Option<Vec<u64>> {
    let isa = target.cmsis_isa()?;
    let node = model.subgraphs.get(subgraph)?.operators.get(op)?;
    match cmsis_requests(model, subgraph, node, isa) {
        CmsisRequests::Known(v) => Some(v),
        CmsisRequests::Reference | CmsisRequests::Unknown(_) => None,
    }
}

/// Why a CMSIS-NN kernel refuses a node the reference kernel takes: FULLY_CONNECTED takes
/// per-channel weights with int8 input only (the reference kernel with int16 too); SVDF on MVE needs constant
/// int8 feature weights for its kernel sums.
fn cmsis_refusal(model: &Model, sg: usize, op: &Operator, isa: CmsisIsa) -> Option<&'static str> {
    let t = |i: usize| op.inputs.get(i).and_then(|&t| tensor_of(model, sg, t));
    match op.builtin {
        ops::FULLY_CONNECTED => {
            let (input, filter) = (t(0)?, t(1)?);
            (filter.quant_channels > 1 && input.dtype == TensorType::Int16).then_some(
                "CMSIS-NN's FULLY_CONNECTED refuses per-channel weights with int16 input",
            )
        }
        ops::SVDF if isa == CmsisIsa::Mve => {
            let (input, wf) = (t(0)?, t(1)?);
            (input.dtype == TensorType::Int8 && !wf.is_constant)
                .then_some("CMSIS-NN's int8 SVDF on MVE needs constant feature weights")
        }
        _ => None,
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

/// BATCH_MATMUL's `adj_x` and `adj_y`: its options, or without them from the shapes: the
/// output is `[.., lhs rows, rhs columns]`, the rows taken from the lhs's second-last
/// dimension unless `adj_x`, the columns from the rhs's last unless `adj_y`. `None` when a
/// square operand leaves it open.
fn batch_matmul_adjoints(model: &Model, sg: usize, op: &Operator) -> Option<(bool, bool)> {
    if let Options::BatchMatMul { adj_x, adj_y } = op.options {
        return Some((adj_x, adj_y));
    }
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
        let (object, entry) = z.resource_variables;
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
        if let Some(why) = super::catalogue::tflm_refusal(model, s, op) {
            cannot_run.push(format!("{} (subgraph {s}): {why}", model.op_name(op)));
        }
        if let Some(isa) = target.cmsis_isa() {
            if let Some(why) = cmsis_refusal(model, s, op, isa) {
                cannot_run.push(format!("{} (subgraph {s}): {why}", model.op_name(op)));
            }
            if let CmsisRequests::Unknown(why) = cmsis_requests(model, s, op, isa) {
                not_modelled.push(format!("{why} (its scratch requests)"));
            }
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
    /// The float FC model of `one_float_fully_connected_layer_by_hand`.
    fn one_float_fc() -> Model {
        model(
            vec![
                tensor(&[1, 4], TensorType::Float32, false),
                tensor(&[2, 4], TensorType::Float32, true),
                tensor(&[2], TensorType::Float32, true),
                tensor(&[1, 2], TensorType::Float32, false),
            ],
            vec![(ops::FULLY_CONNECTED, "", vec![0, 1, 2], vec![3], vec![])],
            vec![0],
            vec![3],
        )
    }

    fn persistent_buffers(t: &Tail) -> (u64, u64, u64) {
        t.categories
            .iter()
            .find(|c| c.name == PERSISTENT_BUFFERS)
            .map(|c| (c.bytes, c.requested_bytes, c.count))
            .unwrap()
    }

    #[test]
    fn one_float_fully_connected_layer_on_cortex_m_by_hand() {
        // Allocator objects 52 + 44 + 124 = 220; builtin-data allocator 8 -> 228;
        // SubgraphAllocations 8 -> 236; 4 eval tensors 48 -> 284; 1 node 32 -> 316; FC
        // options 5 at alignment 1 -> 321; op data 48 at 16 -> 384; input pointer array 4 at
        // 16 -> 400; its TfLiteTensor 32 -> 432; output array -> 448; its tensor -> 480.
        let m = one_float_fc();
        let t = tail_for(&m, 0, Target::CortexM);
        assert_eq!(t.bytes, 480);
        assert_eq!(persistent_buffers(&t), (95, 56, 3));
        // CMSIS-NN's op data is 72: 321 + 72 -> 400, arrays and tensors -> 496.
        let t = tail_for(&m, 0, Target::CortexMCmsisNn);
        assert_eq!(t.bytes, 496);
        assert_eq!(persistent_buffers(&t), (111, 80, 3));
        assert!(t.not_modelled.is_empty());
    }

    /// A one-node model whose node gets `options`.
    fn with_options(mut m: Model, options: Options) -> Model {
        m.subgraphs[0].operators[0].options = options;
        m
    }

    #[test]
    fn a_one_by_n_int8_convolution_on_mve_sizes_its_buffer_by_the_padding() {
        // Input [1, 1, 16, 8], filter [4, 1, 3, 8], SAME, stride 1: 1xN (input height 1,
        // (stride 1 · 8 channels) % 4 = 0). Padding (15 + 3 - 16) / 2 = 1 on each side, so
        // MVE: max(3·8 + 1·8, 2·8 + 1·8) = 32. DSP: the general im2col, 4 · roundup4(1·3·8) = 96.
        let m = with_options(
            model(
                vec![
                    tensor(&[1, 1, 16, 8], TensorType::Int8, false),
                    tensor(&[4, 1, 3, 8], TensorType::Int8, true),
                    tensor(&[1, 1, 16, 4], TensorType::Int8, false),
                ],
                vec![(ops::CONV_2D, "", vec![0, 1], vec![2], vec![])],
                vec![0],
                vec![2],
            ),
            Options::Conv2D {
                padding: 0,
                stride_w: 1,
                stride_h: 1,
                dilation_w: 1,
                dilation_h: 1,
                activation: 0,
            },
        );
        assert_eq!(
            cmsis_scratch(&m, 0, 0, Target::CortexM55CmsisNn),
            Some(vec![32])
        );
        assert_eq!(
            cmsis_scratch(&m, 0, 0, Target::CortexMCmsisNn),
            Some(vec![96])
        );
        assert_eq!(cmsis_scratch(&m, 0, 0, Target::CortexM), None);
    }

    #[test]
    fn a_one_channel_one_by_n_depthwise_on_mve_is_said_not_modelled() {
        // MVE converts a depthwise of one input channel to a convolution and sizes it with a
        // stride TFLM never sets: for a 1xN shape the size is garbage. DSP: in_c != out_c, no
        // buffer.
        let m = with_options(
            model(
                vec![
                    tensor(&[1, 1, 16, 1], TensorType::Int8, false),
                    tensor(&[1, 1, 3, 4], TensorType::Int8, true),
                    tensor(&[1, 1, 16, 4], TensorType::Int8, false),
                ],
                vec![(ops::DEPTHWISE_CONV_2D, "", vec![0, 1], vec![2], vec![])],
                vec![0],
                vec![2],
            ),
            Options::DepthwiseConv2D {
                padding: 0,
                stride_w: 1,
                stride_h: 1,
                dilation_w: 1,
                dilation_h: 1,
                depth_multiplier: 4,
                activation: 0,
            },
        );
        assert_eq!(cmsis_scratch(&m, 0, 0, Target::CortexM55CmsisNn), None);
        let t = tail_for(&m, 0, Target::CortexM55CmsisNn);
        assert_eq!(t.not_modelled.len(), 1, "{:?}", t.not_modelled);
        assert_eq!(
            cmsis_scratch(&m, 0, 0, Target::CortexMCmsisNn),
            Some(vec![])
        );
        assert!(tail_for(&m, 0, Target::CortexMCmsisNn)
            .not_modelled
            .is_empty());
    }

    #[test]
    fn cmsis_nn_int8_transpose_conv_requests_its_column_buffer_and_a_reversed_filter() {
        // Inputs: output shape, filter [16, 3, 3, 8], input [1, 4, 4, 8]; output [1, 8, 8, 16],
        // stride 2. 8 input channels are not above 16, so no reverse convolution: columns
        // ((4 - 1)·2 + max(3, 2)) · 16 · max(3, 2) · 4 = 1728, and the reversed filter's
        // request of 0 bytes, which still takes a handle.
        let m = with_options(
            model(
                vec![
                    tensor(&[4], TensorType::Int32, true),
                    tensor(&[16, 3, 3, 8], TensorType::Int8, true),
                    tensor(&[1, 4, 4, 8], TensorType::Int8, false),
                    tensor(&[1, 8, 8, 16], TensorType::Int8, false),
                ],
                vec![(
                    ops::code("TRANSPOSE_CONV").unwrap(),
                    "",
                    vec![0, 1, 2],
                    vec![3],
                    vec![],
                )],
                vec![2],
                vec![3],
            ),
            Options::TransposeConv {
                padding: 0,
                stride_w: 2,
                stride_h: 2,
                activation: 0,
            },
        );
        assert_eq!(
            cmsis_scratch(&m, 0, 0, Target::CortexMCmsisNn),
            Some(vec![1728, 0])
        );
    }

    #[test]
    fn target_names_round_trip() {
        for t in Target::ALL {
            assert_eq!(Target::from_name(t.name()), Some(t));
        }
        assert_eq!(Target::from_name("cortex-m7"), None);
    }
}
