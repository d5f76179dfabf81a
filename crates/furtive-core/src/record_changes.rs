//! What a transaction changed in the records a caller keeps beside a
//! session, so it never has to know which events change them: the hiders
//! that began or ended a stealth attempt, and the pairs whose stored clear
//! view or distance changed (the `attempts` and `views` of
//! [`crate::Effects`]).
//!
//! The journal finds them with the visible changes, from the slots the
//! transaction touched: so they cost what it touched, never the table.

use serde::{Deserialize, Serialize};

use crate::event::ViewEntry;
use crate::state::TokenId;

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

/// The stored views of one hider that a transaction changed: the clear
/// view and distance the engine now holds for some observers, and the
/// observers whose pair it no longer holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ViewChanges {
    pub hider: TokenId,
    /// The observers whose pair is new or whose clear view or distance
    /// changed, as now held: the shape of an event's `view`.
    pub view: Vec<ViewEntry>,
    /// The observers whose pair went away (the hider's attempt or the
    /// observer is gone).
    pub removed: Vec<TokenId>,
}
