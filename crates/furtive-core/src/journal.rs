//! The transaction journal: how a [`crate::Session`] stays atomic without
//! cloning the state, and how it finds what an event changed without
//! diffing the whole table.
//!
//! Rules never get `&mut State`. They get a [`Tx`], which reads the state
//! through `Deref` and writes only through methods that first save the
//! slot they touch (a pair, a hider's roll, a creature...) in the journal.
//! The journal holds, for each touched slot, the value it had before. A
//! refused event is undone by swapping every saved value back, newest
//! first. A successful one is compared on its touched slots only: the
//! first value saved for each slot is how it read before ([`Before`]), the
//! state is how it reads now ([`Journal::effects`]). So an event costs what
//! it touches, never the table size.

use std::ops::Deref;

use serde::{Deserialize, Serialize};

use crate::event::ViewEntry;
use crate::outcome::{Change, Expiry, Status};
use crate::record_changes::{AttemptChange, ViewChanges};
use crate::state::{
    Attempt, Combat, Creature, Hider, HiderPhase, Pair, State, Surprise, TokenId, TokenMap,
};

/// Which slot of the state a journal entry saved.
#[derive(Debug)]
enum Key {
    /// A whole hider record (inserted, replaced or removed).
    Hider(TokenId),
    /// A hider's phase (changes how every one of its pairs reads).
    Phase(TokenId),
    /// A hider's roll and `movedThisTurn`.
    Head(TokenId),
    /// One pair: its hider (a place in [`Journal::pair_hiders`], so the
    /// entries of one hider share its id) and its observer.
    Pair(usize, TokenId),
    /// One creature.
    Creature(TokenId),
    /// The surprises list (short: at most one per attacker and target).
    Surprises,
    /// The combat bookkeeping.
    Combat,
}

/// The value a journal entry saved.
#[derive(Debug)]
enum Slot {
    Hider(Option<Hider>),
    Phase(HiderPhase),
    Head(Attempt, bool),
    Pair(Option<Pair>),
    Creature(Option<Creature>),
    Surprises(Vec<Surprise>),
    Combat(Combat),
}

/// Saved slots, in the order they were touched.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    keys: Vec<Key>,
    slots: Vec<Slot>,
    /// The hiders of the pair entries, each once.
    pair_hiders: Vec<TokenId>,
}

/// A point to roll back to inside a transaction ([`Journal::rollback_to`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Savepoint(usize);

/// `observer`'s lookup entry for `hider` changed: add `hider` to the
/// observer's list (`hidden: true`) or remove it (`hidden: false`). See
/// [`crate::Session::hidden_from_changes`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HiddenFromChange {
    pub observer: TokenId,
    pub hider: TokenId,
    /// Whether `observer` now fails to perceive `hider` (B1/B2).
    pub hidden: bool,
}

/// Swaps one saved slot with the state's. `pair_hiders`: the journal's.
fn swap_slot(state: &mut State, pair_hiders: &[TokenId], key: &Key, slot: &mut Slot) {
    match (key, slot) {
        (Key::Hider(id), Slot::Hider(saved)) => {
            let current = state.hiders.remove(id);
            if let Some(hider) = saved.take() {
                state.hiders.insert(id.clone(), hider);
            }
            *saved = current;
        }
        (Key::Phase(id), Slot::Phase(phase)) => {
            if let Some(hider) = state.hiders.get_mut(id) {
                std::mem::swap(&mut hider.phase, phase);
            }
        }
        (Key::Head(id), Slot::Head(attempt, moved)) => {
            if let Some(hider) = state.hiders.get_mut(id) {
                std::mem::swap(&mut hider.attempt, attempt);
                std::mem::swap(&mut hider.moved_this_turn, moved);
            }
        }
        (Key::Pair(hider, observer), Slot::Pair(saved)) => {
            let record = pair_hiders
                .get(*hider)
                .and_then(|hider| state.hiders.get_mut(hider));
            if let Some(record) = record {
                match (record.pairs.get_mut(observer), saved.as_mut()) {
                    (Some(current), Some(value)) => std::mem::swap(current, value),
                    _ => {
                        let current = record.pairs.remove(observer);
                        if let Some(pair) = saved.take() {
                            record.pairs.insert(observer.clone(), pair);
                        }
                        *saved = current;
                    }
                }
            }
        }
        (Key::Creature(id), Slot::Creature(saved)) => {
            let current = state.creatures.remove(id);
            if let Some(creature) = saved.take() {
                state.creatures.insert(id.clone(), creature);
            }
            *saved = current;
        }
        (Key::Surprises, Slot::Surprises(saved)) => std::mem::swap(&mut state.surprises, saved),
        (Key::Combat, Slot::Combat(saved)) => std::mem::swap(&mut state.combat, saved),
        // Keys and slots are pushed together by `Tx`, always matching.
        _ => {}
    }
}

impl Journal {
    pub fn savepoint(&self) -> Savepoint {
        Savepoint(self.keys.len())
    }

    /// Undoes every entry after `point` and forgets them.
    pub fn rollback_to(&mut self, state: &mut State, point: Savepoint) {
        while self.keys.len() > point.0 {
            if let (Some(key), Some(mut slot)) = (self.keys.pop(), self.slots.pop()) {
                swap_slot(state, &self.pair_hiders, &key, &mut slot);
            }
        }
    }

    /// Undoes every entry.
    pub fn rollback(&mut self, state: &mut State) {
        self.rollback_to(state, Savepoint(0));
    }

    /// Forgets every entry (the transaction is committed).
    pub fn clear(&mut self) {
        self.keys.clear();
        self.slots.clear();
        self.pair_hiders.clear();
    }

    /// The place of `hider` in `pair_hiders`, added when missing. A
    /// transaction writes the pairs of few hiders, most often in runs.
    fn pair_hider(&mut self, hider: &str) -> usize {
        match self.pair_hiders.iter().rposition(|id| id == hider) {
            Some(place) => place,
            None => {
                self.pair_hiders.push(hider.into());
                self.pair_hiders.len() - 1
            }
        }
    }

    /// The hider of a pair entry (its place always comes from
    /// [`Journal::pair_hider`]).
    fn hider_of(&self, place: usize) -> &str {
        self.pair_hiders.get(place).map_or("", String::as_str)
    }

    /// Saves one pair's value before it is written (`None`: it did not exist).
    fn push_pair(&mut self, hider: &str, observer: TokenId, old: Option<Pair>) {
        let place = self.pair_hider(hider);
        self.push(Key::Pair(place, observer), Slot::Pair(old));
    }

    fn push(&mut self, key: Key, slot: Slot) {
        self.keys.push(key);
        self.slots.push(slot);
    }

    /// What the journaled transaction changed ([`Compared`]), the state
    /// being as it left it. The state before is read from the saved slots
    /// ([`Before`]), never restored.
    pub fn effects(&self, state: &State) -> Compared {
        let mut compared = Compared::default();
        if self.keys.is_empty() {
            return compared;
        }
        let before = Before::new(self);
        // The hiders whose pairs may read differently, those whose whole
        // record or phase changed, and the creatures that joined or left.
        let mut hiders: Vec<&str> = Vec::new();
        let mut whole: Vec<&str> = Vec::new();
        let mut creatures: Vec<&str> = Vec::new();
        for key in &self.keys {
            match key {
                Key::Hider(id) | Key::Phase(id) => {
                    hiders.push(id);
                    whole.push(id);
                }
                Key::Head(id) => hiders.push(id),
                // A run of pairs shares its hider.
                Key::Pair(place, _) => {
                    let hider = self.hider_of(*place);
                    if hiders.last() != Some(&hider) {
                        hiders.push(hider);
                    }
                }
                Key::Creature(id) => creatures.push(id),
                Key::Surprises | Key::Combat => {}
            }
        }
        sort_unique(&mut whole);
        sort_unique(&mut creatures);
        // A creature joining or leaving changes how every pair naming it
        // reads (B1: only known observers count).
        let mut pairs: Vec<(&str, &str)> = Vec::new();
        for &creature in &creatures {
            for (hider, record) in &state.hiders {
                if record.pairs.contains_key(creature) {
                    hiders.push(hider);
                    pairs.push((hider, creature));
                }
            }
        }
        sort_unique(&mut hiders);
        let pairs = before.pairs_with(state, &whole, pairs);

        let Compared {
            changes,
            hidden_from: lookup,
            attempts,
            views,
        } = &mut compared;
        // The stored view a caller keeps: clear view and distance.
        let stored =
            |pair: Option<&Pair>| pair.map(|p| (p.clear_view, p.distance.map(f64::to_bits)));
        for group in pairs.chunk_by(|a, b| a.0 == b.0) {
            let hider = group[0].0;
            let record = state.hiders.get(hider);
            let hiding_now = record.is_some_and(|r| r.phase == HiderPhase::Hiding);
            let existed = before.exists(state, hider);
            let was_hiding = before.phase(state, hider) == Some(HiderPhase::Hiding);
            let mut changed = ViewChanges {
                hider: hider.into(),
                view: Vec::new(),
                removed: Vec::new(),
            };
            for &(_, observer, pair_before) in group {
                let known = state.creatures.contains_key(observer);
                let pair_now = record.and_then(|r| r.pairs.get(observer));
                let after = PairView::new(
                    hider,
                    observer,
                    record.is_some(),
                    hiding_now,
                    known,
                    pair_now,
                );
                let known_before = before.known_given(observer, known);
                let was = PairView::new(
                    hider,
                    observer,
                    existed,
                    was_hiding,
                    known_before,
                    pair_before,
                );
                if was.known && after.known && was.perceives != after.perceives {
                    changes.push(Change::Visibility {
                        hider: hider.into(),
                        observer: observer.into(),
                        perceived: after.perceives,
                    });
                }
                if was.hidden_from != after.hidden_from {
                    lookup.push(HiddenFromChange {
                        observer: observer.into(),
                        hider: hider.into(),
                        hidden: after.hidden_from,
                    });
                }
                if stored(pair_before) != stored(pair_now) {
                    match pair_now {
                        Some(pair) => changed.view.push(ViewEntry {
                            observer: observer.into(),
                            clear_view: pair.clear_view,
                            distance: pair.distance,
                        }),
                        None => changed.removed.push(observer.into()),
                    }
                }
            }
            if !changed.view.is_empty() || !changed.removed.is_empty() {
                views.push(changed);
            }
        }
        // The hiders whose whole record or phase was saved, by id: an
        // attempt begins or ends only with one of them.
        let hiding = |phase: Option<HiderPhase>| phase == Some(HiderPhase::Hiding);
        for &hider in &whole {
            let now = state.hiders.get(hider).map(|h| h.phase);
            if hiding(before.phase(state, hider)) != hiding(now) {
                attempts.push(AttemptChange {
                    hider: hider.into(),
                    hiding: hiding(now),
                });
            }
        }
        let mut status_tokens: Vec<&str> = hiders.iter().chain(&creatures).copied().collect();
        if let Some(surprises) = before.surprises {
            for surprise in surprises.iter().chain(&state.surprises) {
                status_tokens.push(&surprise.target);
            }
        }
        sort_unique(&mut status_tokens);
        for &token in &status_tokens {
            if hiders.binary_search(&token).is_ok() || creatures.binary_search(&token).is_ok() {
                let was = before.is_hidden(state, token);
                let is = is_hidden(state, token);
                if was != is {
                    changes.push(Change::Status {
                        token: token.into(),
                        status: Status::Hidden,
                        active: is,
                        expires: None,
                    });
                }
            }
            if let Some(surprises) = before.surprises {
                let was = surprise_attacker(surprises, token);
                let is = surprise_attacker(&state.surprises, token);
                // P6: a new surprise, or the end of the latest one while
                // another runs, moves the expiry.
                if was != is {
                    changes.push(Change::Status {
                        token: token.into(),
                        status: Status::Defenseless,
                        active: is.is_some(),
                        expires: is.map(|attacker| Expiry {
                            turn_end_of: attacker.into(),
                        }),
                    });
                }
            }
        }
        lookup.sort_by(|a, b| (&a.observer, &a.hider).cmp(&(&b.observer, &b.hider)));
        compared
    }
}

/// What a transaction changed, found by [`Journal::effects`] from the
/// touched slots only, in the order a full comparison gives them.
#[derive(Debug, Default)]
pub(crate) struct Compared {
    /// The visible changes: visibility by hider then observer, then
    /// statuses by token.
    pub changes: Vec<Change>,
    /// The hidden-from lookup patch, by observer then hider.
    pub hidden_from: Vec<HiddenFromChange>,
    /// The hiders that began or ended a stealth attempt, by hider.
    pub attempts: Vec<AttemptChange>,
    /// The pairs whose stored view changed, by hider then observer.
    pub views: Vec<ViewChanges>,
}

/// Sorts `items` and drops repeats.
fn sort_unique<T: Ord>(items: &mut Vec<T>) {
    items.sort();
    items.dedup();
}

/// The state before the transaction, where the journal saved it: each
/// slot's value from the first entry that saved it. A whole hider record
/// saved first stands for its phase and every pair. What no entry saved
/// reads as it is now.
struct Before<'a> {
    /// Hiders whose whole record was saved: the record before (`None`:
    /// there was none).
    records: Vec<(&'a str, Option<&'a Hider>)>,
    /// Hiders whose phase was saved before any whole record.
    phases: Vec<(&'a str, HiderPhase)>,
    /// Pairs saved before any whole record of their hider, by hider then
    /// observer: the pair before.
    pairs: Vec<PairBefore<'a>>,
    /// Creatures saved, by id: whether the engine knew each before.
    creatures: Vec<(&'a str, bool)>,
    /// The surprises before, when they were saved.
    pub surprises: Option<&'a [Surprise]>,
}

impl<'a> Before<'a> {
    pub fn new(journal: &'a Journal) -> Self {
        let mut before = Before {
            records: Vec::new(),
            phases: Vec::new(),
            pairs: Vec::new(),
            creatures: Vec::new(),
            surprises: None,
        };
        for (key, slot) in journal.keys.iter().zip(&journal.slots) {
            match (key, slot) {
                (Key::Hider(id), Slot::Hider(record)) if before.record(id).is_none() => {
                    before.records.push((id, record.as_ref()));
                }
                (Key::Phase(id), Slot::Phase(phase))
                    if before.record(id).is_none() && before.saved_phase(id).is_none() =>
                {
                    before.phases.push((id, *phase));
                }
                (Key::Pair(place, observer), Slot::Pair(pair))
                    if before.record(journal.hider_of(*place)).is_none() =>
                {
                    before
                        .pairs
                        .push((journal.hider_of(*place), observer, pair.as_ref()));
                }
                (Key::Creature(id), Slot::Creature(creature)) => {
                    before.creatures.push((id, creature.is_some()));
                }
                (Key::Surprises, Slot::Surprises(surprises)) => {
                    before.surprises.get_or_insert(surprises);
                }
                _ => {}
            }
        }
        // Stable sorts, then the first entry of each pair and creature kept
        // (a transaction may save thousands of creatures: `applyAll` of a
        // whole scene).
        sort_pairs(&mut before.pairs);
        before.creatures.sort_by_key(|c| c.0);
        before.creatures.dedup_by_key(|c| c.0);
        before
    }

    /// The whole record of `hider` before, if the transaction saved it. A
    /// linear search, as for phases: a transaction saves few.
    fn record(&self, hider: &str) -> Option<Option<&'a Hider>> {
        self.records.iter().find(|r| r.0 == hider).map(|r| r.1)
    }

    fn saved_phase(&self, hider: &str) -> Option<HiderPhase> {
        self.phases.iter().find(|p| p.0 == hider).map(|p| p.1)
    }

    fn saved_creature(&self, creature: &str) -> Option<bool> {
        let at = self
            .creatures
            .binary_search_by_key(&creature, |c| c.0)
            .ok()?;
        Some(self.creatures[at].1)
    }

    /// Whether `hider` had a record. Only a whole-record entry adds or
    /// removes one.
    pub fn exists(&self, state: &State, hider: &str) -> bool {
        self.record(hider)
            .map_or_else(|| state.hiders.contains_key(hider), |r| r.is_some())
    }

    /// The phase of `hider` before (`None`: no record).
    pub fn phase(&self, state: &State, hider: &str) -> Option<HiderPhase> {
        if let Some(phase) = self.saved_phase(hider) {
            return Some(phase);
        }
        match self.record(hider) {
            Some(record) => record.map(|r| r.phase),
            None => state.hiders.get(hider).map(|r| r.phase),
        }
    }

    /// The pair of `hider` with `observer` before.
    pub fn pair(&self, state: &'a State, hider: &str, observer: &str) -> Option<&'a Pair> {
        if let Ok(at) = self
            .pairs
            .binary_search_by(|p| (p.0, p.1).cmp(&(hider, observer)))
        {
            return self.pairs[at].2;
        }
        match self.record(hider) {
            Some(record) => record.and_then(|r| r.pairs.get(observer)),
            None => state.hiders.get(hider).and_then(|r| r.pairs.get(observer)),
        }
    }

    /// Whether the engine knew `creature` before, `now` telling whether
    /// it knows it now.
    pub fn known_given(&self, creature: &str, now: bool) -> bool {
        self.saved_creature(creature).unwrap_or(now)
    }

    /// The observers `hider` had a pair with before (in no set order; one
    /// may come twice): those of its record (as saved, or as it is now),
    /// and those of the pairs saved before it.
    pub fn observers(
        &self,
        state: &'a State,
        hider: &'a str,
    ) -> impl Iterator<Item = &'a str> + '_ {
        let record = self
            .record(hider)
            .unwrap_or_else(|| state.hiders.get(hider));
        let from = self.pairs.partition_point(|p| p.0 < hider);
        let to = self.pairs.partition_point(|p| p.0 <= hider);
        let kept = record
            .into_iter()
            .flat_map(|r| r.pairs.keys())
            .map(String::as_str);
        let saved = self.pairs[from..to].iter().map(|p| p.1);
        kept.chain(saved)
            .filter(move |&observer| self.pair(state, hider, observer).is_some())
    }

    /// Every pair whose stored value may differ, by hider then observer,
    /// each once, with its value before: the pairs saved, every pair each
    /// hider of `whole` had or has, and `more`.
    pub fn pairs_with(
        &self,
        state: &'a State,
        whole: &[&'a str],
        more: Vec<(&'a str, &'a str)>,
    ) -> Vec<PairBefore<'a>> {
        let mut pairs = self.pairs.clone();
        let with_value = |(hider, observer)| (hider, observer, self.pair(state, hider, observer));
        pairs.extend(more.into_iter().map(with_value));
        for &hider in whole {
            let now = state
                .hiders
                .get(hider)
                .into_iter()
                .flat_map(|r| r.pairs.keys());
            let observers = self.observers(state, hider).chain(now.map(String::as_str));
            pairs.extend(observers.map(|observer| with_value((hider, observer))));
        }
        sort_pairs(&mut pairs);
        pairs
    }

    /// [`is_hidden`] before.
    pub fn is_hidden(&self, state: &'a State, token: &'a str) -> bool {
        self.phase(state, token) == Some(HiderPhase::Hiding)
            && self.observers(state, token).any(|observer| {
                self.pair(state, token, observer).is_some_and(|pair| {
                    !pair.perceived
                        && self.known_given(observer, state.creatures.contains_key(observer))
                })
            })
    }
}

/// A pair, by hider then observer, with its value before (`None`: there
/// was none).
type PairBefore<'a> = (&'a str, &'a str, Option<&'a Pair>);

/// Sorts pairs by hider then observer, stably, and keeps the first entry
/// of each. The pairs of one hider mostly borrow one id (the journal's
/// or the state's), so comparing where the hiders' ids are settles most
/// comparisons without reading their text.
fn sort_pairs(pairs: &mut Vec<PairBefore>) {
    let hider_order = |a: &str, b: &str| {
        if std::ptr::eq(a, b) {
            std::cmp::Ordering::Equal
        } else {
            a.cmp(b)
        }
    };
    pairs.sort_by(|a, b| hider_order(a.0, b.0).then_with(|| a.1.cmp(b.1)));
    pairs.dedup_by(|later, first| hider_order(later.0, first.0).is_eq() && later.1 == first.1);
}

/// How one pair reads in one state.
#[derive(Debug, Clone, Copy)]
struct PairView {
    perceives: bool,
    /// The observer is a known creature.
    known: bool,
    /// The pair is in the hidden-from lookup (B1/B2).
    hidden_from: bool,
}

impl PairView {
    /// As [`State::perceives`] reads it. `exists`: the hider has a record;
    /// `hiding`: its phase is `hiding`; `known`: the engine knows the
    /// observer; `pair`: the pair, if any.
    fn new(
        hider: &str,
        observer: &str,
        exists: bool,
        hiding: bool,
        known: bool,
        pair: Option<&Pair>,
    ) -> PairView {
        // B1: an observer the engine does not know perceives no hider.
        let perceives = !hiding || (known && pair.is_none_or(|pair| pair.perceived));
        PairView {
            perceives,
            known,
            hidden_from: known && observer != hider && exists && !perceives,
        }
    }
}

/// The attacker of the latest surprise on `target` (P6), if any: the
/// `defenseless` status and its expiry follow it (surprises are kept in
/// the order they were made). A linear search: a table has a handful of
/// surprises.
fn surprise_attacker<'a>(surprises: &'a [Surprise], target: &str) -> Option<&'a str> {
    surprises
        .iter()
        .rev()
        .find(|surprise| surprise.target == target)
        .map(|surprise| surprise.attacker.as_str())
}

/// Whether two stored distances are the same value, bit for bit (so `-0`
/// and `0`, which a snapshot writes differently, are not).
fn same_distance(a: Option<f64>, b: Option<f64>) -> bool {
    a.map(f64::to_bits) == b.map(f64::to_bits)
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

/// The rules' write access to the state: reads through `Deref`, writes
/// through methods that journal the slot first.
pub(crate) struct Tx<'a> {
    state: &'a mut State,
    journal: &'a mut Journal,
}

impl Deref for Tx<'_> {
    type Target = State;

    fn deref(&self) -> &State {
        self.state
    }
}

/// One existing pair, found with one lookup, for a rule that reads it (with
/// its hider's roll and the creatures) and may then write it: the pair is
/// journaled at the first [`PairTx::pair_mut`], unless it already was
/// (`saved`: [`Tx::record_view`] just saved it; the first saved value is
/// the one a rollback restores and [`Journal::effects`] compares with, so a
/// second entry would only cost time).
pub(crate) struct PairTx<'a> {
    /// The hider's roll in force.
    pub attempt: &'a Attempt,
    /// Every creature the engine knows.
    pub creatures: &'a TokenMap<Creature>,
    pair: &'a mut Pair,
    hider: &'a str,
    observer: &'a str,
    saved: bool,
    journal: &'a mut Journal,
}

impl<'a> PairTx<'a> {
    /// The pair, read-only.
    pub fn pair(&self) -> &Pair {
        self.pair
    }

    /// The pair, writable; journaled first unless already saved.
    pub fn pair_mut(&mut self) -> &mut Pair {
        self.save();
        self.pair
    }

    /// [`PairTx::pair_mut`], for as long as the transaction lends it.
    pub fn into_pair_mut(mut self) -> &'a mut Pair {
        self.save();
        self.pair
    }

    fn save(&mut self) {
        if !self.saved {
            let old = Some(self.pair.clone());
            self.journal
                .push_pair(self.hider, self.observer.into(), old);
            self.saved = true;
        }
    }
}

/// A hider's roll and `movedThisTurn`, writable (its phase goes through
/// [`Tx::set_phase`], its pairs through [`Tx::pair_mut`]).
pub(crate) struct HeadMut<'a> {
    pub attempt: &'a mut Attempt,
    pub moved_this_turn: &'a mut bool,
}

impl<'a> Tx<'a> {
    pub fn new(state: &'a mut State, journal: &'a mut Journal) -> Self {
        Tx { state, journal }
    }

    /// The state, read-only.
    pub fn state(&self) -> &State {
        self.state
    }

    /// A point to roll back to.
    pub fn savepoint(&self) -> Savepoint {
        self.journal.savepoint()
    }

    /// Undoes every write since `point`.
    pub fn rollback_to(&mut self, point: Savepoint) {
        self.journal.rollback_to(self.state, point);
    }

    /// Inserts or replaces a hider record.
    pub fn insert_hider(&mut self, id: &str, hider: Hider) {
        let old = self.state.hiders.insert(id.into(), hider);
        self.journal.push(Key::Hider(id.into()), Slot::Hider(old));
    }

    /// Removes a hider record; whether there was one.
    pub fn remove_hider(&mut self, id: &str) -> bool {
        match self.state.hiders.remove(id) {
            Some(old) => {
                self.journal
                    .push(Key::Hider(id.into()), Slot::Hider(Some(old)));
                true
            }
            None => false,
        }
    }

    /// Sets a hider's phase.
    pub fn set_phase(&mut self, id: &str, phase: HiderPhase) {
        if let Some(hider) = self.state.hiders.get_mut(id) {
            if hider.phase != phase {
                let old = std::mem::replace(&mut hider.phase, phase);
                self.journal.push(Key::Phase(id.into()), Slot::Phase(old));
            }
        }
    }

    /// A hider's roll and `movedThisTurn`, writable.
    pub fn head_mut(&mut self, id: &str) -> Option<HeadMut<'_>> {
        let hider = self.state.hiders.get_mut(id)?;
        self.journal.push(
            Key::Head(id.into()),
            Slot::Head(hider.attempt.clone(), hider.moved_this_turn),
        );
        Some(HeadMut {
            attempt: &mut hider.attempt,
            moved_this_turn: &mut hider.moved_this_turn,
        })
    }

    /// An existing pair, writable.
    pub fn pair_mut<'b>(&'b mut self, hider: &'b str, observer: &'b str) -> Option<&'b mut Pair> {
        self.pair_tx(hider, observer).map(PairTx::into_pair_mut)
    }

    /// An existing pair with its hider's roll and the creatures, read and
    /// written with one lookup ([`PairTx`]). `None` when there is no such
    /// pair.
    pub fn pair_tx<'b>(&'b mut self, hider: &'b str, observer: &'b str) -> Option<PairTx<'b>> {
        let State {
            hiders, creatures, ..
        } = &mut *self.state;
        let Hider { attempt, pairs, .. } = hiders.get_mut(hider)?;
        Some(PairTx {
            attempt,
            creatures,
            pair: pairs.get_mut(observer)?,
            hider,
            observer,
            saved: false,
            journal: &mut *self.journal,
        })
    }

    /// A hider's pair, `new_pair` when missing; `None` when `hider` has no
    /// record.
    pub fn pair_entry(&mut self, hider: &str, observer: &str, new_pair: Pair) -> Option<&mut Pair> {
        let record = self.state.hiders.get_mut(hider)?;
        let old = record.pairs.get(observer).cloned();
        if old.is_none() {
            record.pairs.insert(observer.into(), new_pair);
        }
        self.journal.push_pair(hider, observer.into(), old);
        record.pairs.get_mut(observer)
    }

    /// Updates the stored clear view and distance of the pairs named in
    /// `view`; a pair missing for an observer is created from `new_pair`.
    /// Then hands each entry's pair to `then`, with its hider's roll and
    /// the creatures ([`PairTx`]): one lookup per entry.
    ///
    /// A pair whose clear view and distance already read as `entry` is
    /// neither written nor journaled: an event that names observers whose
    /// view did not change (a token drag among observers that stay out of
    /// view) costs their lookups only.
    pub fn record_view(
        &mut self,
        hider: &str,
        view: &[ViewEntry],
        new_pair: Pair,
        mut then: impl FnMut(&ViewEntry, PairTx<'_>),
    ) {
        let State {
            hiders, creatures, ..
        } = &mut *self.state;
        let Some(Hider { attempt, pairs, .. }) = hiders.get_mut(hider) else {
            return;
        };
        for entry in view {
            // `old`: the pair's value before, when this call writes it.
            let (pair, old) = match pairs.get_mut(&entry.observer) {
                Some(pair)
                    if pair.clear_view == entry.clear_view
                        && same_distance(pair.distance, entry.distance) =>
                {
                    (pair, None)
                }
                Some(pair) => {
                    let old = pair.clone();
                    pair.clear_view = entry.clear_view;
                    pair.distance = entry.distance;
                    (pair, Some(Some(old)))
                }
                None => {
                    let mut pair = new_pair.clone();
                    pair.clear_view = entry.clear_view;
                    pair.distance = entry.distance;
                    let pair = pairs.entry(entry.observer.clone()).or_insert(pair);
                    (pair, Some(None))
                }
            };
            let saved = old.is_some();
            if let Some(old) = old {
                self.journal.push_pair(hider, entry.observer.clone(), old);
            }
            then(
                entry,
                PairTx {
                    attempt,
                    creatures,
                    pair,
                    hider,
                    observer: &entry.observer,
                    saved,
                    journal: &mut *self.journal,
                },
            );
        }
    }

    /// Removes a pair, if there is one.
    pub fn remove_pair(&mut self, hider: &str, observer: &str) {
        if let Some(record) = self.state.hiders.get_mut(hider) {
            if let Some(old) = record.pairs.remove(observer) {
                self.journal.push_pair(hider, observer.into(), Some(old));
            }
        }
    }

    /// Inserts or replaces a creature; whether it existed.
    pub fn insert_creature(&mut self, creature: Creature) -> bool {
        let id = creature.id.clone();
        let old = self.state.creatures.insert(id.clone(), creature);
        let existed = old.is_some();
        self.journal.push(Key::Creature(id), Slot::Creature(old));
        existed
    }

    /// Removes a creature, if known.
    pub fn remove_creature(&mut self, id: &str) {
        if let Some(old) = self.state.creatures.remove(id) {
            self.journal
                .push(Key::Creature(id.into()), Slot::Creature(Some(old)));
        }
    }

    /// The surprises, writable.
    pub fn surprises_mut(&mut self) -> &mut Vec<Surprise> {
        self.journal.push(
            Key::Surprises,
            Slot::Surprises(self.state.surprises.clone()),
        );
        &mut self.state.surprises
    }

    /// The combat bookkeeping, writable.
    pub fn combat_mut(&mut self) -> &mut Combat {
        self.journal
            .push(Key::Combat, Slot::Combat(self.state.combat.clone()));
        &mut self.state.combat
    }
}
