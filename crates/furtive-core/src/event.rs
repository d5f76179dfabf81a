//! Everything the rules react to.
//!
//! JSON shape: an object with a `type` tag in camelCase and camelCase fields,
//! e.g. `{"type":"perceptionRolled","hider":"h","observer":"o","total":17}`.

use serde::{Deserialize, Serialize};

use crate::tagged::tagged_enum;

use crate::state::{Creature, HitZone, Modifiers, TokenId};

/// What an observer sees of a hider right now (O2, O4, O5, O13).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewEntry {
    pub observer: TokenId,
    /// Line of sight and no concealment, centre to centre.
    pub clear_view: bool,
    /// Distance in scene units (for enhanced-sense ranges, O13), 0..=1e9.
    #[serde(default, serialize_with = "whole_as_integer")]
    pub distance: Option<f64>,
}

/// Writes a whole distance as an integer (`5`, not `5.0`): the same JSON
/// number, without formatting a float.
fn whole_as_integer<S: serde::Serializer>(
    distance: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match *distance {
        Some(whole) if whole.fract() == 0.0 && whole.abs() <= 1e15 => {
            serializer.serialize_i64(whole as i64)
        }
        other => other.serialize(serializer),
    }
}

tagged_enum! {
tag = "type", by_name = EventByName, deny_unknown_fields;
/// An event for [`crate::apply`].
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Add a creature, or replace the data of a known one (token created,
    /// duplicated or its actor changed). Pairs are kept.
    UpsertCreature { creature: Creature },

    /// The hider makes a stealth roll: it enters stealth, or rolls again.
    ///
    /// `percentile` (P1, P2, P4, P9): `roll` is the d100 (1..=100).
    /// `modifiers`, when given, become the hider's active situation and free
    /// modifiers; without them the roll keeps the hider's situation (P4:
    /// the modifiers a `modifiersChanged` asked for, else those of the roll
    /// in force, else none). `already_perceived` is decided afresh at each
    /// roll: added automatically when a non-ally perceives the hider, and in
    /// combat on a first roll as soon as a non-ally is present (P9).
    /// `sprinting` adds the `sprint` modifier.
    ///
    /// `opposed` (O1, O2, O7, O12, O13): `roll` is the Stealth check total
    /// (-1000..=1000); refused while `sprinting` (O12) and, when zero-length
    /// movement is disabled, unless `moved` (O1); `precautions` names the
    /// enhanced senses countered (at most 32 names of at most 256 characters); `view` gives each observer's clear view now.
    EnterStealth {
        hider: TokenId,
        roll: i64,
        #[serde(default)]
        modifiers: Option<Modifiers>,
        #[serde(default)]
        moved: bool,
        #[serde(default)]
        sprinting: bool,
        #[serde(default)]
        precautions: Vec<String>,
        #[serde(default)]
        view: Vec<ViewEntry>,
    },

    /// Clear view changed between the hider and some observers: a token
    /// moved, a door opened, light changed (O4, O5, O13). `moved` says the
    /// hider itself moved (O5). `view` names each observer once (as
    /// `enterStealth`'s does): an observer named again is refused,
    /// `duplicate_token` naming `view[i].observer`.
    ViewChanged {
        hider: TokenId,
        #[serde(default)]
        moved: bool,
        view: Vec<ViewEntry>,
    },

    /// The answer to a `perceptionCheck` request (O4, O9): the check total.
    PerceptionRolled {
        hider: TokenId,
        observer: TokenId,
        total: i64,
    },

    /// O3: `observer`, who perceives `hider`, points it out to `allies`.
    PointOut {
        hider: TokenId,
        observer: TokenId,
        allies: Vec<TokenId>,
    },

    /// `attacker` makes one attack instance against `targets` (several for
    /// an area effect or a multi-target spell). The older single `target`
    /// field is still read, for callers written before `targets`; give one
    /// or the other, not both.
    ///
    /// `percentile`: a hider attacking a target that does not perceive it
    /// makes a surprise, target by target (P6); `hit_zone` may be chosen on
    /// a surprise's first attack (P7); any attack from hiding reveals the
    /// attacker at the end of its turn (P9).
    /// `opposed`: a noisy instance costs 5 per hit, an area effect or a
    /// multi-target instance counts once (O8); each target that does not
    /// perceive the attacker checks (O9).
    Attack {
        attacker: TokenId,
        /// The targets, 1..=1000 distinct tokens other than the attacker.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<TokenId>,
        /// The single target of callers written before `targets`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<TokenId>,
        #[serde(default)]
        noisy: bool,
        /// Hits of this attack instance, 0..=100 (default 1).
        #[serde(default = "one")]
        hits: u32,
        #[serde(default)]
        area: bool,
        #[serde(default)]
        hit_zone: Option<HitZone>,
    },

    /// O11: `target` (a hider) took Health or Stamina damage from `attacker`
    /// in `hits` hits (1..=100).
    DamageTaken {
        target: TokenId,
        attacker: TokenId,
        #[serde(default = "one")]
        hits: u32,
    },

    /// The combat turn of `combatant` starts (O7 fresh roll, P9 one roll a turn).
    TurnStart {
        combatant: TokenId,
        #[serde(default)]
        round: Option<u32>,
    },
    /// The combat turn of `combatant` ends (P6 expiry, P9 reveal, O5 exposure).
    TurnEnd { combatant: TokenId },
    /// A combat round ends.
    RoundEnd {
        #[serde(default)]
        round: Option<u32>,
    },
    /// The combat ends: surprises expire, turn counters reset.
    CombatEnd {},

    /// P4: the situation or environment changed for `hider`: the score is
    /// stale and a new roll is requested; the old score applies until then.
    ModifiersChanged {
        hider: TokenId,
        modifiers: Modifiers,
    },

    /// The token sprints: O12 ends its stealth attempt; in `percentile` the
    /// `sprint` modifier becomes active (P2, P4).
    Sprint { token: TokenId },

    /// The hider stops hiding: perceived by everyone, the attempt ends.
    StopHiding { hider: TokenId },

    /// The token left the scene: it and every pair naming it are removed.
    TokenRemoved { token: TokenId },

    /// The GM forces a pair to perceived or unperceived.
    GmOverride {
        hider: TokenId,
        observer: TokenId,
        perceived: bool,
    },
}
}

fn one() -> u32 {
    1
}

/// The targets of an `attack` event: `target` (the older field) or `targets`.
pub(crate) fn attack_targets<'a>(
    target: &'a Option<TokenId>,
    targets: &'a [TokenId],
) -> Vec<&'a str> {
    target
        .iter()
        .map(TokenId::as_str)
        .chain(targets.iter().map(TokenId::as_str))
        .collect()
}

impl Event {
    /// The event's `type` tag, e.g. `"enterStealth"`.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::UpsertCreature { .. } => "upsertCreature",
            Event::EnterStealth { .. } => "enterStealth",
            Event::ViewChanged { .. } => "viewChanged",
            Event::PerceptionRolled { .. } => "perceptionRolled",
            Event::PointOut { .. } => "pointOut",
            Event::Attack { .. } => "attack",
            Event::DamageTaken { .. } => "damageTaken",
            Event::TurnStart { .. } => "turnStart",
            Event::TurnEnd { .. } => "turnEnd",
            Event::RoundEnd { .. } => "roundEnd",
            Event::CombatEnd {} => "combatEnd",
            Event::ModifiersChanged { .. } => "modifiersChanged",
            Event::Sprint { .. } => "sprint",
            Event::StopHiding { .. } => "stopHiding",
            Event::TokenRemoved { .. } => "tokenRemoved",
            Event::GmOverride { .. } => "gmOverride",
        }
    }
}
