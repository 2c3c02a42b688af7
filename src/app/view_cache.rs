//! The views of the shown problem, built once and kept until the problem or its plans change,
//! and [`FrameViews`]: what one frame's panels read, built before any of them runs.

use std::collections::HashMap;
use std::sync::Arc;

use super::command::Selection;
use super::document::Document;
use super::panels::Panel;
use super::plots::ShapeCache;
use super::preferences::Preferences;
use crate::analysis::order_bound::OrderBound;
use crate::analysis::tflm_tail::Tail;
use crate::document::{default_compare, TensorRow};
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
    /// TFLM's tail of the model (it does not depend on the plans).
    tflm_tail: Option<Arc<(Tail, Tail)>>,
    /// What the runtime needs beside the planned arena, per problem.
    outside: HashMap<usize, u64>,
    order_bounds: HashMap<usize, Option<Arc<OrderBound>>>,
    /// LiteRT with XNNPACK as a whole (it depends on every problem's plans and the CPU class
    /// of the estimate, not on the shown problem).
    xnnpack: Option<Option<Arc<crate::document::XnnpackSummary>>>,
}

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
    /// TFLM's tail, measured build and 32-bit (problems on tflm lifetimes, summary panel).
    pub tflm_tail: Option<Arc<(Tail, Tail)>>,
    /// What the runtime needs beside the planned arena (TFLM's tail, LiteRT's persistent
    /// arena): it counts against a budget too.
    pub outside_plan_bytes: u64,
    /// The bound no execution order beats (summary panel).
    pub order_bound: Option<Arc<OrderBound>>,
    /// LiteRT with XNNPACK as a whole (summary panel, xnnpack lifetimes).
    pub xnnpack: Option<Arc<crate::document::XnnpackSummary>>,
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

/// Plans shown side by side (2 to 4; defaults when the chosen ones do not apply).
pub fn compare_indices(doc: &Document, prefs: &Preferences) -> Vec<usize> {
    let mut v: Vec<usize> = prefs
        .compare
        .iter()
        .filter_map(|id| doc.plan_index(id))
        .collect();
    v.dedup();
    if v.len() < 2 {
        v = default_compare(doc.current_plans(), doc.current().lifetimes);
    }
    v.truncate(4);
    v
}

impl ViewCache {
    /// The estimate's CPU class changed: the XNNPACK summary is made again, nothing else.
    pub fn forget_xnnpack(&mut self) {
        self.xnnpack = None;
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
        let tflm_tail = (prefs.panel == Panel::Summary
            && problem.lifetimes == Some(crate::analysis::Lifetimes::Tflm))
        .then(|| {
            if self.tflm_tail.is_none() {
                self.tflm_tail = doc
                    .tflm_tail()
                    .zip(doc.tflm_tail_for(crate::analysis::tflm_tail::Target::Target32))
                    .map(Arc::new);
            }
            self.tflm_tail.clone()
        })
        .flatten();
        let outside_plan_bytes = *self
            .outside
            .entry(p)
            .or_insert_with(|| doc.outside_plan_bytes(p));
        let order_bound = if prefs.panel == Panel::Summary {
            self.order_bounds
                .entry(p)
                .or_insert_with(|| {
                    doc.model()
                        .and_then(|m| crate::analysis::order_bound::order_bound(m, problem))
                        .map(Arc::new)
                })
                .clone()
        } else {
            None
        };
        let xnnpack = if prefs.panel == Panel::Summary {
            self.xnnpack
                .get_or_insert_with(|| doc.xnnpack_summary().map(Arc::new))
                .clone()
        } else {
            None
        };
        FrameViews {
            xnnpack,
            order_bound,
            tflm_tail,
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
