//! `litert`: LiteRT's ArenaPlanner, faithfully (RUNTIME_RULES.md A.2, A.3, L7, L8).
//!
//! 1. Take the candidate vector the analysis built (per node, LiteRT's `unordered_set`
//!    iteration order; persistent tensors and in-place aliases included, as in LiteRT).
//! 2. Sort it with libstdc++'s `std::sort` (introsort, threshold 16, median-of-3 pivot moved to
//!    the front, unguarded partition, depth limit 2·⌊log2 n⌋ then heap sort, final insertion
//!    sort) and LiteRT's comparator: tensors allocated at node 0 and never freed first, by tensor
//!    index; then bytes descending; then allocation node ascending. The sort is not stable, so
//!    the order of ties is exactly what this algorithm does with that input order.
//! 3. Place each RW-arena candidate in that order (`SimpleMemoryArena::Allocate`): walk the
//!    placed buffers that overlap it in time, in offset order, keeping `cur` = the highest end
//!    seen; a gap `[align(cur), next.offset)` that holds it replaces the best one when its
//!    aligned size `next.offset − align(cur)` is below the stored best, and what is stored is
//!    the unaligned `next.offset − cur` (LiteRT's two measures); a stored 0 ends the walk; with
//!    no gap it goes at `align(cur)`. Placed buffers are kept by offset, a new one after equal
//!    offsets.
//!
//! On a problem with no candidate vector (not built from a model) the buffers are taken in id
//! order as the candidates.

use super::step_index::StepIndex;
use super::{align_up, Outcome, Settings};
use crate::analysis::problem::LitertCandidate;
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let last_step = problem.steps.saturating_sub(1);
    let mut candidates: Vec<LitertCandidate> = match &problem.litert_candidates {
        Some(c) => c.clone(),
        None => problem
            .buffers
            .iter()
            .enumerate()
            .map(|(i, b)| LitertCandidate {
                tensor: i,
                size_bytes: b.size_bytes,
                alloc_node: b.first,
                never_freed: b.last == last_step,
                buffer: Some(i),
            })
            .collect(),
    };
    std_sort(&mut candidates, litert_less);

    let b = &problem.buffers;
    let mut offsets = vec![0u64; b.len()];
    // LiteRT keeps every placed buffer in one list by offset (a new one after equal offsets)
    // and skips those that do not overlap in time; visiting only the overlapping ones, ordered
    // by (offset, placement number), walks the same entries in the same order.
    let mut index = StepIndex::new(problem.steps);
    let mut seq = vec![0usize; b.len()];
    let mut overlapping: Vec<(u64, usize, u64)> = Vec::new();
    for (n, c) in candidates.iter().enumerate() {
        let Some(id) = c.buffer else { continue };
        let buf = &b[id];
        if buf.size_bytes == 0 {
            offsets[id] = 0;
            continue;
        }
        let align = buf.alignment;
        overlapping.clear();
        index.overlapping(buf.first, buf.last, |j| {
            overlapping.push((offsets[j], seq[j], b[j].size_bytes))
        });
        overlapping.sort_unstable();
        let at = best_fit_offset(
            overlapping.iter().map(|&(off, _, size)| (off, size)),
            buf.size_bytes,
            align,
        );
        offsets[id] = at;
        seq[id] = n;
        index.add(id, buf.first, buf.last);
    }
    Outcome::offsets(offsets)
}

/// `SimpleMemoryArena::Allocate`'s choice among the time-overlapping placed buffers, given in
/// offset order as `(offset, size)`: a gap `[align(cur), next.offset)` that holds `size` wins
/// when its *aligned* size is below the best so far, but what is stored as the best is the
/// *unaligned* `next.offset − cur` (RUNTIME_RULES.md A.3, L8); a stored 0 ends the walk; with no
/// gap the buffer goes at `align(cur)` above them all.
fn best_fit_offset(placed: impl Iterator<Item = (u64, u64)>, size: u64, align: u64) -> u64 {
    let mut cur = 0u64;
    let mut best: Option<(u64, u64)> = None; // (stored fit, offset)
    for (off, len) in placed {
        let at = align_up(cur, align);
        if at + size <= off && best.is_none_or(|(stored, _)| off - at < stored) {
            best = Some((off - cur, at));
        }
        cur = cur.max(off + len);
        if best.is_some_and(|(stored, _)| stored == 0) {
            break;
        }
    }
    best.map(|(_, at)| at)
        .unwrap_or_else(|| align_up(cur, align))
}

/// LiteRT's `CreateTensorAllocationVector` comparator.
fn litert_less(a: &LitertCandidate, b: &LitertCandidate) -> bool {
    let whole_a = a.alloc_node == 0 && a.never_freed;
    let whole_b = b.alloc_node == 0 && b.never_freed;
    match (whole_a, whole_b) {
        (true, true) => a.tensor < b.tensor,
        (true, false) => true,
        (false, true) => false,
        (false, false) => {
            if a.size_bytes != b.size_bytes {
                a.size_bytes > b.size_bytes
            } else {
                a.alloc_node < b.alloc_node
            }
        }
    }
}

const THRESHOLD: usize = 16;

/// libstdc++'s `std::sort`, step for step, so that ties land where LiteRT's build puts them.
/// `less` must be a strict weak ordering.
pub fn std_sort<T: Clone>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
    introsort_loop(v, 0, n, depth, &less);
    final_insertion_sort(v, &less);
}

fn introsort_loop<T: Clone>(
    v: &mut [T],
    first: usize,
    mut last: usize,
    mut depth: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    while last - first > THRESHOLD {
        if depth == 0 {
            heap_sort(&mut v[first..last], less);
            return;
        }
        depth -= 1;
        let cut = partition_pivot(v, first, last, less);
        introsort_loop(v, cut, last, depth, less);
        last = cut;
    }
}

fn partition_pivot<T: Clone>(
    v: &mut [T],
    first: usize,
    last: usize,
    less: &impl Fn(&T, &T) -> bool,
) -> usize {
    let mid = first + (last - first) / 2;
    move_median_to_first(v, first, first + 1, mid, last - 1, less);
    // Unguarded partition of [first+1, last) around v[first].
    let (mut lo, mut hi) = (first + 1, last);
    loop {
        while less(&v[lo], &v[first]) {
            lo += 1;
        }
        hi -= 1;
        while less(&v[first], &v[hi]) {
            hi -= 1;
        }
        if lo >= hi {
            return lo;
        }
        v.swap(lo, hi);
        lo += 1;
    }
}

fn move_median_to_first<T>(
    v: &mut [T],
    result: usize,
    a: usize,
    b: usize,
    c: usize,
    less: &impl Fn(&T, &T) -> bool,
) {
    let pick = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(result, pick);
}

fn final_insertion_sort<T: Clone>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let n = v.len();
    if n > THRESHOLD {
        insertion_sort(&mut v[..THRESHOLD], less);
        for i in THRESHOLD..n {
            unguarded_linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, less);
    }
}

fn insertion_sort<T: Clone>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    for i in 1..v.len() {
        if less(&v[i], &v[0]) {
            let val = v[i].clone();
            for k in (1..=i).rev() {
                v[k] = v[k - 1].clone();
            }
            v[0] = val;
        } else {
            unguarded_linear_insert(v, i, less);
        }
    }
}

fn unguarded_linear_insert<T: Clone>(v: &mut [T], mut last: usize, less: &impl Fn(&T, &T) -> bool) {
    let val = v[last].clone();
    while last > 0 && less(&val, &v[last - 1]) {
        v[last] = v[last - 1].clone();
        last -= 1;
    }
    v[last] = val;
}

fn heap_sort<T: Clone>(v: &mut [T], less: &impl Fn(&T, &T) -> bool) {
    let len = v.len();
    if len < 2 {
        return;
    }
    // make_heap
    let mut parent = (len - 2) / 2;
    loop {
        let value = v[parent].clone();
        adjust_heap(v, parent, len, value, less);
        if parent == 0 {
            break;
        }
        parent -= 1;
    }
    // sort_heap
    let mut last = len;
    while last > 1 {
        last -= 1;
        let value = v[last].clone();
        v[last] = v[0].clone();
        adjust_heap(v, 0, last, value, less);
    }
}

fn adjust_heap<T: Clone>(
    v: &mut [T],
    mut hole: usize,
    len: usize,
    value: T,
    less: &impl Fn(&T, &T) -> bool,
) {
    let top = hole;
    let mut second = hole;
    while second < (len - 1) / 2 {
        second = 2 * (second + 1);
        if less(&v[second], &v[second - 1]) {
            second -= 1;
        }
        v[hole] = v[second].clone();
        hole = second;
    }
    if len.is_multiple_of(2) && second == (len - 2) / 2 {
        second = 2 * (second + 1);
        v[hole] = v[second - 1].clone();
        hole = second - 1;
    }
    // push_heap
    let mut parent = hole.saturating_sub(1) / 2;
    while hole > top && less(&v[parent], &value) {
        v[hole] = v[parent].clone();
        hole = parent;
        parent = hole.saturating_sub(1) / 2;
    }
    v[hole] = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gap_wins_on_its_aligned_size_against_the_stored_unaligned_one() {
        // Placed and alive: [0,128), [260,330), [512,576); 100 bytes at 64-byte alignment.
        // First gap: at align(128) = 128 below 260, aligned 132, stored 260 - 128 = 132.
        // Second gap: at align(330) = 384 below 512, aligned 128 < 132: it wins (stored 182),
        // where comparing unaligned sizes (182 against 132) would have kept the first.
        let placed = [(0, 128), (260, 70), (512, 64)];
        assert_eq!(best_fit_offset(placed.into_iter(), 100, 64), 384);
        // With 1-byte alignment both measures agree: 132 against 182, the first gap.
        assert_eq!(best_fit_offset(placed.into_iter(), 100, 1), 128);
        // An exact fit between two buffers; no fit: on top of all, aligned.
        assert_eq!(
            best_fit_offset([(0, 64), (164, 8)].into_iter(), 100, 64),
            64
        );
        assert_eq!(
            best_fit_offset([(0, 64), (100, 8)].into_iter(), 100, 64),
            128
        );
    }

    #[test]
    fn std_sort_sorts_like_any_sort_on_distinct_keys() {
        // A fixed pseudo-random permutation of 0..500 exercises partition, recursion and the
        // final insertion sort; distinct keys have one sorted order.
        let mut v: Vec<u32> = (0..500u32).map(|i| (i * 7919 + 13) % 500).collect();
        std_sort(&mut v, |a, b| a < b);
        assert_eq!(v, (0..500).collect::<Vec<_>>());
    }

    #[test]
    fn heap_sort_sorts() {
        let mut v: Vec<u32> = (0..97u32).map(|i| (i * 31 + 5) % 97).collect();
        heap_sort(&mut v, &|a: &u32, b: &u32| a < b);
        assert_eq!(v, (0..97).collect::<Vec<_>>());
    }

    #[test]
    fn std_sort_is_not_stable_on_ties_like_libstdcxx() {
        // 17 equal keys with distinct tags: more than the threshold, so one partition runs.
        // libstdc++ moves the median (element 8) to the front and swaps across equal keys;
        // the result is a specific permutation, not the input order.
        let mut v: Vec<(u32, u32)> = (0..17).map(|i| (0, i)).collect();
        std_sort(&mut v, |a, b| a.0 < b.0);
        let tags: Vec<u32> = v.iter().map(|x| x.1).collect();
        assert_ne!(tags, (0..17).collect::<Vec<_>>());
    }
}
