#!/usr/bin/env python3
"""The optimize check (issue 10): for every model and runtime given, run `arenascope
optimize`; where it writes a model, run the original and the optimised one in the real
runtimes and check that the arena the runtime reports equals the one `optimize` predicted
(LiteRT: oracle_litert.py's arena, single-subgraph models; TFLM: run_model.py's head) and that
the outputs are bit-identical where the original runs.

    optimize_check.py ARENASCOPE TOOLS_DIR MODEL.tflite...

Prints a table; exits 1 on any mismatch.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    binary, tools, models = sys.argv[1], sys.argv[2], sys.argv[3:]
    work = tempfile.mkdtemp(prefix="optimize-check-")
    rows, failures = [], 0
    for model in models:
        name = os.path.splitext(os.path.basename(model))[0]
        for runtime in ["litert", "tflm"]:
            out = os.path.join(work, f"{name}.{runtime}.tflite")
            r = subprocess.run([binary, "optimize", model, "--out", out, "--runtime", runtime,
                                "--format", "json"], capture_output=True, text=True)
            if r.returncode != 0:
                rows.append((name, runtime, "—", "—", "—", "not written: " + r.stderr.strip()[:90]))
                continue
            report = json.loads(r.stdout)
            before, after = report["before"]["arena_bytes"], report["after"]["arena_bytes"]
            run = json.loads(subprocess.run([sys.executable, os.path.join(tools, "run_model.py"), model, out],
                                            check=True, capture_output=True, text=True).stdout)
            identical = run["outputs_identical"]
            if not run[model][runtime].get("loaded"):
                rows.append((name, runtime, before, after, "—",
                             f"{runtime} cannot load the original: not compared"))
                continue
            if runtime == "tflm":
                real = run[out]["tflm"].get("head")
            else:
                subprocess.run([sys.executable, os.path.join(tools, "oracle_litert.py"), out,
                                "--out-dir", work], check=True, capture_output=True)
                truth = json.load(open(os.path.join(work, f"{name}.{runtime}.litert.json")))
                real = truth["arena"]["used_bytes"]
            runs = run[model][runtime].get("invoked")
            ok = real == after and after < before and (identical.get(runtime) is True or not runs)
            failures += not ok
            rows.append((name, runtime, before, after, real,
                         ("ok" if ok else "MISMATCH") + f", outputs identical {identical}"))
    print("| model | runtime | arena before | predicted after | real after | |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(str(x) for x in r) + " |")
    written = sum(1 for r in rows if r[4] != "—")
    print(f"optimize-check: {written - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
