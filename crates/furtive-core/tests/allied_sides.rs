//! O3, P6, P9: who is an ally, decided once by
//! `furtive_core::sides::sides_allied` for the engine
//! (`Creature::is_ally_of`) and the `alliedSides` export, which the Foundry
//! module's Point out dialog asks (tests/vectors/o3-allied-sides.json runs
//! the export on every backend).

use furtive_core::sides::sides_allied;
use furtive_core::Creature;
use furtive_json::functions as api;
use serde_json::{json, Value};

/// The sides the tests compare, every pair of them.
const SIDES: [&str; 7] = [
    "party", "hostile", "", "neutral", "Party", "party ", "secret",
];

#[test]
fn o3_allied_sides_same_side_is_allied_different_sides_are_not() {
    assert!(sides_allied("party", "party"));
    assert!(sides_allied("hostile", "hostile"));
    assert!(!sides_allied("party", "hostile"));
    assert!(!sides_allied("hostile", "party"));
    // Compared exactly: case and spaces count.
    assert!(!sides_allied("party", "Party"));
    assert!(!sides_allied("party", "party "));
}

#[test]
fn o3_allied_sides_empty_and_neutral_have_no_ally() {
    for side in SIDES {
        for empty_or_neutral in ["", "neutral"] {
            assert!(!sides_allied(side, empty_or_neutral), "{side:?}");
            assert!(!sides_allied(empty_or_neutral, side), "{side:?}");
        }
    }
    // "Neutral" is a side like any other (sides are compared exactly).
    assert!(sides_allied("Neutral", "Neutral"));
}

#[test]
fn o3_p6_p9_creature_is_ally_of_is_allied_sides_for_distinct_creatures() {
    for side in SIDES {
        for other in SIDES {
            let mut a = Creature::new("a");
            a.side = side.to_owned();
            let mut b = Creature::new("b");
            b.side = other.to_owned();
            assert_eq!(
                a.is_ally_of(&b),
                sides_allied(side, other),
                "{side:?} {other:?}"
            );
            let answer =
                api::allied_sides::<Value>(json!({"side": side, "sides": [other]})).unwrap();
            assert_eq!(
                answer,
                json!([sides_allied(side, other)]),
                "{side:?} {other:?}"
            );
        }
        // A creature is never its own ally.
        let mut a = Creature::new("a");
        a.side = side.to_owned();
        assert!(!a.is_ally_of(&a.clone()), "{side:?}");
    }
}

#[test]
fn o3_allied_sides_export_answers_each_side_in_order() {
    let answer = api::allied_sides::<Value>(json!({
        "side": "party",
        "sides": ["party", "hostile", "", "neutral", "party", "Party"]
    }))
    .unwrap();
    assert_eq!(answer, json!([true, false, false, false, true, false]));
    let neutral =
        api::allied_sides::<Value>(json!({"side": "neutral", "sides": ["neutral", "party"]}));
    assert_eq!(neutral.unwrap(), json!([false, false]));
    let empty = api::allied_sides::<Value>(json!({"side": "", "sides": ["", "party"]}));
    assert_eq!(empty.unwrap(), json!([false, false]));
    let none = api::allied_sides::<Value>(json!({"side": "party", "sides": []}));
    assert_eq!(none.unwrap(), json!([]));
    // The text export the bindings call answers the same.
    let text = api::allied_sides::<String>(r#"{"side":"hostile","sides":["hostile","friendly"]}"#)
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&text).unwrap(),
        json!([true, false])
    );
}

fn refused(query: Value) -> (String, String) {
    let error = api::allied_sides::<Value>(query).unwrap_err();
    assert_eq!(error.code(), "invalid_input", "{error}");
    let furtive_core::Error::InvalidInput { field, message } = error else {
        unreachable!()
    };
    (field, message)
}

#[test]
fn o3_allied_sides_refuses_bad_input_naming_the_field() {
    let cases = [
        (
            json!({"side": "party", "sides": ["party", "hostile", 3]}),
            "query.sides[2]",
        ),
        (json!({"side": "party", "sides": [null]}), "query.sides[0]"),
        (
            json!({"side": "party", "sides": [["party"]]}),
            "query.sides[0]",
        ),
        (json!({"side": 1, "sides": []}), "query.side"),
        (json!({"side": null, "sides": []}), "query.side"),
        (json!({"side": "party", "sides": "party"}), "query.sides"),
        (json!({"side": "party", "sides": {}}), "query.sides"),
        (
            json!({"side": "party", "sides": [], "observer": "a"}),
            "query.observer",
        ),
        (json!(["party"]), "query"),
        (json!(null), "query"),
    ];
    for (query, field) in cases {
        let (got, message) = refused(query.clone());
        assert_eq!(got, field, "{query}: {message}");
        assert!(!message.is_empty());
    }
    // A missing field is named in the message, under the object that lacks it.
    for (query, missing) in [
        (json!({"sides": ["party"]}), "side"),
        (json!({"side": "party"}), "sides"),
    ] {
        let (got, message) = refused(query.clone());
        assert_eq!(
            (got.as_str(), message),
            ("query", format!("missing field `{missing}`"))
        );
    }
    // The text export: text that is not JSON is refused too, naming the argument.
    let error = api::allied_sides::<String>("{side:").unwrap_err();
    assert_eq!(error.code(), "invalid_input", "{error}");
}
