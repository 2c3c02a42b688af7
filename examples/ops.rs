fn main() {
    for path in std::env::args().skip(1) {
        let m = arenascope::model::Model::from_path(std::path::Path::new(&path)).unwrap();
        let mut ops = std::collections::BTreeMap::new();
        for sg in &m.subgraphs {
            for op in &sg.operators {
                *ops.entry(m.op_name(op)).or_insert(0) += 1;
            }
        }
        println!("{} {:?}", path.rsplit('/').next().unwrap(), ops);
    }
}
