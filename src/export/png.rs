//! PNG output: an SVG rendered with resvg and the embedded Ubuntu font (no display, no
//! system fonts), and raw RGBA pixels (a window screenshot) encoded.

#[derive(Debug, thiserror::Error)]
pub enum PngError {
    #[error("the SVG could not be parsed: {0}")]
    Parse(String),
    #[error("the image could not be encoded: {0}")]
    Encode(String),
}

/// Renders an SVG to PNG bytes with resvg, with the embedded Ubuntu font (no system fonts
/// needed).
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, PngError> {
    let mut opt = resvg::usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_font_data(epaint_default_fonts::UBUNTU_LIGHT.to_vec());
    db.set_sans_serif_family("Ubuntu");
    let tree =
        resvg::usvg::Tree::from_str(svg, &opt).map_err(|e| PngError::Parse(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PngError::Encode("empty image".into()))?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}

/// Encodes straight RGBA pixels (a window screenshot) as PNG.
pub fn rgba_to_png(width: u32, height: u32, rgba: Vec<u8>) -> Result<Vec<u8>, PngError> {
    let size = resvg::tiny_skia::IntSize::from_wh(width, height)
        .ok_or_else(|| PngError::Encode("empty image".into()))?;
    let pixmap = resvg::tiny_skia::Pixmap::from_vec(rgba, size)
        .ok_or_else(|| PngError::Encode("wrong pixel count".into()))?;
    pixmap
        .encode_png()
        .map_err(|e| PngError::Encode(e.to_string()))
}
