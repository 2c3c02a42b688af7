//! TFLM's tail on the three measured Cortex-M builds against their oracle: the JSON beside each
//! shared model, `<model>.tflm-<build>.json`, written by `../shared/tools/tflm_cortex_m` (TFLM
//! built for `cortex_m_qemu`, run under qemu-arm): `cm3-ref` (reference kernels),
//! `cm4-cmsisnn` (CMSIS-NN with DSP), `cm55-cmsisnn` (CMSIS-NN with MVE).
//!
//! For every shared model a build loaded: the tail, every category of its breakdown (used and
//! requested bytes, count) and, on the CMSIS-NN builds, every node's scratch requests where
//! `cmsis_scratch` models them. Skipped, visibly, when `../shared/models` is not beside the
//! checkout. `cargo test --test cortex_m -- --nocapture` prints the table.

mod common;

use std::path::{Path, PathBuf};

use arenascope::analysis::tflm_tail::{self, Tail, Target};
use arenascope::model::Model;
use serde_json::Value;

const BUILDS: [(&str, Target); 3] = [
    ("cm3-ref", Target::CortexM),
    ("cm4-cmsisnn", Target::CortexMCmsisNn),
    ("cm55-cmsisnn", Target::CortexM55CmsisNn),
];

fn shared_models() -> Option<Vec<PathBuf>> {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/models");
    if !shared.is_dir() {
        return None;
    }
    let mut v = Vec::new();
    for dir in [shared.clone(), shared.join("tflm")] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        v.extend(
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "tflite")),
        );
    }
    v.sort();
    Some(v)
}

fn measured(model: &Path, build: &str) -> Option<Value> {
    let path = model.with_extension(format!("tflm-{build}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// The breakdown's non-zero categories: (type, used, requested, count), sorted.
fn breakdown_of(truth: &Value) -> Vec<(String, u64, u64, u64)> {
    let mut v: Vec<_> = truth["breakdown"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| {
            (
                c["type"].as_str().unwrap_or("").to_string(),
                c["used_bytes"].as_u64().unwrap_or(0),
                c["requested_bytes"].as_u64().unwrap_or(0),
                c["count"].as_u64().unwrap_or(0),
            )
        })
        .filter(|c| c.3 > 0)
        .collect();
    v.sort();
    v
}

fn ours_breakdown(tail: &Tail) -> Vec<(String, u64, u64, u64)> {
    let mut v: Vec<_> = tail
        .categories
        .iter()
        .filter(|c| c.count > 0)
        .map(|c| (c.name.to_string(), c.bytes, c.requested_bytes, c.count))
        .collect();
    v.sort();
    v
}

/// Scratch requests per node where `cmsis_scratch` models them: (nodes compared, mismatches).
fn scratch_check(model: &Model, truth: &Value, target: Target) -> (usize, Vec<String>) {
    let mut compared = 0;
    let mut wrong = Vec::new();
    for node in truth["nodes"].as_array().cloned().unwrap_or_default() {
        let (Some(s), Some(o)) = (node["subgraph"].as_u64(), node["op"].as_u64()) else {
            continue;
        };
        let Some(ours) = tflm_tail::cmsis_scratch(model, s as usize, o as usize, target) else {
            continue;
        };
        let theirs: Vec<u64> = node["scratch"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        compared += 1;
        if ours != theirs {
            wrong.push(format!(
                "{s}.{o} {}: ours {ours:?}, measured {theirs:?}",
                node["name"].as_str().unwrap_or("?")
            ));
        }
    }
    (compared, wrong)
}

#[test]
fn cortex_m_tails_equal_the_qemu_measurements_on_every_shared_model() {
    let Some(models) = shared_models() else {
        common::skipped(
            "../shared/models is not beside this checkout; the Cortex-M oracle test did not run",
        );
        return;
    };
    let mut failures = Vec::new();
    let mut table = String::from(
        "model                              build          ours tail  measured  breakdown  scratch nodes\n",
    );
    let mut exact = [0usize; 3];
    let mut loaded = [0usize; 3];
    for path in &models {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let Ok(model) = Model::from_path(path) else {
            failures.push(format!("{name}: does not load"));
            continue;
        };
        for (b, (build, target)) in BUILDS.iter().enumerate() {
            let Some(truth) = measured(path, build) else {
                continue;
            };
            if truth["loaded"] != true {
                continue;
            }
            loaded[b] += 1;
            let tail = tflm_tail::tail_for(
                &model,
                arenascope::analysis::tflm::scratch_request_count_for(&model, *target),
                *target,
            );
            let theirs = truth["tail_bytes"].as_u64().unwrap_or(0);
            let (ours_b, theirs_b) = (ours_breakdown(&tail), breakdown_of(&truth));
            let (nodes, mut scratch_wrong) = scratch_check(&model, &truth, *target);
            // Every request, whoever's kernel makes it: the handles the tail holds.
            let requests: usize = truth["nodes"].as_array().map_or(0, |n| {
                n.iter()
                    .map(|n| n["scratch"].as_array().map_or(0, Vec::len))
                    .sum()
            });
            let count = arenascope::analysis::tflm::scratch_request_count_for(&model, *target);
            if count != requests {
                scratch_wrong.push(format!("{count} requests, measured {requests}"));
            }
            let ok = tail.bytes == theirs
                && ours_b == theirs_b
                && scratch_wrong.is_empty()
                && tail.not_modelled.is_empty()
                && tail.cannot_run.is_empty();
            if ok {
                exact[b] += 1;
            }
            table += &format!(
                "{name:34} {build:13} {:>10} {:>9}  {:9}  {nodes:>3}{}\n",
                tail.bytes,
                theirs,
                if ours_b == theirs_b {
                    "equal"
                } else {
                    "DIFFERS"
                },
                if scratch_wrong.is_empty() {
                    ""
                } else {
                    " DIFFER"
                },
            );
            if !ok {
                failures.push(format!(
                    "{name} on {build}: tail {} vs {theirs}; breakdown ours {ours_b:?} measured {theirs_b:?}; scratch {scratch_wrong:?}; not modelled {:?}; cannot run {:?}",
                    tail.bytes, tail.not_modelled, tail.cannot_run
                ));
            }
        }
    }
    for (b, (build, _)) in BUILDS.iter().enumerate() {
        table += &format!(
            "{build}: {} of {} loaded models exact\n",
            exact[b], loaded[b]
        );
    }
    println!("{table}");
    // 16 of the 21 shared models load on each build (the others: TFLM aborts or refuses them).
    assert_eq!(loaded, [16, 16, 16], "{table}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The head — TFLM's greedy planner over the tensors and the scratch buffers each build's
/// kernels request — equals the measured `head_bytes` on every shared model each build
/// loaded: the CMSIS-NN builds' scratch (dtln 1424 → 2464 on cm4) moves it.
#[test]
fn cortex_m_heads_equal_the_qemu_measurements_on_every_shared_model() {
    let Some(models) = shared_models() else {
        common::skipped(
            "../shared/models is not beside this checkout; the Cortex-M head test did not run",
        );
        return;
    };
    let tflm = arenascope::planner::find("tflm").unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &models {
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let model = Model::from_path(path).unwrap();
        for (build, target) in BUILDS {
            let Some(truth) = measured(path, build) else {
                continue;
            };
            if truth["loaded"] != true {
                continue;
            }
            let problem = arenascope::analysis::tflm::problem_for(&model, target).unwrap();
            let plan =
                arenascope::planner::run(tflm, &problem, &arenascope::planner::Settings::default())
                    .unwrap();
            let theirs = truth["head_bytes"].as_u64().unwrap_or(0);
            checked += 1;
            println!(
                "{name:<34} {build:<13} head ours {:>9} measured {theirs:>9}",
                plan.arena_bytes
            );
            if plan.arena_bytes != theirs {
                failures.push(format!(
                    "{name} {build}: head {} vs {theirs}",
                    plan.arena_bytes
                ));
            }
        }
    }
    assert!(checked >= 30, "only {checked} measured heads");
    assert!(failures.is_empty(), "{failures:#?}");
}
