fn main() {
    for path in std::env::args().skip(1) {
        let m = arenascope::model::Model::from_path(std::path::Path::new(&path)).unwrap();
        for sg in &m.subgraphs {
            for op in &sg.operators {
                if op.custom_options.is_empty() {
                    continue;
                }
                let r = flexbuffers::Reader::get_root(op.custom_options.as_slice()).unwrap();
                let map = r.as_map();
                let kv: Vec<String> = map
                    .iter_keys()
                    .zip(map.iter_values())
                    .map(|(k, v)| format!("{k}={v:?}"))
                    .collect();
                let ins: Vec<String> = op
                    .inputs
                    .iter()
                    .map(|&t| {
                        format!(
                            "{:?}{:?}",
                            sg.tensors[t as usize].shape, sg.tensors[t as usize].dtype
                        )
                    })
                    .collect();
                let outs: Vec<String> = op
                    .outputs
                    .iter()
                    .map(|&t| {
                        format!(
                            "{:?}{:?}",
                            sg.tensors[t as usize].shape, sg.tensors[t as usize].dtype
                        )
                    })
                    .collect();
                println!(
                    "{} in {:?} out {:?}\n   {}",
                    m.op_name(op),
                    ins,
                    outs,
                    kv.join(" ")
                );
            }
        }
    }
}
