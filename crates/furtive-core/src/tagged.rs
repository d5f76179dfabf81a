//! Internally tagged enums that serde reads without buffering.
//!
//! The JSON shape of [`crate::Event`] (`{"type": "enterStealth", ...}`),
//! [`crate::Request`], [`crate::Change`] and [`crate::state::PenaltyScope`]
//! (`{"kind": ...}`) is serde's internally tagged representation. Reading
//! that representation with serde's derive buffers the whole object first
//! (serde's private `Content` type) and then reads the variant from the
//! buffer. In the wasm build that buffering took 72 KB of 700 KB (the code
//! of every variant, read a second time from the buffer), and it lost the
//! path of a bad field inside the enum.
//!
//! [`tagged_enum!`] declares such an enum once and derives two views of it:
//! the public enum, serialized internally tagged, and a crate-private
//! externally tagged twin (`{"enterStealth": {...}}`) with the same
//! variants and fields. Reading moves the tag to the key ([`key_by_tag`])
//! and reads the twin, which serde does without buffering. The JSON shape,
//! the field names and the error messages are serde's own. `Event` and
//! `PenaltyScope` refuse unknown fields, as they always did; `Request` and
//! `Change` ignore them, as they always did.

use serde::de::{DeserializeOwned, Unexpected};
use serde_json::{Map, Value};

/// Declares an internally tagged enum: `tag = "type", by_name = EventByName`,
/// optionally `, deny_unknown_fields` (refuse fields no variant has), `;`,
/// then the enum, whose variants all have braces (`CombatEnd {}`).
macro_rules! tagged_enum {
    (
        tag = $tag:literal, by_name = $by_name:ident $(, $deny:ident)?;
        $(#[$meta:meta])*
        pub enum $name:ident {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident {
                    $( $(#[$field_meta:meta])* $field:ident : $type:ty ),* $(,)?
                }
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(serde::Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(tag = $tag, rename_all = "camelCase", rename_all_fields = "camelCase")]
        pub enum $name {
            $(
                $(#[$variant_meta])*
                $variant { $( $(#[$field_meta])* $field: $type ),* },
            )*
        }

        #[doc = concat!("[`", stringify!($name), "`] keyed by its `", $tag, "`, externally tagged: what it is read as (`crate::tagged`).")]
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
        $( #[serde($deny)] )?
        pub(crate) enum $by_name {
            $( $variant { $( $(#[$field_meta])* $field: $type ),* }, )*
        }

        impl From<$by_name> for $name {
            fn from(value: $by_name) -> $name {
                match value {
                    $( $by_name::$variant { $($field),* } => $name::$variant { $($field),* }, )*
                }
            }
        }

        /// Reads the internally tagged shape. A bad field inside is named
        /// at the start of the message (`attacker: invalid type: ...`),
        /// after the path of the enum itself.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                use serde::de::Error as _;
                let value = <serde_json::Value as serde::Deserialize>::deserialize(deserializer)?;
                $crate::tagged::read::<$name, $by_name>($tag, value).map_err(|(field, message)| {
                    if field.is_empty() {
                        D::Error::custom(message)
                    } else {
                        D::Error::custom(format_args!("{field}: {message}"))
                    }
                })
            }
        }
    };
}
pub(crate) use tagged_enum;

/// Reads `value`, an object tagged by `tag`, as `T` through its externally
/// tagged twin `B`. On failure: the field at fault inside the object (`""`
/// for the object itself, the tag for an unknown variant, `view[0]` for a
/// field) and serde's message. Used by `tagged_enum!`'s `Deserialize` and
/// by `crate::api` (which also names the argument).
pub(crate) fn read<T: From<B>, B: DeserializeOwned>(
    tag: &'static str,
    value: Value,
) -> Result<T, (String, String)> {
    let (name, keyed) = keyed_by_tag(tag, value)?;
    // With `text-reader`, without the path first (see `crate::api::parse_at_path`).
    crate::api::read_with_path::<B>(&keyed)
        .map(T::from)
        .map_err(|error| variant_error(&name, tag, error))
}

/// [`key_by_tag`], its error as [`read`] gives it. This and
/// [`variant_error`] are the parts of [`read`] that do not depend on the
/// enum, kept out of line so they are compiled once in all
/// (scripts/build-wasm.sh).
#[inline(never)]
fn keyed_by_tag(tag: &'static str, value: Value) -> Result<(String, Value), (String, String)> {
    key_by_tag(tag, value).map_err(|(field, message)| (field.unwrap_or("").to_owned(), message))
}

/// An error of the keyed twin of variant `name` as [`read`] gives it: the
/// field at fault in the caller's object ([`field_in_variant`]) and
/// serde's message.
#[inline(never)]
fn variant_error(
    name: &str,
    tag: &str,
    error: serde_path_to_error::Error<serde_json::Error>,
) -> (String, String) {
    let path = error.path().to_string();
    (
        field_in_variant(name, tag, &path),
        error.into_inner().to_string(),
    )
}

/// A failure to read the tag: the field at fault (`None` for the object
/// itself, `Some(tag)` for the tag) and serde's message.
type TagError = (Option<&'static str>, String);

/// Moves the tag of an object to the key: with `tag = "type"`,
/// `{"type": "sprint", "token": "t"}` becomes `("sprint", {"sprint": {"token": "t"}})`.
pub(crate) fn key_by_tag(tag: &'static str, value: Value) -> Result<(String, Value), TagError> {
    let mut fields = match value {
        Value::Object(fields) => fields,
        other => {
            return Err((
                None,
                format!(
                    "invalid type: {}, expected an object with a `{tag}`",
                    unexpected(&other)
                ),
            ))
        }
    };
    match fields.remove(tag) {
        Some(Value::String(name)) => {
            let mut keyed = Map::new();
            keyed.insert(name.clone(), Value::Object(fields));
            Ok((name, Value::Object(keyed)))
        }
        Some(other) => Err((
            Some(tag),
            format!("invalid type: {}, expected a string", unexpected(&other)),
        )),
        None => Err((None, format!("missing field `{tag}`"))),
    }
}

/// Where an error of the keyed twin lies in the caller's object, from the
/// path `serde_path_to_error` reports inside `{name: {...}}`: the tag for
/// an error before the key (an unknown variant), `""` for the object
/// itself (`name`: a missing field), else the field path (`name.view[0]`
/// gives `view[0]`).
fn field_in_variant(name: &str, tag: &str, path: &str) -> String {
    if path.is_empty() || path == "." {
        return tag.to_owned();
    }
    match path.strip_prefix(name) {
        Some(rest) => rest.trim_start_matches('.').to_owned(),
        None => tag.to_owned(),
    }
}

/// How serde words a JSON value it did not expect (`integer `3``, `null`).
pub(crate) fn unexpected(value: &Value) -> String {
    let unexpected = match value {
        Value::Null => Unexpected::Other("null"),
        Value::Bool(b) => Unexpected::Bool(*b),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => Unexpected::Unsigned(u),
            (_, Some(i), _) => Unexpected::Signed(i),
            (_, _, f) => Unexpected::Float(f.unwrap_or(f64::NAN)),
        },
        Value::String(s) => Unexpected::Str(s),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    };
    unexpected.to_string()
}
