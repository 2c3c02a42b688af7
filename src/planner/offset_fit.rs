//! Gap search among placed buffers that overlap in time, shared by the offline greedy planners.

use super::align_up;

/// A placed buffer's byte range.
#[derive(Clone, Copy, Debug)]
pub struct Placed {
    pub offset: u64,
    pub size: u64,
}

/// Lowest aligned offset where `size` bytes fit between the `placed` ranges (sorted by offset).
pub fn first_fit(placed: &[Placed], size: u64, alignment: u64) -> u64 {
    let mut cur = 0u64;
    for p in placed {
        let at = align_up(cur, alignment);
        if at + size <= p.offset {
            return at;
        }
        cur = cur.max(p.offset + p.size);
    }
    align_up(cur, alignment)
}

/// Aligned offset of the smallest gap (measured from its aligned start) that holds `size`
/// bytes between the `placed` ranges (sorted by offset); the gap below the lowest counts; on
/// ties the lowest offset; above the top when no gap fits.
pub fn best_fit(placed: &[Placed], size: u64, alignment: u64) -> u64 {
    let mut cur = 0u64;
    let mut best: Option<(u64, u64)> = None;
    for p in placed {
        let at = align_up(cur, alignment);
        if at + size <= p.offset {
            let gap = p.offset - at;
            if best.is_none_or(|(g, _)| gap < g) {
                best = Some((gap, at));
            }
        }
        cur = cur.max(p.offset + p.size);
    }
    best.map(|(_, at)| at)
        .unwrap_or_else(|| align_up(cur, alignment))
}
