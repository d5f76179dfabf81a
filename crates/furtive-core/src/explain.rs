//! What the rules say when they decide (B3): each function builds the
//! [`Message`] of one decision, with its arguments, from the catalog of
//! [`crate::message`], kept out of the rule functions so a rule reads as a
//! rule. Each function is named after the clause and the decision it
//! explains; the rule picks the function and the clause, this module the
//! message, the catalog the words (each [`Key`]'s doc is its English
//! template). GM messages carry the numbers; a public message carries
//! none, unless the P2 setting shows numbers to players (see
//! [`crate::context::Ctx::both`]).

use crate::message::{Arg, Key, Message};
use crate::state::{HitZone, Modifiers, SituationModifier};

/// A GM explanation with numbers and its public version without them.
pub(crate) struct Explained {
    pub gm: Message,
    pub public: Message,
}

/// `key` with one argument.
fn one(key: Key, name: &'static str, value: impl Into<Arg>) -> Message {
    Message::new(key).with(name, value)
}

/// `key` with an `observer` and a `hider`.
fn pair(key: Key, observer: impl Into<Arg>, hider: impl Into<Arg>) -> Message {
    Message::new(key)
        .with("observer", observer)
        .with("hider", hider)
}

/// `key` with a `target` and an `attacker`.
fn attack(key: Key, target: impl Into<Arg>, attacker: impl Into<Arg>) -> Message {
    Message::new(key)
        .with("target", target)
        .with("attacker", attacker)
}

/// A signed number as the explanations write it: `+50`, `-5`, `+0`.
fn signed(number: i64) -> String {
    format!("{number:+}")
}

/// A range in scene units, as Rust writes an `f64` (`30`, `7.5`): text, so
/// the npm package's renderer writes the same characters.
fn decimal(number: f64) -> String {
    number.to_string()
}

/// A distance for explanations: one decimal at most (`7.1`, `10`).
fn scene_units(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    decimal(rounded)
}

/// B3: a creature joined the scene, or its data changed.
pub(crate) fn b3_creature_upserted(name: &str, existed: bool) -> Message {
    let key = if existed {
        Key::B3CreatureUpdated
    } else {
        Key::B3CreatureJoined
    };
    one(key, "name", name)
}

// ---------------------------------------------------------------- Events both rulesets share

/// Combat ended: every surprise ends.
pub(crate) fn p6_combat_ended() -> Message {
    Message::new(Key::P6CombatEnded)
}

pub(crate) fn b3_token_removed(label: &str) -> Message {
    one(Key::B3TokenRemoved, "token", label)
}

pub(crate) fn b3_stopped_hiding(label: &str) -> Message {
    one(Key::B3StoppedHiding, "hider", label)
}

pub(crate) fn gm_override(
    observer_label: &String,
    perceived: bool,
    hider_label: &String,
) -> Message {
    let key = if perceived {
        Key::GmOverridePerceives
    } else {
        Key::GmOverrideDoesNotPerceive
    };
    pair(key, observer_label, hider_label)
}

// ---------------------------------------------------------------- Ruleset `percentile`

/// P1: the tier term of the score, for explanations.
fn describe_tier(stealth_skill: u32, d100: u32, value: i64) -> Message {
    let key = if stealth_skill < 50 {
        Key::P1TierHalf
    } else if stealth_skill < 100 {
        return one(Key::P1TierWhole, "d100", d100);
    } else {
        Key::P1TierOneAndAHalf
    };
    Message::new(key).with("d100", d100).with("value", value)
}

/// The catalog's name of a situation modifier (P2).
pub(crate) fn situation_name(modifier: SituationModifier) -> Key {
    match modifier {
        SituationModifier::Sprint => Key::SituationSprint,
        SituationModifier::AlreadyPerceived => Key::SituationAlreadyPerceived,
        SituationModifier::Dark => Key::SituationDark,
        SituationModifier::NoCover => Key::SituationNoCover,
        SituationModifier::Cluttered => Key::SituationCluttered,
        SituationModifier::VeryQuiet => Key::SituationVeryQuiet,
        SituationModifier::VeryNoisy => Key::SituationVeryNoisy,
        SituationModifier::StrongSmells => Key::SituationStrongSmells,
        SituationModifier::Deserted => Key::SituationDeserted,
    }
}

/// The catalog's name of a hit zone (P7).
pub(crate) fn zone_name(zone: HitZone) -> Key {
    match zone {
        HitZone::Head => Key::HitZoneHead,
        HitZone::Trunk => Key::HitZoneTrunk,
        HitZone::Arm => Key::HitZoneArm,
        HitZone::Leg => Key::HitZoneLeg,
    }
}

/// The active modifiers for explanations (B3, P2): each situation modifier
/// once, by its name, then each free modifier by its label ("GM" when it
/// has none), each with its signed value; "none" when there is none.
fn describe_modifiers(modifiers: &Modifiers) -> Arg {
    let mut items = Vec::new();
    let mut seen = Vec::new();
    for m in &modifiers.situation {
        if !seen.contains(m) {
            seen.push(*m);
            items.push(
                Message::new(Key::Modifier)
                    .with("name", situation_name(*m))
                    .with("value", signed(m.value()))
                    .into(),
            );
        }
    }
    for m in &modifiers.free {
        let name: Arg = if m.label.is_empty() {
            Key::GmModifier.into()
        } else {
            m.label.as_str().into()
        };
        items.push(
            Message::new(Key::Modifier)
                .with("name", name)
                .with("value", signed(m.value))
                .into(),
        );
    }
    if items.is_empty() {
        Key::ModifiersNone.into()
    } else {
        Arg::List(items)
    }
}

pub(crate) fn p9_already_perceived_added(perceiving: usize, label: &str) -> Message {
    Message::new(Key::P9AlreadyPerceivedAdded)
        .with("perceiving", perceiving)
        .with("hider", label)
}

pub(crate) fn p1_stealth_score(
    label: &str,
    score: i64,
    stealth_skill: u32,
    d100: u32,
    modifiers: &Modifiers,
) -> Explained {
    Explained {
        gm: Message::new(Key::P1StealthScore)
            .with("hider", label)
            .with("score", score)
            .with("stealthSkill", stealth_skill)
            .with(
                "tier",
                // P1: score = Furtivité + tier value + modifiers.
                describe_tier(
                    stealth_skill,
                    d100,
                    score - i64::from(stealth_skill) - modifiers.total(),
                ),
            )
            .with("modifierTotal", signed(modifiers.total()))
            .with("modifiers", describe_modifiers(modifiers)),
        public: one(Key::P1StealthRoll, "hider", label),
    }
}

pub(crate) fn p3_decided(
    perceives: bool,
    score: i64,
    acuity_sum: impl Into<Arg>,
    observer_label: &String,
    hider_label: &String,
) -> Message {
    let key = if perceives {
        Key::P3Perceives
    } else {
        Key::P3DoesNotPerceive
    };
    Message::new(key)
        .with("score", score)
        .with("acuitySum", acuity_sum)
        .with("observer", observer_label)
        .with("hider", hider_label)
}

pub(crate) fn p9_attacked_from_hiding(label: &str) -> Message {
    one(Key::P9AttackedFromHiding, "hider", label)
}

pub(crate) fn p6_still_defenseless(target_label: &str, attacker_label: &str) -> Message {
    attack(Key::P6StillDefenseless, target_label, attacker_label)
}

pub(crate) fn p6_no_surprise(target_label: &str, attacker_label: &str) -> Message {
    attack(Key::P6NoSurprise, target_label, attacker_label)
}

pub(crate) fn p6_surprise(target_label: &str, attacker_label: &str) -> Message {
    attack(Key::P6Surprise, target_label, attacker_label)
}

pub(crate) fn p7_hit_zone_chosen(attacker_label: &str, zone: HitZone) -> Message {
    Message::new(Key::P7HitZoneChosen)
        .with("attacker", attacker_label)
        .with("zone", zone_name(zone))
}

pub(crate) fn p4_modifiers_unchanged(label: &str) -> Message {
    one(Key::P4ModifiersUnchanged, "hider", label)
}

pub(crate) fn p4_new_roll_requested(modifiers: &Modifiers, label: &str, score: i64) -> Explained {
    Explained {
        gm: Message::new(Key::P4NewRollRequested)
            .with("modifiers", describe_modifiers(modifiers))
            .with("hider", label)
            .with("score", score),
        public: one(Key::P4NewRollRequestedPublic, "hider", label),
    }
}

pub(crate) fn p2_sprint_while_not_hiding(label: &str) -> Message {
    one(Key::P2SprintWhileNotHiding, "hider", label)
}

pub(crate) fn p6_surprise_ended(target_label: &str, attacker_label: &str) -> Message {
    attack(Key::P6SurpriseEnded, target_label, attacker_label)
}

pub(crate) fn p9_revealed_after_attack(label: &str) -> Explained {
    Explained {
        gm: one(Key::P9RevealedAfterAttack, "hider", label),
        public: one(Key::P9RevealedAfterAttackPublic, "hider", label),
    }
}

pub(crate) fn p9_revealed_after_surprise(label: &str) -> Explained {
    Explained {
        gm: one(Key::P9RevealedAfterSurprise, "hider", label),
        public: one(Key::P9RevealedAfterSurprisePublic, "hider", label),
    }
}

// ---------------------------------------------------------------- Ruleset `opposed`

pub(crate) fn o13_sensed(
    observer_label: &String,
    hider_label: &String,
    sense: &str,
    targeting: bool,
    range: f64,
    distance: f64,
) -> Explained {
    let kind = if targeting {
        Key::SenseTargeting
    } else {
        Key::SenseNonTargeting
    };
    Explained {
        gm: pair(Key::O13Sensed, observer_label, hider_label)
            .with("sense", sense)
            .with("kind", kind)
            .with("range", decimal(range))
            .with("distance", scene_units(distance)),
        public: pair(Key::O13Senses, observer_label, hider_label),
    }
}

pub(crate) fn o4_stored_check_perceives(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
    clause: crate::Clause,
) -> Explained {
    Explained {
        gm: Message::new(Key::O4StoredCheckPerceives)
            .with("total", total)
            .with("effective", effective)
            .with("observer", observer_label)
            .with("hider", hider_label)
            .with("clause", clause),
        public: pair(Key::O4Spots, observer_label, hider_label),
    }
}

/// Written once per observer a `viewChanged` brings into clear view.
pub(crate) fn o4_check_requested(
    observer_label: &String,
    hider_label: &String,
    effective: i64,
) -> Message {
    pair(Key::O4CheckRequested, observer_label, hider_label).with("effective", effective)
}

/// `clause`: what brought the stored check to the total: O4 (clear view),
/// O6 (a penalty), O7 (a fresh roll).
pub(crate) fn o13_stored_check_locates(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
    clause: crate::Clause,
) -> Explained {
    Explained {
        gm: Message::new(Key::O13StoredCheckLocates)
            .with("total", total)
            .with("effective", effective)
            .with("observer", observer_label)
            .with("hider", hider_label)
            .with("clause", clause),
        public: pair(Key::O13Pinpoints, observer_label, hider_label),
    }
}

pub(crate) fn o13_locating_check_requested(
    observer_label: &String,
    hider_label: &String,
    effective: i64,
) -> Message {
    pair(Key::O13LocatingCheckRequested, observer_label, hider_label).with("effective", effective)
}

pub(crate) fn o7_fresh_roll(label: &str, total: i64) -> Explained {
    Explained {
        gm: one(Key::O7FreshRoll, "hider", label).with("total", total),
        public: one(Key::O7TriesToStayHidden, "hider", label),
    }
}

pub(crate) fn o1_enter_stealth(label: &str, total: i64) -> Explained {
    Explained {
        gm: one(Key::O1EnterStealth, "hider", label).with("total", total),
        public: one(Key::O1TriesToHide, "hider", label),
    }
}

pub(crate) fn o2_watched_at_entry(observer_label: &String, label: &str) -> Explained {
    Explained {
        gm: pair(Key::O2WatchedAtEntry, observer_label, label),
        public: pair(Key::O2WatchesHide, observer_label, label),
    }
}

pub(crate) fn o13_sensed_at_entry(
    observer_label: &String,
    label: &str,
    sense: &str,
    range: f64,
) -> Explained {
    Explained {
        gm: pair(Key::O13SensedAtEntry, observer_label, label)
            .with("sense", sense)
            .with("range", decimal(range)),
        public: pair(Key::O13Senses, observer_label, label),
    }
}

pub(crate) fn o2_not_in_view_at_entry(observer_label: &String, label: &str) -> Message {
    pair(Key::O2NotInViewAtEntry, observer_label, label)
}

pub(crate) fn o4_stored_result_kept(
    observer_label: &String,
    hider_label: &String,
    stored: i64,
    total: i64,
) -> Message {
    pair(Key::O4StoredResultKept, observer_label, hider_label)
        .with("stored", stored)
        .with("total", total)
}

/// `key` with a Perception `total`, the stealth total it met
/// (`effective`), an `observer` and a `hider`.
fn checked(
    key: Key,
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
) -> Message {
    Message::new(key)
        .with("total", total)
        .with("effective", effective)
        .with("observer", observer_label)
        .with("hider", hider_label)
}

pub(crate) fn o13_check_locates(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
) -> Explained {
    Explained {
        gm: checked(
            Key::O13CheckLocates,
            total,
            effective,
            observer_label,
            hider_label,
        ),
        public: pair(Key::O13Pinpoints, observer_label, hider_label),
    }
}

pub(crate) fn o13_check_does_not_locate(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
) -> Message {
    checked(
        Key::O13CheckDoesNotLocate,
        total,
        effective,
        observer_label,
        hider_label,
    )
}

pub(crate) fn o4_already_perceives(
    observer_label: &String,
    hider_label: &String,
    total: i64,
) -> Message {
    pair(Key::O4AlreadyPerceives, observer_label, hider_label).with("total", total)
}

pub(crate) fn o4_check_perceives(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
) -> Explained {
    Explained {
        gm: checked(
            Key::O4CheckPerceives,
            total,
            effective,
            observer_label,
            hider_label,
        ),
        public: pair(Key::O4Spots, observer_label, hider_label),
    }
}

pub(crate) fn o4_check_fails(
    total: i64,
    effective: i64,
    observer_label: &String,
    hider_label: &String,
) -> Message {
    checked(
        Key::O4CheckFails,
        total,
        effective,
        observer_label,
        hider_label,
    )
}

pub(crate) fn o3_pointed_out(
    observer_label: &String,
    hider_label: &String,
    allies: Vec<String>,
) -> Message {
    pair(Key::O3PointedOut, observer_label, hider_label).with(
        "allies",
        Arg::List(allies.into_iter().map(Arg::from).collect()),
    )
}

pub(crate) fn o3_pointed_out_to(observer_label: &str, hider_label: &str) -> Message {
    pair(Key::O3PointedOutTo, observer_label, hider_label)
}

/// O3 (*Decided*): the named creatures that are not the observer's allies
/// are unaffected by its point-out.
pub(crate) fn o3_not_allies(observer_label: &String, others: Vec<String>) -> Message {
    one(Key::O3NotAllies, "observer", observer_label).with(
        "others",
        Arg::List(others.into_iter().map(Arg::from).collect()),
    )
}

pub(crate) fn o8_attacker_not_hiding(attacker_label: &str) -> Message {
    one(Key::O8AttackerNotHiding, "attacker", attacker_label)
}

pub(crate) fn o8_noisy_attack(
    attacker_label: &str,
    amount: i64,
    area: bool,
    targets: usize,
    instances: i64,
) -> Message {
    let how = if area {
        Message::new(Key::O8AreaCountsOnce)
    } else if targets > 1 {
        one(Key::O8TargetsCountOnce, "targets", targets)
    } else {
        one(Key::O8Hits, "hits", instances)
    };
    Message::new(Key::O8NoisyAttack)
        .with("attacker", attacker_label)
        .with("amount", amount)
        .with("how", how)
}

pub(crate) fn o8_silent_attack(attacker_label: &str) -> Message {
    one(Key::O8SilentAttack, "attacker", attacker_label)
}

pub(crate) fn o9_target_checks(target_label: &str, effective: i64) -> Explained {
    Explained {
        gm: one(Key::O9TargetChecks, "target", target_label).with("effective", effective),
        public: one(Key::O9KnowsWhere, "target", target_label),
    }
}

pub(crate) fn o11_damage_penalty(
    target_label: &str,
    hits: impl Into<Arg>,
    attacker_label: &str,
    amount: i64,
    side: &str,
) -> Message {
    attack(Key::O11DamagePenalty, target_label, attacker_label)
        .with("hits", hits)
        .with("amount", amount)
        .with("side", side)
}

pub(crate) fn o12_sprint_ends_attempt(label: &str) -> Message {
    one(Key::O12SprintEndsAttempt, "hider", label)
}

pub(crate) fn o12_sprint_not_hiding(label: &str) -> Message {
    one(Key::O12SprintNotHiding, "hider", label)
}

pub(crate) fn o7_turn_start(label: &str) -> Message {
    one(Key::O7TurnStart, "hider", label)
}

pub(crate) fn o5_revealed_in_view(label: &str, observer_label: &String) -> Message {
    pair(Key::O5RevealedInView, observer_label, label)
}

pub(crate) fn o5_revealed_did_not_move(label: &str, observer_label: &String) -> Message {
    pair(Key::O5RevealedDidNotMove, observer_label, label)
}

pub(crate) fn o5_moved_out_of_view(label: &str, observers: Vec<String>) -> Message {
    one(Key::O5MovedOutOfView, "hider", label).with(
        "observers",
        Arg::List(observers.into_iter().map(Arg::from).collect()),
    )
}

// ---------------------------------------------------------------- Queries

pub(crate) fn o10_an_area_effect_covering(t: &str) -> Message {
    one(Key::O10AreaEffect, "target", t)
}

pub(crate) fn o13_targeting_sense_gives_the_space(a: &str, sense: &str, t: &str) -> Message {
    attack(Key::O13TargetingSenseGivesTheSpace, t, a).with("sense", sense)
}

pub(crate) fn o10_perceives_normal_attack(a: &str, t: &str) -> Message {
    attack(Key::O10PerceivesNormalAttack, t, a)
}

pub(crate) fn o13_presence_only_aims_at_the_space(a: &str, t: &str) -> Message {
    attack(Key::O13PresenceOnlyAimsAtTheSpace, t, a)
}

pub(crate) fn o13_presence_only_aims_elsewhere(a: &str, t: &str) -> Message {
    attack(Key::O13PresenceOnlyAimsElsewhere, t, a)
}

pub(crate) fn o10_not_hiding_normal_attack(t: &str) -> Message {
    one(Key::O10NotHidingNormalAttack, "target", t)
}

pub(crate) fn o10_does_not_perceive_but(a: &str, t: &str) -> Message {
    attack(Key::O10DoesNotPerceiveAimsAtTheSpace, t, a)
}

pub(crate) fn o10_does_not_perceive_aims(a: &str, t: &str) -> Message {
    attack(Key::O10DoesNotPerceiveAimsElsewhere, t, a)
}

pub(crate) fn p5_may_locate(o: &str, h: &str) -> Message {
    pair(Key::P5MayLocate, o, h)
}

pub(crate) fn p5_may_not_locate(o: &str, h: &str) -> Message {
    pair(Key::P5MayNotLocate, o, h)
}

pub(crate) fn p6_not_surprised_by_defend(t: &str, a: &str, d: &str) -> Message {
    attack(Key::P6NotSurprised, t, a).with("defender", d)
}

pub(crate) fn p6_defenseless_against_turn_no(t: &str, a: &str) -> Message {
    attack(Key::P6Defenseless, t, a)
}

pub(crate) fn p6_the_defender_is_the_attacker(d: &str) -> Message {
    one(Key::P6DefenderIsTheAttacker, "defender", d)
}

pub(crate) fn p6_perceives_defend(d: &str, a: &str, t: &str) -> Message {
    attack(Key::P6AllyMayDefend, t, a).with("defender", d)
}

pub(crate) fn p6_does_not_perceive_cannot(d: &str, a: &str, t: &str) -> Message {
    attack(Key::P6AllyCannotDefend, t, a).with("defender", d)
}

pub(crate) fn p8_not_defenseless_against_no(t: &str, a: &str) -> Message {
    attack(Key::P8NotDefenseless, t, a)
}

pub(crate) fn p8_first_attack_aimed_at(zone: HitZone) -> Message {
    one(Key::P8FirstAttackAimedElsewhere, "zone", zone_name(zone))
}

/// The first attack did not choose the head: no knockout (P7, P8).
pub(crate) fn p8_first_attack_did_not() -> Message {
    Message::new(Key::P8FirstAttackChoseNoZone)
}

pub(crate) fn p8_knockout_belongs_first(a: &str, t: &str) -> Message {
    attack(Key::P8NotTheFirstAttack, t, a)
}

pub(crate) fn p8_wears_helmet_no_knockout(t: &str) -> Message {
    one(Key::P8Helmet, "target", t)
}

pub(crate) fn p10_perceives_no_pickpocketing(t: &str, h: &str) -> Message {
    one(Key::P10Perceives, "target", t).with("hider", h)
}

pub(crate) fn p10_holds_that_object_cannot(t: &str) -> Message {
    one(Key::P10HeldObject, "target", t)
}

/// A hidden object cannot be taken this way (P10).
pub(crate) fn p10_hidden_object_cannot_be() -> Message {
    Message::new(Key::P10HiddenObject)
}

pub(crate) fn p10_may_take_the_object(h: &str, t: &str) -> Message {
    one(Key::P10MayTakeTheObject, "hider", h).with("target", t)
}

pub(crate) fn not_hiding(h: &str, o: &str, clause: crate::Clause) -> Message {
    pair(Key::NotHiding, o, h).with("clause", clause)
}

pub(crate) fn b1_unknown_hider(h: &str, o: &str) -> Message {
    pair(Key::B1UnknownHider, o, h)
}

pub(crate) fn b1_unknown_observer(o: &str) -> Message {
    one(Key::B1UnknownObserver, "observer", o)
}

pub(crate) fn perceives(o: &str, h: &str) -> Message {
    pair(Key::Perceives, o, h)
}

pub(crate) fn does_not_perceive(o: &str, h: &str) -> Message {
    pair(Key::DoesNotPerceive, o, h)
}

pub(crate) fn p8_knocked_out(d: u32, chance: u32, t: &str, minutes: u32) -> Message {
    one(Key::P8KnockedOut, "d100", d)
        .with("chance", chance)
        .with("target", t)
        .with("minutes", minutes)
}

pub(crate) fn p8_stays_conscious(d: u32, chance: u32, t: &str) -> Message {
    one(Key::P8StaysConscious, "d100", d)
        .with("chance", chance)
        .with("target", t)
}

pub(crate) fn p8_may_try(a: &str, t: &str, chance: u32, minutes: u32) -> Message {
    attack(Key::P8MayTry, t, a)
        .with("chance", chance)
        .with("minutes", minutes)
}
