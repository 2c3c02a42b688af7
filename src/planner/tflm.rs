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

use super::step_index::StepIndex;
use super::{align_up, Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let mut offsets = vec![0u64; b.len()];
    // TFLM keeps placed buffers in a list by offset (a new one after equal offsets) and skips
    // those that do not overlap in time; visiting only the overlapping ones, ordered by
    // (offset, placement number), walks the same entries in the same order.
    let mut index = StepIndex::new(problem.steps);
    let mut seq = vec![0usize; b.len()];
    let mut n = 0usize;
    for (i, buf) in b.iter().enumerate() {
        if let Some(o) = buf.fixed_offset {
            offsets[i] = o;
            seq[i] = n;
            n += 1;
            index.add(i, buf.first, buf.last);
        }
    }
    // Reverse id order, then a stable sort by size descending (same result as TFLM's bubble
    // sort that swaps only strictly smaller-before-larger neighbours).
    let mut order: Vec<usize> = (0..b.len())
        .rev()
        .filter(|&i| b[i].fixed_offset.is_none())
        .collect();
    order.sort_by(|&x, &y| b[y].size_bytes.cmp(&b[x].size_bytes));
    let mut overlapping: Vec<(u64, usize, u64)> = Vec::new();
    for &i in &order {
        let buf = &b[i];
        overlapping.clear();
        index.overlapping(buf.first, buf.last, |j| {
            overlapping.push((offsets[j], seq[j], b[j].size_bytes))
        });
        overlapping.sort_unstable();
        let mut candidate = 0u64;
        let mut chosen = None;
        for &(off, _, size) in &overlapping {
            let at = align_up(candidate, buf.alignment);
            if off >= at && off - at >= buf.size_bytes {
                chosen = Some(at);
                break;
            }
            candidate = candidate.max(off + size);
        }
        offsets[i] = chosen.unwrap_or_else(|| align_up(candidate, buf.alignment));
        seq[i] = n;
        n += 1;
        index.add(i, buf.first, buf.last);
    }
    Outcome::offsets(offsets)
}

/// What TFLM does with `offsets` written into the model as its offline plan: every buffer but
/// the kernels' scratch keeps its offset (TFLM uses them verbatim), and the scratch buffers,
/// which TFLM always places itself, go where its online pass puts them around the pinned ones.
/// Returns the offsets TFLM ends with; their arena is the head it will report.
pub fn with_pinned(problem: &Problem, offsets: &[u64]) -> Outcome {
    let mut pinned = problem.clone();
    for (b, &o) in pinned.buffers.iter_mut().zip(offsets) {
        if b.kind != crate::analysis::BufferKind::Scratch {
            b.fixed_offset = Some(o);
        }
    }
    plan(&pinned, &Settings::default())
}
