//! The problem as the search sees it: time cut into sections, the buffers alive in each, who
//! overlaps whom, and the static orders the search tries.
//!
//! A section is a maximal run of steps over which the set of live buffers does not change (its
//! ends are the buffers' `first` and `last + 1`). Two buffers overlap in time exactly when they
//! share a section. Where no buffer crosses from one section to the next, the problem falls
//! apart into independent partitions.

use crate::analysis::Problem;

pub(super) struct Instance {
    /// The problem's buffer behind each of ours: empty buffers are left out (they go at 0).
    pub ids: Vec<usize>,
    pub size: Vec<u64>,
    pub align: Vec<u64>,
    /// The greatest common divisor of the alignments: every offset is a multiple of it, so a
    /// buffer followed by another in the same section takes its size rounded up to it.
    pub grain: u64,
    /// Each size rounded up to the grain.
    pub unit: Vec<u64>,
    /// Sections `lo[i]..hi[i]` hold buffer `i`.
    pub lo: Vec<u32>,
    pub hi: Vec<u32>,
    /// Buffers sharing a section with each buffer (itself excluded).
    pub overlaps: Vec<Vec<u32>>,
    /// Buffers alive in each section.
    pub members: Vec<Vec<u32>>,
    /// Real time width of each buffer (compressed CSV steps are expanded back).
    pub width: Vec<u64>,
    /// The previous buffer with the same sections, size and alignment (`u32::MAX` if none):
    /// twins are interchangeable, so the search places them in id order.
    pub twin: Vec<u32>,
}

/// A static order for the search's ties: which keys, in turn, put a buffer first (largest
/// first for each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// Time width.
    Width,
    /// Bytes × time width.
    Area,
    /// The largest total bytes alive in one of its sections.
    Total,
    /// Bytes.
    Size,
    /// A fixed pseudo-random key from this seed (for restarts that differ).
    Random(u64),
}

impl Instance {
    pub fn new(p: &Problem) -> Self {
        let ids: Vec<usize> = (0..p.buffers.len())
            .filter(|&i| p.buffers[i].size_bytes > 0)
            .collect();
        let buffers: Vec<&crate::analysis::Buffer> = ids.iter().map(|&i| &p.buffers[i]).collect();
        let n = buffers.len();
        // Sections start at time 0... and at every end (`last + 1`): between two ends only
        // starts happen, so the buffers alive anywhere in a section all overlap (it is a maximal
        // clique) and smaller live sets need no section of their own.
        let mut cuts: Vec<u32> = buffers.iter().map(|b| b.last + 1).collect();
        cuts.push(buffers.iter().map(|b| b.first).min().unwrap_or(0));
        cuts.sort_unstable();
        cuts.dedup();
        let section = |t: u32| cuts.partition_point(|&c| c <= t) as u32 - 1;
        let sections = cuts.len().saturating_sub(1);
        let mut members = vec![Vec::new(); sections];
        let (mut lo, mut hi) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for (i, b) in buffers.iter().enumerate() {
            let (l, h) = (section(b.first), section(b.last + 1));
            for m in &mut members[l as usize..h as usize] {
                m.push(i as u32);
            }
            lo.push(l);
            hi.push(h);
        }
        let mut overlaps = vec![Vec::new(); n];
        let mut by_start: Vec<usize> = (0..n).collect();
        by_start.sort_by_key(|&i| (lo[i], i));
        let mut active: Vec<usize> = Vec::new();
        for &i in &by_start {
            active.retain(|&j| hi[j] > lo[i]);
            for &j in &active {
                overlaps[i].push(j as u32);
                overlaps[j].push(i as u32);
            }
            active.push(i);
        }
        let time = |step: u32| -> u64 {
            p.step_values
                .get(step as usize)
                .copied()
                .unwrap_or(step as u64)
        };
        let mut twin = vec![u32::MAX; n];
        let mut seen = std::collections::HashMap::new();
        for i in 0..n {
            let key = (lo[i], hi[i], buffers[i].size_bytes, buffers[i].alignment);
            if let Some(prev) = seen.insert(key, i as u32) {
                twin[i] = prev;
            }
        }
        let grain = buffers
            .iter()
            .map(|b| b.alignment.max(1))
            .fold(0, gcd)
            .max(1);
        Instance {
            grain,
            unit: buffers
                .iter()
                .map(|b| crate::analysis::round_up(b.size_bytes, grain))
                .collect(),
            twin,
            size: buffers.iter().map(|b| b.size_bytes).collect(),
            align: buffers.iter().map(|b| b.alignment.max(1)).collect(),
            width: buffers
                .iter()
                .map(|b| time(b.last + 1).saturating_sub(time(b.first)))
                .collect(),
            ids,
            lo,
            hi,
            overlaps,
            members,
        }
    }

    /// A lower bound on the arena at least max-live: in each section the buffers stack, every
    /// one but the topmost taking its size rounded up to the grain.
    pub fn stacked_bound(&self) -> u64 {
        self.members
            .iter()
            .map(|m| {
                let units: u64 = m.iter().map(|&i| self.unit[i as usize]).sum();
                let pad = m
                    .iter()
                    .map(|&i| self.unit[i as usize] - self.size[i as usize])
                    .max()
                    .unwrap_or(0);
                units - pad
            })
            .max()
            .unwrap_or(0)
    }

    pub fn len(&self) -> usize {
        self.size.len()
    }

    pub fn sections(&self) -> usize {
        self.members.len()
    }

    /// Sorts `ids` by `keys` (each largest first; ties by id). `Total` reads the bytes still
    /// to place in each section, `totals`.
    pub fn sort(&self, ids: &mut [u32], keys: &[Key], totals: &[u64]) {
        let key = |i: usize, k: Key| match k {
            Key::Width => self.width[i] as u128,
            Key::Area => self.size[i] as u128 * self.width[i] as u128,
            Key::Total => totals[self.lo[i] as usize..self.hi[i] as usize]
                .iter()
                .copied()
                .max()
                .unwrap_or(0) as u128,
            Key::Size => self.size[i] as u128,
            Key::Random(seed) => {
                crate::planner::rng::Rng::new(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    .next_u64() as u128
            }
        };
        let mut keyed: Vec<(Vec<u128>, u32)> = ids
            .iter()
            .map(|&i| (keys.iter().map(|&k| key(i as usize, k)).collect(), i))
            .collect();
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (slot, (_, i)) in ids.iter_mut().zip(keyed) {
            *slot = i;
        }
    }

    /// Number of buffers crossing from each section into the next.
    pub fn cuts(&self) -> Vec<u32> {
        let mut cuts = vec![0u32; self.sections().saturating_sub(1)];
        for i in 0..self.len() {
            for c in &mut cuts[self.lo[i] as usize..self.hi[i] as usize - 1] {
                *c += 1;
            }
        }
        cuts
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
