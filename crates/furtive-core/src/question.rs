//! The questions the queries answer (their arguments) and the answers
//! that are not a plain [`crate::Decision`]. Shared by [`crate::query`]
//! (the checked public entry points) and the rulesets that answer them.

use serde::{Deserialize, Serialize};

use crate::clause::Clause;
use crate::message::Message;
use crate::state::TokenId;

/// `{ observer, hider }`: for [`crate::query::perceives`] and [`crate::query::can_locate`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PairQuery {
    pub observer: TokenId,
    pub hider: TokenId,
}

/// `{ defender, target, attacker }`: may `defender` defend `target` against `attacker` (P6)?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DefenseQuery {
    pub defender: TokenId,
    pub target: TokenId,
    pub attacker: TokenId,
}

/// A knockout attempt (P8). Without `rawDamage` and `d100` it only asks
/// whether the attempt is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnockoutQuery {
    pub attacker: TokenId,
    pub target: TokenId,
    /// The target's head is protected by a helmet.
    #[serde(default)]
    pub helmet: bool,
    /// The attack's raw damage, 0..=100000.
    #[serde(default)]
    pub raw_damage: Option<u32>,
    /// The knockout d100, 1..=100 (no criticals, P11).
    #[serde(default)]
    pub d100: Option<u32>,
}

/// The answer to a [`KnockoutQuery`], with its explanation (B3), which the
/// npm package gives as `en` and `fr` (see [`crate::LogEntry`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KnockoutResult {
    /// P8 allows the attempt.
    pub allowed: bool,
    /// The chance in percent, when the attempt is allowed: the attacker's
    /// base Furtivité.
    pub chance: Option<u32>,
    /// Duration if knocked out, when the attempt is allowed: 1 + floor(Force / 5) minutes.
    pub minutes: Option<u32>,
    /// floor(raw damage / 4), when `rawDamage` was given and the attempt allowed.
    pub damage: Option<u32>,
    /// d100 <= chance, when `d100` was given and the attempt allowed.
    pub knocked_out: Option<bool>,
    /// The clause that decided.
    pub clause: Clause,
    /// Why, in any language of the catalog.
    pub message: Message,
}

/// `{ hider, target, held, visible }`: may `hider` take this object from `target` (P10)?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PickpocketQuery {
    pub hider: TokenId,
    pub target: TokenId,
    /// The target holds the object in hand.
    pub held: bool,
    /// The object can be seen (belt weapon, quiver, potion, purse).
    pub visible: bool,
}

/// `{ attacker, target, aimedAtSpace, area }`: `attacker` attacks the hider `target` (O10).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HiddenAttackQuery {
    pub attacker: TokenId,
    pub target: TokenId,
    /// The attack aims at the hider's actual space.
    #[serde(default)]
    pub aimed_at_space: bool,
    /// An area effect that covers the hider's space.
    #[serde(default)]
    pub area: bool,
}

/// How an attack on a hider is rolled (O10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum AttackMode {
    /// Rolled as usual.
    Normal,
    /// Accuracy rolled with disadvantage.
    Disadvantage,
    /// Misses outright.
    Miss,
}

/// The answer to a [`HiddenAttackQuery`], with its explanation (B3), which
/// the npm package gives as `en` and `fr` (see [`crate::LogEntry`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HiddenAttackResult {
    pub mode: AttackMode,
    /// The clause that decided.
    pub clause: Clause,
    /// Why, in any language of the catalog.
    pub message: Message,
}

crate::message::texts_of_message!(KnockoutResult, HiddenAttackResult);

/// The rendered twins of the answers above, for their JSON Schemas (see
/// `crate::outcome::rendered`).
#[cfg(feature = "schema")]
mod rendered {
    use serde::{Deserialize, Serialize};

    use super::AttackMode;
    use crate::clause::Clause;

    /// The answer to a [`KnockoutQuery`].
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "KnockoutResult")]
    #[serde(rename_all = "camelCase")]
    pub struct KnockoutResult {
        /// P8 allows the attempt.
        pub allowed: bool,
        /// The chance in percent, when the attempt is allowed: the attacker's
        /// base Furtivité.
        pub chance: Option<u32>,
        /// Duration if knocked out, when the attempt is allowed: 1 + floor(Force / 5) minutes.
        pub minutes: Option<u32>,
        /// floor(raw damage / 4), when `rawDamage` was given and the attempt allowed.
        pub damage: Option<u32>,
        /// d100 <= chance, when `d100` was given and the attempt allowed.
        pub knocked_out: Option<bool>,
        /// The clause that decided.
        pub clause: Clause,
        pub en: String,
        pub fr: String,
    }

    /// The answer to a [`HiddenAttackQuery`].
    #[derive(Serialize, Deserialize, schemars::JsonSchema)]
    #[schemars(rename = "HiddenAttackResult")]
    #[serde(rename_all = "camelCase")]
    pub struct HiddenAttackResult {
        pub mode: AttackMode,
        /// The clause that decided.
        pub clause: Clause,
        pub en: String,
        pub fr: String,
    }
}

#[cfg(feature = "schema")]
crate::outcome::schema_as_rendered! {
    KnockoutResult => rendered::KnockoutResult,
    HiddenAttackResult => rendered::HiddenAttackResult,
}
