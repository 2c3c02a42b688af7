//! The XNNPACK values and runtime ops a partition becomes (`runtime`).

use super::*;

/// One XNNPACK value the plan cares about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub id: u32,
    /// The model tensor it stands for (`None`: a value a rewrite made).
    pub tensor: Option<usize>,
    pub bytes: u64,
    /// Planned in the workspace (not external, not static).
    pub workspace: bool,
    /// The tensor's label, or what the rewrite made it for; ends with `[v<id>]`.
    pub name: String,
    /// A dynamically quantised value (`qduint8`): its batch rows, each with quantisation
    /// parameters (8 bytes) and a row sum (4 bytes) planned after the data, with 15 rows more
    /// (`XNN_EXTRA_QUANTIZATION_PARAMS`) and each part rounded on its own.
    pub quantised_rows: Option<u64>,
}

impl Value {
    /// Bytes XNNPACK plans for it on `platform` (`xnn_plan_memory`).
    pub fn planned_bytes(&self, platform: Platform) -> u64 {
        let extra = self.quantised_rows.map_or(0, |rows| {
            platform.rounded((rows + 15) * 8) + platform.rounded((rows + 15) * 4)
        });
        platform.rounded(self.bytes) + extra
    }
}

/// One op of a partition's runtime.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Op {
    pub kind: &'static str,
    /// The TFLite node it came from.
    pub node: usize,
    /// "kind (node N OP)", for the op axis.
    pub label: String,
    /// Value ids read and written (static weights left out: they are never planned).
    pub inputs: Vec<u32>,
    pub outputs: Vec<u32>,
    /// Bytes of its own workspace (before rounding).
    pub workspace_bytes: u64,
}

/// A partition as XNNPACK runs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Runtime {
    pub values: Vec<Value>,
    pub ops: Vec<Op>,
    /// Values in the id space (defined or not): op workspaces are numbered after them.
    pub num_values: u32,
}

/// The values and runtime ops of `p`.
pub fn runtime(model: &Model, p: &Partition) -> Runtime {
    let sg = &model.subgraphs[p.subgraph];
    // A skipped fp16 DEQUANTIZE adds nothing: its readers take the fp16 tensor instead.
    let source = |t: i32| match fp16_dequantize_of(model, p.subgraph, t) {
        Some(d) if skipped_dequantize(model, p.subgraph, d) => sg.operators[d].inputs[0],
        _ => t,
    };
    let mut set: Vec<usize> = Vec::new();
    // Nodes the delegate runs once when it prepares (static data), never in the runtime.
    let unpacked = |n: usize| {
        let op = &sg.operators[n];
        let first = op.inputs.first().copied().unwrap_or(-1);
        (op.builtin == ops::DEQUANTIZE
            && unpacked_constant(model, p.subgraph, first)
            && dtype(model, p.subgraph, first) == Some(TensorType::Float16))
            || (op.builtin == ops::DENSIFY && constant(model, p.subgraph, first))
    };
    for &n in p.nodes.iter().filter(|&&n| !unpacked(n)) {
        let op = &sg.operators[n];
        let reads = match op.builtin {
            ops::RESHAPE | ops::MEAN | ops::PAD | RESIZE_BILINEAR | STRIDED_SLICE => {
                &op.inputs[..op.inputs.len().min(1)]
            }
            _ => &op.inputs[..],
        };
        set.extend(
            reads
                .iter()
                .map(|&t| source(t))
                .chain(op.outputs.iter().copied())
                .filter_map(|t| usize::try_from(t).ok()),
        );
    }
    set.sort_unstable();
    set.dedup();
    let external =
        |t: usize| p.outputs.contains(&t) || (p.inputs.contains(&t) && !sg.tensors[t].is_constant);
    let mut id_of = std::collections::HashMap::new();
    let mut values = Vec::new();
    let mut next = 0u32;
    for &t in set.iter().filter(|&&t| external(t)) {
        id_of.insert(t, next);
        next += 1;
    }
    next = set.len() as u32;
    for &t in set.iter().filter(|&&t| !external(t)) {
        id_of.insert(t, next);
        next += 1;
    }
    // Clamps merged into their producer: the producer writes the clamp's output, and the
    // value between them is never defined.
    let merged = merged_clamps(model, p);
    let skipped = |n: usize| unpacked(n) || merged.iter().any(|m| m.clamp == n);
    let luts = lut_fusions(model, p);
    // Never a workspace value: a dequantised constant (static, or replaced by its fp16
    // source), the value between a merged clamp and its producer.
    let undefined = |t: usize| {
        fp16_dequantize_of(model, p.subgraph, t as i32).is_some()
            || densified(model, p.subgraph, t as i32).is_some()
            || merged.iter().any(|m| m.between == t)
            || luts.iter().any(|f| f.between == t)
    };
    let labels = model.tensor_labels(p.subgraph);
    for &t in &set {
        let tensor = &sg.tensors[t];
        values.push(Value {
            id: id_of[&t],
            tensor: Some(t),
            bytes: tensor.bytes.unwrap_or(0),
            workspace: !external(t) && !tensor.is_constant && !undefined(t),
            name: format!("{} [v{}]", labels[t], id_of[&t]),
            quantised_rows: None,
        });
    }
    let label_of = |t: i32| {
        usize::try_from(t)
            .ok()
            .and_then(|t| labels.get(t).cloned())
            .unwrap_or_default()
    };
    let planned = |t: i32| -> Option<u32> {
        let t = usize::try_from(t).ok()?;
        (!sg.tensors[t].is_constant && !undefined(t)).then(|| id_of.get(&t).copied())?
    };
    let mut ops_out = Vec::new();
    for &n in p.nodes.iter().filter(|&&n| !skipped(n)) {
        let op = &sg.operators[n];
        let first = op.inputs.first().copied().unwrap_or(-1);
        if luts.iter().any(|f| f.unary == n) {
            // Fused away, but it keeps its op index.
            ops_out.push(Op {
                kind: "invalid",
                node: n,
                label: String::new(),
                inputs: Vec::new(),
                outputs: Vec::new(),
                workspace_bytes: 0,
            });
            continue;
        }
        if let Some(f) = luts.iter().find(|f| f.mul == n) {
            let x = sg.operators[f.unary].inputs[0];
            ops_out.push(Op {
                kind: "unary_elementwise",
                node: n,
                label: String::new(),
                inputs: planned(x).into_iter().collect(),
                outputs: op.outputs.iter().filter_map(|&t| planned(t)).collect(),
                workspace_bytes: 0,
            });
            continue;
        }
        let inputs: Vec<u32> = match op.builtin {
            ops::RESHAPE | ops::MEAN | ops::PAD | RESIZE_BILINEAR | STRIDED_SLICE => {
                planned(first).into_iter().collect()
            }
            _ => op.inputs.iter().filter_map(|&t| planned(t)).collect(),
        };
        // A merged clamp's producer writes the clamp's output.
        let outputs: Vec<u32> = op
            .outputs
            .iter()
            .map(|&t| {
                merged
                    .iter()
                    .find(|m| m.between as i32 == t)
                    .map_or(t, |m| m.output as i32)
            })
            .filter_map(planned)
            .collect();
        let kind = match op.builtin {
            ops::CONV_2D => "convolution_2d",
            ops::DEPTHWISE_CONV_2D => "depthwise_convolution_2d",
            ops::MAX_POOL_2D => "max_pooling_2d",
            ops::AVERAGE_POOL_2D => "average_pooling_2d",
            ops::RESHAPE => "static_reshape",
            ops::SOFTMAX => "softmax",
            ops::FULLY_CONNECTED => "fully_connected",
            ops::ADD | ops::SUB | ops::MUL | PRELU => "binary_elementwise",
            RESIZE_BILINEAR => "static_resize_bilinear_2d",
            STRIDED_SLICE => "static_slice",
            ops::MEAN => "static_mean",
            ops::CONCATENATION => "concatenate",
            ops::PAD => "static_constant_pad",
            _ => "unary_elementwise",
        };
        if let Some(rows) = dynamic_range_conv(model, p.subgraph, op) {
            // Dynamic range: a convert op quantises the input into a value of its own (one
            // byte an element, then the rows' parameters and sums); the filter is re-defined
            // as a per-channel int8 value, one id more; the convolution reads the quantised
            // value.
            let quantised = next;
            next += 2;
            let elements = usize::try_from(first)
                .ok()
                .and_then(|t| sg.tensors.get(t))
                .map_or(0, |t| t.elements());
            values.push(Value {
                id: quantised,
                tensor: None,
                bytes: elements,
                workspace: true,
                name: format!("{} quantised [v{quantised}]", label_of(first)),
                quantised_rows: Some(rows),
            });
            ops_out.push(Op {
                kind: "convert",
                node: n,
                label: String::new(),
                inputs: planned(first).into_iter().collect(),
                outputs: vec![quantised],
                workspace_bytes: 0,
            });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs: vec![quantised],
                outputs,
                workspace_bytes: 0,
            });
            continue;
        }
        let out_bytes = |outputs: &[u32], values: &[Value]| {
            values
                .iter()
                .find(|v| outputs.first() == Some(&v.id))
                .map_or(0, |v| v.bytes)
        };
        if let Options::Binary { activation: 1..=3 } = op.options {
            // A fused activation becomes a clamp node: the binary op writes a new value, the
            // clamp reads it into the node's output (`xnn_insert_clamp_node`).
            let inner = next;
            next += 1;
            values.push(Value {
                id: inner,
                tensor: None,
                bytes: out_bytes(&outputs, &values),
                workspace: true,
                name: format!(
                    "{} before its clamp [v{inner}]",
                    label_of(op.outputs.first().copied().unwrap_or(-1))
                ),
                quantised_rows: None,
            });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs,
                outputs: vec![inner],
                workspace_bytes: 0,
            });
            ops_out.push(Op {
                kind: "unary_elementwise",
                node: n,
                label: String::new(),
                inputs: vec![inner],
                outputs,
                workspace_bytes: 0,
            });
            continue;
        }
        if op.builtin == ops::MEAN && dtype(model, p.subgraph, first) != Some(TensorType::Float32) {
            // Quantised mean: an accumulator of 4 bytes per output element plus 16.
            let elements = op
                .outputs
                .first()
                .and_then(|&t| usize::try_from(t).ok())
                .and_then(|t| sg.tensors.get(t))
                .map_or(0, |t| {
                    t.shape.iter().map(|&d| d.max(0) as u64).product::<u64>()
                });
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs,
                outputs,
                workspace_bytes: elements * 4 + 16,
            });
            continue;
        }
        let keep_dims = matches!(
            op.options,
            Options::FullyConnected {
                keep_num_dims: true,
                ..
            }
        );
        if op.builtin == ops::FULLY_CONNECTED && !keep_dims {
            // The flattening reshape onto a new value of the input's bytes.
            let bytes = values
                .iter()
                .find(|v| inputs.first() == Some(&v.id))
                .map_or(0, |v| v.bytes);
            let flat = next;
            next += 1;
            values.push(Value {
                id: flat,
                tensor: None,
                bytes,
                workspace: true,
                name: format!("{} flattened [v{flat}]", label_of(first)),
                quantised_rows: None,
            });
            ops_out.push(Op {
                kind: "static_reshape",
                node: n,
                label: String::new(),
                inputs: inputs.clone(),
                outputs: vec![flat],
                workspace_bytes: 0,
            });
            if dtype(model, p.subgraph, first) == Some(TensorType::Int8) {
                // The int8 filter re-defined as a per-channel static value: an id, no bytes
                // planned.
                next += 1;
            }
            // Dynamic range: the filter two ids on, the quantised row in the op's workspace.
            let dynamic = dynamic_range_row(model, p.subgraph, op);
            if dynamic.is_some() {
                next += 2;
            }
            ops_out.push(Op {
                kind,
                node: n,
                label: String::new(),
                inputs: vec![flat],
                outputs,
                workspace_bytes: dynamic.map_or(0, |k| crate::analysis::round_up(k, 4) + 8),
            });
            continue;
        }
        ops_out.push(Op {
            kind,
            node: n,
            label: String::new(),
            inputs,
            outputs,
            workspace_bytes: 0,
        });
    }
    values.sort_by_key(|v| v.id);
    for op in &mut ops_out {
        op.label = format!(
            "{} (node {} {})",
            op.kind,
            op.node,
            model.op_name(&sg.operators[op.node])
        );
    }
    Runtime {
        values,
        ops: ops_out,
        num_values: next,
    }
}
