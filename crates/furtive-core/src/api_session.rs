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
use crate::state::Config;

/// Serializes a result as ASCII JSON text ([`crate::api::to_json_text`]);
/// `invalid_input` naming `output` if it cannot be (never for the engine's
/// own types).
fn to_text<T: Serialize>(value: &T) -> Result<String, Error> {
    crate::api::to_json_text(value)
}

#[cfg(feature = "view-columns")]
/// The ids of `text`, joined by U+0000, in order: an empty text is one
/// empty id (which the engine then refuses as an id). `memchr` finds the
/// separators (a one-byte character, so every cut is a character boundary).
fn joined_ids(text: &str) -> impl Iterator<Item = &str> {
    let mut start = 0;
    memchr::memchr_iter(0, text.as_bytes())
        .chain(std::iter::once(text.len()))
        .map(move |end| {
            let id = &text[start..end];
            start = end + 1;
            id
        })
}

#[cfg(feature = "view-columns")]
/// The ids of a joined list sent with `entries` entries, split once for
/// both the event and the packed effects, which name them by their place:
/// none for an empty text of no entry, one empty id for an empty text
/// otherwise.
fn sent_list(text: &str, entries: usize) -> impl Iterator<Item = &str> {
    let none = entries == 0 && text.is_empty();
    joined_ids(text).take(if none { 0 } else { usize::MAX })
}

#[cfg(feature = "view-columns")]
/// The view entries sent as columns ([`JsonSession::apply_view_changed`]),
/// the observers' ids already split ([`sent_list`]): `invalid_input`
/// naming `field` when the columns' lengths disagree.
fn view_entries(
    field: &str,
    observers: &[&str],
    clear_view: &[u8],
    distance: &[f64],
) -> Result<Vec<crate::event::ViewEntry>, Error> {
    let count = clear_view.len();
    if observers.len() != count || distance.len() != count {
        return Err(Error::InvalidInput {
            field: field.to_owned(),
            message: format!(
                "the columns disagree: {} observers, {count} clear view bytes, {} distances",
                observers.len(),
                distance.len()
            ),
        });
    }
    Ok(observers
        .iter()
        .zip(clear_view.iter().zip(distance))
        .map(|(&observer, (&clear, &distance))| crate::event::ViewEntry {
            observer: observer.into(),
            clear_view: clear != 0,
            distance: (!distance.is_nan()).then_some(distance),
        })
        .collect())
}

#[cfg(feature = "view-columns")]
/// The `viewChanged` events of [`JsonSession::apply_all_view_changed`]'s
/// columns, the hiders' and observers' ids already split
/// ([`sent_list`]): `invalid_input` naming `events` when their lengths
/// disagree.
fn view_events(
    hiders: &[&str],
    moved: &[u8],
    counts: &[u32],
    observers: &[&str],
    clear_view: &[u8],
    distance: &[f64],
) -> Result<Vec<crate::event::Event>, Error> {
    let events = moved.len();
    // Checked: on wasm32 a sum of `u32`s can overflow `usize`.
    let entries = counts
        .iter()
        .try_fold(0usize, |sum, &count| sum.checked_add(count as usize));
    if hiders.len() != events || counts.len() != events || entries != Some(clear_view.len()) {
        return Err(Error::InvalidInput {
            field: "events".to_owned(),
            message: format!(
                "the columns disagree: {} hiders, {events} moved bytes, {} counts, {} clear view bytes",
                hiders.len(),
                counts.len(),
                clear_view.len()
            ),
        });
    }
    let mut view = view_entries("events", observers, clear_view, distance)?.into_iter();
    Ok(hiders
        .iter()
        .zip(moved.iter().zip(counts))
        .map(
            |(&hider, (&moved, &count))| crate::event::Event::ViewChanged {
                hider: hider.into(),
                moved: moved != 0,
                view: view.by_ref().take(count as usize).collect(),
            },
        )
        .collect())
}

/// A [`Session`] driven with JSON values in and JSON text out.
///
/// The effects of a changing call (`apply`, `applyAll`, `settle` and the
/// column forms) are written packed ([`crate::packed`]): their lists as
/// numbers indexing a table of strings, their log after the rest, which
/// the npm package reads only when `effects.log` is read.
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

    /// The effects of a changing call as packed JSON text
    /// ([`crate::packed::effects_text`]).
    fn effects(&mut self, effects: Result<Effects, Error>) -> Result<String, Error> {
        self.effects_naming(effects, crate::packed::SentIds::default())
    }

    /// [`JsonSession::effects`] naming the ids the caller sent by their
    /// place (the column forms, feature `view-columns`:
    /// [`crate::packed::effects_text_naming`]).
    fn effects_naming(
        &mut self,
        effects: Result<Effects, Error>,
        sent: crate::packed::SentIds,
    ) -> Result<String, Error> {
        crate::packed::effects_text_naming(&effects?, sent)
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

    #[cfg(feature = "view-columns")]
    /// `apply({ type: "viewChanged", hider, moved, view })` with the view
    /// sent as columns instead of JSON text: the same event, the same
    /// effects and the same refusals as [`JsonSession::apply`] (O4, O5,
    /// O13 decide, through [`Session::apply`]), without writing and reading
    /// the 150 objects of a view as text. Its packed text names the ids it
    /// was sent by their place (`hider`, then `observers` in order:
    /// [`crate::packed::effects_text_naming`]), which the caller still
    /// holds, in place of writing them again.
    ///
    /// Why: in Node.js 20, `JSON.stringify` of a `viewChanged` naming 150
    /// observers takes about 27 µs, and reading it back in the engine more
    /// (`bench/session.mjs`, docs/state.md); the package's `Session.apply`
    /// (`npm/arguments.js`, `viewColumns`) sends a plain `viewChanged`
    /// this way, and anything else as JSON text.
    ///
    /// - `hider`: the hider's token id;
    /// - `moved`: the event's `moved` (false when absent);
    /// - `observers`: the observers' token ids in view order, joined by
    ///   U+0000 (an id never contains it: the JavaScript side sends such an
    ///   event as text); empty for an empty view;
    /// - `clear_view`: one byte per entry, 0 for no clear view, anything
    ///   else (the package sends 1) for a clear view;
    /// - `distance`: one number per entry, in scene units; NaN for an entry
    ///   without a distance (JSON cannot carry NaN, so it never stands for
    ///   a number a caller sent).
    ///
    /// Errors: `invalid_input` naming `event.view` when the columns'
    /// lengths disagree (never through the package); then every error of
    /// [`Session::apply`], worded as for the same event sent as text.
    pub fn apply_view_changed(
        &mut self,
        hider: &str,
        moved: bool,
        observers: &str,
        clear_view: &[u8],
        distance: &[f64],
    ) -> Result<String, Error> {
        // The ids sent, split once: the event's, then named by their place
        // in the effects (the hider, then the observers, in order).
        let mut sent = Vec::with_capacity(clear_view.len() + 1);
        sent.push(hider);
        sent.extend(sent_list(observers, clear_view.len()));
        let effects =
            view_entries("event.view", &sent[1..], clear_view, distance).and_then(|view| {
                self.session.apply(crate::event::Event::ViewChanged {
                    hider: hider.into(),
                    moved,
                    view,
                })
            });
        self.effects_naming(
            effects,
            crate::packed::SentIds {
                ids: &sent,
                hiders: 1,
            },
        )
    }

    #[cfg(feature = "view-columns")]
    /// `applyAll(events)` of `viewChanged` events only, sent as columns
    /// ([`JsonSession::apply_view_changed`], one more level): one
    /// transaction, the same effects and refusals as
    /// [`JsonSession::apply_all`] of the same events as text, the ids
    /// sent named by their place (the `hiders`, then the `observers`, in
    /// order). The package's `Session.applyAll` sends a list of plain
    /// `viewChanged` events this way (a door opening in front of three
    /// hiders).
    ///
    /// - `hiders`: the events' hiders, joined by U+0000 (empty for no
    ///   event);
    /// - `moved`: one byte per event, 0 for `moved: false`;
    /// - `counts`: each event's number of view entries;
    /// - `observers`, `clear_view`, `distance`: the entries of every view,
    ///   one after the other, as [`JsonSession::apply_view_changed`] takes
    ///   one view's.
    ///
    /// Errors: `invalid_input` naming `events` when the columns' lengths
    /// disagree (never through the package); then every error of
    /// [`Session::apply_all`], worded as for the same events sent as text.
    pub fn apply_all_view_changed(
        &mut self,
        hiders: &str,
        moved: &[u8],
        counts: &[u32],
        observers: &str,
        clear_view: &[u8],
        distance: &[f64],
    ) -> Result<String, Error> {
        // The ids sent, split once: the events', then named by their place
        // in the effects (the hiders, then every view's observers, in order).
        let mut sent: Vec<&str> = sent_list(hiders, moved.len()).collect();
        let sent_hiders = sent.len();
        sent.extend(sent_list(observers, clear_view.len()));
        let (hider_ids, observer_ids) = sent.split_at(sent_hiders);
        let effects = view_events(hider_ids, moved, counts, observer_ids, clear_view, distance)
            .and_then(|events| self.apply_all_events(&events));
        self.effects_naming(
            effects,
            crate::packed::SentIds {
                ids: &sent,
                hiders: sent_hiders,
            },
        )
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
