//! `npm/explanations.js` is written from the catalog of
//! `furtive_core::message` (B3): the English and French template of every
//! message key, which the npm package renders (`npm/explain.js`) from the
//! messages the engine sends. This test fails when the file differs from
//! the catalog;
//! `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test catalog`
//! rewrites it.

use std::path::Path;

use furtive_core::message::{Key, Language};

/// The file's text, from the catalog.
fn generated() -> String {
    let mut text = String::from(
        "// Generated from the catalog of furtive_core::message\n\
         // (crates/furtive-core/src/message.rs) by crates/furtive-core/tests/catalog.rs.\n\
         // Do not edit: run `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test catalog`.\n\
         // CI fails when this file differs from the catalog.\n\
         \n\
         /**\n \
         * The explanations' catalog (B3), by message key, in the engine's\n \
         * order (`KEYS`): its arguments, in the order a message writes\n \
         * them, and its English and French templates, with\n \
         * `{name}` placeholders for the arguments (explain.js).\n \
         * @type {Readonly<Record<string, { args: readonly string[], en: string, fr: string }>>}\n \
         */\n\
         export const CATALOG = Object.freeze({\n",
    );
    for key in Key::ALL {
        let args = serde_json::to_string(key.args()).unwrap();
        let en = serde_json::to_string(key.template(Language::En)).unwrap();
        let fr = serde_json::to_string(key.template(Language::Fr)).unwrap();
        text.push_str(&format!(
            "  {}: Object.freeze({{ args: {args}, en: {en}, fr: {fr} }}),\n",
            key.name()
        ));
    }
    text.push_str(
        "});\n\n/** The message keys, by their number in a message. */\n\
         export const KEYS = Object.freeze(Object.keys(CATALOG));\n",
    );
    text
}

#[test]
fn b3_npm_explanations_js_is_written_from_the_catalog() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../npm/explanations.js");
    let expected = generated();
    if std::env::var_os("FURTIVE_UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &expected).unwrap();
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "npm/explanations.js differs from the catalog in src/message.rs: run \
         `FURTIVE_UPDATE_GOLDEN=1 cargo test -p furtive-core --test catalog`"
    );
}
