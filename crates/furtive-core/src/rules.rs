//! One trait for the two rulesets: each event a ruleset answers is a method
//! of [`Rules`]; a method a ruleset does not implement refuses the event
//! with `wrong_ruleset`. The dispatcher ([`crate::dispatch`]) matches every
//! event by name, with no catch-all: a new event does not compile until it
//! is dispatched, and is refused by a ruleset that does not implement it.

use crate::context::Ctx;
use crate::error::Error;
use crate::event::ViewEntry;
use crate::journal::Tx;
use crate::state::{HitZone, Modifiers, Ruleset, TokenId};

/// An `enterStealth` event's fields.
pub(crate) struct StealthRoll<'a> {
    pub hider: &'a str,
    /// `percentile`: the d100; `opposed`: the Stealth check total.
    pub roll: i64,
    /// `None`: the roll keeps the hider's situation (P4).
    pub modifiers: Option<&'a Modifiers>,
    pub moved: bool,
    pub sprinting: bool,
    pub precautions: &'a [String],
    pub view: &'a [ViewEntry],
}

/// An `attack` event's fields: one attack instance (O8).
pub(crate) struct AttackInstance<'a> {
    pub attacker: &'a str,
    /// `targets`, or the older single `target`.
    pub targets: Vec<&'a str>,
    pub noisy: bool,
    pub hits: u32,
    pub area: bool,
    pub hit_zone: Option<HitZone>,
}

/// `what` is not part of `ruleset`.
pub(crate) fn wrong_ruleset(what: &str, ruleset: Ruleset) -> Error {
    Error::WrongRuleset {
        what: what.to_owned(),
        ruleset: ruleset.name().to_owned(),
    }
}

/// A ruleset: what it does with each event. Event methods default to
/// `wrong_ruleset`; the hooks (a creature joined, a turn started or ended,
/// the combat ended) have no default, so each ruleset says what it does.
pub(crate) trait Rules {
    const RULESET: Ruleset;

    /// `enterStealth`.
    fn enter_stealth(tx: &mut Tx, roll: &StealthRoll, ctx: &mut Ctx) -> Result<(), Error> {
        let _ = (tx, roll, ctx);
        Err(wrong_ruleset("enterStealth", Self::RULESET))
    }

    /// `viewChanged`.
    fn view_changed(
        tx: &mut Tx,
        hider: &str,
        moved: bool,
        view: &[ViewEntry],
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        let _ = (tx, hider, moved, view, ctx);
        Err(wrong_ruleset("viewChanged", Self::RULESET))
    }

    /// `perceptionRolled`.
    fn perception_rolled(
        tx: &mut Tx,
        hider: &str,
        observer: &str,
        total: i64,
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        let _ = (tx, hider, observer, total, ctx);
        Err(wrong_ruleset("perceptionRolled", Self::RULESET))
    }

    /// `pointOut`.
    fn point_out(
        tx: &mut Tx,
        hider: &str,
        observer: &str,
        allies: &[TokenId],
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        let _ = (tx, hider, observer, allies, ctx);
        Err(wrong_ruleset("pointOut", Self::RULESET))
    }

    /// `attack`.
    fn attack(tx: &mut Tx, attack: &AttackInstance, ctx: &mut Ctx) -> Result<(), Error> {
        let _ = (tx, attack, ctx);
        Err(wrong_ruleset("attack", Self::RULESET))
    }

    /// `damageTaken`.
    fn damage_taken(
        tx: &mut Tx,
        target: &str,
        attacker: &str,
        hits: u32,
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        let _ = (tx, target, attacker, hits, ctx);
        Err(wrong_ruleset("damageTaken", Self::RULESET))
    }

    /// `modifiersChanged`.
    fn modifiers_changed(
        tx: &mut Tx,
        hider: &str,
        modifiers: &Modifiers,
        ctx: &mut Ctx,
    ) -> Result<(), Error> {
        let _ = (tx, hider, modifiers, ctx);
        Err(wrong_ruleset("modifiersChanged", Self::RULESET))
    }

    /// `sprint`.
    fn sprint(tx: &mut Tx, token: &str, ctx: &mut Ctx) -> Result<(), Error> {
        let _ = (tx, token, ctx);
        Err(wrong_ruleset("sprint", Self::RULESET))
    }

    /// A creature joined or its data changed (`upsertCreature`).
    fn observer_updated(tx: &mut Tx, observer: &str, ctx: &mut Ctx);

    /// `combatant`'s turn started (after the combat bookkeeping).
    fn turn_started(tx: &mut Tx, combatant: &str, ctx: &mut Ctx);

    /// `combatant`'s turn ends (before the combat bookkeeping).
    fn turn_ending(tx: &mut Tx, combatant: &str, ctx: &mut Ctx);

    /// The combat ends (after the current turn's end, before the bookkeeping
    /// is reset).
    fn combat_ending(tx: &mut Tx, ctx: &mut Ctx);
}
