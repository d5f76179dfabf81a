//! An id that names no token is quoted in the `unknown_token` message only
//! when it could be a token id (1 to 256 bytes); a longer one is shown by
//! its first 32 bytes and what a token id is. Before, the whole id was
//! quoted: an npm caller passing a 1 MiB string as `hider` got a 1 MiB
//! error message.

use furtive_core::Session;
use furtive_json::functions as api;
use serde_json::json;
use serde_json::Value;

fn session() -> Session {
    Session::new(
        serde_json::from_value(json!({
            "ruleset": "percentile",
            "creatures": [{"id": "spy", "stealthSkill": 50}, {"id": "guard"}]
        }))
        .unwrap(),
    )
    .unwrap()
}

#[test]
fn an_unknown_id_too_long_to_be_a_token_is_not_quoted_whole() {
    let long = "y".repeat(1 << 20);
    let mut session = session();
    let event =
        serde_json::from_value(json!({"type": "enterStealth", "hider": long, "roll": 37})).unwrap();
    let error = session.apply(event).unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    let message = error.to_string();
    assert!(message.len() < 200, "a message of {} bytes", message.len());
    assert_eq!(
        message,
        format!(
            "hider: unknown token `{}…` (a token id is 1 to 256 bytes)",
            "y".repeat(32)
        )
    );
}

#[test]
fn an_unknown_observer_in_a_view_too_long_to_be_a_token_is_not_quoted_whole() {
    let state = serde_json::to_value(session().snapshot()).unwrap();
    let long = format!("a{}", "é".repeat(200)); // 401 bytes: cut on a character, at 31 bytes
    let error = api::apply::<Value>(
        state,
        json!({"type": "viewChanged", "hider": "spy", "view": [{"observer": long, "clearView": true}]}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert_eq!(
        error.to_string(),
        format!(
            "view[0].observer: unknown token `a{}…` (a token id is 1 to 256 bytes)",
            "é".repeat(15)
        )
    );
}

#[test]
fn an_unknown_id_that_could_be_a_token_is_quoted_whole() {
    let id = "g".repeat(256);
    let error = session()
        .apply(serde_json::from_value(json!({"type": "stopHiding", "hider": id})).unwrap())
        .unwrap_err();
    assert_eq!(error.to_string(), format!("hider: unknown token `{id}`"));
}

#[test]
fn b1_a_query_refuses_an_id_too_long_to_be_a_token_naming_the_field() {
    let id = "g".repeat(257);
    let error = session()
        .perceives(&serde_json::from_value(json!({"observer": "guard", "hider": id})).unwrap())
        .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(error.to_string().starts_with("hider: "), "{error}");
}
