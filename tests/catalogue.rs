//! The operator catalogue checked against the models it names (DESIGN.md §3.5): every entry
//! marked verified occurs in each of its models, and each of those models has the runtime's
//! oracle file and ran in the runtime (the oracle tests compare the numbers); every model a
//! runtime refused is one the catalogue says it cannot run; `ops` prints the documented shape.

mod common;

use std::path::{Path, PathBuf};

use arenascope::analysis::catalogue::{self, Runtime};
use arenascope::model::Model;
use serde_json::Value;

fn dirs() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    vec![
        root.join("sample_models"),
        root.join("sample_models/ops"),
        root.join("sample_models/torch"),
        root.join("sample_models/xnnpack_rules"),
        root.join("../shared/models"),
        root.join("../shared/models/tflm"),
    ]
}

fn find(stem: &str) -> Option<PathBuf> {
    dirs()
        .into_iter()
        .map(|d| d.join(format!("{stem}.tflite")))
        .find(|p| p.exists())
}

fn oracle(model: &Path, runtime: Runtime) -> Option<Value> {
    let text =
        std::fs::read_to_string(model.with_extension(format!("{}.json", runtime.name()))).ok()?;
    serde_json::from_str(&text).ok()
}

/// Whether the runtime allocated the model's arena, by its oracle file (efficientnet_b0_int8
/// loads in TFLM and aborts only at invoke: its arena is measured).
fn ran(truth: &Value) -> bool {
    truth["loaded"] == true || (truth["loaded"].is_null() && truth["error"].is_null())
}

#[test]
fn every_verified_entry_occurs_in_models_the_runtime_ran() {
    let mut checked = 0;
    let mut absent = Vec::new();
    for runtime in Runtime::ALL {
        for v in runtime.verified() {
            assert!(
                !v.by.is_empty(),
                "{} {} {}: verified by no model",
                runtime.name(),
                v.op,
                v.types
            );
            for stem in v.by {
                let Some(path) = find(stem) else {
                    absent.push(*stem);
                    continue;
                };
                let model = Model::from_path(&path).unwrap();
                let occurs = model.subgraphs.iter().enumerate().any(|(si, s)| {
                    s.operators.iter().any(|op| {
                        model.op_name(op) == v.op && catalogue::variant(&model, si, op) == v.types
                    })
                });
                assert!(
                    occurs,
                    "{} {} {}: not in {stem}",
                    runtime.name(),
                    v.op,
                    v.types
                );
                let truth = oracle(&path, runtime)
                    .unwrap_or_else(|| panic!("{stem} has no {} oracle file", runtime.name()));
                assert!(ran(&truth), "{stem}: {} did not load it", runtime.name());
                checked += 1;
            }
        }
    }
    if !absent.is_empty() {
        absent.sort();
        absent.dedup();
        common::skipped(&format!(
            "catalogue models not beside this checkout: {}",
            absent.join(", ")
        ));
    }
    assert!(checked > 50, "{checked} claims checked");
}

#[test]
fn every_model_a_runtime_refused_is_one_the_catalogue_says_it_cannot_run() {
    for dir in dirs().iter().filter(|d| d.is_dir()) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "tflite") {
                continue;
            }
            let model = Model::from_path(&path).unwrap();
            let Some(truth) = oracle(&path, Runtime::Litert) else {
                continue;
            };
            let cannot = catalogue::cannot_run(&model, Runtime::Litert);
            let error = truth["error"].as_str().unwrap_or("");
            // An unresolved custom operator is a missing kernel; other refusals (person_detect's
            // quantisation parameters) are not a kernel's and are not claimed here.
            if error.contains("unresolved custom op") {
                assert!(
                    !cannot.is_empty(),
                    "{}: LiteRT refused it: {error}",
                    path.display()
                );
            }
            if ran(&truth) {
                assert!(
                    cannot.is_empty(),
                    "{}: LiteRT ran it, ours: {cannot:?}",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn ops_prints_every_registered_builtin_with_a_status() {
    let (code, out, err) = common::arenascope(&["ops", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    for runtime in Runtime::ALL {
        let (registered, verified) = catalogue::coverage(runtime);
        let mine: Vec<&Value> = rows
            .iter()
            .filter(|r| r["runtime"] == runtime.name())
            .collect();
        // One not-modelled row per registered builtin, one row per verified variant.
        let not_modelled = mine
            .iter()
            .filter(|r| r["status"] == "not modelled")
            .count();
        assert_eq!(not_modelled, registered, "{}", runtime.name());
        assert!(verified > 0 && verified <= registered);
        for r in &mine {
            for key in ["op", "types", "status", "source"] {
                assert!(r[key].is_string(), "{r}");
            }
        }
    }
    // TFLM registers no GELU, SELECT or TILE kernel (its Python interpreter's resolver).
    let tflm: Vec<&str> = rows
        .iter()
        .filter(|r| r["runtime"] == "tflm")
        .filter_map(|r| r["op"].as_str())
        .collect();
    for missing in ["GELU", "SELECT", "TILE", "DENSIFY"] {
        assert!(!tflm.contains(&missing), "{missing}");
    }
    let (code, out, _) = common::arenascope(&["ops", "--runtime", "tflm"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("tflm: "), "{out:.200}");
    assert!(
        out.contains(" of the 100 builtin operators it registers verified"),
        "{out:.200}"
    );
    // LiteRT's resolver registers 172 builtins (register.cc's AddBuiltin calls, counted in
    // its source), not CALL or DELEGATE; the XNNPACK catalogue covers the 59 builtins its
    // VisitNode has a case for (BATCH_MATMUL, not GATHER: that one TFLite runs).
    assert_eq!(catalogue::coverage(Runtime::Litert).0, 172);
    assert_eq!(catalogue::coverage(Runtime::Xnnpack).0, 59);
    let ops_of = |rt: &str| -> Vec<&str> {
        rows.iter()
            .filter(|r| r["runtime"] == rt)
            .filter_map(|r| r["op"].as_str())
            .collect()
    };
    assert!(!ops_of("litert").contains(&"DELEGATE") && !ops_of("litert").contains(&"CALL"));
    assert!(ops_of("litert").contains(&"STABLEHLO_ADD"));
    assert!(ops_of("xnnpack").contains(&"BATCH_MATMUL") && !ops_of("xnnpack").contains(&"GATHER"));
}

#[test]
fn ops_of_a_model_lists_its_variants_with_their_status() {
    // hello_world_int8 (a sample with all three oracles, exact on each); a made-up path is
    // one clear error.
    let path = common::sample_path("hello_world_int8.tflite");
    let path = path.to_string_lossy();
    let (code, out, err) = common::arenascope(&["ops", "--model", &path, "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    // hello_world: three int8 FULLY_CONNECTED nodes, nothing else.
    assert_eq!(rows.len(), 1, "{out}");
    assert_eq!(rows[0]["op"], "FULLY_CONNECTED");
    assert_eq!(rows[0]["types"], "int8");
    assert_eq!(rows[0]["nodes"], 3);
    for rt in ["litert", "tflm", "xnnpack"] {
        assert_eq!(rows[0][rt], "verified", "{rt}");
    }
    let (code, _, err) = common::arenascope(&["ops", "--model", "/nonexistent/m.tflite"]);
    assert_eq!(code, 1);
    assert!(err.contains("m.tflite"), "{err}");
}
