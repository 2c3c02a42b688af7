//! The plain-text table `plan` and `solve` print: one row per plan.

use std::fmt::Write as _;

use crate::analysis::Problem;
use crate::document::{Budget, Verdict};
use crate::plan::{self, Plan};

/// With a `budget`, a last column says whether each plan fits (its arena plus what the runtime
/// needs beside it) and by how much it misses.
pub fn plan_table(problem: &Problem, plans: &[Plan], budget: Option<Budget>) -> String {
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
        match budget.map(|b| b.verdict(p.arena_bytes)) {
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

/// What TFLM's `tensor_arena_size` must be for each plan: head + tail, and the tail's parts.
pub fn tflm_arena_lines(plans: &[Plan], tail: &crate::analysis::tflm_tail::Tail) -> String {
    let mut s = format!(
        "TFLM needs head + tail = tensor_arena_size (x86-64 host build; tail {} bytes):\n",
        tail.bytes
    );
    for p in plans {
        let _ = writeln!(
            s,
            "  {:<18} {:>10} + {} = {}",
            p.planner,
            p.arena_bytes,
            tail.bytes,
            p.arena_bytes + tail.bytes
        );
    }
    let parts: Vec<String> = tail
        .categories
        .iter()
        .map(|c| format!("{} {} ({}×)", c.name, c.bytes, c.count))
        .collect();
    let itemised: u64 = tail.categories.iter().map(|c| c.bytes).sum();
    let _ = writeln!(
        s,
        "  tail: {}; allocator, options and handles {}",
        parts.join(", "),
        tail.bytes - itemised
    );
    if !tail.not_modelled.is_empty() {
        let _ = writeln!(
            s,
            "  not modelled (the tail is a lower bound): {}",
            tail.not_modelled.join(", ")
        );
    }
    s
}
