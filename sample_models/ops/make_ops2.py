#!/usr/bin/env python3
"""The operator sweep, part 2: builtin operators make_ops.py does not reach.

Same conventions as make_ops.py (tensorflow 2.21.0's TFLite converter, builtins only --
no Flex / SELECT_TF_OPS --, flatbuffers read with ai-edge-litert 2.3.0's schema, seeded
constants and representative data, files named <op_lower>_<variant>.tflite).  These
operators need a little more than a tf.function over one float tensor: they fold away on
constants, so their operands are runtime inputs (shapes, scalars, segment ids, seq
lengths, predicates), some need a dynamic dimension, complex numbers come from an RFFT2D
of a float input, the hash tables live in a tf.Module, DYNAMIC_UPDATE_SLICE comes from
the XLA op XlaDynamicUpdateSlice (the form jax2tf / XLA-lowered graphs carry).

Variants: f32 / int8 / int16 as in make_ops.py (int8 / int16 = full-integer with
integer I/O); i32 / i64 / bool / str = models whose data inputs are int32 / int64 /
bool / string (no quantisation; for the hash tables the key type); i8 / i16 = plain
(not quantised) int8 / int16 integers, for the bitwise operators.  A file is written
only when
  * the operator it is named after is in the converted graph (any subgraph),
  * that operator really runs on the variant's type (int8 / int16: no float fallback
    between DEQUANTIZE and QUANTIZE; the other variants: a tensor of that
    type is among its operands),
  * LiteRT 2.3.0 without delegates loads it (AllocateTensors; checked in a child
    process, ai_edge_litert and tensorflow are not imported into one process).
Everything else is listed in manifest2.json under "skipped" with the reason.

Usage (from anywhere; the venv with tensorflow 2.21 and ai-edge-litert 2.3.0):
    python make_ops2.py                 # build all models + manifest2.json here
    python make_ops2.py --only unique   # only entries whose name contains a word
                                        # (manifest2.json is not rewritten)
    python make_ops2.py --files         # print the file names manifest2.json lists
    python make_ops2.py --out DIR       # write somewhere else (trying things out)
    python make_ops2.py --oracles       # the three oracles' JSON for every listed file
"""
import argparse
import json
import os
import subprocess
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert import schema_py_generated as fb  # noqa: E402
from make_ops import Consts, read_model, short_error  # noqa: E402  (no side effects)

F, I, I64, B, STR = tf.float32, tf.int32, tf.int64, tf.bool, tf.string
I8, I16 = tf.int8, tf.int16
QV = ("f32", "int8", "int16")
ENTRIES = []
# the tensor type an operator must touch in each variant
WANT = {"f32": "FLOAT32", "int8": "INT8", "int16": "INT16", "i32": "INT32",
        "i8": "INT8", "i16": "INT16",
        "i64": "INT64", "bool": "BOOL", "str": "STRING"}


def entry(name, expect, inputs, variants=QV, note="", type_op=None, module=None):
    """Register a model builder.  inputs: (shape, dtype, lo, hi) per runtime input; the
    decorated function gets a const maker c(shape, lo, hi, dtype) and the variant, and
    returns the body (a python callable over the inputs).  module: instead of a body, a
    builder returning (tf.Module, concrete function) (hash tables)."""
    def deco(build):
        ENTRIES.append(dict(name=name, expect=expect, inputs=inputs, variants=variants,
                            build=build, note=note, type_op=type_op, module=module))
        return build
    return deco


def ids_sorted(shape, n):
    """Runtime int32 segment ids, non-decreasing in steps of 0 or 1 in the calibration
    data (SEGMENT_SUM requires it); the oracles' random ints in [0, 4] are not sorted,
    so their invoke may fail -- the allocation figures do not depend on it."""
    return (shape, I, 0, n, "sorted")


def x(shape, lo=-2.0, hi=2.0):
    return (shape, F, lo, hi)


def xi(shape, lo=0, hi=4, dt=None):
    return (shape, dt or I, lo, hi)


S = [1, 8, 16]

# ------------------------------------------------------------- 1. bits and casts
entry("bitcast", "BITCAST", [x(S)], variants=("f32",), note="float32 -> int32")(
    lambda c, v: lambda a: tf.bitcast(a, tf.int32))
entry("bitcast", "BITCAST", [xi(S, -100, 100)], variants=("i32",), note="int32 -> float32")(
    lambda c, v: lambda a: tf.bitcast(a, tf.float32))
for _v, _dt in [("i32", I), ("i8", I8), ("i16", I16)]:
    entry("bitwise_xor", "BITWISE_XOR", [xi(S, -100, 100, _dt), xi(S, -100, 100, _dt)],
          variants=(_v,))(lambda c, v: lambda a, b: tf.bitwise.bitwise_xor(a, b))
    entry("right_shift", "RIGHT_SHIFT", [xi(S, -100, 100, _dt), xi(S, 0, 8, _dt)],
          variants=(_v,))(lambda c, v: lambda a, b: tf.bitwise.right_shift(a, b))
# the two shapes are SHAPEs of inputs with a None batch dimension, so that they are runtime
# tensors and always broadcastable (raw int32 shape inputs get the oracles' random ints in
# [0, 4], which do not broadcast: LiteRT's kernel then aborts the process at invoke)
entry("broadcast_args", ["SHAPE", "BROADCAST_ARGS"], [x([None, 1, 16]), x([None, 8, 1])],
      variants=("i32",), type_op="BROADCAST_ARGS",
      note="BroadcastArgs(SHAPE(a), SHAPE(b)), a [None, 1, 16], b [None, 8, 1]")(
    lambda c, v: lambda a, b: tf.raw_ops.BroadcastArgs(s0=tf.shape(a), s1=tf.shape(b)))
entry("bucketize", "BUCKETIZE", [x(S)], variants=("f32",), note="boundaries -1, 0, 1")(
    lambda c, v: lambda a: tf.raw_ops.Bucketize(input=a, boundaries=[-1.0, 0.0, 1.0]))
entry("bucketize", "BUCKETIZE", [xi(S, -5, 5)], variants=("i32",), note="boundaries -1, 0, 1")(
    lambda c, v: lambda a: tf.raw_ops.Bucketize(input=a, boundaries=[-1.0, 0.0, 1.0]))

# ------------------------------------------------------------- 2. complex numbers
entry("rfft2d", "RFFT2D", [x([1, 8, 16])], variants=("f32",),
      note="fft_length 8x16, complex64 output")(
    lambda c, v: lambda a: tf.signal.rfft2d(a, fft_length=[8, 16]))
entry("complex_abs", "COMPLEX_ABS", [x([1, 8, 16])], variants=("f32",), note="|RFFT2D(x)|")(
    lambda c, v: lambda a: tf.abs(tf.signal.rfft2d(a, fft_length=[8, 16])))
entry("real", "REAL", [x([1, 8, 16])], variants=("f32",), note="Re RFFT2D(x)")(
    lambda c, v: lambda a: tf.math.real(tf.signal.rfft2d(a, fft_length=[8, 16])))
entry("imag", "IMAG", [x([1, 8, 16])], variants=("f32",), note="Im RFFT2D(x)")(
    lambda c, v: lambda a: tf.math.imag(tf.signal.rfft2d(a, fft_length=[8, 16])))


# ------------------------------------------------------------- 3. conv-style
@entry("conv_3d_transpose", "CONV_3D_TRANSPOSE", [x([1, 2, 4, 4, 4])],
       note="3x3x3 stride 2 SAME, 4->2 ch, bias")
def _conv3dt(c, v):
    w, b = c([3, 3, 3, 2, 4]), c([2])
    return lambda a: tf.nn.conv3d_transpose(a, w, [1, 4, 8, 8, 2], [1, 2, 2, 2, 1],
                                            "SAME") + b


# ------------------------------------------------------------- 4. shapes and fills
@entry("dynamic_update_slice", "DYNAMIC_UPDATE_SLICE",
       [x(S), x([1, 2, 16]), xi([3], 0, 4)], variants=QV,
       note="XlaDynamicUpdateSlice, runtime start indices")
def _dus(c, v):
    from tensorflow.compiler.tf2xla.ops import gen_xla_ops
    return lambda a, u, idx: gen_xla_ops.xla_dynamic_update_slice(a, u, idx)


@entry("dynamic_update_slice", "DYNAMIC_UPDATE_SLICE",
       [xi(S, -100, 100), xi([1, 2, 16], -100, 100), xi([3], 0, 4)], variants=("i32",),
       note="XlaDynamicUpdateSlice, runtime start indices")
def _dus_i(c, v):
    from tensorflow.compiler.tf2xla.ops import gen_xla_ops
    return lambda a, u, idx: gen_xla_ops.xla_dynamic_update_slice(a, u, idx)


entry("fill", "FILL", [x([])], variants=QV, note="runtime scalar value, dims [8, 16]")(
    lambda c, v: lambda a: tf.fill([8, 16], a))
entry("fill", "FILL", [xi([], -100, 100)], variants=("i32",),
      note="runtime scalar value, dims [8, 16]")(
    lambda c, v: lambda a: tf.fill([8, 16], a))
entry("fill", "FILL", [xi([], 0, 2, B)], variants=("bool",),
      note="runtime scalar value, dims [8, 16]")(
    lambda c, v: lambda a: tf.fill([8, 16], a))
entry("fill_dynshape", ["SHAPE", "FILL"], [x([None, 16])], variants=("f32",),
      note="dims = SHAPE of a [None, 16] input, value 0.5", type_op="FILL")(
    lambda c, v: lambda a: tf.fill(tf.shape(a), 0.5))
entry("zeros_like", "ZEROS_LIKE", [x([None, 8, 16])], variants=QV, note="batch dim None")(
    lambda c, v: lambda a: tf.zeros_like(a))
entry("zeros_like", "ZEROS_LIKE", [xi([None, 8, 16], -100, 100)], variants=("i32",),
      note="batch dim None")(lambda c, v: lambda a: tf.zeros_like(a))
entry("rank", "RANK", [x(None)], variants=("f32",),
      note="input of unknown rank (TensorSpec(None): a scalar in the .tflite)")(
    lambda c, v: lambda a: tf.rank(a))
entry("range", "RANGE", [xi([], 1, 16)], variants=("i32",),
      note="tf.range(n), runtime limit")(lambda c, v: lambda n: tf.range(n))
entry("range", "RANGE", [x([], -1.0, 1.0)], variants=("f32",),
      note="tf.range(start, 4.0, 0.5), runtime start")(
    lambda c, v: lambda a: tf.range(a, 4.0, 0.5))

# ------------------------------------------------------------- 5. control flow
entry("if", "IF", [xi([], 0, 2, B), x(S)], variants=QV,
      note="tf.cond on a runtime predicate: x*2 | x-1")(
    lambda c, v: lambda p, a: tf.cond(p, lambda: a * 2.0, lambda: a - 1.0))


# ------------------------------------------------------------- 6. matrices
def _diag_entries():
    for v, inputs in [(QV, [x([2, 8])]), (("i32",), [xi([2, 8], -100, 100)])]:
        entry("matrix_diag", "MATRIX_DIAG", inputs, variants=v, note="[2, 8] -> [2, 8, 8]")(
            lambda c, v: lambda d: tf.linalg.diag(d))
    for v, inputs in [(QV, [x([2, 8, 8]), x([2, 8])]),
                      (("i32",), [xi([2, 8, 8], -100, 100), xi([2, 8], -100, 100)])]:
        entry("matrix_set_diag", "MATRIX_SET_DIAG", inputs, variants=v,
              note="[2, 8, 8] with a [2, 8] diagonal")(
            lambda c, v: lambda m, d: tf.linalg.set_diag(m, d))


_diag_entries()

# ------------------------------------------------------------- 7. random
entry("multinomial", "MULTINOMIAL", [x([1, 8])], variants=("f32",),
      note="tf.random.categorical(logits 1x8, 4 samples), int32 output")(
    lambda c, v: lambda a: tf.random.categorical(a, 4, dtype=tf.int32, seed=7))
entry("random_standard_normal", "RANDOM_STANDARD_NORMAL", [x(S)], variants=("f32",),
      note="x + tf.random.normal([1, 8, 16])", type_op="RANDOM_STANDARD_NORMAL")(
    lambda c, v: lambda a: a + tf.random.normal([1, 8, 16], seed=7))
entry("random_uniform", "RANDOM_UNIFORM", [x(S)], variants=("f32",),
      note="x + tf.random.uniform([1, 8, 16])")(
    lambda c, v: lambda a: a + tf.random.uniform([1, 8, 16], seed=7))

# ------------------------------------------------------------- 8. detection
entry("non_max_suppression_v4", "NON_MAX_SUPPRESSION_V4", [x([16, 4], 0, 1), x([16], 0, 1)],
      variants=("f32",), note="16 boxes, max 4, iou 0.5, padded")(
    lambda c, v: lambda bx, sc: tuple(tf.raw_ops.NonMaxSuppressionV4(
        boxes=bx, scores=sc, max_output_size=4, iou_threshold=0.5, score_threshold=0.0,
        pad_to_max_output_size=True)))
entry("non_max_suppression_v5", "NON_MAX_SUPPRESSION_V5", [x([16, 4], 0, 1), x([16], 0, 1)],
      variants=("f32",), note="16 boxes, max 4, iou 0.5, soft-NMS sigma 0.5, padded")(
    lambda c, v: lambda bx, sc: tuple(tf.raw_ops.NonMaxSuppressionV5(
        boxes=bx, scores=sc, max_output_size=4, iou_threshold=0.5, score_threshold=0.0,
        soft_nms_sigma=0.5, pad_to_max_output_size=True)))

# ------------------------------------------------------------- 9. reductions, segments
entry("reduce_all", "REDUCE_ALL", [xi(S, 0, 2, B)], variants=("bool",))(
    lambda c, v: lambda a: tf.reduce_all(a, axis=-1))


def _seq_entries():
    for v, dt in [(QV, F), (("i32",), I)]:
        entry("reverse_sequence", "REVERSE_SEQUENCE",
              [(([2, 8, 16]), dt, -2, 2), xi([2], 0, 8)], variants=v,
              note="[2, 8, 16], runtime seq_lengths, seq_axis 1")(
            lambda c, v: lambda a, n: tf.reverse_sequence(a, n, seq_axis=1, batch_axis=0))
        entry("segment_sum", "SEGMENT_SUM", [([8, 16], dt, -2, 2), ids_sorted([8], 4)],
              variants=v, note="runtime (sorted) segment ids")(
            lambda c, v: lambda a, ids: tf.math.segment_sum(a, ids))
        for n, f in [("max", tf.math.unsorted_segment_max),
                     ("min", tf.math.unsorted_segment_min),
                     ("prod", tf.math.unsorted_segment_prod),
                     ("sum", tf.math.unsorted_segment_sum)]:
            # 5 segments: the oracles' random int32 ids in [0, 4] are all valid
            entry("unsorted_segment_" + n, "UNSORTED_SEGMENT_" + n.upper(),
                  [([8, 16], dt, -2, 2), xi([8], 0, 5)], variants=v,
                  note="runtime segment ids, 5 segments")(
                lambda c, v, f=f: lambda a, ids: f(a, ids, 5))


_seq_entries()


# ------------------------------------------------------------- 10. sparse, sets
def _sparse_entries():
    for v, dt in [(QV, F), (("i32",), I)]:
        entry("sparse_to_dense", "SPARSE_TO_DENSE", [xi([4, 1], 0, 8), ([4], dt, -2, 2)],
              variants=v, note="4 runtime indices and values -> [8], default 0")(
            lambda c, v: lambda idx, val: tf.raw_ops.SparseToDense(
                sparse_indices=idx, output_shape=[8], sparse_values=val,
                default_value=tf.zeros([], val.dtype), validate_indices=False))
        entry("unique", "UNIQUE", [([16], dt, -4, 4)], variants=v,
              note="[16] -> values (dynamic) and int32 indices")(
            lambda c, v: lambda a: tuple(tf.unique(a)))
        entry("where", "WHERE", [(S, dt, -2, 2)], variants=v,
              note="tf.where(x): coordinates of non-zeros, int64 [N, 3]")(
            lambda c, v: lambda a: tf.where(a))


_sparse_entries()
entry("where", "WHERE", [xi(S, 0, 2, B)], variants=("bool",),
      note="tf.where(x): coordinates of true elements, int64 [N, 3]")(
    lambda c, v: lambda a: tf.where(a))


# ------------------------------------------------------------- 11. hash tables
HT_OPS = ["HASHTABLE", "HASHTABLE_IMPORT", "HASHTABLE_FIND"]


def _table(key_dt):
    if key_dt == I64:
        keys, vals, default = tf.constant([0, 1, 2, 3], tf.int64), \
            tf.constant(["zero", "one", "two", "three"]), "?"
    else:
        keys, vals, default = tf.constant(["zero", "one", "two", "three"]), \
            tf.constant([0, 1, 2, 3], tf.int64), -1
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, vals),
                                     default)


def _ht_module(key_dt, size):
    """size: table.size() + the element count of an int32 input (no STRING tensor in
    subgraph 0; the table's strings stay in the CALL_ONCE init subgraph)."""
    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = _table(key_dt)

        @tf.function(input_signature=[tf.TensorSpec([4], I if size else key_dt)])
        def __call__(self, k):
            if size:
                return self.table.size() + tf.cast(tf.size(k), tf.int64)
            return self.table.lookup(k)
    m = M()
    return m, m.__call__.get_concrete_function()


for _v, _dt in [("i64", I64), ("str", STR)]:
    entry("hashtable_find", HT_OPS, [([4], _dt, 0, 4)], variants=(_v,),
          module=lambda v, dt=_dt: _ht_module(dt, False), type_op="HASHTABLE_FIND",
          note="tf.lookup.StaticHashTable (%s keys, 4 entries), lookup of 4 runtime keys"
          % ("int64 -> string" if _dt == I64 else "string -> int64"))(None)
    entry("hashtable_size", HT_OPS[:2] + ["HASHTABLE_SIZE"], [xi([4])],
          variants=(_v,), module=lambda v, dt=_dt: _ht_module(dt, True),
          type_op="HASHTABLE_IMPORT",
          note="size() of a StaticHashTable (%s) + size of an int32 [4] input"
          % ("int64 -> string" if _dt == I64 else "string -> int64"))(None)


# the operators this file is for (issue 17's sweep: what make_ops.py does not reach)
REQUESTED = """BITCAST BITWISE_XOR RIGHT_SHIFT BROADCAST_ARGS BUCKETIZE COMPLEX_ABS IMAG REAL
RFFT2D CONV_3D_TRANSPOSE DYNAMIC_UPDATE_SLICE FILL ZEROS_LIKE RANK RANGE HASHTABLE
HASHTABLE_FIND HASHTABLE_IMPORT HASHTABLE_SIZE IF MATRIX_DIAG MATRIX_SET_DIAG MULTINOMIAL
RANDOM_STANDARD_NORMAL RANDOM_UNIFORM NON_MAX_SUPPRESSION_V4 NON_MAX_SUPPRESSION_V5
REDUCE_ALL REVERSE_SEQUENCE SEGMENT_SUM UNSORTED_SEGMENT_MAX UNSORTED_SEGMENT_MIN
UNSORTED_SEGMENT_PROD UNSORTED_SEGMENT_SUM SPARSE_TO_DENSE UNIQUE WHERE""".split()

# ------------------------------------------------------------------------- conversion
SAMPLES = 16


def rep_data(inputs):
    rng = np.random.default_rng(0)

    def gen():
        for _ in range(SAMPLES):
            out = []
            for shape, dt, lo, hi, *kind in inputs:
                shape = [1 if d is None else d for d in shape]
                if kind == ["sorted"]:
                    steps = rng.integers(0, 2, size=shape).astype(np.int32)
                    steps[0] = 0
                    out.append(np.minimum(np.cumsum(steps), hi - 1).astype(np.int32))
                elif dt == F:
                    out.append(rng.uniform(lo, hi, size=shape).astype(np.float32))
                elif dt == B:
                    out.append(rng.integers(0, 2, size=shape).astype(bool))
                elif dt == I64:
                    out.append(rng.integers(lo, hi, size=shape).astype(np.int64))
                else:
                    out.append(rng.integers(lo, hi, size=shape).astype(np.int32))
            yield out
    return gen


def configure(conv, variant, inputs, out_float):
    if variant not in ("int8", "int16"):
        return
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = rep_data(inputs)
    if variant == "int8":
        conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
        qt = tf.int8
    else:
        conv.target_spec.supported_ops = [
            tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
        qt = tf.int16
    if any(inp[1] == F for inp in inputs):
        conv.inference_input_type = qt
    if out_float:
        conv.inference_output_type = qt


def convert_entry(e, variant):
    seed = zlib.crc32(e["name"].encode())
    tf.keras.utils.set_random_seed(seed & 0x7FFFFFFF)
    if e["module"]:
        mod, cf = e["module"](variant)
        conv = tf.lite.TFLiteConverter.from_concrete_functions([cf], mod)
        return conv.convert()
    body = e["build"](Consts(seed), variant)
    sig = [tf.TensorSpec(inp[0], inp[1]) for inp in e["inputs"]]
    cf = tf.function(body, input_signature=sig, autograph=False).get_concrete_function()
    out_float = all(t.dtype == tf.float32 for t in tf.nest.flatten(cf.structured_outputs))
    conv = tf.lite.TFLiteConverter.from_concrete_functions([cf])
    configure(conv, variant, e["inputs"], out_float)
    return conv.convert()


def sg0_strings(data):
    """Names of the STRING tensors of subgraph 0."""
    sg = fb.Model.GetRootAsModel(data, 0).Subgraphs(0)
    return [sg.Tensors(t).Name().decode() for t in range(sg.TensorsLength())
            if sg.Tensors(t).Type() == fb.TensorType.STRING]


def check(subgraphs, expect, variant, type_op=None):
    """'' when the model exercises `expect` in the variant's type, else the reason."""
    names = [n for sg in subgraphs for n, _ in sg]
    expect = [expect] if isinstance(expect, str) else expect
    for e in expect:
        if e not in names:
            return "%s not in the converted graph (got %s)" % (e, ", ".join(names) or "no ops")
    want = WANT[variant]
    top = type_op or expect[0]
    for n, types in (o for sg in subgraphs for o in sg):
        if n == top and want not in types:
            if variant in ("int8", "int16"):
                return "%s left %s by the converter (no %s; DEQUANTIZE / QUANTIZE around " \
                       "it)" % (n, "/".join(sorted(set(types))), want)
            return "%s runs on %s, not %s" % (n, "/".join(sorted(set(types))), want)
    return ""


LITERT_CHECK = r"""
import sys
from ai_edge_litert.interpreter import Interpreter, OpResolverType
buf = open(sys.argv[1], 'rb').read()
try:
    it = Interpreter(model_content=buf, num_threads=1,
        experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    it.allocate_tensors()
except Exception as e:
    print(' '.join(str(e).split())[:300]); sys.exit(1)
"""


def litert_refusal(path):
    """'' when LiteRT 2.3.0 (no delegate) loads and allocates the model, else its error."""
    r = subprocess.run([sys.executable, "-c", LITERT_CHECK, path], capture_output=True,
                       text=True, timeout=120)
    if r.returncode == 0:
        return ""
    return r.stdout.strip() or " ".join(r.stderr.split())[-300:] or "exit %d" % r.returncode


def build(only=None, out=HERE):
    manifest = {"versions": {"tensorflow": tf.__version__,
                             "ai_edge_litert_schema": "2.3.0", "numpy": np.__version__},
                "generator": "make_ops2.py", "models": [], "skipped": []}
    for e in ENTRIES:
        for v in e["variants"]:
            if only and not any(o in e["name"] for o in only):
                continue
            fname = "%s_%s.tflite" % (e["name"], v)
            rec = dict(file=fname, name=e["name"], op=e["expect"], variant=v,
                       note=e["note"])
            try:
                data = convert_entry(e, v)
            except Exception as ex:  # noqa: BLE001 -- the converter raises many kinds
                rec["reason"] = "converter: " + short_error(ex)
                manifest["skipped"].append(rec)
                print("SKIP %-40s %s" % (fname, rec["reason"]), flush=True)
                continue
            sgs = read_model(data)
            rec["subgraphs"] = [[n for n, _ in sg] for sg in sgs]
            rec["op_types"] = [[(n, sorted(set(t))) for n, t in sg] for sg in sgs]
            why = check(sgs, e["expect"], v, e.get("type_op"))
            if not why and sg0_strings(data):
                why = ("subgraph 0 has STRING tensors (%s): LiteRT loads the model, but "
                       "oracle_litert.py and oracle_xnnpack.py segfault reading them "
                       "(ai-edge-litert 2.3.0's Interpreter.tensor(i)() of a string "
                       "tensor), so it cannot be measured" % ", ".join(sg0_strings(data)))
            path = os.path.join(out, fname)
            if not why:
                with open(path, "wb") as f:
                    f.write(data)
                err = litert_refusal(path)
                if err:
                    os.remove(path)
                    why = "LiteRT 2.3.0 refuses it: " + err
            if why:
                rec["reason"] = why
                manifest["skipped"].append(rec)
                print("SKIP %-40s %s  [%s]" % (fname, why, " | ".join(
                    " ".join(sg) for sg in rec["subgraphs"])), flush=True)
                continue
            rec["bytes"] = len(data)
            manifest["models"].append(rec)
            print("OK   %-40s %6d B  %s" % (fname, len(data), " | ".join(
                " ".join(sg) for sg in rec["subgraphs"])), flush=True)
    cover = {}
    for r in manifest["models"]:
        for op in [r["op"]] if isinstance(r["op"], str) else r["op"]:
            cover.setdefault(op, []).append(r["file"])
    manifest["coverage"] = {op: cover.get(op, []) for op in REQUESTED}
    manifest["not_produced"] = {
        op: sorted({r["variant"] + ": " + r["reason"] for r in manifest["skipped"]
                    if op in ([r["op"]] if isinstance(r["op"], str) else r["op"])})
        for op in REQUESTED if op not in cover}
    if not only:
        with open(os.path.join(out, "manifest2.json"), "w") as f:
            json.dump(manifest, f, indent=1)
    print("%d models, %d skipped" % (len(manifest["models"]), len(manifest["skipped"])))


def run_oracles(files, out, tools):
    paths = [os.path.join(out, f) for f in files]
    for kind in ("litert", "tflm", "xnnpack"):
        script = os.path.join(tools, "oracle_%s.py" % kind)
        for k in range(0, len(paths), 8):          # small batches: xnnpack ~4 s a model
            subprocess.run([sys.executable, script, *paths[k:k + 8], "--out-dir", out],
                           check=False)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--files", action="store_true")
    ap.add_argument("--out", default=HERE, help="output folder (default: this one)")
    ap.add_argument("--oracles", action="store_true",
                    help="run the three oracles of --tools on the files manifest2.json "
                    "lists, writing <name>.{litert,tflm,xnnpack}.json beside them")
    ap.add_argument("--tools", default=os.path.normpath(
        os.path.join(HERE, "..", "..", "..", "shared", "tools")))
    args = ap.parse_args()
    if args.files or args.oracles:
        with open(os.path.join(args.out, "manifest2.json")) as f:
            files = [r["file"] for r in json.load(f)["models"]]
        if args.files:
            print("\n".join(files))
        else:
            run_oracles(files, args.out, args.tools)
    else:
        os.makedirs(args.out, exist_ok=True)
        build(args.only, args.out)
