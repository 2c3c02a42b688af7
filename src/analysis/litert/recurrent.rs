//! Kernel temporaries of LiteRT's recurrent and signal kernels, read from their sources
//! (`tflite/kernels/<file>.cc`) and checked against ai-edge-litert 2.3.0 on the operator sweep
//! (`sample_models/ops`, every offset equal):
//!
//! | Kernel | Init | Prepare |
//! |---|---|---|
//! | RNN, UNIDIRECTIONAL_SEQUENCE_RNN | 6 | hybrid only: 6 |
//! | BIDIRECTIONAL_SEQUENCE_RNN | 9 | hybrid only: 8 (+ quantised aux input) |
//! | LSTM, full kernel | 12 + 9 ledgers | float: 1 scratch; hybrid: 12; int8: 6 or 8 |
//! | LSTM, basic kernel (5 inputs) | — | none (its two state inputs become persistent) |
//! | BIDIRECTIONAL_SEQUENCE_LSTM | 19 | float: 2 scratch; hybrid: 18 (+ quantised aux input) |
//! | RFFT2D | — | adds 4 at Prepare |
//! | STABLEHLO_REDUCE_WINDOW | 2 | the dilated and the padded input |
//!
//! Reserved indices a path does not use stay without data (`unused`). Row sums of the hybrid
//! kernels are `kTfLiteArenaRwPersistent`; everything else is RW arena, or dynamic where the
//! kernel says so (RFFT2D with a non-constant `fft_length`).

use super::{dtype_of, elements, is_const, reserve, set_temp, shape_of, AllocType, ITensor};
use crate::model::{Model, Operator, Options, TensorType};

/// Builtin codes of the kernels here (not named in `model::ops`).
pub(super) const LSTM: i32 = 16;
pub(super) const RNN: i32 = 24;
pub(super) const UNIDIRECTIONAL_SEQUENCE_RNN: i32 = 35;
pub(super) const BIDIRECTIONAL_SEQUENCE_RNN: i32 = 46;
pub(super) const BIDIRECTIONAL_SEQUENCE_LSTM: i32 = 52;
pub(super) const RFFT2D: i32 = 131;
pub(super) const STABLEHLO_REDUCE_WINDOW: i32 = 198;

/// The indices each kernel's `Init` reserves with `AddTensors` (0: none).
pub(super) fn init_reservations(op: &Operator) -> usize {
    match op.builtin {
        RNN | UNIDIRECTIONAL_SEQUENCE_RNN => 6,
        BIDIRECTIONAL_SEQUENCE_RNN => 9,
        // lstm.cc: the full kernel (20 or 24 inputs) reserves 12 temporaries and 9 sparse
        // ledgers; the basic kernel (5 inputs) none.
        LSTM if op.inputs.len() != 5 => 12 + 9,
        BIDIRECTIONAL_SEQUENCE_LSTM => 19,
        STABLEHLO_REDUCE_WINDOW => 2,
        _ => 0,
    }
}

/// One node's operands, by input position.
struct Node<'a> {
    model: &'a Model,
    si: usize,
    op: &'a Operator,
}

impl Node<'_> {
    fn input(&self, k: usize) -> i32 {
        self.op.inputs.get(k).copied().unwrap_or(-1)
    }

    /// Optional inputs are −1 when absent.
    fn present(&self, k: usize) -> bool {
        self.input(k) >= 0
    }

    fn shape(&self, k: usize) -> Option<Vec<i64>> {
        shape_of(self.model, self.si, self.input(k)).map(|s| s.iter().map(|&d| d as i64).collect())
    }

    fn dim(&self, k: usize, d: usize) -> Option<i64> {
        self.shape(k).and_then(|s| s.get(d).copied())
    }

    fn dtype(&self, k: usize) -> Option<TensorType> {
        dtype_of(self.model, self.si, self.input(k))
    }

    /// `IsHybridOp(input, weights)`: a float input with int8 or uint8 weights. Returns the
    /// weights' type, which the kernels give their quantised copies.
    fn hybrid(&self, input: usize, weights: usize) -> Option<TensorType> {
        match (self.dtype(input), self.dtype(weights)) {
            (Some(TensorType::Float32), Some(w @ (TensorType::Int8 | TensorType::Uint8))) => {
                Some(w)
            }
            _ => None,
        }
    }
}

/// The temporaries a kernel sets, in `node->temporaries` order: (offset from the Init
/// reservation, shape, type, persistent).
struct Temps<'a> {
    tensors: &'a mut [ITensor],
    base: usize,
    temporaries: &'a mut Vec<usize>,
}

impl Temps<'_> {
    fn rw(&mut self, k: usize, shape: &[i64], dtype: TensorType) {
        set_temp(self.tensors, self.base + k, shape, dtype);
        self.temporaries.push(self.base + k);
    }

    fn persistent(&mut self, k: usize, shape: &[i64], dtype: TensorType) {
        self.rw(k, shape, dtype);
        self.tensors[self.base + k].alloc = AllocType::ArenaRwPersistent;
    }
}

/// RNN (basic_rnn.cc) and UNIDIRECTIONAL_SEQUENCE_RNN (unidirectional_sequence_rnn.cc), same
/// code: on the float path the six reserved indices stay unused; on the hybrid path they are,
/// in order, the input quantised (weights' type, input shape), the hidden state quantised
/// (its shape), a float scaling factor per batch, an int32 accumulator `[units, batch]`, an
/// int32 zero point per batch and the int32 row sums `[2, units]`, persistent. `batch` is the
/// hidden state's first dimension (the kernel checks it equals the input's batch, whichever
/// the time-major layout). Checked on rnn_hybrid and unidirectional_sequence_rnn_hybrid.
pub(super) fn rnn(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    let (Some(q), Some(input), Some(hidden), Some(units)) =
        (n.hybrid(0, 1), n.shape(0), n.shape(4), n.dim(1, 0))
    else {
        return;
    };
    let batch = hidden.first().copied().unwrap_or(1);
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    t.rw(0, &input, q);
    t.rw(1, &hidden, q);
    t.rw(2, &[batch], TensorType::Float32);
    t.rw(3, &[units, batch], TensorType::Int32);
    t.rw(4, &[batch], TensorType::Int32);
    t.persistent(5, &[2, units], TensorType::Int32);
}

/// BIDIRECTIONAL_SEQUENCE_RNN (bidirectional_sequence_rnn.cc): nine reserved indices, unused
/// on the float path. Hybrid: the input quantised, the forward and the backward hidden state
/// quantised, a float scaling factor per batch, an int32 accumulator `[max(fw, bw units),
/// batch]`, an int32 zero point per batch, the forward and backward int32 row sums `[2 (3
/// with aux weights), units]`, persistent, and, with aux weights only, the aux input
/// quantised (the ninth index stays unused otherwise). Checked on
/// bidirectional_sequence_rnn_hybrid and _aux_hybrid.
pub(super) fn bidirectional_rnn(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    let (Some(q), Some(input), Some(fw_hidden), Some(bw_hidden), Some(fw_units), Some(bw_units)) = (
        n.hybrid(0, 1),
        n.shape(0),
        n.shape(4),
        n.shape(8),
        n.dim(1, 0),
        n.dim(5, 0),
    ) else {
        return;
    };
    let batch = fw_hidden.first().copied().unwrap_or(1);
    let aux = n.present(10);
    let row_sums = if aux { 3 } else { 2 };
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    t.rw(0, &input, q);
    t.rw(1, &fw_hidden, q);
    t.rw(2, &bw_hidden, q);
    t.rw(3, &[batch], TensorType::Float32);
    t.rw(4, &[fw_units.max(bw_units), batch], TensorType::Int32);
    t.rw(5, &[batch], TensorType::Int32);
    t.persistent(6, &[row_sums, fw_units], TensorType::Int32);
    t.persistent(7, &[row_sums, bw_units], TensorType::Int32);
    if aux {
        if let Some(aux_input) = n.shape(9) {
            t.rw(8, &aux_input, q);
        }
    }
}

/// LSTM's row-sum rows (lstm.cc, bidirectional_sequence_lstm.cc): 6 with CIFG, 8 without,
/// plus `ceil(n_output / n_cell)` with projection weights.
fn row_sum_rows(cifg: bool, projection: bool, n_output: i64, n_cell: i64) -> i64 {
    let mut rows = if cifg { 6 } else { 8 };
    if projection && n_cell > 0 {
        rows += (n_output + n_cell - 1) / n_cell;
    }
    rows
}

/// LSTM, full kernel (lstm.cc; inputs: 0 input, 1–4 input-to-gate weights, 5–8 recurrent,
/// 16 projection weights, 18 output state, 19 cell state). Init reserves 12 temporaries and 9
/// ledgers (21 indices).
/// - float (and any input that is neither int8 nor hybrid): one scratch of the input's type,
///   `[n_batch, n_cell·4]` with CIFG (no input-to-input weights), `[n_batch, n_cell·5]`
///   without (no +16 here, unlike the sequence kernels);
/// - hybrid: that scratch, then the input, output state and cell state quantised (weights'
///   type, their shapes), three float scaling factors `[n_batch]` (input, output state,
///   product), the recovered cell weights f32 `[n_cell]`, an int32 accumulator `[n_cell,
///   n_batch]`, two float zero points `[n_batch]` (input, output state) and the int32 row sums
///   `[row_sum_rows, n_cell]`, persistent. A sparse hybrid kernel also sizes the ledgers from
///   the weights' sparsity metadata, which the model reader does not keep: not modelled;
/// - int8 input: with 5 intermediates (8x8→16) four int16, one int8 and one int32 `[n_batch,
///   n_cell]`; with 12 (8x8→8) two int8 and six int16.
///
/// The basic kernel (5 inputs, 4 outputs) reserves nothing and makes its inputs 1 and 4 (the
/// previous activation and state) persistent.
///
/// Checked on lstm_full_f32, lstm_cifg_f32, lstm_hybrid and lstm_proj_hybrid; the integer and
/// basic paths are read from the source only.
pub(super) fn lstm(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    if op.inputs.len() == 5 {
        for k in [1, 4] {
            let t = n.input(k);
            if t >= 0 && !is_const(tensors, t) {
                tensors[t as usize].alloc = AllocType::ArenaRwPersistent;
            }
        }
        return;
    }
    let (Some(input), Some(n_cell), Some(n_output)) = (n.shape(0), n.dim(4, 0), n.dim(8, 1)) else {
        return;
    };
    let n_batch = input.first().copied().unwrap_or(1);
    let cifg = !n.present(1);
    let in_type = n.dtype(0).unwrap_or(TensorType::Float32);
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    let cell = [n_batch, n_cell];
    if in_type == TensorType::Int8 {
        if op.intermediates.len() == 5 {
            for k in 0..4 {
                t.rw(k, &cell, TensorType::Int16);
            }
            t.rw(4, &cell, TensorType::Int8);
            t.rw(5, &cell, TensorType::Int32);
        } else {
            t.rw(0, &cell, TensorType::Int8);
            t.rw(1, &cell, TensorType::Int8);
            for k in 2..8 {
                t.rw(k, &cell, TensorType::Int16);
            }
        }
        return;
    }
    let gates = if cifg { 4 } else { 5 };
    t.rw(0, &[n_batch, n_cell * gates], in_type);
    let Some(q) = n.hybrid(0, 4) else {
        return;
    };
    let (Some(output_state), Some(cell_state)) = (n.shape(18), n.shape(19)) else {
        return;
    };
    t.rw(1, &input, q);
    t.rw(2, &output_state, q);
    t.rw(3, &cell_state, q);
    for k in 4..7 {
        t.rw(k, &[n_batch], TensorType::Float32);
    }
    t.rw(7, &[n_cell], TensorType::Float32);
    t.rw(8, &[n_cell, n_batch], TensorType::Int32);
    t.rw(9, &[n_batch], TensorType::Float32);
    t.rw(10, &[n_batch], TensorType::Float32);
    let rows = row_sum_rows(cifg, n.present(16), n_output, n_cell);
    t.persistent(11, &[rows, n_cell], TensorType::Int32);
}

/// BIDIRECTIONAL_SEQUENCE_LSTM (bidirectional_sequence_lstm.cc; forward weights at 1–8 and
/// projection at 16, backward at 18–25 and 33, states at 35–38, aux input 39, aux weights
/// 40–47). Init reserves 19 indices. Always two float scratch buffers: forward `[n_batch,
/// n_fw_cell·(4|5) + 16]`, backward `[n_batch, n_bw_cell·(4|5)]` (the backward one has no
/// +16 in the source, and the oracle agrees). Hybrid adds, in index order: the input
/// quantised, the forward and backward activation states and cell states quantised (weights'
/// type, their shapes), four float factors `[n_batch]` (input, aux input, output state,
/// product), the recovered cell weights f32 `[n_fw_cell]`, an int32 accumulator `[max cell,
/// n_batch]`, three float zero points `[n_batch]`, the forward and backward int32 row sums
/// (rows 6|8, +3|4 with aux weights, + projection rows), persistent, and with aux weights the
/// aux input quantised (index 18; unused otherwise). `n_batch` is the forward activation
/// state's elements over `n_fw_output` (the kernel checks that product; the time-major flag
/// is not read). Checked on bidirectional_sequence_lstm_f32, _merged_f32 and _hybrid.
pub(super) fn bidirectional_lstm(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    let (Some(input), Some(n_fw_cell), Some(n_bw_cell), Some(n_fw_output), Some(n_bw_output)) = (
        n.shape(0),
        n.dim(4, 0),
        n.dim(21, 0),
        n.dim(8, 1),
        n.dim(25, 1),
    ) else {
        return;
    };
    let (Some(fw_act), Some(bw_act), Some(fw_cell), Some(bw_cell)) =
        (n.shape(35), n.shape(37), n.shape(36), n.shape(38))
    else {
        return;
    };
    let n_batch = if n_fw_output > 0 {
        elements(&fw_act) as i64 / n_fw_output
    } else {
        0
    };
    let in_type = n.dtype(0).unwrap_or(TensorType::Float32);
    let (fw_cifg, bw_cifg) = (!n.present(1), !n.present(18));
    let gates = |cifg: bool| if cifg { 4 } else { 5 };
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    t.rw(0, &[n_batch, n_fw_cell * gates(fw_cifg) + 16], in_type);
    t.rw(1, &[n_batch, n_bw_cell * gates(bw_cifg)], in_type);
    let Some(q) = n.hybrid(0, 4) else {
        return;
    };
    let aux = n.present(41);
    t.rw(2, &input, q);
    t.rw(3, &fw_act, q);
    t.rw(4, &bw_act, q);
    t.rw(5, &fw_cell, q);
    t.rw(6, &bw_cell, q);
    for k in 7..11 {
        t.rw(k, &[n_batch], TensorType::Float32);
    }
    t.rw(11, &[n_fw_cell], TensorType::Float32);
    let mut max_cell = n_fw_cell.max(n_bw_cell);
    if aux {
        max_cell = max_cell
            .max(n.dim(43, 0).unwrap_or(0))
            .max(n.dim(47, 0).unwrap_or(0));
    }
    t.rw(12, &[max_cell, n_batch], TensorType::Int32);
    for k in 13..16 {
        t.rw(k, &[n_batch], TensorType::Float32);
    }
    let aux_rows = |cifg: bool| {
        if !aux {
            0
        } else if cifg {
            3
        } else {
            4
        }
    };
    let fw_rows = row_sum_rows(fw_cifg, n.present(16), n_fw_output, n_fw_cell) + aux_rows(fw_cifg);
    let bw_rows = row_sum_rows(bw_cifg, n.present(33), n_bw_output, n_bw_cell) + aux_rows(bw_cifg);
    t.persistent(16, &[fw_rows, n_fw_cell], TensorType::Int32);
    t.persistent(17, &[bw_rows, n_bw_cell], TensorType::Int32);
    if aux {
        if let Some(aux_input) = n.shape(39) {
            t.rw(18, &aux_input, q);
        }
    }
}

/// RFFT2D (rfft2d.cc): Prepare (not Init) adds four temporaries, after any index reserved
/// before it: an int32 `[2 + ⌊√w⌋]` and three int64 `[w/2 + width/4]`, `[height]`, `[height,
/// width + 2]`, with `w = max(height, width/2)` from `fft_length = [height, width]`. With a
/// non-constant `fft_length` all four are dynamic (and the output: `prepare_outputs`). The
/// lengths come from the constant's data, else from the output's last two dimensions
/// (`[height, width/2 + 1]`). Checked on rfft2d_f32 and the COMPLEX_ABS, IMAG and REAL models
/// it feeds: int32[4], int64[8], int64[8], int64[8,18].
pub(super) fn rfft2d(
    model: &Model,
    si: usize,
    op: &Operator,
    tensors: &mut Vec<ITensor>,
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    let fft_length = n.input(1);
    let base = reserve(tensors, 4);
    if !is_const(tensors, fft_length) {
        for t in &mut tensors[base..base + 4] {
            t.unused = false;
        }
        temporaries.extend(base..base + 4);
        return;
    }
    let from_data = usize::try_from(fft_length)
        .ok()
        .and_then(|t| model.subgraphs[si].detail(t))
        .and_then(|d| d.i32_data())
        .filter(|v| v.len() == 2)
        .map(|v| (v[0] as i64, v[1] as i64));
    let from_output = || {
        let out = shape_of(model, si, op.outputs.first().copied().unwrap_or(-1))?;
        let k = out.len();
        (k >= 2).then(|| (out[k - 2] as i64, 2 * (out[k - 1] as i64 - 1)))
    };
    let Some((height, width)) = from_data.or_else(from_output) else {
        return;
    };
    let working = height.max(width / 2);
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    t.rw(
        0,
        &[2 + (working.max(0) as f64).sqrt() as i64],
        TensorType::Int32,
    );
    t.rw(1, &[working / 2 + width / 4], TensorType::Int64);
    t.rw(2, &[height], TensorType::Int64);
    t.rw(3, &[height, width + 2], TensorType::Int64);
}

/// STABLEHLO_REDUCE_WINDOW (stablehlo_reduce_window.cc): Init reserves two indices; Prepare
/// always sizes both, in the input's type: the input dilated by `base_dilations`
/// (`(d − 1)·b + 1` per dimension) and that padded (`+ lo + hi`, negative values crop).
/// Absent attributes are 1 (dilations) and 0 (padding), as the flatbuffer parser fills them.
/// The deprecated REDUCE_WINDOW (TFLite semantic) reserves nothing. Checked on
/// stablehlo_reduce_window_{f32,int8,int16}: `[1,8,8,4]` dilated to `[1,15,8,4]`, padded to
/// `[1,17,10,4]`.
pub(super) fn stablehlo_reduce_window(
    model: &Model,
    si: usize,
    op: &Operator,
    base: usize,
    tensors: &mut [ITensor],
    temporaries: &mut Vec<usize>,
) {
    let n = Node { model, si, op };
    let (Some(input), Some(dtype)) = (n.shape(0), n.dtype(0)) else {
        return;
    };
    let (dilations, padding) = match &op.options {
        Options::StablehloReduceWindow {
            base_dilations,
            padding,
        } => (base_dilations.as_slice(), padding.as_slice()),
        _ => (&[][..], &[][..]),
    };
    let rank = input.len();
    let dilation = |i: usize| {
        if dilations.len() == rank {
            dilations[i]
        } else {
            1
        }
    };
    let pad = |i: usize| {
        if padding.len() == 2 * rank {
            padding[2 * i] + padding[2 * i + 1]
        } else {
            0
        }
    };
    let dilated: Vec<i64> = (0..rank)
        .map(|i| (input[i] - 1) * dilation(i) + 1)
        .collect();
    let padded: Vec<i64> = (0..rank).map(|i| dilated[i] + pad(i)).collect();
    let mut t = Temps {
        tensors,
        base,
        temporaries,
    };
    t.rw(0, &dilated, dtype);
    t.rw(1, &padded, dtype);
}
