//! The JSON facade the bindings call: JSON in, JSON out.
//!
//! Both bindings (napi and wasm) hand every argument over as JSON text
//! (the platform's `JSON.stringify`), call one function here (through
//! [`crate::exports`]) and get JSON text back, so every backend parses,
//! validates and words its errors identically. Rust callers (the tests,
//! the fuzz targets) call the same functions with `serde_json::Value`s
//! ([`Input`] is either). Parse errors name the path of the bad field
//! (`serde_path_to_error`): `event.hider: invalid type: integer `3`,
//! expected a string`.
//!
//! Text is read straight into the engine's types ([`Input::fast`]:
//! `serde_json::from_str`, no `Value`, no path tracking); only when that
//! fails is it read again the way it always was, as a `Value` and then
//! with the path (`parse_at_path`), so a refusal is worded exactly as
//! before (`tests/js/bad-input.test.mjs`, `fast_reader_*` tests below).

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

/// One argument of an export: the JSON text the bindings receive
/// (`&str`), or a `serde_json::Value` (Rust callers: tests, fuzz targets).
/// Either is read by the same functions, with the same errors.
pub trait Input: Sized {
    /// The argument as a `Value`. Text that is not JSON is `invalid_input`
    /// naming `argument` ([`parse_json`]).
    fn into_value(self, argument: &str) -> Result<Value, Error>;

    /// The argument read straight into a `T`, when it is one: text with
    /// `serde_json::from_str` (no `Value`, no path tracking). `None` when
    /// it is not a `T`, or for a `Value` (whose own reader,
    /// `parse_at_path`, has its fast path); the caller then reads it the
    /// way that words the error.
    fn fast<T: DeserializeOwned>(&self) -> Option<T>;

    /// The argument read straight into an internally tagged enum `T` (an
    /// event, `{"type": ..., ...}`) through its externally tagged twin `B`,
    /// without buffering, when the tag comes first; `None` otherwise (see
    /// `crate::tagged::text::read_text`).
    fn fast_tagged<T: From<B>, B: DeserializeOwned>(&self, tag: &'static str) -> Option<T>;

    /// [`Input::fast_tagged`] for a list of them (`applyAll`'s events).
    fn fast_tagged_list<T: From<B>, B: DeserializeOwned>(
        &self,
        tag: &'static str,
    ) -> Option<Vec<T>>;
}

impl Input for Value {
    fn into_value(self, _argument: &str) -> Result<Value, Error> {
        Ok(self)
    }

    fn fast<T: DeserializeOwned>(&self) -> Option<T> {
        None
    }

    fn fast_tagged<T: From<B>, B: DeserializeOwned>(&self, _tag: &'static str) -> Option<T> {
        None
    }

    fn fast_tagged_list<T: From<B>, B: DeserializeOwned>(
        &self,
        _tag: &'static str,
    ) -> Option<Vec<T>> {
        None
    }
}

/// Text. With the cargo feature `text-reader` (napi and the npm wasm) it
/// is read straight into the types first; without it (the Foundry
/// module's wasm) it is read as a `Value` only (with the path,
/// `parse_at_path`): a second reader of every type over text measured
/// 19 KB gzipped more for the module's wasm (182 425 bytes against its
/// budget then of 163 840, `wasm-budget.json`), so there the fast readers
/// answer `None`.
impl Input for &str {
    fn into_value(self, argument: &str) -> Result<Value, Error> {
        parse_json(argument, self)
    }

    fn fast<T: DeserializeOwned>(&self) -> Option<T> {
        None
    }

    fn fast_tagged<T: From<B>, B: DeserializeOwned>(&self, tag: &'static str) -> Option<T> {
        {
            let _ = tag;
            None
        }
    }

    fn fast_tagged_list<T: From<B>, B: DeserializeOwned>(
        &self,
        tag: &'static str,
    ) -> Option<Vec<T>> {
        {
            let _ = tag;
            None
        }
    }
}

/// What an export returns: JSON text for the bindings
/// ([`to_json_text`], serialized straight from the engine's types), or a
/// `Value` for Rust callers ([`to_json`]).
pub trait Output: Sized {
    /// `value` serialized; `invalid_input` naming `output` if it cannot be
    /// (never for the engine's own types).
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<Self, Error>;
}

impl Output for Value {
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
        serde_json::to_value(value).map_err(|e| Error::InvalidInput {
            field: "output".into(),
            message: e.to_string(),
        })
    }
}

impl Output for String {
    fn write<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
        to_json_text(value)
    }
}

/// Reads a state argument named `what`: format version 1 (migrated) or 2.
/// Text in format version 2 is read straight into the state's types; any
/// other input (a `Value`, version 1, a refusal) goes through
/// [`crate::migrate::read_state`], as it always did.
pub(crate) fn read_state(what: &str, state: impl Input) -> Result<State, Error> {
    if let Some(repr) = state.fast::<crate::state::StateRepr>() {
        if repr.version == crate::state::STATE_VERSION {
            return crate::migrate::typed_state(what, repr);
        }
    }
    crate::migrate::read_state(what, state.into_value(what)?)
}

/// Parses `value` as `T`; on failure, the path of the bad value inside
/// `value` (`""` for `value` itself, `"a.b[2]"`) and serde's message.
///
/// With the feature `text-reader`, `value` is read once without tracking
/// the path, and read again with `serde_path_to_error` only when that
/// fails, for the path: the same result and the same error as reading with
/// the path, without its cost on the good input every call is (see
/// [`read_fast`]). Without it (the Foundry module's wasm) it is read with
/// the path at once: the second reader would double the serde code its
/// size budget counts.
pub(crate) fn parse_at_path<T: DeserializeOwned>(value: Value) -> Result<T, (String, String)> {
    read_with_path(&value).map_err(path_and_message)
}

/// The path (`""` for the value itself) and the message of an error of
/// [`read_with_path`]. Not generic, and kept out of line: the generic
/// readers around it ([`parse_at_path`], [`parse`], `crate::tagged::read`)
/// are compiled once per type read, and this part of them once in all
/// (scripts/build-wasm.sh).
#[inline(never)]
fn path_and_message(error: serde_path_to_error::Error<serde_json::Error>) -> (String, String) {
    let path = error.path().to_string();
    let path = if path == "." { String::new() } else { path };
    (path, error.into_inner().to_string())
}

/// `value` read as `T` with `serde_path_to_error`, over serde_json's
/// reader of a borrowed `Value` (`&Value`): the one reader with the path,
/// for every type and every caller ([`parse_at_path`], `crate::tagged`,
/// the normalized scene). It is the reader [`read_fast`] uses too, so a
/// build with `text-reader` compiles one `Value` reader per type, not two;
/// the owned `Value`'s reader, which this replaced, was the bigger of the
/// two (it moves and drops what it has not read): 15.7 KB of code less in
/// the Foundry module's wasm, 27 KB in the npm wasm (scripts/build-wasm.sh).
/// Both readers accept the same input and word every refusal the same way,
/// with the same path (`the_path_reader_agrees_with_the_owned_value_reader`).
pub(crate) fn read_with_path<T: DeserializeOwned>(
    value: &Value,
) -> Result<T, serde_path_to_error::Error<serde_json::Error>> {
    serde_path_to_error::deserialize(value)
}

/// `what` followed by a path from [`parse_at_path`]: `event`, `event.hider`, `tokens[2]`.
fn field_at(what: &str, path: &str) -> String {
    if path.is_empty() || path.starts_with('[') {
        format!("{what}{path}")
    } else {
        format!("{what}.{path}")
    }
}

/// Parses the argument `what` as `T`: text straight into `T` when it is
/// one ([`Input::fast`]), else as a `Value` with the path; errors are
/// `invalid_input` naming `what.path`.
pub fn parse<T: DeserializeOwned>(what: &str, input: impl Input) -> Result<T, Error> {
    if let Some(parsed) = input.fast() {
        return Ok(parsed);
    }
    parse_at_path(input.into_value(what)?).map_err(|error| invalid_at(what, error))
}

/// `invalid_input` naming `what` followed by the path of a reader's
/// error ([`field_at`]), with its message; out of line, as
/// [`path_and_message`].
#[inline(never)]
fn invalid_at(what: &str, (path, message): (String, String)) -> Error {
    Error::InvalidInput {
        field: cut_long_runs(field_at(what, &path)),
        message: cut_long_runs(message),
    }
}

/// `text` with each run between quotes, backticks, dots or brackets cut
/// after 256 characters with `…`: a refused value or key the caller sent (a
/// 1 MiB string where a number belongs, a 1 MiB unknown key) is not echoed
/// whole in the message. No run of the reader's own wording is that long,
/// and a text of at most 256 bytes is returned as it is. Out of line:
/// called for the field and the message.
#[inline(never)]
fn cut_long_runs(text: String) -> String {
    const LONGEST: usize = 256;
    if text.len() <= LONGEST {
        return text;
    }
    let mut cut = String::new();
    let mut run = 0;
    for c in text.chars() {
        run = if matches!(c, '"' | '`' | '.' | '[' | ']') {
            0
        } else {
            run + 1
        };
        if run <= LONGEST {
            cut.push(c);
        } else if run == LONGEST + 1 {
            cut.push('…');
        }
    }
    cut
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
    crate::tagged::read::<T, B>(tag, value).map_err(|error| invalid_at(what, error))
}

/// Parses an event (`{"type": ..., ...}`); errors name the field as in
/// [`parse`]: `event.type` for an unknown type, `event.hider` for a bad
/// field, `event` for a missing one.
pub fn parse_event(what: &str, input: impl Input) -> Result<Event, Error> {
    if let Some(event) = input.fast_tagged::<Event, crate::event::EventByName>("type") {
        return Ok(event);
    }
    parse_tagged::<Event, crate::event::EventByName>(what, "type", input.into_value(what)?)
}

/// Parses the `events` argument of `applyAll`: an array of events; errors
/// name `events[i].field`.
pub fn parse_events(input: impl Input) -> Result<Vec<Event>, Error> {
    if let Some(events) = input.fast_tagged_list::<Event, crate::event::EventByName>("type") {
        return Ok(events);
    }
    let items: Vec<Value> = parse("events", input.into_value("events")?)?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| parse_event(&format!("events[{i}]"), item))
        .collect()
}

/// Parses the `requests` argument of `rollRequests`: an array of
/// `{"kind": ..., ...}`; errors name `requests[i].field`.
pub fn parse_requests(input: impl Input) -> Result<Vec<Request>, Error> {
    if let Some(requests) = input.fast_tagged_list::<Request, crate::outcome::RequestByName>("kind")
    {
        return Ok(requests);
    }
    let items: Vec<Value> = parse("requests", input.into_value("requests")?)?;
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

/// Serializes a result as a `Value`; `invalid_input` naming `output` if
/// it cannot be (never for the engine's own types).
pub fn to_json<T: Serialize>(value: &T) -> Result<Value, Error> {
    Value::write(value)
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
    write_ascii_json(&mut |serializer| value.serialize(serializer))
}

/// serde_json's serializer with [`AsciiFormatter`], writing into a buffer.
type AsciiSerializer<'a> = serde_json::Serializer<&'a mut Vec<u8>, AsciiFormatter>;

/// [`to_json_text`] but the call of the value's `serialize` (`write`):
/// not generic, so compiled once in all instead of once per result type
/// (scripts/build-wasm.sh).
#[inline(never)]
fn write_ascii_json(
    write: &mut dyn FnMut(&mut AsciiSerializer) -> Result<(), serde_json::Error>,
) -> Result<String, Error> {
    let mut bytes = Vec::with_capacity(256);
    write(&mut serde_json::Serializer::with_formatter(
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
        let bytes = fragment.as_bytes();
        let mut ascii_from = 0;
        // Runs of ASCII are found byte by byte (most of an explanation) and
        // copied whole; only the characters beyond them are decoded.
        while let Some(offset) = bytes[ascii_from..].iter().position(|b| !b.is_ascii()) {
            let at = ascii_from + offset;
            writer.write_all(&bytes[ascii_from..at])?;
            // `at` starts a character: everything before it is ASCII.
            let Some(c) = fragment.get(at..).and_then(|rest| rest.chars().next()) else {
                break;
            };
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
pub fn read_seed(input: impl Input) -> Result<u64, Error> {
    parse_seed(&input.into_value("seed")?)
}

/// [`read_seed`] of a `Value`.
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

/// The free functions, for any [`Input`] and [`Output`]: the bindings
/// read and write JSON text ([`crate::exports`]), Rust callers `Value`s
/// (the functions of the same names in this module). Each is a thin
/// wrapper over [`Session`](crate::Session) or the query it answers.
pub mod generic {
    use super::*;

    /// `createState(config) -> State`. See [`crate::create_state`].
    pub fn create_state<O: Output>(config: impl Input) -> Result<O, Error> {
        let config: Config = parse("config", config)?;
        O::write(&crate::create_state(config)?)
    }

    /// `apply(state, event) -> Outcome`. See [`crate::apply`]: a session
    /// loaded (validated) from the state read here, which it owns (no
    /// copy), applies the event and gives its state back.
    pub fn apply<O: Output>(state: impl Input, event: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        let event = parse_event("event", event)?;
        let mut session = crate::Session::load(state)?;
        let effects = session.apply(event)?;
        O::write(&crate::Outcome {
            state: session.into_state(),
            changes: effects.changes,
            requests: effects.requests,
            log: effects.log,
        })
    }

    /// `perceives(state, { observer, hider }) -> Decision`.
    pub fn perceives<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::perceives(
            &state,
            &parse::<PairQuery>("query", query)?,
        )?)
    }

    /// `canLocate(state, { observer, hider }) -> Decision` (P5).
    pub fn can_locate<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::can_locate(
            &state,
            &parse::<PairQuery>("query", query)?,
        )?)
    }

    /// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
    pub fn can_defend<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::can_defend(
            &state,
            &parse::<DefenseQuery>("query", query)?,
        )?)
    }

    /// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
    pub fn knockout<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::knockout(
            &state,
            &parse::<KnockoutQuery>("query", query)?,
        )?)
    }

    /// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
    pub fn can_pickpocket<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::can_pickpocket(
            &state,
            &parse::<PickpocketQuery>("query", query)?,
        )?)
    }

    /// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
    pub fn attack_hidden<O: Output>(state: impl Input, query: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::query::attack_hidden(
            &state,
            &parse::<HiddenAttackQuery>("query", query)?,
        )?)
    }

    /// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): who does not perceive whom.
    pub fn hidden_from<O: Output>(state: impl Input) -> Result<O, Error> {
        let state = read_state("state", state)?;
        O::write(&crate::map::Ser(&crate::query::hidden_from_map(&state)?))
    }

    /// `rollRequests(state, requests, seed) -> Event[]` (B4).
    #[cfg(feature = "roller")]
    pub fn roll_requests<O: Output>(
        state: impl Input,
        requests: impl Input,
        seed: impl Input,
    ) -> Result<O, Error> {
        let state = read_state("state", state)?;
        crate::validate::validate_state(&state)?;
        let requests = parse_requests(requests)?;
        O::write(&crate::roll_requests(&state, &requests, read_seed(seed)?)?)
    }

    /// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
    #[cfg(feature = "roller")]
    pub fn settle<O: Output>(
        state: impl Input,
        event: impl Input,
        seed: impl Input,
    ) -> Result<O, Error> {
        let state = read_state("state", state)?;
        let event = parse_event("event", event)?;
        O::write(&crate::settle(&state, event, read_seed(seed)?)?)
    }

    /// `concealedByDarkness(query) -> boolean[]` (B5); see
    /// [`super::concealed_by_darkness`].
    pub fn concealed_by_darkness<O: Output>(query: impl Input) -> Result<O, Error> {
        O::write(&crate::darkness::concealed_by_darkness_answer(
            "query",
            &query.into_value("query")?,
        )?)
    }

    /// `alliedSides(query) -> boolean[]` (O3, P6, P9); see
    /// [`super::allied_sides`].
    pub fn allied_sides<O: Output>(query: impl Input) -> Result<O, Error> {
        O::write(&crate::sides::allied_sides_answer(
            "query",
            &query.into_value("query")?,
        )?)
    }

    /// `parseScene(scene) -> Scene`; see [`super::parse_scene`].
    #[cfg(feature = "scene")]
    pub fn parse_scene<O: Output>(scene: impl Input) -> Result<O, Error> {
        O::write(&Scene::from_value(scene.into_value("scene")?)?)
    }

    /// `clearView(scene, query) -> ClearViewAnswer`; see [`super::clear_view`].
    #[cfg(feature = "scene")]
    pub fn clear_view<O: Output>(scene: impl Input, query: impl Input) -> Result<O, Error> {
        let mut sight = SceneSight::from_value(scene.into_value("scene")?)?;
        let query: ClearViewQuery = parse("query", query)?;
        O::write(&sight.answer(&query)?)
    }

    /// `clearViewMatrix(scene, tokens?)`; see [`super::clear_view_matrix`].
    #[cfg(feature = "scene")]
    pub fn clear_view_matrix<O: Output>(scene: impl Input, tokens: impl Input) -> Result<O, Error> {
        let scene = Scene::from_value(scene.into_value("scene")?)?;
        let tokens = tokens.into_value("tokens")?;
        if tokens.is_null() {
            return O::write(&SceneSight::new(scene).clear_view_matrix());
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
        O::write(&scene.clear_view_matrix(&tokens))
    }

    /// `situationModifiers() -> [{ id, value }]`; see [`super::situation_modifiers`].
    pub fn situation_modifiers<O: Output>() -> Result<O, Error> {
        O::write(&super::situation_modifiers())
    }

    /// `errorCodes() -> string[]`; see [`super::error_codes`].
    pub fn error_codes<O: Output>() -> Result<O, Error> {
        O::write(&Error::CODES)
    }
}

/// `createState(config) -> State`. See [`crate::create_state`].
pub fn create_state(config: Value) -> Result<Value, Error> {
    generic::create_state(config)
}

/// `apply(state, event) -> Outcome`. See [`crate::apply`].
pub fn apply(state: Value, event: Value) -> Result<Value, Error> {
    generic::apply(state, event)
}

/// `perceives(state, { observer, hider }) -> Decision`.
pub fn perceives(state: Value, query: Value) -> Result<Value, Error> {
    generic::perceives(state, query)
}

/// `canLocate(state, { observer, hider }) -> Decision` (P5).
pub fn can_locate(state: Value, query: Value) -> Result<Value, Error> {
    generic::can_locate(state, query)
}

/// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
pub fn can_defend(state: Value, query: Value) -> Result<Value, Error> {
    generic::can_defend(state, query)
}

/// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
pub fn knockout(state: Value, query: Value) -> Result<Value, Error> {
    generic::knockout(state, query)
}

/// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
pub fn can_pickpocket(state: Value, query: Value) -> Result<Value, Error> {
    generic::can_pickpocket(state, query)
}

/// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
pub fn attack_hidden(state: Value, query: Value) -> Result<Value, Error> {
    generic::attack_hidden(state, query)
}

/// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): who does not perceive whom.
pub fn hidden_from(state: Value) -> Result<Value, Error> {
    generic::hidden_from(state)
}

/// `rollRequests(state, requests, seed) -> Event[]` (B4).
#[cfg(feature = "roller")]
pub fn roll_requests(state: Value, requests: Value, seed: Value) -> Result<Value, Error> {
    generic::roll_requests(state, requests, seed)
}

/// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
#[cfg(feature = "roller")]
pub fn settle(state: Value, event: Value, seed: Value) -> Result<Value, Error> {
    generic::settle(state, event, seed)
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

/// `alliedSides(query) -> boolean[]` (O3, P6, P9): whether a creature on
/// one side and a distinct creature on each other side are allies, the
/// rule the engine applies to point out (O3), defense (P6) and P9's -100:
/// the same side, neither empty nor `"neutral"`. `query` is `{"side":
/// string, "sides": string[]}`; the answer lists one boolean per entry of
/// `sides`, in order. For callers without a state (the Foundry module's
/// players' clients, its Point out dialog). See [`crate::sides`]. Needs no
/// cargo feature. Errors: `invalid_input` naming the field (`query.side`,
/// `query.sides[2]`: not a string; `query.sides`: not an array; a missing
/// or unknown field).
pub fn allied_sides(query: Value) -> Result<Value, Error> {
    crate::sides::allied_sides_answer("query", &query)
}

/// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9 or
/// 0.7 layout) or a normalized scene, returned normalized (`furtiveScene: 1`).
/// See [`crate::scene`]. Errors: `invalid_scene` naming the path
/// (`walls[12].c`), `duplicate_token`.
#[cfg(feature = "scene")]
pub fn parse_scene(scene: Value) -> Result<Value, Error> {
    generic::parse_scene(scene)
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
    generic::clear_view(scene, query)
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
    generic::clear_view_matrix(scene, tokens)
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

    /// An input read as text (the bindings: straight into the types, then
    /// the old way on failure) and as a `Value` (the old way): the same
    /// result, the same error.
    fn same<T: std::fmt::Debug + PartialEq>(
        input: &Value,
        text: Result<T, Error>,
        value: Result<T, Error>,
    ) {
        assert_eq!(text, value, "{input}");
    }

    #[test]
    fn fast_reader_configs_and_queries_read_as_before() {
        let configs = [
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy" }, { "id": "guard", "side": "watch" }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": "high" }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": 1.5 }] }),
            json!({ "ruleset": "chess" }),
            json!({ "ruleset": { "opposed": 1, "other": 2 } }),
            json!({ "ruleset": "percentile", "creatures": [{ "id": 3 }] }),
            json!({ "ruleset": "percentile", "unknownField": true }),
            json!([1, 2]),
            json!(null),
        ];
        for config in &configs {
            let text = config.to_string();
            same(
                config,
                parse::<Config>("config", text.as_str()),
                parse::<Config>("config", config.clone()),
            );
        }
        let queries = [
            json!({ "observer": "guard", "hider": "spy" }),
            json!({ "hider": "spy", "observer": "guard" }),
            json!({ "observer": "guard" }),
            json!({ "observer": "guard", "hider": ["spy"] }),
            json!({ "observer": "guard", "hider": "spy", "extra": 1 }),
            json!("guard"),
        ];
        for query in &queries {
            let text = query.to_string();
            same(
                query,
                parse::<PairQuery>("query", text.as_str()),
                parse::<PairQuery>("query", query.clone()),
            );
        }
        // Text that is not JSON: the same refusal as before.
        assert_eq!(
            parse::<PairQuery>("query", "{\"observer\": ").unwrap_err(),
            parse_json("query", "{\"observer\": ").unwrap_err()
        );
    }

    /// Events are read without buffering when `type` comes first; any other
    /// order, and every refusal, reads as before.
    #[test]
    fn fast_reader_events_read_as_before() {
        let events = [
            json!({ "type": "viewChanged", "hider": "spy", "moved": false,
                    "view": [{ "observer": "guard", "clearView": true, "distance": 5 }] }),
            json!({ "hider": "spy", "type": "viewChanged", "moved": false,
                    "view": [{ "observer": "guard", "clearView": true, "distance": 5 }] }),
            json!({ "type": "viewChanged", "hider": "spy", "moved": false,
                    "view": [{ "observer": "guard", "clearView": "yes", "distance": 5 }] }),
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "moved": true }),
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "moved": true, "extra": 1 }),
            json!({ "type": "enterStealth", "roll": 15 }),
            json!({ "type": "combatEnd" }),
            json!({ "type": "combatEnd", "round": 2 }),
            json!({ "type": "teleport", "hider": "spy" }),
            json!({ "type": 3 }),
            json!({ "hider": "spy" }),
            json!({}),
            json!([{ "type": "combatEnd" }]),
            json!("combatEnd"),
        ];
        for event in &events {
            let text = event.to_string();
            same(
                event,
                parse_event("event", text.as_str()),
                parse_event("event", event.clone()),
            );
        }
        let lists = [
            Value::Array(events[..2].to_vec()),
            Value::Array(events[3..5].to_vec()),
            Value::Array(vec![events[0].clone(), events[8].clone()]),
            json!([]),
            json!({ "type": "combatEnd" }),
        ];
        for list in &lists {
            let text = list.to_string();
            same(
                list,
                parse_events(text.as_str()),
                parse_events(list.clone()),
            );
        }
    }

    /// The path reader ([`read_with_path`], serde_json's reader of a
    /// borrowed `Value`) accepts what serde_json's reader of an owned
    /// `Value` (the reader before it) accepts, and refuses the rest with the
    /// same message at the same path.
    #[test]
    fn the_path_reader_agrees_with_the_owned_value_reader() {
        fn agree<T: DeserializeOwned + std::fmt::Debug>(inputs: &[Value]) {
            for input in inputs {
                let borrowed = read_with_path::<T>(input)
                    .map_err(|e| (e.path().to_string(), e.into_inner().to_string()));
                let owned = serde_path_to_error::deserialize::<_, T>(input.clone())
                    .map_err(|e| (e.path().to_string(), e.into_inner().to_string()));
                match (borrowed, owned) {
                    (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{input}"),
                    (Err(a), Err(b)) => assert_eq!(a, b, "{input}"),
                    (a, b) => panic!("{input}: borrowed {a:?}, owned {b:?}"),
                }
            }
        }
        agree::<Config>(&[
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy" }, { "id": "guard", "side": "watch" }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": "high" }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": 1.5 }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": -1e300 }] }),
            json!({ "ruleset": "opposed", "creatures": [{ "id": "spy", "perceptionModifier": null }] }),
            json!({ "ruleset": "percentile", "creatures": [{ "id": 3 }] }),
            json!({ "ruleset": "percentile", "creatures": { "id": "spy" } }),
            json!({ "ruleset": "percentile", "settings": [] }),
            json!({ "ruleset": "percentile", "settings": [true] }),
            json!({ "ruleset": "percentile", "unknownField": true }),
            json!({ "ruleset": "chess" }),
            json!({ "ruleset": 3 }),
            json!({ "ruleset": ["opposed"] }),
            json!({ "ruleset": { "opposed": 1, "other": 2 } }),
            json!({ "ruleset": { "opposed": null } }),
            json!({ "ruleset": null }),
            json!(["opposed"]),
            json!(["opposed", {}, [], 1]),
            json!([]),
            json!("opposed"),
            json!(null),
        ]);
        agree::<PairQuery>(&[
            json!({ "observer": "guard", "hider": "spy" }),
            json!({ "observer": "guard" }),
            json!({ "observer": "guard", "hider": ["spy"] }),
            json!({ "observer": "guard", "hider": "spy", "extra": 1 }),
            json!({ "observer": false, "hider": -4 }),
            json!(["guard", "spy"]),
            json!(["guard"]),
            json!(["guard", "spy", "more"]),
            json!(7.25),
        ]);
        let state: Value = create_state(json!({ "ruleset": "opposed",
            "creatures": [{ "id": "spy" }, { "id": "guard", "side": "watch" }] }))
        .unwrap();
        let hiding = apply(
            state.clone(),
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "moved": true }),
        )
        .unwrap()["state"]
            .clone();
        let mut states = vec![state, hiding.clone()];
        for (pointer, bad) in [
            ("/version", json!("2")),
            ("/revision", json!(-1)),
            ("/revision", json!(1.5)),
            ("/hiders/spy/pairs/guard/perceived", json!("yes")),
            ("/hiders/spy/pairs/guard", json!([])),
            ("/hiders/spy/heldTotal", json!(null)),
            (
                "/hiders/spy/penalties",
                json!([{ "amount": 1, "scope": { "kind": "all" }, "clause": "Z9" }]),
            ),
            (
                "/hiders/spy/penalties",
                json!([{ "amount": 1, "scope": { "kind": "nobody" }, "clause": "O8" }]),
            ),
            (
                "/hiders/spy/penalties",
                json!([{ "amount": 1, "scope": 3, "clause": "O8" }]),
            ),
            ("/creatures/guard/acuities", json!(["a"])),
            ("/surprises", json!([{}])),
            ("/combat", json!({ "round": "x" })),
        ] {
            let mut changed = hiding.clone();
            *changed
                .pointer_mut(pointer)
                .unwrap_or_else(|| panic!("{pointer}")) = bad;
            states.push(changed);
        }
        states.push(json!({ "version": 2 }));
        states.push(json!(null));
        agree::<crate::state::StateRepr>(&states);
        let keyed = |event: Value| crate::tagged::key_by_tag("type", event).unwrap().1;
        let events: Vec<Value> = [
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "moved": true }),
            json!({ "type": "enterStealth", "hider": 3, "roll": 15 }),
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "extra": 1 }),
            json!({ "type": "viewChanged", "hider": "spy", "moved": false,
                    "view": [{ "observer": "guard", "clearView": true, "distance": 5 },
                             { "observer": "guard", "clearView": "yes" }] }),
            json!({ "type": "viewChanged", "hider": "spy", "view": [["guard", true, 5.5]] }),
            json!({ "type": "combatEnd" }),
            json!({ "type": "combatEnd", "round": 2 }),
            json!({ "type": "teleport", "hider": "spy" }),
        ]
        .into_iter()
        .map(keyed)
        .chain([
            json!({ "combatEnd": null }),
            json!({ "combatEnd": [] }),
            json!("combatEnd"),
            json!({ "combatEnd": {}, "sprint": {} }),
            json!([]),
        ])
        .collect();
        for event in &events {
            let borrowed = read_with_path::<crate::event::EventByName>(event)
                .map(Event::from)
                .map_err(|e| (e.path().to_string(), e.into_inner().to_string()));
            let owned =
                serde_path_to_error::deserialize::<_, crate::event::EventByName>(event.clone())
                    .map(Event::from)
                    .map_err(|e| (e.path().to_string(), e.into_inner().to_string()));
            assert_eq!(borrowed, owned, "{event}");
        }
    }

    /// A state in format version 2 is read straight into the types; version
    /// 1 (migrated), other versions and bad states read as before.
    #[test]
    fn fast_reader_states_read_as_before() {
        let config = json!({ "ruleset": "opposed",
            "creatures": [{ "id": "spy" }, { "id": "guard", "side": "watch" }] });
        let fresh: Value = create_state(config).unwrap();
        let hiding = apply(
            fresh.clone(),
            json!({ "type": "enterStealth", "hider": "spy", "roll": 15, "moved": true }),
        )
        .unwrap()["state"]
            .clone();
        let mut version_one = hiding.clone();
        version_one["version"] = json!(1);
        version_one["hiders"]["spy"]["stale"] = json!(false);
        let mut version_three = hiding.clone();
        version_three["version"] = json!(3);
        let mut foreign = hiding.clone();
        foreign["hiders"]["spy"]["score"] = json!(40);
        let mut unknown = hiding.clone();
        unknown["hiders"]["spy"]["pairs"]["guard"]["seen"] = json!(true);
        let mut no_roll = hiding.clone();
        no_roll["hiders"]["spy"]
            .as_object_mut()
            .unwrap()
            .remove("heldTotal");
        let states = [
            fresh,
            hiding,
            version_one,
            version_three,
            foreign,
            unknown,
            no_roll,
            json!({ "version": "2" }),
            json!(null),
        ];
        for state in &states {
            let text = state.to_string();
            same(
                state,
                read_state("state", text.as_str()),
                read_state("state", state.clone()),
            );
        }
    }

    /// The free functions give the same result through either input (the
    /// text is written straight from the types, in their field order, where
    /// a `Value` sorts the keys), ASCII only.
    #[test]
    fn fast_reader_free_functions_answer_as_before() {
        let state: Value = create_state(json!({ "ruleset": "percentile",
            "creatures": [{ "id": "spy" }, { "id": "guard" }] }))
        .unwrap();
        let event = json!({ "type": "enterStealth", "hider": "spy", "roll": 37 });
        let text: String =
            generic::apply(state.to_string().as_str(), event.to_string().as_str()).unwrap();
        let value: Value = apply(state.clone(), event.clone()).unwrap();
        assert!(text.is_ascii());
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
        let bad = json!({ "type": "enterStealth", "hider": "spy", "roll": "high" });
        assert_eq!(
            generic::apply::<String>(state.to_string().as_str(), bad.to_string().as_str())
                .unwrap_err(),
            apply(state, bad).unwrap_err()
        );
    }
}
