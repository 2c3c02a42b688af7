//! Which planners run: `--planner` values resolved against the registry, the default set, and
//! the plans a comparison shows by default.

use crate::analysis::Lifetimes;
use crate::plan::Plan;
use crate::planner::{self, PlannerInfo, Scope};

/// A `--planner` value that names no planner.
#[derive(Debug, thiserror::Error)]
#[error("unknown planner {id:?}; the planners are: all, {known}")]
pub struct SelectError {
    pub id: String,
    pub known: String,
}

/// Position in the registry (the order `arenascope planners` lists, and JSON's plan order).
pub fn registry_position(id: &str) -> usize {
    planner::REGISTRY
        .iter()
        .position(|p| p.id == id)
        .unwrap_or(usize::MAX)
}

/// The planners run by default: every heuristic, and the emulation of the runtime whose
/// lifetimes are used (`lifetimes`; `None` for a CSV problem: no emulation; xnnpack: XNNPACK's
/// planner and LiteRT's, which plans the delegated graph).
pub fn default_planners(lifetimes: Option<Lifetimes>) -> Vec<&'static PlannerInfo> {
    planner::REGISTRY
        .iter()
        .filter(|p| {
            !p.on_request
                && match p.scope {
                    Scope::Any => true,
                    // With XNNPACK, LiteRT's ArenaPlanner still plans the delegated graph.
                    Scope::Runtime(l) => {
                        Some(l) == lifetimes
                            || (l == Lifetimes::Litert && lifetimes == Some(Lifetimes::Xnnpack))
                    }
                }
        })
        .collect()
}

/// Resolves `--planner` values: none or `all` gives [`default_planners`], plus any named
/// beside it; a runtime emulation named explicitly always runs (on its own runtime's problem,
/// or on a CSV problem's buffers as given). Registry order, no duplicates.
pub fn select_planners(
    ids: &[String],
    lifetimes: Option<Lifetimes>,
) -> Result<Vec<&'static PlannerInfo>, SelectError> {
    let mut out: Vec<&'static PlannerInfo> = if ids.is_empty() || ids.iter().any(|i| i == "all") {
        default_planners(lifetimes)
    } else {
        Vec::new()
    };
    for id in ids.iter().filter(|i| *i != "all") {
        let p = planner::find(id).ok_or_else(|| SelectError {
            id: id.clone(),
            known: planner::REGISTRY
                .iter()
                .map(|p| p.id)
                .collect::<Vec<_>>()
                .join(", "),
        })?;
        if !out.iter().any(|q| q.id == p.id) {
            out.push(p);
        }
    }
    out.sort_by_key(|p| registry_position(p.id));
    Ok(out)
}

/// The plans drawn by default in comparisons: the runtime's emulation, then the generic
/// planners with the smallest arenas (up to four in all; `naive` never).
pub fn default_compare(plans: &[Plan], lifetimes: Option<Lifetimes>) -> Vec<usize> {
    let runtime = lifetimes.map(|l| l.name());
    let mut picked: Vec<usize> = plans
        .iter()
        .position(|p| Some(p.planner) == runtime)
        .into_iter()
        .collect();
    let mut rest: Vec<usize> = (0..plans.len())
        .filter(|i| !picked.contains(i) && plans[*i].planner != "naive")
        .collect();
    rest.sort_by_key(|&i| (plans[i].arena_bytes, i));
    picked.extend(rest.into_iter().take(4 - picked.len().min(4)));
    picked.truncate(4);
    picked
}
