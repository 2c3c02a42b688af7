//! The eframe application (behind the `gui` feature): the headless document with the problem
//! shown, one selection shared by every panel, preferences remembered between runs.
//!
//! Each frame: build the views the panels need ([`view_cache::FrameViews`]), let the panels
//! draw from them and push [`Command`]s, then apply the commands once, so a tensor picked
//! anywhere is highlighted everywhere in the next frame (rerun's selection model).
//!
//! Files: `preferences` (what is remembered), `command` (every state change, the selection),
//! `document` (the headless document and the problem shown), `view_cache` (views per frame),
//! `exact_job` (the background solver), `screenshot`, `plots` (egui_plot items that paint the
//! views), `panels` (one file per panel, plus menu, settings, details, exports).

pub mod command;
pub mod document;
pub mod exact_job;
pub mod optimize_job;
pub mod panels;
pub mod plots;
pub mod preferences;
mod screenshot;
pub mod theme;
pub mod view_cache;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use command::{Command, Selection};
pub use document::Document;
pub use exact_job::ExactJob;
pub use optimize_job::OptimizeJob;
pub use panels::{Frame, Panel};
pub use preferences::Preferences;

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
}

impl ArenaApp {
    /// A new app on `file` (or the embedded sample), with `prefs`.
    pub fn new(prefs: Preferences, file: Option<&Path>) -> Self {
        let mut error = None;
        let doc = match file.map(|p| Document::open(p, prefs.lifetimes, prefs.align, prefs.order)) {
            Some(Ok(d)) => Some(d),
            Some(Err(e)) => {
                error = Some(e.to_string());
                None
            }
            None => None,
        };
        let doc = match doc {
            Some(d) => d,
            None => Document::sample(prefs.lifetimes, prefs.align, prefs.order)
                .expect("the embedded sample model loads"),
        };
        let budget_field = BudgetField {
            text: prefs.budget.map(|b| b.to_string()).unwrap_or_default(),
            error: None,
        };
        let mut app = ArenaApp {
            prefs,
            budget_field,
            doc,
            selection: Selection::default(),
            hovered_next: None,
            error,
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
        };
        if let Some(p) = file.filter(|_| app.error.is_none()) {
            app.prefs.remember(p);
        }
        app
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
        match Document::open(
            path,
            self.prefs.lifetimes,
            self.prefs.align,
            self.prefs.order,
        ) {
            Ok(doc) => {
                self.cancel_exact();
                self.doc = doc;
                self.selection = Selection::default();
                self.error = None;
                self.cache = ViewCache::default();
                self.prefs.remember(path);
            }
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// Plans again after a change of lifetimes or alignment.
    fn replan(&mut self) {
        match self
            .doc
            .replan(self.prefs.lifetimes, self.prefs.align, self.prefs.order)
        {
            Ok(()) => {
                self.selection.selected = None;
                self.cache = ViewCache::default();
            }
            Err(e) => self.error = Some(e.to_string()),
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
        let crate::document::Source::Model(model) = &self.doc.source else {
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
            Command::Select(t) => self.selection.selected = t,
            Command::Hover(t) => self.hovered_next = Some(t),
            Command::Open(p) => self.open(&p),
            Command::ShowPanel(p) => self.prefs.panel = p,
            Command::ShowProblem(k) => {
                if k < self.doc.problem_count() && k != self.doc.shown {
                    self.doc.shown = k;
                    self.selection = Selection::default();
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
                self.cache.forget_xnnpack();
            }
            Command::SetPlatform(p) => {
                if p != self.doc.request.platform {
                    self.doc.set_platform(p);
                    self.replan();
                }
            }
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
                        Err(e) => self.budget_field.error = Some(e.to_string()),
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

/// Options for the GUI beyond the file: the screenshot flag and the panel to show first.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub file: Option<PathBuf>,
    pub screenshot: Option<PathBuf>,
    pub panel: Option<Panel>,
    pub dark: Option<bool>,
    pub budget: Option<u64>,
    pub lifetimes: Option<crate::analysis::Lifetimes>,
    pub order: Option<crate::document::OrderChoice>,
    /// The problem to show first (a subgraph; with XNNPACK, the TFLite arenas then the
    /// workspaces).
    pub problem: Option<usize>,
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
            let mut prefs: Preferences = if screenshot_run {
                Preferences::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            if let Some(p) = opts.panel {
                prefs.panel = p;
            }
            if let Some(d) = opts.dark {
                prefs.dark = d;
            }
            if opts.budget.is_some() {
                prefs.budget = opts.budget;
            }
            if let Some(l) = opts.lifetimes {
                prefs.lifetimes = l;
            }
            if let Some(o) = opts.order {
                prefs.order = o;
            }
            let mut app = ArenaApp::new(prefs, opts.file.as_deref());
            if let Some(k) = opts.problem {
                app.push(Command::ShowProblem(k));
            }
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
