//! Ruleset `percentile`: the French d100 Furtivité rules (clauses P1-P11).
//!
//! One stealth score (P1, P2) is compared once with every observer's acuity
//! sum (P3); it persists until the situation changes (P4). Surprise attacks
//! make the target defenseless until the end of the attacker's turn (P6),
//! after which everyone perceives the hider (P9). Knockout (P8), pickpocket
//! (P10) and locating (P5) are queries, in [`crate::query`].

use crate::clause::Clause;
use crate::combat;
use crate::context::{self, Ctx};
use crate::error::Error;
use crate::event::ViewEntry;
use crate::explain;
use crate::journal::Tx;
use crate::outcome::{decision, Decision, Request};
use crate::question::{DefenseQuery, KnockoutQuery, KnockoutResult, PairQuery, PickpocketQuery};
use crate::rules::{AttackInstance, Rules, StealthRoll};
use crate::state::{
    Attempt, Hider, HiderPhase, HitZone, Modifiers, Pair, PairReason, PercentileAttempt, Ruleset,
    SituationModifier, State, Surprise, TokenId,
};

/// P1: the tier value added to Furtivité: F < 50 -> floor(D/2);
/// 50 <= F < 100 -> D; F >= 100 -> floor(3D/2). Integer arithmetic only.
pub fn tier_value(stealth_skill: u32, d100: u32) -> i64 {
    let d = i64::from(d100);
    if stealth_skill < 50 {
        d / 2
    } else if stealth_skill < 100 {
        d
    } else {
        3 * d / 2
    }
}

/// P1 + P2: score = F + tier value + sum of active modifiers.
pub fn stealth_score(stealth_skill: u32, d100: u32, modifiers: &Modifiers) -> i64 {
    i64::from(stealth_skill) + tier_value(stealth_skill, d100) + modifiers.total()
}

/// P3: the observer stays unperceiving iff score > acuity sum; a tie is perceived.
pub fn perceives(score: i64, acuity_sum: i64) -> bool {
    score <= acuity_sum
}

/// The `percentile` ruleset (P1-P11). It has no `perceptionRolled`,
/// `pointOut` or `damageTaken` (opposed clauses): those keep the trait's
/// `wrong_ruleset`.
pub(crate) struct PercentileRules;

impl Rules for PercentileRules {
    const RULESET: Ruleset = Ruleset::Percentile;

    /// P1-P4, P9: a stealth roll (entering stealth, or rolling again).
    fn enter_stealth(tx: &mut Tx, roll: &StealthRoll, ctx: &mut Ctx) -> Result<(), Error> {
        let StealthRoll {
            hider,
            roll: d100,
            modifiers,
            sprinting,
            view,
            ..
        } = *roll;
        // Checked at the boundary (`validate`): a d100, a known hider.
        let d100 = u32::try_from(d100).unwrap_or(1);
        combat::check_roll_allowed(tx, hider, Clause::P9)?;
        let state: &State = tx.state();
        let label = context::label(state, hider);
        // Shared by every log entry about its pairs.
        let hider_id = TokenId::from(hider);
        let Some(hider_creature) = state.creatures.get(hider) else {
            return Ok(());
        };
        let stealth_skill = hider_creature.stealth_skill;
        let previous = state.hiders.get(hider);

        // P4 (*Decided*): the modifiers belong to the hider's situation. A roll
        // that states none keeps it: the modifiers a change asked for, else
        // those of the roll in force (without the `already_perceived` P9 added
        // on its own, decided again below); one that states some replaces it.
        let mut modifiers = match modifiers {
            Some(stated) => stated.clone(),
            None => previous
                .and_then(|p| p.attempt.percentile())
                .map(callers_modifiers)
                .unwrap_or_default(),
        };
        if sprinting && !modifiers.situation.contains(&SituationModifier::Sprint) {
            modifiers.situation.push(SituationModifier::Sprint);
        }
        // P9: a roll made while at least one observer perceives the hider carries
        // -100. The observers that count are those the hider hides from (P2:
        // "perceived by the creatures it wants to hide from"), i.e. not its
        // allies. With a previous attempt, they are the non-allies that perceive
        // it now (`State::perceives`: a revealed hider is perceived by everyone,
        // a creature that arrived after the reveal included); in combat without
        // one, every non-ally in the scene sees the hider fight in the open ("to
        // vanish mid-fight"). Outside combat, a first roll has no automatic
        // -100: the GM sets `already_perceived` (P2) if it applies.
        let mut already_perceived_added = false;
        let perceiving = if previous.is_some() || state.combat.active {
            state
                .creatures
                .iter()
                .filter(|(o, c)| {
                    o.as_str() != hider
                        && !c.is_ally_of(hider_creature)
                        && state.perceives(o, hider)
                })
                .count()
        } else {
            0
        };
        if perceiving > 0
            && !modifiers
                .situation
                .contains(&SituationModifier::AlreadyPerceived)
        {
            modifiers
                .situation
                .push(SituationModifier::AlreadyPerceived);
            already_perceived_added = true;
            ctx.gm(
                Clause::P9,
                Some(hider),
                None,
                explain::p9_already_perceived_added(perceiving, &label),
            );
        }
        let score = stealth_score(stealth_skill, d100, &modifiers);
        ctx.both(
            Clause::P1,
            Some(hider),
            None,
            explain::p1_stealth_score(&label, score, stealth_skill, d100, &modifiers),
        );

        // P9: an attack made this turn still reveals the hider at its end,
        // whatever roll it makes after it, after a stop too (`stopHiding`
        // keeps the record, revealed; a turn end clears `attacked`).
        let attacked = previous
            .and_then(|p| p.attempt.percentile())
            .is_some_and(|a| a.attacked);
        let mut record = Hider::new(Attempt::Percentile(PercentileAttempt {
            d100,
            modifiers,
            score,
            pending_modifiers: None,
            already_perceived_added,
            attacked,
        }));
        if let Some(previous) = previous {
            record.moved_this_turn = previous.moved_this_turn;
            for (observer, pair) in &previous.pairs {
                let mut kept = Pair::new(true, PairReason::AcuityComparison);
                kept.clear_view = pair.clear_view;
                kept.distance = pair.distance;
                record.pairs.insert(observer.clone(), kept);
            }
        }
        for entry in view {
            let pair = record
                .pairs
                .entry(entry.observer.clone())
                .or_insert_with(|| Pair::new(true, PairReason::AcuityComparison));
            pair.clear_view = entry.clear_view;
            pair.distance = entry.distance;
        }
        for (observer, creature) in &state.creatures {
            if observer == hider {
                continue;
            }
            let perceived = compare(
                &label,
                score,
                &hider_id,
                observer,
                creature.label(),
                creature.acuities.sum(),
                ctx,
            );
            let pair = record
                .pairs
                .entry(observer.clone())
                .or_insert_with(|| Pair::new(perceived, PairReason::AcuityComparison));
            pair.perceived = perceived;
            pair.reason = PairReason::AcuityComparison;
        }
        tx.insert_hider(hider, record);
        combat::note_roll(tx, hider);
        Ok(())
    }

    /// Clear view plays no part in P3; it is stored for the caller.
    fn view_changed(
        tx: &mut Tx,
        hider: &str,
        moved: bool,
        view: &[ViewEntry],
        _ctx: &mut Ctx,
    ) -> Result<(), Error> {
        tx.hiding(hider)?;
        tx.record_view(
            hider,
            view,
            Pair::new(true, PairReason::AcuityComparison),
            |_, _| {},
        );
        if moved {
            if let Some(head) = tx.head_mut(hider) {
                *head.moved_this_turn = true;
            }
        }
        Ok(())
    }

    /// P6, P7, P9: one attack instance against `targets` (O8: several for an
    /// area effect or a multi-target spell). Each target that does not perceive
    /// a hiding attacker is surprised (P6), with the chosen hit zone (P7). Any
    /// attack from hiding, surprise or not, reveals the attacker at the end of
    /// its turn (P9, *Decided*: "il a attiré l'attention").
    fn attack(tx: &mut Tx, attack: &AttackInstance, ctx: &mut Ctx) -> Result<(), Error> {
        let AttackInstance {
            attacker, hit_zone, ..
        } = *attack;
        let targets = attack.targets.as_slice();
        let surprises = |tx: &Tx| {
            tx.surprises
                .iter()
                .filter(|s| s.attacker == attacker)
                .count()
        };
        let before = surprises(tx);
        // With several targets, a refused hit zone names the one at fault.
        let several = targets.len() > 1;
        for (index, &target) in targets.iter().enumerate() {
            attack_target(
                tx,
                attacker,
                target,
                several.then_some(index),
                hit_zone,
                ctx,
            )?;
        }
        // A surprise already says the attacker is seen at its turn end (P6).
        let surprised = surprises(tx) > before;
        let from_hiding = tx
            .hiders
            .get(attacker)
            .filter(|h| h.phase == HiderPhase::Hiding)
            .and_then(|h| h.attempt.percentile())
            .is_some_and(|a| !a.attacked);
        if from_hiding {
            if let Some(attempt) = tx
                .head_mut(attacker)
                .and_then(|head| head.attempt.percentile_mut())
            {
                attempt.attacked = true;
            }
        }
        if from_hiding && !surprised {
            let label = context::label(tx, attacker);
            ctx.gm(
                Clause::P9,
                Some(attacker),
                None,
                explain::p9_attacked_from_hiding(&label),
            );
        }
        Ok(())
    }

    fn modifiers_changed(
        tx: &mut Tx,
        hider: &str,
        modifiers: &Modifiers,
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        modifiers_changed(tx, hider, modifiers, ctx)
    }

    /// P2/P4: sprinting while hiding turns the `sprint` modifier on.
    fn sprint(tx: &mut Tx, token: &str, ctx: &mut Ctx) -> Result<(), Error> {
        let Ok(record) = hiding_attempt(tx, token) else {
            let label = context::label(tx, token);
            ctx.gm(
                Clause::P2,
                Some(token),
                None,
                explain::p2_sprint_while_not_hiding(&label),
            );
            return Ok(());
        };
        let mut modifiers = callers_modifiers(record);
        if !modifiers.situation.contains(&SituationModifier::Sprint) {
            modifiers.situation.push(SituationModifier::Sprint);
        }
        modifiers_changed(tx, token, &modifiers, ctx)
    }

    /// A creature joined or changed: P3 compares it with every score in force
    /// (pairs set by a GM override, a surprise or another clause are kept).
    fn observer_updated(tx: &mut Tx, observer: &str, ctx: &mut Ctx) {
        let Some(creature) = tx.creatures.get(observer) else {
            return;
        };
        let observer_label = creature.label().clone();
        let observer_id = TokenId::from(observer);
        let acuity_sum = creature.acuities.sum();
        let decisions: Vec<(TokenId, bool)> = tx
            .hiders
            .iter()
            .filter(|(id, h)| {
                id.as_str() != observer
                    && h.phase == HiderPhase::Hiding
                    && h.pairs
                        .get(observer)
                        .is_none_or(|p| p.reason == PairReason::AcuityComparison)
            })
            .filter_map(|(id, h)| {
                let score = h.attempt.percentile()?.score;
                let perceived = compare(
                    &context::label(tx, id),
                    score,
                    id,
                    &observer_id,
                    &observer_label,
                    acuity_sum,
                    ctx,
                );
                Some((id.clone(), perceived))
            })
            .collect();
        for (hider, perceived) in decisions {
            if let Some(pair) = tx.pair_entry(
                &hider,
                observer,
                Pair::new(perceived, PairReason::AcuityComparison),
            ) {
                pair.perceived = perceived;
                pair.reason = PairReason::AcuityComparison;
            }
        }
    }

    fn turn_started(_tx: &mut Tx, _combatant: &str, _ctx: &mut Ctx) {}

    fn turn_ending(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
        turn_end(tx, combatant, ctx);
    }

    /// P6 / P9: a surprise still running (made outside combat, or by a
    /// combatant whose turn is not the current one) ends with the combat,
    /// and so does the turn of a hider that attacked: everyone perceives
    /// the attacker, as at the end of its turn.
    fn combat_ending(tx: &mut Tx, ctx: &mut Ctx) {
        let attacked = tx
            .hiders
            .iter()
            .filter(|(_, h)| h.attempt.percentile().is_some_and(|a| a.attacked));
        let attackers: std::collections::BTreeSet<TokenId> = tx
            .surprises
            .iter()
            .map(|s| s.attacker.clone())
            .chain(attacked.map(|(id, _)| id.clone()))
            .collect();
        for attacker in &attackers {
            turn_end(tx, attacker, ctx);
        }
    }
}

/// P3: compares the score in force with one observer's acuity sum; whether
/// the observer perceives the hider.
fn compare(
    hider_label: &String,
    score: i64,
    hider: &TokenId,
    observer: &TokenId,
    observer_label: &String,
    acuity_sum: i64,
    ctx: &mut Ctx,
) -> bool {
    let perceived = perceives(score, acuity_sum);
    ctx.gm_pair(
        Clause::P3,
        hider,
        observer,
        explain::p3_decided(perceived, score, acuity_sum, observer_label, hider_label),
    );
    perceived
}

/// P6, P7: an attack by a hider on one target that does not perceive it.
/// `index`: the target's place in a list of several (named by a refusal).
fn attack_target(
    tx: &mut Tx,
    attacker: &str,
    target: &str,
    index: Option<usize>,
    hit_zone: Option<HitZone>,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    // P7: a hit zone on a target that is no new surprise.
    let not_allowed = || Error::HitZoneNotAllowed {
        attacker: attacker.to_owned(),
        target: index.map(|index| (index, target.to_owned())),
    };
    let attacker_label = context::label(tx, attacker);
    let target_label = context::label(tx, target);
    if tx.surprise(attacker, target).is_some() {
        if hit_zone.is_some() {
            return Err(not_allowed());
        }
        if let Some(surprise) = tx
            .surprises_mut()
            .iter_mut()
            .find(|s| s.attacker == attacker && s.target == target)
        {
            surprise.attacks = surprise.attacks.saturating_add(1);
        }
        ctx.gm(
            Clause::P6,
            Some(attacker),
            Some(target),
            explain::p6_still_defenseless(&target_label, &attacker_label),
        );
        return Ok(());
    }
    let hiding = tx
        .hiders
        .get(attacker)
        .is_some_and(|h| h.phase == HiderPhase::Hiding);
    if !hiding || tx.perceives(target, attacker) {
        if hit_zone.is_some() {
            return Err(not_allowed());
        }
        ctx.gm(
            Clause::P6,
            Some(attacker),
            Some(target),
            explain::p6_no_surprise(&target_label, &attacker_label),
        );
        return Ok(());
    }
    tx.surprises_mut().push(Surprise {
        attacker: attacker.into(),
        target: target.into(),
        attacks: 1,
        first_hit_zone: hit_zone,
    });
    ctx.public(
        Clause::P6,
        Some(attacker),
        Some(target),
        explain::p6_surprise(&target_label, &attacker_label),
    );
    if let Some(zone) = hit_zone {
        ctx.public(
            Clause::P7,
            Some(attacker),
            Some(target),
            explain::p7_hit_zone_chosen(&attacker_label, zone),
        );
    }
    Ok(())
}

/// P4: the modifiers the caller asked for, in force or pending: the roll's
/// modifiers without the `already_perceived` that P9 added on its own.
fn callers_modifiers(record: &PercentileAttempt) -> Modifiers {
    if let Some(pending) = &record.pending_modifiers {
        return pending.clone();
    }
    let mut modifiers = record.modifiers.clone();
    if record.already_perceived_added {
        modifiers
            .situation
            .retain(|m| *m != SituationModifier::AlreadyPerceived);
    }
    modifiers
}

/// The percentile roll of a token that is hiding, or `not_hiding`.
fn hiding_attempt<'a>(state: &'a State, hider: &str) -> Result<&'a PercentileAttempt, Error> {
    state
        .hiding(hider)?
        .attempt
        .percentile()
        .ok_or_else(|| Error::NotHiding {
            id: hider.to_owned(),
        })
}

/// P4: new modifiers make the score stale and request a new roll.
fn modifiers_changed(
    tx: &mut Tx,
    hider: &str,
    modifiers: &Modifiers,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let label = context::label(tx, hider);
    let record = hiding_attempt(tx, hider)?;
    if callers_modifiers(record).same_as(modifiers) {
        ctx.gm(
            Clause::P4,
            Some(hider),
            None,
            explain::p4_modifiers_unchanged(&label),
        );
        return Ok(());
    }
    let score = record.score;
    if let Some(attempt) = tx
        .head_mut(hider)
        .and_then(|head| head.attempt.percentile_mut())
    {
        attempt.pending_modifiers = Some(modifiers.clone());
    }
    ctx.requests.push(Request::StealthRoll {
        hider: hider.into(),
        modifiers: modifiers.clone(),
        clause: Clause::P4,
    });
    ctx.both(
        Clause::P4,
        Some(hider),
        None,
        explain::p4_new_roll_requested(modifiers, &label, score),
    );
    Ok(())
}

/// P6 expiry and P9 reveal at the end of `combatant`'s turn: its surprises
/// end, and a hider that attacked this turn (surprise or not) is perceived
/// by everyone; its record stays, `revealed`, so the next roll carries -100.
pub(crate) fn turn_end(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
    let ended: Vec<Surprise> = tx
        .surprises
        .iter()
        .filter(|s| s.attacker == combatant)
        .cloned()
        .collect();
    // A record revealed by `stopHiding` after an attack counts too.
    let attacked = tx
        .hiders
        .get(combatant)
        .and_then(|h| h.attempt.percentile())
        .is_some_and(|a| a.attacked);
    if ended.is_empty() && !attacked {
        return;
    }
    let label = context::label(tx, combatant);
    if !ended.is_empty() {
        tx.surprises_mut().retain(|s| s.attacker != combatant);
    }
    for surprise in &ended {
        let target_label = context::label(tx, &surprise.target);
        ctx.public(
            Clause::P6,
            Some(combatant),
            Some(&surprise.target),
            explain::p6_surprise_ended(&target_label, &label),
        );
    }
    let Some(record) = tx.hiders.get(combatant) else {
        return;
    };
    let observers: Vec<TokenId> = record.pairs.keys().cloned().collect();
    let reason = if ended.is_empty() {
        PairReason::Attacked
    } else {
        PairReason::SurpriseEnded
    };
    let needs_reset = record
        .attempt
        .percentile()
        .is_some_and(|a| a.pending_modifiers.is_some() || a.attacked);
    tx.set_phase(combatant, HiderPhase::Revealed);
    if needs_reset {
        if let Some(attempt) = tx
            .head_mut(combatant)
            .and_then(|head| head.attempt.percentile_mut())
        {
            attempt.pending_modifiers = None;
            attempt.attacked = false;
        }
    }
    for observer in observers {
        if let Some(pair) = tx.pair_mut(combatant, &observer) {
            pair.perceived = true;
            pair.reason = reason;
        }
    }
    // B3 / P2: the -100 is a modifier, hidden from players by default;
    // the public text names it without the number.
    let message = if ended.is_empty() {
        explain::p9_revealed_after_attack(&label)
    } else {
        explain::p9_revealed_after_surprise(&label)
    };
    ctx.both(Clause::P9, Some(combatant), None, message);
}

// ---------------------------------------------------------------- queries
// P5, P6, P8, P10: questions about the state that change nothing; the
// public wrappers (validation, JSON) are in `crate::query`.

/// P5: an observer that does not perceive the hider may not locate it.
pub(crate) fn can_locate(state: &State, query: &PairQuery) -> Decision {
    let o = context::label(state, &query.observer);
    let h = context::label(state, &query.hider);
    if state.perceives(&query.observer, &query.hider) {
        decision(true, Clause::P5, explain::p5_may_locate(&o, &h))
    } else {
        decision(false, Clause::P5, explain::p5_may_not_locate(&o, &h))
    }
}

/// P6: may the defender defend the target against the attacker? (In
/// `opposed` there are no surprises, so this answers yes.)
pub(crate) fn can_defend(state: &State, query: &DefenseQuery) -> Decision {
    let d = context::label(state, &query.defender);
    let t = context::label(state, &query.target);
    let a = context::label(state, &query.attacker);
    if state.surprise(&query.attacker, &query.target).is_none() {
        return decision(
            true,
            Clause::P6,
            explain::p6_not_surprised_by_defend(&t, &a, &d),
        );
    }
    if query.defender == query.target {
        return decision(
            false,
            Clause::P6,
            explain::p6_defenseless_against_turn_no(&t, &a),
        );
    }
    if query.defender == query.attacker {
        return decision(
            false,
            Clause::P6,
            explain::p6_the_defender_is_the_attacker(&d),
        );
    }
    if state.perceives(&query.defender, &query.attacker) {
        decision(true, Clause::P6, explain::p6_perceives_defend(&d, &a, &t))
    } else {
        decision(
            false,
            Clause::P6,
            explain::p6_does_not_perceive_cannot(&d, &a, &t),
        )
    }
}

/// P7 + P8: the knockout attempt after a surprise attack to the head.
pub(crate) fn knockout(state: &State, query: &KnockoutQuery) -> KnockoutResult {
    let a = context::label(state, &query.attacker);
    let t = context::label(state, &query.target);
    let refuse = |message| KnockoutResult {
        allowed: false,
        chance: None,
        minutes: None,
        damage: None,
        knocked_out: None,
        clause: Clause::P8,
        message,
    };
    let Some(surprise) = state.surprise(&query.attacker, &query.target) else {
        return refuse(explain::p8_not_defenseless_against_no(&t, &a));
    };
    match surprise.first_hit_zone {
        Some(HitZone::Head) => {}
        Some(zone) => {
            return refuse(explain::p8_first_attack_aimed_at(zone));
        }
        None => {
            return refuse(explain::p8_first_attack_did_not());
        }
    }
    // P7/P8: the knockout is part of the first attack of the surprise (the
    // one whose zone the attacker chose); a later attack cannot attempt it.
    if surprise.attacks > 1 {
        return refuse(explain::p8_knockout_belongs_first(&a, &t));
    }
    if query.helmet {
        return refuse(explain::p8_wears_helmet_no_knockout(&t));
    }
    // A surprise names known tokens (`validate_state`).
    let attacker = state.creatures.get(&query.attacker);
    let chance = attacker.map_or(0, |a| a.base_stealth_skill.unwrap_or(a.stealth_skill));
    let minutes = 1 + attacker.map_or(0, |a| a.strength) / 5;
    let damage = query.raw_damage.map(|raw| raw / 4);
    let knocked_out = query.d100.map(|d| d <= chance);
    let message = match (knocked_out, query.d100) {
        (Some(true), Some(d)) => explain::p8_knocked_out(d, chance, &t, minutes),
        (Some(false), Some(d)) => explain::p8_stays_conscious(d, chance, &t),
        _ => explain::p8_may_try(&a, &t, chance, minutes),
    };
    KnockoutResult {
        allowed: true,
        chance: Some(chance),
        minutes: Some(minutes),
        damage,
        knocked_out,
        clause: Clause::P8,
        message,
    }
}

/// P10: may the hider take the object from the target?
pub(crate) fn can_pickpocket(state: &State, query: &PickpocketQuery) -> Decision {
    let h = context::label(state, &query.hider);
    let t = context::label(state, &query.target);
    if state.perceives(&query.target, &query.hider) {
        return decision(
            false,
            Clause::P10,
            explain::p10_perceives_no_pickpocketing(&t, &h),
        );
    }
    if query.held {
        return decision(
            false,
            Clause::P10,
            explain::p10_holds_that_object_cannot(&t),
        );
    }
    if !query.visible {
        return decision(false, Clause::P10, explain::p10_hidden_object_cannot_be());
    }
    decision(true, Clause::P10, explain::p10_may_take_the_object(&h, &t))
}
