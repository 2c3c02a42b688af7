//! The eframe application (behind the `gui` feature): one document, one selection shared by
//! every panel, settings remembered between runs.
//!
//! Each frame the panels read the state and push [`Command`]s (select, hover, open); the app
//! applies them once at the end of the frame, so a tensor picked anywhere is highlighted
//! everywhere in the next one (rerun's selection model).

mod document;
pub mod panels;
mod plots;
mod theme;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub use document::{Document, TensorRow};
pub use panels::Panel;

use crate::analysis::Lifetimes;
use crate::view::{ConflictView, GanttView, LayoutView, MemoryView};
use theme::Colors;

/// What the user chose, remembered between runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    pub dark: bool,
    pub lifetimes: Lifetimes,
    /// Offset alignment of the generic planners (`None`: the convention's default).
    pub align: Option<u64>,
    /// The planner whose plan the layout, table and details show first.
    pub primary: String,
    /// Planners side by side in the comparison (two to four).
    pub compare: Vec<String>,
    pub panel: Panel,
    pub recent: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dark: false,
            lifetimes: Lifetimes::Litert,
            align: None,
            primary: "litert".into(),
            compare: vec![
                "litert".into(),
                "size-best-fit".into(),
                "best-fit-coalesce".into(),
            ],
            panel: Panel::Layout,
            recent: Vec::new(),
        }
    }
}

/// What panels ask the app to do; applied once per frame.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Select a tensor (its number in the current problem), or clear the selection.
    Select(Option<usize>),
    Hover(usize),
    Open(PathBuf),
}

/// Views computed from the current problem, kept until the problem or plans change.
#[derive(Default)]
pub struct ViewCache {
    layouts: HashMap<(usize, usize), Arc<LayoutView>>,
    gantt: HashMap<usize, Arc<GanttView>>,
    memory: HashMap<usize, Arc<MemoryView>>,
    conflicts: HashMap<(usize, Option<usize>), Arc<ConflictView>>,
    rows: HashMap<usize, Arc<Vec<TensorRow>>>,
    metrics: HashMap<usize, Arc<Vec<crate::plan::Metrics>>>,
    /// Painted shapes per plot, reused while nothing but the highlight changes.
    shapes: HashMap<String, Arc<plots::ShapeCache>>,
}

/// The exact solver running on a background thread for one problem.
pub struct ExactJob {
    pub problem: usize,
    pub cancel: Arc<AtomicBool>,
    pub progress: Arc<crate::planner::exact::Progress>,
    result: Arc<Mutex<Option<(crate::planner::Outcome, f64)>>>,
    pub started: Instant,
}

/// Time limit of the exact solver in the app.
pub const EXACT_SECONDS: f64 = 60.0;

/// Conflict graphs above this many buffers show the selected tensor's neighbourhood.
pub const GRAPH_MAX_NODES: usize = 400;

pub struct ArenaApp {
    pub settings: Settings,
    pub doc: Document,
    /// Index of the problem shown (the subgraph, for litert lifetimes on a model).
    pub problem: usize,
    /// The selected tensor (number in the current problem).
    pub selected: Option<usize>,
    /// The tensor hovered in the previous frame.
    pub hovered: Option<usize>,
    hovered_next: Option<usize>,
    pub error: Option<String>,
    pub status: Option<String>,
    pub table_filter: String,
    pub table_sort: (usize, bool),
    cache: ViewCache,
    commands: Vec<Command>,
    screenshot: ScreenshotState,
    /// The exact solver, while it runs.
    pub exact_job: Option<ExactJob>,
}

/// `--screenshot` and File → Export screenshot: render, grab the pixels, save a PNG.
#[derive(Default)]
struct ScreenshotState {
    /// Where to save the next screenshot.
    target: Option<PathBuf>,
    /// Exit after saving (the `--screenshot` flag).
    exit_after: bool,
    frames: u32,
    requested: bool,
    image: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    /// Result for the process exit code.
    outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

impl ArenaApp {
    /// A new app on `file` (or the embedded sample), with `settings`.
    pub fn new(settings: Settings, file: Option<&Path>) -> Self {
        let mut error = None;
        let doc = match file {
            Some(path) => match Document::open(path, settings.lifetimes, settings.align) {
                Ok(d) => Some(d),
                Err(e) => {
                    error = Some(e);
                    None
                }
            },
            None => None,
        };
        let doc = match doc {
            Some(d) => d,
            None => Document::sample(settings.lifetimes, settings.align)
                .expect("the embedded sample model loads"),
        };
        let mut app = ArenaApp {
            settings,
            doc,
            problem: 0,
            selected: None,
            hovered: None,
            hovered_next: None,
            error,
            status: None,
            table_filter: String::new(),
            table_sort: (0, true),
            cache: ViewCache::default(),
            commands: Vec::new(),
            screenshot: ScreenshotState::default(),
            exact_job: None,
        };
        if let Some(p) = file.filter(|_| app.error.is_none()) {
            app.remember(p);
        }
        app
    }

    fn remember(&mut self, path: &Path) {
        let recent = &mut self.settings.recent;
        recent.retain(|p| p != path);
        recent.insert(0, path.to_path_buf());
        recent.truncate(10);
    }

    /// Opens a file; on failure the error is shown and the current model stays.
    pub fn open(&mut self, path: &Path) {
        match Document::open(path, self.settings.lifetimes, self.settings.align) {
            Ok(doc) => {
                self.cancel_exact();
                self.doc = doc;
                self.problem = 0;
                self.selected = None;
                self.hovered = None;
                self.error = None;
                self.cache = ViewCache::default();
                self.remember(path);
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Re-plans after a change of lifetimes or alignment.
    pub fn replan(&mut self) {
        match self
            .doc
            .replan(self.settings.lifetimes, self.settings.align)
        {
            Ok(()) => {
                self.problem = self.problem.min(self.doc.problem_count() - 1);
                self.selected = None;
                self.cache = ViewCache::default();
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Starts the exact solver on the current problem, on a background thread: the window
    /// stays responsive, `poll_exact` picks up the result.
    pub fn start_exact(&mut self) {
        self.cancel_exact();
        let problem = self.doc.problem(self.problem).clone();
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(crate::planner::exact::Progress::default());
        let result = Arc::new(Mutex::new(None));
        let (c, p, r) = (cancel.clone(), progress.clone(), result.clone());
        let spawned = std::thread::Builder::new()
            .name("exact".into())
            .spawn(move || {
                let t0 = Instant::now();
                let settings = crate::planner::Settings {
                    time_limit_secs: EXACT_SECONDS,
                    capacity: None,
                };
                let control = crate::planner::exact::Control {
                    cancel: Some(&c),
                    progress: Some(&p),
                };
                let out = crate::planner::exact::minimise(&problem, &settings, control);
                if let Ok(mut slot) = r.lock() {
                    *slot = Some((out, t0.elapsed().as_secs_f64()));
                }
            });
        if let Err(e) = spawned {
            self.error = Some(format!("cannot start the exact solver: {e}"));
            return;
        }
        self.exact_job = Some(ExactJob {
            problem: self.problem,
            cancel,
            progress,
            result,
            started: Instant::now(),
        });
    }

    /// Asks a running exact solver to stop; it returns its best plan so far.
    pub fn cancel_exact(&mut self) {
        if let Some(job) = &self.exact_job {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Takes the exact solver's result when it is there: the plan is validated and joins the
    /// problem's plans as `exact`.
    fn poll_exact(&mut self, ctx: &egui::Context) {
        let Some(job) = &self.exact_job else { return };
        let done = job.result.lock().ok().and_then(|mut r| r.take());
        let Some((out, seconds)) = done else {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
            return;
        };
        let index = job.problem;
        let cancelled = job.cancel.load(Ordering::Relaxed);
        self.exact_job = None;
        if index >= self.doc.problem_count() || (cancelled && index != self.problem) {
            return;
        }
        let problem = self.doc.problem(index);
        if let Err(v) = crate::plan::validate(problem, &out.offsets, None) {
            self.error = Some(format!("the exact solver produced an invalid plan ({v})"));
            return;
        }
        let plan = crate::plan::Plan {
            planner: "exact",
            arena_bytes: crate::plan::arena_bytes(problem, &out.offsets),
            lower_bound: problem.lower_bound(),
            proven_bound: out.proven_bound,
            offsets: out.offsets,
            seconds,
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
        let plans = &mut self.doc.planned[index].plans;
        plans.retain(|p| p.planner != "exact");
        plans.push(plan);
        self.cache = ViewCache::default();
    }

    pub fn colors(&self) -> Colors {
        Colors::new(self.settings.dark)
    }

    /// Index of a planner's plan in the current problem.
    pub fn plan_index(&self, id: &str) -> Option<usize> {
        self.doc
            .plans(self.problem)
            .iter()
            .position(|p| p.planner == id)
    }

    /// The primary plan: the chosen planner, else the runtime emulation, else the smallest.
    pub fn primary_index(&self) -> usize {
        let plans = self.doc.plans(self.problem);
        let runtime = self.doc.problem(self.problem).lifetimes.map(|l| l.name());
        self.plan_index(&self.settings.primary)
            .or_else(|| runtime.and_then(|r| self.plan_index(r)))
            .or_else(|| (0..plans.len()).min_by_key(|&i| (plans[i].arena_bytes, i)))
            .unwrap_or(0)
    }

    /// Plans shown side by side (2 to 4; defaults when the chosen ones do not apply).
    pub fn compare_indices(&self) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .settings
            .compare
            .iter()
            .filter_map(|id| self.plan_index(id))
            .collect();
        v.dedup();
        if v.len() < 2 {
            v = crate::cli::default_compare(
                self.doc.plans(self.problem),
                self.doc.problem(self.problem).lifetimes,
            );
        }
        v.truncate(4);
        v
    }

    pub fn layout_view(&mut self, plan: usize) -> Arc<LayoutView> {
        let key = (self.problem, plan);
        if let Some(v) = self.cache.layouts.get(&key) {
            return v.clone();
        }
        let v = Arc::new(LayoutView::build(
            self.doc.problem(self.problem),
            &self.doc.plans(self.problem)[plan],
        ));
        self.cache.layouts.insert(key, v.clone());
        v
    }

    pub fn gantt_view(&mut self) -> Arc<GanttView> {
        let p = self.problem;
        self.cache
            .gantt
            .entry(p)
            .or_insert_with(|| Arc::new(GanttView::build(self.doc.problem(p))))
            .clone()
    }

    pub fn memory_view(&mut self) -> Arc<MemoryView> {
        let p = self.problem;
        let doc = &self.doc;
        self.cache
            .memory
            .entry(p)
            .or_insert_with(|| {
                let plans: Vec<&crate::plan::Plan> = doc.plans(p).iter().collect();
                Arc::new(MemoryView::build(doc.problem(p), &plans))
            })
            .clone()
    }

    /// The conflict graph (for large problems, around the selected buffer).
    pub fn conflict_view(&mut self) -> Arc<ConflictView> {
        let problem = self.doc.problem(self.problem);
        let focus = if problem.buffers.len() > GRAPH_MAX_NODES {
            self.selected_buffer()
        } else {
            None
        };
        let key = (self.problem, focus);
        if let Some(v) = self.cache.conflicts.get(&key) {
            return v.clone();
        }
        let v = Arc::new(ConflictView::build(problem, focus, GRAPH_MAX_NODES));
        self.cache.conflicts.insert(key, v.clone());
        v
    }

    /// The shape cache of a plot (emptied with the views when the problem changes).
    pub fn shape_cache(&mut self, plot: &str) -> Arc<plots::ShapeCache> {
        self.cache
            .shapes
            .entry(plot.to_string())
            .or_default()
            .clone()
    }

    /// Metrics of every plan of the current problem, in plan order.
    pub fn metrics(&mut self) -> Arc<Vec<crate::plan::Metrics>> {
        let p = self.problem;
        let doc = &self.doc;
        self.cache
            .metrics
            .entry(p)
            .or_insert_with(|| {
                let problem = doc.problem(p);
                Arc::new(
                    doc.plans(p)
                        .iter()
                        .map(|plan| crate::plan::metrics(problem, &plan.offsets))
                        .collect(),
                )
            })
            .clone()
    }

    pub fn tensor_rows(&mut self) -> Arc<Vec<TensorRow>> {
        let p = self.problem;
        let doc = &self.doc;
        self.cache
            .rows
            .entry(p)
            .or_insert_with(|| Arc::new(doc.tensor_rows(p)))
            .clone()
    }

    /// The buffer id of the selected tensor (its own, or its alias root's).
    pub fn selected_buffer(&self) -> Option<usize> {
        self.buffer_of(self.selected?)
    }

    pub fn hovered_buffer(&self) -> Option<usize> {
        self.buffer_of(self.hovered?)
    }

    fn buffer_of(&self, tensor: usize) -> Option<usize> {
        let problem = self.doc.problem(self.problem);
        problem
            .buffers
            .iter()
            .position(|b| b.tensor == tensor)
            .or_else(|| {
                problem
                    .aliases
                    .iter()
                    .find(|a| a.tensor == tensor)
                    .map(|a| a.root)
            })
    }

    /// The tensor number of a buffer id.
    pub fn tensor_of(&self, buffer: usize) -> Option<usize> {
        self.doc
            .problem(self.problem)
            .buffers
            .get(buffer)
            .map(|b| b.tensor)
    }

    pub fn push(&mut self, c: Command) {
        self.commands.push(c);
    }

    /// Applies this frame's commands.
    fn apply_commands(&mut self) {
        for c in std::mem::take(&mut self.commands) {
            match c {
                Command::Select(t) => self.selected = t,
                Command::Hover(t) => self.hovered_next = Some(t),
                Command::Open(p) => self.open(&p),
            }
        }
        self.hovered = self.hovered_next.take();
    }

    /// The whole window's contents (also what the UI tests drive).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        ctx.set_theme(if self.settings.dark {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        // Drag and drop.
        let dropped: Vec<PathBuf> = ctx.input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        if let Some(p) = dropped.into_iter().next() {
            self.push(Command::Open(p));
        }
        panels::top_bar(self, ui);
        panels::settings_panel(self, ui);
        panels::details_panel(self, ui);
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(e) = self.error.clone() {
                ui.horizontal(|ui| {
                    ui.colored_label(ui.visuals().error_fg_color, format!("Error: {e}"));
                    if ui.small_button("Dismiss").clicked() {
                        self.error = None;
                    }
                });
            }
            if let Some(s) = self.status.clone() {
                ui.horizontal(|ui| {
                    ui.label(s);
                    if ui.small_button("OK").clicked() {
                        self.status = None;
                    }
                });
            }
            panels::tab_bar(self, ui);
            ui.separator();
            match self.settings.panel {
                Panel::Summary => panels::summary::ui(self, ui),
                Panel::Tensors => panels::table::ui(self, ui),
                Panel::Gantt => panels::gantt::ui(self, ui),
                Panel::Layout => panels::layout::ui(self, ui),
                Panel::Conflicts => panels::conflicts::ui(self, ui),
                Panel::Memory => panels::memory::ui(self, ui),
                Panel::Compare => panels::compare::ui(self, ui),
            }
        });
        self.apply_commands();
        self.poll_exact(&ctx);
        self.screenshot_step(&ctx);
    }

    /// Asks for a screenshot to be saved to `path` (after the next frames are drawn).
    pub fn request_screenshot(&mut self, path: PathBuf, exit_after: bool) {
        self.screenshot.target = Some(path);
        self.screenshot.exit_after = exit_after;
        self.screenshot.frames = 0;
        self.screenshot.requested = false;
    }

    fn screenshot_step(&mut self, ctx: &egui::Context) {
        let Some(target) = self.screenshot.target.clone() else {
            return;
        };
        ctx.request_repaint();
        self.screenshot.frames += 1;
        // Let a few frames settle (layout, fonts, plot bounds) before grabbing.
        if !self.screenshot.requested && self.screenshot.frames >= 6 {
            let slot = self.screenshot.image.clone();
            ctx.request_screenshot(move |image| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(image);
                }
            });
            self.screenshot.requested = true;
        }
        let image = self.screenshot.image.lock().ok().and_then(|mut s| s.take());
        if let Some(image) = image {
            let result = save_png(&image, &target);
            match &result {
                Ok(()) => {
                    self.status = Some(format!("Saved the screenshot to {}", target.display()))
                }
                Err(e) => self.error = Some(e.clone()),
            }
            if let Ok(mut o) = self.screenshot.outcome.lock() {
                *o = Some(result);
            }
            self.screenshot.target = None;
            if self.screenshot.exit_after {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        } else if self.screenshot.frames > 600 {
            if let Ok(mut o) = self.screenshot.outcome.lock() {
                *o = Some(Err(
                    "the window never delivered its pixels for the screenshot".into(),
                ));
            }
            self.screenshot.target = None;
            if self.screenshot.exit_after {
                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            }
        }
    }
}

fn save_png(image: &egui::ColorImage, path: &Path) -> Result<(), String> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|p| p.to_array()).collect();
    let png = crate::export::svg::rgba_to_png(w as u32, h as u32, rgba)
        .map_err(|e| format!("{e}: {}", path.display()))?;
    std::fs::write(path, png)
        .map_err(|e| format!("cannot write the screenshot ({e}): {}", path.display()))
}

impl eframe::App for ArenaApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        // A `--screenshot` run leaves the user's remembered settings alone.
        if !self.screenshot.exit_after {
            eframe::set_value(storage, eframe::APP_KEY, &self.settings);
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
            let mut settings: Settings = if screenshot_run {
                Settings::default()
            } else {
                cc.storage
                    .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
                    .unwrap_or_default()
            };
            if let Some(p) = opts.panel {
                settings.panel = p;
            }
            if let Some(d) = opts.dark {
                settings.dark = d;
            }
            let mut app = ArenaApp::new(settings, opts.file.as_deref());
            app.screenshot.outcome = outcome_app;
            if let Some(path) = opts.screenshot {
                app.request_screenshot(path, true);
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
