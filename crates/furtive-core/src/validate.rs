//! Checks at the boundary: a state received from outside, a configuration,
//! an event before anything changes, creature data, a query's or a
//! request's tokens. Everything here names the JSON field at fault; the
//! rules, the queries and the roller behind it take checked values and name
//! no field.

use crate::error::{Error, ShortId};
use crate::event::{Event, ViewEntry};
use crate::question::{DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery};
use crate::range::{self, Range, MAX_HITS, MAX_REVISION};
use crate::state::{Attempt, Config, Creature, Modifiers, Ruleset, State, STATE_VERSION};

/// Largest distance or sense range accepted, in scene units.
pub(crate) const MAX_DISTANCE: f64 = 1e9;
/// Most free modifiers on one roll.
pub(crate) const MAX_FREE_MODIFIERS: usize = 32;
/// Most targets of one attack instance (O8).
pub(crate) const MAX_TARGETS: usize = 1000;
/// Longest text a caller names something with (a creature's name and side,
/// a sense's name, a precaution, a free modifier's label), in characters
/// (Unicode scalar values): explanations quote these texts, so a 1 MiB name
/// would make every explanation and chat card that names it 1 MiB.
pub(crate) const MAX_TEXT_CHARS: usize = 256;
/// Most precautions on one stealth roll (O13).
pub(crate) const MAX_PRECAUTIONS: usize = 32;

pub(crate) fn check_range(field: &str, value: i64, (min, max): Range) -> Result<(), Error> {
    if value < min || value > max {
        Err(Error::out_of_range(field, value, min, max))
    } else {
        Ok(())
    }
}

fn check_distance(field: &str, value: f64) -> Result<(), Error> {
    if !value.is_finite() || !(0.0..=MAX_DISTANCE).contains(&value) {
        return Err(Error::out_of_range(field, value, 0, MAX_DISTANCE as i64));
    }
    Ok(())
}

/// A text is at most [`MAX_TEXT_CHARS`] characters: `out_of_range` on
/// `{field}.length`, the count in characters, as a list's length is.
/// The field is formatted only when the text is refused.
fn check_text(field: std::fmt::Arguments<'_>, text: &str) -> Result<(), Error> {
    // Bytes bound characters from above: most texts pass on their length.
    if text.len() > MAX_TEXT_CHARS {
        let count = text.chars().count();
        if count > MAX_TEXT_CHARS {
            return Err(Error::out_of_range(
                format!("{field}.length"),
                count,
                0,
                MAX_TEXT_CHARS as i64,
            ));
        }
    }
    Ok(())
}

/// At most [`MAX_PRECAUTIONS`] precautions, each a text (O13).
fn check_precautions(field: &str, precautions: &[String]) -> Result<(), Error> {
    if precautions.len() > MAX_PRECAUTIONS {
        return Err(Error::out_of_range(
            format!("{field}.length"),
            precautions.len(),
            0,
            MAX_PRECAUTIONS as i64,
        ));
    }
    for (i, precaution) in precautions.iter().enumerate() {
        check_text(format_args!("{field}[{i}]"), precaution)?;
    }
    Ok(())
}

pub(crate) fn check_id(field: &str, id: &str) -> Result<(), Error> {
    if id.is_empty() || id.len() > crate::error::MAX_ID_BYTES {
        return Err(Error::InvalidInput {
            field: field.to_owned(),
            message: crate::error::ID_RULE.into(),
        });
    }
    Ok(())
}

pub(crate) fn validate_creature(field: &str, creature: &Creature) -> Result<(), Error> {
    check_id(&format!("{field}.id"), &creature.id)?;
    check_text(format_args!("{field}.name"), &creature.name)?;
    check_text(format_args!("{field}.side"), &creature.side)?;
    check_range(
        &format!("{field}.stealthSkill"),
        creature.stealth_skill.into(),
        range::SKILL,
    )?;
    if let Some(base) = creature.base_stealth_skill {
        check_range(
            &format!("{field}.baseStealthSkill"),
            base.into(),
            range::SKILL,
        )?;
    }
    check_range(
        &format!("{field}.strength"),
        creature.strength.into(),
        range::ACUITY,
    )?;
    check_range(
        &format!("{field}.acuities.visual"),
        creature.acuities.visual.into(),
        range::ACUITY,
    )?;
    check_range(
        &format!("{field}.acuities.auditory"),
        creature.acuities.auditory.into(),
        range::ACUITY,
    )?;
    check_range(
        &format!("{field}.acuities.olfactory"),
        creature.acuities.olfactory.into(),
        range::ACUITY,
    )?;
    check_range(
        &format!("{field}.stealthModifier"),
        creature.stealth_modifier,
        range::TOTAL,
    )?;
    check_range(
        &format!("{field}.perceptionModifier"),
        creature.perception_modifier,
        range::TOTAL,
    )?;
    if creature.enhanced_senses.len() > 32 {
        return Err(Error::out_of_range(
            format!("{field}.enhancedSenses.length"),
            creature.enhanced_senses.len(),
            0,
            32,
        ));
    }
    for (i, sense) in creature.enhanced_senses.iter().enumerate() {
        check_text(
            format_args!("{field}.enhancedSenses[{i}].sense"),
            &sense.sense,
        )?;
        check_distance(&format!("{field}.enhancedSenses[{i}].range"), sense.range)?;
    }
    Ok(())
}

fn validate_modifiers(field: &str, modifiers: &Modifiers) -> Result<(), Error> {
    if modifiers.free.len() > MAX_FREE_MODIFIERS {
        return Err(Error::out_of_range(
            format!("{field}.free.length"),
            modifiers.free.len(),
            0,
            MAX_FREE_MODIFIERS as i64,
        ));
    }
    for (i, m) in modifiers.free.iter().enumerate() {
        check_text(format_args!("{field}.free[{i}].label"), &m.label)?;
        check_range(&format!("{field}.free[{i}].value"), m.value, range::TOTAL)?;
    }
    Ok(())
}

/// Checks a state received from outside: version, creature data, that
/// numbers stay within the ranges the arithmetic relies on, and that every
/// hider, pair observer and surprise names one of its creatures
/// (`unknown_token`; a pair of a hider with itself: `self_reference`).
pub fn validate_state(state: &State) -> Result<(), Error> {
    if state.version != STATE_VERSION {
        return Err(Error::UnsupportedVersion {
            found: state.version,
            supported: STATE_VERSION,
        });
    }
    check_range(
        "revision",
        i64::try_from(state.revision).unwrap_or(i64::MAX),
        (0, MAX_REVISION as i64),
    )?;
    check_range(
        "settings.checkDie",
        state.settings.check_die.into(),
        range::CHECK_DIE,
    )?;
    // A key longer than a token id is named by its first bytes
    // (`ShortId`): a caller's 1 MiB key is not echoed in the refusal.
    for (id, creature) in &state.creatures {
        if &creature.id != id {
            return Err(Error::InvalidInput {
                field: format!("creatures.{}.id", ShortId(id)),
                message: format!(
                    "the key `{}` and the creature id `{}` differ",
                    ShortId(id),
                    ShortId(&creature.id)
                ),
            });
        }
        validate_creature(&format!("creatures.{}", ShortId(id)), creature)?;
    }
    for (id, hider) in &state.hiders {
        let field = format!("hiders.{}", ShortId(id));
        // Every token a state names is one of its creatures, as the engine
        // keeps them (B3: `tokenRemoved` removes a token's hider, pairs and
        // surprises): a hider that is no creature would be listed by
        // `hiddenFrom` and refused by `perceives`.
        known(state, &field, id)?;
        match &hider.attempt {
            Attempt::Percentile(attempt) if state.ruleset == Ruleset::Percentile => {
                check_range(&format!("{field}.score"), attempt.score, range::SCORE)?;
                check_range(&format!("{field}.d100"), attempt.d100.into(), range::D100)?;
                validate_modifiers(&format!("{field}.modifiers"), &attempt.modifiers)?;
                if let Some(pending) = &attempt.pending_modifiers {
                    validate_modifiers(&format!("{field}.pendingModifiers"), pending)?;
                }
            }
            Attempt::Opposed(attempt) if state.ruleset == Ruleset::Opposed => {
                check_range(
                    &format!("{field}.heldTotal"),
                    attempt.held_total,
                    range::TOTAL,
                )?;
                if attempt.penalties.len() > 10_000 {
                    return Err(Error::out_of_range(
                        format!("{field}.penalties.length"),
                        attempt.penalties.len(),
                        0,
                        10_000,
                    ));
                }
                for (i, p) in attempt.penalties.iter().enumerate() {
                    check_range(
                        &format!("{field}.penalties[{i}].amount"),
                        p.amount,
                        range::PENALTY,
                    )?;
                }
                check_precautions(&format!("{field}.precautions"), &attempt.precautions)?;
            }
            other => {
                return Err(Error::InvalidInput {
                    field: field.clone(),
                    message: format!(
                        "a `{}` attempt in a `{}` state",
                        other.ruleset().name(),
                        state.ruleset.name()
                    ),
                })
            }
        }
        for (observer, pair) in &hider.pairs {
            // The field is formatted only for a pair at fault.
            if !state.creatures.contains_key(observer) || observer == id {
                let pair_field = format!("{field}.pairs.{}", ShortId(observer));
                known(state, &pair_field, observer)?;
                distinct(&pair_field, observer, id)?;
            }
            if let Some(total) = pair.perception_total {
                check_range(
                    &format!("{field}.pairs.{observer}.perceptionTotal"),
                    total,
                    range::TOTAL,
                )?;
            }
            if let Some(distance) = pair.distance {
                check_distance(&format!("{field}.pairs.{observer}.distance"), distance)?;
            }
        }
    }
    for (i, surprise) in state.surprises.iter().enumerate() {
        for (role, token) in [
            ("attacker", &surprise.attacker),
            ("target", &surprise.target),
        ] {
            known(state, &format!("surprises[{i}].{role}"), token)?;
        }
    }
    Ok(())
}

fn known(state: &State, field: &str, id: &str) -> Result<(), Error> {
    state.creature(field, id).map(|_| ())
}

/// A configuration lists each token once (the rest is checked on the state
/// it makes, [`validate_state`]).
pub(crate) fn validate_config(config: &Config) -> Result<(), Error> {
    // A set of `Cow<str>`, the kind `crate::journal` uses: one
    // instantiation of it in the wasm instead of two.
    let mut seen = std::collections::BTreeSet::new();
    for (index, creature) in config.creatures.iter().enumerate() {
        if !seen.insert(std::borrow::Cow::Borrowed(creature.id.as_str())) {
            return Err(Error::DuplicateToken {
                field: format!("creatures[{index}].id"),
                id: creature.id.to_string(),
            });
        }
    }
    Ok(())
}

/// A request to answer (B4) names known tokens: its `hider`, and each of
/// the `observers` of a Perception check (`observers[1]`), at least one.
#[cfg(feature = "roller")]
pub(crate) fn request(state: &State, request: &crate::outcome::Request) -> Result<(), Error> {
    use crate::outcome::Request;
    match request {
        Request::PerceptionCheck {
            hider, observers, ..
        } => {
            known(state, "hider", hider)?;
            if observers.is_empty() {
                return Err(Error::InvalidInput {
                    field: "observers".into(),
                    message: "empty: a Perception check request names at least one observer".into(),
                });
            }
            for (i, observer) in observers.iter().enumerate() {
                state.creature(&format!("observers[{i}]"), observer)?;
            }
            Ok(())
        }
        Request::StealthRoll { hider, .. } => state.creature("hider", hider).map(|_| ()),
    }
}

/// The queries answer for a token the engine does not know as B1 says
/// (an unknown observer perceives no hider, an unknown token is not
/// hiding), so they check only that each id is one: not empty, not over
/// long (`invalid_input`).
pub(crate) fn perceives_query(query: &PairQuery) -> Result<(), Error> {
    check_id("observer", &query.observer)?;
    check_id("hider", &query.hider)
}

/// A `canDefend` query: three ids; the attacker is neither the target nor
/// the defender (`self_reference`).
pub(crate) fn defense_query(query: &DefenseQuery) -> Result<(), Error> {
    check_id("defender", &query.defender)?;
    check_id("target", &query.target)?;
    check_id("attacker", &query.attacker)?;
    distinct("attacker", &query.attacker, &query.target)?;
    distinct("attacker", &query.attacker, &query.defender)
}

/// A `knockout` query: an attacker and another target; `d100` is 1..=100
/// and `rawDamage` 0..=100000 when given.
pub(crate) fn knockout_query(query: &KnockoutQuery) -> Result<(), Error> {
    check_id("attacker", &query.attacker)?;
    check_id("target", &query.target)?;
    distinct("target", &query.target, &query.attacker)?;
    if let Some(d100) = query.d100 {
        check_range("d100", d100.into(), range::D100)?;
    }
    if let Some(raw) = query.raw_damage {
        check_range("rawDamage", raw.into(), range::RAW_DAMAGE)?;
    }
    Ok(())
}

/// A `canPickpocket` query: a hider and another target.
pub(crate) fn pickpocket_query(query: &PickpocketQuery) -> Result<(), Error> {
    check_id("hider", &query.hider)?;
    check_id("target", &query.target)?;
    distinct("target", &query.target, &query.hider)
}

/// An `attackHidden` query: an attacker and another target.
pub(crate) fn hidden_attack_query(query: &HiddenAttackQuery) -> Result<(), Error> {
    check_id("attacker", &query.attacker)?;
    check_id("target", &query.target)?;
    distinct("target", &query.target, &query.attacker)
}

fn distinct(field: &str, a: &str, b: &str) -> Result<(), Error> {
    if a == b {
        Err(Error::SelfReference {
            field: field.to_owned(),
            id: a.to_owned(),
        })
    } else {
        Ok(())
    }
}

/// Field names are formatted only for the entry at fault. Each observer
/// comes once (one clear view a pair, O4): a later entry naming an earlier
/// one's observer is refused, `duplicate_token` naming `view[i].observer`
/// (the first such entry), after the checks above.
fn validate_view(state: &State, hider: &str, view: &[ViewEntry]) -> Result<(), Error> {
    for (i, entry) in view.iter().enumerate() {
        if !state.creatures.contains_key(&entry.observer) || entry.observer == hider {
            known(state, &format!("view[{i}].observer"), &entry.observer)?;
            distinct(&format!("view[{i}].observer"), &entry.observer, hider)?;
        }
        if let Some(distance) = entry.distance {
            if !distance.is_finite() || !(0.0..=MAX_DISTANCE).contains(&distance) {
                check_distance(&format!("view[{i}].distance"), distance)?;
            }
        }
    }
    let mut seen = std::collections::HashSet::with_capacity(view.len());
    if let Some(i) = view
        .iter()
        .position(|entry| !seen.insert(entry.observer.as_str()))
    {
        return Err(Error::DuplicateToken {
            field: format!("view[{i}].observer"),
            id: view[i].observer.to_string(),
        });
    }
    Ok(())
}

/// Checks ids and ranges of an event before anything changes.
pub(crate) fn validate_event(state: &State, event: &Event) -> Result<(), Error> {
    match event {
        Event::UpsertCreature { creature } => validate_creature("creature", creature),
        Event::EnterStealth {
            hider,
            roll,
            modifiers,
            view,
            precautions,
            ..
        } => {
            known(state, "hider", hider)?;
            if let Some(modifiers) = modifiers {
                validate_modifiers("modifiers", modifiers)?;
            }
            check_precautions("precautions", precautions)?;
            validate_view(state, hider, view)?;
            // P1: a d100; O1: a Stealth check total.
            match state.ruleset {
                Ruleset::Percentile => check_range("roll", *roll, range::D100),
                Ruleset::Opposed => check_range("roll", *roll, range::TOTAL),
            }
        }
        Event::ViewChanged { hider, view, .. } => {
            known(state, "hider", hider)?;
            validate_view(state, hider, view)
        }
        Event::PerceptionRolled {
            hider,
            observer,
            total,
        } => {
            known(state, "hider", hider)?;
            known(state, "observer", observer)?;
            distinct("observer", observer, hider)?;
            check_range("total", *total, range::TOTAL)
        }
        Event::PointOut {
            hider,
            observer,
            allies,
        } => {
            known(state, "hider", hider)?;
            known(state, "observer", observer)?;
            distinct("observer", observer, hider)?;
            for (i, ally) in allies.iter().enumerate() {
                known(state, &format!("allies[{i}]"), ally)?;
                distinct(&format!("allies[{i}]"), ally, hider)?;
            }
            // O3 tells allies: a point-out to nobody is none.
            if allies.is_empty() {
                return Err(Error::InvalidInput {
                    field: "allies".into(),
                    message: "a point-out names at least one ally (O3)".into(),
                });
            }
            Ok(())
        }
        Event::Attack {
            attacker,
            target,
            targets,
            hits,
            hit_zone,
            ..
        } => {
            known(state, "attacker", attacker)?;
            if target.is_some() && !targets.is_empty() {
                return Err(Error::InvalidInput {
                    field: "target".into(),
                    message: "give `targets` (a list) or the older `target`, not both".into(),
                });
            }
            if let Some(target) = target {
                known(state, "target", target)?;
                distinct("target", target, attacker)?;
            } else if targets.is_empty() {
                return Err(Error::InvalidInput {
                    field: "targets".into(),
                    message: "an attack names its targets (`targets`, or the older `target`)"
                        .into(),
                });
            } else if targets.len() > MAX_TARGETS {
                return Err(Error::out_of_range(
                    "targets.length",
                    targets.len(),
                    1,
                    MAX_TARGETS as i64,
                ));
            }
            for (i, target) in targets.iter().enumerate() {
                let field = || format!("targets[{i}]");
                if !state.creatures.contains_key(target) || target == attacker {
                    known(state, &field(), target)?;
                    distinct(&field(), target, attacker)?;
                }
                if targets[..i].contains(target) {
                    return Err(Error::DuplicateToken {
                        field: field(),
                        id: target.to_string(),
                    });
                }
            }
            check_range("hits", (*hits).into(), (0, MAX_HITS))?;
            // P7's hit zone belongs to `percentile`.
            if hit_zone.is_some() && state.ruleset == Ruleset::Opposed {
                return Err(Error::WrongRuleset {
                    what: "hitZone".into(),
                    ruleset: state.ruleset.name().into(),
                });
            }
            Ok(())
        }
        Event::DamageTaken {
            target,
            attacker,
            hits,
        } => {
            known(state, "target", target)?;
            known(state, "attacker", attacker)?;
            distinct("attacker", attacker, target)?;
            check_range("hits", (*hits).into(), (1, MAX_HITS))
        }
        Event::TurnStart { combatant, .. } | Event::TurnEnd { combatant } => {
            check_id("combatant", combatant)
        }
        Event::RoundEnd { .. } | Event::CombatEnd {} => Ok(()),
        Event::ModifiersChanged { hider, modifiers } => {
            known(state, "hider", hider)?;
            validate_modifiers("modifiers", modifiers)
        }
        Event::Sprint { token } => known(state, "token", token),
        Event::StopHiding { hider } => known(state, "hider", hider),
        Event::TokenRemoved { token } => known(state, "token", token),
        Event::GmOverride {
            hider, observer, ..
        } => {
            known(state, "hider", hider)?;
            known(state, "observer", observer)?;
            distinct("observer", observer, hider)
        }
    }
}
