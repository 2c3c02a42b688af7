//! The memory curve: live bytes per step against each shown plan's arena.

use crate::analysis::Problem;
use crate::plan::Plan;

#[derive(Clone, Debug, PartialEq)]
pub struct MemoryView {
    pub live_bytes: Vec<u64>,
    pub lower_bound: u64,
    /// (planner, arena bytes), in the order given.
    pub arenas: Vec<(&'static str, u64)>,
    pub steps: u32,
}

impl MemoryView {
    pub fn build(problem: &Problem, plans: &[&Plan]) -> Self {
        let live_bytes = problem.live_bytes_per_step();
        MemoryView {
            lower_bound: live_bytes.iter().copied().max().unwrap_or(0),
            live_bytes,
            arenas: plans.iter().map(|p| (p.planner, p.arena_bytes)).collect(),
            steps: problem.steps,
        }
    }
}

impl MemoryView {
    /// The top of the byte axis: the largest arena or the lower bound (at least 1).
    pub fn top_bytes(&self) -> u64 {
        self.arenas
            .iter()
            .map(|a| a.1)
            .max()
            .unwrap_or(0)
            .max(self.lower_bound)
            .max(1)
    }
}
