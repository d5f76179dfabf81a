//! How the napi and wasm bindings read a JavaScript value as JSON.
//!
//! Both bindings hand every argument to [`to_json`] through a [`Reader`] of
//! their own (raw napi calls in `furtive-node`, `js-sys` in `furtive-wasm`),
//! so one walker decides, for both backends, what is JSON data and how a
//! refusal is worded. No rule logic lives here.
//!
//! The conversion is strict where `JSON.stringify` is lenient, so garbage
//! never turns silently into a default:
//!
//! | JavaScript value                  | JSON value / error (`invalid_input`)                  |
//! |-----------------------------------|-------------------------------------------------------|
//! | `null`, boolean, string           | the same                                              |
//! | finite number                     | an integer when it is integer-valued and fits 64 bits, else a float |
//! | `NaN`, `±Infinity`                | error: not a JSON number                              |
//! | array                             | array; an `undefined` element is an error             |
//! | any other object                  | object of its own enumerable string keys; a property whose value is `undefined` is left out (absent) |
//! | `undefined` argument              | error: missing                                        |
//! | BigInt, symbol, function          | error: not a JSON value                               |
//! | a getter or proxy trap that throws| error: could not be read                              |
//!
//! Limits (each an `invalid_input` error naming the path): [`MAX_DEPTH`]
//! levels of nesting (this also stops cyclic values), [`MAX_VALUES`] values
//! per argument, [`MAX_STRING_BYTES`] UTF-8 bytes per string (keys included)
//! and [`MAX_TOTAL_STRING_BYTES`] per argument.
//!
//! Error fields are paths like `state.creatures.spy.acuities.visual` or
//! `config.creatures[0].id`, the format of the core's own parse errors.

use furtive_core::Error;
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted (the argument itself is level 0).
pub const MAX_DEPTH: usize = 64;
/// Most values (of any kind, containers included) in one argument.
pub const MAX_VALUES: usize = 1_000_000;
/// Longest string accepted, in UTF-8 bytes (1 MiB): room for anything a
/// Foundry scene export carries (descriptions, data URLs), while a runaway
/// string is refused before it reaches an error message.
pub const MAX_STRING_BYTES: usize = 1024 * 1024;
/// Most string bytes (values and keys) in one argument.
pub const MAX_TOTAL_STRING_BYTES: usize = 16 * 1024 * 1024;

/// What a [`Reader`] sees in one JavaScript value.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Undefined,
    Null,
    Bool(bool),
    Number(f64),
    /// The string, converted to UTF-8 (lone surrogates become U+FFFD).
    String(String),
    BigInt,
    Symbol,
    Function,
    /// An array and its length.
    Array(u32),
    /// Any other object.
    Object,
    /// Anything else the engine cannot name (e.g. a napi external).
    Other,
}

/// A getter, proxy trap or engine call threw while the value was read; the
/// reader has already cleared any pending JavaScript exception.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreadable;

/// Reads JavaScript values for [`to_json`]; one implementation per binding.
pub trait Reader {
    /// A handle to one JavaScript value.
    type Value;
    /// A handle to one property key, as [`Reader::keys`] found it.
    type Key;
    /// The kind of `value`, with its content for scalars.
    fn kind(&mut self, value: &Self::Value) -> Result<Kind, Unreadable>;
    /// Element `index` of an array.
    fn element(&mut self, array: &Self::Value, index: u32) -> Result<Self::Value, Unreadable>;
    /// The own enumerable string keys of an object (`Object.keys`), each as
    /// text and as a handle for [`Reader::property`].
    fn keys(&mut self, object: &Self::Value) -> Result<Vec<(String, Self::Key)>, Unreadable>;
    /// The property `key` of an object.
    fn property(
        &mut self,
        object: &Self::Value,
        key: &Self::Key,
    ) -> Result<Self::Value, Unreadable>;
}

/// Converts the argument `argument` (its name, e.g. `"state"`) to a JSON
/// value, or an `invalid_input` error whose field is the path of the
/// offending value.
pub fn to_json<R: Reader>(
    reader: &mut R,
    argument: &str,
    value: &R::Value,
) -> Result<Value, Error> {
    let mut walk = Walk {
        reader,
        path: argument.to_owned(),
        values: 0,
        string_bytes: 0,
    };
    match walk.reader.kind(value).map_err(|_| walk.unreadable())? {
        Kind::Undefined => Err(walk.fail("missing: got `undefined`".into())),
        kind => walk.convert(value, kind, 0),
    }
}

/// [`to_json`] for a trailing optional argument: `undefined` (omitted) is
/// JSON `null`, which the core reads as "absent".
pub fn to_json_optional<R: Reader>(
    reader: &mut R,
    argument: &str,
    value: &R::Value,
) -> Result<Value, Error> {
    match reader.kind(value) {
        Ok(Kind::Undefined) => Ok(Value::Null),
        _ => to_json(reader, argument, value),
    }
}

struct Walk<'r, R: Reader> {
    reader: &'r mut R,
    path: String,
    values: usize,
    string_bytes: usize,
}

impl<R: Reader> Walk<'_, R> {
    fn fail(&self, message: String) -> Error {
        Error::InvalidInput {
            field: self.path.clone(),
            message,
        }
    }

    fn unreadable(&self) -> Error {
        self.fail("the value could not be read (a getter or proxy threw)".into())
    }

    fn string(&mut self, text: &str) -> Result<(), Error> {
        if text.len() > MAX_STRING_BYTES {
            return Err(self.fail(format!(
                "a string of {} bytes is longer than the {MAX_STRING_BYTES} allowed",
                text.len()
            )));
        }
        self.string_bytes += text.len();
        if self.string_bytes > MAX_TOTAL_STRING_BYTES {
            return Err(self.fail(format!(
                "the argument holds more than {MAX_TOTAL_STRING_BYTES} bytes of strings"
            )));
        }
        Ok(())
    }

    fn value(&mut self, value: &R::Value, depth: usize) -> Result<Value, Error> {
        let kind = self.reader.kind(value).map_err(|_| self.unreadable())?;
        self.convert(value, kind, depth)
    }

    fn convert(&mut self, value: &R::Value, kind: Kind, depth: usize) -> Result<Value, Error> {
        self.values += 1;
        if self.values > MAX_VALUES {
            return Err(self.fail(format!("the argument holds more than {MAX_VALUES} values")));
        }
        let nested = || format!("nested deeper than {MAX_DEPTH} levels (is the value cyclic?)");
        match kind {
            Kind::Null => Ok(Value::Null),
            Kind::Bool(b) => Ok(Value::Bool(b)),
            Kind::Number(n) => number(n).map(Value::Number).map_err(|m| self.fail(m)),
            Kind::String(s) => {
                self.string(&s)?;
                Ok(Value::String(s))
            }
            Kind::Undefined => Err(self.fail("`undefined` is not a JSON value".into())),
            Kind::BigInt => Err(self.fail("a BigInt is not a JSON value (use a number)".into())),
            Kind::Symbol => Err(self.fail("a symbol is not a JSON value".into())),
            Kind::Function => Err(self.fail("a function is not a JSON value".into())),
            Kind::Other => Err(self.fail("this value is not JSON data".into())),
            Kind::Array(length) => {
                if depth >= MAX_DEPTH {
                    return Err(self.fail(nested()));
                }
                let mut items = Vec::new();
                for index in 0..length {
                    let len = self.path.len();
                    self.path.push_str(&format!("[{index}]"));
                    let element = self
                        .reader
                        .element(value, index)
                        .map_err(|_| self.unreadable())?;
                    items.push(self.value(&element, depth + 1)?);
                    self.path.truncate(len);
                }
                Ok(Value::Array(items))
            }
            Kind::Object => {
                if depth >= MAX_DEPTH {
                    return Err(self.fail(nested()));
                }
                let keys = self.reader.keys(value).map_err(|_| self.unreadable())?;
                let mut map = Map::new();
                for (key, handle) in keys {
                    // Checked before the key joins the path, so a 10 MB key
                    // does not become a 10 MB error message.
                    self.string(&key)?;
                    let len = self.path.len();
                    self.path.push('.');
                    self.path.push_str(&key);
                    let property = self
                        .reader
                        .property(value, &handle)
                        .map_err(|_| self.unreadable())?;
                    let kind = self.reader.kind(&property).map_err(|_| self.unreadable())?;
                    // `{ roll: undefined }` means the same as `{}`.
                    if kind != Kind::Undefined {
                        let converted = self.convert(&property, kind, depth + 1)?;
                        map.insert(key, converted);
                    }
                    self.path.truncate(len);
                }
                Ok(Value::Object(map))
            }
        }
    }
}

/// A finite number as JSON: an integer when it is integer-valued and fits a
/// 64-bit integer (so `37` and `37.0` are the same integer, `-0` is `0`, and
/// `2**53` is the integer 9007199254740992, as the JSON text `9007199254740992`
/// would be), else a float.
pub fn number(n: f64) -> Result<Number, String> {
    /// 2^64 and -2^63, exact in an f64.
    const U64_END: f64 = 18_446_744_073_709_551_616.0;
    const I64_MIN: f64 = -9_223_372_036_854_775_808.0;
    if n.is_nan() {
        return Err("NaN is not a JSON number".into());
    }
    if n.is_infinite() {
        let sign = if n < 0.0 { "-" } else { "" };
        return Err(format!("{sign}Infinity is not a JSON number"));
    }
    if n.fract() == 0.0 {
        if (0.0..U64_END).contains(&n) {
            return Ok(Number::from(n as u64));
        }
        if (I64_MIN..0.0).contains(&n) {
            return Ok(Number::from(n as i64));
        }
    }
    Number::from_f64(n).ok_or_else(|| "not a JSON number".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A JavaScript-like value for testing the walker without an engine.
    #[derive(Debug, Clone)]
    enum Js {
        Undefined,
        Null,
        Num(f64),
        Str(String),
        Fun,
        Arr(Vec<Js>),
        Obj(Vec<(String, Js)>),
        Throwing,
        Cyclic,
    }

    struct Fake;

    impl Reader for Fake {
        type Value = Js;
        type Key = String;
        fn kind(&mut self, value: &Js) -> Result<Kind, Unreadable> {
            Ok(match value {
                Js::Undefined => Kind::Undefined,
                Js::Null => Kind::Null,
                Js::Num(n) => Kind::Number(*n),
                Js::Str(s) => Kind::String(s.clone()),
                Js::Fun => Kind::Function,
                Js::Arr(items) => Kind::Array(items.len() as u32),
                Js::Obj(_) | Js::Cyclic => Kind::Object,
                Js::Throwing => return Err(Unreadable),
            })
        }
        fn element(&mut self, array: &Js, index: u32) -> Result<Js, Unreadable> {
            match array {
                Js::Arr(items) => Ok(items[index as usize].clone()),
                _ => Err(Unreadable),
            }
        }
        fn keys(&mut self, object: &Js) -> Result<Vec<(String, String)>, Unreadable> {
            match object {
                Js::Obj(fields) => Ok(fields.iter().map(|(k, _)| (k.clone(), k.clone())).collect()),
                Js::Cyclic => Ok(vec![("self".into(), "self".into())]),
                _ => Err(Unreadable),
            }
        }
        fn property(&mut self, object: &Js, key: &String) -> Result<Js, Unreadable> {
            match object {
                Js::Obj(fields) => Ok(fields.iter().find(|(k, _)| k == key).unwrap().1.clone()),
                Js::Cyclic => Ok(Js::Cyclic),
                _ => Err(Unreadable),
            }
        }
    }

    fn obj(fields: &[(&str, Js)]) -> Js {
        Js::Obj(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    fn refusal(argument: &str, value: Js) -> (String, String) {
        match to_json(&mut Fake, argument, &value).unwrap_err() {
            Error::InvalidInput { field, message } => (field, message),
            other => panic!("expected invalid_input, got {other:?}"),
        }
    }

    #[test]
    fn plain_data_converts_and_undefined_properties_are_absent() {
        let value = obj(&[
            ("hider", Js::Str("spy".into())),
            ("roll", Js::Num(37.0)),
            ("distance", Js::Num(2.5)),
            ("moved", Js::Undefined),
            ("view", Js::Arr(vec![Js::Null, Js::Num(-0.0)])),
        ]);
        assert_eq!(
            to_json(&mut Fake, "event", &value).unwrap(),
            json!({"hider": "spy", "roll": 37, "distance": 2.5, "view": [null, 0]})
        );
    }

    #[test]
    fn numbers_are_integers_only_when_exact() {
        assert_eq!(number(37.0).unwrap(), Number::from(37));
        assert_eq!(number(-5.0).unwrap(), Number::from(-5));
        assert_eq!(number(-0.0).unwrap(), Number::from(0));
        assert_eq!(
            number(9_007_199_254_740_992.0).unwrap(),
            Number::from(9_007_199_254_740_992u64)
        );
        assert_eq!(
            number(-1e18).unwrap(),
            Number::from(-1_000_000_000_000_000_000i64)
        );
        assert!(number(1e30).unwrap().is_f64());
        assert!(number(-1e19).unwrap().is_f64());
        assert!(number(0.5).unwrap().is_f64());
        assert_eq!(number(f64::NAN).unwrap_err(), "NaN is not a JSON number");
        assert_eq!(
            number(f64::NEG_INFINITY).unwrap_err(),
            "-Infinity is not a JSON number"
        );
    }

    #[test]
    fn refusals_name_the_path() {
        let nan = obj(&[(
            "creatures",
            Js::Arr(vec![obj(&[(
                "acuities",
                obj(&[("visual", Js::Num(f64::NAN))]),
            )])]),
        )]);
        assert_eq!(
            refusal("config", nan),
            (
                "config.creatures[0].acuities.visual".into(),
                "NaN is not a JSON number".into()
            )
        );
        assert_eq!(
            refusal("event", obj(&[("hider", Js::Fun)])).0,
            "event.hider"
        );
        assert_eq!(
            refusal("event", Js::Undefined),
            ("event".into(), "missing: got `undefined`".into())
        );
        assert_eq!(
            to_json_optional(&mut Fake, "tokens", &Js::Undefined).unwrap(),
            Value::Null
        );
        assert_eq!(
            to_json_optional(&mut Fake, "tokens", &Js::Arr(vec![Js::Undefined]))
                .unwrap_err()
                .to_string(),
            "tokens[0]: `undefined` is not a JSON value"
        );
        assert_eq!(
            refusal("requests", Js::Arr(vec![Js::Undefined])).0,
            "requests[0]"
        );
        assert_eq!(
            refusal("state", obj(&[("x", Js::Throwing)])).1,
            "the value could not be read (a getter or proxy threw)"
        );
    }

    #[test]
    fn limits_stop_cycles_deep_nesting_and_long_strings() {
        let (field, message) = refusal("state", Js::Cyclic);
        assert!(field.starts_with("state.self.self"));
        assert!(message.starts_with("nested deeper than 64 levels"));

        let mut deep = Js::Null;
        for _ in 0..200 {
            deep = Js::Arr(vec![deep]);
        }
        assert!(refusal("event", deep).1.starts_with("nested deeper"));

        let long = Js::Str("x".repeat(MAX_STRING_BYTES + 1));
        assert_eq!(
            refusal("state", long).1,
            "a string of 1048577 bytes is longer than the 1048576 allowed"
        );
        let at_limit = Js::Str("x".repeat(MAX_STRING_BYTES));
        assert!(to_json(&mut Fake, "state", &at_limit).is_ok());
        let long_key = obj(&[(&"k".repeat(MAX_STRING_BYTES + 1), Js::Null)]);
        assert_eq!(
            refusal("state", long_key),
            (
                "state".into(),
                "a string of 1048577 bytes is longer than the 1048576 allowed".into()
            )
        );
    }
}
