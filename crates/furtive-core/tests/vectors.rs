//! Reference runner for the shared test vectors in `tests/vectors/*.json`.
//!
//! Every vector runs here (Rust, the reference), in Node through napi and
//! wasm, and in headless Chromium through wasm; all four must record the same
//! results. The format and its semantics are in `tests/vectors/README.md`:
//!
//! - `current` starts as `createState(config)` (or the first `createState` step);
//! - each step calls one function of `furtive_json::functions` (the JSON facade the
//!   bindings call) with `current`, or with the step's explicit `state`;
//! - a successful `apply`/`settle` on `current` replaces `current`;
//! - `expect` is a recursive subset match, `expectError` an error code;
//! - every step's result is recorded as `{"ok": result}` or
//!   `{"error": {"code", "message"}}` and the list is compared with
//!   `tests/vectors/golden/<name>.json` (rewritten when
//!   `FURTIVE_UPDATE_GOLDEN=1`).
//!
//! A vector with a top-level `knownIssue` documents an engine behaviour that
//! disagrees with `rules-interpretation.md`: its expectation failures are
//! listed loudly but do not fail the run (its golden is still compared, so
//! all backends keep agreeing). When such a vector starts passing, the run
//! fails so the marker gets removed.
//!
//! `FURTIVE_VECTOR=<name>` runs only the vectors whose name contains `<name>`.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use furtive_core::Error;
use furtive_json::functions as api;
use serde_json::{json, Value};

/// Every clause id of `rules-interpretation.md`.
const CLAUSES: [&str; 29] = [
    "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "O1", "O2", "O3", "O4",
    "O5", "O6", "O7", "O8", "O9", "O10", "O11", "O12", "O13", "B1", "B2", "B3", "B4", "B5",
];

/// Error codes the vectors do not cover: vectors are rules scenarios, and
/// `invalid_scene` is covered by the scene tests (`tests/scene.rs`,
/// `tests/errors.rs`, `tests/js/scenes.test.mjs` on every backend).
const CODES_NOT_COVERED: [&str; 1] = ["invalid_scene"];

const VECTOR_KEYS: [&str; 6] = [
    "name",
    "description",
    "clauses",
    "config",
    "steps",
    "knownIssue",
];

const STEP_KEYS: [&str; 10] = [
    "call",
    "config",
    "event",
    "seed",
    "requests",
    "query",
    "state",
    "expect",
    "expectError",
    "comment",
];

fn vectors_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors");
    dir.canonicalize().unwrap_or(dir)
}

fn golden_dir() -> PathBuf {
    vectors_dir().join("golden")
}

fn updating_golden() -> bool {
    std::env::var("FURTIVE_UPDATE_GOLDEN").is_ok_and(|v| v == "1")
}

/// One vector file, parsed.
struct Vector {
    name: String,
    value: Value,
}

impl Vector {
    fn known_issue(&self) -> Option<&str> {
        self.value.get("knownIssue").and_then(Value::as_str)
    }

    fn clauses(&self) -> Vec<String> {
        self.value["clauses"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|c| c.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn steps(&self) -> &[Value] {
        self.value["steps"].as_array().map_or(&[], Vec::as_slice)
    }
}

/// Every `tests/vectors/*.json`, sorted by file name. Panics (fails the test)
/// on a file that is not a well-formed vector.
fn load_vectors() -> Vec<Vector> {
    let dir = vectors_dir();
    let mut paths: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no vectors in {}", dir.display());
    let mut problems = Vec::new();
    let mut vectors = Vec::new();
    for path in paths {
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let text = fs::read_to_string(&path).expect("readable vector file");
        let value: Value = match serde_json::from_str(&text) {
            Ok(v) => v,
            Err(e) => {
                problems.push(format!("{}: not JSON: {e}", path.display()));
                continue;
            }
        };
        problems.extend(check_format(&stem, &value));
        vectors.push(Vector { name: stem, value });
    }
    assert!(
        problems.is_empty(),
        "malformed vector files:\n  {}",
        problems.join("\n  ")
    );
    vectors
}

/// The structural rules of `VECTORS.md`, so a typo in a vector is reported
/// instead of silently testing nothing.
fn check_format(stem: &str, value: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut problem = |p: String| problems.push(format!("{stem}: {p}"));
    let Some(object) = value.as_object() else {
        problem("a vector is a JSON object".into());
        return problems;
    };
    for key in object.keys() {
        if !VECTOR_KEYS.contains(&key.as_str()) {
            problem(format!("unknown top-level key `{key}`"));
        }
    }
    if object.get("name").and_then(Value::as_str) != Some(stem) {
        problem("`name` must equal the file name without `.json`".into());
    }
    if !object.get("description").is_some_and(Value::is_string) {
        problem("`description` must be a string".into());
    }
    if let Some(issue) = object.get("knownIssue") {
        if issue.as_str().is_none_or(str::is_empty) {
            problem("`knownIssue` must be a non-empty string".into());
        }
    }
    match object.get("clauses").and_then(Value::as_array) {
        Some(clauses) => {
            for clause in clauses {
                if !clause.as_str().is_some_and(|c| CLAUSES.contains(&c)) {
                    problem(format!("unknown clause id {clause}"));
                }
            }
        }
        None => {
            problem("`clauses` must be an array of clause ids (empty for pure input checks)".into())
        }
    }
    let Some(steps) = object.get("steps").and_then(Value::as_array) else {
        problem("`steps` must be an array".into());
        return problems;
    };
    if steps.is_empty() {
        problem("`steps` must not be empty".into());
    }
    if !object.contains_key("config")
        && steps.first().and_then(|s| s.get("call")) != Some(&json!("createState"))
    {
        problem("without `config` the first step must be `createState`".into());
    }
    for (index, step) in steps.iter().enumerate() {
        let Some(step) = step.as_object() else {
            problem(format!("step {index}: a step is an object"));
            continue;
        };
        for key in step.keys() {
            if !STEP_KEYS.contains(&key.as_str()) {
                problem(format!("step {index}: unknown key `{key}`"));
            }
        }
        let call = step.get("call").and_then(Value::as_str).unwrap_or("");
        let required: &[&str] = match call {
            "createState" => &["config"],
            "apply" => &["event"],
            "settle" => &["event", "seed"],
            "rollRequests" => &["requests", "seed"],
            "perceives"
            | "canLocate"
            | "canDefend"
            | "knockout"
            | "canPickpocket"
            | "attackHidden"
            | "concealedByDarkness"
            | "alliedSides" => &["query"],
            other => {
                problem(format!("step {index}: unknown call `{other}`"));
                continue;
            }
        };
        for key in required {
            if !step.contains_key(*key) {
                problem(format!("step {index}: `{call}` needs `{key}`"));
            }
        }
        if step.contains_key("expect") && step.contains_key("expectError") {
            problem(format!(
                "step {index}: `expect` and `expectError` exclude each other"
            ));
        }
        if let Some(code) = step.get("expectError") {
            if !code.as_str().is_some_and(|c| Error::CODES.contains(&c)) {
                problem(format!("step {index}: unknown error code {code}"));
            }
        }
        // VECTORS.md: an explicit state never becomes `current`. A successful
        // apply/settle on an explicit state is kept out of the vectors so no
        // runner can read that sentence two ways.
        if step.contains_key("state")
            && matches!(call, "apply" | "settle")
            && !step.contains_key("expectError")
        {
            problem(format!(
                "step {index}: `{call}` with an explicit `state` must expect an error"
            ));
        }
    }
    problems
}

/// Calls the facade for one step, with the explanations' messages given as
/// their `en` and `fr` texts, as the npm package gives them (B3:
/// `furtive_core::message::render_result`, `npm/explain.js`).
fn call(step: &Value, current: &Value) -> Result<Value, Error> {
    let mut result = call_facade(step, current)?;
    furtive_core::message::render_result(&mut result);
    Ok(result)
}

/// Calls the facade for one step.
fn call_facade(step: &Value, current: &Value) -> Result<Value, Error> {
    let arg = |key: &str| step.get(key).cloned().unwrap_or(Value::Null);
    let state = step
        .get("state")
        .cloned()
        .unwrap_or_else(|| current.clone());
    match step["call"].as_str().unwrap_or_default() {
        "createState" => api::create_state::<Value>(arg("config")),
        "apply" => api::apply::<Value>(state, arg("event")),
        "settle" => api::settle::<Value>(state, arg("event"), arg("seed")),
        "rollRequests" => api::roll_requests::<Value>(state, arg("requests"), arg("seed")),
        "perceives" => api::perceives::<Value>(state, arg("query")),
        "canLocate" => api::can_locate::<Value>(state, arg("query")),
        "canDefend" => api::can_defend::<Value>(state, arg("query")),
        "knockout" => api::knockout::<Value>(state, arg("query")),
        "canPickpocket" => api::can_pickpocket::<Value>(state, arg("query")),
        "attackHidden" => api::attack_hidden::<Value>(state, arg("query")),
        "concealedByDarkness" => api::concealed_by_darkness::<Value>(arg("query")),
        "alliedSides" => api::allied_sides::<Value>(arg("query")),
        other => unreachable!("call `{other}` passed check_format"),
    }
}

/// JSON numbers are equal when their values are (JavaScript semantics:
/// `10` and `10.0` are the same number).
fn same_number(a: &serde_json::Number, b: &serde_json::Number) -> bool {
    match (a.as_i64(), b.as_i64(), a.as_u64(), b.as_u64()) {
        (Some(x), Some(y), _, _) => x == y,
        (_, _, Some(x), Some(y)) => x == y,
        _ => a.as_f64() == b.as_f64(),
    }
}

fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 400 {
        format!("{}…", text.chars().take(400).collect::<String>())
    } else {
        text
    }
}

/// `expect` semantics: objects match when every expected key exists and
/// matches; arrays need the same length and match element-wise; scalars are
/// strictly equal. Returns the first mismatch, with its path.
fn subset(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            for (key, value) in e {
                match a.get(key) {
                    Some(actual) => subset(value, actual, &format!("{path}.{key}"))?,
                    None => {
                        return Err(format!(
                            "at {path}.{key}: expected {}, actual: key missing (object has {})",
                            short(value),
                            a.keys().cloned().collect::<Vec<_>>().join(", ")
                        ))
                    }
                }
            }
            Ok(())
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                return Err(format!(
                    "at {path}: expected an array of {} element(s), actual has {}: {}",
                    e.len(),
                    a.len(),
                    short(actual)
                ));
            }
            for (i, (e, a)) in e.iter().zip(a).enumerate() {
                subset(e, a, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (Value::Number(e), Value::Number(a)) if same_number(e, a) => Ok(()),
        (e, a) if e == a => Ok(()),
        (e, a) => Err(format!(
            "at {path}: expected {}, actual {}",
            short(e),
            short(a)
        )),
    }
}

/// Deep equality with the number rule of [`same_number`]; returns the first
/// difference, with its path.
fn deep_equal(expected: &Value, actual: &Value, path: &str) -> Result<(), String> {
    if let (Value::Object(e), Value::Object(a)) = (expected, actual) {
        let keys: BTreeSet<&String> = e.keys().chain(a.keys()).collect();
        for key in keys {
            match (e.get(key), a.get(key)) {
                (Some(x), Some(y)) => deep_equal(x, y, &format!("{path}.{key}"))?,
                (Some(x), None) => {
                    return Err(format!(
                        "at {path}.{key}: golden has {}, actual: key missing",
                        short(x)
                    ))
                }
                (None, Some(y)) => {
                    return Err(format!(
                        "at {path}.{key}: golden: key missing, actual has {}",
                        short(y)
                    ))
                }
                (None, None) => unreachable!(),
            }
        }
        return Ok(());
    }
    subset(expected, actual, path).map_err(|e| e.replacen("expected", "golden", 1))
}

/// What running one vector produced.
struct Run {
    /// One `{ok}` / `{error}` per step.
    recorded: Vec<Value>,
    /// Expectation failures, each naming the step.
    failures: Vec<String>,
}

fn run_vector(vector: &Vector) -> Run {
    let mut failures = Vec::new();
    let mut recorded = Vec::new();
    let mut current = match vector.value.get("config") {
        Some(config) => match api::create_state::<Value>(config.clone()) {
            Ok(state) => state,
            Err(error) => {
                failures.push(format!(
                    "config: createState failed with {} ({error}); use a `createState` step to test a bad config",
                    error.code()
                ));
                return Run { recorded, failures };
            }
        },
        None => Value::Null,
    };
    for (index, step) in vector.steps().iter().enumerate() {
        let name = step["call"].as_str().unwrap_or_default();
        let at = format!("step {index} ({name})");
        let result = call(step, &current);
        match &result {
            Ok(value) => {
                recorded.push(json!({ "ok": value }));
                if step.get("state").is_none() {
                    match name {
                        "createState" => current = value.clone(),
                        "apply" | "settle" => current = value["state"].clone(),
                        _ => {}
                    }
                }
            }
            Err(error) => {
                recorded.push(json!({
                    "error": { "code": error.code(), "message": error.to_string() }
                }));
            }
        }
        match (&result, step.get("expect"), step.get("expectError")) {
            (Ok(value), Some(expect), _) => {
                if let Err(mismatch) = subset(expect, value, "$") {
                    failures.push(format!(
                        "{at}: {mismatch}\n      expected (subset): {}\n      actual: {}",
                        short(expect),
                        short(value)
                    ));
                }
            }
            (Ok(_), None, None) => {}
            (Ok(value), None, Some(code)) => failures.push(format!(
                "{at}: expected error {code}, actual success: {}",
                short(value)
            )),
            (Err(error), None, Some(code)) => {
                if Some(error.code()) != code.as_str() {
                    failures.push(format!(
                        "{at}: expected error {code}, actual error {} ({error})",
                        error.code()
                    ));
                }
            }
            (Err(error), _, None) => failures.push(format!(
                "{at}: expected success, actual error {} ({error})",
                error.code()
            )),
            (Err(_), Some(_), Some(_)) => unreachable!("rejected by check_format"),
        }
    }
    Run { recorded, failures }
}

fn selected(vector: &Vector) -> bool {
    std::env::var("FURTIVE_VECTOR").map_or(true, |filter| vector.name.contains(&filter))
}

/// Compares (or rewrites) the golden file of one vector.
fn check_golden(vector: &Vector, recorded: &[Value], may_write: bool) -> Result<(), String> {
    let path = golden_dir().join(format!("{}.json", vector.name));
    let recorded = Value::Array(recorded.to_vec());
    if updating_golden() {
        if !may_write {
            return Err("golden not rewritten: the vector's expectations fail".into());
        }
        fs::create_dir_all(golden_dir()).expect("create the golden directory");
        let text = serde_json::to_string_pretty(&recorded).expect("serializable") + "\n";
        fs::write(&path, text).expect("write the golden file");
        return Ok(());
    }
    let text = fs::read_to_string(&path).map_err(|e| {
        format!(
            "golden {} missing ({e}); run with FURTIVE_UPDATE_GOLDEN=1",
            path.display()
        )
    })?;
    let golden: Value =
        serde_json::from_str(&text).map_err(|e| format!("golden {}: {e}", path.display()))?;
    let (Some(golden_steps), Some(actual_steps)) = (golden.as_array(), recorded.as_array()) else {
        return Err(format!("golden {} is not an array", path.display()));
    };
    if golden_steps.len() != actual_steps.len() {
        return Err(format!(
            "golden has {} step(s), the run recorded {}",
            golden_steps.len(),
            actual_steps.len()
        ));
    }
    let mut differences = Vec::new();
    for (index, (g, a)) in golden_steps.iter().zip(actual_steps).enumerate() {
        if let Err(difference) = deep_equal(g, a, "$") {
            differences.push(format!("step {index}: differs from golden {difference}"));
        }
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(differences.join("\n    "))
    }
}

#[test]
fn vectors_match_expectations_and_goldens() {
    let vectors = load_vectors();
    let mut failures = Vec::new();
    let mut known = Vec::new();
    let mut ran = 0;
    for vector in vectors.iter().filter(|v| selected(v)) {
        ran += 1;
        let run = run_vector(vector);
        match (vector.known_issue(), run.failures.is_empty()) {
            (None, true) => {}
            (None, false) => failures.push(format!(
                "vector `{}`:\n    {}",
                vector.name,
                run.failures.join("\n    ")
            )),
            (Some(issue), false) => known.push(format!(
                "vector `{}` — {issue}\n    {}",
                vector.name,
                run.failures.join("\n    ")
            )),
            (Some(_), true) => failures.push(format!(
                "vector `{}`: marked knownIssue but every expectation now holds; remove `knownIssue` and regenerate its golden",
                vector.name
            )),
        }
        let may_write = run.failures.is_empty() || vector.known_issue().is_some();
        if let Err(problem) = check_golden(vector, &run.recorded, may_write) {
            failures.push(format!("vector `{}`: {problem}", vector.name));
        }
    }
    if !known.is_empty() {
        // Written to the process's stderr directly (not `eprintln!`), so the
        // list shows even when the test passes and its output is captured.
        let _ = writeln!(
            std::io::stderr(),
            "\n!!!!!!!! {} KNOWN ISSUE(S): expectations skipped (the engine disagrees with rules-interpretation.md) !!!!!!!!\n  {}\n",
            known.len(),
            known.join("\n  ")
        );
    }
    if std::env::var("FURTIVE_VECTOR").is_err() && !updating_golden() {
        let names: BTreeSet<String> = vectors.iter().map(|v| format!("{}.json", v.name)).collect();
        if let Ok(entries) = fs::read_dir(golden_dir()) {
            for entry in entries.flatten() {
                let file = entry.file_name().to_string_lossy().into_owned();
                if !names.contains(&file) {
                    failures.push(format!("golden `{file}` has no vector"));
                }
            }
        }
    }
    eprintln!(
        "ran {ran} vector(s); {} failing, {} known issue(s)",
        failures.len(),
        known.len()
    );
    assert!(
        failures.is_empty(),
        "{} vector failure(s):\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

#[test]
fn vectors_cover_every_clause_and_error_code() {
    let vectors = load_vectors();
    let covered: BTreeSet<String> = vectors.iter().flat_map(Vector::clauses).collect();
    let all: BTreeSet<String> = CLAUSES.iter().map(|c| (*c).to_owned()).collect();
    let missing: Vec<&String> = all.difference(&covered).collect();
    let extra: Vec<&String> = covered.difference(&all).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "clause coverage: missing {missing:?}, unknown {extra:?}"
    );

    let codes: BTreeSet<&str> = vectors
        .iter()
        .flat_map(|v| v.steps().iter())
        .filter_map(|s| s.get("expectError").and_then(Value::as_str))
        .collect();
    let uncovered: Vec<&&str> = Error::CODES
        .iter()
        .filter(|c| !codes.contains(**c) && !CODES_NOT_COVERED.contains(c))
        .collect();
    assert!(
        uncovered.is_empty(),
        "error codes no vector expects: {uncovered:?}"
    );
    let unknown: Vec<&&str> = codes.iter().filter(|c| !Error::CODES.contains(c)).collect();
    assert!(unknown.is_empty(), "unknown error codes: {unknown:?}");
}

#[test]
fn subset_match_follows_vectors_md() {
    let actual = json!({"a": 1, "b": [1, {"c": 2, "d": 3}], "e": 10.0});
    assert!(subset(&json!({"a": 1}), &actual, "$").is_ok());
    assert!(subset(&json!({"b": [1, {"c": 2}]}), &actual, "$").is_ok());
    assert!(subset(&json!({"e": 10}), &actual, "$").is_ok());
    assert!(subset(&json!({"b": [1]}), &actual, "$").is_err());
    assert!(subset(&json!({"a": "1"}), &actual, "$").is_err());
    assert!(subset(&json!({"z": null}), &actual, "$").is_err());
    assert!(subset(&json!({"a": null}), &json!({"a": null}), "$").is_ok());
    assert!(deep_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2}), "$").is_err());
    assert!(deep_equal(&json!({"a": [1.0]}), &json!({"a": [1]}), "$").is_ok());
    let mismatch = subset(&json!({"b": [1, {"c": 5}]}), &actual, "$").unwrap_err();
    assert!(mismatch.contains("$.b[1].c"), "{mismatch}");
}
