#!/usr/bin/env python3
"""Small models that pin one XNNPACK delegate rule each (tests/xnnpack_rules.rs).

Made with tensorflow 2.21.0 (tf.lite.TFLiteConverter.from_concrete_functions), as the
operator sweep in ../ops; variants: f32 (no quantisation), int8 (full integer, a seeded
random representative dataset of 16 samples in [lo, hi], int8 input and output), f16
(float16 weights: DEQUANTIZE of fp16 constants), dr (dynamic range: int8 weights, float
activations). Weights come from numpy default_rng(0), then (1) for the strided SAME model.

Each model's ground truth is `<name>.xnnpack.json` from
    python /work/shared/tools/oracle_xnnpack.py xnn_*.tflite --out-dir .
(ai-edge-litert 2.3.0). Rewriting a model changes its weights' quantisation only where its
constants are redrawn; re-run the oracle after regenerating.

Usage: python make_rules.py   (writes the .tflite files into the current directory)
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def conv(fn, shapes, name, mode="f32", lo=-2.0, hi=2.0):
    sig = [tf.TensorSpec(s, tf.float32) for s in shapes]
    f = tf.function(fn, input_signature=sig).get_concrete_function()
    c = tf.lite.TFLiteConverter.from_concrete_functions([f])
    if mode == "int8":
        c.optimizations = [tf.lite.Optimize.DEFAULT]

        def rep():
            r = np.random.default_rng(0)
            for _ in range(16):
                yield [r.uniform(lo, hi, size=s).astype(np.float32) for s in shapes]

        c.representative_dataset = rep
        c.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        c.inference_input_type = tf.int8
        c.inference_output_type = tf.int8
    elif mode == "f16":
        c.optimizations = [tf.lite.Optimize.DEFAULT]
        c.target_spec.supported_types = [tf.float16]
    elif mode == "dr":
        c.optimizations = [tf.lite.Optimize.DEFAULT]
    with open(name + ".tflite", "wb") as out:
        out.write(c.convert())


S = [1, 8, 16]
IMG = [[1, 8, 8, 4]]
SPATIAL = [[0, 0], [2, 2], [0, 1], [0, 0]]  # a pad the converter does not fold

# ---- 1. a zero spatial PAD before a convolution (xnn_subgraph_fusion)
rng = np.random.default_rng(0)
W = tf.constant(rng.uniform(-1, 1, size=(3, 3, 4, 8)).astype(np.float32))
DW = tf.constant(rng.uniform(-1, 1, size=(3, 3, 4, 1)).astype(np.float32))
for mode in ("f32", "int8"):
    conv(lambda x: tf.nn.relu(tf.nn.conv2d(tf.pad(x, SPATIAL), W, 1, "VALID")),
         IMG, f"xnn_pad_conv_{mode}", mode)
    conv(lambda x: tf.nn.relu(tf.nn.depthwise_conv2d(tf.pad(x, SPATIAL), DW, [1, 1, 1, 1],
                                                      "VALID")),
         IMG, f"xnn_pad_dw_{mode}", mode)
conv(lambda x: tf.nn.relu(tf.nn.conv2d(tf.pad(x, [[0, 0], [1, 1], [1, 1], [0, 4]]),
                                       tf.concat([W, W], 2), 1, "VALID")),
     IMG, "xnn_pad_conv_channels_f32")
conv(lambda x: (tf.nn.conv2d(tf.pad(x, SPATIAL), W, 1, "VALID"),
                tf.nn.relu(tf.pad(x, SPATIAL))),
     IMG, "xnn_pad_conv_shared_f32")
conv(lambda x: tf.maximum(tf.nn.conv2d(tf.pad(x, SPATIAL), W, 1, "VALID"), 0.5),
     IMG, "xnn_pad_conv_maximum_f32")
conv(lambda x: tf.nn.conv2d(tf.pad(x, SPATIAL), W, 1, "SAME"), IMG, "xnn_pad_conv_same_f32")
conv(lambda x: tf.nn.relu(tf.nn.conv2d(tf.pad(x, SPATIAL), W, 1, "VALID")),
     IMG, "xnn_pad_conv_relu_f16", "f16")
W1 = tf.constant(np.random.default_rng(1).uniform(-1, 1, size=(3, 3, 4, 8)).astype(np.float32))
conv(lambda x: tf.nn.conv2d(tf.pad(x, SPATIAL), W1, 2, "SAME"), IMG,
     "xnn_pad_conv_same_stride2_f32")

# ---- 2. support checks (Visit*Node)
conv(lambda x, z: x + (-x + 0.001 * z), [S, S], "xnn_add_scale_ratio_int8", "int8")
conv(lambda x: tf.nn.avg_pool2d(x, 2, 3, "VALID") + 1.0, [[1, 9, 9, 4]],
     "xnn_avg_pool_stride_gt_filter_f32")
conv(lambda x: tf.nn.max_pool2d(x, 1, 2, "VALID") + 1.0, IMG, "xnn_max_pool_1x1_stride2_f32")
conv(lambda x: tf.nn.avg_pool2d(x, 1, 1, "VALID") * 2.0, IMG, "xnn_avg_pool_1x1_f32")
conv(lambda x: tf.nn.relu(tf.reshape(x, [-1])), [S], "xnn_reshape_flat_f32")
conv(lambda x: tf.nn.relu(tf.slice(x, [0, 2, 0], [-1, 4, -1])), [S], "xnn_slice_size_minus1_f32")
conv(lambda x: [tf.nn.relu(t) for t in tf.split(x, 8, axis=2)], [S], "xnn_split8_f32")
conv(lambda x: [tf.nn.relu(t) for t in tf.split(x, 4, axis=2)], [S], "xnn_split4_int8", "int8")
conv(lambda *xs: tf.nn.relu(tf.concat(xs, axis=2)), [S] * 6, "xnn_concat6_f32")
conv(lambda x: tf.nn.leaky_relu(x, 0.01), [S], "xnn_leaky_relu_small_int8", "int8")
conv(lambda x: tf.nn.leaky_relu(x, 0.001), [S], "xnn_leaky_relu_tiny_alpha_int8", "int8")
conv(lambda x: tf.nn.softmax(x * 2.0), [S], "xnn_softmax_beta_f32")
conv(lambda x, y: tf.nn.relu(x / y), [S, S], "xnn_div_relu_f32", lo=0.5, hi=2.0)

# ---- 3. XNNPACK's rewrites (optimize_common_subgraphs, LUT fusion)
conv(lambda x: tf.maximum(x, 0.5) * 2.0, [S], "xnn_maximum_scalar_f32")
conv(lambda x: tf.nn.relu(x * x), [S], "xnn_mul_self_f32")
conv(lambda x: tf.reduce_sum(x * x, axis=2), [S], "xnn_sum_of_squares_f32")
conv(lambda x: tf.nn.elu(x), [S], "xnn_elu_int8", "int8")

# ---- 4. GEMMs whose runtime is named as not modelled
rng2 = np.random.default_rng(0)
conv(lambda x, w: tf.matmul(x, w), [[4, 16], [16, 8]], "xnn_fc_dynamic_weights_f32")
BW = tf.constant(rng2.uniform(-1, 1, size=(64, 64)).astype(np.float32))
conv(lambda x: tf.nn.relu(tf.matmul(x, BW)), [[1, 4, 64]], "xnn_batch_matmul_const_dr", "dr")
conv(lambda x: tf.nn.relu(tf.matmul(x, BW)), [[1, 4, 64]], "xnn_batch_matmul_const_f32")
TW2 = tf.constant(rng2.uniform(-1, 1, size=(3, 3, 4, 8)).astype(np.float32))
conv(lambda x: tf.nn.conv2d_transpose(x, TW2, [1, 8, 8, 4], 2, "SAME"), [[1, 4, 4, 8]],
     "xnn_transpose_conv_dr", "dr")
