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

/// What the memory curve says at one step: the pointer's readout.
#[derive(Clone, Debug, PartialEq)]
pub struct Readout {
    pub step: u32,
    pub live_bytes: u64,
    /// (planner, arena bytes), as in [`MemoryView::arenas`].
    pub arenas: Vec<(&'static str, u64)>,
}

impl MemoryView {
    /// The readout at plot x `x` (in steps), if it is over a step.
    pub fn readout(&self, x: f64) -> Option<Readout> {
        // Left of step 0, or not a number.
        if x.is_nan() || x < 0.0 {
            return None;
        }
        let step = x.floor() as usize;
        let live_bytes = *self.live_bytes.get(step)?;
        Some(Readout {
            step: step as u32,
            live_bytes,
            arenas: self.arenas.clone(),
        })
    }
}

impl Readout {
    /// "step 12", "live 34.5 KiB (35328 B)", then one line per plan: "litert: arena
    /// 40.0 KiB (40960 B), 5.5 KiB above the live bytes".
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!("step {}", self.step),
            format!("live {}", super::format_bytes_exact(self.live_bytes)),
        ];
        for &(planner, bytes) in &self.arenas {
            out.push(format!(
                "{planner}: arena {}, {} above the live bytes",
                super::format_bytes_exact(bytes),
                super::format_bytes(bytes.saturating_sub(self.live_bytes))
            ));
        }
        out
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

    #[test]
    fn the_readout_gives_the_live_bytes_at_the_step_and_every_arena() {
        // Buffer i lives over [i, i + 2): one buffer alive at step 0, two at steps 1..=7,
        // one at step 8, none after.
        let mut csv = String::from("id,lower,upper,size\n");
        for i in 0..8 {
            csv += &format!("{i},{i},{},100\n", i + 2);
        }
        let (_, p) = read_problem(&csv).unwrap();
        let plans: Vec<Plan> = ["naive", "size-best-fit"]
            .iter()
            .map(|id| planner::run(planner::find(id).unwrap(), &p, &Settings::default()).unwrap())
            .collect();
        let refs: Vec<&Plan> = plans.iter().collect();
        let v = MemoryView::build(&p, &refs);
        let r = v.readout(3.7).unwrap();
        assert_eq!(r.step, 3);
        assert_eq!(r.live_bytes, 200);
        assert_eq!(r.arenas, vec![("naive", 800), ("size-best-fit", 200)]);
        assert_eq!(
            r.lines(),
            vec![
                "step 3",
                "live 200 B",
                "naive: arena 800 B, 600 B above the live bytes",
                "size-best-fit: arena 200 B, 0 B above the live bytes",
            ]
        );
        assert_eq!(v.readout(0.2).unwrap().live_bytes, 100);
        assert_eq!(v.readout(-0.5), None);
        assert_eq!(v.readout(v.live_bytes.len() as f64 + 0.5), None);
    }
}
