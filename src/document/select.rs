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

/// The planner that emulates the runtime of problems built on `lifetimes`: `litert` on LiteRT
/// problems (XNNPACK's TFLite arenas included: they are on LiteRT lifetimes), `tflm` on TFLM
/// ones, `xnnpack` on XNNPACK workspaces; `None` for a CSV problem.
fn runtime_planner(lifetimes: Option<Lifetimes>) -> Option<&'static str> {
    lifetimes.map(|l| l.name())
}

/// The plans drawn by default in comparisons (the GUI's Compare panel and `export --view
/// compare` alike): the runtime's emulation first, then the generic planners with the smallest
/// arenas (ties in plan order), four in all at most; `naive` only when nothing else makes two.
/// Empty only when `plans` is.
pub fn default_compare(plans: &[Plan], lifetimes: Option<Lifetimes>) -> Vec<usize> {
    let runtime = runtime_planner(lifetimes);
    let mut picked: Vec<usize> = plans
        .iter()
        .position(|p| Some(p.planner) == runtime)
        .into_iter()
        .collect();
    let mut rest: Vec<usize> = (0..plans.len()).filter(|i| !picked.contains(i)).collect();
    rest.sort_by_key(|&i| (plans[i].planner == "naive", plans[i].arena_bytes, i));
    for i in rest {
        if picked.len() == 4 || (picked.len() >= 2 && plans[i].planner == "naive") {
            break;
        }
        picked.push(i);
    }
    picked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plans with these planners and arenas (nothing else is read).
    fn plans(list: &[(&'static str, u64)]) -> Vec<Plan> {
        list.iter()
            .map(|&(planner, arena_bytes)| Plan {
                planner,
                offsets: Vec::new(),
                arena_bytes,
                lower_bound: 0,
                proven_bound: None,
                seconds: 0.0,
            })
            .collect()
    }

    /// The planner ids `default_compare` picks, in its order.
    fn picked(list: &[(&'static str, u64)], lifetimes: Option<Lifetimes>) -> Vec<&'static str> {
        let p = plans(list);
        default_compare(&p, lifetimes)
            .into_iter()
            .map(|i| p[i].planner)
            .collect()
    }

    #[test]
    fn litert_problems_compare_litert_with_the_three_smallest_generic_plans() {
        let list = [
            ("naive", 1000),
            ("litert", 300),
            ("first-fit-scan", 250),
            ("best-fit-coalesce", 260),
            ("size-best-fit", 240),
            ("hill-climb", 240),
        ];
        // Ties (240) in plan order; naive and the fourth generic (260) left out.
        assert_eq!(
            picked(&list, Some(Lifetimes::Litert)),
            ["litert", "size-best-fit", "hill-climb", "first-fit-scan"]
        );
    }

    #[test]
    fn tflm_problems_always_compare_tflm_even_when_every_generic_plan_is_smaller() {
        let list = [
            ("naive", 2000),
            ("tflm", 700),
            ("first-fit-scan", 600),
            ("best-fit-coalesce", 610),
            ("size-first-fit", 620),
            ("size-best-fit", 630),
            ("hill-climb", 640),
        ];
        assert_eq!(
            picked(&list, Some(Lifetimes::Tflm)),
            [
                "tflm",
                "first-fit-scan",
                "best-fit-coalesce",
                "size-first-fit"
            ]
        );
    }

    #[test]
    fn xnnpack_workspaces_compare_xnnpack_and_tflite_arenas_litert() {
        // A workspace (xnnpack lifetimes) and the delegated graph's TFLite arena (litert
        // lifetimes) of LiteRT with XNNPACK.
        let workspace = [
            ("naive", 900),
            ("first-fit-scan", 512),
            ("xnnpack", 640),
            ("size-best-fit", 512),
        ];
        assert_eq!(
            picked(&workspace, Some(Lifetimes::Xnnpack)),
            ["xnnpack", "first-fit-scan", "size-best-fit"]
        );
        let arena = [("naive", 300), ("litert", 192), ("size-best-fit", 128)];
        assert_eq!(
            picked(&arena, Some(Lifetimes::Litert)),
            ["litert", "size-best-fit"]
        );
    }

    #[test]
    fn a_csv_problem_compares_the_four_smallest_plans_but_naive() {
        let list = [
            ("naive", 50),
            ("first-fit-scan", 40),
            ("size-best-fit", 30),
            ("best-fit-coalesce", 30),
            ("hill-climb", 20),
            ("interval-coloring", 45),
        ];
        assert_eq!(
            picked(&list, None),
            [
                "hill-climb",
                "size-best-fit",
                "best-fit-coalesce",
                "first-fit-scan"
            ]
        );
    }

    #[test]
    fn naive_fills_in_only_when_nothing_else_makes_two() {
        assert_eq!(
            picked(&[("naive", 80), ("tflm", 64)], Some(Lifetimes::Tflm)),
            ["tflm", "naive"]
        );
        assert_eq!(picked(&[("naive", 80)], Some(Lifetimes::Tflm)), ["naive"]);
        assert!(picked(&[], Some(Lifetimes::Tflm)).is_empty());
        // The runtime's emulation missing (it failed, or was not run): generic plans only.
        assert_eq!(
            picked(
                &[("naive", 80), ("size-best-fit", 64)],
                Some(Lifetimes::Tflm)
            ),
            ["size-best-fit", "naive"]
        );
    }
}
