//! `tflm`: TFLite Micro's GreedyMemoryPlanner, faithfully (RUNTIME_RULES.md B.3).
//!
//! 1. Buffers with an offline offset (metadata `OfflineMemoryAllocation`) keep it and are
//!    placed first, in id order.
//! 2. The others are copied from the tail (so the highest id comes first) and bubble-sorted by
//!    size descending with a stable swap: equal sizes keep the higher id first.
//! 3. The first online buffer (when nothing is fixed) goes at 0. Each next one walks the placed
//!    buffers in offset order, looking only at those that overlap it in time, with
//!    `candidate` = the highest end seen so far, and takes the first gap of at least its size
//!    (`next.offset − candidate ≥ size`), else goes at `candidate` above the last one.
//!
//! TFLM applies no alignment here: it rounds every size up to 16 bytes beforehand, so online
//! offsets are multiples of 16. On other problems (sizes not multiples of the alignment) the
//! candidate offset is rounded up to the buffer's alignment, which on TFLM's own problems
//! changes nothing.

use super::{align_up, Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let mut offsets = vec![0u64; b.len()];
    // Placed entries (offset, id), kept sorted by offset (new entries after equal offsets).
    let mut placed: Vec<(u64, usize)> = Vec::new();
    for (i, buf) in b.iter().enumerate() {
        if let Some(o) = buf.fixed_offset {
            offsets[i] = o;
            let pos = placed.partition_point(|p| p.0 <= o);
            placed.insert(pos, (o, i));
        }
    }
    // Reverse id order, then a stable sort by size descending (same result as TFLM's bubble
    // sort that swaps only strictly smaller-before-larger neighbours).
    let mut order: Vec<usize> = (0..b.len())
        .rev()
        .filter(|&i| b[i].fixed_offset.is_none())
        .collect();
    order.sort_by(|&x, &y| b[y].size_bytes.cmp(&b[x].size_bytes));
    for &i in &order {
        let buf = &b[i];
        let mut candidate = 0u64;
        let mut chosen = None;
        for &(off, j) in &placed {
            let other = &b[j];
            if !buf.overlaps_in_time(other) {
                continue;
            }
            let at = align_up(candidate, buf.alignment);
            if off >= at && off - at >= buf.size_bytes {
                chosen = Some(at);
                break;
            }
            candidate = candidate.max(off + other.size_bytes);
        }
        let at = chosen.unwrap_or_else(|| align_up(candidate, buf.alignment));
        offsets[i] = at;
        let pos = placed.partition_point(|p| p.0 <= at);
        placed.insert(pos, (at, i));
    }
    Outcome::offsets(offsets)
}
