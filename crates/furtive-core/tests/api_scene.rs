//! `furtive_json::scene_sight::JsonSceneSight`, the facade the JavaScript
//! `SceneSight` class holds: the arguments it names in errors, and that a
//! refused update changes nothing. The clear-view rules themselves (B5)
//! are tested in the scene tests.
#![cfg(feature = "scene")]

use furtive_json::scene_sight::JsonSceneSight;
use serde_json::{json, Value};

/// Two tokens on either side of a closed door, in the 0.8 layout.
fn scene() -> Value {
    json!({
        "grid": 100, "gridDistance": 5, "gridUnits": "ft", "width": 1000, "height": 1000,
        "globalLight": true, "darkness": 0,
        "walls": [{ "_id": "door", "c": [500, 0, 500, 1000], "door": 1, "ds": 0, "sight": 20, "move": 20 }],
        "tokens": [
            { "_id": "near", "x": 200, "y": 450, "width": 1, "height": 1 },
            { "_id": "far", "x": 700, "y": 450, "width": 1, "height": 1 }
        ],
    })
}

fn parsed(text: String) -> Value {
    serde_json::from_str(&text).expect("the facade returns JSON text")
}

#[test]
fn b5_a_door_opened_by_update_answers_as_a_fresh_parse() {
    let mut sight = JsonSceneSight::parse(scene()).unwrap();
    let view =
        |sight: &mut JsonSceneSight| parsed(sight.view(json!("near"), json!("far")).unwrap());
    assert_eq!(view(&mut sight)["clearView"], json!(false));
    assert_eq!(
        sight
            .update(json!({ "type": "door", "wallId": "door", "state": "open" }))
            .unwrap(),
        "null"
    );
    let mut open = scene();
    open["walls"][0]["ds"] = json!(1);
    let mut fresh = JsonSceneSight::parse(open).unwrap();
    assert_eq!(view(&mut sight), view(&mut fresh));
    assert_eq!(view(&mut sight)["clearView"], json!(true));
    assert_eq!(
        parsed(sight.scene().unwrap()),
        parsed(fresh.scene().unwrap())
    );
}

#[test]
fn a_refused_update_changes_nothing_and_names_the_update() {
    let mut sight = JsonSceneSight::parse(scene()).unwrap();
    let before = sight.scene().unwrap();
    let error = sight
        .update(json!([
            { "type": "door", "wallId": "door", "state": "open" },
            { "type": "tokenMoved", "tokenId": "ghost", "x": 0, "y": 0 }
        ]))
        .unwrap_err();
    assert_eq!(error.code(), "unknown_token");
    assert!(
        error.to_string().starts_with("updates[1].tokenId"),
        "{error}"
    );
    assert_eq!(sight.scene().unwrap(), before);
    assert_eq!(
        parsed(sight.view(json!("near"), json!("far")).unwrap())["clearView"],
        json!(false)
    );
}

#[test]
fn errors_name_the_argument() {
    let mut sight = JsonSceneSight::parse(scene()).unwrap();
    let cases = [
        (
            sight.view(json!(3), json!("far")).unwrap_err(),
            "invalid_input",
            "observer",
        ),
        (
            sight.view(json!("near"), json!("ghost")).unwrap_err(),
            "unknown_token",
            "target",
        ),
        (
            sight.clear_view_from(json!("ghost")).unwrap_err(),
            "unknown_token",
            "observer",
        ),
        (
            sight.lighting_of(json!("ghost")).unwrap_err(),
            "unknown_token",
            "token",
        ),
        (
            sight.lighting_at(json!({ "x": "a", "y": 0 })).unwrap_err(),
            "invalid_input",
            "point.x",
        ),
        (
            sight
                .clear_view(json!({ "from": { "tokenId": "near" } }))
                .unwrap_err(),
            "invalid_input",
            "query",
        ),
        (
            JsonSceneSight::parse(json!({ "walls": "none" })).unwrap_err(),
            "invalid_scene",
            "walls",
        ),
    ];
    for (error, code, field) in cases {
        assert_eq!(error.code(), code, "{error}");
        assert!(
            error.to_string().starts_with(field),
            "{error} does not name {field}"
        );
    }
}
