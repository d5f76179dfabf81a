//! `npm/signatures.js` is written from `furtive_json::for_each_export!`, the
//! one list of exports both bindings are built from: the arguments the
//! JavaScript layer encodes for each free function and `Session` method,
//! and the cargo feature each needs. This test fails when the file differs
//! from the list; `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test
//! exports` rewrites it.

use std::path::Path;

/// One export: JavaScript name, cargo feature (`""` for none), arguments
/// (name, optional), doc.
type Entry<'a> = (&'a str, &'a str, Vec<(&'a str, bool)>, &'a str);

/// `["a", "b?"]`.
fn arguments(names: &[(&str, bool)]) -> String {
    let items: Vec<String> = names
        .iter()
        .map(|(name, optional)| format!("\"{name}{}\"", if *optional { "?" } else { "" }))
        .collect();
    format!("[{}]", items.join(", "))
}

/// `  name: [args], // doc` lines, one per export.
fn entries(items: &[Entry]) -> String {
    items
        .iter()
        .map(|(js, feature, args, doc)| {
            let feature = if feature.is_empty() {
                String::new()
            } else {
                format!(" (feature `{feature}`)")
            };
            format!("  /** {doc}{feature} */\n  {js}: {},\n", arguments(args))
        })
        .collect()
}

/// `{ name: "feature" }` for the exports that need a feature; a class
/// member's key is qualified (`"Session.settle"`), since a free function
/// and a method of the same name can need different features.
fn features(items: &[(String, String)]) -> String {
    items
        .iter()
        .filter(|(_, feature)| !feature.is_empty())
        .map(|(key, feature)| {
            if key.contains('.') {
                format!("  \"{key}\": \"{feature}\",\n")
            } else {
                format!("  {key}: \"{feature}\",\n")
            }
        })
        .collect()
}

/// The feature an entry names, or `""`.
macro_rules! feature_of {
    () => {
        ""
    };
    ($feature:literal) => {
        $feature
    };
}

/// Every export of the list, by kind.
struct Exports<'a> {
    functions: Vec<Entry<'a>>,
    constructors: Vec<Entry<'a>>,
    methods: Vec<Entry<'a>>,
    getters: Vec<(&'a str, &'a str)>,
    scene_constructors: Vec<Entry<'a>>,
    scene_methods: Vec<Entry<'a>>,
}

macro_rules! javascript {
    (
        functions: [$({ $name:ident, $js:literal, [$($feature:literal)?], ($($arg:ident $([$optional:ident])?),*), $doc:literal },)*],
        session_constructors: [$({ $ctor:ident, $ctor_js:literal, [$($ctor_feature:literal)?], ($($ctor_arg:ident),*), $ctor_doc:literal },)*],
        session_mut: [$({ $mut:ident, $mut_js:literal, [$($mut_feature:literal)?], ($($mut_arg:ident),*), $mut_doc:literal },)*],
        session_ref: [$({ $ref:ident, $ref_js:literal, [$($ref_feature:literal)?], ($($ref_arg:ident),*), $ref_doc:literal },)*],
        session_getters: [$({ $getter:ident, $getter_js:literal, $getter_doc:literal },)*],
        scene_constructors: [$({ $sctor:ident, $sctor_js:literal, [$($sctor_feature:literal)?], ($($sctor_arg:ident),*), $sctor_doc:literal },)*],
        scene_methods: [$({ $smethod:ident, $smethod_js:literal, [$($smethod_feature:literal)?], ($($smethod_arg:ident),*), $smethod_doc:literal },)*],
    ) => {{
        let functions = vec![$(($js, feature_of!($($feature)?), vec![$((stringify!($arg), false $(|| stringify!($optional) == "optional")?)),*], $doc)),*];
        let constructors = vec![$(($ctor_js, feature_of!($($ctor_feature)?), vec![$((stringify!($ctor_arg), false)),*], $ctor_doc)),*];
        let methods = vec![
            $(($mut_js, feature_of!($($mut_feature)?), vec![$((stringify!($mut_arg), false)),*], $mut_doc),)*
            $(($ref_js, feature_of!($($ref_feature)?), vec![$((stringify!($ref_arg), false)),*], $ref_doc),)*
        ];
        let getters: Vec<(&str, &str)> = vec![$(($getter_js, $getter_doc)),*];
        let scene_constructors: Vec<Entry> = vec![$(($sctor_js, feature_of!($($sctor_feature)?), vec![$((stringify!($sctor_arg), false)),*], $sctor_doc)),*];
        let scene_methods: Vec<Entry> = vec![$(($smethod_js, feature_of!($($smethod_feature)?), vec![$((stringify!($smethod_arg), false)),*], $smethod_doc)),*];
        Exports { functions, constructors, methods, getters, scene_constructors, scene_methods }
    }};
}

fn generate() -> String {
    let Exports {
        functions,
        constructors,
        methods,
        getters,
        scene_constructors,
        scene_methods,
    } = furtive_json::for_each_export!(javascript);
    let mut text = String::from(
        "// Generated from furtive_json::for_each_export! (crates/furtive-json/src/exports.rs),\n\
         // the one list both bindings are built from. Do not edit: run\n\
         // `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test exports`.\n\
         // `cargo test` fails when this file differs from the list.\n\n",
    );
    text += "/** The arguments of each free function, in order; `?` marks an optional one. */\n";
    text += &format!(
        "export const SIGNATURES = Object.freeze({{\n{}}});\n\n",
        entries(&functions)
    );
    text += "/** The arguments of each static `Session` constructor. */\n";
    text += &format!(
        "export const SESSION_CONSTRUCTORS = Object.freeze({{\n{}}});\n\n",
        entries(&constructors)
    );
    text += "/** The arguments of each `Session` method. */\n";
    text += &format!(
        "export const SESSION_METHODS = Object.freeze({{\n{}}});\n\n",
        entries(&methods)
    );
    text += "/** The `Session` properties (read-only numbers). */\n";
    let getters: Vec<String> = getters.iter().map(|(js, _)| format!("\"{js}\"")).collect();
    text += &format!(
        "export const SESSION_GETTERS = Object.freeze([{}]);\n\n",
        getters.join(", ")
    );
    text += "/** The arguments of each static `SceneSight` constructor. */\n";
    text += &format!(
        "export const SCENE_CONSTRUCTORS = Object.freeze({{\n{}}});\n\n",
        entries(&scene_constructors)
    );
    text += "/** The arguments of each `SceneSight` method. */\n";
    text += &format!(
        "export const SCENE_METHODS = Object.freeze({{\n{}}});\n\n",
        entries(&scene_methods)
    );
    text += "/** The cargo feature of furtive-core each export needs; a wasm build without it lacks the export. */\n";
    let qualified = |class: &str, items: &[Entry<'_>]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|(js, feature, _, _)| (format!("{class}{js}"), feature.to_string()))
            .collect()
    };
    let mut all = qualified("", &functions);
    all.extend(qualified("Session.", &constructors));
    all.extend(qualified("Session.", &methods));
    all.extend(qualified("SceneSight.", &scene_constructors));
    all.extend(qualified("SceneSight.", &scene_methods));
    text += &format!(
        "export const FEATURES = Object.freeze({{\n{}}});\n",
        features(&all)
    );
    text
}

#[test]
fn npm_signatures_js_is_generated_from_the_export_list() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/signatures.js");
    let expected = generate();
    if std::env::var("FURTIVE_UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("write npm/signatures.js");
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "npm/signatures.js differs from furtive_json::for_each_export!; regenerate it with \
         FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test exports"
    );
}

/// The declarations of `npm/index.d.ts` checked against the Rust side: every
/// export of the list is declared (free functions as `export declare
/// function`, `Session` members inside `export declare class Session`), and
/// `EngineErrorCode` lists exactly `Error::CODES`, in order.
/// The text of `export declare class {name} { ... }` in index.d.ts.
fn class_body<'a>(declarations: &'a str, name: &str) -> &'a str {
    let start = declarations
        .find(&format!("export declare class {name} {{"))
        .unwrap_or_else(|| panic!("index.d.ts declares class {name}"));
    let end = start
        + declarations[start..]
            .find("\n}\n")
            .unwrap_or_else(|| panic!("the end of class {name}"));
    &declarations[start..end]
}

#[test]
fn npm_index_d_ts_declares_every_export_and_every_error_code() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/index.d.ts");
    let declarations = std::fs::read_to_string(&path).expect("npm/index.d.ts");
    let Exports {
        functions,
        constructors,
        methods,
        getters,
        scene_constructors,
        scene_methods,
    } = furtive_json::for_each_export!(javascript);

    let mut missing = Vec::new();
    for (js, _, _, _) in &functions {
        if !declarations.contains(&format!("export declare function {js}(")) {
            missing.push(format!("function {js}"));
        }
    }
    let class_start = declarations
        .find("export declare class Session {")
        .expect("index.d.ts declares class Session");
    let class_end = class_start
        + declarations[class_start..]
            .find("\n}\n")
            .expect("the end of class Session");
    let class = &declarations[class_start..class_end];
    for (js, _, _, _) in &constructors {
        if !class.contains(&format!("\n  static {js}(")) {
            missing.push(format!("Session.{js}"));
        }
    }
    for (js, _, _, _) in &methods {
        if !class.contains(&format!("\n  {js}(")) {
            missing.push(format!("Session.prototype.{js}"));
        }
    }
    for (js, _) in &getters {
        if !class.contains(&format!("\n  readonly {js}: number;")) {
            missing.push(format!("Session.prototype.{js}"));
        }
    }
    let class = class_body(&declarations, "SceneSight");
    for (js, _, _, _) in &scene_constructors {
        if !class.contains(&format!("\n  static {js}(")) {
            missing.push(format!("SceneSight.{js}"));
        }
    }
    for (js, _, _, _) in &scene_methods {
        if !class.contains(&format!("\n  {js}(")) {
            missing.push(format!("SceneSight.prototype.{js}"));
        }
    }
    assert!(
        missing.is_empty(),
        "npm/index.d.ts does not declare: {}",
        missing.join(", ")
    );

    let generated = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/types.d.ts");
    let types = std::fs::read_to_string(&generated).expect("npm/types.d.ts");
    assert!(
        declarations.contains("export * from \"./types.js\";"),
        "npm/index.d.ts re-exports the generated types"
    );
    let declarations = types;
    let union_start = declarations
        .find("export type EngineErrorCode =")
        .expect("index.d.ts declares EngineErrorCode");
    let union_end = union_start
        + declarations[union_start..]
            .find(';')
            .expect("end of the union");
    let declared: Vec<&str> = declarations[union_start..union_end]
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();
    assert_eq!(
        declared,
        furtive_core::Error::CODES,
        "EngineErrorCode in npm/types.d.ts must list Error::CODES, in order"
    );
}
