//! Writing a model on a better execution order (DESIGN.md §3.4), shared by `arenascope
//! optimize` and the app's File → "Save optimised model…": search the orders, check each one,
//! patch the operator vectors in place, reload what would be written and re-plan it, and only
//! then write it, through a temporary name, so that a failure leaves no partial file.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{emulation_arena, optimize_orders, OrderReport};
use crate::analysis::{self, Lifetimes};
use crate::model::Model;

/// What was written.
#[derive(Clone, Debug)]
pub struct Optimized {
    /// The runtime's arena (LiteRT: summed over subgraphs; TFLM: the head), before and after.
    pub before: u64,
    pub after: u64,
    pub reports: Vec<OrderReport>,
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
    let before = runtime_arena(model, lifetimes)?;
    let (orders, reports) =
        optimize_orders(model, lifetimes, time_limit_secs).map_err(|e| refuse(e.to_string()))?;
    if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
        return Err(refuse("cancelled".into()));
    }
    if orders.iter().all(Option::is_none) {
        return Err(refuse(format!(
            "no order lowers {}'s arena below {before} bytes",
            lifetimes.name()
        )));
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
    let written = crate::model::patch::reorder_operators(original, &orders)
        .map_err(|e| refuse(e.to_string()))?;
    // Reload what would be written: it must verify and need the predicted arena.
    let reloaded = Model::from_bytes(&written)
        .map_err(|e| refuse(format!("the rewritten model does not verify ({e})")))?;
    let after = runtime_arena(&reloaded, lifetimes)?;
    let predicted = runtime_arena(&analysis::order::reordered(model, &orders), lifetimes)?;
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
    })
}
