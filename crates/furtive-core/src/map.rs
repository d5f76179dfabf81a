//! The state's maps: [`TokenMap`], a [`litemap::LiteMap`] keyed by token id
//! (a sorted `Vec` of entries: a lookup is a binary search, iteration is in
//! key order as a `BTreeMap`'s is).
//!
//! `LiteMap` serves the Foundry module's wasm: every `BTreeMap<K, V>` brings
//! its own copy of the B-tree's node code, and the state's maps were a large
//! share of that wasm (`scripts/build-wasm.sh`).
//!
//! Its own serde impls are not `BTreeMap`'s, so the state's maps are read
//! and written here instead (`#[serde(with = "crate::map")]`): litemap
//! writes an empty map as a JSON array and reads an array of pairs as a
//! map. Here a map is written as `BTreeMap` writes it, a JSON object in key
//! order, and read as `BTreeMap` reads it: a JSON object only (anything else
//! is refused with serde's `expected a map`), a key given twice keeping its
//! last value.

use std::fmt;
use std::marker::PhantomData;

use litemap::LiteMap;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::state::TokenId;

/// A map keyed by token id, in key order.
pub type TokenMap<V> = LiteMap<TokenId, V>;

/// Writes `map` as a JSON object, in key order (as `BTreeMap` does).
pub(crate) fn serialize<V: Serialize, S: Serializer>(
    map: &TokenMap<V>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_map(map.iter())
}

/// Reads a JSON object into a map (as `BTreeMap` does: an object only, the
/// last value of a repeated key).
pub(crate) fn deserialize<'de, V: Deserialize<'de>, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<TokenMap<V>, D::Error> {
    deserializer.deserialize_map(MapVisitor(PhantomData))
}

struct MapVisitor<V>(PhantomData<fn() -> V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
    type Value = TokenMap<V>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        // `BTreeMap`'s words: a refusal reads as before.
        formatter.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<TokenMap<V>, A::Error> {
        let mut map = TokenMap::new();
        while let Some((key, value)) = access.next_entry()? {
            // Keys in order (every map this engine writes, and every
            // `serde_json::Value`'s) are appended; any other is inserted in
            // its place, a repeated key replacing its value.
            if let Some((key, value)) = map.try_append(key, value) {
                map.insert(key, value);
            }
        }
        Ok(map)
    }
}

/// A set in order: a [`LiteMap`] with no values, for the engine's own
/// bookkeeping (the journal's touched tokens), in place of a `BTreeSet`.
#[derive(Debug, Clone)]
pub(crate) struct Set<K>(LiteMap<K, ()>);

impl<K: Ord> Set<K> {
    pub fn new() -> Self {
        Set(LiteMap::new())
    }

    /// Adds `key`; whether it was not there yet.
    pub fn insert(&mut self, key: K) -> bool {
        self.0.try_insert(key, ()).is_none()
    }

    pub fn contains<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.0.contains_key(key)
    }

    /// The keys, in order.
    pub fn iter(&self) -> SetIter<'_, K> {
        self.into_iter()
    }
}

impl<K: Ord> FromIterator<K> for Set<K> {
    fn from_iter<I: IntoIterator<Item = K>>(keys: I) -> Self {
        let mut set = Set::new();
        for key in keys {
            set.insert(key);
        }
        set
    }
}

/// The keys of a [`Set`], in order.
pub(crate) type SetIter<'a, K> =
    std::iter::Map<std::slice::Iter<'a, (K, ())>, fn(&'a (K, ())) -> &'a K>;

impl<'a, K: Ord> IntoIterator for &'a Set<K> {
    type Item = &'a K;
    type IntoIter = SetIter<'a, K>;
    fn into_iter(self) -> SetIter<'a, K> {
        fn key<K>(entry: &(K, ())) -> &K {
            &entry.0
        }
        self.0
            .as_slice()
            .iter()
            .map(key as fn(&'a (K, ())) -> &'a K)
    }
}

/// Serializes a map as [`serialize`] does, for a hand-written `Serialize`.
pub(crate) struct Ser<'a, V>(pub &'a TokenMap<V>);

impl<V: Serialize> Serialize for Ser<'_, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize(self.0, serializer)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Serialize};
    use serde_json::Value;

    use super::TokenMap;
    use crate::state::Creature;
    use crate::state::TokenId;

    /// A map as the state holds it now.
    #[derive(Debug, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Lite {
        #[serde(with = "super")]
        m: TokenMap<Creature>,
    }

    /// The same map as the state held it before, a `BTreeMap`.
    #[derive(Debug, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Tree {
        m: BTreeMap<String, Creature>,
    }

    fn entries(map: &TokenMap<Creature>) -> Vec<(&TokenId, &Creature)> {
        map.iter().collect()
    }

    const INPUTS: &[&str] = &[
        r#"{"m": {}}"#,
        r#"{"m": {"a": {"id": "a"}, "b": {"id": "b"}}}"#,
        r#"{"m": {"b": {"id": "b"}, "c": {"id": "c"}, "a": {"id": "a"}}}"#,
        // A key given twice: the last value is kept, in or out of order.
        r#"{"m": {"a": {"id": "a", "name": "first"}, "b": {"id": "b"}, "a": {"id": "a", "name": "last"}}}"#,
        r#"{"m": {"b": {"id": "b", "name": "first"}, "b": {"id": "b", "name": "last"}, "a": {"id": "a"}}}"#,
        r#"{"m": {"c": {"id": "c"}, "a": {"id": "a", "name": "1"}, "b": {"id": "b"}, "a": {"id": "a", "name": "2"}, "a": {"id": "a", "name": "3"}}}"#,
        // Not a map: refused with `BTreeMap`'s words (litemap's own reader
        // takes an array of pairs as a map).
        r#"{"m": []}"#,
        r#"{"m": [["a", {"id": "a"}]]}"#,
        r#"{"m": null}"#,
        r#"{"m": 5}"#,
        r#"{"m": "a"}"#,
        r#"{"m": {"a": 5}}"#,
        r#"{"m": {"a": {"id": "a", "bogus": 1}}}"#,
        r#"{"m": {"b": {"id": "b"}, "a": {"id": "a", "name": 3}}}"#,
        // A bad value after a repeated key: the same refusal.
        r#"{"m": {"a": {"id": "a"}, "a": {"id": 1}}}"#,
    ];

    fn same<E: std::fmt::Display>(input: &str, lite: Result<Lite, E>, tree: Result<Tree, E>) {
        match (lite, tree) {
            (Ok(lite), Ok(tree)) => {
                let tree: Vec<(&str, &Creature)> =
                    tree.m.iter().map(|(k, v)| (k.as_str(), v)).collect();
                let lite: Vec<(&str, &Creature)> = entries(&lite.m)
                    .into_iter()
                    .map(|(k, v)| (k.as_str(), v))
                    .collect();
                assert_eq!(lite, tree, "{input}");
            }
            (Err(lite), Err(tree)) => assert_eq!(lite.to_string(), tree.to_string(), "{input}"),
            (lite, tree) => panic!(
                "{input}: {:?} against {:?}",
                lite.map_err(|e| e.to_string()),
                tree.map_err(|e| e.to_string())
            ),
        }
    }

    #[test]
    fn a_map_reads_from_text_as_a_btreemap_does() {
        for input in INPUTS {
            same(
                input,
                serde_json::from_str(input),
                serde_json::from_str(input),
            );
        }
    }

    #[test]
    fn a_map_reads_from_a_value_as_a_btreemap_does() {
        for input in INPUTS {
            let value: Value = serde_json::from_str(input).unwrap();
            same(input, Lite::deserialize(&value), Tree::deserialize(&value));
            same(
                input,
                serde_json::from_value(value.clone()),
                serde_json::from_value(value.clone()),
            );
        }
    }

    #[test]
    fn a_refusal_inside_a_map_names_the_same_path() {
        for input in INPUTS {
            let value: Value = serde_json::from_str(input).unwrap();
            let lite: Result<Lite, _> = serde_path_to_error::deserialize(&value);
            let tree: Result<Tree, _> = serde_path_to_error::deserialize(&value);
            match (lite, tree) {
                (Ok(_), Ok(_)) => {}
                (Err(lite), Err(tree)) => {
                    assert_eq!(lite.path().to_string(), tree.path().to_string(), "{input}");
                    assert_eq!(lite.to_string(), tree.to_string(), "{input}");
                }
                (lite, tree) => panic!("{input}: {:?} against {:?}", lite.is_ok(), tree.is_ok()),
            }
        }
    }

    #[test]
    fn a_map_writes_as_a_btreemap_does() {
        for input in INPUTS {
            let (Ok(lite), Ok(tree)) = (
                serde_json::from_str::<Lite>(input),
                serde_json::from_str::<Tree>(input),
            ) else {
                continue;
            };
            assert_eq!(
                serde_json::to_string(&lite).unwrap(),
                serde_json::to_string(&tree).unwrap(),
                "{input}"
            );
            assert_eq!(
                serde_json::to_value(&lite).unwrap(),
                serde_json::to_value(&tree).unwrap(),
                "{input}"
            );
        }
        // litemap's own writer gives `[]` for an empty map.
        let empty = Lite { m: TokenMap::new() };
        assert_eq!(serde_json::to_string(&empty).unwrap(), r#"{"m":{}}"#);
    }

    #[test]
    fn the_last_value_of_a_repeated_key_is_kept_in_key_order() {
        let lite: Lite = serde_json::from_str(INPUTS[5]).unwrap();
        let keys: Vec<&str> = lite.m.keys().map(TokenId::as_str).collect();
        assert_eq!(keys, ["a", "b", "c"]);
        assert_eq!(lite.m.get("a").unwrap().name, "3");
    }

    #[test]
    fn a_set_keeps_each_key_once_in_order() {
        use std::borrow::Cow;
        let mut set: super::Set<Cow<str>> = ["b", "d", "a", "b"]
            .into_iter()
            .map(Cow::Borrowed)
            .collect();
        assert!(set.insert(Cow::Borrowed("c")));
        assert!(!set.insert(Cow::Owned("a".to_owned())));
        assert!(set.contains(&Cow::Borrowed("d")));
        assert!(!set.contains(&Cow::Borrowed("e")));
        let keys: Vec<&str> = set.iter().map(|k| k.as_ref()).collect();
        assert_eq!(keys, ["a", "b", "c", "d"]);
        let btree: std::collections::BTreeSet<&str> = ["b", "d", "a", "b", "c"].into();
        assert!(set.iter().map(|k| k.as_ref()).eq(btree));
    }
}
