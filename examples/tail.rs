fn main() {
    for path in std::env::args().skip(1) {
        let m = arenascope::model::Model::from_path(std::path::Path::new(&path)).unwrap();
        let scratch = arenascope::analysis::tflm::scratch_request_count(&m);
        let t = arenascope::analysis::tflm_tail::tail(&m, scratch);
        let json = std::path::Path::new(&path).with_extension("tflm.json");
        let oracle: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
        if oracle["loaded"] != true {
            continue;
        }
        let want = oracle["tail_bytes"].as_u64().unwrap();
        println!(
            "{:32} ours {:7} oracle {:7} diff {:6} {:?}",
            path.rsplit('/').next().unwrap(),
            t.bytes,
            want,
            want as i64 - t.bytes as i64,
            t.not_modelled
        );
        for c in &t.categories {
            let o = oracle["breakdown"]
                .as_array()
                .unwrap()
                .iter()
                .find(|b| b["type"] == c.name);
            let (ou, or, oc) = o
                .map(|o| {
                    (
                        o["used_bytes"].as_u64().unwrap(),
                        o["requested_bytes"].as_u64().unwrap(),
                        o["count"].as_u64().unwrap(),
                    )
                })
                .unwrap_or((0, 0, 0));
            if (c.bytes, c.requested_bytes, c.count) != (ou, or, oc) {
                println!(
                    "    {:45} ours {:?} oracle {:?}",
                    c.name,
                    (c.bytes, c.requested_bytes, c.count),
                    (ou, or, oc)
                );
            }
        }
    }
}
