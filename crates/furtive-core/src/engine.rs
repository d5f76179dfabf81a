//! The reducer: [`apply`] validates, clones, runs the ruleset, and diffs.
//!
//! Atomicity: the ruleset works on a clone and the clone is returned only on
//! success, so a refused event never changes the caller's state.

use std::collections::BTreeSet;

use crate::error::Error;
use crate::event::{Event, ViewEntry};
use crate::outcome::{Audience, Change, Expiry, LogEntry, Outcome, Request, Status};
use crate::state::{
    Config, Creature, HiderPhase, Modifiers, Ruleset, State, TokenId, STATE_VERSION,
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
    fn new(state: &State) -> Self {
        Ctx {
            log: Vec::new(),
            requests: Vec::new(),
            show_numbers: state.settings.show_numbers_to_players,
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

/// Applies one event to a state: the engine's reducer.
///
/// Pure: the same state and event always give the same outcome. On error
/// the input state is untouched (it is borrowed) and no outcome is returned.
///
/// Errors: every [`Error`] kind with a code; see `docs/api.md`.
pub fn apply(state: &State, event: Event) -> Result<Outcome, Error> {
    validate_state(state)?;
    validate_event(state, &event)?;
    let mut next = state.clone();
    let mut ctx = Ctx::new(state);
    match &event {
        Event::UpsertCreature { creature } => upsert_creature(&mut next, creature, &mut ctx)?,
        Event::TokenRemoved { token } => token_removed(&mut next, token, &mut ctx),
        Event::StopHiding { hider } => stop_hiding(&mut next, hider, &mut ctx)?,
        Event::GmOverride {
            hider,
            observer,
            perceived,
        } => gm_override(&mut next, hider, observer, *perceived, &mut ctx)?,
        Event::TurnStart { combatant, round } => {
            turn_start(&mut next, combatant, *round);
            match next.ruleset {
                Ruleset::Percentile => {}
                Ruleset::Opposed => opposed::turn_start(&mut next, combatant, &mut ctx),
            }
        }
        Event::TurnEnd { combatant } => {
            turn_end(&mut next, combatant, &mut ctx);
        }
        Event::RoundEnd { round } => {
            next.combat.active = true;
            next.combat.round = round.unwrap_or(next.combat.round).saturating_add(1);
        }
        Event::CombatEnd {} => {
            if let Some(current) = next.combat.turn.clone() {
                turn_end(&mut next, &current, &mut ctx);
            }
            // P6 / P9: a surprise still running (made outside combat, or by
            // a combatant whose turn is not the current one) ends with the
            // combat, and so does its attacker's surprise turn: everyone
            // perceives the attacker, as at the end of a surprise turn.
            // (Fix: the surprises used to be dropped without the P9 reveal.)
            if next.ruleset == Ruleset::Percentile {
                let attackers: BTreeSet<TokenId> =
                    next.surprises.iter().map(|s| s.attacker.clone()).collect();
                for attacker in attackers {
                    percentile::turn_end(&mut next, &attacker, &mut ctx);
                }
            }
            next.combat = Default::default();
            if !next.surprises.is_empty() {
                next.surprises.clear();
                ctx.gm(
                    "P6",
                    None,
                    None,
                    "Combat ended: every surprise ends.".into(),
                    "Fin du combat : toutes les surprises prennent fin.".into(),
                );
            }
        }
        _ => match next.ruleset {
            Ruleset::Percentile => percentile::apply(&mut next, &event, &mut ctx)?,
            Ruleset::Opposed => opposed::apply(&mut next, &event, &mut ctx)?,
        },
    }
    let changes = diff(state, &next);
    Ok(Outcome {
        state: next,
        changes,
        requests: ctx.requests,
        log: ctx.log,
    })
}

fn turn_start(state: &mut State, combatant: &str, round: Option<u32>) {
    state.combat.active = true;
    if let Some(round) = round {
        state.combat.round = round;
    } else if state.combat.round == 0 {
        state.combat.round = 1;
    }
    state.combat.turn = Some(combatant.to_owned());
    state.combat.rolled_this_turn.clear();
    if let Some(hider) = state.hiders.get_mut(combatant) {
        hider.moved_this_turn = false;
    }
}

fn turn_end(state: &mut State, combatant: &str, ctx: &mut Ctx) {
    match state.ruleset {
        Ruleset::Percentile => percentile::turn_end(state, combatant, ctx),
        Ruleset::Opposed => opposed::turn_end(state, combatant, ctx),
    }
    // P9 / O7: the one-roll-a-turn record belongs to the current turn; the
    // end of another combatant's turn (late or stray) must not reset it.
    // (Fix: it used to be cleared by any turn end.)
    if state.combat.turn.as_deref() == Some(combatant) {
        state.combat.turn = None;
        state.combat.rolled_this_turn.clear();
    }
}

fn upsert_creature(state: &mut State, creature: &Creature, ctx: &mut Ctx) -> Result<(), Error> {
    validate_creature("creature", creature)?;
    let existed = state
        .creatures
        .insert(creature.id.clone(), creature.clone())
        .is_some();
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
    match state.ruleset {
        Ruleset::Percentile => percentile::observer_updated(state, &creature.id, ctx),
        Ruleset::Opposed => opposed::observer_updated(state, &creature.id, ctx),
    }
    Ok(())
}

fn token_removed(state: &mut State, token: &str, ctx: &mut Ctx) {
    let label = label(state, token);
    state.creatures.remove(token);
    state.hiders.remove(token);
    for hider in state.hiders.values_mut() {
        hider.pairs.remove(token);
    }
    state
        .surprises
        .retain(|s| s.attacker != token && s.target != token);
    if state.combat.turn.as_deref() == Some(token) {
        state.combat.turn = None;
    }
    state.combat.rolled_this_turn.retain(|t| t != token);
    ctx.gm(
        "B3",
        None,
        Some(token),
        format!("{label} left the scene: its pairs are removed."),
        format!("{label} quitte la scène : ses paires sont retirées."),
    );
}

fn stop_hiding(state: &mut State, hider: &str, ctx: &mut Ctx) -> Result<(), Error> {
    if state.hiders.remove(hider).is_none() {
        return Err(Error::NotHiding {
            id: hider.to_owned(),
        });
    }
    let label = label(state, hider);
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
    state: &mut State,
    hider: &str,
    observer: &str,
    perceived: bool,
    ctx: &mut Ctx,
) -> Result<(), Error> {
    let hider_label = label(state, hider);
    let observer_label = label(state, observer);
    let record = hiding_mut(state, hider)?;
    let pair = record.pairs.entry(observer.to_owned()).or_insert_with(|| {
        crate::state::Pair::new(perceived, crate::state::PairReason::GmOverride)
    });
    pair.perceived = perceived;
    pair.reason = crate::state::PairReason::GmOverride;
    pair.refresh_exposed();
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
pub(crate) fn hiding_mut<'a>(
    state: &'a mut State,
    hider: &str,
) -> Result<&'a mut crate::state::Hider, Error> {
    match state.hiders.get_mut(hider) {
        Some(record) if record.phase == HiderPhase::Hiding => Ok(record),
        _ => Err(Error::NotHiding {
            id: hider.to_owned(),
        }),
    }
}

/// A token's display name, or its id.
pub(crate) fn label(state: &State, id: &str) -> String {
    state
        .creatures
        .get(id)
        .map(|c| c.label().to_owned())
        .unwrap_or_else(|| id.to_owned())
}

/// Updates the stored clear view and distance of the pairs named in `view`.
/// Pairs for observers without one yet are created with `default_perceived`.
pub(crate) fn record_view(
    state: &mut State,
    hider: &str,
    view: &[ViewEntry],
    new_pair: impl Fn(&str) -> crate::state::Pair,
) {
    if let Some(record) = state.hiders.get_mut(hider) {
        for entry in view {
            let pair = record
                .pairs
                .entry(entry.observer.clone())
                .or_insert_with(|| new_pair(&entry.observer));
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
pub(crate) fn note_roll(state: &mut State, hider: &str) {
    if state.combat.active && !state.combat.rolled_this_turn.iter().any(|t| t == hider) {
        state.combat.rolled_this_turn.push(hider.to_owned());
    }
}

/// Whether the token shows the `hidden` status: hiding, and unperceived by
/// at least one observer still in the scene.
pub(crate) fn is_hidden(state: &State, token: &str) -> bool {
    state.hiders.get(token).is_some_and(|h| {
        h.phase == HiderPhase::Hiding
            && h.pairs
                .iter()
                .any(|(observer, pair)| !pair.perceived && state.creatures.contains_key(observer))
    })
}

/// Every visible difference between two states, in a stable order:
/// visibility changes by hider then observer, then status changes by token.
pub(crate) fn diff(before: &State, after: &State) -> Vec<Change> {
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
        if let Some(score) = hider.score {
            check_range(
                &format!("{field}.score"),
                score,
                -100 * MAX_VALUE,
                100 * MAX_VALUE,
            )?;
        }
        if let Some(total) = hider.held_total {
            check_range(&format!("{field}.heldTotal"), total, -MAX_VALUE, MAX_VALUE)?;
        }
        if let Some(d100) = hider.d100 {
            check_range(&format!("{field}.d100"), d100.into(), 1, 100)?;
        }
        validate_modifiers(&format!("{field}.modifiers"), &hider.modifiers)?;
        if let Some(pending) = &hider.pending_modifiers {
            validate_modifiers(&format!("{field}.pendingModifiers"), pending)?;
        }
        if hider.penalties.len() > 10_000 {
            return Err(Error::out_of_range(
                format!("{field}.penalties.length"),
                hider.penalties.len(),
                0,
                10_000,
            ));
        }
        for (i, p) in hider.penalties.iter().enumerate() {
            check_range(
                &format!("{field}.penalties[{i}].amount"),
                p.amount,
                0,
                5 * i64::from(MAX_HITS),
            )?;
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

fn validate_view(state: &State, hider: &str, view: &[ViewEntry]) -> Result<(), Error> {
    for (i, entry) in view.iter().enumerate() {
        known(state, &format!("view[{i}].observer"), &entry.observer)?;
        distinct(&format!("view[{i}].observer"), &entry.observer, hider)?;
        if let Some(distance) = entry.distance {
            check_distance(&format!("view[{i}].distance"), distance)?;
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
