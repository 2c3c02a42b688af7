//! `plan --format json` (format version 1, DESIGN.md §3.2) and `solve --format json`.

use serde_json::{json, Value};

use crate::analysis::Problem;
use crate::plan::Plan;

/// Model facts for the JSON header.
pub struct ModelInfo {
    pub path: String,
    pub bytes: u64,
    pub subgraphs: usize,
    pub tensors: usize,
    pub operators: usize,
}

/// One plan entry: the plan's numbers and every buffer (aliases included), ordered by subgraph
/// then tensor index.
/// A buffer's tensor in the plan JSON: its number, or `null` for none.
fn tensor_json(tensor: usize) -> Value {
    if tensor == crate::analysis::problem::NO_TENSOR {
        Value::Null
    } else {
        tensor.into()
    }
}

pub fn plan_entry(problem: &Problem, plan: &Plan) -> Value {
    let mut rows: Vec<(usize, usize, Value)> = Vec::new();
    for (i, b) in problem.buffers.iter().enumerate() {
        rows.push((
            b.subgraph,
            b.tensor,
            json!({
                "tensor": tensor_json(b.tensor), "subgraph": b.subgraph, "name": b.name, "kind": b.kind.name(),
                "bytes": b.size_bytes, "first": b.first, "last": b.last,
                "offset": plan.offsets[i], "alias_of": null,
                "fixed": b.fixed_offset.is_some(),
            }),
        ));
    }
    for a in &problem.aliases {
        let root = &problem.buffers[a.root];
        rows.push((
            a.subgraph,
            a.tensor,
            json!({
                "tensor": tensor_json(a.tensor), "subgraph": a.subgraph, "name": a.name, "kind": a.kind.name(),
                "bytes": a.size_bytes, "first": a.first, "last": a.last,
                "offset": plan.offsets[a.root], "alias_of": tensor_json(root.tensor),
                "fixed": false,
            }),
        ));
    }
    rows.sort_by_key(|r| (r.0, r.1));
    let alignment = problem
        .buffers
        .iter()
        .map(|b| b.alignment)
        .max()
        .unwrap_or(1);
    let mut entry = json!({
        "planner": plan.planner,
        "lifetimes": problem.lifetimes_name(),
        "subgraph": problem.subgraph,
        "alignment": alignment,
        "arena_bytes": plan.arena_bytes,
        "lower_bound": plan.lower_bound,
        "optimal": plan.optimal(),
        "seconds": plan.seconds,
        "persistent_bytes": problem.persistent_bytes(),
        "buffers": rows.into_iter().map(|r| r.2).collect::<Vec<_>>(),
    });
    if let Some(pb) = plan.proven_bound.filter(|&pb| pb > plan.lower_bound) {
        entry["proven_bound"] = json!(pb);
    }
    if !problem.step_labels.is_empty() {
        entry["ops"] = problem.step_labels.clone().into();
    }
    if let Some(part) = problem.xnnpack {
        entry["arena"] = part.arena().into();
        if let Some(k) = problem.partition() {
            entry["partition"] = k.into();
        }
    }
    entry
}

pub fn plan_document(model: &ModelInfo, entries: Vec<Value>) -> Value {
    json!({
        "format": "arenascope-plan",
        "version": 1,
        "model": {
            "path": model.path, "bytes": model.bytes, "subgraphs": model.subgraphs,
            "tensors": model.tensors, "operators": model.operators,
        },
        "plans": entries,
    })
}

/// `plan --format csv`: one row per buffer of every plan in a plan document, in its order.
pub fn plan_csv(document: &Value) -> String {
    let mut out =
        String::from("planner,subgraph,tensor,name,kind,bytes,first,last,offset,alias_of\n");
    let sub = |v: &Value| match v {
        Value::Null => String::new(),
        other => other.to_string(),
    };
    for entry in document["plans"].as_array().into_iter().flatten() {
        let planner = entry["planner"].as_str().unwrap_or("");
        for b in entry["buffers"].as_array().into_iter().flatten() {
            let name = b["name"].as_str().unwrap_or("");
            let name = if name.contains([',', '"', '\n']) {
                format!("\"{}\"", name.replace('"', "\"\""))
            } else {
                name.to_string()
            };
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{}\n",
                planner,
                sub(&b["subgraph"]),
                b["tensor"],
                name,
                b["kind"].as_str().unwrap_or(""),
                b["bytes"],
                b["first"],
                b["last"],
                b["offset"],
                sub(&b["alias_of"]),
            ));
        }
    }
    out
}

/// The deployer's number for a plan on tflm lifetimes (DESIGN.md §3.2 `tflm_arena`): head
/// (the plan's arena) + tail (TFLM's persistent allocations) = what `tensor_arena_size` must be.
pub fn tflm_arena(
    head: u64,
    tail: &crate::analysis::tflm_tail::Tail,
    pointer_bytes: u64,
    measured: bool,
) -> Value {
    let mut v = json!({
        "head": head,
        "tail": tail.bytes,
        "total": head + tail.bytes,
        "pointer_bytes": pointer_bytes,
        "tail_breakdown": tail.categories.iter().map(|c| json!({
            "type": c.name, "bytes": c.bytes, "requested_bytes": c.requested_bytes, "count": c.count,
        })).collect::<Vec<_>>(),
        "measured": measured,
    });
    if !tail.not_modelled.is_empty() {
        v["not_modelled"] = json!(tail.not_modelled);
    }
    v
}
