//! Ruleset `percentile`: the French d100 Furtivité rules (clauses P1-P11).
//!
//! One stealth score (P1, P2) is compared once with every observer's acuity
//! sum (P3); it persists until the situation changes (P4). Surprise attacks
//! make the target defenseless until the end of the attacker's turn (P6),
//! after which everyone perceives the hider (P9). Knockout (P8), pickpocket
//! (P10) and locating (P5) are queries, in [`crate::query`].

use crate::engine::{self, Ctx};
use crate::error::Error;
use crate::event::{Event, ViewEntry};
use crate::journal::Tx;
use crate::outcome::Request;
use crate::state::{
    Attempt, Hider, HiderPhase, HitZone, Modifiers, Pair, PairReason, PercentileAttempt,
    SituationModifier, State, Surprise,
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

pub(crate) fn apply(tx: &mut Tx, event: &Event, ctx: &mut Ctx) -> Result<(), Error> {
    match event {
        Event::EnterStealth {
            hider,
            roll,
            modifiers,
            sprinting,
            view,
            ..
        } => enter_stealth(tx, hider, *roll, modifiers, *sprinting, view, ctx),
        Event::ViewChanged { hider, moved, view } => {
            engine::require_hiding(tx, hider)?;
            engine::record_view(tx, hider, view, || {
                Pair::new(true, PairReason::AcuityComparison)
            });
            if *moved {
                if let Some(head) = tx.head_mut(hider) {
                    *head.moved_this_turn = true;
                }
            }
            Ok(())
        }
        Event::Attack {
            attacker,
            target,
            hit_zone,
            ..
        } => attack(tx, attacker, target, *hit_zone, ctx),
        Event::ModifiersChanged { hider, modifiers } => {
            modifiers_changed(tx, hider, modifiers, ctx)
        }
        Event::Sprint { token } => sprint(tx, token, ctx),
        Event::PerceptionRolled { .. } | Event::PointOut { .. } | Event::DamageTaken { .. } => {
            Err(Error::WrongRuleset {
                what: event.kind().to_owned(),
                ruleset: "percentile".into(),
            })
        }
        // Handled by the engine for both rulesets.
        _ => Ok(()),
    }
}

fn describe_tier(stealth_skill: u32, d100: u32) -> (String, String) {
    let t = tier_value(stealth_skill, d100);
    if stealth_skill < 50 {
        (
            format!("d100 {d100} ÷ 2 = {t}"),
            format!("d100 {d100} ÷ 2 = {t}"),
        )
    } else if stealth_skill < 100 {
        (format!("d100 {d100}"), format!("d100 {d100}"))
    } else {
        (
            format!("1.5 × d100 {d100} = {t}"),
            format!("1,5 × d100 {d100} = {t}"),
        )
    }
}

/// The active modifiers for explanations, in English and French (B3).
/// (Fix: the empty list and unlabelled GM modifiers were English in the
/// French text; B3/P2 Fix: situation modifiers were named by their ids.)
fn describe_modifiers(modifiers: &Modifiers) -> (String, String) {
    let mut en: Vec<String> = Vec::new();
    let mut fr: Vec<String> = Vec::new();
    let mut seen = Vec::new();
    for m in &modifiers.situation {
        if !seen.contains(m) {
            seen.push(*m);
            let (name_en, name_fr) = m.names();
            en.push(format!("{name_en} {:+}", m.value()));
            fr.push(format!("{name_fr} {:+}", m.value()));
        }
    }
    for m in &modifiers.free {
        let (label_en, label_fr) = if m.label.is_empty() {
            ("GM", "MJ")
        } else {
            (m.label.as_str(), m.label.as_str())
        };
        en.push(format!("{label_en} {:+}", m.value));
        fr.push(format!("{label_fr} {:+}", m.value));
    }
    if en.is_empty() {
        ("none".into(), "aucun".into())
    } else {
        (en.join(", "), fr.join(", "))
    }
}

/// P1-P4, P9: a stealth roll (entering stealth, or rolling again).
fn enter_stealth(
    tx: &mut Tx,
    hider: &str,
    d100: i64,
    modifiers: &Modifiers,
    sprinting: bool,
    view: &[ViewEntry],
    ctx: &mut Ctx,
) -> Result<(), Error> {
    if !(1..=100).contains(&d100) {
        return Err(Error::out_of_range("roll", d100, 1, 100));
    }
    let d100 = d100 as u32;
    engine::check_roll_allowed(tx, hider, "P9")?;
    let state: &State = tx.state();
    let label = engine::label(state, hider);
    let hider_creature = state.creature("hider", hider)?;
    let stealth_skill = hider_creature.stealth_skill;

    let mut modifiers = modifiers.clone();
    if sprinting && !modifiers.situation.contains(&SituationModifier::Sprint) {
        modifiers.situation.push(SituationModifier::Sprint);
    }
    // P9: a roll made while at least one observer perceives the hider carries
    // -100. The observers that count are those the hider hides from (P2:
    // "perceived by the creatures it wants to hide from"), i.e. not its
    // allies. With a previous attempt, they are its perceiving pairs; in
    // combat without one, every non-ally in the scene sees the hider fight
    // in the open ("to vanish mid-fight"). Outside combat, a first roll has
    // no automatic -100: the GM sets `already_perceived` (P2) if it applies.
    let hides_from = |observer: &str| {
        observer != hider
            && state
                .creatures
                .get(observer)
                .is_some_and(|c| !c.is_ally_of(hider_creature))
    };
    let previous = state.hiders.get(hider);
    let mut already_perceived_added = false;
    let perceiving = match previous {
        Some(previous) => previous
            .pairs
            .iter()
            .filter(|(o, p)| p.perceived && hides_from(o))
            .count(),
        None if state.combat.active => state.creatures.keys().filter(|o| hides_from(o)).count(),
        None => 0,
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
            "P9",
            Some(hider),
            None,
            format!("{perceiving} observer(s) already perceive {label}: already perceived -100 is added (P9)."),
            format!("{perceiving} observateur(s) perçoivent déjà {label} : déjà perçu -100 s'applique (P9)."),
        );
    }
    let score = stealth_score(stealth_skill, d100, &modifiers);
    let (tier_en, tier_fr) = describe_tier(stealth_skill, d100);
    let (list_en, list_fr) = describe_modifiers(&modifiers);
    let modifier_total = modifiers.total();
    ctx.both(
        "P1",
        Some(hider),
        None,
        format!("{label}: stealth score {score} = Furtivité {stealth_skill} + {tier_en} + modifiers {modifier_total:+} ({list_en}) (P1, P2)."),
        format!("{label} : score de furtivité {score} = Furtivité {stealth_skill} + {tier_fr} + modificateurs {modifier_total:+} ({list_fr}) (P1, P2)."),
        format!("{label} makes a stealth roll."),
        format!("{label} fait un jet de Furtivité."),
    );

    let mut record = Hider::new(Attempt::Percentile(PercentileAttempt {
        d100,
        modifiers,
        score,
        pending_modifiers: None,
        already_perceived_added,
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
            hider,
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
    engine::note_roll(tx, hider);
    Ok(())
}

/// P3: compares the score in force with one observer's acuity sum; whether
/// the observer perceives the hider.
fn compare(
    hider_label: &str,
    score: i64,
    hider: &str,
    observer: &str,
    observer_label: &str,
    acuity_sum: i64,
    ctx: &mut Ctx,
) -> bool {
    let perceived = perceives(score, acuity_sum);
    if perceived {
        ctx.gm(
            "P3",
            Some(hider),
            Some(observer),
            format!("score {score} ≤ acuity sum {acuity_sum}: {observer_label} perceives {hider_label} (P3)."),
            format!("score {score} ≤ somme des acuités {acuity_sum} : {observer_label} perçoit {hider_label} (P3)."),
        );
    } else {
        ctx.gm(
            "P3",
            Some(hider),
            Some(observer),
            format!("score {score} > acuity sum {acuity_sum}: {observer_label} does not perceive {hider_label} (P3)."),
            format!("score {score} > somme des acuités {acuity_sum} : {observer_label} ne perçoit pas {hider_label} (P3)."),
        );
    }
    perceived
}

/// A creature joined or changed: P3 compares it with every score in force
/// (pairs set by a GM override, a surprise or another clause are kept).
pub(crate) fn observer_updated(tx: &mut Tx, observer: &str, ctx: &mut Ctx) {
    let Some(creature) = tx.creatures.get(observer) else {
        return;
    };
    let observer_label = creature.label().to_owned();
    let acuity_sum = creature.acuities.sum();
    let decisions: Vec<(String, bool)> = tx
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
                &engine::label(tx, id),
                score,
                id,
                observer,
                &observer_label,
                acuity_sum,
                ctx,
            );
            Some((id.clone(), perceived))
        })
        .collect();
    for (hider, perceived) in decisions {
        if let Some(pair) = tx.pair_entry(&hider, observer, || {
            Pair::new(perceived, PairReason::AcuityComparison)
        }) {
            pair.perceived = perceived;
            pair.reason = PairReason::AcuityComparison;
        }
    }
}

/// P6, P7: an attack by a hider on a target that does not perceive it.
fn attack(
    tx: &mut Tx,
    attacker: &str,
    target: &str,
    hit_zone: Option<HitZone>,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let attacker_label = engine::label(tx, attacker);
    let target_label = engine::label(tx, target);
    if tx.surprise(attacker, target).is_some() {
        if hit_zone.is_some() {
            return Err(Error::HitZoneNotAllowed {
                attacker: attacker.to_owned(),
            });
        }
        if let Some(surprise) = tx
            .surprises_mut()
            .iter_mut()
            .find(|s| s.attacker == attacker && s.target == target)
        {
            surprise.attacks = surprise.attacks.saturating_add(1);
        }
        ctx.gm(
            "P6",
            Some(attacker),
            Some(target),
            format!("{target_label} is still defenseless against {attacker_label} this turn (P6)."),
            format!("{target_label} reste sans défense face à {attacker_label} ce tour-ci (P6)."),
        );
        return Ok(());
    }
    let hiding = tx
        .hiders
        .get(attacker)
        .is_some_and(|h| h.phase == HiderPhase::Hiding);
    if !hiding || tx.perceives(target, attacker) {
        if hit_zone.is_some() {
            return Err(Error::HitZoneNotAllowed {
                attacker: attacker.to_owned(),
            });
        }
        ctx.gm(
            "P6",
            Some(attacker),
            Some(target),
            format!("{target_label} perceives {attacker_label}: no surprise (P6)."),
            format!("{target_label} perçoit {attacker_label} : pas de surprise (P6)."),
        );
        return Ok(());
    }
    tx.surprises_mut().push(Surprise {
        attacker: attacker.to_owned(),
        target: target.to_owned(),
        attacks: 1,
        first_hit_zone: hit_zone,
    });
    ctx.public(
        "P6",
        Some(attacker),
        Some(target),
        format!("Surprise! {target_label} is defenseless against {attacker_label} until the end of {attacker_label}'s turn; allies that do not perceive {attacker_label} cannot defend {target_label} (P6)."),
        format!("Surprise ! {target_label} est sans défense face à {attacker_label} jusqu'à la fin du tour de {attacker_label} ; les alliés qui ne perçoivent pas {attacker_label} ne peuvent pas défendre {target_label} (P6)."),
    );
    if let Some(zone) = hit_zone {
        let (en, fr) = zone_names(zone);
        ctx.public(
            "P7",
            Some(attacker),
            Some(target),
            format!("{attacker_label} chooses the hit zone of this first attack: {en} (P7)."),
            format!(
                "{attacker_label} choisit la zone touchée par cette première attaque : {fr} (P7)."
            ),
        );
    }
    Ok(())
}

/// English and French names of a hit zone.
pub fn zone_names(zone: HitZone) -> (&'static str, &'static str) {
    match zone {
        HitZone::Head => ("head", "tête"),
        HitZone::Trunk => ("trunk", "tronc"),
        HitZone::Arm => ("arm", "bras"),
        HitZone::Leg => ("leg", "jambe"),
    }
}

/// P4: the modifiers the caller asked for, in force or pending: the roll's
/// modifiers without the `already_perceived` that P9 added on its own.
/// (Fix: comparing with the automatic modifier made every unchanged
/// `modifiersChanged` after such a roll look like a change, and `sprint`
/// carried the old -100 into the next roll whether or not P9 still applied.)
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
    engine::require_hiding(state, hider)?
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
    let label = engine::label(tx, hider);
    let record = hiding_attempt(tx, hider)?;
    if callers_modifiers(record).same_as(modifiers) {
        ctx.gm(
            "P4",
            Some(hider),
            None,
            format!("The modifiers of {label} did not change: the score stays (P4)."),
            format!("Les modificateurs de {label} n'ont pas changé : le score reste (P4)."),
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
    let (list_en, list_fr) = describe_modifiers(modifiers);
    ctx.requests.push(Request::StealthRoll {
        hider: hider.to_owned(),
        modifiers: modifiers.clone(),
        clause: "P4".into(),
    });
    ctx.both(
        "P4",
        Some(hider),
        None,
        format!("The situation changed ({list_en}): {label} must roll again; score {score} stays in force until the new roll (P4)."),
        format!("La situation a changé ({list_fr}) : {label} doit refaire un jet ; le score {score} reste en vigueur jusqu'au nouveau jet (P4)."),
        format!("The situation changed: {label} must make a new stealth roll."),
        format!("La situation a changé : {label} doit refaire un jet de Furtivité."),
    );
    Ok(())
}

/// P2/P4: sprinting while hiding turns the `sprint` modifier on.
fn sprint(tx: &mut Tx, token: &str, ctx: &mut Ctx) -> Result<(), Error> {
    let Ok(record) = hiding_attempt(tx, token) else {
        let label = engine::label(tx, token);
        ctx.gm(
            "P2",
            Some(token),
            None,
            format!("{label} sprints; not hiding, so nothing changes."),
            format!("{label} sprinte ; il ne se cache pas, rien ne change."),
        );
        return Ok(());
    };
    let mut modifiers = callers_modifiers(record);
    if !modifiers.situation.contains(&SituationModifier::Sprint) {
        modifiers.situation.push(SituationModifier::Sprint);
    }
    modifiers_changed(tx, token, &modifiers, ctx)
}

/// P6 expiry and P9 reveal at the end of `combatant`'s turn.
pub(crate) fn turn_end(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
    let ended: Vec<Surprise> = tx
        .surprises
        .iter()
        .filter(|s| s.attacker == combatant)
        .cloned()
        .collect();
    if ended.is_empty() {
        return;
    }
    tx.surprises_mut().retain(|s| s.attacker != combatant);
    let label = engine::label(tx, combatant);
    for surprise in &ended {
        let target_label = engine::label(tx, &surprise.target);
        ctx.public(
            "P6",
            Some(combatant),
            Some(&surprise.target),
            format!("{target_label} is no longer defenseless against {label} (P6)."),
            format!("{target_label} n'est plus sans défense face à {label} (P6)."),
        );
    }
    if let Some(record) = tx.hiders.get(combatant) {
        let observers: Vec<String> = record.pairs.keys().cloned().collect();
        let pending = record
            .attempt
            .percentile()
            .is_some_and(|a| a.pending_modifiers.is_some());
        tx.set_phase(combatant, HiderPhase::Revealed);
        if pending {
            if let Some(attempt) = tx
                .head_mut(combatant)
                .and_then(|head| head.attempt.percentile_mut())
            {
                attempt.pending_modifiers = None;
            }
        }
        for observer in observers {
            if let Some(pair) = tx.pair_mut(combatant, &observer) {
                pair.perceived = true;
                pair.reason = PairReason::SurpriseEnded;
            }
        }
        // B3 / P2: the -100 is a modifier, hidden from players by default;
        // the public text names it without the number. (Fix: the public
        // entry used to show "-100" whatever the setting.)
        ctx.both(
            "P9",
            Some(combatant),
            None,
            format!("The surprise turn is over: everyone perceives {label}; a new stealth roll carries already perceived -100 (P9)."),
            format!("Le tour de surprise est terminé : tout le monde perçoit {label} ; un nouveau jet de Furtivité subit déjà perçu -100 (P9)."),
            format!("The surprise turn is over: everyone perceives {label}; a new stealth roll will be harder (P9)."),
            format!("Le tour de surprise est terminé : tout le monde perçoit {label} ; un nouveau jet de Furtivité sera plus difficile (P9)."),
        );
    }
}
