//! The problem every planner solves: buffers with sizes, inclusive lifetimes and alignment.

use serde::{Deserialize, Serialize};

/// Which runtime's lifetime convention built a problem (DESIGN.md §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lifetimes {
    #[default]
    Litert,
    Tflm,
    /// LiteRT with its default XNNPACK delegate: the delegated graph's TFLite arena (problems
    /// on `Litert` lifetimes) and XNNPACK's workspace (problems on these).
    Xnnpack,
}

impl Lifetimes {
    pub fn name(self) -> &'static str {
        match self {
            Lifetimes::Litert => "litert",
            Lifetimes::Tflm => "tflm",
            Lifetimes::Xnnpack => "xnnpack",
        }
    }

    /// Default offset alignment of the generic planners on this convention.
    pub fn default_alignment(self) -> u64 {
        match self {
            Lifetimes::Litert | Lifetimes::Xnnpack => 64,
            Lifetimes::Tflm => 16,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BufferKind {
    Input,
    Output,
    Activation,
    Scratch,
}

impl BufferKind {
    pub fn name(self) -> &'static str {
        match self {
            BufferKind::Input => "input",
            BufferKind::Output => "output",
            BufferKind::Activation => "activation",
            BufferKind::Scratch => "scratch",
        }
    }
}

/// One buffer of a problem. Its id is its position in [`Problem::buffers`].
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// Tensor index (see DESIGN.md §3.2 for the numbering of each convention).
    pub tensor: usize,
    pub subgraph: usize,
    pub name: String,
    pub kind: BufferKind,
    pub size_bytes: u64,
    /// First step alive (inclusive).
    pub first: u32,
    /// Last step alive (inclusive).
    pub last: u32,
    /// Offsets must be a multiple of this (≥ 1).
    pub alignment: u64,
    /// An offset given in advance (TFLM offline plan).
    pub fixed_offset: Option<u64>,
}

impl Buffer {
    pub fn overlaps_in_time(&self, other: &Buffer) -> bool {
        self.first <= other.last && other.first <= self.last
    }

    /// Bytes lost to rounding the size up to the alignment.
    pub fn padding_bytes(&self) -> u64 {
        round_up(self.size_bytes, self.alignment) - self.size_bytes
    }
}

/// An in-place output sharing its root buffer's bytes; not part of the problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Alias {
    pub tensor: usize,
    pub subgraph: usize,
    pub name: String,
    pub kind: BufferKind,
    pub size_bytes: u64,
    pub first: u32,
    pub last: u32,
    /// Id of the buffer whose bytes it shares.
    pub root: usize,
}

/// A non-constant tensor kept outside the planned arena (variables, persistent tensors).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outside {
    pub tensor: usize,
    pub subgraph: usize,
    pub name: String,
    pub size_bytes: u64,
    /// Why it is outside the reusable arena.
    pub reason: OutsideReason,
}

/// Why a tensor that is not a constant is kept outside the reusable arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutsideReason {
    /// `is_variable`: state that lives across invocations.
    Variable,
    /// Kept by the runtime outside the reusable arena (LiteRT: DEQUANTIZE or DENSIFY of a
    /// constant, VAR_HANDLE; RUNTIME_RULES L3–L4).
    Persistent,
    /// Sized at run time: never in a static plan.
    Dynamic,
}

impl OutsideReason {
    pub fn name(self) -> &'static str {
        match self {
            OutsideReason::Variable => "variable",
            OutsideReason::Persistent => "persistent",
            OutsideReason::Dynamic => "dynamic",
        }
    }
}

/// One entry of LiteRT's allocation candidate vector (see `planner::litert`).
#[derive(Clone, Debug, PartialEq)]
pub struct LitertCandidate {
    pub tensor: usize,
    pub size_bytes: u64,
    pub alloc_node: u32,
    /// `dealloc_node == kNodeNotAssigned`: never freed.
    pub never_freed: bool,
    /// The buffer LiteRT places for it in the RW arena (`None`: persistent, or an alias).
    pub buffer: Option<usize>,
}

/// `Buffer::tensor` of a buffer that stands for no model tensor (an XNNPACK value a rewrite
/// made, an op workspace): the plan JSON says `null`.
pub const NO_TENSOR: usize = usize::MAX;

/// The two halves of the xnnpack convention (DESIGN.md §1.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum XnnpackPart {
    /// The delegated graph's TFLite arena (LiteRT's ArenaPlanner; `litert` lifetimes).
    TfliteArena,
    /// The workspace of XNNPACK partition `partition`, on its runtime's op axis.
    Workspace { partition: usize },
}

impl XnnpackPart {
    /// The plan JSON's `"arena"`.
    pub fn arena(self) -> &'static str {
        match self {
            XnnpackPart::TfliteArena => "tflite",
            XnnpackPart::Workspace { .. } => "workspace",
        }
    }
}

impl Problem {
    /// The model subgraph and local index of tensor `number` of this problem (numbers are per
    /// subgraph under LiteRT's lifetimes, over the concatenation of all subgraphs under
    /// TFLM's); `None` for a kernel temporary or scratch buffer, or a CSV problem.
    pub fn model_tensor(
        &self,
        model: &crate::model::Model,
        number: usize,
    ) -> Option<(usize, usize)> {
        match self.lifetimes? {
            Lifetimes::Litert | Lifetimes::Xnnpack => {
                let sg = self.subgraph?;
                (number < model.subgraphs.get(sg)?.tensors.len()).then_some((sg, number))
            }
            Lifetimes::Tflm => {
                let mut base = 0;
                for (si, sg) in model.subgraphs.iter().enumerate() {
                    if number < base + sg.tensors.len() {
                        return Some((si, number - base));
                    }
                    base += sg.tensors.len();
                }
                None
            }
        }
    }

    /// The convention's name as the plan JSON gives it (`xnnpack` for both of its halves).
    pub fn lifetimes_name(&self) -> Option<&'static str> {
        match self.xnnpack {
            Some(_) => Some("xnnpack"),
            None => self.lifetimes.map(|l| l.name()),
        }
    }

    /// The XNNPACK partition of a workspace problem.
    pub fn partition(&self) -> Option<usize> {
        match self.xnnpack {
            Some(XnnpackPart::Workspace { partition }) => Some(partition),
            _ => None,
        }
    }
}

/// A memory-planning problem (DESIGN.md §1.3).
#[derive(Clone, Debug, Default)]
pub struct Problem {
    /// `None` for a problem read from a CSV file.
    pub lifetimes: Option<Lifetimes>,
    /// The subgraph (litert lifetimes); `None` for tflm (all subgraphs) and CSV problems.
    pub subgraph: Option<usize>,
    /// Which half of LiteRT-with-XNNPACK this is (xnnpack convention), else `None`.
    pub xnnpack: Option<XnnpackPart>,
    pub buffers: Vec<Buffer>,
    pub aliases: Vec<Alias>,
    pub outside: Vec<Outside>,
    /// Number of steps on the time axis (every `last` is below it).
    pub steps: u32,
    /// LiteRT's candidate vector in its hash-set iteration order (litert problems only).
    pub litert_candidates: Option<Vec<LitertCandidate>>,
    /// Kernel temporaries and scratch buffers by the operator that uses them:
    /// (subgraph, operator index, buffer id).
    pub op_scratch: Vec<(usize, usize, usize)>,
    /// For CSV problems: the real time where each compressed step starts, plus the end of the
    /// last one (`steps + 1` values: step `k` is `[v_k, v_(k+1))`); empty otherwise.
    pub step_values: Vec<u64>,
    /// What runs at each step when that is not the model's operator of that index (XNNPACK's
    /// runtime ops: "fully_connected (node 14 CONV_2D)"); empty otherwise.
    pub step_labels: Vec<String>,
}

impl Problem {
    /// The buffer whose bytes a tensor (its number in this problem) occupies: its own, or
    /// its in-place alias root's.
    pub fn buffer_of(&self, tensor: usize) -> Option<usize> {
        self.buffers
            .iter()
            .position(|b| b.tensor == tensor)
            .or_else(|| {
                self.aliases
                    .iter()
                    .find(|a| a.tensor == tensor)
                    .map(|a| a.root)
            })
    }

    /// A problem from plain buffers (no runtime ordering, no aliases).
    pub fn from_buffers(buffers: Vec<Buffer>) -> Self {
        let steps = buffers.iter().map(|b| b.last + 1).max().unwrap_or(0);
        Problem {
            buffers,
            steps,
            ..Default::default()
        }
    }

    /// Sets the offset alignment of every buffer without a fixed offset.
    /// The arena a set of offsets needs: the highest end of a buffer (DESIGN.md §1.3).
    pub fn arena_bytes(&self, offsets: &[u64]) -> u64 {
        self.buffers
            .iter()
            .zip(offsets)
            .map(|(b, &o)| o + b.size_bytes)
            .max()
            .unwrap_or(0)
    }

    pub fn with_alignment(mut self, alignment: u64) -> Self {
        for b in &mut self.buffers {
            if b.fixed_offset.is_none() {
                b.alignment = alignment.max(1);
            }
        }
        self
    }

    pub fn persistent_bytes(&self) -> u64 {
        self.outside
            .iter()
            .filter(|o| o.reason != OutsideReason::Dynamic)
            .map(|o| o.size_bytes)
            .sum()
    }

    /// Bytes alive at each step (the memory curve). Buffers at offsets fixed by the file may
    /// share bytes by the file's choice (Vela's offline plan does), so they count by the union
    /// of their byte ranges.
    pub fn live_bytes_per_step(&self) -> Vec<u64> {
        let n = self.steps as usize;
        let mut delta = vec![0i128; n + 1];
        let mut fixed = Vec::new();
        for b in &self.buffers {
            if b.fixed_offset.is_some() {
                fixed.push(b);
                continue;
            }
            delta[b.first as usize] += b.size_bytes as i128;
            delta[b.last as usize + 1] -= b.size_bytes as i128;
        }
        let mut live = Vec::with_capacity(n);
        let mut acc = 0i128;
        for d in delta.iter().take(n) {
            acc += d;
            live.push(acc as u64);
        }
        if !fixed.is_empty() {
            for (step, v) in live.iter_mut().enumerate() {
                let mut ranges: Vec<(u64, u64)> = fixed
                    .iter()
                    .filter(|b| b.first as usize <= step && step <= b.last as usize)
                    .filter_map(|b| b.fixed_offset.map(|o| (o, o + b.size_bytes)))
                    .collect();
                ranges.sort_unstable();
                let (mut covered, mut end) = (0u64, 0u64);
                for (s, e) in ranges {
                    covered += e.saturating_sub(s.max(end));
                    end = end.max(e);
                }
                *v += covered;
            }
        }
        live
    }

    /// The max-live lower bound (DESIGN.md §1.3).
    pub fn lower_bound(&self) -> u64 {
        self.live_bytes_per_step().into_iter().max().unwrap_or(0)
    }

    /// Pairs of buffer ids whose lifetimes intersect (the conflict graph's edges), found by a
    /// sweep over start times: O(n log n + edges).
    pub fn conflicts(&self) -> Vec<(usize, usize)> {
        let mut order: Vec<usize> = (0..self.buffers.len()).collect();
        order.sort_by_key(|&i| (self.buffers[i].first, i));
        let mut active: Vec<usize> = Vec::new();
        let mut edges = Vec::new();
        for &i in &order {
            let b = &self.buffers[i];
            active.retain(|&j| self.buffers[j].last >= b.first);
            for &j in &active {
                edges.push((i.min(j), i.max(j)));
            }
            active.push(i);
        }
        edges.sort_unstable();
        edges
    }
}

pub fn round_up(value: u64, alignment: u64) -> u64 {
    let a = alignment.max(1);
    value.div_ceil(a).saturating_mul(a)
}
