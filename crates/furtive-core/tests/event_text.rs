//! Events read straight from JSON text (`furtive_json::read::event`,
//! `events`) read as the same events from a `Value`, wherever the tag is,
//! and a refused one names the same field in the same words.

use furtive_core::Event;
use furtive_json::read;
use serde_json::{json, Value};

fn both(text: &str) -> (Result<Event, String>, Result<Event, String>) {
    let from_text = read::event("event", text).map_err(|e| e.to_string());
    let value: Value = serde_json::from_str(text).unwrap();
    let from_value = read::event("event", value).map_err(|e| e.to_string());
    (from_text, from_value)
}

#[test]
fn the_tag_may_come_anywhere_in_the_object() {
    let first = read::event("event", r#"{"type":"stopHiding","hider":"h"}"#).unwrap();
    let last = read::event("event", r#"{"hider":"h","type":"stopHiding"}"#).unwrap();
    assert_eq!(first, last);
    assert_eq!(first, Event::StopHiding { hider: "h".into() });
}

#[test]
fn escaped_keys_and_values_read_as_their_characters() {
    let event = read::event(
        "event",
        r#"{"t\u0079pe":"stopHiding","h\u0069der":"caf\u00e9 \"x\""}"#,
    )
    .unwrap();
    assert_eq!(
        event,
        Event::StopHiding {
            hider: "café \"x\"".into()
        }
    );
}

#[test]
fn text_and_value_read_the_same_event_or_the_same_refusal() {
    for text in [
        r#"{"type":"viewChanged","hider":"h","moved":true,"view":[{"observer":"o","clearView":true,"distance":5}]}"#,
        r#"{"view":[{"observer":"o","clearView":false}],"hider":"h","type":"viewChanged"}"#,
        r#"{"type":"viewChanged","hider":"h","view":[{"observer":"o","clearView":"yes"}]}"#,
        r#"{"type":"enterStealth","hider":"h","roll":37.5}"#,
        r#"{"type":"enterStealth","hider":"h","rol":3}"#,
        r#"{"type":"explode"}"#,
        r#"{"type":3,"hider":"h"}"#,
        r#"{"hider":"h"}"#,
        r#"[1,2]"#,
        r#""stopHiding""#,
    ] {
        let (from_text, from_value) = both(text);
        assert_eq!(from_text, from_value, "{text}");
    }
}

#[test]
fn refusals_name_the_field_inside_the_event() {
    let refused = |text: &str| read::event("event", text).unwrap_err().to_string();
    assert!(refused(
        r#"{"type":"viewChanged","hider":"h","view":[{"observer":"o","clearView":"yes"}]}"#
    )
    .starts_with("event.view[0].clearView: "));
    assert!(refused(r#"{"type":"explode"}"#).starts_with("event.type: unknown variant `explode`"));
    assert!(refused(r#"{"hider":"h"}"#).starts_with("event: missing field `type`"));
    assert!(refused(r#"{"type":3}"#).starts_with("event.type: "));
}

#[test]
fn text_that_is_not_json_is_refused_as_such() {
    for text in [
        r#"{"type":"stopHiding","hider":"h""#,
        r#"{"type":"stopHiding"} x"#,
        "",
    ] {
        let error = read::event("event", text).unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{text}");
        assert!(
            error.to_string().contains("not valid JSON text"),
            "{text}: {error}"
        );
    }
}

#[test]
fn a_list_names_the_refused_event_by_its_place() {
    let events = json!([
        {"type": "stopHiding", "hider": "a"},
        {"hider": "b", "type": "stopHiding", "extra": 1}
    ]);
    let from_text = read::events(events.to_string().as_str()).unwrap_err();
    let from_value = read::events(events).unwrap_err();
    assert_eq!(from_text.to_string(), from_value.to_string());
    assert!(from_text
        .to_string()
        .starts_with("events[1].extra: unknown field `extra`"));
    assert_eq!(
        read::events(r#"[{"type":"stopHiding","hider":"a"}]"#).unwrap(),
        vec![Event::StopHiding { hider: "a".into() }]
    );
}
