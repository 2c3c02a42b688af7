//! The app's document: the headless [`crate::document::Document`] plus the one piece of GUI
//! state that belongs to it, the problem shown.

use std::path::Path;

use crate::analysis::{Lifetimes, Problem};
use crate::document::{self as core, DocumentError, OrderChoice, PlanRequest};
use crate::plan::Plan;

pub struct Document {
    pub core: core::Document,
    /// Index of the problem shown (the subgraph, for litert lifetimes on a model).
    pub shown: usize,
}

impl std::ops::Deref for Document {
    type Target = core::Document;

    fn deref(&self) -> &core::Document {
        &self.core
    }
}

impl Document {
    /// Opens a file and plans it with every default planner.
    pub fn open(
        path: &Path,
        lifetimes: Lifetimes,
        align: Option<u64>,
        order: OrderChoice,
    ) -> Result<Self, DocumentError> {
        Self::planned(core::Document::open(path, lifetimes, align)?, order)
    }

    /// The embedded sample model, planned.
    pub fn sample(
        lifetimes: Lifetimes,
        align: Option<u64>,
        order: OrderChoice,
    ) -> Result<Self, DocumentError> {
        Self::planned(core::Document::sample(lifetimes, align)?, order)
    }

    fn planned(core: core::Document, order: OrderChoice) -> Result<Self, DocumentError> {
        let mut doc = Document { core, shown: 0 };
        let (lifetimes, align) = (doc.core.request.lifetimes, doc.core.request.align);
        doc.replan(lifetimes, align, order)?;
        Ok(doc)
    }

    /// Plans again under other settings (every default planner); `exact` plans are dropped.
    pub fn replan(
        &mut self,
        lifetimes: Lifetimes,
        align: Option<u64>,
        order: OrderChoice,
    ) -> Result<(), DocumentError> {
        let request = self.request_for(lifetimes, align, order, self.core.request.platform);
        self.core.plan(request)?;
        self.shown = self.shown.min(self.core.problem_count().saturating_sub(1));
        Ok(())
    }

    /// The request that plans this file under these settings with every default planner; the
    /// CPU class the XNNPACK estimate is for is the user's choice, kept.
    pub fn request_for(
        &self,
        lifetimes: Lifetimes,
        align: Option<u64>,
        order: OrderChoice,
        platform: crate::analysis::xnnpack::Platform,
    ) -> PlanRequest {
        let mut request = PlanRequest::defaults(&self.core.source, lifetimes, align);
        request.order = order;
        request.isa = self.core.request.isa;
        request.platform = platform;
        // The order search's budget in the app: about a second per subgraph at most
        // (`arenascope optimize` searches longer); it runs in the background.
        request.settings.time_limit_secs = 1.0;
        request
    }

    /// Takes a document planned elsewhere (a background job), keeping the problem shown
    /// where it still exists.
    pub fn replace(&mut self, core: core::Document) {
        self.core = core;
        self.shown = self.shown.min(self.core.problem_count().saturating_sub(1));
    }

    /// The CPU class XNNPACK's packed weights and indirection buffers are estimated for (no
    /// replanning: only the estimate depends on it).
    pub fn set_isa(&mut self, isa: crate::analysis::xnnpack::Isa) {
        self.core.set_isa(isa);
    }

    /// The problem shown.
    pub fn current(&self) -> &Problem {
        self.core.problem(self.shown)
    }

    /// The plans of the problem shown.
    pub fn current_plans(&self) -> &[Plan] {
        self.core.plans(self.shown)
    }

    /// Adds (or replaces) a planner's plan on problem `index` (its facts are made again).
    pub fn add_plan(&mut self, index: usize, plan: Plan) {
        self.core.add_plan(index, plan);
    }

    /// Index of a planner's plan in the problem shown.
    pub fn plan_index(&self, id: &str) -> Option<usize> {
        self.current_plans().iter().position(|p| p.planner == id)
    }
}
