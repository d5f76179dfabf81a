//! B5: concealment by darkness, decided by
//! `furtive_core::darkness::concealed_by_darkness` for the scene code and
//! the `concealedByDarkness` export (tests/vectors/b5-concealed-by-darkness.json
//! runs the export on every backend).

use furtive_core::darkness::{concealed_by_darkness, Darkvision};
use furtive_json::functions as api;
use serde_json::{json, Value};

#[test]
fn b5_a_lit_target_is_never_concealed_by_darkness() {
    assert!(!concealed_by_darkness(
        false,
        Some(100.0),
        Darkvision::Range(0.0)
    ));
    assert!(!concealed_by_darkness(false, None, Darkvision::Range(0.0)));
}

#[test]
fn b5_a_target_in_darkness_is_concealed_beyond_darkvision_and_seen_up_to_it() {
    assert!(concealed_by_darkness(
        true,
        Some(60.5),
        Darkvision::Range(60.0)
    ));
    assert!(!concealed_by_darkness(
        true,
        Some(60.0),
        Darkvision::Range(60.0)
    ));
    assert!(!concealed_by_darkness(
        true,
        Some(0.0),
        Darkvision::Range(0.0)
    ));
    assert!(concealed_by_darkness(
        true,
        Some(5.0),
        Darkvision::Range(0.0)
    ));
}

#[test]
fn b5_an_unknown_distance_conceals_unless_darkvision_is_unlimited() {
    assert!(concealed_by_darkness(true, None, Darkvision::Range(1e9)));
    assert!(!concealed_by_darkness(true, None, Darkvision::Unlimited));
    assert!(!concealed_by_darkness(
        true,
        Some(1e12),
        Darkvision::Unlimited
    ));
}

#[test]
fn b5_the_scene_code_decides_with_the_same_function() {
    use furtive_core::scene::{concealed, Lighting};
    let dark: Lighting = serde_json::from_value(json!({"dark": true, "by": "noLight"})).unwrap();
    assert!(concealed(&dark, 31.0, 30.0));
    assert!(!concealed(&dark, 30.0, 30.0));
    assert!(!concealed(&Lighting::everywhere(), 31.0, 0.0));
}

#[test]
fn b5_concealed_by_darkness_export_answers_each_observer_in_order() {
    let answer = api::concealed_by_darkness::<Value>(json!({
        "targetInDarkness": true,
        "observers": [
            {"distance": 30, "darkvision": 60},
            {"distance": 90, "darkvision": 60},
            {"darkvision": 60},
            {"distance": null, "darkvision": "unlimited"},
            {"distance": 5, "darkvision": 0}
        ]
    }))
    .unwrap();
    assert_eq!(answer, json!([false, true, true, false, true]));
    let lit = api::concealed_by_darkness::<Value>(json!({
        "targetInDarkness": false,
        "observers": [{"distance": 90, "darkvision": 0}]
    }))
    .unwrap();
    assert_eq!(lit, json!([false]));
    let none =
        api::concealed_by_darkness::<Value>(json!({"targetInDarkness": true, "observers": []}));
    assert_eq!(none.unwrap(), json!([]));
}

fn refused(query: Value) -> (String, String) {
    let error = api::concealed_by_darkness::<Value>(query).unwrap_err();
    assert_eq!(error.code(), "invalid_input", "{error}");
    let furtive_core::Error::InvalidInput { field, message } = error else {
        unreachable!()
    };
    (field, message)
}

#[test]
fn b5_concealed_by_darkness_refuses_bad_input_naming_the_field() {
    let ok = |observer: Value| json!({"targetInDarkness": true, "observers": [{"darkvision": 0}, observer]});
    let cases = [
        (
            ok(json!({"distance": -1, "darkvision": 0})),
            "query.observers[1].distance",
        ),
        (
            ok(json!({"distance": "far", "darkvision": 0})),
            "query.observers[1].distance",
        ),
        (
            ok(json!({"distance": 5, "darkvision": -0.5})),
            "query.observers[1].darkvision",
        ),
        (
            ok(json!({"distance": 5, "darkvision": null})),
            "query.observers[1].darkvision",
        ),
        (
            ok(json!({"distance": 5, "darkvision": "Infinity"})),
            "query.observers[1].darkvision",
        ),
        (ok(json!({"distance": 5})), "query.observers[1].darkvision"),
        (
            ok(json!({"distance": 5, "darkvision": 0, "range": 3})),
            "query.observers[1].range",
        ),
        (ok(json!(7)), "query.observers[1]"),
        (
            json!({"targetInDarkness": "yes", "observers": []}),
            "query.targetInDarkness",
        ),
        (json!({"observers": []}), "query.targetInDarkness"),
        (json!({"targetInDarkness": true}), "query.observers"),
        (
            json!({"targetInDarkness": true, "observers": {}}),
            "query.observers",
        ),
        (
            json!({"targetInDarkness": true, "observers": [], "extra": 1}),
            "query.extra",
        ),
        (json!(null), "query"),
    ];
    for (query, field) in cases {
        let (got, message) = refused(query.clone());
        assert_eq!(got, field, "{query}: {message}");
        assert!(!message.is_empty());
    }
    let (_, message) = refused(ok(json!({"distance": 5, "darkvision": null})));
    assert!(message.contains("\"unlimited\""), "{message}");
}
