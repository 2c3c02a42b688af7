//! File → "Save optimised model…" on a background thread: the order search and the checked
//! write of `document::optimize`, with Cancel (the search stops after its current round and
//! nothing is written).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::analysis::Lifetimes;
use crate::document::optimize::{write_optimized, OptimizeError, Optimized};
use crate::model::Model;

/// The search budget of the app's optimisation, as `optimize --time-limit`.
pub const OPTIMIZE_SECONDS: f64 = 10.0;

type Outcome = Result<Optimized, OptimizeError>;

pub struct OptimizeJob {
    pub out: PathBuf,
    pub lifetimes: Lifetimes,
    cancel: Arc<AtomicBool>,
    result: Arc<Mutex<Option<Outcome>>>,
    pub started: Instant,
}

impl OptimizeJob {
    /// Starts writing `model` (its file's bytes: `original`, read from `input`) on the order
    /// that lowers `lifetimes`' runtime arena to `out`.
    pub fn start(
        model: Model,
        original: Vec<u8>,
        input: Option<PathBuf>,
        out: &Path,
        lifetimes: Lifetimes,
    ) -> Result<Self, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let result = Arc::new(Mutex::new(None));
        let (c, r, target) = (cancel.clone(), result.clone(), out.to_path_buf());
        std::thread::Builder::new()
            .name("optimize".into())
            .spawn(move || {
                let outcome = write_optimized(
                    &model,
                    &original,
                    input.as_deref(),
                    &target,
                    lifetimes,
                    OPTIMIZE_SECONDS,
                    Some(&c),
                );
                if let Ok(mut slot) = r.lock() {
                    *slot = Some(outcome);
                }
            })
            .map_err(|e| format!("cannot start the order search: {e}"))?;
        Ok(OptimizeJob {
            out: out.to_path_buf(),
            lifetimes,
            cancel,
            result,
            started: Instant::now(),
        })
    }

    /// Asks the search to stop; nothing is written.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// What happened, once the job has ended.
    pub fn take_result(&self) -> Option<Outcome> {
        self.result.lock().ok().and_then(|mut r| r.take())
    }
}
