//! The exact solver on a background thread for one problem: the window stays responsive,
//! progress is shared through atomics, Cancel keeps the best plan found.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::analysis::Problem;
use crate::planner::exact::{self, Control, Progress};
use crate::planner::{Outcome, Settings};

/// Time limit of the exact solver in the app.
pub const EXACT_SECONDS: f64 = 60.0;

pub struct ExactJob {
    /// The problem index it solves.
    pub problem: usize,
    pub cancel: Arc<AtomicBool>,
    pub progress: Arc<Progress>,
    result: Arc<Mutex<Option<(Outcome, f64)>>>,
    pub started: Instant,
}

impl ExactJob {
    /// Starts minimising `problem` (index `index`) on its own thread.
    pub fn start(problem: Problem, index: usize) -> Result<Self, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Progress::default());
        let result = Arc::new(Mutex::new(None));
        let (c, p, r) = (cancel.clone(), progress.clone(), result.clone());
        std::thread::Builder::new()
            .name("exact".into())
            .spawn(move || {
                let t0 = Instant::now();
                let settings = Settings {
                    time_limit_secs: EXACT_SECONDS,
                    capacity: None,
                };
                let control = Control {
                    cancel: Some(&c),
                    progress: Some(&p),
                };
                let out = exact::minimise(&problem, &settings, control);
                if let Ok(mut slot) = r.lock() {
                    *slot = Some((out, t0.elapsed().as_secs_f64()));
                }
            })
            .map_err(|e| format!("cannot start the exact solver: {e}"))?;
        Ok(ExactJob {
            problem: index,
            cancel,
            progress,
            result,
            started: Instant::now(),
        })
    }

    /// Asks the search to stop; it returns its best plan so far.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The result (offsets, proven bound, seconds) once the search has ended.
    pub fn take_result(&self) -> Option<(Outcome, f64)> {
        self.result.lock().ok().and_then(|mut r| r.take())
    }

    /// Nodes searched, best arena and proven bound so far.
    pub fn snapshot(&self) -> (u64, u64, u64) {
        (
            self.progress.nodes.load(Ordering::Relaxed),
            self.progress.best.load(Ordering::Relaxed),
            self.progress.bound.load(Ordering::Relaxed),
        )
    }
}
