"""Regenerates the operator catalogue's VERIFIED tables (src/analysis/catalogue/*.rs).

An operator x type variant is verified for a runtime when the models that contain it are
reproduced exactly against that runtime's oracle, and no model that is NOT reproduced
consists only of verified variants (a fixpoint removes the variants of such a model: one
of them must be what differs). Exactness comes from the project's own tests:
  * corpus models (sample_models/, ../shared/models, ../shared/models/tflm) whose oracle
    loaded them: the oracle tests assert every one of them exact;
  * sweep models (sample_models/ops/, and the PyTorch models of sample_models/torch/):
    the lists the sweep tests print,
    `cargo test --release --test oracle the_operator_sweep -- --nocapture` (LiteRT, TFLM)
    and `cargo test --release --test xnnpack the_delegate_emulation -- --nocapture`.
A model's variants are what `arenascope ops --model M --format json` lists. The XNNPACK table
holds the builtins the delegate refuses too: what TFLite does with them in the delegated graph
is verified there, not by LiteRT's table.

Usage (from the repository root, after `cargo build --release`):
    python3 sample_models/ops/gen_catalogue.py
then regenerate docs/operators.md and the README's coverage table.
"""
import glob
import json
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = ["sample_models", "../shared/models", "../shared/models/tflm"]
SWEEPS = ["sample_models/ops", "sample_models/torch", "sample_models/xnnpack_rules"]
BIN = os.path.join(ROOT, "target/release/arenascope")


def cargo_lines(test, name):
    out = subprocess.run(["cargo", "test", "--release", "--test", test, name, "--",
                          "--nocapture"], cwd=ROOT, capture_output=True, text=True).stdout
    return out.splitlines()


def sweep_exact():
    exact = {}
    for line in cargo_lines("oracle", "the_operator_sweep"):
        for rt in ("litert", "tflm"):
            if line.startswith(rt + " exact: "):
                exact[rt] = set(filter(None, line.split(": ", 1)[1].split(",")))
    explained = set()
    for line in cargo_lines("xnnpack", "the_delegate_emulation"):
        if line.startswith("exact: "):
            exact["xnnpack"] = set(re.findall(r'"([^"]+)"', line))
        cells = [c.strip() for c in line.split("|")]
        # A row whose last column names nodes the delegation does not model is explained by
        # them: its other variants are not suspects.
        if line.startswith("| ") and len(cells) > 2 and cells[-2] and cells[1] != "model":
            explained.add(cells[1])
    exact["xnnpack explained"] = explained
    return exact


def pairs_of(path):
    out = subprocess.run([BIN, "ops", "--model", path, "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None
    return {"%s/%s" % (p["op"], p["types"]) for p in json.loads(out.stdout)}


def oracle(d, stem, rt):
    p = os.path.join(ROOT, d, "%s.%s.json" % (stem, rt))
    if not os.path.exists(p):
        return None
    try:
        j = json.load(open(p))
    except ValueError:
        return None
    if j.get("loaded") is True or (j.get("loaded") is None and not j.get("error")):
        return j
    return None


def main():
    exact_sweep = sweep_exact()
    models = {}
    for d in CORPUS + SWEEPS:
        for f in sorted(glob.glob(os.path.join(ROOT, d, "*.tflite"))):
            stem = os.path.basename(f)[:-len(".tflite")]
            p = pairs_of(f)
            if p is not None and stem not in models:
                models[stem] = (d, p)
    tables = {}
    for rt in ("litert", "tflm", "xnnpack"):
        exact, mismatched = [], []
        for stem, (d, pairs) in models.items():
            if oracle(d, stem, rt) is None:
                continue
            if d in SWEEPS:
                (exact if stem in exact_sweep.get(rt, set()) else mismatched).append(stem)
            else:
                exact.append(stem)

        def keep(p):
            op = p.split("/")[0]
            if op.startswith("ethos-u"):
                return False
            if rt != "tflm" and op.startswith("Signal"):
                return False
            return True
        pairs = {m: {p for p in models[m][1] if keep(p)} for m in exact + mismatched}
        V = set().union(*(pairs[m] for m in exact)) if exact else set()
        changed = True
        while changed:
            changed = False
            for m in mismatched:
                if m in exact_sweep.get(rt + " explained", set()):
                    continue
                if pairs[m] and pairs[m] <= V:
                    V -= pairs[m]
                    changed = True
        sweep = exact_sweep.get(rt, set())
        by = {p: sorted((m for m in exact if p in pairs[m]), key=lambda m: (m in sweep, m))
              for p in V}
        tables[rt] = (V, by)
        print(rt, "verified variants", len(V), "ops", len({p.split("/")[0] for p in V}),
              "exact models", len(exact), "not exact", len(mismatched))
    for rt, (V, by) in tables.items():
        path = os.path.join(ROOT, "src/analysis/catalogue/%s.rs" % rt)
        src = open(path).read()
        i = src.index("/// The verified operator")
        s = ("/// The verified operator × type variants and the models (`sample_models/`, "
             "`sample_models/ops/`,\n/// `../shared/models`) that verify them, at most six "
             "each. Generated by\n/// `sample_models/ops/gen_catalogue.py`.\n"
             "pub const VERIFIED: &[Verified] = &[\n")
        for p in sorted(V):
            op, t = p.split("/")
            ms = ", ".join('"%s"' % m for m in by[p][:6])
            s += ('    Verified {\n        op: "%s",\n        types: "%s",\n'
                  '        by: &[%s],\n    },\n' % (op, t, ms))
        s += "];\n"
        open(path, "w").write(src[:i] + s)
    subprocess.run(["rustfmt", "--edition", "2021"] +
                   [os.path.join(ROOT, "src/analysis/catalogue/%s.rs" % r) for r in tables])


if __name__ == "__main__":
    main()
