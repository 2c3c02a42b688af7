//! A caption band above an exported picture: the headline (the runtime's number for the file
//! as opened), why it is not exact, and the budget's verdict — the same lines the GUI's
//! summary and the CLI's last lines say, so a picture shared alone still carries the number.

use std::fmt::Write as _;

use crate::view::theme::Palette;

/// Height of one caption line, px.
const LINE_PX: f64 = 18.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The number after `name="` in `tag`.
fn attr(tag: &str, name: &str) -> Option<f64> {
    let key = format!(" {name}=\"");
    let start = tag.find(&key)? + key.len();
    let end = start + tag[start..].find('"')?;
    tag[start..end].parse().ok()
}

/// `svg` (as the exporters write it: the root element on the first line) with `lines` in a
/// band above it; the first line bold. Returned unchanged when it is not such a document or
/// there is nothing to say.
pub fn with_caption(svg: &str, lines: &[String], palette: &Palette) -> String {
    let Some((root, body)) = svg.split_once('\n') else {
        return svg.to_string();
    };
    let (Some(width), Some(height)) = (attr(root, "width"), attr(root, "height")) else {
        return svg.to_string();
    };
    let Some(body) = body.trim_end().strip_suffix("</svg>") else {
        return svg.to_string();
    };
    if lines.is_empty() || !root.starts_with("<svg ") {
        return svg.to_string();
    }
    let band = 10.0 + LINE_PX * lines.len() as f64;
    let total = height + band;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{total}\" viewBox=\"0 0 {width} {total}\" font-family=\"Ubuntu, sans-serif\">\n"
    );
    let _ = writeln!(
        out,
        "<rect width=\"{width}\" height=\"{band}\" fill=\"{}\"/>",
        palette.background.hex()
    );
    for (k, line) in lines.iter().enumerate() {
        let weight = if k == 0 { " font-weight=\"bold\"" } else { "" };
        let size = if k == 0 { 14 } else { 12 };
        let _ = writeln!(
            out,
            "<text x=\"12\" y=\"{:.1}\" font-size=\"{size}\"{weight} fill=\"{}\">{}</text>",
            4.0 + LINE_PX * (k as f64 + 1.0),
            palette.text.hex(),
            esc(line)
        );
    }
    let _ = writeln!(out, "<g transform=\"translate(0 {band})\">");
    out.push_str(body);
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caption_sits_above_the_picture_which_moves_down_by_its_height() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">\n<rect width=\"200\" height=\"100\"/>\n</svg>\n";
        let lines = vec![
            "TFLM needs 1504 bytes (1.5 KiB)".to_string(),
            "a & b".to_string(),
        ];
        let out = with_caption(svg, &lines, &crate::view::theme::LIGHT);
        // Two lines: a band of 10 + 2 x 18 = 46 px.
        assert!(
            out.contains("height=\"146\" viewBox=\"0 0 200 146\""),
            "{out}"
        );
        assert!(
            out.contains("<g transform=\"translate(0 46)\">\n<rect width=\"200\" height=\"100\"/>")
        );
        assert!(out.contains(">TFLM needs 1504 bytes (1.5 KiB)</text>"));
        assert!(out.contains(">a &amp; b</text>"));
        assert!(out.trim_end().ends_with("</g>\n</svg>"));
        // Nothing to say, or not a document of ours: unchanged.
        assert_eq!(with_caption(svg, &[], &crate::view::theme::LIGHT), svg);
        assert_eq!(
            with_caption("<p/>", &lines, &crate::view::theme::LIGHT),
            "<p/>"
        );
    }
}
