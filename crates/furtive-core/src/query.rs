//! Questions about a state that change nothing: who perceives whom, who may
//! locate, defend, knock out, pick a pocket, and how an attack on a hidden
//! creature is rolled.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::outcome::Decision;
use crate::percentile::zone_names;
use crate::state::{HitZone, PairReason, Ruleset, State, TokenId};
use crate::{engine, opposed};

/// `{ observer, hider }`: for [`perceives`] and [`can_locate`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PairQuery {
    pub observer: TokenId,
    pub hider: TokenId,
}

/// `{ defender, target, attacker }`: may `defender` defend `target` against `attacker` (P6)?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DefenseQuery {
    pub defender: TokenId,
    pub target: TokenId,
    pub attacker: TokenId,
}

/// A knockout attempt (P8). Without `rawDamage` and `d100` it only asks
/// whether the attempt is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

/// The answer to a [`KnockoutQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KnockoutResult {
    /// P8 allows the attempt.
    pub allowed: bool,
    /// The chance in percent: the attacker's base Furtivité.
    pub chance: u32,
    /// Duration if knocked out: 1 + floor(Force / 5) minutes.
    pub minutes: u32,
    /// floor(raw damage / 4), when `rawDamage` was given and the attempt allowed.
    pub damage: Option<u32>,
    /// d100 <= chance, when `d100` was given and the attempt allowed.
    pub knocked_out: Option<bool>,
    pub clause: String,
    pub en: String,
    pub fr: String,
}

/// `{ hider, target, held, visible }`: may `hider` take this object from `target` (P10)?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
#[serde(rename_all = "camelCase")]
pub enum AttackMode {
    /// Rolled as usual.
    Normal,
    /// Accuracy rolled with disadvantage.
    Disadvantage,
    /// Misses outright.
    Miss,
}

/// The answer to a [`HiddenAttackQuery`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HiddenAttackResult {
    pub mode: AttackMode,
    pub clause: String,
    pub en: String,
    pub fr: String,
}

/// B1/B2: for every observer, the hiders it does not perceive:
/// `{ observerTokenId: [hiderTokenId, ...] }`, observers and hiders in id
/// order, observers that perceive everyone left out. This is the lookup the
/// Foundry module publishes after each state change; its detection-mode
/// hook answers from it without calling the engine.
pub fn hidden_from(state: &State) -> Result<BTreeMap<TokenId, Vec<TokenId>>, Error> {
    engine::validate_state(state)?;
    Ok(hidden_from_in(state))
}

/// [`hidden_from`] on a state already validated.
pub(crate) fn hidden_from_in(state: &State) -> BTreeMap<TokenId, Vec<TokenId>> {
    let mut lookup: BTreeMap<TokenId, Vec<TokenId>> = BTreeMap::new();
    for hider in state.hiders.keys() {
        for observer in state.creatures.keys() {
            if observer != hider && !state.perceives(observer, hider) {
                lookup
                    .entry(observer.clone())
                    .or_default()
                    .push(hider.clone());
            }
        }
    }
    lookup
}

fn decision(allowed: bool, clause: &str, en: String, fr: String) -> Decision {
    Decision {
        allowed,
        clause: clause.to_owned(),
        en,
        fr,
    }
}

fn require(state: &State, ruleset: Ruleset, what: &str) -> Result<(), Error> {
    if state.ruleset != ruleset {
        return Err(Error::WrongRuleset {
            what: what.to_owned(),
            ruleset: state.ruleset.name().to_owned(),
        });
    }
    Ok(())
}

/// Does `observer` perceive `hider`? (P3 / O2-O13 / B2: a token that is not
/// hiding is perceived.) Errors: `unknown_token`, `unsupported_version`.
pub fn perceives(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    engine::validate_state(state)?;
    perceives_in(state, query)
}

/// [`perceives`] on a state already validated.
pub(crate) fn perceives_in(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    state.creature("observer", &query.observer)?;
    state.creature("hider", &query.hider)?;
    let o = engine::label(state, &query.observer);
    let h = engine::label(state, &query.hider);
    let reason = state
        .hiders
        .get(&query.hider)
        .and_then(|r| r.pairs.get(&query.observer))
        .map(|p| p.reason.clause())
        .unwrap_or("B3");
    Ok(if state.perceives(&query.observer, &query.hider) {
        decision(
            true,
            reason,
            format!("{o} perceives {h}."),
            format!("{o} perçoit {h}."),
        )
    } else {
        decision(
            false,
            reason,
            format!("{o} does not perceive {h}."),
            format!("{o} ne perçoit pas {h}."),
        )
    })
}

/// P5 (`percentile`): an observer that does not perceive the hider may not
/// make acuity rolls to locate it. Errors: `wrong_ruleset` in `opposed`.
pub fn can_locate(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    engine::validate_state(state)?;
    can_locate_in(state, query)
}

/// [`can_locate`] on a state already validated.
pub(crate) fn can_locate_in(state: &State, query: &PairQuery) -> Result<Decision, Error> {
    require(state, Ruleset::Percentile, "canLocate")?;
    state.creature("observer", &query.observer)?;
    state.creature("hider", &query.hider)?;
    let o = engine::label(state, &query.observer);
    let h = engine::label(state, &query.hider);
    Ok(if state.perceives(&query.observer, &query.hider) {
        decision(
            true,
            "P5",
            format!("{o} perceives {h} and may roll acuities to locate it (P5)."),
            format!("{o} perçoit {h} et peut faire des jets d'acuité pour le situer (P5)."),
        )
    } else {
        decision(
            false,
            "P5",
            format!("{o} does not perceive {h}: it may not attempt to locate it (P5)."),
            format!("{o} ne perçoit pas {h} : il ne peut pas tenter de le situer (P5)."),
        )
    })
}

/// P6: may `defender` use a defense for `target` against `attacker`?
/// While the target is defenseless against the attacker, the target may not
/// defend itself and no one else may defend it, except one that itself
/// perceives the attacker. In `opposed` there is no surprise rule: always allowed.
pub fn can_defend(state: &State, query: &DefenseQuery) -> Result<Decision, Error> {
    engine::validate_state(state)?;
    can_defend_in(state, query)
}

/// [`can_defend`] on a state already validated.
pub(crate) fn can_defend_in(state: &State, query: &DefenseQuery) -> Result<Decision, Error> {
    state.creature("defender", &query.defender)?;
    state.creature("target", &query.target)?;
    state.creature("attacker", &query.attacker)?;
    let d = engine::label(state, &query.defender);
    let t = engine::label(state, &query.target);
    let a = engine::label(state, &query.attacker);
    if state.surprise(&query.attacker, &query.target).is_none() {
        return Ok(decision(
            true,
            "P6",
            format!("{t} is not surprised by {a}: {d} may defend (P6)."),
            format!("{t} n'est pas surpris par {a} : {d} peut défendre (P6)."),
        ));
    }
    if query.defender == query.target {
        return Ok(decision(false, "P6", format!("{t} is defenseless against {a} this turn: no dodge, block or parry (P6)."), format!("{t} est sans défense face à {a} ce tour-ci : ni esquive, ni blocage, ni parade (P6).")));
    }
    if query.defender == query.attacker {
        return Ok(decision(
            false,
            "P6",
            format!("{d} is the attacker (P6)."),
            format!("{d} est l'attaquant (P6)."),
        ));
    }
    Ok(if state.perceives(&query.defender, &query.attacker) {
        decision(
            true,
            "P6",
            format!("{d} perceives {a} and may defend {t} (P6)."),
            format!("{d} perçoit {a} et peut défendre {t} (P6)."),
        )
    } else {
        decision(
            false,
            "P6",
            format!("{d} does not perceive {a} and cannot defend {t} this turn (P6)."),
            format!("{d} ne perçoit pas {a} et ne peut pas défendre {t} ce tour-ci (P6)."),
        )
    })
}

/// P7 + P8 (`percentile`): the knockout attempt after a surprise attack to
/// the head. Allowed iff the target is defenseless against the attacker,
/// the first attack of the surprise chose the head, no later attack of the
/// surprise has been made (the knockout is part of that first attack), and
/// no helmet. Chance:
/// base Furtivité %; damage: floor(raw / 4); duration: 1 + floor(Force / 5)
/// minutes; no criticals (P11).
/// Errors: `wrong_ruleset`, `unknown_token`, `out_of_range` (d100, rawDamage).
pub fn knockout(state: &State, query: &KnockoutQuery) -> Result<KnockoutResult, Error> {
    engine::validate_state(state)?;
    knockout_in(state, query)
}

/// [`knockout`] on a state already validated.
pub(crate) fn knockout_in(state: &State, query: &KnockoutQuery) -> Result<KnockoutResult, Error> {
    require(state, Ruleset::Percentile, "knockout")?;
    let attacker = state.creature("attacker", &query.attacker)?;
    state.creature("target", &query.target)?;
    if let Some(d100) = query.d100 {
        if !(1..=100).contains(&d100) {
            return Err(Error::out_of_range("d100", d100, 1, 100));
        }
    }
    if let Some(raw) = query.raw_damage {
        if raw > 100_000 {
            return Err(Error::out_of_range("rawDamage", raw, 0, 100_000));
        }
    }
    let chance = attacker
        .base_stealth_skill
        .unwrap_or(attacker.stealth_skill);
    let minutes = 1 + attacker.strength / 5;
    let a = engine::label(state, &query.attacker);
    let t = engine::label(state, &query.target);
    let refuse = |en: String, fr: String| KnockoutResult {
        allowed: false,
        chance,
        minutes,
        damage: None,
        knocked_out: None,
        clause: "P8".into(),
        en,
        fr,
    };
    let Some(surprise) = state.surprise(&query.attacker, &query.target) else {
        return Ok(refuse(
            format!("{t} is not defenseless against {a}: no knockout (P8)."),
            format!("{t} n'est pas sans défense face à {a} : pas d'assommement (P8)."),
        ));
    };
    match surprise.first_hit_zone {
        Some(HitZone::Head) => {}
        Some(zone) => {
            let (en, fr) = zone_names(zone);
            return Ok(refuse(
                format!("The first attack aimed at the {en}, not the head: no knockout (P7, P8)."),
                format!(
                    "La première attaque visait {fr}, pas la tête : pas d'assommement (P7, P8)."
                ),
            ));
        }
        None => {
            return Ok(refuse(
                "The first attack did not choose the head: no knockout (P7, P8).".into(),
                "La première attaque n'a pas visé la tête : pas d'assommement (P7, P8).".into(),
            ));
        }
    }
    // P7/P8: the knockout is part of the first attack of the surprise (the
    // one whose zone the attacker chose); a later attack cannot attempt it.
    if surprise.attacks > 1 {
        return Ok(refuse(
            format!("The knockout belongs to the first attack of the surprise; {a} has attacked {t} again since: no knockout (P7, P8)."),
            format!("L'assommement fait partie de la première attaque de la surprise ; {a} a attaqué {t} de nouveau depuis : pas d'assommement (P7, P8)."),
        ));
    }
    if query.helmet {
        return Ok(refuse(
            format!("{t} wears a helmet: no knockout (P8)."),
            format!("{t} porte un casque : pas d'assommement (P8)."),
        ));
    }
    let damage = query.raw_damage.map(|raw| raw / 4);
    let knocked_out = query.d100.map(|d| d <= chance);
    let (en, fr) = match (knocked_out, query.d100) {
        (Some(true), Some(d)) => (
            format!("Knockout: d100 {d} ≤ base Furtivité {chance}: {t} is knocked out for {minutes} minute(s) (P8)."),
            format!("Assommement : d100 {d} ≤ Furtivité de base {chance} : {t} est assommé pendant {minutes} minute(s) (P8)."),
        ),
        (Some(false), Some(d)) => (
            format!("Knockout: d100 {d} > base Furtivité {chance}: {t} stays conscious (P8)."),
            format!("Assommement : d100 {d} > Furtivité de base {chance} : {t} reste conscient (P8)."),
        ),
        _ => (
            format!("{a} may try to knock {t} out: {chance}% chance, {minutes} minute(s), damage divided by 4 (P8)."),
            format!("{a} peut tenter d'assommer {t} : {chance} % de chances, {minutes} minute(s), dégâts divisés par 4 (P8)."),
        ),
    };
    Ok(KnockoutResult {
        allowed: true,
        chance,
        minutes,
        damage,
        knocked_out,
        clause: "P8".into(),
        en,
        fr,
    })
}

/// P10 (`percentile`): while the target does not perceive the hider, the
/// hider may take one visible object the target is not holding (one minor action).
pub fn can_pickpocket(state: &State, query: &PickpocketQuery) -> Result<Decision, Error> {
    engine::validate_state(state)?;
    can_pickpocket_in(state, query)
}

/// [`can_pickpocket`] on a state already validated.
pub(crate) fn can_pickpocket_in(state: &State, query: &PickpocketQuery) -> Result<Decision, Error> {
    require(state, Ruleset::Percentile, "canPickpocket")?;
    state.creature("hider", &query.hider)?;
    state.creature("target", &query.target)?;
    let h = engine::label(state, &query.hider);
    let t = engine::label(state, &query.target);
    if state.perceives(&query.target, &query.hider) {
        return Ok(decision(
            false,
            "P10",
            format!("{t} perceives {h}: no pickpocketing (P10)."),
            format!("{t} perçoit {h} : pas de vol à la tire (P10)."),
        ));
    }
    if query.held {
        return Ok(decision(
            false,
            "P10",
            format!("{t} holds that object: it cannot be taken (P10)."),
            format!("{t} tient cet objet : il ne peut pas être pris (P10)."),
        ));
    }
    if !query.visible {
        return Ok(decision(
            false,
            "P10",
            "A hidden object cannot be taken this way (P10).".into(),
            "Un objet caché ne peut pas être pris ainsi (P10).".into(),
        ));
    }
    Ok(decision(
        true,
        "P10",
        format!("{h} may take the object from {t} for one minor action (P10)."),
        format!("{h} peut prendre l'objet à {t} pour une action mineure (P10)."),
    ))
}

/// O10 (`opposed`): how `attacker` rolls against the hider `target`.
/// Perceived, or an uncountered targeting sense in range (O13), or an area
/// effect: normal. Aimed at the hider's space: disadvantage. Elsewhere: miss.
/// An attacker that perceives the hider only through a non-targeting sense
/// (pair reason `enhancedSense`) knows its presence, not its space: O10
/// applies (clause `O13`).
pub fn attack_hidden(
    state: &State,
    query: &HiddenAttackQuery,
) -> Result<HiddenAttackResult, Error> {
    engine::validate_state(state)?;
    attack_hidden_in(state, query)
}

/// [`attack_hidden`] on a state already validated.
pub(crate) fn attack_hidden_in(
    state: &State,
    query: &HiddenAttackQuery,
) -> Result<HiddenAttackResult, Error> {
    require(state, Ruleset::Opposed, "attackHidden")?;
    state.creature("attacker", &query.attacker)?;
    state.creature("target", &query.target)?;
    let a = engine::label(state, &query.attacker);
    let t = engine::label(state, &query.target);
    let result = |mode, clause: &str, en: String, fr: String| HiddenAttackResult {
        mode,
        clause: clause.to_owned(),
        en,
        fr,
    };
    if query.area {
        return Ok(result(
            AttackMode::Normal,
            "O10",
            format!("An area effect covering {t}'s space affects it normally (O10)."),
            format!("Un effet de zone couvrant la case de {t} l'affecte normalement (O10)."),
        ));
    }
    let record = state.hiders.get(&query.target);
    if let Some(record) = record {
        let pair = record.pairs.get(&query.attacker);
        let targeting = opposed::uncountered_sense(
            state,
            record,
            &query.attacker,
            pair.and_then(|p| p.distance),
        )
        .filter(|s| s.targeting)
        .cloned();
        if let Some(sense) = targeting {
            return Ok(result(
                AttackMode::Normal,
                "O13",
                format!(
                    "{a}'s {} gives {t}'s exact space: a normal attack (O13).",
                    sense.sense
                ),
                format!(
                    "Le sens {} de {a} donne la case exacte de {t} : attaque normale (O13).",
                    sense.sense
                ),
            ));
        }
        // O13: a non-targeting sense gives presence only, so O10 still
        // applies to an attacker that perceives the hider only through it.
        // (Fix: such an attacker used to attack normally.)
        let presence_only = pair.is_some_and(|p| p.reason == PairReason::EnhancedSense);
        if state.perceives(&query.attacker, &query.target) {
            if !presence_only {
                return Ok(result(
                    AttackMode::Normal,
                    "O10",
                    format!("{a} perceives {t}: a normal attack (O10)."),
                    format!("{a} perçoit {t} : attaque normale (O10)."),
                ));
            }
            return Ok(if query.aimed_at_space {
                result(AttackMode::Disadvantage, "O13", format!("{a} senses {t}'s presence but not its exact space and aims at its actual space: Accuracy with disadvantage (O13, O10)."), format!("{a} détecte la présence de {t} mais pas sa case exacte et vise sa case réelle : Précision avec désavantage (O13, O10)."))
            } else {
                result(AttackMode::Miss, "O13", format!("{a} senses {t}'s presence but not its exact space and aims elsewhere: the attack misses (O13, O10)."), format!("{a} détecte la présence de {t} mais pas sa case exacte et vise ailleurs : l'attaque échoue (O13, O10)."))
            });
        }
    } else {
        return Ok(result(
            AttackMode::Normal,
            "O10",
            format!("{t} is not hiding: a normal attack (O10)."),
            format!("{t} ne se cache pas : attaque normale (O10)."),
        ));
    }
    Ok(if query.aimed_at_space {
        result(AttackMode::Disadvantage, "O10", format!("{a} does not perceive {t} but aims at its actual space: Accuracy with disadvantage (O10)."), format!("{a} ne perçoit pas {t} mais vise sa case réelle : Précision avec désavantage (O10)."))
    } else {
        result(
            AttackMode::Miss,
            "O10",
            format!("{a} does not perceive {t} and aims elsewhere: the attack misses (O10)."),
            format!("{a} ne perçoit pas {t} et vise ailleurs : l'attaque échoue (O10)."),
        )
    })
}
