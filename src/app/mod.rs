//! The eframe application (behind the `gui` feature): the headless document with the problem
//! shown, one selection shared by every panel, preferences remembered between runs.
//!
//! Each frame: build the views the panels need ([`view_cache::FrameViews`]), let the panels
//! draw from them and push [`Command`]s, then apply the commands once, so a tensor picked
//! anywhere is highlighted everywhere in the next frame (rerun's selection model).
//!
//! Files: `startup` (the command line and what the window opens on, never a panic),
//! `preferences` (what is remembered), `panel` (which panel is shown), `command` (every state
//! change, the selection), `document` (the headless document and the problem shown),
//! `view_cache` (views per frame), `exact_job` (the background solver), `screenshot`, `plots`
//! (egui_plot items that paint the views), `panels` (one file per panel, plus menu, settings,
//! details, exports).

pub mod command;
pub mod document;
pub mod exact_job;
pub mod job;
pub mod optimize_job;
mod panel;
pub mod panels;
pub mod plots;
pub mod preferences;
mod screenshot;
mod startup;
pub mod theme;
pub mod view_cache;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use command::{Command, Selection};
pub use document::Document;
pub use exact_job::ExactJob;
pub use optimize_job::OptimizeJob;
pub use panel::Panel;
pub use panels::Frame;
pub use preferences::Preferences;
pub use startup::RunOptions;

use screenshot::ScreenshotState;
use theme::Colors;
use view_cache::{FrameViews, ViewCache};

/// The tensor table's own state: filter and sort.
#[derive(Clone, Debug, Default)]
pub struct TableState {
    pub filter: String,
    /// Column and ascending.
    pub sort: (usize, bool),
}

/// What opening or planning in the background gives.
pub type PlanResult = Result<crate::document::Document, crate::document::DocumentError>;

/// What a finished plan job's document is for.
pub enum PlanGoal {
    /// The same file planned again (lifetimes, alignment, order, platform).
    Replan,
    /// A file opened (remembered once it is there).
    Open(PathBuf),
}

/// Opening or planning in the background.
pub struct PlanJob {
    pub job: job::Job<PlanResult>,
    pub goal: PlanGoal,
}

/// The budget field as typed, and why it does not parse (if it does not).
#[derive(Clone, Debug, Default)]
pub struct BudgetField {
    pub text: String,
    pub error: Option<String>,
}

pub struct ArenaApp {
    pub prefs: Preferences,
    pub budget_field: BudgetField,
    pub doc: Document,
    pub selection: Selection,
    /// The selection before the last click picked one (a double-click puts it back).
    selection_before: Selection,
    /// Hovered this frame, shown in the next.
    hovered_next: Option<usize>,
    pub error: Option<String>,
    pub status: Option<String>,
    pub table: TableState,
    cache: ViewCache,
    commands: Vec<Command>,
    screenshot: ScreenshotState,
    /// The exact solver, while it runs.
    pub exact_job: Option<ExactJob>,
    /// File → "Save optimised model…", while it runs.
    pub optimize_job: Option<OptimizeJob>,
    /// Opening a file or planning again, while it runs.
    pub plan_job: Option<PlanJob>,
    /// The platform asked for while a replan runs (the document has the one it was planned
    /// with).
    pending_platform: Option<crate::analysis::xnnpack::Platform>,
    /// Run opening and planning at once instead of in the background (the UI tests: a
    /// command's effect is there in the next frame).
    pub sync_jobs: bool,
    /// The file dialog of File → Open… and Ctrl+O (tests put a stand-in here).
    pub open_dialog: fn() -> Option<PathBuf>,
    /// The window title last sent.
    title_sent: String,
}

impl ArenaApp {
    /// A new app on `file` (or the embedded sample), with `prefs`; see [`ArenaApp::try_new`].
    /// For tests and benches: opening and planning run at once (`sync_jobs`); should not even
    /// the embedded sample plan, it says so and exits.
    pub fn new(prefs: Preferences, file: Option<&Path>) -> Self {
        match Self::try_new(prefs, file) {
            Ok(mut app) => {
                app.sync_jobs = true;
                app
            }
            Err(e) => {
                eprintln!("arenascope: {e}");
                std::process::exit(1)
            }
        }
    }

    /// A new app on `file`, else on the embedded sample (the file's error is then shown);
    /// settings of `prefs` that do not apply fall back, with a notice in the status line.
    /// Fails only when not even the embedded sample can be planned.
    pub fn try_new(mut prefs: Preferences, file: Option<&Path>) -> Result<Self, String> {
        let start = startup::open(&mut prefs, file)?;
        let budget_field = BudgetField {
            text: prefs.budget.map(|b| b.to_string()).unwrap_or_default(),
            error: None,
        };
        let mut app = ArenaApp {
            prefs,
            budget_field,
            doc: start.doc,
            selection: Selection::default(),
            selection_before: Selection::default(),
            hovered_next: None,
            error: start.error,
            status: None,
            table: TableState {
                sort: (0, true),
                ..TableState::default()
            },
            cache: ViewCache::default(),
            commands: Vec::new(),
            screenshot: ScreenshotState::default(),
            exact_job: None,
            optimize_job: None,
            plan_job: None,
            pending_platform: None,
            sync_jobs: false,
            open_dialog: panels::menu::open_dialog,
            title_sent: String::new(),
        };
        for n in start.notices {
            app.notice(n);
        }
        if let Some(p) = file.filter(|_| app.error.is_none()) {
            app.prefs.remember(p);
        }
        Ok(app)
    }

    /// The app the command line asks for: `opts`' flags over the remembered `prefs`, the
    /// problem and the planner asked for (a notice when they are not there).
    pub fn with_options(prefs: Preferences, opts: &RunOptions) -> Result<Self, String> {
        let mut app = Self::try_new(opts.over(prefs), opts.file.as_deref())?;
        if let Some(k) = opts.problem {
            app.apply(Command::ShowProblem(k));
        }
        if let Some(id) = &opts.planner {
            if app.doc.plan_index(id).is_none() {
                let shown = app.frame_views().primary;
                let shown = app.doc.current_plans().get(shown).map_or("", |p| p.planner);
                let n = startup::planner_not_shown(id, shown);
                app.notice(n);
            }
        }
        Ok(app)
    }

    /// Adds a line to the status line (notices of one start-up stay together).
    fn notice(&mut self, text: String) {
        self.status = Some(match self.status.take() {
            Some(s) => format!("{s} · {text}"),
            None => text,
        });
    }

    /// The window's title: the tool and the file shown.
    pub fn window_title(&self) -> String {
        format!("arenascope — {}", self.doc.title)
    }

    /// The title last sent to the window (`ViewportCommand::Title`).
    pub fn sent_title(&self) -> &str {
        &self.title_sent
    }

    /// The selection after a replan: the same tensor, wherever it still exists (in the
    /// problem shown, else in the first that has it, which is then shown); else none.
    fn reselect(&mut self) {
        let Some(key) = self.selection.key else {
            self.selection.selected = None;
            return;
        };
        let model = self.doc.model();
        let found = std::iter::once(self.doc.shown)
            .chain(0..self.doc.problem_count())
            .find_map(|k| Some((k, key.number_in(model, self.doc.problem(k))?)));
        match found {
            Some((k, number)) => {
                self.doc.shown = k;
                self.selection.selected = Some(number);
            }
            None => self.selection = Selection::default(),
        }
    }

    pub fn colors(&self) -> Colors {
        Colors::new(self.prefs.dark)
    }

    /// The views of this frame (built from the cache).
    pub fn frame_views(&mut self) -> FrameViews {
        self.cache
            .frame(&self.doc, &self.prefs, self.selection, false)
    }

    /// The views an export of the shown panel draws.
    pub fn export_views(&mut self) -> FrameViews {
        self.cache
            .frame(&self.doc, &self.prefs, self.selection, true)
    }

    /// The frame the panels draw from.
    fn frame<'a>(&'a self, views: &'a FrameViews) -> Frame<'a> {
        let problem = self.doc.current();
        Frame {
            doc: &self.doc,
            prefs: &self.prefs,
            views,
            selection: self.selection,
            selected_buffer: self.selection.selected_buffer(problem),
            hovered_buffer: self.selection.hovered_buffer(problem),
            colors: self.colors(),
            exact: self.exact_job.as_ref(),
            optimizing: self.optimize_job.as_ref(),
            planning: self.plan_job.as_ref(),
            error: self.error.as_deref(),
            status: self.status.as_deref(),
            table: &self.table,
            budget: self.prefs.budget.map(|bytes| crate::document::Budget {
                bytes,
                outside_bytes: views.outside_plan_bytes,
            }),
            budget_field: &self.budget_field,
        }
    }

    /// The buffer id of the selected tensor (its own, or its alias root's).
    pub fn selected_buffer(&self) -> Option<usize> {
        self.selection.selected_buffer(self.doc.current())
    }

    /// The SVG of the shown view, exactly as File → Export writes it.
    pub fn current_view_svg(&mut self) -> String {
        let views = self.export_views();
        panels::exports::view_svg(&self.frame(&views))
    }

    /// The plan JSON of the shown problem, exactly as File → Export writes it.
    pub fn plan_json(&mut self) -> String {
        let views = self.frame_views();
        panels::exports::plan_json(&self.frame(&views))
    }

    /// Queues a command (applied at the end of the frame, or by [`ArenaApp::apply_commands`]).
    pub fn push(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// Opens a file; on failure the error is shown and the current model stays.
    fn open(&mut self, path: &Path) {
        let (lifetimes, align, order) = (self.prefs.lifetimes, self.prefs.align, self.prefs.order);
        let file = path.to_path_buf();
        let label = format!("Opening {}…", path.display());
        self.start_plan_job(label, PlanGoal::Open(file.clone()), move |_| {
            Document::open(&file, lifetimes, align, order).map(|d| d.core)
        });
    }

    /// Plans again after a change of lifetimes, alignment, order or platform, in the
    /// background: the document shown stays until the new one is there.
    fn replan(&mut self) {
        if self.prefs.lifetimes == crate::analysis::Lifetimes::Xnnpack
            && self.prefs.order == crate::document::OrderChoice::Optimized
        {
            self.prefs.order = crate::document::OrderChoice::File;
            self.notice("No order search under XNNPACK (its partitions depend on the order): the file's order is shown.".into());
        }
        let platform = self.pending_platform.unwrap_or(self.doc.request.platform);
        let request = self.doc.request_for(
            self.prefs.lifetimes,
            self.prefs.align,
            self.prefs.order,
            platform,
        );
        let label = format!(
            "Planning under {} lifetimes{}…",
            request.lifetimes.name(),
            if request.order == crate::document::OrderChoice::Optimized {
                ", searching the memory-optimised order"
            } else {
                ""
            }
        );
        let mut next = self.doc.core.unplanned();
        self.start_plan_job(label, PlanGoal::Replan, move |_| {
            next.plan(request).map(|()| next)
        });
    }

    /// Starts opening or planning (any such job still running is abandoned).
    fn start_plan_job(
        &mut self,
        label: String,
        goal: PlanGoal,
        work: impl FnOnce(&std::sync::atomic::AtomicBool) -> PlanResult + Send + 'static,
    ) {
        if let Some(old) = self.plan_job.take() {
            old.job.cancel();
        }
        match job::Job::start(label, self.sync_jobs, work) {
            Ok(job) => self.plan_job = Some(PlanJob { job, goal }),
            Err(e) => self.error = Some(e),
        }
        if self.sync_jobs {
            self.poll_plan(None);
        }
    }

    /// Cancel: the document shown stays, and the settings go back to the ones it was planned
    /// with.
    fn cancel_plan(&mut self) {
        if let Some(p) = self.plan_job.take() {
            p.job.cancel();
            self.pending_platform = None;
            self.prefs.lifetimes = self.doc.request.lifetimes;
            self.prefs.align = self.doc.request.align;
            self.prefs.order = self.doc.request.order;
            self.status = Some(format!("Cancelled: {}", p.job.label.trim_end_matches('…')));
        }
    }

    /// Takes an opened or replanned document once its job has ended.
    fn poll_plan(&mut self, ctx: Option<&egui::Context>) {
        let Some(p) = &self.plan_job else { return };
        let Some(result) = p.job.take_result() else {
            if let Some(ctx) = ctx {
                ctx.request_repaint_after(std::time::Duration::from_millis(50));
            }
            return;
        };
        let Some(p) = self.plan_job.take() else {
            return;
        };
        self.pending_platform = None;
        match (result, p.goal) {
            (Ok(core), PlanGoal::Replan) => {
                self.doc.replace(core);
                self.reselect();
                self.cache = ViewCache::default();
            }
            (Ok(core), PlanGoal::Open(path)) => {
                self.cancel_exact();
                self.doc = Document { core, shown: 0 };
                self.selection = Selection::default();
                self.error = None;
                self.cache = ViewCache::default();
                self.prefs.remember(&path);
            }
            (Err(e), goal) => {
                self.error = Some(e.to_string());
                if matches!(goal, PlanGoal::Replan) {
                    self.prefs.lifetimes = self.doc.request.lifetimes;
                    self.prefs.align = self.doc.request.align;
                    self.prefs.order = self.doc.request.order;
                }
            }
        }
    }

    fn start_exact(&mut self) {
        self.cancel_exact();
        match ExactJob::start(self.doc.current().clone(), self.doc.shown) {
            Ok(job) => self.exact_job = Some(job),
            Err(e) => self.error = Some(e),
        }
    }

    /// Starts File → "Save optimised model…" for the runtime of the chosen lifetimes.
    fn start_optimize(&mut self, out: &Path) {
        if self.optimize_job.is_some() {
            return;
        }
        let crate::document::Source::Model(model) = &*self.doc.source else {
            self.error = Some("only a .tflite model can be optimised, not a CSV problem".into());
            return;
        };
        let original = match &self.doc.path {
            Some(p) => match std::fs::read(p) {
                Ok(b) => b,
                Err(e) => {
                    self.error = Some(format!("cannot read the file ({e}): {}", p.display()));
                    return;
                }
            },
            None => crate::document::SAMPLE_BYTES.to_vec(),
        };
        match OptimizeJob::start(
            (**model).clone(),
            original,
            self.doc.path.clone(),
            out,
            self.prefs.lifetimes,
        ) {
            Ok(job) => self.optimize_job = Some(job),
            Err(e) => self.error = Some(e),
        }
    }

    /// Reports the optimisation once it has ended: before and after, or why nothing was
    /// written.
    fn poll_optimize(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.optimize_job else {
            return;
        };
        let Some(outcome) = job.take_result() else {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let (runtime, out) = (job.lifetimes.name(), job.out.clone());
        self.optimize_job = None;
        match outcome {
            Ok(done) => {
                let offline = done.offline.as_ref().map_or(String::new(), |p| {
                    format!(
                        "; with the {} plan written as its offline plan (its own planner: {} B)",
                        p.planner, p.greedy_head
                    )
                });
                self.status = Some(format!(
                    "Saved the optimised model to {}: {runtime} arena {} B before, {} B after ({:.1} % less; {} order search, {:.1} s){offline}",
                    out.display(),
                    done.before,
                    done.after,
                    done.percent_less(),
                    if done.exact() { "exact" } else { "heuristic" },
                    done.seconds()
                ))
            }
            Err(e @ crate::document::optimize::OptimizeError::SamePath(_)) => {
                self.error = Some(e.to_string())
            }
            Err(e) => self.error = Some(format!("{e}: {}", out.display())),
        }
    }

    fn cancel_exact(&mut self) {
        if let Some(job) = &self.exact_job {
            job.cancel();
        }
    }

    /// Takes the exact solver's result when it is there: the plan is validated and joins the
    /// problem's plans as `exact`.
    fn poll_exact(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.exact_job else { return };
        let Some((out, seconds)) = job.take_result() else {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let index = job.problem;
        let cancelled = job.cancelled();
        self.exact_job = None;
        if index >= self.doc.problem_count() || (cancelled && index != self.doc.shown) {
            return;
        }
        let problem = self.doc.problem(index);
        let plan = match crate::plan::Plan::validated(
            "exact",
            problem,
            out.offsets,
            out.proven_bound,
            seconds,
        ) {
            Ok(plan) => plan,
            Err(v) => {
                self.error = Some(format!("the exact solver produced an invalid plan ({v})"));
                return;
            }
        };
        self.status = Some(if plan.optimal() {
            format!(
                "exact: the optimum is {} B, proven in {seconds:.1} s",
                plan.arena_bytes
            )
        } else {
            format!(
                "exact: best {} B, proven bound {} B ({})",
                plan.arena_bytes,
                plan.proven_bound.unwrap_or(plan.lower_bound),
                if cancelled { "cancelled" } else { "time limit" }
            )
        });
        self.doc.add_plan(index, plan);
        self.cache = ViewCache::default();
    }

    fn write_file(&mut self, path: &Path, bytes: &[u8]) {
        match std::fs::write(path, bytes) {
            Ok(()) => self.status = Some(format!("Wrote {}", path.display())),
            Err(e) => self.error = Some(format!("cannot write the file ({e}): {}", path.display())),
        }
    }

    /// Applies the queued commands, in order; the hover of this frame becomes the shown one.
    pub fn apply_commands(&mut self) {
        for c in std::mem::take(&mut self.commands) {
            self.apply(c);
        }
        self.selection.hovered = self.hovered_next.take();
    }

    fn apply(&mut self, c: Command) {
        match c {
            Command::Select(t) => {
                self.selection_before = self.selection;
                let hovered = self.selection.hovered;
                self.selection = Selection::of(self.doc.model(), self.doc.current(), t);
                self.selection.hovered = hovered;
            }
            Command::RevertSelect => {
                let hovered = self.selection.hovered;
                self.selection = self.selection_before;
                self.selection.hovered = hovered;
            }
            Command::OpenDialog => {
                if let Some(p) = (self.open_dialog)() {
                    self.open(&p);
                }
            }
            Command::Hover(t) => self.hovered_next = Some(t),
            Command::Open(p) => self.open(&p),
            Command::ShowPanel(p) => self.prefs.panel = p,
            Command::ShowProblem(k) => {
                let count = self.doc.problem_count();
                if k >= count {
                    let n = startup::no_such_problem(k, count, self.prefs.lifetimes);
                    self.notice(n);
                    self.doc.shown = 0;
                } else if k != self.doc.shown {
                    self.doc.shown = k;
                }
                // The same tensor, if the problem shown has it.
                let model = self.doc.model();
                let number = self
                    .selection
                    .key
                    .and_then(|key| key.number_in(model, self.doc.current()));
                if number.is_none() {
                    self.selection = Selection::default();
                } else {
                    self.selection.selected = number;
                }
            }
            Command::SetLifetimes(l) => {
                if l != self.prefs.lifetimes {
                    self.prefs.lifetimes = l;
                    // No order search under XNNPACK (the partitions depend on the order).
                    if l == crate::analysis::Lifetimes::Xnnpack {
                        self.prefs.order = crate::document::OrderChoice::File;
                    }
                    self.replan();
                }
            }
            Command::SetIsa(isa) => {
                self.doc.set_isa(isa);
                self.cache.forget_headline();
            }
            Command::SetPlatform(p) => {
                if p != self.pending_platform.unwrap_or(self.doc.request.platform) {
                    self.pending_platform = Some(p);
                    self.replan();
                }
            }
            Command::CancelPlan => self.cancel_plan(),
            Command::SetAlign(a) => {
                if a != self.prefs.align {
                    self.prefs.align = a;
                    self.replan();
                }
            }
            Command::SetOrder(o) => {
                if o != self.prefs.order {
                    self.prefs.order = o;
                    self.replan();
                }
            }
            Command::SetBeforeAfter(b) => self.prefs.before_after = b,
            Command::SetPrimary(id) => self.prefs.primary = id,
            Command::SetCompare(ids) => self.prefs.compare = ids,
            Command::SetDark(d) => self.prefs.dark = d,
            Command::StartExact => self.start_exact(),
            Command::CancelExact => self.cancel_exact(),
            Command::SaveOptimized(path) => self.start_optimize(&path),
            Command::CancelOptimize => {
                if let Some(job) = &self.optimize_job {
                    job.cancel();
                }
            }
            Command::Screenshot(p) => self.screenshot.request(p, false),
            Command::ExportView { path, png } => {
                let svg = self.current_view_svg();
                if png {
                    match crate::export::png::svg_to_png(&svg) {
                        Ok(bytes) => self.write_file(&path, &bytes),
                        Err(e) => self.error = Some(format!("{e}: {}", path.display())),
                    }
                } else {
                    self.write_file(&path, svg.as_bytes());
                }
            }
            Command::ExportJson(path) => {
                let json = self.plan_json();
                self.write_file(&path, json.as_bytes());
            }
            Command::ExportCsv(path) => {
                let views = self.frame_views();
                let csv = panels::exports::plan_csv(&self.frame(&views));
                self.write_file(&path, csv.as_bytes());
            }
            Command::SetTableFilter(s) => self.table.filter = s,
            Command::SetBudgetText(text) => {
                if text.trim().is_empty() {
                    self.prefs.budget = None;
                    self.budget_field.error = None;
                } else {
                    match crate::document::parse_budget(&text) {
                        Ok(b) => {
                            self.prefs.budget = Some(b);
                            self.budget_field.error = None;
                        }
                        // No verdict on a budget the field no longer says.
                        Err(e) => {
                            self.prefs.budget = None;
                            self.budget_field.error = Some(e.to_string());
                        }
                    }
                }
                self.budget_field.text = text;
            }
            Command::SortTable(i) => {
                self.table.sort = if self.table.sort.0 == i {
                    (i, !self.table.sort.1)
                } else {
                    (i, true)
                };
            }
            Command::DismissError => self.error = None,
            Command::DismissStatus => self.status = None,
            Command::SetTflmTarget(t) => {
                self.prefs.tflm_target = t;
                self.cache.forget_headline();
            }
            Command::Notice(text) => self.status = Some(text),
        }
    }

    /// The whole window's contents (also what the UI tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        ctx.set_theme(if self.prefs.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        // Ctrl+O opens a file through File → Open…'s dialog; Ctrl+Q quits.
        if ctx.input_mut(|i| i.consume_shortcut(&panels::menu::OPEN_SHORTCUT)) {
            self.push(Command::OpenDialog);
        }
        if ctx.input_mut(|i| i.consume_shortcut(&panels::menu::QUIT_SHORTCUT)) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        // Drag and drop.
        let dropped: Option<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .find(|p| !p.as_os_str().is_empty())
        });
        if let Some(p) = dropped {
            self.push(Command::Open(p));
        }
        let views = self.frame_views();
        let mut out = Vec::new();
        {
            let f = self.frame(&views);
            panels::menu::ui(&f, ui, &mut out);
            panels::settings::ui(&f, ui, &mut out);
            panels::details::ui(&f, ui, &mut out);
            egui::CentralPanel::default().show(ui, |ui| {
                panels::messages(&f, ui, &mut out);
                panels::tab_bar(&f, ui, &mut out);
                ui.separator();
                panels::central(&f, ui, &mut out);
            });
        }
        self.commands.extend(out);
        // A frame that changed the state is followed by one that shows it.
        let changed = self
            .commands
            .iter()
            .any(|c| !matches!(c, Command::Hover(_)));
        if changed {
            ctx.request_repaint();
        }
        self.apply_commands();
        self.poll_exact(&ctx);
        self.poll_optimize(&ctx);
        self.poll_plan(Some(&ctx));
        // The title names the file shown, and follows an open.
        let title = self.window_title();
        if title != self.title_sent {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title_sent = title;
        }
        match self.screenshot.step(&ctx) {
            screenshot::Step::Nothing => {}
            screenshot::Step::Saved(p) => {
                self.status = Some(format!("Saved the screenshot to {}", p.display()))
            }
            screenshot::Step::Failed(e) => self.error = Some(e),
        }
    }
}

impl eframe::App for ArenaApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // A `--screenshot` run leaves the user's remembered preferences alone.
        if !self.screenshot.exit_after {
            eframe::set_value(storage, eframe::APP_KEY, &self.prefs);
        }
    }
}

/// Opens the window. With `screenshot`, renders a few frames, saves the PNG and returns.
pub fn run(opts: RunOptions) -> Result<(), String> {
    let outcome: Arc<Mutex<Option<Result<(), String>>>> = Arc::new(Mutex::new(None));
    let outcome_app = outcome.clone();
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("arenascope")
            .with_inner_size([1600.0, 1000.0])
            .with_min_inner_size([800.0, 500.0])
            .with_drag_and_drop(true),
        persist_window: opts.screenshot.is_none(),
        ..Default::default()
    };
    let screenshot_run = opts.screenshot.is_some();
    eframe::run_native(
        "arenascope",
        native,
        Box::new(move |cc| {
            let prefs: Preferences = if screenshot_run {
                Preferences::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            let mut app = ArenaApp::with_options(prefs, &opts)?;
            app.screenshot.outcome = outcome_app;
            if let Some(path) = opts.screenshot {
                app.screenshot.request(path, true);
            }
            Ok(Box::new(app))
        }),
    )
    .map_err(|e| format!("cannot open the window: {e}"))?;
    if screenshot_run {
        let result = outcome.lock().ok().and_then(|mut o| o.take());
        return result
            .unwrap_or_else(|| Err("the window closed before the screenshot was taken".into()));
    }
    Ok(())
}
