//! The order search per subgraph (DESIGN.md §3.4): the order that lowers the runtime's own
//! arena, searched exactly where the graph allows and by widening beams otherwise, on a budget
//! of search steps (the same result on every machine).

use super::optimize;
use crate::analysis::{self, AnalysisError, Lifetimes};
use crate::model::Model;
use crate::planner::{self, Settings};

/// What the order search did for one subgraph.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderReport {
    pub subgraph: usize,
    /// The runtime's arena on the file's order, and on the order kept (with an offline plan
    /// where the search counted one).
    pub arena_before: u64,
    pub arena_after: u64,
    /// Whether the kept order differs from the file's.
    pub changed: bool,
    /// Whether the search proved its order has the least peak of live bytes.
    pub exact: bool,
    /// Search steps taken (the budget's unit: the same on every machine).
    pub steps: u64,
    pub seconds: f64,
}

/// Order-search steps budgeted per second of `time_limit_secs`: about what a release build
/// does in a second on the 2-core machine of the README's tables (NASNet-Mobile).
pub const ORDER_STEPS_PER_SEC: f64 = 2.5e6;

/// The arena the runtime of `lifetimes` gives `problem` (its own emulation's plan, validated),
/// or why the plan is invalid.
pub fn emulation_arena(problem: &analysis::Problem, lifetimes: Lifetimes) -> Result<u64, String> {
    let id = lifetimes.name();
    let info = planner::find(id).ok_or_else(|| format!("no {id} planner is registered"))?;
    planner::run(info, problem, &Settings::default())
        .map(|p| p.arena_bytes)
        .map_err(|v| format!("the {id} plan is invalid ({v})"))
}

/// Each subgraph's operator order (`None`: the file's).
pub type Orders = Vec<Option<Vec<usize>>>;

/// Per subgraph, the order that lowers the runtime's real arena (`litert`: the subgraph's
/// `litert` plan; `tflm`: TFLM's head over all subgraphs), else `None` (the file's), searched
/// for about `time_limit_secs` per subgraph at most. With `offline_plan` (TFLM), an order
/// counts at the smaller of TFLM's own head and the head of the best generic plan written into
/// the model as its offline plan.
pub fn optimize_orders(
    model: &Model,
    lifetimes: Lifetimes,
    time_limit_secs: f64,
    offline_plan: bool,
) -> Result<(Orders, Vec<OrderReport>), AnalysisError> {
    // The runtime's own arena, and the objective (the same, or with an offline plan).
    let runtime_arena = |m: &Model, si: usize| -> Result<(u64, u64), AnalysisError> {
        let problem = match lifetimes {
            Lifetimes::Litert => analysis::litert::problem(m, si)?,
            Lifetimes::Tflm => analysis::tflm::problem(m)?,
            Lifetimes::Xnnpack => return Err(AnalysisError::NoXnnpackOrders),
        };
        // An order whose plan does not validate is never kept.
        let own = emulation_arena(&problem, lifetimes).unwrap_or(u64::MAX);
        Ok(match lifetimes {
            Lifetimes::Tflm if offline_plan => (
                own,
                optimize::best_offline_plan(m, &problem, None).map_or(own, |p| p.head.min(own)),
            ),
            _ => (own, own),
        })
    };
    let mut orders: Orders = vec![None; model.subgraphs.len()];
    let mut reports = Vec::new();
    for si in 0..model.subgraphs.len() {
        let t0 = std::time::Instant::now();
        let current = analysis::order::reordered(model, &orders);
        // The temporaries and scratch of each operator, under this convention.
        let problem = match lifetimes {
            Lifetimes::Litert => analysis::litert::problem(&current, si)?,
            Lifetimes::Tflm => analysis::tflm::problem(&current)?,
            Lifetimes::Xnnpack => return Err(AnalysisError::NoXnnpackOrders),
        };
        let mut temps = vec![0u64; model.subgraphs[si].operators.len()];
        for &(s, node, b) in &problem.op_scratch {
            if s == si {
                temps[node] += problem.buffers[b].size_bytes;
            }
        }
        let (before, mut after) = runtime_arena(&current, si)?;
        let mut exact;
        // First the exact search (it gives up early on graphs with many branches); then, anytime,
        // beams widened fourfold while the next round, about four times the work, still fits in
        // the budget, keeping the order whose real arena is the smallest. The budget counts search
        // steps, not seconds, so the result is the same on every machine.
        let budget = (time_limit_secs.max(0.0) * ORDER_STEPS_PER_SEC) as u64;
        let mut used = 0u64;
        let mut beam = analysis::order::BEAM_WIDTH;
        let mut mode = analysis::order::Mode::Exact;
        loop {
            let found = match analysis::order::search_with(model, si, lifetimes, &temps, mode) {
                Ok(found) => found,
                Err(steps) => {
                    used += steps;
                    mode = analysis::order::Mode::Beam { width: beam };
                    continue;
                }
            };
            exact = found.exact;
            used += found.steps;
            let changed = found.order.iter().enumerate().any(|(k, &o)| k != o);
            if changed && analysis::order::is_valid_order(model, si, &found.order) {
                let mut trial = orders.clone();
                trial[si] = Some(found.order.clone());
                let (_, arena) = runtime_arena(&analysis::order::reordered(model, &trial), si)?;
                if arena < after {
                    orders = trial;
                    after = arena;
                }
            }
            // A beam that kept every set cannot do better wider.
            if found.exact || !found.truncated || used + 4 * found.steps > budget {
                break;
            }
            beam *= 4;
            mode = analysis::order::Mode::Beam { width: beam };
        }
        reports.push(OrderReport {
            subgraph: si,
            arena_before: before,
            arena_after: after,
            changed: orders[si].is_some(),
            exact,
            steps: used,
            seconds: t0.elapsed().as_secs_f64(),
        });
    }
    Ok((orders, reports))
}
