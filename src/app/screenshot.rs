//! `--screenshot` and File → Export screenshot: render a few frames, grab the window's pixels,
//! save a PNG.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Frames drawn before the pixels are grabbed (layout, fonts and plot bounds settle).
const SETTLE_FRAMES: u32 = 6;
/// Frames after which a screenshot that never arrived is given up.
const GIVE_UP_FRAMES: u32 = 600;

#[derive(Default)]
pub struct ScreenshotState {
    /// Where to save the next screenshot.
    target: Option<PathBuf>,
    /// Exit after saving (the `--screenshot` flag).
    pub exit_after: bool,
    frames: u32,
    requested: bool,
    image: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    /// Result for the process exit code.
    pub outcome: Arc<Mutex<Option<Result<(), String>>>>,
}

/// What a frame's screenshot step did.
pub enum Step {
    Nothing,
    Saved(PathBuf),
    Failed(String),
}

impl ScreenshotState {
    /// Asks for a screenshot to be saved to `path` after the next frames are drawn.
    pub fn request(&mut self, path: PathBuf, exit_after: bool) {
        self.target = Some(path);
        self.exit_after = exit_after;
        self.frames = 0;
        self.requested = false;
    }

    /// Called once a frame: asks egui for the pixels when the frames have settled, saves them
    /// when they arrive.
    pub fn step(&mut self, ctx: &egui::Context) -> Step {
        let Some(target) = self.target.clone() else {
            return Step::Nothing;
        };
        ctx.request_repaint();
        self.frames += 1;
        if !self.requested && self.frames >= SETTLE_FRAMES {
            let slot = self.image.clone();
            ctx.request_screenshot(move |image| {
                if let Ok(mut s) = slot.lock() {
                    *s = Some(image);
                }
            });
            self.requested = true;
        }
        let image = self.image.lock().ok().and_then(|mut s| s.take());
        let result = match image {
            Some(image) => save_png(&image, &target),
            None if self.frames > GIVE_UP_FRAMES => {
                Err("the window never delivered its pixels for the screenshot".into())
            }
            None => return Step::Nothing,
        };
        if let Ok(mut o) = self.outcome.lock() {
            *o = Some(result.clone());
        }
        self.target = None;
        if self.exit_after {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        match result {
            Ok(()) => Step::Saved(target),
            Err(e) => Step::Failed(e),
        }
    }
}

fn save_png(image: &egui::ColorImage, path: &Path) -> Result<(), String> {
    let [w, h] = image.size;
    let rgba: Vec<u8> = image.pixels.iter().flat_map(|p| p.to_array()).collect();
    let png = crate::export::png::rgba_to_png(w as u32, h as u32, rgba)
        .map_err(|e| format!("{e}: {}", path.display()))?;
    std::fs::write(path, png)
        .map_err(|e| format!("cannot write the screenshot ({e}): {}", path.display()))
}
