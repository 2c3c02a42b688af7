//! The workspace problem XNNPACK plans (`workspace_problem`), the delegated graph LiteRT
//! plans (`delegated_model`), and the problems of the convention (`problems`).

use super::*;

/// The workspace problem of one runtime: a buffer per record of non-zero size in XNNPACK's
/// record order (values by id, then op workspaces), in-place outputs as aliases of their root.
pub fn workspace_problem(rt: &Runtime, subgraph: usize, platform: Platform) -> Problem {
    let n_ops = rt.ops.len();
    // Lifetimes: ops >= 1 first, then op 0 (a value only op 0 touches is [0, 0]).
    let mut life: std::collections::HashMap<u32, (usize, usize)> = Default::default();
    let touch = |life: &mut std::collections::HashMap<u32, (usize, usize)>, v: u32, k: usize| {
        let e = life.entry(v).or_insert((k, k));
        e.0 = e.0.min(k);
        e.1 = e.1.max(k);
    };
    for (k, op) in rt.ops.iter().enumerate() {
        for &v in op.inputs.iter().chain(&op.outputs) {
            touch(&mut life, v, k);
        }
    }
    // Consumers per value (an external output counts one more; they are not planned anyway).
    let consumers = |v: u32| rt.ops.iter().filter(|op| op.inputs.contains(&v)).count();
    let first_consumer = |v: u32| rt.ops.iter().position(|op| op.inputs.contains(&v));
    let value = |v: u32| rt.values.iter().find(|x| x.id == v);
    // In place: the output rides on the input's root.
    let mut root: std::collections::HashMap<u32, u32> = Default::default();
    for op in &rt.ops {
        if !matches!(
            op.kind,
            "unary_elementwise" | "binary_elementwise" | "softmax" | "static_reshape" | "copy"
        ) {
            continue;
        }
        let Some(&out) = op.outputs.first() else {
            continue;
        };
        let Some(out_v) = value(out).filter(|v| v.workspace) else {
            continue;
        };
        if consumers(out) != 1 {
            continue;
        }
        let input = op.inputs.iter().copied().find(|&i| {
            value(i).is_some_and(|v| v.workspace && v.bytes == out_v.bytes) && consumers(i) == 1
        });
        let Some(input) = input else { continue };
        let r = *root.get(&input).unwrap_or(&input);
        root.insert(out, r);
        if let (Some(fc), Some(l)) = (first_consumer(out), life.get_mut(&r)) {
            l.1 = fc;
        }
    }
    let mut buffers = Vec::new();
    let mut aliases = Vec::new();
    let mut buffer_of: std::collections::HashMap<u32, usize> = Default::default();
    for v in rt.values.iter().filter(|v| v.workspace) {
        let (first, last) = life.get(&v.id).copied().unwrap_or((0, 0));
        if root.contains_key(&v.id) {
            continue;
        }
        buffer_of.insert(v.id, buffers.len());
        buffers.push(Buffer {
            tensor: v.tensor.unwrap_or(crate::analysis::problem::NO_TENSOR),
            subgraph,
            name: v.name.clone(),
            kind: BufferKind::Activation,
            size_bytes: v.planned_bytes(platform),
            first: first as u32,
            last: last as u32,
            alignment: platform.alignment(),
            fixed_offset: None,
        });
    }
    for v in rt.values.iter().filter(|v| v.workspace) {
        let Some(r) = root.get(&v.id) else { continue };
        let (first, last) = life.get(&v.id).copied().unwrap_or((0, 0));
        aliases.push(Alias {
            tensor: v.tensor.unwrap_or(crate::analysis::problem::NO_TENSOR),
            subgraph,
            name: v.name.clone(),
            kind: BufferKind::Activation,
            size_bytes: v.bytes,
            first: first as u32,
            last: last as u32,
            root: buffer_of[r],
        });
    }
    for (k, op) in rt.ops.iter().enumerate() {
        if op.workspace_bytes > 0 {
            buffers.push(Buffer {
                tensor: crate::analysis::problem::NO_TENSOR,
                subgraph,
                name: format!("workspace of op {k} ({})", op.kind),
                kind: BufferKind::Scratch,
                size_bytes: platform.rounded(op.workspace_bytes),
                first: k as u32,
                last: k as u32,
                alignment: platform.alignment(),
                fixed_offset: None,
            });
        }
    }
    let mut problem = Problem::from_buffers(buffers);
    problem.steps = problem.steps.max(n_ops as u32);
    problem.step_labels = rt.ops.iter().map(|o| o.label.clone()).collect();
    problem.aliases = aliases;
    problem.subgraph = Some(subgraph);
    problem
}

/// The name of the node that stands for a partition in the delegated graph.
pub const DELEGATE_NODE: &str = "TfLiteXNNPackDelegate";

/// The graph TFLite plans once the delegate has run: the node subsets in epoch order, each
/// partition one node reading its inputs (constants included) and writing its outputs; the
/// tensors only a partition used are then used by nothing.
pub fn delegated_model(model: &Model, delegation: &Delegation) -> Model {
    let mut m = model.clone();
    let code = m.operator_codes.len() as u32;
    m.operator_codes.push(OperatorCode {
        builtin: ops::CUSTOM,
        custom: Some(DELEGATE_NODE.into()),
        version: 1,
    });
    for (si, sg) in m.subgraphs.iter_mut().enumerate() {
        let parts: Vec<&Partition> = delegation
            .partitions
            .iter()
            .filter(|p| p.subgraph == si)
            .collect();
        if parts.is_empty() {
            continue;
        }
        let old = std::mem::take(&mut sg.operators);
        // The subsets in epoch order: a taken one as one node, the others node by node.
        for (taken, nodes) in delegation.subsets.get(si).into_iter().flatten() {
            match parts.iter().find(|p| *taken && p.nodes == *nodes) {
                Some(p) => sg.operators.push(Operator {
                    opcode_index: code,
                    builtin: ops::CUSTOM,
                    inputs: p.inputs.iter().map(|&t| t as i32).collect(),
                    outputs: p.outputs.iter().map(|&t| t as i32).collect(),
                    intermediates: Vec::new(),
                    options: Options::None,
                    custom_options: Vec::new(),
                }),
                None => sg.operators.extend(nodes.iter().map(|&n| old[n].clone())),
            }
        }
    }
    m
}

/// The problems of the xnnpack convention: the delegated graph's TFLite arena per subgraph
/// (LiteRT's ArenaPlanner plans it: `litert` lifetimes), then each partition's workspace
/// (`xnnpack` lifetimes, on that runtime's op axis).
pub fn problems(
    model: &Model,
    platform: Platform,
) -> Result<Vec<Problem>, crate::analysis::AnalysisError> {
    let delegation = delegate(model);
    let delegated = delegated_model(model, &delegation);
    let mut out: Vec<Problem> = Vec::new();
    for s in 0..delegated.subgraphs.len() {
        let mut problem = crate::analysis::litert::problem(&delegated, s)?;
        problem.xnnpack = Some(crate::analysis::XnnpackPart::TfliteArena);
        out.push(problem);
    }
    for (k, p) in delegation.partitions.iter().enumerate() {
        let mut problem = workspace_problem(&runtime(model, p), p.subgraph, platform);
        problem.lifetimes = Some(crate::analysis::Lifetimes::Xnnpack);
        problem.xnnpack = Some(crate::analysis::XnnpackPart::Workspace { partition: k });
        out.push(problem);
    }
    Ok(out)
}
