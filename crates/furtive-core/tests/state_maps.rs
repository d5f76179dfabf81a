//! The state's maps (`TokenMap`, a `BTreeMap`) read and write JSON with
//! keys in order, a key given twice in JSON text keeping its last value,
//! anything but an object refused. Through the JSON boundary: text and a
//! `Value` alike.

use furtive_json::session::JsonSession;
use serde_json::Value;

/// A snapshot with its keys out of order and given twice: the creature
/// `a`, the hider `a` and its pair with `b`.
const UNSORTED: &str = r#"{"version": 2, "ruleset": "opposed",
  "creatures": {
    "b": {"id": "b", "name": "Bee"},
    "a": {"id": "a", "name": "first"},
    "c": {"id": "c"},
    "a": {"id": "a", "name": "last"}
  },
  "hiders": {
    "a": {"phase": "hiding", "heldTotal": 1, "penalties": [], "precautions": [],
          "pairs": {"b": {"perceived": true, "reason": "watched_at_entry"}}},
    "a": {"phase": "hiding", "heldTotal": 12, "penalties": [], "precautions": [],
          "pairs": {
            "c": {"perceived": false, "reason": "not_in_view_at_entry"},
            "b": {"perceived": true, "reason": "watched_at_entry"},
            "b": {"perceived": false, "reason": "not_in_view_at_entry"}
          }}
  }
}"#;

#[test]
fn text_with_keys_out_of_order_and_twice_reads_as_a_btreemap_read_it() {
    let from_text = JsonSession::load(UNSORTED).unwrap().snapshot().unwrap();
    // A `Value`'s maps are sorted, each key once (the last): what the
    // `BTreeMap`s made of this text too.
    let value: Value = serde_json::from_str(UNSORTED).unwrap();
    let from_value = JsonSession::load(value).unwrap().snapshot().unwrap();
    assert_eq!(from_text, from_value);

    let snapshot: Value = serde_json::from_str(&from_text).unwrap();
    let creatures: Vec<&str> = snapshot["creatures"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(creatures, ["a", "b", "c"]);
    assert_eq!(snapshot["creatures"]["a"]["name"], "last");
    let hider = &snapshot["hiders"]["a"];
    assert_eq!(hider["heldTotal"], 12);
    assert_eq!(hider["pairs"]["b"]["perceived"], false);
    // Written in key order.
    let b = from_text.find(r#""b":{"perceived""#).unwrap();
    let c = from_text.find(r#""c":{"perceived""#).unwrap();
    assert!(b < c, "{from_text}");
}

#[test]
fn an_empty_map_is_written_as_an_object() {
    let session = JsonSession::load(r#"{"version": 2, "ruleset": "opposed"}"#).unwrap();
    let snapshot = session.snapshot().unwrap();
    assert!(snapshot.contains(r#""creatures":{}"#), "{snapshot}");
    assert!(snapshot.contains(r#""hiders":{}"#), "{snapshot}");
    assert_eq!(session.hidden_from().unwrap(), "{}");
}

#[test]
fn a_map_given_as_anything_but_an_object_is_refused_as_before() {
    for (state, field) in [
        (
            r#"{"version": 2, "ruleset": "opposed", "creatures": [["a", {"id": "a"}]]}"#,
            "creatures",
        ),
        (
            r#"{"version": 2, "ruleset": "opposed", "creatures": []}"#,
            "creatures",
        ),
        (
            r#"{"version": 2, "ruleset": "opposed", "hiders": 5}"#,
            "hiders",
        ),
        (
            r#"{"version": 2, "ruleset": "opposed", "creatures": {"a": {"id": "a"}, "b": {"id": "b"}},
                "hiders": {"a": {"phase": "hiding", "heldTotal": 1, "pairs": [["b", {"perceived": true, "reason": "watched_at_entry"}]]}}}"#,
            "hiders.a.pairs",
        ),
    ] {
        for error in [
            JsonSession::load(state).err().unwrap(),
            JsonSession::load(serde_json::from_str::<Value>(state).unwrap())
                .err()
                .unwrap(),
        ] {
            assert_eq!(error.code(), "invalid_input", "{state}");
            let message = error.to_string();
            assert!(
                message.starts_with(&format!("state.{field}: "))
                    && message.ends_with(" is not an object"),
                "{state}: {message}"
            );
        }
    }
}

#[test]
fn a_configuration_listing_a_token_twice_names_the_first_repeat_in_its_order() {
    use furtive_core::state::{Config, Creature, Ruleset, Settings};
    use furtive_core::Session;
    for (ids, index) in [
        (&["a", "a"][..], 1),
        (&["a", "b", "a", "b"], 2),
        (&["b", "a", "a", "b"], 2),
        (&["c", "b", "a", "c", "b"], 3),
        (&["a", "b", "c", "c", "a"], 3),
        (&["z", "y", "x", "x", "x"], 3),
    ] {
        let config = Config {
            ruleset: Ruleset::Opposed,
            settings: Settings::default(),
            creatures: ids.iter().map(|id| Creature::new(*id)).collect(),
        };
        let error = Session::new(config).err().unwrap();
        assert_eq!(error.code(), "duplicate_token", "{ids:?}");
        assert_eq!(
            error.to_string(),
            format!(
                "creatures[{index}].id: token `{}` is listed twice",
                ids[index]
            ),
            "{ids:?}"
        );
    }
    // In any order, the creatures come out by id.
    let config = Config {
        ruleset: Ruleset::Opposed,
        settings: Settings::default(),
        creatures: ["d", "b", "c", "a"]
            .into_iter()
            .map(Creature::new)
            .collect(),
    };
    let state = Session::new(config).unwrap().into_state();
    assert!(state
        .creatures
        .keys()
        .map(|id| id.as_str())
        .eq(["a", "b", "c", "d"]));
}
