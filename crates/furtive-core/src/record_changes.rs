//! What a transaction changed in the records a caller keeps beside a
//! session, so it never has to know which events change them: the hiders
//! that began or ended a stealth attempt, and the pairs whose stored clear
//! view or distance changed (the `attempts` and `views` of
//! [`crate::Effects`]).
//!
//! Found from the journal's saved slots (`journal::Before`): each slot's value
//! before the transaction, compared with the state after it.
//! So it costs what the transaction touched, never the table.

use serde::{Deserialize, Serialize};

use crate::journal::Before;
use crate::state::{HiderPhase, Pair, State, TokenId};

/// A hider began (`hiding: true`) or ended (`hiding: false`) a stealth
/// attempt: entered stealth; or stopped, sprinted (O12), left the scene,
/// or was revealed by its attack (P9). A new roll during an attempt is no
/// change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AttemptChange {
    pub hider: TokenId,
    /// Whether the token is now in a stealth attempt (phase `hiding`).
    pub hiding: bool,
}

/// The clear view or distance the engine holds for a pair changed, or the
/// pair appeared or went away (`removed`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewChange {
    pub hider: TokenId,
    pub observer: TokenId,
    /// The clear view now (`false` when removed).
    pub clear_view: bool,
    /// The distance now, in scene units (`null` when unknown or removed).
    pub distance: Option<f64>,
    /// The engine holds no pair any more (the hider's attempt or the
    /// observer is gone).
    pub removed: bool,
}

/// The attempt and view changes of a transaction: `before` as the journal
/// saved it, the state as the transaction left it. Attempts by hider,
/// views by hider then observer.
///
/// Sorted `Vec`s, not maps: the Foundry module's wasm pays for each map
/// type it carries.
pub(crate) fn record_changes(
    before: &Before,
    state: &State,
) -> (Vec<AttemptChange>, Vec<ViewChange>) {
    let hiding = |phase: Option<HiderPhase>| phase == Some(HiderPhase::Hiding);
    let mut phases: Vec<&str> = before.saved_hiders().collect();
    phases.sort_unstable();
    phases.dedup();
    let attempts = phases
        .into_iter()
        .filter_map(|id| {
            let now = state.hiders.get(id).map(|h| h.phase);
            (hiding(before.phase(state, id)) != hiding(now)).then(|| AttemptChange {
                hider: id.into(),
                hiding: hiding(now),
            })
        })
        .collect();

    // Every pair saved, and every pair a whole saved record had or has.
    let records: Vec<&str> = before.saved_records().collect();
    let pairs = before.pairs_with(state, &records, Vec::new());
    let view = |pair: Option<&Pair>| pair.map(|p| (p.clear_view, p.distance.map(f64::to_bits)));
    let mut views = Vec::new();
    for group in pairs.chunk_by(|a, b| a.0 == b.0) {
        let hider = group[0].0;
        let record = state.hiders.get(hider);
        for &(_, observer, was) in group {
            let now = record.and_then(|h| h.pairs.get(observer));
            if view(was) != view(now) {
                views.push(ViewChange {
                    hider: hider.into(),
                    observer: observer.into(),
                    clear_view: now.is_some_and(|p| p.clear_view),
                    distance: now.and_then(|p| p.distance),
                    removed: now.is_none(),
                });
            }
        }
    }
    (attempts, views)
}
