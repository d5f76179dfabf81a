//! Combat bookkeeping shared by both rulesets: turns, rounds and the
//! one-stealth-roll-a-turn record (P9, O7).

use crate::clause::Clause;
use crate::error::Error;
use crate::journal::Tx;
use crate::state::State;

/// A combat turn starts: the combat is on, the round set (or 1), the turn
/// is `combatant`'s, nobody has rolled yet, and the hider has not moved (O5).
///
/// Returns `false`, changing nothing, when it is the turn already running
/// (P9, O7: one stealth roll a turn): a combat on, the same round (or none
/// given), and the turn is `combatant`'s or `combatant` rolled in it (its
/// token was removed and added back). A combatant has one turn a round.
pub(crate) fn start_turn(tx: &mut Tx, combatant: &str, round: Option<u32>) -> bool {
    let running = &tx.combat;
    if running.active
        && round.is_none_or(|r| r == running.round)
        && (running.turn.as_deref() == Some(combatant)
            || running.rolled_this_turn.iter().any(|t| t == combatant))
    {
        if running.turn.is_none() {
            tx.combat_mut().turn = Some(combatant.into());
        }
        return false;
    }
    let combat = tx.combat_mut();
    combat.active = true;
    if let Some(round) = round {
        combat.round = round;
    } else if combat.round == 0 {
        combat.round = 1;
    }
    combat.turn = Some(combatant.into());
    combat.rolled_this_turn.clear();
    if tx.hiders.get(combatant).is_some_and(|h| h.moved_this_turn) {
        if let Some(head) = tx.head_mut(combatant) {
            *head.moved_this_turn = false;
        }
    }
    true
}

/// `combatant`'s turn ends (after the ruleset's own turn end).
pub(crate) fn end_turn(tx: &mut Tx, combatant: &str) {
    // P9 / O7: the one-roll-a-turn record belongs to the current turn; the
    // end of another combatant's turn (late or stray) must not reset it.
    if tx.combat.turn.as_deref() == Some(combatant) {
        let combat = tx.combat_mut();
        combat.turn = None;
        combat.rolled_this_turn.clear();
    }
}

/// P9 / O7: in combat, the hider rolls on its own turn, once.
pub(crate) fn check_roll_allowed(state: &State, hider: &str, clause: Clause) -> Result<(), Error> {
    if !state.combat.active {
        return Ok(());
    }
    if state.combat.turn.as_deref() != Some(hider) {
        return Err(Error::NotHiderTurn {
            id: hider.to_owned(),
            clause,
        });
    }
    if state.combat.rolled_this_turn.iter().any(|t| t == hider) {
        return Err(Error::StealthRollAlreadyMade {
            id: hider.to_owned(),
            clause,
        });
    }
    Ok(())
}

/// Marks the hider's roll for this combat turn (P9, O7).
pub(crate) fn note_roll(tx: &mut Tx, hider: &str) {
    if tx.combat.active && !tx.combat.rolled_this_turn.iter().any(|t| t == hider) {
        tx.combat_mut().rolled_this_turn.push(hider.into());
    }
}

/// A round ends: the next one starts (`round` + 1, or the current + 1).
pub(crate) fn end_round(tx: &mut Tx, round: Option<u32>) {
    let combat = tx.combat_mut();
    combat.active = true;
    combat.round = round.unwrap_or(combat.round).saturating_add(1);
}
