//! Placed buffers indexed by time, so that a planner finds the buffers overlapping a lifetime
//! without scanning every placed buffer.

/// Placed buffers indexed by time: each buffer is listed at the blocks of steps it covers, so
/// a query visits only buffers alive in nearby steps. Blocks of `BLOCK` steps keep long-lived
/// buffers from being listed too often.
pub struct StepIndex {
    blocks: Vec<Vec<(usize, u32, u32)>>,
    seen: Vec<u32>,
    epoch: u32,
}

const BLOCK: u32 = 8;

impl StepIndex {
    pub fn new(steps: u32) -> Self {
        StepIndex {
            blocks: vec![Vec::new(); (steps / BLOCK + 1) as usize],
            seen: Vec::new(),
            epoch: 0,
        }
    }

    pub fn add(&mut self, id: usize, first: u32, last: u32) {
        for blk in first / BLOCK..=last / BLOCK {
            if let Some(v) = self.blocks.get_mut(blk as usize) {
                v.push((id, first, last));
            }
        }
    }

    /// Calls `f` once for every added buffer whose lifetime meets `[first, last]`.
    pub fn overlapping(&mut self, first: u32, last: u32, mut f: impl FnMut(usize)) {
        self.epoch += 1;
        for blk in first / BLOCK..=last / BLOCK {
            let Some(v) = self.blocks.get(blk as usize) else {
                continue;
            };
            for &(id, f0, l0) in v {
                if f0 <= last && first <= l0 {
                    if self.seen.len() <= id {
                        self.seen.resize(id + 1, 0);
                    }
                    if self.seen[id] != self.epoch {
                        self.seen[id] = self.epoch;
                        f(id);
                    }
                }
            }
        }
    }
}
