//! Who is an ally, decided once for every caller: the engine's
//! [`Creature::is_ally_of`](crate::state::Creature::is_ally_of) (O3 point
//! out tells allies only, P6 an ally's defense, P9's -100 when a perceiving
//! non-ally is in the fight) and the `alliedSides` export, which the Foundry
//! module asks with the sides it reads from Foundry's data (its players'
//! clients have the wasm but no state, so the question takes sides, not
//! creatures).
//!
//! Two distinct creatures are allies when their sides are equal and neither
//! empty nor `"neutral"` (`shared/rules-interpretation.md`, O3, P6, P9; see
//! `docs/rules.md`).

use serde_json::Value;

use crate::error::Error;

/// The side no creature is allied on: neutral creatures have no ally.
pub const NEUTRAL: &str = "neutral";

/// Whether a creature on `side` and a distinct creature on `other` are
/// allies: the same side, neither empty nor [`NEUTRAL`]. Sides are compared
/// exactly (case and spaces count). Sources: O3, P6, P9.
pub fn sides_allied(side: &str, other: &str) -> bool {
    !side.is_empty() && side != NEUTRAL && side == other
}

/// The `alliedSides` query: one side and the sides to compare it with.
/// JSON: `{"side": string, "sides": string[]}`. The shape
/// [`allied_sides_answer`] reads, which reads it by hand; this type exists
/// for its JSON Schema (feature `schema`), which types the export
/// (`npm/types.d.ts`).
#[cfg(feature = "schema")]
#[derive(Debug, Clone, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AlliedSidesQuery {
    /// The side of one creature (the Point out observer): any string; the
    /// empty string and `"neutral"` have no ally.
    pub side: String,
    /// The sides of the other creatures, each distinct from the first; the
    /// answer lists one boolean per entry, in order.
    pub sides: Vec<String>,
}

/// The `alliedSides` export: reads the query
/// `{"side": string, "sides": string[]}` (`what` names it in errors) and
/// answers, for each entry of `sides` in order, whether a creature on
/// `side` and a distinct creature on that side are allies
/// ([`sides_allied`]; O3, P6, P9): `{"side": "party", "sides": ["party",
/// "hostile", ""]}` answers `[true, false, false]`. Its schema is
/// `AlliedSidesQuery` (feature `schema`).
///
/// Errors: `invalid_input` naming the field: `query` not an object,
/// `query.side` missing or not a string, `query.sides` missing or not an
/// array, `query.sides[2]` not a string, an unknown field (`query.extra`).
pub fn allied_sides_answer(what: &str, value: &Value) -> Result<Value, Error> {
    const SIDE: &str = "expected a string";
    let query = crate::darkness::object(value, &["side", "sides"])
        .map_err(|(key, message)| invalid(what, key, message))?;
    let Some(Value::String(side)) = query.get("side") else {
        return Err(invalid(what, "side", SIDE));
    };
    let Some(Value::Array(list)) = query.get("sides") else {
        return Err(invalid(what, "sides", "expected an array of strings"));
    };
    let mut answer = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let Value::String(other) = item else {
            return Err(invalid(what, &format!("sides[{i}]"), SIDE));
        };
        answer.push(Value::Bool(sides_allied(side, other)));
    }
    Ok(Value::Array(answer))
}

/// `invalid_input` naming `what[.key]`.
fn invalid(what: &str, key: &str, message: &str) -> Error {
    let dot = if key.is_empty() { "" } else { "." };
    Error::InvalidInput {
        field: format!("{what}{dot}{key}"),
        message: message.to_owned(),
    }
}
