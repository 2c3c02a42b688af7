//! The delegate's support rules: which nodes it takes (`supports`), decided as
//! `Delegate::PrepareOpsToDelegate` (tflite/delegates/xnnpack/xnnpack_delegate.cc) decides:
//! one subgraph at a time, node by node in execution order, each node through its
//! `Visit*Node` with no subgraph (the checks only), with the state that walk keeps (the
//! quasi-static tensors DEQUANTIZE and DENSIFY of constants unpack, the resource variables
//! READ_VARIABLE and ASSIGN_VARIABLE give a type). A builtin `VisitNode` has no case for falls
//! to its default and is refused: that is exactly modelled (`Left`), not unknown. The operand
//! helpers here are shared with the later stages.
//!
//! The delegate's build (LiteRT 2.3.0's wheel) enables signed and unsigned 8-bit quantised
//! operators (`TFLITE_XNNPACK_DELEGATE_FLAG_QS8`, `_QU8`: int8 models are delegated) and not
//! FULLY_CONNECTED with dynamic weights (`_DYNAMIC_FULLY_CONNECTED`); variable operators are on
//! in every build (`support_variable_ops`).

use std::collections::{HashMap, HashSet};

use super::*;
use crate::model::{Subgraph, Tensor};

/// Builtin codes used only by the delegate's rules (schema.fbs).
pub(super) const FLOOR: i32 = 8;
pub(super) const DEPTH_TO_SPACE: i32 = 5;
pub(super) const RELU_N1_TO_1: i32 = 20;
pub(super) const RELU6: i32 = 21;
pub(super) const RESIZE_BILINEAR: i32 = 23;
pub(super) const SPACE_TO_DEPTH: i32 = 26;
pub(super) const TRANSPOSE: i32 = 39;
pub(super) const EXP: i32 = 47;
pub(super) const SPLIT: i32 = 49;
pub(super) const PRELU: i32 = 54;
pub(super) const NEG: i32 = 59;
pub(super) const SLICE: i32 = 65;
pub(super) const SIN: i32 = 66;
pub(super) const LOG: i32 = 73;
pub(super) const SQRT: i32 = 75;
pub(super) const RSQRT: i32 = 76;
pub(super) const SQUARE: i32 = 92;
pub(super) const LEAKY_RELU: i32 = 98;
pub(super) const SQUARED_DIFFERENCE: i32 = 99;
pub(super) const ABS: i32 = 101;
pub(super) const CEIL: i32 = 104;
pub(super) const COS: i32 = 108;
pub(super) const ELU: i32 = 111;
pub(super) const ROUND: i32 = 116;
pub(super) const GELU: i32 = 150;
pub(super) const STABLEHLO_COMPOSITE: i32 = 206;
pub(super) const STRIDED_SLICE: i32 = ops::STRIDED_SLICE;

/// Bytes XNNPACK may read past a value's end (`XNN_EXTRA_BYTES`).
pub(super) const EXTRA_BYTES: u64 = 16;

/// `XNN_MAX_TENSOR_DIMS`.
const MAX_DIMS: usize = 6;

/// The delegate's decision on one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Support {
    Taken,
    /// Refused by its `Visit*Node`'s checks, or an operator `VisitNode` has no case for.
    Left,
    /// A case whose checks read what this model does not know (the reason).
    Unknown(&'static str),
}

/// Tensor `t` of subgraph `si` (none for -1 or an index out of range).
pub(super) fn tensor_of(model: &Model, si: usize, t: i32) -> Option<&crate::model::Tensor> {
    model.tensor(si, t)
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

/// The affine quantisation TFLite gives a tensor (`TfLiteAffineQuantization`; a tensor has
/// one when its file lists scales). A subgraph built by hand, without details, has every
/// tensor quantised per tensor with scale 1 and zero point 0.
struct Quant<'a> {
    scales: &'a [f32],
    zero_points: &'a [i64],
    dim: i32,
}

impl Quant<'_> {
    fn affine(&self) -> bool {
        !self.scales.is_empty()
    }

    /// `params.scale` / `params.zero_point`: the first of each (0 without quantisation).
    fn scale(&self) -> f32 {
        self.scales.first().copied().unwrap_or(0.0)
    }

    fn zero_point(&self) -> i64 {
        self.zero_points.first().copied().unwrap_or(0)
    }

    /// Per tensor: quantised dimension 0 and one scale (`CheckTensorQInt8OrQUInt8Type`).
    fn per_tensor(&self) -> bool {
        self.affine() && self.dim == 0 && self.scales.len() == 1
    }
}

/// `std::isnormal(x) && x > 0`.
fn positive_normal(x: f32) -> bool {
    x.is_normal() && x > 0.0
}

/// One subgraph as the delegate's checks see it.
struct Sg<'a> {
    model: &'a Model,
    sg: &'a Subgraph,
}

const UNIT_SCALE: [f32; 1] = [1.0];
const ZERO_POINT: [i64; 1] = [0];

impl<'a> Sg<'a> {
    fn t(&self, t: i32) -> Option<&'a Tensor> {
        self.sg.tensors.get(usize::try_from(t).ok()?)
    }

    fn ty(&self, t: i32) -> Option<TensorType> {
        self.t(t).map(|x| x.dtype)
    }

    fn is(&self, t: i32, ty: TensorType) -> bool {
        self.ty(t) == Some(ty)
    }

    fn rank(&self, t: i32) -> usize {
        self.t(t).map_or(0, |x| x.shape.len())
    }

    fn dims(&self, t: i32) -> &'a [i32] {
        self.t(t).map_or(&[], |x| &x.shape[..])
    }

    fn dim(&self, t: i32, k: usize) -> i32 {
        self.dims(t).get(k).copied().unwrap_or(0)
    }

    fn elements(&self, t: i32) -> i64 {
        self.dims(t).iter().map(|&d| i64::from(d)).product()
    }

    /// `CheckTensorStaticAllocation`: a constant (`kTfLiteMmapRo` with data).
    fn constant(&self, t: i32) -> bool {
        self.t(t).is_some_and(|x| x.is_constant)
    }

    fn quant(&self, t: i32) -> Quant<'a> {
        if self.sg.details.is_empty() {
            return Quant {
                scales: &UNIT_SCALE,
                zero_points: &ZERO_POINT,
                dim: 0,
            };
        }
        match usize::try_from(t).ok().and_then(|t| self.sg.detail(t)) {
            Some(d) => Quant {
                scales: &d.scales,
                zero_points: &d.zero_points,
                dim: d.quantized_dimension,
            },
            None => Quant {
                scales: &[],
                zero_points: &[],
                dim: 0,
            },
        }
    }

    /// A constant's int32 words (`None` when the data is not known: a subgraph built by hand,
    /// or a constant too large to keep).
    fn i32_data(&self, t: i32) -> Option<Vec<i32>> {
        let t = usize::try_from(t).ok()?;
        self.sg.detail(t)?.i32_data()
    }

    /// A constant's int32 or int64 words, as int64.
    fn int_data(&self, t: i32) -> Option<Vec<i64>> {
        let d = self.sg.detail(usize::try_from(t).ok()?)?;
        match self.ty(t)? {
            TensorType::Int64 => d.i64_data(),
            _ => d.i32_data().map(|v| v.into_iter().map(i64::from).collect()),
        }
    }

    /// `CheckTensorShape(min, max)`: the rank in range and every dimension positive.
    fn shape(&self, t: i32, min: usize, max: usize) -> bool {
        let r = self.rank(t);
        self.t(t).is_some() && r >= min && r <= max && self.dims(t).iter().all(|&d| d > 0)
    }

    /// `CheckTensorFloatType`: float32 or float16.
    fn float(&self, t: i32) -> bool {
        matches!(self.ty(t), Some(TensorType::Float32 | TensorType::Float16))
    }

    /// A per-tensor quantised int8 or uint8 tensor (`CheckTensorQInt8OrQUInt8Type`; uint8 also
    /// wants exactly one zero point).
    fn q8(&self, t: i32) -> bool {
        let q = self.quant(t);
        match self.ty(t) {
            Some(TensorType::Int8) => q.per_tensor(),
            Some(TensorType::Uint8) => q.per_tensor() && q.zero_points.len() == 1,
            _ => false,
        }
    }

    /// `CheckTensorFloat32OrQUInt8Type`.
    fn f32_or_q8(&self, t: i32) -> bool {
        self.is(t, TensorType::Float32) || self.q8(t)
    }

    /// `CheckTensorFloatOrQUInt8Type`.
    fn float_or_q8(&self, t: i32) -> bool {
        self.float(t) || self.q8(t)
    }

    /// `CheckTensorFloatOrQInt8Type`: float, or per-tensor int8 (no uint8).
    fn float_or_qs8(&self, t: i32) -> bool {
        self.float(t) || (self.is(t, TensorType::Int8) && self.quant(t).per_tensor())
    }

    /// `CheckTensorFloat32OrQCInt8Type`: float, int8 per tensor (valid `qint8`) or per channel
    /// along `dim` (valid `qcint8`: zero point 0, a positive scale per channel), or per-tensor
    /// uint8 (valid `quint8`).
    fn f32_or_qc8(&self, t: i32, dim: usize) -> bool {
        let q = self.quant(t);
        match self.ty(t) {
            Some(TensorType::Float32 | TensorType::Float16) => true,
            Some(TensorType::Int8) if q.affine() => {
                if q.scales.len() > 1 {
                    q.dim as usize == dim && self.channelwise(t, &q, dim)
                } else {
                    (-128..=127).contains(&q.zero_point()) && positive_normal(q.scale())
                }
            }
            Some(TensorType::Uint8) => {
                self.q8(t) && (0..=255).contains(&q.zero_point()) && positive_normal(q.scale())
            }
            _ => false,
        }
    }

    /// `xnn_validate_channelwise_quantized_tensor` for `qcint8` / `qcint32`: zero point 0, the
    /// channel dimension inside the rank, a positive normal scale for every channel.
    fn channelwise(&self, t: i32, q: &Quant, dim: usize) -> bool {
        let rank = self.rank(t);
        let channels = self.dim(t, dim).max(0) as usize;
        rank > 0
            && rank <= MAX_DIMS
            && dim < rank
            && q.zero_point() == 0
            && q.scales.len() >= channels
            && q.scales[..channels].iter().all(|&s| positive_normal(s))
    }

    /// `CheckTensorFilterType` (FULLY_CONNECTED's weights): float; int8, int4 or int2 (affine:
    /// several scales only along `dim`, int2 per channel only; no quantisation is let through,
    /// as the delegate's switch falls out of its default); per-tensor uint8.
    fn filter_type(&self, t: i32, dim: usize) -> bool {
        let q = self.quant(t);
        match self.ty(t) {
            Some(TensorType::Float32 | TensorType::Float16) => true,
            Some(TensorType::Int8 | TensorType::Int4 | TensorType::Int2) if q.affine() => {
                let channels = usize::try_from(q.dim).map_or(0, |d| self.dim(t, d).max(0) as usize);
                let off_dimension = q.scales.len() > 1 && q.dim as usize != dim;
                let int2_per_tensor = self.is(t, TensorType::Int2) && q.scales.len() != channels;
                !(off_dimension || int2_per_tensor)
            }
            Some(TensorType::Int8 | TensorType::Int4 | TensorType::Int2) => true,
            Some(TensorType::Uint8) => self.q8(t),
            _ => false,
        }
    }

    /// `CheckTensorFloat32OrFloat16OrQCInt32Type` (biases): float, or int32 with affine
    /// quantisation along dimension 0, valid as `qcint32` (several scales) or `qint32`.
    fn bias_type(&self, t: i32) -> bool {
        let q = self.quant(t);
        match self.ty(t) {
            Some(TensorType::Float32 | TensorType::Float16) => true,
            Some(TensorType::Int32) if q.affine() && q.dim == 0 => {
                if q.scales.len() > 1 {
                    self.channelwise(
                        t,
                        &Quant {
                            zero_points: &[],
                            ..q
                        },
                        0,
                    )
                } else {
                    q.zero_point() == 0 && positive_normal(q.scale()) && self.rank(t) <= MAX_DIMS
                }
            }
            _ => false,
        }
    }

    /// `GetTensorScaleOrDefault`: the per-tensor scale of an int8 / uint8 tensor, else NaN.
    fn scale_or_nan(&self, t: i32) -> f32 {
        let q = self.quant(t);
        match self.ty(t) {
            Some(TensorType::Int8 | TensorType::Uint8) if q.per_tensor() => q.scale(),
            _ => f32::NAN,
        }
    }

    /// `GetXNNPackDatatype` of an 8-bit tensor: is it a valid per-tensor `qint8` (or `quint8`)?
    fn xnn_q8(&self, t: i32) -> Option<TensorType> {
        let q = self.quant(t);
        let zp = q.zero_point();
        match self.ty(t)? {
            TensorType::Int8 if q.scales.len() == 1 && (-128..=127).contains(&zp) => {
                Some(TensorType::Int8)
            }
            TensorType::Uint8 if q.scales.len() == 1 && (0..=255).contains(&zp) => {
                Some(TensorType::Uint8)
            }
            _ => None,
        }
    }

    /// `CheckShapeTensorShape`: a 1-D tensor, or with `squeeze` leading dimensions of 1.
    fn shape_tensor(&self, t: i32, squeeze: bool) -> bool {
        let d = self.dims(t);
        d.len() == 1 || (squeeze && d.iter().take(d.len().saturating_sub(1)).all(|&x| x == 1))
    }
}

/// `ConvertActivationToOutputRange`: none, RELU, RELU_N1_TO_1 and RELU6 become a clamp; TANH,
/// SIGN_BIT and the rest are refused.
fn activation_ok(activation: u8) -> bool {
    activation <= 3
}

/// `CheckTensorsInputOutputScale`: between tensors of one 8-bit type, `in / out` scale in
/// `[min, max)`.
fn io_scale_ok(s: &Sg, input: i32, output: i32, min: f32, max: f32) -> bool {
    if s.ty(input) != s.ty(output)
        || !matches!(s.ty(input), Some(TensorType::Int8 | TensorType::Uint8))
    {
        return true;
    }
    let ratio = s.quant(input).scale() / s.quant(output).scale();
    (min..max).contains(&ratio)
}

/// The delegate's per-subgraph state while it walks the nodes.
#[derive(Default)]
struct Walk {
    /// Quasi-static tensors (unpacked once at prepare) and the node unpacking each.
    quasi_static: HashMap<i32, usize>,
    /// Nodes that unpack static data (`static_unpack_nodes_`).
    unpack_nodes: HashSet<usize>,
    /// fp32 outputs of skipped fp16 DEQUANTIZE nodes (`f16_input_tensor_for_dequant_f32_tensor_`).
    f16_skipped: HashSet<i32>,
    /// Resource tensors (`local_id_to_resources_`): the VAR_HANDLE node and the proxy tensor.
    resources: HashMap<i32, Resource>,
}

#[derive(Default, Clone, Copy)]
struct Resource {
    var_handle: Option<usize>,
    proxy: Option<i32>,
}

impl Walk {
    fn quasi(&self, t: i32) -> bool {
        self.quasi_static.contains_key(&t)
    }

    /// `ResourceInfo::AddProxyValue`: needs a VAR_HANDLE seen before; every proxy of one
    /// resource has one type and shape.
    fn add_proxy(&mut self, s: &Sg, resource: i32, t: i32) -> bool {
        let r = self.resources.entry(resource).or_default();
        if r.var_handle.is_none() {
            return false;
        }
        match r.proxy {
            None => {
                r.proxy = Some(t);
                true
            }
            Some(p) => s.ty(p) == s.ty(t) && s.dims(p) == s.dims(t),
        }
    }

    /// `GetTensorType`: float16 for the output of a skipped fp16 DEQUANTIZE.
    fn gemm_type(&self, s: &Sg, t: i32) -> Option<TensorType> {
        if self.f16_skipped.contains(&t) {
            Some(TensorType::Float16)
        } else {
            s.ty(t)
        }
    }

    /// `CheckFilterAndBiasTypes`: a float filter wants a bias of its type (an fp16 filter also
    /// takes an fp32 bias).
    fn filter_and_bias(&self, s: &Sg, filter: i32, bias: i32) -> bool {
        match self.gemm_type(s, filter) {
            Some(f @ (TensorType::Float16 | TensorType::Float32)) => {
                let b = self.gemm_type(s, bias);
                b == Some(f) || (f == TensorType::Float16 && b == Some(TensorType::Float32))
            }
            _ => true,
        }
    }

    /// A weight the delegate takes: static, or quasi-static.
    fn static_or_quasi(&self, s: &Sg, t: i32) -> bool {
        s.constant(t) || self.quasi(t)
    }
}

/// The delegate's decision for every node of subgraph `si`, in node order.
pub(super) fn supports(model: &Model, si: usize) -> Vec<Support> {
    let sg = &model.subgraphs[si];
    let s = Sg { model, sg };
    let n = sg.operators.len();
    let mut out = vec![Support::Left; n];
    let mut w = Walk::default();
    for (node, op) in sg.operators.iter().enumerate() {
        // `PrepareOpsToDelegate`: a DEQUANTIZE of static fp16 or int8 data, or a DENSIFY of a
        // static sparse tensor, unpacks once at prepare; it is delegated unless a node TFLite
        // keeps reads its output.
        if let Some(fp16) = static_unpack(&s, &w, op) {
            let output = op.outputs[0];
            if fp16 && skips_fp16_dequantize(sg, output) {
                w.f16_skipped.insert(output);
            }
            w.unpack_nodes.insert(node);
            w.quasi_static.insert(output, node);
            continue;
        }
        let verdict = visit(&s, &mut w, node, op);
        if verdict != Support::Taken {
            for t in &op.inputs {
                if let Some(&producer) = w.quasi_static.get(t) {
                    w.unpack_nodes.remove(&producer);
                }
            }
        }
        out[node] = verdict;
    }
    // The VAR_HANDLE of every resource a READ_VARIABLE or ASSIGN_VARIABLE gave a type.
    for r in w.resources.values() {
        if let (Some(v), Some(_)) = (r.var_handle, r.proxy) {
            out[v] = Support::Taken;
        }
    }
    for &u in &w.unpack_nodes {
        out[u] = Support::Taken;
    }
    out
}

/// Whether `op` unpacks static data when the delegate prepares (`Some(fp16)`): a DEQUANTIZE
/// (one input, one output) of a non-sparse static or quasi-static fp16 or quantised int8
/// tensor into fp32, or a DENSIFY of a static sparse tensor (fp16, int8 or fp32) into its own
/// type. (Sparsity is not read: a DENSIFY's constant input is sparse, a DEQUANTIZE's is not.)
fn static_unpack(s: &Sg, w: &Walk, op: &Operator) -> Option<bool> {
    let ([input], [output]) = (&op.inputs[..], &op.outputs[..]) else {
        return None;
    };
    let (input, output) = (*input, *output);
    let static_input = s.constant(input) || w.quasi(input);
    match op.builtin {
        ops::DEQUANTIZE
            if static_input
                && s.is(output, TensorType::Float32)
                && (s.is(input, TensorType::Float16)
                    || (s.is(input, TensorType::Int8) && s.quant(input).affine())) =>
        {
            Some(s.is(input, TensorType::Float16))
        }
        ops::DENSIFY
            if s.constant(input)
                && matches!(
                    s.ty(input),
                    Some(TensorType::Float16 | TensorType::Int8 | TensorType::Float32)
                )
                && s.ty(output) == s.ty(input) =>
        {
            Some(false)
        }
        _ => None,
    }
}

/// Per node of subgraph `si`, whether it unpacks static data when the delegate prepares (a
/// DEQUANTIZE of a static or quasi-static fp16 or int8 tensor, a DENSIFY of a constant):
/// taken, it runs nothing and its output is static data. One walk in node order, since a node
/// may read the quasi-static output of an earlier one.
pub(super) fn static_unpack_nodes(model: &Model, si: usize) -> Vec<bool> {
    let sg = &model.subgraphs[si];
    let s = Sg { model, sg };
    let mut w = Walk::default();
    let mut out = vec![false; sg.operators.len()];
    for (k, op) in sg.operators.iter().enumerate() {
        if static_unpack(&s, &w, op).is_some() {
            out[k] = true;
            w.quasi_static.insert(op.outputs[0], k);
        }
    }
    out
}

/// An fp16 DEQUANTIZE is skipped (the GEMM takes the fp16 data) when every node reading its
/// output is a FULLY_CONNECTED, CONV_2D or DEPTHWISE_CONV_2D that does not read it as input 0.
fn skips_fp16_dequantize(sg: &Subgraph, output: i32) -> bool {
    sg.operators.iter().all(|c| {
        !c.inputs.contains(&output)
            || (matches!(
                c.builtin,
                ops::FULLY_CONNECTED | ops::CONV_2D | ops::DEPTHWISE_CONV_2D
            ) && c.inputs.first() != Some(&output))
    })
}

fn taken(ok: bool) -> Support {
    if ok {
        Support::Taken
    } else {
        Support::Left
    }
}

/// `Subgraph::VisitNode` with no subgraph: the checks of the node's `Visit*Node`.
fn visit(s: &Sg, w: &mut Walk, node: usize, op: &Operator) -> Support {
    let ins = &op.inputs[..];
    let outs = &op.outputs[..];
    let input = |k: usize| ins.get(k).copied().unwrap_or(-1);
    let output = |k: usize| outs.get(k).copied().unwrap_or(-1);
    let (i0, o0) = (input(0), output(0));
    let one_to_one = ins.len() == 1 && outs.len() == 1;
    match op.builtin {
        // VisitUnaryNode: one input of rank <= 6 with positive dimensions, one output.
        ABS
        | CEIL
        | COS
        | EXP
        | FLOOR
        | GELU
        | ops::HARD_SWISH
        | LOG
        | NEG
        | RELU_N1_TO_1
        | ops::RELU
        | RELU6
        | ROUND
        | RSQRT
        | SIN
        | SQRT
        | SQUARE => taken(one_to_one && s.shape(i0, 0, MAX_DIMS) && s.float(i0) && s.float(o0)),
        ops::DEQUANTIZE => taken(one_to_one && s.shape(i0, 0, MAX_DIMS) && s.q8(i0) && s.float(o0)),
        ELU => taken(
            one_to_one && s.shape(i0, 0, MAX_DIMS) && s.float_or_qs8(i0) && s.float_or_qs8(o0),
        ),
        ops::LOGISTIC | ops::TANH => {
            taken(one_to_one && s.shape(i0, 0, MAX_DIMS) && s.float_or_q8(i0) && s.float_or_q8(o0))
        }
        LEAKY_RELU => taken(
            one_to_one
                && s.shape(i0, 0, MAX_DIMS)
                && s.float_or_q8(i0)
                && s.float_or_q8(o0)
                && leaky_relu_ok(s, op, i0, o0),
        ),
        ops::QUANTIZE => taken(
            one_to_one
                && s.shape(i0, 0, MAX_DIMS)
                && s.float_or_q8(i0)
                && s.float_or_q8(o0)
                && quantize_ok(s, i0, o0),
        ),
        // VisitBinaryNode.
        ops::ADD
        | ops::SUB
        | ops::MUL
        | ops::DIV
        | ops::MAXIMUM
        | ops::MINIMUM
        | PRELU
        | SQUARED_DIFFERENCE => taken(binary_ok(s, w, op)),
        ops::ASSIGN_VARIABLE => {
            // VisitAssignVariableNode: the value float or 8-bit; it types the resource.
            let value = input(1);
            taken(s.float_or_q8(value) && w.add_proxy(s, i0, value))
        }
        ops::READ_VARIABLE => {
            // VisitReadVariableNode: a ranked float or 8-bit result; it types the resource.
            taken(s.rank(o0) > 0 && s.float_or_q8(o0) && w.add_proxy(s, i0, o0))
        }
        ops::VAR_HANDLE => {
            // VisitVarHandleNode records the handle and refuses: it is taken at the end if a
            // READ_VARIABLE or ASSIGN_VARIABLE typed its resource.
            if let Some(&t) = outs.first() {
                w.resources.entry(t).or_default().var_handle = Some(node);
            }
            Support::Left
        }
        ops::AVERAGE_POOL_2D => {
            // VisitAveragePool2DNode: float only (int8 pools stay in TFLite).
            taken(one_to_one && s.float(i0) && s.float(o0) && pool_ok(op))
        }
        ops::MAX_POOL_2D => {
            // VisitMaxPool2DNode: fp32 or 8-bit in, float or 8-bit out.
            taken(one_to_one && s.f32_or_q8(i0) && s.float_or_q8(o0) && pool_ok(op))
        }
        ops::BATCH_MATMUL => taken(batch_matmul_ok(s, op)),
        ops::CONCATENATION => taken(concatenation_ok(s, op)),
        ops::CONV_2D => taken(conv_ok(s, w, op)),
        ops::DEPTHWISE_CONV_2D => taken(depthwise_ok(s, w, op)),
        DEPTH_TO_SPACE => taken(
            one_to_one
                && s.float_or_q8(i0)
                && s.float_or_q8(o0)
                && matches!(op.options, Options::BlockSize { block_size } if block_size > 1),
        ),
        // VisitExpandDimsNode returns an error before any check.
        ops::EXPAND_DIMS => Support::Left,
        ops::FULLY_CONNECTED => taken(fully_connected_ok(s, w, op)),
        ops::REDUCE_MIN | ops::REDUCE_MAX | ops::SUM | ops::MEAN => taken(reduce_ok(s, op)),
        ops::PAD => taken(pad_ok(s, op)),
        ops::RESHAPE => taken(reshape_ok(s, op)),
        RESIZE_BILINEAR => taken(resize_bilinear_ok(s, op)),
        SLICE => taken(slice_ok(s, op)),
        ops::SOFTMAX => {
            // VisitSoftmaxNode: beta exactly 1, float only.
            let beta = match op.options {
                Options::Softmax { beta_bits } => f32::from_bits(beta_bits),
                _ => 0.0,
            };
            taken(beta == 1.0 && one_to_one && s.float(i0) && s.float(o0))
        }
        SPACE_TO_DEPTH => taken(space_to_depth_ok(s, op)),
        SPLIT => taken(split_ok(s, op)),
        STRIDED_SLICE => taken(strided_slice_ok(s, op)),
        TRANSPOSE => {
            // VisitTransposeNode: a static permutation, an input of rank 1 to 6.
            taken(
                ins.len() == 2
                    && outs.len() == 1
                    && s.float_or_q8(i0)
                    && s.shape(i0, 1, MAX_DIMS)
                    && s.constant(input(1)),
            )
        }
        ops::TRANSPOSE_CONV => taken(transpose_conv_ok(s, w, op)),
        // An `odml.scaled_dot_product_attention` composite goes to VisitDotAttentionNode (its
        // checks are not modelled), any other is refused.
        STABLEHLO_COMPOSITE => match &op.options {
            Options::Composite { name } if name != "odml.scaled_dot_product_attention" => {
                Support::Left
            }
            Options::Composite { .. } => {
                Support::Unknown("scaled dot-product attention is not modelled")
            }
            _ => Support::Unknown("composite options not read"),
        },
        ops::CUSTOM => custom(s, w, op),
        // Every other builtin hits VisitNode's default: refused.
        _ => Support::Left,
    }
}

/// VisitUnaryNode's LEAKY_RELU checks: a normal, non-zero alpha; between 8-bit tensors the
/// positive scale `in / out` in [1/256, 128] and the negative one `positive × alpha` in
/// [-127.99609375, 128] and at least 1/256 in magnitude.
fn leaky_relu_ok(s: &Sg, op: &Operator, input: i32, output: i32) -> bool {
    let alpha = match op.options {
        Options::LeakyRelu { alpha_bits } => f32::from_bits(alpha_bits),
        _ => 0.0,
    };
    if !alpha.is_normal() {
        return false;
    }
    let (si, so) = (s.scale_or_nan(input), s.scale_or_nan(output));
    if !(si.is_normal() && so.is_normal()) {
        return true;
    }
    let positive = si / so;
    if !(1.0 / 256.0..=128.0).contains(&positive) {
        return false;
    }
    let negative = positive * alpha;
    (-127.996_09..=128.0).contains(&negative) && negative.abs() >= 1.0 / 256.0
}

/// VisitUnaryNode's QUANTIZE checks: from float anything; from 8-bit only to the same XNNPACK
/// type with an input-to-output scale in [1/256, 128].
fn quantize_ok(s: &Sg, input: i32, output: i32) -> bool {
    if s.float(input) {
        return true;
    }
    match (s.xnn_q8(input), s.xnn_q8(output)) {
        (Some(a), Some(b)) if a == b => {
            let ratio = s.scale_or_nan(input) / s.scale_or_nan(output);
            (1.0 / 256.0..=128.0).contains(&ratio)
        }
        _ => false,
    }
}

/// VisitBinaryNode: two inputs of rank <= 6 with positive dimensions, one output. ADD, SUB
/// and MUL take float or 8-bit tensors of one type; DIV, MAXIMUM, MINIMUM, PRELU and
/// SQUARED_DIFFERENCE float only. Between 8-bit tensors ADD and SUB want each input-to-output
/// scale in [1/1024, 256), MUL the product of the input scales over the output's in
/// [1/65536, 256). ADD, SUB, MUL and DIV take the fused activations a clamp expresses; PRELU
/// wants a static (or quasi-static) slope.
fn binary_ok(s: &Sg, w: &Walk, op: &Operator) -> bool {
    let ([a, b], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (a, b, o) = (*a, *b, *o);
    if !(s.shape(a, 0, MAX_DIMS) && s.shape(b, 0, MAX_DIMS)) {
        return false;
    }
    let types = match op.builtin {
        ops::ADD | ops::SUB | ops::MUL => {
            s.float_or_q8(a)
                && s.float_or_q8(b)
                && s.float_or_q8(o)
                && s.ty(a) == s.ty(b)
                && s.ty(a) == s.ty(o)
        }
        _ => s.float(a) && s.float(b) && s.float(o),
    };
    if !types {
        return false;
    }
    let activation = match op.options {
        Options::Binary { activation } => activation,
        _ => 0,
    };
    match op.builtin {
        ops::ADD | ops::SUB => {
            io_scale_ok(s, a, o, 1.0 / 1024.0, 256.0)
                && io_scale_ok(s, b, o, 1.0 / 1024.0, 256.0)
                && activation_ok(activation)
        }
        ops::MUL => {
            let eight_bit = matches!(s.ty(a), Some(TensorType::Int8 | TensorType::Uint8));
            let product = s.quant(a).scale() * s.quant(b).scale() / s.quant(o).scale();
            (!eight_bit || (1.0 / 65536.0..256.0).contains(&product)) && activation_ok(activation)
        }
        ops::DIV => activation_ok(activation),
        PRELU => w.static_or_quasi(s, b),
        _ => true,
    }
}

/// `CheckPoolingParams`: positive strides and window, no stride larger than the window, no
/// 1×1 window with a stride above 1. (Pool padding and fused activation are not read: the
/// converter writes SAME or VALID and none, RELU, RELU_N1_TO_1 or RELU6 for pools.)
fn pool_ok(op: &Operator) -> bool {
    let Options::Pool2D {
        stride_w,
        stride_h,
        filter_w,
        filter_h,
    } = op.options
    else {
        return false;
    };
    stride_w > 0
        && stride_h > 0
        && filter_w > 0
        && filter_h > 0
        && stride_w <= filter_w
        && stride_h <= filter_h
        && !(filter_w == 1 && filter_h == 1 && stride_w.max(stride_h) > 1)
}

/// VisitBatchMatMulNode: A float or 8-bit; B float, int8 per tensor or per channel along its
/// last dimension (the one before with `adj_y`); an int8 B against an int8 A with zero point
/// 0; one XNNPACK type on both sides unless float A meets int8 B (dynamic quantisation); both
/// of rank at least 2.
fn batch_matmul_ok(s: &Sg, op: &Operator) -> bool {
    let ([a, b, ..], [o, ..]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (a, b, o) = (*a, *b, *o);
    let adj_y = matches!(op.options, Options::BatchMatMul { adj_y: true, .. });
    let rank_b = s.rank(b);
    let b_dim = if adj_y {
        rank_b.wrapping_sub(2)
    } else {
        rank_b.wrapping_sub(1)
    };
    if !(s.float_or_q8(a) && s.f32_or_qc8(b, b_dim)) {
        return false;
    }
    let dynamic = s.is(a, TensorType::Float32) && s.is(b, TensorType::Int8);
    if s.is(b, TensorType::Int8) && !dynamic && s.quant(b).zero_point() != 0 {
        return false;
    }
    if !s.float_or_q8(o) {
        return false;
    }
    // GetXNNPackDatatype of each side: fp32, fp16, qint8 / qcint8, quint8.
    let xnn = |t: i32| -> Option<(TensorType, bool)> {
        let q = s.quant(t);
        match s.ty(t)? {
            TensorType::Int8 if q.scales.len() > 1 => Some((TensorType::Int8, true)),
            TensorType::Int8 | TensorType::Uint8 => s.xnn_q8(t).map(|ty| (ty, false)),
            ty => Some((ty, false)),
        }
    };
    if xnn(a) != xnn(b) && !dynamic {
        return false;
    }
    s.rank(a) >= 2 && rank_b >= 2
}

/// VisitConcatenationNode: two to five inputs, one output, float or 8-bit; the axis inside
/// every input's rank; uint8 inputs with the output's scale and zero point.
fn concatenation_ok(s: &Sg, op: &Operator) -> bool {
    let n = op.inputs.len();
    if !(2..=5).contains(&n) || op.outputs.len() != 1 {
        return false;
    }
    let o = op.outputs[0];
    let axis = match op.options {
        Options::Concatenation { axis, .. } => axis,
        _ => 0,
    };
    let uint8 = s.is(o, TensorType::Uint8);
    let (oq, os) = (s.quant(o).zero_point(), s.quant(o).scale());
    s.float_or_q8(o)
        && op.inputs.iter().all(|&t| {
            (axis < s.rank(t) as i32)
                && (!uint8 || (s.quant(t).zero_point() == oq && s.quant(t).scale() == os))
                && s.float_or_q8(t)
        })
}

/// The filter, bias and output checks VisitConv2DNode and VisitDepthwiseConv2DNode share:
/// exactly three inputs, the bias present; a 4-D float or 8-bit input and output; a 4-D
/// filter valid along `filter_dim`, static or quasi-static; a 1-D bias, static or
/// quasi-static, of a type the filter takes.
fn conv_operands_ok(s: &Sg, w: &Walk, op: &Operator, filter_dim: usize) -> bool {
    let ([x, f, b], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, f, b, o) = (*x, *f, *b, *o);
    s.float_or_q8(x)
        && s.shape(x, 4, 4)
        && s.f32_or_qc8(f, filter_dim)
        && s.shape(f, 4, 4)
        && w.static_or_quasi(s, f)
        && b >= 0
        && s.bias_type(b)
        && s.shape(b, 1, 1)
        && w.static_or_quasi(s, b)
        && w.filter_and_bias(s, f, b)
        && s.float_or_q8(o)
        && s.shape(o, 4, 4)
}

/// VisitConv2DNode: positive strides and dilations; the shared operand checks (filter per
/// channel along dimension 0); input, filter and output of one type, or a float input with an
/// int8 filter (dynamic range); a whole number of groups; SAME or VALID; an activation a clamp
/// expresses.
fn conv_ok(s: &Sg, w: &Walk, op: &Operator) -> bool {
    let Options::Conv2D {
        padding,
        stride_w,
        stride_h,
        dilation_w,
        dilation_h,
        activation,
    } = op.options
    else {
        return false;
    };
    if !(stride_w > 0 && stride_h > 0 && dilation_w > 0 && dilation_h > 0) {
        return false;
    }
    if !conv_operands_ok(s, w, op, 0) {
        return false;
    }
    let (x, f, o) = (op.inputs[0], op.inputs[1], op.outputs[0]);
    let dynamic = s.is(x, TensorType::Float32) && s.is(f, TensorType::Int8);
    let input_channels = s.dim(f, 3);
    s.ty(x) == s.ty(o)
        && (s.ty(x) == s.ty(f) || dynamic)
        && input_channels > 0
        && s.dim(x, 3) / input_channels != 0
        && padding <= 1
        && activation_ok(activation)
}

/// VisitDepthwiseConv2DNode: the shared operand checks (filter per channel along dimension 3);
/// input, filter and output of one type (no dynamic range); positive strides, dilations and
/// depth multiplier dividing the output channels; SAME or VALID; a clamp activation.
fn depthwise_ok(s: &Sg, w: &Walk, op: &Operator) -> bool {
    let Options::DepthwiseConv2D {
        padding,
        stride_w,
        stride_h,
        dilation_w,
        dilation_h,
        depth_multiplier,
        activation,
    } = op.options
    else {
        return false;
    };
    if !conv_operands_ok(s, w, op, 3) {
        return false;
    }
    let (x, f, o) = (op.inputs[0], op.inputs[1], op.outputs[0]);
    let out_channels = s.dim(f, 3);
    s.ty(x) == s.ty(o)
        && s.ty(x) == s.ty(f)
        && stride_w > 0
        && stride_h > 0
        && depth_multiplier > 0
        && out_channels % depth_multiplier == 0
        && dilation_w > 0
        && dilation_h > 0
        && padding <= 1
        && activation_ok(activation)
}

/// VisitFullyConnectedNode (version 8, sparse weights, is refused first): default weights
/// format; two or three inputs, one output; float or 8-bit input and output; a 2-D filter of
/// a type `CheckTensorFilterType` takes, static or quasi-static (dynamic float filters need a
/// flag this build leaves off); a bias, when present, with one element per output channel,
/// float or int32, static or quasi-static, of a type the filter takes; one type throughout
/// except float or int8 input with 2-, 4- or 8-bit integer weights; int8 weights with zero
/// point 0 unless dynamically quantised; an even input width for int4 weights, a multiple of
/// 4 for int2; a clamp activation.
fn fully_connected_ok(s: &Sg, w: &Walk, op: &Operator) -> bool {
    let version = s
        .model
        .operator_codes
        .get(op.opcode_index as usize)
        .map_or(1, |c| c.version);
    // Without options TFLite's parser leaves the parameters zero: no activation, the
    // default format.
    let (activation, weights_format) = match op.options {
        Options::FullyConnected {
            activation,
            weights_format,
            ..
        } => (activation, weights_format),
        _ => (0, 0),
    };
    if version == 8 || weights_format != 0 {
        return false;
    }
    if !(2..=3).contains(&op.inputs.len()) || op.outputs.len() != 1 {
        return false;
    }
    let (x, f, o) = (op.inputs[0], op.inputs[1], op.outputs[0]);
    if !(s.float_or_q8(x) && s.shape(f, 2, 2) && s.filter_type(f, 0) && w.static_or_quasi(s, f)) {
        return false;
    }
    let output_channels = i64::from(s.dim(f, 0));
    let input_channels = s.dim(f, 1);
    if let Some(&b) = op.inputs.get(2).filter(|&&b| b >= 0) {
        if !(s.elements(b) == output_channels
            && s.bias_type(b)
            && w.static_or_quasi(s, b)
            && w.filter_and_bias(s, f, b))
        {
            return false;
        }
    }
    if !s.float_or_q8(o) {
        return false;
    }
    let low_bit = matches!(
        s.ty(f),
        Some(TensorType::Int2 | TensorType::Int4 | TensorType::Int8)
    );
    let dynamic = matches!(s.ty(x), Some(TensorType::Float32 | TensorType::Float16)) && low_bit;
    let srq = s.is(x, TensorType::Int8) && low_bit;
    if s.ty(x) != s.ty(o) || (s.ty(x) != s.ty(f) && !(dynamic || srq)) {
        return false;
    }
    if !dynamic && s.is(f, TensorType::Int8) && s.quant(f).zero_point() != 0 {
        return false;
    }
    if s.is(f, TensorType::Int4) && input_channels % 2 == 1 {
        return false;
    }
    if s.is(f, TensorType::Int2) && input_channels % 4 != 0 {
        return false;
    }
    activation_ok(activation)
}

/// VisitReduceNode (MEAN, SUM, REDUCE_MAX, REDUCE_MIN): two inputs, one output; float or 8-bit
/// data; static int32 axes of rank <= 1, at least one and at most six of them (one axis 0 of a
/// scalar is refused).
fn reduce_ok(s: &Sg, op: &Operator) -> bool {
    let ([x, axes], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, axes, o) = (*x, *axes, *o);
    let n = s.elements(axes);
    let first_is_zero = s.i32_data(axes).is_some_and(|a| a.first() == Some(&0));
    s.float_or_q8(x)
        && s.is(axes, TensorType::Int32)
        && s.rank(axes) <= 1
        && s.constant(axes)
        && n > 0
        && !(n == 1 && first_is_zero && s.rank(x) == 0)
        && n <= MAX_DIMS as i64
        && s.float_or_q8(o)
}

/// VisitPadNode: float or 8-bit input and output of rank 1 to 6; static int32 paddings of
/// shape [rank, 2], none negative.
fn pad_ok(s: &Sg, op: &Operator) -> bool {
    let ([x, p], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, p, o) = (*x, *p, *o);
    let dims = s.dims(p);
    s.float_or_q8(x)
        && s.shape(x, 1, MAX_DIMS)
        && s.is(p, TensorType::Int32)
        && dims.len() == 2
        && dims[0] as usize == s.rank(x)
        && dims[1] == 2
        && s.constant(p)
        && s.float_or_q8(o)
        && s.shape(o, 1, MAX_DIMS)
        && s.i32_data(p).is_none_or(|d| d.iter().all(|&v| v >= 0))
}

/// The zero-padding `[pre, post]` pairs of a PAD node, when its paddings are known.
pub(super) fn pad_amounts(model: &Model, si: usize, op: &Operator) -> Option<Vec<(i32, i32)>> {
    let p = *op.inputs.get(1)?;
    let d = model.subgraphs[si]
        .detail(usize::try_from(p).ok()?)?
        .i32_data()?;
    Some(d.chunks_exact(2).map(|c| (c[0], c[1])).collect())
}

/// VisitReshapeNode: one or two inputs, one output; float or 8-bit input and output of rank
/// <= 6 with positive dimensions; 8-bit tensors with one scale and zero point; a shape input
/// static int32, 1-D (or with leading 1s); a new shape that is not the legacy `[-1]`.
fn reshape_ok(s: &Sg, op: &Operator) -> bool {
    if !(1..=2).contains(&op.inputs.len()) || op.outputs.len() != 1 {
        return false;
    }
    let (x, o) = (op.inputs[0], op.outputs[0]);
    if !(s.float_or_q8(x) && s.shape(x, 0, MAX_DIMS) && s.float_or_q8(o) && s.shape(o, 0, MAX_DIMS))
    {
        return false;
    }
    if matches!(s.ty(o), Some(TensorType::Int8 | TensorType::Uint8))
        && (s.quant(x).zero_point() != s.quant(o).zero_point()
            || s.quant(x).scale() != s.quant(o).scale())
    {
        return false;
    }
    let new_shape = if op.inputs.len() == 2 {
        let shape = op.inputs[1];
        if !(s.is(shape, TensorType::Int32) && s.shape_tensor(shape, true) && s.constant(shape)) {
            return false;
        }
        s.i32_data(shape)
    } else {
        match &op.options {
            Options::Reshape { new_shape } => Some(new_shape.clone()),
            _ => Some(Vec::new()),
        }
    };
    new_shape.is_none_or(|d| !(d.len() == 1 && d[0] == -1))
}

/// VisitResizeBilinearNode: a 4-D fp32 or 8-bit input and float or 8-bit output; a static
/// 1-D int32 size whose first entry is positive.
fn resize_bilinear_ok(s: &Sg, op: &Operator) -> bool {
    let ([x, size], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, size, o) = (*x, *size, *o);
    s.f32_or_q8(x)
        && s.shape(x, 4, 4)
        && s.is(size, TensorType::Int32)
        && s.shape_tensor(size, false)
        && s.constant(size)
        && s.float_or_q8(o)
        && s.shape(o, 4, 4)
        && s.i32_data(size)
            .is_none_or(|d| d.first().is_some_and(|&v| v > 0))
}

/// VisitSliceNode: static 1-D int32 or int64 begin and size of one length; float or 8-bit
/// input and output; every size positive (-1, "to the end", is refused).
fn slice_ok(s: &Sg, op: &Operator) -> bool {
    let ([x, begin, size], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, begin, size, o) = (*x, *begin, *size, *o);
    let int = |t: i32| matches!(s.ty(t), Some(TensorType::Int32 | TensorType::Int64));
    s.shape_tensor(begin, false)
        && s.constant(begin)
        && int(begin)
        && s.shape_tensor(size, false)
        && s.constant(size)
        && int(size)
        && s.dim(begin, 0) == s.dim(size, 0)
        && s.float_or_q8(x)
        && s.float_or_q8(o)
        && s.int_data(size).is_none_or(|d| d.iter().all(|&v| v > 0))
}

/// VisitSpaceToDepthNode: fp32 or 8-bit input, float or 8-bit output, a block above 1 that
/// divides the input's height and width.
fn space_to_depth_ok(s: &Sg, op: &Operator) -> bool {
    let ([x], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, o) = (*x, *o);
    let Options::BlockSize { block_size } = op.options else {
        return false;
    };
    s.f32_or_q8(x)
        && s.float_or_q8(o)
        && block_size > 1
        && s.dim(x, 1) % block_size == 0
        && s.dim(x, 2) % block_size == 0
}

/// VisitSplitNode: `num_splits` outputs, two to four of them; two inputs, the axis a static
/// int32; float or 8-bit data.
fn split_ok(s: &Sg, op: &Operator) -> bool {
    let num_splits = match op.options {
        Options::Split { num_splits } => num_splits,
        _ => -1,
    };
    let ([axis, x], outs) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    num_splits == outs.len() as i32
        && (2..=4).contains(&outs.len())
        && s.is(*axis, TensorType::Int32)
        && s.constant(*axis)
        && s.float_or_q8(*x)
        && outs.iter().all(|&t| s.float_or_q8(t))
}

/// VisitStridedSliceNode: no ellipsis, new-axis or shrink-axis mask; static 1-D int32 begin,
/// end and strides, one entry per input dimension; every stride 1; float or 8-bit data.
fn strided_slice_ok(s: &Sg, op: &Operator) -> bool {
    let Options::StridedSlice {
        ellipsis_mask: 0,
        new_axis_mask: 0,
        shrink_axis_mask: 0,
        ..
    } = op.options
    else {
        return false;
    };
    let ([x, begin, end, strides], [o]) = (&op.inputs[..], &op.outputs[..]) else {
        return false;
    };
    let (x, o) = (*x, *o);
    let param = |t: i32| {
        s.shape_tensor(t, false)
            && s.constant(t)
            && s.is(t, TensorType::Int32)
            && s.dim(t, 0) as usize == s.rank(x)
    };
    param(*strides)
        && s.i32_data(*strides)
            .is_none_or(|d| d.iter().all(|&v| v == 1))
        && param(*begin)
        && param(*end)
        && s.float_or_q8(x)
        && s.float_or_q8(o)
}

/// VisitTransposeConvNode: three or four inputs, one output; a static 1-D int32 output shape
/// of four entries; a 4-D static or quasi-static filter, float or int8 per channel along
/// dimension 0; a 4-D fp32 or 8-bit input and output; a bias, when present, float or int32,
/// 1-D, static or quasi-static; the filter's output and input channels matching the output
/// shape and the input; paddings `CalculateTransposeConvPaddings` can compute; a clamp
/// activation.
fn transpose_conv_ok(s: &Sg, w: &Walk, op: &Operator) -> bool {
    let Options::TransposeConv {
        padding,
        stride_w,
        stride_h,
        activation,
    } = op.options
    else {
        return false;
    };
    if !(3..=4).contains(&op.inputs.len()) || op.outputs.len() != 1 {
        return false;
    }
    let (shape, f, x, o) = (op.inputs[0], op.inputs[1], op.inputs[2], op.outputs[0]);
    if !(s.is(shape, TensorType::Int32)
        && s.shape_tensor(shape, false)
        && s.constant(shape)
        && s.dim(shape, 0) == 4
        && s.shape(f, 4, 4)
        && w.static_or_quasi(s, f)
        && s.f32_or_q8(x)
        && s.shape(x, 4, 4)
        && s.f32_or_qc8(f, 0))
    {
        return false;
    }
    if let Some(&b) = op.inputs.get(3).filter(|&&b| b >= 0) {
        if !(s.bias_type(b) && s.shape(b, 1, 1) && w.static_or_quasi(s, b)) {
            return false;
        }
    }
    if !(s.f32_or_q8(o) && s.shape(o, 4, 4)) {
        return false;
    }
    let (ih, iw) = (s.dim(x, 1), s.dim(x, 2));
    let (oc, kh, kw, ic) = (s.dim(f, 0), s.dim(f, 1), s.dim(f, 2), s.dim(f, 3));
    let Some(out_shape) = s.i32_data(shape) else {
        // The output shape is always known on a model read from a file.
        return activation_ok(activation);
    };
    let (oh, ow, occ) = (out_shape[1], out_shape[2], out_shape[3]);
    if oc != occ || ic != s.dim(x, 3) {
        return false;
    }
    let paddings = match padding {
        // VALID: the kernel no larger than the output.
        1 => kh <= oh && kw <= ow,
        // SAME: the input TFLite's SAME padding computes from the output, and no stride
        // larger than the kernel.
        0 if stride_h > 0 && stride_w > 0 => {
            (oh + stride_h - 1) / stride_h == ih
                && (ow + stride_w - 1) / stride_w == iw
                && kh >= stride_h
                && kw >= stride_w
        }
        _ => false,
    };
    paddings && activation_ok(activation)
}

/// VisitNode's custom operators: MediaPipe's Convolution2DTransposeBias, MaxPoolingWithArgmax2D
/// and MaxUnpooling2D (their parameters are a raw `TfLiteTransposeConvParams` /
/// `TfLitePoolParams` in the custom data), and `odml.scaled_dot_product_attention`
/// (VisitDotAttentionNode, whose checks are not modelled); any other custom operator is
/// refused.
fn custom(s: &Sg, w: &Walk, op: &Operator) -> Support {
    let name = s
        .model
        .operator_codes
        .get(op.opcode_index as usize)
        .and_then(|c| c.custom.clone())
        .unwrap_or_default();
    // The raw struct's int fields (`SafeCopyCustomData`: missing bytes stay 0).
    let words: Vec<i32> = (0..6)
        .map(|k| {
            op.custom_options
                .get(4 * k..4 * k + 4)
                .map_or(0, |b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        })
        .collect();
    let f32_4d = |t: i32| s.is(t, TensorType::Float32) && s.shape(t, 4, 4);
    // TfLitePadding: 1 SAME, 2 VALID.
    let padding_ok = |p: i32| p == 1 || p == 2;
    match name.as_str() {
        "Convolution2DTransposeBias" => {
            // VisitMediaPipeDeconvolutionNode: fp32 4-D input, filter, output, 1-D bias;
            // static or quasi-static weights; positive strides; computable paddings.
            let ([x, f, b], [o]) = (&op.inputs[..], &op.outputs[..]) else {
                return Support::Left;
            };
            let (x, f, b, o) = (*x, *f, *b, *o);
            let (padding, stride_w, stride_h) = (words[0], words[1], words[2]);
            let (ih, iw, oh, ow) = (s.dim(x, 1), s.dim(x, 2), s.dim(o, 1), s.dim(o, 2));
            let (kh, kw) = (s.dim(f, 1), s.dim(f, 2));
            let paddings = match padding {
                2 => kh <= oh && kw <= ow,
                1 if stride_h > 0 && stride_w > 0 => {
                    (oh + stride_h - 1) / stride_h == ih
                        && (ow + stride_w - 1) / stride_w == iw
                        && kh >= stride_h
                        && kw >= stride_w
                }
                _ => false,
            };
            taken(
                f32_4d(x)
                    && f32_4d(f)
                    && w.static_or_quasi(s, f)
                    && s.is(b, TensorType::Float32)
                    && s.shape(b, 1, 1)
                    && w.static_or_quasi(s, b)
                    && f32_4d(o)
                    && stride_w > 0
                    && stride_h > 0
                    && paddings,
            )
        }
        "MaxPoolingWithArgmax2D" | "MaxUnpooling2D" => {
            // VisitMediaPipeMaxPoolingNode / VisitMediaPipeUnpoolingNode: fp32 4-D data, 4-D
            // indices; CheckMediaPipePoolParams: positive strides and window, the window equal
            // to the stride, no TANH / SIGN_BIT / sigmoid activation; SAME or VALID.
            let (padding, sw, sh, fw, fh, act) =
                (words[0], words[1], words[2], words[3], words[4], words[5]);
            let params = sw > 0 && sh > 0 && fw > 0 && fh > 0 && fw == sw && fh == sh && act <= 3;
            let tensors = if name == "MaxPoolingWithArgmax2D" {
                matches!((&op.inputs[..], &op.outputs[..]), ([x], [v, i])
                    if f32_4d(*x) && f32_4d(*v) && s.shape(*i, 4, 4))
            } else {
                matches!((&op.inputs[..], &op.outputs[..]), ([v, i], [o])
                    if f32_4d(*v) && s.shape(*i, 4, 4) && f32_4d(*o))
            };
            taken(params && tensors && padding_ok(padding))
        }
        "odml.scaled_dot_product_attention" => {
            Support::Unknown("scaled dot-product attention is not modelled")
        }
        _ => Support::Left,
    }
}
