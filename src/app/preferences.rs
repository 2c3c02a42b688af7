//! What the user chose, remembered between runs (eframe storage).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::panel::Panel;
use crate::analysis::Lifetimes;

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Preferences {
    pub dark: bool,
    pub lifetimes: Lifetimes,
    /// Offset alignment of the generic planners (`None`: the convention's default).
    pub align: Option<u64>,
    /// The planner whose plan the layout, table and details show first.
    pub primary: String,
    /// Planners side by side in the comparison (two to four; empty: the default set,
    /// `document::default_compare`, which `export --view compare` draws too).
    pub compare: Vec<String>,
    pub panel: Panel,
    pub recent: Vec<PathBuf>,
    /// The RAM budget drawn on the layout, memory, compare and summary panels (`None`: none).
    pub budget: Option<u64>,
    /// The execution order the problems are built on.
    pub order: crate::document::OrderChoice,
    /// On the memory-optimised order, show the file's beside it: the compare panel puts the
    /// chosen planner on both orders, the Gantt chart and the memory curve show both.
    pub before_after: bool,
    /// The TFLM build the headline, Copy and the budget verdict are for.
    pub tflm_target: crate::document::headline::TflmTarget,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            dark: false,
            lifetimes: Lifetimes::Litert,
            align: None,
            primary: "litert".into(),
            compare: Vec::new(),
            panel: Panel::Layout,
            recent: Vec::new(),
            budget: None,
            order: crate::document::OrderChoice::File,
            before_after: true,
            tflm_target: Default::default(),
        }
    }
}

impl Preferences {
    /// Puts `path` first in the recent files (ten at most).
    pub fn remember(&mut self, path: &std::path::Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(10);
    }
}
