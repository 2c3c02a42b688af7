//! `size-first-fit` and `size-best-fit`: offline greedy placement by size.
//!
//! Buffers with a fixed offset are placed first. The others are visited by size descending
//! (ties: earlier first step, then longer lifetime, then lower id). Each one looks at the
//! placed buffers that overlap it in time, sorted by offset, and takes
//! - `size-first-fit`: the lowest aligned offset where it fits;
//! - `size-best-fit`: the smallest gap that holds it (the gap below the lowest placed buffer
//!   counts; ties go to the lower offset), else the aligned top of those buffers — the GPU
//!   delegate's GREEDY_BY_SIZE offsets rule.
//!
//! Time-overlapping buffers are found through a per-step index of placed buffers, so a buffer
//! looks only at what lives during its own steps.

use super::offset_fit::{best_fit, first_fit, Placed};
use super::step_index::StepIndex;
use super::{Outcome, Settings};
use crate::analysis::Problem;

pub fn plan_first_fit(problem: &Problem, _: &Settings) -> Outcome {
    greedy(problem, first_fit)
}

pub fn plan_best_fit(problem: &Problem, _: &Settings) -> Outcome {
    greedy(problem, best_fit)
}

/// The size order (descending) used by both planners.
pub fn size_order(problem: &Problem) -> Vec<usize> {
    let b = &problem.buffers;
    let mut order: Vec<usize> = (0..b.len())
        .filter(|&i| b[i].fixed_offset.is_none())
        .collect();
    order.sort_by(|&x, &y| {
        let (p, q) = (&b[x], &b[y]);
        q.size_bytes
            .cmp(&p.size_bytes)
            .then(p.first.cmp(&q.first))
            .then((q.last - q.first).cmp(&(p.last - p.first)))
            .then(x.cmp(&y))
    });
    order
}

/// Places buffers in `order` (after the fixed ones) with `fit`.
pub fn place_in_order(
    problem: &Problem,
    order: &[usize],
    fit: fn(&[Placed], u64, u64) -> u64,
) -> Vec<u64> {
    let b = &problem.buffers;
    let mut offsets = vec![0u64; b.len()];
    let mut index = StepIndex::new(problem.steps);
    for (i, buf) in b.iter().enumerate() {
        if let Some(o) = buf.fixed_offset {
            offsets[i] = o;
            index.add(i, buf.first, buf.last);
        }
    }
    let mut scratch = Vec::new();
    for &i in order {
        let buf = &b[i];
        scratch.clear();
        index.overlapping(buf.first, buf.last, |j| {
            scratch.push(Placed {
                offset: offsets[j],
                size: b[j].size_bytes,
            })
        });
        scratch.sort_unstable_by_key(|p| p.offset);
        offsets[i] = fit(&scratch, buf.size_bytes, buf.alignment);
        index.add(i, buf.first, buf.last);
    }
    offsets
}

fn greedy(problem: &Problem, fit: fn(&[Placed], u64, u64) -> u64) -> Outcome {
    let order = size_order(problem);
    Outcome::offsets(place_in_order(problem, &order, fit))
}
