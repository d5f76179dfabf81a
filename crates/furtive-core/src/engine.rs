//! The reducer: [`run`] validates an event and dispatches it to the rules
//! inside a [`Tx`]; [`crate::Session`] owns the transaction.

use std::collections::BTreeSet;

use crate::error::Error;
use crate::event::{Event, ViewEntry};
use crate::journal::{is_hidden, Tx};
use crate::outcome::{Audience, Change, Expiry, LogEntry, Outcome, Request, Status};
use crate::session::Session;
use crate::state::{
    Attempt, Config, Creature, Hider, HiderPhase, Modifiers, Pair, PairReason, Ruleset, State,
    TokenId, STATE_VERSION,
};
use crate::{opposed, percentile};

/// Largest magnitude accepted for skills, acuities, totals and modifiers.
pub(crate) const MAX_VALUE: i64 = 1000;
/// Largest distance or sense range accepted, in scene units.
pub(crate) const MAX_DISTANCE: f64 = 1e9;
/// Most free modifiers on one roll.
pub(crate) const MAX_FREE_MODIFIERS: usize = 32;
/// Most hits in one attack or damage event.
pub(crate) const MAX_HITS: u32 = 100;

/// Collects requests and explanations while an event is applied.
pub(crate) struct Ctx {
    pub log: Vec<LogEntry>,
    pub requests: Vec<Request>,
    show_numbers: bool,
}

impl Ctx {
    pub fn new(show_numbers: bool) -> Self {
        Ctx {
            log: Vec::new(),
            requests: Vec::new(),
            show_numbers,
        }
    }

    /// A GM-only explanation with numbers.
    pub fn gm(
        &mut self,
        clause: &str,
        hider: Option<&str>,
        observer: Option<&str>,
        en: String,
        fr: String,
    ) {
        self.push(clause, Audience::Gm, hider, observer, en, fr);
    }

    /// A GM explanation with numbers plus a public one: the public text is
    /// `public` (no numbers), or the GM text when the P2 setting shows numbers.
    #[allow(clippy::too_many_arguments)]
    pub fn both(
        &mut self,
        clause: &str,
        hider: Option<&str>,
        observer: Option<&str>,
        en: String,
        fr: String,
        public_en: String,
        public_fr: String,
    ) {
        let (pen, pfr) = if self.show_numbers {
            (en.clone(), fr.clone())
        } else {
            (public_en, public_fr)
        };
        self.push(clause, Audience::Gm, hider, observer, en, fr);
        self.push(clause, Audience::Public, hider, observer, pen, pfr);
    }

    /// A public explanation that carries no hidden number.
    pub fn public(
        &mut self,
        clause: &str,
        hider: Option<&str>,
        observer: Option<&str>,
        en: String,
        fr: String,
    ) {
        self.push(clause, Audience::Public, hider, observer, en, fr);
    }

    fn push(
        &mut self,
        clause: &str,
        audience: Audience,
        hider: Option<&str>,
        observer: Option<&str>,
        en: String,
        fr: String,
    ) {
        self.log.push(LogEntry {
            clause: clause.to_owned(),
            audience,
            hider: hider.map(str::to_owned),
            observer: observer.map(str::to_owned),
            en,
            fr,
        });
    }
}

/// Builds a fresh state from a configuration.
///
/// Errors: `duplicate_token` for an id listed twice, `out_of_range` and
/// `invalid_input` for creature data outside the documented ranges.
pub fn create_state(config: Config) -> Result<State, Error> {
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
    for (index, creature) in config.creatures.into_iter().enumerate() {
        if state.creatures.contains_key(&creature.id) {
            return Err(Error::DuplicateToken {
                field: format!("creatures[{index}].id"),
                id: creature.id,
            });
        }
        state.creatures.insert(creature.id.clone(), creature);
    }
    validate_state(&state)?;
    Ok(state)
}

/// Applies one event to a state: the engine's reducer, as a free function.
///
/// A thin wrapper over [`Session`]: loads (validates) a copy of `state`,
/// applies `event`, and returns the new state with the effects. Pure: the
/// same state and event always give the same outcome. On error the input
/// state is untouched (it is borrowed) and no outcome is returned.
///
/// Errors: every [`Error`] kind with a code; see `docs/api.md`.
pub fn apply(state: &State, event: Event) -> Result<Outcome, Error> {
    let mut session = Session::load(state.clone())?;
    let effects = session.apply(event)?;
    Ok(Outcome {
        state: session.into_state(),
        changes: effects.changes,
        requests: effects.requests,
        log: effects.log,
    })
}

/// Runs one event inside a transaction: validation, then the rule. Every
/// write goes through `tx`, so the caller can undo it.
pub(crate) fn run(tx: &mut Tx, event: &Event, ctx: &mut Ctx) -> Result<(), Error> {
    validate_event(tx, event)?;
    match event {
        Event::UpsertCreature { creature } => upsert_creature(tx, creature, ctx)?,
        Event::TokenRemoved { token } => token_removed(tx, token, ctx),
        Event::StopHiding { hider } => stop_hiding(tx, hider, ctx)?,
        Event::GmOverride {
            hider,
            observer,
            perceived,
        } => gm_override(tx, hider, observer, *perceived, ctx)?,
        Event::TurnStart { combatant, round } => {
            turn_start(tx, combatant, *round);
            match tx.ruleset {
                Ruleset::Percentile => {}
                Ruleset::Opposed => opposed::turn_start(tx, combatant, ctx),
            }
        }
        Event::TurnEnd { combatant } => {
            turn_end(tx, combatant, ctx);
        }
        Event::RoundEnd { round } => {
            let combat = tx.combat_mut();
            combat.active = true;
            combat.round = round.unwrap_or(combat.round).saturating_add(1);
        }
        Event::CombatEnd {} => {
            if let Some(current) = tx.combat.turn.clone() {
                turn_end(tx, &current, ctx);
            }
            // P6 / P9: a surprise still running (made outside combat, or by
            // a combatant whose turn is not the current one) ends with the
            // combat, and so does its attacker's surprise turn: everyone
            // perceives the attacker, as at the end of a surprise turn.
            // (Fix: the surprises used to be dropped without the P9 reveal.)
            if tx.ruleset == Ruleset::Percentile {
                let attackers: BTreeSet<TokenId> =
                    tx.surprises.iter().map(|s| s.attacker.clone()).collect();
                for attacker in attackers {
                    percentile::turn_end(tx, &attacker, ctx);
                }
            }
            *tx.combat_mut() = Default::default();
            if !tx.surprises.is_empty() {
                tx.surprises_mut().clear();
                ctx.gm(
                    "P6",
                    None,
                    None,
                    "Combat ended: every surprise ends.".into(),
                    "Fin du combat : toutes les surprises prennent fin.".into(),
                );
            }
        }
        _ => match tx.ruleset {
            Ruleset::Percentile => percentile::apply(tx, event, ctx)?,
            Ruleset::Opposed => opposed::apply(tx, event, ctx)?,
        },
    }
    Ok(())
}

fn turn_start(tx: &mut Tx, combatant: &str, round: Option<u32>) {
    let combat = tx.combat_mut();
    combat.active = true;
    if let Some(round) = round {
        combat.round = round;
    } else if combat.round == 0 {
        combat.round = 1;
    }
    combat.turn = Some(combatant.to_owned());
    combat.rolled_this_turn.clear();
    if tx.hiders.get(combatant).is_some_and(|h| h.moved_this_turn) {
        if let Some(head) = tx.head_mut(combatant) {
            *head.moved_this_turn = false;
        }
    }
}

fn turn_end(tx: &mut Tx, combatant: &str, ctx: &mut Ctx) {
    match tx.ruleset {
        Ruleset::Percentile => percentile::turn_end(tx, combatant, ctx),
        Ruleset::Opposed => opposed::turn_end(tx, combatant, ctx),
    }
    // P9 / O7: the one-roll-a-turn record belongs to the current turn; the
    // end of another combatant's turn (late or stray) must not reset it.
    // (Fix: it used to be cleared by any turn end.)
    if tx.combat.turn.as_deref() == Some(combatant) {
        let combat = tx.combat_mut();
        combat.turn = None;
        combat.rolled_this_turn.clear();
    }
}

fn upsert_creature(tx: &mut Tx, creature: &Creature, ctx: &mut Ctx) -> Result<(), Error> {
    validate_creature("creature", creature)?;
    let existed = tx.insert_creature(creature.clone());
    ctx.gm(
        "B3",
        None,
        Some(&creature.id),
        format!(
            "{} {}.",
            creature.label(),
            if existed {
                "updated"
            } else {
                "joins the scene"
            }
        ),
        format!(
            "{} {}.",
            creature.label(),
            if existed {
                "mis à jour"
            } else {
                "entre dans la scène"
            }
        ),
    );
    match tx.ruleset {
        Ruleset::Percentile => percentile::observer_updated(tx, &creature.id, ctx),
        Ruleset::Opposed => opposed::observer_updated(tx, &creature.id, ctx),
    }
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
    if tx.combat.turn.as_deref() == Some(token)
        || tx.combat.rolled_this_turn.iter().any(|t| t == token)
    {
        let combat = tx.combat_mut();
        if combat.turn.as_deref() == Some(token) {
            combat.turn = None;
        }
        combat.rolled_this_turn.retain(|t| t != token);
    }
    ctx.gm(
        "B3",
        None,
        Some(token),
        format!("{label} left the scene: its pairs are removed."),
        format!("{label} quitte la scène : ses paires sont retirées."),
    );
}

fn stop_hiding(tx: &mut Tx, hider: &str, ctx: &mut Ctx) -> Result<(), Error> {
    if !tx.remove_hider(hider) {
        return Err(Error::NotHiding {
            id: hider.to_owned(),
        });
    }
    let label = label(tx, hider);
    ctx.public(
        "B3",
        Some(hider),
        None,
        format!("{label} stops hiding: everyone perceives them."),
        format!("{label} cesse de se cacher : tout le monde le perçoit."),
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
    require_hiding(tx, hider)?;
    if let Some(pair) = tx.pair_entry(hider, observer, || {
        Pair::new(perceived, PairReason::GmOverride)
    }) {
        pair.perceived = perceived;
        pair.reason = PairReason::GmOverride;
    }
    let (en, fr) = if perceived {
        ("perceives", "perçoit")
    } else {
        ("does not perceive", "ne perçoit pas")
    };
    ctx.gm(
        "GM",
        Some(hider),
        Some(observer),
        format!("GM override: {observer_label} {en} {hider_label}."),
        format!("Décision du MJ : {observer_label} {fr} {hider_label}."),
    );
    Ok(())
}

/// The hider record of a token that is hiding, or `not_hiding`.
pub(crate) fn require_hiding<'a>(state: &'a State, hider: &str) -> Result<&'a Hider, Error> {
    match state.hiders.get(hider) {
        Some(record) if record.phase == HiderPhase::Hiding => Ok(record),
        _ => Err(Error::NotHiding {
            id: hider.to_owned(),
        }),
    }
}

/// A token's display name, or its id.
pub(crate) fn label(state: &State, id: &str) -> String {
    label_ref(state, id).to_owned()
}

/// A token's display name, or its id, borrowed.
pub(crate) fn label_ref<'a>(state: &'a State, id: &'a str) -> &'a str {
    state.creatures.get(id).map_or(id, |c| c.label())
}

/// Updates the stored clear view and distance of the pairs named in `view`.
/// Pairs for observers without one yet are created with `new_pair`.
pub(crate) fn record_view(
    tx: &mut Tx,
    hider: &str,
    view: &[ViewEntry],
    new_pair: impl Fn() -> Pair,
) {
    for entry in view {
        if let Some(pair) = tx.pair_entry(hider, &entry.observer, &new_pair) {
            pair.clear_view = entry.clear_view;
            pair.distance = entry.distance;
        }
    }
}

/// P9 / O7: in combat, the hider rolls on its own turn, once.
pub(crate) fn check_roll_allowed(state: &State, hider: &str, clause: &str) -> Result<(), Error> {
    if !state.combat.active {
        return Ok(());
    }
    if state.combat.turn.as_deref() != Some(hider) {
        return Err(Error::NotHiderTurn {
            id: hider.to_owned(),
            clause: clause.to_owned(),
        });
    }
    if state.combat.rolled_this_turn.iter().any(|t| t == hider) {
        return Err(Error::StealthRollAlreadyMade {
            id: hider.to_owned(),
            clause: clause.to_owned(),
        });
    }
    Ok(())
}

/// Marks the hider's roll for this combat turn (P9, O7).
pub(crate) fn note_roll(tx: &mut Tx, hider: &str) {
    if tx.combat.active && !tx.combat.rolled_this_turn.iter().any(|t| t == hider) {
        tx.combat_mut().rolled_this_turn.push(hider.to_owned());
    }
}

/// Every visible difference between two states, in a stable order:
/// visibility changes by hider then observer, then status changes by token.
///
/// A full comparison, O(table size): [`Session::apply`] finds the same
/// changes from the slots an event touched; this is the reference it is
/// tested against, and a tool for callers holding two snapshots.
pub fn diff(before: &State, after: &State) -> Vec<Change> {
    let mut changes = Vec::new();
    let hiders: BTreeSet<&TokenId> = before.hiders.keys().chain(after.hiders.keys()).collect();
    for hider in &hiders {
        let observers: BTreeSet<&TokenId> = before
            .hiders
            .get(*hider)
            .into_iter()
            .chain(after.hiders.get(*hider))
            .flat_map(|h| h.pairs.keys())
            .filter(|o| after.creatures.contains_key(*o) && before.creatures.contains_key(*o))
            .collect();
        for observer in observers {
            let was = before.perceives(observer, hider);
            let is = after.perceives(observer, hider);
            if was != is {
                changes.push(Change::Visibility {
                    hider: (*hider).clone(),
                    observer: observer.clone(),
                    perceived: is,
                });
            }
        }
    }
    let tokens: BTreeSet<&TokenId> = before
        .creatures
        .keys()
        .chain(after.creatures.keys())
        .chain(hiders.iter().copied())
        .collect();
    for token in tokens {
        let was = is_hidden(before, token);
        let is = is_hidden(after, token);
        if was != is {
            changes.push(Change::Status {
                token: token.clone(),
                status: Status::Hidden,
                active: is,
                expires: None,
            });
        }
        let was = before.surprises.iter().find(|s| &s.target == token);
        let is = after.surprises.iter().find(|s| &s.target == token);
        if was.is_some() != is.is_some() {
            changes.push(Change::Status {
                token: token.clone(),
                status: Status::Defenseless,
                active: is.is_some(),
                expires: is.map(|s| Expiry {
                    turn_end_of: s.attacker.clone(),
                }),
            });
        }
    }
    changes
}

fn check_range(field: &str, value: i64, min: i64, max: i64) -> Result<(), Error> {
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

fn check_id(field: &str, id: &str) -> Result<(), Error> {
    if id.is_empty() || id.len() > 256 {
        return Err(Error::InvalidInput {
            field: field.to_owned(),
            message: "a token id is 1 to 256 bytes".into(),
        });
    }
    Ok(())
}

pub(crate) fn validate_creature(field: &str, creature: &Creature) -> Result<(), Error> {
    check_id(&format!("{field}.id"), &creature.id)?;
    check_range(
        &format!("{field}.stealthSkill"),
        creature.stealth_skill.into(),
        0,
        500,
    )?;
    if let Some(base) = creature.base_stealth_skill {
        check_range(&format!("{field}.baseStealthSkill"), base.into(), 0, 500)?;
    }
    check_range(
        &format!("{field}.strength"),
        creature.strength.into(),
        0,
        MAX_VALUE,
    )?;
    check_range(
        &format!("{field}.acuities.visual"),
        creature.acuities.visual.into(),
        0,
        MAX_VALUE,
    )?;
    check_range(
        &format!("{field}.acuities.auditory"),
        creature.acuities.auditory.into(),
        0,
        MAX_VALUE,
    )?;
    check_range(
        &format!("{field}.acuities.olfactory"),
        creature.acuities.olfactory.into(),
        0,
        MAX_VALUE,
    )?;
    check_range(
        &format!("{field}.stealthModifier"),
        creature.stealth_modifier,
        -MAX_VALUE,
        MAX_VALUE,
    )?;
    check_range(
        &format!("{field}.perceptionModifier"),
        creature.perception_modifier,
        -MAX_VALUE,
        MAX_VALUE,
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
        check_range(
            &format!("{field}.free[{i}].value"),
            m.value,
            -MAX_VALUE,
            MAX_VALUE,
        )?;
    }
    Ok(())
}

/// Checks a state received from outside: version, creature data, and that
/// numbers stay within the ranges the arithmetic relies on.
pub fn validate_state(state: &State) -> Result<(), Error> {
    if state.version != STATE_VERSION {
        return Err(Error::UnsupportedVersion {
            found: state.version,
            supported: STATE_VERSION,
        });
    }
    check_range(
        "settings.checkDie",
        state.settings.check_die.into(),
        2,
        MAX_VALUE,
    )?;
    for (id, creature) in &state.creatures {
        if &creature.id != id {
            return Err(Error::InvalidInput {
                field: format!("creatures.{id}.id"),
                message: format!(
                    "the key `{id}` and the creature id `{}` differ",
                    creature.id
                ),
            });
        }
        validate_creature(&format!("creatures.{id}"), creature)?;
    }
    for (id, hider) in &state.hiders {
        let field = format!("hiders.{id}");
        match &hider.attempt {
            Attempt::Percentile(attempt) if state.ruleset == Ruleset::Percentile => {
                check_range(
                    &format!("{field}.score"),
                    attempt.score,
                    -100 * MAX_VALUE,
                    100 * MAX_VALUE,
                )?;
                check_range(&format!("{field}.d100"), attempt.d100.into(), 1, 100)?;
                validate_modifiers(&format!("{field}.modifiers"), &attempt.modifiers)?;
                if let Some(pending) = &attempt.pending_modifiers {
                    validate_modifiers(&format!("{field}.pendingModifiers"), pending)?;
                }
            }
            Attempt::Opposed(attempt) if state.ruleset == Ruleset::Opposed => {
                check_range(
                    &format!("{field}.heldTotal"),
                    attempt.held_total,
                    -MAX_VALUE,
                    MAX_VALUE,
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
                        0,
                        5 * i64::from(MAX_HITS),
                    )?;
                }
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
            if let Some(total) = pair.perception_total {
                check_range(
                    &format!("{field}.pairs.{observer}.perceptionTotal"),
                    total,
                    -MAX_VALUE,
                    MAX_VALUE,
                )?;
            }
            if let Some(distance) = pair.distance {
                check_distance(&format!("{field}.pairs.{observer}.distance"), distance)?;
            }
        }
    }
    Ok(())
}

fn known(state: &State, field: &str, id: &str) -> Result<(), Error> {
    state.creature(field, id).map(|_| ())
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

/// Field names are formatted only for the entry at fault.
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
    Ok(())
}

/// Checks ids and ranges of an event before anything changes.
fn validate_event(state: &State, event: &Event) -> Result<(), Error> {
    match event {
        Event::UpsertCreature { creature } => validate_creature("creature", creature),
        Event::EnterStealth {
            hider,
            modifiers,
            view,
            precautions,
            ..
        } => {
            known(state, "hider", hider)?;
            validate_modifiers("modifiers", modifiers)?;
            if precautions.len() > 32 {
                return Err(Error::out_of_range(
                    "precautions.length",
                    precautions.len(),
                    0,
                    32,
                ));
            }
            validate_view(state, hider, view)
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
            check_range("total", *total, -MAX_VALUE, MAX_VALUE)
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
            Ok(())
        }
        Event::Attack {
            attacker,
            target,
            hits,
            ..
        } => {
            known(state, "attacker", attacker)?;
            known(state, "target", target)?;
            distinct("target", target, attacker)?;
            check_range("hits", (*hits).into(), 0, MAX_HITS.into())
        }
        Event::DamageTaken {
            target,
            attacker,
            hits,
        } => {
            known(state, "target", target)?;
            known(state, "attacker", attacker)?;
            distinct("attacker", attacker, target)?;
            check_range("hits", (*hits).into(), 1, MAX_HITS.into())
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
