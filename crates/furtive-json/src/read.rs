//! Reading arguments: JSON text (what the bindings receive) or a
//! `serde_json::Value` (Rust callers), read into the engine's types with
//! the path of a refused field (`serde_path_to_error`): `event.hider`,
//! `events[1].view[0].distance`, in the engine's words
//! ([`Error::refused`]).

use serde::de::DeserializeOwned;
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

    /// The argument read as a `T`; a refusal names `what` and the path.
    fn read<T: DeserializeOwned>(self, what: &str) -> Result<T, Error>;

    /// The argument read as an internally tagged enum `T` (`{"type":
    /// "sprint", ...}`) through its externally tagged twin `B`, so a
    /// refusal names the field inside it; see [`read_tagged`].
    fn read_tagged<T: From<B>, B: DeserializeOwned>(
        self,
        what: &str,
        tag: &str,
    ) -> Result<T, Error> {
        read_tagged(what, tag, self.into_value(what)?)
    }
}

impl Input for Value {
    fn into_value(self, _what: &str) -> Result<Value, Error> {
        Ok(self)
    }

    fn read<T: DeserializeOwned>(self, what: &str) -> Result<T, Error> {
        serde_path_to_error::deserialize(&self).map_err(|error| Error::refused_at(what, error))
    }
}

impl Input for &str {
    fn into_value(self, what: &str) -> Result<Value, Error> {
        serde_json::from_str(self).map_err(|error| not_json(what, &error))
    }

    fn read<T: DeserializeOwned>(self, what: &str) -> Result<T, Error> {
        self.into_value(what)?.read(what)
    }
}

/// Text that is not one JSON value: `invalid_input` naming the argument.
fn not_json(what: &str, error: &serde_json::Error) -> Error {
    Error::InvalidInput {
        field: what.to_owned(),
        message: format!("not valid JSON text: {error}"),
    }
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
    let mut fields = match value {
        Value::Object(fields) => fields,
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
    let name = match fields.remove(tag) {
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
    use serde::de::Unexpected;
    match value {
        Value::Null => Unexpected::Unit.to_string(),
        Value::Bool(b) => Unexpected::Bool(*b).to_string(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u).to_string(),
            (_, Some(i), _) => Unexpected::Signed(i).to_string(),
            (_, _, f) => Unexpected::Float(f.unwrap_or(f64::NAN)).to_string(),
        },
        Value::String(s) => Unexpected::Str(s).to_string(),
        Value::Array(_) => Unexpected::Seq.to_string(),
        Value::Object(_) => Unexpected::Map.to_string(),
    }
}

/// An event (`{"type": ..., ...}`), refusals naming `what.field`.
pub fn event(what: &str, input: impl Input) -> Result<Event, Error> {
    input.read_tagged::<Event, EventByName>(what, "type")
}

/// `applyAll`'s events, refusals naming `events[i].field`.
pub fn events(input: impl Input) -> Result<Vec<Event>, Error> {
    let items: Vec<Value> = input.read("events")?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| read_tagged::<Event, EventByName>(&format!("events[{i}]"), "type", item))
        .collect()
}

/// `rollRequests`' requests (`{"kind": ...}`), refusals naming `requests[i].field`.
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
