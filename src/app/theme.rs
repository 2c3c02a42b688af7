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

    /// The fill of part `k` of a stacked bar: eight hues far apart, none repeated side by side.
    pub fn part(&self, k: usize) -> Color32 {
        const LIGHT_PARTS: [(u8, u8, u8); 8] = [
            (0x4c, 0x78, 0xa8),
            (0xf5, 0x85, 0x18),
            (0x54, 0xa2, 0x4b),
            (0xb2, 0x79, 0xa2),
            (0xe4, 0x57, 0x56),
            (0x72, 0xb7, 0xb2),
            (0xee, 0xca, 0x3b),
            (0x9d, 0x75, 0x5d),
        ];
        const DARK_PARTS: [(u8, u8, u8); 8] = [
            (0x6f, 0x9f, 0xd8),
            (0xff, 0xa5, 0x4d),
            (0x7c, 0xc8, 0x70),
            (0xd6, 0x9e, 0xc8),
            (0xff, 0x7f, 0x7e),
            (0x8f, 0xd8, 0xd2),
            (0xff, 0xdf, 0x66),
            (0xc4, 0x9c, 0x84),
        ];
        let parts = if self.palette.text.0 > 0x80 {
            DARK_PARTS
        } else {
            LIGHT_PARTS
        };
        let (r, g, b) = parts[k % parts.len()];
        Color32::from_rgb(r, g, b)
    }

    /// Text drawn on top of a kind's fill.
    pub fn on_fill(&self) -> Color32 {
        Color32::from_rgb(0x10, 0x10, 0x10)
    }
}
