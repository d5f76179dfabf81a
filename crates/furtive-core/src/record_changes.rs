//! What a transaction changed in the records a caller keeps beside a
//! session, so it never has to know which events change them: the hiders
//! that began or ended a stealth attempt, and the pairs whose stored clear
//! view or distance changed (the `attempts` and `views` of
//! [`crate::Effects`]).
//!
//! Found from the journal's touched slots (`Journal::touched`): each
//! slot's value before the transaction, compared with the state after it.
//! So it costs what the transaction touched, never the table.

use serde::{Deserialize, Serialize};

use crate::journal::{Journal, Touched};
use crate::state::{Hider, HiderPhase, Pair, State, TokenId};

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

/// The attempt and view changes of the transaction `journal` holds, the
/// state being as it left it: attempts by hider, views by hider then
/// observer.
///
/// Sorted `Vec`s, not maps: the Foundry module's wasm pays for each map
/// type it carries.
pub(crate) fn record_changes(
    journal: &Journal,
    state: &State,
) -> (Vec<AttemptChange>, Vec<ViewChange>) {
    // Each touched hider's phase before (`None`: no record), and each
    // touched pair's value before (`None`: no pair), from the first entry
    // that saved it: a whole record saved first stands for all its pairs.
    let mut phases: Vec<(&str, Option<HiderPhase>)> = Vec::new();
    let mut records: Vec<(&str, Option<&Hider>)> = Vec::new();
    let mut pairs: Vec<(&str, &str, Option<&Pair>)> = Vec::new();
    for touched in journal.touched() {
        match touched {
            Touched::Hider(id, before) => {
                phases.push((id, before.map(|h| h.phase)));
                if records.iter().all(|(seen, _)| *seen != id) {
                    records.push((id, before));
                }
            }
            Touched::Phase(id, phase) => phases.push((id, Some(phase))),
            Touched::Pair(hider, observer, before) => {
                if records.iter().all(|(seen, _)| *seen != hider) {
                    pairs.push((hider, observer, before));
                }
            }
            Touched::Other => {}
        }
    }
    // A whole record: every pair it had or has, after the pairs saved
    // before it, which the sort below keeps first.
    for &(hider, before) in &records {
        let old = before.into_iter().flat_map(|h| h.pairs.iter());
        let new = state
            .hiders
            .get(hider)
            .into_iter()
            .flat_map(|h| h.pairs.iter());
        for (observer, _) in old.chain(new) {
            let was = before.and_then(|h| h.pairs.get(observer.as_str()));
            pairs.push((hider, observer.as_str(), was));
        }
    }
    phases.sort_by(|a, b| a.0.cmp(b.0));
    phases.dedup_by(|later, first| later.0 == first.0);
    pairs.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    pairs.dedup_by(|later, first| (later.0, later.1) == (first.0, first.1));

    let hiding = |phase: Option<HiderPhase>| phase == Some(HiderPhase::Hiding);
    let attempts = phases
        .into_iter()
        .filter_map(|(id, before)| {
            let now = state.hiders.get(id).map(|h| h.phase);
            (hiding(before) != hiding(now)).then(|| AttemptChange {
                hider: id.into(),
                hiding: hiding(now),
            })
        })
        .collect();
    let view = |pair: Option<&Pair>| pair.map(|p| (p.clear_view, p.distance.map(f64::to_bits)));
    let views = pairs
        .into_iter()
        .filter_map(|(hider, observer, before)| {
            let now = state.hiders.get(hider).and_then(|h| h.pairs.get(observer));
            (view(before) != view(now)).then(|| ViewChange {
                hider: hider.into(),
                observer: observer.into(),
                clear_view: now.is_some_and(|p| p.clear_view),
                distance: now.and_then(|p| p.distance),
                removed: now.is_none(),
            })
        })
        .collect();
    (attempts, views)
}
