//! Colours, in one place, with a light and a dark variant. The GUI converts them to egui
//! colours; the SVG exporter writes them as hex.

use crate::analysis::BufferKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Rgba(r, g, b, 255)
    }

    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    pub fn opacity(self) -> f32 {
        self.3 as f32 / 255.0
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub background: Rgba,
    pub text: Rgba,
    pub weak_text: Rgba,
    pub grid: Rgba,
    pub input: Rgba,
    pub output: Rgba,
    pub activation: Rgba,
    pub scratch: Rgba,
    /// Alignment padding on top of a buffer.
    pub padding: Rgba,
    /// Free bytes below the live top (fragmentation).
    pub hole: Rgba,
    pub arena_line: Rgba,
    pub lower_bound_line: Rgba,
    pub peak: Rgba,
    /// The RAM budget line.
    pub budget: Rgba,
    pub selection: Rgba,
    pub edge: Rgba,
    pub outline: Rgba,
}

pub const LIGHT: Palette = Palette {
    background: Rgba::rgb(0xfb, 0xfb, 0xfb),
    text: Rgba::rgb(0x20, 0x20, 0x20),
    weak_text: Rgba::rgb(0x60, 0x60, 0x60),
    grid: Rgba::rgb(0xdd, 0xdd, 0xdd),
    input: Rgba::rgb(0x3b, 0x7d, 0xd8),
    output: Rgba::rgb(0x2e, 0x9e, 0x5b),
    activation: Rgba::rgb(0xe0, 0x8a, 0x2c),
    scratch: Rgba::rgb(0x8e, 0x5c, 0xc7),
    padding: Rgba::rgb(0x55, 0x55, 0x55),
    hole: Rgba(0xd6, 0x36, 0x36, 0x40),
    arena_line: Rgba::rgb(0xc6, 0x28, 0x28),
    lower_bound_line: Rgba::rgb(0x1b, 0x8a, 0x3c),
    peak: Rgba::rgb(0xc6, 0x28, 0x28),
    budget: Rgba::rgb(0x6a, 0x1b, 0x9a),
    selection: Rgba::rgb(0x10, 0x10, 0x10),
    edge: Rgba(0x70, 0x70, 0x70, 0x50),
    outline: Rgba(0x00, 0x00, 0x00, 0x60),
};

pub const DARK: Palette = Palette {
    background: Rgba::rgb(0x1b, 0x1b, 0x1b),
    text: Rgba::rgb(0xe8, 0xe8, 0xe8),
    weak_text: Rgba::rgb(0xa0, 0xa0, 0xa0),
    grid: Rgba::rgb(0x3a, 0x3a, 0x3a),
    input: Rgba::rgb(0x5b, 0x9b, 0xf0),
    output: Rgba::rgb(0x4c, 0xc0, 0x7a),
    activation: Rgba::rgb(0xf0, 0xa0, 0x48),
    scratch: Rgba::rgb(0xb0, 0x86, 0xe8),
    padding: Rgba::rgb(0xee, 0xee, 0xee),
    hole: Rgba(0xff, 0x5a, 0x5a, 0x48),
    arena_line: Rgba::rgb(0xff, 0x6b, 0x6b),
    lower_bound_line: Rgba::rgb(0x5c, 0xd6, 0x84),
    peak: Rgba::rgb(0xff, 0x6b, 0x6b),
    budget: Rgba::rgb(0xce, 0x93, 0xd8),
    selection: Rgba::rgb(0xff, 0xff, 0xff),
    edge: Rgba(0xb0, 0xb0, 0xb0, 0x40),
    outline: Rgba(0x00, 0x00, 0x00, 0x90),
};

impl Palette {
    pub fn kind(&self, kind: BufferKind) -> Rgba {
        match kind {
            BufferKind::Input => self.input,
            BufferKind::Output => self.output,
            BufferKind::Activation => self.activation,
            BufferKind::Scratch => self.scratch,
        }
    }
}
