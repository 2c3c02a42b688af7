//! File → "Save optimised model…" as a background [`Job`]: the order search and the checked
//! write of `document::optimize`, with Cancel (the search stops after its current round and
//! nothing is written).

use std::path::{Path, PathBuf};

use super::job::Job;

use crate::analysis::Lifetimes;
use crate::document::optimize::{write_optimized, OptimizeError, Optimized};
use crate::model::Model;

/// The search budget of the app's optimisation, as `optimize --time-limit`.
pub const OPTIMIZE_SECONDS: f64 = 10.0;

type Outcome = Result<Optimized, OptimizeError>;

pub struct OptimizeJob {
    pub out: PathBuf,
    pub lifetimes: Lifetimes,
    job: Job<Outcome>,
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
        let target = out.to_path_buf();
        let job = Job::start("Saving the optimised model…", false, move |cancel| {
            write_optimized(
                &model,
                &original,
                input.as_deref(),
                &target,
                lifetimes,
                OPTIMIZE_SECONDS,
                Some(cancel),
            )
        })?;
        Ok(OptimizeJob {
            out: out.to_path_buf(),
            lifetimes,
            job,
        })
    }

    /// Asks the search to stop; nothing is written.
    pub fn cancel(&self) {
        self.job.cancel();
    }

    pub fn cancelled(&self) -> bool {
        self.job.cancelled()
    }

    /// Seconds since it started.
    pub fn seconds(&self) -> f64 {
        self.job.seconds()
    }

    /// What happened, once the job has ended.
    pub fn take_result(&self) -> Option<Outcome> {
        self.job.take_result()
    }
}
