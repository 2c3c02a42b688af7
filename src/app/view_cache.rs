//! The views of the shown problem, built once and kept until the problem or its plans change,
//! and [`FrameViews`]: what one frame's panels read, built before any of them runs.

use std::collections::HashMap;
use std::sync::Arc;

use super::command::Selection;
use super::document::Document;
use super::panel::Panel;
use super::plots::ShapeCache;
use super::preferences::Preferences;
use crate::analysis::order_bound::OrderBound;
use crate::document::headline::TflmTarget;
use crate::document::{default_compare, Headline, HeadlineOptions, TensorRow};
use crate::plan::Metrics;
use crate::view::{ConflictView, GanttView, LayoutView, MemoryView, PAINT};

/// Views keyed by problem (and plan, focus); emptied when the document is planned again.
#[derive(Default)]
pub struct ViewCache {
    /// Keyed by problem, plan, and how it is shown.
    layouts: HashMap<(usize, usize, Shown), Arc<LayoutView>>,
    /// The shown problem on the file's order (before/after).
    file_gantt: HashMap<usize, Arc<GanttView>>,
    file_memory: HashMap<usize, Arc<MemoryView>>,
    gantt: HashMap<usize, Arc<GanttView>>,
    memory: HashMap<usize, Arc<MemoryView>>,
    conflicts: HashMap<(usize, Option<usize>), Arc<ConflictView>>,
    rows: HashMap<usize, Arc<Vec<TensorRow>>>,
    metrics: HashMap<usize, Arc<Vec<Metrics>>>,
    /// Painted shapes per plot, reused while nothing but the highlight changes.
    shapes: HashMap<String, Arc<ShapeCache>>,
    /// The headline, keyed by what it depends on beyond the plans: the TFLM build, the shown
    /// problem and planner (the document's facts were computed when it was planned).
    headline: Option<(HeadlineKey, Arc<Headline>)>,
}

/// What a headline depends on beyond the plans.
type HeadlineKey = (TflmTarget, usize, &'static str);

/// How a layout is shown: alone, or named by its order in a before/after pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shown {
    Alone,
    BeforeAfter { file_order: bool },
    Lane,
}

/// One plan's layout as a panel draws it.
#[derive(Clone)]
pub struct LayoutPanelView {
    /// Index of the plan in the shown problem's plans.
    pub plan: usize,
    pub view: Arc<LayoutView>,
    pub shapes: Arc<ShapeCache>,
    /// The plot's id (and the key of its shapes).
    pub id: String,
    /// Which problem it draws (and whose plans `plan` indexes).
    pub source: LayoutSource,
}

/// The problem a layout panel view draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayoutSource {
    /// The problem shown.
    Shown,
    /// The problem shown, on the file's order (before/after).
    FileOrder,
    /// Another problem of the document (LiteRT with XNNPACK: the two lanes).
    Problem(usize),
}

/// Everything the panels of one frame read.
#[derive(Clone)]
pub struct FrameViews {
    pub rows: Arc<Vec<TensorRow>>,
    /// Metrics of every plan of the shown problem, in plan order (the summary panel).
    pub metrics: Option<Arc<Vec<Metrics>>>,
    /// The plan shown in the layout, table and details.
    pub primary: usize,
    /// The plans compared side by side.
    pub compare: Vec<usize>,
    /// The primary plan's layout: on the layout panel, and for exports of the panels that
    /// have no picture of their own (built only then: on 20 000 buffers it is the costliest).
    pub layout: Option<LayoutPanelView>,
    /// Under LiteRT with XNNPACK, the layout panel's two lanes: the TFLite arena and the
    /// workspace of the shown problem's subgraph (one of them `layout`), each on its own axes.
    pub layout_lanes: Vec<LayoutPanelView>,
    /// The compared layouts (the compare panel only).
    pub compared: Vec<LayoutPanelView>,
    /// The byte axis the compared layouts share.
    pub compare_top: f64,
    pub gantt: Option<Arc<GanttView>>,
    pub memory: Option<Arc<MemoryView>>,
    /// Before/after: the Gantt chart and the memory curve of the file's order.
    pub file_gantt: Option<Arc<GanttView>>,
    pub file_memory: Option<Arc<MemoryView>>,
    pub conflicts: Option<Arc<ConflictView>>,
    /// What the runtime needs beside the planned arena (TFLM's tail, LiteRT's persistent
    /// arena): it counts against a budget too.
    pub outside_plan_bytes: u64,
    /// The bound no execution order beats (summary panel).
    pub order_bound: Option<Arc<OrderBound>>,
    /// The runtime's number for the file as opened, and the lines beside it.
    pub headline: Arc<Headline>,
}

/// The primary plan: the chosen planner, else the runtime emulation, else the smallest.
pub fn primary_index(doc: &Document, prefs: &Preferences) -> usize {
    let plans = doc.current_plans();
    let runtime = doc.current().lifetimes.map(|l| l.name());
    doc.plan_index(&prefs.primary)
        .or_else(|| runtime.and_then(|r| doc.plan_index(r)))
        .or_else(|| (0..plans.len()).min_by_key(|&i| (plans[i].arena_bytes, i)))
        .unwrap_or(0)
}

/// Plans shown side by side, 2 to 4: the ones chosen (`prefs.compare`), else
/// [`default_compare`] (the set `export --view compare` draws). A chosen runtime emulation that
/// does not run on the shown problem (`litert` chosen on LiteRT, then TFLM lifetimes or an
/// XNNPACK workspace shown) stands for the shown problem's own: the runtime's plan stays in.
pub fn compare_indices(doc: &Document, prefs: &Preferences) -> Vec<usize> {
    let runtime = doc.current().lifetimes.map(|l| l.name());
    let emulation =
        |id: &str| crate::planner::find(id).is_some_and(|p| p.scope != crate::planner::Scope::Any);
    let mut v: Vec<usize> = Vec::new();
    for id in &prefs.compare {
        let k = doc.plan_index(id).or_else(|| {
            emulation(id)
                .then_some(runtime)
                .flatten()
                .and_then(|r| doc.plan_index(r))
        });
        if let Some(k) = k.filter(|k| !v.contains(k)) {
            v.push(k);
        }
    }
    if v.len() < 2 {
        v = default_compare(doc.current_plans(), doc.current().lifetimes);
    }
    v.truncate(4);
    v
}

impl ViewCache {
    /// The estimate's CPU class changed: the headline is made again, nothing else.
    pub fn forget_headline(&mut self) {
        self.headline = None;
    }

    fn layout(&mut self, doc: &Document, plan: usize, id: &str) -> LayoutPanelView {
        let p = doc.shown;
        let view = self
            .layouts
            .entry((p, plan, Shown::Alone))
            .or_insert_with(|| {
                Arc::new(LayoutView::build(doc.current(), &doc.current_plans()[plan]))
            })
            .clone();
        self.panel_view(view, plan, format!("{id}-{plan}"), p, LayoutSource::Shown)
    }

    /// A layout view with the painted-shape cache of its plot (`id`, on problem `p`).
    fn panel_view(
        &mut self,
        view: Arc<LayoutView>,
        plan: usize,
        id: String,
        p: usize,
        source: LayoutSource,
    ) -> LayoutPanelView {
        let shapes = self.shapes.entry(format!("{id}/{p}")).or_default().clone();
        LayoutPanelView {
            plan,
            view,
            shapes,
            id,
            source,
        }
    }

    /// Before/after: planner `planner`'s layout on the file's order and on the optimised one.
    fn before_after(&mut self, doc: &Document, planner: &str) -> Vec<LayoutPanelView> {
        let p = doc.shown;
        let (Some(file), Some(now)) = (doc.file_order(p), doc.plan_index(planner)) else {
            return Vec::new();
        };
        let Some(before) = file.plans.iter().position(|x| x.planner == planner) else {
            return Vec::new();
        };
        [(true, before), (false, now)]
            .into_iter()
            .map(|(file_order, plan)| {
                let view = self
                    .layouts
                    .entry((p, plan, Shown::BeforeAfter { file_order }))
                    .or_insert_with(|| {
                        let (problem, plans) = if file_order {
                            (&file.problem, &file.plans)
                        } else {
                            (doc.current(), &doc.core.planned[p].plans)
                        };
                        let mut v = LayoutView::build(problem, &plans[plan]);
                        v.order = Some(
                            if file_order {
                                "file's order"
                            } else {
                                "optimised order"
                            }
                            .to_string(),
                        );
                        Arc::new(v)
                    })
                    .clone();
                let id = format!(
                    "compare-{}-{plan}",
                    if file_order { "before" } else { "after" }
                );
                let source = if file_order {
                    LayoutSource::FileOrder
                } else {
                    LayoutSource::Shown
                };
                self.panel_view(view, plan, id, p, source)
            })
            .collect()
    }

    /// Under LiteRT with XNNPACK, the shown problem's subgraph's TFLite arena and its
    /// workspace (the shown one, else the largest by XNNPACK's plan), as problem indices, and
    /// the number of workspaces of the subgraph.
    fn xnnpack_pair(doc: &Document) -> Option<(Option<usize>, Option<usize>, usize)> {
        use crate::analysis::XnnpackPart;
        let current = doc.current();
        current.xnnpack?;
        let same = |k: &usize| doc.problem(*k).subgraph == current.subgraph;
        let arena = (0..doc.problem_count())
            .filter(same)
            .find(|&k| doc.problem(k).xnnpack == Some(XnnpackPart::TfliteArena));
        let workspaces: Vec<usize> = (0..doc.problem_count())
            .filter(same)
            .filter(|&k| doc.problem(k).partition().is_some())
            .collect();
        let xnnpack_arena = |k: usize| {
            doc.plans(k)
                .iter()
                .find(|x| x.planner == "xnnpack")
                .map_or(0, |x| x.arena_bytes)
        };
        let workspace = if current.partition().is_some() {
            Some(doc.shown)
        } else {
            workspaces.iter().copied().max_by_key(|&k| xnnpack_arena(k))
        };
        Some((arena, workspace, workspaces.len()))
    }

    /// Problem `k`'s plan by planner `id`, drawn beside the shown problem as an XNNPACK lane:
    /// the TFLite arena, or a workspace (captioned with its partition).
    fn lane(
        &mut self,
        doc: &Document,
        k: usize,
        id: &str,
        workspaces: usize,
    ) -> Option<LayoutPanelView> {
        let plan = doc.plans(k).iter().position(|x| x.planner == id)?;
        let view = self
            .layouts
            .entry((k, plan, Shown::Lane))
            .or_insert_with(|| {
                let problem = doc.problem(k);
                let mut v = LayoutView::build(problem, &doc.plans(k)[plan]);
                v.order = Some(match problem.partition() {
                    Some(part) => format!(
                        "XNNPACK workspace of partition {part} (the largest of {workspaces})"
                    ),
                    None => "TFLite arena (the delegated graph)".to_string(),
                });
                Arc::new(v)
            })
            .clone();
        let id = format!("lane-{k}-{plan}");
        Some(self.panel_view(view, plan, id, k, LayoutSource::Problem(k)))
    }

    /// LiteRT with XNNPACK, on a TFLite arena: that arena (its `litert` plan) and the largest
    /// XNNPACK workspace of the same subgraph (its `xnnpack` plan), side by side.
    fn xnnpack_lanes(&mut self, doc: &Document) -> Vec<LayoutPanelView> {
        let Some((Some(arena), workspace, n)) = Self::xnnpack_pair(doc) else {
            return Vec::new();
        };
        if arena != doc.shown {
            return Vec::new();
        }
        [(Some(arena), "litert"), (workspace, "xnnpack")]
            .into_iter()
            .filter_map(|(k, id)| self.lane(doc, k?, id, n))
            .collect()
    }

    /// The layout panel under LiteRT with XNNPACK: the TFLite arena above the workspace, the
    /// shown problem's lane with the chosen plan (`shown`), the other with its runtime's.
    fn layout_lanes(&mut self, doc: &Document, shown: &LayoutPanelView) -> Vec<LayoutPanelView> {
        let Some((arena, workspace, n)) = Self::xnnpack_pair(doc) else {
            return Vec::new();
        };
        let mut lanes = Vec::new();
        for (k, id) in [(arena, "litert"), (workspace, "xnnpack")] {
            match k {
                Some(k) if k == doc.shown => lanes.push(shown.clone()),
                Some(k) => lanes.extend(self.lane(doc, k, id, n)),
                None => {}
            }
        }
        if lanes.len() < 2 {
            lanes.clear();
        }
        lanes
    }

    /// The views the panel `prefs.panel` and the side panes need this frame; with
    /// `for_export`, also the primary layout whatever the panel.
    pub fn frame(
        &mut self,
        doc: &Document,
        prefs: &Preferences,
        selection: Selection,
        for_export: bool,
    ) -> FrameViews {
        let p = doc.shown;
        let problem = doc.current();
        let rows = self
            .rows
            .entry(p)
            .or_insert_with(|| Arc::new(doc.tensor_rows(p)))
            .clone();
        let metrics = (prefs.panel == Panel::Summary).then(|| {
            self.metrics
                .entry(p)
                .or_insert_with(|| {
                    Arc::new(
                        doc.current_plans()
                            .iter()
                            .map(|plan| crate::plan::metrics(problem, &plan.offsets))
                            .collect(),
                    )
                })
                .clone()
        });
        let primary = primary_index(doc, prefs);
        let compare = compare_indices(doc, prefs);
        let layout = (prefs.panel == Panel::Layout || for_export)
            .then(|| self.layout(doc, primary, "layout"));
        let layout_lanes = match (&layout, prefs.panel) {
            (Some(shown), Panel::Layout) => self.layout_lanes(doc, shown),
            _ => Vec::new(),
        };
        let before_after = prefs.before_after && doc.file_order(p).is_some();
        let lanes = if prefs.panel == Panel::Compare {
            self.xnnpack_lanes(doc)
        } else {
            Vec::new()
        };
        let compared: Vec<LayoutPanelView> = if !lanes.is_empty() {
            lanes
        } else if prefs.panel == Panel::Compare && before_after {
            let planner = doc.current_plans()[primary].planner;
            self.before_after(doc, planner)
        } else if prefs.panel == Panel::Compare {
            compare
                .iter()
                .map(|&k| self.layout(doc, k, "compare"))
                .collect()
        } else {
            Vec::new()
        };
        let compare_top =
            LayoutView::shared_axis_top(&compared.iter().map(|c| &*c.view).collect::<Vec<_>>());
        let gantt = (prefs.panel == Panel::Gantt).then(|| {
            self.gantt
                .entry(p)
                .or_insert_with(|| Arc::new(GanttView::build(problem)))
                .clone()
        });
        let memory = (prefs.panel == Panel::Memory).then(|| {
            self.memory
                .entry(p)
                .or_insert_with(|| {
                    let plans: Vec<&crate::plan::Plan> = doc.current_plans().iter().collect();
                    Arc::new(MemoryView::build(problem, &plans))
                })
                .clone()
        });
        let file = doc.file_order(p).filter(|_| before_after);
        let file_gantt = file.filter(|_| prefs.panel == Panel::Gantt).map(|fp| {
            self.file_gantt
                .entry(p)
                .or_insert_with(|| Arc::new(GanttView::build(&fp.problem)))
                .clone()
        });
        let file_memory = file.filter(|_| prefs.panel == Panel::Memory).map(|fp| {
            self.file_memory
                .entry(p)
                .or_insert_with(|| {
                    let plans: Vec<&crate::plan::Plan> = fp.plans.iter().collect();
                    Arc::new(MemoryView::build(&fp.problem, &plans))
                })
                .clone()
        });
        let conflicts = (prefs.panel == Panel::Conflicts).then(|| {
            // Large problems: the neighbourhood of the selected buffer.
            let focus = if problem.buffers.len() > PAINT.graph_max_nodes {
                selection.selected_buffer(problem)
            } else {
                None
            };
            self.conflicts
                .entry((p, focus))
                .or_insert_with(|| {
                    Arc::new(ConflictView::build(problem, focus, PAINT.graph_max_nodes))
                })
                .clone()
        });
        let facts = doc.problem_facts(p);
        let outside_plan_bytes = doc.outside_plan_bytes_for(p, prefs.tflm_target);
        let order_bound = facts
            .and_then(|f| f.order_bound.clone())
            .filter(|_| prefs.panel == Panel::Summary)
            .map(Arc::new);
        let shown = doc
            .current_plans()
            .get(primary)
            .map_or("", |plan| plan.planner);
        let key = (prefs.tflm_target, p, shown);
        let headline = match &self.headline {
            Some((k, h)) if *k == key => h.clone(),
            _ => {
                let h = Arc::new(doc.headline(HeadlineOptions {
                    target: prefs.tflm_target,
                    shown: Some((p, shown)),
                }));
                self.headline = Some((key, h.clone()));
                h
            }
        };
        FrameViews {
            headline,
            order_bound,
            outside_plan_bytes,
            rows,
            metrics,
            primary,
            compare,
            layout,
            layout_lanes,
            compared,
            compare_top,
            gantt,
            memory,
            file_gantt,
            file_memory,
            conflicts,
        }
    }
}
