//! `xnnpack`: XNNPACK's own workspace planner (RUNTIME_RULES_XNNPACK X.1,
//! `src/memory-planner.c` at google/XNNPACK@8388bd7869, the pin of LiteRT 2.3.0).
//!
//! The records (buffers) are sorted by size, descending, with glibc's stable merge sort, so
//! equal sizes keep their id order (XNNPACK adds records in value-id order, op workspaces
//! after the values). Each record then takes the smallest gap that holds it among the
//! coalesced blocks of the records already placed that overlap it in time, the gap below the
//! lowest block included (the leading-gap rule of XNNPACK PR #10801; ties: the lower offset);
//! if none does, it goes on top of those blocks. The arena is the highest end. This is
//! `size-best-fit` with XNNPACK's tie order: id only, where `size-best-fit` prefers the
//! earlier and longer buffer first.

use super::offset_fit::best_fit;
use super::size_greedy::place_in_order;
use super::{Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let mut order: Vec<usize> = (0..b.len())
        .filter(|&i| b[i].fixed_offset.is_none())
        .collect();
    // Stable: equal sizes stay in id order.
    order.sort_by(|&x, &y| b[y].size_bytes.cmp(&b[x].size_bytes));
    Outcome::offsets(place_in_order(problem, &order, best_fit))
}
