//! Every `docs/<name>.md` a source, doc or generated type of the repository
//! points a reader to exists. The Rust docstrings of `apply`,
//! `Session::apply` and `State` (and, through the schema, npm/types.d.ts and
//! npm/furtive.schema.json) sent readers to an API page under docs/ (`api`)
//! that was never written.

use std::fs;
use std::path::{Path, PathBuf};

/// Directories not read: build output, installed packages, fuzz corpora.
const SKIPPED: [&str; 7] = [
    ".git",
    "target",
    "node_modules",
    "dist",
    "corpus",
    "artifacts",
    "engine",
];
const READ: [&str; 8] = ["rs", "md", "mjs", "js", "ts", "json", "sh", "toml"];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                files(&path, out);
            }
        } else if path
            .extension()
            .is_some_and(|ext| READ.contains(&ext.to_string_lossy().as_ref()))
        {
            out.push(path);
        }
    }
}

/// The `docs/<name>.md` paths in `text` (a name of letters, digits, `-`, `_`).
fn doc_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("docs/") {
        let tail = &rest[at + 5..];
        let name: String = tail
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if !name.is_empty() && tail[name.len()..].starts_with(".md") {
            found.push(format!("docs/{name}.md"));
        }
        rest = tail;
    }
    found
}

#[test]
fn every_docs_path_named_in_the_repository_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut all = Vec::new();
    files(&root, &mut all);
    assert!(all.len() > 50, "read only {} files", all.len());
    let mut missing = Vec::new();
    for file in all {
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        for path in doc_paths(&text) {
            if !root.join(&path).is_file() {
                missing.push(format!(
                    "{} names {path}",
                    file.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(missing.is_empty(), "missing docs:\n{}", missing.join("\n"));
}
