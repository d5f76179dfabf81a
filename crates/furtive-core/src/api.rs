//! The JSON facade the bindings call: JSON values in, JSON values out.
//!
//! Both bindings (napi and wasm) convert JavaScript values to
//! `serde_json::Value`, call one function here and convert the result back,
//! so every backend parses, validates and words its errors identically.
//! Parse errors name the path of the bad field (`serde_path_to_error`):
//! `event.hider: invalid type: integer `3`, expected a string`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::error::Error;
use crate::event::Event;
use crate::outcome::Request;
use crate::query::{DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery};
#[cfg(feature = "scene")]
use crate::scene::{ClearViewQuery, Scene, SceneSight, Token};
use crate::state::{Config, State};

/// Reads the `state` argument: format version 1 (migrated) or 2.
fn read_state(state: Value) -> Result<State, Error> {
    crate::migrate::read_state("state", state)
}

/// Parses `value` as `T`; on failure, the path of the bad value inside
/// `value` (`""` for `value` itself, `"a.b[2]"`) and serde's message.
///
/// Natively, `value` is read once without tracking the path, and read
/// again with `serde_path_to_error` only when that fails, for the path:
/// the same result and the same error as reading with the path, without
/// its cost on the good input every call is (see [`read_fast`]). The wasm
/// build reads with the path at once: the second reader would double the
/// serde code its size budget counts.
pub(crate) fn parse_at_path<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(parsed) = read_fast(&value) {
        return Ok(parsed);
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let path = error.path().to_string();
        let path = if path == "." { String::new() } else { path };
        (path, error.into_inner().to_string())
    })
}

/// `value` read as `T` without tracking the path; `None` when it is not a
/// `T` (the caller reads it again with the path, for the error). The
/// reader is serde_json's own, over a borrowed `Value`, so it accepts and
/// refuses exactly what the path-tracking reader does (`tests/js/bad-input`
/// compares every refusal's message with the wasm build's, which reads
/// with the path only).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn read_fast<T: DeserializeOwned>(value: &Value) -> Option<T> {
    T::deserialize(value).ok()
}

/// `what` followed by a path from [`parse_at_path`]: `event`, `event.hider`, `tokens[2]`.
fn field_at(what: &str, path: &str) -> String {
    if path.is_empty() || path.starts_with('[') {
        format!("{what}{path}")
    } else {
        format!("{what}.{path}")
    }
}

/// Parses `value` as `T`; errors are `invalid_input` naming `what.path`.
pub fn parse<T: DeserializeOwned>(what: &str, value: Value) -> Result<T, Error> {
    parse_at_path(value).map_err(|(path, message)| Error::InvalidInput {
        field: field_at(what, &path),
        message,
    })
}

/// Parses an internally tagged enum (see `crate::tagged`) through its
/// externally tagged twin `B`; errors are `invalid_input` naming the field
/// as the caller wrote it: `event.type` for an unknown type, `event.hider`
/// for a bad field, `event` for a missing one.
fn parse_tagged<T: From<B>, B: DeserializeOwned>(
    what: &str,
    tag: &'static str,
    value: Value,
) -> Result<T, Error> {
    crate::tagged::read::<T, B>(tag, value).map_err(|(field, message)| Error::InvalidInput {
        field: field_at(what, &field),
        message,
    })
}

/// Parses an event (`{"type": ..., ...}`); errors name the field as in
/// [`parse`]: `event.type` for an unknown type, `event.hider` for a bad
/// field, `event` for a missing one.
pub fn parse_event(what: &str, value: Value) -> Result<Event, Error> {
    parse_tagged::<Event, crate::event::EventByName>(what, "type", value)
}

/// Parses the `events` argument of `applyAll`: an array of events; errors
/// name `events[i].field`.
pub fn parse_events(value: Value) -> Result<Vec<Event>, Error> {
    let items: Vec<Value> = parse("events", value)?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| parse_event(&format!("events[{i}]"), item))
        .collect()
}

/// Parses the `requests` argument of `rollRequests`: an array of
/// `{"kind": ..., ...}`; errors name `requests[i].field`.
pub fn parse_requests(value: Value) -> Result<Vec<Request>, Error> {
    let items: Vec<Value> = parse("requests", value)?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            parse_tagged::<Request, crate::outcome::RequestByName>(
                &format!("requests[{i}]"),
                "kind",
                item,
            )
        })
        .collect()
}

/// Parses the JSON text of one argument, as the bindings receive it: the
/// JavaScript side serializes every argument with the platform's own
/// `JSON.stringify`, and this reads it back with `serde_json` (whose
/// recursion limit, 128 levels, stops absurdly deep input without touching
/// the stack). Errors are `invalid_input` naming the argument.
pub fn parse_json(argument: &str, text: &str) -> Result<Value, Error> {
    serde_json::from_str(text).map_err(|e| Error::InvalidInput {
        field: argument.to_owned(),
        message: format!("not valid JSON text: {e}"),
    })
}

/// Serializes a result for the bindings; `invalid_input` naming `output`
/// if it cannot be (never for the engine's own types).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, Error> {
    serde_json::to_value(value).map_err(|e| Error::InvalidInput {
        field: "output".into(),
        message: e.to_string(),
    })
}

/// A result as JSON text for the bindings, in ASCII: every character
/// beyond U+007F is written as a JSON escape (`é` as `\u00e9`, a character
/// beyond U+FFFF as its UTF-16 surrogate pair), so `JSON.parse` reads the
/// same values. ASCII text crosses into JavaScript on a fast path: V8
/// (napi's `napi_create_string_utf8`) and `TextDecoder` (wasm-bindgen)
/// copy ASCII bytes as they are, where a string with one accented letter
/// is decoded character by character from there on (the bilingual
/// explanations of an event, `bench/session.mjs`). `invalid_input` naming
/// `output` if `value` cannot be serialized (never for the engine's own
/// types).
pub fn to_json_text<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut bytes = Vec::with_capacity(256);
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut bytes,
            AsciiFormatter,
        ))
        .map_err(|e| Error::InvalidInput {
            field: "output".into(),
            message: e.to_string(),
        })?;
    // Only ASCII is written: always valid UTF-8.
    String::from_utf8(bytes).map_err(|e| Error::InvalidInput {
        field: "output".into(),
        message: e.to_string(),
    })
}

/// serde_json's compact formatter, with every non-ASCII character escaped
/// (see [`to_json_text`]).
struct AsciiFormatter;

impl serde_json::ser::Formatter for AsciiFormatter {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if fragment.is_ascii() {
            return writer.write_all(fragment.as_bytes());
        }
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut ascii_from = 0;
        for (at, c) in fragment.char_indices() {
            if c.is_ascii() {
                continue;
            }
            writer.write_all(&fragment.as_bytes()[ascii_from..at])?;
            ascii_from = at + c.len_utf8();
            let mut units = [0u16; 2];
            for &mut unit in c.encode_utf16(&mut units) {
                let digit = |shift: u16| HEX[usize::from((unit >> shift) & 0xf)];
                writer.write_all(&[b'\\', b'u', digit(12), digit(8), digit(4), digit(0)])?;
            }
        }
        writer.write_all(&fragment.as_bytes()[ascii_from..])
    }
}

/// Parses a seed: an integer 0..=2^53-1 (exact in a JavaScript number).
/// Errors: `invalid_input` when it is not a number, `out_of_range` when it
/// is a number outside that range or with a fraction. (B4 Fix: a seed
/// that is not a number used to be `out_of_range`.)
pub fn parse_seed(value: &Value) -> Result<u64, Error> {
    const MAX: u64 = (1 << 53) - 1;
    if !value.is_number() {
        return Err(Error::InvalidInput {
            field: "seed".into(),
            message: format!(
                "invalid type: {}, expected an integer 0..={MAX}",
                crate::tagged::unexpected(value)
            ),
        });
    }
    match value.as_u64() {
        Some(seed) if seed <= MAX => Ok(seed),
        _ => match value.as_f64() {
            Some(f) if f.fract() == 0.0 && (0.0..=MAX as f64).contains(&f) => Ok(f as u64),
            _ => Err(Error::OutOfRange {
                field: "seed".into(),
                value: value.to_string(),
                min: 0,
                max: MAX as i64,
            }),
        },
    }
}

/// `createState(config) -> State`. See [`crate::create_state`].
pub fn create_state(config: Value) -> Result<Value, Error> {
    let config: Config = parse("config", config)?;
    to_json(&crate::create_state(config)?)
}

/// `apply(state, event) -> Outcome`. See [`crate::apply`].
pub fn apply(state: Value, event: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    let event = parse_event("event", event)?;
    to_json(&crate::apply(&state, event)?)
}

/// `perceives(state, { observer, hider }) -> Decision`.
pub fn perceives(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::perceives(
        &state,
        &parse::<PairQuery>("query", query)?,
    )?)
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
pub fn can_locate(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::can_locate(
        &state,
        &parse::<PairQuery>("query", query)?,
    )?)
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
pub fn can_defend(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::can_defend(
        &state,
        &parse::<DefenseQuery>("query", query)?,
    )?)
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
pub fn knockout(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::knockout(
        &state,
        &parse::<KnockoutQuery>("query", query)?,
    )?)
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
pub fn can_pickpocket(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::can_pickpocket(
        &state,
        &parse::<PickpocketQuery>("query", query)?,
    )?)
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
pub fn attack_hidden(state: Value, query: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::attack_hidden(
        &state,
        &parse::<HiddenAttackQuery>("query", query)?,
    )?)
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): who does not perceive whom.
pub fn hidden_from(state: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    to_json(&crate::query::hidden_from(&state)?)
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
#[cfg(feature = "roller")]
pub fn roll_requests(state: Value, requests: Value, seed: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    crate::validate::validate_state(&state)?;
    let requests = parse_requests(requests)?;
    to_json(&crate::roll_requests(
        &state,
        &requests,
        parse_seed(&seed)?,
    )?)
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
#[cfg(feature = "roller")]
pub fn settle(state: Value, event: Value, seed: Value) -> Result<Value, Error> {
    let state = read_state(state)?;
    let event = parse_event("event", event)?;
    to_json(&crate::settle(&state, event, parse_seed(&seed)?)?)
}

/// `situationModifiers() -> [{ id, value }]`: the nine P2 situation
/// modifiers in the order of the rule text, with their values, for UIs that
/// offer them (the Foundry module's Hide dialog).
pub fn situation_modifiers() -> Value {
    Value::Array(
        crate::state::SituationModifier::ALL
            .iter()
            .map(|m| serde_json::json!({ "id": m.id(), "value": m.value() }))
            .collect(),
    )
}

/// `errorCodes() -> string[]`: every stable error code.
pub fn error_codes() -> Value {
    Value::from(Error::CODES.to_vec())
}

/// `concealedByDarkness(query) -> boolean[]` (B5): whether a target is
/// concealed by darkness from each observer, one call per target. `query`
/// is `{"targetInDarkness": bool, "observers": [{"distance"?: number |
/// null, "darkvision": number | "unlimited"}]}`: distances and darkvision
/// in scene distance units, `>= 0`; a `null`/absent distance is unknown;
/// `"unlimited"` sees in darkness at any distance (JSON has no Infinity).
/// The answer lists one boolean per observer, in order. See
/// [`crate::darkness`]. Needs no cargo feature. Errors: `invalid_input`
/// naming the field (`query.observers[2].distance`: negative, wrong type,
/// missing or unknown field).
pub fn concealed_by_darkness(query: Value) -> Result<Value, Error> {
    crate::darkness::concealed_by_darkness_answer("query", &query)
}

/// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9 or
/// 0.7 layout) or a normalized scene, returned normalized (`furtiveScene: 1`).
/// See [`crate::scene`]. Errors: `invalid_scene` naming the path
/// (`walls[12].c`), `duplicate_token`.
#[cfg(feature = "scene")]
pub fn parse_scene(scene: Value) -> Result<Value, Error> {
    to_json(&Scene::from_value(scene)?)
}

/// `clearView(scene, { from, to, darkvision? }) -> ClearViewAnswer`:
/// whether `from` (the observer) has clear view of `to` (B5: a sight line
/// and no concealment by darkness), their distance in scene units, and
/// what decides it. Each end is `{tokenId}`, `{x, y, elevation?}` (canvas
/// pixels) or `{token: {x, y, width?, height?, elevation?}}`; see
/// [`crate::scene::SightEnd`]. Reads the scene for this one call; a
/// [`SceneSight`] keeps it for many.
#[cfg(feature = "scene")]
pub fn clear_view(scene: Value, query: Value) -> Result<Value, Error> {
    let mut sight = SceneSight::from_value(scene)?;
    let query: ClearViewQuery = parse("query", query)?;
    to_json(&sight.answer(&query)?)
}

/// `clearViewMatrix(scene, tokens?) -> { ids, clearView, distance,
/// inDarkness, units }`: `clearView[i][j]` is whether `ids[i]` has clear
/// view of `ids[j]` (B5); `distance[i][j]` their centre distance in scene
/// units; `inDarkness[i]` whether `ids[i]` stands in darkness. `tokens` is
/// an array of `{id, x, y, width?, height?, elevation?, darkvision?}`
/// (top-left in pixels, size in grid spaces, elevation and darkvision in
/// scene units); `null`/omitted uses the scene's own tokens.
#[cfg(feature = "scene")]
pub fn clear_view_matrix(scene: Value, tokens: Value) -> Result<Value, Error> {
    let scene = Scene::from_value(scene)?;
    if tokens.is_null() {
        return to_json(&SceneSight::new(scene).clear_view_matrix());
    }
    let tokens: Vec<Token> = parse("tokens", tokens)?;
    let mut seen = std::collections::BTreeSet::new();
    for (i, token) in tokens.iter().enumerate() {
        crate::scene::validate_token(token, &format!("tokens[{i}]"))
            .map_err(crate::scene::as_input)?;
        if !seen.insert(token.id.as_str()) {
            return Err(Error::DuplicateToken {
                field: format!("tokens[{i}].id"),
                id: token.id.clone(),
            });
        }
    }
    to_json(&scene.clear_view_matrix(&tokens))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// What reading with the path alone gives (the wasm build's reader).
    fn with_path_only<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
        serde_path_to_error::deserialize(value).map_err(|error| {
            let path = error.path().to_string();
            let path = if path == "." { String::new() } else { path };
            (path, error.into_inner().to_string())
        })
    }

    /// The native reader (borrowed `Value` first, the path only on failure)
    /// gives what the path reader gives, good input and bad.
    #[test]
    fn the_native_reader_agrees_with_the_path_reader() {
        let configs = [
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy" }, { "id": "guard", "side": "watch" }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": "high" }] }),
            json!({ "ruleset": "chess" }),
            json!({ "ruleset": "percentile", "creatures": [{ "id": 3 }] }),
            json!({ "ruleset": "percentile", "unknownField": true }),
            json!([1, 2]),
            json!(null),
        ];
        for config in configs {
            let native: Result<Config, _> = parse_at_path(config.clone());
            let path_only: Result<Config, _> = with_path_only(config.clone());
            match (native, path_only) {
                (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{config}"),
                (Err(a), Err(b)) => assert_eq!(a, b, "{config}"),
                (a, b) => panic!("{config}: native {a:?}, path only {b:?}"),
            }
        }
        let queries = [
            json!({ "observer": "guard", "hider": "spy" }),
            json!({ "observer": "guard" }),
            json!({ "observer": "guard", "hider": ["spy"] }),
        ];
        for query in queries {
            let native: Result<PairQuery, _> = parse_at_path(query.clone());
            let path_only: Result<PairQuery, _> = with_path_only(query.clone());
            assert_eq!(native.is_ok(), path_only.is_ok(), "{query}");
            if let (Err(a), Err(b)) = (native, path_only) {
                assert_eq!(a, b, "{query}");
            }
        }
    }
}
