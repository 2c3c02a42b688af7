//! The delegate's support rules as modelled: which node it takes (`support`), with the
//! operand helpers the rules and the later stages share.

use super::*;

/// Builtin codes used only here (schema.fbs).
pub(super) const RELU_N1_TO_1: i32 = 20;
pub(super) const RESIZE_BILINEAR: i32 = 23;
pub(super) const PRELU: i32 = 54;
pub(super) const STRIDED_SLICE: i32 = ops::STRIDED_SLICE;
pub(super) const RELU6: i32 = 21;
pub(super) const GREATER: i32 = 61;
pub(super) const GREATER_EQUAL: i32 = 62;
pub(super) const LESS_EQUAL: i32 = 63;
pub(super) const EQUAL: i32 = 71;
pub(super) const NOT_EQUAL: i32 = 72;

/// Bytes XNNPACK may read past a value's end (`XNN_EXTRA_BYTES`).
pub(super) const EXTRA_BYTES: u64 = 16;

pub(super) enum Support {
    Taken,
    Left,
    Unknown,
}

/// Tensor `t` of subgraph `si` (none for -1 or an index out of range).
pub(super) fn tensor_of(model: &Model, si: usize, t: i32) -> Option<&crate::model::Tensor> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[si].tensors.get(t)
}

pub(super) fn dtype(model: &Model, si: usize, t: i32) -> Option<TensorType> {
    tensor_of(model, si, t).map(|x| x.dtype)
}

pub(super) fn constant(model: &Model, si: usize, t: i32) -> bool {
    tensor_of(model, si, t).is_some_and(|x| x.is_constant)
}

/// The DEQUANTIZE node writing `t` from a constant fp16 tensor, if one does.
pub(super) fn fp16_dequantize_of(model: &Model, si: usize, t: i32) -> Option<usize> {
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
pub(super) fn densified(model: &Model, si: usize, t: i32) -> Option<usize> {
    model.subgraphs[si].operators.iter().position(|op| {
        op.builtin == ops::DENSIFY
            && op.outputs.first() == Some(&t)
            && op.inputs.first().is_some_and(|&i| constant(model, si, i))
    })
}

/// A constant, or the densified copy of one.
pub(super) fn unpacked_constant(model: &Model, si: usize, t: i32) -> bool {
    constant(model, si, t) || densified(model, si, t).is_some()
}

/// A weight or bias the delegate treats as static: a constant, or the output of a DEQUANTIZE
/// of a constant fp16 tensor (whose fp16 data the GEMM takes directly).
pub(super) fn static_like(model: &Model, si: usize, t: i32) -> bool {
    constant(model, si, t) || fp16_dequantize_of(model, si, t).is_some()
}

/// Whether node `n` is a DEQUANTIZE of a constant fp16 tensor whose output only ever feeds
/// the weights or bias of a convolution or fully connected node: the delegate skips it.
pub(super) fn skipped_dequantize(model: &Model, si: usize, n: usize) -> bool {
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
pub(super) fn dynamic_range_row(model: &Model, si: usize, op: &Operator) -> Option<u64> {
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
pub(super) fn dynamic_range_conv(model: &Model, si: usize, op: &Operator) -> Option<u64> {
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
pub(super) fn support(model: &Model, si: usize, node: usize) -> Support {
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
