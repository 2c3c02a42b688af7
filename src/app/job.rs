//! One background job: work on its own thread while the window stays responsive, a label for
//! the spinner, Cancel, and the result picked up by a later frame. The app runs opening a file
//! and planning again (the order search, a change of runtime) this way, so no frame waits for
//! them; `sync` runs the work at once on the caller's thread instead (the UI tests' default,
//! so a command's effect is there in the next frame).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub struct Job<T> {
    /// What the spinner says ("Planning under TFLM's lifetimes…").
    pub label: String,
    cancel: Arc<AtomicBool>,
    result: Arc<Mutex<Option<T>>>,
    pub started: Instant,
}

impl<T: Send + 'static> Job<T> {
    /// Runs `work` on its own thread (with `sync`, here and now); `work` may read the flag
    /// it is given to stop early once cancelled.
    pub fn start(
        label: impl Into<String>,
        sync: bool,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Result<Self, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let result = Arc::new(Mutex::new(None));
        let label = label.into();
        if sync {
            let out = work(&cancel);
            if let Ok(mut slot) = result.lock() {
                *slot = Some(out);
            }
        } else {
            let (c, r) = (cancel.clone(), result.clone());
            std::thread::Builder::new()
                .name("arenascope-job".into())
                .spawn(move || {
                    let out = work(&c);
                    if let Ok(mut slot) = r.lock() {
                        *slot = Some(out);
                    }
                })
                .map_err(|e| format!("cannot start a background job ({label}): {e}"))?;
        }
        Ok(Job {
            label,
            cancel,
            result,
            started: Instant::now(),
        })
    }

    /// Asks the work to stop; a result that still arrives is not applied.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The result, once the work has ended (taken: a second call gives `None`).
    pub fn take_result(&self) -> Option<T> {
        self.result.lock().ok().and_then(|mut r| r.take())
    }

    /// Seconds since it started.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait<T: Send + 'static>(job: &Job<T>) -> T {
        let t0 = Instant::now();
        loop {
            if let Some(r) = job.take_result() {
                return r;
            }
            assert!(t0.elapsed().as_secs() < 30, "the job ends");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    #[test]
    fn a_job_runs_off_the_calling_thread_and_its_result_is_taken_once() {
        let caller = std::thread::current().id();
        let job = Job::start("t", false, move |_| std::thread::current().id() != caller).unwrap();
        assert!(wait(&job), "ran on another thread");
        assert!(job.take_result().is_none());
    }

    #[test]
    fn a_sync_job_has_its_result_at_once() {
        let job = Job::start("t", true, |_| 6 * 7).unwrap();
        assert_eq!(job.take_result(), Some(42));
    }

    #[test]
    fn cancel_reaches_the_work() {
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let job = Job::start("t", false, move |cancel| {
            // Wait until told the job was cancelled, then report whether the flag is up.
            let _ = rx.recv();
            cancel.load(Ordering::Relaxed)
        })
        .unwrap();
        job.cancel();
        tx.send(()).unwrap();
        assert!(wait(&job));
        assert!(job.cancelled());
    }
}
