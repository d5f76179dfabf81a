//! The JSON facade of [`Session`] that the bindings call: JSON in (the
//! bindings' text, or a `Value`: [`crate::api::Input`]), JSON text out,
//! the same parsing and the same error messages as the free functions of
//! [`crate::api`].
//!
//! A [`JsonSession`] is what a JavaScript `Session` object holds (napi and
//! wasm alike): the state lives here, between calls, and each call only
//! converts its own arguments and result, so an event costs what it
//! touches, not the table size. Results are JSON text, serialized straight
//! from the engine's types (no `Value` in between), which the JavaScript
//! side reads with `JSON.parse`: measured faster than building the objects
//! from Rust in wasm (serde-wasm-bindgen), most of all in Chromium
//! (`bench/session.mjs`, docs/state.md). Errors name the argument as the free
//! functions do (`event.hider`, `events[2].roll`, `query.observer`,
//! `seed`); a snapshot's fields are named `state.…`, as in
//! `apply(state, event)`, because a snapshot is a state.

use serde::Serialize;

use crate::api::{parse, parse_event, parse_events, Input};
use crate::error::Error;
use crate::query::{DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery};
use crate::session::{Effects, Session};
use crate::standing::{PairsQuery, StandingQuery};
use crate::state::Config;

/// Serializes a result as ASCII JSON text ([`crate::api::to_json_text`]);
/// `invalid_input` naming `output` if it cannot be (never for the engine's
/// own types).
fn to_text<T: Serialize>(value: &T) -> Result<String, Error> {
    crate::api::to_json_text(value)
}

/// A [`Session`] driven with JSON values in and JSON text out.
#[derive(Debug)]
pub struct JsonSession {
    session: Session,
}

impl JsonSession {
    /// `Session.create(config)`: a fresh session from `{ ruleset,
    /// settings?, creatures? }`. Errors: `invalid_input` naming
    /// `config.…`, `duplicate_token`, `out_of_range`.
    pub fn create(config: impl Input) -> Result<JsonSession, Error> {
        let config: Config = parse("config", config)?;
        Ok(JsonSession::from_session(Session::new(config)?))
    }

    /// `Session.load(snapshot)`: a session over a state in format version
    /// 1 (migrated) or 2, validated once here. Errors name `state.…`;
    /// `unsupported_version` for another version.
    pub fn load(snapshot: impl Input) -> Result<JsonSession, Error> {
        // What `Session::load_json` does, with text read straight into the
        // state's types (`crate::api::read_state`).
        Ok(JsonSession::from_session(Session::load(
            crate::api::read_state("state", snapshot)?,
        )?))
    }

    /// The JSON facade of a session built in Rust (`Session::new`,
    /// `Session::load`).
    pub fn from_session(session: Session) -> JsonSession {
        JsonSession { session }
    }

    /// The effects of a changing call as JSON text.
    fn effects(&mut self, effects: Result<Effects, Error>) -> Result<String, Error> {
        to_text(&effects?)
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// `apply(event) -> Effects`; see [`Session::apply`]. A refused event
    /// changes nothing.
    pub fn apply(&mut self, event: impl Input) -> Result<String, Error> {
        let effects = parse_event("event", event).and_then(|event| self.session.apply(event));
        self.effects(effects)
    }

    /// Applies `events` as one transaction; a refusal names the event's
    /// place in the list ([`Error::InEvent`]: `events[1].hider: …`).
    fn apply_events(&mut self, events: &[crate::event::Event]) -> Result<String, Error> {
        let effects = self.apply_all_events(events);
        self.effects(effects)
    }

    /// [`Session::apply_all`] of `events`, a refusal naming the event's place.
    fn apply_all_events(&mut self, events: &[crate::event::Event]) -> Result<Effects, Error> {
        self.session
            .apply_all_at(events)
            .map_err(|(index, error)| Error::InEvent {
                index,
                error: Box::new(error),
            })
    }

    /// `applyAll(events) -> Effects`: one transaction; see
    /// [`Session::apply_all`]. Errors name `events[i].…`.
    pub fn apply_all(&mut self, events: impl Input) -> Result<String, Error> {
        match parse_events(events) {
            Ok(events) => self.apply_events(&events),
            Err(error) => self.effects(Err(error)),
        }
    }

    /// `settle(event, seed) -> Effects` (B4); see [`Session::settle`].
    #[cfg(feature = "roller")]
    pub fn settle(&mut self, event: impl Input, seed: impl Input) -> Result<String, Error> {
        let effects = parse_event("event", event).and_then(|event| {
            let seed = crate::api::read_seed(seed)?;
            self.session.settle(event, seed)
        });
        self.effects(effects)
    }

    /// `rollRequests(requests, seed) -> Event[]` (B4), without applying
    /// them; see [`Session::roll_requests`].
    #[cfg(feature = "roller")]
    pub fn roll_requests(&self, requests: impl Input, seed: impl Input) -> Result<String, Error> {
        let requests = crate::api::parse_requests(requests)?;
        let seed = crate::api::read_seed(seed)?;
        to_text(&self.session.roll_requests(&requests, seed)?)
    }

    /// `perceives({ observer, hider }) -> Decision`.
    pub fn perceives(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .perceives(&parse::<PairQuery>("query", query)?)?,
        )
    }

    /// `canLocate({ observer, hider }) -> Decision` (P5).
    pub fn can_locate(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .can_locate(&parse::<PairQuery>("query", query)?)?,
        )
    }

    /// `canDefend({ defender, target, attacker }) -> Decision` (P6).
    pub fn can_defend(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .can_defend(&parse::<DefenseQuery>("query", query)?)?,
        )
    }

    /// `knockout({ attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
    pub fn knockout(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .knockout(&parse::<KnockoutQuery>("query", query)?)?,
        )
    }

    /// `canPickpocket({ hider, target, held, visible }) -> Decision` (P10).
    pub fn can_pickpocket(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .can_pickpocket(&parse::<PickpocketQuery>("query", query)?)?,
        )
    }

    /// `attackHidden({ attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
    pub fn attack_hidden(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .attack_hidden(&parse::<HiddenAttackQuery>("query", query)?)?,
        )
    }

    /// `standing({ hider }) -> Standing` (GM only): the hider's roll in
    /// force and its parts; see [`Session::standing`].
    pub fn standing(&self, query: impl Input) -> Result<String, Error> {
        to_text(
            &self
                .session
                .standing(&parse::<StandingQuery>("query", query)?)?,
        )
    }

    /// `pairs({ hider?, observer? }) -> PairStanding[]` (GM only): each
    /// pair's state and the decision behind it; see [`Session::pairs`].
    pub fn pairs(&self, query: impl Input) -> Result<String, Error> {
        to_text(&self.session.pairs(&parse::<PairsQuery>("query", query)?)?)
    }

    /// `hiddenFrom() -> { [observer]: hider[] }` (B1, B2): walks the whole
    /// table; build it once, then patch it with each result's `hiddenFrom`.
    pub fn hidden_from(&self) -> Result<String, Error> {
        to_text(&crate::map::Ser(&crate::query::hidden_from_in(
            self.session.state(),
        )))
    }

    /// `snapshot() -> State`: the state in format version 2, what a caller
    /// saves and later gives to `Session.load`.
    pub fn snapshot(&self) -> Result<String, Error> {
        to_text(self.session.state())
    }

    /// `revision`: successful `apply`, `applyAll` and `settle` calls since
    /// the state was created.
    pub fn revision(&self) -> u64 {
        self.session.revision()
    }
}
