//! One test per stable error code: each is triggered through `apply`, a
//! query or the JSON facade, with its message naming the field at fault.

mod common;

use common::*;
use furtive_core::query::{knockout, KnockoutQuery};
use furtive_core::{Error, State};
use furtive_json::functions as api;
use serde_json::json;
use serde_json::Value;

fn percentile() -> State {
    state(json!({
        "ruleset": "percentile",
        "creatures": [
            {"id": "spy", "stealthSkill": 60},
            {"id": "guard", "side": "guards", "acuities": {"visual": 10}},
            {"id": "watcher", "side": "guards", "acuities": {"visual": 500}}
        ]
    }))
}

fn opposed() -> State {
    state(json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "side": "party"},
            {"id": "guard", "side": "guards"},
            {"id": "captain", "side": "guards"},
            {"id": "merchant", "side": "neutral"}
        ]
    }))
}

/// Triggers `code` and returns the error. Panics for a code without a trigger,
/// so a new code fails `every_error_code_has_a_trigger` until it gets one.
fn trigger(code: &str) -> Error {
    match code {
        "unknown_token" => refused(
            &percentile(),
            json!({"type": "enterStealth", "hider": "ghost", "roll": 50}),
        ),
        "duplicate_token" => api::create_state::<Value>(json!({
            "ruleset": "opposed",
            "creatures": [{"id": "a"}, {"id": "b"}, {"id": "a"}]
        }))
        .unwrap_err(),
        "out_of_range" => refused(
            &opposed(),
            json!({"type": "attack", "attacker": "rogue", "target": "guard", "hits": 101}),
        ),
        "invalid_input" => refused(
            &opposed(),
            json!({"type": "upsertCreature", "creature": {"id": ""}}),
        ),
        "unsupported_version" => {
            let mut old = opposed();
            old.version = 3;
            refused(&old, json!({"type": "combatEnd"}))
        }
        "wrong_ruleset" => refused(
            &opposed(),
            json!({"type": "modifiersChanged", "hider": "rogue", "modifiers": {}}),
        ),
        "not_hiding" => refused(&opposed(), json!({"type": "stopHiding", "hider": "rogue"})),
        "stealth_roll_already_made" => refused(
            &run(
                &percentile(),
                vec![
                    json!({"type": "turnStart", "combatant": "spy"}),
                    json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
                ],
            ),
            json!({"type": "enterStealth", "hider": "spy", "roll": 50}),
        ),
        "not_hider_turn" => refused(
            &run(
                &opposed(),
                vec![json!({"type": "turnStart", "combatant": "guard"})],
            ),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 10}),
        ),
        "sprinting" => refused(
            &opposed(),
            json!({"type": "enterStealth", "hider": "rogue", "roll": 10, "sprinting": true}),
        ),
        "movement_required" => {
            let mut strict = opposed();
            strict.settings.allow_zero_length_movement = false;
            refused(
                &strict,
                json!({"type": "enterStealth", "hider": "rogue", "roll": 10, "moved": false}),
            )
        }
        "observer_does_not_perceive" => refused(
            &run(
                &opposed(),
                vec![json!({"type": "enterStealth", "hider": "rogue", "roll": 10})],
            ),
            json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["captain"]}),
        ),
        "not_allied" => refused(
            &run(
                &opposed(),
                vec![
                    json!({"type": "enterStealth", "hider": "rogue", "roll": 10}),
                    json!({"type": "perceptionRolled", "hider": "rogue", "observer": "guard", "total": 10}),
                ],
            ),
            json!({"type": "pointOut", "hider": "rogue", "observer": "guard", "allies": ["merchant"]}),
        ),
        "hit_zone_not_allowed" => refused(
            &run(
                &percentile(),
                vec![json!({"type": "enterStealth", "hider": "spy", "roll": 50})],
            ),
            json!({"type": "attack", "attacker": "spy", "target": "watcher", "hitZone": "head"}),
        ),
        "self_reference" => refused(
            &opposed(),
            json!({"type": "gmOverride", "hider": "rogue", "observer": "rogue", "perceived": true}),
        ),
        "invalid_scene" => {
            api::parse_scene::<Value>(json!({"walls": [{"c": "wall"}]})).unwrap_err()
        }
        other => panic!("no trigger for error code `{other}`"),
    }
}

fn expect(code: &str, field: &str) {
    let error = trigger(code);
    assert_eq!(error.code(), code, "{error}");
    assert!(
        error.to_string().contains(field),
        "`{code}` message does not name `{field}`: {error}"
    );
}

#[test]
fn error_unknown_token() {
    expect("unknown_token", "hider: unknown token `ghost`");
}

#[test]
fn error_duplicate_token() {
    expect("duplicate_token", "creatures[2].id");
}

#[test]
fn error_out_of_range() {
    expect("out_of_range", "hits: 101 is out of range 0..=100");
}

#[test]
fn error_invalid_input() {
    expect("invalid_input", "creature.id");
    let error = api::apply::<Value>(
        serde_json::to_value(opposed()).unwrap(),
        json!({"type": "viewChanged", "hider": "rogue", "view": [{"observer": "guard", "clearView": "yes"}]}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert!(
        error.to_string().starts_with("event.view[0].clearView:"),
        "{error}"
    );
}

#[test]
fn error_invalid_scene() {
    expect("invalid_scene", "walls[0].c");
}

/// Event errors name the field as the caller wrote it, whatever the
/// `type`: the event is read without serde's buffering of tagged enums.
#[test]
fn event_errors_name_the_field() {
    let state = serde_json::to_value(opposed()).unwrap();
    let message = |event: serde_json::Value| {
        let error = api::apply::<Value>(state.clone(), event).unwrap_err();
        assert_eq!(error.code(), "invalid_input");
        error.to_string()
    };
    let cases = [
        (
            json!({"type": "enterStealth", "hider": "rogue", "roll": 10, "moved": true, "precautions": [3]}),
            "event.precautions[0]: 3 is not a string",
        ),
        (
            json!({"type": "enterStealth", "hider": "rogue", "rol": 10}),
            "event.rol: unknown field `rol`",
        ),
        (
            json!({"type": "attack", "attacker": "rogue"}),
            "targets: an attack names its targets (`targets`, or the older `target`)",
        ),
        (
            json!({"type": "attack", "attacker": "rogue", "targets": ["guard", 3]}),
            "event.targets[1]: 3 is not a string",
        ),
        (
            json!({"type": "teleport", "token": "rogue"}),
            "event.type: unknown variant `teleport`",
        ),
        (json!({"type": 7}), "event.type: 7 is not a string"),
        (
            json!([{"type": "combatEnd"}]),
            "event: a list is not an object with a `type`",
        ),
        (json!({"hider": "rogue"}), "event: missing field `type`"),
    ];
    for (event, expected) in cases {
        let actual = message(event);
        assert!(actual.starts_with(expected), "{actual}");
    }
}

/// The other tagged enums name their fields too: `requests[i]` of
/// `rollRequests` exactly, a penalty `scope` inside a state after the path
/// of the scope.
#[test]
fn request_and_penalty_scope_errors_name_the_field() {
    let state = serde_json::to_value(opposed()).unwrap();
    let error = api::roll_requests::<Value>(
        state.clone(),
        json!([{"kind": "stealthRoll", "hider": "rogue", "modifiers": {}, "clause": "O7"}, {"kind": "perceptionCheck", "hider": 1, "observers": ["guard"]}]),
        json!(1),
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("requests[1].hider: 1 is not a string"),
        "{error}"
    );
    let error = api::roll_requests::<Value>(state.clone(), json!([{"hider": "rogue"}]), json!(1))
        .unwrap_err();
    assert_eq!(error.to_string(), "requests[0]: missing field `kind`");
    // B4: a request naming a token the state does not know is refused.
    let error = api::roll_requests::<Value>(
        state.clone(),
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard"], "clause": "O4"},
               {"kind": "perceptionCheck", "hider": "nobody", "observers": ["guard"], "clause": "O4"}]),
        json!(1),
    )
    .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert_eq!(
        error.to_string(),
        "requests[1].hider: unknown token `nobody`"
    );
    // B1/B4: one unknown observer among several refuses the whole call, named by its place.
    let error = api::roll_requests::<Value>(
        state.clone(),
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard", "ghost", "captain"], "clause": "O4"}]),
        json!(1),
    )
    .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert_eq!(
        error.to_string(),
        "requests[0].observers[1]: unknown token `ghost`"
    );
    let error = api::roll_requests::<Value>(
        state.clone(),
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": [], "clause": "O4"}]),
        json!(1),
    )
    .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    assert_eq!(
        error.to_string(),
        "requests[0].observers: empty: a Perception check request names at least one observer"
    );
    // Each observer of a check is answered by its own roll, in order.
    let answers = api::roll_requests::<Value>(
        state.clone(),
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard", "captain"], "clause": "O4"}]),
        json!(1),
    )
    .unwrap();
    let observers: Vec<&Value> = answers
        .as_array()
        .unwrap()
        .iter()
        .map(|a| &a["observer"])
        .collect();
    assert_eq!(observers, [&json!("guard"), &json!("captain")]);
    // Requests ignore fields they do not have, as callers may tag them.
    let answers = api::roll_requests::<Value>(
        state,
        json!([{"kind": "perceptionCheck", "hider": "rogue", "observers": ["guard"], "clause": "O4", "mine": 1}]),
        json!(1),
    )
    .unwrap();
    assert_eq!(answers[0]["type"], "perceptionRolled");

    let hiding = api::apply::<Value>(
        serde_json::to_value(opposed()).unwrap(),
        json!({"type": "enterStealth", "hider": "rogue", "roll": 12, "moved": true}),
    )
    .unwrap()["state"]
        .clone();
    let mut bad = hiding.clone();
    bad["hiders"]["rogue"]["penalties"] = json!([{"amount": 5, "clause": "O11", "scope": {"kind": "alliesOf", "attacker": 3, "side": "guards"}}]);
    let error =
        api::perceives::<Value>(bad, json!({"observer": "guard", "hider": "rogue"})).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("state.hiders.rogue.penalties[0].scope: 3 is not a string"),
        "{error}"
    );
}

/// `Event` also reads and writes through plain serde, in the same shape; a
/// whole distance is written as an integer.
#[test]
fn events_round_trip_through_serde() {
    let text = r#"{"type":"viewChanged","hider":"rogue","moved":true,"view":[{"observer":"guard","clearView":false,"distance":30},{"observer":"archer","clearView":true,"distance":12.5},{"observer":"captain","clearView":true,"distance":null}]}"#;
    let event: furtive_core::Event = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&event).unwrap(), text);
    let written = serde_json::to_string(
        &serde_json::from_str::<furtive_core::Event>(&text.replace(":30}", ":30.0}")).unwrap(),
    )
    .unwrap();
    assert_eq!(written, text);
    let error = serde_json::from_str::<furtive_core::Event>(r#"{"type":"sprint"}"#).unwrap_err();
    assert!(
        error.to_string().contains("missing field `token`"),
        "{error}"
    );
}

#[test]
fn error_unsupported_version() {
    expect("unsupported_version", "version: state version 3");
}

#[test]
fn error_wrong_ruleset() {
    expect(
        "wrong_ruleset",
        "`modifiersChanged` is not part of the `opposed` ruleset",
    );
    let error = knockout(
        &opposed(),
        &KnockoutQuery {
            attacker: "rogue".into(),
            target: "guard".into(),
            helmet: false,
            raw_damage: None,
            d100: None,
        },
    )
    .unwrap_err();
    assert_eq!(error.code(), "wrong_ruleset");
}

#[test]
fn error_not_hiding() {
    expect("not_hiding", "hider: token `rogue` is not hiding");
}

#[test]
fn error_stealth_roll_already_made() {
    expect("stealth_roll_already_made", "(P9)");
}

#[test]
fn error_not_hider_turn() {
    expect("not_hider_turn", "(O7)");
}

#[test]
fn error_sprinting() {
    expect("sprinting", "sprinting: `rogue`");
}

#[test]
fn error_movement_required() {
    expect("movement_required", "moved: `rogue`");
}

#[test]
fn error_observer_does_not_perceive() {
    expect("observer_does_not_perceive", "observer: `guard`");
}

#[test]
fn error_not_allied() {
    expect("not_allied", "allies: `merchant` is not an ally of `guard`");
}

#[test]
fn error_hit_zone_not_allowed() {
    expect("hit_zone_not_allowed", "hitZone: `spy`");
}

#[test]
fn error_self_reference() {
    expect("self_reference", "observer: `rogue` cannot act on itself");
}

#[test]
fn every_error_code_has_a_trigger() {
    for code in Error::CODES {
        assert_eq!(trigger(code).code(), *code);
    }
    // Every code is unique and snake_case.
    let mut codes = Error::CODES.to_vec();
    codes.sort();
    codes.dedup();
    assert_eq!(codes.len(), Error::CODES.len());
    assert!(Error::CODES
        .iter()
        .all(|c| c.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_')));
}

#[test]
fn errors_through_the_json_facade_keep_their_code() {
    let state = serde_json::to_value(percentile()).unwrap();
    let error = api::apply::<Value>(
        state.clone(),
        json!({"type": "enterStealth", "hider": "spy", "roll": 0}),
    )
    .unwrap_err();
    assert_eq!(error.code(), "out_of_range");
    let error = api::can_locate::<Value>(state.clone(), json!({"observer": "", "hider": "spy"}))
        .unwrap_err();
    assert_eq!(error.code(), "invalid_input");
    let error = api::attack_hidden::<Value>(state, json!({"attacker": "spy", "target": "guard"}))
        .unwrap_err();
    assert_eq!(error.code(), "wrong_ruleset");
    let info = furtive_core::ErrorInfo::from(&trigger("not_hiding"));
    assert_eq!(
        serde_json::to_value(info).unwrap(),
        json!({"code": "not_hiding", "message": "hider: token `rogue` is not hiding"})
    );
}

/// `applyAll` through the JSON boundary: a refusal by the rules names the
/// event's place in the list before its field (`events[1].hider`), as a
/// refusal of its shape already did, keeps the event's own code, and the
/// list changes nothing.
#[test]
fn apply_all_refusals_name_the_event_in_the_list() {
    use furtive_json::session::JsonSession;
    let config = json!({"ruleset": "opposed", "creatures": [{"id": "a"}, {"id": "b"}]}).to_string();
    let mut session = JsonSession::create(config.as_str()).unwrap();
    let before = session.snapshot().unwrap();
    let refusals = [
        (
            json!([{"type": "enterStealth", "hider": "a", "roll": 3, "moved": true},
                   {"type": "enterStealth", "hider": "ghost", "roll": 3, "moved": true}]),
            "unknown_token",
            "events[1].hider: unknown token `ghost`",
        ),
        (
            json!([{"type": "enterStealth", "hider": "a", "roll": 3, "moved": true},
                   {"type": "stopHiding", "hider": "b"}]),
            "not_hiding",
            "events[1].hider: token `b` is not hiding",
        ),
        (
            json!([{"type": "viewChanged", "hider": "a", "moved": false,
                    "view": [{"observer": "ghost", "clearView": true}]}]),
            "unknown_token",
            "events[0].view[0].observer: unknown token `ghost`",
        ),
        (
            json!([{"type": "enterStealth", "hider": "a", "roll": 3, "moved": true},
                   {"type": "enterStealth", "hider": "b", "roll": 3, "moved": true},
                   {"type": "modifiersChanged", "hider": "a", "modifiers": {}}]),
            "wrong_ruleset",
            "events[2].type: `modifiersChanged` is not part of the `opposed` ruleset",
        ),
    ];
    for (events, code, message) in refusals {
        let error = session.apply_all(events.to_string().as_str()).unwrap_err();
        assert_eq!((error.code(), error.to_string().as_str()), (code, message));
        assert_eq!(session.snapshot().unwrap(), before, "{events}");
    }
    // A single event names no place: `apply` is unchanged.
    let error = session
        .apply(r#"{"type": "stopHiding", "hider": "b"}"#)
        .unwrap_err();
    assert_eq!(error.to_string(), "hider: token `b` is not hiding");
}

/// One code per field whatever the side of its range, and no Rust type
/// named: an acuity of -10 and one of 1001 are both `out_of_range`; a
/// roll of 37.5 is "not a whole number".
#[test]
fn b1_a_field_refused_on_either_side_of_its_range_has_one_code_and_our_words() {
    let creature = |visual: i64| json!({"ruleset": "percentile", "creatures": [{"id": "a", "acuities": {"visual": visual}}]});
    for visual in [-10, 1001] {
        let error = api::create_state::<Value>(creature(visual)).unwrap_err();
        assert_eq!(error.code(), "out_of_range", "{visual}: {error}");
        assert!(
            error
                .to_string()
                .contains(&format!("acuities.visual: {visual} is out of range")),
            "{error}"
        );
    }
    let state =
        api::create_state::<Value>(json!({"ruleset": "percentile", "creatures": [{"id": "a"}]}))
            .unwrap();
    let error = api::apply::<Value>(
        state,
        json!({"type": "enterStealth", "hider": "a", "roll": 37.5}),
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "event.roll: 37.5 is not a whole number");
    for word in ["i64", "u32", "expected", "struct", "invalid type"] {
        assert!(!error.to_string().contains(word), "{error}");
    }
}

/// `error` is `out_of_range` on `field` with `value` and the rule's
/// `range`, and names no Rust type.
fn assert_out_of_range(error: Error, field: &str, value: &str, range: &str) {
    let message = error.to_string();
    assert_eq!(error.code(), "out_of_range", "{message}");
    assert!(
        message.ends_with(&format!("{field}: {value} is out of range {range}")),
        "{message}"
    );
    for word in ["i64", "u32", "u64", "expected", "4294967295"] {
        assert!(!message.contains(word), "{message}");
    }
}

/// P3: an acuity is 0..=1000. Below, above, or beyond what any integer
/// type holds: `out_of_range` with the rule's range; a fraction is not a
/// whole number (`invalid_input`).
#[test]
fn p3_an_acuity_out_of_range_on_either_side_names_the_rules_range() {
    let config = |visual: Value| json!({"ruleset": "percentile", "creatures": [{"id": "a", "acuities": {"visual": visual}}]});
    for (visual, shown) in [
        (json!(-10), "-10"),
        (json!(1001), "1001"),
        (json!(5_000_000_000u64), "5000000000"),
        (json!(u64::MAX), "18446744073709551615"),
        (json!(1e21), "1e+21"),
        (json!(-1e21), "-1e+21"),
    ] {
        let error = api::create_state::<Value>(config(visual)).unwrap_err();
        assert_out_of_range(error, "acuities.visual", shown, "0..=1000");
    }
    let error = api::create_state::<Value>(config(json!(37.5))).unwrap_err();
    assert_eq!(
        (error.code(), error.to_string().as_str()),
        (
            "invalid_input",
            "config.creatures[0].acuities.visual: 37.5 is not a whole number, 0 or more"
        )
    );
}

/// Every whole number the rules bound has one code whatever the side of
/// its range: P1 a Furtivité, P2 a free modifier, O1 a roll, O6 a
/// penalty, O8 hits, P8 a knockout's d100 and damage, B4 the check die.
#[test]
fn p1_p2_p8_o1_o6_o8_b4_whole_numbers_out_of_range_on_either_side_have_one_code() {
    let create = |creature: Value, settings: Value| {
        api::create_state::<Value>(
            json!({"ruleset": "opposed", "settings": settings, "creatures": [creature]}),
        )
    };
    for skill in [json!(-1), json!(501), json!(1e21)] {
        let error = create(json!({"id": "a", "stealthSkill": skill}), json!({})).unwrap_err();
        assert_out_of_range(error, "stealthSkill", &skill.to_string(), "0..=500");
    }
    for modifier in [json!(-1001), json!(1001), json!(-1e21), json!(u64::MAX)] {
        let error = create(
            json!({"id": "a", "perceptionModifier": modifier}),
            json!({}),
        )
        .unwrap_err();
        assert_out_of_range(
            error,
            "perceptionModifier",
            &modifier.to_string(),
            "-1000..=1000",
        );
    }
    for die in [json!(1), json!(-1), json!(1001), json!(1e21)] {
        let error = create(json!({"id": "a"}), json!({"checkDie": die})).unwrap_err();
        assert_out_of_range(error, "settings.checkDie", &die.to_string(), "2..=1000");
    }

    let percentile = serde_json::to_value(percentile()).unwrap();
    for value in [json!(-1001), json!(1001), json!(1e21)] {
        let event = json!({"type": "enterStealth", "hider": "spy", "roll": 50,
                           "modifiers": {"free": [{"label": "x", "value": value}]}});
        let error = api::apply::<Value>(percentile.clone(), event).unwrap_err();
        assert_out_of_range(error, "free[0].value", &value.to_string(), "-1000..=1000");
    }
    for d100 in [json!(0), json!(-1), json!(101), json!(5_000_000_000u64)] {
        let query = json!({"attacker": "spy", "target": "guard", "helmet": false, "d100": d100});
        let error = api::knockout::<Value>(percentile.clone(), query).unwrap_err();
        assert_out_of_range(error, "d100", &d100.to_string(), "1..=100");
    }
    for raw in [json!(-1), json!(100_001), json!(1e21)] {
        let query =
            json!({"attacker": "spy", "target": "guard", "helmet": false, "rawDamage": raw});
        let error = api::knockout::<Value>(percentile.clone(), query).unwrap_err();
        assert_out_of_range(error, "rawDamage", &raw.to_string(), "0..=100000");
    }

    let opposed = serde_json::to_value(opposed()).unwrap();
    for roll in [json!(-1001), json!(1001), json!(1e21), json!(-1e21)] {
        let event = json!({"type": "enterStealth", "hider": "rogue", "roll": roll, "moved": true});
        let error = api::apply::<Value>(opposed.clone(), event).unwrap_err();
        assert_out_of_range(error, "roll", &roll.to_string(), "-1000..=1000");
    }
    for hits in [json!(-1), json!(101), json!(5_000_000_000u64)] {
        let event =
            json!({"type": "attack", "attacker": "rogue", "targets": ["guard"], "hits": hits});
        let error = api::apply::<Value>(opposed.clone(), event).unwrap_err();
        assert_out_of_range(error, "hits", &hits.to_string(), "0..=100");
    }
    let hiding = api::apply::<Value>(
        opposed,
        json!({"type": "enterStealth", "hider": "rogue", "roll": 12, "moved": true}),
    )
    .unwrap()["state"]
        .clone();
    for amount in [json!(-1), json!(501), json!(1e21)] {
        let mut state = hiding.clone();
        state["hiders"]["rogue"]["penalties"] =
            json!([{"amount": amount, "clause": "O8", "scope": {"kind": "all"}}]);
        let error = api::hidden_from::<Value>(state).unwrap_err();
        assert_out_of_range(error, "penalties[0].amount", &amount.to_string(), "0..=500");
    }
}
