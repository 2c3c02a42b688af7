//! `exact`: branch and bound over canonical placements; proves the optimum or returns its best
//! plan and its proven bound at the time limit.
//!
//! Canonical placements: any valid plan can be "dropped" — take its buffers by increasing
//! offset and let each fall onto the highest buffer below it that it overlaps in time (then up
//! to its alignment). The result is valid, no larger, and each offset is the aligned skyline
//! `max(floor[s])` over the buffer's steps at the moment it is placed. So it suffices to search
//! orders, placing each buffer on the skyline, with offsets non-decreasing along the order.
//!
//! Decision (does everything fit in `capacity`?), depth first:
//! - a candidate is an unplaced buffer whose skyline offset is at least the last offset placed
//!   (the order is by offset) and that fits under the capacity;
//! - at equal offsets, buffers that do not overlap in time go left to right (the other order
//!   gives the same plan);
//! - candidates are tried by offset, then size descending;
//! - pruning: every unplaced buffer alive at step `s` will sit at or above
//!   `max(floor[s], m)`, `m` the smallest candidate offset, so that plus their total bytes must
//!   fit under the capacity at every step.
//!
//! Minimisation: start from the best plan of the other planners (an upper bound `U`) and the
//! max-live lower bound `L`; bisect on the capacity between them, each decision shrinking `U`
//! to the plan found or raising `L` past a capacity proven infeasible. Optimal when `L = U`.
//! A decision that runs out of time leaves the bounds where they are: the plan returned is the
//! best found and `proven_bound` is `L`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::offset_fit::first_fit;
use super::size_greedy::{place_in_order, size_order};
use super::{align_up, Outcome, Settings};
use crate::analysis::Problem;
use crate::plan::arena_bytes;

/// What a running search reports, readable from another thread: nodes visited, the best
/// arena found and the bound proven so far.
#[derive(Debug, Default)]
pub struct Progress {
    pub nodes: AtomicU64,
    pub best: AtomicU64,
    pub bound: AtomicU64,
}

/// How a caller steers a search: a flag that cancels it, a place for its progress.
#[derive(Clone, Copy, Default)]
pub struct Control<'a> {
    pub cancel: Option<&'a AtomicBool>,
    pub progress: Option<&'a Progress>,
}

/// Result of one decision search.
#[derive(Debug, PartialEq)]
pub enum Decision {
    Fits(Vec<u64>),
    DoesNotFit,
    /// Ran out of time or was cancelled.
    Unknown,
}

/// A decision search over one problem.
struct Search<'a> {
    p: &'a Problem,
    capacity: u64,
    floor: Vec<u64>,
    /// Bytes of unplaced buffers alive at each step.
    load: Vec<u64>,
    placed: Vec<bool>,
    offsets: Vec<u64>,
    deadline: Instant,
    control: Control<'a>,
    nodes: u64,
    stopped: bool,
}

impl Search<'_> {
    fn skyline(&self, i: usize) -> u64 {
        let b = &self.p.buffers[i];
        let top = self.floor[b.first as usize..=b.last as usize]
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        align_up(top, b.alignment)
    }

    fn out_of_time(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) {
            if let Some(p) = self.control.progress {
                p.nodes.fetch_add(1024, Ordering::Relaxed);
            }
            if Instant::now() >= self.deadline
                || self
                    .control
                    .cancel
                    .is_some_and(|c| c.load(Ordering::Relaxed))
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Depth-first search; `last` is the last buffer placed (its offset bounds the next).
    fn dfs(&mut self, last: Option<usize>, remaining: usize) -> bool {
        if remaining == 0 {
            return true;
        }
        if self.out_of_time() {
            return false;
        }
        let b = &self.p.buffers;
        let last_offset = last.map(|l| self.offsets[l]).unwrap_or(0);
        let mut cands: Vec<(u64, usize)> = Vec::new();
        for i in 0..b.len() {
            if self.placed[i] {
                continue;
            }
            let off = self.skyline(i);
            if off + b[i].size_bytes > self.capacity {
                // It can only rise: this branch cannot hold it.
                return false;
            }
            if off < last_offset {
                continue;
            }
            if let Some(l) = last {
                let lb = &b[l];
                if off == last_offset && !b[i].overlaps_in_time(lb) && b[i].first < lb.first {
                    continue;
                }
            }
            cands.push((off, i));
        }
        let Some(m) = cands.iter().map(|c| c.0).min() else {
            return false;
        };
        for s in 0..self.floor.len() {
            if self.load[s] > 0 && self.floor[s].max(m) + self.load[s] > self.capacity {
                return false;
            }
        }
        cands.sort_by_key(|&(off, i)| (off, std::cmp::Reverse(b[i].size_bytes), b[i].first, i));
        for (off, i) in cands {
            let (f, l, size) = (b[i].first as usize, b[i].last as usize, b[i].size_bytes);
            let saved: Vec<u64> = self.floor[f..=l].to_vec();
            for s in f..=l {
                self.floor[s] = off + size;
                self.load[s] -= size;
            }
            self.placed[i] = true;
            self.offsets[i] = off;
            if self.dfs(Some(i), remaining - 1) {
                return true;
            }
            self.placed[i] = false;
            for (k, s) in (f..=l).enumerate() {
                self.floor[s] = saved[k];
                self.load[s] += size;
            }
            if self.stopped {
                return false;
            }
        }
        false
    }
}

/// Does every buffer fit under `capacity`? Buffers with a fixed offset are not supported by
/// the search (the caller keeps the heuristic plan for such problems).
pub fn decide(p: &Problem, capacity: u64, deadline: Instant, control: Control<'_>) -> Decision {
    let steps = p.steps as usize;
    let mut load = vec![0u64; steps];
    for b in &p.buffers {
        for l in &mut load[b.first as usize..=b.last as usize] {
            *l += b.size_bytes;
        }
    }
    let mut search = Search {
        p,
        capacity,
        floor: vec![0; steps],
        load,
        placed: vec![false; p.buffers.len()],
        offsets: vec![0; p.buffers.len()],
        deadline,
        control,
        nodes: 0,
        stopped: false,
    };
    if search.dfs(None, p.buffers.len()) {
        Decision::Fits(search.offsets)
    } else if search.stopped {
        Decision::Unknown
    } else {
        Decision::DoesNotFit
    }
}

/// Minimises the arena (see the module doc). `cancel` stops the search early; the best plan
/// found so far is returned with the bound proven so far.
pub fn minimise(p: &Problem, settings: &Settings, control: Control<'_>) -> Outcome {
    let deadline =
        Instant::now() + std::time::Duration::from_secs_f64(settings.time_limit_secs.max(0.0));
    // Warm start: the best plan of every other planner that runs on any problem.
    let mut best = place_in_order(p, &size_order(p), first_fit);
    for info in super::REGISTRY
        .iter()
        .filter(|i| i.scope == super::Scope::Any && !i.on_request)
    {
        let offsets = (info.run)(p, settings).offsets;
        if arena_bytes(p, &offsets) < arena_bytes(p, &best) {
            best = offsets;
        }
    }
    let mut upper = arena_bytes(p, &best);
    let mut lower = p.lower_bound();
    let report = |upper: u64, lower: u64| {
        if let Some(pr) = control.progress {
            pr.best.store(upper, Ordering::Relaxed);
            pr.bound.store(lower, Ordering::Relaxed);
        }
    };
    report(upper, lower);
    if p.buffers.iter().any(|b| b.fixed_offset.is_some()) {
        return Outcome {
            offsets: best,
            proven_bound: Some(lower),
        };
    }
    while lower < upper {
        let mid = lower + (upper - lower) / 2;
        match decide(p, mid, deadline, control) {
            Decision::Fits(offsets) => {
                upper = arena_bytes(p, &offsets);
                best = offsets;
            }
            Decision::DoesNotFit => lower = mid + 1,
            Decision::Unknown => break,
        }
        report(upper, lower);
    }
    Outcome {
        offsets: best,
        proven_bound: Some(lower),
    }
}

pub fn plan(problem: &Problem, settings: &Settings) -> Outcome {
    match settings.capacity {
        Some(capacity) => decide_capacity(problem, capacity, settings),
        None => minimise(problem, settings, Control::default()),
    }
}

/// Decision mode: a plan within `capacity` when one exists. The greedy plans are tried first;
/// when the search proves that nothing fits, the bound proven is `capacity + 1`.
fn decide_capacity(p: &Problem, capacity: u64, settings: &Settings) -> Outcome {
    let deadline =
        Instant::now() + std::time::Duration::from_secs_f64(settings.time_limit_secs.max(0.0));
    let greedy = place_in_order(p, &size_order(p), first_fit);
    let lower = p.lower_bound();
    if arena_bytes(p, &greedy) <= capacity || p.buffers.iter().any(|b| b.fixed_offset.is_some()) {
        return Outcome {
            offsets: greedy,
            proven_bound: Some(lower),
        };
    }
    match decide(p, capacity, deadline, Control::default()) {
        Decision::Fits(offsets) => Outcome {
            offsets,
            proven_bound: Some(lower),
        },
        Decision::DoesNotFit => Outcome {
            offsets: greedy,
            proven_bound: Some(lower.max(capacity + 1)),
        },
        Decision::Unknown => Outcome {
            offsets: greedy,
            proven_bound: Some(lower),
        },
    }
}
