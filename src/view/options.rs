//! Every threshold that decides what is drawn, in one place, for the painter and the SVG
//! exporter alike. Pixel values are screen (or SVG user-unit) pixels; the rest are plot units.

/// Level-of-detail and labelling thresholds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaintOptions {
    /// At most this many labels in one plot (one frame, one export).
    pub max_labels: usize,
    /// Font size of labels inside layout rectangles, px.
    pub label_font_px: f64,
    /// Average glyph width as a fraction of the font size (for fitting labels).
    pub glyph_width: f64,
    /// A rectangle gets a label only from this height, px.
    pub label_min_height_px: f64,
    /// ... and this width, px.
    pub label_min_width_px: f64,
    /// Space left of and right of a label inside its rectangle, px.
    pub label_padding_px: f64,
    /// A label shortened to fewer characters than this (with its ellipsis) is dropped.
    pub label_min_chars: usize,
    /// Layout rectangles are drawn at least this tall (a one-byte buffer too), px.
    pub min_rect_height_px: f64,
    /// Width of the dashed lines marking the peak steps on a layout, px.
    pub peak_line_px: f64,
    /// A run of peak steps whose first and last step are closer than this is one line, px.
    pub peak_merge_px: f64,
    /// Rectangles narrower than this are merged per pixel column (`lod::ThinColumns`), px.
    pub thin_width_px: f64,
    /// Outlines only on rectangles wider and taller than this, px.
    pub outline_min_px: f64,
    /// Hatch lines on padding only where it is at least this tall and wide, px.
    pub hatch_min_px: f64,
    /// Distance between hatch lines, px.
    pub hatch_spacing_px: f64,
    /// Gantt bars leave this fraction of their row empty above and below.
    pub gantt_bar_inset: f64,
    /// Gantt labels only where a row is at least this tall, px.
    pub gantt_label_min_row_px: f64,
    /// Conflict graph: a node's largest radius as a fraction of the spacing between
    /// neighbours on the unit circle ...
    pub node_spacing_fraction: f64,
    /// ... and never more than this (plot units, the circle has radius 1).
    pub node_max_radius: f64,
    /// A node's smallest radius relative to the largest (area by bytes below that).
    pub node_min_relative: f64,
    /// Nodes are drawn at least this big, px.
    pub node_min_px: f64,
    /// A node is hit by the pointer within at least this many px.
    pub node_hit_min_px: f64,
    /// Gap between a node and its label, px.
    pub node_label_gap_px: f64,
    /// Node labels are cut to this many characters.
    pub node_label_max_chars: usize,
    /// Conflict graphs above this many buffers show one buffer's neighbourhood.
    pub graph_max_nodes: usize,
    /// Head room above the highest value on a byte axis (1.05 = 5 %).
    pub byte_axis_headroom: f64,
    /// Memory view: a plan whose arena is more than this many times the lower bound is drawn
    /// as a mark at the top edge (naive is often 10× the rest), so that it does not squash
    /// the plans worth comparing into the bottom pixels.
    pub off_scale_factor: f64,
}

/// The options the app and the exports use.
pub const PAINT: PaintOptions = PaintOptions {
    max_labels: 400,
    label_font_px: 11.0,
    glyph_width: 0.55,
    label_min_height_px: 13.0,
    label_min_width_px: 40.0,
    label_padding_px: 3.0,
    label_min_chars: 6,
    min_rect_height_px: 3.0,
    peak_line_px: 1.2,
    peak_merge_px: 8.0,
    thin_width_px: 1.5,
    outline_min_px: 3.0,
    hatch_min_px: 4.0,
    hatch_spacing_px: 6.0,
    gantt_bar_inset: 0.1,
    gantt_label_min_row_px: 10.0,
    node_spacing_fraction: 0.45,
    node_max_radius: 0.08,
    node_min_relative: 0.25,
    node_min_px: 2.0,
    node_hit_min_px: 4.0,
    node_label_gap_px: 6.0,
    node_label_max_chars: 28,
    graph_max_nodes: 400,
    byte_axis_headroom: 1.05,
    off_scale_factor: 3.0,
};

impl PaintOptions {
    /// `text` shortened with an ellipsis to fit `width_px` at `font_px`, or `None` when too
    /// little of it would show.
    pub fn fit_label(&self, text: &str, width_px: f64, font_px: f64) -> Option<String> {
        let max_chars = (width_px / (font_px * self.glyph_width)).floor().max(0.0) as usize;
        let n = text.chars().count();
        if n <= max_chars {
            Some(text.to_string())
        } else if max_chars >= self.label_min_chars {
            Some(text.chars().take(max_chars - 1).collect::<String>() + "…")
        } else {
            None
        }
    }

    /// The label of a layout rectangle `w` × `h` px, if it gets one (widths estimated).
    pub fn rect_label(&self, text: &str, w: f64, h: f64) -> Option<String> {
        self.rect_label_measured(text, w, h, |s| {
            s.chars().count() as f64 * self.label_font_px * self.glyph_width
        })
    }

    /// The label of a layout rectangle `w` × `h` px with widths from `measure` (the painter
    /// measures its glyphs): the rectangle must be `label_min_*` big, and the label is cut
    /// to the width inside the padding (`lod::fit_label_measured`).
    pub fn rect_label_measured(
        &self,
        text: &str,
        w: f64,
        h: f64,
        measure: impl Fn(&str) -> f64,
    ) -> Option<String> {
        if h < self.label_min_height_px || w < self.label_min_width_px {
            return None;
        }
        super::lod::fit_label_measured(
            text,
            w - 2.0 * self.label_padding_px,
            self.label_min_chars,
            measure,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_fit_their_width_or_are_dropped() {
        // 11 px font: 6.05 px a glyph.
        assert_eq!(
            PAINT.fit_label("conv/Relu6", 100.0, 11.0).as_deref(),
            Some("conv/Relu6")
        );
        assert_eq!(
            PAINT
                .fit_label("block_1/expand/Relu6", 50.0, 11.0)
                .as_deref(),
            Some("block_1…"),
            "8 glyphs fit: 7 and the ellipsis"
        );
        assert_eq!(PAINT.fit_label("block_1/expand/Relu6", 30.0, 11.0), None);
        assert_eq!(PAINT.rect_label("x", 39.0, 20.0), None, "too narrow");
        assert_eq!(PAINT.rect_label("x", 60.0, 12.0), None, "too low");
        assert_eq!(PAINT.rect_label("x", 60.0, 13.0).as_deref(), Some("x"));
    }
}
