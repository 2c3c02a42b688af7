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

// ---------------------------------------------------------------------------------------------
// No import circles, at any depth (issue 16): inside `src/` every module's children, taken as
// siblings, import one another without a circle. A file's module is its path (`app/panels/
// settings.rs` is `app::panels::settings`); a `crate::`, `super::` or `self::` path (in a `use`
// tree, grouped or not, or inline in code) names the deepest module it reaches. An import
// between a module and one of its ancestors is the module tree itself, not a circle; any other
// import lifts to the two children of their nearest common ancestor (`app::panels::menu` using
// `app::command` is the edge `panels -> command` among `app`'s children). A name a parent
// re-exports counts as the parent's, so import the module that defines it.

/// The source with comments, string and character literals blanked out, so that a path in a
/// message or a doc comment is not read as an import.
fn code_only(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            while b.get(j) == Some(&'#') {
                j += 1;
            }
            b.get(j) == Some(&'"')
                && !b
                    .get(i.wrapping_sub(1))
                    .is_some_and(|p| p.is_alphanumeric() || *p == '_')
        } {
            let mut j = i + 1;
            let mut hashes = 0;
            while b[j] == '#' {
                hashes += 1;
                j += 1;
            }
            j += 1;
            while j < b.len() {
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            i = j;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), else a lifetime or label.
            let end = if next == Some('\\') {
                (i + 3..b.len().min(i + 12)).find(|&j| b[j] == '\'')
            } else {
                (b.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match end {
                Some(e) => {
                    i = e + 1;
                    out.push_str("' '");
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Path,
    Punct(char),
}

fn tokens(code: &str) -> Vec<Token> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(b[start..i].iter().collect()));
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push(Token::Path);
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Punct(c));
            }
            i += 1;
        }
    }
    out
}

/// The full paths of a `use` tree starting at `t[*i]`, up to (not including) the `,`, `}` or
/// `;` that ends it; `prefix` is what the enclosing group already said.
fn use_tree(t: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let mut path = prefix.to_vec();
    loop {
        match t.get(*i) {
            Some(Token::Ident(s)) => {
                if s == "as" {
                    // `x as y`: the alias is no module.
                    *i += 2;
                    continue;
                }
                if s != "self" || path.is_empty() {
                    path.push(s.clone());
                }
                *i += 1;
            }
            Some(Token::Path) => *i += 1,
            Some(Token::Punct('{')) => {
                *i += 1;
                loop {
                    match t.get(*i) {
                        Some(Token::Punct('}')) => {
                            *i += 1;
                            break;
                        }
                        Some(Token::Punct(',')) => *i += 1,
                        None => return,
                        _ => use_tree(t, i, &path, out),
                    }
                }
                return;
            }
            Some(Token::Punct('*')) => {
                *i += 1;
            }
            _ => {
                out.push(path);
                return;
            }
        }
    }
}

/// Every path the source names from `crate`, `super` or `self`, made absolute (segments from
/// the crate root) from `module`, the file's module; inline `mod x { ... }` blocks move
/// `super` and `self` one level down while they last.
fn absolute_paths(module: &[String], text: &str) -> Vec<Vec<String>> {
    let t = tokens(&code_only(text));
    let mut here = module.to_vec();
    // (brace depth at which the inline module's block opened, its module path before)
    let mut inline: Vec<(usize, Vec<String>)> = Vec::new();
    let mut depth = 0usize;
    let mut raw: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        match &t[i] {
            Token::Punct('{') => {
                depth += 1;
                i += 1;
            }
            Token::Punct('}') => {
                if inline.last().is_some_and(|(d, _)| *d == depth) {
                    here = inline.pop().unwrap().1;
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Token::Ident(k) if k == "mod" => {
                if let (Some(Token::Ident(name)), Some(Token::Punct('{'))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    inline.push((depth + 1, here.clone()));
                    here.push(name.clone());
                }
                i += 1;
            }
            Token::Ident(k) if k == "use" => {
                i += 1;
                let mut paths = Vec::new();
                use_tree(&t, &mut i, &[], &mut paths);
                raw.extend(paths.into_iter().map(|p| (here.clone(), p)));
            }
            Token::Ident(k)
                if (k == "crate" || k == "super" || k == "self")
                    && t.get(i + 1) == Some(&Token::Path)
                    && (i == 0 || t[i - 1] != Token::Path) =>
            {
                let mut path = Vec::new();
                while let Some(Token::Ident(s)) = t.get(i) {
                    path.push(s.clone());
                    if t.get(i + 1) != Some(&Token::Path) {
                        break;
                    }
                    i += 2;
                }
                i += 1;
                raw.push((here.clone(), path));
            }
            _ => i += 1,
        }
    }
    let mut out = Vec::new();
    for (base, path) in raw {
        let mut abs = base.clone();
        let mut rest = path.as_slice();
        match rest.first().map(String::as_str) {
            Some("crate") => {
                abs.clear();
                rest = &rest[1..];
            }
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    abs.pop();
                    rest = &rest[1..];
                }
            }
            Some("self") => rest = &rest[1..],
            _ => continue,
        }
        abs.extend(rest.iter().cloned());
        out.push(abs);
    }
    out
}

/// A file's module path: `app/panels/mod.rs` -> [app, panels], `app/command.rs` -> [app,
/// command], `lib.rs` -> [].
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| {
            c.as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The sibling edges (parent module, from child, to child, evidence) of the imports of
/// `files` (module path, source text).
fn sibling_edges(files: &[(Vec<String>, String)]) -> Vec<(Vec<String>, String, String, String)> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut edges = Vec::new();
    for (from, text) in files {
        for path in absolute_paths(from, text) {
            // The deepest module the path reaches.
            let Some(to) = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                // The same module, or one is the other's ancestor: the module tree.
                continue;
            }
            edges.push((
                from[..common].to_vec(),
                from[common].clone(),
                to[common].clone(),
                format!("{} uses {}", from.join("::"), path.join("::")),
            ));
        }
    }
    edges
}

/// The circles among the children of each module: for each, the children in order and the
/// import that makes each step.
fn import_cycles(files: &[(Vec<String>, String)]) -> Vec<String> {
    use std::collections::BTreeMap;
    let mut graphs: BTreeMap<Vec<String>, BTreeMap<String, BTreeMap<String, String>>> =
        BTreeMap::new();
    for (parent, a, b, why) in sibling_edges(files) {
        graphs
            .entry(parent)
            .or_default()
            .entry(a)
            .or_default()
            .entry(b)
            .or_insert(why);
    }
    let mut found = Vec::new();
    for (parent, g) in &graphs {
        // Depth-first search for a back edge; each circle is reported once, from its least node.
        let nodes: Vec<&String> = g.keys().collect();
        let mut reported: BTreeSet<Vec<String>> = BTreeSet::new();
        for start in nodes {
            let mut stack: Vec<(String, Vec<String>)> = vec![(start.clone(), vec![start.clone()])];
            let mut seen = BTreeSet::new();
            while let Some((node, path)) = stack.pop() {
                for next in g.get(&node).map(|m| m.keys()).into_iter().flatten() {
                    if next == start {
                        let mut circle = path.clone();
                        let least = circle.iter().min().unwrap().clone();
                        let at = circle.iter().position(|n| *n == least).unwrap();
                        circle.rotate_left(at);
                        if reported.insert(circle.clone()) {
                            let mut steps = Vec::new();
                            for k in 0..circle.len() {
                                let (a, b) = (&circle[k], &circle[(k + 1) % circle.len()]);
                                steps.push(g[a][b].clone());
                            }
                            let scope = if parent.is_empty() {
                                "crate".to_string()
                            } else {
                                parent.join("::")
                            };
                            found.push(format!(
                                "in {scope}: {} -> {} ({})",
                                circle.join(" -> "),
                                circle[0],
                                steps.join("; ")
                            ));
                        }
                    } else if !path.contains(next) && seen.insert(next.clone()) {
                        let mut p = path.clone();
                        p.push(next.clone());
                        stack.push((next.clone(), p));
                    }
                }
            }
        }
    }
    found
}

#[test]
fn no_module_imports_in_a_circle_at_any_depth() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let files: Vec<(Vec<String>, String)> = paths
        .iter()
        .filter(|p| !p.ends_with("main.rs"))
        .map(|p| {
            (
                module_of(p.strip_prefix(&src).unwrap()),
                std::fs::read_to_string(p).unwrap(),
            )
        })
        .collect();
    let edges = sibling_edges(&files);
    assert!(
        edges.iter().filter(|e| e.0 == ["app".to_string()]).count() > 10,
        "too few imports seen inside app/: is the reader right?"
    );
    let cycles = import_cycles(&files);
    assert!(cycles.is_empty(), "import circles:\n{}", cycles.join("\n"));
}

#[test]
fn the_circle_finder_sees_a_circle_through_super_crate_and_a_group() {
    let file = |m: &str, text: &str| {
        (
            m.split("::").map(str::to_string).collect::<Vec<_>>(),
            text.to_string(),
        )
    };
    let files = vec![
        file("app", "pub mod a; pub mod b; pub mod c; use a::X;"),
        // a -> b through super, b -> c through a group under crate, c -> a inline.
        file("app::a", "use super::b::Thing;\n// crate::app::c in a comment\n"),
        file("app::b", "use crate::{app::{c::{self, Y}}, model};\nlet s = \"crate::app::a\";"),
        file("app::c", "fn f() { let _ = crate::app::a::X::new(); }\n#[cfg(test)]\nmod tests { use super::f; }"),
        file("model", ""),
    ];
    let cycles = import_cycles(&files);
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert!(
        cycles[0].starts_with("in app: a -> b -> c -> a"),
        "{}",
        cycles[0]
    );
    // Without c's inline path to a (only a comment names it), the graph is a chain.
    let files: Vec<_> = vec![
        file("app::a", "use super::b::Thing;"),
        file("app::b", "use crate::app::c::{self, Y};"),
        file(
            "app::c",
            "mod tests { use super::super::c; } // crate::app::a",
        ),
    ];
    assert!(import_cycles(&files).is_empty());
}
