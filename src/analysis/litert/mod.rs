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

mod prepare;
mod unordered_set;

use std::collections::HashMap;

use super::problem::{
    Alias, Buffer, BufferKind, Lifetimes, LitertCandidate, Outside, OutsideReason, Problem,
};
use super::AnalysisError;
use crate::model::{ops, Model, Subgraph};
use prepare::Prepared;
use prepare::{prepare, AllocType};
pub use unordered_set::StdUnorderedSet;

const NOT_ASSIGNED: u32 = u32::MAX;
/// LiteRT's `kDefaultTensorAlignment`.
pub const LITERT_ALIGNMENT: u64 = 64;

/// The subgraph's inputs, outputs and variables, as masks over the interpreter's tensors.
struct Io {
    is_input: Vec<bool>,
    is_output: Vec<bool>,
    variables: Vec<usize>,
}

/// When each tensor is allocated and freed (`NOT_ASSIGNED`: never freed), and the tensors
/// allocated at each node in LiteRT's hash-set order.
struct Allocations {
    alloc: Vec<u32>,
    dealloc: Vec<u32>,
    nodes_to_tensors: Vec<StdUnorderedSet>,
}

/// Builds the `litert` problem of subgraph `sg_index` (DESIGN.md §1.2, RUNTIME_RULES.md):
/// Prepare, in-place sharing, the allocation walk, then buffers, aliases and candidates.
pub fn problem(model: &Model, sg_index: usize) -> Result<Problem, AnalysisError> {
    let sg = model
        .subgraphs
        .get(sg_index)
        .ok_or(AnalysisError::NoSubgraph(sg_index))?;
    let p = prepare(model, sg_index);
    let nt = p.tensors.len();
    let io = Io {
        is_input: mask(nt, &sg.inputs),
        is_output: mask(nt, &sg.outputs),
        variables: (0..sg.tensors.len())
            .filter(|&t| sg.tensors[t].is_variable)
            .collect(),
    };
    let actual = share_in_place(sg, &p, &io);
    let allocations = plan_allocations(sg, &p, &io, &actual);
    Ok(build(sg_index, sg, &p, &io, &actual, &allocations))
}

/// The tensor whose bytes `t` uses, following in-place sharing to its end.
fn root(actual: &HashMap<usize, usize>, mut t: usize) -> usize {
    while let Some(&r) = actual.get(&t) {
        t = r;
    }
    t
}

/// In-place sharing (A.5, L5): which output shares which input's bytes, with `refcounts_` as
/// `IdentifyInPlaceTensors` sees them.
fn share_in_place(sg: &Subgraph, p: &Prepared, io: &Io) -> HashMap<usize, usize> {
    let nt = p.tensors.len();
    let (is_input, is_output, variables) = (&io.is_input, &io.is_output, &io.variables);
    let mut refcounts = vec![0u32; nt];
    for &t in sg.outputs.iter().chain(variables).chain(&sg.inputs) {
        refcounts[t] += 1;
    }
    for ins in &p.inputs_of {
        for &t in ins.iter().filter(|&&t| t >= 0) {
            refcounts[t as usize] += 1;
        }
    }

    let mut actual: HashMap<usize, usize> = HashMap::new();
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

    actual
}

/// `PlanAllocations` (A.2): allocation and deallocation nodes, refcounts through in-place
/// roots; kernel temporaries live at their node only.
fn plan_allocations(
    sg: &Subgraph,
    p: &Prepared,
    io: &Io,
    actual: &HashMap<usize, usize>,
) -> Allocations {
    let (nt, n_nodes, variables) = (p.tensors.len(), sg.operators.len(), &io.variables);
    let mut alloc = vec![NOT_ASSIGNED; nt];
    let mut dealloc = vec![NOT_ASSIGNED; nt];
    let mut nodes_to_tensors: Vec<StdUnorderedSet> = (0..n_nodes.max(1))
        .map(|_| StdUnorderedSet::new())
        .collect();
    let mut rc = vec![0u32; nt];
    for &t in sg.outputs.iter().chain(variables).chain(&sg.inputs) {
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
            rc[root(actual, t as usize)] += 1;
        }
    }
    for i in 0..n_nodes {
        for &t in p.outputs_of[i].iter().filter(|&&t| t >= 0) {
            allocate(i, t as usize, &mut alloc, &mut nodes_to_tensors);
        }
        for &t in p.inputs_of[i].iter().filter(|&&t| t >= 0) {
            let r = root(actual, t as usize);
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

    Allocations {
        alloc,
        dealloc,
        nodes_to_tensors,
    }
}

/// The problem: RW-arena buffers, in-place aliases on their roots, tensors kept outside, and
/// the candidate vector in LiteRT's order (L7, L8).
fn build(
    sg_index: usize,
    sg: &Subgraph,
    p: &Prepared,
    io: &Io,
    actual: &HashMap<usize, usize>,
    a: &Allocations,
) -> Problem {
    let (nt, n_nodes) = (p.tensors.len(), sg.operators.len());
    let (is_input, is_output) = (&io.is_input, &io.is_output);
    let (alloc, dealloc, nodes_to_tensors) = (&a.alloc, &a.dealloc, &a.nodes_to_tensors);
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
        let r = root(actual, t);
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
            AllocType::ArenaRwPersistent if !sg.tensors.get(t).is_some_and(|x| x.is_variable) => {
                OutsideReason::Persistent
            }
            AllocType::ArenaRwPersistent => OutsideReason::Variable,
            AllocType::Dynamic if !it.unused => OutsideReason::Dynamic,
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

    Problem {
        lifetimes: Some(Lifetimes::Litert),
        subgraph: Some(sg_index),
        xnnpack: None,
        step_labels: Vec::new(),
        buffers,
        aliases,
        outside,
        steps,
        litert_candidates: Some(candidates),
        op_scratch: p
            .temporaries
            .iter()
            .enumerate()
            .flat_map(|(i, temps)| temps.iter().map(move |&t| (i, t)))
            .filter_map(|(i, t)| Some((sg_index, i, buffer_of[t]?)))
            .collect(),
        step_values: Vec::new(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{OperatorCode, Options, Subgraph, Tensor, TensorType};

    fn tensor(name: &str, shape: &[i32], constant: bool) -> Tensor {
        Tensor {
            name: name.into(),
            shape: shape.to_vec(),
            shape_signature: None,
            dtype: TensorType::Float32,
            buffer: u32::from(constant),
            is_variable: false,
            is_constant: constant,
            bytes: Some(4 * shape.iter().map(|&d| d as u64).product::<u64>()),
            quant_channels: 0,
        }
    }

    #[test]
    fn a_dequantize_fed_by_densify_keeps_its_output_in_the_rw_arena() {
        // Sparse model: weights (constant) -> DENSIFY -> DEQUANTIZE -> FULLY_CONNECTED.
        let codes = [ops::DENSIFY, ops::DEQUANTIZE, ops::FULLY_CONNECTED];
        let op = |code: usize, inputs: Vec<i32>, output: i32| crate::model::Operator {
            opcode_index: code as u32,
            builtin: codes[code],
            inputs,
            outputs: vec![output],
            intermediates: vec![],
            options: Options::None,
            custom_options: vec![],
        };
        let model = Model {
            operator_codes: codes
                .iter()
                .map(|&b| OperatorCode {
                    builtin: b,
                    custom: None,
                    version: 1,
                })
                .collect(),
            subgraphs: vec![Subgraph {
                tensors: vec![
                    tensor("weights", &[8, 16], true),
                    tensor("dense", &[8, 16], false),
                    tensor("dequantized", &[8, 16], false),
                    tensor("x", &[1, 16], false),
                    tensor("y", &[1, 8], false),
                ],
                inputs: vec![3],
                outputs: vec![4],
                operators: vec![op(0, vec![0], 1), op(1, vec![1], 2), op(2, vec![3, 2], 4)],
                ..Subgraph::default()
            }],
            ..Model::default()
        };
        let p = problem(&model, 0).unwrap();
        // DENSIFY's output is outside the RW arena (persistent) ...
        let outside: Vec<(usize, OutsideReason)> =
            p.outside.iter().map(|o| (o.tensor, o.reason)).collect();
        assert_eq!(outside, vec![(1, OutsideReason::Persistent)]);
        // ... and DEQUANTIZE's output is planned there, from its node to its last consumer.
        let b = p
            .buffers
            .iter()
            .find(|b| b.tensor == 2)
            .expect("dequantized is planned");
        assert_eq!((b.first, b.last, b.size_bytes), (1, 2, 512));
        // The candidate vector still holds the persistent tensor (it takes part in the sort).
        let candidates = p.litert_candidates.unwrap();
        assert!(candidates
            .iter()
            .any(|c| c.tensor == 1 && c.buffer.is_none()));
    }
}
