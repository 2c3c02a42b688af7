//! The XNNPACK delegate's support rules and subgraph rewrites, rule by rule, on small models
//! whose real delegation `oracle_xnnpack.py` measured (`sample_models/xnnpack_rules/`, made by
//! its `make_rules.py`; some from the operator sweep `sample_models/ops/`). Each test names the
//! delegate's check (`Visit*Node` in xnnpack_delegate.cc, or the rewrite in XNNPACK's
//! subgraph.c) and asserts our partitions, and where the partition runs ops, every workspace
//! record (value, size, first and last op, offset), equal the oracle's.

use std::path::{Path, PathBuf};

use arenascope::analysis::xnnpack::{self, Platform};
use arenascope::model::Model;
use arenascope::planner::{self, Settings};
use serde_json::Value;

fn path(dir: &str, name: &str, ext: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(dir)
        .join(format!("{name}.{ext}"))
}

fn load(dir: &str, name: &str) -> (Model, Value) {
    let model = Model::from_path(&path(dir, name, "tflite")).expect("the model reads");
    let json = std::fs::read_to_string(path(dir, name, "xnnpack.json")).expect("oracle JSON");
    (model, serde_json::from_str(&json).expect("JSON"))
}

/// The oracle's partitions: TFLite node indices per partition.
fn their_partitions(d: &Value) -> Vec<Vec<usize>> {
    d["delegated"]["partitions"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            p["nodes"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_u64)
                .map(|n| n as usize)
                .collect()
        })
        .collect()
}

/// Our records of partition `k` planned with `xnnpack`, by ("v" value id | "op" op index):
/// (size, first, last, offset), and the plan's size.
type Records = Vec<((&'static str, u64), (u64, u64, u64, u64))>;

fn our_records(model: &Model, k: usize) -> (Records, u64) {
    let d = xnnpack::delegate(model);
    let rt = xnnpack::runtime(model, &d.partitions[k]);
    let problem = xnnpack::workspace_problem(&rt, d.partitions[k].subgraph, Platform::X86_64);
    let plan = planner::run(
        planner::find("xnnpack").expect("the xnnpack planner"),
        &problem,
        &Settings::default(),
    )
    .expect("a plan");
    let key = |name: &str| -> (&'static str, u64) {
        match name.strip_prefix("workspace of op ") {
            Some(rest) => (
                "op",
                rest.split(' ')
                    .next()
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0),
            ),
            None => (
                "v",
                name.rsplit("[v")
                    .next()
                    .and_then(|s| s.trim_end_matches(']').parse().ok())
                    .unwrap_or(0),
            ),
        }
    };
    let mut out: Records = Vec::new();
    for (i, b) in problem.buffers.iter().enumerate() {
        out.push((
            key(&b.name),
            (b.size_bytes, b.first as u64, b.last as u64, plan.offsets[i]),
        ));
    }
    for a in &problem.aliases {
        out.push((
            key(&a.name),
            (0, a.first as u64, a.last as u64, plan.offsets[a.root]),
        ));
    }
    out.sort();
    (out, plan.arena_bytes)
}

fn their_records(d: &Value, k: usize) -> (Records, u64) {
    let plans = d["xnnpack_workspace"]["plans"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let Some(plan) = plans
        .iter()
        .find(|p| p["partition"].as_u64() == Some(k as u64))
    else {
        return (Vec::new(), 0);
    };
    let mut out: Records = plan["records"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let key = if r["kind"] == "value" {
                ("v", r["value"].as_u64().unwrap_or(0))
            } else {
                ("op", r["op"].as_u64().unwrap_or(0))
            };
            let n = |f: &str| r[f].as_u64().unwrap_or(0);
            (
                key,
                (n("size"), n("first_node"), n("last_node"), n("offset")),
            )
        })
        .collect();
    out.sort();
    (out, plan["mem_arena_size"].as_u64().unwrap_or(0))
}

/// Our partitions equal the oracle's, every partition's records too, and nothing is marked
/// not modelled.
fn assert_exact(dir: &str, name: &str) {
    let (model, d) = load(dir, name);
    let ours: Vec<Vec<usize>> = xnnpack::delegate(&model)
        .partitions
        .iter()
        .map(|p| p.nodes.clone())
        .collect();
    assert_eq!(ours, their_partitions(&d), "{name}: partitions");
    for k in 0..ours.len() {
        assert_eq!(
            our_records(&model, k),
            their_records(&d, k),
            "{name}: partition {k}"
        );
    }
    let del = xnnpack::delegate(&model);
    assert!(
        del.not_modelled.is_empty(),
        "{name}: {:?}",
        del.not_modelled
    );
}

/// The ops of partition `k` as the oracle lists them: (kind, removed).
fn their_ops(d: &Value, k: usize) -> Vec<(String, bool)> {
    let plans = d["xnnpack_workspace"]["plans"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    plans
        .iter()
        .find(|p| p["partition"].as_u64() == Some(k as u64))
        .and_then(|p| p["ops"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .map(|o| (o[1].as_str().unwrap_or("").to_string(), o[5] == true))
        .collect()
}

fn our_ops(model: &Model, k: usize) -> Vec<(String, bool)> {
    let d = xnnpack::delegate(model);
    xnnpack::runtime(model, &d.partitions[k])
        .ops
        .iter()
        .map(|o| (o.kind.to_string(), o.kind == "invalid"))
        .collect()
}

const RULES: &str = "xnnpack_rules";

#[test]
fn a_zero_spatial_pad_is_fused_into_the_valid_convolution_it_feeds() {
    // xnn_subgraph_fusion: a constant pad of H and W only, whose output only a convolution or
    // depthwise convolution without SAME padding reads, is folded into that node's padding;
    // the pad stays as an invalid op and its output is never planned (the oracle: op 0
    // `invalid`, removed, no record; fp32 and int8, where the padding is the zero point).
    for name in [
        "xnn_pad_conv_f32",
        "xnn_pad_conv_int8",
        "xnn_pad_dw_f32",
        "xnn_pad_dw_int8",
    ] {
        assert_exact(RULES, name);
        let (model, d) = load(RULES, name);
        assert_eq!(their_ops(&d, 0)[0], ("invalid".to_string(), true), "{name}");
        assert_eq!(our_ops(&model, 0), their_ops(&d, 0), "{name}");
        assert!(their_records(&d, 0).0.is_empty(), "{name}");
    }
}

#[test]
fn a_pad_of_the_channels_or_read_twice_stays_a_pad() {
    // Channel padding is not spatial; a pad output two nodes read has two consumers: both
    // keep their `static_constant_pad` op and its output record (3200 B over ops 0-1, and
    // 1728 B over ops 0-2).
    for (name, record) in [
        ("xnn_pad_conv_channels_f32", (3200, 0, 1, 0)),
        ("xnn_pad_conv_shared_f32", (1728, 0, 2, 0)),
    ] {
        assert_exact(RULES, name);
        let (model, d) = load(RULES, name);
        assert_eq!(our_ops(&model, 0)[0].0, "static_constant_pad", "{name}");
        assert_eq!(our_records(&model, 0).0[0].1, record, "{name}");
        assert_eq!(their_records(&d, 0).0[0].1, record, "{name}");
    }
}

#[test]
fn int8_add_and_mul_outside_their_scale_ratio_ranges_stay_in_tflite() {
    // VisitBinaryNode: int8 ADD / SUB want in/out scales in [1/1024, 256), MUL the product
    // of its input scales over the output's in [1/65536, 256). x + (-x + 0.001 z): the final
    // ADD's input scales are 1001 times the output's (>= 256), and the MUL by 0.001 has
    // 0.01566 x 3.92e-6 / 0.01568 = 3.9e-6 (< 1/65536), so only the SUB (node 1; the
    // converter writes -x + 0.001 z as 0.001 z - x) is delegated.
    assert_exact(RULES, "xnn_add_scale_ratio_int8");
    let (model, _) = load(RULES, "xnn_add_scale_ratio_int8");
    let d = xnnpack::delegate(&model);
    assert_eq!(d.not_delegated, [(0, 0), (0, 2)]);
}

#[test]
fn pools_with_a_stride_beyond_the_window_stay_in_tflite() {
    // CheckPoolingParams: a stride larger than the filter, or a 1x1 filter with stride 2,
    // is refused; the ADD after it is taken alone.
    for name in [
        "xnn_avg_pool_stride_gt_filter_f32",
        "xnn_max_pool_1x1_stride2_f32",
    ] {
        assert_exact(RULES, name);
        let (model, _) = load(RULES, name);
        assert_eq!(xnnpack::delegate(&model).not_delegated, [(0, 0)], "{name}");
    }
}

#[test]
fn a_reshape_to_minus_one_a_slice_to_the_end_and_a_split_in_eight_stay_in_tflite() {
    // VisitReshapeNode refuses the legacy new shape [-1]; VisitSliceNode a size of -1;
    // VisitSplitNode more than four outputs. The RELUs around them are taken.
    for (name, left) in [
        ("xnn_reshape_flat_f32", vec![(0, 1)]),
        ("xnn_slice_size_minus1_f32", vec![(0, 0)]),
        ("xnn_split8_f32", vec![(0, 0)]),
    ] {
        assert_exact(RULES, name);
        let (model, _) = load(RULES, name);
        assert_eq!(xnnpack::delegate(&model).not_delegated, left, "{name}");
    }
}

#[test]
fn a_leaky_relu_with_a_small_alpha_is_taken_at_int8() {
    // VisitUnaryNode's LEAKY_RELU: alpha 0.01 gives a negative scale of about 0.01, above
    // 1/256: taken.
    assert_exact(RULES, "xnn_leaky_relu_small_int8");
}

#[test]
fn maximum_with_a_scalar_becomes_a_clamp_and_mul_of_a_value_by_itself_a_square() {
    // optimize_common_subgraphs: MAXIMUM(x, 0.5) becomes a clamp writing the MUL's input (one
    // record, 512 B over ops 0-1); MUL(x, x) with its fused RELU becomes a square into a new
    // value, then the clamp (512 B over ops 0-1).
    for name in ["xnn_maximum_scalar_f32", "xnn_mul_self_f32"] {
        assert_exact(RULES, name);
        let (model, d) = load(RULES, name);
        assert_eq!(our_ops(&model, 0), their_ops(&d, 0), "{name}");
        assert_eq!(our_ops(&model, 0)[0].0, "unary_elementwise", "{name}");
    }
}

#[test]
fn a_sum_of_squares_becomes_one_reduction() {
    // reduce_sum_to_square: SUM(MUL(x, x)) becomes one `static_sum_squared` of x; the square
    // is removed and the runtime compacted: one op, no record.
    assert_exact(RULES, "xnn_sum_of_squares_f32");
    let (model, d) = load(RULES, "xnn_sum_of_squares_f32");
    assert_eq!(
        our_ops(&model, 0),
        [("static_sum_squared".to_string(), false)]
    );
    assert_eq!(our_ops(&model, 0), their_ops(&d, 0));
}

#[test]
fn a_dynamic_batch_matmul_is_taken_and_its_workspace_named_as_not_modelled() {
    // VisitBatchMatMulNode takes an fp32 BATCH_MATMUL of two runtime tensors (tf.matmul of
    // two inputs converts to one). XNNPACK packs the right-hand side into the op's workspace
    // (2176 B here), a size its GEMM tile decides: the partition is right, the workspace is
    // named, not guessed.
    let (model, d) = load(RULES, "xnn_fc_dynamic_weights_f32");
    let del = xnnpack::delegate(&model);
    let ours: Vec<Vec<usize>> = del.partitions.iter().map(|p| p.nodes.clone()).collect();
    assert_eq!(ours, their_partitions(&d));
    assert_eq!(their_records(&d, 0).1, 2176);
    assert_eq!(del.not_modelled.len(), 1);
    assert!(del.not_modelled[0].starts_with("subgraph 0 node 0 (BATCH_MATMUL: "));
}

#[test]
fn the_sweeps_variable_models_delegate_their_handles_and_fuse_the_copies() {
    // VisitReadVariableNode / VisitAssignVariableNode type the resource, so its VAR_HANDLE is
    // delegated at the end (init subgraph included); each is an XNNPACK copy, fused into the
    // node that writes or reads its internal end (xnn_subgraph_fusion): invalid ops in place.
    for name in [
        "var_handle_f32",
        "var_handle_int8",
        "streaming_vars_f32",
        "streaming_vars_int8",
    ] {
        assert_exact("ops", name);
        let (model, d) = load("ops", name);
        assert_eq!(our_ops(&model, 0), their_ops(&d, 0), "{name}");
    }
}

#[test]
fn sweep_ops_the_delegate_takes_are_partitioned_as_measured() {
    // Unary float ops, float binaries, layout ops, reductions (int8 ones with an op
    // workspace of an accumulator per output plus 16 bytes), slices, splits and
    // TRANSPOSE_CONV: one partition each, as the oracle shows.
    for name in [
        "abs_f32",
        "ceil_f32",
        "cos_f32",
        "elu_f32",
        "exp_f32",
        "floor_f32",
        "gelu_f32",
        "gelu_approx_f32",
        "log_f32",
        "neg_f32",
        "round_f32",
        "rsqrt_f32",
        "sin_f32",
        "sqrt_f32",
        "square_f32",
        "leaky_relu_f32",
        "leaky_relu_int8",
        "div_f32",
        "maximum_f32",
        "minimum_f32",
        "squared_difference_f32",
        "depth_to_space_f32",
        "depth_to_space_int8",
        "space_to_depth_f32",
        "space_to_depth_int8",
        "reduce_max_f32",
        "reduce_max_int8",
        "reduce_min_f32",
        "reduce_min_int8",
        "sum_f32",
        "sum_int8",
        "slice_f32",
        "slice_int8",
        "split_f32",
        "split_int8",
        "transpose_f32",
        "transpose_int8",
        "transpose_conv_f32",
        "transpose_conv_int8",
    ] {
        assert_exact("ops", name);
    }
}

#[test]
fn sweep_variants_the_delegate_refuses_stay_in_tflite_unmarked() {
    // HARD_SWISH, RELU*, SOFTMAX and AVERAGE_POOL_2D take float only; RESHAPE, TRANSPOSE,
    // SLICE and the rest take float or 8-bit (no int16); STRIDED_SLICE wants every stride 1;
    // EXPAND_DIMS is always refused (VisitExpandDimsNode returns before its checks).
    for name in [
        "hard_swish_int8",
        "reshape_int16",
        "strided_slice_strided_f32",
        "strided_slice_strided_int8",
        "expand_dims_dynbatch_f32",
        "softmax_int8",
        "average_pool_2d_int8",
        "relu_int8",
    ] {
        let (model, d) = load("ops", name);
        let del = xnnpack::delegate(&model);
        assert!(del.partitions.is_empty(), "{name}: {:?}", del.partitions);
        assert!(their_partitions(&d).is_empty(), "{name}");
        assert!(
            del.not_modelled.is_empty(),
            "{name}: {:?}",
            del.not_modelled
        );
    }
}

#[test]
fn every_rule_model_is_exact_or_named_and_never_both() {
    // Over every model of sample_models/xnnpack_rules/: the partitions equal the oracle's;
    // a model with nothing marked not modelled has every op and workspace record equal; a
    // model with a mark really differs somewhere (no mark on an exact model).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(RULES);
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the rules folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".xnnpack.json").map(str::to_owned))
        .collect();
    names.sort();
    assert!(names.len() >= 30, "{} models", names.len());
    for name in names {
        let (model, d) = load(RULES, &name);
        let del = xnnpack::delegate(&model);
        let ours: Vec<Vec<usize>> = del.partitions.iter().map(|p| p.nodes.clone()).collect();
        assert_eq!(ours, their_partitions(&d), "{name}: partitions");
        let exact = (0..ours.len()).all(|k| {
            our_records(&model, k) == their_records(&d, k) && our_ops(&model, k) == their_ops(&d, k)
        });
        assert_eq!(
            exact,
            del.not_modelled.is_empty(),
            "{name}: {:?}",
            del.not_modelled
        );
    }
}

#[test]
fn a_stride_1_same_convolution_takes_the_pad_a_strided_one_does_not() {
    // xnn_define_convolution_2d turns SAME padding at stride 1 into explicit padding, so the
    // pad fuses; at stride 2 the SAME flag stays and the pad keeps its op and its 1728-byte
    // record over ops 0-1.
    let (model, d) = load(RULES, "xnn_pad_conv_same_f32");
    assert_eq!(their_ops(&d, 0)[0], ("invalid".to_string(), true));
    assert_eq!(our_ops(&model, 0), their_ops(&d, 0));
    let (model, d) = load(RULES, "xnn_pad_conv_same_stride2_f32");
    assert_eq!(our_ops(&model, 0)[0].0, "static_constant_pad");
    assert_eq!(our_records(&model, 0), their_records(&d, 0));
    assert_eq!(our_records(&model, 0).0, [(("v", 7), (1728, 0, 1, 0))]);
}

#[test]
fn a_fused_pad_disappears_when_a_later_rewrite_compacts_the_runtime() {
    // PAD -> CONV (VALID) -> MAXIMUM(., 0.5): the pad fuses (an invalid op in place), the
    // maximum becomes a clamp and merges into the convolution; that change makes XNNPACK
    // clean up, which drops the invalid op: one `convolution_2d` op, nothing planned.
    let (model, d) = load(RULES, "xnn_pad_conv_maximum_f32");
    assert_eq!(our_ops(&model, 0), [("convolution_2d".to_string(), false)]);
    assert_eq!(our_ops(&model, 0), their_ops(&d, 0));
    assert!(our_records(&model, 0).0.is_empty());
}

#[test]
fn an_int8_dequantize_float_op_quantize_chain_becomes_one_lookup_table() {
    // The converter keeps ELU float between DEQUANTIZE and QUANTIZE; the three pure unary
    // nodes map int8 to int8, so XNNPACK fuses them into one table: two invalid ops and the
    // table op, the float values between never planned.
    let (model, d) = load(RULES, "xnn_elu_int8");
    let inv = ("invalid".to_string(), true);
    assert_eq!(
        our_ops(&model, 0),
        [inv.clone(), inv, ("unary_elementwise".to_string(), false)]
    );
    assert_eq!(our_ops(&model, 0), their_ops(&d, 0));
    assert!(our_records(&model, 0).0.is_empty());
}

#[test]
fn refusals_by_parameter_stay_in_tflite() {
    // LEAKY_RELU int8 with alpha 0.001: the negative scale falls below 1/256; CONCATENATION
    // of six inputs (at most five); the RELU after the concatenation is taken alone.
    let (model, d) = load(RULES, "xnn_leaky_relu_tiny_alpha_int8");
    assert!(xnnpack::delegate(&model).partitions.is_empty());
    assert!(their_partitions(&d).is_empty());
    let (model, d) = load(RULES, "xnn_concat6_f32");
    assert_eq!(xnnpack::delegate(&model).not_delegated, [(0, 0)]);
    assert_eq!(their_partitions(&d), [vec![1]]);
}

#[test]
fn a_fused_activation_of_div_becomes_a_clamp_of_a_new_value() {
    // xnn_define_binary with a RELU range inserts a clamp: DIV writes a new value (v3,
    // 512 B over ops 0-1) that the clamp reads into the output.
    let (model, d) = load(RULES, "xnn_div_relu_f32");
    assert_eq!(our_records(&model, 0).0, [(("v", 3), (512, 0, 1, 0))]);
    assert_eq!(our_records(&model, 0), their_records(&d, 0));
}

#[test]
fn a_1x1_pool_is_taken_and_named() {
    // A 1x1 pool passes CheckPoolingParams and becomes a clamp of its activation's range,
    // which XNNPACK elides or replaces by a copy (the oracle: only the MUL's op remains);
    // the pool's activation is not read here, so the runtime is named, not guessed.
    let (model, d) = load(RULES, "xnn_avg_pool_1x1_f32");
    let del = xnnpack::delegate(&model);
    assert_eq!(del.partitions[0].nodes, their_partitions(&d)[0]);
    assert_eq!(
        their_ops(&d, 0),
        [("binary_elementwise".to_string(), false)]
    );
    assert_eq!(
        del.not_modelled,
        ["subgraph 0 node 0 (AVERAGE_POOL_2D: a 1x1 pool becomes a clamp, then a copy or nothing)"]
    );
}
