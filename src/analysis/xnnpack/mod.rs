//! LiteRT's default XNNPACK delegate, from the file alone (RUNTIME_RULES_XNNPACK, LiteRT 2.3.0
//! with google/XNNPACK@8388bd7869): which nodes it takes, the partitions it makes, the XNNPACK
//! values and runtime ops each partition becomes, and the workspace problem XNNPACK plans.
//!
//! **Partitions.** A node is taken when the checks of the delegate's `Visit*Node` pass
//! (`support`: types and quantisation, static operands, ranks and parameters, scale ratios,
//! fused activations, as `PrepareOpsToDelegate` walks the subgraph; an operator its
//! `VisitNode` has no case for is refused, exactly); TFLite's partitioner then groups the
//! taken and the other nodes epoch by epoch (`node_subsets`), so a partition need not be a
//! contiguous run, and the delegated graph runs the subsets in epoch order. A check that reads
//! what this model does not know (the attention composite) is *not modelled*: reported by
//! name, never guessed, and the node stays out of the partitions.
//!
//! **Values** (`runtime`, the delegate's `Subgraph::Create`). The partition's tensors are
//! collected (EXPAND_DIMS, MEAN, PAD, REDUCE_MAX/MIN, SUM, RESHAPE, RESIZE_BILINEAR, SLICE,
//! STRIDED_SLICE and TRANSPOSE only their first input, SPLIT its second, TRANSPOSE_CONV all but
//! the output shape; every skipped fp16 DEQUANTIZE of the subgraph swaps its fp32 output for
//! its fp16 input; nodes run once at prepare, DEQUANTIZE of static fp16 or int8 data and
//! DENSIFY of constants, add nothing), sorted and made unique. Partition inputs without data
//! and partition outputs are external, numbered 0, 1, … in tensor order; every other tensor of
//! the set (resource variables included, kept external) gets an id from the set's size
//! upwards, in tensor order. Values the visitors and rewrites create take the next ids.
//!
//! **Nodes**, in the partition's node order, as each visitor defines them: FULLY_CONNECTED
//! without `keep_num_dims` a `static_reshape` onto a new value and the `fully_connected` on it
//! (an int8 one re-defines its filter: one id more); binary ops with a fused activation write
//! a new value a clamp reads into the output; READ_VARIABLE and ASSIGN_VARIABLE a copy,
//! VAR_HANDLE nothing; the rest one node each. Then XNNPACK's rewrites (`rewrites`): dead
//! nodes removed, zero spatial pads fused into the convolution they feed and copies into
//! their neighbours (`invalid` ops in place), int8 pure unary chains into one lookup table,
//! squares, clamps from MINIMUM/MAXIMUM with a scalar, clamps merged into the node before,
//! sums of squares, and a clean-up that drops the invalid ops after any of the last kind.
//! What a partition runs that is not modelled (a 1x1 pool's clamp, BATCH_MATMUL's packed
//! right-hand side, dynamic-range GEMMs over several rows, data-dependent shapes) is named.
//!
//! **Records.** Every workspace value (not external, not static) an op uses is a record of
//! its size rounded up to 16 (`XNN_EXTRA_BYTES`) and then to the platform's allocation
//! alignment (64 on x86-64, 16 on ARM), alive from the first to the last runtime op naming it
//! (op 0 counted last, so a value op 0 touches starts at 0). In place: a `unary_elementwise`,
//! `binary_elementwise`, `softmax`, `static_reshape` or `copy` whose first workspace input
//! with one consumer has output 0's exact byte size, where output 0 is a workspace value with
//! one consumer, writes into the input's bytes: the output's record has size 0 and rides on
//! the input's root, whose last op becomes the output's first consumer. A non-fp32 reduction
//! adds an op workspace of one accumulator per output (4 bytes for a sum or mean, the data's
//! size for a minimum or maximum) plus 16 bytes over its own op.

mod estimate;
mod partition;
mod rewrites;
mod runtime;
mod support;
mod workspace;

pub use estimate::{other_estimate, Isa, OtherEstimate};
pub use partition::delegate;
pub use runtime::{runtime, Op, Runtime, Value};
pub use workspace::{delegated_model, problems, workspace_problem, DELEGATE_NODE};

use rewrites::*;
use support::*;

use super::{Alias, Buffer, BufferKind, Problem};
use crate::model::{ops, Model, Operator, OperatorCode, Options, TensorType};

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

#[cfg(test)]
mod tests {
    use super::partition::*;
    use super::runtime::*;
    use super::workspace::*;
    use super::*;
    use crate::analysis::tflm_tail::tests::{model, tensor};
    use crate::model::TensorType::{Float16, Float32, Int8};

    /// CONV_2D options: stride 1, VALID, no activation.
    fn conv_valid() -> Options {
        Options::Conv2D {
            padding: 1,
            stride_w: 1,
            stride_h: 1,
            dilation_w: 1,
            dilation_h: 1,
            activation: 0,
        }
    }

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
        // x -> LOGISTIC -> y; MUL(x, y) -> z; MAX_POOL(z) -> w. The chain LOGISTIC, MUL is a
        // pure unary function of the int8 x (the MUL's inputs are both the chain's), and the
        // pool is not: the MUL becomes a lookup table of x (a new static value, v6), the
        // LOGISTIC an invalid op in place, y is cleared (efficientnet_b0_int8's swishes). Set
        // {0,1,2,3}: x -> v0, w -> v1 (external), y -> v4, z -> v5 (16 B, 64 planned).
        let mut m = model(
            vec![
                tensor(&[1, 2, 2, 4], Int8, false),
                tensor(&[1, 2, 2, 4], Int8, false),
                tensor(&[1, 2, 2, 4], Int8, false),
                tensor(&[1, 1, 1, 4], Int8, false),
            ],
            vec![
                (ops::LOGISTIC, "", vec![0], vec![1], vec![]),
                (ops::MUL, "", vec![0, 1], vec![2], vec![]),
                (ops::MAX_POOL_2D, "", vec![2], vec![3], vec![]),
            ],
            vec![0],
            vec![3],
        );
        m.subgraphs[0].operators[2].options = Options::Pool2D {
            stride_w: 2,
            stride_h: 2,
            filter_w: 2,
            filter_h: 2,
        };
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        assert_eq!(
            io(&rt),
            [
                ("invalid", vec![], vec![]),
                ("unary_elementwise", vec![0], vec![5]),
                ("max_pooling_2d", vec![5], vec![1]),
            ]
        );
        assert_eq!(rt.num_values, 7);
        let p = workspace_problem(&rt, 0, Platform::X86_64);
        assert_eq!(records(&p), [(64, 1, 2)]);
        // A LOGISTIC after the MUL, reading z alone, joins the chain
        // (xnn_subgraph_fuse_unary_quantized_into_lut follows single consumers through pure
        // unary nodes): three nodes, one table, nothing planned.
        m.subgraphs[0].operators[2] = m.subgraphs[0].operators[0].clone();
        m.subgraphs[0].operators[2].inputs = vec![2];
        m.subgraphs[0].operators[2].outputs = vec![3];
        m.subgraphs[0].tensors[3].shape = vec![1, 2, 2, 4];
        let (_, rt) = one(&m);
        assert_eq!(
            io(&rt),
            [
                ("invalid", vec![], vec![]),
                ("invalid", vec![], vec![]),
                ("unary_elementwise", vec![0], vec![1]),
            ]
        );
        assert!(workspace_problem(&rt, 0, Platform::X86_64)
            .buffers
            .is_empty());
    }

    #[test]
    fn a_relu_after_a_convolution_is_merged_into_it() {
        // CONV(x) -> c; RELU(c) -> r; LOGISTIC(r) -> out. The convolution writes r itself; c
        // is never defined and the RELU has no op. Set {0..5}: x -> v0, out -> v1; weights
        // v6, v7; c v8; r v9 (128 B).
        let mut m = model(
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
        m.subgraphs[0].operators[0].options = conv_valid();
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
    fn an_op_the_delegate_has_no_case_for_stays_in_tflite_unmarked_and_an_unread_check_is_named() {
        // MIRROR_PAD falls to VisitNode's default: refused, which is exactly what happens
        // (no mark); so is a STABLEHLO_COMPOSITE of another name than the attention one. The
        // attention composite goes to VisitDotAttentionNode, whose checks are not modelled:
        // named, and its node stays out of the partitions.
        let mut m = model(
            vec![
                tensor(&[1, 4], Float32, false),
                tensor(&[2, 2], crate::model::TensorType::Int32, true),
                tensor(&[1, 8], Float32, false),
                tensor(&[1, 8], Float32, false),
                tensor(&[1, 8], Float32, false),
            ],
            vec![
                (ops::MIRROR_PAD, "", vec![0, 1], vec![2], vec![]),
                (ops::LOGISTIC, "", vec![2], vec![3], vec![]),
                (STABLEHLO_COMPOSITE, "", vec![3], vec![4], vec![]),
                (STABLEHLO_COMPOSITE, "", vec![4], vec![5], vec![]),
            ],
            vec![0],
            vec![5],
        );
        m.subgraphs[0].tensors.push(tensor(&[1, 8], Float32, false));
        m.subgraphs[0].operators[2].options = Options::Composite {
            name: "odml.scaled_dot_product_attention".into(),
        };
        m.subgraphs[0].operators[3].options = Options::Composite {
            name: "arenascope.square_plus".into(),
        };
        let d = delegate(&m);
        assert_eq!(
            d.not_modelled,
            ["subgraph 0 node 2 (STABLEHLO_COMPOSITE: scaled dot-product attention is not modelled)"]
        );
        assert_eq!(d.not_delegated, [(0, 0), (0, 2), (0, 3)]);
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
        // A 1x1 dynamic-range convolution is taken (VisitConv2DNode) and becomes a fully
        // connected over every pixel: its runtime is named, not guessed.
        let mut conv = model(
            vec![
                tensor(&[1, 1, 1, 4], Float32, false),
                tensor(&[8, 1, 1, 4], Int8, true),
                tensor(&[8], Float32, true),
                tensor(&[1, 1, 1, 8], Float32, false),
            ],
            vec![(ops::CONV_2D, "", vec![0, 1, 2], vec![3], vec![])],
            vec![0],
            vec![3],
        );
        conv.subgraphs[0].operators[0].options = conv_valid();
        let d = delegate(&conv);
        assert_eq!(d.partitions[0].nodes, [0]);
        assert_eq!(
            d.not_modelled,
            [
                "subgraph 0 node 0 (CONV_2D: a 1x1 dynamic-range convolution runs as a fully \
              connected over every pixel, whose row tile depends on the CPU)"
            ]
        );
    }

    #[test]
    fn a_dynamic_range_convolution_quantises_its_input_in_a_convert_op() {
        // x (1x5x5x2 f32) -> 3x3 CONV_2D with int8 weights (4x3x3x2) and a bias -> y
        // (1x3x3x4), both external. Set {0,1,2,3}: x v0, y v1, the filter v4, the bias v5; the
        // quantised x is v6 (the filter re-defined takes v7: 8 values). Its record: 50 bytes
        // (64) + (1 + 15) x 8 = 128 of parameters + (1 + 15) x 4 = 64 of row sums = 256 bytes
        // over ops 0 and 1.
        let mut m = model(
            vec![
                tensor(&[1, 5, 5, 2], Float32, false),
                tensor(&[4, 3, 3, 2], Int8, true),
                tensor(&[4], Float32, true),
                tensor(&[1, 3, 3, 4], Float32, false),
            ],
            vec![(ops::CONV_2D, "", vec![0, 1, 2], vec![3], vec![])],
            vec![0],
            vec![3],
        );
        m.subgraphs[0].operators[0].options = conv_valid();
        let (d, rt) = one(&m);
        assert!(d.not_modelled.is_empty(), "{:?}", d.not_modelled);
        assert_eq!(
            io(&rt),
            [
                ("convert", vec![0], vec![6]),
                ("convolution_2d", vec![6], vec![1]),
            ]
        );
        assert_eq!(rt.num_values, 8);
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
        let mut m = model(
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
        for op in &mut m.subgraphs[0].operators[..3] {
            op.options = Options::Pool2D {
                stride_w: 1,
                stride_h: 1,
                filter_w: 2,
                filter_h: 2,
            };
        }
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
