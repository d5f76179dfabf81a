//! The transaction journal: how a [`crate::Session`] stays atomic without
//! cloning the state, and how it finds what an event changed without
//! diffing the whole table.
//!
//! Rules never get `&mut State`. They get a [`Tx`], which reads the state
//! through `Deref` and writes only through methods that first save the
//! slot they touch (a pair, a hider's roll, a creature...) in the journal.
//! The journal holds, for each touched slot, the value it had before; it is
//! undone by swapping every saved value back, newest first, and redone by
//! swapping again, oldest first. A refused event is undone; a successful one
//! is compared on its touched slots only ([`Journal::effects`]): so an event
//! costs what it touches, never the table size.

use std::ops::Deref;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::event::ViewEntry;
use crate::outcome::{Change, Expiry, Status};
use crate::state::{
    Attempt, Combat, Creature, Hider, HiderPhase, Pair, State, Surprise, TokenId, TokenMap,
};
use std::collections::BTreeSet;

type PairHider = TokenId;

fn hider_token(hider: &PairHider) -> TokenId {
    hider.clone()
}

/// Which slot of the state a journal entry saved.
#[derive(Debug)]
enum Key {
    /// A whole hider record (inserted, replaced or removed).
    Hider(TokenId),
    /// A hider's phase (changes how every one of its pairs reads).
    Phase(TokenId),
    /// A hider's roll and `movedThisTurn`.
    Head(TokenId),
    /// One pair of a hider (the hider's id shared between entries).
    Pair(PairHider, TokenId),
    /// One creature.
    Creature(TokenId),
    /// The surprises list (short: at most one per attacker and target).
    Surprises,
    /// The combat bookkeeping.
    Combat,
}

/// The value a journal entry saved (or, after an undo, the value it replaced).
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
    /// The hider id of the last pair entry, shared by the next ones.
    last_hider: Option<PairHider>,
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

fn swap_slot(state: &mut State, key: &Key, slot: &mut Slot) {
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
            if let Some(record) = state.hiders.get_mut(&**hider) {
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
                swap_slot(state, &key, &mut slot);
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
        self.last_hider = None;
    }

    /// The hider id for a pair entry, allocated once per run of entries.
    fn hider_id(&mut self, hider: &str) -> PairHider {
        match &self.last_hider {
            Some(id) if id.as_str() == hider => id.clone(),
            _ => {
                let id = PairHider::from(hider);
                self.last_hider = Some(id.clone());
                id
            }
        }
    }

    /// Whether this transaction journaled the pair (debug checks only).
    fn has_pair(&self, hider: &str, observer: &str) -> bool {
        self.keys
            .iter()
            .rev()
            .any(|key| matches!(key, Key::Pair(h, o) if &**h == hider && o == observer))
    }

    /// Saves one pair's value before it is written (`None`: it did not exist).
    fn push_pair(&mut self, hider: &str, observer: TokenId, old: Option<Pair>) {
        let id = self.hider_id(hider);
        self.push(Key::Pair(id, observer), Slot::Pair(old));
    }

    fn push(&mut self, key: Key, slot: Slot) {
        self.keys.push(key);
        self.slots.push(slot);
    }

    /// What the journaled transaction changed, comparing the touched slots
    /// before and after: the visible [`Change`]s, in the order a full
    /// comparison gives them (visibility by hider then observer, then
    /// statuses by token), and the hidden-from lookup patch.
    pub fn effects(&mut self, state: &mut State) -> (Vec<Change>, Vec<HiddenFromChange>) {
        let Journal { keys, slots, .. } = self;
        if keys.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let mut hiders: BTreeSet<TokenId> = BTreeSet::new();
        let mut whole: BTreeSet<TokenId> = BTreeSet::new();
        // Every touched pair, with how it reads before and after.
        let mut values: BTreeMap<PairKey, [Option<PairView>; 2]> = BTreeMap::new();
        let mut creatures: BTreeSet<TokenId> = BTreeSet::new();
        let mut surprises = false;
        for key in keys.iter() {
            match key {
                Key::Hider(id) | Key::Phase(id) => {
                    hiders.insert(id.clone());
                    whole.insert(id.clone());
                }
                Key::Head(id) => {
                    hiders.insert(id.clone());
                }
                Key::Pair(hider, observer) => {
                    hiders.insert(hider_token(hider));
                    values
                        .entry((hider_token(hider), observer.clone()))
                        .or_default();
                }
                Key::Creature(id) => {
                    creatures.insert(id.clone());
                }
                Key::Surprises => surprises = true,
                Key::Combat => {}
            }
        }
        // A creature joining or leaving changes how every pair naming it
        // reads (B1: only known observers count).
        for creature in &creatures {
            for (hider, record) in &state.hiders {
                if record.pairs.contains_key(creature.as_str()) {
                    hiders.insert(hider.clone());
                    values.entry((hider.clone(), creature.clone())).or_default();
                }
            }
        }

        // The tokens whose `hidden` status may change (the touched hiders
        // and creatures) that showed it before.
        let mut hidden_before: BTreeSet<TokenId> = BTreeSet::new();
        // The joining or leaving creatures the engine knew before.
        let mut known_before: BTreeSet<TokenId> = BTreeSet::new();
        let mut surprises_before: Option<Vec<Surprise>> = None;

        // Pass 0: the state before the transaction.
        undo(state, keys, slots);
        for (key, [before, _]) in values.iter_mut() {
            *before = Some(PairView::read(state, key));
        }
        for hider in &whole {
            if let Some(record) = state.hiders.get(hider.as_str()) {
                for observer in record.pairs.keys() {
                    let key = (hider.clone(), observer.clone());
                    let view = PairView::read(state, &key);
                    values.entry(key).or_default()[0] = Some(view);
                }
            }
        }
        for creature in &creatures {
            if state.creatures.contains_key(creature.as_str()) {
                known_before.insert(creature.clone());
            }
        }
        for token in hiders.iter().chain(creatures.iter()) {
            if is_hidden(state, token) {
                hidden_before.insert(token.clone());
            }
        }
        if surprises {
            surprises_before = Some(state.surprises.clone());
        }
        redo(state, keys, slots);

        // Pass 1: the state now.
        for hider in &whole {
            if let Some(record) = state.hiders.get(hider.as_str()) {
                for observer in record.pairs.keys() {
                    values.entry((hider.clone(), observer.clone())).or_default();
                }
            }
        }
        for (key, [_, after]) in values.iter_mut() {
            *after = Some(PairView::read(state, key));
        }

        let mut changes = Vec::new();
        let mut lookup = Vec::new();
        for ((hider, observer), [before, after]) in &values {
            let Some(after) = after else { continue };
            // A pair that did not exist before reads as "no pair": perceived.
            let before = before.unwrap_or(PairView {
                perceives: true,
                known: if creatures.contains(observer) {
                    known_before.contains(observer)
                } else {
                    after.known
                },
                hidden_from: false,
            });
            if before.known && after.known && before.perceives != after.perceives {
                changes.push(Change::Visibility {
                    hider: hider.into(),
                    observer: observer.into(),
                    perceived: after.perceives,
                });
            }
            if before.hidden_from != after.hidden_from {
                lookup.push(HiddenFromChange {
                    observer: observer.into(),
                    hider: hider.into(),
                    hidden: after.hidden_from,
                });
            }
        }
        let mut status_tokens: BTreeSet<TokenId> =
            hiders.iter().chain(creatures.iter()).cloned().collect();
        if let Some(before) = &surprises_before {
            for surprise in before.iter().chain(&state.surprises) {
                status_tokens.insert(surprise.target.clone());
            }
        }
        for token in &status_tokens {
            if hiders.contains(token) || creatures.contains(token) {
                let was = hidden_before.contains(token);
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
            if let Some(before) = &surprises_before {
                let was = surprise_attacker(before, token);
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
        (changes, lookup)
    }
}

/// One journal entry as [`crate::record_changes`] reads it: a slot and
/// the value it held before it was first written in that entry.
pub(crate) enum Touched<'a> {
    /// A whole hider record (`None`: there was none).
    Hider(&'a str, Option<&'a Hider>),
    /// A hider's phase.
    Phase(&'a str, HiderPhase),
    /// One pair (`None`: there was none).
    Pair(&'a str, &'a str, Option<&'a Pair>),
    /// Anything else (a roll, a creature, the surprises, the combat).
    Other,
}

impl Journal {
    /// Every entry of the transaction, in the order the slots were
    /// written, with the value each held before (read after the rule ran,
    /// before the journal is cleared).
    pub(crate) fn touched(&self) -> impl Iterator<Item = Touched<'_>> {
        self.keys
            .iter()
            .zip(&self.slots)
            .map(|(key, slot)| match (key, slot) {
                (Key::Hider(id), Slot::Hider(saved)) => Touched::Hider(id.as_str(), saved.as_ref()),
                (Key::Phase(id), Slot::Phase(phase)) => Touched::Phase(id.as_str(), *phase),
                (Key::Pair(hider, observer), Slot::Pair(saved)) => {
                    Touched::Pair(hider.as_ref(), observer.as_str(), saved.as_ref())
                }
                _ => Touched::Other,
            })
    }
}

fn undo(state: &mut State, keys: &[Key], slots: &mut [Slot]) {
    for (key, slot) in keys.iter().zip(slots.iter_mut()).rev() {
        swap_slot(state, key, slot);
    }
}

fn redo(state: &mut State, keys: &[Key], slots: &mut [Slot]) {
    for (key, slot) in keys.iter().zip(slots.iter_mut()) {
        swap_slot(state, key, slot);
    }
}

/// A (hider, observer) pair: clones of the journal's ids.
type PairKey = (TokenId, TokenId);

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
    fn read(state: &State, (hider, observer): &(TokenId, TokenId)) -> PairView {
        let perceives = state.perceives(observer, hider);
        let known = state.creatures.contains_key(observer.as_str());
        PairView {
            perceives,
            known,
            hidden_from: known
                && observer != hider
                && state.hiders.contains_key(hider.as_str())
                && !perceives,
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
/// journaled at the first [`PairTx::pair_mut`], unless the event already
/// journaled it (`saved`: [`Tx::record_view`] saved the pair earlier in the
/// same event; the first saved value is the one a rollback restores and
/// [`Journal::effects`] compares with, so a second entry would only cost
/// time. No savepoint is taken inside an event, so the saved entry is
/// after any savepoint. Debug builds check that the entry exists).
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
        self.pair_tx(hider, observer, false)
            .map(PairTx::into_pair_mut)
    }

    /// An existing pair with its hider's roll and the creatures, read and
    /// written with one lookup ([`PairTx`], which says what `saved` means).
    /// `None` when there is no such pair.
    pub fn pair_tx<'b>(
        &'b mut self,
        hider: &'b str,
        observer: &'b str,
        saved: bool,
    ) -> Option<PairTx<'b>> {
        debug_assert!(
            !saved || self.journal.has_pair(hider, observer),
            "pair_tx: the pair {hider}/{observer} was not journaled in this event"
        );
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
            saved,
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
    ///
    /// A pair whose clear view and distance already read as `entry` is
    /// neither written nor journaled: an event that names observers whose
    /// view did not change (a token drag among observers that stay out of
    /// view) costs their lookups only. Returns, for each entry, whether this
    /// call journaled its pair (see [`PairTx`]).
    pub fn record_view(&mut self, hider: &str, view: &[ViewEntry], new_pair: Pair) -> Vec<bool> {
        let mut saved = vec![false; view.len()];
        let Some(record) = self.state.hiders.get_mut(hider) else {
            return saved;
        };
        for (entry, saved) in view.iter().zip(saved.iter_mut()) {
            let old = match record.pairs.get_mut(&entry.observer) {
                Some(pair) => {
                    if pair.clear_view == entry.clear_view
                        && same_distance(pair.distance, entry.distance)
                    {
                        continue;
                    }
                    let old = pair.clone();
                    pair.clear_view = entry.clear_view;
                    pair.distance = entry.distance;
                    Some(old)
                }
                None => {
                    let mut pair = new_pair.clone();
                    pair.clear_view = entry.clear_view;
                    pair.distance = entry.distance;
                    record.pairs.insert(entry.observer.clone(), pair);
                    None
                }
            };
            self.journal.push_pair(hider, entry.observer.clone(), old);
            *saved = true;
        }
        saved
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
