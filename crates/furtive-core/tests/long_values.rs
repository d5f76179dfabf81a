//! A refused value or key too long to be anything the engine reads is not
//! echoed whole in the `invalid_input` message: each run of the field path
//! or of the reader's message between quotes, backticks, dots or brackets
//! is cut after 256 characters with `…`. Before, a
//! 1 MiB string where a number belongs gave a 1 MiB message, and a 1 MiB
//! unknown key a 2 MiB one (the key in the path and in the message), on
//! napi and wasm alike.

use furtive_core::Session;
use furtive_json::functions as api;
use serde_json::{json, Value};

fn state() -> Value {
    let session = Session::new(
        serde_json::from_value(json!({
            "ruleset": "percentile",
            "creatures": [{"id": "spy", "stealthSkill": 50}, {"id": "guard"}]
        }))
        .unwrap(),
    )
    .unwrap();
    serde_json::to_value(session.snapshot()).unwrap()
}

fn refused(event: Value) -> String {
    let error = api::apply::<Value>(state(), event).unwrap_err();
    assert_eq!(error.code(), "invalid_input", "{error}");
    error.to_string()
}

#[test]
fn a_long_string_where_a_number_belongs_is_cut_in_the_message() {
    let message =
        refused(json!({"type": "enterStealth", "hider": "spy", "roll": "y".repeat(1 << 20)}));
    assert_eq!(
        message,
        format!(
            "event.roll: the string \"{}…\" is not a whole number",
            "y".repeat(256)
        )
    );
}

#[test]
fn a_long_unknown_key_is_cut_in_the_path_and_the_message() {
    let key = "k".repeat(1 << 20);
    let message = refused(json!({"type": "combatEnd", key: 1}));
    let short = format!("{}…", "k".repeat(256));
    assert!(message.len() < 1000, "a message of {} bytes", message.len());
    assert!(
        message.starts_with(&format!("event.{short}: unknown field `{short}`"))
            || message.starts_with(&format!("event: unknown field `{short}`")),
        "{}",
        &message[..message.len().min(300)]
    );
}

#[test]
fn a_long_unknown_variant_is_cut() {
    let message = refused(json!({"type": "y".repeat(300)}));
    assert!(message.len() < 600, "{message}");
    assert!(
        message.starts_with(&format!(
            "event.type: unknown variant `{}…`, expected one of",
            "y".repeat(256)
        )),
        "{message}"
    );
}

#[test]
fn values_of_256_characters_are_quoted_whole() {
    let message = refused(json!({"type": "enterStealth", "hider": "spy", "roll": "y".repeat(256)}));
    assert_eq!(
        message,
        format!(
            "event.roll: the string \"{}\" is not a whole number",
            "y".repeat(256)
        )
    );
}
