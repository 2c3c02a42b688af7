//! The plan request: which lifetimes, order, alignment and planners; and planning a document
//! with it — the order search, every planner on every problem (each plan validated), then the
//! facts every face reports, computed once.

use std::path::Path;

use super::{facts, optimize_orders, Document, DocumentError, Planned, Source};
use crate::analysis::{self, Lifetimes, Problem};
use crate::model::Model;
use crate::plan::Plan;
use crate::planner::{self, PlannerInfo, Scope, Settings};

/// What to plan: the lifetime convention, the generic planners' alignment, which planners.
#[derive(Clone, Debug)]
pub struct PlanRequest {
    pub lifetimes: Lifetimes,
    /// The operators in the file's order, or in the order that lowers the runtime's arena.
    pub order: OrderChoice,
    /// Offset alignment of the generic planners (`None`: the convention's default; a CSV
    /// problem keeps its own).
    pub align: Option<u64>,
    pub planners: Vec<&'static PlannerInfo>,
    pub settings: Settings,
    /// The CPU class XNNPACK's workspace is rounded for (xnnpack lifetimes).
    pub platform: analysis::xnnpack::Platform,
    /// The CPU class packed weights and indirection buffers are estimated for (`None`: the
    /// platform's usual one).
    pub isa: Option<analysis::xnnpack::Isa>,
}

impl PlanRequest {
    /// The CPU class the XNNPACK estimate is for: the one asked for, else the platform's.
    pub fn estimate_isa(&self) -> analysis::xnnpack::Isa {
        self.isa
            .unwrap_or(analysis::xnnpack::Isa::for_platform(self.platform))
    }

    /// Every planner that runs by default on this source under `lifetimes`.
    pub fn defaults(source: &Source, lifetimes: Lifetimes, align: Option<u64>) -> Self {
        PlanRequest {
            lifetimes,
            order: OrderChoice::File,
            align,
            planners: super::default_planners(if source.is_csv() {
                None
            } else {
                Some(lifetimes)
            }),
            settings: Settings::default(),
            platform: Default::default(),
            isa: None,
        }
    }
}

/// Which execution order the problems are built on (DESIGN.md §3.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OrderChoice {
    /// The operators as the file lists them.
    #[default]
    File,
    /// Per subgraph, the order the search finds when it lowers the runtime's arena
    /// (`litert`: that subgraph's plan; `tflm`: TFLM's head), else the file's.
    Optimized,
}

impl OrderChoice {
    pub fn name(self) -> &'static str {
        match self {
            OrderChoice::File => "file",
            OrderChoice::Optimized => "optimized",
        }
    }
}

impl Document {
    /// Derives the problems and runs `request`'s planners on them; every plan is validated.
    /// The generic planners solve the convention's problems at the requested alignment; a
    /// runtime emulation solves its own runtime's problems (named for another convention, it
    /// adds those problems); on a CSV problem every planner places the buffers as given. Then
    /// the facts are computed. On an error the document is left as it was.
    pub fn plan(&mut self, request: PlanRequest) -> Result<(), DocumentError> {
        let path = self.display_path();
        let analysis_err = |source| DocumentError::Analysis {
            path: path.clone(),
            source,
        };
        let mut reordered = None;
        let mut orders = Vec::new();
        let mut order_reports = Vec::new();
        if let (Source::Model(model), OrderChoice::Optimized) = (&*self.source, request.order) {
            let (found, reports) = optimize_orders(
                model,
                request.lifetimes,
                request.settings.time_limit_secs,
                false,
            )
            .map_err(analysis_err)?;
            if found.iter().any(Option::is_some) {
                reordered = Some(std::sync::Arc::new(analysis::order::reordered(
                    model, &found,
                )));
            }
            orders = found;
            order_reports = reports;
        }
        let mut file_planned = Vec::new();
        let planned = match &*self.source {
            Source::Model(file_model) => {
                let model = reordered.as_deref().unwrap_or(file_model);
                let planned = plan_model(model, &request, &path)?;
                if reordered.is_some() {
                    file_planned = plan_model(file_model, &request, &path)?;
                }
                planned
            }
            Source::Csv { problem, .. } => {
                let problem = match request.align {
                    Some(a) => (**problem).clone().with_alignment(a),
                    None => (**problem).clone(),
                };
                let plans = request
                    .planners
                    .iter()
                    .map(|p| run(p, &problem, &request.settings, &path))
                    .collect::<Result<_, _>>()?;
                vec![Planned {
                    problem,
                    plans,
                    runtime_arena: None,
                }]
            }
        };
        let models = match &*self.source {
            Source::Model(m) => Some((&**m, reordered.as_deref().unwrap_or(m))),
            Source::Csv { .. } => None,
        };
        self.facts = facts::facts(
            models,
            &planned,
            &file_planned,
            request.lifetimes,
            (request.estimate_isa(), request.platform),
        );
        self.planned = planned;
        self.file_planned = file_planned;
        self.reordered = reordered;
        self.orders = orders;
        self.order_reports = order_reports;
        self.request = request;
        Ok(())
    }

    /// The CPU class XNNPACK's packed weights and indirection buffers are estimated for: only
    /// the estimate depends on it, so nothing is planned again.
    pub fn set_isa(&mut self, isa: analysis::xnnpack::Isa) {
        self.request.isa = Some(isa);
        let isa = self.request.estimate_isa();
        if let (Some(model), Some(x)) = (self.model(), &self.facts.xnnpack) {
            let mut x = x.clone();
            let delegation = analysis::xnnpack::delegate(model);
            x.other = analysis::xnnpack::other_estimate(model, &delegation, isa);
            self.facts.xnnpack = Some(x);
        }
    }

    /// Adds (or replaces) a planner's plan on problem `index`; its facts are made again.
    pub fn add_plan(&mut self, index: usize, plan: Plan) {
        let Some(pl) = self.planned.get_mut(index) else {
            return;
        };
        pl.plans.retain(|p| p.planner != plan.planner);
        pl.plans.push(plan);
        let facts = facts::problem_facts(
            self.model(),
            &self.planned[index],
            self.facts.tflm_tails.as_ref(),
        );
        if let Some(f) = self.facts.problems.get_mut(index) {
            *f = facts;
        }
    }
}

/// The problems of `model` and the plans of `request`'s planners on them (see
/// [`Document::plan`]).
fn plan_model(
    model: &Model,
    request: &PlanRequest,
    path: &Path,
) -> Result<Vec<Planned>, DocumentError> {
    let analysis_err = |source| DocumentError::Analysis {
        path: path.to_path_buf(),
        source,
    };
    let mut planned = Vec::new();
    let align = request
        .align
        .unwrap_or(request.lifetimes.default_alignment());
    for problem in
        analysis::problems_on(model, request.lifetimes, request.platform).map_err(analysis_err)?
    {
        let generic = problem.clone().with_alignment(align);
        let mut plans = Vec::new();
        for p in &request.planners {
            match p.scope {
                Scope::Any => plans.push(run(p, &generic, &request.settings, path)?),
                // Each emulation on the problems of its runtime (with XNNPACK: LiteRT's on the
                // delegated graph, XNNPACK's on the workspaces).
                Scope::Runtime(l) if Some(l) == problem.lifetimes => {
                    plans.push(run(p, &problem, &request.settings, path)?)
                }
                Scope::Runtime(_) => {}
            }
        }
        // The runtime's own plan of this problem, for the headline, whatever was asked.
        let runtime_arena = match problem.lifetimes.and_then(|l| planner::find(l.name())) {
            Some(own) => match plans.iter().find(|p| p.planner == own.id) {
                Some(plan) => Some(plan.arena_bytes),
                None => Some(run(own, &problem, &Settings::default(), path)?.arena_bytes),
            },
            None => None,
        };
        planned.push(Planned {
            problem: generic,
            plans,
            runtime_arena,
        });
    }
    for p in &request.planners {
        let Scope::Runtime(l) = p.scope else { continue };
        let own = l == request.lifetimes
            || (l == Lifetimes::Litert && request.lifetimes == Lifetimes::Xnnpack);
        if own {
            continue;
        }
        for problem in analysis::problems(model, l).map_err(analysis_err)? {
            let plans = vec![run(p, &problem, &request.settings, path)?];
            let runtime_arena = Some(plans[0].arena_bytes);
            planned.push(Planned {
                problem,
                plans,
                runtime_arena,
            });
        }
    }
    Ok(planned)
}

/// Runs one planner; an invalid plan is an error naming the planner.
fn run(
    info: &'static PlannerInfo,
    problem: &Problem,
    settings: &Settings,
    path: &Path,
) -> Result<Plan, DocumentError> {
    planner::run(info, problem, settings).map_err(|violation| DocumentError::InvalidPlan {
        path: path.into(),
        planner: info.id,
        violation,
    })
}
