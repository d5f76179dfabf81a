//! JSON Schemas of everything that crosses the JavaScript boundary
//! (feature `schema`), from which `npm/index.d.ts`'s types are generated.
//!
//! The types derive `schemars::JsonSchema` next to their serde derives, so
//! a schema follows the serde attributes (`rename_all`, internally tagged
//! enums, `skip_serializing_if`, `default`, `try_from`). Each type is
//! described twice, once per direction:
//!
//! - what the engine **writes** (its results: the state snapshot,
//!   [`crate::Effects`], query answers, the normalized scene): every field
//!   present, `null` for an absent optional value, but those serde skips
//!   (`skip_serializing_if`), which are optional and never `null`;
//! - what the engine **reads** (its arguments: the config, events,
//!   queries, scene updates): a field with a serde `default` may be left out.
//!
//! [`boundary_schema`] merges both into one set of definitions (each variant
//! of a tagged enum named, `EnterStealthEvent`): a type
//! whose two descriptions agree appears once under its Rust name; one whose
//! descriptions differ keeps its name for what the engine writes, and what
//! it reads is named with `Input` (`Creature`, `CreatureInput`). A type
//! only read (`Config`, `Event`) keeps its name. `npm/furtive.schema.json`
//! is this value (checked by `tests/types.rs`), and `npm/types.d.ts` is
//! generated from that file by `tests/js/generate-types.mjs`
//! (json-schema-to-typescript).
//!
//! Two types are read or written by hand rather than by serde derive and so
//! describe themselves here: [`Hider`] (its JSON carries the fields of its
//! ruleset's attempt next to its own) and
//! [`SceneUpdate`](crate::scene::SceneUpdate) (read from a Foundry document
//! by hand).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use schemars::generate::SchemaSettings;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value};

use crate::outcome::{Decision, Outcome};
use crate::question::{
    DefenseQuery, HiddenAttackQuery, HiddenAttackResult, KnockoutQuery, KnockoutResult,
    PickpocketQuery,
};
use crate::state::{Hider, HiderPhase, Modifiers, Pair, Penalty};
use crate::{Config, Effects, Event, State};

/// The `Hider` a state snapshot carries (format 2): see [`Hider`]. A state
/// is read through its own representation (`StateRepr`), so this is the
/// written shape.
impl JsonSchema for Hider {
    fn schema_name() -> Cow<'static, str> {
        "Hider".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let phase = generator.subschema_for::<HiderPhase>();
        let modifiers = generator.subschema_for::<Modifiers>();
        let pending = generator.subschema_for::<Option<Modifiers>>();
        let penalties = generator.subschema_for::<Vec<Penalty>>();
        let pairs = generator.subschema_for::<BTreeMap<String, Pair>>();
        json_schema!({
            "description": "A token attempting stealth, with its per-observer pairs. State format 2: a hider carries the fields of the state's ruleset only (`percentile`: `d100`, `modifiers`, `score`, `pendingModifiers`, `alreadyPerceivedAdded`, `attacked`; `opposed`: `heldTotal`, `penalties`, `precautions`).",
            "type": "object",
            "properties": {
                "phase": phase,
                "d100": { "description": "`percentile`: the d100 of the roll in force (P1), 1..=100.", "type": "integer" },
                "modifiers": { "description": "`percentile`: the modifiers of the roll in force (P2).", "allOf": [modifiers] },
                "score": { "description": "`percentile`: the stealth score in force (P1).", "type": "integer" },
                "pendingModifiers": { "description": "`percentile`: the modifiers the pending new roll will use (P4); `null` when no roll is pending.", "anyOf": [pending] },
                "alreadyPerceivedAdded": { "description": "`percentile`: P9 added `already_perceived` to `modifiers` on its own (the caller's modifiers did not hold it). Present only when true.", "type": "boolean" },
                "attacked": { "description": "`percentile` (P9): attacked from hiding; revealed at its turn end. Present only when true.", "type": "boolean" },
                "heldTotal": { "description": "`opposed`: the held Stealth total (O1).", "type": "integer" },
                "penalties": { "description": "`opposed`: penalties since the held roll (O6).", "allOf": [penalties] },
                "precautions": { "description": "`opposed`: enhanced senses countered by precautions (O13).", "type": "array", "items": { "type": "string" } },
                "movedThisTurn": { "description": "The hider moved during its current turn (O5).", "type": "boolean" },
                "pairs": { "description": "By observer token id.", "allOf": [pairs] }
            },
            "required": ["phase", "movedThisTurn", "pairs"],
            "additionalProperties": false
        })
    }
}

#[cfg(feature = "scene")]
mod scene {
    use super::*;
    use crate::scene::SceneUpdate;

    /// A Foundry document as `SceneUpdate` takes it: read by hand in the
    /// layouts `parseScene` reads (`crate::scene`), so any object.
    fn document(description: &str) -> Value {
        serde_json::json!({
            "description": description,
            "type": "object",
            "additionalProperties": true
        })
    }

    /// One variant: `{ type, ...fields }`, `required` naming the fields
    /// that must be there besides `type`.
    fn variant(kind: &str, description: &str, fields: Value, required: &[&str]) -> Value {
        let mut properties = Map::new();
        properties.insert("type".into(), serde_json::json!({ "const": kind }));
        if let Value::Object(fields) = fields {
            properties.extend(fields);
        }
        let mut names = vec!["type"];
        names.extend(required);
        serde_json::json!({
            "description": description,
            "type": "object",
            "properties": properties,
            "required": names,
            "additionalProperties": false
        })
    }

    /// What `SceneSight.update` reads (see [`SceneUpdate`]).
    impl JsonSchema for SceneUpdate {
        fn schema_name() -> Cow<'static, str> {
            "SceneUpdate".into()
        }

        fn json_schema(_: &mut SchemaGenerator) -> Schema {
            let id = serde_json::json!({ "type": "string" });
            let number = |description: &str| serde_json::json!({ "description": description, "type": "number" });
            let variants = vec![
                variant(
                    "door",
                    "A door opens or closes.",
                    serde_json::json!({
                        "wallId": id,
                        "state": {
                            "description": "`\"closed\"`, `\"open\"`, `\"locked\"`, or Foundry's `ds` 0, 1, 2.",
                            "enum": ["closed", "open", "locked", 0, 1, 2]
                        }
                    }),
                    &["wallId", "state"],
                ),
                variant(
                    "wall",
                    "Adds the wall, or replaces the one with its `_id`.",
                    serde_json::json!({ "wall": document("A Foundry wall with its `_id`, in the layout `parseScene` reads.") }),
                    &["wall"],
                ),
                variant(
                    "wallRemoved",
                    "Removes a wall.",
                    serde_json::json!({ "wallId": id }),
                    &["wallId"],
                ),
                variant(
                    "token",
                    "Adds the token, or replaces the one with its `_id`.",
                    serde_json::json!({ "token": document("A Foundry token with its `_id` (optionally with `darkvision`, scene units), in the layout `parseScene` reads.") }),
                    &["token"],
                ),
                variant(
                    "tokenMoved",
                    "Moves a token.",
                    serde_json::json!({
                        "tokenId": id,
                        "x": number("Left edge, canvas pixels."),
                        "y": number("Top edge, canvas pixels."),
                        "elevation": number("Scene distance units; unchanged when absent.")
                    }),
                    &["tokenId", "x", "y"],
                ),
                variant(
                    "tokenRemoved",
                    "Removes a token.",
                    serde_json::json!({ "tokenId": id }),
                    &["tokenId"],
                ),
                variant(
                    "darkvision",
                    "Sets what the token sees in darkness.",
                    serde_json::json!({ "tokenId": id, "darkvision": number("Scene distance units, >= 0.") }),
                    &["tokenId", "darkvision"],
                ),
                variant(
                    "light",
                    "Adds a light, or replaces the one with its `_id` (moved, resized).",
                    serde_json::json!({ "light": document("A Foundry ambient light with its `_id`, in the layout `parseScene` reads.") }),
                    &["light"],
                ),
                variant(
                    "lightRemoved",
                    "Removes a light.",
                    serde_json::json!({ "lightId": id }),
                    &["lightId"],
                ),
                variant(
                    "lightHidden",
                    "Turns a light off (`true`) or on.",
                    serde_json::json!({ "lightId": id, "hidden": { "type": "boolean" } }),
                    &["lightId", "hidden"],
                ),
                variant(
                    "darkness",
                    "The scene's darkness level.",
                    serde_json::json!({ "darkness": number("0..=1.") }),
                    &["darkness"],
                ),
            ];
            json_schema!({
                "description": "One change to a `SceneSight` (`SceneSight.update`). Foundry documents (`wall`, `token`, `light`) are in the layout `parseScene` reads, with their `_id`.",
                "oneOf": variants
            })
        }
    }
}

/// Adds `T`'s definition (and those it refers to) to `generator`.
fn add<T: JsonSchema>(generator: &mut SchemaGenerator) {
    generator.subschema_for::<T>();
}

/// What the engine writes: the types of its results.
fn written(generator: &mut SchemaGenerator) {
    add::<State>(generator);
    add::<Effects>(generator);
    add::<Outcome>(generator);
    add::<Decision>(generator);
    add::<KnockoutResult>(generator);
    add::<HiddenAttackResult>(generator);
    add::<crate::standing::Standing>(generator);
    add::<crate::standing::PairStanding>(generator);
    #[cfg(feature = "scene")]
    {
        use crate::scene::{
            ClearViewAnswer, ClearViewFrom, ClearViewMatrix, Lighting, Scene, View,
        };
        add::<Scene>(generator);
        add::<ClearViewAnswer>(generator);
        add::<ClearViewMatrix>(generator);
        add::<View>(generator);
        add::<ClearViewFrom>(generator);
        add::<Lighting>(generator);
    }
}

/// What the engine reads: the types of its arguments.
fn read(generator: &mut SchemaGenerator) {
    add::<Config>(generator);
    add::<Event>(generator);
    add::<crate::question::PairQuery>(generator);
    add::<DefenseQuery>(generator);
    add::<KnockoutQuery>(generator);
    add::<PickpocketQuery>(generator);
    add::<HiddenAttackQuery>(generator);
    add::<crate::standing::StandingQuery>(generator);
    add::<crate::standing::PairsQuery>(generator);
    add::<crate::darkness::DarknessQuery>(generator);
    add::<crate::sides::AlliedSidesQuery>(generator);
    #[cfg(feature = "scene")]
    {
        use crate::scene::{ClearViewQuery, Point, SceneUpdate, Token};
        add::<ClearViewQuery>(generator);
        add::<Token>(generator);
        add::<SceneUpdate>(generator);
        add::<Point>(generator);
    }
}

/// The definitions one direction's generator collects.
fn definitions(settings: SchemaSettings, roots: fn(&mut SchemaGenerator)) -> Map<String, Value> {
    let mut generator = settings.into_generator();
    roots(&mut generator);
    generator.take_definitions(true)
}

/// What the engine writes: a field that may be left out is one serde skips
/// (`skip_serializing_if`, every one of them on an `Option` is
/// `Option::is_none`), so when it is there it is never `null`. schemars
/// describes it as optional and nullable; this drops the `null`
/// (`expires?: Expiry`, not `expires?: Expiry | null`).
fn skipped_fields_are_never_null(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let required: BTreeSet<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|names| {
                    names
                        .iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    if !required.contains(name) {
                        drop_null(property);
                    }
                }
            }
            object.values_mut().for_each(skipped_fields_are_never_null);
        }
        Value::Array(items) => items.iter_mut().for_each(skipped_fields_are_never_null),
        _ => {}
    }
}

/// `{"type": ["string", "null"]}` becomes `{"type": "string"}`, and
/// `{"anyOf": [X, {"type": "null"}]}` becomes `{"allOf": [X]}`.
fn drop_null(property: &mut Value) {
    let null = serde_json::json!({ "type": "null" });
    let Value::Object(object) = property else {
        return;
    };
    if let Some(Value::Array(types)) = object.get_mut("type") {
        types.retain(|kind| kind != "null");
        if types.len() == 1 {
            let kind = types.remove(0);
            object.insert("type".into(), kind);
        }
    }
    if let Some(Value::Array(options)) = object.get("anyOf") {
        if options.len() == 2 && options.contains(&null) {
            let kept: Vec<Value> = options.iter().filter(|o| **o != null).cloned().collect();
            object.remove("anyOf");
            object.insert("allOf".into(), Value::Array(kept));
        }
    }
}

const PREFIX: &str = "#/definitions/";

/// The names of the definitions `schema` refers to.
fn references(schema: &Value, names: &mut BTreeSet<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get("$ref") {
                if let Some(name) = reference.strip_prefix(PREFIX) {
                    names.insert(name.to_owned());
                }
            }
            object.values().for_each(|value| references(value, names));
        }
        Value::Array(items) => items.iter().for_each(|value| references(value, names)),
        _ => {}
    }
}

/// Points the references to the definitions in `renamed` at their `Input` names.
fn rename_references(schema: &mut Value, renamed: &BTreeSet<String>) {
    match schema {
        Value::Object(object) => {
            if let Some(Value::String(reference)) = object.get_mut("$ref") {
                if let Some(name) = reference.strip_prefix(PREFIX) {
                    if renamed.contains(name) {
                        *reference = format!("{PREFIX}{name}Input");
                    }
                }
            }
            object
                .values_mut()
                .for_each(|value| rename_references(value, renamed));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|value| rename_references(value, renamed)),
        _ => {}
    }
}

/// `description` without rustdoc's links: ``[`crate::scene::Floor`]``
/// becomes `` `Floor` `` (the JavaScript reader has no Rust paths).
fn plain_description(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("[`") {
        let Some(end) = rest[start + 2..].find("`]") else {
            break;
        };
        let path = &rest[start + 2..start + 2 + end];
        let name = path.rsplit("::").next().unwrap_or(path);
        out.push_str(&rest[..start]);
        out.push('`');
        out.push_str(name);
        out.push('`');
        rest = &rest[start + 2 + end + 2..];
    }
    out.push_str(rest);
    out
}

/// Applies [`plain_description`] to every `description` in `schema`.
fn plain_descriptions(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for (key, value) in object.iter_mut() {
                match value {
                    Value::String(text) if key == "description" => *text = plain_description(text),
                    other => plain_descriptions(other),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

/// Names each variant of an internally tagged enum (`Event`, `Change`,
/// `Request`, `PenaltyScope`, `SceneUpdate`): its tag in PascalCase, then
/// the enum's name (`EnterStealthEvent`, `VisibilityChange`), so the
/// generated TypeScript has one documented type a variant.
fn name_variants(name: &str, schema: &mut Value) {
    let Some(Value::Array(variants)) = schema.get_mut("oneOf") else {
        return;
    };
    for variant in variants {
        let tag = ["type", "kind"].iter().find_map(|tag| {
            variant
                .pointer(&format!("/properties/{tag}/const"))
                .and_then(Value::as_str)
                .map(str::to_owned)
        });
        if let (Some(tag), Value::Object(object)) = (tag, variant) {
            let mut title = tag[..1].to_uppercase();
            title.push_str(&tag[1..]);
            title.push_str(name);
            object.insert("title".into(), Value::String(title));
        }
    }
}

/// The JSON Schema (draft 7) of every type that crosses the JavaScript
/// boundary: a root with no type of its own and one definition a type
/// (see the module docs for the naming), plus `EngineErrorCode` (the
/// codes of [`crate::Error::CODES`], in order) and `HiddenFrom` (what
/// `hiddenFrom()` returns).
pub fn boundary_schema() -> Value {
    let mut all = definitions(SchemaSettings::draft07().for_serialize(), written);
    all.values_mut().for_each(skipped_fields_are_never_null);
    let inputs = definitions(SchemaSettings::draft07().for_deserialize(), read);

    // A read type is renamed when it differs from the written type of the
    // same name, or refers to a renamed one.
    let mut renamed: BTreeSet<String> = inputs
        .iter()
        .filter(|(name, schema)| all.get(*name).is_some_and(|written| written != *schema))
        .map(|(name, _)| name.clone())
        .collect();
    loop {
        let more: Vec<String> = inputs
            .iter()
            .filter(|(name, schema)| {
                all.contains_key(*name) && !renamed.contains(*name) && {
                    let mut names = BTreeSet::new();
                    references(schema, &mut names);
                    names.iter().any(|name| renamed.contains(name))
                }
            })
            .map(|(name, _)| name.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        renamed.extend(more);
    }
    for (name, mut schema) in inputs {
        rename_references(&mut schema, &renamed);
        if renamed.contains(&name) {
            all.insert(format!("{name}Input"), schema);
        } else {
            all.entry(name).or_insert(schema);
        }
    }

    all.insert(
        "EngineErrorCode".into(),
        serde_json::json!({
            "description": "The codes of the engine's errors (`errorCodes()` lists them first), stable once published.",
            "enum": crate::Error::CODES
        }),
    );
    all.insert(
        "HiddenFrom".into(),
        serde_json::json!({
            "description": "B1, B2: for each observer token id, the hiders it does not perceive. Observers that perceive everyone are absent.",
            "type": "object",
            "additionalProperties": { "type": "array", "items": { "type": "string" } }
        }),
    );
    for (name, schema) in all.iter_mut() {
        name_variants(name, schema);
    }
    let mut definitions = Value::Object(all);
    plain_descriptions(&mut definitions);
    serde_json::json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Furtive",
        "description": "Every type that crosses the JavaScript boundary of the furtive engine (generated by furtive_core::schema::boundary_schema; do not edit).",
        "definitions": definitions
    })
}
