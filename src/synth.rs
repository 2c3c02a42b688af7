//! Synthetic problems with realistic lifetimes, for benchmarks and property tests.
//!
//! The shape is a network's: a chain of ops where each output is consumed by the next few ops
//! and now and then by a later one (skip connections), with sizes spread over a few orders of
//! magnitude. A fixed seed gives the same problem every time.

use crate::analysis::{Buffer, BufferKind, Problem};

/// SplitMix64: a small, well-known deterministic generator.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, n)`.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }
}

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
