//! The operator catalogue (DESIGN.md §3.5): per runtime, every builtin operator it registers
//! and, per type variant, whether what the analysis does with it is **verified** — a model in
//! `sample_models/` or `../shared/models` reproduces it exactly against the real runtime's
//! oracle — or **not modelled**. One table per runtime (`litert.rs`, `tflm.rs`, `xnnpack.rs`),
//! printed by `arenascope ops` and walked by `tests/catalogue.rs`, which checks every claim
//! against the models it names.
//!
//! A node whose operator × type variant is not verified marks every number it touches: the
//! problem's and the runtime summary's `not_modelled` lists, the headline ("approximate", "at
//! least"), the budget verdict ("unsure"). A type variant is what the kernels dispatch on: the
//! first input's element type, or `hybrid` for float input with integer weights.

mod litert;
mod sources;
mod tflm;
mod xnnpack;

use serde::Serialize;

use crate::model::{ops, Model, Operator, TensorType};

/// One verified operator × type variant and the models that verify it.
#[derive(Clone, Copy, Debug)]
pub struct Verified {
    pub op: &'static str,
    pub types: &'static str,
    /// Model file stems (`sample_models/`, `../shared/models`, `../shared/models/tflm`).
    pub by: &'static [&'static str],
}

/// The runtimes the catalogue covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Runtime {
    Litert,
    Tflm,
    Xnnpack,
}

impl Runtime {
    pub const ALL: [Runtime; 3] = [Runtime::Litert, Runtime::Tflm, Runtime::Xnnpack];

    pub fn name(self) -> &'static str {
        match self {
            Runtime::Litert => "litert",
            Runtime::Tflm => "tflm",
            Runtime::Xnnpack => "xnnpack",
        }
    }

    /// The verified variants.
    pub fn verified(self) -> &'static [Verified] {
        match self {
            Runtime::Litert => litert::VERIFIED,
            Runtime::Tflm => tflm::VERIFIED,
            Runtime::Xnnpack => xnnpack::VERIFIED,
        }
    }

    /// Where the runtime's kernels are registered (the entry's source when no kernel file
    /// was read for it).
    pub fn registry_source(self) -> &'static str {
        match self {
            Runtime::Litert => "google-ai-edge/LiteRT tflite/core/kernels/register.cc",
            Runtime::Tflm => "tensorflow/tflite-micro python/tflite_micro/python_ops_resolver.cc",
            Runtime::Xnnpack => {
                "google-ai-edge/LiteRT tflite/delegates/xnnpack/xnnpack_delegate.cc"
            }
        }
    }

    /// How operator `name` was verified when the converter cannot make it, or why it is not.
    pub fn note(self, name: &str) -> Option<&'static str> {
        match self {
            Runtime::Litert => litert::NOTES
                .iter()
                .find(|(op, _)| *op == name)
                .map(|n| n.1),
            _ => None,
        }
    }

    /// The source file (and function, for XNNPACK) of operator `name`'s rule.
    pub fn source_of(self, name: &str) -> String {
        let (repo, table, prefix) = match self {
            Runtime::Litert => ("google-ai-edge/LiteRT", sources::LITERT, ""),
            Runtime::Tflm => ("tensorflow/tflite-micro", sources::TFLM, ""),
            Runtime::Xnnpack => (
                "google-ai-edge/LiteRT",
                sources::XNNPACK,
                "tflite/delegates/xnnpack/xnnpack_delegate.cc ",
            ),
        };
        match table.iter().find(|(op, _)| *op == name) {
            Some((_, file)) => format!("{repo} {prefix}{file}"),
            None => self.registry_source().to_string(),
        }
    }

    /// Whether the runtime registers a kernel for builtin operator `name` (with XNNPACK,
    /// TFLite's kernels run what the delegate refuses).
    pub fn registers(self, name: &str) -> bool {
        match self {
            Runtime::Litert | Runtime::Xnnpack => litert::REGISTERED.contains(&name),
            Runtime::Tflm => tflm::REGISTERED.contains(&name),
        }
    }

    /// The builtin operators the catalogue counts and lists: those the runtime registers, and
    /// with XNNPACK those the delegate's `VisitNode` has a case for (the others it refuses by
    /// its switch's default; their TFLite side in the delegated graph is still verified, in
    /// the XNNPACK table, by the models that hold them).
    pub fn covers(self, name: &str) -> bool {
        match self {
            Runtime::Xnnpack => xnnpack::VISITED.contains(&name),
            _ => self.registers(name),
        }
    }
}

/// The type variant of operator `op` of subgraph `sg`: its first input's element type (the
/// data input's, for TRANSPOSE_CONV), or
/// `hybrid` for a float input with integer weights (dynamic-range quantisation).
pub fn variant(model: &Model, sg: usize, op: &Operator) -> &'static str {
    let Some(s) = model.subgraphs.get(sg) else {
        return "none";
    };
    let input = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| usize::try_from(t).ok())
            .and_then(|t| s.tensors.get(t))
            .map(|t| t.dtype)
    };
    // TRANSPOSE_CONV's data is its third input (the first is the output shape).
    let data = if op.builtin == ops::TRANSPOSE_CONV {
        2
    } else {
        0
    };
    let hybrid = matches!(
        op.builtin,
        ops::FULLY_CONNECTED
            | ops::CONV_2D
            | ops::DEPTHWISE_CONV_2D
            | ops::UNIDIRECTIONAL_SEQUENCE_LSTM
    ) && input(0) == Some(TensorType::Float32)
        && matches!(input(1), Some(TensorType::Int8 | TensorType::Uint8));
    if hybrid {
        return "hybrid";
    }
    input(data).map_or("none", |d| d.name())
}

/// A node whose operator × type variant is not verified for a runtime.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotModelled {
    pub subgraph: usize,
    pub node: usize,
    pub op: String,
    #[serde(rename = "type")]
    pub types: &'static str,
    pub what: &'static str,
}

/// Every node of `model` whose operator × type variant `runtime` has not verified (custom
/// operators included; those the runtime cannot run are [`cannot_run`]'s).
pub fn not_modelled(model: &Model, runtime: Runtime) -> Vec<NotModelled> {
    let verified = runtime.verified();
    let what = match runtime {
        Runtime::Litert => {
            "arena layout (temporaries, in-place sharing) not verified against LiteRT"
        }
        Runtime::Tflm => "persistent allocations and scratch not verified against TFLM",
        Runtime::Xnnpack => "delegation, values and workspace not verified against XNNPACK",
    };
    let mut out = Vec::new();
    for (si, s) in model.subgraphs.iter().enumerate() {
        for (k, op) in s.operators.iter().enumerate() {
            let name = model.op_name(op);
            let types = variant(model, si, op);
            let known = verified.iter().any(|v| v.op == name && v.types == types);
            if !known && cannot_run_node(model, runtime, si, op).is_none() {
                out.push(NotModelled {
                    subgraph: si,
                    node: k,
                    op: name,
                    types,
                    what,
                });
            }
        }
    }
    out
}

/// Why `runtime` refuses node `op` of subgraph `si`: for lack of a kernel, and with TFLM
/// also the types its kernels refuse (`tflm_tail::refusal`).
fn cannot_run_node(model: &Model, runtime: Runtime, si: usize, op: &Operator) -> Option<String> {
    if runtime == Runtime::Tflm {
        return tflm_refusal(model, si, op);
    }
    let name = model.op_name(op);
    if op.builtin == ops::CUSTOM {
        return match runtime {
            Runtime::Litert | Runtime::Xnnpack
                if !litert::CUSTOM_REGISTERED.contains(&name.as_str()) =>
            {
                Some(format!(
                    "custom operator {name}: the builtin resolver registers no kernel for it"
                ))
            }
            _ => None,
        };
    }
    (!runtime.registers(&name)).then(|| format!("{name}: no kernel registered"))
}

/// Why `runtime` cannot run `model` at all: nodes with no kernel, as "node K OP (subgraph
/// S): …" (TFLM's type refusals are its tail's, `tflm_tail::Tail::cannot_run`).
pub fn cannot_run(model: &Model, runtime: Runtime) -> Vec<String> {
    let mut out = Vec::new();
    for (si, s) in model.subgraphs.iter().enumerate() {
        for (k, op) in s.operators.iter().enumerate() {
            if let Some(why) = cannot_run_node(model, runtime, si, op) {
                out.push(format!("node {k} (subgraph {si}) {why}"));
            }
        }
    }
    out
}

/// "PRELU (float32) ×53, BATCH_MATMUL (int8) ×4": the not-modelled nodes counted per operator
/// and type, most first.
pub fn summarize(nodes: &[NotModelled]) -> Vec<String> {
    let mut counts: Vec<((String, &'static str), usize)> = Vec::new();
    for n in nodes {
        match counts
            .iter_mut()
            .find(|c| c.0 .0 == n.op && c.0 .1 == n.types)
        {
            Some(c) => c.1 += 1,
            None => counts.push(((n.op.clone(), n.types), 1)),
        }
    }
    counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    counts
        .into_iter()
        .map(|((op, t), n)| format!("{op} ({t}) ×{n}"))
        .collect()
}

/// One row of `arenascope ops`.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    pub op: String,
    pub types: String,
    pub status: &'static str,
    /// The runtime's source the rule comes from: the kernel file, or the delegate's `Visit*Node`
    /// function (the registry when none was found).
    pub source: String,
    /// The models that verify it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verified_by: Vec<&'static str>,
    /// How the operator was verified when the converter cannot make it, or why it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
}

/// The catalogue of `runtime`: each verified variant, then per builtin operator it registers
/// the variants not verified (`types`: "other" where some are verified, "any" where none is).
pub fn entries(runtime: Runtime) -> Vec<Entry> {
    let mut out = Vec::new();
    for code in 0..=ops::MAX_BUILTIN {
        let Some(name) = ops::name(code) else {
            continue;
        };
        if code == ops::CUSTOM || !runtime.covers(name) {
            continue;
        }
        let verified: Vec<&Verified> = runtime.verified().iter().filter(|v| v.op == name).collect();
        for v in &verified {
            out.push(Entry {
                op: name.to_string(),
                types: v.types.to_string(),
                status: "verified",
                source: runtime.source_of(name),
                verified_by: v.by.to_vec(),
                note: runtime.note(name),
            });
        }
        out.push(Entry {
            op: name.to_string(),
            types: if verified.is_empty() { "any" } else { "other" }.to_string(),
            status: "not modelled",
            source: runtime.source_of(name),
            verified_by: Vec::new(),
            note: runtime.note(name),
        });
    }
    // Custom operators a runtime runs and this catalogue verifies (TFLM's signal library).
    for v in runtime
        .verified()
        .iter()
        .filter(|v| ops::code(v.op).is_none())
    {
        out.push(Entry {
            op: v.op.to_string(),
            types: v.types.to_string(),
            status: "verified",
            source: runtime.source_of(v.op),
            verified_by: v.by.to_vec(),
            note: None,
        });
    }
    out
}

/// How many builtin operators the catalogue of `runtime` covers ([`Runtime::covers`]), and of
/// them how many have at least one verified type variant.
pub fn coverage(runtime: Runtime) -> (usize, usize) {
    let mut registered = 0;
    let mut verified = 0;
    for code in 0..=ops::MAX_BUILTIN {
        let Some(name) = ops::name(code) else {
            continue;
        };
        if code == ops::CUSTOM || !runtime.covers(name) {
            continue;
        }
        registered += 1;
        verified += usize::from(runtime.verified().iter().any(|v| v.op == name));
    }
    (registered, verified)
}

/// One operator × type variant of a model: how many nodes have it and, per runtime, its
/// status there ("verified", "not modelled" or "cannot run").
#[derive(Clone, Debug, Serialize)]
pub struct ModelPair {
    pub op: String,
    pub types: &'static str,
    pub nodes: usize,
    pub litert: &'static str,
    pub tflm: &'static str,
    pub xnnpack: &'static str,
}

/// The operator × type variants of `model`, in first-seen order, with their status per
/// runtime (`arenascope ops --model`).
pub fn model_pairs(model: &Model) -> Vec<ModelPair> {
    let flagged = Runtime::ALL.map(|r| {
        let nm: Vec<(usize, usize)> = not_modelled(model, r)
            .iter()
            .map(|n| (n.subgraph, n.node))
            .collect();
        nm
    });
    let status = |r: usize, si: usize, k: usize, op: &Operator| -> &'static str {
        if cannot_run_node(model, Runtime::ALL[r], si, op).is_some() {
            "cannot run"
        } else if flagged[r].contains(&(si, k)) {
            "not modelled"
        } else {
            "verified"
        }
    };
    // A pair's status is its worst node's.
    let rank = |s: &str| match s {
        "verified" => 0,
        "not modelled" => 1,
        _ => 2,
    };
    let mut out: Vec<ModelPair> = Vec::new();
    for (si, s) in model.subgraphs.iter().enumerate() {
        for (k, op) in s.operators.iter().enumerate() {
            let name = model.op_name(op);
            let types = variant(model, si, op);
            let st = [0, 1, 2].map(|r| status(r, si, k, op));
            let entry = match out
                .iter_mut()
                .position(|p| p.op == name && p.types == types)
            {
                Some(i) => &mut out[i],
                None => {
                    out.push(ModelPair {
                        op: name,
                        types,
                        nodes: 0,
                        litert: "verified",
                        tflm: "verified",
                        xnnpack: "verified",
                    });
                    let last = out.len() - 1;
                    &mut out[last]
                }
            };
            entry.nodes += 1;
            for (slot, new) in [&mut entry.litert, &mut entry.tflm, &mut entry.xnnpack]
                .into_iter()
                .zip(st)
            {
                if rank(new) > rank(slot) {
                    *slot = new;
                }
            }
        }
    }
    out
}

/// The custom operators the TFLM Python interpreter registers: the signal library's and the
/// detection post-processing (`python_ops_resolver.cc`).
pub fn tflm_registers_custom(name: &str) -> bool {
    name.starts_with("Signal") || name == "TFLite_Detection_PostProcess"
}

/// Why TFLM cannot run node `op` of subgraph `s`, when it cannot: no kernel registered (a
/// builtin: "Didn't find op for builtin opcode 'DENSIFY'", measured; a custom operator other
/// than the signal library's), DEQUANTIZE of float16 (dequantize_common.cc takes int8, int16
/// and uint8), dynamic-range quantisation (float input with integer weights: "Hybrid models
/// are not supported on TFLite Micro"), or a type its kernel refuses (`type_refusal`).
pub fn tflm_refusal(model: &Model, s: usize, op: &Operator) -> Option<String> {
    let name = model.op_name(op);
    if op.builtin == ops::CUSTOM {
        return (!tflm_registers_custom(&name))
            .then(|| "custom operator: TFLM registers no kernel for it".to_string());
    }
    if !Runtime::Tflm.registers(&name) {
        return Some("TFLM registers no kernel for it".to_string());
    }
    let dtype = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| model.tensor(s, t))
            .map(|t| t.dtype)
    };
    if op.builtin == ops::DEQUANTIZE && dtype(0) == Some(TensorType::Float16) {
        return Some("float16 input, which TFLM's kernel refuses".to_string());
    }
    if matches!(
        op.builtin,
        ops::FULLY_CONNECTED | ops::CONV_2D | ops::DEPTHWISE_CONV_2D
    ) && dtype(0) == Some(TensorType::Float32)
        && matches!(dtype(1), Some(TensorType::Int8 | TensorType::Uint8))
    {
        return Some(
            "float input with integer weights (dynamic-range quantisation), which TFLM's kernels refuse"
                .to_string(),
        );
    }
    type_refusal(model, s, op).map(str::to_string)
}

/// Types a registered TFLM kernel refuses in Prepare, as its source checks them and the
/// oracle showed (the sweep's exp_int8 / exp_int16, gather_int16, gather_nd_int16,
/// padv2_int16, fill_dynshape_f32, dynamic_reshape_f32).
fn type_refusal(model: &Model, s: usize, op: &Operator) -> Option<&'static str> {
    let dtype = |i: usize| {
        op.inputs
            .get(i)
            .and_then(|&t| model.tensor(s, t))
            .map(|t| t.dtype)
    };
    match ops::name(op.builtin)? {
        // exp.cc: TF_LITE_ENSURE_TYPES_EQ(input->type, kTfLiteFloat32).
        "EXP" if dtype(0) != Some(TensorType::Float32) => Some("EXP takes float32 input only"),
        // gather.cc: float32 and int8 data only.
        "GATHER" if !matches!(dtype(0), Some(TensorType::Float32 | TensorType::Int8)) => {
            Some("GATHER takes float32 or int8 data only")
        }
        // gather_nd.cc: float32 and int8 params only.
        "GATHER_ND" if !matches!(dtype(0), Some(TensorType::Float32 | TensorType::Int8)) => {
            Some("GATHER_ND takes float32 or int8 params only")
        }
        // fill.cc: "Non-constant >dims< tensor is not supported".
        "FILL"
            if !op
                .inputs
                .first()
                .and_then(|&t| model.tensor(s, t))
                .is_some_and(|t| t.is_constant) =>
        {
            Some("FILL's dims must be a constant")
        }
        // reshape_common.cc: the output's dims in the file (one -1 stretched, a legacy [0]
        // a scalar) must hold as many elements as the input.
        "RESHAPE" => {
            let t = |k: usize| op.outputs.get(k).and_then(|&t| model.tensor(s, t));
            let input = op.inputs.first().and_then(|&t| model.tensor(s, t))?;
            let output = t(0)?;
            let elements = |shape: &[i32]| shape.iter().map(|&d| i64::from(d)).product::<i64>();
            let legacy_scalar = op.inputs.len() == 1 && output.shape == [0];
            let stretch = output.shape.contains(&-1);
            let inputs = elements(&input.shape);
            let outputs = if legacy_scalar {
                1
            } else {
                elements(&output.shape)
            };
            (!stretch && inputs != outputs)
                .then_some("RESHAPE's output shape in the file does not hold its input's elements")
        }
        // pad_common.cc: the constant value's type must be the input's.
        "PADV2" if op.inputs.get(2).is_some_and(|&t| t >= 0) && dtype(2) != dtype(0) => {
            Some("PADV2's constant value is not of the input's type")
        }
        _ => None,
    }
}
