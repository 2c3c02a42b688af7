//! `hill-climb`: local search over placement orders, from the best greedy order.
//!
//! 1. Start from the size order (`size-first-fit`'s) placed by first fit, or the best-fit
//!    placement of that order if it is smaller.
//! 2. Repeat: pick (with a fixed-seed generator) one of the buffers whose top is the arena top
//!    — they shape the peak — and move it earlier in the order, in front of a randomly chosen
//!    buffer that overlaps it in time; re-place everything by first fit; keep the new order
//!    when the arena is not larger (equal moves let the search drift across plateaus).
//! 3. Stop at the lower bound, after `MAX_ITERATIONS` moves (fewer on large problems: at most
//!    `WORK_BUDGET / n` re-placements of `n` buffers), or at the time limit.
//!
//! Deterministic for a given problem: the generator is seeded with a constant and the time
//! limit only cuts the search short (a plan found earlier is always kept).

use std::time::Instant;

use super::offset_fit::{best_fit, first_fit};
use super::rng::Rng;
use super::size_greedy::{place_in_order, size_order};
use super::{Outcome, Settings};
use crate::analysis::Problem;

const MAX_ITERATIONS: usize = 2000;
/// Buffers re-placed over the whole search, at most (keeps large problems under a second).
const WORK_BUDGET: usize = 1_000_000;
const SEED: u64 = 0x5eed_a7e4a;

pub fn plan(problem: &Problem, settings: &Settings) -> Outcome {
    let start = Instant::now();
    let lower = problem.lower_bound();
    let b = &problem.buffers;
    let mut order = size_order(problem);
    let mut best = place_in_order(problem, &order, first_fit);
    let mut best_arena = problem.arena_bytes(&best);
    let by_best_fit = place_in_order(problem, &order, best_fit);
    if problem.arena_bytes(&by_best_fit) < best_arena {
        best_arena = problem.arena_bytes(&by_best_fit);
        best = by_best_fit;
    }
    let mut current_arena = problem.arena_bytes(&place_in_order(problem, &order, first_fit));
    let mut rng = Rng::new(SEED);
    let iterations = MAX_ITERATIONS.min(WORK_BUDGET / b.len().max(1));
    for _ in 0..iterations {
        if best_arena <= lower || start.elapsed().as_secs_f64() > settings.time_limit_secs {
            break;
        }
        let offsets = place_in_order(problem, &order, first_fit);
        let top: Vec<usize> = (0..order.len())
            .filter(|&k| {
                let i = order[k];
                offsets[i] + b[i].size_bytes == current_arena
            })
            .collect();
        if top.is_empty() {
            break;
        }
        let k = top[rng.below(top.len() as u64) as usize];
        let i = order[k];
        let earlier: Vec<usize> = (0..k)
            .filter(|&j| b[order[j]].overlaps_in_time(&b[i]))
            .collect();
        if earlier.is_empty() {
            continue;
        }
        let to = earlier[rng.below(earlier.len() as u64) as usize];
        let mut next = order.clone();
        let moved = next.remove(k);
        next.insert(to, moved);
        let placed = place_in_order(problem, &next, first_fit);
        let arena = problem.arena_bytes(&placed);
        if arena <= current_arena {
            order = next;
            current_arena = arena;
            if arena < best_arena {
                best_arena = arena;
                best = placed;
            }
        }
    }
    Outcome::offsets(best)
}
