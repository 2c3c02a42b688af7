#!/usr/bin/env python3
"""The operator sweep: one tiny model per (TFLite builtin operator, type variant).

Made with tensorflow 2.21.0 (its TFLite converter); the flatbuffers are read with
ai-edge-litert 2.3.0's schema module.  Every model is a tf.function over small runtime
inputs (constants -- weights, tables, alphas -- come from numpy default_rng seeded by the
model's name), converted with tf.lite.TFLiteConverter.from_concrete_functions:

  f32     no quantisation
  int8    full-integer: Optimize.DEFAULT, a seeded random representative dataset (16
          samples, numpy default_rng(0)), supported_ops = [TFLITE_BUILTINS_INT8],
          float inputs/outputs become int8
  int16   16x8: as int8 but supported_ops =
          [EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8], int16 I/O
  bool / i32   models whose inputs are not float (logical ops, casts), no quantisation
  special: quantize_int8 / quantize_int16 (full-integer model with float I/O, so QUANTIZE
          and DEQUANTIZE at its ends), dequantize_f16 (float16 weights: DEQUANTIZE of
          constants), var_handle_* (resource variables, CALL_ONCE init subgraph)

Each produced file is checked: the operator it is named after must be in subgraph 0, and
for int8 / int16 that operator must really run on int8 / int16 tensors (no float
fallback).  Combinations the converter refuses, or where the operator folds away or is
rewritten into another one, are not written; they are listed in manifest.json with the
reason.

Usage (from anywhere):
    python make_ops.py                # build all models + manifest.json into this folder
    python make_ops.py --only softmax # build only the entries whose name matches
    python make_ops.py --readme       # write README.md from manifest.json + oracle JSON
"""
import argparse
import json
import os
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert import schema_py_generated as fb  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OPNAME = {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_")}
TTYPE = {v: k for k, v in vars(fb.TensorType).items() if not k.startswith("_")}

F, I, B = tf.float32, tf.int32, tf.bool
QV = ("f32", "int8", "int16")          # the default variants
ENTRIES = []


def entry(name, expect, inputs, variants=QV, note="", type_op=None):
    """Register a model builder.  inputs: list of (shape, dtype, lo, hi) of the runtime
    inputs; the decorated function gets a const maker c(shape, lo, hi) and returns the
    body (a python callable over the inputs)."""
    def deco(build):
        ENTRIES.append(dict(name=name, expect=expect, inputs=inputs,
                            variants=variants, build=build, note=note,
                            type_op=type_op))
        return build
    return deco


def x(shape, lo=-2.0, hi=2.0):
    return (shape, F, lo, hi)


class Consts:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def __call__(self, shape, lo=-1.0, hi=1.0, dtype=np.float32):
        if np.issubdtype(dtype, np.integer):
            return tf.constant(self.rng.integers(lo, hi, size=shape).astype(dtype))
        return tf.constant(self.rng.uniform(lo, hi, size=shape).astype(dtype))


# ---------------------------------------------------------------- 1. transformer pieces
S = [1, 8, 16]          # the usual activation shape: 128 elements (512 B float)

entry("batch_matmul", "BATCH_MATMUL", [x([1, 4, 8, 16]), x([1, 4, 16, 8])])(
    lambda c: lambda a, b: tf.matmul(a, b))
entry("batch_matmul_adj_y", "BATCH_MATMUL", [x([1, 4, 8, 16]), x([1, 4, 8, 16])],
      note="q @ k^T (adj_y)")(lambda c: lambda a, b: tf.matmul(a, b, transpose_b=True))
entry("softmax", "SOFTMAX", [x([1, 4, 8, 8], -4, 4)])(lambda c: lambda a: tf.nn.softmax(a))
entry("log_softmax", "LOG_SOFTMAX", [x(S, -4, 4)])(lambda c: lambda a: tf.nn.log_softmax(a))
entry("transpose", "TRANSPOSE", [x([1, 8, 4, 16])])(
    lambda c: lambda a: tf.transpose(a, [0, 2, 1, 3]))
entry("reshape", "RESHAPE", [x([1, 8, 32])])(lambda c: lambda a: tf.reshape(a, [1, 8, 4, 8]))
entry("mean", "MEAN", [x([1, 8, 32])])(
    lambda c: lambda a: tf.reduce_mean(a, axis=-1, keepdims=True))
entry("squared_difference", "SQUARED_DIFFERENCE", [x(S), x(S)])(
    lambda c: lambda a, b: tf.math.squared_difference(a, b))
entry("rsqrt", "RSQRT", [x(S, 0.1, 4.0)])(lambda c: lambda a: tf.math.rsqrt(a))
entry("gelu", "GELU", [x(S, -4, 4)])(lambda c: lambda a: tf.nn.gelu(a, approximate=False))
entry("gelu_approx", "GELU", [x(S, -4, 4)], note="tanh approximation")(
    lambda c: lambda a: tf.nn.gelu(a, approximate=True))


@entry("gather", "GATHER", [([1, 8], I, 0, 64)], note="embedding lookup: 64x16 table")
def _gather(c):
    table = c([64, 16])
    return lambda ids: tf.gather(table, ids)


entry("gather_nd", "GATHER_ND", [x([5, 8, 16]), ([1, 6, 2], I, 0, 5)],
      note="params 5x8x16: the oracles feed int32 indices in [0, 4]")(
    lambda c: lambda a, idx: tf.gather_nd(a, idx))
entry("reduce_max", "REDUCE_MAX", [x(S)])(lambda c: lambda a: tf.reduce_max(a, axis=-1))
entry("reduce_min", "REDUCE_MIN", [x(S)])(lambda c: lambda a: tf.reduce_min(a, axis=-1))
entry("reduce_prod", "REDUCE_PROD", [x(S, 0.5, 1.5)])(
    lambda c: lambda a: tf.reduce_prod(a, axis=-1))
entry("sum", "SUM", [x(S)])(lambda c: lambda a: tf.reduce_sum(a, axis=-1, keepdims=True))


@entry("transpose_conv", "TRANSPOSE_CONV", [x([1, 4, 4, 8])], note="3x3 stride 2, 8->4 ch")
def _tconv(c):
    w, b = c([3, 3, 4, 8]), c([4])
    return lambda a: tf.nn.conv2d_transpose(a, w, [1, 8, 8, 4], 2, "SAME") + b


entry("pad", "PAD", [x([1, 6, 6, 4])])(
    lambda c: lambda a: tf.pad(a, [[0, 0], [1, 1], [2, 2], [0, 0]]))
entry("padv2", "PADV2", [x([1, 6, 6, 4])])(
    lambda c: lambda a: tf.pad(a, [[0, 0], [1, 1], [2, 2], [0, 0]], constant_values=0.5))
entry("mirror_pad", "MIRROR_PAD", [x([1, 6, 6, 4])])(
    lambda c: lambda a: tf.pad(a, [[0, 0], [1, 1], [2, 2], [0, 0]], mode="REFLECT"))
entry("slice", "SLICE", [x(S)])(lambda c: lambda a: tf.slice(a, [0, 1, 2], [1, 5, 10]))
entry("strided_slice", "STRIDED_SLICE", [x([1, 8, 16])], note="unit strides, shrink axis")(
    lambda c: lambda a: a[:, 2, 1:9])
entry("strided_slice_strided", "STRIDED_SLICE", [x([1, 8, 16])], note="strides 2 and 3")(
    lambda c: lambda a: a[:, ::2, 1::3])
entry("split", "SPLIT", [x([1, 8, 16])])(lambda c: lambda a: tuple(tf.split(a, 2, axis=-1)))
entry("split_v", "SPLIT_V", [x([1, 8, 16])])(
    lambda c: lambda a: tuple(tf.split(a, [4, 12], axis=-1)))
entry("concatenation", "CONCATENATION", [x([1, 8, 8]), x([1, 8, 16])])(
    lambda c: lambda a, b: tf.concat([a, b], axis=-1))
entry("tile", "TILE", [x([1, 4, 8])])(lambda c: lambda a: tf.tile(a, [2, 3, 1]))
entry("select_v2", "SELECT_V2", [([1, 1, 16], B, 0, 2), x(S), x(S)],
      note="broadcast condition")(lambda c: lambda m, a, b: tf.where(m, a, b))
entry("broadcast_to", "BROADCAST_TO", [x([1, 1, 16])])(
    lambda c: lambda a: tf.broadcast_to(a, [2, 8, 16]))

# --------------------------------------------------- 2. elementwise and activations
for _n, _op, _f in [("add", "ADD", tf.add), ("sub", "SUB", tf.subtract),
                    ("mul", "MUL", tf.multiply), ("maximum", "MAXIMUM", tf.maximum),
                    ("minimum", "MINIMUM", tf.minimum)]:
    entry(_n, _op, [x(S), x(S)])(lambda c, f=_f: lambda a, b: f(a, b))
entry("add_broadcast", "ADD", [x(S), x([1, 1, 16])], note="second input broadcast")(
    lambda c: lambda a, b: a + b)
entry("div", "DIV", [x(S), x(S, 0.5, 2.0)])(lambda c: lambda a, b: a / b)
entry("floor_div", "FLOOR_DIV", [x(S, -8, 8), x(S, 1.0, 3.0)])(
    lambda c: lambda a, b: tf.math.floordiv(a, b))
entry("floor_mod", "FLOOR_MOD", [x(S, -8, 8), x(S, 1.0, 3.0)])(
    lambda c: lambda a, b: tf.math.floormod(a, b))


@entry("prelu", "PRELU", [x([1, 4, 4, 16])], note="Keras PReLU layer, per-channel alpha")
def _prelu(c):
    layer = tf.keras.layers.PReLU(shared_axes=[1, 2])
    layer.build([1, 4, 4, 16])
    layer.set_weights([c([1, 1, 16], 0.05, 0.3).numpy()])
    return lambda a: layer(a)


entry("leaky_relu", "LEAKY_RELU", [x(S)])(lambda c: lambda a: tf.nn.leaky_relu(a, 0.2))
entry("hard_swish", "HARD_SWISH", [x(S, -5, 5)])(
    lambda c: lambda a: a * tf.nn.relu6(a + 3.0) * (1.0 / 6.0))
entry("elu", "ELU", [x(S)])(lambda c: lambda a: tf.nn.elu(a))
for _n, _op, _f, _lo, _hi in [
        ("relu", "RELU", tf.nn.relu, -2, 2), ("relu6", "RELU6", tf.nn.relu6, -2, 8),
        ("tanh", "TANH", tf.tanh, -3, 3), ("logistic", "LOGISTIC", tf.sigmoid, -6, 6),
        ("exp", "EXP", tf.exp, -3, 1), ("log", "LOG", tf.math.log, 0.1, 8),
        ("sqrt", "SQRT", tf.sqrt, 0.0, 8), ("abs", "ABS", tf.abs, -2, 2),
        ("neg", "NEG", tf.negative, -2, 2), ("square", "SQUARE", tf.square, -2, 2),
        ("floor", "FLOOR", tf.floor, -4, 4), ("ceil", "CEIL", tf.math.ceil, -4, 4),
        ("round", "ROUND", tf.round, -4, 4), ("sin", "SIN", tf.sin, -3, 3),
        ("cos", "COS", tf.cos, -3, 3), ("sign", "SIGN", tf.sign, -2, 2)]:
    entry(_n, _op, [x(S, _lo, _hi)])(lambda c, f=_f: lambda a: f(a))
entry("relu_n1_to_1", "RELU_N1_TO_1", [x(S)])(
    lambda c: lambda a: tf.minimum(tf.maximum(a, -1.0), 1.0))
entry("relu_0_to_1", "RELU_0_TO_1", [x(S)])(
    lambda c: lambda a: tf.minimum(tf.maximum(a, 0.0), 1.0))
entry("pow", "POW", [x(S, 0.5, 2.0), x(S, 0.0, 2.0)])(lambda c: lambda a, b: tf.pow(a, b))
entry("cast", "CAST", [x(S, -8, 8)], variants=("f32",), note="float32 -> int32")(
    lambda c: lambda a: tf.cast(a, tf.int32))
entry("cast", "CAST", [(S, I, -100, 100)], variants=("i32",), note="int32 -> float32")(
    lambda c: lambda a: tf.cast(a, tf.float32))
entry("quantize", "QUANTIZE", [x(S)], variants=("int8_fio", "int16_fio"),
      note="full-integer model with float I/O: QUANTIZE -> ADD -> DEQUANTIZE")(
    lambda c: lambda a: a + a)


@entry("dequantize", "DEQUANTIZE", [x([1, 64])], variants=("f16",),
       note="float16 weights: DEQUANTIZE of a constant feeding FULLY_CONNECTED")
def _deq(c):
    w = c([64, 32])
    return lambda a: tf.matmul(a, w)


for _n, _op, _f in [("logical_and", "LOGICAL_AND", tf.logical_and),
                    ("logical_or", "LOGICAL_OR", tf.logical_or)]:
    entry(_n, _op, [(S, B, 0, 2), (S, B, 0, 2)], variants=("bool",))(
        lambda c, f=_f: lambda a, b: f(a, b))
entry("logical_not", "LOGICAL_NOT", [(S, B, 0, 2)], variants=("bool",))(
    lambda c: lambda a: tf.logical_not(a))
for _n, _op, _f in [("equal", "EQUAL", tf.equal), ("not_equal", "NOT_EQUAL", tf.not_equal),
                    ("less", "LESS", tf.less), ("less_equal", "LESS_EQUAL", tf.less_equal),
                    ("greater", "GREATER", tf.greater),
                    ("greater_equal", "GREATER_EQUAL", tf.greater_equal)]:
    entry(_n, _op, [x(S, -3, 3), x(S, -3, 3)])(lambda c, f=_f: lambda a, b: f(a, b))
entry("arg_max", "ARG_MAX", [x(S)])(lambda c: lambda a: tf.argmax(a, axis=-1, output_type=I))
entry("arg_min", "ARG_MIN", [x(S)])(lambda c: lambda a: tf.argmin(a, axis=-1, output_type=I))

# ------------------------------------------------------------------- 3. conv-style


@entry("conv_2d", "CONV_2D", [x([1, 8, 8, 8])], note="3x3 SAME, 8->8 ch, bias")
def _conv(c):
    w, b = c([3, 3, 8, 8]), c([8])
    return lambda a: tf.nn.conv2d(a, w, 1, "SAME") + b


@entry("conv_2d_stride2", "CONV_2D", [x([1, 8, 8, 8])], note="3x3 VALID stride 2, relu")
def _conv2(c):
    w, b = c([3, 3, 8, 16]), c([16])
    return lambda a: tf.nn.relu(tf.nn.conv2d(a, w, 2, "VALID") + b)


@entry("depthwise_conv_2d", "DEPTHWISE_CONV_2D", [x([1, 8, 8, 8])], note="3x3 SAME, bias")
def _dw(c):
    w, b = c([3, 3, 8, 1]), c([8])
    return lambda a: tf.nn.depthwise_conv2d(a, w, [1, 1, 1, 1], "SAME") + b


@entry("fully_connected", "FULLY_CONNECTED", [x([1, 64])], note="64->32, bias")
def _fc(c):
    w, b = c([64, 32]), c([32])
    return lambda a: tf.matmul(a, w) + b


@entry("conv_3d", "CONV_3D", [x([1, 4, 6, 6, 4])], note="3x3x3 SAME, 4->4 ch")
def _conv3d(c):
    w = c([3, 3, 3, 4, 4])
    return lambda a: tf.nn.conv3d(a, w, [1, 1, 1, 1, 1], "SAME")


entry("average_pool_2d", "AVERAGE_POOL_2D", [x([1, 8, 8, 8])])(
    lambda c: lambda a: tf.nn.avg_pool2d(a, 2, 2, "VALID"))
entry("max_pool_2d", "MAX_POOL_2D", [x([1, 8, 8, 8])])(
    lambda c: lambda a: tf.nn.max_pool2d(a, 3, 2, "SAME"))
entry("resize_bilinear", "RESIZE_BILINEAR", [x([1, 4, 4, 8])])(
    lambda c: lambda a: tf.compat.v1.image.resize_bilinear(a, [8, 8]))
entry("resize_nearest_neighbor", "RESIZE_NEAREST_NEIGHBOR", [x([1, 4, 4, 8])])(
    lambda c: lambda a: tf.compat.v1.image.resize_nearest_neighbor(a, [8, 8]))
entry("space_to_depth", "SPACE_TO_DEPTH", [x([1, 8, 8, 4])])(
    lambda c: lambda a: tf.nn.space_to_depth(a, 2))
entry("depth_to_space", "DEPTH_TO_SPACE", [x([1, 4, 4, 16])])(
    lambda c: lambda a: tf.nn.depth_to_space(a, 2))
entry("space_to_batch_nd", "SPACE_TO_BATCH_ND", [x([1, 8, 8, 4])])(
    lambda c: lambda a: tf.space_to_batch_nd(a, [2, 2], [[0, 0], [0, 0]]))
entry("batch_to_space_nd", "BATCH_TO_SPACE_ND", [x([4, 4, 4, 4])])(
    lambda c: lambda a: tf.compat.v1.batch_to_space_nd(a, [2, 2], [[0, 0], [0, 0]]))
entry("l2_normalization", "L2_NORMALIZATION", [x(S)])(
    lambda c: lambda a: tf.math.l2_normalize(a, axis=-1))
entry("local_response_normalization", "LOCAL_RESPONSE_NORMALIZATION", [x([1, 4, 4, 16])])(
    lambda c: lambda a: tf.nn.local_response_normalization(a, 2))
entry("cumsum", "CUMSUM", [x(S)])(lambda c: lambda a: tf.cumsum(a, axis=-1))
entry("expand_dims", "EXPAND_DIMS", [x(S)])(lambda c: lambda a: tf.expand_dims(a, 2))
entry("squeeze", "SQUEEZE", [x([1, 8, 1, 16])])(lambda c: lambda a: tf.squeeze(a, axis=2))
# with a dynamic batch (shape_signature -1, allocated as 1) these are not turned into RESHAPE
entry("expand_dims_dynbatch", "EXPAND_DIMS", [x([None, 8, 16])], note="batch dim None")(
    lambda c: lambda a: tf.expand_dims(a, 2))
entry("squeeze_dynbatch", "SQUEEZE", [x([None, None, 1, 16])], note="batch and length None")(
    lambda c: lambda a: tf.squeeze(a, axis=2))
entry("shape_dynbatch", "SHAPE", [x([None, 8, 16])], variants=("f32",),
      note="batch dim None; SHAPE -> int32")(lambda c: lambda a: tf.shape(a))
entry("pack", "PACK", [x(S), x(S)])(lambda c: lambda a, b: tf.stack([a, b], axis=1))
entry("unpack", "UNPACK", [x([1, 3, 16])])(
    lambda c: lambda a: tuple(tf.unstack(a, axis=1)))
entry("reverse_v2", "REVERSE_V2", [x(S)])(lambda c: lambda a: tf.reverse(a, [1]))
entry("topk_v2", "TOPK_V2", [x(S)])(lambda c: lambda a: tuple(tf.math.top_k(a, 4)))
entry("one_hot", "ONE_HOT", [([1, 8], I, 0, 16)], variants=("i32",))(
    lambda c: lambda ids: tf.one_hot(ids, 16))
entry("select", "SELECT", [(S, B, 0, 2), x(S), x(S)], note="tf.compat.v1.where, same shapes")(
    lambda c: lambda m, a, b: tf.compat.v1.where(m, a, b))
entry("add_n", "ADD_N", [x(S), x(S), x(S)])(lambda c: lambda a, b, d: tf.add_n([a, b, d]))
entry("reduce_any", "REDUCE_ANY", [(S, B, 0, 2)], variants=("bool",))(
    lambda c: lambda a: tf.reduce_any(a, axis=-1))
entry("atan2", "ATAN2", [x(S), x(S)])(lambda c: lambda a, b: tf.math.atan2(a, b))
entry("scatter_nd", "SCATTER_ND", [([4, 1], I, 0, 8), x([4, 16])], note="indices input")(
    lambda c: lambda idx, upd: tf.scatter_nd(idx, upd, [8, 16]))
entry("zeros_like", "ZEROS_LIKE", [x(S)])(lambda c: lambda a: tf.zeros_like(a))
entry("shape", "SHAPE", [x(S)], variants=("f32",))(lambda c: lambda a: tf.shape(a))

# -------------------------------------------------------- 4. stateful (resource variables)
# built separately: see make_var()
VAR_VARIANTS = ("f32", "int8", "int16")

# ------------------------------------------------------------------------- conversion
SAMPLES = 16


def rep_data(inputs):
    rng = np.random.default_rng(0)

    def gen():
        for _ in range(SAMPLES):
            out = []
            for shape, dt, lo, hi in inputs:
                shape = [1 if d is None else d for d in shape]
                if dt == F:
                    out.append(rng.uniform(lo, hi, size=shape).astype(np.float32))
                elif dt == B:
                    out.append(rng.integers(0, 2, size=shape).astype(bool))
                else:
                    out.append(rng.integers(lo, hi, size=shape).astype(np.int32))
            yield out
    return gen


def configure(conv, variant, inputs, out_float):
    if variant == "f16":
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
        return
    if variant in ("f32", "bool", "i32"):
        return
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = rep_data(inputs)
    if variant.startswith("int8"):
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        qt = tf.int8
    else:
        conv.target_spec.supported_ops = [
            tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
        qt = tf.int16
    if variant.endswith("_fio"):
        return                  # float I/O: QUANTIZE / DEQUANTIZE at the ends
    if any(dt == F for _, dt, _, _ in inputs):
        conv.inference_input_type = qt
    if out_float:
        conv.inference_output_type = qt


def read_model(data):
    m = fb.Model.GetRootAsModel(data, 0)
    codes = []
    for i in range(m.OperatorCodesLength()):
        oc = m.OperatorCodes(i)
        code = max(oc.BuiltinCode(), oc.DeprecatedBuiltinCode())
        codes.append(OPNAME.get(code, str(code)) if code != fb.BuiltinOperator.CUSTOM
                     else "CUSTOM:" + (oc.CustomCode() or b"").decode())
    subgraphs = []
    for s in range(m.SubgraphsLength()):
        sg = m.Subgraphs(s)
        ops = []
        for k in range(sg.OperatorsLength()):
            op = sg.Operators(k)
            types = [TTYPE[sg.Tensors(t).Type()]
                     for t in list(op.InputsAsNumpy() if op.InputsLength() else [])
                     + list(op.OutputsAsNumpy() if op.OutputsLength() else []) if t >= 0]
            ops.append((codes[op.OpcodeIndex()], types))
        subgraphs.append(ops)
    return subgraphs


def check(subgraphs, expect, variant, type_op=None):
    """'' when the model exercises `expect` in the variant's type, else the reason."""
    names = [n for sg in subgraphs for n, _ in sg]
    if isinstance(expect, str):
        expect = [expect]
    for e in expect:
        if e not in names:
            return "%s not in the converted graph (got %s)" % (e, ", ".join(names) or "no ops")
    want = {"int8": "INT8", "int16": "INT16"}.get(variant)
    if want:
        for n, types in (o for sg in subgraphs for o in sg):
            if n == (type_op or expect[0]) and want not in types:
                return "%s left %s by the converter (no %s; DEQUANTIZE / QUANTIZE around it)" % (
                    n, "/".join(sorted(set(types))), want)
    return ""


def short_error(e):
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    keys = ("error:", "Quantization", "not supported", "failed", "unsupported")
    for ln in lines:
        if any(k.lower() in ln.lower() for k in keys) and "Traceback" not in ln:
            return ln[:300]
    return (lines[-1] if lines else repr(e))[:300]


def file_type(variant):
    return {"int8_fio": "int8", "int16_fio": "int16"}.get(variant, variant)


def convert_entry(e, variant):
    seed = zlib.crc32(e["name"].encode())
    tf.keras.utils.set_random_seed(seed & 0x7FFFFFFF)
    body = e["build"](Consts(seed))
    sig = [tf.TensorSpec(shape, dt) for shape, dt, _, _ in e["inputs"]]
    cf = tf.function(body, input_signature=sig, autograph=False).get_concrete_function()
    out_float = all(t.dtype == tf.float32 for t in tf.nest.flatten(cf.structured_outputs))
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf])
    configure(conv, variant, e["inputs"], out_float)
    return conv.convert()


class VarModule(tf.Module):
    def __init__(self):
        super().__init__()
        self.state = tf.Variable(np.zeros([1, 16], np.float32))

    @tf.function(input_signature=[tf.TensorSpec([1, 16], tf.float32)])
    def __call__(self, a):
        self.state.assign(self.state * 0.5 + a)
        return self.state.read_value() + 1.0


def convert_var(variant):
    tf.keras.utils.set_random_seed(0)
    mod = VarModule()
    cf = mod.__call__.get_concrete_function()
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], mod)
    conv.experimental_enable_resource_variables = True
    configure(conv, variant, [x([1, 16])], True)
    return conv.convert()


def build(only=None):
    manifest = {"versions": {"tensorflow": tf.__version__,
                             "ai_edge_litert_schema": "2.3.0", "numpy": np.__version__},
                "models": [], "skipped": []}
    jobs = [(e, v) for e in ENTRIES for v in e["variants"]]
    jobs += [(dict(name="var_handle", expect=["READ_VARIABLE", "VAR_HANDLE",
                                              "ASSIGN_VARIABLE", "CALL_ONCE"],
                   type_op="ADD", note="tf.Variable state = state*0.5 + x, returns "
                   "state + 1 (int8: the variable itself stays float32, QUANTIZE / "
                   "DEQUANTIZE around it; int16: an int16 variable)"), v)
             for v in VAR_VARIANTS]
    for e, v in jobs:
        if only and not any(o in e["name"] for o in only):
            continue
        fname = "%s_%s.tflite" % (e["name"], file_type(v))
        rec = dict(file=fname, name=e["name"], op=e["expect"], variant=v, note=e["note"])
        try:
            data = convert_var(v) if e["name"] == "var_handle" else convert_entry(e, v)
        except Exception as ex:  # noqa: BLE001 -- the converter raises many kinds
            rec["reason"] = "converter: " + short_error(ex)
            manifest["skipped"].append(rec)
            print("SKIP %-40s %s" % (fname, rec["reason"]), flush=True)
            continue
        sgs = read_model(data)
        why = check(sgs, e["expect"], v if v in ("int8", "int16") else None,
                    e.get("type_op"))
        rec["subgraphs"] = [[n for n, _ in sg] for sg in sgs]
        rec["op_types"] = [[(n, sorted(set(t))) for n, t in sg] for sg in sgs]
        if why:
            rec["reason"] = why
            manifest["skipped"].append(rec)
            print("SKIP %-40s %s" % (fname, why), flush=True)
            continue
        with open(os.path.join(HERE, fname), "wb") as f:
            f.write(data)
        rec["bytes"] = len(data)
        manifest["models"].append(rec)
        print("OK   %-40s %6d B  %s" % (fname, len(data), " | ".join(
            " ".join(sg) for sg in rec["subgraphs"])), flush=True)
    if not only:
        with open(os.path.join(HERE, "manifest.json"), "w") as f:
            json.dump(manifest, f, indent=1)
    print("%d models, %d skipped" % (len(manifest["models"]), len(manifest["skipped"])))


# ------------------------------------------------------------------------- README


def _load(base, kind):
    try:
        with open(os.path.join(HERE, "%s.%s.json" % (base, kind))) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _err(text, n=90):
    text = " ".join((text or "").split())
    for key in ("Didn't find op for builtin opcode", "not supported", "!=", "Only",
                "only supports",
                "requires", "out of bounds", "only defined"):
        i = text.find(key)
        if i >= 0:
            start = max(0, text.rfind(" ", 0, max(0, i - 40)) + 1) if key == "!=" else i
            return text[start:start + n].replace("|", "/")
    return text[:n].replace("|", "/")


def oracle_cells(base):
    lit, tflm, xnn = _load(base, "litert"), _load(base, "tflm"), _load(base, "xnnpack")
    if lit is None:
        c1 = "no JSON"
    elif lit.get("error"):
        c1 = "refused: " + _err(lit["error"])
    else:
        c1 = "yes, arena %d B" % lit["arena"]["used_bytes"]
    if tflm is None:
        c2 = "no JSON"
    elif not tflm.get("loaded"):
        c2 = "refused: " + _err(tflm.get("error"))
    else:
        c2 = "yes, head %d B" % tflm["head_bytes"]
        if not tflm.get("invoked"):
            c2 += " (invoke failed on random input: %s)" % _err(tflm.get("error"), 60)
    if xnn is None:
        c3 = "no JSON"
    elif not xnn.get("loaded"):
        c3 = "refused: " + _err(xnn.get("error"))
    else:
        dl = xnn.get("delegated") or {}
        took = sum(len(p["nodes"]) for p in dl.get("partitions") or [])
        left = len(dl.get("non_delegated_nodes") or [])
        ws = (xnn.get("xnnpack_workspace") or {}).get("planned_bytes")
        c3 = "yes, %d/%d nodes delegated" % (took, took + left)
        if took:
            c3 += ", workspace %s B" % ws
        if not xnn.get("invoked"):
            c3 += " (invoke failed: %s)" % _err(xnn.get("error"), 60)
        ok = (xnn.get("self_check") or {}).get("ok")
        if ok is False:
            c3 += ", self-check FAILED"
    return c1, c2, c3


def write_readme():
    with open(os.path.join(HERE, "manifest.json")) as f:
        man = json.load(f)
    v = man["versions"]
    rows, fails = [], {"litert": [], "tflm": [], "xnnpack": []}
    extra = {"tflm loaded but invoke failed": [], "xnnpack loaded but invoke failed": [], "xnnpack took no node": [],
             "xnnpack took only some nodes": [], "xnnpack self-check failed": []}
    for r in man["models"]:
        base = r["file"][:-len(".tflite")]
        cells = oracle_cells(base)
        for k, cell in zip(fails, cells):
            if not cell.startswith("yes"):
                fails[k].append(base)
        if "invoke failed" in cells[1]:
            extra["tflm loaded but invoke failed"].append(base)
        if "invoke failed" in cells[2]:
            extra["xnnpack loaded but invoke failed"].append(base)
        if ", 0/" in cells[2]:
            extra["xnnpack took no node"].append(base)
        elif "nodes delegated" in cells[2]:
            took, alln = cells[2].split(", ")[1].split(" ")[0].split("/")
            if took != alln:
                extra["xnnpack took only some nodes"].append(base)
        if "FAILED" in cells[2]:
            extra["xnnpack self-check failed"].append(base)
        produced = " \\| ".join(" ".join(sg) for sg in r["subgraphs"])
        op = r["op"] if isinstance(r["op"], str) else "/".join(r["op"])
        rows.append("| %s | %s | %s | %s%s | %s | %s | %s |" % (
            r["file"], op, file_type(r["variant"]), produced,
            (" — " + r["note"]) if r["note"] else "", *cells))
    skipped = []
    for r in man["skipped"]:
        op = r["op"] if isinstance(r["op"], str) else "/".join(r["op"])
        skipped.append("| %s | %s | %s | %s |" % (
            r["name"], op, file_type(r["variant"]), r["reason"].replace("|", "/")))
    ops = sorted({r["op"] if isinstance(r["op"], str) else r["op"][1] for r in man["models"]}
                 | {n for r in man["models"] for sg in r["subgraphs"] for n in sg})
    total = sum(r["bytes"] for r in man["models"])
    text = README.format(
        n=len(man["models"]), nops=len(ops), total=total, tf=v["tensorflow"],
        np=v["numpy"], ops=", ".join(ops), rows="\n".join(rows),
        nskip=len(skipped), skipped="\n".join(skipped),
        fails="\n".join("* %s (%d): %s" % (k, len(b), ", ".join(b) or "none")
                         for k, b in list(fails.items()) + list(extra.items())))
    with open(os.path.join(HERE, "README.md"), "w") as f:
        f.write(text)
    print("README.md: %d rows, %d skipped" % (len(rows), len(skipped)))


README = """# Operator sweep

{n} tiny models, one per (TFLite builtin operator, type variant), {nops} distinct builtin
operators, {total} bytes of .tflite in all, each with the ground truth of the three
oracles of `/work/shared/tools` (`<name>.litert.json`, `<name>.tflm.json`,
`<name>.xnnpack.json`). Every model is a `tf.function` over small runtime inputs (the
usual activation is 1x8x16), made by `make_ops.py`; `manifest.json` lists what the
converter produced for every file (operators per subgraph and their tensor types) and
every combination that was not written, with the reason.

Type variants: `f32` no quantisation; `int8` full-integer (Optimize.DEFAULT, seeded random
representative dataset of 16 samples, `TFLITE_BUILTINS_INT8` only, int8 input/output);
`int16` 16x8 (`EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8` -- the name of
the 16x8 ops set in TF 2.21 -- int16 input/output); `bool` / `i32` for models whose inputs
are not float (no quantisation); `quantize_int8` / `quantize_int16` are full-integer models
with float I/O; `dequantize_f16` has float16 weights. An int8 / int16 file is only written
when the operator it is named after really runs on int8 / int16 tensors (the converter
otherwise silently keeps it float between DEQUANTIZE and QUANTIZE).

Operators covered: {ops}.

Columns: *produced* = operators of subgraph 0 in order (`\\|` separates subgraphs);
*LiteRT* = oracle_litert (no delegate): loaded, arena used bytes; *TFLM* = oracle_tflm:
loaded, head (non-persistent) bytes; *XNNPACK* = oracle_xnnpack: loaded, how many
TFLite nodes (over all subgraphs) the delegate took, its planned workspace. An oracle that
could not load a model says why (first words of the runtime's error).

| file | op | type | produced | LiteRT | TFLM | XNNPACK |
|---|---|---|---|---|---|---|
{rows}

## Oracle failures (model written, runtime refused or failed)

{fails}

A model that loads but fails to invoke still has valid allocation numbers. The causes:
some kernels check the type only at Eval (TFLM: LOG / SQRT int8, LOG / REDUCE_MAX /
REDUCE_MIN / RESIZE_BILINEAR / SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND / MIRROR_PAD int16;
LiteRT: SQUARED_DIFFERENCE int16), or the oracles' own random inputs (float uniform in
[-1, 1], int8 / int16 over their full range, int32 in [0, 4]) are outside the op's domain
(RSQRT int16 gets negative values). padv2_int16 is a converter bug: it writes an int16
PADV2 with a float32 constant_values tensor, which every runtime refuses; scatter_nd_int16
is converted but LiteRT has no int16 SCATTER_ND kernel.

XNNPACK (LiteRT 2.3.0) takes no int16 operator at all, and in int8 leaves BATCH_MATMUL,
SOFTMAX, MAXIMUM / MINIMUM, comparisons, ARG_MAX / ARG_MIN and more to TFLite; in f32 it
leaves GATHER, PADV2 / MIRROR_PAD, strided or shrinking STRIDED_SLICE, SPLIT_V, TILE,
SELECT(_V2), BROADCAST_TO, RESIZE_NEAREST_NEIGHBOR, PACK / UNPACK, REVERSE_V2, CUMSUM,
L2_NORMALIZATION, LOG_SOFTMAX and others. It does take the resource-variable operators
(VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE, in both subgraphs; CALL_ONCE stays TFLite)
in var_handle_f32 and var_handle_int8, but none in var_handle_int16.

## Combinations not made ({nskip})

`converter:` = the converter refused; `not in the converted graph` = the operator folded
away or was rewritten into another one (with static shapes EXPAND_DIMS and SQUEEZE become
RESHAPE and SHAPE folds to a constant; the `*_dynbatch` models, with a None batch / length
dimension, keep them); `kept as FLOAT32` = the converter left the
operator float (DEQUANTIZE / QUANTIZE around it) instead of quantising it.

| name | op | type | why |
|---|---|---|---|
{skipped}

## Versions

tensorflow {tf} (its TFLite converter), numpy {np}, flatbuffers read with
ai-edge-litert 2.3.0's schema; oracles: ai-edge-litert 2.3.0 (LiteRT, XNNPACK with gdb),
tflite-micro 0.dev20261023182759; x86-64 Linux, Python 3.11.

## Regenerate

    python make_ops.py              # models + manifest.json (seeded: a rebuild was
                                    # checked to give byte-identical .tflite files)
    T=/work/shared/tools
    python $T/oracle_litert.py  *.tflite --out-dir .
    python $T/oracle_tflm.py    *.tflite --out-dir .
    python $T/oracle_xnnpack.py *.tflite --out-dir .   # ~3.5 s per model; in batches
    python make_ops.py --readme     # this file, from manifest.json and the JSON
"""


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--readme", action="store_true")
    args = ap.parse_args()
    if args.readme:
        write_readme()
    else:
        build(args.only)
