//! Concealment by darkness (B5), decided once for every caller: the scene
//! code ([`crate::scene`], feature `scene`) and the `concealedByDarkness`
//! export, which the Foundry module calls with its own lighting, distances
//! and darkvision (no `scene` feature needed).
//!
//! B5 (`shared/rules-interpretation.md`): clear view is a sight line and no
//! concealment; a target in darkness is concealed from an observer that
//! does not see in darkness as far as the target. See `docs/scene.md`,
//! "Light and darkness (B5)".

use serde_json::{Map, Value};

use crate::error::Error;

/// How far an observer sees in darkness (darkvision, blindsight, a sight
/// range that needs no light), in scene distance units.
///
/// JSON: a number `>= 0` (0: the observer needs light), or the string
/// `"unlimited"`: it sees in darkness at any distance (Foundry's `null`
/// sight or detection range; JavaScript's `Infinity`, which JSON cannot
/// carry). Anything else, `null` included, is refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Darkvision {
    /// Sees in darkness up to this distance (scene units, finite, `>= 0`).
    Range(f64),
    /// Sees in darkness at any distance.
    Unlimited,
}

/// B5: whether a target is concealed by darkness from an observer.
///
/// - `target_in_darkness`: the target stands in darkness (no light reaches
///   it, or a darkness source covers it);
/// - `distance`: observer to target in scene units, `None` when unknown;
/// - `darkvision`: how far the observer sees in darkness.
///
/// Concealed when the target is in darkness and farther than the observer
/// sees in darkness (a target exactly at the darkvision range is seen). An
/// unknown distance conceals a target in darkness unless the observer sees
/// in darkness without limit.
pub fn concealed_by_darkness(
    target_in_darkness: bool,
    distance: Option<f64>,
    darkvision: Darkvision,
) -> bool {
    if !target_in_darkness {
        return false;
    }
    match (darkvision, distance) {
        (Darkvision::Unlimited, _) => false,
        (Darkvision::Range(_), None) => true,
        (Darkvision::Range(range), Some(distance)) => distance > range,
    }
}

/// The `concealedByDarkness` query: one target and the observers to test,
/// one call per target whatever the number of observers. JSON:
/// `{"targetInDarkness": bool, "observers": [{"distance"?: number | null,
/// "darkvision": number | "unlimited"}]}`.
/// The shape [`concealed_by_darkness_answer`] reads. It reads it by hand:
/// serde's derive, read with field paths, makes the Foundry module's wasm
/// larger than this reader does. This type exists for its JSON Schema
/// (feature `schema`), which types the export (`npm/types.d.ts`).
#[cfg(feature = "schema")]
#[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DarknessQuery {
    /// The target stands in darkness (`Lighting.dark`).
    pub target_in_darkness: bool,
    /// The observers, each with its distance to the target and its
    /// darkvision; the answer lists one boolean per observer, in order.
    pub observers: Vec<DarknessObserver>,
}

/// One observer of a [`DarknessQuery`].
#[cfg(feature = "schema")]
#[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DarknessObserver {
    /// Observer to target in scene distance units, `>= 0`; absent or
    /// `null` when unknown (then a target in darkness is concealed unless
    /// `darkvision` is `"unlimited"`).
    #[serde(default)]
    pub distance: Option<f64>,
    /// How far the observer sees in darkness: scene units `>= 0`, or
    /// `"unlimited"`.
    pub darkvision: Darkvision,
}

/// The `concealedByDarkness` export: reads the query
/// `{"targetInDarkness": bool, "observers": [{"distance"?: number | null,
/// "darkvision": number | "unlimited"}]}` (`what` names it in errors) and
/// answers B5 for each observer, in order (`[true, false]`), deciding as it
/// reads. Its schema is `DarknessQuery` (feature `schema`).
///
/// Errors: `invalid_input` naming the field: `query.targetInDarkness` not
/// a boolean, `query.observers[2].distance` negative or not a number,
/// `query.observers[0].darkvision` neither a number >= 0 nor
/// `"unlimited"`, a missing field, an unknown field
/// (`query.observers[1].range`).
// `#[inline]`: compiled in the binding crate that calls it, beside the
// argument readers, so a binary holds one copy of the serde code they share.
#[inline]
pub fn concealed_by_darkness_answer(what: &str, value: &Value) -> Result<Value, Error> {
    const DISTANCE: &str = "expected a number >= 0 (scene units) or null";
    const DARKVISION: &str = "expected a number >= 0 (scene units) or \"unlimited\"";
    let query = object(value, &["targetInDarkness", "observers"])
        .map_err(|(key, message)| invalid(what, None, key, message))?;
    let Some(&Value::Bool(target_in_darkness)) = query.get("targetInDarkness") else {
        return Err(invalid(
            what,
            None,
            "targetInDarkness",
            "expected a boolean",
        ));
    };
    let Some(Value::Array(list)) = query.get("observers") else {
        return Err(invalid(what, None, "observers", "expected an array"));
    };
    let mut answer = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let item = object(item, &["distance", "darkvision"])
            .map_err(|(key, message)| invalid(what, Some(i), key, message))?;
        let distance = match item.get("distance") {
            None | Some(Value::Null) => None,
            Some(value) => {
                Some(range(value).ok_or_else(|| invalid(what, Some(i), "distance", DISTANCE))?)
            }
        };
        let darkvision = match item.get("darkvision") {
            Some(Value::String(word)) if word == "unlimited" => Darkvision::Unlimited,
            other => Darkvision::Range(
                other
                    .and_then(range)
                    .ok_or_else(|| invalid(what, Some(i), "darkvision", DARKVISION))?,
            ),
        };
        answer.push(Value::Bool(concealed_by_darkness(
            target_in_darkness,
            distance,
            darkvision,
        )));
    }
    Ok(Value::Array(answer))
}

/// `value` as an object with no key but `keys`; else the key to name
/// (`""` for the value itself) and the message.
fn object<'a>(
    value: &'a Value,
    keys: &[&str],
) -> Result<&'a Map<String, Value>, (&'a str, &'static str)> {
    let Value::Object(object) = value else {
        return Err(("", "expected an object"));
    };
    match object.keys().find(|key| !keys.contains(&key.as_str())) {
        Some(key) => Err((key, "unknown field")),
        None => Ok(object),
    }
}

/// A finite number `>= 0`.
fn range(value: &Value) -> Option<f64> {
    value
        .as_f64()
        .filter(|number| number.is_finite() && *number >= 0.0)
}

/// `invalid_input` naming `what[.observers[i]][.key]`.
fn invalid(what: &str, observer: Option<usize>, key: &str, message: &str) -> Error {
    let observer = observer.map_or(String::new(), |i| format!(".observers[{i}]"));
    let dot = if key.is_empty() { "" } else { "." };
    Error::InvalidInput {
        field: format!("{what}{observer}{dot}{key}"),
        message: message.to_owned(),
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for Darkvision {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Darkvision".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "How far an observer sees in darkness, in scene distance units (>= 0; 0: it needs light), or \"unlimited\" (Foundry's null range, JavaScript's Infinity).",
            "anyOf": [
                { "type": "number", "minimum": 0 },
                { "type": "string", "const": "unlimited" }
            ]
        })
    }
}
