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
