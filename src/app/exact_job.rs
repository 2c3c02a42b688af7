//! The exact solver as a background [`Job`] for one problem: the window stays responsive,
//! progress is shared through atomics, Cancel keeps the best plan found.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::job::Job;

use crate::analysis::Problem;
use crate::planner::exact::{self, Control, Progress};
use crate::planner::{Outcome, Settings};

/// Time limit of the exact solver in the app.
pub const EXACT_SECONDS: f64 = 60.0;

/// `Progress::best` before the search has a plan (its warm start takes a moment on large
/// problems).
const NO_PLAN_YET: u64 = u64::MAX;

/// What a running search has reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Snapshot {
    pub nodes: u64,
    /// The best arena found and the bound proven so far.
    pub best_bytes: u64,
    pub bound_bytes: u64,
}

pub struct ExactJob {
    /// The problem index it solves.
    pub problem: usize,
    pub progress: Arc<Progress>,
    job: Job<(Outcome, f64)>,
}

impl ExactJob {
    /// Starts minimising `problem` (index `index`) on its own thread.
    pub fn start(problem: Problem, index: usize) -> Result<Self, String> {
        // No plan yet: `best` stays at its sentinel until the search reports its warm start.
        let progress = Arc::new(Progress {
            best: AtomicU64::new(NO_PLAN_YET),
            ..Progress::default()
        });
        let p = progress.clone();
        let job = Job::start("Finding the optimum…", false, move |cancel| {
            let t0 = Instant::now();
            let settings = Settings {
                time_limit_secs: EXACT_SECONDS,
                capacity: None,
            };
            let control = Control {
                cancel: Some(cancel),
                progress: Some(&p),
            };
            let out = exact::minimise(&problem, &settings, control);
            (out, t0.elapsed().as_secs_f64())
        })?;
        Ok(ExactJob {
            problem: index,
            progress,
            job,
        })
    }

    /// Asks the search to stop; it returns its best plan so far.
    pub fn cancel(&self) {
        self.job.cancel();
    }

    pub fn cancelled(&self) -> bool {
        self.job.cancelled()
    }

    /// The result (offsets, proven bound, seconds) once the search has ended.
    pub fn take_result(&self) -> Option<(Outcome, f64)> {
        self.job.take_result()
    }

    /// Seconds since it started.
    pub fn seconds(&self) -> f64 {
        self.job.seconds()
    }

    /// Nodes searched, best arena and proven bound so far; `None` until the search has a
    /// first plan.
    pub fn snapshot(&self) -> Option<Snapshot> {
        snapshot(&self.progress)
    }
}

fn snapshot(progress: &Progress) -> Option<Snapshot> {
    let best_bytes = progress.best.load(Ordering::Relaxed);
    (best_bytes != NO_PLAN_YET).then(|| Snapshot {
        nodes: progress.nodes.load(Ordering::Relaxed),
        best_bytes,
        bound_bytes: progress.bound.load(Ordering::Relaxed),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_snapshot_before_the_search_reports_its_first_plan() {
        let progress = Progress {
            best: AtomicU64::new(NO_PLAN_YET),
            ..Progress::default()
        };
        assert_eq!(snapshot(&progress), None);
        progress.best.store(384, Ordering::Relaxed);
        progress.bound.store(324, Ordering::Relaxed);
        assert_eq!(
            snapshot(&progress),
            Some(Snapshot {
                nodes: 0,
                best_bytes: 384,
                bound_bytes: 324
            })
        );
    }

    #[test]
    fn a_started_job_reports_the_warm_start_then_ends_with_the_optimum() {
        // Two buffers alive together, 16 and 32 bytes: the optimum is 48 B.
        let b = |size_bytes| crate::analysis::Buffer {
            tensor: 0,
            subgraph: 0,
            name: String::new(),
            kind: crate::analysis::BufferKind::Activation,
            size_bytes,
            first: 0,
            last: 1,
            alignment: 1,
            fixed_offset: None,
        };
        let job = ExactJob::start(Problem::from_buffers(vec![b(16), b(32)]), 0).unwrap();
        let start = Instant::now();
        let (out, _) = loop {
            if let Some(r) = job.take_result() {
                break r;
            }
            assert!(start.elapsed().as_secs() < 30, "the search ends");
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        assert_eq!(
            out.offsets.iter().zip([16, 32]).map(|(o, s)| o + s).max(),
            Some(48)
        );
        assert_eq!(job.snapshot().map(|s| s.best_bytes), Some(48));
    }
}
