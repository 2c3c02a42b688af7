//! LiteRT's view of a subgraph: what its kernels' Prepare changes, the lifetimes its
//! `ArenaPlanner` derives (with in-place sharing) and the order it allocates in.
//!
//! The rules are RUNTIME_RULES.md A.1–A.5 and L1–L8, applied to the file alone:
//! 1. allocation type per tensor (L1): constant → read-only, STRING/RESOURCE/VARIANT →
//!    dynamic, variable → persistent, else the RW arena;
//! 2. Prepare in node order (L2–L4, L6), stopping after the first node with a dynamic output:
//!    WHILE drops unused pass-through outputs, DEQUANTIZE/DENSIFY of a constant and VAR_HANDLE
//!    move their output out of the RW arena, kernels add temporaries with indices after the
//!    model's tensors (Init-phase reservations first, then Prepare-phase ones);
//! 3. in-place sharing (A.5, L5) and the refcount walk that gives `alloc`/`dealloc` nodes;
//! 4. the candidate vector in libstdc++ `unordered_set` iteration order (L7), which
//!    `planner::litert` sorts and places.

use std::collections::HashMap;

use super::problem::{Alias, Buffer, BufferKind, Lifetimes, LitertCandidate, Outside, Problem};
use super::AnalysisError;
use crate::model::{ops, Model, Options, TensorType};

const NOT_ASSIGNED: u32 = u32::MAX;
/// LiteRT's `kDefaultTensorAlignment`.
pub const LITERT_ALIGNMENT: u64 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum AllocType {
    MmapRo,
    PersistentRo,
    Dynamic,
    ArenaRwPersistent,
    ArenaRw,
}

/// A tensor as the interpreter sees it after Prepare (model tensors and kernel temporaries).
#[derive(Clone, Debug)]
struct ITensor {
    name: String,
    bytes: u64,
    alloc: AllocType,
    /// A kernel temporary reserved but never given a size (holds no arena bytes).
    unused: bool,
}

/// The interpreter-side state after Prepare for one subgraph.
struct Prepared {
    tensors: Vec<ITensor>,
    inputs_of: Vec<Vec<i32>>,
    outputs_of: Vec<Vec<i32>>,
    temporaries: Vec<Vec<usize>>,
    /// Nodes `0..=last_prepared` are planned (the first chunk).
    last_prepared: usize,
}

/// Builds the `litert` problem of subgraph `sg_index` (DESIGN.md §1.2, RUNTIME_RULES.md).
pub fn problem(model: &Model, sg_index: usize) -> Result<Problem, AnalysisError> {
    let sg = model
        .subgraphs
        .get(sg_index)
        .ok_or(AnalysisError::NoSubgraph(sg_index))?;
    let p = prepare(model, sg_index);
    let n_nodes = sg.operators.len();
    let nt = p.tensors.len();
    let is_input = mask(nt, &sg.inputs);
    let is_output = mask(nt, &sg.outputs);
    let variables: Vec<usize> = (0..sg.tensors.len())
        .filter(|&t| sg.tensors[t].is_variable)
        .collect();

    // --- refcounts_ as IdentifyInPlaceTensors sees them (L5).
    let mut refcounts = vec![0u32; nt];
    for &t in sg.outputs.iter().chain(&variables).chain(&sg.inputs) {
        refcounts[t] += 1;
    }
    for ins in &p.inputs_of {
        for &t in ins.iter().filter(|&&t| t >= 0) {
            refcounts[t as usize] += 1;
        }
    }

    // --- in-place sharing (A.5).
    let mut actual: HashMap<usize, usize> = HashMap::new();
    let root = |actual: &HashMap<usize, usize>, mut t: usize| {
        while let Some(&r) = actual.get(&t) {
            t = r;
        }
        t
    };
    for (i, op) in sg.operators.iter().enumerate() {
        let Some((shared_mask, modifies)) = inplace_flags(op.builtin) else {
            continue;
        };
        let Some(&out) = p.outputs_of[i].first() else {
            continue;
        };
        if out < 0 {
            continue;
        }
        let out = out as usize;
        let mut chosen = None;
        for (k, &inp) in p.inputs_of[i].iter().take(3).enumerate() {
            if inp < 0 || shared_mask & (1 << k) == 0 {
                continue;
            }
            let inp = inp as usize;
            let (ti, to) = (&p.tensors[inp], &p.tensors[out]);
            if modifies && (ti.bytes != to.bytes || ti.bytes <= 4 || refcounts[inp] > 1) {
                continue;
            }
            if is_input[inp] || is_output[out] {
                continue;
            }
            if !(ti.alloc == to.alloc || ti.alloc == AllocType::ArenaRw) {
                continue;
            }
            chosen = Some(inp);
            break;
        }
        let Some(inp) = chosen else { continue };
        let r = root(&actual, inp);
        if modifies && refcounts[r] > 1 {
            continue;
        }
        actual.insert(out, r);
    }

    // --- PlanAllocations: alloc/dealloc nodes, refcounts through roots.
    let mut alloc = vec![NOT_ASSIGNED; nt];
    let mut dealloc = vec![NOT_ASSIGNED; nt];
    let mut nodes_to_tensors: Vec<StdUnorderedSet> = (0..n_nodes.max(1))
        .map(|_| StdUnorderedSet::new())
        .collect();
    let mut rc = vec![0u32; nt];
    for &t in sg.outputs.iter().chain(&variables).chain(&sg.inputs) {
        rc[t] += 1;
    }
    let allocate =
        |node: usize, t: usize, alloc: &mut Vec<u32>, sets: &mut Vec<StdUnorderedSet>| {
            if alloc[t] == NOT_ASSIGNED {
                alloc[t] = node as u32;
                sets[node].insert(t);
            }
        };
    for &t in variables.iter().chain(&sg.inputs) {
        allocate(0, t, &mut alloc, &mut nodes_to_tensors);
    }
    for ins in &p.inputs_of {
        for &t in ins.iter().filter(|&&t| t >= 0) {
            rc[root(&actual, t as usize)] += 1;
        }
    }
    for i in 0..n_nodes {
        for &t in p.outputs_of[i].iter().filter(|&&t| t >= 0) {
            allocate(i, t as usize, &mut alloc, &mut nodes_to_tensors);
        }
        for &t in p.inputs_of[i].iter().filter(|&&t| t >= 0) {
            let r = root(&actual, t as usize);
            rc[r] = rc[r].saturating_sub(1);
            if rc[r] == 0 && alloc[r] != NOT_ASSIGNED && dealloc[r] == NOT_ASSIGNED {
                dealloc[r] = i as u32;
            }
        }
    }
    // Temporaries (ExecuteAllocations): alive at their node only.
    for (i, temps) in p.temporaries.iter().enumerate().take(p.last_prepared + 1) {
        for &t in temps {
            alloc[t] = i as u32;
            dealloc[t] = i as u32;
            nodes_to_tensors[i].insert(t);
        }
    }

    // --- the candidate vector (L7) and the problem.
    let last_step = n_nodes.saturating_sub(1) as u32;
    let steps = n_nodes.max(1) as u32;
    let first_temp = sg.tensors.len();
    let kind_of = |t: usize| {
        if t >= first_temp {
            BufferKind::Scratch
        } else if is_input[t] {
            BufferKind::Input
        } else if is_output[t] {
            BufferKind::Output
        } else {
            BufferKind::Activation
        }
    };
    let planned = |t: usize| {
        alloc[t] != NOT_ASSIGNED
            && (alloc[t] as usize) <= p.last_prepared
            && p.tensors[t].alloc == AllocType::ArenaRw
            && p.tensors[t].bytes > 0
    };
    // An alias whose root is not in the RW arena with the same size is placed itself (L8).
    let alias_root = |t: usize| -> Option<usize> {
        let r = root(&actual, t);
        (r != t
            && p.tensors[r].alloc == AllocType::ArenaRw
            && p.tensors[r].bytes == p.tensors[t].bytes)
            .then_some(r)
    };
    let mut buffer_of = vec![None; nt];
    let mut buffers = Vec::new();
    for t in 0..nt {
        if planned(t) && alias_root(t).is_none() {
            buffer_of[t] = Some(buffers.len());
            let last = if dealloc[t] == NOT_ASSIGNED {
                last_step
            } else {
                dealloc[t]
            };
            buffers.push(Buffer {
                tensor: t,
                subgraph: sg_index,
                name: p.tensors[t].name.clone(),
                kind: kind_of(t),
                size_bytes: p.tensors[t].bytes,
                first: alloc[t],
                last,
                alignment: LITERT_ALIGNMENT,
                fixed_offset: None,
            });
        }
    }
    // Last consumer of each tensor (for the aliases' own lifetimes).
    let mut last_use = vec![None::<u32>; nt];
    for (i, ins) in p.inputs_of.iter().enumerate() {
        for &t in ins.iter().filter(|&&t| t >= 0) {
            last_use[t as usize] = Some(i as u32);
        }
    }
    let mut aliases = Vec::new();
    for t in 0..nt {
        if !planned(t) {
            continue;
        }
        let Some(r) = alias_root(t) else { continue };
        let Some(root_buffer) = buffer_of[r] else {
            continue;
        };
        let last = if is_output[t] {
            last_step
        } else {
            last_use[t].unwrap_or(last_step)
        };
        aliases.push(Alias {
            tensor: t,
            subgraph: sg_index,
            name: p.tensors[t].name.clone(),
            kind: kind_of(t),
            size_bytes: p.tensors[t].bytes,
            first: alloc[t],
            last: last.max(alloc[t]),
            root: root_buffer,
        });
    }
    let mut outside = Vec::new();
    for (t, it) in p.tensors.iter().enumerate() {
        let reason = match it.alloc {
            AllocType::ArenaRwPersistent | AllocType::PersistentRo
                if !sg.tensors.get(t).is_some_and(|x| x.is_variable) =>
            {
                "persistent"
            }
            AllocType::ArenaRwPersistent => "variable",
            AllocType::Dynamic if !it.unused => "dynamic",
            _ => continue,
        };
        outside.push(Outside {
            tensor: t,
            subgraph: sg_index,
            name: it.name.clone(),
            size_bytes: it.bytes,
            reason,
        });
    }

    let mut candidates = Vec::new();
    for set in nodes_to_tensors.iter().take(p.last_prepared + 1) {
        for t in set.iter() {
            let it = &p.tensors[t];
            let keep = (it.alloc == AllocType::ArenaRw && it.bytes > 0)
                || it.alloc == AllocType::ArenaRwPersistent;
            if keep {
                candidates.push(LitertCandidate {
                    tensor: t,
                    size_bytes: it.bytes,
                    alloc_node: alloc[t],
                    never_freed: dealloc[t] == NOT_ASSIGNED,
                    buffer: buffer_of[t],
                });
            }
        }
    }

    Ok(Problem {
        lifetimes: Some(Lifetimes::Litert),
        subgraph: Some(sg_index),
        buffers,
        aliases,
        outside,
        steps,
        litert_candidates: Some(candidates),
        step_values: Vec::new(),
    })
}

fn mask(n: usize, idx: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &i in idx {
        if i < n {
            m[i] = true;
        }
    }
    m
}

/// In-place flags of an op (A.5): (bit k = input k may be shared, data modified).
fn inplace_flags(builtin: i32) -> Option<(u8, bool)> {
    match builtin {
        ops::RESHAPE | ops::SQUEEZE | ops::EXPAND_DIMS | ops::BITCAST => Some((0b001, false)),
        ops::ADD | ops::SUB | ops::MUL | ops::DIV => Some((0b011, true)),
        ops::SOFTMAX | ops::DYNAMIC_UPDATE_SLICE => Some((0b001, true)),
        _ => None,
    }
}

fn shape_of(model: &Model, sg: usize, t: i32) -> Option<&[i32]> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[sg]
        .tensors
        .get(t)
        .map(|x| x.shape.as_slice())
}

fn dtype_of(model: &Model, sg: usize, t: i32) -> Option<TensorType> {
    let t = usize::try_from(t).ok()?;
    model.subgraphs[sg].tensors.get(t).map(|x| x.dtype)
}

fn elements(shape: &[i64]) -> u64 {
    shape
        .iter()
        .map(|&d| d.max(0) as u64)
        .fold(1u64, |a, d| a.saturating_mul(d))
}

/// Runs the Prepare-time rules (L1–L4, L6) over subgraph `si`.
fn prepare(model: &Model, si: usize) -> Prepared {
    let sg = &model.subgraphs[si];
    let labels = model.tensor_labels(si);
    let mut tensors: Vec<ITensor> = sg
        .tensors
        .iter()
        .zip(labels)
        .map(|(t, name)| ITensor {
            name,
            bytes: t.bytes.unwrap_or(0),
            alloc: if t.is_constant {
                AllocType::MmapRo
            } else if t.dtype.is_dynamic() || t.bytes.is_none() {
                AllocType::Dynamic
            } else if t.is_variable {
                AllocType::ArenaRwPersistent
            } else {
                AllocType::ArenaRw
            },
            unused: false,
        })
        .collect();
    let n_nodes = sg.operators.len();
    let inputs_of: Vec<Vec<i32>> = sg.operators.iter().map(|o| o.inputs.clone()).collect();
    let mut outputs_of: Vec<Vec<i32>> = sg.operators.iter().map(|o| o.outputs.clone()).collect();
    let mut temporaries = vec![Vec::new(); n_nodes];

    let reserve = |tensors: &mut Vec<ITensor>, count: usize| -> usize {
        let base = tensors.len();
        for _ in 0..count {
            tensors.push(ITensor {
                name: String::new(),
                bytes: 0,
                alloc: AllocType::Dynamic,
                unused: true,
            });
        }
        base
    };
    // Init phase: per-node reservations, in node order.
    let mut init_base = vec![0usize; n_nodes];
    for (i, op) in sg.operators.iter().enumerate() {
        let count = match op.builtin {
            ops::UNIDIRECTIONAL_SEQUENCE_LSTM => 12,
            ops::SVDF => 6,
            _ => 0,
        };
        if count > 0 {
            init_base[i] = reserve(&mut tensors, count);
        }
    }
    let set_temp = |tensors: &mut Vec<ITensor>, idx: usize, shape: &[i64], dtype: TensorType| {
        let bytes = dtype
            .bytes_for(elements(shape))
            .and_then(Result::ok)
            .unwrap_or(0);
        tensors[idx] = ITensor {
            name: String::new(),
            bytes,
            alloc: AllocType::ArenaRw,
            unused: false,
        };
    };

    // Prepare phase, node by node, until the first node with a dynamic output.
    let mut last_prepared = n_nodes.saturating_sub(1);
    let is_const = |tensors: &[ITensor], t: i32| {
        t >= 0
            && matches!(
                tensors[t as usize].alloc,
                AllocType::MmapRo | AllocType::PersistentRo
            )
    };
    for (i, op) in sg.operators.iter().enumerate() {
        let in0 = op.inputs.first().copied().unwrap_or(-1);
        let out0 = op.outputs.first().copied().unwrap_or(-1);
        match op.builtin {
            ops::WHILE => {
                if let Options::While { body_subgraph, .. } = op.options {
                    let body = &model.subgraphs[body_subgraph as usize];
                    for (k, out) in outputs_of[i].iter_mut().enumerate() {
                        if *out < 0 {
                            continue;
                        }
                        let t = *out as usize;
                        let pass_through = body.inputs.get(k).is_some()
                            && body.inputs.get(k) == body.outputs.get(k);
                        let consumed = inputs_of.iter().flatten().any(|&x| x == *out)
                            || sg.outputs.contains(&t);
                        if pass_through && !consumed && !sg.tensors[t].dtype.is_dynamic() {
                            *out = -1;
                        }
                    }
                }
            }
            ops::DEQUANTIZE if is_const(&tensors, in0) && out0 >= 0 => {
                tensors[out0 as usize].alloc = AllocType::ArenaRwPersistent;
            }
            ops::DENSIFY if is_const(&tensors, in0) && out0 >= 0 => {
                tensors[out0 as usize].alloc = AllocType::PersistentRo;
            }
            ops::VAR_HANDLE if out0 >= 0 => {
                let t = &mut tensors[out0 as usize];
                t.alloc = AllocType::ArenaRwPersistent;
                t.bytes = 4;
            }
            ops::READ_VARIABLE if out0 >= 0 && sg.tensors[out0 as usize].shape.is_empty() => {
                tensors[out0 as usize].alloc = AllocType::Dynamic;
            }
            ops::CONV_2D => {
                if let (
                    Some(inp),
                    Some(filter),
                    Some(out),
                    Options::Conv2D {
                        stride_w,
                        stride_h,
                        dilation_w,
                        dilation_h,
                    },
                ) = (
                    shape_of(model, si, in0),
                    shape_of(model, si, op.inputs.get(1).copied().unwrap_or(-1)),
                    shape_of(model, si, out0),
                    &op.options,
                ) {
                    let hybrid = dtype_of(model, si, in0) == Some(TensorType::Float32)
                        && matches!(
                            dtype_of(model, si, op.inputs[1]),
                            Some(TensorType::Int8 | TensorType::Uint8)
                        );
                    let need_im2col = *stride_w != 1
                        || *stride_h != 1
                        || *dilation_w != 1
                        || *dilation_h != 1
                        || filter.get(1) != Some(&1)
                        || filter.get(2) != Some(&1);
                    if need_im2col
                        && !hybrid
                        && inp.len() == 4
                        && filter.len() == 4
                        && out.len() == 4
                    {
                        let idx = reserve(&mut tensors, 1);
                        let shape = [
                            out[0] as i64,
                            out[1] as i64,
                            out[2] as i64,
                            inp[3] as i64 * filter[1] as i64 * filter[2] as i64,
                        ];
                        let dtype = dtype_of(model, si, in0).unwrap_or(TensorType::Float32);
                        set_temp(&mut tensors, idx, &shape, dtype);
                        temporaries[i].push(idx);
                    }
                }
            }
            ops::MEAN | ops::SUM => {
                let base = reserve(&mut tensors, 4);
                let in_shape = shape_of(model, si, in0).unwrap_or(&[]);
                set_temp(
                    &mut tensors,
                    base,
                    &[in_shape.len() as i64],
                    TensorType::Int32,
                );
                temporaries[i].push(base);
                let axis = op.inputs.get(1).copied().unwrap_or(-1);
                if is_const(&tensors, axis) {
                    let n_axis = elements(
                        &shape_of(model, si, axis)
                            .unwrap_or(&[])
                            .iter()
                            .map(|&d| d as i64)
                            .collect::<Vec<_>>(),
                    );
                    set_temp(&mut tensors, base + 1, &[n_axis as i64], TensorType::Int32);
                } else {
                    tensors[base + 1].unused = false;
                }
                temporaries[i].push(base + 1);
                let accum = match dtype_of(model, si, in0) {
                    Some(TensorType::Float32) => TensorType::Float32,
                    Some(TensorType::Int32 | TensorType::Int64) => TensorType::Int64,
                    _ => TensorType::Int32,
                };
                let out_elems = shape_of(model, si, out0)
                    .map(|s| s.iter().map(|&d| d as i64).collect::<Vec<_>>())
                    .unwrap_or_default();
                set_temp(
                    &mut tensors,
                    base + 2,
                    &[elements(&out_elems) as i64],
                    accum,
                );
                temporaries[i].push(base + 2);
                // normalized dims: dynamic for a non-constant input, never planned.
                temporaries[i].push(base + 3);
            }
            ops::FULLY_CONNECTED => {
                // Six indices; temporaries only on the hybrid path (not modelled).
                reserve(&mut tensors, 6);
            }
            ops::SVDF => {
                let base = init_base[i];
                let weights_feature = op.inputs.get(1).copied().unwrap_or(-1);
                let full_int8 = dtype_of(model, si, in0) == Some(TensorType::Int8)
                    && dtype_of(model, si, weights_feature) == Some(TensorType::Int8);
                if let (true, Some(wf), Some(inp), Options::Svdf { rank }) = (
                    full_int8,
                    shape_of(model, si, weights_feature),
                    shape_of(model, si, in0),
                    &op.options,
                ) {
                    let num_filters = *wf.first().unwrap_or(&0) as i64;
                    let num_units = if *rank > 0 {
                        num_filters / *rank as i64
                    } else {
                        0
                    };
                    let batch = *inp.first().unwrap_or(&1) as i64;
                    set_temp(&mut tensors, base, &[batch, num_filters], TensorType::Int32);
                    set_temp(
                        &mut tensors,
                        base + 1,
                        &[num_units, batch],
                        TensorType::Int32,
                    );
                    temporaries[i].extend([base, base + 1]);
                }
            }
            ops::UNIDIRECTIONAL_SEQUENCE_LSTM => {
                let base = init_base[i];
                // Cell state (input 19) is [n_batch, n_cell].
                let cell = shape_of(model, si, op.inputs.get(19).copied().unwrap_or(-1));
                let cifg = op.inputs.get(1).is_none_or(|&t| t < 0);
                if let Some([n_batch, n_cell]) = cell
                    .filter(|c| !c.is_empty())
                    .map(|c| [c[0] as i64, c[c.len() - 1] as i64])
                {
                    match dtype_of(model, si, in0) {
                        Some(TensorType::Float32) => {
                            let cols = n_cell * if cifg { 4 } else { 5 } + 16;
                            set_temp(&mut tensors, base, &[n_batch, cols], TensorType::Float32);
                            temporaries[i].push(base);
                        }
                        Some(TensorType::Int8) => {
                            for k in 0..4 {
                                set_temp(
                                    &mut tensors,
                                    base + k,
                                    &[n_batch, n_cell],
                                    TensorType::Int16,
                                );
                            }
                            set_temp(&mut tensors, base + 4, &[n_batch, n_cell], TensorType::Int8);
                            set_temp(
                                &mut tensors,
                                base + 5,
                                &[n_batch, n_cell],
                                TensorType::Int32,
                            );
                            temporaries[i].extend(base..base + 6);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        // WHILE outputs become dynamic when the body changes shapes (L2).
        let has_dynamic_output = outputs_of[i]
            .iter()
            .any(|&t| t >= 0 && tensors[t as usize].alloc == AllocType::Dynamic);
        if has_dynamic_output {
            last_prepared = i;
            break;
        }
    }
    // Kernel temporaries have no name in the file: name them after their node.
    for (i, temps) in temporaries.iter().enumerate() {
        let op = model.op_name(&sg.operators[i]);
        for (k, &t) in temps.iter().enumerate() {
            tensors[t].name = if sg.operators[i].builtin == ops::CONV_2D {
                format!("im2col of node {i} ({op})")
            } else {
                format!("{op} temporary {k} of node {i}")
            };
        }
    }
    Prepared {
        tensors,
        inputs_of,
        outputs_of,
        temporaries,
        last_prepared,
    }
}

/// libstdc++'s `std::unordered_set<int>` iteration order: identity hash, singly linked list
/// where a key goes to the front of its bucket's run (or the list head when its bucket is
/// empty); 13 buckets to start, rehash to the next prime ≥ max(n+1, 2·buckets) when the size
/// would exceed the bucket count.
pub struct StdUnorderedSet {
    /// Keys in list order.
    list: Vec<usize>,
    buckets: usize,
}

impl Default for StdUnorderedSet {
    fn default() -> Self {
        Self::new()
    }
}

impl StdUnorderedSet {
    pub fn new() -> Self {
        StdUnorderedSet {
            list: Vec::new(),
            buckets: 13,
        }
    }

    pub fn insert(&mut self, key: usize) {
        if self.list.contains(&key) {
            return;
        }
        if self.list.len() + 1 > self.buckets {
            let n = next_prime((self.list.len() + 1).max(2 * self.buckets));
            let old = std::mem::take(&mut self.list);
            self.buckets = n;
            for k in old {
                self.link(k);
            }
        }
        self.link(key);
    }

    fn link(&mut self, key: usize) {
        let b = key % self.buckets;
        match self.list.iter().position(|&k| k % self.buckets == b) {
            Some(pos) => self.list.insert(pos, key),
            None => self.list.insert(0, key),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.list.iter().copied()
    }
}

fn next_prime(n: usize) -> usize {
    let is_prime = |p: usize| {
        (2..)
            .take_while(|d| d * d <= p)
            .all(|d| !p.is_multiple_of(d))
    };
    (n.max(2)..).find(|&p| is_prime(p)).unwrap_or(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unordered_set_puts_new_bucket_at_head_and_joins_existing_bucket_front() {
        let mut s = StdUnorderedSet::new();
        for k in [3, 5, 16] {
            s.insert(k);
        }
        // 3 then 5 at the head; 16 hashes to bucket 3 and goes before 3.
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![5, 16, 3]);
    }

    #[test]
    fn next_prime_is_the_smallest_prime_at_least_n() {
        assert_eq!(next_prime(26), 29);
        assert_eq!(next_prime(29), 29);
        assert_eq!(next_prime(58), 59);
    }
}
