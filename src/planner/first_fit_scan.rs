//! `first-fit-scan`: an execution-order scan with a free list kept in offset order.
//!
//! At each step, first the blocks of buffers whose last step has passed return to the free
//! list; then, in id order, each buffer that starts at this step takes the lowest-offset free
//! block large enough to hold it at an aligned offset — the whole block, not split — else the
//! arena is extended by a new block for it. Buffers with a fixed offset keep it; the scan works
//! above the highest fixed byte.

use std::collections::BTreeMap;

use super::{align_up, fixed_top, Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let mut offsets = vec![0u64; b.len()];
    let mut starts: Vec<Vec<usize>> = vec![Vec::new(); problem.steps as usize + 1];
    let mut ends: Vec<Vec<usize>> = vec![Vec::new(); problem.steps as usize + 2];
    for (i, buf) in b.iter().enumerate() {
        match buf.fixed_offset {
            Some(o) => offsets[i] = o,
            None => starts[buf.first as usize].push(i),
        }
    }
    let mut top = fixed_top(problem);
    // Free blocks: start → end.
    let mut free: BTreeMap<u64, u64> = BTreeMap::new();
    // The block each buffer holds.
    let mut block = vec![(0u64, 0u64); b.len()];
    for step in 0..=problem.steps as usize {
        for &i in &ends[step] {
            let (s, e) = block[i];
            free.insert(s, e);
        }
        for &i in starts.get(step).into_iter().flatten() {
            let buf = &b[i];
            let fit = free
                .iter()
                .find(|(&s, &e)| align_up(s, buf.alignment) + buf.size_bytes <= e)
                .map(|(&s, &e)| (s, e));
            let (s, e) = match fit {
                Some((s, e)) => {
                    free.remove(&s);
                    (s, e)
                }
                None => {
                    let s = top;
                    let e = align_up(s, buf.alignment) + buf.size_bytes;
                    top = e;
                    (s, e)
                }
            };
            offsets[i] = align_up(s, buf.alignment);
            block[i] = (s, e);
            ends[buf.last as usize + 1].push(i);
        }
    }
    Outcome::offsets(offsets)
}
