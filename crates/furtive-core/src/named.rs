//! Enums of named values without data (`Ruleset`, `Clause`, `HitZone`...)
//! read through one reader for all of them.
//!
//! serde's derive gives each such enum its own visitors, and serde_json's
//! and serde_path_to_error's readers are then compiled once per enum. Here
//! one visitor reads the name and answers its place in a list of names: it
//! is compiled once per reader, whatever the number of enums, and each
//! enum's `Deserialize` is a lookup in its own list. Every answer is the
//! derive's, word for word: `unknown variant `x`, expected `a` or `b``
//! (serde's own `unknown_variant`), a unit variant in the map form
//! (`{"opposed": null}`), and whatever the reader says of a value that is
//! neither a string nor a map. Measured on the Foundry module's wasm in
//! scripts/build-wasm.sh. `Serialize` stays derived (the same names, which
//! `tests/named.rs` checks against each list).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, VariantAccess, Visitor};

/// An enum whose values are names only.
pub(crate) trait Named: Copy + 'static {
    /// The type's name, as the derive passes it to `deserialize_enum`.
    const TYPE: &'static str;
    /// The names as JSON writes them, in the order of [`Named::ALL`].
    const NAMES: &'static [&'static str];
    /// Every value, in the order of [`Named::NAMES`].
    const ALL: &'static [Self];
}

/// Reads a [`Named`] value (the body of its `Deserialize`).
pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Named>(
    deserializer: D,
) -> Result<T, D::Error> {
    let index = deserializer.deserialize_enum(
        T::TYPE,
        T::NAMES,
        ByName {
            type_name: T::TYPE,
            names: T::NAMES,
        },
    )?;
    Ok(T::ALL[index])
}

/// Implements `Deserialize` through [`deserialize`] for [`Named`] types.
macro_rules! deserialize_by_name {
    ($($type:ty),* $(,)?) => {$(
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                crate::named::deserialize(deserializer)
            }
        }
    )*};
}
pub(crate) use deserialize_by_name;

/// The enum's visitor: the place of the name in `names`.
struct ByName {
    type_name: &'static str,
    names: &'static [&'static str],
}

impl<'de> Visitor<'de> for ByName {
    type Value = usize;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "enum {}", self.type_name)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<usize, A::Error> {
        let (index, variant) = data.variant_seed(Identifier(self.names))?;
        variant.unit_variant()?;
        Ok(index)
    }
}

/// A variant's identifier: its name, or (as the derive accepts) its index.
struct Identifier(&'static [&'static str]);

impl<'de> DeserializeSeed<'de> for Identifier {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

/// serde's wording of an out-of-range variant index.
struct IndexBelow(usize);

impl de::Expected for IndexBelow {
    fn fmt(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        write!(formatter, "variant index 0 <= i < {}", self.0)
    }
}

impl<'de> Visitor<'de> for Identifier {
    type Value = usize;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("variant identifier")
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<usize, E> {
        usize::try_from(value)
            .ok()
            .filter(|&index| index < self.0.len())
            .ok_or_else(|| {
                E::invalid_value(de::Unexpected::Unsigned(value), &IndexBelow(self.0.len()))
            })
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| *name == value)
            .ok_or_else(|| E::unknown_variant(value, self.0))
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<usize, E> {
        self.0
            .iter()
            .position(|name| name.as_bytes() == value)
            .ok_or_else(|| E::unknown_variant(&String::from_utf8_lossy(value), self.0))
    }
}

#[cfg(test)]
mod tests {
    use super::Named;
    use crate::state::{HiderPhase, HitZone, PairReason, Ruleset, SituationModifier};
    use crate::Clause;
    use serde::de::DeserializeOwned;
    use serde::Serialize;
    use serde_json::json;

    /// Each list of names is the one the derived `Serialize` writes, and
    /// every name reads back as its value.
    fn round_trips<T: Named + Serialize + DeserializeOwned + PartialEq + std::fmt::Debug>() {
        assert_eq!(T::NAMES.len(), T::ALL.len(), "{}", T::TYPE);
        for (value, name) in T::ALL.iter().zip(T::NAMES) {
            assert_eq!(
                serde_json::to_value(value).unwrap(),
                json!(name),
                "{}",
                T::TYPE
            );
            assert_eq!(serde_json::from_value::<T>(json!(name)).unwrap(), *value);
            assert_eq!(
                serde_json::from_str::<T>(&format!("\"{name}\"")).unwrap(),
                *value
            );
        }
    }

    #[test]
    fn every_name_is_the_one_serialize_writes() {
        round_trips::<Ruleset>();
        round_trips::<SituationModifier>();
        round_trips::<PairReason>();
        round_trips::<HiderPhase>();
        round_trips::<HitZone>();
        round_trips::<Clause>();
        assert_eq!(Clause::NAMES.len(), Clause::ALL.len());
    }

    /// What serde's derive makes of `Ruleset` and `HitZone`, to compare with.
    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum Ruleset2 {
        Percentile,
        Opposed,
    }
    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    enum HitZone2 {
        Head,
        Trunk,
        Arm,
        Leg,
    }

    /// Every answer is the derive's, word for word (the shared vectors'
    /// goldens hold some of them), from a `Value` and from JSON text, and
    /// through serde_path_to_error as the engine reads.
    #[test]
    fn answers_are_the_derives_word_for_word() {
        let values = [
            json!("opposed"),
            json!("d20"),
            json!(""),
            json!(5),
            json!(-1),
            json!(1.5),
            json!(true),
            json!(null),
            json!([]),
            json!(["opposed"]),
            json!({}),
            json!({"opposed": null}),
            json!({"opposed": 1}),
            json!({"opposed": []}),
            json!({"opposed": {}}),
            json!({"d20": null}),
            json!({"opposed": null, "percentile": null}),
            json!({"head": null}),
            json!("head"),
            json!("Head"),
        ];
        fn answer<T: DeserializeOwned + std::fmt::Debug>(value: &serde_json::Value) -> String {
            let from_value = match serde_json::from_value::<T>(value.clone()) {
                Ok(v) => format!("{v:?}"),
                Err(e) => e.to_string(),
            };
            let text = value.to_string();
            let from_text = match serde_json::from_str::<T>(&text) {
                Ok(v) => format!("{v:?}"),
                Err(e) => e.to_string(),
            };
            let tracked = match serde_path_to_error::deserialize::<_, T>(value) {
                Ok(v) => format!("{v:?}"),
                Err(e) => e.to_string(),
            };
            format!("{from_value} | {from_text} | {tracked}")
                .replace("Ruleset2", "Ruleset")
                .replace("HitZone2", "HitZone")
        }
        for value in &values {
            assert_eq!(
                answer::<Ruleset>(value),
                answer::<Ruleset2>(value),
                "{value}"
            );
            assert_eq!(
                answer::<HitZone>(value),
                answer::<HitZone2>(value),
                "{value}"
            );
        }
    }
}
