//! A state loaded from outside (`Session::load`, the npm `Session.load`, the
//! free functions) names only tokens it knows: every hider, every observer
//! of a hider's pairs and both tokens of a surprise are creatures of the
//! state, as every state the engine writes keeps them (`tokenRemoved`
//! removes a token's hider, pairs and surprises, B3). Before, such a state
//! loaded, and then contradicted itself: `hiddenFrom()` listed a hider that
//! `perceives` refused with `unknown_token`.

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
