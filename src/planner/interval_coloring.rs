//! `interval-coloring`: shared objects (the GPU delegate's object assignment by first use).
//!
//! Buffers in order of first step (ties by id). Each takes the smallest free object at least
//! its size (an object is free when the last buffer in it has ended); else the largest free
//! object, grown to its size; else a new object. Objects are then laid end to end in creation
//! order, each at an offset aligned to the largest alignment of its buffers; a buffer's offset
//! is its object's. Buffers with a fixed offset keep it; objects go above the highest fixed
//! byte.

use std::collections::BTreeSet;

use super::{align_up, fixed_top, Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let mut order: Vec<usize> = (0..b.len())
        .filter(|&i| b[i].fixed_offset.is_none())
        .collect();
    order.sort_by_key(|&i| (b[i].first, i));
    // Objects: size and the last step of the buffer in it.
    let mut obj_size: Vec<u64> = Vec::new();
    let mut obj_align: Vec<u64> = Vec::new();
    let mut obj_of = vec![usize::MAX; b.len()];
    // Busy objects by (end step, object); free objects by (size, object).
    let mut busy: BTreeSet<(u32, usize)> = BTreeSet::new();
    let mut free: BTreeSet<(u64, usize)> = BTreeSet::new();
    for &i in &order {
        let buf = &b[i];
        while let Some(&(end, o)) = busy.first() {
            if end >= buf.first {
                break;
            }
            busy.pop_first();
            free.insert((obj_size[o], o));
        }
        let o = if let Some(&(size, o)) = free.range((buf.size_bytes, 0)..).next() {
            free.remove(&(size, o));
            o
        } else if let Some((_, o)) = free.pop_last() {
            obj_size[o] = buf.size_bytes;
            o
        } else {
            obj_size.push(buf.size_bytes);
            obj_align.push(1);
            obj_size.len() - 1
        };
        obj_align[o] = obj_align[o].max(buf.alignment);
        obj_of[i] = o;
        busy.insert((buf.last, o));
    }
    Outcome::offsets(lay_out(problem, &obj_size, &obj_align, &obj_of))
}

/// Lays objects end to end in creation order above the fixed buffers; returns buffer offsets.
pub fn lay_out(
    problem: &Problem,
    obj_size: &[u64],
    obj_align: &[u64],
    obj_of: &[usize],
) -> Vec<u64> {
    let mut obj_offset = Vec::with_capacity(obj_size.len());
    let mut top = fixed_top(problem);
    for (size, align) in obj_size.iter().zip(obj_align) {
        let at = align_up(top, *align);
        obj_offset.push(at);
        top = at + size;
    }
    problem
        .buffers
        .iter()
        .enumerate()
        .map(|(i, buf)| {
            buf.fixed_offset
                .unwrap_or_else(|| obj_offset.get(obj_of[i]).copied().unwrap_or(0))
        })
        .collect()
}
