//! The headline: the one number a deployer copies, and how sure it is. It is the runtime's own
//! number for the file as opened — LiteRT's RW + persistent arenas summed over subgraphs,
//! LiteRT with XNNPACK's planned whole, TFLM's own planner's head (an offline plan in the model
//! included) + tail for the chosen build — never the plan of the planner picked for the layout
//! nor of an order not yet saved; those get secondary lines. It says "at least" where something
//! is not modelled, "about" where the error can go either way, and "cannot run" where the
//! runtime refuses the model; the budget verdict is made from the same figure. The GUI's
//! summary, the exports and the CLI all render this one value.

use serde::Serialize;

use super::facts::{Coverage, RuntimeFigure, XnnpackSummary};
use super::{Document, Source};
use crate::analysis::catalogue::summarize;
use crate::analysis::tflm_tail::Target;
use crate::analysis::Lifetimes;
use crate::view::format_bytes;

/// The choices a headline depends on beyond the plan request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadlineOptions<'a> {
    /// The TFLM build the number is for.
    pub target: TflmTarget,
    /// The problem shown and the planner shown in its layout (for the secondary line).
    pub shown: Option<(usize, &'a str)>,
}

/// The TFLM build a headline is for (the x86-64 host build of the pip package is the default);
/// every one is measured: the host by `oracle_tflm.py`, the Cortex-M builds under qemu-arm
/// (`../shared/tools/tflm_cortex_m`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
pub enum TflmTarget {
    #[default]
    #[serde(rename = "x86-64")]
    Host64,
    /// Cortex-M, reference kernels (what "32-bit" stood for before the builds were measured).
    #[serde(rename = "cortex-m", alias = "32-bit")]
    Bits32,
    #[serde(rename = "cortex-m-cmsis-nn")]
    CmsisNn,
    #[serde(rename = "cortex-m55-cmsis-nn")]
    CmsisNnM55,
}

impl TflmTarget {
    pub const ALL: [TflmTarget; 4] = [
        TflmTarget::Host64,
        TflmTarget::Bits32,
        TflmTarget::CmsisNn,
        TflmTarget::CmsisNnM55,
    ];

    pub fn tail_target(self) -> Target {
        match self {
            TflmTarget::Host64 => Target::Host64,
            TflmTarget::Bits32 => Target::CortexM,
            TflmTarget::CmsisNn => Target::CortexMCmsisNn,
            TflmTarget::CmsisNnM55 => Target::CortexM55CmsisNn,
        }
    }

    /// The `--target` name: x86-64, cortex-m, cortex-m-cmsis-nn, cortex-m55-cmsis-nn.
    pub fn name(self) -> &'static str {
        self.tail_target().name()
    }

    pub fn label(self) -> &'static str {
        match self {
            TflmTarget::Host64 => "x86-64 host build (measured)",
            TflmTarget::Bits32 => "Cortex-M, reference kernels (measured under qemu-arm)",
            TflmTarget::CmsisNn => {
                "Cortex-M with DSP, CMSIS-NN kernels (measured under qemu-arm, Cortex-M4)"
            }
            TflmTarget::CmsisNnM55 => {
                "Cortex-M55 (MVE), CMSIS-NN kernels (measured under qemu-arm)"
            }
        }
    }
}

/// Whose number it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Subject {
    Litert,
    Xnnpack,
    Tflm {
        target: TflmTarget,
    },
    /// A MiniMalloc problem: no runtime, the best plan made here.
    Problem,
}

impl Subject {
    pub fn name(self) -> &'static str {
        match self {
            Subject::Litert => "LiteRT",
            Subject::Xnnpack => "LiteRT with XNNPACK",
            Subject::Tflm { .. } => "TFLM",
            Subject::Problem => "This problem",
        }
    }
}

/// How far the number can be trusted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Certainty {
    /// Every rule behind it is verified against the runtime.
    Exact,
    /// Computed by rules not measured on this build.
    Computed { why: String },
    /// A lower bound: the things named are not modelled and can only add bytes.
    AtLeast { not_modelled: Vec<String> },
    /// Approximate either way: the things named are not modelled.
    Approximate { not_modelled: Vec<String> },
    /// The runtime refuses the model; no arena size makes it run.
    CannotRun { why: Vec<String> },
}

/// One part of the number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Part {
    pub name: String,
    pub bytes: u64,
}

/// What a secondary line is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SecondaryKind {
    /// The planner picked for the layout, as the runtime would use it (or could not).
    ShownPlanner,
    /// The model saved with the optimised execution order.
    OptimisedOrder,
    /// TFLM: the best plan made here, written into the model as its offline plan.
    OfflinePlan,
    /// LiteRT with XNNPACK: with the estimated packed weights and indirection buffers.
    WithEstimates,
}

/// A number beside the headline, with the sentence that says what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Secondary {
    pub kind: SecondaryKind,
    pub bytes: u64,
    pub text: String,
}

/// The runtime's number and everything said about it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Headline {
    pub subject: Subject,
    pub bytes: u64,
    pub certainty: Certainty,
    /// The parts that add up to `bytes`.
    pub parts: Vec<Part>,
    /// How the number is made, in one sentence.
    pub detail: String,
    pub secondary: Vec<Secondary>,
}

/// A budget against the headline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "verdict")]
pub enum BudgetVerdict {
    Fits {
        spare: u64,
    },
    Over {
        short: u64,
    },
    /// Not decidable from what is modelled.
    Unsure {
        why: String,
    },
    CannotRun {
        why: String,
    },
}

/// "26.3 KiB (26932 B)", or "544 B" where the two say the same.
fn bytes_both(n: u64) -> String {
    let short = format_bytes(n);
    if short == format!("{n} B") {
        short
    } else {
        format!("{short} ({n} B)")
    }
}

impl BudgetVerdict {
    /// One sentence: "fits … with 1.2 KiB (1232 B) to spare", "over … by 26.3 KiB (26932 B)".
    pub fn sentence(&self, budget: u64) -> String {
        match self {
            BudgetVerdict::Fits { spare } => format!(
                "fits the budget of {} with {} to spare",
                format_bytes(budget),
                bytes_both(*spare)
            ),
            BudgetVerdict::Over { short } => format!(
                "over the budget of {} by {}",
                format_bytes(budget),
                bytes_both(*short)
            ),
            BudgetVerdict::Unsure { why } => {
                format!(
                    "unsure against the budget of {}: {why}",
                    format_bytes(budget)
                )
            }
            BudgetVerdict::CannotRun { why } => format!("cannot run at any budget: {why}"),
        }
    }

    /// The JSON `fits` value: `true`, `false` or `"unsure"` (a model the runtime cannot run
    /// fits no budget).
    pub fn fits_json(&self) -> serde_json::Value {
        match self {
            BudgetVerdict::Fits { .. } => true.into(),
            BudgetVerdict::Over { .. } | BudgetVerdict::CannotRun { .. } => false.into(),
            BudgetVerdict::Unsure { .. } => "unsure".into(),
        }
    }
}

impl Headline {
    /// The headline sentence: "TFLM needs 85264 bytes (83.3 KiB)", "TFLM needs at least …",
    /// "LiteRT with XNNPACK needs about …", "TFLM cannot run this model: …".
    pub fn sentence(&self) -> String {
        let who = self.subject.name();
        let n = format!("{} bytes ({})", self.bytes, format_bytes(self.bytes));
        match (&self.certainty, self.subject) {
            (Certainty::CannotRun { why }, _) => {
                let more = match why.len() {
                    0 | 1 => String::new(),
                    k => format!(" (and {} more)", k - 1),
                };
                format!(
                    "{who} cannot run this model: {}{more}",
                    why.first().map_or("", String::as_str)
                )
            }
            (Certainty::AtLeast { .. }, _) => format!("{who} needs at least {n}"),
            (Certainty::Approximate { .. }, _) => format!("{who} needs about {n}"),
            (_, Subject::Problem) => format!("The best plan of this problem needs {n}"),
            (_, Subject::Xnnpack) => format!("{who} needs {n} of planned memory"),
            _ => format!("{who} needs {n}"),
        }
    }

    /// Why the number is not exact, in one sentence (`None` when it is).
    pub fn caveat(&self) -> Option<String> {
        match &self.certainty {
            Certainty::Exact | Certainty::CannotRun { .. } => None,
            Certainty::Computed { why } => Some(why.clone()),
            Certainty::AtLeast { not_modelled } => Some(format!(
                "Not modelled, so this is a lower bound: {}",
                not_modelled.join(", ")
            )),
            Certainty::Approximate { not_modelled } => Some(format!(
                "Not modelled, so this is approximate (either way): {}",
                not_modelled.join(", ")
            )),
        }
    }

    /// The lines an exported picture carries above it: the sentence, why it is not exact, and
    /// with a budget its verdict.
    pub fn caption_lines(&self, budget: Option<u64>) -> Vec<String> {
        let mut lines = vec![self.sentence()];
        lines.extend(self.caveat());
        if let Some(b) = budget {
            lines.push(format!(
                "{} against the budget: {}",
                self.subject.name(),
                self.verdict(b).sentence(b)
            ));
        }
        lines
    }

    /// The number to copy for the runtime's arena size, when there is one.
    pub fn copy_value(&self) -> Option<u64> {
        (!matches!(self.certainty, Certainty::CannotRun { .. })).then_some(self.bytes)
    }

    /// The budget verdict from the headline's own figure.
    pub fn verdict(&self, budget: u64) -> BudgetVerdict {
        let plain = super::Verdict::of(self.bytes, budget);
        match (&self.certainty, plain) {
            (Certainty::CannotRun { why }, _) => BudgetVerdict::CannotRun {
                why: why.first().cloned().unwrap_or_default(),
            },
            (Certainty::Exact, super::Verdict::Fits { spare }) => BudgetVerdict::Fits { spare },
            (Certainty::Exact | Certainty::AtLeast { .. }, super::Verdict::Misses { short }) => {
                BudgetVerdict::Over { short }
            }
            (Certainty::AtLeast { not_modelled }, _) => BudgetVerdict::Unsure {
                why: format!(
                    "at least {} B is needed, and more for what is not modelled ({})",
                    self.bytes,
                    not_modelled.join(", ")
                ),
            },
            (Certainty::Approximate { not_modelled }, _) => BudgetVerdict::Unsure {
                why: format!(
                    "about {} B is needed; not modelled: {}",
                    self.bytes,
                    not_modelled.join(", ")
                ),
            },
            (Certainty::Computed { why }, _) => BudgetVerdict::Unsure {
                why: format!("{} B is computed, not measured ({why})", self.bytes),
            },
        }
    }
}

/// `part` of `whole` in percent, for "(−12.3 %)".
fn less_pct(part: u64, whole: u64) -> f64 {
    100.0 * whole.saturating_sub(part) as f64 / whole.max(1) as f64
}

impl Document {
    /// The headline for the file as opened, with the secondary lines for `opts`.
    pub fn headline(&self, opts: HeadlineOptions) -> Headline {
        let mut h = match (&*self.source, &self.facts.runtime_file) {
            (Source::Csv { .. }, _) | (_, None) => self.problem_headline(),
            (Source::Model(_), Some(figure)) => figure_headline(figure, opts.target),
        };
        self.add_secondary(&mut h, opts);
        h
    }

    /// A CSV problem: the best plan made (no runtime behind it).
    fn problem_headline(&self) -> Headline {
        let plans = self.plans(0);
        let best = plans.iter().min_by_key(|p| p.arena_bytes);
        let bytes = best.map_or(0, |p| p.arena_bytes);
        let lower = self.problem(0).lower_bound();
        Headline {
            subject: Subject::Problem,
            bytes,
            certainty: Certainty::Exact,
            parts: vec![Part {
                name: format!("the {} plan", best.map_or("—", |p| p.planner)),
                bytes,
            }],
            detail: format!(
                "A MiniMalloc problem: no runtime is behind it. The best of {} plans; no plan can use less than the lower bound, {lower} B.",
                plans.len()
            ),
            secondary: Vec::new(),
        }
    }

    fn add_secondary(&self, h: &mut Headline, opts: HeadlineOptions) {
        let lifetimes = self.request.lifetimes;
        // The planner shown in the layout, as its runtime would use it.
        if let Some((index, id)) = opts.shown.filter(|_| h.subject != Subject::Problem) {
            let problem = self.problem(index);
            let own = problem.lifetimes.map(|l| l.name());
            let plan = self.plans(index).iter().position(|p| p.planner == id);
            if let (Some(k), true) = (plan, own != Some(id)) {
                let plan = &self.plans(index)[k];
                let facts = self.problem_facts(index);
                match problem.lifetimes {
                    Some(Lifetimes::Tflm)
                        if !matches!(opts.target, TflmTarget::CmsisNn | TflmTarget::CmsisNnM55) =>
                    {
                        let tail = self
                            .facts
                            .tflm_tails
                            .as_ref()
                            .map_or(0, |t| t.get(opts.target.tail_target()).bytes);
                        let written = facts.and_then(|f| f.written_heads.get(k).copied().flatten());
                        if let Some(head) = written {
                            h.secondary.push(Secondary {
                                kind: SecondaryKind::ShownPlanner,
                                bytes: head + tail,
                                text: format!(
                                    "The {id} plan shown, written into the model as its offline plan: {} bytes (head {head} B, TFLM placing the scratch, + tail {tail} B){}.",
                                    head + tail,
                                    self.order_note()
                                ),
                            });
                        }
                    }
                    Some(l) => {
                        let outside = facts.map_or(0, |f| f.outside_bytes);
                        let runtime = if l == Lifetimes::Xnnpack || problem.xnnpack.is_some() {
                            "LiteRT and XNNPACK use their own planners"
                        } else {
                            "LiteRT always uses its own planner"
                        };
                        h.secondary.push(Secondary {
                            kind: SecondaryKind::ShownPlanner,
                            bytes: plan.arena_bytes + outside,
                            text: format!(
                                "The {id} plan shown needs {} bytes for {} ({runtime}).",
                                plan.arena_bytes + outside,
                                match problem.xnnpack {
                                    Some(_) => self.problem_label(index),
                                    None => format!("subgraph {}", problem.subgraph.unwrap_or(0)),
                                }
                            ),
                        });
                    }
                    None => {}
                }
            }
        }
        // A model the runtime cannot run has no smaller arena to point to.
        if matches!(h.certainty, Certainty::CannotRun { .. }) {
            return;
        }
        // The optimised order, once saved.
        if let Some(figure) = &self.facts.runtime_reordered {
            let after = figure_headline(figure, opts.target);
            if after.bytes != h.bytes {
                h.secondary.push(Secondary {
                    kind: SecondaryKind::OptimisedOrder,
                    bytes: after.bytes,
                    text: format!(
                        "Saved with the optimised order: {} bytes ({:.1} % less) — the File menu's Save optimised model… writes it; the file as opened needs the number above.",
                        after.bytes,
                        less_pct(after.bytes, h.bytes)
                    ),
                });
            }
        }
        // TFLM: the best plan made here, written as the model's offline plan.
        if let (Subject::Tflm { target }, Lifetimes::Tflm) = (h.subject, lifetimes) {
            self.add_offline_line(h, target);
        }
        // XNNPACK: the estimated allocations outside the plan.
        if let (Subject::Xnnpack, Some(x)) = (h.subject, &self.facts.xnnpack) {
            h.secondary.push(Secondary {
                kind: SecondaryKind::WithEstimates,
                bytes: h.bytes + x.other.packed_weights + x.other.indirection,
                text: format!(
                    "With XNNPACK's packed weights and indirection buffers: {} bytes ({}).",
                    h.bytes + x.other.packed_weights + x.other.indirection,
                    x.other.describe()
                ),
            });
        }
    }

    /// " (on the optimised order)" when the plans are on an order not yet saved.
    fn order_note(&self) -> &'static str {
        if self.facts.runtime_reordered.is_some() {
            " on the optimised order"
        } else {
            ""
        }
    }

    /// TFLM: the smallest head of any plan made, written into the model as its offline plan,
    /// when it beats TFLM's own; "Find the optimum" adds `exact` to the candidates.
    fn add_offline_line(&self, h: &mut Headline, target: TflmTarget) {
        // The plans are made with the host kernels' scratch; a CMSIS-NN build requests its
        // own, so a plan written for it is not offered (yet).
        if matches!(target, TflmTarget::CmsisNn | TflmTarget::CmsisNnM55) {
            return;
        }
        let Some(index) =
            (0..self.problem_count()).find(|&k| self.problem(k).lifetimes == Some(Lifetimes::Tflm))
        else {
            return;
        };
        let (Some(facts), Some(tails)) = (self.problem_facts(index), &self.facts.tflm_tails) else {
            return;
        };
        let plans = self.plans(index);
        let best = facts
            .written_heads
            .iter()
            .enumerate()
            .filter_map(|(k, head)| Some((head.as_ref().copied()?, k)))
            .filter(|&(_, k)| plans.get(k).is_some_and(|p| p.planner != "tflm"))
            .min();
        let Some((head, k)) = best else { return };
        let total = head + tails.get(target.tail_target()).bytes;
        let own = self.planned[index].runtime_arena.unwrap_or(u64::MAX);
        if head >= own || total >= h.bytes {
            return;
        }
        let plan = &plans[k];
        let proof = if plan.optimal() {
            ", proven optimal"
        } else if plan.planner == "exact" {
            ""
        } else {
            "; Find the optimum may do better"
        };
        h.secondary.push(Secondary {
            kind: SecondaryKind::OfflinePlan,
            bytes: total,
            text: format!(
                "Written into the model as its offline plan, the {} plan needs {total} bytes ({:.1} % less{proof}){} — the File menu's Save optimised model… writes it.",
                plan.planner,
                less_pct(total, h.bytes),
                self.order_note()
            ),
        });
    }
}

/// The headline of the runtime's figure for one order.
fn figure_headline(figure: &RuntimeFigure, target: TflmTarget) -> Headline {
    match figure {
        RuntimeFigure::Litert {
            subgraphs,
            coverage,
        } => {
            let bytes = subgraphs.iter().map(|s| s.arena + s.persistent).sum();
            let many = subgraphs.len() > 1;
            let mut parts = Vec::new();
            for s in subgraphs {
                let at = if many {
                    format!(", subgraph {}", s.subgraph)
                } else {
                    String::new()
                };
                parts.push(Part {
                    name: format!("RW arena{at}"),
                    bytes: s.arena,
                });
                if s.persistent > 0 || !many {
                    parts.push(Part {
                        name: format!("persistent arena{at}"),
                        bytes: s.persistent,
                    });
                }
            }
            let split: Vec<String> = subgraphs
                .iter()
                .map(|s| format!("subgraph {} {} B + {} B", s.subgraph, s.arena, s.persistent))
                .collect();
            let certainty = if !coverage.cannot_run.is_empty() {
                Certainty::CannotRun {
                    why: coverage.cannot_run.clone(),
                }
            } else if !coverage.not_modelled.is_empty() {
                Certainty::Approximate {
                    not_modelled: summarize(&coverage.not_modelled),
                }
            } else {
                Certainty::Exact
            };
            Headline {
                subject: Subject::Litert,
                bytes,
                certainty,
                parts,
                detail: if many {
                    format!(
                        "RW + persistent arena of each of the {} subgraphs (each has its own), LiteRT's own planner: {}.",
                        subgraphs.len(),
                        split.join("; ")
                    )
                } else {
                    format!(
                        "RW arena {} B (LiteRT's own planner) + persistent arena {} B (variables and persistent tensors).",
                        subgraphs.first().map_or(0, |s| s.arena),
                        subgraphs.first().map_or(0, |s| s.persistent)
                    )
                },
                secondary: Vec::new(),
            }
        }
        RuntimeFigure::Tflm {
            head,
            tails,
            offline_plan,
            coverage,
        } => {
            let tail = tails.get(target.tail_target());
            // A Cortex-M build's head has its own kernels' scratch requests.
            let head = &tails.head(target.tail_target()).unwrap_or(*head);
            let head_name = if *offline_plan {
                "head (the offline plan in the model)"
            } else {
                "head (TFLM's own planner)"
            };
            let mut parts = vec![Part {
                name: head_name.to_string(),
                bytes: *head,
            }];
            for c in &tail.categories {
                parts.push(Part {
                    name: c.name.to_string(),
                    bytes: c.bytes,
                });
            }
            let itemised: u64 = tail.categories.iter().map(|c| c.bytes).sum();
            parts.push(Part {
                name: "allocator, options, handles".to_string(),
                bytes: tail.bytes.saturating_sub(itemised),
            });
            let certainty = if !tail.cannot_run.is_empty() {
                Certainty::CannotRun {
                    why: tail.cannot_run.clone(),
                }
            } else if !tail.not_modelled.is_empty() || !coverage.not_modelled.is_empty() {
                // The catalogue's nodes counted per operator, then what the tail's rules miss
                // beyond them (resource variables, say).
                let mut all = summarize(&coverage.not_modelled);
                all.extend(
                    tail.not_modelled
                        .iter()
                        .filter(|t| {
                            !coverage
                                .not_modelled
                                .iter()
                                .any(|n| t.starts_with(&format!("{} ", n.op)))
                        })
                        .cloned(),
                );
                Certainty::AtLeast { not_modelled: all }
            } else {
                Certainty::Exact
            };
            let were = if matches!(certainty, Certainty::CannotRun { .. }) {
                "Were it to run: "
            } else {
                ""
            };
            Headline {
                subject: Subject::Tflm { target },
                bytes: head + tail.bytes,
                certainty,
                parts,
                detail: format!(
                    "{were}tensor_arena_size = {head_name} {head} B + tail {} B (TFLM's persistent allocations), for the {}.",
                    tail.bytes,
                    target.label()
                ),
                secondary: Vec::new(),
            }
        }
        RuntimeFigure::Xnnpack(x, coverage) => xnnpack_headline(x, coverage),
    }
}

fn xnnpack_headline(x: &XnnpackSummary, coverage: &Coverage) -> Headline {
    Headline {
        subject: Subject::Xnnpack,
        bytes: x.planned(),
        certainty: if !coverage.cannot_run.is_empty() {
            Certainty::CannotRun {
                why: coverage.cannot_run.clone(),
            }
        } else if !x.not_modelled.is_empty() || !coverage.not_modelled.is_empty() {
            let mut all = summarize(&coverage.not_modelled);
            all.extend(x.not_modelled.iter().cloned());
            Certainty::Approximate { not_modelled: all }
        } else if x.platform != crate::analysis::xnnpack::Platform::X86_64 {
            Certainty::Computed {
                why: "XNNPACK's workspace rounding for ARM is computed by the same rules, not measured".to_string(),
            }
        } else {
            Certainty::Exact
        },
        parts: vec![
            Part {
                name: "TFLite arena".to_string(),
                bytes: x.tflite_arena,
            },
            Part {
                name: "XNNPACK workspace".to_string(),
                bytes: x.workspace,
            },
            Part {
                name: "persistent arena".to_string(),
                bytes: x.persistent,
            },
        ],
        detail: format!(
            "TFLite arena {} B (the delegated graph, LiteRT's planner) + XNNPACK workspace {} B (the largest of {} partition plans, XNNPACK's planner; rounded for {}) + persistent arena {} B.",
            x.tflite_arena,
            x.workspace,
            x.partitions,
            x.platform.name(),
            x.persistent
        ),
        secondary: Vec::new(),
    }
}
