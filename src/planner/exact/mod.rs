//! `exact`: branch and bound over canonical placements; proves the optimum or returns its best
//! plan and its proven bound at the time limit.
//!
//! Canonical placements: take any valid plan and let each buffer, by increasing offset, drop
//! onto the highest buffer below it that it overlaps in time (then up to its alignment). The
//! result is valid and no larger, and each offset is the aligned skyline of the buffers placed
//! before it. So it suffices to search placement orders, each buffer on its skyline, offsets
//! never decreasing. The decision search (`search.rs`, one rule per switch of [`Params`]) adds
//! MiniMalloc's inference: section floors plus unplaced bytes against the capacity, a
//! dominance rule against gaps an unplaced buffer could fill, and decomposition wherever no
//! unplaced buffer crosses a section boundary; it tries several static tie orders in turn with
//! a node budget that doubles each round, so one unlucky order cannot stall it.
//!
//! Minimisation: start from the best plan of the other planners (an upper bound `U`) and the
//! max-live lower bound `L`. First decide `L` itself, briefly (on real problems it often fits:
//! the plan is then optimal at once); then bisect between the bounds, each decision shrinking
//! `U` to the plan found or raising `L` past a capacity proven infeasible. A decision that runs
//! out of its share of the time proves nothing: the next one aims higher, and once every
//! capacity has been tried the bisection starts again from `L` with the time left. Optimal
//! when `L = U`; otherwise the plan returned is the best found and `proven_bound` is `L`.

mod instance;
mod search;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::offset_fit::first_fit;
use super::size_greedy::{place_in_order, size_order};
use super::{Outcome, Settings};
use crate::analysis::Problem;
use instance::Instance;
pub use instance::Key;
pub use search::Params;
use search::{Search, Status};

/// Above this many buffers the search is not tried (its recursion is as deep as the buffer
/// count); the warm start is returned with the max-live bound.
pub const MAX_SEARCH_BUFFERS: usize = 50_000;

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

/// Does every buffer fit under `capacity`, searching with the rules of `params`? Buffers with
/// a fixed offset are not supported by the search (callers keep the heuristic plan for such
/// problems).
pub fn decide_with(
    p: &Problem,
    params: &Params,
    capacity: u64,
    deadline: Instant,
    control: Control<'_>,
) -> Decision {
    let inst = Instance::new(p);
    decide_instance(p, &inst, params, capacity, deadline, control)
}

fn decide_instance(
    p: &Problem,
    inst: &Instance,
    params: &Params,
    capacity: u64,
    deadline: Instant,
    control: Control<'_>,
) -> Decision {
    if inst.len() > MAX_SEARCH_BUFFERS {
        return Decision::Unknown;
    }
    if inst.len() <= 500 {
        return round_robin(p, inst, params, capacity, deadline, control);
    }
    // The search recurses once per buffer placed: big problems get a thread with the stack
    // for it.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("exact".into())
            .stack_size(64 << 20)
            .spawn_scoped(scope, || {
                round_robin(p, inst, params, capacity, deadline, control)
            })
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or(Decision::Unknown)
    })
}

/// Tries each static order in turn with a node budget that doubles every round.
fn round_robin(
    p: &Problem,
    inst: &Instance,
    params: &Params,
    capacity: u64,
    deadline: Instant,
    control: Control<'_>,
) -> Decision {
    let orders: Vec<Vec<Key>> = if params.orders.is_empty() {
        vec![Vec::new()]
    } else {
        params.orders.clone()
    };
    let mut search = Search::new(inst, params, capacity, deadline, control);
    let mut budget = if orders.len() == 1 {
        u64::MAX
    } else {
        inst.len().max(16) as u64
    };
    loop {
        for keys in &orders {
            match search.run(keys, budget) {
                Status::Found => {
                    let mut offsets = vec![0; p.buffers.len()];
                    for (k, &id) in inst.ids.iter().enumerate() {
                        offsets[id] = search.solution[k];
                    }
                    return Decision::Fits(offsets);
                }
                Status::NotFound => return Decision::DoesNotFit,
                Status::Stopped => return Decision::Unknown,
                Status::Budget => {}
            }
        }
        budget = budget.saturating_mul(2);
    }
}

/// Minimises the arena (see the module doc). `cancel` stops the search early; the best plan
/// found so far is returned with the bound proven so far.
pub fn minimise(p: &Problem, settings: &Settings, control: Control<'_>) -> Outcome {
    let deadline = Instant::now() + Duration::from_secs_f64(settings.time_limit_secs.max(0.0));
    // Warm start: the best plan of every other planner that runs on any problem; on a tie,
    // size-first-fit's.
    let mut best = place_in_order(p, &size_order(p), first_fit);
    let other = super::best_generic(p, settings, &["size-first-fit"]);
    if p.arena_bytes(&other) < p.arena_bytes(&best) {
        best = other;
    }
    let mut upper = p.arena_bytes(&best);
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
    let inst = Instance::new(p);
    lower = lower.max(inst.stacked_bound());
    report(upper, lower);
    let params = Params::default();
    // Capacities below `soft` are proven infeasible or were tried without an answer.
    let mut soft = lower;
    let mut first = true;
    while lower < upper {
        let now = Instant::now();
        if now >= deadline || control.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            break;
        }
        if soft >= upper {
            // Every capacity left was tried without an answer: try again, with the time left.
            soft = lower;
        }
        let left = deadline.saturating_duration_since(now);
        // The lower bound gets a short first try (it often fits); each later decision may use
        // half of the time left, so a hard one leaves time for the rest.
        let (capacity, share) = if first {
            (lower, left / 8)
        } else {
            (soft + (upper - soft) / 2, left / 2)
        };
        first = false;
        match decide_instance(p, &inst, &params, capacity, now + share, control) {
            Decision::Fits(offsets) => {
                upper = p.arena_bytes(&offsets);
                best = offsets;
            }
            Decision::DoesNotFit => {
                lower = capacity + 1;
                soft = soft.max(lower);
            }
            Decision::Unknown => soft = capacity + 1,
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
    let deadline = Instant::now() + Duration::from_secs_f64(settings.time_limit_secs.max(0.0));
    let greedy = place_in_order(p, &size_order(p), first_fit);
    let lower = p.lower_bound();
    if p.arena_bytes(&greedy) <= capacity || p.buffers.iter().any(|b| b.fixed_offset.is_some()) {
        return Outcome {
            offsets: greedy,
            proven_bound: Some(lower),
        };
    }
    match decide_with(
        p,
        &Params::default(),
        capacity,
        deadline,
        Control::default(),
    ) {
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
