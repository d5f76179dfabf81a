//! napi-rs addon of `furtive-core` for Node.js.
//!
//! A thin layer with no rule logic. Every export takes its arguments as JSON
//! text (the package's `node.js` serializes them with the platform's
//! `JSON.stringify`), reads them with `serde_json`, calls the same function
//! of `furtive_core::api`, and returns the JSON result as plain objects
//! (napi's `serde-json` feature). The wasm build does exactly the same, so
//! both backends accept, refuse and word everything identically.
//!
//! Errors are thrown as real `Error` objects whose `code` is the core's
//! stable code (`invalid_input`, `unknown_token`...) and whose message is the
//! core's message, which names the field. A panic never crosses into Node:
//! each export runs under `catch_unwind` and a panic becomes an `Error` with
//! code `engine_panicked`.
//!
//! Loaded by `npm/node.js` from `npm/furtive.<platform>.node`
//! (`scripts/build-node.sh`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use furtive_core::{api, Error};
use napi_derive::napi;
use serde_json::Value;

/// The `code` of a thrown error: one of `furtive_core::Error::CODES`, or
/// `engine_panicked`.
pub struct Code(&'static str);

impl AsRef<str> for Code {
    fn as_ref(&self) -> &str {
        self.0
    }
}

/// Runs one export: a core error becomes a thrown `Error` with its code, a
/// panic becomes `engine_panicked` instead of reaching Node.
fn run(call: impl FnOnce() -> Result<Value, Error>) -> napi::Result<Value, Code> {
    match catch_unwind(AssertUnwindSafe(call)) {
        Ok(result) => result.map_err(|e| napi::Error::new(Code(e.code()), e.to_string())),
        Err(payload) => {
            let detail = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".into());
            Err(napi::Error::new(
                Code("engine_panicked"),
                format!("engine: the engine panicked ({detail}); this is a bug in furtive, please report it with the input"),
            ))
        }
    }
}

macro_rules! export {
    ($(#[$doc:meta])* $js:literal, $name:ident, $core:path, $($arg:ident),+) => {
        $(#[$doc])*
        #[napi(js_name = $js)]
        pub fn $name($($arg: String),+) -> napi::Result<Value, Code> {
            run(|| $core($(api::parse_json(stringify!($arg), &$arg)?),+))
        }
    };
}

export!(
    /// `createState(config) -> State`: a fresh state from `{ ruleset, settings?, creatures? }`.
    "createState", create_state, api::create_state, config
);
export!(
    /// `apply(state, event) -> Outcome { state, changes, requests, log }`.
    "apply", apply, api::apply, state, event
);
export!(
    /// `perceives(state, { observer, hider }) -> Decision`.
    "perceives", perceives, api::perceives, state, query
);
export!(
    /// `canLocate(state, { observer, hider }) -> Decision` (P5).
    "canLocate", can_locate, api::can_locate, state, query
);
export!(
    /// `canDefend(state, { defender, target, attacker }) -> Decision` (P6).
    "canDefend", can_defend, api::can_defend, state, query
);
export!(
    /// `knockout(state, { attacker, target, helmet, rawDamage?, d100? }) -> KnockoutResult` (P8).
    "knockout", knockout, api::knockout, state, query
);
export!(
    /// `canPickpocket(state, { hider, target, held, visible }) -> Decision` (P10).
    "canPickpocket", can_pickpocket, api::can_pickpocket, state, query
);
export!(
    /// `attackHidden(state, { attacker, target, aimedAtSpace, area }) -> HiddenAttackResult` (O10).
    "attackHidden", attack_hidden, api::attack_hidden, state, query
);
export!(
    /// `hiddenFrom(state) -> { [observer]: hider[] }` (B1, B2): the lookup the Foundry module publishes.
    "hiddenFrom", hidden_from, api::hidden_from, state
);
export!(
    /// `rollRequests(state, requests, seed) -> Event[]` (B4).
    "rollRequests", roll_requests, api::roll_requests, state, requests, seed
);
export!(
    /// `settle(state, event, seed) -> Outcome` (B4): apply, then answer every request.
    "settle", settle, api::settle, state, event, seed
);
export!(
    /// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) or a normalized scene.
    "parseScene", parse_scene, api::parse_scene, scene
);
export!(
    /// `clearView(scene, { from, to }) -> ClearView`.
    "clearView", clear_view, api::clear_view, scene, query
);
export!(
    /// `clearViewMatrix(scene, tokens | null) -> ClearViewMatrix`.
    "clearViewMatrix", clear_view_matrix, api::clear_view_matrix, scene, tokens
);

/// `situationModifiers() -> [{ id, value }]`: the nine P2 situation modifiers and their values.
#[napi(js_name = "situationModifiers")]
pub fn situation_modifiers() -> Value {
    api::situation_modifiers()
}

/// `errorCodes() -> string[]`: every stable error code of the engine.
#[napi(js_name = "errorCodes")]
pub fn error_codes() -> Value {
    api::error_codes()
}

/// Panics on purpose, for the tests of panic handling only (not public API).
#[doc(hidden)]
#[napi(js_name = "__panicForTests")]
pub fn panic_for_tests() -> napi::Result<Value, Code> {
    run(|| panic!("deliberate panic for tests"))
}
