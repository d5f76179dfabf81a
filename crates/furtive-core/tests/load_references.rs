//! A state loaded from outside (`Session::load`, the npm `Session.load`, the
//! free functions) names only tokens it knows: every hider, every observer
//! of a hider's pairs and both tokens of a surprise are creatures of the
//! state, as every state the engine writes keeps them (`tokenRemoved`
//! removes a token's hider, pairs and surprises, B3). Before, such a state
//! loaded, and then contradicted itself: `hiddenFrom()` listed a hider that
//! `perceives` refused with `unknown_token`.
//!
//! Such a refusal names a map key longer than a token id can be (256
//! bytes) by its first 32 bytes (cut on a character), in the field as in
//! the message, as `unknown_token` quotes a long id (error.rs). Before, a
//! hider or pair observer keyed by a 1 MiB string was refused with the
//! whole key in the field, and a creature's key or id of 1 MiB with both
//! echoed whole.

use furtive_core::Session;
use serde_json::{json, Value};

/// A percentile state with `spy` hiding from `guard`, attacked `guard` (a
/// P6 surprise), as the engine writes it.
fn saved() -> Value {
    let mut session = Session::new(
        serde_json::from_value(json!({
            "ruleset": "percentile",
            "creatures": [{"id": "spy", "stealthSkill": 50}, {"id": "guard"}]
        }))
        .unwrap(),
    )
    .unwrap();
    session
        .apply(
            serde_json::from_value(json!({"type": "enterStealth", "hider": "spy", "roll": 37}))
                .unwrap(),
        )
        .unwrap();
    session
        .apply(
            serde_json::from_value(json!({"type": "attack", "attacker": "spy", "target": "guard"}))
                .unwrap(),
        )
        .unwrap();
    let state = serde_json::to_value(session.snapshot()).unwrap();
    assert_eq!(state["surprises"].as_array().unwrap().len(), 1, "{state}");
    state
}

fn refused(state: Value) -> (String, String) {
    let Err(error) = Session::load_json(state) else {
        panic!("the state was loaded");
    };
    (error.code().to_owned(), error.to_string())
}

#[test]
fn an_engine_written_state_loads() {
    assert!(Session::load_json(saved()).is_ok());
}

#[test]
fn a_hider_that_is_no_creature_is_refused() {
    let mut state = saved();
    state["hiders"]["ghost"] = state["hiders"]["spy"].clone();
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            "hiders.ghost: unknown token `ghost`".into()
        )
    );
}

#[test]
fn a_pair_whose_observer_is_no_creature_is_refused() {
    let mut state = saved();
    state["hiders"]["spy"]["pairs"]["phantom"] = state["hiders"]["spy"]["pairs"]["guard"].clone();
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            "hiders.spy.pairs.phantom: unknown token `phantom`".into()
        )
    );
}

#[test]
fn a_pair_of_a_hider_with_itself_is_refused() {
    let mut state = saved();
    state["hiders"]["spy"]["pairs"]["spy"] = state["hiders"]["spy"]["pairs"]["guard"].clone();
    assert_eq!(
        refused(state),
        (
            "self_reference".into(),
            "hiders.spy.pairs.spy: `spy` cannot act on itself".into()
        )
    );
}

#[test]
fn a_surprise_naming_no_creature_is_refused() {
    let mut state = saved();
    state["surprises"][0]["target"] = json!("ghost");
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            "surprises[0].target: unknown token `ghost`".into()
        )
    );
    let mut state = saved();
    state["surprises"][0]["attacker"] = json!("ghost");
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            "surprises[0].attacker: unknown token `ghost`".into()
        )
    );
}

/// 1 MiB of `é` (two bytes each): the first 32 bytes are 16 of them.
fn long_key() -> String {
    "é".repeat(1 << 19)
}

fn head() -> String {
    "é".repeat(16)
}

#[test]
fn a_hider_keyed_by_a_long_string_is_quoted_by_its_first_bytes() {
    let mut state = saved();
    let spy = state["hiders"]["spy"].take();
    state["hiders"] = json!({ long_key(): spy });
    let head = head();
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            format!("hiders.{head}…: unknown token `{head}…` (a token id is 1 to 256 bytes)")
        )
    );
}

#[test]
fn a_pair_keyed_by_a_long_string_is_quoted_by_its_first_bytes() {
    let mut state = saved();
    let pair = state["hiders"]["spy"]["pairs"]["guard"].take();
    state["hiders"]["spy"]["pairs"] = json!({ long_key(): pair });
    let head = head();
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            format!(
                "hiders.spy.pairs.{head}…: unknown token `{head}…` (a token id is 1 to 256 bytes)"
            )
        )
    );
}

#[test]
fn a_creature_keyed_by_a_long_string_is_quoted_by_its_first_bytes() {
    let head = head();
    // The key and the id alike: the id is too long.
    let mut state = saved();
    let mut guard = state["creatures"]["guard"].clone();
    guard["id"] = json!(long_key());
    state["creatures"][long_key()] = guard.clone();
    assert_eq!(
        refused(state),
        (
            "invalid_input".into(),
            format!("creatures.{head}….id: a token id is 1 to 256 bytes")
        )
    );
    // A long key over a short id, and a short key over a long id.
    let mut state = saved();
    state["creatures"][long_key()] = state["creatures"]["guard"].clone();
    assert_eq!(
        refused(state),
        (
            "invalid_input".into(),
            format!("creatures.{head}….id: the key `{head}…` and the creature id `guard` differ")
        )
    );
    let mut state = saved();
    state["creatures"]["guard"] = guard;
    assert_eq!(
        refused(state),
        (
            "invalid_input".into(),
            format!("creatures.guard.id: the key `guard` and the creature id `{head}…` differ")
        )
    );
}

#[test]
fn a_key_of_256_bytes_is_quoted_whole() {
    let mut state = saved();
    let key = "k".repeat(256);
    let spy = state["hiders"]["spy"].take();
    state["hiders"] = json!({ key.clone(): spy });
    assert_eq!(
        refused(state),
        (
            "unknown_token".into(),
            format!("hiders.{key}: unknown token `{key}`")
        )
    );
}
