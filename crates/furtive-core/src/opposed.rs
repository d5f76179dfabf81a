//! Ruleset `opposed`: the English Stealth-versus-Perception rules (O1-O13).
//!
//! The hider rolls once and holds the total (O1). Observers with clear view
//! at entry perceive it (O2); others check when they get clear view (O4),
//! and the result is stored. Penalties lower the held total and every stored
//! result is compared again (O6, O8, O11). Exposure (O5) reveals at the end
//! of the hider's turn. Enhanced senses bypass stealth unless countered (O13).

use crate::engine::{self, Ctx};
use crate::error::Error;
use crate::event::{Event, ViewEntry};
use crate::journal::Tx;
use crate::outcome::Request;
use crate::state::{
    Attempt, EnhancedSense, Hider, HiderPhase, OpposedAttempt, Pair, PairReason, Penalty,
    PenaltyScope, State,
};

/// O8 and O11: each noisy attack instance or damaging hit costs 5.
pub const PENALTY_PER_HIT: i64 = 5;

pub(crate) fn apply(tx: &mut Tx, event: &Event, ctx: &mut Ctx) -> Result<(), Error> {
    match event {
        Event::EnterStealth {
            hider,
            roll,
            moved,
            sprinting,
            precautions,
            view,
            ..
        } => enter_stealth(tx, hider, *roll, *moved, *sprinting, precautions, view, ctx),
        Event::ViewChanged { hider, moved, view } => view_changed(tx, hider, *moved, view, ctx),
        Event::PerceptionRolled {
            hider,
            observer,
            total,
        } => perception_rolled(tx, hider, observer, *total, ctx),
        Event::PointOut {
            hider,
            observer,
            allies,
        } => point_out(tx, hider, observer, allies, ctx),
        Event::Attack {
            attacker,
            target,
            noisy,
            hits,
            area,
            hit_zone,
        } => {
            if hit_zone.is_some() {
                return Err(Error::WrongRuleset {
                    what: "hitZone".into(),
                    ruleset: "opposed".into(),
                });
            }
            attack(tx, attacker, target, *noisy, *hits, *area, ctx)
        }
        Event::DamageTaken {
            target,
            attacker,
            hits,
        } => damage_taken(tx, target, attacker, *hits, ctx),
        Event::Sprint { token } => {
            sprint(tx, token, ctx);
            Ok(())
        }
        Event::ModifiersChanged { .. } => Err(Error::WrongRuleset {
            what: event.kind().to_owned(),
            ruleset: "opposed".into(),
        }),
        // Handled by the engine for both rulesets.
        _ => Ok(()),
    }
}

/// O6: the held total as `observer` faces it: held total minus every
/// penalty that applies to that observer.
pub fn effective_total(state: &State, hider: &Hider, observer: &str) -> i64 {
    let Some(attempt) = hider.attempt.opposed() else {
        return 0;
    };
    let side = state.creatures.get(observer).map(|c| c.side.as_str());
    attempt
        .penalties
        .iter()
        .fold(attempt.held_total, |total, penalty| {
            let applies = match &penalty.scope {
                PenaltyScope::All {} => true,
                PenaltyScope::AlliesOf {
                    attacker,
                    side: attacker_side,
                } => {
                    observer != attacker
                        && !attacker_side.is_empty()
                        && attacker_side != "neutral"
                        && side == Some(attacker_side.as_str())
                }
            };
            if applies {
                total.saturating_sub(penalty.amount)
            } else {
                total
            }
        })
}

/// A distance or range for explanations: one decimal at most (`7.1`, `10`).
fn scene_units(value: f64) -> String {
    let rounded = (value * 10.0).round() / 10.0;
    format!("{rounded}")
}

/// O13: the observer's first enhanced sense that reaches the hider and that
/// the hider's precautions do not counter.
pub fn uncountered_sense<'a>(
    state: &'a State,
    hider: &Hider,
    observer: &str,
    distance: Option<f64>,
) -> Option<&'a EnhancedSense> {
    let distance = distance?;
    state
        .creatures
        .get(observer)?
        .enhanced_senses
        .iter()
        .find(|sense| {
            distance <= sense.range
                && !hider.attempt.opposed().is_some_and(|a| {
                    a.precautions
                        .iter()
                        .any(|p| p.eq_ignore_ascii_case(&sense.sense))
                })
        })
}

/// Why a pair is being looked at again; picks the reason and the wording.
#[derive(Clone, Copy)]
enum Trigger {
    View,
    Penalty,
    FreshRoll,
}

/// Re-decides one pair after its view, the total or the penalties changed:
/// O13 senses, then the stored check (O4/O6), then a new check if the
/// observer has clear view and never rolled (O4). Perceived pairs stay
/// perceived. Writes only a pair that changes.
fn reevaluate(tx: &mut Tx, hider: &str, observer: &str, trigger: Trigger, ctx: &mut Ctx) {
    let state: &State = tx.state();
    let Some(record) = state.hiders.get(hider) else {
        return;
    };
    let Some(pair) = record.pairs.get(observer) else {
        return;
    };
    if pair.perceived {
        return;
    }
    let stored = pair.perception_total;
    let distance = pair.distance;
    let needs_check = pair.clear_view && stored.is_none() && !pair.check_pending;
    let sense = uncountered_sense(state, record, observer, distance);
    if sense.is_none() && !needs_check && stored.is_none() {
        // Nothing decides this pair yet: out of view, never checked.
        return;
    }
    let hider_label = engine::label_ref(state, hider);
    let observer_label = engine::label_ref(state, observer);
    let effective = effective_total(state, record, observer);
    if let Some(sense) = sense {
        let kind_en = if sense.targeting {
            "targeting"
        } else {
            "non-targeting"
        };
        let kind_fr = if sense.targeting {
            "de ciblage"
        } else {
            "sans ciblage"
        };
        ctx.both(
            "O13",
            Some(hider),
            Some(observer),
            format!("{observer_label} perceives {hider_label} with {} ({kind_en}, range {}, distance {}), no precaution against it: no roll (O13).", sense.sense, sense.range, scene_units(distance.unwrap_or_default())),
            format!("{observer_label} perçoit {hider_label} par {} ({kind_fr}, portée {}, distance {}), sans précaution contre ce sens : pas de jet (O13).", sense.sense, sense.range, scene_units(distance.unwrap_or_default())),
            format!("{observer_label} senses {hider_label}."),
            format!("{observer_label} détecte {hider_label}."),
        );
        if let Some(pair) = tx.pair_mut(hider, observer) {
            pair.perceived = true;
            pair.reason = PairReason::EnhancedSense;
        }
        return;
    }
    if let Some(total) = stored {
        if total >= effective {
            let (clause, reason) = match trigger {
                Trigger::View => ("O4", PairReason::PerceptionCheck),
                Trigger::Penalty => ("O6", PairReason::Penalty),
                Trigger::FreshRoll => ("O7", PairReason::PerceptionCheck),
            };
            ctx.both(
                clause,
                Some(hider),
                Some(observer),
                format!("Stored Perception {total} ≥ effective stealth total {effective}: {observer_label} now perceives {hider_label}, no new roll ({clause})."),
                format!("Perception enregistrée {total} ≥ total de discrétion effectif {effective} : {observer_label} perçoit maintenant {hider_label}, sans nouveau jet ({clause})."),
                format!("{observer_label} spots {hider_label}."),
                format!("{observer_label} repère {hider_label}."),
            );
            if let Some(pair) = tx.pair_mut(hider, observer) {
                pair.perceived = true;
                pair.reason = reason;
            }
            return;
        }
    }
    if needs_check {
        ctx.requests.push(Request::PerceptionCheck {
            hider: hider.to_owned(),
            observer: observer.to_owned(),
            clause: "O4".into(),
        });
        ctx.gm(
            "O4",
            Some(hider),
            Some(observer),
            format!("{observer_label} comes into clear view of {hider_label}: immediate Perception check against {effective} (O4)."),
            format!("{observer_label} a {hider_label} en vue dégagée : test de Perception immédiat contre {effective} (O4)."),
        );
        if let Some(pair) = tx.pair_mut(hider, observer) {
            pair.check_pending = true;
        }
    }
}

fn observers_of(state: &State, hider: &str) -> Vec<String> {
    state
        .hiders
        .get(hider)
        .map(|h| h.pairs.keys().cloned().collect())
        .unwrap_or_default()
}

/// O1, O2, O7, O12, O13: a Stealth check is rolled and held.
#[allow(clippy::too_many_arguments)]
fn enter_stealth(
    tx: &mut Tx,
    hider: &str,
    total: i64,
    moved: bool,
    sprinting: bool,
    precautions: &[String],
    view: &[ViewEntry],
    ctx: &mut Ctx,
) -> Result<(), Error> {
    if sprinting {
        return Err(Error::Sprinting {
            id: hider.to_owned(),
        });
    }
    if !moved && !tx.settings.allow_zero_length_movement {
        return Err(Error::MovementRequired {
            id: hider.to_owned(),
        });
    }
    if !(-engine::MAX_VALUE..=engine::MAX_VALUE).contains(&total) {
        return Err(Error::out_of_range(
            "roll",
            total,
            -engine::MAX_VALUE,
            engine::MAX_VALUE,
        ));
    }
    engine::check_roll_allowed(tx, hider, "O7")?;
    let label = engine::label(tx, hider);

    let fresh_roll = tx
        .hiders
        .get(hider)
        .is_some_and(|h| h.phase == HiderPhase::Hiding);
    if fresh_roll {
        // O7: the new total replaces the held one and clears every penalty;
        // observers that perceive keep perceiving.
        if let Some(attempt) = tx
            .head_mut(hider)
            .and_then(|head| head.attempt.opposed_mut())
        {
            attempt.held_total = total;
            attempt.penalties.clear();
            attempt.precautions = precautions.to_vec();
        }
        let missing: Vec<String> = match tx.hiders.get(hider) {
            Some(record) => tx
                .creatures
                .keys()
                .filter(|id| id.as_str() != hider && !record.pairs.contains_key(id.as_str()))
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        for observer in missing {
            tx.pair_entry(hider, &observer, || {
                Pair::new(false, PairReason::NotInViewAtEntry)
            });
        }
        engine::record_view(tx, hider, view, || {
            Pair::new(false, PairReason::NotInViewAtEntry)
        });
        ctx.both(
            "O7",
            Some(hider),
            None,
            format!("{label} rolls a fresh Stealth check: held total {total}, penalties cleared; observers who perceive keep perceiving (O7)."),
            format!("{label} refait son test de Discrétion : total retenu {total}, malus effacés ; ceux qui le perçoivent continuent de le percevoir (O7)."),
            format!("{label} tries to stay hidden."),
            format!("{label} tente de rester caché."),
        );
        for observer in observers_of(tx, hider) {
            reevaluate(tx, hider, &observer, Trigger::FreshRoll, ctx);
        }
        engine::note_roll(tx, hider);
        return Ok(());
    }

    let mut record = Hider::new(Attempt::Opposed(OpposedAttempt {
        held_total: total,
        penalties: Vec::new(),
        precautions: precautions.to_vec(),
    }));
    record.moved_this_turn = moved;
    let state: &State = tx.state();
    for observer in state.creatures.keys() {
        if observer != hider {
            record.pairs.insert(
                observer.clone(),
                Pair::new(false, PairReason::NotInViewAtEntry),
            );
        }
    }
    for entry in view {
        let pair = record
            .pairs
            .entry(entry.observer.clone())
            .or_insert_with(|| Pair::new(false, PairReason::NotInViewAtEntry));
        pair.clear_view = entry.clear_view;
        pair.distance = entry.distance;
    }
    ctx.both(
        "O1",
        Some(hider),
        None,
        format!("{label} enters stealth: Stealth check {total} is held (O1)."),
        format!("{label} passe en discrétion : le test de Discrétion {total} est retenu (O1)."),
        format!("{label} tries to hide."),
        format!("{label} tente de se cacher."),
    );
    let mut decided: Vec<(String, PairReason)> = Vec::new();
    for (observer, creature) in &state.creatures {
        let Some(pair) = record.pairs.get(observer.as_str()) else {
            continue;
        };
        let observer_label = creature.label();
        if pair.clear_view {
            decided.push((observer.clone(), PairReason::WatchedAtEntry));
            ctx.both(
                "O2",
                Some(hider),
                Some(observer),
                format!("{observer_label} has {label} in clear view at entry: perceives, no roll; the attempt fails against it (O2)."),
                format!("{observer_label} a {label} en vue dégagée au moment où il se cache : le perçoit, sans jet ; la tentative échoue contre lui (O2)."),
                format!("{observer_label} watches {label} hide."),
                format!("{observer_label} voit {label} se cacher."),
            );
        } else if let Some(sense) = uncountered_sense(state, &record, observer, pair.distance) {
            decided.push((observer.clone(), PairReason::EnhancedSense));
            ctx.both(
                "O13",
                Some(hider),
                Some(observer),
                format!("{observer_label} perceives {label} with {} (range {}), no precaution against it: no roll (O13).", sense.sense, sense.range),
                format!("{observer_label} perçoit {label} par {} (portée {}), sans précaution contre ce sens : pas de jet (O13).", sense.sense, sense.range),
                format!("{observer_label} senses {label}."),
                format!("{observer_label} détecte {label}."),
            );
        } else {
            ctx.gm(
                "O2",
                Some(hider),
                Some(observer),
                format!("{observer_label} has no clear view of {label} at entry: starts unperceiving (O2)."),
                format!("{observer_label} n'a pas {label} en vue dégagée au moment où il se cache : ne le perçoit pas (O2)."),
            );
        }
    }
    for (observer, reason) in decided {
        if let Some(pair) = record.pairs.get_mut(&observer) {
            pair.perceived = true;
            pair.reason = reason;
        }
    }
    tx.insert_hider(hider, record);
    engine::note_roll(tx, hider);
    Ok(())
}

/// O4, O5, O13: clear view changed.
fn view_changed(
    tx: &mut Tx,
    hider: &str,
    moved: bool,
    view: &[ViewEntry],
    ctx: &mut Ctx,
) -> Result<(), Error> {
    engine::require_hiding(tx, hider)?;
    if moved {
        if let Some(head) = tx.head_mut(hider) {
            *head.moved_this_turn = true;
        }
    }
    engine::record_view(tx, hider, view, || {
        Pair::new(false, PairReason::NotInViewAtEntry)
    });
    for entry in view {
        reevaluate(tx, hider, &entry.observer, Trigger::View, ctx);
    }
    Ok(())
}

/// O4 / O9: the answer to a Perception check; stored for the pair.
fn perception_rolled(
    tx: &mut Tx,
    hider: &str,
    observer: &str,
    total: i64,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let hider_label = engine::label(tx, hider);
    let observer_label = engine::label(tx, observer);
    let record = engine::require_hiding(tx, hider)?;
    let effective = effective_total(tx, record, observer);
    // O4: a stored result is never rolled again in this stealth attempt;
    // only a requested check (O9 sets `check_pending`) replaces it. (Fix: an
    // unrequested second check used to overwrite the stored result.)
    if let Some(stored) = record
        .pairs
        .get(observer)
        .filter(|p| !p.check_pending)
        .and_then(|p| p.perception_total)
    {
        ctx.gm(
            "O4",
            Some(hider),
            Some(observer),
            format!("{observer_label} already made its Perception check against {hider_label} ({stored}); a stored result is never rolled again in this attempt: {total} is ignored (O4)."),
            format!("{observer_label} a déjà fait son test de Perception contre {hider_label} ({stored}) ; un résultat enregistré n'est jamais relancé pendant cette tentative : {total} est ignoré (O4)."),
        );
        return Ok(());
    }
    let Some(pair) = tx.pair_entry(hider, observer, || {
        Pair::new(false, PairReason::NotInViewAtEntry)
    }) else {
        return Ok(());
    };
    pair.perception_total = Some(total);
    pair.check_pending = false;
    if pair.perceived {
        ctx.gm(
            "O4",
            Some(hider),
            Some(observer),
            format!("{observer_label} already perceives {hider_label}; Perception {total} is stored (O4)."),
            format!("{observer_label} perçoit déjà {hider_label} ; la Perception {total} est enregistrée (O4)."),
        );
        return Ok(());
    }
    pair.reason = PairReason::PerceptionCheck;
    if total >= effective {
        pair.perceived = true;
        ctx.both(
            "O4",
            Some(hider),
            Some(observer),
            format!("Perception {total} ≥ stealth total {effective}: {observer_label} perceives {hider_label} (O4)."),
            format!("Perception {total} ≥ total de discrétion {effective} : {observer_label} perçoit {hider_label} (O4)."),
            format!("{observer_label} spots {hider_label}."),
            format!("{observer_label} repère {hider_label}."),
        );
    } else {
        ctx.gm(
            "O4",
            Some(hider),
            Some(observer),
            format!("Perception {total} < stealth total {effective}: {observer_label} does not perceive {hider_label}; the result is stored (O4)."),
            format!("Perception {total} < total de discrétion {effective} : {observer_label} ne perçoit pas {hider_label} ; le résultat est enregistré (O4)."),
        );
    }
    Ok(())
}

/// O3: an observer that perceives the hider points it out to allies.
fn point_out(
    tx: &mut Tx,
    hider: &str,
    observer: &str,
    allies: &[String],
    ctx: &mut Ctx,
) -> Result<(), Error> {
    engine::require_hiding(tx, hider)?;
    if !tx.perceives(observer, hider) {
        return Err(Error::ObserverDoesNotPerceive {
            observer: observer.to_owned(),
            hider: hider.to_owned(),
        });
    }
    for ally in allies {
        if !tx.allied(observer, ally) {
            return Err(Error::NotAllied {
                observer: observer.to_owned(),
                ally: ally.clone(),
            });
        }
    }
    let hider_label = engine::label(tx, hider);
    let observer_label = engine::label(tx, observer);
    let names: Vec<String> = allies.iter().map(|a| engine::label(tx, a)).collect();
    for ally in allies {
        let already = tx
            .hiders
            .get(hider)
            .and_then(|h| h.pairs.get(ally))
            .is_some_and(|p| p.perceived);
        if already {
            continue;
        }
        if let Some(pair) = tx.pair_entry(hider, ally, || Pair::new(true, PairReason::PointedOut)) {
            if !pair.perceived {
                pair.perceived = true;
                pair.reason = PairReason::PointedOut;
            }
        }
    }
    ctx.public(
        "O3",
        Some(hider),
        Some(observer),
        format!(
            "{observer_label} points out {hider_label} to {}: they perceive it, no roll (O3).",
            names.join(", ")
        ),
        format!(
            "{observer_label} signale {hider_label} à {} : ils le perçoivent, sans jet (O3).",
            names.join(", ")
        ),
    );
    Ok(())
}

/// O6: after a penalty, every stored result is compared with the new total.
fn recompare_all(tx: &mut Tx, hider: &str, ctx: &mut Ctx) {
    for observer in observers_of(tx, hider) {
        reevaluate(tx, hider, &observer, Trigger::Penalty, ctx);
    }
}

/// O8, O9: an attack. From hiding, a noisy attack is a global penalty and
/// the target makes an immediate Perception check.
fn attack(
    tx: &mut Tx,
    attacker: &str,
    target: &str,
    noisy: bool,
    hits: u32,
    area: bool,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let attacker_label = engine::label(tx, attacker);
    let target_label = engine::label(tx, target);
    let hiding = tx
        .hiders
        .get(attacker)
        .is_some_and(|h| h.phase == HiderPhase::Hiding);
    if !hiding {
        ctx.gm(
            "O8",
            Some(attacker),
            Some(target),
            format!("{attacker_label} is not hiding: the attack has no stealth effect."),
            format!(
                "{attacker_label} ne se cache pas : l'attaque n'a pas d'effet sur la discrétion."
            ),
        );
        return Ok(());
    }
    if noisy {
        let instances = if area { 1 } else { i64::from(hits.max(1)) };
        let amount = PENALTY_PER_HIT * instances;
        if let Some(attempt) = tx
            .head_mut(attacker)
            .and_then(|head| head.attempt.opposed_mut())
        {
            attempt.penalties.push(Penalty {
                amount,
                scope: PenaltyScope::All {},
                clause: "O8".into(),
            });
        }
        let how_en = if area {
            "an area effect counts once".to_owned()
        } else {
            format!("{instances} hit(s) × 5")
        };
        let how_fr = if area {
            "un effet de zone compte une fois".to_owned()
        } else {
            format!("{instances} coup(s) × 5")
        };
        ctx.gm(
            "O8",
            Some(attacker),
            None,
            format!("Noisy attack by {attacker_label}: -{amount} to the held total for every observer ({how_en}) (O8)."),
            format!("Attaque bruyante de {attacker_label} : -{amount} au total retenu pour tous les observateurs ({how_fr}) (O8)."),
        );
        recompare_all(tx, attacker, ctx);
    } else {
        ctx.gm(
            "O8",
            Some(attacker),
            None,
            format!("Silent attack by {attacker_label}: no penalty (O8)."),
            format!("Attaque silencieuse de {attacker_label} : aucun malus (O8)."),
        );
    }
    if !tx.perceives(target, attacker) {
        let effective = tx
            .hiders
            .get(attacker)
            .map(|h| effective_total(tx, h, target))
            .unwrap_or_default();
        if let Some(pair) = tx.pair_entry(attacker, target, || {
            Pair::new(false, PairReason::NotInViewAtEntry)
        }) {
            pair.check_pending = true;
        }
        ctx.requests.push(Request::PerceptionCheck {
            hider: attacker.to_owned(),
            observer: target.to_owned(),
            clause: "O9".into(),
        });
        ctx.both(
            "O9",
            Some(attacker),
            Some(target),
            format!("{target_label} knows the direction of the attack and makes an immediate Perception check against {effective} (O9)."),
            format!("{target_label} connaît la direction de l'attaque et fait un test de Perception immédiat contre {effective} (O9)."),
            format!("{target_label} knows where the attack came from."),
            format!("{target_label} sait d'où vient l'attaque."),
        );
    }
    Ok(())
}

/// O11: damage to a hider is a penalty against the attacker's allies.
fn damage_taken(
    tx: &mut Tx,
    target: &str,
    attacker: &str,
    hits: u32,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let side = tx.creature("attacker", attacker)?.side.clone();
    let attacker_label = engine::label(tx, attacker);
    let target_label = engine::label(tx, target);
    let amount = PENALTY_PER_HIT * i64::from(hits);
    engine::require_hiding(tx, target)?;
    if let Some(attempt) = tx
        .head_mut(target)
        .and_then(|head| head.attempt.opposed_mut())
    {
        attempt.penalties.push(Penalty {
            amount,
            scope: PenaltyScope::AlliesOf {
                attacker: attacker.to_owned(),
                side: side.clone(),
            },
            clause: "O11".into(),
        });
    }
    ctx.gm(
        "O11",
        Some(target),
        Some(attacker),
        format!("{target_label} takes {hits} damaging hit(s) from {attacker_label}: -{amount} against the allies of {attacker_label} (side `{side}`), not {attacker_label} itself (O11)."),
        format!("{target_label} subit {hits} coup(s) de {attacker_label} : -{amount} contre les alliés de {attacker_label} (camp `{side}`), pas contre {attacker_label} (O11)."),
    );
    recompare_all(tx, target, ctx);
    Ok(())
}

/// O12: sprinting while hidden ends the attempt.
fn sprint(tx: &mut Tx, token: &str, ctx: &mut Ctx) {
    let label = engine::label(tx, token);
    let hiding = tx
        .hiders
        .get(token)
        .is_some_and(|h| h.phase == HiderPhase::Hiding);
    if hiding {
        tx.remove_hider(token);
        ctx.public(
            "O12",
            Some(token),
            None,
            format!("{label} sprints: the stealth attempt ends and everyone perceives them (O12)."),
            format!("{label} sprinte : la tentative de discrétion prend fin et tout le monde le perçoit (O12)."),
        );
    } else {
        ctx.gm(
            "O12",
            Some(token),
            None,
            format!("{label} sprints and cannot enter stealth this movement (O12)."),
            format!(
                "{label} sprinte et ne peut pas passer en discrétion pendant ce mouvement (O12)."
            ),
        );
    }
}

/// O7: the hider's turn starts; it may roll a fresh check.
pub(crate) fn turn_start(state: &State, combatant: &str, ctx: &mut Ctx) {
    if state
        .hiders
        .get(combatant)
        .is_some_and(|h| h.phase == HiderPhase::Hiding)
    {
        let label = engine::label(state, combatant);
        ctx.gm(
            "O7",
            Some(combatant),
            None,
            format!("Turn of {label}: it may roll a fresh Stealth check that replaces the held total and clears penalties (O7)."),
            format!("Tour de {label} : il peut refaire son test de Discrétion, qui remplace le total retenu et efface les malus (O7)."),
        );
    }
}

/// O5: at the end of the hider's turn, exposed pairs whose view holds become perceived.
pub(crate) fn turn_end(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
    let label = engine::label(tx, combatant);
    let Some(record) = tx
        .hiders
        .get(combatant)
        .filter(|h| h.phase == HiderPhase::Hiding)
    else {
        return;
    };
    let moved = record.moved_this_turn;
    // (Fix: a pair whose first check was still pending counted as exposed;
    // O5 needs a failed check, see `Pair::is_exposed`.)
    let exposed: Vec<String> = record
        .pairs
        .iter()
        .filter(|(o, p)| p.is_exposed() && tx.creatures.contains_key(*o))
        .map(|(o, _)| o.clone())
        .collect();
    let broken: Vec<String> = record
        .pairs
        .iter()
        .filter(|(_, p)| !p.clear_view && !p.perceived && p.perception_total.is_some())
        .map(|(o, _)| o.clone())
        .collect();
    for observer in exposed {
        let observer_label = engine::label(tx, &observer);
        if let Some(pair) = tx.pair_mut(combatant, &observer) {
            pair.perceived = true;
            pair.reason = PairReason::Exposure;
        }
        ctx.public(
            "O5",
            Some(combatant),
            Some(&observer),
            format!("{label} ends the turn still in clear view of {observer_label}: {observer_label} perceives {label} (O5)."),
            format!("{label} finit son tour toujours en vue dégagée de {observer_label} : {observer_label} perçoit {label} (O5)."),
        );
    }
    if moved && !broken.is_empty() {
        let names: Vec<String> = broken.iter().map(|o| engine::label(tx, o)).collect();
        ctx.gm(
            "O5",
            Some(combatant),
            None,
            format!(
                "{label} moved and broke clear view with {}: stays hidden from them (O5).",
                names.join(", ")
            ),
            format!(
                "{label} s'est déplacé et a rompu la vue dégagée avec {} : reste caché d'eux (O5).",
                names.join(", ")
            ),
        );
    }
}

/// A creature joined or changed: it gets a pair with every hider
/// (unperceiving until it comes into view, O2/O4), and its senses are
/// checked again (O13).
pub(crate) fn observer_updated(tx: &mut Tx, observer: &str, ctx: &mut Ctx) {
    let hiders: Vec<String> = tx
        .hiders
        .iter()
        .filter(|(id, h)| id.as_str() != observer && h.phase == HiderPhase::Hiding)
        .map(|(id, _)| id.clone())
        .collect();
    for hider in hiders {
        if !tx
            .hiders
            .get(&hider)
            .is_some_and(|h| h.pairs.contains_key(observer))
        {
            tx.pair_entry(&hider, observer, || {
                Pair::new(false, PairReason::NotInViewAtEntry)
            });
        }
        reevaluate(tx, &hider, observer, Trigger::View, ctx);
    }
}
