//! The bound no execution order can beat (DESIGN.md §3.4): at each operator its inputs, its
//! outputs and its kernel temporaries or scratch buffers are alive at once, whatever runs
//! before or after it, so the largest such sum bounds the arena of every order from below.
//! When a plan's arena already meets it, reordering cannot help, and the operator says why.
//!
//! What any order keeps alive besides counts too: under LiteRT's lifetimes a subgraph's inputs
//! live through the whole run, so they join every operator's set; and after the last operator
//! every output exists (LiteRT: with the inputs; TFLM: subgraph 0's outputs). Buffers with a
//! fixed offset (an offline plan) count by the union of their bytes, as in the lower bound.

use super::{Lifetimes, Problem};
use crate::model::Model;

/// The operator that needs the most bytes at once, and what they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderBound {
    pub bytes: u64,
    pub subgraph: usize,
    pub operator: usize,
    /// `CONV_2D #0`.
    pub label: String,
    /// The buffers counted: (name, bytes), largest first.
    pub parts: Vec<(String, u64)>,
}

/// The order bound of `problem` (built from `model`): over the operators of its subgraph
/// (litert) or of every subgraph (tflm), the bytes of the distinct buffers an operator uses
/// (an in-place output counts as its root's bytes). `None` for a problem not built from a
/// model.
pub fn order_bound(model: &Model, problem: &Problem) -> Option<OrderBound> {
    let lifetimes = problem.lifetimes?;
    // Under XNNPACK the problems are the delegated graph's and the workspaces' (their own op
    // axes): no bound over the model's orders here.
    if problem.xnnpack.is_some() {
        return None;
    }
    let mut base = Vec::with_capacity(model.subgraphs.len());
    let mut total = 0;
    for sg in &model.subgraphs {
        base.push(total);
        total += sg.tensors.len();
    }
    // The buffer holding a tensor number of this problem (itself, or an alias's root).
    let buffer_of = |tensor: usize| problem.buffer_of(tensor);
    let mut best: Option<OrderBound> = None;
    let mut consider = |mut ids: Vec<usize>, subgraph: usize, operator: usize, label: String| {
        ids.sort_unstable();
        ids.dedup();
        let bytes = distinct_bytes(problem, &ids);
        if best.as_ref().is_none_or(|b| bytes > b.bytes) {
            let mut parts: Vec<(String, u64)> = ids
                .iter()
                .map(|&b| {
                    (
                        problem.buffers[b].name.clone(),
                        problem.buffers[b].size_bytes,
                    )
                })
                .collect();
            parts.sort_by_key(|p| std::cmp::Reverse(p.1));
            best = Some(OrderBound {
                bytes,
                subgraph,
                operator,
                label,
                parts,
            });
        }
    };
    for (si, sg) in model.subgraphs.iter().enumerate() {
        let (numbering, always): (usize, Vec<usize>) = match lifetimes {
            Lifetimes::Litert if problem.subgraph == Some(si) => {
                (0, sg.inputs.iter().filter_map(|&t| buffer_of(t)).collect())
            }
            Lifetimes::Litert | Lifetimes::Xnnpack => continue,
            Lifetimes::Tflm => (base[si], Vec::new()),
        };
        for (i, op) in sg.operators.iter().enumerate() {
            let ids: Vec<usize> = op
                .inputs
                .iter()
                .chain(&op.outputs)
                .filter_map(|&t| usize::try_from(t).ok())
                .filter_map(|t| buffer_of(numbering + t))
                .chain(
                    problem
                        .op_scratch
                        .iter()
                        .filter(|&&(s, n, _)| s == si && n == i)
                        .map(|&(_, _, b)| b),
                )
                .chain(always.iter().copied())
                .collect();
            consider(ids, si, i, format!("{} #{i}", model.op_name(op)));
        }
        // After the last operator every output of the graph exists.
        let end: Vec<usize> = match lifetimes {
            Lifetimes::Litert | Lifetimes::Xnnpack => sg
                .inputs
                .iter()
                .chain(&sg.outputs)
                .filter_map(|&t| buffer_of(t))
                .collect(),
            Lifetimes::Tflm if si == 0 => sg.outputs.iter().filter_map(|&t| buffer_of(t)).collect(),
            Lifetimes::Tflm => Vec::new(),
        };
        if !end.is_empty() {
            let last = sg.operators.len().saturating_sub(1);
            consider(end, si, last, "the graph's outputs at the end".to_string());
        }
    }
    best
}

/// Bytes of distinct buffers, those with a fixed offset by the union of their byte ranges
/// (an offline plan may put several on the same bytes on purpose).
fn distinct_bytes(problem: &Problem, ids: &[usize]) -> u64 {
    let mut fixed: Vec<(u64, u64)> = Vec::new();
    let mut bytes = 0;
    for &b in ids {
        let buf = &problem.buffers[b];
        match buf.fixed_offset {
            Some(o) => fixed.push((o, o + buf.size_bytes)),
            None => bytes += buf.size_bytes,
        }
    }
    fixed.sort_unstable();
    let mut covered_to = 0;
    for (start, end) in fixed {
        let from = start.max(covered_to);
        if end > from {
            bytes += end - from;
        }
        covered_to = covered_to.max(end);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tflm_tail::tests::{model, tensor};
    use crate::model::{ops, TensorType::Float32};

    #[test]
    fn the_busiest_operator_bounds_every_order() {
        // x [1, 8, 8, 4] -> CONV (3x3, im2col [1, 8, 8, 36]) -> y [1, 8, 8, 8]
        //                -> ADD(y, y) -> z [1, 8, 8, 8] (in place on y in LiteRT).
        let mut m = model(
            vec![
                tensor(&[1, 8, 8, 4], Float32, false),
                tensor(&[8, 3, 3, 4], Float32, true),
                tensor(&[8], Float32, true),
                tensor(&[1, 8, 8, 8], Float32, false),
                tensor(&[1, 8, 8, 8], Float32, false),
            ],
            vec![
                (ops::CONV_2D, "", vec![0, 1, 2], vec![3], vec![]),
                (ops::ADD, "", vec![3, 3], vec![4], vec![]),
            ],
            vec![0],
            vec![4],
        );
        m.subgraphs[0].operators[0].options = crate::model::Options::Conv2D {
            padding: 1,
            stride_w: 1,
            stride_h: 1,
            dilation_w: 1,
            dilation_h: 1,
            activation: 0,
        };
        let p = crate::analysis::litert::problem(&m, 0).unwrap();
        let b = order_bound(&m, &p).unwrap();
        // CONV: x 1024 + y 2048 + im2col 64 * 36 * 4 = 9216: 12288 bytes.
        assert_eq!(
            (b.bytes, b.operator, b.label.as_str()),
            (12288, 0, "CONV_2D #0")
        );
        assert_eq!(
            b.parts[0].1, 9216,
            "the im2col temporary is the largest part"
        );
        // Never above what one plan of this very order needs.
        assert!(b.bytes <= p.lower_bound());
    }
}
