//! `milp`: the textbook mixed-integer model, solved with `good_lp` on the pure-Rust `microlp`
//! solver (no system library) — a cross-check of `exact` on small problems.
//!
//! Variables: for each buffer `i` an offset `a_i·k_i` (`a_i` its alignment, `k_i ≥ 0` integer
//! when `a_i > 1`; a fixed offset fixes it), the peak `z`, and for each pair of buffers alive at
//! the same step one binary `y_ij` that says which goes below. With `U` the best heuristic arena
//! (the big M) and `L` the max-live lower bound:
//! - `a_i·k_i + s_i ≤ z` for every buffer, `L ≤ z ≤ U`;
//! - `a_i·k_i + s_i ≤ a_j·k_j + U·(1 − y_ij)` and `a_j·k_j + s_j ≤ a_i·k_i + U·y_ij`;
//! - minimise `z`.
//!
//! Offsets of alignment-1 buffers stay continuous: once the binaries are fixed the rest is a
//! system of difference constraints, whose vertices are integral. The solver's offsets are
//! then only read for their order: each buffer, lowest first, drops onto the skyline of those
//! placed before it, which keeps the plan valid and no higher than the solver's.
//!
//! It runs on problems of at most `MAX_BUFFERS` buffers; on larger ones, or when the solver
//! fails or runs out of time, it returns the best heuristic plan with no proof.

use std::time::Instant;

use good_lp::{
    constraint, microlp, variable, Expression, ProblemVariables, Solution, SolverModel,
    WithTimeLimit,
};

use super::{Outcome, Settings};
use crate::analysis::Problem;

/// Largest problem the model is built for.
pub const MAX_BUFFERS: usize = 30;

pub fn plan(p: &Problem, settings: &Settings) -> Outcome {
    // Upper bound: the best plan of the one-pass heuristics.
    let best = super::best_generic(p, settings, &["hill-climb"]);
    let upper = p.arena_bytes(&best);
    let lower = p.lower_bound();
    if p.buffers.is_empty() || p.buffers.len() > MAX_BUFFERS || upper <= lower {
        let proven = (upper <= lower).then_some(lower);
        return Outcome {
            offsets: best,
            proven_bound: proven,
        };
    }
    let start = Instant::now();
    let finished = || start.elapsed().as_secs_f64() < settings.time_limit_secs;
    match solve(p, lower, upper, settings.time_limit_secs) {
        Ok(offsets) if p.arena_bytes(&offsets) <= upper => {
            let arena = p.arena_bytes(&offsets);
            Outcome {
                offsets,
                proven_bound: finished().then_some(arena),
            }
        }
        _ => Outcome {
            offsets: best,
            proven_bound: None,
        },
    }
}

/// The model with `lower ≤ z ≤ upper`: the solver's plan, or why there is none.
fn solve(
    p: &Problem,
    lower: u64,
    upper: u64,
    seconds: f64,
) -> Result<Vec<u64>, good_lp::ResolutionError> {
    let b = &p.buffers;
    let big_m = upper as f64;
    let mut vars = ProblemVariables::new();
    let ks: Vec<_> = b
        .iter()
        .map(|buf| {
            let a = buf.alignment.max(1);
            let top = upper.saturating_sub(buf.size_bytes) as f64 / a as f64;
            match buf.fixed_offset {
                Some(o) => vars.add(variable().min(o as f64).max(o as f64)),
                None if a == 1 => vars.add(variable().min(0).max(top)),
                None => vars.add(variable().integer().min(0).max(top)),
            }
        })
        .collect();
    let offset = |i: usize| -> Expression {
        let a = if b[i].fixed_offset.is_some() {
            1
        } else {
            b[i].alignment.max(1)
        };
        (a as f64) * ks[i]
    };
    let z = vars.add(variable().min(lower as f64).max(big_m));
    let pairs: Vec<(usize, usize)> = p
        .conflicts()
        .into_iter()
        .filter(|&(i, j)| b[i].size_bytes > 0 && b[j].size_bytes > 0)
        .collect();
    let ys: Vec<_> = pairs
        .iter()
        .map(|_| vars.add(variable().binary()))
        .collect();
    let mut model = vars
        .minimise(z)
        .using(microlp)
        .with_time_limit(seconds.max(0.01));
    for (i, buf) in b.iter().enumerate() {
        model = model.with(constraint!(offset(i) + buf.size_bytes as f64 <= z));
    }
    for (&(i, j), &y) in pairs.iter().zip(&ys) {
        model = model.with(constraint!(
            offset(i) + b[i].size_bytes as f64 <= offset(j) + big_m - big_m * y
        ));
        model = model.with(constraint!(
            offset(j) + b[j].size_bytes as f64 <= offset(i) + big_m * y
        ));
    }
    let solution = model.solve()?;
    let at: Vec<f64> = (0..b.len())
        .map(|i| {
            let a = if b[i].fixed_offset.is_some() {
                1
            } else {
                b[i].alignment.max(1)
            };
            solution.value(ks[i]) * a as f64
        })
        .collect();
    if p.buffers.iter().any(|buf| buf.fixed_offset.is_some()) {
        return Ok(at.iter().map(|&o| o.round().max(0.0) as u64).collect());
    }
    let mut order: Vec<usize> = (0..b.len()).collect();
    order.sort_by(|&i, &j| at[i].total_cmp(&at[j]).then(i.cmp(&j)));
    Ok(drop_in_order(p, &order))
}

/// Each buffer in `order` goes on the aligned top of the buffers placed before it that it
/// overlaps in time.
fn drop_in_order(p: &Problem, order: &[usize]) -> Vec<u64> {
    let b = &p.buffers;
    let mut offsets = vec![0u64; b.len()];
    for (k, &i) in order.iter().enumerate() {
        let top = order[..k]
            .iter()
            .filter(|&&j| b[j].overlaps_in_time(&b[i]) && b[j].size_bytes > 0)
            .map(|&j| offsets[j] + b[j].size_bytes)
            .max()
            .unwrap_or(0);
        offsets[i] = super::align_up(top, b[i].alignment);
    }
    offsets
}
