//! Every change of the app's state is a [`Command`]: panels push them while they draw, the app
//! applies them once at the end of the frame, so what a frame shows is one consistent state
//! and a tensor picked anywhere is highlighted everywhere in the next frame (rerun's selection
//! model, egui's demo `Command`).

use std::path::PathBuf;

use super::panels::Panel;
use crate::analysis::{Lifetimes, Problem};

/// What panels ask the app to do.
#[must_use]
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Select a tensor (its number in the shown problem), or clear the selection.
    Select(Option<usize>),
    /// The tensor under the pointer this frame.
    Hover(usize),
    Open(PathBuf),
    ShowPanel(Panel),
    /// Show problem `k` (a subgraph, under litert lifetimes).
    ShowProblem(usize),
    SetLifetimes(Lifetimes),
    /// The CPU class XNNPACK's packed weights and indirection buffers are estimated for.
    SetIsa(crate::analysis::xnnpack::Isa),
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
    /// The budget field's text: empty means no budget; text that does not parse keeps the
    /// budget as it was and shows why.
    SetBudgetText(String),
    /// Sort the table by a column (again: the other direction).
    SortTable(usize),
    DismissError,
    DismissStatus,
}

/// The selected and the hovered tensor (numbers in the shown problem).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    pub selected: Option<usize>,
    /// Hovered in the previous frame.
    pub hovered: Option<usize>,
}

impl Selection {
    pub fn selected_buffer(&self, problem: &Problem) -> Option<usize> {
        problem.buffer_of(self.selected?)
    }

    pub fn hovered_buffer(&self, problem: &Problem) -> Option<usize> {
        problem.buffer_of(self.hovered?)
    }
}
