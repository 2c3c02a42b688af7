//! What every face reports about a plan request, computed once when the document is planned
//! (not on demand, not per frame): TFLM's tails on each build, per problem the bound no order
//! beats, the bytes the runtime needs beside the plan and TFLM's head were each plan written
//! as the model's offline plan, LiteRT with XNNPACK as a whole, and the runtime's own figure
//! for the file as opened and for the order planned.

use super::Planned;
use crate::analysis::catalogue::{self, NotModelled, Runtime};
use crate::analysis::order_bound::OrderBound;
use crate::analysis::tflm_tail::{Tail, Target};
use crate::analysis::xnnpack::{Isa, OtherEstimate, Platform};
use crate::analysis::{self, Lifetimes, XnnpackPart};
use crate::model::Model;
use crate::planner;

/// TFLM's tail on each build it is computed for.
#[derive(Clone, Debug, PartialEq)]
pub struct TflmTails {
    /// The x86-64 host build of the `tflite-micro` package (measured).
    pub host64: Tail,
    /// A 32-bit Cortex-M with the reference kernels (`Target::CortexM`, measured).
    pub target32: Tail,
    /// The Cortex-M builds with CMSIS-NN (DSP, then MVE), measured.
    pub cmsis_nn: Tail,
    pub cmsis_nn_m55: Tail,
    /// Per Cortex-M build (reference, CMSIS-NN DSP, MVE): TFLM's head with that build's
    /// kernels' scratch requests (`tflm::problem_for`), when the problem builds.
    pub heads: [Option<u64>; 3],
}

impl TflmTails {
    /// The tails of every build (the heads are left out: see [`TflmTails::with_heads`]).
    pub fn of(model: &Model) -> Self {
        let tail = |t: Target| {
            let scratch = analysis::tflm::scratch_request_count_for(model, t);
            analysis::tflm_tail::tail_for(model, scratch, t)
        };
        TflmTails {
            host64: tail(Target::Host64),
            target32: tail(Target::CortexM),
            cmsis_nn: tail(Target::CortexMCmsisNn),
            cmsis_nn_m55: tail(Target::CortexM55CmsisNn),
            heads: [None; 3],
        }
    }

    /// The tails and the Cortex-M heads: TFLM's planner run once per build on that build's
    /// problem, so only for a document planned under TFLM.
    pub fn with_heads(model: &Model) -> Self {
        let head = |t: Target| -> Option<u64> {
            let problem = analysis::tflm::problem_for(model, t).ok()?;
            let info = planner::find("tflm")?;
            planner::run(info, &problem, &planner::Settings::default())
                .ok()
                .map(|p| p.arena_bytes)
        };
        TflmTails {
            heads: [
                head(Target::CortexM),
                head(Target::CortexMCmsisNn),
                head(Target::CortexM55CmsisNn),
            ],
            ..TflmTails::of(model)
        }
    }

    pub fn get(&self, target: Target) -> &Tail {
        match target {
            Target::Host64 => &self.host64,
            Target::CortexM => &self.target32,
            Target::CortexMCmsisNn => &self.cmsis_nn,
            Target::CortexM55CmsisNn => &self.cmsis_nn_m55,
        }
    }

    /// The head on a Cortex-M build (`None` for the host build: its head is the planned
    /// problem's).
    pub fn head(&self, target: Target) -> Option<u64> {
        match target {
            Target::Host64 => None,
            Target::CortexM => self.heads[0],
            Target::CortexMCmsisNn => self.heads[1],
            Target::CortexM55CmsisNn => self.heads[2],
        }
    }
}

/// What LiteRT with XNNPACK needs, planned (not counting packed weights and indirection
/// buffers, which depend on the CPU).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct XnnpackSummary {
    /// The delegated graph's TFLite arenas (LiteRT's ArenaPlanner), summed over subgraphs.
    pub tflite_arena: u64,
    /// XNNPACK's one workspace block: its largest partition plan (the block allocated is 32
    /// bytes more).
    pub workspace: u64,
    pub partitions: usize,
    /// LiteRT's persistent arena (variables, persistent tensors) of the delegated graph.
    pub persistent: u64,
    /// Nodes no rule covers: kept out of the partitions, so the numbers are then approximate.
    pub not_modelled: Vec<String>,
    /// Packed weights and indirection buffers, estimated for one CPU class.
    pub other: OtherEstimate,
    /// The CPU class the workspace is rounded for.
    pub platform: Platform,
}

impl XnnpackSummary {
    /// The planned memory: TFLite arena + XNNPACK workspace + persistent arena.
    pub fn planned(&self) -> u64 {
        self.tflite_arena + self.workspace + self.persistent
    }

    /// The whole picture: the planned memory and the estimated packed weights and
    /// indirection buffers.
    pub fn with_other(&self) -> u64 {
        self.planned()
            .saturating_add(self.other.packed_weights)
            .saturating_add(self.other.indirection)
    }

    /// LiteRT with XNNPACK as a whole for `model` planned as `planned`: the TFLite arenas
    /// summed over subgraphs (their `litert` plans) and the one workspace (the largest
    /// `xnnpack` plan: the partitions run one after another in the same block).
    pub fn of(model: &Model, planned: &[Planned], isa: Isa, platform: Platform) -> Self {
        let delegation = analysis::xnnpack::delegate(model);
        let mut s = XnnpackSummary {
            platform,
            other: analysis::xnnpack::other_estimate(model, &delegation, isa),
            not_modelled: delegation.not_modelled,
            ..Default::default()
        };
        for pl in planned {
            match pl.problem.xnnpack {
                Some(XnnpackPart::TfliteArena) => {
                    s.tflite_arena += own_arena(pl, "litert");
                    s.persistent += pl.problem.persistent_bytes();
                }
                Some(XnnpackPart::Workspace { .. }) => {
                    s.partitions += 1;
                    s.workspace = s.workspace.max(own_arena(pl, "xnnpack"));
                }
                None => {}
            }
        }
        s
    }
}

/// One LiteRT subgraph's arenas: the RW arena (LiteRT's own planner) and the persistent one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubgraphArena {
    pub subgraph: usize,
    pub arena: u64,
    pub persistent: u64,
}

/// What the catalogue says of a model for one runtime: the nodes it has not verified, and why
/// the runtime cannot run the model at all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    pub not_modelled: Vec<NotModelled>,
    pub cannot_run: Vec<String>,
}

impl Coverage {
    pub fn of(model: &Model, runtime: Runtime) -> Self {
        Coverage {
            not_modelled: catalogue::not_modelled(model, runtime),
            cannot_run: catalogue::cannot_run(model, runtime),
        }
    }
}

/// The runtime's own figure for one order of the model: what it allocates with its own
/// planner, before any choice the user made in the tool.
#[derive(Clone, Debug, PartialEq)]
pub enum RuntimeFigure {
    /// LiteRT without a delegate: one RW arena and one persistent arena per subgraph.
    Litert {
        subgraphs: Vec<SubgraphArena>,
        coverage: Coverage,
    },
    /// TFLM: its own planner's head (an offline plan in the model included) and the tails.
    Tflm {
        head: u64,
        tails: Box<TflmTails>,
        /// The model carries an `OfflineMemoryAllocation` plan that TFLM uses.
        offline_plan: bool,
        coverage: Coverage,
    },
    /// LiteRT with XNNPACK: the planned whole.
    Xnnpack(Box<XnnpackSummary>, Coverage),
}

impl RuntimeFigure {
    /// What the catalogue says of the model for this runtime.
    pub fn coverage(&self) -> &Coverage {
        match self {
            RuntimeFigure::Litert { coverage, .. }
            | RuntimeFigure::Tflm { coverage, .. }
            | RuntimeFigure::Xnnpack(_, coverage) => coverage,
        }
    }
}

/// The facts of one problem of the document.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProblemFacts {
    /// The bound no execution order beats (problems built from a model's order).
    pub order_bound: Option<OrderBound>,
    /// What the runtime needs beside the planned arena: TFLM's tail (host build) on tflm
    /// lifetimes, LiteRT's persistent arena on litert, nothing for a CSV problem.
    pub outside_bytes: u64,
    /// Per plan (in plan order): TFLM's head with that plan written into the model as its
    /// offline plan (tensors pinned, scratch placed by TFLM), when the result is valid.
    pub written_heads: Vec<Option<u64>>,
}

/// Everything computed once per plan request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// TFLM's tails of the model as planned (`None` for a CSV problem).
    pub tflm_tails: Option<TflmTails>,
    /// Per problem of [`super::Document::planned`], in the same order.
    pub problems: Vec<ProblemFacts>,
    /// LiteRT with XNNPACK as a whole (xnnpack lifetimes).
    pub xnnpack: Option<XnnpackSummary>,
    /// The runtime's figure for the file as opened (its operators in the file's order).
    pub runtime_file: Option<RuntimeFigure>,
    /// The runtime's figure on the order planned, when that differs from the file's.
    pub runtime_reordered: Option<RuntimeFigure>,
}

/// The arena of `pl`'s plan by its own runtime's planner (made at plan time when the request
/// did not run it).
fn own_arena(pl: &Planned, id: &str) -> u64 {
    pl.plans
        .iter()
        .find(|p| p.planner == id)
        .map(|p| p.arena_bytes)
        .or(pl.runtime_arena)
        .unwrap_or(0)
}

/// The runtime's own figure for `model` planned as `planned` under `lifetimes`.
pub fn runtime_figure(
    model: &Model,
    planned: &[Planned],
    lifetimes: Lifetimes,
    (isa, platform): (Isa, Platform),
) -> RuntimeFigure {
    match lifetimes {
        Lifetimes::Litert => RuntimeFigure::Litert {
            coverage: Coverage::of(model, Runtime::Litert),
            subgraphs: planned
                .iter()
                .filter(|pl| pl.problem.lifetimes == Some(Lifetimes::Litert))
                .filter(|pl| pl.problem.xnnpack.is_none())
                .map(|pl| SubgraphArena {
                    subgraph: pl.problem.subgraph.unwrap_or(0),
                    arena: own_arena(pl, "litert"),
                    persistent: pl.problem.persistent_bytes(),
                })
                .collect(),
        },
        Lifetimes::Tflm => {
            let pl = planned
                .iter()
                .find(|pl| pl.problem.lifetimes == Some(Lifetimes::Tflm));
            RuntimeFigure::Tflm {
                head: pl.map_or(0, |pl| own_arena(pl, "tflm")),
                tails: Box::new(TflmTails::with_heads(model)),
                offline_plan: pl
                    .is_some_and(|pl| pl.problem.buffers.iter().any(|b| b.fixed_offset.is_some())),
                coverage: Coverage::of(model, Runtime::Tflm),
            }
        }
        Lifetimes::Xnnpack => RuntimeFigure::Xnnpack(
            Box::new(XnnpackSummary::of(model, planned, isa, platform)),
            Coverage::of(model, Runtime::Xnnpack),
        ),
    }
}

/// The facts of one problem.
pub fn problem_facts(
    model: Option<&Model>,
    pl: &Planned,
    tails: Option<&TflmTails>,
) -> ProblemFacts {
    let problem = &pl.problem;
    let tflm = problem.lifetimes == Some(Lifetimes::Tflm);
    let outside_bytes = match problem.lifetimes {
        Some(Lifetimes::Tflm) => tails.map_or(0, |t| t.host64.bytes),
        Some(Lifetimes::Litert) => problem.persistent_bytes(),
        Some(Lifetimes::Xnnpack) | None => 0,
    };
    let written_heads = pl
        .plans
        .iter()
        .map(|plan| {
            if !tflm {
                return None;
            }
            // Written into the model as an offline plan, TFLM re-places the scratch.
            let written = planner::tflm::with_pinned(problem, &plan.offsets);
            crate::plan::validate(problem, &written.offsets, None)
                .ok()
                .map(|_| problem.arena_bytes(&written.offsets))
        })
        .collect();
    ProblemFacts {
        order_bound: model.and_then(|m| analysis::order_bound::order_bound(m, problem)),
        outside_bytes,
        written_heads,
    }
}

/// The facts of a planned document: `file_model` as opened, `model` as planned (the same
/// unless reordered), and their problems.
pub fn facts(
    models: Option<(&Model, &Model)>,
    planned: &[Planned],
    file_planned: &[Planned],
    lifetimes: Lifetimes,
    (isa, platform): (Isa, Platform),
) -> Facts {
    let Some((file_model, model)) = models else {
        return Facts {
            problems: planned
                .iter()
                .map(|pl| problem_facts(None, pl, None))
                .collect(),
            ..Default::default()
        };
    };
    // The runtime's figure on the order planned carries the tails and the XNNPACK summary
    // when its runtime has them: each is computed once.
    let planned_figure = runtime_figure(model, planned, lifetimes, (isa, platform));
    let (tflm_tails, xnnpack) = match &planned_figure {
        RuntimeFigure::Tflm { tails, .. } => ((**tails).clone(), None),
        RuntimeFigure::Xnnpack(x, _) => (TflmTails::of(model), Some((**x).clone())),
        RuntimeFigure::Litert { .. } => (TflmTails::of(model), None),
    };
    let tflm_tails = Some(tflm_tails);
    let problems = planned
        .iter()
        .map(|pl| problem_facts(Some(model), pl, tflm_tails.as_ref()))
        .collect();
    let (runtime_file, runtime_reordered) = if file_planned.is_empty() {
        (Some(planned_figure), None)
    } else {
        let file_figure = runtime_figure(file_model, file_planned, lifetimes, (isa, platform));
        (Some(file_figure), Some(planned_figure))
    };
    Facts {
        tflm_tails,
        problems,
        xnnpack,
        runtime_file,
        runtime_reordered,
    }
}
