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
    #[cfg(feature = "text-reader")]
    if let Some(parsed) = crate::api::read_fast::<B>(&keyed) {
        return Ok(T::from(parsed));
    }
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

/// Reading tagged objects straight from JSON text (feature `text-reader`:
/// napi and the npm wasm; the Foundry module's wasm reads text as a
/// `Value`, see `crate::api::Input`).
#[cfg(feature = "text-reader")]
pub(crate) mod text {
    use std::marker::PhantomData;

    use serde::de::{
        DeserializeOwned, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess,
        VariantAccess, Visitor,
    };

    /// Reads JSON text holding one object tagged by `tag` straight into the
    /// externally tagged twin `B`, without buffering, when the tag is the
    /// object's first key (as `JSON.stringify` writes an object built with its
    /// `type` first): the tag's value names the variant, and the rest of the
    /// object is read as that variant's fields, by the twin's own visitor, so
    /// it accepts what [`read`] accepts. `None` when the text is not such an
    /// object, the tag is not first, or anything is refused: the caller then
    /// reads it with [`read`], which words the error.
    pub(crate) fn read_text<B: DeserializeOwned>(tag: &'static str, text: &str) -> Option<B> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let value = TaggedSeed::<B>::new(tag).deserialize(&mut reader).ok()?;
        reader.end().ok()?;
        Some(value)
    }

    /// [`read_text`] for a JSON array of such objects; `None` when one of them
    /// is not read that way.
    pub(crate) fn read_text_list<B: DeserializeOwned>(
        tag: &'static str,
        text: &str,
    ) -> Option<Vec<B>> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let list =
            serde::Deserializer::deserialize_seq(&mut reader, ListVisitor::<B>(tag, PhantomData))
                .ok()?;
        reader.end().ok()?;
        Some(list)
    }

    /// Reads one tagged object whose tag comes first (see [`read_text`]).
    struct TaggedSeed<B> {
        tag: &'static str,
        twin: PhantomData<B>,
    }

    impl<B> TaggedSeed<B> {
        fn new(tag: &'static str) -> Self {
            TaggedSeed {
                tag,
                twin: PhantomData,
            }
        }
    }

    impl<'de, B: DeserializeOwned> DeserializeSeed<'de> for TaggedSeed<B> {
        type Value = B;

        fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<B, D::Error> {
            deserializer.deserialize_map(self)
        }
    }

    impl<'de, B: DeserializeOwned> Visitor<'de> for TaggedSeed<B> {
        type Value = B;

        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(formatter, "an object whose first key is `{}`", self.tag)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<B, A::Error> {
            use serde::de::Error as _;
            let key: std::borrow::Cow<'de, str> =
                map.next_key()?.ok_or_else(|| A::Error::custom("no tag"))?;
            if key != self.tag {
                return Err(A::Error::custom("the tag is not the first key"));
            }
            let name: String = map.next_value()?;
            B::deserialize(Variant { name, fields: map })
        }
    }

    /// The rest of a tagged object as the twin's variant `name`: an enum
    /// whose variant's fields are the object's remaining entries.
    struct Variant<A> {
        name: String,
        fields: A,
    }

    impl<'de, A: MapAccess<'de>> serde::Deserializer<'de> for Variant<A> {
        type Error = A::Error;

        fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
            visitor.visit_enum(self)
        }

        fn deserialize_enum<V: Visitor<'de>>(
            self,
            _name: &'static str,
            _variants: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, A::Error> {
            visitor.visit_enum(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map struct identifier ignored_any
        }
    }

    impl<'de, A: MapAccess<'de>> EnumAccess<'de> for Variant<A> {
        type Error = A::Error;
        type Variant = Fields<A>;

        fn variant_seed<V: DeserializeSeed<'de>>(
            self,
            seed: V,
        ) -> Result<(V::Value, Fields<A>), A::Error> {
            let variant = seed.deserialize(self.name.into_deserializer())?;
            Ok((variant, Fields(self.fields)))
        }
    }

    /// The remaining entries of a tagged object, as its variant's fields.
    struct Fields<A>(A);

    impl<'de, A: MapAccess<'de>> VariantAccess<'de> for Fields<A> {
        type Error = A::Error;

        fn unit_variant(self) -> Result<(), A::Error> {
            use serde::de::Error as _;
            Err(A::Error::custom("every variant has braces"))
        }

        fn newtype_variant_seed<T: DeserializeSeed<'de>>(
            self,
            _seed: T,
        ) -> Result<T::Value, A::Error> {
            use serde::de::Error as _;
            Err(A::Error::custom("every variant has braces"))
        }

        fn tuple_variant<V: Visitor<'de>>(
            self,
            _len: usize,
            _visitor: V,
        ) -> Result<V::Value, A::Error> {
            use serde::de::Error as _;
            Err(A::Error::custom("every variant has braces"))
        }

        fn struct_variant<V: Visitor<'de>>(
            self,
            _fields: &'static [&'static str],
            visitor: V,
        ) -> Result<V::Value, A::Error> {
            visitor.visit_map(self.0)
        }
    }

    /// A JSON array of tagged objects (see [`read_text_list`]).
    struct ListVisitor<B>(&'static str, PhantomData<B>);

    impl<'de, B: DeserializeOwned> Visitor<'de> for ListVisitor<B> {
        type Value = Vec<B>;

        fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
            formatter.write_str("an array")
        }

        fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Vec<B>, S::Error> {
            let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
            while let Some(item) = seq.next_element_seed(TaggedSeed::<B>::new(self.0))? {
                list.push(item);
            }
            Ok(list)
        }
    }
}
