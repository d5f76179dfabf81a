//! wasm-bindgen build of `furtive-core`, for browsers and the Foundry module.
//!
//! A thin layer with no rule logic: every export converts its JavaScript
//! arguments to JSON values with `serde-wasm-bindgen`, calls the same
//! function of `furtive_core::api`, and converts the result back with the
//! JSON-compatible serializer (plain objects, `null`, no `Map`). Errors are
//! thrown as real `Error` objects whose `code` is the core's stable code.
//!
//! Built for `wasm32-unknown-unknown` with the `wasm-release` profile, then
//! `wasm-bindgen --target web` (see `scripts/build-wasm.sh`).

use furtive_core::{api, Error};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Builds the thrown `Error`: message from the core, `code` property set.
fn to_js_error(error: &Error) -> JsValue {
    let js = js_sys::Error::new(&error.to_string());
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&js, &"code".into(), &error.code().into());
    js.into()
}

/// JavaScript value -> JSON value; `field` names the argument in the error.
fn input(field: &str, value: JsValue) -> Result<Value, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        to_js_error(&Error::InvalidInput {
            field: field.to_owned(),
            message: e.to_string(),
        })
    })
}

/// JSON value -> plain JavaScript value.
fn output(result: Result<Value, Error>) -> Result<JsValue, JsValue> {
    let value = result.map_err(|e| to_js_error(&e))?;
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| {
            to_js_error(&Error::InvalidInput {
                field: "output".into(),
                message: e.to_string(),
            })
        })
}

macro_rules! export {
    ($(#[$doc:meta])* $js:literal, $name:ident, $core:path, $($arg:ident),+) => {
        $(#[$doc])*
        #[wasm_bindgen(js_name = $js)]
        pub fn $name($($arg: JsValue),+) -> Result<JsValue, JsValue> {
            output($core($(input(stringify!($arg), $arg)?),+))
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
    /// `settle(state, event, seed) -> Outcome` (B4).
    "settle", settle, api::settle, state, event, seed
);
export!(
    /// `parseScene(scene) -> Scene`: a Foundry Scene export (v10+, 0.8/v9, 0.7) normalized.
    "parseScene", parse_scene, api::parse_scene, scene
);
export!(
    /// `clearView(scene, { from, to }) -> { clearView, from, to, distance, units, blockingWalls, limitedWalls }`.
    "clearView", clear_view, api::clear_view, scene, query
);
export!(
    /// `clearViewMatrix(scene, tokens?) -> { ids, clearView, distance, units }`; omitted tokens = the scene's own.
    "clearViewMatrix", clear_view_matrix, api::clear_view_matrix, scene, tokens
);

/// `errorCodes() -> string[]`: every stable error code.
#[wasm_bindgen(js_name = "errorCodes")]
pub fn error_codes() -> Result<JsValue, JsValue> {
    output(Ok(api::error_codes()))
}
