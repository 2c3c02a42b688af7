//! Bad input gives exit code 1 and one sentence on stderr: never a panic, a hang or an
//! allocation far beyond the file's size.

mod common;

use std::path::{Path, PathBuf};

use arenascope::analysis::{self, Lifetimes};
use arenascope::model::Model;
use arenascope::planner::{Settings, REGISTRY};
use common::arenascope;
use flatbuffers::FlatBufferBuilder;
use proptest::prelude::*;

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arenascope-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Asserts the CLI rejects `path` as bad input: exit 1, one line on stderr ending in the path.
fn assert_rejected(path: &Path) {
    let p = path.to_str().unwrap();
    let (code, _, err) = arenascope(&["plan", p]);
    assert_eq!(code, 1, "exit code for {p}: stderr {err}");
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one sentence for {p}: {err}"
    );
    assert!(err.trim_end().ends_with(p), "path last for {p}: {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn empty_file_is_rejected() {
    assert_rejected(&tmp("empty.tflite", b""));
}

#[test]
fn directory_is_rejected() {
    let dir = std::env::temp_dir().join(format!("arenascope-dir-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert_rejected(&dir);
}

#[test]
fn missing_path_is_rejected() {
    assert_rejected(Path::new("/nonexistent/arenascope/model.tflite"));
}

#[test]
fn random_bytes_are_rejected() {
    let mut rng = arenascope::planner::rng::Rng::new(7);
    let bytes: Vec<u8> = (0..4096).map(|_| rng.next_u64() as u8).collect();
    assert_rejected(&tmp("random.tflite", &bytes));
}

#[test]
fn wrong_identifier_is_rejected() {
    let mut bytes = std::fs::read(sample("mnist_conv_f32.tflite")).unwrap();
    bytes[4..8].copy_from_slice(b"ABCD");
    let path = tmp("wrong_id.tflite", &bytes);
    let (code, _, err) = arenascope(&["plan", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("TFL3"), "{err}");
}

fn sample(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample_models")
        .join(name)
}

fn all_models() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in [
        root.join("sample_models"),
        root.join("../shared/models"),
        root.join("../shared/models/tflm"),
    ] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            v.extend(
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|e| e == "tflite")),
            );
        } else if dir.ends_with("models") {
            common::skipped(&format!(
                "{} is not there; truncation covers the bundled samples only",
                dir.display()
            ));
        }
    }
    v.sort();
    v
}

#[test]
fn every_model_truncated_at_every_sixteenth_is_rejected_cleanly() {
    for path in all_models() {
        let bytes = std::fs::read(&path).unwrap();
        for k in 1..16 {
            let cut = &bytes[..bytes.len() * k / 16];
            assert!(
                Model::from_bytes(cut).is_err(),
                "{} cut at {k}/16 loaded",
                path.display()
            );
        }
    }
    // And through the CLI for a bundled model.
    let bytes = std::fs::read(sample("mnist_conv_f32.tflite")).unwrap();
    for k in [1, 5, 9, 15] {
        assert_rejected(&tmp(
            &format!("cut{k}.tflite"),
            &bytes[..bytes.len() * k / 16],
        ));
    }
}

/// A one-subgraph model with the given tensors (shape, type) and one ADD-like op.
fn model_bytes(tensors: &[(&[i32], i8)], op_inputs: &[i32], op_outputs: &[i32]) -> Vec<u8> {
    let mut b = FlatBufferBuilder::new();
    let ts: Vec<_> = tensors
        .iter()
        .enumerate()
        .map(|(i, (shape, ty))| {
            let shape = b.create_vector(shape);
            let name = b.create_string(&format!("t{i}"));
            let t = b.start_table();
            b.push_slot_always(4, shape);
            b.push_slot::<i8>(6, *ty, 0);
            b.push_slot_always(10, name);
            b.end_table(t)
        })
        .collect();
    let ts = b.create_vector(&ts);
    let ins = b.create_vector(op_inputs);
    let outs = b.create_vector(op_outputs);
    let op = b.start_table();
    b.push_slot::<u32>(4, 0, 0);
    b.push_slot_always(6, ins);
    b.push_slot_always(8, outs);
    let op = b.end_table(op);
    let ops = b.create_vector(&[op]);
    let g_in = b.create_vector(&[0i32]);
    let g_out = b.create_vector(&[op_outputs[0].max(0)]);
    let sg = b.start_table();
    b.push_slot_always(4, ts);
    b.push_slot_always(6, g_in);
    b.push_slot_always(8, g_out);
    b.push_slot_always(10, ops);
    let sg = b.end_table(sg);
    let sgs = b.create_vector(&[sg]);
    let code = b.start_table();
    b.push_slot::<i32>(10, 0, -1);
    let code = b.end_table(code);
    let codes = b.create_vector(&[code]);
    let buf0 = b.start_table();
    let buf0 = b.end_table(buf0);
    let bufs = b.create_vector(&[buf0]);
    let m = b.start_table();
    b.push_slot::<u32>(4, 3, 0);
    b.push_slot_always(6, codes);
    b.push_slot_always(8, sgs);
    b.push_slot_always(12, bufs);
    let m = b.end_table(m);
    b.finish(m, Some("TFL3"));
    b.finished_data().to_vec()
}

#[test]
fn a_well_formed_handmade_model_loads_and_plans() {
    let bytes = model_bytes(&[(&[1, 8], 0), (&[1, 8], 0)], &[0], &[1]);
    let m = Model::from_bytes(&bytes).expect("loads");
    assert_eq!(m.subgraphs[0].tensors[0].bytes, Some(32));
    let path = tmp("good.tflite", &bytes);
    let (code, out, err) = arenascope(&["plan", path.to_str().unwrap(), "--planner", "litert"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("litert"), "{out}");
}

#[test]
fn shapes_whose_element_count_overflows_are_rejected() {
    let huge = [i32::MAX, i32::MAX, i32::MAX, i32::MAX, i32::MAX];
    let bytes = model_bytes(&[(&huge, 0), (&[1], 0)], &[0], &[1]);
    let path = tmp("overflow.tflite", &bytes);
    assert_rejected(&path);
    let (_, _, err) = arenascope(&["plan", path.to_str().unwrap()]);
    assert!(err.contains("overflow"), "{err}");
}

#[test]
fn negative_dimensions_are_rejected() {
    let bytes = model_bytes(&[(&[1, -3], 0), (&[1], 0)], &[0], &[1]);
    let path = tmp("negative.tflite", &bytes);
    assert_rejected(&path);
    let (_, _, err) = arenascope(&["plan", path.to_str().unwrap()]);
    assert!(err.contains("negative dimension"), "{err}");
}

#[test]
fn operator_tensor_indices_out_of_range_are_rejected() {
    let bytes = model_bytes(&[(&[1], 0), (&[1], 0)], &[7], &[1]);
    let path = tmp("index.tflite", &bytes);
    assert_rejected(&path);
    let (_, _, err) = arenascope(&["plan", path.to_str().unwrap()]);
    assert!(err.contains("input tensor 7"), "{err}");
}

#[test]
fn unknown_planner_is_a_usage_error() {
    let (code, _, err) = arenascope(&[
        "plan",
        sample("mnist_conv_f32.tflite").to_str().unwrap(),
        "--planner",
        "nope",
    ]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn csv_sizes_that_could_overflow_are_rejected() {
    let path = tmp(
        "huge.csv",
        b"id,lower,upper,size\n0,0,2,9223372036854775807\n1,0,2,9223372036854775807\n",
    );
    let (code, _, err) = arenascope(&["solve", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("2^48"), "{err}");
}

#[test]
fn malformed_csv_is_rejected() {
    let path = tmp("bad.csv", b"id,lower,upper,size\n0,5,3,10\n");
    let (code, _, err) = arenascope(&["solve", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("upper") && err.trim_end().ends_with(path.to_str().unwrap()),
        "{err}"
    );
}

use arenascope::analysis::xnnpack::Isa;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Flipping bytes of a real model never panics anywhere from loading to planning.
    #[test]
    fn corrupted_models_never_panic(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)) {
        let mut bytes = std::fs::read(sample("residual_branch_f32.tflite")).unwrap();
        for (i, v) in flips {
            let at = i.index(bytes.len());
            bytes[at] = v;
        }
        if let Ok(model) = Model::from_bytes(&bytes) {
            let _ = arenascope::analysis::tflm_tail::tail(&model, 3);
            let delegation = arenascope::analysis::xnnpack::delegate(&model);
            for isa in [Isa::X86Amx, Isa::X86Avx512, Isa::ArmNeon] {
                let _ = arenascope::analysis::xnnpack::other_estimate(&model, &delegation, isa);
            }
            for l in [Lifetimes::Litert, Lifetimes::Tflm, Lifetimes::Xnnpack] {
                if let Ok(problems) = analysis::problems(&model, l) {
                    for p in &problems {
                        for info in REGISTRY.iter().filter(|i| i.applies_to(p) || i.scope == arenascope::planner::Scope::Any) {
                            if p.buffers.len() < 5000 {
                                let _ = arenascope::planner::run(info, p, &Settings::default());
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whatever bytes a custom operator's options hold, reading them never panics.
    #[test]
    fn any_custom_options_are_read_without_panicking(
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        truncate in any::<prop::sample::Index>(),
    ) {
        // A valid map (SignalRfft's options), then corrupted and cut.
        let mut b = flexbuffers::Builder::default();
        let mut m = b.start_map();
        m.push("T", 7i8);
        m.push("fft_length", 512i16);
        m.push("num_channels", 40i8);
        m.end_map();
        let mut bytes = b.view().to_vec();
        for (i, v) in flips {
            let at = i.index(bytes.len());
            bytes[at] = v;
        }
        bytes.truncate(truncate.index(bytes.len() + 1));
        let op = arenascope::model::Operator {
            opcode_index: 0,
            builtin: arenascope::model::ops::CUSTOM,
            inputs: vec![],
            outputs: vec![],
            intermediates: vec![],
            options: arenascope::model::Options::None,
            custom_options: bytes,
        };
        for key in ["fft_length", "T", "num_channels"] {
            let _ = arenascope::analysis::custom_options::int(&op, key);
        }
    }
}

#[test]
fn a_truncated_model_says_so_in_one_sentence_with_its_path_last() {
    // Every bundled model cut anywhere past its header: the verifier's refusal reads as one
    // sentence that names the likely cause.
    for path in all_models() {
        let bytes = std::fs::read(&path).unwrap();
        for k in 1..16 {
            let e = Model::from_bytes(&bytes[..bytes.len() * k / 16])
                .err()
                .unwrap()
                .to_string();
            assert!(
                e.starts_with("the file is truncated or not a .tflite model (") && e.ends_with(')'),
                "{} cut at {k}/16: {e}",
                path.display()
            );
            assert!(!e.contains('\n') && !e.contains(".:"), "{e}");
        }
    }
    // Through the CLI: mnist_conv_f32 (110660 bytes) cut in half; its buffers table lies at
    // bytes 110564..110568.
    let bytes = std::fs::read(sample("mnist_conv_f32.tflite")).unwrap();
    let path = tmp("half.tflite", &bytes[..bytes.len() / 2]);
    let (code, _, err) = arenascope(&["plan", path.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        err.trim_end(),
        format!(
            "arenascope: the file is truncated or not a .tflite model (the model refers to bytes \
             110564..110568, the file ends at byte 55330): {}",
            path.display()
        )
    );
}

#[test]
fn a_csv_with_a_header_and_no_rows_is_refused() {
    let path = tmp("header_only.csv", b"id,lower,upper,size\n\n");
    for args in [vec!["solve"], vec!["plan"]] {
        let mut args = args.clone();
        args.push(path.to_str().unwrap());
        let (code, _, err) = arenascope(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(
            err.trim_end(),
            format!(
                "arenascope: the file has a header but no buffer rows below it, so nothing to \
                 plan: {}",
                path.display()
            )
        );
    }
}
