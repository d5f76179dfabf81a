//! `npm/furtive.schema.json` is the JSON Schema of every type that crosses
//! the JavaScript boundary, written by `furtive_core::schema::boundary_schema`
//! from the Rust types' derives; `npm/types.d.ts` is generated from it
//! (`node tests/js/generate-types.mjs`, checked by
//! `tests/js/generated-types.test.mjs`). This test fails when the committed
//! schema differs from the Rust types; regenerate both with
//! `bash scripts/generate-types.sh`. Needs the feature `schema`:
//! `cargo test -p furtive-core --features schema --test types` (scripts/test.sh).

use std::path::Path;

#[test]
fn npm_furtive_schema_json_is_generated_from_the_rust_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/furtive.schema.json");
    let expected = serde_json::to_string_pretty(&furtive_core::schema::boundary_schema())
        .expect("the schema serializes")
        + "\n";
    if std::env::var("FURTIVE_UPDATE_GOLDEN").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &expected).expect("write npm/furtive.schema.json");
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "npm/furtive.schema.json differs from the Rust types; regenerate it and npm/types.d.ts \
         with `bash scripts/generate-types.sh`"
    );
}

/// `SceneUpdate` is read by hand (`SceneUpdate::from_value`) and its
/// schema written by hand (`furtive_core::schema`): both must know the same
/// update types, and what the reader asks for first must be a field the
/// schema requires.
#[cfg(feature = "scene")]
#[test]
fn the_scene_update_schema_lists_what_the_reader_reads() {
    use furtive_core::scene::SceneUpdate;
    use serde_json::{json, Value};

    let schema = furtive_core::schema::boundary_schema();
    let variants = schema["definitions"]["SceneUpdate"]["oneOf"]
        .as_array()
        .expect("SceneUpdate is a oneOf");
    let mut kinds = Vec::new();
    for variant in variants {
        let kind = variant["properties"]["type"]["const"]
            .as_str()
            .expect("each variant has a const type");
        kinds.push(kind.to_owned());
        let required: Vec<&str> = variant["required"]
            .as_array()
            .expect("required")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let error = SceneUpdate::from_value(&json!({ "type": kind }), "update")
            .expect_err("an update without its fields is refused");
        let message = error.to_string();
        let field = message
            .strip_prefix("update.")
            .and_then(|rest| rest.split(':').next())
            .unwrap_or_default();
        assert!(
            required.contains(&field),
            "`{kind}` without fields: the reader asks for `{field}` ({message}); the schema requires {required:?}"
        );
    }
    let unknown = SceneUpdate::from_value(&json!({ "type": "teleport" }), "update")
        .expect_err("an unknown update type is refused")
        .to_string();
    let listed: Vec<String> = unknown
        .rsplit("expected ")
        .next()
        .unwrap_or_default()
        .replace(" or ", ", ")
        .split(", ")
        .map(str::to_owned)
        .collect();
    assert_eq!(
        kinds, listed,
        "the schema's update types, in the reader's order"
    );
}
