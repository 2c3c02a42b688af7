//! The plan JSON document (DESIGN.md §3.2) as typed records built from the plans and the
//! facts computed at plan time: the same document `plan --format json` prints and File →
//! Export writes.

use serde::Serialize;

use super::headline::{Headline, HeadlineOptions};
use super::{registry_position, Document, OrderChoice};
use crate::analysis::catalogue::NotModelled;
use crate::analysis::tflm_tail::Target;
use crate::analysis::Lifetimes;
use crate::export::json::{plan_entry, ModelInfo, OrderBoundJson, PlanEntry, TflmArena};

/// The whole document.
#[derive(Clone, Debug, Serialize)]
pub struct PlanJson {
    pub format: &'static str,
    pub version: u32,
    pub model: ModelInfo,
    pub plans: Vec<PlanEntry>,
    /// The runtime's number for the file as opened (the GUI's headline).
    pub headline: Headline,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xnnpack: Option<XnnpackJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xnnpack_other: Option<XnnpackOtherJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order_search: Option<Vec<OrderSearchJson>>,
    /// With a budget: the headline's verdict.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<BudgetJson>,
    /// The model's nodes whose operator × type the runtime's catalogue has not verified
    /// (DESIGN.md §3.5): the headline is then approximate or a lower bound.
    pub not_modelled: Vec<NotModelled>,
    /// TFLM: its own planner's arena on each measured build (the Cortex-M heads with each
    /// build's kernels' scratch requests).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tflm_targets: Vec<TflmArena>,
}

#[derive(Clone, Debug, Serialize)]
pub struct XnnpackJson {
    pub tflite_arena: u64,
    pub workspace: u64,
    pub platform: &'static str,
    pub partitions: usize,
    pub not_modelled: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct XnnpackOtherJson {
    pub packed_weights: u64,
    pub indirection: u64,
    pub isa: &'static str,
    pub estimate: bool,
    pub not_estimated: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OrderSearchJson {
    pub subgraph: usize,
    pub arena_before: u64,
    pub arena_after: u64,
    pub order_changed: bool,
    pub order_search: &'static str,
    pub seconds: f64,
    pub order: Option<Vec<usize>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct BudgetJson {
    pub bytes: u64,
    #[serde(flatten)]
    pub verdict: super::BudgetVerdict,
    pub fits: serde_json::Value,
}

impl Document {
    /// The plan JSON of the plans on the problems `indices`: planners in registry order, then
    /// by problem; with a `budget`, every plan's `fits` and the headline's verdict.
    pub fn plan_json(
        &self,
        indices: &[usize],
        opts: HeadlineOptions,
        budget: Option<u64>,
    ) -> PlanJson {
        let headline = self.headline(opts);
        let not_modelled: Vec<NotModelled> = self
            .facts
            .runtime_file
            .as_ref()
            .map(|f| f.coverage().not_modelled.clone())
            .unwrap_or_default();
        let unsure = !matches!(headline.certainty, super::Certainty::Exact);
        let cannot_run = matches!(headline.certainty, super::Certainty::CannotRun { .. });
        let mut entries: Vec<(usize, usize, PlanEntry)> = Vec::new();
        for &i in indices {
            let Some(pl) = self.planned.get(i) else {
                continue;
            };
            let facts = self.facts.problems.get(i);
            let tflm = pl.problem.lifetimes == Some(Lifetimes::Tflm);
            let tails = self.facts.tflm_tails.as_ref().filter(|_| tflm);
            for (k, plan) in pl.plans.iter().enumerate() {
                let mut entry = plan_entry(&pl.problem, plan, self.request.order.name());
                entry.order_bound =
                    facts
                        .and_then(|f| f.order_bound.as_ref())
                        .map(|b| OrderBoundJson {
                            bytes: b.bytes,
                            operator: b.operator,
                            subgraph: b.subgraph,
                        });
                if let Some(t) = tails {
                    let mut arena = TflmArena::new(plan.arena_bytes, &t.host64, Target::Host64);
                    arena.head_when_written =
                        facts.and_then(|f| f.written_heads.get(k).copied().flatten());
                    entry.tflm_arena = Some(arena);
                    entry.tflm_arena_32bit = Some(TflmArena::new(
                        plan.arena_bytes,
                        &t.target32,
                        Target::CortexM,
                    ));
                }
                if let Some(b) = budget {
                    // This plan as the runtime would need it; unsure wherever the headline is;
                    // no plan fits a model the runtime cannot run.
                    let outside = facts.map_or(0, |f| f.outside_bytes);
                    let over = cannot_run || plan.arena_bytes + outside > b;
                    entry.fits = Some(if unsure && !over {
                        "unsure".into()
                    } else {
                        (!over).into()
                    });
                }
                entry.not_modelled = not_modelled
                    .iter()
                    .filter(|n| pl.problem.subgraph.is_none_or(|s| s == n.subgraph))
                    .cloned()
                    .collect();
                entries.push((registry_position(plan.planner), i, entry));
            }
        }
        entries.sort_by_key(|e| (e.0, e.1));
        let x = self.xnnpack_summary();
        PlanJson {
            format: "arenascope-plan",
            version: 1,
            model: self.model_info(),
            plans: entries.into_iter().map(|e| e.2).collect(),
            xnnpack: x.map(|x| XnnpackJson {
                tflite_arena: x.tflite_arena,
                workspace: x.workspace,
                platform: self.request.platform.name(),
                partitions: x.partitions,
                not_modelled: x.not_modelled.clone(),
            }),
            xnnpack_other: x.map(|x| XnnpackOtherJson {
                packed_weights: x.other.packed_weights,
                indirection: x.other.indirection,
                isa: x.other.isa(),
                estimate: true,
                not_estimated: x.other.not_estimated.clone(),
            }),
            order_search: (self.request.order == OrderChoice::Optimized).then(|| {
                self.order_reports
                    .iter()
                    .map(|r| OrderSearchJson {
                        subgraph: r.subgraph,
                        arena_before: r.arena_before,
                        arena_after: r.arena_after,
                        order_changed: r.changed,
                        order_search: if r.exact { "exact" } else { "heuristic" },
                        seconds: r.seconds,
                        order: self.orders.get(r.subgraph).cloned().flatten(),
                    })
                    .collect()
            }),
            budget: budget.map(|b| {
                let verdict = headline.verdict(b);
                BudgetJson {
                    bytes: b,
                    fits: verdict.fits_json(),
                    verdict,
                }
            }),
            headline,
            not_modelled,
            tflm_targets: match self.facts.runtime_file.as_ref() {
                Some(super::RuntimeFigure::Tflm { head, tails, .. }) => Target::ALL
                    .iter()
                    .map(|&t| TflmArena::new(tails.head(t).unwrap_or(*head), tails.get(t), t))
                    .collect(),
                _ => Vec::new(),
            },
        }
    }

    /// The plan JSON of every problem.
    pub fn plan_json_all(&self, opts: HeadlineOptions, budget: Option<u64>) -> PlanJson {
        let all: Vec<usize> = (0..self.planned.len()).collect();
        self.plan_json(&all, opts, budget)
    }
}
