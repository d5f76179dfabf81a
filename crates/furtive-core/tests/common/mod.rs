//! Helpers shared by the integration tests: states and events are written
//! as JSON (the shapes the bindings and the Foundry module send), so the
//! tests also pin the public JSON contract.
#![allow(dead_code)]

use std::collections::BTreeMap;

use furtive_core::state::TokenId;
use furtive_core::{
    apply, create_state, query, Audience, Change, Config, Effects, Error, Event, LogEntry, Outcome,
    Pair, Request, Session, State, Status,
};
use serde_json::Value;

/// Builds a state from a `createState` config written as JSON.
pub fn state(config: Value) -> State {
    let config: Config = serde_json::from_value(config).expect("valid config JSON");
    create_state(config).expect("valid config")
}

/// Parses an event written as JSON.
pub fn ev(event: Value) -> Event {
    serde_json::from_value(event).expect("valid event JSON")
}

/// Applies an event that must be accepted.
pub fn ok(state: &State, event: Value) -> Outcome {
    let event = ev(event);
    let kind = event.kind();
    apply(state, event).unwrap_or_else(|e| panic!("{kind} refused: {e} ({})", e.code()))
}

/// Applies a chain of events that must all be accepted; returns the last state.
pub fn run(state: &State, events: Vec<Value>) -> State {
    events
        .into_iter()
        .fold(state.clone(), |current, event| ok(&current, event).state)
}

/// Applies an event that must be refused, and checks the state did not
/// change (atomicity). Returns the error.
pub fn refused(state: &State, event: Value) -> Error {
    let before = state.clone();
    let event = ev(event);
    let kind = event.kind();
    match apply(state, event) {
        Ok(_) => panic!("{kind} was accepted"),
        Err(error) => {
            assert_eq!(state, &before, "a refused {kind} changed the state");
            error
        }
    }
}

/// The pair of `observer` in `hider`'s record.
pub fn pair<'a>(state: &'a State, hider: &str, observer: &str) -> &'a Pair {
    state
        .hiders
        .get(hider)
        .unwrap_or_else(|| panic!("{hider} has no hider record"))
        .pairs
        .get(observer)
        .unwrap_or_else(|| panic!("{hider} has no pair with {observer}"))
}

/// Perception checks requested for `observer` against `hider`.
pub fn checks_for<'a>(outcome: &'a Outcome, hider: &str, observer: &str) -> Vec<&'a str> {
    outcome
        .requests
        .iter()
        .filter_map(|r| match r {
            Request::PerceptionCheck {
                hider: h,
                observers,
                clause,
            } if h == hider && observers.iter().any(|o| o == observer) => Some(clause.id()),
            _ => None,
        })
        .collect()
}

/// The visibility changes of the outcome as (hider, observer, perceived).
pub fn visibility(outcome: &Outcome) -> Vec<(String, String, bool)> {
    outcome
        .changes
        .iter()
        .filter_map(|c| match c {
            Change::Visibility {
                hider,
                observer,
                perceived,
            } => Some((hider.to_string(), observer.to_string(), *perceived)),
            _ => None,
        })
        .collect()
}

/// The status changes of `token` for `status`.
pub fn status_changes<'a>(outcome: &'a Outcome, token: &str, status: Status) -> Vec<&'a Change> {
    outcome
        .changes
        .iter()
        .filter(|c| matches!(c, Change::Status { token: t, status: s, .. } if t == token && *s == status))
        .collect()
}

/// Log entries with this clause.
pub fn entries<'a>(outcome: &'a Outcome, clause: &str) -> Vec<&'a LogEntry> {
    outcome.log.iter().filter(|e| e.clause == clause).collect()
}

/// Log entries with this clause and audience.
pub fn entries_for<'a>(
    outcome: &'a Outcome,
    clause: &str,
    audience: Audience,
) -> Vec<&'a LogEntry> {
    outcome
        .log
        .iter()
        .filter(|e| e.clause == clause && e.audience == audience)
        .collect()
}

/// Every clause id the engine may cite in a log entry or decision.
pub fn known_clause(clause: &str) -> bool {
    let numbered = |prefix: &str, max: u32| {
        clause
            .strip_prefix(prefix)
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| (1..=max).contains(&n))
    };
    clause == "GM" || numbered("P", 11) || numbered("O", 13) || numbered("B", 5)
}

/// Removes clause references such as `(P1, P2)` or `(O4)` from a text, so
/// what is left can be searched for numbers.
pub fn without_clause_ids(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let starts_id = matches!(c, 'P' | 'O' | 'B')
            && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit())
            && (i == 0 || !chars[i - 1].is_alphanumeric());
        if starts_id {
            i += 1;
            while chars.get(i).is_some_and(|d| d.is_ascii_digit()) {
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Checks B3 on every entry: a known clause id, English and French texts
/// that are both present and differ.
pub fn assert_bilingual(log: &[LogEntry]) {
    for entry in log {
        assert!(
            known_clause(entry.clause.id()),
            "unknown clause in {entry:?}"
        );
        assert!(
            !entry.en().trim().is_empty(),
            "empty English text in {entry:?}"
        );
        assert!(
            !entry.fr().trim().is_empty(),
            "empty French text in {entry:?}"
        );
        assert_ne!(
            entry.en(),
            entry.fr(),
            "French text not translated in {entry:?}"
        );
    }
}

/// Whether the text holds a digit once clause ids are removed.
pub fn has_number(text: &str) -> bool {
    without_clause_ids(text).chars().any(|c| c.is_ascii_digit())
}

/// `after` equals `before` but for the revision, which every successful
/// `apply` increments: the event changed nothing else.
pub fn assert_unchanged(after: &State, before: &State) {
    assert_eq!(after.revision, before.revision + 1, "one successful apply");
    let mut same = after.clone();
    same.revision = before.revision;
    assert_eq!(&same, before, "the event changed the state");
}

/// The hidden-from lookup of `before` (`query::hidden_from`) patched with
/// `effects` (`Session::hidden_from_changes`, B1/B2), or what is wrong with
/// a patch entry: a hider added to a list that holds it, or removed from
/// one that does not.
pub fn patched_lookup(
    before: &State,
    effects: &Effects,
) -> Result<BTreeMap<TokenId, Vec<TokenId>>, String> {
    let mut lookup = query::hidden_from(before).map_err(|error| error.to_string())?;
    for patch in Session::hidden_from_changes(effects) {
        let list = lookup.entry(patch.observer.clone()).or_default();
        if patch.hidden {
            if list.contains(&patch.hider) {
                return Err(format!("{patch:?} added twice"));
            }
            list.push(patch.hider.clone());
            list.sort();
        } else {
            if !list.contains(&patch.hider) {
                return Err(format!("{patch:?} was not there"));
            }
            list.retain(|hider| hider != &patch.hider);
        }
        if list.is_empty() {
            lookup.remove(&patch.observer);
        }
    }
    Ok(lookup)
}

/// A hit zone, or none (a proptest strategy for the property tests).
pub fn hit_zone() -> impl proptest::strategy::Strategy<Value = Option<furtive_core::HitZone>> {
    use furtive_core::HitZone;
    proptest::option::of(proptest::sample::select(vec![
        HitZone::Head,
        HitZone::Trunk,
        HitZone::Arm,
        HitZone::Leg,
    ]))
}
