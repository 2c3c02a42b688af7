//! `greedy-breadth`: the GPU delegate's GREEDY_BY_BREADTH object assignment.
//!
//! Steps are visited by decreasing breadth (bytes alive at the step; ties by step). At each
//! step, its live buffers that have no object yet are visited by size descending (ties by id),
//! and each takes the smallest object that has no buffer overlapping it in time and is at least
//! its size; else the largest such object, grown to its size; else a new object. Objects are
//! laid end to end in creation order (see `interval_coloring::lay_out`).

use super::interval_coloring::lay_out;
use super::{Outcome, Settings};
use crate::analysis::Problem;

pub fn plan(problem: &Problem, _: &Settings) -> Outcome {
    let b = &problem.buffers;
    let live = problem.live_bytes_per_step();
    let mut steps: Vec<usize> = (0..live.len()).collect();
    steps.sort_by(|&x, &y| live[y].cmp(&live[x]).then(x.cmp(&y)));
    // Buffers starting at or before each step, to find the live ones.
    let mut by_step: Vec<Vec<usize>> = vec![Vec::new(); live.len()];
    for (i, buf) in b.iter().enumerate() {
        if buf.fixed_offset.is_none() {
            for s in buf.first..=buf.last {
                by_step[s as usize].push(i);
            }
        }
    }
    let mut obj_size: Vec<u64> = Vec::new();
    let mut obj_align: Vec<u64> = Vec::new();
    // Intervals held by each object, sorted by first step.
    let mut obj_spans: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut obj_of = vec![usize::MAX; b.len()];
    for s in steps {
        let mut todo: Vec<usize> = by_step[s]
            .iter()
            .copied()
            .filter(|&i| obj_of[i] == usize::MAX)
            .collect();
        todo.sort_by(|&x, &y| b[y].size_bytes.cmp(&b[x].size_bytes).then(x.cmp(&y)));
        for i in todo {
            let buf = &b[i];
            let mut best_fit: Option<usize> = None;
            let mut largest: Option<usize> = None;
            for o in 0..obj_size.len() {
                let spans = &obj_spans[o];
                let pos = spans.partition_point(|sp| sp.0 <= buf.last);
                // Spans are disjoint and sorted, so only the last one starting by `buf.last` can meet it.
                let conflict = spans[..pos].last().is_some_and(|sp| sp.1 >= buf.first);
                if conflict {
                    continue;
                }
                if obj_size[o] >= buf.size_bytes {
                    if best_fit.is_none_or(|f| obj_size[o] < obj_size[f]) {
                        best_fit = Some(o);
                    }
                } else if largest.is_none_or(|l| obj_size[o] > obj_size[l]) {
                    largest = Some(o);
                }
            }
            let o = match (best_fit, largest) {
                (Some(o), _) => o,
                (None, Some(o)) => {
                    obj_size[o] = buf.size_bytes;
                    o
                }
                (None, None) => {
                    obj_size.push(buf.size_bytes);
                    obj_align.push(1);
                    obj_spans.push(Vec::new());
                    obj_size.len() - 1
                }
            };
            obj_align[o] = obj_align[o].max(buf.alignment);
            let spans = &mut obj_spans[o];
            let pos = spans.partition_point(|sp| sp.0 <= buf.first);
            spans.insert(pos, (buf.first, buf.last));
            obj_of[i] = o;
        }
    }
    Outcome::offsets(lay_out(problem, &obj_size, &obj_align, &obj_of))
}
