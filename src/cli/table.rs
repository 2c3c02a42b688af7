//! The plain-text table `plan` and `solve` print: one row per plan.

use std::fmt::Write as _;

use crate::analysis::Problem;
use crate::document::Verdict;
use crate::plan::{self, Plan};

/// With a `budget`, a last column says whether each plan fits and by how much it misses.
pub fn plan_table(problem: &Problem, plans: &[Plan], budget: Option<u64>) -> String {
    let mut s = format!(
        "{:<18} {:>12} {:>12} {:>10} {:>9} {:>9} {:>12} {:>9} {:>8}",
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
    if budget.is_some() {
        s += "  fits";
    }
    s.push('\n');
    for p in plans {
        let m = plan::metrics(problem, &p.offsets);
        let _ = write!(
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
        match budget.map(|b| Verdict::of(p.arena_bytes, b)) {
            Some(Verdict::Fits { .. }) => s += "  yes",
            Some(Verdict::Misses { short }) => {
                let _ = write!(s, "  no, {short} B over");
            }
            None => {}
        }
        s.push('\n');
    }
    s
}
