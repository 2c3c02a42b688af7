//! Synthetic problems with realistic lifetimes, for benchmarks and property tests.
//!
//! The shape is a network's: a chain of ops where each output is consumed by the next few ops
//! and now and then by a later one (skip connections), with sizes spread over a few orders of
//! magnitude. A fixed seed gives the same problem every time.

use crate::analysis::{Buffer, BufferKind, Problem};
use crate::planner::rng::Rng;

/// `n` buffers over about `n` steps: one new output per step, most dying within a few steps,
/// one in eight living up to 64 steps (a skip connection), sizes from 64 bytes to ~1 MiB.
pub fn network_like(n: usize, seed: u64, alignment: u64) -> Problem {
    let mut rng = Rng::new(seed);
    let steps = n as u32;
    let buffers = (0..n)
        .map(|i| {
            let first = i as u32;
            let span = if rng.below(8) == 0 {
                1 + rng.below(64)
            } else {
                1 + rng.below(3)
            } as u32;
            let last = (first + span).min(steps.saturating_sub(1)).max(first);
            let size = 64u64 << rng.below(15);
            Buffer {
                tensor: i,
                subgraph: 0,
                name: format!("t{i}"),
                kind: BufferKind::Activation,
                size_bytes: size + rng.below(size / 2 + 1),
                first,
                last,
                alignment,
                fixed_offset: None,
            }
        })
        .collect();
    Problem::from_buffers(buffers)
}
