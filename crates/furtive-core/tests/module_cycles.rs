//! No import cycle between the modules of any crate of the workspace.
//!
//! A module is a file or a folder directly under a crate's `src/` (the
//! crate root excepted). One module imports another when its code, outside
//! comments and `#[cfg(test)]` modules, names `crate::other` (alone or in
//! a `use crate::{...}` group). The imports must form no cycle, so the
//! layers point one way: the domain imports nothing from the JSON boundary,
//! and within a crate no two modules need each other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// `text` without comments and without `#[cfg(test)] mod ... { ... }` blocks.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        out.push_str(line);
        out.push('\n');
    }
    while let Some(start) = out.find("#[cfg(test)]") {
        let after = &out[start..];
        let Some(open) = after.find('{') else { break };
        if !after[..open].contains("mod ") {
            out.replace_range(start..start + "#[cfg(test)]".len(), "");
            continue;
        }
        let mut depth = 0;
        let mut end = out.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(start..end, "");
    }
    out
}

/// The names `code` imports from its crate: `crate::name` and the names
/// of `use crate::{a, b::c}`.
fn imported(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                names.insert(word(part.trim()));
            }
        } else {
            names.insert(word(rest));
        }
    }
    names
}

/// Each module of the crate at `src` and the modules it imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            files.entry(name).or_default().extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") && name != "lib" && name != "main" {
            files.entry(name).or_default().push(path);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(module, paths)| {
            let mut uses = BTreeSet::new();
            for path in paths {
                let text = fs::read_to_string(path).unwrap();
                uses.extend(
                    imported(&code(&text))
                        .into_iter()
                        .filter(|name| name != module && modules.contains(name)),
                );
            }
            (module.clone(), uses)
        })
        .collect()
}

/// The modules of a cycle through `start`, if any: those `start` reaches
/// that also reach `start`.
fn cycle_through(start: &str, graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(module) = todo.pop() {
            for next in &graph[&module] {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    reach(start)
        .into_iter()
        .filter(|other| reach(other).contains(start))
        .collect()
}

#[test]
fn no_crate_has_an_import_cycle_between_its_modules() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut cycles = Vec::new();
    for entry in fs::read_dir(&crates).unwrap() {
        let src = entry.unwrap().path().join("src");
        if !src.is_dir() {
            continue;
        }
        let graph = imports(&src);
        for module in graph.keys() {
            let cycle = cycle_through(module, &graph);
            if !cycle.is_empty() {
                cycles.push(format!("{}: {module} <-> {cycle:?}", src.display()));
            }
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_cycle_check_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, uses)| (m.to_owned(), uses.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(cycle_through("a", &graph).len(), 3);
    assert!(cycle_through("d", &graph).is_empty());
    assert_eq!(
        imported(&code(
            "use crate::{state::State, event};\n// crate::x\nfn f() { crate::rules::go() }"
        )),
        ["event", "rules", "state"]
            .into_iter()
            .map(str::to_owned)
            .collect()
    );
}
