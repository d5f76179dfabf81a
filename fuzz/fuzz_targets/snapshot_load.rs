//! `snapshot_load`: arbitrary bytes as a saved state. Never panics; a
//! snapshot that loads round-trips:
//!
//! - the bytes are read as JSON text the way the bindings read it
//!   (`furtive_json::read::json`), then given to `Session::load_json` (format
//!   version 1, migrated, or 2);
//! - a loaded session's snapshot, written as JSON and loaded again, is the
//!   same state, and writes the same JSON;
//! - the free function `validate_state` accepts it, and the JSON facade
//!   (`furtive_json::functions::hidden_from`) agrees with `Session::hidden_from`;
//! - a version 2 snapshot relabelled version 1 loads through the
//!   migration to the same state (version 2 has nothing the migration
//!   drops).
#![no_main]

use furtive_core::Session;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn check(value: Value) {
    let relabelled = match &value {
        Value::Object(object) if object.get("version") == Some(&Value::from(2)) => {
            let mut object = object.clone();
            object.insert("version".into(), Value::from(1));
            Some(Value::Object(object))
        }
        _ => None,
    };
    let Ok(session) = Session::load_json(value) else {
        return;
    };
    let state = session.snapshot();
    furtive_core::validate_state(&state)
        .unwrap_or_else(|e| panic!("a loaded state fails validate_state: {e:?}"));

    let json = serde_json::to_value(&state).expect("a state serializes");
    let reloaded = Session::load_json(json.clone())
        .unwrap_or_else(|e| panic!("a loaded session's snapshot does not load: {e:?}\n{json}"));
    assert_eq!(
        reloaded.state(),
        &state,
        "snapshot round trip changes the state"
    );
    assert_eq!(
        serde_json::to_value(reloaded.state()).expect("a state serializes"),
        json,
        "snapshot round trip changes the JSON"
    );
    // The same through JSON text, as the bindings pass it.
    let text = serde_json::to_string(&state).expect("a state serializes");
    let parsed = furtive_json::read::json("state", &text).expect("own JSON text parses");
    assert_eq!(parsed, json, "snapshot JSON text round trip");

    let lookup = serde_json::to_value(session.hidden_from()).expect("serializes");
    assert_eq!(
        furtive_json::functions::hidden_from::<serde_json::Value>(json)
            .expect("a loaded state answers hiddenFrom"),
        lookup,
        "hiddenFrom: JSON facade and Session disagree"
    );

    if let Some(v1) = relabelled {
        let migrated = Session::load_json(v1)
            .unwrap_or_else(|e| panic!("a version 2 state relabelled 1 does not load: {e:?}"));
        assert_eq!(
            migrated.state(),
            &state,
            "migrating a version 2 state relabelled 1 changes it"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(value) = furtive_json::read::json("state", text) {
        check(value);
    }
});
