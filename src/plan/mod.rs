//! Plans: the validated plan type, validation (the first violation, as an enum) and metrics
//! (DESIGN.md §1.3). Below the planners: a plan is data, whoever made it.

use std::collections::BTreeMap;

use crate::analysis::{round_up, Problem};

/// Why a plan is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    #[error("the plan has {got} offsets for {want} buffers")]
    WrongCount { got: usize, want: usize },
    #[error("buffer {buffer} ({name}) is at offset {offset}, not a multiple of its alignment {alignment}")]
    Misaligned {
        buffer: usize,
        name: String,
        offset: u64,
        alignment: u64,
    },
    #[error("buffer {buffer} ({name}) must stay at its fixed offset {fixed} but is at {offset}")]
    FixedMoved {
        buffer: usize,
        name: String,
        fixed: u64,
        offset: u64,
    },
    #[error("buffers {a} ({a_name}) and {b} ({b_name}) are alive at the same step and their bytes overlap")]
    Overlap {
        a: usize,
        a_name: String,
        b: usize,
        b_name: String,
    },
    #[error("the plan needs {arena_bytes} bytes, more than the capacity of {capacity}")]
    ArenaTooSmall { arena_bytes: u64, capacity: u64 },
}

/// Checks a plan against DESIGN.md §1.3 (and a capacity, when one is given). A sweep over time
/// keeps the live buffers ordered by offset, so each new one is checked against its two
/// neighbours in memory only: O(n log n).
pub fn validate(
    problem: &Problem,
    offsets: &[u64],
    capacity: Option<u64>,
) -> Result<(), Violation> {
    let b = &problem.buffers;
    if offsets.len() != b.len() {
        return Err(Violation::WrongCount {
            got: offsets.len(),
            want: b.len(),
        });
    }
    for (i, (buf, &off)) in b.iter().zip(offsets).enumerate() {
        if let Some(fixed) = buf.fixed_offset {
            if fixed != off {
                return Err(Violation::FixedMoved {
                    buffer: i,
                    name: buf.name.clone(),
                    fixed,
                    offset: off,
                });
            }
        } else if off % buf.alignment.max(1) != 0 {
            return Err(Violation::Misaligned {
                buffer: i,
                name: buf.name.clone(),
                offset: off,
                alignment: buf.alignment,
            });
        }
    }
    // Sweep over time. Planned buffers are pairwise disjoint while the sweep goes on, so a new
    // one is checked against its two neighbours in memory; buffers with a fixed offset (given by
    // the file, e.g. Vela's offline plan, which may overlap each other on purpose) are checked
    // against the planned ones only.
    let mut order: Vec<usize> = (0..b.len()).filter(|&i| b[i].size_bytes > 0).collect();
    order.sort_by_key(|&i| (b[i].first, i));
    let mut by_end: Vec<usize> = order.clone();
    by_end.sort_by_key(|&i| (b[i].last, i));
    let mut live: BTreeMap<(u64, usize), usize> = BTreeMap::new();
    let mut live_fixed: Vec<usize> = Vec::new();
    let mut e = 0;
    let overlap = |x: usize, y: usize| Violation::Overlap {
        a: x.min(y),
        a_name: b[x.min(y)].name.clone(),
        b: x.max(y),
        b_name: b[x.max(y)].name.clone(),
    };
    let meets = |i: usize, j: usize| {
        offsets[i] < offsets[j] + b[j].size_bytes && offsets[j] < offsets[i] + b[i].size_bytes
    };
    for &i in &order {
        while e < by_end.len() && b[by_end[e]].last < b[i].first {
            let j = by_end[e];
            live.remove(&(offsets[j], j));
            live_fixed.retain(|&k| k != j);
            e += 1;
        }
        let (start, end) = (offsets[i], offsets[i] + b[i].size_bytes);
        if let Some((&(o, j), _)) = live.range(..(start, usize::MAX)).next_back() {
            if o + b[j].size_bytes > start {
                return Err(overlap(i, j));
            }
        }
        if let Some((&(o, j), _)) = live.range((start, 0)..).next() {
            if o < end {
                return Err(overlap(i, j));
            }
        }
        if b[i].fixed_offset.is_some() {
            live_fixed.push(i);
        } else {
            if let Some(&j) = live_fixed.iter().find(|&&j| meets(i, j)) {
                return Err(overlap(i, j));
            }
            live.insert((start, i), i);
        }
    }
    if let Some(cap) = capacity {
        let arena = problem.arena_bytes(offsets);
        if arena > cap {
            return Err(Violation::ArenaTooSmall {
                arena_bytes: arena,
                capacity: cap,
            });
        }
    }
    Ok(())
}

/// A free byte range `[start, end)` below the highest live byte at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Hole {
    pub step: u32,
    pub start: u64,
    pub end: u64,
}

impl Hole {
    pub fn bytes(&self) -> u64 {
        self.end - self.start
    }
}

/// What DESIGN.md §1.3 asks to report per plan.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Metrics {
    pub arena_bytes: u64,
    pub lower_bound: u64,
    pub overhead_bytes: u64,
    /// Overhead as a percentage of the lower bound.
    pub overhead_pct: f64,
    pub padding_bytes: u64,
    /// Sum over steps of the free bytes below the live top.
    pub hole_bytes_total: u64,
    pub largest_hole: Option<Hole>,
    /// Steps where live bytes reach the lower bound.
    pub peak_steps: Vec<u32>,
    /// Buffers live at the first peak step.
    pub peak_buffers: Vec<usize>,
}

/// Free ranges below the highest live byte at every step.
pub fn holes(problem: &Problem, offsets: &[u64]) -> Vec<Hole> {
    let mut starts: Vec<Vec<usize>> = vec![Vec::new(); problem.steps as usize];
    for (i, b) in problem.buffers.iter().enumerate() {
        if b.size_bytes > 0 {
            starts[b.first as usize].push(i);
        }
    }
    let mut live: BTreeMap<(u64, usize), u64> = BTreeMap::new();
    let mut out = Vec::new();
    for (step, new) in starts.iter().enumerate() {
        let step = step as u32;
        live.retain(|&(_, i), _| problem.buffers[i].last >= step);
        for &i in new {
            live.insert((offsets[i], i), offsets[i] + problem.buffers[i].size_bytes);
        }
        let mut covered = 0u64;
        for (&(o, _), &end) in &live {
            if o > covered {
                out.push(Hole {
                    step,
                    start: covered,
                    end: o,
                });
            }
            covered = covered.max(end);
        }
    }
    out
}

pub fn metrics(problem: &Problem, offsets: &[u64]) -> Metrics {
    let arena = problem.arena_bytes(offsets);
    let live = problem.live_bytes_per_step();
    let lower = live.iter().copied().max().unwrap_or(0);
    let peak_steps: Vec<u32> = live
        .iter()
        .enumerate()
        .filter(|(_, &v)| v == lower && lower > 0)
        .map(|(s, _)| s as u32)
        .collect();
    let peak_buffers = peak_steps
        .first()
        .map(|&s| {
            (0..problem.buffers.len())
                .filter(|&i| problem.buffers[i].first <= s && s <= problem.buffers[i].last)
                .collect()
        })
        .unwrap_or_default();
    let holes = holes(problem, offsets);
    let largest_hole = holes
        .iter()
        .copied()
        .max_by(|a, b| a.bytes().cmp(&b.bytes()).then(b.step.cmp(&a.step)));
    let padding = problem
        .buffers
        .iter()
        .map(|b| round_up(b.size_bytes, b.alignment) - b.size_bytes)
        .sum();
    let overhead = arena.saturating_sub(lower);
    Metrics {
        arena_bytes: arena,
        lower_bound: lower,
        overhead_bytes: overhead,
        overhead_pct: if lower > 0 {
            100.0 * overhead as f64 / lower as f64
        } else {
            0.0
        },
        padding_bytes: padding,
        hole_bytes_total: holes.iter().map(Hole::bytes).sum(),
        largest_hole,
        peak_steps,
        peak_buffers,
    }
}

/// A validated plan of one planner on one problem.
#[derive(Clone, Debug)]
pub struct Plan {
    pub planner: &'static str,
    pub offsets: Vec<u64>,
    pub arena_bytes: u64,
    pub lower_bound: u64,
    pub proven_bound: Option<u64>,
    pub seconds: f64,
}

impl Plan {
    /// Optimal by DESIGN.md §1.3: the arena meets the lower bound or a proven bound.
    pub fn optimal(&self) -> bool {
        self.arena_bytes <= self.lower_bound.max(self.proven_bound.unwrap_or(0))
    }
}

impl Plan {
    /// A plan from a planner's offsets, validated first: an invalid plan is an error, never
    /// a `Plan`.
    pub fn validated(
        planner: &'static str,
        problem: &Problem,
        offsets: Vec<u64>,
        proven_bound: Option<u64>,
        seconds: f64,
    ) -> Result<Plan, Violation> {
        validate(problem, &offsets, None)?;
        Ok(Plan {
            planner,
            arena_bytes: problem.arena_bytes(&offsets),
            lower_bound: problem.lower_bound(),
            proven_bound,
            offsets,
            seconds,
        })
    }
}
