//! The panels. Each reads the app state and pushes commands; none mutates the selection
//! directly.

pub mod compare;
pub mod conflicts;
pub mod gantt;
pub mod layout;
pub mod memory;
pub mod summary;
pub mod table;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::plots::swatch;
use super::{ArenaApp, Command};
use crate::analysis::Lifetimes;
use crate::export;
use crate::view::{self, format_bytes};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Panel {
    Summary,
    Tensors,
    Gantt,
    #[default]
    Layout,
    Conflicts,
    Memory,
    Compare,
}

impl Panel {
    pub const ALL: [Panel; 7] = [
        Panel::Summary,
        Panel::Tensors,
        Panel::Gantt,
        Panel::Layout,
        Panel::Conflicts,
        Panel::Memory,
        Panel::Compare,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Panel::Summary => "Summary",
            Panel::Tensors => "Tensors",
            Panel::Gantt => "Lifetimes",
            Panel::Layout => "Layout",
            Panel::Conflicts => "Conflicts",
            Panel::Memory => "Memory",
            Panel::Compare => "Compare",
        }
    }

    /// From a command-line name (`layout`, `gantt`, ...).
    pub fn from_name(name: &str) -> Option<Panel> {
        let n = name.to_ascii_lowercase();
        Panel::ALL.into_iter().find(|p| {
            p.title().eq_ignore_ascii_case(&n) || format!("{p:?}").eq_ignore_ascii_case(&n)
        })
    }
}

pub fn tab_bar(app: &mut ArenaApp, ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        for p in Panel::ALL {
            if ui
                .selectable_label(app.settings.panel == p, p.title())
                .clicked()
            {
                app.settings.panel = p;
            }
        }
    });
}

fn save_dialog(name: &str, ext: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_file_name(name)
        .add_filter(ext, &[ext])
        .save_file()
}

fn stem(app: &ArenaApp) -> String {
    let t = app
        .doc
        .title
        .split(' ')
        .next()
        .unwrap_or("arenascope")
        .to_string();
    t.rsplit_once('.').map(|(s, _)| s.to_string()).unwrap_or(t)
}

/// The SVG of the current panel (the layout for panels without a picture).
pub fn current_view_svg(app: &mut ArenaApp) -> String {
    let palette = app.colors().palette;
    let problem = app.doc.problem(app.problem).clone();
    match app.settings.panel {
        Panel::Gantt => export::svg::gantt_svg(&problem, &app.gantt_view(), &palette),
        Panel::Conflicts => export::svg::conflicts_svg(&problem, &app.conflict_view(), &palette),
        Panel::Memory => export::svg::memory_svg(&app.memory_view(), &palette),
        Panel::Compare => {
            let views: Vec<view::LayoutView> = app
                .compare_indices()
                .into_iter()
                .map(|k| (*app.layout_view(k)).clone())
                .collect();
            export::svg::compare_svg(&problem, &views, &palette)
        }
        _ => {
            let k = app.primary_index();
            export::svg::layout_svg(&problem, &app.layout_view(k), &palette)
        }
    }
}

fn write_file(app: &mut ArenaApp, path: &std::path::Path, bytes: &[u8]) {
    match std::fs::write(path, bytes) {
        Ok(()) => app.status = Some(format!("Wrote {}", path.display())),
        Err(e) => app.error = Some(format!("cannot write the file ({e}): {}", path.display())),
    }
}

/// The plan JSON (DESIGN §3.2) of the current problem, every plan.
pub fn plan_json(app: &ArenaApp) -> String {
    let problem = app.doc.problem(app.problem);
    let entries = app
        .doc
        .plans(app.problem)
        .iter()
        .map(|p| export::json::plan_entry(problem, p))
        .collect();
    let (bytes, subgraphs, tensors, operators) = match app.doc.model() {
        Some(m) => (
            m.file_bytes,
            m.subgraphs.len(),
            m.tensor_count(),
            m.operator_count(),
        ),
        None => (0, 1, problem.buffers.len(), 0),
    };
    let path = app
        .doc
        .path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| app.doc.title.clone());
    let doc = export::json::plan_document(
        &export::json::ModelInfo {
            path: &path,
            bytes,
            subgraphs,
            tensors,
            operators,
        },
        entries,
    );
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

pub fn top_bar(app: &mut ArenaApp, ui: &mut egui::Ui) {
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Open…").clicked() {
                    if let Some(p) = rfd::FileDialog::new()
                        .add_filter("TFLite model or MiniMalloc CSV", &["tflite", "csv"])
                        .pick_file()
                    {
                        app.push(Command::Open(p));
                    }
                }
                ui.menu_button("Open recent", |ui| {
                    if app.settings.recent.is_empty() {
                        ui.label("(none yet)");
                    }
                    for p in app.settings.recent.clone() {
                        if ui.button(p.display().to_string()).clicked() {
                            app.push(Command::Open(p));
                        }
                    }
                });
                ui.separator();
                if ui.button("Export screenshot (PNG)…").clicked() {
                    if let Some(p) = save_dialog(&format!("{}-window.png", stem(app)), "png") {
                        app.request_screenshot(p, false);
                    }
                }
                if ui.button("Export this view as SVG…").clicked() {
                    if let Some(p) = save_dialog(
                        &format!(
                            "{}-{}.svg",
                            stem(app),
                            app.settings.panel.title().to_lowercase()
                        ),
                        "svg",
                    ) {
                        let svg = current_view_svg(app);
                        write_file(app, &p, svg.as_bytes());
                    }
                }
                if ui.button("Export this view as PNG…").clicked() {
                    if let Some(p) = save_dialog(
                        &format!(
                            "{}-{}.png",
                            stem(app),
                            app.settings.panel.title().to_lowercase()
                        ),
                        "png",
                    ) {
                        match export::svg::svg_to_png(&current_view_svg(app)) {
                            Ok(png) => write_file(app, &p, &png),
                            Err(e) => app.error = Some(format!("{e}: {}", p.display())),
                        }
                    }
                }
                if ui.button("Export plans as JSON…").clicked() {
                    if let Some(p) = save_dialog(&format!("{}-plans.json", stem(app)), "json") {
                        let json = plan_json(app);
                        write_file(app, &p, json.as_bytes());
                    }
                }
                if ui.button("Export plan as MiniMalloc CSV…").clicked() {
                    if let Some(p) = save_dialog(&format!("{}-plan.csv", stem(app)), "csv") {
                        let k = app.primary_index();
                        let csv = export::csv::write_plan(
                            app.doc.problem(app.problem),
                            &app.doc.plans(app.problem)[k].offsets,
                        );
                        write_file(app, &p, csv.as_bytes());
                    }
                }
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("View", |ui| {
                for p in Panel::ALL {
                    if ui
                        .selectable_label(app.settings.panel == p, p.title())
                        .clicked()
                    {
                        app.settings.panel = p;
                    }
                }
                ui.separator();
                ui.checkbox(&mut app.settings.dark, "Dark theme");
            });
            ui.menu_button("Help", |ui| {
                ui.label("Ctrl + wheel: zoom at the pointer · drag: pan · double-click: reset");
                ui.label("Click a tensor anywhere to select it in every panel.");
                ui.label("Drop a .tflite or MiniMalloc .csv file on the window to open it.");
            });
            ui.separator();
            ui.strong(&app.doc.title);
        });
    });
}

pub fn settings_panel(app: &mut ArenaApp, ui: &mut egui::Ui) {
    egui::Panel::left("settings")
        .resizable(true)
        .default_size(230.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.heading("Model");
                match app.doc.model() {
                    Some(m) => {
                        ui.label(format!(
                            "{} subgraph(s), {} tensors, {} operators, {}",
                            m.subgraphs.len(),
                            m.tensor_count(),
                            m.operator_count(),
                            format_bytes(m.file_bytes)
                        ));
                    }
                    None => {
                        ui.label(format!(
                            "MiniMalloc problem: {} buffers",
                            app.doc.problem(0).buffers.len()
                        ));
                    }
                }
                ui.separator();
                ui.strong("Lifetimes");
                let mut lifetimes = app.settings.lifetimes;
                ui.add_enabled_ui(!app.doc.is_csv(), |ui| {
                    ui.radio_value(&mut lifetimes, Lifetimes::Litert, "LiteRT (per subgraph)");
                    ui.radio_value(&mut lifetimes, Lifetimes::Tflm, "TFLite Micro (one arena)");
                });
                if lifetimes != app.settings.lifetimes {
                    app.settings.lifetimes = lifetimes;
                    app.replan();
                }
                if app.doc.problem_count() > 1 {
                    let mut p = app.problem;
                    let heading = ui.strong("Subgraph");
                    egui::ComboBox::from_id_salt("subgraph")
                        .selected_text(format!("{p}"))
                        .show_ui(ui, |ui| {
                            for k in 0..app.doc.problem_count() {
                                let name = app
                                    .doc
                                    .model()
                                    .and_then(|m| m.subgraphs.get(k))
                                    .map(|s| s.name.clone())
                                    .unwrap_or_default();
                                ui.selectable_value(&mut p, k, format!("{k} {name}"));
                            }
                        })
                        .response
                        .labelled_by(heading.id);
                    if p != app.problem {
                        app.problem = p;
                        app.selected = None;
                    }
                }
                ui.separator();
                ui.strong("Alignment of the generic planners");
                let mut auto = app.settings.align.is_none();
                let mut align = app
                    .settings
                    .align
                    .unwrap_or(app.settings.lifetimes.default_alignment());
                // A MiniMalloc problem brings its own alignments (1 unless a column says).
                let default_label = if app.doc.model().is_some() {
                    format!(
                        "runtime default ({} B)",
                        app.settings.lifetimes.default_alignment()
                    )
                } else {
                    "as in the file".to_string()
                };
                let changed_auto = ui.checkbox(&mut auto, default_label).changed();
                let changed_value = ui
                    .add_enabled(
                        !auto,
                        egui::DragValue::new(&mut align)
                            .range(1..=4096)
                            .suffix(" B"),
                    )
                    .changed();
                if changed_auto || changed_value {
                    app.settings.align = if auto { None } else { Some(align.max(1)) };
                    app.replan();
                }
                ui.separator();
                let heading = ui.strong("Planner shown in the layout");
                let plans: Vec<&'static str> = app
                    .doc
                    .plans(app.problem)
                    .iter()
                    .map(|p| p.planner)
                    .collect();
                let primary = plans[app.primary_index()];
                egui::ComboBox::from_id_salt("primary")
                    .selected_text(primary)
                    .show_ui(ui, |ui| {
                        for id in &plans {
                            if ui.selectable_label(*id == primary, *id).clicked() {
                                app.settings.primary = id.to_string();
                            }
                        }
                    })
                    .response
                    .labelled_by(heading.id);
                ui.separator();
                exact_ui(app, ui);
                ui.separator();
                ui.strong("Compare side by side (2–4)");
                let shown: Vec<&'static str> = app
                    .compare_indices()
                    .into_iter()
                    .map(|k| plans[k])
                    .collect();
                for id in &plans {
                    let mut on = shown.contains(id);
                    let can_add = shown.len() < 4;
                    if ui
                        .add_enabled(on || can_add, egui::Checkbox::new(&mut on, *id))
                        .changed()
                    {
                        let mut next: Vec<String> = shown.iter().map(|s| s.to_string()).collect();
                        if on {
                            next.push(id.to_string());
                        } else if next.len() > 2 {
                            next.retain(|s| s != id);
                        }
                        app.settings.compare = next;
                    }
                }
                ui.separator();
                ui.checkbox(&mut app.settings.dark, "Dark theme");
            });
        });
}

/// The exact solver: start, progress, cancel, result.
fn exact_ui(app: &mut ArenaApp, ui: &mut egui::Ui) {
    ui.strong("Optimal plan");
    if let Some(job) = &app.exact_job {
        use std::sync::atomic::Ordering;
        let (nodes, best, bound) = (
            job.progress.nodes.load(Ordering::Relaxed),
            job.progress.best.load(Ordering::Relaxed),
            job.progress.bound.load(Ordering::Relaxed),
        );
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!(
                "searching {:.0} s",
                job.started.elapsed().as_secs_f64()
            ));
        });
        ui.label(format!("nodes {nodes}, best {best} B, bound {bound} B"));
        if ui.button("Cancel").clicked() {
            app.cancel_exact();
        }
        return;
    }
    if let Some(p) = app
        .doc
        .plans(app.problem)
        .iter()
        .find(|p| p.planner == "exact")
    {
        if p.optimal() {
            ui.label(format!(
                "optimum {} ({} B), proven",
                format_bytes(p.arena_bytes),
                p.arena_bytes
            ));
        } else {
            ui.label(format!(
                "best {} B; proven bound {} B",
                p.arena_bytes,
                p.proven_bound.unwrap_or(p.lower_bound)
            ));
        }
    }
    if ui
        .button("Find the optimum")
        .on_hover_text(format!(
            "The exact planner (branch and bound), up to {:.0} s on a background thread; \
             the window stays responsive and Cancel keeps the best plan found.",
            super::EXACT_SECONDS
        ))
        .clicked()
    {
        app.start_exact();
    }
}

pub fn details_panel(app: &mut ArenaApp, ui: &mut egui::Ui) {
    egui::Panel::right("details")
        .resizable(true)
        .default_size(280.0)
        .show(ui, |ui| {
            ui.heading("Selection");
            let Some(t) = app.selected else {
                ui.label("Click a tensor in any panel to see its details here.");
                return;
            };
            let rows = app.tensor_rows();
            let Some(row) = rows.iter().find(|r| r.tensor == t) else {
                ui.label(format!("tensor {t} is not in this problem"));
                return;
            };
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.label(egui::RichText::new(&row.name).strong());
                egui::Grid::new("details")
                    .num_columns(2)
                    .striped(true)
                    .show(ui, |ui| {
                        let mut kv = |k: &str, v: String| {
                            ui.label(k);
                            ui.label(v);
                            ui.end_row();
                        };
                        kv(
                            "tensor",
                            format!("{} (subgraph {})", row.tensor, row.subgraph),
                        );
                        kv("kind", row.kind.to_string());
                        kv(
                            "shape",
                            if row.dynamic_dims {
                                format!("{} (dynamic dims)", row.shape)
                            } else {
                                row.shape.clone()
                            },
                        );
                        kv("type", row.dtype.clone());
                        kv(
                            "bytes",
                            format!("{} ({})", row.bytes, format_bytes(row.bytes)),
                        );
                        if let (Some(f), Some(l)) = (row.first, row.last) {
                            kv("lifetime", format!("steps {f}..={l}"));
                            let values = &app.doc.problem(app.problem).step_values;
                            if let (Some(a), Some(b)) =
                                (values.get(f as usize), values.get(l as usize + 1))
                            {
                                kv("real times", format!("[{a}, {b})"));
                            }
                        }
                        kv(
                            "producer",
                            row.producer.clone().unwrap_or_else(|| "—".into()),
                        );
                    });
                if !row.consumers.is_empty() {
                    ui.label(egui::RichText::new("Consumers").strong());
                    for c in &row.consumers {
                        ui.label(c);
                    }
                }
                if let Some(buf) = row.buffer {
                    ui.separator();
                    ui.label(egui::RichText::new("Offset in each plan").strong());
                    let problem = app.doc.problem(app.problem);
                    let pad = problem.buffers[buf].padding_bytes();
                    egui::Grid::new("offsets")
                        .num_columns(2)
                        .striped(true)
                        .show(ui, |ui| {
                            for p in app.doc.plans(app.problem) {
                                ui.label(p.planner);
                                ui.label(format!("{}", p.offsets[buf]));
                                ui.end_row();
                            }
                        });
                    ui.label(format!("alignment padding: {pad} B"));
                    if row.kind == "alias" {
                        ui.label(format!(
                            "shares the bytes of tensor {} (in place)",
                            problem.buffers[buf].tensor
                        ));
                    }
                }
                if ui.button("Clear selection").clicked() {
                    app.push(Command::Select(None));
                }
            });
        });
}

/// What a pointer over a plot does: hovering a buffer highlights it and shows its tooltip,
/// clicking selects it; clicking empty space clears the selection.
pub fn plot_interaction(
    app: &mut ArenaApp,
    response: &egui::Response,
    hit: Option<usize>,
    plan: usize,
) {
    match hit {
        Some(b) => {
            if let Some(t) = app.tensor_of(b) {
                app.push(Command::Hover(t));
                if response.clicked() {
                    app.push(Command::Select(Some(t)));
                }
            }
            response
                .clone()
                .on_hover_ui_at_pointer(|ui| buffer_tooltip(app, ui, b, Some(plan)));
        }
        None => {
            if response.clicked() {
                app.push(Command::Select(None));
            }
        }
    }
}

/// Tooltip contents for a buffer (name, shape, type, bytes, lifetime, offset, padding).
pub fn buffer_tooltip(app: &mut ArenaApp, ui: &mut egui::Ui, buffer: usize, plan: Option<usize>) {
    let Some(tensor) = app.tensor_of(buffer) else {
        return;
    };
    let rows = app.tensor_rows();
    let problem = app.doc.problem(app.problem);
    let b = &problem.buffers[buffer];
    ui.label(egui::RichText::new(&b.name).strong());
    if let Some(r) = rows.iter().find(|r| r.tensor == tensor) {
        if !r.shape.is_empty() {
            ui.label(format!("{} {}", r.shape, r.dtype));
        }
    }
    ui.label(format!(
        "{} · {} bytes ({})",
        b.kind.name(),
        b.size_bytes,
        format_bytes(b.size_bytes)
    ));
    ui.label(format!("alive at steps {}..={}", b.first, b.last));
    if let Some(k) = plan {
        let plans = app.doc.plans(app.problem);
        ui.label(format!(
            "offset {} in {}",
            plans[k].offsets[buffer], plans[k].planner
        ));
    }
    let pad = b.padding_bytes();
    if pad > 0 {
        ui.label(format!("alignment padding {pad} B"));
    }
    let aliases: Vec<&str> = problem
        .aliases
        .iter()
        .filter(|a| a.root == buffer)
        .map(|a| a.name.as_str())
        .collect();
    if !aliases.is_empty() {
        ui.label(format!("shared in place with: {}", aliases.join(", ")));
    }
}

/// The colour key of the layout: buffer kinds, padding, holes.
pub fn legend(ui: &mut egui::Ui, colors: &crate::app::theme::Colors) {
    kind_legend(ui, colors);
    swatch(ui, colors.padding(), true);
    ui.label("padding");
    swatch(ui, colors.hole(), false);
    ui.label("hole (free below the top)");
}

/// The colour key of the buffer kinds.
pub fn kind_legend(ui: &mut egui::Ui, colors: &crate::app::theme::Colors) {
    use crate::analysis::BufferKind;
    for (name, kind) in [
        ("input", BufferKind::Input),
        ("output", BufferKind::Output),
        ("activation", BufferKind::Activation),
        ("scratch", BufferKind::Scratch),
    ] {
        swatch(ui, colors.kind(kind), false);
        ui.label(name);
    }
}

/// A plot with the app's common settings: light grid, no box zoom (drag pans).
pub fn base_plot<'a>(id: &str, colors: &crate::app::theme::Colors) -> egui_plot::Plot<'a> {
    egui_plot::Plot::new(id)
        .grid_color(colors.grid())
        .allow_boxed_zoom(false)
        .show_crosshair(false)
}

/// Y axis labels in bytes.
pub fn bytes_axis(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    if mark.value < 0.0 {
        String::new()
    } else {
        view::format_tick(mark.value.round() as u64)
    }
}

/// Grid marks on a byte axis at round KiB / MiB values.
pub fn bytes_grid(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let mut marks = Vec::new();
    let ticks = view::byte_ticks(lo.max(0.0), hi.max(1.0), 6);
    let step = if ticks.len() >= 2 {
        ticks[1] - ticks[0]
    } else {
        hi.max(1.0)
    };
    for t in ticks {
        marks.push(egui_plot::GridMark {
            value: t,
            step_size: step,
        });
    }
    marks
}
