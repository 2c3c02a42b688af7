//! `naive`: no reuse. Each buffer, in id order, goes at the end of the previous one rounded up
//! to its alignment (TFLM's LinearMemoryPlanner, the GPU delegate's NAIVE). Buffers with a
//! fixed offset keep it; the others start above the highest fixed one.

use super::{align_up, fixed_top, Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let mut top = fixed_top(problem);
    let offsets = problem
        .buffers
        .iter()
        .map(|b| match b.fixed_offset {
            Some(o) => o,
            None => {
                let at = align_up(top, b.alignment);
                top = at + b.size_bytes;
                at
            }
        })
        .collect();
    Outcome::offsets(offsets)
}
