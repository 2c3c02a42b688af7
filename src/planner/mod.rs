//! Planners: pure, deterministic functions from a [`Problem`] to one offset per buffer.
//!
//! Every planner is listed once in [`REGISTRY`]; adding one is one line there. The caller
//! validates every plan (`plan::validate`) before it is shown or written.

mod best_fit_coalesce;
pub mod exact;
mod first_fit_scan;
mod greedy_breadth;
mod hill_climb;
mod interval_coloring;
pub mod litert;
pub mod milp;
mod naive;
mod offset_fit;
pub mod rng;
mod size_greedy;
mod step_index;
pub mod tflm;
mod xnnpack;

use crate::analysis::Problem;
use crate::plan::{Plan, Violation};

/// Settings shared by all planners.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Bound on the search planners' run time.
    pub time_limit_secs: f64,
    /// Decide whether everything fits in this many bytes instead of minimising (`exact`).
    pub capacity: Option<u64>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time_limit_secs: 10.0,
            capacity: None,
        }
    }
}

/// What a planner returns.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// One offset per buffer, in buffer id order.
    pub offsets: Vec<u64>,
    /// A lower bound the planner proved (≥ max-live), if any.
    pub proven_bound: Option<u64>,
}

impl Outcome {
    pub fn offsets(offsets: Vec<u64>) -> Self {
        Outcome {
            offsets,
            proven_bound: None,
        }
    }
}

/// Which problems a planner runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Any problem, including MiniMalloc CSV files.
    Any,
    /// Only problems built from a model under this convention (the runtime emulations).
    Runtime(crate::analysis::Lifetimes),
}

/// A registered planner.
pub struct PlannerInfo {
    pub id: &'static str,
    pub summary: &'static str,
    pub scope: Scope,
    /// Run only when named (`--planner all` leaves it out).
    pub on_request: bool,
    pub run: fn(&Problem, &Settings) -> Outcome,
}

use crate::analysis::Lifetimes::{Litert, Tflm, Xnnpack};

/// All planners, in the order `arenascope planners` lists them.
pub static REGISTRY: &[PlannerInfo] = &[
    PlannerInfo { id: "naive", summary: "no reuse: every buffer above the previous one, in id order (TFLM LinearMemoryPlanner)", scope: Scope::Any, on_request: false, run: naive::plan },
    PlannerInfo { id: "litert", summary: "LiteRT ArenaPlanner, faithfully: whole-run tensors first, then size descending in std::sort's order; best-fit gap, offsets aligned to 64", scope: Scope::Runtime(Litert), on_request: false, run: litert::plan },
    PlannerInfo { id: "tflm", summary: "TFLite Micro GreedyMemoryPlanner, faithfully: offline offsets first, then size descending (higher id first on ties), first fit", scope: Scope::Runtime(Tflm), on_request: false, run: tflm::plan },
    PlannerInfo { id: "first-fit-scan", summary: "execution-order scan: free blocks reused whole, lowest offset first, else extend the arena", scope: Scope::Any, on_request: false, run: first_fit_scan::plan },
    PlannerInfo { id: "best-fit-coalesce", summary: "online allocator: best-fit free block, split and coalesce, extend a free block at the top", scope: Scope::Any, on_request: false, run: best_fit_coalesce::plan },
    PlannerInfo { id: "size-first-fit", summary: "offline greedy by size: lowest aligned offset that fits among time-overlapping buffers", scope: Scope::Any, on_request: false, run: size_greedy::plan_first_fit },
    PlannerInfo { id: "size-best-fit", summary: "offline greedy by size: smallest fitting gap among time-overlapping buffers (GPU GREEDY_BY_SIZE)", scope: Scope::Any, on_request: false, run: size_greedy::plan_best_fit },
    PlannerInfo { id: "interval-coloring", summary: "shared objects in order of first use: smallest free object that fits, else grow the largest", scope: Scope::Any, on_request: false, run: interval_coloring::plan },
    PlannerInfo { id: "greedy-breadth", summary: "GPU GREEDY_BY_BREADTH: steps by decreasing live bytes, shared objects by size", scope: Scope::Any, on_request: false, run: greedy_breadth::plan },
    PlannerInfo { id: "hill-climb", summary: "local search from the best greedy order: moves the buffers at the peak earlier, re-places by first fit (fixed seed, bounded)", scope: Scope::Any, on_request: false, run: hill_climb::plan },
    PlannerInfo { id: "xnnpack", summary: "XNNPACK's workspace planner: size descending, equal sizes in id order (stable), smallest fitting gap among time-overlapping records, the leading gap included", scope: Scope::Runtime(Xnnpack), on_request: false, run: xnnpack::plan },
    PlannerInfo { id: "exact", summary: "branch and bound over canonical (dropped) placements: proves the optimum, or returns its best plan and proven bound at the time limit", scope: Scope::Any, on_request: true, run: exact::plan },
    PlannerInfo { id: "milp", summary: "the textbook MILP (integer offsets, big-M ordering binaries, minimise the peak) on microlp, up to 30 buffers: a cross-check of exact", scope: Scope::Any, on_request: true, run: milp::plan },
];

pub fn find(id: &str) -> Option<&'static PlannerInfo> {
    REGISTRY.iter().find(|p| p.id == id)
}

impl PlannerInfo {
    /// Whether this planner can run on `problem`.
    pub fn applies_to(&self, problem: &Problem) -> bool {
        match self.scope {
            Scope::Any => true,
            Scope::Runtime(l) => problem.lifetimes == Some(l),
        }
    }
}

/// The aligned offset at or above `offset`.
pub(crate) fn align_up(offset: u64, alignment: u64) -> u64 {
    crate::analysis::round_up(offset, alignment)
}

/// Offset above which non-fixed buffers may go without touching any fixed one, for planners
/// that do not pack around fixed offsets.
pub(crate) fn fixed_top(problem: &Problem) -> u64 {
    problem
        .buffers
        .iter()
        .filter_map(|b| b.fixed_offset.map(|o| o + b.size_bytes))
        .max()
        .unwrap_or(0)
}

/// The offsets of the smallest plan among the planners that run by default on any problem,
/// except those in `skip` (ties: the first in registry order). The search planners start
/// from it.
pub fn best_generic(p: &Problem, settings: &Settings, skip: &[&str]) -> Vec<u64> {
    REGISTRY
        .iter()
        .filter(|i| i.scope == Scope::Any && !i.on_request && !skip.contains(&i.id))
        .map(|i| (i.run)(p, settings).offsets)
        .min_by_key(|offsets| p.arena_bytes(offsets))
        .unwrap_or_else(|| vec![0; p.buffers.len()])
}

/// Runs a planner, times it and validates its plan; an invalid plan is an error, never shown.
pub fn run(info: &PlannerInfo, problem: &Problem, settings: &Settings) -> Result<Plan, Violation> {
    let t0 = std::time::Instant::now();
    let outcome = (info.run)(problem, settings);
    let seconds = t0.elapsed().as_secs_f64();
    Plan::validated(
        info.id,
        problem,
        outcome.offsets,
        outcome.proven_bound,
        seconds,
    )
}

impl std::fmt::Debug for PlannerInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}
