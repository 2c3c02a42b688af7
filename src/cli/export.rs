//! `arenascope export`: one view of a model's (or CSV problem's) plans as SVG or PNG, drawn
//! from the same `view/` geometry the app paints.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{CliError, LifetimesArg};
use crate::analysis::Problem;
use crate::document::default_compare;
use crate::export::{png, svg};
use crate::plan::Plan;
use crate::planner::Settings;
use crate::view;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// The .tflite model or MiniMalloc .csv problem.
    pub model: PathBuf,
    #[arg(long, value_enum)]
    pub view: ViewArg,
    /// Planner(s) to draw: the layout view draws the first; compare draws two to four
    /// (default: the runtime's emulation and the best generic planners).
    #[arg(long = "planner", value_name = "ID")]
    pub planners: Vec<String>,
    #[arg(long, value_enum, default_value = "litert")]
    pub lifetimes: LifetimesArg,
    /// The subgraph (litert lifetimes).
    #[arg(long, default_value_t = 0)]
    pub subgraph: usize,
    /// Dark theme.
    #[arg(long)]
    pub dark: bool,
    /// Output file: .svg or .png.
    #[arg(long, value_name = "FILE.svg|FILE.png")]
    pub out: PathBuf,
    /// The execution order the picture shows: as in the file, or the memory-optimised one
    /// (the caption's number stays the one for the file as opened).
    #[arg(long, value_enum, default_value = "file")]
    pub order: super::plan::OrderArg,
    /// A RAM budget (bytes, or with K, M, G): the caption adds the verdict.
    #[arg(long, value_name = "BYTES", allow_hyphen_values = true)]
    pub budget: Option<String>,
    /// With --lifetimes tflm: the TFLM build the caption's tensor_arena_size is for.
    #[arg(long, value_enum, default_value = "x86-64")]
    pub target: super::TargetArg,
}

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum ViewArg {
    Layout,
    Gantt,
    Conflicts,
    Memory,
    Compare,
}

pub fn run(args: &ExportArgs) -> Result<String, CliError> {
    let out = &args.out;
    let ext = out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    if !matches!(ext.as_deref(), Some("svg") | Some("png")) {
        return Err(CliError::Usage(format!(
            "--out must end in .svg or .png: {}",
            out.display()
        )));
    }
    let budget = args
        .budget
        .as_deref()
        .map(crate::document::parse_budget)
        .transpose()
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let settings = Settings {
        // The order search's budget, as the GUI's.
        time_limit_secs: 1.0,
        capacity: None,
    };
    let doc = super::plan::open_and_plan(
        &args.model,
        &args.planners,
        args.lifetimes,
        None,
        args.order.into(),
        settings,
        (Default::default(), None),
    )?;
    // The problem of the chosen subgraph (any, for a problem over all subgraphs).
    let pl = doc
        .planned
        .iter()
        .filter(|p| !p.plans.is_empty())
        .find(|p| p.problem.subgraph.is_none_or(|s| s == args.subgraph))
        .ok_or_else(|| {
            CliError::Usage(format!(
                "the model has no subgraph {}: {}",
                args.subgraph,
                args.model.display()
            ))
        })?;
    let palette = if args.dark {
        view::theme::DARK
    } else {
        view::theme::LIGHT
    };
    let explicit = !(args.planners.is_empty() || args.planners.iter().any(|i| i == "all"));
    let problem = &pl.problem;
    let text = match args.view {
        // LiteRT with XNNPACK: the TFLite arena above the subgraph's largest workspace.
        ViewArg::Layout if problem.xnnpack.is_some() => {
            let k = if explicit {
                0
            } else {
                default_compare(&pl.plans, problem.lifetimes)[0]
            };
            let arena = doc
                .planned
                .iter()
                .position(|q| std::ptr::eq(q, pl))
                .unwrap_or(0);
            let xnnpack_plan =
                |q: &crate::document::Planned| q.plans.iter().position(|x| x.planner == "xnnpack");
            let workspace = (0..doc.planned.len())
                .filter(|&w| {
                    let q = &doc.planned[w];
                    q.problem.partition().is_some() && q.problem.subgraph == problem.subgraph
                })
                .filter_map(|w| xnnpack_plan(&doc.planned[w]).map(|i| (w, i)))
                .max_by_key(|&(w, i)| doc.planned[w].plans[i].arena_bytes);
            let mut lanes = vec![(
                problem,
                view::LayoutView::build(problem, &pl.plans[k]),
                doc.problem_label(arena),
            )];
            if let Some((w, i)) = workspace {
                let q = &doc.planned[w];
                lanes.push((
                    &q.problem,
                    view::LayoutView::build(&q.problem, &q.plans[i]),
                    doc.problem_label(w),
                ));
            }
            svg::lanes_svg(&lanes, &palette)
        }
        ViewArg::Layout => {
            let k = if explicit {
                0
            } else {
                default_compare(&pl.plans, problem.lifetimes)[0]
            };
            svg::layout_svg(
                problem,
                &view::LayoutView::build(problem, &pl.plans[k]),
                &palette,
            )
        }
        ViewArg::Compare => {
            let picked: Vec<usize> = if explicit {
                (0..pl.plans.len().min(4)).collect()
            } else {
                default_compare(&pl.plans, problem.lifetimes)
            };
            let views: Vec<(&Problem, view::LayoutView)> = picked
                .iter()
                .map(|&k| (problem, view::LayoutView::build(problem, &pl.plans[k])))
                .collect();
            svg::compare_svg(&views, &palette)
        }
        ViewArg::Gantt => svg::gantt_svg(problem, &view::GanttView::build(problem), &palette),
        ViewArg::Conflicts => svg::conflicts_svg(
            problem,
            &view::ConflictView::build(problem, None, view::GRAPH_MAX_NODES),
            &palette,
        ),
        ViewArg::Memory => {
            let plans: Vec<&Plan> = pl.plans.iter().collect();
            svg::memory_svg(&view::MemoryView::build(problem, &plans), None, &palette)
        }
    };
    // The headline above the picture, for the planner drawn first.
    let index = doc
        .planned
        .iter()
        .position(|q| std::ptr::eq(q, pl))
        .unwrap_or(0);
    let shown = match args.view {
        ViewArg::Layout | ViewArg::Compare => {
            let k = if explicit {
                0
            } else {
                default_compare(&pl.plans, problem.lifetimes)[0]
            };
            pl.plans.get(k).map(|p| (index, p.planner))
        }
        _ => None,
    };
    let headline = doc.headline(crate::document::HeadlineOptions {
        target: args.target.into(),
        shown,
    });
    let text =
        crate::export::caption::with_caption(&text, &headline.caption_lines(budget), &palette);
    let bytes = if ext.as_deref() == Some("png") {
        png::svg_to_png(&text).map_err(|e| CliError::Input(format!("{e}: {}", out.display())))?
    } else {
        text.into_bytes()
    };
    std::fs::write(out, &bytes)
        .map_err(|e| CliError::Input(format!("cannot write the file ({e}): {}", out.display())))?;
    Ok(format!("wrote {} ({} bytes)\n", out.display(), bytes.len()))
}
