//! Ruleset `opposed`: the English Stealth-versus-Perception rules (O1-O13).
//!
//! The hider rolls once and holds the total (O1). Observers with clear view
//! at entry perceive it (O2); others check when they get clear view (O4),
//! and the result is stored. Penalties lower the held total and every stored
//! result is compared again (O6, O8, O11). Exposure (O5) reveals at the end
//! of the hider's turn. Enhanced senses bypass stealth unless countered (O13).

use crate::clause::Clause;
use crate::combat;
use crate::context::{self, Ctx};
use crate::error::Error;
use crate::event::ViewEntry;
use crate::explain;
use crate::journal::{PairTx, Tx};
use crate::question::{AttackMode, HiddenAttackQuery, HiddenAttackResult};
use crate::rules::{AttackInstance, Rules, StealthRoll};
use crate::state::{
    Attempt, Creature, EnhancedSense, Hider, HiderPhase, OpposedAttempt, Pair, PairReason, Penalty,
    PenaltyScope, Ruleset, State, TokenId, TokenMap,
};

/// O8 and O11: each noisy attack instance or damaging hit costs 5.
pub const PENALTY_PER_HIT: i64 = 5;

/// The `opposed` ruleset (O1-O13). It has no `modifiersChanged` (P4):
/// that event keeps the trait's `wrong_ruleset`.
pub(crate) struct OpposedRules;

impl Rules for OpposedRules {
    const RULESET: Ruleset = Ruleset::Opposed;

    /// O1, O2, O7, O12, O13: a Stealth check is rolled and held.
    fn enter_stealth(tx: &mut Tx, roll: &StealthRoll, ctx: &mut Ctx) -> Result<(), Error> {
        let StealthRoll {
            hider,
            roll: total,
            moved,
            sprinting,
            precautions,
            view,
            ..
        } = *roll;
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
        // The total's range is checked at the boundary (`validate`).
        combat::check_roll_allowed(tx, hider, Clause::O7)?;
        let label = context::label(tx, hider);

        let fresh_roll = tx
            .hiders
            .get(hider)
            .is_some_and(|h| h.phase == HiderPhase::Hiding);
        if fresh_roll {
            // O7: the new total replaces the held one and clears every penalty;
            // observers that perceive keep perceiving. O5: a roll made as part
            // of a movement (O1) is a move this turn.
            if let Some(head) = tx.head_mut(hider) {
                *head.moved_this_turn |= moved;
                if let Some(attempt) = head.attempt.opposed_mut() {
                    attempt.held_total = total;
                    attempt.penalties.clear();
                    attempt.precautions = precautions.to_vec();
                }
            }
            let missing: Vec<TokenId> = match tx.hiders.get(hider) {
                Some(record) => tx
                    .creatures
                    .keys()
                    .filter(|id| id.as_str() != hider && !record.pairs.contains_key(id.as_str()))
                    .cloned()
                    .collect(),
                None => Vec::new(),
            };
            for observer in missing {
                tx.pair_entry(
                    hider,
                    &observer,
                    Pair::new(false, PairReason::NotInViewAtEntry),
                );
            }
            tx.record_view(
                hider,
                view,
                Pair::new(false, PairReason::NotInViewAtEntry),
                |_, _| {},
            );
            ctx.both(
                Clause::O7,
                Some(hider),
                None,
                explain::o7_fresh_roll(&label, total),
            );
            let hider_label = context::label(tx, hider);
            // Shared by every request and log entry about its pairs.
            let hider_id = TokenId::from(hider);
            for observer in observers_of(tx, hider) {
                let trigger = Trigger::FreshRoll;
                if let Reevaluated::Undecided { exposed: true } =
                    reevaluate(tx, &hider_id, &hider_label, &observer, trigger, ctx)
                {
                    note_exposed(tx, hider, &observer);
                }
            }
            combat::note_roll(tx, hider);
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
            Clause::O1,
            Some(hider),
            None,
            explain::o1_enter_stealth(&label, total),
        );
        let mut decided: Vec<(TokenId, PairReason)> = Vec::new();
        for (observer, creature) in &state.creatures {
            let Some(pair) = record.pairs.get(observer.as_str()) else {
                continue;
            };
            let observer_label = creature.label();
            if pair.clear_view {
                decided.push((observer.clone(), PairReason::WatchedAtEntry));
                ctx.both(
                    Clause::O2,
                    Some(hider),
                    Some(observer),
                    explain::o2_watched_at_entry(observer_label, &label),
                );
            } else if let Some(sense) = uncountered_sense(state, &record, observer, pair.distance) {
                decided.push((observer.clone(), PairReason::EnhancedSense));
                ctx.both(
                    Clause::O13,
                    Some(hider),
                    Some(observer),
                    explain::o13_sensed_at_entry(observer_label, &label, &sense.sense, sense.range),
                );
            } else {
                ctx.gm(
                    Clause::O2,
                    Some(hider),
                    Some(observer),
                    explain::o2_not_in_view_at_entry(observer_label, &label),
                );
            }
        }
        for (observer, reason) in decided {
            if let Some(pair) = record.pairs.get_mut(&observer) {
                pair.perceived = true;
                pair.exposed = false;
                pair.reason = reason;
            }
        }
        tx.insert_hider(hider, record);
        combat::note_roll(tx, hider);
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
        tx.hiding(hider)?;
        if moved {
            if let Some(head) = tx.head_mut(hider) {
                *head.moved_this_turn = true;
            }
        }
        let hider_label = context::label(tx, hider);
        // Shared by every request and log entry about its pairs.
        let hider_id = TokenId::from(hider);
        let new_pair = Pair::new(false, PairReason::NotInViewAtEntry);
        // Each named pair found once: its view recorded, then re-decided. A
        // pair whose view is unchanged is not written (nor journaled).
        tx.record_view(hider, view, new_pair, |entry, mut slot| {
            let observer_creature = slot.creatures.get(&entry.observer);
            let decided = redecide(
                &mut slot,
                observer_creature,
                &hider_id,
                &hider_label,
                &entry.observer,
                Trigger::View,
                ctx,
            );
            if let Reevaluated::Undecided { exposed: true } = decided {
                // O5: remembered until the end of the hider's turn.
                slot.pair_mut().exposed = true;
            }
        });
        Ok(())
    }

    fn perception_rolled(
        tx: &mut Tx,
        hider: &str,
        observer: &str,
        total: i64,
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        perception_rolled(tx, hider, observer, total, ctx)?;
        note_exposure(tx, hider, observer);
        Ok(())
    }

    /// O3: an observer that perceives the hider points it out to allies.
    /// *Decided*: each named ally perceives the hider; a named creature that is
    /// not an ally of the observer is unaffected, and the log says so. A list
    /// with no ally at all is refused (`not_allied`, naming the first).
    fn point_out(
        tx: &mut Tx,
        hider: &str,
        observer: &str,
        named: &[TokenId],
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        tx.hiding(hider)?;
        if !tx.perceives(observer, hider) {
            return Err(Error::ObserverDoesNotPerceive {
                observer: observer.to_owned(),
                hider: hider.to_owned(),
            });
        }
        let (allies, others): (Vec<&TokenId>, Vec<&TokenId>) =
            named.iter().partition(|named| tx.allied(observer, named));
        if allies.is_empty() {
            return Err(Error::NotAllied {
                observer: observer.to_owned(),
                ally: named.first().map(ToString::to_string).unwrap_or_default(),
            });
        }
        let hider_label = context::label(tx, hider);
        let observer_label = context::label(tx, observer);
        let names: Vec<String> = allies.iter().map(|a| context::label(tx, a)).collect();
        for ally in allies {
            let already = tx
                .hiders
                .get(hider)
                .and_then(|h| h.pairs.get(ally))
                .is_some_and(|p| p.perceived);
            if already {
                continue;
            }
            if let Some(pair) = tx.pair_entry(hider, ally, Pair::new(true, PairReason::PointedOut))
            {
                if !pair.perceived {
                    pair.perceived = true;
                    pair.exposed = false;
                    pair.reason = PairReason::PointedOut;
                }
            }
        }
        ctx.public(
            Clause::O3,
            Some(hider),
            Some(observer),
            explain::o3_pointed_out(&observer_label, &hider_label, names),
        );
        if !others.is_empty() {
            let others: Vec<String> = others.iter().map(|o| context::label(tx, o)).collect();
            ctx.public(
                Clause::O3,
                Some(hider),
                Some(observer),
                explain::o3_not_allies(&observer_label, others),
            );
        }
        Ok(())
    }

    /// O8, O9: one attack instance. From hiding, a noisy instance is one global
    /// penalty (each hit counts; an area effect or several targets count once),
    /// and each target that does not perceive the attacker makes an immediate
    /// Perception check.
    fn attack(tx: &mut Tx, attack: &AttackInstance, ctx: &mut Ctx) -> Result<(), Error> {
        let AttackInstance {
            attacker,
            noisy,
            hits,
            area,
            ..
        } = *attack;
        let targets = attack.targets.as_slice();
        let attacker_label = context::label(tx, attacker);
        let hiding = tx
            .hiders
            .get(attacker)
            .is_some_and(|h| h.phase == HiderPhase::Hiding);
        let single = match targets {
            [target] => Some(*target),
            _ => None,
        };
        if !hiding {
            ctx.gm(
                Clause::O8,
                Some(attacker),
                single,
                explain::o8_attacker_not_hiding(&attacker_label),
            );
            return Ok(());
        }
        if noisy {
            let once = area || targets.len() > 1;
            let instances = if once { 1 } else { i64::from(hits.max(1)) };
            let amount = PENALTY_PER_HIT * instances;
            if let Some(attempt) = tx
                .head_mut(attacker)
                .and_then(|head| head.attempt.opposed_mut())
            {
                attempt.penalties.push(Penalty {
                    amount,
                    scope: PenaltyScope::All {},
                    clause: Clause::O8,
                });
            }
            ctx.gm(
                Clause::O8,
                Some(attacker),
                None,
                explain::o8_noisy_attack(&attacker_label, amount, area, targets.len(), instances),
            );
            recompare_all(tx, attacker, ctx);
        } else {
            ctx.gm(
                Clause::O8,
                Some(attacker),
                None,
                explain::o8_silent_attack(&attacker_label),
            );
        }
        for &target in targets {
            // O9: the check is "to see the attacker precisely", so a target that
            // perceives only its presence (O13, non-targeting sense) checks too.
            if locates(tx, attacker, target) {
                continue;
            }
            let target_label = context::label(tx, target);
            let effective = tx
                .hiders
                .get(attacker)
                .map(|h| effective_total(tx, h, target))
                .unwrap_or_default();
            if let Some(pair) = tx.pair_entry(
                attacker,
                target,
                Pair::new(false, PairReason::NotInViewAtEntry),
            ) {
                pair.check_pending = true;
            }
            ctx.request_check(attacker, target, Clause::O9);
            ctx.both(
                Clause::O9,
                Some(attacker),
                Some(target),
                explain::o9_target_checks(&target_label, effective),
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
        // Both tokens are known (`validate`).
        let side = tx
            .creatures
            .get(attacker)
            .map(|c| c.side.clone())
            .unwrap_or_default();
        let attacker_label = context::label(tx, attacker);
        let target_label = context::label(tx, target);
        let amount = PENALTY_PER_HIT * i64::from(hits);
        tx.hiding(target)?;
        if let Some(attempt) = tx
            .head_mut(target)
            .and_then(|head| head.attempt.opposed_mut())
        {
            attempt.penalties.push(Penalty {
                amount,
                scope: PenaltyScope::AlliesOf {
                    attacker: attacker.into(),
                    side: side.clone(),
                },
                clause: Clause::O11,
            });
        }
        ctx.gm(
            Clause::O11,
            Some(target),
            Some(attacker),
            explain::o11_damage_penalty(&target_label, hits, &attacker_label, amount, &side),
        );
        recompare_all(tx, target, ctx);
        Ok(())
    }

    /// O12: sprinting while hidden ends the attempt.
    fn sprint(tx: &mut Tx, token: &str, ctx: &mut Ctx) -> Result<(), Error> {
        let label = context::label(tx, token);
        let hiding = tx
            .hiders
            .get(token)
            .is_some_and(|h| h.phase == HiderPhase::Hiding);
        if hiding {
            tx.remove_hider(token);
            ctx.public(
                Clause::O12,
                Some(token),
                None,
                explain::o12_sprint_ends_attempt(&label),
            );
        } else {
            ctx.gm(
                Clause::O12,
                Some(token),
                None,
                explain::o12_sprint_not_hiding(&label),
            );
        }
        Ok(())
    }

    /// A creature joined or changed: it gets a pair with every hider
    /// (unperceiving until it comes into view, O2/O4), and its senses are
    /// checked again (O13).
    fn observer_updated(tx: &mut Tx, observer: &str, ctx: &mut Ctx) {
        let hiders: Vec<TokenId> = tx
            .hiders
            .iter()
            .filter(|(id, h)| id.as_str() != observer && h.phase == HiderPhase::Hiding)
            .map(|(id, _)| id.clone())
            .collect();
        let observer_id = TokenId::from(observer);
        for hider in hiders {
            if !tx
                .hiders
                .get(&hider)
                .is_some_and(|h| h.pairs.contains_key(observer))
            {
                tx.pair_entry(
                    &hider,
                    observer,
                    Pair::new(false, PairReason::NotInViewAtEntry),
                );
            }
            let hider_label = context::label(tx, &hider);
            reevaluate(tx, &hider, &hider_label, &observer_id, Trigger::View, ctx);
        }
    }

    /// O7: the hider's turn starts; it may roll a fresh check.
    fn turn_started(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
        if tx
            .hiders
            .get(combatant)
            .is_some_and(|h| h.phase == HiderPhase::Hiding)
        {
            let label = context::label(tx, combatant);
            ctx.gm(
                Clause::O7,
                Some(combatant),
                None,
                explain::o7_turn_start(&label),
            );
        }
    }

    /// O5: at the end of the hider's turn, its exposed pairs (clear view and a
    /// failed check, now or earlier in the turn) become perceived, unless the
    /// hider moved during the turn and the view is now broken. *Decided* (the
    /// seed read literally): a hider that did not move is revealed to its
    /// exposed observers even when one of them walked out of view.
    fn turn_ending(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
        let label = context::label(tx, combatant);
        let Some(record) = tx
            .hiders
            .get(combatant)
            .filter(|h| h.phase == HiderPhase::Hiding)
        else {
            return;
        };
        let moved = record.moved_this_turn;
        let mut in_view = Vec::new();
        let mut broken = Vec::new();
        let mut remembered = Vec::new();
        for (observer, pair) in &record.pairs {
            if pair.exposed {
                remembered.push(observer.clone());
            }
            if pair.perceived || !tx.creatures.contains_key(observer) {
                continue;
            }
            if failed_in_view(&tx.creatures, &record.attempt, observer, pair) {
                in_view.push(observer.clone());
            } else if pair.exposed {
                broken.push(observer.clone());
            }
        }
        let revealed: Vec<(TokenId, bool)> = in_view
            .into_iter()
            .map(|o| (o, true))
            .chain(broken.iter().filter(|_| !moved).map(|o| (o.clone(), false)))
            .collect();
        for (observer, still_in_view) in &revealed {
            let observer_label = context::label(tx, observer);
            if let Some(pair) = tx.pair_mut(combatant, observer) {
                pair.perceived = true;
                pair.exposed = false;
                pair.reason = PairReason::Exposure;
            }
            let message = if *still_in_view {
                explain::o5_revealed_in_view(&label, &observer_label)
            } else {
                explain::o5_revealed_did_not_move(&label, &observer_label)
            };
            ctx.public(Clause::O5, Some(combatant), Some(observer), message);
        }
        // The exposure is settled: what is left of it ends with the turn.
        for observer in &remembered {
            if let Some(pair) = tx.pair_mut(combatant, observer) {
                pair.exposed = false;
            }
        }
        if moved && !broken.is_empty() {
            let names: Vec<String> = broken.iter().map(|o| context::label(tx, o)).collect();
            ctx.gm(
                Clause::O5,
                Some(combatant),
                None,
                explain::o5_moved_out_of_view(&label, names),
            );
        }
    }

    fn combat_ending(_tx: &mut Tx, _ctx: &mut Ctx) {}
}

/// O6: the held total as `observer` faces it: held total minus every
/// penalty that applies to that observer.
pub fn effective_total(state: &State, hider: &Hider, observer: &str) -> i64 {
    effective_total_in(&state.creatures, &hider.attempt, observer)
}

/// [`effective_total`] from the hider's roll and the creatures.
fn effective_total_in(creatures: &TokenMap<Creature>, attempt: &Attempt, observer: &str) -> i64 {
    let Some(attempt) = attempt.opposed() else {
        return 0;
    };
    // The observer's side matters only to an O11 penalty: looked up once, then.
    let mut side = None;
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
                        && *side
                            .get_or_insert_with(|| creatures.get(observer).map(|c| c.side.as_str()))
                            == Some(attacker_side.as_str())
                }
            };
            if applies {
                total.saturating_sub(penalty.amount)
            } else {
                total
            }
        })
}

/// O13: the observer's first enhanced sense that reaches the hider and that
/// the hider's precautions do not counter.
pub fn uncountered_sense<'a>(
    state: &'a State,
    hider: &Hider,
    observer: &str,
    distance: Option<f64>,
) -> Option<&'a EnhancedSense> {
    sense_reaching(state.creatures.get(observer)?, &hider.attempt, distance)
}

/// [`uncountered_sense`] for an observer already looked up, against the
/// hider's roll in force (its precautions).
fn sense_reaching<'a>(
    observer: &'a Creature,
    attempt: &Attempt,
    distance: Option<f64>,
) -> Option<&'a EnhancedSense> {
    let distance = distance?;
    observer.enhanced_senses.iter().find(|sense| {
        distance <= sense.range
            && !attempt.opposed().is_some_and(|a| {
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

/// What [`reevaluate`] did to a pair.
enum Reevaluated {
    /// It wrote the unperceived pair: perceived now, or waiting for its
    /// check; so not exposed (O5, [`Pair::is_exposed`]).
    Decided,
    /// It decided nothing new; `exposed`: the pair is exposed (O5) and not
    /// yet remembered as such.
    Undecided { exposed: bool },
}

/// Re-decides one pair after its view, the total or the penalties changed:
/// O13 senses, then the stored check (O4/O6), then a new check if the
/// observer has clear view and never rolled (O4). Perceived pairs stay
/// perceived. Writes only a pair that changes. `hider_label` is the hider's
/// display name ([`context::label`]), looked up once by the caller.
///
/// Returns what it did ([`Reevaluated`]): the caller notes an exposure
/// (O5, [`note_exposed`]).
fn reevaluate(
    tx: &mut Tx,
    hider: &TokenId,
    hider_label: &String,
    observer: &TokenId,
    trigger: Trigger,
    ctx: &mut Ctx,
) -> Reevaluated {
    // The pair, its hider's roll and the observer, each looked up once.
    let Some(mut slot) = tx.pair_tx(hider, observer) else {
        return Reevaluated::Undecided { exposed: false };
    };
    let observer_creature = slot.creatures.get(observer);
    redecide(
        &mut slot,
        observer_creature,
        hider,
        hider_label,
        observer,
        trigger,
        ctx,
    )
}

/// [`reevaluate`] on a pair already found, with its observer's creature
/// (`None`: unknown).
fn redecide(
    slot: &mut PairTx,
    observer_creature: Option<&Creature>,
    hider: &TokenId,
    hider_label: &String,
    observer: &TokenId,
    trigger: Trigger,
    ctx: &mut Ctx,
) -> Reevaluated {
    let pair = slot.pair();
    if pair.perceived {
        if pair.reason == PairReason::EnhancedSense {
            locate(
                slot,
                observer_creature,
                hider,
                hider_label,
                observer,
                trigger,
                ctx,
            );
        }
        return Reevaluated::Undecided { exposed: false };
    }
    // O5, if nothing below decides the pair.
    let undecided = Reevaluated::Undecided {
        exposed: pair.is_exposed() && !pair.exposed,
    };
    let stored = pair.perception_total;
    let distance = pair.distance;
    let needs_check = pair.clear_view && stored.is_none() && !pair.check_pending;
    let (attempt, creatures) = (slot.attempt, slot.creatures);
    let sense = observer_creature.and_then(|c| sense_reaching(c, attempt, distance));
    if sense.is_none() && !needs_check && stored.is_none() {
        // Nothing decides this pair yet: out of view, never checked.
        return undecided;
    }
    let observer_label = observer_creature.map_or(observer, |c| c.label());
    let effective = effective_total_in(creatures, attempt, observer);
    if let Some(sense) = sense {
        ctx.both_pair(
            Clause::O13,
            hider,
            observer,
            explain::o13_sensed(
                observer_label,
                hider_label,
                &sense.sense,
                sense.targeting,
                sense.range,
                distance.unwrap_or_default(),
            ),
        );
        let pair = slot.pair_mut();
        pair.perceived = true;
        pair.exposed = false;
        pair.reason = PairReason::EnhancedSense;
        return Reevaluated::Decided;
    }
    if let Some(total) = stored {
        if total >= effective {
            let (clause, reason) = match trigger {
                Trigger::View => (Clause::O4, PairReason::PerceptionCheck),
                Trigger::Penalty => (Clause::O6, PairReason::Penalty),
                Trigger::FreshRoll => (Clause::O7, PairReason::PerceptionCheck),
            };
            ctx.both_pair(
                clause,
                hider,
                observer,
                explain::o4_stored_check_perceives(
                    total,
                    effective,
                    observer_label,
                    hider_label,
                    clause,
                ),
            );
            let pair = slot.pair_mut();
            pair.perceived = true;
            pair.exposed = false;
            pair.reason = reason;
            return Reevaluated::Decided;
        }
    }
    if needs_check {
        ctx.request_check(hider, observer, Clause::O4);
        ctx.gm_pair(
            Clause::O4,
            hider,
            observer,
            explain::o4_check_requested(observer_label, hider_label, effective),
        );
        slot.pair_mut().check_pending = true;
        return Reevaluated::Decided;
    }
    undecided
}

/// Whether `observer` knows `hider`'s exact space (O13): it perceives the
/// hider, and not only through a non-targeting enhanced sense (pair reason
/// `enhanced_sense` while no targeting sense reaches the hider). A
/// successful O4 check locates it (the reason becomes `perception_check`).
pub fn locates(state: &State, hider: &str, observer: &str) -> bool {
    if !state.perceives(observer, hider) {
        return false;
    }
    let Some(record) = state.hiders.get(hider) else {
        return true;
    };
    match record.pairs.get(observer) {
        Some(pair) if pair.reason == PairReason::EnhancedSense => {
            uncountered_sense(state, record, observer, pair.distance).is_some_and(|s| s.targeting)
        }
        _ => true,
    }
}

/// O13, *Decided*: an observer that perceives only the hider's presence
/// (non-targeting sense) and has it in clear view makes one O4 check to
/// locate it; a stored result locates it once it reaches the effective
/// total (O6 penalties included). Until then O10 applies to its attacks.
///
/// For a perceived pair whose reason is `enhanced_sense` ([`redecide`]):
/// [`locates`] reads, for it, as a targeting sense reaching the hider.
fn locate(
    slot: &mut PairTx,
    observer_creature: Option<&Creature>,
    hider: &TokenId,
    hider_label: &String,
    observer: &TokenId,
    trigger: Trigger,
    ctx: &mut Ctx,
) {
    let pair = slot.pair();
    let located = observer_creature
        .and_then(|c| sense_reaching(c, slot.attempt, pair.distance))
        .is_some_and(|sense| sense.targeting);
    if located {
        return;
    }
    let effective = effective_total_in(slot.creatures, slot.attempt, observer);
    let observer_label = observer_creature.map_or(observer, |c| c.label());
    match pair.perception_total {
        Some(total) if total >= effective => {
            // The clause that brought the stored check to the total, as
            // `redecide` cites it.
            let (clause, reason) = match trigger {
                Trigger::View => (Clause::O4, PairReason::PerceptionCheck),
                Trigger::Penalty => (Clause::O6, PairReason::Penalty),
                Trigger::FreshRoll => (Clause::O7, PairReason::PerceptionCheck),
            };
            ctx.both_pair(
                Clause::O13,
                hider,
                observer,
                explain::o13_stored_check_locates(
                    total,
                    effective,
                    observer_label,
                    hider_label,
                    clause,
                ),
            );
            slot.pair_mut().reason = reason;
        }
        None if pair.clear_view && !pair.check_pending => {
            ctx.request_check(hider, observer, Clause::O13);
            ctx.gm_pair(
                Clause::O13,
                hider,
                observer,
                explain::o13_locating_check_requested(observer_label, hider_label, effective),
            );
            slot.pair_mut().check_pending = true;
        }
        _ => {}
    }
}

/// O5: remembers that a pair is exposed (clear view, failed check). The
/// memory outlives the view: it is read and cleared at the end of the
/// hider's turn, where a hider that did not move is revealed to every
/// observer it was exposed to, even one that walked out of view.
fn note_exposure(tx: &mut Tx, hider: &str, observer: &str) {
    let exposed_now = tx.hiders.get(hider).is_some_and(|h| {
        h.pairs
            .get(observer)
            .is_some_and(|p| !p.exposed && failed_in_view(&tx.creatures, &h.attempt, observer, p))
    });
    if exposed_now {
        if let Some(pair) = tx.pair_mut(hider, observer) {
            pair.exposed = true;
        }
    }
}

/// O5: the pair is exposed ([`Pair::is_exposed`]) and its stored check is
/// below the effective total: it failed.
fn failed_in_view(
    creatures: &TokenMap<Creature>,
    attempt: &Attempt,
    observer: &str,
    pair: &Pair,
) -> bool {
    pair.is_exposed()
        && pair
            .perception_total
            .is_some_and(|total| total < effective_total_in(creatures, attempt, observer))
}

/// O5: the pair of `record` with `observer` is exposed now (clear view, a
/// failed check against the effective total).
pub(crate) fn failed_in_view_of(
    state: &State,
    record: &Hider,
    observer: &str,
    pair: &Pair,
) -> bool {
    failed_in_view(&state.creatures, &record.attempt, observer, pair)
}

/// O5: [`note_exposure`] for a pair [`reevaluate`] found newly exposed.
fn note_exposed(tx: &mut Tx, hider: &str, observer: &str) {
    if let Some(mut slot) = tx.pair_tx(hider, observer) {
        slot.pair_mut().exposed = true;
    }
}

fn observers_of(state: &State, hider: &str) -> Vec<TokenId> {
    state
        .hiders
        .get(hider)
        .map(|h| h.pairs.keys().cloned().collect())
        .unwrap_or_default()
}

/// O4 / O9: the answer to a Perception check; stored for the pair.
fn perception_rolled(
    tx: &mut Tx,
    hider: &str,
    observer: &str,
    total: i64,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let hider_label = context::label(tx, hider);
    let observer_label = context::label(tx, observer);
    let record = tx.hiding(hider)?;
    let effective = effective_total(tx, record, observer);
    // A targeting sense already gives the space (O13).
    let presence_located = locates(tx, hider, observer);
    // O4: a stored result is never rolled again in this stealth attempt;
    // only a requested check (O9 sets `check_pending`) replaces it.
    if let Some(stored) = record
        .pairs
        .get(observer)
        .filter(|p| !p.check_pending)
        .and_then(|p| p.perception_total)
    {
        ctx.gm(
            Clause::O4,
            Some(hider),
            Some(observer),
            explain::o4_stored_result_kept(&observer_label, &hider_label, stored, total),
        );
        return Ok(());
    }
    let Some(pair) = tx.pair_entry(
        hider,
        observer,
        Pair::new(false, PairReason::NotInViewAtEntry),
    ) else {
        return Ok(());
    };
    pair.perception_total = Some(total);
    pair.check_pending = false;
    if pair.perceived && pair.reason == PairReason::EnhancedSense && !presence_located {
        // O13: the check that locates a hider sensed only by its presence.
        if total >= effective {
            pair.reason = PairReason::PerceptionCheck;
            ctx.both(
                Clause::O13,
                Some(hider),
                Some(observer),
                explain::o13_check_locates(total, effective, &observer_label, &hider_label),
            );
        } else {
            ctx.gm(
                Clause::O13,
                Some(hider),
                Some(observer),
                explain::o13_check_does_not_locate(total, effective, &observer_label, &hider_label),
            );
        }
        return Ok(());
    }
    if pair.perceived {
        ctx.gm(
            Clause::O4,
            Some(hider),
            Some(observer),
            explain::o4_already_perceives(&observer_label, &hider_label, total),
        );
        return Ok(());
    }
    pair.reason = PairReason::PerceptionCheck;
    if total >= effective {
        pair.perceived = true;
        pair.exposed = false;
        ctx.both(
            Clause::O4,
            Some(hider),
            Some(observer),
            explain::o4_check_perceives(total, effective, &observer_label, &hider_label),
        );
    } else {
        ctx.gm(
            Clause::O4,
            Some(hider),
            Some(observer),
            explain::o4_check_fails(total, effective, &observer_label, &hider_label),
        );
    }
    Ok(())
}

/// O6: after a penalty, every stored result is compared with the new total.
fn recompare_all(tx: &mut Tx, hider: &str, ctx: &mut Ctx) {
    let hider_label = context::label(tx, hider);
    // Shared by every request and log entry about its pairs.
    let hider_id = TokenId::from(hider);
    for observer in observers_of(tx, hider) {
        reevaluate(
            tx,
            &hider_id,
            &hider_label,
            &observer,
            Trigger::Penalty,
            ctx,
        );
    }
}

// ---------------------------------------------------------------- queries

/// O10, O13: how an attacker rolls against a hider.
pub(crate) fn attack_hidden(state: &State, query: &HiddenAttackQuery) -> HiddenAttackResult {
    let a = context::label(state, &query.attacker);
    let t = context::label(state, &query.target);
    let result = |mode, clause: Clause, message| HiddenAttackResult {
        mode,
        clause,
        message,
    };
    if query.area {
        return result(
            AttackMode::Normal,
            Clause::O10,
            explain::o10_an_area_effect_covering(&t),
        );
    }
    let record = state.hiders.get(&query.target);
    if let Some(record) = record {
        let pair = record.pairs.get(&query.attacker);
        let targeting = uncountered_sense(
            state,
            record,
            &query.attacker,
            pair.and_then(|p| p.distance),
        )
        .filter(|s| s.targeting)
        .cloned();
        if let Some(sense) = targeting {
            return result(
                AttackMode::Normal,
                Clause::O13,
                explain::o13_targeting_sense_gives_the_space(&a, &sense.sense, &t),
            );
        }
        // O13: a non-targeting sense gives presence only, so O10 still
        // applies to an attacker that perceives the hider only through it.
        let presence_only = pair.is_some_and(|p| p.reason == PairReason::EnhancedSense);
        if state.perceives(&query.attacker, &query.target) {
            if !presence_only {
                return result(
                    AttackMode::Normal,
                    Clause::O10,
                    explain::o10_perceives_normal_attack(&a, &t),
                );
            }
            return if query.aimed_at_space {
                result(
                    AttackMode::Disadvantage,
                    Clause::O13,
                    explain::o13_presence_only_aims_at_the_space(&a, &t),
                )
            } else {
                result(
                    AttackMode::Miss,
                    Clause::O13,
                    explain::o13_presence_only_aims_elsewhere(&a, &t),
                )
            };
        }
    } else {
        return result(
            AttackMode::Normal,
            Clause::O10,
            explain::o10_not_hiding_normal_attack(&t),
        );
    }
    if query.aimed_at_space {
        result(
            AttackMode::Disadvantage,
            Clause::O10,
            explain::o10_does_not_perceive_but(&a, &t),
        )
    } else {
        result(
            AttackMode::Miss,
            Clause::O10,
            explain::o10_does_not_perceive_aims(&a, &t),
        )
    }
}
