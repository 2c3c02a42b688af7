#!/usr/bin/env python3
"""PyTorch models converted by litert-torch, for the patterns only PyTorch produces.

The TF-made samples (../ops) cannot show what a PyTorch model looks like after
litert-torch: the NCHW input transposed to NHWC, the explicit PAD that PyTorch's
symmetric padding needs before a strided convolution (TF's SAME pads the other
side), the attention of nn.TransformerEncoder (BATCH_MATMUL, SOFTMAX, TRANSPOSE,
LayerNorm), torchvision's hardswish / SE / channel-shuffle idioms, and PT2E static
int8 quantisation.  This script builds them with seeded random weights (nothing is
downloaded), converts each with litert_torch.convert and writes `<name>.tflite`
beside itself, plus manifest.json (what each file is, its operators per subgraph
with their tensor types, and every model that could not be made, with the reason).

Install (Python 3.11, x86_64 Linux; the versions used for the checked-in files):
    python3 -m venv venv && . venv/bin/activate
    pip install litert-torch==0.10.* torch torchvision   # torch 2.14.1, torchvision 0.29.2
    (ai-edge-litert 2.3.0 comes with it; torchao brings the PT2E API)

Usage:
    python make_torch.py                   # build the small models + manifest.json here
    python make_torch.py --only torch_cnn_f32 torch_cnn_int8
    python make_torch.py --oracles PYTHON  # then run the three oracles of
                                           # ../../../shared/tools on each model with the
                                           # interpreter PYTHON (it needs tflite-micro,
                                           # ai-edge-litert 2.3.0, gcc and gdb)
    python make_torch.py --readme          # README.md from manifest.json + oracle JSON
    python make_torch.py --big DIR [--oracles PYTHON]
                                           # full-size torchvision models at 224x224 into
                                           # DIR, for measuring only (too big to commit)

PT2E int8: torch.export -> torchao prepare_pt2e with litert_torch's PT2EQuantizer
(get_symmetric_quantization_config(is_per_channel=True): int8 activations, per-tensor
affine with a histogram observer; int8 weights, per-channel symmetric) -> calibration
on 16 seeded random inputs -> convert_pt2e(fold_quantize=False) -> litert_torch.convert
with QuantConfig(pt2e_quantizer=...) (the converter's "STATIC" QDQ mode).  The result
has int8 input and output.
"""
import argparse
import json
import os
import subprocess
import sys
import traceback

import torch
from torch import nn

HERE = os.path.dirname(os.path.abspath(__file__))
ORACLES = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "tools"))
SEED = 0
CALIBRATION_SAMPLES = 16


# ---------------------------------------------------------------- models


class SmallCnn(nn.Module):
    """Conv(stride 2, padding 1) -> BN -> ReLU -> depthwise(stride 2, padding 1) -> BN
    -> ReLU -> pointwise -> BN -> ReLU -> Conv(3x3, padding 1) -> ReLU -> GAP -> Linear.

    A stride-2 convolution with PyTorch's symmetric padding=1 on an even input is not
    TF's SAME (which pads bottom/right only), so the converter writes an explicit PAD
    and a VALID convolution; the stride-1 padding=1 convolution becomes SAME."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.dw = nn.Conv2d(16, 16, 3, stride=2, padding=1, groups=16, bias=False)
        self.bn2 = nn.BatchNorm2d(16)
        self.pw = nn.Conv2d(16, 32, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(32)
        self.conv = nn.Conv2d(32, 32, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.stem(x)))
        x = torch.relu(self.bn2(self.dw(x)))
        x = torch.relu(self.bn3(self.pw(x)))
        x = torch.relu(self.conv(x))
        return self.fc(torch.flatten(self.pool(x), 1))


class SmallResNet(nn.Module):
    """Stem conv + two torchvision BasicBlocks (the second strided, with a 1x1
    projection shortcut) + GAP + Linear: residual ADDs of int8 tensors."""

    def __init__(self):
        super().__init__()
        from torchvision.models.resnet import BasicBlock

        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=1, padding=1, bias=False),
            nn.BatchNorm2d(16), nn.ReLU(inplace=True))
        self.block1 = BasicBlock(16, 16)
        down = nn.Sequential(nn.Conv2d(16, 32, 1, stride=2, bias=False), nn.BatchNorm2d(32))
        self.block2 = BasicBlock(16, 32, stride=2, downsample=down)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.block2(self.block1(self.stem(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def transformer(activation):
    layer = nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64,
                                       dropout=0.0, activation=activation,
                                       batch_first=True)
    return nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)


def randomise_bn(model, gen):
    """Give every BatchNorm non-trivial running statistics and affine parameters (a
    fresh BN is the identity in eval mode, which would hide nothing but is unlike a
    trained model)."""
    for mod in model.modules():
        if isinstance(mod, nn.BatchNorm2d):
            n = mod.num_features
            with torch.no_grad():
                mod.running_mean.copy_(torch.randn(n, generator=gen) * 0.1)
                mod.running_var.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                mod.weight.copy_(torch.rand(n, generator=gen) * 0.5 + 0.75)
                mod.bias.copy_(torch.randn(n, generator=gen) * 0.1)
    return model


def shufflenet_small():
    from torchvision.models.shufflenetv2 import ShuffleNetV2
    return ShuffleNetV2([4, 8, 4], [24, 48, 96, 192, 512], num_classes=10)


def tv(name, **kw):
    import torchvision
    return getattr(torchvision.models, name)(weights=None, **kw)


# name -> (what it is, builder, input shape, quantise?)
SMALL = [
    ("torch_cnn_f32",
     "small CNN: Conv2d(3->16, 3x3, stride 2, padding 1)+BN+ReLU (explicit PAD then "
     "VALID CONV_2D), depthwise Conv2d(16, 3x3, stride 2, padding 1)+BN+ReLU (PAD + "
     "DEPTHWISE_CONV_2D), pointwise 16->32+BN+ReLU, Conv2d(32, 3x3, padding 1)+ReLU "
     "(SAME), AdaptiveAvgPool2d(1) (MEAN), Linear(32->10) on NCHW 1x3x32x32 (input "
     "TRANSPOSE to NHWC), float32",
     SmallCnn, (1, 3, 32, 32), False),
    ("torch_cnn_int8",
     "torch_cnn_f32 quantised with PT2E static int8 (per-channel weights), int8 I/O",
     SmallCnn, (1, 3, 32, 32), True),
    ("torch_mobilenet_v3_f32",
     "torchvision mobilenet_v3_small(weights=None, width_mult=0.25, num_classes=10) on "
     "1x3x96x96: HARD_SWISH, squeeze-excite blocks (MEAN, CONV_2D+RELU, CONV_2D with "
     "hardsigmoid's +3 in its bias and RELU6 fused, MUL by 1/6, MUL), stride-2 PADs, "
     "float32",
     lambda: tv("mobilenet_v3_small", width_mult=0.25, num_classes=10),
     (1, 3, 96, 96), False),
    ("torch_shufflenet_f32",
     "torchvision ShuffleNetV2 with shufflenet_v2_x0_5's stages (repeats 4/8/4, "
     "channels 24/48/96/192) but a 512-channel conv5 instead of 1024 (x0_5 itself "
     "converts to 1547004 bytes, over the 1.5 MB limit), num_classes=10, on 1x3x64x64: "
     "channel shuffle as RESHAPE/TRANSPOSE/RESHAPE, channel split, float32",
     shufflenet_small, (1, 3, 64, 64), False),
    ("torch_shufflenet_x0_5_f32",
     "torchvision shufflenet_v2_x0_5(weights=None, num_classes=10) on 1x3x64x64, "
     "float32 (kept only if under the size limit; torch_shufflenet_f32 is the same "
     "network with a narrower conv5)",
     lambda: tv("shufflenet_v2_x0_5", num_classes=10), (1, 3, 64, 64), False),
    ("torch_resnet_int8",
     "small ResNet: Conv2d(3->16)+BN+ReLU stem, torchvision BasicBlock(16), "
     "BasicBlock(16->32, stride 2, 1x1 projection shortcut), GAP, Linear(32->10) on "
     "1x3x32x32, PT2E static int8 (per-channel weights), int8 I/O",
     SmallResNet, (1, 3, 32, 32), True),
    ("torch_transformer_f32",
     "nn.TransformerEncoder(TransformerEncoderLayer(d_model=32, nhead=4, "
     "dim_feedforward=64, dropout=0, activation='relu', batch_first=True), "
     "num_layers=2) on 1x16x32: attention (FULLY_CONNECTED / BATCH_MATMUL / SOFTMAX / "
     "TRANSPOSE), LayerNorm, float32",
     lambda: transformer("relu"), (1, 16, 32), False),
    ("torch_transformer_gelu_f32",
     "torch_transformer_f32 with activation='gelu' in the feed-forward (GELU), float32",
     lambda: transformer("gelu"), (1, 16, 32), False),
    ("torch_transformer_int8",
     "torch_transformer_f32 quantised with PT2E static int8 (per-channel weights): "
     "int8 input, FULLY_CONNECTED and the q/k/v RESHAPE/TRANSPOSE/SLICE in int8, "
     "attention, LayerNorm and residual ADDs left in float32 (DEQUANTIZE/QUANTIZE "
     "around them), float32 output",
     lambda: transformer("relu"), (1, 16, 32), True),
]

BIG = [
    ("torch_big_mobilenet_v3_small_f32",
     "torchvision mobilenet_v3_small(weights=None), 1000 classes, 1x3x224x224, float32",
     lambda: tv("mobilenet_v3_small"), (1, 3, 224, 224), False),
    ("torch_big_resnet18_f32",
     "torchvision resnet18(weights=None), 1000 classes, 1x3x224x224, float32",
     lambda: tv("resnet18"), (1, 3, 224, 224), False),
    ("torch_big_shufflenet_v2_x1_0_f32",
     "torchvision shufflenet_v2_x1_0(weights=None), 1000 classes, 1x3x224x224, float32",
     lambda: tv("shufflenet_v2_x1_0"), (1, 3, 224, 224), False),
]


# ---------------------------------------------------------------- conversion


def build(builder):
    torch.manual_seed(SEED)
    model = builder()
    randomise_bn(model, torch.Generator().manual_seed(SEED + 1))
    return model.eval()


def convert(model, shape, quantise):
    import litert_torch

    gen = torch.Generator().manual_seed(SEED + 2)
    sample = (torch.randn(*shape, generator=gen),)
    if not quantise:
        return litert_torch.convert(model, sample).model_content()
    from litert_torch.quantize import pt2e_quantizer
    from litert_torch.quantize.quant_config import QuantConfig
    from torchao.quantization.pt2e import quantize_pt2e

    exported = torch.export.export(model, sample).module()
    quantizer = pt2e_quantizer.PT2EQuantizer().set_global(
        pt2e_quantizer.get_symmetric_quantization_config(is_per_channel=True))
    prepared = quantize_pt2e.prepare_pt2e(exported, quantizer)
    for _ in range(CALIBRATION_SAMPLES):
        prepared(torch.randn(*shape, generator=gen))
    quantised = quantize_pt2e.convert_pt2e(prepared, fold_quantize=False)
    return litert_torch.convert(quantised, sample,
                                quant_config=QuantConfig(pt2e_quantizer=quantizer)
                                ).model_content()


def describe(data):
    """Operators per subgraph (builtin name, or CUSTOM:<code>) with their input
    tensor types, and the graph I/O types."""
    from ai_edge_litert import schema_py_generated as fb

    op_names = {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_")}
    type_names = {v: k for k, v in vars(fb.TensorType).items() if not k.startswith("_")}
    model = fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(data, 0))
    subgraphs, op_types, counts = [], [], {}
    for sg in model.subgraphs:
        names, typed = [], []
        for op in sg.operators or []:
            code = model.operatorCodes[op.opcodeIndex]
            num = max(code.builtinCode, code.deprecatedBuiltinCode)
            name = op_names.get(num, str(num))
            if name == "CUSTOM":
                name = "CUSTOM:" + (code.customCode or b"").decode()
            types = [type_names[sg.tensors[i].type] for i in (op.inputs if op.inputs is not None else []) if i >= 0]
            names.append(name)
            typed.append([name, types])
            counts[name] = counts.get(name, 0) + 1
        subgraphs.append(names)
        op_types.append(typed)
    sg0 = model.subgraphs[0]

    def io(indices):
        return [{"shape": [int(d) for d in sg0.tensors[i].shape],
                 "type": type_names[sg0.tensors[i].type]} for i in indices]

    return {"subgraphs": subgraphs, "op_types": op_types,
            "op_counts": dict(sorted(counts.items())),
            "inputs": io(sg0.inputs), "outputs": io(sg0.outputs),
            "tensors": [len(sg.tensors) for sg in model.subgraphs]}


def versions():
    import importlib.metadata as md

    out = {}
    for pkg in ("torch", "torchvision", "torchao", "litert-torch", "ai-edge-litert"):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = None
    return out


def make(specs, out_dir, only, limit_bytes):
    manifest = {"versions": versions(), "seed": SEED,
                "calibration_samples": CALIBRATION_SAMPLES, "models": [], "skipped": []}
    written = []
    for name, what, builder, shape, quantise in specs:
        if only and name not in only:
            continue
        rec = {"file": name + ".tflite", "name": name, "what": what,
               "input_shape": list(shape), "pt2e_int8": quantise}
        print("==", name, flush=True)
        try:
            data = convert(build(builder), shape, quantise)
        except Exception as exc:  # noqa: BLE001 -- the reason goes into the manifest
            traceback.print_exc()
            rec["reason"] = "%s: %s" % (type(exc).__name__, str(exc).strip().splitlines()[0][:400]
                                        if str(exc).strip() else "")
            manifest["skipped"].append(rec)
            continue
        if limit_bytes and len(data) > limit_bytes:
            rec["reason"] = "too big to commit: %d bytes" % len(data)
            manifest["skipped"].append(rec)
            continue
        path = os.path.join(out_dir, name + ".tflite")
        with open(path, "wb") as f:
            f.write(data)
        rec["bytes"] = len(data)
        rec.update(describe(data))
        if quantise:
            # what PT2E left in float (between DEQUANTIZE and QUANTIZE)
            floats = {}
            for op, types in rec["op_types"][0]:
                if op not in ("QUANTIZE", "DEQUANTIZE") and types and types[0] == "FLOAT32":
                    floats[op] = floats.get(op, 0) + 1
            rec["float_ops"] = dict(sorted(floats.items()))
        manifest["models"].append(rec)
        written.append(path)
        print("   %d bytes, ops %s" % (len(data), rec["op_counts"]), flush=True)
    return manifest, written


def run_oracles(python, paths):
    for tool in ("oracle_litert.py", "oracle_tflm.py", "oracle_xnnpack.py"):
        cmd = [python, os.path.join(ORACLES, tool)] + paths
        print("$", " ".join(cmd), flush=True)
        subprocess.run(cmd, check=False)


def load_json(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def oracle_cells(base):
    """One table row's LiteRT / TFLM / XNNPACK cells, and notes, from the oracle JSON."""
    notes = []
    lit = load_json(base + ".litert.json")
    if lit is None:
        c_lit = "no JSON"
    else:
        arena = lit["arena"]
        c_lit = "%d B" % arena["used_bytes"]
        if arena["used_bytes"] != arena["used_bytes_model_tensors"]:
            c_lit += " (model tensors %d; %d kernel tensors)" % (
                arena["used_bytes_model_tensors"], arena.get("num_extra_tensors", 0))
    tflm = load_json(base + ".tflm.json")
    if tflm is None:
        c_tflm = "no JSON"
    elif tflm.get("loaded"):
        c_tflm = "%d B (head %d, tail %d)" % (tflm["total_bytes"], tflm["head_bytes"],
                                             tflm["tail_bytes"])
    else:
        first = (tflm.get("error") or "").strip().splitlines()
        c_tflm = "refused: " + (first[0] if first else "not loaded")
    xnn = load_json(base + ".xnnpack.json")
    if xnn is None:
        c_xnn = "no JSON"
    elif not xnn.get("loaded"):
        c_xnn = "not loaded: %s" % (xnn.get("error") or "")[:80]
    else:
        dl = xnn.get("delegated") or {}
        names = {n[0]: n[1] for n in xnn.get("nodes", [])}
        rest = []
        for n in dl.get("non_delegated_nodes", []):
            if isinstance(n, list) and len(n) >= 2:
                rest.append("node %s %s" % (n[0], n[1]))
            else:
                rest.append("node %s %s" % (n, names.get(n, "?")))
        ws = xnn.get("xnnpack_workspace") or {}
        c_xnn = "%d partition(s), workspace %s B, TFLite arena %d B" % (
            len(dl.get("partitions", [])), ws.get("planned_bytes"),
            xnn["tflite_arena"]["used_bytes"])
        if rest:
            c_xnn += "; left to TFLite: " + ", ".join(rest)
        check = xnn.get("self_check") or {}
        if not check.get("ok", True):
            dims = (check.get("tensor_dims") or {}).get("mismatches", [])
            if dims:
                notes.append("XNNPACK oracle self_check: %d value(s) whose XNNPACK dims differ "
                             "from the TFLite tensor's shape (%s); the workspace checks "
                             "(plan + 32 = measured, allocation sequence) hold" % (
                                 len(dims), "; ".join("tensor %d %s vs value %s" % (
                                     m["tensor"], m["tensor_shape"], m["dims"]) for m in dims)))
            else:
                notes.append("XNNPACK oracle self_check failed: %s" % json.dumps(check)[:200])
    return c_lit, c_tflm, c_xnn, notes


def fmt_ops(counts):
    return ", ".join("%s %d" % (k, v) if v > 1 else k for k, v in counts.items())


def write_readme(manifest_path, out_path, title_dir):
    man = load_json(manifest_path)
    v = man["versions"]
    lines = [
        "# PyTorch models (litert-torch)" if title_dir is None else
        "# PyTorch models (litert-torch), measuring only",
        "",
        "PyTorch models with seeded random weights (torch seed %d, nothing downloaded), "
        "converted to `.tflite` by litert-torch %s (torch %s, torchvision %s, torchao %s, "
        "ai-edge-litert %s) and made by `make_torch.py`; each has the ground truth of the "
        "three oracles of `/work/shared/tools` beside it (`<name>.litert.json`, "
        "`<name>.tflm.json`, `<name>.xnnpack.json`). They carry the patterns only a "
        "PyTorch model has after conversion: the NCHW input TRANSPOSE, the explicit PAD "
        "before a strided convolution with symmetric padding (PADV2 with -inf before a "
        "padded max-pool), torchvision's hardswish / squeeze-excite / channel shuffle, "
        "the attention and LayerNorm of `nn.TransformerEncoder`, and PT2E static int8."
        % (man["seed"], v.get("litert-torch"), v.get("torch"), v.get("torchvision"),
           v.get("torchao"), v.get("ai-edge-litert")),
        "",
        "`manifest.json` lists for every file what it is, its operators per subgraph "
        "(with their input tensor types), operator counts, graph I/O types, for PT2E "
        "models the operators left in float, and every model that was not written, with "
        "the reason.",
        "",
        "PT2E int8: `torch.export` → torchao `prepare_pt2e` with litert-torch's "
        "`PT2EQuantizer` (`get_symmetric_quantization_config(is_per_channel=True)`) → "
        "%d seeded random calibration inputs → `convert_pt2e(fold_quantize=False)` → "
        "`litert_torch.convert(..., quant_config=QuantConfig(pt2e_quantizer=...))`."
        % man["calibration_samples"],
        "",
        "## Models",
        "",
        "| file | what it is | bytes | operators (subgraph 0) |",
        "|---|---|---|---|",
    ]
    for r in man["models"]:
        ops = fmt_ops(r["op_counts"])
        if r.get("float_ops"):
            ops += " — left in float: " + fmt_ops(r["float_ops"])
        lines.append("| %s | %s | %d | %s |" % (r["file"], r["what"], r["bytes"], ops))
    for r in man["skipped"]:
        lines.append("| %s | not written: %s | | |" % (r["file"], r["reason"]))
    lines += [
        "",
        "## Oracles",
        "",
        "LiteRT = `oracle_litert.py` (no delegate): arena used bytes; TFLM = "
        "`oracle_tflm.py`: `tensor_arena_size` total (head / tail, 64-bit host), or why "
        "it refused the model; XNNPACK = `oracle_xnnpack.py`: partitions, the planned "
        "XNNPACK workspace, LiteRT's arena with the delegate, and the nodes it left to "
        "TFLite.",
        "",
        "| file | LiteRT arena | TFLM | XNNPACK |",
        "|---|---|---|---|",
    ]
    notes = []
    base_dir = os.path.dirname(manifest_path)
    for r in man["models"]:
        c_lit, c_tflm, c_xnn, n = oracle_cells(os.path.join(base_dir, r["name"]))
        lines.append("| %s | %s | %s | %s |" % (r["file"], c_lit, c_tflm, c_xnn))
        notes += ["%s: %s" % (r["file"], x) for x in n]
    if notes:
        lines += ["", "Notes from the oracle JSON:", ""] + ["- " + x for x in notes]
    lines += [
        "",
        "## Regenerate",
        "",
        "```",
        "pip install litert-torch==0.10.* torch torchvision   # brings ai-edge-litert, torchao",
        "python make_torch.py                       # the models + manifest.json (seeded:",
        "                                           # a rebuild is byte-identical)",
        "python make_torch.py --only torch_cnn_f32  # rebuild some, keep the rest of the manifest",
        "python make_torch.py --oracles PYTHON      # ... then run the three oracles with PYTHON",
        "                                           # (a venv with tflite-micro, ai-edge-litert",
        "                                           # 2.3.0; gcc and gdb installed)",
        "python make_torch.py --readme              # this file, from manifest.json + oracle JSON",
        "python make_torch.py --big DIR --oracles PYTHON   # full-size torchvision models at",
        "                                           # 224x224 (10-47 MB: measuring only, not",
        "                                           # committed)",
        "```",
        "",
        "Licence: Apache-2.0 (this project; torchvision architectures are BSD-3-Clause code, "
        "used here with random weights).",
        "",
    ]
    with open(out_path, "w") as f:
        f.write("\n".join(lines))
    print("wrote", out_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="+", help="build only these model names")
    ap.add_argument("--big", metavar="DIR",
                    help="build the full-size torchvision models into DIR instead")
    ap.add_argument("--oracles", metavar="PYTHON",
                    help="run the three oracles with this interpreter afterwards")
    ap.add_argument("--readme", action="store_true",
                    help="write README.md from manifest.json and the oracle JSON, then stop "
                         "(with --big: DIR/README.md)")
    args = ap.parse_args()

    if args.readme:
        if args.big:
            write_readme(os.path.join(args.big, "manifest.json"),
                         os.path.join(args.big, "README.md"), args.big)
        else:
            write_readme(os.path.join(HERE, "manifest.json"), os.path.join(HERE, "README.md"),
                         None)
        return 0

    if args.big:
        os.makedirs(args.big, exist_ok=True)
        manifest, written = make(BIG, args.big, args.only, None)
        out = os.path.join(args.big, "manifest.json")
    else:
        # the committed models stay small: refuse anything over 1.5 MB
        manifest, written = make(SMALL, HERE, args.only, 1_500_000)
        out = os.path.join(HERE, "manifest.json")
        if args.only and os.path.exists(out):
            # rebuild only some: keep the other entries of the existing manifest
            with open(out) as f:
                old = json.load(f)
            order = [s[0] for s in SMALL]
            for key in ("models", "skipped"):
                merged = [r for r in old.get(key, []) if r["name"] not in args.only]
                merged += manifest[key]
                manifest[key] = sorted(merged, key=lambda r: order.index(r["name"]))
    with open(out, "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("%d models, %d skipped -> %s" % (len(manifest["models"]), len(manifest["skipped"]), out))
    if args.oracles and written:
        run_oracles(args.oracles, written)


if __name__ == "__main__":
    sys.exit(main())
