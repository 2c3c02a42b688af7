//! XNNPACK's memory outside the workspace, estimated from the file for one CPU class: the
//! **packed weights** (each static-weight operator's GEMM-layout copy of its weights and
//! biases) and the **indirection buffers** (tables of input-row pointers that convolutions
//! and poolings build at reshape time). Both depend on the microkernels XNNPACK picks for the
//! CPU, so they are estimates, shown apart from the planned arena.
//!
//! The formulas are XNNPACK's (google/XNNPACK@8388bd7869, `src/operators/*-nhwc.c` and
//! `fully-connected-nc.c`), with `elt` the filter element size (4 for f32, 1 for int8), `bias`
//! 4, and `extra` the per-channel scale int8 kernels keep (4; 0 for f32); every packed buffer
//! is rounded up to the 64-byte allocation alignment:
//! * **GEMM** (fully connected; a 1×1 convolution with stride 1):
//!   `round_up(out, nr) × (round_up(in, kr) × elt + bias + extra)`.
//! * **IGEMM** (any other convolution; a depthwise one with a channel multiplier above 1, per
//!   group): `round_up(out, nr) × (kh·kw × round_up(in, kr) × elt + bias + extra)`, and an
//!   indirection buffer of `kh·kw × round_up(out_h·out_w, mr) × 8` bytes, where `mr` is the
//!   row tile XNNPACK's heuristic picks for that many output pixels (the cheapest
//!   `ceil(pixels / mr) × (3(mr + nr) + mr·nr)` among the kernels it has). An f32 IGEMM
//!   with at least 32 output channels a group takes 32 columns, fewer take 16.
//! * **Depthwise** (channel multiplier 1): the smallest kernel tile `t ≥ kh·kw`;
//!   `round_up(channels, cr) × (t × elt + bias + extra)` packed, and
//!   `round_up((t − kh·kw + out_h × step_h) × 8, 64)` of indirection, where
//!   `step_w = stride_w` capped at `kw` (`kw` when dilated) and
//!   `step_h = kh·kw + (out_w − 1) × step_w × kh`.
//! * **Max pooling**: `(kh·kw − 1 + out_h × step_h) × 8` of indirection.
//! * **Average pooling**: `(kh·kw − 1 + rows × step_h) × 8`, `rows` being the padded rows at
//!   the top and bottom (in strides) plus one; with padding, also `out_h·out_w` f32 divisors.
//! * **Mean** over the spatial axes (the innermost kept): a zero row of `channels × elt + 16`.
//! * **Resize bilinear**: 4 pointers and 2 weights (f32; int16 for int8) per output pixel.
//! * **Dynamic range** (float input, int8 weights): a fully connected packs int8 weights with
//!   12 bytes a column (bias, scale, sum), a convolution the same on its IGEMM with 8 bytes of
//!   zero point beside the indirection; measured on AVX-512 VNNI only.
//!
//! Everything but the packing is made at reshape time; the oracle counts it with the
//! indirection buffers, and so does `indirection` here.
//!
//! The tiles, by CPU class (`Isa`): x86-64 with AVX-512 and AMX, the shared corpus's oracle
//! (f32 GEMM 7×16, int8 GEMM 16×64 with k in fours, depthwise f32 16 and int8 32 channels),
//! and x86-64 with AVX-512 VNNI and no AMX (int8 GEMM 7×16 with k in eights), both measured;
//! aarch64 NEON (f32 GEMM 6×8, int8 dot-product 4×16 with k in fours, depthwise f32 8 and int8
//! 16 channels), computed by the same formulas and not measured. A depthwise convolution
//! with a channel multiplier, or with a kernel larger than every tile (3, 4, 9, 25 taps; int8
//! 3, 9, 25), is a grouped IGEMM. Nodes these formulas do not cover (other types,
//! transposed convolutions, batched matrix products with static weights) are named as not
//! estimated, so the numbers are then lower bounds. Products saturate: a corrupt shape gives
//! a huge estimate, never an overflow.

use super::{constant, densified, dtype, fp16_dequantize_of, tensor_of, Delegation, Platform};
use crate::analysis::round_up;
use crate::model::{ops, Model, Operator, Options, TensorType};

/// XNNPACK's allocations that are not planned, estimated for one CPU class: the packed
/// weights (GEMM-layout copies of the weights) and the convolutions' and poolings'
/// indirection buffers. They depend on the microkernels' tile sizes, so they are estimates,
/// never part of the arena.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OtherEstimate {
    pub packed_weights: u64,
    pub indirection: u64,
    /// The CPU class the tile sizes are for.
    pub class: Isa,
    /// What the estimate leaves out (then a lower bound).
    pub not_estimated: Vec<String>,
}

impl OtherEstimate {
    fn pack(&mut self, bytes: u64) {
        self.packed_weights = self.packed_weights.saturating_add(bytes);
    }

    fn index(&mut self, bytes: u64) {
        self.indirection = self.indirection.saturating_add(bytes);
    }

    /// The CPU class and the kernels' tiles, as the JSON's `isa` says them.
    pub fn isa(&self) -> &'static str {
        self.class.kernels().isa
    }

    /// "estimated for ISA: packed weights N bytes, indirection buffers N bytes (not
    /// estimated: …)", as the CLI and the summary say it.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "estimated for {}: packed weights {} bytes, indirection buffers {} bytes",
            self.isa(),
            self.packed_weights,
            self.indirection
        );
        if !self.not_estimated.is_empty() {
            s += &format!(" (not estimated: {})", self.not_estimated.join("; "));
        }
        s
    }
}

/// One GEMM kernel family: the row tiles it has kernels for, its column tile and the
/// granularity its k dimension is padded to (`kr × sr`).
#[derive(Clone, Copy)]
struct Gemm {
    mrs: &'static [u64],
    nr: u64,
    kr: u64,
}

/// One depthwise kernel family: its kernel tiles and its channel tile.
struct Depthwise {
    tiles: &'static [u64],
    cr: u64,
}

/// The kernels XNNPACK picks on a platform, by data type.
struct Kernels {
    f32_gemm: Gemm,
    /// f32 convolutions on the IGEMM path with at least `nr` output channels a group; fewer
    /// take `f32_gemm` (XNNPACK's "nr2" choice).
    f32_igemm: Gemm,
    int8_gemm: Gemm,
    /// Dynamic-range fully connected (float rows quantised at run time, int8 weights), where
    /// measured.
    dynamic_gemm: Option<Gemm>,
    /// Dynamic-range convolutions (the IGEMM over a quantised input), where measured.
    dynamic_igemm: Option<Gemm>,
    f32_dw: Depthwise,
    int8_dw: Depthwise,
    isa: &'static str,
}

const ALIGNMENT: u64 = 64;
const POINTER: u64 = 8;

/// The CPU class an estimate is for: which XNNPACK kernels run, so which tiles pack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Isa {
    /// x86-64 with AVX-512 and AMX (Sapphire Rapids and later): the shared corpus's oracle.
    #[default]
    X86Amx,
    /// x86-64 with AVX-512 VNNI and no AMX (Ice Lake, Cascade Lake): measured here.
    X86Avx512,
    /// aarch64 NEON with the dot product: computed by the same formulas, not measured.
    ArmNeon,
}

impl Isa {
    /// The class a platform's plan is estimated with unless another is asked for.
    pub fn for_platform(platform: Platform) -> Isa {
        match platform {
            Platform::X86_64 => Isa::X86Amx,
            Platform::Arm => Isa::ArmNeon,
        }
    }

    /// The CLI's name of it.
    pub fn id(self) -> &'static str {
        match self {
            Isa::X86Amx => "amx",
            Isa::X86Avx512 => "avx512",
            Isa::ArmNeon => "neon",
        }
    }

    fn kernels(self) -> Kernels {
        const fn gemm(mrs: &'static [u64], nr: u64, kr: u64) -> Gemm {
            Gemm { mrs, nr, kr }
        }
        const fn dw(tiles: &'static [u64], cr: u64) -> Depthwise {
            Depthwise { tiles, cr }
        }
        // The two x86-64 classes differ only in their int8 GEMM.
        // The two x86-64 classes differ in their int8 kernels; the dynamic-range ones are
        // measured without AMX only.
        let x86 = |int8_gemm: Gemm, dynamic: Option<(Gemm, Gemm)>, isa: &'static str| Kernels {
            f32_gemm: gemm(&[1, 7], 16, 1),
            f32_igemm: gemm(&[1, 7], 32, 1),
            int8_gemm,
            dynamic_gemm: dynamic.map(|d| d.0),
            dynamic_igemm: dynamic.map(|d| d.1),
            f32_dw: dw(&[3, 4, 9, 25], 16),
            int8_dw: dw(&[3, 9, 25], 32),
            isa,
        };
        match self {
            Isa::X86Amx => x86(
                gemm(&[1, 16], 64, 4),
                None,
                "x86-64 AVX-512 with AMX (f32 GEMM 7x16, int8 GEMM 16x64c4)",
            ),
            Isa::X86Avx512 => x86(
                gemm(&[1, 7], 16, 8),
                Some((gemm(&[1, 5], 64, 4), gemm(&[1, 10], 16, 8))),
                "x86-64 AVX-512 VNNI without AMX (f32 GEMM 7x16, int8 GEMM 7x16c8)",
            ),
            Isa::ArmNeon => Kernels {
                f32_gemm: gemm(&[1, 6], 8, 1),
                f32_igemm: gemm(&[1, 6], 8, 1),
                int8_gemm: gemm(&[1, 4], 16, 4),
                dynamic_gemm: None,
                dynamic_igemm: None,
                f32_dw: dw(&[3, 4, 9, 25], 8),
                int8_dw: dw(&[3, 9, 25], 16),
                isa: "aarch64 NEON dot product (f32 GEMM 6x8, int8 GEMM 4x16c4; computed, not measured)",
            },
        }
    }
}

impl Gemm {
    /// The row tile XNNPACK's IGEMM heuristic picks for `pixels` output pixels: an exact
    /// kernel when there is one, else the cheapest (ties to the larger tile).
    fn mr_for(&self, pixels: u64) -> u64 {
        let max = self.mrs.iter().copied().max().unwrap_or(1);
        if pixels == 0 {
            return max;
        }
        if self.mrs.contains(&pixels) {
            return pixels;
        }
        let cost = |mr: u64| prod(&[pixels.div_ceil(mr), 3 * (mr + self.nr) + mr * self.nr]);
        let mut best = max;
        let mut best_cost = u64::MAX;
        for &mr in self.mrs {
            if cost(mr) <= best_cost {
                best = mr;
                best_cost = cost(mr);
            }
        }
        best
    }

    /// Packed bytes of `groups` groups of `out` output channels over `taps` kernel taps of
    /// `inp` input channels each.
    fn packed(&self, groups: u64, out: u64, taps: u64, inp: u64, p: &Precision) -> u64 {
        let per_channel = prod(&[taps, round_up(inp, self.kr), p.elt]).saturating_add(4 + p.extra);
        round_up(
            prod(&[groups, round_up(out, self.nr), per_channel]),
            ALIGNMENT,
        )
    }

    /// Indirection bytes of an IGEMM: `taps` pointers for each of the output pixels, rounded
    /// up to the row tile.
    fn indirection(&self, taps: u64, pixels: u64) -> u64 {
        prod(&[taps, round_up(pixels, self.mr_for(pixels)), POINTER])
    }
}

/// The filter element size and the bytes kept per output channel besides the bias.
struct Precision {
    elt: u64,
    extra: u64,
}

/// `(stride_w, stride_h, dilation_w)` of a convolution or a depthwise convolution.
fn conv_geometry(op: &Operator) -> (u64, u64, u64) {
    match op.options {
        Options::Conv2D {
            stride_w,
            stride_h,
            dilation_w,
            ..
        }
        | Options::DepthwiseConv2D {
            stride_w,
            stride_h,
            dilation_w,
            ..
        } => (
            stride_w.max(1) as u64,
            stride_h.max(1) as u64,
            dilation_w.max(1) as u64,
        ),
        _ => (1, 1, 1),
    }
}

/// A product that saturates instead of overflowing: the dimensions come from the file.
fn prod(factors: &[u64]) -> u64 {
    factors.iter().fold(1u64, |a, &b| a.saturating_mul(b))
}

/// Total padding along one axis: what TensorFlow's SAME padding adds, 0 for VALID.
fn padding(input: u64, output: u64, stride: u64, kernel: u64) -> u64 {
    prod(&[output.saturating_sub(1), stride])
        .saturating_add(kernel)
        .saturating_sub(input)
}

/// The pointers one output row of a window sweep adds to an indirection buffer: the first
/// window's `kh·kw`, then `step_w × kh` new ones per further output column.
fn step_height(kh: u64, kw: u64, out_w: u64, step_w: u64) -> u64 {
    prod(&[kh, kw]).saturating_add(prod(&[out_w.saturating_sub(1), step_w, kh]))
}

/// Packed weights and indirection buffers of every delegated node, by the formulas above with
/// `isa`'s tiles.
pub fn other_estimate(model: &Model, delegation: &Delegation, isa: Isa) -> OtherEstimate {
    let k = isa.kernels();
    let mut e = OtherEstimate {
        class: isa,
        ..Default::default()
    };
    let mut skipped: Vec<String> = Vec::new();
    for p in &delegation.partitions {
        let si = p.subgraph;
        let sg = &model.subgraphs[si];
        let shape = |t: i32| -> Vec<u64> {
            tensor_of(model, si, t)
                .map(|x| x.shape.iter().map(|&d| d.max(0) as u64).collect())
                .unwrap_or_default()
        };
        let input = |op: &Operator, i: usize| op.inputs.get(i).copied().unwrap_or(-1);
        // The filter is static data: a constant, or made once at prepare from one.
        let static_filter = |t: i32| {
            constant(model, si, t)
                || fp16_dequantize_of(model, si, t).is_some()
                || densified(model, si, t).is_some()
        };
        for &n in &p.nodes {
            let op = &sg.operators[n];
            let precision = match dtype(model, si, input(op, 0)) {
                Some(TensorType::Float32) => Some(Precision { elt: 4, extra: 0 }),
                Some(TensorType::Int8) => Some(Precision { elt: 1, extra: 4 }),
                _ => None,
            };
            let int8 = dtype(model, si, input(op, 0)) == Some(TensorType::Int8);
            // Dynamic range: float activations quantised at run time, int8 weights.
            let dynamic = !int8 && dtype(model, si, input(op, 1)) == Some(TensorType::Int8);
            let (gemm, dw) = if int8 {
                (&k.int8_gemm, &k.int8_dw)
            } else {
                (&k.f32_gemm, &k.f32_dw)
            };
            // The IGEMM kernels for `out` output channels a group.
            let igemm = |out: u64| {
                if int8 || out < k.f32_igemm.nr {
                    gemm
                } else {
                    &k.f32_igemm
                }
            };
            let in_shape = shape(input(op, 0));
            let out_shape = op.outputs.first().map(|&t| shape(t)).unwrap_or_default();
            let w = shape(input(op, 1));
            let name = model.op_name(op);
            let mut skip = || skipped.push(format!("subgraph {si} node {n} ({name})"));
            match (op.builtin, &precision) {
                // Dynamic range: int8 weights with the row's bias, scale and sum (12 bytes).
                (ops::FULLY_CONNECTED, Some(_)) if dynamic => match (&k.dynamic_gemm, &w[..]) {
                    (Some(g), [o, .., i]) => {
                        e.pack(g.packed(1, *o, 1, *i, &Precision { elt: 1, extra: 8 }))
                    }
                    _ => skip(),
                },
                (ops::FULLY_CONNECTED, Some(pr)) => match &w[..] {
                    [o, .., i] if static_filter(input(op, 1)) => {
                        e.pack(gemm.packed(1, *o, 1, *i, pr));
                    }
                    [_, .., _] => {} // weights at run time: nothing packed ahead
                    _ => skip(),
                },
                // Dynamic range: the IGEMM over the quantised input (bias, scale and sum a
                // column), and 8 bytes of its zero point beside the indirection.
                (ops::CONV_2D, Some(_)) if dynamic => {
                    match (&k.dynamic_igemm, &w[..], &out_shape[..]) {
                        (Some(g), [o, kh, kw, ci], [_, oh, ow, _]) => {
                            let taps = prod(&[*kh, *kw]);
                            let p = Precision { elt: 1, extra: 8 };
                            e.pack(g.packed(1, *o, taps, *ci, &p));
                            e.index(g.indirection(taps, prod(&[*oh, *ow])).saturating_add(8));
                        }
                        _ => skip(),
                    }
                }
                (ops::CONV_2D, Some(pr)) => {
                    let (sw, sh, _) = conv_geometry(op);
                    match (&w[..], &in_shape[..], &out_shape[..]) {
                        ([o, kh, kw, ci], [_, ih, iw, cin], [_, oh, ow, _]) if *ci > 0 => {
                            let groups = (cin / ci).max(1);
                            let o_per_group = o / groups;
                            let pad = padding(*ih, *oh, sh, *kh).max(padding(*iw, *ow, sw, *kw));
                            let taps = prod(&[*kh, *kw]);
                            let gemm_path = taps == 1 && sw == 1 && sh == 1 && pad == 0;
                            let g = if gemm_path { gemm } else { igemm(o_per_group) };
                            e.pack(g.packed(groups, o_per_group, taps, *ci, pr));
                            if !gemm_path {
                                e.index(g.indirection(taps, prod(&[*oh, *ow])));
                            }
                        }
                        _ => skip(),
                    }
                }
                (ops::DEPTHWISE_CONV_2D, Some(pr)) => {
                    let (sw, sh, dil_w) = conv_geometry(op);
                    match (&w[..], &in_shape[..], &out_shape[..]) {
                        ([_, kh, kw, c], [_, ih, iw, cin], [_, oh, ow, _]) if *cin > 0 => {
                            let taps = prod(&[*kh, *kw]);
                            let multiplier = c / cin;
                            let pad = padding(*ih, *oh, sh, *kh).max(padding(*iw, *ow, sw, *kw));
                            let tile = dw.tiles.iter().find(|&&t| t >= taps);
                            if multiplier == 1 && taps == 1 && sw == 1 && sh == 1 && pad == 0 {
                                // vmulcaddc: a per-channel multiply-add, scale and bias only.
                                let per_channel = pr.elt + 4 + pr.extra;
                                e.pack(round_up(
                                    prod(&[round_up(*c, dw.cr), per_channel]),
                                    ALIGNMENT,
                                ));
                            } else if let (1, Some(&t)) = (multiplier, tile) {
                                let per_channel = t * pr.elt + 4 + pr.extra;
                                e.pack(round_up(
                                    prod(&[round_up(*c, dw.cr), per_channel]),
                                    ALIGNMENT,
                                ));
                                let step_w = if dil_w == 1 { sw.min(*kw) } else { *kw };
                                let rows = prod(&[*oh, step_height(*kh, *kw, *ow, step_w)]);
                                let pointers = (t - taps).saturating_add(rows);
                                e.index(round_up(prod(&[pointers, POINTER]), ALIGNMENT));
                            } else {
                                // A channel multiplier above 1, or a kernel larger than every
                                // depthwise tile: a grouped IGEMM, one input channel a group.
                                let g = igemm(multiplier);
                                e.pack(g.packed(*cin, multiplier, taps, 1, pr));
                                e.index(g.indirection(taps, prod(&[*oh, *ow])));
                            }
                        }
                        _ => skip(),
                    }
                }
                (ops::MAX_POOL_2D | ops::AVERAGE_POOL_2D, _) => {
                    let Options::Pool2D {
                        stride_w,
                        stride_h,
                        filter_w,
                        filter_h,
                    } = op.options
                    else {
                        skip();
                        continue;
                    };
                    let (sw, sh) = (stride_w.max(1) as u64, stride_h.max(1) as u64);
                    let (kw, kh) = (filter_w.max(1) as u64, filter_h.max(1) as u64);
                    match (&in_shape[..], &out_shape[..]) {
                        // A 1×1 window with unit stride is a copy (or a clamp): no buffer.
                        _ if kw * kh == 1 && sw == 1 && sh == 1 => {}
                        ([_, ih, iw, _], [_, oh, ow, _]) => {
                            let step_h = step_height(kh, kw, *ow, sw.min(kw));
                            // The rows swept: every output row (max), or only the padded
                            // rows at the top and bottom plus one (average).
                            let total = padding(*ih, *oh, sh, kh);
                            let rows = if op.builtin == ops::MAX_POOL_2D {
                                *oh
                            } else {
                                (total / 2).div_ceil(sh) + (total - total / 2).div_ceil(sh) + 1
                            };
                            let pointers = (kh * kw - 1).saturating_add(prod(&[rows, step_h]));
                            e.index(prod(&[pointers, POINTER]));
                            let padded = total.max(padding(*iw, *ow, sw, kw)) > 0;
                            if op.builtin == ops::AVERAGE_POOL_2D && padded {
                                // One f32 divisor per output pixel.
                                e.index(prod(&[*oh, *ow, 4]));
                            }
                        }
                        _ => skip(),
                    }
                }
                // A mean over the spatial axes (the innermost kept) keeps a zero row of
                // `channels` elements and XNN_EXTRA_BYTES, made at reshape.
                (ops::MEAN, Some(pr)) => match (in_shape.last(), out_shape.last()) {
                    (Some(&c), Some(&oc)) if c == oc && in_shape.len() > 1 => {
                        e.index(prod(&[c, pr.elt]).saturating_add(16));
                    }
                    _ => {}
                },
                // Resizing keeps 4 input pointers and 2 weights (f32, or int16 for int8) per
                // output pixel, made at reshape.
                (super::RESIZE_BILINEAR, Some(pr)) => match &out_shape[..] {
                    [_, oh, ow, _] => e.index(prod(&[*oh, *ow, 4 * POINTER + 2 * pr.elt.max(2)])),
                    _ => skip(),
                },
                (ops::CONV_2D | ops::DEPTHWISE_CONV_2D | ops::FULLY_CONNECTED, None)
                | (ops::TRANSPOSE_CONV, _) => skip(),
                (ops::BATCH_MATMUL, _) if static_filter(input(op, 1)) => skip(),
                _ => {}
            }
        }
    }
    if !skipped.is_empty() {
        e.not_estimated.push(format!(
            "packed weights and indirection of {}",
            skipped.join(", ")
        ));
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_tile_is_the_cheapest_kernel_or_an_exact_one() {
        let f32_gemm = Isa::X86Amx.kernels().f32_gemm;
        // 676 pixels, nr 16: mr 7 costs 97 x (3 x 23 + 112) = 17557, mr 1 676 x 67 = 45292.
        assert_eq!(f32_gemm.mr_for(676), 7);
        // 4 pixels: mr 7 costs 181, mr 1 4 x 67 = 268; 1 pixel has a kernel of its own.
        assert_eq!(f32_gemm.mr_for(4), 7);
        assert_eq!(f32_gemm.mr_for(1), 1);
        // int8 on AMX, 676 pixels: mr 16 costs 43 x (3 x 80 + 1024) = 54352, mr 1 175084.
        assert_eq!(Isa::X86Amx.kernels().int8_gemm.mr_for(676), 16);
    }

    #[test]
    fn packing_pads_channels_to_the_tile_and_k_to_its_granularity() {
        let p = Precision { elt: 1, extra: 4 };
        // hello_world's 1 -> 16 fully connected on AMX: 64 x (round_up(1, 4) + 4 + 4) = 768.
        assert_eq!(Isa::X86Amx.kernels().int8_gemm.packed(1, 16, 1, 1, &p), 768);
        // The same on AVX-512 VNNI: 16 x (8 + 8) = 256.
        assert_eq!(
            Isa::X86Avx512.kernels().int8_gemm.packed(1, 16, 1, 1, &p),
            256
        );
        // A 3x3 f32 conv, 3 -> 6 channels: 16 x (9 x 3 + 1) x 4 = 1792, already 64-aligned.
        let f = Precision { elt: 4, extra: 0 };
        assert_eq!(Isa::X86Amx.kernels().f32_gemm.packed(1, 6, 9, 3, &f), 1792);
    }
}
