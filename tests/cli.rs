//! The command line's formats (DESIGN.md §3.1, §3.2), checked as a reader would check them.

mod common;

use std::path::PathBuf;

use common::arenascope;
use serde_json::Value;

fn sample(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(name)
        .to_string_lossy()
        .to_string()
}

fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        common::skipped(&format!("../shared/{rel} is not beside this checkout"));
        None
    }
}

/// Checks a plan entry without the tool: aligned offsets, no two buffers alive at the same step
/// sharing bytes (aliases excluded), arena = max end.
fn check_entry_valid(e: &Value) {
    let align = e["alignment"].as_u64().unwrap();
    let bufs: Vec<&Value> = e["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["alias_of"].is_null())
        .collect();
    let mut top = 0;
    for (i, a) in bufs.iter().enumerate() {
        let (ao, ab) = (a["offset"].as_u64().unwrap(), a["bytes"].as_u64().unwrap());
        if e["planner"] != "tflm" {
            assert_eq!(ao % align, 0, "{a}");
        }
        top = top.max(ao + ab);
        for b in &bufs[i + 1..] {
            let (bo, bb) = (b["offset"].as_u64().unwrap(), b["bytes"].as_u64().unwrap());
            let time = a["first"].as_u64() <= b["last"].as_u64()
                && b["first"].as_u64() <= a["last"].as_u64();
            let space = ao < bo + bb && bo < ao + ab && ab > 0 && bb > 0;
            // Offsets fixed by the file (an offline plan) may share bytes by the file's choice.
            let both_fixed = a["fixed"] == true && b["fixed"] == true;
            let space = space && !both_fixed;
            assert!(
                !(time && space),
                "{} overlaps {} in {}",
                a["name"],
                b["name"],
                e["planner"]
            );
        }
    }
    assert_eq!(e["arena_bytes"].as_u64().unwrap(), top);
    assert!(e["arena_bytes"].as_u64() >= e["lower_bound"].as_u64());
}

#[test]
fn plan_json_has_the_documented_shape_and_valid_plans() {
    let (code, out, err) =
        arenascope(&["plan", &sample("mnist_conv_f32.tflite"), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["format"], "arenascope-plan");
    assert_eq!(doc["version"], 1);
    assert_eq!(doc["model"]["tensors"], 10);
    assert_eq!(doc["model"]["operators"], 5);
    assert_eq!(doc["model"]["subgraphs"], 1);
    let plans = doc["plans"].as_array().unwrap();
    let ids: Vec<&str> = plans
        .iter()
        .map(|p| p["planner"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "naive",
            "litert",
            "first-fit-scan",
            "best-fit-coalesce",
            "size-first-fit",
            "size-best-fit",
            "interval-coloring",
            "greedy-breadth",
            "hill-climb"
        ]
    );
    for p in plans {
        for key in [
            "lifetimes",
            "subgraph",
            "alignment",
            "arena_bytes",
            "lower_bound",
            "optimal",
            "seconds",
            "persistent_bytes",
            "buffers",
        ] {
            assert!(p.get(key).is_some(), "missing {key}");
        }
        check_entry_valid(p);
    }
    let litert = &plans[1];
    assert_eq!(litert["arena_bytes"], 70736);
    assert_eq!(litert["lower_bound"], 70736);
    assert_eq!(litert["optimal"], true);
    // RESHAPE's output (tensor 7) shares tensor 6's bytes in place.
    let t7 = litert["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["tensor"] == 7)
        .unwrap();
    assert_eq!(t7["alias_of"], 6);
    assert_eq!(t7["offset"], 46400);
    // The im2col temporary is numbered after the model's 10 tensors.
    let t10 = litert["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["tensor"] == 10)
        .unwrap();
    assert_eq!(t10["kind"], "scratch");
    assert_eq!(t10["bytes"], 24336);
}

#[test]
fn plan_json_on_tflm_lifetimes_has_one_plan_per_planner_with_null_subgraph() {
    let (code, out, err) = arenascope(&[
        "plan",
        &sample("while_loop_f32.tflite"),
        "--lifetimes",
        "tflm",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let plans = doc["plans"].as_array().unwrap();
    assert!(plans
        .iter()
        .all(|p| p["subgraph"].is_null() && p["lifetimes"] == "tflm"));
    let tflm = plans.iter().find(|p| p["planner"] == "tflm").unwrap();
    assert_eq!(tflm["arena_bytes"], 464);
    // Tensors of all three subgraphs are in the one arena.
    let subgraphs: std::collections::BTreeSet<u64> = tflm["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["subgraph"].as_u64().unwrap())
        .collect();
    assert_eq!(subgraphs.len(), 3);
    for p in plans {
        check_entry_valid(p);
    }
}

#[test]
fn plan_csv_has_the_documented_header_and_a_row_per_buffer() {
    let (code, out, _) = arenascope(&[
        "plan",
        &sample("mnist_conv_f32.tflite"),
        "--planner",
        "litert",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0);
    let mut lines = out.lines();
    assert_eq!(
        lines.next(),
        Some("planner,subgraph,tensor,name,kind,bytes,first,last,offset,alias_of")
    );
    // 7 arena tensors: 6 buffers and the RESHAPE alias.
    assert_eq!(lines.count(), 7);
}

#[test]
fn planners_lists_every_id() {
    let (code, out, _) = arenascope(&["planners"]);
    assert_eq!(code, 0);
    for id in [
        "naive",
        "litert",
        "tflm",
        "first-fit-scan",
        "best-fit-coalesce",
        "size-first-fit",
        "size-best-fit",
        "interval-coloring",
        "greedy-breadth",
        "hill-climb",
    ] {
        assert!(out.lines().any(|l| l.starts_with(id)), "{id} missing");
    }
}

#[test]
fn solve_writes_the_input_rows_with_an_offset_column() {
    let dir = std::env::temp_dir().join(format!("arenascope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("textbook.csv");
    std::fs::write(
        &input,
        "id,lower,upper,size\n0,0,2,10\n1,1,3,20\n2,2,4,15\n",
    )
    .unwrap();
    let solution = dir.join("solution.csv");
    let (code, _, err) = arenascope(&[
        "solve",
        input.to_str().unwrap(),
        "--planner",
        "size-first-fit",
        "--out",
        solution.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&solution).unwrap(),
        "id,lower,upper,size,offset\n0,0,2,10,20\n1,1,3,20,0\n2,2,4,15,20\n"
    );
    // --capacity: 35 fits size-first-fit; 34 fits nothing (exit 1).
    let (code, out, _) = arenascope(&[
        "solve",
        input.to_str().unwrap(),
        "--capacity",
        "35",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let arr: Value = serde_json::from_str(&out).unwrap();
    let sff = arr
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["planner"] == "size-first-fit")
        .unwrap();
    assert_eq!(sff["fits"], true);
    let (code, _, _) = arenascope(&["solve", input.to_str().unwrap(), "--capacity", "34"]);
    assert_eq!(code, 1);
    // --out with two planners is a usage error.
    let (code, _, _) = arenascope(&[
        "solve",
        input.to_str().unwrap(),
        "--out",
        solution.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
}

#[test]
fn solve_reads_every_minimalloc_benchmark_and_finds_its_lower_bound() {
    let Some(dir) = shared("benchmarks/minimalloc") else {
        return;
    };
    // Lower bounds (max-live) of the challenging suite, from the issue and MiniMalloc's paper.
    let expected = [("C", 1039360u64), ("D", 986112), ("J", 989184)];
    let mut files = Vec::new();
    for sub in ["challenging", "examples"] {
        for e in std::fs::read_dir(dir.join(sub)).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    assert_eq!(files.len(), 12);
    for f in files {
        let (code, out, err) = arenascope(&[
            "solve",
            f.to_str().unwrap(),
            "--format",
            "json",
            "--time-limit",
            "1",
        ]);
        assert_eq!(code, 0, "{}: {err}", f.display());
        let arr: Value = serde_json::from_str(&out).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let lb = arr[0]["lower_bound"].as_u64().unwrap();
        if let Some((_, want)) = expected
            .iter()
            .find(|(n, _)| name.starts_with(&format!("{n}.")))
        {
            assert_eq!(lb, *want, "{name}");
        } else if name.contains("1048576") {
            assert_eq!(lb, 1048576, "{name}");
        }
        for p in arr.as_array().unwrap() {
            assert!(p["arena_bytes"].as_u64().unwrap() >= lb);
        }
    }
}

#[test]
fn plan_runs_on_every_shared_model_with_every_planner() {
    let Some(dir) = shared("models") else { return };
    let mut n = 0;
    for sub in [dir.clone(), dir.join("tflm")] {
        for e in std::fs::read_dir(sub).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "tflite") {
                for l in ["litert", "tflm"] {
                    let (code, out, err) = arenascope(&[
                        "plan",
                        p.to_str().unwrap(),
                        "--lifetimes",
                        l,
                        "--format",
                        "json",
                        "--time-limit",
                        "1",
                    ]);
                    assert_eq!(code, 0, "{}: {err}", p.display());
                    let doc: Value = serde_json::from_str(&out).unwrap();
                    for e in doc["plans"].as_array().unwrap() {
                        check_entry_valid(e);
                    }
                }
                n += 1;
            }
        }
    }
    assert_eq!(n, 21);
}

/// Issue 4's decision mode: `exact` fits each of the 11 challenging problems in 1048576 bytes;
/// the solution it writes is checked here against the input, buffer by buffer.
#[test]
fn exact_fits_every_challenging_minimalloc_problem_in_its_capacity() {
    let Some(dir) = shared("benchmarks/minimalloc") else {
        return;
    };
    let out_dir = std::env::temp_dir().join(format!("arenascope-exact-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("challenging"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 11);
    for f in files {
        let solution = out_dir.join(f.file_name().unwrap());
        let (code, out, err) = arenascope(&[
            "solve",
            f.to_str().unwrap(),
            "--planner",
            "exact",
            "--capacity",
            "1048576",
            "--time-limit",
            "60",
            "--out",
            solution.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{}: {out}{err}", f.display());
        assert!(out.contains("exact: fits in 1048576 bytes"), "{out}");
        let (_, problem) =
            arenascope::analysis::csv::read_problem(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let written = std::fs::read_to_string(&solution).unwrap();
        let offsets: Vec<u64> = written
            .lines()
            .skip(1)
            .map(|l| l.rsplit(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(
            arenascope::plan::validate(&problem, &offsets, Some(1048576)),
            Ok(()),
            "{}",
            f.display()
        );
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn a_runtime_emulation_named_explicitly_runs_on_its_own_runtimes_problem() {
    let model = sample("mnist_conv_f32.tflite");
    // Default litert lifetimes, --planner tflm: TFLM's problem, its header line, TFLM's head
    // (54080 B, the oracle's head_bytes in sample_models/mnist_conv_f32.tflm.json).
    let (code, out, err) = arenascope(&["plan", &model, "--planner", "tflm"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("— all subgraphs, tflm lifetimes: 6 buffers"),
        "{out}"
    );
    let row = out.lines().find(|l| l.starts_with("tflm ")).expect(&out);
    assert_eq!(row.split_whitespace().nth(1), Some("54080"), "{row}");
    assert!(
        !out.contains("litert lifetimes"),
        "no empty litert section: {out}"
    );
    // And the other way round, next to a generic planner on tflm lifetimes.
    let (code, out, err) = arenascope(&[
        "plan",
        &model,
        "--lifetimes",
        "tflm",
        "--planner",
        "litert",
        "--planner",
        "size-best-fit",
    ]);
    assert_eq!(code, 0, "{err}");
    let tflm_part = &out[..out.find("litert lifetimes").expect(&out)];
    assert!(tflm_part.contains("size-best-fit"), "{out}");
    let row = out.lines().find(|l| l.starts_with("litert ")).expect(&out);
    assert_eq!(row.split_whitespace().nth(1), Some("70736"), "{row}");
    // In JSON: the plan says which lifetimes it is on, in registry order.
    let (code, out, _) = arenascope(&[
        "plan",
        &model,
        "--planner",
        "tflm",
        "--planner",
        "naive",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let plans = doc["plans"].as_array().unwrap();
    let got: Vec<(&str, &str)> = plans
        .iter()
        .map(|p| {
            (
                p["planner"].as_str().unwrap(),
                p["lifetimes"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(got, vec![("naive", "litert"), ("tflm", "tflm")]);
    assert!(plans[1]["subgraph"].is_null());
    assert_eq!(plans[1]["arena_bytes"], 54080);
    for e in plans {
        check_entry_valid(e);
    }
}

#[test]
fn a_planner_that_runs_on_nothing_is_a_usage_error_not_an_empty_table() {
    // An export of a subgraph the model does not have names it.
    let out_file = std::env::temp_dir().join(format!("arenascope-none-{}.svg", std::process::id()));
    let (code, out, err) = arenascope(&[
        "export",
        &sample("mnist_conv_f32.tflite"),
        "--view",
        "layout",
        "--subgraph",
        "3",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no subgraph 3"), "{err}");
}

#[test]
fn unnamed_tensors_are_shown_by_index_and_producer() {
    // TFLM's keyword model has no tensor names at all.
    let (code, out, err) = arenascope(&[
        "plan",
        &sample("keyword_scrambled.tflite"),
        "--lifetimes",
        "tflm",
        "--planner",
        "tflm",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let buffers = doc["plans"][0]["buffers"].as_array().unwrap();
    assert!(buffers
        .iter()
        .all(|b| !b["name"].as_str().unwrap().is_empty()));
    let name = |t: u64| {
        buffers
            .iter()
            .find(|b| b["tensor"] == t)
            .map(|b| b["name"].as_str().unwrap().to_string())
    };
    assert_eq!(name(8).as_deref(), Some("#8 · FULLY_CONNECTED out"));
    assert_eq!(name(5).as_deref(), Some("#5 · SVDF out"));
}

#[test]
fn a_budget_adds_a_fits_column_and_exits_0_either_way() {
    let model = sample("mnist_conv_f32.tflite");
    // 70K = 71680 B: litert's 70736 fits, naive's 81680 misses by 10000.
    let (code, out, err) = arenascope(&["plan", &model, "--budget", "70K"]);
    assert_eq!(code, 0, "{err}");
    let row = |id: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("{out}"))
            .to_string()
    };
    assert!(row("litert").ends_with("  yes"), "{out}");
    assert!(row("naive").ends_with("no, 10000 B over"), "{out}");
    let (code, out, _) = arenascope(&["plan", &model, "--budget", "71680", "--format", "json"]);
    assert_eq!(code, 0);
    let doc: Value = serde_json::from_str(&out).unwrap();
    for p in doc["plans"].as_array().unwrap() {
        let fits = p["arena_bytes"].as_u64().unwrap() <= 71680;
        assert_eq!(p["fits"], fits, "{}", p["planner"]);
    }
    // Nothing fits in 1 KiB: still exit 0.
    let (code, out, _) = arenascope(&["plan", &model, "--budget", "1K"]);
    assert_eq!(code, 0);
    assert!(!out.lines().any(|l| l.ends_with("  yes")), "{out}");
}

#[test]
fn a_budget_that_does_not_parse_is_a_usage_error() {
    let model = sample("mnist_conv_f32.tflite");
    for bad in ["12X", "-5", "281474976710657", "1.5M"] {
        let (code, out, err) = arenascope(&["plan", &model, &format!("--budget={bad}")]);
        assert_eq!(code, 2, "{bad}: {out}{err}");
        assert_eq!(err.trim().lines().count(), 1, "one sentence: {err}");
        assert!(err.contains(bad), "{err}");
        assert!(out.is_empty());
    }
}

#[test]
fn tflm_plans_report_the_whole_tensor_arena_size_and_budgets_count_the_tail() {
    // keyword_scrambled: TFLM's own head 672 + tail 14480 = 15152 (the oracle's total_bytes
    // in sample_models/keyword_scrambled.tflm.json).
    let model = sample("keyword_scrambled.tflite");
    let (code, out, err) = arenascope(&[
        "plan",
        &model,
        "--lifetimes",
        "tflm",
        "--planner",
        "tflm",
        "--planner",
        "naive",
        "--format",
        "json",
        "--budget",
        "16K",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let plans = doc["plans"].as_array().unwrap();
    let tflm = plans.iter().find(|p| p["planner"] == "tflm").unwrap();
    let arena = &tflm["tflm_arena"];
    assert_eq!(
        (
            arena["head"].as_u64(),
            arena["tail"].as_u64(),
            arena["total"].as_u64()
        ),
        (Some(672), Some(14480), Some(15152))
    );
    assert_eq!(arena["pointer_bytes"], 8);
    assert_eq!(arena["measured"], true);
    assert_eq!(arena["head_when_written"], 672);
    let parts: u64 = arena["tail_breakdown"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["bytes"].as_u64().unwrap())
        .sum();
    assert!(
        parts < 14480,
        "the breakdown itemises part of the tail: {parts}"
    );
    assert_eq!(tflm["tflm_arena_32bit"]["measured"], true);
    assert_eq!(tflm["tflm_arena_32bit"]["target"], "cortex-m");
    assert_eq!(tflm["tflm_arena"]["target"], "x86-64");
    assert_eq!(tflm["tflm_arena_32bit"]["pointer_bytes"], 4);
    // 16 KiB holds TFLM's plan and its tail; naive's 3568 B head + 14480 do not.
    assert_eq!(tflm["fits"], true);
    let naive = plans.iter().find(|p| p["planner"] == "naive").unwrap();
    assert_eq!(naive["fits"], false);
    let (_, out, _) = arenascope(&[
        "plan",
        &model,
        "--lifetimes",
        "tflm",
        "--planner",
        "naive",
        "--budget",
        "16K",
    ]);
    let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        out.lines()
            .any(|l| words(l) == "naive 3568 + 14480 = 18048"),
        "{out}"
    );
    let row = out.lines().find(|l| l.starts_with("naive ")).unwrap();
    assert!(row.ends_with("no, 1664 B over"), "{row}");
}

#[test]
fn the_order_bound_names_the_operator_no_order_can_avoid() {
    // mnist_conv_f32 under LiteRT: CONV_2D #0 holds its input 28x28x1 (3136 B), its output
    // 26x26x16 (43264 B) and its im2col temporary 26x26x9 (24336 B) at once: 70736 B, which
    // is also the max-live bound of the file's order: no order can do better.
    let (code, out, err) = arenascope(&[
        "plan",
        &sample("mnist_conv_f32.tflite"),
        "--planner",
        "litert",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let plan = &doc["plans"][0];
    assert_eq!(plan["order_bound"]["bytes"], 3136 + 43264 + 24336);
    assert_eq!(plan["order_bound"]["operator"], 0);
    assert_eq!(plan["order_bound"]["subgraph"], 0);
    assert_eq!(plan["lower_bound"], plan["order_bound"]["bytes"]);
    let (_, out, _) = arenascope(&["plan", &sample("mnist_conv_f32.tflite")]);
    assert!(
        out.contains("order bound 70736 bytes: CONV_2D #0 needs them at once in any order (this order already reaches it)"),
        "{out}"
    );
}

#[test]
fn an_optimized_order_lowers_the_runtimes_arena_and_stays_valid() {
    // sparse_conv_f16 under LiteRT: the file runs every DENSIFY and DEQUANTIZE first, so the
    // dequantized weights all live from the start; run next to their consumers they do not.
    let model = sample("sparse_conv_f16.tflite");
    let plan = |order: &str| {
        let (code, out, err) = arenascope(&[
            "plan",
            &model,
            "--planner",
            "litert",
            "--order",
            order,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<Value>(&out).unwrap()
    };
    let file = plan("file");
    let optimized = plan("optimized");
    assert_eq!(file["plans"][0]["order"], "file");
    assert_eq!(optimized["plans"][0]["order"], "optimized");
    let (before, after) = (
        file["plans"][0]["arena_bytes"].as_u64().unwrap(),
        optimized["plans"][0]["arena_bytes"].as_u64().unwrap(),
    );
    assert_eq!(
        before, 324864,
        "LiteRT's own arena (sparse_conv_f16.litert.json)"
    );
    assert!(after < before, "{after} is not below {before}");
    // No order beats the order bound, and this one reaches it.
    assert_eq!(
        after,
        optimized["plans"][0]["order_bound"]["bytes"]
            .as_u64()
            .unwrap()
    );
    let search = &optimized["order_search"][0];
    assert_eq!(search["arena_before"], before);
    assert_eq!(search["arena_after"], after);
    assert_eq!(search["order_changed"], true);
    // The order is a permutation in which every operator follows its inputs' producers
    // (checked here from the plan's own lifetimes: the buffers are valid by construction).
    let order: Vec<u64> = search["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..order.len() as u64).collect::<Vec<_>>());
    check_entry_valid(&optimized["plans"][0]);
}

#[test]
fn optimize_writes_the_reordered_model_and_nothing_else() {
    let dir = std::env::temp_dir().join(format!("arenascope-opt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = sample("sparse_conv_f16.tflite");
    let out = dir.join("sparse_opt.tflite");
    let (code, stdout, err) = arenascope(&[
        "optimize",
        &input,
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["before"]["arena_bytes"], 324864);
    assert_eq!(report["after"]["arena_bytes"], 192512);
    assert_eq!(report["order_changed"], true);
    // Same size, same identifier; only the operator vector's slots differ.
    let (a, b) = (std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
    assert_eq!(a.len(), b.len());
    assert_eq!(&b[4..8], b"TFL3");
    let differing = a.iter().zip(&b).filter(|(x, y)| x != y).count();
    assert!(
        differing > 0 && differing <= 4 * 15,
        "{differing} bytes differ"
    );
    // It reloads, and LiteRT's plan of it in its own (new file) order is the predicted one.
    let (code, plan, err) = arenascope(&["plan", out.to_str().unwrap(), "--planner", "litert"]);
    assert_eq!(code, 0, "{err}");
    let row = plan.lines().find(|l| l.starts_with("litert ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("192512"), "{plan}");
    assert!(!dir.join("sparse_opt.tflite.partial").exists());
}

#[test]
fn optimize_for_tflm_writes_the_order_and_the_offline_plan_tflm_then_uses() {
    let dir = std::env::temp_dir().join(format!("arenascope-opt-tflm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = sample("branchy_gap_int8.tflite");
    let out = dir.join("branchy_opt.tflite");
    let (code, stdout, err) = arenascope(&[
        "optimize",
        &input,
        "--out",
        out.to_str().unwrap(),
        "--runtime",
        "tflm",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    // Measured in the real TFLM (run_model.py): head 4640 for the file, 3648 for the written
    // model, outputs identical. The order alone takes TFLM's own planner to 4560; the exact
    // plan written as its offline plan to 3648.
    assert_eq!(report["before"]["arena_bytes"], 4640);
    assert_eq!(report["after"]["arena_bytes"], 3648);
    assert_eq!(report["offline_plan"]["tflm_own_head"], 4560);
    assert_eq!(report["offline_plan"]["head"], 3648);
    // The original follows the new front part unchanged, shifted by a multiple of 16.
    let (a, b) = (std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
    assert_eq!(&b[4..8], b"TFL3");
    assert_eq!((b.len() - a.len()) % 16, 0);
    let original_ops_differ = a
        .iter()
        .zip(&b[b.len() - a.len()..])
        .filter(|(x, y)| x != y)
        .count();
    assert!(
        original_ops_differ <= 4 * 40,
        "{original_ops_differ} bytes differ"
    );
    // It reloads with the plan pinned: TFLM's planner on it gives the predicted head.
    let (code, plan, err) = arenascope(&[
        "plan",
        out.to_str().unwrap(),
        "--lifetimes",
        "tflm",
        "--planner",
        "tflm",
    ]);
    assert_eq!(code, 0, "{err}");
    let row = plan.lines().find(|l| l.starts_with("tflm ")).unwrap();
    assert_eq!(row.split_whitespace().nth(1), Some("3648"), "{plan}");
    // A model with an offline plan is not optimised again.
    let again = dir.join("again.tflite");
    let (code, _, err) = arenascope(&[
        "optimize",
        out.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
        "--runtime",
        "tflm",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("offline plan"), "{err}");
    assert!(!again.exists());
}

#[test]
fn optimize_refuses_to_write_when_nothing_is_gained_or_over_its_input() {
    let dir = std::env::temp_dir().join(format!("arenascope-opt-no-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("residual_opt.tflite");
    // residual_branch_f32's LiteRT arena already meets what any order found gives.
    let (code, _, err) = arenascope(&[
        "optimize",
        &sample("residual_branch_f32.tflite"),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out.exists());
    let input = sample("sparse_conv_f16.tflite");
    let (code, _, err) = arenascope(&["optimize", &input, "--out", &input]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("must not be the input"), "{err}");
}

#[test]
fn xnnpack_lifetimes_give_the_tflite_arena_and_the_workspace() {
    // mnist_conv_f32 in the real LiteRT with XNNPACK (mnist_conv_f32.xnnpack.json): TFLite
    // arena 3176 B, workspace 54080 B in one partition.
    let model = sample("mnist_conv_f32.tflite");
    let (code, out, err) =
        arenascope(&["plan", &model, "--lifetimes", "xnnpack", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["xnnpack"]["tflite_arena"], 3176);
    assert_eq!(doc["xnnpack"]["workspace"], 54080);
    assert_eq!(doc["xnnpack"]["platform"], "x86-64");
    assert_eq!(doc["xnnpack_other"]["packed_weights"], 173760);
    assert_eq!(doc["xnnpack_other"]["estimate"], true);
    let plans = doc["plans"].as_array().unwrap();
    let ws = plans
        .iter()
        .find(|p| p["planner"] == "xnnpack" && p["arena"] == "workspace")
        .unwrap();
    assert_eq!(
        (ws["partition"].as_u64(), ws["arena_bytes"].as_u64()),
        (Some(0), Some(54080))
    );
    // Its steps are XNNPACK's six ops, each with the TFLite node it came from.
    assert_eq!(
        ws["ops"],
        serde_json::json!([
            "convolution_2d (node 0 CONV_2D)",
            "max_pooling_2d (node 1 MAX_POOL_2D)",
            "static_reshape (node 2 RESHAPE)",
            "static_reshape (node 3 FULLY_CONNECTED)",
            "fully_connected (node 3 FULLY_CONNECTED)",
            "softmax (node 4 SOFTMAX)"
        ])
    );
    // The flattened value a rewrite made is no model tensor.
    assert!(ws["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["tensor"].is_null()));
    let tfl = plans
        .iter()
        .find(|p| p["planner"] == "litert" && p["arena"] == "tflite")
        .unwrap();
    assert_eq!(tfl["lifetimes"], "xnnpack");
    // On ARM the sizes round to 16: computed, and said so.
    let (code, out, err) = arenascope(&[
        "plan",
        &model,
        "--lifetimes",
        "xnnpack",
        "--platform",
        "arm",
        "--planner",
        "xnnpack",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("on arm (computed, not measured)"), "{out}");
    // The table's last line gives the whole picture: 3176 + 54080 + 0 persistent = 57256
    // planned, + 173760 packed + 54320 indirection = 285336 with the estimates.
    let (code, out, err) = arenascope(&["plan", &model, "--lifetimes", "xnnpack"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("= 57256 bytes planned; with the estimated packed weights and indirection buffers, 285336 bytes"),
        "{out}"
    );
    // The estimate's CPU class is the user's: on AVX-512 without AMX the same float model
    // packs the same, and ARM NEON's 6-row tile changes the conv's indirection to
    // 9 x round_up(676, 6) x 8 = 48816 B (+ the pool's 5432).
    let (code, out, err) = arenascope(&[
        "plan",
        &model,
        "--lifetimes",
        "xnnpack",
        "--isa",
        "neon",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["xnnpack_other"]["indirection"], 48816 + 5432);
    assert!(doc["xnnpack_other"]["isa"]
        .as_str()
        .unwrap()
        .contains("computed, not measured"));
    // The layout export draws the TFLite arena above the workspace, on XNNPACK's op axis.
    let out_svg = std::env::temp_dir().join(format!("arenascope-lanes-{}.svg", std::process::id()));
    let (code, _, err) = arenascope(&[
        "export",
        &model,
        "--lifetimes",
        "xnnpack",
        "--view",
        "layout",
        "--out",
        out_svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out_svg).unwrap();
    let _ = std::fs::remove_file(&out_svg);
    assert!(svg.contains("TFLite arena, subgraph 0 - litert: arena 3.1 KiB (3176 B)"));
    assert!(svg.contains("XNNPACK workspace 0 (subgraph 0) - xnnpack: arena 52.8 KiB (54080 B)"));
    assert!(svg.contains(">XNNPACK op<"));
}

#[test]
fn export_carries_the_headline_and_the_budget_verdict_above_the_picture() {
    let model = sample("hello_world_int8.tflite");
    let dir = std::env::temp_dir().join(format!("arenascope-cli-caption-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("layout.svg");
    let out_s = out.to_string_lossy().to_string();
    // hello_world_int8 under TFLM: 1504 B (its oracle file); 2 KiB leaves 544 B.
    let (code, _, err) = arenascope(&[
        "export",
        &model,
        "--view",
        "layout",
        "--lifetimes",
        "tflm",
        "--order",
        "optimized",
        "--budget",
        "2K",
        "--out",
        &out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.contains(">TFLM needs 1504 bytes (1.5 KiB)</text>"),
        "{svg:.400}"
    );
    assert!(svg.contains("fits the budget of 2.0 KiB with 544 B to spare"));
    // A budget below the headline: over, by the headline's own figure.
    let (code, _, err) = arenascope(&[
        "export",
        &model,
        "--view",
        "memory",
        "--lifetimes",
        "tflm",
        "--budget",
        "1K",
        "--out",
        &out_s,
    ]);
    assert_eq!(code, 0, "{err}");
    let svg = std::fs::read_to_string(&out).unwrap();
    assert!(
        svg.contains("over the budget of 1.0 KiB by 480 B"),
        "{svg:.600}"
    );
    // A budget that does not parse is the budget's sentence, exit 2.
    let (code, _, err) = arenascope(&[
        "export", &model, "--view", "layout", "--budget", "-5", "--out", &out_s,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("a budget is a whole number of bytes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plan_ends_with_the_runtimes_number_and_its_budget_verdict() {
    // nasnet_cells_int8 under TFLM: its oracle total is 187760 B; 180 KiB = 184320 B leaves
    // TFLM's own plan 3440 B over, whatever the generic planners would do.
    let model = sample("nasnet_cells_int8.tflite");
    let (code, out, err) = arenascope(&["plan", &model, "--lifetimes", "tflm", "--budget", "180K"]);
    assert_eq!(code, 0, "{err}");
    let headline = out
        .lines()
        .find(|l| l.starts_with("TFLM needs ") && l.contains(" bytes ("))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        headline.starts_with("TFLM needs 187760 bytes (183.4 KiB). "),
        "{headline}"
    );
    assert!(
        out.contains(
            "budget 184320 bytes: over the budget of 180.0 KiB by 3.4 KiB (3440 B) (TFLM)"
        ),
        "{out}"
    );
}

#[test]
fn optimize_for_tflm_refuses_a_model_tflm_cannot_run() {
    // sparse_conv_f16: TFLM has no DENSIFY kernel (its oracle file: "Didn't find op for
    // builtin opcode 'DENSIFY'"), so no arena size, reordered or not, makes it run.
    let dir = std::env::temp_dir().join(format!("arenascope-opt-cannot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("sparse_tflm.tflite");
    let (code, _, err) = arenascope(&[
        "optimize",
        &sample("sparse_conv_f16.tflite"),
        "--runtime",
        "tflm",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("TFLM cannot run this model: DENSIFY"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plan_target_gives_the_tensor_arena_size_of_each_measured_tflm_build() {
    // keyword_scrambled measured under qemu-arm (../shared/models/tflm/
    // keyword_scrambled.tflm-<build>.json): cortex-m 13284, CMSIS-NN with DSP 13444 (its int8
    // FULLY_CONNECTED's bigger op data), with MVE 15124 (kernel sums); head 672 on each.
    let model = sample("keyword_scrambled.tflite");
    for (target, total) in [
        ("cortex-m", 13284),
        ("cortex-m-cmsis-nn", 13444),
        ("cortex-m55-cmsis-nn", 15124),
    ] {
        let (code, out, err) =
            arenascope(&["plan", &model, "--lifetimes", "tflm", "--target", target]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains(&format!("TFLM needs {total} bytes")),
            "{target}: {out}"
        );
        let (code, out, _) = arenascope(&[
            "plan",
            &model,
            "--lifetimes",
            "tflm",
            "--target",
            target,
            "--format",
            "json",
        ]);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["headline"]["bytes"], total, "{target}");
        let by_target = v["tflm_targets"].as_array().unwrap();
        let entry = by_target.iter().find(|t| t["target"] == target).unwrap();
        assert_eq!(entry["total"], total);
        assert_eq!(entry["measured"], true);
    }
    let (code, _, err) = arenascope(&["plan", &model, "--target", "cortex-m0"]);
    assert_eq!(code, 2, "{err}");
}
