//! The rewrites inside a partition: a RELU merged into the op that writes its input for it
//! alone (`merged_clamps`), an int8 swish fused into one lookup table (`lut_fusions`).

use super::*;

/// The nodes of `sg` that read tensor `t`.
pub(super) fn readers_of(sg: &crate::model::Subgraph, t: i32) -> Vec<usize> {
    (0..sg.operators.len())
        .filter(|&m| sg.operators[m].inputs.contains(&t))
        .collect()
}

/// A clamp (RELU, RELU6, RELU_N1_TO_1) XNNPACK folds into the node that writes its input.
pub(super) struct Merge {
    pub(super) clamp: usize,
    /// The tensor between producer and clamp (never defined), and the clamp's output.
    pub(super) between: usize,
    pub(super) output: usize,
}

/// The clamps of `p` that XNNPACK merges into their producer (`src/subgraph.c`,
/// `optimize_common_subgraphs_merge_clamps`): the producer is a convolution, fully connected
/// node or pool of the partition, and the clamp is the only reader of its output, which
/// leaves the partition nowhere else. The runtime is compacted afterwards: the clamp has no op.
pub(super) fn merged_clamps(model: &Model, p: &Partition) -> Vec<Merge> {
    let sg = &model.subgraphs[p.subgraph];
    let mut out = Vec::new();
    for &n in &p.nodes {
        let op = &sg.operators[n];
        if !matches!(op.builtin, ops::RELU | RELU6 | RELU_N1_TO_1) {
            continue;
        }
        let (Some(&input), Some(&output)) = (op.inputs.first(), op.outputs.first()) else {
            continue;
        };
        let (Ok(between), Ok(output)) = (usize::try_from(input), usize::try_from(output)) else {
            continue;
        };
        let producer = p
            .nodes
            .iter()
            .find(|&&m| sg.operators[m].outputs.contains(&input));
        let readers = readers_of(sg, input).len();
        let folds = producer.is_some_and(|&m| {
            matches!(
                sg.operators[m].builtin,
                ops::CONV_2D
                    | ops::DEPTHWISE_CONV_2D
                    | ops::FULLY_CONNECTED
                    | ops::MAX_POOL_2D
                    | ops::AVERAGE_POOL_2D
            )
        });
        if folds && readers == 1 && !p.outputs.contains(&between) {
            out.push(Merge {
                clamp: n,
                between,
                output,
            });
        }
    }
    out
}

/// An int8 swish, x * logistic(x), that XNNPACK turns into one lookup-table op
/// (`xnn_subgraph_fuse_unary_quantized_into_lut`): the LOGISTIC stays as an invalid op in place
/// (the runtime is not compacted), the MUL becomes a `unary_elementwise` of x alone, and the
/// logistic's output is never defined.
pub(super) struct LutFusion {
    pub(super) unary: usize,
    pub(super) mul: usize,
    pub(super) between: usize,
}

pub(super) fn lut_fusions(model: &Model, p: &Partition) -> Vec<LutFusion> {
    let sg = &model.subgraphs[p.subgraph];
    let mut out = Vec::new();
    for &n in &p.nodes {
        let op = &sg.operators[n];
        let (Some(&x), Some(&y)) = (op.inputs.first(), op.outputs.first()) else {
            continue;
        };
        if op.builtin != ops::LOGISTIC || dtype(model, p.subgraph, x) != Some(TensorType::Int8) {
            continue;
        }
        let Ok(between) = usize::try_from(y) else {
            continue;
        };
        let [mul] = readers_of(sg, y)[..] else {
            continue;
        };
        let m = &sg.operators[mul];
        let swish = m.builtin == ops::MUL
            && p.nodes.contains(&mul)
            && m.inputs.len() == 2
            && m.inputs.contains(&x)
            && m.inputs.contains(&y)
            && matches!(m.options, Options::Binary { activation: 0 } | Options::None);
        if swish && !p.outputs.contains(&between) {
            out.push(LutFusion {
                unary: n,
                mul,
                between,
            });
        }
    }
    out
}
