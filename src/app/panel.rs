//! Which panel the central area shows. Its own file, below both the panels that draw and the
//! state that remembers it (preferences, commands, the view cache), so none of them imports
//! another in a circle.

use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests {
    use super::Panel;

    #[test]
    fn command_line_names_are_titles_or_variants_in_any_case() {
        assert_eq!(Panel::from_name("lifetimes"), Some(Panel::Gantt));
        assert_eq!(Panel::from_name("GANTT"), Some(Panel::Gantt));
        assert_eq!(Panel::from_name("Compare"), Some(Panel::Compare));
        assert_eq!(Panel::from_name("plots"), None);
    }
}
