//! The engine's state: plain serializable data.
//!
//! The state lives in a Foundry scene flag (or in the caller's memory) and
//! survives reloads; the engine keeps nothing between calls. All maps are
//! [`TokenMap`]s (sorted by key, as a `BTreeMap`; `crate::map`) so
//! serialization is ordered and deterministic. JSON field names
//! are camelCase; every optional field has a default, so a state written by
//! hand only needs `version`, `ruleset` and `creatures`.

use serde::{Deserialize, Serialize};

/// The state's maps, keyed by token id, sorted so their JSON is deterministic.
pub type TokenMap<V> = std::collections::BTreeMap<TokenId, V>;

/// The state format this engine reads and writes.
pub const STATE_VERSION: u32 = 2;

/// A token id (Foundry's `TokenDocument.id`, or any unique string outside
/// Foundry).
pub type TokenId = String;

/// Which stealth rules apply. Serialized as `"percentile"` or `"opposed"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Ruleset {
    /// The French d100 system (clauses P1-P11).
    Percentile,
    /// The English opposed-check system (clauses O1-O13).
    Opposed,
}

impl Ruleset {
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Percentile => "percentile",
            Ruleset::Opposed => "opposed",
        }
    }
}

/// Table settings. Every reading marked **setting** in the rules
/// interpretation is a value here, never a code fork.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Settings {
    /// P2 / B3: players see their own stealth score, modifiers and the
    /// numbers in public explanations. Default `false`.
    pub show_numbers_to_players: bool,
    /// O1: a zero-length movement may enter stealth. Default `true`.
    pub allow_zero_length_movement: bool,
    /// B4, `opposed` only: the die the seeded roller uses for Stealth and
    /// Perception checks (check = 1d`check_die` + modifier). Range 2..=1000,
    /// default 20.
    pub check_die: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            show_numbers_to_players: false,
            allow_zero_length_movement: true,
            check_die: 20,
        }
    }
}

/// The three acuities of a creature (`percentile`, P3). A missing acuity counts 0.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Acuities {
    /// Visual acuity, 0..=1000.
    pub visual: u32,
    /// Auditory acuity, 0..=1000.
    pub auditory: u32,
    /// Olfactory acuity, 0..=1000.
    pub olfactory: u32,
}

impl Acuities {
    /// P3: the acuity sum A = visual + auditory + olfactive.
    pub fn sum(&self) -> i64 {
        i64::from(self.visual) + i64::from(self.auditory) + i64::from(self.olfactory)
    }
}

/// An enhanced sense (`opposed`, O13): smell, tremorsense, blindsight...
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnhancedSense {
    /// The sense's name, matched against the hider's precautions
    /// (e.g. `"blindsight"`, `"tremorsense"`, `"smell"`), at most 256 characters.
    pub sense: String,
    /// Range in scene distance units (feet, metres...: whatever the
    /// caller's `distance` uses). 0..=100000.
    pub range: f64,
    /// A targeting sense also gives the exact space (O10 does not apply).
    #[serde(default)]
    pub targeting: bool,
}

/// A creature that may hide or observe: one token.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Creature {
    /// The token id.
    pub id: TokenId,
    /// Display name used in explanations, at most 256 characters.
    #[serde(default)]
    pub name: String,
    /// Allegiance. Creatures with the same side are allies, except that the
    /// side `"neutral"` (and the empty side) is allied with nobody (O3, O11, P6).
    /// At most 256 characters.
    #[serde(default)]
    pub side: String,
    /// `percentile`: effective Furtivité %, bonuses included (P1), 0..=500.
    /// A creature without the skill has 0 (P11).
    #[serde(default)]
    pub stealth_skill: u32,
    /// `percentile`: base Furtivité %, no bonus (P8 knockout), 0..=500.
    /// Defaults to `stealth_skill` when absent.
    #[serde(default)]
    pub base_stealth_skill: Option<u32>,
    /// `percentile`: Force, for the knockout duration (P8), 0..=1000.
    #[serde(default)]
    pub strength: u32,
    /// `percentile`: the three acuities (P3).
    #[serde(default)]
    pub acuities: Acuities,
    /// `opposed`: the Stealth check modifier the seeded roller adds (B4), -1000..=1000.
    #[serde(default)]
    pub stealth_modifier: i64,
    /// `opposed`: the Perception check modifier the seeded roller adds (B4), -1000..=1000.
    #[serde(default)]
    pub perception_modifier: i64,
    /// `opposed`: enhanced senses (O13).
    #[serde(default)]
    pub enhanced_senses: Vec<EnhancedSense>,
}

impl Creature {
    /// A creature with only an id and defaults everywhere else.
    pub fn new(id: impl Into<TokenId>) -> Self {
        Creature {
            id: id.into(),
            ..Creature::default()
        }
    }

    /// The name for explanations: `name`, or the id when the name is empty.
    pub fn label(&self) -> &String {
        if self.name.is_empty() {
            &self.id
        } else {
            &self.name
        }
    }

    /// Whether `other` is an ally: another creature on the same non-empty
    /// side, not `"neutral"` ([`crate::sides::sides_allied`], which the
    /// `alliedSides` export answers too; O3, P6, P9).
    pub fn is_ally_of(&self, other: &Creature) -> bool {
        self.id != other.id && crate::sides::sides_allied(&self.side, &other.side)
    }
}

/// The nine P2 situation modifiers, with their stable ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SituationModifier {
    /// -50: the hider is sprinting.
    Sprint,
    /// -100: the hider is perceived by those it hides from before rolling (P9 adds it automatically).
    AlreadyPerceived,
    /// +50: outside at night or a dark environment.
    Dark,
    /// -50: no shadows and no obstacles to hide behind.
    NoCover,
    /// +50: very cluttered (trees, rocks, furniture).
    Cluttered,
    /// -50: very quiet environment.
    VeryQuiet,
    /// +50: very noisy environment.
    VeryNoisy,
    /// +50: very strong smells in the air.
    StrongSmells,
    /// -50: deserted but for the hider and one other creature.
    Deserted,
}

impl SituationModifier {
    /// All nine, in the order of the rule text.
    pub const ALL: [SituationModifier; 9] = [
        SituationModifier::Sprint,
        SituationModifier::AlreadyPerceived,
        SituationModifier::Dark,
        SituationModifier::NoCover,
        SituationModifier::Cluttered,
        SituationModifier::VeryQuiet,
        SituationModifier::VeryNoisy,
        SituationModifier::StrongSmells,
        SituationModifier::Deserted,
    ];

    /// P2: the modifier's value.
    pub fn value(self) -> i64 {
        match self {
            SituationModifier::Sprint => -50,
            SituationModifier::AlreadyPerceived => -100,
            SituationModifier::Dark => 50,
            SituationModifier::NoCover => -50,
            SituationModifier::Cluttered => 50,
            SituationModifier::VeryQuiet => -50,
            SituationModifier::VeryNoisy => 50,
            SituationModifier::StrongSmells => 50,
            SituationModifier::Deserted => -50,
        }
    }

    /// The stable id, e.g. `"very_quiet"`.
    pub fn id(self) -> &'static str {
        match self {
            SituationModifier::Sprint => "sprint",
            SituationModifier::AlreadyPerceived => "already_perceived",
            SituationModifier::Dark => "dark",
            SituationModifier::NoCover => "no_cover",
            SituationModifier::Cluttered => "cluttered",
            SituationModifier::VeryQuiet => "very_quiet",
            SituationModifier::VeryNoisy => "very_noisy",
            SituationModifier::StrongSmells => "strong_smells",
            SituationModifier::Deserted => "deserted",
        }
    }
}

/// A free GM modifier (P2): any integer with a label.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FreeModifier {
    /// What the GM calls it, shown in explanations, at most 256 characters.
    #[serde(default)]
    pub label: String,
    /// The modifier, -1000..=1000.
    pub value: i64,
}

/// The active modifiers of a percentile stealth roll (P2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Modifiers {
    /// Active situation modifiers (each counts once).
    pub situation: Vec<SituationModifier>,
    /// Free GM modifiers (at most 32).
    pub free: Vec<FreeModifier>,
}

impl Modifiers {
    /// P2: the sum of all active modifiers (duplicates of a situation count once).
    pub fn total(&self) -> i64 {
        let mut seen = Vec::new();
        let mut total = 0;
        for modifier in &self.situation {
            if !seen.contains(modifier) {
                seen.push(*modifier);
                total += modifier.value();
            }
        }
        total + self.free.iter().map(|m| m.value).sum::<i64>()
    }

    /// Same modifiers regardless of order or duplicates.
    pub fn same_as(&self, other: &Modifiers) -> bool {
        let mut a = self.situation.clone();
        let mut b = other.situation.clone();
        a.sort();
        a.dedup();
        b.sort();
        b.dedup();
        a == b && self.free == other.free
    }
}

/// Which observers a penalty applies to (O6).
// Read through its externally tagged twin, as events are (`crate::tagged`):
// serde's derive for an internally tagged enum buffers the object in its
// `Content` type, which nothing else in the Foundry module's wasm needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum PenaltyScope {
    /// Every observer (O8).
    All {},
    /// Every creature on `side` except `attacker` itself: the attacker's
    /// allies (O11). The side is kept so the scope survives the attacker
    /// leaving the scene.
    AlliesOf { attacker: TokenId, side: String },
}

/// [`PenaltyScope`] keyed by its `kind`.
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
enum PenaltyScopeByName {
    All {},
    AlliesOf { attacker: TokenId, side: String },
}

impl<'de> Deserialize<'de> for PenaltyScope {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        use serde_json::Value;
        let mut fields = serde_json::Map::deserialize(deserializer)?;
        let name = match fields.remove("kind") {
            Some(Value::String(name)) => name,
            Some(_) => return Err(D::Error::custom("kind: not a string")),
            None => return Err(D::Error::missing_field("kind")),
        };
        let keyed = Value::Object(serde_json::Map::from_iter([(name, Value::Object(fields))]));
        match PenaltyScopeByName::deserialize(keyed).map_err(D::Error::custom)? {
            PenaltyScopeByName::All {} => Ok(PenaltyScope::All {}),
            PenaltyScopeByName::AlliesOf { attacker, side } => {
                Ok(PenaltyScope::AlliesOf { attacker, side })
            }
        }
    }
}

/// A penalty that lowers the held total (O6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Penalty {
    /// The amount subtracted from the held total (positive).
    pub amount: i64,
    /// Who it applies to.
    pub scope: PenaltyScope,
    /// The clause that imposed it (`O8` or `O11`).
    pub clause: crate::Clause,
}

/// Why a pair is in its current state; serialized as a stable string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum PairReason {
    /// P3: the stealth score beats the acuity sum (unperceived) or not (perceived).
    AcuityComparison,
    /// O2: the observer had clear view at entry.
    WatchedAtEntry,
    /// O2: no clear view at entry: starts unperceived.
    NotInViewAtEntry,
    /// O4 / O9: the stored Perception check decided.
    PerceptionCheck,
    /// O6: a penalty lowered the total to the stored check.
    Penalty,
    /// O5: exposed at the end of the hider's turn.
    Exposure,
    /// O3: an ally pointed the hider out.
    PointedOut,
    /// O13: an uncountered enhanced sense in range.
    EnhancedSense,
    /// P9: the surprise turn ended.
    SurpriseEnded,
    /// P9: the hider attacked from hiding (no surprise) and its turn ended.
    Attacked,
    /// A GM override.
    GmOverride,
}

impl PairReason {
    /// The clause behind this reason.
    pub fn clause(self) -> crate::Clause {
        use crate::Clause;
        match self {
            PairReason::AcuityComparison => Clause::P3,
            PairReason::WatchedAtEntry | PairReason::NotInViewAtEntry => Clause::O2,
            PairReason::PerceptionCheck => Clause::O4,
            PairReason::Penalty => Clause::O6,
            PairReason::Exposure => Clause::O5,
            PairReason::PointedOut => Clause::O3,
            PairReason::EnhancedSense => Clause::O13,
            PairReason::SurpriseEnded | PairReason::Attacked => Clause::P9,
            PairReason::GmOverride => Clause::GM,
        }
    }
}

/// One hider, one observer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Pair {
    /// Whether the observer perceives the hider.
    pub perceived: bool,
    /// Why.
    pub reason: PairReason,
    /// The observer has the hider in clear view (line of sight, no concealment).
    #[serde(default)]
    pub clear_view: bool,
    /// Distance between the two tokens in scene units, when known (O13).
    #[serde(default)]
    pub distance: Option<f64>,
    /// `opposed`: the stored Perception check total (O4), never re-rolled in this attempt
    /// except by O9.
    #[serde(default)]
    pub perception_total: Option<i64>,
    /// `opposed`: a Perception check has been requested and not answered yet.
    #[serde(default)]
    pub check_pending: bool,
    /// `opposed`, O5: the pair has been exposed (clear view and a failed
    /// check, [`Pair::is_exposed`]) since the end of the hider's last turn.
    /// Read and cleared at the end of the hider's turn: a hider that did not
    /// move is revealed to that observer even if the view broke since.
    /// Omitted from JSON when false.
    #[serde(default, skip_serializing_if = "is_false")]
    pub exposed: bool,
}

fn is_false(value: &bool) -> bool {
    !*value
}

impl Pair {
    pub(crate) fn new(perceived: bool, reason: PairReason) -> Self {
        Pair {
            perceived,
            reason,
            clear_view: false,
            distance: None,
            perception_total: None,
            check_pending: false,
            exposed: false,
        }
    }

    /// O5: the observer has the hider in clear view, does not perceive it,
    /// and has failed its check: a check is stored (B1: until the first one
    /// is answered nothing reveals the hider; a pair the GM ruled
    /// unperceived without a check has failed none). The ruleset also
    /// compares the stored check with the effective total (a pair the GM
    /// ruled unperceived may hold one that reached it). Derived from the
    /// pair as it is now; `exposed` remembers it.
    pub fn is_exposed(&self) -> bool {
        self.clear_view && !self.perceived && self.perception_total.is_some()
    }
}

/// Where a hider's attempt stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum HiderPhase {
    /// In a stealth attempt.
    Hiding,
    /// P9: the surprise turn ended and everyone perceives the hider; the
    /// record stays so the next roll carries `already_perceived`.
    Revealed,
}

/// The roll in force of a `percentile` hider (P1, P2, P4, P9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PercentileAttempt {
    /// The d100 of the roll in force (P1), 1..=100.
    pub d100: u32,
    /// The modifiers of the roll in force (P2).
    pub modifiers: Modifiers,
    /// The stealth score in force (P1), -100000..=100000.
    pub score: i64,
    /// P4: the modifiers the pending new roll will use. `Some` means a new
    /// roll has been requested and the old score applies until it arrives
    /// (state version 1 also stored this as `stale`).
    pub pending_modifiers: Option<Modifiers>,
    /// P9 added `already_perceived` to `modifiers` on its own (the caller's
    /// modifiers did not hold it). P4 compares the caller's modifiers
    /// without it, and a new roll request does not carry it: P9 decides
    /// again when that roll arrives. Omitted from JSON when false.
    pub already_perceived_added: bool,
    /// P9: the hider attacked from hiding (surprise or not); everyone
    /// perceives it at the end of its turn, or at the combat end. Omitted
    /// from JSON when false.
    pub attacked: bool,
}

/// The held roll of an `opposed` hider (O1, O6, O13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpposedAttempt {
    /// The held Stealth total (O1), -1000..=1000.
    pub held_total: i64,
    /// Penalties since the held roll (O6).
    pub penalties: Vec<Penalty>,
    /// Enhanced senses countered by precautions taken before the roll (O13):
    /// at most 32 sense names of at most 256 characters each.
    pub precautions: Vec<String>,
}

/// A hider's roll, by ruleset: each ruleset keeps only its own fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    Percentile(PercentileAttempt),
    Opposed(OpposedAttempt),
}

impl Attempt {
    /// The ruleset this attempt belongs to.
    pub fn ruleset(&self) -> Ruleset {
        match self {
            Attempt::Percentile(_) => Ruleset::Percentile,
            Attempt::Opposed(_) => Ruleset::Opposed,
        }
    }

    /// The percentile roll, if this is one.
    pub fn percentile(&self) -> Option<&PercentileAttempt> {
        match self {
            Attempt::Percentile(a) => Some(a),
            Attempt::Opposed(_) => None,
        }
    }

    /// The opposed roll, if this is one.
    pub fn opposed(&self) -> Option<&OpposedAttempt> {
        match self {
            Attempt::Opposed(a) => Some(a),
            Attempt::Percentile(_) => None,
        }
    }

    /// The percentile roll, mutable, if this is one.
    pub fn percentile_mut(&mut self) -> Option<&mut PercentileAttempt> {
        match self {
            Attempt::Percentile(a) => Some(a),
            Attempt::Opposed(_) => None,
        }
    }

    /// The opposed roll, mutable, if this is one.
    pub fn opposed_mut(&mut self) -> Option<&mut OpposedAttempt> {
        match self {
            Attempt::Opposed(a) => Some(a),
            Attempt::Percentile(_) => None,
        }
    }
}

/// A token attempting stealth, with its per-observer pairs.
///
/// JSON (state version 2): the attempt's fields sit next to `phase`,
/// `movedThisTurn` and `pairs`, and only those of the state's ruleset:
/// - `percentile`: `d100`, `modifiers`, `score`, `pendingModifiers`
///   (`null` unless a P4 roll is pending), `alreadyPerceivedAdded` (omitted
///   when false);
/// - `opposed`: `heldTotal`, `penalties`, `precautions`.
#[derive(Debug, Clone, PartialEq)]
pub struct Hider {
    pub phase: HiderPhase,
    /// The roll in force.
    pub attempt: Attempt,
    /// The hider moved during its current turn (O5).
    pub moved_this_turn: bool,
    /// One entry per observer, by observer token id.
    pub pairs: TokenMap<Pair>,
}

impl Hider {
    pub(crate) fn new(attempt: Attempt) -> Self {
        Hider {
            phase: HiderPhase::Hiding,
            attempt,
            moved_this_turn: false,
            pairs: TokenMap::new(),
        }
    }

    /// `percentile`: the stealth score in force (P1); `None` in `opposed`.
    pub fn score(&self) -> Option<i64> {
        self.attempt.percentile().map(|a| a.score)
    }

    /// `percentile`: the d100 in force (P1); `None` in `opposed`.
    pub fn d100(&self) -> Option<u32> {
        self.attempt.percentile().map(|a| a.d100)
    }

    /// `percentile`: the modifiers of the roll in force (P2); `None` in `opposed`.
    pub fn modifiers(&self) -> Option<&Modifiers> {
        self.attempt.percentile().map(|a| &a.modifiers)
    }

    /// `percentile`: the modifiers of the pending P4 roll, if one is pending.
    pub fn pending_modifiers(&self) -> Option<&Modifiers> {
        self.attempt
            .percentile()
            .and_then(|a| a.pending_modifiers.as_ref())
    }

    /// `opposed`: the held Stealth total (O1); `None` in `percentile`.
    pub fn held_total(&self) -> Option<i64> {
        self.attempt.opposed().map(|a| a.held_total)
    }

    /// `opposed`: the penalties since the held roll (O6); empty in `percentile`.
    pub fn penalties(&self) -> &[Penalty] {
        self.attempt
            .opposed()
            .map_or(&[], |a| a.penalties.as_slice())
    }

    /// `opposed`: the precautions taken before the roll (O13); empty in `percentile`.
    pub fn precautions(&self) -> &[String] {
        self.attempt
            .opposed()
            .map_or(&[], |a| a.precautions.as_slice())
    }
}

impl Serialize for Hider {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("phase", &self.phase)?;
        match &self.attempt {
            Attempt::Percentile(a) => {
                map.serialize_entry("d100", &a.d100)?;
                map.serialize_entry("modifiers", &a.modifiers)?;
                map.serialize_entry("score", &a.score)?;
                map.serialize_entry("pendingModifiers", &a.pending_modifiers)?;
                if a.already_perceived_added {
                    map.serialize_entry("alreadyPerceivedAdded", &true)?;
                }
                if a.attacked {
                    map.serialize_entry("attacked", &true)?;
                }
            }
            Attempt::Opposed(a) => {
                map.serialize_entry("heldTotal", &a.held_total)?;
                map.serialize_entry("penalties", &a.penalties)?;
                map.serialize_entry("precautions", &a.precautions)?;
            }
        }
        map.serialize_entry("movedThisTurn", &self.moved_this_turn)?;
        map.serialize_entry("pairs", &&self.pairs)?;
        map.end()
    }
}

/// A hider as JSON carries it, before the state's ruleset says which
/// fields it may have (see [`Hider`]).
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename = "Hider", rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct HiderRepr {
    phase: HiderPhase,
    #[serde(default)]
    d100: Option<u32>,
    #[serde(default)]
    modifiers: Option<Modifiers>,
    #[serde(default)]
    score: Option<i64>,
    #[serde(default)]
    pending_modifiers: Option<Option<Modifiers>>,
    #[serde(default)]
    already_perceived_added: Option<bool>,
    #[serde(default)]
    attacked: Option<bool>,
    #[serde(default)]
    held_total: Option<i64>,
    #[serde(default)]
    penalties: Option<Vec<Penalty>>,
    #[serde(default)]
    precautions: Option<Vec<String>>,
    #[serde(default)]
    moved_this_turn: bool,
    #[serde(default)]
    pairs: TokenMap<Pair>,
}

impl HiderRepr {
    /// The typed hider for `ruleset`. Errors name the field under `field`
    /// (`hiders.spy.heldTotal`): a field of the other ruleset, or a missing roll.
    pub(crate) fn into_hider(self, ruleset: Ruleset, field: &str) -> Result<Hider, crate::Error> {
        let foreign = |name: &str| crate::Error::InvalidInput {
            field: format!("{field}.{name}"),
            message: format!("not a field of a `{}` hider", ruleset.name()),
        };
        let missing = |name: &str| crate::Error::InvalidInput {
            field: format!("{field}.{name}"),
            message: format!("a `{}` hider needs its roll", ruleset.name()),
        };
        let attempt = match ruleset {
            Ruleset::Percentile => {
                if self.held_total.is_some() {
                    return Err(foreign("heldTotal"));
                }
                if self.penalties.is_some() {
                    return Err(foreign("penalties"));
                }
                if self.precautions.is_some() {
                    return Err(foreign("precautions"));
                }
                Attempt::Percentile(PercentileAttempt {
                    d100: self.d100.ok_or_else(|| missing("d100"))?,
                    modifiers: self.modifiers.unwrap_or_default(),
                    score: self.score.ok_or_else(|| missing("score"))?,
                    pending_modifiers: self.pending_modifiers.flatten(),
                    already_perceived_added: self.already_perceived_added.unwrap_or(false),
                    attacked: self.attacked.unwrap_or(false),
                })
            }
            Ruleset::Opposed => {
                for (name, present) in [
                    ("d100", self.d100.is_some()),
                    ("modifiers", self.modifiers.is_some()),
                    ("score", self.score.is_some()),
                    ("pendingModifiers", self.pending_modifiers.is_some()),
                    (
                        "alreadyPerceivedAdded",
                        self.already_perceived_added.is_some(),
                    ),
                ] {
                    if present {
                        return Err(foreign(name));
                    }
                }
                Attempt::Opposed(OpposedAttempt {
                    held_total: self.held_total.ok_or_else(|| missing("heldTotal"))?,
                    penalties: self.penalties.unwrap_or_default(),
                    precautions: self.precautions.unwrap_or_default(),
                })
            }
        };
        Ok(Hider {
            phase: self.phase,
            attempt,
            moved_this_turn: self.moved_this_turn,
            pairs: self.pairs,
        })
    }
}

/// The body part a surprise attacker chooses (P7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum HitZone {
    Head,
    Trunk,
    Arm,
    Leg,
}

/// A surprise in progress (P6): `target` is defenseless against `attacker`
/// until the end of the attacker's current turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Surprise {
    pub attacker: TokenId,
    pub target: TokenId,
    /// Attacks made by the attacker on the target during the surprise.
    pub attacks: u32,
    /// The zone chosen on the first attack (P7), if any.
    #[serde(default)]
    pub first_hit_zone: Option<HitZone>,
}

/// Combat bookkeeping (turns drive P6, P9, O5, O7).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Combat {
    /// A combat is running.
    pub active: bool,
    /// The current round, from 1 (0 outside combat).
    pub round: u32,
    /// The token whose turn it is.
    pub turn: Option<TokenId>,
    /// Tokens that made a stealth roll during the current turn (P9, O7: one a turn).
    pub rolled_this_turn: Vec<TokenId>,
}

/// The whole engine state (format version 2, see `docs/state.md`).
///
/// Reading JSON: [`crate::migrate::read_state`] also accepts version 1 and
/// migrates it; the `Deserialize` impl reads version 2 only.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", try_from = "StateRepr")]
pub struct State {
    /// Must equal [`STATE_VERSION`].
    pub version: u32,
    /// Successful `apply`/`applyAll` calls since the state was created
    /// (0..=2^53-1, `Number.MAX_SAFE_INTEGER`, where it stops; a state
    /// above is refused with `out_of_range` naming `revision`); a
    /// caller holding two snapshots keeps the higher one.
    pub revision: u64,
    pub ruleset: Ruleset,
    pub settings: Settings,
    /// Every creature the engine knows, by token id.
    pub creatures: TokenMap<Creature>,
    /// Creatures attempting stealth, by token id.
    pub hiders: TokenMap<Hider>,
    /// Surprises in progress (P6).
    pub surprises: Vec<Surprise>,
    pub combat: Combat,
}

/// A state as JSON carries it: hiders not yet typed by the ruleset.
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename = "State", rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct StateRepr {
    pub version: u32,
    #[serde(default)]
    pub revision: u64,
    pub ruleset: Ruleset,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub creatures: TokenMap<Creature>,
    #[serde(default)]
    pub hiders: TokenMap<HiderRepr>,
    #[serde(default)]
    pub surprises: Vec<Surprise>,
    #[serde(default)]
    pub combat: Combat,
}

impl TryFrom<StateRepr> for State {
    type Error = crate::Error;

    /// Types the hiders by the state's ruleset. The version is checked by
    /// the validation, not here.
    fn try_from(repr: StateRepr) -> Result<State, crate::Error> {
        let ruleset = repr.ruleset;
        let mut hiders = TokenMap::new();
        for (id, hider) in repr.hiders {
            let typed = hider.into_hider(ruleset, &format!("hiders.{id}"))?;
            // In key order: appended, never out of place.
            let _ = hiders.insert(id, typed);
        }
        Ok(State {
            version: repr.version,
            revision: repr.revision,
            ruleset,
            settings: repr.settings,
            creatures: repr.creatures,
            hiders,
            surprises: repr.surprises,
            combat: repr.combat,
        })
    }
}

/// What [`crate::create_state`] takes: a ruleset, its settings and the creatures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Config {
    pub ruleset: Ruleset,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub creatures: Vec<Creature>,
}

impl State {
    /// Whether `observer` perceives `hider`. A token that is not hiding is
    /// perceived by everyone; a known observer without a pair perceives; an
    /// observer the engine does not know perceives no hider (B1).
    pub fn perceives(&self, observer: &str, hider: &str) -> bool {
        match self.hiders.get(hider) {
            Some(h) if h.phase == HiderPhase::Hiding => {
                // B1: an observer the engine does not know perceives no hider.
                self.creatures.contains_key(observer)
                    && h.pairs.get(observer).is_none_or(|pair| pair.perceived)
            }
            _ => true,
        }
    }

    /// The record of a token that is hiding, or `not_hiding`.
    pub fn hiding(&self, hider: &str) -> Result<&Hider, crate::Error> {
        match self.hiders.get(hider) {
            Some(record) if record.phase == HiderPhase::Hiding => Ok(record),
            _ => Err(crate::Error::NotHiding {
                id: hider.to_owned(),
            }),
        }
    }

    /// The creature with this id, or `UnknownToken` naming `field`.
    pub fn creature(&self, field: &str, id: &str) -> Result<&Creature, crate::Error> {
        self.creatures
            .get(id)
            .ok_or_else(|| crate::Error::unknown(field, id))
    }

    /// Whether `a` and `b` are allies (see [`Creature::is_ally_of`]).
    pub fn allied(&self, a: &str, b: &str) -> bool {
        match (self.creatures.get(a), self.creatures.get(b)) {
            (Some(x), Some(y)) => x.is_ally_of(y),
            _ => false,
        }
    }

    /// The target is defenseless against the attacker (P6).
    pub fn surprise(&self, attacker: &str, target: &str) -> Option<&Surprise> {
        self.surprises
            .iter()
            .find(|s| s.attacker == attacker && s.target == target)
    }
}
