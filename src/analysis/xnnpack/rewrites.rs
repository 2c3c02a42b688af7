//! The rewrites `xnn_subgraph_optimize` (google/XNNPACK `src/subgraph.c`) makes to a
//! partition's subgraph before the runtime is built, as far as they are modelled:
//!
//! 1. `xnn_subgraph_clean_up`: values nothing consumes (an external output counts as a
//!    consumer) are cleared with the nodes that only produce them, and the nodes are compacted
//!    (cleared nodes dropped).
//! 2. `xnn_subgraph_fusion`, over the values in id order, each with one consumer: a constant
//!    pad of a 4-D value's height and width only (the delegate always pads with zero) is
//!    fused into the convolution or depthwise convolution it feeds when that one has no
//!    TensorFlow SAME padding; a copy (READ_VARIABLE, ASSIGN_VARIABLE) is fused into the node
//!    writing its internal input, or into the node reading its internal output, when no node
//!    between them uses the other end. The fused node stays as an `invalid` op in place.
//! 3. `xnn_subgraph_fuse_unary_quantized_into_lut`: a chain of pure unary elementwise nodes
//!    (unary ops, binary ops with a static scalar, `x * logistic(x)`) from an 8-bit value to
//!    an 8-bit value becomes one lookup table (the chain's other nodes `invalid` ops in place).
//! 4. `xnn_subgraph_optimize_common_subgraphs`, node by node until nothing changes, cleaning up
//!    after every pass that changed something: MUL(x, x) becomes a square; a MINIMUM or
//!    MAXIMUM with a static scalar becomes a clamp; a clamp whose input has one consumer and
//!    comes from a node with an activation of its own (convolutions, deconvolution, fully
//!    connected, pools, another clamp) merges into that node, which writes the clamp's output;
//!    a sum or mean of a float square becomes a sum / mean of squares; a reshape to a fully
//!    known shape of a reshape's output (its only consumer) reads the first reshape's input.

use super::runtime::{Alloc, BinaryOp, Role, XGraph, XNode};

/// A value's producer and consumers (`xnn_subgraph_analyze_consumers_and_producers`).
#[derive(Clone, Copy, Default)]
struct Usage {
    producer: Option<usize>,
    consumers: usize,
    first_consumer: Option<usize>,
}

fn analyze(g: &XGraph) -> Vec<Usage> {
    let mut u = vec![Usage::default(); g.values.len()];
    for (n, node) in g.nodes.iter().enumerate() {
        if node.invalid() {
            continue;
        }
        for (k, &v) in node.inputs.iter().enumerate() {
            if node.inputs[..k].contains(&v) {
                continue;
            }
            if let Some(x) = u.get_mut(v as usize) {
                if x.consumers == 0 {
                    x.first_consumer = Some(n);
                }
                x.consumers += 1;
            }
        }
        for &v in &node.outputs {
            if let Some(x) = u.get_mut(v as usize) {
                x.producer = Some(n);
            }
        }
    }
    for (v, x) in u.iter_mut().enumerate() {
        if g.value(v as u32).is_some_and(|x| x.ext_out) {
            x.consumers += 1;
        }
    }
    u
}

fn clear_value(g: &mut XGraph, v: u32) {
    if let Some(Some(x)) = g.values.get_mut(v as usize) {
        x.cleared = true;
    }
}

/// `recursive_remove_node`.
fn remove_node(g: &mut XGraph, u: &mut [Usage], n: usize) {
    let inputs = g.nodes[n].inputs.clone();
    for (k, &v) in inputs.iter().enumerate() {
        if inputs[..k].contains(&v) {
            continue;
        }
        let ext_in = g.value(v).is_some_and(|x| x.ext_in);
        let Some(x) = u.get_mut(v as usize) else {
            continue;
        };
        if ext_in || x.consumers == 0 {
            continue;
        }
        x.consumers -= 1;
        if x.consumers == 0 {
            if let Some(p) = x.producer {
                if g.nodes[p].outputs.len() == 1 && !g.nodes[p].invalid() {
                    remove_node(g, u, p);
                }
            }
            clear_value(g, v);
        }
    }
    g.nodes[n].clear();
}

/// `xnn_subgraph_clean_up`: dead values and nodes removed, cleared nodes dropped.
fn clean_up(g: &mut XGraph) {
    loop {
        let mut u = analyze(g);
        let mut changed = false;
        for v in 0..g.values.len() as u32 {
            let Some(x) = g.value(v) else { continue };
            if x.ext_in || u[v as usize].consumers > 0 {
                continue;
            }
            if let Some(p) = u[v as usize].producer {
                if g.nodes[p].outputs.len() == 1 && !g.nodes[p].invalid() {
                    changed = true;
                    remove_node(g, &mut u, p);
                }
            }
            clear_value(g, v);
        }
        if !changed {
            break;
        }
    }
    g.nodes.retain(|n| !n.invalid());
}

/// `can_reorder_use`: no node strictly between `producer` and `consumer` uses `v`.
fn can_reorder_use(g: &XGraph, v: u32, producer: usize, consumer: usize) -> bool {
    producer < consumer
        && g.nodes[producer + 1..consumer]
            .iter()
            .all(|n| !n.inputs.contains(&v) && !n.outputs.contains(&v))
}

/// Not external, not static: what `xnn_value_is_internal` asks of a value.
fn internal(g: &XGraph, v: u32) -> bool {
    g.value(v)
        .is_some_and(|x| !x.ext_in && !x.ext_out && x.alloc != Alloc::Static)
}

/// `xnn_subgraph_fusion`: constant pads into convolutions, copies into their neighbours.
fn fusion(g: &mut XGraph) {
    let mut u = analyze(g);
    for v in 0..g.values.len() as u32 {
        if g.value(v).is_none() || u[v as usize].consumers != 1 {
            continue;
        }
        let (Some(p), Some(c)) = (u[v as usize].producer, u[v as usize].first_consumer) else {
            continue;
        };
        if g.nodes[p].invalid() || g.nodes[c].invalid() {
            continue;
        }
        let pad_into_conv = matches!(g.nodes[p].role, Role::Pad { spatial: true })
            && matches!(g.nodes[c].role, Role::Conv { same: false })
            && g.nodes[c].inputs.first() == Some(&v);
        if pad_into_conv {
            let input = g.nodes[p].inputs[0];
            g.nodes[c].inputs[0] = input;
            if u[input as usize].first_consumer == Some(p) {
                u[input as usize].first_consumer = Some(c);
            }
            g.nodes[p].clear();
            clear_value(g, v);
            continue;
        }
        if g.nodes[c].role == Role::Copy
            && internal(g, v)
            && g.nodes[c]
                .outputs
                .first()
                .is_some_and(|&o| can_reorder_use(g, o, p, c))
        {
            // The producer writes the copy's output.
            let out = g.nodes[c].outputs[0];
            for o in g.nodes[p].outputs.iter_mut().filter(|o| **o == v) {
                *o = out;
            }
            u[out as usize].producer = Some(p);
            g.nodes[c].clear();
            clear_value(g, v);
            continue;
        }
        if g.nodes[p].role == Role::Copy
            && internal(g, v)
            && g.nodes[p]
                .inputs
                .first()
                .is_some_and(|&i| can_reorder_use(g, i, p, c))
        {
            // The consumer reads the copy's input.
            let input = g.nodes[p].inputs[0];
            if let Some(k) = g.nodes[c].inputs.iter().position(|&i| i == v) {
                g.nodes[c].inputs[k] = input;
            }
            if u[input as usize].first_consumer == Some(p) {
                u[input as usize].first_consumer = Some(c);
            }
            g.nodes[p].clear();
            clear_value(g, v);
        }
    }
}

/// The value a node maps elementwise (`is_pure_unary_elementwise`): a unary op's input; a
/// binary op's non-static input when the other is a static scalar; either input when both are
/// values of the chain being built (`chain`).
fn pure_unary(g: &XGraph, node: &XNode, chain: &[u32]) -> Option<u32> {
    match (node.role, &node.inputs[..]) {
        (Role::Clamp | Role::Square | Role::Unary, [x]) => Some(*x),
        (Role::Binary(_), [a, b]) => {
            let scalar = |v: u32| {
                g.value(v)
                    .is_some_and(|x| x.alloc == Alloc::Static && !x.ext_in && x.elements == 1)
            };
            if scalar(*a) && !g.is_static(*b) {
                Some(*b)
            } else if (scalar(*b) && !g.is_static(*a)) || (chain.contains(a) && chain.contains(b)) {
                Some(*a)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// `xnn_subgraph_fuse_unary_quantized_into_lut`: a chain of up to ten pure unary elementwise
/// nodes from an 8-bit value, each output read by the next node alone, cut back to its last
/// 8-bit output, becomes one lookup table: the last node maps the chain's input through a new
/// static table value; the others stay as `invalid` ops in place and their outputs are
/// cleared (as are the last node's inputs only it read).
fn luts(g: &mut XGraph) {
    let mut u = analyze(g);
    for n in 0..g.nodes.len() {
        if g.nodes[n].invalid() {
            continue;
        }
        let Some(input) = pure_unary(g, &g.nodes[n], &[]) else {
            continue;
        };
        if !g.value(input).is_some_and(|x| x.bits8) {
            continue;
        }
        let mut chain = vec![n];
        let mut seen: Vec<u32> = Vec::new();
        let mut cur = n;
        loop {
            seen.extend(g.nodes[cur].inputs.iter().chain(&g.nodes[cur].outputs));
            let Some(&out) = g.nodes[cur].outputs.first() else {
                break;
            };
            let usage = u[out as usize];
            let Some(next) = usage.first_consumer.filter(|_| usage.consumers == 1) else {
                break;
            };
            if chain.len() >= 10 || pure_unary(g, &g.nodes[next], &seen).is_none() {
                break;
            }
            chain.push(next);
            cur = next;
        }
        while chain.len() > 1 {
            let last = chain[chain.len() - 1];
            let out = g.nodes[last].outputs.first().copied();
            if out.is_some_and(|o| g.value(o).is_some_and(|x| x.bits8)) {
                break;
            }
            chain.pop();
        }
        if chain.len() < 2 {
            continue;
        }
        let last = chain[chain.len() - 1];
        let Some(mut table) = g.value(input).cloned() else {
            continue;
        };
        table.tensor = None;
        table.alloc = Alloc::Static;
        table.ext_in = false;
        table.ext_out = false;
        table.bytes = 256;
        table.elements = 256;
        table.rank = 1;
        table.name = "lookup table".into();
        let lut = g.push(table);
        u.push(Usage::default());
        for i in g.nodes[last].inputs.clone() {
            if u[i as usize].consumers == 1 && u[i as usize].first_consumer == Some(last) {
                clear_value(g, i);
            }
        }
        g.nodes[last].kind = "unary_elementwise";
        g.nodes[last].role = Role::Lut;
        g.nodes[last].inputs = vec![input, lut];
        for (k, &f) in chain[..chain.len() - 1].iter().enumerate() {
            if k > 0 {
                for i in g.nodes[f].inputs.clone() {
                    let x = &mut u[i as usize];
                    x.consumers = x.consumers.saturating_sub(1);
                    if x.consumers == 0 {
                        clear_value(g, i);
                    }
                }
            }
            if let Some(&o) = g.nodes[f].outputs.first() {
                clear_value(g, o);
            }
            g.nodes[f].clear();
        }
    }
}

/// A node with an activation a clamp merges into (`has_clamp`).
fn has_clamp(role: Role) -> bool {
    matches!(role, Role::Clamp | Role::Clamped | Role::Conv { .. })
}

/// One pass of `optimize_common_subgraphs_iter`: how many changes it made.
fn common_subgraphs_pass(g: &mut XGraph, u: &[Usage]) -> usize {
    let mut changes = 0;
    for n in 0..g.nodes.len() {
        match g.nodes[n].role {
            Role::Binary(BinaryOp::Mul)
                if g.nodes[n].inputs.len() == 2 && g.nodes[n].inputs[0] == g.nodes[n].inputs[1] =>
            {
                // `mul_to_sqr`.
                g.nodes[n].inputs.truncate(1);
                g.nodes[n].kind = "unary_elementwise";
                g.nodes[n].role = Role::Square;
                changes += 1;
            }
            Role::Binary(BinaryOp::Min | BinaryOp::Max) if g.nodes[n].inputs.len() == 2 => {
                // `min_max_to_clamp`: one side a static scalar of a rank no larger than the
                // other's.
                let (a, b) = (g.nodes[n].inputs[0], g.nodes[n].inputs[1]);
                let scalar = |v: u32| g.is_static(v) && g.value(v).is_some_and(|x| x.elements == 1);
                let (input, arg) = if scalar(a) && !scalar(b) {
                    (b, a)
                } else {
                    (a, b)
                };
                let rank = |v: u32| g.value(v).map_or(0, |x| x.rank);
                if scalar(arg) && rank(arg) <= rank(input) {
                    g.nodes[n].inputs = vec![input];
                    g.nodes[n].kind = "unary_elementwise";
                    g.nodes[n].role = Role::Clamp;
                    changes += 1;
                }
            }
            Role::Clamp => {
                // `merge_clamps`.
                let Some(&input) = g.nodes[n].inputs.first() else {
                    continue;
                };
                let usage = u.get(input as usize).copied().unwrap_or_default();
                let Some(producer) = usage.producer else {
                    continue;
                };
                if usage.consumers > 1 || producer >= g.nodes.len() {
                    continue;
                }
                if has_clamp(g.nodes[producer].role) && !g.nodes[n].outputs.is_empty() {
                    let out = g.nodes[n].outputs[0];
                    if let Some(o) = g.nodes[producer].outputs.first_mut() {
                        *o = out;
                    }
                    g.nodes[n].clear();
                    changes += 1;
                }
            }
            Role::SumOrMean { mean } => {
                // `reduce_sum_to_square`.
                let Some(&input) = g.nodes[n].inputs.first() else {
                    continue;
                };
                let float = g.value(input).is_some_and(|x| x.float);
                let producer = u.get(input as usize).and_then(|x| x.producer);
                if let Some(q) = producer.filter(|&q| float && g.nodes[q].role == Role::Square) {
                    let x = g.nodes[q].inputs[0];
                    g.nodes[n].inputs = vec![x];
                    g.nodes[n].kind = if mean {
                        "static_mean_squared"
                    } else {
                        "static_sum_squared"
                    };
                    g.nodes[n].role = Role::Other;
                    changes += 1;
                }
            }
            Role::Reshape { static_shape: true } => {
                // `merge_reshapes`: reshape(reshape(x)).
                let Some(&input) = g.nodes[n].inputs.first() else {
                    continue;
                };
                let usage = u.get(input as usize).copied().unwrap_or_default();
                if usage.consumers != 1 {
                    continue;
                }
                if let Some(q) = usage
                    .producer
                    .filter(|&q| matches!(g.nodes[q].role, Role::Reshape { .. }))
                {
                    let x = g.nodes[q].inputs[0];
                    g.nodes[n].inputs[0] = x;
                    g.nodes[q].clear();
                    changes += 1;
                }
            }
            _ => {}
        }
    }
    changes
}

/// The rewrites of `xnn_subgraph_optimize`, in its order.
pub(super) fn optimize(g: &mut XGraph) {
    clean_up(g);
    fusion(g);
    luts(g);
    loop {
        let u = analyze(g);
        if common_subgraphs_pass(g, &u) == 0 {
            break;
        }
        clean_up(g);
    }
}
