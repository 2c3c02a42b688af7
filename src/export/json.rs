//! `plan --format json` (format version 1, DESIGN.md §3.2) as typed, serialisable records:
//! the model facts, one [`PlanEntry`] per plan with its [`BufferRow`]s, TFLM's arena; and the
//! CSV rows of `plan --format csv`, written from the same records.

use serde::Serialize;

use crate::analysis::tflm_tail::{Tail, TailCategory};
use crate::analysis::Problem;
use crate::plan::Plan;

/// Model facts for the JSON header.
#[derive(Clone, Debug, Serialize)]
pub struct ModelInfo {
    pub path: String,
    pub bytes: u64,
    pub subgraphs: usize,
    pub tensors: usize,
    pub operators: usize,
}

/// One buffer (or in-place alias) of a plan.
#[derive(Clone, Debug, Serialize)]
pub struct BufferRow {
    /// The tensor's number, `null` for none (an XNNPACK value that is no model tensor).
    pub tensor: Option<usize>,
    pub subgraph: usize,
    pub name: String,
    pub kind: &'static str,
    pub bytes: u64,
    pub first: u32,
    pub last: u32,
    pub offset: u64,
    /// The root tensor of an in-place output.
    pub alias_of: Option<usize>,
    /// Its offset was fixed by an offline plan.
    pub fixed: bool,
}

/// The bound no execution order beats.
#[derive(Clone, Debug, Serialize)]
pub struct OrderBoundJson {
    pub bytes: u64,
    pub operator: usize,
    pub subgraph: usize,
}

/// What `tensor_arena_size` must be for a plan on tflm lifetimes: head + tail.
#[derive(Clone, Debug, Serialize)]
pub struct TflmArena {
    /// The TFLM build: x86-64, cortex-m, cortex-m-cmsis-nn, cortex-m55-cmsis-nn.
    pub target: &'static str,
    pub head: u64,
    pub tail: u64,
    pub total: u64,
    pub pointer_bytes: u64,
    pub tail_breakdown: Vec<TailCategory>,
    pub measured: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_modelled: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cannot_run: Vec<String>,
    /// TFLM's head with this plan written into the model as its offline plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_when_written: Option<u64>,
}

impl TflmArena {
    pub fn new(head: u64, tail: &Tail, target: crate::analysis::tflm_tail::Target) -> Self {
        TflmArena {
            target: target.name(),
            head,
            tail: tail.bytes,
            total: head + tail.bytes,
            pointer_bytes: target.pointer_bytes(),
            tail_breakdown: tail.categories.clone(),
            measured: target.measured(),
            not_modelled: tail.not_modelled.clone(),
            cannot_run: tail.cannot_run.clone(),
            head_when_written: None,
        }
    }
}

/// One plan of one problem.
#[derive(Clone, Debug, Serialize)]
pub struct PlanEntry {
    pub planner: &'static str,
    pub lifetimes: Option<&'static str>,
    pub subgraph: Option<usize>,
    pub alignment: u64,
    pub arena_bytes: u64,
    pub lower_bound: u64,
    pub optimal: bool,
    pub seconds: f64,
    pub persistent_bytes: u64,
    pub buffers: Vec<BufferRow>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proven_bound: Option<u64>,
    /// XNNPACK workspaces: each step's op label.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<String>,
    /// `tflite` or `workspace` under xnnpack lifetimes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arena: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<usize>,
    /// `file` or `optimized`.
    pub order: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_bound: Option<OrderBoundJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tflm_arena: Option<TflmArena>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tflm_arena_32bit: Option<TflmArena>,
    /// With a budget: `true`, `false` or `"unsure"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fits: Option<serde_json::Value>,
    /// The nodes of this plan's subgraph(s) whose operator the runtime's catalogue has not
    /// verified: the plan's numbers rest on them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_modelled: Vec<crate::analysis::catalogue::NotModelled>,
}

/// A buffer's tensor in the plan JSON: its number, or `None`.
fn tensor_json(tensor: usize) -> Option<usize> {
    (tensor != crate::analysis::problem::NO_TENSOR).then_some(tensor)
}

/// One plan entry: the plan's numbers and every buffer (aliases included), ordered by subgraph
/// then tensor index.
pub fn plan_entry(problem: &Problem, plan: &Plan, order: &'static str) -> PlanEntry {
    let mut rows: Vec<(usize, usize, BufferRow)> = Vec::new();
    for (i, b) in problem.buffers.iter().enumerate() {
        rows.push((
            b.subgraph,
            b.tensor,
            BufferRow {
                tensor: tensor_json(b.tensor),
                subgraph: b.subgraph,
                name: b.name.clone(),
                kind: b.kind.name(),
                bytes: b.size_bytes,
                first: b.first,
                last: b.last,
                offset: plan.offsets[i],
                alias_of: None,
                fixed: b.fixed_offset.is_some(),
            },
        ));
    }
    for a in &problem.aliases {
        let root = &problem.buffers[a.root];
        rows.push((
            a.subgraph,
            a.tensor,
            BufferRow {
                tensor: tensor_json(a.tensor),
                subgraph: a.subgraph,
                name: a.name.clone(),
                kind: a.kind.name(),
                bytes: a.size_bytes,
                first: a.first,
                last: a.last,
                offset: plan.offsets[a.root],
                alias_of: tensor_json(root.tensor),
                fixed: false,
            },
        ));
    }
    rows.sort_by_key(|r| (r.0, r.1));
    PlanEntry {
        planner: plan.planner,
        lifetimes: problem.lifetimes_name(),
        subgraph: problem.subgraph,
        alignment: problem
            .buffers
            .iter()
            .map(|b| b.alignment)
            .max()
            .unwrap_or(1),
        arena_bytes: plan.arena_bytes,
        lower_bound: plan.lower_bound,
        optimal: plan.optimal(),
        seconds: plan.seconds,
        persistent_bytes: problem.persistent_bytes(),
        buffers: rows.into_iter().map(|r| r.2).collect(),
        proven_bound: plan.proven_bound.filter(|&pb| pb > plan.lower_bound),
        ops: problem.step_labels.clone(),
        arena: problem.xnnpack.map(|x| x.arena()),
        partition: problem.partition(),
        order,
        order_bound: None,
        tflm_arena: None,
        tflm_arena_32bit: None,
        fits: None,
        not_modelled: Vec::new(),
    }
}

/// `plan --format csv`: one row per buffer of every plan, in order.
pub fn plan_csv(plans: &[PlanEntry]) -> String {
    let mut out =
        String::from("planner,subgraph,tensor,name,kind,bytes,first,last,offset,alias_of\n");
    let opt = |v: Option<usize>| v.map(|v| v.to_string()).unwrap_or_default();
    for entry in plans {
        for b in &entry.buffers {
            let name = if b.name.contains([',', '"', '\n']) {
                format!("\"{}\"", b.name.replace('"', "\"\""))
            } else {
                b.name.clone()
            };
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{}\n",
                entry.planner,
                b.subgraph,
                b.tensor.map_or("null".to_string(), |t| t.to_string()),
                name,
                b.kind,
                b.bytes,
                b.first,
                b.last,
                b.offset,
                opt(b.alias_of),
            ));
        }
    }
    out
}
