//! [`JsonSession`]: a [`Session`] driven with JSON, what a JavaScript
//! `Session` object holds (napi and wasm alike).
//!
//! The state lives here between calls; each call reads its own arguments
//! and writes its result as JSON text, so an event costs what it touches.
//! Refusals name the argument as the free functions do (`event.hider`,
//! `events[2].roll`, `query.observer`, `seed`); a snapshot's fields are
//! named `state.…`.

use furtive_core::query::{
    DefenseQuery, HiddenAttackQuery, KnockoutQuery, PairQuery, PickpocketQuery,
};
use furtive_core::standing::{PairsQuery, StandingQuery};
use furtive_core::{Config, Effects, Error, Event, Session};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::read::{self, Input};
use crate::write::to_text;

/// A [`Session`] driven with JSON values in and JSON text out.
#[derive(Debug)]
pub struct JsonSession {
    session: Session,
}

impl JsonSession {
    /// `Session.create(config)`: a fresh session from `{ ruleset,
    /// settings?, creatures? }`.
    pub fn create(config: impl Input) -> Result<JsonSession, Error> {
        let config: Config = config.read("config")?;
        Ok(JsonSession::from(Session::new(config)?))
    }

    /// `Session.load(snapshot)`: a session over a state in format version
    /// 1 (migrated) or 2, validated once here.
    pub fn load(snapshot: impl Input) -> Result<JsonSession, Error> {
        Ok(JsonSession::from(Session::load(read::state(
            "state", snapshot,
        )?)?))
    }

    /// The session.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// `apply(event) -> Effects`; a refused event changes nothing.
    pub fn apply(&mut self, event: impl Input) -> Result<String, Error> {
        let event = read::event("event", event)?;
        to_text(&self.session.apply(event)?)
    }

    /// `applyAll(events) -> Effects`: one transaction; a refusal names the
    /// event's place in the list (`events[1].hider: …`).
    pub fn apply_all(&mut self, events: impl Input) -> Result<String, Error> {
        let events = read::events(events)?;
        to_text(&self.apply_events(&events)?)
    }

    fn apply_events(&mut self, events: &[Event]) -> Result<Effects, Error> {
        self.session
            .apply_all_at(events)
            .map_err(|(index, error)| Error::InEvent {
                index,
                error: Box::new(error),
            })
    }

    /// `settle(event, seed) -> Effects` (B4).
    #[cfg(feature = "roller")]
    pub fn settle(&mut self, event: impl Input, seed: impl Input) -> Result<String, Error> {
        let event = read::event("event", event)?;
        let seed = read::seed(seed)?;
        to_text(&self.session.settle(event, seed)?)
    }

    /// `rollRequests(requests, seed) -> Event[]` (B4), not applied.
    #[cfg(feature = "roller")]
    pub fn roll_requests(&self, requests: impl Input, seed: impl Input) -> Result<String, Error> {
        let requests = read::requests(requests)?;
        let seed = read::seed(seed)?;
        to_text(&self.session.roll_requests(&requests, seed)?)
    }

    /// `perceives({ observer, hider }) -> Decision`.
    pub fn perceives(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<PairQuery, _>(query, Session::perceives)
    }

    /// `canLocate({ observer, hider }) -> Decision` (P5).
    pub fn can_locate(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<PairQuery, _>(query, Session::can_locate)
    }

    /// `canDefend({ defender, target, attacker }) -> Decision` (P6).
    pub fn can_defend(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<DefenseQuery, _>(query, Session::can_defend)
    }

    /// `knockout({ attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
    pub fn knockout(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<KnockoutQuery, _>(query, Session::knockout)
    }

    /// `canPickpocket({ hider, target, held, visible }) -> Decision` (P10).
    pub fn can_pickpocket(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<PickpocketQuery, _>(query, Session::can_pickpocket)
    }

    /// `attackHidden({ attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
    pub fn attack_hidden(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<HiddenAttackQuery, _>(query, Session::attack_hidden)
    }

    /// `standing({ hider }) -> Standing` (GM only): the hider's roll in
    /// force and its parts.
    pub fn standing(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<StandingQuery, _>(query, Session::standing)
    }

    /// `pairs({ hider?, observer? }) -> PairStanding[]` (GM only): each
    /// pair's state and the decision behind it.
    pub fn pairs(&self, query: impl Input) -> Result<String, Error> {
        self.answer::<PairsQuery, _>(query, Session::pairs)
    }

    /// A query's answer: the query read, then `answer` on the session.
    fn answer<Q: DeserializeOwned, A: Serialize>(
        &self,
        query: impl Input,
        answer: fn(&Session, &Q) -> Result<A, Error>,
    ) -> Result<String, Error> {
        to_text(&answer(&self.session, &query.read::<Q>("query")?)?)
    }

    /// `hiddenFrom() -> { [observer]: hider[] }` (B1, B2).
    // `#[inline]`: compiled in the binding crate with the other writers
    // (see `crate::read`'s `Input for &str`).
    #[inline]
    pub fn hidden_from(&self) -> Result<String, Error> {
        to_text(&self.session.hidden_from())
    }

    /// `snapshot() -> State`: the state in format version 2.
    // `#[inline]`: see `hidden_from`.
    #[inline]
    pub fn snapshot(&self) -> Result<String, Error> {
        to_text(self.session.state())
    }

    /// `revision`: successful `apply`, `applyAll` and `settle` calls since
    /// the state was created.
    pub fn revision(&self) -> u64 {
        self.session.revision()
    }
}

impl From<Session> for JsonSession {
    fn from(session: Session) -> JsonSession {
        JsonSession { session }
    }
}
