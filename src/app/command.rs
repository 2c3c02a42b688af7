//! Every change of the app's state is a [`Command`]: panels push them while they draw, the app
//! applies them once at the end of the frame, so what a frame shows is one consistent state
//! and a tensor picked anywhere is highlighted everywhere in the next frame (rerun's selection
//! model, egui's demo `Command`).

use std::path::PathBuf;

use super::panel::Panel;
use crate::analysis::{Lifetimes, Problem, XnnpackPart};
use crate::model::Model;

/// What panels ask the app to do.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Select a tensor (its number in the shown problem), or clear the selection.
    Select(Option<usize>),
    /// Put the selection back as it was before the last [`Command::Select`]: the second click
    /// of a double-click (which resets a plot's view) undoes what its first click picked.
    RevertSelect,
    /// Open a file picked in the file dialog (File → Open…, Ctrl+O).
    OpenDialog,
    /// The tensor under the pointer this frame.
    Hover(usize),
    Open(PathBuf),
    ShowPanel(Panel),
    /// Show problem `k` (a subgraph, under litert lifetimes).
    ShowProblem(usize),
    SetLifetimes(Lifetimes),
    /// The CPU class XNNPACK's packed weights and indirection buffers are estimated for.
    SetIsa(crate::analysis::xnnpack::Isa),
    /// The TFLM build the headline, Copy and the budget verdict are for.
    SetTflmTarget(crate::document::headline::TflmTarget),
    /// Stop opening or planning again; the document shown stays.
    CancelPlan,
    /// A one-line notice in the status line (e.g. "Copied 85264 to the clipboard.").
    Notice(String),
    /// The platform class XNNPACK's workspace is rounded for (plans again).
    SetPlatform(crate::analysis::xnnpack::Platform),
    SetAlign(Option<u64>),
    /// Build the problems on the file's order or the memory-optimised one.
    SetOrder(crate::document::OrderChoice),
    /// Show the file's order beside the optimised one (compare, Gantt, memory).
    SetBeforeAfter(bool),
    /// The planner the layout, table and details show.
    SetPrimary(String),
    /// The planners compared side by side.
    SetCompare(Vec<String>),
    SetDark(bool),
    StartExact,
    CancelExact,
    /// Write the model on the order that lowers the chosen runtime's arena (background).
    SaveOptimized(PathBuf),
    CancelOptimize,
    /// Save a screenshot of the window.
    Screenshot(PathBuf),
    /// Write the shown view as SVG, or as PNG when `png`.
    ExportView {
        path: PathBuf,
        png: bool,
    },
    /// Write the shown problem's plans as plan JSON.
    ExportJson(PathBuf),
    /// Write the primary plan as MiniMalloc CSV.
    ExportCsv(PathBuf),
    SetTableFilter(String),
    /// The budget field's text: empty means no budget; text that does not parse clears the
    /// budget applied (no verdict is shown) and says why.
    SetBudgetText(String),
    /// Sort the table by a column (again: the other direction).
    SortTable(usize),
    DismissError,
    DismissStatus,
}

/// The selected and the hovered tensor (numbers in the shown problem), and what the
/// selection is in the model, so that it survives replanning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub selected: Option<usize>,
    /// Hovered in the previous frame.
    pub hovered: Option<usize>,
    /// The selected tensor independently of the problem's numbering.
    pub key: Option<TensorKey>,
}

impl Selection {
    /// Tensor `number` of `problem` selected (of `model`, when the problem comes from one).
    pub fn of(model: Option<&Model>, problem: &Problem, number: Option<usize>) -> Selection {
        Selection {
            selected: number,
            hovered: None,
            key: number.map(|n| TensorKey::of(model, problem, n)),
        }
    }

    pub fn selected_buffer(&self, problem: &Problem) -> Option<usize> {
        problem.buffer_of(self.selected?)
    }

    pub fn hovered_buffer(&self, problem: &Problem) -> Option<usize> {
        problem.buffer_of(self.hovered?)
    }
}

/// A selected tensor as the model knows it. Problems number tensors by their convention
/// (LiteRT and XNNPACK: the index in the subgraph; TFLM: the index in the concatenation of
/// all subgraphs' tensors, DESIGN.md §3.2), so a model tensor is kept as its subgraph and its
/// index there, which every convention shares; what only one problem has (a kernel
/// temporary, a scratch buffer, a value an XNNPACK rewrite made, a CSV row) is kept as its
/// number in a problem of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorKey {
    Model {
        subgraph: usize,
        tensor: usize,
    },
    Problem {
        lifetimes: Option<Lifetimes>,
        subgraph: Option<usize>,
        xnnpack: Option<XnnpackPart>,
        number: usize,
    },
}

/// The first tensor number of each subgraph under TFLM's numbering.
fn tflm_base(model: &Model, subgraph: usize) -> usize {
    model.subgraphs[..subgraph.min(model.subgraphs.len())]
        .iter()
        .map(|s| s.tensors.len())
        .sum()
}

impl TensorKey {
    /// The key of tensor `number` of `problem`.
    pub fn of(model: Option<&Model>, problem: &Problem, number: usize) -> TensorKey {
        let in_model = model.and_then(|m| problem.model_tensor(m, number));
        match in_model {
            Some((subgraph, tensor)) => TensorKey::Model { subgraph, tensor },
            None => TensorKey::Problem {
                lifetimes: problem.lifetimes,
                subgraph: problem.subgraph,
                xnnpack: problem.xnnpack,
                number,
            },
        }
    }

    /// The tensor's number in `problem`, when the problem has it: planned, an in-place alias,
    /// kept outside the arena, or (a model tensor) a constant of the problem's subgraphs.
    pub fn number_in(&self, model: Option<&Model>, problem: &Problem) -> Option<usize> {
        let present = |n: usize| {
            problem.buffer_of(n).is_some() || problem.outside.iter().any(|o| o.tensor == n)
        };
        match *self {
            TensorKey::Model { subgraph, tensor } => {
                let m = model?;
                let t = m.subgraphs.get(subgraph)?.tensors.get(tensor)?;
                let n = match problem.lifetimes? {
                    Lifetimes::Litert | Lifetimes::Xnnpack => {
                        (problem.subgraph == Some(subgraph)).then_some(tensor)?
                    }
                    Lifetimes::Tflm => tflm_base(m, subgraph) + tensor,
                };
                (present(n) || t.is_constant).then_some(n)
            }
            TensorKey::Problem {
                lifetimes,
                subgraph,
                xnnpack,
                number,
            } => (problem.lifetimes == lifetimes
                && problem.subgraph == subgraph
                && problem.xnnpack == xnnpack
                && present(number))
            .then_some(number),
        }
    }
}
