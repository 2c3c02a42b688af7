//! Prepare, as LiteRT's kernels run it (RUNTIME_RULES.md L1–L4, L6): each tensor's allocation
//! type, what WHILE, DEQUANTIZE (of a constant: persistent), DENSIFY (persistent RW, which is
//! not a constant to what follows), VAR_HANDLE and READ_VARIABLE change, and the kernel
//! temporaries (Init-phase reservations first, then Prepare-phase ones, indexed after the
//! model's tensors), node by node until the first node with a dynamic output.

use crate::model::{ops, Model, Operator, Options, TensorType};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AllocType {
    /// Constant (memory-mapped). LiteRT's `PersistentRo` (RESHAPE and the like of constants)
    /// would count as constant too; no kernel modelled here produces it.
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
            _ => 0,
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
            ops::MEAN | ops::SUM => {
                reduce_temporaries(model, si, op, &mut tensors, &mut temporaries[i])
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
        // WHILE outputs become dynamic when the body changes shapes (L2).
        let has_dynamic_output = outputs_of[i]
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

/// MEAN and SUM (L6): four temporaries — resolved axes, the axis count, the accumulator
/// (float, int64 or int32 by input type, output elements) and normalized dims (dynamic).
fn reduce_temporaries(
    model: &Model,
    si: usize,
    op: &Operator,
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
        _ => TensorType::Int32,
    };
    let out_elems = shape_of(model, si, out0)
        .map(|s| s.iter().map(|&d| d as i64).collect::<Vec<_>>())
        .unwrap_or_default();
    set_temp(tensors, base + 2, &[elements(&out_elems) as i64], accum);
    temporaries.push(base + 2);
    // normalized dims: dynamic for a non-constant input, never planned.
    temporaries.push(base + 3);
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
