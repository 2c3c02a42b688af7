use std::path::PathBuf;
use arenascope::document::Document;
use arenascope::analysis::round_up;

#[test]
fn scratch_explore() {
    for model in ["lstm_f32.tflite", "while_loop_f32.tflite", "hello_world_int8.tflite", "keyword_scrambled.tflite"] {
        for lt in [arenascope::analysis::Lifetimes::Litert, arenascope::analysis::Lifetimes::Tflm] {
            let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample_models").join(model);
            let mut doc = Document::open(&path, lt, None).unwrap();
            let request = arenascope::document::PlanRequest::defaults(&doc.source, doc.request.lifetimes, None);
            doc.plan(request).unwrap();
            for k in 0..doc.problem_count() {
                let p = doc.problem(k);
                for plan in doc.plans(k) {
                    for (i, b) in p.buffers.iter().enumerate() {
                        let o = plan.offsets[i];
                        if o + round_up(b.size_bytes, b.alignment) > plan.arena_bytes {
                            println!("{model} {lt:?} sub{k} {} arena {} buf {i} {} off {o} size {} align {} steps {}..{}", plan.planner, plan.arena_bytes, b.name, b.size_bytes, b.alignment, b.first, b.last);
                        }
                    }
                }
            }
        }
    }
}
