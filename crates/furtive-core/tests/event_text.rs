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

/// A key given twice is read as its last value, as a JSON object read into
/// a map keeps it: the tag, an escaped tag and a field, at any depth.
#[test]
fn a_key_given_twice_is_read_as_its_last_value() {
    for (text, event) in [
        (
            r#"{"type":"explode","type":"stopHiding","hider":"h"}"#,
            Event::StopHiding { hider: "h".into() },
        ),
        (
            r#"{"type":3,"type":"stopHiding","hider":"h"}"#,
            Event::StopHiding { hider: "h".into() },
        ),
        (
            r#"{"type":"stopHiding","t\u0079pe":"sprint","token":"t"}"#,
            Event::Sprint { token: "t".into() },
        ),
        (
            r#"{"type":"stopHiding","hider":3,"hider":"b"}"#,
            Event::StopHiding { hider: "b".into() },
        ),
        (
            r#"{"type":"upsertCreature","creature":{"id":"x","id":"y"}}"#,
            Event::UpsertCreature {
                creature: furtive_core::Creature::new("y"),
            },
        ),
    ] {
        let (from_text, from_value) = both(text);
        assert_eq!(from_text, Ok(event), "{text}");
        assert_eq!(from_value, from_text, "{text}");
    }
    for text in [
        r#"{"type":"stopHiding","type":"explode","hider":"h"}"#,
        r#"{"type":"stopHiding","type":3,"hider":"h"}"#,
    ] {
        let (from_text, from_value) = both(text);
        assert!(
            from_text.as_ref().unwrap_err().starts_with("event.type: "),
            "{text}: {from_text:?}"
        );
        assert_eq!(from_value, from_text, "{text}");
    }
    let events = r#"[{"type":"stopHiding","hider":"a"},{"type":"x","type":"sprint","token":"t","token":"u"}]"#;
    assert_eq!(
        read::events(events).unwrap(),
        vec![
            Event::StopHiding { hider: "a".into() },
            Event::Sprint { token: "u".into() }
        ]
    );
    let requests = r#"[{"kind":"perceptionCheck","kind":"stealthRoll","hider":"h","hider":"g","modifiers":{},"clause":"P4"}]"#;
    assert_eq!(
        read::requests(requests).unwrap(),
        read::requests(
            json!([{"kind": "stealthRoll", "hider": "g", "modifiers": {}, "clause": "P4"}])
        )
        .unwrap()
    );
}

/// Text that is not JSON anywhere in it (a lone surrogate, a number
/// beyond a double, nesting deeper than serde_json reads, even in a member
/// that is otherwise ignored) is refused as the whole argument, with the
/// place in the caller's text, before any event in it is looked at.
#[test]
fn text_that_is_not_json_anywhere_names_the_argument_and_its_place() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    let not_json = |what: &str, text: &str| -> String {
        let error = serde_json::from_str::<Value>(text).unwrap_err();
        format!("{what}: not valid JSON text: {error}")
    };
    for text in [
        r#"{"type":"stopHiding","hider":"\ud800"}"#.to_owned(),
        r#"{"type":"stopHiding","hider":"h","x":"\udc00\ud800"}"#.to_owned(),
        r#"{"type":"perceptionRolled","hider":"h","observer":"o","total":1e400}"#.to_owned(),
        r#"{"type":"\ud800","hider":"h"}"#.to_owned(),
        r#"{"type":1e400}"#.to_owned(),
        r#"{"type":"\ud800","type":"stopHiding","hider":"h"}"#.to_owned(),
        format!(r#"{{"type":"stopHiding","hider":"h","x":{deep}}}"#),
        format!(r#"{{"type":{deep},"hider":"h"}}"#),
    ] {
        let error = read::event("event", text.as_str()).unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{text}");
        assert_eq!(error.to_string(), not_json("event", &text), "{text}");
    }
    for text in [
        r#"[{"type":"explode"},{"type":"stopHiding","hider":"\ud800"}]"#.to_owned(),
        r#"[{"type":"stopHiding","hider":"h"},{"type":"stopHiding","hider":"h","x":1e400}]"#
            .to_owned(),
        format!("[{}]", &deep[73..deep.len() - 73]),
    ] {
        let error = read::events(text.as_str()).unwrap_err();
        assert_eq!(error.to_string(), not_json("events", &text), "{text}");
    }
    for junk in [r#""\ud800""#, "1e400", deep.as_str()] {
        let text = format!(
            r#"[{{"kind":"perceptionCheck","hider":"h","observers":["o"],"clause":"O4","junk":{junk}}}]"#
        );
        let error = read::requests(text.as_str()).unwrap_err();
        assert_eq!(error.to_string(), not_json("requests", &text), "{text}");
    }
}

/// JSON text that serde_json reads (nesting up to its limit) is read as
/// JSON: a refused field is named, whatever is inside it.
#[test]
fn a_value_nested_as_deep_as_json_allows_is_a_refused_field() {
    let depth = 126;
    let text = format!(
        r#"{{"type":"stopHiding","hider":{}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    serde_json::from_str::<Value>(&text).unwrap();
    let (from_text, from_value) = both(&text);
    assert_eq!(
        from_text.unwrap_err(),
        "event.hider: a list is not a string"
    );
    assert_eq!(
        from_value.unwrap_err(),
        "event.hider: a list is not a string"
    );
}

/// A refused tag is worded as any refused value is: a whole number too
/// large for an integer is the decimal it is read as.
#[test]
fn a_tag_that_is_not_a_string_is_worded_as_any_refused_value() {
    let (from_text, from_value) = both(r#"{"type":18446744073709551616}"#);
    assert_eq!(
        from_text.unwrap_err(),
        "event.type: 18446744073709552000.0 is not a string"
    );
    assert_eq!(
        from_value.unwrap_err(),
        "event.type: 18446744073709552000.0 is not a string"
    );
}

/// Events that are not a list are refused in serde_json's words for a
/// list of values read from them.
#[test]
fn events_that_are_not_a_list_are_refused_as_a_list_of_values_is() {
    for text in [
        "{}",
        "null",
        "true",
        r#""x""#,
        "-1",
        "18446744073709551615",
        "1.5",
        "1e300",
    ] {
        let value: Value = serde_json::from_str(text).unwrap();
        let words = serde_json::from_value::<Vec<Value>>(value.clone()).unwrap_err();
        let expected = furtive_core::Error::refused("events", "", &words.to_string());
        assert_eq!(read::events(text), Err(expected.clone()), "{text}");
        assert_eq!(read::events(value), Err(expected), "{text}");
    }
}

/// Member names and values that make readers disagree: the tags (listed
/// more than once, so that some objects name one twice), an escaped tag,
/// fields of a few events and requests, a lone surrogate, numbers beyond
/// an integer or a double, keys given twice inside a value.
#[rustfmt::skip]
const KEYS: &[&str] = &[
    "type", "type", "type", "t\\u0079pe", "kind", "kind", "kind", "hider", "hider",
    "token", "observer", "clause", "modifiers", "creature", "x", "\\ud800",
];
#[rustfmt::skip]
const VALUES: &[&str] = &[
    r#""stopHiding""#, r#""stopHiding""#, r#""sprint""#, r#""combatEnd""#, r#""combatEnd""#,
    r#""upsertCreature""#, r#""perceptionCheck""#, r#""stealthRoll""#, r#""O4""#,
    r#""h""#, r#""h""#, r#""h""#, r#""caf\u00e9""#, r#""\ud800""#,
    "3", "-0", "1.0", "1e400", "18446744073709551616", "null", "[]", "{}", "[[[[[[[[]]]]]]]]",
    r#"{"id":"c","id":"d"}"#, r#"{"id":"c","junk":1e400}"#,
];

/// An object: a valid event, a valid request or nothing, then random
/// members, then perhaps something after it.
fn object() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    use proptest::sample::select;
    let valid = select(&[
        "",
        r#""type":"stopHiding","hider":"h","#,
        r#""kind":"perceptionCheck","hider":"h","observers":["o"],"clause":"O4","#,
    ]);
    let members = prop::collection::vec((select(KEYS), select(VALUES)), 0..4);
    (valid, members, select(&["", " ", " x"])).prop_map(|(valid, members, after)| {
        let members: String = members
            .iter()
            .map(|(key, value)| format!("\"{key}\":{value},"))
            .collect();
        let members = format!("{valid}{members}");
        format!("{{{}}}{after}", members.trim_end_matches(','))
    })
}

fn in_words(error: furtive_core::Error) -> String {
    format!("{} {error}", error.code())
}

/// What the `Value` reader ([`read::read_tagged`] on each item) makes of
/// the list `text`: `None` when the text is not JSON.
fn through_a_value<T: From<B>, B: serde::de::DeserializeOwned>(
    text: &str,
    what: &str,
    tag: &str,
) -> Option<Result<Vec<T>, String>> {
    let items: Vec<Value> = serde_json::from_str(text).ok()?;
    let read: Result<Vec<T>, _> = items
        .into_iter()
        .enumerate()
        .map(|(i, item)| read::read_tagged::<T, B>(&format!("{what}[{i}]"), tag, item))
        .collect();
    Some(read.map_err(in_words))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

    /// An event, a list of events or of requests read straight from text
    /// is what the `Value` reader makes of it: the same events or the same
    /// refusal; text that is not JSON is refused as such.
    #[test]
    fn text_reads_as_the_value_reader_reads(
        first in object(),
        more in proptest::collection::vec(object(), 0..3),
    ) {
        use furtive_core::event::EventByName;
        use furtive_core::outcome::RequestByName;
        use furtive_core::Request;

        let event = read::event("event", first.as_str()).map_err(in_words);
        match serde_json::from_str::<Value>(&first) {
            Ok(value) => {
                let expected = read::read_tagged::<Event, EventByName>("event", "type", value);
                proptest::prop_assert_eq!(&event, &expected.map_err(in_words), "{}", first);
            }
            Err(_) => proptest::prop_assert!(event.unwrap_err().starts_with("invalid_input event: not valid JSON text: ")),
        }

        let list = format!("[{}]", [first].iter().chain(&more).cloned().collect::<Vec<_>>().join(","));
        let events = read::events(list.as_str()).map_err(in_words);
        match through_a_value::<Event, EventByName>(&list, "events", "type") {
            Some(expected) => proptest::prop_assert_eq!(&events, &expected, "{}", list),
            None => proptest::prop_assert!(events.unwrap_err().starts_with("invalid_input events: not valid JSON text: ")),
        }
        let requests = read::requests(list.as_str()).map_err(in_words);
        match through_a_value::<Request, RequestByName>(&list, "requests", "kind") {
            Some(expected) => proptest::prop_assert_eq!(&requests, &expected, "{}", list),
            None => proptest::prop_assert!(requests.unwrap_err().starts_with("invalid_input requests: not valid JSON text: ")),
        }
    }
}
