//! Start-up: the document the window opens on, whatever the command line and the remembered
//! preferences ask. Nothing here panics: a file that cannot be opened is an error shown in
//! the window (the embedded sample opens instead), and a setting that does not apply to what
//! opened falls back to one that does, with a one-line notice saying so.

use std::path::{Path, PathBuf};

use super::document::Document;
use super::panel::Panel;
use super::preferences::Preferences;
use crate::analysis::Lifetimes;
use crate::document::OrderChoice;

/// The GUI's command line beyond the file: the screenshot flag and what to show first.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub file: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
    pub panel: Option<Panel>,
    pub dark: Option<bool>,
    pub budget: Option<u64>,
    pub lifetimes: Option<Lifetimes>,
    pub order: Option<OrderChoice>,
    /// The planner shown in the layout (an id of the planner registry).
    pub planner: Option<String>,
    /// The problem to show first (a subgraph; with XNNPACK, the TFLite arenas then the
    /// workspaces).
    pub problem: Option<usize>,
    /// The TFLM build the headline is for.
    pub target: Option<crate::document::TflmTarget>,
}

impl RunOptions {
    /// The preferences with the flags given put over them.
    pub fn over(&self, mut prefs: Preferences) -> Preferences {
        if let Some(p) = self.panel {
            prefs.panel = p;
        }
        if let Some(d) = self.dark {
            prefs.dark = d;
        }
        if let Some(t) = self.target {
            prefs.tflm_target = t;
        }
        if self.budget.is_some() {
            prefs.budget = self.budget;
        }
        if let Some(l) = self.lifetimes {
            prefs.lifetimes = l;
        }
        if let Some(o) = self.order {
            prefs.order = o;
        }
        if let Some(id) = &self.planner {
            prefs.primary = id.clone();
        }
        prefs
    }
}

/// What the window opens on.
pub struct Start {
    pub doc: Document,
    /// Why the file named could not be opened (the embedded sample is shown instead).
    pub error: Option<String>,
    /// Settings that did not apply and what was shown instead, one line each.
    pub notices: Vec<String>,
}

/// The notice when the memory-optimised order is asked for under XNNPACK.
pub const NO_XNNPACK_ORDER: &str = "The memory-optimised order does not apply to LiteRT with \
    XNNPACK (its partitions depend on the order): showing the file's order";

/// Opens `file` (else the embedded sample) for `prefs`, changing in `prefs` the settings that
/// do not apply to it. Fails only when not even the embedded sample can be planned.
pub fn open(prefs: &mut Preferences, file: Option<&Path>) -> Result<Start, String> {
    let mut notices = Vec::new();
    if prefs.lifetimes == Lifetimes::Xnnpack && prefs.order == OrderChoice::Optimized {
        prefs.order = OrderChoice::File;
        notices.push(NO_XNNPACK_ORDER.to_string());
    }
    let mut error = None;
    if let Some(path) = file {
        match open_with_fallbacks(prefs, &mut notices, |l, a, o| Document::open(path, l, a, o)) {
            Ok(doc) => {
                return Ok(Start {
                    doc,
                    error,
                    notices,
                })
            }
            Err(e) => error = Some(e),
        }
    }
    let doc = open_with_fallbacks(prefs, &mut notices, Document::sample)
        .map_err(|e| format!("not even the embedded sample could be planned ({e})"))?;
    Ok(Start {
        doc,
        error,
        notices,
    })
}

/// Opens with `prefs`' settings; when that fails, on the file's order, then on LiteRT's
/// lifetimes (keeping in `prefs` what worked, with a notice). The error is the first one.
fn open_with_fallbacks<E: std::fmt::Display>(
    prefs: &mut Preferences,
    notices: &mut Vec<String>,
    open: impl Fn(Lifetimes, Option<u64>, OrderChoice) -> Result<Document, E>,
) -> Result<Document, String> {
    let first = match open(prefs.lifetimes, prefs.align, prefs.order) {
        Ok(doc) => return Ok(doc),
        Err(e) => e.to_string(),
    };
    let mut tries = Vec::new();
    if prefs.order != OrderChoice::File {
        tries.push((prefs.lifetimes, OrderChoice::File));
    }
    if prefs.lifetimes != Lifetimes::Litert {
        tries.push((Lifetimes::Litert, OrderChoice::File));
    }
    for (lifetimes, order) in tries {
        if let Ok(doc) = open(lifetimes, prefs.align, order) {
            let what = if lifetimes == prefs.lifetimes {
                "the file's order"
            } else {
                "LiteRT's lifetimes on the file's order"
            };
            notices.push(format!(
                "Planning on {} lifetimes and the {} order failed ({first}): showing {what}",
                prefs.lifetimes.name(),
                prefs.order.name()
            ));
            prefs.lifetimes = lifetimes;
            prefs.order = order;
            return Ok(doc);
        }
    }
    Err(first)
}

/// The notice when problem `k` was asked for and there are only `count`.
pub fn no_such_problem(k: usize, count: usize, lifetimes: Lifetimes) -> String {
    format!(
        "There is no problem {k}: this model has {count} under {} lifetimes (0 to {}); showing \
         problem 0",
        lifetimes.name(),
        count.saturating_sub(1)
    )
}

/// The notice when the planner asked for has no plan on the problem shown.
pub fn planner_not_shown(id: &str, shown: &str) -> String {
    let why = match crate::planner::find(id) {
        Some(p) if p.on_request => "it runs on request (Find the optimum, or plan --planner)",
        _ => "it does not run on this problem",
    };
    format!("The planner {id} has no plan here ({why}): the layout shows {shown}")
}
