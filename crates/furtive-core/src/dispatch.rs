//! The dispatcher: [`run`] validates an event ([`crate::validate`]) and
//! hands it to the ruleset in force ([`crate::rules::Rules`]) or, for the
//! events both rulesets share, handles it here, inside a [`Tx`];
//! [`crate::Session`] owns the transaction. Imports point one way: this
//! module uses the rulesets, the rulesets never use it.

use crate::clause::Clause;
use crate::combat;
use crate::context::{label, Ctx};
use crate::error::Error;
use crate::event::{attack_targets, Event};
use crate::explain;
use crate::journal::Tx;
use crate::opposed::OpposedRules;
use crate::percentile::PercentileRules;
use crate::rules::{AttackInstance, Rules, StealthRoll};
use crate::state::{
    Config, Creature, HiderPhase, Pair, PairReason, Ruleset, State, TokenId, STATE_VERSION,
};
use crate::validate::{validate_config, validate_event, validate_state};

/// Builds a fresh state from a configuration.
///
/// Errors: `duplicate_token` for an id listed twice, `out_of_range` and
/// `invalid_input` for creature data outside the documented ranges.
pub fn create_state(config: Config) -> Result<State, Error> {
    validate_config(&config)?;
    let mut state = State {
        version: STATE_VERSION,
        revision: 0,
        ruleset: config.ruleset,
        settings: config.settings,
        creatures: Default::default(),
        hiders: Default::default(),
        surprises: Vec::new(),
        combat: Default::default(),
    };
    for creature in config.creatures {
        state.creatures.insert(creature.id.clone(), creature);
    }
    validate_state(&state)?;
    Ok(state)
}

/// Runs one event inside a transaction: validation, then the rule. Every
/// write goes through `tx`, so the caller can undo it.
pub(crate) fn run(tx: &mut Tx, event: &Event, ctx: &mut Ctx) -> Result<(), Error> {
    validate_event(tx, event)?;
    match tx.ruleset {
        Ruleset::Percentile => dispatch::<PercentileRules>(tx, event, ctx),
        Ruleset::Opposed => dispatch::<OpposedRules>(tx, event, ctx),
    }
}

/// Every event, by name: no catch-all.
fn dispatch<R: Rules>(tx: &mut Tx, event: &Event, ctx: &mut Ctx) -> Result<(), Error> {
    match event {
        Event::UpsertCreature { creature } => {
            upsert_creature(tx, creature, ctx)?;
            R::observer_updated(tx, &creature.id, ctx);
            Ok(())
        }
        Event::EnterStealth {
            hider,
            roll,
            modifiers,
            moved,
            sprinting,
            precautions,
            view,
        } => R::enter_stealth(
            tx,
            &StealthRoll {
                hider,
                roll: *roll,
                modifiers: modifiers.as_ref(),
                moved: *moved,
                sprinting: *sprinting,
                precautions,
                view,
            },
            ctx,
        ),
        Event::ViewChanged { hider, moved, view } => R::view_changed(tx, hider, *moved, view, ctx),
        Event::PerceptionRolled {
            hider,
            observer,
            total,
        } => R::perception_rolled(tx, hider, observer, *total, ctx),
        Event::PointOut {
            hider,
            observer,
            allies,
        } => R::point_out(tx, hider, observer, allies, ctx),
        Event::Attack {
            attacker,
            targets,
            target,
            noisy,
            hits,
            area,
            hit_zone,
        } => R::attack(
            tx,
            &AttackInstance {
                attacker,
                targets: attack_targets(target, targets),
                noisy: *noisy,
                hits: *hits,
                area: *area,
                hit_zone: *hit_zone,
            },
            ctx,
        ),
        Event::DamageTaken {
            target,
            attacker,
            hits,
        } => R::damage_taken(tx, target, attacker, *hits, ctx),
        Event::TurnStart { combatant, round } => {
            if combat::start_turn(tx, combatant, *round) {
                R::turn_started(tx, combatant, ctx);
            }
            Ok(())
        }
        Event::TurnEnd { combatant } => {
            R::turn_ending(tx, combatant, ctx);
            combat::end_turn(tx, combatant);
            Ok(())
        }
        Event::RoundEnd { round } => {
            combat::end_round(tx, *round);
            Ok(())
        }
        Event::CombatEnd {} => {
            if let Some(current) = tx.combat.turn.clone() {
                R::turn_ending(tx, &current, ctx);
                combat::end_turn(tx, &current);
            }
            R::combat_ending(tx, ctx);
            *tx.combat_mut() = Default::default();
            if !tx.surprises.is_empty() {
                tx.surprises_mut().clear();
                ctx.gm(Clause::P6, None, None, explain::p6_combat_ended());
            }
            Ok(())
        }
        Event::ModifiersChanged { hider, modifiers } => {
            R::modifiers_changed(tx, hider, modifiers, ctx)
        }
        Event::Sprint { token } => R::sprint(tx, token, ctx),
        Event::StopHiding { hider } => stop_hiding(tx, hider, ctx),
        Event::TokenRemoved { token } => {
            token_removed(tx, token, ctx);
            Ok(())
        }
        Event::GmOverride {
            hider,
            observer,
            perceived,
        } => gm_override(tx, hider, observer, *perceived, ctx),
    }
}

/// Adds or replaces a creature; the ruleset then looks at it as an observer.
fn upsert_creature(tx: &mut Tx, creature: &Creature, ctx: &mut Ctx) -> Result<(), Error> {
    let existed = tx.insert_creature(creature.clone());
    ctx.gm(
        Clause::B3,
        None,
        Some(&creature.id),
        explain::b3_creature_upserted(creature.label(), existed),
    );
    Ok(())
}

fn token_removed(tx: &mut Tx, token: &str, ctx: &mut Ctx) {
    let label = label(tx, token);
    tx.remove_creature(token);
    tx.remove_hider(token);
    let hiders: Vec<TokenId> = tx
        .hiders
        .iter()
        .filter(|(_, h)| h.pairs.contains_key(token))
        .map(|(id, _)| id.clone())
        .collect();
    for hider in hiders {
        tx.remove_pair(&hider, token);
    }
    if tx
        .surprises
        .iter()
        .any(|s| s.attacker == token || s.target == token)
    {
        tx.surprises_mut()
            .retain(|s| s.attacker != token && s.target != token);
    }
    // The turn is no longer the token's, but a roll it made this turn is
    // kept: added back and started again in the same round, it is the
    // same turn (P9, O7: one roll a turn; `combat::start_turn`).
    if tx.combat.turn.as_deref() == Some(token) {
        tx.combat_mut().turn = None;
    }
    ctx.gm(
        Clause::B3,
        None,
        Some(token),
        explain::b3_token_removed(&label),
    );
}

fn stop_hiding(tx: &mut Tx, hider: &str, ctx: &mut Ctx) -> Result<(), Error> {
    // P9 (*Decided*): an attack from hiding reveals the hider at its turn
    // end, whatever it does in between: the record stays, revealed, so a
    // roll later in the turn keeps the reveal. A record so
    // kept is no longer hiding: a second stop is refused `not_hiding`, as
    // when the stop removed it.
    let attacked = tx
        .hiders
        .get(hider)
        .filter(|h| h.attempt.percentile().is_some_and(|a| a.attacked))
        .map(|h| h.phase);
    if attacked == Some(HiderPhase::Hiding) {
        tx.set_phase(hider, HiderPhase::Revealed);
    } else if attacked.is_some() || !tx.remove_hider(hider) {
        return Err(Error::NotHiding {
            id: hider.to_owned(),
        });
    }
    let label = label(tx, hider);
    ctx.public(
        Clause::B3,
        Some(hider),
        None,
        explain::b3_stopped_hiding(&label),
    );
    Ok(())
}

fn gm_override(
    tx: &mut Tx,
    hider: &str,
    observer: &str,
    perceived: bool,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let hider_label = label(tx, hider);
    let observer_label = label(tx, observer);
    tx.hiding(hider)?;
    if let Some(pair) = tx.pair_entry(
        hider,
        observer,
        Pair::new(perceived, PairReason::GmOverride),
    ) {
        pair.perceived = perceived;
        pair.reason = PairReason::GmOverride;
    }
    ctx.gm(
        Clause::GM,
        Some(hider),
        Some(observer),
        explain::gm_override(&observer_label, perceived, &hider_label),
    );
    Ok(())
}
