//! `best-fit-coalesce`: an online allocator simulation (malloc with best fit).
//!
//! Events in time order; at the same step, releases (buffers whose last step has passed)
//! before allocations; allocations in id order. An allocation takes the smallest free block
//! that holds it at an aligned offset (lowest offset on ties) and splits off what is left on
//! either side; a release returns the range and merges it with free neighbours. When nothing
//! fits, a free block touching the top of the arena is extended; else the buffer goes on top.
//! Buffers with a fixed offset keep it; the allocator works above the highest fixed byte.

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
    let base = fixed_top(problem);
    let mut top = base;
    let mut free: BTreeMap<u64, u64> = BTreeMap::new();
    for step in 0..=problem.steps as usize {
        for &i in &ends[step] {
            if b[i].size_bytes > 0 {
                release(&mut free, offsets[i], offsets[i] + b[i].size_bytes);
            }
        }
        for &i in starts.get(step).into_iter().flatten() {
            let buf = &b[i];
            ends[buf.last as usize + 1].push(i);
            if buf.size_bytes == 0 {
                offsets[i] = align_up(base, buf.alignment);
                continue;
            }
            let mut best: Option<(u64, u64, u64)> = None; // (block size, start, end)
            for (&s, &e) in &free {
                if align_up(s, buf.alignment) + buf.size_bytes <= e
                    && best.is_none_or(|(size, _, _)| e - s < size)
                {
                    best = Some((e - s, s, e));
                }
            }
            let at = match best {
                Some((_, s, e)) => {
                    free.remove(&s);
                    let at = align_up(s, buf.alignment);
                    if at > s {
                        free.insert(s, at);
                    }
                    if at + buf.size_bytes < e {
                        free.insert(at + buf.size_bytes, e);
                    }
                    at
                }
                None => {
                    // Extend a free block that touches the top, else go on top.
                    let touching = free
                        .iter()
                        .next_back()
                        .filter(|(_, &e)| e == top)
                        .map(|(&s, _)| s);
                    let start = match touching {
                        Some(s) => {
                            free.remove(&s);
                            s
                        }
                        None => top,
                    };
                    let at = align_up(start, buf.alignment);
                    if at > start {
                        free.insert(start, at);
                    }
                    top = at + buf.size_bytes;
                    at
                }
            };
            offsets[i] = at;
        }
    }
    Outcome::offsets(offsets)
}

/// Returns `[s, e)` to the free list, merging with free neighbours.
fn release(free: &mut BTreeMap<u64, u64>, mut s: u64, mut e: u64) {
    if let Some((&ps, &pe)) = free.range(..=s).next_back() {
        if pe == s {
            free.remove(&ps);
            s = ps;
        }
    }
    if let Some(&ne) = free.get(&e) {
        free.remove(&e);
        e = ne;
    }
    free.insert(s, e);
}
