//! A query naming one token in two roles that must differ is refused with
//! `self_reference` naming the field, as the events are (`attack`,
//! `damageTaken`): "A token cannot be its own observer or target"
//! (`Error::SelfReference`). Before, the queries answered: a knockout of the
//! attacker by itself (P8: "spy is not defenseless against spy"), a
//! pickpocket of oneself (P10), an attack on oneself (O10: "spy perceives
//! spy: a normal attack"), a defense against an attacker who is the target
//! or the defender itself (P6: "guard is not surprised by guard").

use furtive_core::Session;
use serde_json::json;

fn session(ruleset: &str) -> Session {
    let mut session = Session::new(
        serde_json::from_value(json!({
            "ruleset": ruleset,
            "creatures": [{"id": "spy", "stealthSkill": 40}, {"id": "guard"}]
        }))
        .unwrap(),
    )
    .unwrap();
    let roll = if ruleset == "percentile" { 37 } else { 15 };
    session
        .apply(
            serde_json::from_value(json!({"type": "enterStealth", "hider": "spy", "roll": roll, "view": [{"observer": "guard", "clearView": false}]}))
                .unwrap(),
        )
        .unwrap();
    session
}

fn assert_self_reference(result: Result<impl std::fmt::Debug, furtive_core::Error>, message: &str) {
    let error = result.expect_err("a self-referencing query was answered");
    assert_eq!(error.code(), "self_reference", "{error}");
    assert_eq!(error.to_string(), message);
}

#[test]
fn p8_knockout_of_the_attacker_by_itself_is_refused() {
    let session = session("percentile");
    let query = serde_json::from_value(json!({"attacker": "spy", "target": "spy"})).unwrap();
    assert_self_reference(
        session.knockout(&query),
        "target: `spy` cannot act on itself",
    );
}

#[test]
fn p10_pickpocketing_oneself_is_refused() {
    let session = session("percentile");
    let query = serde_json::from_value(
        json!({"hider": "spy", "target": "spy", "held": false, "visible": false}),
    )
    .unwrap();
    assert_self_reference(
        session.can_pickpocket(&query),
        "target: `spy` cannot act on itself",
    );
}

#[test]
fn o10_attack_on_oneself_is_refused() {
    let session = session("opposed");
    let query = serde_json::from_value(json!({"attacker": "spy", "target": "spy"})).unwrap();
    assert_self_reference(
        session.attack_hidden(&query),
        "target: `spy` cannot act on itself",
    );
}

#[test]
fn p6_defense_against_the_target_or_the_defender_itself_is_refused() {
    for ruleset in ["percentile", "opposed"] {
        let session = session(ruleset);
        let query = serde_json::from_value(
            json!({"defender": "spy", "target": "guard", "attacker": "guard"}),
        )
        .unwrap();
        assert_self_reference(
            session.can_defend(&query),
            "attacker: `guard` cannot act on itself",
        );
        let query = serde_json::from_value(
            json!({"defender": "guard", "target": "spy", "attacker": "guard"}),
        )
        .unwrap();
        assert_self_reference(
            session.can_defend(&query),
            "attacker: `guard` cannot act on itself",
        );
        // A defender defending itself is the common case.
        let query = serde_json::from_value(
            json!({"defender": "guard", "target": "guard", "attacker": "spy"}),
        )
        .unwrap();
        assert!(session.can_defend(&query).is_ok());
    }
}
