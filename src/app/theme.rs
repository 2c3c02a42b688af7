//! The GUI's colours: `view::theme` palettes as egui colours.

use egui::Color32;

use crate::analysis::BufferKind;
use crate::view::theme::{Palette, Rgba, DARK, LIGHT};

pub fn c(rgba: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(rgba.0, rgba.1, rgba.2, rgba.3)
}

#[derive(Clone, Copy)]
pub struct Colors {
    pub palette: Palette,
}

impl Colors {
    pub fn new(dark: bool) -> Self {
        Colors {
            palette: if dark { DARK } else { LIGHT },
        }
    }

    pub fn kind(&self, kind: BufferKind) -> Color32 {
        c(self.palette.kind(kind))
    }

    pub fn text(&self) -> Color32 {
        c(self.palette.text)
    }

    pub fn weak_text(&self) -> Color32 {
        c(self.palette.weak_text)
    }

    pub fn grid(&self) -> Color32 {
        c(self.palette.grid)
    }

    pub fn padding(&self) -> Color32 {
        c(self.palette.padding)
    }

    pub fn hole(&self) -> Color32 {
        c(self.palette.hole)
    }

    pub fn arena(&self) -> Color32 {
        c(self.palette.arena_line)
    }

    pub fn lower_bound(&self) -> Color32 {
        c(self.palette.lower_bound_line)
    }

    pub fn peak(&self) -> Color32 {
        c(self.palette.peak)
    }

    pub fn budget(&self) -> Color32 {
        c(self.palette.budget)
    }

    pub fn selection(&self) -> Color32 {
        c(self.palette.selection)
    }

    pub fn edge(&self) -> Color32 {
        c(self.palette.edge)
    }

    pub fn outline(&self) -> Color32 {
        c(self.palette.outline)
    }

    /// Text drawn on top of a kind's fill.
    pub fn on_fill(&self) -> Color32 {
        Color32::from_rgb(0x10, 0x10, 0x10)
    }
}
