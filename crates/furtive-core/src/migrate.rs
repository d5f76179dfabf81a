//! Reading a state from JSON, in any format version this engine knows.
//!
//! - Version 2 (current, [`crate::STATE_VERSION`]): read as it is.
//! - Version 1: [`migrate_v1`] rewrites it to version 2 first.
//!
//! What version 2 changed, and why:
//! - a hider no longer has `stale`: it duplicated `pendingModifiers`
//!   (`stale` was true exactly when a P4 roll was pending);
//! - a pair's `exposed` changes meaning: version 1 wrote the pair's
//!   exposure as it is now ([`crate::Pair::is_exposed`]) and never read it;
//!   version 2 remembers an exposure until the end of the hider's turn,
//!   where O5 reads it (*Decided*: a hider that did not move is revealed to
//!   an observer it was exposed to, even one that walked out of view). It
//!   is omitted when false;
//! - each ruleset has its own attempt record ([`crate::state::Attempt`]): a
//!   `percentile` hider keeps `d100`, `modifiers`, `score`,
//!   `pendingModifiers`, `alreadyPerceivedAdded`, an `opposed` hider keeps
//!   `heldTotal`, `penalties`, `precautions`;
//! - the state has a `revision` (0 for a migrated state).

use serde_json::Value;

use crate::error::Error;
use crate::state::{State, StateRepr, STATE_VERSION};

/// Fields of a version 1 hider that belong to one ruleset only.
const PERCENTILE_FIELDS: [&str; 5] = [
    "d100",
    "modifiers",
    "score",
    "pendingModifiers",
    "alreadyPerceivedAdded",
];
// (`attacked`, P9, is new in version 2: a version 1 state has none.)
const OPPOSED_FIELDS: [&str; 3] = ["heldTotal", "penalties", "precautions"];

/// Rewrites a version 1 state (JSON) as version 2: drops every hider's
/// `stale` and every pair's `exposed: false` (a pair exposed now stays
/// exposed: O5 remembers it until the hider's turn end), drops the other ruleset's attempt
/// fields (version 1 wrote them as `null` or empty, and never read them),
/// and sets `version: 2`. Anything it does not recognise is left as it is
/// for the version 2 reader to refuse with a clear message.
///
/// Errors: none of its own; a value that is not an object is returned
/// unchanged.
// `#[inline]`: see `read_state`.
#[inline]
pub fn migrate_v1(mut state: Value) -> Value {
    let Some(object) = state.as_object_mut() else {
        return state;
    };
    let foreign: &[&str] = match object.get("ruleset").and_then(Value::as_str) {
        Some("percentile") => &OPPOSED_FIELDS,
        Some("opposed") => &PERCENTILE_FIELDS,
        _ => &[],
    };
    if let Some(hiders) = object.get_mut("hiders").and_then(Value::as_object_mut) {
        for hider in hiders.values_mut() {
            let Some(hider) = hider.as_object_mut() else {
                continue;
            };
            hider.remove("stale");
            for field in foreign {
                hider.remove(*field);
            }
            if let Some(pairs) = hider.get_mut("pairs").and_then(Value::as_object_mut) {
                for pair in pairs.values_mut() {
                    if let Some(pair) = pair.as_object_mut() {
                        // Version 1 wrote `exposed` as the pair is now
                        // (`Pair::is_exposed`); version 2 remembers it until
                        // the hider's turn end (O5) and omits it when false.
                        if pair.get("exposed") != Some(&Value::Bool(true)) {
                            pair.remove("exposed");
                        }
                    }
                }
            }
        }
    }
    object.insert("version".into(), Value::from(STATE_VERSION));
    state
}

/// Reads a state from JSON in format version 1 or 2 (older is migrated).
/// `what` names the argument in errors (`state.hiders.spy.score`).
///
/// Errors: `unsupported_version` for another version; `invalid_input`
/// naming the field for a bad shape (including a field of the other
/// ruleset in a version 2 hider). The state is not validated here: see
/// [`crate::validate_state`].
// `#[inline]`: compiled in the binding crate that calls it, beside the
// argument readers, so a binary holds one copy of the serde code they share.
#[inline]
pub fn read_state(what: &str, state: Value) -> Result<State, Error> {
    let version = state.get("version").and_then(Value::as_u64);
    let state = match version {
        Some(1) => migrate_v1(state),
        Some(v) if v == u64::from(STATE_VERSION) => state,
        Some(found) => {
            return Err(Error::UnsupportedVersion {
                found: u32::try_from(found).unwrap_or(u32::MAX),
                supported: STATE_VERSION,
            })
        }
        // Not a number, or missing: the reader says what is wrong.
        None => state,
    };
    let repr: StateRepr =
        serde_path_to_error::deserialize(&state).map_err(|error| Error::refused_at(what, error))?;
    typed_state(what, repr)
}

/// The state a version 2 `repr` holds, its hiders typed by the ruleset;
/// errors name `what.hiders.…`.
// `#[inline]`: see `read_state`.
#[inline]
pub(crate) fn typed_state(what: &str, repr: StateRepr) -> Result<State, Error> {
    State::try_from(repr).map_err(|error| match error {
        Error::InvalidInput { field, message } => Error::InvalidInput {
            field: format!("{what}.{field}"),
            message,
        },
        other => other,
    })
}
