//! TFLite's partitioner over the taken nodes, epoch by epoch (`node_subsets`), and the
//! delegation of a model (`delegate`).

use super::*;

/// TFLite's partitioner (`PartitionGraphIntoIndependentNodeSubsets`, tflite/graph_info.cc),
/// as this module understands it: epoch after epoch, the nodes are scanned in execution order,
/// again and again until nothing changes; a node joins the current epoch when every tensor it
/// reads is ready and, for a node with side effects, the previous such node has an epoch; the
/// first node that joins decides whether the epoch is taken by the delegate or not, and only
/// nodes of that kind join after it. Each epoch is one node subset; the taken ones become the
/// partitions, and TFLite then runs the subsets in epoch order.
pub(super) fn node_subsets(model: &Model, si: usize, taken: &[bool]) -> Vec<(bool, Vec<usize>)> {
    let sg = &model.subgraphs[si];
    let n = sg.operators.len();
    let mut produced = vec![false; sg.tensors.len()];
    for op in &sg.operators {
        for &t in &op.outputs {
            if let Some(p) = usize::try_from(t).ok().and_then(|t| produced.get_mut(t)) {
                *p = true;
            }
        }
    }
    // Tensors ready: those no node writes, and the outputs of nodes placed.
    let mut ready: Vec<bool> = produced.iter().map(|&p| !p).collect();
    // Side effects run in their order: each waits for the previous one.
    let side_effect = |i: usize| crate::analysis::order::has_side_effect(sg, i);
    let mut after = vec![None; n];
    let mut last = None;
    for (i, dep) in after.iter_mut().enumerate() {
        if side_effect(i) {
            *dep = last;
            last = Some(i);
        }
    }
    let mut placed = vec![false; n];
    let mut subsets: Vec<(bool, Vec<usize>)> = Vec::new();
    loop {
        let mut kind: Option<bool> = None;
        let mut nodes = Vec::new();
        loop {
            let mut changed = false;
            for i in 0..n {
                if placed[i] {
                    continue;
                }
                let op = &sg.operators[i];
                let inputs_ready = op
                    .inputs
                    .iter()
                    .filter_map(|&t| usize::try_from(t).ok())
                    .all(|t| ready.get(t).copied().unwrap_or(true));
                let dep_ready = after[i].is_none_or(|d| placed[d]);
                if !inputs_ready || !dep_ready {
                    continue;
                }
                if *kind.get_or_insert(taken[i]) != taken[i] {
                    continue;
                }
                placed[i] = true;
                nodes.push(i);
                for t in op.outputs.iter().filter_map(|&t| usize::try_from(t).ok()) {
                    if let Some(r) = ready.get_mut(t) {
                        *r = true;
                    }
                }
                changed = true;
            }
            if !changed {
                break;
            }
        }
        match kind {
            Some(k) if !nodes.is_empty() => subsets.push((k, nodes)),
            _ => break,
        }
    }
    subsets
}

/// The partitions of every subgraph: TFLite's node subsets of the nodes the delegate takes.
pub fn delegate(model: &Model) -> Delegation {
    let mut d = Delegation::default();
    for (si, sg) in model.subgraphs.iter().enumerate() {
        let mut taken = vec![false; sg.operators.len()];
        for (node, support) in supports(model, si).into_iter().enumerate() {
            match support {
                Support::Taken => taken[node] = true,
                Support::Left => d.not_delegated.push((si, node)),
                Support::Unknown(why) => {
                    d.not_delegated.push((si, node));
                    d.not_modelled.push(format!(
                        "subgraph {si} node {node} ({}: {why})",
                        model.op_name(&sg.operators[node])
                    ));
                }
            }
        }
        let subsets = node_subsets(model, si, &taken);
        for (is_taken, nodes) in &subsets {
            if *is_taken {
                d.partitions.push(partition(model, si, nodes.clone()));
            }
        }
        d.subsets.push(subsets);
    }
    // What each partition's runtime does not model.
    for p in &d.partitions {
        d.not_modelled.extend(runtime(model, p).not_modelled);
    }
    d
}

pub(super) fn partition(model: &Model, si: usize, nodes: Vec<usize>) -> Partition {
    let sg = &model.subgraphs[si];
    let inside = |t: usize| {
        nodes
            .iter()
            .any(|&n| sg.operators[n].outputs.contains(&(t as i32)))
    };
    let mut inputs: Vec<usize> = Vec::new();
    let mut outputs: Vec<usize> = Vec::new();
    for &n in &nodes {
        for t in sg.operators[n]
            .inputs
            .iter()
            .filter_map(|&t| usize::try_from(t).ok())
        {
            if !inside(t) && !inputs.contains(&t) {
                inputs.push(t);
            }
        }
        for t in sg.operators[n]
            .outputs
            .iter()
            .filter_map(|&t| usize::try_from(t).ok())
        {
            let read_outside = sg.outputs.contains(&t)
                || sg
                    .operators
                    .iter()
                    .enumerate()
                    .any(|(k, op)| !nodes.contains(&k) && op.inputs.contains(&(t as i32)));
            if read_outside && !outputs.contains(&t) {
                outputs.push(t);
            }
        }
    }
    inputs.sort_unstable();
    outputs.sort_unstable();
    Partition {
        subgraph: si,
        nodes,
        inputs,
        outputs,
    }
}
