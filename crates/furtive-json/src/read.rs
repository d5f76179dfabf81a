//! Reading arguments: JSON text (what the bindings receive) or a
//! `serde_json::Value` (Rust callers), read into the engine's types with
//! the path of a refused field (`serde_path_to_error`): `event.hider`,
//! `events[1].view[0].distance`, in the engine's words
//! ([`Error::refused`]).
//!
//! Events, what a table sends most and largest (a `viewChanged` naming
//! every observer), are read straight from their text into the engine's
//! types; an event that is not read so is read again as a `Value`, as any
//! other argument (a query, a config, a state, a roll request), so that
//! every refusal is the `Value` reader's.

use std::borrow::Cow;
use std::fmt;

use serde::de::{DeserializeOwned, DeserializeSeed, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use furtive_core::event::EventByName;
use furtive_core::outcome::RequestByName;
use furtive_core::{Error, Event, Request, State};

/// One argument: JSON text, or a `Value`. Both are read with the same
/// paths and the same words.
pub trait Input: Sized {
    /// The argument as a `Value`; text that is not JSON is `invalid_input`
    /// naming `what`.
    fn into_value(self, what: &str) -> Result<Value, Error>;

    /// The argument as JSON text: the text itself, or the `Value` written.
    fn text(&self) -> Cow<'_, str>;

    /// The argument read as a `T`; a refusal names `what` and the path.
    fn read<T: DeserializeOwned>(self, what: &str) -> Result<T, Error> {
        serde_path_to_error::deserialize(&self.into_value(what)?)
            .map_err(|error| Error::refused_at(what, error))
    }

    /// The argument read as an internally tagged enum `T` (`{"type":
    /// "sprint", ...}`) through its externally tagged twin `B`, which
    /// refuses unknown fields: straight from the text, else through a
    /// `Value` ([`read_tagged`]), whose refusal names the field inside it.
    fn read_tagged<T: From<B>, B: DeserializeOwned>(
        self,
        what: &str,
        tag: &str,
    ) -> Result<T, Error> {
        let read = by_name::<B>(tag, &self.text());
        match read {
            Some(read) => Ok(T::from(read)),
            None => read_tagged(what, tag, self.into_value(what)?),
        }
    }
}

impl Input for Value {
    fn into_value(self, _what: &str) -> Result<Value, Error> {
        Ok(self)
    }

    fn text(&self) -> Cow<'_, str> {
        Cow::Owned(self.to_string())
    }
}

// `#[inline]` (here, in `JsonSession` and in the core's readers): compiled
// in the binding crate, where the generic readers are instantiated, so a
// binary holds one copy of serde_json's reader and of each type's
// deserializer, not one per crate.
impl Input for &str {
    #[inline]
    fn into_value(self, what: &str) -> Result<Value, Error> {
        serde_json::from_str(self).map_err(|error| not_json(what, &error))
    }

    #[inline]
    fn text(&self) -> Cow<'_, str> {
        Cow::Borrowed(self)
    }
}

/// Text that is not one JSON value: `invalid_input` naming the argument.
fn not_json(what: &str, error: &serde_json::Error) -> Error {
    Error::InvalidInput {
        field: what.to_owned(),
        message: format!("not valid JSON text: {error}"),
    }
}

/// An object's members as written, in order (the values unread).
struct Members;

impl<'de> DeserializeSeed<'de> for Members {
    type Value = Vec<(String, &'de RawValue)>;

    fn deserialize<D: serde::Deserializer<'de>>(self, reader: D) -> Result<Self::Value, D::Error> {
        reader.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Members {
    type Value = Vec<(String, &'de RawValue)>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut members = Vec::new();
        while let Some(member) = map.next_entry()? {
            members.push(member);
        }
        Ok(members)
    }
}

/// `text`, an object tagged once by `tag`, read as its externally tagged
/// twin `B` (`{"name": {...the other members}}`) straight from the text,
/// without a `Value`; `None` for anything else (not JSON, the tag missing,
/// not a string or given twice, a field refused or given twice), which
/// the `Value` reader then reads or words ([`read_tagged`]).
///
/// Only for types that refuse unknown fields at every depth: serde_json
/// skips an unknown member without checking that it is JSON (a lone
/// surrogate, a number beyond a double), which the `Value` reader refuses.
fn by_name<B: DeserializeOwned>(tag: &str, text: &str) -> Option<B> {
    let mut reader = serde_json::Deserializer::from_str(text);
    let members = Members.deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    let mut tags = members.iter().filter(|(key, _)| key == tag);
    let (Some((_, name)), None) = (tags.next(), tags.next()) else {
        return None;
    };
    let name: String = serde_json::from_str(name.get()).ok()?;
    let mut twin = String::with_capacity(text.len() + name.len() + 8);
    twin.push('{');
    push_key(&mut twin, &name);
    twin.push('{');
    for (key, value) in members.iter().filter(|(key, _)| key != tag) {
        push_key(&mut twin, key);
        twin.push_str(value.get());
        twin.push(',');
    }
    if twin.ends_with(',') {
        twin.pop();
    }
    twin.push_str("}}");
    serde_json::from_str(&twin).ok()
}

/// A JSON list of objects tagged by `tag`, each read by [`by_name`];
/// `None` when the text or one of them is not read so.
fn list_by_name<B: DeserializeOwned>(tag: &str, text: &str) -> Option<Vec<B>> {
    let items: Vec<&RawValue> = serde_json::from_str(text).ok()?;
    items.iter().map(|item| by_name(tag, item.get())).collect()
}

/// `value`, an object tagged by `tag`, read as `T` through its externally
/// tagged twin `B`. A refusal names `what` and the field inside the
/// object: `what.type` for an unknown name, `what.hider` for a bad field,
/// `what` for a missing one.
pub fn read_tagged<T: From<B>, B: DeserializeOwned>(
    what: &str,
    tag: &str,
    value: Value,
) -> Result<T, Error> {
    let object = match value {
        Value::Object(object) => object,
        other => {
            return Err(Error::refused(
                what,
                "",
                &format!(
                    "invalid type: {}, expected an object with a `{tag}`",
                    found(&other)
                ),
            ))
        }
    };
    // The members but the tag, moved rather than removed: a map's
    // `remove` adds its own code to the wasm.
    let (mut name, mut fields) = (None, Map::new());
    for (key, value) in object {
        if key == tag {
            name = Some(value);
        } else {
            fields.insert(key, value);
        }
    }
    let name = match name {
        Some(Value::String(name)) => name,
        Some(other) => {
            return Err(Error::refused(
                what,
                tag,
                &format!("invalid type: {}, expected a string", found(&other)),
            ))
        }
        None => return Err(Error::refused(what, "", &format!("missing field `{tag}`"))),
    };
    let mut keyed = Map::new();
    keyed.insert(name.clone(), Value::Object(fields));
    serde_path_to_error::deserialize::<_, B>(&Value::Object(keyed))
        .map(T::from)
        .map_err(|error| {
            let path = error.path().to_string();
            let field = match path.strip_prefix(name.as_str()) {
                Some(rest) if !path.is_empty() && path != "." => rest.trim_start_matches('.'),
                _ => tag,
            };
            Error::refused(what, field, &error.into_inner().to_string())
        })
}

/// How serde words a JSON value it did not expect (`integer `3``, `null`).
fn found(value: &Value) -> String {
    unexpected(value).to_string()
}

/// A JSON value as serde names what it did not expect.
fn unexpected(value: &Value) -> serde::de::Unexpected<'_> {
    use serde::de::Unexpected;
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, f) => Unexpected::Float(f.unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// `"key":`, the key written as a JSON string.
fn push_key(text: &mut String, key: &str) {
    // Writing a `str` as JSON cannot fail.
    text.push_str(&serde_json::to_string(key).unwrap_or_default());
    text.push(':');
}

/// An event (`{"type": ..., ...}`), refusals naming `what.field`.
pub fn event(what: &str, input: impl Input) -> Result<Event, Error> {
    input.read_tagged::<Event, EventByName>(what, "type")
}

/// `applyAll`'s events, refusals naming `events[i].field`.
pub fn events(input: impl Input) -> Result<Vec<Event>, Error> {
    let read = list_by_name::<EventByName>("type", &input.text());
    if let Some(events) = read {
        return Ok(events.into_iter().map(Event::from).collect());
    }
    let items = match input.into_value("events")? {
        Value::Array(items) => items,
        other => {
            // serde_json's words for a value that is not a list.
            let error: serde_json::Error =
                serde::de::Error::invalid_type(unexpected(&other), &"a sequence");
            return Err(Error::refused("events", "", &error.to_string()));
        }
    };
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| read_tagged::<Event, EventByName>(&format!("events[{i}]"), "type", item))
        .collect()
}

/// `rollRequests`' requests (`{"kind": ...}`), refusals naming
/// `requests[i].field`. Read through a `Value` (a few a roll): a request
/// may carry members it does not know, which only the `Value` reader
/// checks are JSON.
pub fn requests(input: impl Input) -> Result<Vec<Request>, Error> {
    let items: Vec<Value> = input.read("requests")?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| {
            read_tagged::<Request, RequestByName>(&format!("requests[{i}]"), "kind", item)
        })
        .collect()
}

/// A state (format version 1, migrated, or 2), refusals naming `what.…`.
pub fn state(what: &str, input: impl Input) -> Result<State, Error> {
    furtive_core::migrate::read_state(what, input.into_value(what)?)
}

/// A seed: a whole number 0..=2^53-1 (exact in a JavaScript number);
/// `out_of_range` for any other number, `invalid_input` for a value that
/// is not a number.
pub fn seed(input: impl Input) -> Result<u64, Error> {
    const MAX: u64 = (1 << 53) - 1;
    let value = input.into_value("seed")?;
    if !value.is_number() {
        return Err(Error::refused(
            "seed",
            "",
            &format!(
                "invalid type: {}, expected a whole number 0..={MAX}",
                found(&value)
            ),
        ));
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

/// JSON text as a `Value`; text that is not JSON is `invalid_input`
/// naming `what`.
pub fn json(what: &str, text: &str) -> Result<Value, Error> {
    text.into_value(what)
}
