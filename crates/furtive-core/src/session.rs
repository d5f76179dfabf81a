//! [`Session`]: the engine keeps the state, and an event costs what it
//! touches.
//!
//! A session is created from a [`Config`] or loaded from a snapshot (a
//! [`State`], or its JSON in format version 1 or 2), validated once. Each
//! [`Session::apply`] validates the event against the state (lookups only),
//! runs the rule inside a transaction whose journal saves each slot before
//! it is written (the private `journal` module), and on success reports what changed
//! by comparing the touched slots only. A refused event is rolled back from
//! the journal: the session is exactly as before. Nothing clones or walks
//! the whole state, except [`Session::snapshot`] and the queries that are
//! about the whole table ([`Session::hidden_from`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::context::Ctx;
use crate::dispatch;
use crate::error::Error;
use crate::event::Event;
use crate::journal::{is_hidden, Compared, Journal, Tx};
use crate::outcome::{Change, Decision, Expiry, LogEntry, Outcome, Request, Status};
use crate::query::{
    DefenseQuery, HiddenAttackQuery, HiddenAttackResult, KnockoutQuery, KnockoutResult, PairQuery,
    PickpocketQuery,
};
use crate::record_changes::{AttemptChange, ViewChanges};
#[cfg(feature = "roller")]
use crate::roller::{Roller, MAX_SETTLE_ROUNDS};
use crate::standing::{PairStanding, PairsQuery, Standing, StandingQuery};
use crate::state::{Config, State, TokenId};
use crate::validate;

pub use crate::journal::HiddenFromChange;

/// What one [`Session::apply`] (or [`Session::apply_all`], or
/// [`Session::settle`]) did.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Effects {
    /// Visible changes, each reported once, in a stable order: visibility
    /// by hider then observer, then statuses by token.
    pub changes: Vec<Change>,
    /// Rolls the caller must make and feed back as events. Perception
    /// checks against one hider for one clause that follow each other are
    /// one request naming every observer, in order.
    pub requests: Vec<Request>,
    /// Explanations (B3), in order.
    pub log: Vec<LogEntry>,
    /// The session's revision after this call (see [`State::revision`]).
    pub revision: u64,
    /// The patch to the [`Session::hidden_from`] lookup, by observer then
    /// hider; see [`Session::hidden_from_changes`].
    pub hidden_from: Vec<HiddenFromChange>,
    /// The hiders that began or ended a stealth attempt, by hider.
    pub attempts: Vec<AttemptChange>,
    /// The stored views that changed, one entry per hider, by hider: the
    /// pairs whose clear view or distance changed or that appeared (as now
    /// held), then those that went away, each by observer. What a caller
    /// that sends only the views that changed compares with.
    pub views: Vec<ViewChanges>,
}

/// The engine with its state.
#[derive(Debug)]
pub struct Session {
    state: State,
    journal: Journal,
}

impl Session {
    /// A fresh session: `config`'s ruleset, settings and creatures, nobody
    /// hiding, revision 0.
    ///
    /// Errors: `duplicate_token` for an id listed twice, `out_of_range` and
    /// `invalid_input` for creature data outside the documented ranges.
    pub fn new(config: Config) -> Result<Session, Error> {
        Ok(Session {
            state: dispatch::create_state(config)?,
            journal: Journal::default(),
        })
    }

    /// A session over a state (format version 2), validated once here.
    ///
    /// Errors: `unsupported_version`, `out_of_range`, `invalid_input` (see
    /// [`crate::validate_state`]).
    pub fn load(state: State) -> Result<Session, Error> {
        validate::validate_state(&state)?;
        Ok(Session {
            state,
            journal: Journal::default(),
        })
    }

    /// A session over a JSON snapshot in format version 1 (migrated, see
    /// [`crate::migrate`]) or 2, validated once here. Errors name the field
    /// (`state.hiders.spy.score`); `unsupported_version` for another version.
    pub fn load_json(snapshot: Value) -> Result<Session, Error> {
        Session::load(crate::migrate::read_state("state", snapshot)?)
    }

    /// Runs `body` as one transaction: all of it, or nothing.
    fn transaction(
        &mut self,
        body: impl FnOnce(&mut Tx, &mut Ctx) -> Result<(), Error>,
    ) -> Result<Effects, Error> {
        self.journal.clear();
        let mut ctx = Ctx::new(self.state.settings.show_numbers_to_players);
        let result = body(&mut Tx::new(&mut self.state, &mut self.journal), &mut ctx);
        if let Err(error) = result {
            self.journal.rollback(&mut self.state);
            return Err(error);
        }
        let Compared {
            changes,
            hidden_from,
            attempts,
            views,
        } = self.journal.effects(&self.state);
        self.journal.clear();
        // Stops at 2^53 - 1 (`range::MAX_REVISION`): past it a
        // JavaScript number would no longer hold the revision exactly.
        self.state.revision = self
            .state
            .revision
            .saturating_add(1)
            .min(crate::range::MAX_REVISION);
        Ok(Effects {
            changes,
            requests: ctx.requests,
            log: ctx.log,
            revision: self.state.revision,
            hidden_from,
            attempts,
            views,
        })
    }

    /// Applies one event. Atomic: on error the session is unchanged.
    ///
    /// Cost: the event's own work (the pairs and records it names or
    /// changes), not the table size. Errors: every [`Error`] kind with a
    /// code ([`Error::code`]; the list is in `npm/README.md`, "Error
    /// codes").
    pub fn apply(&mut self, event: Event) -> Result<Effects, Error> {
        self.transaction(|tx, ctx| dispatch::run(tx, &event, ctx))
    }

    /// Applies several events as one transaction (one user action: a door
    /// opening in front of three hiders), with one set of effects comparing
    /// before the first and after the last. All or nothing: if any event is
    /// refused, none is applied and that event's error is returned.
    pub fn apply_all(&mut self, events: Vec<Event>) -> Result<Effects, Error> {
        self.apply_all_at(&events).map_err(|(_, error)| error)
    }

    /// [`Session::apply_all`], with the place in `events` (from 0) of the
    /// event that was refused, for the JSON boundary to name it
    /// (`events[1].hider`, [`Error::InEvent`]).
    pub fn apply_all_at(&mut self, events: &[Event]) -> Result<Effects, (usize, Error)> {
        let mut refused = 0;
        self.transaction(|tx, ctx| {
            for (index, event) in events.iter().enumerate() {
                refused = index;
                dispatch::run(tx, event, ctx)?;
            }
            Ok(())
        })
        .map_err(|error| (refused, error))
    }

    /// B4: applies `event`, then answers its requests with the seeded
    /// roller and applies the answers, round after round, until no request
    /// is left (at most [`MAX_SETTLE_ROUNDS`] rounds). A stealth roll that
    /// must wait for the hider's turn (P9, O7) comes back in `requests`
    /// unanswered. One transaction: if `event` or an answer is refused for
    /// another reason, nothing changes.
    #[cfg(feature = "roller")]
    pub fn settle(&mut self, event: Event, seed: u64) -> Result<Effects, Error> {
        self.transaction(|tx, ctx| {
            let mut roller = Roller::new(seed);
            dispatch::run(tx, &event, ctx)?;
            let mut pending = std::mem::take(&mut ctx.requests);
            let mut unanswered = Vec::new();
            for _ in 0..MAX_SETTLE_ROUNDS {
                if pending.is_empty() {
                    break;
                }
                let mut next_requests = Vec::new();
                for request in pending {
                    for answer in roller.answer(tx.state(), &request)? {
                        let point = tx.savepoint();
                        let mut answer_ctx = Ctx::new(tx.settings.show_numbers_to_players);
                        match dispatch::run(tx, &answer, &mut answer_ctx) {
                            Ok(()) => {
                                ctx.log.extend(answer_ctx.log);
                                Request::append(&mut next_requests, answer_ctx.requests);
                            }
                            // P9 / O7: in combat a new stealth roll (a request
                            // with one answer) waits for the hider's own turn;
                            // it stays with the caller.
                            Err(
                                Error::NotHiderTurn { .. } | Error::StealthRollAlreadyMade { .. },
                            ) => {
                                tx.rollback_to(point);
                                unanswered.push(request.clone());
                            }
                            Err(error) => return Err(error),
                        }
                    }
                }
                pending = next_requests;
            }
            Request::append(&mut unanswered, pending);
            ctx.requests = unanswered;
            Ok(())
        })
    }

    /// B4: the events that answer `requests` with dice seeded by `seed`,
    /// without applying them. See [`crate::roll_requests`].
    #[cfg(feature = "roller")]
    pub fn roll_requests(&self, requests: &[Request], seed: u64) -> Result<Vec<Event>, Error> {
        crate::roller::roll_requests_in(&self.state, requests, seed)
    }

    /// The state, borrowed.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The state in format version 2, copied: what a caller saves.
    pub fn snapshot(&self) -> State {
        self.state.clone()
    }

    /// The state, moved out of the session.
    pub fn into_state(self) -> State {
        self.state
    }

    /// Successful `apply`, `apply_all` and `settle` calls since the state
    /// was created.
    pub fn revision(&self) -> u64 {
        self.state.revision
    }

    /// Does `observer` perceive `hider`? See [`crate::query::perceives`].
    pub fn perceives(&self, query: &PairQuery) -> Result<Decision, Error> {
        crate::query::perceives_in(&self.state, query)
    }

    /// P5. See [`crate::query::can_locate`].
    pub fn can_locate(&self, query: &PairQuery) -> Result<Decision, Error> {
        crate::query::can_locate_in(&self.state, query)
    }

    /// P6. See [`crate::query::can_defend`].
    pub fn can_defend(&self, query: &DefenseQuery) -> Result<Decision, Error> {
        crate::query::can_defend_in(&self.state, query)
    }

    /// P7, P8. See [`crate::query::knockout`].
    pub fn knockout(&self, query: &KnockoutQuery) -> Result<KnockoutResult, Error> {
        crate::query::knockout_in(&self.state, query)
    }

    /// P10. See [`crate::query::can_pickpocket`].
    pub fn can_pickpocket(&self, query: &PickpocketQuery) -> Result<Decision, Error> {
        crate::query::can_pickpocket_in(&self.state, query)
    }

    /// O10, O13. See [`crate::query::attack_hidden`].
    pub fn attack_hidden(&self, query: &HiddenAttackQuery) -> Result<HiddenAttackResult, Error> {
        crate::query::attack_hidden_in(&self.state, query)
    }

    /// A hider's standing (GM only). See [`crate::standing::standing`].
    pub fn standing(&self, query: &StandingQuery) -> Result<Standing, Error> {
        crate::standing::standing_in(&self.state, query)
    }

    /// Every pair the query names, with its state and the decision behind
    /// it (GM only). See [`crate::standing::pairs`].
    pub fn pairs(&self, query: &PairsQuery) -> Result<Vec<PairStanding>, Error> {
        crate::standing::pairs_in(&self.state, query)
    }

    /// B1/B2: for every observer, the hiders it does not perceive:
    /// `{ observerTokenId: [hiderTokenId, ...] }`, in id order, observers
    /// that perceive everyone left out. Walks every hider and creature:
    /// build it once, then patch it with [`Session::hidden_from_changes`].
    pub fn hidden_from(&self) -> BTreeMap<TokenId, Vec<TokenId>> {
        crate::query::hidden_from_in(&self.state)
            .into_iter()
            .collect()
    }

    /// The patch that brings a [`Session::hidden_from`] lookup built before
    /// `effects` up to date: for each entry, add `hider` to
    /// `lookup[observer]` when `hidden`, else remove it (and drop an
    /// observer whose list is empty). Entries come by observer then hider,
    /// at most one per pair, so a JavaScript caller patches a plain object
    /// of arrays in one pass.
    pub fn hidden_from_changes(effects: &Effects) -> &[HiddenFromChange] {
        &effects.hidden_from
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
        // P6: the status and its expiry follow the latest surprise on the
        // token (surprises are kept in the order they were made).
        let was = before.surprises.iter().rev().find(|s| &s.target == token);
        let is = after.surprises.iter().rev().find(|s| &s.target == token);
        if was.map(|s| &s.attacker) != is.map(|s| &s.attacker) {
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

/// Applies one event to a state: the engine's reducer, as a free function.
///
/// A thin wrapper over [`Session`]: loads (validates) a copy of `state`,
/// applies `event`, and returns the new state with the effects. Pure: the
/// same state and event always give the same outcome. On error the input
/// state is untouched (it is borrowed) and no outcome is returned.
///
/// Errors: every [`Error`] kind with a code ([`Error::code`]; the list, with
/// what each means, is in `npm/README.md`, "Error codes").
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

#[cfg(feature = "roller")]
/// Applies `event`, then answers its requests with the seeded roller and
/// applies the answers, round after round, until no request is left (at most
/// [`MAX_SETTLE_ROUNDS`] rounds; what is still unanswered then is returned
/// in `requests`). `changes` compare the first and the last state; `log`
/// holds every explanation in order. A thin wrapper over
/// [`Session::settle`]. Errors: those of [`crate::apply`].
pub fn settle(state: &State, event: Event, seed: u64) -> Result<Outcome, Error> {
    let mut session = Session::load(state.clone())?;
    let effects = session.settle(event, seed)?;
    Ok(Outcome {
        state: session.into_state(),
        changes: effects.changes,
        requests: effects.requests,
        log: effects.log,
    })
}
