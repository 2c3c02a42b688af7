//! The layering of `src/` (STYLE.md, issue 8): modules import only downwards, in this order
//! from the ground up — model, analysis, plan, planner, synth, view, export, document, then
//! cli and app, neither of which uses the other — and nothing outside `app/` names egui,
//! eframe, egui_plot or rfd. Read from the source text, so a new upward import fails here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const LAYERS: [&str; 10] = [
    "model", "analysis", "plan", "planner", "synth", "view", "export", "document", "cli", "app",
];

fn rank(module: &str) -> Option<usize> {
    // cli and app share the top rank.
    LAYERS
        .iter()
        .position(|m| *m == module)
        .map(|r| r.min(LAYERS.len() - 2))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level modules a source text names through `crate::`, including grouped imports
/// (`use crate::{a::B, c};`).
fn crate_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level names inside the braces (depth 1 only).
            let mut depth = 1;
            let mut name = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        if !name.is_empty() {
                            out.insert(std::mem::take(&mut name));
                        }
                        at_start = true;
                        continue;
                    }
                    _ => {}
                }
                if depth == 1 && at_start {
                    if c.is_alphanumeric() || c == '_' {
                        name.push(c);
                    } else if !name.is_empty() {
                        out.insert(std::mem::take(&mut name));
                        at_start = false;
                    }
                }
            }
            if !name.is_empty() {
                out.insert(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.insert(name);
        }
    }
    out
}

#[test]
fn modules_import_only_downwards_and_the_gui_stays_in_app() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = top.trim_end_matches(".rs").to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let own = rank(&module).unwrap_or_else(|| panic!("{module} is not in the layer list"));
        let text = std::fs::read_to_string(file).unwrap();
        for used in crate_modules(&text) {
            let Some(r) = rank(&used) else { continue };
            checked += 1;
            let upward = r > own || (r == own && used != module);
            if upward {
                problems.push(format!("{} uses crate::{used}", rel.display()));
            }
        }
        if module != "app" {
            for gui in ["egui", "eframe", "rfd::"] {
                if text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("//"))
                    .any(|l| l.contains(&format!("{gui}::")) || l.contains(&format!("use {gui}")))
                {
                    problems.push(format!("{} names {gui} outside app/", rel.display()));
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} imports seen: is the parser right?"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_import_reader_sees_grouped_and_plain_paths() {
    let text = "use crate::{analysis::{self, Problem}, plan};\nlet x = crate::view::PAINT;\n// crate::app in a comment\n";
    let got: Vec<String> = crate_modules(text).into_iter().collect();
    assert_eq!(got, vec!["analysis", "plan", "view"]);
}
