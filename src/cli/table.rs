//! The plain-text table `plan` and `solve` print: one row per plan.

use std::fmt::Write as _;

use crate::analysis::Problem;
use crate::plan::{self, Plan};

pub fn plan_table(problem: &Problem, plans: &[Plan]) -> String {
    let mut s = format!(
        "{:<18} {:>12} {:>12} {:>10} {:>9} {:>9} {:>12} {:>9} {:>8}\n",
        "planner",
        "arena",
        "lower bound",
        "overhead",
        "overhead%",
        "padding",
        "largest hole",
        "ms",
        "optimal"
    );
    for p in plans {
        let m = plan::metrics(problem, &p.offsets);
        let _ = writeln!(
            s,
            "{:<18} {:>12} {:>12} {:>10} {:>8.2}% {:>9} {:>12} {:>9.3} {:>8}",
            p.planner,
            m.arena_bytes,
            m.lower_bound,
            m.overhead_bytes,
            m.overhead_pct,
            m.padding_bytes,
            m.largest_hole.map(|h| h.bytes()).unwrap_or(0),
            p.seconds * 1e3,
            if p.optimal() { "yes" } else { "" }
        );
    }
    s
}
