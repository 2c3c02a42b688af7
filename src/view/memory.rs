//! The memory curve: live bytes per step against each shown plan's arena. Plans with the same
//! arena share one line and one label; a plan far above the rest (naive is often 10× them) is
//! off scale: the axis fits the plans worth comparing and it is marked at the top edge with its
//! value.

use super::options::PAINT;
use crate::analysis::Problem;
use crate::plan::Plan;

/// Plans with the same arena.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaGroup {
    pub bytes: u64,
    pub planners: Vec<&'static str>,
    /// Above the byte axis: drawn as a mark at the top edge.
    pub off_scale: bool,
}

impl ArenaGroup {
    /// `a, b` or `a and 3 more`.
    pub fn who(&self) -> String {
        if self.planners.len() > 2 {
            format!("{} and {} more", self.planners[0], self.planners.len() - 1)
        } else {
            self.planners.join(", ")
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct MemoryView {
    pub live_bytes: Vec<u64>,
    pub lower_bound: u64,
    /// (planner, arena bytes), in the order given.
    pub arenas: Vec<(&'static str, u64)>,
    /// The arenas grouped, largest first.
    pub groups: Vec<ArenaGroup>,
    pub steps: u32,
    /// The top of the byte axis (head room included).
    pub axis_top: f64,
}

impl MemoryView {
    pub fn build(problem: &Problem, plans: &[&Plan]) -> Self {
        let live_bytes = problem.live_bytes_per_step();
        let lower_bound = live_bytes.iter().copied().max().unwrap_or(0);
        let arenas: Vec<(&'static str, u64)> =
            plans.iter().map(|p| (p.planner, p.arena_bytes)).collect();
        let limit = (lower_bound.max(1) as f64 * PAINT.off_scale_factor) as u64;
        let mut groups: Vec<ArenaGroup> = Vec::new();
        for &(name, bytes) in &arenas {
            match groups.iter_mut().find(|g| g.bytes == bytes) {
                Some(g) => g.planners.push(name),
                None => groups.push(ArenaGroup {
                    bytes,
                    planners: vec![name],
                    off_scale: bytes > limit,
                }),
            }
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.bytes));
        // Every plan off scale (all far above the bound): nothing is worth hiding.
        if groups.iter().all(|g| g.off_scale) {
            groups.iter_mut().for_each(|g| g.off_scale = false);
        }
        let top = groups
            .iter()
            .filter(|g| !g.off_scale)
            .map(|g| g.bytes)
            .max()
            .unwrap_or(0)
            .max(lower_bound)
            .max(1);
        MemoryView {
            live_bytes,
            lower_bound,
            arenas,
            groups,
            steps: problem.steps,
            axis_top: top as f64 * PAINT.byte_axis_headroom,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::csv::read_problem;
    use crate::planner::{self, Settings};

    #[test]
    fn a_plan_far_above_the_rest_is_marked_off_scale() {
        // Eight 100-byte buffers, two alive at a time: lower bound 200; naive stacks all 800.
        let mut csv = String::from("id,lower,upper,size\n");
        for i in 0..8 {
            csv += &format!("{i},{i},{},100\n", i + 2);
        }
        let (_, p) = read_problem(&csv).unwrap();
        let plans: Vec<Plan> = ["naive", "size-best-fit", "first-fit-scan"]
            .iter()
            .map(|id| planner::run(planner::find(id).unwrap(), &p, &Settings::default()).unwrap())
            .collect();
        let refs: Vec<&Plan> = plans.iter().collect();
        let v = MemoryView::build(&p, &refs);
        assert_eq!(v.lower_bound, 200);
        assert_eq!(v.groups[0].bytes, 800);
        assert!(v.groups[0].off_scale, "800 > 3 × 200");
        assert_eq!(
            v.groups[1].planners,
            vec!["size-best-fit", "first-fit-scan"]
        );
        assert_eq!(v.groups[1].bytes, 200);
        assert!(!v.groups[1].off_scale);
        // The axis fits the plans worth comparing: 200 B and 5 % head room.
        assert_eq!(v.axis_top, 210.0);
    }
}
