//! `JsonSession::apply_view_changed`: a `viewChanged` sent as columns (ids
//! joined by U+0000, clear view bytes, distances with NaN for none) gives
//! exactly what the same event sent as JSON text gives: the same effects,
//! the same state, the same refusals, word for word.

#![cfg(feature = "view-columns")]

use furtive_core::api_session::JsonSession;
use serde_json::{json, Value};

fn config() -> Value {
    json!({
        "ruleset": "opposed",
        "creatures": [
            {"id": "rogue", "side": "party", "stealthSkill": 4},
            {"id": "thief", "side": "party"},
            {"id": "guard", "side": "watch", "enhancedSenses": [{"sense": "tremorsense", "range": 30}]},
            {"id": "captain", "side": "watch"},
            {"id": "hound", "side": "watch", "enhancedSenses": [{"sense": "blindsight", "range": 10}]},
            {"id": "é-scout", "side": "watch"}
        ]
    })
}

/// Two sessions in the same state: one is sent text, the other columns.
fn twins() -> (JsonSession, JsonSession) {
    let mut text = JsonSession::create(config().to_string().as_str()).unwrap();
    let mut columns = JsonSession::create(config().to_string().as_str()).unwrap();
    for hider in ["rogue", "thief"] {
        let event =
            json!({"type": "enterStealth", "hider": hider, "roll": 14, "moved": true}).to_string();
        text.apply(event.as_str()).unwrap();
        columns.apply(event.as_str()).unwrap();
    }
    (text, columns)
}

/// `(observer, clear view, distance)` as the columns carry them.
type Entry<'a> = (&'a str, bool, Option<f64>);

fn as_text(hider: &str, moved: Option<bool>, view: &[Entry]) -> String {
    let view: Vec<Value> = view
        .iter()
        .map(|(observer, clear, distance)| match distance {
            Some(distance) => {
                json!({"observer": observer, "clearView": clear, "distance": distance})
            }
            None => json!({"observer": observer, "clearView": clear}),
        })
        .collect();
    let mut event = json!({"type": "viewChanged", "hider": hider, "view": view});
    if let Some(moved) = moved {
        event["moved"] = json!(moved);
    }
    event.to_string()
}

fn send_columns(
    session: &mut JsonSession,
    hider: &str,
    moved: Option<bool>,
    view: &[Entry],
) -> Result<String, furtive_core::Error> {
    let observers: Vec<&str> = view.iter().map(|(observer, _, _)| *observer).collect();
    let clear: Vec<u8> = view.iter().map(|(_, clear, _)| u8::from(*clear)).collect();
    let distance: Vec<f64> = view
        .iter()
        .map(|(_, _, distance)| distance.unwrap_or(f64::NAN))
        .collect();
    session.apply_view_changed(
        hider,
        moved.unwrap_or(false),
        &observers.join("\0"),
        &clear,
        &distance,
    )
}

/// Sends the event both ways and checks both sessions answered and ended alike.
fn both(
    text: &mut JsonSession,
    columns: &mut JsonSession,
    hider: &str,
    moved: Option<bool>,
    view: &[Entry],
) -> Result<String, String> {
    let by_text = text.apply(as_text(hider, moved, view).as_str());
    let by_columns = send_columns(columns, hider, moved, view);
    let by_text = by_text.map_err(|error| format!("{}: {error}", error.code()));
    let by_columns = by_columns.map_err(|error| format!("{}: {error}", error.code()));
    // The column form's head names the ids it was sent by their place.
    let known: Vec<&str> = std::iter::once(hider)
        .chain(view.iter().map(|(observer, _, _)| *observer))
        .collect();
    assert_eq!(
        by_columns.as_deref().map(|text| read_packed(text, &known)),
        by_text.as_deref().map(|text| read_packed(text, &[])),
        "hider {hider}, view {view:?}"
    );
    assert_eq!(columns.snapshot().unwrap(), text.snapshot().unwrap());
    by_text
}

/// Packed effects read back as their JSON, `known` the ids the call was sent.
fn read_packed(text: &str, known: &[&str]) -> Value {
    furtive_core::packed::unpack_effects_with_known(text, known)
        .unwrap_or_else(|| panic!("not packed effects of {known:?}: {text}"))
}

#[test]
fn o4_o5_o13_a_view_sent_as_columns_decides_as_the_same_view_sent_as_text() {
    let (mut text, mut columns) = twins();
    let steps: Vec<(&str, Option<bool>, Vec<Entry>)> = vec![
        (
            "rogue",
            None,
            vec![("guard", true, Some(5.0)), ("captain", false, None)],
        ),
        (
            "rogue",
            Some(false),
            vec![
                ("guard", false, Some(12.5)),
                ("hound", false, Some(9.999_999_999_999_998)),
            ],
        ),
        (
            "thief",
            Some(true),
            vec![
                ("é-scout", true, Some(0.0)),
                ("hound", true, Some(1e9)),
                ("guard", false, Some(31.0)),
            ],
        ),
        ("thief", None, vec![]),
        (
            "rogue",
            Some(false),
            vec![
                ("hound", false, Some(2.0)),
                ("guard", false, Some(29.999_999_999_999_996)),
                ("thief", true, None),
            ],
        ),
    ];
    for (hider, moved, view) in &steps {
        let effects = both(&mut text, &mut columns, hider, *moved, view).unwrap();
        assert!(effects.starts_with('{'), "{effects}");
    }
    assert_eq!(columns.revision(), text.revision());
}

#[test]
fn o4_a_view_sent_as_columns_is_refused_as_the_same_text_is_and_changes_nothing() {
    let (mut text, mut columns) = twins();
    let before = columns.snapshot().unwrap();
    let refused: Vec<(&str, Vec<Entry>)> = vec![
        ("rogue", vec![("guard", true, None), ("nobody", true, None)]),
        ("rogue", vec![("rogue", true, None)]),
        ("rogue", vec![("guard", true, Some(-1.0))]),
        ("rogue", vec![("guard", true, Some(2e9))]),
        ("rogue", vec![("guard", true, Some(f64::INFINITY))]),
        ("rogue", vec![("", true, None)]),
        ("nobody", vec![("guard", true, None)]),
        ("", vec![]),
        // O4: one clear view a pair; the same observer twice is refused.
        (
            "rogue",
            vec![("captain", true, None), ("captain", false, Some(3.0))],
        ),
    ];
    for (hider, view) in &refused {
        // The text form cannot carry an infinite distance: check the
        // columns' refusal alone, against the largest finite one's.
        if view
            .iter()
            .any(|(_, _, distance)| distance.is_some_and(f64::is_infinite))
        {
            let error = send_columns(&mut columns, hider, None, view).unwrap_err();
            assert_eq!(error.code(), "out_of_range", "{error}");
            assert!(error.to_string().contains("view[0].distance"), "{error}");
            continue;
        }
        let error = both(&mut text, &mut columns, hider, None, view).unwrap_err();
        assert!(!error.is_empty());
        if view.len() == 2 && view[0].0 == view[1].0 {
            assert_eq!(
                error,
                "duplicate_token: view[1].observer: token `captain` is listed twice"
            );
        }
    }
    assert_eq!(columns.snapshot().unwrap(), before);
}

#[test]
fn columns_whose_lengths_disagree_are_refused_naming_the_view_and_change_nothing() {
    let (_, mut columns) = twins();
    let before = columns.snapshot().unwrap();
    let cases: Vec<(&str, Vec<u8>, Vec<f64>, &str)> = vec![
        ("guard\0captain", vec![1], vec![0.0], "event.view"),
        ("guard", vec![1, 0], vec![0.0, 0.0], "event.view"),
        ("guard", vec![1], vec![], "event.view"),
        ("guard", vec![], vec![], "event.view"),
    ];
    for (observers, clear, distance, field) in cases {
        let error = columns
            .apply_view_changed("rogue", false, observers, &clear, &distance)
            .unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{error}");
        assert!(
            error.to_string().starts_with(&format!("{field}: ")),
            "{error}"
        );
    }
    assert_eq!(columns.snapshot().unwrap(), before);
}

#[test]
fn o4_any_clear_view_byte_but_zero_reads_as_a_clear_view() {
    let (_, mut ones) = twins();
    let (_, mut twos) = twins();
    let one = ones
        .apply_view_changed("rogue", false, "captain", &[1], &[5.0])
        .unwrap();
    let two = twos
        .apply_view_changed("rogue", false, "captain", &[2], &[5.0])
        .unwrap();
    assert_eq!(two, one);
    let effects = read_packed(&one, &["rogue", "captain"]);
    assert_eq!(effects["requests"][0]["kind"], "perceptionCheck", "{one}");
}

/// `(hider, moved, view)` of one event of a batch.
type Batch<'a> = Vec<(&'a str, bool, Vec<Entry<'a>>)>;

fn batch_as_text(batch: &Batch) -> String {
    let events: Vec<Value> = batch
        .iter()
        .map(|(hider, moved, view)| {
            serde_json::from_str(&as_text(hider, Some(*moved), view)).unwrap()
        })
        .collect();
    Value::Array(events).to_string()
}

fn send_batch_columns(
    session: &mut JsonSession,
    batch: &Batch,
) -> Result<String, furtive_core::Error> {
    let hiders: Vec<&str> = batch.iter().map(|(hider, _, _)| *hider).collect();
    let moved: Vec<u8> = batch.iter().map(|(_, moved, _)| u8::from(*moved)).collect();
    let counts: Vec<u32> = batch.iter().map(|(_, _, view)| view.len() as u32).collect();
    let entries: Vec<&Entry> = batch.iter().flat_map(|(_, _, view)| view).collect();
    let observers: Vec<&str> = entries.iter().map(|(observer, _, _)| *observer).collect();
    let clear: Vec<u8> = entries
        .iter()
        .map(|(_, clear, _)| u8::from(*clear))
        .collect();
    let distance: Vec<f64> = entries
        .iter()
        .map(|(_, _, distance)| distance.unwrap_or(f64::NAN))
        .collect();
    session.apply_all_view_changed(
        &hiders.join("\0"),
        &moved,
        &counts,
        &observers.join("\0"),
        &clear,
        &distance,
    )
}

#[test]
fn o4_o5_o13_views_of_several_hiders_sent_as_columns_are_one_transaction_as_the_same_text() {
    let (mut text, mut columns) = twins();
    let batches: Vec<Batch> = vec![
        // A door opens in front of both hiders.
        vec![
            (
                "rogue",
                false,
                vec![("guard", true, Some(5.0)), ("captain", true, None)],
            ),
            (
                "thief",
                true,
                vec![("hound", true, Some(9.5)), ("é-scout", false, Some(40.0))],
            ),
        ],
        // An empty view between two others, and the same hider twice.
        vec![
            ("rogue", false, vec![("guard", false, Some(12.0))]),
            ("thief", false, vec![]),
            (
                "rogue",
                true,
                vec![("guard", true, Some(1.0)), ("hound", false, None)],
            ),
        ],
        vec![],
        // Refused in the middle: nothing of the batch is applied.
        vec![
            ("rogue", false, vec![("captain", false, None)]),
            ("thief", false, vec![("nobody", true, None)]),
            ("rogue", false, vec![("hound", true, Some(2.0))]),
        ],
        vec![("rogue", false, vec![("guard", true, Some(-1.0))])],
        vec![("nobody", false, vec![])],
        vec![("", false, vec![("guard", true, None)])],
    ];
    let mut refused = 0;
    for batch in &batches {
        let by_text = text
            .apply_all(batch_as_text(batch).as_str())
            .map_err(|error| format!("{}: {error}", error.code()));
        let by_columns = send_batch_columns(&mut columns, batch)
            .map_err(|error| format!("{}: {error}", error.code()));
        let known: Vec<&str> = batch
            .iter()
            .map(|(hider, _, _)| *hider)
            .chain(
                batch
                    .iter()
                    .flat_map(|(_, _, view)| view.iter().map(|(observer, _, _)| *observer)),
            )
            .collect();
        assert_eq!(
            by_columns.as_deref().map(|text| read_packed(text, &known)),
            by_text.as_deref().map(|text| read_packed(text, &[])),
            "batch {batch:?}"
        );
        assert_eq!(columns.snapshot().unwrap(), text.snapshot().unwrap());
        refused += usize::from(by_text.is_err());
    }
    assert_eq!(refused, 4);
    assert_eq!(columns.revision(), text.revision());
}

/// `(hiders, moved, counts, observers, clear view, distance)` as
/// `apply_all_view_changed` takes them.
type BatchColumns<'a> = (&'a str, Vec<u8>, Vec<u32>, &'a str, Vec<u8>, Vec<f64>);

#[test]
fn batch_columns_whose_lengths_disagree_are_refused_naming_the_events_and_change_nothing() {
    let (_, mut columns) = twins();
    let before = columns.snapshot().unwrap();
    let cases: Vec<BatchColumns> = vec![
        (
            "rogue\0thief",
            vec![0],
            vec![1],
            "guard",
            vec![1],
            vec![5.0],
        ),
        ("rogue", vec![0], vec![1, 0], "guard", vec![1], vec![5.0]),
        ("rogue", vec![0], vec![2], "guard", vec![1], vec![5.0]),
        (
            "rogue",
            vec![0],
            vec![u32::MAX],
            "guard",
            vec![1],
            vec![5.0],
        ),
        ("", vec![], vec![], "guard", vec![1], vec![5.0]),
        (
            "rogue",
            vec![0],
            vec![1],
            "guard\0captain",
            vec![1],
            vec![5.0],
        ),
        ("rogue", vec![0], vec![1], "guard", vec![1], vec![]),
    ];
    for (hiders, moved, counts, observers, clear, distance) in cases {
        let error = columns
            .apply_all_view_changed(hiders, &moved, &counts, observers, &clear, &distance)
            .unwrap_err();
        assert_eq!(error.code(), "invalid_input", "{error}");
        assert!(
            error
                .to_string()
                .starts_with("events: the columns disagree"),
            "{error}"
        );
    }
    assert_eq!(columns.snapshot().unwrap(), before);
}
