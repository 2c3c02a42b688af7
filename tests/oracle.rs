//! The `litert` and `tflm` emulations against the real runtimes' ground truth
//! (`<model>.litert.json`, `<model>.tflm.json` from shared/tools/oracle_*.py).
//!
//! Runs over the bundled `sample_models/` always, and over `../shared/models` and
//! `../shared/models/tflm` when that folder is beside the checkout (it says so when skipped).
//! Prints the fidelity table the README carries (`cargo test --test oracle -- --nocapture`).

mod common;

use std::path::{Path, PathBuf};

use arenascope::analysis::{litert, tflm, Problem};
use arenascope::model::Model;
use arenascope::planner::{self, Settings};
use serde_json::Value;

struct Row {
    name: String,
    litert_observed: Option<u64>,
    litert_ours: Option<u64>,
    offsets: Option<(usize, usize)>,
    /// Lifetimes compared with LiteRT's (tensors outside in-place pairs and unconsumed outputs).
    lifetimes_compared: usize,
    tflm_observed: Option<u64>,
    tflm_ours: Option<u64>,
    /// TFLM's tail and total (head + tail): observed, ours.
    tail: Option<(u64, u64)>,
    total: Option<(u64, u64)>,
    /// Categories of the tail's breakdown that match the oracle's, of how many.
    categories: Option<(usize, usize)>,
    /// Operators the tail rules do not cover (the tail is then a lower bound).
    not_modelled: Vec<String>,
    problems: Vec<String>,
}

fn models_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "tflite"));
    v.sort();
    v
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// Offset of tensor `t` in our plan (an alias sits at its root's offset), with its bytes and
/// lifetime.
fn placement(problem: &Problem, offsets: &[u64], t: usize) -> Option<(u64, u64, u32, u32)> {
    if let Some(i) = problem.buffers.iter().position(|b| b.tensor == t) {
        let b = &problem.buffers[i];
        return Some((offsets[i], b.size_bytes, b.first, b.last));
    }
    problem
        .aliases
        .iter()
        .find(|a| a.tensor == t)
        .map(|a| (offsets[a.root], a.size_bytes, a.first, a.last))
}

/// The oracle reads each tensor's address through a numpy view, and numpy copies a rank-0
/// tensor, so the oracle reports rank-0 arena tensors as `no_data` and measures offsets from
/// the lowest tensor it sees (shown on fill_f32: the scalar input read through memory sits 64
/// bytes below the output, where our plan puts it). When every buffer of ours below the lowest
/// visible one is such a rank-0 `no_data` tensor, offsets are compared from there.
fn hidden_scalar_shift(model: &Model, problem: &Problem, offsets: &[u64], truth: &Value) -> u64 {
    let tensors = truth["tensors"].as_array().cloned().unwrap_or_default();
    let kind = |i: usize| {
        tensors
            .iter()
            .find(|t| t["index"].as_u64() == Some(i as u64))
            .and_then(|t| t["kind"].as_str().map(str::to_string))
    };
    let visible_min = tensors
        .iter()
        .filter(|t| t["kind"] == "arena")
        .filter_map(|t| placement(problem, offsets, t["index"].as_u64()? as usize))
        .map(|p| p.0)
        .min()
        .unwrap_or(0);
    let rank0 = |i: usize| {
        model.subgraphs[0]
            .tensors
            .get(i)
            .is_some_and(|t| t.shape.is_empty())
    };
    let below_hidden = problem
        .buffers
        .iter()
        .zip(offsets)
        .filter(|(_, &o)| o < visible_min)
        .all(|(b, _)| rank0(b.tensor) && kind(b.tensor).as_deref() == Some("no_data"));
    if below_hidden {
        visible_min
    } else {
        0
    }
}

fn check_model(path: &Path) -> Row {
    let stem = path.with_extension("");
    let name = path.file_stem().unwrap().to_string_lossy().to_string();
    let mut row = Row {
        name,
        litert_observed: None,
        litert_ours: None,
        offsets: None,
        lifetimes_compared: 0,
        tflm_observed: None,
        tflm_ours: None,
        tail: None,
        total: None,
        categories: None,
        not_modelled: Vec::new(),
        problems: Vec::new(),
    };
    let model = match Model::from_path(path) {
        Ok(m) => m,
        Err(e) => {
            row.problems.push(format!("cannot load: {e}"));
            return row;
        }
    };
    let settings = Settings::default();

    if let Some(truth) =
        read_json(&stem.with_extension("litert.json")).filter(|t| t.get("error").is_none())
    {
        let problem = litert::problem(&model, 0).expect("litert problem");
        let plan = arenascope::planner::run(planner::find("litert").unwrap(), &problem, &settings)
            .expect("valid litert plan");
        let observed = truth["arena"]["used_bytes"].as_u64().unwrap_or(0);
        row.litert_observed = Some(observed);
        row.litert_ours = Some(plan.arena_bytes);
        let inplace: Vec<u64> = truth["inplace_pairs"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|p| [p[1].as_u64().unwrap_or(0), p[2].as_u64().unwrap_or(0)])
            .collect();
        let consumed: Vec<u64> = truth["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|n| n[2].as_array().cloned().unwrap_or_default())
            .filter_map(|v| v.as_u64())
            .collect();
        let (mut total, mut matching) = (0, 0);
        let mut visible_top = 0u64;
        let shift = hidden_scalar_shift(&model, &problem, &plan.offsets, &truth);
        for t in truth["tensors"].as_array().into_iter().flatten() {
            if t["kind"] != "arena" {
                continue;
            }
            total += 1;
            let idx = t["index"].as_u64().unwrap() as usize;
            let (off, bytes) = (t["offset"].as_u64().unwrap(), t["bytes"].as_u64().unwrap());
            match placement(&problem, &plan.offsets, idx) {
                Some((o, b, first, last)) => {
                    let o = o - shift;
                    visible_top = visible_top.max(o + b);
                    if o == off && b == bytes {
                        matching += 1;
                    } else {
                        row.problems.push(format!(
                            "tensor {idx}: offset/bytes {o}/{b}, LiteRT {off}/{bytes}"
                        ));
                    }
                    let lifetime_comparable = t["extra"] != true
                        && !inplace.contains(&(idx as u64))
                        && consumed.contains(&(idx as u64));
                    if lifetime_comparable {
                        row.lifetimes_compared += 1;
                        let (f, l) = (t["first_use"].as_u64(), t["last_use"].as_u64());
                        if (f, l) != (Some(first as u64), Some(last as u64)) {
                            row.problems.push(format!(
                                "tensor {idx}: lifetime [{first}, {last}], LiteRT [{f:?}, {l:?}]"
                            ));
                        }
                    }
                }
                None => row.problems.push(format!(
                    "tensor {idx} ({bytes} bytes at {off}) is not in our arena"
                )),
            }
        }
        if visible_top != observed {
            row.problems.push(format!(
                "arena over the tensors LiteRT shows: ours {visible_top}, LiteRT {observed}"
            ));
        }
        row.offsets = Some((matching, total));
    }

    if let Some(truth) = read_json(&stem.with_extension("tflm.json")) {
        // Whether TFLM can run the model at all: a kernel's refusal (a message) must be
        // predicted, and a model it loaded must not be called unrunnable. An abort without a
        // message is not explained by any rule yet, so it is only reported.
        let cannot = arenascope::analysis::tflm_tail::tail(&model, 0).cannot_run;
        let message = truth["error"]
            .as_str()
            .filter(|e| !e.contains("SIGABRT"))
            .map(str::to_string);
        match (truth["loaded"] == true, message) {
            (true, _) if !cannot.is_empty() => row.problems.push(format!(
                "TFLM loaded the model, ours says it cannot run it: {cannot:?}"
            )),
            (false, Some(e)) if cannot.is_empty() => row.problems.push(format!(
                "TFLM refused the model ({}), ours does not say so",
                e.lines().next().unwrap_or("")
            )),
            (false, None) => println!(
                "{}: TFLM aborted without a message; not explained by a rule",
                row.name
            ),
            _ => {}
        }
        if truth["loaded"] == true {
            if let Some(head) = truth["head_bytes"].as_u64() {
                let problem = tflm::problem(&model).expect("tflm problem");
                let plan =
                    arenascope::planner::run(planner::find("tflm").unwrap(), &problem, &settings)
                        .expect("valid tflm plan");
                row.tflm_observed = Some(head);
                row.tflm_ours = Some(plan.arena_bytes);
                if plan.arena_bytes != head {
                    row.problems
                        .push(format!("TFLM head: ours {}, TFLM {head}", plan.arena_bytes));
                }
                check_tail(&model, &truth, plan.arena_bytes, &mut row);
            }
        }
    }
    row
}

/// TFLM's tail and its breakdown against the oracle's `tail_bytes`, `total_bytes` and
/// `breakdown`. Where operators are not modelled the tail must be a lower bound and say so.
fn check_tail(model: &Model, truth: &Value, head: u64, row: &mut Row) {
    let (Some(tail_truth), Some(total_truth)) =
        (truth["tail_bytes"].as_u64(), truth["total_bytes"].as_u64())
    else {
        return;
    };
    let tail = arenascope::analysis::tflm_tail::tail(model, tflm::scratch_request_count(model));
    row.tail = Some((tail_truth, tail.bytes));
    row.total = Some((total_truth, head + tail.bytes));
    row.not_modelled = tail.not_modelled.clone();
    let breakdown = truth["breakdown"].as_array().cloned().unwrap_or_default();
    let matching = breakdown
        .iter()
        .filter(|b| {
            tail.categories.iter().any(|c| {
                b["type"] == c.name
                    && b["used_bytes"] == c.bytes
                    && b["requested_bytes"] == c.requested_bytes
                    && b["count"] == c.count
            })
        })
        .count();
    row.categories = Some((matching, breakdown.len()));
    if !tail.not_modelled.is_empty() {
        if tail.bytes > tail_truth {
            row.problems.push(format!(
                "TFLM tail with operators not modelled: ours {} is not a lower bound of {tail_truth}",
                tail.bytes
            ));
        }
        return;
    }
    if tail.bytes != tail_truth {
        row.problems
            .push(format!("TFLM tail: ours {}, TFLM {tail_truth}", tail.bytes));
    }
    if head + tail.bytes != total_truth {
        row.problems.push(format!(
            "TFLM total: ours {}, TFLM {total_truth}",
            head + tail.bytes
        ));
    }
    if matching != breakdown.len() || tail.categories.len() != breakdown.len() {
        row.problems.push(format!(
            "TFLM tail breakdown: {matching} of {} categories match ({:?})",
            breakdown.len(),
            tail.categories
        ));
    }
}

fn opt(v: Option<u64>) -> String {
    v.map(|v| v.to_string()).unwrap_or_else(|| "—".into())
}

fn run_corpus(dirs: &[PathBuf]) -> Vec<Row> {
    let rows: Vec<Row> = dirs
        .iter()
        .flat_map(|d| models_in(d))
        .map(|p| check_model(&p))
        .collect();
    println!("| model | LiteRT observed | ours | offsets matching | lifetimes matching | TFLM head observed | ours | TFLM tail observed | ours | tail categories matching | TFLM total observed | ours |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let pair = |p: Option<(u64, u64)>| (opt(p.map(|x| x.0)), opt(p.map(|x| x.1)));
    for r in &rows {
        let (tail_o, tail_ours) = pair(r.tail);
        let (total_o, total_ours) = pair(r.total);
        let lower = if r.not_modelled.is_empty() {
            ""
        } else {
            " (lower bound)"
        };
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {}{lower} | {} | {} | {}{lower} |",
            r.name,
            opt(r.litert_observed),
            opt(r.litert_ours),
            r.offsets
                .map(|(m, t)| format!("{m}/{t}"))
                .unwrap_or_else(|| "—".into()),
            if r.offsets.is_some() {
                format!("{0}/{0}", r.lifetimes_compared)
            } else {
                "—".into()
            },
            opt(r.tflm_observed),
            opt(r.tflm_ours),
            tail_o,
            tail_ours,
            r.categories
                .map(|(m, t)| format!("{m}/{t}"))
                .unwrap_or_else(|| "—".into()),
            total_o,
            total_ours,
        );
    }
    for r in rows.iter().filter(|r| !r.not_modelled.is_empty()) {
        println!("{}: not modelled: {}", r.name, r.not_modelled.join(", "));
    }
    for r in &rows {
        for p in &r.problems {
            println!("{}: {p}", r.name);
        }
    }
    rows
}

fn assert_all_match(rows: &[Row]) {
    let bad: Vec<String> = rows
        .iter()
        .filter(|r| !r.problems.is_empty())
        .map(|r| {
            format!(
                "{} ({} differences, first: {})",
                r.name,
                r.problems.len(),
                r.problems[0]
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "emulations differ from the runtimes on: {bad:#?}"
    );
}

#[test]
fn bundled_sample_models_match_litert_offsets_and_tflm_head() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models");
    let rows = run_corpus(&[dir]);
    assert!(
        rows.len() >= 3,
        "sample_models should hold at least three models with ground truth"
    );
    assert_all_match(&rows);
}

#[test]
fn shared_corpus_matches_litert_offsets_and_tflm_head() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models");
    if !shared.is_dir() {
        common::skipped(
            "../shared/models is not beside this checkout; the corpus oracle test did not run",
        );
        return;
    }
    let rows = run_corpus(&[shared.clone(), shared.join("tflm")]);
    assert!(
        rows.len() >= 20,
        "expected the 21 shared models, found {}",
        rows.len()
    );
    assert_all_match(&rows);
}

/// The operator sweep (`sample_models/ops`, one small model per operator and type) and the
/// PyTorch-converted models (`sample_models/torch`): wherever
/// an emulation differs from its runtime, the catalogue says the model has a node it has not
/// verified, or that the runtime cannot run it — never a silent number. Prints which models
/// are exact per runtime (`-- --nocapture`), what the catalogue's verified entries stand on.
#[test]
fn the_operator_sweep_is_exact_or_says_what_is_not_modelled() {
    use arenascope::analysis::catalogue::{self, Runtime};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The sweep, and the PyTorch models litert-torch converts (sample_models/torch).
    let dirs: Vec<PathBuf> = [
        "sample_models/ops",
        "sample_models/torch",
        "sample_models/xnnpack_rules",
    ]
    .iter()
    .map(|d| root.join(d))
    .filter(|d| d.is_dir())
    .collect();
    let rows = run_corpus(&dirs);
    let (mut litert_exact, mut tflm_exact) = (Vec::new(), Vec::new());
    let mut silent = Vec::new();
    for r in &rows {
        let path = dirs
            .iter()
            .map(|d| d.join(format!("{}.tflite", r.name)))
            .find(|p| p.is_file())
            .unwrap();
        let model = Model::from_path(&path).unwrap();
        let (tflm_problems, litert_problems): (Vec<&String>, Vec<&String>) =
            r.problems.iter().partition(|p| p.starts_with("TFLM"));
        let flagged = |rt: Runtime| {
            !catalogue::not_modelled(&model, rt).is_empty()
                || !catalogue::cannot_run(&model, rt).is_empty()
        };
        if litert_problems.is_empty() && r.litert_observed.is_some() {
            litert_exact.push(r.name.clone());
        } else if !litert_problems.is_empty() && !flagged(Runtime::Litert) {
            silent.push(format!("{} (LiteRT): {}", r.name, litert_problems[0]));
        }
        let tail_flags = !r.not_modelled.is_empty();
        if tflm_problems.is_empty() && r.total.is_some() && !tail_flags {
            tflm_exact.push(r.name.clone());
        } else if !tflm_problems.is_empty() && !flagged(Runtime::Tflm) && !tail_flags {
            silent.push(format!("{} (TFLM): {}", r.name, tflm_problems[0]));
        }
    }
    println!("litert exact: {}", litert_exact.join(","));
    println!("tflm exact: {}", tflm_exact.join(","));
    assert!(silent.is_empty(), "wrong and not flagged: {silent:#?}");
}
