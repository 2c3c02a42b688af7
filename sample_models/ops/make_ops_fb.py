#!/usr/bin/env python3
"""The hand-built part of the operator sweep: flatbuffers for the builtin operators that
LiteRT 2.3.0's BuiltinOpResolver registers (tflite/core/kernels/register.cc) but that the
TF 2.21 converter does not produce from ordinary TF code (StableHLO kernels, the
legacy text / embedding / RNN kernels, the non-sequence LSTM, RELU_0_TO_1, FAKE_QUANT,
L2_POOL_2D).

Every model is written directly with the TFLite schema's Python object API as shipped in
TensorFlow (tensorflow.lite.python.schema_py_generated: ModelT, SubGraphT, TensorT,
BufferT, OperatorT, OperatorCodeT and the *OptionsT tables; StableHLO options go in
builtin_options_2).  Conventions: schema version 3, file identifier "TFL3", buffer 0 is
the empty sentinel, every constant has its own buffer (16-byte aligned in the file),
OperatorCode.deprecated_builtin_code = min(code, 127) and builtin_code = code.  Data
enter as runtime inputs (tiny shapes, a few KB); weights, tables and attributes are
constants from numpy default_rng seeded by the model's name, so a rebuild gives
byte-identical files.  The inputs, options and types of each model follow the kernel's
Prepare in LiteRT's source (tflite/kernels/<file>.cc, named per entry in the manifest).

Variants (file = <op_lower>_<variant>.tflite):
  f32 / int8 / int16 / i32 / i64 / u64 / bool   tensor type the kernel runs on (the
        StableHLO kernels dispatch on the element type; int8 / int16 there are plain
        integers, no quantisation, except RELU_0_TO_1 int8 which is quantised)
  hybrid     float activations, int8 symmetric weights (the kernels' hybrid path with
             its quantisation temporaries and the persistent row-sums tensor)
  other suffixes (cifg, proj, merged, dense, dyn, threefry ...) name the kernel path

Each written file is checked to load in LiteRT (ai_edge_litert, no delegate:
allocate_tensors, invoke on random valid input); the result is in manifest_fb.json.
Operators that could not be built are listed there with the reason.

Usage:
    python make_ops_fb.py              # all models + manifest_fb.json into this folder
    python make_ops_fb.py --only lstm  # only the entries whose file name contains 'lstm'
then, from this folder (T=/work/shared/tools):
    python $T/oracle_litert.py  <files> --out-dir .
    python $T/oracle_tflm.py    <files> --out-dir .
    python $T/oracle_xnnpack.py <files> --out-dir .
"""
import argparse
import json
import os
import sys
import traceback
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import flatbuffers  # noqa: E402
import numpy as np  # noqa: E402
from flatbuffers import flexbuffers  # noqa: E402
from tensorflow.lite.python import schema_py_generated as schema_fb  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROBE_DIR = "/tmp/make_ops_fb_probes"   # refused combinations are written here, not HERE
OPS = {k: v for k, v in vars(schema_fb.BuiltinOperator).items() if not k.startswith("_")}
TT = schema_fb.TensorType
ACT = schema_fb.ActivationFunctionType
TYPES = {  # variant-ish short name -> (TensorType, numpy dtype)
    "f32": (TT.FLOAT32, np.float32), "i8": (TT.INT8, np.int8), "i16": (TT.INT16, np.int16),
    "i32": (TT.INT32, np.int32), "i64": (TT.INT64, np.int64), "u8": (TT.UINT8, np.uint8),
    "u32": (TT.UINT32, np.uint32), "u64": (TT.UINT64, np.uint64), "bool": (TT.BOOL, np.bool_),
    "str": (TT.STRING, None),
}
TTNAME = {v: k for k, v in vars(TT).items() if not k.startswith("_")}
KERNELS = "tflite/kernels/"


# ------------------------------------------------------------------ flatbuffer writing
def _pack_buffer_aligned(self, builder):
    """BufferT.Pack with the data vector aligned to 16 bytes (as the converter does)."""
    data = None
    if self.data is not None and len(self.data) > 0:
        raw = bytes(bytearray(self.data))
        builder.StartVector(1, len(raw), 16)
        builder.head = builder.head - len(raw)
        builder.Bytes[builder.head:builder.head + len(raw)] = raw
        data = builder.EndVector(len(raw)) if _END_VECTOR_TAKES_LEN else builder.EndVector()
    schema_fb.BufferStart(builder)
    if data is not None:
        schema_fb.BufferAddData(builder, data)
    return schema_fb.BufferEnd(builder)


try:  # flatbuffers >= 2.0: EndVector() takes no length
    import inspect
    _END_VECTOR_TAKES_LEN = "numElems" in str(inspect.signature(flatbuffers.Builder.EndVector)) \
        and inspect.signature(flatbuffers.Builder.EndVector).parameters["numElems"].default \
        is inspect.Parameter.empty
except Exception:  # noqa: BLE001
    _END_VECTOR_TAKES_LEN = False
schema_fb.BufferT.Pack = _pack_buffer_aligned


def _options_type(opt):
    """(enum holder, value) for an *OptionsT instance: BuiltinOptions or BuiltinOptions2."""
    name = type(opt).__name__[:-1]
    if hasattr(schema_fb.BuiltinOptions, name):
        return 1, getattr(schema_fb.BuiltinOptions, name)
    if hasattr(schema_fb.BuiltinOptions2, name):
        return 2, getattr(schema_fb.BuiltinOptions2, name)
    raise ValueError("no options union member for " + name)


class Model:
    def __init__(self, name):
        self.name = name
        self.rng = np.random.default_rng(zlib.crc32(name.encode()))
        self.m = schema_fb.ModelT()
        self.m.version = 3
        self.m.description = "arenascope sweep (make_ops_fb.py): " + name
        self.m.buffers = [schema_fb.BufferT()]
        self.m.operatorCodes = []
        self.m.subgraphs = []
        self._codes = {}
        self.main = None          # subgraph 0, whose inputs are the model's

    def subgraph(self, name):
        sg = Subgraph(self, name)
        self.m.subgraphs.append(sg.sg)
        if self.main is None:
            self.main = sg
        return sg

    def opcode(self, opname):
        if opname not in self._codes:
            code = OPS[opname]
            oc = schema_fb.OperatorCodeT()
            oc.deprecatedBuiltinCode = min(code, 127)
            oc.builtinCode = code
            oc.version = 1
            self._codes[opname] = len(self.m.operatorCodes)
            self.m.operatorCodes.append(oc)
        return self._codes[opname]

    def buffer(self, arr):
        b = schema_fb.BufferT()
        b.data = np.frombuffer(np.ascontiguousarray(arr).tobytes(), np.uint8)
        self.m.buffers.append(b)
        return len(self.m.buffers) - 1

    def serialize(self):
        builder = flatbuffers.Builder(4096)
        builder.Finish(self.m.Pack(builder), file_identifier=b"TFL3")
        return bytes(builder.Output())

    # random constants
    def uniform(self, shape, lo=-1.0, hi=1.0):
        return self.rng.uniform(lo, hi, size=shape).astype(np.float32)

    def ints(self, shape, lo, hi, dtype):
        return self.rng.integers(lo, hi, size=shape, endpoint=True).astype(dtype)


class Subgraph:
    def __init__(self, model, name):
        self.model = model
        self.sg = schema_fb.SubGraphT()
        self.sg.name = name
        self.sg.tensors, self.sg.inputs, self.sg.outputs, self.sg.operators = [], [], [], []
        self.valid_inputs = []   # (tensor index, numpy array) valid data for the load check

    def tensor(self, name, shape, ty, data=None, scale=None, zp=None, qdim=0,
               variable=False, signature=None):
        t = schema_fb.TensorT()
        t.name = name
        t.shape = list(shape)
        t.type = TYPES[ty][0]
        if signature is not None:
            t.shapeSignature = list(signature)
        if data is not None:
            arr = np.asarray(data, dtype=TYPES[ty][1]).reshape(shape)
            t.buffer = self.model.buffer(arr)
        else:
            t.buffer = 0
        if scale is not None:
            q = schema_fb.QuantizationParametersT()
            q.scale = [float(s) for s in np.atleast_1d(scale)]
            q.zeroPoint = [int(z) for z in np.atleast_1d(0 if zp is None else zp)]
            q.quantizedDimension = qdim
            t.quantization = q
        t.isVariable = variable
        self.sg.tensors.append(t)
        return len(self.sg.tensors) - 1

    def input(self, name, shape, ty, valid=None, **kw):
        i = self.tensor(name, shape, ty, **kw)
        self.sg.inputs.append(i)
        if valid is not None:
            self.valid_inputs.append((i, valid))
        return i

    def output(self, name, shape, ty, **kw):
        i = self.tensor(name, shape, ty, **kw)
        self.sg.outputs.append(i)
        return i

    def const(self, name, data, ty, **kw):
        arr = np.asarray(data, dtype=TYPES[ty][1])
        return self.tensor(name, arr.shape, ty, data=arr, **kw)

    def op(self, opname, inputs, outputs, opt=None, intermediates=None):
        o = schema_fb.OperatorT()
        o.opcodeIndex = self.model.opcode(opname)
        o.inputs = list(inputs)
        o.outputs = list(outputs)
        if opt is not None:
            which, code = _options_type(opt)
            if which == 1:
                o.builtinOptionsType, o.builtinOptions = code, opt
            else:
                o.builtinOptions2Type, o.builtinOptions2 = code, opt
        if intermediates:
            o.intermediates = list(intermediates)
        self.sg.operators.append(o)
        return o


def opts(cls, **fields):
    o = getattr(schema_fb, cls)()
    for k, v in fields.items():
        if not hasattr(o, k):
            raise AttributeError("%s has no field %s" % (cls, k))
        setattr(o, k, v)
    return o


def q8(w):
    """Symmetric per-tensor int8 quantisation of a float array: (int8 array, scale)."""
    scale = float(np.max(np.abs(w))) / 127.0 or 1.0
    return np.clip(np.round(w / scale), -127, 127).astype(np.int8), scale


# ------------------------------------------------------------------ the entries
ENTRIES = []


# File stems already taken by the corpus (sample_models/lstm_f32 is a Keras LSTM).
RENAMED = {"lstm_f32": "lstm_full_f32"}


def entry(op, variant, source, note=""):
    """Register a builder: fn(model) fills the model; returns a one-line description."""
    def deco(fn):
        stem = "%s_%s" % (op.lower(), variant)
        ENTRIES.append(dict(op=op, variant=variant, source=source, note=note, build=fn,
                            file="%s.tflite" % RENAMED.get(stem, stem)))
        return fn
    return deco


def probe(op, variant, source, expect):
    """A combination the kernel's source says LiteRT refuses: built and run like the
    others, but never written into the sweep; the manifest records what LiteRT said."""
    def deco(fn):
        ENTRIES.append(dict(op=op, variant=variant, source=source, note=expect, build=fn,
                            probe=True, file="%s_%s.tflite" % (op.lower(), variant)))
        return fn
    return deco


def skip(op, variant, source, reason):
    ENTRIES.append(dict(op=op, variant=variant, source=source, note="", build=None,
                        reason=reason, file="%s_%s.tflite" % (op.lower(), variant)))


S = [1, 8, 16]   # the sweep's usual activation: 128 elements

# --- StableHLO elementwise: two same-shape runtime inputs, output of the same type
ELEMENTWISE = [
    ("STABLEHLO_ADD", "stablehlo_add.cc", ("f32", "int8", "int16", "i32")),
    ("STABLEHLO_MULTIPLY", "stablehlo_multiply.cc", ("f32", "int8", "int16", "i32")),
    ("STABLEHLO_MAXIMUM", "stablehlo_min_max.cc", ("f32", "int8", "int16", "i32")),
    ("STABLEHLO_MINIMUM", "stablehlo_min_max.cc", ("f32", "int8", "int16", "i32")),
    ("STABLEHLO_AND", "stablehlo_and.cc", ("bool", "int8", "int16", "i32")),
    ("STABLEHLO_SHIFT_LEFT", "stablehlo_shift_left.cc", ("int8", "int16", "i32")),
]
VT = {"f32": "f32", "int8": "i8", "int16": "i16", "i32": "i32", "bool": "bool",
      "i64": "i64", "u64": "u64"}


def _elementwise(op, variant):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        valid = None
        if op == "STABLEHLO_SHIFT_LEFT":
            valid = np.full(S, 2, TYPES[ty][1])
        a = g.input("a", S, ty)
        b = g.input("b", S, ty, valid=valid)
        y = g.output("y", S, ty)
        opt = opts("StablehloShiftLeftOptionsT") if op == "STABLEHLO_SHIFT_LEFT" else None
        g.op(op, [a, b], [y], opt)
        return "%s of two runtime %s %s tensors" % (op, TTNAME[TYPES[ty][0]], S)
    return build


for _op, _src, _vs in ELEMENTWISE:
    for _v in _vs:
        entry(_op, _v, KERNELS + _src + " (+ stablehlo_elementwise.cc)")(
            _elementwise(_op, _v))
probe("STABLEHLO_AND", "f32", KERNELS + "stablehlo_elementwise.h",
      "ElementwisePrepare accepts any type; ElementwiseEval<kAnd> refuses float types")(
    _elementwise("STABLEHLO_AND", "f32"))
probe("STABLEHLO_SHIFT_LEFT", "f32", KERNELS + "stablehlo_shift_left.cc",
      "Prepare accepts any type; Eval handles int8, int16 and int32 only")(
    _elementwise("STABLEHLO_SHIFT_LEFT", "f32"))


# --- STABLEHLO_PAD: edge low/high and interior padding, padding value a constant scalar
def _stablehlo_pad(variant):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        x = g.input("x", S, ty)
        pv = g.const("padding_value", np.array(0, TYPES[ty][1]).reshape([]), ty)
        out = [1, 8 + 7 * 1 + 1 + 1, 16 + 2]  # interior 1 and edges 1/1 on dim 1, 2/0 on dim 2
        y = g.output("y", out, ty)
        g.op("STABLEHLO_PAD", [x, pv], [y], opts(
            "StablehloPadOptionsT", edgePaddingLow=[0, 1, 2], edgePaddingHigh=[0, 1, 0],
            interiorPadding=[0, 1, 0]))
        return "x %s, edge_padding_low [0,1,2], high [0,1,0], interior [0,1,0] -> %s" % (S, out)
    return build


for _v in ("f32", "int8", "int16"):
    entry("STABLEHLO_PAD", _v, KERNELS + "stablehlo_pad.cc")(_stablehlo_pad(_v))


# --- STABLEHLO_GATHER: embedding-style row gather with int32 start indices
def _stablehlo_gather(variant):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        x = g.input("operand", [8, 16], ty)
        idx = g.input("start_indices", [4, 1], "i32",
                      valid=np.array([[0], [3], [7], [2]], np.int32))
        y = g.output("y", [4, 16], ty)
        g.op("STABLEHLO_GATHER", [x, idx], [y], opts(
            "StablehloGatherOptionsT", offsetDims=[1], collapsedSliceDims=[0],
            startIndexMap=[0], indexVectorDim=1, sliceSizes=[1, 16]))
        return "operand [8,16] (runtime), start_indices int32 [4,1] -> [4,16]"
    return build


for _v in ("f32", "int8", "int16"):
    entry("STABLEHLO_GATHER", _v, KERNELS + "stablehlo_gather.cc")(_stablehlo_gather(_v))


def _scalar_body(m, ty, opname, name="body"):
    """Subgraph of one scalar binary op (the region of scatter / reduce_window)."""
    b = m.subgraph(name)
    p = b.input("lhs", [], ty)
    q = b.input("rhs", [], ty)
    r = b.output("result", [], ty)
    b.op(opname, [p, q], [r])
    return b


# --- STABLEHLO_SCATTER: rows of updates added into operand; region subgraph = ADD
def _stablehlo_scatter(variant):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        x = g.input("operand", [8, 16], ty)
        idx = g.input("scatter_indices", [4, 1], "i32",
                      valid=np.array([[1], [3], [5], [7]], np.int32))
        u = g.input("updates", [4, 16], ty)
        y = g.output("y", [8, 16], ty)
        g.op("STABLEHLO_SCATTER", [x, idx, u], [y], opts(
            "StablehloScatterOptionsT", updateWindowDims=[1], insertedWindowDims=[0],
            scatterDimsToOperandDims=[0], indexVectorDim=1,
            updateComputationSubgraphIndex=1))
        _scalar_body(m, ty, "STABLEHLO_ADD", "update_computation")
        return ("operand [8,16], scatter_indices int32 [4,1], updates [4,16] (all runtime); "
                "update computation = subgraph 1 (one STABLEHLO_ADD on scalars)")
    return build


for _v in ("f32", "int8", "int16"):
    entry("STABLEHLO_SCATTER", _v, KERNELS + "stablehlo_scatter.cc")(_stablehlo_scatter(_v))


# --- STABLEHLO_REDUCE_WINDOW: base dilation + padding, so both arena temporaries
#     (dilated input, padded input) are non-trivial; body subgraph = ADD
def _stablehlo_reduce_window(variant):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        x = g.input("x", [1, 8, 8, 4], ty)
        init = g.const("init_value", np.array(0, TYPES[ty][1]).reshape([]), ty)
        y = g.output("y", [1, 8, 4, 4], ty)
        g.op("STABLEHLO_REDUCE_WINDOW", [x, init], [y], opts(
            "StablehloReduceWindowOptionsT", windowDimensions=[1, 3, 3, 1],
            windowStrides=[1, 2, 2, 1], baseDilations=[1, 2, 1, 1],
            windowDilations=[1, 1, 1, 1], padding=[0, 0, 1, 1, 1, 1, 0, 0],
            bodySubgraphIndex=1))
        _scalar_body(m, ty, "STABLEHLO_ADD")
        return ("x [1,8,8,4]; base_dilations [1,2,1,1] (temp 1: dilated [1,15,8,4]), padding "
                "1/1 on H and W (temp 2: padded [1,17,10,4]), window 3x3 stride 2 -> "
                "[1,8,4,4]; body = subgraph 1 (STABLEHLO_ADD)")
    return build


for _v in ("f32", "int8", "int16"):
    entry("STABLEHLO_REDUCE_WINDOW", _v, KERNELS + "stablehlo_reduce_window.cc")(
        _stablehlo_reduce_window(_v))


# --- REDUCE_WINDOW (the deprecated TFLite form): int64 constant window attributes
def _reduce_window(variant):
    def build(m):
        ty = VT[variant]
        fn = schema_fb.ReduceWindowFunction
        func = fn.ALL if ty == "bool" else fn.MAXIMUM
        init_val = True if ty == "bool" else (np.iinfo(TYPES[ty][1]).min if ty != "f32"
                                              else -3.0e38)
        g = m.subgraph("main")
        x = g.input("x", [1, 8, 8, 4], ty)
        init = g.const("init_value", np.array(init_val, TYPES[ty][1]).reshape([]), ty)
        ws = g.const("window_shape", np.array([1, 2, 2, 1], np.int64), "i64")
        st = g.const("window_strides", np.array([1, 2, 2, 1], np.int64), "i64")
        dl = g.const("window_dilations", np.array([1, 1, 1, 1], np.int64), "i64")
        y = g.output("y", [1, 4, 4, 4], ty)
        g.op("REDUCE_WINDOW", [x, init, ws, st, dl], [y],
             opts("ReduceWindowOptionsT", reduceFunction=func))
        return "x [1,8,8,4], window 2x2 stride 2 (int64 constants), %s -> [1,4,4,4]" % (
            "ALL" if ty == "bool" else "MAXIMUM")
    return build


for _v in ("f32", "int8", "int16", "i32", "bool"):
    entry("REDUCE_WINDOW", _v, KERNELS + "stablehlo_reduce_window.cc (TFLiteData)")(
        _reduce_window(_v))


# --- DILATE
def _dilate(variant, dynamic=False):
    def build(m):
        ty = VT[variant]
        g = m.subgraph("main")
        x = g.input("x", S, ty)
        if dynamic:
            d = g.input("dilations", [3], "i32", valid=np.array([1, 2, 3], np.int32))
        else:
            d = g.const("dilations", np.array([1, 2, 3], np.int32), "i32")
        pv = g.const("padding_value", np.array(0, TYPES[ty][1]).reshape([]), ty)
        y = g.output("y", [1, 15, 46], ty)
        g.op("DILATE", [x, d, pv], [y], opts("DilateOptionsT"))
        if dynamic:
            return ("x %s, dilations int32 [3] a runtime input: output dynamic (sized at "
                    "Eval)" % S)
        return "x %s, dilations [1,2,3] (constant) -> [1,15,46]" % S
    return build


for _v in ("f32", "int8", "int16"):
    entry("DILATE", _v, KERNELS + "dilate.cc")(_dilate(_v))
entry("DILATE", "dyn_f32", KERNELS + "dilate.cc",
      note="oracles feed int32 in [0,4]: a 0 dilation fails Eval")(_dilate("f32", True))


# --- STABLEHLO_RNG_BIT_GENERATOR: uint64 state in, uint64 key + bits out
def _rng(variant, algorithm, out_ty):
    def build(m):
        g = m.subgraph("main")
        n = 2 if algorithm == "THREEFRY" else 3
        st = g.input("initial_state", [n], "u64",
                     valid=np.arange(1, n + 1, dtype=np.uint64))
        key = g.output("output_key", [n], "u64")
        out = g.output("output", [8, 16], out_ty)
        g.op("STABLEHLO_RNG_BIT_GENERATOR", [st], [key, out], opts(
            "StablehloRngBitGeneratorOptionsT",
            algorithm=getattr(schema_fb.RngAlgorithm, algorithm)))
        return "%s, state uint64 [%d] (runtime) -> key uint64 [%d], output %s [8,16]" % (
            algorithm, n, n, TTNAME[TYPES[out_ty][0]])
    return build


entry("STABLEHLO_RNG_BIT_GENERATOR", "i32", KERNELS + "rng_bit_generator.cc")(
    _rng("i32", "PHILOX", "i32"))
entry("STABLEHLO_RNG_BIT_GENERATOR", "u64", KERNELS + "rng_bit_generator.cc")(
    _rng("u64", "PHILOX", "u64"))
entry("STABLEHLO_RNG_BIT_GENERATOR", "threefry_i32", KERNELS + "rng_bit_generator.cc")(
    _rng("threefry_i32", "THREEFRY", "i32"))


# --- STABLEHLO_COMPOSITE: decomposition subgraph with an intermediate
@entry("STABLEHLO_COMPOSITE", "f32", KERNELS + "stablehlo_composite.cc")
def _composite(m):
    g = m.subgraph("main")
    x = g.input("x", S, "f32")
    y = g.output("y", S, "f32")
    g.op("STABLEHLO_COMPOSITE", [x], [y], opts(
        "StableHLOCompositeOptionsT", name=b"arenascope.square_plus",
        decompositionSubgraphIndex=1,
        compositeAttributes=np.frombuffer(flexbuffers.Dumps({"k": 1}), np.uint8),
        compositeAttributesFormat=schema_fb.CustomOptionsFormat.FLEXBUFFERS, version=1))
    d = m.subgraph("decomposition")
    a = d.input("x", S, "f32")
    t = d.tensor("x_sq", S, "f32")
    r = d.output("y", S, "f32")
    d.op("MUL", [a, a], [t], opts("MulOptionsT"))
    d.op("ADD", [t, a], [r], opts("AddOptionsT"))
    return ("COMPOSITE 'arenascope.square_plus' over x %s; decomposition = subgraph 1: "
            "MUL(x,x) -> ADD(.,x) (one intermediate)" % S)


# --- STABLEHLO_CASE: int32 index + data; two branch subgraphs
def _case(dynamic):
    def build(m):
        g = m.subgraph("main")
        idx = g.input("index", [1], "i32", valid=np.array([0], np.int32))
        x = g.input("x", S, "f32")
        y = g.output("y", S, "f32", signature=[1, 8, -1] if dynamic else None)
        g.op("STABLEHLO_CASE", [idx, x], [y],
             opts("StablehloCaseOptionsT", branchSubgraphIndices=[1, 2]))
        b0 = m.subgraph("branch0")
        a = b0.input("x", S, "f32")
        t = b0.tensor("x_sq", S, "f32")
        r = b0.output("y", S, "f32")
        b0.op("MUL", [a, a], [t], opts("MulOptionsT"))
        b0.op("ADD", [t, a], [r], opts("AddOptionsT"))
        b1 = m.subgraph("branch1")
        a = b1.input("x", S, "f32")
        if dynamic:
            begin = b1.const("begin", np.array([0, 0, 0], np.int32), "i32")
            size = b1.const("size", np.array([1, 8, 8], np.int32), "i32")
            r = b1.output("y", [1, 8, 8], "f32")
            b1.op("SLICE", [a, begin, size], [r])
        else:
            r = b1.output("y", S, "f32")
            b1.op("TANH", [a], [r])
        if dynamic:
            return ("index int32 [1] + x %s; branch 0: MUL, ADD -> [1,8,16]; branch 1: "
                    "SLICE -> [1,8,8]: the branch shapes differ, so the output is dynamic" % S)
        return ("index int32 [1] + x %s; branch 0 (subgraph 1): MUL, ADD; branch 1 "
                "(subgraph 2): TANH" % S)
    return build


entry("STABLEHLO_CASE", "f32", KERNELS + "stablehlo_case.cc")(_case(False))
entry("STABLEHLO_CASE", "dyn_f32", KERNELS + "stablehlo_case.cc")(_case(True))


# --- LSH_PROJECTION
def _lsh(kind):
    def build(m):
        g = m.subgraph("main")
        h = g.const("hash", m.uniform([4, 8]), "f32")
        x = g.input("input", [6, 4], "f32")
        w = g.const("weight", m.uniform([6], 0.1, 1.0), "f32")
        n = 4 if kind == "SPARSE" else 32
        y = g.output("y", [n], "i32")
        g.op("LSH_PROJECTION", [h, x, w], [y], opts(
            "LSHProjectionOptionsT", type=getattr(schema_fb.LSHProjectionType, kind)))
        return "%s: hash f32 [4,8] (const), input f32 [6,4] (runtime), weight [6] -> int32 [%d]" \
            % (kind, n)
    return build


entry("LSH_PROJECTION", "f32", KERNELS + "lsh_projection.cc", note="SPARSE")(_lsh("SPARSE"))
entry("LSH_PROJECTION", "dense_f32", KERNELS + "lsh_projection.cc", note="DENSE")(
    _lsh("DENSE"))


# --- SKIP_GRAM: string in, string out (both dynamic)
@probe("SKIP_GRAM", "str", KERNELS + "skip_gram.cc",
       "held out of the sweep although LiteRT runs it: oracle_litert.py and "
       "oracle_xnnpack.py crash (SIGSEGV) on string tensors -- they take a numpy view of "
       "every tensor whose dtype name is not 'object', and LiteRT reports strings as "
       "numpy bytes_ ('bytes'); move back to entry() once the oracles skip string tensors")
def _skip_gram(m):
    g = m.subgraph("main")
    x = g.input("text", [1], "str", valid=np.array([b"the quick brown fox jumps"], object))
    y = g.output("ngrams", [1], "str")
    g.op("SKIP_GRAM", [x], [y], opts("SkipGramOptionsT", ngramSize=2, maxSkipSize=1,
                                        includeAllNgrams=True))
    return "string [1] (runtime) -> string n-grams (ngram_size 2, max_skip 1, all n-grams)"


# --- EMBEDDING_LOOKUP
def _embedding(variant):
    def build(m):
        g = m.subgraph("main")
        ids = g.input("ids", [4], "i32", valid=np.array([0, 7, 3, 3], np.int32))
        table = m.uniform([8, 16])
        if variant == "f32":
            v = g.const("table", table, "f32")
            y = g.output("y", [4, 16], "f32")
        else:
            qt, sc = q8(table)
            v = g.const("table", qt, "i8", scale=sc, zp=0)
            if variant == "hybrid":
                y = g.output("y", [4, 16], "f32")
            else:
                y = g.output("y", [4, 16], "i8", scale=sc, zp=0)
        g.op("EMBEDDING_LOOKUP", [ids, v], [y])
        return {"f32": "ids int32 [4] (runtime), table f32 [8,16] (const) -> [4,16]",
                "hybrid": "ids int32 [4], table int8 [8,16] symmetric -> float32 [4,16] "
                          "(EvalHybrid dequantises rows)",
                "int8": "ids int32 [4], table int8 [8,16] -> int8 [4,16] (row copy)"}[variant]
    return build


for _v in ("f32", "hybrid", "int8"):
    entry("EMBEDDING_LOOKUP", _v, KERNELS + "embedding_lookup.cc")(_embedding(_v))


# --- EMBEDDING_LOOKUP_SPARSE: output is dynamic (sized and allocated at Eval)
@entry("EMBEDDING_LOOKUP_SPARSE", "f32", KERNELS + "embedding_lookup_sparse.cc")
def _embedding_sparse(m):
    g = m.subgraph("main")
    ids = g.input("ids", [4], "i32", valid=np.array([0, 2, 4, 1], np.int32))
    idx = g.const("indices", np.array([[0, 0], [0, 1], [1, 0], [2, 0]], np.int32), "i32")
    shp = g.const("dense_shape", np.array([3, 2], np.int32), "i32")
    w = g.input("weights", [4], "f32")
    v = g.const("table", m.uniform([8, 16]), "f32")
    y = g.output("y", [3, 16], "f32")
    g.op("EMBEDDING_LOOKUP_SPARSE", [ids, idx, shp, w, v], [y], opts(
        "EmbeddingLookupSparseOptionsT", combiner=schema_fb.CombinerType.SUM))
    return ("ids int32 [4] + weights f32 [4] (runtime), indices [4,2] / dense_shape [3,2] / "
            "table [8,16] (const), SUM -> [3,16] dynamic output")


# --- RNN family: float and hybrid (int8 weights).  B batch, I input, U units, T time
B, IN, U, T = 2, 8, 16, 4


def _w(m, g, name, shape, hybrid):
    w = m.uniform(shape, -0.5, 0.5)
    if hybrid:
        qw, sc = q8(w)
        return g.const(name, qw, "i8", scale=sc, zp=0)
    return g.const(name, w, "f32")


def _rnn(variant):
    hybrid = variant == "hybrid"

    def build(m):
        g = m.subgraph("main")
        x = g.input("input", [B, IN], "f32")
        w = _w(m, g, "weights", [U, IN], hybrid)
        r = _w(m, g, "recurrent_weights", [U, U], hybrid)
        b = g.const("bias", m.uniform([U]), "f32")
        h = g.tensor("hidden_state", [B, U], "f32", variable=True)
        y = g.output("y", [B, U], "f32")
        g.op("RNN", [x, w, r, b, h], [y], opts("RNNOptionsT", fusedActivationFunction=ACT.TANH))
        return "input [%d,%d], %d units, hidden state a variable [%d,%d]%s" % (
            B, IN, U, B, U, "; int8 weights (hybrid)" if hybrid else "")
    return build


for _v in ("f32", "hybrid"):
    entry("RNN", _v, KERNELS + "basic_rnn.cc")(_rnn(_v))


def _uni_rnn(variant):
    hybrid = variant == "hybrid"

    def build(m):
        g = m.subgraph("main")
        x = g.input("input", [B, T, IN], "f32")
        w = _w(m, g, "weights", [U, IN], hybrid)
        r = _w(m, g, "recurrent_weights", [U, U], hybrid)
        b = g.const("bias", m.uniform([U]), "f32")
        h = g.tensor("hidden_state", [B, U], "f32", variable=True)
        y = g.output("y", [B, T, U], "f32")
        g.op("UNIDIRECTIONAL_SEQUENCE_RNN", [x, w, r, b, h], [y], opts(
            "SequenceRNNOptionsT", timeMajor=False, fusedActivationFunction=ACT.TANH))
        return "batch-major input [%d,%d,%d], %d units%s" % (
            B, T, IN, U, "; int8 weights (hybrid)" if hybrid else "")
    return build


for _v in ("f32", "hybrid"):
    entry("UNIDIRECTIONAL_SEQUENCE_RNN", _v, KERNELS + "unidirectional_sequence_rnn.cc")(
        _uni_rnn(_v))


def _bidi_rnn(variant):
    hybrid = "hybrid" in variant
    merged = "merged" in variant
    aux = "aux" in variant

    def build(m):
        g = m.subgraph("main")
        x = g.input("input", [B, T, IN], "f32")
        ins = [x]
        for d in ("fw", "bw"):
            ins.append(_w(m, g, d + "_weights", [U, IN], hybrid))
            ins.append(_w(m, g, d + "_recurrent_weights", [U, U], hybrid))
            ins.append(g.const(d + "_bias", m.uniform([U]), "f32"))
            ins.append(g.tensor(d + "_hidden_state", [B, U], "f32", variable=True))
        if aux:
            ins.append(g.input("aux_input", [B, T, 4], "f32"))
            ins.append(_w(m, g, "fw_aux_weights", [U, 4], hybrid))
            ins.append(_w(m, g, "bw_aux_weights", [U, 4], hybrid))
        else:
            ins += [-1, -1, -1]
        if merged:
            outs = [g.output("y", [B, T, 2 * U], "f32")]
        else:
            outs = [g.output("fw_y", [B, T, U], "f32"), g.output("bw_y", [B, T, U], "f32")]
        g.op("BIDIRECTIONAL_SEQUENCE_RNN", ins, outs, opts(
            "BidirectionalSequenceRNNOptionsT", timeMajor=False,
            fusedActivationFunction=ACT.TANH, mergeOutputs=merged))
        return "batch-major input [%d,%d,%d], %d units each way, %s%s%s" % (
            B, T, IN, U, "merged output" if merged else "two outputs",
            "; int8 weights (hybrid)" if hybrid else "",
            "; aux input [%d,%d,4] with its weights" % (B, T) if aux else "")
    return build


for _v in ("f32", "merged_f32", "hybrid", "aux_hybrid"):
    entry("BIDIRECTIONAL_SEQUENCE_RNN", _v, KERNELS + "bidirectional_sequence_rnn.cc")(
        _bidi_rnn(_v))


def _lstm_weights(m, g, prefix, n_in, n_cell, n_out, hybrid, cifg, proj):
    """The 18 inputs 1..17 of an LSTM cell (TFLite order), plus nothing else."""
    ins = []
    for gate in ("input", "forget", "cell", "output"):
        ins.append(-1 if (cifg and gate == "input") else
                   _w(m, g, "%sinput_to_%s_weights" % (prefix, gate), [n_cell, n_in], hybrid))
    for gate in ("input", "forget", "cell", "output"):
        ins.append(-1 if (cifg and gate == "input") else
                   _w(m, g, "%srecurrent_to_%s_weights" % (prefix, gate), [n_cell, n_out],
                      hybrid))
    ins += [-1, -1, -1]                      # peephole (cell_to_*) weights
    for gate in ("input", "forget", "cell", "output"):
        ins.append(-1 if (cifg and gate == "input") else
                   g.const("%s%s_gate_bias" % (prefix, gate), m.uniform([n_cell]), "f32"))
    if proj:
        ins.append(_w(m, g, prefix + "projection_weights", [n_out, n_cell], hybrid))
        ins.append(-1)                       # projection bias
    else:
        ins += [-1, -1]
    return ins


def _lstm(variant):
    hybrid = "hybrid" in variant
    cifg = "cifg" in variant
    proj = "proj" in variant

    def build(m):
        n_cell = 16
        n_out = 8 if proj else 16
        g = m.subgraph("main")
        x = g.input("input", [B, IN], "f32")
        ins = [x] + _lstm_weights(m, g, "", IN, n_cell, n_out, hybrid, cifg, proj)
        ins.append(g.tensor("output_state", [B, n_out], "f32", variable=True))
        ins.append(g.tensor("cell_state", [B, n_cell], "f32", variable=True))
        ins += [-1, -1, -1, -1]              # layer-norm coefficients
        y = g.output("y", [B, n_out], "f32")
        g.op("LSTM", ins, [y], opts(
            "LSTMOptionsT", fusedActivationFunction=ACT.TANH, cellClip=0.0, projClip=0.0,
            kernelType=schema_fb.LSTMKernelType.FULL))
        return "full kernel, 24 inputs: input [%d,%d], %d cells, %d outputs%s%s%s" % (
            B, IN, n_cell, n_out, ", CIFG" if cifg else "",
            ", projection" if proj else "", "; int8 weights (hybrid)" if hybrid else "")
    return build


for _v in ("f32", "hybrid", "cifg_f32", "proj_hybrid"):
    entry("LSTM", _v, KERNELS + "lstm.cc (full)")(_lstm(_v))
skip("LSTM", "int8", KERNELS + "lstm.cc (full)",
     "not built: the integer paths (8x8->16 with 5 intermediates, 8x8->8 with 12) need "
     "quantised intermediate tensors with calibrated scales, int16 cell state and int32 "
     "biases; this sweep covers the float and hybrid paths of the full kernel only")


def _bidi_lstm(variant):
    hybrid = "hybrid" in variant
    merged = "merged" in variant

    def build(m):
        n_cell = 8
        g = m.subgraph("main")
        x = g.input("input", [T, B, IN], "f32")    # time major
        ins = [x]
        ins += _lstm_weights(m, g, "fw_", IN, n_cell, n_cell, hybrid, False, False)
        ins += _lstm_weights(m, g, "bw_", IN, n_cell, n_cell, hybrid, False, False)
        for d in ("fw", "bw"):
            ins.append(g.tensor(d + "_activation_state", [B, n_cell], "f32", variable=True))
            ins.append(g.tensor(d + "_cell_state", [B, n_cell], "f32", variable=True))
        ins += [-1] * 9                          # aux input and its 8 weights
        if merged:
            outs = [g.output("y", [T, B, 2 * n_cell], "f32")]
        else:
            outs = [g.output("fw_y", [T, B, n_cell], "f32"),
                    g.output("bw_y", [T, B, n_cell], "f32")]
        g.op("BIDIRECTIONAL_SEQUENCE_LSTM", ins, outs, opts(
            "BidirectionalSequenceLSTMOptionsT", fusedActivationFunction=ACT.TANH,
            cellClip=0.0, projClip=0.0, mergeOutputs=merged, timeMajor=True))
        return "48 inputs: time-major input [%d,%d,%d], %d cells each way, %s%s" % (
            T, B, IN, n_cell, "merged output" if merged else "two outputs",
            "; int8 weights (hybrid)" if hybrid else "")
    return build


for _v in ("f32", "merged_f32", "hybrid"):
    entry("BIDIRECTIONAL_SEQUENCE_LSTM", _v, KERNELS + "bidirectional_sequence_lstm.cc")(
        _bidi_lstm(_v))


# --- RELU_0_TO_1
def _relu01(variant):
    def build(m):
        g = m.subgraph("main")
        if variant == "f32":
            x = g.input("x", S, "f32")
            y = g.output("y", S, "f32")
        else:
            x = g.input("x", S, "i8", scale=2.0 / 255, zp=0)
            y = g.output("y", S, "i8", scale=1.0 / 255, zp=-128)
        g.op("RELU_0_TO_1", [x], [y])
        return "x %s %s" % (S, "float32" if variant == "f32" else
                            "int8 (scale 2/255, zp 0 -> output scale 1/255, zp -128)")
    return build


for _v in ("f32", "int8"):
    entry("RELU_0_TO_1", _v, KERNELS + "activations.cc")(_relu01(_v))


@probe("RELU_0_TO_1", "int16", KERNELS + "activations.cc",
       "ReluPrepare accepts int16 (zero points 0); Relu0to1Eval handles float32, uint8, int8")
def _relu01_i16(m):
    g = m.subgraph("main")
    x = g.input("x", S, "i16", scale=1.0 / 32768, zp=0)
    y = g.output("y", S, "i16", scale=1.0 / 32768, zp=0)
    g.op("RELU_0_TO_1", [x], [y])
    return "x %s int16 (scale 2^-15, zp 0)" % S


@entry("FAKE_QUANT", "f32", KERNELS + "fake_quant.cc")
def _fake_quant(m):
    g = m.subgraph("main")
    x = g.input("x", S, "f32")
    y = g.output("y", S, "f32")
    g.op("FAKE_QUANT", [x], [y], opts("FakeQuantOptionsT", min=-1.0, max=1.0, numBits=8,
                                         narrowRange=False))
    return "x %s, min -1, max 1, 8 bits" % S


@entry("L2_POOL_2D", "f32", KERNELS + "pooling.cc")
def _l2pool(m):
    g = m.subgraph("main")
    x = g.input("x", [1, 8, 8, 4], "f32")
    y = g.output("y", [1, 4, 4, 4], "f32")
    g.op("L2_POOL_2D", [x], [y], opts(
        "Pool2DOptionsT", padding=schema_fb.Padding.VALID, strideW=2, strideH=2,
        filterWidth=2, filterHeight=2, fusedActivationFunction=ACT.NONE))
    return "x [1,8,8,4], 2x2 stride 2 VALID -> [1,4,4,4]"




@probe("L2_POOL_2D", "int8", KERNELS + "pooling.cc",
       "GenericPrepare<kL2> requires float32 for int8 / uint8 inputs")
def _l2pool_i8(m):
    g = m.subgraph("main")
    x = g.input("x", [1, 8, 8, 4], "i8", scale=1.0 / 128, zp=0)
    y = g.output("y", [1, 4, 4, 4], "i8", scale=1.0 / 128, zp=0)
    g.op("L2_POOL_2D", [x], [y], opts(
        "Pool2DOptionsT", padding=schema_fb.Padding.VALID, strideW=2, strideH=2,
        filterWidth=2, filterHeight=2, fusedActivationFunction=ACT.NONE))
    return "x int8 [1,8,8,4], 2x2 stride 2 VALID"


@probe("FAKE_QUANT", "narrow_f32", KERNELS + "fake_quant.cc",
       "Prepare refuses narrow_range")
def _fake_quant_narrow(m):
    g = m.subgraph("main")
    x = g.input("x", S, "f32")
    y = g.output("y", S, "f32")
    g.op("FAKE_QUANT", [x], [y], opts("FakeQuantOptionsT", min=-1.0, max=1.0, numBits=8,
                                         narrowRange=True))
    return "x %s, narrow_range true" % S


# ------------------------------------------------------------------ checking
def litert_check(path, valid_inputs):
    """Load with ai_edge_litert (no delegate), allocate, invoke on random valid input."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    with open(path, "rb") as f:
        buf = f.read()
    res = {"loaded": False, "allocated": False, "invoked": False}
    try:
        it = Interpreter(model_content=buf, num_threads=1,
                         experimental_op_resolver_type=
                         OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        res["loaded"] = True
        it.allocate_tensors()
        res["allocated"] = True
        rng = np.random.default_rng(0)
        valid = dict(valid_inputs)
        for d in it.get_input_details():
            if d["index"] in valid:
                it.set_tensor(d["index"], valid[d["index"]])
                continue
            dt = np.dtype(d["dtype"])
            shape = d["shape"]
            if dt.kind == "f":
                v = rng.uniform(-1, 1, shape).astype(dt)
            elif dt.kind in "iu":
                info = np.iinfo(dt)
                lo, hi = (0, 4) if dt.itemsize >= 4 else (info.min, info.max)
                v = rng.integers(lo, hi, shape, endpoint=True).astype(dt)
            elif dt.kind == "b":
                v = rng.integers(0, 1, shape, endpoint=True).astype(dt)
            else:
                continue
            it.set_tensor(d["index"], v)
        it.invoke()
        res["invoked"] = True
        res["outputs"] = [{"shape": [int(s) for s in it.get_tensor(d["index"]).shape],
                           "dtype": np.dtype(d["dtype"]).name}
                          for d in it.get_output_details()]
    except Exception as e:  # noqa: BLE001
        res["error"] = ("%s: %s" % (type(e).__name__, e)).strip()[:600]
    return res


def describe(m):
    subs = []
    for sg in m.m.subgraphs:
        ops = [(lambda c: [k for k, v in OPS.items() if v == c][0])(
            m.m.operatorCodes[o.opcodeIndex].builtinCode) for o in sg.operators]
        tens = []
        for i, t in enumerate(sg.tensors):
            kind = ("input" if i in sg.inputs else "output" if i in sg.outputs
                    else "variable" if t.isVariable else "const" if t.buffer else "intermediate")
            rec = {"index": i, "name": t.name, "shape": t.shape, "type": TTNAME[t.type],
                   "kind": kind}
            if t.quantization is not None and t.quantization.scale:
                rec["scale"] = t.quantization.scale[0] if len(t.quantization.scale) == 1 \
                    else t.quantization.scale
                rec["zero_point"] = t.quantization.zeroPoint[0] \
                    if len(t.quantization.zeroPoint) == 1 else t.quantization.zeroPoint
            tens.append(rec)
        subs.append({"name": sg.name, "operators": ops,
                     "operator_inputs": [list(o.inputs) for o in sg.operators],
                     "operator_outputs": [list(o.outputs) for o in sg.operators],
                     "inputs": list(sg.inputs), "outputs": list(sg.outputs), "tensors": tens})
    return subs


def compact_json(obj):
    """Indented JSON in which lists of scalars and small flat objects stay on one line."""
    import re
    text = json.dumps(obj, indent=1)
    flat = re.compile(r"\[\s*([^\[\]{}]*?)\s*\]|\{\s*([^\[\]{}]*?)\s*\}", re.S)

    def squeeze(mo):
        inner = re.sub(r"\s*\n\s*", " ", mo.group(0))
        return inner if len(inner) <= 160 else mo.group(0)
    prev = None
    while prev != text:
        prev, text = text, flat.sub(squeeze, text)
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=None, help="build only files whose name contains this")
    ap.add_argument("--out-dir", default=HERE)
    ap.add_argument("--no-check", action="store_true")
    args = ap.parse_args()
    import tensorflow as tf
    try:
        import ai_edge_litert
        litert_version = getattr(ai_edge_litert, "__version__", None)
        if litert_version is None:
            from importlib.metadata import version
            litert_version = version("ai-edge-litert")
    except Exception:  # noqa: BLE001
        litert_version = None
    manifest = {
        "about": "hand-built flatbuffers (make_ops_fb.py) for builtin operators LiteRT "
                 "2.3.0 registers but the TF converter does not produce; see the "
                 "docstring of make_ops_fb.py",
        "versions": {"tensorflow_schema": tf.__version__, "flatbuffers": flatbuffers.__version__,
                     "numpy": np.__version__, "ai_edge_litert": litert_version},
        "kernel_sources_read_at": "google-ai-edge/LiteRT commit f67457790c9c (2026-08-21, "
                                  "later than the 2.3.0 release; the runtime results are "
                                  "ai-edge-litert 2.3.0's)",
        "why_hand_built": "these builtin operators are registered by LiteRT 2.3.0's "
                          "BuiltinOpResolver but the TF 2.21 converter does not emit them "
                          "from ordinary TF code (make_ops.py shows it for RELU_0_TO_1: "
                          "tf.minimum(tf.maximum(x, 0), 1) converts to RELU, MINIMUM)",
        "oracle_scope": "oracle_litert.py and the TFLite-arena part of oracle_xnnpack.py "
                        "record subgraph 0 only: the arenas of scatter / reduce_window "
                        "bodies, the composite decomposition and the case branches "
                        "(which STABLEHLO_COMPOSITE / STABLEHLO_CASE allocate at Prepare) "
                        "are not in the JSON",
        "variants": "int8 / int16 / i32 / bool of the StableHLO kernels are plain integer "
                    "tensors without quantisation (those kernels dispatch on the element "
                    "type only); RELU_0_TO_1 int8 and EMBEDDING_LOOKUP int8 carry "
                    "quantisation; hybrid = float activations with int8 symmetric weights",
        "models": [], "not_built": [], "litert_refused": []}
    for e in ENTRIES:
        if args.only and args.only not in e["file"]:
            continue
        rec = {"file": e["file"], "op": e["op"], "variant": e["variant"],
               "kernel_source": e["source"]}
        if e["build"] is None:
            rec["reason"] = e["reason"]
            manifest["not_built"].append(rec)
            print("not built   %-45s %s" % (e["file"], e["reason"]))
            continue
        if e.get("probe"):
            m = Model(e["file"][:-len(".tflite")])
            built = e["build"](m)
            path = os.path.join(PROBE_DIR, e["file"])
            os.makedirs(PROBE_DIR, exist_ok=True)
            with open(path, "wb") as f:
                f.write(m.serialize())
            chk = litert_check(path, m.main.valid_inputs)
            rec.update({"built": built, "expected_from_source": e["note"],
                        "litert_check": chk,
                        "reason": "LiteRT %s: %s%s" % (
                            "refuses at allocate_tensors (Prepare)" if not chk["allocated"]
                            else "allocates but refuses at invoke (Eval)"
                            if not chk["invoked"] else "loads, allocates and invokes it",
                            chk.get("error", ""),
                            "" if not chk["invoked"] else " -- " + e["note"])})
            manifest["not_built"].append(rec)
            print("probe       %-45s %s" % (e["file"], rec["reason"][:160]))
            continue
        m = Model(e["file"][:-len(".tflite")])
        try:
            built = e["build"](m)
            data = m.serialize()
        except Exception as ex:  # noqa: BLE001
            rec["reason"] = "generator failed: %s" % ex
            traceback.print_exc()
            manifest["not_built"].append(rec)
            continue
        path = os.path.join(args.out_dir, e["file"])
        with open(path, "wb") as f:
            f.write(data)
        rec.update({"built": built, "note": e["note"], "bytes": len(data),
                    "subgraphs": describe(m)})
        if not args.no_check:
            rec["litert_check"] = litert_check(path, m.main.valid_inputs)
            ok = rec["litert_check"]["allocated"]
            print("%-10s %-45s %6d B  %s" % ("ok" if rec["litert_check"]["invoked"] else
                                              ("alloc-only" if ok else "REFUSED"),
                                              e["file"], len(data),
                                              rec["litert_check"].get("error", "")[:150]))
            if not ok:
                os.remove(path)
                rec["reason"] = "LiteRT refused: " + rec["litert_check"].get("error", "")
                manifest["litert_refused"].append(rec)
                continue
        manifest["models"].append(rec)
    if not args.only:
        with open(os.path.join(args.out_dir, "manifest_fb.json"), "w") as f:
            f.write(compact_json(manifest) + "\n")
    print("%d models, %d not built, %d refused by LiteRT" % (
        len(manifest["models"]), len(manifest["not_built"]), len(manifest["litert_refused"])))


if __name__ == "__main__":
    sys.exit(main())
