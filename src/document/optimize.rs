//! Writing a model on a better execution order (DESIGN.md §3.4), shared by `arenascope
//! optimize` and the app's File → "Save optimised model…": search the orders, check each one,
//! patch the operator vectors in place, reload what would be written and re-plan it, and only
//! then write it, through a temporary name, so that a failure leaves no partial file.
//!
//! For TFLM there is a second lever (RUNTIME_RULES B.4): a plan written into the model as
//! `OfflineMemoryAllocation` metadata, which TFLM uses verbatim for every tensor it names and
//! plans the kernels' scratch around. Its head is predicted by pinning the plan's tensors and
//! re-placing the scratch with the `tflm` emulation. The order search then counts an order at
//! the smaller of TFLM's own head and the best written plan's, so that an order whose working
//! set is lower but which TFLM's greedy cannot exploit is still found; the plan written is the
//! best of every generic planner and `exact` on the final order, and only where it beats
//! TFLM's own head on that order.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{emulation_arena, optimize_orders, OrderReport};
use crate::analysis::{self, BufferKind, Lifetimes, Problem};
use crate::model::Model;
use crate::planner::{self, Scope, Settings};

/// A plan written into the model as TFLM's offline plan.
#[derive(Clone, Debug)]
pub struct OfflinePlan {
    /// The planner that made it.
    pub planner: &'static str,
    /// TFLM's head with it written: its tensors pinned, the scratch placed by TFLM.
    pub head: u64,
    /// TFLM's own head on the same order, without it.
    pub greedy_head: u64,
    /// The metadata's int32 words: version, subgraphs, tensors, one offset per tensor.
    pub words: Vec<i32>,
}

/// What was written.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The runtime's arena (LiteRT: summed over subgraphs; TFLM: the head), before and after.
    pub before: u64,
    pub after: u64,
    pub reports: Vec<OrderReport>,
    /// TFLM's offline plan, when one was written with the order.
    pub offline: Option<OfflinePlan>,
}

impl Optimized {
    /// Whether every subgraph's search was exact.
    pub fn exact(&self) -> bool {
        self.reports.iter().all(|r| r.exact)
    }

    pub fn seconds(&self) -> f64 {
        self.reports.iter().map(|r| r.seconds).sum()
    }

    /// The gain in percent of the arena before.
    pub fn percent_less(&self) -> f64 {
        100.0 * self.before.saturating_sub(self.after) as f64 / self.before.max(1) as f64
    }
}

/// Why nothing was written. Every message says so.
#[derive(Debug, thiserror::Error)]
pub enum OptimizeError {
    /// The output would overwrite the input.
    #[error("the output must not be the input; nothing was written: {0}")]
    SamePath(String),
    /// The model cannot be, or need not be, optimised; or writing failed.
    #[error("{0}")]
    Refused(String),
}

/// The runtime's arena for a model: LiteRT's arenas summed over subgraphs (each has its own),
/// or TFLM's head.
pub fn runtime_arena(model: &Model, lifetimes: Lifetimes) -> Result<u64, OptimizeError> {
    let problems =
        analysis::problems(model, lifetimes).map_err(|e| OptimizeError::Refused(e.to_string()))?;
    let mut total = 0;
    for p in &problems {
        total += emulation_arena(p, lifetimes)
            .map_err(|why| OptimizeError::Refused(format!("{why}; nothing was written")))?;
    }
    Ok(total)
}

/// The offline-plan words of `offsets`, a plan of `problem` (TFLM lifetimes, every subgraph of
/// `model`): each planned tensor's offset, -1 for the rest (constants, variables, zero-size
/// and unplanned tensors; TFLM always places the scratch itself). `None` if an offset does not
/// fit in an int32.
pub fn offline_words(model: &Model, problem: &Problem, offsets: &[u64]) -> Option<Vec<i32>> {
    let tensors: usize = model.subgraphs.iter().map(|sg| sg.tensors.len()).sum();
    let mut words = vec![-1i32; 3 + tensors];
    words[0] = 1;
    words[1] = i32::try_from(model.subgraphs.len()).ok()?;
    words[2] = i32::try_from(tensors).ok()?;
    for (b, &o) in problem.buffers.iter().zip(offsets) {
        if b.kind != BufferKind::Scratch && b.tensor < tensors {
            words[3 + b.tensor] = i32::try_from(o).ok()?;
        }
    }
    // TFLM looks a variable of subgraph k > 0 up at the entry of its index within subgraph k,
    // i.e. subgraph 0's tensor of that index: that entry must say -1 too (RUNTIME_RULES B.4).
    for sg in model.subgraphs.iter().skip(1) {
        for (t, tensor) in sg.tensors.iter().enumerate() {
            if tensor.is_variable && t < tensors {
                words[3 + t] = -1;
            }
        }
    }
    Some(words)
}

/// TFLM's head with `words` written into the model whose TFLM problem is `problem`: the tensors
/// they name pinned there, every other buffer planned by TFLM's online pass around them. `None`
/// if that plan does not validate.
pub fn head_with_words(problem: &Problem, words: &[i32]) -> Option<u64> {
    let mut pinned = problem.clone();
    for b in &mut pinned.buffers {
        b.fixed_offset = None;
        if b.kind != BufferKind::Scratch {
            match words.get(3 + b.tensor) {
                Some(&o) if o >= 0 => b.fixed_offset = Some(o as u64),
                _ => {}
            }
        }
    }
    emulation_arena(&pinned, Lifetimes::Tflm).ok()
}

/// The plan of `problem` (TFLM lifetimes of `model`) whose head, written into the model, is
/// the smallest: every generic planner, and `exact` when `exact_secs` is given. Ties go to the
/// first in registry order. `None` when no plan gives words, or when TFLM's own plan already
/// meets the lower bound.
pub fn best_offline_plan(
    model: &Model,
    problem: &Problem,
    exact_secs: Option<f64>,
) -> Option<OfflinePlan> {
    let greedy_head = emulation_arena(problem, Lifetimes::Tflm).ok()?;
    // No plan is below the lower bound: TFLM's own already reaches it.
    if greedy_head <= problem.lower_bound() {
        return None;
    }
    let mut best: Option<OfflinePlan> = None;
    for info in planner::REGISTRY.iter().filter(|i| i.scope == Scope::Any) {
        let settings = match (info.on_request, info.id, exact_secs) {
            (false, _, _) => Settings::default(),
            (true, "exact", Some(secs)) => Settings {
                time_limit_secs: secs,
                capacity: None,
            },
            _ => continue,
        };
        // Every plan is validated before it is written.
        let Ok(plan) = planner::run(info, problem, &settings) else {
            continue;
        };
        let Some(words) = offline_words(model, problem, &plan.offsets) else {
            continue;
        };
        let Some(head) = head_with_words(problem, &words) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| head < b.head) {
            best = Some(OfflinePlan {
                planner: info.id,
                head,
                greedy_head,
                words,
            });
        }
    }
    best
}

/// Searches `model` (read from `original`, its file's bytes) for the order that lowers the
/// runtime's arena and writes it to `out`. `stop`, when set, abandons the search between
/// rounds and writes nothing.
pub fn write_optimized(
    model: &Model,
    original: &[u8],
    input: Option<&Path>,
    out: &Path,
    lifetimes: Lifetimes,
    time_limit_secs: f64,
    stop: Option<&AtomicBool>,
) -> Result<Optimized, OptimizeError> {
    if let Some(input) = input {
        let same =
            std::fs::canonicalize(out).ok() == std::fs::canonicalize(input).ok() && out.exists();
        if out == input || same {
            return Err(OptimizeError::SamePath(out.display().to_string()));
        }
    }
    let refuse = |what: String| OptimizeError::Refused(format!("{what}; nothing was written"));
    if model.offline_offsets.is_some() {
        return Err(refuse(
            "the model already carries an offline plan (OfflineMemoryAllocation, e.g. Vela's)"
                .into(),
        ));
    }
    let tflm = lifetimes == Lifetimes::Tflm;
    if tflm {
        let cannot = analysis::tflm_tail::tail(model, 0).cannot_run;
        if let Some(first) = cannot.first() {
            return Err(refuse(format!("TFLM cannot run this model: {first}")));
        }
    }
    let before = runtime_arena(model, lifetimes)?;
    let (orders, reports) = optimize_orders(model, lifetimes, time_limit_secs, tflm)
        .map_err(|e| refuse(e.to_string()))?;
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(refuse("cancelled".into()));
    }
    // Every order is checked: each operator after the producers of its inputs, side effects
    // in their file order.
    for (s, order) in orders.iter().enumerate() {
        if let Some(order) = order {
            if !analysis::order::is_valid_order(model, s, order) {
                return Err(refuse(format!(
                    "the order found for subgraph {s} is not valid"
                )));
            }
        }
    }
    let reordered = analysis::order::reordered(model, &orders);
    // TFLM: the best plan on the final order, written only where it beats TFLM's own head.
    let offline = if tflm {
        let problem = analysis::tflm::problem(&reordered).map_err(|e| refuse(e.to_string()))?;
        best_offline_plan(&reordered, &problem, Some(time_limit_secs.max(0.0)))
            .filter(|p| p.head < p.greedy_head)
    } else {
        None
    };
    if orders.iter().all(Option::is_none) && offline.is_none() {
        return Err(refuse(format!(
            "no order {}lowers {}'s arena below {before} bytes",
            if tflm { "or offline plan " } else { "" },
            lifetimes.name()
        )));
    }
    let mut written = crate::model::patch::reorder_operators(original, &orders)
        .map_err(|e| refuse(e.to_string()))?;
    if let Some(plan) = &offline {
        written = crate::model::patch::add_offline_plan(&written, &plan.words)
            .map_err(|e| refuse(e.to_string()))?;
    }
    // Reload what would be written: it must verify and need the predicted arena.
    let reloaded = Model::from_bytes(&written)
        .map_err(|e| refuse(format!("the rewritten model does not verify ({e})")))?;
    let after = runtime_arena(&reloaded, lifetimes)?;
    let predicted = match &offline {
        Some(plan) => plan.head,
        None => runtime_arena(&reordered, lifetimes)?,
    };
    if after != predicted || after >= before {
        return Err(refuse(format!(
            "the rewritten model needs {after} bytes (predicted {predicted}, before {before})"
        )));
    }
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(refuse("cancelled".into()));
    }
    let tmp = out.with_extension("tflite.partial");
    let cannot = |e: std::io::Error, p: &Path| {
        let _ = std::fs::remove_file(&tmp);
        OptimizeError::Refused(format!("cannot write ({e}): {}", p.display()))
    };
    std::fs::write(&tmp, &written).map_err(|e| cannot(e, &tmp))?;
    std::fs::rename(&tmp, out).map_err(|e| cannot(e, out))?;
    Ok(Optimized {
        before,
        after,
        reports,
        offline,
    })
}
