//! # furtive-core
//!
//! Furtive's stealth rules engine, pure Rust: a [`Session`] that keeps the
//! state and applies events in place (`Session::apply(Event) -> Effects`,
//! cost following the event), and the reducer
//! `apply(&State, Event) -> Result<Outcome, Error>` built on it, over plain
//! serializable data, for two rulesets:
//!
//! - `percentile` ([`percentile`], clauses P1-P11): a d100 stealth score
//!   against each observer's acuity sum;
//! - `opposed` ([`opposed`], clauses O1-O13): a held Stealth total against
//!   each observer's Perception check.
//!
//! Clause ids refer to `shared/rules-interpretation.md`; `docs/rules.md`
//! maps each to its code and tests. The engine never rolls dice behind the
//! caller's back: it returns [`Request`]s, and [`Roller`] answers them from
//! a seed for callers without dice (B4). [`scene`] reads Foundry Scene
//! exports and computes clear view and distances between tokens for callers
//! without a canvas; [`darkness`] decides concealment by darkness (B5) for
//! it and for callers with their own lighting (no feature needed);
//! [`sides`] decides who is an ally (O3, P6, P9) for the engine and for
//! callers without a state. The JSON boundary the bindings share is the
//! crate `furtive-json`; nothing here imports it.
//!
//! Cargo features, all additive: `scene` (the scene reader and clear view)
//! and `roller` (the seeded roller: `settle`, `roll_requests`), on by
//! default (the Foundry module's wasm is built without them), and `schema`
//! (the JSON Schemas of every type that crosses the JavaScript boundary,
//! from which `npm/types.d.ts` is generated).

pub mod clause;
mod combat;
mod context;
pub mod darkness;
mod dispatch;
pub mod error;
pub mod event;
mod explain;
pub mod message;
mod question;
// Savepoints serve `settle` only (feature `roller`).
#[cfg_attr(not(feature = "roller"), allow(dead_code))]
mod journal;
pub mod migrate;
pub mod opposed;
pub mod outcome;
pub mod percentile;
pub mod query;
mod range;
pub mod record_changes;
#[cfg(feature = "roller")]
pub mod roller;
mod rules;
#[cfg(feature = "scene")]
pub mod scene;
#[cfg(feature = "schema")]
pub mod schema;
pub mod session;
pub mod sides;
pub mod standing;
pub mod state;
mod tagged;
mod validate;

pub use clause::Clause;
pub use dispatch::create_state;
pub use error::{Error, ErrorInfo};
pub use event::{Event, ViewEntry};
pub use outcome::{Audience, Change, Decision, Expiry, LogEntry, Outcome, Request, Status};
#[cfg(feature = "roller")]
pub use roller::{roll_requests, Roller};
#[cfg(feature = "scene")]
pub use scene::{ClearViewMatrix, Point, Scene, SightIndex, SightLine};
#[cfg(feature = "roller")]
pub use session::settle;
pub use session::{apply, diff};
pub use session::{Effects, HiddenFromChange, Session};
pub use state::{
    Acuities, Attempt, Config, Creature, EnhancedSense, FreeModifier, Hider, HiderPhase, HitZone,
    Modifiers, OpposedAttempt, Pair, PairReason, Penalty, PenaltyScope, PercentileAttempt, Ruleset,
    Settings, SituationModifier, State, Surprise, TokenId, STATE_VERSION,
};
pub use validate::validate_state;
