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

/// The side no creature is allied on: neutral creatures have no ally.
pub const NEUTRAL: &str = "neutral";

/// Whether a creature on `side` and a distinct creature on `other` are
/// allies: the same side, neither empty nor [`NEUTRAL`]. Sides are compared
/// exactly (case and spaces count). Sources: O3, P6, P9.
pub fn sides_allied(side: &str, other: &str) -> bool {
    !side.is_empty() && side != NEUTRAL && side == other
}

/// The `alliedSides` query: one side and the sides to compare it with.
/// JSON: `{"side": string, "sides": string[]}`.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AlliedSidesQuery {
    /// The side of one creature (the Point out observer): any string; the
    /// empty string and `"neutral"` have no ally.
    pub side: String,
    /// The sides of the other creatures, each distinct from the first; the
    /// answer lists one boolean per entry, in order.
    pub sides: Vec<String>,
}

impl AlliedSidesQuery {
    /// For each entry of `sides` in order, whether a creature on `side` and
    /// a distinct creature on that side are allies ([`sides_allied`]; O3,
    /// P6, P9): `{"side": "party", "sides": ["party", "hostile", ""]}`
    /// answers `[true, false, false]`. The `alliedSides` export.
    pub fn answer(&self) -> Vec<bool> {
        self.sides
            .iter()
            .map(|other| sides_allied(&self.side, other))
            .collect()
    }
}
